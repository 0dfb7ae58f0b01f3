/* SPDX-License-Identifier: MIT */
/* kineto.c: PyTorch profiler (Kineto) Chrome traces. Registration of the trace subsystem (loaders, views, rules). */
#include "model/registry.h"

const struct subsystem sub_trace = {
	.name = "trace",
};
