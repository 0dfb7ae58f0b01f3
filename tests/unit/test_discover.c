/* SPDX-License-Identifier: MIT */
/* test_discover.c: the streamed listing of a run's rank dirs (model/steps/load_detect.c
 * steps_discover_*): while the ranks load, each planned rank's steps.jsonl is sized in
 * plan order; the count listed so far is in the model, the total reaches the progress
 * hook once, at the end. On a run dir with missing rank ids, a rank name that is a
 * file, two names for one rank id, a rank dir without steps.jsonl and one that cannot
 * be read, it sizes exactly the ranks today's full listing plans (steps_plan_files), in
 * that order; and a load whose listing ends after every rank is parsed gives the same
 * ranks, sources and diagnostics as one whose listing ends first. The load's open of a
 * rank's file shares discovery's stat (steps_discover_openat: one stat per file). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/run.h"
#include "model/steps/internal.h"
#include "model/steps/steps.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char root[4096];
static bool modes_hold; /* tu_modes_hold() */

static void put(const char *rel, const char *text)
{
	char p[4200];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	tu_write_file(p, text, strlen(text));
}

static void dir(const char *rel)
{
	char p[4200];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	tu_make_dir(p);
}

static const char steps3[] = "{\"step\":0,\"phases\":{\"forward\":0.01}}\n{\"step\":1,\"phases\":{\"forward\":0.02}}\n"
			     "{\"step\":2,\"phases\":{\"forward\":0.03}}\n";
static const char steps3_long[] = "{\"step\":0,\"phases\":{\"forward\":0.01}}\n{\"step\":1,\"phases\":{\"forward\":0.02}}\n"
				  "{\"step\":2,\"phases\":{\"forward\":0.03}}\n{\"step\":3,\"phases\":{\"forward\":0.04}}\n";

/* rank0, rank01 and rank1 (rank1 wins), rank2 with a bad line, rank3 a file, rank4
 * without steps.jsonl, rank5 with run.json, rank7 unreadable (chmod 000), rank9x and
 * notes/ not rank dirs; ids 6 and 8 missing. */
static void make_run(void)
{
	dir("rank0");
	put("rank0/steps.jsonl", steps3);
	dir("rank01");
	put("rank01/steps.jsonl", "{\"step\":0,\"phases\":{\"forward\":0.5}}\n");
	dir("rank1");
	put("rank1/steps.jsonl", steps3);
	dir("rank2");
	put("rank2/steps.jsonl", "{\"step\":0,\"phases\":{\"forward\":0.01}}\nnot json\n");
	put("rank3", "a file named like a rank dir\n");
	dir("rank4");
	dir("rank5");
	put("rank5/steps.jsonl", steps3);
	put("rank5/run.json", "{\"name\":\"disc\",\"world_size\":10}");
	dir("rank7");
	put("rank7/steps.jsonl", steps3);
	dir("rank9x");
	put("rank9x/steps.jsonl", steps3);
	dir("notes");
	char p[4200];
	snprintf(p, sizeof(p), "%s/rank7", root);
	chmod(p, 0);
}

struct hook {
	atomic_llong done, total;
	atomic_int total_calls;
};

static void on_progress(void *ud, long long done, long long total)
{
	struct hook *h = ud;
	atomic_fetch_add(&h->done, done);
	atomic_fetch_add(&h->total, total);
	if (total)
		atomic_fetch_add(&h->total_calls, 1);
}

static struct run *new_run(const struct opts *o)
{
	return run_open(NULL, 0, o, NULL);
}

/* The sizes discovery finds against a stat of each file of today's plan. */
static void test_sizes(void)
{
	struct steps_rank_file *files;
	size_t nf = steps_plan_files(root, &files);
	struct task_list t = { 0 };
	steps_plan(root, &t, NULL);
	ok(nf == 6 && t.n == 6, "6 ranks planned: 0 1 2 4 5 7, and the file rank3 is not one (%zu, %zu)", nf, t.n);
	bool same = nf == t.n;
	for (size_t i = 0; same && i < t.n; i++)
		same = t.v[i].rank == files[i].rank && strcmp(t.v[i].dir, files[i].dir) == 0;
	ok(same, "discovery walks the ranks of the full listing, in its order");
	static const struct opts o;
	struct run *run = new_run(&o);
	struct steps_model *m = steps_model_get(run);
	struct hook h = { 0 };
	struct load_ctx ctx = { .run = run, .opts = &o, .progress = on_progress, .ud = &h };
	long long *sizes = xcalloc(t.n, sizeof(*sizes));
	steps_expect_ranks(m, t.n);
	long long total = steps_discover_end(steps_discover_begin(&ctx, m, &t, sizes));
	bool match = true;
	long long sum = 0;
	for (size_t i = 0; i < t.n; i++) {
		struct stat st;
		long long want = stat(files[i].steps, &st) == 0 ? (long long)st.st_size : 0;
		match &= sizes[i] == want;
		sum += want;
	}
	ok(match, "each rank's size is its steps.jsonl's (0: none, or not readable)");
	ok(total == sum && atomic_load(&h.total) == sum, "the total is their sum (%lld)", total);
	ok(atomic_load(&h.total_calls) == 1, "the total reaches the progress hook once, when every rank is listed");
	ok(!m->listing && m->listed == t.n, "the model says the listing is over, %zu of %zu listed", m->listed, t.n);
	free(sizes);
	run_free(run);

	/* cancelled before it starts: nothing listed, no total */
	atomic_bool cancel = true;
	run = new_run(&o);
	m = steps_model_get(run);
	struct hook h2 = { 0 };
	ctx = (struct load_ctx){ .run = run, .opts = &o, .progress = on_progress, .ud = &h2, .cancel = &cancel };
	total = steps_discover_end(steps_discover_begin(&ctx, m, &t, NULL));
	ok(total == 0 && m->listed == 0 && !m->listing, "a cancelled load lists nothing and ends the listing");
	run_free(run);
	steps_tasks_free(&t);
	steps_rank_files_free(files);
}

