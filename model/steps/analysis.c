/* SPDX-License-Identifier: MIT */
/* analysis.c: the pytscope analyzers (timing, memory, convergence, distributed,
 * efficiency budget) over the step model, with time lost, onset and coverage, and the
 * heatmap block pyramids; all memoized in the step model (see analysis.h). */
#include "model/steps/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/pool.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* ---- exactly rounded summation (Python's math.fsum, Shewchuk partials) ---------- */

struct fsum {
	double p[64];
	int n;
	double special, inf;
};

static void fsum_init(struct fsum *s)
{
	s->n = 0;
	s->special = 0;
	s->inf = 0;
}

static void fsum_add(struct fsum *s, double x)
{
	double xsave = x;
	int i = 0;
	for (int j = 0; j < s->n; j++) {
		double y = s->p[j];
		if (fabs(x) < fabs(y)) {
			double t = x;
			x = y;
			y = t;
		}
		double hi = x + y;
		double lo = y - (hi - x);
		if (lo != 0.0)
			s->p[i++] = lo;
		x = hi;
	}
	s->n = i;
	if (x != 0.0) {
		if (!isfinite(x)) {
			/* a non-finite input, or an overflow of finite ones */
			if (isinf(xsave))
				s->inf += xsave;
			s->special += isfinite(xsave) ? x : xsave;
			s->n = 0;
		} else if (s->n < (int)ARRAY_LEN(s->p)) {
			s->p[s->n++] = x;
		}
	}
}

static double fsum_result(const struct fsum *s)
{
	if (s->special != 0.0 || isnan(s->special))
		return isnan(s->inf) ? NAN : s->special;
	int n = s->n;
	double hi = 0.0, lo = 0.0;
	if (n > 0) {
		hi = s->p[--n];
		while (n > 0) {
			double x = hi, y = s->p[--n];
			hi = x + y;
			double yr = hi - x;
			lo = y - yr;
			if (lo != 0.0)
				break;
		}
		if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) || (lo > 0.0 && s->p[n - 1] > 0.0))) {
			double y = lo * 2.0;
			double x = hi + y;
			double yr = x - hi;
			if (y == yr)
				hi = x;
		}
	}
	return hi;
}

double stats_fsum_partials(const double *v, size_t n)
{
	struct fsum s;
	fsum_init(&s);
	for (size_t i = 0; i < n; i++)
		fsum_add(&s, v[i]);
	return fsum_result(&s);
}

/* The fast path of fsum: a cascade of error-free additions (TwoSum). t is the running
 * double sum and e the sum of its rounding errors, itself kept by error-free additions;
 * while every addition into e is exact, the exact total is t + e, so the one rounded
 * addition t + e is the correctly rounded sum: the double fsum returns. When an addition
 * into e was inexact, or the result is zero (fsum's sign of zero) or not finite, the
 * cascade cannot decide and the caller runs fsum. */
struct cascade {
	double t, e;
	bool exact;
};

static void cascade_add(struct cascade *c, double x)
{
	double s = c->t + x, bp = s - x;
	double err = (c->t - bp) + (x - (s - bp));
	c->t = s;
	double e2 = c->e + err, bp2 = e2 - err;
	c->exact &= (c->e - bp2) + (err - (e2 - bp2)) == 0.0;
	c->e = e2;
}

static bool cascade_result(const struct cascade *c, double *out)
{
	double r = c->t + c->e;
	if (!c->exact || !isfinite(r) || r == 0.0)
		return false;
	*out = r;
	return true;
}

double stats_fsum(const double *v, size_t n)
{
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, v[i]);
	double r;
	return cascade_result(&c, &r) ? r : stats_fsum_partials(v, n);
}

/* ---- robust statistics ------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	if (n == 0)
		return 0.0;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

static void swap_dbl(double *v, ptrdiff_t i, ptrdiff_t j)
{
	double t = v[i];
	v[i] = v[j];
	v[j] = t;
}

/* Floyd-Rivest selection over v[left..right]: afterwards v[k] holds the value a sort
 * would put there, nothing before it is larger and nothing after it smaller. No NaN in
 * v. A range above 600 first selects k inside a sample-sized subrange around its
 * expected place, so the pivot lands near k (about 1.5 n comparisons for a median).
 * After `budget` partitions the rest is sorted (no O(n^2)). */
static void select_range(double *v, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k, int budget)
{
	while (right > left) {
		if (budget-- == 0) {
			qsort(v + left, (size_t)(right - left + 1), sizeof(*v), cmp_dbl);
			return;
		}
		if (right - left > 600) {
			double n = (double)(right - left + 1), i = (double)(k - left + 1), z = log(n);
			double s = 0.5 * exp(2.0 * z / 3.0);
			double sd = 0.5 * sqrt(z * s * (n - s) / n) * (i < n / 2 ? -1.0 : 1.0);
			ptrdiff_t nl = (ptrdiff_t)((double)k - i * s / n + sd);
			ptrdiff_t nr = (ptrdiff_t)((double)k + (n - i) * s / n + sd);
			select_range(v, nl > left ? nl : left, nr < right ? nr : right, k, budget);
		}
		double t = v[k];
		ptrdiff_t i = left, j = right;
		swap_dbl(v, left, k);
		if (v[right] > t)
			swap_dbl(v, right, left);
		while (i < j) {
			swap_dbl(v, i, j);
			i++;
			j--;
			while (v[i] < t)
				i++;
			while (v[j] > t)
				j--;
		}
		if (v[left] == t) {
			swap_dbl(v, left, j);
		} else {
			j++;
			swap_dbl(v, j, right);
		}
		/* v[j] == t is in place: v[left..j) <= t <= v(j..right] */
		if (j <= k)
			left = j + 1;
		if (k <= j)
			right = j - 1;
	}
}

static void select_kth(double *v, size_t n, size_t k)
{
	int budget = 8;
	for (size_t len = n; len > 1; len /= 2)
		budget += 2;
	select_range(v, 0, (ptrdiff_t)n - 1, (ptrdiff_t)k, budget);
}

/* Median by selection; reorders v. The same double as median_sorted() over a sort with
 * cmp_dbl (a median is an order statistic): arrays holding NaN, or zeros of both signs
 * (which the comparator ties, so the stable sort's input order decides the sign), take
 * the sorting path itself. */
