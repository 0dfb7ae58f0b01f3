/* SPDX-License-Identifier: MIT */
/* test_follow_events.c: what the follower (model/steps/follow.h) says of the followed
 * files, and when. An unfinished last line longer than a slice is read to the end once:
 * the follower is not behind for it, does not read it again while the file's size and
 * mtime stay, and judges the stall; one longer than a line may be is skipped, as a load
 * skips it, and still keeps the job from "finished". A file touched (a newer mtime, the same bytes) is no
 * advance and not said; one replaced by a copy is said as the same records, no advance.
 * Many events of one kind in one poll are one entry naming the ranks; past the kept
 * entries, one more counts them and says the latest. A rank reloaded under a run.json
 * that names another run says so. A trace that appears is said once (it is not read), in
 * the run dir or in a rank dir (its mtime changes, not the run dir's), unless a load
 * would not read it (the run dir has pytscope's trace); so is a DASF database that
 * appears in a followed empty dir. A file that cannot be read, or whose rank dir is
 * gone, shows so in its source row. */
#include <fcntl.h>
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

struct job {
	char dir[512];
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

/* Step s (timestamp 1000 + s: 1 step/s); salt gives its forward time. */
static void step_line(char *buf, size_t n, long s, int salt)
{
	snprintf(buf, n, "{\"step\":%ld,\"timestamp\":%ld.0,\"phases\":{\"forward\":0.%d},"
		 "\"scalars\":{\"loss\":2.5}}\n", s, 1000 + s, 1 + salt % 9);
}

static void append_step(const struct job *j, int rank, long s)
{
	char line[256];
	step_line(line, sizeof(line), s, 4);
	append(j, rank, line);
}

static void job_make(struct job *j, const char *prefix, int nranks, long steps)
{
	if (!tu_mkdtemp(j->dir, sizeof(j->dir), prefix))
		exit(1);
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

/* Replace rank's steps.jsonl (write a new file, rename it over) with n records, salt
 * giving their values. */
static void replace_steps(const struct job *j, int rank, long n, int salt)
{
	char tmp[700], q[600], line[256];
	snprintf(tmp, sizeof(tmp), "%s/new.jsonl", j->dir);
	FILE *f = fopen(tmp, "w");
	for (long s = 0; f && s < n; s++) {
		step_line(line, sizeof(line), s, salt);
		fputs(line, f);
	}
	if (!f || fclose(f) != 0)
		perror(tmp);
	rank_path(j, rank, q, sizeof(q));
	if (rename(tmp, q) != 0)
		perror("rename");
}

static void write_run_json(const struct job *j, int rank, const char *name, long world)
{
	char p[600], text[200];
	snprintf(p, sizeof(p), "%s/rank%d/run.json", j->dir, rank);
	int n = snprintf(text, sizeof(text), "{\"name\": \"%s\", \"rank\": %d, \"world_size\": %ld}", name, rank,
			 world);
	tu_write_file(p, text, (size_t)n);
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
	for (size_t i = run->nsrc; i-- > 0;)
		if (strcmp(run->src[i].format, "pytscope") == 0 && strcmp(run->src[i].path, path) == 0)
			return &run->src[i];
	return NULL;
}

/* Rank 2 ends in an unfinished line five times the slice: read to its end once. */
static void test_long_unfinished_line(void)
{
	struct job j;
	job_make(&j, "follow-long.", 3, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow_opts o = fopts;
	o.slice = 1000;
	struct follow *f = follow_new(run, &p, 1, &o, 0);
	follow_poll(f, 1);
	char *pad = malloc(5001);
	memset(pad, 'x', 5000);
	pad[5000] = '\0';
	append(&j, 2, pad);
	int polls = 0;
	long long left = -1;
	while (polls < 20 && (follow_poll(f, 2 + polls), polls++, follow_behind(f, &left)))
		;
	ok(polls <= 2 && left == 0, "an unfinished line past the slice: not behind for it (%d polls, %lld left)",
	   polls, left);
	/* the same size and mtime, other bytes: a complete record now (a probe: read again, it
	 * would be a new record) */
	char q[600];
	rank_path(&j, 2, q, sizeof(q));
	struct stat st;
	stat(q, &st);
	char rec[5001];
	int k = snprintf(rec, sizeof(rec), "{\"step\":5,\"phases\":{\"forward\":0.5},\"pad\":\"");
	memset(rec + k, 'y', (size_t)(4997 - k));
	memcpy(rec + 4997, "\"}\n", 3);   /* 5000 bytes, the last a newline */
	int fd = open(q, O_WRONLY);
	if (fd < 0 || pwrite(fd, rec, 5000, st.st_size - 5000) != 5000 || close(fd) != 0)
		perror(q);
	struct timespec ts[2] = { st.st_atim, st.st_mtim };
	utimensat(AT_FDCWD, q, ts, 0);
	follow_poll(f, 25);
	is_int(steps_nrecords(run->steps, 2), 5, "a tail whose size and mtime stay is not read again");
	ok(count_finding(f, "LIVE.JOB_STALL", "rank 2 left an unfinished last line"),
	   "the stall is judged: rank 2 left an unfinished last line");
	is_str(follow_state_name(follow_state(f)), "stalled", "... the job is stalled, not finished");
	const struct source *s = source_of(run, q);
	ok(s && s->partial, "its source row says partial, as a plain load says");
	/* rank 1: an unfinished line longer than the 64 MiB a line may have */
	rank_path(&j, 1, q, sizeof(q));
	FILE *fp = fopen(q, "a");
	for (int w = 0; fp && w < 65 * 1024 * 1024 / 5000 + 1; w++)
		fwrite(pad, 1, 5000, fp);
	if (!fp || fclose(fp) != 0)
		perror(q);
	follow_poll(f, 26);
	follow_poll(f, 50);
	is_int(tu_count_diag(run, "line skipped: line longer than 64 MiB"), 1, "a line past 64 MiB: skipped once, "
	       "as a load skips it");
	ok(count_finding(f, "LIVE.JOB_STALL", "ranks 1, 2 left an unfinished last line"),
	   "... and still an unfinished last line: the job stalled");
	unlink(q);
	free(pad);
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A finished job: a file touched is no advance and not said; one replaced by a copy of
 * itself is said, as the same records, and is no advance either. */
static void test_same_records(void)
{
	struct job j;
	job_make(&j, "follow-touch.", 4, 10);
	for (int r = 0; r < 4; r++)
		tu_write_finish(j.dir, r, 4, 10);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 100);   /* (a clock past 0: 0 and below is "none") */
	follow_poll(f, 130);
	is_str(follow_state_name(follow_state(f)), "finished", "the job finished");
	char q[600];
	rank_path(&j, 3, q, sizeof(q));
	struct timespec ts[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_sec = time(NULL) + 5 } };
	utimensat(AT_FDCWD, q, ts, 0);
	for (long now = 131; now <= 134; now++)
		follow_poll(f, (double)now);
	is_str(follow_state_name(follow_state(f)), "finished", "a file touched (mtime only): still finished");
	is_int(count_finding(f, "LIVE.RELOADED", NULL), 0, "... and nothing said");
	ok(follow_newest_age(f, 134) >= 30, "... the newest record is as old as before (%.0f s)",
	   follow_newest_age(f, 134));
	replace_steps(&j, 2, 10, 4);   /* the same records (append_step's), another inode */
	follow_poll(f, 135);
	ok(count_finding(f, "LIVE.RELOADED", "rank 2: steps.jsonl was replaced") &&
	   count_finding(f, "LIVE.RELOADED", "the same records (not an advance)"),
	   "a file replaced by a copy: said, as the same records");
	is_str(follow_state_name(follow_state(f)), "finished", "... still finished");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* Six ranks replaced in one poll: one entry; two rank dirs gone: one each; 70 more
 * reloads: 64 entries kept, one counting the others with the latest. */
static void test_folded(void)
{
	struct job j;
	job_make(&j, "follow-fold.", 8, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	for (int r = 0; r < 6; r++)
		replace_steps(&j, r, 3, 7);
	follow_poll(f, 2);
	is_int(count_finding(f, "LIVE.RELOADED", NULL), 1, "6 ranks replaced in one poll: one entry");
	ok(count_finding(f, "LIVE.RELOADED", "6 ranks (0-5): steps.jsonl was replaced; reloaded from the start"),
	   "... naming them");
	for (int r = 6; r < 8; r++) {
		char d[600];
		snprintf(d, sizeof(d), "%s/rank%d", j.dir, r);
		tu_rm_rf(d);
	}
	follow_poll(f, 3);
	is_int(count_finding(f, "LIVE.RANK_GONE", NULL), 2, "2 rank dirs gone: said one by one");
	for (int k = 0; k < 70; k++) {
		replace_steps(&j, 0, 4 + k, 1);
		follow_poll(f, 4 + k);
	}
	ok(count_finding(f, "LIVE.RELOADED", "more events not listed (the list keeps 64); the latest: rank 0: "),
	   "past the entries kept, one counts the events left out and says the latest");
	is_int(count_finding(f, "LIVE.RELOADED", "rank 0: steps.jsonl "), 62, "... 61 reloads of rank 0 kept one by "
	       "one, and the latest in the count");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* Ranks 0-1 taken over by another job: their files deleted, a run.json naming job-b
 * written, new steps. */
static void test_other_run(void)
{
	struct job j;
	job_make(&j, "follow-other.", 4, 10);
	for (int r = 0; r < 4; r++)
		write_run_json(&j, r, "job-a", 4);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	for (int r = 0; r < 2; r++) {
		char q[600];
		rank_path(&j, r, q, sizeof(q));
		unlink(q);
	}
	follow_poll(f, 2);
	for (int r = 0; r < 2; r++) {
		write_run_json(&j, r, "job-b", 2);
		replace_steps(&j, r, 3, 2);
	}
	follow_poll(f, 3);
	is_int(count_finding(f, "LIVE.RELOADED", "its run.json names another run, name 'job-b' (was 'job-a'), "
			     "world_size 2 (was 4)"), 2, "a rank reloaded under another run's run.json: said, never "
	       "merged silently");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* A trace written into the followed run dir: said once, not read. */
static void test_new_trace(void)
{
	struct job j;
	job_make(&j, "follow-trace.", 2, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	char t[600];
	snprintf(t, sizeof(t), "%s/trace.json", j.dir);
	const char *doc = "{\"traceEvents\": []}";
	tu_write_file(t, doc, strlen(doc));
	follow_poll(f, 2);
	snprintf(t, sizeof(t), "%s/notes.txt", j.dir);   /* the dir changes again */
	tu_write_file(t, "x", 1);
	follow_poll(f, 3);
	is_int(count_finding(f, "LIVE.NEW_TRACE", "trace.json appeared while following; --follow and R read the step "
			     "logs only: open the run again to read it"), 1, "a trace that appeared: said once");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

/* dir's mtime an hour back: a file written there next changes it, however coarse the
 * file system's clock. */
static void backdate(const char *dir)
{
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= 3600;
	t[1] = t[0];
	if (utimensat(AT_FDCWD, dir, t, 0) != 0)
		perror(dir);
}

/* A trace written into a rank dir of the followed run dir (the run dir's mtime stays):
 * said once, not read; a later file there says nothing more. Not one that a load would
 * not read: beside the run dir's own trace.json, a rank dir's trace is none of the run's. */
static void test_new_trace_rank_dir(void)
{
	static const char doc[] = "{\"traceEvents\": []}";
	for (int top = 0; top < 2; top++) {
		struct job j;
		job_make(&j, "follow-rtrace.", 2, 5);
		char t[700], d[600];
		snprintf(t, sizeof(t), "%s/trace.json", j.dir);
		if (top)
			tu_write_file(t, doc, strlen(doc));
		snprintf(d, sizeof(d), "%s/rank0", j.dir);
		backdate(d);
		backdate(j.dir);
		struct run *run = job_open(&j);
		const char *p = j.dir;
		struct follow *f = follow_new(run, &p, 1, &fopts, 0);
		follow_poll(f, 1);
		snprintf(t, sizeof(t), "%s/trace.json", d);
		tu_write_file(t, doc, strlen(doc));
		follow_poll(f, 6);   /* each rank dir is looked at once in 5 s */
		snprintf(t, sizeof(t), "%s/notes.txt", d);   /* the rank dir changes again */
		tu_write_file(t, "x", 1);
		follow_poll(f, 11);
		char want[800];
		snprintf(want, sizeof(want), "trace %s/trace.json appeared while following; --follow and R read the "
			 "step logs only: open the run again to read it", d);
		if (top)
			is_int(count_finding(f, "LIVE.NEW_TRACE", NULL), 0, "beside the run dir's trace.json, a trace in "
			       "a rank dir (not read by a load): not said");
		else
			is_int(count_finding(f, "LIVE.NEW_TRACE", want), 1, "a trace that appeared in a rank dir: said "
			       "once, naming it");
		is_int(follow_new_traces(f), !top, top ? "... not counted for R's message" : "... counted for R's message");
		follow_free(f);
		run_free(run);
		tu_rm_rf(j.dir);
	}
}

/* A DASF database copied into a followed empty dir: said once, naming it and how to read
 * it (following reads step logs and sweeps only); not a trace. */
static void test_new_dasf(void)
{
	char dir[512], db[600];
	if (!tu_mkdtemp(dir, sizeof(dir), "follow-dasf."))
		exit(1);
	backdate(dir);
	struct run *run = run_open((const char *[]){ dir }, 1, &no_opts, NULL);
	const char *p = dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	static const unsigned char rec[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0x80 };   /* one record: an empty map */
	snprintf(db, sizeof(db), "%s/a.msgpack", dir);
	tu_write_file(db, rec, sizeof(rec));
	follow_poll(f, 2);
	char want[1400];
	snprintf(want, sizeof(want), "DASF database %s appeared while following; --follow and R read step logs and "
		 "sweeps only: open %s without --follow to read it", db, dir);
	is_int(count_finding(f, "LIVE.NEW_DASF", want), 1, "a DASF database that appeared: said, naming it");
	is_int(follow_new_traces(f), 0, "... not counted as a trace");
	snprintf(db, sizeof(db), "%s/notes.txt", dir);   /* the dir changes again */
	tu_write_file(db, "x", 1);
	follow_poll(f, 3);
	is_int(count_finding(f, "LIVE.NEW_DASF", NULL), 1, "... once");
	follow_free(f);
	run_free(run);
	tu_rm_rf(dir);
}

/* Rank 1's file unreadable (a symlink loop: ELOOP even for root), then readable again;
 * rank 2's dir removed. */
static void test_source_rows(void)
{
	struct job j;
	job_make(&j, "follow-rows.", 3, 5);
	struct run *run = job_open(&j);
	const char *p = j.dir;
	struct follow *f = follow_new(run, &p, 1, &fopts, 0);
	follow_poll(f, 1);
	char q[600], saved[700];
	rank_path(&j, 1, q, sizeof(q));
	snprintf(saved, sizeof(saved), "%s.1", q);
	if (rename(q, saved) != 0 || symlink(q, q) != 0)
		perror(q);
	follow_poll(f, 2);
	const struct source *s = source_of(run, q);
	ok(s && s->err != 0, "a file that cannot be read: its source row says so (err %d)", s ? s->err : -1);
	unlink(q);
	if (rename(saved, q) != 0)
		perror("rename");
	follow_poll(f, 3);
	s = source_of(run, q);
	ok(s && s->err == 0 && s->records == 5, "... readable again: the row is the read's");
	char d[600];
	snprintf(d, sizeof(d), "%s/rank2", j.dir);
	tu_rm_rf(d);
	follow_poll(f, 4);
	rank_path(&j, 2, q, sizeof(q));
	s = source_of(run, q);
	ok(s && s->err != 0, "a rank dir gone: its file's row no longer says ok");
	follow_free(f);
	run_free(run);
	tu_rm_rf(j.dir);
}

int main(void)
{
	test_long_unfinished_line();
	test_same_records();
	test_folded();
	test_other_run();
	test_new_trace();
	test_new_trace_rank_dir();
	test_new_dasf();
	test_source_rows();
	return tap_done();
}
