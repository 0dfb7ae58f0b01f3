/* SPDX-License-Identifier: MIT */
/* gen_fixtures.c: writes the spec's pytscope fixtures (pytscope.md §12) into a directory:
 *   gen_fixtures f1 DIR   single rank, 60 steps (dataloader bound, spike at i = 40, growth)
 *   gen_fixtures f2 DIR   4 ranks x 50 steps, rank 2 a straggler (DIR/rank{0..3}/)
 *   gen_fixtures failslow DIR   48 ranks x 1500 steps, +-5% noise; rank 17 is 35% slower
 *                         from step 1000 (fail-slow), rank 30 3x slower over steps 400-419
 *   gen_fixtures balanced DIR   64 ranks x 400 steps, +-5% noise only
 * Floats are written with 17 significant digits, which reads back as the same double
 * Python's repr would give. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/testutil.h"

#define MIB 1048576.0

static void f1(const char *dir)
{
	tu_make_dir(dir);
	FILE *f = tu_create_in(dir, "steps.jsonl");
	for (int i = 0; i < 60; i++) {
		double fwd = i == 40 ? 0.020 : 0.004;
		double loss = 2 * exp(-0.05 * i) + 0.1;
		if (i == 40)
			loss *= 10;
		double gn = i == 40 ? 50.0 : 1 + 0.01 * (i % 3);
		fprintf(f, "{\"step\":%d,\"timestamp\":%.17g,\"phases\":{\"data\":0.012,\"forward\":%.17g,"
			   "\"backward\":0.006,\"optimizer\":0.001},\"scalars\":{\"loss\":%.17g,\"grad_norm\":%.17g},"
			   "\"memory\":{\"alloc\":%.1f,\"reserved\":%.1f,\"peak_alloc\":%.1f,\"peak_reserved\":%.1f}}\n",
			i, 1795344081.25 + 0.0233 * i, fwd, loss, gn, (200 + 2 * i) * MIB, (300 + 2 * i) * MIB,
			(220 + 2 * i) * MIB, (300 + 2 * i) * MIB);
	}
	fclose(f);
	f = tu_create_in(dir, "run.json");
	fprintf(f, "{\n  \"name\": \"f1\",\n  \"config\": {},\n  \"rank\": 0,\n  \"world_size\": 1,\n"
		   "  \"flops_per_step\": 200000000000.0,\n  \"peak_flops\": 312000000000000.0,\n"
		   "  \"n_steps\": 60\n}");
	fclose(f);
}

static void f2(const char *dir)
{
	tu_make_dir(dir);
	for (int r = 0; r < 4; r++) {
		char rdir[4096];
		tu_rank_dir(rdir, sizeof(rdir), dir, r);
		FILE *f = tu_create_in(rdir, "steps.jsonl");
		for (int s = 0; s < 50; s++) {
			double base = 0.010 * (1 + 0.02 * (((7 * s + 3 * r) % 5) - 2));
			double c = r == 2 ? 1.25 * base : base;
			fprintf(f, "{\"step\":%d,\"timestamp\":%.17g,\"phases\":{\"forward\":%.17g,\"backward\":%.17g,"
				   "\"comm\":0.003},\"scalars\":{\"loss\":%.17g}}\n",
				s + 5, 2000 + 0.02 * s, 0.4 * c, 0.6 * c, 1.0 / (s + 1));
		}
		fclose(f);
		f = tu_create_in(rdir, "run.json");
		fprintf(f, "{\n  \"name\": \"ddp\",\n  \"config\": {},\n  \"rank\": %d,\n  \"world_size\": 4,\n"
			   "  \"n_steps\": 55\n}", r);
		fclose(f);
	}
}

static unsigned long long lcg = 7;

static double noise5(void) /* uniform in [-5%, +5%] */
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(lcg >> 11) / 9007199254740992.0 - 0.5) * 0.1;
}

/* ranks x steps of 100 ms compute (+-5% noise) and 3 ms comm; optional slow rank and
 * stall (rank -1: none). run.json names the run and gives world_size / n_steps. */
static void noisy(const char *dir, int ranks, int steps, int slow, int stall)
{
	tu_make_dir(dir);
	for (int r = 0; r < ranks; r++) {
		char rdir[4096];
		tu_rank_dir(rdir, sizeof(rdir), dir, r);
		FILE *f = tu_create_in(rdir, "steps.jsonl");
		for (int s = 0; s < steps; s++) {
			double c = 0.1 * (1 + noise5());
			if (r == slow && s >= 1000)
				c *= 1.35;
			if (r == stall && s >= 400 && s < 420)
				c *= 3;
			fprintf(f, "{\"step\":%d,\"phases\":{\"forward\":%.9f,\"backward\":%.9f,\"comm\":0.003}}\n", s,
				0.4 * c, 0.6 * c);
		}
		fclose(f);
		f = tu_create_in(rdir, "run.json");
		fprintf(f, "{\"name\": \"noisy\", \"rank\": %d, \"world_size\": %d, \"n_steps\": %d}", r, ranks, steps);
		fclose(f);
	}
}

/* 4 ranks x 40 steps of forward alone, at ms resolution, for the split critical path
 * (analysis.h): at even steps before 30 ranks 0 and 3 tie at 12 ms (1 and 2 at 10), at odd
 * ones all four tie at 10, from step 30 rank 2 alone is slowest (15 ms). */
static void ties(const char *dir)
{
	tu_make_dir(dir);
	for (int r = 0; r < 4; r++) {
		char rdir[4096];
		tu_rank_dir(rdir, sizeof(rdir), dir, r);
		FILE *f = tu_create_in(rdir, "steps.jsonl");
		for (int s = 0; s < 40; s++) {
			bool high = s >= 30 ? r == 2 : s % 2 == 0 && (r == 0 || r == 3);
			const char *c = high ? (s >= 30 ? "0.015" : "0.012") : "0.010";
			fprintf(f, "{\"step\":%d,\"phases\":{\"forward\":%s}}\n", s, c);
		}
		fclose(f);
		f = tu_create_in(rdir, "run.json");
		fprintf(f, "{\"name\": \"ties\", \"rank\": %d, \"world_size\": 4, \"n_steps\": 40}", r);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	const char *w = argc == 3 ? argv[1] : "";
	if (strcmp(w, "f1") == 0)
		f1(argv[2]);
	else if (strcmp(w, "f2") == 0)
		f2(argv[2]);
	else if (strcmp(w, "failslow") == 0)
		noisy(argv[2], 48, 1500, 17, 30);
	else if (strcmp(w, "balanced") == 0)
		noisy(argv[2], 64, 400, -1, -1);
	else if (strcmp(w, "ties") == 0)
		ties(argv[2]);
	else {
		fprintf(stderr, "usage: gen_fixtures f1|f2|failslow|balanced|ties DIR\n");
		return 2;
	}
	return 0;
}
