/* SPDX-License-Identifier: MIT */
/* rules_cross.c: pytscope 0.2.1's CROSS.CORRELATED_INSTABILITY over rank 0's records after
 * the warm-up (pytscope.md §8): the positions where two axes or more (loss, grad_norm,
 * step time, memory) spike at once, whole and in slices; registered by rules.c (rules.h).
 * Natively a resume from a checkpoint (analysis_resumes_at: the step numbers go back, not
 * a record logged one place late) starts the spike scans again from the records it
 * continues (analysis_spikes_feed) and ends a group, so the steps logged again are judged
 * against the steps below them, not against the run left behind; the records a resume
 * leaves short of that history are named as not judged (rules_cross_unjudged), and a
 * finding whose steps were logged twice says which run of them it means (rules_which_run,
 * which CONVERGENCE.DIVERGED shares); under --compat pytscope the series run across the
 * resume, as pytscope's. */
#include "model/steps/internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "model/steps/rules.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

#define MB 1048576.0

enum { AX_GRAD, AX_LOSS, AX_MEM, AX_TIME, NAXES }; /* sorted by axis name */
static const char *const axis_name[NAXES] = { "grad_norm", "loss", "memory", "step_time" };

struct cross {
	size_t n, w;
	bool stitched;          /* --compat pytscope: one series across resumes */
	long *step;             /* step numbers by position */
	int ids[NAXES];
	double *val[NAXES];
	bool *have[NAXES];
	bool *flag[NAXES];
	bool axis[NAXES];
};

static void cross_free(struct cross *x)
{
	free(x->step);
	for (int a = 0; a < NAXES; a++) {
		free(x->val[a]);
		free(x->have[a]);
		free(x->flag[a]);
	}
}

static void cross_init(struct run *run, struct cross *x, const struct timing *t)
{
	const struct steps_model *m = run->steps;
	*x = (struct cross){ .n = t->nrec, .w = t->first, .stitched = rules_compat(run),
			     .ids = { steps_metric_find(m, METRIC_SCALAR, "grad_norm"),
				      steps_metric_find(m, METRIC_SCALAR, "loss"),
				      steps_metric_find(m, METRIC_MEMORY, "alloc"), -1 } };
	x->step = xcalloc(x->n, sizeof(long));
	for (int a = 0; a < NAXES; a++) {
		x->val[a] = xcalloc(x->n, sizeof(double));
		x->have[a] = xcalloc(x->n, sizeof(bool));
		x->flag[a] = xcalloc(x->n, sizeof(bool));
	}
}

/* Axis a's values at positions [lo, hi) of rank 0 (after its warm-up); the first axis
 * read takes the step numbers too. */
static void cross_values(struct run *run, const struct timing *t, struct cross *x, int a, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++) {
		if (a == 0)
			x->step[i] = steps_step(run->steps, 0, x->w + i);
		if (a == AX_TIME) /* natively none for a record without any phase */
			x->have[a][i] = timing_step_time_at(t, x->w + i, &x->val[a][i]);
		else
			x->have[a][i] = steps_value(run->steps, 0, x->ids[a], x->w + i, &x->val[a][i]);
		x->axis[a] |= x->have[a][i];
	}
}

/* Axis a's spike flags at [lo, hi), the scan s carried over from [0, lo). */
static void cross_spikes(struct cross *x, int a, struct resume_scan *s, size_t lo, size_t hi)
{
	analysis_spikes_feed(s, x->val[a], x->have[a], x->stitched ? NULL : x->step, x->n, lo, hi, x->flag[a]);
	for (size_t i = lo; a == AX_LOSS && i < hi; i++)
		x->flag[a][i] |= x->have[a][i] && !isfinite(x->val[a][i]);
}

/* A resume at a position in (i, j] (natively; never under --compat). */
static bool cross_rewind_in(const struct cross *x, size_t i, size_t j)
{
	for (size_t k = i + 1; !x->stitched && k <= j; k++)
		if (analysis_resumes_at(x->step, x->n, k))
			return true;
	return false;
}

void rules_which_run(const long *step, size_t n, size_t g0, size_t g1, char *buf, size_t bn)
{
	size_t back = 0, next = 0;
	long before = LONG_MIN, after = LONG_MAX;
	for (size_t k = 1; k <= g0; k++)
		if (analysis_resumes_at(step, n, k))
			back = k;
	for (size_t k = 0; k < back; k++)
		before = step[k] > before ? step[k] : before;
	for (size_t k = n - 1; k > g1; k--)
		if (analysis_resumes_at(step, n, k))
			next = k;
	for (size_t k = next; next && k < n; k++)
		after = step[k] < after ? step[k] : after;
	size_t at = back && before >= step[g0] ? back : next && after <= step[g1] ? next : 0;
	buf[0] = '\0';
	if (at)
		snprintf(buf, bn, " %s the resume from step %ld back to %ld", at == back ? "after" : "before",
			 step[at - 1], step[at]);
}