double stats_median_inplace(double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	bool nan = false, negz = false, posz = false;
	for (size_t i = 0; i < n; i++) {
		nan |= isnan(v[i]);
		if (v[i] == 0.0) {
			negz |= signbit(v[i]) != 0;
			posz |= signbit(v[i]) == 0;
		}
	}
	if (nan || (negz && posz)) {
		qsort(v, n, sizeof(*v), cmp_dbl);
		return median_sorted(v, n);
	}
	size_t h = n / 2;
	select_kth(v, n, h);
	if (n % 2)
		return v[h];
	double below = v[0];  /* the largest of v[0..h): the (h-1)-th smallest */
	for (size_t i = 1; i < h; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[h]) / 2.0;
}

double stats_median(const double *v, size_t n)
{
	if (n == 0)
		return 0.0;
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	double m = stats_median_inplace(s, n);
	free(s);
	return m;
}

double stats_percentile(const double *v, size_t n, double q)
{
	if (n == 0)
		return 0.0;
	double *s = sorted_copy(v, n);
	double pos = q / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);
	double r = s[lo] + (s[hi] - s[lo]) * (pos - (double)lo);
	free(s);
	return r;
}

static double mad(const double *v, size_t n, double med)
{
	double *d = xmalloc((n ? n : 1) * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	double m = stats_median(d, n);
	free(d);
	return m;
}

void stats_local_spikes(const double *v, const bool *present, size_t n, bool *flags)
{
	double hist[13];
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) {
		flags[i] = false;
		if ((present && !present[i]) || !isfinite(v[i]))
			continue;
		if (nh >= 6) {
			double med = stats_median(hist, nh);
			double scale = mad(hist, nh, med) * 1.4826;
			if (scale > 0)
				flags[i] = v[i] > med + 6.0 * scale;
			else
				flags[i] = v[i] > med && (med <= 0 || v[i] > med * 1.5);
		}
		hist[nh++] = v[i];
		if (nh > 12) {
			memmove(hist, hist + 1, 12 * sizeof(*hist));
			nh = 12;
		}
	}
}

double stats_robust_slope(const double *v, size_t n)
{
	if (n < 2)
		return 0.0;
	size_t w = (size_t)((double)n * 0.1);
	if (w < 1)
		w = 1;
	return (stats_median(v + n - w, w) - stats_median(v, w)) / (double)(n - 1);
}

static double mean_fsum(const double *v, size_t n)
{
	return n ? stats_fsum(v, n) / (double)n : 0.0;
}

/* Population standard deviation, two passes, exactly rounded sums. */
static double pstdev(const double *v, size_t n, double mean)
{
	if (n == 0)
		return 0.0;
	struct cascade c = { 0.0, 0.0, true };
	for (size_t i = 0; i < n; i++)
		cascade_add(&c, (v[i] - mean) * (v[i] - mean));
	double sum;
	if (cascade_result(&c, &sum))
		return sqrt(sum / (double)n);
	struct fsum s;
	fsum_init(&s);
	for (size_t i = 0; i < n; i++)
		fsum_add(&s, (v[i] - mean) * (v[i] - mean));
	return sqrt(fsum_result(&s) / (double)n);
}

/* ---- cache -------------------------------------------------------------------------- */

struct heat_grid {
	int series;
	size_t nranks, nsteps;
	size_t nlevels;
	float **val;              /* [level] -> nranks * level_len[level]: mean (level 0: value) */
	float **worst;            /* [level] (level 0 shares val) */
	uint32_t **count;         /* [level >= 1] present values per block; all NULL when no
				   * cell is missing (the count is then the block's coverage) */
	size_t *len;              /* blocks per level */
};

struct rank_cache {
	bool timing_done, memory_done, conv_done, budget_done;
	struct timing *timing;
	struct memory *memory;
	struct convergence *conv;
	struct budget *budget;
};

struct analysis_cache {
	size_t nranks;
	struct rank_cache *rank;
	bool budget_all_done;
	struct budget *budget_all;
	bool dist_done;
	struct distributed *dist;
	double *cmed;             /* step_medians(), NULL until first needed */
	struct heat_grid **heat;
	size_t nheat;
};

static void heat_free(struct heat_grid *g);

static void timing_free(struct timing *t)
{
	if (t) {
		free(t->phase);
		free(t->step_time);
		free(t);
	}
}

static void conv_free(struct convergence *c)
{
	if (c) {
		free(c->loss_spikes);
		free(c->grad_spikes);
		free(c->loss);
		free(c->loss_step);
		free(c);
	}
}

void analysis_cache_free(void *p)
{
	struct analysis_cache *c = p;
	if (!c)
		return;
	for (size_t i = 0; i < c->nranks; i++) {
		timing_free(c->rank[i].timing);
		free(c->rank[i].memory);
		conv_free(c->rank[i].conv);
		free(c->rank[i].budget);
	}
	free(c->rank);
	free(c->budget_all);
	free(c->cmed);
	if (c->dist) {
		free(c->dist->rank);
		free(c->dist->step);
		free(c->dist);
	}
	for (size_t i = 0; i < c->nheat; i++)
		heat_free(c->heat[i]);
	free(c->heat);
	free(c);
}

static struct analysis_cache *cache_of(struct run *run)
{
	if (!run || !run->steps)
		return NULL;
	void **slot = steps_analysis_slot(run->steps);
	if (!*slot) {
		struct analysis_cache *c = xcalloc(1, sizeof(*c));
		c->nranks = steps_nranks(run->steps);
		c->rank = xcalloc(c->nranks ? c->nranks : 1, sizeof(*c->rank));
		*slot = c;
	}
	return *slot;
}

static struct rank_cache *rank_cache(struct run *run, size_t ri)
{
	struct analysis_cache *c = cache_of(run);
	return c && ri < c->nranks ? &c->rank[ri] : NULL;
}

static size_t warmup_start(const struct run *run, size_t n)
{
	long w = run->opts ? run->opts->warmup : 0;
	if (w <= 0)
		return 0;
	return (size_t)w < n ? (size_t)w : n;
}

/* ---- phases ------------------------------------------------------------------------- */

