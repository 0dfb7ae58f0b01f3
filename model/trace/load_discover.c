/* SPDX-License-Identifier: MIT */
/* load_discover.c: which files of a PATH are Kineto/Chrome traces (trace_discover: a
 * run dir's pytscope trace.json alone, else the trace files in the directory and its
 * rank* / worker* directories, named or sniffed; those of one rank dir alone, for the
 * follower; those of the --trace paths, each path once, and the error naming one that
 * holds none), the note naming the ones beside a trace.json that are not read, the
 * errors naming the rank* / worker* directories that could not be listed and the
 * *.json[.gz] files that could not be read to be sniffed, and the probe. Decoding them:
 * load.c. */
#include "model/dirlist.h"
#include "model/index/index.h"
#include "model/trace/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "model/infile.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/trace/scan.h"
#include "model/xalloc.h"

#define PROBE_BYTES ((size_t)64 << 10)

/* Each path is added once (a listing names each entry once, and trace_discover() takes
 * either pytscope's trace or the scan): no check against the others, which was
 * quadratic in the rank dirs holding traces (the --trace paths: pathvec_unique). */
static void pathvec_add(struct trace_pathvec *pv, const char *p)
{
	xgrow((void **)&pv->v, &pv->cap, pv->n + 1, sizeof(*pv->v));
	pv->v[pv->n++] = xstrdup(p);
}

void trace_pathvec_free(struct trace_pathvec *pv)
{
	for (size_t i = 0; i < pv->n; i++)
		free(pv->v[i]);
	free(pv->v);
	for (size_t i = 0; i < pv->nbad; i++)
		free(pv->bad[i].path);
	free(pv->bad);
}

/* path (a directory, or a file when file) could not be read: keep it with why. */
static void unlisted_add(struct trace_pathvec *pv, const char *path, int err, bool file)
{
	xgrow((void **)&pv->bad, &pv->badcap, pv->nbad + 1, sizeof(*pv->bad));
	pv->bad[pv->nbad++] = (struct trace_unlisted){ xstrdup(path), err, file };
}

/* dir could not be listed (dirlist_open gave NULL): keep it with why (dirlist_open_errno;
 * one that opens by now failed for a while, counted an I/O error). */
static void unlisted_dir_add(struct trace_pathvec *pv, const char *dir)
{
	int err = dirlist_open_errno(dir);
	unlisted_add(pv, dir, err ? err : EIO, false);
}

