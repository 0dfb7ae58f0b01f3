/* SPDX-License-Identifier: MIT */
/* pane_heatmap.c: any grid (model/grid.h; ranks x steps by default) as a heatmap. When
 * rows exceed the screen rows or columns exceed the screen columns, a cell shows the
 * WORST value of its bucket, so a straggler never averages away; the axis note says
 * how many rows and columns each cell holds. Zoom (+/-) and pan (H/L) act on columns
 * (not zoomed, the columns fit the whole run at any size; - undoes +, back to the whole
 * run: zoom_level); the status row shows the values under the cursor (with units); the
 * grid's own note (the steps no column shows, src.note) takes the line under the note
 * row. The bucket levels of the visible window are cached, so a cursor move costs only
 * drawing.
 *
 * Node rows: when the grid's rows are grouped (ranks by node, src.groups) the pane can
 * show one line per node (the worst of its ranks; the status row names the rank), and
 * Enter or Space expands a node to its ranks under it. It starts so when there are more
 * ranks than screen rows and more than one node; o switches. The cursor and the
 * buckets are then in lines of the outline (model/groups.h), not grid rows; a bucket of
 * several lines holds each rank once (an open node's line there adds none: its ranks are
 * lines of their own), and its label names the ranks it holds (pane_heatmap_label.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/grid.h"
#include "model/groups.h"
#include "model/registry.h"
#include "model/steps/follow.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/pane_heatmap.h"

/* Lines the pane shows: grid rows, or node and rank lines. cur_r, top and the buckets
 * count lines. */
size_t hm_nlines(const struct hpane *p)
{
	return p->by_node ? p->ol.nline : p->src.nrows;
}

/* The grid row a line stands for (a node line: its worst rank). */
size_t hm_line_row(const struct hpane *p, size_t l)
{
	return p->by_node ? outline_line_row(&p->ol, l) : l;
}

/* The line showing row: its own, else its closed node's; reveal opens the node. */
size_t hm_row_line(struct hpane *p, size_t row, bool reveal)
{
	if (!p->by_node)
		return row;
	if (reveal)
		return outline_reveal(&p->ol, row);
	long g = p->ol.gs->group_of[row];
	for (size_t l = 0; l < p->ol.nline; l++)
		if (p->ol.row[l] == (long)row || (p->ol.row[l] < 0 && (long)p->ol.grp[l] == g && !p->ol.open[g]))
			return l;
	return 0;
}

enum { HP_NODE_LABEL_W = 28 };   /* widest label column for node names */

static size_t bucket_rows(const struct hpane *p, int h)
{
	if (p->one_per_row)
		return 1;
	return h > 0 && hm_nlines(p) > (size_t)h ? (hm_nlines(p) + (size_t)h - 1) / (size_t)h : 1;
}

/* Columns per screen column that fit the whole grid. On big grids a power of two, so
 * with c0 a multiple of it every bucket is one aligned block of the producer's pyramid
 * (one lookup per rank instead of a walk over its levels); small grids use the exact
 * fit so the whole width is used. Zoom halves/doubles it. */
enum { HP_EXACT_FIT_CELLS = 1 << 22 };

static size_t fit_spc(const struct hpane *p, int w)
{
	if (w > 0 && p->src.nrows * p->src.ncols <= HP_EXACT_FIT_CELLS)
		return p->src.ncols > (size_t)w ? (p->src.ncols + (size_t)w - 1) / (size_t)w : 1;
	size_t s = 1;
	while (w > 0 && (p->src.ncols + s - 1) / s > (size_t)w)
		s *= 2;
	return s;
}

static size_t rect(const struct hpane *p, size_t r0, size_t r1, size_t c0, size_t c1, double *worst,
		   double *mean)
{
	return grid_rect(&p->src, p->blocks, r0, r1, c0, c1, worst, mean);
}

/* A cell value with the grid's unit (model/units.h rule; a unit it does not know, such
 * as "tasks", follows 3 significant digits). */
char *hm_fmt_value(const struct hpane *p, double v, char *buf, size_t n)
{
	const char *u = p->src.unit ? p->src.unit : "";
	enum unit unit = units_parse(u);
	if (unit != UNIT_NONE)
		return units_format(v, unit, buf, n);
	snprintf(buf, n, "%.3g%s%s", v, u[0] ? " " : "", u);
	return buf;
}

/* Worst and mean over lines [l0, l1) x cols [c0, c1); *wrow: the row of the worst. */
size_t hm_lines_rect(const struct hpane *p, size_t l0, size_t l1, size_t c0, size_t c1, double *worst,
			 double *mean, size_t *wrow)
{
	if (p->by_node)
		return grid_rect_lines(&p->src, p->blocks, &p->ol, l0, l1, c0, c1, worst, mean, wrow);
	*wrow = l0;
	return rect(p, l0, l1, c0, c1, worst, mean);
}

