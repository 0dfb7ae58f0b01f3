/* SPDX-License-Identifier: MIT */
/* analysis_budget.c: the efficiency budget (analysis.h §6.5): useful compute, overhead, data
 * stall, communication and other seconds that sum to wall time, per rank, per window
 * and over the whole run, with MFU when FLOPs and peak are known (the peak from the
 * GPU table of model/gpu_peaks.h when only environment.gpu names it), natively only from
 * finite positive values and never above 100% of the compute phases, else why not (which
 * value is missing or unusable, or what FLOPs at peak imply). Natively it says
 * what it leaves out: the records without any phase (no steps, not steps of 0 s) and the
 * time of the phases in none of its lines, and has none for sums that overflow. The whole
 * run's adds only the ranks that measure every line some rank measures: a phase a rank
 * does not record is not 0 s of it. Natively MFU weighs FLOPs per step over the steps, not
 * the records: a record with a phase right after one of the same step (micro-batches,
 * load_notes.c) is no step of its own. The budget's words are analysis_budget_text.c's. */
#include "model/steps/seal.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "model/gpu_peaks.h"
#include "model/numfmt.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

static const char *const budget_names[BUDGET_NLINES] = {
	"useful_compute", "compute_overhead", "data_stall", "communication", "other",
};

static const char *meta_env(const struct steps_meta *meta, const char *key)
{
	for (size_t i = 0; i < meta->nenv; i++)
		if (strcmp(meta->env_key[i], key) == 0)
			return meta->env_val[i];
	return NULL;
}

/* MFU's FLOPs per step and peak FLOP/s and where each comes from: the flags, else
 * run.json of the rank, else (the peak, not under --compat pytscope) the GPU table entry
 * for environment.gpu. A value is usable natively when a finite positive number; under
 * --compat pytscope by pytscope's rule (FLOPs not 0, a peak above 0). */
struct mfu_basis {
	double flops, peak;
	bool flops_ok, peak_ok;
	const char *flops_from, *peak_from;   /* the flag or run.json key; NULL: none */
	const char *table;                    /* the peak is this GPU table entry's */
	const char *gpu;                      /* environment.gpu, NULL: none (unsanitized) */
};

/* What keeps run.json's value v (has: a JSON number; else NaN when there but no number,
 * steps.h) from MFU natively, NULL when it is absent or usable. */
static const char *meta_value_flaw(bool has, double v)
{
	if (!has)
		return isnan(v) ? "is not a number" : NULL;
	return !isfinite(v) ? "is not a finite number" : v < 0 ? "is negative" : v == 0 ? "is 0" : NULL;
}

static void budget_flops(const struct run *run, size_t ri, struct mfu_basis *mb)
{
	const struct steps_meta *meta = steps_rank_meta(run->steps, ri);
	const struct opts *o = run->opts;
	bool compat = o && o->compat_pytscope;
	*mb = (struct mfu_basis){ .gpu = meta_env(meta, "gpu") };
	mb->flops = o && o->flops_set ? o->flops_per_step : meta->has_flops ? meta->flops_per_step : 0;
	mb->peak = o && o->peak_set ? o->peak_tflops * 1e12 : meta->has_peak ? meta->peak_flops : 0;
	mb->flops_from = o && o->flops_set ? "--flops-per-step" : meta->has_flops ? "flops_per_step" : NULL;
	mb->peak_from = o && o->peak_set ? "--peak-tflops" : meta->has_peak ? "peak_flops" : NULL;
	mb->flops_ok = compat ? mb->flops != 0 : isfinite(mb->flops) && mb->flops > 0;
	mb->peak_ok = compat ? mb->peak > 0 : isfinite(mb->peak) && mb->peak > 0;
	if (mb->peak_ok || compat || (o && o->peak_set)) /* --peak-tflops overrides */
		return;
	const struct gpu_peak *g = gpu_peak_lookup(mb->gpu);
	if (g) {
		mb->peak = g->flops;
		mb->peak_ok = true;
		mb->table = g->name;
		mb->peak_from = NULL;
	}
}

/* The peak part of mfu_missing(): flaw, what keeps run.json's (or the flag's) peak from
 * MFU; gpu, the sanitized environment.gpu the table lacks (NULL: none, or not consulted). */
static void mfu_missing_peak(const char *who, const char *flaw, const char *gpu, bool table, char *buf, size_t n)
{
	if (flaw && gpu)
		snprintf(buf, n, "%s %s and GPU '%s' is not in the peak table", who, flaw, gpu);
	else if (flaw)
		snprintf(buf, n, "%s %s", who, flaw);
	else if (gpu)
		snprintf(buf, n, "GPU '%s' is not in the peak table", gpu);
	else
		snprintf(buf, n, "no peak_flops%s", table ? " and no GPU named" : "");
}

