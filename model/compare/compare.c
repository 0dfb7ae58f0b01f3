/* SPDX-License-Identifier: MIT */
/* compare.c: the run pair (see compare.h): pairing of PATH arguments, opening both
 * runs, the per-rank deltas with the noise-aware regression test, the verdict and the
 * findings that appeared, were resolved or persist, and the Overview lines of the pair
 * (compare_summary). The pytscope diff is pydiff.c. */
#include "model/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/internal.h"
#include "model/compare/views.h"
#include "model/identity.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/units.h"
#include "model/xalloc.h"

#define MAD_TO_STD 1.4826
#define NOISE_Z 3.0        /* standard errors a mean delta must exceed */
#define NOISE_FLOOR 0.01   /* ... and this fraction of A's mean */

/* ---- pairing ------------------------------------------------------------------------ */

bool compare_is_pair(const struct run_identity *id)
{
	return id->n == 2 && id->v[0].family == id->v[1].family;
}

const char *compare_family_name(int family)
{
	static const char *const name[] = { [FAMILY_STEPS] = "steps", [FAMILY_TRACES] = "trace",
					    [FAMILY_SWEEP] = "sweep", [FAMILY_DASF] = "dasf" };
	return family >= 0 && family <= FAMILY_DASF ? name[family] : "unknown";
}

struct compare *compare_new(struct run *a, struct run *b, const char *family)
{
	struct compare *c = xcalloc(1, sizeof(*c));
	c->a = a;
	c->b = b;
	c->family = family;
	c->memo = xcalloc(1, sizeof(*c->memo));
	return c;
}

struct compare *compare_open(const struct run_identity *id, const struct opts *opts, struct load_ctx *hooks)
{
	struct run *a = run_open((const char *const *)id->v[0].paths, id->v[0].npaths, opts, hooks);
	struct run *b = run_open((const char *const *)id->v[1].paths, id->v[1].npaths, opts, hooks);
	return compare_new(a, b, compare_family_name(id->v[0].family));
}

struct run *compare_side(const struct compare *c, int side)
{
	return side ? c->b : c->a;
}

static void ranks_free(struct cmp_ranks *r)
{
	if (!r)
		return;
	free(r->v);
	free(r->order);
	free(r);
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	if (c->memo) {
		pydiff_free(c->memo->pydiff);
		ranks_free(c->memo->ranks);
		free(c->memo->findings);
		compare_fns_free(c->memo->fns);
		free(c->memo);
	}
	run_free(c->a);
	run_free(c->b);
	free(c);
}

/* ---- per-rank deltas ------------------------------------------------------------- */

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

struct rank_work {
	double *a, *d, *tmp;
	long *step;
};

