/* SPDX-License-Identifier: MIT */
/* pane_table.c: the generic table pane. Shows any registry view (model/registry.h)
 * with scrolling, a column cursor, sort (s), filter (/), export (e, via the loop) and a
 * detail box with the full text of the selected row's long text columns (so a
 * finding's title, detail and fix are all visible). Columns are found by role
 * (model/table.h), never by name. Enter opens the row's evidence (the view's
 * row_evidence: a finding's own evidence, a DASF function's tasks; by default a row
 * with a rank opens that rank's steps; a pair's view: compare_row_evidence, on the pair's
 * heatmap). A drill-down shows exactly its evidence: its
 * filter, or none, in place of the pane's own until Esc leaves it; its row selected. A
 * table whose rows are grouped (the Ranks view: ranks by node, table.h groups) can show
 * one row per node, its worst rank; Enter or Space expands a node, o switches between
 * node and rank rows. Node rows are the default when there are more rows than fit and
 * more than one node. A node name wider than its column is clipped apart from the other
 * rows' (ui/label_fit.h: the part where it differs stays), a node row's rank count " (8)"
 * whole (a filter keeping 6: its worst of those, "(6/8)"). `/` on node rows also finds
 * the ranks inside a closed node and opens it; Esc puts the nodes back as they were. The
 * legend is pane_table_legend.c's, the choice of columns and their widths
 * pane_table_layout.c's. */
#include <stdlib.h>
#include <string.h>
#include "model/compare/views.h"
#include "model/groups.h"
#include "model/text.h"
#include "model/registry.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/label_fit.h"
#include "ui/list.h"
#include "ui/pane_table.h"

struct tpane {
	char *arg;            /* the view's name (owned), for rebuilds */
	struct table *t;
	struct list_cursor lc; /* over t->view (sel, top, rows) */
	int col;              /* column cursor */
	int y0;               /* screen row of the first data row (mouse) */
	struct table_cols cols; /* columns drawn in the last frame (pane_table_layout.c) */
	int c_rank;           /* the COL_ROLE_RANK column or -1 */
	bool detail;          /* table has long text columns */
	size_t *items;        /* `/` items on node rows: the rows with every node open (tp_items) */
	bool *from_open;      /* where the `/` prompt opened: the nodes open (from_n), the selection */
	size_t from_n, from_sel, from_top;
	bool drilled;         /* a drill-down set the filter (tp_select): the pane's own is kept, */
	char *kept;           /* ... NULL for none, until the back stack is below drill_back */
	size_t drill_back;
};

/* A view built in parts (a row per record: steps) opens with its first parts, up to
 * this many rows (whole ranks; the table holds 32 bytes a cell): a huge run's view
 * never fills the memory, and the status row says the rest is not shown. */
#define TP_PART_ROWS 262144

/* vd's first parts up to TP_PART_ROWS rows; partial when a part was left out. */
static struct table *build_parts(struct app *app, const struct view_def *vd, char *err, size_t errn)
{
	size_t cursor = 0;
	struct table *t = vd->build_next(app->run, &cursor, err, errn), *u;
	while (t && (u = vd->build_next(app->run, &cursor, err, errn))) {
		if (t->nrow + u->nrow > TP_PART_ROWS) {
			table_free(u);
			t->partial = true;
			break;
		}
		table_append_take(t, u);
	}
	return t;
}

/* The view's table: a run view, or in compare mode a view of the pair. */
static struct table *build_view(struct app *app, const char *arg, char *why, size_t whyn)
{
	const struct cmp_view *cv = app->cmp && arg ? compare_view(arg) : NULL;
	const struct view_def *vd = arg && !cv ? registry_view(arg) : NULL;
	if (!vd && !cv) {
		snprintf(why, whyn, "no view named '%s'", arg ? arg : "");
		return NULL;
	}
	char err[256] = "";
	struct table *t;
	if (cv)
		t = cv->build(app->cmp, err, sizeof(err));
	else if (vd->build_next)
		t = build_parts(app, vd, err, sizeof(err));
	else
		t = vd->build(app->run, err, sizeof(err));
	if (!t)
		snprintf(why, whyn, "%s: %s", arg, err[0] ? err : "no data in this run");
	return t;
}

