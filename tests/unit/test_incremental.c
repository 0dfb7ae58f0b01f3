/* SPDX-License-Identifier: MIT */
/* test_incremental.c: the analyses of a live run after appends (analysis.h LIVE RUNS).
 * A step model grows round by round as a follower grows it (steps_rank_grow,
 * rank_append, steps_refresh); after each round every heatmap pyramid, the per-step
 * medians and the distributed analysis, extended in place, must equal bit for bit what
 * a fresh build over the same records gives. The rounds cross powers of two (new
 * pyramid levels), leave one rank behind (aligned steps lag), bring the first missing
 * cell to a dense grid (rebuilt whole) and to the slowdown grid (a step whose median is
 * 0), extend grids that already have missing cells, and end with an append that is not
 * one (an old step number again: everything dropped). Live or not, the heatmap's axis
 * goes on past a lagging rank to the leading ranks' newest step. Then the lag contract:
 * held results until analysis_catch_up(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "tests/tap.h"

enum { NRANKS = 4 };

static const struct opts no_opts;
static int ph_data, ph_fwd, ph_bwd, ph_comm;

/* Deterministic values: whole nanoseconds, rank 2 slower from step 40. */
static double val(int rank, long step, int k)
{
	unsigned long h = (unsigned long)(rank * 7919 + step * 104729 + k * 15485863);
	h = (h ^ (h >> 13)) * 2654435761UL;
	double base[] = { 0.010, 0.040, 0.060, 0.008 };
	double slow = rank == 2 && step >= 40 && k < 3 ? 1.3 : 1.0;
	return (double)(long)(base[k] * slow * (1 + (double)(h % 1000) / 20000.0) * 1e9) / 1e9;
}

/* Append steps [lo, hi) to rank ri. fwd_gap: a step without forward (-1: none); zero: a
 * step whose compute is 0 (-1: none). */
static void grow(struct steps_model *m, size_t ri, long lo, long hi, long fwd_gap, long zero)
{
	struct rank_steps *r = steps_rank_grow(m, ri);
	int rank = steps_rank_id(m, ri);
	for (long s = lo; s < hi; s++) {
		size_t pos = rank_append(r, s, 1000.0 + (double)s, true);
		rank_set(r, pos, ph_data, s == zero ? 0 : val(rank, s, 0));
		if (s != fwd_gap)
			rank_set(r, pos, ph_fwd, s == zero ? 0 : val(rank, s, 1));
		rank_set(r, pos, ph_bwd, s == zero ? 0 : val(rank, s, 2));
		rank_set(r, pos, ph_comm, val(rank, s, 3));
	}
}

static int series[5];

/* Every range query of every rank of a grid, flattened (NaN where empty). */
static double *grid_dump(struct run *run, int s, size_t *n)
{
	const struct heat_grid *g = analysis_heatmap(run, s);
	size_t N = heat_nranks(g), S = heat_nsteps(g), k = 0;
	double *v = malloc((N * S * (S + 1) + 1) * sizeof(*v));
	for (size_t r = 0; r < N; r++)
		for (size_t a = 0; a < S; a++)
			for (size_t b = a + 1; b <= S; b++) {
				double mean = NAN, worst = NAN;
				if (heat_range(g, r, a, b, &mean, &worst)) {
					v[k++] = mean;
					v[k++] = worst;
				} else {
					v[k++] = NAN;
					v[k++] = NAN;
				}
			}
	*n = k;
	return v;
}

static bool same_doubles(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], sizeof(double)) != 0 && !(isnan(a[i]) && isnan(b[i])))
			return false;
	return true;
}

