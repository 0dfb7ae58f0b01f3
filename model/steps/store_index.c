/* SPDX-License-Identifier: MIT */
/* store_index.c: the step store's serialized form for the persistent index
 * (model/index/): sealing a rank, encoding / decoding its shell (counts, span, run.json)
 * and its body (steps, timestamps, columns), and reading a lazy rank's body on demand. */
#include "model/steps/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/asan.h"
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/xalloc.h"

void steps_rank_seal(struct rank_steps *r)
{
	if (r->sealed)
		return;
	store_rank_compact(r);
	r->sealed = true;
}

/* run.json in a shell. The environment (keys and values) is one piece: its count, then
 * its strings back to back, each with its NUL; or, when it is byte for byte the one of
 * the shell before it in the row (the ranks of one job share it), the flag
 * META_ENV_AS_PREV alone. The start time follows the flags when META_STARTED says so.
 * The whole run.json text (steps_meta json: the lowest rank's, which the run comparison
 * parses again) ends the shell when the present byte has META_JSON: its length, then its
 * bytes, so a restored rank keeps what a plain load keeps. */
#define META_JSON (1u << 1)
#define META_ENV_AS_PREV (1u << 6)
#define META_STARTED (1u << 7)

static bool env_as(const struct steps_meta *x, const struct steps_meta *prev)
{
	return prev && x->nenv && x->env_bytes && x->nenv == prev->nenv && x->env_bytes == prev->env_bytes &&
	       memcmp(x->env_key[0], prev->env_key[0], x->env_bytes) == 0;
}

static void env_encode(const struct steps_meta *x, struct obuf *o)
{
	ob_uvar(o, x->nenv);
	if (x->env_bytes) {
		ob_u32(o, (uint32_t)x->env_bytes);
		ob_bytes(o, x->env_key[0], x->env_bytes);
		return;
	}
	size_t bytes = 0;
	for (size_t i = 0; i < x->nenv; i++)
		bytes += strlen(x->env_key[i]) + strlen(x->env_val[i]) + 2;
	ob_u32(o, (uint32_t)bytes);
	for (size_t i = 0; i < x->nenv; i++) {
		ob_bytes(o, x->env_key[i], strlen(x->env_key[i]) + 1);
		ob_bytes(o, x->env_val[i], strlen(x->env_val[i]) + 1);
	}
}

static void meta_encode(const struct steps_meta *x, const struct steps_meta *prev, bool with_json, struct obuf *o)
{
	bool as_prev = env_as(x, prev), json = with_json && x->json;
	ob_u8(o, (unsigned)x->present | (json ? META_JSON : 0));
	ob_str(o, x->name);
	ob_f64(o, x->flops_per_step);
	ob_f64(o, x->peak_flops);
	ob_f64(o, x->wall_time);
	ob_svar(o, x->world_size);
	ob_svar(o, x->n_steps);
	ob_svar(o, x->rank);
	ob_u8(o, (unsigned)x->has_flops | (unsigned)x->has_peak << 1 | (unsigned)x->has_wall << 2 |
		 (unsigned)x->has_world << 3 | (unsigned)x->has_nsteps << 4 | (unsigned)x->has_rank << 5 |
		 (as_prev ? META_ENV_AS_PREV : 0) | (x->has_started ? META_STARTED : 0));
	if (x->has_started)
		ob_f64(o, x->started);
	if (!as_prev)
		env_encode(x, o);
	if (json) {
		ob_uvar(o, x->json_len);
		ob_bytes(o, x->json, x->json_len);
	}
}

/* x's environment and name as one block (steps_meta env_text): n key/value pairs in
 * `bytes` bytes at text, at prev's offsets when they are prev's strings, else found by
 * their NULs (false: the bytes are not 2n strings; x keeps the block to free). */
