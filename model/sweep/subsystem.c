/* SPDX-License-Identifier: MIT */
/* subsystem.c: the sweep family's registration (registry.h): loaders GenAI-Perf
 * (load_genai*.c), NAT (load_nat.c) and Cerebras (load_cerebras.c), the views
 * (views.c), the finding rules (rules.c) and the model's lifetime (store.c). */
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/internal.h"

static const struct loader sweep_loaders[] = {
	{ "genai-perf", "GenAI-Perf artifacts: *_genai_perf.{csv,json}, profile exports, "
			"analyze CSV, checkpoint.json", sweep_genai_probe, sweep_genai_load },
	{ "nat", "NeMo Agent Toolkit sizing: calc_runner_output.json", sweep_nat_probe, sweep_nat_load },
	{ "cerebras", "Cerebras Model Zoo performance.json", sweep_cb_probe, sweep_cb_load },
};

static const struct model_cmd sweep_cmds[] = {
	{ "objective", "METRIC:W,...",
	  "rank sweep configs by weighted metrics, e.g. ttft_p99:1,itl_p90:3 (empty clears)",
	  sweep_cmd_objective },
	{ "constraint", "EXPR|clear", "add a sweep constraint, e.g. ttft_p99<10 ('clear' removes all)",
	  sweep_cmd_constraint },
};

static bool sweep_has_data(const struct run *run)
{
	return run->sweep != NULL;
}

static const struct tab_def sweep_tabs[] = {
	{ 8, "Sweep", TAB_SWEEP, NULL, sweep_has_data, NULL },
};

const struct subsystem sub_sweep = {
	.name = "sweep",
	.loaders = sweep_loaders,
	.nloaders = ARRAY_LEN(sweep_loaders),
	.views = sweep_views,
	.nviews = SWEEP_NVIEWS,
	.rules = sweep_rules,
	.nrules = SWEEP_NRULES,
	.cmds = sweep_cmds,
	.ncmds = ARRAY_LEN(sweep_cmds),
	.tabs = sweep_tabs,
	.ntabs = ARRAY_LEN(sweep_tabs),
	.has_data = sweep_has_data,
	.free = sweep_free,
};
