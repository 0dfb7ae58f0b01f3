/* SPDX-License-Identifier: MIT */
/* compat.c: what pytscope 0.2.1 reads of a run, and of a pair in its diff, under --compat
 * pytscope (see compat.h). */
#include "model/compat.h"

#include <string.h>
#include "model/compare/compare.h"
#include "model/dirlist.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"

static bool compat_on(const struct run *run)
{
	return run->opts && run->opts->compat_pytscope;
}

bool compat_steps_from_trace(const struct run *run)
{
	return trace_steps_only(run);
}

/* The lowest rank's trace is one pytscope reads: named by --trace, or the run dir's own. */
static bool reads_trace(const struct run *run)
{
	if (!run->trace || !run->trace->n)
		return false;
	if (run->opts && run->opts->ntrace > 0)
		return true;
	return trace_pytscope_trace_of(run->trace->r[0]->path, run->path);
}

bool compat_reads_data(struct run *run)
{
	bool records = run->steps && steps_nranks(run->steps) > 0 && steps_nrecords(run->steps, 0) > 0;
	if (!compat_steps_from_trace(run) && (records || analysis_distributed(run)))
		return true;
	return reads_trace(run) && trace_pysum(run->trace, 0)->present;
}

bool compat_reads_nothing(struct run *run)
{
	return compat_on(run) && !compat_reads_data(run);
}

/* A view made from the step model: the steps family's, and the heatmap's cells (the one
 * grid a run pytscope reads can have is the steps'; DASF's is refused under --compat). */
static bool made_from_steps(const char *view)
{
	const struct view_def *vd = registry_view(view);
	if (vd && vd >= sub_steps.views && vd < sub_steps.views + sub_steps.nviews)
		return true;
	return strcmp(view, "heatmap_cells") == 0;
}

const char *compat_view_refusal(const struct run *run, const char *view)
{
	if (!view || !compat_on(run) || !compat_steps_from_trace(run) || !made_from_steps(view))
		return NULL;
	return "--compat pytscope: pytscope reads no steps from a trace (ProfilerStep steps left out)";
}

/* The directory of a source's file: its path up to the last '/' ("." for none), trailing
 * slashes dropped; length in *n. */
static const char *dir_part(const char *path, size_t *n)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*n = 1;
		return ".";
	}
	*n = (size_t)(slash - path);
	while (*n > 1 && path[*n - 1] == '/')
		(*n)--;
	return path;
}

bool compat_diff_layout(const struct run *run)
{
	const char *ref = run->path;
	size_t nref = dirlist_dir_len(run->path), nd;
	for (size_t i = 0; i < run->nsrc; i++)
		if (strcmp(run->src[i].path, run->path) == 0) /* the PATH is a file: its directory */
			ref = dir_part(run->path, &nref);
	bool any = false;
	for (size_t i = 0; i < run->nsrc; i++) {
		if (strcmp(run->src[i].format, "pytscope") != 0)
			continue;
		const char *dir = dir_part(run->src[i].path, &nd);
		if (nd != nref || strncmp(dir, ref, nd) != 0)
			return false;
		any = true;
	}
	return any;
}

bool compat_diff_refused(struct compare *c, bool report)
{
	if (strcmp(c->family, "steps") != 0)
		return false;
	bool compat = compat_on(c->a);
	if (!compare_has_steps(c))
		return report || compat;
	return compat && (!compat_diff_layout(c->a) || !compat_diff_layout(c->b));
}
