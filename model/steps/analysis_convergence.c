/* SPDX-License-Identifier: MIT */
/* analysis_convergence.c: pytscope's convergence analysis of one rank (analysis.h §6.3): loss
 * trend, divergence, best and final loss, loss and grad-norm spikes. */
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

static struct convergence *compute_convergence(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	struct convergence *c = xcalloc(1, sizeof(*c));
	size_t n = steps_nrecords(m, ri), w = analysis_warmup_start(run, n), cnt = n - w;
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
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->conv_done) {
		rc->conv = compute_convergence(run, ri);
		rc->conv_done = true;
	}
	return rc->conv;
}