static bool meta_block(struct steps_meta *x, size_t n, const char *text, size_t bytes, const struct steps_meta *prev,
		       const char *name, size_t name_len)
{
	if (!n && !name)
		return bytes == 0;
	size_t arrays = 2 * n * sizeof(char *);
	char *block = xmalloc(arrays + bytes + (name ? name_len + 1 : 0));
	char **ptr = (char **)(void *)block, *copy = block + arrays, *end = copy + bytes, *at = copy;
	x->env_text = block;
	x->env_key = n ? ptr : NULL;
	x->env_val = n ? ptr + n : NULL;
	memcpy(copy, text, bytes);
	if (prev) { /* the same strings: at prev's offsets */
		for (size_t i = 0; i < n; i++) {
			ptr[i] = copy + (prev->env_key[i] - prev->env_key[0]);
			ptr[n + i] = copy + (prev->env_val[i] - prev->env_key[0]);
		}
	} else { /* string 2i is key i, string 2i + 1 value i */
		for (size_t j = 0; j < 2 * n; j++) {
			char *nul = memchr(at, '\0', (size_t)(end - at));
			if (!nul)
				return false;
			ptr[j % 2 ? n + j / 2 : j / 2] = at;
			at = nul + 1;
		}
		if (at != end)
			return false;
	}
	x->nenv = n;
	x->env_bytes = n ? bytes : 0;
	if (name) {
		x->name = end;
		memcpy(x->name, name, name_len);
		x->name[name_len] = '\0';
	}
	return true;
}

/* The run.json text at the end of a shell (META_JSON), NUL-terminated. */
static void json_decode(struct steps_meta *x, struct ibuf *b)
{
	size_t n = ib_count(b, 1);
	const char *text = b->bad ? NULL : ib_bytes(b, n);
	if (!text) {
		b->bad = true;
		return;
	}
	x->json = xmalloc(n + 1);
	memcpy(x->json, text, n);
	x->json[n] = '\0';
	x->json_len = n;
}

/* The environment of a shell: prev's (META_ENV_AS_PREV), else its own piece. */
static void env_decode(struct steps_meta *x, struct ibuf *b, const struct steps_meta *prev, unsigned f,
		       const char *name, size_t name_len)
{
	if (f & META_ENV_AS_PREV) {
		if (!prev || !prev->env_bytes)
			b->bad = true;
		else
			meta_block(x, prev->nenv, prev->env_key[0], prev->env_bytes, prev, name, name_len);
		return;
	}
	size_t n = ib_count(b, 2); /* a key and a value: two NULs at least */
	uint32_t bytes = ib_u32(b);
	const char *text = b->bad ? NULL : ib_bytes(b, bytes);
	if (!text || !meta_block(x, n, text, bytes, NULL, name, name_len))
		b->bad = true;
}

static void meta_decode(struct steps_meta *x, struct ibuf *b, const struct steps_meta *prev)
{
	unsigned present = ib_u8(b);
	x->present = present & 1;
	size_t name_len;
	const char *name = ib_str_view(b, &name_len);
	x->flops_per_step = ib_f64(b);
	x->peak_flops = ib_f64(b);
	x->wall_time = ib_f64(b);
	x->world_size = (long)ib_svar(b);
	x->n_steps = (long)ib_svar(b);
	x->rank = (long)ib_svar(b);
	unsigned f = ib_u8(b);
	x->has_flops = f & 1;
	x->has_peak = f >> 1 & 1;
	x->has_wall = f >> 2 & 1;
	x->has_world = f >> 3 & 1;
	x->has_nsteps = f >> 4 & 1;
	x->has_rank = f >> 5 & 1;
	x->has_started = (f & META_STARTED) != 0;
	if (x->has_started)
		x->started = ib_f64(b);
	if (b->bad)
		return;
	env_decode(x, b, prev, f, name, name_len);
	if ((present & META_JSON) && !b->bad)
		json_decode(x, b);
}

static void col_encode(const struct column *c, struct obuf *o)
{
	/* the header built here and put at once: each byte put through o would store and
	 * reload o->n (a byte store may alias it), a cost a rank of a few steps feels (the
	 * same in shell_encode, rank_stat_put, ob_source_counts, put_extent) */
	unsigned char h[3 + 3 * 10];
	size_t n = 0;
	bool used = c->cap || c->enc == ENC_RLE;
	h[n++] = used;
	if (used) {
		h[n++] = c->enc;
		h[n++] = (unsigned char)((unsigned)c->all_present | (unsigned)c->exact << 1);
		n += ob_leb(h + n, c->count);
		n += ob_leb(h + n, c->cap);
		if (c->enc == ENC_RLE)
			n += ob_leb(h + n, c->nruns);
	}
	ob_bytes(o, h, n);
	if (!used)
		return;
	if (c->enc == ENC_RLE) {
		ob_bytes(o, c->run_start, c->nruns * sizeof(*c->run_start));
		ob_bytes(o, c->run_val, c->nruns * sizeof(*c->run_val));
	} else {
		ob_bytes(o, c->data, c->cap * store_col_elem(c->enc));
	}
	ob_u8(o, c->present != NULL);
	if (c->present)
		ob_bytes(o, c->present, bitmap_bytes(c->cap));
}

