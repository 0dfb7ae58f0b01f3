/* SPDX-License-Identifier: MIT */
/* dasf.h: the DASF subsystem's public surface (DASF `dasf.profile` EventProfiler
 * databases, spec formats.md §1). The loader fills run->dasf; the analyses are computed
 * once, on first use, and every view is a table (registry views function_bottleneck,
 * task_bottleneck, task_balance, task_graph, critical_path). Everything here reads a
 * loaded run and never changes it except to memoize analysis results, so call it from
 * the thread that owns the run (the UI thread after run_open() returned). */
#ifndef MODEL_DASF_H
#define MODEL_DASF_H

#include "model/opts.h"
#include "model/table.h"

struct run;
struct load_ctx;

/* A record longer than this is treated as a bad length (DASF batches are small maps). */
#define DASF_MAX_RECORD ((uint64_t)64 << 20)

/* Loader entry points (registered as loader "dasf" in sub_dasf). */
int dasf_probe(const char *path, const struct opts *opts);
int dasf_load(struct load_ctx *ctx, const char *path);
/* The databases dasf_load() of directory dir reads, in load order (identity.c: a PATH
 * given beside its directory is not read twice). The caller frees each and the array. */
void dasf_dir_files(const char *dir, char ***files, size_t *n);

/* Load one database held in memory, as dasf_load() does a file called `name` (the
 * fuzzing harness tests/fuzz/fuzz_dasf.c uses it). buf must stay valid during the call. */
int dasf_load_mem(struct load_ctx *ctx, const char *name, const void *buf, size_t n);

/* Tasks (Compute events) in database order, for `Enter` on a function: a new table
 * "tasks" with one row per event whose args.name is `function`, or every event when
 * function is NULL (the registry view "tasks"): Task Key, Function, Host, Worker (the
 * thread_id), GPU, Duration (s), Timestamp (s, host clock), Input Data Size (MB),
 * Throughput (MB/s), Size (MB), Function group (dasf_function_groups' name). Row ref =
 * the event's index in the database. NULL (reason in err) when the run has no DASF tasks
 * or none has that name. The caller frees the table. */
struct table *dasf_function_tasks(struct run *run, const char *function, char *err, size_t errn);

/* The first `max` rows of DASF view `name` (function_bottleneck, task_bottleneck,
 * task_balance or critical_path) as the whole view has them, and in *total the rows the
 * whole view has: the report's heads without building a table of every task. NULL
 * (reason in err) when the view's builder would fail or name is none of these. The
 * caller frees the table. */
struct table *dasf_view_head(struct run *run, const char *name, size_t max, size_t *total, char *err, size_t errn);

/* Row of worker `thread` (a thread_id) in the "tasks" grid (model/dasf/grid.c: task
 * balance, workers x seconds), or -1 when it has no Managed Memory events. */
long dasf_balance_row(struct run *run, const char *thread);

/* Headline numbers for the report and the findings; all zero without DASF data. */
struct dasf_summary {
	size_t files, tasks, functions, workers, hosts;
	size_t function_groups;        /* functions as dasf_function_groups() groups them */
	size_t mem_events, gpu_samples, cpu_only_samples, other_events;
	double total_task_s;           /* sum of the Compute durations (>= 0, finite), NaN when a
	                                * task has no usable one, a Compute event was skipped, there
	                                * is none or the sum overflows */
	double critical_s;             /* duration along the critical path, NaN when there is none
	                                * (a dependency cycle, a task without a usable duration, a
	                                * key with no Compute event a task depends on, a Compute event
	                                * skipped) or it overflows */
	const char *critical_na;       /* then why, briefly ("a dependency cycle"; static), else NULL */
	size_t critical_len;           /* tasks on the critical path */
	size_t critical_tied;          /* tasks on chains exactly as long when such a chain is not the
	                                * critical path (a tie: it is one of them), else 0 */
	size_t lost_tasks;             /* Compute events the loader skipped: tasks whose time is unknown
	                                * (then the task time and the critical path are NaN) */
	double span_s;                 /* the longest host's span, first task start to last task
	                                * end on that host's clock (DASF's [ts, ts+dur]); 0
	                                * when no task has a finite time */
};
/* Fills *out; returns false when the run has no DASF data. */
bool dasf_summarize(struct run *run, struct dasf_summary *out);
/* "3 functions", or "5 functions (44 names)" when names that differ only by a per-call
 * token were grouped (the headline and the report). */
void dasf_functions_text(const struct dasf_summary *s, char *buf, size_t n);

/* A run's tasks grouped by function for comparing two runs (model/compare/dasf.c).
 * Names are grouped as dask's key_split() groups keys: the first '-'-separated word,
 * then the words after it while they are letters only and not an 8-letter hex token,
 * so "unc_fit-62a75b12-6b7a-49b0-b279" (a token that changes from run to run) is
 * "unc_fit" and "hello-world" stays whole; a name whose first word is empty ("-neg,fn",
 * "") is "Other", as dask names it, never an empty group. */
struct dasf_fn_group {
	char *name;                    /* the group's name (owned, unsanitized) */
	bool stripped;                 /* a member's name is not the group's (a token left out,
	                                * or "Other") */
	size_t nnames;                 /* distinct names of the tasks in the group */
	double *dur;                   /* finite task durations >= 0 (s), database order */
	size_t n;
	size_t ntasks;                 /* tasks in the group, with a duration or not (>= n) */
};
/* The groups in first-seen order, *out malloc'd (NULL and 0 without tasks); free with
 * dasf_fn_groups_free(). */
size_t dasf_function_groups(struct run *run, struct dasf_fn_group **out);
void dasf_fn_groups_free(struct dasf_fn_group *g, size_t n);
/* What a group's name is followed by where it is shown: "-*" when a member's name is not
 * the group's (stripped: a token left out, or "Other"), else "". */
const char *dasf_group_mark(bool stripped);

#endif
