/* SPDX-License-Identifier: MIT */
/* store_extend.c: ranks restored from the index whose steps.jsonl grew since it was
 * written (model/index/extent.h): the indexed records stay and only the new bytes are
 * parsed (steps_ranks_extend); a grown (thawed) rank goes back to its compact form
 * before the index is written again (steps_rank_settle); and the delta segments of
 * follow mode (model/index/index.h DELTAS): the records a follower appended, encoded
 * as they are stored and replayed onto the part's body when a rank is first read. */
#include "model/steps/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/pool.h"
#include "model/run.h"
#include "model/xalloc.h"

static void rank_settle(struct rank_steps *r)
{
	if (!r->live)
		return;
	free(r->idx_step);
	free(r->idx_pos);
	r->idx_step = NULL;
	r->idx_pos = NULL;
	store_rank_compact(r);
	r->live = false;
	r->dirty = false;
	r->sealed = true;
}

void steps_rank_settle(struct steps_model *m, size_t ri)
{
	rank_settle(m->rank[ri]);
}

struct extend_job {
	struct load_ctx *ctx;
	struct steps_model *m;
	const struct steps_rank_file *files;
	size_t *which;          /* files[which[i]] grew */
	long *src;              /* its source (run->src) as restored from the index */
	size_t nsrc0;           /* run->nsrc before: a later source for a path is a re-read */
	long lowest;
	atomic_llong bytes;
};

/* A source added for path since job->nsrc0: the rank's body failed and it was read
 * again from its JSONL whole (store_rank_load_body). */
static bool read_again(struct extend_job *job, const char *path)
{
	struct run *run = job->ctx->run;
	bool again = false;
	pthread_mutex_lock(&run->lock);
	for (size_t i = job->nsrc0; i < run->nsrc && !again; i++)
		again = strcmp(run->src[i].path, path) == 0;
	pthread_mutex_unlock(&run->lock);
	return again;
}

static void extend_rank(void *ud, size_t i)
{
	struct extend_job *job = ud;
	const struct steps_rank_file *f = &job->files[job->which[i]];
	long ri = steps_rank_index(job->m, (int)f->rank);
	if (ri < 0 || job->src[i] < 0)
		return;
	rank_need_body(job->m->rank[ri]);
	if (read_again(job, f->steps))
		return;
	int fd = infile_open(f->steps);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct rank_steps *r = steps_rank_grow(job->m, (size_t)ri);
	if (f->rank == job->lowest)
		rank_exact_scalars(r);
	struct steps_tail *t = steps_tail_resume(job->ctx, (size_t)job->src[i]);
	long long from = steps_tail_offset(t);
	load_progress(job->ctx, 0, (long long)st.st_size - from);
	steps_tail_read(t, r, fd, (long long)st.st_size, true);
	close(fd);
	steps_tail_free(t);
	steps_rank_settle(job->m, (size_t)ri);
	atomic_fetch_add(&job->bytes, (long long)st.st_size - from);
}

long long steps_ranks_extend(struct load_ctx *ctx, const struct steps_rank_file *files, const bool *grown,
			     size_t nfiles, long lowest)
{
	struct extend_job job = { .ctx = ctx, .m = steps_model_get(ctx->run), .files = files, .lowest = lowest };
	size_t n = 0;
	job.which = xmalloc((nfiles ? nfiles : 1) * sizeof(*job.which));
	for (size_t i = 0; i < nfiles; i++)
		if (grown[i])
			job.which[n++] = i;
	job.src = xmalloc((n ? n : 1) * sizeof(*job.src));
	index_sources_of(ctx->run, files, job.which, n, job.src, NULL);
	pthread_mutex_lock(&ctx->run->lock);
	job.nsrc0 = ctx->run->nsrc;
	pthread_mutex_unlock(&ctx->run->lock);
	atomic_init(&job.bytes, 0);
	pool_run(n, ctx->opts ? ctx->opts->jobs : 0, extend_rank, &job);
	free(job.which);
	free(job.src);
	return atomic_load(&job.bytes);
}

/* ---- delta segments ------------------------------------------------------------------- */

void store_rank_shape(const struct rank_steps *r, struct rank_shape *s)
{
	*s = (struct rank_shape){ r->n, r->ndistinct, r->contiguous, r->have_ts0, r->step0, r->span_lo,
				  r->span_hi, r->ts0 };
}

