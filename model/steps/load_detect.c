/* SPDX-License-Identifier: MIT */
/* load_detect.c: pytscope run detection (load.c): the probe, the ranks to load under a
 * path (rank{k}/ dirs, the directory itself or a steps.jsonl given directly, whose rank
 * id is its dir's: rank{k}/ given alone is rank k) and their files, the notes on what
 * that leaves unread (tagged: follow mode replaces them), and the run info for run
 * identity. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/json.h"
#include "model/steps/internal.h"
#include "model/text.h"
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

long steps_rank_dir_id(const char *name)
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

/* Add a task that takes dir and steps (NULL or a new string) over. */
static void tasks_add(struct task_list *t, long rank, char *dir, char *steps)
{
	xgrow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = (struct rank_task){ .rank = rank, .dir = dir, .steps_path = steps };
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
	const char *name;     /* in the listing */
};

static int cmp_rank_name(const void *a, const void *b)
{
	const struct rank_name *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->order > y->order) - (x->order < y->order);
}

/* keep[i]: the i-th rank dir is the last one (in name order) with its rank id, so a
 * later name with the same id wins (rank1 and rank01). O(n log n) for any number of
 * rank dirs; NULL (keep them all) when no name has a leading zero, so no two share an
 * id: the common case costs one look at each name. */
static bool *last_of_each_rank(const struct rank_name *dirs, size_t n)
{
	size_t k = 0;
	while (k < n && !(dirs[k].name[4] == '0' && dirs[k].name[5]))
		k++;
	if (k == n)
		return NULL;
	struct rank_name *v = xmalloc(n * sizeof(*v));
	memcpy(v, dirs, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_rank_name);
	bool *keep = xcalloc(n, sizeof(*keep));
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || v[i + 1].rank != v[i].rank)
			keep[v[i].order] = true;
	free(v);
	return keep;
}

const char steps_plan_tag[] = "pytscope plan";

/* What pytscope's layout rules leave unread, as notes (NULL: none) tagged steps_plan_tag:
 * a steps.jsonl beside rank dirs, and a rank dir whose id a later name repeats. */
static void plan_notes(const char *dir, const struct rank_name *dirs, size_t n, const bool *keep, bool top,
		       struct diag_list *notes)
{
	if (!notes || n == 0)
		return;
	size_t had = notes->n;
	if (top) {
		char *p = dirlist_path(dir, "steps.jsonl");
		diag_add(notes, DIAG_INFO, p, -1, -1, -1, "not read: the run has rank dirs (rank0/ ...), and pytscope "
			 "reads a top-level steps.jsonl only without them");
		free(p);
	}
	for (size_t i = 0; keep && i < n; i++) {
		if (keep[i]) /* the search below for dropped dirs only: a few, at start-up */
			continue;
		size_t w = 0; /* the rank dir read instead (last_of_each_rank) */
		while (w < n && !(keep[w] && dirs[w].rank == dirs[i].rank))
			w++;
		if (w == n)
			continue;
		char *p = dirlist_path(dir, dirs[i].name);
		diag_add(notes, DIAG_WARN, p, -1, -1, (int)dirs[i].rank, "not read: %s, later by name, has the same "
			 "rank id %ld, and pytscope keeps the last one", dirs[w].name, dirs[i].rank);
		free(p);
	}
	diag_tag(notes, had, steps_plan_tag);
}

/* rank{k}/ subdirectories of dir, in name order (pytscope's is_multirank /
 * load_multirank), from the scope's one listing of dir: per rank dir one look at its
 * name and one path, no stat; what that leaves unread goes to notes (may be NULL). */
static void find_rank_dirs(const char *dir, struct task_list *t, struct diag_list *notes)
{
	struct dirlist *l = dirlist_open(dir);   /* sorted by name */
	struct rank_name *dirs = NULL;
	size_t n = 0, cap = 0;
	bool top = false;
	for (size_t i = 0; l && i < l->n; i++) {
		long rank = l->v[i].kind == DIRENT_DIR ? steps_rank_dir_id(l->v[i].name) : -1;
		top |= l->v[i].kind != DIRENT_DIR && strcmp(l->v[i].name, "steps.jsonl") == 0;
		if (rank < 0)
			continue;
		xgrow((void **)&dirs, &cap, n + 1, sizeof(*dirs));
		dirs[n] = (struct rank_name){ rank, n, l->v[i].name };
		n++;
	}
	bool *keep = last_of_each_rank(dirs, n);
	for (size_t i = 0; i < n; i++)
		if (!keep || keep[i])
			tasks_add(t, dirs[i].rank, dirlist_path(dir, dirs[i].name), NULL);
	plan_notes(dir, dirs, n, keep, top, notes);
	free(keep);
	free(dirs);
	dirlist_close(l);
}

