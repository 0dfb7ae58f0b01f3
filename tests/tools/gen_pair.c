/* SPDX-License-Identifier: MIT */
/* gen_pair.c: writes one side of a generated run pair for the comparison tests: a
 * RANKS x STEPS pytscope run (DIR/rank{k}/steps.jsonl + run.json, without a world_size:
 * the comparisons weigh ranks and steps, not the job's size) of a DDP-like job with
 * per-step noise (about 3% on forward/backward) drawn from SEED. With SLOW_RANK and
 * FROM_STEP, that rank's forward and backward are 25% slower from that step on. Two
 * calls with the same seed give identical runs; different seeds give run-to-run noise.
 * Usage: gen_pair DIR RANKS STEPS SEED [SLOW_RANK FROM_STEP] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/testutil.h"

static unsigned long long lcg;

static double rnd(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

/* Whole nanoseconds, as pytscope writes them (17 digits read back to the same double). */
static double ns(double s)
{
	return nearbyint(s * 1e9) / 1e9;
}

static void write_rank(const char *dir, int rank, int steps, unsigned long long seed, int slow_rank, int from)
{
	char rdir[4096];
	tu_rank_dir(rdir, sizeof(rdir), dir, rank);
	FILE *f = tu_create_in(rdir, "steps.jsonl");
	lcg = seed * 0x9e3779b97f4a7c15ULL + (unsigned long long)rank * 0xbf58476d1ce4e5b9ULL + 1;
	for (int s = 0; s < steps; s++) {
		double slow = rank == slow_rank && s >= from ? 1.25 : 1.0;
		double jit = 1 + 0.06 * (rnd() - 0.5);
		fprintf(f, "{\"step\":%d,\"timestamp\":%.17g,\"phases\":{\"data\":%.17g,\"forward\":%.17g,"
			   "\"backward\":%.17g,\"optimizer\":%.17g,\"comm\":%.17g},\"scalars\":{\"loss\":%.17g}}\n",
			s, 1795344000.0 + 0.12 * s, ns(0.008 * (1 + 0.1 * (rnd() - 0.5))), ns(0.030 * jit * slow),
			ns(0.060 * jit * slow), ns(0.006), ns(0.012 * (1 + 0.1 * (rnd() - 0.5))),
			2.0 / (1.0 + 0.01 * s) + 0.001 * rnd());
	}
	fclose(f);
	f = tu_create_in(rdir, "run.json");
	fprintf(f, "{\n  \"name\": \"pair\",\n  \"config\": {\"lr\": 0.001},\n  \"rank\": %d,\n"
		   "  \"environment\": {\"torch\": \"2.3.0\", \"env\": {\"PYTHONHASHSEED\": \"0\"}},\n  \"n_steps\": %d\n}",
		rank, steps);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc != 5 && argc != 7) {
		fprintf(stderr, "usage: gen_pair DIR RANKS STEPS SEED [SLOW_RANK FROM_STEP]\n");
		return 2;
	}
	int ranks = atoi(argv[2]), steps = atoi(argv[3]);
	unsigned long long seed = strtoull(argv[4], NULL, 10);
	int slow = argc == 7 ? atoi(argv[5]) : -1, from = argc == 7 ? atoi(argv[6]) : 0;
	tu_make_dir(argv[1]);
	for (int r = 0; r < ranks; r++)
		write_rank(argv[1], r, steps, seed, slow, from);
	return 0;
}
