/* SPDX-License-Identifier: MIT */
/* rules.c: pytscope 0.2.1's finding rules over a step run (pytscope.md §7-8):
 * same ids, severities, order and text, plus machine-readable evidence; and the native
 * straggler rules (DIST.FAIL_SLOW, DIST.SLOW_RANK, DIST.TRANSIENT_STALL) over the
 * straggler verdicts of analysis.h; natively DIST.LOAD_IMBALANCE also names one step, or a
 * burst of steps waiting for the same hung rank, that alone lost 5% of the critical compute
 * to imbalance (a hang: rules_hang.c). Each rule
 * reads memoized analyzer results of the lowest rank (pytscope's "store") and the
 * distributed summary; none of them looks at files. Natively CONVERGENCE.DIVERGED says which
 * run of steps it means and calls a divergence a resume left behind recovered (medium), and
 * a figure judged against a bar keeps its side of it ("24.996%", analysis.h BARS); the
 * efficiency rules judge no rank wall that leaves out phases with a share of the phase time
 * (fwd, bwd: ANALYSIS_OUTSIDE_BAR), nor the DIST rules ranks or walls whose compute leaves
 * them out (analysis_compute_unweighable).
 * CROSS.CORRELATED_INSTABILITY lives in rules_cross.c, with what it shares with these in
 * rules.h. */
#include "model/steps/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/steps/analysis.h"
#include "model/steps/config_diff.h"
#include "model/steps/nodes.h"
#include "model/steps/rules.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"
#include "model/units.h"
#include "model/xalloc.h"

#define MB 1048576.0

bool rules_compat(const struct run *run)
{
	return run->opts && run->opts->compat_pytscope;
}

bool rules_have_steps(const struct run *run)
{
	return run->steps && steps_nranks(run->steps) > 0 && !(rules_compat(run) && trace_steps_only(run));
}

static void add(struct finding_list *out, const char *id, enum severity sev, char *title,
		char *detail, const char *fix, struct evidence ev)
{
	findings_add(out, id, sev, title, detail, fix, ev);
	free(title);
	free(detail);
}

static struct evidence ev_series(const struct run *run, const char *series)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_SERIES;
	ev.rank = steps_rank_id(run->steps, 0);
	ev.series = xstrdup(series);
	return ev;
}

struct evidence rules_ev_steps(const struct run *run, const long *steps, size_t n)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_STEPS;
	ev.rank = steps_rank_id(run->steps, 0);
	if (n) {
		ev.step_lo = steps[0];
		ev.step_hi = steps[n - 1];
		ev.steps = xmalloc(n * sizeof(*ev.steps));
		memcpy(ev.steps, steps, n * sizeof(*ev.steps));
		ev.nsteps = n;
	}
	return ev;
}

/* ---- TIMING ---------------------------------------------------------------------- */

static void rule_dataloader(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct timing *t = analysis_timing(run, 0);
	double f = timing_fraction(t, "data");
	if (!timing_has_phase(t, "data") || !(f >= BAR_DATA) || !timing_shares_judged(run, t))
		return;
	static const double bars[] = { BAR_DATA, BAR_DATA_HIGH };
	char pct[48]; /* natively on its side of the bars (analysis.h BARS): "39.996", not "40" of a medium */
	snprintf(pct, sizeof(pct), "%.0f", 100 * f);
	if (!rules_compat(run))
		analysis_share_text(f, bars, ARRAY_LEN(bars), 0, pct, sizeof(pct));
	add(out, "TIMING.DATALOADER_BOUND", f >= BAR_DATA_HIGH ? SEV_HIGH : SEV_MED,
	    xstrdup("Input pipeline is a bottleneck"),
	    xasprintf("%s%% of step time is spent fetching data (%.1f ms/step). The accelerator is "
		      "stalling on the dataloader.", pct, timing_seconds(t, "data") * 1e3),
	    "Raise DataLoader num_workers, set persistent_workers=True and pin_memory=True, prefetch, "
	    "or move heavy transforms off the hot path / onto the GPU.",
	    ev_series(run, "data"));
}

static void rule_backward(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct timing *t = analysis_timing(run, 0);
	double fwd = timing_seconds(t, "forward"), bwd = timing_seconds(t, "backward");
	if (!(fwd > 0 && bwd > 0) || !(bwd / fwd >= 2.5) || (!timing_shares_judged(run, t) && !isfinite(bwd / fwd)))
		return;
	double ratio = bwd / fwd;
	add(out, "TIMING.BACKWARD_HEAVY", ratio < 3.5 ? SEV_MED : SEV_HIGH,
	    xstrdup("Backward pass disproportionately slow"),
	    xasprintf("Backward is %.1fx forward (normal is ~2x). Often caused by retain_graph=True, "
		      "unfused elementwise ops, or activation recomputation you didn't intend.", ratio),
	    "Check for stray retain_graph/create_graph, enable AMP, and consider torch.compile to fuse "
	    "backward ops.",
	    ev_series(run, "backward"));
}

static void rule_optimizer(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct timing *t = analysis_timing(run, 0);
	double f = timing_fraction(t, "optimizer");
	if (!(f >= BAR_OPTIMIZER) || !timing_shares_judged(run, t))
		return;
	add(out, "TIMING.OPTIMIZER_HEAVY", SEV_LOW, xstrdup("Optimizer step is costly"),
	    xasprintf("%.0f%% of step time is the optimizer. For small models this can dominate; for "
		      "large ones it may signal a Python-side per-parameter loop.", 100 * f),
	    "Use a fused/foreach optimizer (foreach=True or fused=True) to batch the parameter updates.",
	    ev_series(run, "optimizer"));
}

