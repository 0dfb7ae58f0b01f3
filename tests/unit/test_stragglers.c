/* SPDX-License-Identifier: MIT */
/* test_stragglers.c: the native straggler rules (analysis.h STRAGGLERS) on generated
 * runs built in memory: one late fail-slow rank among 48 is the only straggler (onset
 * within 5 steps, cost reported) and a 20-step stall on another rank is a transient
 * stall, not a straggler; 256 ranks with one rank 30% slower from step 1201; balanced
 * runs of 64-1024 ranks flag nothing, whatever the noise: +-5% uniform, gaussian,
 * heavy-tailed single slow steps, a checkpoint every 100 steps on every rank, slow
 * warm-up steps on every rank, a data-loader hiccup hitting every rank at one step, a
 * fixed +-2% speed difference between ranks, and none has a rise too late to judge; the
 * findings name the same set. A rank 2x slower over the last 4 steps (or 2, or 7) is no
 * fail-slow placed 8 steps before the end at a blend of both levels: the rise is named
 * not judged, at its step and level, while one 8 steps before the end is a fail-slow at
 * its step. A rank slow from the start that gets slower at step 300 is slow throughout
 * (at the level before, then the one after), not turned slow at 300; one that is slow over
 * steps 0-359 and then recovers is pytscope's straggler over those steps, then recovered,
 * not slower from step 0 on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "tests/tap.h"
#include "tests/testutil.h"

/* The noise of a balanced run (every rank alike, so no rank may be flagged). */
enum noise {
	NOISE_UNIFORM,    /* +-5% uniform per rank and step */
	NOISE_GAUSS,      /* gaussian, sigma 3% */
	NOISE_HEAVY,      /* +-3% uniform, and 1 step in 250 on a rank 1.3x-4x slower (GC, page fault) */
	NOISE_CHECKPOINT, /* +-5%, and every 100th step 1.8x (+-10%) on every rank */
	NOISE_WARMUP,     /* +-5%, and the first steps up to 3x (+-20%) on every rank, decaying */
	NOISE_HICCUP,     /* +-5%, and a data-loader hiccup: one step 4x (+-20%), two 2x, every rank */
	NOISE_RANK_BIAS,  /* +-5%, and each rank a fixed +-2% faster or slower */
	NOISE_COUNT
};

static const char *const noise_name[NOISE_COUNT] = {
	"+-5% uniform", "gaussian 3%", "heavy-tailed single slow steps", "checkpoint every 100 steps",
	"slow warm-up on every rank", "data-loader hiccup on every rank", "fixed +-2% rank speed",
};

struct shape {
	int ranks;
	long steps;
	int slow_rank;       /* -1: none */
	long slow_from;
	double slow_factor;
	int stall_rank;      /* -1: none */
	long stall_from, stall_len;
	double stall_factor;
	enum noise noise;
};

static unsigned long long lcg = 7;

static double rnd(void) /* uniform in [0, 1) */
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

static double noise5(void) /* uniform in [-5%, +5%] */
{
	return (rnd() - 0.5) * 0.1;
}

