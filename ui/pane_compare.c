/* SPDX-License-Identifier: MIT */
/* pane_compare.c: compare mode's Overview. It leads with the verdict ("B is 7.9% slower
 * per step; rank 5 regressed from step 100"), then A and B each with its data quality (as
 * a run's Overview counts it), what differs in scope, the mean step wall of both runs,
 * the regressed and improved ranks (selectable: Enter opens the rank's row of the
 * comparison heatmap at its onset in B), the counts of findings new / resolved /
 * persisting, and pytscope's reproducibility notes. `e` exports diff_ranks. */
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/summary.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/list.h"

struct cpane {
	struct list_cursor lc;      /* over the rank list */
	struct table *export;
	struct summary lines;       /* the verdict and what follows it (compare_summary) */
};

/* A run's data quality as its Overview counts it: "3 skipped, 0 unreadable, 0 partial;
 * 0 errors, 3 warnings", a warning when any. */
static void quality_line(struct summary *s, const char *key, const struct run *run)
{
	size_t skipped = 0, unreadable = 0, partial = 0, level[3] = { 0 };
	for (size_t i = 0; i < run->nsrc; i++) {
		skipped += run->src[i].skipped;
		unreadable += run->src[i].err != 0;
		partial += run->src[i].partial;
	}
	for (size_t i = 0; i < run->diags.n; i++)
		level[run->diags.v[i].level]++;
	bool any = skipped || unreadable || partial || level[DIAG_ERROR] || level[DIAG_WARN];
	summary_add(s, any ? TONE_WARN : TONE_NORMAL, key, "%zu skipped, %zu unreadable, %zu partial; %zu error%s, "
		    "%zu warning%s, %zu note%s%s%s", skipped, unreadable, partial, level[DIAG_ERROR],
		    level[DIAG_ERROR] == 1 ? "" : "s", level[DIAG_WARN], level[DIAG_WARN] == 1 ? "" : "s",
		    level[DIAG_INFO], level[DIAG_INFO] == 1 ? "" : "s", run->diags.dropped ? " (more dropped)" : "",
		    any ? " (--export sources A B)" : "");
}

/* compare_summary's lines with each side's data quality after the line naming B. */
static void summary_lines(struct compare *c, struct summary *s)
{
	compare_summary(c, s);
	size_t at = 0;
	while (at < s->n && strcmp(s->line[at].key, "B") != 0)
		at++;
	at = at < s->n ? at + 1 : s->n;
	size_t n = s->n;
	quality_line(s, "quality A", compare_side(c, 0));
	quality_line(s, "quality B", compare_side(c, 1));
	size_t added = s->n - n;
	struct summary_line tmp[2];
	memcpy(tmp, &s->line[n], added * sizeof(*tmp));
	memmove(&s->line[at + added], &s->line[at], (n - at) * sizeof(*tmp));
	memcpy(&s->line[at], tmp, added * sizeof(*tmp));
}

static void *cp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	struct cpane *p = xcalloc(1, sizeof(*p));
	summary_lines(app->cmp, &p->lines);
	return p;
}

static void cp_close(void *priv)
{
	struct cpane *p = priv;
	table_free(p->export);
	free(p);
}

static struct table *cp_table(void *priv, struct app *app)
{
	struct cpane *p = priv;
	char err[128];
	table_free(p->export);
	p->export = compare_view(compare_tabs[0].view)->build(app->cmp, err, sizeof(err));
	return p->export;
}

/* "key  value", the value wrapped onto at most `rows` rows; returns the row after it. */
static int kv_rows(int y, int x, int w, const char *k, const char *v, enum role r, int rows)
{
	draw_text(y, x, 14, k, ROLE_DIM);
	struct rect area = { y, x + 14, rows, w - 14 };
	int used = draw_wrap(&area, 0, v, r);
	return y + (used > 0 ? used : 1);
}

/* The ranks listed: regressed (comparison order), then improved (rank order). */
static size_t listed(const struct cmp_ranks *r, size_t i)
{
	if (i < r->nregressed)
		return r->order[i];
	i -= r->nregressed;
	for (size_t k = 0; k < r->n; k++)
		if (r->v[k].improved && i-- == 0)
			return k;
	return 0;
}

/* Fields two spaces apart, most telling first, so a narrow screen drops whole fields
 * (draw_fit_fields). */
static void rank_line(const struct cmp_rank *k, bool unlike, char *line, size_t n)
{
	char onset[40] = "", a[32], b[32], d[32], z[32];
	if (k->onset_b >= 0)
		snprintf(onset, sizeof(onset), " from step %ld", k->onset_b);
	int m = snprintf(line, n, "rank %-5d %s%s  %s compute per step  %s -> %s (noise %s)", k->rank,
			 compare_change_word(k->regressed, unlike), onset, units_seconds_signed(k->delta_ms / 1e3, d, sizeof(d)),
			 units_seconds(k->a_ms / 1e3, a, sizeof(a)), units_seconds(k->b_ms / 1e3, b, sizeof(b)),
			 units_seconds(k->noise_ms / 1e3, z, sizeof(z)));
	if (k->has_lost && m > 0 && (size_t)m < n)
		snprintf(line + m, n - (size_t)m, "  time lost %s -> %s", units_seconds(k->a_lost_s, a, sizeof(a)),
			 units_seconds(k->b_lost_s, b, sizeof(b)));
}

