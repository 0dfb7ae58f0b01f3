/* SPDX-License-Identifier: MIT */
/* pane_table.c: the generic table pane. Shows any registry view (model/registry.h)
 * with scrolling, a column cursor, sort (s), filter (/), export (e, via the loop) and a
 * detail box with the full text of the selected row's long text columns (so a
 * finding's title, detail and fix are all visible). Enter drills in: a finding opens
 * its evidence, a row with a rank opens that rank in the Steps pane, a DASF function
 * lists its tasks. */
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"

enum { TP_MAX_COLW = 48 };

struct tpane {
	const struct view_def *vd;
	struct table *t;
	size_t top, sel;      /* positions in t->view */
	int col;              /* column cursor */
	int first_col;        /* leftmost column drawn */
	int rows;             /* data rows in the last frame (page size) */
	int c_rank;           /* "rank" column or -1 */
	bool detail;          /* table has long text columns */
};

static int col_width(const struct table *t, int c)
{
	int w = t->col[c].width;
	int hw = (int)strlen(t->col[c].name) + 2;   /* room for the sort arrow */
	if (w < hw)
		w = hw;
	if (w < 4)
		w = 4;
	return w > TP_MAX_COLW ? TP_MAX_COLW : w;
}

static void *tp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	const struct view_def *vd = arg ? registry_view(arg) : NULL;
	if (!vd) {
		snprintf(why, whyn, "no view named '%s'", arg ? arg : "");
		return NULL;
	}
	char err[256] = "";
	struct table *t = vd->build(app->run, err, sizeof(err));
	if (!t) {
		snprintf(why, whyn, "%s: %s", vd->name, err[0] ? err : "no data in this run");
		return NULL;
	}
	struct tpane *p = xcalloc(1, sizeof(*p));
	p->vd = vd;
	p->t = t;
	p->c_rank = table_col_index(t, "rank");
	for (size_t c = 0; c < t->ncol; c++)
		if (t->col[c].type == COL_TEXT && t->col[c].width >= 40)
			p->detail = true;
	return p;
}

static void tp_close(void *priv)
{
	struct tpane *p = priv;
	table_free(p->t);
	free(p);
}

static void clamp(struct tpane *p)
{
	size_t n = p->t->nview;
	if (p->sel >= n)
		p->sel = n ? n - 1 : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->rows > 0 && p->sel >= p->top + (size_t)p->rows)
		p->top = p->sel - (size_t)p->rows + 1;
	if (p->col < 0)
		p->col = 0;
	if (p->col >= (int)p->t->ncol)
		p->col = (int)p->t->ncol - 1;
	if (p->first_col > p->col && p->col >= 1)
		p->first_col = p->col;
}

static long sel_ref(const struct tpane *p)
{
	return p->t->nview ? p->t->ref[p->t->view[p->sel]] : -1;
}

static void select_ref(struct tpane *p, long ref)
{
	for (size_t i = 0; i < p->t->nview; i++)
		if (p->t->ref[p->t->view[i]] == ref) {
			p->sel = i;
			return;
		}
}

/* Next column to draw after c: the first column stays frozen on the left, then the
 * scrolled columns from first_col. */
static int next_col(const struct tpane *p, int c)
{
	if (c < 0)
		return 0;
	if (c == 0)
		return p->first_col > 1 ? p->first_col : 1;
	return c + 1;
}

/* The selected row shows a pointer and reverses only its key cell and the cursor
 * cell: a cursor move then rewrites two short cells, not two whole rows. */
