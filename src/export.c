/* SPDX-License-Identifier: MIT */
/* export.c: headless CSV export of any view (see export.h). */
#include "src/export.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/views.h"
#include "model/outfile.h"
#include "model/registry.h"
#include "model/text.h"

int export_apply_sort(struct table *t, const char *spec, char *err, size_t errn)
{
	bool desc = false;
	if (*spec == '-' || *spec == '+') {
		desc = *spec == '-';
		spec++;
	}
	int col = table_col_index(t, spec);
	if (col < 0) {
		snprintf(err, errn, "unknown column '%s'", spec);
		return -1;
	}
	table_sort(t, col, desc);
	return 0;
}

void export_list_views(FILE *f)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++)
			fprintf(f, "%-16s %s\n", registry[s]->views[v].name, registry[s]->views[v].help);
	for (size_t v = 0; v < compare_nviews; v++)
		fprintf(f, "%-16s %s\n", compare_views[v].name, compare_views[v].help);
}

static void list_columns(const struct table *t)
{
	fprintf(stderr, "tscope-tui: columns of '%s':", t->name);
	for (size_t c = 0; c < t->ncol; c++)
		fprintf(stderr, " %s", t->col[c].name);
	fputc('\n', stderr);
}

static int unknown_view(const char *view)
{
	char *safe = text_sanitize_dup(view, 0);
	fprintf(stderr, "tscope-tui: unknown view '%s'; views are:\n", safe);
	free(safe);
	export_list_views(stderr);
	return 2;
}

static int not_available(const char *view, const char *what, const char *err)
{
	char *safe = text_sanitize_dup(view, 0);
	fprintf(stderr, "tscope-tui: view '%s' is not available for this %s%s%s\n", safe, what, *err ? ": " : "", err);
	free(safe);
	return 1;
}

/* Filter, sort and write t (consumed). */
static int export_table(struct table *t, const struct export_args *x, unsigned flags)
{
	char err[256] = "";
	int rc = 0;
	const char *opt = NULL;
	if (x->filter && table_filter(t, x->filter, err, sizeof(err)) < 0)
		opt = "filter";
	else if (x->sort && export_apply_sort(t, x->sort, err, sizeof(err)) < 0)
		opt = "sort";
	if (opt) { /* the message quotes the user's text: sanitized */
		char *safe = text_sanitize_dup(err, 0);
		fprintf(stderr, "tscope-tui: --%s: %s\n", opt, safe);
		free(safe);
		list_columns(t);
		rc = 2;
	}
	if (rc == 0) {
		if (!x->output || strcmp(x->output, "-") == 0) {
			if (table_write_csv(t, stdout, flags) < 0 || fflush(stdout) != 0) {
				fprintf(stderr, "tscope-tui: writing CSV: %s\n", strerror(errno));
				__fpurge(stdout); /* reported: the final close of stdout has nothing left to fail */
				clearerr(stdout);
				rc = 1;
			}
		} else if (table_export_file(t, x->output, x->force, flags) < 0) {
			char *safe = text_sanitize_dup(x->output, 0);
			if (errno == EEXIST)
				fprintf(stderr, "tscope-tui: %s exists; use --force to replace it\n", safe);
			else
				fprintf(stderr, "tscope-tui: cannot write %s: %s\n", safe, outfile_strerror(x->output, errno));
			free(safe);
			rc = 1;
		}
	}
	table_free(t);
	return rc;
}

int export_view(struct run *run, const struct export_args *x)
{
	const struct view_def *vd = registry_view(x->view);
	if (!vd)
		return unknown_view(x->view);
	char err[256] = "";
	struct table *t = vd->build(run, err, sizeof(err));
	if (!t)
		return not_available(x->view, "run", err);
	return export_table(t, x, run->opts && run->opts->csv_raw ? TABLE_CSV_RAW : 0);
}

int export_compare_view(struct compare *c, const struct export_args *x)
{
	const struct cmp_view *cv = compare_view(x->view);
	if (!cv) {
		if (registry_view(x->view)) {
			char *safe = text_sanitize_dup(x->view, 0);
			fprintf(stderr, "tscope-tui: '%s' is a view of one run; two runs give the diff_* views\n", safe);
			free(safe);
			return 2;
		}
		return unknown_view(x->view);
	}
	char err[256] = "";
	struct table *t = cv->build(c, err, sizeof(err));
	if (!t)
		return not_available(x->view, "pair of runs", err);
	return export_table(t, x, c->a->opts && c->a->opts->csv_raw ? TABLE_CSV_RAW : 0);
}
