/* SPDX-License-Identifier: MIT */
/* analysis_weighable.c: why the ranks' compute cannot be weighed against each other
 * (phases compute leaves out, fwd, bwd, with 5% or more of a rank's phase time:
 * analysis_phases_outside; a rank
 * without a compute phase, a phase one rank never records while another does, aligned
 * steps without compute, a phase value that is not a duration, compute sums that
 * overflow or are 0 on one rank only, the ProfilerSteps of traces of two runs; compare
 * mode's test weighs the ranks both runs have records of only), which ranks
 * have a compute of their own then (analysis_ranks_own_compute), and why the
 * step walls or their comm share are not measured on every rank (a rank without the phases
 * or with compute 0, or that much time compute leaves out: n/a, not the others' figures
 * nor walls short of that time; walls that overflow), and the phases a
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

/* rank_compute_lanes() of every rank into has[N] and most[N]; the lanes some rank
 * of use (per rank index, NULL: every rank) records on most of its records. */
static unsigned ranks_compute_lanes(struct run *run, const bool *use, unsigned *has, unsigned *most)
{
	unsigned often = 0;
	int *lane = lane_map_new(run->steps);
	for (size_t r = 0; r < steps_nranks(run->steps); r++) {
		rank_compute_lanes(run, lane, r, &has[r], &most[r]);
		often |= !use || use[r] ? most[r] : 0;
	}
	free(lane);
	return often;
}

bool *analysis_ranks_own_compute(struct run *run)
{
	size_t N = steps_nranks(run->steps);
	bool *own = xmalloc(N ? N : 1);
	const char *why = analysis_distributed(run) ? analysis_compute_unweighable(run) : "";
	if (!why || why == analysis_compute_zero) { /* weighed: no rank lacks a lane (lanes_unweighable) */
		memset(own, true, N);
		return own;
	}
	unsigned *has = xmalloc(2 * (N ? N : 1) * sizeof(*has)), *most = has + N;
	unsigned need = ranks_compute_lanes(run, NULL, has, most) & 1u << BUDGET_LANE_COMPUTE;
	for (size_t r = 0; r < N; r++)
		own[r] = has[r] && (has[r] & need) == need;
	free(has);
	return own;
}

/* Why the ranks' compute sums measure different things into buf (false: they do not): a
 * rank without a compute phase, or one that never records a compute phase another rank
 * records on most of its records; of the ranks of use only (per rank index, NULL: every
 * rank). */
