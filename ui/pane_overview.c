/* SPDX-License-Identifier: MIT */
/* pane_overview.c: the run at a glance: name, sources and data quality, every
 * subsystem's summary lines (registry_summary: the same lines head --print), each
 * wrapped over as many rows as it takes, and the findings (selectable: Enter opens the
 * evidence, or says there is none; y/Y copy the finding's title / its findings row). In
 * a short window the first lines give way to the findings, whole; a `/` match in one of
 * them shows the lines from it on while the search is on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/summary.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/legend.h"
#include "ui/list.h"

/* What identifies a finding across a refresh (its title may change: "12 s ago"). */
struct finding_key {
	char id[48];
	int kind, rank;
	long item;
};

struct opane {
	struct list_cursor lc; /* over the findings */
	struct finding_key sel; /* the selected finding at the last frame */
	bool refind;          /* the run grew: select that finding again */
	struct table *export; /* `e` here exports the findings view */
	struct summary head;  /* run, path, sources, data quality */
	struct summary sum;   /* the subsystems' summary lines */
	char *note;           /* what no rule could judge (findings_empty_note), made at the
	                       * first frame without findings, dropped when the run grows */
	size_t unjudged;      /* beside findings: how many not-judged items the Findings tab lists */
	bool note_done;
	long shown;           /* a summary line a `/` match brought into view, -1: none */
};

static void head_lines(struct app *app, struct summary *s);

/* Why the findings list is empty when no rule judged the run (the input was refused,
 * findings_unjudged), NULL when the rules judged it and found nothing. */
static const char *unjudged_why(struct app *app)
{
	return app->run->refused ? "not analysed: the input was refused (above)" : findings_unjudged(app->run);
}

static struct finding_key key_of(const struct finding *f)
{
	struct finding_key k = { .kind = (int)f->ev.kind, .rank = f->ev.rank, .item = f->ev.item };
	snprintf(k.id, sizeof(k.id), "%s", f->id);
	return k;
}

static bool key_eq(const struct finding_key *a, const struct finding_key *b)
{
	return a->kind == b->kind && a->rank == b->rank && a->item == b->item && strcmp(a->id, b->id) == 0;
}

/* After a refresh: the cursor on the same finding, on the same screen line. */
static void refind(struct opane *p, const struct finding_list *fl)
{
	p->refind = false;
	size_t line = p->lc.sel >= p->lc.top ? p->lc.sel - p->lc.top : 0;
	for (size_t i = 0; i < fl->n; i++) {
		struct finding_key k = key_of(&fl->v[i]);
		if (key_eq(&k, &p->sel)) {
			p->lc.sel = i;
			p->lc.top = i >= line ? i - line : 0;
			return;
		}
	}
}

/* The run grew (follow mode): the lines are built again, the findings are read again
 * at the next frame. */
static bool ov_rebuild(void *priv, struct app *app)
{
	struct opane *p = priv;
	p->refind = true;
	p->shown = -1;
	head_lines(app, &p->head);
	registry_summary(app->run, &p->sum);
	free(p->note);
	p->note = NULL;
	p->unjudged = 0;
	p->note_done = false;
	return true;
}

/* The lines are built when the pane opens and when the run grows (ov_rebuild). */
static void *ov_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	struct opane *p = xcalloc(1, sizeof(*p));
	p->shown = -1;
	head_lines(app, &p->head);
	registry_summary(app->run, &p->sum);
	return p;
}

static void ov_close(void *priv)
{
	struct opane *p = priv;
	table_free(p->export);
	free(p->note);
	free(p);
}

static struct table *ov_table(void *priv, struct app *app)
{
	struct opane *p = priv;
	const struct view_def *vd = registry_view(registry_tab_view(TAB_OVERVIEW));
	char err[128];
	table_free(p->export);
	p->export = vd ? vd->build(app->run, err, sizeof(err)) : NULL;
	return p->export;
}

/* "key   value", the value wrapped over as many rows as it needs, at most `rows` (at
 * least one: the last row drawn ends in an ellipsis when text remains); returns the row
 * after it. */
static int kv_role(int y, int x, int w, int rows, const char *k, const char *v, enum role r)
{
	draw_text(y, x, 18, k, ROLE_DIM);
	struct rect area = { y, x + 18, rows > 1 ? rows : 1, w - 18 };
	int used = draw_wrap(&area, 0, v, r);
	return y + (used > 0 ? used : 1);
}