static void rule_jitter(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct timing *t = analysis_timing(run, 0);
	if (t->n < JITTER_MIN_STEPS || !timing_shares_judged(run, t) ||
	    !(t->cv >= BAR_JITTER_CV || t->p95_p50_ratio >= BAR_JITTER_P95))
		return;
	char cv[40], ratio[40]; /* natively on their side of the bars (analysis.h BARS) */
	snprintf(cv, sizeof(cv), "%.2f", t->cv);
	snprintf(ratio, sizeof(ratio), "%.2f", t->p95_p50_ratio);
	if (!rules_compat(run)) {
		numfmt_same_side(t->cv, BAR_JITTER_CV, 2, cv, sizeof(cv));
		numfmt_same_side(t->p95_p50_ratio, BAR_JITTER_P95, 2, ratio, sizeof(ratio));
	}
	/* evidence: the steps slower than p95 */
	long *slow = xmalloc(t->n * sizeof(*slow));
	size_t ns = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->step_time[i] > t->p95)
			slow[ns++] = steps_step(run->steps, 0, timing_pos(t, i));
	struct evidence ev = rules_ev_steps(run, slow, ns);
	free(slow);
	free(ev.series);
	ev.series = xstrdup("step_time");
	add(out, "TIMING.JITTER", SEV_LOW, xstrdup("High step-time variance"),
	    xasprintf("Step time is uneven (CV=%s, p95/median=%s). Stragglers point to "
		      "input-pipeline stalls, GC pauses, logging/checkpoint hitches, or uneven batch sizes.",
		      cv, ratio),
	    "Profile a few slow steps specifically; move checkpointing and logging off the critical path.",
	    ev);
}

/* ---- CONVERGENCE ------------------------------------------------------------------ */

/* Natively the divergence says which run of steps it is in when its step was logged twice,
 * and a divergence a resume left behind, with the run that continued finite throughout
 * (struct convergence recovered), is no broken run: medium, saying so. */
static void rule_diverged(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct convergence *c = analysis_convergence(run, 0);
	if (!c->has_loss || !c->diverged)
		return;
	struct evidence ev = rules_ev_steps(run, &c->diverged_at, 1);
	ev.series = xstrdup("loss");
	if (c->recovered) {
		add(out, "CONVERGENCE.DIVERGED", SEV_MED,
		    xstrdup("Loss diverged (NaN/Inf), then recovered after a resume"),
		    xasprintf("Loss became non-finite at step %ld before the resume from step %ld back to %ld. The run "
			      "that continued from there has a finite loss through its last step (%ld): the divergence "
			      "was left behind, and the loss trend is that run's.", c->diverged_at, c->left_from,
			      c->left_to, c->loss_step[c->nloss - 1]),
		    "If it recurs: lower the learning rate, add gradient clipping, check for bad inputs / log(0) / "
		    "divide-by-zero in the loss, and verify AMP loss scaling.",
		    ev);
		return;
	}
	char run_of[96] = "";
	if (!rules_compat(run))
		rules_which_run(c->loss_step, c->nloss, c->diverged_pos, c->diverged_pos, run_of, sizeof(run_of));
	add(out, "CONVERGENCE.DIVERGED", SEV_HIGH, xstrdup("Loss diverged (NaN/Inf)"),
	    xasprintf("Loss became non-finite at step %ld%s. Training is broken from this point — later "
		      "metrics are meaningless.", c->diverged_at, run_of),
	    "Lower the learning rate, add gradient clipping, check for bad inputs / log(0) / "
	    "divide-by-zero in the loss, and verify AMP loss scaling.",
	    ev);
}

static void rule_no_progress(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct convergence *c = analysis_convergence(run, 0);
	bool worse = strcmp(c->trend, "worsening") == 0;
	if ((!worse && strcmp(c->trend, "plateau") != 0) || c->n_steps < PROGRESS_MIN_STEPS)
		return;
	add(out, "CONVERGENCE.NO_PROGRESS", worse ? SEV_HIGH : SEV_LOW,
	    xstrdup(worse ? "Loss is increasing" : "Loss has plateaued"),
	    xasprintf("Loss trend over the run is '%s' (best %.4g, final %.4g).", c->trend, c->best_loss,
		      c->final_loss),
	    "Worsening: likely LR too high or unstable optimizer. Plateau: try LR decay, more capacity, "
	    "or check the data is still informative.",
	    ev_series(run, "loss"));
}

/* ---- DIST --------------------------------------------------------------------------- */

/* The distributed analysis the DIST rules judge from: NULL natively when the ranks'
 * compute cannot be weighed (analysis_compute_unweighable: rules_unjudged.c says why),
 * pytscope's figures whatever they are under --compat. */
static const struct distributed *dist_judged(struct run *run)
{
	const struct distributed *d = analysis_distributed(run);
	return d && (rules_compat(run) || !analysis_compute_unweighable(run)) ? d : NULL;
}

