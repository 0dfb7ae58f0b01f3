/* SPDX-License-Identifier: MIT */
/* bench_delta.c: what follow mode's index append costs (model/index/index.h DELTAS): a
 * delta file against rewriting the index whole, on an indexed run dir (whole or sharded).
 *   bench_delta RUN_DIR [LINES [ROUNDS]]    (default 60 lines, 2 rounds)
 * Opens RUN_DIR from its index, starts a follower, then ROUNDS times: appends LINES
 * records to every rank's steps.jsonl (its last line again, steps after it: 60 lines =
 * a minute of a job at one step per second), reads them (follow_poll) and appends them
 * to the index (follow_save_index: a delta per part and the summary delta). Then rewrites the index whole
 * (index_append: what follow mode did before deltas, at every stop), unless
 * BENCH_DELTA_KEEP=1 (the deltas stay, for timing the next open). One line each: what,
 * CPU seconds (user + sys, all threads), wall seconds, bytes written (the process's
 * write() bytes, /proc/self/io wchar, -1 where it cannot be read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "model/index/index.h"
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

static double cpu_s(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
	       (double)u.ru_stime.tv_usec / 1e6;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytes this process has passed to write() so far (-1: unknown). */
static long long written_bytes(void)
{
	FILE *f = fopen("/proc/self/io", "r");
	long long v = -1;
	char key[64];
	long long x;
	while (f && fscanf(f, "%63[^:]: %lld\n", key, &x) == 2)
		if (strcmp(key, "wchar") == 0)
			v = x;
	if (f)
		fclose(f);
	return v;
}

/* Append n copies of path's last line with the steps after its own. */
static void grow_file(const char *path, int n)
{
	FILE *f = fopen(path, "r+");
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	long end = ftell(f), at = end > 4096 ? end - 4096 : 0;
	char buf[4097];
	fseek(f, at, SEEK_SET);
	size_t k = fread(buf, 1, (size_t)(end - at), f);
	buf[k] = '\0';
	while (k && buf[k - 1] == '\n')
		buf[--k] = '\0';
	char *line = strrchr(buf, '\n');
	line = line ? line + 1 : buf;
	char *s = strstr(line, "\"step\":");
	if (!s) {
		fclose(f);
		return;
	}
	long step = strtol(s + 7, NULL, 10);
	char *rest = s + 7;
	while (*rest == ' ' || (*rest >= '0' && *rest <= '9'))
		rest++;
	fseek(f, 0, SEEK_END);
	for (int i = 1; i <= n; i++)
		fprintf(f, "%.*s\"step\":%ld%s\n", (int)(s - line), line, step + i, rest);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_delta RUN_DIR [LINES [ROUNDS]]\n");
		return 2;
	}
	const char *dir = argv[1];
	int lines = argc > 2 ? atoi(argv[2]) : 60, rounds = argc > 3 ? atoi(argv[3]) : 2;
	struct opts o = { 0 };
	const char *paths[] = { dir };
	o.paths = paths;
	o.npaths = 1;
	double c0 = cpu_s(), w0 = wall_s();
	struct run *run = run_open(paths, 1, &o, NULL);
	printf("open (from the index): %.2f CPU s, %.2f s\n", cpu_s() - c0, wall_s() - w0);
	struct follow_opts fo = { .interval = 1, .stall_floor = 10, .index_every = 1e9, .index_bytes = 1LL << 62 };
	struct follow *f = follow_new(run, paths, 1, &fo, 0);
	struct steps_rank_file *files = NULL;
	size_t n = steps_plan_files(dir, &files);
	for (int r = 1; r <= rounds; r++) {
		for (size_t i = 0; i < n; i++)
			grow_file(files[i].steps, lines);
		c0 = cpu_s();
		w0 = wall_s();
		follow_poll(f, r);
		printf("round %d: read %d lines x %zu ranks: %.2f CPU s, %.2f s\n", r, lines, n, cpu_s() - c0,
		       wall_s() - w0);
		long long b0 = written_bytes();
		c0 = cpu_s();
		w0 = wall_s();
		size_t saved = follow_save_index(f);
		double c = cpu_s() - c0, w = wall_s() - w0;
		printf("round %d: save (%zu index): %.3f CPU s, %.3f s, %lld bytes\n", r, saved, c, w,
		       written_bytes() - b0);
		char *idir = index_dir_for(dir), *sp = xasprintf("%s/summary-delta.tsx", idir);
		struct stat st;
		printf("round %d: of which the summary delta: %lld bytes\n", r,
		       stat(sp, &st) == 0 ? (long long)st.st_size : -1LL);
		free(sp);
		free(idir);
	}
	const char *keep = getenv("BENCH_DELTA_KEEP");
	if (!keep || strcmp(keep, "1") != 0) {
		long long b0 = written_bytes();
		c0 = cpu_s();
		w0 = wall_s();
		int err = index_append(run, dir, NULL);
		printf("whole rewrite (index_append, err %d): %.2f CPU s, %.2f s, %lld bytes\n", err, cpu_s() - c0,
		       wall_s() - w0, written_bytes() - b0);
	}
	steps_rank_files_free(files);
	follow_free(f);
	run_free(run);
	return 0;
}
