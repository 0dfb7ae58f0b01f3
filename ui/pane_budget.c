/* SPDX-License-Identifier: MIT */
/* pane_budget.c: the efficiency budget as bars: the selected rank's budget line by line
 * (seconds, share of wall, recoverable lines highlighted), every rank as one stacked
 * bar with its efficiency and recoverable share (j/k select), and the selected rank per
 * step window (its records after --warmup, as its budget; a rank without a budget says
 * why). Without FLOPs/peak there is no efficiency: the compute share is called compute
 * and the recoverable share is n/a (the compute overhead is unknown); the header says why
 * MFU is n/a (analysis_budget_mfu_na: which value is missing or unusable). Natively the
 * time the rank's budget leaves out (phases of no line) is named under its lines, as the
 * report's "left out:" line: its rank wall, efficiency and MFU do not count it.
 * Each budget line has its own fill glyph and colour, so the bars read in mono. y/Y copy
 * the selected rank's useful fraction / budget row as --export budget writes them. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/units.h"
#include "model/steps/analysis.h"
#include "model/registry.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/list.h"

enum { BP_WINDOWS = 8, BP_BAR_MAX = 100 };

struct bpane {
	const struct steps_model *m;
	struct list_cursor lc;    /* over the ranks (by index) */
	int sel_rank;             /* rank id of lc.sel at the last frame (a refresh re-finds it) */
	struct table *export;
};

/* The index of the first rank with a budget (a rank without phases has none), or -1. */
static long first_budget(struct app *app)
{
	for (size_t r = 0; r < steps_nranks(app->run->steps); r++)
		if (analysis_budget(app->run, r))
			return (long)r;
	return -1;
}

static void *bp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	const struct steps_model *m = app->run->steps;
	long first = m ? first_budget(app) : -1;
	if (first < 0) {
		steps_budget_none_why(app->run, why, whyn);
		return NULL;
	}
	struct bpane *p = xcalloc(1, sizeof(*p));
	p->m = m;
	size_t n;
	const int *strag = app_stragglers(app, &n);
	long ri = n ? steps_rank_index(m, strag[0]) : -1;
	p->lc.sel = ri >= 0 ? (size_t)ri : (size_t)first;
	p->sel_rank = steps_rank_id(m, p->lc.sel);
	return p;
}

static void bp_close(void *priv)
{
	struct bpane *p = priv;
	table_free(p->export);
	free(p);
}

/* One stacked bar of the budget lines in w columns; returns the recoverable fraction. */
static double stacked(struct app *app, const struct budget *b, int y, int x, int w)
{
	double cum = 0, rec = 0;
	int drawn = 0;
	for (int k = 0; k < BUDGET_NLINES; k++) {
		const struct budget_line *l = &b->line[k];
		if (l->recoverable)
			rec += l->fraction;
		cum += l->fraction > 0 ? l->fraction : 0;
		int upto = (int)text_bar_cells(cum, w);
		draw_fill(y, x + drawn, upto - drawn, k);
		if (upto > drawn)
			drawn = upto;
	}
	return rec;
}


/* The label column: the longest line name, a gap before the bar. */
static int name_width(const struct budget *b)
{
	int w = 0;
	for (int k = 0; k < BUDGET_NLINES; k++) {
		int lw = text_width(b->line[k].name);
		w = lw > w ? lw : w;
	}
	return 2 + w + 2;
}

/* "eff  81.2% rec 18.8%" of a per-rank or per-window bar; n/a where the budget judges
 * nothing (analysis.h: only compute recorded, no MFU). Without FLOPs/peak the useful
 * compute is all compute: its share, "compute  68.1% rec n/a", is no efficiency, and the
 * recoverable lines leave out the compute overhead nothing measures. */
static void eff_rec(const struct budget *b, double rec, char *buf, size_t n)
{
	if (!b->judged)
		snprintf(buf, n, "eff   n/a rec  n/a");
	else if (b->has_mfu)
		snprintf(buf, n, "eff %5.1f%% rec %4.1f%%", b->efficiency * 100, rec * 100);
	else
		snprintf(buf, n, "compute %5.1f%% rec n/a", b->efficiency * 100);
}

