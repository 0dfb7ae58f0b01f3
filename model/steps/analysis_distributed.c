/* SPDX-License-Identifier: MIT */
/* analysis_distributed.c: the distributed analysis over the aligned steps (analysis.h §6.4):
 * per-step critical rank, skew and CV, per-rank time lost, onset and coverage, in
 * parallel column and row passes (model/pool.h), plus the memoized per-step medians. A
 * record without compute is 0 s in pytscope's figures only (analysis.h, distributed).
 * Two alignments: pytscope's, where the last record of a step counts (--compat pytscope,
 * the index summary), and the native one, where a record without any phase (an eval
 * record's scalars) does not replace an earlier record of its step that has phases
 * (analysis_native.c: computed again only when a rank has such a step), with its step
 * medians for the native slowdown heatmap (analysis_native_medians). Which aligned steps
 * the native straggler rules judge, and whether a rank logs a step number twice
 * (analysis.h JUDGED STEPS, repeats).
 * Why the ranks cannot be weighed: analysis_weighable.c. */
#include "model/steps/seal.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model/pool.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

/* Kadane over x_s - 1/2 (x_s = the rank's part of step s, vals[s] its compute) over the
 * judged steps; sets the persistent stretch. */
static void onset_of(const struct distributed *d, size_t ri, const double *vals, struct rank_stat *rs)
{
	rs->onset = rs->onset_end = -1;
	double best = 0, cur = 0;
	size_t best_a = 0, best_b = 0, a = 0;
	bool have = false;
	for (size_t k = 0; k < d->n_judged; k++) {
		double x = analysis_critical_part(&d->step[k], ri, vals[k]) - 0.5;
		if (cur <= 0) {
			cur = 0;
			a = k;
		}
		cur += x;
		if (cur > best) {
			best = cur;
			best_a = a;
			best_b = k;
			have = true;
		}
	}
	if (!have)
		return;
	size_t len = best_b - best_a + 1;
	double hits = 0;
	for (size_t k = best_a; k <= best_b; k++)
		hits += analysis_critical_part(&d->step[k], ri, vals[k]);
	if (len >= ANALYSIS_ONSET_MIN_STEPS && hits >= 0.6 * (double)len) {
		rs->onset = d->step[best_a].step;
		rs->onset_end = d->step[best_b].step;
	}
}

void analysis_rank_mem_peak(const struct steps_model *m, size_t ri, struct rank_stat *rs)
{
	rank_need_body(m->rank[ri]);
	analysis_mem_peak_of(m->rank[ri], steps_metric_find(m, METRIC_MEMORY, "peak_alloc"),
			     steps_metric_find(m, METRIC_MEMORY, "alloc"), rs);
}

void analysis_mem_peak_of(const struct rank_steps *r, int peak_alloc, int alloc, struct rank_stat *rs)
{
	struct col_cursor pa, a;
	col_cursor_init(&pa, r, peak_alloc);
	col_cursor_init(&a, r, alloc);
	for (size_t i = 0; i < r->n; i++) {
		double v; /* a non-finite value (the loader warns) is missing */
		bool got = col_cursor_get(&pa, i, &v) && isfinite(v);
		if (!got)
			got = col_cursor_get(&a, i, &v) && isfinite(v);
		if (got && (!rs->has_mem_peak || v > rs->mem_peak)) {
			rs->mem_peak = v;
			rs->has_mem_peak = true;
		}
	}
}

/* Statistics of one aligned step from c[N] (compute of every rank, pytscope's: 0 s for
 * a record without compute), its comm max, its median over the ranks with a compute
 * (med) and pytscope's median over c (py_med, the sync skew's). */
static void step_stats(struct dist_step *s, const double *c, double comm_max, double med, double py_med, size_t N)
{
	size_t crit = 0;   /* pytscope's argmax: an exact tie to the lowest rank */
	for (size_t r = 1; r < N; r++)
		if (c[r] > c[crit])
			crit = r;
	int tied = 1; /* crit and the ranks tied with it (none when its compute is NaN) */
	for (size_t r = 0; r < N; r++)
		tied += r != crit && analysis_tied_max(c[r], c[crit]);
	s->critical = (int)crit;
	s->ntied = tied;
	s->cmax = c[crit];
	s->cmean = stats_fsum(c, N) / (double)N;
	s->cmed = med;
	s->comm_max = comm_max;
	s->wall = s->cmax + comm_max;
	s->comm_frac = s->wall != 0 ? comm_max / s->wall : 0.0;
	s->cv = N >= 2 && s->cmean > 0 ? stats_pstdev(c, N, s->cmean) / s->cmean : 0.0;
	s->skew = s->cmax - py_med;
}

