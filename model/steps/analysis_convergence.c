/* SPDX-License-Identifier: MIT */
/* analysis_convergence.c: pytscope's convergence analysis of one rank (analysis.h §6.3): loss
 * trend, divergence, best and final loss, loss and grad-norm spikes; the spikes are judged
 * per run of steps (analysis_spikes_feed: not across a resume that logs steps again), one
 * series across the runs under --compat pytscope. */
#include "model/steps/internal.h"

#include <math.h>
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

void analysis_spikes_feed(struct spike_scan *s, const double *v, const bool *present, const long *step,
			  size_t i0, size_t i1, bool *flags)
{
	size_t from = i0;
	for (size_t i = i0 ? i0 : 1; step && i < i1; i++)
		if (step[i] < step[i - 1]) {
			stats_spikes_feed(s, v, present, from, i, flags);
			stats_spikes_init(s);
			from = i;
		}
	stats_spikes_feed(s, v, present, from, i1, flags);
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
	struct spike_scan scan;
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
		else if (c->diverged_at < 0)
			c->diverged_at = j->steps[i];
	}
}

static void conv_trend(struct conv_job *j)
{
	struct convergence *c = j->c;
	double *finite = j->finite;
	size_t nf = j->nf;
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
		analysis_spikes_feed(&j->scan, c->loss, NULL, j->stitched ? NULL : c->loss_step, j->at, end, j->flags);
		break;
	default:
		analysis_spikes_feed(&j->scan, j->g, j->gp, j->stitched ? NULL : j->steps, j->at, end, j->flags);
		break;
	}
	j->at = end;
	if (j->stage != 1 && end < total)
		return false;
	if (j->stage == 2)
		c->loss_spikes = flagged_steps(j->flags, c->loss_step, c->nloss, &c->nloss_spikes);
	if (j->stage == 3)
		c->grad_spikes = flagged_steps(j->flags, j->steps, j->cnt, &c->ngrad_spikes);
	j->stage++;
	j->at = 0;
	stats_spikes_init(&j->scan);
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