static const char *const canonical[] = { "data", "forward", "backward", "optimizer", "compute",
					 "comm", "other" };

static int canonical_index(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(canonical); i++)
		if (strcmp(name, canonical[i]) == 0)
			return (int)i;
	return -1;
}

static bool in_compute_phases(const char *name)
{
	int k = canonical_index(name);
	return k >= 0 && strcmp(name, "comm") != 0;
}

static int cmp_phase(const void *a, const void *b)
{
	const struct timing_phase *x = a, *y = b;
	int i = canonical_index(x->name), j = canonical_index(y->name);
	if (i >= 0 || j >= 0) {
		if (i < 0)
			return 1;
		if (j < 0)
			return -1;
		return (i > j) - (i < j);
	}
	return strcmp(x->name, y->name);
}

/* Phase metric ids of the model (all of them). */
static size_t phase_ids(const struct steps_model *m, int *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_PHASE)
			ids[n++] = (int)i;
	return n;
}

/* ---- timing ------------------------------------------------------------------------- */

static struct timing *compute_timing(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	size_t n_all = steps_nrecords(m, ri), w = warmup_start(run, n_all), n = n_all - w;
	struct timing *t = xcalloc(1, sizeof(*t));
	t->n = n;
	if (n == 0)
		return t;
	int *ids = xmalloc((steps_nmetrics(m) + 1) * sizeof(*ids));
	size_t np = phase_ids(m, ids);
	t->phase = xcalloc(np ? np : 1, sizeof(*t->phase));
	t->step_time = xmalloc(n * sizeof(*t->step_time));
	struct fsum *tot = xmalloc((np ? np : 1) * sizeof(*tot));
	bool *seen = xcalloc(np ? np : 1, sizeof(*seen));
	for (size_t p = 0; p < np; p++)
		fsum_init(&tot[p]);
	for (size_t i = 0; i < n; i++) {
		struct fsum st;
		fsum_init(&st);
		for (size_t p = 0; p < np; p++) {
			double v;
			if (steps_value(m, ri, ids[p], w + i, &v)) {
				fsum_add(&st, v);
				fsum_add(&tot[p], v);
				seen[p] = true;
			}
		}
		t->step_time[i] = fsum_result(&st);
	}
	double *totals = xmalloc((np ? np : 1) * sizeof(*totals));
	size_t k = 0;
	for (size_t p = 0; p < np; p++) {
		if (!seen[p])
			continue;
		t->phase[k].metric = ids[p];
		t->phase[k].name = steps_metric(m, ids[p])->name;
		t->phase[k].total = fsum_result(&tot[p]);
		totals[k] = t->phase[k].total;
		k++;
	}
	t->nphase = k;
	double grand = stats_fsum(totals, k), denom = grand > 0 ? grand : 1.0;
	for (size_t p = 0; p < k; p++) {
		t->phase[p].seconds = t->phase[p].total / (double)n;
		t->phase[p].fraction = t->phase[p].total / denom;
	}
	qsort(t->phase, k, sizeof(*t->phase), cmp_phase);
	t->total_time = grand;
	t->mean_step_time = grand / (double)n;
	double mean_st = mean_fsum(t->step_time, n);
	t->std_step_time = pstdev(t->step_time, n, mean_st);
	t->p50 = stats_percentile(t->step_time, n, 50);
	t->p95 = stats_percentile(t->step_time, n, 95);
	t->steps_per_sec = t->mean_step_time > 0 ? 1.0 / t->mean_step_time : 0.0;
	t->cv = t->mean_step_time != 0 ? t->std_step_time / t->mean_step_time : 0.0;
	t->p95_p50_ratio = t->p50 != 0 ? t->p95 / t->p50 : 0.0;
	free(totals);
	free(seen);
	free(tot);
	free(ids);
	return t;
}

const struct timing *analysis_timing(struct run *run, size_t ri)
{
	struct rank_cache *rc = rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->timing_done) {
		rc->timing = compute_timing(run, ri);
		rc->timing_done = true;
	}
	return rc->timing;
}

static const struct timing_phase *timing_phase(const struct timing *t, const char *name)
{
	for (size_t i = 0; t && i < t->nphase; i++)
		if (strcmp(t->phase[i].name, name) == 0)
			return &t->phase[i];
	return NULL;
}

double timing_fraction(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->fraction : 0.0;
}

double timing_seconds(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->seconds : 0.0;
}

/* ---- memory ------------------------------------------------------------------------- */

/* Values of metric over positions [w, n) that have it, in order. */
static double *gather(const struct steps_model *m, size_t ri, int metric, size_t w, size_t n,
		      size_t *count)
{
	double *v = xmalloc((n > w ? n - w : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = w; i < n && metric >= 0; i++)
		if (steps_value(m, ri, metric, i, &v[k]))
			k++;
	*count = k;
	return v;
}

static bool any_memory(const struct steps_model *m, size_t ri, size_t pos)
{
	double v;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_MEMORY && steps_value(m, ri, (int)i, pos, &v))
			return true;
	return false;
}

/* Max over records with memory of (primary, else fallback, else 0), positions [w, n). */
static double peak_of(const struct steps_model *m, size_t ri, int primary, int fallback, size_t w,
		      size_t n)
{
	double best = 0;
	bool any = false;
	for (size_t i = w; i < n; i++) {
		if (!any_memory(m, ri, i))
			continue;
		double v = 0;
		if (!steps_value(m, ri, primary, i, &v) && !steps_value(m, ri, fallback, i, &v))
			v = 0;
		if (!any || v > best)
			best = v;
		any = true;
	}
	return best;
}

