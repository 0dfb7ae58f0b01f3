/* SPDX-License-Identifier: MIT */
/* store_read.c: the read accessors of the per-rank step store (steps.h): rank ids and
 * paths, records, steps, timestamps and metric values by position, step -> position
 * lookup, the union and aligned step sets, the steps natively (a record without any phase
 * extends no span: NATIVE STEPS below), resident-size accounting and the series
 * metrics. Writing and compaction are store.c. */
#include "model/steps/internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "model/steps/analysis.h"

size_t steps_nranks(const struct steps_model *m)
{
	return m ? m->nrank : 0;
}

int steps_rank_id(const struct steps_model *m, size_t ri)
{
	return m->rank[ri]->rank;
}

const char *steps_rank_path(const struct steps_model *m, size_t ri)
{
	return m->rank[ri]->path;
}

long steps_rank_index(const struct steps_model *m, int rank)
{
	if (!m || !m->nslot)
		return -1;
	uint64_t s = *store_slot_find(m, rank);
	return s ? (long)store_slot_index(s) : -1;
}

/* Every cache line of [p, p + n), up to `most` bytes. */
static void prefetch_bytes(const void *p, size_t n, size_t most)
{
	const char *b = p;
	for (size_t k = 0; p && k < n && k < most; k += 64)
		__builtin_prefetch(b + k);
}

void steps_rank_prefetch(const struct steps_model *m, size_t ri, bool whole)
{
	const struct rank_steps *r = m->rank[ri];
	if (whole) {
		prefetch_bytes(r, sizeof(*r), sizeof(*r));
		return;
	}
	const char *b = (const char *)r; /* the lines of what the body's encoder reads first */
	__builtin_prefetch(b + offsetof(struct rank_steps, n));
	__builtin_prefetch(b + offsetof(struct rank_steps, col));
	__builtin_prefetch(b + offsetof(struct rank_steps, block_len));
	__builtin_prefetch(b + offsetof(struct rank_steps, lazy));
}

void steps_rank_prefetch_body(const struct steps_model *m, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	if (!__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE)) /* else not read yet (maybe being read) */
		prefetch_bytes(r->block, r->block_len, 4096);
}

void steps_rank_prefetch_meta(const struct steps_model *m, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	prefetch_bytes(r->path, 1, 1);
	const struct steps_meta *x = &r->meta; /* its environment's block: the arrays, then the text */
	prefetch_bytes(x->env_text, 2 * x->nenv * sizeof(char *) + x->env_bytes, 2048);
}

const struct steps_meta *steps_rank_meta(const struct steps_model *m, size_t ri)
{
	return &m->rank[ri]->meta;
}

size_t steps_nrecords(const struct steps_model *m, size_t ri)
{
	return m->rank[ri]->n;
}

long steps_step(const struct steps_model *m, size_t ri, size_t pos)
{
	const struct rank_steps *r = m->rank[ri];
	if (!r->contiguous)
		rank_need_body(r);
	return store_rank_step(r, pos);
}

long store_rank_step(const struct rank_steps *r, size_t pos)
{
	return r->contiguous ? r->step0 + (long)pos : (long)r->step[pos];
}

bool steps_timestamp(const struct steps_model *m, size_t ri, size_t pos, double *out)
{
	rank_need_body(m->rank[ri]);
	return store_rank_timestamp(m->rank[ri], pos, out);
}

/* floor(-e * log10(2)): the decimals that resolve a unit of 2^e, for |e| <= 1650 (log10(2)
 * as 78913 / 2^18 is exact to the floor over that range; e * log10(2) is never whole but
 * at e = 0). */
static int pow2_decimals(int e)
{
	if (e <= 0)
		return (int)((unsigned)-e * 78913u >> 18);
	return -(int)(((unsigned)e * 78913u >> 18) + 1);
}

/* ts0 + off rounded to the decimals it is kept at: the unit in the last place of the
 * float offset or of the double sum, whichever is coarser (an offset of a week holds
 * 0.0625 s: 0.1 s; an epoch time in seconds 2.4e-7 s: 1 us). Per exported row: the ulp
 * exponents from ilogb, their decimals by pow2_decimals, 10^k from a table up to 1e22
 * (every one exact), no log10 or pow but beyond. */