/* The median of the values of c[N] that are a compute (not analysis_no_compute()), tmp
 * (N doubles) as scratch: NaN when none is. */
static double present_median(const double *c, size_t N, double *tmp)
{
	size_t n = 0;
	for (size_t r = 0; r < N; r++)
		if (!analysis_is_no_compute(c[r]))
			tmp[n++] = c[r];
	if (n == N)
		return stats_median_buf(c, N, tmp);
	return n ? stats_median_inplace(tmp, n) : NAN;
}

/* pytscope's compute of the n values of c (a record without compute: 0 s); how many. */
static size_t gaps_to_zero(double *c, size_t n)
{
	size_t gaps = 0;
	for (size_t i = 0; i < n; i++)
		if (analysis_is_no_compute(c[i])) {
			c[i] = 0.0;
			gaps++;
		}
	return gaps;
}

/* The aligned index of step into *k; false when the step is not aligned. */
static bool aligned_index(const struct steps_model *m, long step, size_t *k)
{
	*k = steps_aligned_lower(m, step);
	return *k < steps_naligned(m) && steps_aligned_step(m, *k) == step;
}

/* The aligned steps the native straggler rules judge (analysis.h JUDGED STEPS): those
 * up to the lowest step number the last record of a rank that logs a step number twice
 * holds (in->last_step's, else the model's); a rank that does not has its highest last. */
static size_t judged_steps(const struct steps_model *m, size_t S, const struct dist_input *in)
{
	long cut = LONG_MAX;
	for (size_t r = 0; r < steps_nranks(m); r++)
		if (steps_nrecords(m, r) > steps_ndistinct(m, r)) {
			long last = in ? in->last_step[r] : steps_step(m, r, steps_nrecords(m, r) - 1);
			cut = last < cut ? last : cut;
		}
	size_t k;
	if (S == 0 || steps_aligned_step(m, S - 1) <= cut)
		return S;
	return aligned_index(m, cut, &k) ? k + 1 : k;
}

/* Some rank logs a step number twice (analysis.h repeats); from the ranks' counts. */
static bool logs_steps_again(const struct steps_model *m)
{
	for (size_t r = 0; r < steps_nranks(m); r++)
		if (steps_nrecords(m, r) > steps_ndistinct(m, r))
			return true;
	return false;
}

/* Aligned steps per task of the column pass. A task reads its block rank by rank (each
 * rank's columns sequentially, not one cache line per rank and step) into N x STEP_BLOCK
 * doubles, then walks it step by step. */
#define STEP_BLOCK 64

/* The column pass over the aligned steps, in tasks of STEP_BLOCK steps. With d it fills
 * d->step[] and lost[]; without, only the per-step medians into cmed[]. */
struct step_pass {
	const struct steps_model *m;
	struct phase_sets ps;
	size_t N, S;
	size_t k_from;            /* first aligned step of the pass (medians of appended steps) */
	size_t k_to;              /* end of the pass (0: S) */
	const struct dist_input *in; /* each rank's compute from here, not the model (or NULL) */
	const double *cmed_known; /* memoized per-step medians, or NULL */
	double *cmed;             /* medians-only pass: out */
	struct distributed *d;    /* NULL: medians only */
	double *py_med;           /* per aligned step pytscope's median (records without compute
				   * at 0 s): its rel_slowdown's */
	double *lost;             /* per aligned step: seconds the others waited / (N - 1) */
	double **rows;            /* per rank its compute at the S steps, read once (index_rows), or
				   * NULL: read per pass */
	double *comm_max;         /* with rows: per aligned step the comm the step pass takes */
	struct share_fold *fold;  /* fill_rows: the tasks' shares of comm_max, folded in order */
	struct run *run;          /* the run of rows: its budget sums are taken with them */
	struct budget_plan bplan;
	struct budget_sums *bsum;
	const struct native_align *shadow; /* the native alignment's records; NULL: pytscope's */
};

/* Rank r's compute out[n] (and comm, when not NULL) at aligned steps [k0, k0 + n) as
 * the native alignment has them: where it differs, from the record with phases. */
