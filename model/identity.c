/* SPDX-License-Identifier: MIT */
/* identity.c: group PATH arguments into runs before loading, and tell a folder of runs
 * from the run it was loaded as (see identity.h). */
#include "model/identity.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/dasf/dasf.h"
#include "model/dirlist.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

static const char *const family_word[] = { "pytscope run", "Kineto traces", "sweep", "DASF databases" };

/* The loader of subsystem sub that claims path best, or NULL. */
static const struct loader *claim(const struct subsystem *sub, const char *path, const struct opts *o)
{
	const struct loader *best = NULL;
	int conf = 0;
	for (size_t l = 0; l < sub->nloaders; l++) {
		const struct loader *ld = &sub->loaders[l];
		if (o && o->format && strcmp(o->format, ld->name) != 0)
			continue;
		int c = registry_probe(ld, path, o);
		if (c > conf) {
			conf = c;
			best = ld;
		}
	}
	return best;
}

static struct run_group *group_new(struct run_identity *id, enum run_family f, const char *format)
{
	id->v = xrealloc(id->v, (id->n + 1) * sizeof(*id->v));
	struct run_group *g = &id->v[id->n++];
	*g = (struct run_group){ .family = f, .format = format };
	return g;
}

/* Add path, claimed by the loader named format, to g. */
static void group_add_path(struct run_group *g, const char *path, const char *format)
{
	g->paths = xrealloc(g->paths, (g->npaths + 1) * sizeof(*g->paths));
	g->formats = xrealloc(g->formats, (g->npaths + 1) * sizeof(*g->formats));
	g->formats[g->npaths] = format;
	g->paths[g->npaths++] = xstrdup(path);
}

/* The first group of family f, or NULL. */
static struct run_group *group_of(struct run_identity *id, enum run_family f)
{
	for (size_t i = 0; i < id->n; i++)
		if (id->v[i].family == f)
			return &id->v[i];
	return NULL;
}

static bool ranks_overlap(const struct run_group *g, const struct pytscope_run_info *info)
{
	for (size_t i = 0; i < g->nrank; i++)
		for (size_t k = 0; k < info->n; k++)
			if (g->rank[i] == info->rank[k])
				return true;
	return false;
}

/* A pytscope PATH joins the run with the same name and other ranks, else starts one. */
static void add_steps(struct run_identity *id, const char *path, const char *format,
		      struct pytscope_run_info *info)
{
	struct run_group *g = NULL;
	for (size_t i = 0; i < id->n && !g; i++)
		if (id->v[i].family == FAMILY_STEPS && text_same(id->v[i].name, info->name) &&
		    !ranks_overlap(&id->v[i], info))
			g = &id->v[i];
	if (!g) {
		g = group_new(id, FAMILY_STEPS, format);
		g->name = info->name ? xstrdup(info->name) : NULL;
	}
	group_add_path(g, path, format);
	g->rank = xrealloc(g->rank, (g->nrank + info->n + 1) * sizeof(*g->rank));
	for (size_t k = 0; k < info->n; k++)
		g->rank[g->nrank++] = info->rank[k];
	g->complete |= info->has_steps;
}

/* A trace file is the run's own: pytscope's trace in the run dir, or in a rank{k}/ dir
 * of the run (a rank the run has). */
static bool own_trace(const char *file, const char *root, const struct pytscope_run_info *info)
{
	if (trace_pytscope_trace_of(file, root))
		return true;
	for (size_t k = 0; k < info->n; k++)
		if (strcmp(info->dir[k], root) != 0 && dirlist_in_dir(file, info->dir[k], NULL))
			return true;
	return false;
}