/* Colour scale: the producer's kept one (an index summary), else a coarse pass over
 * the whole grid (model/grid.h grid_colour_scale). */
static void compute_scale(struct hpane *p)
{
	if (!p->blocks && p->src.scale && p->src.scale(p->src.ud, &p->lo, &p->hi))
		return;
	grid_colour_scale(&p->src, p->blocks, &p->lo, &p->hi);
}

/* A quiet run shorter than this keeps its neighbour's attribute: its blanks then cost a
 * byte each and no colour change. A longer one is drawn plain: after a clear ncurses
 * jumps over it (a move of more than 8 columns is addressed absolutely, 8 bytes). */
enum { HP_BLANK_CARRY = 8 };

/* A diverging grid's negative values (faster in B) have levels HP_COOL + l. */
enum { HP_COOL = 16 };

static int level(const struct hpane *p, double v)
{
	if (!isfinite(v))
		return THEME_HEAT_LEVELS - 1;
	int l = (int)(text_frac(p->src.diverging ? fabs(v) : v, p->lo, p->hi) * THEME_HEAT_LEVELS);
	if (l >= THEME_HEAT_LEVELS)
		l = THEME_HEAT_LEVELS - 1;
	return p->src.diverging && v < 0 && l > 0 ? HP_COOL + l : l;
}

static bool src_open(struct hpane *p)
{
	return p->prov->open(p->model, p->metric, &p->src, p->why, sizeof(p->why));
}

static void src_close(struct hpane *p)
{
	p->prov->close(&p->src);
}

void hm_set_scale(struct hpane *p)
{
	compute_scale(p);
	if (p->src.diverging && p->blocks && p->blocks->npresent) { /* symmetric around 0 (none: NaN, no scale) */
		p->lo = 0;
		p->hi = fmax(fabs(p->blocks->min), fabs(p->blocks->max));
	}
	p->scale_rows = p->src.nrows;
	p->scale_cols = p->src.ncols;
}

/* The grid grew (follow mode): the scale from a pass over the whole grid again once it
 * has 1/16 more columns than at the last pass (or other rows); until then the new
 * columns only raise the top (the worst value stays the hottest colour). So a poll
 * costs O(rows) here, not O(rows x 64 ranges). */
static void grow_scale(struct hpane *p, size_t from)
{
	if (p->blocks || p->src.nrows != p->scale_rows || p->src.ncols < p->scale_cols ||
	    p->src.ncols >= p->scale_cols + p->scale_cols / 16 + 1) {
		hm_set_scale(p);
		return;
	}
	for (size_t r = 0; r < p->src.nrows && from < p->src.ncols; r++) {
		double w, m;
		if (rect(p, r, r + 1, from, p->src.ncols, &w, &m) && isfinite(w) && !(w <= p->hi)) {
			if (isnan(p->hi)) /* the first value of a grid that had none */
				p->lo = w;
			p->hi = w;
		}
	}
}

/* The source of p->metric: opened now, or `ready` (a grid job's, already open). */
bool hm_open_source(struct hpane *p, const struct grid_src *ready)
{
	if (p->src.ud)
		src_close(p);
	grid_blocks_free(p->blocks);
	p->blocks = NULL;
	memset(&p->src, 0, sizeof(p->src));
	size_t nopen = p->ol_n;   /* the old groups are freed with the old source */
	bool *was_open = p->ol.open;
	p->ol.open = NULL;
	outline_free(&p->ol);
	bool ok = true;
	if (ready)
		p->src = *ready;
	else
		ok = src_open(p);
	if (ok && p->src.groups) {
		outline_init(&p->ol, p->src.groups);
		p->ol_n = p->src.groups->n;
		for (size_t g = 0; g < nopen && nopen == p->src.groups->n; g++)
			outline_set(&p->ol, g, was_open[g]);
	}
	free(was_open);
	if (!p->ol.gs) {
		p->ol_n = 0;
		p->by_node = false;
	}
	if (!ok)
		return false;
	if (!p->src.range)
		p->blocks = grid_blocks_build(&p->src, 0);
	p->cache_ok = false;
	return true;
}

static bool open_metric(struct hpane *p)
{
	if (!hm_open_source(p, NULL))
		return false;
	hm_set_scale(p);
	return true;
}

/* The cursor's row and column ids, read while the source matches the model: a rebuild
 * finds the cursor by them, never by reading the old source at the old position after
 * the model changed under it (a truncated log leaves no step there). */
