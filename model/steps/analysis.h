/* SPDX-License-Identifier: MIT */
/* analysis.h: the pytscope analyzers over the step model (spec pytscope.md §5-6) plus
 * what tscope adds (time lost, onset, coverage, per-window budgets, heatmap blocks).
 *
 * LIFETIME. Every analyzer is lazy: computed on first call, memoized inside the run's
 * step model, and returned as a const pointer that stays valid until run_free() or the
 * run grows (steps_refresh, see LIVE RUNS below; the heatmap grids stay). NULL
 * means "no input for this analysis" (no step model, too few ranks, ...). Not
 * thread-safe: call from one thread (the UI thread, or --print).
 *
 * THREADS. The run-wide passes (distributed, heatmaps) split their work over
 * model/pool.h workers (--jobs; one per core by default), which read the step model at
 * the same time (steps.h: several readers, no writer). Each task writes its own slots
 * and order-dependent sums run afterwards in order: no result depends on the thread
 * count. The per-step medians are computed once and shared by the distributed analysis
 * (dist_step.cmed) and HEAT_REL_SLOWDOWN, whichever is asked first.
 *
 * RANKS. `ri` is a rank INDEX (0..steps_nranks()-1, ascending rank id), not a rank id.
 * pytscope reports the lowest rank, so --print uses ri = 0.
 *
 * WARMUP. timing, memory, convergence and the budget skip the first opts->warmup
 * records of a rank (a positional slice, as pytscope does), and so do the budget
 * windows. distributed and the heatmap ignore warmup (pytscope's distributed analysis
 * does too).
 *
 * SUMS. Every sum is exactly rounded (as Python's math.fsum), so figures match
 * pytscope to the last printed digit. */
#ifndef MODEL_ANALYSIS_H
#define MODEL_ANALYSIS_H

#include "model/base.h"
#include "model/stats.h"   /* stats_fsum, stats_median, ... (pytscope stats.py) */

struct run;
struct steps_model;

/* ---- timing (§6.1) ------------------------------------------------------------- */

struct timing_phase {
	int metric;               /* phase metric id (steps.h) */
	const char *name;         /* interned name (unsanitized) */
	double seconds;           /* mean per step over all n steps */
	double fraction;          /* of the grand total */
	double total;             /* seconds summed over the steps that have it */
};

/* STEPS TIMED. pytscope times every post-warmup record, one without any phase (an eval
 * record's scalars) as a step of 0 s; natively such a record is no step (its step time is
 * missing, not 0): it is left out of n, the step times, the mean, the spread and the
 * percentiles (nrec - n of them), unless no record of the rank has a phase (then the
 * records are the steps and no phase is recorded). --compat pytscope times them all. */
struct timing {
	size_t n;                 /* steps timed (above) */
	size_t nrec;              /* post-warmup records: n plus the records left out */
	size_t first;             /* position of the rank's first post-warmup record */
	size_t *pos;              /* record position of step i; NULL: first + i (none left out) */
	double mean_step_time, std_step_time, p50, p95, steps_per_sec, total_time;
	double cv, p95_p50_ratio;
	struct timing_phase *phase; /* in pytscope phase order (canonical, then sorted) */
	size_t nphase;
	double *step_time;        /* per step timed: fsum of its phases (n entries) */
	bool finite;              /* every phase value a duration (finite, >= 0) and every total and
				   * their sum finite: the mean, the spread and the shares mean
				   * something (else they are pytscope's, over a denominator of 1) */
	long bad_step;            /* step number of the first phase value that is not a duration
				   * (NaN, infinite, negative), -1: none (the totals overflow) */
	int bad_metric;           /* its phase metric id, -1 */
	double bad_value;         /* that value */
};
const struct timing *analysis_timing(struct run *run, size_t ri);
/* Why t's shares are n/a ("a non-finite phase value: optimizer at step 3 on rank 0", "a
 * negative phase value: data at step 12 on rank 0", "the phase totals overflow on rank
 * 0") into buf; false (buf empty) when t->finite or t has no step. */
bool timing_why_na(const struct run *run, const struct timing *t, size_t ri, char *buf, size_t n);
/* t's shares and step times may be weighed: always under --compat (pytscope's, whose
 * comparisons are false on NaN), natively only when t->finite and t has phase time
 * (timing_why_na says why not). */
bool timing_shares_judged(const struct run *run, const struct timing *t);
/* t times steps with phases, every value a duration, and yet no phase time: every phase
 * value is 0 (natively no step time, as the budget's: the shares and the step time n/a,
 * timing_why_na "the 40 records of rank 0 have no phase time, every phase 0"). */
bool timing_no_time(const struct timing *t);
/* Fraction of phase `name`, 0 when absent; seconds likewise. */
double timing_fraction(const struct timing *t, const char *name);
/* BARS. The shares a step rule (rules.c) judges against a bar: the data share of the step
 * time (TIMING.DATALOADER_BOUND, high from BAR_DATA_HIGH), the optimizer's
 * (TIMING.OPTIMIZER_HEAVY), the comm share of the step wall (DIST.COMM_BOUND), the top
 * recoverable budget line (EFFICIENCY.RECOVERABLE without MFU; with MFU, LOW_MFU's floor)
 * and MFU (EFFICIENCY.LOW_MFU below BAR_MFU, high below BAR_MFU_HIGH); and the step time's
 * CV and p95/median (TIMING.JITTER). */
#define BAR_DATA 0.25
#define BAR_DATA_HIGH 0.40
#define BAR_OPTIMIZER 0.15
#define BAR_COMM 0.25
#define BAR_COMM_HIGH 0.45
#define BAR_RECOVERABLE 0.20
#define BAR_RECOVERABLE_HIGH 0.35
#define BAR_RECOVERABLE_MFU 0.10
#define BAR_MFU_HIGH 0.30
#define BAR_MFU 0.50
#define BAR_JITTER_CV 0.50
#define BAR_JITTER_P95 1.5
/* A share frac (0..1) as a percentage with prec decimals, or the decimals that keep it on
 * the side of the nearest of bars[0..nbars) (numfmt_same_side: "24.996", not "25.0"; the
 * bars lie further apart than a rounding moves a figure), without "%"; "n/a" when not
 * finite. Returns buf. */
