/* SPDX-License-Identifier: MIT */
/* test_analysis.c: analyzers pinned to the spec's numbers (pytscope.md §12, F1 and F2),
 * fsum, robust statistics, time lost / onset on an injected straggler and with ties at
 * the step max, budget windows
 * and heatmap blocks, the per-step comm maximum of the index build's rows pass. The
 * fixtures come from build/tests/gen_fixtures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "model/steps/internal.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/steps.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static struct run *open_fixture(const char *which, const struct opts *o)
{
	char cmd[8192], dir[2048];
	snprintf(dir, sizeof(dir), "%s/fx-%s", tu_tmp_base(), which);
	const char *build = getenv("TSCOPE_BUILD");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && %s/tests/gen_fixtures %s '%s'", dir,
		 build ? build : "build", which, dir);
	if (system(cmd) != 0)
		return NULL;
	const char *paths[] = { dir };
	return run_open(paths, 1, o, NULL);
}

static void test_fsum(void)
{
	double v[] = { 1e100, 1.0, -1e100, 1e-100, 0.1, 0.2 };
	is_dbl(stats_fsum(v, 6), 1.3000000000000000444, 0, "fsum is exactly rounded");
	double w[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	ok(stats_fsum(w, 10) == 1.0, "fsum of ten 0.1 is 1.0");
	double x[] = { 1.0, INFINITY };
	ok(isinf(stats_fsum(x, 2)), "fsum with Infinity");
	is_dbl(stats_median((double[]){ 3, 1, 2, 10 }, 4), 2.5, 0, "median even");
	is_dbl(stats_percentile((double[]){ 1, 2, 3, 4, 5 }, 5, 95), 4.8, 1e-12, "linear percentile");
	ok(stats_percentile((double[]){ 0.9, 0.2 }, 2, 75) == 0.7250000000000001,
	   "percentile interpolates from the far end for t >= 0.5, as numpy's _lerp");
	ok(stats_percentile((double[]){ 0.2, 0.9 }, 2, 25) == 0.375, "percentile from the near end below");
	ok(isnan(stats_percentile(NULL, 0, 50)), "percentile of nothing is NaN (missing, not 0)");
	double s[20];
	for (int i = 0; i < 20; i++)
		s[i] = 1.0 + 0.01 * (i % 3);
	s[15] = 50;
	bool f[20];
	stats_local_spikes(s, NULL, 20, f);
	ok(f[15] && !f[14] && !f[16], "local spike flagged at the outlier only");
}

static void test_f1(void)
{
	struct opts o = { 0 };
	struct run *run = open_fixture("f1", &o);
	if (!run || !run->steps) {
		ok(0, "F1 fixture loads");
		run_free(run);
		return;
	}
	const struct timing *t = analysis_timing(run, 0);
	is_int(t->n, 60, "F1: 60 steps");
	is_dbl(t->mean_step_time, 0.023266666666666665, 0, "F1: mean step time (exact)");
	is_dbl(t->std_step_time, 0.002048305532764962, 1e-18, "F1: std");
	is_dbl(t->p50, 0.023, 1e-15, "F1: p50");
	is_dbl(t->p95, 0.023, 1e-15, "F1: p95");
	is_str(t->phase[0].name, "data", "F1: phase order starts with data");
	const struct memory *m = analysis_memory(run, 0);
	ok(m->has_memory, "F1: memory");
	is_dbl(m->fragmentation, 0.28118869301697924, 1e-16, "F1: fragmentation");
	is_dbl(m->growth, 1919427.254237288, 1e-6, "F1: growth bytes/step");
	const struct budget *b = analysis_budget(run, 0);
	ok(b && b->has_mfu, "F1: MFU from run.json");
	if (b)
		is_dbl(b->mfu, 0.0275512453162883, 1e-15, "F1: MFU");
	ok(b && b->judged && b->line[BUDGET_USEFUL].measured && b->line[BUDGET_OVERHEAD].measured &&
	   b->line[BUDGET_DATA].measured, "F1: budget judged; useful, overhead (MFU) and data measured");
	ok(b && !b->line[BUDGET_COMM].measured && !b->line[BUDGET_OTHER].measured &&
	   b->line[BUDGET_COMM].seconds == 0, "F1: no comm or other phase: those lines unmeasured (0 s, n/a)");
	const struct convergence *c = analysis_convergence(run, 0);
	ok(c->has_loss && !c->diverged, "F1: loss, not diverged");
	ok(c->nloss_spikes >= 1 && c->loss_spikes[0] == 40, "F1: loss spike at step 40");
	ok(c->ngrad_spikes >= 1 && c->grad_spikes[0] == 40, "F1: grad-norm spike at step 40");
	ok(!analysis_distributed(run), "F1: single rank has no distributed summary");
	static const char *const want[] = { "TIMING.DATALOADER_BOUND", "CROSS.CORRELATED_INSTABILITY",
					    "EFFICIENCY.LOW_MFU", "MEMORY.GROWTH", "MEMORY.FRAGMENTATION" };
	const struct finding_list *fl = run_findings(run);
	is_int(fl->n, 5, "F1: five findings");
	for (size_t i = 0; i < fl->n && i < 5; i++)
		is_str(fl->v[i].id, want[i], "F1: findings in pytscope order");
	ok(fl->n == 5 && fl->v[1].ev.kind == EV_STEPS && fl->v[1].ev.step_lo == 40, "F1: spike evidence at step 40");
	ok(fl->n == 5 && fl->v[4].severity == SEV_LOW, "F1: fragmentation is low severity");
	/* a rule at a time (the explorer's idle time): begun, dropped, begun again */
	run_findings_reset(run);
	bool done_at_once = run_findings_step(run);
	run_findings_reset(run);
	size_t steps = 1;
	while (!run_findings_step(run))
		steps++;
	fl = run_findings(run);
	bool same = fl->n == 5;
	for (size_t i = 0; same && i < 5; i++)
		same = strcmp(fl->v[i].id, want[i]) == 0;
	ok(!done_at_once && steps > 5 && same,
	   "F1: findings a rule at a time (%zu steps; begun, dropped, begun again) = all at once", steps);
	run_free(run);
}