static void keep_cursor_ids(struct hpane *p)
{
	size_t row = hm_line_row(p, p->cur_r);
	p->cur_rid = p->src.row_id ? p->src.row_id(p->src.ud, row) : (long)row;
	p->cur_cid = p->src.col_id ? p->src.col_id(p->src.ud, p->cur_c) : (long)p->cur_c;
}

static void *hp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	void *model;
	const struct grid_provider *prov = app_grid(app, arg, &model);
	if (prov && arg && strcmp(prov->name, "steps") != 0 && prov->nmetrics(model) == 0) {
		snprintf(why, whyn, "no %s heatmap: this run has no data for it", prov->label);
		return NULL;
	}
	if (!prov || prov->nmetrics(model) == 0) {
		snprintf(why, whyn, "no heatmap: this run has no per-rank steps aligned across ranks%s",
			 arg ? "" : " and no other grid (DASF task balance)");
		return NULL;
	}
	struct hpane *p = xcalloc(1, sizeof(*p));
	p->prov = prov;
	p->model = model;
	p->nmetrics = prov->nmetrics(model);
	p->mark_row = -1;
	if (!open_metric(p) || !p->src.nrows || !p->src.ncols) {
		snprintf(why, whyn, "%s", p->why[0] ? p->why : "empty grid");
		if (p->src.ud)
			prov->close(&p->src);
		outline_free(&p->ol);
		free(p);
		return NULL;
	}
	/* node rows by default when the ranks do not fit the screen and there are nodes */
	p->by_node = p->ol_n > 1 && p->src.nrows > (size_t)(app->lay.body.h > 3 ? app->lay.body.h - 2 : 1);
	keep_cursor_ids(p);
	return p;
}

static void hp_close(void *priv)
{
	struct hpane *p = priv;
	hm_job_stop(p);
	if (p->src.ud)
		src_close(p);
	outline_free(&p->ol);
	grid_blocks_free(p->blocks);
	free(p->from_open);
	free(p->lvl);
	free(p->marks);
	table_free(p->export);
	free(p);
}

/* The window after a move, a zoom or a new size: a view the user did not zoom fits the
 * whole run at the width it has now (a resize too); a zoom is kept, never coarser than
 * that fit (reaching it ends the zoom). */
void hm_fix_view(struct hpane *p)
{
	if (p->cur_r >= hm_nlines(p))
		p->cur_r = hm_nlines(p) - 1;
	if (p->cur_c >= p->src.ncols)
		p->cur_c = p->src.ncols - 1;
	keep_cursor_ids(p);
	if (p->w <= 0)
		return;
	p->top = 0;
	if (p->rpr == 1 && p->h > 0 && hm_nlines(p) > (size_t)p->h) {
		p->top = p->cache_top;
		if (p->cur_r < p->top)
			p->top = p->cur_r;
		if (p->cur_r >= p->top + (size_t)p->h)
			p->top = p->cur_r - (size_t)p->h + 1;
	}
	size_t fit = fit_spc(p, p->w);
	if (!p->zoomed || p->spc == 0 || p->spc >= fit) {   /* the whole run, at this width */
		p->spc = fit;
		p->zoomed = false;
	}
	size_t span = (size_t)p->w * p->spc;
	p->c0 -= p->c0 % p->spc;
	if (p->cur_c < p->c0)
		p->c0 = p->cur_c - p->cur_c % p->spc;
	if (p->cur_c >= p->c0 + span)
		p->c0 = (p->cur_c - span / 2) - (p->cur_c - span / 2) % p->spc;
	if (p->c0 + span > p->src.ncols + p->spc - 1 && p->src.ncols > span)
		p->c0 = ((p->src.ncols - span) + p->spc - 1) / p->spc * p->spc;
	if (p->src.ncols <= span)
		p->c0 = 0;
}

/* The run changed (it grew, or a log was truncated or reloaded): the grid is rebuilt; the
 * cursor stays on its row and column ids (a cursor on the last column follows the newest
 * step; an id gone: the first row, the last column), a zoom stays (a view not zoomed fits
 * the grown run: hm_fix_view), and the rows shown stay. No grid left (no step aligned): false, the pane
 * reopens and says so. The ids are the ones kept before the change: the old source reads
 * the changed model, where the old cursor may be past the end. */
