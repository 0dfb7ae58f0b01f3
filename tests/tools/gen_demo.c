/* SPDX-License-Identifier: MIT */
/* gen_demo.c: writes the bundled demo run (testdata/demo): a deterministic, realistic
 * 16-rank x 400-step pytscope run of a DDP job, every rank with steps.jsonl and run.json.
 * What is in it (so the explorer has something to find):
 *   - rank 11 turns into a straggler at step 180 (forward/backward 18% slower);
 *   - a dataloader stall on every rank over steps 250-269 (data phase x6);
 *   - a loss spike with a grad-norm spike at step 300;
 *   - slow allocated-memory growth (600 MiB over the run, 1.5 MiB/step) on every rank.
 * Phases are whole nanoseconds written as pytscope does (shortest repr of ns / 1e9);
 * noise comes from an integer LCG, so the output is the same on every machine.
 * Usage: gen_demo DIR [RANKS STEPS]; `make bench` uses it for a 64 x 20,000 run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/testutil.h"

#define MIB 1048576.0

static unsigned long long lcg_state;

/* Uniform in [0, 1) from a 64-bit LCG (Knuth MMIX constants). */
static double rnd(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* Python repr of a double: the shortest %.*g that reads back exactly, with ".0" on integers. */
static void repr(char *buf, size_t n, double v)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, n, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strpbrk(buf, ".e") && strlen(buf) + 3 < n)
		strcat(buf, ".0");
}

/* Seconds rounded to whole nanoseconds, as pytscope's int_ns / 1e9. */
static double ns(double seconds)
{
	return nearbyint(seconds * 1e9) / 1e9;
}

struct phases {
	double data, forward, backward, optimizer, comm;
};

static struct phases step_phases(int rank, int step)
{
	struct phases p;
	double jitter = 1 + 0.03 * (rnd() - 0.5);
	p.data = ns(0.008 * (1 + 0.2 * (rnd() - 0.5)) * (step >= 250 && step < 270 ? 6 : 1));
	double slow = rank == 11 && step >= 180 ? 1.18 : 1.0;
	p.forward = ns(0.031 * jitter * slow * (1 + 0.01 * (rank % 4)));
	p.backward = ns(0.062 * jitter * slow * (1 + 0.01 * (rank % 4)));
	p.optimizer = ns(0.006 * (1 + 0.05 * (rnd() - 0.5)));
	p.comm = ns(0.014 * (1 + 0.1 * (rnd() - 0.5)));
	return p;
}

static void write_rank(const char *dir, int rank, int nsteps, int nranks)
{
	char rdir[4096];
	tu_rank_dir(rdir, sizeof(rdir), dir, rank);
	FILE *f = tu_create_in(rdir, "steps.jsonl");
	lcg_state = 0x9e3779b97f4a7c15ULL ^ (unsigned long long)(rank + 1) * 0xbf58476d1ce4e5b9ULL;
	double t = 1795344000.0 + 0.25 * rank / nranks;
	for (int s = 0; s < nsteps; s++) {
		struct phases p = step_phases(rank, s);
		double wall = p.data + p.forward + p.backward + p.optimizer + p.comm;
		t += wall;
		double loss = 2.5 * exp(-s / 250.0) + 0.9 + 0.02 * (rnd() - 0.5);
		double gn = 1.2 + 0.3 * rnd();
		if (s == 300) {
			loss *= 3;
			gn *= 20;
		}
		double warm = s < 50 ? (s + 1) / 50.0 : 0.5 * (1 + cos(M_PI * (s - 50) / (nsteps - 50)));
		double lr = nearbyint(3e-4 * warm * 1e9) / 1e9;
		double alloc = 4096 * MIB + floor(600.0 * s / nsteps) * MIB + 512.0 * floor(rnd() * 64);
		double reserved = ceil((alloc + 2048 * MIB) / (512 * MIB)) * 512 * MIB;
		double peak = alloc + 1200 * MIB;
		char b[8][40];
		repr(b[0], 40, t);
		repr(b[1], 40, p.data);
		repr(b[2], 40, p.forward);
		repr(b[3], 40, p.backward);
		repr(b[4], 40, p.optimizer);
		repr(b[5], 40, p.comm);
		repr(b[6], 40, loss);
		repr(b[7], 40, gn);
		char l[40], a[40], r[40], pa[40];
		repr(l, sizeof(l), lr);
		repr(a, sizeof(a), alloc);
		repr(r, sizeof(r), reserved);
		repr(pa, sizeof(pa), peak);
		fprintf(f, "{\"step\":%d,\"timestamp\":%s,\"phases\":{\"data\":%s,\"forward\":%s,\"backward\":%s,"
			   "\"optimizer\":%s,\"comm\":%s},\"scalars\":{\"loss\":%s,\"grad_norm\":%s,\"lr\":%s},"
			   "\"memory\":{\"alloc\":%s,\"reserved\":%s,\"peak_alloc\":%s,\"peak_reserved\":%s}}\n",
			s, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], l, a, r, pa, r);
	}
	fclose(f);
	f = tu_create_in(rdir, "run.json");
	fprintf(f, "{\n  \"name\": \"demo-ddp\",\n  \"config\": {\n    \"model\": \"gpt2-medium\",\n"
		   "    \"batch_size\": 16\n  },\n  \"rank\": %d,\n  \"world_size\": %d,\n"
		   "  \"environment\": {\n    \"python\": \"3.11.9\",\n    \"platform\": \"Linux-5.15.0-x86_64-with-glibc2.35\",\n"
		   "    \"machine\": \"x86_64\",\n    \"processor\": \"x86_64\",\n    \"cpu_count\": 64,\n"
		   "    \"torch\": \"2.4.0+cu121\",\n    \"cuda_available\": true,\n    \"cuda\": \"12.1\",\n"
		   "    \"gpu\": \"NVIDIA A100-SXM4-80GB\",\n    \"gpu_count\": 8,\n    \"cudnn_deterministic\": false,\n"
		   "    \"cudnn_benchmark\": false\n  },\n  \"started\": 1795344000.0,\n"
		   "  \"flops_per_step\": 12000000000000.0,\n  \"peak_flops\": 312000000000000.0,\n"
		   "  \"wall_time\": %.3f,\n  \"n_steps\": %d\n}", rank, nranks, 0.121 * nsteps, nsteps);
	fclose(f);
}

int main(int argc, char **argv)
{
	if ((argc != 2 && argc != 4) || argv[1][0] == '-') {   /* "--help" is no DIR to fill */
		fprintf(stderr, "usage: gen_demo DIR [RANKS STEPS]\n");
		return 2;
	}
	int nranks = argc == 4 ? atoi(argv[2]) : 16, nsteps = argc == 4 ? atoi(argv[3]) : 400;
	if (nranks < 1 || nsteps < 1)
		return 2;
	tu_make_dir(argv[1]);
	for (int r = 0; r < nranks; r++)
		write_rank(argv[1], r, nsteps, nranks);
	return 0;
}