static void rule_straggler(struct run *run, struct finding_list *out)
{
	const struct distributed *d = dist_judged(run);
	if (!d || d->straggler < 0)
		return;
	const struct rank_stat *rs = &d->rank[d->straggler];
	bool compat = rules_compat(run); /* natively tied steps are shared, as the report's rank lines */
	double share = compat ? rs->slowest_fraction : rs->critical_share;
	double z = compat ? rs->straggler_z : rs->critical_z;
	double lost = d->wall_frac_lost * 100;
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = rs->rank;
	ev.step_lo = rs->onset >= 0 ? rs->onset : d->step[0].step;
	ev.step_hi = rs->onset >= 0 ? rs->onset_end : d->step[d->n_steps - 1].step;
	ev.steps = xmalloc(rs->slowest_count * sizeof(*ev.steps) + 1);
	for (size_t k = 0; k < d->n_steps; k++)
		if (d->step[k].critical == (int)d->straggler)
			ev.steps[ev.nsteps++] = d->step[k].step;
	char *fix = xasprintf("Investigate rank %d's device/host: thermal throttling, a slower GPU, "
			      "NUMA/host placement, or an unbalanced data shard. Check for a hot node and "
			      "rebalance or replace it.", rs->rank);
	add(out, "DIST.STRAGGLER", lost >= 10 || rs->rel_slowdown >= 0.25 ? SEV_HIGH : SEV_MED,
	    xasprintf("Rank %d is a persistent straggler", rs->rank),
	    xasprintf("Rank %d is the slowest (critical-path) rank in %.0f%% of steps across %zu ranks "
		      "(expected %.0f%% by chance; z=%.1f), and runs %.0f%% slower than the median rank. "
		      "Synchronous all-reduce makes every other rank wait for it — %.1f%% of wall time is "
		      "lost to this imbalance.", rs->rank, share * 100, d->world_size,
		      100.0 / (double)d->world_size, z, rs->rel_slowdown * 100, lost),
	    fix, ev);
	free(fix);
}

/* ---- DIST, native (analysis.h STRAGGLERS; skipped under --compat pytscope) ---------- */

#define NATIVE_MAX_FINDINGS 8

static struct evidence ev_rank(const struct distributed *d, size_t ri, long lo, long hi)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = d->rank[ri].rank;
	ev.step_lo = lo;
	ev.step_hi = hi;
	return ev;
}

/* The last step the straggler tests judged (analysis.h JUDGED STEPS). */
static long last_step(const struct distributed *d)
{
	return d->step[(d->n_judged ? d->n_judged : d->n_steps) - 1].step;
}

/* " (N more ranks: see the ranks view's straggler column)" when findings were capped. */
static char *more_note(size_t shown, size_t total)
{
	return total > shown ? xasprintf(" %zu more rank%s of this kind: see the ranks view.", total - shown,
					 total - shown == 1 ? "" : "s")
			     : xstrdup("");
}

/* The first step a rank whose fail-slow onset is `onset` may have turned slow at: the
 * onset, or the step after the aligned step before it when the steps between are not on
 * every rank (steps_gaps_find over them; not judged): it turned slow after that step, by
 * the onset. */
static long onset_from(struct run *run, const struct distributed *d, long onset)
{
	size_t t = analysis_dist_lower(d, d->n_judged, onset);
	if (t == 0 || t >= d->n_judged || d->step[t - 1].step + 1 >= onset)
		return onset;
	struct steps_ends e;
	struct steps_gaps g;
	steps_ends(run->steps, &e);
	e.first_hi = d->step[t - 1].step + 1; /* between two aligned steps: every rank spans it */
	e.last_lo = onset - 1;
	return steps_gaps_find(run->steps, &e, &g) ? e.first_hi : onset;
}

/* DIST.SLOW_RANK's title and detail (new strings): slow over the whole run (whole), or
 * slow before a rise of its own compute (rank_stat.rise_onset) and slower from it to end. */
static char *slow_rank_title(const struct rank_stat *rs)
{
	if (rs->rise_onset < 0)
		return xasprintf("Rank %d is slower than the others throughout", rs->rank);
	return xasprintf("Rank %d is slower than the others throughout, more so from step %ld", rs->rank,
			 rs->rise_onset);
}

static char *slow_rank_detail(const struct rank_stat *rs, const char *whole, const char *end, const char *more)
{
	if (rs->rise_onset < 0)
		return xasprintf("Rank %d's compute is %.0f%% above the step median over %s (z=%.0f against its "
				 "step-to-step noise of %.1f%%). The other ranks waited %.3g s for it.%s", rs->rank,
				 rs->slow_shift * 100, whole, rs->slow_z, rs->noise * 100, rs->slow_cost, more);
	return xasprintf("Rank %d's compute is %.0f%% above the step median before step %ld (z=%.0f against its "
			 "step-to-step noise of %.1f%%) and %.0f%% from there to %s, where its own compute "
			 "rose: it was slower before that step too, so it did not turn slow there. The other "
			 "ranks waited %.3g s for it.%s", rs->rank,
			 rs->slow_shift * 100, rs->rise_onset, rs->slow_z, rs->noise * 100, rs->rise_level * 100, end,
			 rs->slow_cost, more);
}

/* The stragglers pytscope's rule does not report: fail-slow ranks (HIGH), and ranks slow
 * throughout when pytscope's exactly-one test gave none (HIGH). */
