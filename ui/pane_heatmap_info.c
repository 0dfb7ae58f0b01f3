/* SPDX-License-Identifier: MIT */
/* pane_heatmap_info.c: what the heatmap pane says about the cell under the cursor and
 * its scale: the status row (worst and mean, which rank of a node), the note row (what a
 * cell holds, the scale), the legend (the ramp and what the range is, each level's bounds
 * with the digits that tell them apart), y/Y (the cell, the row in full precision, cut at
 * the copy's room after a whole character, ui/copy.h) and its words in the hint row.
 * Row names are whole in y/Y (within that room) and in the status row when it has
 * room; else the status row and the note clip a row's or a metric's name, never the
 * value or the scale. State and shared helpers: ui/pane_heatmap.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/table.h"
#include "model/text.h"
#include "model/units.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/label_fit.h"
#include "ui/pane_heatmap.h"

/* A name clipped to fit keeps at least this many columns (narrower, the row's last fields
 * are left out whole instead, draw_fit_fields); the widest row name in the note's range. */
enum { HI_NAME_MIN = 8, HI_NOTE_NAME_W = 24 };
/* The legend's level bounds: at most this many digits more than the rule's (units_decimals
 * keeps at most 6 decimals), then the full form; a bound's room. */
enum { HI_MORE_MAX = 6, HI_BOUND_N = 48 };
/* A bucket that jumps left-out columns names at most this many runs of them; more: how many. */
enum { HI_RUNS_MAX = 3, HI_COLS_N = 160 };

/* Does column c not follow column c - 1 (steps between them are no column: a gap)? */
static bool col_jumps(const struct grid_src *s, size_t c)
{
	long span = s->col_span > 1 ? (long)s->col_span : 1;
	return s->col_id && s->col_id(s->ud, c) != s->col_id(s->ud, c - 1) + span;
}

/* The columns [c0, c1) of a bucket, after the axis when axis: "step 96-99"; one that jumps a
 * gap names the runs it holds, "steps 98-99,150", or with more than HI_RUNS_MAX of them how
 * many columns and where, "12 steps in 98-160" (never one range across the gap). */
static void cols_label(const struct hpane *p, size_t c0, size_t c1, bool axis, char *buf, size_t n)
{
	const struct grid_src *s = &p->src;
	size_t runs = 1;
	for (size_t c = c0 + 1; c < c1; c++)
		runs += col_jumps(s, c);
	char a[24], b[24];
	grid_col_label(s, c0, a, sizeof(a));
	grid_col_label(s, c1 - 1, b, sizeof(b));
	if (runs > HI_RUNS_MAX) {
		snprintf(buf, n, "%zu %s in %s-%s", c1 - c0, s->col_span > 1 ? "blocks" : "steps", a, b);
		return;
	}
	snprintf(buf, n, "%s%s%s", axis ? s->col_axis : "", axis && runs > 1 ? "s" : "", axis ? " " : "");
	for (size_t c = c0, lo = c0; c < c1; c++) {
		if (c + 1 < c1 && !col_jumps(s, c + 1))
			continue;
		grid_col_label(s, lo, a, sizeof(a));
		grid_col_label(s, c, b, sizeof(b));
		text_appendf(buf, n, "%s%s%s%s", lo > c0 ? "," : "", a, c > lo ? "-" : "", c > lo ? b : "");
		lo = c + 1;
	}
}

/* Room for two names in room columns: whole when both fit; else the narrower keeps up to
 * half of it and the wider the rest, each at least HI_NAME_MIN. */
static void split_room(int room, int wa, int wb, int *fa, int *fb)
{
	int half = room / 2;
	*fa = wa;
	*fb = wb;
	if (wa + wb <= room)
		return;
	if (wa <= half)
		*fb = room - wa;
	else if (wb <= half)
		*fa = room - wb;
	else {
		*fa = half;
		*fb = room - half;
	}
	*fa = *fa < HI_NAME_MIN ? HI_NAME_MIN : *fa;
	*fb = *fb < HI_NAME_MIN ? HI_NAME_MIN : *fb;
}

