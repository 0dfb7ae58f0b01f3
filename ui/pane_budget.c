/* SPDX-License-Identifier: MIT */
/* pane_budget.c: placeholder until the pane lands. */
#include "ui/app.h"

static void *x_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	snprintf(why, whyn, "not yet");
	return NULL;
}

static void x_draw(void *priv, struct app *app, const struct rect *body)
{
}

const struct pane_ops pane_budget = {
	.name = "budget",
	.open = x_open,
	.draw = x_draw,
};