static void native_slow(struct run *run, struct finding_list *out, bool fail_slow)
{
	const struct distributed *d = dist_judged(run);
	if (!d)
		return;
	size_t total = 0, shown = 0;
	for (size_t i = 0; i < d->nstragglers; i++)
		total += analysis_slow_listed(d, (size_t)d->stragglers[i], fail_slow);
	char end[48] = "the end", whole[64] = "the whole run"; /* or the last step judged */
	if (d->n_judged && d->n_judged < d->n_steps) {
		snprintf(end, sizeof(end), "step %ld (the last judged)", last_step(d));
		snprintf(whole, sizeof(whole), "steps %ld-%ld (the steps judged)", d->step[0].step, last_step(d));
	}
	for (size_t i = 0; i < d->nstragglers && shown < NATIVE_MAX_FINDINGS; i++) {
		int ri = d->stragglers[i];
		const struct rank_stat *rs = &d->rank[ri];
		if (!analysis_slow_listed(d, (size_t)ri, fail_slow))
			continue;
		shown++;
		char *more = shown == NATIVE_MAX_FINDINGS ? more_note(shown, total) : xstrdup("");
		long from = fail_slow ? onset_from(run, d, rs->slow_onset) : rs->slow_onset;
		char at[64], unjudged[128] = "";
		snprintf(at, sizeof(at), "at step %ld", rs->slow_onset);
		if (from < rs->slow_onset) {
			snprintf(at, sizeof(at), "after step %ld, by step %ld", from - 1, rs->slow_onset);
			snprintf(unjudged, sizeof(unjudged), " The steps between %ld and %ld are not on every "
				 "rank, so not judged: it may have turned slow among them.", from - 1, rs->slow_onset);
		}
		char *fix = xasprintf("See which of rank %d's phases are above the other ranks' from step %ld on "
				      "(the heatmap's metrics, m): data points at its input pipeline (loader workers, "
				      "storage, a data shard that changed); forward, backward or optimizer at its host "
				      "and device (thermal throttling, a failing GPU or link, a noisy neighbour).",
				      rs->rank, from);
		if (fail_slow)
			add(out, "DIST.FAIL_SLOW", SEV_HIGH,
			    xasprintf("Rank %d turned slow %s (fail-slow)", rs->rank, at),
			    xasprintf("From step %ld to %s rank %d's compute is %.0f%% above the step median "
				      "(its median since then, up from %.0f%% before; z=%.0f against its step-to-step "
				      "noise of %.1f%%). The other ranks waited %.3g s for it since then.%s%s",
				      rs->slow_onset, end, rs->rank, rs->slow_shift * 100,
				      round(rs->slow_before * 100) + 0.0 /* no -0 */, rs->slow_z, rs->noise * 100,
				      rs->slow_cost, unjudged, more),
			    fix, ev_rank(d, (size_t)ri, from, last_step(d)));
		else
			add(out, "DIST.SLOW_RANK", SEV_HIGH, slow_rank_title(rs), slow_rank_detail(rs, whole, end, more),
			    fix, ev_rank(d, (size_t)ri, rs->slow_onset, last_step(d)));
		free(fix);
		free(more);
	}
}

static void rule_fail_slow(struct run *run, struct finding_list *out)
{
	native_slow(run, out, true);
}

static void rule_slow_rank(struct run *run, struct finding_list *out)
{
	native_slow(run, out, false);
}

static void rule_transient(struct run *run, struct finding_list *out)
{
	const struct distributed *d = dist_judged(run);
	if (!d || d->world_size < STALL_MIN_RANKS) /* rules_unjudged.c says why */
		return;
	size_t total = 0, shown = 0;
	for (size_t r = 0; r < d->world_size; r++)
		total += d->rank[r].stall_lo >= 0;
	for (size_t r = 0; r < d->world_size && shown < NATIVE_MAX_FINDINGS; r++) {
		const struct rank_stat *rs = &d->rank[r];
		if (rs->stall_lo < 0)
			continue;
		shown++;
		char *more = shown == NATIVE_MAX_FINDINGS ? more_note(shown, total) : xstrdup("");
		add(out, "DIST.TRANSIENT_STALL", SEV_MED,
		    xasprintf("Rank %d stalled over steps %ld-%ld", rs->rank, rs->stall_lo, rs->stall_hi),
		    xasprintf("Rank %d's compute was %.0f%% above its usual share of the step median (above the "
			      "median itself when it is usually faster) over steps %ld-%ld (z=%.0f), then recovered; "
			      "the other ranks waited %.3g s for it. A stall alone does not make a straggler.%s",
			      rs->rank, rs->stall_shift * 100, rs->stall_lo, rs->stall_hi, rs->stall_z, rs->stall_cost, more),
		    "Correlate the step range with the host's logs (checkpoint, GC, preemption, a storage or "
		    "network hiccup) and with the other ranks' data phase.",
		    ev_rank(d, r, rs->stall_lo, rs->stall_hi));
		free(more);
	}
}