/* Why mb gives no MFU (flops_ok or peak_ok false), into out->mfu_na: which is missing or
 * unusable and what to give (analysis.h BUDGET_NO_PEAK). */
static void mfu_missing(const struct run *run, size_t ri, const struct mfu_basis *mb, struct budget *out)
{
	const struct steps_meta *meta = steps_rank_meta(run->steps, ri);
	const struct opts *o = run->opts;
	bool peak_flag = o && o->peak_set, table = !(o && o->compat_pytscope) && !peak_flag;
	const char *ff = o && o->flops_set ? NULL : meta_value_flaw(meta->has_flops, meta->flops_per_step);
	const char *pf = peak_flag ? "is out of range" : meta_value_flaw(meta->has_peak, meta->peak_flops);
	char fpart[48] = "no flops_per_step", ppart[160], safe[160], gpu[80];
	if (ff)
		snprintf(fpart, sizeof(fpart), "flops_per_step %s", ff);
	if (table && mb->gpu) {
		text_sanitize(mb->gpu, strlen(mb->gpu), safe, sizeof(safe), 0);
		text_clip(safe, 32, gpu, sizeof(gpu), true, 0);
	}
	mfu_missing_peak(peak_flag ? "--peak-tflops" : "peak_flops", pf, table && mb->gpu ? gpu : NULL, table, ppart,
			 sizeof(ppart));
	if (!mb->flops_ok && !ff && !mb->peak_ok && !pf && !(table && mb->gpu)) /* nothing given at all */
		snprintf(out->mfu_na, sizeof(out->mfu_na), "%s", BUDGET_NO_PEAK);
	else if (!mb->flops_ok && !mb->peak_ok)
		snprintf(out->mfu_na, sizeof(out->mfu_na), "%s, and %s; give --flops-per-step and --peak-tflops", fpart,
			 ppart);
	else
		snprintf(out->mfu_na, sizeof(out->mfu_na), "%s; give --%s", mb->flops_ok ? ppart : fpart,
			 mb->flops_ok ? "peak-tflops" : "flops-per-step");
}

/* Natively, FLOPs at the peak of mb that take longer (ideal s) than the compute phases
 * record (compute s), which pytscope caps at them: why MFU is n/a, into out->mfu_na. */
static void mfu_over_peak(const struct mfu_basis *mb, double ideal, double compute, struct budget *out)
{
	char what[48], peak[64];
	double share = 100 * ideal / compute;
	if (compute > 0 && share < 1e6)
		snprintf(what, sizeof(what), "%.1f%% of the compute time", share);
	else if (compute > 0 && isfinite(share))
		snprintf(what, sizeof(what), "%.3g%% of the compute time", share);
	else /* no compute time, or more than a double holds */
		snprintf(what, sizeof(what), "more than the compute time");
	if (mb->table)
		snprintf(peak, sizeof(peak), "the GPU table's %s peak", mb->table);
	else
		snprintf(peak, sizeof(peak), "%s", mb->peak_from);
	snprintf(out->mfu_na, sizeof(out->mfu_na), "FLOPs/peak imply %s: check %s and %s", what, mb->flops_from, peak);
}

static void budget_lines(struct budget *out, const double *secs, const bool *measured);

/* The phases of the budget's compute line (budget_sum_over's grouping). */
static const char *const budget_compute[] = { "forward", "backward", "optimizer", "compute" };

/* The run records a phase of the budget's compute line. */
static bool budget_has_compute(const struct steps_model *m)
{
	for (size_t i = 0; i < ARRAY_LEN(budget_compute); i++)
		if (steps_has_phase(m, budget_compute[i]))
			return true;
	return false;
}

/* Which lines of a budget something measures (analysis.h MEASURED LINES). */
static void budget_measured(const struct steps_model *m, bool has_mfu, bool *measured)
{
	measured[BUDGET_USEFUL] = budget_has_compute(m);
	measured[BUDGET_OVERHEAD] = has_mfu;
	measured[BUDGET_DATA] = steps_has_phase(m, "data");
	measured[BUDGET_COMM] = steps_has_phase(m, "comm");
	measured[BUDGET_OTHER] = steps_has_phase(m, "other");
}

/* The present values of column `metric` of r at positions [a, b) appended to out, a
 * whole column without missing values in one loop; returns how many. *wild is set when
 * one is not finite or 2^900 or more in magnitude. */
