/* SPDX-License-Identifier: MIT */
/* checks.c: load-time checks over a whole DASF run, once every file was read (the
 * subsystem's finalize): a dependency cycle (no critical path), databases of two runs
 * (one host's, or <name>-<unixtime> prefixes that differ), and a database read twice
 * (a copy under another name). DASF itself adds every database given (spec formats.md
 * §1.4: no merge, no dedupe), and so do the views; these only warn, naming the files,
 * so that a summed result is never silent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/run.h"
#include "model/text.h"
#include "model/xalloc.h"

static void check_cycle(struct run *run)
{
	struct dasf_db *db = run->dasf;
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
 * the run part before the plugin and the plugin-and-host part after it; false for
 * other names. */
static bool name_parts(const char *path, size_t *run_len, const char **plugin_host, const char **base)
{
	static const char *const plugins[] = { "-TracePlugin-", "-ResourceMonitor-" };
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	for (size_t i = 0; i < ARRAY_LEN(plugins); i++) {
		const char *p = strstr(*base, plugins[i]);
		if (p && p > *base) {
			*run_len = (size_t)(p - *base);
			*plugin_host = p;
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
		 "their tasks are added together (open each run's files alone)", one_host ? " for one host" : "", a, b);
	free(a);
	free(b);
}

/* The earlier file of file j's host and plugin whose run part differs from j's (two runs
 * or two profilers), or nfiles. */
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
 * host's and plugin's files warn once per later file; files of other hosts once per new
 * prefix (file names without a -<unixtime> part are not compared across hosts). */
static void check_two_runs(struct run *run)
{
	const struct dasf_db *db = run->dasf;
	for (size_t j = 1; j < db->nfiles; j++) {
		size_t i = same_host_other_run(db, j);
		if (i < db->nfiles) {
			warn_two_runs(run, i, j, true);
			continue;
		}
		i = new_run_prefix(db, j);
		if (i < db->nfiles)
			warn_two_runs(run, i, j, false);
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

/* Tasks of a later file with the key and timestamp of a task of an earlier one: a copy
 * of a database read twice. One warning per later file, naming the earlier one. */
static void check_copies(struct run *run)
{
	const struct dasf_db *db = run->dasf;
	struct dasf_map seen = { 0 };
	uint32_t *copy_of = xmalloc((db->nfiles + 1) * sizeof(*copy_of));
	uint32_t *example = xmalloc((db->nfiles + 1) * sizeof(*example));
	size_t *ncopy = xcalloc(db->nfiles + 1, sizeof(*ncopy));
	for (size_t i = 0; i < db->ntask; i++) {
		const struct dasf_task *t = &db->task[i];
		uint32_t first = dasf_map_get_or_add(&seen, (uint64_t)t->key << 32 | ts_hash(t->ts), (uint32_t)i);
		const struct dasf_task *f = &db->task[first];
		if (first == i || f->key != t->key || !(f->ts == t->ts) || f->file == t->file)
			continue;
		if (!ncopy[t->file]++) {
			copy_of[t->file] = f->file;
			example[t->file] = t->key;
		}
	}
	for (size_t j = 0; j < db->nfiles; j++) {
		if (!ncopy[j])
			continue;
		char *a = text_sanitize_dup(db->files[copy_of[j]].path, 0);
		char *b = text_sanitize_dup(db->files[j].path, 0);
		char *k = text_sanitize_dup(db->keys.str[example[j]], 0);
		diag_add(&run->diags, DIAG_WARN, db->files[j].path, -1, -1, -1,
			 "%zu task%s of %s %s of %s (the same key at the same timestamp, e.g. '%s'): "
			 "a copy of a database? Both are added, so that time counts twice", ncopy[j],
			 ncopy[j] == 1 ? "" : "s", b, ncopy[j] == 1 ? "repeats a task" : "repeat tasks", a, k);
		free(a);
		free(b);
		free(k);
	}
	dasf_map_free(&seen);
	free(copy_of);
	free(example);
	free(ncopy);
}

void dasf_finalize(struct run *run)
{
	if (!run->dasf)
		return;
	check_two_runs(run);
	check_copies(run);
	if (run->dasf->ntask)
		check_cycle(run);
}
