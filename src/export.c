/* SPDX-License-Identifier: MIT */
/* export.c: headless CSV export of any view, or of every view with data (see export.h);
 * under --compat pytscope the views made from steps pytscope does not read are refused,
 * and left out of --export all, with why (model/compat.h). */
#include "src/export.h"
#include "src/meter.h"
#include "src/print.h"
#include "src/sbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/compare/views.h"
#include "model/compat.h"
#include "model/outfile.h"
#include "model/registry.h"
#include "model/table_merge.h"
#include "model/text.h"
#include "model/xalloc.h"

int export_apply_sort(struct table *t, const char *spec, char *err, size_t errn)
{
	return table_sort_spec(t, spec, err, errn);
}

void export_list_views(FILE *f)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++)
			fprintf(f, "%-16s %s\n", registry[s]->views[v].name, registry[s]->views[v].help);
	for (size_t v = 0; v < compare_nviews; v++)
		fprintf(f, "%-16s %s\n", compare_views[v].name, compare_views[v].help);
	fprintf(f, "%-16s %s\n", EXPORT_ALL, "every view that has rows for the run, as -o DIR/<view>.csv");
}

/* The columns, comma-separated; a name with a space, comma or quote quoted as --filter
 * takes it. */
static void list_columns(const struct table *t)
{
	fprintf(stderr, "tscope-tui: columns of '%s': ", t->name);
	for (size_t c = 0; c < t->ncol; c++) {
		char *safe = text_sanitize_dup(t->col[c].name, 0);
		const char *q = !strpbrk(safe, " \t,'\"") ? "" : strchr(safe, '\'') ? "\"" : "'";
		fprintf(stderr, "%s%s%s%s", c ? ", " : "", q, safe, q);
		free(safe);
	}
	fputc('\n', stderr);
}

/* A filter that keeps no row of a view that has some: said on stderr (exit 0), with why
 * when a value is a pattern some row holds as written (table_filter_hint). */
