/* SPDX-License-Identifier: MIT */
/* test_shard.c: what one `tscope-tui index --shard K/N` touches (model/index/index.h
 * index_shard_dirs, model/trace/index.c trace_index_shard, model/run.c): the rank dirs
 * of a shard from the listing of the run dir alone; the shard's open lists the run dir
 * once and reads only its own rank dirs (listings and run.json files counted by
 * model/dirlist.h), runs only the loaders whose data goes into the index; trace files
 * go to the shard of the rank dir they are in, the others are split by path; the plan
 * sorted by rank id, as shards count it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dirlist.h"
#include "model/index/index.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/trace/internal.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

#define NRANKS 6

static void write_rank(const char *run, int k)
{
	char *dir = xasprintf("%s/rank%d", run, k);
	tu_make_dir(dir);
	char *p = xasprintf("%s/steps.jsonl", dir);
	static const char lines[] = "{\"step\": 0, \"phases\": {\"forward\": 0.5, \"comm\": 0.1}}\n"
				    "{\"step\": 1, \"phases\": {\"forward\": 0.6, \"comm\": 0.1}}\n";
	tu_write_file(p, lines, strlen(lines));
	free(p);
	p = xasprintf("%s/run.json", dir);
	char *meta = xasprintf("{\"name\": \"shard\", \"rank\": %d, \"world_size\": %d}", k, NRANKS);
	tu_write_file(p, meta, strlen(meta));
	free(meta);
	free(p);
	free(dir);
}

static void test_dirs(const char *run)
{
	struct index_shard_dirs sd;
	index_shard_dirs(run, 0, 2, &sd);
	is_int((long)sd.n, NRANKS, "every rank dir of the run");
	is_int(index_shard_dir_of(&sd, "rank0"), 1, "rank0 is shard 0/2's");
	is_int(index_shard_dir_of(&sd, "rank2"), 1, "rank2 is shard 0/2's");
	is_int(index_shard_dir_of(&sd, "rank3"), 0, "rank3 is not");
	is_int(index_shard_dir_of(&sd, "rank5"), 0, "rank5 is not");
	is_int(index_shard_dir_of(&sd, "worker1"), -1, "worker1 is no rank dir");
	index_shard_dirs_free(&sd);
	index_shard_dirs(run, 1, 2, &sd);
	ok(index_shard_dir_of(&sd, "rank3") == 1 && index_shard_dir_of(&sd, "rank0") == 0, "shard 1/2: the other half");
	index_shard_dirs_free(&sd);
}

/* The trace files of shard k of 2 among a fixed set: its rank dirs' and a slice of the others. */
static char *traces_of(const char *run, unsigned k)
{
	const char *rel[] = { "rank4/b.pt.trace.json", "top2.json", "rank0/a.pt.trace.json", "worker1/c.json",
			      "top1.json" };
	size_t n = ARRAY_LEN(rel);
	char **v = xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xasprintf("%s/%s", run, rel[i]);
	trace_index_shard(run, v, &n, k, 2);
	size_t rl = strlen(run) + 1;
	char *all = xstrdup("");
	for (size_t i = 0; i < n; i++) {
		char *next = xasprintf("%s%s%s", all, i ? " " : "", v[i] + rl);
		free(all);
		all = next;
		free(v[i]);
	}
	free(v);
	return all;
}

static void test_traces(const char *run)
{
	char *a = traces_of(run, 0), *b = traces_of(run, 1);
	is_str(a, "rank0/a.pt.trace.json top1.json", "shard 0/2: its rank dir's trace, the first of the others");
	is_str(b, "rank4/b.pt.trace.json top2.json worker1/c.json", "shard 1/2: its rank dir's trace, the rest");
	free(a);
	free(b);
}

/* An index shard's open inside a scope: listings and files read. */
static void test_open(const char *run)
{
	struct opts o = { .jobs = 1, .index_build = true, .shard_k = 0, .shard_n = 2 };
	const char *paths[] = { run };
	dirlist_scope_begin();
	size_t lists = dirlist_reads(), files = dirlist_file_reads();
	struct run *r = run_open(paths, 1, &o, NULL);
	lists = dirlist_reads() - lists;
	files = dirlist_file_reads() - files;
	dirlist_scope_end();
	is_int((long)steps_nranks(r->steps), 3, "the shard loads its 3 ranks");
	is_int((long)lists, 1 + 3 + 1, "listed: the run dir, its own 3 rank dirs and worker1 (every shard's)");
	is_int((long)files, 3, "only its own ranks' run.json are read");
	ok(r->index_path != NULL, "its part is written");
	run_free(r);
	/* a whole index of the same run reads every rank */
	struct opts w = { .jobs = 1, .index_build = true };
	dirlist_scope_begin();
	files = dirlist_file_reads();
	r = run_open(paths, 1, &w, NULL);
	files = dirlist_file_reads() - files;
	dirlist_scope_end();
	is_int((long)steps_nranks(r->steps), NRANKS, "a whole index loads every rank");
	is_int((long)files, NRANKS, "and reads every run.json once");
	run_free(r);
}