static bool lanes_unweighable(struct run *run, const bool *use, char *buf, size_t n)
{
	static const char *const lane_name[BUDGET_NLANES] = {
		[BUDGET_LANE_COMPUTE] = "forward, backward, optimizer or compute", [BUDGET_LANE_DATA] = "data",
		[BUDGET_LANE_OTHER] = "other" };
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m);
	/* a lane one rank never records while another does on most of its records: the two
	 * compute sums measure different things (one that records it now and then, e.g. a
	 * checkpoint in other, spends that time for real) */
	unsigned *has = xmalloc(2 * (N ? N : 1) * sizeof(*has)), *most = has + N;
	unsigned often = ranks_compute_lanes(run, use, has, most);
	buf[0] = '\0';
	for (size_t r = 0; r < N && !buf[0]; r++) {
		if (use && !use[r])
			continue;
		int id = steps_rank_id(m, r);
		unsigned lack = often & ~has[r];
		if (!has[r]) {
			snprintf(buf, n, "rank %d records no compute phase", id);
			continue;
		}
		for (size_t o = 0; lack && o < N; o++) {
			unsigned l = (unsigned)__builtin_ctz(lack);
			if ((!use || use[o]) && most[o] >> l & 1) {
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

/* Rank ri records a value > 0 of metric (its column read up to the first). */
static bool rank_has_time(const struct steps_model *m, size_t ri, int metric)
{
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	struct col_cursor k;
	col_cursor_init(&k, r, metric);
	double v;
	for (size_t i = 0; k.c && k.c->count && i < r->n; i++)
		if (col_cursor_get(&k, i, &v) && v > 0)
			return true;
	return false;
}

/* Phases analysis_phases_outside() names before "and N more" (as compare mode's), and the
 * room kept for that tail. */
#define OUTSIDE_NAMED 3
#define OUTSIDE_TAIL 20

size_t analysis_phases_outside(struct run *run, size_t ri, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	size_t k = 0, named = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *md = steps_metric(m, (int)i);
		if (md->kind != METRIC_PHASE || analysis_phase_order(md->name) >= 0 || !rank_has_time(m, ri, (int)i))
			continue;
		k++;
		char safe[128], clip[96];
		text_sanitize(md->name, strlen(md->name), safe, sizeof(safe), 0);
		text_clip(safe, 20, clip, sizeof(clip), true, 0);
		if (named == OUTSIDE_NAMED || strlen(buf) + strlen(clip) + 2 + OUTSIDE_TAIL >= n)
			continue; /* whole names only: never a cut UTF-8 sequence */
		text_appendf(buf, n, "%s%s", named++ ? ", " : "", clip);
	}
	if (k > named)
		text_appendf(buf, n, " and %zu more", k - named);
	return k;
}

/* The sum of rank ri's values > 0 of the phases ids[0..nids), read column by column until
 * it exceeds limit. */
static double rank_phase_sum(const struct steps_model *m, size_t ri, const int *ids, size_t nids, double limit)
{
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	double sum = 0, v;
	for (size_t p = 0; p < nids && !(sum > limit); p++) {
		struct col_cursor k;
		col_cursor_init(&k, r, ids[p]);
		for (size_t i = 0; k.c && k.c->count && i < r->n; i++)
			if (col_cursor_get(&k, i, &v) && v > 0)
				sum += v;
	}
	return sum;
}

/* The share of rank ri's phase time its phases outside compute (sum outside > 0) carry,
 * or 0 when it is below ANALYSIS_OUTSIDE_BAR: its other phases' time (ids[0..nin)) from
 * the sums the index summary kept, else read until it decides the bar. */
static double rank_outside_share(struct run *run, size_t ri, const int *in, size_t nin, double outside)
{
	const struct budget_sums *kept = analysis_cache_of(run)->bsum;
	double rest;
	if (kept && kept[ri].n == steps_nrecords(run->steps, ri))
		rest = kept[ri].compute + kept[ri].data + kept[ri].comm + kept[ri].other;
	else /* past outside * (1 - bar) / bar the share is below the bar: no more to read */
		rest = rank_phase_sum(run->steps, ri, in, nin,
				      outside * (1 - ANALYSIS_OUTSIDE_BAR) / ANALYSIS_OUTSIDE_BAR);
	double share = outside / (outside + rest);
	return share >= ANALYSIS_OUTSIDE_BAR ? share : 0;
}

/* Why the phases compute leaves out keep the ranks from being weighed into buf: the first
 * rank where they carry ANALYSIS_OUTSIDE_BAR of the phase time ("compute leaves out
 * phases fwd, bwd, opt: 82% of rank 0's phase time"); "" when none does. Reads no rank
 * when the run has no such phase, and only their columns of a rank without their time. */
static void outside_reason(struct run *run, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	size_t nm = steps_nmetrics(m) + 1;
	int *ids = xmalloc(2 * nm * sizeof(*ids)), *all = ids + nm; /* ids: the outside phases, then the others */
	size_t np = analysis_phase_ids(m, all), nout = 0, nin = 0;
	for (size_t p = 0; p < np; p++)
		nout += analysis_phase_order(steps_metric(m, all[p])->name) < 0;
	for (size_t p = 0, o = 0; p < np; p++) {
		bool out = analysis_phase_order(steps_metric(m, all[p])->name) < 0;
		ids[out ? o++ : nout + nin++] = all[p];
	}
	buf[0] = '\0';
	for (size_t r = 0; nout && r < steps_nranks(m) && !buf[0]; r++) {
		double outside = rank_phase_sum(m, r, ids, nout, INFINITY);
		double share = outside > 0 ? rank_outside_share(run, r, ids + nout, nin, outside) : 0;
		if (!(share > 0))
			continue;
		static const double bars[] = { ANALYSIS_OUTSIDE_BAR, 1.0 };
		char names[64], pct[32]; /* with the words, within the cache's 160 bytes */
		size_t k = analysis_phases_outside(run, r, names, sizeof(names));
		analysis_share_text(share, bars, ARRAY_LEN(bars), 0, pct, sizeof(pct));
		snprintf(buf, n, "compute leaves out phase%s %s: %s%% of rank %d's phase time", k > 1 ? "s" : "", names,
			 pct, steps_rank_id(m, r));
	}
	free(ids);
}

/* outside_reason() into buf, memoized: true when there is one. */
static bool outside_unweighable(struct run *run, char *buf, size_t n)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c->outside_done) {
		outside_reason(run, c->outside, sizeof(c->outside));
		c->outside_done = true;
	}
	if (c->outside[0])
		snprintf(buf, n, "%s", c->outside);
	return c->outside[0] != '\0';
}

/* Why one rank's compute cannot be weighed against the others' into buf (false: it
 * can): the ProfilerSteps of traces of two runs (trace_runs_mixed), phases compute leaves
 * out (outside_unweighable), lanes_unweighable(), aligned steps without its compute
 * (gaps_unweighable), a compute phase value that is not a duration (analysis_ranks_flaw),
 * or compute sums that overflow over the aligned steps or are 0 on one rank only
 * (means_unweighable). */
