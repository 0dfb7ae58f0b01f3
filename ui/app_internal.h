/* SPDX-License-Identifier: MIT */
/* app_internal.h: helpers shared by app.c, app_evidence.c, app_follow.c, app_export.c and
 * app_copy.c only (not for panes). */
#ifndef UI_APP_INTERNAL_H
#define UI_APP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct app;

/* A target of nothing: every field "none" (pane.h ui_target; app_evidence.c). */
struct ui_target app_target_none(void);
/* Drop the cached straggler order (app.c); the next app_stragglers() recomputes it. */
void app_strag_forget(struct app *app);
/* F (toggle) pauses or resumes following; R (!toggle) reads the job once and catches
 * the held analyses up (app_follow.c). */
unsigned app_follow_key(struct app *app, bool toggle);
/* e (app_export.c): the export prompt's label and default path for the current pane;
 * false, with a message, when the pane has nothing to export. */
bool app_export_prompt(struct app *app, char *label, size_t ln, char *path, size_t pn);
/* The export prompt accepted with line (a path, "~/" for $HOME, blanks before it
 * ignored; empty or blanks alone cancels): writes and says what it wrote or why it could
 * not, the path quoted as a shell word where it holds a blank; true when the file exists
 * and was left alone (app->pending names it: confirm). */
bool app_export_accept(struct app *app, const char *line);
/* The confirmation to replace app->pending: writes it. */
void app_export_replace(struct app *app);
/* y (row false) and Y (app_copy.c): the current pane's selected cell or row to the
 * clipboard (OSC 52), and a message that says what became of it. PR_REDRAW. */
unsigned app_copy_key(struct app *app, bool row);

#endif