static void shadow_patch(const struct step_pass *p, size_t r, size_t k0, size_t n, double *out, double *comm)
{
	const struct native_align *na = p->shadow;
	if (!na || !na->rank[r].n || !n)
		return;
	const struct native_rank *nr = &na->rank[r];
	long last = steps_aligned_step(p->m, k0 + n - 1);
	size_t k, i = analysis_native_first(na, r, steps_aligned_step(p->m, k0));
	for (; i < nr->n && nr->step[i] <= last; i++)
		if (aligned_index(p->m, nr->step[i], &k))
			analysis_records_compute(p->m, &p->ps, r, nr->pos[i], 1, out + (k - k0),
						 comm ? comm + (k - k0) : NULL);
}

static void step_block(void *ud, size_t task)
{
	struct step_pass *p = ud;
	size_t N = p->N, k0 = p->k_from + task * STEP_BLOCK, end = p->k_to ? p->k_to : p->S;
	size_t nb = end - k0 < STEP_BLOCK ? end - k0 : STEP_BLOCK;
	double *blk = xmalloc(N * nb * sizeof(*blk)), *c = xmalloc(N * sizeof(*c));
	double *tmp = xmalloc(N * sizeof(*tmp)), comm[STEP_BLOCK], cm[STEP_BLOCK];
	for (size_t r = 0; r < N; r++) {
		if (p->in) {
			p->in->compute(p->in->ud, r, k0, nb, blk + r * nb);
			continue;
		}
		if (p->rows) {
			memcpy(blk + r * nb, p->rows[r] + k0, nb * sizeof(*blk));
			continue;
		} else {
			analysis_rank_compute(p->m, &p->ps, r, k0, nb, blk + r * nb, p->d ? cm : NULL);
			shadow_patch(p, r, k0, nb, blk + r * nb, p->d ? cm : NULL);
		}
		for (size_t j = 0; p->d && j < nb; j++)
			if (r == 0 || cm[j] > comm[j])
				comm[j] = cm[j];
	}
	if (p->d && (p->in || p->rows))
		memcpy(comm, (p->in ? p->in->comm_max : p->comm_max) + k0, nb * sizeof(*comm));
	for (size_t j = 0; j < nb; j++) {
		size_t k = k0 + j;
		for (size_t r = 0; r < N; r++)
			c[r] = blk[r * nb + j];
		double med = p->cmed_known ? p->cmed_known[k] : present_median(c, N, tmp);
		if (!p->d) {
			p->cmed[k] = med;
			continue;
		}
		double py_med = gaps_to_zero(c, N) ? stats_median_buf(c, N, tmp) : med;
		p->py_med[k] = py_med;
		struct dist_step *s = &p->d->step[k];
		s->step = steps_aligned_step(p->m, k);
		step_stats(s, c, comm[j], med, py_med, N);
		double waited = 0;
		for (size_t r = 0; r < N; r++)   /* a rank tied with the max waited for none */
			if (!analysis_tied_max(c[r], s->cmax))
				waited += s->cmax - c[r];
		p->lost[k] = waited / (double)(N - 1);
	}
	free(blk);
	free(c);
	free(tmp);
}

static void step_pass_run(const struct run *run, struct step_pass *p)
{
	size_t end = p->k_to ? p->k_to : p->S;
	size_t ntasks = (end - p->k_from + STEP_BLOCK - 1) / STEP_BLOCK;
	pool_run(ntasks, ntasks > 1 ? analysis_threads(run) : 1, step_block, p);
}

/* Per-step statistics (parallel), then, in step order, the critical counts, time lost
 * and the summary sums. Memory O(N x threads x STEP_BLOCK + S), never O(N x S). p->lost
 * stays for the rank pass (the straggler verdicts' costs). */
static void dist_steps(const struct run *run, struct step_pass *p, double *sum_max, double *sum_lost)
{
	struct distributed *d = p->d;
	p->lost = xmalloc(p->S * sizeof(*p->lost));
	size_t band = p->in ? p->in->band_steps : p->S;
	for (size_t k0 = 0; k0 < p->S; k0 += band) { /* a band of steps of every rank at a time */
		p->k_from = k0;
		p->k_to = p->S - k0 < band ? p->S : k0 + band;
		if (p->in)
			p->in->band(p->in->ud, p->k_from, p->k_to);
		step_pass_run(run, p);
	}
	for (size_t k = 0; k < p->S; k++) {
		const struct dist_step *s = &d->step[k];
		*sum_max += s->cmax;
		*sum_lost += s->cmax - s->cmean;
		d->rank[s->critical].slowest_count++;
	}
}

/* The median of v[n] (reordered), NaN when a value is NaN (a NaN phase value), as their
 * mean is: no order of NaN among the others makes one of them the rank's median, and none
 * is sorted. */
static double median_unless_nan(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return NAN;
	return stats_median_inplace(v, n);
}

