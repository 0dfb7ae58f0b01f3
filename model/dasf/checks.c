/* SPDX-License-Identifier: MIT */
/* checks.c: load-time checks over a whole DASF run, once every file was read (the
 * subsystem's finalize): a dependency cycle (no critical path), databases of two runs
 * (one host's files whatever their plugins, <name>-<unixtime> prefixes that differ, or
 * one worker's tasks in two files that names do not tell apart), a database read twice
 * (a copy under another name) and records written twice in one file. DASF itself adds
 * every database given (spec formats.md §1.4: no merge, no dedupe), and so do the views
 * for tasks; these warn, naming the files, so that a summed result is never silent. GPU
 * samples and Managed Memory events a later file repeats (a copy) are left out, said: they
 * change no figure of DASF's, only the counts (and so the GPU idle rule's sample count).
 * Every open pays for these, so none runs the analyses (analysis.c, lazy): the cycle check
 * is Kahn's order over the edges as stored, the analysis run only to name a cycle found;
 * the copy checks hold 4 bytes a task key, and a hash entry only for what could repeat. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/run.h"
#include "model/text.h"
#include "model/xalloc.h"

/* Edge e of task t as the task graph has it: dependency e -> t's key (e < ndeps), then
 * t's key -> dependent e - ndeps. */
static void task_edge(const struct dasf_db *db, const struct dasf_task *t, size_t e, uint32_t *from, uint32_t *to)
{
	uint32_t other = db->edges[t->edge + e];
	*from = e < t->ndeps ? other : t->key;
	*to = e < t->ndeps ? t->key : other;
}

/* Every key's successors, in the returned list at [off[v], off[v + 1]) (off: keys.n + 2
 * entries, zeroed), and its in-degree (indeg: keys.n entries, zeroed), counted straight
 * from the stored edges (no sort): an edge named twice is listed and counted twice; a key
 * depending on itself is left out, as in the analysis. */
static uint32_t *successors(const struct dasf_db *db, uint32_t *off, uint32_t *indeg)
{
	uint32_t from, to;
	for (size_t i = 0; i < db->ntask; i++)
		for (size_t e = 0; e < (size_t)db->task[i].ndeps + db->task[i].ndnts; e++) {
			task_edge(db, &db->task[i], e, &from, &to);
			if (from != to) {
				off[from + 2]++;
				indeg[to]++;
			}
		}
	for (size_t v = 2; v < db->keys.n + 2; v++)
		off[v] += off[v - 1];
	uint32_t *succ = xmalloc(((size_t)off[db->keys.n + 1] + 1) * sizeof(*succ));
	for (size_t i = 0; i < db->ntask; i++)
		for (size_t e = 0; e < (size_t)db->task[i].ndeps + db->task[i].ndnts; e++) {
			task_edge(db, &db->task[i], e, &from, &to);
			if (from != to)
				succ[off[from + 1]++] = to;
		}
	return succ;
}

/* Whether the task graph has a dependency cycle: Kahn's order leaves a key (the keys the
 * critical path's order leaves). A key whose in-degree came to 0 needs its count no more:
 * it holds the next key of the stack of keys to take. */
static bool has_cycle(const struct dasf_db *db)
{
	size_t n = db->keys.n, taken = 0;
	uint32_t *off = xcalloc_written(n + 2, sizeof(*off)), *indeg = xcalloc_written(n + 1, sizeof(*indeg));
	uint32_t *succ = successors(db, off, indeg);
	uint32_t top = DASF_NONE;
	for (size_t v = 0; v < n; v++)
		if (!indeg[v]) {
			indeg[v] = top;
			top = (uint32_t)v;
		}
	while (top != DASF_NONE) {
		uint32_t v = top;
		top = indeg[v];
		taken++;
		for (uint32_t k = off[v]; k < off[v + 1]; k++)
			if (--indeg[succ[k]] == 0) {
				indeg[succ[k]] = top;
				top = succ[k];
			}
	}
	free(off);
	free(indeg);
	free(succ);
	return taken < n;
}

/* A dependency cycle: warned of, naming a key on it as the views do (the analysis, run
 * only when there is one). */
static void check_cycle(struct run *run)
{
	struct dasf_db *db = run->dasf;
	if (!has_cycle(db))
		return;
	const struct dasf_an *an = dasf_analyse(db);
	if (an->cycle_node == DASF_NONE)
		return;
	uint32_t ti = an->node_task[an->cycle_node];
	char why[256];
	dasf_cycle_text(db, why, sizeof(why));
	diag_add(&run->diags, DIAG_WARN, ti == DASF_NONE ? NULL : db->files[db->task[ti].file].path, -1, -1, -1,
		 "%s: the critical path is n/a", why);
}