static void *tp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	struct table *t = build_view(app, arg, why, whyn);
	if (!t)
		return NULL;
	struct tpane *p = xcalloc(1, sizeof(*p));
	p->arg = arg ? xstrdup(arg) : NULL;
	p->t = t;
	p->cols.need = xcalloc(t->ncol + 1, sizeof(*p->cols.need));
	list_resize(&p->lc, t->nview, 0);
	p->c_rank = table_col_role(t, COL_ROLE_RANK);
	for (size_t c = 0; c < t->ncol; c++)
		if (t->col[c].type == COL_TEXT && t->col[c].width >= 40)
			p->detail = true;
	/* node rows by default when the rows do not fit and there are nodes */
	if (t->groups && t->groups->n > 1 && t->nrow + 1 > (size_t)(app->lay.body.h > 1 ? app->lay.body.h : 1)) {
		table_group_by(t, true);
		list_resize(&p->lc, t->nview, 0);
	}
	return p;
}

static void tp_close(void *priv)
{
	struct tpane *p = priv;
	table_free(p->t);
	free(p->cols.need);
	free(p->arg);
	free(p->items);
	free(p->from_open);
	free(p->kept);
	free(p);
}

static void clamp(struct tpane *p)
{
	list_resize(&p->lc, p->t->nview, p->lc.rows);
	if (p->col < 0)
		p->col = 0;
	if (p->col >= (int)p->t->ncol)
		p->col = (int)p->t->ncol - 1;
}

static long sel_ref(const struct tpane *p)
{
	return p->t->nview ? p->t->ref[p->t->view[p->lc.sel]] : -1;
}

/* Does group g hold the row whose ref is ref? */
static bool group_has_ref(const struct table *t, long g, long ref)
{
	const struct groups *gs = t->groups;
	for (size_t k = gs->first[g]; k < gs->first[g + 1]; k++)
		if (t->ref[gs->member[k]] == ref)
			return true;
	return false;
}

static void select_ref(struct tpane *p, long ref)
{
	for (size_t i = 0; i < p->t->nview; i++)
		if (p->t->ref[p->t->view[i]] == ref) {
			p->lc.sel = i;
			return;
		}
}

/* expr (NULL: none) as the pane's own filter (a drill-down's is over), the cursor kept
 * on its row when the filter keeps it. */
static int set_filter(struct tpane *p, const char *expr, char *err, size_t errn)
{
	long ref = sel_ref(p);
	if (table_filter(p->t, expr, err, errn) < 0)
		return -1;
	free(p->kept);   /* expr may be it: table_filter copied it */
	p->kept = NULL;
	p->drilled = false;
	p->lc.sel = 0;
	select_ref(p, ref);
	p->lc.top = 0;
	clamp(p);
	return 0;
}

/* A drill-down sets the filter: the pane's own is kept (the first drill-down's when
 * another follows) until Esc goes back past where this one landed. */
static void drill_keep(struct tpane *p, struct app *app)
{
	if (!p->drilled)
		p->kept = p->t->filter ? xstrdup(p->t->filter) : NULL;
	p->drilled = true;
	p->drill_back = app->nback;
}

const char *table_pane_own_filter(const void *priv)
{
	const struct tpane *p = priv;
	return p->drilled ? p->kept : p->t->filter;
}

/* Esc went back (pane.h back): past the drill-down, the back stack below where it landed,
 * the pane's own filter again (it was valid before, so it is again). */
static void tp_back(void *priv, struct app *app)
{
	struct tpane *p = priv;
	char err[256];
	if (p->drilled && app->nback < p->drill_back)
		set_filter(p, p->kept, err, sizeof(err));
}

/* The group column's text on the n screen rows from the top, sanitized: a node row's
 * node name, any other row's cell. NULL when the table has no groups. */
static char **group_names(const struct tpane *p, const struct app *app, size_t n)
{
	const struct table *t = p->t;
	if (!t->groups)
		return NULL;
	char **names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t i = 0; i < n; i++) {
		size_t row = t->view[p->lc.top + i];
		long g = t->grouped ? table_row_group(t, row) : -1;
		char buf[512];
		table_display(t, row, t->group_col, buf, sizeof(buf));
		names[i] = text_sanitize_dup(g >= 0 ? t->groups->name[g] : buf, app->text_flags);
	}
	return names;
}

