/* SPDX-License-Identifier: MIT */
/* load_detect.c: pytscope run detection (load.c): the probe, the ranks to load under a
 * path (rank{k}/ dirs, the directory itself or a steps.jsonl given directly) and the
 * run info for run identity. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "model/dirlist.h"
#include "model/steps/internal.h"
#include "model/xalloc.h"

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool steps_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "rank" + one or more ASCII digits -> the rank id (int(suffix)), else -1. */
static long rank_suffix(const char *name)
{
	if (strncmp(name, "rank", 4) != 0 || !name[4])
		return -1;
	long v = 0;
	for (const char *p = name + 4; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void tasks_add(struct task_list *t, long rank, const char *dir, const char *steps)
{
	xgrow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = (struct rank_task){ .rank = rank, .dir = xstrdup(dir),
					   .steps_path = steps ? xstrdup(steps) : NULL };
}

void steps_tasks_free(struct task_list *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].dir);
		free(t->v[i].steps_path);
	}
	free(t->v);
}

struct rank_name {
	long rank;
	size_t order;         /* position in name order */
};

static int cmp_rank_name(const void *a, const void *b)
{
	const struct rank_name *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->order > y->order) - (x->order < y->order);
}

/* keep[i]: names[i] is the last name (in name order) with its rank id, so a later name
 * with the same id wins (rank1 and rank01). O(n log n) for any number of rank dirs. */
static bool *last_of_each_rank(char **names, size_t n)
{
	struct rank_name *v = xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (struct rank_name){ rank_suffix(names[i]), i };
	qsort(v, n, sizeof(*v), cmp_rank_name);
	bool *keep = xcalloc(n ? n : 1, sizeof(*keep));
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || v[i + 1].rank != v[i].rank)
			keep[v[i].order] = true;
	free(v);
	return keep;
}

/* rank{k}/ subdirectories of dir, in name order (pytscope's is_multirank / load_multirank). */
static void find_rank_dirs(const char *dir, struct task_list *t)
{
	struct dirlist *l = dirlist_open(dir);   /* sorted by name */
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; l && i < l->n; i++) {
		if (l->v[i].kind != DIRENT_DIR || rank_suffix(l->v[i].name) < 0)
			continue;
		xgrow((void **)&names, &cap, n + 1, sizeof(*names));
		names[n++] = l->v[i].name;
	}
	bool *keep = last_of_each_rank(names, n);
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		char *sub = xasprintf("%s/%s", dir, names[i]);
		tasks_add(t, rank_suffix(names[i]), sub, NULL);
		free(sub);
	}
	free(keep);
	free(names);
	dirlist_close(l);
}

/* The ranks to load under path: rank dirs, else the directory itself, else a
 * steps.jsonl file given directly. */
void steps_plan(const char *path, struct task_list *t)
{
	if (steps_is_dir(path)) {
		find_rank_dirs(path, t);
		if (t->n == 0)
			tasks_add(t, 0, path, NULL);
		return;
	}
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	tasks_add(t, 0, slash ? dir : ".", path);
	free(dir);
}

char *steps_task_file(const struct rank_task *t)
{
	return t->steps_path ? xstrdup(t->steps_path) : xasprintf("%s/steps.jsonl", t->dir);
}

/* ---- discovery: sizing the planned ranks while they load (internal.h) ------------- */

struct steps_discovery {
	struct load_ctx *ctx;
	struct steps_model *m;
	const struct task_list *t;
	long long *sizes;
	long long total;
	long delay_ms;           /* TSCOPE_LIST_DELAY_MS: a slow file system, for tests */
	pthread_t th;
	bool threaded;
};

static void listing_set(struct steps_model *m, bool on, size_t listed)
{
	pthread_mutex_lock(&m->lock);
	m->listing = on;
	m->listed = listed;
	pthread_mutex_unlock(&m->lock);
}

