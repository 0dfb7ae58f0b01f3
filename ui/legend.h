/* SPDX-License-Identifier: MIT */
/* legend.h: the `i` overlay. Each pane explains its own glyphs, colours, scale and
 * columns (pane_ops.legend) with the helpers below; the overlay adds the frame's
 * conventions and scrolls (j/k, PgUp/PgDn) when it is taller than the screen. The
 * glossary entries (step time, step wall, compute, comm, idle, time lost, straggler...)
 * are the man page's Glossary word for word (tests/ui/legend.sh checks it). */
#ifndef UI_LEGEND_H
#define UI_LEGEND_H

#include "ui/action.h"
#include "ui/layout.h"
#include "ui/theme.h"

struct app;

/* A legend being laid out: rows are counted from its top; only those inside box
 * (after scrolling by top) are drawn. */
struct legend {
	struct rect box;
	int y;      /* next row */
	int top;    /* first row shown */
	bool own_missing;   /* the pane said how it shows a missing value (legend_missing) */
};

/* A heading, then a wrapped paragraph. */
void legend_head(struct legend *l, const char *text);
void legend_para(struct legend *l, const char *text);
/* A sample (glyph repeated n times in role r) and what it means, wrapped beside it. */
void legend_row(struct legend *l, const char *glyph, int n, enum role r, const char *text);
/* The same for the pane's own missing-value glyph (the heatmap's): the frame's
 * conventions then leave out the tables' "-", so no glyph means two things there. */
void legend_missing(struct legend *l, const char *glyph, int n, enum role r, const char *text);
/* A name (a column) in a wide field and what it means. */
void legend_key(struct legend *l, const char *key, const char *text);
/* The same with bar fill k (draw_fill: a phase or budget line) as the sample. */
void legend_fill(struct legend *l, int k, const char *text);
/* The glossary entries whose term (or column spelling: time_lost) occurs in words. */
void legend_terms(struct legend *l, const char *words);

/* The overlay (frame.c draws it; app.c routes its keys): draw, and scroll by a. */
void legend_draw(struct app *app);
bool legend_scroll(struct app *app, enum action a);

#endif
