/* SPDX-License-Identifier: MIT */
/* run.c: run lifetime, loader dispatch, sources inventory (see run.h). */
#include "model/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/registry.h"
#include "model/text.h"
#include "model/xalloc.h"

void load_progress(struct load_ctx *ctx, long long done_delta, long long total_delta)
{
	if (ctx && ctx->progress)
		ctx->progress(ctx->ud, done_delta, total_delta);
}

void load_phase(struct load_ctx *ctx, const char *what)
{
	if (ctx && ctx->phase)
		ctx->phase(ctx->ud, what);
}

bool load_cancelled(const struct load_ctx *ctx)
{
	return ctx && ctx->cancel && atomic_load(ctx->cancel);
}

static char *default_name(const char *path)
{
	char *copy = xstrdup(path);
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *name = xstrdup(basename(copy));
	free(copy);
	return name;
}

void run_set_name(struct run *run, const char *name)
{
	pthread_mutex_lock(&run->lock);
	free(run->name);
	run->name = xstrdup(name);
	pthread_mutex_unlock(&run->lock);
}

void run_refuse(struct run *run, const char *why, long idx, const char *src_why)
{
	if (why && !run->refused)
		run->refused = xstrdup(why);
	if (idx >= 0 && (size_t)idx < run->nsrc && src_why) {
		free(run->src[idx].refused);
		run->src[idx].refused = xstrdup(src_why);
	}
}

void run_set_index_path(struct run *run, const char *path)
{
	pthread_mutex_lock(&run->lock);
	free(run->index_path);
	run->index_path = xstrdup(path);
	pthread_mutex_unlock(&run->lock);
}

