/* SPDX-License-Identifier: MIT */
/* analysis_weighable.c: why the ranks' compute cannot be weighed against each other (a
 * rank without a compute phase, a phase one rank never records while another does, aligned
 * steps without compute, a phase value that is not a duration, compute sums that
 * overflow or are 0 on one rank only, the ProfilerSteps of traces of two runs), and why the
 * step walls or their comm share are not measured on every rank (a rank without the phases
 * or with compute 0: n/a, not the others' figures; walls that overflow), and the phases a
 * run records when none is one pytscope weighs (fwd, bwd: analysis_phases_foreign);
 * analysis.h says what each answer means. */
#include "model/steps/seal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/ranklist.h"
#include "model/run.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

const char analysis_compute_zero[] = "every rank's compute is 0";

/* The budget lane (BUDGET_LANE_x: the compute phases', comm's) of each metric of m, -1
 * for the others: a new array of steps_nmetrics() slots, the caller frees it. Made once
 * a pass over the ranks, not a name test a rank. */
static int *lane_map_new(const struct steps_model *m)
{
	size_t nm = steps_nmetrics(m);
	int *lane = xmalloc((nm ? nm : 1) * sizeof(*lane));
	for (size_t i = 0; i < nm; i++) {
		const struct metric_def *md = steps_metric(m, (int)i);
		bool comm = strcmp(md->name, "comm") == 0;
		lane[i] = md->kind != METRIC_PHASE || !(comm || analysis_in_compute_phases(md->name)) ? -1
			: comm					? BUDGET_LANE_COMM
			: strcmp(md->name, "data") == 0	? BUDGET_LANE_DATA
			: strcmp(md->name, "other") == 0	? BUDGET_LANE_OTHER
								: BUDGET_LANE_COMPUTE;
	}
	return lane;
}

/* Per budget lane, how many of rank ri's records have a value of it into lane_n (the
 * most values one of its phase columns has; lane: lane_map_new()'s); the index
 * summary's when it kept them, else its columns'. */
static void rank_lane_counts(struct run *run, const int *lane, size_t ri, size_t *lane_n)
{
	const struct steps_model *m = run->steps;
	const struct budget_sums *kept = analysis_cache_of(run)->bsum;
	memset(lane_n, 0, BUDGET_NLANES * sizeof(*lane_n));
	if (kept && kept[ri].n == steps_nrecords(m, ri)) {
		memcpy(lane_n, kept[ri].lane_n, BUDGET_NLANES * sizeof(*lane_n));
		return;
	}
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	for (size_t i = 0; i < steps_nmetrics(m) && i < r->ncol; i++)
		if (lane[i] >= 0 && r->col[i].count > lane_n[lane[i]])
			lane_n[lane[i]] = r->col[i].count;
}

/* The budget lanes (bit BUDGET_LANE_x) of the compute phases rank ri records: *any those
 * with a value among its records, *most those on at least half of them. */
static void rank_compute_lanes(struct run *run, const int *lane, size_t ri, unsigned *any, unsigned *most)
{
	unsigned mask = 1u << BUDGET_LANE_COMPUTE | 1u << BUDGET_LANE_DATA | 1u << BUDGET_LANE_OTHER;
	size_t n = steps_nrecords(run->steps, ri), lane_n[BUDGET_NLANES];
	rank_lane_counts(run, lane, ri, lane_n);
	*any = *most = 0;
	for (size_t l = 0; l < BUDGET_NLANES; l++) {
		*any |= (unsigned)(lane_n[l] > 0) << l & mask;
		*most |= (unsigned)(lane_n[l] > 0 && 2 * lane_n[l] >= n) << l & mask;
	}
}

bool analysis_rank_has_compute(struct run *run, size_t ri)
{
	unsigned any, most;
	int *lane = lane_map_new(run->steps);
	rank_compute_lanes(run, lane, ri, &any, &most);
	free(lane);
	return any != 0;
}

/* Why the ranks' compute sums measure different things into buf (false: they do not): a
 * rank without a compute phase, or one that never records a compute phase another rank
 * records on most of its records. */
static bool lanes_unweighable(struct run *run, char *buf, size_t n)
{
	static const char *const lane_name[BUDGET_NLANES] = {
		[BUDGET_LANE_COMPUTE] = "forward, backward, optimizer or compute", [BUDGET_LANE_DATA] = "data",
		[BUDGET_LANE_OTHER] = "other" };
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m);
	/* a lane one rank never records while another does on most of its records: the two
	 * compute sums measure different things (one that records it now and then, e.g. a
	 * checkpoint in other, spends that time for real) */
	unsigned *has = xmalloc(2 * (N ? N : 1) * sizeof(*has)), *most = has + N, often = 0;
	int *lane = lane_map_new(m);
	for (size_t r = 0; r < N; r++) {
		rank_compute_lanes(run, lane, r, &has[r], &most[r]);
		often |= most[r];
	}
	free(lane);
	buf[0] = '\0';
	for (size_t r = 0; r < N && !buf[0]; r++) {
		int id = steps_rank_id(m, r);
		unsigned lack = often & ~has[r];
		if (!has[r]) {
			snprintf(buf, n, "rank %d records no compute phase", id);
			continue;
		}
		for (size_t o = 0; lack && o < N; o++) {
			unsigned l = (unsigned)__builtin_ctz(lack);
			if (most[o] >> l & 1) {
				snprintf(buf, n, "rank %d records no %s phase while rank %d does on most of its "
					 "records: their compute sums differ", id, lane_name[l], steps_rank_id(m, o));
				break;
			}
		}
	}
	free(has);
	return buf[0] != '\0';
}