static void draw_row(struct tpane *p, struct app *app, const struct table *t, size_t row, int y,
		     int x0, int w, bool selected)
{
	int x = x0 + 1;
	if (selected)
		draw_text(y, x0, 1, app->g->pointer, ROLE_ACCENT);
	for (int c = 0; c < (int)t->ncol && x < x0 + w; c = next_col(p, c)) {
		int cw = col_width(t, c);
		if (c == (int)t->ncol - 1 || x + cw > x0 + w)
			cw = x0 + w - x;
		char buf[512];
		table_format(t, row, c, buf, sizeof(buf));
		bool hl = selected && (c == 0 || c == p->col);
		enum role r = hl ? ROLE_SELECTED : !table_cell(t, row, c)->present ? ROLE_DIM : ROLE_NORMAL;
		if (!hl && t->col[c].type == COL_TEXT && strcmp(t->col[c].name, "severity") == 0)
			r = buf[0] == 'h' ? ROLE_SEV_HIGH : buf[0] == 'm' ? ROLE_SEV_MED : ROLE_SEV_LOW;
		if (hl)
			draw_clear_rect(&(struct rect){ y, x, 1, cw - 1 }, ROLE_SELECTED);
		if (t->col[c].type == COL_TEXT)
			draw_text(y, x, cw - 1, buf, r);
		else
			draw_text_right(y, x, cw - 1, buf, r);
		x += cw;
	}
}

/* The long text cells of the selected row ("title: ...", "detail: ...", "fix: ..."):
 * drawn wrapped when r is given, else only counted. Returns rows. */
static int detail_rows(const struct tpane *p, const struct rect *r)
{
	const struct table *t = p->t;
	if (!t->nview)
		return 0;
	size_t row = t->view[p->sel];
	int used = 0;
	for (size_t c = 0; c < t->ncol; c++) {
		if (t->col[c].type != COL_TEXT || t->col[c].width < 20 || !table_cell(t, row, (int)c)->present)
			continue;
		char line[4096];
		snprintf(line, sizeof(line), "%s: %s", t->col[c].name, table_cell(t, row, (int)c)->text);
		if (!r)
			used += draw_wrap_count(COLS - 2, line);
		else if (used < r->h)
			used += draw_wrap(r, used, line, strcmp(t->col[c].name, "title") == 0 ? ROLE_ACCENT : ROLE_NORMAL);
	}
	return used;
}

static void draw_detail(struct tpane *p, struct app *app, const struct rect *r)
{
	draw_repeat(r->y, r->x, r->w, app->g->hline, ROLE_DIM);
	struct rect in = { r->y + 1, r->x + 1, r->h - 1, r->w - 2 };
	detail_rows(p, &in);
}

static void tp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct tpane *p = priv;
	const struct table *t = p->t;
	struct rect top = *body, bot = { 0 };
	if (p->detail) {
		/* as many rows as the selected row's text needs, leaving at least 4 table rows */
		int want = detail_rows(p, NULL) + 1;
		int most = body->h - 5;
		layout_split_bottom(body, want < most ? want : most, &top, &bot);
	}
	p->rows = top.h - 1;
	/* keep the column cursor visible (column 0 is frozen) */
	if (p->first_col < 1)
		p->first_col = 1;
	for (;;) {
		int x = 1 + col_width(t, 0);
		for (int c = p->first_col; c <= p->col; c++)
			x += col_width(t, c);
		if (x <= top.w || p->first_col >= p->col)
			break;
		p->first_col++;
	}
	clamp(p);
	int x = top.x + 1;
	for (int c = 0; c < (int)t->ncol && x < top.x + top.w; c = next_col(p, c)) {
		int cw = col_width(t, c);
		if (x + cw > top.x + top.w)
			cw = top.x + top.w - x;
		char h[96];
		const char *ind = c == t->sort_col ? (t->sort_desc ? app->g->desc : app->g->asc) : "";
		snprintf(h, sizeof(h), "%s%s", t->col[c].name, ind);
		enum role r = c == p->col ? ROLE_SORTED : ROLE_HEADER;
		if (t->col[c].type == COL_TEXT)
			draw_text(top.y, x, cw - 1, h, r);
		else
			draw_text_right(top.y, x, cw - 1, h, r);
		x += cw;
	}
	for (int i = 0; i < p->rows && p->top + (size_t)i < t->nview; i++) {
		size_t vi = p->top + (size_t)i;
		draw_row(p, app, t, t->view[vi], top.y + 1 + i, top.x, top.w, vi == p->sel);
	}
	if (!t->nview)
		draw_text(top.y + 1, top.x + 1, top.w - 2, t->filter ? "no rows match the filter" : "no rows",
			  ROLE_DIM);
	if (p->detail && bot.h > 1)
		draw_detail(p, app, &bot);
}