uint64_t run_path_hash(const char *path)
{
	size_t n = strlen(path);
	uint64_t h = 0xcbf29ce484222325u ^ n, w;
	for (; n >= 8; n -= 8, path += 8) { /* 8 bytes a step: a multiply and a fold */
		memcpy(&w, path, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, path, n);
	h = (h ^ w) * 0x9e3779b97f4a7c15u;
	return h ^ h >> 29;
}

/* A block of source paths (struct run src_text): the newest first. */
struct run_text_block {
	struct run_text_block *next;
	size_t used, cap;
	char text[];
};
#define RUN_TEXT_BLOCK ((size_t)64 << 10)

/* A copy of the n bytes at s and a NUL in run's source text (under run->lock). */
static char *src_text_dup(struct run *run, const char *s, size_t n)
{
	struct run_text_block *b = run->src_text;
	if (!b || b->cap - b->used < n + 1) {
		size_t cap = n + 1 > RUN_TEXT_BLOCK ? n + 1 : RUN_TEXT_BLOCK;
		b = xmalloc(sizeof(*b) + cap);
		*b = (struct run_text_block){ .next = run->src_text, .cap = cap };
		run->src_text = b;
	}
	char *p = b->text + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

size_t run_add_source(struct run *run, const char *path, const char *format, int rank,
		      long long bytes)
{
	uint64_t h = run_path_hash(path);
	size_t n = strlen(path);
	pthread_mutex_lock(&run->lock);
	xgrow((void **)&run->src, &run->srccap, run->nsrc + 1, sizeof(*run->src));
	size_t i = run->nsrc++;
	run->src[i] = (struct source){
		.path = src_text_dup(run, path, n), .format = format, .rank = rank, .bytes = bytes, .path_hash = h,
	};
	pthread_mutex_unlock(&run->lock);
	return i;
}

void run_source_done(struct run *run, size_t idx, size_t records, size_t skipped, int err,
		     bool partial)
{
	pthread_mutex_lock(&run->lock);
	struct source *s = &run->src[idx];
	s->records = records;
	s->skipped = skipped;
	s->err = err;
	s->partial = partial;
	pthread_mutex_unlock(&run->lock);
}

static bool loader_selected(const struct loader *l, const struct opts *o)
{
	if (o && (o->index_build || o->shard_n) && !l->indexed)
		return false; /* `tscope-tui index`: nothing else is written */
	return !o || !o->format || strcmp(o->format, l->name) == 0;
}

void run_source_records(struct run *run, size_t idx, size_t records)
{
	pthread_mutex_lock(&run->lock);
	run->src[idx].records = records;
	pthread_mutex_unlock(&run->lock);
}

void run_source_progress(struct run *run, size_t idx, long long bytes, long long consumed, long lines)
{
	pthread_mutex_lock(&run->lock);
	struct source *s = &run->src[idx];
	s->bytes = bytes;
	s->consumed = consumed;
	s->lines = lines;
	pthread_mutex_unlock(&run->lock);
}

void run_findings_reset(struct run *run)
{
	findings_progress_drop(run, &run->findings_progress);
	findings_free(&run->findings);
	run->findings_done = false;
}

void run_changed(struct run *run)
{
	run_findings_reset(run);
	run->generation++;
}

/* The tag of the notes run_open() adds for a PATH nothing was loaded from (diag.family). */
static const char path_note[] = "path";

/* Load one path with every loader of sub that claims it; returns how many loaded. Their
 * diagnostics are tagged with the family (a reload replaces them). */
static int load_family(struct run *run, const struct subsystem *sub, const char *path,
		       struct load_ctx *ctx)
{
	int loaded = 0;
	size_t had = run->diags.n;
	for (size_t l = 0; l < sub->nloaders; l++) {
		const struct loader *ld = &sub->loaders[l];
		if (!loader_selected(ld, run->opts) || load_cancelled(ctx))
			continue;
		if (registry_probe(ld, path, run->opts) > 0 && ld->load(ctx, path) == 0)
			loaded++;
		load_phase(ctx, NULL); /* a loader's phase ends with it */
	}
	diag_tag(&run->diags, had, sub->name);
	return loaded;
}

/* sub's finalize(), its diagnostics tagged with the family. */
static void finalize_family(struct run *run, const struct subsystem *sub)
{
	size_t had = run->diags.n;
	if (sub->finalize)
		sub->finalize(run);
	diag_tag(&run->diags, had, sub->name);
}

/* An error among the diagnostics added after the first had. */
static bool errors_since(const struct diag_list *l, size_t had)
{
	for (size_t i = had; i < l->n; i++)
		if (l->v[i].level == DIAG_ERROR)
			return true;
	return false;
}

/* Load one path with every loader that claims it; returns how many loaded. */
static int load_path(struct run *run, const char *path, struct load_ctx *ctx)
{
	int loaded = 0;
	for (size_t s = 0; s < registry_count; s++)
		loaded += load_family(run, registry[s], path, ctx);
	return loaded;
}

/* A note run_open() added for the PATH ud (nothing loaded there). */
static bool is_path_note(const struct diag *d, const void *ud)
{
	return d->family == path_note && d->file && strcmp(d->file, ud) == 0;
}

/* The note that nothing was loaded from path: why (run_path_why_empty). */
static void add_path_note(struct run *run, const char *path)
{
	size_t had = run->diags.n;
	char why[160];
	bool err = run_path_why_empty(path, run->opts, why, sizeof(why));
	diag_add(&run->diags, err ? DIAG_ERROR : DIAG_WARN, path, -1, -1, -1, "%s", why);
	diag_tag(&run->diags, had, path_note);
}

/* A diagnostic of the family named ud (its loaders' or its finalize's). */
static bool is_family_diag(const struct diag *d, const void *ud)
{
	return d->family && strcmp(d->family, ud) == 0;
}

/* s was read by one of the loaders of the family ud (a source's format is its loader's name). */
static bool family_source(const struct source *s, const void *ud)
{
	const struct subsystem *sub = ud;
	for (size_t l = 0; l < sub->nloaders; l++)
		if (s->format && strcmp(s->format, sub->loaders[l].name) == 0)
			return true;
	return false;
}

/* The source of [had, nsrc) not taken yet that was read at the path of s, -1 when none. */
static long read_again(const struct run *run, size_t had, const bool *taken, const struct source *s)
{
	for (size_t j = had; j < run->nsrc; j++)
		if (!taken[j - had] && run->src[j].path_hash == s->path_hash && strcmp(run->src[j].path, s->path) == 0)
			return (long)j;
	return -1;
}

/* A source read before that the reload did not read again, kept in its slot: nothing of
 * it is loaded now, and the error when the file is gone. */
static void source_not_read(struct source *s)
{
	struct stat st;
	s->records = s->skipped = 0;
	s->partial = false;
	s->bytes = -1;
	s->err = stat(s->path, &st) != 0 ? errno : 0;
}

void run_replace_sources(struct run *run, size_t had, bool (*old)(const struct source *s, const void *ud),
			 const void *ud)
{
	pthread_mutex_lock(&run->lock);
	size_t tail = 0;   /* one past the last source kept */
	for (size_t i = 0; i < had; i++)
		if (!old(&run->src[i], ud))
			tail = i + 1;
	bool *taken = xcalloc(run->nsrc - had + 1, sizeof(*taken));
	for (size_t i = 0; i < had; i++) {
		struct source *s = &run->src[i];
		if (!old(s, ud))
			continue;
		free(s->refused);
		s->refused = NULL;
		long j = i < tail ? read_again(run, had, taken, s) : -1;
		if (j >= 0) {
			taken[j - (long)had] = true;
			*s = run->src[j];
		} else if (i < tail) {
			source_not_read(s);
		}
	}
	size_t n = tail;
	for (size_t j = had; j < run->nsrc; j++)
		if (!taken[j - had])
			run->src[n++] = run->src[j];
	run->nsrc = n;
	free(taken);
	pthread_mutex_unlock(&run->lock);
}

void run_reload_family(struct run *run, const struct subsystem *sub, const char *const *paths,
		       size_t npaths)
{
	struct load_ctx ctx = { .run = run, .opts = run->opts };
	if (sub->free)
		sub->free(run);
	diag_remove_if(&run->diags, is_family_diag, sub->name);
	size_t had = run->nsrc;
	for (size_t i = 0; i < npaths; i++)
		if (load_family(run, sub, paths[i], &ctx) > 0)   /* data there now: the note goes */
			diag_remove_if(&run->diags, is_path_note, paths[i]);
	finalize_family(run, sub);
	run_replace_sources(run, had, family_source, sub);
	run_changed(run);
}

void run_source_reread(struct run *run, size_t idx, long long bytes)
{
	pthread_mutex_lock(&run->lock);
	struct source *s = &run->src[idx];
	s->bytes = bytes;
	s->records = s->skipped = 0;
	s->err = 0;
	s->partial = false;
	s->consumed = 0;
	s->lines = 0;
	s->stamp = (struct source_stamp){ .set = false };
	pthread_mutex_unlock(&run->lock);
}

/* FNV-1a over the bytes. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static unsigned long long tree_sig(const char *path, int depth, unsigned long long h)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return h;
	long long v[3] = { (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec };
	h = fnv(fnv(h, path, strlen(path)), v, sizeof(v));
	if (!S_ISDIR(st.st_mode) || depth <= 0)
		return h;
	DIR *d = opendir(path);
	if (!d)
		return h;
	struct dirent *e;
	unsigned long long sum = 0;   /* order-free: readdir order is not stable */
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = xasprintf("%s/%s", path, e->d_name);
		sum += tree_sig(sub, depth - 1, 14695981039346656037ULL);
		free(sub);
	}
	closedir(d);
	return fnv(h, &sum, sizeof(sum));
}

