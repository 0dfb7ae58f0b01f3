/* SPDX-License-Identifier: MIT */
/* analysis_budget_text.c: the efficiency budget's words (analysis.h §6.5; the figures are
 * analysis_budget.c's): what a budget leaves out (time in phases of no line; natively the
 * records of a step beyond its first, several in a row, that MFU weighs as one step), why
 * MFU is n/a or efficiency not judged, the text of a share a rule judges (analysis.h BARS)
 * and why a rank or the run has no budget at all. */
#include "model/steps/internal.h"

#include <stdio.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/units.h"

const char *analysis_budget_left_out(const struct run *run, const struct budget *b, char *buf, size_t n)
{
	if (!(b->foreign > 0))
		return NULL;
	const char *name = steps_metric(run->steps, b->foreign_metric)->name;
	char safe[128], clip[96], secs[32];
	text_sanitize(name, strlen(name), safe, sizeof(safe), 0);
	text_clip(safe, 24, clip, sizeof(clip), true, 0);
	units_seconds(b->foreign, secs, sizeof(secs));
	double share = 100 * b->foreign / (b->wall + b->foreign);
	if (b->foreign_more)
		snprintf(buf, n, "%s of phases the budget does not weigh (%s and others; %.1f%% of the phase time)",
			 secs, clip, share);
	else
		snprintf(buf, n, "%s %s, a phase the budget does not weigh (%.1f%% of the phase time)", clip, secs,
			 share);
	return buf;
}

const char *analysis_budget_steps_text(const struct budget *b, char *buf, size_t n)
{
	if (b->steps == b->n)
		return NULL;
	snprintf(buf, n, "%zu in %zu records (records of one step in a row, micro-batches, are one step; MFU counts "
		 "the FLOPs per step %zu time%s)", b->steps, b->n, b->steps, b->steps == 1 ? "" : "s");
	return buf;
}

const char *analysis_budget_mfu_na(const struct budget *b)
{
	return b->mfu_na[0] ? b->mfu_na : BUDGET_NO_PEAK;
}

const char *analysis_budget_mfu_na_after(const struct budget *b)
{
	return !b->judged && strcmp(analysis_budget_unjudged(b), analysis_budget_mfu_na(b)) == 0 ? ""
											: analysis_budget_mfu_na(b);
}

const char *analysis_budget_unjudged(const struct budget *b)
{
	return b->line[BUDGET_USEFUL].measured ? "only compute is recorded (no data, comm or other phase)"
					       : "no compute phase is recorded";
}

const char *analysis_budget_share_text(const struct budget *b, int line, int prec, char *buf, size_t n)
{
	double bars[4];
	size_t nb = 0;
	if (line == BUDGET_DATA) { /* the data share, as TIMING.DATALOADER_BOUND's */
		bars[nb++] = BAR_DATA;
		bars[nb++] = BAR_DATA_HIGH;
	} else if (line == BUDGET_COMM) { /* the comm share, as DIST.COMM_BOUND's */
		bars[nb++] = BAR_COMM;
		bars[nb++] = BAR_COMM_HIGH;
	}
	if (b->nrecoverable && line == b->recoverable[0] && b->has_mfu) {
		bars[nb++] = BAR_RECOVERABLE_MFU;
	} else if (b->nrecoverable && line == b->recoverable[0]) {
		bars[nb++] = BAR_RECOVERABLE;
		bars[nb++] = BAR_RECOVERABLE_HIGH;
	}
	return analysis_share_text(b->line[line].fraction, bars, nb, prec, buf, n);
}

const char *analysis_budget_mfu_text(const struct budget *b, int prec, char *buf, size_t n)
{
	static const double bars[] = { BAR_MFU_HIGH, BAR_MFU };
	return analysis_share_text(b->mfu, bars, ARRAY_LEN(bars), prec, buf, n);
}

const char *analysis_budget_why_absent(struct run *run, long ri, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	size_t nranks = steps_nranks(m);
	if (ri < 0 && nranks == 1) /* the run is its one rank: its reason, naming it */
		ri = 0;
	size_t lo = ri < 0 ? 0 : (size_t)ri, hi = ri < 0 ? nranks : lo + 1, all = 0, after = 0;
	for (size_t r = lo; r < hi; r++)
		if (analysis_budget(run, r))
			return NULL;
	for (size_t r = lo; r < hi; r++) /* the first rank's phase value that is not a duration */
		if (analysis_budget_why_none(run, r, buf, n))
			return buf;
	for (size_t r = lo; r < hi; r++) {
		size_t k = steps_nrecords(m, r);
		all += k;
		after += k - analysis_warmup_start(run, k);
	}
	long wu = run->opts ? run->opts->warmup : 0L;
	char of[32] = "", whose[32] = "", past[48] = "", foreign[160]; /* whose: "rank 3: " */
	if (ri >= 0) {
		snprintf(of, sizeof(of), " of rank %d", steps_rank_id(m, lo));
		snprintf(whose, sizeof(whose), "rank %d: ", steps_rank_id(m, lo));
	}
	if (after < all)
		snprintf(past, sizeof(past), " after --warmup %ld", wu);
	if (!all && ri >= 0)
		snprintf(buf, n, "rank %d has no step record", steps_rank_id(m, lo));
	else if (!all)
		snprintf(buf, n, "this run has no step records");
	else if (!after)
		snprintf(buf, n, "all %zu record%s%s %s inside --warmup %ld (nothing left to analyse)", all,
			 all == 1 ? "" : "s", of, all == 1 ? "is" : "are", wu);
	else if (analysis_phases_foreign(run, ri, foreign, sizeof(foreign)))
		snprintf(buf, n, "%sno " ANALYSIS_PYTSCOPE_PHASES " phase recorded, only %s", whose, foreign);
	else
		snprintf(buf, n, "the %zu record%s%s%s ha%s no phase time (no phase, or every phase 0)", after,
			 after == 1 ? "" : "s", of, past, after == 1 ? "s" : "ve");
	return buf;
}

