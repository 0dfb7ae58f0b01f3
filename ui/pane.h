/* SPDX-License-Identifier: MIT */
/* pane.h: a pane is a const ops table plus private state. Each ui/pane_*.c exports
 * exactly one `const struct pane_ops`, written with designated initialisers.
 *
 * The loop (ui/app.c) owns redraw: it drains pending keys, asks the current pane to
 * draw into stdscr inside its body rectangle, and calls doupdate() once per frame. It
 * never calls clear() except after a resize or Ctrl-L. Handlers return a bitmask of
 * enum pane_result telling the loop what changed, never drawing themselves. */
#ifndef UI_PANE_H
#define UI_PANE_H

#include <curses.h>
#include "model/findings.h"
#include "model/table.h"
#include "ui/action.h"
#include "ui/layout.h"

struct app;
struct legend;

enum pane_result {
	PR_NONE = 0,
	PR_HANDLED = 1,   /* the key was used */
	PR_REDRAW = 2,    /* draw a new frame */
	PR_RELAYOUT = 4,  /* geometry changed: full repaint */
	PR_QUIT = 8,
	PR_LATER = 16,    /* slow work pending: draw this frame (showing the pane's app_msg),
			   * then the loop calls handle(ACT_NONE) to do it */
};

/* Where a drill-down or straggler jump lands. Fields are "none" when < 0 / NULL. */
struct ui_target {
	int rank;                 /* rank id (a grid whose rows are not ranks: the row id) */
	long step_lo, step_hi;    /* step numbers */
	const char *series;       /* "loss", "grad_norm", "memory", "step_time" */
	const long *marks;        /* steps to mark (critical steps) */
	size_t nmarks;
	long item;                /* table panes: the row whose ref is item */
	const struct evidence *ev; /* table panes: show the rows of this evidence
				   * (evidence_filter), or NULL */
	bool drill;               /* a drill-down (app_show), not n/N or :rank: a table pane shows
				   * exactly its evidence, whatever filter it had */
};

struct pane_ops {
	const char *name;   /* tab label and :pane NAME */
	/* Create private state; arg is the pane's argument (a view name for table panes).
	 * NULL with a reason in why (shown in the body) when there is no data. */
	void *(*open)(struct app *app, const char *arg, char *why, size_t whyn);
	void (*close)(void *priv);
	void (*draw)(void *priv, struct app *app, const struct rect *body);
	unsigned (*handle)(void *priv, struct app *app, enum action a);
	/* Optional: show a target (rank, steps); returns PR_* (PR_HANDLED when shown). */
	unsigned (*select)(void *priv, struct app *app, const struct ui_target *t);
	/* Optional: Esc or q went back, the back stack now app->nback deep (called on every
	 * open pane): a drill-down that landed deeper is over. */
	void (*back)(void *priv, struct app *app);
	/* Optional: the rows as shown, for `e` (owned by the pane; valid until next call). */
	struct table *(*table)(void *priv, struct app *app);
	/* Optional: `/` filter; 0 or -1 with a message in err. */
	int (*filter)(void *priv, struct app *app, const char *expr, char *err, size_t errn);
	/* Status-row text: exact values under the cursor. */
	void (*status)(void *priv, struct app *app, char *buf, size_t n);
	/* Optional: the run grew (follow mode, R): rebuild from the model keeping the cursor,
	 * scroll, sort and filter; false when there is no data any more. A pane without it
	 * (or whose rebuild fails) is closed and reopened. */
	bool (*rebuild)(void *priv, struct app *app);
	/* Optional: rank id under the cursor (for n/N and Enter), -1 when none. */
	int (*cur_rank)(void *priv, struct app *app);
	/* Optional: `/` search (ui/search.c walks these; the frame highlights every
	 * occurrence in what the pane draws). The pane's searchable items in display
	 * order (table rows, heatmap rows, steps, summary lines, findings, points): their
	 * count, with the selected one in *sel (0 when nothing is selected). A walk spans
	 * frames: the items must stay the same until a key reaches the pane or the run
	 * changes (run->generation), and item_show may change them only when the
	 * search_from op puts them back. */
	size_t (*items)(void *priv, struct app *app, size_t *sel);
	/* The text of item i as shown (every column of a row, "rank 12" for a heatmap row). */
	void (*item_text)(void *priv, struct app *app, size_t i, char *buf, size_t n);
	/* Show item i: select it (a row, a rank, a step), or leave the cursor when the item
	 * cannot be selected (a summary line: it is highlighted where it is drawn). */
	void (*item_show)(void *priv, struct app *app, size_t i);
	/* Optional: the cursor where a `/` search began, saved (back false) and put back when
	 * the search is cancelled or finds nothing (back true), for a pane whose selection
	 * is more than the item items() reports (Steps: the rank and the step). Default: the
	 * item selected when the search began is shown again. */
	void (*search_from)(void *priv, struct app *app, bool back);
	/* `i` legend: explain the pane's glyphs, colours, scale and columns (ui/legend.h). */
	void (*legend)(void *priv, struct app *app, struct legend *l);
	/* Optional: `y`/`Y`: the selected cell (row false) or row (tab-separated) as
	 * plain text, numbers in full precision (ui/copy.h); 0, 1 when the text was cut
	 * to fit n, or -1 when nothing is selected. 0 with buf empty: the selection's
	 * value is missing (y/Y say so and copy nothing). Without it y/Y say there is
	 * nothing to copy. */
	int (*copy)(void *priv, struct app *app, bool row, char *buf, size_t n);
	/* Optional: the hint row's words for the pane's own keys that act on what it shows
	 * ("m:A/B/delta  Enter:open"); the frame adds the keys every pane shares. */
	void (*hint)(void *priv, struct app *app, char *buf, size_t n);
	/* Optional: a mouse click at screen (y, x) inside the body: select what is there. */
	unsigned (*click)(void *priv, struct app *app, int y, int x);
	/* Optional: work the pane runs off the UI thread (a heatmap metric being built).
	 * The loop calls it after every key and, while *wait_ms >= 0 (set it when work is
	 * running: the ms until the next look), at that pace; shown is false once the pane
	 * is not the current one (stop the work). Returns PR_* (PR_REDRAW: progress or a
	 * result to draw). */
	unsigned (*tick)(void *priv, struct app *app, bool shown, int *wait_ms);
};

extern const struct pane_ops pane_overview, pane_heatmap, pane_table, pane_steps, pane_budget;
extern const struct pane_ops pane_sweep;   /* ui/pane_sweep.c */
extern const struct pane_ops pane_compare; /* ui/pane_compare.c: compare mode's Overview */

#endif