/* The finding for one group of positions [members]. */
static void cross_finding(const struct run *run, const struct cross *x, const size_t *g, size_t ng,
			  struct finding_list *out)
{
	bool in[NAXES] = { false };
	size_t peak = g[0];
	double best = 0;
	for (size_t j = 0; j < ng; j++) {
		for (int a = 0; a < NAXES; a++)
			in[a] |= x->axis[a] && x->flag[a][g[j]];
		double l = x->have[AX_LOSS][g[j]] ? x->val[AX_LOSS][g[j]] : 0.0;
		if (j == 0 || l > best) {
			best = l;
			peak = g[j];
		}
	}
	long lo = x->step[g[0]], hi = x->step[g[ng - 1]];
	char where[160], run_of[96] = "";
	if (!x->stitched)
		rules_which_run(x->step, x->n, g[0], g[ng - 1], run_of, sizeof(run_of));
	if (ng == 1)
		snprintf(where, sizeof(where), "step %ld%s", lo, run_of);
	else
		snprintf(where, sizeof(where), "steps %ld–%ld%s", lo, hi, run_of);
	char axes[96] = "", parts[256] = "";
	size_t nax = 0;
	for (int a = 0; a < NAXES; a++)
		if (in[a]) {
			nax++;
			snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), "%s%s", *axes ? ", " : "", axis_name[a]);
		}
	static const int part_order[] = { AX_LOSS, AX_GRAD, AX_TIME, AX_MEM };
	for (size_t k = 0; k < ARRAY_LEN(part_order); k++) {
		int a = part_order[k];
		if (!in[a] || !x->have[a][peak])
			continue;
		double v = x->val[a][peak];
		size_t l = strlen(parts);
		const char *sep = l ? ", " : "";
		if (a == AX_LOSS)
			snprintf(parts + l, sizeof(parts) - l, "%sloss=%.4g", sep, v);
		else if (a == AX_GRAD)
			snprintf(parts + l, sizeof(parts) - l, "%sgrad_norm=%.4g", sep, v);
		else if (a == AX_TIME)
			snprintf(parts + l, sizeof(parts) - l, "%sstep_time=%.1fms", sep, v * 1e3);
		else
			snprintf(parts + l, sizeof(parts) - l, "%salloc=%.0fMB", sep, v / MB);
	}
	long *steps = xmalloc(ng * sizeof(*steps));
	for (size_t j = 0; j < ng; j++)
		steps[j] = x->step[g[j]];
	struct evidence ev = rules_ev_steps(run, steps, ng);
	free(steps);
	char *title = xasprintf("Correlated instability at %s", where);
	char *detail = xasprintf("At %s, %zu independent axes spike simultaneously (%s): %s. Co-occurrence across "
				 "axes is strong evidence of a real optimization event, not noise.", where, nax, axes,
				 parts);
	char *fix = xasprintf("Inspect the LR schedule, gradient clipping, and the specific batch around "
			      "%s. A simultaneous loss + grad-norm spike usually means the update blew "
			      "up (LR too high / bad batch).", where);
	findings_add(out, "CROSS.CORRELATED_INSTABILITY", SEV_HIGH, title, detail, fix, ev);
	free(title);
	free(detail);
	free(fix);
}

/* The findings of the spikes found: positions where two axes or more spike, grouped
 * when less than 3 apart (natively not across a resume), at most 3 groups. */
static void cross_report(const struct run *run, const struct cross *x, struct finding_list *out)
{
	int naxes = 0;
	for (int a = 0; a < NAXES; a++)
		naxes += x->axis[a];
	size_t *hit = xmalloc(x->n * sizeof(*hit)), nhit = 0;
	for (size_t i = 0; naxes >= 2 && i < x->n; i++) {
		int k = 0;
		for (int a = 0; a < NAXES; a++)
			k += x->axis[a] && x->flag[a][i];
		if (k >= 2)
			hit[nhit++] = i;
	}
	size_t groups = 0, start = 0;
	for (size_t j = 1; j <= nhit && groups < 3; j++)
		if (j == nhit || hit[j] - hit[j - 1] > 2 || cross_rewind_in(x, hit[j - 1], hit[j])) {
			cross_finding(run, x, hit + start, j - start, out);
			groups++;
			start = j;
		}
	free(hit);
}

