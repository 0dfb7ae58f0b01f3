/* SPDX-License-Identifier: MIT */
/* pane_compare.c: compare mode's Overview. It leads with the verdict ("B is 7.9% slower
 * per step; rank 5 regressed from step 100"), then A and B, their data quality (as a run's
 * Overview counts it, a short line each, one when both are clean), what differs in scope,
 * the mean step wall of both runs, the counts of findings new / resolved / persisting,
 * pytscope's reproducibility notes, and the regressed and improved ranks (selectable:
 * Enter opens the rank's row of the comparison heatmap at its onset in B). On a short
 * screen the lowest lines give way to the ranks, as the single-run Overview's do to its
 * findings ("N more lines"). `e` exports diff_ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/list.h"

struct cpane {
	struct list_cursor lc;      /* over the rank list */
	struct table *export;
	struct summary lines;       /* the verdict and what follows it (compare_summary) */
};

/* What a run lost or flagged in the load, as its Overview counts it. */
struct quality {
	size_t skipped, unreadable, partial, level[3];
	bool dropped;
};

static struct quality quality_of(const struct run *run)
{
	struct quality q = { .dropped = run->diags.dropped };
	for (size_t i = 0; i < run->nsrc; i++) {
		q.skipped += run->src[i].skipped;
		q.unreadable += run->src[i].err != 0;
		q.partial += run->src[i].partial;
	}
	for (size_t i = 0; i < run->diags.n; i++)
		q.level[run->diags.v[i].level]++;
	return q;
}

static bool quality_clean(const struct quality *q)
{
	return !q->skipped && !q->unreadable && !q->partial && !q->level[DIAG_ERROR] && !q->level[DIAG_WARN];
}

/* "n what" (plural with "s") after buf's text, ", " between; nothing when n is 0. */
static void count_add(char *buf, size_t n, size_t count, const char *what, bool plural)
{
	if (count)
		text_appendf(buf, n, "%s%zu %s%s", *buf ? ", " : "", count, what, plural && count > 1 ? "s" : "");
}

/* One side's data quality in one short line: only the counts that are not 0 ("3 skipped,
 * 1 partial, 3 warnings (--export sources A B)"), "clean" when nothing was lost. */
static void quality_line(struct summary *s, const char *key, const struct quality *q)
{
	char buf[160] = "";
	count_add(buf, sizeof(buf), q->skipped, "skipped", false);
	count_add(buf, sizeof(buf), q->unreadable, "unreadable", false);
	count_add(buf, sizeof(buf), q->partial, "partial", false);
	count_add(buf, sizeof(buf), q->level[DIAG_ERROR], "error", true);
	count_add(buf, sizeof(buf), q->level[DIAG_WARN], "warning", true);
	bool clean = !*buf;
	count_add(buf, sizeof(buf), q->level[DIAG_INFO], "note", true);
	summary_add(s, clean ? TONE_NORMAL : TONE_WARN, key, "%s%s%s%s", clean ? "clean" : "", clean && *buf ? ", " : "",
		    buf, q->dropped ? " (more dropped)" : clean ? "" : " (--export sources A B)");
}

/* Both sides' data quality: one line "A and B clean" when neither lost anything, else a
 * line each. */
