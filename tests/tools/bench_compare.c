/* SPDX-License-Identifier: MIT */
/* bench_compare.c: what opening compare mode costs against opening one run, on
 * synthetic runs built in memory (tests/tools/synth_run.h; B is a second synth run, so
 * it differs from A by noise, and its straggler is the same rank).
 *   bench_compare one|pair [RANKS STEPS]     (default 1024 20000)
 * `one` builds a run and opens the explorer on it; `pair` builds two and opens compare
 * mode. With TSCOPE_SCRIPT set to a file holding "q" the explorer draws its first frame
 * headless and quits. Prints "cpu_s N" (user + system, getrusage) on stderr.
 * tests/bench_compare.sh runs both and reports the ratio. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "model/compare/compare.h"
#include "tests/tools/synth_run.h"
#include "ui/ui.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc < 2 || (strcmp(argv[1], "one") != 0 && strcmp(argv[1], "pair") != 0)) {
		fprintf(stderr, "usage: bench_compare one|pair [RANKS STEPS]\n");
		return 2;
	}
	long ranks = argc > 3 ? atol(argv[2]) : 1024, steps = argc > 3 ? atol(argv[3]) : 20000;
	static struct opts o;
	int rc;
	if (strcmp(argv[1], "one") == 0) {
		struct run *run = synth_run(&o, ranks, steps);
		rc = ui_run(run, &o);
		run_free(run);
	} else {
		struct run *a = synth_run(&o, ranks, steps), *b = synth_run(&o, ranks, steps);
		struct compare *c = compare_new(a, b, "steps");
		rc = ui_run_compare(c, &o);
		compare_free(c);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "cpu_s %.2f\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
					    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return rc < 0 ? 1 : rc;
}
