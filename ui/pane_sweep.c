/* SPDX-License-Identifier: MIT */
/* pane_sweep.c: the sweep pane. For one source at a time (a GenAI-Perf series or a NAT
 * calculator file) it lists every level (stimulus, plotted value or -, outlier, confidence,
 * ranking, pass, or why it is not plotted) and draws the text plot of model/sweep/plot.h
 * below: latency with the fit line, removed outliers, the target line and the estimate, or
 * throughput (m / M; for a NAT source its workflow runtime); a line under the plot names the
 * levels left out of it, room allowing. Left/Right switch sources; Enter opens the point's
 * own row in the view that lists the source's points (sweep, or sizing_points for a NAT
 * source); `e` exports that view of the source shown; y/Y copy the point's value / the point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/sweep/sweep.h"
#include "model/sweep/plot.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/list.h"

struct spane {
	size_t src, nsrc;
	enum plot_kind kind;
	struct list_cursor lc;    /* over the plotted points */
	struct plot_spec spec;
	bool have;
	int ydec;             /* one precision for every y figure: 3 significant digits of the largest */
	struct table *t;      /* for `e` */
};

/* The view that lists the shown source's points (sweep_plot_view), built when the source
 * shown lists its points in another view than the last one: what `e` exports. */
static void sp_table_refresh(struct spane *p, struct app *app)
{
	const char *name = sweep_plot_view(&p->spec);
	if (p->t && strcmp(p->t->name, name) == 0)
		return;
	table_free(p->t);
	const struct view_def *vd = registry_view(name);
	char err[128];
	p->t = vd ? vd->build(app->run, err, sizeof(err)) : NULL;
}

static void sp_refresh(struct spane *p, struct app *app)
{
	p->have = sweep_plot_from_run(app->run, p->src, p->kind, &p->spec);
	sp_table_refresh(p, app);
	if (p->lc.sel >= p->spec.n)
		p->lc.sel = p->spec.n ? p->spec.n - 1 : 0;
	double top = 0;
	for (size_t k = 0; k < p->spec.n; k++)
		top = fabs(p->spec.y[k]) > top ? fabs(p->spec.y[k]) : top;
	p->ydec = units_decimals(top, 3);
}

static void *sp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	size_t n = sweep_plot_count(app->run);
	if (n == 0) {
		snprintf(why, whyn, "no GenAI-Perf sweep or NAT sizing output in this run");
		return NULL;
	}
	struct spane *p = xcalloc(1, sizeof(*p));
	p->nsrc = n;
	sp_refresh(p, app);
	return p;
}

static void sp_close(void *priv)
{
	struct spane *p = priv;
	table_free(p->t);
	free(p);
}

/* Per-point note from the model: ranking, pass, low confidence (or confidence n/a
 * without a request count) and failed constraints (GenAI-Perf), or the calculator's
 * alerts (NAT); in columns, or tab-separated (tsv: y/Y). */
static void point_note(const struct spane *p, struct app *app, size_t k, bool tsv, char *buf, size_t n)
{
	const struct sweep_set *s = app->run->sweep;
	const struct plot_spec *sp = &p->spec;
	if (sp->nat) {
		char al[8];
		nat_point_alerts(&s->nat[sp->nat_idx].pt[sp->ref[k]], false, al);
		snprintf(buf, n, tsv ? "%s\t%s%s%s" : "%-6s%s%s%s", al,
			 sp->outlier[k] ? "outlier (removed from fit)" : "", sp->skip[k] ? "not plotted: " : "",
			 sp->skip[k] ? sp->skip[k] : "");
		return;
	}
	const struct sweep_cfg *c = &s->cfg[sp->ref[k]];
	const char *none = tsv ? "" : "-";   /* missing: "-" on screen, an empty field copied */
	char rk[16];
	snprintf(rk, sizeof(rk), "%s", none);
	if (c->rank > 0)
		snprintf(rk, sizeof(rk), "%d", c->rank);
	double nreq = 0;
	char low[48] = "";
	if (sp->lowconf[k] && sweep_value(c, SM_COUNT, SS_AVG, &nreq))
		snprintf(low, sizeof(low), "low confidence (%g requests) ", nreq);
	else if (sp->conf_na[k])
		snprintf(low, sizeof(low), "confidence n/a (no request count) ");
	const char *pass = !s->ncon ? none : c->pass ? "yes" : "NO";
	char skip[64] = "";
	if (sp->skip[k])
		snprintf(skip, sizeof(skip), "not plotted: %s ", sp->skip[k]);
	int len = snprintf(buf, n, tsv ? "%s\t%s\t%s%s%s%s" : "%4s  %-4s %s%s%s%s", rk, pass, skip,
			   sp->outlier[k] ? "outlier " : "", low, c->failed ? c->failed : "");
	size_t e = len > 0 && (size_t)len < n ? (size_t)len : 0;
	while (tsv && e && buf[e - 1] == ' ')   /* the notes' separating blank, at the end of the field */
		buf[--e] = '\0';
}

