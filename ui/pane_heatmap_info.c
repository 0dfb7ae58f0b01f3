/* SPDX-License-Identifier: MIT */
/* pane_heatmap_info.c: what the heatmap pane says about the cell under the cursor and
 * its scale: the status row (worst and mean, which rank of a node), the legend (the
 * ramp and what the range is), y/Y (the cell, the row in full precision) and its words
 * in the hint row. Row names are whole there (sanitized), never cut to a width. State
 * and shared helpers: ui/pane_heatmap.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/table.h"
#include "model/text.h"
#include "ui/pane_heatmap.h"

void heatmap_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct hpane *p = priv;
	size_t r0, r1, c0, c1;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	char *ra = hm_lines_label(p, r0, r1, 0), ca[24], cb[24];
	grid_col_label(&p->src, c0, ca, sizeof(ca));
	grid_col_label(&p->src, c1 - 1, cb, sizeof(cb));
	double w = 0, m = 0;
	size_t wrow = r0;
	size_t cnt = hm_lines_rect(p, r0, r1, c0, c1, &w, &m, &wrow);
	struct line_rows lr = hm_lines_rows(p, r0, r1);
	bool node = p->by_node && p->ol.row[r0] < 0;   /* a node line's label is its name */
	int k = snprintf(buf, n, "%s%s%s  %s %s%s%s  %s ", node ? "" : p->src.row_axis, node ? "" : " ", ra,
			 p->src.col_axis, ca, c1 - c0 > 1 ? "-" : "", c1 - c0 > 1 ? cb : "", p->src.title);
	free(ra);
	if (k < 0 || (size_t)k >= n)
		return;
	if (!cnt) {
		snprintf(buf + k, n - (size_t)k, "missing");
		return;
	}
	char wv[32], mv[32];
	hm_fmt_value(p, w, wv, sizeof(wv));
	hm_fmt_value(p, m, mv, sizeof(mv));
	bool one_cell = lr.n == 1 && c1 - c0 == 1;   /* a coarse grid's cell is a block: worst and mean */
	if (one_cell && p->src.col_span <= 1)
		k += snprintf(buf + k, n - (size_t)k, "%s", wv);
	else
		k += snprintf(buf + k, n - (size_t)k, "worst %s mean %s", wv, mv);
	if (one_cell) {
		if (p->src.describe && k > 0 && (size_t)k + 4 < n) {
			buf[k++] = ' ';
			buf[k++] = ' ';
			p->src.describe(p->src.ud, hm_lr_row(&lr, 0), c0, buf + k, n - (size_t)k);
		}
		return;
	}
	if (p->by_node && k > 0 && (size_t)k < n) {   /* which rank of the node is the worst */
		char *wl = hm_row_name(p, wrow, 0);
		snprintf(buf + k, n - (size_t)k, "  worst on %s %s", p->src.row_axis, wl);
		free(wl);
	}
}

/* The ramp: each level's glyph in its colour with the values it stands for. */
void heatmap_legend(void *priv, struct app *app, struct legend *l)
{
	struct hpane *p = priv;
	char buf[320];
	snprintf(buf, sizeof(buf), "Heatmap: %s (%s x %s)", p->src.title, p->src.row_axis, p->src.col_axis);
	legend_head(l, buf);
	legend_para(l, p->src.cell_evidence
		       ? "A cell is the WORST value of its bucket of rows and columns, so one slow rank never averages "
			 "away; the note row says how many rows and columns a cell holds, the status row shows the "
			 "exact worst and mean under the cursor. Enter opens the cell (its rank's steps); a click "
			 "selects a cell, a second click opens it."
		       : "A cell is the WORST value of its bucket of rows and columns; the note row says how many rows "
			 "and columns a cell holds, the status row shows the exact worst and mean under the cursor. A "
			 "cell of this grid opens nothing (Enter says so); a click selects it.");
	/* the scale label: what the range is, and where values outside it go */
	char lo[32], hi[32], a[32], b[32];
	hm_fmt_value(p, p->lo, lo, sizeof(lo));
	hm_fmt_value(p, p->hi, hi, sizeof(hi));
	bool mono = theme_tier() == TIER_MONO;   /* the sign is then the underline alone */
	if (isnan(p->hi)) /* every cell missing (grid_colour_scale): no levels to show */
		snprintf(buf, sizeof(buf), "Scale: none: no cell of this grid has a value (every cell is missing).");
	else if (p->src.diverging)
		snprintf(buf, sizeof(buf), "Scale: 0 to +-%s, the largest difference anywhere in the grid (not only "
			 "the window): %s; no cell lies outside it.", hi,
			 mono ? "faster in B underlined, slower in B not underlined"
			      : "slower in B warm, faster in B blue");
	else
		snprintf(buf, sizeof(buf), "Scale: the median cell of the whole grid (not only the window), %s, to "
			 "its worst cell, %s, in %d levels. Cells of the first level (the median, below it, and "
			 "up to 1/%d of the range above it) are blank (quiet), not missing; no cell is above the "
			 "worst.", lo, hi, THEME_HEAT_LEVELS, THEME_HEAT_LEVELS);
	legend_para(l, buf);
	double step = (p->hi - p->lo) / THEME_HEAT_LEVELS;
	for (int k = 0; k < THEME_HEAT_LEVELS && !isnan(p->hi); k++) {
		hm_fmt_value(p, p->lo + step * k, a, sizeof(a));
		hm_fmt_value(p, p->lo + step * (k + 1), b, sizeof(b));
		if (p->src.diverging && k == 0)
			snprintf(buf, sizeof(buf), "|B - A| <= %s: no change", b);
		else if (k == 0)
			snprintf(buf, sizeof(buf), "<= %s (quiet: the median, below it and just above)", b);
		else
			snprintf(buf, sizeof(buf), "%s%s .. %s%s", p->src.diverging ? "slower in B by " : "", a, b,
				 k == THEME_HEAT_LEVELS - 1 ? " (up to the worst)" : "");
		legend_row(l, app->g->heat[k], 3, theme_heat(k), buf);
	}
	if (p->src.diverging)
		legend_row(l, app->g->heat[3], 3, ROLE_FASTER, mono ? "faster in B (same ramp of glyphs, underlined)"
								    : "faster in B (same ramp of glyphs, in blue)");
	else
		legend_para(l, "Colours come in three bands (levels 1-5, 6, 7); each level has its own glyph, "
			       "so the glyph tells the level within a band.");
	legend_row(l, app->g->missing, 3, ROLE_MISSING, "no value in the bucket (missing is not zero)");
	if (p->src.groups) {
		legend_row(l, app->g->closed, 1, ROLE_DIM, "a node row: the worst of its ranks (Enter or Space expands it)");
		legend_row(l, app->g->opened, 1, ROLE_DIM, "an expanded node: its ranks follow (Space collapses it)");
	}
	legend_row(l, app->g->heat[1], 3, ROLE_CURSOR, "the cursor (reversed)");
	legend_row(l, app->g->mark, 1, ROLE_MARK, "header mark: a step the opened finding names (critical steps)");
	legend_row(l, "12", 1, ROLE_MARK, "row label: the rank the opened finding names");
	legend_row(l, "!3", 1, ROLE_ERROR, "row label: a stalled rank (follow mode: no new record for a while)");
	legend_terms(l, p->src.title);
}

