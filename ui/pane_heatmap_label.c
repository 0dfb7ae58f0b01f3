/* SPDX-License-Identifier: MIT */
/* pane_heatmap_label.c: the heatmap pane's row names: a line's name in full and
 * sanitized (the status row, y/Y), and names fitted to a width (the label column, the
 * note's range of rows). A name wider than its room is clipped apart from the other
 * names shown (ui/label_fit.h). On node rows a range that holds a node line names its
 * rank ends with the axis ("node 27-rank 301"), so a rank never reads as a node, and
 * names the ranks it holds: an open node's line that ends it holds none (its ranks are
 * the next row's), so the line before it ends the label.
 * State and shared helpers: ui/pane_heatmap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/label_fit.h"
#include "ui/pane_heatmap.h"

char *hm_row_name(const struct hpane *p, size_t row, unsigned flags)
{
	char *raw = grid_row_label_dup(&p->src, row);
	char *s = text_sanitize_dup(raw, flags);
	free(raw);
	return s;
}

bool hm_lines_named(const struct hpane *p, size_t l0, size_t l1)
{
	for (size_t l = l0; p->by_node && l < l1; l++)
		if (p->ol.row[l] < 0)
			return true;
	return false;
}

const char *hm_lines_kind(const struct hpane *p)
{
	for (size_t g = 0; g < p->ol_n; g++)
		if (p->ol.open[g])
			return "nodes or ranks";
	return "nodes";
}

/* A line's name, sanitized: a node's, else the row's label, after its axis when
 * `axis` ("rank 301"). */
static char *line_name(const struct hpane *p, size_t l, bool axis, unsigned flags)
{
	if (p->by_node && p->ol.row[l] < 0)
		return text_sanitize_dup(p->ol.gs->name[p->ol.grp[l]], flags);
	char *s = hm_row_name(p, hm_line_row(p, l), flags);
	if (!axis)
		return s;
	size_t n = strlen(p->src.row_axis) + strlen(s) + 2;
	char *t = xmalloc(n);
	snprintf(t, n, "%s %s", p->src.row_axis, s);
	free(s);
	return t;
}

/* The line a label of lines [l0, l1) ends with: the last whose ranks they hold (not an
 * open node's line after its rank lines: the next row holds its ranks, groups.h). */
static size_t last_line(const struct hpane *p, size_t l0, size_t l1)
{
	return p->by_node ? outline_last(&p->ol, l0, l1) : l1 - 1;
}

char *hm_lines_label(const struct hpane *p, size_t l0, size_t l1, unsigned flags)
{
	bool axis = l1 - l0 > 1 && hm_lines_named(p, l0, l1);
	char *a = line_name(p, l0, axis, flags);
	size_t last = last_line(p, l0, l1);
	if (last == l0)
		return a;
	char *b = line_name(p, last, axis, flags);
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s-%s", a, b);
	free(a);
	free(b);
	return s;
}

/* Screen row y's label after its prefix: "first" or "first-last", in room columns. */
static void fit_row(char **names, size_t n, size_t y, int room, unsigned flags, char **lab)
{
	char *a = names[2 * y], *b = names[2 * y + 1], *fa, *fb = NULL;
	int wa = text_width(a);
	if (!b)
		fa = label_fit(names, n, 2 * y, room, flags);
	else if (wa + 1 + text_width(b) <= room) {
		fa = xstrdup(a);
		fb = xstrdup(b);
	} else {   /* each half the room; a short first name leaves the rest to the last */
		fa = label_fit(names, n, 2 * y, wa < (room - 1) / 2 ? wa : (room - 1) / 2, flags);
		fb = label_fit(names, n, 2 * y + 1, room - 1 - text_width(fa), flags);
	}
	size_t sz = strlen(lab[y]) + strlen(fa) + (fb ? strlen(fb) : 0) + 2;
	char *s = xmalloc(sz);
	snprintf(s, sz, "%s%s%s%s", lab[y], fa, fb ? "-" : "", fb ? fb : "");
	free(fa);
	free(fb);
	free(lab[y]);
	lab[y] = s;
}

void hm_fit_labels(const struct hpane *p, size_t ny, int w, unsigned flags, char **lab)
{
	size_t n = 2 * ny;
	char **names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t y = 0; y < ny; y++) {
		size_t r0 = p->top + y * p->rpr, r1 = r0 + p->rpr < hm_nlines(p) ? r0 + p->rpr : hm_nlines(p);
		bool axis = r1 - r0 > 1 && hm_lines_named(p, r0, r1);
		names[2 * y] = line_name(p, r0, axis, flags);
		if (last_line(p, r0, r1) > r0)
			names[2 * y + 1] = line_name(p, last_line(p, r0, r1), axis, flags);
	}
	for (size_t y = 0; y < ny; y++)
		fit_row(names, n, y, w - text_width(lab[y]), flags, lab);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
