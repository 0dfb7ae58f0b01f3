/* SPDX-License-Identifier: MIT */
/* views.c: the DASF family's views, built from the memoized analyses (analysis.c).
 * Column names of
 * function_bottleneck, task_bottleneck and task_balance are DASF's own, so `--export`
 * writes the same CSV columns as `python -m dasf.profile.analysis` (without pandas'
 * unnamed index column). task_graph's Critical is yes or no, yes on every chain that ties
 * for the longest (the titles say so), missing when there is no critical path (its title
 * then says why). */
#include "model/dasf/dasf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/text.h"
#include "model/xalloc.h"

#define CLOCK_NOTE "times are seconds of each host's monotonic clock, not comparable across hosts"

static const char *str_of(const struct dasf_intern *in, uint32_t id)
{
	return id == DASF_NONE ? NULL : in->str[id];
}

static struct dasf_db *db_for(struct run *run, char *err, size_t errn)
{
	if (!run->dasf || !run->dasf->ntask) {
		snprintf(err, errn, "no DASF Compute events loaded");
		return NULL;
	}
	dasf_analyse(run->dasf);
	return run->dasf;
}

/* Host and GPU (last '-' part of thread_id) cells. */
static void set_worker(struct table *t, size_t r, int c_host, int c_gpu, const struct dasf_db *db,
		       uint32_t host, uint32_t thread)
{
	table_set_text(t, r, c_host, str_of(&db->strs, host));
	table_set_text(t, r, c_gpu, dasf_gpu_of(str_of(&db->strs, thread)));
}

static struct table *function_bottleneck_rows(struct run *run, size_t max, size_t *total, char *err, size_t errn)
{
	struct dasf_db *db = db_for(run, err, errn);
	if (!db)
		return NULL;
	const struct dasf_an *an = db->an;
	struct table *t = table_new("function_bottleneck",
				    "Function bottleneck (DASF): time per function and worker");
	int c_host = table_add_col(t, "Host", COL_TEXT, 12, 0);
	int c_gpu = table_add_col(t, "GPU", COL_TEXT, 4, 0);
	int c_fn = table_add_col(t, "Function", COL_TEXT, 32, 0);
	table_set_role(t, c_fn, COL_ROLE_NAME);
	int c_dur = table_add_col(t, "Duration (s)", COL_NUM, 12, 6);
	int c_pct = table_add_col(t, "Percentage of total time (%)", COL_NUM, 8, 2);
	int c_util = table_add_col(t, "Mean GPU Utilization (%)", COL_NUM, 8, 1);
	int c_mem = table_add_col(t, "Mean GPU Memory Used (GB)", COL_NUM, 8, 3);
	int c_data = table_add_col(t, "Mean Data Size (MB)", COL_NUM, 10, 3);
	int c_thr = table_add_col(t, "Mean Throughput (MB/s)", COL_NUM, 10, 5);
	int c_n = table_add_col(t, "Num Tasks (chunks)", COL_INT, 8, 0);
	int c_mean = table_add_col(t, "Mean Task time (s)", COL_NUM, 10, 6);
	*total = an->nfn;
	for (size_t i = 0; i < an->nfn && i < max; i++) {
		const struct dasf_fn_row *f = &an->fn[i];
		size_t r = table_add_row(t, (long)i);
		set_worker(t, r, c_host, c_gpu, db, f->host, f->thread);
		table_set_text(t, r, c_fn, str_of(&db->strs, f->name));
		table_set_num_opt(t, r, c_dur, f->dur, isfinite(f->dur)); /* an overflowing sum: missing */
		table_set_num_opt(t, r, c_pct, f->pct, !isnan(f->pct));
		table_set_num_opt(t, r, c_util, f->util, f->nres > 0);
		table_set_num_opt(t, r, c_mem, f->mem_gb, f->nmem > 0);
		table_set_num(t, r, c_data, f->data_mb);
		table_set_num_opt(t, r, c_thr, f->thr_mbs, f->nthr > 0);
		table_set_num(t, r, c_n, (double)f->ntasks);
		table_set_num_opt(t, r, c_mean, f->mean_s, !isnan(f->mean_s));
	}
	return t;
}