static bool hp_rebuild(void *priv, struct app *app)
{
	struct hpane *p = priv;
	long rid = p->cur_rid, cid = p->cur_cid;
	bool at_end = p->cur_c + 1 >= p->src.ncols;
	size_t was = p->src.ncols;
	hm_job_stop(p);
	if (p->metric >= p->prov->nmetrics(p->model) || !hm_open_source(p, NULL) || !p->src.nrows ||
	    !p->src.ncols)
		return false;
	grow_scale(p, was);
	long r = p->src.row_find ? p->src.row_find(p->src.ud, rid) : rid;
	long c = p->src.col_find ? p->src.col_find(p->src.ud, cid) : cid;
	p->cur_r = r >= 0 && (size_t)r < p->src.nrows ? hm_row_line(p, (size_t)r, false) : 0;
	p->cur_c = at_end || c < 0 || (size_t)c >= p->src.ncols ? p->src.ncols - 1 : (size_t)c;
	hm_fix_view(p);
	return true;
}

static void build_cache(struct hpane *p)
{
	if (p->cache_ok && p->cache_c0 == p->c0 && p->cache_spc == p->spc && p->cache_rpr == p->rpr &&
	    p->cache_w == p->w && p->cache_h == p->h && p->cache_top == p->top)
		return;
	free(p->lvl);
	p->lvl = xmalloc((size_t)(p->w * p->h + 1));
	double *worst = xmalloc((size_t)(p->w > 0 ? p->w : 1) * sizeof(*worst));
	for (int y = 0; y < p->h; y++) {
		/* one pass over each row of the screen row's lines for all its cells */
		size_t r0 = p->top + (size_t)y * p->rpr, r1 = r0 + p->rpr, nx = 0;
		while (nx < (size_t)p->w && p->c0 + nx * p->spc < p->src.ncols)
			nx++;
		if (r1 > hm_nlines(p))
			r1 = hm_nlines(p);
		if (r0 < r1) {
			struct line_rows lr = hm_lines_rows(p, r0, r1);
			grid_window_worst(&p->src, p->blocks, lr.rows, lr.base, lr.n, p->c0, p->spc, nx, worst);
		}
		for (int x = 0; x < p->w; x++)   /* -2: outside the grid, -1: no value */
			p->lvl[y * p->w + x] = r0 >= r1 || (size_t)x >= nx ? -2
					       : isnan(worst[x]) ? -1 : (signed char)level(p, worst[x]);
	}
	free(worst);
	p->cache_c0 = p->c0;
	p->cache_spc = p->spc;
	p->cache_rpr = p->rpr;
	p->cache_top = p->top;
	p->cache_w = p->w;
	p->cache_h = p->h;
	p->cache_ok = true;
}

static bool col_marked(const struct hpane *p, size_t c0, size_t c1)
{
	if (!p->nmarks || !p->src.col_id)
		return false;
	long lo = p->src.col_id(p->src.ud, c0), hi = p->src.col_id(p->src.ud, c1 - 1);
	for (size_t i = 0; i < p->nmarks; i++)
		if (p->marks[i] >= lo && p->marks[i] <= hi)
			return true;
	return false;
}

/* Columns from one label to the next: 12, more when the widest label shown (the first
 * or the last: the ids grow along the axis) needs them, so a step near 1e12 shows whole,
 * never clipped to "1000000000..." like its neighbours. */
static int label_gap(const struct hpane *p, int nx)
{
	char a[32], b[32];
	grid_col_label(&p->src, p->c0, a, sizeof(a));
	grid_col_label(&p->src, p->c0 + (size_t)(nx - 1) * p->spc, b, sizeof(b));
	int lw = text_width(a) > text_width(b) ? text_width(a) : text_width(b);
	return lw + 1 > 12 ? lw + 1 : 12;
}

/* Column labels every label_gap columns and the marked columns (critical steps of the
 * evidence): a label is drawn only where no mark touches it (a blank on each side), so
 * the axis shows whole labels or marks, never a label's fragments among the marks; a
 * label wider than 11 columns only whole, never clipped at the right edge. */
static void draw_header(struct hpane *p, struct app *app, const struct heat_geom *g)
{
	size_t nc = p->src.ncols;
	int w = g->header.w > 0 ? g->header.w : 0, nx = 0;
	bool *mark = xcalloc((size_t)w + 1, sizeof(*mark));
	for (; nx < w && p->c0 + (size_t)nx * p->spc < nc; nx++) {
		size_t c = p->c0 + (size_t)nx * p->spc, ce = c + p->spc < nc ? c + p->spc : nc;
		mark[nx] = p->mark_row >= 0 && col_marked(p, c, ce);
	}
	int gap = nx ? label_gap(p, nx) : 12;
	for (int x = 0; x + 8 <= w && x < nx; x += gap) {
		char lab[32];
		grid_col_label(&p->src, p->c0 + (size_t)x * p->spc, lab, sizeof(lab));
		int lw = text_width(lab) < gap - 1 ? text_width(lab) : gap - 1;
		if (lw > 11 && x + lw > w)
			break;
		bool clear = x == 0 || !mark[x - 1];
		for (int i = x; i <= x + lw && i < nx; i++)
			clear = clear && !mark[i];
		if (clear)
			draw_text(g->header.y, g->header.x + x, gap - 1, lab, ROLE_AXIS);
	}
	for (int x = 0; x < nx; x++)
		if (mark[x])
			draw_text(g->header.y, g->header.x + x, 1, app->g->mark, ROLE_MARK);
	free(mark);
}

