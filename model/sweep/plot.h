/* SPDX-License-Identifier: MIT */
/* plot.h: a text plot of one metric against the swept stimulus, as rows of
 * glyphs (pure: no curses, so it is unit-tested and drawn by ui/pane_sweep.c). Points,
 * removed outliers, the fitted line, a horizontal target line and a vertical estimate
 * line are marked; UTF-8 glyphs or an ASCII fallback. sweep_plot_from_run() builds the
 * spec for a GenAI-Perf series or a NAT calculator file: every level of it, those without
 * a plottable value listed with the reason (skip) and left out of the plot. */
#ifndef MODEL_SWEEP_PLOT_H
#define MODEL_SWEEP_PLOT_H

#include "model/base.h"

struct run;

#define PLOT_MAX_POINTS 256

struct plot_spec {
	char title[96];
	char xlabel[32], ylabel[48];
	double x[PLOT_MAX_POINTS], y[PLOT_MAX_POINTS];  /* NaN: missing (listed as -) */
	const char *skip[PLOT_MAX_POINTS];  /* why point i is not plotted (static text), NULL: plotted */
	bool outlier[PLOT_MAX_POINTS];
	bool lowconf[PLOT_MAX_POINTS];  /* a percentile from few requests (sweep_low_confidence) */
	bool conf_na[PLOT_MAX_POINTS];  /* a percentile whose config has no request count: not judged */
	long ref[PLOT_MAX_POINTS];  /* sweep_cfg index (GenAI-Perf) or nat_point index */
	size_t n;
	bool nat;                   /* source is a NAT file (index nat_idx), else a series */
	size_t nat_idx;
	bool has_line;
	double slope, intercept;  /* y = slope * x + intercept, in plotted units */
	bool has_target;
	double target;            /* horizontal line at y = target */
	bool has_estimate;
	double estimate;          /* vertical line at x = estimate (target concurrency) */
};

/* Render into h rows of exactly w display columns (w >= 20, h >= 5): a y-axis label
 * gutter, the plot area, an x axis and an x label row. Returns a malloc'd array of h
 * malloc'd UTF-8 strings (free with plot_free), or NULL when there is nothing to plot. */
char **plot_render(const struct plot_spec *p, int w, int h, bool ascii);
void plot_free(char **rows, int h);

/* What to plot. */
enum plot_kind { PLOT_LATENCY, PLOT_THROUGHPUT, PLOT_KINDS };
/* Number of plottable sources: GenAI-Perf series with a stimulus, then NAT files. */
size_t sweep_plot_count(struct run *run);
/* Fill spec for source idx (< sweep_plot_count) and kind. For NAT, latency plots the
 * p95 LLM latency and throughput the p95 workflow runtime (both with their fits), and
 * only the points the fits use (an interrupted one is listed, skip "interrupted").
 * Returns false when the source has no point. */
bool sweep_plot_from_run(struct run *run, size_t idx, enum plot_kind kind, struct plot_spec *p);
/* The view that lists the points of the source p plots: "sweep" for a GenAI-Perf
 * series, "sizing_points" for a NAT file; what `e` on the Sweep pane exports. */
const char *sweep_plot_view(const struct plot_spec *p);
/* Enter on point i: its own row in that view (EV_CONFIG). */
struct evidence;
void sweep_plot_evidence(const struct run *run, const struct plot_spec *p, size_t i, struct evidence *out);

#endif
