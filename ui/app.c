/* SPDX-License-Identifier: MIT */
/* app.c: pane tabs and back stack, key dispatch, prompt, overlays, the frame around
 * the panes, straggler order and finding drill-down (see app.h); what e exports and
 * says is app_export.c's. A pane of a view --compat pytscope refuses shows why instead
 * (model/compat.h). */
#include "ui/app.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/compat.h"
#include "model/registry.h"
#include "model/steps/follow.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/app_internal.h"
#include "ui/cmd.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/legend.h"
#include "ui/list.h"
#include "ui/search.h"
#include "ui/term.h"
#include "ui/theme.h"

/* ---- messages and panes ---------------------------------------------------- */

void app_msg(struct app *app, bool err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof(app->msg), fmt, ap);
	va_end(ap);
	app->msg_err = err;
}

long app_find(struct app *app, const struct pane_ops *ops, const char *arg)
{
	for (size_t i = 0; i < app->npane; i++) {
		const struct pane_slot *s = &app->pane[i];
		if (s->ops != ops)
			continue;
		if ((!arg && !s->arg) || (arg && s->arg && strcmp(arg, s->arg) == 0))
			return (long)i;
	}
	return -1;
}

long app_pane(struct app *app, const struct pane_ops *ops, const char *arg, const char *label)
{
	long i = app_find(app, ops, arg);
	if (i >= 0)
		return i;
	if (app->npane >= APP_MAX_PANES)
		return -1;
	struct pane_slot *s = &app->pane[app->npane];
	memset(s, 0, sizeof(*s));
	s->ops = ops;
	s->arg = arg ? xstrdup(arg) : NULL;
	snprintf(s->label, sizeof(s->label), "%s", label ? label : ops->name);
	return (long)app->npane++;
}

static void pane_close(struct pane_slot *s);

/* The view whose rows a pane shows (a table's; its tab's for the Steps and Budget panes,
 * the heatmap's for the Heatmap), NULL for the others: for --compat pytscope's refusals. */
static const char *pane_view(const struct pane_slot *s)
{
	if (s->ops == &pane_table)
		return s->arg;
	if (s->ops == &pane_steps)
		return registry_tab_view(TAB_STEPS);
	if (s->ops == &pane_budget)
		return registry_tab_view(TAB_BUDGET);
	return s->ops == &pane_heatmap ? "heatmap" : NULL;
}

void *app_pane_priv(struct app *app, size_t i)
{
	struct pane_slot *s = &app->pane[i];
	if (s->stale) {   /* the run grew since it was drawn: rebuild in place, else reopen */
		s->stale = false;
		if (!s->priv || !s->ops->rebuild || !s->ops->rebuild(s->priv, app))
			pane_close(s);
	}
	if (!s->opened) {
		s->opened = true;
		s->why[0] = '\0';
		/* a view --compat pytscope refuses (model/compat.h): its reason, as --export says it */
		const char *left_out = app->cmp ? NULL : compat_view_refusal(app->run, pane_view(s));
		if (left_out)
			snprintf(s->why, sizeof(s->why), "%s", left_out);
		else
			s->priv = s->ops->open(app, s->arg, s->why, sizeof(s->why));
		if (!s->priv && !s->why[0])
			snprintf(s->why, sizeof(s->why), "no data for this pane in this run");
		state_apply(app, i);
	}
	return s->priv;
}

static void pane_close(struct pane_slot *s)
{
	if (s->priv && s->ops->close)
		s->ops->close(s->priv);
	s->priv = NULL;
	s->opened = false;
	s->stale = false;
}

void app_strag_forget(struct app *app)
{
	free(app->strag);
	free(app->strag_onset);
	free(app->strag_until);
	app->strag = NULL;
	app->strag_onset = NULL;
	app->strag_until = NULL;
	app->nstrag = 0;
	app->strag_done = false;
}

void app_reload(struct app *app)
{
	for (size_t i = 0; i < app->npane; i++)
		pane_close(&app->pane[i]);
	app_strag_forget(app);
	app->full_redraw = true;
}

/* ---- pane switching ---------------------------------------------------------- */

