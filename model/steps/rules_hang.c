/* SPDX-License-Identifier: MIT */
/* rules_hang.c: natively (not under --compat pytscope), DIST.LOAD_IMBALANCE's hang when
 * pytscope's CV bar is not met (the median step is balanced) but one aligned step, or a
 * burst of them, alone lost 5% or more of the critical compute to imbalance (the rule's bar
 * for the run): a rank that hung there, which no straggler test sees (medians) nor, under
 * STALL_MIN_STEPS steps, the stall test. A burst is the aligned steps next to each other on
 * which the same rank is the critical one with at least HANG_RATIO times the other ranks'
 * mean compute (a hang at each: noise never doubles one rank's step); its cost is all of
 * theirs, never one step's share of it. The costliest burst, or single step, is named, but
 * not one a stall of that rank (DIST.TRANSIENT_STALL) holds part of: that finding names it.
 * Judged on STRAG_MIN_JUDGE aligned steps or more, as persistence is. Reads the
 * distributed analysis only (analysis.h). */
#include "model/steps/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include "model/steps/rules.h"
#include "model/units.h"
#include "model/xalloc.h"

#define HANG_RATIO 2.0

/* At aligned step s the critical rank hung: HANG_RATIO times the other ranks' mean compute. */
static bool hung(const struct distributed *d, const struct dist_step *s)
{
	double n = (double)d->world_size, others = (n * s->cmean - s->cmax) / (n - 1);
	return others > 0 && s->cmax >= HANG_RATIO * others;
}

/* Aligned steps a and the next, b, wait for the same hung rank. */
static bool hang_goes_on(const struct distributed *d, const struct dist_step *a, const struct dist_step *b)
{
	return a->critical == b->critical && hung(d, a) && hung(d, b);
}

/* A stall DIST.TRANSIENT_STALL reports holds part of aligned steps [lo, hi] on their rank. */
static bool stall_names(const struct distributed *d, size_t lo, size_t hi)
{
	const struct rank_stat *rs = &d->rank[d->step[lo].critical];
	return d->world_size >= STALL_MIN_RANKS && rs->stall_lo >= 0 && rs->stall_lo <= d->step[hi].step &&
	       rs->stall_hi >= d->step[lo].step;
}

/* The costliest burst [*lo, *hi] (aligned indexes) that no stall names, its imbalance
 * (the sum of cmax - cmean) returned, and the sum of cmax over the run into *sum_max. */
static double worst_burst(const struct distributed *d, size_t *lo, size_t *hi, double *sum_max)
{
	double worst = 0, cur = 0;
	size_t start = 0;
	*sum_max = 0;
	for (size_t k = 0; k < d->n_steps; k++) {
		*sum_max += d->step[k].cmax;
		if (k == 0 || !hang_goes_on(d, &d->step[k - 1], &d->step[k])) {
			start = k;
			cur = 0;
		}
		cur += d->step[k].cmax - d->step[k].cmean;
		if (cur > worst && !stall_names(d, start, k)) {
			worst = cur;
			*lo = start;
			*hi = k;
		}
	}
	return worst;
}

/* The words of burst [lo, hi] (aligned indexes) that lost `lost` % of the critical compute:
 * its title's subject into steps, its detail's first sentence (a new string). */
static char *burst_words(const struct distributed *d, size_t lo, size_t hi, double lost, char *steps, size_t n)
{
	const struct dist_step *s = &d->step[lo], *w = s;
	for (size_t k = lo; k <= hi; k++)
		w = d->step[k].cmax > w->cmax ? &d->step[k] : w;
	char took[32], med[32];
	units_seconds(w->cmax, took, sizeof(took));
	units_seconds(w->cmed, med, sizeof(med));
	int rank = d->rank[s->critical].rank;
	if (lo == hi) {
		snprintf(steps, n, "Step %ld alone", s->step);
		return xasprintf("At step %ld rank %d's compute took %s against a step median of %s: %.1f%% of the "
				 "run's critical compute was lost to imbalance at that step alone", s->step, rank, took,
				 med, lost);
	}
	snprintf(steps, n, "Steps %ld-%ld", s->step, d->step[hi].step);
	return xasprintf("Over steps %ld-%ld rank %d's compute took up to %s (step %ld, against a step median of "
			 "%s): %.1f%% of the run's critical compute was lost to imbalance over those %zu steps",
			 s->step, d->step[hi].step, rank, took, w->step, med, lost, hi - lo + 1);
}

void rules_hang(const struct distributed *d, struct finding_list *out)
{
	size_t lo = 0, hi = 0;
	double sum_max;
	if (d->n_steps < STRAG_MIN_JUDGE)
		return;
	double worst = worst_burst(d, &lo, &hi, &sum_max);
	if (!(sum_max > 0) || !(worst / sum_max * 100 >= 5))
		return;
	double lost = worst / sum_max * 100;
	size_t n = hi - lo + 1;
	char steps[64], unseen[128];
	char *detail = burst_words(d, lo, hi, lost, steps, sizeof(steps));
	if (n < STALL_MIN_STEPS)
		snprintf(unseen, sizeof(unseen), "the straggler tests (medians) and the stall test (%d steps or more) "
			 "do not see %s", STALL_MIN_STEPS, n == 1 ? "one step" : "a burst this short");
	else
		snprintf(unseen, sizeof(unseen), "the straggler tests (medians) do not see %zu steps", n);
	struct evidence ev = evidence_none(); /* the heatmap at the rank and the steps */
	ev.kind = EV_RANK;
	ev.rank = d->rank[d->step[lo].critical].rank;
	ev.step_lo = d->step[lo].step;
	ev.step_hi = d->step[hi].step;
	char *title = xasprintf("%s lost %.0f%% of critical compute waiting for rank %d", steps, lost, ev.rank);
	char *text = xasprintf("%s (%.1f%% over the run). The median step is balanced (median CV=%.2f): %s.", detail,
			       d->wall_frac_lost * 100, d->imbalance_cv, unseen);
	char *fix = xasprintf("Correlate %s with the rank's host logs (a checkpoint, GC, preemption, a storage or "
			      "network hang) and with its data phase there.", n == 1 ? "that step" : "those steps");
	findings_add(out, "DIST.LOAD_IMBALANCE", SEV_MED, title, text, fix, ev);
	free(fix);
	free(text);
	free(title);
	free(detail);
}
