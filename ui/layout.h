/* SPDX-License-Identifier: MIT */
/* layout.h: screen geometry as pure functions (no curses; unit-tested). The frame is a
 * title/tab row, the pane body, a status row and a key-hint/prompt row. Below
 * LAYOUT_MIN_ROWS x LAYOUT_MIN_COLS the UI shows a "terminal too small" screen. */
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

#include "model/base.h"

enum { LAYOUT_MIN_ROWS = 24, LAYOUT_MIN_COLS = 80 };

struct rect {
	int y, x, h, w;
};

struct layout {
	bool too_small;
	int rows, cols;
	struct rect title, body, status, hint;
};

struct layout layout_compute(int rows, int cols);

/* Split r into a top part and a bottom part of `bottom` rows (clamped to leave >= 3
 * rows on top; 0 when r is too short). */
void layout_split_bottom(const struct rect *r, int bottom, struct rect *top, struct rect *bot);

/* Heatmap geometry inside body: row labels on the left (label_w columns), one header
 * row of step labels on top, one axis-note row at the bottom; the rest is cells. */
struct heat_geom {
	struct rect header, labels, cells, note;
};
void layout_heatmap(const struct rect *body, int label_w, struct heat_geom *g);

/* The zoom levels of a pane that shows spc steps a column (the heatmap, Steps): fit (the
 * whole run at the width) and its halvings, fit/2, fit/4 ... 1 (whole division). The next
 * finer level below spc (finer), else the next coarser above it, at most fit: - after +
 * comes back to the view it left, the last - to the whole run; a spc off the ladder (a
 * zoom kept through a resize) joins it at its next key. */
size_t layout_zoom_level(size_t fit, size_t spc, bool finer);

/* Centered box of at most h x w inside r. */
struct rect layout_center(const struct rect *r, int h, int w);

#endif