/* no_compute of the rank's compute vals[S], and own_mean and own_median when it is not 0
 * (else the caller sets mean_compute and median_compute); scratch: S doubles. */
static void own_figures(const double *vals, size_t S, double *scratch, struct rank_stat *rs)
{
	size_t n = 0;
	for (size_t k = 0; k < S; k++)
		if (!analysis_is_no_compute(vals[k]))
			scratch[n++] = vals[k];
	rs->no_compute = S - n;
	if (n < S) {
		rs->own_mean = n ? stats_mean(scratch, n) : NAN;
		rs->own_median = n ? median_unless_nan(scratch, n) : NAN;
	}
}

bool analysis_rank_own_compute(struct run *run, size_t ri, double *mean, double *median)
{
	const struct steps_model *m = run->steps;
	const struct native_align *na = analysis_native(run);
	size_t n = steps_nrecords(m, ri), k = 0, pos;
	double *v = xmalloc((n ? n : 1) * sizeof(*v));
	struct phase_sets ps;
	rank_need_body(m->rank[ri]);
	analysis_phase_sets_init(m, &ps);
	for (size_t i = 0; i < n; i++) {
		long s = steps_step(m, ri, i);
		if (!steps_find(m, ri, s, &pos) || pos != i) /* each step once: its last record */
			continue;
		analysis_native_pos(na, ri, s, &pos);
		double c = analysis_record_compute(m, &ps, ri, pos);
		if (!analysis_is_no_compute(c))
			v[k++] = c;
	}
	analysis_phase_sets_free(&ps);
	if (k) {
		*mean = stats_mean(v, k);
		*median = median_unless_nan(v, k);
	}
	free(v);
	return k > 0;
}

/* Pass over one rank (row-wise): mean/median compute and the median slowdown against
 * each step's median (the compute recomputed from the model rather than kept for every
 * cell, unless p->rows keeps it). buf and ratio are S doubles of scratch, scratch 2 S
 * (the verdict, then the medians). */
static void dist_rank(const struct step_pass *p, size_t r, double *buf, double *ratio, double *scratch)
{
	const struct steps_model *m = p->m;
	struct distributed *d = p->d;
	size_t S = d->n_steps, nratio = 0;
	struct rank_stat *rs = &d->rank[r];
	const double *vals = p->rows ? p->rows[r] : buf;
	if (p->in) {
		p->in->compute(p->in->ud, r, 0, S, buf);
	} else if (!p->rows) {
		analysis_rank_compute(m, &p->ps, r, 0, S, buf, NULL);
		shadow_patch(p, r, 0, S, buf, NULL);
	}
	own_figures(vals, S, scratch, rs);
	if (rs->no_compute) { /* pytscope's figures: 0 s there (kept rows stay as they are) */
		if (vals != buf)
			memcpy(buf, vals, S * sizeof(*buf));
		gaps_to_zero(buf, S);
		vals = buf;
	}
	double share = 0, lost = 0;
	for (size_t k = 0; k < S; k++) {
		if (p->py_med[k] > 0)
			ratio[nratio++] = vals[k] / p->py_med[k] - 1.0;
		double part = analysis_critical_part(&d->step[k], r, vals[k]);
		if (part > 0) {
			share += part;
			lost += part * p->lost[k];
		}
	}
	rs->critical_share = share / (double)S;
	rs->time_lost = lost;
	analysis_rank_verdict(d, r, vals, ratio, nratio == S, p->lost, scratch, rs);
	rs->rank = steps_rank_id(m, r);
	rs->mean_compute = stats_mean(vals, S);
	memcpy(scratch, vals, S * sizeof(*scratch));
	rs->median_compute = median_unless_nan(scratch, S);
	if (!rs->no_compute) {
		rs->own_mean = rs->mean_compute;
		rs->own_median = rs->median_compute;
	}
	rs->slowest_fraction = (double)rs->slowest_count / (double)S;
	rs->rel_slowdown = nratio ? stats_median_buf(ratio, nratio, scratch) : 0.0;
	rs->missing = steps_missing(m, r);
	rs->coverage = steps_nunion(m) ? (double)steps_ndistinct(m, r) / (double)steps_nunion(m) : 0.0;
	onset_of(d, r, vals, rs);
	if (p->in)
		p->in->mem_peak(p->in->ud, r, rs);
	else if (!p->rows) /* kept rows: fill_rows took the peak */
		analysis_rank_mem_peak(m, r, rs);
}

/* How many ranks ahead a per-rank pass asks for a rank's record (the records lie far
 * apart in memory: without the hint each one is a cache miss and a page walk, one after
 * the other). */