/* The distributed analysis flattened: summary, every step, the rank figures. */
static double *dist_dump(struct run *run, size_t *n)
{
	const struct distributed *d = analysis_distributed(run);
	size_t k = 0;
	double *v = malloc((8 + d->n_steps * 10 + d->world_size * 20) * sizeof(*v));
	double head[] = { (double)d->n_steps, d->mean_step_wall, d->mean_comm_fraction, d->imbalance_cv,
			  d->sync_skew, d->wall_frac_lost, (double)d->straggler, (double)d->nstragglers };
	memcpy(v, head, sizeof(head));
	k = 8;
	for (size_t i = 0; i < d->n_steps; i++) {
		const struct dist_step *s = &d->step[i];
		double x[] = { (double)s->step, s->critical, s->wall, s->cmax, s->cmean, s->cmed, s->comm_max,
			       s->comm_frac, s->cv, s->skew };
		memcpy(v + k, x, sizeof(x));
		k += 10;
	}
	for (size_t r = 0; r < d->world_size; r++) {
		const struct rank_stat *s = &d->rank[r];
		double x[] = { s->mean_compute, s->median_compute, (double)s->slowest_count, s->slowest_fraction,
			       s->straggler_z, s->rel_slowdown, s->time_lost, (double)s->onset, (double)s->onset_end,
			       (double)s->missing, s->coverage, s->noise, (double)s->slow_onset, s->slow_shift,
			       s->slow_z, s->slow_cost, (double)s->stall_lo, s->stall_shift, s->stall_cost,
			       s->straggler };
		memcpy(v + k, x, sizeof(x));
		k += 20;
	}
	*n = k;
	return v;
}

/* Extended (the analyses memoized before the round) against fresh (cache dropped). */
static void check_round(struct run *run, const char *what)
{
	size_t n[6], fn;
	double *inc[6];
	for (int i = 0; i < 5; i++)
		inc[i] = grid_dump(run, series[i], &n[i]);
	inc[5] = dist_dump(run, &n[5]);
	void **slot = steps_analysis_slot(run->steps);
	analysis_cache_free(*slot);
	*slot = NULL;
	static const char *const name[] = { "compute", "comm", "step time", "slowdown", "forward", "distributed" };
	for (int i = 0; i < 6; i++) {
		double *fresh = i < 5 ? grid_dump(run, series[i], &fn) : dist_dump(run, &fn);
		ok(fn == n[i] && same_doubles(inc[i], fresh, fn), "%s: %s extended = fresh build, bit for bit", what,
		   name[i]);
		free(fresh);
		free(inc[i]);
	}
}

/* Rank ri grows [lo, hi) without step `skip`. */
static void grow_skip(struct steps_model *m, size_t ri, long lo, long hi, long skip)
{
	grow(m, ri, lo, skip, -1, -1);
	grow(m, ri, skip + 1, hi, -1, -1);
}