/* Follow mode: a row of a rank grid holding a stalled rank. */

struct line_rows hm_lines_rows(const struct hpane *p, size_t l0, size_t l1)
{
	if (!p->by_node)
		return (struct line_rows){ NULL, l0, l1 - l0 };
	size_t a, b;
	outline_span(&p->ol, l0, l1, &a, &b);
	return (struct line_rows){ p->ol.gs->member + a, 0, b - a };
}

size_t hm_lr_row(const struct line_rows *lr, size_t k)
{
	return lr->rows ? lr->rows[k] : lr->base + k;
}

/* Follow mode: lines holding a stalled rank. */
static bool rows_stalled(const struct hpane *p, struct app *app, size_t l0, size_t l1)
{
	if (!app->follow || !follow_nstalled(app->follow) || !grid_rows_are_ranks(&p->src))
		return false;
	struct line_rows lr = hm_lines_rows(p, l0, l1);
	for (size_t k = 0; k < lr.n; k++)
		if (follow_rank_stalled(app->follow, (int)p->src.row_id(p->src.ud, hm_lr_row(&lr, k))))
			return true;
	return false;
}

/* Lines [l0, l1) hold the marked row (the evidence's rank). */
static bool rows_marked(const struct hpane *p, size_t l0, size_t l1)
{
	if (p->mark_row < 0)
		return false;
	struct line_rows lr = hm_lines_rows(p, l0, l1);
	for (size_t k = 0; k < lr.n; k++)
		if (hm_lr_row(&lr, k) == (size_t)p->mark_row)
			return true;
	return false;
}

static void draw_labels(struct hpane *p, struct app *app, const struct heat_geom *g, int ny)
{
	char **lab = xcalloc((size_t)ny + 1, sizeof(*lab));
	bool *stalled = xcalloc((size_t)ny + 1, sizeof(*stalled));
	for (int y = 0; y < ny; y++) {   /* the prefix: "!" a stalled rank (follow mode), a node's glyph */
		size_t r0 = p->top + (size_t)y * p->rpr, r1 = r0 + p->rpr < hm_nlines(p) ? r0 + p->rpr : hm_nlines(p);
		bool node = p->by_node && p->ol.row[r0] < 0;
		const char *gl = !node ? "" : p->ol.open[p->ol.grp[r0]] ? app->g->opened : app->g->closed;
		stalled[y] = rows_stalled(p, app, r0, r1);
		lab[y] = xmalloc(strlen(gl) + 2);
		snprintf(lab[y], strlen(gl) + 2, "%s%s", stalled[y] ? "!" : "", gl);
	}
	hm_fit_labels(p, (size_t)ny, g->labels.w - 1, app->text_flags, lab);
	for (int y = 0; y < ny; y++) {
		size_t r0 = p->top + (size_t)y * p->rpr, r1 = r0 + p->rpr < hm_nlines(p) ? r0 + p->rpr : hm_nlines(p);
		bool cur = p->cur_r >= r0 && p->cur_r < r1;
		bool marked = rows_marked(p, r0, r1);
		enum role r = hm_lines_match(p, app, r0, r1) ? ROLE_MATCH : cur ? ROLE_SELECTED : stalled[y] ? ROLE_ERROR
			      : marked ? ROLE_MARK : ROLE_AXIS;
		draw_text_right(g->labels.y + y, g->labels.x, g->labels.w - 1, lab[y], r);
		if (theme_blank_plain(r))   /* the gap before the cells in the label's attribute: no reset */
			draw_text(g->labels.y + y, g->labels.x + g->labels.w - 1, 1, " ", r);
		free(lab[y]);
	}
	free(lab);
	free(stalled);
}

/* Quiet (level 0) cells from column x of screen row y on. */
static int blank_run(const struct hpane *p, int y, int x)
{
	int n = 0;
	while (x + n < p->w && p->lvl[y * p->w + x + n] == 0)
		n++;
	return n;
}

/* The label column's width: "first-last" of the rows, "+name-+name" of node rows, and
 * "+name-rank N" when node rows hold several lines (a node and ranks), at most
 * HP_NODE_LABEL_W for node names. */