/* A copy of n elem-sized items at the cursor, or NULL (b->bad) when they are not there. */
static void *ib_dup(struct ibuf *b, size_t n, size_t elem)
{
	if (n && elem > SIZE_MAX / n) {
		b->bad = true;
		return NULL;
	}
	size_t bytes = n * elem;
	const void *p = ib_bytes(b, bytes);
	if (!p)
		return NULL;
	void *d = xmalloc(bytes ? bytes : 1);
	memcpy(d, p, bytes);
	return d;
}

static bool rle_valid(const struct column *c, size_t n)
{
	if (!c->nruns || c->run_start[0] != 0)
		return false;
	for (size_t k = 1; k < c->nruns; k++)
		if (c->run_start[k] <= c->run_start[k - 1] || c->run_start[k] >= n)
			return false;
	return true;
}

static void col_decode(struct column *c, size_t n, struct ibuf *b)
{
	if (!ib_u8(b))
		return;
	c->enc = (unsigned char)ib_u8(b);
	unsigned f = ib_u8(b);
	c->all_present = f & 1;
	c->exact = f >> 1 & 1;
	c->count = (size_t)ib_uvar(b);
	c->cap = (size_t)ib_uvar(b);
	if (c->enc > ENC_RLE || (c->cap != n && n) || c->cap > UINT32_MAX || c->count > c->cap) {
		b->bad = true;
		return;
	}
	if (c->enc == ENC_RLE) {
		c->nruns = ib_count(b, sizeof(*c->run_start) + sizeof(*c->run_val));
		c->run_start = ib_dup(b, c->nruns, sizeof(*c->run_start));
		c->run_val = ib_dup(b, c->nruns, sizeof(*c->run_val));
		if (!b->bad && !rle_valid(c, n))
			b->bad = true;
	} else {
		c->data = ib_dup(b, c->cap, store_col_elem(c->enc));
	}
	if (ib_u8(b))
		c->present = ib_dup(b, bitmap_bytes(c->cap ? c->cap : 1), 1);
	if (!b->bad && !c->all_present && !c->present)
		b->bad = true; /* a reader would dereference the missing bitmap */
}

/* The shell: what the Overview, Ranks and the analyses restored from a summary read
 * without the body (id, path, counts, step span, "loss" values that were not numbers,
 * run.json). */
static void shell_encode(const struct rank_steps *r, int id, const char *path, const struct rank_steps *prev,
			 const char *base, bool with_json, struct obuf *o)
{
	ob_svar(o, id);
	ob_path(o, base, path);
	unsigned char b[6 * 10 + 2 + 8]; /* put at once (col_encode) */
	size_t k = ob_leb(b, r->n);
	b[k++] = r->contiguous;
	k += ob_sleb(b + k, r->step0);
	k += ob_leb(b + k, r->ndistinct);
	k += ob_sleb(b + k, r->span_lo);
	k += ob_sleb(b + k, r->span_hi);
	b[k++] = r->have_ts0;
	ob_le_f64(b + k, r->ts0);
	k += 8;
	k += ob_leb(b + k, r->loss_not_number);
	ob_bytes(o, b, k);
	meta_encode(&r->meta, prev ? &prev->meta : NULL, with_json, o);
}