/* The hint row: m flips a comparison's B - A, A and B; Enter opens a cell of a grid whose
 * cells have evidence. */
void heatmap_hint(void *priv, struct app *app, char *buf, size_t n)
{
	struct hpane *p = priv;
	bool flip = app->cmp && p->nmetrics > 1, opens = p->src.cell_evidence != NULL;
	snprintf(buf, n, "%s%s%s", flip ? "m:A/B/delta" : "", flip && opens ? "  " : "", opens ? "Enter:open" : "");
}

/* Y: the screen row under the cursor, as shown: a first line naming the row axis, the
 * metric and its unit, then each visible bucket's columns; a second with the row's label
 * and each bucket's worst in full precision (empty: missing). Both tab-separated. */
static int heatmap_copy_row(struct hpane *p, struct app *app, char *buf, size_t n)
{
	size_t r0, r1, c0, c1, wrow, spc = p->spc ? p->spc : 1;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	char head[4096], vals[4096] = "";
	size_t kh = (size_t)snprintf(head, sizeof(head), "%s (%s worst%s%s)", p->src.row_axis, p->src.title,
				     p->src.unit ? ", " : "", p->src.unit ? p->src.unit : ""), kv = 0;
	for (size_t c = p->c0, i = 0; c < p->src.ncols && i < (size_t)p->w; c += spc, i++) {
		size_t e = c + spc < p->src.ncols ? c + spc : p->src.ncols;
		double w = 0, m = 0;
		char ca[24], cb[24], v[40] = "";
		grid_col_label(&p->src, c, ca, sizeof(ca));
		grid_col_label(&p->src, e - 1, cb, sizeof(cb));
		if (hm_lines_rect(p, r0, r1, c, e, &w, &m, &wrow))
			table_format_full(w, v, sizeof(v));
		if (kh + strlen(ca) + strlen(cb) + 3 >= sizeof(head) || kv + strlen(v) + 2 >= sizeof(vals))
			break;
		bool span = e - c > 1;
		kh += (size_t)snprintf(head + kh, sizeof(head) - kh, "\t%s%s%s", ca, span ? "-" : "", span ? cb : "");
		kv += (size_t)snprintf(vals + kv, sizeof(vals) - kv, "\t%s", v);
	}
	char *ra = hm_lines_label(p, r0, r1, 0);
	snprintf(buf, n, "%s\n%s%s", head, ra, vals);
	free(ra);
	return 0;
}

/* y: the cell (bucket) under the cursor in full precision, tab-separated: its row and
 * column labels, the metric, worst, mean and the unit (the status row rounds); Y: the
 * row (heatmap_copy_row). */
int heatmap_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct hpane *p = priv;
	if (row)
		return heatmap_copy_row(p, app, buf, n);
	size_t r0, r1, c0, c1, wrow;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	double w = 0, m = 0;
	if (!hm_lines_rect(p, r0, r1, c0, c1, &w, &m, &wrow))
		return -1;
	char *ra = hm_lines_label(p, r0, r1, 0), ca[24], cb[24], wv[40], mv[40];
	grid_col_label(&p->src, c0, ca, sizeof(ca));
	grid_col_label(&p->src, c1 - 1, cb, sizeof(cb));
	table_format_full(w, wv, sizeof(wv));
	table_format_full(m, mv, sizeof(mv));
	snprintf(buf, n, "%s\t%s%s%s\t%s\t%s\t%s\t%s", ra, ca, c1 - c0 > 1 ? "-" : "", c1 - c0 > 1 ? cb : "",
		 p->src.title, wv, mv, p->src.unit ? p->src.unit : "");
	free(ra);
	return 0;
}