static struct memory *compute_memory(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct memory *mem = xcalloc(1, sizeof(*mem));
	size_t n = steps_nrecords(m, ri), w = warmup_start(run, n);
	mem->n_steps = n - w;
	int a = steps_metric_find(m, METRIC_MEMORY, "alloc");
	int r = steps_metric_find(m, METRIC_MEMORY, "reserved");
	size_t na, nr;
	double *allocs = gather(m, ri, a, w, n, &na);
	double *res = gather(m, ri, r, w, n, &nr);
	if (na > 0) {
		mem->has_memory = true;
		mem->peak_alloc = peak_of(m, ri, steps_metric_find(m, METRIC_MEMORY, "peak_alloc"), a, w, n);
		mem->peak_reserved = peak_of(m, ri, steps_metric_find(m, METRIC_MEMORY, "peak_reserved"), r, w, n);
		mem->mean_alloc = mean_fsum(allocs, na);
		struct fsum s;
		fsum_init(&s);
		size_t pairs = 0;
		for (size_t i = 0; i < na && i < nr; i++)
			if (res[i] > 0) {
				fsum_add(&s, (res[i] - allocs[i]) / res[i]);
				pairs++;
			}
		mem->fragmentation = pairs ? fsum_result(&s) / (double)pairs : 0.0;
		mem->growth = stats_robust_slope(allocs, na);
	}
	free(allocs);
	free(res);
	return mem;
}

const struct memory *analysis_memory(struct run *run, size_t ri)
{
	struct rank_cache *rc = rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->memory_done) {
		rc->memory = compute_memory(run, ri);
		rc->memory_done = true;
	}
	return rc->memory;
}

/* ---- convergence -------------------------------------------------------------------- */

static const char *trend_of(const double *v, size_t n)
{
	if (n < 4)
		return "unknown";
	size_t w = n / 10 ? n / 10 : 1;
	double first = stats_median(v, w), last = stats_median(v + n - w, w);
	double rel = (last - first) / (first != 0 ? fabs(first) : 1.0);
	if (rel < -0.02)
		return "improving";
	if (rel > 0.02)
		return "worsening";
	return "plateau";
}

static long *flagged_steps(const bool *flags, const long *step, size_t n, size_t *count)
{
	long *out = xmalloc((n ? n : 1) * sizeof(*out));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (flags[i])
			out[k++] = step[i];
	*count = k;
	return out;
}

static struct convergence *compute_convergence(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct convergence *c = xcalloc(1, sizeof(*c));
	size_t n = steps_nrecords(m, ri), w = warmup_start(run, n), cnt = n - w;
	c->n_steps = cnt;
	c->diverged_at = -1;
	int loss = steps_metric_find(m, METRIC_SCALAR, "loss");
	int gn = steps_metric_find(m, METRIC_SCALAR, "grad_norm");
	c->loss = xmalloc((cnt ? cnt : 1) * sizeof(*c->loss));
	c->loss_step = xmalloc((cnt ? cnt : 1) * sizeof(*c->loss_step));
	double *finite = xmalloc((cnt ? cnt : 1) * sizeof(*finite));
	double *g = xmalloc((cnt ? cnt : 1) * sizeof(*g));
	bool *gp = xcalloc(cnt ? cnt : 1, sizeof(*gp));
	long *steps = xmalloc((cnt ? cnt : 1) * sizeof(*steps));
	size_t nf = 0;
	for (size_t i = 0; i < cnt; i++) {
		steps[i] = steps_step(m, ri, w + i);
		gp[i] = steps_value(m, ri, gn, w + i, &g[i]);
		c->has_grad_norm |= gp[i];
		double v;
		if (!steps_value(m, ri, loss, w + i, &v))
			continue;
		c->loss[c->nloss] = v;
		c->loss_step[c->nloss++] = steps[i];
		if (isfinite(v))
			finite[nf++] = v;
		else if (c->diverged_at < 0)
			c->diverged_at = steps[i];
	}
	c->has_loss = c->nloss > 0;
	c->diverged = c->diverged_at >= 0;
	if (nf) {
		c->has_final = true;
		c->final_loss = finite[nf - 1];
		c->best_loss = finite[0];
		for (size_t i = 1; i < nf; i++)
			if (finite[i] < c->best_loss)
				c->best_loss = finite[i];
	}
	c->trend = c->diverged ? "diverged" : trend_of(finite, nf);
	bool *flags = xmalloc((cnt ? cnt : 1) * sizeof(*flags));
	stats_local_spikes(c->loss, NULL, c->nloss, flags);
	c->loss_spikes = flagged_steps(flags, c->loss_step, c->nloss, &c->nloss_spikes);
	stats_local_spikes(g, gp, cnt, flags);
	c->grad_spikes = flagged_steps(flags, steps, cnt, &c->ngrad_spikes);
	free(flags);
	free(steps);
	free(gp);
	free(g);
	free(finite);
	return c;
}

const struct convergence *analysis_convergence(struct run *run, size_t ri)
{
	struct rank_cache *rc = rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->conv_done) {
		rc->conv = compute_convergence(run, ri);
		rc->conv_done = true;
	}
	return rc->conv;
}

/* ---- distributed -------------------------------------------------------------------- */

struct phase_sets {
	int *compute;             /* phase ids in COMPUTE_PHASES */
	size_t ncompute;
	int comm;
	int *all;                 /* every phase id, ascending */
	size_t nall;
};

static void phase_sets_init(const struct steps_model *m, struct phase_sets *ps)
{
	ps->compute = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->ncompute = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && in_compute_phases(d->name))
			ps->compute[ps->ncompute++] = (int)i;
	}
	ps->comm = steps_metric_find(m, METRIC_PHASE, "comm");
	ps->all = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->nall = phase_ids(m, ps->all);
}

static void phase_sets_free(struct phase_sets *ps)
{
	free(ps->compute);
	free(ps->all);
}

static double record_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			     size_t pos)
{
	double v[ARRAY_LEN(canonical)];
	size_t n = 0;
	for (size_t i = 0; i < ps->ncompute; i++)
		if (steps_value(m, ri, ps->compute[i], pos, &v[n]))
			n++;
	return stats_fsum(v, n);
}

static double record_comm(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			  size_t pos)
{
	double v;
	return steps_value(m, ri, ps->comm, pos, &v) ? v : 0.0;
}