static double timestamp_kept(double ts0, float off)
{
	static const double powers_of_ten[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
						1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
						1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	double v = ts0 + (double)off;
	if (!isfinite(off) || !isfinite(v)) /* ilogb of them is no exponent */
		return v;
	int e = INT_MIN; /* the coarser ulp's exponent; a sum's below the least subnormal is 0 */
	if (off != 0)
		e = ilogbf(off) - FLT_MANT_DIG + 1;
	if (v != 0) {
		int es = ilogb(v) - DBL_MANT_DIG + 1;
		if (es >= DBL_MIN_EXP - DBL_MANT_DIG && es > e)
			e = es;
	}
	if (e == INT_MIN)
		return v;
	int p = pow2_decimals(e), k = p < 0 ? -p : p;
	double scale = k < (int)ARRAY_LEN(powers_of_ten) ? powers_of_ten[k] : pow(10.0, k);
	double kept = p >= 0 ? round(v * scale) / scale : round(v / scale) * scale;
	return isfinite(kept) ? kept : v;
}

bool store_rank_timestamp(const struct rank_steps *r, size_t pos, double *out)
{
	if (!r->ts || (r->ts_present && !bit_get(r->ts_present, pos)))
		return false;
	*out = timestamp_kept(r->ts0, r->ts[pos]);
	return true;
}

bool steps_value(const struct steps_model *m, size_t ri, int metric, size_t pos, double *out)
{
	rank_need_body(m->rank[ri]);
	return store_rank_value(m->rank[ri], metric, pos, out);
}

bool store_rank_value(const struct rank_steps *r, int metric, size_t pos, double *out)
{
	if (metric < 0 || (size_t)metric >= r->ncol || pos >= r->n)
		return false;
	const struct column *c = &r->col[metric];
	if (c->cap == 0 && c->enc != ENC_RLE)
		return false;
	if (!c->all_present && (pos >= c->cap || !bit_get(c->present, pos)))
		return false;
	if (c->enc == ENC_RLE)
		*out = store_col_rle_get(c, pos);
	else
		*out = store_col_raw(c, pos);
	return true;
}

bool steps_find(const struct steps_model *m, size_t ri, long step, size_t *pos)
{
	const struct rank_steps *r = m->rank[ri];
	if (r->contiguous) {
		if (step < r->step0 || (unsigned long)step - (unsigned long)r->step0 >= r->n)
			return false;
		*pos = (size_t)(step - r->step0);
		return true;
	}
	rank_need_body(r);
	size_t lo = 0, hi = r->ndistinct;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->idx_step[mid] < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= r->ndistinct || r->idx_step[lo] != step)
		return false;
	*pos = r->idx_pos[lo];
	return true;
}

size_t steps_ndistinct(const struct steps_model *m, size_t ri)
{
	return m->rank[ri]->ndistinct;
}

/* ---- NATIVE STEPS --------------------------------------------------------------------
 * A record without any phase (an eval record's scalars) is natively no step (analysis.h
 * STEPS TIMED); under --compat pytscope every record is one. So natively a step at
 * either end of a rank's steps none of whose records has a phase, and that not every
 * rank has (an aligned step stays: the analyses across ranks read it), is left out of
 * the rank's span and its steps (steps_rank_nsteps, steps_missing), out of the run's
 * steps when no rank has it otherwise (steps_nunion), and out of the heatmap's columns
 * after the aligned ones when it is after every rank's last step (steps_ncolumns). A
 * rank without any phase keeps its steps: none would be left to name. */

/* Whether m is read natively and has steps to leave out: some step is not on every rank. */
static bool native_steps(const struct steps_model *m)
{
	return m->run && !(m->run->opts && m->run->opts->compat_pytscope) && m->nunion > m->naligned;
}

/* Rank r's record pos has a phase value. */
static bool record_phased(const struct steps_model *m, const struct rank_steps *r, size_t pos)
{
	double v;
	for (size_t i = 0; i < r->ncol && i < m->nmetric; i++)
		if (m->metric[i].kind == METRIC_PHASE && store_rank_value(r, (int)i, pos, &v))
			return true;
	return false;
}