void rules_cross(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct timing *t = analysis_timing(run, 0);
	if (t->n < CROSS_MIN_STEPS)
		return;
	struct cross x;
	cross_init(run, &x, t);
	for (int a = 0; a < NAXES; a++) { /* axis 0 reads the step numbers the others' scans need */
		cross_values(run, t, &x, a, 0, x.n);
		struct resume_scan s = { 0 };
		if (x.axis[a])
			cross_spikes(&x, a, &s, 0, x.n);
		analysis_resume_scan_reset(&s);
	}
	cross_report(run, &x, out);
	cross_free(&x);
}

/* CROSS in slices: rank 0's timing, then per axis its values and its spike scan, each
 * ANALYSIS_SLICE positions at a time, then the report (what rules_cross does, in pieces). */
struct cross_job {
	void *prep;
	bool begun, spikes;
	int axis;
	size_t at;
	struct cross x;
	struct resume_scan scan;
};

void rules_cross_drop(void *state)
{
	struct cross_job *j = state;
	if (!j)
		return;
	rules_prep_drop(j->prep);
	if (j->begun)
		cross_free(&j->x);
	analysis_resume_scan_reset(&j->scan);
	free(j);
}

/* One slice of axis j->axis: values, then (when it has any) its spike scan. */
static void cross_axis_slice(struct run *run, const struct timing *t, struct cross_job *j)
{
	struct cross *x = &j->x;
	size_t hi = x->n - j->at < ANALYSIS_SLICE ? x->n : j->at + ANALYSIS_SLICE;
	if (j->spikes)
		cross_spikes(x, j->axis, &j->scan, j->at, hi);
	else
		cross_values(run, t, x, j->axis, j->at, hi);
	j->at = hi;
	if (hi < x->n)
		return;
	j->at = 0;
	if (!j->spikes && x->axis[j->axis]) {
		j->spikes = true;
		return;
	}
	analysis_resume_scan_reset(&j->scan);
	j->spikes = false;
	j->axis++;
}

bool rules_cross_slice(struct run *run, struct finding_list *out, void **state)
{
	struct cross_job *j = *state;
	if (!j)
		j = *state = xcalloc(1, sizeof(*j));
	if (!rules_prep_slice(run, &j->prep, analysis_timing_slice))
		return false;
	const struct timing *t = rules_have_steps(run) ? analysis_timing(run, 0) : NULL;
	if (t && t->n >= 8 && !j->begun) {
		cross_init(run, &j->x, t);
		j->begun = true;
		return false;
	}
	if (j->begun && j->axis < NAXES) {
		cross_axis_slice(run, t, j);
		return false;
	}
	if (j->begun)
		cross_report(run, &j->x, out);
	rules_cross_drop(j);
	*state = NULL;
	return true;
}

/* "step S" or "steps lo–hi". */
static void steps_text(char *buf, size_t n, long lo, long hi)
{
	if (lo == hi)
		snprintf(buf, n, "step %ld", lo);
	else
		snprintf(buf, n, "steps %ld–%ld", lo, hi);
}

void rules_cross_unjudged(struct run *run, struct not_judged *nj)
{
	if (!rules_have_steps(run) || rules_compat(run) || !steps_nrecords(run->steps, 0) ||
	    analysis_timing(run, 0)->n < CROSS_MIN_STEPS) /* too few records: rules_unjudged.c says so */
		return;
	const struct resume_gap *g = &analysis_convergence(run, 0)->gap;
	if (!g->nresumes)
		return;
	char at[64], many[64] = "", why[96];
	steps_text(at, sizeof(at), g->lo, g->hi);
	if (g->nresumes > 1)
		snprintf(many, sizeof(many), " in %zu records after %zu resumes, first", g->nrecords, g->nresumes);
	if (g->hist)
		snprintf(why, sizeof(why), "only %zu record%s below step %ld %s logged before it", g->hist,
			 g->hist == 1 ? "" : "s", g->to, g->hist == 1 ? "was" : "were");
	else
		snprintf(why, sizeof(why), "nothing was logged below step %ld before it", g->to);
	findings_unjudged_add(nj, "CROSS.CORRELATED_INSTABILITY",
			      "spikes (loss, grad-norm, correlated)%s at %s after the resume from step %ld back to %ld "
			      "(%zu record%s: %s, the spike tests need %d earlier records)", many, at, g->from, g->to,
			      g->nfirst, g->nfirst == 1 ? "" : "s", why, SPIKE_MIN_HIST);
}