#define RECORD_AHEAD 8

static void dist_rank_chunk(void *ud, size_t task)
{
	struct step_pass *p = ud;
	double *vals = xmalloc(p->S * sizeof(*vals)), *ratio = xmalloc(p->S * sizeof(*ratio));
	double *scratch = xmalloc(2 * p->S * sizeof(*scratch));
	for (size_t r = task * ANALYSIS_RANK_CHUNK; r < p->N && r < (task + 1) * ANALYSIS_RANK_CHUNK; r++) {
		if (r + RECORD_AHEAD < p->N && !p->in)
			steps_rank_prefetch(p->m, r + RECORD_AHEAD, true);
		dist_rank(p, r, vals, ratio, scratch);
	}
	free(vals);
	free(ratio);
	free(scratch);
}

/* Summary medians and means over the per-step statistics. */
static void dist_summary(struct distributed *d, double sum_max, double sum_lost)
{
	size_t S = d->n_steps;
	double *v = xmalloc(2 * S * sizeof(*v)); /* S values, then S of median scratch */
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].wall;
	d->mean_step_wall = stats_mean(v, S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].comm_frac;
	d->mean_comm_fraction = stats_mean(v, S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].cv;
	d->imbalance_cv = stats_median_buf(v, S, v + S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].skew;
	d->sync_skew = stats_median_buf(v, S, v + S);
	d->wall_frac_lost = sum_max > 0 ? sum_lost / sum_max : 0.0;
	free(v);
}

/* Cache hints before rank r's columns are read: the record of the rank RECORD_AHEAD
 * on, the body of the one 4 on, within [r, end): the next task's too, often this
 * thread's next. */
static void rows_ahead(const struct steps_model *m, size_t r, size_t end)
{
	if (r + RECORD_AHEAD < end)
		steps_rank_prefetch(m, r + RECORD_AHEAD, false);
	if (r + 4 < end)
		steps_rank_prefetch_body(m, r + 4);
}

/* c in place of s when c is a number and s is NaN or below it: the value of
 * `if (!isnan(c) && (isnan(s) || c > s)) s = c`, bit for bit (!(s >= c) is s < c or s
 * NaN), without a branch. */
static inline double greater(double s, double c)
{
	return c == c && !(s >= c) ? c : s;
}

/* share[k] = greater(share[k], cm[k]) for every step: blocks of 64 the compiler
 * vectorizes, then the rest (BENCHMARKS.md, issue 15 "where the difference sits"). */
static void share_greater(double *restrict share, const double *restrict cm, size_t S)
{
	size_t k = 0;
	for (; k + 64 <= S; k += 64)
		for (size_t j = 0; j < 64; j++)
			share[k + j] = greater(share[k + j], cm[k + j]);
	for (; k < S; k++)
		share[k] = greater(share[k], cm[k]);
}

/* The tasks' shares of comm_max (S doubles each), folded into it in task order as the
 * tasks end: task 0's share becomes comm_max, each later one's value is taken where it
 * is greater. A task that ends before all the tasks before it waits in `done`; a folded
 * share's memory goes to the next task (with one thread: two arrays of S in all). */
struct share_fold {
	pthread_mutex_t lock;
	size_t ntasks, next;      /* next: the first task not folded yet */
	double **done;            /* per task: its share, ended and not folded yet */
	double **spare;           /* folded shares' memory, nspare of them */
	size_t nspare;
};

static double *fold_take(struct step_pass *p)
{
	struct share_fold *f = p->fold;
	pthread_mutex_lock(&f->lock);
	double *s = f->nspare ? f->spare[--f->nspare] : NULL;
	pthread_mutex_unlock(&f->lock);
	return s ? s : xmalloc((p->S ? p->S : 1) * sizeof(*s));
}

static void fold_put(struct step_pass *p, size_t task, double *share)
{
	struct share_fold *f = p->fold;
	pthread_mutex_lock(&f->lock);
	f->done[task] = share;
	for (; f->next < f->ntasks && f->done[f->next]; f->next++) {
		double *s = f->done[f->next];
		if (f->next == 0) {
			p->comm_max = s;
			continue;
		}
		for (size_t k = 0; k < p->S; k++)
			if (s[k] > p->comm_max[k])
				p->comm_max[k] = s[k];
		f->spare[f->nspare++] = s;
	}
	pthread_mutex_unlock(&f->lock);
}