/* A file name's parts `<name>[-<unixtime>]-<Plugin>-<host>.msgpack` (formats.md §1.1):
 * the run part before the plugin and the host part after it (with the extension); false
 * for other names. */
static bool name_parts(const char *path, size_t *run_len, const char **host, const char **base)
{
	static const char *const plugins[] = { "-TracePlugin-", "-ResourceMonitor-" };
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	for (size_t i = 0; i < ARRAY_LEN(plugins); i++) {
		const char *p = strstr(*base, plugins[i]);
		if (p && p > *base) {
			*run_len = (size_t)(p - *base);
			*host = p + strlen(plugins[i]);
			return true;
		}
	}
	return false;
}

/* True when a run part (`len` bytes at `base`) ends in `-<unixtime>` after a non-empty
 * name: at least 9 digits, as DASF's int(time.time()) suffix (formats.md §1.1). Names
 * like `rank-0` or `1` are not run prefixes. */
static bool has_unixtime(const char *base, size_t len)
{
	size_t digits = 0;
	while (digits < len && base[len - 1 - digits] >= '0' && base[len - 1 - digits] <= '9')
		digits++;
	return digits >= 9 && digits + 1 < len && base[len - 1 - digits] == '-';
}

/* Warns on file j that it and earlier file i are databases of two runs, naming both. */
static void warn_two_runs(struct run *run, size_t i, size_t j, bool one_host)
{
	const struct dasf_db *db = run->dasf;
	char *a = text_sanitize_dup(db->files[i].path, 0), *b = text_sanitize_dup(db->files[j].path, 0);
	diag_add(&run->diags, DIAG_WARN, db->files[j].path, -1, -1, -1,
		 "databases of two runs%s: %s and %s differ in their <name>-<unixtime> part; "
		 "their events are added together (open each run's files alone)", one_host ? " for one host" : "", a, b);
	free(a);
	free(b);
}

/* The earlier file of file j's host, whatever its plugin, whose run part differs from j's
 * (two runs or two profilers: one run's TracePlugin and ResourceMonitor files share it),
 * or nfiles. */
static size_t same_host_other_run(const struct dasf_db *db, size_t j)
{
	size_t lj, li;
	const char *hj, *hi, *bj, *bi;
	if (!name_parts(db->files[j].path, &lj, &hj, &bj))
		return db->nfiles;
	for (size_t i = 0; i < j; i++)
		if (name_parts(db->files[i].path, &li, &hi, &bi) && strcmp(hi, hj) == 0 &&
		    !(li == lj && memcmp(bi, bj, li) == 0))
			return i;
	return db->nfiles;
}

/* For the first file j of a <name>-<unixtime> prefix, the first earlier file with another
 * such prefix (any host); nfiles when j has none, its prefix was seen before, or no other
 * prefix precedes it. */
static size_t new_run_prefix(const struct dasf_db *db, size_t j)
{
	size_t lj, li;
	const char *hj, *hi, *bj, *bi;
	size_t other = db->nfiles;
	if (!name_parts(db->files[j].path, &lj, &hj, &bj) || !has_unixtime(bj, lj))
		return db->nfiles;
	for (size_t i = 0; i < j; i++) {
		if (!name_parts(db->files[i].path, &li, &hi, &bi) || !has_unixtime(bi, li))
			continue;
		if (li == lj && memcmp(bi, bj, li) == 0)
			return db->nfiles;
		if (other == db->nfiles)
			other = i;
	}
	return other;
}

/* Databases whose <name>-<unixtime> parts differ are two runs (or two profilers): one
 * host's files warn once per later file, whatever their plugins; files of other hosts once
 * per new prefix (file names without a -<unixtime> part are not compared across hosts).
 * warned[j]: file j was named in a warning. */
static void check_two_runs(struct run *run, bool *warned)
{
	const struct dasf_db *db = run->dasf;
	for (size_t j = 1; j < db->nfiles; j++) {
		size_t i = same_host_other_run(db, j);
		bool one_host = i < db->nfiles;
		if (!one_host)
			i = new_run_prefix(db, j);
		if (i < db->nfiles) {
			warn_two_runs(run, i, j, one_host);
			warned[j] = true;
		}
	}
}

static uint32_t ts_hash(double ts)
{
	uint64_t bits;
	memcpy(&bits, &ts, sizeof(bits));
	bits ^= bits >> 29;
	bits *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(bits >> 32);
}

