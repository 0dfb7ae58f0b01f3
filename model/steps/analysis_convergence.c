/* SPDX-License-Identifier: MIT */
/* analysis_convergence.c: pytscope's convergence analysis of one rank (analysis.h §6.3): loss
 * trend, divergence, best and final loss, loss and grad-norm spikes; under --compat pytscope
 * one series across the runs of steps, as pytscope's.
 *
 * RESUMES. Natively a resume from a checkpoint (analysis_resumes_at: the step number goes
 * back, not a record logged one place late) starts a run of steps that continues the records
 * before it below the step it goes back to, except those a resume between them left
 * behind. The spike scans (analysis_spikes_feed, also CROSS.CORRELATED_INSTABILITY's) judge
 * the first records after a resume against that history, never against the records
 * logged again, and count the records still short of it (struct resume_gap: a restart at
 * step 0 has none); the loss trend is the trend of the run that continued (the records no
 * resume left behind), and a divergence that a resume left behind, with a finite loss after
 * it, is recovered. */
#include "model/steps/internal.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

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

/* How far back a resumed run's history is looked for, in records past the first it
 * continues (values missing there are no history). */
#define SEED_REACH 4096
#define NO_RECORD SIZE_MAX

bool analysis_resumes_at(const long *step, size_t n, size_t i)
{
	if (i == 0 || i >= n || step[i] >= step[i - 1])
		return false;
	bool late = (i == 1 || step[i - 2] < step[i]) && (i + 1 == n || step[i + 1] > step[i - 1]);
	return !late;
}

void analysis_resume_scan_reset(struct resume_scan *s)
{
	free(s->start);
	free(s->from);
	*s = (struct resume_scan){ 0 };
	stats_spikes_init(&s->scan);
}

static void resume_add(struct resume_scan *s, size_t r, size_t from)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->start = xrealloc(s->start, s->cap * sizeof(*s->start));
		s->from = xrealloc(s->from, s->cap * sizeof(*s->from));
	}
	s->start[s->n] = r;
	s->from[s->n++] = from;
}

/* The records after the resume at r that its history of `hist` records leaves unjudged
 * (up to the next resume), added to the gap. */
static void resume_gap_add(struct resume_gap *g, const long *step, size_t n, size_t r, size_t hist)
{
	size_t end = r + 1;
	while (end < n && end < r + SPIKE_MIN_HIST - hist && !analysis_resumes_at(step, n, end))
		end++;
	if (g->nresumes++ == 0)
		*g = (struct resume_gap){ .nresumes = 1, .from = step[r - 1], .to = step[r], .lo = step[r],
					  .hi = step[end - 1], .nfirst = end - r, .hist = hist };
	g->nrecords += end - r;
}

/* The history of the run resumed at record r: going back from r, the records below the
 * step of r and of every resume passed (the others were logged again or left behind),
 * jumping over what a resume passed left behind (s->from); its last 12 values (present,
 * finite) fed oldest first to a new scan, the nearest of those records kept in s->from
 * for later resumes. */
static void resume_seed(struct resume_scan *s, const double *v, const bool *present, const long *step, size_t n,
			size_t r)
{
	double got[STATS_SPIKE_WINDOW]; /* filled from the end: oldest first */
	bool unused[STATS_SPIKE_WINDOW];
	size_t ng = 0, taken = 0, seen = 0, from = NO_RECORD, k = s->n, q = r;
	long below = step[r];
	while (q > 0 && ng < STATS_SPIKE_WINDOW && seen < SEED_REACH) {
		q--;
		if (step[q] < below) {
			from = from == NO_RECORD ? q : from;
			taken++;
			if ((!present || present[q]) && isfinite(v[q]))
				got[STATS_SPIKE_WINDOW - ++ng] = v[q];
		}
		seen += from != NO_RECORD;
		while (k > 0 && s->start[k - 1] > q)
			k--;
		if (k > 0 && s->start[k - 1] == q) { /* what it left behind is at or above its step */
			below = step[q] < below ? step[q] : below;
			k--;
			q = s->from[k] == NO_RECORD ? 0 : s->from[k] + 1;
		}
	}
	stats_spikes_init(&s->scan);
	stats_spikes_feed(&s->scan, got + STATS_SPIKE_WINDOW - ng, NULL, 0, ng, unused);
	resume_add(s, r, from);
	if (taken < SPIKE_MIN_HIST)
		resume_gap_add(&s->gap, step, n, r, taken);
}