/* Rank r's row (its compute at the S aligned steps) and cm (its comm there) from the
 * inputs taken at its seal (seal.h: its steps contiguous, so aligned step k is its
 * record aligned_step(k) - step0 >= k, and the row is made in place in the inputs'
 * memory, ascending), its budget sums into *bsum and memory peak into rs (when not
 * NULL). in is at the end of the row's allocation, freed with the row. */
static double *inputs_row(const struct steps_model *m, size_t S, size_t r, struct seal_inputs *in, double *cm,
			  struct budget_sums *bsum, struct rank_stat *rs)
{
	long step0 = m->rank[r]->step0;
	double *row = in->compute;
	if (m->aligned_contiguous) {
		size_t p0 = (size_t)(m->aligned_lo - step0);
		memcpy(cm, in->comm + p0, S * sizeof(*cm));
		if (p0)
			memmove(row, row + p0, S * sizeof(*row));
	} else {
		for (size_t k = 0; k < S; k++) {
			size_t pos = (size_t)(steps_aligned_step(m, k) - step0);
			cm[k] = in->comm[pos];
			row[k] = row[pos];
		}
	}
	seal_inputs_sums(in, bsum, rs);
	return row;
}

/* The compute of the ranks of one task into p->rows, and each rank's budget sums from
 * the same blocks of its columns (analysis_rank_compute_sums), else while they are in
 * cache, as is its memory peak (dist_rank's pass would meet the rank cold); and the
 * task's share of the per-step comm the step pass takes: there, over the ranks in order,
 * the first rank's value, then any greater one (a NaN only when it is rank 0's). Task 0
 * keeps that rule; the others keep the first-greatest value that is not NaN (NaN:
 * none), which fold_put() then takes over the tasks in order when greater: the same
 * value, bit for bit.
 * A rank whose body went into the index part at its seal (seal.h) gives all of these
 * from the inputs taken then, its row made in their memory (inputs_row). Another rank's
 * row goes into the memory of its body when the index part just written backs the body
 * (steps_rank_take_block: nothing else reads the steps of a rank after this pass; one
 * that did would read them from the part): no fresh pages for the rows, whose first
 * touch cost more than the analysis work they save (BENCHMARKS.md, issue 15 "the
 * index's fresh pages"). */
static void fill_rows(void *ud, size_t task)
{
	struct step_pass *p = ud;
	size_t S = p->S ? p->S : 1;
	double *cm = xmalloc(S * sizeof(*cm)), *row = xmalloc(S * sizeof(*row)), *share = fold_take(p);
	size_t r0 = task * ANALYSIS_RANK_CHUNK;
	for (size_t k = 0; k < p->S; k++)
		share[k] = NAN;
	size_t r1 = r0 + ANALYSIS_RANK_CHUNK < p->N ? r0 + ANALYSIS_RANK_CHUNK : p->N;
	for (size_t r = r0; r < r1; r++) {
		rows_ahead(p->run->steps, r, p->N);
		struct seal_inputs *in = steps_rank_take_inputs(p->run->steps, r);
		if (in) {
			p->rows[r] = inputs_row(p->m, p->S, r, in, cm, &p->bsum[r], &p->d->rank[r]);
		} else {
			if (!analysis_rank_compute_sums(p->run, &p->ps, &p->bplan, r, row, cm, &p->bsum[r]))
				analysis_budget_sums(p->run, r, &p->bsum[r]);
			analysis_rank_mem_peak(p->m, r, &p->d->rank[r]);
			double *keep = steps_rank_take_block(p->run->steps, r, S * sizeof(*keep));
			p->rows[r] = keep ? keep : xmalloc(S * sizeof(*keep));
			memcpy(p->rows[r], row, p->S * sizeof(*row));
		}
		if (r == 0) /* the rule's cases apart: no test of r or task per step */
			memcpy(share, cm, p->S * sizeof(*share));
		else if (task == 0)
			for (size_t k = 0; k < p->S; k++)
				share[k] = cm[k] > share[k] ? cm[k] : share[k];
		else
			share_greater(share, cm, p->S);
	}
	fold_put(p, task, share);
	free(cm);
	free(row);
}

/* `tscope-tui index` reads every rank's compute once (rows) when that takes at most
 * INDEX_ROWS_MAX bytes; larger runs read it in each pass. */
#define INDEX_ROWS_MAX ((size_t)1 << 30)

