/* SPDX-License-Identifier: MIT */
/* test_follow_stall.c: what the follower (model/steps/follow.h) starts from and the stall
 * threshold on inputs other than a steadily growing run. One clock jump (+1 h) in the
 * ranks' timestamps among their last 16 records leaves the step time at the ranks' usual
 * gap (the median gap, not the mean), so a job that stops after it is finished within
 * the threshold, not "running" for 10 x jump / 16. A run dir whose rank dirs are made but
 * hold no file yet (a job's first seconds) is followed (follow_applies), as an empty dir
 * is, and its job is read once it writes. The finish marker (a rank's run.json with
 * n_steps): ranks idle at one step without it are idle, never finished (a pause, a
 * buffered writer, a crash), and running again once they write; with it on every rank
 * the job finished, also when the ranks ended at different steps; on some ranks only,
 * stalled, naming the others. A rank behind the one rank that advanced names that rank,
 * not "the others". A job written as pytscope writes it (buffered: each rank's file grows
 * a burst of records at a time, the ranks at different moments) is never stalled between
 * bursts (T allows twice the usual gap between a file's growths), and a rank that stops
 * is still said stalled. A rank that wrote run.json with n_steps at its last step while
 * the others run on is finished, not stalled (one short of its n_steps is). Simulated
 * clock. */
#include <stdlib.h>
#include <unistd.h>
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
		for (int r = 0; r < 4 && now == 19; r++)   /* each rank's finish() */
			tu_write_finish(dir, r, 4, 20);
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

/* A follower of a job of nranks ranks that wrote steps 0..last together, 1 step/s (T =
 * 10 s), polled up to clock last. */
static struct follow *follow_steps(char *dir, size_t n, const char *prefix, int nranks, long last,
				   struct run **run)
{
	make_ranks(dir, n, prefix, nranks);
	for (int r = 0; r < nranks; r++)
		append_step(dir, r, 0, 0);
	const char *p = dir;
	*run = run_open(&p, 1, &no_opts, NULL);
	struct follow *f = follow_new(*run, &p, 1, &fopts, 0);
	for (long now = 1; now <= last; now++) {
		for (int r = 0; r < nranks; r++)
			append_step(dir, r, now, 0);
		follow_poll(f, (double)now);
	}
	return f;
}

static bool any_stall(const struct follow *f)
{
	return has_finding(f, "LIVE.STALLED_RANK", NULL) || has_finding(f, "LIVE.JOB_STALL", NULL);
}

/* 2 ranks stop together at step 9 with no run.json (a checkpoint pause, a buffered
 * writer between flushes, a crash at one step): idle, never finished; they go on to step
 * 14 (running) and finish (run.json with n_steps): finished. */