static void no_row_matches(const struct table *t, const char *filter)
{
	char *safe = text_sanitize_dup(filter, 0), hint[512];
	if (table_filter_hint(t, hint, sizeof(hint))) {
		char *why = text_sanitize_dup(hint, 0);
		fprintf(stderr, "tscope-tui: --filter '%s' keeps no row of '%s': %s\n", safe, t->name, why);
		free(why);
	} else {
		fprintf(stderr, "tscope-tui: --filter '%s' keeps no row of '%s' (terms are split at spaces and commas "
				"and must all match: quote a value with spaces, e.g. node='node 1')\n", safe, t->name);
	}
	free(safe);
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

/* A pair's view t (consumed) without a row: refused (exit 1), with what that means when
 * the view says it (its empty note: "no difference: ..."). */
static int no_rows(struct table *t, const char *why)
{
	fprintf(stderr, "tscope-tui: %s\n", why);
	table_free(t);
	return 1;
}

/* A view's rows on their way out: the whole table, or (parts) the view's later parts
 * after it (vd->build_next from cursor), each filtered as the first was; sorted (the
 * first part by export_apply_sort) through a merge when there are several parts. */
struct rows_out {
	struct table *t;
	struct run *run;
	const struct view_def *parts;
	size_t cursor;
	const char *filter;
	const char *spill_dir; /* where a merge's temporary file goes */
	int spill_err;         /* errno of a failed merge, 0: none */
	struct meter *meter;   /* the progress line, NULL: none */
	size_t rows;           /* rows written */
};

/* The export's progress line (src/meter.h), started for a write to output: on a
 * terminal's stderr (NULL when the CSV goes to a terminal too). */
static struct meter export_meter;

static struct meter *progress_for(const char *output)
{
	if ((!output || strcmp(output, "-") == 0) && isatty(STDOUT_FILENO))
		return NULL;
	meter_start(&export_meter);
	if (export_meter.tty)
		meter_signals_on(&export_meter, NULL);
	return &export_meter;
}

/* n more rows of w done in phase `what` ("export", "sorting", "merging"). */
static void progress(struct rows_out *w, size_t n, const char *what)
{
	if (!w->meter || !meter_add(w->meter, (long long)n, 0))
		return;
	char line[128];
	snprintf(line, sizeof(line), "%s %s:", what, w->t->name);
	meter_draw_count(w->meter, line, "rows");
}

/* The view's next part (filtered), NULL when there is none. */
static struct table *next_part(struct rows_out *w)
{
	char err[256];
	struct table *t = w->parts->build_next(w->run, &w->cursor, err, sizeof(err));
	if (t && w->filter)
		table_filter(t, w->filter, err, sizeof(err)); /* accepted by the first part */
	return t;
}

/* Write the rows to f: the table with its header, then each later part's rows, each
 * part freed once written (memory is one part's, whatever the run's size). Stops at a
 * pending termination signal (held while a temp file exists). Returns 0 or -1. */
static int write_parts(struct rows_out *w, FILE *f, bool file, unsigned flags)
{
	int r = table_write_csv(w->t, f, flags);
	w->rows = w->t->nview;
	progress(w, w->t->nview, "export");
	while (r == 0 && w->parts && !(file && outfile_interrupted())) {
		struct table *t = next_part(w);
		if (!t)
			break;
		r = table_write_csv(t, f, flags | TABLE_CSV_NO_HEADER);
		w->rows += t->nview;
		progress(w, t->nview, "export");
		table_free(t);
	}
	return r;
}

/* The same, sorted, for a view in several parts: each part sorted and spilled, then the
 * parts merged (model/table_merge.h: memory one part's and the merge's buffer). */
static int write_merged(struct rows_out *w, FILE *f, bool file, unsigned flags)
{
	struct table *t = next_part(w);
	if (!t) { /* one part: sorted as it is, no other to ask for */
		w->parts = NULL;
		return write_parts(w, f, file, flags);
	}
	struct table_merge *m = table_merge_new(w->t, w->t->sort_col, w->t->sort_desc, flags, w->spill_dir);
	int r = m ? table_merge_add(m, w->t) : -1;
	w->spill_err = r ? errno : 0;
	progress(w, w->t->nview, "sorting");
	while (r == 0 && t && !(file && outfile_interrupted())) {
		r = table_merge_add(m, t);
		w->spill_err = r ? errno : 0;
		progress(w, t->nview, "sorting");
		table_free(t);
		t = next_part(w);
	}
	table_free(t);
	if (r == 0)
		r = table_write_csv_header(w->t, f, flags);
	if (w->meter && r == 0) { /* the merge's line: of the rows spilled */
		meter_clear(w->meter);
		meter_start(w->meter);
		meter_add(w->meter, 0, (long long)table_merge_rows(m));
	}
	for (long n = 1; r == 0 && n > 0 && !(file && outfile_interrupted());) {
		n = table_merge_write(m, f, 65536);
		r = n < 0 ? -1 : 0;
		w->spill_err = r && !ferror(f) ? errno : 0; /* reading the temporary file back */
		progress(w, n > 0 ? (size_t)n : 0, "merging");
	}
	w->rows = r == 0 ? table_merge_rows(m) : 0;
	table_merge_free(m);
	return r;
}

/* The rows, by one of the above; the progress line cleared after them. */
static int write_rows(struct rows_out *w, FILE *f, bool file, unsigned flags)
{
	bool merge = w->parts && w->t->sort_col >= 0;
	int r = merge ? write_merged(w, f, file, flags) : write_parts(w, f, file, flags), e = errno;
	if (w->meter)
		meter_clear(w->meter);
	errno = e;
	if (r == 0 && file && outfile_interrupted()) {
		errno = EINTR;
		r = -1;
	}
	return r;
}

static int spill_failed(const struct rows_out *w)
{
	char *safe = text_sanitize_dup(w->spill_dir, 0);
	fprintf(stderr, "tscope-tui: --sort: cannot sort through a temporary file in %s: %s (a view in parts "
			"is sorted on disk: beside -o FILE, else in $TMPDIR)\n", safe, strerror(w->spill_err));
	free(safe);
	return 1;
}

/* Why the CSV could not be written to output (errno err) on stderr; a file that can be
 * written in place (its directory takes no temp file) with how: through stdout. */
static void write_failed(const char *output, int err)
{
	if (err == EEXIST) {
		char *safe = text_sanitize_dup(output, 0);
		fprintf(stderr, "tscope-tui: %s exists; use --force to replace it\n", safe);
		free(safe);
		return;
	}
	bool in_place;
	char *msg = outfile_message(output, err, &in_place), *safe = text_sanitize_dup(msg, 0);
	char *word = in_place ? text_shell_word_dup(output) : NULL;
	fprintf(stderr, "tscope-tui: %s%s%s\n", safe, word ? "; write to stdout instead: -o - > " : "",
		word ? word : "");
	free(word);
	free(safe);
	free(msg);
}

/* The one writer of an exported view: stdout (output NULL or "-"), else the file via
 * model/outfile (temp file + rename), refusing to replace it without force. Returns
 * the exit status. */
static int write_view_to(struct rows_out *w, const char *output, bool force, unsigned flags)
{
	if (!output || strcmp(output, "-") == 0) {
		int r = write_rows(w, stdout, false, flags);
		if (r < 0 && w->spill_err)
			return spill_failed(w);
		if (r < 0 || fflush(stdout) != 0)
			return print_write_failed(stdout, "CSV", errno);
		return 0;
	}
	struct outfile o;
	if (outfile_open(&o, output, force) == 0) {
		int r = write_rows(w, o.f, true, flags), e = errno;
		if (outfile_close(&o, r == 0) == 0 && r == 0)
			return 0;
		if (r != 0 && w->spill_err)
			return spill_failed(w);
		if (r != 0)
			errno = e ? e : EIO;
	}
	write_failed(output, errno);
	return 1;
}

/* write_view_to, then the view's note (what its rows leave out or could not judge: a
 * CSV has no title to carry it) on stderr. */
static int write_view(struct rows_out *w, const char *output, bool force, unsigned flags)
{
	int rc = write_view_to(w, output, force, flags);
	if (rc == 0 && w->t->note) {
		char *safe = text_sanitize_dup(w->t->note, 0);
		fprintf(stderr, "tscope-tui: note on '%s': %s\n", w->t->name, safe);
		free(safe);
	}
	return rc;
}

/* The table vd's export starts from: its first part when written in parts (cursor then
 * where the next begins), else the whole view. */
static struct table *first_table(struct run *run, const struct view_def *vd, bool parts, size_t *cursor, char *err,
				 size_t errn)
{
	*cursor = 0;
	return parts ? vd->build_next(run, cursor, err, errn) : vd->build(run, err, errn);
}

/* Where a sorted export in parts spills: beside the output file, else $TMPDIR, /tmp. */
static char *spill_dir_for(const char *output)
{
	if (output && strcmp(output, "-") != 0 && strncmp(output, "/dev/", 5) != 0) {
		const char *slash = strrchr(output, '/');
		return slash ? xstrndup(output, slash == output ? 1 : (size_t)(slash - output)) : xstrdup(".");
	}
	const char *tmp = getenv("TMPDIR");
	return xstrdup(tmp && *tmp ? tmp : "/tmp");
}

/* Filter, sort and write t (consumed), then the view's later parts when it has them
 * (sorted: through a merge, write_merged). */
static int export_table(struct table *t, struct run *run, const struct view_def *parts, size_t cursor,
			const struct export_args *x, unsigned flags)
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
	char *spill = spill_dir_for(x->output);
	struct rows_out w = { .t = t, .run = run, .parts = parts, .cursor = cursor, .filter = x->filter,
			      .spill_dir = spill, .meter = rc ? NULL : progress_for(x->output) };
	if (rc == 0)
		rc = write_view(&w, x->output, x->force, flags);
	if (rc == 0 && x->filter && w.rows == 0 && t->nrow > 0)
		no_row_matches(t, x->filter);
	table_free(t);
	free(spill);
	return rc;
}

