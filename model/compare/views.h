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
 * records on both sides, Kernels traces on both, Sweep a GenAI-Perf sweep on both, Env
 * step runs or traces; the others always. A tab that would only say "needs ..." is left
 * out. */
bool compare_tab_shown(struct compare *c, const struct tab_def *t);
/* A sweep pair's verdict in buf (compare.h compare_verdict): the largest relative change
 * of diff_sweep's metrics over the stimulus levels both sweeps ran (one run per level:
 * no noise estimate, so a change is given, never called a regression). Returns -1 when
 * not compared, 0 when every metric is the same at every common level, 1 otherwise. */
int compare_sweep_verdict(struct compare *c, char *buf, size_t n);

extern const struct cmp_view compare_views[];
extern const size_t compare_nviews;
/* View by name, NULL when unknown. */
const struct cmp_view *compare_view(const char *name);

#endif
