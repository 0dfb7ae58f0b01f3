/* SPDX-License-Identifier: MIT */
/* analysis_budget_judge.c: what the efficiency budget (analysis_budget.c) can and cannot
 * say beyond its lines: its top recoverable line, natively not named while the compute
 * overhead, recoverable too, is unknown and could be the larger (analysis_budget_top), and
 * why a run has no whole-run budget (analysis_budget_all_why: a rank's phase value that is
 * not a duration, why no rank has a budget, or no rank measuring every line another does).
 * analysis.h says what each answer means. */
#include "model/steps/internal.h"

#include <stdio.h>
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"

int analysis_budget_top(const struct run *run, const struct budget *b)
{
	if (!b->nrecoverable)
		return -1;
	int top = b->recoverable[0];
	bool compat = run->opts && run->opts->compat_pytscope;
	const struct budget_line *u = &b->line[BUDGET_USEFUL];
	/* without MFU all compute counts as useful: the overhead in it is unknown, at most all
	 * of it (less: FLOPs at peak take some time), so a line of at least the compute is top */
	if (!compat && !b->has_mfu && u->measured && b->line[top].seconds < u->seconds)
		return -1;
	return top;
}

/* The name of the first line some rank's budget measures that the budget of rank index *ri
 * (the lowest with a budget) does not, NULL when it measures them all. */
static const char *line_lacked(struct run *run, size_t *ri)
{
	bool measured[BUDGET_NLINES] = { false };
	const struct budget *first = NULL;
	for (size_t r = steps_nranks(run->steps); r-- > 0;) {
		const struct budget *b = analysis_budget(run, r);
		for (int i = 0; b && i < BUDGET_NLINES; i++)
			measured[i] |= b->line[i].measured;
		if (b) {
			first = b;
			*ri = r;
		}
	}
	for (int i = 0; first && i < BUDGET_NLINES; i++)
		if (measured[i] && !first->line[i].measured)
			return first->line[i].name;
	return NULL;
}

const char *analysis_budget_all_why(struct run *run, char *buf, size_t n)
{
	if (!run->steps || !steps_nranks(run->steps)) {
		snprintf(buf, n, "no pytscope steps in this run");
		return buf;
	}
	if (analysis_budget_all(run))
		return NULL;
	for (size_t r = 0; r < steps_nranks(run->steps); r++) /* not the other ranks' sum as the run's */
		if (analysis_budget_why_none(run, r, buf, n))
			return buf;
	if (analysis_budget_why_absent(run, -1, buf, n)) /* no rank has a budget */
		return buf;
	size_t ri = 0;
	const char *line = line_lacked(run, &ri);
	snprintf(buf, n, "no rank measures every line another rank measures (rank %d: no %s; a phase a rank does not "
		 "record is not 0 s of it)", steps_rank_id(run->steps, ri), line ? line : "line");
	return buf;
}