const char *analysis_share_text(double frac, const double *bars, size_t nbars, int prec, char *buf, size_t n);
/* The comm share of the step wall so, against DIST.COMM_BOUND's bars. */
const char *analysis_comm_share_text(double frac, int prec, char *buf, size_t n);
/* Phase p's share of t's step time so, against the bars its share is judged by (data,
 * optimizer; comm's, as the comm share); plain "%.*f" for the other phases. */
const char *timing_share_text(const struct timing_phase *p, int prec, char *buf, size_t n);
double timing_seconds(const struct timing *t, const char *name);
/* Phase `name` is among t's phases (recorded in the records t covers). */
bool timing_has_phase(const struct timing *t, const char *name);
/* "20 records without any phase (no step time, not steps of 0 ms)": the k records a
 * native timing (nrec - n) or budget (unphased) leaves out, into buf; NULL when k is 0. */
const char *analysis_left_out_records(size_t k, char *buf, size_t n);
/* The record position of t's step i (i < t->n). */
size_t timing_pos(const struct timing *t, size_t i);
/* The step times of t (the lowest rank's: the report's TIMING) as pytscope's report sums
 * them, its sparkline's: plain left to right in the rank's metric order, not exactly
 * rounded; a new array of t->n (at least 1) values, the caller frees it. */
double *timing_plain_step_times(struct run *run, const struct timing *t);
/* The step time of the rank's record pos into *v; false when t does not time that record
 * (inside --warmup, or left out natively: STEPS TIMED). */
bool timing_step_time_at(const struct timing *t, size_t pos, double *v);

/* ---- memory (§6.2) ------------------------------------------------------------- */

/* GROWTH: pytscope's (--compat pytscope) is robust_slope(allocs), per memory sample. Natively
 * it is per step: the same rise of the end medians over the step numbers the samples span
 * (last_step - first_step) instead of n - 1 samples; NaN (not measured) when that span is
 * not positive (one sample, step numbers that end where they began or before). */
struct memory {
	bool has_memory;
	double peak_alloc, peak_reserved, mean_alloc, fragmentation, growth; /* bytes */
	size_t n_steps;
	size_t n_samples;          /* records with alloc (after --warmup): the memory samples */
	long first_step, last_step; /* step numbers of the first and last sample */
	/* a sample records reserved or peak_reserved (else peak_reserved is missing, not 0);
	 * a reserved value above 0 pairs with an alloc (else fragmentation is missing) */
	bool has_reserved, has_fragmentation;
};
const struct memory *analysis_memory(struct run *run, size_t ri);

/* ---- convergence (§6.3) -------------------------------------------------------- */

/* Natively, the resumes after which the spike tests lack history (analysis_convergence.c):
 * fewer than the 6 earlier records they need were logged before the step a resume goes
 * back to (a restart at step 0: none), so the first records after it are not judged. */
#define SPIKE_MIN_HIST 6 /* earlier values the spike test needs (stats.h stats_local_spikes) */
struct resume_gap {
	size_t nresumes, nrecords; /* such resumes, and their records not judged */
	long from, to;             /* the first: the resume from step `from` back to `to` */
	long lo, hi;               /* its records not judged: steps lo..hi, nfirst of them */
	size_t nfirst;
	size_t hist;               /* the records before it that it continues (< SPIKE_MIN_HIST) */
};

struct convergence {
	bool has_loss, has_grad_norm;
	bool diverged;
	long diverged_at;         /* step number of the first non-finite loss; natively, of the run
				   * that continued (the records no resume left behind) when it has one */
	size_t diverged_pos;      /* loss[] index of diverged_at */
	bool recovered;           /* natively: every non-finite loss is in a run a resume left behind,
				   * the trend is that of the run that continued */
	long left_from, left_to;  /* recovered: the first resume after diverged_at back to it or below */
	struct resume_gap gap;
	bool has_final;           /* a finite loss exists (best and final) */
	double final_loss, best_loss;
	const char *trend;        /* "improving" "worsening" "plateau" "unknown" "diverged"; natively
				   * of the run that continued */
	long *loss_spikes;        /* step numbers */
	size_t nloss_spikes;
	long *grad_spikes;        /* step numbers */
	size_t ngrad_spikes;
	size_t n_steps;
	double *loss;             /* post-warmup losses in order (NaN/Inf kept) */
	long *loss_step;
	size_t nloss;
};
const struct convergence *analysis_convergence(struct run *run, size_t ri);

/* ---- distributed (§6.4, plus time lost, onset, coverage) ------------------------
 *
 * Over the aligned steps (steps.h: intersection of step numbers, last record wins; but
 * natively, not under --compat pytscope, a last record without any phase, an eval
 * record's scalars, leaves the step to the last record of it with phases:
 * analysis_distributed_last() is pytscope's alignment, what the index summary holds).
 * compute_r(s) = sum of the phases data, forward, backward, optimizer, compute, other of
 * rank r at aligned step s (unknown phase names excluded: when they carry a share of a
 * rank's phase time, the ranks are not weighed nor the walls measured natively,
 * analysis_compute_unweighable);
 * comm_r(s) = phase comm or 0.
 * A record with none of those phases has no compute: pytscope's figures (mean_compute,
 * median_compute, the critical path, time lost, the walls, pytscope's straggler) take
 * it as 0 s, as pytscope does; the step median (dist_step.cmed), own_mean and
 * own_median leave it out, no_compute counts it, and the ranks are not weighed against
 * each other then (analysis_compute_unweighable).
 *
 * THE CRITICAL PATH. pytscope's critical rank of an aligned step is the argmax of
 * compute, ties to the lowest rank id (dist_step.critical; its counts slowest_count,
 * slowest_fraction and straggler_z are pytscope's, for --compat and pytscope's
 * straggler rule). tscope-tui's own figures split a tie: the t_s ranks whose compute
 * is within ANALYSIS_TIE_S of cmax_s (analysis_tied_max) each take part(r, s) = 1/t_s of
 * step s (0 for the other ranks), so timers of coarse resolution do not hand every tied
 * step to the lowest rank id, nor binary rounding to one rank: phases of whole
 * nanoseconds that add up alike, 6 + 4.5 ms and 8 + 2.5 ms, differ in doubles by an ulp
 * (0.010499999999999999 and 0.0105 s), never by half a nanosecond.
 * critical_share = sum_s part(r, s) / S, critical_z = (S critical_share - S/N) / sd
 * (pytscope's expected count and sd).
 *
 * TIME LOST of rank r (seconds): the time the other ranks spent waiting for r at the
 * step barrier, averaged over those ranks: sum over the aligned steps of
 *     part(r, s) * sum over q not tied with cmax_s of (cmax_s - compute_q(s)) / (N - 1)
 * (for an untied critical rank: the mean over q != r of compute_r(s) - compute_q(s)).
 * It is 0 for a rank never at the max; summed over all ranks it equals
 * N/(N-1) * sum_s (cmax_s - cmean_s), but for the sub-nanosecond differences of ties.
 *
 * ONSET of rank r (a step number, or -1): let x_s = part(r, s). The persistent stretch
 * is the contiguous run of aligned steps [a, b] maximising sum (x_s - 1/2) (the earliest
 * such run on ties). When that run spans at least ANALYSIS_ONSET_MIN_STEPS aligned
 * steps and its sum of x_s is at least 60% of them, onset = the step number of a (the
 * stretch's end step in onset_end); otherwise -1. A rank that turns into a straggler at
 * step k and stays critical gets onset k (give or take the steps at which it was
 * critical by chance just before k). */