static int label_width(const struct hpane *p, bool several, unsigned flags)
{
	char *a = hm_row_name(p, 0, flags), *b = hm_row_name(p, p->src.nrows - 1, flags);
	int label_w = text_width(a) + text_width(b) + 3, rank_w = text_width(p->src.row_axis) + 1 + text_width(b);
	free(a);
	free(b);
	for (size_t g = 0; p->by_node && g < p->ol_n; g++) {
		int name_w = text_width(p->ol.gs->name[g]);
		int nw = name_w + (several && rank_w > name_w ? rank_w : name_w) + 5;
		if (nw > label_w)
			label_w = nw < HP_NODE_LABEL_W ? nw : HP_NODE_LABEL_W;
	}
	return label_w < 6 ? 6 : label_w;
}

static void hp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct hpane *p = priv;
	struct heat_geom g;
	struct rect b = *body;   /* the grid's own note (what the columns leave out) on the last line */
	if (p->src.note && b.h > 4)
		b.h--;
	layout_heatmap(&b, label_width(p, false, app->text_flags), &g);
	if (p->by_node && bucket_rows(p, g.cells.h) > 1)   /* the cells' rows do not depend on the labels' width */
		layout_heatmap(&b, label_width(p, true, app->text_flags), &g);
	p->w = g.cells.w;
	p->h = g.cells.h;
	p->y0 = g.cells.y;
	p->x0 = g.cells.x;
	p->rpr = bucket_rows(p, p->h);
	hm_fix_view(p);
	build_cache(p);
	int ny = (int)((hm_nlines(p) - p->top + p->rpr - 1) / p->rpr);
	if (ny > p->h)
		ny = p->h;
	draw_header(p, app, &g);
	draw_labels(p, app, &g, ny);
	size_t cy = (p->cur_r - p->top) / p->rpr, cx = (p->cur_c - p->c0) / p->spc;
	for (int y = 0; y < ny; y++) {
		move(g.cells.y + y, g.cells.x);
		enum role cur_role = ROLE_COUNT;
		int quiet = 0; /* length of the quiet run this cell belongs to, 0 outside one */
		for (int x = 0; x < p->w; x++) {
			signed char l = p->lvl[y * p->w + x];
			if (l == -2)
				break;
			quiet = l != 0 ? 0 : quiet ? quiet : blank_run(p, y, x);
			/* diverging: faster in B blue (mono: underlined), slower warm (the bands of the ramp) */
			bool cool = l >= HP_COOL;
			enum role r = cool ? ROLE_FASTER : theme_heat(l);
			const char *gl = l < 0 ? app->g->missing : app->g->heat[cool ? l - HP_COOL : l];
			if ((size_t)y == cy && (size_t)x == cx) {
				r = cool ? ROLE_CURSOR_FASTER : ROLE_CURSOR;   /* mono: the sign stays */
				if (l == 0)
					gl = app->g->heat[1];
			} else if (quiet && quiet < HP_BLANK_CARRY && theme_blank_plain(cur_role)) {
				r = cur_role; /* a quiet blank shows no colour: keep the attribute, send no SGR */
			}
			if (r != cur_role) {
				attrset(theme_attr(r));
				cur_role = r;
			}
			addstr(gl);
		}
		attrset(A_NORMAL);
	}
	char note[512];
	heatmap_note(p, app, g.note.w - 1, note, sizeof(note));
	draw_text(g.note.y, g.note.x + 1, g.note.w - 1, note, ROLE_HINT);
	if (b.h < body->h)
		draw_text(g.note.y + 1, g.note.x + 1, g.note.w - 1, p->src.note, ROLE_HINT);
}

static void move_row(struct hpane *p, long d)
{
	long step = (long)(p->rpr ? p->rpr : 1);
	long r = (long)p->cur_r + d * step;
	if (r < 0)
		r = 0;
	if (r >= (long)hm_nlines(p))
		r = (long)hm_nlines(p) - 1;
	p->cur_r = (size_t)r;
}

/* o: node rows on/off, the cursor staying on its rank (or that rank's node). */
static void set_by_node(struct hpane *p, bool on)
{
	size_t row = hm_line_row(p, p->cur_r);
	p->by_node = on && p->ol_n > 0;
	p->cur_r = hm_row_line(p, row, false);
	p->cache_ok = false;
	p->cache_top = 0;
}

