/* SPDX-License-Identifier: MIT */
/* subsystem.c: the DASF family's registration (registry.h): loader "dasf" (load.c),
 * views (views.c), finding rules (rules.c), the headline summary and the model's
 * lifetime (store.c). */
#include "model/dasf/dasf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/units.h"
#include "model/xalloc.h"

/* Count distinct values of a 64-bit key. */
static size_t count_distinct(const uint64_t *v, size_t n)
{
	struct dasf_map m = { 0 };
	for (size_t i = 0; i < n; i++)
		dasf_map_get_or_add(&m, v[i], 0);
	size_t c = m.n;
	dasf_map_free(&m);
	return c;
}

bool dasf_summarize(struct run *run, struct dasf_summary *out)
{
	memset(out, 0, sizeof(*out));
	struct dasf_db *db = run->dasf;
	if (!db)
		return false;
	const struct dasf_an *an = dasf_analyse(db);
	size_t n = db->ntask + db->nmem + db->nres;
	uint64_t *hosts = xmalloc((n + 1) * sizeof(*hosts)), *workers = xmalloc((n + 1) * sizeof(*workers));
	uint64_t *names = xmalloc((db->ntask + 1) * sizeof(*names));
	size_t nw = 0, nh = 0;
	for (size_t i = 0; i < db->ntask; i++) {
		hosts[nh++] = db->task[i].host;
		workers[nw++] = (uint64_t)db->task[i].host << 32 | db->task[i].thread;
		names[i] = db->task[i].name;
	}
	for (size_t i = 0; i < db->nmem; i++) {
		hosts[nh++] = db->mem[i].host;
		workers[nw++] = (uint64_t)db->mem[i].host << 32 | db->mem[i].thread;
	}
	for (size_t i = 0; i < db->nres; i++)
		hosts[nh++] = db->res[i].host;
	*out = (struct dasf_summary){
		.files = db->nfiles, .tasks = db->ntask, .functions = count_distinct(names, db->ntask),
		.workers = count_distinct(workers, nw), .hosts = count_distinct(hosts, nh),
		.mem_events = db->nmem, .gpu_samples = db->nres, .cpu_only_samples = db->res_no_gpu,
		.other_events = db->other_events, .total_task_s = an->total_dur,
		.critical_len = an->ncritical,
	};
	for (size_t i = 0; i < an->ncritical; i++) {
		uint32_t ti = an->node_task[an->critical[i]];
		double d = ti == DASF_NONE ? 0 : db->task[ti].dur;
		out->critical_s += isfinite(d) && d > 0 ? d : 0;
	}
	free(hosts);
	free(workers);
	free(names);
	return true;
}

static void dasf_free(struct run *run)
{
	dasf_db_free(run->dasf);
	run->dasf = NULL;
}

static const struct loader dasf_loaders[] = {
	{ "dasf", "DASF EventProfiler databases (*.msgpack, length-prefixed MessagePack) and legacy "
		  "`trace: {json}` text", dasf_probe, dasf_load, false },
};

static const struct grid_provider *const dasf_grids[] = { &grid_dasf };

static bool dasf_has_data(const struct run *run)
{
	return run->dasf != NULL;
}

/* What was loaded and where to look. */
static void dasf_summary(struct run *run, struct summary *out)
{
	struct dasf_summary s;
	if (!dasf_summarize(run, &s) || !s.tasks)
		return;
	char task[32], crit[32];
	summary_add(out, TONE_NORMAL, "DASF tasks",
		    "%zu task%s, %zu function%s, %zu worker%s on %zu host%s; %s of task time", s.tasks,
		    s.tasks == 1 ? "" : "s", s.functions, s.functions == 1 ? "" : "s", s.workers, s.workers == 1 ? "" : "s",
		    s.hosts, s.hosts == 1 ? "" : "s", units_seconds(s.total_task_s, task, sizeof(task)));
	summary_add(out, TONE_NORMAL, "critical path",
		    "%s over %zu task%s (:view critical_path; :view function_bottleneck)",
		    units_seconds(s.critical_s, crit, sizeof(crit)), s.critical_len, s.critical_len == 1 ? "" : "s");
}

const struct subsystem sub_dasf = {
	.name = "dasf",
	.loaders = dasf_loaders,
	.nloaders = ARRAY_LEN(dasf_loaders),
	.views = dasf_views,
	.nviews = DASF_NVIEWS,
	.rules = dasf_rules,
	.nrules = DASF_NRULES,
	.unjudged = dasf_unjudged,
	.grids = dasf_grids,
	.ngrids = ARRAY_LEN(dasf_grids),
	.has_data = dasf_has_data,
	.summary = dasf_summary,
	.free = dasf_free,
};
