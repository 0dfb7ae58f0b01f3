/* SPDX-License-Identifier: MIT */
/* cmd.h: the ':' command line. Commands live in ONE table in ui/cmd.c; the `:help`
 * overlay and the man page list them from it. To add a command, add a row there:
 *
 *   - UI commands take the app:        .run = my_cmd   (unsigned my_cmd(struct app *, const char *args))
 *     returning PR_* bits and reporting through app_msg().
 *   - Model commands need no UI code:  .model = sweep_cmd_objective
 *     with int sweep_cmd_objective(struct run *run, const char *args, char *msg, size_t n)
 *     defined in model/ (no curses). It returns 0 (msg is shown as info) or -1 (msg is
 *     shown as an error). After 0 the UI rebuilds every pane, so views reflect the new
 *     setting (e.g. `:objective ttft_p99:1` or `:constraint ttft_p99<10`).
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
	int (*model)(struct run *run, const char *args, char *msg, size_t msgn);
};

extern const struct ui_cmd ui_cmds[];
extern const size_t ui_ncmds;

/* Run a command line (no leading ':'); returns PR_* bits. Unknown -> error message. */
unsigned cmd_run(struct app *app, const char *line);
/* Write the screen (text rows, trailing blanks trimmed) or its attributes to path. */
int cmd_dump(const char *path, bool attrs);

#endif