unsigned long long run_tree_signature(const char *path, int depth)
{
	return tree_sig(path, depth, 14695981039346656037ULL);
}

/* The files directly in dir that cannot be opened (no permission; a FIFO, device or
 * socket; a dangling link): how many; the first's name (sanitized, clipped) in name[n],
 * its errno in *err. */
static size_t unreadable_files(const char *dir, char *name, size_t n, int *err)
{
	struct dirlist *l = dirlist_open(dir);
	size_t bad = 0;
	for (size_t i = 0; l && i < l->n; i++) {
		const struct dirlist_entry *e = &l->v[i];
		if (e->name[0] == '.' || e->kind == DIRENT_DIR)
			continue;
		char *p = dirlist_path(dir, e->name);
		int fd = infile_open(p);
		if (fd < 0 && !bad++) {
			*err = errno;
			text_sanitize(e->name, strlen(e->name), name, n, 0);
		}
		if (fd >= 0)
			close(fd);
		free(p);
	}
	dirlist_close(l);
	return bad;
}

/* Why the loaders o selects found nothing at path when o restricts them (buf, true): a
 * loader claims it under --ranks (nothing of the ranks named is there), or the loader
 * --format names does not claim it (what path holds instead, or runs below it hold: the
 * first named); false when neither kept the loaders from it. */
