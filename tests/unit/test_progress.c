/* SPDX-License-Identifier: MIT */
/* test_progress.c: the partial Overview of a loading run (model/steps/progress.c): ranks
 * taken in as they are published, within a record budget per call, figures labelled
 * partial, run-wide figures n/a, no verdict; a replaced rank starts the digest again;
 * finalize closes the model to the reader; a run with no step model (a DASF database, a
 * sweep) shows its files and records, nothing of ranks or steps; and a loader thread
 * publishing while the reader takes ranks in (run under -fsanitize=thread to check the
 * locking). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/progress.h"
#include "model/steps/steps.h"
#include "model/summary.h"
#include "tests/tap.h"

static struct run *new_run(void)
{
	static const struct opts o;
	return run_open(NULL, 0, &o, NULL);
}

/* A sealed rank of n steps whose step time is fwd + bwd seconds. */
static struct rank_steps *make_rank(struct steps_model *m, int id, size_t n, double fwd, double bwd)
{
	int f = steps_metric_intern(m, METRIC_PHASE, "forward");
	int b = steps_metric_intern(m, METRIC_PHASE, "backward");
	struct rank_steps *r = steps_rank_new(m, id, "x");
	for (size_t s = 0; s < n; s++) {
		size_t pos = rank_append(r, (long)s, 0, false);
		rank_set(r, pos, f, fwd);
		rank_set(r, pos, b, bwd);
	}
	steps_rank_seal(r);
	return r;
}

static const char *line(const struct summary *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->line[i].key, key) == 0)
			return s->line[i].text;
	return "";
}

static bool any_good(const struct summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->line[i].tone == TONE_GOOD || strstr(s->line[i].text, "balanced") ||
		    strstr(s->line[i].text, "no issue"))
			return true;
	return false;
}

static void test_partial(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	steps_expect_ranks(m, 4);
	steps_publish_rank(m, make_rank(m, 2, 100, 0.030, 0.060));
	steps_publish_rank(m, make_rank(m, 0, 100, 0.030, 0.060));
	steps_publish_rank(m, make_rank(m, 1, 50, 0.060, 0.120));
	struct steps_progress *p = steps_progress_new();
	struct summary s, f;
	ok(steps_progress_update(p, run, 1), "the load goes on");
	size_t exp;
	is_int(steps_progress_ranks(p, &exp), 1, "a budget of one record: one rank per call");
	is_int(exp, 4, "the ranks the loader planned");
	ok(steps_progress_update(p, run, 1000), "again");
	is_int(steps_progress_ranks(p, &exp), 3, "the others within a larger budget");
	steps_progress_lines(p, "runs/x", &s, &f);
	is_str(line(&s, "ranks"), "3 of 4 ranks loaded", "ranks so far of the planned");
	is_str(line(&s, "steps"), "0-99 so far (longest rank 100 records, 250 records in all)", "steps so far");
	is_str(line(&s, "step time"),
	       "partial, 3 of 4 ranks: median 90 ms (rank medians 90 ms to 180 ms, slowest rank 1)",
	       "step time of the ranks loaded, labelled partial");
	is_str(line(&s, "phases"), "partial, 3 of 4 ranks: backward 66.7%, forward 33.3% of the phase time",
	       "phase shares, labelled partial");
	is_str(line(&s, "stragglers"), "n/a: loading (3 of 4 ranks)", "stragglers need every rank");
	is_str(line(&s, "coverage"), "n/a: loading (3 of 4 ranks)", "coverage needs every rank");
	is_str(line(&s, "imbalance"), "n/a: loading (3 of 4 ranks)", "imbalance needs every rank");
	ok(strstr(line(&f, "partial"), "rank 1: median step 180 ms, 2.00x the median of the ranks loaded so far") != NULL,
	   "the slow rank is a partial finding");
	is_str(line(&f, "no verdict"), "n/a: loading (3 of 4 ranks): findings are judged when the load ends",
	       "no verdict yet");
	ok(!any_good(&s) && !any_good(&f), "nothing reads as a good verdict");
	is_str(steps_progress_finishing(p), "aligning the steps and analysing", "every file read: the steps aligned");

	steps_publish_rank(m, make_rank(m, 1, 100, 0.030, 0.060));   /* rank 1 replaced */
	steps_progress_update(p, run, 1000000);
	steps_progress_lines(p, "runs/x", &s, &f);
	is_int(steps_progress_ranks(p, &exp), 3, "a replaced rank: the digest starts again, 3 ranks");
	is_str(line(&s, "steps"), "0-99 so far (longest rank 100 records, 300 records in all)", "with the new rank 1");
	is_str(line(&f, "partial"), "", "no slow rank any more");

	steps_finalize(m);
	steps_publish_rank(m, make_rank(m, 3, 10, 0.030, 0.060));
	ok(!steps_progress_update(p, run, 1000000), "finalize closes the model to the reader");
	is_int(steps_progress_ranks(p, &exp), 3, "the lines stay as they were");
	steps_progress_free(p);
	run_free(run);
}