/* The budget sums of rank ri the analysis cache holds (the index summary's, or the
 * distributed analysis's), or NULL. */
static const struct budget_sums *known_sums(const struct steps_model *m, size_t ri)
{
	const struct analysis_cache *c = m->analysis;
	return c && c->bsum && ri < c->nranks && c->bsum[ri].n == m->rank[ri]->n ? &c->bsum[ri] : NULL;
}

/* Whether rank ri's span is its shell's: a phase has a value in every record, or no
 * record has any (a rank without any phase keeps its steps). A lazy rank is not read for
 * it: its budget sums say how many records have a value of each line, and until they
 * are known (an index's shards merged) it is taken as its shell says. */
static bool shell_span(const struct steps_model *m, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	bool all = false, any = false;
	if (__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE)) {
		const struct budget_sums *b = known_sums(m, ri);
		for (size_t l = 0; b && l < BUDGET_NLANES; l++) {
			all = all || b->lane_n[l] == r->n;
			any = any || b->lane_n[l] > 0;
		}
		if (!b || all || !any)
			return true;
		rank_need_body(r);
	}
	for (size_t i = 0; i < r->ncol && i < m->nmetric; i++)
		if (m->metric[i].kind == METRIC_PHASE) {
			all = all || r->col[i].count == r->n;
			any = any || r->col[i].count > 0;
		}
	return all || !any;
}

/* The position of rank r's distinct step k (its last record). */
static size_t distinct_pos(const struct rank_steps *r, size_t k)
{
	return r->contiguous ? k : r->idx_pos[k];
}

/* The smallest and largest step of rank r's records with a phase into lo, hi; false when
 * none has. A rank that logs each step once is walked in from its ends; one that logs a
 * step twice is read whole (an earlier record of a step may have the phases). */
static bool phased_bounds(const struct steps_model *m, const struct rank_steps *r, long *lo, long *hi)
{
	if (r->n > r->ndistinct) {
		bool found = false;
		for (size_t p = 0; p < r->n; p++)
			if (record_phased(m, r, p)) {
				long s = store_rank_step(r, p);
				*lo = found && *lo < s ? *lo : s;
				*hi = found && *hi > s ? *hi : s;
				found = true;
			}
		return found;
	}
	size_t a = 0, b = r->ndistinct;
	while (a < b && !record_phased(m, r, distinct_pos(r, a)))
		a++;
	if (a == b)
		return false;
	while (!record_phased(m, r, distinct_pos(r, b - 1)))
		b--;
	*lo = store_rank_distinct_step(r, a);
	*hi = store_rank_distinct_step(r, b - 1);
	return true;
}

/* Rank ri's span natively into lo, hi (r->n > 0): from its first step with a phase or
 * the first aligned step, whichever is earlier, to the later of its last one and the
 * last aligned step. */
static void native_span(const struct steps_model *m, size_t ri, long *lo, long *hi)
{
	const struct rank_steps *r = m->rank[ri];
	long a, b;
	*lo = r->span_lo;
	*hi = r->span_hi;
	if (shell_span(m, ri) || !phased_bounds(m, r, &a, &b))
		return;
	if (m->naligned) {
		long first = steps_aligned_step(m, 0), last = steps_aligned_step(m, m->naligned - 1);
		a = first < a ? first : a;
		b = last > b ? last : b;
	}
	*lo = a;
	*hi = b;
}

bool steps_rank_span(const struct steps_model *m, size_t ri, long *lo, long *hi)
{
	const struct rank_steps *r = m->rank[ri];
	if (!r->n)
		return false;
	*lo = r->span_lo;
	*hi = r->span_hi;
	if (native_steps(m))
		native_span(m, ri, lo, hi);
	return true;
}