/* Enter on a closed node, Space anywhere on a node: expand or collapse it. */
static unsigned toggle_node(struct hpane *p, struct app *app)
{
	size_t g = p->ol.grp[p->cur_r];
	bool open = !p->ol.open[g];
	outline_set(&p->ol, g, open);
	for (size_t l = 0; l < p->ol.nline; l++)   /* the cursor on the node's line */
		if (p->ol.row[l] < 0 && p->ol.grp[l] == g) {
			p->cur_r = l;
			break;
		}
	p->cache_ok = false;
	app_msg(app, false, "%s: %zu %ss%s", p->ol.gs->name[g], p->ol.gs->first[g + 1] - p->ol.gs->first[g],
		p->src.row_axis, open ? " (Space collapses)" : "");
	return PR_HANDLED;
}

/* The zoom level next to the view's (layout_zoom_level) at this width. */
static size_t zoom_level(const struct hpane *p, bool finer)
{
	return layout_zoom_level(fit_spc(p, p->w), p->spc, finer);
}

static void move_col(struct hpane *p, long d)
{
	long c = (long)p->cur_c + d;
	if (c < 0)
		c = 0;
	if (c >= (long)p->src.ncols)
		c = (long)p->src.ncols - 1;
	p->cur_c = (size_t)c;
}