#define ANALYSIS_ONSET_MIN_STEPS 8
/* A compute within this many seconds of a step's slowest is tied with it (above). */
#define ANALYSIS_TIE_S 0.5e-9

struct rank_stat {
	int rank;                 /* rank id */
	double mean_compute, median_compute;       /* seconds per aligned step (pytscope's) */
	size_t no_compute;        /* aligned steps whose record has no compute phase value */
	double own_mean, own_median; /* over the aligned steps with a compute (NaN: none) */
	size_t slowest_count;     /* aligned steps on the critical path (pytscope's ties) */
	double slowest_fraction, straggler_z, rel_slowdown;
	double critical_share, critical_z; /* ties split, see above */
	double time_lost;         /* seconds, see above */
	long onset, onset_end;    /* step numbers, -1 when none */
	size_t missing;           /* steps of the union this rank lacks */
	double coverage;          /* distinct steps / union size, 0..1 */
	double mem_peak;          /* bytes: max peak_alloc (else alloc) over all records */
	bool has_mem_peak;
	/* native straggler rules (see STRAGGLERS below) */
	double noise;             /* sigma of the rank's slowdown, step to step */
	long slow_onset;          /* step number where a significant slowdown to the end of
	                           * the run starts (the first aligned step when it is slow
	                           * throughout), -1 when none */
	bool fail_slow;           /* slow_onset is a change point after the first step */
	double slow_shift, slow_z;/* the level it holds from slow_onset: its median slowdown
	                           * there (to rise_onset when one); z of a fail-slow's rise,
	                           * else of that level */
	double slow_before;       /* a fail-slow's median slowdown before its onset */
	double slow_cost;         /* seconds the others waited for it since slow_onset */
	long rise_onset;          /* slow throughout, then slower still from this step number
	                           * (a significant rise of its own compute), -1 none */
	double rise_level;        /* its median slowdown from rise_onset on (to the end) */
	long late_onset;          /* step number of a rise fewer than STRAG_MIN_STEPS steps
	                           * before the end (not judged), -1 none */
	double late_level;        /* its slowdown there (the lower median) */
	bool recovered;           /* pytscope's straggler with no native onset whose slow
	                           * stretch ended: slow_onset, slow_shift and slow_cost are its
	                           * stall's (stall_lo-stall_hi) */
	long gap_onset;           /* step number of a significant rise of its slowdown that is
	                           * no fail-slow (STRAGGLERS: its own compute did not rise),
	                           * -1 none */
	double gap_shift;         /* that rise, as slow_shift */
	bool gap_sped_up;         /* the others sped up there; else (2 ranks) which one
	                           * changed is not judged */
	long stall_lo, stall_hi;  /* step numbers of its biggest significant stall, -1 none */
	double stall_shift, stall_z, stall_cost; /* as slow_* over the stall */
	bool straggler;           /* in the run's straggler set */
};

struct dist_step {
	long step;
	int critical;             /* rank INDEX of pytscope's critical rank (the lowest of an
				   * exact tie) */
	int ntied;                /* ranks tied with cmax (>= 1; the critical rank's
				   * alone when cmax is NaN) */
	double wall, cmax, cmean, comm_max, comm_frac, cv;
	double cmed;              /* median compute over the ranks with one (NaN: none has) */
	double skew;              /* cmax - pytscope's median (a record without compute at 0 s) */
};

/* Compute v is tied with a step's slowest compute cmax (THE CRITICAL PATH): within
 * ANALYSIS_TIE_S of it; never when either is NaN. */
static inline bool analysis_tied_max(double v, double cmax)
{
	return v == cmax || cmax - v <= ANALYSIS_TIE_S;
}

/* part(r, s) above: rank index ri's part of aligned step s, v its compute there. */
static inline double analysis_critical_part(const struct dist_step *s, size_t ri, double v)
{
	return (int)ri == s->critical || analysis_tied_max(v, s->cmax) ? 1.0 / s->ntied : 0.0;
}

struct distributed {
	size_t world_size, n_steps;
	size_t n_judged;          /* aligned steps [0, n_judged) the native straggler rules judge
				   * (analysis.h STRAGGLERS: the steps logged only before a rank's
				   * step numbers went back are not) */
	bool repeats;             /* a rank logs a step number twice (a resume, micro-batches, an
				   * evaluation's record): one record of the step is weighed */
	double mean_step_wall, mean_comm_fraction, imbalance_cv, sync_skew;
	double wall_frac_lost;    /* wall_frac_lost_to_imbalance */
	long straggler;           /* rank INDEX of pytscope's straggler, or -1 */
	int *stragglers;          /* the straggler set: rank INDEXES, by slow_cost descending */
	size_t nstragglers;
	struct rank_stat *rank;   /* world_size entries, by rank index */
	struct dist_step *step;   /* n_steps entries, by aligned index */
};
/* NULL when fewer than 2 ranks or no aligned step (pytscope returns None). */
const struct distributed *analysis_distributed(struct run *run);
/* The index of the first of d's first m aligned steps (ascending) whose step number is
 * at least step (m when none). */