/* Per file, tasks that repeat an earlier task (the same key at the same timestamp): of
 * another file (a copy: ncopy, copy_of) or of the same file and worker (a batch written
 * twice: nself), with an example key each. */
struct repeats {
	size_t *ncopy, *nself;
	uint32_t *copy_of, *copy_key, *self_key;
};

static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* The first task with task i's key and timestamp (the same bits; i when none came before):
 * its key's first task (first_of_key, DASF_NONE: none yet), else the first of its key and
 * timestamp hash in `later`, which holds only the tasks of a key run again at another
 * timestamp (most keys run once: 4 bytes a key, not a hash entry a task). */
static uint32_t first_same(const struct dasf_db *db, uint32_t *first_of_key, struct dasf_map *later, uint32_t i)
{
	const struct dasf_task *t = &db->task[i];
	uint32_t *first = &first_of_key[t->key];
	if (*first == DASF_NONE)
		*first = i;
	if (same_bits(db->task[*first].ts, t->ts))
		return *first;
	return dasf_map_get_or_add(later, (uint64_t)t->key << 32 | ts_hash(t->ts), i);
}

static void find_repeats(const struct dasf_db *db, struct repeats *rp)
{
	uint32_t *first_of_key = xmalloc((db->keys.n + 1) * sizeof(*first_of_key));
	memset(first_of_key, 0xff, (db->keys.n + 1) * sizeof(*first_of_key)); /* DASF_NONE */
	struct dasf_map later = { 0 };
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *t = &db->task[i];
		uint32_t first = first_same(db, first_of_key, &later, (uint32_t)i);
		const struct dasf_task *f = &db->task[first];
		if (first == i || !(f->ts == t->ts)) /* NaN, or a hash shared by another timestamp */
			continue;
		if (f->file != t->file && !rp->ncopy[t->file]++) {
			rp->copy_of[t->file] = f->file;
			rp->copy_key[t->file] = t->key;
		}
		if (f->file == t->file && f->host == t->host && f->thread == t->thread && !rp->nself[t->file]++)
			rp->self_key[t->file] = t->key;
	}
	free(first_of_key);
	dasf_map_free(&later);
}

/* Warns on file j that n of its tasks repeat tasks of file i (j itself: earlier records). */
static void warn_repeats(struct run *run, size_t i, size_t j, size_t n, uint32_t key)
{
	const struct dasf_db *db = run->dasf;
	char *a = text_sanitize_dup(db->files[i].path, 0), *b = text_sanitize_dup(db->files[j].path, 0);
	char *k = text_sanitize_dup(db->keys.str[key], 0);
	if (i == j)
		diag_add(&run->diags, DIAG_WARN, db->files[j].path, -1, -1, -1,
			 "%zu task%s of %s %s earlier in the same file (the same key, timestamp and worker, e.g. "
			 "'%s'): a batch written twice? Both are added, so that time counts twice", n, n == 1 ? "" : "s",
			 b, n == 1 ? "repeats a task" : "repeat tasks", k);
	else
		diag_add(&run->diags, DIAG_WARN, db->files[j].path, -1, -1, -1,
			 "%zu task%s of %s %s of %s (the same key at the same timestamp, e.g. '%s'): "
			 "a copy of a database? Both are added, so that time counts twice", n, n == 1 ? "" : "s", b,
			 n == 1 ? "repeats a task" : "repeat tasks", a, k);
	free(a);
	free(b);
	free(k);
}

/* Tasks of a later file with the key and timestamp of a task of an earlier one (a copy of
 * a database read twice), or of an earlier record of the same file and worker (a batch
 * written twice): one warning per file and kind, naming the earlier file. */
static void check_copies(struct run *run, bool *warned)
{
	const struct dasf_db *db = run->dasf;
	size_t n = db->nfiles + 1;
	struct repeats rp = {
		.ncopy = xcalloc(n, sizeof(size_t)), .nself = xcalloc(n, sizeof(size_t)),
		.copy_of = xmalloc(n * sizeof(uint32_t)), .copy_key = xmalloc(n * sizeof(uint32_t)),
		.self_key = xmalloc(n * sizeof(uint32_t)),
	};
	find_repeats(db, &rp);
	for (size_t j = 0; j < db->nfiles; j++) {
		if (rp.nself[j])
			warn_repeats(run, j, j, rp.nself[j], rp.self_key[j]);
		if (rp.ncopy[j])
			warn_repeats(run, rp.copy_of[j], j, rp.ncopy[j], rp.copy_key[j]);
		warned[j] |= rp.ncopy[j] > 0;
	}
	free(rp.ncopy);
	free(rp.nself);
	free(rp.copy_of);
	free(rp.copy_key);
	free(rp.self_key);
}

