/* SPDX-License-Identifier: MIT */
/* views.h: the views of a run comparison (model/compare/views.c). Same contract as a
 * run's views (registry.h): a table the UI draws and --export writes, built on demand,
 * NULL with a reason when the pair has no data for it. Exported with
 * `tscope-tui --export NAME A B`. */
#ifndef MODEL_COMPARE_VIEWS_H
#define MODEL_COMPARE_VIEWS_H

#include "model/compare/compare.h"
#include "model/registry.h"
#include "model/table.h"

struct cmp_view {
	const char *name;
	const char *help;
	struct table *(*build)(struct compare *c, char *err, size_t errn);
};

/* Compare mode's tabs, in number-key order (registry.h struct tab_def; TAB_COMPARE is
 * the verdict pane). compare_tabs[0] is that Overview; its view is what `e` exports. */
extern const struct tab_def compare_tabs[];
extern const size_t compare_ntabs;
/* Whether tab t has something for this pair: the heatmap, Ranks and Budget need step
 * records on both sides, Kernels traces on both, Sweep a GenAI-Perf sweep on both,
 * Functions DASF tasks on both, Env step runs or traces; the others always. A tab that
 * would only say "needs ..." is left out. */
bool compare_tab_shown(struct compare *c, const struct tab_def *t);
/* A sweep pair's verdict in buf (compare.h compare_verdict): the largest relative change
 * of diff_sweep's metrics over the stimulus levels both sweeps ran (one run per level:
 * no noise estimate, so a change is given, never called a regression), the levels not
 * compared ("not compared: concurrency 2 (only in A)"); when the sweeps
 * measure other workloads (compare_workload_diff: model, url, ...) it names the keys and
 * says the comparison is not like for like. Returns -1 when not compared, 0 when every
 * metric is the same at every common level of the same workload, 1 otherwise. */
int compare_sweep_verdict(struct compare *c, char *buf, size_t n);
/* diff_sweep's last column, the workload a row pairs by: its pair key ("model=auto") when
 * either sweep holds several workloads, A's -> B's (compare_workload_diff) when each
 * holds one and they differ; missing otherwise. */
#define CMP_SWEEP_WORKLOAD_COL 22
/* A DASF pair's verdict in buf (model/compare/dasf.c): the function slower in B beyond
 * its noise that added the most time, or why none is, and the change of the total task
 * time. Returns -1 when not compared (a side has no task event), 0 when no judged
 * function is slower (or the runs are identical), 1 when one is, 2 when none could be
 * judged (fewer than CMP_MIN_STEPS tasks per side). */
int compare_dasf_verdict(struct compare *c, char *buf, size_t n);
/* A DASF pair's lines for the Overview and the report (summary.h): tasks, functions,
 * workers and hosts, total task time, critical path and span, A -> B. None when a side
 * has no task event. */
struct summary;
void compare_dasf_summary(struct compare *c, struct summary *s);

/* How a pair without ranks is compared, for the status row and n/N: "two sweeps,
 * level by level (8 Sweep)", "two DASF runs, function by function (9 Functions)"; NULL
 * for a pair of step runs or trace sets. */
const char *compare_by_what(const struct compare *c);

extern const struct cmp_view compare_views[];
extern const size_t compare_nviews;
/* View by name, NULL when unknown. */
const struct cmp_view *compare_view(const char *name);

#endif