#define RUN_JSON_MAX ((size_t)16 << 20) /* as the loader reads run.json (load_meta.c) */

/* The "rank" dir's run.json records (the first member of that name, as the loader reads
 * it) when it is a rank id a rank dir's name could give (0 to 10^8), else 0. */
static long run_json_rank(const char *dir)
{
	char *path = dirlist_path(dir, "run.json");
	size_t len = 0;
	char *buf = dirlist_read(path, RUN_JSON_MAX, &len);
	free(path);
	if (!buf)
		return 0;
	struct json_doc d;
	json_doc_init(&d);
	size_t skip = text_utf8_bom(buf, len) ? 3 : 0;
	long long rank = 0;
	bool ok = len < RUN_JSON_MAX && json_parse(&d, buf + skip, len - skip) > 0 && json_is_object(&d, 0) &&
		  json_int(&d, json_get(&d, 0, "rank"), &rank) && rank >= 0 && rank <= 100000000;
	json_doc_free(&d);
	free(buf);
	return ok ? (long)rank : 0;
}

/* The rank id of dir read without rank dirs (one rank of a distributed run given alone,
 * so ranks are matched by id): its own name's, "rank{k}" as pytscope's load_multirank
 * reads it, else its run.json's rank, else 0. */
static long flat_rank_id(const char *dir)
{
	size_t end = strlen(dir);
	while (end > 1 && dir[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && dir[start - 1] != '/')
		start--;
	char *name = xstrndup(dir + start, end - start);
	long id = steps_rank_dir_id(name);
	free(name);
	return id >= 0 ? id : run_json_rank(dir);
}

/* The ranks to load under path: rank dirs, else the directory itself, else a
 * steps.jsonl file given directly (these two of rank flat_rank_id). */
void steps_plan(const char *path, struct task_list *t, struct diag_list *notes)
{
	if (steps_is_dir(path)) {
		find_rank_dirs(path, t, notes);
		if (t->n == 0)
			tasks_add(t, flat_rank_id(path), xstrdup(path), NULL);
		return;
	}
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	if (!slash) {
		free(dir);
		dir = xstrdup(".");
	}
	tasks_add(t, flat_rank_id(dir), dir, xstrdup(path));
}

bool steps_files_flat(const struct steps_rank_file *v, size_t n, const char *path)
{
	return n == 1 && (strcmp(v[0].dir, path) == 0 || strcmp(v[0].steps, path) == 0);
}

/* Task t's steps file: its own path, else "steps.jsonl" in its dir. The bytes it takes,
 * its NUL included, and a copy of it at p (returning the byte past the NUL). */
static size_t task_file_len(const struct rank_task *t)
{
	return t->steps_path ? strlen(t->steps_path) + 1 : strlen(t->dir) + sizeof("/steps.jsonl");
}

static char *task_file_put(const struct rank_task *t, char *p)
{
	if (t->steps_path)
		return stpcpy(p, t->steps_path) + 1;
	return stpcpy(stpcpy(p, t->dir), "/steps.jsonl") + 1;
}

char *steps_task_file(const struct rank_task *t)
{
	char *p = xmalloc(task_file_len(t));
	task_file_put(t, p);
	return p;
}

/* ---- discovery: sizing the planned ranks while they load (internal.h) ------------- */

/* One rank's stat, taken once between discovery and the load (rank_stat). */
struct stat_slot {
	atomic_int state;        /* SLOT_FREE, SLOT_BUSY (being taken), SLOT_DONE */
	int err;                 /* errno of the stat, 0 when st holds it */
	struct stat st;
};

enum { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

struct steps_discovery {
	struct load_ctx *ctx;
	struct steps_model *m;
	const struct task_list *t;
	long long *sizes;
	struct stat_slot *slots; /* t->n */
	long long total;
	long delay_ms;           /* TSCOPE_LIST_DELAY_MS: a slow file system, for tests */
	pthread_t th;
	bool threaded;
};

/* The stat of task i's steps file (path: relative to dirfd): the first of discovery and
 * the load to ask takes it, the other waits for that one system call and reuses it. */
static const struct stat_slot *rank_stat(struct steps_discovery *d, size_t i, int dirfd, const char *path)
{
	struct stat_slot *s = &d->slots[i];
	int want = SLOT_FREE;
	if (atomic_compare_exchange_strong(&s->state, &want, SLOT_BUSY)) {
		s->err = fstatat(dirfd, path, &s->st, 0) == 0 ? 0 : errno;
		atomic_store(&s->state, SLOT_DONE);
	} else {
		while (atomic_load(&s->state) != SLOT_DONE)
			sched_yield();
	}
	return s;
}

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

/* Where discovery stats the files: relative to the parent of the rank dirs (the run
 * dir, opened once while the tasks share it), so each stat walks two names, not the
 * whole path (the load's open does the same). */
struct stat_base {
	int fd;                  /* -1: none open */
	const char *dir;         /* the task dir it was opened for ... */
	size_t len;              /* ... whose first len bytes name it */
	char rel[256];           /* "rank{k}/steps.jsonl" */
};

/* The stat of task i by its whole path. */
static const struct stat_slot *task_stat_path(struct steps_discovery *d, size_t i)
{
	char *steps = steps_task_file(&d->t->v[i]);
	const struct stat_slot *s = rank_stat(d, i, AT_FDCWD, steps);
	free(steps);
	return s;
}

/* The stat of task i through base b. */
static const struct stat_slot *task_stat(struct steps_discovery *d, size_t i, struct stat_base *b)
{
	static const char name[] = "/steps.jsonl";
	const struct rank_task *t = &d->t->v[i];
	const char *slash = t->steps_path ? NULL : strrchr(t->dir, '/');
	size_t len = slash ? (size_t)(slash - t->dir) : 0, sub = slash ? strlen(slash + 1) : 0;
	if (!slash || !len || sub + sizeof(name) > sizeof(b->rel))
		return task_stat_path(d, i);
	if (b->fd < 0 || b->len != len || strncmp(b->dir, t->dir, len) != 0) {
		if (b->fd >= 0)
			close(b->fd);
		char *parent = xstrndup(t->dir, len);
		b->fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		free(parent);
		b->dir = t->dir;
		b->len = len;
	}
	if (b->fd < 0)
		return task_stat_path(d, i);
	memcpy(b->rel, slash + 1, sub);
	memcpy(b->rel + sub, name, sizeof(name));
	return rank_stat(d, i, b->fd, b->rel);
}

static void *discover_run(void *ud)
{
	struct steps_discovery *d = ud;
	struct stat_base b = { .fd = -1 };
	size_t i = 0;
	for (; i < d->t->n && !load_cancelled(d->ctx); i++) {
		list_delay(d);
		const struct stat_slot *s = task_stat(d, i, &b);
		long long size = !s->err && S_ISREG(s->st.st_mode) ? (long long)s->st.st_size : 0;
		if (d->sizes)
			d->sizes[i] = size;
		d->total += size;
		listing_set(d->m, true, i + 1);
	}
	if (b.fd >= 0)
		close(b.fd);
	load_progress(d->ctx, 0, d->total);   /* first: a screen that sees the listing over has the total */
	listing_set(d->m, false, i);
	return NULL;
}

struct steps_discovery *steps_discover_begin(struct load_ctx *ctx, struct steps_model *m,
					     const struct task_list *t, long long *sizes)
{
	struct steps_discovery *d = xcalloc(1, sizeof(*d));
	*d = (struct steps_discovery){ .ctx = ctx, .m = m, .t = t, .sizes = sizes,
				       .slots = xcalloc(t->n ? t->n : 1, sizeof(*d->slots)) };
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
	free(d->slots);
	free(d);
	return total;
}

int steps_discover_openat(struct steps_discovery *d, size_t i, int dirfd, const char *rel, struct stat *st)
{
	if (!d)
		return infile_openat_stream(dirfd, rel, st);
	const struct stat_slot *s = rank_stat(d, i, dirfd, rel);
	if (s->err) {
		errno = s->err;
		return -1;
	}
	*st = s->st;
	return infile_openat_statted(dirfd, rel, st);
}

/* The kind dir's listing l gives name (links followed), DIRENT_OTHER when absent. */
static enum dirent_kind listed_kind(const struct dirlist *l, const char *name)
{
	size_t lo = 0, hi = l->n;   /* sorted by strcmp */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->v[mid].name, name);
		if (c == 0)
			return l->v[mid].kind;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return DIRENT_OTHER;
}

/* A run dir with steps.jsonl or run.json, or with a rank{k}/ dir: decided from the
 * scope's listing of path (the first rank dir ends the look), stats only when path
 * cannot be listed. */
static bool pytscope_dir(const char *path)
{
	struct dirlist *l = dirlist_open(path);
	if (!l) {   /* searchable but not readable: the files may still be there */
		char *p = dirlist_path(path, "steps.jsonl"), *q = dirlist_path(path, "run.json");
		bool single = is_file(p) || is_file(q);
		free(p);
		free(q);
		return single;
	}
	bool yes = listed_kind(l, "steps.jsonl") == DIRENT_FILE || listed_kind(l, "run.json") == DIRENT_FILE;
	for (size_t i = 0; !yes && i < l->n; i++)
		yes = l->v[i].kind == DIRENT_DIR && steps_rank_dir_id(l->v[i].name) >= 0;
	dirlist_close(l);
	return yes;
}

int pytscope_probe(const char *path, const struct opts *opts)
{
	(void)opts;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return ends_with(path, ".jsonl") ? 90 : 0;
	return S_ISDIR(st.st_mode) && pytscope_dir(path) ? 90 : 0;
}

/* The ranks under path as pytscope_load() would plan them, for run identity
 * (model/identity.c): rank ids, their directories, the lowest rank's run.json name and
 * whether any rank has a steps.jsonl. Reads only the run.json of the lowest rank. */

void pytscope_run_info(const char *path, struct pytscope_run_info *out)
{
	memset(out, 0, sizeof(*out));
	struct task_list t = { 0 };
	steps_plan(path, &t, NULL);
	out->n = t.n;
	out->rank = xcalloc(t.n ? t.n : 1, sizeof(*out->rank));
	out->dir = xcalloc(t.n ? t.n : 1, sizeof(*out->dir));
	size_t lowest = 0;
	for (size_t i = 0; i < t.n; i++) {
		out->rank[i] = t.v[i].rank;
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
	for (size_t i = 0; i < t.n; i++) {   /* the plan's strings move to out */
		out->dir[i] = t.v[i].dir;
		free(t.v[i].steps_path);
	}
	free(t.v);
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

/* One block: the entries, then each entry's dir and steps path (steps_task_file()'s). */
size_t steps_tasks_files(const struct task_list *t, struct steps_rank_file **out)
{
	size_t bytes = 0;
	for (size_t i = 0; i < t->n; i++)
		bytes += strlen(t->v[i].dir) + 1 + task_file_len(&t->v[i]);
	struct steps_rank_file *v = xmalloc((t->n ? t->n : 1) * sizeof(*v) + bytes);
	char *p = (char *)(v + (t->n ? t->n : 1));
	for (size_t i = 0; i < t->n; i++) {
		const struct rank_task *k = &t->v[i];
		size_t d = strlen(k->dir) + 1;
		v[i] = (struct steps_rank_file){ .rank = k->rank, .dir = memcpy(p, k->dir, d) };
		p += d;
		v[i].steps = p;
		p = task_file_put(k, p);
	}
	*out = v;
	return t->n;
}

size_t steps_plan_files(const char *path, struct steps_rank_file **out)
{
	struct task_list t = { 0 };
	steps_plan(path, &t, NULL);
	size_t n = steps_tasks_files(&t, out);
	steps_tasks_free(&t);
	return n;
}

static int cmp_file_rank(const void *a, const void *b)
{
	const struct steps_rank_file *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Place v's entries at their id - lo in out; false when an id is outside [lo, lo + n)
 * or repeated (out then holds an arbitrary part of v). */
static bool files_place(const struct steps_rank_file *v, size_t n, long lo, struct steps_rank_file *out)
{
	bool *seen = xcalloc(n, sizeof(*seen));
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		size_t k = (size_t)((unsigned long)v[i].rank - (unsigned long)lo); /* v[i].rank >= lo */
		ok = k < n && !seen[k];
		if (ok) {
			seen[k] = true;
			out[k] = v[i];
		}
	}
	free(seen);
	return ok;
}

void steps_rank_files_sort(struct steps_rank_file *v, size_t n)
{
	if (n < 2)
		return;
	long lo = v[0].rank;
	for (size_t i = 1; i < n; i++)
		lo = v[i].rank < lo ? v[i].rank : lo;
	struct steps_rank_file *out = xmalloc(n * sizeof(*out));
	bool dense = files_place(v, n, lo, out);
	if (dense)
		memcpy(v, out, n * sizeof(*v));
	else
		qsort(v, n, sizeof(*v), cmp_file_rank);
	free(out);
}

const struct steps_rank_file *steps_rank_files_find(const struct steps_rank_file *v, size_t n, long rank)
{
	if (!n)
		return NULL;
	size_t k = (size_t)((unsigned long)rank - (unsigned long)v[0].rank); /* no signed overflow */
	if (rank >= v[0].rank && k < n && v[k].rank == rank)
		return &v[k];
	struct steps_rank_file key = { .rank = rank };
	return bsearch(&key, v, n, sizeof(key), cmp_file_rank);
}

void steps_rank_files_free(struct steps_rank_file *v)
{
	free(v);
}