static void scenario(bool live)
{
	const char *tag = live ? "live" : "static";
	struct run *run = run_open(NULL, 0, &no_opts, NULL);
	struct steps_model *m = steps_model_get(run);
	ph_data = steps_metric_intern(m, METRIC_PHASE, "data");
	ph_fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	ph_bwd = steps_metric_intern(m, METRIC_PHASE, "backward");
	ph_comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	int ids[] = { HEAT_COMPUTE, HEAT_COMM, HEAT_STEP_TIME, HEAT_REL_SLOWDOWN, ph_fwd };
	memcpy(series, ids, sizeof(ids));
	for (int r = 0; r < NRANKS; r++)
		steps_publish_rank(m, steps_rank_new(m, r, "x"));
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 0, 60, -1, -1);
	steps_finalize(m);
	if (live)
		steps_set_live(m);
	printf("# %s run\n", tag);
	check_round(run, "60 steps");

	/* every analysis memoized, then the rounds */
	const struct heat_grid *g0 = analysis_heatmap(run, HEAT_COMPUTE);
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 60, 66, -1, -1);
	ok(steps_refresh(m), "appends refresh the model");
	ok(analysis_heatmap(run, HEAT_COMPUTE) == g0 && heat_nsteps(g0) == 66,
	   "the compute grid is extended in place to 66 steps, not rebuilt");
	check_round(run, "66 steps (a new pyramid level)");

	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 66, ri == 3 ? 69 : 80, -1, -1);
	steps_refresh(m);
	is_int(steps_naligned(m), 69, "rank 3 lags: 69 aligned steps");
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	double mean, worst;   /* live or not: the same input shows the same steps */
	ok(heat_nsteps(g) == 80 && !heat_range(g, 3, 69, 80, &mean, &worst) && heat_range(g, 0, 69, 80, &mean, &worst),
	   "%s: the axis reaches step 79 of the leading ranks; rank 3's cells there are missing", tag);
	check_round(run, "rank 3 behind");

	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, ri == 3 ? 69 : 80, ri == 3 ? 75 : 90, ri == 1 ? 85 : -1, 88);
	steps_refresh(m);
	check_round(run, "rank 3 catching up, first missing forward, a step with compute 0");

	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, ri == 3 ? 75 : 90, 131, ri == 2 ? 100 : -1, 120);
	steps_refresh(m);
	check_round(run, "grids with missing cells extended past 128");

	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, ri == 0 ? 10 : 131, ri == 0 ? 11 : 140, -1, -1);
	steps_refresh(m);
	check_round(run, "an old step number again (not an append)");

	/* rank 0 leads with a gap at 144; then rank 1 fills 144: a column in the middle */
	grow_skip(m, 0, 131, 147, 144);
	steps_refresh(m);
	check_round(run, "a leading rank with a gap");
	grow(m, 1, 140, 146, -1, -1);
	steps_refresh(m);
	check_round(run, "a step appears between the columns");

	/* lagging allowed: held until caught up */
	analysis_allow_lag(run, true);
	const struct distributed *d = analysis_distributed(run);
	size_t was = d->n_steps;
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, ri == 0 ? 147 : ri == 1 ? 146 : 140, 150, -1, -1);
	steps_refresh(m);
	ok(analysis_lagging(run) && analysis_distributed(run)->n_steps == was,
	   "lag allowed: the distributed analysis is held (%zu aligned steps, the run has %zu)", was,
	   steps_naligned(m));
	ok(heat_nsteps(analysis_heatmap(run, HEAT_COMPUTE)) == steps_ncolumns(m), "the heatmap is current meanwhile");
	analysis_catch_up(run);
	ok(!analysis_lagging(run) && analysis_distributed(run)->n_steps == steps_naligned(m),
	   "analysis_catch_up: recomputed over every aligned step");
	check_round(run, "after catching up");

	/* the catch-up on a worker: the held result answers until it is published */
	d = analysis_distributed(run);
	was = d->n_steps;
	ok(!analysis_recompute_start(run), "a worker starts only when results are held");
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 150, 153, -1, -1);
	steps_refresh(m);
	ok(analysis_recompute_start(run) && analysis_recompute_running(run) && !analysis_recompute_start(run),
	   "a worker starts on held results, one at a time");
	ok(analysis_distributed(run)->n_steps == was && analysis_lagging(run),
	   "while it runs, the held result answers");
	ok(heat_nsteps(analysis_heatmap(run, HEAT_COMPUTE)) == steps_ncolumns(m),
	   "the heatmap extends meanwhile (the caller's thread)");
	while (!analysis_recompute_publish(run))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	ok(!analysis_recompute_running(run) && !analysis_lagging(run) &&
	   analysis_distributed(run)->n_steps == steps_naligned(m), "published: current, over every aligned step");
	check_round(run, "the worker's result");
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 153, 155, -1, -1);
	steps_refresh(m);
	ok(analysis_recompute_start(run), "a second worker");
	analysis_catch_up(run);
	ok(!analysis_recompute_running(run) && !analysis_lagging(run) &&
	   analysis_distributed(run)->n_steps == steps_naligned(m), "analysis_catch_up waits for it and takes its result");
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 155, 156, -1, -1);
	steps_refresh(m);
	ok(analysis_recompute_start(run), "a third worker");
	analysis_allow_lag(run, false);
	ok(!analysis_recompute_running(run) && !analysis_lagging(run), "lag no longer allowed: waits for it");
	for (size_t ri = 0; ri < NRANKS; ri++)
		grow(m, ri, 150, 151, -1, -1);
	steps_refresh(m);
	ok(!analysis_lagging(run) && analysis_distributed(run)->n_steps == steps_naligned(m),
	   "lag not allowed: appends drop the distributed analysis");
	run_free(run);
}

int main(void)
{
	scenario(false);
	scenario(true);
	return tap_done();
}
