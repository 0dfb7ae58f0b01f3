/* SPDX-License-Identifier: MIT */
/* ranks.c: the per-rank deltas of a run pair (compare.h): every rank both runs have,
 * compared by what compare_side_series gives (compute, a trace set's compute kernels, or
 * step time; compare.c) over the step numbers that rank has in both (not only the steps
 * every rank has; each step's record as the run aligns it, internal.h NATIVE ALIGNMENT),
 * the steps with no value on a side and why (a NaN phase value, no phase recorded), the
 * noise-aware regression test and its onset in B, the per-step wall over the common
 * ranks (or why there is none; a rank with no value at a step leaves that step out; a
 * rank without step records counts as absent), the time lost of the ranks of that wall
 * among themselves over its steps (or why there is none), a
 * side or a rank that measured no time (not judged, out of the wall and of the time lost),
 * a side that stopped recording a phase the other records (nothing judged:
 * compare_phases_one_side), and what the comparison left out (the stretches of steps of
 * one side only, never a range over steps it lacks). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/internal.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"  /* phase sets, a record's compute and comm */
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"

#define MAD_TO_STD 1.4826
#define NOISE_Z 3.0        /* standard errors a mean delta must exceed */
#define NOISE_FLOOR 0.01   /* ... and this fraction of A's mean */