static void add_traces(struct run_identity *id, const char *path, const char *format,
		       const char *steps_root, const struct pytscope_run_info *info)
{
	char **files;
	size_t n;
	trace_list_files(path, &files, &n);
	struct run_group *g = NULL;
	for (size_t i = 0; i < n; i++) {
		if (steps_root && own_trace(files[i], steps_root, info))
			continue;
		if (!g) {
			struct stat st;
			bool loose = !steps_root && stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
			g = loose ? group_of(id, FAMILY_TRACES) : NULL;
			if (g && !(g->npaths && stat(g->paths[0], &st) == 0 && !S_ISDIR(st.st_mode)))
				g = NULL; /* loose files join loose files only */
			if (!g)
				g = group_new(id, FAMILY_TRACES, format);
		}
		group_add_path(g, steps_root ? files[i] : path, format);
		if (!steps_root)
			break; /* the PATH itself opens them all */
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

static void add_other(struct run_identity *id, enum run_family f, const char *path, const char *format)
{
	struct run_group *g = group_of(id, f);
	if (!g)
		g = group_new(id, f, format);
	group_add_path(g, path, format);
}

/* Whether PATH k of g is a directory of format `format` (NULL: any), by the loader that
 * claimed that PATH, not the group's first. */
static bool dir_of(const struct run_group *g, size_t k, const char *format)
{
	struct stat st;
	return (!format || strcmp(g->formats[k], format) == 0) && stat(g->paths[k], &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether realpath rp lies under realpath rd. */
static bool real_under(const char *rp, const char *rd)
{
	size_t n = strlen(rd);
	if (n == 1) /* the root */
		return rp[1] != '\0';
	return strncmp(rp, rd, n) == 0 && rp[n] == '/' && rp[n + 1] != '\0';
}

/* Whether path lies under dir (realpaths; the deeper the dir, the larger *depth). */
static bool under_dir(const char *path, const char *dir, size_t *depth)
{
	char rp[PATH_MAX], rd[PATH_MAX];
	if (!realpath(path, rp) || !realpath(dir, rd))
		return false;
	*depth = strlen(rd);
	return real_under(rp, rd);
}

/* The run of PATH k of g: k itself when it is a directory of `format`; else the deepest
 * such directory of g holding it; else SIZE_MAX (the loose PATHs in none of them). */
static size_t run_key(const struct run_group *g, size_t k, const char *format)
{
	if (dir_of(g, k, format))
		return k;
	size_t key = SIZE_MAX, best = 0, depth;
	for (size_t d = 0; d < g->npaths; d++)
		if (dir_of(g, d, format) && under_dir(g->paths[k], g->paths[d], &depth) && depth > best) {
			best = depth;
			key = d;
		}
	return key;
}

/* PATHs of family f of which two or more are directories of `format` (NULL: any): each
 * such directory is one run (GenAI-Perf artifacts directories: complete sweeps; DASF
 * output directories), so two of them alone form a pair. Another PATH of the family (a
 * database, a GenAI-Perf file, a NAT or Cerebras PATH, by the loader claiming it) joins
 * the run of the directory that holds it; those in none of them are one run together
 * (`astray`), never merged into a directory's run: the PATHs then hold three runs or more
 * and are refused. With one such directory or none, all the PATHs are one run. */
static void split_dirs(struct run_identity *id, enum run_family f, const char *format)
{
	struct run_group *g = group_of(id, f);
	size_t ndirs = 0;
	for (size_t k = 0; g && k < g->npaths; k++)
		ndirs += dir_of(g, k, format);
	if (ndirs < 2)
		return;
	size_t gi = (size_t)(g - id->v), n = g->npaths;
	char **paths = g->paths;
	const char **formats = g->formats;
	size_t *key = xcalloc(n, sizeof(*key)), *run = xcalloc(n, sizeof(*run));
	for (size_t k = 0; k < n; k++)
		key[k] = run_key(g, k, format);
	g->paths = NULL;
	g->formats = NULL;
	g->npaths = 0;
	for (size_t k = 0; k < n; k++) {
		size_t first = 0; /* the first PATH of k's run opens its group, in PATH order */
		while (key[first] != key[k])
			first++;
		if (first == k) {
			struct run_group *ng = k == 0 ? &id->v[gi] : group_new(id, f, formats[k]);
			ng->format = formats[k];
			ng->astray = key[k] == SIZE_MAX;
			run[k] = (size_t)(ng - id->v);
		}
		group_add_path(&id->v[run[first]], paths[k], formats[k]);
		free(paths[k]);
	}
	free(key);
	free(run);
	free(paths);
	free(formats);
}

/* Each directory loader of the sweep and DASF families and its own discovery: the files
 * its load of a directory reads. */
static const struct {
	const char *format;
	void (*files)(const char *dir, char ***files, size_t *n);
} dir_discovery[] = {
	{ "genai-perf", sweep_genai_dir_files },
	{ "nat", sweep_nat_dir_files },
	{ "cerebras", sweep_cb_dir_files },
	{ "dasf", dasf_dir_files },
};

/* The files the load of directory dir reads, as realpaths, appended to *real: every
 * loader of sub that claims dir loads it (run_open), each the files its discovery finds. */
static void dir_reads(const struct subsystem *sub, const char *dir, const struct opts *o, char ***real, size_t *n)
{
	for (size_t l = 0; l < sub->nloaders; l++) {
		const struct loader *ld = &sub->loaders[l];
		if ((o->format && strcmp(o->format, ld->name) != 0) || registry_probe(ld, dir, o) <= 0)
			continue;
		for (size_t t = 0; t < ARRAY_LEN(dir_discovery); t++) {
			if (strcmp(dir_discovery[t].format, ld->name) != 0)
				continue;
			char **files, buf[PATH_MAX];
			size_t nf;
			dir_discovery[t].files(dir, &files, &nf);
			*real = xrealloc(*real, (*n + nf + 1) * sizeof(**real));
			for (size_t i = 0; i < nf; i++) {
				if (realpath(files[i], buf))
					(*real)[(*n)++] = xstrdup(buf);
				free(files[i]);
			}
			free(files);
		}
	}
}

/* What the load of a directory PATH reads (realpaths), and how deep it is. */
struct dir_read {
	char **real;
	size_t n;
	size_t depth;
};

/* The directory PATH of g whose load reads PATH k (the deepest when several do: the
 * runs split_dirs makes), or SIZE_MAX; reads[d] is what PATH d's load reads. */
static size_t reader_of(const struct run_group *g, size_t k, const struct dir_read *reads)
{
	char rk[PATH_MAX];
	if (dir_of(g, k, NULL) || !realpath(g->paths[k], rk))
		return SIZE_MAX;
	size_t key = SIZE_MAX;
	for (size_t d = 0; d < g->npaths; d++)
		for (size_t i = 0; i < reads[d].n; i++)
			if (strcmp(reads[d].real[i], rk) == 0 && (key == SIZE_MAX || reads[d].depth > reads[key].depth)) {
				key = d;
				break;
			}
	return key;
}

/* PATH path leaves the PATH list (the caller's strings; the load opens that list). */
static void forget_path(struct run_identity *id, const char *path)
{
	for (size_t i = 0; i < id->npaths; i++)
		if (strcmp(id->paths[i], path) == 0) {
			memmove(&id->paths[i], &id->paths[i + 1], (id->npaths - i - 1) * sizeof(*id->paths));
			id->npaths--;
			return;
		}
}

/* A PATH of family f that the load of a directory PATH of f reads already is dropped, and
 * recorded with that directory for its note (run_identity_notes), before split_dirs. */
static void drop_read_by_dirs(struct run_identity *id, enum run_family f, const struct subsystem *sub,
			      const struct opts *o)
{
	struct run_group *g = group_of(id, f);
	size_t ndirs = 0;
	for (size_t k = 0; g && k < g->npaths; k++)
		ndirs += dir_of(g, k, NULL);
	if (!ndirs || ndirs == g->npaths)
		return;
	struct dir_read *reads = xcalloc(g->npaths, sizeof(*reads));
	for (size_t d = 0; d < g->npaths; d++) {
		char rd[PATH_MAX];
		if (!dir_of(g, d, NULL) || !realpath(g->paths[d], rd))
			continue;
		reads[d].depth = strlen(rd);
		dir_reads(sub, g->paths[d], o, &reads[d].real, &reads[d].n);
	}
	size_t kept = 0;
	for (size_t k = 0; k < g->npaths; k++) {
		size_t d = reader_of(g, k, reads);
		if (d == SIZE_MAX) {
			g->formats[kept] = g->formats[k];
			g->paths[kept++] = g->paths[k];
			continue;
		}
		id->drops = xrealloc(id->drops, (id->ndrops + 1) * sizeof(*id->drops));
		id->drops[id->ndrops++] = (struct run_drop){ g->paths[k], xstrdup(g->paths[d]) };
		forget_path(id, g->paths[k]);
	}
	for (size_t d = 0; d < g->npaths; d++) {
		for (size_t i = 0; i < reads[d].n; i++)
			free(reads[d].real[i]);
		free(reads[d].real);
	}
	free(reads);
	g->npaths = kept;
}

/* Already seen (same realpath, else the same text when it does not resolve)? */
static bool repeated(char **real, size_t n, const char *path, char **out)
{
	char buf[PATH_MAX];
	*out = xstrdup(realpath(path, buf) ? buf : path);
	for (size_t i = 0; i < n; i++)
		if (strcmp(real[i], *out) == 0)
			return true;
	return false;
}

static void identify_path(struct run_identity *id, const char *path, const struct opts *probe)
{
	const struct loader *steps = claim(&sub_steps, path, probe);
	const struct loader *trace = claim(&sub_trace, path, probe);
	const struct loader *sweep = claim(&sub_sweep, path, probe);
	const struct loader *dasf = claim(&sub_dasf, path, probe);
	struct pytscope_run_info info = { 0 };
	if (steps) {
		pytscope_run_info(path, &info);
		add_steps(id, path, steps->name, &info);
	}
	if (trace)
		add_traces(id, path, trace->name, steps ? path : NULL, &info);
	if (sweep)
		add_other(id, FAMILY_SWEEP, path, sweep->name);
	if (dasf)
		add_other(id, FAMILY_DASF, path, dasf->name);
	pytscope_run_info_free(&info);
}

/* Whether path is one of g's paths. */
static bool group_has(const struct run_group *g, const char *path)
{
	for (size_t k = 0; k < g->npaths; k++)
		if (strcmp(g->paths[k], path) == 0)
			return true;
	return false;
}

/* Whether PATHs inner and outer are both in runs of id, none of which holds the two. */
static bool apart(const struct run_identity *id, const char *inner, const char *outer)
{
	bool in = false, out = false;
	for (size_t i = 0; i < id->n; i++) {
		bool a = group_has(&id->v[i], inner), b = group_has(&id->v[i], outer);
		if (a && b)
			return false;
		in |= a;
		out |= b;
	}
	return in && out;
}

/* A path byte's rank in cmp_real: the end first, then '/', then the other bytes. */
static int path_rank(unsigned char c)
{
	if (c == '/')
		return 1;
	return c ? c + 1 : 0;
}

/* Realpaths (ud) of PATH indexes in strcmp order but '/' before any other byte: a
 * directory, then the paths under it, then the rest. */
static int cmp_real(const void *a, const void *b, void *ud)
{
	char *const *real = ud;
	const unsigned char *x = (const unsigned char *)real[*(const size_t *)a];
	const unsigned char *y = (const unsigned char *)real[*(const size_t *)b];
	while (*x && *x == *y) {
		x++;
		y++;
	}
	int cx = path_rank(*x), cy = path_rank(*y);
	return (cx > cy) - (cx < cy);
}

/* A PATH inside another PATH (realpaths) in none of that PATH's runs, and that PATH:
 * id->nested (identity.h). The PATHs in cmp_real order, each below the chain of the
 * PATHs it is under. */
static void find_nested(struct run_identity *id)
{
	size_t n = 0, depth = 0, *ord = xcalloc(id->npaths + 1, sizeof(*ord));
	size_t *chain = xcalloc(id->npaths + 1, sizeof(*chain));
	char **real = xcalloc(id->npaths + 1, sizeof(*real)), buf[PATH_MAX];
	for (size_t i = 0; i < id->npaths; i++) {
		real[i] = realpath(id->paths[i], buf) ? xstrdup(buf) : NULL;
		if (real[i])
			ord[n++] = i;
	}
	qsort_r(ord, n, sizeof(*ord), cmp_real, real);
	for (size_t k = 0; k < n && !id->nested[0]; k++) {
		size_t in = ord[k];
		while (depth && !real_under(real[in], real[chain[depth - 1]]))
			depth--;
		for (size_t d = 0; d < depth && !id->nested[0]; d++)
			if (apart(id, id->paths[in], id->paths[chain[d]])) {
				id->nested[0] = id->paths[in];
				id->nested[1] = id->paths[chain[d]];
			}
		chain[depth++] = in;
	}
	for (size_t i = 0; i < id->npaths; i++)
		free(real[i]);
	free(real);
	free(chain);
	free(ord);
}

void run_identify(const char *const *paths, size_t npaths, const struct opts *opts,
		  struct run_identity *out)
{
	memset(out, 0, sizeof(*out));
	struct opts probe = opts ? *opts : (struct opts){ 0 };
	probe.ntrace = 0; /* --trace makes the trace probe claim every PATH */
	probe.trace_paths = NULL;
	out->paths = xcalloc(npaths ? npaths : 1, sizeof(*out->paths));
	char **real = xcalloc(npaths ? npaths : 1, sizeof(*real));
	for (size_t i = 0; i < npaths; i++) {
		char *r;
		if (repeated(real, out->npaths, paths[i], &r)) {
			free(r);
			out->nrepeats++;
			continue;
		}
		real[out->npaths] = r;
		out->paths[out->npaths++] = paths[i];
		identify_path(out, paths[i], &probe);
	}
	for (size_t i = 0; i < out->npaths; i++)
		free(real[i]);
	free(real);
	drop_read_by_dirs(out, FAMILY_SWEEP, &sub_sweep, &probe);
	drop_read_by_dirs(out, FAMILY_DASF, &sub_dasf, &probe);
	split_dirs(out, FAMILY_SWEEP, "genai-perf");
	split_dirs(out, FAMILY_DASF, NULL);
	find_nested(out);
}

void run_identity_notes(const struct run_identity *id, size_t group, struct run *run)
{
	const struct run_group *g = group < id->n ? &id->v[group] : NULL;
	for (size_t i = 0; g && i < id->ndrops; i++)
		for (size_t k = 0; k < g->npaths; k++)
			if (strcmp(g->paths[k], id->drops[i].dir) == 0) {
				diag_add(&run->diags, DIAG_INFO, id->drops[i].path, -1, -1, -1, "already read as part of %s",
					 id->drops[i].dir);
				break;
			}
}

bool run_identity_is_pair(const struct run_identity *id)
{
	return id->n == 2 && id->v[0].family == FAMILY_STEPS && id->v[1].family == FAMILY_STEPS &&
	       id->v[0].complete && id->v[1].complete;
}

static void PRINTF_LIKE(2, 3) append(char **s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *line = xvasprintf(fmt, ap);
	va_end(ap);
	char *joined = xasprintf("%s%s", *s ? *s : "", line);
	free(line);
	free(*s);
	*s = joined;
}

static void append_paths(char **s, const struct run_group *g)
{
	for (size_t k = 0; k < g->npaths; k++) {
		char *safe = text_sanitize_dup(g->paths[k], 0);
		append(s, " %s", safe);
		free(safe);
	}
	append(s, "\n");
}

/* The command line that opens run g alone, each path a shell word (text_shell_word_dup). */
static void append_command(char **s, const struct run_group *g)
{
	append(s, "tscope-tui --format %s", g->format);
	for (size_t k = 0; k < g->npaths; k++) {
		char *word = text_shell_word_dup(g->paths[k]);
		append(s, " %s", word);
		free(word);
	}
}

/* What group g is: "pytscope run 'ddp', 2 ranks", "Kineto traces", ... (malloc'd). */
static char *group_what(const struct run_group *g)
{
	if (g->family == FAMILY_STEPS) {
		char *name = text_sanitize_dup(g->name ? g->name : "run", 0);
		char *what = xasprintf("pytscope run '%s', %zu rank%s%s", name, g->nrank, g->nrank == 1 ? "" : "s",
				       g->complete ? "" : ", no step logs");
		free(name);
		return what;
	}
	if (g->astray)
		return xasprintf("%s in none of the directories given", family_word[g->family]);
	return xstrdup(family_word[g->family]);
}

/* Whether a run of id is made of PATHs in none of the directories given beside them. */
static bool any_astray(const struct run_identity *id)
{
	for (size_t i = 0; i < id->n; i++)
		if (id->v[i].astray)
			return true;
	return false;
}

/* PATH as a message names it: without its trailing '/', sanitized (malloc'd). */
static char *path_word(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	char *word = xstrndup(path, n), *safe = text_sanitize_dup(word, 0);
	free(word);
	return safe;
}

/* Why id is refused (malloc'd): its nested PATHs, else its runs. */
static char *refusal_why(const struct run_identity *id)
{
	if (!id->nested[0])
		return xasprintf("these paths hold %zu different runs; they are never merged", id->n);
	char *inner = path_word(id->nested[0]), *outer = path_word(id->nested[1]);
	char *why = xasprintf("%s is inside %s: give one of them", inner, outer);
	free(inner);
	free(outer);
	return why;
}

char *run_identity_describe(const struct run_identity *id)
{
	char *s = NULL, *why = refusal_why(id);
	if (id->nested[0])
		append(&s, "%s; the two are never merged, nor compared as two runs:\n", why);
	else
		append(&s, "%s:\n", why);
	free(why);
	for (size_t i = 0; i < id->n; i++) {
		char *what = group_what(&id->v[i]);
		append(&s, "  run %zu: %s:", i + 1, what);
		free(what);
		append_paths(&s, &id->v[i]);
	}
	if (any_astray(id))
		append(&s, "(each directory given is a run of its own; a file beside them joins the run of "
			   "the directory that holds it)\n");
	append(&s, "open one run at a time, e.g.:\n");
	for (size_t i = 0; i < id->n; i++) {
		append(&s, "  ");
		append_command(&s, &id->v[i]);
		append(&s, "\n");
	}
	if (!id->nested[0])
		append(&s, "(to attach a trace to a run on purpose: --trace FILE)\n");
	return s;
}

struct run *run_identity_refusal(const struct run_identity *id, const struct opts *opts)
{
	struct run *run = run_open(NULL, 0, opts, NULL);
	free(run->path);
	run->path = xstrdup(id->npaths ? id->paths[0] : ".");
	run_set_name(run, "refused");
	char *why = refusal_why(id);
	diag_add(&run->diags, DIAG_ERROR, NULL, -1, -1, -1, "refused: %s (each source says how to open its run alone)",
		 why);
	for (size_t i = 0; i < id->n; i++) {
		const struct run_group *g = &id->v[i];
		char *what = group_what(g);
		for (size_t k = 0; k < g->npaths; k++) {
			struct stat st;
			size_t idx = run_add_source(run, g->paths[k], g->format, -1,
						    stat(g->paths[k], &st) == 0 ? (long long)st.st_size : -1);
			char *src_why = NULL;
			append(&src_why, "refused: run %zu of %zu (%s); open it alone: ", i + 1, id->n, what);
			append_command(&src_why, g);
			run_refuse(run, why, (long)idx, src_why);
			free(src_why);
		}
		free(what);
	}
	free(why);
	return run;
}

void run_identity_free(struct run_identity *id)
{
	for (size_t i = 0; i < id->n; i++) {
		struct run_group *g = &id->v[i];
		for (size_t k = 0; k < g->npaths; k++)
			free(g->paths[k]);
		free(g->paths);
		free(g->formats);
		free(g->rank);
		free(g->name);
	}
	for (size_t i = 0; i < id->ndrops; i++) {
		free(id->drops[i].path);
		free(id->drops[i].dir);
	}
	free(id->drops);
	free(id->v);
	free(id->paths);
	memset(id, 0, sizeof(*id));
}

/* The refused copy of a loaded run: its sources and diagnostics, no data; the source
 * at path foreign gets src_why. */
static struct run *refused_copy(const struct run *loaded, const char *why, const char *foreign,
				const char *src_why)
{
	struct run *run = run_open(NULL, 0, loaded->opts, NULL);
	free(run->path);
	run->path = xstrdup(loaded->path);
	run_set_name(run, loaded->name);
	diag_add(&run->diags, DIAG_ERROR, foreign, -1, -1, -1, "refused: %s", why);
	for (size_t i = 0; i < loaded->nsrc; i++) {
		const struct source *s = &loaded->src[i];
		size_t idx = run_add_source(run, s->path, s->format, s->rank, s->bytes);
		run_source_done(run, idx, s->records, s->skipped, s->err, s->partial);
		run_refuse(run, why, strcmp(s->path, foreign) == 0 ? (long)idx : -1, src_why);
	}
	for (size_t i = 0; i < loaded->diags.n; i++) {
		const struct diag *d = &loaded->diags.v[i];
		diag_add(&run->diags, d->level, d->file, d->line, d->offset, d->rank, "%s", d->msg);
	}
	return run;
}

struct run *run_identity_mismatch(const struct run *run, char *why, size_t n)
{
	const struct trace_set *ts = run->trace;
	/* steps published from the traces themselves are no step logs to check them against */
	if (!run->steps || !ts || trace_steps_only(run) || (run->opts && run->opts->ntrace > 0))
		return NULL;
	for (size_t i = 0; i < ts->n; i++) {
		const struct trace_rank *r = ts->r[i];
		if (steps_rank_index(run->steps, r->rank) >= 0)
			continue;
		char *path = text_sanitize_dup(r->path, 0);
		char *reason = xasprintf("the trace %s is rank %d, which the step logs (%zu ranks) do not have: it "
					 "belongs to another run; they are never merged",
					 path, r->rank, steps_nranks(run->steps));
		free(path);
		char *word = text_shell_word_dup(r->path);
		char *src_why = xasprintf("refused: rank %d, not a rank of the step logs; open it alone: "
					  "tscope-tui --format kineto %s (or attach it with --trace FILE)",
					  r->rank, word);
		snprintf(why, n,
			 "%s\n"
			 "open one at a time: --format pytscope PATH or --format kineto %s (attach a trace on purpose "
			 "with --trace FILE)\n", reason, word);
		struct run *refused = refused_copy(run, reason, r->path, src_why);
		free(word);
		free(reason);
		free(src_why);
		return refused;
	}
	return NULL;
}

/* Whether the loader named format reads sweeps (GenAI-Perf, NAT, Cerebras). */
static bool sweep_format(const char *format)
{
	for (size_t l = 0; l < sub_sweep.nloaders; l++)
		if (strcmp(sub_sweep.loaders[l].name, format) == 0)
			return true;
	return false;
}

/* Whether every source of run lies in the directory of one of the nk runs kids. */
static bool sources_in_children(const struct run *run, const struct run_child *kids, size_t nk)
{
	for (size_t i = 0; i < run->nsrc; i++) {
		const char *p = run->src[i].path;
		bool in = false;
		for (size_t k = 0; k < nk && !in; k++) {
			size_t n = strlen(kids[k].path);
			in = strncmp(p, kids[k].path, n) == 0 && p[n] == '/';
		}
		if (!in)
			return false;
	}
	return true;
}

size_t run_identity_folder(const char *dir, struct run *run, const struct opts *opts, struct run_child **kids)
{
	*kids = NULL;
	/* --ranks may leave out every rank of a run dir, which its loader still claims: a run
	 * (its loader said what was left out), not a folder of its rank dirs */
	if (run_is_empty(run))
		return run->nsrc || (opts->ranks && run_path_loader(dir, opts)) ? 0 : run_children(dir, opts, kids);
	bool sweep_only = sub_sweep.has_data(run) && !sub_steps.has_data(run) && !sub_trace.has_data(run) &&
			  !sub_dasf.has_data(run);
	if (!sweep_only)
		return 0;
	size_t nk = run_children(dir, opts, kids), others = 0;
	for (size_t i = 0; i < nk; i++)
		others += !sweep_format((*kids)[i].format);
	if (others && sources_in_children(run, *kids, nk))
		return nk;
	for (size_t i = 0; others && i < nk; i++) {
		if (sweep_format((*kids)[i].format))
			continue;
		char *word = text_shell_word_dup((*kids)[i].path);
		diag_add(&run->diags, DIAG_WARN, (*kids)[i].path, -1, -1, -1,
			 "a %s run below the sweep, not part of it; open it alone: tscope-tui %s", (*kids)[i].format,
			 word);
		free(word);
	}
	run_children_free(*kids, nk);
	*kids = NULL;
	return 0;
}