/* The bucket's row label (lines [r0, r1)) and the metric's name, sanitized, in *ra and
 * *title (malloc'd), fitted so that the status row shows them with the `other` columns of
 * the fields that must show with them (the value): whole when they fit, else clipped,
 * the label apart from its neighbours' (label_fit: "superlongcl…node0001.hpc.example.org"). */
static void status_names(const struct hpane *p, struct app *app, size_t r0, size_t r1, int other, char **ra,
			 char **title)
{
	unsigned fl = app->text_flags;
	size_t nl = hm_nlines(p), step = p->rpr ? p->rpr : 1;
	char *names[3] = { hm_lines_label(p, r0, r1, fl), NULL, NULL };
	if (r0 >= step)
		names[1] = hm_lines_label(p, r0 - step, r0, fl);
	if (r1 < nl)
		names[2] = hm_lines_label(p, r1, r1 + step < nl ? r1 + step : nl, fl);
	char *t = text_sanitize_dup(p->src.title, fl);
	int fa, ft;
	split_room(app_status_width(app) - other, text_width(names[0]), text_width(t), &fa, &ft);
	*ra = label_fit(names, 3, 0, fa, fl);
	*title = label_fit(&t, 1, 0, ft, fl);
	for (int i = 0; i < 3; i++)
		free(names[i]);
	free(t);
}

/* The value under the cursor: the cell's, a bucket's (or a coarse grid's block's) worst
 * and mean, or "missing". */
static void status_value(const struct hpane *p, size_t cnt, double w, double m, bool one_cell, char *buf, size_t n)
{
	char wv[32], mv[32];
	hm_fmt_value(p, w, wv, sizeof(wv));
	hm_fmt_value(p, m, mv, sizeof(mv));
	if (!cnt)
		snprintf(buf, n, "missing");
	else if (one_cell && p->src.col_span <= 1)
		snprintf(buf, n, "%s", wv);
	else
		snprintf(buf, n, "worst %s mean %s", wv, mv);
}

/* Fields by importance: the rows, the columns, the metric with its value (the names
 * clipped so that the value shows, status_names), then what the cell's describe adds
 * or which rank of a node holds the worst (left out whole when they do not fit). */
void heatmap_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct hpane *p = priv;
	size_t r0, r1, c0, c1;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	char cols[HI_COLS_N], val[80], *ra, *title;
	cols_label(p, c0, c1, true, cols, sizeof(cols));
	double w = 0, m = 0;
	size_t wrow = r0;
	size_t cnt = hm_lines_rect(p, r0, r1, c0, c1, &w, &m, &wrow);
	struct line_rows lr = hm_lines_rows(p, r0, r1);
	bool one_cell = lr.n == 1 && c1 - c0 == 1;   /* a coarse grid's cell is a block: worst and mean */
	bool node = hm_lines_named(p, r0, r1);   /* a node line's label names its kind */
	bool more = cnt && (one_cell ? p->src.describe != NULL : p->by_node);
	status_value(p, cnt, w, m, one_cell, val, sizeof(val));
	int other = (node ? 0 : text_width(p->src.row_axis) + 1) + 2 + text_width(cols) + 3 + text_width(val) +
		    (more ? text_width(app->g->ellipsis) + 2 : 0);
	status_names(p, app, r0, r1, other, &ra, &title);
	int k = snprintf(buf, n, "%s%s%s  %s  %s %s", node ? "" : p->src.row_axis, node ? "" : " ", ra, cols, title,
			 val);
	free(ra);
	free(title);
	if (!more || k < 0 || (size_t)k + 4 >= n)
		return;
	if (one_cell) {
		buf[k++] = ' ';
		buf[k++] = ' ';
		p->src.describe(p->src.ud, hm_lr_row(&lr, 0), c0, buf + k, n - (size_t)k);
		return;
	}
	char *wl = hm_row_name(p, wrow, 0);   /* which rank of the node is the worst */
	snprintf(buf + k, n - (size_t)k, "  worst on %s %s", p->src.row_axis, wl);
	free(wl);
}