/* A plain mean: the test compares it with a noise threshold, no exact rounding needed. */
static double mean_of(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* 1.4826 * MAD of v (reorders v). */
static double robust_sd(double *v, size_t n)
{
	if (!n)
		return 0;
	double med = stats_median_inplace(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	return MAD_TO_STD * stats_median_inplace(v, n);
}

/* The noise test of compare.h: +1 when mean m of d passes upward, -1 downward, else 0
 * (always 0 under CMP_MIN_STEPS values: not judged). d is reordered; *thr receives
 * 3 sigma / sqrt(n). */
static int noise_test(double *d, size_t n, double m, double base, double *thr)
{
	*thr = n ? NOISE_Z * robust_sd(d, n) / sqrt((double)n) : 0;
	double floor = NOISE_FLOOR * fabs(base);
	if (n < CMP_MIN_STEPS)
		return 0;
	if (m > *thr && m > floor)
		return 1;
	if (-m > *thr && -m > floor)
		return -1;
	return 0;
}

size_t compare_common_steps(const struct steps_model *ma, const struct steps_model *mb, size_t **ka,
			   size_t **kb)
{
	size_t na = steps_naligned(ma), nb = steps_naligned(mb), n = 0;
	*ka = xmalloc((na < nb ? na : nb) * sizeof(**ka) + 1);
	*kb = xmalloc((na < nb ? na : nb) * sizeof(**kb) + 1);
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		long sa = steps_aligned_step(ma, i), sb = steps_aligned_step(mb, j);
		if (sa < sb) {
			i++;
		} else if (sb < sa) {
			j++;
		} else {
			(*ka)[n] = i++;
			(*kb)[n++] = j++;
		}
	}
	return n;
}

/* Union of the rank ids, ascending. */
static void rank_union(struct cmp_ranks *out, const struct steps_model *ma, const struct steps_model *mb)
{
	size_t na = steps_nranks(ma), nb = steps_nranks(mb);
	out->v = xcalloc(na + nb + 1, sizeof(*out->v));
	size_t i = 0, j = 0;
	while (i < na || j < nb) {
		int ia = i < na ? steps_rank_id(ma, i) : 0, ib = j < nb ? steps_rank_id(mb, j) : 0;
		struct cmp_rank *r = &out->v[out->n++];
		r->onset_b = -1;
		if (j >= nb || (i < na && ia < ib)) {
			r->rank = ia;
			r->in_a = true;
			i++;
		} else if (i >= na || ib < ia) {
			r->rank = ib;
			r->in_b = true;
			j++;
		} else {
			r->rank = ia;
			r->in_a = r->in_b = true;
			i++;
			j++;
		}
	}

}

/* Seconds the other ranks waited for rank index ri over the given aligned steps, its
 * part of each (analysis.h) read off its compute row (float: a rank within float
 * precision of the max counts as tied with it). */
static double lost_over(const struct distributed *d, size_t ri, const float *row, const size_t *k, size_t n)
{
	double lost = 0, w = (double)d->world_size / ((double)d->world_size - 1);
	for (size_t j = 0; j < n; j++) {
		const struct dist_step *s = &d->step[k[j]];
		double part = analysis_critical_part(s, ri, row[k[j]] == (float)s->cmax ? s->cmax : NAN);
		if (part > 0)
			lost += part * w * (s->cmax - s->cmean);
	}
	return lost;
}

/* Onset in B (compare.h): first step of the best stretch of flagged steps, or -1. */
static long onset_of(const double *d, const long *step, size_t n, double thr)
{
	double best = 0, cur = 0;
	size_t best_lo = 0, best_hi = 0, lo = 0;
	for (size_t j = 0; j < n; j++) {
		if (cur <= 0) {
			cur = 0;
			lo = j;
		}
		cur += (d[j] > thr ? 1.0 : 0.0) - 0.5;
		if (cur > best) {
			best = cur;
			best_lo = lo;
			best_hi = j + 1;
		}
	}
	return best > 0 && best_hi - best_lo >= ANALYSIS_ONSET_MIN_STEPS ? step[best_lo] : -1;
}

/* One side of the pair: its steps, phase sets, the series of its step wall and time lost
 * (compare_series) and the one its ranks are compared by (compare_side_series). */
struct side {
	const struct steps_model *m;
	const struct native_align *na; /* the records the run aligns natively (analysis_native), or NULL */
	struct phase_sets ps;
	int series;
	int ranks;
	const struct heat_grid *g;   /* the heatmap of `ranks`, level 0 read in place; NULL: none */
};

/* The aligned steps both runs have (compare_common_steps) and the aligned steps of one
 * run only: the comparison of a rank whose records are its run's aligned steps on both
 * sides (the usual rank) reads the heatmap rows there, as the distributed analysis does,
 * instead of looking each record up (seconds at 1,024 ranks x 20,000 steps). */
struct aligned {
	size_t *ka, *kb, nc;
	struct cmp_span a_only, b_only;
	bool every_rank;             /* every compared rank took this path */
};

/* A step number a rank has in both runs, and the rank's value there in A and B. */
struct paired {
	long step;
	double a, b;
};

struct rank_work {
	double *a, *d, *tmp;
	long *step;
	struct paired *p;
	bool time_a, time_b;         /* a compared value above or below 0 seen in A, in B */
};

/* The value of record pos of rank index ri the ranks are compared by, rounded to float as
 * the heatmap keeps it (so the steps every rank has give the heatmap's values). */
static double record_value(const struct side *s, size_t ri, size_t pos)
{
	double v;
	if (s->ranks >= 0)   /* a phase: NaN where the record has none */
		return steps_value(s->m, ri, s->ranks, pos, &v) ? (float)v : NAN;
	if (s->ranks == HEAT_COMPUTE)
		return (float)analysis_record_compute(s->m, &s->ps, ri, pos);
	return (float)analysis_record_step_time(s->m, &s->ps, ri, pos);
}

/* The step wall's series value of that record, in full. */
static double record_exact(const struct side *s, size_t ri, size_t pos)
{
	if (s->series == HEAT_COMPUTE)
		return analysis_record_compute(s->m, &s->ps, ri, pos);
	return analysis_record_step_time(s->m, &s->ps, ri, pos);
}

/* The record of step of rank index ri that the side's alignment takes (the heatmap's):
 * the last one, natively the one with phases before a last one without (internal.h
 * NATIVE ALIGNMENT); false when the rank has none. */
static bool side_find(const struct side *s, size_t ri, long step, size_t *pos)
{
	if (!steps_find(s->m, ri, step, pos))
		return false;
	analysis_native_pos(s->na, ri, step, pos);
	return true;
}

/* True when pos is the record of its step number that rank ri's alignment takes (the
 * one compared, as for the aligned steps); its step number in *step. */
static bool record_taken(const struct side *s, size_t ri, size_t pos, long *step)
{
	size_t last;
	*step = steps_step(s->m, ri, pos);
	return side_find(s, ri, *step, &last) && last == pos;
}

/* Step number `step` into the stretches of s (cmp_span): it joins the stretch it touches
 * (both, merging them), else starts one; past CMP_SPAN_RUNS of them none is kept. */
static void span_runs_add(struct cmp_span *s, long step)
{
	size_t i = s->nruns;
	if (i > CMP_SPAN_RUNS)
		return;
	while (i > 0 && s->run[i - 1].lo > step) /* appends, the usual case, scan nothing */
		i--;
	if (i > 0 && s->run[i - 1].hi >= step) /* a step number counted before */
		return;
	bool left = i > 0 && step > LONG_MIN && s->run[i - 1].hi == step - 1;
	bool right = i < s->nruns && step < LONG_MAX && s->run[i].lo == step + 1;
	if (left && right) {
		s->run[i - 1].hi = s->run[i].hi;
		memmove(&s->run[i], &s->run[i + 1], (--s->nruns - i) * sizeof(s->run[0]));
	} else if (left) {
		s->run[i - 1].hi = step;
	} else if (right) {
		s->run[i].lo = step;
	} else if (s->nruns == CMP_SPAN_RUNS) {
		s->nruns++;
	} else {
		memmove(&s->run[i + 1], &s->run[i], (s->nruns++ - i) * sizeof(s->run[0]));
		s->run[i].lo = s->run[i].hi = step;
	}
}

static void span_add(struct cmp_span *s, long step)
{
	if (!s->n || step < s->lo)
		s->lo = step;
	if (!s->n || step > s->hi)
		s->hi = step;
	s->n++;
	span_runs_add(s, step);
}

/* Why record pos of rank index ri has no value the ranks are compared by, into buf: a
 * phase value of it that is not finite ("a NaN forward phase value", sanitized), else
 * none of the phases it sums ("no compute phase value", "no phase value"). */
static void novalue_cause(const struct side *s, size_t ri, size_t pos, char *buf, size_t n)
{
	bool one = s->ranks >= 0, compute = s->ranks != HEAT_STEP_TIME;
	const int *id = one ? &s->ranks : compute ? s->ps.compute : s->ps.all;
	size_t k = one ? 1 : compute ? s->ps.ncompute : s->ps.nall;
	double v;
	for (size_t i = 0; i < k; i++)
		if (steps_value(s->m, ri, id[i], pos, &v) && !isfinite(v)) {
			char *safe = text_sanitize_dup(steps_metric(s->m, id[i])->name, 0);
			snprintf(buf, n, "%s %s phase value", isnan(v) ? "a NaN" : "an infinite", safe);
			free(safe);
			return;
		}
	snprintf(buf, n, "no %sphase value", compute ? "compute " : "");
}

/* Step `step` of rank index ri of r has no value in B (in_b) or A, side s: counted, the
 * cause at the first such step kept (novalue_cause). */
static void novalue_add(struct cmp_rank *r, bool in_b, const struct side *s, size_t ri, long step)
{
	struct cmp_span *span = in_b ? &r->novalue_b : &r->novalue_a;
	size_t pos;
	if ((!span->n || step < span->lo) && side_find(s, ri, step, &pos))
		novalue_cause(s, ri, pos, in_b ? r->novalue_why_b : r->novalue_why_a, sizeof(r->novalue_why_a));
	span_add(span, step);
}

static int cmp_paired(const void *x, const void *y)
{
	long a = ((const struct paired *)x)->step, b = ((const struct paired *)y)->step;
	return (a > b) - (a < b);
}

/* The steps rank r has in both runs (index ria in A, rib in B) into p, ascending (p has
 * steps_nrecords(A, ria) slots); the step numbers of one side only counted in r. Returns
 * the count. */
static size_t rank_pairs(struct cmp_rank *r, const struct side *sa, size_t ria, const struct side *sb, size_t rib,
			 struct paired *p)
{
	size_t n = 0, pos;
	long s;
	bool sorted = true;
	for (size_t i = 0; i < steps_nrecords(sa->m, ria); i++) {
		if (!record_taken(sa, ria, i, &s))
			continue;
		if (!side_find(sb, rib, s, &pos)) {
			span_add(&r->a_only, s);
			continue;
		}
		double va = record_value(sa, ria, i), vb = record_value(sb, rib, pos);
		if (isnan(va))
			novalue_add(r, false, sa, ria, s);
		if (isnan(vb))
			novalue_add(r, true, sb, rib, s);
		if (isnan(va) || isnan(vb))
			continue;
		sorted = sorted && (!n || p[n - 1].step < s);
		p[n++] = (struct paired){ s, va, vb };
	}
	for (size_t i = 0; i < steps_nrecords(sb->m, rib); i++)
		if (record_taken(sb, rib, i, &s) && !side_find(sa, ria, s, &pos))
			span_add(&r->b_only, s);
	if (!sorted)
		qsort(p, n, sizeof(*p), cmp_paired);
	return n;
}

/* Rank index ri of m has exactly its run's aligned steps, each once. */
static bool aligned_only(const struct steps_model *m, size_t ri)
{
	return steps_nrecords(m, ri) == steps_naligned(m) && steps_ndistinct(m, ri) == steps_naligned(m);
}

static void aligned_init(struct aligned *al, const struct steps_model *ma, const struct steps_model *mb)
{
	al->nc = compare_common_steps(ma, mb, &al->ka, &al->kb);
	al->a_only = al->b_only = (struct cmp_span){ 0 };
	al->every_rank = true;
	for (size_t i = 0, j = 0; i < steps_naligned(ma); i++) {
		if (j < al->nc && al->ka[j] == i)
			j++;
		else
			span_add(&al->a_only, steps_aligned_step(ma, i));
	}
	for (size_t i = 0, j = 0; i < steps_naligned(mb); i++) {
		if (j < al->nc && al->kb[j] == i)
			j++;
		else
			span_add(&al->b_only, steps_aligned_step(mb, i));
	}
}

/* rank_pairs() for a rank aligned_only() on both sides, off the heatmap rows. */
static size_t aligned_pairs(struct cmp_rank *r, const struct side *sa, size_t ria, const struct side *sb,
			    size_t rib, const struct aligned *al, struct paired *p)
{
	const float *ra = heat_row(sa->g, ria), *rb = heat_row(sb->g, rib);
	size_t n = 0;
	for (size_t j = 0; j < al->nc; j++) {
		double va = ra[al->ka[j]], vb = rb[al->kb[j]];
		long step = steps_aligned_step(sa->m, al->ka[j]);
		if (isnan(va))
			novalue_add(r, false, sa, ria, step);
		if (isnan(vb))
			novalue_add(r, true, sb, rib, step);
		if (!isnan(va) && !isnan(vb))
			p[n++] = (struct paired){ step, va, vb };
	}
	r->a_only = al->a_only;
	r->b_only = al->b_only;
	return n;
}

/* One rank present on both sides: its n paired steps (w->p), test, onset. */
static void rank_delta(struct cmp_rank *r, size_t n, struct rank_work *w)
{
	for (size_t j = 0; j < n; j++) {
		w->a[j] = w->p[j].a;
		w->d[j] = w->p[j].b - w->p[j].a;
		w->step[j] = w->p[j].step;
	}
	r->n = n;
	r->judged = n >= CMP_MIN_STEPS;
	if (!n)
		return;
	double a_mean = mean_of(w->a, n), m = mean_of(w->d, n);
	r->a_ms = a_mean * 1e3;
	r->b_ms = (a_mean + m) * 1e3;
	r->delta_ms = m * 1e3;
	memcpy(w->tmp, w->d, n * sizeof(*w->tmp));
	double thr;
	int t = noise_test(w->tmp, n, m, a_mean, &thr);
	r->noise_ms = thr * 1e3;
	r->regressed = t > 0;
	r->improved = t < 0;
	if (r->regressed) {
		memcpy(w->tmp, w->a, n * sizeof(*w->tmp));
		/* d_s is the difference of two noisy steps, A's and B's: sqrt(2) times A's spread */
		double step_thr = NOISE_Z * M_SQRT2 * robust_sd(w->tmp, n);
		if (step_thr < NOISE_FLOOR * a_mean)
			step_thr = NOISE_FLOOR * a_mean;
		r->onset_b = onset_of(w->d, w->step, n, step_thr);
	}
}

double compare_regression_s(const struct cmp_rank *r)
{
	if (r->has_lost)
		return r->b_lost_s - r->a_lost_s;
	return r->delta_ms / 1e3 * (double)r->n;
}

const char *compare_regression_by(const struct cmp_ranks *r)
{
	if (!r->no_lost[0])
		return "by increase in time lost";
	return r->by_step_time ? "by increase in step time over the common steps"
			       : "by increase in compute over the common steps";
}

static int cmp_regression(const void *x, const void *y, void *base)
{
	const struct cmp_rank *v = base;
	const struct cmp_rank *a = &v[*(const size_t *)x], *b = &v[*(const size_t *)y];
	double ra = compare_regression_s(a), rb = compare_regression_s(b);
	if (ra != rb)
		return ra < rb ? 1 : -1;
	if (a->delta_ms != b->delta_ms)
		return a->delta_ms < b->delta_ms ? 1 : -1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The step wall of one side at step number `step` over its common ranks ri[0, n): by
 * compute, the slowest rank's compute plus the largest comm (the distributed analysis'
 * wall, over these ranks only); by step time (a single rank, or compare_series), the
 * slowest rank's step time. NaN when a rank lacks it. */
static double wall_at(const struct side *s, const size_t *ri, size_t n, long step)
{
	double top = NAN, comm = 0;
	for (size_t i = 0; i < n; i++) {
		size_t pos;
		if (!side_find(s, ri[i], step, &pos))
			return NAN;
		double v = record_exact(s, ri[i], pos);
		if (isnan(v))   /* no value there: no wall, not the others' */
			return NAN;
		if (!i || v > top)
			top = v;
		double m = s->series == HEAT_COMPUTE ? analysis_record_comm(s->m, &s->ps, ri[i], pos) : 0;
		if (m > comm)
			comm = m;
	}
	return top + comm;
}

/* The step wall of both sides at the i-th step every compared rank has in both (false:
 * no more steps): the distributed analyses' walls when the ranks are compared by compute
 * and every rank of both runs over the aligned steps (da, db), else wall_at() over the
 * compared ranks. */
struct wall_walk {
	const struct distributed *da, *db;
	const struct aligned *al;
	const size_t *cra, *crb;
	size_t ncr;                  /* the ranks of the wall: cra[0, ncr) */
	size_t i;
};

static bool wall_next(struct wall_walk *ww, const struct side *sa, const struct side *sb, long *s, double *va,
		      double *vb)
{
	if (ww->da && ww->db) {
		if (ww->i >= ww->al->nc)
			return false;
		size_t j = ww->i++;
		*s = steps_aligned_step(sa->m, ww->al->ka[j]);
		*va = ww->da->step[ww->al->ka[j]].wall;
		*vb = ww->db->step[ww->al->kb[j]].wall;
		return true;
	}
	for (; ww->i < steps_nrecords(sa->m, ww->cra[0]); ww->i++)
		if (record_taken(sa, ww->cra[0], ww->i, s)) {
			*va = wall_at(sa, ww->cra, ww->ncr, *s);
			*vb = isnan(*va) ? NAN : wall_at(sb, ww->crb, ww->ncr, *s);
			ww->i++;
			return true;
		}
	return false;
}

/* Why the mean walls a_mean and b_mean (over n steps; all_a, all_b: the wall is 0 at each
 * of them) give no change per step, into out->no_wall; false when they do. */
static bool wall_unmeasured(struct cmp_ranks *out, double a_mean, double b_mean, bool zero_a, bool zero_b)
{
	bool bad_a = !(a_mean > 0), bad_b = !(b_mean > 0);
	if (!bad_a && !bad_b)
		return false;
	const char *side = bad_a && bad_b ? "A and B" : bad_a ? "A" : "B";
	if ((!bad_a || zero_a) && (!bad_b || zero_b))
		snprintf(out->no_wall, sizeof(out->no_wall), "the step wall of %s is 0 at every such step: no time "
			 "measured", side);
	else
		snprintf(out->no_wall, sizeof(out->no_wall), "the mean step wall of %s is not above 0", side);
	return true;
}

/* Mean wall over the steps every compared rank of the wall has in both runs (cra, crb:
 * their indexes in A and B, ncr of them: the compared ranks but those unmeasured) and its
 * noise test, when both runs are distributed or both single-rank; else, or when a side
 * measured no time, why not in out->no_wall. */
static void wall_delta(struct cmp_ranks *out, struct run *a, struct run *b, const struct side *sa,
		       const size_t *cra, const struct side *sb, const size_t *crb, size_t ncr,
		       const struct aligned *al, struct rank_work *w)
{
	/* a rank without step records is as absent */
	size_t ka = compare_ranks_recorded(sa->m), kb = compare_ranks_recorded(sb->m);
	bool single = ka == 1 && kb == 1;
	if (!ncr || (!single && (ka < 2 || kb < 2))) {
		snprintf(out->no_wall, sizeof(out->no_wall), "%s", ncr ? "one side has a single rank"
			 : "no rank compared");
		return;
	}
	struct wall_walk ww = { .al = al, .cra = cra, .crb = crb, .ncr = ncr };
	if (sa->series == HEAT_COMPUTE && al->every_rank && ncr == out->a_ranks && ncr == out->b_ranks) {
		ww.da = analysis_distributed(a);
		ww.db = analysis_distributed(b);
	}
	size_t n = 0;
	long s;
	double va, vb;
	bool zero_a = true, zero_b = true;
	while (wall_next(&ww, sa, sb, &s, &va, &vb)) {
		if (isnan(va) || isnan(vb))
			continue;
		if (!n || s < out->wall_lo)
			out->wall_lo = s;
		if (!n || s > out->wall_hi)
			out->wall_hi = s;
		zero_a = zero_a && va == 0;
		zero_b = zero_b && vb == 0;
		w->a[n] = va;
		w->d[n++] = vb - va;
	}
	out->nwall = n;
	if (!n) {
		snprintf(out->no_wall, sizeof(out->no_wall), "no step that every compared rank has in both runs");
		return;
	}
	double a_mean = mean_of(w->a, n), m = mean_of(w->d, n);
	if (wall_unmeasured(out, a_mean, a_mean + m, zero_a, zero_b))
		return;
	for (size_t j = 0; j < n && out->identical; j++)
		out->identical = w->d[j] == 0;
	double thr;
	int t = noise_test(w->d, n, m, a_mean, &thr);
	out->has_wall = true;
	out->a_wall_ms = a_mean * 1e3;
	out->b_wall_ms = (a_mean + m) * 1e3;
	out->wall_noise_ms = thr * 1e3;
	out->slower = t > 0;
	out->faster = t < 0;
}

/* Distinct step numbers of a run and their range. */
static void side_span(const struct steps_model *m, size_t *n, long *lo, long *hi)
{
	*n = steps_nunion(m);
	*lo = LONG_MAX;
	*hi = LONG_MIN;
	for (size_t i = 0; i < steps_nranks(m); i++) {
		long a, b;
		if (steps_rank_span(m, i, &a, &b)) {
			*lo = a < *lo ? a : *lo;
			*hi = b > *hi ? b : *hi;
		}
	}
}

/* The ranks of the step wall (wall_ranks): their indexes in A and B and entries in
 * cmp_ranks.v, n of them. */
struct wall_set {
	size_t *a, *b, *v;
	size_t n;
};

/* The values of the ranks ri[0, n) of side s at step (record_exact) into v; false when one
 * has none there. */
static bool ranks_at(const struct side *s, const size_t *ri, size_t n, long step, double *v)
{
	size_t pos;
	for (size_t i = 0; i < n; i++)
		if (!side_find(s, ri[i], step, &pos) || isnan(v[i] = record_exact(s, ri[i], pos)))
			return false;
	return true;
}

/* The wait of one step for the slowest of the n ranks' values v (analysis.h's TIME LOST:
 * the others' mean wait, ranks tied at the max sharing it) added to their lost[]. */
static void lost_add(const double *v, size_t n, double *lost)
{
	double top = -INFINITY, sum = 0;
	size_t tied = 0;
	for (size_t i = 0; i < n; i++) {
		top = v[i] > top ? v[i] : top;
		sum += v[i];
	}
	for (size_t i = 0; i < n; i++)
		tied += v[i] == top;
	double waited = ((double)n * top - sum) / (double)(n - 1) / (double)tied;
	for (size_t i = 0; i < n; i++)
		lost[i] += v[i] == top ? waited : 0;
}

/* The time lost of each rank of the wall ws among those ranks alone, A's into la[ws->n] and
 * B's into lb, over the steps each of them has a value at in both runs (the step wall's):
 * ranks of one run only or that measured no time are no compute the others waited for. */
static void lost_among(const struct side *sa, const struct side *sb, const struct wall_set *ws, double *la,
		       double *lb)
{
	size_t n = ws->n;
	double *v = xmalloc(2 * (n + 1) * sizeof(*v)), *w = v + n + 1;
	memset(la, 0, n * sizeof(*la));
	memset(lb, 0, n * sizeof(*lb));
	long step;
	for (size_t p = 0; p < steps_nrecords(sa->m, ws->a[0]); p++)
		if (record_taken(sa, ws->a[0], p, &step) && ranks_at(sa, ws->a, n, step, v) &&
		    ranks_at(sb, ws->b, n, step, w)) {
			lost_add(v, n, la);
			lost_add(w, n, lb);
		}
	free(v);
}

/* Time lost at the barrier, A and B, of each rank of the wall (ws: the compared ranks that
 * measured time on both sides): the distributed analyses' own when every rank of both
 * runs was compared, measuring time, over the same steps in both; else among the ranks of
 * the wall over the steps of the wall (lost_among). None, why in out->no_lost, when the
 * ranks are compared by step time (time lost is read off the compute), a side measured no
 * time, or fewer than 2 ranks are in the wall. */
static void ranks_lost(struct cmp_ranks *out, struct run *a, struct run *b, const struct side *sa,
		       const struct side *sb, const struct wall_set *ws)
{
	const char *why = sa->series != HEAT_COMPUTE ? "the ranks are compared by step time and time lost is read "
							"off the compute"
			: out->unmeasured ? "no time measured"
			: ws->n < 2 ? "fewer than 2 ranks compared measure time on both sides" : NULL;
	if (why) {
		snprintf(out->no_lost, sizeof(out->no_lost), "%s", why);
		return;
	}
	bool whole = !out->nleft && out->ncommon_ranks == out->n && !out->nunmeasured;
	const struct distributed *da = whole ? analysis_distributed(a) : NULL;
	const struct distributed *db = whole ? analysis_distributed(b) : NULL;
	const struct heat_grid *ga = analysis_heatmap(a, sa->series), *gb = analysis_heatmap(b, sa->series);
	whole = da && db && ga && gb;
	size_t *ka = NULL, *kb = NULL, nc = whole ? compare_common_steps(a->steps, b->steps, &ka, &kb) : 0;
	double *la = xmalloc((ws->n + 1) * sizeof(*la)), *lb = xmalloc((ws->n + 1) * sizeof(*lb));
	if (!whole)
		lost_among(sa, sb, ws, la, lb);
	for (size_t i = 0; i < ws->n; i++) {
		struct cmp_rank *r = &out->v[ws->v[i]];
		size_t ria = ws->a[i], rib = ws->b[i];
		r->has_lost = true;
		r->a_lost_s = whole ? lost_over(da, ria, heat_row(ga, ria), ka, nc) : la[i];
		r->b_lost_s = whole ? lost_over(db, rib, heat_row(gb, rib), kb, nc) : lb[i];
	}
	free(la);
	free(lb);
	free(ka);
	free(kb);
}

/* Rank r measured no time on side `side` (NULL: the whole side did not, said once): not
 * judged, neither regressed nor improved. */
static void rank_unmeasured(struct cmp_rank *r, const char *side)
{
	r->unmeasured = side;
	r->judged = r->regressed = r->improved = false;
	r->onset_b = -1;
}

/* Rank r of the union, present in both: compared over its paired steps. */
static void rank_compare(struct cmp_ranks *out, struct cmp_rank *r, const struct side *sa, size_t ria,
			 const struct side *sb, size_t rib, struct aligned *al, struct rank_work *w)
{
	bool fast = sa->g && sb->g && aligned_only(sa->m, ria) && aligned_only(sb->m, rib);
	al->every_rank = al->every_rank && fast;
	size_t n = fast ? aligned_pairs(r, sa, ria, sb, rib, al, w->p) : rank_pairs(r, sa, ria, sb, rib, w->p);
	rank_delta(r, n, w);
	for (size_t j = 0; j < n && out->identical; j++)
		out->identical = w->p[j].a == w->p[j].b;
	bool ta = false, tb = false;
	for (size_t j = 0; j < n && !(ta && tb); j++) {
		ta = ta || w->p[j].a != 0;
		tb = tb || w->p[j].b != 0;
	}
	w->time_a = w->time_a || ta;
	w->time_b = w->time_b || tb;
	if (n && (!ta || !tb)) /* zeros are no time: nothing to call slower or faster */
		rank_unmeasured(r, !ta && !tb ? "A and B" : !ta ? "A" : "B");
	if (n) {
		out->lo = out->ncommon && out->lo < w->p[0].step ? out->lo : w->p[0].step;
		out->hi = out->ncommon && out->hi > w->p[n - 1].step ? out->hi : w->p[n - 1].step;
	}
	if (n)
		out->ncommon_min = !out->ncompared_ranks++ || n < out->ncommon_min ? n : out->ncommon_min;
	out->ncommon = n > out->ncommon ? n : out->ncommon;
	out->nleft += r->a_only.n || r->b_only.n;
}

/* A side whose compared values are all 0 (no time measured, as a run whose compute is 0
 * everywhere in the distributed analysis): no rank is judged, nor is the pair identical;
 * that says it for every rank (none is named unmeasured alone). */
static void ranks_unmeasured(struct cmp_ranks *out, const char *side)
{
	out->unmeasured = side;
	out->judged = out->identical = false;
	out->nregressed = out->nimproved = out->nunmeasured = 0;
	for (size_t i = 0; i < out->n; i++)
		rank_unmeasured(&out->v[i], NULL);
}

/* One side records phases the other does not (compare_phases_one_side, in out->one_side): the
 * ranks' times add up other phases on each side, so no rank is judged nor the pair
 * identical. */
static void ranks_unjudged(struct cmp_ranks *out)
{
	out->judged = out->identical = false;
	out->nregressed = out->nimproved = 0;
	for (size_t i = 0; i < out->n; i++)
		rank_unmeasured(&out->v[i], out->v[i].unmeasured);
}

/* The ranks of the step wall: the compared ones (ws, ws->n of them) but those that
 * measured no time on a side, counted in out->nunmeasured; ws keeps the others, in order. */
static void wall_ranks(struct cmp_ranks *out, struct wall_set *ws)
{
	size_t k = 0;
	for (size_t i = 0; i < ws->n; i++) {
		if (out->v[ws->v[i]].unmeasured) {
			out->nunmeasured++;
			continue;
		}
		ws->a[k] = ws->a[i];
		ws->b[k] = ws->b[i];
		ws->v[k++] = ws->v[i];
	}
	ws->n = k;
}

static size_t most_records(const struct steps_model *m)
{
	size_t most = 0;
	for (size_t i = 0; i < steps_nranks(m); i++)
		most = steps_nrecords(m, i) > most ? steps_nrecords(m, i) : most;
	return most;
}

static bool both_have_records(const struct run *a, const struct run *b)
{
	return a->steps && b->steps && steps_total_records(a->steps) && steps_total_records(b->steps);
}

bool compare_has_ranks(const struct compare *c)
{
	return both_have_records(c->a, c->b);
}

static struct cmp_ranks *ranks_compute(struct compare *c)
{
	struct run *a = c->a, *b = c->b;
	const struct steps_model *ma = a->steps, *mb = b->steps;
	if (!both_have_records(a, b))
		return NULL;
	struct cmp_ranks *out = xcalloc(1, sizeof(*out));
	out->a_ranks = steps_nranks(ma);
	out->b_ranks = steps_nranks(mb);
	side_span(ma, &out->a_steps, &out->a_lo, &out->a_hi);
	side_span(mb, &out->b_steps, &out->b_lo, &out->b_hi);
	out->lo = out->hi = out->wall_lo = out->wall_hi = -1;
	rank_union(out, ma, mb);
	/* compute as the distributed analysis has it; a single rank, or a run without a
	 * compute phase, has only its step time (and no time lost, read off compute rows) */
	int series = compare_series(c, &out->step_time_why), ra = compare_side_series(c, 0);
	int rb = compare_side_series(c, 1);
	out->by_step_time = ra == HEAT_STEP_TIME;
	struct side sa = { .m = ma, .na = analysis_native(a), .series = series, .ranks = ra,
			   .g = analysis_heatmap(a, ra) };
	struct side sb = { .m = mb, .na = analysis_native(b), .series = series, .ranks = rb,
			   .g = analysis_heatmap(b, rb) };
	analysis_phase_sets_init(ma, &sa.ps);
	analysis_phase_sets_init(mb, &sb.ps);
	struct aligned al;
	aligned_init(&al, ma, mb);
	size_t cap = (most_records(ma) > most_records(mb) ? most_records(ma) : most_records(mb)) + 1;
	struct rank_work w = {
		.a = xmalloc(cap * sizeof(double)), .d = xmalloc(cap * sizeof(double)),
		.tmp = xmalloc(cap * sizeof(double)), .step = xmalloc(cap * sizeof(long)),
		.p = xmalloc(cap * sizeof(struct paired)),
	};
	size_t *cra = xmalloc((out->n + 1) * sizeof(*cra)), *crb = xmalloc((out->n + 1) * sizeof(*crb));
	size_t *cri = xmalloc((out->n + 1) * sizeof(*cri));
	out->identical = true;
	out->order = xmalloc((out->n + 1) * sizeof(*out->order));
	for (size_t i = 0; i < out->n; i++) {
		struct cmp_rank *r = &out->v[i];
		if (!r->in_a || !r->in_b)
			continue;
		out->ncommon_ranks++;
		size_t k = out->ncompared_ranks;
		cra[k] = (size_t)steps_rank_index(ma, r->rank);
		crb[k] = (size_t)steps_rank_index(mb, r->rank);
		cri[k] = i;
		rank_compare(out, r, &sa, cra[k], &sb, crb[k], &al, &w);
		if (r->regressed)
			out->order[out->nregressed++] = i;
		out->nimproved += r->improved;
	}
	out->judged = out->ncommon >= CMP_MIN_STEPS;
	if (!out->ncommon_ranks || !out->ncommon)
		out->identical = false;
	else if (!w.time_a || !w.time_b)
		ranks_unmeasured(out, !w.time_a && !w.time_b ? "A and B" : !w.time_a ? "A" : "B");
	else if (compare_phases_one_side(ma, mb, out->one_side, sizeof(out->one_side)))
		ranks_unjudged(out);
	struct wall_set ws = { cra, crb, cri, out->ncompared_ranks };
	if (!out->unmeasured)
		wall_ranks(out, &ws);
	if (!ws.n && out->ncompared_ranks) /* each rank measured nothing on one side or the other */
		ranks_unmeasured(out, "A or B");
	if (out->one_side[0]) { /* each side's times add up other phases: no wall nor time lost to set side by side */
		snprintf(out->no_wall, sizeof(out->no_wall), "%s", out->one_side);
		snprintf(out->no_lost, sizeof(out->no_lost), "%s", out->one_side);
	} else {
		ranks_lost(out, a, b, &sa, &sb, &ws);
		qsort_r(out->order, out->nregressed, sizeof(*out->order), cmp_regression, out->v);
		wall_delta(out, a, b, &sa, cra, &sb, crb, ws.n, &al, &w);
	}
	free(al.ka);
	free(al.kb);
	analysis_phase_sets_free(&sa.ps);
	analysis_phase_sets_free(&sb.ps);
	free(cra);
	free(crb);
	free(cri);
	free(w.a);
	free(w.d);
	free(w.tmp);
	free(w.step);
	free(w.p);
	return out;
}

void compare_ranks_free(struct cmp_ranks *r)
{
	if (!r)
		return;
	free(r->v);
	free(r->order);
	free(r);
}

const struct cmp_ranks *compare_ranks(struct compare *c)
{
	if (!c->memo->ranks_done) {
		c->memo->ranks_done = true;
		c->memo->ranks = ranks_compute(c);
	}
	return c->memo->ranks;
}
