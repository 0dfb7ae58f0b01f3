/* SPDX-License-Identifier: MIT */
/* bench_ui.c: opens the explorer on a synthetic run built in memory, so the UI
 * benchmark (tests/bench_ui.sh) can measure key-to-screen time and bytes per key at
 * 1024 ranks x 20,000 steps without writing gigabytes of JSONL first.
 *   bench_ui [RANKS STEPS]       (default 1024 20000)
 * Phases data/forward/backward/comm with deterministic noise; rank RANKS/2 turns into a
 * straggler at STEPS*2/5; a dataloader stall on every rank over 1% of the steps. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/opts.h"
#include "model/run.h"
#include "model/steps.h"
#include "ui/ui.h"

static unsigned long long lcg = 42;

static double rnd(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	long ranks = argc > 2 ? atol(argv[1]) : 1024, steps = argc > 2 ? atol(argv[2]) : 20000;
	static struct opts o;
	struct run *run = run_open(NULL, 0, &o, NULL);
	run_set_name(run, "bench");
	struct steps_model *m = steps_model_get(run);
	int ph[4] = {
		steps_metric_intern(m, METRIC_PHASE, "data"), steps_metric_intern(m, METRIC_PHASE, "forward"),
		steps_metric_intern(m, METRIC_PHASE, "backward"), steps_metric_intern(m, METRIC_PHASE, "comm"),
	};
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	for (long r = 0; r < ranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, (int)r, NULL);
		for (long s = 0; s < steps; s++) {
			size_t pos = rank_append(rs, s, 1000.0 + (double)s * 0.2, true);
			double slow = (r == ranks / 2 && s >= steps * 2 / 5) ? 1.2 : 1.0;
			double stall = (s >= steps / 2 && s < steps / 2 + steps / 100) ? 6.0 : 1.0;
			/* whole nanoseconds, as pytscope writes them */
			rank_set(rs, pos, ph[0], (double)(long)(1.2e7 * stall * (1 + 0.05 * rnd())) / 1e9);
			rank_set(rs, pos, ph[1], (double)(long)(4.0e7 * slow * (1 + 0.03 * rnd())) / 1e9);
			rank_set(rs, pos, ph[2], (double)(long)(6.0e7 * slow * (1 + 0.03 * rnd())) / 1e9);
			rank_set(rs, pos, ph[3], (double)(long)(1.0e7 * (1 + 0.1 * rnd())) / 1e9);
			if (r == 0)
				rank_set(rs, pos, loss, 2.0 / (1.0 + (double)s * 0.001));
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	int rc = ui_run(run, &o);
	run_free(run);
	return rc < 0 ? 1 : rc;
}