static size_t column_values(const struct rank_steps *r, int metric, size_t a, size_t b, double *out, bool *wild)
{
	const struct column *c = metric >= 0 && (size_t)metric < r->ncol ? &r->col[metric] : NULL;
	size_t n = 0;
	if (c && c->enc != ENC_RLE && c->all_present && b <= c->cap) {
		n = b - a;
		analysis_column_decode(c, a, out, n);
	} else {
		struct col_cursor k;
		col_cursor_init(&k, r, metric);
		for (size_t i = a; i < b; i++)
			n += col_cursor_get(&k, i, &out[n]);
	}
	if (c && c->enc != ENC_NANO)
		for (size_t i = 0; i < n; i++)
			*wild |= !(fabs(out[i]) < 0x1p900);
	return n;
}

/* Lane l gets a column with count values (budget_sums: has, lane_n). */
static void lane_count(struct budget_sums *s, int l, size_t count)
{
	if (l < 0 || !count)
		return;
	s->has |= 1u << l;
	if (count > s->lane_n[l])
		s->lane_n[l] = count;
}

/* The budget's phases: 0-3 sum into compute, then data, comm and other (a phase_flaw's
 * index, analysis.h). */
static const char *const names[PHASE_FLAW_NPHASES] = { "forward", "backward", "optimizer", "compute", "data",
						       "comm", "other" };
#define PHASE_COMM 5
static const unsigned char flaw_order[PHASE_FLAW_NPHASES] = { 4, 0, 1, 2, 3, 5, 6 };

/* Column c (of a rank of n records) may hold a value that is not a duration: a NANO
 * column holds whole nanoseconds, never one (a slot without a value may read as one:
 * first_flaw() reads only the values). */
static bool column_may_flaw(const struct column *c, size_t n)
{
	if (!c || c->enc == ENC_NANO || (c->cap == 0 && c->enc != ENC_RLE))
		return false;
	size_t len = c->enc == ENC_RLE ? c->nruns : c->cap < n ? c->cap : n;
	bool flaw = false;
	for (size_t i = 0; i < len && !flaw; i++) {
		double v = c->enc == ENC_RLE ? c->run_val[i] : store_col_raw(c, i);
		flaw = !(v >= 0 && v < INFINITY);
	}
	return flaw;
}

/* The first value that is not a duration of the phases of mask (bit k: names[k], id[k]
 * its metric id) among rank ri's records [a, b) (only steps in [lo, hi] when window),
 * in record order and in pytscope's phase order within a record (data, forward, ...,
 * comm, other: flaw_order), into *f. */
static void first_flaw(const struct steps_model *m, size_t ri, const int *id, unsigned mask, size_t a, size_t b,
		       long lo, long hi, bool window, struct phase_flaw *f)
{
	const struct rank_steps *r = m->rank[ri];
	struct col_cursor k[PHASE_FLAW_NPHASES];
	bool may = false;
	*f = (struct phase_flaw){ .found = false };
	for (size_t p = 0; p < PHASE_FLAW_NPHASES; p++) {
		col_cursor_init(&k[p], r, id[p]);
		may = may || (mask >> p & 1 && column_may_flaw(k[p].c, r->n));
	}
	for (size_t i = a; i < b && may && !f->found; i++) {
		long s = steps_step(m, ri, i);
		if (window && (s < lo || s > hi))
			continue;
		for (size_t j = 0; j < PHASE_FLAW_NPHASES && !f->found; j++) {
			size_t p = flaw_order[j];
			double v;
			if (mask >> p & 1 && col_cursor_get(&k[p], i, &v) && !(v >= 0 && v < INFINITY))
				*f = (struct phase_flaw){ .found = true, .phase = (unsigned char)p, .step = s,
							  .value = v };
		}
	}
}

/* Phase sums over the positions [a, b) of rank ri (only steps in [lo, hi) when window),
 * exactly rounded (stats_fsum, math.fsum), and the first compute and comm values that
 * are not durations. The exact sum does not depend on the order of the values, so each
 * column's are gathered whole; only an overflow on the way (values near DBL_MAX) would,
 * and then the four compute phases are gathered again in record order, the order the
 * sum meets them in. */