static void test_f2(void)
{
	struct opts o = { 0 };
	struct run *run = open_fixture("f2", &o);
	if (!run || !run->steps) {
		ok(0, "F2 fixture loads");
		run_free(run);
		return;
	}
	const struct distributed *d = analysis_distributed(run);
	ok(d != NULL, "F2: distributed summary");
	if (!d) {
		run_free(run);
		return;
	}
	is_int(d->world_size, 4, "F2: 4 ranks");
	is_int(d->n_steps, 50, "F2: 50 aligned steps");
	is_dbl(d->mean_step_wall, 0.0155, 1e-15, "F2: mean step wall");
	is_dbl(d->mean_comm_fraction, 0.1936491778096749, 1e-15, "F2: mean comm fraction");
	is_dbl(d->imbalance_cv, 0.10872134550890705, 1e-15, "F2: imbalance CV");
	is_dbl(d->sync_skew, 0.0024, 1e-15, "F2: sync skew");
	is_dbl(d->wall_frac_lost, 0.15, 1e-14, "F2: wall lost to imbalance");
	is_dbl(d->rank[0].straggler_z, -4.08248290463863, 1e-12, "F2: z rank 0");
	is_dbl(d->rank[2].straggler_z, 12.24744871391589, 1e-12, "F2: z rank 2");
	is_dbl(d->rank[2].rel_slowdown, 0.2376237623762376, 1e-15, "F2: rel slowdown rank 2");
	is_int(d->straggler, 2, "F2: rank 2 is the straggler");
	is_int(d->rank[2].onset, 5, "F2: straggler from the first step");
	ok(d->rank[2].time_lost > 0 && d->rank[0].time_lost == 0, "F2: time lost on the straggler only");
	const struct heat_grid *g = analysis_heatmap(run, HEAT_REL_SLOWDOWN);
	double mean, worst;
	ok(g && heat_range(g, 2, 0, 50, &mean, &worst) && mean > 0.2 && worst < 0.3,
	   "F2: heatmap relative slowdown of the straggler");
	ok(g && heat_range(g, 0, 3, 37, &mean, &worst) && mean < 0, "F2: heatmap ragged range");
	const struct finding_list *fl = run_findings(run);
	ok(fl->n == 2 && strcmp(fl->v[0].id, "DIST.STRAGGLER") == 0 && fl->v[0].ev.kind == EV_RANK &&
	   fl->v[0].ev.rank == 2 && fl->v[0].ev.nsteps == 50, "F2: straggler evidence (rank, critical steps)");
	/* every range [lo, hi) of the pyramid against a brute force over the cells */
	const struct heat_grid *gc = analysis_heatmap(run, HEAT_COMPUTE);
	bool all_ok = gc != NULL;
	for (size_t r = 0; gc && r < 4; r++)
		for (size_t lo = 0; lo < 50; lo++)
			for (size_t hi = lo + 1; hi <= 50; hi++) {
				double sum = 0, w = -1, x;
				for (size_t k = lo; k < hi; k++) {
					heat_range(gc, r, k, k + 1, &x, &mean);
					sum += x;
					if (x > w)
						w = x;
				}
				double mm, ww;
				if (!heat_range(gc, r, lo, hi, &mm, &ww) || fabs(mm - sum / (double)(hi - lo)) > 1e-9 ||
				    ww != w)
					all_ok = false;
			}
	ok(all_ok, "F2: heat_range equals a brute force over every range");
	struct budget w;
	ok(analysis_budget_window(run, 0, 10, 19, &w) && w.n == 10, "F2: budget window of 10 steps");
	run_free(run);
}

