/* SPDX-License-Identifier: MIT */
/* analysis_index_inputs.c: an index shard's part of the summary (`tscope-tui index
 * --shard K/N`): what the summary rebuild (analysis_index_rebuild.c) would otherwise
 * read each rank's steps for, so the first open after a sharded build merges the
 * shards without reading any rank's steps, whatever the ranks' steps are (gaps,
 * restarts, no step at all). Per rank: compute and comm of every record (the doubles
 * analysis_records_compute() gives, so any aligned set the merged run has is a
 * selection of them), the budget sums and the memory peak, and for a rank whose steps
 * are not contiguous its step index (distinct steps ascending, the position of the last
 * record of each): the merged run's aligned set and union come from the ranks' spans
 * and these indexes (steps_summary_inputs_align, at finalize), a rank's compute at an
 * aligned step is the record the index names, and its last record's step is the step
 * the index places there (the judged steps, analysis.h STRAGGLERS). The distributed
 * analysis (medians over every rank at each step), the pyramids and their colour scales
 * need every rank, so the open computes them from these, not the shards.
 *
 * File inputs-K-of-N.tsx next to the part steps-K-of-N.tsx: the index header
 * (index.h), per rank its compute then its comm (n doubles each) and, unless its steps
 * are contiguous, its nd distinct steps (int64) then their positions (uint32); then the
 * head: SUMMARY_VERSION, INPUTS_LAYOUT, the part's name, size, mtime and inode, the
 * compute phases (names), per rank: id, records n, offset of its doubles, their CRC-32,
 * contiguous (u8), first step, nd, offset of its step index and its CRC-32, budget sums
 * (records, compute, data, comm, other, lanes, the values that are not durations), memory
 * peak (flag, value).
 * The open uses a rank's inputs when the file and its part are the ones it read, the
 * shard's compute phases are among the merged run's (a record's compute is the exactly
 * rounded sum of its phase values, so neither the order of the phases nor phases the
 * rank never has change it) and the rank's shell (records, contiguous, first step,
 * distinct steps) is the one recorded; otherwise it reads that rank's steps. */
#include "model/steps/analysis_index.h"
#include "model/steps/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/infile.h"
#include "model/run.h"
#include "model/xalloc.h"

/* The head's layout after SUMMARY_VERSION (a file of another layout is not used: its
 * ranks' steps are read). */
#define INPUTS_LAYOUT 2u

static char *inputs_path(const char *dir, unsigned k, unsigned n)
{
	return xasprintf("%s/inputs-%u-of-%u.tsx", dir, k, n);
}

const char *summary_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* ---- writing (the shard) ------------------------------------------------------------ */

/* Where rank r's doubles and step index went. */
struct rank_loc {
	uint64_t off, ioff;
	uint32_t crc, icrc;
};

struct inputs_job {
	struct run *run;
	const char *part;
	struct rank_loc *loc;
};

/* Rank r's step index (not contiguous): its distinct steps, then their positions. */
static void put_step_index(struct obuf *o, const struct rank_steps *rs, struct rank_loc *loc)
{
	rank_need_body(rs);
	loc->ioff = index_body_offset(o);
	ob_sum_begin(o);
	ob_bytes(o, rs->idx_step, rs->ndistinct * sizeof(*rs->idx_step));
	ob_bytes(o, rs->idx_pos, rs->ndistinct * sizeof(*rs->idx_pos));
	loc->icrc = ob_sum_end(o);
}

static void put_rank_head(struct obuf *h, struct run *run, size_t r, const struct rank_loc *loc)
{
	struct steps_model *m = run->steps;
	const struct rank_steps *rs = m->rank[r];
	struct budget_sums b;
	struct rank_stat mem = { 0 };
	if (rs->sealed_in) { /* taken at the seal (seal.h) */
		seal_inputs_sums(rs->sealed_in, &b, &mem);
	} else {
		analysis_budget_sums(run, r, &b);
		analysis_rank_mem_peak(m, r, &mem);
	}
	ob_svar(h, steps_rank_id(m, r));
	ob_uvar(h, steps_nrecords(m, r));
	ob_uvar(h, loc->off);
	ob_u32(h, loc->crc);
	ob_u8(h, rs->contiguous);
	ob_svar(h, rs->step0);
	ob_uvar(h, rs->contiguous ? 0 : rs->ndistinct);
	ob_uvar(h, loc->ioff);
	ob_u32(h, loc->icrc);
	summary_put_bsum1(h, &b);
	ob_u8(h, mem.has_mem_peak);
	ob_f64(h, mem.mem_peak);
}