static int draw_lines(struct bpane *p, struct app *app, const struct budget *b, int y, int x, int w)
{
	int name_w = name_width(b);
	char sec[32], eff[96], mfu_na[BUDGET_MFU_NA + 16] = "";
	/* without a compute phase the efficiency's n/a already says why (no compute) */
	const char *why = b->has_mfu ? NULL : analysis_budget_mfu_na_after(b);
	bool no_basis = why && strcmp(why, BUDGET_NO_PEAK) == 0; /* neither FLOPs nor a peak given */
	if (why)
		snprintf(mfu_na, sizeof(mfu_na), ", MFU n/a%s%s", no_basis ? " (no FLOPs/peak)" : *why ? ": " : "",
			 no_basis ? "" : why);
	if (b->judged && !b->has_mfu) /* the compute share, as the Overview says it */
		snprintf(eff, sizeof(eff), "compute %.1f%%", b->efficiency * 100);
	else if (b->judged)
		snprintf(eff, sizeof(eff), "efficiency %.1f%%", b->efficiency * 100);
	else
		snprintf(eff, sizeof(eff), "efficiency n/a: %s", analysis_budget_unjudged(b));
	draw_fmt(y++, x, w, ROLE_HEADER, "Budget of rank %d: rank wall %s, %s%s%s%s", steps_rank_id(p->m, p->lc.sel),
		 units_seconds(b->wall, sec, sizeof(sec)), eff, mfu_na, b->peak_table ? ", peak from GPU table: " : "",
		 b->peak_table ? b->peak_table : "");
	char pct[48];   /* a share a rule judges stays on its side of the bar (analysis.h BARS) */
	if (b->has_mfu)
		draw_fmt(y - 1, x + w - 14, 14, ROLE_ACCENT, "MFU %s%%", analysis_budget_mfu_text(b, 1, pct, sizeof(pct)));
	int bar_w = w - name_w - 33;
	for (int k = 0; k < BUDGET_NLINES; k++, y++) {
		const struct budget_line *l = &b->line[k];
		draw_fill(y, x, 1, k);
		if (!l->measured) { /* nothing measures it: no bar, no 0 */
			draw_text(y, x + 2, name_w - 4, l->name, ROLE_DIM);
			draw_fmt(y, x + name_w + bar_w + 1, 32, ROLE_DIM, "%9s %6s %s", "-", "n/a",
				 k != BUDGET_OVERHEAD || !b->line[BUDGET_USEFUL].measured ? "not recorded"
				 : no_basis ? "no FLOPs/peak" : "MFU n/a (above)");
			continue;
		}
		draw_text(y, x + 2, name_w - 4, l->name, l->recoverable ? ROLE_RECOVER : ROLE_NORMAL);
		draw_bar(y, x + name_w, bar_w, l->fraction, theme_phase(k));
		draw_fmt(y, x + name_w + bar_w + 1, 32, ROLE_NORMAL, "%9s %5s%%%s", units_seconds(l->seconds, sec, sizeof(sec)),
			 analysis_budget_share_text(b, k, 1, pct, sizeof(pct)), l->recoverable ? " recoverable" : "");
	}
	char left[256]; /* natively, time in phases of no line: the rank wall and its shares miss it */
	if (analysis_budget_left_out(app->run, b, left, sizeof(left)))
		draw_fmt(y++, x, w, ROLE_SEV_MED, "left out: %s", left);
	return y;
}

static int draw_ranks(struct bpane *p, struct app *app, int y, int x, int w, int h)
{
	size_t n = steps_nranks(p->m);
	draw_text(y++, x, w, "Per rank (j/k select): stacked budget lines, recoverable share", ROLE_HEADER);
	list_resize(&p->lc, n, h - 1);
	int bar_w = w - 34 < BP_BAR_MAX ? w - 34 : BP_BAR_MAX;
	for (int i = 0; i < p->lc.rows && p->lc.top + (size_t)i < n; i++, y++) {
		size_t ri = p->lc.top + (size_t)i;
		const struct budget *b = analysis_budget(app->run, ri);
		bool sel = ri == p->lc.sel;
		draw_fmt(y, x, 10, sel ? ROLE_SELECTED : ROLE_DIM, "rank %d", steps_rank_id(p->m, ri));
		if (!b) {
			draw_text(y, x + 11, w - 11, "-", ROLE_DIM);
			continue;
		}
		char er[32];
		eff_rec(b, stacked(app, b, y, x + 11, bar_w), er, sizeof(er));
		draw_text(y, x + 12 + bar_w, 22, er, ROLE_NORMAL);
	}
	return y;
}