/* A synthetic 8-rank run: rank 5 turns into a straggler at step `onset`. */
static void test_onset(long onset)
{
	struct opts o = { 0 };
	struct run *run = run_open(NULL, 0, &o, NULL);
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	unsigned seed = 12345;
	for (int r = 0; r < 8; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < 300; s++) {
			seed = seed * 1103515245u + 12345u;
			double noise = (double)((seed >> 16) % 1000) / 1000.0 * 0.002;
			double c = 0.1 + noise + (r == 5 && s >= onset ? 0.01 : 0);
			rank_set(rs, rank_append(rs, s, 0, false), fwd, c);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	const struct distributed *d = analysis_distributed(run);
	char msg[96];
	snprintf(msg, sizeof(msg), "onset recovered within 5 steps (injected at %ld)", onset);
	ok(d && d->straggler == 5 && labs(d->rank[5].onset - onset) <= 5, "%s", msg);
	if (d)
		printf("# onset found %ld, time lost %.3f s\n", d->rank[5].onset, d->rank[5].time_lost);
	ok(d && d->rank[1].onset == -1, "no onset for a rank that is never persistently critical");
	run_free(run);
}

/* Ties at the step max (gen_fixtures ties): pytscope hands each tied step to the lowest
 * rank id, tscope-tui's own figures split it (analysis.h THE CRITICAL PATH). */
static void test_ties(void)
{
	struct opts o = { 0 };
	struct run *run = open_fixture("ties", &o);
	const struct distributed *d = run ? analysis_distributed(run) : NULL;
	ok(d && d->n_steps == 40, "ties: the fixture loads, 4 ranks x 40 aligned steps");
	if (!d) {
		run_free(run);
		return;
	}
	ok(d->step[0].ntied == 2 && d->step[1].ntied == 4 && d->step[30].ntied == 1 && d->step[0].critical == 0,
	   "ties: 2 ranks at the max of step 0, 4 of step 1, 1 of step 30; the critical rank the lowest");
	is_int((long)d->rank[0].slowest_count, 30, "ties: pytscope's count gives rank 0 every tied step");
	is_int((long)d->rank[3].slowest_count, 0, "ties: ... and rank 3 none");
	is_dbl(d->rank[0].critical_share, 11.25 / 40, 1e-15, "ties: rank 0's split share (15 halves, 15 quarters)");
	is_dbl(d->rank[3].critical_share, 11.25 / 40, 1e-15, "ties: rank 3's the same");
	is_dbl(d->rank[1].critical_share, 3.75 / 40, 1e-15, "ties: rank 1's (15 quarters)");
	is_dbl(d->rank[2].critical_share, 13.75 / 40, 1e-15, "ties: rank 2's (15 quarters, 10 steps alone)");
	is_dbl(d->rank[2].critical_z, 3.75 / sqrt(7.5), 1e-12, "ties: rank 2's z against 10 steps expected");
	is_dbl(d->rank[0].time_lost, 0.01, 1e-15, "ties: rank 0 takes half of the even steps' wait");
	is_dbl(d->rank[3].time_lost, 0.01, 1e-15, "ties: rank 3 the other half");
	is_dbl(d->rank[1].time_lost, 0, 0, "ties: rank 1, never strictly nor jointly slowest with a wait, none");
	is_dbl(d->rank[2].time_lost, 0.05, 1e-15, "ties: rank 2 the steps from 30");
	double sum = 0, imb = 0;
	for (size_t r = 0; r < 4; r++)
		sum += d->rank[r].time_lost;
	for (size_t k = 0; k < 40; k++)
		imb += d->step[k].cmax - d->step[k].cmean;
	is_dbl(sum, 4.0 / 3.0 * imb, 1e-15, "ties: the time lost sums to N/(N-1) x the sum of cmax - cmean");
	ok(d->rank[0].onset == -1 && d->rank[3].onset == -1, "ties: no onset from tied steps alone");
	is_int(d->rank[2].onset, 30, "ties: rank 2's stretch starts at step 30");
	run_free(run);
}

/* An in-memory run of nranks x nsteps records (steps 0, 1, ...) with two phases:
 * forward fwd(r, s) on every record, comm where comm(r, s, &c) says there is one. */
static struct run *phase_run(const struct opts *o, int nranks, long nsteps, double (*fwd)(int r, long s),
			     bool (*comm)(int r, long s, double *c))
{
	struct run *run = run_open(NULL, 0, o, NULL);
	struct steps_model *m = steps_model_get(run);
	int f = steps_metric_intern(m, METRIC_PHASE, "forward");
	int k = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (int r = 0; r < nranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < nsteps; s++) {
			size_t pos = rank_append(rs, s, 0, false);
			double c;
			rank_set(rs, pos, f, fwd(r, s));
			if (comm(r, s, &c))
				rank_set(rs, pos, k, c);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

static double sparse_fwd(int r, long s)
{
	return 0.01;
}

static bool sparse_comm(int r, long s, double *c)
{
	*c = (double)(1000 + 7 * s + r) / 1e6;
	return s % 3 != r;
}

/* A phase missing on some records: heatmap cells are missing (never 0) and every range
 * of the pyramid matches a brute force over the present cells. */
static void test_heat_sparse(void)
{
	static const struct opts o = { 0 };
	struct run *run = phase_run(&o, 3, 37, sparse_fwd, sparse_comm);
	int comm = steps_metric_find(run->steps, METRIC_PHASE, "comm");
	const struct heat_grid *g = analysis_heatmap(run, comm);
	double mean, worst;
	ok(g && !heat_range(g, 0, 0, 1, &mean, &worst), "sparse heatmap: a missing cell is missing");
	bool all_ok = g != NULL;
	for (size_t r = 0; g && r < 3; r++)
		for (size_t lo = 0; lo < 37; lo++)
			for (size_t hi = lo + 1; hi <= 37; hi++) {
				double sum = 0, w = 0, x, y;
				size_t n = 0;
				for (size_t k = lo; k < hi; k++)
					if (heat_range(g, r, k, k + 1, &x, &y)) {
						sum += x;
						if (n++ == 0 || x > w)
							w = x;
					}
				bool have = heat_range(g, r, lo, hi, &x, &y);
				if (have != (n > 0) || (n && (fabs(x - sum / (double)n) > 1e-9 || y != w)))
					all_ok = false;
			}
	ok(all_ok, "sparse heatmap: every range equals a brute force over present cells");
	run_free(run);
}

/* Budget phase sums by the definition: value by value in record order (stats_sum_add),
 * into compute, data, comm and other seconds. */
static void budget_ref(struct run *run, size_t ri, double out[4])
{
	static const char *const names[] = { "forward", "backward", "optimizer", "compute", "data", "comm", "other" };
	struct stats_sum s[4];
	for (size_t k = 0; k < 4; k++)
		stats_sum_init(&s[k]);
	for (size_t i = 0; i < steps_nrecords(run->steps, ri); i++)
		for (size_t c = 0; c < ARRAY_LEN(names); c++) {
			double v;
			if (steps_value(run->steps, ri, steps_metric_find(run->steps, METRIC_PHASE, names[c]), i, &v))
				stats_sum_add(&s[c < 4 ? 0 : c - 3], v);
		}
	for (size_t k = 0; k < 4; k++)
		out[k] = stats_sum_result(&s[k]);
}

/* The budget's sums (whole columns gathered, exactly summed) = the definition, bit for
 * bit: nanosecond, double and gappy columns, and values whose sum overflows (summed in
 * record order then; natively that rank has no budget, for that reason, and no window). */
static void test_budget_sums(void)
{
	struct opts o = { 0 };
	struct run *run = run_open(NULL, 0, &o, NULL);
	struct steps_model *m = steps_model_get(run);
	static const char *const names[] = { "forward", "backward", "optimizer", "data", "comm", "other" };
	int id[ARRAY_LEN(names)];
	for (size_t c = 0; c < ARRAY_LEN(names); c++)
		id[c] = steps_metric_intern(m, METRIC_PHASE, names[c]);
	for (int r = 0; r < 3; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < 500; s++) {
			size_t pos = rank_append(rs, s, 0, false);
			rank_set(rs, pos, id[0], r == 1 && s % 97 == 3 ? 1e308 : (double)(1000 + s) / 1e9);
			if (s % 3)
				rank_set(rs, pos, id[1], (double)(2000 + 3 * s) / 1e9);
			rank_set(rs, pos, id[2], r == 2 && s == 7 ? 1e300 : 0.1 / (double)(s + 3));
			rank_set(rs, pos, id[3], 0.001);
			rank_set(rs, pos, id[4], (double)(s % 11) / 1e6);
			if (s % 5 == 0)
				rank_set(rs, pos, id[5], 1e-7 * (double)s);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	bool same = true;
	for (size_t r = 0; r < 3; r++) {
		double want[4];
		budget_ref(run, r, want);
		struct budget_sums sums;
		analysis_budget_sums(run, r, &sums);
		double got[4] = { sums.compute, sums.data, sums.comm, sums.other };
		same = same && memcmp(got, want, sizeof(got)) == 0;
		if (r == 1) /* its compute sum overflows: below */
			continue;
		const struct budget *b = analysis_budget(run, r);
		struct budget w;
		bool hw = analysis_budget_window(run, r, 0, 499, &w);
		same = same && b && hw && memcmp(&b->compute_measured, &want[0], 8) == 0 &&
		       memcmp(&w.compute_measured, &want[0], 8) == 0;
		for (size_t k = 1; b && hw && k < 4; k++)
			same = same && memcmp(&b->line[k + 1].seconds, &want[k], 8) == 0 &&
			       memcmp(&w.line[k + 1].seconds, &want[k], 8) == 0;
	}
	ok(same, "budget sums = record-order fsum, bit for bit (gaps, doubles, an overflowing sum)");
	char why[160];
	struct budget w;
	ok(!analysis_budget(run, 1) && !analysis_budget_window(run, 1, 0, 499, &w) &&
	   analysis_budget_why_none(run, 1, why, sizeof(why)) && strcmp(why, "the phase totals overflow on rank 1") == 0,
	   "sums that overflow: no budget (not an inf wall and NaN shares), said why");
	run_free(run);
}

/* Ranks of 1 to 130 records (a block's lanes run in groups of eight: short ranks, a
 * group and a lane over, a block and one over, a block and a tail): every record's
 * compute = fsum of its compute phases and its comm = the value or 0, bit for bit, by
 * records and at the aligned steps; and every budget = the definition. Gaps in one
 * phase (the cursor path), a record whose cascade cannot decide (1e16 + 1 - 1e16, fsum
 * then) and one of zeros (sign of a zero total: fsum). */
static double short_value(size_t c, int r, long s, bool cancel)
{
	if (cancel && s == 2 && c < 3)
		return c == 0 ? 1e16 : c == 1 ? 1.0 : -1e16;
	if (s == 4)
		return 0.0;
	return (double)(1000 + 37 * c + 3 * s + r) / (c == 1 ? 1e9 : 7e3);
}

/* A run of ranks r with len[r] records (steps 0, 1, ...) of the short_value() phases
 * (cancel: with its record the cascade cannot decide); the optimizer missing on a third
 * of the even ranks' records. */
static struct run *short_run(const long *len, size_t nranks, bool cancel)
{
	static const char *const names[] = { "forward", "backward", "optimizer", "comm" };
	static const struct opts o = { 0 }; /* the run keeps the pointer */
	struct run *run = run_open(NULL, 0, &o, NULL);
	struct steps_model *m = steps_model_get(run);
	int id[ARRAY_LEN(names)];
	for (size_t c = 0; c < ARRAY_LEN(names); c++)
		id[c] = steps_metric_intern(m, METRIC_PHASE, names[c]);
	for (int r = 0; r < (int)nranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < len[r]; s++) {
			size_t pos = rank_append(rs, s, 0, false);
			for (size_t c = 0; c < ARRAY_LEN(names); c++)
				if (c != 2 || s % 3 != 1 || r % 2)
					rank_set(rs, pos, id[c], short_value(c, r, s, cancel));
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

/* Rank ri's records' compute and comm = fsum of its compute phases and the comm value
 * or 0, bit for bit (out: its compute, comm: its comm, n records). */
static bool records_as_defined(struct run *run, size_t ri, const double *out, const double *comm, size_t n)
{
	const struct steps_model *m = run->steps;
	static const char *const names[] = { "forward", "backward", "optimizer", "comm" };
	bool same = true;
	for (size_t i = 0; i < n; i++) {
		double v[3], x;
		size_t k = 0;
		for (size_t c = 0; c < 3; c++)
			k += steps_value(m, ri, steps_metric_find(m, METRIC_PHASE, names[c]), i, &v[k]);
		double want = stats_fsum_partials(v, k);
		double wc = steps_value(m, ri, steps_metric_find(m, METRIC_PHASE, names[3]), i, &x) ? x : 0.0;
		same = same && memcmp(&out[i], &want, 8) == 0 && memcmp(&comm[i], &wc, 8) == 0;
	}
	return same;
}

static void test_short_ranks(void)
{
	static const long len[] = { 1, 7, 8, 9, 10, 63, 64, 65, 130 };
	struct run *run = short_run(len, ARRAY_LEN(len), true);
	struct phase_sets ps;
	analysis_phase_sets_init(run->steps, &ps);
	bool same = true, aligned = true;
	for (size_t ri = 0; ri < ARRAY_LEN(len); ri++) {
		size_t n = (size_t)len[ri];
		double *out = xmalloc(2 * n * sizeof(*out)), *comm = out + n;
		analysis_records_compute(run->steps, &ps, ri, 0, n, out, comm);
		same = same && records_as_defined(run, ri, out, comm, n);
		analysis_rank_compute(run->steps, &ps, ri, 0, 1, out, comm); /* aligned: step 0 only */
		aligned = aligned && records_as_defined(run, ri, out, comm, 1);
		free(out);
	}
	ok(same, "ranks of 1-130 records: each record's compute and comm = fsum of its phases, bit for bit");
	ok(aligned, "... and at the aligned step");
	analysis_phase_sets_free(&ps);
	run_free(run);
	/* every record aligned: the budget sums taken in the same blocks (the lanes) */
	static const long each[] = { 1, 10, 65, 130 };
	bool lanes = true;
	for (size_t t = 0; t < ARRAY_LEN(each); t++) {
		long two[] = { each[t], each[t] };
		run = short_run(two, 2, false);
		analysis_phase_sets_init(run->steps, &ps);
		struct budget_plan bp;
		analysis_budget_plan(run->steps, &ps, &bp);
		for (size_t ri = 0; ri < 2; ri++) {
			size_t n = (size_t)each[t];
			double *out = xmalloc(2 * n * sizeof(*out)), ref[4];
			struct budget_sums bs;
			bool decided = analysis_rank_compute_sums(run, &ps, &bp, ri, out, out + n, &bs);
			budget_ref(run, ri, ref);
			lanes = lanes && decided && records_as_defined(run, ri, out, out + n, n) &&
				memcmp(&bs.compute, &ref[0], 8) == 0 && memcmp(&bs.comm, &ref[2], 8) == 0;
			free(out);
		}
		analysis_budget_plan_free(&bp);
		analysis_phase_sets_free(&ps);
		run_free(run);
	}
	ok(lanes, "... and the budget lanes over 1, 10, 65 and 130 aligned records decide = fsum, bit for bit");
}

static double rows_fwd(int r, long s)
{
	return 0.02 + (double)((r * 7 + s * 3) % 11) / 1000.0;
}

static bool rows_comm(int r, long s, double *c)
{
	*c = s % 5 == 0 ? (double)(20 - r) / 1000.0 : (double)((r * 37 + s * 11) % 23) / 1000.0;
	if (s % 9 == 4 && r % 4 == 1)
		*c = s % 2 ? -0.0 : 0.0;
	if ((s % 13 == 6 && r % 3 == 2) || (s == 17 && r == 0))
		*c = NAN;
	return !(s % 7 == 3 && r % 5 == 4);
}

/* The step pass's comm maximum per step, taken rank by rank in rank order (the first
 * rank's value, then any greater one), is the same whether it reads every rank's comm
 * in the step pass (a plain open) or takes each task's share from the index build's
 * rows pass (ANALYSIS_RANK_CHUNK ranks a task, merged in task order): 20 ranks (three
 * tasks), 150 steps (two blocks of 64 and the rest), comm values rising and falling
 * across the tasks, ties, zeros of both signs, missing values and NaN (rank 0's: the
 * step's maximum is NaN; another rank's: skipped). */
static void test_comm_max_rows(void)
{
	static const struct opts plain = { .jobs = 1 }, build = { .jobs = 1, .index_build = true };
	struct run *a = phase_run(&plain, 20, 150, rows_fwd, rows_comm);
	struct run *b = phase_run(&build, 20, 150, rows_fwd, rows_comm);
	const struct distributed *da = analysis_distributed(a), *db = analysis_distributed(b);
	bool same = da && db && da->n_steps == 150 && db->n_steps == 150;
	size_t nan = 0;
	for (size_t k = 0; same && k < da->n_steps; k++) {
		same = memcmp(&da->step[k].comm_max, &db->step[k].comm_max, sizeof(double)) == 0 &&
		       memcmp(&da->step[k].wall, &db->step[k].wall, sizeof(double)) == 0;
		nan += isnan(da->step[k].comm_max);
	}
	ok(same && nan >= 1, "per-step comm maximum: the index build's rows pass = the step pass, bit for bit (%zu NaN)",
	   nan);
	run_free(a);
	run_free(b);
}

int main(void)
{
	test_budget_sums();
	test_short_ranks();
	test_fsum();
	test_f1();
	test_f2();
	test_onset(120);
	test_onset(37);
	test_ties();
	test_heat_sparse();
	test_comm_max_rows();
	return tap_done();
}