static void budget_sum_over(struct run *run, size_t ri, size_t a, size_t b, long lo, long hi,
			    bool window, struct budget_sums *out)
{
	const struct steps_model *m = run->steps;
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	int id[ARRAY_LEN(names)];
	struct col_cursor k[ARRAY_LEN(names)];
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		id[i] = steps_metric_find(m, METRIC_PHASE, names[i]);
		col_cursor_init(&k[i], r, id[i]);
	}
	size_t len = b > a ? b - a : 0;
	double *vc = xmalloc((7 * len + 1) * sizeof(*vc));
	double *vd = vc + 4 * len, *vm = vd + len, *vo = vm + len;
	size_t n = 0, nc = 0, nd = 0, nm = 0, no = 0, cnt[ARRAY_LEN(names)] = { 0 };
	bool wild = false;
	if (!window) {
		n = len;
		for (size_t c = 0; c < 4; c++) {
			cnt[c] = column_values(r, id[c], a, b, vc + nc, &wild);
			nc += cnt[c];
		}
		nd = cnt[4] = column_values(r, id[4], a, b, vd, &wild);
		nm = cnt[5] = column_values(r, id[5], a, b, vm, &wild);
		no = cnt[6] = column_values(r, id[6], a, b, vo, &wild);
	}
	if (wild) { /* record order: the order the compute sum meets its values in */
		nc = 0;
		for (size_t i = a; i < b; i++)
			for (size_t c = 0; c < 4; c++)
				nc += col_cursor_get(&k[c], i, &vc[nc]);
	}
	for (size_t i = a; i < b && window; i++) {
		long s = steps_step(m, ri, i);
		if (s < lo || s > hi)
			continue;
		n++;
		for (size_t c = 0; c < 4; c++) {
			size_t got = col_cursor_get(&k[c], i, &vc[nc]);
			nc += got;
			cnt[c] += got;
		}
		nd += col_cursor_get(&k[4], i, &vd[nd]);
		nm += col_cursor_get(&k[5], i, &vm[nm]);
		no += col_cursor_get(&k[6], i, &vo[no]);
	}
	if (window) {
		cnt[4] = nd;
		cnt[5] = nm;
		cnt[6] = no;
	}
	*out = (struct budget_sums){ .n = n, .compute = stats_fsum(vc, nc), .data = stats_fsum(vd, nd),
				     .comm = stats_fsum(vm, nm), .other = stats_fsum(vo, no) };
	static const int lane[ARRAY_LEN(names)] = { BUDGET_LANE_COMPUTE, BUDGET_LANE_COMPUTE, BUDGET_LANE_COMPUTE,
						    BUDGET_LANE_COMPUTE, BUDGET_LANE_DATA, BUDGET_LANE_COMM,
						    BUDGET_LANE_OTHER };
	for (size_t c = 0; c < ARRAY_LEN(names); c++)
		lane_count(out, lane[c], cnt[c]);
	free(vc);
	unsigned all = (1u << PHASE_FLAW_NPHASES) - 1, comm = 1u << PHASE_COMM;
	first_flaw(m, ri, id, all & ~comm, a, b, lo, hi, window, &out->flaw_compute);
	first_flaw(m, ri, id, comm, a, b, lo, hi, window, &out->flaw_comm);
}

/* The flaw of s the native budget is n/a for (the earlier of its compute and comm ones),
 * NULL: none. */
static const struct phase_flaw *sums_flaw(const struct budget_sums *s)
{
	const struct phase_flaw *c = &s->flaw_compute, *k = &s->flaw_comm;
	if (c->found && k->found)
		return k->step < c->step ? k : c;
	return c->found ? c : k->found ? k : NULL;
}

/* "a negative phase value: data at step 12 on rank 0" (timing_why_na's words). */
static void flaw_text(const struct phase_flaw *f, int rank, char *buf, size_t n)
{
	analysis_flaw_text(f->value, names[f->phase], f->step, rank, buf, n);
}

/* A phase column of a rank as budget_left_out() reads it. */
struct left_phase {
	struct col_cursor k;
	struct stats_sum sum;
	int metric;
	bool foreign;             /* in no budget line */
};

/* Natively, what the budget of rank ri's records [a, b) (only steps in [lo, hi] when
 * window) leaves out, into s: the records without any phase (not steps: analysis.h
 * STEPS TIMED), those with a phase right after one with a phase of the same step (a
 * micro-batch, as load_notes.c tells them: no step of its own) and the seconds of the
 * phases in no line. Reads no record when a phase has a value in every one, the rank has
 * no phase outside the lines and no step number twice. */