/* Kadane over x_s - 1/2 (x_s = rank critical at s); sets the persistent stretch. */
static void onset_of(const struct distributed *d, size_t ri, struct rank_stat *rs)
{
	rs->onset = rs->onset_end = -1;
	double best = 0, cur = 0;
	size_t best_a = 0, best_b = 0, a = 0;
	bool have = false;
	for (size_t k = 0; k < d->n_steps; k++) {
		double x = d->step[k].critical == (int)ri ? 0.5 : -0.5;
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
	size_t len = best_b - best_a + 1, hits = 0;
	for (size_t k = best_a; k <= best_b; k++)
		hits += d->step[k].critical == (int)ri;
	if (len >= ANALYSIS_ONSET_MIN_STEPS && (double)hits >= 0.6 * (double)len) {
		rs->onset = d->step[best_a].step;
		rs->onset_end = d->step[best_b].step;
	}
}

static void rank_memory_peak(const struct steps_model *m, size_t ri, struct rank_stat *rs)
{
	int pa = steps_metric_find(m, METRIC_MEMORY, "peak_alloc");
	int a = steps_metric_find(m, METRIC_MEMORY, "alloc");
	for (size_t i = 0; i < steps_nrecords(m, ri); i++) {
		double v;
		if (steps_value(m, ri, pa, i, &v) || steps_value(m, ri, a, i, &v))
			if (!rs->has_mem_peak || v > rs->mem_peak) {
				rs->mem_peak = v;
				rs->has_mem_peak = true;
			}
	}
}

/* Threads for the run-wide passes: --jobs, else one per core. No result depends on it:
 * every task writes its own slots and the order-dependent sums run after the pool. */
static int pass_threads(const struct run *run)
{
	return run->opts ? run->opts->jobs : 0;
}

/* Statistics of one aligned step from c[N] (compute of every rank), its comm max and
 * its median. */
static void step_stats(struct dist_step *s, const double *c, double comm_max, double med, size_t N)
{
	size_t crit = 0;
	for (size_t r = 1; r < N; r++)
		if (c[r] > c[crit])
			crit = r;
	s->critical = (int)crit;
	s->cmax = c[crit];
	s->cmean = stats_fsum(c, N) / (double)N;
	s->cmed = med;
	s->comm_max = comm_max;
	s->wall = s->cmax + comm_max;
	s->comm_frac = s->wall != 0 ? comm_max / s->wall : 0.0;
	s->cv = N >= 2 && s->cmean > 0 ? pstdev(c, N, s->cmean) / s->cmean : 0.0;
	s->skew = s->cmax - s->cmed;
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
	const double *cmed_known; /* memoized per-step medians, or NULL */
	double *cmed;             /* medians-only pass: out */
	struct distributed *d;    /* NULL: medians only */
	double *lost;             /* per aligned step: seconds the others waited / (N - 1) */
};

static void step_block(void *ud, size_t task)
{
	struct step_pass *p = ud;
	size_t N = p->N, k0 = task * STEP_BLOCK, nb = p->S - k0 < STEP_BLOCK ? p->S - k0 : STEP_BLOCK;
	double *blk = xmalloc(N * nb * sizeof(*blk)), *c = xmalloc(N * sizeof(*c));
	double *tmp = xmalloc(N * sizeof(*tmp)), comm[STEP_BLOCK];
	for (size_t r = 0; r < N; r++)
		for (size_t j = 0; j < nb; j++) {
			size_t pos = steps_aligned_pos(p->m, r, k0 + j);
			blk[r * nb + j] = record_compute(p->m, &p->ps, r, pos);
			double cm = p->d ? record_comm(p->m, &p->ps, r, pos) : 0;
			if (r == 0 || cm > comm[j])
				comm[j] = cm;
		}
	for (size_t j = 0; j < nb; j++) {
		size_t k = k0 + j;
		for (size_t r = 0; r < N; r++)
			c[r] = blk[r * nb + j];
		double med;
		if (p->cmed_known) {
			med = p->cmed_known[k];
		} else {
			memcpy(tmp, c, N * sizeof(*c));
			med = stats_median_inplace(tmp, N);
		}
		if (!p->d) {
			p->cmed[k] = med;
			continue;
		}
		struct dist_step *s = &p->d->step[k];
		s->step = steps_aligned_step(p->m, k);
		step_stats(s, c, comm[j], med, N);
		double waited = 0;
		for (size_t r = 0; r < N; r++)
			if ((int)r != s->critical)
				waited += s->cmax - c[r];
		p->lost[k] = waited / (double)(N - 1);
	}
	free(blk);
	free(c);
	free(tmp);
}

static void step_pass_run(const struct run *run, struct step_pass *p)
{
	pool_run((p->S + STEP_BLOCK - 1) / STEP_BLOCK, pass_threads(run), step_block, p);
}

/* Per-step statistics (parallel), then, in step order, the critical counts, time lost
 * and the summary sums. Memory O(N x threads x STEP_BLOCK + S), never O(N x S). */
static void dist_steps(const struct run *run, struct step_pass *p, double *sum_max, double *sum_lost)
{
	struct distributed *d = p->d;
	p->lost = xmalloc(p->S * sizeof(*p->lost));
	step_pass_run(run, p);
	for (size_t k = 0; k < p->S; k++) {
		const struct dist_step *s = &d->step[k];
		*sum_max += s->cmax;
		*sum_lost += s->cmax - s->cmean;
		d->rank[s->critical].slowest_count++;
		d->rank[s->critical].time_lost += p->lost[k];
	}
	free(p->lost);
	p->lost = NULL;
}

/* Pass over one rank (row-wise): mean/median compute and the median slowdown against
 * each step's median (recomputed from the model rather than kept for every cell).
 * vals and ratio are S doubles of scratch. */
static void dist_rank(const struct steps_model *m, const struct phase_sets *ps, struct distributed *d,
		      size_t r, double *vals, double *ratio)
{
	size_t S = d->n_steps, nratio = 0;
	struct rank_stat *rs = &d->rank[r];
	for (size_t k = 0; k < S; k++) {
		vals[k] = record_compute(m, ps, r, steps_aligned_pos(m, r, k));
		if (d->step[k].cmed > 0)
			ratio[nratio++] = vals[k] / d->step[k].cmed - 1.0;
	}
	rs->rank = steps_rank_id(m, r);
	rs->mean_compute = mean_fsum(vals, S);
	rs->median_compute = stats_median_inplace(vals, S);
	rs->slowest_fraction = (double)rs->slowest_count / (double)S;
	rs->rel_slowdown = nratio ? stats_median_inplace(ratio, nratio) : 0.0;
	rs->missing = steps_missing(m, r);
	rs->coverage = steps_nunion(m) ? (double)steps_ndistinct(m, r) / (double)steps_nunion(m) : 0.0;
	onset_of(d, r, rs);
	rank_memory_peak(m, r, rs);
}

/* Ranks per task of the row passes. */
#define RANK_CHUNK 8

static void dist_rank_chunk(void *ud, size_t task)
{
	struct step_pass *p = ud;
	double *vals = xmalloc(p->S * sizeof(*vals)), *ratio = xmalloc(p->S * sizeof(*ratio));
	for (size_t r = task * RANK_CHUNK; r < p->N && r < (task + 1) * RANK_CHUNK; r++)
		dist_rank(p->m, &p->ps, p->d, r, vals, ratio);
	free(vals);
	free(ratio);
}

/* Summary medians and means over the per-step statistics. */
static void dist_summary(struct distributed *d, double sum_max, double sum_lost)
{
	size_t S = d->n_steps;
	double *v = xmalloc(S * sizeof(*v));
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].wall;
	d->mean_step_wall = mean_fsum(v, S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].comm_frac;
	d->mean_comm_fraction = mean_fsum(v, S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].cv;
	d->imbalance_cv = stats_median_inplace(v, S);
	for (size_t k = 0; k < S; k++)
		v[k] = d->step[k].skew;
	d->sync_skew = stats_median_inplace(v, S);
	d->wall_frac_lost = sum_max > 0 ? sum_lost / sum_max : 0.0;
	free(v);
}

