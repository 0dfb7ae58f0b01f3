/* SPDX-License-Identifier: MIT */
/* test_index_stream.c: `tscope-tui index` writes each rank's body into the part as the
 * rank is sealed and takes the summary's inputs then (model/steps/load_stream.c,
 * seal.h): the index, the run it leaves and the next open give a plain load's views,
 * whatever the ranks' steps and with any number of loader threads, whole or in shards;
 * the bodies lie in the order the ranks were sealed; and a load that cannot write the
 * part (a pipe among the sources, a write that fails) parses again the ranks whose
 * bodies it had freed. */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"
#include "model/steps/steps.h"
#include "model/table.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/index_fixture.h"

/* Every view the summary and the steps give, and the aligned set. */
static bool same_run(struct run *want, struct run *got)
{
	bool grids = steps_naligned(want->steps) ? same_heat(want, got)
						 : !analysis_heatmap(got, HEAT_COMPUTE);
	return steps_naligned(want->steps) == steps_naligned(got->steps) &&
	       steps_nunion(want->steps) == steps_nunion(got->steps) && same_view(want, got, "ranks") &&
	       same_view(want, got, "findings") && same_view(want, got, "budget") && same_view(want, got, "steps") &&
	       grids;
}

/* Every rank as the seal leaves it, its body freed or not: sealed, with room for its n
 * records and no more (a body read back from the part holds n; an append trusts cap). */
static bool left_sealed(const struct steps_model *m)
{
	bool good = true;
	for (size_t i = 0; i < m->nrank; i++)
		good &= m->rank[i]->sealed && m->rank[i]->cap == m->rank[i]->n;
	return good;
}

static void test_kinds(const char *kinds, const char *what)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "streamkinds");
	write_kinds_run(dir, kinds);
	static const struct opts plain = { .no_index = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	for (int jobs = 1; jobs <= 3; jobs += 2) {
		struct run *got = open_dir(dir, &(struct opts){ .index_build = true, .jobs = jobs });
		ok(got->index_path && steps_bodies_read(got->steps) == 0 && same_run(want, got),
		   "%s, --jobs %d: the run an index build leaves = a plain load's, no body read back", what, jobs);
		ok(left_sealed(got->steps), "%s, --jobs %d: each rank left sealed, room for its records alone", what,
		   jobs);
		run_free(got);
		got = open_dir(dir, &dflt);
		ok(steps_bodies_resident(got->steps) == 0 && same_run(want, got),
		   "%s, --jobs %d: the next open, from the index and its summary, too", what, jobs);
		run_free(got);
	}
	run_free(want);
	tu_rm_rf(dir);
}

/* Two shards (`index --shard K/2`): each streams its part and writes its part of the
 * summary from the inputs taken at the seal; the open merges them into a plain load's
 * views without reading a rank's steps. */
static void test_shards(const char *kinds, const char *what)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "streamshards");
	write_kinds_run(dir, kinds);
	struct run *want = open_dir(dir, &(struct opts){ .no_index = true, .jobs = 1 });
	size_t resident = 0;
	for (unsigned k = 0; k < 2; k++) {
		struct run *shard = open_dir(dir, &(struct opts){ .shard_k = k, .shard_n = 2, .jobs = 3 });
		resident += shard->index_path ? steps_bodies_resident(shard->steps) : 99;
		run_free(shard);
	}
	struct run *got = open_dir(dir, &(struct opts){ 0 });
	ok(resident == 0 && steps_bodies_read(got->steps) == 0 && same_run(want, got),
	   "%s, 2 shards: no body kept after its seal (%zu), the merged open = a plain load's, no body read", what,
	   resident);
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* The first line of run's steps view. */
static char *steps_header(struct run *run)
{
	char *csv = view_csv(run, "steps"), *nl = strchr(csv, '\n');
	if (nl)
		*nl = '\0';
	return csv;
}

static bool header_is(struct run *run, const char *want, const char *how)
{
	char *got = steps_header(run);
	bool same = strcmp(got, want) == 0;
	if (!same)
		printf("# %s: %s\n", how, got);
	free(got);
	return same;
}

/* Ranks that record different metrics: rank2 adds optimizer, rank10 (read before
 * rank2 in name order) data and comm. The steps view lists the metrics as ranks by id
 * meet them (phases, then memory), with any number of loader threads, from the index
 * and from shards, and its step times are the same. */