static void budget_left_out(const struct steps_model *m, size_t ri, size_t a, size_t b, long lo, long hi,
			    bool window, struct budget_sums *s)
{
	const struct rank_steps *r = m->rank[ri];
	int *ids = xmalloc((steps_nmetrics(m) + 1) * sizeof(*ids));
	size_t np = analysis_phase_ids(m, ids);
	struct left_phase *ph = xmalloc((np ? np : 1) * sizeof(*ph));
	bool every = false, any_foreign = false, twice = steps_nrecords(m, ri) > steps_ndistinct(m, ri);
	for (size_t p = 0; p < np; p++) {
		col_cursor_init(&ph[p].k, r, ids[p]);
		stats_sum_init(&ph[p].sum);
		ph[p].metric = ids[p];
		ph[p].foreign = ph[p].k.c && analysis_phase_order(steps_metric(m, ids[p])->name) < 0;
		every |= ph[p].k.c && ph[p].k.c->count == r->n;
		any_foreign |= ph[p].foreign;
	}
	bool prev_phased = false; /* record i - 1 is read and has a phase */
	long prev_step = 0;
	for (size_t i = a; i < b && (any_foreign || !every || twice); i++) {
		long step = steps_step(m, ri, i);
		if (window && (step < lo || step > hi)) {
			prev_phased = false;
			continue;
		}
		bool phased = every;
		for (size_t p = 0; p < np; p++) {
			double v;
			if ((ph[p].foreign || !phased) && col_cursor_get(&ph[p].k, i, &v)) {
				phased = true;
				if (ph[p].foreign)
					stats_sum_add(&ph[p].sum, v);
			}
		}
		s->unphased += !phased;
		s->again += phased && prev_phased && step == prev_step;
		prev_phased = phased;
		prev_step = step;
	}
	double top = 0;
	for (size_t p = 0; p < np; p++) {
		double v = ph[p].foreign ? stats_sum_result(&ph[p].sum) : 0.0;
		if (!(v > 0))
			continue;
		s->foreign_more |= s->foreign > 0;
		s->foreign += v;
		if (v > top) {
			top = v;
			s->foreign_metric = ph[p].metric;
		}
	}
	free(ph);
	free(ids);
}

/* The budget of rank ri from its phase sums; false: no record or no wall time. */
static bool budget_of_sums(struct run *run, size_t ri, const struct budget_sums *s, struct budget *out)
{
	memset(out, 0, sizeof(*out));
	if (s->n == 0)
		return false;
	const struct opts *o = run->opts;
	if (!(o && o->compat_pytscope) && sums_flaw(s)) /* no verdict on a value that is no duration */
		return false;
	double compute = s->compute, data = s->data, comm = s->comm, other = s->other;
	double wall = compute + data + comm + other;
	if (!(wall > 0) || (!(o && o->compat_pytscope) && !isfinite(wall))) /* natively: no inf, no NaN shares */
		return false;
	double useful = compute;
	struct mfu_basis mb;
	budget_flops(run, ri, &mb);
	out->n = s->n - s->unphased;
	out->steps = out->n - s->again; /* again: natively only, as unphased */
	out->unphased = s->unphased;
	out->foreign = s->foreign;
	out->foreign_metric = s->foreign_metric;
	out->foreign_more = s->foreign_more;
	out->wall = wall;
	out->compute_measured = compute;
	/* MFU weighs the compute phases: a run without one has no MFU, not 0% (pytscope,
	 * and so --compat pytscope, shows the 0%) */
	bool compat = o && o->compat_pytscope, weighable = compat || budget_has_compute(run->steps);
	double ideal = mb.flops_ok && mb.peak_ok ? mb.flops * (double)out->steps / mb.peak : 0;
	if (!weighable)
		snprintf(out->mfu_na, sizeof(out->mfu_na), "no compute phase is recorded");
	else if (!mb.flops_ok || !mb.peak_ok)
		mfu_missing(run, ri, &mb, out);
	else if (!compat && !(ideal <= compute)) /* natively no MFU above 100%: pytscope caps it */
		mfu_over_peak(&mb, ideal, compute, out);
	else {
		useful = ideal < compute ? ideal : compute;
		out->has_mfu = true;
		out->mfu = useful / wall;
		out->peak_table = mb.table;
	}
	double secs[BUDGET_NLINES] = { useful, compute - useful, data, comm, other };
	bool measured[BUDGET_NLINES];
	budget_measured(run->steps, out->has_mfu, measured);
	/* a line the run records but this rank's records do not: n/a for the rank, not 0 */
	static const int lane[BUDGET_NLINES] = { BUDGET_LANE_COMPUTE, BUDGET_LANE_COMPUTE, BUDGET_LANE_DATA,
						 BUDGET_LANE_COMM, BUDGET_LANE_OTHER };
	for (int i = 0; i < BUDGET_NLINES; i++)
		measured[i] = measured[i] && (s->has >> lane[i] & 1);
	budget_lines(out, secs, measured);
	return true;
}

void analysis_budget_sums(struct run *run, size_t ri, struct budget_sums *out)
{
	budget_sum_over(run, ri, 0, steps_nrecords(run->steps, ri), 0, 0, false, out);
}

/* The budget line of phase `name` (budget_sum_over's grouping), -1 for none. */
static int budget_line_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(budget_compute); i++)
		if (strcmp(name, budget_compute[i]) == 0)
			return BUDGET_LANE_COMPUTE;
	return strcmp(name, "data") == 0 ? BUDGET_LANE_DATA : strcmp(name, "other") == 0 ? BUDGET_LANE_OTHER : -1;
}

