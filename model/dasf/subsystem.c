/* SPDX-License-Identifier: MIT */
/* subsystem.c: the DASF family's registration (registry.h): loader "dasf" (load.c),
 * views (views.c), finding rules (rules.c), the headline summary (a task time that is
 * n/a says why: tasks without a usable duration, Compute events skipped, sums that
 * overflow; a critical path other chains tie with says so), the load-time
 * checks at finalize (checks.c; none after a cancelled load) and the model's lifetime
 * (store.c); the summaries other modules read (dasf.h: dasf_summarize, the function
 * groups a comparison matches). */
#include "model/dasf/dasf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/text.h"
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

/* The longest host's span of Compute events, each host on its own clock. */
static double longest_span(const struct dasf_db *db)
{
	size_t nh = db->strs.n;
	double *lo = xmalloc((nh + 1) * sizeof(*lo)), *hi = xmalloc((nh + 1) * sizeof(*hi));
	bool *seen = xcalloc(nh + 1, 1);
	double span = 0;
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *t = &db->task[i];
		double end = t->ts + (isfinite(t->dur) && t->dur > 0 ? t->dur : 0);
		if (!isfinite(t->ts) || !isfinite(end))
			continue;
		if (!seen[t->host] || t->ts < lo[t->host])
			lo[t->host] = t->ts;
		if (!seen[t->host] || end > hi[t->host])
			hi[t->host] = end;
		seen[t->host] = true;
		span = fmax(span, hi[t->host] - lo[t->host]);
	}
	free(lo);
	free(hi);
	free(seen);
	return span;
}

size_t dasf_groups_count(const struct dasf_db *db)
{
	struct dasf_groups g;
	dasf_groups_build(db, &g);
	size_t n = g.n;
	dasf_groups_free(&g);
	return n;
}

void dasf_functions_text(const struct dasf_summary *s, char *buf, size_t n)
{
	int k = snprintf(buf, n, "%zu function%s", s->function_groups, s->function_groups == 1 ? "" : "s");
	if (k > 0 && (size_t)k < n && s->function_groups < s->functions)
		snprintf(buf + k, n - (size_t)k, " (%zu names)", s->functions);
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
		.other_events = db->other_events, .total_task_s = isfinite(an->total_dur) ? an->total_dur : NAN,
		.critical_len = an->ncritical, .span_s = longest_span(db), .function_groups = dasf_groups_count(db),
		.critical_tied = an->nlongest > an->ncritical ? an->nlongest : 0, .lost_tasks = db->lost,
	};
	for (size_t i = 0; i < an->ncritical; i++) /* every key on it has a task with a usable duration */
		out->critical_s += db->task[an->node_task[an->critical[i]]].dur;
	if (an->cycle_node != DASF_NONE || an->untimed_node != DASF_NONE || an->eventless_node != DASF_NONE ||
	    db->lost) {
		out->critical_s = NAN;
		out->critical_na = an->cycle_node != DASF_NONE       ? "a dependency cycle"
				   : an->untimed_node != DASF_NONE   ? "tasks without a usable duration"
				   : an->eventless_node != DASF_NONE ? "tasks without a Compute event"
								     : "Compute events that were skipped";
	} else if (!isfinite(out->critical_s)) {
		out->critical_s = NAN;
		out->critical_na = "task times that overflow";
	}
	free(hosts);
	free(workers);
	free(names);
	return true;
}

/* The group of a name whose first word is empty, as dask's key_split() names it. */
static const char key_split_other[] = "Other";

/* dask's key_split() rule on a function name s[0, n) (dasf.h): the length of the group's
 * name, a prefix of s; 0 when the first word is empty ("-neg,fn", "": dask's error case,
 * key_split_other, so that no group is an empty text, which reads as missing). */
