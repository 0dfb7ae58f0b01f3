/* SPDX-License-Identifier: MIT */
/* gen_dasf.c: writes DASF-format databases for tests and benchmarks.
 *   gen_dasf fixture DIR   the hand-checked fixture (tests/unit/test_dasf.c and
 *                          tests/cli/dasf.sh pin its numbers): two worker hosts, three
 *                          workers, a client ResourceMonitor file with GPU and CPU-only
 *                          samples, a user-defined event and a truncated tail
 *   gen_dasf bench N DIR   about N events over 4 hosts x 4 workers (+ a resource file)
 *   gen_dasf legacy FILE   the legacy `trace: {json}` text format (times in ms)
 *   gen_dasf skew FILE     one function and one worker dominate (findings fire)
 *   gen_dasf names FILE    function names with glob characters and spaces */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/tools/dasf_writer.h"

static int open_err(const char *dir)
{
	fprintf(stderr, "gen_dasf: cannot write in %s: %s\n", dir, strerror(errno));
	return 1;
}

static unsigned long long lcg_state = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((lcg_state >> 33) % n);
}

#define BENCH_HOSTS 4
#define BENCH_WORKERS 4

static int bench(long n, const char *dir)
{
	static const char *const fn[] = { "from_zarr", "unc_fit-62a75b12-6b7a-49b0-b279", "var", "reshape",
					  "getitem", "predict", "sum", "transpose" };
	struct dw host[BENCH_HOSTS], res;
	char name[64];
	for (int h = 0; h < BENCH_HOSTS; h++) {
		snprintf(name, sizeof(name), "bench-TracePlugin-h%d.msgpack", h);
		if (dw_open_in(&host[h], dir, name) < 0)
			return open_err(dir);
	}
	if (dw_open_in(&res, dir, "bench-ResourceMonitor-h0.msgpack") < 0)
		return open_err(dir);
	double clock[BENCH_HOSTS * BENCH_WORKERS];
	long held[BENCH_HOSTS * BENCH_WORKERS] = { 0 };
	for (int w = 0; w < BENCH_HOSTS * BENCH_WORKERS; w++)
		clock[w] = 1000.0 * (w / BENCH_WORKERS + 1);
	long written = 0;
	for (long i = 0; written < n; i++) {
		int w = (int)(i % (BENCH_HOSTS * BENCH_WORKERS)), h = w / BENCH_WORKERS;
		char hostname[16], thread[48], key[64], dep[64], dnt[64];
		snprintf(hostname, sizeof(hostname), "h%d", h);
		snprintf(thread, sizeof(thread), "worker-h%d-%d", h, w % BENCH_WORKERS);
		const char *f = fn[(i / 16 + (unsigned long)w * 3) % 8];
		snprintf(key, sizeof(key), "('%s-%08lx', %ld, 0)", f, (unsigned long)(i * 2654435761u), i);
		long prev = i - 16, next = i + 16;
		snprintf(dep, sizeof(dep), "('%s-%08lx', %ld, 0)", fn[(prev / 16 + (unsigned long)w * 3) % 8],
			 (unsigned long)(prev * 2654435761u), prev);
		snprintf(dnt, sizeof(dnt), "('%s-%08lx', %ld, 0)", fn[(next / 16 + (unsigned long)w * 3) % 8],
			 (unsigned long)(next * 2654435761u), next);
		const char *deps[1] = { dep }, *dnts[1] = { dnt };
		double dur = 0.001 * (1 + rnd(200)) * (w == 0 ? 2 : 1);
		struct dw_task t = { hostname, thread, key, f, clock[w], dur, 1000 + rnd(4000000),
				     deps, prev >= 0, dnts, 1 };
		dw_compute(&host[h], &t);
		held[w] = (held[w] + 1 + rnd(3)) % 40;
		dw_memory(&host[h], hostname, thread, clock[w] + dur, key, held[w] * 100000, held[w]);
		written += 2;
		if (i % 5 == 0) {
			dw_resource(&res, "h0", clock[0] + 0.0005, i % 50 == 0 ? -1 : (int)rnd(101),
				    (long long)rnd(16000) * 1000000);
			written++;
		}
		clock[w] += dur + 0.0001 * rnd(10);
	}
	int rc = 0;
	for (int h = 0; h < BENCH_HOSTS; h++)
		rc |= dw_close(&host[h]);
	rc |= dw_close(&res);
	printf("%ld events\n", written);
	return rc ? 1 : 0;
}