/* Offset of window k's first step from the lowest step, for `count` steps in nw
 * windows: floor(count * k / nw) without overflow for any span of long steps. */
static unsigned long window_start(unsigned long count, int k, int nw)
{
	unsigned long q = count / (unsigned long)nw, r = count % (unsigned long)nw;
	return q * (unsigned long)k + r * (unsigned long)k / (unsigned long)nw;
}

/* lo + off for an offset within the span of steps (two's complement, no signed overflow). */
static long step_at(long lo, unsigned long off)
{
	unsigned long u = (unsigned long)lo + off;
	return u > (unsigned long)LONG_MAX ? -(long)(~u) - 1 : (long)u;
}

/* The selected rank's budget per step window, over its records after --warmup (the
 * budget's records); a rank with none left says why instead. */
static int draw_windows(struct bpane *p, struct app *app, int y, int x, int w)
{
	size_t nrec = steps_nrecords(p->m, p->lc.sel), first = analysis_budget_first(app->run, p->lc.sel);
	long wu = app->run->opts ? app->run->opts->warmup : 0L;
	char after[48] = "", why[160];
	if (first > 0)
		snprintf(after, sizeof(after), ", after --warmup %ld", wu);
	if (first == nrec) {
		draw_fmt(y++, x, w, ROLE_HEADER, "Rank %d per step window: none; %s", steps_rank_id(p->m, p->lc.sel),
			 analysis_budget_why_absent(app->run, p->lc.sel, why, sizeof(why)));
		return y;
	}
	long lo = steps_step(p->m, p->lc.sel, first), hi = lo;
	for (size_t i = first + 1; i < nrec; i++) {
		long s = steps_step(p->m, p->lc.sel, i);
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	unsigned long span = (unsigned long)hi - (unsigned long)lo;
	unsigned long count = span == ULONG_MAX ? span : span + 1;
	draw_fmt(y++, x, w, ROLE_HEADER, "Rank %d per step window%s", steps_rank_id(p->m, p->lc.sel), after);
	int bar_w = w - 44 < BP_BAR_MAX ? w - 44 : BP_BAR_MAX;
	/* fewer steps than windows: a window a step, the rows below them empty */
	int nw = count < BP_WINDOWS ? (int)count : BP_WINDOWS;
	for (int k = 0; k < nw; k++, y++) {
		unsigned long o0 = window_start(count, k, nw), o1 = window_start(count, k + 1, nw);
		struct budget bw;
		long a = step_at(lo, o0), b = k + 1 == nw ? hi : step_at(lo, o1 - 1);
		draw_fmt(y, x, 20, ROLE_DIM, "steps %ld-%ld", a, b);
		if (!analysis_budget_window(app->run, p->lc.sel, a, b, &bw)) {
			draw_text(y, x + 21, 10, "-", ROLE_DIM);
			continue;
		}
		char er[32];
		eff_rec(&bw, stacked(app, &bw, y, x + 21, bar_w), er, sizeof(er));
		draw_text(y, x + 22 + bar_w, 22, er, ROLE_NORMAL);
	}
	return y;
}

static void bp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct bpane *p = priv;
	int x = body->x + 1, w = body->w - 2, y = body->y;
	p->sel_rank = steps_rank_id(p->m, p->lc.sel);
	const struct budget *b = analysis_budget(app->run, p->lc.sel);
	char why[160];
	if (b)
		y = draw_lines(p, app, b, y, x, w);
	else
		draw_fmt(y++, x, w, ROLE_DIM, "rank %d has no budget: %s", steps_rank_id(p->m, p->lc.sel),
			 analysis_budget_why_absent(app->run, p->lc.sel, why, sizeof(why)));
	y++;
	int avail = body->y + body->h - y;
	int win_h = BP_WINDOWS + 1;
	int rank_h = avail - win_h - 1;
	if (rank_h < 3) {
		rank_h = avail;
		win_h = 0;
	}
	y = draw_ranks(p, app, y, x, w, rank_h);
	if (win_h)
		draw_windows(p, app, body->y + body->h - win_h, x, w);
}