static int export_all(struct run *run, const struct export_args *x);

int export_view(struct run *run, const struct export_args *x)
{
	if (strcmp(x->view, EXPORT_ALL) == 0)
		return export_all(run, x);
	const struct view_def *vd = registry_view(x->view);
	if (!vd && compare_view(x->view)) {
		char *safe = text_sanitize_dup(x->view, 0);
		fprintf(stderr, "tscope-tui: view '%s' compares two runs: give two run directories (A B)\n", safe);
		free(safe);
		return 2;
	}
	if (!vd)
		return unknown_view(x->view);
	const char *left_out = compat_view_refusal(run, vd->name);
	if (left_out)
		return not_available(x->view, "run", left_out);
	char err[256] = "";
	size_t cursor;
	const struct view_def *parts = vd->build_next ? vd : NULL;
	struct table *t = first_table(run, vd, parts != NULL, &cursor, err, sizeof(err));
	if (!t)
		return not_available(x->view, "run", err);
	return export_table(t, run, parts, cursor, x, run->opts && run->opts->csv_raw ? TABLE_CSV_RAW : 0);
}

static int export_compare_all(struct compare *c, const struct export_args *x);

int export_compare_view(struct compare *c, const struct export_args *x)
{
	if (strcmp(x->view, EXPORT_ALL) == 0)
		return export_compare_all(c, x);
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
	char why[512]; /* as --export all, which writes the views with rows: never a header alone */
	if (compare_view_no_rows(t, why, sizeof(why)))
		return no_rows(t, why);
	return export_table(t, NULL, NULL, 0, x, c->a->opts && c->a->opts->csv_raw ? TABLE_CSV_RAW : 0);
}