size_t analysis_dist_lower(const struct distributed *d, size_t m, long step);
/* Rank index ri is one the native slow-rank rules list (rules.c DIST.FAIL_SLOW with
 * fail_slow, DIST.SLOW_RANK without): in the straggler set, not pytscope's straggler,
 * turned slow or slow throughout. The one test of the rules and of compare mode. */
bool analysis_slow_listed(const struct distributed *d, size_t ri, bool fail_slow);
/* Does the run record a phase of COMPUTE_PHASES? Without one every rank's compute is 0:
 * pytscope's figures are kept, but nothing is judged from them (stragglers, imbalance)
 * and tscope-tui's own views show the compute figures as missing. */
bool analysis_has_compute(const struct steps_model *m);
/* The phases compute leaves out (neither a compute phase nor comm: fwd, bwd) that carry
 * time (a value > 0) on rank index ri: their names (sanitized, in the model's order, at
 * most the first 3, whole, then "and N more") into buf; how many there are. The ranks'
 * compute and the step walls miss their time, and the budget's rank wall too: from
 * ANALYSIS_OUTSIDE_BAR of a rank's phase time (all its phases' summed; of the time in its
 * budget and outside it, for the efficiency) they are not judged; below it the budget's
 * "not in budget" line names the phases. */
#define ANALYSIS_OUTSIDE_BAR 0.05
size_t analysis_phases_outside(struct run *run, size_t ri, char *buf, size_t n);
/* Why the ranks' compute cannot be weighed across ranks (stragglers, imbalance): "no
 * compute phase recorded"; phases compute leaves out carrying ANALYSIS_OUTSIDE_BAR of the
 * phase time of a rank, the first in rank order ("compute leaves out phases fwd, bwd, opt:
 * 82% of rank 0's phase time": a rank slower there would not show, analysis_phases_outside);
 * a rank that records none ("rank 1 records no compute phase")
 * or lacks a compute phase another records ("rank 1 records no data phase while rank 0
 * does: ...", by budget lane: data, other or forward/backward/optimizer/compute); a rank
 * with aligned steps whose record has no compute phase value ("rank 1 records no compute
 * phase at 20 of the 30 aligned steps"); a rank with a compute phase value that is not a
 * duration (analysis_ranks_flaw); a rank
 * whose compute sums over the aligned steps overflow; a rank whose compute is 0 at every
 * aligned step while another's is not ("rank 2's compute is 0 at every aligned step":
 * zeros are no compute time, not the fastest rank); the traces' ProfilerSteps of two
 * runs (trace_runs_mixed); or analysis_compute_zero (each aligned step's slowest compute
 * is 0: phases recorded as zeros). NULL when it can, or without a distributed analysis. Memoized in the run's
 * analysis cache (dropped with its records). */
extern const char analysis_compute_zero[];
const char *analysis_compute_unweighable(struct run *run);
/* Why the step walls (the slowest compute plus the largest comm of each aligned step, so
 * the run wall) are not measured across the ranks: "no phase recorded", phases of other
 * names only (analysis_phases_foreign), "no compute phase recorded" (comm alone), phases
 * compute leaves out with a share of the phase time (as analysis_compute_unweighable says:
 * the walls would miss their time), or the ranks without a compute phase, or without a comm
 * phase in a run that records one ("rank 1 records no compute phase": a wall would be
 * the others' alone), or a rank with aligned steps without one (as
 * analysis_compute_unweighable says), or a rank with a compute or comm phase value that
 * is not a duration (analysis_ranks_flaw), or compute sums that overflow or are 0 on one
 * rank (as analysis_compute_unweighable says), or step walls that overflow, or the traces'
 * ProfilerSteps of two runs (trace_runs_mixed); buf holds the reason when it is not a
 * constant. NULL when every rank records them. */
const char *analysis_wall_unmeasured(struct run *run, char *buf, size_t n);
/* Why the comm share of the step walls is not the run's: no comm phase (the traces'
 * reason when none of their kernels matched as communication, trace_comm_unmatched), a
 * rank without it, or analysis_wall_unmeasured(); NULL when it is. --compat pytscope reports pytscope's share
 * whatever this says. */
const char *analysis_comm_unmeasured(struct run *run, char *buf, size_t n);
/* The same judgement without the distributed analysis (compare mode's first frame): the
 * phase values that are not durations as analysis_ranks_flaw() finds them, the ranks'
 * mean compute and the all-zero test read off the compute heatmap's level 0, as
 * floats (a missing cell: "rank 1 has no compute value at 20 of the 30 aligned steps",
 * no compute phase there or a NaN one), but for a rank whose compute is 0 throughout
 * (compare mode sets it aside itself: its time not measured); buf holds the reason when
 * it is not a constant. use: per rank index, the ranks to weigh (compare mode: those both
 * runs have step records of), the others (of one run only, without records) weighing
 * nothing; NULL: every rank. When the run has no aligned steps (a rank without records
 * leaves none) the ranks of use are read at the steps they all have, each record as the
 * native alignment takes it ("rank 1 has no compute value at 20 of the 30 steps the ranks
 * weighed all have"); NULL when use holds no rank. */
const char *analysis_compute_unweighable_grid(struct run *run, const bool *use, char *buf, size_t n);
/* Per rank index, whether its compute is its own: it records some compute phase, and one
 * of forward, backward, optimizer or compute when another rank records one on most of its
 * records (its data or other phase alone then is no compute: lanes_unweighable's "rank 3
 * records no forward, backward, optimizer or compute phase while rank 0 does"). Else its
 * native compute figures (the ranks view's mean and median, the nodes view's worst and
 * mean, the heatmap's compute cells) are missing, not 0 s nor another phase's time;
 * pytscope's (mean_compute, --compat pytscope) keep its sum. Every rank's when the ranks
 * are weighed (analysis_compute_unweighable NULL or analysis_compute_zero). A new array
 * of steps_nranks() entries; the caller frees it. */
bool *analysis_ranks_own_compute(struct run *run);