/* The back stack holds where a drill-down (Enter, n) and a tab opened with v, :view or
 * :heatmap came from; Esc and q go back the same way (go_back). Switching tabs (a digit,
 * Tab, a click on a tab, :pane) pushes nothing. */
void app_goto(struct app *app, size_t i, bool push)
{
	if (i >= app->npane || i == app->cur)
		return;
	if (push) {
		if (app->nback == APP_BACK) {
			memmove(app->back, app->back + 1, (APP_BACK - 1) * sizeof(app->back[0]));
			app->nback--;
		}
		app->back[app->nback++] = app->cur;
	}
	app->cur = i;
	search_reset(app);   /* the match was in the pane left */
}

unsigned app_show(struct app *app, size_t i, const struct ui_target *t)
{
	app_goto(app, i, true);
	void *priv = app_pane_priv(app, i);
	if (!priv || !app->pane[i].ops->select)
		return PR_REDRAW;
	struct ui_target drill = *t;
	drill.drill = true;
	return app->pane[i].ops->select(priv, app, &drill) | PR_REDRAW;
}

/* ---- stragglers -------------------------------------------------------------- */

/* Compare mode: the regressed ranks in the comparison's order, with their onset in B. */
static void regressions(struct app *app)
{
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	size_t k = r ? r->nregressed : 0;
	app->strag = xmalloc((k + 1) * sizeof(*app->strag));
	app->strag_onset = xmalloc((k + 1) * sizeof(*app->strag_onset));
	app->strag_until = xmalloc((k + 1) * sizeof(*app->strag_until));
	for (size_t i = 0; i < k; i++) {
		app->strag[i] = r->v[r->order[i]].rank;
		app->strag_onset[i] = r->v[r->order[i]].onset_b;
		app->strag_until[i] = -1;
	}
	app->nstrag = k;
}

/* The run's straggler set (analysis.h STRAGGLERS), by cost: the same set as the ranks
 * view's straggler column, the Overview and the findings. */
const int *app_stragglers(struct app *app, size_t *n)
{
	if (!app->strag_done && app->cmp) {
		app->strag_done = true;
		regressions(app);
	}
	if (!app->strag_done) {
		app->strag_done = true;
		const struct distributed *d = app->run->steps ? analysis_distributed(app->run) : NULL;
		size_t k = d ? d->nstragglers : 0;
		app->strag = xmalloc((k + 1) * sizeof(*app->strag));
		app->strag_onset = xmalloc((k + 1) * sizeof(*app->strag_onset));
		app->strag_until = xmalloc((k + 1) * sizeof(*app->strag_until));
		for (size_t i = 0; i < k; i++) {
			const struct rank_stat *rs = &d->rank[d->stragglers[i]];
			app->strag[i] = rs->rank;
			app->strag_onset[i] = rs->slow_onset;
			app->strag_until[i] = rs->recovered ? rs->stall_hi : -1;
		}
		app->nstrag = k;
	}
	*n = app->nstrag;
	return app->strag;
}

/* n/N without a straggler: the headline's verdict (none, not judged, over the ranks
 * loaded), or why there is none. */
static void no_straggler_msg(struct app *app)
{
	char line[SUMMARY_TEXT];
	if (app->run->steps && analysis_distributed(app->run)) {
		steps_straggler_verdict(app->run, line, sizeof(line));
		app_msg(app, true, "stragglers: %s (see man page, FINDINGS)", line);
	} else {
		app_msg(app, true, "no straggler verdict: needs per-rank step records of 2 or more ranks");
	}
}

/* Why n/N has no regressed rank to land on in compare mode: none, the ranks were not
 * judged, or the pair has no ranks (the verdict says why). */
static void no_regression_msg(struct app *app)
{
	const struct cmp_ranks *r = compare_ranks(app->cmp);
	char why[SUMMARY_TEXT];
	if (compare_by_what(app->cmp)) {
		app_msg(app, true, "no ranks to step through: %s", compare_by_what(app->cmp));
	} else if (!r || !r->ncommon || !r->ncommon_ranks) {
		compare_verdict(app->cmp, why, sizeof(why));
		app_msg(app, true, "no ranks to step through: %s", why);
	} else if (!r->judged && !r->identical) {
		app_msg(app, true, "no regression called: %zu common step%s, the noise test needs %d", r->ncommon,
			r->ncommon == 1 ? "" : "s", CMP_MIN_STEPS);
	} else {
		char subset[CMP_TEXT_MAX];
		bool part = compare_subset(app->cmp, subset, sizeof(subset));
		app_msg(app, true, "no regression: no rank%s is slower in B beyond its run-to-run noise",
			part ? " loaded" : "");
	}
}