/* GPU samples and Managed Memory events of a file that repeat those of an earlier file (a
 * copy of a database read twice): unlike a task's time, DASF's figures from them (a mean
 * GPU utilisation, the last task count of a second) do not change when one is read twice,
 * but the counts (GPU samples, the GPU idle rule's) would: each is kept once. One kind: */
struct event_kind {
	const char *what, *same;      /* "GPU sample", "the same host, timestamp and values" */
	char *v;                      /* db->res or db->mem */
	size_t *n, size;              /* their count; the size of one */
	size_t host_at;               /* offsetof the host (strs id) in one */
	size_t *(*end)(struct dasf_file *f);          /* the file's end in v */
	uint64_t (*key)(const void *e);               /* equal for repeats */
	bool (*equal)(const void *a, const void *b);  /* a repeat */
};

static uint32_t pair_hash(double a, double b)
{
	return ts_hash(a) * 31u ^ ts_hash(b);
}

static size_t *res_end(struct dasf_file *f)
{
	return &f->res_end;
}

static uint64_t res_key(const void *e)
{
	const struct dasf_res *r = e;
	return (uint64_t)r->host << 32 | pair_hash(r->ts, r->gpu_util);
}

static bool res_equal(const void *a, const void *b)
{
	const struct dasf_res *x = a, *y = b;
	return x->host == y->host && x->ts == y->ts && x->gpu_util == y->gpu_util && x->has_mem == y->has_mem &&
	       (!x->has_mem || x->gpu_mem == y->gpu_mem);
}

static size_t *mem_end(struct dasf_file *f)
{
	return &f->mem_end;
}

static uint64_t mem_key(const void *e)
{
	const struct dasf_mem *m = e;
	return (uint64_t)m->thread << 32 | pair_hash(m->ts, (double)m->tasks);
}

static bool mem_equal(const void *a, const void *b)
{
	const struct dasf_mem *x = a, *y = b;
	return x->host == y->host && x->thread == y->thread && x->ts == y->ts && x->tasks == y->tasks &&
	       x->has_bytes == y->has_bytes && (!x->has_bytes || x->bytes == y->bytes);
}

/* Leaves out the events of kind k that repeat an event of an earlier file, keeping the
 * order, and moves the files' ends; per file, how many were left out (ncopy) and the
 * earlier file of the first (copy_of). */
static void drop_repeats(struct dasf_db *db, const struct event_kind *k, size_t *ncopy, uint32_t *copy_of)
{
	struct dasf_map seen = { 0 };
	uint32_t *file_of = xmalloc((*k->n + 1) * sizeof(*file_of)); /* of each kept event */
	size_t f = 0, kept = 0;
	for (size_t i = 0; i < *k->n; i++) {
		for (; f < db->nfiles && i >= *k->end(&db->files[f]); f++)
			*k->end(&db->files[f]) = kept;
		const char *e = k->v + i * k->size;
		uint32_t first = dasf_map_get_or_add(&seen, k->key(e), (uint32_t)kept);
		if (first != kept && f < db->nfiles && file_of[first] != f && k->equal(k->v + first * k->size, e)) {
			if (!ncopy[f]++)
				copy_of[f] = file_of[first];
			continue;
		}
		memmove(k->v + kept * k->size, e, k->size);
		file_of[kept++] = (uint32_t)f;
	}
	for (; f < db->nfiles; f++)
		*k->end(&db->files[f]) = kept;
	*k->n = kept;
	free(file_of);
	dasf_map_free(&seen);
}

/* Whether a host has events of kind k in two files: else none repeats another (a repeat
 * is of the same host, in an earlier file), and no event needs a hash entry. */
static bool host_in_two_files(struct dasf_db *db, const struct event_kind *k)
{
	struct dasf_map file_of_host = { 0 };
	uint32_t host, last = DASF_NONE;
	size_t f = 0, last_f = 0;
	bool two = false;
	for (size_t i = 0; i < *k->n && !two; i++) {
		while (f < db->nfiles && i >= *k->end(&db->files[f]))
			f++;
		memcpy(&host, k->v + i * k->size + k->host_at, sizeof(host));
		if (host != last || f != last_f)
			two = dasf_map_get_or_add(&file_of_host, host, (uint32_t)f) != f;
		last = host;
		last_f = f;
	}
	dasf_map_free(&file_of_host);
	return two;
}