/* The note's fields that must show: the metric being computed, the metric (title) and
 * what a cell holds, the scale. */
static void note_head(const struct hpane *p, struct app *app, const char *title, char *note, size_t n)
{
	char lo[32], hi[32];
	note[0] = '\0';
	if (p->job)   /* the metric being computed first: the field that must show */
		text_appendf(note, n, "computing %s: %zu of %zu %ss (m: next, leaving stops it)  ",
			     p->prov->metric_name(p->model, p->job_metric), p->job_done, p->job_total, p->src.row_axis);
	text_appendf(note, n, "%s: ", title);
	if (p->by_node && p->rpr > 1)
		text_appendf(note, n, "%zu %s/row, ", p->rpr, hm_lines_kind(p));
	else if (p->by_node)
		text_appendf(note, n, "%zu nodes (worst rank), ", p->ol_n);
	else if (p->rpr > 1)
		text_appendf(note, n, "%zu %ss/row, ", p->rpr, p->src.row_axis);
	else if (p->src.nrows > (size_t)p->h) {
		size_t end = p->top + (size_t)p->h < p->src.nrows ? p->top + (size_t)p->h : p->src.nrows;
		char *names[2] = { hm_row_name(p, p->top, app->text_flags), hm_row_name(p, end - 1, app->text_flags) };
		char *first = label_fit(names, 2, 0, HI_NOTE_NAME_W, app->text_flags);
		char *last = label_fit(names, 2, 1, HI_NOTE_NAME_W, app->text_flags);
		text_appendf(note, n, "%ss %s-%s of %zu (z: all), ", p->src.row_axis, first, last, p->src.nrows);
		free(names[0]);
		free(names[1]);
		free(first);
		free(last);
	}
	size_t per = p->spc * (p->src.col_span ? p->src.col_span : 1);   /* a coarse grid: blocks */
	text_appendf(note, n, "%zu %s%s/col%s", per, p->src.col_axis, per > 1 ? "s" : "",
		     per > 1 || p->rpr > 1 ? " (worst)" : "");
	if (p->src.col_span > 1)
		text_appendf(note, n, ", kept in %zu-%s blocks", p->src.col_span, p->src.col_axis);
	hm_fmt_value(p, p->lo, lo, sizeof(lo));
	hm_fmt_value(p, p->hi, hi, sizeof(hi));
	if (isnan(p->hi)) /* every cell missing (grid_colour_scale) */
		text_appendf(note, n, "  scale n/a: no cell has a value");
	else if (p->src.diverging)
		text_appendf(note, n, "  scale +-%s (%s)", hi, theme_tier() == TIER_MONO
			     ? "faster in B underlined, slower not" : "slower in B warm, faster blue");
	else
		text_appendf(note, n, "  scale median %s..max %s", lo, hi);
}

void heatmap_note(struct hpane *p, struct app *app, int w, char *note, size_t n)
{
	char *title = text_sanitize_dup(p->src.title, app->text_flags);
	note_head(p, app, title, note, n);
	int over = text_width(note) + 2 + text_width(app->g->ellipsis) - w;
	int tw = text_width(title) - over;
	if (over > 0 && tw >= HI_NAME_MIN) {   /* the metric's name clipped so that the scale shows */
		char *fit = label_fit(&title, 1, 0, tw, app->text_flags);
		note_head(p, app, fit, note, n);
		free(fit);
	}
	free(title);
	if (p->src.diverging)   /* the keys, the last field */
		text_appendf(note, n, "  i:legend m:%s +/-:zoom", p->prov->metric_keys);
	else if (isnan(p->hi))
		text_appendf(note, n, "  i:legend m:%s", p->prov->metric_keys);
	else
		text_appendf(note, n, "  i:legend%s m:%s +/-:zoom H/L:pan z:rows",
			     p->by_node ? " Space:expand o:ranks" : "", p->prov->metric_keys);
	draw_fit_fields(note, n, w, app->g->ellipsis);
}