static void quality_lines(struct compare *c, struct summary *s)
{
	struct quality a = quality_of(compare_side(c, 0)), b = quality_of(compare_side(c, 1));
	if (!quality_clean(&a) || !quality_clean(&b) || a.dropped || b.dropped) {
		quality_line(s, "quality A", &a);
		quality_line(s, "quality B", &b);
		return;
	}
	char notes[96] = "";
	if (a.level[DIAG_INFO] || b.level[DIAG_INFO])
		snprintf(notes, sizeof(notes), " (notes: %zu in A, %zu in B)", a.level[DIAG_INFO], b.level[DIAG_INFO]);
	summary_add(s, TONE_NORMAL, "quality", "A and B clean%s", notes);
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
	quality_lines(c, s);
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
 * (draw_fit_fields); the change is of what the ranks are compared by (compute, or step
 * time: cmp_ranks.by_step_time). */
static void rank_line(const struct cmp_rank *k, bool unlike, bool by_step_time, char *line, size_t n)
{
	char onset[40] = "", a[32], b[32], d[32], z[32];
	if (k->onset_b >= 0)
		snprintf(onset, sizeof(onset), " from step %ld", k->onset_b);
	int m = snprintf(line, n, "rank %-5d %s%s  %s %s  %s -> %s (noise %s)", k->rank,
			 compare_change_word(k->regressed, unlike), onset, units_seconds_signed(k->delta_ms / 1e3, d, sizeof(d)),
			 by_step_time ? "step time" : "compute per step",
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
	draw_fmt((*y)++, x, w, ROLE_HEADER, "Ranks that changed%s (%zu %s, %zu %s; Enter opens the heatmap)",
		 r->by_step_time ? " by step time" : "", r->nregressed, compare_change_word(true, unlike), r->nimproved,
		 compare_change_word(false, unlike));
	list_resize(&p->lc, n, bottom - *y);
	for (size_t i = p->lc.top; i < n && *y < bottom; i++, (*y)++) {
		const struct cmp_rank *k = &r->v[listed(r, i)];
		char line[256];
		rank_line(k, unlike, r->by_step_time, line, sizeof(line));
		draw_fit_fields(line, sizeof(line), w, app->g->ellipsis);
		if (i == p->lc.sel)
			draw_clear_rect(&(struct rect){ *y, x, 1, w }, ROLE_SELECTED);
		enum role role = !k->regressed ? ROLE_GOOD : unlike ? ROLE_SEV_MED : ROLE_SEV_HIGH;
		draw_text(*y, x, w, line, i == p->lc.sel ? ROLE_SELECTED : role);
	}
}

/* How long a line under key stays on a short screen (higher: longer): the verdict always,
 * then the findings, data quality, step wall, scope, the other lines (environment, DASF
 * totals), A and B (the title names them), pytscope's notes. */
enum { KEEP_ALWAYS = 8 };
static int line_keep(const char *key)
{
	static const struct {
		const char *key;
		int keep;
	} v[] = { { "verdict", KEEP_ALWAYS }, { "findings A/B", 7 }, { "quality", 6 }, { "quality A", 6 },
		  { "quality B", 6 }, { "step wall", 5 }, { "scope", 4 }, { "A", 1 }, { "B", 1 },
		  { "reproducible?", 0 } };
	for (size_t i = 0; i < ARRAY_LEN(v); i++)
		if (strcmp(key, v[i].key) == 0)
			return v[i].keep;
	return 3;
}

/* Rows kv_rows gives line l (a value wraps onto at most 4 rows for prose, else 2). */
static int line_rows(const struct summary_line *l, int w)
{
	int max = l->prose ? 4 : 2, r = draw_wrap_count(w - 14, l->text);
	return r < 1 ? 1 : r > max ? max : r;
}

/* The lines shown in `rows` rows (shown[i]), as the single-run Overview makes room for its
 * findings: when they do not all fit, the ones that stay the shortest (line_keep; a line
 * continuing another, key "", as the line it continues; the last first) give way to a
 * mark "N more lines". Returns how many gave way. */
static size_t lines_shown(const struct summary *s, int w, int rows, bool *shown)
{
	int used = 0, keep[SUMMARY_MAX];
	for (size_t i = 0, k = 0; i < s->n; i++) {
		k = *s->line[i].key ? i : k;
		keep[i] = line_keep(s->line[k].key);
		shown[i] = true;
		used += line_rows(&s->line[i], w);
	}
	size_t gone = 0;
	while (used + (gone ? 1 : 0) > rows) { /* once a line is gone, the mark takes a row */
		size_t worst = s->n;
		for (size_t i = 0; i < s->n; i++)
			if (shown[i] && keep[i] < KEEP_ALWAYS && (worst == s->n || keep[i] <= keep[worst]))
				worst = i;
		if (worst == s->n)
			break;
		shown[worst] = false;
		used -= line_rows(&s->line[worst], w);
		gone++;
	}
	return gone;
}

static void cp_draw(void *priv, struct app *app, const struct rect *body)
{
	static const enum role tone_role[] = {
		[TONE_NORMAL] = ROLE_NORMAL, [TONE_GOOD] = ROLE_GOOD, [TONE_WARN] = ROLE_SEV_MED,
		[TONE_BAD] = ROLE_SEV_HIGH,
	};
	struct cpane *p = priv;
	int x = body->x + 2, w = body->w - 4, y = body->y + 1, bottom = body->y + body->h;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	size_t nranks = r ? r->nregressed + r->nimproved : 0;
	/* the rank list's blank row, header and first rows (3 at most) stay on screen */
	int list_rows = nranks ? 2 + (nranks < 3 ? (int)nranks : 3) : 0;
	bool shown[SUMMARY_MAX];
	size_t gone = lines_shown(&p->lines, w, bottom - y - list_rows, shown);
	for (size_t i = 0; i < p->lines.n && y < bottom; i++) {
		const struct summary_line *l = &p->lines.line[i];
		if (shown[i])
			y = kv_rows(y, x, w, l->key, l->text, tone_role[l->tone], l->prose ? 4 : 2);
	}
	if (gone && y < bottom)
		draw_fmt(y++, x, w, ROLE_DIM, "%zu more line%s (a taller window shows them; / finds them)", gone,
			 gone == 1 ? "" : "s");
	y++;
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
		if (!n || h < 0) {
			const char *why = compare_by_what(app->cmp);
			app_msg(app, false, "nothing to open: %s",
				why ? why : !n ? "no rank changed (the Ranks tab lists them all)" : "no B - A heatmap");
			return PR_HANDLED;
		}
		const struct cmp_rank *k = &r->v[listed(r, p->lc.sel)];
		struct ui_target t = { .rank = k->rank, .step_lo = k->onset_b, .step_hi = -1, .item = -1 };
		return app_show(app, (size_t)h, &t) | PR_HANDLED;
	}
	default: return PR_NONE;
	}
}

