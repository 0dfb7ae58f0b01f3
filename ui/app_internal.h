/* SPDX-License-Identifier: MIT */
/* app_internal.h: helpers shared by app.c and app_follow.c only (not for panes). */
#ifndef UI_APP_INTERNAL_H
#define UI_APP_INTERNAL_H

#include <stdbool.h>

struct app;

/* Drop the cached straggler order (app.c); the next app_stragglers() recomputes it. */
void app_strag_forget(struct app *app);
/* F (toggle) pauses or resumes following; R (!toggle) reads the job once and catches
 * the held analyses up (app_follow.c). */
unsigned app_follow_key(struct app *app, bool toggle);

#endif