static struct distributed *compute_distributed(struct run *run, const double *cmed_known)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (N < 2 || S == 0)
		return NULL;
	struct distributed *d = xcalloc(1, sizeof(*d));
	d->world_size = N;
	d->n_steps = S;
	d->rank = xcalloc(N, sizeof(*d->rank));
	d->step = xcalloc(S, sizeof(*d->step));
	struct step_pass p = { .m = m, .N = N, .S = S, .cmed_known = cmed_known, .d = d };
	phase_sets_init(m, &p.ps);
	double sum_max = 0, sum_lost = 0;
	dist_steps(run, &p, &sum_max, &sum_lost);
	pool_run((N + RANK_CHUNK - 1) / RANK_CHUNK, pass_threads(run), dist_rank_chunk, &p);
	double p0 = 1.0 / (double)N, expected = (double)S * p0;
	double sd = sqrt((double)S * p0 * (1.0 - p0));
	if (sd == 0)
		sd = 1.0;
	size_t nstrag = 0;
	long strag = -1;
	for (size_t r = 0; r < N; r++) {
		struct rank_stat *rs = &d->rank[r];
		rs->straggler_z = ((double)rs->slowest_count - expected) / sd;
		if (rs->straggler_z >= 3.0 && rs->rel_slowdown >= 0.05) {
			nstrag++;
			strag = (long)r;
		}
	}
	d->straggler = nstrag == 1 ? strag : -1;
	dist_summary(d, sum_max, sum_lost);
	phase_sets_free(&p.ps);
	return d;
}

const struct distributed *analysis_distributed(struct run *run)
{
	struct analysis_cache *c = cache_of(run);
	if (!c)
		return NULL;
	if (!c->dist_done) {
		c->dist = compute_distributed(run, c->cmed);
		c->dist_done = true;
	}
	return c->dist;
}

/* Median of compute over the ranks at every aligned step (S entries), memoized: shared
 * by the distributed analysis (cmed) and the slowdown heatmap, whichever comes first. */
static const double *step_medians(struct run *run, struct analysis_cache *c)
{
	if (c->cmed)
		return c->cmed;
	const struct steps_model *m = run->steps;
	size_t S = steps_naligned(m);
	c->cmed = xmalloc((S ? S : 1) * sizeof(*c->cmed));
	if (c->dist_done && c->dist) {
		for (size_t k = 0; k < S; k++)
			c->cmed[k] = c->dist->step[k].cmed;
		return c->cmed;
	}
	struct step_pass p = { .m = m, .N = steps_nranks(m), .S = S, .cmed = c->cmed };
	phase_sets_init(m, &p.ps);
	step_pass_run(run, &p);
	phase_sets_free(&p.ps);
	return c->cmed;
}

/* ---- efficiency budget -------------------------------------------------------------- */

static const char *const budget_names[BUDGET_NLINES] = {
	"useful_compute", "compute_overhead", "data_stall", "communication", "other",
};

/* FLOPs per step and peak FLOP/s: the flags, else run.json of rank ri. */
static void budget_flops(const struct run *run, size_t ri, double *flops, double *peak)
{
	const struct steps_meta *meta = steps_rank_meta(run->steps, ri);
	const struct opts *o = run->opts;
	*flops = o && o->flops_set ? o->flops_per_step : meta->has_flops ? meta->flops_per_step : 0;
	*peak = o && o->peak_set ? o->peak_tflops * 1e12 : meta->has_peak ? meta->peak_flops : 0;
}

static void budget_lines(struct budget *out, const double *secs);

/* Budget over the positions [a, b) of rank ri (only steps in [lo, hi) when window). */
static bool budget_over(struct run *run, size_t ri, size_t a, size_t b, long lo, long hi,
			bool window, struct budget *out)
{
	const struct steps_model *m = run->steps;
	memset(out, 0, sizeof(*out));
	static const char *const cnames[] = { "forward", "backward", "optimizer", "compute" };
	int cid[4];
	for (size_t i = 0; i < 4; i++)
		cid[i] = steps_metric_find(m, METRIC_PHASE, cnames[i]);
	int did = steps_metric_find(m, METRIC_PHASE, "data");
	int mid = steps_metric_find(m, METRIC_PHASE, "comm");
	int oid = steps_metric_find(m, METRIC_PHASE, "other");
	struct fsum sc, sd, sm, so;
	fsum_init(&sc);
	fsum_init(&sd);
	fsum_init(&sm);
	fsum_init(&so);
	size_t n = 0;
	for (size_t i = a; i < b; i++) {
		if (window) {
			long s = steps_step(m, ri, i);
			if (s < lo || s > hi)
				continue;
		}
		n++;
		double v;
		for (size_t k = 0; k < 4; k++)
			if (steps_value(m, ri, cid[k], i, &v))
				fsum_add(&sc, v);
		if (steps_value(m, ri, did, i, &v))
			fsum_add(&sd, v);
		if (steps_value(m, ri, mid, i, &v))
			fsum_add(&sm, v);
		if (steps_value(m, ri, oid, i, &v))
			fsum_add(&so, v);
	}
	if (n == 0)
		return false;
	double compute = fsum_result(&sc), data = fsum_result(&sd), comm = fsum_result(&sm);
	double other = fsum_result(&so);
	double wall = compute + data + comm + other;
	if (!(wall > 0))
		return false;
	double flops, peak, useful = compute;
	budget_flops(run, ri, &flops, &peak);
	out->n = n;
	out->wall = wall;
	out->compute_measured = compute;
	if (flops != 0 && peak != 0 && peak > 0) {
		double ideal = flops * (double)n / peak;
		useful = ideal < compute ? ideal : compute;
		out->has_mfu = true;
		out->mfu = useful / wall;
	}
	double secs[BUDGET_NLINES] = { useful, compute - useful, data, comm, other };
	budget_lines(out, secs);
	return true;
}

