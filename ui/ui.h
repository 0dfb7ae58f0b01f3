/* SPDX-License-Identifier: MIT */
/* ui.h: the interactive explorer's entry points (everything curses lives under ui/). */
#ifndef UI_UI_H
#define UI_UI_H

#include <stdio.h>
#include "model/run.h"

enum { UI_NO_TTY = -1, UI_BACK = -3 };
/* Run the explorer on a loaded run until the user quits. Returns the exit status,
 * UI_NO_TTY when no interactive terminal is available (the caller falls back to
 * --print), or UI_BACK when the run came from the run picker (opts->from_picker) and
 * the user pressed q at the top: the caller shows the picker again. */
int ui_run(struct run *run, const struct opts *opts);
struct compare;
/* The explorer in compare mode (two runs A and B, model/compare/compare.h). Same
 * contract as ui_run(). */
int ui_run_compare(struct compare *c, const struct opts *opts);
enum { UI_PICK_QUIT = -1, UI_PICK_NO_TTY = -2 };
/* A folder of runs: let the user pick one of the n runs kids below dir (as run_children
 * lists them, model/run.h: each path DIR/NAME), starting on item sel. Each row shows
 * NAME, clipped apart from the others' names when it does not fit, and the run's kind
 * (its format). msg: why the run picked last was not opened (lines apart by "\n"),
 * shown under the list while the picker is up; or NULL. Returns the index picked,
 * UI_PICK_QUIT (q, Q, a signal: ui_exit_signal() tells) or UI_PICK_NO_TTY (no usable
 * terminal: nothing was drawn). */
int ui_pick_run(const char *dir, const struct run_child *kids, size_t n, size_t sel, const char *msg,
		const struct opts *opts);
/* 128 + N when signal N (SIGINT, SIGTERM, SIGHUP, or a terminal gone at end of file,
 * as SIGHUP) ended the last terminal session (picker, explorer, loading screen), else 0:
 * the exit status a shell expects. */
int ui_exit_signal(void);
/* The loading screen, the explorer's first frame while a run loads on another thread:
 * the Overview of what is loaded so far (model/steps/progress.h: partial figures
 * labelled so, n/a where every rank is needed), a progress bar with rate and ETA; q or
 * Esc quits. */
struct summary;
struct ui_load_status {
	const char *path;          /* the first PATH (unsanitized) */
	long long done, total;     /* bytes read and to read; total 0: unknown */
	double seconds;            /* since the load began */
	const char *finishing;     /* every file read: what the load does now ("aligning the
	                            * steps and analysing", "analysing"), else NULL */
	bool listing;              /* the rank dirs are still being listed: the bytes to
	                            * read are not all known (no bar, the ETA unknown) */
	size_t listed;             /* rank dirs listed so far */
	const char *doing;         /* what happens when no bytes are read ("finding the
	                            * run's files", "opening the index"), shown instead of
	                            * the bytes; else NULL */
	const struct summary *lines;    /* the partial Overview's lines (sanitized) */
	const struct summary *findings; /* its partial findings (sanitized) */
};
/* Start the terminal for the loading screen (true at once when it is up already);
 * false (nothing drawn) without a usable terminal or under TSCOPE_SCRIPT. */
bool ui_load_begin(const struct opts *opts);
/* Draw the loading screen, then wait up to ms for a key. Returns -1 to go on, 0 when q,
 * Q or Esc was typed, 128 + N on signal N. Other keys are answered on the status line
 * and kept (up to 64) for the explorer, which runs them in order when the load ends
 * (so the pane and cursor picked during the load are where the explorer opens). */
int ui_load_frame(const struct ui_load_status *st, int ms);
/* After the load: keep the terminal for ui_run() when the explorer follows at once
 * (it then reads the keys typed during the load first), else restore it. */
void ui_load_end(bool explorer_follows);
/* Print the key bindings (from the action table) for --list-keys. */
void ui_list_keys(FILE *f);

#endif