/* The load's open after discovery sized the ranks takes discovery's stat (one stat per
 * file): a file grown since is read to the size discovery saw; without discovery the
 * open takes a stat of its own. A missing file fails with discovery's ENOENT. */
static void test_shared_stat(void)
{
	struct task_list t = { 0 };
	steps_plan(root, &t, NULL);
	static const struct opts o;
	struct run *run = new_run(&o);
	struct steps_model *m = steps_model_get(run);
	struct load_ctx ctx = { .run = run, .opts = &o };
	long long sizes[6] = { 0 };
	steps_expect_ranks(m, t.n);
	struct steps_discovery *d = steps_discover_begin(&ctx, m, &t, t.n == 6 ? sizes : NULL);
	for (bool on = true; on;) {   /* until every rank is sized */
		pthread_mutex_lock(&m->lock);
		on = m->listing;
		pthread_mutex_unlock(&m->lock);
		if (on)
			usleep(1000);
	}
	put("rank0/steps.jsonl", steps3_long);
	char *rank0 = steps_task_file(&t.v[0]), *rank4 = steps_task_file(&t.v[3]);
	struct stat st;
	int fd = steps_discover_openat(d, 0, AT_FDCWD, rank0, &st);
	ok(fd >= 0 && st.st_size == sizes[0] && sizes[0] == (long long)strlen(steps3),
	   "the load's open takes discovery's stat: the size then (%lld)", (long long)st.st_size);
	if (fd >= 0)
		close(fd);
	fd = steps_discover_openat(NULL, 0, AT_FDCWD, rank0, &st);
	ok(fd >= 0 && st.st_size == (long long)strlen(steps3_long), "without discovery: a stat of its own");
	if (fd >= 0)
		close(fd);
	errno = 0;
	ok(steps_discover_openat(d, 3, AT_FDCWD, rank4, &st) < 0 && errno == ENOENT,
	   "rank4 has no steps.jsonl: ENOENT from discovery's stat");
	steps_discover_end(d);
	put("rank0/steps.jsonl", steps3);
	free(rank0);
	free(rank4);
	run_free(run);
	steps_tasks_free(&t);
}

/* Everything a load leaves: rank ids in order with their records, sources, diagnostics. */
static char *load_digest(const char *delay)
{
	if (delay)
		setenv("TSCOPE_LIST_DELAY_MS", delay, 1);
	else
		unsetenv("TSCOPE_LIST_DELAY_MS");
	struct opts o = { .no_index = true, .jobs = 1, .format = "pytscope" }; /* one loader thread: diagnostics in rank order */
	const char *paths[] = { root };
	struct run *run = run_open(paths, 1, &o, NULL);
	size_t cap = 1 << 16, n = 0;
	char *out = xcalloc(1, cap);
	struct steps_model *m = run->steps;
	for (size_t i = 0; m && i < steps_nranks(m); i++)
		n += (size_t)snprintf(out + n, cap - n, "rank %ld\n", (long)steps_rank_id(m, i));
	for (size_t i = 0; i < run->nsrc && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "src %s %lld %zu %zu %d\n", run->src[i].path, run->src[i].bytes,
				      run->src[i].records, run->src[i].skipped, run->src[i].err);
	for (size_t i = 0; i < run->diags.n && n < cap; i++) {
		char buf[1024];
		diag_format(&run->diags.v[i], buf, sizeof(buf));
		n += (size_t)snprintf(out + n, cap - n, "diag %s\n", buf);
	}
	run_free(run);
	unsetenv("TSCOPE_LIST_DELAY_MS");
	return out;
}

static void test_same_load(void)
{
	char *first = load_digest(NULL);
	char *last = load_digest("40"); /* 7 x 40 ms: the ranks are parsed long before */
	ok(strcmp(first, last) == 0, "ranks, sources and diagnostics do not depend on when the listing ends");
	ok(strstr(first, "rank 0\nrank 1\nrank 2\nrank 4\nrank 5\nrank 7\n") != NULL, "the ranks of the plan, by id");
	if (!modes_hold)
		tap_skip("unreadable rank dir: file modes do not hold here (root could not drop CAP_DAC_OVERRIDE)");
	else
		ok(strstr(first, "rank7/steps.jsonl") && strstr(first, "cannot open"), "the unreadable rank is diagnosed");
	if (strcmp(first, last) != 0)
		fprintf(stderr, "# listing first:\n%s# listing last:\n%s", first, last);
	free(first);
	free(last);
}

int main(void)
{
	if (!tu_mkdtemp(root, sizeof(root), "discover-")) {
		perror("mkdtemp");
		return 1;
	}
	modes_hold = tu_modes_hold(root);
	make_run();
	test_sizes();
	test_shared_stat();
	test_same_load();
	char p[4200];
	snprintf(p, sizeof(p), "%s/rank7", root);
	chmod(p, 0755);
	tu_rm_rf(root);
	return tap_done();
}