/* The status row: how a pair without ranks is compared, else what the scope line's
 * "compared:" says (compare_scope): "0 of 4 common ranks, 0 common steps (nothing to
 * compare)", "4 common ranks, 58-60 common steps per rank (steps 0-59)". */
static void cp_status(void *priv, struct app *app, char *buf, size_t n)
{
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	buf[0] = '\0';
	if (compare_by_what(app->cmp)) {
		snprintf(buf, n, "compare: %s", compare_by_what(app->cmp));
		return;
	}
	if (!r) {
		snprintf(buf, n, "compare: step times not compared");
		return;
	}
	text_appendf(buf, n, "compare: ");
	if (r->ncompared_ranks - r->nunmeasured < r->ncommon_ranks)
		text_appendf(buf, n, "%zu of ", r->ncompared_ranks - r->nunmeasured);
	text_appendf(buf, n, "%zu common rank%s, ", r->ncommon_ranks, r->ncommon_ranks == 1 ? "" : "s");
	if (!r->ncommon)
		text_appendf(buf, n, "0 common steps (nothing to compare)");
	else if (r->ncommon_min == r->ncommon)
		text_appendf(buf, n, "%zu common step%s (steps %ld-%ld)", r->ncommon, r->ncommon == 1 ? "" : "s", r->lo,
			     r->hi);
	else
		text_appendf(buf, n, "%zu-%zu common steps per rank (steps %ld-%ld)", r->ncommon_min, r->ncommon, r->lo,
			     r->hi);
}

/* The hint row: Enter opens a changed rank's row of the B - A heatmap. */
static void cp_hint(void *priv, struct app *app, char *buf, size_t n)
{
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	bool opens = r && r->nregressed + r->nimproved && app_find(app, &pane_heatmap, NULL) >= 0;
	snprintf(buf, n, "%s", opens ? "Enter:open" : "");
}

/* y: the selected rank's B - A change, Y: its row of diff_ranks, as --export diff_ranks
 * writes them. */
static int cp_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct cpane *p = priv;
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	if (!r || !(r->nregressed + r->nimproved))
		return -1;
	const struct table *t = cp_table(p, app);
	long k = copy_row_ref(t, r->v[listed(r, p->lc.sel)].rank);
	return copy_cells(t, k, row, t ? table_col_index(t, "delta_mean_compute_ms") : -1, buf, n);
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
	rank_line(&r->v[listed(r, i - p->lines.n)], compare_unlike(app->cmp), r->by_step_time, buf, n);
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
		       "mean compute per step (its step time when the ranks are compared by step time: the list's header "
		       "says so), then A -> B (the rank's run-to-run noise), then its time lost in A -> B; a rank "
		       "regressed when it is slower in B beyond its noise. Enter opens the rank's row of the B - A "
		       "heatmap at its onset. On a short screen the lowest lines (pytscope's notes, then A and B) give "
		       "way to the ranks: \"N more lines\" says how many, / finds them.");
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
	.copy = cp_copy,
	.hint = cp_hint,
	.items = cp_items,
	.item_text = cp_item_text,
	.item_show = cp_item_show,
	.legend = cp_legend,
};
