/* SPDX-License-Identifier: MIT */
/* test_rule_slices.c: the finding rules in slices (the explorer's idle time, findings.h
 * struct rule_slicer; model/steps/rules.c): rank 0's timing, convergence and memory
 * analyses and the CROSS rule made ANALYSIS_SLICE records at a time give, bit for bit,
 * the analyses and the findings (ids, severities, texts, evidence) the whole rules give;
 * from the JSONL and from the index (rank 0's steps read in a slice of their own);
 * begun, dropped part way and begun again; and with a pane making an analysis while
 * its slices are under way. A resume at a slice's start (the step numbers go back) starts
 * the spike scans again there from the steps it continues, in slices as whole. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/findings.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

#define NSTEPS 40000   /* rank 0: over two slices of every stage */
#define RESUME 32868   /* k from here logs step k - 868: record 32768 (a slice's start) is step 32000 again */

/* Rank 0: NSTEPS records (steps 1000-1099 missing, loss and grad-norm spikes with a
 * slow step at steps 16488, 16659 and 30000, a few missing loss and memory values, allocated memory
 * growing 1.2 MB per step with a third of what is reserved unused, a resume at RESUME whose first
 * two records are slow, with the loss and grad norm of the steps it continues, far above those of
 * the records it logs again: spikes only when judged against the run left behind); rank 1: 50. */
static void write_run(const char *dir)
{
	for (int r = 0; r < 2; r++) {
		char path[700];
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		tu_make_dir(path);
		int n = r ? 50 : NSTEPS;
		size_t cap = (size_t)n * 300, len = 0;
		char *buf = xmalloc(cap);
		for (int k = 0; k < n; k++) {
			if (k >= 1000 && k < 1100)
				continue;
			/* 16488: record 16388, 16659: loss value 16388, both 4 after a slice's start
			 * (ANALYSIS_SLICE 16384): flagged only with the history before the slice */
			bool spike = k == 30000 || k == 16488 || k == 16659;
			bool slow = spike || k == RESUME || k == RESUME + 1;
			bool left = k >= RESUME - 868 && k < RESUME; /* steps the resume logs again */
			int step = k < RESUME ? k : k - 868;
			double f = 0.020 + 0.0001 * ((k * 11) % 13) + (slow ? 0.05 : 0);
			len += (size_t)snprintf(buf + len, cap - len,
						"{\"step\":%d,\"phases\":{\"data\":0.00%d,\"forward\":%.6f,\"backward\":%.6f,"
						"\"optimizer\":0.003,\"comm\":0.0%02d}",
						step, 1 + k % 7, f, 2 * f, 10 + (k * 3) % 17);
			if (k % 97 != 5)
				len += (size_t)snprintf(buf + len, cap - len, ",\"scalars\":{\"loss\":%.5f,\"grad_norm\":%.4f}",
							(spike ? 9.0 : left ? 1.0 : 3.0 - 1e-5 * step) +
								0.001 * (k % 5),
							(spike ? 40.0 : left ? 0.2 : 1.0) + 0.01 * (k % 7));
			if (k % 89 != 3)
				len += (size_t)snprintf(buf + len, cap - len,
							",\"memory\":{\"alloc\":%.0f,\"reserved\":%.0f,\"peak_alloc\":%.0f}",
							1e8 + k * 1.2e6 + (k % 13) * 1e3, 1.5e8 + k * 1.8e6 + (k % 5) * 1e5,
							1.05e8 + k * 1.2e6);
			len += (size_t)snprintf(buf + len, cap - len, "}\n");
		}
		snprintf(path, sizeof(path), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, len);
		free(buf);
	}
}