/* DIR exists as a directory, or is created (one level). */
/* dir as a directory, created with its missing parents (mkdir -p). 0, or -1 (errno). */
static int ensure_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		errno = ENOTDIR;
		return -1;
	}
	char *path = xstrdup(dir);
	int r = 0;
	for (char *s = strchr(path + 1, '/'); r == 0 && s; s = strchr(s + 1, '/')) {
		*s = '\0';
		r = mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
		*s = '/';
	}
	if (r == 0)
		r = mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
	int e = errno;
	free(path);
	errno = e;
	return r;
}

/* Every view with rows for this run, built once (a view built in parts: its first
 * part, the rest as it is written). */
struct built {
	struct rows_out *v;
	const char **name;
	size_t n, vcap, ncap;
	const char *what; /* the input, in messages: "run", "pair of runs" */
	/* The views with rows --compat pytscope leaves out, and why (compat_view_refusal). */
	const char **left;
	size_t nleft, lcap;
	const char *left_why;
};

/* Keep view `name`'s first table in b when it has rows; free it when it has none. */
static void built_add(struct built *b, const char *name, struct rows_out out)
{
	if (out.t->nrow == 0) {
		table_free(out.t);
		return;
	}
	xgrow((void **)&b->v, &b->vcap, b->n + 1, sizeof(*b->v));
	xgrow((void **)&b->name, &b->ncap, b->n + 1, sizeof(*b->name));
	b->name[b->n] = name;
	b->v[b->n++] = out;
}

/* Whether view vd, which --compat pytscope refuses for the run (compat_view_refusal),
 * has rows: it is then named as left out. */
static bool has_rows(struct run *run, const struct view_def *vd)
{
	char err[256];
	size_t cursor;
	struct table *t = first_table(run, vd, vd->build_next != NULL, &cursor, err, sizeof(err));
	bool rows = t && t->nrow > 0;
	table_free(t);
	return rows;
}

/* Every view's first table, but the views --compat pytscope refuses for the run: those
 * with rows are kept in b->left and named on stderr as left out, with why. */
