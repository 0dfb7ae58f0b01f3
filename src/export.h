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
struct export_args {
	const char *view;     /* --export VIEW */
	const char *output;   /* -o FILE (NULL or "-" = stdout) */
	const char *sort;     /* --sort [-]COL, or NULL */
	const char *filter;   /* --filter EXPR, or NULL */
	bool force;           /* replace an existing output file */
};

/* Export a view of the run. Returns the process exit status and prints errors to
 * stderr. The view EXPORT_ALL (`--export all -o DIR`) writes every view that has rows
 * for this run as DIR/<view>.csv (DIR is created if missing) through the same writer
 * as one view (temp file + rename); when a target exists, or DIR/<view>.csv of a known
 * view this run has no rows for (an earlier export's), and force is false, nothing is
 * written (1, each named); with force those of views without rows are removed once the
 * others are written, each named on stderr (DIR never mixes two inputs' views); one
 * "DIR/view.csv\tN rows" line per file on stdout; 2 without DIR or with --sort/--filter. */
#define EXPORT_ALL "all"
int export_view(struct run *run, const struct export_args *x);
struct compare;
/* Export a view of a run comparison (model/compare/views.h); one without a row is refused
 * with what that means (exit 1), as --export all leaves it out. */
int export_compare_view(struct compare *c, const struct export_args *x);
void export_list_views(FILE *f);

#endif