/* Events of kind k repeated in a later file (a copy): left out, one warning per file naming
 * the earlier one. */
static void check_event_copies(struct run *run, const struct event_kind *k, bool *warned)
{
	struct dasf_db *db = run->dasf;
	if (!host_in_two_files(db, k))
		return;
	size_t *ncopy = xcalloc(db->nfiles + 1, sizeof(*ncopy));
	uint32_t *copy_of = xmalloc((db->nfiles + 1) * sizeof(*copy_of));
	drop_repeats(db, k, ncopy, copy_of);
	for (size_t j = 0; j < db->nfiles; j++) {
		if (!ncopy[j])
			continue;
		char *a = text_sanitize_dup(db->files[copy_of[j]].path, 0);
		char *b = text_sanitize_dup(db->files[j].path, 0);
		diag_add(&run->diags, DIAG_WARN, db->files[j].path, -1, -1, -1,
			 "%zu %s%s of %s %s of %s (%s): a copy of a database? The repeats are left out, so each "
			 "counts once", ncopy[j], k->what, ncopy[j] == 1 ? "" : "s", b,
			 ncopy[j] == 1 ? "repeats one" : "repeat those", a, k->same);
		warned[j] = true;
		free(a);
		free(b);
	}
	free(ncopy);
	free(copy_of);
}

/* Whether the names of files i and j say they are two hosts' (DASF's plugin names). */
static bool named_other_hosts(const struct dasf_db *db, size_t i, size_t j)
{
	size_t li, lj;
	const char *hi, *hj, *bi, *bj;
	return name_parts(db->files[i].path, &li, &hi, &bi) && name_parts(db->files[j].path, &lj, &hj, &bj) &&
	       strcmp(hi, hj) != 0;
}

/* A worker's tasks in two files that neither copy each other nor differ in their names'
 * run parts (default traces-<uuid8>.msgpack names, one name in two directories): each
 * worker writes one database of a run, so these are two runs' (or a restarted worker's).
 * One warning per later file not warned of yet, naming the earlier file and the worker. */
static void check_shared_workers(struct run *run, const bool *warned)
{
	const struct dasf_db *db = run->dasf;
	struct dasf_map first_file = { 0 };
	bool *said = xcalloc(db->nfiles + 1, sizeof(*said));
	for (size_t k = 0; k < db->ntask; k++) {
		const struct dasf_task *t = &db->task[k];
		uint32_t i = dasf_map_get_or_add(&first_file, (uint64_t)t->host << 32 | t->thread, t->file);
		if (i == t->file || warned[t->file] || said[t->file] || named_other_hosts(db, i, t->file))
			continue;
		said[t->file] = true;
		char *a = text_sanitize_dup(db->files[i].path, 0), *b = text_sanitize_dup(db->files[t->file].path, 0);
		char *w = text_sanitize_dup(db->strs.str[t->thread], 0), *h = text_sanitize_dup(db->strs.str[t->host], 0);
		diag_add(&run->diags, DIAG_WARN, db->files[t->file].path, -1, -1, -1,
			 "databases of two runs (or of a restarted worker?): %s and %s both hold tasks of worker '%s' "
			 "on '%s' at other timestamps (not a copy); their events are added together (open each run's "
			 "files alone)", a, b, w, h);
		free(a);
		free(b);
		free(w);
		free(h);
	}
	dasf_map_free(&first_file);
	free(said);
}

void dasf_finalize(struct run *run)
{
	if (!run->dasf)
		return;
	bool *warned = xcalloc(run->dasf->nfiles + 1, sizeof(*warned));
	check_two_runs(run, warned);
	check_copies(run, warned);
	struct dasf_db *db = run->dasf;
	const struct event_kind res = { "GPU sample", "the same host, timestamp and values", (char *)db->res, &db->nres,
					sizeof(*db->res), offsetof(struct dasf_res, host),
					res_end, res_key, res_equal };
	const struct event_kind mem = { "Managed Memory event", "the same worker, timestamp and counts",
					(char *)db->mem, &db->nmem, sizeof(*db->mem), offsetof(struct dasf_mem, host),
					mem_end, mem_key, mem_equal };
	check_event_copies(run, &res, warned);
	check_event_copies(run, &mem, warned);
	check_shared_workers(run, warned);
	free(warned);
	if (run->dasf->ntask)
		check_cycle(run);
}