/* Point k's stimulus and value as listed: "-" when missing. */
static void point_xy(const struct spane *p, size_t k, char x[32], char y[48])
{
	snprintf(x, 32, isfinite(p->spec.x[k]) ? "%g" : "-", p->spec.x[k]);
	snprintf(y, 48, isfinite(p->spec.y[k]) ? "%.*f" : "-", p->ydec, p->spec.y[k]);
}

/* Point k's line as drawn (and searched). */
static void point_line(const struct spane *p, struct app *app, size_t k, char *buf, size_t n)
{
	char note[256], x[32], y[48];
	point_note(p, app, k, false, note, sizeof(note));
	point_xy(p, k, x, y);
	snprintf(buf, n, "%12s  %-28s  %s", x, y, note);
}

static size_t count_skipped(const struct plot_spec *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		k += s->skip[i] != NULL;
	return k;
}

/* The levels left out of the plot in w columns: "not plotted: concurrency 8 (interrupted),
 * concurrency 16 (no results)"; those that do not fit are counted (", and 2 more"). */
static void skipped_line(const struct spane *p, int w, char *buf, size_t n)
{
	const struct plot_spec *s = &p->spec;
	size_t left = count_skipped(s), listed = 0, len = (size_t)snprintf(buf, n, "not plotted:");
	for (size_t k = 0; k < s->n && left; k++) {
		if (!s->skip[k])
			continue;
		char x[32], y[48], item[160];
		point_xy(p, k, x, y);
		size_t m = (size_t)snprintf(item, sizeof(item), "%s %s %s (%s)", listed ? "," : "", s->xlabel, x,
					    s->skip[k]);
		size_t more = left > 1 ? strlen(", and 9999 more") : 0;
		if (len + m + more > (size_t)w || len + m >= n)
			break;
		len += (size_t)snprintf(buf + len, n - len, "%s", item);
		listed++;
		left--;
	}
	if (left)
		snprintf(buf + len, n - len, listed ? ", and %zu more" : " %zu levels", left);
}

static void draw_points(struct spane *p, struct app *app, const struct rect *r)
{
	const struct plot_spec *s = &p->spec;
	draw_fmt(r->y, r->x, r->w, ROLE_HEADER, "%12s  %-28s  %s", s->xlabel, s->ylabel,
		 s->nat ? "alerts" : "rank  pass failed");
	list_resize(&p->lc, s->n, r->h - 1);
	for (int i = 0; i < p->lc.rows && p->lc.top + (size_t)i < s->n; i++) {
		size_t k = p->lc.top + (size_t)i;
		bool cur = k == p->lc.sel;
		char line[512];
		point_line(p, app, k, line, sizeof(line));
		draw_text(r->y + 1 + i, r->x, r->w, line, cur ? ROLE_SELECTED : s->outlier[k] ? ROLE_SEV_MED : ROLE_NORMAL);
	}
}

/* What the plot shows, as the legend row names it (m switches it): latency, or
 * GenAI-Perf's request throughput or NAT's workflow runtime. */
static const char *kind_name(const struct spane *p)
{
	return p->kind == PLOT_LATENCY ? "latency" : p->spec.nat ? "runtime" : "throughput";
}