static void rule_imbalance(struct run *run, struct finding_list *out)
{
	const struct distributed *d = dist_judged(run);
	if (!d || d->straggler >= 0 || !(d->wall_frac_lost * 100 >= 5))
		return;
	if (!(d->imbalance_cv >= 0.15)) {
		if (!rules_compat(run))
			rules_hang(d, out);
		return;
	}
	char who[128] = "with no single persistent straggler"; /* natively only where stragglers are judged */
	if (!rules_compat(run) && d->n_steps < STRAG_MIN_JUDGE)
		snprintf(who, sizeof(who), "(persistence not judged: %zu aligned step%s, the noise test needs %d)",
			 d->n_steps, d->n_steps == 1 ? "" : "s", STRAG_MIN_JUDGE);
	/* the evidence is the spread itself: the ranks view, on the rank that lost most time */
	size_t worst = 0;
	for (size_t r = 1; r < d->world_size; r++)
		if (d->rank[r].time_lost > d->rank[worst].time_lost)
			worst = r;
	struct evidence ev = evidence_none();
	ev.kind = EV_ROW;
	ev.view = "ranks"; /* every rank (no rank filter), the cursor on the worst */
	ev.item = d->rank[worst].rank;
	add(out, "DIST.LOAD_IMBALANCE", SEV_MED, xstrdup("Compute is imbalanced across ranks"),
	    xasprintf("Per-rank compute varies by CV=%.2f %s. %.1f%% of wall time is lost waiting at the "
		      "all-reduce barrier (median sync skew %.1f ms/step).", d->imbalance_cv, who,
		      d->wall_frac_lost * 100, d->sync_skew * 1e3),
	    "Balance per-rank work: even out shard sizes / sequence lengths, check for variable-cost "
	    "batches, and avoid rank-dependent branches in the step.",
	    ev);
}

static void rule_comm_bound(struct run *run, struct finding_list *out)
{
	const struct distributed *d = analysis_distributed(run);
	char why[160];
	if (!d || !(d->mean_comm_fraction >= BAR_COMM)) /* pytscope's >= is false on NaN */
		return;
	if (!rules_compat(run) && analysis_comm_unmeasured(run, why, sizeof(why))) /* rules_unjudged.c says why */
		return;
	struct evidence ev = evidence_none();
	ev.kind = EV_SERIES;
	ev.series = xstrdup("comm");
	add(out, "DIST.COMM_BOUND", d->mean_comm_fraction >= BAR_COMM_HIGH ? SEV_HIGH : SEV_MED,
	    xstrdup("Communication dominates step time"),
	    xasprintf("Collective communication is %.0f%% of step wall time across %zu ranks — the "
		      "gradient all-reduce is not hidden behind compute.", d->mean_comm_fraction * 100,
		      d->world_size),
	    "Overlap communication with backward (DDP gradient bucketing / `no_sync` for accumulation), "
	    "increase the per-step compute (larger local batch), enable gradient compression, or check "
	    "interconnect bandwidth (NVLink/InfiniBand vs Ethernet).",
	    ev);
}

/* ---- EFFICIENCY --------------------------------------------------------------------- */

static const char *budget_hint(int line)
{
	switch (line) {
	case BUDGET_OVERHEAD:
		return "enable mixed precision (AMP/bf16), torch.compile, or fused kernels so compute "
		       "approaches peak throughput";
	case BUDGET_DATA:
		return "raise DataLoader num_workers, persistent_workers, pin_memory, and prefetch; move "
		       "heavy transforms off the hot path";
	case BUDGET_COMM:
		return "overlap the all-reduce with backward (DDP bucketing), or raise per-GPU compute so "
		       "communication is hidden";
	default:
		return "profile the unattributed time — logging, checkpointing, host syncs, or eval inside "
		       "the train loop";
	}
}

/* Budget line `line`'s share of b's wall in whole percent (line < 0: MFU): pytscope's "%.0f"
 * under --compat, natively on its side of the bars it is judged by (analysis.h BARS). */
static const char *budget_pct(const struct run *run, const struct budget *b, int line, char *buf, size_t n)
{
	if (rules_compat(run))
		snprintf(buf, n, "%.0f", (line < 0 ? b->mfu : b->line[line].fraction) * 100);
	else if (line < 0)
		analysis_budget_mfu_text(b, 0, buf, n);
	else
		analysis_budget_share_text(b, line, 0, buf, n);
	return buf;
}

/* EFFICIENCY.LOW_MFU and EFFICIENCY.RECOVERABLE: rank 0's budget (analysis.h BARS); the
 * top line's seconds in pytscope's "%.2fs" under --compat, natively in the Budget pane's
 * units (units.h: "7.88 ms", where "%.2fs" reads 0.01s on a trace's ms-scale steps). */
