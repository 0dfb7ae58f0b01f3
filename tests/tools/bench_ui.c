/* SPDX-License-Identifier: MIT */
/* bench_ui.c: opens the explorer on a synthetic run built in memory, so the UI
 * benchmark (tests/bench_ui.sh) can measure key-to-screen time and bytes per key at
 * 1024 ranks x 20,000 steps without writing gigabytes of JSONL first.
 *   bench_ui [RANKS STEPS [noisy|spiky]]       (default 1024 20000)
 * The run is tests/tools/synth_run.h (rank RANKS/2 straggles from STEPS*2/5); `noisy`
 * builds the real-looking one (per-rank speeds, jitter, stalls, four slow ranks, rare
 * spikes), `spiky` the same with a spike in about one heatmap cell in ten. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tools/synth_run.h"
#include "ui/ui.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	long ranks = argc > 2 ? atol(argv[1]) : 1024, steps = argc > 2 ? atol(argv[2]) : 20000;
	static struct opts o;
	const char *kind = argc > 3 ? argv[3] : "";
	struct run *run = synth_run_ex(&o, ranks, steps, strcmp(kind, "noisy") == 0 ? SYNTH_NOISY :
					strcmp(kind, "spiky") == 0 ? SYNTH_SPIKY : SYNTH_CLEAN);
	int rc = ui_run(run, &o);
	run_free(run);
	return rc < 0 ? 1 : rc;
}
