/* SPDX-License-Identifier: MIT */
/* pane_heatmap_search.c: the heatmap pane's side of the `/` search (ui/search.h): its
 * items are the grid's rows ("rank 12 gpu3"), a match moves the cursor to that row's
 * line, opening its node on node rows, and the labels of the lines that match are marked.
 * Where the prompt opened is the cursor and the nodes open then: each edit, Esc and a
 * miss put both back, so only the current match's node is open while typing. State and
 * shared helpers: ui/pane_heatmap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"
#include "ui/search.h"
#include "ui/pane_heatmap.h"

/* `/` item text of grid row r: "rank 12", with its node when ranks are grouped
 * ("rank 12 gpu3"). */
static void row_text(const struct hpane *p, size_t r, char *buf, size_t n)
{
	char *lab = grid_row_label_dup(&p->src, r);
	const struct groups *gs = p->src.groups;
	long g = gs ? gs->group_of[r] : -1;
	snprintf(buf, n, "%s %s%s%s", p->src.row_axis, lab, g >= 0 ? " " : "", g >= 0 ? gs->name[g] : "");
	free(lab);
}

bool hm_lines_match(const struct hpane *p, struct app *app, size_t l0, size_t l1)
{
	for (size_t l = l0; app->search_on && l < l1; l++) {
		char t[512];
		if (p->by_node && p->ol.row[l] < 0)
			snprintf(t, sizeof(t), "%s", p->ol.gs->name[p->ol.grp[l]]);
		else
			row_text(p, hm_line_row(p, l), t, sizeof(t));
		if (search_hit(app, t))
			return true;
	}
	return false;
}

size_t hm_items(void *priv, struct app *app, size_t *sel)
{
	struct hpane *p = priv;
	*sel = hm_line_row(p, p->cur_r);
	return p->src.nrows;
}

void hm_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	row_text(priv, i, buf, n);
}

void hm_item_show(void *priv, struct app *app, size_t i)
{
	struct hpane *p = priv;
	p->cur_r = hm_row_line(p, i, true);
	hm_fix_view(p);
}

/* The nodes open when the prompt opened, back (when the node rows are still those). */
static void nodes_back(struct hpane *p)
{
	if (!p->from_open || p->from_n != p->ol_n)
		return;
	for (size_t g = 0; g < p->ol_n; g++)
		if (p->ol.open[g] != p->from_open[g])
			outline_set(&p->ol, g, p->from_open[g]);
}

void hm_search_from(void *priv, struct app *app, bool back)
{
	struct hpane *p = priv;
	if (!back) {
		free(p->from_open);
		p->from_open = p->ol_n ? xmalloc(p->ol_n * sizeof(*p->from_open)) : NULL;
		if (p->from_open)
			memcpy(p->from_open, p->ol.open, p->ol_n * sizeof(*p->from_open));
		p->from_n = p->ol_n;
		p->from_r = p->cur_r;
		p->from_top = p->top;
		return;
	}
	nodes_back(p);
	p->cur_r = p->from_r;
	p->cache_top = p->from_top;   /* hm_fix_view scrolls from the top shown then */
	p->cache_ok = false;
	hm_fix_view(p);
}
