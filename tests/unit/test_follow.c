/* SPDX-License-Identifier: MIT */
/* test_follow.c: follow mode (model/steps/follow.c) and what it builds on: growing the
 * step store after finalize (steps_rank_grow / steps_refresh), the tail reader
 * (half-written lines retried, garbage skipped with file:line once), ranks that appear,
 * shrunk and replaced files reloaded, a file rewritten at the same size (other bytes)
 * reloaded, unreadable files reported once, the stall rule
 * (stalled rank, job stall, finished is not a stall) on a simulated clock, run.json that
 * appears (world_size: a job missing ranks is not finished) or is overwritten by another
 * run (said), a run dir's own steps.jsonl dropped once rank dirs appear, and a one-shot
 * load that finishes while a writer keeps appending, and a sweep that grows a level
 * directory. A reloaded rank and a run.json read again leave the sources and
 * diagnostics a fresh open has (none kept from the earlier read, no row added again, a
 * "cannot stat" or "run.json missing" gone once the file is there); a rank whose rank
 * dir vanished (the job re-created with fewer ranks) is said once and no longer
 * judged. An indexed run followed: a reload leaves the index alone, no append is made
 * while a rank's file cannot be read, and a diagnostic removed does not hide a later one
 * from the next delta. A file touched (a newer mtime, the same bytes) is read again
 * without a word; one with other bytes at the same size is reloaded and said. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/steps/steps.h"
#include "model/sweep/sweep.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static const struct opts no_opts;

static struct run *new_run(void)
{
	return run_open(NULL, 0, &no_opts, NULL);
}

/* ---- the store grows after finalize ---------------------------------------------- */

static void add_rank(struct steps_model *m, int id, long first, long n, int loss, int fwd)
{
	struct rank_steps *r = steps_rank_new(m, id, "x");
	for (long s = first; s < first + n; s++) {
		size_t pos = rank_append(r, s, 100.0 + (double)s, true);
		rank_set(r, pos, loss, 2.5);            /* constant: run-length encoded at finalize */
		if (s % 3 || s == first)        /* its first step has a phase: a step natively */
			rank_set(r, pos, fwd, (double)(1000 + s) / 1e9);
	}
	steps_publish_rank(m, r);
}

static void test_grow(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	add_rank(m, 0, 0, 100, loss, fwd);
	add_rank(m, 2, 0, 100, loss, fwd);
	steps_finalize(m);
	ok(!steps_refresh(m), "refresh without appends changes nothing");
	struct rank_steps *r = steps_rank_grow(m, 0);
	for (long s = 100; s < 110; s++) {
		size_t pos = rank_append(r, s, 100.0 + (double)s, true);
		rank_set(r, pos, loss, 3.0);
		if (s != 105)   /* the last has a phase: the new steps are steps natively */
			rank_set(r, pos, fwd, (double)(1000 + s) / 1e9);
	}
	ok(steps_refresh(m), "refresh after appends reports a change");
	is_int(steps_nrecords(m, 0), 110, "rank 0 grew to 110 records");
	double v;
	ok(steps_value(m, 0, loss, 50, &v) && v == 2.5, "an old run-length value survives the thaw");
	ok(steps_value(m, 0, loss, 105, &v) && v == 3.0, "a new value is stored");
	ok(!steps_value(m, 0, fwd, 3, &v), "an old missing value stays missing");
	ok(steps_value(m, 0, fwd, 4, &v) && v == 1004 / 1e9, "an old phase value is exact");
	ok(!steps_value(m, 0, fwd, 105, &v), "a new record without the phase has it missing");
	ok(steps_timestamp(m, 0, 109, &v) && v == 209.0, "new timestamps are stored");
	is_int(steps_naligned(m), 100, "aligned steps: the intersection");
	is_int(steps_nunion(m), 110, "union: 110 steps");
	size_t pos;
	ok(steps_find(m, 0, 107, &pos) && pos == 107, "the index covers the new steps");

	/* a rank published after finalize: sorted in by steps_refresh */
	add_rank(m, 1, 5, 100, loss, fwd);
	ok(steps_refresh(m), "refresh after publishing a rank");
	is_int(steps_nranks(m), 3, "three ranks");
	is_int(steps_rank_id(m, 1), 1, "the late rank sorts between 0 and 2");
	is_int(steps_rank_index(m, 2), 2, "rank 2 moved to index 2");
	is_int(steps_naligned(m), 95, "aligned steps 5..99");
	is_int(steps_nunion(m), 110, "union 0..109");
	run_free(run);
}