void store_rank_set_shape(struct rank_steps *r, const struct rank_shape *s)
{
	r->n = r->cap = s->n;
	r->ndistinct = s->ndistinct;
	r->contiguous = s->contiguous;
	r->have_ts0 = s->have_ts0;
	r->step0 = s->step0;
	r->span_lo = s->span_lo;
	r->span_hi = s->span_hi;
	r->ts0 = s->ts0;
}

void store_rank_free_segs(struct rank_steps *r)
{
	free(r->seg);
	free(r->base_shape);
	r->seg = NULL;
	r->base_shape = NULL;
	r->nseg = 0;
}

/* Bits [from, from + k) of bitmap b (NULL: all set) packed into ceil(k / 8) bytes; bits
 * from lim on (past what b holds) are clear. */
static void put_bits(struct obuf *o, const uint64_t *b, size_t lim, size_t from, size_t k)
{
	unsigned char byte = 0;
	for (size_t i = 0; i < k; i++) {
		if (from + i < lim && (!b || bit_get(b, from + i)))
			byte |= (unsigned char)(1u << (i & 7));
		if ((i & 7) == 7 || i + 1 == k) {
			ob_u8(o, byte);
			byte = 0;
		}
	}
}

static bool packed_bit(const unsigned char *p, size_t i)
{
	return p[i >> 3] >> (i & 7) & 1u;
}

/* Column c's values at [from, from + k): the stored elements as they are (run-length
 * columns as doubles), after their presence bits. A column grows only as far as its last
 * value (cap), so the records past it have none: absent, zeros. */
static void put_col_slice(struct obuf *o, const struct rank_steps *r, int mid, size_t from, size_t k)
{
	const struct column *c = &r->col[mid];
	unsigned char enc = c->enc == ENC_RLE ? ENC_F64 : c->enc;
	ob_u32(o, (uint32_t)mid);
	ob_u8(o, enc);
	put_bits(o, c->all_present ? NULL : c->present, c->enc == ENC_RLE ? SIZE_MAX : c->cap, from, k);
	if (c->enc != ENC_RLE) {
		size_t e = store_col_elem(enc), have = c->cap > from ? c->cap - from : 0;
		have = have < k ? have : k;
		ob_bytes(o, (const char *)c->data + from * e, have * e);
		for (size_t i = have * e; i < k * e; i++)
			ob_u8(o, 0);
		return;
	}
	struct col_cursor cur;
	col_cursor_init(&cur, r, mid);
	for (size_t i = 0; i < k; i++) {
		double v = 0;
		col_cursor_get(&cur, from + i, &v);
		ob_f64(o, v);
	}
}

static bool col_used(const struct rank_steps *r, size_t mid)
{
	return r->col[mid].cap || r->col[mid].enc == ENC_RLE;
}

void steps_rank_encode_delta(const struct steps_model *m, size_t ri, size_t from, struct obuf *o)
{
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	size_t k = r->n > from ? r->n - from : 0;
	ob_uvar(o, k);
	ob_u8(o, r->exact_scalars);
	ob_u8(o, r->contiguous);
	if (r->contiguous)
		ob_svar(o, r->step0 + (long)from);
	else
		ob_bytes(o, r->step + from, k * sizeof(*r->step));
	ob_u8(o, r->ts != NULL);
	if (r->ts) {
		ob_bytes(o, r->ts + from, k * sizeof(*r->ts));
		put_bits(o, r->ts_present, SIZE_MAX, from, k);
	}
	size_t ncol = 0;
	for (size_t i = 0; i < r->ncol; i++)
		ncol += col_used(r, i);
	ob_uvar(o, ncol);
	for (size_t i = 0; i < r->ncol; i++)
		if (col_used(r, i))
			put_col_slice(o, r, (int)i, from, k);
}

/* One column of a segment onto the k records from pos0 of r. */
static void replay_col(struct rank_steps *r, struct ibuf *b, size_t pos0, size_t k, const int *map, size_t nmap)
{
	uint32_t w = ib_u32(b);
	unsigned enc = ib_u8(b);
	const unsigned char *bits = ib_bytes(b, (k + 7) / 8);
	size_t elem = store_col_elem((unsigned char)enc);
	const unsigned char *v = enc <= ENC_F64 ? ib_bytes(b, k * elem) : NULL;
	if (!bits || !v || w >= nmap || map[w] < 0) {
		b->bad = true;
		return;
	}
	for (size_t i = 0; i < k; i++) {
		if (!packed_bit(bits, i))
			continue;
		double x;
		if (enc == ENC_NANO) {
			uint32_t code;
			memcpy(&code, v + i * elem, sizeof(code));
			x = (double)code / 1e9;
		} else if (enc == ENC_F32) {
			float f;
			memcpy(&f, v + i * elem, sizeof(f));
			x = (double)f;
		} else {
			memcpy(&x, v + i * elem, sizeof(x));
		}
		rank_set(r, pos0 + i, map[w], x);
	}
}

