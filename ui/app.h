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
#include "ui/list.h"
#include "ui/pane.h"
#include "ui/search.h"
#include "ui/state.h"

enum prompt_kind { PROMPT_NONE, PROMPT_FILTER, PROMPT_EXPORT, PROMPT_CONFIRM, PROMPT_COMMAND,
		   PROMPT_SEARCH };
enum overlay { OV_NONE, OV_HELP, OV_VIEWS, OV_LEGEND };

enum { APP_MAX_PANES = 32, APP_BACK = 64, APP_LINE = 512, APP_MAX_VIEWS = 64, APP_FAST_POLLS = 5,
       APP_COPY = 16384 /* y/Y: the most text put on the clipboard */ };

struct pane_slot {
	const struct pane_ops *ops;
	char *arg;            /* view name for table panes, owned */
	char label[24];
	int key;              /* number key of a default tab (1..9), 0 for none */
	void *priv;           /* NULL until opened, or when there is no data */
	bool opened;
	bool stale;           /* the run grew while hidden: rebuilt when next shown */
	char why[200];        /* why priv is NULL */
};

struct compare;

struct app {
	struct run *run;              /* the run; B in compare mode */
	struct compare *cmp;          /* compare mode: the pair (A = cmp->a, B = cmp->b), else NULL */
	/* The grid a mode's tab table handed out over its own model (tab_def.grid: compare
	 * mode's pair), the default heatmap's; NULL: the run's grids (registry.h). */
	const struct grid_provider *grid;
	void *grid_model;
	char title[96];               /* title-row name when not the run's ("A vs B"), else "" */
	const struct opts *opts;
	unsigned text_flags;          /* TEXT_ASCII in ASCII mode */
	const struct glyphs *g;
	struct layout lay;

	struct pane_slot pane[APP_MAX_PANES];
	size_t npane, cur;
	size_t nfixed;                /* the tabs every run has; later ones (v, :view) close with q */
	unsigned tabs_gen;            /* run->generation the default tabs were built for (ui.c) */
	size_t back[APP_BACK];
	size_t nback;
	int tab_x[APP_MAX_PANES + 1]; /* tab i spans columns [tab_x[i], tab_x[i+1]) (mouse) */

	char search[APP_LINE];        /* `/` text; highlighted while search_on */
	bool search_on;
	long search_pos;              /* item of the current match (ui/search.c), -1 */
	size_t search_sel;            /* the pane's selection right after that match */
	size_t search_from;           /* the item selected when the `/` prompt opened */
	bool search_from_ok;          /* ... kept until Enter or Esc (ui/search.h) */
	struct search_walk walk;      /* the walk over the items, in slices between keys (ui/search.h) */
	bool mouse;                   /* mouse reporting on (--no-mouse, T) */
	struct state_table state[APP_MAX_PANES]; /* saved sort/filter per view (ui/state.h) */
	size_t nstate;

	enum overlay overlay;
	struct list_cursor ov;        /* the overlay's list (views) or rows (help, legend: top) */
	bool help_cmds;               /* :help: the help overlay opens at its commands */

	enum prompt_kind prompt;
	char prompt_label[96];
	char line[APP_LINE];
	size_t line_len;
	size_t line_lost;             /* characters typed past its APP_LINE - 1 bytes: Enter refuses the line */
	char pending[APP_LINE];       /* export path awaiting overwrite confirmation */

	char msg[APP_LINE];
	bool msg_err;

	int *strag;                   /* the straggler set: rank ids by cost (desc); compare
	                               * mode: regressed ranks by increase in time lost */
	long *strag_onset;            /* the steps they are slow from (compare: onset in B) */
	long *strag_until;            /* a recovered straggler's last slow step, else -1 */
	size_t nstrag;
	bool strag_done;
	long strag_pos;               /* index in strag of the last jump, -1 */

	struct follow *follow;        /* follow mode (model/steps/follow.h): NULL until F, R or --follow */
	bool following;               /* polling every interval (F toggles) */
	double next_poll;             /* follow_clock() time of the next poll */
	double poll_cost;             /* CPU seconds of the last poll, its refresh and frame */
	double poll_t, poll_cpu0;     /* that poll's follow_clock() and process CPU time */
	bool poll_open;               /* its frame is not drawn yet (app_poll_end) */
	bool poll_caught_up;          /* it recomputed the held analyses */
	bool catch_up_due;            /* a catch-up waits for the slices of a big append */
	double next_catch_up;         /* follow_clock() time the held analyses may refresh */
	double caught_up_t;           /* follow_clock() time of the records they cover */
	double key_t;                 /* follow_clock() time of the last key */
	double recompute_cpu0;        /* process CPU time when a catch-up worker started */
	double recompute_t0;          /* follow_clock() time it started: what it covers */
	double fast_cost[APP_FAST_POLLS]; /* CPU s of the last polls that did not catch up */
	size_t nfast;