static void head_lines(struct app *app, struct summary *s)
{
	const struct run *run = app->run;
	size_t rec = 0, skipped = 0, unreadable = 0, partial = 0;
	for (size_t i = 0; i < run->nsrc; i++) {
		rec += run->src[i].records;
		skipped += run->src[i].skipped;
		unreadable += run->src[i].err != 0;
		partial += run->src[i].partial;
	}
	size_t nerr = 0, nwarn = 0, ninfo = 0;
	for (size_t i = 0; i < run->diags.n; i++) {
		nerr += run->diags.v[i].level == DIAG_ERROR;
		nwarn += run->diags.v[i].level == DIAG_WARN;
		ninfo += run->diags.v[i].level == DIAG_INFO;
	}
	char notes[48] = ""; /* e.g. a rank dir without steps.jsonl: Sources lists them */
	if (ninfo)
		snprintf(notes, sizeof(notes), ", %zu note%s", ninfo, ninfo > 1 ? "s" : "");
	s->n = 0;
	summary_add(s, TONE_NORMAL, "run", "%s", run->name ? run->name : "-");
	summary_add(s, TONE_NORMAL, "path", "%s", run->path ? run->path : "-");
	summary_add(s, TONE_NORMAL, "sources", "%zu file%s, %zu record%s loaded", run->nsrc, run->nsrc == 1 ? "" : "s",
		    rec, rec == 1 ? "" : "s");
	summary_add(s, skipped || unreadable || nerr ? TONE_WARN : TONE_GOOD, "data quality",
		    "%zu skipped, %zu unreadable, %zu partial; %zu error%s, %zu warning%s%s%s", skipped, unreadable,
		    partial, nerr, nerr == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s", notes,
		    run->diags.dropped ? " (more dropped)" : "");
}

/* Draw s's lines at row y, the first *skip of them left out and at most *left drawn
 * (both counted off), in full above row `end` (a line that reaches it is cut there);
 * returns the row after them. */
static int draw_lines(const struct summary *s, size_t *skip, size_t *left, int y, int end, int x, int w)
{
	static const enum role tone_role[] = {
		[TONE_NORMAL] = ROLE_NORMAL, [TONE_GOOD] = ROLE_GOOD, [TONE_WARN] = ROLE_SEV_MED,
		[TONE_BAD] = ROLE_SEV_HIGH,
	};
	for (size_t i = 0; i < s->n && *left; i++) {
		if (*skip) {
			(*skip)--;
			continue;
		}
		(*left)--;
		y = kv_role(y, x, w, end - y, s->line[i].key, s->line[i].text, tone_role[s->line[i].tone]);
	}
	return y;
}

/* Rows line i of head then sum takes in full (kv_role). */
static int line_rows(const struct opane *p, size_t i, int w)
{
	const struct summary_line *l = i < p->head.n ? &p->head.line[i] : &p->sum.line[i - p->head.n];
	int r = draw_wrap_count(w - 18, l->text);
	return r < 1 ? 1 : r;
}

/* Summary lines left out at the top so that `rows` rows hold the rest in full, the
 * "more above" mark and the findings' first `keep` rows with their header (a short
 * window: the selected finding stays on screen). The last line stays while a row is left
 * for it, cut to the room (draw_lines). */
static size_t lines_skipped(const struct opane *p, int w, int rows, int keep)
{
	size_t n = p->head.n + p->sum.n;
	int used = 0;
	for (size_t i = 0; i < n; i++)
		used += line_rows(p, i, w);
	int room = rows - 2 - keep; /* the blank row and the findings header */
	if (used <= room)
		return 0;
	room -= 1; /* the mark */
	size_t skip = 0;
	while (skip < n && used > room && (skip + 1 < n || room < 1))
		used -= line_rows(p, skip++, w);
	return skip;
}

/* The summary lines shown, [*first, *last): the last ones lines_skipped leaves; when a
 * search match is in a line they leave out (p->shown), that line and the ones after it
 * that fit between the "more above" and "more below" marks. */
static void lines_window(const struct opane *p, int w, int rows, int keep, size_t *first, size_t *last)
{
	size_t n = p->head.n + p->sum.n;
	*first = lines_skipped(p, w, rows, keep);
	*last = n;
	if (p->shown < 0 || (size_t)p->shown >= *first)
		return;
	*first = (size_t)p->shown;
	int room = rows - 2 - keep - 1 - (*first > 0); /* the blank row, the findings header, the marks */
	int used = line_rows(p, *first, w);
	*last = *first + 1; /* the match, whatever the room */
	while (*last < n && used + line_rows(p, *last, w) <= room)
		used += line_rows(p, (*last)++, w);
}