/* The lanes' sum of line l, or false when they cannot decide it; 0 for a line without
 * a column (stats_fsum of nothing). */
static bool lane_sum(struct budget_lanes *bl, const bool *has, int l, double *out)
{
	if (!has[l]) {
		*out = 0.0;
		return true;
	}
	return stats_lanes_sum(&bl->lane[l], out);
}

void analysis_budget_plan(const struct steps_model *m, const struct phase_sets *ps, struct budget_plan *bp)
{
	memset(bp, 0, sizeof(*bp));
	bp->line = xmalloc((ps->ncompute + 1) * sizeof(*bp->line));
	for (size_t i = 0; i < ps->ncompute; i++) {
		bp->line[i] = budget_line_of(steps_metric(m, ps->compute[i])->name);
		if (bp->line[i] >= 0)
			bp->has[bp->line[i]] = true;
	}
	bp->has[BUDGET_LANE_COMM] = ps->comm >= 0;
}

void analysis_budget_plan_free(struct budget_plan *bp)
{
	free(bp->line);
	bp->line = NULL;
}

/* Records that are exactly the aligned steps (position k = aligned step k): the blocks
 * of rank_compute over the records are the ones over the aligned steps, and every
 * record's phases go into the sums. */
bool analysis_rank_compute_sums(struct run *run, const struct phase_sets *ps, const struct budget_plan *bp,
				size_t ri, double *out, double *comm, struct budget_sums *sums)
{
	const struct steps_model *m = run->steps;
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	size_t S = steps_naligned(m);
	if (!m->aligned_contiguous || !r->contiguous || r->step0 != m->aligned_lo || r->n != S) {
		analysis_rank_compute(m, ps, ri, 0, S, out, comm);
		return false;
	}
	struct budget_lanes bl; /* ~10 KB: on the stack, not a malloc and free a rank */
	analysis_lanes_init(bp, &bl);
	analysis_records_compute_lanes(m, ps, ri, out, comm, &bl);
	return analysis_lanes_sums(bp, &bl, ps, r, sums);
}

void analysis_lanes_init(const struct budget_plan *bp, struct budget_lanes *bl)
{
	bl->line = bp->line;
	bl->comm = bp->has[BUDGET_LANE_COMM];
	bl->flaw = false;
	for (size_t l = 0; l < BUDGET_NLANES; l++)
		stats_lanes_init(&bl->lane[l]);
}

/* The lanes that loaded rank r has a value of among all its records (a column of one of
 * the lane's phases with a value present), and how many records each has, into s. */
static void rank_lanes_present(const struct budget_plan *bp, const struct phase_sets *ps,
			       const struct rank_steps *r, struct budget_sums *s)
{
	for (size_t i = 0; i < ps->ncompute; i++) {
		int id = ps->compute[i];
		if ((size_t)id < r->ncol)
			lane_count(s, bp->line[i], r->col[id].count);
	}
	if (ps->comm >= 0 && (size_t)ps->comm < r->ncol)
		lane_count(s, BUDGET_LANE_COMM, r->col[ps->comm].count);
}

bool analysis_lanes_sums(const struct budget_plan *bp, struct budget_lanes *bl, const struct phase_sets *ps,
			 const struct rank_steps *r, struct budget_sums *sums)
{
	*sums = (struct budget_sums){ .n = r->n };
	rank_lanes_present(bp, ps, r, sums);
	return !bl->flaw && lane_sum(bl, bp->has, BUDGET_LANE_COMPUTE, &sums->compute) &&
	       lane_sum(bl, bp->has, BUDGET_LANE_DATA, &sums->data) &&
	       lane_sum(bl, bp->has, BUDGET_LANE_COMM, &sums->comm) &&
	       lane_sum(bl, bp->has, BUDGET_LANE_OTHER, &sums->other);
}

/* Fill the lines, fractions, what is measured and the recoverable order from the line
 * seconds. */
static void budget_lines(struct budget *out, const double *secs, const bool *measured)
{
	double wall = out->wall;
	out->useful = secs[BUDGET_USEFUL];
	out->overhead = secs[BUDGET_OVERHEAD];
	out->efficiency = out->useful / wall;
	out->judged = measured[BUDGET_USEFUL] && (out->has_mfu || measured[BUDGET_DATA] || measured[BUDGET_COMM] ||
						  measured[BUDGET_OTHER]);
	out->nrecoverable = 0;
	for (int i = 0; i < BUDGET_NLINES; i++) {
		out->line[i] = (struct budget_line){ .name = budget_names[i], .seconds = secs[i],
						     .fraction = secs[i] / wall, .recoverable = i != BUDGET_USEFUL,
						     .measured = measured[i] };
		if (i == BUDGET_USEFUL || secs[i] <= 0)
			continue;
		size_t j = out->nrecoverable++; /* insertion keeps ties in line order */
		while (j > 0 && out->line[out->recoverable[j - 1]].seconds < secs[i]) {
			out->recoverable[j] = out->recoverable[j - 1];
			j--;
		}
		out->recoverable[j] = i;
	}
}

