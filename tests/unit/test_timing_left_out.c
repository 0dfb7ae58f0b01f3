/* SPDX-License-Identifier: MIT */
/* test_timing_left_out.c: what the native timing and budget leave out (analysis.h STEPS
 * TIMED): a record without any phase (an evaluation's scalars) is no step of 0 s in rank
 * 0's timing (its count, step times, record positions, the step time at a record) nor in
 * the budget (its count, a window's, the run's), and the time of a phase in no budget
 * line is named with its share; --compat pytscope times every record and names nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/opts.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "tests/tap.h"
#include "tests/testutil.h"

/* 12 training steps of 10 + 20 + 5 ms (forward, backward, fetch) and after steps 2, 5, 8
 * and 11 an evaluation record of the same step (scalars alone): 16 records. */
static void write_run(const char *dir)
{
	FILE *f = tu_create_in(dir, "steps.jsonl");
	for (int s = 0; s < 12; s++) {
		fprintf(f, "{\"step\":%d,\"phases\":{\"forward\":0.01,\"backward\":0.02,\"fetch\":0.005}}\n", s);
		if (s % 3 == 2)
			fprintf(f, "{\"step\":%d,\"scalars\":{\"eval_loss\":1.5}}\n", s);
	}
	fclose(f);
}

/* The run keeps a pointer to its options: they outlive it. */
static const struct opts native_opts = { .no_index = true };
static const struct opts compat_opts = { .no_index = true, .compat_pytscope = true };

static struct run *open_run(const char *dir, bool compat)
{
	const char *paths[] = { dir };
	return run_open(paths, 1, compat ? &compat_opts : &native_opts, NULL);
}

static void test_native(const char *dir)
{
	struct run *run = open_run(dir, false);
	const struct timing *t = run && run->steps ? analysis_timing(run, 0) : NULL;
	ok(t && t->n == 12 && t->nrec == 16, "native: 12 steps timed of 16 records");
	if (!t) {
		run_free(run);
		return;
	}
	ok(timing_pos(t, 2) == 2 && timing_pos(t, 3) == 4 && timing_pos(t, 11) == 14,
	   "native: the steps' record positions skip the evaluation records");
	double v = -1;
	bool eval_at = timing_step_time_at(t, 3, &v);
	ok(!eval_at && v == -1, "native: no step time at an evaluation record (missing, not 0)");
	ok(timing_step_time_at(t, 4, &v) && v > 0.0349 && v < 0.0351, "native: the next record's step time, 35 ms");
	ok(t->mean_step_time > 0.0349 && t->mean_step_time < 0.0351 && t->p50 > 0.0349,
	   "native: mean and median 35 ms, no 0 ms step among them");
	char buf[256];
	const struct budget *b = analysis_budget(run, 0);
	ok(b && b->n == 12 && b->unphased == 4, "native budget: 12 steps, 4 records left out");
	const char *left = b ? analysis_budget_left_out(run, b, buf, sizeof(buf)) : NULL;
	ok(left && strcmp(left, "fetch 60 ms, a phase the budget does not weigh (14.3% of the phase time)") == 0,
	   "native budget: the phase it does not weigh named with its time and share (%s)", left ? left : "none");
	struct budget w;
	ok(analysis_budget_window(run, 0, 0, 5, &w) && w.n == 6 && w.unphased == 2 && w.foreign > 0.0299,
	   "native budget window of steps 0-5: 6 steps, 2 records left out, fetch's 30 ms");
	const struct budget *all = analysis_budget_all(run);
	ok(all && all->n == 12 && all->unphased == 4, "native run budget: the same");
	run_free(run);
}

static void test_compat(const char *dir)
{
	struct run *run = open_run(dir, true);
	const struct timing *t = run && run->steps ? analysis_timing(run, 0) : NULL;
	ok(t && t->n == 16 && t->nrec == 16 && !t->pos, "--compat pytscope: every record a step (pytscope's)");
	const struct budget *b = run && run->steps ? analysis_budget(run, 0) : NULL;
	char buf[256];
	ok(b && b->n == 16 && b->unphased == 0 && !analysis_budget_left_out(run, b, buf, sizeof(buf)),
	   "--compat pytscope: the budget over 16 records, nothing named");
	run_free(run);
}

int main(void)
{
	char dir[4096];
	if (!tu_mkdtemp(dir, sizeof(dir), "timing_left_out")) {
		ok(0, "scratch directory");
		return tap_done();
	}
	write_run(dir);
	test_native(dir);
	test_compat(dir);
	tu_rm_rf(dir);
	return tap_done();
}