/* Once a run state: what no rule could judge, as a note under "no findings" or, beside
 * findings, their count (made at the first frame, dropped when the run grows). */
static void note_make(struct opane *p, struct app *app, const struct finding_list *fl)
{
	if (p->note_done || app->run->refused || (!fl->n && findings_unjudged(app->run)))
		return;
	p->note_done = true;
	if (!fl->n) {
		p->note = findings_empty_note(app->run);
		return;
	}
	struct not_judged nj = { 0 };
	findings_not_judged_list(app->run, &nj);
	p->unjudged = nj.n;
	findings_not_judged_free(&nj);
}

static void ov_draw(void *priv, struct app *app, const struct rect *body)
{
	struct opane *p = priv;
	int x = body->x + 2, w = body->w - 4, y = body->y + 1;
	const struct finding_list *fl = run_findings(app->run);
	size_t first, last, n = p->head.n + p->sum.n;
	if (!app->search_on || app->search_pos < 0)   /* the search ended or missed: the default window */
		p->shown = -1;
	int keep = fl->n ? (fl->n < 3 ? (int)fl->n : 3) : 1;
	lines_window(p, w, body->h - 1, keep, &first, &last);
	if (first)
		draw_fmt(y++, x, w, ROLE_DIM, "%s %zu more line%s above (a taller window shows them)", app->g->asc, first,
			 first == 1 ? "" : "s");
	size_t skip = first, left = last - first;
	int end = body->y + body->h - 2 - keep - (last < n); /* the lines' room ends here (lines_window) */
	y = draw_lines(&p->head, &skip, &left, y, end, x, w);
	y = draw_lines(&p->sum, &skip, &left, y, end, x, w);
	if (last < n)
		draw_fmt(y++, x, w, ROLE_DIM, "%s %zu more line%s below (Esc ends the search and shows them)",
			 app->g->desc, n - last, n - last == 1 ? "" : "s");
	y++;
	note_make(p, app, fl);
	if (p->unjudged) /* beside findings, the rules that could not judge: the list's silence is no verdict */
		draw_fmt(y++, x, w, ROLE_HEADER, "Findings (%zu, %zu not judged; Enter opens the evidence, 6 lists them all)",
			 fl->n, p->unjudged);
	else
		draw_fmt(y++, x, w, ROLE_HEADER, "Findings (%zu; Enter opens the evidence, 6 lists them all)", fl->n);
	if (p->refind)
		refind(p, fl);
	list_resize(&p->lc, fl->n, body->y + body->h - y);
	if (fl->n)
		p->sel = key_of(&fl->v[p->lc.sel]);
	for (size_t i = p->lc.top; i < fl->n && y < body->y + body->h; i++, y++) {
		const struct finding *f = &fl->v[i];
		enum role sev = f->severity == SEV_HIGH ? ROLE_SEV_HIGH : f->severity == SEV_MED ? ROLE_SEV_MED : ROLE_SEV_LOW;
		if (i == p->lc.sel)
			draw_clear_rect(&(struct rect){ y, x, 1, w }, ROLE_SELECTED);
		draw_text(y, x, 5, severity_label(f->severity), i == p->lc.sel ? ROLE_SELECTED : sev);
		draw_text(y, x + 6, w - 6, f->title, i == p->lc.sel ? ROLE_SELECTED : ROLE_NORMAL);
	}
	if (!fl->n && p->note) /* what no rule could judge, under "no findings" */
		draw_wrap(&(struct rect){ y, x, body->y + body->h - y, w }, 0, p->note, ROLE_DIM);
	else if (!fl->n)
		draw_text(y, x, w, unjudged_why(app) ? unjudged_why(app) : "no findings", ROLE_DIM);
}

static unsigned ov_handle(void *priv, struct app *app, enum action a)
{
	struct opane *p = priv;
	size_t n = run_findings(app->run)->n;
	p->lc.n = n;
	if (list_key(&p->lc, a)) {
		p->shown = -1;   /* the cursor moved: the findings in view again */
		if (n)
			p->sel = key_of(&run_findings(app->run)->v[p->lc.sel]);
		return PR_HANDLED;
	}
	switch (a) {
	case ACT_ENTER:
		if (n)
			return app_open_finding(app, p->lc.sel) | PR_HANDLED;
		app_msg(app, false, "no finding to open: %s",
			unjudged_why(app) ? unjudged_why(app) : "the rules found none");
		return PR_HANDLED;
	default: return PR_NONE;
	}
}