static void test_idle_without_marker(void)
{
	char dir[512];
	struct run *run;
	struct follow *f = follow_steps(dir, sizeof(dir), "follow-idle.", 2, 9, &run);
	follow_poll(f, 25);
	is_str(follow_state_name(follow_state(f)), "idle", "no rank advanced, no run.json n_steps: idle");
	ok(has_finding(f, "LIVE.JOB_IDLE", "job idle: no rank advanced for 16 s; all 2 ranks at step 9, no run.json "
		       "with n_steps yet (a finished pytscope job writes one): paused, still writing in bursts, or stopped "
		       "without finishing") && !has_finding(f, "LIVE.FINISHED", NULL) && !any_stall(f),
	   "... said low (LIVE.JOB_IDLE), never finished, not a stall");
	for (long now = 26; now <= 30; now++) {
		for (int r = 0; r < 2; r++)
			append_step(dir, r, now - 16, 0);
		follow_poll(f, (double)now);
	}
	is_str(follow_state_name(follow_state(f)), "running", "the job goes on: running");
	ok(!has_finding(f, "LIVE.JOB_IDLE", NULL), "... the idle verdict goes");
	for (int r = 0; r < 2; r++)
		tu_write_finish(dir, r, 2, 15);
	follow_poll(f, 45);
	is_str(follow_state_name(follow_state(f)), "finished", "run.json with n_steps on every rank: finished");
	ok(has_finding(f, "LIVE.FINISHED", "job finished: all 2 ranks stopped at step 14"), "... LIVE.FINISHED");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Uneven ends (data shards of other sizes, a DDP join): ranks 0 and 1 run to step 19,
 * rank 2 to step 11, each then writes its run.json with its n_steps: finished, the steps
 * said; without run.json on rank 2, stalled, naming it. */
static void test_uneven_finish(void)
{
	char dir[512];
	struct run *run;
	struct follow *f = follow_steps(dir, sizeof(dir), "follow-uneven.", 3, 11, &run);
	tu_write_finish(dir, 2, 3, 12);
	for (long now = 12; now <= 19; now++) {
		for (int r = 0; r < 2; r++)
			append_step(dir, r, now, 0);
		follow_poll(f, (double)now);
	}
	for (int r = 0; r < 2; r++)
		tu_write_finish(dir, r, 3, 20);
	follow_poll(f, 35);
	is_str(follow_state_name(follow_state(f)), "finished", "uneven ends, every rank's run.json n_steps: finished");
	ok(has_finding(f, "LIVE.FINISHED", "job finished: all 3 ranks wrote run.json with n_steps; they stopped "
		       "between steps 11 and 19") && !any_stall(f), "... the steps said, no stall");
	char q[600];
	snprintf(q, sizeof(q), "%s/rank2/run.json", dir);
	unlink(q);
	follow_poll(f, 45);   /* (run.json is looked at while the rank writes no record) */
	is_str(follow_state_name(follow_state(f)), "stalled", "rank 2 without run.json n_steps: stalled");
	ok(has_finding(f, "LIVE.JOB_STALL", "no rank advanced for 26 s; rank 2 has no run.json with n_steps; the "
		       "ranks with records stopped between steps 11 and 19"), "... naming it");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* 3 ranks idle at step 9; rank 0 alone writes step 10: ranks 1 and 2 are stalled, and the
 * title says rank 0 is at 10 (not "the others"). */
static void test_one_ahead(void)
{
	char dir[512];
	struct run *run;
	struct follow *f = follow_steps(dir, sizeof(dir), "follow-ahead.", 3, 9, &run);
	follow_poll(f, 25);
	append_step(dir, 0, 10, 0);
	follow_poll(f, 26);
	ok(has_finding(f, "LIVE.STALLED_RANK", "rank 1 stopped at step 9, 17 s ago; rank 0 is at 10") &&
	   has_finding(f, "LIVE.STALLED_RANK", "rank 2 stopped at step 9, 17 s ago; rank 0 is at 10") &&
	   !has_finding(f, "LIVE.STALLED_RANK", "the others"), "one rank ahead: the stalled ranks name it");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* 3 ranks in lock step at 1 step/s, each file growing by a burst of 30 records (rank r's
 * after steps 29 + 10r, 59 + 10r, ...: at different moments), polled every second; rank 1
 * writes no burst after clock stop. Returns the follower at clock last; *early: a stall
 * said while every rank still wrote (before stop). */
static struct follow *follow_bursts(char *dir, size_t n, long stop, long last, struct run **run, bool *early)
{
	make_ranks(dir, n, "follow-burst.", 3);
	const char *p = dir;
	*run = run_open(&p, 1, &no_opts, NULL);
	struct follow *f = follow_new(*run, &p, 1, &fopts, 0);
	long written[3] = { 0, 0, 0 };
	*early = false;
	for (long now = 1; now <= last; now++) {
		for (int r = 0; r < 3; r++) {
			if ((now + 30 - 10 * r) % 30 || (r == 1 && now > stop))
				continue;
			for (; written[r] < now; written[r]++)
				append_step(dir, r, written[r], 0);
		}
		follow_poll(f, (double)now);
		*early = *early || (now <= stop && any_stall(f));
	}
	return f;
}

static void test_buffered_writer(void)
{
	char dir[512];
	struct run *run;
	bool early;
	struct follow *f = follow_bursts(dir, sizeof(dir), 1000, 200, &run, &early);
	ok(!early, "bursts of 30 records, the ranks at different moments: never a stall");
	is_dbl(follow_threshold(f), 60, 1e-9, "T = 2 x the usual 30 s between a file's growths");
	is_str(follow_state_name(follow_state(f)), "running", "... the job runs");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
	f = follow_bursts(dir, sizeof(dir), 100, 200, &run, &early);
	ok(!early && has_finding(f, "LIVE.STALLED_RANK", "rank 1 stopped at step 99, ") && !follow_rank_stalled(f, 0),
	   "rank 1 stops writing: said stalled once idle past T, the others not");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Ranks 0 and 1 run to step 39; rank 2 stops at step 11 and writes its run.json with
 * n_steps 12 (its shard's end), rank 3 at step 11 with n_steps 20 (short of it). */
static void test_rank_finished_early(void)
{
	char dir[512];
	struct run *run;
	struct follow *f = follow_steps(dir, sizeof(dir), "follow-early-end.", 4, 11, &run);
	tu_write_finish(dir, 2, 4, 12);
	tu_write_finish(dir, 3, 4, 20);
	bool stalled2 = false;
	for (long now = 12; now <= 39; now++) {
		for (int r = 0; r < 2; r++)
			append_step(dir, r, now, 0);
		follow_poll(f, (double)now);
		stalled2 = stalled2 || follow_rank_stalled(f, 2);
	}
	ok(!stalled2 && !has_finding(f, "LIVE.STALLED_RANK", "rank 2 "),
	   "a rank at its run.json n_steps while the others run: finished, never stalled");
	ok(has_finding(f, "LIVE.STALLED_RANK", "rank 3 stopped at step 11, ") && follow_rank_stalled(f, 3),
	   "... one short of its n_steps: stalled");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

int main(void)
{
	test_clock_jump();
	test_rank_dirs_empty();
	test_idle_without_marker();
	test_uneven_finish();
	test_one_ahead();
	test_buffered_writer();
	test_rank_finished_early();
	return tap_done();
}