/* A run with no step model (one of DASF's databases read so far): nothing of ranks,
 * steps or step times, which it will never have; its files and records, and no verdict. */
static void test_no_steps(void)
{
	struct run *run = new_run();
	run_source_done(run, run_add_source(run, "db/a-TracePlugin-h0.msgpack", "dasf", -1, 4096), 7, 0, 0, false);
	run_add_source(run, "db/b-TracePlugin-h1.msgpack", "dasf", -1, 4096);
	struct steps_progress *p = steps_progress_new();
	struct summary s, f;
	ok(steps_progress_update(p, run, 10), "no step model: the load goes on");
	steps_progress_lines(p, "db", &s, &f);
	is_str(line(&s, "sources"), "2 files, 7 records loaded so far", "the files and records so far");
	is_str(line(&s, "path"), "db", "the path");
	for (size_t i = 0; i < s.n; i++)
		ok(!strstr(s.line[i].text, "rank") && !strstr(s.line[i].text, "run.json") &&
		   !strstr(s.line[i].key, "step"), "no rank, run.json or step in '%s  %s'", s.line[i].key, s.line[i].text);
	ok(!*line(&s, "run") && !*line(&s, "ranks") && !*line(&s, "steps") && !*line(&s, "step time") &&
	   !*line(&s, "stragglers"), "no run name, ranks, steps, step time or straggler line");
	is_str(line(&f, "no verdict"), "n/a: loading: findings are judged when the load ends", "no verdict yet");
	is_int(f.n, 1, "and no other finding");
	is_str(steps_progress_finishing(p), "analysing", "every file read: analysing, no steps to align");
	steps_progress_free(p);
	run_free(run);
}

struct loader {
	struct steps_model *m;
	int n;
};

static void *publish_all(void *ud)
{
	struct loader *l = ud;
	for (int i = 0; i < l->n; i++)
		steps_publish_rank(l->m, make_rank(l->m, i, 200, 0.01 * (1 + i % 3), 0.02));
	return NULL;
}

static void test_concurrent(void)
{
	struct run *run = new_run();
	struct loader l = { .m = steps_model_get(run), .n = 64 };
	steps_expect_ranks(l.m, 64);
	struct steps_progress *p = steps_progress_new();
	pthread_t th;
	ok(pthread_create(&th, NULL, publish_all, &l) == 0, "a loader thread publishes");
	size_t exp = 0;
	while (steps_progress_ranks(p, &exp) < 64)
		steps_progress_update(p, run, 500);
	pthread_join(th, NULL);
	is_int(steps_progress_ranks(p, &exp), 64, "every rank taken in while it published");
	struct summary s, f;
	steps_progress_lines(p, "x", &s, &f);
	is_str(line(&s, "ranks"), "64 of 64 ranks loaded", "all of them");
	steps_progress_free(p);
	run_free(run);
}

int main(void)
{
	test_partial();
	test_no_steps();
	test_concurrent();
	return tap_done();
}
