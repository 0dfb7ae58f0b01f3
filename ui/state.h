/* SPDX-License-Identifier: MIT */
/* state.h: what the explorer remembers per run between sessions, under
 * $XDG_STATE_HOME/tscope-tui/ (else ~/.local/state/tscope-tui/): the tabs opened with
 * v, :view or :heatmap that were still open, the last pane, and the sort and filter of
 * every table tab (its own filter, never a drill-down's shown in its place; a tab this
 * session did not open keeps what an earlier one saved). One small text file per run,
 * named by a hash of the run's real path; written whole through a temp file and
 * rename(). Nothing is read or written in scripted runs (TSCOPE_SCRIPT), with
 * --max-frames, or in compare mode. A missing or unreadable file is not an error. */
#ifndef UI_STATE_H
#define UI_STATE_H

#include "model/base.h"

struct app;

/* Saved sort and filter of one table tab (owned by the app; freed by state_free). */
struct state_table {
	char *view, *sort, *filter;   /* sort: a column name, NULL for none */
	bool desc;
};

/* Read the run's state: reopen the saved extra tabs (those whose view or grid still
 * has data), make the saved pane current, keep the table entries for state_apply().
 * Call after the run's default tabs are in place (app->nfixed set). */
void state_load(struct app *app);
/* Apply the saved sort and filter to table tab i right after it opened; what no longer
 * applies (a column the run no longer has) is said with app_msg. */
void state_apply(struct app *app, size_t i);
/* Write the run's state: the extra tabs, the current pane, each table tab's sort and own
 * filter (a drill-down's shown in its place is not saved); a table tab not opened this
 * session keeps its saved line. */
void state_save(const struct app *app);
void state_free(struct app *app);

#endif
