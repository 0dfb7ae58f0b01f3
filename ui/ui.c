/* SPDX-License-Identifier: MIT */
/* ui.c: placeholder entry points until the explorer lands. */
#include "ui/ui.h"

int ui_run(struct run *run, const struct opts *opts)
{
	(void)run;
	(void)opts;
	return -1;
}

void ui_list_keys(FILE *f)
{
	fprintf(f, "q\tquit\n");
}