static void rank_lines(struct cpane *p, struct app *app, const struct cmp_ranks *r, int *y, int x, int w, int bottom)
{
	size_t n = r->nregressed + r->nimproved;
	if (!n)
		return;
	bool unlike = compare_unlike(app->cmp);   /* another workload: slower, not regressed */
	draw_fmt((*y)++, x, w, ROLE_HEADER, "Ranks that changed (%zu %s, %zu %s; Enter opens the heatmap)",
		 r->nregressed, compare_change_word(true, unlike), r->nimproved, compare_change_word(false, unlike));
	list_resize(&p->lc, n, bottom - *y);
	for (size_t i = p->lc.top; i < n && *y < bottom; i++, (*y)++) {
		const struct cmp_rank *k = &r->v[listed(r, i)];
		char line[256];
		rank_line(k, unlike, line, sizeof(line));
		draw_fit_fields(line, sizeof(line), w, app->g->ellipsis);
		if (i == p->lc.sel)
			draw_clear_rect(&(struct rect){ *y, x, 1, w }, ROLE_SELECTED);
		enum role role = !k->regressed ? ROLE_GOOD : unlike ? ROLE_SEV_MED : ROLE_SEV_HIGH;
		draw_text(*y, x, w, line, i == p->lc.sel ? ROLE_SELECTED : role);
	}
}

static void cp_draw(void *priv, struct app *app, const struct rect *body)
{
	static const enum role tone_role[] = {
		[TONE_NORMAL] = ROLE_NORMAL, [TONE_GOOD] = ROLE_GOOD, [TONE_WARN] = ROLE_SEV_MED,
		[TONE_BAD] = ROLE_SEV_HIGH,
	};
	struct cpane *p = priv;
	int x = body->x + 2, w = body->w - 4, y = body->y + 1, bottom = body->y + body->h;
	for (size_t i = 0; i < p->lines.n && y < bottom; i++) {
		const struct summary_line *l = &p->lines.line[i];
		y = kv_rows(y, x, w, l->key, l->text, tone_role[l->tone], l->prose ? 4 : 2);
	}
	y++;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	if (r)
		rank_lines(p, app, r, &y, x, w, bottom);
}

static unsigned cp_handle(void *priv, struct app *app, enum action a)
{
	struct cpane *p = priv;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	size_t n = r ? r->nregressed + r->nimproved : 0;
	p->lc.n = n;
	if (list_key(&p->lc, a))
		return PR_HANDLED;
	switch (a) {
	case ACT_ENTER: {
		long h = app_find(app, &pane_heatmap, NULL);
		if (!n || h < 0)
			return PR_HANDLED;
		const struct cmp_rank *k = &r->v[listed(r, p->lc.sel)];
		struct ui_target t = { .rank = k->rank, .step_lo = k->onset_b, .step_hi = -1, .item = -1 };
		return app_show(app, (size_t)h, &t) | PR_HANDLED;
	}
	default: return PR_NONE;
	}
}

static void cp_status(void *priv, struct app *app, char *buf, size_t n)
{
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	if (compare_by_what(app->cmp))
		snprintf(buf, n, "compare: %s", compare_by_what(app->cmp));
	else if (!r)
		snprintf(buf, n, "compare: step times not compared");
	else
		snprintf(buf, n, "compare: %zu common rank%s, %zu common step%s (%ld-%ld)", r->ncommon_ranks,
			 r->ncommon_ranks == 1 ? "" : "s", r->ncommon, r->ncommon == 1 ? "" : "s", r->lo, r->hi);
}

/* `/` items: the lines above (highlighted where they are), then the changed ranks
 * (a match selects the rank). */
static size_t cp_items(void *priv, struct app *app, size_t *sel)
{
	struct cpane *p = priv;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	*sel = p->lines.n + p->lc.sel;
	return p->lines.n + (r ? r->nregressed + r->nimproved : 0);
}

static void cp_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	struct cpane *p = priv;
	if (i < p->lines.n) {
		snprintf(buf, n, "%s  %s", p->lines.line[i].key, p->lines.line[i].text);
		return;
	}
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	rank_line(&r->v[listed(r, i - p->lines.n)], compare_unlike(app->cmp), buf, n);
}

static void cp_item_show(void *priv, struct app *app, size_t i)
{
	struct cpane *p = priv;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	if (i < p->lines.n || !r)
		return;
	p->lc.n = r->nregressed + r->nimproved;
	p->lc.sel = i - p->lines.n;
	list_clamp(&p->lc);
}

/* The verdict's colours and what a rank line says. */
static void cp_legend(void *priv, struct app *app, struct legend *l)
{
	legend_head(l, "Compare: run B against run A");
	legend_para(l, "The verdict first, then A and B each with its data quality (records skipped, files "
		       "unreadable or partial, errors, warnings and notes; --export sources A B lists them), what "
		       "differs in scope, the mean step wall of both runs over their "
		       "common steps (step wall), and the findings new in B, resolved and persisting. A rank line reads: B - A "
		       "mean compute per step, then A -> B (the rank's run-to-run noise), then its time lost in A -> B; a rank "
		       "regressed when it is slower in B beyond its noise. Enter opens the rank's row of the B - A "
		       "heatmap at its onset.");
	legend_row(l, "rank", 1, ROLE_SEV_HIGH, "regressed, or B slower");
	legend_row(l, "rank", 1, ROLE_GOOD, "improved, or no regression");
	legend_row(l, "quality", 1, ROLE_SEV_MED,
		   "that side skipped records, has files unreadable or partial, errors or warnings");
	legend_row(l, "scope", 1, ROLE_SEV_MED, "a difference in scope (ranks or steps only one run has)");
	legend_terms(l, "step wall compute time lost");
}

const struct pane_ops pane_compare = {
	.name = "compare",
	.open = cp_open,
	.close = cp_close,
	.draw = cp_draw,
	.handle = cp_handle,
	.status = cp_status,
	.table = cp_table,
	.items = cp_items,
	.item_text = cp_item_text,
	.item_show = cp_item_show,
	.legend = cp_legend,
};
