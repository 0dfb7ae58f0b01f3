/* SPDX-License-Identifier: MIT */
/* test_steps.c: the columnar step model (model/steps/store.c): encodings, presence, duplicate
 * and restarted steps, aligned steps, union/missing, compaction, timestamps rounded to the
 * precision they are kept at. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/run.h"
#include "model/steps/steps.h"
#include "tests/tap.h"

static struct run *new_run(void)
{
	static const struct opts o;
	return run_open(NULL, 0, &o, NULL);
}

static void test_columns(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	is_int(steps_metric_intern(m, METRIC_PHASE, "forward"), fwd, "interning is idempotent");
	ok(steps_metric_intern(m, METRIC_MEMORY, "forward") != fwd, "kind is part of the name");
	struct rank_steps *r = steps_rank_new(m, 3, "x/steps.jsonl");
	for (long s = 0; s < 200; s++) {
		size_t pos = rank_append(r, s + 5, 1000.0 + 0.5 * (double)s, true);
		rank_set(r, pos, fwd, (double)(12209579 + s) / 1e9);
		if (s % 2 == 0)
			rank_set(r, pos, loss, 1.0 / (double)(s + 1));
	}
	steps_publish_rank(m, r);
	steps_finalize(m);
	is_int(steps_nranks(m), 1, "one rank");
	is_int(steps_rank_id(m, 0), 3, "rank id kept");
	is_int(steps_nrecords(m, 0), 200, "200 records");
	is_int(steps_step(m, 0, 10), 15, "contiguous step numbers");
	double v;
	ok(steps_value(m, 0, fwd, 7, &v) && v == 0.012209586, "phase value exact (nanosecond code)");
	ok(!steps_value(m, 0, loss, 1, &v), "missing scalar is missing, not 0");
	ok(steps_value(m, 0, loss, 2, &v) && fabs(v - 1.0 / 3) < 1e-7, "scalar kept as float32");
	ok(steps_timestamp(m, 0, 4, &v) && fabs(v - 1002.0) < 1e-3, "timestamp base + offset");
	is_int(steps_naligned(m), 200, "single rank: aligned = its steps");
	is_int(steps_aligned_step(m, 0), 5, "aligned starts at the first step");
	ok(steps_resident_bytes(m) < 200 * 16, "compact storage");
	run_free(run);
}

static void test_duplicates_and_alignment(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int c = steps_metric_intern(m, METRIC_PHASE, "compute");
	/* rank 1: steps 0..9 then a restart 0..4 (pytscope appends); rank 0: 2..11 */
	struct rank_steps *r1 = steps_rank_new(m, 1, "r1");
	for (long s = 0; s < 15; s++) {
		size_t pos = rank_append(r1, s < 10 ? s : s - 10, 0, false);
		rank_set(r1, pos, c, 0.5 + (double)s);
	}
	struct rank_steps *r0 = steps_rank_new(m, 0, "r0");
	for (long s = 2; s < 12; s++)
		rank_set(r0, rank_append(r0, s, 0, false), c, 0.25);
	steps_publish_rank(m, r1);
	steps_publish_rank(m, r0);
	steps_finalize(m);
	is_int(steps_rank_id(m, 0), 0, "ranks sorted by id");
	is_int(steps_step(m, 1, 12), 2, "file order kept for restarted steps");
	size_t pos;
	ok(steps_find(m, 1, 3, &pos) && pos == 13, "duplicate step: the last record wins");
	ok(!steps_find(m, 1, 10, &pos), "absent step not found");
	is_int(steps_naligned(m), 8, "aligned = intersection {2..9}");
	is_int(steps_aligned_step(m, 0), 2, "first aligned step");
	is_int(steps_aligned_pos(m, 1, 1), 13, "aligned position in the restarted rank");
	is_int(steps_nunion(m), 12, "union of step numbers 0..11");
	is_int(steps_missing(m, 0), 2, "rank 0 lacks steps 0 and 1");
	is_int(steps_missing(m, 1), 2, "rank 1 lacks steps 10 and 11");
	double v;
	ok(!steps_timestamp(m, 0, 0, &v), "no timestamps: missing");
	run_free(run);
}

static void test_encodings(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int p = steps_metric_intern(m, METRIC_PHASE, "other");
	int mem = steps_metric_intern(m, METRIC_MEMORY, "reserved");
	struct rank_steps *r = steps_rank_new(m, 0, "r");
	for (long s = 0; s < 1000; s++) {
		size_t pos = rank_append(r, s, 0, false);
		rank_set(r, pos, p, s == 500 ? 0.1234567891234 : 0.001);
		rank_set(r, pos, mem, s < 400 ? 3.0 * 1048576 : 5.0 * 1048576);
	}
	steps_publish_rank(m, r);
	steps_finalize(m);
	double v;
	ok(steps_value(m, 0, p, 500, &v) && v == 0.1234567891234, "non-nanosecond phase falls back to double");
	ok(steps_value(m, 0, mem, 399, &v) && v == 3.0 * 1048576, "run-length column before the change");
	ok(steps_value(m, 0, mem, 400, &v) && v == 5.0 * 1048576, "run-length column after the change");
	ok(steps_value(m, 0, p, 999, &v) && fabs(v - 0.001) < 1e-9, "float32 column value");
	run_free(run);
}