/* One rank present on both sides: values over the common steps, test, onset. */
static void rank_delta(struct cmp_rank *r, const struct heat_grid *ga, const struct heat_grid *gb,
		       size_t ria, size_t rib, const size_t *ka, const size_t *kb, size_t nc,
		       const struct steps_model *ma, struct rank_work *w)
{
	size_t n = 0;
	const float *ra = heat_row(ga, ria), *rb = heat_row(gb, rib);
	for (size_t j = 0; j < nc; j++) {
		double va = ra[ka[j]], vb = rb[kb[j]];
		if (isnan(va) || isnan(vb))
			continue;
		w->a[n] = va;
		w->d[n] = vb - va;
		w->step[n++] = steps_aligned_step(ma, ka[j]);
	}
	r->n = n;
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
		double step_thr = NOISE_Z * robust_sd(w->tmp, n);
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

int compare_series(struct run *a, struct run *b, const char **no_compute)
{
	bool several = steps_nranks(a->steps) > 1 && steps_nranks(b->steps) > 1;
	bool ca = !analysis_compute_unweighable(a), cb = !analysis_compute_unweighable(b);
	const char *why = !several || (ca && cb) ? NULL : !ca && !cb ? "A and B" : !ca ? "A" : "B";
	if (no_compute)
		*no_compute = why;
	return several && !why ? HEAT_COMPUTE : HEAT_STEP_TIME;
}

/* Mean wall per common step and its noise test (both distributed, or both single-rank). */
static void wall_delta(struct cmp_ranks *out, struct run *a, struct run *b, const size_t *ka,
		       const size_t *kb, size_t nc, struct rank_work *w)
{
	const struct distributed *da = analysis_distributed(a), *db = analysis_distributed(b);
	const struct heat_grid *ga = NULL, *gb = NULL;
	if (!da || !db) {
		if (out->a_ranks != 1 || out->b_ranks != 1)
			return;
		ga = analysis_heatmap(a, HEAT_STEP_TIME);
		gb = analysis_heatmap(b, HEAT_STEP_TIME);
	}
	size_t n = 0;
	for (size_t j = 0; j < nc; j++) {
		double va, vb;
		if (da && db) {
			va = da->step[ka[j]].wall;
			vb = db->step[kb[j]].wall;
		} else {
			va = heat_row(ga, 0)[ka[j]];
			vb = heat_row(gb, 0)[kb[j]];
			if (isnan(va) || isnan(vb))
				continue;
		}
		w->a[n] = va;
		w->d[n++] = vb - va;
	}
	if (!n)
		return;
	double a_mean = mean_of(w->a, n), m = mean_of(w->d, n);
	bool zero = true;
	for (size_t j = 0; j < n && zero; j++)
		zero = w->d[j] == 0;
	double thr;
	int t = noise_test(w->d, n, m, a_mean, &thr);
	out->has_wall = true;
	out->a_wall_ms = a_mean * 1e3;
	out->b_wall_ms = (a_mean + m) * 1e3;
	out->wall_noise_ms = thr * 1e3;
	out->slower = t > 0;
	out->faster = t < 0;
	out->identical = out->identical && zero;
}

static struct cmp_ranks *ranks_compute(struct run *a, struct run *b)
{
	const struct steps_model *ma = a->steps, *mb = b->steps;
	if (!ma || !mb || !steps_naligned(ma) || !steps_naligned(mb))
		return NULL;
	struct cmp_ranks *out = xcalloc(1, sizeof(*out));
	out->a_ranks = steps_nranks(ma);
	out->b_ranks = steps_nranks(mb);
	out->a_steps = steps_naligned(ma);
	out->b_steps = steps_naligned(mb);
	out->a_lo = steps_aligned_step(ma, 0);
	out->a_hi = steps_aligned_step(ma, out->a_steps - 1);
	out->b_lo = steps_aligned_step(mb, 0);
	out->b_hi = steps_aligned_step(mb, out->b_steps - 1);
	size_t *ka, *kb;
	size_t nc = compare_common_steps(ma, mb, &ka, &kb);
	out->ncommon = nc;
	out->judged = nc >= CMP_MIN_STEPS;
	out->lo = nc ? steps_aligned_step(ma, ka[0]) : -1;
	out->hi = nc ? steps_aligned_step(ma, ka[nc - 1]) : -1;
	rank_union(out, ma, mb);
	/* compute as the distributed analysis has it; a single rank, or a run without a
	 * compute phase, has only its step time (and no time lost, read off compute rows) */
	int series = compare_series(a, b, &out->no_compute);
	out->by_step_time = series == HEAT_STEP_TIME;
	const struct heat_grid *ga = analysis_heatmap(a, series), *gb = analysis_heatmap(b, series);
	const struct distributed *da = analysis_distributed(a), *db = analysis_distributed(b);
	struct rank_work w = {
		.a = xmalloc((nc + 1) * sizeof(double)), .d = xmalloc((nc + 1) * sizeof(double)),
		.tmp = xmalloc((nc + 1) * sizeof(double)), .step = xmalloc((nc + 1) * sizeof(long)),
	};
	out->identical = nc > 0;
	out->order = xmalloc((out->n + 1) * sizeof(*out->order));
	for (size_t i = 0; i < out->n; i++) {
		struct cmp_rank *r = &out->v[i];
		if (!r->in_a || !r->in_b)
			continue;
		out->ncommon_ranks++;
		size_t ria = (size_t)steps_rank_index(ma, r->rank), rib = (size_t)steps_rank_index(mb, r->rank);
		rank_delta(r, ga, gb, ria, rib, ka, kb, nc, ma, &w);
		for (size_t j = 0; j < r->n && out->identical; j++)
			out->identical = w.d[j] == 0;
		if (da && db && series == HEAT_COMPUTE) {
			r->has_lost = true;
			r->a_lost_s = lost_over(da, ria, heat_row(ga, ria), ka, nc);
			r->b_lost_s = lost_over(db, rib, heat_row(gb, rib), kb, nc);
		}
		if (r->regressed)
			out->order[out->nregressed++] = i;
		out->nimproved += r->improved;
	}
	if (!out->ncommon_ranks)
		out->identical = false;
	qsort_r(out->order, out->nregressed, sizeof(*out->order), cmp_regression, out->v);
	wall_delta(out, a, b, ka, kb, nc, &w);
	free(w.a);
	free(w.d);
	free(w.tmp);
	free(w.step);
	free(ka);
	free(kb);
	return out;
}

const struct cmp_ranks *compare_ranks(struct compare *c)
{
	if (!c->memo->ranks_done) {
		c->memo->ranks_done = true;
		c->memo->ranks = ranks_compute(c->a, c->b);
	}
	return c->memo->ranks;
}

/* ---- verdict -------------------------------------------------------------------------- */

static const struct cmp_rank *first_improved(const struct cmp_ranks *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].improved)
			return &r->v[i];
	return NULL;
}