static unsigned hp_handle(void *priv, struct app *app, enum action a)
{
	struct hpane *p = priv;
	long spc = (long)(p->spc ? p->spc : 1), half = (long)(p->w > 1 ? p->w / 2 : 1) * spc;
	long page = p->h > 1 ? p->h - 1 : 1, half_page = page > 1 ? page / 2 : 1;   /* in rows of the screen */
	switch (a) {
	case ACT_UP: move_row(p, -1); break;
	case ACT_DOWN: move_row(p, 1); break;
	case ACT_PAGE_UP: move_row(p, -page); break;
	case ACT_PAGE_DOWN: move_row(p, page); break;
	case ACT_HALF_UP: move_row(p, -half_page); break;
	case ACT_HALF_DOWN: move_row(p, half_page); break;
	case ACT_TOP: p->cur_r = 0; break;
	case ACT_BOTTOM: p->cur_r = hm_nlines(p) - 1; break;
	case ACT_LEFT: move_col(p, -spc); break;
	case ACT_RIGHT: move_col(p, spc); break;
	case ACT_PAN_LEFT: move_col(p, -half); p->c0 = p->c0 > (size_t)half ? p->c0 - (size_t)half : 0; break;
	case ACT_PAN_RIGHT: move_col(p, half); p->c0 += (size_t)half; break;
	case ACT_ZOOM_IN: {
		size_t finer = zoom_level(p, true);   /* p->spc itself at 1 step a column */
		p->zoomed |= finer < p->spc;
		p->spc = finer;
		p->c0 = p->cur_c > (size_t)half / 2 ? p->cur_c - (size_t)half / 2 : 0;
		break;
	}
	case ACT_ZOOM_OUT: p->spc = zoom_level(p, false); break;   /* back at the fit: no longer zoomed (hm_fix_view) */
	case ACT_ROWS:
		p->one_per_row = !p->one_per_row;
		p->rpr = bucket_rows(p, p->h);
		if (!p->one_per_row)
			p->cache_top = 0;
		break;
	case ACT_METRIC:
	case ACT_METRIC_PREV:
		return hm_next_metric(p, app, a == ACT_METRIC);
	case ACT_NONE:
		if (!p->pending)
			return PR_NONE;
		p->pending = false;
		if (!open_metric(p)) {
			app_msg(app, true, "%s", p->why);
			p->metric = 0;
			open_metric(p);
		}
		break;
	case ACT_NODES:
		if (!p->ol_n) {
			app_msg(app, true, "no node rows: this grid's rows are not grouped by node (run.json hostname, "
				"--ranks-per-node, gpu_count)");
			return PR_HANDLED;
		}
		set_by_node(p, !p->by_node);
		app_msg(app, false, p->by_node ? "one row per node (its worst rank); Space expands a node"
					       : "one row per rank");
		break;
	case ACT_EXPAND:
		if (!p->by_node)
			return PR_NONE;
		toggle_node(p, app);
		break;
	case ACT_ENTER: {   /* the columns of the cursor's bucket, all of them (a zoomed-out cell) */
		struct evidence ev;
		size_t r0, r1, c0, c1;
		if (p->by_node && p->ol.row[p->cur_r] < 0 && !p->ol.open[p->ol.grp[p->cur_r]]) {
			toggle_node(p, app);
			break;
		}
		hm_bucket(p, &r0, &r1, &c0, &c1);
		if (!p->src.cell_evidence || !p->src.cell_evidence(p->src.ud, hm_line_row(p, p->cur_r), c0, c1, &ev)) {
			app_msg(app, true, "nothing to open from a %s cell", p->prov->label);
			return PR_HANDLED | PR_REDRAW;
		}
		unsigned r = app_open_evidence(app, &ev) | PR_HANDLED;
		evidence_free(&ev);
		return r;
	}
	default:
		return PR_NONE;
	}
	hm_fix_view(p);
	return PR_HANDLED;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static unsigned hp_select(void *priv, struct app *app, const struct ui_target *t)
{
	struct hpane *p = priv;
	unsigned r = PR_NONE;
	if (t->rank >= 0 && p->src.row_find) {
		long row = p->src.row_find(p->src.ud, t->rank);
		if (row >= 0) {   /* on a node row: expand the node to the rank */
			p->cur_r = hm_row_line(p, (size_t)row, true);
			p->cache_ok = false;
			r = PR_HANDLED;
		}
	}
	if (t->step_lo >= 0 && p->src.col_find) {
		long c = p->src.col_find(p->src.ud, t->step_lo);
		if (c >= 0)
			p->cur_c = (size_t)c;
	}
	free(p->marks);
	p->marks = NULL;
	p->nmarks = 0;
	p->mark_row = -1;
	if (t->nmarks && r) {
		p->marks = xmalloc(t->nmarks * sizeof(*p->marks));
		memcpy(p->marks, t->marks, t->nmarks * sizeof(*p->marks));
		p->nmarks = t->nmarks;
		qsort(p->marks, p->nmarks, sizeof(*p->marks), cmp_long);
		p->mark_row = (long)hm_line_row(p, p->cur_r);
		if (t->step_lo < 0 && p->src.col_find) {
			long c = p->src.col_find(p->src.ud, p->marks[0]);
			if (c >= 0)
				p->cur_c = (size_t)c;
		}
	}
	hm_fix_view(p);
	return r;
}

void hm_bucket(const struct hpane *p, size_t *r0, size_t *r1, size_t *c0, size_t *c1)
{
	size_t rpr = p->rpr ? p->rpr : 1, spc = p->spc ? p->spc : 1;
	*r0 = p->top + (p->cur_r - p->top) / rpr * rpr;
	*r1 = *r0 + rpr < hm_nlines(p) ? *r0 + rpr : hm_nlines(p);
	*c0 = p->c0 + (p->cur_c - p->c0) / spc * spc;
	*c1 = *c0 + spc < p->src.ncols ? *c0 + spc : p->src.ncols;
}

/* `e`: the cells as shown (grid_cells_table, the same code as --export heatmap_cells). */
static struct table *hp_table(void *priv, struct app *app)
{
	struct hpane *p = priv;
	table_free(p->export);
	struct grid_window w = { .rpr = p->rpr, .spc = p->spc, .c0 = p->c0, .ncols = (size_t)(p->w > 0 ? p->w : 0),
				 .ol = p->by_node ? &p->ol : NULL };
	p->export = grid_cells_table(&p->src, p->blocks, &w);
	return p->export;
}

static int hp_cur_rank(void *priv, struct app *app)
{
	struct hpane *p = priv;
	return p->src.row_id ? (int)p->src.row_id(p->src.ud, hm_line_row(p, p->cur_r)) : -1;
}

/* A click selects the bucket under it (its first row and column); a click on the
 * selected bucket opens it, as Enter does. */
static unsigned hp_click(void *priv, struct app *app, int y, int x)
{
	struct hpane *p = priv;
	if (y < p->y0 || y >= p->y0 + p->h || x < p->x0 || x >= p->x0 + p->w)
		return PR_NONE;
	size_t r = p->top + (size_t)(y - p->y0) * (p->rpr ? p->rpr : 1);
	size_t c = p->c0 + (size_t)(x - p->x0) * (p->spc ? p->spc : 1);
	if (r >= hm_nlines(p) || c >= p->src.ncols)
		return PR_NONE;
	size_t r0, r1, c0, c1;
	hm_bucket(p, &r0, &r1, &c0, &c1);
	if (r >= r0 && r < r1 && c >= c0 && c < c1)
		return hp_handle(p, app, ACT_ENTER);
	p->cur_r = r;
	p->cur_c = c;
	hm_fix_view(p);
	return PR_HANDLED;
}

const struct pane_ops pane_heatmap = {
	.name = "heatmap",
	.open = hp_open,
	.close = hp_close,
	.draw = hp_draw,
	.handle = hp_handle,
	.select = hp_select,
	.table = hp_table,
	.rebuild = hp_rebuild,
	.status = heatmap_status,
	.copy = heatmap_copy,
	.hint = heatmap_hint,
	.cur_rank = hp_cur_rank,
	.click = hp_click,
	.tick = hm_tick,
	.legend = heatmap_legend,
	.items = hm_items,
	.item_text = hm_item_text,
	.item_show = hm_item_show,
	.search_from = hm_search_from,
};