/* Append a segment's records to the thawed rank r, values as a follower stored them. */
static void replay(struct rank_steps *r, struct ibuf *b, const int *map, size_t nmap)
{
	size_t k = ib_count(b, 0);
	if (ib_u8(b))
		rank_exact_scalars(r);
	bool contig = ib_u8(b) != 0;
	long s0 = contig ? (long)ib_svar(b) : 0;
	const unsigned char *steps = contig ? NULL : ib_bytes(b, k * sizeof(int64_t));
	bool has_ts = ib_u8(b) != 0;
	const unsigned char *ts = has_ts ? ib_bytes(b, k * sizeof(float)) : NULL;
	const unsigned char *tbits = has_ts ? ib_bytes(b, (k + 7) / 8) : NULL;
	if (b->bad || k > UINT32_MAX - r->n)
		return (void)(b->bad = true);
	size_t pos0 = r->n;
	rank_reserve(r, pos0 + k);
	for (size_t i = 0; i < k; i++) {
		int64_t st = s0 + (long)i;
		if (steps)
			memcpy(&st, steps + i * sizeof(st), sizeof(st));
		size_t pos = rank_append(r, (long)st, 0, false);
		if (ts && packed_bit(tbits, i)) {
			memcpy(&r->ts[pos], ts + i * sizeof(float), sizeof(float));
			bit_set(r->ts_present, pos);
		}
	}
	size_t ncol = ib_count(b, 5);
	for (size_t i = 0; i < ncol && !b->bad; i++)
		replay_col(r, b, pos0, k, map, nmap);
}

static bool same_shape(const struct rank_shape *a, const struct rank_shape *b)
{
	return a->n == b->n && a->ndistinct == b->ndistinct && a->contiguous == b->contiguous &&
	       a->have_ts0 == b->have_ts0 && a->step0 == b->step0 && a->span_lo == b->span_lo &&
	       a->span_hi == b->span_hi && (!a->have_ts0 || a->ts0 == b->ts0);
}

const char *store_rank_apply_segs(struct rank_steps *r, const struct rank_shape *final,
				  const struct steps_part **bad_part)
{
	store_rank_thaw(r);
	if (!r->have_ts0 && final->have_ts0) { /* the first timestamp came in a segment */
		r->have_ts0 = true;
		r->ts0 = final->ts0;
	}
	const char *why = NULL;
	for (size_t i = 0; i < r->nseg && !why; i++) {
		const struct rank_seg *s = &r->seg[i];
		*bad_part = s->part;
		unsigned char *buf;
		why = r->n != s->from ? "delta segment does not continue the rank"
				      : store_part_read(s->part, s->off, s->len, s->crc, &buf);
		if (why)
			break;
		struct ibuf b = { buf, s->len, 0, false };
		replay(r, &b, s->part->map, s->part->nmap);
		free(buf);
		if (b.bad || b.off != b.n)
			why = "malformed delta segment";
	}
	rank_settle(r);
	struct rank_shape now;
	store_rank_shape(r, &now);
	if (!why && !same_shape(&now, final))
		why = "delta segments do not match the rank's shell";
	if (why)
		store_rank_free_body(r);
	return why;
}

bool steps_rank_defer_delta(struct rank_steps *r, const struct rank_steps *shell, const struct steps_part *p,
			    uint64_t off, uint64_t len, uint32_t crc, size_t from)
{
	if (!r->lazy || shell->rank != r->rank || from != r->n || shell->n < from)
		return false;
	if (!r->base_shape) {
		r->base_shape = xmalloc(sizeof(*r->base_shape));
		store_rank_shape(r, r->base_shape);
	}
	r->seg = xrealloc(r->seg, (r->nseg + 1) * sizeof(*r->seg));
	r->seg[r->nseg++] = (struct rank_seg){ p, off, len, crc, from };
	struct rank_shape s;
	store_rank_shape(shell, &s);
	store_rank_set_shape(r, &s);
	r->loss_not_number = shell->loss_not_number; /* a shell count, not the body's */
	return true;
}