/* STRAGGLERS (tscope-tui's own rules; the man page's FINDINGS section says the same).
 * With fewer than STRAG_MIN_JUDGE aligned steps nothing is judged (no verdict; the
 * straggler line says so); pytscope's straggler still joins the set.
 * Per rank, x_k = compute_r(k) / median over ranks of compute(k) - 1 at aligned step k
 * (0 when that median is 0), capped to [-1, 1]; its noise sigma = sqrt(pi)/2 times the
 * mean of |x_k - x_(k-1)| (each capped at 1; at least 0.001): robust to one change point
 * and to a few stalls, O(steps), no sort.
 *   A RISE TOO LATE TO JUDGE: the change point t below over every t (one step after it
 *   allowed) that leaves fewer than STRAG_MIN_STEPS but at least STRAG_LATE_MIN steps after
 *   it, when the lower median of the slowdown after t (one slow step of two is no level)
 *   is STRAG_MIN_SHIFT or more above the median before with z >= STRAG_Z and is itself
 *   STRAG_MIN_SHIFT or more with z >= STRAG_Z (as a fail-slow's, below): late_onset and
 *   late_level; no onset is placed there, and the tests below judge the S = t steps before
 *   it only (a rise there would pull their change point to S - STRAG_MIN_STEPS with a
 *   level no step has); their costs still run to the last judged step.
 *   FAIL-SLOW: the change point t maximising (mean x after t - mean x before t) *
 *   sqrt(t (S - t) / S), with at least STRAG_MIN_STEPS steps after it. shift = median
 *   slowdown after t - median slowdown before t (uncapped); z = shift / (sigma
 *   sqrt(1/t + 1/(S - t))); slow_shift is the median after t (the level it holds),
 *   slow_before the median before. The rank turned slow at t when shift >= STRAG_MIN_SHIFT and
 *   z >= STRAG_Z, and it is slow after t: its median slowdown after t is itself
 *   >= STRAG_MIN_SHIFT with z = after / (sigma / sqrt(S - t)) >= STRAG_Z (a rank that
 *   was merely fast during noisy warm-up steps has not turned slow), and the others did
 *   not merely speed up: the rank turned slow when its own compute rose (median after t /
 *   median before - 1 >= STRAG_MIN_SHIFT, z >= STRAG_Z against its own step-to-step noise
 *   as sigma, relative to the median before); else not when what it is weighed against
 *   fell as much (the other rank's compute with 2 ranks, whose step median is their mean;
 *   the step median with more: half the ranks speeding up moves it); else it did with 3
 *   ranks or more (the median held), and with 2 which one changed is not judged. A rank
 *   whose own compute rose at t but that was slow before t too (the SLOW THROUGHOUT test
 *   over [0, t)) did not turn slow there: it is slow throughout at that level (slow_shift,
 *   slow_z, its cost over every step), then slower still from rise_onset (rise_level). A rise
 *   that is no fail-slow is kept (gap_onset) and said in the straggler line (the
 *   not-judged list too when not judged), and is no onset: the SLOW THROUGHOUT test reads
 *   the >= STRAG_MIN_STEPS steps before it only.
 *   "After t" is the level the rank holds to the end: from the downward change point u of
 *   its slowdown over [t, S) (at least STALL_MIN_STEPS steps after it) when it fell there
 *   significantly (median over [t, u) minus over [u, S)), else from t; S - t above reads
 *   S - u. A rise that falls back to a level no longer significantly above the one before
 *   t is a stretch that ended: no onset, and the TRANSIENT STALL search reads every step
 *   against the level before t (SLOW THROUGHOUT the steps before t only).
 *   SLOW THROUGHOUT: otherwise, when the median slowdown is >= STRAG_MIN_SHIFT with
 *   z = shift / (sigma / sqrt(n)) >= STRAG_Z over the n steps of the level it holds to the
 *   end (as above, from step 0); when only the steps before such a fall are slow, that is
 *   a stretch that ended, the stall search weighing steps against the level after it.
 *   The STRAGGLER SET is the ranks of either kind plus pytscope's straggler; its cost is
 *   the time lost (seconds the others waited, as time_lost) since the onset. pytscope's
 *   straggler with no onset of either kind is slow from the rise that is no fail-slow
 *   (gap_onset) when there is one; else, when its biggest stall (below) ended before the
 *   last judged step and no rise came too late to judge, slow over that stall and then
 *   recovered (`recovered`: the stall's steps, level and cost); else from the first step
 *   at its rel_slowdown and time_lost. Every view (ranks' straggler column, Overview, n/N,
 *   findings) reads this set.
 *   TRANSIENT STALL: the maximum-sum run [a, b] of x_k - base - tau, where base is the
 *   median slowdown before the onset (the whole run when not a straggler; the level
 *   outside a stretch that ended, above), 0 when that is
 *   negative (a rank faster than the others is not stalled where it is merely not
 *   faster: a stall is slower than the step median, by the margin below), and
 *   tau = max(STALL_MIN_SHIFT / 2, 3 sigma) (a step above it counts by its excess over
 *   3 s_k instead when larger, s_k the other ranks' spread at step k: a step where every
 *   rank is noisy is not one rank's burst), searched before the onset; significant when
 *   it holds >= STALL_MIN_STEPS steps above base + tau (isolated slow steps of
 *   heavy-tailed noise are not a burst), shift = median slowdown over [a, b] - base is
 *   >= STALL_MIN_SHIFT and z = shift / (sigma' / sqrt(b - a + 1)) >= STRAG_Z, where
 *   sigma' is the larger of sigma and the same estimator over [a - len, b + len] (the
 *   noise around the burst: noisy warm-up steps do not make a stall). A stall
 *   alone does not make a straggler. DIST.TRANSIENT_STALL reports one only with at
 *   least STALL_MIN_RANKS ranks: with 2 the step median is their mean, so one rank
 *   speeding up reads as the other stalling.
 *   JUDGED STEPS: these rules (and the onset) read the aligned steps up to the lowest
 *   step number held by the last record of a rank that logs a step number twice
 *   (n_judged). Such a rank whose last record is below an aligned step logged that step
 *   only before its step numbers went back (a job restarted from step 0, a resume that
 *   ended before the step it had reached): where the ranks align, its record of that step
 *   is from an earlier run of the job, and a change there is the change of runs, not one
 *   in the job. Those steps are named in the straggler line and not judged (pytscope's
 *   straggler, over every aligned step, still joins the set). A resume that goes on past
 *   the step it had reached judges every aligned step. */