static unsigned bp_handle(void *priv, struct app *app, enum action a)
{
	struct bpane *p = priv;
	p->lc.n = steps_nranks(p->m);
	if (list_key(&p->lc, a)) {
		p->sel_rank = steps_rank_id(p->m, p->lc.sel);
		return PR_HANDLED;
	}
	switch (a) {
	case ACT_ENTER: {
		long s = app_find(app, &pane_steps, NULL);
		struct ui_target t = { .rank = steps_rank_id(p->m, p->lc.sel), .step_lo = -1, .step_hi = -1, .item = -1 };
		return s >= 0 ? app_show(app, (size_t)s, &t) | PR_HANDLED : PR_NONE;
	}
	default: return PR_NONE;
	}
	return PR_HANDLED;
}

/* The hint row: Enter opens the selected rank in Steps. */
static void bp_hint(void *priv, struct app *app, char *buf, size_t n)
{
	snprintf(buf, n, "%s", app_find(app, &pane_steps, NULL) >= 0 ? "Enter:open" : "");
}

static unsigned bp_select(void *priv, struct app *app, const struct ui_target *t)
{
	struct bpane *p = priv;
	long ri = t->rank >= 0 ? steps_rank_index(p->m, t->rank) : -1;
	if (ri < 0)
		return PR_NONE;
	p->lc.sel = (size_t)ri;
	p->sel_rank = t->rank;
	return PR_HANDLED;
}

static void bp_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct bpane *p = priv;
	const struct budget *b = analysis_budget(app->run, p->lc.sel);
	if (!b) {
		snprintf(buf, n, "rank %d: no budget", steps_rank_id(p->m, p->lc.sel));
		return;
	}
	char wall[32], useful[32] = "-", sec[32];
	if (b->line[BUDGET_USEFUL].measured) /* no compute phase: missing, not 0 s */
		units_seconds(b->useful, useful, sizeof(useful));
	int k = snprintf(buf, n, "rank %d  rank wall %s  useful %s  %s ", steps_rank_id(p->m, p->lc.sel),
			 units_seconds(b->wall, wall, sizeof(wall)), useful,
			 b->judged && !b->has_mfu ? "compute" : "efficiency");
	if (k > 0 && (size_t)k < n)
		k += b->judged ? snprintf(buf + k, n - (size_t)k, "%.1f%%", b->efficiency * 100)
			       : snprintf(buf + k, n - (size_t)k, "n/a");
	for (size_t i = 0; i < b->nrecoverable && k > 0 && (size_t)k < n; i++) {
		const struct budget_line *l = &b->line[b->recoverable[i]];
		k += snprintf(buf + k, n - (size_t)k, "  %s %s", l->name, units_seconds(l->seconds, sec, sizeof(sec)));
	}
}

static struct table *bp_table(void *priv, struct app *app)
{
	struct bpane *p = priv;
	table_free(p->export);
	const struct view_def *vd = registry_view(registry_tab_view(TAB_BUDGET));
	char err[128];
	p->export = vd ? vd->build(app->run, err, sizeof(err)) : NULL;
	return p->export;
}

/* y: the selected rank's useful fraction (its efficiency, or compute share), Y: its budget row, as
 * --export budget writes them. */
static int bp_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct bpane *p = priv;
	const struct table *t = bp_table(p, app);
	long r = copy_row_ref(t, steps_rank_id(p->m, p->lc.sel));
	return copy_cells(t, r, row, t ? table_col_index(t, "useful_fraction") : -1, buf, n);
}

/* The run grew (follow mode): the same rank stays selected, by id, on the same screen
 * line; the rank list and the bars are read from the model at the next frame. */
