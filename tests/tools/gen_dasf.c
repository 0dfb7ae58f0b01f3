/* SPDX-License-Identifier: MIT */
/* gen_dasf.c: writes DASF-format databases for tests and benchmarks.
 *   gen_dasf fixture DIR   the hand-checked fixture (tests/unit/test_dasf.c and
 *                          tests/cli/dasf.sh pin its numbers): two worker hosts, three
 *                          workers, a client ResourceMonitor file with GPU and CPU-only
 *                          samples, a user-defined event and a truncated tail
 *   gen_dasf bench N DIR   about N events over 4 hosts x 4 workers (+ a resource file)
 *   gen_dasf legacy FILE   the legacy `trace: {json}` text format (times in ms) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/tools/dasf_writer.h"

static int open_in(struct dw *w, const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (dw_open(w, path) < 0) {
		fprintf(stderr, "gen_dasf: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

#define ARR(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)
#define NONE NULL, 0

/* The fixture; every number derived from it is worked out in tests/unit/test_dasf.c. */
static int fixture(const char *dir)
{
	struct dw a, b, c;
	if (open_in(&a, dir, "1-TracePlugin-hA.msgpack") < 0 || open_in(&b, dir, "2-TracePlugin-hB.msgpack") < 0 ||
	    open_in(&c, dir, "3-ResourceMonitor-hA.msgpack") < 0)
		return 1;
	const char *w0 = "worker-hA-0", *w1 = "worker-hA-1", *wb = "worker-hB-0";
	dw_compute(&a, &(struct dw_task){ "hA", w0, "load-1", "load", 10.0, 2.0, 1000000, NONE, ARR("proc-1") });
	dw_memory(&a, "hA", w0, 10.2, "load-1", 1000000, 1);
	dw_compute(&a, &(struct dw_task){ "hA", w0, "load-2", "load", 12.5, 1.0, 3000000, NONE, ARR("proc-2") });
	dw_memory(&a, "hA", w0, 10.9, "load-2", 4000000, 2);
	dw_other(&a, "MyEvent", 11.0);
	dw_compute(&a, &(struct dw_task){ "hA", w1, "proc-1", "proc", 11.0, 4.0, 500000, ARR("load-1"), ARR("sum-0") });
	dw_memory(&a, "hA", w1, 11.1, "proc-1", 500000, 1);
	dw_compute(&a, &(struct dw_task){ "hA", w0, "proc-2", "proc", 14.0, 0.5, 700000, ARR("load-2"), ARR("sum-0") });
	dw_memory(&a, "hA", w0, 14.7, "proc-2", 4700000, 3);

	dw_compute(&b, &(struct dw_task){ "hB", wb, "sum-0", "sum", 100.0, 3.0, 8, ARR("proc-1", "proc-2"), NONE });
	dw_memory(&b, "hB", wb, 13.4, "sum-0", 8, 5);
	dw_compute(&b, &(struct dw_task){ "hB", wb, "load-3", "load", 104.0, 1.0, 2000000, ARR("ext-0"), NONE });
	dw_memory(&b, "hB", wb, 10.0, "load-3", 2000008, 4);
	dw_compute(&b, &(struct dw_task){ "hB", wb, "proc-1", "proc", 106.0, 2.0, 600000, ARR("load-1"), ARR("sum-0") });
	dw_len(&b, 100); /* truncated tail: a length, then only part of the record */
	dw_raw(&b, "\x87\xa4name\xa7" "Compute", 14);

	dw_resource(&c, "hA", 10.5, 50, 2000000000LL);
	dw_resource(&c, "hA", 11.5, 70, 4000000000LL);
	dw_resource(&c, "hA", 12.2, 0, 1000000000LL);
	dw_resource(&c, "hA", 14.2, 5, 3000000000LL);
	dw_resource(&c, "hA", 14.3, -1, 0);
	dw_resource(&c, "hA", 100.5, 8, 500000000LL);
	dw_resource(&c, "hA", 200.0, 99, 1000000000LL);
	dw_resource(&c, "hA", 101.0, -1, 0);
	dw_resource(&c, "hA", 13.5, 30, 1000000000LL);
	return dw_close(&a) | dw_close(&b) | dw_close(&c) ? 1 : 0;
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
		if (open_in(&host[h], dir, name) < 0)
			return 1;
	}
	if (open_in(&res, dir, "bench-ResourceMonitor-h0.msgpack") < 0)
		return 1;
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

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "fixture") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? fixture(argv[2]) : 1;
	if (argc == 4 && strcmp(argv[1], "bench") == 0)
		return mkdir(argv[3], 0755) == 0 || errno == EEXIST ? bench(atol(argv[2]), argv[3]) : 1;
	if (argc == 3 && strcmp(argv[1], "legacy") == 0)
		return legacy(argv[2]);
	fprintf(stderr, "usage: gen_dasf fixture DIR | gen_dasf bench N DIR | gen_dasf legacy FILE\n");
	return 2;
}