static size_t key_split_len(const char *s, size_t n)
{
	const char *dash = memchr(s, '-', n);
	size_t len = dash ? (size_t)(dash - s) : n;
	while (len > 0 && len < n) {
		size_t w = len + 1, e = w, hex = 0;
		while (e < n && s[e] != '-' && ((s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z'))) {
			hex += (s[e] >= 'a' && s[e] <= 'f') || (s[e] >= 'A' && s[e] <= 'F');
			e++;
		}
		bool alpha = e > w && (e == n || s[e] == '-');
		if (!alpha || (e - w == 8 && hex == 8))
			break;
		len = e;
	}
	return len;
}

bool dasf_dur_usable(double d)
{
	return isfinite(d) && d >= 0;
}

bool dasf_lost_text(const struct dasf_db *db, char *buf, size_t n)
{
	if (db->lost == 1)
		snprintf(buf, n, "1 Compute event %s was skipped", db->lost_lacks);
	else if (db->lost)
		snprintf(buf, n, "%zu Compute events were skipped, the first %s", db->lost, db->lost_lacks);
	return db->lost > 0;
}

void dasf_groups_build(const struct dasf_db *db, struct dasf_groups *g)
{
	*g = (struct dasf_groups){ .group_of = xmalloc((db->strs.n + 1) * sizeof(*g->group_of)),
				   .stripped = xcalloc(db->strs.n + 1, 1),
				   .nnames = xcalloc(db->strs.n + 1, sizeof(*g->nnames)) };
	for (size_t i = 0; i < db->strs.n; i++)
		g->group_of[i] = DASF_NONE;
	for (size_t i = 0; i < db->ntask; i++) { /* group ids in first-seen order */
		uint32_t nm = db->task[i].name;
		if (g->group_of[nm] != DASF_NONE)
			continue;
		size_t n = db->strs.len[nm], len = key_split_len(db->strs.str[nm], n);
		uint32_t id = len ? dasf_intern(&g->names, db->strs.str[nm], len)
				  : dasf_intern(&g->names, key_split_other, sizeof(key_split_other) - 1);
		g->group_of[nm] = id;
		g->stripped[id] |= len < n || !len;   /* a token left out, or "Other" */
		g->nnames[id]++;
	}
	g->n = g->names.n;
}

void dasf_groups_free(struct dasf_groups *g)
{
	free(g->group_of);
	free(g->stripped);
	free(g->nnames);
	dasf_intern_free(&g->names);
	*g = (struct dasf_groups){ 0 };
}

size_t dasf_function_groups(struct run *run, struct dasf_fn_group **out)
{
	*out = NULL;
	const struct dasf_db *db = run->dasf;
	if (!db || !db->ntask)
		return 0;
	struct dasf_groups gr;
	dasf_groups_build(db, &gr);
	struct dasf_fn_group *g = xcalloc(gr.n + 1, sizeof(*g));
	for (size_t i = 0; i < db->ntask; i++)
		g[gr.group_of[db->task[i].name]].n += dasf_dur_usable(db->task[i].dur);
	for (size_t k = 0; k < gr.n; k++) {
		g[k] = (struct dasf_fn_group){ .name = xstrndup(gr.names.str[k], gr.names.len[k]),
					       .stripped = gr.stripped[k], .nnames = gr.nnames[k],
					       .dur = xmalloc((g[k].n + 1) * sizeof(double)) };
	}
	for (size_t i = 0; i < db->ntask; i++) {
		struct dasf_fn_group *x = &g[gr.group_of[db->task[i].name]];
		x->ntasks++;
		if (dasf_dur_usable(db->task[i].dur))
			x->dur[x->n++] = db->task[i].dur;
	}
	size_t ng = gr.n;
	dasf_groups_free(&gr);
	*out = g;
	return ng;
}

const char *dasf_group_mark(bool stripped)
{
	return stripped ? "-*" : "";
}

void dasf_fn_groups_free(struct dasf_fn_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].name);
		free(g[i].dur);
	}
	free(g);
}

bool dasf_cancelled(const struct dasf_db *db)
{
	return db->cancel && atomic_load(db->cancel);
}

/* After the load: the load-time checks (dasf_finalize), unless the load was cancelled (its
 * run is discarded); the loader's plan and the load's cancel flag are then done with. */
