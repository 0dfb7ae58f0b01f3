/* SPDX-License-Identifier: MIT */
/* export.h: headless `--export VIEW` and `--list-views`: build the named view table,
 * apply --sort/--filter exactly as the UI would, write CSV. */
#ifndef SRC_EXPORT_H
#define SRC_EXPORT_H

#include <stdio.h>
#include "model/run.h"
#include "model/table.h"

/* Apply "[-]COL" to t. Returns 0, or -1 with a message in err. */
int export_apply_sort(struct table *t, const char *spec, char *err, size_t errn);
/* Export view to output (NULL or "-" = stdout). Returns the process exit status and
 * prints errors to stderr. The view EXPORT_ALL means export_all(run, output, force). */
int export_view(struct run *run, const char *view, const char *output, const char *sort,
		const char *filter, bool force);
void export_list_views(FILE *f);

/* `--export all -o DIR`: every view that has rows for this run as DIR/<view>.csv (DIR is
 * created if missing), through the same writer as one view (temp file + rename). When a
 * target exists and force is false nothing is written. Prints one "DIR/view.csv\tN rows"
 * line per file on stdout; returns the exit status (2 without DIR). */
#define EXPORT_ALL "all"
#define EXPORT_MAX_VIEWS 64
int export_all(struct run *run, const char *dir, bool force);

#endif