/* n entries with ids from ids[], dir "d<id>" and steps "s<id>" each, laid out as a
 * plan's (one allocation: what steps_rank_files_free frees). */
static struct steps_rank_file *files_of(const long *ids, size_t n)
{
	enum { ID_CHARS = 24 }; /* "d" or "s", a long, the NUL */
	struct steps_rank_file *v = xcalloc(1, (n ? n : 1) * (sizeof(*v) + 2 * ID_CHARS));
	char *p = (char *)(v + (n ? n : 1));
	for (size_t i = 0; i < n; i++, p += 2 * ID_CHARS) {
		snprintf(p, ID_CHARS, "d%ld", ids[i]);
		snprintf(p + ID_CHARS, ID_CHARS, "s%ld", ids[i]);
		v[i] = (struct steps_rank_file){ ids[i], p, p + ID_CHARS };
	}
	return v;
}

/* Sorted: ascending ids, each entry with its own strings. */
static bool sorted_whole(const struct steps_rank_file *v, size_t n)
{
	char want[32];
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "d%ld", v[i].rank);
		if ((i && v[i].rank <= v[i - 1].rank) || strcmp(v[i].dir, want) != 0)
			return false;
	}
	return true;
}

static void test_plan_sort(void)
{
	static const long dense[] = { 0, 1, 10, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9 }; /* rank{k} in name order */
	static const long sparse[] = { 5, 64, 7, LONG_MAX, 4096, -3, LONG_MIN, 12 };
	static const long shifted[] = { 9, 7, 8, 10 };
	struct { const long *ids; size_t n; const char *what; } c[] = {
		{ dense, 0, "empty" }, { dense, 1, "one" },
		{ dense, 13, "ids 0-12 in name order (dense: placed)" },
		{ sparse, ARRAY_LEN(sparse), "sparse, negative and extreme ids (sorted)" },
		{ shifted, ARRAY_LEN(shifted), "ids 7-10 (dense from 7)" },
	};
	for (size_t k = 0; k < ARRAY_LEN(c); k++) {
		struct steps_rank_file *v = files_of(c[k].ids, c[k].n);
		steps_rank_files_sort(v, c[k].n);
		bool found = true;
		for (size_t i = 0; i < c[k].n; i++) {
			const struct steps_rank_file *f = steps_rank_files_find(v, c[k].n, c[k].ids[i]);
			found = found && f && f->rank == c[k].ids[i];
		}
		ok(sorted_whole(v, c[k].n) && found && !steps_rank_files_find(v, c[k].n, 13) &&
		   !steps_rank_files_find(v, c[k].n, -1) && !steps_rank_files_find(v, c[k].n, 63),
		   "plan sort: %s; every id found, absent ones not", c[k].what);
		steps_rank_files_free(v);
	}
	static const long twice[] = { 2, 0, 2, 1 }; /* four ids in [0, 4) but one twice */
	struct steps_rank_file *v = files_of(twice, 4);
	steps_rank_files_sort(v, 4);
	ok(v[0].rank == 0 && v[1].rank == 1 && v[2].rank == 2 && v[3].rank == 2 && strcmp(v[3].dir, "d2") == 0 &&
	   strcmp(v[1].dir, "d1") == 0, "an id twice: sorted, every entry kept");
	steps_rank_files_free(v);
}

int main(void)
{
	char buf[512];
	const char *run = tu_mkdtemp(buf, sizeof(buf), "tscope-shard.");
	if (!ok(run != NULL, "temp dir"))
		return tap_done();
	for (int k = 0; k < NRANKS; k++)
		write_rank(run, k);
	char *w = xasprintf("%s/worker1", run);
	tu_make_dir(w);
	free(w);
	test_dirs(run);
	test_traces(run);
	test_open(run);
	test_plan_sort();
	tu_rm_rf(run);
	return tap_done();
}
