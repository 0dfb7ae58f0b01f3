/* SPDX-License-Identifier: MIT */
/* print.c: the plain-text report (see print.h). Placeholder until the pytscope report lands. */
#include "src/print.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/text.h"

bool print_want_color(enum color_mode mode, int fd)
{
	if (mode == COLOR_NEVER)
		return false;
	if (mode == COLOR_ALWAYS || mode == COLOR_256 || mode == COLOR_8)
		return true;
	if (getenv("NO_COLOR"))
		return false;
	if (getenv("FORCE_COLOR"))
		return true;
	return isatty(fd);
}

int print_report(struct run *run, FILE *f, const struct print_opts *po)
{
	char *(*const sections[])(struct run *, const struct print_opts *) = {
		print_section_trace, print_section_sweep, print_section_dasf,
	};
	char *name = text_sanitize_dup(run->name, 0);
	char *path = text_sanitize_dup(run->path, 0);
	fprintf(f, "tscope-tui — %s  (%s)\n", name, path);
	free(name);
	free(path);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		char *s = sections[i](run, po);
		if (s) {
			fprintf(f, "\n%s", s);
			free(s);
		}
	}
	return 0;
}