/* A rank whose mean compute (mean[r]) is not finite, into buf: its sums overflow (a value
 * that is not a duration is named before, analysis_ranks_flaw). */
static bool means_unweighable(const struct steps_model *m, const double *mean, char *buf, size_t n)
{
	for (size_t r = 0; r < steps_nranks(m); r++)
		if (!isfinite(mean[r])) {
			snprintf(buf, n, "the compute sums of rank %d overflow", steps_rank_id(m, r));
			return true;
		}
	return false;
}

/* means_unweighable() of the ranks' mean compute in d, or a rank whose mean is 0 while
 * another's is not: its phases recorded as zeros are no compute time, not the fastest rank
 * (every rank's 0 is analysis_compute_zero; compare mode sets such a rank aside itself, its
 * time not measured). */
static bool dist_means_unweighable(const struct steps_model *m, const struct distributed *d, char *buf, size_t n)
{
	size_t N = steps_nranks(m);
	double *mean = xmalloc((N ? N : 1) * sizeof(*mean));
	bool some = false;
	for (size_t r = 0; r < N; r++) {
		mean[r] = d->rank[r].mean_compute;
		some = some || mean[r] > 0;
	}
	bool why = means_unweighable(m, mean, buf, n);
	for (size_t r = 0; !why && some && r < N; r++)
		if (mean[r] == 0) {
			snprintf(buf, n, "rank %d's compute is 0 at every aligned step", steps_rank_id(m, r));
			why = true;
		}
	free(mean);
	return why;
}

/* A rank with aligned steps whose record has no compute phase value (rank_stat
 * no_compute: missing there, not 0 s), into buf. */
static bool gaps_unweighable(const struct distributed *d, char *buf, size_t n)
{
	for (size_t r = 0; d && r < d->world_size; r++)
		if (d->rank[r].no_compute) {
			snprintf(buf, n, "rank %d records no compute phase at %zu of the %zu aligned steps", d->rank[r].rank,
				 d->rank[r].no_compute, d->n_steps);
			return true;
		}
	return false;
}

/* Why one rank's compute cannot be weighed against the others' into buf (false: it
 * can): the ProfilerSteps of traces of two runs (trace_runs_mixed), lanes_unweighable(),
 * aligned steps without its compute (gaps_unweighable), a compute phase value that is not
 * a duration (analysis_ranks_flaw), or compute sums that overflow over the aligned steps
 * or are 0 on one rank only (means_unweighable). */
static bool rank_unweighable(struct run *run, const struct distributed *d, char *buf, size_t n)
{
	return trace_runs_mixed(run, buf, n) || lanes_unweighable(run, buf, n) || gaps_unweighable(d, buf, n) ||
	       analysis_ranks_flaw(run, false, buf, n) || dist_means_unweighable(run->steps, d, buf, n);
}

const char *analysis_compute_unweighable_grid(struct run *run, char *buf, size_t n)
{
	if (!analysis_has_compute(run->steps))
		return "no compute phase recorded";
	if (trace_runs_mixed(run, buf, n) || lanes_unweighable(run, buf, n) || analysis_ranks_flaw(run, false, buf, n))
		return buf;
	const struct steps_model *m = run->steps;
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t N = steps_nranks(m), S = steps_naligned(m);
	if (!g || !S)   /* no grid to read: the distributed analysis's judgement */
		return analysis_compute_unweighable(run);
	double *mean = xmalloc((N ? N : 1) * sizeof(*mean));
	bool zero = true, why = false;
	for (size_t r = 0; r < N && !why; r++) {
		const float *row = heat_row(g, r);
		double sum = 0;
		size_t gaps = 0;   /* a NaN cell: no compute phase there, or a NaN one */
		for (size_t k = 0; k < S; k++) {
			gaps += isnan(row[k]) != 0;
			sum += row[k];
			zero = zero && row[k] == 0;
		}
		mean[r] = sum / (double)S;
		if (gaps)
			snprintf(buf, n, "rank %d has no compute value at %zu of the %zu aligned steps",
				 steps_rank_id(m, r), gaps, S);
		why = gaps > 0;
	}
	why = why || means_unweighable(m, mean, buf, n);
	free(mean);
	return why ? buf : zero ? analysis_compute_zero : NULL;
}

