/* SPDX-License-Identifier: MIT */
/* test_follow_stall.c: what the follower (model/steps/follow.h) starts from and the stall
 * threshold on inputs other than a steadily growing run. One clock jump (+1 h) in the
 * ranks' timestamps among their last 16 records leaves the step time at the ranks' usual
 * gap (the median gap, not the mean), so a job that stops after it is finished within
 * the threshold, not "running" for 10 x jump / 16. A run dir whose rank dirs are made but
 * hold no file yet (a job's first seconds) is followed (follow_applies), as an empty dir
 * is, and its job is read once it writes. Simulated clock. */
#include <stdlib.h>
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/steps/steps.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static const struct opts no_opts;
static const struct follow_opts fopts = { .interval = 1, .stall_floor = 5 };

/* Appends to dir/rank{rank}/steps.jsonl the record of step s written at 1000 + s + shift
 * seconds. */
static void append_step(const char *dir, int rank, long s, double shift)
{
	char p[600], line[256];
	snprintf(p, sizeof(p), "%s/rank%d/steps.jsonl", dir, rank);
	snprintf(line, sizeof(line), "{\"step\":%ld,\"timestamp\":%.1f,\"phases\":{\"forward\":0.5}}\n", s,
		 1000.0 + (double)s + shift);
	FILE *f = fopen(p, "a");
	if (!f || fputs(line, f) < 0 || fclose(f) != 0) {
		perror(p);
		exit(1);
	}
}

static bool has_finding(const struct follow *f, const char *id, const char *text)
{
	return tu_list_has(follow_findings(f), id, text);
}

/* dir with nranks empty rank dirs. */
static void make_ranks(char *dir, size_t n, const char *prefix, int nranks)
{
	if (!tu_mkdtemp(dir, n, prefix))
		exit(1);
	for (int r = 0; r < nranks; r++) {
		char d[600];
		snprintf(d, sizeof(d), "%s/rank%d", dir, r);
		tu_make_dir(d);
	}
}

/* 4 ranks at 1 step/s; their clocks jump an hour ahead at step 15; they stop together
 * at step 19. */
static void test_clock_jump(void)
{
	char dir[512];
	make_ranks(dir, sizeof(dir), "follow-jump.", 4);
	for (int r = 0; r < 4; r++)
		for (long s = 0; s < 5; s++)
			append_step(dir, r, s, 0);
	const char *p = dir;
	struct run *run = run_open(&p, 1, &no_opts, NULL);
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	bool stall = false;
	for (long now = 5; now <= 40; now++) {
		for (int r = 0; r < 4 && now < 20; r++)
			append_step(dir, r, now, now >= 15 ? 3600 : 0);
		follow_poll(f, (double)now);
		stall = stall || has_finding(f, "LIVE.STALLED_RANK", NULL) || has_finding(f, "LIVE.JOB_STALL", NULL);
	}
	is_dbl(follow_threshold(f), 10, 1e-9, "a clock jump among the last 16 records: T = 10 x the usual 1 s gap");
	is_str(follow_state_name(follow_state(f)), "finished", "the job that stopped 21 s ago is finished");
	ok(has_finding(f, "LIVE.FINISHED", "all 4 ranks stopped at step 19") && !stall,
	   "LIVE.FINISHED, never a stall");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Rank dirs made, no file in them yet: followed; the job's records are read once written. */
static void test_rank_dirs_empty(void)
{
	char dir[512];
	make_ranks(dir, sizeof(dir), "follow-early.", 2);
	const char *p = dir;
	struct run *run = run_open(&p, 1, &no_opts, NULL);
	ok(follow_applies(run), "rank dirs with no file yet: followed, as an empty dir");
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	is_str(follow_state_name(follow_state(f)), "waiting", "nothing written yet: waiting");
	for (int r = 0; r < 2; r++)
		for (long s = 0; s < 3; s++)
			append_step(dir, r, s, 0);
	ok(follow_poll(f, 2) & FOLLOW_GREW, "the job's first records are read");
	is_int(steps_nrecords(run->steps, 1), 3, "rank 1 has its 3 records");
	is_str(follow_state_name(follow_state(f)), "running", "the job runs");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

int main(void)
{
	test_clock_jump();
	test_rank_dirs_empty();
	return tap_done();
}