static void rule_efficiency(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct budget *b = analysis_budget(run, 0);
	if (!b || b->nrecoverable == 0)
		return;
	const struct budget_line *top = &b->line[b->recoverable[0]];
	bool compat = rules_compat(run);
	if (!(top->fraction >= BAR_RECOVERABLE_MFU) || (!compat && !isfinite(b->wall))) /* >= is false on NaN */
		return;
	if (!compat && b->foreign / (b->wall + b->foreign) >= ANALYSIS_OUTSIDE_BAR) /* a rank wall short of */
		return;   /* phases with a share of the time: rules_unjudged.c says so (below, the budget names them) */
	bool low_mfu = b->has_mfu && b->mfu < BAR_MFU;
	if (!low_mfu && (b->has_mfu || !(top->fraction >= BAR_RECOVERABLE)))
		return;
	char list[200] = "", pct[48], top_pct[48], top_s[32];
	for (size_t i = 0; i < b->nrecoverable && i < 3; i++) {
		const struct budget_line *l = &b->line[b->recoverable[i]];
		size_t n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s%s %s%%", i ? ", " : "", l->name,
			 budget_pct(run, b, b->recoverable[i], pct, sizeof(pct)));
	}
	budget_pct(run, b, b->recoverable[0], top_pct, sizeof(top_pct));
	char anchor[96] = "";
	if (low_mfu)
		snprintf(anchor, sizeof(anchor), "Useful compute is %.0f%% of wall (FLOPs at peak). ",
			 b->efficiency * 100);
	if (compat)
		snprintf(top_s, sizeof(top_s), "%.2fs", top->seconds);
	else
		units_seconds(top->seconds, top_s, sizeof(top_s));
	char *detail = xasprintf("%sBiggest recoverable line: %s at %s%% of wall (%s over %zu step%s). "
				 "Top recoverable: %s.", anchor, top->name, top_pct, top_s,
				 b->steps, compat || b->steps != 1 ? "s" : "", list);
	char *fix = xasprintf("Start with %s: %s.", top->name, budget_hint(b->recoverable[0]));
	struct evidence ev = evidence_none(); /* the budget is the evidence: the Budget pane */
	ev.kind = EV_BUDGET;
	ev.rank = steps_rank_id(run->steps, 0);
	ev.series = xstrdup(b->line[b->recoverable[0]].name);
	if (low_mfu)
		add(out, "EFFICIENCY.LOW_MFU", b->mfu < BAR_MFU_HIGH ? SEV_HIGH : SEV_MED,
		    xasprintf("MFU is %s%% — %.0f%% of wall is recoverable", budget_pct(run, b, -1, pct, sizeof(pct)),
			      (1 - b->efficiency) * 100),
		    detail, fix, ev);
	else
		add(out, "EFFICIENCY.RECOVERABLE", top->fraction >= BAR_RECOVERABLE_HIGH ? SEV_HIGH : SEV_MED,
		    xasprintf("%s%% of wall time is recoverable (%s)", top_pct, top->name),
		    detail, fix, ev);
	free(fix);
}

/* ---- MEMORY ------------------------------------------------------------------------- */

static void rule_fragmentation(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct memory *m = analysis_memory(run, 0);
	/* as pytscope's >= tests: false on NaN (--compat keeps a non-finite memory value) */
	if (!m->has_memory || !(m->peak_alloc >= 64 * MB) || !(m->fragmentation >= 0.20))
		return;
	add(out, "MEMORY.FRAGMENTATION", m->fragmentation >= 0.40 ? SEV_MED : SEV_LOW,
	    xstrdup("High allocator fragmentation"),
	    xasprintf("On average %.0f%% of reserved device memory is not in use (reserved peak %.0f MB vs "
		      "alloc peak %.0f MB). Fragmentation wastes capacity and can trigger OOMs despite "
		      "'free' memory.", m->fragmentation * 100, m->peak_reserved / MB, m->peak_alloc / MB),
	    "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; avoid wildly varying tensor shapes; "
	    "call torch.cuda.empty_cache() sparingly.",
	    ev_series(run, "memory"));
}

/* MEMORY.GROWTH: under --compat pytscope pytscope's, per memory sample, its total over every
 * record; natively per step (analysis.h GROWTH), its total over the steps the memory
 * samples span, and GROWTH_MIN_STEPS counts the samples (rules_unjudged.c: too few). */
static void rule_growth(struct run *run, struct finding_list *out)
{
	if (!rules_have_steps(run))
		return;
	const struct memory *m = analysis_memory(run, 0);
	bool compat = rules_compat(run);
	size_t n = compat ? m->n_steps : m->n_samples;
	double g = m->growth, span = compat ? (double)n : (double)m->last_step - (double)m->first_step;
	double ref = m->peak_alloc > 1 ? m->peak_alloc : 1;
	if (!m->has_memory || n < GROWTH_MIN_STEPS || !(g > 0) || g * span < 0.01 * ref || g < MB)
		return;
	char *over = compat ? xasprintf("over %zu steps", n)
			    : xasprintf("from step %ld to step %ld, %zu memory samples", m->first_step, m->last_step, n);
	add(out, "MEMORY.GROWTH", SEV_HIGH, xstrdup("Allocated memory grows steadily (possible leak)"),
	    xasprintf("Allocated memory rises ~%.1f MB/step (~%.0f MB %s). Steady growth in "
		      "steady-state training usually means tensors are retained across steps.",
		      g / MB, g * span / MB, over),
	    "Detach/`.item()` metrics before accumulating; ensure you're not appending graph-attached "
	    "tensors to a list; check for retained activations or growing caches.",
	    ev_series(run, "memory"));
	free(over);
}

/* NODE.SLOW_TOGETHER (native): every rank of a node slower than the step median by at
 * least NODE_SLOW_REL, throughout or from the step its ranks turned slow together, while
 * such nodes hold at most half of the ranks: a bad host, not a bad rank (nodes.h). */