/* The body: step numbers (non-contiguous ranks), timestamps, the columns. */
static void body_encode(const struct rank_steps *r, struct obuf *o)
{
	if (!r->contiguous)
		ob_bytes(o, r->step, r->n * sizeof(*r->step));
	ob_u8(o, r->ts != NULL);
	if (r->ts)
		ob_bytes(o, r->ts, r->n * sizeof(*r->ts));
	ob_u8(o, r->ts_present != NULL);
	if (r->ts_present)
		ob_bytes(o, r->ts_present, bitmap_bytes(r->n ? r->n : 1));
	ob_uvar(o, r->ncol);
	for (size_t i = 0; i < r->ncol; i++)
		col_encode(&r->col[i], o);
}

void steps_rank_encode_shell(const struct steps_model *m, size_t ri, long prev, const char *base, struct obuf *o)
{
	rank_need_body(m->rank[ri]); /* the span and counts of a sealed rank */
	const struct rank_steps *r = m->rank[ri];
	shell_encode(r, r->rank, r->path, prev >= 0 ? m->rank[prev] : NULL, base, true, o);
}

void steps_rank_encode_shell_as(const struct steps_model *m, size_t ri, long prev, int id, const char *path,
				const char *base, struct obuf *o)
{
	rank_need_body(m->rank[ri]);
	/* the run.json text only in ri's own shell: a plain load keeps the lowest rank's alone */
	shell_encode(m->rank[ri], id, path, prev >= 0 ? m->rank[prev] : NULL, base, id == m->rank[ri]->rank, o);
}

void store_rank_encode_body(const struct rank_steps *r, struct obuf *o)
{
	body_encode(r, o);
}

void steps_rank_encode_body(const struct steps_model *m, size_t ri, struct obuf *o)
{
	rank_need_body(m->rank[ri]);
	body_encode(m->rank[ri], o);
}

void steps_rank_encode(const struct steps_model *m, size_t ri, const char *base, struct obuf *o)
{
	steps_rank_encode_shell(m, ri, -1, base, o);
	steps_rank_encode_body(m, ri, o);
}

int steps_rank_own_id(const struct rank_steps *r)
{
	return r->rank;
}

struct rank_steps *steps_rank_decode_shell(struct steps_model *m, struct ibuf *b, const struct rank_steps *prev,
					   const char *base)
{
	long long id = ib_svar(b);
	char *path = ib_path(b, base);
	size_t n = ib_count(b, 0);
	if (b->bad || id < INT32_MIN || id > INT32_MAX || n >= UINT32_MAX) {
		b->bad = true;
		free(path);
		return NULL;
	}
	struct rank_steps *r = steps_rank_new(m, (int)id, path);
	free(path);
	r->n = r->cap = n;
	r->contiguous = ib_u8(b) != 0;
	r->step0 = (long)ib_svar(b);
	r->ndistinct = (size_t)ib_uvar(b);
	r->span_lo = (long)ib_svar(b);
	r->span_hi = (long)ib_svar(b);
	r->have_ts0 = ib_u8(b) != 0;
	r->ts0 = ib_f64(b);
	r->loss_not_number = (size_t)ib_uvar(b);
	meta_decode(&r->meta, b, prev ? &prev->meta : NULL);
	if (r->ndistinct > n || (r->contiguous && r->ndistinct != n))
		b->bad = true;
	if (b->bad) {
		steps_rank_free(r);
		return NULL;
	}
	r->sealed = true;
	return r;
}

/* Install a column decoded for the writer's metric i (false: a duplicate or unknown). */
static bool col_install(struct rank_steps *r, struct column *c, int mid)
{
	if (mid < 0 || ((size_t)mid < r->ncol && (r->col[mid].cap || r->col[mid].enc == ENC_RLE)))
		return false;
	store_rank_cols(r, (size_t)mid + 1);
	r->col[mid] = *c;
	return true;
}

