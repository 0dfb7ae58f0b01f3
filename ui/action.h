/* SPDX-License-Identifier: MIT */
/* action.h: the ONE action table. Each row is (id, name, default keys, help). It feeds
 * the enum below, the keymap (ui/keymap.c parses the key names), the `?` overlay,
 * `tscope-tui --list-keys` and, through tests/ui/keys_man.sh, the man page KEYS section.
 * Key names use the script syntax of keymap_parse(): a character, or <Up> <Down> <Left>
 * <Right> <PgUp> <PgDn> <Home> <End> <Enter> <Esc> <Tab> <S-Tab> <Space> <Backspace>
 * <C-x>. Several keys are separated by spaces. */
#ifndef UI_ACTION_H
#define UI_ACTION_H

#define ACTIONS(X) \
	X(ACT_UP,          "up",           "<Up> k",          "move up one row") \
	X(ACT_DOWN,        "down",         "<Down> j",        "move down one row") \
	X(ACT_LEFT,        "left",         "<Left> h",        "move left (column, step bucket)") \
	X(ACT_RIGHT,       "right",        "<Right> l",       "move right (column, step bucket)") \
	X(ACT_PAGE_UP,     "page-up",      "<PgUp> <C-b>",    "scroll up one page") \
	X(ACT_PAGE_DOWN,   "page-down",    "<PgDn> <C-f>",    "scroll down one page") \
	X(ACT_HALF_UP,     "half-page-up", "<C-u>",           "scroll up half a page") \
	X(ACT_HALF_DOWN,   "half-page-down", "<C-d>",         "scroll down half a page") \
	X(ACT_TOP,         "top",          "g <Home>",        "go to the first row") \
	X(ACT_BOTTOM,      "bottom",       "G <End>",         "go to the last row") \
	X(ACT_NEXT_PANE,   "next-pane",    "<Tab>",           "switch to the next pane") \
	X(ACT_PREV_PANE,   "prev-pane",    "<S-Tab>",         "switch to the previous pane") \
	X(ACT_ENTER,       "enter",        "<Enter>",         "drill in: open the selection's evidence or detail, or say it has none; a closed node row: expand it") \
	X(ACT_EXPAND,      "expand",       "<Space>",         "heatmap/Ranks node rows: expand or collapse the node under the cursor; elsewhere scroll down one page") \
	X(ACT_NODES,       "nodes",        "o",               "heatmap/Ranks: one row per node (its worst rank) / one row per rank") \
	X(ACT_BACK,        "back",         "<Esc> <Backspace>", "go back to where Enter (or an opened tab) came from; close an overlay") \
	X(ACT_SEARCH,      "search",       "/",               "search the pane's text as you type (rows, rank labels, steps, lines); Enter keeps the matches highlighted") \
	X(ACT_NEXT_STRAG,  "next",         "n",               "next search match; with no search active: next " \
	  "straggler (the straggler set, by cost); comparing two runs: next regressed rank, largest increase first " \
	  "(a slower rank when the workloads differ)") \
	X(ACT_PREV_STRAG,  "prev",         "N",               "previous search match; with no search active: " \
	  "previous straggler; comparing two runs: previous regressed (or slower) rank") \
	X(ACT_FILTER,      "filter",       "f",               "filter rows, e.g. 'rank>=8 onset_step>0' (empty clears)") \
	X(ACT_SORT,        "sort",         "s",               "sort by the selected column (again: reverse)") \
	X(ACT_EXPORT,      "export",       "e",               "export the current view as CSV (rows as filtered and sorted)") \
	X(ACT_ZOOM_IN,     "zoom-in",      "+ =",             "heatmap, Steps: fewer steps per column") \
	X(ACT_ZOOM_OUT,    "zoom-out",     "-",               "heatmap, Steps: more steps per column") \
	X(ACT_PAN_LEFT,    "pan-left",     "H <",             "heatmap, Steps: pan half a screen to earlier steps") \
	X(ACT_PAN_RIGHT,   "pan-right",    "L >",             "heatmap, Steps: pan half a screen to later steps") \
	X(ACT_ROWS,        "rows",         "z",               "heatmap: all rows in view (worst per bucket) / one row per line, scrolling") \
	X(ACT_METRIC,      "metric",       "m",               "heatmap: next metric; Sweep: latency / throughput plot") \
	X(ACT_METRIC_PREV, "metric-prev",  "M",               "heatmap: previous metric; Sweep: as m") \
	X(ACT_VIEWS,       "views",        "v",               "pick any view (every table from every subsystem)") \
	X(ACT_COMMAND,     "command",      ":",               "command line (:help lists commands)") \
	X(ACT_PANE_1,      "overview",     "1",               "Overview pane") \
	X(ACT_PANE_2,      "heatmap",      "2",               "Heatmap pane") \
	X(ACT_PANE_3,      "ranks",        "3",               "Ranks pane") \
	X(ACT_PANE_4,      "steps",        "4",               "Steps pane") \
	X(ACT_PANE_5,      "budget",       "5",               "Budget pane") \
	X(ACT_PANE_6,      "findings",     "6",               "Findings pane") \
	X(ACT_PANE_7,      "sources",      "7",               "Sources pane") \
	X(ACT_PANE_8,      "sweep",        "8",               "Sweep pane (inference sweeps and sizing)") \
	X(ACT_PANE_9,      "gpu-time",     "9",               "GPU time pane (Kineto traces: the temporal view)") \
	X(ACT_LEGEND,      "legend",       "i",               "legend: what the pane's glyphs, colours, scale and columns mean (j/k scroll it)") \
	X(ACT_COPY,        "copy",         "y",               "copy the selected cell (or the value under the cursor) to the clipboard (OSC 52)") \
	X(ACT_COPY_ROW,    "copy-row",     "Y",               "copy the selected row (tab-separated) to the clipboard (OSC 52)") \
	X(ACT_MOUSE,       "mouse",        "T",               "mouse off/on (off gives the terminal's own text selection back)") \
	X(ACT_FOLLOW,      "follow",       "F",               "follow the running job: read new records every --interval (again: pause)") \
	X(ACT_RELOAD,      "reload",       "R",               "read what the job appended, new ranks, rewritten step logs (once, without following; not traces)") \
	X(ACT_REDRAW,      "redraw",       "<C-l>",           "repaint the whole screen") \
	X(ACT_HELP,        "help",         "?",               "this help (generated from the action table)") \
	X(ACT_QUIT,        "quit",         "q",               "close the overlay, search or extra tab, else go back as Esc; quit at the top (back to the run list when opened from it)") \
	X(ACT_QUIT_ALL,    "quit-all",     "Q",               "quit from anywhere")

enum action {
	ACT_NONE = 0,
#define X(id, name, keys, help) id,
	ACTIONS(X)
#undef X
	ACT_COUNT
};

struct action_info {
	const char *name, *keys, *help;
};

/* Row of the action table; a == ACT_NONE or out of range returns NULL. */
const struct action_info *action_info(enum action a);

#endif
