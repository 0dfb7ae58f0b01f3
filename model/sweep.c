/* SPDX-License-Identifier: MIT */
/* sweep.c: GenAI-Perf sweeps, NeMo Agent Toolkit sizing, Cerebras performance.json. Registration of the sweep subsystem (loaders, views, rules). */
#include "model/registry.h"

const struct subsystem sub_sweep = {
	.name = "sweep",
};