static void draw_legend(struct spane *p, struct app *app, int y, int x, int w)
{
	const struct plot_spec *s = &p->spec;
	bool u = app->g->utf8;
	char est[64] = "";
	if (s->has_estimate)
		snprintf(est, sizeof(est), "  %s estimate c=%.3g", u ? "│" : "|", s->estimate);
	draw_fmt(y, x, w, ROLE_HINT, "%s point  %s few requests  %s outlier  %s fit  %s target%s   m: %s   %s: source %zu/%zu",
		 u ? "●" : "o", u ? "○" : "?", u ? "✕" : "x", u ? "·" : ".", u ? "─" : "-", est,
		 kind_name(p), u ? "←/→" : "<-/->", p->src + 1, p->nsrc);
}

static void sp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct spane *p = priv;
	draw_clear_rect(body, ROLE_NORMAL);
	draw_text(body->y, body->x, body->w, p->spec.title, ROLE_ACCENT);
	if (!p->have) {
		draw_text(body->y + 2, body->x + 1, body->w - 2, "no data for this metric in this source", ROLE_DIM);
		draw_legend(p, app, body->y + body->h - 1, body->x, body->w);
		return;
	}
	int list_h = (int)p->spec.n + 1;
	if (list_h > body->h / 3)
		list_h = body->h / 3;
	if (list_h < 2)
		list_h = 2;
	draw_points(p, app, &(struct rect){ body->y + 1, body->x, list_h, body->w });
	int ph = body->h - list_h - 2;
	size_t nskip = count_skipped(&p->spec);
	if (nskip && ph > 5) {   /* room for the note and a plot of at least 5 rows */
		char note[512];
		skipped_line(p, body->w, note, sizeof(note));
		draw_text(body->y + body->h - 2, body->x, body->w, note, ROLE_DIM);
		ph--;
	}
	if (nskip == p->spec.n && ph > 0) {
		draw_text(body->y + 1 + list_h, body->x + 1, body->w - 2, "no level can be plotted: see the list",
			  ROLE_DIM);
	} else if (nskip < p->spec.n) {
		char **rows = plot_render(&p->spec, body->w, ph, !app->g->utf8);
		for (int i = 0; rows && i < ph; i++)
			draw_text(body->y + 1 + list_h + i, body->x, body->w, rows[i], i < ph - 2 ? ROLE_NORMAL : ROLE_DIM);
		plot_free(rows, ph);
	}
	draw_legend(p, app, body->y + body->h - 1, body->x, body->w);
}

/* Enter: the selected point's row in the full table (sweep, or sizing_points). */
static unsigned sp_enter(struct spane *p, struct app *app)
{
	if (!p->have || !p->spec.n) {
		app_msg(app, false, "nothing to open: this source has no point to plot");
		return PR_HANDLED;
	}
	struct evidence ev;
	sweep_plot_evidence(app->run, &p->spec, p->lc.sel, &ev);
	return app_open_evidence(app, &ev) | PR_HANDLED;
}

static unsigned sp_handle(void *priv, struct app *app, enum action a)
{
	struct spane *p = priv;
	p->lc.n = p->spec.n;
	if (list_key(&p->lc, a))
		return PR_HANDLED;
	switch (a) {
	case ACT_METRIC:
	case ACT_METRIC_PREV:
		p->kind = p->kind == PLOT_LATENCY ? PLOT_THROUGHPUT : PLOT_LATENCY;
		break;
	case ACT_LEFT: p->src = p->src ? p->src - 1 : p->nsrc - 1; p->lc.sel = 0; break;
	case ACT_RIGHT: p->src = (p->src + 1) % p->nsrc; p->lc.sel = 0; break;
	case ACT_ENTER: return sp_enter(p, app);
	default: return PR_NONE;
	}
	sp_refresh(p, app);
	return PR_HANDLED | PR_REDRAW;
}

static struct table *sp_table(void *priv, struct app *app)
{
	return ((struct spane *)priv)->t;
}

static void sp_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct spane *p = priv;
	const struct plot_spec *s = &p->spec;
	if (!p->have || !s->n) {
		snprintf(buf, n, "sweep  source %zu/%zu", p->src + 1, p->nsrc);
		return;
	}
	char x[32], y[48], why[96] = "";
	size_t k = p->lc.sel;
	point_xy(p, k, x, y);
	if (s->skip[k])
		snprintf(why, sizeof(why), "  (not plotted: %s)", s->skip[k]);
	snprintf(buf, n, "sweep  source %zu/%zu  %s=%s  %s=%s%s%s", p->src + 1, p->nsrc, s->xlabel, x, s->ylabel, y,
		 s->outlier[k] ? "  (outlier)" : "", why);
}