static unsigned jump_straggler(struct app *app, int dir)
{
	size_t n;
	if (!app->strag_done) {
		/* the first n runs the distributed analysis: say so before the wait */
		app_msg(app, false, "finding the stragglers (distributed analysis)...");
		app_draw(app);
	}
	const int *order = app_stragglers(app, &n);
	if (!n) {
		if (app->cmp)
			no_regression_msg(app);
		else
			no_straggler_msg(app);
		return PR_REDRAW;
	}
	if (app->strag_pos < 0)
		app->strag_pos = dir > 0 ? 0 : (long)n - 1;
	else
		app->strag_pos = ((app->strag_pos + dir) % (long)n + (long)n) % (long)n;
	struct ui_target t = app_target_none();
	t.rank = order[app->strag_pos];
	t.step_lo = app->strag_onset[app->strag_pos];
	const char *what = !app->cmp ? "straggler" : compare_unlike(app->cmp) ? "slower rank" : "regression";
	const char *order_by = app->cmp ? compare_regression_by(compare_ranks(app->cmp)) : "by cost";
	long until = app->strag_until[app->strag_pos];
	if (t.step_lo >= 0 && until >= 0)
		app_msg(app, false, "%s %ld/%zu: rank %d, slow over steps %ld-%ld, then recovered (ordered %s)", what,
			app->strag_pos + 1, n, t.rank, t.step_lo, until, order_by);
	else if (t.step_lo >= 0)
		app_msg(app, false, "%s %ld/%zu: rank %d, %s step %ld%s (ordered %s)", what, app->strag_pos + 1, n,
			t.rank, app->cmp ? "onset at" : "slow from", t.step_lo, app->cmp ? " in B" : "", order_by);
	else
		app_msg(app, false, "%s %ld/%zu: rank %d (ordered %s)", what, app->strag_pos + 1, n, t.rank, order_by);
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	if (priv && s->ops->select && s->ops->cur_rank) {
		unsigned r = s->ops->select(priv, app, &t);
		if (r & PR_HANDLED)
			return r | PR_REDRAW;
	}
	long h = app_find(app, &pane_heatmap, NULL);
	if (h < 0)
		return PR_REDRAW;
	return app_show(app, (size_t)h, &t);
}

/* ---- prompt ------------------------------------------------------------------- */

static void prompt_open(struct app *app, enum prompt_kind k, const char *label, const char *init)
{
	app->prompt = k;
	snprintf(app->prompt_label, sizeof(app->prompt_label), "%s", label);
	snprintf(app->line, sizeof(app->line), "%s", init ? init : "");
	app->line_len = strlen(app->line);
	app->line_lost = 0;
	app->msg[0] = '\0';
}

/* Enter on a line that did not fit (line_lost): refused whole, never run cut short. */
static void prompt_refuse_long(struct app *app)
{
	const char *what = app->prompt == PROMPT_FILTER ? "the filter is unchanged"
			   : app->prompt == PROMPT_EXPORT ? "nothing written"
			   : app->prompt == PROMPT_SEARCH ? "the search is cancelled" : "the command is not run";
	if (app->prompt == PROMPT_SEARCH)
		search_cancel(app);   /* back where the search began */
	app->prompt = PROMPT_NONE;
	app_msg(app, true, "input too long (max %d bytes): %s", APP_LINE - 1, what);
}

/* n at "overwrite?": the file named, quoted as a shell word where it holds a blank. */
static void export_kept(struct app *app)
{
	char *word = text_shell_word_dup(app->pending);
	app_msg(app, false, "export cancelled; %s left unchanged", word);
	free(word);
}