bool steps_rank_decode_body(struct rank_steps *r, struct ibuf *b, const int *metric_map, size_t nmap)
{
	size_t n = r->n;
	if (!r->contiguous)
		r->step = ib_dup(b, n, sizeof(*r->step));
	if (ib_u8(b))
		r->ts = ib_dup(b, n ? n : 1, sizeof(*r->ts));
	if (ib_u8(b))
		r->ts_present = ib_dup(b, bitmap_bytes(n ? n : 1), 1);
	size_t ncol = ib_count(b, 1);
	if (ncol > nmap)
		b->bad = true;
	for (size_t i = 0; i < ncol && !b->bad; i++) {
		struct column c = { 0 };
		col_decode(&c, n, b);
		if (b->bad || (!c.cap && c.enc != ENC_RLE)) {
			store_column_free(&c);
			continue;
		}
		if (!col_install(r, &c, metric_map[i])) {
			store_column_free(&c); /* an unknown metric, or two columns for one */
			b->bad = true;
		}
	}
	size_t nd = r->ndistinct;
	long lo = r->span_lo, hi = r->span_hi;
	if (!b->bad) {
		store_rank_build_index(r);
		if (r->ndistinct != nd || (n && (r->span_lo != lo || r->span_hi != hi)))
			b->bad = true; /* the body does not belong to its shell */
	}
	if (b->bad)
		store_rank_free_body(r);
	return !b->bad;
}

struct rank_steps *steps_rank_decode(struct steps_model *m, struct ibuf *b, const char *base,
				     const int *metric_map, size_t nmap)
{
	struct rank_steps *r = steps_rank_decode_shell(m, b, NULL, base);
	if (r && !steps_rank_decode_body(r, b, metric_map, nmap)) {
		steps_rank_free(r);
		return NULL;
	}
	return r;
}

/* ---- lazy bodies ------------------------------------------------------------------- */

const char *store_part_read(const struct steps_part *p, uint64_t off, uint64_t len, uint32_t crc,
			    unsigned char **out)
{
	*out = NULL;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "the part file is gone";
	struct stat st;
	const char *why = NULL;
	if (fstat(fd, &st) != 0 || (long long)st.st_ino != p->ino)
		why = "the part file was replaced since it was opened";
	else if ((long long)st.st_size != p->size || (long long)off + (long long)len > (long long)st.st_size)
		why = "the part file was truncated or grew since it was opened";
	unsigned char *buf = why ? NULL : xmalloc(len ? len : 1);
	if (!why && !index_pread_all(fd, buf, len, (long long)off))
		why = "short read (the part file was truncated)";
	close(fd);
	if (!why && index_crc32(0, buf, len) != crc)
		why = "checksum mismatch (damaged)";
	if (why)
		free(buf);
	else
		*out = buf;
	return why;
}

/* Read r's body from its part with pread (never a mapping: a part truncated in place
 * after the open gives a short read here, not a SIGBUS), then replay its delta
 * segments. NULL or why it failed; *bad names the file at fault. */
static const char *body_read(struct rank_steps *r, const struct steps_part **bad)
{
	const struct steps_part *p = r->part;
	*bad = p;
	struct rank_shape final;
	store_rank_shape(r, &final);
	if (r->nseg) /* the part's body is the rank before its segments */
		store_rank_set_shape(r, r->base_shape);
	unsigned char *buf;
	const char *why = store_part_read(p, r->body_off, r->body_len, r->body_crc, &buf);
	if (!why) {
		struct ibuf b = { buf, r->body_len, 0, false };
		if (!steps_rank_decode_body(r, &b, p->map, p->nmap) || b.off != b.n)
			why = "malformed rank body";
	}
	free(buf);
	if (!why && r->nseg)
		why = store_rank_apply_segs(r, &final, bad);
	if (why)
		store_rank_set_shape(r, &final);
	return why;
}

/* The first body read to find part p unusable invalidates it (index_part_damage_note()
 * says what rebuilds it) and returns true with *err, index_file_invalidate()'s: it says
 * so, once for the part; the reads of its other ranks fail on the file it left (each
 * rank is read from its JSONL). */
static bool part_invalidate(struct steps_model *m, const struct steps_part *p, int *err)
{
	bool first = true;
	pthread_mutex_lock(&m->lock); /* a body lock is held: the order steps_rank_reparse takes */
	for (size_t i = 0; i < m->npart; i++)
		if (m->part[i] == p) {
			first = !m->part[i]->invalidated;
			m->part[i]->invalidated = true;
		}
	pthread_mutex_unlock(&m->lock);
	*err = first ? index_file_invalidate(p->path, p->ino) : 0;
	return first;
}

