/* SPDX-License-Identifier: MIT */
/* cmd.h: the ':' command line. UI commands live in ONE table in ui/cmd.c; model
 * commands (e.g. `:objective`, `:constraint`) come from the subsystems (struct
 * model_cmd in model/registry.h) and need no UI code. The `:help` overlay lists both.
 *
 *   - UI commands take the app:        .run = my_cmd   (unsigned my_cmd(struct app *, const char *args))
 *     returning PR_* bits and reporting through app_msg().
 *   - Model commands return 0 (msg is shown as info) or -1 (msg is shown as an error).
 *     After 0 the UI rebuilds every pane, so views reflect the new setting.
 *
 * Test scripts (TSCOPE_SCRIPT) run the same commands: a script line ":dump out.txt". */
#ifndef UI_CMD_H
#define UI_CMD_H

#include "model/run.h"

struct app;

struct ui_cmd {
	const char *name;     /* first word */
	const char *args;     /* argument synopsis for help, "" when none */
	const char *help;
	unsigned (*run)(struct app *app, const char *args);
};

extern const struct ui_cmd ui_cmds[];
extern const size_t ui_ncmds;

/* Run a command line (no leading ':'; blanks at either end ignored); returns PR_* bits.
 * Unknown -> error message. */
unsigned cmd_run(struct app *app, const char *line);
/* Write the screen (text rows, trailing blanks trimmed) or its attributes to path: two
 * characters a cell, its colour pair (0-9a-z, '.' none or beyond) and its attributes
 * ('R' reverse and bold, 'U' reverse and underline, 'r' reverse, 'b' bold, 'u' underline,
 * 'd' dim, ' ' none). */
int cmd_dump(const char *path, bool attrs);

#endif