void trace_note_unlisted(struct run *run, const struct trace_pathvec *pv, bool rank_dirs_named)
{
	for (size_t i = 0; i < pv->nbad; i++) {
		const struct trace_unlisted *b = &pv->bad[i];
		const char *base = strrchr(b->path, '/');
		if (!b->file && rank_dirs_named && steps_rank_dir_id(base ? base + 1 : b->path) >= 0)
			continue;
		size_t si = run_add_source(run, b->path, "kineto", -1, -1);
		run_source_done(run, si, 0, 0, b->err, false);
		diag_add(&run->diags, DIAG_ERROR, b->path, -1, -1, -1, b->file ? "cannot read: %s" :
			 "cannot open: %s; its traces are not read", infile_strerror(b->err));
	}
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static bool is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A name only a trace file has (PyTorch profiler's). */
static bool trace_name(const char *name)
{
	return ends_with(name, ".pt.trace.json") || ends_with(name, ".pt.trace.json.gz");
}

/* Whether file name in dir is a trace: by its name, else (a *.json or *.json.gz, not
 * pytscope's run.json: one per rank dir, never a trace) by its first bytes; one whose
 * first bytes cannot be read (no permission, not a regular file, an I/O error) may be a
 * trace: it goes to out->bad, for the load to name. The path is made only for a file
 * that has to be sniffed. */
static bool trace_file_name(const char *dir, const char *name, struct trace_pathvec *out)
{
	if (trace_name(name))
		return true;
	if ((!ends_with(name, ".json") && !ends_with(name, ".json.gz")) || strcmp(name, "run.json") == 0)
		return false;
	char *p = dirlist_path(dir, name);
	int err;
	bool yes = tscan_probe(p, PROBE_BYTES, &err);
	if (err)
		unlisted_add(out, p, err, true);
	free(p);
	return yes;
}

static bool rank_dir_name(const char *name)
{
	return strncasecmp(name, "rank", 4) == 0 || strncasecmp(name, "worker", 6) == 0;
}

/* Per-rank trace files in dir; one level into rank* / worker* subdirectories (with sd,
 * an index shard's: not into the rank dirs of other shards; with out->only, not into
 * the rank dirs it does not name). An entry with a trace's name that is not a readable
 * regular file (a directory, a looping or dangling link, a FIFO) is listed too: the
 * loader names it with the reason it cannot be read; so does it name any other
 * *.json[.gz] entry, not a directory, whose first bytes could not be read (out->bad:
 * it may be a trace). Each directory is listed once per scope (dirlist); a path is made
 * per subdirectory and per trace candidate, never per entry. */
static void scan_dir(const char *dir, struct trace_pathvec *out, int depth, const struct index_shard_dirs *sd)
{
	struct dirlist *l = dirlist_open(dir);   /* sorted by name */
	if (!l && depth > 0)
		unlisted_dir_add(out, dir);
	for (size_t i = 0; l && i < l->n; i++) {
		const struct dirlist_entry *e = &l->v[i];
		if (e->name[0] == '.')
			continue;
		bool named = trace_name(e->name);
		bool sub = depth == 0 && e->kind == DIRENT_DIR && !named && rank_dir_name(e->name) &&
			   !(sd && index_shard_dir_of(sd, e->name) == 0);
		if (!sub && !named && (e->kind == DIRENT_DIR || !trace_file_name(dir, e->name, out)))
			continue;
		long id = sub && out->only ? steps_rank_dir_id(e->name) : -1;
		if (id >= 0 && !ranklist_has(out->only, id)) {
			out->left_out++;
			continue;
		}
		char *p = dirlist_path(dir, e->name);
		if (sub)
			scan_dir(p, out, depth + 1, NULL);
		else
			pathvec_add(out, p);
		free(p);
	}
	dirlist_close(l);
}

/* The names of pytscope's auto-detected trace in a run directory, in pytscope's order. */
static const char *const pytscope_names[] = { "trace.json", "trace.json.gz", "kineto.json", "kineto.json.gz" };

bool trace_pytscope_name(const char *base)
{
	for (size_t i = 0; i < ARRAY_LEN(pytscope_names); i++)
		if (strcmp(base, pytscope_names[i]) == 0)
			return true;
	return false;
}

bool trace_pytscope_trace_of(const char *file, const char *dir)
{
	const char *base;
	return dirlist_in_dir(file, dir, &base) && trace_pytscope_name(base);
}

/* pytscope's auto-detected trace in a run directory (its path), or NULL. */
static char *pytscope_trace(const char *dir)
{
	for (size_t i = 0; i < ARRAY_LEN(pytscope_names); i++) {
		char *p = dirlist_path(dir, pytscope_names[i]);
		if (is_regular(p))
			return p;
		free(p);
	}
	return NULL;
}

/* The trace files of path (a file, or a run dir as `tscope-tui index --shard` sees it
 * with o: opts). */
void trace_discover(const char *path, struct trace_pathvec *out, bool explicit, const struct opts *o)
{
	if (!is_dir(path)) {
		int err; /* a PATH that cannot be read: run_open() names it */
		if (explicit || tscan_probe(path, PROBE_BYTES, &err))
			pathvec_add(out, path);
		return;
	}
	char *p = pytscope_trace(path);
	if (p) {
		pathvec_add(out, p);
		free(p);
		return;
	}
	struct index_shard_dirs sd = { 0 };
	if (o && o->shard_n)
		index_shard_dirs(path, o->shard_k, o->shard_n, &sd);
	scan_dir(path, out, 0, o && o->shard_n ? &sd : NULL);
	index_shard_dirs_free(&sd);
}

/* The file a path names, with the path's place in its list. */
struct path_id {
	dev_t dev;
	ino_t ino;
	size_t i;
};

static int path_id_cmp(const void *a, const void *b)
{
	const struct path_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Drop the paths of pv that name a file or directory an earlier one names (device and
 * inode), keeping the order; one that cannot be stat()ed stays (its reader says why). */
static void pathvec_unique(struct trace_pathvec *pv)
{
	struct path_id *v = xmalloc((pv->n + 1) * sizeof(*v));
	bool *rep = xcalloc(pv->n + 1, sizeof(*rep));
	size_t m = 0, k = 0;
	for (size_t i = 0; i < pv->n; i++) {
		struct stat st;
		if (stat(pv->v[i], &st) == 0)
			v[m++] = (struct path_id){ st.st_dev, st.st_ino, i };
	}
	qsort(v, m, sizeof(*v), path_id_cmp);
	for (size_t j = 1; j < m; j++)
		rep[v[j].i] = v[j].dev == v[j - 1].dev && v[j].ino == v[j - 1].ino;
	for (size_t i = 0; i < pv->n; i++) {
		if (rep[i])
			free(pv->v[i]);
		else
			pv->v[k++] = pv->v[i];
	}
	pv->n = k;
	free(v);
	free(rep);
}

void trace_discover_explicit(struct run *run, const struct opts *o, struct trace_pathvec *files)
{
	struct trace_pathvec named = { 0 };
	for (size_t i = 0; i < o->ntrace; i++)
		pathvec_add(&named, o->trace_paths[i]);
	pathvec_unique(&named);
	for (size_t i = 0; i < named.n; i++) {
		size_t n0 = files->n, bad0 = files->nbad;
		trace_discover(named.v[i], files, true, NULL);
		if (files->n == n0 && files->nbad == bad0)
			diag_add(&run->diags, DIAG_ERROR, named.v[i], -1, -1, -1, "no trace file here for --trace "
				 "(*.json or *.json.gz, also in its rank*/worker* dirs); with --trace, the run's own "
				 "traces are not read");
	}
	trace_pathvec_free(&named);
	pathvec_unique(files); /* a file named, and found in a directory named too */
}

/* pytscope's trace is a run dir's only trace read (discover): the other trace files
 * beside it are named in a note, not dropped silently. Only the run dir itself is
 * listed (it is listed already), not its rank dirs: a run of 10,000 ranks would list
 * them all for this note alone. */
void trace_note_unread(struct run *run, const char *dir, const struct trace_pathvec *read)
{
	/* trace_discover() took dir/NAME alone, NAME pytscope's: no file checked again */
	size_t k = strlen(dir);
	const char *taken = read->n == 1 ? read->v[0] : "";
	if (strncmp(taken, dir, k) != 0 || taken[k] != '/' || !trace_pytscope_name(taken + k + 1))
		return;
	struct trace_pathvec pv = { 0 };
	scan_dir(dir, &pv, 1, NULL); /* depth 1: files only */
	char names[256] = "";
	size_t n = 0, used = 0;
	for (size_t i = 0; i < pv.n; i++) {
		if (strcmp(pv.v[i], taken) == 0)
			continue;
		const char *rel = pv.v[i] + k + 1; /* scan_dir's paths are dir/NAME */
		if (n < 3 && used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", n ? ", " : "", rel);
		n++;
	}
	if (n)
		diag_add(&run->diags, DIAG_INFO, taken, -1, -1, -1,
			 "%zu other trace file%s here not read (%s%s): a run dir's %s is its trace (pytscope's "
			 "rule); open %s alone, or attach it with --trace",
			 n, n == 1 ? "" : "s", names, n > 3 ? ", ..." : "", taken + k + 1, n == 1 ? "it" : "them");
	trace_pathvec_free(&pv);
}

/* The paths of pv to the caller (*files, *n: theirs to free), the rest of pv freed
 * (what could not be read: a load names it). */
static void pathvec_take(struct trace_pathvec *pv, char ***files, size_t *n)
{
	*files = pv->v;
	*n = pv->n;
	pv->v = NULL;
	pv->n = 0;
	trace_pathvec_free(pv);
}

void trace_list_files(const char *path, char ***files, size_t *n)
{
	struct trace_pathvec pv = { 0 };
	trace_discover(path, &pv, false, NULL);
	pathvec_take(&pv, files, n);
}

void trace_list_rank_dir(const char *run_dir, const char *dir, char ***files, size_t *n)
{
	struct trace_pathvec pv = { 0 };
	const char *base;
	char *top = NULL;
	if (dirlist_in_dir(dir, run_dir, &base) && base[0] != '.' && rank_dir_name(base) && !trace_name(base) &&
	    is_dir(run_dir) && !(top = pytscope_trace(run_dir)))
		scan_dir(dir, &pv, 1, NULL);   /* depth 1: its files only, as scan_dir(run_dir) reads it */
	free(top);
	pathvec_take(&pv, files, n);
}

int trace_probe(const char *path, const struct opts *opts)
{
	if (opts && opts->ntrace > 0)
		return 50;
	struct trace_pathvec pv = { 0 };
	/* --format kineto FILE: read as a trace, whatever its first bytes (load.c says why not) */
	trace_discover(path, &pv, opts && opts->format && strcmp(opts->format, "kineto") == 0, opts);
	int conf = pv.n ? 80 : 0;
	trace_pathvec_free(&pv);
	return conf;
}
