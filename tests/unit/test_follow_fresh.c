/* SPDX-License-Identifier: MIT */
/* test_follow_fresh.c: after each poll the follower (model/steps/follow.h) holds what a
 * fresh open of the same files holds. The note that a PATH held nothing (missing, then
 * empty) goes once the job writes there; the warning that a finished rank (run.json
 * n_steps) has no record goes as its log fills and comes back when the log is emptied. A
 * rank dir whose id a followed one has (rank1/ beside rank01/) is read as a load reads
 * them: the later name alone, never one series of both, the other named in a warning. A
 * step log replaced by a directory or a FIFO is said once, its records no longer
 * analysed, its row and error a fresh open's, and read again once a file is back. A rank
 * dir that comes back is said (LIVE.RANK_BACK) and the event that said it gone no longer
 * stands (a folded one names the ranks still gone). A job whose every log is emptied has
 * no newest record to date. An empty dir whose ranks appear one poll after another (rank 1,
 * then ranks 0 and 2) holds them as a fresh open does, sorted, its findings (the per-rank
 * analyses) taken over every rank after each poll. */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/steps/steps.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static const struct opts no_opts;
static const struct follow_opts fopts = { .interval = 1, .stall_floor = 5 };

/* The step log of rank dir `name` under dir. */
static void log_path(const char *dir, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s/steps.jsonl", dir, name);
}

/* Records [first, first + n) of forward time fwd appended to dir/name/steps.jsonl (the
 * rank dir made when missing). */
static void write_steps(const char *dir, const char *name, long first, long n, double fwd)
{
	char d[600], p[700];
	snprintf(d, sizeof(d), "%s/%s", dir, name);
	tu_make_dir(d);
	log_path(dir, name, p, sizeof(p));
	FILE *f = fopen(p, "a");
	for (long s = first; f && s < first + n; s++)
		fprintf(f, "{\"step\":%ld,\"timestamp\":%ld.0,\"phases\":{\"forward\":%g}}\n", s, 1000 + s, fwd);
	if (!f || fclose(f) != 0) {
		perror(p);
		exit(1);
	}
}

/* dir/name/run.json of a finished run (n_steps 10). */
static void write_finished(const char *dir, const char *name, int rank)
{
	char p[700], text[200];
	snprintf(p, sizeof(p), "%s/%s/run.json", dir, name);
	int n = snprintf(text, sizeof(text), "{\"name\": \"job\", \"rank\": %d, \"world_size\": 2, \"n_steps\": 10}",
			 rank);
	tu_write_file(p, text, (size_t)n);
}

/* A directory's listing is looked at again when its mtime changed: one a coarse clock
 * cannot hide. */
static void dir_changed(const char *dir, long ahead)
{
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_sec = time(NULL) + ahead } };
	if (utimensat(AT_FDCWD, dir, ts, 0) != 0)
		perror(dir);
}

static struct run *open_dir(const char *dir)
{
	return run_open(&dir, 1, &no_opts, NULL);
}

static struct follow *follow_dir(struct run *run, const char *dir)
{
	return follow_new(run, &dir, 1, &fopts, 0);
}

/* The data-quality counts of run (errors, warnings, notes) and its records. */
struct quality {
	size_t errors, warnings, notes, records;
};

static struct quality quality_of(const struct run *run)
{
	struct quality q = { 0 };
	for (size_t i = 0; i < run->diags.n; i++) {
		q.errors += run->diags.v[i].level == DIAG_ERROR;
		q.warnings += run->diags.v[i].level == DIAG_WARN;
		q.notes += run->diags.v[i].level == DIAG_INFO;
	}
	for (size_t i = 0; i < run->nsrc; i++)
		q.records += run->src[i].records;
	return q;
}