/* Fill the lines, fractions and the recoverable order from the line seconds. */
static void budget_lines(struct budget *out, const double *secs)
{
	double wall = out->wall;
	out->useful = secs[BUDGET_USEFUL];
	out->overhead = secs[BUDGET_OVERHEAD];
	out->efficiency = out->useful / wall;
	out->nrecoverable = 0;
	for (int i = 0; i < BUDGET_NLINES; i++) {
		out->line[i] = (struct budget_line){ .name = budget_names[i], .seconds = secs[i],
						     .fraction = secs[i] / wall, .recoverable = i != BUDGET_USEFUL };
		if (i == BUDGET_USEFUL || secs[i] <= 0)
			continue;
		size_t j = out->nrecoverable++; /* insertion keeps ties in line order */
		while (j > 0 && out->line[out->recoverable[j - 1]].seconds < secs[i]) {
			out->recoverable[j] = out->recoverable[j - 1];
			j--;
		}
		out->recoverable[j] = i;
	}
}

const struct budget *analysis_budget(struct run *run, size_t ri)
{
	struct rank_cache *rc = rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->budget_done) {
		struct budget b;
		size_t n = steps_nrecords(run->steps, ri);
		if (budget_over(run, ri, warmup_start(run, n), n, 0, 0, false, &b)) {
			rc->budget = xmalloc(sizeof(*rc->budget));
			*rc->budget = b;
		}
		rc->budget_done = true;
	}
	return rc->budget;
}

static struct budget *budget_all(struct run *run)
{
	struct budget *all = NULL;
	double secs[BUDGET_NLINES] = { 0 };
	for (size_t r = 0; r < steps_nranks(run->steps); r++) {
		const struct budget *b = analysis_budget(run, r);
		if (!b)
			continue;
		if (!all)
			all = xcalloc(1, sizeof(*all));
		all->n += b->n;
		all->wall += b->wall;
		all->compute_measured += b->compute_measured;
		all->has_mfu |= b->has_mfu;
		for (int i = 0; i < BUDGET_NLINES; i++)
			secs[i] += b->line[i].seconds;
	}
	if (all) {
		budget_lines(all, secs);
		all->mfu = all->has_mfu ? all->useful / all->wall : 0;
	}
	return all;
}

const struct budget *analysis_budget_all(struct run *run)
{
	struct analysis_cache *c = cache_of(run);
	if (!c)
		return NULL;
	if (!c->budget_all_done) {
		c->budget_all = budget_all(run);
		c->budget_all_done = true;
	}
	return c->budget_all;
}

bool analysis_budget_window(struct run *run, size_t ri, long lo, long hi, struct budget *out)
{
	if (!run || !run->steps || ri >= steps_nranks(run->steps))
		return false;
	return budget_over(run, ri, 0, steps_nrecords(run->steps, ri), lo, hi, true, out);
}

/* ---- heatmap -------------------------------------------------------------------------- */

static void heat_free(struct heat_grid *g)
{
	if (!g)
		return;
	for (size_t l = 0; l < g->nlevels; l++) {
		free(g->val[l]);
		if (l > 0)
			free(g->worst[l]);
		free(g->count[l]);
	}
	free(g->val);
	free(g->worst);
	free(g->count);
	free(g->len);
	free(g);
}

/* fsum of every phase of a record, for records with more phases than series_value()
 * gathers on the stack. */
static double step_time_fsum(const struct steps_model *m, const struct phase_sets *ps, size_t r,
			     size_t pos)
{
	struct fsum s;
	fsum_init(&s);
	double v;
	for (size_t i = 0; i < ps->nall; i++)
		if (steps_value(m, r, ps->all[i], pos, &v))
			fsum_add(&s, v);
	return fsum_result(&s);
}

/* Level-0 value of series at (r, k); false when missing. */
static bool series_value(const struct steps_model *m, const struct phase_sets *ps, int series,
			 size_t r, size_t k, double *out)
{
	size_t pos = steps_aligned_pos(m, r, k);
	switch (series) {
	case HEAT_COMPUTE:
		*out = record_compute(m, ps, r, pos);
		return true;
	case HEAT_COMM:
		*out = record_comm(m, ps, r, pos);
		return true;
	case HEAT_STEP_TIME: {
		double v[16];
		size_t n = 0;
		if (ps->nall > ARRAY_LEN(v)) {
			*out = step_time_fsum(m, ps, r, pos);
			return true;
		}
		for (size_t i = 0; i < ps->nall; i++)
			if (steps_value(m, r, ps->all[i], pos, &v[n]))
				n++;
		*out = stats_fsum(v, n);
		return true;
	}
	default:
		return steps_value(m, r, series, pos, out);
	}
}

/* The row passes of a heatmap build, in tasks of RANK_CHUNK ranks (rows are independent). */
struct heat_pass {
	struct heat_grid *g;
	const struct steps_model *m;
	struct phase_sets ps;
	const double *cmed;       /* HEAT_REL_SLOWDOWN: step_medians() */
};