static struct run *open_dir(const char *dir, const struct opts *o)
{
	const char *paths[] = { dir };
	return run_open(paths, 1, o, NULL);
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
	return n == 0 || (a && b && memcmp(a, b, n) == 0);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_timing(const struct timing *a, const struct timing *b)
{
	bool same = a && b && a->n == b->n && a->nphase == b->nphase && same_bytes(a->step_time, b->step_time, a->n * 8);
	for (size_t i = 0; same && i < a->nphase; i++)
		same = same_str(a->phase[i].name, b->phase[i].name) && same_bytes(&a->phase[i].total, &b->phase[i].total, 8) &&
		       same_bytes(&a->phase[i].seconds, &b->phase[i].seconds, 8) &&
		       same_bytes(&a->phase[i].fraction, &b->phase[i].fraction, 8);
	const double x[] = { a ? a->mean_step_time : 0, a ? a->std_step_time : 0, a ? a->p50 : 0, a ? a->p95 : 0,
			     a ? a->cv : 0, a ? a->total_time : 0 };
	const double y[] = { b ? b->mean_step_time : 0, b ? b->std_step_time : 0, b ? b->p50 : 0, b ? b->p95 : 0,
			     b ? b->cv : 0, b ? b->total_time : 0 };
	return same && same_bytes(x, y, sizeof(x));
}

static bool same_conv(const struct convergence *a, const struct convergence *b)
{
	return a && b && a->n_steps == b->n_steps && a->nloss == b->nloss && a->has_loss == b->has_loss &&
	       a->diverged == b->diverged && a->diverged_at == b->diverged_at && a->has_grad_norm == b->has_grad_norm &&
	       a->recovered == b->recovered && same_bytes(&a->gap, &b->gap, sizeof(a->gap)) &&
	       same_str(a->trend, b->trend) && same_bytes(&a->best_loss, &b->best_loss, 8) &&
	       same_bytes(&a->final_loss, &b->final_loss, 8) && same_bytes(a->loss, b->loss, a->nloss * 8) &&
	       same_bytes(a->loss_step, b->loss_step, a->nloss * sizeof(long)) && a->nloss_spikes == b->nloss_spikes &&
	       a->ngrad_spikes == b->ngrad_spikes && same_bytes(a->loss_spikes, b->loss_spikes, a->nloss_spikes * sizeof(long)) &&
	       same_bytes(a->grad_spikes, b->grad_spikes, a->ngrad_spikes * sizeof(long));
}

static bool same_memory(const struct memory *a, const struct memory *b)
{
	return a && b && a->has_memory == b->has_memory && a->n_steps == b->n_steps &&
	       same_bytes(&a->peak_alloc, &b->peak_alloc, 8) && same_bytes(&a->peak_reserved, &b->peak_reserved, 8) &&
	       same_bytes(&a->mean_alloc, &b->mean_alloc, 8) && same_bytes(&a->fragmentation, &b->fragmentation, 8) &&
	       same_bytes(&a->growth, &b->growth, 8);
}

static bool same_findings(const struct finding_list *a, const struct finding_list *b)
{
	bool same = a->n == b->n;
	for (size_t i = 0; same && i < a->n; i++) {
		const struct finding *x = &a->v[i], *y = &b->v[i];
		same = same_str(x->id, y->id) && x->severity == y->severity && same_str(x->title, y->title) &&
		       same_str(x->detail, y->detail) && same_str(x->fix, y->fix) && x->ev.kind == y->ev.kind &&
		       x->ev.rank == y->ev.rank && x->ev.step_lo == y->ev.step_lo && x->ev.step_hi == y->ev.step_hi &&
		       x->ev.nsteps == y->ev.nsteps && same_str(x->ev.series, y->ev.series) &&
		       same_bytes(x->ev.steps, y->ev.steps, x->ev.nsteps * sizeof(*x->ev.steps));
	}
	return same;
}

static bool has_finding(const struct finding_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, id) == 0)
			return true;
	return false;
}

/* Steps until the findings are complete; *mid: a pane's timing made at step `at` (0: none). */
static size_t step_all(struct run *run, size_t at)
{
	size_t n = 1;
	while (!run_findings_step(run))
		if (++n == at)
			analysis_timing(run, 0);
	return n;
}

static bool same_run(struct run *want, struct run *got)
{
	return same_findings(run_findings(want), run_findings(got)) &&
	       same_timing(analysis_timing(want, 0), analysis_timing(got, 0)) &&
	       same_conv(analysis_convergence(want, 0), analysis_convergence(got, 0)) &&
	       same_memory(analysis_memory(want, 0), analysis_memory(got, 0));
}

int main(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "ruleslices");
	write_run(dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	const struct finding_list *fl = run_findings(want);
	const struct convergence *c = analysis_convergence(want, 0);
	ok(has_finding(fl, "CROSS.CORRELATED_INSTABILITY") && has_finding(fl, "MEMORY.GROWTH") &&
	   has_finding(fl, "MEMORY.FRAGMENTATION") && c->nloss_spikes == 3 && c->loss_spikes[0] == 16488 &&
	   c->loss_spikes[1] == 16659 && c->ngrad_spikes == 3,
	   "the whole rules find the three spikes and the memory findings (%zu findings)", fl->n);
	ok(c->nloss_spikes == 3 && c->loss_spikes[2] == 30000 && c->ngrad_spikes == 3 && c->grad_spikes[2] == 30000,
	   "no spike at the resume: its records are judged against the steps they continue, not the run left behind");

	struct run *got = open_dir(dir, &plain);
	size_t steps = step_all(got, 0);
	ok(steps >= 20 + 4 * (NSTEPS / ANALYSIS_SLICE), "in slices: %zu steps", steps);
	ok(same_run(want, got), "in slices: findings, rank 0's timing, convergence and memory = the whole rules', bit for bit");
	run_free(got);

	run_free(open_dir(dir, &build));
	got = open_dir(dir, &dflt);
	ok(steps_bodies_resident(got->steps) == 0, "from the index: rank 0's steps not read at the open");
	ok(!run_findings_step(got) && steps_bodies_resident(got->steps) == 1 && !analysis_rank_cache(got, 0)->timing_done,
	   "from the index: rank 0's steps read by a step of their own");
	step_all(got, 0);
	ok(same_run(want, got), "from the index, in slices: the same findings and analyses");
	run_free(got);

	got = open_dir(dir, &plain);
	for (int i = 0; i < 9; i++)
		run_findings_step(got);
	run_findings_reset(got); /* part way through a rule: its state dropped */
	step_all(got, 0);
	ok(same_run(want, got), "begun, dropped part way, begun again: the same");
	run_free(got);

	got = open_dir(dir, &plain);
	step_all(got, 3); /* a pane makes rank 0's timing while its slices are under way */
	ok(same_run(want, got), "a pane's timing made between two slices: the same");
	run_free(got);

	got = open_dir(dir, &plain);
	for (int i = 0; i < 12; i++)
		run_findings_step(got);
	ok(same_findings(run_findings(want), run_findings(got)), "begun in slices, finished at once: the same");
	run_free(got);
	got = open_dir(dir, &plain);
	for (int i = 0; i < 5; i++)
		run_findings_step(got);
	run_free(got); /* part way: nothing leaks (ASan) */

	run_free(want);
	tu_rm_rf(dir);
	return tap_done();
}