static void fill_inputs(struct obuf *o, void *ud)
{
	struct inputs_job *j = ud;
	struct steps_model *m = j->run->steps;
	size_t N = steps_nranks(m);
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	size_t cap = 0;
	double *v = NULL;
	for (size_t r = 0; r < N; r++) {
		size_t n = steps_nrecords(m, r);
		const struct seal_inputs *in = m->rank[r]->sealed_in; /* compute, then comm */
		if (n > cap && !in) {
			cap = n;
			v = xrealloc(v, 2 * cap * sizeof(*v));
		}
		if (!in)
			analysis_records_compute(m, &ps, r, 0, n, v, v + n);
		j->loc[r].off = index_body_offset(o);
		ob_sum_begin(o);
		ob_bytes(o, in ? in->compute : v, 2 * n * sizeof(*v));
		j->loc[r].crc = ob_sum_end(o);
		if (!m->rank[r]->contiguous)
			put_step_index(o, m->rank[r], &j->loc[r]);
	}
	free(v);
	ob_head(o);
	ob_u32(o, SUMMARY_VERSION);
	ob_u32(o, INPUTS_LAYOUT);
	struct stat st;
	bool ok = stat(j->part, &st) == 0;
	ob_str(o, summary_base_name(j->part));
	ob_svar(o, ok ? (long long)st.st_size : -1);
	ob_svar(o, ok ? infile_mtime_ns(&st) : 0);
	ob_svar(o, ok ? (long long)st.st_ino : 0);
	ob_uvar(o, ps.ncompute);
	for (size_t i = 0; i < ps.ncompute; i++)
		ob_str(o, steps_metric(m, ps.compute[i])->name);
	ob_uvar(o, N);
	for (size_t r = 0; r < N; r++)
		put_rank_head(o, j->run, r, &j->loc[r]);
	analysis_phase_sets_free(&ps);
}