/* One line naming the straggler set (the worst one first), for the Overview and the
 * report: "none (...)" when it is empty; a rise that is no fail-slow (analysis_gap_rank:
 * "none turned slow (...)", "not judged: ...", after the set when it is not empty); a
 * rise too late to judge (analysis_late_rank: "none before step 196 (...); not judged:
 * ..."); then the steps not judged (JUDGED STEPS above)
 * and, with d->repeats, that a step logged twice (or more) counts by its last record with
 * phases (a resume's, a micro-batch's: not their sum). */
void analysis_straggler_line(const struct distributed *d, char *buf, size_t n);
/* The first rank index whose slowdown rose significantly with no fail-slow
 * (rank_stat.gap_onset: the others sped up, or with 2 ranks which one changed is not
 * judged), or -1; and its words for the straggler line and the not-judged list ("from
 * step 30 rank 1 is 18% slower against the 2 ranks' mean, but neither rank's own compute
 * clearly changed", "... as rank 0 sped up (own compute did not rise)"). */
int analysis_gap_rank(const struct distributed *d);
void analysis_gap_words(const struct distributed *d, int ri, char *buf, size_t n);
/* The first rank index with a rise too late to judge (rank_stat.late_onset), or -1; and
 * its words for the straggler line and the not-judged list ("from step 196 rank 1 is 93%
 * slower than the step median, over the last 4 steps: a fail-slow needs 8 after its
 * onset; 1 more rank likewise"; with 2 ranks "than the 2 ranks' mean"). */
int analysis_late_rank(const struct distributed *d);
void analysis_late_words(const struct distributed *d, int ri, char *buf, size_t n);
#define STRAG_MIN_SHIFT 0.05
#define STRAG_Z 5.0
#define STRAG_MIN_JUDGE 16   /* aligned steps needed to estimate the noise at all */
#define STRAG_MIN_STEPS 8
#define STRAG_LATE_MIN 2     /* steps after a rise too late to judge (one step is no level) */
/* Records (rank 0, after warmup) the pytscope rules need before they judge: step-time
 * jitter, correlated spikes, a loss plateau, memory growth (rules.c). */
#define JITTER_MIN_STEPS 10
#define CROSS_MIN_STEPS 8
#define PROGRESS_MIN_STEPS 50
#define GROWTH_MIN_STEPS 20
#define STALL_MIN_STEPS 5
#define STALL_MIN_SHIFT 0.10
#define STALL_MIN_RANKS 3

/* ---- efficiency budget (§6.5) --------------------------------------------------- */

enum budget_line_id { BUDGET_USEFUL, BUDGET_OVERHEAD, BUDGET_DATA, BUDGET_COMM, BUDGET_OTHER,
		      BUDGET_NLINES };

struct budget_line {
	const char *name;         /* "useful_compute" "compute_overhead" "data_stall" ... */
	double seconds, fraction;
	bool recoverable;
	bool measured;            /* false: its seconds are 0 because nothing measures the line,
	                           * not a measured 0 (budget_measured below): shown n/a */
};

#define BUDGET_MFU_NA 256

struct budget {
	size_t n;                 /* records in the budget: natively not those without any phase
				   * (no steps of 0 s: STEPS TIMED above) */
	size_t unphased;          /* natively, the records without any phase left out */
	size_t steps;             /* the steps among n that MFU weighs FLOPs per step over:
				   * natively a record with a phase right after one of the same
				   * step (micro-batches) is no step of its own; n under --compat
				   * pytscope (pytscope counts every record) */
	size_t nranks;            /* analysis_budget_all: the ranks it adds; 0 in a rank's */
	double foreign;           /* natively, seconds of the phases in no line (a name outside
				   * data, forward, backward, optimizer, compute, comm and other:
				   * pytscope leaves them out of the wall, spec §6.5) */
	int foreign_metric;       /* the costliest of them (when foreign > 0) */
	bool foreign_more;        /* other such phases have time too */
	double wall, compute_measured, useful, overhead, efficiency;
	bool judged;              /* efficiency says something: MFU is known or some line
	                           * besides the compute is measured (else wall is the compute
	                           * alone and efficiency 1 by construction: shown n/a) */
	bool has_mfu;
	double mfu;
	char mfu_na[BUDGET_MFU_NA];   /* why has_mfu is false (analysis_budget_mfu_na) */
	const char *peak_table;   /* MFU's peak came from the GPU table (model/gpu_peaks.h):
	                           * that entry's name; NULL for --peak-tflops / run.json */
	struct budget_line line[BUDGET_NLINES];   /* fixed pytscope order; sums to wall */
	int recoverable[BUDGET_NLINES];  /* line ids with seconds > 0, by seconds desc */
	size_t nrecoverable;
};
/* FLOPs and peak: --flops-per-step / --peak-tflops, else run.json of the rank, else
 * (peak only, not under --compat pytscope) the GPU table for environment.gpu; the useful
 * compute is FLOPs x steps (budget.steps) / peak, at most the compute phases.
 * MEASURED LINES. useful_compute: the run records a compute phase (forward, backward,
 * optimizer, compute); compute_overhead: MFU is known (without FLOPs and peak all compute
 * counts as useful); data_stall, communication, other: the run records that phase (its
 * column exists in the model, from any rank). pytscope shows every line; tscope shows an
 * unmeasured one as n/a, and the whole run's line is measured when any rank's is (the
 * run's budget then adds only the ranks that measure it). */
/* Why b's efficiency is not judged (b->judged false): "only compute is recorded (no
 * data, comm or other phase)" or "no compute phase is recorded". */
const char *analysis_budget_unjudged(const struct budget *b);
/* Why b has no MFU: "no compute phase is recorded" (outside --compat pytscope MFU then
 * weighs nothing: n/a, not pytscope's 0%); BUDGET_NO_PEAK when neither FLOPs nor a peak
 * is given (nor a GPU named, natively); else which is missing or unusable and what to
 * give ("no flops_per_step; give --flops-per-step", "GPU 'NVIDIA H100 NVL' is not in the
 * peak table; give --peak-tflops", "peak_flops is negative; ...": run.json's value is used
 * only when a finite positive number, natively, else the GPU table's peak is), and
 * natively when FLOPs at that peak take longer than the compute phases recorded, where
 * pytscope caps useful compute at them: "FLOPs/peak imply 186.8% of the compute time:
 * check flops_per_step and the GPU table's T4 peak" (--compat pytscope keeps the cap). */