void store_rank_load_body(struct rank_steps *r)
{
	struct steps_model *m = r->m;
	pthread_mutex_t *lk = &m->body_lock[(unsigned)r->rank % ARRAY_LEN(m->body_lock)];
	pthread_mutex_lock(lk);
	if (r->lazy) {
		const struct steps_part *bad = NULL;
		const char *why = body_read(r, &bad);
		__atomic_add_fetch(&m->body_reads, 1, __ATOMIC_RELAXED);
		uint64_t off = r->body_off;
		for (size_t i = 0; i < r->nseg; i++)
			if (r->seg[i].part == bad)
				off = r->seg[i].off;
		if (r->nseg) /* its steps are the part's and its segments': never handed back */
			r->part = NULL;
		store_rank_free_segs(r);
		if (why)
			__atomic_add_fetch(&m->body_failures, 1, __ATOMIC_RELAXED);
		int err;
		if (why && part_invalidate(m, bad, &err)) {
			char *note = index_part_damage_note(err, bad->path, bad->base);
			diag_add(&m->run->diags, DIAG_WARN, bad->path, -1, (long long)off, r->rank,
				 "index part not usable for rank %d: %s; its ranks are read from their steps.jsonl; %s",
				 r->rank, why, note);
			free(note);
		}
		if (why) {
			steps_rank_reparse(m->run, r);
			r->part = NULL; /* its steps are the JSONL's now: never handed back */
		}
		__atomic_store_n(&r->lazy, false, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(lk);
}

bool steps_rank_body_copy(struct rank_steps *r, struct rank_steps **copy)
{
	/* the shell under the lock a body read holds while it fills r */
	pthread_mutex_t *lk = &r->m->body_lock[(unsigned)r->rank % ARRAY_LEN(r->m->body_lock)];
	pthread_mutex_lock(lk);
	bool lazy = r->lazy;
	struct rank_steps shell = lazy ? *r : (struct rank_steps){ 0 };
	if (lazy && r->nseg) {   /* its own delta segments: a body read frees r's */
		shell.seg = xmalloc(r->nseg * sizeof(*shell.seg));
		memcpy(shell.seg, r->seg, r->nseg * sizeof(*shell.seg));
		shell.base_shape = xmalloc(sizeof(*shell.base_shape));
		*shell.base_shape = *r->base_shape;
	} else {
		shell.seg = NULL;
		shell.base_shape = NULL;
		shell.nseg = 0;
	}
	pthread_mutex_unlock(lk);
	*copy = NULL;
	if (!lazy)
		return true;
	struct rank_steps *c = xmalloc(sizeof(*c));
	*c = shell;   /* its path and run.json stay the model's */
	store_rank_forget_body(c);
	c->lazy = false;
	const struct steps_part *bad;
	if (body_read(c, &bad)) {
		steps_rank_body_copy_free(c);
		return false;
	}
	*copy = c;
	return true;
}

void steps_rank_body_copy_free(struct rank_steps *c)
{
	if (!c)
		return;
	store_rank_free_body(c);
	store_rank_free_segs(c);
	free(c);
}

void steps_rank_release_body(struct rank_steps *r)
{
	struct steps_model *m = r->m;
	pthread_mutex_t *lk = &m->body_lock[(unsigned)r->rank % ARRAY_LEN(m->body_lock)];
	pthread_mutex_lock(lk);
	if (r->part && !r->lazy) {
		store_rank_free_body(r);
		__atomic_store_n(&r->lazy, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(lk);
}

const struct steps_part *steps_add_part(struct steps_model *m, const char *path, const char *base,
					long long size, long long mtime_ns, long long ino, const int *map,
					size_t nmap)
{
	struct steps_part *p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	p->base = xstrdup(base);
	p->size = size;
	p->mtime_ns = mtime_ns;
	p->ino = ino;
	p->map = xmalloc((nmap ? nmap : 1) * sizeof(*p->map));
	memcpy(p->map, map, nmap * sizeof(*map));
	p->nmap = nmap;
	pthread_mutex_lock(&m->lock);
	m->part = xrealloc(m->part, (m->npart + 1) * sizeof(*m->part));
	m->part[m->npart++] = p;
	pthread_mutex_unlock(&m->lock);
	return p;
}

void steps_rank_defer_body(struct rank_steps *r, const struct steps_part *p, uint64_t off, uint64_t len,
			   uint32_t crc)
{
	r->part = p;
	r->body_off = off;
	r->body_len = len;
	r->body_crc = crc;
	r->lazy = true;
}

void steps_rank_back_body(struct steps_model *m, size_t ri, const struct steps_part *p, uint64_t off,
			  uint64_t len, uint32_t crc)
{
	struct rank_steps *r = m->rank[ri];
	if (r->lazy || r->live || r->nseg)
		return;
	r->part = p;
	r->body_off = off;
	r->body_len = len;
	r->body_crc = crc;
	if (r->sealed_in) /* its body went at the seal (seal.h): read from the part if at all */
		__atomic_store_n(&r->lazy, true, __ATOMIC_RELEASE);
}

void *steps_rank_take_block(struct steps_model *m, size_t ri, size_t need)
{
	struct rank_steps *r = m->rank[ri];
	pthread_mutex_t *lk = &m->body_lock[(unsigned)r->rank % ARRAY_LEN(m->body_lock)];
	void *block = NULL;
	pthread_mutex_lock(lk);
	if (r->part && !r->lazy && r->block && r->block_len >= need) {
		block = r->block;
		asan_unpoison(block, need); /* the caller's now: the arrays' gaps are not */
		free(r->idx_step);
		free(r->idx_pos);
		store_rank_forget_body(r); /* the arrays were in the block */
		__atomic_store_n(&r->lazy, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(lk);
	return block;
}

size_t steps_bodies_read(const struct steps_model *m)
{
	return m ? __atomic_load_n(&m->body_reads, __ATOMIC_RELAXED) : 0;
}

size_t steps_bodies_failed(const struct steps_model *m)
{
	return m ? __atomic_load_n(&m->body_failures, __ATOMIC_RELAXED) : 0;
}

size_t steps_bodies_resident(const struct steps_model *m)
{
	size_t k = 0;
	for (size_t i = 0; m && i < m->nrank; i++)
		k += !__atomic_load_n(&m->rank[i]->lazy, __ATOMIC_ACQUIRE);
	return k;
}

/* A lazy rank with delta segments: its body and segments each against its CRC-32, none
 * decoded (once read, such a rank cannot be handed back: it would stay resident). True
 * when r is one and they all pass; under the rank's body lock. */
static bool segs_pass(struct rank_steps *r)
{
	pthread_mutex_t *lk = &r->m->body_lock[(unsigned)r->rank % ARRAY_LEN(r->m->body_lock)];
	pthread_mutex_lock(lk);
	bool pass = r->lazy && r->nseg;
	unsigned char *buf;
	if (pass) {
		pass = !store_part_read(r->part, r->body_off, r->body_len, r->body_crc, &buf);
		free(buf);
	}
	for (size_t i = 0; pass && i < r->nseg; i++) {
		pass = !store_part_read(r->seg[i].part, r->seg[i].off, r->seg[i].len, r->seg[i].crc, &buf);
		free(buf);
	}
	pthread_mutex_unlock(lk);
	return pass;
}

/* The bytes r's body and delta segments take in their parts. */
static long long body_bytes(const struct rank_steps *r)
{
	long long b = (long long)r->body_len;
	for (size_t i = 0; i < r->nseg; i++)
		b += (long long)r->seg[i].len;
	return b;
}

size_t steps_read_back_bodies(struct steps_model *m, void (*progress)(void *ud, long long done_delta,
							       long long total_delta), void *ud)
{
	long long total = 0;
	for (size_t ri = 0; m && ri < m->nrank; ri++)
		total += __atomic_load_n(&m->rank[ri]->lazy, __ATOMIC_ACQUIRE) ? body_bytes(m->rank[ri]) : 0;
	if (progress)
		progress(ud, 0, total);
	size_t n = 0;
	for (size_t ri = 0; m && ri < m->nrank; ri++) {
		struct rank_steps *r = m->rank[ri];
		if (!__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE))
			continue;
		n++;
		long long bytes = body_bytes(r);
		if (!segs_pass(r)) { /* a rank without segments, or one failed: read as any read */
			store_rank_load_body(r);
			steps_rank_release_body(r); /* lazy again: memory stays one rank's */
		}
		if (progress)
			progress(ud, bytes, 0);
	}
	return n;
}