/* The group cell of screen row i in w columns: its name clipped apart from the other
 * rows' names (ui/label_fit.h), after a node row's glyph and before a closed node's
 * count, which stays whole: a closed node "+name (8)" (with a filter leaving 2 of its
 * ranks out, "+name (6/8)"), an open one "-name". */
static char *group_cell(struct app *app, const struct table *t, size_t row, char *const *names, size_t n,
			size_t i, int w)
{
	long g = t->grouped ? table_row_group(t, row) : -1;
	const char *pre = g < 0 ? "" : t->gopen[g] ? app->g->opened : app->g->closed;
	char cnt[48] = "", of[40];
	if (g >= 0 && !t->gopen[g])
		snprintf(cnt, sizeof(cnt), " (%s)", table_group_count(t, g, of, sizeof(of)));
	int room = w - text_width(pre) - text_width(cnt);
	char *name = label_fit(names, n, i, room > 1 ? room : 1, app->text_flags);
	size_t sz = strlen(pre) + strlen(name) + strlen(cnt) + 1;
	char *s = xmalloc(sz);
	snprintf(s, sz, "%s%s%s", pre, name, cnt);
	free(name);
	return s;
}

/* The selected row shows a pointer and reverses only its key cell and the cursor
 * cell: a cursor move then rewrites two short cells, not two whole rows. */
static void draw_row(struct tpane *p, struct app *app, char *const *names, size_t n, size_t line, int y, int x0)
{
	const struct table *t = p->t;
	size_t vi = p->lc.top + line, row = t->view[vi];
	bool selected = vi == p->lc.sel;
	if (selected)
		draw_text(y, x0, 1, app->g->pointer, ROLE_ACCENT);
	for (int i = 0; i < p->cols.n; i++) {
		int c = p->cols.c[i], x = p->cols.x[i], cw = p->cols.x[i + 1] - x;
		char buf[512];
		table_display(t, row, c, buf, sizeof(buf));
		if (names && c == t->group_col) {
			char *g = group_cell(app, t, row, names, n, line, cw - 1);
			snprintf(buf, sizeof(buf), "%s", g);
			free(g);
		}
		bool hl = selected && (c == 0 || c == p->col);
		enum role r = hl ? ROLE_SELECTED : !table_cell(t, row, c)->present ? ROLE_DIM : ROLE_NORMAL;
		if (!hl && t->col[c].role == COL_ROLE_SEVERITY)
			r = buf[0] == 'h' ? ROLE_SEV_HIGH : buf[0] == 'm' ? ROLE_SEV_MED : buf[0] == 'l' ? ROLE_SEV_LOW : ROLE_DIM;
		if (hl)
			draw_clear_rect(&(struct rect){ y, x, 1, cw - 1 }, ROLE_SELECTED);
		if (t->col[c].type == COL_TEXT)
			draw_text(y, x, cw - 1, buf, r);
		else
			draw_text_right(y, x, cw - 1, buf, r);
	}
}

/* The long text cells of the selected row ("title: ...", "detail: ...", "fix: ..."):
 * drawn wrapped when r is given, else only counted. Returns rows. */
