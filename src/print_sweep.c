/* SPDX-License-Identifier: MIT */
/* print_sweep.c: the sweep section of the plain-text report. */
#include "src/print.h"

char *print_section_sweep(struct run *run, const struct print_opts *po)
{
	(void)run;
	(void)po;
	return NULL;
}