	bool quit;
	bool back_to_picker;          /* q at the top of a run opened from the run picker */
	int exit_code;
	long frames, max_frames;      /* max_frames 0: unlimited */
	int tick_ms;                  /* app_tick() again in this many ms; -1: no work running */
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
/* Mouse reporting on or off (off: the terminal's own selection works). */
void app_set_mouse(struct app *app, bool on);
/* Go to pane i (pushing) and show target there. */
unsigned app_show(struct app *app, size_t i, const struct ui_target *t);
/* Index of a fixed pane by ops (Overview..Sources), -1 when absent. */
long app_find(struct app *app, const struct pane_ops *ops, const char *arg);
/* Open the evidence of finding number idx (in run_findings order). */
unsigned app_open_finding(struct app *app, size_t idx);
/* THE drill-down map: open the pane that shows ev (model/findings.h lists the kinds). */
unsigned app_open_evidence(struct app *app, const struct evidence *ev);
/* Index of the heatmap pane of a grid (NULL: the default Heatmap tab, also for the grid
 * that tab shows), added as a tab when missing; -1 when full. */
long app_heatmap(struct app *app, const char *grid);
/* The grid provider named name (NULL: the default one: the mode's own, else the run's
 * first with data), and in *model what its callbacks read; NULL when none. */
const struct grid_provider *app_grid(struct app *app, const char *name, void **model);
/* The straggler set (rank ids by cost, model/steps/analysis.h STRAGGLERS; built once);
 * in compare mode the regressed ranks, largest increase in time lost first. */
const int *app_stragglers(struct app *app, size_t *n);
/* Dispatch one key (curses code). */
unsigned app_key(struct app *app, int key);
/* Dispatch one action: the overlay, else the current pane, else the global keys. */
unsigned app_action(struct app *app, enum action a);
/* A KEY_MOUSE event (ui/mouse.c): tabs, rows, cells, the wheel. */
unsigned app_mouse(struct app *app);
/* Finish the slow work a pane announced with PR_LATER (calls its handle(ACT_NONE)). */
unsigned app_continue(struct app *app);
/* A running `/` search's next slice (ui/search.h search_step) and every open pane's tick
 * (pane.h: work off the UI thread), after keys and while tick_ms >= 0 at that pace
 * (0 while the search runs): returns the PR_* they ask for, sets tick_ms. */
unsigned app_tick(struct app *app);
/* Stop every pane's work off the UI thread (before the model changes: follow, R). */
void app_stop_work(struct app *app);
/* Draw one frame (wnoutrefresh + doupdate). */
void app_draw(struct app *app);
/* Columns the status row leaves a pane's status text (frame.c): its width less the
 * margins and, following a job, the live state at its right at its shortest ("LIVE
 * running, 1 stalled"): the live state gives up its other parts while the pane's text
 * needs their room. */
int app_status_width(struct app *app);
/* Close and reopen every pane (after a command changed model settings). */
void app_reload(struct app *app);
/* Follow mode: poll the job now (creating the follower on first use) and refresh the
 * panes when the run changed: the current one in place now, the others when next
 * shown. The analyses over every record (distributed, budgets, timing) lag: they are
 * recomputed at most every max(--interval, 40 x their CPU cost), not within 2 s of a
 * key, and the status row says how old they are (model/steps/analysis.h LIVE RUNS);
 * heatmaps extend every poll. The distributed analysis is recomputed on a worker
 * thread: the panes keep the held results (the status row says "updating") and keys
 * are answered; no poll runs until its result is published, then the panes show it.
 * R and pausing (F) catch up at once (waiting for a running worker). A poll reads at most
 * a slice of the appended bytes (follow_opts.slice); while it is behind, the next poll
 * is due at once (keys first), the analyses wait, and the status row says so. */
unsigned app_poll(struct app *app);
/* The frame after a poll is drawn (app_draw calls it): the poll's cost, frame included,
 * schedules the next poll and catch-up. */
void app_poll_end(struct app *app);
/* Milliseconds until the next poll while following (-1: not following). The period is
 * max(--interval, 25 x the median CPU time of the last APP_FAST_POLLS polls that did not
 * catch up), so a run too large to refresh every interval costs at most about 4% of a
 * core, and one expensive poll (a reloaded rank) does not hold the next ones back. */
int app_poll_wait_ms(const struct app *app);

/* The views overlay's list (app.c; drawn by frame.c): the views with data in this run,
 * in compare mode the pair's (model/compare/views.h), up to cap into out. */
struct app_view {
	const char *name, *help;
};
size_t app_views_list(const struct app *app, struct app_view *out, size_t cap);

#endif
