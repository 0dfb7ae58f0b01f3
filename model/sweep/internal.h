/* SPDX-License-Identifier: MIT */
/* internal.h: private to the sweep family (model/sweep/): the views (views.c), the
 * finding rules (rules.c), the knee (analysis_knee.c) and the loader entry points
 * (load_*.c) registered by subsystem.c. The model is model/sweep/sweep.h. */
#ifndef MODEL_SWEEP_INTERNAL_H
#define MODEL_SWEEP_INTERNAL_H

#include "model/registry.h"
#include "model/sweep/sweep.h"

/* Views (views.c) and finding rules (rules.c), registered in subsystem.c. */
#define SWEEP_NVIEWS 5
#define SWEEP_NRULES 7
extern const struct view_def sweep_views[];
extern const struct finding_rule sweep_rules[];
/* The run has the data sweep view vd builds from (the test its build makes; registry.h). */
bool sweep_view_has_data(struct run *run, const struct view_def *vd);
/* What those rules could not judge (no constraint, a series too short; registry.h). */
void sweep_unjudged(struct run *run, struct not_judged *nj);
/* Row refs, so a finding's evidence lands on its own row: the sizing view's NAT file i
 * has its latency fit at sweep_sizing_ref(i, false) and its runtime fit at (i, true)
 * (GenAI-Perf series i: -1 - i); the sizing_points view's point k of NAT file i is at
 * sweep_point_ref(s, i, k) (the points numbered in the view's order); the cerebras
 * view's file i has its stored and recomputed rows at ref i and its ordinal k at
 * sweep_cb_ordinal_ref(s, i, k). */
long sweep_sizing_ref(size_t nat, bool runtime);
long sweep_point_ref(const struct sweep_set *s, size_t nat, size_t pt);
long sweep_cb_ordinal_ref(const struct sweep_set *s, size_t i, size_t k);

/* The latency statistic the Sweep pane plots for series se (views_plot.c): p95 (the
 * sizing fit's) when the series has it, else p99, else the average. */
enum sweep_stat sweep_plot_latency_stat(const struct sweep_set *s, const struct sweep_series *se);

/* Series se's throughput knee (analysis_knee.c, for sweep_derive): knee, knee_next,
 * knee_stat, knee_points, knee_rising, knee_last and knee_open; none judged over two
 * results at one level (se->twice). */
void sweep_series_knee(const struct sweep_set *s, struct sweep_series *se);

/* After every loader ran (registry.h finalize; analysis.c): a warning for each stimulus
 * level of a series with more than one result, naming their files (sweep_series.twice). */
void sweep_finalize(struct run *run);

/* Loaders (load_*.c, registered in subsystem.c). */
int sweep_genai_probe(const char *path, const struct opts *opts);
int sweep_genai_load(struct load_ctx *ctx, const char *path);
int sweep_nat_probe(const char *path, const struct opts *opts);
int sweep_nat_load(struct load_ctx *ctx, const char *path);
int sweep_cb_probe(const char *path, const struct opts *opts);
int sweep_cb_load(struct load_ctx *ctx, const char *path);

#endif
