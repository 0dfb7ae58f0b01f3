/* SPDX-License-Identifier: MIT */
/* pane_heatmap.h: the heatmap pane's private state and the helpers its files share
 * (pane_heatmap.c: opening, drawing, keys; pane_heatmap_info.c: what the pane says about
 * the cell under the cursor: status row, legend, copy; pane_heatmap_label.c: row names
 * in full and fitted to the label column; pane_heatmap_job.c: metrics built off the UI
 * thread; pane_heatmap_search.c: the `/` search). Not for other panes. */
#ifndef UI_PANE_HEATMAP_H
#define UI_PANE_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include "model/grid.h"
#include "model/groups.h"
#include "ui/app.h"
#include "ui/legend.h"

struct hpane {
	const struct grid_provider *prov;
	void *model;                  /* what prov reads (app_grid) */
	size_t metric, nmetrics;
	struct grid_src src;
	struct grid_blocks *blocks;   /* only when src has no range accessor */
	double lo, hi;                /* colour scale (whole grid) */
	size_t scale_rows, scale_cols; /* the grid's size when the scale was computed */
	size_t spc, c0;               /* cols per screen column (power of 2), first col (a multiple of spc) */
	bool zoomed;                  /* spc set by +/- below the fit: kept by a resize; else every frame fits */
	size_t rpr;                   /* rows per screen row */
	bool one_per_row;             /* z: rpr = 1 and scroll instead of fitting every row */
	size_t top;                   /* first row shown (always 0 when fitting) */
	size_t cur_r, cur_c;          /* cursor, in grid coordinates */
	long cur_rid, cur_cid;        /* its row and column ids, kept by hm_fix_view (a rebuild finds it by them) */
	int w, h;                     /* cells area of the last frame */
	int y0, x0;                   /* its top-left screen cell (mouse) */
	/* cache of the visible buckets */
	signed char *lvl;
	size_t cache_c0, cache_spc, cache_rpr, cache_top;
	int cache_w, cache_h;
	bool cache_ok;
	long *marks;                  /* marked col ids (critical steps), sorted */
	size_t nmarks;
	long mark_row;                /* row the marks belong to, -1 */
	struct table *export;
	char why[160];
	bool pending;                 /* metric chosen, aggregates not built yet (PR_LATER) */
	struct grid_job *job;         /* job_metric being computed off the UI thread, or NULL */
	size_t job_metric, job_done, job_total;
	bool by_node;                 /* lines are the outline's (node rows), not grid rows */
	struct outline ol;            /* over src.groups when it has groups */
	size_t ol_n;                  /* groups in ol */
	bool *from_open;              /* where the `/` prompt opened: the nodes open (from_n of them), */
	size_t from_n, from_r, from_top; /* the cursor's line and the first line shown */
};

/* The grid rows lines [l0, l1) cover: k-th is rows[k], or base + k when rows is NULL. */
struct line_rows {
	const size_t *rows;
	size_t base, n;
};

/* Lines the pane shows: grid rows, or node and rank lines. */
size_t hm_nlines(const struct hpane *p);
/* A cell value with the grid's unit (model/units.h rule). */
char *hm_fmt_value(const struct hpane *p, double v, char *buf, size_t n);
/* Worst and mean over lines [l0, l1) x cols [c0, c1); *wrow: the row of the worst.
 * Returns the number of values. */
size_t hm_lines_rect(const struct hpane *p, size_t l0, size_t l1, size_t c0, size_t c1, double *worst,
		     double *mean, size_t *wrow);
/* pane_heatmap_label.c: names in full, sanitized with flags (text.h), malloc'd. A row's
 * label; the label of lines [l0, l1): the first line's name (a node's, else the row's
 * label), then "-" and the last's when there are several (the last whose ranks they
 * hold: an open node's line ending them holds none, groups.h outline_last); when they
 * hold a node line a rank end is named after the axis ("node 27-rank 301", "rank
 * 302-node 52"). */
char *hm_row_name(const struct hpane *p, size_t row, unsigned flags);
char *hm_lines_label(const struct hpane *p, size_t l0, size_t l1, unsigned flags);
/* Do lines [l0, l1) hold a node line (their label then names what it is, no axis before
 * it)? */
bool hm_lines_named(const struct hpane *p, size_t l0, size_t l1);
/* What node rows' lines are, for the note's count: "nodes", or "nodes or ranks" once a
 * node is open. */
const char *hm_lines_kind(const struct hpane *p);
/* The label column of screen rows [0, ny) (lines from p->top, p->rpr a row): lab[y]
 * holds the row's prefix (a node's glyph, "!") and is replaced by the prefix and the
 * bucket's label fitted in the w columns left, clipped labels kept apart (ui/label_fit.h). */
void hm_fit_labels(const struct hpane *p, size_t ny, int w, unsigned flags, char **lab);
/* The grid rows lines [l0, l1) cover (groups.h outline_span: each rank in one row of
 * several lines), and the k-th of them. */
struct line_rows hm_lines_rows(const struct hpane *p, size_t l0, size_t l1);
size_t hm_lr_row(const struct line_rows *lr, size_t k);
/* The bucket (lines and columns) under the cursor. */
void hm_bucket(const struct hpane *p, size_t *r0, size_t *r1, size_t *c0, size_t *c1);

/* pane_heatmap_info.c: the pane ops for the status row, the legend and y/Y. */
void heatmap_status(void *priv, struct app *app, char *buf, size_t n);
/* The note row in w columns: what a cell holds, the scale and the keys, fitted
 * (draw_fit_fields; a long metric name is clipped, never the scale). */
void heatmap_note(struct hpane *p, struct app *app, int w, char *note, size_t n);
void heatmap_legend(void *priv, struct app *app, struct legend *l);
int heatmap_copy(void *priv, struct app *app, bool row, char *buf, size_t n);
void heatmap_hint(void *priv, struct app *app, char *buf, size_t n);

/* pane_heatmap_search.c: a search is on and a line of [l0, l1) matches it (a rank line:
 * its row's text; a node line: its name); the pane ops of the `/` search (pane.h). */
bool hm_lines_match(const struct hpane *p, struct app *app, size_t l0, size_t l1);
size_t hm_items(void *priv, struct app *app, size_t *sel);
void hm_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n);
void hm_item_show(void *priv, struct app *app, size_t i);
void hm_search_from(void *priv, struct app *app, bool back);

/* pane_heatmap.c, for pane_heatmap_job.c and pane_heatmap_search.c: the grid row of a
 * line, the line of a row (reveal: open its node), the source of p->metric opened (or
 * `ready`, a grid job's source, taken over), the colour scale, the window fitted to the
 * cursor. */
size_t hm_line_row(const struct hpane *p, size_t l);
size_t hm_row_line(struct hpane *p, size_t row, bool reveal);
bool hm_open_source(struct hpane *p, const struct grid_src *ready);
void hm_set_scale(struct hpane *p);
void hm_fix_view(struct hpane *p);
/* pane_heatmap_job.c: m/M (the next metric: built now, in the next frame, or off the UI
 * thread), the pane's tick (pane.h), and stopping a running job. */
unsigned hm_next_metric(struct hpane *p, struct app *app, bool forward);
unsigned hm_tick(void *priv, struct app *app, bool shown, int *wait_ms);
void hm_job_stop(struct hpane *p);

#endif