static void prompt_accept(struct app *app)
{
	enum prompt_kind k = app->prompt;
	app->prompt = PROMPT_NONE;
	char line[APP_LINE];
	snprintf(line, sizeof(line), "%s", app->line);
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	char err[256] = "";
	switch (k) {
	case PROMPT_FILTER:
		if (priv && s->ops->filter && s->ops->filter(priv, app, line, err, sizeof(err)) < 0)
			app_msg(app, true, "filter: %s", err);
		break;
	case PROMPT_EXPORT:
		if (app_export_accept(app, line))
			prompt_open(app, PROMPT_CONFIRM, "file exists, overwrite? (y/N) ", "");
		break;
	case PROMPT_CONFIRM:
		if (line[0] == 'y' || line[0] == 'Y')
			app_export_replace(app);
		else
			export_kept(app);
		break;
	case PROMPT_COMMAND:
		cmd_run(app, line);
		break;
	case PROMPT_SEARCH:
		search_accept(app);
		break;
	case PROMPT_NONE:
		break;
	}
}

/* A typed character (keymap.h: ASCII or KEYMAP_CHAR plus a code point) at the end of
 * the prompt line, as UTF-8; false for a key that is no character. One past the line's
 * APP_LINE - 1 bytes is counted (line_lost), not kept: Backspace takes it back first,
 * Enter refuses the line. */
static bool line_put(struct app *app, int key)
{
	char u[4];
	int n = keymap_utf8(key, u);
	if (n <= 0)
		return false;
	if (app->line_lost || app->line_len + (size_t)n >= sizeof(app->line)) {
		app->line_lost++;
		return true;
	}
	memcpy(app->line + app->line_len, u, (size_t)n);
	app->line_len += (size_t)n;
	app->line[app->line_len] = '\0';
	return true;
}

static unsigned prompt_edit(struct app *app, int key);

static unsigned prompt_key(struct app *app, int key)
{
	if (app->prompt == PROMPT_CONFIRM && key != 27) {
		app->line[0] = (char)(key < 0x80 ? key : 'n');
		app->line[1] = '\0';
		prompt_accept(app);
		return PR_REDRAW;
	}
	unsigned r = prompt_edit(app, key);
	if (app->prompt == PROMPT_SEARCH && (r & PR_HANDLED))
		search_edit(app);
	return PR_REDRAW;
}

/* Edit the prompt line; PR_HANDLED when the line changed. */
static unsigned prompt_edit(struct app *app, int key)
{
	switch (key) {
	case 27:
		if (app->prompt == PROMPT_CONFIRM)
			app_msg(app, false, "export cancelled");
		if (app->prompt == PROMPT_SEARCH)
			search_cancel(app);   /* back where the search began */
		app->prompt = PROMPT_NONE;
		return PR_REDRAW;
	case '\n': case '\r': case KEY_ENTER:
		if (app->line_lost)
			prompt_refuse_long(app);
		else
			prompt_accept(app);
		return PR_REDRAW;
	case KEY_BACKSPACE: case 127: case 8:
		if (app->line_lost) {
			app->line_lost--;
			return PR_HANDLED;
		}
		while (app->line_len > 0 && ((unsigned char)app->line[app->line_len - 1] & 0xC0) == 0x80)
			app->line_len--;
		if (app->line_len > 0)
			app->line_len--;
		app->line[app->line_len] = '\0';
		return PR_HANDLED;
	case 'U' & 0x1f:
		app->line_len = 0;
		app->line_lost = 0;
		app->line[0] = '\0';
		return PR_HANDLED;
	default:
		return line_put(app, key) ? PR_HANDLED : PR_NONE;
	}
}

/* ---- overlays ----------------------------------------------------------------- */

/* The `v` picker lists the views this run has data for; in compare mode the pair's
 * views (diff_*, sources) that have something for it, as its tabs do. */
size_t app_views_list(const struct app *app, struct app_view *out, size_t cap)
{
	size_t n = 0;
	for (size_t v = 0; app->cmp && v < compare_nviews; v++) {
		const struct cmp_view *cv = &compare_views[v];
		if (compare_tab_shown(app->cmp, &(struct tab_def){ .arg = cv->name }) && n < cap)
			out[n++] = (struct app_view){ cv->name, cv->help };
	}
	for (size_t s = 0; !app->cmp && s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++) {
			const struct view_def *vd = &registry[s]->views[v];
			if (registry_view_available(app->run, vd) && n < cap)
				out[n++] = (struct app_view){ vd->name, vd->help };
		}
	return n;
}

