/* SPDX-License-Identifier: MIT */
/* synth_run.h: the synthetic multi-rank step run the benchmark drivers build in memory
 * (bench_ui, bench_analysis), so big runs need no gigabytes of JSONL first.
 * Phases data/forward/backward/comm with deterministic noise; rank RANKS/2 turns into a
 * straggler at STEPS*2/5; a dataloader stall on every rank over 1% of the steps; rank 0
 * has a loss series. synth_run_ex(..., true) gives a noisy, real-looking run instead
 * (synth_noise). Header-only: each driver is its own program. */
#ifndef TESTS_TOOLS_SYNTH_RUN_H
#define TESTS_TOOLS_SYNTH_RUN_H

#include "model/opts.h"
#include "model/run.h"
#include <stdlib.h>
#include "model/steps/steps.h"

static unsigned long long synth_lcg = 42;

static double synth_rnd(void)
{
	synth_lcg = synth_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(synth_lcg >> 11) / 9007199254740992.0;
}

/* About N(0, 1): the sum of four uniforms, scaled. */
static double synth_gauss(void)
{
	return (synth_rnd() + synth_rnd() + synth_rnd() + synth_rnd() - 2.0) * 1.7320508;
}

/* The noisy runs (synth_run_ex with SYNTH_NOISY or SYNTH_SPIKY): a real job's texture.
 * Each rank has its own speed (sd 2%), every step jitters (sd 3%), a dataloader stall
 * hits every rank on one step in 500, four ranks are slow (one 25% from the start, one
 * 15% from the middle, one 40% on every 7th step, one whose comm doubles over the last
 * fifth), and a rank-step spikes (x1.3-2) once in 20,000 (noisy) or once in 3,000
 * (spiky: then about one heatmap cell in ten holds a spike, its worst). Returns the
 * factor for the compute phases. */
enum synth_kind { SYNTH_CLEAN, SYNTH_NOISY, SYNTH_SPIKY };

static double synth_noise(long r, long s, long ranks, long steps, const double *rank_speed, enum synth_kind kind)
{
	double f = rank_speed[r] * (1 + 0.03 * synth_gauss());
	if (synth_rnd() < (kind == SYNTH_SPIKY ? 1.0 / 3000 : 1.0 / 20000))
		f *= 1.3 + 0.7 * synth_rnd();
	if (r == ranks / 3)
		f *= 1.25;
	if (r == ranks / 2 && s >= steps / 2)
		f *= 1.15;
	if (r == ranks * 3 / 4 && s % 7 == 0)
		f *= 1.4;
	return f < 0.5 ? 0.5 : f;
}

/* A finalized run of `ranks` x `steps` records named "bench"; free with run_free().
 * kind: the clean run below, or the texture of synth_noise(). */
static struct run *synth_run_ex(const struct opts *o, long ranks, long steps, enum synth_kind kind)
{
	bool noisy = kind != SYNTH_CLEAN;
	struct run *run = run_open(NULL, 0, o, NULL);
	run_set_name(run, "bench");
	struct steps_model *m = steps_model_get(run);
	int ph[4] = {
		steps_metric_intern(m, METRIC_PHASE, "data"), steps_metric_intern(m, METRIC_PHASE, "forward"),
		steps_metric_intern(m, METRIC_PHASE, "backward"), steps_metric_intern(m, METRIC_PHASE, "comm"),
	};
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	double *rank_speed = malloc((size_t)ranks * sizeof(*rank_speed));
	for (long r = 0; r < ranks; r++)
		rank_speed[r] = 1 + 0.02 * synth_gauss();
	for (long r = 0; r < ranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, (int)r, NULL);
		for (long s = 0; s < steps; s++) {
			size_t pos = rank_append(rs, s, 1000.0 + (double)s * 0.2, true);
			double slow = (r == ranks / 2 && s >= steps * 2 / 5) ? 1.2 : 1.0;
			double stall = (s >= steps / 2 && s < steps / 2 + steps / 100) ? 6.0 : 1.0;
			if (noisy) {
				slow = synth_noise(r, s, ranks, steps, rank_speed, kind);
				stall = (s * 2654435761u) % 500 == 0 ? 4.0 : 1.0;
			}
			/* whole nanoseconds, as pytscope writes them */
			rank_set(rs, pos, ph[0], (double)(long)(1.2e7 * stall * (1 + 0.05 * synth_rnd())) / 1e9);
			rank_set(rs, pos, ph[1], (double)(long)(4.0e7 * slow * (1 + 0.03 * synth_rnd())) / 1e9);
			rank_set(rs, pos, ph[2], (double)(long)(6.0e7 * slow * (1 + 0.03 * synth_rnd())) / 1e9);
			double comm = noisy && r == ranks / 5 && s >= steps * 4 / 5 ? 2.0 : 1.0;
			rank_set(rs, pos, ph[3], (double)(long)(1.0e7 * comm * (1 + 0.1 * synth_rnd())) / 1e9);
			if (r == 0)
				rank_set(rs, pos, loss, 2.0 / (1.0 + (double)s * 0.001));
		}
		steps_publish_rank(m, rs);
	}
	free(rank_speed);
	steps_finalize(m);
	return run;
}

static inline struct run *synth_run(const struct opts *o, long ranks, long steps)
{
	return synth_run_ex(o, ranks, steps, SYNTH_CLEAN);
}

#endif