static struct table *task_bottleneck_rows(struct run *run, size_t max, size_t *total, char *err, size_t errn)
{
	struct dasf_db *db = db_for(run, err, errn);
	if (!db)
		return NULL;
	const struct dasf_an *an = db->an;
	struct table *t = table_new("task_bottleneck", "Task bottleneck (DASF): time per task key and worker");
	int c_host = table_add_col(t, "Host", COL_TEXT, 12, 0);
	int c_gpu = table_add_col(t, "GPU", COL_TEXT, 4, 0);
	int c_key = table_add_col(t, "Task Key", COL_TEXT, 40, 0);
	int c_dur = table_add_col(t, "Duration (s)", COL_NUM, 12, 6);
	int c_pct = table_add_col(t, "Percentage of total time (%)", COL_NUM, 8, 2);
	int c_mem = table_add_col(t, "Memory usage (Mb)", COL_NUM, 10, 3);
	*total = an->ntb;
	for (size_t i = 0; i < an->ntb && i < max; i++) {
		const struct dasf_tb_row *b = &an->tb[i];
		size_t r = table_add_row(t, (long)i);
		set_worker(t, r, c_host, c_gpu, db, b->host, b->thread);
		table_set_text(t, r, c_key, str_of(&db->keys, b->key));
		table_set_num_opt(t, r, c_dur, b->dur, isfinite(b->dur));
		table_set_num_opt(t, r, c_pct, b->pct, !isnan(b->pct));
		table_set_num_opt(t, r, c_mem, (double)an->last_size[b->key] / 1e6, an->has_last_size[b->key]);
	}
	return t;
}

static struct table *task_balance_rows(struct run *run, size_t max, size_t *total, char *err, size_t errn)
{
	if (!run->dasf || !run->dasf->nmem) {
		snprintf(err, errn, "no DASF Managed Memory events loaded");
		return NULL;
	}
	const struct dasf_an *an = dasf_analyse(run->dasf);
	if (an->bal_too_big) {
		snprintf(err, errn, "%zu seconds x %zu workers is too large a table", an->nsec, an->nbal_thr);
		return NULL;
	}
	struct table *t = table_new("task_balance",
				    "Task balance (DASF): tasks in memory per worker, per second with events "
				    "(int(timestamp) - first; " CLOCK_NOTE ")");
	int c_sec = table_add_col(t, "Time Interval (seconds from begin)", COL_INT, 8, 0);
	for (size_t c = 0; c < an->nbal_thr; c++) {
		char *name = text_sanitize_dup(run->dasf->strs.str[an->bal_thread[c]], 0);
		table_add_col(t, name, COL_INT, 6, 0);
		free(name);
	}
	*total = an->nsec;
	for (size_t r = 0; r < an->nsec && r < max; r++) {
		size_t row = table_add_row(t, (long)r);
		table_set_num(t, row, c_sec, (double)(an->bal_sec[r] - an->bal_sec[0]));
		for (size_t c = 0; c < an->nbal_thr; c++) /* DASF fills a missing worker with 0 */
			table_set_num(t, row, c_sec + 1 + (int)c, (double)an->bal_tasks[r * an->nbal_thr + c]);
	}
	return t;
}

/* Per-host first Compute timestamp (strs-indexed), for offsets on each host's clock. */
static double *host_starts(const struct dasf_db *db)
{
	double *start = xmalloc((db->strs.n + 1) * sizeof(*start));
	for (size_t i = 0; i < db->strs.n; i++)
		start[i] = INFINITY;
	for (size_t i = 0; i < db->ntask; i++)
		if (isfinite(db->task[i].ts) && db->task[i].ts < start[db->task[i].host])
			start[db->task[i].host] = db->task[i].ts;
	return start;
}

struct node_cols {
	int key, fn, host, gpu, dur, input, thr;
};

/* Columns shared by task_graph and critical_path for one node. */
static void set_node(struct table *t, size_t r, const struct node_cols *c, const struct dasf_db *db,
		     uint32_t v)
{
	const struct dasf_an *an = db->an;
	table_set_text(t, r, c->key, db->keys.str[v]);
	uint32_t ti = an->node_task[v];
	if (ti != DASF_NONE) {
		const struct dasf_task *k = &db->task[ti];
		table_set_text(t, r, c->fn, str_of(&db->strs, k->name));
		set_worker(t, r, c->host, c->gpu, db, k->host, k->thread);
		table_set_num_opt(t, r, c->dur, k->dur, dasf_dur_usable(k->dur));
	}
	table_set_num(t, r, c->input, an->input_size[v] / 1e6);
	table_set_num_opt(t, r, c->thr, an->throughput[v] / 1e6, an->has_thr[v]);
}