void compare_verdict(struct compare *c, char *buf, size_t n)
{
	if (strcmp(c->family, "sweep") == 0) {
		compare_sweep_verdict(c, buf, n);
		return;
	}
	if (strcmp(c->family, "dasf") == 0) {
		compare_dasf_verdict(c, buf, n);
		return;
	}
	const struct cmp_ranks *r = compare_ranks(c);
	if (!r) {
		snprintf(buf, n, "step times not compared: %s has no step records",
			 !c->a->steps || !steps_naligned(c->a->steps) ? "A" : "B");
		return;
	}
	if (!r->ncommon || !r->ncommon_ranks) {
		snprintf(buf, n, "step times not compared: A and B have no %s in common",
			 r->ncommon ? "rank id" : "step number");
		return;
	}
	if (r->identical) {
		snprintf(buf, n, "no difference: identical per-step times on %zu common step%s of %zu rank%s", r->ncommon,
			 r->ncommon == 1 ? "" : "s", r->ncommon_ranks, r->ncommon_ranks == 1 ? "" : "s");
		return;
	}
	if (!r->judged) { /* the raw difference, called nothing */
		int k = snprintf(buf, n, "not judged: %zu common step%s (the noise test needs %d)", r->ncommon,
				 r->ncommon == 1 ? "" : "s", CMP_MIN_STEPS);
		if (k > 0 && (size_t)k < n && r->has_wall && r->a_wall_ms > 0)
			snprintf(buf + k, n - (size_t)k, "; mean step wall %+.1f%% in B",
				 (r->b_wall_ms - r->a_wall_ms) / r->a_wall_ms * 100);
		return;
	}
	int k = 0;
	if (r->has_wall && r->a_wall_ms > 0) {
		double pct = (r->b_wall_ms - r->a_wall_ms) / r->a_wall_ms * 100;
		if (r->slower || r->faster)
			k = snprintf(buf, n, "B is %.1f%% %s per step", fabs(pct), r->slower ? "slower" : "faster");
		else
			k = snprintf(buf, n, "B takes the same time per step as A within noise (%+.1f%%)", pct);
	} else {
		k = snprintf(buf, n, "step wall not compared (one side has a single rank)");
	}
	if (k < 0 || (size_t)k >= n)
		return;
	if (r->nregressed) {
		const struct cmp_rank *w = &r->v[r->order[0]];
		int m = snprintf(buf + k, n - (size_t)k, "; rank %d regressed", w->rank);
		if (m > 0 && (size_t)(k + m) < n && w->onset_b >= 0)
			m += snprintf(buf + k + m, n - (size_t)(k + m), " from step %ld", w->onset_b);
		if (m > 0 && (size_t)(k + m) < n && r->nregressed > 1)
			snprintf(buf + k + m, n - (size_t)(k + m), " (%zu ranks regressed)", r->nregressed);
	} else if (r->nimproved) {
		snprintf(buf + k, n - (size_t)k, "; no rank regressed, rank %d improved%s", first_improved(r)->rank,
			 r->nimproved > 1 ? " (and others)" : "");
	} else {
		snprintf(buf + k, n - (size_t)k, "; no rank regressed beyond its noise");
	}
	size_t used = strlen(buf);
	if (r->no_compute && used < n) /* what "regressed" was judged by */
		snprintf(buf + used, n - used, "; ranks judged by step time: no compute to weigh in %s", r->no_compute);
}