int steps_summary_inputs_write(struct run *run, const char *part_path, unsigned k, unsigned n)
{
	struct steps_model *m = run->steps;
	if (!m || !steps_nranks(m))
		return 0;
	char *dir = xstrdup(part_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *path = inputs_path(slash ? dir : ".", k, n);
	struct inputs_job j = { .run = run, .part = part_path, .loc = xcalloc(steps_nranks(m), sizeof(*j.loc)) };
	int err = index_file_write(path, fill_inputs, &j);
	free(j.loc);
	free(path);
	free(dir);
	return err;
}

/* ---- reading (the open's rebuild) --------------------------------------------------- */

struct rank_input {
	int fd;                    /* the file's descriptor (owned by the inputs), -1: none */
	uint64_t off, n;
	uint32_t crc;
	uint64_t nd, ioff;         /* a rank not contiguous: its step index */
	uint32_t icrc;
	struct budget_sums bsum;
	bool has_mem_peak;
	double mem_peak;
};

struct summary_inputs {
	struct rank_input *rank;   /* per rank of the model */
	int *fd;
	size_t nfd;
	double *buf;
	size_t cap;
	int64_t *step;             /* a rank's step index as read */
	uint32_t *pos;
	size_t icap;
};

/* The shard's compute phases are among the model's (names). */
static bool known_phases(struct ibuf *b, const struct steps_model *m)
{
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	size_t n = ib_count(b, 1);
	bool known = !b->bad && n <= ps.ncompute;
	for (size_t i = 0; i < n && !b->bad; i++) {
		char *name = ib_str(b);
		bool found = false;
		for (size_t k = 0; name && k < ps.ncompute && !found; k++)
			found = strcmp(name, steps_metric(m, ps.compute[k])->name) == 0;
		known = known && found;
		free(name);
	}
	analysis_phase_sets_free(&ps);
	return known && !b->bad;
}

/* [off, off + bytes) lies in the file's body. */
static bool in_body(const struct index_file_id *id, uint64_t off, uint64_t n, uint64_t elem)
{
	uint64_t end = id->body_end;
	return off >= INDEX_HEADER_LEN && off <= end && n <= (end - off) / elem;
}

/* One rank of an inputs head; kept when its shell in the model is the one recorded. */
static void rank_take(struct summary_inputs *in, const struct steps_model *m, struct ibuf *b, int fd,
		      const struct index_file_id *id)
{
	long long rid = ib_svar(b);
	struct rank_input x = { .fd = fd };
	x.n = ib_uvar(b);
	x.off = ib_uvar(b);
	x.crc = ib_u32(b);
	bool contiguous = ib_u8(b) != 0;
	long long step0 = ib_svar(b);
	x.nd = ib_uvar(b);
	x.ioff = ib_uvar(b);
	x.icrc = ib_u32(b);
	summary_get_bsum1(b, &x.bsum);
	x.has_mem_peak = ib_u8(b) != 0;
	x.mem_peak = ib_f64(b);
	long ri = rid >= INT32_MIN && rid <= INT32_MAX ? steps_rank_index(m, (int)rid) : -1;
	if (b->bad || ri < 0 || !in_body(id, x.off, x.n, 16) || (!contiguous && !in_body(id, x.ioff, x.nd, 12)))
		return;
	const struct rank_steps *rs = m->rank[ri];
	bool same = x.n == rs->n && contiguous == rs->contiguous &&
		    (contiguous ? x.nd == 0 && (!rs->n || step0 == rs->step0) : x.nd == rs->ndistinct);
	if (same)
		in->rank[ri] = x;
}

/* The ranks of one inputs file whose head checks out against part p. */
static void inputs_take(struct summary_inputs *in, const struct steps_model *m, const struct steps_part *p,
			struct ibuf *b, int fd, const struct index_file_id *id)
{
	char *name = ib_str(b);
	long long size = ib_svar(b), mtime = ib_svar(b), ino = ib_svar(b);
	bool same = name && strcmp(name, summary_base_name(p->path)) == 0 && size == p->size && mtime == p->mtime_ns &&
		    ino == p->ino;
	free(name);
	if (b->bad || !same || !known_phases(b, m))
		return;
	size_t nr = ib_count(b, 8);
	for (size_t i = 0; i < nr && !b->bad; i++)
		rank_take(in, m, b, fd, id);
}

struct summary_inputs *summary_inputs_open(const struct steps_model *m)
{
	struct summary_inputs *in = xcalloc(1, sizeof(*in));
	in->rank = xcalloc(m->nrank ? m->nrank : 1, sizeof(*in->rank));
	for (size_t i = 0; i < m->nrank; i++)
		in->rank[i].fd = -1;
	in->fd = xcalloc(m->npart ? m->npart : 1, sizeof(*in->fd));
	size_t found = 0;
	for (size_t i = 0; i < m->npart; i++) {
		const struct steps_part *p = m->part[i];
		unsigned k, n;
		const char *name = summary_base_name(p->path);
		if (sscanf(name, "steps-%u-of-%u.tsx", &k, &n) != 2)
			continue;
		char *dir = xstrndup(p->path, (size_t)(name - p->path));
		char *path = inputs_path(dir, k, n);
		free(dir);
		unsigned char *head = NULL;
		size_t len = 0;
		struct index_file_id id;
		int fd = -1;
		if (!index_head_read(path, &head, &len, &id))
			fd = open(path, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) != 0 || (long long)st.st_ino != id.ino)) {
			close(fd);
			fd = -1;
		}
		struct ibuf b = { head, len, 0, false };
		if (fd >= 0 && ib_u32(&b) == SUMMARY_VERSION && ib_u32(&b) == INPUTS_LAYOUT && !b.bad) {
			in->fd[in->nfd++] = fd;
			inputs_take(in, m, p, &b, fd, &id);
			found++;
		} else if (fd >= 0) {
			close(fd);
		}
		free(head);
		free(path);
	}
	if (!found) {
		summary_inputs_free(in);
		return NULL;
	}
	return in;
}

void summary_inputs_free(struct summary_inputs *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nfd; i++)
		close(in->fd[i]);
	free(in->fd);
	free(in->rank);
	free(in->buf);
	free(in->step);
	free(in->pos);
	free(in);
}

/* Rank r's step index into in->step / in->pos (x->nd entries), checked: its CRC-32,
 * steps ascending, positions among its records. */