static const char *view_at(const struct app *app, size_t i)
{
	struct app_view v[APP_MAX_VIEWS];
	size_t n = app_views_list(app, v, APP_MAX_VIEWS);
	return i < n ? v[i].name : NULL;
}

static unsigned open_view(struct app *app, const char *name)
{
	app->overlay = OV_NONE;
	if (!name)
		return PR_REDRAW;
	long p = app_pane(app, &pane_table, name, name);
	if (p >= 0)
		app_goto(app, (size_t)p, true);
	else
		app_msg(app, true, "too many open views; q closes a view's tab");
	return PR_REDRAW;
}

static unsigned overlay_key(struct app *app, enum action a)
{
	struct app_view v[APP_MAX_VIEWS];
	if (app->overlay == OV_VIEWS)   /* the legend and the help count their rows as they draw */
		app->ov.n = app_views_list(app, v, APP_MAX_VIEWS);
	if (a == ACT_EXPAND)   /* Space: down one page, as in a pane without node rows */
		a = ACT_PAGE_DOWN;
	if (app->overlay == OV_VIEWS ? list_key(&app->ov, a) : legend_scroll(app, a))
		return PR_REDRAW;
	switch (a) {
	case ACT_ENTER:
		if (app->overlay == OV_VIEWS)
			return open_view(app, view_at(app, app->ov.sel));
		app->overlay = OV_NONE;
		return PR_REDRAW;
	case ACT_QUIT_ALL:
		app->quit = true;
		return PR_QUIT;
	case ACT_QUIT: case ACT_BACK: case ACT_HELP: case ACT_VIEWS: case ACT_LEGEND:
		app->overlay = OV_NONE;
		return PR_REDRAW;
	default:
		return PR_NONE;
	}
}

/* ---- tabs and quitting -------------------------------------------------------- */

/* Close tab i (one opened with v or :view) and forget it in the back stack. */
static void close_tab(struct app *app, size_t i)
{
	pane_close(&app->pane[i]);
	free(app->pane[i].arg);
	memmove(&app->pane[i], &app->pane[i + 1], (app->npane - i - 1) * sizeof(app->pane[0]));
	app->npane--;
	size_t k = 0;
	for (size_t j = 0; j < app->nback; j++)
		if (app->back[j] != i)
			app->back[k++] = app->back[j] > i ? app->back[j] - 1 : app->back[j];
	app->nback = k;
	if (app->cur > i || app->cur >= app->npane)
		app->cur--;
}

/* Esc and q: back to the last pane on the back stack other than the current one, the
 * open panes told (pane.h back: a drill-down's filter is over); false when there is none
 * (the stack is then empty: the top). */
static bool go_back(struct app *app)
{
	while (app->nback) {
		size_t i = app->back[--app->nback];
		if (i < app->npane && i != app->cur) {
			app_goto(app, i, false);
			for (size_t k = 0; k < app->npane; k++)
				if (app->pane[k].priv && app->pane[k].ops->back)
					app->pane[k].ops->back(app->pane[k].priv, app);
			return true;
		}
	}
	return false;
}

/* q, as in tig: close what is on top (a search, an extra tab) or go back as Esc does,
 * and quit only at the top, where Esc does nothing; a run opened from the run picker
 * goes back to it instead. */
static unsigned quit_or_close(struct app *app)
{
	if (app->search_on) {
		search_end(app);
		return PR_REDRAW;
	}
	if (app->cur >= app->nfixed && app->cur < app->npane) {
		close_tab(app, app->cur);
		go_back(app);
		return PR_REDRAW;
	}
	if (go_back(app))
		return PR_REDRAW;
	app->back_to_picker = app->opts->from_picker;   /* the run list again (Q quits) */
	app->quit = true;
	return PR_QUIT;
}

void app_set_mouse(struct app *app, bool on)
{
	app->mouse = term_mouse(on);
}

/* ---- key dispatch ------------------------------------------------------------- */