/* TSCOPE_LIST_DELAY_MS: wait that long before each rank (in steps a cancel cuts short). */
static void list_delay(const struct steps_discovery *d)
{
	for (long left = d->delay_ms; left > 0 && !load_cancelled(d->ctx); left -= 10) {
		struct timespec ts = { 0, (left < 10 ? left : 10) * 1000000L };
		nanosleep(&ts, NULL);
	}
}

static void *discover_run(void *ud)
{
	struct steps_discovery *d = ud;
	size_t i = 0;
	for (; i < d->t->n && !load_cancelled(d->ctx); i++) {
		list_delay(d);
		char *steps = steps_task_file(&d->t->v[i]);
		struct stat st;
		long long size = stat(steps, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
		free(steps);
		if (d->sizes)
			d->sizes[i] = size;
		d->total += size;
		listing_set(d->m, true, i + 1);
	}
	load_progress(d->ctx, 0, d->total);   /* first: a screen that sees the listing over has the total */
	listing_set(d->m, false, i);
	return NULL;
}

struct steps_discovery *steps_discover_begin(struct load_ctx *ctx, struct steps_model *m,
					     const struct task_list *t, long long *sizes)
{
	struct steps_discovery *d = xcalloc(1, sizeof(*d));
	*d = (struct steps_discovery){ .ctx = ctx, .m = m, .t = t, .sizes = sizes };
	const char *delay = getenv("TSCOPE_LIST_DELAY_MS");
	d->delay_ms = delay ? strtol(delay, NULL, 10) : 0;
	listing_set(m, true, 0);
	d->threaded = pthread_create(&d->th, NULL, discover_run, d) == 0;
	if (!d->threaded)
		discover_run(d);
	return d;
}

long long steps_discover_end(struct steps_discovery *d)
{
	if (d->threaded)
		pthread_join(d->th, NULL);
	long long total = d->total;
	free(d);
	return total;
}

int pytscope_probe(const char *path, const struct opts *opts)
{
	(void)opts;
	if (is_file(path))
		return ends_with(path, ".jsonl") ? 90 : 0;
	if (!steps_is_dir(path))
		return 0;
	char *p = xasprintf("%s/steps.jsonl", path);
	char *q = xasprintf("%s/run.json", path);
	bool single = is_file(p) || is_file(q);
	free(p);
	free(q);
	if (single)
		return 90;
	struct task_list t = { 0 };
	find_rank_dirs(path, &t);
	bool multi = t.n > 0;
	steps_tasks_free(&t);
	return multi ? 90 : 0;
}

/* The ranks under path as pytscope_load() would plan them, for run identity
 * (model/identity.c): rank ids, their directories, the lowest rank's run.json name and
 * whether any rank has a steps.jsonl. Reads only the run.json of the lowest rank. */

void pytscope_run_info(const char *path, struct pytscope_run_info *out)
{
	memset(out, 0, sizeof(*out));
	struct task_list t = { 0 };
	steps_plan(path, &t);
	out->n = t.n;
	out->rank = xcalloc(t.n ? t.n : 1, sizeof(*out->rank));
	out->dir = xcalloc(t.n ? t.n : 1, sizeof(*out->dir));
	size_t lowest = 0;
	for (size_t i = 0; i < t.n; i++) {
		out->rank[i] = t.v[i].rank;
		out->dir[i] = xstrdup(t.v[i].dir);
		if (!out->has_steps) { /* one stat per rank until one has a steps.jsonl */
			char *steps = steps_task_file(&t.v[i]);
			out->has_steps = is_file(steps);
			free(steps);
		}
		if (t.v[i].rank < t.v[lowest].rank)
			lowest = i;
	}
	if (t.n)
		out->name = steps_meta_name(t.v[lowest].dir);
	steps_tasks_free(&t);
}

void pytscope_run_info_free(struct pytscope_run_info *info)
{
	for (size_t i = 0; i < info->n; i++)
		free(info->dir[i]);
	free(info->dir);
	free(info->rank);
	free(info->name);
	memset(info, 0, sizeof(*info));
}
