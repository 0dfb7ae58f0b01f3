/* SPDX-License-Identifier: MIT */
/* layout.c: pure geometry (see layout.h). */
#include "ui/layout.h"

struct layout layout_compute(int rows, int cols)
{
	struct layout l = { .rows = rows, .cols = cols };
	l.too_small = rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS;
	if (l.too_small)
		return l;
	l.title = (struct rect){ 0, 0, 1, cols };
	l.body = (struct rect){ 1, 0, rows - 3, cols };
	l.status = (struct rect){ rows - 2, 0, 1, cols };
	l.hint = (struct rect){ rows - 1, 0, 1, cols };
	return l;
}

void layout_split_bottom(const struct rect *r, int bottom, struct rect *top, struct rect *bot)
{
	if (bottom > r->h - 3)
		bottom = r->h - 3;
	if (bottom < 0)
		bottom = 0;
	*top = (struct rect){ r->y, r->x, r->h - bottom, r->w };
	*bot = (struct rect){ r->y + r->h - bottom, r->x, bottom, r->w };
}

void layout_heatmap(const struct rect *body, int label_w, struct heat_geom *g)
{
	if (label_w > body->w / 3)
		label_w = body->w / 3;
	int h = body->h - 2 > 0 ? body->h - 2 : 0;
	g->header = (struct rect){ body->y, body->x + label_w, 1, body->w - label_w };
	g->labels = (struct rect){ body->y + 1, body->x, h, label_w };
	g->cells = (struct rect){ body->y + 1, body->x + label_w, h, body->w - label_w };
	g->note = (struct rect){ body->y + body->h - 1, body->x, 1, body->w };
}

struct rect layout_center(const struct rect *r, int h, int w)
{
	if (h > r->h)
		h = r->h;
	if (w > r->w)
		w = r->w;
	return (struct rect){ r->y + (r->h - h) / 2, r->x + (r->w - w) / 2, h, w };
}

size_t layout_zoom_level(size_t fit, size_t spc, bool finer)
{
	size_t s = fit;
	if (!finer) {
		while (s / 2 > spc)
			s /= 2;
		return s;
	}
	while (s >= spc && s > 1)
		s /= 2;
	return s < spc ? s : spc;
}
