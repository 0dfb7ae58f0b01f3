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
/* A folder of runs: let the user pick one of n run paths below dir, starting on item
 * sel. Returns its index, UI_PICK_QUIT (q, Q, Esc) or UI_PICK_NO_TTY (no usable
 * terminal: nothing was drawn). */
int ui_pick_run(const char *dir, const char *const *paths, size_t n, size_t sel, const struct opts *opts);
/* Print the key bindings (from the action table) for --list-keys. */
void ui_list_keys(FILE *f);

#endif
