/* SPDX-License-Identifier: MIT */
/* pane_compare.c: compare mode's Overview. It leads with the verdict ("B is 7.9% slower
 * per step; rank 5 regressed from step 100"), then what differs in scope, the mean step
 * wall of both runs, the regressed and improved ranks (selectable: Enter opens the
 * rank's row of the comparison heatmap at its onset in B), the counts of findings new /
 * resolved / persisting, and pytscope's reproducibility notes. `e` exports diff_ranks. */
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/list.h"

struct cpane {
	struct list_cursor lc;      /* over the rank list */
	struct table *export;
};

static void *cp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	return xcalloc(1, sizeof(struct cpane));
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

static int kv(int y, int x, int w, const char *k, const char *v, enum role r)
{
	return kv_rows(y, x, w, k, v, r, 2);
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

static void rank_lines(struct cpane *p, const struct cmp_ranks *r, int *y, int x, int w, int bottom)
{
	size_t n = r->nregressed + r->nimproved;
	if (!n)
		return;
	draw_fmt((*y)++, x, w, ROLE_HEADER, "Ranks that changed (%zu regressed, %zu improved; Enter opens the heatmap)",
		 r->nregressed, r->nimproved);
	list_resize(&p->lc, n, bottom - *y);
	for (size_t i = p->lc.top; i < n && *y < bottom; i++, (*y)++) {
		const struct cmp_rank *k = &r->v[listed(r, i)];
		char onset[40] = "";
		if (k->onset_b >= 0)
			snprintf(onset, sizeof(onset), " from step %ld", k->onset_b);
		char line[256];
		int m = snprintf(line, sizeof(line), "rank %-5d %s%s  %.3f -> %.3f ms/step (%+.3f, noise %.3f)", k->rank,
				 k->regressed ? "regressed" : "improved", onset, k->a_ms, k->b_ms, k->delta_ms, k->noise_ms);
		if (k->has_lost && m > 0 && (size_t)m < sizeof(line))
			snprintf(line + m, sizeof(line) - (size_t)m, "  time lost %.3f -> %.3f s", k->a_lost_s, k->b_lost_s);
		if (i == p->lc.sel)
			draw_clear_rect(&(struct rect){ *y, x, 1, w }, ROLE_SELECTED);
		draw_text(*y, x, w, line, i == p->lc.sel ? ROLE_SELECTED : k->regressed ? ROLE_SEV_HIGH : ROLE_GOOD);
	}
}

static void cp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct cpane *p = priv;
	struct compare *c = app->cmp;
	int x = body->x + 2, w = body->w - 4, y = body->y + 1, bottom = body->y + body->h;
	char buf[512];
	const struct cmp_ranks *r = compare_ranks(c);
	compare_verdict(c, buf, sizeof(buf));
	bool bad = r && (r->nregressed || r->slower);
	y = kv(y, x, w, "verdict", buf, bad ? ROLE_SEV_HIGH : ROLE_GOOD);
	snprintf(buf, sizeof(buf), "%s (%s)", c->a->name ? c->a->name : "-", c->a->path ? c->a->path : "-");
	y = kv(y, x, w, "A", buf, ROLE_NORMAL);
	snprintf(buf, sizeof(buf), "%s (%s)", c->b->name ? c->b->name : "-", c->b->path ? c->b->path : "-");
	y = kv(y, x, w, "B", buf, ROLE_NORMAL);
	compare_scope(c, buf, sizeof(buf));
	if (*buf)
		y = kv(y, x, w, "scope", buf, ROLE_SEV_MED);
	if (r && r->has_wall) {
		snprintf(buf, sizeof(buf), "%.3f -> %.3f ms (%+.3f ms, noise %.3f ms) over %zu common steps", r->a_wall_ms,
			 r->b_wall_ms, r->b_wall_ms - r->a_wall_ms, r->wall_noise_ms, r->ncommon);
		y = kv(y, x, w, "step wall", buf, ROLE_NORMAL);
	}
	size_t nf, k[3] = { 0, 0, 0 };
	const struct cmp_finding *f = compare_findings(c, &nf);
	for (size_t i = 0; i < nf; i++)
		k[f[i].status]++;
	snprintf(buf, sizeof(buf), "%zu new in B, %zu resolved, %zu persisting (5 lists them)", k[CMP_NEW],
		 k[CMP_RESOLVED], k[CMP_PERSIST]);
	y = kv(y, x, w, "findings A/B", buf, k[CMP_NEW] ? ROLE_SEV_MED : ROLE_NORMAL);
	const struct pydiff *d = compare_pydiff(c);
	for (size_t i = 0; d && i < d->nnote && y < bottom; i++)
		y = kv_rows(y, x, w, i ? "" : "reproducible?", d->note[i], ROLE_NORMAL, 4);
	y++;
	if (r)
		rank_lines(p, r, &y, x, w, bottom);
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
		long h = app_find(app, &pane_heatmap, COMPARE_GRID);
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
	if (!r)
		snprintf(buf, n, "compare: step times not compared");
	else
		snprintf(buf, n, "compare: %zu common ranks, %zu common steps (%ld-%ld)", r->ncommon_ranks, r->ncommon,
			 r->lo, r->hi);
}

const struct pane_ops pane_compare = {
	.name = "compare",
	.open = cp_open,
	.close = cp_close,
	.draw = cp_draw,
	.handle = cp_handle,
	.status = cp_status,
	.table = cp_table,
};