static void keep_rows(struct run *run, struct step_pass *p)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!run->opts || !run->opts->index_build || p->in || c->index_rows ||
	    p->N > INDEX_ROWS_MAX / sizeof(double) / p->S)
		return;
	size_t ntasks = (p->N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK;
	struct share_fold f = { .ntasks = ntasks, .done = xcalloc(ntasks, sizeof(*f.done)),
				.spare = xmalloc(ntasks * sizeof(*f.spare)) };
	pthread_mutex_init(&f.lock, NULL);
	p->rows = xmalloc(p->N * sizeof(*p->rows));
	p->bsum = xmalloc(p->N * sizeof(*p->bsum));
	p->fold = &f;
	p->run = run;
	analysis_budget_plan(run->steps, &p->ps, &p->bplan);
	pool_run(ntasks, analysis_threads(run), fill_rows, p);
	analysis_budget_plan_free(&p->bplan);
	p->fold = NULL;
	for (size_t i = 0; i < f.nspare; i++)
		free(f.spare[i]);
	free(f.spare);
	free(f.done);
	pthread_mutex_destroy(&f.lock);
	c->index_rows = p->rows;
	c->index_nrows = p->N;
	free(c->bsum); /* the sums an indexed open would restore, computed from the same records */
	c->bsum = p->bsum;
}

void analysis_index_rows_of_inputs(struct run *run)
{
	struct analysis_cache *c = analysis_cache_of(run);
	struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	bool any = false;
	for (size_t r = 0; c && !c->index_rows && r < N && !any; r++)
		any = m->rank[r]->sealed_in != NULL;
	if (!any)
		return;
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	double *cm = xmalloc((S ? S : 1) * sizeof(*cm));
	c->index_rows = xcalloc(N, sizeof(*c->index_rows));
	c->index_nrows = N;
	free(c->bsum);
	c->bsum = xmalloc(N * sizeof(*c->bsum));
	for (size_t r = 0; r < N; r++) {
		struct seal_inputs *in = steps_rank_take_inputs(m, r);
		if (in) {
			c->index_rows[r] = inputs_row(m, S, r, in, cm, &c->bsum[r], NULL);
			continue;
		}
		analysis_budget_sums(run, r, &c->bsum[r]);
		c->index_rows[r] = xmalloc((S ? S : 1) * sizeof(double));
		analysis_rank_compute(m, &ps, r, 0, S, c->index_rows[r], NULL);
	}
	free(cm);
	analysis_phase_sets_free(&ps);
}

void analysis_index_rows_free(struct analysis_cache *c)
{
	for (size_t r = 0; c->index_rows && r < c->index_nrows; r++)
		free(c->index_rows[r]);
	free(c->index_rows);
	c->index_rows = NULL;
	c->index_nrows = 0;
}

/* shadow: the native alignment's records (analysis_native), computed from the model
 * (no index rows), or NULL: pytscope's alignment. */
static struct distributed *compute_distributed(struct run *run, const double *cmed_known,
						const struct dist_input *in, const struct native_align *shadow)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (N < 2 || S == 0)
		return NULL;
	struct distributed *d = xcalloc(1, sizeof(*d));
	d->world_size = N;
	d->n_steps = S;
	d->n_judged = judged_steps(m, S, in);
	d->repeats = logs_steps_again(m);
	d->rank = xcalloc_written(N, sizeof(*d->rank)); /* the memory peak reads before it writes */
	d->step = xcalloc(S, sizeof(*d->step));
	struct step_pass p = { .m = m, .N = N, .S = S, .cmed_known = cmed_known, .d = d, .in = in,
			       .py_med = xmalloc(S * sizeof(double)), .shadow = shadow };
	analysis_phase_sets_init(m, &p.ps);
	if (!shadow)
		keep_rows(run, &p);
	double sum_max = 0, sum_lost = 0;
	dist_steps(run, &p, &sum_max, &sum_lost);
	pool_run((N + ANALYSIS_RANK_CHUNK - 1) / ANALYSIS_RANK_CHUNK, analysis_threads(run), dist_rank_chunk, &p);
	double p0 = 1.0 / (double)N, expected = (double)S * p0;
	double sd = sqrt((double)S * p0 * (1.0 - p0));
	if (sd == 0)
		sd = 1.0;
	size_t nstrag = 0;
	long strag = -1;
	for (size_t r = 0; r < N; r++) {
		struct rank_stat *rs = &d->rank[r];
		rs->straggler_z = ((double)rs->slowest_count - expected) / sd;
		rs->critical_z = (rs->critical_share * (double)S - expected) / sd;
		if (rs->straggler_z >= 3.0 && rs->rel_slowdown >= 0.05) {
			nstrag++;
			strag = (long)r;
		}
	}
	d->straggler = nstrag == 1 ? strag : -1;
	analysis_straggler_set(d);
	free(p.lost);
	free(p.py_med);
	free(p.comm_max); /* keep_rows' */
	dist_summary(d, sum_max, sum_lost);
	analysis_phase_sets_free(&p.ps);
	return d;
}

