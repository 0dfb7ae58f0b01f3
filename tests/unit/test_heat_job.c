/* SPDX-License-Identifier: MIT */
/* test_heat_job.c: a heatmap pyramid built on its own thread (model/steps/heat_job.c):
 * on an indexed run (bodies read into private copies, none left resident) and on a
 * plain one it is the pyramid the UI thread builds, every range bit for bit; kept in
 * blocks when it would not fit its bound, each block is the worst and mean of its steps
 * (missing stays missing); a job stops when cancelled; the step grid hands it out as a
 * grid job only when it is needed (or the test hook asks). Run under ASan (check-asan)
 * and, by hand, TSan (BENCHMARKS.md says how). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/grid.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/heat_job.h"
#include "model/steps/internal.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

#define NR 10
#define NS 700

/* NR ranks x NS steps; rank 6 slow in forward; rank 3 has no "data" at steps 112..143
 * (two whole 16-step blocks) nor at every 7th step. */
static void write_run(const char *dir)
{
	for (int r = 0; r < NR; r++) {
		char path[1024];
		snprintf(path, sizeof(path), "%.500s/rank%d", dir, r);
		tu_make_dir(path);
		size_t cap = NS * 200, n = 0;
		char *buf = xmalloc(cap);
		for (int s = 0; s < NS; s++) {
			double f = 0.030 + 0.0001 * ((r * 7 + s * 13) % 11) + (r == 6 && s >= 200 ? 0.02 : 0);
			bool no_data = r == 3 && ((s >= 112 && s < 144) || s % 7 == 0);
			char data[40] = "";
			if (!no_data)
				snprintf(data, sizeof(data), "\"data\":%.4f,", 0.004 + 0.001 * (s % 5));
			n += (size_t)snprintf(buf + n, cap - n,
					      "{\"step\":%d,\"timestamp\":%d.5,\"phases\":{%s\"forward\":%.6f,"
					      "\"backward\":%.6f,\"comm\":%.4f}}\n",
					      s, 1000 + s, data, f, 2 * f, 0.010 + 0.0003 * ((r + s) % 4));
		}
		snprintf(path, sizeof(path), "%.500s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
		free(buf);
	}
}

static struct run *open_dir(const char *dir, const struct opts *o)
{
	const char *paths[] = { dir };
	return run_open(paths, 1, o, NULL);
}

static int phase_series(const struct steps_model *m, const char *name)
{
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (strcmp(steps_metric(m, (int)i)->name, name) == 0)
			return (int)i;
	return -1;
}

static struct heat_grid *wait_take(struct heat_job *j)
{
	size_t done, total, unreadable = 0;
	if (!j)
		return NULL;
	while (!heat_job_poll(j, &done, &total)) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	struct heat_grid *g = heat_job_take(j, &unreadable);
	return unreadable ? NULL : g;
}

static bool same_bits(double x, double y)
{
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Every range of every row (each zoom the pane asks) answered alike, bit for bit. */
static bool same_ranges(const struct heat_grid *a, const struct heat_grid *b)
{
	if (!a || !b || heat_nsteps(a) != heat_nsteps(b) || heat_nranks(a) != heat_nranks(b))
		return false;
	for (size_t r = 0; r < heat_nranks(a); r++)
		for (size_t w = 1; w <= heat_nsteps(a); w = w * 3 + 1)
			for (size_t k = 0; k < heat_nsteps(a); k += w) {
				double ma = 0, wa = 0, mb = 0, wb = 0;
				bool ha = heat_range(a, r, k, k + w, &ma, &wa), hb = heat_range(b, r, k, k + w, &mb, &wb);
				if (ha != hb || (ha && (!same_bits(ma, mb) || !same_bits(wa, wb))))
					return false;
			}
	return true;
}

/* A coarse grid's column c = the full grid's steps [c << shift, (c + 1) << shift):
 * the worst exactly, the mean bit for bit over whole blocks (the same sums in the same
 * order) and to float precision over the last, partial one (the block's mean is kept
 * as a float, the full grid sums its steps); missing where it is missing. */
static bool coarse_matches(const struct heat_grid *full, const struct heat_grid *c, unsigned shift)
{
	size_t S = heat_nsteps(full);
	for (size_t r = 0; r < heat_nranks(c); r++)
		for (size_t w = 1; w <= heat_nsteps(c); w *= 2)
			for (size_t k = 0; k < heat_nsteps(c); k += w) {
				double mc = 0, wc = 0, mf = 0, wf = 0;
				size_t lo = k << shift, hi = (k + w) << shift;
				bool hc = heat_range(c, r, k, k + w, &mc, &wc), hf = heat_range(full, r, lo, hi, &mf, &wf);
				if (hc != hf || (hc && !same_bits(wc, wf)) ||
				    (hc && (hi <= S ? !same_bits(mc, mf) : fabs(mc - mf) > 1e-6 * fabs(mf)))) {
					printf("# rank %zu blocks %zu+%zu: %d %.17g %.17g / %d %.17g %.17g\n", r, k, w, hc, mc, wc,
					       hf, mf, wf);
					return false;
				}
			}
	return true;
}

static void test_same_as_on_thread(struct run *plain, struct run *lazy)
{
	const struct steps_model *m = lazy->steps;
	setenv("TSCOPE_TEST_HEAT_JOB_MS", "0", 1);
	int series[] = { HEAT_STEP_TIME, HEAT_COMM, phase_series(m, "data") };
	const char *name[] = { "step time", "comm", "data (cells missing)" };
	for (size_t i = 0; i < 3; i++) {
		struct heat_job *j = heat_job_start(lazy, series[i]);
		ok(j != NULL, "%s: not in the summary, the test hook asks: a job", name[i]);
		struct heat_grid *g = j ? wait_take(j) : NULL;
		struct heat_job *jp = heat_job_start(plain, series[i]);
		struct heat_grid *gp = jp ? wait_take(jp) : NULL;
		const struct heat_grid *on = analysis_heatmap(plain, series[i]);
		ok(g && g->shift == 0 && same_ranges(on, g),
		   "%s: the job's pyramid from the index = the UI thread's from the JSONL, every range", name[i]);
		ok(same_ranges(on, gp), "%s: ... and the job's from the JSONL too", name[i]);
		analysis_heat_free(g);
		analysis_heat_free(gp);
	}
	is_int(steps_bodies_resident(m), 0, "the jobs left no rank's steps resident (each read, used, freed)");
	double mean, worst;
	const struct heat_grid *data = analysis_heatmap(plain, series[2]);
	ok(!heat_range(data, 3, 112, 144, &mean, &worst), "rank 3's data at steps 112..143 is missing (not 0)");
	unsetenv("TSCOPE_TEST_HEAT_JOB_MS");
	ok(heat_job_start(lazy, HEAT_COMM) == NULL, "without the hook a small pyramid is no job (built in place)");
}

static void test_coarse(struct run *plain, struct run *lazy)
{
	const struct steps_model *m = lazy->steps;
	int data = phase_series(m, "data");
	/* a bound of 20,000 bytes: 10 ranks fit in blocks of 16 steps (44 columns) */
	struct heat_grid *c = wait_take(heat_job_start_within(lazy, data, 20000));
	const struct heat_grid *full = analysis_heatmap(plain, data);
	ok(c && c->shift == 4 && heat_nsteps(c) == (NS + 15) / 16 && heat_nranks(c) == NR,
	   "over its bound: kept in 16-step blocks (%zu columns)", c ? heat_nsteps(c) : 0);
	ok(c && coarse_matches(full, c, 4), "each block is the worst and mean of its steps (any range of blocks)");
	double mean = 0, worst = 0;
	ok(c && !heat_range(c, 3, 7, 9, &mean, &worst), "rank 3's blocks 7-8 (steps 112..143) are missing, not 0");
	ok(c && heat_range(c, 0, 0, 1, &mean, &worst) && worst == (float)0.008 && fabs(mean - 0.005875) < 1e-6,
	   "rank 0's first block: the worst (8 ms) and the mean (5.875 ms) of its 16 steps");
	analysis_heat_free(c);
	ok(steps_bodies_resident(m) == 0, "no rank's steps left resident");
}

static void test_cancel(struct run *lazy)
{
	setenv("TSCOPE_TEST_HEAT_JOB_MS", "30", 1);   /* 30 ms after each rank */
	struct heat_job *j = heat_job_start(lazy, HEAT_COMM);
	size_t done = 0, total = 0;
	bool ended = j && heat_job_poll(j, &done, &total);
	heat_job_cancel(j);
	ok(j && !ended && done < NR && total == NR, "a running job: %zu of %zu ranks when cancelled", done, total);
	ok(steps_bodies_resident(lazy->steps) == 0, "cancelled: no rank's steps left resident");

	/* the step grid as a grid job: comm is metric 3 */
	struct grid_job *gj = grid_steps.job_start(lazy, 3);
	char err[200] = "";
	ok(gj && !grid_steps.job_end(gj, NULL, err, sizeof(err)), "grid job stopped with job_end(NULL): nothing shown");
	setenv("TSCOPE_TEST_HEAT_JOB_MS", "0", 1);
	gj = grid_steps.job_start(lazy, 3);
	while (gj && !grid_steps.job_poll(gj, &done, &total)) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	struct grid_src src;
	memset(&src, 0, sizeof(src));
	ok(gj && grid_steps.job_end(gj, &src, err, sizeof(err)) && src.ncols == NS && src.nrows == NR &&
	   src.col_span == 1 && strcmp(src.title, "comm") == 0 && !err[0], "grid job ended: its source, every step");
	if (src.ud)
		grid_steps.close(&src);
	ok(grid_steps.job_start(lazy, 0) == NULL, "compute is in the summary: no job");
	unsetenv("TSCOPE_TEST_HEAT_JOB_MS");
}

/* The index part truncated under the open run: every rank unreadable, counted, its row
 * missing (never 0), the model untouched. Last: it damages the index. */
static void test_unreadable(struct run *lazy, const char *dir)
{
	char part[600];
	snprintf(part, sizeof(part), "%s/.tscope-index/steps-0-of-1.tsx", dir);
	ok(truncate(part, 4000) == 0, "part truncated in place under the open run");
	struct heat_job *j = heat_job_start_within(lazy, HEAT_COMM, (size_t)1 << 30);
	size_t done, total, unreadable = 0;
	while (j && !heat_job_poll(j, &done, &total)) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	struct heat_grid *g = j ? heat_job_take(j, &unreadable) : NULL;
	double mean, worst;
	ok(g && unreadable == NR && !heat_range(g, 0, 0, NS, &mean, &worst) && !heat_range(g, NR - 1, 5, 6, &mean, &worst),
	   "unreadable ranks counted (%zu), their rows missing, not 0", unreadable);
	ok(steps_bodies_resident(lazy->steps) == 0, "... and the model left as it was");
	analysis_heat_free(g);
}

static bool scale_range(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst)
{
	return heat_range(ud, row, c0, c1, mean, worst);
}

/* Whether heat_row_scale over g's rows gives what grid_scale_add_row over heat_range
 * gives, bit for bit: each segment's mean in order, and the worst. */
static bool row_scale_same(const struct heat_grid *g, size_t nrows)
{
	if (!g)
		return false;
	struct grid_src src = { .nrows = nrows, .ncols = heat_nsteps(g), .ud = (void *)g, .range = scale_range };
	struct grid_scale a, b;
	grid_scale_init(&a, nrows, heat_nsteps(g));
	grid_scale_init(&b, nrows, heat_nsteps(g));
	for (size_t r = 0; r < nrows; r++) {
		grid_scale_add_row(&a, &src, NULL, r);
		heat_row_scale(g, analysis_heat_row(g, r, false), r, &b);
	}
	bool same = a.n == b.n && a.n > 0 && memcmp(a.v, b.v, a.n * sizeof(*a.v)) == 0 &&
		    a.have_worst == b.have_worst && memcmp(&a.worst, &b.worst, sizeof(a.worst)) == 0;
	double lo[2], hi[2];
	grid_scale_done(&a, &lo[0], &hi[0]);
	grid_scale_done(&b, &lo[1], &hi[1]);
	return same;
}

/* heat_row_scale (the index summary's writers) = grid_scale_add_row over heat_range, bit
 * for bit, on rows with missing cells and cells of -0.0 and +0.0 (a column of thirds of
 * a microsecond: not whole nanoseconds, so the sign of a zero is kept), and on dense rows
 * (the segments' blocks planned once a scale; values 15 orders of magnitude apart, so a
 * sum taken in another order differs), at 37 steps (a column a segment), 150
 * (segments of 2-3) and 1,000 (segments of 15-16: blocks of several levels). */
static void test_row_scale(void)
{
	bool same = true, dense = true;
	static const long steps[] = { 37, 150, 1000 };
	for (size_t si = 0; si < ARRAY_LEN(steps); si++) {
		long S = steps[si];
		struct opts o = { 0 };
		struct run *run = run_open(NULL, 0, &o, NULL);
		struct steps_model *m = steps_model_get(run);
		int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
		int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
		for (int r = 0; r < 4; r++) {
			struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
			for (long k = 0; k < S; k++) {
				size_t pos = rank_append(rs, k, 0, false);
				/* magnitudes 15 orders apart: a segment's sum rounds, so its order shows */
				rank_set(rs, pos, fwd, (k * 37 + r * 11) % 7 ? 1e-6 * (double)(k % 13 + 1) : 1e9 + (double)k);
				if (k % 5 != r)
					rank_set(rs, pos, comm, k % 4 == 0 ? -0.0 : k % 4 == 1 ? 0.0 : (double)(7 * k + r) / 3e6);
			}
			steps_publish_rank(m, rs);
		}
		steps_finalize(m);
		same = same && row_scale_same(analysis_heatmap(run, comm), 4);
		dense = dense && row_scale_same(analysis_heatmap(run, fwd), 4);
		run_free(run);
	}
	ok(same, "a row's colour scale from its words = grid_scale_add_row over heat_range, bit for bit");
	ok(dense, "the same on a dense grid, through the segments' planned blocks");
}

int main(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "heatjob");
	write_run(dir);
	static const struct opts plain_o = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	struct run *plain = open_dir(dir, &plain_o);
	run_free(open_dir(dir, &build));
	struct run *lazy = open_dir(dir, &dflt);
	ok(plain && lazy && steps_nranks(lazy->steps) == NR && steps_bodies_resident(lazy->steps) == 0,
	   "indexed run opened with no rank's steps read");
	test_same_as_on_thread(plain, lazy);
	test_coarse(plain, lazy);
	test_cancel(lazy);
	test_unreadable(lazy, dir);
	test_row_scale();
	run_free(lazy);
	run_free(plain);
	tu_rm_rf(dir);
	return tap_done();
}