static bool rank_unweighable(struct run *run, const struct distributed *d, char *buf, size_t n)
{
	return trace_runs_mixed(run, buf, n) || outside_unweighable(run, buf, n) ||
	       lanes_unweighable(run, NULL, buf, n) || gaps_unweighable(d, buf, n) ||
	       analysis_ranks_flaw(run, false, NULL, buf, n) || dist_means_unweighable(run->steps, d, buf, n);
}

/* The ranks' mean compute (mean[N]: 0 for a rank use leaves out) and whether every value
 * read is 0 (*zero), the first rank of use with a gap reading its values at the steps
 * every rank of use has (steps_of_ranks), its record there as the native alignment takes
 * it: the grid test's reading when the run's aligned steps, over every rank, are none (a
 * rank without records leaves none). False with buf set at a gap. */
static bool steps_of_ranks_read(struct run *run, const bool *use, double *mean, bool *zero, char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	const struct native_align *na = analysis_native(run);
	size_t N = steps_nranks(m), r0 = 0, S = 0, *gaps = xcalloc(N ? N : 1, sizeof(*gaps)), pos;
	while (r0 < N && !use[r0])
		r0++;
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	for (size_t i = 0; r0 < N && i < steps_nrecords(m, r0); i++) {
		long s = steps_step(m, r0, i);
		bool all = steps_find(m, r0, s, &pos) && pos == i; /* each step number once: its last record */
		for (size_t r = r0 + 1; all && r < N; r++)
			all = !use[r] || steps_find(m, r, s, &pos);
		for (size_t r = r0; all && r < N; r++) {
			if (!use[r] || !steps_find(m, r, s, &pos))
				continue;
			analysis_native_pos(na, r, s, &pos);
			double v = analysis_record_compute(m, &ps, r, pos);
			gaps[r] += isnan(v) != 0;
			mean[r] += isnan(v) ? 0 : v;
			*zero = *zero && v == 0;
		}
		S += all;
	}
	analysis_phase_sets_free(&ps);
	*zero = *zero && S > 0;   /* no step read: no 0 either */
	bool ok = true;
	for (size_t r = 0; r < N; r++) {
		mean[r] = S ? mean[r] / (double)S : 0;
		if (ok && gaps[r])
			snprintf(buf, n, "rank %d has no compute value at %zu of the %zu steps the ranks weighed all "
				 "have", steps_rank_id(m, r), gaps[r], S);
		ok = ok && !gaps[r];
	}
	free(gaps);
	return ok;
}

/* The grid test's reading off the compute heatmap's level 0 (mean, zero as
 * steps_of_ranks_read), over the run's S aligned steps. */
static bool grid_read(struct run *run, const struct heat_grid *g, size_t S, const bool *use, double *mean, bool *zero,
		      char *buf, size_t n)
{
	const struct steps_model *m = run->steps;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		if (use && !use[r])
			continue;
		const float *row = heat_row(g, r);
		double sum = 0;
		size_t gaps = 0;   /* a NaN cell: no compute phase there, or a NaN one */
		for (size_t k = 0; k < S; k++) {
			gaps += isnan(row[k]) != 0;
			sum += row[k];
			*zero = *zero && row[k] == 0;
		}
		mean[r] = sum / (double)S;
		if (gaps) {
			snprintf(buf, n, "rank %d has no compute value at %zu of the %zu aligned steps",
				 steps_rank_id(m, r), gaps, S);
			return false;
		}
	}
	return true;
}

const char *analysis_compute_unweighable_grid(struct run *run, const bool *use, char *buf, size_t n)
{
	if (!analysis_has_compute(run->steps))
		return "no compute phase recorded";
	if (trace_runs_mixed(run, buf, n) || lanes_unweighable(run, use, buf, n) ||
	    analysis_ranks_flaw(run, false, use, buf, n))
		return buf;
	const struct steps_model *m = run->steps;
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t N = steps_nranks(m), S = steps_naligned(m), nuse = 0;
	for (size_t r = 0; r < N; r++)
		nuse += !use || use[r];
	if (!nuse)   /* no rank to weigh */
		return NULL;
	if (!use && (!g || !S))   /* no grid to read: the distributed analysis's judgement */
		return analysis_compute_unweighable(run);
	double *mean = xcalloc(N ? N : 1, sizeof(*mean));
	bool zero = true;
	bool why = g && S ? !grid_read(run, g, S, use, mean, &zero, buf, n)
			  : !steps_of_ranks_read(run, use, mean, &zero, buf, n);
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
	if (trace_runs_mixed(run, buf, n) || outside_unweighable(run, buf, n) ||   /* walls without that time */
	    ranks_lacking(run, compute, "compute phase", buf, n) ||
	    (comm && ranks_lacking(run, 1u << BUDGET_LANE_COMM, "comm phase", buf, n)) ||
	    gaps_unweighable(d, buf, n) ||   /* walls of the others' alone there */
	    analysis_ranks_flaw(run, true, NULL, buf, n) ||   /* a wall that is no duration */
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
