/* SPDX-License-Identifier: MIT */
/* test_dasf_checks.c: the DASF load-time checks (model/dasf/checks.c) on small databases
 * written with tests/tools/dasf_writer.h: a load runs no analysis (the analyses are lazy:
 * opening a run, --export sources or the explorer's first frame does not pay for them),
 * yet a dependency cycle is still named in the sources (cycles through dependencies or
 * dependents, a key on itself, edges named from both ends), and tasks, GPU samples and
 * Managed Memory events repeated by a copy or written twice are still counted. */
#include <stdlib.h>
#include <string.h>
#include "model/dasf/internal.h"
#include "model/run.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/tools/dasf_writer.h"

static char tmpdir[4096];
static const struct opts no_opts;

/* Tasks of one database: key "<fn>-1" on worker-h-<w>, dependencies and dependents as
 * given (NULL: none). */
struct task {
	const char *fn;
	int w;
	double ts;
	const char *dep, *dnt;
};

static char *write_db(const char *name, const struct task *t, size_t n)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	struct dw w;
	if (dw_open(&w, path) < 0)
		return path;
	for (size_t i = 0; i < n; i++) {
		char key[32], thread[16];
		snprintf(key, sizeof(key), "%s-1", t[i].fn);
		snprintf(thread, sizeof(thread), "worker-h-%d", t[i].w);
		const char *deps[1] = { t[i].dep }, *dnts[1] = { t[i].dnt };
		dw_compute(&w, &(struct dw_task){ "h", thread, key, t[i].fn, t[i].ts, 1.0, 1000, deps, t[i].dep != NULL,
						  dnts, t[i].dnt != NULL });
	}
	dw_close(&w);
	return path;
}

static struct run *open_db(const char *name, const struct task *t, size_t n)
{
	char *path = write_db(name, t, n);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	free(path);
	return run;
}

/* A fixture of every event type, edges named from both ends, no cycle: the load leaves
 * the analyses to whoever asks. */
static void test_load_runs_no_analysis(void)
{
	char *dir = xasprintf("%s/fx", tmpdir);
	tu_make_dir(dir);
	dw_write_fixture(dir);
	struct run *run = run_open((const char *const[]){ dir }, 1, &no_opts, NULL);
	ok(run && run->dasf && run->dasf->ntask == 7 && !run->dasf->an,
	   "a load-only open (every check run) leaves the analyses undone (db->an NULL)");
	ok(run && !tu_has_diag(run, "cycle", NULL), "fixture: no cycle said");
	run_free(run);
	free(dir);
}

static void test_cycles(void)
{
	static const struct task deps[] = { { "a", 0, 10, "c-1", NULL }, { "b", 0, 11, "a-1", NULL },
					    { "c", 1, 12, "b-1", NULL }, { "d", 1, 13, NULL, NULL },
					    { "e", 1, 14, "d-1", NULL } };
	struct run *run = open_db("deps.msgpack", deps, 5);
	ok(tu_has_diag(run, "the task graph has a dependency cycle through task '", NULL) &&
	   tu_has_diag(run, "(3 tasks in the cycle, 3 in or behind it): the critical path is n/a", NULL),
	   "a -> b -> c -> a by dependencies: the cycle named, 3 tasks");
	run_free(run);
	static const struct task dnts[] = { { "x", 0, 10, NULL, "y-1" }, { "y", 0, 11, NULL, "x-1" },
					    { "z", 1, 12, "x-1", NULL } };
	run = open_db("dnts.msgpack", dnts, 3);
	ok(tu_has_diag(run, "(2 tasks in the cycle, 3 in or behind it)", NULL),
	   "x <-> y by dependents, z behind it: 2 in the cycle, 3 in or behind it");
	run_free(run);
	static const struct task self[] = { { "s", 0, 10, "s-1", "s-1" }, { "t", 0, 11, "s-1", NULL } };
	run = open_db("self.msgpack", self, 2);
	ok(run->dasf && !tu_has_diag(run, "cycle", NULL) && !run->dasf->an,
	   "a key depending on itself is no cycle (as the analysis has it), nor analysed");
	run_free(run);
	static const struct task diamond[] = { { "p", 0, 10, NULL, "q-1" }, { "q", 0, 11, "p-1", "s-1" },
					       { "r", 1, 11, "p-1", "s-1" }, { "s", 1, 12, "q-1", NULL },
					       { "s", 1, 13, "r-1", NULL } };
	run = open_db("diamond.msgpack", diamond, 5);
	ok(run->dasf && !tu_has_diag(run, "cycle", NULL) && !run->dasf->an,
	   "a diamond, its edges named from both ends and twice: no cycle, nothing analysed");
	run_free(run);
}

