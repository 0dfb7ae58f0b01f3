/* SPDX-License-Identifier: MIT */
/* print_dasf.c: the dasf section of the plain-text report. */
#include "src/print.h"

char *print_section_dasf(struct run *run, const struct print_opts *po)
{
	(void)run;
	(void)po;
	return NULL;
}
