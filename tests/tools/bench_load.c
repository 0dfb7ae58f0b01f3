/* SPDX-License-Identifier: MIT */
/* bench_load.c: headless load benchmark driver. Opens a run directory with --jobs N
 * (the same run_open() the tool uses), then prints one line of figures:
 *   bench_load DIR JOBS [index]   (the persistent index is used only with "index")
 *   -> wall seconds, MB/s, CPU seconds (user + system, all threads), MB per CPU second
 *      (the per-core rate, meaningful on a shared machine), records, bytes of input, resident bytes of the step store,
 *      store bytes per record, peak RSS (getrusage), RSS after the load and its growth
 *      per record (resident bytes per record, what the 48 B target is about).
 * The load runs inside a dirlist scope, as main() opens it around identification and
 * the load: each directory is listed and each run.json read once, as users run it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/run.h"
#include "model/steps/steps.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Current resident set in kB (/proc/self/statm), 0 when unknown. */
static long rss_now_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, res = 0;
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static long peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
	if (argc != 3 && !(argc == 4 && strcmp(argv[3], "index") == 0)) {
		fprintf(stderr, "usage: bench_load DIR JOBS [index]\n");
		return 2;
	}
	struct opts o = { .jobs = atoi(argv[2]), .no_index = argc == 3 }; /* "index": open through it */
	const char *paths[] = { argv[1] };
	long rss0 = rss_now_kb();
	double t0 = now(), c0 = cpu_seconds();
	dirlist_scope_begin();
	struct run *run = run_open(paths, 1, &o, NULL);
	dirlist_scope_end();
	double dt = now() - t0, cpu = cpu_seconds() - c0;
	long long bytes = 0;
	size_t skipped = 0;
	for (size_t i = 0; i < run->nsrc; i++) {
		bytes += run->src[i].bytes > 0 ? run->src[i].bytes : 0;
		skipped += run->src[i].skipped;
	}
	size_t rec = steps_total_records(run->steps);
	size_t store = steps_resident_bytes(run->steps);
	long rss = peak_rss_kb(), res = rss_now_kb();
	printf("jobs=%d seconds=%.3f MB/s=%.0f cpu_seconds=%.3f MB/cpu_s=%.0f records=%zu skipped=%zu input_MB=%.1f store_MB=%.1f "
	       "store_B/record=%.1f peak_rss_MB=%.1f rss_after_load_MB=%.1f rss_B/record=%.1f\n",
	       o.jobs, dt, (double)bytes / 1e6 / dt, cpu, (double)bytes / 1e6 / cpu, rec, skipped, (double)bytes / 1e6, (double)store / 1e6,
	       rec ? (double)store / (double)rec : 0.0, (double)rss / 1024.0, (double)res / 1024.0,
	       rec ? (double)(res - rss0) * 1024.0 / (double)rec : 0.0);
	run_free(run);
	return 0;
}