static void test_union_spans(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	add_rank(m, 0, 0, 10, loss, loss);
	add_rank(m, 1, 5, 10, loss, loss);
	add_rank(m, 2, 20, 5, loss, loss);
	steps_finalize(m);
	is_int(steps_nunion(m), 20, "union of contiguous spans 0-9, 5-14, 20-24 is 20 steps");
	run_free(run);
}

/* ---- a job directory written by the test ------------------------------------------- */

struct job {
	char dir[512];
	int nranks;
};

static void rank_path(const struct job *j, int rank, char *buf, size_t n)
{
	snprintf(buf, n, "%s/rank%d/steps.jsonl", j->dir, rank);
}

static void append(const struct job *j, int rank, const char *text)
{
	char p[600];
	rank_path(j, rank, p, sizeof(p));
	FILE *f = fopen(p, "a");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(p);
		exit(1);
	}
}

/* One record: step s written at time s seconds (1 step/s). */
static void append_step(const struct job *j, int rank, long s)
{
	char line[256];
	snprintf(line, sizeof(line),
		 "{\"step\":%ld,\"timestamp\":%ld.0,\"phases\":{\"forward\":0.5},\"scalars\":{\"loss\":%g}}\n",
		 s, 1000 + s, 1.0 / (double)(s + 1));
	append(j, rank, line);
}

static void job_make(struct job *j, const char *prefix, int nranks, long steps)
{
	if (!tu_mkdtemp(j->dir, sizeof(j->dir), prefix))
		exit(1);
	j->nranks = nranks;
	for (int r = 0; r < nranks; r++) {
		char d[600];
		snprintf(d, sizeof(d), "%s/rank%d", j->dir, r);
		tu_make_dir(d);
		for (long s = 0; s < steps; s++)
			append_step(j, r, s);
	}
}

static struct run *job_open(const struct job *j)
{
	const char *p = j->dir;
	return run_open(&p, 1, &no_opts, NULL);
}

static bool has_finding(const struct follow *f, const char *id, const char *text)
{
	return tu_list_has(follow_findings(f), id, text);
}

static size_t count_diag(const struct run *run, const char *needle)
{
	size_t n = 0;
	for (size_t i = 0; i < run->diags.n; i++)
		n += strstr(run->diags.v[i].msg, needle) != NULL;
	return n;
}

static size_t count_finding(const struct follow *f, const char *id)
{
	const struct finding_list *l = follow_findings(f);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += strcmp(l->v[i].id, id) == 0;
	return n;
}

static const struct follow_opts fopts = { .interval = 1, .stall_floor = 5 };