static void test_metric_order(void)
{
	static const char want_header[] = "rank,step,timestamp,step_time_ms,forward_ms,backward_ms,optimizer_ms,"
					  "data_ms,comm_ms,mem_peak_alloc_mb";
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "streammetrics");
	write_kinds_run(dir, "NNnNNNNNNNcNN");
	struct run *want = open_dir(dir, &(struct opts){ .no_index = true, .jobs = 1 });
	ok(header_is(want, want_header, "one thread"), "metrics in the run's order with one loader thread");
	bool all = true;
	for (int i = 0; i < 8; i++) {
		struct run *got = open_dir(dir, &(struct opts){ .no_index = true, .jobs = 3 });
		all &= header_is(got, want_header, "three threads") && same_view(want, got, "steps");
		run_free(got);
	}
	ok(all, "... with three loader threads, eight loads");
	run_free(open_dir(dir, &(struct opts){ .index_build = true, .jobs = 3 }));
	struct run *got = open_dir(dir, &(struct opts){ 0 });
	ok(steps_bodies_resident(got->steps) == 0 && header_is(got, want_header, "index") &&
	   same_view(want, got, "steps"), "... from the index a three-thread build wrote");
	run_free(got);
	for (unsigned k = 0; k < 2; k++)
		run_free(open_dir(dir, &(struct opts){ .shard_k = 1 - k, .shard_n = 2, .jobs = 3 }));
	got = open_dir(dir, &(struct opts){ 0 });
	ok(steps_bodies_resident(got->steps) == 0 && header_is(got, want_header, "shards") &&
	   same_view(want, got, "steps"), "... from two shards (the later ranks' written first)");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* Rank r's body offset in the part of an open from the index. */
static uint64_t body_off(struct run *run, int rank)
{
	long ri = steps_rank_index(run->steps, rank);
	return ri < 0 ? 0 : run->steps->rank[ri]->body_off;
}

/* With one loader thread the ranks are sealed in name order: rank10 before rank2. */
static void test_order(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "streamorder");
	write_kinds_run(dir, "cccccccccccc");
	run_free(open_dir(dir, &(struct opts){ .index_build = true, .jobs = 1 }));
	struct run *got = open_dir(dir, &(struct opts){ 0 });
	uint64_t o1 = body_off(got, 1), o10 = body_off(got, 10), o2 = body_off(got, 2);
	ok(o1 && o1 < o10 && o10 < o2, "the bodies lie in the order the ranks were sealed (rank1 %llu, rank10 %llu, "
	   "rank2 %llu)", (unsigned long long)o1, (unsigned long long)o10, (unsigned long long)o2);
	run_free(got);
	tu_rm_rf(dir);
}

/* Entries of directory path (0: none, or no such directory). */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

struct feeder {
	char path[700];
	const char *bytes;
	size_t n;
};

static void *feed(void *ud)
{
	struct feeder *f = ud;
	FILE *w = fopen(f->path, "w");
	if (w) {
		fwrite(f->bytes, 1, f->n, w);
		fclose(w);
	}
	return NULL;
}

/* Rank 5 of 6 (sealed last with one thread) reads its steps from a pipe: the part is
 * dropped, ranks 0-4 (whose bodies went) parsed again, and the run is a plain load's. */
static void test_pipe(void)
{
	char dir[512], twin[512], path[700], idx[600];
	tu_mkdtemp(dir, sizeof(dir), "streampipe");
	tu_mkdtemp(twin, sizeof(twin), "streampipetwin");
	write_kinds_run(dir, "cccccc");
	write_kinds_run(twin, "cccccc");
	snprintf(path, sizeof(path), "%s/rank5/steps.jsonl", dir);
	char *bytes = tu_read_file(path);
	struct feeder f = { .bytes = bytes, .n = bytes ? strlen(bytes) : 0 };
	snprintf(f.path, sizeof(f.path), "%s", path);
	unlink(path);
	pthread_t t;
	bool fed = mkfifo(path, 0644) == 0 && pthread_create(&t, NULL, feed, &f) == 0;
	struct run *got = fed ? open_dir(dir, &(struct opts){ .index_build = true, .jobs = 1 }) : NULL;
	if (fed)
		pthread_join(t, NULL);
	struct run *want = open_dir(twin, &(struct opts){ .no_index = true });
	snprintf(idx, sizeof(idx), "%s/.tscope-index", dir);
	ok(got && !got->index_path && tu_has_diag(got, "not a regular file (a pipe)", NULL) && same_run(want, got),
	   "a pipe among the sources: no index, and the ranks whose bodies went are parsed again");
	ok(entries(idx) == 0, "no part or temporary file is left (%d entries)", entries(idx));
	run_free(got);
	run_free(want);
	free(bytes);
	tu_rm_rf(dir);
	tu_rm_rf(twin);
}