static void sort_toggle(struct tpane *p)
{
	long ref = sel_ref(p);
	struct table *t = p->t;
	if (t->sort_col == p->col)
		table_sort(t, p->col, !t->sort_desc);
	else
		table_sort(t, p->col, t->col[p->col].type != COL_TEXT);
	select_ref(p, ref);
}

/* DASF function_bottleneck: Enter lists the function's tasks (view "tasks", filtered). */
static unsigned function_tasks(struct tpane *p, struct app *app, size_t row)
{
	const struct table_cell *fn = table_cell(p->t, row, table_col_index(p->t, "Function"));
	long i = app_pane(app, &pane_table, "tasks", "tasks");
	if (!fn->present || i < 0)
		return PR_NONE;
	/* An exact glob: escape * ? [ ] \ and let ? stand for the separators of the filter
	 * syntax (space, tab, comma), which a term cannot hold. */
	char filter[APP_LINE] = "Function=";
	size_t k = strlen(filter);
	for (const char *c = fn->text; *c && k + 3 < sizeof(filter); c++) {
		if (strchr("*?[]\\", *c))
			filter[k++] = '\\';
		filter[k++] = strchr(" \t,", *c) ? '?' : *c;
	}
	filter[k] = '\0';
	struct ui_target tg = { .rank = -1, .step_lo = -1, .step_hi = -1, .item = -1, .text = filter };
	return app_show(app, (size_t)i, &tg) | PR_HANDLED;
}

static unsigned tp_enter(struct tpane *p, struct app *app)
{
	if (!p->t->nview)
		return PR_HANDLED;
	size_t row = p->t->view[p->sel];
	if (strcmp(p->t->name, "function_bottleneck") == 0)
		return function_tasks(p, app, row);
	if (strcmp(p->t->name, "findings") == 0 && p->t->ref[row] >= 0)
		return app_open_finding(app, (size_t)p->t->ref[row]) | PR_HANDLED;
	if (p->c_rank >= 0 && table_cell(p->t, row, p->c_rank)->present) {
		long s = app_find(app, &pane_steps, NULL);
		struct ui_target tg = { .rank = (int)table_cell(p->t, row, p->c_rank)->num, .step_lo = -1,
					.step_hi = -1, .item = -1 };
		if (s >= 0)
			return app_show(app, (size_t)s, &tg) | PR_HANDLED;
	}
	return PR_NONE;
}

static unsigned tp_handle(void *priv, struct app *app, enum action a)
{
	struct tpane *p = priv;
	size_t page = p->rows > 1 ? (size_t)p->rows - 1 : 1;
	switch (a) {
	case ACT_UP: if (p->sel) p->sel--; break;
	case ACT_DOWN: p->sel++; break;
	case ACT_PAGE_UP: p->sel = p->sel > page ? p->sel - page : 0; p->top = p->top > page ? p->top - page : 0; break;
	case ACT_PAGE_DOWN: p->sel += page; p->top += page; if (p->top + page > p->t->nview) p->top = p->t->nview > page ? p->t->nview - page : 0; break;
	case ACT_TOP: p->sel = 0; break;
	case ACT_BOTTOM: p->sel = p->t->nview ? p->t->nview - 1 : 0; break;
	case ACT_LEFT: p->col--; break;
	case ACT_RIGHT: p->col++; break;
	case ACT_SORT: sort_toggle(p); break;
	case ACT_ENTER: return tp_enter(p, app);
	default: return PR_NONE;
	}
	clamp(p);
	return PR_HANDLED;
}

/* The run grew: a fresh table with the same filter, sort column (by name), selected row
 * (by ref) at the same screen line, and column cursor. */