const char *analysis_compute_unweighable(struct run *run)
{
	if (!analysis_has_compute(run->steps))
		return "no compute phase recorded";
	const struct distributed *d = analysis_distributed(run);
	struct analysis_cache *c = analysis_cache_of(run);
	if (!d || !c)
		return NULL;
	if (!c->unweigh_done) {
		rank_unweighable(run, d, c->unweigh, sizeof(c->unweigh));
		c->unweigh_done = true;
	}
	if (c->unweigh[0])
		return c->unweigh;
	for (size_t k = 0; k < d->n_steps; k++)
		if (!(d->step[k].cmax == 0)) /* NaN too: rank_unweighable names it */
			return NULL;
	return analysis_compute_zero;
}

/* The ranks none of whose records has a value of a lane of lanes (bits BUDGET_LANE_x),
 * into buf: "rank 1 records no WHAT", "ranks 1,3-4 record no WHAT" or "5 of 8 ranks record
 * no WHAT"; false when every rank records one. */
static bool ranks_lacking(struct run *run, unsigned lanes, const char *what, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), nl = 0, lane_n[BUDGET_NLANES];
	long *ids = xmalloc((N ? N : 1) * sizeof(*ids));
	int *lane = lane_map_new(m);
	for (size_t r = 0; r < N; r++) {
		rank_lane_counts(run, lane, r, lane_n);
		bool has = false;
		for (size_t l = 0; l < BUDGET_NLANES; l++)
			has = has || (lanes >> l & 1 && lane_n[l] > 0);
		if (!has)
			ids[nl++] = steps_rank_id(m, r);
	}
	free(lane);
	char list[64];
	if (nl == 1)
		snprintf(buf, n, "rank %ld records no %s", ids[0], what);
	else if (nl && ranklist_format(ids, nl, list, sizeof(list)))
		snprintf(buf, n, "ranks %s record no %s", list, what);
	else if (nl)
		snprintf(buf, n, "%zu of %zu ranks record no %s", nl, N, what);
	free(ids);
	return nl > 0;
}

/* Phases analysis_phases_foreign() names before "and N more". */
#define FOREIGN_NAMED 4

bool analysis_phases_foreign(struct run *run, long ri, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	const struct rank_steps *r = ri >= 0 ? m->rank[ri] : NULL;
	if (r)
		rank_need_body(r);
	size_t named = 0, more = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *md = steps_metric(m, (int)i);
		if (md->kind != METRIC_PHASE || (r && (i >= r->ncol || !r->col[i].count)))
			continue;
		if (analysis_phase_order(md->name) >= 0)
			return false;
		if (named == FOREIGN_NAMED) {
			more++;
			continue;
		}
		char safe[128], clip[96];
		text_sanitize(md->name, strlen(md->name), safe, sizeof(safe), 0);
		text_clip(safe, 24, clip, sizeof(clip), true, 0);
		text_appendf(buf, n, "%s%s", named++ ? ", " : "", clip);
	}
	if (more)
		text_appendf(buf, n, " and %zu more", more);
	return named > 0;
}

const char *analysis_wall_unmeasured(struct run *run, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	bool comm = steps_has_phase(m, "comm");
	char names[160];
	if (analysis_phases_foreign(run, -1, names, sizeof(names))) {
		snprintf(buf, n, "no " ANALYSIS_PYTSCOPE_PHASES " phase recorded, only %s", names);
		return buf;
	}
	if (!analysis_has_compute(m))
		return comm ? "no compute phase recorded" : "no phase recorded";
	unsigned compute = 1u << BUDGET_LANE_COMPUTE | 1u << BUDGET_LANE_DATA | 1u << BUDGET_LANE_OTHER;
	const struct distributed *d = analysis_distributed(run);
	if (trace_runs_mixed(run, buf, n) || ranks_lacking(run, compute, "compute phase", buf, n) ||
	    (comm && ranks_lacking(run, 1u << BUDGET_LANE_COMM, "comm phase", buf, n)) ||
	    gaps_unweighable(d, buf, n) ||   /* walls of the others' alone there */
	    analysis_ranks_flaw(run, true, buf, n) ||   /* a wall that is no duration */
	    (d && dist_means_unweighable(m, d, buf, n)))   /* walls that overflow, or the others' alone */
		return buf;
	if (d && !isfinite(d->mean_step_wall))
		return "the step walls overflow";
	return NULL;
}

const char *analysis_comm_unmeasured(struct run *run, char *buf, size_t n)
{
	if (!steps_has_phase(run->steps, "comm")) {
		const char *unmatched = trace_comm_unmatched(run);
		return unmatched ? unmatched : "no comm phase recorded";
	}
	if (ranks_lacking(run, 1u << BUDGET_LANE_COMM, "comm phase", buf, n)) /* its own phase named first */
		return buf;
	return analysis_wall_unmeasured(run, buf, n);
}