static void dasf_fin(struct run *run)
{
	struct dasf_db *db = run->dasf;
	if (!db)
		return;
	if (!dasf_cancelled(db))
		dasf_finalize(run);
	byteplan_free(&db->plan);
	db->cancel = NULL;
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

/* Records the views use: a database whose every record was bad, or that holds none of
 * these (only user-defined events), is no data (the run is empty: "nothing found"). */
static bool dasf_has_data(const struct run *run)
{
	const struct dasf_db *db = run->dasf;
	return db && (db->ntask || db->nmem || db->nres || db->res_no_gpu);
}

/* "12 s of task time", or why the task time is n/a: Compute events the loader skipped
 * (tasks whose time is unknown), the tasks without a usable duration (their time is unknown
 * too, so the sum of the others is no total) or a sum that overflows. */
static void task_time_text(const struct dasf_db *db, double total, char *buf, size_t n)
{
	if (isfinite(total)) {
		char num[32];
		snprintf(buf, n, "%s of task time", units_seconds(total, num, sizeof(num)));
		return;
	}
	size_t untimed = 0;
	for (size_t i = 0; i < db->ntask; i++)
		untimed += !dasf_dur_usable(db->task[i].dur);
	char lost[160];
	if (dasf_lost_text(db, lost, sizeof(lost))) /* first, as the rules' not-judged items say it */
		snprintf(buf, n, "task time n/a (%s)", lost);
	else if (untimed)
		snprintf(buf, n, "task time n/a (%zu of %zu tasks %s no usable duration)", untimed, db->ntask,
			 untimed == 1 ? "has" : "have");
	else
		snprintf(buf, n, "task time n/a (the task times overflow)");
}

/* ", leaving out 2 keys that have no task (Compute) event and start or end a chain ('x'
 * among them)": the critical path's loose keys (an input held before its dependents ran,
 * or a key the profile saw no task need), or "" without. */
static void loose_text(const struct dasf_db *db, char *buf, size_t n)
{
	const struct dasf_an *an = db->an;
	buf[0] = '\0';
	if (an->loose_node == DASF_NONE)
		return;
	char *key = text_sanitize_dup(db->keys.str[an->loose_node], 0);
	if (an->loose_nodes == 1)
		snprintf(buf, n, ", leaving out key '%s', which has no task (Compute) event and starts or ends a chain",
			 key);
	else
		snprintf(buf, n, ", leaving out %zu keys that have no task (Compute) event and start or end a chain "
			 "('%s' among them)", an->loose_nodes, key);
	free(key);
}

/* What was loaded and where to look. */
static void dasf_summary(struct run *run, struct summary *out)
{
	struct dasf_summary s;
	if (!dasf_summarize(run, &s) || !s.tasks)
		return;
	char task[192], crit[32], fns[64];
	dasf_functions_text(&s, fns, sizeof(fns));
	task_time_text(run->dasf, s.total_task_s, task, sizeof(task));
	summary_add(out, isfinite(s.total_task_s) ? TONE_NORMAL : TONE_WARN, "DASF tasks",
		    "%zu task%s, %s, %zu worker%s on %zu host%s; %s",
		    s.tasks, s.tasks == 1 ? "" : "s", fns, s.workers, s.workers == 1 ? "" : "s", s.hosts,
		    s.hosts == 1 ? "" : "s", task);
	char why[256];
	if (dasf_no_critical_text(run->dasf, why, sizeof(why))) {
		summary_add(out, TONE_WARN, "critical path", "n/a: %s (:view task_graph)", why);
		return;
	}
	if (s.critical_na) {
		summary_add(out, TONE_WARN, "critical path",
			    "n/a: the task times along it overflow (:view critical_path)");
		return;
	}
	loose_text(run->dasf, why, sizeof(why));
	if (s.critical_tied)
		summary_add(out, TONE_NORMAL, "critical path",
			    "%s over %zu task%s, one of several chains as long%s (%zu tasks lie on them: :view "
			    "task_graph; :view critical_path)", units_seconds(s.critical_s, crit, sizeof(crit)),
			    s.critical_len, s.critical_len == 1 ? "" : "s", why, s.critical_tied);
	else
		summary_add(out, TONE_NORMAL, "critical path",
			    "%s over %zu task%s%s (:view critical_path; :view function_bottleneck)",
			    units_seconds(s.critical_s, crit, sizeof(crit)), s.critical_len,
			    s.critical_len == 1 ? "" : "s", why);
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
	.view_has_data = dasf_view_has_data,
	.summary = dasf_summary,
	.finalize = dasf_fin,
	.free = dasf_free,
};
