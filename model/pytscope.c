/* SPDX-License-Identifier: MIT */
/* pytscope.c: pytscope run directories (steps.jsonl, run.json, rank{k}/). Registration of the steps subsystem (loaders, views, rules). */
#include "model/registry.h"
#include "model/run.h"
#include "model/steps.h"

static void steps_free(struct run *run)
{
	steps_model_free(run->steps);
	run->steps = NULL;
}

const struct subsystem sub_steps = {
	.name = "steps",
	.free = steps_free,
};
