/* SPDX-License-Identifier: MIT */
/* app.h: the explorer's state shared by the loop and the panes: the run, the pane
 * tabs, the back stack (Enter drills, Esc returns), the prompt, overlays, the status
 * message and the straggler order. Panes read it and call the helpers below; only the
 * loop (app.c) draws the frame around them. */
#ifndef UI_APP_H
#define UI_APP_H

#include "model/run.h"
#include "ui/glyph.h"
#include "ui/layout.h"
#include "ui/pane.h"

enum prompt_kind { PROMPT_NONE, PROMPT_FILTER, PROMPT_EXPORT, PROMPT_CONFIRM, PROMPT_COMMAND };
enum overlay { OV_NONE, OV_HELP, OV_VIEWS };

enum { APP_MAX_PANES = 32, APP_BACK = 64, APP_LINE = 512 };

struct pane_slot {
	const struct pane_ops *ops;
	char *arg;            /* view name for table panes, owned */
	char label[24];
	void *priv;           /* NULL until opened, or when there is no data */
	bool opened;
	char why[200];        /* why priv is NULL */
};

struct app {
	struct run *run;
	const struct opts *opts;
	unsigned text_flags;          /* TEXT_ASCII in ASCII mode */
	const struct glyphs *g;
	struct layout lay;

	struct pane_slot pane[APP_MAX_PANES];
	size_t npane, cur;
	size_t back[APP_BACK];
	size_t nback;

	enum overlay overlay;
	int ov_top, ov_sel;

	enum prompt_kind prompt;
	char prompt_label[96];
	char line[APP_LINE];
	size_t line_len;
	char pending[APP_LINE];       /* export path awaiting overwrite confirmation */

	char msg[APP_LINE];
	bool msg_err;

	int *strag;                   /* rank ids ordered by time lost (desc) */
	long *strag_onset;            /* their onset steps, -1 when none */
	size_t nstrag;
	bool strag_done;
	long strag_pos;               /* index in strag of the last jump, -1 */

	struct follow *follow;        /* follow mode (model/steps/follow.h): NULL until F, R or --follow */
	bool following;               /* polling every interval (F toggles) */
	double next_poll;             /* follow_clock() time of the next poll */
	double poll_cost;             /* CPU seconds of the last poll and pane refresh */

	bool quit;
	int exit_code;
	long frames, max_frames;      /* max_frames 0: unlimited */
	bool full_redraw;
};

/* Status message for the next frame (printf-like; data text must be sanitized). */
void app_msg(struct app *app, bool err, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Index of the pane (ops, arg), added as a new tab when missing (-1 when full). */
long app_pane(struct app *app, const struct pane_ops *ops, const char *arg, const char *label);
/* Private state of pane i, opening it on first use (NULL when it has no data). */
void *app_pane_priv(struct app *app, size_t i);
/* Make pane i current; push the current one on the back stack when `push`. */
void app_goto(struct app *app, size_t i, bool push);
/* Go to pane i (pushing) and show target there. */
unsigned app_show(struct app *app, size_t i, const struct ui_target *t);
/* Index of a fixed pane by ops (Overview..Sources), -1 when absent. */
long app_find(struct app *app, const struct pane_ops *ops, const char *arg);
/* Open the evidence of finding number idx (in run_findings order). */
unsigned app_open_finding(struct app *app, size_t idx);
/* Rank ids ordered by time lost, from the `ranks` view (built once). */
const int *app_stragglers(struct app *app, size_t *n);
/* Run one ':' command line (without the ':'). */
unsigned app_command(struct app *app, const char *line);
/* Dispatch one key (curses code). */
unsigned app_key(struct app *app, int key);
/* Finish the slow work a pane announced with PR_LATER (calls its handle(ACT_NONE)). */
unsigned app_continue(struct app *app);
/* Draw one frame (wnoutrefresh + doupdate). */
void app_draw(struct app *app);
/* Close and reopen every pane (after a command changed model settings). */
void app_reload(struct app *app);
/* Follow mode: poll the job now (creating the follower on first use) and refresh the
 * panes in place when the run changed. */
unsigned app_poll(struct app *app);
/* Milliseconds until the next poll while following (-1: not following). The period is
 * max(--interval, 25 x the CPU time of the last poll and refresh), so a run too large to
 * refresh every interval costs at most about 4% of a core. */
int app_poll_wait_ms(const struct app *app);

#endif