/* 8 ranks at 1 step/s on a simulated clock; rank 3 stops at step 24. */
static void test_stalled_rank(void)
{
	struct job j;
	job_make(&j, "follow-stall.", 8, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	is_int(steps_nrecords(run->steps, 0), 5, "the loader read 5 records per rank");
	size_t grew = 0;
	bool early_stall = false;
	long now;
	for (now = 5; now <= 40; now++) {
		for (int r = 0; r < 8; r++)
			if (r != 3 || now < 25)
				append_step(&j, r, now);
		grew += (follow_poll(f, (double)now) & FOLLOW_GREW) != 0;
		if (now <= 34 && has_finding(f, "LIVE.STALLED_RANK", NULL))
			early_stall = true;
	}
	is_int((long long)grew, 36, "every poll found new records");
	is_int(steps_nrecords(run->steps, 0), 41, "rank 0 has every step, none read twice");
	is_int(steps_nrecords(run->steps, 3), 25, "rank 3 stopped at step 24");
	is_dbl(follow_threshold(f), 10, 1e-9, "threshold = 10 x median step time (1 s), above the 5 s floor");
	ok(!early_stall, "no stall reported within the threshold (rank 3 idle <= 10 s)");
	ok(has_finding(f, "LIVE.STALLED_RANK", "rank 3 stopped at step 24, 16 s ago; the others are at 40"),
	   "rank 3 is reported stalled once idle past the threshold");
	is_int(count_finding(f, "LIVE.STALLED_RANK"), 1, "only rank 3 is stalled");
	ok(follow_rank_stalled(f, 3) && !follow_rank_stalled(f, 2), "the stalled mark is on rank 3 only");
	is_str(follow_state_name(follow_state(f)), "running", "the job is still running");
	const struct finding_list *all = run_findings(run);
	bool listed = false;
	for (size_t i = 0; i < all->n; i++)
		listed = listed || strcmp(all->v[i].id, "LIVE.STALLED_RANK") == 0;
	ok(listed, "run_findings() includes the live finding");

	/* nobody advances any more, ranks at different steps: a job-level stall */
	follow_poll(f, 52);
	is_str(follow_state_name(follow_state(f)), "stalled", "no rank advancing: job stalled");
	ok(has_finding(f, "LIVE.JOB_STALL", "ranks stopped between steps 24 and 40"), "job stall finding");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* All ranks stop together and write their run.json (n_steps): finished, never a stall. */
static void test_finished(void)
{
	struct job j;
	job_make(&j, "follow-fin.", 8, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	bool stall = false;
	for (long now = 5; now <= 40; now++) {
		for (int r = 0; r < 8 && now < 20; r++)
			append_step(&j, r, now);
		for (int r = 0; r < 8 && now == 19; r++)   /* each rank's finish() */
			tu_write_finish(j.dir, r, 8, 20);
		follow_poll(f, (double)now);
		stall = stall || has_finding(f, "LIVE.STALLED_RANK", NULL) || has_finding(f, "LIVE.JOB_STALL", NULL);
	}
	ok(!stall, "ranks that stop together are never reported stalled");
	is_str(follow_state_name(follow_state(f)), "finished", "state finished");
	ok(has_finding(f, "LIVE.FINISHED", "all 8 ranks stopped at step 19"), "finished finding");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* Bad input, new ranks, shrunk / replaced files, unreadable files. */
static void test_files(void)
{
	struct job j;
	job_make(&j, "follow-files.", 2, 3);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);

	append(&j, 0, "{\"step\":3,\"timestamp\":1003.0,\"phases\":{\"forw");
	follow_poll(f, 1);
	is_int(steps_nrecords(run->steps, 0), 3, "a half-written line is not loaded");
	append(&j, 0, "ard\":0.5}}\nnot json at all\n{\"step\":4}\n");
	follow_poll(f, 2);
	is_int(steps_nrecords(run->steps, 0), 5, "the completed line and the next are loaded");
	ok(tu_has_diag(run, "line skipped", NULL), "the garbage line is skipped with a diagnostic");
	bool line5 = false;
	for (size_t i = 0; i < run->diags.n; i++)
		line5 = line5 || (strstr(run->diags.v[i].msg, "line skipped") && run->diags.v[i].line == 5);
	ok(line5, "... at its line number (5)");
	follow_poll(f, 3);
	is_int(count_diag(run, "line skipped"), 1, "... once, not on every poll");
	double v;
	ok(steps_value(run->steps, 0, steps_metric_find(run->steps, METRIC_PHASE, "forward"), 3, &v) && v == 0.5,
	   "the retried line's value is right");

	/* a rank that appears later */
	char d[600], q[700];
	snprintf(d, sizeof(d), "%s/rank2", j.dir);
	tu_make_dir(d);
	append_step(&j, 2, 0);
	append_step(&j, 2, 1);
	unsigned r = follow_poll(f, 4);
	ok(r & FOLLOW_GREW, "the new rank's records are news");
	is_int(steps_nranks(run->steps), 3, "rank 2 picked up");
	is_int(steps_nrecords(run->steps, 2), 2, "with its 2 records");
	ok(has_finding(f, "LIVE.NEW_RANK", "rank 2 appeared"), "and said so");

	/* truncated then rewritten: that rank reloads */
	rank_path(&j, 1, q, sizeof(q));
	tu_write_file(q, "", 0);
	append_step(&j, 1, 0);
	r = follow_poll(f, 5);
	ok(r & FOLLOW_RELOADED, "a shrunk file reloads its rank");
	is_int(steps_nrecords(run->steps, 1), 1, "rank 1 has the rewritten record only");
	ok(has_finding(f, "LIVE.RELOADED", "rank 1: steps.jsonl shrank"), "the reload is reported");

	/* replaced by another file (rename over it) */
	char tmp[700];
	snprintf(tmp, sizeof(tmp), "%s/new.jsonl", j.dir);
	const char *two = "{\"step\":0}\n{\"step\":1}\n{\"step\":2}\n{\"step\":3}\n{\"step\":4}\n{\"step\":5}\n";
	tu_write_file(tmp, two, strlen(two));
	rank_path(&j, 0, q, sizeof(q));
	if (rename(tmp, q) != 0)
		perror("rename");
	follow_poll(f, 6);
	is_int(steps_nrecords(run->steps, 0), 6, "a replaced file reloads its rank");
	ok(has_finding(f, "LIVE.RELOADED", "rank 0: steps.jsonl was replaced"), "the replacement is reported");

	/* unreadable (a symlink loop: ELOOP even for root): reported once */
	rank_path(&j, 2, q, sizeof(q));
	unlink(q);
	if (symlink(q, q) != 0)
		perror("symlink");
	follow_poll(f, 7);
	follow_poll(f, 8);
	follow_poll(f, 9);
	is_int(count_diag(run, "Too many levels of symbolic links"), 1, "an unreadable file is diagnosed once");
	is_int(count_finding(f, "LIVE.UNREADABLE"), 1, "... and reported once");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A writer that never stops appending must not keep a one-shot load from finishing. */
static void test_fast_writer(void)
{
	struct job j;
	job_make(&j, "follow-fast.", 1, 2000);
	char q[600];
	rank_path(&j, 0, q, sizeof(q));
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(q, O_WRONLY | O_APPEND);
		const char *line = "{\"step\":1,\"phases\":{\"forward\":0.5}}\n";
		for (;;)
			if (write(fd, line, strlen(line)) < 0)
				_exit(1);
	}
	alarm(60);   /* a load that never ends fails the test by SIGALRM */
	usleep(100000);
	struct run *run = job_open(&j);
	ok(run->steps && steps_nranks(run->steps) == 1 && steps_nrecords(run->steps, 0) >= 2000,
	   "the one-shot load finished while the writer kept appending");
	alarm(0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A sweep grows a level directory: it is loaded again. */
static void test_sweep(void)
{
	const char *b = getenv("TSCOPE_BUILD");
	char gen[600], dir[512], cmd[1400];
	snprintf(gen, sizeof(gen), "%s/tests/gen_sweep", b ? b : "build");
	if (access(gen, X_OK) != 0 || !tu_mkdtemp(dir, sizeof(dir), "follow-sweep.")) {
		ok(1, "# SKIP gen_sweep not built");
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s' '%s' 50 4 2 >/dev/null", gen, dir);
	if (system(cmd) != 0)
		exit(1);
	const char *p = dir;
	struct run *run = run_open(&p, 1, &no_opts, NULL);
	ok(run->sweep && run->sweep->ncfg == 2, "a sweep of 2 levels");
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	ok(!(follow_poll(f, 1) & FOLLOW_RELOADED), "nothing changed: no reload");
	snprintf(cmd, sizeof(cmd), "'%s' '%s' 50 4 3 >/dev/null", gen, dir);
	if (system(cmd) != 0)
		exit(1);
	ok(follow_poll(f, 2) & FOLLOW_RELOADED, "a new level directory reloads the sweep");
	ok(run->sweep && run->sweep->ncfg == 3, "... now 3 levels");
	ok(has_finding(f, "LIVE.RELOADED", "sweep: files changed"), "... and says so");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* A big append read in slices: each poll reads at most opts.slice bytes, files in turn,
 * until nothing is left; no record is lost or read twice, and no stall is judged while
 * behind. */
static void test_slices(void)
{
	struct job j;
	job_make(&j, "follow-slice.", 3, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow_opts o = fopts;
	o.slice = 1000;   /* about 10 records */
	struct follow *f = follow_new(run, &p, 1, &o, 0);
	for (long s = 5; s < 205; s++)
		for (int r = 0; r < 3; r++)
			append_step(&j, r, s);
	size_t polls = 0;
	long long left = 0, first_left = 0;
	bool stall = false;
	do {
		follow_poll(f, 100.0 + (double)polls);   /* far past any stall threshold */
		bool behind = follow_behind(f, &left);
		if (polls == 0)
			first_left = behind ? left : -1;
		stall = stall || (behind && (has_finding(f, "LIVE.STALLED_RANK", NULL) || has_finding(f, "LIVE.JOB_STALL", NULL)));
		polls++;
	} while (follow_behind(f, NULL) && polls < 1000);
	ok(polls >= 40, "600 appended records of ~87 B in slices of 1000 B take many polls (%zu)", polls);
	ok(first_left > 0, "the first poll is behind, with bytes left to read");
	is_int(left, 0, "nothing left at the end");
	ok(!stall, "no stall is judged while behind");
	for (int r = 0; r < 3; r++)
		is_int(steps_nrecords(run->steps, (size_t)r), 205, "every record of the rank, none twice");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* Set path's mtime `ahead` seconds past now (a file system's coarse clock cannot hide it). */
static void mtime_ahead(const char *path, long ahead)
{
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_sec = time(NULL) + ahead } };
	if (utimensat(AT_FDCWD, path, ts, 0) != 0)
		perror(path);
}

/* rank's run.json in job j: name, world_size, n_steps, mtime `ahead` s past now. */
static void write_run_json(const struct job *j, int rank, const char *name, long world, long nsteps, long ahead)
{
	char p[600], text[300];
	snprintf(p, sizeof(p), "%s/rank%d/run.json", j->dir, rank);
	int n = snprintf(text, sizeof(text), "{\"name\": \"%s\", \"rank\": %d, \"world_size\": %ld, \"n_steps\": %ld, "
			 "\"flops_per_step\": 1e12, \"peak_flops\": 1e14}", name, rank, world, nsteps);
	tu_write_file(p, text, (size_t)n);
	mtime_ahead(p, ahead);
}

/* run.json written while following (pytscope writes it at finish()) is read: its
 * world_size names the ranks with no rank dir, so the job is not finished; one
 * overwritten by another run is read again and said. */
static void test_run_json(void)
{
	struct job j;
	job_make(&j, "follow-meta.", 2, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	for (long s = 5; s < 10; s++) {
		for (int r = 0; r < 2; r++)
			append_step(&j, r, s);
		follow_poll(f, (double)s);
	}
	for (int r = 0; r < 2; r++)
		write_run_json(&j, r, "job-a", 4, 10, 0);
	follow_poll(f, 10);
	const struct steps_meta *meta = steps_rank_meta(run->steps, 0);
	ok(meta->present && meta->has_world && meta->world_size == 4, "run.json that appeared is read (world_size 4)");
	is_str(run->name, "job-a", "the run takes its name");
	follow_poll(f, 25);
	ok(!has_finding(f, "LIVE.FINISHED", NULL), "a job missing ranks of its world_size is not finished");
	ok(has_finding(f, "LIVE.JOB_STALL", "ranks 2, 3 of world_size 4 have no rank dir"),
	   "... but stalled, naming them");

	write_run_json(&j, 0, "job-b", 4, 10, 30);   /* the same size: only the mtime tells */
	unsigned r = follow_poll(f, 30);   /* run.json is looked at every T/4 (10 s / 4) */
	ok(r & FOLLOW_RELOADED, "run.json overwritten by another run: a reload");
	ok(has_finding(f, "LIVE.RELOADED", "rank 0: run.json was overwritten by another run: "
		       "name 'job-b' (was 'job-a')"), "... said, naming both runs");
	is_str(steps_rank_meta(run->steps, 0)->name, "job-b", "rank 0 holds the new run.json");
	is_str(run->name, "job-b", "the run's name follows rank 0's");
	is_str(steps_rank_meta(run->steps, 1)->name, "job-a", "rank 1's run.json, unchanged, still names job-a");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* What the Overview counts of the run: files, records, skipped, errors, warnings, notes. */
struct inventory {
	size_t files, records, skipped, errors, warnings, notes;
};

static struct inventory inventory_of(const struct run *run)
{
	struct inventory v = { .files = run->nsrc };
	for (size_t i = 0; i < run->nsrc; i++) {
		v.records += run->src[i].records;
		v.skipped += run->src[i].skipped;
	}
	for (size_t i = 0; i < run->diags.n; i++) {
		v.errors += run->diags.v[i].level == DIAG_ERROR;
		v.warnings += run->diags.v[i].level == DIAG_WARN;
		v.notes += run->diags.v[i].level == DIAG_INFO;
	}
	return v;
}

/* The followed run counts what a fresh open of the job counts. */
static void same_as_fresh(const struct run *run, const struct job *j, const char *what)
{
	struct run *fresh = job_open(j);
	struct inventory a = inventory_of(run), b = inventory_of(fresh);
	ok(a.files == b.files && a.records == b.records && a.skipped == b.skipped && a.errors == b.errors &&
	   a.warnings == b.warnings && a.notes == b.notes,
	   "%s: %zu files, %zu records, %zu skipped, %zu errors, %zu warnings, %zu notes (a fresh open: %zu, %zu, %zu, "
	   "%zu, %zu, %zu)", what, a.files, a.records, a.skipped, a.errors, a.warnings, a.notes, b.files, b.records,
	   b.skipped, b.errors, b.warnings, b.notes);
	run_free(fresh);
}

static long source_index(const struct run *run, const char *path)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (strcmp(run->src[i].path, path) == 0)
			return (long)i;
	return -1;
}

/* A single-rank run dir whose rank dirs appear while followed: its own steps.jsonl is no
 * longer read (as a fresh load), rank 0 is rank0/'s alone, and it is said. */
static void test_layout(void)
{
	struct job j;
	job_make(&j, "follow-layout.", 0, 0);
	char top[600];
	snprintf(top, sizeof(top), "%s/steps.jsonl", j.dir);
	for (long s = 0; s < 10; s++) {
		char line[128];
		int n = snprintf(line, sizeof(line),
				 "{\"step\":%ld,\"timestamp\":%ld.0,\"phases\":{\"forward\":0.9}}\n", s, 1000 + s);
		FILE *fp = fopen(top, "a");
		if (!fp || fwrite(line, 1, (size_t)n, fp) != (size_t)n || fclose(fp) != 0)
			exit(1);
	}
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	is_int(steps_nrecords(run->steps, 0), 10, "the top-level steps.jsonl is rank 0");
	for (int r = 0; r < 2; r++) {
		char d[600];
		snprintf(d, sizeof(d), "%s/rank%d", j.dir, r);
		tu_make_dir(d);
		for (long s = 0; s < 20; s++)
			append_step(&j, r, s);
	}
	mtime_ahead(j.dir, 5);
	unsigned r = follow_poll(f, 1);
	ok(r & FOLLOW_RELOADED, "rank dirs that appear: a reload");
	is_int(steps_nranks(run->steps), 2, "two ranks, rank0/ and rank1/");
	is_int(steps_nrecords(run->steps, 0), 20, "rank 0 holds rank0/'s 20 records, not the top-level file's too");
	ok(has_finding(f, "LIVE.RELOADED", "steps.jsonl is no longer read: rank dirs appeared there"), "... said");
	double v;
	ok(steps_value(run->steps, 0, steps_metric_find(run->steps, METRIC_PHASE, "forward"), 0, &v) && v == 0.5,
	   "rank 0's first record is rank0/'s");
	long at = source_index(run, top);
	struct inventory now = inventory_of(run);
	struct run *fresh = job_open(&j);
	ok(at < 0 && now.files == inventory_of(fresh).files && now.records == inventory_of(fresh).records,
	   "the top-level steps.jsonl's row goes (no other source after it): %zu files, %zu records, as a fresh open",
	   now.files, now.records);
	run_free(fresh);
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A file rewritten at its size: other bytes (the window read last changed) reload at
 * once; a newer mtime alone reloads once the next poll finds the file as it was (a write
 * under way sets the mtime before the size). */
static void test_same_size(void)
{
	struct job j;
	job_make(&j, "follow-same.", 2, 30);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	char q[600];
	rank_path(&j, 1, q, sizeof(q));
	char *text = tu_read_file(q);
	for (char *at = text; (at = strstr(at, "\"forward\":0.5")); at++)
		at[strlen("\"forward\":0.")] = '7';
	tu_write_file(q, text, strlen(text));
	free(text);
	mtime_ahead(q, 10);
	ok(follow_poll(f, 2) & FOLLOW_RELOADED, "a rewrite at the same size reloads its rank");
	ok(has_finding(f, "LIVE.RELOADED", "rank 1: steps.jsonl was rewritten in place"), "... said");
	double v;
	int fwd = steps_metric_find(run->steps, METRIC_PHASE, "forward");
	ok(steps_value(run->steps, 1, fwd, 3, &v) && v == 0.7, "rank 1 holds the rewritten values");

	rank_path(&j, 0, q, sizeof(q));
	mtime_ahead(q, 20);   /* touched: the same bytes, a newer mtime */
	ok(!(follow_poll(f, 3) & FOLLOW_RELOADED),
	   "a newer mtime at the same size: not yet (a write may be under way)");
	ok(!(follow_poll(f, 4) & FOLLOW_RELOADED), "... read again once the next poll finds the file unchanged: the "
	   "same records, not said");
	ok(!has_finding(f, "LIVE.RELOADED", "rank 0:"), "... no LIVE.RELOADED for rank 0");
	is_int(steps_nrecords(run->steps, 0), 30, "rank 0 read again: 30 records, none twice");
	text = tu_read_file(q);   /* a record before the last KiB read changed, the size kept */
	char *at = strstr(text, "\"forward\":0.5");
	at[strlen("\"forward\":0.")] = '9';
	tu_write_file(q, text, strlen(text));
	free(text);
	mtime_ahead(q, 30);
	follow_poll(f, 5);
	ok(follow_poll(f, 6) & FOLLOW_RELOADED, "other bytes at the same size, a newer mtime: reloaded");
	ok(has_finding(f, "LIVE.RELOADED", "rank 0: steps.jsonl has a newer mtime at the same size"), "... said");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A rank reloaded while followed (its file moved away, then written again; then
 * truncated and rewritten) keeps one source row per file, in the same slot, and none
 * of the earlier read's diagnostics. */
static void test_reload_inventory(void)
{
	struct job j;
	job_make(&j, "follow-inv.", 2, 20);
	for (int r = 0; r < 2; r++)
		write_run_json(&j, r, "job-a", 2, 0, 0);
	append(&j, 0, "garbage line\n");
	for (long s = 20; s < 25; s++)
		for (int r = 0; r < 2; r++)
			append_step(&j, r, s);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	char q[600], moved[700];
	rank_path(&j, 0, q, sizeof(q));
	long at = source_index(run, q);
	ok(count_diag(run, "line skipped") == 1 && at >= 0, "the garbage line is skipped once, rank 0's source at %ld",
	   at);
	snprintf(moved, sizeof(moved), "%s.1", q);
	if (rename(q, moved) != 0)
		perror("rename");
	follow_poll(f, 2);
	is_int(count_diag(run, "cannot stat"), 1, "the file moved away: 'cannot stat'");
	unlink(moved);
	for (long s = 25; s < 40; s++)
		append_step(&j, 0, s);
	ok(follow_poll(f, 3) & FOLLOW_RELOADED, "a new rank 0 file: reloaded");
	ok(!count_diag(run, "line skipped") && !count_diag(run, "cannot stat"),
	   "the old file's 'line 21 skipped' and the 'cannot stat' of the file now read are gone");
	is_int(source_index(run, q), at, "rank 0's steps.jsonl is read into its slot");
	same_as_fresh(run, &j, "a replaced file reloaded");

	tu_write_file(q, "", 0);   /* a restart: truncated and written again */
	for (long s = 0; s < 10; s++)
		append_step(&j, 0, s);
	ok(follow_poll(f, 4) & FOLLOW_RELOADED, "truncated and rewritten: reloaded");
	same_as_fresh(run, &j, "a truncated file reloaded");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* run.json written while following: its "missing" notes go, and each read again keeps
 * one source row per run.json. */
static void test_meta_inventory(void)
{
	struct job j;
	job_make(&j, "follow-meta-inv.", 2, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	is_int(count_diag(run, "run.json missing"), 2, "no run.json: a note per rank");
	for (int r = 0; r < 2; r++)
		write_run_json(&j, r, "job-a", 2, 5, 0);
	follow_poll(f, 10);
	ok(steps_rank_meta(run->steps, 1)->present, "run.json written while following is read");
	is_int(count_diag(run, "run.json missing"), 0, "the 'run.json missing' notes went");
	same_as_fresh(run, &j, "run.json read");
	write_run_json(&j, 0, "job-a", 2, 5, 30);   /* rewritten: a newer mtime */
	follow_poll(f, 20);
	same_as_fresh(run, &j, "run.json read again");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* The run dir removed and made again with 2 of its 4 ranks: ranks 2 and 3 are said gone
 * and no longer judged (no stall), ranks 0 and 1 reload, and the job finishes. */
static void test_rank_gone(void)
{
	struct job j;
	job_make(&j, "follow-gone.", 4, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	for (long now = 5; now < 10; now++) {
		for (int r = 0; r < 4; r++)
			append_step(&j, r, now);
		follow_poll(f, (double)now);
	}
	tu_rm_rf(j.dir);
	tu_make_dir(j.dir);
	for (int r = 0; r < 2; r++) {
		char d[600];
		snprintf(d, sizeof(d), "%s/rank%d", j.dir, r);
		tu_make_dir(d);
	}
	bool stall = false;
	for (long now = 10; now <= 40; now++) {
		for (int r = 0; r < 2 && now < 25; r++)
			append_step(&j, r, now - 10);
		for (int r = 0; r < 2 && now == 24; r++)
			tu_write_finish(j.dir, r, 2, 15);
		follow_poll(f, (double)now);
		stall = stall || has_finding(f, "LIVE.STALLED_RANK", NULL) || has_finding(f, "LIVE.JOB_STALL", NULL);
	}
	ok(has_finding(f, "LIVE.RANK_GONE", "rank 2: ") && has_finding(f, "LIVE.RANK_GONE", "rank 3: "),
	   "ranks 2 and 3: their rank dirs are gone, said");
	is_int(count_finding(f, "LIVE.RANK_GONE"), 2, "... once each");
	ok(!stall && !follow_rank_stalled(f, 3), "a rank whose dir is gone is not judged stalled");
	ok(has_finding(f, "LIVE.FINISHED", "all 2 ranks stopped at step 14"), "the 2 ranks left finish");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* An indexed run followed: rank 1's file moved away ("cannot stat"; no append while its
 * row says it cannot be read), then back; its run.json removed ("run.json missing",
 * saved in a delta), then a garbage line of rank 0 read in the poll that finds rank 1's
 * run.json back (its note removed); the next delta holds the garbage line's diagnostic
 * (the index counts diagnostics by the order added, not by their place in the list). */
static void test_index_diags(void)
{
	struct job j;
	job_make(&j, "follow-index.", 2, 5);
	for (int r = 0; r < 2; r++)
		write_run_json(&j, r, "job-a", 2, 0, 0);
	static const struct opts build = { .index_build = true }, plain = { .no_index = true };
	const char *p = j.dir;
	run_free(run_open(&p, 1, &build, NULL));
	struct run *run = job_open(&j);
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	char q[600], moved[700], meta[600];
	rank_path(&j, 1, q, sizeof(q));
	snprintf(moved, sizeof(moved), "%s.1", q);
	if (rename(q, moved) != 0)
		perror("rename");
	append_step(&j, 0, 5);
	follow_poll(f, 1);
	ok(count_diag(run, "cannot stat") == 1 && follow_save_index(f) == 0,
	   "rank 1's file away: said; no append while a rank's file cannot be read (its row says so)");
	if (rename(moved, q) != 0)
		perror("rename");
	snprintf(meta, sizeof(meta), "%s/rank1/run.json", j.dir);
	unlink(meta);
	follow_poll(f, 3);
	ok(count_diag(run, "cannot stat") == 0 && count_diag(run, "run.json missing") == 1,
	   "rank 1's file back: its 'cannot stat' went; its run.json gone: said");
	ok(follow_save_index(f) == 1, "the index appended to");
	write_run_json(&j, 1, "job-a", 2, 0, 0);
	append(&j, 0, "garbage line\n");
	append_step(&j, 0, 6);
	follow_poll(f, 6);   /* run.json looked at every T/4 = 2.5 s while the rank is idle */
	ok(count_diag(run, "run.json missing") == 0 && count_diag(run, "line skipped") == 1,
	   "rank 1's run.json back: its note went; rank 0's garbage line skipped");
	ok(follow_save_index(f) == 1, "the index appended to");
	follow_free(f);
	run_free(run);
	struct run *got = job_open(&j), *want = run_open(&p, 1, &plain, NULL);
	ok(count_diag(got, "line skipped") == 1 && count_diag(want, "line skipped") == 1,
	   "the reopen from the index says the garbage line was skipped, as a plain load");
	run_free(got);
	run_free(want);
	tu_rm_rf(j.dir);
}

/* An indexed run followed: a rank reloaded (truncated, written again with other values)
 * leaves the index alone (no delta over the rank read again); the reopen holds what a
 * plain load holds. */
static void test_index_reload(void)
{
	struct job j;
	job_make(&j, "follow-index-reload.", 2, 10);
	static const struct opts build = { .index_build = true }, plain = { .no_index = true };
	const char *p = j.dir;
	run_free(run_open(&p, 1, &build, NULL));
	struct run *run = job_open(&j);
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	for (int r = 0; r < 2; r++)
		append_step(&j, r, 10);
	follow_poll(f, 1);
	ok(follow_save_index(f) == 1, "a delta before the reload");
	char q[600];
	rank_path(&j, 1, q, sizeof(q));
	const char *two = "{\"step\":0,\"phases\":{\"forward\":0.9}}\n{\"step\":1,\"phases\":{\"forward\":0.9}}\n";
	tu_write_file(q, two, strlen(two));
	for (long s = 2; s < 13; s++)
		append_step(&j, 1, s);
	ok(follow_poll(f, 2) & FOLLOW_RELOADED, "rank 1 truncated and written again: reloaded");
	is_int(follow_save_index(f), 0, "the index is not appended to after the reload");
	follow_stop_index(f);
	follow_free(f);
	run_free(run);
	struct run *got = job_open(&j), *want = run_open(&p, 1, &plain, NULL);
	int fwd = steps_metric_find(got->steps, METRIC_PHASE, "forward");
	double v = 0;
	ok(steps_nrecords(got->steps, 1) == steps_nrecords(want->steps, 1) && steps_value(got->steps, 1, fwd, 0, &v) &&
	   v == 0.9, "the reopen holds rank 1's new records (%zu, forward %g), as a plain load",
	   steps_nrecords(got->steps, 1), v);
	run_free(got);
	run_free(want);
	tu_rm_rf(j.dir);
}

int main(void)
{
	test_slices();
	test_grow();
	test_union_spans();
	test_stalled_rank();
	test_finished();
	test_files();
	test_run_json();
	test_layout();
	test_same_size();
	test_reload_inventory();
	test_meta_inventory();
	test_rank_gone();
	test_index_diags();
	test_index_reload();
	test_fast_writer();
	test_sweep();
	return tap_done();
}