/* The model records a phase in no budget line. */
static bool model_has_foreign(const struct steps_model *m)
{
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && analysis_phase_order(d->name) < 0)
			return true;
	}
	return false;
}

/* Sums kept of all of rank ri's records (s) leave nothing out that the native budget
 * would name: under --compat pytscope, or the model has no phase outside the lines, the
 * rank no step number twice (no micro-batch) and a line's phase has a value in every
 * record (its lane count). */
static bool kept_complete(const struct run *run, size_t ri, const struct budget_sums *s)
{
	if (run->opts && run->opts->compat_pytscope)
		return true;
	if (model_has_foreign(run->steps) || steps_nrecords(run->steps, ri) > steps_ndistinct(run->steps, ri))
		return false;
	for (size_t l = 0; l < BUDGET_NLANES; l++)
		if (s->lane_n[l] == s->n)
			return true;
	return false;
}

/* Rank ri's sums over its records [w, n) (only steps in [lo, hi] when window), with what
 * the native budget leaves out. */
static void budget_sums_native(struct run *run, size_t ri, size_t w, size_t n, long lo, long hi, bool window,
			       struct budget_sums *sums)
{
	budget_sum_over(run, ri, w, n, lo, hi, window, sums);
	if (!(run->opts && run->opts->compat_pytscope))
		budget_left_out(run->steps, ri, w, n, lo, hi, window, sums);
}

const struct budget *analysis_budget(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (!rc)
		return NULL;
	if (!rc->budget_done) {
		struct budget b;
		struct budget_sums sums;
		const struct budget_sums *kept = analysis_cache_of(run)->bsum;
		size_t n = steps_nrecords(run->steps, ri), w = analysis_warmup_start(run, n);
		if (kept && w == 0 && kept[ri].n == n && kept_complete(run, ri, &kept[ri])) /* no body read */
			sums = kept[ri];
		else
			budget_sums_native(run, ri, w, n, 0, 0, false, &sums);
		if (budget_of_sums(run, ri, &sums, &b)) {
			rc->budget = xmalloc(sizeof(*rc->budget));
			*rc->budget = b;
		} else if (sums_flaw(&sums)) { /* the cause (--compat: a NaN or infinite wall) */
			rc->budget_flaw = *sums_flaw(&sums);
		} else {
			rc->budget_overflow = isinf(sums.compute + sums.data + sums.comm + sums.other);
		}
		rc->budget_done = true;
	}
	return rc->budget;
}

/* What rank budget b leaves out added to the run's (all): the phase named is the one of
 * the rank that leaves out the most time (*top), "and others" when the ranks' differ. */
static void all_left_out(struct budget *all, const struct budget *b, double *top)
{
	all->unphased += b->unphased;
	if (!(b->foreign > 0))
		return;
	all->foreign_more |= b->foreign_more || (all->foreign > 0 && all->foreign_metric != b->foreign_metric);
	all->foreign += b->foreign;
	if (b->foreign > *top) {
		*top = b->foreign;
		all->foreign_metric = b->foreign_metric;
	}
}

/* Which lines any rank's budget measures, into measured; false when a rank has no budget
 * for a phase value that is not a duration (then the run has none either). */
static bool budget_all_lines(struct run *run, bool *measured)
{
	for (size_t r = 0; r < steps_nranks(run->steps); r++) {
		const struct budget *b = analysis_budget(run, r);
		const struct rank_cache *rc = analysis_rank_cache(run, r);
		if (!b && (rc->budget_flaw.found || rc->budget_overflow)) /* not the others' as the run's */
			return false;
		for (int i = 0; b && i < BUDGET_NLINES; i++)
			measured[i] |= b->line[i].measured;
	}
	return true;
}

/* Rank budget b measures every line of measured: a line it does not record is not 0 s. */
static bool budget_measures_all(const struct budget *b, const bool *measured)
{
	for (int i = 0; i < BUDGET_NLINES; i++)
		if (measured[i] && !b->line[i].measured)
			return false;
	return true;
}