const struct distributed *analysis_distributed_last(struct run *run)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return NULL;
	if (!c->dist_done) {
		/* medians a live run kept and extended; else the step pass computes them */
		c->dist = compute_distributed(run, c->cmed ? analysis_step_medians(run, c) : NULL, NULL, NULL);
		c->dist_done = true;
		if (c->dist && !c->cmed)
			analysis_step_medians(run, c);   /* kept: a live run extends them */
	}
	return c->dist;
}

/* The native alignment differs from pytscope's only where a rank has a shadowed step:
 * then its own analysis (pytscope's is not computed for it, unless known already). */
const struct distributed *analysis_distributed(struct run *run)
{
	struct analysis_cache *c = analysis_cache_of(run);
	const struct steps_model *m = run->steps;
	if (!c || (run->opts && run->opts->compat_pytscope))
		return analysis_distributed_last(run);
	if (!c->native_done && steps_nranks(m) >= 2 && steps_naligned(m)) {
		const struct native_align *na = analysis_native(run);
		c->native = na ? compute_distributed(run, NULL, NULL, na) : NULL;
		c->native_done = true;
	}
	return c->native ? c->native : analysis_distributed_last(run);
}

struct distributed *analysis_distributed_from(struct run *run, const struct dist_input *in)
{
	return compute_distributed(run, NULL, in, NULL);
}

struct distributed *analysis_dist_compute(struct run *run, const double *cmed_known)
{
	return compute_distributed(run, cmed_known, NULL, NULL);
}

/* Median of compute over the ranks at every aligned step (S entries), memoized: shared
 * by the distributed analysis (cmed) and the slowdown heatmap, whichever comes first.
 * After appends (analysis_cache_grown) only the new aligned steps are computed. */
const double *analysis_step_medians(struct run *run, struct analysis_cache *c)
{
	const struct steps_model *m = run->steps;
	size_t S = steps_naligned(m), from = c->cmed ? c->ncmed : 0;
	if (c->cmed && from == S)
		return c->cmed;
	c->cmed = xrealloc(c->cmed, (S ? S : 1) * sizeof(*c->cmed));
	c->ncmed = S;
	if (from == 0 && c->dist_done && c->dist && c->dist->n_steps == S) {
		for (size_t k = 0; k < S; k++)
			c->cmed[k] = c->dist->step[k].cmed;
		return c->cmed;
	}
	struct step_pass p = { .m = m, .N = steps_nranks(m), .S = S, .k_from = from, .cmed = c->cmed };
	if (c->index_rows && c->index_nrows == p.N) /* an index build's, read once */
		p.rows = c->index_rows;
	analysis_phase_sets_init(m, &p.ps);
	step_pass_run(run, &p);
	analysis_phase_sets_free(&p.ps);
	return c->cmed;
}

/* The compute of every rank at aligned step k in the native alignment na into c[N]
 * (the doubles the native step pass reads there). */
static void native_step_compute(const struct steps_model *m, const struct phase_sets *ps,
				const struct native_align *na, size_t k, double *c)
{
	long step = steps_aligned_step(m, k);
	for (size_t r = 0; r < steps_nranks(m); r++) {
		size_t pos;
		if (!analysis_native_pos(na, r, step, &pos))
			pos = steps_aligned_pos(m, r, k);
		analysis_records_compute(m, ps, r, pos, 1, &c[r], NULL);
	}
}

double *analysis_native_medians(struct run *run, const struct native_align *na)
{
	const struct steps_model *m = run->steps;
	size_t S = steps_naligned(m), N = steps_nranks(m), k;
	double *out = xmalloc((S ? S : 1) * sizeof(*out));
	memcpy(out, analysis_step_medians(run, analysis_cache_of(run)), S * sizeof(*out));
	double *c = xmalloc(2 * (N ? N : 1) * sizeof(*c));
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	for (size_t r = 0; na && r < na->nranks; r++)
		for (size_t i = 0; i < na->rank[r].n; i++)   /* a step met again: the same median */
			if (aligned_index(m, na->rank[r].step[i], &k)) {
				native_step_compute(m, &ps, na, k, c);
				out[k] = present_median(c, N, c + N);
			}
	analysis_phase_sets_free(&ps);
	free(c);
	return out;
}

size_t analysis_dist_lower(const struct distributed *d, size_t m, long step)
{
	size_t lo = 0, hi = m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->step[mid].step < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