void compare_scope(struct compare *c, char *buf, size_t n)
{
	const struct cmp_ranks *r = compare_ranks(c);
	buf[0] = '\0';
	if (!r)
		return;
	bool same_ranks = r->ncommon_ranks == r->n, same_steps = r->ncommon == r->a_steps && r->ncommon == r->b_steps;
	if (same_ranks && same_steps)
		return;
	snprintf(buf, n, "A: %zu rank%s, steps %ld-%ld; B: %zu rank%s, steps %ld-%ld; compared: %zu common rank%s, "
			 "%zu common step%s%s",
		 r->a_ranks, r->a_ranks == 1 ? "" : "s", r->a_lo, r->a_hi, r->b_ranks, r->b_ranks == 1 ? "" : "s", r->b_lo,
		 r->b_hi, r->ncommon_ranks, r->ncommon_ranks == 1 ? "" : "s", r->ncommon, r->ncommon == 1 ? "" : "s",
		 r->ncommon ? "" : " (nothing to compare)");
}

/* ---- findings --------------------------------------------------------------------------- */

static bool same_finding(const struct finding *x, const struct finding *y)
{
	/* evidence on another grid (DASF's workers): its rank is a row number there, which
	 * one more worker in B shifts; such evidence is matched by its name */
	bool row_of_grid = x->ev.grid && y->ev.grid && x->ev.name && y->ev.name;
	if (strcmp(x->id, y->id) != 0 || (!row_of_grid && x->ev.rank != y->ev.rank))
		return false;
	if (!x->ev.name || !y->ev.name)
		return !x->ev.name && !y->ev.name;
	return strcmp(x->ev.name, y->ev.name) == 0;
}

static void findings_compute_diff(struct compare *c)
{
	const struct finding_list *fa = run_findings(c->a), *fb = run_findings(c->b);
	struct cmp_finding *v = xmalloc((fa->n + fb->n + 1) * sizeof(*v));
	bool *used = xcalloc(fa->n + 1, 1);
	const struct finding **match = xcalloc(fb->n + 1, sizeof(*match));
	for (size_t j = 0; j < fb->n; j++)
		for (size_t i = 0; i < fa->n; i++)
			if (!used[i] && same_finding(&fa->v[i], &fb->v[j])) {
				used[i] = true;
				match[j] = &fa->v[i];
				break;
			}
	size_t n = 0;
	for (size_t j = 0; j < fb->n; j++)
		if (!match[j])
			v[n++] = (struct cmp_finding){ CMP_NEW, NULL, &fb->v[j] };
	for (size_t i = 0; i < fa->n; i++)
		if (!used[i])
			v[n++] = (struct cmp_finding){ CMP_RESOLVED, &fa->v[i], NULL };
	for (size_t j = 0; j < fb->n; j++)
		if (match[j])
			v[n++] = (struct cmp_finding){ CMP_PERSIST, match[j], &fb->v[j] };
	free(used);
	free(match);
	c->memo->findings = v;
	c->memo->nfindings = n;
}

const struct cmp_finding *compare_findings(struct compare *c, size_t *n)
{
	if (!c->memo->findings)
		findings_compute_diff(c);
	*n = c->memo->nfindings;
	return c->memo->findings;
}

const char *compare_status_name(enum cmp_status s)
{
	static const char *const name[] = { "new", "resolved", "persisting" };
	return name[s];
}

_Static_assert(CMP_TRACE_ENV_KEYS == TRACE_ENV_KEYS, "compare.h's count of the traces' environment keys");

size_t compare_trace_env(const struct compare *c, struct cmp_env out[CMP_TRACE_ENV_KEYS])
{
	const struct trace_set *ta = c->a->trace, *tb = c->b->trace;
	if (!ta || !tb || !ta->n || !tb->n)
		return 0;
	size_t n = 0;
	for (size_t k = 0; k < TRACE_ENV_KEYS; k++) {
		const char *a = trace_rank_env(ta->r[0], k), *b = trace_rank_env(tb->r[0], k);
		if (a || b)
			out[n++] = (struct cmp_env){ trace_env_keys[k], a, b, !text_same(a, b) };
	}
	return n;
}

/* The trace environment's line: the keys that differ as "gpu A -> B", else every key's
 * value, the same on both sides. */