static bool read_step_index(struct summary_inputs *in, const struct rank_input *x)
{
	if (x->nd > in->icap) {
		in->icap = x->nd;
		in->step = xrealloc(in->step, in->icap * sizeof(*in->step));
		in->pos = xrealloc(in->pos, in->icap * sizeof(*in->pos));
	}
	size_t sb = x->nd * sizeof(*in->step), pb = x->nd * sizeof(*in->pos);
	if (!index_pread_all(x->fd, in->step, sb, (long long)x->ioff) ||
	    !index_pread_all(x->fd, in->pos, pb, (long long)(x->ioff + sb)) ||
	    index_crc32(index_crc32(0, in->step, sb), in->pos, pb) != x->icrc)
		return false;
	for (size_t i = 0; i < x->nd; i++)
		if ((i && in->step[i] <= in->step[i - 1]) || in->pos[i] >= x->n)
			return false;
	return true;
}

/* Rank r's position of every aligned step into pos[S]: false when one is not a record
 * of r as recorded. */
static bool aligned_positions(struct summary_inputs *in, const struct steps_model *m, size_t r, size_t *pos)
{
	const struct rank_input *x = &in->rank[r];
	const struct rank_steps *rs = m->rank[r];
	size_t S = m->naligned;
	if (rs->contiguous) {
		for (size_t k = 0; k < S; k++) {
			long s = steps_aligned_step(m, k);
			if (s < rs->step0 || (unsigned long)s - (unsigned long)rs->step0 >= x->n)
				return false;
			pos[k] = (size_t)(s - rs->step0);
		}
		return true;
	}
	if (!read_step_index(in, x))
		return false;
	size_t j = 0;
	for (size_t k = 0; k < S; k++) {
		long s = steps_aligned_step(m, k);
		while (j < x->nd && in->step[j] < s)
			j++;
		if (j == x->nd || in->step[j] != s)
			return false;
		pos[k] = in->pos[j];
	}
	return true;
}

bool summary_inputs_rank(struct summary_inputs *in, const struct steps_model *m, size_t r, size_t *pos,
			 double *compute, double *comm, struct budget_sums *bsum, struct rank_stat *mem)
{
	const struct rank_input *x = in ? &in->rank[r] : NULL;
	size_t S = m->naligned;
	if (!x || x->fd < 0 || (S && !aligned_positions(in, m, r, pos)))
		return false;
	if (x->n > in->cap) {
		in->cap = x->n;
		in->buf = xrealloc(in->buf, 2 * in->cap * sizeof(*in->buf));
	}
	size_t bytes = 2 * x->n * sizeof(*in->buf);
	if (S && (!index_pread_all(x->fd, in->buf, bytes, (long long)x->off) ||
		  index_crc32(0, in->buf, bytes) != x->crc))
		return false;
	for (size_t k = 0; k < S; k++) {
		compute[k] = in->buf[pos[k]];
		comm[k] = in->buf[x->n + pos[k]];
	}
	*bsum = x->bsum;
	mem->has_mem_peak = x->has_mem_peak;
	mem->mem_peak = x->mem_peak;
	return true;
}

bool summary_inputs_last_step(struct summary_inputs *in, size_t r, long *last)
{
	const struct rank_input *x = in ? &in->rank[r] : NULL;
	if (!x || x->fd < 0 || !read_step_index(in, x))
		return false;
	for (size_t i = 0; i < x->nd; i++)
		if (in->pos[i] == x->n - 1) {
			*last = (long)in->step[i];
			return true;
		}
	return false;
}

/* ---- the aligned set and the union at finalize -------------------------------------- */

struct span {
	long lo, hi;
};

static int cmp_span_lo(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The steps of a[na] or b[nb] (both ascending, distinct) into a new array. */
static int64_t *merge_union(const int64_t *a, size_t na, const int64_t *b, size_t nb, size_t *n)
{
	int64_t *u = xmalloc((na + nb + 1) * sizeof(*u));
	size_t i = 0, j = 0, k = 0;
	while (i < na || j < nb) {
		if (j == nb || (i < na && a[i] < b[j]))
			u[k++] = a[i++];
		else if (i == na || b[j] < a[i])
			u[k++] = b[j++];
		else {
			u[k++] = a[i++];
			j++;
		}
	}
	*n = k;
	return u;
}

/* The steps of a[na] that b[nb] has too (both ascending), kept in a: their count. */
static size_t keep_common(int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	size_t k = 0;
	for (size_t i = 0, j = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j < nb && b[j] == a[i])
			a[k++] = a[i];
	}
	return k;
}