/* The hint row: Enter opens the selected finding's evidence. */
static void ov_hint(void *priv, struct app *app, char *buf, size_t n)
{
	snprintf(buf, n, "%s", run_findings(app->run)->n ? "Enter:open" : "");
}

static void ov_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct opane *p = priv;
	const struct finding_list *fl = run_findings(app->run);
	if (fl->n && p->lc.sel < fl->n)
		snprintf(buf, n, "finding %zu/%zu  %s", p->lc.sel + 1, fl->n, fl->v[p->lc.sel].id);
	else
		snprintf(buf, n, "overview");
}

/* y: the selected finding's title, Y: its row of the findings view (--export findings:
 * severity, id, title, evidence, detail, fix). */
static int ov_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct opane *p = priv;
	if (!run_findings(app->run)->n)
		return -1;
	const struct table *t = ov_table(p, app);
	return copy_cells(t, copy_row_ref(t, (long)p->lc.sel), row, t ? table_col_role(t, COL_ROLE_TITLE) : -1, buf, n);
}

/* `/` items: the summary lines ("key  value"), then the findings (severity, id,
 * title); a finding is selected, a line is highlighted and brought into view. */
static size_t ov_items(void *priv, struct app *app, size_t *sel)
{
	struct opane *p = priv;
	size_t nl = p->head.n + p->sum.n;
	*sel = nl + p->lc.sel;
	return nl + run_findings(app->run)->n;
}

static void ov_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	struct opane *p = priv;
	const struct summary_line *l = i < p->head.n ? &p->head.line[i]
				       : i < p->head.n + p->sum.n ? &p->sum.line[i - p->head.n] : NULL;
	if (l) {
		snprintf(buf, n, "%s  %s", l->key, l->text);
		return;
	}
	const struct finding *f = &run_findings(app->run)->v[i - p->head.n - p->sum.n];
	snprintf(buf, n, "%s  %s  %s", severity_label(f->severity), f->id, f->title);
}

/* A finding is selected; a summary line is brought into view (ov_draw). */
static void ov_item_show(void *priv, struct app *app, size_t i)
{
	struct opane *p = priv;
	size_t nl = p->head.n + p->sum.n;
	p->shown = i < nl ? (long)i : -1;
	if (i >= nl) {
		p->lc.n = run_findings(app->run)->n;
		p->lc.sel = i - nl;
		list_clamp(&p->lc);
	}
}

/* The summary lines' tones and the findings' severities. */
static void ov_legend(void *priv, struct app *app, struct legend *l)
{
	struct opane *p = priv;
	legend_head(l, "Overview: the run at a glance");
	legend_para(l, "The lines above the findings are the same lines that head the --print report: the run, its "
		       "sources and data quality, then what each input family found. Below them, the findings, "
		       "most severe first; Enter opens a finding's evidence, 6 lists them with their detail and fix.");
	legend_row(l, "ok", 1, ROLE_GOOD, "a good line (balanced, no issue found where a rule could judge)");
	legend_row(l, "warn", 1, ROLE_SEV_MED, "a line to look at (skipped records, a warning)");
	legend_row(l, "bad", 1, ROLE_SEV_HIGH, "a problem line (a straggler, a regression)");
	if (theme_tier() == TIER_MONO)   /* the samples alone: "ok" would read as any plain word */
		legend_para(l, "Without colour, a warn line is underlined and a bad line bold; an ok line is plain, as "
			       "the lines that judge nothing (run, path, sources) are: its words give its verdict.");
	char words[4096];
	size_t k = 0;
	for (size_t i = 0; i < p->sum.n && k < sizeof(words); i++)
		k += (size_t)snprintf(words + k, sizeof(words) - k, "%s %s ", p->sum.line[i].key, p->sum.line[i].text);
	words[k < sizeof(words) ? k : sizeof(words) - 1] = '\0';
	legend_terms(l, words);
}

const struct pane_ops pane_overview = {
	.name = "overview",
	.open = ov_open,
	.close = ov_close,
	.draw = ov_draw,
	.handle = ov_handle,
	.status = ov_status,
	.table = ov_table,
	.rebuild = ov_rebuild,
	.copy = ov_copy,
	.hint = ov_hint,
	.items = ov_items,
	.item_text = ov_item_text,
	.item_show = ov_item_show,
	.legend = ov_legend,
};