static void relayout(struct app *app)
{
	app->lay = layout_compute(LINES, COLS);
	app->full_redraw = true;
}

/* A key of some panes' own (sort, metric, zoom, ...) pressed where it does nothing: said,
 * not silently dropped. Movement at an edge stays quiet. */
static unsigned not_here(struct app *app, enum action a)
{
	switch (a) {
	case ACT_SORT: case ACT_METRIC: case ACT_METRIC_PREV: case ACT_NODES: case ACT_ROWS:
	case ACT_ZOOM_IN: case ACT_ZOOM_OUT: case ACT_PAN_LEFT: case ACT_PAN_RIGHT: {
		const struct action_info *ai = action_info(a);
		app_msg(app, true, "%.*s (%s) does nothing in the %s tab; ? lists the keys",
			(int)strcspn(ai->keys, " "), ai->keys, ai->name, app->pane[app->cur].label);
		return PR_REDRAW;
	}
	default:
		return PR_NONE;
	}
}

static unsigned global_action(struct app *app, enum action a)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	switch (a) {
	case ACT_QUIT:
		return quit_or_close(app);
	case ACT_QUIT_ALL:
		app->quit = true;
		return PR_QUIT;
	case ACT_HELP:
		app->overlay = OV_HELP;
		app->ov = (struct list_cursor){ 0 };
		return PR_REDRAW;
	case ACT_VIEWS:
		app->overlay = OV_VIEWS;
		app->ov = (struct list_cursor){ 0 };
		return PR_REDRAW;
	case ACT_LEGEND:
		app->overlay = OV_LEGEND;
		app->ov = (struct list_cursor){ 0 };
		return PR_REDRAW;
	case ACT_COMMAND:
		prompt_open(app, PROMPT_COMMAND, ":", "");
		return PR_REDRAW;
	case ACT_SEARCH:
		if (!search_supported(app)) {
			app_msg(app, true, "this pane has no text to search");
			return PR_REDRAW;
		}
		search_end(app);
		prompt_open(app, PROMPT_SEARCH, "/", "");
		search_begin(app);
		return PR_REDRAW;
	case ACT_FILTER:
		if (!priv || !s->ops->filter) {
			app_msg(app, true, "this pane has no rows to filter");
			return PR_REDRAW;
		}
		{
			struct table *t = s->ops->table ? s->ops->table(priv, app) : NULL;
			prompt_open(app, PROMPT_FILTER, "filter: ", t && t->filter ? t->filter : "");
		}
		return PR_REDRAW;
	case ACT_EXPORT: {
		char label[sizeof(app->prompt_label)], path[APP_LINE];
		if (app_export_prompt(app, label, sizeof(label), path, sizeof(path)))
			prompt_open(app, PROMPT_EXPORT, label, path);
		return PR_REDRAW;
	}
	case ACT_COPY:
	case ACT_COPY_ROW:
		return app_copy_key(app, a == ACT_COPY_ROW);
	case ACT_MOUSE:
		app_set_mouse(app, !app->mouse);
		app_msg(app, false, app->mouse ? "mouse on: click tabs, rows and cells; T gives selection back"
					       : "mouse off: the terminal selects text again; T turns the mouse on");
		return PR_REDRAW;
	case ACT_NEXT_PANE:
	case ACT_PREV_PANE:
		app_goto(app, (app->cur + (a == ACT_NEXT_PANE ? 1 : app->npane - 1)) % app->npane, false);
		return PR_REDRAW;
	case ACT_PANE_1: case ACT_PANE_2: case ACT_PANE_3: case ACT_PANE_4: case ACT_PANE_5:
	case ACT_PANE_6: case ACT_PANE_7: case ACT_PANE_8: case ACT_PANE_9:
		for (size_t i = 0; i < app->npane; i++)
			if (app->pane[i].key == (int)(a - ACT_PANE_1) + 1) {
				app_goto(app, i, false);
				return PR_REDRAW;
			}
		app_msg(app, true, "%d: this run has no %s tab", (int)(a - ACT_PANE_1) + 1, action_info(a)->name);
		return PR_REDRAW;
	case ACT_BACK:
		if (app->search_on)
			search_end(app);
		else
			go_back(app);
		app->msg[0] = '\0';
		return PR_REDRAW;
	case ACT_NEXT_STRAG:
	case ACT_PREV_STRAG:
		if (app->search_on && search_supported(app))
			return search_next(app, a == ACT_NEXT_STRAG ? 1 : -1);
		return jump_straggler(app, a == ACT_NEXT_STRAG ? 1 : -1);
	case ACT_HALF_UP:
		return app_action(app, ACT_PAGE_UP);
	case ACT_HALF_DOWN:
	case ACT_EXPAND:
		return app_action(app, ACT_PAGE_DOWN);
	case ACT_FOLLOW:
		return app_follow_key(app, true);
	case ACT_RELOAD:
		return app_follow_key(app, false);
	case ACT_ENTER:   /* a pane that opens nothing says so (Steps is itself the detail) */
		app_msg(app, false, "nothing to open in the %s tab", s->label);
		return PR_REDRAW;
	default:
		return not_here(app, a);
	}
}