/* The contiguous ranks' spans, merged into disjoint ascending ones (in place): their
 * count; *lo, *hi: the steps every contiguous rank has (lo > hi: none; *any: there is
 * such a rank). */
static size_t contiguous_spans(const struct steps_model *m, struct span *sp, bool *any, long *lo, long *hi)
{
	size_t k = 0;
	*any = false;
	*lo = LONG_MIN;
	*hi = LONG_MAX;
	for (size_t r = 0; r < m->nrank; r++) {
		const struct rank_steps *rs = m->rank[r];
		if (!rs->contiguous)
			continue;
		*any = true;
		if (!rs->n) {
			*lo = 1;
			*hi = 0;
			continue;
		}
		struct span s = { rs->step0, rs->step0 + (long)(rs->n - 1) };
		*lo = s.lo > *lo ? s.lo : *lo;
		*hi = s.hi < *hi ? s.hi : *hi;
		sp[k++] = s;
	}
	if (k)
		qsort(sp, k, sizeof(*sp), cmp_span_lo);
	size_t u = 0;
	for (size_t i = 0; i < k; i++) {
		if (u && sp[i].lo <= sp[u - 1].hi) {
			if (sp[i].hi > sp[u - 1].hi)
				sp[u - 1].hi = sp[i].hi;
		} else {
			sp[u++] = sp[i];
		}
	}
	return u;
}

/* Steps in the disjoint ascending spans, plus those of v[n] (ascending) outside them. */
static size_t union_size(const struct span *sp, size_t nsp, const int64_t *v, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < nsp; i++)
		total += (size_t)((unsigned long)sp[i].hi - (unsigned long)sp[i].lo) + 1;
	for (size_t i = 0, j = 0; i < n; i++) {
		while (j < nsp && sp[j].hi < v[i])
			j++;
		total += j == nsp || v[i] < sp[j].lo;
	}
	return total;
}

bool steps_summary_inputs_align(struct steps_model *m)
{
	bool gaps = false;
	for (size_t r = 0; m->summary_rebuild && r < m->nrank && !gaps; r++)
		gaps = !m->rank[r]->contiguous;
	if (!gaps) /* or every rank contiguous: their spans give both, no step read */
		return false;
	if (!m->inputs)
		m->inputs = summary_inputs_open(m);
	struct summary_inputs *in = m->inputs;
	for (size_t r = 0; r < m->nrank && in; r++)
		if (!m->rank[r]->contiguous && in->rank[r].fd < 0)
			return false;
	if (!in)
		return false;
	struct span *sp = xmalloc(m->nrank * sizeof(*sp));
	bool any;
	long lo, hi;
	size_t nsp = contiguous_spans(m, sp, &any, &lo, &hi);
	int64_t *common = NULL, *uni = NULL;
	size_t ncommon = 0, nuni = 0;
	bool ok = true;
	for (size_t r = 0; r < m->nrank && ok; r++) {
		const struct rank_input *x = &in->rank[r];
		if (m->rank[r]->contiguous)
			continue;
		ok = read_step_index(in, x);
		if (!ok)
			break;
		size_t nu;
		int64_t *u = merge_union(uni, nuni, in->step, x->nd, &nu);
		free(uni);
		uni = u;
		nuni = nu;
		if (common) {
			ncommon = keep_common(common, ncommon, in->step, x->nd);
			continue;
		}
		common = xmalloc((x->nd + 1) * sizeof(*common));
		for (size_t i = 0; i < x->nd; i++)
			if (!any || (in->step[i] >= lo && in->step[i] <= hi))
				common[ncommon++] = in->step[i];
	}
	if (ok) {
		free(m->aligned);
		m->aligned_contiguous = false;
		m->aligned = common;
		m->naligned = ncommon;
		m->nunion = union_size(sp, nsp, uni, nuni);
	} else {
		free(common);
	}
	free(uni);
	free(sp);
	return ok;
}