static double gauss(void) /* standard normal (Box-Muller) */
{
	double u = rnd(), v = rnd();
	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* The compute factor of rank r at step s of n under noise k (bias: rank r's fixed one). */
static double noisy(enum noise k, long s, long n, double bias)
{
	switch (k) {
	case NOISE_GAUSS:
		return 1 + 0.03 * gauss();
	case NOISE_HEAVY: {
		double f = 1 + 0.6 * noise5();
		if (rnd() < 1.0 / 250) {
			double tail = 0.3 / pow(1 - rnd(), 1 / 1.5);   /* Pareto, alpha 1.5, from 0.3 */
			f *= 1 + (tail > 3 ? 3 : tail);
		}
		return f;
	}
	case NOISE_CHECKPOINT:
		return (1 + noise5()) * (s % 100 == 99 ? 1.8 * (1 + 2 * noise5()) : 1);
	case NOISE_WARMUP:
		return (1 + noise5()) * (1 + 2 * exp(-(double)s / 8) * (1 + 4 * noise5()));
	case NOISE_HICCUP: {
		long h = n * 3 / 5;
		double f = s == h ? 4 : s == h + 1 || s == h + 2 ? 2 : 1;
		return (1 + noise5()) * (f > 1 ? f * (1 + 4 * noise5()) : 1);
	}
	case NOISE_RANK_BIAS:
		return (1 + noise5()) * bias;
	case NOISE_UNIFORM:
	case NOISE_COUNT:
		break;
	}
	return 1 + noise5();
}

/* forward 40%, backward 60% of a 100 ms compute with the shape's noise per rank and
 * step (+-5% uniform unless said), and a 3 ms comm phase (as fixture F2). */
static struct run *build(const struct shape *sh, const struct opts *o)
{
	struct run *run = run_open(NULL, 0, o, NULL);
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int bwd = steps_metric_intern(m, METRIC_PHASE, "backward");
	int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (int r = 0; r < sh->ranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "generated");
		double bias = 1 + 0.4 * noise5();
		for (long s = 0; s < sh->steps; s++) {
			double c = 0.1 * noisy(sh->noise, s, sh->steps, bias);
			if (r == sh->slow_rank && s >= sh->slow_from)
				c *= sh->slow_factor;
			if (r == sh->stall_rank && s >= sh->stall_from && s < sh->stall_from + sh->stall_len)
				c *= sh->stall_factor;
			size_t pos = rank_append(rs, s, 0, false);
			rank_set(rs, pos, fwd, 0.4 * c);
			rank_set(rs, pos, bwd, 0.6 * c);
			rank_set(rs, pos, comm, 0.003);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

static size_t count_findings(struct run *run, const char *id)
{
	const struct finding_list *fl = run_findings(run);
	size_t n = 0;
	for (size_t i = 0; i < fl->n; i++)
		n += strcmp(fl->v[i].id, id) == 0;
	return n;
}

static void test_fail_slow_48(void)
{
	struct opts o = { 0 };
	struct shape sh = { 48, 1500, 17, 1000, 1.35, 30, 400, 20, 3.0, NOISE_UNIFORM };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	ok(d && d->nstragglers == 1 && d->stragglers[0] == 17, "48 ranks: rank 17 is the only straggler");
	const struct rank_stat *rs = d ? &d->rank[17] : NULL;
	ok(rs && rs->fail_slow && labs(rs->slow_onset - 1000) <= 5, "48 ranks: fail-slow onset within 5 steps of 1000");
	if (rs)
		printf("# onset %ld shift %.3f z %.1f cost %.3f s noise %.4f\n", rs->slow_onset, rs->slow_shift,
		       rs->slow_z, rs->slow_cost, rs->noise);
	ok(rs && rs->slow_cost > 10 && fabs(rs->slow_shift - 0.35) < 0.05, "48 ranks: its cost and slowdown are reported");
	const struct rank_stat *st = d ? &d->rank[30] : NULL;
	ok(st && !st->straggler && labs(st->stall_lo - 400) <= 1 && labs(st->stall_hi - 419) <= 1,
	   "48 ranks: rank 30's 20-step stall is found, and it is not a straggler");
	if (st)
		printf("# stall %ld-%ld shift %.3f z %.1f cost %.3f s\n", st->stall_lo, st->stall_hi, st->stall_shift,
		       st->stall_z, st->stall_cost);
	size_t stalls = 0;
	for (size_t r = 0; d && r < d->world_size; r++)
		stalls += d->rank[r].stall_lo >= 0;
	ok(stalls == 1, "48 ranks: no other stall");
	ok(count_findings(run, "DIST.FAIL_SLOW") == 1, "48 ranks: one DIST.FAIL_SLOW finding");
	const struct finding *f = tu_finding(run, "DIST.FAIL_SLOW");
	ok(f && f->ev.kind == EV_RANK && f->ev.rank == 17 && f->ev.step_lo == rs->slow_onset,
	   "DIST.FAIL_SLOW evidence: rank 17 from its onset");
	const struct finding *t = tu_finding(run, "DIST.TRANSIENT_STALL");
	ok(t && t->ev.rank == 30 && t->ev.step_lo == st->stall_lo && t->ev.step_hi == st->stall_hi,
	   "DIST.TRANSIENT_STALL finding with the stall's rank and steps");
	ok(count_findings(run, "DIST.STRAGGLER") == 0, "pytscope's whole-run rule misses the late rank (as 0.2.1)");
	run_free(run);

	o.compat_pytscope = true;
	run = build(&sh, &o);
	ok(count_findings(run, "DIST.FAIL_SLOW") == 0 && count_findings(run, "DIST.TRANSIENT_STALL") == 0,
	   "--compat pytscope: native rules do not run");
	run_free(run);
}

static void test_fail_slow_256(void)
{
	struct opts o = { 0 };
	struct shape sh = { 256, 1500, 200, 1201, 1.30, -1, 0, 0, 1, NOISE_UNIFORM };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	ok(d && d->nstragglers == 1 && d->stragglers[0] == 200, "256 ranks: rank 200 is the only straggler");
	ok(d && labs(d->rank[200].slow_onset - 1201) <= 5, "256 ranks: onset within 5 steps of 1201");
	if (d)
		printf("# onset %ld cost %.3f s\n", d->rank[200].slow_onset, d->rank[200].slow_cost);
	ok(count_findings(run, "DIST.FAIL_SLOW") == 1, "256 ranks: a DIST.FAIL_SLOW finding");
	run_free(run);
}

static bool line_has(struct run *run, const char *want)
{
	char line[1024];
	steps_straggler_verdict(run, line, sizeof(line));
	bool has = strstr(line, want) != NULL;
	if (!has)
		printf("# line: %s\n#  want: %s\n", line, want);
	return has;
}

static bool unjudged_has(struct run *run, const char *ids, const char *want)
{
	struct not_judged nj = { 0 };
	findings_not_judged_list(run, &nj);
	bool has = false;
	for (size_t i = 0; i < nj.n; i++)
		has = has || (strcmp(nj.v[i].ids, ids) == 0 && strstr(nj.v[i].text, want) != NULL);
	findings_not_judged_free(&nj);
	return has;
}

/* Rank 5 of 64 twice as slow over the last `last` of 600 steps. */
static void test_late_rise(long last)
{
	struct opts o = { 0 };
	struct shape sh = { 64, 600, 5, 600 - last, 2.0, -1, 0, 0, 1, NOISE_UNIFORM };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	const struct rank_stat *rs = d ? &d->rank[5] : NULL;
	if (last < STRAG_MIN_STEPS) {
		ok(rs && d->nstragglers == 0 && rs->slow_onset < 0 && rs->late_onset == 600 - last &&
		   fabs(rs->late_level - 1.0) < 0.1, "last %ld steps 2x: no onset placed, a rise too late to judge "
		   "at step %ld, at its level", last, 600 - last);
		if (rs)
			printf("# slow_onset %ld late_onset %ld level %.3f\n", rs->slow_onset, rs->late_onset,
			       rs->late_level);
		char want[128];
		snprintf(want, sizeof(want), "from step %ld rank 5 is %.0f%% slower than the step median, over the "
			 "last %ld steps", 600 - last, rs ? rs->late_level * 100 : 0, last);
		ok(count_findings(run, "DIST.FAIL_SLOW") == 0 && line_has(run, want) &&
		   line_has(run, "none before step") && unjudged_has(run, "DIST.FAIL_SLOW", want),
		   "... no DIST.FAIL_SLOW; the stragglers line and the not-judged list name the rise");
	} else {
		ok(rs && rs->fail_slow && rs->slow_onset == 600 - last && fabs(rs->slow_shift - 1.0) < 0.1 &&
		   rs->late_onset < 0, "last %ld steps 2x: fail-slow at step %ld, at its level", last, 600 - last);
		if (rs)
			printf("# slow_onset %ld shift %.3f late_onset %ld\n", rs->slow_onset, rs->slow_shift,
			       rs->late_onset);
	}
	run_free(run);
}

/* Rank 5 of 64 12% slower over steps 0-299, 45% from step 300: slow throughout, then
 * slower (pytscope names it: the line says it). */
static void test_two_levels(void)
{
	struct opts o = { 0 };
	struct shape sh = { 64, 600, 5, 0, 1.12, 5, 300, 300, 1.45 / 1.12, NOISE_UNIFORM };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	const struct rank_stat *rs = d ? &d->rank[5] : NULL;
	ok(rs && rs->straggler && !rs->fail_slow && rs->slow_onset == 0 && fabs(rs->slow_shift - 0.12) < 0.02 &&
	   labs(rs->rise_onset - 300) <= 2 && fabs(rs->rise_level - 0.45) < 0.03,
	   "12%% then 45%% slower from step 300: slow throughout at 12%%, 45%% from step 300");
	if (rs)
		printf("# onset %ld fail %d shift %.3f rise %ld level %.3f cost %.3f\n", rs->slow_onset, rs->fail_slow,
		       rs->slow_shift, rs->rise_onset, rs->rise_level, rs->slow_cost);
	ok(rs && fabs(rs->slow_cost - rs->time_lost) < 1e-9, "... its cost over the whole run");
	ok(count_findings(run, "DIST.FAIL_SLOW") == 0 &&
	   line_has(run, "(rank 5: 12% slower from step 0, 45% from step 30"),
	   "... no DIST.FAIL_SLOW; the stragglers line gives both levels");
	run_free(run);
}

/* Rank 5 of 64 30% slower over steps 0-359 of 600, then as the others: pytscope's
 * straggler, slow over its stall and then recovered. */
static void test_recovered(void)
{
	struct opts o = { 0 };
	struct shape sh = { 64, 600, -1, 0, 1, 5, 0, 360, 1.3, NOISE_UNIFORM };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	const struct rank_stat *rs = d ? &d->rank[5] : NULL;
	ok(rs && d->straggler == 5 && rs->straggler && rs->recovered && rs->slow_onset == rs->stall_lo &&
	   labs(rs->stall_hi - 359) <= 1 && rs->slow_cost == rs->stall_cost,
	   "30%% slower over steps 0-359, then recovered: pytscope's straggler over its stall");
	if (rs)
		printf("# onset %ld stall %ld-%ld recovered %d cost %.3f\n", rs->slow_onset, rs->stall_lo, rs->stall_hi,
		       rs->recovered, rs->slow_cost);
	ok(line_has(run, "(rank 5: pytscope's straggler, 30% slower over steps 0-35") &&
	   line_has(run, ", then recovered"), "... the stragglers line says so, not slower from step 0");
	run_free(run);
}

/* The false-positive guards keep the rules sensitive: a 10-step 30% stall on one rank
 * of 64 is found, with and without noisy warm-up steps on every rank. */
static void test_modest_stall(enum noise k)
{
	struct opts o = { 0 };
	struct shape sh = { 64, 600, -1, 0, 1, 5, 300, 10, 1.3, k };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	const struct rank_stat *st = d ? &d->rank[5] : NULL;
	ok(st && !st->straggler && labs(st->stall_lo - 300) <= 1 && labs(st->stall_hi - 309) <= 1,
	   "64 ranks (%s): a 10-step 30%% stall on rank 5 is found", noise_name[k]);
	if (st)
		printf("# stall %ld-%ld shift %.3f z %.1f\n", st->stall_lo, st->stall_hi, st->stall_shift, st->stall_z);
	run_free(run);
}

static void test_balanced(int ranks, long steps, enum noise k)
{
	struct opts o = { 0 };
	struct shape sh = { ranks, steps, -1, 0, 1, -1, 0, 0, 1, k };
	struct run *run = build(&sh, &o);
	const struct distributed *d = analysis_distributed(run);
	size_t stalls = 0, lates = 0;
	for (size_t r = 0; d && r < d->world_size; r++) {
		stalls += d->rank[r].stall_lo >= 0;
		lates += d->rank[r].late_onset >= 0;
	}
	const struct finding_list *fl = run_findings(run);
	size_t dist = 0;
	for (size_t i = 0; i < fl->n; i++)
		dist += strncmp(fl->v[i].id, "DIST.", 5) == 0;
	char msg[200];
	snprintf(msg, sizeof(msg), "balanced %d ranks x %ld steps (%s): no straggler, no stall, no late rise, no "
		 "DIST finding", ranks, steps, noise_name[k]);
	ok(d && d->nstragglers == 0 && stalls == 0 && lates == 0 && dist == 0, "%s", msg);
	if (d && (d->nstragglers || stalls || dist))
		for (size_t r = 0; r < d->world_size; r++)
			if (d->rank[r].straggler || d->rank[r].stall_lo >= 0)
				printf("#   rank %d: straggler %d onset %ld shift %.3f z %.1f; stall %ld-%ld z %.1f\n",
				       d->rank[r].rank, d->rank[r].straggler, d->rank[r].slow_onset, d->rank[r].slow_shift,
				       d->rank[r].slow_z, d->rank[r].stall_lo, d->rank[r].stall_hi, d->rank[r].stall_z);
	run_free(run);
}

int main(void)
{
	test_fail_slow_48();
	test_fail_slow_256();
	test_modest_stall(NOISE_UNIFORM);
	test_modest_stall(NOISE_WARMUP);
	test_modest_stall(NOISE_GAUSS);
	test_late_rise(4);
	test_late_rise(2);
	test_late_rise(7);
	test_late_rise(8);
	test_two_levels();
	test_recovered();
	for (int k = 0; k < NOISE_COUNT; k++) {
		test_balanced(64, 1000, (enum noise)k);
		test_balanced(256, 500, (enum noise)k);
		test_balanced(1024, 300, (enum noise)k);
	}
	return tap_done();
}
