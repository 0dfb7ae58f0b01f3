/* SPDX-License-Identifier: MIT */
/* print_trace.c: the trace section of the plain-text report. */
#include "src/print.h"

char *print_section_trace(struct run *run, const struct print_opts *po)
{
	(void)run;
	(void)po;
	return NULL;
}