/* The followed run's data-quality list counts what a fresh open of dir counts. */
static void same_as_fresh(const struct run *run, const char *dir, const char *what)
{
	struct run *fresh = open_dir(dir);
	struct quality a = quality_of(run), b = quality_of(fresh);
	ok(a.errors == b.errors && a.warnings == b.warnings && a.notes == b.notes && a.records == b.records,
	   "%s: %zu errors, %zu warnings, %zu notes, %zu records (a fresh open: %zu, %zu, %zu, %zu)", what, a.errors,
	   a.warnings, a.notes, a.records, b.errors, b.warnings, b.notes, b.records);
	run_free(fresh);
}

static size_t count_finding(const struct follow *f, const char *id, const char *text)
{
	const struct finding_list *l = follow_findings(f);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += strcmp(l->v[i].id, id) == 0 && (!text || strstr(l->v[i].title, text));
	return n;
}

static const struct source *source_of(const struct run *run, const char *path)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (strcmp(run->src[i].path, path) == 0)
			return &run->src[i];
	return NULL;
}

/* Followed while empty, and while not there yet: the note on the PATH is what a fresh
 * open says at each poll, and none once the job wrote there. */
static void test_path_note(void)
{
	char dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-empty."))
		exit(1);
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	ok(tu_has_diag(run, "no supported data found here", NULL), "an empty dir: the note says so");
	for (int r = 0; r < 2; r++) {
		char name[16];
		snprintf(name, sizeof(name), "rank%d", r);
		write_steps(dir, name, 0, 5, 0.5);
		write_finished(dir, name, r);
	}
	dir_changed(dir, 5);
	follow_poll(f, 1);
	ok(!tu_has_diag(run, "no supported data found here", NULL), "the job wrote there: the note went");
	same_as_fresh(run, dir, "an empty dir written to");
	follow_free(f);
	run_free(run);

	char later[600];
	snprintf(later, sizeof(later), "%s/later", dir);
	run = open_dir(later);
	f = follow_dir(run, later);
	ok(tu_has_diag(run, "cannot open: No such file or directory", NULL), "a PATH not there yet: an error");
	tu_make_dir(later);
	follow_poll(f, 1);
	ok(!tu_has_diag(run, "cannot open", NULL) && tu_has_diag(run, "no supported data found here", NULL),
	   "... made, empty: the note says it is empty, as a fresh open");
	same_as_fresh(run, later, "a PATH made empty");
	write_steps(later, "rank0", 0, 5, 0.5);
	dir_changed(later, 5);
	follow_poll(f, 2);
	ok(!tu_has_diag(run, "no supported data found here", NULL), "... written to: no note");
	same_as_fresh(run, later, "a PATH made and written to");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* A finished rank (run.json n_steps) without a record is a warning while its log gives
 * none: gone when the log fills, back when it is emptied (a restart). */
static void test_no_records(void)
{
	char dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-none."))
		exit(1);
	for (int r = 0; r < 2; r++) {
		char name[16];
		snprintf(name, sizeof(name), "rank%d", r);
		write_steps(dir, name, 0, 0, 0.5);
		write_finished(dir, name, r);
	}
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	is_int(tu_count_diag(run, "no step record, though run.json records n_steps"), 2, "empty logs: a warning each");
	write_steps(dir, "rank0", 0, 10, 0.5);
	write_steps(dir, "rank1", 0, 10, 0.5);
	follow_poll(f, 1);
	is_int(tu_count_diag(run, "no step record"), 0, "the logs filled: the warnings went");
	same_as_fresh(run, dir, "logs filled");
	for (int r = 0; r < 2; r++) {
		char p[700];
		snprintf(p, sizeof(p), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(p, "", 0);
	}
	follow_poll(f, 2);
	is_int(tu_count_diag(run, "no step record"), 2, "the logs emptied: the warnings are back");
	same_as_fresh(run, dir, "logs emptied");
	ok(follow_newest_age(f, 3) < 0, "no record left: no newest record to date (%g)", follow_newest_age(f, 3));
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* rank01/ followed as rank 1; rank1/ appears (other values): rank 1 is rank1/'s alone,
 * rank01/ named in a warning; rank001/ appears: not read, named too. */
static void test_same_rank_id(void)
{
	char dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-dup."))
		exit(1);
	write_steps(dir, "rank0", 0, 20, 0.5);
	write_steps(dir, "rank01", 0, 20, 0.5);
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	write_steps(dir, "rank1", 0, 12, 0.75);
	dir_changed(dir, 5);
	follow_poll(f, 1);
	int fwd = steps_metric_find(run->steps, METRIC_PHASE, "forward");
	double v = 0;
	bool got = steps_value(run->steps, 1, fwd, 0, &v);
	ok(steps_nranks(run->steps) == 2 && steps_nrecords(run->steps, 1) == 12 && got && v == 0.75,
	   "rank 1 is rank1/'s alone: %zu records (not 32), forward %g", steps_nrecords(run->steps, 1), v);
	is_int(tu_count_diag(run, "not read: rank1, later by name, has the same rank id 1"), 1, "rank01/ named, once");
	ok(count_finding(f, "LIVE.RELOADED", "rank01 is no longer read: "), "... and said");
	same_as_fresh(run, dir, "rank1/ beside rank01/");
	write_steps(dir, "rank1", 12, 3, 0.75);
	follow_poll(f, 2);
	is_int(steps_nrecords(run->steps, 1), 15, "rank1/'s appends are read");
	write_steps(dir, "rank001", 0, 30, 0.5);
	dir_changed(dir, 10);
	follow_poll(f, 3);
	is_int(steps_nrecords(run->steps, 1), 15, "rank001/ (earlier by name) is not read");
	is_int(tu_count_diag(run, "not read: rank1, later by name"), 2, "... and named, as rank01/");
	same_as_fresh(run, dir, "rank001/ too");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* rank1's log replaced by a directory, rank0's by a FIFO: said once each, their records
 * no longer analysed; a file back is read again. */
static void test_not_a_file(void)
{
	char dir[512], p[700], q[700];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-dir."))
		exit(1);
	write_steps(dir, "rank0", 0, 10, 0.5);
	write_steps(dir, "rank1", 0, 10, 0.5);
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	log_path(dir, "rank1", p, sizeof(p));
	unlink(p);
	tu_make_dir(p);
	for (long now = 1; now <= 3; now++)
		follow_poll(f, (double)now);
	is_int(count_finding(f, "LIVE.UNREADABLE", "rank 1: cannot read"), 1,
	       "a log replaced by a directory: said once");
	is_int(steps_nrecords(run->steps, 1), 0, "... its records no longer analysed");
	const struct source *s = source_of(run, p);
	ok(s && s->err && !s->records, "... its row unreadable");
	is_int(tu_count_diag(run, "cannot open: Is a directory"), 1, "... the error a fresh open has");
	same_as_fresh(run, dir, "a log replaced by a directory");
	log_path(dir, "rank0", q, sizeof(q));
	unlink(q);
	if (mkfifo(q, 0600) != 0)
		perror(q);
	follow_poll(f, 4);
	follow_poll(f, 5);
	is_int(count_finding(f, "LIVE.UNREADABLE", "rank 0: cannot read"), 1, "a log replaced by a FIFO: said once");
	is_int(steps_nrecords(run->steps, 0), 0, "... its records no longer analysed");
	unlink(q);
	tu_rm_rf(p);
	write_steps(dir, "rank1", 0, 4, 0.5);
	follow_poll(f, 6);
	is_int(steps_nrecords(run->steps, 1), 4, "a file back: read");
	is_int(tu_count_diag(run, "cannot open: Is a directory"), 0, "... its error gone");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Rank dirs moved away and back: said back, the gone event no longer stands. */
static void test_rank_back(void)
{
	char dir[512], d[600], away[700];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-back."))
		exit(1);
	for (int r = 0; r < 8; r++) {
		char name[16];
		snprintf(name, sizeof(name), "rank%d", r);
		write_steps(dir, name, 0, 5, 0.5);
	}
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	snprintf(d, sizeof(d), "%s/rank2", dir);
	snprintf(away, sizeof(away), "%s.away", d);
	if (rename(d, away) != 0)
		perror(d);
	follow_poll(f, 1);
	is_int(count_finding(f, "LIVE.RANK_GONE", "rank 2: "), 1, "rank 2's dir gone: said");
	if (rename(away, d) != 0)
		perror(away);
	write_steps(dir, "rank2", 5, 1, 0.5);
	follow_poll(f, 2);
	ok(count_finding(f, "LIVE.RANK_BACK", "rank 2: ") &&
	   count_finding(f, "LIVE.RANK_BACK", "is back; the rank is judged again"), "... back: said");
	is_int(count_finding(f, "LIVE.RANK_GONE", NULL), 0, "... the gone event no longer stands");
	ok(!tu_finding(run, "LIVE.RANK_GONE"), "... nor in the run's findings (the explorer's)");
	for (int r = 3; r < 8; r++) {
		snprintf(d, sizeof(d), "%s/rank%d", dir, r);
		snprintf(away, sizeof(away), "%s.away", d);
		if (rename(d, away) != 0)
			perror(d);
	}
	follow_poll(f, 3);
	ok(count_finding(f, "LIVE.RANK_GONE", "5 ranks (3-7): "), "5 rank dirs gone in a poll: one entry");
	snprintf(d, sizeof(d), "%s/rank4", dir);
	snprintf(away, sizeof(away), "%s.away", d);
	if (rename(away, d) != 0)
		perror(away);
	follow_poll(f, 4);
	ok(count_finding(f, "LIVE.RANK_GONE", "4 ranks (3, 5-7): "), "rank 4 back: the entry names the 4 still gone");
	for (int r = 3; r < 8; r++) {
		snprintf(d, sizeof(d), "%s/rank%d", dir, r);
		snprintf(away, sizeof(away), "%s.away", d);
		rename(away, d);
	}
	follow_poll(f, 5);
	is_int(count_finding(f, "LIVE.RANK_GONE", NULL), 0, "all back: no gone event stands");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Followed empty: rank 1 writes, its findings are taken (the analyses sized for one
 * rank); ranks 0 and 2 appear: the findings over the three (no crash), ranks sorted. */
static void test_ranks_later(void)
{
	char dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-fresh-later."))
		exit(1);
	struct run *run = open_dir(dir);
	struct follow *f = follow_dir(run, dir);
	write_steps(dir, "rank1", 0, 5, 0.5);
	dir_changed(dir, 5);
	follow_poll(f, 1);
	ok(run_findings(run) && steps_nranks(run->steps) == 1, "rank 1 appeared: its findings taken");
	write_steps(dir, "rank0", 0, 5, 0.5);
	write_steps(dir, "rank2", 0, 5, 0.5);
	write_steps(dir, "rank1", 5, 1, 0.5);
	dir_changed(dir, 10);
	follow_poll(f, 2);
	ok(run_findings(run) && steps_nranks(run->steps) == 3, "ranks 0 and 2 appeared: the findings over all 3");
	ok(steps_rank_id(run->steps, 0) == 0 && steps_rank_id(run->steps, 1) == 1 && steps_rank_id(run->steps, 2) == 2,
	   "... the ranks sorted, as a fresh open has them");
	is_int(steps_nrecords(run->steps, 1), 6, "... rank 1's append read");
	same_as_fresh(run, dir, "ranks that appeared one poll after another");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

int main(void)
{
	test_path_note();
	test_no_records();
	test_same_rank_id();
	test_not_a_file();
	test_rank_back();
	test_ranks_later();
	return tap_done();
}