static void rule_slow_node(struct run *run, struct finding_list *out)
{
	const struct distributed *d = rules_have_steps(run) ? dist_judged(run) : NULL;
	struct node_set *s = d ? steps_nodes(run) : NULL;
	char scope[200] = "", placed[320] = "", at_least[32], since[40], from[96], at_once[80], end[48] = "the end";
	bool partial = s && steps_partial_scope(run, scope, sizeof(scope)); /* a node's ranks may be left out */
	if (s)
		steps_nodes_placement(run->steps, s, placed, sizeof(placed));
	if (s && d->n_judged < d->n_steps)
		snprintf(end, sizeof(end), "step %ld (the last judged)", last_step(d));
	for (size_t k = 0; s && k < s->n; k++) {
		if (!steps_node_slow(s, k))
			continue;
		const struct node_stat *nd = &s->v[k];
		char *ranks = steps_nodes_ranklist(run->steps, nd->ri, nd->nranks);
		const char *host = s->source == NODES_HOSTNAME ? "host " : "";
		struct evidence ev = evidence_none();
		bool onset = nd->slow_from >= 0; /* slow together from a step, else throughout (nodes.h) */
		/* every figure over the span named: from the onset on, else the whole run */
		ev.kind = EV_RANK;
		ev.rank = steps_rank_id(run->steps, onset ? nd->from_worst : nd->worst);
		const char *loaded = partial ? " loaded" : "";
		double least = onset ? nd->from_min_rel : nd->min_rel;
		double worst_ms = (onset ? nd->from_worst_compute : nd->worst_compute) * 1e3;
		since[0] = from[0] = at_once[0] = '\0';
		if (onset) {
			snprintf(since, sizeof(since), " from step %ld", nd->slow_from);
			snprintf(from, sizeof(from), " from step %ld to %s", nd->slow_from, end);
			snprintf(at_once, sizeof(at_once), " Its ranks turned slow within %d steps of each other.",
				 NODE_ONSET_STEPS);
			ev.step_lo = nd->slow_from;
			ev.step_hi = last_step(d);
		}
		/* floored, so "at least" holds and the figure stays on its side of high's 15% (14.96: 14) */
		snprintf(at_least, sizeof(at_least), "%.0f", floor(least * 100));
		add(out, "NODE.SLOW_TOGETHER", least >= 0.15 ? SEV_HIGH : SEV_MED,
		    xasprintf("All %zu%s ranks of %s%s slow together%s (at least %s%% slower)", nd->nranks, loaded,
			      host, nd->name, since, at_least),
		    xasprintf("Every%s rank on %s%s (ranks %s%s%s) is at least %s%% slower than the per-step "
			      "median%s (median over its ranks %.0f%%; worst rank %d at %.2f ms/step).%s A whole "
			      "host slow at once points at the host, not at one rank.%s", loaded, host, nd->name,
			      ranks, partial ? "; " : "", scope, at_least, from,
			      (onset ? nd->from_median_rel : nd->median_rel) * 100, ev.rank, worst_ms,
			      at_once, placed),
		    "Check the host: thermal or power throttling, CPU frequency, a degraded NIC or PCIe "
		    "link, noisy neighbours; drain it and compare.", ev);
		free(ranks);
	}
	steps_nodes_free(s);
}

/* CONFIG.RANKS_DIFFER and ENV.RANKS_DIFFER (native): run.json config or environment
 * keys that a few ranks set otherwise (config_diff.h), or environment keys that differ
 * with no majority (named against the lowest rank; a config key may be set per rank, so
 * a config with no majority is the headline's only); high when the first rank that
 * differs is in the straggler set, or for a split any rank is. */
static void ranks_differ(struct run *run, enum diff_scope scope, struct finding_list *out)
{
	struct config_diff c;
	bool config = scope == DIFF_CONFIG;
	if (!rules_have_steps(run) || !steps_config_diff(run->steps, scope, &c) || (c.split && config))
		return;
	const struct steps_model *m = run->steps;
	const struct distributed *d = dist_judged(run);
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = steps_rank_id(m, c.first);
	if (!steps_rank_span(m, c.first, &ev.step_lo, &ev.step_hi))
		ev.step_lo = ev.step_hi = -1;
	int low = steps_rank_id(m, 0);
	char more[160] = "", others[64] = "the others", slow[64] = "";
	if (c.split) {
		snprintf(more, sizeof(more), " (%zu of %zu ranks differ from rank %d%s%s, no majority)", c.ndiff, c.n, low,
			 c.ranks[0] ? ": " : "", c.ranks);
		snprintf(others, sizeof(others), "rank %d", low);
	} else if (c.ndiff > 1) {
		snprintf(more, sizeof(more), " (%zu of %zu ranks differ%s%s)", c.ndiff, c.n, c.ranks[0] ? ": " : "",
			 c.ranks);
	}
	if (d && c.first < d->world_size && d->rank[c.first].straggler)
		snprintf(slow, sizeof(slow), " That rank is in the straggler set.");
	for (size_t r = 0; d && c.split && !slow[0] && r < d->world_size; r++)
		if (d->rank[r].straggler)
			snprintf(slow, sizeof(slow), " Rank %d is in the straggler set.", steps_rank_id(m, r));
	add(out, config ? "CONFIG.RANKS_DIFFER" : "ENV.RANKS_DIFFER", slow[0] ? SEV_HIGH : SEV_MED,
	    xasprintf("Rank %d runs with %s=%s, %s %s%s", ev.rank, c.key, c.value, others, c.others, more),
	    xasprintf("The run.json %s of %zu of the %zu ranks that have one sets %s otherwise than %s; the first "
		      "is rank %d, with %s=%s where %s %s %s. %s%s", config ? "config" : "environment", c.ndiff, c.n,
		      c.keys, c.split ? others : "the other ranks", ev.rank, c.key, c.value, others,
		      c.split ? "has" : "have", c.others,
		      config ? "Ranks of one job launched with another batch size or model do other work per step, "
			       "and in a synchronous job every rank waits for the heaviest."
			     : "A rank on another GPU, driver or software stack runs at another speed, and in a "
			       "synchronous job every rank waits for the slowest.", slow),
	    config ? "Launch every rank with the same config (check the launcher's per-rank arguments); rank "
		     "dirs of another run belong in a run dir of their own."
		   : "Run every rank on like nodes and one software image (check the partition's node types "
		     "and the container or modules each rank loaded); exclude the odd node.", ev);
}