static void summary_trace_env(const struct compare *c, struct summary *s)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	size_t n = compare_trace_env(c, e), ndiff = 0;
	for (size_t i = 0; i < n; i++)
		ndiff += e[i].differs;
	char buf[SUMMARY_TEXT] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && used < sizeof(buf); i++) {
		const char *a = e[i].a ? e[i].a : "n/a", *b = e[i].b ? e[i].b : "n/a";
		if (ndiff && e[i].differs)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s %s -> %s", used ? "; " : "",
						 e[i].key, a, b);
		else if (!ndiff)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s %s", used ? "; " : "", e[i].key, a);
	}
	if (n)
		summary_add(s, ndiff ? TONE_WARN : TONE_NORMAL, "environment", "%s (the lowest rank's trace%s)", buf,
			    ndiff ? "" : ", the same on both sides");
}

/* The tone of compare_dasf_verdict's result. */
static enum summary_tone dasf_tone(int rc)
{
	return rc == 0 ? TONE_GOOD : rc == 1 ? TONE_BAD : TONE_WARN;
}

void compare_summary(struct compare *c, struct summary *s)
{
	char buf[SUMMARY_TEXT];
	const struct cmp_ranks *r = compare_ranks(c);
	s->n = 0;
	enum summary_tone tone = r && (r->nregressed || r->slower) ? TONE_BAD : TONE_GOOD;
	if (r && !r->judged && !r->identical) /* too few common steps: no verdict, not good */
		tone = TONE_WARN;
	if (strcmp(c->family, "sweep") == 0) /* a change is given, not judged: never good */
		tone = compare_sweep_verdict(c, buf, sizeof(buf)) == 0 ? TONE_GOOD : TONE_WARN;
	else if (strcmp(c->family, "dasf") == 0)
		tone = dasf_tone(compare_dasf_verdict(c, buf, sizeof(buf)));
	else
		compare_verdict(c, buf, sizeof(buf));
	summary_add(s, tone, "verdict", "%s", buf);
	summary_add(s, TONE_NORMAL, "A", "%s (%s)", c->a->name ? c->a->name : "-", c->a->path ? c->a->path : "-");
	summary_add(s, TONE_NORMAL, "B", "%s (%s)", c->b->name ? c->b->name : "-", c->b->path ? c->b->path : "-");
	compare_scope(c, buf, sizeof(buf));
	if (*buf)
		summary_add(s, TONE_WARN, "scope", "%s", buf);
	summary_trace_env(c, s);
	if (strcmp(c->family, "dasf") == 0)
		compare_dasf_summary(c, s);
	if (r && r->has_wall) {
		char a[32], b[32], d[32], z[32] = "n/a"; /* no noise estimate under CMP_MIN_STEPS */
		if (r->judged)
			units_seconds(r->wall_noise_ms / 1e3, z, sizeof(z));
		summary_add(s, TONE_NORMAL, "step wall", "%s -> %s (%s, noise %s) over %zu common step%s",
			    units_seconds(r->a_wall_ms / 1e3, a, sizeof(a)), units_seconds(r->b_wall_ms / 1e3, b, sizeof(b)),
			    units_seconds_signed((r->b_wall_ms - r->a_wall_ms) / 1e3, d, sizeof(d)), z, r->ncommon,
			    r->ncommon == 1 ? "" : "s");
	}
	size_t nf, k[3] = { 0, 0, 0 };
	const struct cmp_finding *f = compare_findings(c, &nf);
	for (size_t i = 0; i < nf; i++)
		k[f[i].status]++;
	summary_add(s, k[CMP_NEW] ? TONE_WARN : TONE_NORMAL, "findings A/B",
		    "%zu new in B, %zu resolved, %zu persisting (5 lists them)", k[CMP_NEW], k[CMP_RESOLVED], k[CMP_PERSIST]);
	/* pytscope's diff is of step runs' run.json and losses: none for trace sets */
	const struct pydiff *d = strcmp(c->family, "steps") == 0 ? compare_pydiff(c) : NULL;
	for (size_t i = 0; d && i < d->nnative; i++) {
		struct summary_line *l = summary_add(s, TONE_NORMAL, i ? "" : "reproducible?", "%s", d->native[i]);
		if (l)
			l->prose = true;
	}
}
