/* SPDX-License-Identifier: MIT */
/* subsystem.c: the step family's registration (registry.h): the pytscope loader
 * (load.c), the views (views.c), the finding rules (rules.c), the heatmap grids
 * (grid.c), the Ranks/Steps/Budget tabs, the headline summary, finalize and the model's
 * lifetime (store.c). Traces add step records too (model/trace/load_steps.c). */
#include <stdio.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/internal.h"

static const struct loader pytscope_loaders[] = {
	{ "pytscope", "pytscope run dir: steps.jsonl + run.json, or rank{k}/ subdirs (or a steps.jsonl file)",
	  pytscope_probe, pytscope_load },
};

static const struct grid_provider *const steps_grids[] = { &grid_steps };

/* Ranks, Steps and Budget only for runs with step records (never for a sweep), or
 * that may grow some (--follow). */
static bool steps_tab_show(const struct run *run)
{
	return (run->steps && steps_nranks(run->steps) > 0) || (run->opts && run->opts->follow);
}

static const struct tab_def steps_tabs[] = {
	{ 3, "Ranks", TAB_TABLE, "ranks", steps_tab_show, NULL },
	{ 4, "Steps", TAB_STEPS, NULL, steps_tab_show, "steps" },
	{ 5, "Budget", TAB_BUDGET, NULL, steps_tab_show, "budget" },
};

static void steps_fin(struct run *run)
{
	if (run->steps)
		steps_finalize(run->steps);
}

static bool steps_has_data(const struct run *run)
{
	return run->steps != NULL;
}

static void summary_distributed(struct run *run, struct summary *out)
{
	const struct distributed *d = analysis_distributed(run);
	if (!d)
		return;
	summary_add(out, TONE_NORMAL, "wall time", "%.4g s (mean step wall %.4g s x %zu aligned steps)",
		    d->mean_step_wall * (double)d->n_steps, d->mean_step_wall, d->n_steps);
	summary_add(out, TONE_NORMAL, "imbalance",
		    "%.1f%% of wall lost to imbalance; imbalance cv %.3f; comm %.1f%%",
		    d->wall_frac_lost * 100, d->imbalance_cv, d->mean_comm_fraction * 100);
	char line[SUMMARY_TEXT];
	analysis_straggler_line(d, line, sizeof(line));
	summary_add(out, d->nstragglers ? TONE_BAD : TONE_GOOD, "stragglers", "%s", line);
}

static void summary_budget(struct run *run, struct summary *out)
{
	const struct budget *b = analysis_budget(run, 0);
	if (!b)
		return;
	if (b->has_mfu)
		summary_add(out, TONE_NORMAL, "budget", "efficiency %.1f%% of %.4g s wall (rank %d); MFU %.1f%%%s%s%s",
			    b->efficiency * 100, b->wall, steps_rank_id(run->steps, 0), b->mfu * 100,
			    b->peak_table ? " (peak from GPU table: " : "", b->peak_table ? b->peak_table : "",
			    b->peak_table ? ")" : "");
	else /* without FLOPs "efficiency" would only be the compute share: say what it is */
		summary_add(out, TONE_NORMAL, "budget",
			    "compute %.1f%% of %.4g s wall (rank %d); MFU n/a: no FLOPs/peak (--flops-per-step, "
			    "--peak-tflops)",
			    b->efficiency * 100, b->wall, steps_rank_id(run->steps, 0));
	if (b->nrecoverable) {
		const struct budget_line *l = &b->line[b->recoverable[0]];
		summary_add(out, TONE_NORMAL, "top recoverable", "%s %.4g s (%.1f%%)", l->name, l->seconds,
			    l->fraction * 100);
	}
}

/* Ranks, aligned steps, wall time, imbalance, the straggler set and the budget. */
static void steps_summary(struct run *run, struct summary *out)
{
	const struct steps_model *m = run->steps;
	if (!m)
		return;
	if (!steps_nranks(m)) {
		summary_add(out, TONE_NORMAL, "ranks", "no per-rank step records");
		return;
	}
	summary_add(out, TONE_NORMAL, "ranks", "%zu", steps_nranks(m));
	summary_add(out, TONE_NORMAL, "steps", "%zu aligned across ranks, %zu distinct", steps_naligned(m),
		    steps_nunion(m));
	summary_distributed(run, out);
	summary_budget(run, out);
}

static void steps_free(struct run *run)
{
	steps_model_free(run->steps);
	run->steps = NULL;
}

const struct subsystem sub_steps = {
	.name = "steps",
	.loaders = pytscope_loaders,
	.nloaders = ARRAY_LEN(pytscope_loaders),
	.views = steps_views,
	.nviews = STEPS_NVIEWS,
	.rules = steps_rules,
	.nrules = STEPS_NRULES,
	.grids = steps_grids,
	.ngrids = ARRAY_LEN(steps_grids),
	.tabs = steps_tabs,
	.ntabs = ARRAY_LEN(steps_tabs),
	.finalize = steps_fin,
	.has_data = steps_has_data,
	.summary = steps_summary,
	.free = steps_free,
};