static bool tp_rebuild(void *priv, struct app *app)
{
	struct tpane *p = priv;
	char err[256] = "";
	struct table *t = p->vd->build(app->run, err, sizeof(err));
	if (!t)
		return false;
	long ref = sel_ref(p);
	size_t line = p->sel - p->top;
	if (p->t->filter)
		table_filter(t, p->t->filter, err, sizeof(err));
	int sc = p->t->sort_col >= 0 ? table_col_index(t, p->t->col[p->t->sort_col].name) : -1;
	if (sc >= 0)
		table_sort(t, sc, p->t->sort_desc);
	table_free(p->t);
	p->t = t;
	p->c_rank = table_col_index(t, "rank");
	if (ref >= 0)
		select_ref(p, ref);
	p->top = p->sel >= line ? p->sel - line : 0;
	clamp(p);
	return true;
}

static unsigned tp_select(void *priv, struct app *app, const struct ui_target *tg)
{
	struct tpane *p = priv;
	char err[128];
	if (tg->text && table_filter(p->t, tg->text, err, sizeof(err)) == 0) {
		p->sel = 0;
		return PR_HANDLED;
	}
	if (tg->item >= 0) {
		select_ref(p, tg->item);
		clamp(p);
		return PR_HANDLED;
	}
	if (tg->rank >= 0 && p->c_rank >= 0) {
		for (size_t i = 0; i < p->t->nview; i++) {
			const struct table_cell *c = table_cell(p->t, p->t->view[i], p->c_rank);
			if (c->present && (int)c->num == tg->rank) {
				p->sel = i;
				if (p->rows > 0)
					p->top = p->sel > (size_t)p->rows / 2 ? p->sel - (size_t)p->rows / 2 : 0;
				clamp(p);
				return PR_HANDLED;
			}
		}
	}
	return PR_NONE;
}

static struct table *tp_table(void *priv, struct app *app)
{
	return ((struct tpane *)priv)->t;
}

static int tp_filter(void *priv, struct app *app, const char *expr, char *err, size_t errn)
{
	struct tpane *p = priv;
	long ref = sel_ref(p);
	if (table_filter(p->t, expr, err, errn) < 0)
		return -1;
	p->sel = 0;
	select_ref(p, ref);
	p->top = 0;
	clamp(p);
	return 0;
}

static void tp_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct tpane *p = priv;
	const struct table *t = p->t;
	char val[128] = "-";
	if (t->nview) {
		const struct table_cell *c = table_cell(t, t->view[p->sel], p->col);
		if (!c->present)
			snprintf(val, sizeof(val), "-");
		else if (t->col[p->col].type == COL_TEXT)
			snprintf(val, sizeof(val), "%s", c->text);
		else
			table_format_full(c->num, val, sizeof(val));
	}
	int k = snprintf(buf, n, "%s  row %zu/%zu", t->name, t->nview ? p->sel + 1 : 0, t->nview);
	if (t->nview != t->nrow && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " (of %zu)", t->nrow);
	if (k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  %s=%s", t->col[p->col].name, val);
	if (t->sort_col >= 0 && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  sort %s%s", t->sort_desc ? "-" : "", t->col[t->sort_col].name);
	if (t->filter && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "  filter '%s'", t->filter);
}

static int tp_cur_rank(void *priv, struct app *app)
{
	struct tpane *p = priv;
	if (p->c_rank < 0 || !p->t->nview)
		return -1;
	const struct table_cell *c = table_cell(p->t, p->t->view[p->sel], p->c_rank);
	return c->present ? (int)c->num : -1;
}

const struct pane_ops pane_table = {
	.name = "table",
	.open = tp_open,
	.close = tp_close,
	.draw = tp_draw,
	.handle = tp_handle,
	.select = tp_select,
	.table = tp_table,
	.filter = tp_filter,
	.rebuild = tp_rebuild,
	.status = tp_status,
	.cur_rank = tp_cur_rank,
};