/* v as hm_fmt_value shows it with `more` more digits (units_format_more); past
 * HI_MORE_MAX, v's full form in the metric's unit. */
static void legend_value(const struct hpane *p, double v, int more, char *buf, size_t n)
{
	const char *u = p->src.unit ? p->src.unit : "";
	enum unit unit = units_parse(u);
	if (more > HI_MORE_MAX)
		numfmt_full(v, buf, n);
	else
		units_format_more(v, unit, more, buf, n);
	if ((more > HI_MORE_MAX || unit == UNIT_NONE) && u[0])
		text_appendf(buf, n, " %s", u);
}

/* The levels' bounds: b[k] = lo + k * (hi - lo) / levels (b[levels] = hi), with the fewest
 * digits more than the rule's that tell each bound from the next ("109 ms .. 109 ms" is no
 * range: "108.8 ms .. 109.3 ms"); the full form when none do. A scale with no range
 * (hi = lo) keeps the rule's digits. */
static void legend_bounds(const struct hpane *p, char b[][HI_BOUND_N])
{
	double step = (p->hi - p->lo) / THEME_HEAT_LEVELS;
	int last = p->hi > p->lo ? HI_MORE_MAX + 1 : 0;
	for (int more = 0; more <= last; more++) {
		bool apart = true;
		for (int k = 0; k <= THEME_HEAT_LEVELS; k++) {
			legend_value(p, k == THEME_HEAT_LEVELS ? p->hi : p->lo + step * k, more, b[k], HI_BOUND_N);
			apart = apart && (k == 0 || strcmp(b[k - 1], b[k]) != 0);
		}
		if (apart)
			return;
	}
}

