/* SPDX-License-Identifier: MIT */
/* bench_analysis.c: times the run-wide analyzers the explorer computes on first use
 * (the distributed analysis behind the first `n`, each heatmap metric's aggregates) on
 * the synthetic run of tests/tools/synth_run.h, and prints a digest of every result so
 * two builds can be compared bit for bit.
 *   bench_analysis [RANKS STEPS]     (default 1024 20000)
 * One line per analyzer: name, wall seconds, CPU seconds (all threads), FNV-1a digest.
 * BENCH_ONLY="dist slowdown ..." picks analyzers; BENCH_HEAT_FIRST=1 builds the heatmaps
 * before the distributed analysis (the slowdown metric then computes the step medians). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/steps/analysis.h"
#include "tests/tools/synth_run.h"

static double now(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 1099511628211ULL;
}

static uint64_t digest_dist(const struct distributed *d)
{
	uint64_t h = 1469598103934665603ULL;
	if (!d)
		return h;
	double sum[] = { d->mean_step_wall, d->mean_comm_fraction, d->imbalance_cv, d->sync_skew,
			 d->wall_frac_lost, (double)d->straggler };
	fnv(&h, sum, sizeof(sum));
	for (size_t k = 0; k < d->n_steps; k++)
		fnv(&h, &d->step[k], sizeof(d->step[k]));
	for (size_t r = 0; r < d->world_size; r++) {
		const struct rank_stat *s = &d->rank[r];
		double v[] = { s->mean_compute, s->median_compute, (double)s->slowest_count, s->slowest_fraction,
			       s->straggler_z, s->rel_slowdown, s->time_lost, (double)s->onset,
			       (double)s->onset_end, (double)s->missing, s->coverage, s->mem_peak };
		fnv(&h, v, sizeof(v));
	}
	return h;
}

/* Every cell, then every aligned power-of-two block, through heat_range. */
static uint64_t digest_heat(const struct heat_grid *g)
{
	uint64_t h = 1469598103934665603ULL;
	size_t S = heat_nsteps(g);
	for (size_t r = 0; r < heat_nranks(g); r++)
		for (size_t w = 1; w < 2 * S; w *= 2)
			for (size_t k = 0; k < S; k += w) {
				double v[2] = { 0, 0 };
				bool ok = heat_range(g, r, k, k + w, &v[0], &v[1]);
				fnv(&h, &ok, sizeof(ok));
				fnv(&h, v, sizeof(v));
			}
	return h;
}

static void bench_dist(struct run *run)
{
	double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	const struct distributed *d = analysis_distributed(run);
	double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("%-22s %8.3f s wall %8.3f s cpu  %016llx\n", "distributed", w, c,
	       (unsigned long long)digest_dist(d));
	if (d && d->nstragglers) /* the native verdicts ride in the same pass */
		printf("%-22s %zu, first rank %d from step %ld\n", "  straggler set", d->nstragglers,
		       d->rank[d->stragglers[0]].rank, d->rank[d->stragglers[0]].slow_onset);
}

static void bench_heat(struct run *run, const char *only)
{
	static const struct { int series; const char *name; } heat[] = {
		{ HEAT_COMPUTE, "heat compute" }, { HEAT_REL_SLOWDOWN, "heat slowdown" },
		{ HEAT_STEP_TIME, "heat step time" }, { HEAT_COMM, "heat comm" },
	};
	for (size_t i = 0; i < sizeof(heat) / sizeof(heat[0]); i++) {
		if (only && !strstr(only, heat[i].name + 5))
			continue;
		double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
		const struct heat_grid *g = analysis_heatmap(run, heat[i].series);
		double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
		printf("%-22s %8.3f s wall %8.3f s cpu  %016llx\n", heat[i].name, w, c,
		       (unsigned long long)digest_heat(g));
	}
}

int main(int argc, char **argv)
{
	long ranks = argc > 2 ? atol(argv[1]) : 1024, steps = argc > 2 ? atol(argv[2]) : 20000;
	static struct opts o;
	double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	struct run *run = synth_run(&o, ranks, steps);
	printf("%-22s %8.3f s wall %8.3f s cpu\n", "build run", now(CLOCK_MONOTONIC) - w0,
	       now(CLOCK_PROCESS_CPUTIME_ID) - c0);
	const char *only = getenv("BENCH_ONLY");
	bool heat_first = getenv("BENCH_HEAT_FIRST") != NULL;
	if (heat_first)
		bench_heat(run, only);
	if (!only || strstr(only, "dist"))
		bench_dist(run);
	if (!heat_first)
		bench_heat(run, only);
	run_free(run);
	return 0;
}