static int detail_rows(const struct tpane *p, const struct rect *r)
{
	const struct table *t = p->t;
	if (!t->nview)
		return 0;
	size_t row = t->view[p->lc.sel];
	int used = 0;
	for (size_t c = 0; c < t->ncol; c++) {
		if (t->col[c].type != COL_TEXT || t->col[c].width < 20 || !table_cell(t, row, (int)c)->present)
			continue;
		char line[4096];
		snprintf(line, sizeof(line), "%s: %s", t->col[c].name, table_cell(t, row, (int)c)->text);
		if (!r)
			used += draw_wrap_count(COLS - 2, line);
		else if (used < r->h)
			used += draw_wrap(r, used, line, t->col[c].role == COL_ROLE_TITLE ? ROLE_ACCENT : ROLE_NORMAL);
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
	p->lc.rows = top.h - 1;
	clamp(p);
	p->y0 = top.y + 1;
	table_cols_layout(&p->cols, t, p->lc.top, p->lc.rows, p->col, top.x, top.w);
	for (int i = 0; i < p->cols.n; i++) {
		int c = p->cols.c[i], x = p->cols.x[i], cw = p->cols.x[i + 1] - x;
		char h[96];
		const char *ind = c == t->sort_col ? (t->sort_desc ? app->g->desc : app->g->asc) : "";
		snprintf(h, sizeof(h), "%s%s", t->col[c].name, ind);
		enum role r = c == p->col ? ROLE_SORTED : ROLE_HEADER;
		if (t->col[c].type == COL_TEXT)
			draw_text(top.y, x, cw - 1, h, r);
		else
			draw_text_right(top.y, x, cw - 1, h, r);
	}
	size_t rows = p->lc.rows > 0 ? (size_t)p->lc.rows : 0;
	size_t shown = p->lc.top + rows < t->nview ? rows : t->nview - p->lc.top;
	char **names = group_names(p, app, shown);
	for (size_t i = 0; i < shown; i++)
		draw_row(p, app, names, shown, i, top.y + 1 + (int)i, top.x);
	for (size_t i = 0; names && i < shown; i++)
		free(names[i]);
	free(names);
	char *why = t->nview ? NULL : table_pane_empty(t, app); /* held in part: the ranks loaded, the export of all */
	if (why)
		draw_wrap(&(struct rect){ top.y + 1, top.x + 1, top.h - 1, top.w - 2 }, 0, why, ROLE_DIM);
	free(why);
	if (p->detail && bot.h > 1)
		draw_detail(p, app, &bot);
}

static void sort_toggle(struct tpane *p)
{
	long ref = sel_ref(p);
	struct table *t = p->t;
	if (t->sort_col == p->col)
		table_sort(t, p->col, !t->sort_desc);
	else   /* numbers and severities the largest first, text A to Z */
		table_sort(t, p->col, t->col[p->col].type != COL_TEXT || t->col[p->col].role == COL_ROLE_SEVERITY);
	select_ref(p, ref);
}

/* Enter: the row's evidence, opened by the one map in app.c: registry_row_evidence, in
 * compare mode (no Steps pane) compare_row_evidence on the pair's heatmap (a rank at its
 * onset in B, a finding's rank and steps); a row with nothing to open says so rather
 * than nothing. */
static unsigned tp_enter(struct tpane *p, struct app *app)
{
	if (!p->t->nview) {
		app_msg(app, false, !p->t->filter ? "nothing to open: %s has no rows" : p->t->partial
			? "nothing to open: no row matches the filter in the first ranks' rows loaded"
			: "nothing to open: no row matches the filter", p->t->name);
		return PR_HANDLED;
	}
	unsigned r = PR_NONE;
	struct evidence ev;
	size_t row = p->t->view[p->lc.sel];
	if (app->cmp ? app_find(app, &pane_heatmap, NULL) >= 0 && compare_row_evidence(app->cmp, p->t, row, &ev)
		     : registry_row_evidence(app->run, p->t, row, &ev)) {
		r = app_open_evidence(app, &ev) | PR_HANDLED;
		evidence_free(&ev);
	}
	if (r == PR_NONE) {
		app_msg(app, false, "nothing to open from a %s row", p->t->name);
		r = PR_HANDLED;
	}
	return r;
}

/* The hint row: Enter where a row opens something (its evidence, a rank, a node). */
static void tp_hint(void *priv, struct app *app, char *buf, size_t n)
{
	struct tpane *p = priv;
	const struct view_def *vd = app->cmp ? NULL : registry_view(p->t->name);
	bool opens = p->t->nview && (p->c_rank >= 0 || p->t->grouped || (vd && vd->row_evidence));
	snprintf(buf, n, "%s", opens ? "Enter:open" : "");
}

/* Group of the selected row, -1 when none or not grouped. */
static long sel_group(const struct tpane *p)
{
	return p->t->grouped && p->t->nview ? table_row_group(p->t, p->t->view[p->lc.sel]) : -1;
}

static bool sel_group_closed(const struct tpane *p)
{
	long g = sel_group(p);
	return g >= 0 && !p->t->gopen[g];
}

/* Enter on a closed node, Space on any row of a node: expand or collapse it; the
 * selection stays on the node's shown row. */
static unsigned toggle_group(struct tpane *p, struct app *app)
{
	long g = sel_group(p), ref = sel_ref(p);
	const struct groups *gs = p->t->groups;
	bool open = !p->t->gopen[g];
	table_group_open(p->t, g, open);
	if (!open)   /* the node's one row */
		for (size_t i = 0; i < p->t->nview; i++)
			if (table_row_group(p->t, p->t->view[i]) == g)
				ref = p->t->ref[p->t->view[i]];
	select_ref(p, ref);
	clamp(p);
	char of[64];
	app_msg(app, false, "%s: %zu row%s%s%s", gs->name[g], p->t->gkept[g], p->t->gkept[g] == 1 ? "" : "s",
		table_group_of(p->t, g, of, sizeof(of)), open ? " (Space collapses)" : "");
	return PR_HANDLED;
}

/* o: one row per node / every row. */
static unsigned toggle_grouped(struct tpane *p, struct app *app)
{
	if (!p->t->groups) {
		app_msg(app, true, "no node rows in this view (Ranks groups ranks by node: run.json hostname, "
			"--ranks-per-node, gpu_count)");
		return PR_HANDLED;
	}
	long ref = sel_ref(p);
	table_group_by(p->t, !p->t->grouped);
	select_ref(p, ref);
	if (p->t->grouped && sel_ref(p) != ref)   /* its rank is inside a closed node: select the node */
		for (size_t i = 0; i < p->t->nview; i++) {
			long g = table_row_group(p->t, p->t->view[i]);
			if (g >= 0 && group_has_ref(p->t, g, ref))
				p->lc.sel = i;
		}
	clamp(p);
	app_msg(app, false, p->t->grouped ? "one row per node (its worst rank); Space expands a node"
					  : "one row per rank");
	return PR_HANDLED;
}

static unsigned tp_handle(void *priv, struct app *app, enum action a)
{
	struct tpane *p = priv;
	/* keys typed ahead of the first frame page by the body's height */
	if (p->lc.rows <= 0)
		list_resize(&p->lc, p->t->nview, app->lay.body.h - 1);
	if (list_key(&p->lc, a))
		return PR_HANDLED;
	switch (a) {
	case ACT_LEFT: p->col--; break;
	case ACT_RIGHT: p->col++; break;
	case ACT_SORT: sort_toggle(p); break;
	case ACT_ENTER:
		if (sel_group_closed(p))
			return toggle_group(p, app);
		return tp_enter(p, app);
	case ACT_EXPAND:
		if (!p->t->grouped || sel_group(p) < 0)
			return PR_NONE;
		return toggle_group(p, app);
	case ACT_NODES: return toggle_grouped(p, app);
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
	struct table *t = build_view(app, p->arg, err, sizeof(err));
	if (!t)
		return false;
	long ref = sel_ref(p);
	size_t line = p->lc.sel - p->lc.top;
	if (p->t->filter)
		table_filter(t, p->t->filter, err, sizeof(err));
	if (t->groups && p->t->groups && t->groups->n == p->t->groups->n) {   /* node rows as they were */
		memcpy(t->gopen, p->t->gopen, t->groups->n * sizeof(*t->gopen));
		t->grouped = p->t->grouped;
	}
	int sc = p->t->sort_col >= 0 ? table_col_index(t, p->t->col[p->t->sort_col].name) : -1;
	table_sort(t, sc, sc >= 0 && p->t->sort_desc);
	if (t->ncol != p->t->ncol) {   /* widths seen so far belong to the old columns */
		free(p->cols.need);
		p->cols.need = xcalloc(t->ncol + 1, sizeof(*p->cols.need));
	}
	table_free(p->t);
	p->t = t;
	p->c_rank = table_col_role(t, COL_ROLE_RANK);
	if (ref >= 0)
		select_ref(p, ref);
	p->lc.top = p->lc.sel >= line ? p->lc.sel - line : 0;
	clamp(p);
	return true;
}

/* n/N on node rows: open the node that holds rank (a straggler) so its row shows. */
static void reveal_rank(struct tpane *p, int rank)
{
	if (!p->t->grouped)
		return;
	for (size_t r = 0; r < p->t->nrow; r++) {
		const struct table_cell *c = table_cell(p->t, r, p->c_rank);
		long g = table_row_group(p->t, r);
		if (c->present && (int)c->num == rank && g >= 0 && !p->t->gopen[g]) {
			table_group_open(p->t, g, true);
			list_resize(&p->lc, p->t->nview, p->lc.rows);
			return;
		}
	}
}

/* A drill-down (tg->drill) shows exactly its evidence: its rows (evidence_filter), else
 * every row, never the filter the pane had (drill_keep), then its row or its rank's.
 * n/N and :rank keep the filter: a rank it hides is not shown here. */
static unsigned tp_select(void *priv, struct app *app, const struct ui_target *tg)
{
	struct tpane *p = priv;
	struct filter_term terms[EVIDENCE_TERMS];
	char shown[APP_LINE];
	size_t n = tg->ev ? evidence_filter(tg->ev, p->t, terms, shown, sizeof(shown)) : 0;
	if (tg->drill) {
		drill_keep(p, app);
		bool rows = n && table_filter_terms(p->t, terms, n, shown) == 0;
		if (!rows)
			table_filter_terms(p->t, NULL, 0, NULL);
		p->lc.sel = 0;
		p->lc.top = 0;
		clamp(p);
		if (rows && tg->item < 0)   /* its rows; else its own row among them, below */
			return PR_HANDLED;
	}
	if (tg->item >= 0) {
		select_ref(p, tg->item);
		clamp(p);
		return PR_HANDLED;
	}
	if (tg->rank >= 0 && p->c_rank >= 0) {
		reveal_rank(p, tg->rank);
		for (size_t i = 0; i < p->t->nview; i++) {
			const struct table_cell *c = table_cell(p->t, p->t->view[i], p->c_rank);
			if (c->present && (int)c->num == tg->rank) {
				list_jump(&p->lc, i);
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

/* f: the user's filter, which Esc after a drill-down no longer replaces. */
static int tp_filter(void *priv, struct app *app, const char *expr, char *err, size_t errn)
{
	return set_filter(priv, expr, err, errn);
}

static void tp_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct tpane *p = priv;
	const struct table *t = p->t;
	char val[512] = "-";
	if (t->nview)   /* the value as the table shows it, text in full (y copies all digits) */
		table_display(t, t->view[p->lc.sel], p->col, val, sizeof(val));
	int k = snprintf(buf, n, "%s  row %zu/%zu", t->name, t->nview ? p->lc.sel + 1 : 0, t->nview);
	if (t->nview != t->nrow && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " (of %zu)", t->nrow);
	if (t->partial && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  the first ranks' rows only (all: --export %s)", t->name);
	if (k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  %s=%s", t->col[p->col].name, val);
	if (t->sort_col >= 0 && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  sort %s%s", t->sort_desc ? "-" : "", t->col[t->sort_col].name);
	if (t->filter && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  filter '%s'", t->filter);
	long g = sel_group(p);
	if (g >= 0 && !t->gopen[g] && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "  %s: %s (Space: expand)", t->groups->name[g],
			 table_group_describe(t, g, val, sizeof(val)));
}

/* Node rows: p->items, the rows as the view shows them with every node open; how many. */
static size_t tree_rows(struct tpane *p)
{
	struct table *t = p->t;
	size_t ng = t->groups->n, n;
	bool *was = xmalloc(ng * sizeof(*was));
	memcpy(was, t->gopen, ng * sizeof(*was));
	table_group_open(t, -1, true);
	n = t->nview;
	p->items = xmalloc((n + 1) * sizeof(*p->items));
	memcpy(p->items, t->view, n * sizeof(*p->items));
	memcpy(t->gopen, was, ng * sizeof(*was));
	table_group_open(t, 0, was[0]);   /* the view as it was */
	free(was);
	return n;
}

/* `/` items: the rows as shown, every column of a row; on node rows the ranks inside a
 * closed node too (in the order the open node shows them), a match opening its node. */
static size_t tp_items(void *priv, struct app *app, size_t *sel)
{
	struct tpane *p = priv;
	*sel = p->lc.sel;
	free(p->items);
	p->items = NULL;
	if (!p->t->grouped || !p->t->groups->n || !p->t->nview)
		return p->t->nview;
	size_t n = tree_rows(p);
	for (size_t i = 0; i < n; i++)
		if (p->items[i] == p->t->view[p->lc.sel])
			*sel = i;
	return n;
}

static size_t item_row(const struct tpane *p, size_t i)
{
	return p->items ? p->items[i] : p->t->view[i];
}

static void tp_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	const struct tpane *p = priv;
	size_t k = 0;
	for (size_t c = 0; c < p->t->ncol && k + 1 < n; c++) {
		char cell[512];
		table_display(p->t, item_row(p, i), (int)c, cell, sizeof(cell));
		int w = snprintf(buf + k, n - k, "%s%s", c ? "  " : "", cell);
		k += w > 0 ? (size_t)w : 0;
	}
}

/* The row's view line, after opening its node when it is hidden in it. */
static void tp_item_show(void *priv, struct app *app, size_t i)
{
	struct tpane *p = priv;
	size_t row = item_row(p, i), k = 0;
	while (k < p->t->nview && p->t->view[k] != row)
		k++;
	if (k == p->t->nview && p->items) {   /* hidden in its closed node */
		table_group_open(p->t, table_row_group(p->t, row), true);
		for (k = 0; k < p->t->nview && p->t->view[k] != row; k++)
			continue;
	}
	p->lc.sel = k;
	clamp(p);
}

/* Where the `/` prompt opened: the nodes open and the selection, saved; put back on Esc,
 * a miss and each edit, so only the current match's node is open. */
static void tp_search_from(void *priv, struct app *app, bool back)
{
	struct tpane *p = priv;
	struct table *t = p->t;
	size_t ng = t->groups ? t->groups->n : 0;
	if (!back) {
		free(p->from_open);
		p->from_open = ng ? xmalloc(ng * sizeof(*p->from_open)) : NULL;
		if (ng)
			memcpy(p->from_open, t->gopen, ng * sizeof(*p->from_open));
		p->from_n = ng;
		p->from_sel = p->lc.sel;
		p->from_top = p->lc.top;
		return;
	}
	if (ng && p->from_open && p->from_n == ng && memcmp(t->gopen, p->from_open, ng * sizeof(*t->gopen))) {
		memcpy(t->gopen, p->from_open, ng * sizeof(*t->gopen));
		table_group_open(t, 0, p->from_open[0]);   /* the view again */
	}
	p->lc.sel = p->from_sel;
	p->lc.top = p->from_top;
	clamp(p);
}

/* y: the cell under the column cursor; Y: the row, tab-separated. Numbers in full
 * precision, as an export writes them. */
static int tp_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	const struct tpane *p = priv;
	return p->t->nview ? copy_cells(p->t, (long)p->t->view[p->lc.sel], row, p->col, buf, n) : -1;
}

/* The view, each column's meaning, the glossary terms its columns use (pane_table_legend.c). */
static void tp_legend(void *priv, struct app *app, struct legend *l)
{
	struct tpane *p = priv;
	table_pane_legend(p->t, p->arg, app->cmp != NULL, l);
}

/* A click on a data row selects it, and the column under the pointer; a click on the
 * selected row opens it, as Enter does (a closed node expands). */
static unsigned tp_click(void *priv, struct app *app, int y, int x)
{
	struct tpane *p = priv;
	if (y < p->y0 || y >= p->y0 + p->lc.rows || p->lc.top + (size_t)(y - p->y0) >= p->t->nview)
		return PR_NONE;
	size_t row = p->lc.top + (size_t)(y - p->y0);
	if (row == p->lc.sel)
		return (sel_group_closed(p) ? toggle_group(p, app) : tp_enter(p, app)) | PR_HANDLED;
	p->lc.sel = row;
	for (int i = 0; i < p->cols.n; i++)
		if (x >= p->cols.x[i] && x < p->cols.x[i + 1])
			p->col = p->cols.c[i];
	clamp(p);
	return PR_HANDLED;
}

static int tp_cur_rank(void *priv, struct app *app)
{
	struct tpane *p = priv;
	if (p->c_rank < 0 || !p->t->nview)
		return -1;
	const struct table_cell *c = table_cell(p->t, p->t->view[p->lc.sel], p->c_rank);
	return c->present ? (int)c->num : -1;
}

const struct pane_ops pane_table = {
	.name = "table",
	.open = tp_open,
	.close = tp_close,
	.draw = tp_draw,
	.handle = tp_handle,
	.select = tp_select,
	.back = tp_back,
	.table = tp_table,
	.filter = tp_filter,
	.rebuild = tp_rebuild,
	.status = tp_status,
	.cur_rank = tp_cur_rank,
	.items = tp_items,
	.item_text = tp_item_text,
	.item_show = tp_item_show,
	.search_from = tp_search_from,
	.copy = tp_copy,
	.hint = tp_hint,
	.click = tp_click,
	.legend = tp_legend,
};