#define BUDGET_NO_PEAK "no FLOPs/peak (--flops-per-step, --peak-tflops)"
const char *analysis_budget_mfu_na(const struct budget *b);
/* The same, or "" when it is the reason already given for the efficiency (b not judged
 * for the same reason): what follows "MFU n/a" after the efficiency's n/a. */
const char *analysis_budget_mfu_na_after(const struct budget *b);
/* What b leaves out of its phase time, natively ("data_loading 1.8 s, a phase the
 * budget does not weigh (23.4% of the phase time)", the name sanitized), into buf; NULL
 * when nothing (always under --compat pytscope). */
const char *analysis_budget_left_out(const struct run *run, const struct budget *b, char *buf, size_t n);
/* Natively, when b's records hold fewer steps than records (micro-batches: b->steps),
 * what MFU counts ("10 in 40 records (records of one step in a row, micro-batches, are
 * one step; MFU counts the FLOPs per step 10 times)"), into buf; NULL when every record
 * is a step of its own (always under --compat pytscope). */
const char *analysis_budget_steps_text(const struct budget *b, char *buf, size_t n);
/* Line `line` of b's share of the rank wall as a percentage with prec decimals, on its side
 * of the bars of its phase's share (data, comm) and, the top recoverable line, of
 * EFFICIENCY.RECOVERABLE's or LOW_MFU's (analysis_share_text). Returns buf. */
const char *analysis_budget_share_text(const struct budget *b, int line, int prec, char *buf, size_t n);
/* b's MFU likewise, on its side of LOW_MFU's bars. */
const char *analysis_budget_mfu_text(const struct budget *b, int prec, char *buf, size_t n);
/* Post-warmup budget of rank ri (pytscope: ri = 0). NULL when empty or wall <= 0, and
 * (not under --compat pytscope) when one of its records' budget phases is not a
 * duration or their sums overflow (analysis_budget_why_none says which). */
const struct budget *analysis_budget(struct run *run, size_t ri);
/* Why rank ri has no budget when a phase value is the cause ("a negative phase value:
 * data at step 12 on rank 0", "a non-finite phase value: forward at step 7 on rank 0",
 * "the phase totals overflow on rank 0" as timing_why_na; --compat pytscope: one that made
 * its wall NaN or not positive) into buf; NULL when it has one or has no phase time. */
const char *analysis_budget_why_none(struct run *run, size_t ri, char *buf, size_t n);
/* The whole run: every rank's post-warmup budget added line by line (n = records of all
 * ranks, and what they leave out; MFU = summed useful / summed wall), but only of the
 * ranks whose budget measures every line some rank's measures (a phase a rank does not
 * record is not 0 s of it; nranks says how many are added). NULL when no rank has such
 * a budget, and when a rank has none for a phase value that is not a duration
 * (analysis_budget_why_none): not the other ranks' sum as the run's. */
const struct budget *analysis_budget_all(struct run *run);
/* Why analysis_budget_all() is NULL, into buf (the words of analysis_budget_why_none for
 * the first rank with a phase value that is not a duration, else of
 * analysis_budget_why_absent when no rank has a budget, else which line the lowest rank
 * with a budget does not measure that another rank does); NULL when the run has one. */
const char *analysis_budget_all_why(struct run *run, char *buf, size_t n);
/* b's top recoverable line (its recoverable[0]), or -1: none has time, or natively when
 * MFU is unknown and the compute overhead in its compute (recoverable too, unknown then,
 * less than all of the compute) could be larger (that line shorter than the compute).
 * --compat pytscope: pytscope's, the overhead 0 without MFU. */
int analysis_budget_top(const struct run *run, const struct budget *b);
/* The position of rank ri's first record the budget reads, the first after --warmup:
 * the rank's record count when every record is inside it. */
size_t analysis_budget_first(const struct run *run, size_t ri);
/* Why rank ri has no budget (analysis_budget NULL), or with ri -1 why no rank has one,
 * into buf: a phase value that is not a duration (analysis_budget_why_none's words, the
 * first rank's), no step record, every record inside --warmup, only phases pytscope does
 * not weigh, or no phase time after --warmup. The one explanation the Budget pane,
 * --print, the summary and the budget view give; a run of one rank is that rank (named).
 * NULL when it has one (ri -1: when some rank has one). */
const char *analysis_budget_why_absent(struct run *run, long ri, char *buf, size_t n);
/* Budget of rank ri over its records after --warmup whose step number is in [lo, hi]
 * (inclusive, so any step up to LONG_MAX has a window; not memoized; O(records in the
 * window) after a binary search). False when empty or wall <= 0, or
 * as analysis_budget() for a phase value that is not a duration. */
bool analysis_budget_window(struct run *run, size_t ri, long lo, long hi, struct budget *out);

/* A budget phase value (forward, backward, optimizer, compute, data, comm or other)
 * that is not a duration: NaN, infinite or negative. The loader keeps it as recorded, as
 * pytscope does; the native judgements that would take it (the budget and its rules,
 * stragglers and imbalance, the step walls and their comm share) are n/a and name it,
 * --compat pytscope keeps pytscope's figures. The first of a rank's records in record
 * order (in pytscope's phase order within a record: data, forward, ..., comm, other). */
#define PHASE_FLAW_NPHASES 7
struct phase_flaw {
	bool found;
	unsigned char phase;      /* index in the list above */
	long step;
	double value;
};
/* The first rank (by index) one of whose records holds a compute phase value (data,
 * forward, backward, optimizer, compute, other; with_comm: or comm) that is not a
 * duration, into buf ("rank 3 records a negative backward phase value at step 19");
 * false when none does. Over all of each rank's records (the index summary keeps them
 * with the budget sums: no body read); memoized per rank. use: per rank index, the ranks
 * to look at (NULL: every rank). */
bool analysis_ranks_flaw(struct run *run, bool with_comm, const bool *use, char *buf, size_t n);