/* Level 0 of the task's rows, row by row (the model's columns are read sequentially). */
static void heat_fill_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	const struct heat_grid *g = p->g;
	size_t S = g->nsteps;
	int series = g->series == HEAT_REL_SLOWDOWN ? HEAT_COMPUTE : g->series;
	for (size_t r = task * RANK_CHUNK; r < g->nranks && r < (task + 1) * RANK_CHUNK; r++) {
		float *v = g->val[0] + r * S; /* NaN marks a missing cell */
		for (size_t k = 0; k < S; k++) {
			double x;
			bool ok = series_value(p->m, &p->ps, series, r, k, &x);
			if (p->cmed)
				v[k] = p->cmed[k] > 0 ? (float)(x / p->cmed[k] - 1.0) : NAN;
			else
				v[k] = ok ? (float)x : NAN;
		}
	}
}

/* Present values in block idx of level l of rank ri. */
static uint32_t heat_count(const struct heat_grid *g, size_t l, size_t ri, size_t idx)
{
	if (l == 0)
		return !isnan(g->val[0][ri * g->nsteps + idx]);
	if (g->count[l])
		return g->count[l][ri * g->len[l] + idx];
	size_t lo = idx << l, hi = lo + ((size_t)1 << l);
	return (uint32_t)((hi < g->nsteps ? hi : g->nsteps) - lo);
}

/* Levels 1.. of the task's rows: block b of level l from blocks 2b, 2b+1 of level l-1. */
static void heat_level_rows(void *ud, size_t task)
{
	const struct heat_pass *p = ud;
	struct heat_grid *g = p->g;
	for (size_t r = task * RANK_CHUNK; r < g->nranks && r < (task + 1) * RANK_CHUNK; r++)
		for (size_t l = 1; l < g->nlevels; l++) {
			size_t pl = g->len[l - 1], len = g->len[l];
			for (size_t b = 0; b < len; b++) {
				double sum = 0, worst = NAN;
				uint32_t cnt = 0;
				for (size_t j = 2 * b; j < 2 * b + 2 && j < pl; j++) {
					uint32_t cj = heat_count(g, l - 1, r, j);
					if (!cj)
						continue;
					sum += (double)g->val[l - 1][r * pl + j] * cj;
					double wj = g->worst[l - 1][r * pl + j];
					if (cnt == 0 || wj > worst)
						worst = wj;
					cnt += cj;
				}
				g->val[l][r * len + b] = cnt ? (float)(sum / cnt) : NAN;
				g->worst[l][r * len + b] = (float)worst;
				if (g->count[l])
					g->count[l][r * len + b] = cnt;
			}
		}
}

static struct heat_grid *heat_build(struct run *run, int series)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (N == 0 || S == 0 || (series >= 0 && ((size_t)series >= steps_nmetrics(m))) || series < HEAT_REL_SLOWDOWN)
		return NULL;
	struct heat_grid *g = xcalloc(1, sizeof(*g));
	g->series = series;
	g->nranks = N;
	g->nsteps = S;
	size_t levels = 1;
	for (size_t len = S; len > 1; len = (len + 1) / 2)
		levels++;
	g->nlevels = levels;
	g->val = xcalloc(levels, sizeof(*g->val));
	g->worst = xcalloc(levels, sizeof(*g->worst));
	g->count = xcalloc(levels, sizeof(*g->count));
	g->len = xcalloc(levels, sizeof(*g->len));
	g->len[0] = S;
	g->val[0] = xmalloc(N * S * sizeof(float));
	g->worst[0] = g->val[0];
	struct heat_pass p = { .g = g, .m = m };
	if (series == HEAT_REL_SLOWDOWN)
		p.cmed = step_medians(run, cache_of(run));
	phase_sets_init(m, &p.ps);
	size_t ntasks = (N + RANK_CHUNK - 1) / RANK_CHUNK;
	pool_run(ntasks, pass_threads(run), heat_fill_rows, &p);
	phase_sets_free(&p.ps);
	bool dense = true;
	for (size_t i = 0; i < N * S && dense; i++)
		dense = !isnan(g->val[0][i]);
	for (size_t l = 1; l < levels; l++) {
		size_t len = (g->len[l - 1] + 1) / 2;
		g->len[l] = len;
		g->val[l] = xmalloc(N * len * sizeof(float));
		g->worst[l] = xmalloc(N * len * sizeof(float));
		if (!dense)
			g->count[l] = xmalloc(N * len * sizeof(uint32_t));
	}
	pool_run(ntasks, pass_threads(run), heat_level_rows, &p);
	return g;
}

const struct heat_grid *analysis_heatmap(struct run *run, int series)
{
	struct analysis_cache *c = cache_of(run);
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->nheat; i++)
		if (c->heat[i]->series == series)
			return c->heat[i];
	struct heat_grid *g = heat_build(run, series);
	if (!g)
		return NULL;
	c->heat = xrealloc(c->heat, (c->nheat + 1) * sizeof(*c->heat));
	c->heat[c->nheat++] = g;
	return g;
}

size_t heat_nsteps(const struct heat_grid *g)
{
	return g ? g->nsteps : 0;
}

size_t heat_nranks(const struct heat_grid *g)
{
	return g ? g->nranks : 0;
}

bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean,
		double *worst)
{
	if (!g || ri >= g->nranks)
		return false;
	if (k_hi > g->nsteps)
		k_hi = g->nsteps;
	double sum = 0, w = 0;
	uint64_t cnt = 0;
	size_t a = k_lo, b = k_hi;
	for (size_t l = 0; a < b && l < g->nlevels; l++) {
		size_t len = g->len[l];
		const float *v = g->val[l] + ri * len, *wo = g->worst[l] + ri * len;
		size_t take[2], nt = 0;
		if (a & 1)
			take[nt++] = a++;
		if (b & 1)
			take[nt++] = --b;
		for (size_t t = 0; t < nt; t++) {
			uint32_t c = heat_count(g, l, ri, take[t]);
			if (!c)
				continue;
			sum += (double)v[take[t]] * c;
			if (cnt == 0 || wo[take[t]] > w)
				w = wo[take[t]];
			cnt += c;
		}
		a /= 2;
		b /= 2;
	}
	if (cnt == 0)
		return false;
	*mean = sum / (double)cnt;
	*worst = w;
	return true;
}