static void test_memory_and_gaps(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int alloc = steps_metric_intern(m, METRIC_MEMORY, "alloc");
	int lr = steps_metric_intern(m, METRIC_SCALAR, "lr");
	struct rank_steps *r = steps_rank_new(m, 0, "r");
	rank_reserve(r, 3000);
	for (long s = 0; s < 2000; s++) {
		size_t pos = rank_append(r, s, 0, false);
		/* 40 GiB + 1 byte: not exact in float32, so the column becomes double */
		rank_set(r, pos, alloc, s == 1500 ? 42949672961.0 : 1048576.0 * (double)s);
		if (s % 10 != 3)
			rank_set(r, pos, lr, s < 1000 ? 1e-3 : 5e-4); /* run-length with gaps */
	}
	steps_publish_rank(m, r);
	steps_finalize(m);
	double v;
	ok(steps_value(m, 0, alloc, 1500, &v) && v == 42949672961.0, "memory beyond float32 kept exact");
	ok(steps_value(m, 0, alloc, 1499, &v) && v == 1048576.0 * 1499, "memory before the upgrade kept");
	ok(!steps_value(m, 0, lr, 13, &v), "run-length column: a gap stays missing");
	ok(steps_value(m, 0, lr, 999, &v) && fabs(v - 1e-3) < 1e-9, "run-length column: first run");
	ok(steps_value(m, 0, lr, 1000, &v) && fabs(v - 5e-4) < 1e-9, "run-length column: second run");
	ok(steps_resident_bytes(m) < 2000 * 12, "reserve + compaction: no growth slack left");
	run_free(run);
}

/* Many ranks published out of order with a replaced id: the id table finds each one, and
 * a small rank keeps no fixed-size slack (issue 15: ~50 KB per rank before). */
static void test_many_ranks(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	enum { N = 5000 };
	for (int k = 0; k < N; k++) {
		int id = (k * 7919) % N; /* a permutation of 0..N-1 */
		struct rank_steps *r = steps_rank_new(m, id, "x");
		for (long s = 0; s < 3; s++) {
			size_t pos = rank_append(r, s, 0, false);
			rank_set(r, pos, fwd, 0.001 * (double)(id + 1));
			rank_set(r, pos, loss, 2.0);
		}
		steps_publish_rank(m, r);
	}
	struct rank_steps *again = steps_rank_new(m, 42, "y"); /* replaces rank 42 */
	rank_append(again, 0, 0, false);
	steps_publish_rank(m, again);
	ok(steps_nranks(m) == N, "5000 ranks, the replaced id counted once");
	ok(steps_rank_index(m, 42) >= 0 && steps_nrecords(m, (size_t)steps_rank_index(m, 42)) == 1,
	   "a later rank with the same id replaces the earlier one");
	steps_finalize(m);
	bool sorted = true, found = true;
	for (size_t i = 0; i < steps_nranks(m); i++) {
		sorted = sorted && steps_rank_id(m, i) == (int)i;
		found = found && steps_rank_index(m, (int)i) == (long)i;
	}
	ok(sorted && found, "after finalize: ranks in id order, each found by its id");
	is_int(steps_rank_index(m, N + 3), -1, "an absent id is not found");
	ok(steps_resident_bytes(m) < (size_t)N * 1024, "a 3-record rank costs well under 1 KB of store");
	run_free(run);
}

/* The run's order of metrics (steps_metric_nth): phases, scalars, memory, each as ranks
 * by id name them, whatever order ids were interned in; past the 64 the model holds
 * inline. Rank 7 (made first) names s79..s0 and phase b; rank 2 names a, s0..s79, then
 * memory m; a metric interned with a recorded place (an index's) takes it. */
static void test_metric_order(void)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	enum { NS = 80 };
	int s[NS];
	char name[16];
	struct rank_steps *late = steps_rank_new(m, 7, "x7"), *early = steps_rank_new(m, 2, "x2");
	size_t pl = rank_append(late, 0, 0, false), pe = rank_append(early, 0, 0, false);
	for (int k = NS - 1; k >= 0; k--) {
		snprintf(name, sizeof(name), "s%d", k);
		s[k] = steps_metric_intern(m, METRIC_SCALAR, name);
		rank_set(late, pl, s[k], k);
	}
	int b = steps_metric_intern(m, METRIC_PHASE, "b"), a = steps_metric_intern(m, METRIC_PHASE, "a");
	int mem = steps_metric_intern(m, METRIC_MEMORY, "m");
	rank_set(late, pl, b, 0.1);
	rank_set(early, pe, a, 0.1);
	for (int k = 0; k < NS; k++)
		rank_set(early, pe, s[k], k);
	rank_set(early, pe, mem, 1.0);
	int x = steps_metric_intern_at(m, METRIC_SCALAR, "x", steps_metric_first(0, 5));
	steps_publish_rank(m, late);
	steps_publish_rank(m, early);
	steps_finalize(m);
	bool want = steps_nmetrics(m) == NS + 4 && steps_metric_nth(m, 0) == a && steps_metric_nth(m, 1) == b &&
		    steps_metric_nth(m, 2) == x && steps_metric_nth(m, NS + 3) == mem;
	for (int k = 0; k < NS; k++)
		want = want && steps_metric_nth(m, (size_t)k + 3) == s[k];
	ok(want, "phases a, b; scalars x (rank 0), s0..s79 (rank 2's order); memory m");
	run_free(run);
}