/* ---- heatmap block aggregates -------------------------------------------------
 *
 * A series gives one value per (rank, column): the columns are the aligned steps, then
 * the later steps the ranks that go on have (steps.h steps_ncolumns; column
 * k < steps_naligned() is aligned step k, and a rank without a record at a later column
 * has it missing). The value is a phase metric id's (>= 0, its value or missing), or one
 * of the derived series below. For every rank the grid keeps a pyramid of blocks (level
 * l: blocks of 2^l columns) with the mean and the worst (maximum) of the present values,
 * built once per series on first use (about 12 B per rank and column, 16 B when some
 * cells are missing). heat_range() answers any [k_lo, k_hi) of columns in O(log S), so
 * drawing costs O(visible cells), independent of the run's size. */
enum heat_series {
	HEAT_COMPUTE = -1,        /* compute_r(s), as in the distributed analysis (missing where the
				   * record has no compute phase value, not 0) */
	HEAT_COMM = -2,           /* comm_r(s) (0 when the record has no comm) */
	HEAT_STEP_TIME = -3,      /* sum of every phase of the record */
	HEAT_REL_SLOWDOWN = -4,   /* compute_r(s) / median over the ranks with a compute there - 1
				   * (missing when median 0 or none, where the rank has no compute,
				   * and after the aligned steps: no median over every rank) */
};

struct heat_grid;
/* Grid of a series over every heatmap column (_all); NULL when there are no aligned steps
 * or the metric is unknown. A cell is the record of its step the distributed analysis
 * takes (natively, not a last record without any phase: internal.h NATIVE ALIGNMENT).
 * analysis_heatmap() covers the aligned steps at least: the index summary's grid over
 * them as it is held (restored) when the columns go on past them, for a caller that reads
 * only those (a comparison); the heatmap's grids and views take analysis_heatmap_all(). */
const struct heat_grid *analysis_heatmap(struct run *run, int series);
const struct heat_grid *analysis_heatmap_all(struct run *run, int series);
/* Build (or bring up to date) the grids of n series at once, so the ones that share
 * work share it: HEAT_COMPUTE and HEAT_REL_SLOWDOWN both missing are filled in one pass
 * that reads each record's compute once (the index summary holds both). Each grid is
 * then what analysis_heatmap_last() returns for its series, bit for bit. */
void analysis_heatmaps(struct run *run, const int *series, size_t n);
/* Bytes building series' grid (analysis_heatmap_all) would allocate (an estimate); 0
 * when it is built or restored from the index summary with every column. */
size_t analysis_heat_cost(struct run *run, int series);
/* Read every heatmap row the index summary holds back and check it, as a frame checks
 * what it draws (a damaged one diagnosed, the summary invalidated, the rows computed from
 * the steps): `index --status --verify`. At most HEAT_WHOLE_ROWS rows are kept. Returns
 * the rows read; *failed when a row failed (now or since the open). */
size_t analysis_heat_read_back(struct run *run, bool *failed);
size_t heat_nsteps(const struct heat_grid *g);   /* columns (steps_ncolumns, or steps_naligned) */
size_t heat_nranks(const struct heat_grid *g);
/* Mean and worst of rank ri over columns [k_lo, k_hi). False when no present value. */
bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean,
		double *worst);
/* The worst of rank ri in each of n buckets of spc columns from c0 (NaN: no value), as
 * heat_range() gives them: one block of the pyramid per bucket when spc is a power of two
 * and c0 a multiple of it (one pass over a run of one level), else heat_range(). */
void heat_row_buckets(const struct heat_grid *g, size_t ri, size_t c0, size_t spc, size_t n, float *worst);
/* The colour scale (model/grid.h grid_colour_scale) kept in the index summary for this
 * grid as it is now; false when there is none (not indexed, or the grid grew since). */
bool heat_kept_scale(const struct heat_grid *g, double *lo, double *hi);
/* The value of rank ri at every column (heat_nsteps() floats, NaN where missing),
 * read in place: for passes over every cell (a run comparison). */
const float *heat_row(const struct heat_grid *g, size_t ri);

/* ---- live runs (follow mode) ---------------------------------------------------
 *
 * When a live run grows by appends only (steps_refresh: every rank gained step numbers
 * after all the steps it had; no rank added or reloaded), the aligned steps known so far
 * keep their index and records and the new ones come after them. Then the heatmap
 * pyramids and the per-step medians are not dropped: on next use they compute only the
 * new aligned steps and columns, per rank from its first cell that could still change
 * (and the pyramid blocks that cover them), bit for bit what a fresh build gives (a grid
 * that gets its first missing cell is rebuilt whole, and every grid when a column
 * appeared between the old ones: a leading rank with a gap another rank then fills). The results
 * over every record (timing, memory, convergence, budgets, distributed) are dropped and
 * recomputed on next use, unless lagging is allowed: then they are held and keep
 * answering from the records they saw, until analysis_catch_up(). So a follower can
 * recompute those O(records) passes at the pace it chooses (ui/app.c: every max(interval,
 * 20 x their CPU cost)) and say how old they are. Any other change drops everything. */
void analysis_allow_lag(struct run *run, bool allow);   /* false: catch up now */
/* Drop the held results: the next use recomputes them from every record. */
void analysis_catch_up(struct run *run);
/* True while held results predate records appended since. */
bool analysis_lagging(const struct run *run);
/* Catching up off the caller's thread (the explorer while following: keys are answered
 * meanwhile). analysis_recompute_start() starts a worker thread that computes the
 * distributed analysis (the one pass over every record the panes need at once) from the
 * step model as it is, when results are held (lagging) and no worker runs; false when
 * none was started. Until the worker is published or waited for, the step model must
 * not change (no follow_poll, no reload): the caller keeps answering from the held
 * results, and may read the model and the cache as usual (the worker writes only its
 * own result). analysis_recompute_running(): a worker was started and not published.
 * analysis_recompute_publish(): when the worker is done, its result replaces the held
 * ones in one step (the held per-rank results are dropped and recomputed on next use;
 * lagging ends) and true is returned; else false at once. analysis_recompute_wait()
 * waits for the worker and publishes it (analysis_catch_up() and freeing the model do
 * it too). TSCOPE_TEST_RECOMPUTE_HOLD=SECONDS (tests) keeps a worker's result back that
 * long, unless waited for. */
bool analysis_recompute_start(struct run *run);
bool analysis_recompute_running(const struct run *run);
bool analysis_recompute_publish(struct run *run);
void analysis_recompute_wait(struct run *run);

/* Freed by the step model (steps_model_free). */
void analysis_cache_free(void *cache);

#endif