static void build_all(struct run *run, struct built *b)
{
	*b = (struct built){ .what = "run" };
	struct sbuf names = { 0 };
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++) {
			const struct view_def *vd = &registry[s]->views[v];
			const char *refused = compat_view_refusal(run, vd->name);
			if (refused && has_rows(run, vd)) {
				xgrow((void **)&b->left, &b->lcap, b->nleft + 1, sizeof(*b->left));
				b->left[b->nleft++] = vd->name;
				b->left_why = refused;
				sb_printf(&names, "%s%s", names.n ? ", " : "", vd->name);
			}
			if (refused)
				continue;
			char err[256];
			size_t cursor;
			struct table *t = first_table(run, vd, vd->build_next != NULL, &cursor, err, sizeof(err));
			if (t) /* a first part without rows: the view has none */
				built_add(b, vd->name, (struct rows_out){ .t = t, .run = run,
									  .parts = vd->build_next ? vd : NULL,
									  .cursor = cursor });
		}
	if (b->nleft)
		fprintf(stderr, "tscope-tui: --export all leaves out %s: %s\n", names.s, b->left_why);
	free(names.s);
}

/* The arguments of `--export all`: 0 when usable, else the exit status (said). */
static int all_args(const struct export_args *x)
{
	const char *dir = x->output;
	if (x->sort || x->filter) {
		fprintf(stderr, "tscope-tui: --sort and --filter name one view's columns; "
				"not with --export all\n");
		return 2;
	}
	if (!dir || !*dir || strcmp(dir, "-") == 0) {
		fprintf(stderr, "tscope-tui: --export all writes one CSV per view: give -o DIR\n");
		return 2;
	}
	if (ensure_dir(dir) < 0) {
		char *safe = text_sanitize_dup(dir, 0);
		fprintf(stderr, "tscope-tui: cannot use %s as the output directory: %s\n", safe, strerror(errno));
		free(safe);
		return 1;
	}
	return 0;
}

static int write_built(struct built *b, const struct export_args *x, unsigned flags);

/* `--export all -o DIR` (see export.h). */
static int export_all(struct run *run, const struct export_args *x)
{
	int rc = all_args(x);
	if (rc)
		return rc;
	struct built b;
	build_all(run, &b);
	return write_built(&b, x, run->opts && run->opts->csv_raw ? TABLE_CSV_RAW : 0);
}

/* Every diff_* view with rows for the pair, as `--export all -o DIR` writes a run's. */
static int export_compare_all(struct compare *c, const struct export_args *x)
{
	int rc = all_args(x);
	if (rc)
		return rc;
	struct built b = { .what = "pair of runs" };
	for (size_t i = 0; i < compare_nviews; i++) {
		char err[256];
		struct table *t = compare_views[i].build(c, err, sizeof(err));
		if (t)
			built_add(&b, compare_views[i].name, (struct rows_out){ .t = t, .run = c->b });
	}
	return write_built(&b, x, c->a->opts && c->a->opts->csv_raw ? TABLE_CSV_RAW : 0);
}

/* Whether view `name` is one of b's (written by this export). */
static bool built_has(const struct built *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->name[i], name) == 0)
			return true;
	return false;
}

/* The files DIR/<view>.csv of known views that b does not write (an earlier export's),
 * which would read as this input's beside its files: never merged in silence. */
struct stale {
	char **path;
	const char **left_why; /* per path: why --compat pytscope leaves its view out, NULL: no rows */
	size_t n, cap, wcap;
};

/* Why --compat pytscope leaves view `name` out of b (b->left), NULL when it does not. */
static const char *left_why(const struct built *b, const char *name)
{
	for (size_t i = 0; i < b->nleft; i++)
		if (strcmp(b->left[i], name) == 0)
			return b->left_why;
	return NULL;
}

static void stale_add(struct stale *st, const struct built *b, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s.csv", dir, name);
	struct stat sb;
	if (built_has(b, name) || lstat(path, &sb) != 0) {
		free(path);
		return;
	}
	xgrow((void **)&st->path, &st->cap, st->n + 1, sizeof(*st->path));
	xgrow((void **)&st->left_why, &st->wcap, st->n + 1, sizeof(*st->left_why));
	st->left_why[st->n] = left_why(b, name);
	st->path[st->n++] = path;
}