static int legacy(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen_dasf: %s: %s\n", path, strerror(errno));
		return 1;
	}
	static const char *const line[] = {
		"{\"name\": \"Compute\", \"phase\": \"X\", \"timestamp\": 5000.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"compute\", \"data\": {\"key\": \"a-1\", "
		"\"name\": \"a\", \"state\": \"memory\", \"size\": 2000000, \"shape\": [], \"dtype\": \"unknown\", "
		"\"type\": \"<class 'int'>\", \"dependencies\": [], \"dependents\": [\"b-1\"]}, "
		"\"thread_timestamp\": 0, \"color_name\": null, \"duration\": 1500.0, \"thread_duration\": 0}",
		"{\"name\": \"Compute\", \"phase\": \"X\", \"timestamp\": 7000.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"compute\", \"data\": {\"key\": \"b-1\", "
		"\"name\": \"b\", \"state\": \"memory\", \"size\": 10, \"shape\": [2, 3], \"dtype\": \"float32\", "
		"\"type\": \"<class 'int'>\", \"dependencies\": [\"a-1\"], \"dependents\": []}, "
		"\"thread_timestamp\": 0, \"color_name\": null, \"duration\": 500.0, \"thread_duration\": 0}",
		"{\"name\": \"Managed Memory\", \"phase\": \"I\", \"timestamp\": 7600.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"memory\", \"data\": {\"key\": \"b-1\", "
		"\"state\": \"memory\", \"size\": 2000010, \"tasks\": 2}}",
	};
	for (size_t i = 0; i < sizeof(line) / sizeof(line[0]); i++)
		fprintf(f, "trace: %s\n", line[i]);
	fprintf(f, "this line is not a trace\n");
	fprintf(f, "trace: {\"name\": \"Compute\", \"timestamp\": 9");
	return fclose(f) ? 1 : 0;
}

/* Functions "other" (4 s), "a b[1]*" (two tasks, 3 s) and "a bX1]" (3 s): a drill-down
 * must match a name exactly, glob characters and filter separators included. */
static int names(const char *path)
{
	static const char *const fn[] = { "a b[1]*", "a b[1]*", "a bX1]", "other" };
	struct dw w;
	if (dw_open(&w, path) < 0)
		return 1;
	for (int i = 0; i < 4; i++) {
		char key[16];
		snprintf(key, sizeof(key), "k%d", i + 1);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, fn[i], i, 1.0 + i, 1, NULL, 0, NULL, 0 });
	}
	return dw_close(&w) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "fixture") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? dw_write_fixture(argv[2]) : 1;
	if (argc == 4 && strcmp(argv[1], "bench") == 0)
		return mkdir(argv[3], 0755) == 0 || errno == EEXIST ? bench(atol(argv[2]), argv[3]) : 1;
	if (argc == 3 && strcmp(argv[1], "legacy") == 0)
		return legacy(argv[2]);
	if (argc == 3 && strcmp(argv[1], "skew") == 0)
		return dw_write_skew(argv[2]);
	if (argc == 3 && strcmp(argv[1], "names") == 0)
		return names(argv[2]);
	fprintf(stderr, "usage: gen_dasf fixture DIR | gen_dasf bench N DIR | gen_dasf legacy FILE | gen_dasf skew FILE | gen_dasf names FILE\n");
	return 2;
}