void analysis_spikes_feed(struct resume_scan *s, const double *v, const bool *present, const long *step, size_t n,
			  size_t i0, size_t i1, bool *flags)
{
	size_t from = i0;
	for (size_t i = i0 ? i0 : 1; step && i < i1; i++)
		if (analysis_resumes_at(step, n, i)) {
			stats_spikes_feed(&s->scan, v, present, from, i, flags);
			resume_seed(s, v, present, step, n, i);
			from = i;
		}
	stats_spikes_feed(&s->scan, v, present, from, i1, flags);
}

/* The convergence of a rank made in pieces: its records read in ranges, the trend,
 * then the loss spikes and the grad-norm spikes scanned in ranges. */
struct conv_job {
	struct analysis_job job;
	size_t ri, w, cnt, at, nf;
	int stage;                 /* 0 records, 1 trend, 2 loss spikes, 3 grad spikes */
	int loss, gn;
	bool stitched;             /* --compat pytscope: spikes over one series across resumes */
	struct convergence *c;
	double *finite, *g;
	bool *gp, *flags;
	long *steps;
	struct resume_scan scan;
};

static void conv_job_free(void *p)
{
	struct conv_job *j = p;
	if (!j)
		return;
	analysis_conv_free(j->c);
	free(j->finite);
	free(j->g);
	free(j->gp);
	free(j->flags);
	free(j->steps);
	analysis_resume_scan_reset(&j->scan);
	free(j);
}

static void *conv_begin(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct conv_job *j = xcalloc(1, sizeof(*j));
	j->job.free = conv_job_free;
	struct convergence *c = j->c = xcalloc(1, sizeof(*c));
	size_t n = steps_nrecords(m, ri), w = analysis_warmup_start(run, n), cnt = n - w;
	j->ri = ri;
	j->w = w;
	j->stitched = run->opts && run->opts->compat_pytscope;
	j->cnt = cnt;
	c->n_steps = cnt;
	c->diverged_at = -1;
	j->loss = steps_metric_find(m, METRIC_SCALAR, "loss");
	j->gn = steps_metric_find(m, METRIC_SCALAR, "grad_norm");
	c->loss = xmalloc((cnt ? cnt : 1) * sizeof(*c->loss));
	c->loss_step = xmalloc((cnt ? cnt : 1) * sizeof(*c->loss_step));
	j->finite = xmalloc((cnt ? cnt : 1) * sizeof(*j->finite));
	j->g = xmalloc((cnt ? cnt : 1) * sizeof(*j->g));
	j->gp = xcalloc(cnt ? cnt : 1, sizeof(*j->gp));
	j->steps = xmalloc((cnt ? cnt : 1) * sizeof(*j->steps));
	j->flags = xmalloc((cnt ? cnt : 1) * sizeof(*j->flags));
	return j;
}

/* Records [at, at + k) after the warm-up. */
static void conv_records(const struct steps_model *m, struct conv_job *j, size_t end)
{
	struct convergence *c = j->c;
	for (size_t i = j->at; i < end; i++) {
		j->steps[i] = steps_step(m, j->ri, j->w + i);
		j->gp[i] = steps_value(m, j->ri, j->gn, j->w + i, &j->g[i]);
		c->has_grad_norm |= j->gp[i];
		double v;
		if (!steps_value(m, j->ri, j->loss, j->w + i, &v))
			continue;
		c->loss[c->nloss] = v;
		c->loss_step[c->nloss++] = j->steps[i];
		if (isfinite(v))
			j->finite[j->nf++] = v;
		else if (c->diverged_at < 0) {
			c->diverged_at = j->steps[i];
			c->diverged_pos = c->nloss - 1;
		}
	}
}

/* Natively, the run that continued: the losses no later resume left behind (a resume
 * leaves behind the records before it at or above its step), the finite ones in order
 * into j->finite[*at..nf) (j->finite holds every finite loss before), the first
 * non-finite one NO_RECORD when none. */