/* Every known view's: a run's (registry) and a pair's (diff_*). */
static void stale_files(const struct built *b, const char *dir, struct stale *st)
{
	memset(st, 0, sizeof(*st));
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++)
			stale_add(st, b, dir, registry[s]->views[v].name);
	for (size_t v = 0; v < compare_nviews; v++)
		stale_add(st, b, dir, compare_views[v].name);
}

static void stale_free(struct stale *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->path[i]);
	free(st->path);
	free(st->left_why);
}

/* Why stale file i is not one of this export's (malloc'd): its view has no rows, or
 * --compat pytscope leaves it out. */
static char *stale_why(const struct built *b, const struct stale *st, size_t i)
{
	return st->left_why[i] ? xasprintf("this export leaves that view out (%s)", st->left_why[i])
			       : xasprintf("this %s has no rows for that view", b->what);
}

/* Without --force: 1 (each file named) when one of b's files exists or a stale one is
 * there, else 0. */
static int refuse_existing(const struct built *b, const char *dir, const struct stale *st)
{
	int rc = 0;
	for (size_t i = 0; i < b->n; i++) {
		char *path = xasprintf("%s/%s.csv", dir, b->name[i]);
		if (access(path, F_OK) == 0) {
			char *sp = text_sanitize_dup(path, 0);
			fprintf(stderr, "tscope-tui: %s exists; use --force to replace it\n", sp);
			free(sp);
			rc = 1;
		}
		free(path);
	}
	for (size_t i = 0; i < st->n; i++) {
		char *sp = text_sanitize_dup(st->path[i], 0), *why = stale_why(b, st, i);
		fprintf(stderr, "tscope-tui: %s exists, left by an earlier export, and %s; use --force to remove it\n",
			sp, why);
		free(why);
		free(sp);
		rc = 1;
	}
	return rc;
}

/* With --force, once this export's files are written: remove the stale ones, each
 * said on stderr. Returns 0, or 1 when one could not be removed (said). */
static int remove_stale(const struct built *b, const struct stale *st)
{
	int rc = 0;
	for (size_t i = 0; i < st->n; i++) {
		char *sp = text_sanitize_dup(st->path[i], 0), *why = stale_why(b, st, i);
		if (unlink(st->path[i]) == 0) {
			fprintf(stderr, "tscope-tui: removed %s, left by an earlier export: %s\n", sp, why);
		} else {
			fprintf(stderr, "tscope-tui: cannot remove %s, left by an earlier export (%s): %s\n", sp, why,
				strerror(errno));
			rc = 1;
		}
		free(why);
		free(sp);
	}
	return rc;
}

/* Write each view of b as DIR/<view>.csv, list them on stdout, free b. An existing file
 * of a known view (one b writes, or a stale one of a view b has no rows for) stops it
 * before anything is written, unless --force: then b's replace theirs and the stale
 * ones are removed once b's are written, so that DIR holds this input's views alone. */
static int write_built(struct built *b, const struct export_args *x, unsigned flags)
{
	char *dir = xstrdup(x->output); /* DIR/ and DIR// name DIR/<view>.csv, not DIR//<view>.csv */
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	char *safe = text_sanitize_dup(dir, 0);
	struct stale st;
	stale_files(b, dir, &st);
	int rc = b->n && !x->force ? refuse_existing(b, dir, &st) : 0;
	for (size_t i = 0; i < b->n && rc == 0; i++) {
		char *path = xasprintf("%s/%s.csv", dir, b->name[i]);
		b->v[i].meter = progress_for(path);
		rc = write_view(&b->v[i], path, x->force, flags);
		if (rc == 0)
			printf("%s/%s.csv\t%zu row%s\n", safe, b->name[i], b->v[i].rows, b->v[i].rows == 1 ? "" : "s");
		free(path);
	}
	if (b->n && rc == 0)
		rc = remove_stale(b, &st);
	if (b->n == 0) {
		fprintf(stderr, "tscope-tui: no view has data for this %s\n", b->what);
		rc = 1;
	}
	stale_free(&st);
	for (size_t i = 0; i < b->n; i++)
		table_free(b->v[i].t);
	free(b->v);
	free(b->name);
	free(b->left);
	free(safe);
	free(dir);
	return rc;
}
