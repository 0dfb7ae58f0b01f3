/* SPDX-License-Identifier: MIT */
/* subsystem.c: the step family's registration (registry.h): the pytscope loader
 * (load.c), the views (views.c), the finding rules (rules.c) and the model's lifetime
 * (store.c). Traces add step records too (model/trace/load_steps.c). */
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/internal.h"

static const struct loader pytscope_loaders[] = {
	{ "pytscope", "pytscope run dir: steps.jsonl + run.json, or rank{k}/ subdirs (or a steps.jsonl file)",
	  pytscope_probe, pytscope_load },
};

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
	.free = steps_free,
};