static struct budget *budget_all(struct run *run)
{
	struct budget *all = NULL;
	double top = 0;
	double secs[BUDGET_NLINES] = { 0 };
	bool measured[BUDGET_NLINES] = { false };
	if (!budget_all_lines(run, measured))
		return NULL;
	for (size_t r = 0; r < steps_nranks(run->steps); r++) {
		const struct budget *b = analysis_budget(run, r);
		if (!b || !budget_measures_all(b, measured))
			continue;
		if (!all)
			all = xcalloc(1, sizeof(*all));
		all->nranks++;
		all->n += b->n;
		all->steps += b->steps;
		all_left_out(all, b, &top);
		all->wall += b->wall;
		all->compute_measured += b->compute_measured;
		all->has_mfu |= b->has_mfu;
		if (!all->mfu_na[0])
			memcpy(all->mfu_na, b->mfu_na, sizeof(all->mfu_na));
		if (b->peak_table && !all->peak_table)
			all->peak_table = b->peak_table;
		for (int i = 0; i < BUDGET_NLINES; i++)
			secs[i] += b->line[i].seconds;
	}
	if (all) {
		budget_lines(all, secs, measured);
		all->mfu = all->has_mfu ? all->useful / all->wall : 0;
	}
	return all;
}

const struct budget *analysis_budget_all(struct run *run)
{
	struct analysis_cache *c = analysis_cache_of(run);
	if (!c)
		return NULL;
	if (!c->budget_all_done) {
		c->budget_all = budget_all(run);
		c->budget_all_done = true;
	}
	return c->budget_all;
}

bool analysis_budget_window(struct run *run, size_t ri, long lo, long hi, struct budget *out)
{
	if (!run || !run->steps || ri >= steps_nranks(run->steps))
		return false;
	struct budget_sums sums;
	size_t n = steps_nrecords(run->steps, ri);
	budget_sums_native(run, ri, analysis_warmup_start(run, n), n, lo, hi, true, &sums);
	return budget_of_sums(run, ri, &sums, out);
}

const char *analysis_budget_why_none(struct run *run, size_t ri, char *buf, size_t n)
{
	const struct rank_cache *rc = analysis_budget(run, ri) ? NULL : analysis_rank_cache(run, ri);
	if (rc && rc->budget_overflow) /* timing_why_na's words */
		snprintf(buf, n, "the phase totals overflow on rank %d", steps_rank_id(run->steps, ri));
	else if (rc && rc->budget_flaw.found)
		flaw_text(&rc->budget_flaw, steps_rank_id(run->steps, ri), buf, n);
	return rc && (rc->budget_overflow || rc->budget_flaw.found) ? buf : NULL;
}

size_t analysis_budget_first(const struct run *run, size_t ri)
{
	return analysis_warmup_start(run, steps_nrecords(run->steps, ri));
}

/* Rank ri's flaws over all its records (compute's, comm's): the kept sums' when they
 * are its records', else from its records; memoized. */
static const struct phase_flaw *rank_flaws(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (rc->flaws_done)
		return rc->flaw;
	const struct steps_model *m = run->steps;
	const struct budget_sums *kept = analysis_cache_of(run)->bsum;
	size_t n = steps_nrecords(m, ri);
	if (kept && kept[ri].n == n) {
		rc->flaw[0] = kept[ri].flaw_compute;
		rc->flaw[1] = kept[ri].flaw_comm;
	} else {
		int id[PHASE_FLAW_NPHASES];
		for (size_t i = 0; i < PHASE_FLAW_NPHASES; i++)
			id[i] = steps_metric_find(m, METRIC_PHASE, names[i]);
		rank_need_body(m->rank[ri]);
		unsigned comm = 1u << PHASE_COMM;
		first_flaw(m, ri, id, ((1u << PHASE_FLAW_NPHASES) - 1) & ~comm, 0, n, 0, 0, false, &rc->flaw[0]);
		first_flaw(m, ri, id, comm, 0, n, 0, 0, false, &rc->flaw[1]);
	}
	rc->flaws_done = true;
	return rc->flaw;
}

bool analysis_ranks_flaw(struct run *run, bool with_comm, const bool *use, char *buf, size_t n)
{
	for (size_t r = 0; run->steps && r < steps_nranks(run->steps); r++) {
		if (use && !use[r])
			continue;
		const struct phase_flaw *f = rank_flaws(run, r);
		f = f[0].found ? &f[0] : with_comm && f[1].found ? &f[1] : NULL;
		if (f) {
			snprintf(buf, n, "rank %d records %s %s phase value at step %ld", steps_rank_id(run->steps, r),
				 isnan(f->value) ? "a NaN" : isinf(f->value) ? "an infinite" : "a negative",
				 names[f->phase], f->step);
			return true;
		}
	}
	return false;
}