/* The ramp: each level's glyph in its colour with the values it stands for. */
void heatmap_legend(void *priv, struct app *app, struct legend *l)
{
	struct hpane *p = priv;
	char buf[400];
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
	/* the scale label: what the range is, and where values outside it go; its ends as
	 * the levels' first and last bounds */
	char b[THEME_HEAT_LEVELS + 1][HI_BOUND_N];
	legend_bounds(p, b);
	const char *lo = b[0], *hi = b[THEME_HEAT_LEVELS];
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
	for (int k = 0; k < THEME_HEAT_LEVELS && !isnan(p->hi); k++) {
		if (p->src.diverging && k == 0)
			snprintf(buf, sizeof(buf), "|B - A| <= %s: no change", b[1]);
		else if (k == 0)
			snprintf(buf, sizeof(buf), "<= %s (quiet: the median, below it and just above)", b[1]);
		else if (!(p->hi > p->lo))
			snprintf(buf, sizeof(buf), "no cell: the scale has no range (its worst is its median)");
		else
			snprintf(buf, sizeof(buf), "%s%s .. %s%s", p->src.diverging ? "slower in B by " : "", b[k],
				 b[k + 1], k == THEME_HEAT_LEVELS - 1 ? " (up to the worst)" : "");
		legend_row(l, app->g->heat[k], 3, theme_heat(k), buf);
	}
	if (p->src.diverging)
		legend_row(l, app->g->heat[3], 3, ROLE_FASTER, mono ? "faster in B (same ramp of glyphs, underlined)"
								    : "faster in B (same ramp of glyphs, in blue)");
	else if (mono)
		legend_para(l, "Levels 1-5 are plain and 6-7 bold; each level has its own glyph, so the glyph "
			       "tells the level.");
	else
		legend_para(l, "Colours come in three bands (levels 1-5, 6, 7); each level has its own glyph, "
			       "so the glyph tells the level within a band.");
	legend_missing(l, app->g->missing, 3, ROLE_MISSING,
		       "a missing cell: no value in the bucket (missing is not zero)");
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

/* Y's first field: what the label of lines [l0, l1) names, by its two ends (the first
 * line and the last whose ranks they hold): the row axis ("rank"), the groups' ("node")
 * or both ("node or rank"). */
static const char *lines_axis(const struct hpane *p, size_t l0, size_t l1, char *buf, size_t n)
{
	if (!p->by_node)
		return p->src.row_axis;
	bool first = p->ol.row[l0] < 0, last = p->ol.row[outline_last(&p->ol, l0, l1)] < 0;
	if (first == last)
		return first ? p->ol.gs->axis : p->src.row_axis;
	snprintf(buf, n, "%s or %s", p->ol.gs->axis, p->src.row_axis);
	return buf;
}

/* sep and then s appended to buf at *k, unless cut (then nothing); whether the copy is
 * cut now (copy_append). */
static bool copy_put(char *buf, size_t n, size_t *k, const char *sep, const char *s, bool cut)
{
	return cut || copy_append(buf, n, k, sep) || copy_append(buf, n, k, s);
}

/* Each visible bucket of lines [r0, r1) after a tab: its columns (vals false) or its
 * worst in full precision (empty: missing); whether the copy is cut. */
static bool copy_buckets(const struct hpane *p, size_t r0, size_t r1, bool vals, char *buf, size_t n, size_t *k,
			 bool cut)
{
	size_t spc = p->spc ? p->spc : 1, wrow;
	for (size_t c = p->c0, i = 0; c < p->src.ncols && i < (size_t)p->w && !cut; c += spc, i++) {
		size_t e = c + spc < p->src.ncols ? c + spc : p->src.ncols;
		double w = 0, m = 0;
		char f[HI_COLS_N] = "";
		if (!vals)
			cols_label(p, c, e, false, f, sizeof(f));
		else if (hm_lines_rect(p, r0, r1, c, e, &w, &m, &wrow))
			table_format_full(w, f, sizeof(f));
		cut = copy_put(buf, n, k, "\t", f, cut);
	}
	return cut;
}

/* Y: the screen row under the cursor, as shown: a first line naming what the rows are
 * (lines_axis), the metric and its unit, then each visible bucket's columns; a second
 * with the row's label and each bucket's worst in full precision (empty: missing). Both
 * tab-separated, cut as copy_append cuts (1). */
static int heatmap_copy_row(struct hpane *p, char *buf, size_t n)
{
	size_t r0, r1, c0, c1, k = 0;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	char axis[64], *title = text_sanitize_dup(p->src.title, 0), *ra = hm_lines_label(p, r0, r1, 0);
	const char *unit = p->src.unit ? p->src.unit : "";
	const char *head[] = { lines_axis(p, r0, r1, axis, sizeof(axis)), " (", title, " worst", unit[0] ? ", " : "",
			       unit, ")" };
	bool cut = false;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		cut = copy_put(buf, n, &k, "", head[i], cut);
	cut = copy_buckets(p, r0, r1, false, buf, n, &k, cut);
	cut = copy_buckets(p, r0, r1, true, buf, n, &k, copy_put(buf, n, &k, "\n", ra, cut));
	free(title);
	free(ra);
	return cut;
}

/* y: the cell (bucket) under the cursor in full precision, tab-separated: its row and
 * column labels, the metric, worst, mean and the unit (the status row rounds), cut as
 * copy_append cuts (1); a missing cell copies nothing (buf empty, pane.h). Y: the row
 * (heatmap_copy_row). */
int heatmap_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct hpane *p = priv;
	if (row)
		return heatmap_copy_row(p, buf, n);
	size_t r0, r1, c0, c1, wrow, k = 0;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	double w = 0, m = 0;
	buf[0] = '\0';
	if (!hm_lines_rect(p, r0, r1, c0, c1, &w, &m, &wrow))
		return 0;
	char *ra = hm_lines_label(p, r0, r1, 0), *title = text_sanitize_dup(p->src.title, 0), cols[HI_COLS_N], wv[40],
	     mv[40];
	cols_label(p, c0, c1, false, cols, sizeof(cols));
	table_format_full(w, wv, sizeof(wv));
	table_format_full(m, mv, sizeof(mv));
	const char *f[] = { ra, cols, title, wv, mv, p->src.unit ? p->src.unit : "" };
	bool cut = false;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		cut = copy_put(buf, n, &k, i ? "\t" : "", f[i], cut);
	free(ra);
	free(title);
	return cut;
}