unsigned app_continue(struct app *app)
{
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	app->msg[0] = '\0';
	if (!priv || !s->ops->handle)
		return PR_REDRAW;
	return s->ops->handle(priv, app, ACT_NONE) | PR_REDRAW;
}

unsigned app_tick(struct app *app)
{
	unsigned r = search_step(app);
	app->tick_ms = search_busy(app) ? 0 : -1;
	for (size_t i = 0; i < app->npane; i++) {
		struct pane_slot *s = &app->pane[i];
		int w = -1;
		if (!s->priv || !s->ops->tick)
			continue;
		r |= s->ops->tick(s->priv, app, i == app->cur, &w);
		if (w >= 0 && (app->tick_ms < 0 || w < app->tick_ms))
			app->tick_ms = w;
	}
	return r;
}

void app_stop_work(struct app *app)
{
	for (size_t i = 0; i < app->npane; i++) {
		struct pane_slot *s = &app->pane[i];
		int w = -1;
		if (s->priv && s->ops->tick)
			s->ops->tick(s->priv, app, false, &w);
	}
}

unsigned app_action(struct app *app, enum action a)
{
	if (app->overlay != OV_NONE)
		return overlay_key(app, a);
	struct pane_slot *s = &app->pane[app->cur];
	void *priv = app_pane_priv(app, app->cur);
	/* n/N belong to the search while one is on */
	bool searching = app->search_on && (a == ACT_NEXT_STRAG || a == ACT_PREV_STRAG);
	if (priv && s->ops->handle && !searching) {
		unsigned r = s->ops->handle(priv, app, a);
		if (r & PR_HANDLED)
			return r | PR_REDRAW;
	}
	return global_action(app, a);
}

unsigned app_key(struct app *app, int key)
{
	app->key_t = follow_clock();   /* a catch-up waits until the keys pause */
	if (key == KEY_RESIZE) {
		relayout(app);
		return PR_RELAYOUT | PR_REDRAW;
	}
	enum action a = keymap_lookup(key);
	if (a == ACT_REDRAW) {   /* C-l: over a prompt, an overlay, the too-small screen too */
		app->full_redraw = true;
		return PR_REDRAW;
	}
	if (app->prompt != PROMPT_NONE)
		return prompt_key(app, key);
	if (a != ACT_NEXT_STRAG && a != ACT_PREV_STRAG)
		search_stop(app);   /* a running search stops (n/N wait for it) */
	if (key == KEY_MOUSE)
		return app_mouse(app);
	if (app->lay.too_small) {   /* q quits; `:` still takes a command (a `:resize` back), an overlay kept */
		if (a == ACT_QUIT || a == ACT_QUIT_ALL)
			app->quit = true;
		if (a != ACT_COMMAND)
			return PR_NONE;
		prompt_open(app, PROMPT_COMMAND, ":", "");
		return PR_REDRAW;
	}
	if (a == ACT_NONE && app->overlay == OV_NONE) {
		app_msg(app, true, "key %s is not bound; ? shows the keys", keymap_name(key));
		return PR_REDRAW;
	}
	if (app->overlay == OV_NONE)
		app->msg[0] = '\0';
	return app_action(app, a);
}