static void rule_config(struct run *run, struct finding_list *out)
{
	ranks_differ(run, DIFF_CONFIG, out);
}

static void rule_env(struct run *run, struct finding_list *out)
{
	ranks_differ(run, DIFF_ENV, out);
}

const struct finding_rule steps_rules[STEPS_NRULES] = {
	{ "TIMING.DATALOADER_BOUND", 100, rule_dataloader, false, SUBJECT_LOWEST, false },
	{ "TIMING.BACKWARD_HEAVY", 110, rule_backward, false, SUBJECT_LOWEST, false },
	{ "TIMING.OPTIMIZER_HEAVY", 120, rule_optimizer, false, SUBJECT_LOWEST, false },
	{ "TIMING.JITTER", 130, rule_jitter, false, SUBJECT_LOWEST, false },
	{ "CONVERGENCE.DIVERGED", 200, rule_diverged, false, SUBJECT_LOWEST, false },
	{ "CONVERGENCE.NO_PROGRESS", 210, rule_no_progress, false, SUBJECT_LOWEST, false },
	{ "CROSS.CORRELATED_INSTABILITY", 300, rules_cross, false, SUBJECT_LOWEST, false },
	{ "DIST.STRAGGLER", 400, rule_straggler, false, SUBJECT_RANK, true },
	{ "DIST.FAIL_SLOW", 401, rule_fail_slow, true, SUBJECT_RANK, true },
	{ "DIST.SLOW_RANK", 402, rule_slow_rank, true, SUBJECT_RANK, true },
	{ "DIST.TRANSIENT_STALL", 403, rule_transient, true, SUBJECT_RANK, true },
	{ "NODE.SLOW_TOGETHER", 404, rule_slow_node, true, SUBJECT_NODE, true },
	{ "CONFIG.RANKS_DIFFER", 405, rule_config, true, SUBJECT_PICKED, true },
	{ "ENV.RANKS_DIFFER", 406, rule_env, true, SUBJECT_PICKED, true },
	{ "DIST.LOAD_IMBALANCE", 410, rule_imbalance, false, SUBJECT_RANK, true },
	{ "DIST.COMM_BOUND", 420, rule_comm_bound, false, SUBJECT_RANK, true },
	{ "EFFICIENCY.LOW_MFU", 500, rule_efficiency, false, SUBJECT_LOWEST, false },
	{ "MEMORY.FRAGMENTATION", 600, rule_fragmentation, false, SUBJECT_LOWEST, false },
	{ "MEMORY.GROWTH", 610, rule_growth, false, SUBJECT_LOWEST, false },
};

/* ---- the rules in slices (the explorer's idle time: findings.h struct rule_slicer) ---- */

/* What a rule over rank 0 needs first: rank 0's steps read (a slice of its own when they
 * come from the index), then its analysis made a slice at a time. */
struct prep {
	void *job;
};

void rules_prep_drop(void *state)
{
	struct prep *p = state;
	if (p)
		analysis_job_free(p->job);
	free(p);
}

bool rules_prep_slice(struct run *run, void **state, bool (*make)(struct run *run, size_t ri, void **job))
{
	struct prep *p = *state;
	if (!p && rules_have_steps(run)) {
		*state = xcalloc(1, sizeof(struct prep));
		const struct rank_steps *r0 = run->steps->rank[0];
		if (__atomic_load_n(&r0->lazy, __ATOMIC_ACQUIRE)) {
			rank_need_body(r0);
			return false;
		}
		p = *state;
	}
	if (p && !make(run, 0, &p->job))
		return false;
	rules_prep_drop(p);
	*state = NULL;
	return true;
}

static bool slice_dataloader(struct run *run, struct finding_list *out, void **state)
{
	if (!rules_prep_slice(run, state, analysis_timing_slice))
		return false;
	rule_dataloader(run, out);
	return true;
}

static bool slice_diverged(struct run *run, struct finding_list *out, void **state)
{
	if (!rules_prep_slice(run, state, analysis_convergence_slice))
		return false;
	rule_diverged(run, out);
	return true;
}

static bool slice_fragmentation(struct run *run, struct finding_list *out, void **state)
{
	if (!rules_prep_slice(run, state, analysis_memory_slice))
		return false;
	rule_fragmentation(run, out);
	return true;
}

const struct rule_slicer steps_rule_slicers[STEPS_NSLICERS] = {
	{ "TIMING.DATALOADER_BOUND", slice_dataloader, rules_prep_drop },
	{ "CONVERGENCE.DIVERGED", slice_diverged, rules_prep_drop },
	{ "CROSS.CORRELATED_INSTABILITY", rules_cross_slice, rules_cross_drop },
	{ "MEMORY.FRAGMENTATION", slice_fragmentation, rules_prep_drop },
};