/* The rounding store_read.c's timestamp_kept did with log10 and pow per timestamp,
 * which the export's cheap one must give bit for bit. */
static double kept_reference(double ts0, float off)
{
	double v = ts0 + (double)off;
	if (!isfinite(off) || !isfinite(v))
		return v;
	double ulp_off = off != 0 ? ldexp(1.0, ilogbf(off) - FLT_MANT_DIG + 1) : 0;
	double ulp_sum = v != 0 ? ldexp(1.0, ilogb(v) - DBL_MANT_DIG + 1) : 0;
	double ulp = ulp_off > ulp_sum ? ulp_off : ulp_sum;
	if (!(ulp > 0))
		return v;
	double p = floor(-log10(ulp)), scale = pow(10.0, fabs(p));
	double kept = p >= 0 ? round(v * scale) / scale : round(v / scale) * scale;
	return isfinite(kept) ? kept : v;
}

/* A rank whose first timestamp is ts0 and the others ts0 + d for each d of n, read back. */
static bool kept_as_reference(double ts0, const double *d, size_t n)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	struct rank_steps *r = steps_rank_new(m, 0, "x");
	rank_append(r, 0, ts0, true);
	for (size_t i = 0; i < n; i++)
		rank_append(r, (long)i + 1, ts0 + d[i], true);
	steps_publish_rank(m, r);
	steps_finalize(m);
	bool same = true;
	for (size_t i = 0; i <= n && same; i++) {
		double got, want = kept_reference(ts0, i ? (float)(ts0 + d[i - 1] - ts0) : 0.0f);
		same = steps_timestamp(m, 0, i, &got) && (got == want || (isnan(got) && isnan(want)));
		if (!same)
			printf("# ts0 %.17g record %zu: %.17g, want %.17g\n", ts0, i, got, want);
	}
	run_free(run);
	return same;
}

/* The timestamp t of a rank whose first one is ts0, as it is read back. */
static double kept_at(double ts0, double t)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	struct rank_steps *r = steps_rank_new(m, 0, "x");
	rank_append(r, 0, ts0, true);
	rank_append(r, 1, t, true);
	steps_publish_rank(m, r);
	steps_finalize(m);
	double v = NAN;
	steps_timestamp(m, 0, 1, &v);
	run_free(run);
	return v;
}

/* Timestamps come back rounded to the decimals their float offset and the double sum
 * hold, the same as log10/pow gave: 0.0, negative, epoch seconds, a week in (0.1 s),
 * float subnormal offsets, more than 22 decimals, and every binary exponent. */
static void test_timestamps_kept(void)
{
	static const double base[] = { 0.0, -5.0, -1795344081.25, 1e9, 1795344081.2502363, 1e-310, 1e-200, 1e-30, 1e30,
				       1e300 };
	enum { NE = 2 * (127 + 150 + 1) + 6 };
	double d[NE];
	size_t n = 0;
	for (int k = -150; k <= 127; k++) {
		d[n++] = ldexp(1.37, k);
		d[n++] = -ldexp(1.37, k);
	}
	d[n++] = 0.0;
	d[n++] = 1e-40;	/* a float subnormal */
	d[n++] = 1e-45;
	d[n++] = 0.1234567;
	d[n++] = 604800.33;
	d[n++] = -0.25;
	bool all = true;
	for (size_t i = 0; i < ARRAY_LEN(base); i++)
		all = kept_as_reference(base[i], d, n) && all;
	ok(all, "every timestamp rounded as log10/pow rounded it (%zu bases x %zu offsets)", ARRAY_LEN(base), n);
	double week = kept_at(1795344081.2502363, 1795344081.2502363 + 604800.33);
	double epoch = kept_at(1e9, 1e9 + 0.1234567);
	double zero = kept_at(0.0, 0.0), neg = kept_at(-5.0, -5.25), sub = kept_at(0.0, 1e-40);
	ok(week == 1795948881.6 && epoch == 1000000000.123457 && zero == 0 && neg == -5.25 &&
	   fabs(sub / 9.99995e-41 - 1) < 1e-15,
	   "a week in to 0.1 s, epoch seconds to the microsecond, 0.0, negative, a float subnormal offset "
	   "(%.17g %.17g %.17g %.17g %.17g)", week, epoch, zero, neg, sub);
}

int main(void)
{
	test_timestamps_kept();
	test_metric_order();
	test_many_ranks();
	test_columns();
	test_duplicates_and_alignment();
	test_encodings();
	test_memory_and_gaps();
	return tap_done();
}