static struct node_cols add_node_cols(struct table *t)
{
	struct node_cols c;
	c.key = table_add_col(t, "Task Key", COL_TEXT, 40, 0);
	c.fn = table_add_col(t, "Function", COL_TEXT, 24, 0);
	table_set_role(t, c.fn, COL_ROLE_NAME);
	c.host = table_add_col(t, "Host", COL_TEXT, 12, 0);
	c.gpu = table_add_col(t, "GPU", COL_TEXT, 4, 0);
	c.dur = table_add_col(t, "Duration (s)", COL_NUM, 12, 6);
	c.input = table_add_col(t, "Input Data Size (MB)", COL_NUM, 10, 3);
	c.thr = table_add_col(t, "Throughput (MB/s)", COL_NUM, 10, 5);
	return c;
}

/* task_graph's title into buf; false when there is no critical path (the title says why):
 * then Critical is missing, not "no". Chains that tie for the longest are said. */
static bool task_graph_title(const struct dasf_db *db, char *buf, size_t n)
{
	char why[256];
	bool no_path = dasf_no_critical_text(db, why, sizeof(why));
	bool tied = !no_path && db->an->nlongest > db->an->ncritical;
	snprintf(buf, n, "Annotated task graph (DASF): one row per task key; " CLOCK_NOTE "%s%s%s",
		 no_path ? "; Critical not judged, no critical path: " : "", no_path ? why : "",
		 tied ? "; chains tie for the critical path: Critical is yes on each of them" : "");
	return !no_path;
}

static struct table *build_task_graph(struct run *run, char *err, size_t errn)
{
	struct dasf_db *db = db_for(run, err, errn);
	if (!db)
		return NULL;
	const struct dasf_an *an = db->an;
	char title[512];
	bool has_path = task_graph_title(db, title, sizeof(title));
	struct table *t = table_new("task_graph", title);
	struct node_cols c = add_node_cols(t);
	int c_size = table_add_col(t, "Size (MB)", COL_NUM, 10, 3);
	int c_ts = table_add_col(t, "Timestamp (s, host clock)", COL_NUM, 14, 6);
	int c_off = table_add_col(t, "Offset on host (s)", COL_NUM, 10, 6);
	int c_pred = table_add_col(t, "Dependencies", COL_INT, 6, 0);
	int c_succ = table_add_col(t, "Dependents", COL_INT, 6, 0);
	int c_crit = table_add_col(t, "Critical", COL_TEXT, 4, 0);
	table_col_doc(t, c_crit, "yes or no: on a longest dependency chain by duration (the critical path, or a chain "
		      "as long) or not; missing when there is no critical path (the title says why); ");
	double *start = host_starts(db);
	for (uint32_t v = 0; v < db->keys.n; v++) {
		size_t r = table_add_row(t, (long)v);
		set_node(t, r, &c, db, v);
		uint32_t ti = an->node_task[v];
		if (ti != DASF_NONE) {
			const struct dasf_task *k = &db->task[ti];
			table_set_num_opt(t, r, c_size, (double)k->size / 1e6, k->has_size);
			table_set_num_opt(t, r, c_ts, k->ts, isfinite(k->ts));
			table_set_num_opt(t, r, c_off, k->ts - start[k->host], isfinite(k->ts));
		}
		table_set_num(t, r, c_pred, an->pred_off[v + 1] - an->pred_off[v]);
		table_set_num(t, r, c_succ, an->succ_off[v + 1] - an->succ_off[v]);
		if (has_path)
			table_set_text(t, r, c_crit, an->on_longest[v] ? "yes" : "no");
	}
	free(start);
	return t;
}

static struct table *critical_path_rows(struct run *run, size_t max, size_t *total, char *err, size_t errn)
{
	struct dasf_db *db = db_for(run, err, errn);
	if (!db)
		return NULL;
	const struct dasf_an *an = db->an;
	char why[256];
	if (dasf_no_critical_text(db, why, sizeof(why))) {
		snprintf(err, errn, "no critical path: %s", why);
		return NULL;
	}
	char title[256] = "Critical path: the longest dependency chain by task duration, first to last";
	if (an->nlongest > an->ncritical) /* a tie: this is one of them */
		text_appendf(title, sizeof(title), "; one of several chains as long (%zu tasks lie on them: Critical in "
			     "task_graph)", an->nlongest);
	struct table *t = table_new("critical_path", title);
	int c_step = table_add_col(t, "Step", COL_INT, 5, 0);
	struct node_cols c = add_node_cols(t);
	int c_cum = table_add_col(t, "Cumulative (s)", COL_NUM, 12, 6);
	double cum = 0;
	*total = an->ncritical;
	for (size_t i = 0; i < an->ncritical && i < max; i++) {
		uint32_t v = an->critical[i];
		size_t r = table_add_row(t, (long)v);
		table_set_num(t, r, c_step, (double)(i + 1));
		set_node(t, r, &c, db, v);
		cum += db->task[an->node_task[v]].dur; /* every key on the path has a task with a usable duration */
		table_set_num(t, r, c_cum, cum);
	}
	return t;
}

