/* SPDX-License-Identifier: MIT */
/* pytscope.c: pytscope run directories (steps.jsonl, run.json, rank{k}/). Registration of the steps subsystem (loaders, views, rules). */
#include "model/registry.h"

const struct subsystem sub_steps = {
	.name = "steps",
};
