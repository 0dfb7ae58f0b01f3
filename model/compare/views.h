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
/* A sweep pair's verdict in buf (compare.h compare_verdict; model/compare/sweep.c): the
 * largest relative change of diff_sweep's metrics over the stimulus levels both sweeps ran
 * (one run per level: no noise estimate, so a change is given, never called a
 * regression), or "no difference" naming what was compared ("the same latency and
 * throughput", "the same latency p50 and latency p99" when a metric is not judged); the
 * metrics one side records alone ("not judged: request throughput (only in A)"); the
 * levels not compared ("not compared: concurrency 2 (only in A)", "4 (2 results in A:
 * c4, rerun/c4)"); when the sweeps measure other workloads (compare_workload_diff: model,
 * url, ...) it names the keys and says the comparison is not like for like. Returns -1
 * when not compared, 0 when every metric either side records is the same at every common
 * level of the same workload and no level both ran has several results on a side, 1
 * otherwise. */
int compare_sweep_verdict(struct compare *c, char *buf, size_t n);
/* diff_sweep's last column, the workload a row pairs by: its pair key ("model=auto",
 * "input_length=100") when either sweep holds several workloads or a series holding a
 * second stimulus fixed (crossed with the one compared), else A's -> B's
 * (compare_workload_diff) when each holds one and they differ; missing otherwise. Before
 * it a_config and b_config name the config each side's values are of: a level where a
 * side has several results has a row per result (name order), its deltas empty. */
#define CMP_SWEEP_WORKLOAD_COL 24
/* Whether diff_kernels' sides count their kernels over like scopes (HTA's event set per
 * rank: its ProfilerSteps, the last left out when it has two or more; its whole trace
 * when it has no ProfilerStep span): profiler steps on both sides, or whole traces on both
 * (ranks of either kind on both). When not, buf says what each counts and that the deltas
 * are not judged ("kernel deltas not judged: A counts 17 profiler steps per rank (HTA
 * leaves out the last), B counts its whole trace (no ProfilerStep spans): not like for
 * like") and diff_kernels leaves every delta empty. Sides that count other numbers of
 * profiler steps, one number on every rank of each, are compared per profiler step
 * ("deltas per profiler step: A counts 17 ..., B counts 35 ...", true); with no one
 * number on a side, not judged ("...: other step counts, not one a side to compare per
 * step"). buf is "" when the sides count the same. */
bool compare_kernel_scope(struct compare *c, char *buf, size_t n);
/* A DASF pair's verdict in buf (model/compare/dasf.c): the function slower in B beyond
 * its noise that added the most time, or why none is, and the change of the total task
 * time. Identical runs have "the same task times", but for the functions with no task
 * that has a duration: those are named, not compared. Returns -1 when not compared (a
 * side has no task event), 0 when no judged function is slower (or the runs are
 * identical, every function timed), 1 when one is, 2 when none could be judged (fewer
 * than CMP_MIN_STEPS tasks per side) or identical runs have a function without a
 * duration. */
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
/* What Enter on row `row` of a pair's view t (compare_views) opens, on the pair's heatmap:
 * into *out (EV_RANK; the caller frees it with evidence_free) the rank of its COL_ROLE_RANK
 * cell, at its onset in B when the view has a COL_ROLE_ONSET column (diff_ranks); a
 * diff_findings row of a finding carries that finding's steps too, its evidence range
 * and marked steps (B's finding, else A's: its rank is the row's), so a straggler or a
 * rank turned slow lands on its steps as one run's Enter does. False when the row has no
 * rank. */
bool compare_row_evidence(struct compare *c, const struct table *t, size_t row, struct evidence *out);
/* A pair's view t without a row: why it is not exported ("view 'diff_env' has no rows for
 * this pair of runs: no difference: ..." with its empty note) into buf, true; false when t
 * has rows or is no pair's view. --export and the explorer's e refuse it alike: never a
 * header alone. */
bool compare_view_no_rows(const struct table *t, char *buf, size_t n);

#endif