void dasf_cycle_text(const struct dasf_db *db, char *buf, size_t n)
{
	const struct dasf_an *an = db->an;
	char *key = text_sanitize_dup(db->keys.str[an->cycle_node], 0);
	snprintf(buf, n, "the task graph has a dependency cycle through task '%s' (%zu task%s "
		 "in the cycle, %zu in or behind it)", key, an->cycle_len, an->cycle_len == 1 ? "" : "s", an->cyclic);
	free(key);
}

bool dasf_no_critical_text(const struct dasf_db *db, char *buf, size_t n)
{
	const struct dasf_an *an = db->an;
	if (an->cycle_node != DASF_NONE) {
		dasf_cycle_text(db, buf, n);
		return true;
	}
	bool untimed = an->untimed_node != DASF_NONE;
	if (!untimed && an->eventless_node == DASF_NONE) {
		char lost[160];
		bool lost_any = dasf_lost_text(db, lost, sizeof(lost));
		if (lost_any)
			snprintf(buf, n, "%s, so the longest chain is unknown", lost);
		return lost_any;
	}
	size_t count = untimed ? an->untimed_nodes : an->eventless_nodes;
	char *key = text_sanitize_dup(db->keys.str[untimed ? an->untimed_node : an->eventless_node], 0);
	if (count == 1)
		snprintf(buf, n, "task '%s' has %s, so the longest chain is unknown", key,
			 untimed ? "no usable duration" : "no task (Compute) event, yet a task that ran depends on it");
	else
		snprintf(buf, n, "%zu tasks have %s (task '%s' among them), so the longest chain is unknown", count,
			 untimed ? "no usable duration" : "no task (Compute) event, yet tasks that ran depend on them",
			 key);
	free(key);
	return true;
}

/* The views the report shows the heads of, built whole by the registry's builders. */
static const struct view_rows {
	const char *name;
	struct table *(*rows)(struct run *run, size_t max, size_t *total, char *err, size_t errn);
} view_rows[] = {
	{ "function_bottleneck", function_bottleneck_rows },
	{ "task_bottleneck", task_bottleneck_rows },
	{ "task_balance", task_balance_rows },
	{ "critical_path", critical_path_rows },
};

struct table *dasf_view_head(struct run *run, const char *name, size_t max, size_t *total, char *err, size_t errn)
{
	for (size_t i = 0; i < ARRAY_LEN(view_rows); i++)
		if (strcmp(view_rows[i].name, name) == 0)
			return view_rows[i].rows(run, max, total, err, errn);
	snprintf(err, errn, "no head of view %s", name);
	return NULL;
}

static struct table *build_function_bottleneck(struct run *run, char *err, size_t errn)
{
	size_t total;
	return function_bottleneck_rows(run, SIZE_MAX, &total, err, errn);
}

static struct table *build_task_bottleneck(struct run *run, char *err, size_t errn)
{
	size_t total;
	return task_bottleneck_rows(run, SIZE_MAX, &total, err, errn);
}

static struct table *build_task_balance(struct run *run, char *err, size_t errn)
{
	size_t total;
	return task_balance_rows(run, SIZE_MAX, &total, err, errn);
}

static struct table *build_critical_path(struct run *run, char *err, size_t errn)
{
	size_t total;
	return critical_path_rows(run, SIZE_MAX, &total, err, errn);
}