static bool why_restricted(const char *path, const struct opts *o, char *buf, size_t n)
{
	if (o && o->ranks && run_path_loader(path, o)) {
		snprintf(buf, n, "no data here of a rank --ranks %s names", o->ranks);
		return true;
	}
	if (!o || !o->format || run_path_loader(path, o))   /* its loader claims path: not --format's doing */
		return false;
	struct opts any = *o;
	any.format = NULL;
	const char *other = run_path_loader(path, &any);
	struct run_child *kids = NULL;
	size_t nk = other ? 0 : run_children(path, &any, &kids), nother = 0;
	for (size_t i = 0; i < nk; i++)
		if (strcmp(kids[i].format, o->format) != 0 && !nother++)
			other = kids[i].format;
	if (nother)
		snprintf(buf, n, "no data of --format %s here: it holds %zu run%s below it of another format (%s): "
			 "drop --format", o->format, nother, nother == 1 ? "" : "s", other);
	else if (other)
		snprintf(buf, n, "no data of --format %s here: it holds %s data (--format %s, or no --format)",
			 o->format, other, other);
	else
		snprintf(buf, n, "no data of --format %s here, nor of another format", o->format);
	run_children_free(kids, nk);
	return true;
}

bool run_path_why_empty(const char *path, const struct opts *opts, char *buf, size_t n)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		snprintf(buf, n, "cannot open: %s", strerror(errno));
		return true;
	}
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO: not waiting for a writer */
	if (fd < 0) {
		snprintf(buf, n, "cannot read: %s", strerror(errno));
		return true;
	}
	close(fd);
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(buf, n, "cannot read: %s", infile_strerror(INFILE_ENOTREG));
		return true;
	}
	char name[48];
	int err = 0;
	size_t bad = S_ISDIR(st.st_mode) ? unreadable_files(path, name, sizeof(name), &err) : 0;
	if (bad == 1)
		snprintf(buf, n, "cannot read %s: %s; no supported data in the rest", name, infile_strerror(err));
	else if (bad)
		snprintf(buf, n, "cannot read %zu files here (%s: %s, ...); no supported data in the rest",
			 bad, name, infile_strerror(err));
	if (bad)
		return true;
	if (!why_restricted(path, opts, buf, n))
		snprintf(buf, n, "no supported data found here");
	return false;
}