static size_t conv_continued(struct conv_job *j, size_t *at)
{
	const struct convergence *c = j->c;
	long below = LONG_MAX;
	size_t bad = NO_RECORD, k = j->nf;
	for (size_t i = c->nloss; i-- > 0;) {
		if (c->loss_step[i] < below && isfinite(c->loss[i]))
			j->finite[--k] = c->loss[i];
		else if (c->loss_step[i] < below) /* going back: the first one last */
			bad = i;
		if (analysis_resumes_at(c->loss_step, c->nloss, i) && c->loss_step[i] < below)
			below = c->loss_step[i];
	}
	*at = k;
	return bad;
}

/* Natively, where the loss diverged: in the run that continued (its first non-finite
 * loss), else recovered: in a run a later resume left behind, the first resume after it
 * that goes back to its step or below. */
static void conv_diverged(struct convergence *c, size_t bad)
{
	if (bad != NO_RECORD) {
		c->diverged_pos = bad;
		c->diverged_at = c->loss_step[bad];
		return;
	}
	c->recovered = true;
	for (size_t i = c->diverged_pos + 1; i < c->nloss; i++)
		if (analysis_resumes_at(c->loss_step, c->nloss, i) && c->loss_step[i] <= c->diverged_at) {
			c->left_from = c->loss_step[i - 1];
			c->left_to = c->loss_step[i];
			return;
		}
}

static void conv_trend(struct conv_job *j)
{
	struct convergence *c = j->c;
	double *finite = j->finite;
	size_t nf = j->nf, at = 0, bad = NO_RECORD;
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
	if (!j->stitched)
		bad = conv_continued(j, &at);
	if (!j->stitched && c->diverged)
		conv_diverged(c, bad);
	c->trend = c->diverged && !c->recovered ? "diverged" : trend_of(finite + at, nf - at);
}

/* At most k more records of work (k: all of them for the whole call); true when the
 * convergence is complete in j->c. */
static bool conv_feed(const struct steps_model *m, void *job, size_t k)
{
	struct conv_job *j = job;
	struct convergence *c = j->c;
	size_t total = j->stage == 0 ? j->cnt : j->stage == 2 ? c->nloss : j->cnt;
	size_t end = j->stage == 1 || total - j->at < k ? total : j->at + k;
	switch (j->stage) {
	case 0:
		conv_records(m, j, end);
		break;
	case 1:
		conv_trend(j);
		break;
	case 2:
		analysis_spikes_feed(&j->scan, c->loss, NULL, j->stitched ? NULL : c->loss_step, c->nloss, j->at, end,
				     j->flags);
		break;
	default:
		analysis_spikes_feed(&j->scan, j->g, j->gp, j->stitched ? NULL : j->steps, j->cnt, j->at, end,
				     j->flags);
		break;
	}
	j->at = end;
	if (j->stage != 1 && end < total)
		return false;
	if (j->stage == 2)
		c->loss_spikes = flagged_steps(j->flags, c->loss_step, c->nloss, &c->nloss_spikes);
	if (j->stage == 3) {
		c->grad_spikes = flagged_steps(j->flags, j->steps, j->cnt, &c->ngrad_spikes);
		c->gap = j->scan.gap; /* over every record, loss or not */
	}
	j->stage++;
	j->at = 0;
	analysis_resume_scan_reset(&j->scan);
	return j->stage == 4;
}

static bool conv_done(const struct rank_cache *rc)
{
	return rc->conv_done;
}

static void conv_keep(struct rank_cache *rc, void *job)
{
	struct conv_job *j = job;
	rc->conv = j->c;
	rc->conv_done = true;
	j->c = NULL;
	conv_job_free(j);
}

static const struct analysis_pieces conv_pieces = { conv_done, conv_begin, conv_feed, conv_keep };

const struct convergence *analysis_convergence(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_pieces_whole(run, ri, &conv_pieces);
	return rc ? rc->conv : NULL;
}

bool analysis_convergence_slice(struct run *run, size_t ri, void **job)
{
	return analysis_pieces_slice(run, ri, job, &conv_pieces);
}