static bool bp_rebuild(void *priv, struct app *app)
{
	struct bpane *p = priv;
	const struct steps_model *m = app->run->steps;
	if (!m || !steps_nranks(m))
		return false;
	p->m = m;
	long ri = steps_rank_index(m, p->sel_rank);
	size_t line = p->lc.sel >= p->lc.top ? p->lc.sel - p->lc.top : 0;
	if (ri >= 0)
		p->lc.sel = (size_t)ri;
	p->lc.top = p->lc.sel >= line ? p->lc.sel - line : 0;
	list_resize(&p->lc, steps_nranks(m), p->lc.rows);
	return true;
}

/* `/` items: the selected rank's budget lines (always on screen), then the ranks
 * ("rank 3": a match selects it). */
static size_t bp_items(void *priv, struct app *app, size_t *sel)
{
	struct bpane *p = priv;
	*sel = BUDGET_NLINES + p->lc.sel;
	return BUDGET_NLINES + steps_nranks(p->m);
}

static void bp_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	struct bpane *p = priv;
	const struct budget *b = i < BUDGET_NLINES ? analysis_budget(app->run, p->lc.sel) : NULL;
	if (i >= BUDGET_NLINES)
		snprintf(buf, n, "rank %d", steps_rank_id(p->m, i - BUDGET_NLINES));
	else if (b)
		snprintf(buf, n, "%s%s", b->line[i].name, b->line[i].recoverable ? " recoverable" : "");
}

static void bp_item_show(void *priv, struct app *app, size_t i)
{
	struct bpane *p = priv;
	if (i < BUDGET_NLINES)
		return;
	p->lc.n = steps_nranks(p->m);
	p->lc.sel = i - BUDGET_NLINES;
	list_clamp(&p->lc);
}

static int bp_cur_rank(void *priv, struct app *app)
{
	struct bpane *p = priv;
	return steps_rank_id(p->m, p->lc.sel);
}

/* The budget lines' fills and what eff and rec mean. */
static void bp_legend(void *priv, struct app *app, struct legend *l)
{
	static const char *const what[BUDGET_NLINES] = {
		"useful compute: compute at the peak rate (all measured compute when FLOPs or peak are unknown)",
		"compute overhead: measured compute beyond what the FLOPs need at peak (recoverable)",
		"data stall: time in the data phase (recoverable)",
		"communication: time in the comm phase (recoverable)",
		"other: the other phase (recoverable)",
	};
	legend_head(l, "Budget: where each rank's wall time went");
	legend_para(l, "The lines add up exactly to the rank wall (its phases summed over its records after --warmup; "
		       "the step windows read the same records). "
		       "eff is the efficiency, useful compute / rank wall, and MFU, when the run names its FLOPs per "
		       "step and the GPU's peak; rec is the recoverable share of the rank wall. Without them the "
		       "useful compute is all the time of the forward, backward, optimizer and compute phases: "
		       "compute is its share of the rank wall, not an efficiency, and rec is n/a (the compute "
		       "overhead, recoverable too, is unknown). A "
		       "line nothing measures reads n/a, not 0 (a phase the run does not record; compute overhead "
		       "without FLOPs and peak), and eff and rec are n/a when only compute is recorded. "
		       "A phase none of the lines weighs (a name other than data, forward, backward, optimizer, "
		       "compute, comm and other) is not in the rank wall: the line under the budget lines names its "
		       "time (left out:), which eff, MFU and rec do not count.");
	for (int k = 0; k < BUDGET_NLINES; k++)
		legend_fill(l, k, what[k]);
	legend_row(l, "name", 1, ROLE_RECOVER, "a recoverable line's name");
	legend_terms(l, "rank wall useful compute compute overhead comm");
}

const struct pane_ops pane_budget = {
	.name = "budget",
	.open = bp_open,
	.close = bp_close,
	.draw = bp_draw,
	.handle = bp_handle,
	.select = bp_select,
	.table = bp_table,
	.status = bp_status,
	.cur_rank = bp_cur_rank,
	.rebuild = bp_rebuild,
	.copy = bp_copy,
	.hint = bp_hint,
	.items = bp_items,
	.item_text = bp_item_text,
	.item_show = bp_item_show,
	.legend = bp_legend,
};