struct run *run_open(const char *const *paths, size_t npaths, const struct opts *opts,
		     struct load_ctx *hooks)
{
	struct run *run = xcalloc(1, sizeof(*run));
	diag_list_init(&run->diags);
	pthread_mutex_init(&run->lock, NULL);
	run->opts = opts;
	run->path = xstrdup(npaths ? paths[0] : ".");
	run->name = default_name(run->path);
	run->paths = xcalloc(npaths ? npaths : 1, sizeof(*run->paths));
	for (size_t i = 0; i < npaths; i++)
		run->paths[run->npaths++] = xstrdup(paths[i]);
	struct load_ctx ctx = { 0 };
	if (hooks)
		ctx = *hooks;
	ctx.run = run;
	ctx.opts = opts;
	if (ctx.started)
		ctx.started(ctx.ud, run);
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		size_t had = run->diags.n;
		bool exists = stat(paths[i], &st) == 0;
		if (exists && (load_path(run, paths[i], &ctx) != 0 || errors_since(&run->diags, had)))
			continue; /* loaded, or its loader named what it could not read */
		add_path_note(run, paths[i]);
	}
	if (ctx.loaded)
		ctx.loaded(ctx.ud, run);
	for (size_t s = 0; s < registry_count; s++)
		finalize_family(run, registry[s]);
	return run;
}

const char *run_path_loader(const char *path, const struct opts *opts)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t l = 0; l < registry[s]->nloaders; l++) {
			const struct loader *ld = &registry[s]->loaders[l];
			if (loader_selected(ld, opts) && registry_probe(ld, path, opts) > 0)
				return ld->name;
		}
	return NULL;
}

bool run_path_note_again(struct run *run, const char *path)
{
	bool noted = false;
	for (size_t i = 0; i < run->diags.n && !noted; i++)
		noted = is_path_note(&run->diags.v[i], path);
	if (!noted)
		return false;
	diag_remove_if(&run->diags, is_path_note, path);
	if (run_path_loader(path, run->opts))
		return false;
	add_path_note(run, path);
	return true;
}

static int cmp_child(const void *a, const void *b)
{
	return strcmp(((const struct run_child *)a)->path, ((const struct run_child *)b)->path);
}

size_t run_children(const char *dir, const struct opts *opts, struct run_child **out)
{
	*out = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct run_child *v = NULL;
	size_t n = 0, cap = 0;
	size_t dl = dirlist_dir_len(dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = dl + strlen(e->d_name) + 2;
		char *path = xmalloc(len);
		snprintf(path, len, "%.*s/%s", (int)dl, dir, e->d_name);
		struct stat st;
		const char *fmt = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? run_path_loader(path, opts) : NULL;
		if (!fmt) {
			free(path);
			continue;
		}
		xgrow((void **)&v, &cap, n + 1, sizeof(*v));
		v[n++] = (struct run_child){ path, fmt };
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_child);
	*out = v;
	return n;
}

void run_children_free(struct run_child *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

bool run_is_empty(const struct run *run)
{
	return !registry_has_data(run);
}

bool run_findings_step(struct run *run)
{
	if (!run->findings_done)
		run->findings_done = findings_compute_step(run, &run->findings, &run->findings_progress);
	return run->findings_done;
}

const struct finding_list *run_findings(struct run *run)
{
	if (!run->findings_done && !run->findings_progress.begun) { /* every rule whole */
		findings_compute(run, &run->findings);
		run->findings_done = true;
	}
	while (!run_findings_step(run))
		;
	return &run->findings;
}

void run_free(struct run *run)
{
	if (!run)
		return;
	findings_progress_drop(run, &run->findings_progress);
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s]->free)
			registry[s]->free(run);
	findings_free(&run->findings);
	for (size_t i = 0; i < run->nsrc; i++)
		free(run->src[i].refused);
	while (run->src_text) {
		struct run_text_block *b = run->src_text;
		run->src_text = b->next;
		free(b);
	}
	free(run->refused);
	free(run->src);
	diag_list_free(&run->diags);
	pthread_mutex_destroy(&run->lock);
	free(run->path);
	for (size_t i = 0; i < run->npaths; i++)
		free(run->paths[i]);
	free(run->paths);
	free(run->name);
	free(run->index_path);
	free(run);
}