/* Rank r's distinct steps before step. */
static size_t distinct_below(const struct rank_steps *r, long step)
{
	if (r->contiguous) {
		if (step <= r->step0)
			return 0;
		unsigned long k = (unsigned long)step - (unsigned long)r->step0;
		return k < r->n ? (size_t)k : r->n;
	}
	rank_need_body(r);
	size_t lo = 0, hi = r->ndistinct;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->idx_step[mid] < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t steps_rank_nsteps(const struct steps_model *m, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	long lo, hi;
	if (!steps_rank_span(m, ri, &lo, &hi) || (lo == r->span_lo && hi == r->span_hi))
		return r->ndistinct;
	return distinct_below(r, hi + 1) - distinct_below(r, lo);
}

static int cmp_step(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Rank r's steps outside [lo, hi] appended to *v (*n of them, room for *cap). */
static void steps_outside(const struct rank_steps *r, long lo, long hi, int64_t **v, size_t *n, size_t *cap)
{
	size_t a = distinct_below(r, lo), b = distinct_below(r, hi + 1);
	size_t more = a + (r->ndistinct - b);
	if (*n + more > *cap) {
		*cap = (*n + more) * 2;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	for (size_t k = 0; k < r->ndistinct; k++)
		if (k < a || k >= b)
			(*v)[(*n)++] = store_rank_distinct_step(r, k);
}

/* The run's steps natively (*nunion) and the last step of any rank (*top, LONG_MIN
 * when none has a record): the steps a rank's span leaves out that no other rank has
 * inside its own are not counted. */
static void native_union(const struct steps_model *m, size_t *nunion, long *top)
{
	size_t N = m->nrank, ncut = 0, cap = 0, gone = 0;
	long *lo = xmalloc((N ? N : 1) * sizeof(*lo)), *hi = xmalloc((N ? N : 1) * sizeof(*hi));
	int64_t *cut = NULL;
	*top = LONG_MIN;
	for (size_t r = 0; r < N; r++) {
		const struct rank_steps *rs = m->rank[r];
		if (!steps_rank_span(m, r, &lo[r], &hi[r]))
			continue;
		*top = hi[r] > *top ? hi[r] : *top;
		if (lo[r] != rs->span_lo || hi[r] != rs->span_hi)
			steps_outside(rs, lo[r], hi[r], &cut, &ncut, &cap);
	}
	if (ncut)
		qsort(cut, ncut, sizeof(*cut), cmp_step);
	for (size_t j = 0; j < ncut; j++) {
		if (j > 0 && cut[j] == cut[j - 1])
			continue;
		bool kept = false;
		size_t pos;
		for (size_t r = 0; r < N && !kept; r++)
			kept = m->rank[r]->n && lo[r] <= cut[j] && cut[j] <= hi[r] && steps_find(m, r, cut[j], &pos);
		gone += !kept;
	}
	*nunion = m->nunion - gone;
	free(cut);
	free(lo);
	free(hi);
}

/* native_union(), kept for the model's shape it was found for (under lock). */
static void native_memo(const struct steps_model *m, size_t *nunion, long *top)
{
	struct steps_model *w = (struct steps_model *)m; /* the memo is no part of the model's value */
	const struct analysis_cache *c = m->analysis; /* until budget sums are known, lazy ranks keep their span */
	size_t key[6] = { m->nrank, m->naligned, m->nunion, m->ntail, m->live ? steps_total_records(m) : 0,
			  c && c->bsum };
	pthread_mutex_lock(&w->lock);
	bool have = memcmp(key, m->native_key, sizeof(key)) == 0;
	*nunion = m->native_nunion;
	*top = m->native_top;
	pthread_mutex_unlock(&w->lock);
	if (have)
		return;
	native_union(m, nunion, top);
	pthread_mutex_lock(&w->lock);
	memcpy(w->native_key, key, sizeof(key));
	w->native_nunion = *nunion;
	w->native_top = *top;
	pthread_mutex_unlock(&w->lock);
}

size_t steps_nunion(const struct steps_model *m)
{
	size_t n;
	long top;
	if (!m || !native_steps(m))
		return m ? m->nunion : 0;
	native_memo(m, &n, &top);
	return n;
}

size_t steps_missing(const struct steps_model *m, size_t ri)
{
	return steps_nunion(m) - steps_rank_nsteps(m, ri);
}

size_t steps_naligned(const struct steps_model *m)
{
	return m ? m->naligned : 0;
}

long steps_aligned_step(const struct steps_model *m, size_t k)
{
	return m->aligned_contiguous ? m->aligned_lo + (long)k : (long)m->aligned[k];
}

size_t steps_aligned_lower(const struct steps_model *m, long step)
{
	size_t lo = 0, hi = steps_naligned(m);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (steps_aligned_step(m, mid) < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long steps_max_step(const struct steps_model *m, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	return r->ndistinct ? store_rank_distinct_step(r, r->ndistinct - 1) : LONG_MIN;
}

/* The columns after the aligned ones with a step up to top (the tail ascends). */
static size_t tail_through(const struct steps_model *m, long top)
{
	if (m->tail_range) {
		if (top < m->tail_lo)
			return 0;
		unsigned long upto = (unsigned long)top - (unsigned long)m->tail_lo + 1;
		return upto < m->ntail ? (size_t)upto : m->ntail;
	}
	size_t lo = 0, hi = m->ntail;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->tail[mid] <= top)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t steps_ncolumns(const struct steps_model *m)
{
	if (!m)
		return 0;
	size_t ntail = m->ntail, n;
	long top;
	if (ntail && native_steps(m)) {
		native_memo(m, &n, &top);
		ntail = tail_through(m, top);
	}
	return m->naligned + ntail;
}

long steps_column_step(const struct steps_model *m, size_t k)
{
	if (k < m->naligned)
		return steps_aligned_step(m, k);
	k -= m->naligned;
	return m->tail_range ? m->tail_lo + (long)k : (long)m->tail[k];
}

size_t steps_aligned_pos(const struct steps_model *m, size_t ri, size_t k)
{
	size_t pos = 0;
	steps_find(m, ri, steps_aligned_step(m, k), &pos);
	return pos;
}

static size_t column_bytes(const struct column *c)
{
	size_t b = 0;
	if (c->data)
		b += c->cap * store_col_elem(c->enc);
	if (c->present)
		b += bitmap_bytes(c->cap);
	b += c->nruns * (sizeof(*c->run_start) + sizeof(*c->run_val));
	return b;
}

size_t steps_resident_bytes(const struct steps_model *m)
{
	size_t b = 0;
	for (size_t i = 0; m && i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		b += sizeof(*r) + r->ncol * sizeof(*r->col);
		if (r->step)
			b += r->cap * sizeof(*r->step);
		if (r->ts)
			b += r->cap * sizeof(*r->ts);
		if (r->ts_present)
			b += bitmap_bytes(r->cap);
		if (r->idx_step)
			b += r->ndistinct * (sizeof(*r->idx_step) + sizeof(*r->idx_pos));
		for (size_t c = 0; c < r->ncol; c++)
			b += column_bytes(&r->col[c]);
	}
	if (m && m->aligned)
		b += m->naligned * sizeof(*m->aligned);
	return b;
}

size_t steps_total_records(const struct steps_model *m)
{
	size_t n = 0;
	for (size_t i = 0; m && i < m->nrank; i++)
		n += m->rank[i]->n;
	return n;
}

void **steps_analysis_slot(struct steps_model *m)
{
	return &m->analysis;
}

const char *const steps_series_name[STEPS_NSERIES] = { "step_time", "loss", "grad_norm", "memory" };

static int memory_metric(const struct steps_model *m)
{
	static const char *const names[] = { "alloc", "allocated", "peak_alloc", "reserved" };
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		int id = steps_metric_find(m, METRIC_MEMORY, names[i]);
		if (id >= 0)
			return id;
	}
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		int id = steps_metric_nth(m, i);
		if (steps_metric(m, id)->kind == METRIC_MEMORY)
			return id;
	}
	return -1;
}

int steps_series_metric(const struct steps_model *m, enum steps_series k)
{
	switch (k) {
	case SERIES_LOSS:
	case SERIES_GRAD_NORM:
		return steps_metric_find(m, METRIC_SCALAR, steps_series_name[k]);
	case SERIES_MEMORY:
		return memory_metric(m);
	default:
		return -1;
	}
}