/* Random graphs of 6 keys (edges named by either end, twice, a key on itself): a cycle is
 * said exactly when the analysis's critical path finds one. */
static void test_cycles_random(void)
{
	static const char *const fns[] = { "a", "b", "c", "d", "e", "f" };
	char deps[6][8], dnts[6][8];
	uint64_t seed = 17;
	size_t agree = 0, cyclic = 0;
	for (int g = 0; g < 200; g++) {
		struct task t[6];
		for (int i = 0; i < 6; i++) {
			uint64_t r = tu_xorshift(&seed);
			snprintf(deps[i], sizeof(deps[i]), "%s-1", fns[r % 6]);
			snprintf(dnts[i], sizeof(dnts[i]), "%s-1", fns[(r >> 10) % 6]);
			t[i] = (struct task){ fns[i], 0, 10 + i, NULL, NULL };
			t[i].dep = r >> 8 & 1 ? deps[i] : NULL;
			t[i].dnt = r >> 9 & 1 ? dnts[i] : NULL;
		}
		struct run *run = open_db("rand.msgpack", t, 6);
		bool said = tu_has_diag(run, "dependency cycle", NULL);
		cyclic += said;
		agree += run->dasf && said == (dasf_analyse(run->dasf)->cycle_node != DASF_NONE);
		run_free(run);
	}
	ok(agree == 200 && cyclic > 20 && cyclic < 180,
	   "200 random graphs: a cycle said exactly when the analysis has one");
}

/* Copies and batches written twice, one key at two timestamps: its first task's and a
 * later one's are each matched. */
static void test_task_repeats(void)
{
	static const struct task a[] = { { "k", 0, 10, NULL, NULL }, { "k", 0, 20, NULL, NULL },
					 { "k", 0, 20, NULL, NULL }, { "m", 1, 10, NULL, NULL } };
	static const struct task b[] = { { "k", 0, 20, NULL, NULL }, { "k", 0, 10, NULL, NULL },
					 { "k", 0, 30, NULL, NULL }, { "m", 1, 11, NULL, NULL } };
	char *pa = write_db("a.msgpack", a, 4), *pb = write_db("b.msgpack", b, 4);
	struct run *run = run_open((const char *const[]){ pa, pb }, 2, &no_opts, NULL);
	ok(tu_has_diag(run, "1 task of ", NULL) &&
	   tu_has_diag(run, "a.msgpack repeats a task earlier in the same file", NULL),
	   "k at 20 s twice in a.msgpack by one worker: one task written twice");
	ok(tu_has_diag(run, "b.msgpack repeat tasks of ", NULL) && tu_has_diag(run, "2 tasks of ", NULL),
	   "b.msgpack repeats k at 20 s and at 10 s of a.msgpack: 2 tasks (k at 30 s, m at 11 s are new)");
	ok(run->dasf && run->dasf->ntask == 8 && !run->dasf->an, "every task kept (DASF adds them), nothing analysed");
	run_free(run);
	free(pa);
	free(pb);
}

static char *write_samples(const char *name, const char *host, int n)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	struct dw w;
	if (dw_open(&w, path) < 0)
		return path;
	for (int i = 0; i < n; i++) {
		dw_resource(&w, host, 10.0 + i, 40 + i, 1000);
		dw_memory(&w, host, "worker-0", 10.5 + i, "k-1", 1000, i);
	}
	dw_close(&w);
	return path;
}

/* The same samples and memory events on two hosts are no copy; one host's again are. */
static void test_event_repeats(void)
{
	char *h1 = write_samples("h1.msgpack", "h1", 3), *h2 = write_samples("h2.msgpack", "h2", 3);
	char *again = write_samples("h1-again.msgpack", "h1", 2);
	struct run *run = run_open((const char *const[]){ h1, h2 }, 2, &no_opts, NULL);
	ok(run->dasf && run->dasf->nres == 6 && run->dasf->nmem == 6 && !tu_has_diag(run, "a copy of a database", NULL),
	   "equal events of two hosts: every one kept, no copy said");
	run_free(run);
	run = run_open((const char *const[]){ h1, h2, again }, 3, &no_opts, NULL);
	ok(run->dasf && run->dasf->nres == 6 && run->dasf->nmem == 6 &&
	   tu_has_diag(run, "2 GPU samples of ", NULL) && tu_has_diag(run, "2 Managed Memory events of ", NULL),
	   "h1's events again in a third file: the 2 repeats of each kind left out and said");
	run_free(run);
	free(h1);
	free(h2);
	free(again);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "dasf-checks"))
		return 1;
	test_load_runs_no_analysis();
	test_cycles();
	test_cycles_random();
	test_task_repeats();
	test_event_repeats();
	ok(tu_rm_rf(tmpdir) == 0, "temporary files removed");
	return tap_done();
}