struct table *dasf_function_tasks(struct run *run, const char *function, char *err, size_t errn)
{
	struct dasf_db *db = db_for(run, err, errn);
	if (!db)
		return NULL;
	uint32_t name = function ? dasf_intern_find(&db->strs, function) : DASF_NONE;
	if (function && name == DASF_NONE) {
		char *safe = text_sanitize_dup(function, 0);
		snprintf(err, errn, "no task of function '%s'", safe);
		free(safe);
		return NULL;
	}
	const struct dasf_an *an = db->an;
	struct table *t = table_new("tasks", "DASF tasks (Compute events) in database order; " CLOCK_NOTE);
	int c_key = table_add_col(t, "Task Key", COL_TEXT, 40, 0);
	int c_fn = table_add_col(t, "Function", COL_TEXT, 24, 0);
	table_set_role(t, c_fn, COL_ROLE_NAME);
	int c_host = table_add_col(t, "Host", COL_TEXT, 12, 0);
	int c_worker = table_add_col(t, "Worker", COL_TEXT, 16, 0);
	table_col_doc(t, c_worker, "the worker (DASF's thread_id; GPU is its last '-' part); ");
	int c_gpu = table_add_col(t, "GPU", COL_TEXT, 4, 0);
	int c_dur = table_add_col(t, "Duration (s)", COL_NUM, 12, 6);
	int c_ts = table_add_col(t, "Timestamp (s, host clock)", COL_NUM, 14, 6);
	int c_in = table_add_col(t, "Input Data Size (MB)", COL_NUM, 10, 3);
	int c_thr = table_add_col(t, "Throughput (MB/s)", COL_NUM, 10, 5);
	int c_size = table_add_col(t, "Size (MB)", COL_NUM, 10, 3);
	int c_group = table_add_col(t, "Function group", COL_TEXT, 24, 0);
	table_col_doc(t, c_group, "the function as the findings and diff_functions group names that differ only by a "
		      "per-call token (dask's key_split: unc_fit for unc_fit-62a75b12-6b7a-49b0-b279); ");
	struct dasf_groups gr;
	dasf_groups_build(db, &gr);
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *k = &db->task[i];
		if (function && k->name != name)
			continue;
		size_t r = table_add_row(t, (long)i);
		table_set_text(t, r, c_key, db->keys.str[k->key]);
		table_set_text(t, r, c_fn, db->strs.str[k->name]);
		set_worker(t, r, c_host, c_gpu, db, k->host, k->thread);
		table_set_text(t, r, c_worker, db->strs.str[k->thread]);
		table_set_text(t, r, c_group, gr.names.str[gr.group_of[k->name]]);
		table_set_num_opt(t, r, c_dur, k->dur, dasf_dur_usable(k->dur));
		table_set_num_opt(t, r, c_ts, k->ts, isfinite(k->ts));
		table_set_num(t, r, c_in, an->input_size[k->key] / 1e6);
		table_set_num_opt(t, r, c_thr, an->throughput[k->key] / 1e6, an->has_thr[k->key]);
		table_set_num_opt(t, r, c_size, (double)k->size / 1e6, k->has_size);
	}
	dasf_groups_free(&gr);
	return t;
}

static struct table *build_tasks(struct run *run, char *err, size_t errn)
{
	return dasf_function_tasks(run, NULL, err, errn);
}

/* Enter on a function_bottleneck row lists its tasks: the "tasks" rows whose Function, Host
 * and Worker are exactly the row's (DASF groups the row by all three; names sanitized as the
 * tables hold them). */
static bool function_row_evidence(struct run *run, const struct table *t, size_t row, struct evidence *out)
{
	const struct dasf_an *an = run->dasf ? run->dasf->an : NULL;
	long i = t->ref[row];
	if (!an || i < 0 || (size_t)i >= an->nfn)
		return false;
	const struct dasf_fn_row *f = &an->fn[i];
	const struct dasf_intern *s = &run->dasf->strs;
	out->kind = EV_TASK;
	out->view = "tasks";
	out->match = COL_ROLE_NAME;
	out->name = text_sanitize_dup(s->str[f->name], 0);
	out->also_col[0] = "Host";
	out->also[0] = text_sanitize_dup(s->str[f->host], 0);
	out->also_col[1] = "Worker";
	out->also[1] = text_sanitize_dup(s->str[f->thread], 0);
	return true;
}

bool dasf_view_has_data(struct run *run, const struct view_def *vd)
{
	if (!run->dasf)
		return false;
	return vd->build == build_task_balance ? run->dasf->nmem > 0 : run->dasf->ntask > 0;
}

const struct view_def dasf_views[DASF_NVIEWS] = {
	{ "function_bottleneck", "DASF: time per function and worker (DASF's columns)", build_function_bottleneck,
	  function_row_evidence, NULL },
	{ "task_bottleneck", "DASF: time per task key and worker (DASF's columns)", build_task_bottleneck, NULL, NULL },
	{ "task_balance", "DASF: tasks in memory per worker per second (DASF's columns)",
	  build_task_balance, NULL, NULL },
	{ "task_graph", "DASF: annotated task graph, input data size and throughput per task",
	  build_task_graph, NULL, NULL },
	{ "critical_path", "DASF: longest dependency chain by duration, first to last",
	  build_critical_path, NULL, NULL },
	{ "tasks", "DASF: every task (Compute event) in database order", build_tasks, NULL, NULL },
};
