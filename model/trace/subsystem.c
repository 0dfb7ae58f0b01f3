/* SPDX-License-Identifier: MIT */
/* subsystem.c: the trace family's registration (registry.h): loader "kineto" (load.c,
 * PyTorch profiler Chrome traces), views (views.c), the finding rule (rules.c) and the
 * model's lifetime. */
#include "model/registry.h"
#include "model/run.h"
#include "model/trace/internal.h"

static const struct loader trace_loaders[] = {
	{ "kineto", "PyTorch profiler (Kineto) Chrome traces: *.pt.trace.json[.gz], trace.json, rank dirs",
	  trace_probe, trace_load },
};

static bool trace_has_data(const struct run *run)
{
	return run->trace != NULL;
}

const struct subsystem sub_trace = {
	.name = "trace",
	.loaders = trace_loaders,
	.nloaders = ARRAY_LEN(trace_loaders),
	.views = trace_views,
	.nviews = TRACE_NVIEWS,
	.rules = trace_rules,
	.nrules = TRACE_NRULES,
	.has_data = trace_has_data,
	.free = trace_free,
};