/* The hint row: Enter opens the selected point's row of its view. */
static void sp_hint(void *priv, struct app *app, char *buf, size_t n)
{
	struct spane *p = priv;
	snprintf(buf, n, "%s", p->have && p->spec.n ? "Enter:open" : "");
}

/* y: the selected point's plotted value, Y: the point as listed (stimulus, value, then
 * its ranking, pass and failed constraints or its alerts), numbers in full precision, a
 * missing one an empty field. */
static int sp_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct spane *p = priv;
	if (!p->have || p->lc.sel >= p->spec.n)
		return -1;
	char x[40] = "", y[40] = "", note[256];
	if (isfinite(p->spec.x[p->lc.sel]))
		table_format_full(p->spec.x[p->lc.sel], x, sizeof(x));
	if (isfinite(p->spec.y[p->lc.sel]))
		table_format_full(p->spec.y[p->lc.sel], y, sizeof(y));
	point_note(p, app, p->lc.sel, true, note, sizeof(note));
	if (row)
		snprintf(buf, n, "%s\t%s\t%s", x, y, note);
	else
		snprintf(buf, n, "%s", y);
	return 0;
}

/* `/` items: the points of the source shown, as their lines read. */
static size_t sp_items(void *priv, struct app *app, size_t *sel)
{
	struct spane *p = priv;
	*sel = p->lc.sel;
	return p->have ? p->spec.n : 0;
}

static void sp_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	point_line(priv, app, i, buf, n);
}

static void sp_item_show(void *priv, struct app *app, size_t i)
{
	struct spane *p = priv;
	p->lc.n = p->spec.n;
	p->lc.sel = i;
	list_clamp(&p->lc);
}

/* The plot's glyphs and the point list's columns. */
static void sw_legend(void *priv, struct app *app, struct legend *l)
{
	bool u = app->g->utf8;
	legend_head(l, "Sweep: one source's points and their plot");
	legend_para(l, "The list: the stimulus (the x axis), the plotted value, then for "
		       "GenAI-Perf the config's ranking, whether it passes the constraints and which it fails, for "
		       "NAT the calculator's alerts. The plot below draws the same points; m switches latency and "
		       "request throughput (for a NAT source: p95 LLM latency and p95 workflow runtime), Left/Right "
		       "the source. A point whose config has no request count is drawn as a "
		       "point, but its confidence cannot be judged: the list says confidence n/a (no request count). "
		       "A level without a value to plot (- in the list), or one the fits leave out (an interrupted "
		       "NAT concurrency), is listed with the reason, not plotted: the line under the plot names them.");
	legend_row(l, u ? "●" : "o", 1, ROLE_NORMAL, "a point");
	legend_row(l, u ? "○" : "?", 1, ROLE_NORMAL, "a point from few requests (low confidence)");
	legend_row(l, u ? "✕" : "x", 1, ROLE_SEV_MED, theme_tier() == TIER_MONO
		   ? "an outlier, removed from the fit (its line is underlined)"
		   : "an outlier, removed from the fit (its line is yellow)");
	legend_row(l, u ? "·" : ".", 3, ROLE_NORMAL, "the fitted line");
	legend_row(l, u ? "─" : "-", 3, ROLE_NORMAL,
		   "the target: --target-latency (on a NAT runtime plot, --target-runtime)");
	legend_row(l, u ? "│" : "|", 1, ROLE_NORMAL, "the estimate: the stimulus at which the fit meets the target");
}

const struct pane_ops pane_sweep = {
	.name = "sweep",
	.open = sp_open,
	.close = sp_close,
	.draw = sp_draw,
	.handle = sp_handle,
	.table = sp_table,
	.status = sp_status,
	.copy = sp_copy,
	.hint = sp_hint,
	.items = sp_items,
	.item_text = sp_item_text,
	.item_show = sp_item_show,
	.legend = sw_legend,
};