/* The part's writes fail past 64 KB (RLIMIT_FSIZE): the run is still a plain load's. */
static void test_write_fails(void)
{
	char dir[512], idx[600];
	tu_mkdtemp(dir, sizeof(dir), "streamfull");
	write_lazy_run(dir);
	struct run *want = open_dir(dir, &(struct opts){ .no_index = true });
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 64 << 10;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	bool limited = setrlimit(RLIMIT_FSIZE, &lim) == 0;
	struct run *got = open_dir(dir, &(struct opts){ .index_build = true, .jobs = 1 });
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, was);
	snprintf(idx, sizeof(idx), "%s/.tscope-index", dir);
	ok(limited && !got->index_path && tu_has_diag(got, "index not written", NULL) && same_run(want, got),
	   "the part's writes fail: no index, and the run is a plain load's");
	ok(entries(idx) == 0, "no part or temporary file is left (%d entries)", entries(idx));
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* A rank none of whose steps records a phase the run records elsewhere: that budget
 * line is n/a for the rank (not 0 s), and still measured for the others and the run;
 * the same from a plain load, the index build's seal and the summary of the next open. */
static bool lines_as_recorded(struct run *run)
{
	const struct budget *with = analysis_budget(run, 0), *without = analysis_budget(run, 1);
	const struct budget *all = analysis_budget_all(run);
	return with && without && all && with->line[BUDGET_DATA].measured && with->line[BUDGET_COMM].measured &&
	       !without->line[BUDGET_DATA].measured && !without->line[BUDGET_COMM].measured &&
	       without->line[BUDGET_USEFUL].measured && !without->judged && with->judged &&
	       all->line[BUDGET_DATA].measured && all->line[BUDGET_COMM].measured;
}

static void test_lines_per_rank(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "streamlines");
	write_kinds_run(dir, "cnc");
	static const struct opts plain = { .no_index = true }, build = { .index_build = true, .jobs = 1 }, dflt = { 0 };
	struct run *run = open_dir(dir, &plain);
	ok(lines_as_recorded(run), "a rank without data and comm phases: those budget lines n/a for it (plain load)");
	run_free(run);
	run = open_dir(dir, &build);
	ok(run->index_path && lines_as_recorded(run), "... from the index build's seal");
	run_free(run);
	run = open_dir(dir, &dflt);
	ok(steps_bodies_read(run->steps) == 0 && lines_as_recorded(run), "... and from the summary, no body read");
	run_free(run);
	tu_rm_rf(dir);
}

int main(void)
{
	static const struct {
		const char *kinds, *what;
	} runs[] = {
		{ "cccc", "contiguous ranks" },
		{ "cllc", "ranks from step 0 and from step 3 (the aligned set starts later)" },
		{ "cscc", "every 7th step missing in one rank (the aligned set is not contiguous)" },
		{ "grmcSTLM", "gaps, restarts, missing values, phases not in every rank" },
		{ "gcer", "a rank without records" },
		{ "cgbc", "a rank with only bad lines" },
		{ "cxcc", "a rank with bad lines among its records" },
		{ "c", "one rank" },
	};
	for (size_t i = 0; i < ARRAY_LEN(runs); i++)
		test_kinds(runs[i].kinds, runs[i].what);
	test_shards("cccccc", "contiguous ranks");
	test_shards("cllccl", "ranks from step 0 and from step 3");
	test_shards("ccnNcc", "ranks without a data or comm phase");
	test_lines_per_rank();
	test_metric_order();
	test_order();
	test_pipe();
	test_write_fails();
	return tap_done();
}
