/* SPDX-License-Identifier: MIT */
/* compare.h: a comparison of two runs, A and B (DESIGN §11: two runs are never merged).
 *
 * A struct compare owns two struct run opened separately with the same options, plus
 * the analyses of the pair, each computed on first call and memoized (not thread-safe:
 * one thread, as the run analyzers):
 *   - pytscope 0.2.1's `diff` (pytscope.md §6.8) over the lowest rank of each side:
 *     environment and config differences, six metrics, first loss divergence, notes (the
 *     metrics and losses of the lowest rank both have when those differ);
 *   - per-rank deltas over the common part: ranks matched by rank id, each rank compared
 *     over the step numbers it has in both runs (not only the steps every rank has);
 *     different world sizes or step ranges are stated, and what was left out (ranks of
 *     one run only, or without step records, which count as absent; a rank's steps in one
 *     run only, as the stretches they form) is named;
 *   - the noise-aware regression test (below) and the verdict sentence;
 *   - findings that appeared in B, were resolved, persist, or could not be judged on the
 *     side that lacks them (the rule had nothing to judge there: not new nor resolved),
 *     matched in model/compare/findings.c.
 * Views over the pair (diff_ranks, diff_env, ...) live in model/compare/views.c.
 *
 * REGRESSION TEST. For a rank present in both runs, d_s = compute_B(s) - compute_A(s)
 * over the common steps s (compute as in the distributed analysis: pytscope's
 * COMPUTE_PHASES; for two trace sets the GPU time in compute kernels; the step time for a
 * single-rank run, a run whose compute cannot be weighed over the ranks compared, or a run
 * with a phase compute leaves out: compare_series). With n values, mean m and spread
 * sigma = 1.4826 * MAD(d) (the robust standard deviation of the paired differences,
 * i.e. the run-to-run noise of that rank's steps), the rank REGRESSED when
 *     m > 3 * sigma / sqrt(n)   and   m > 1% of its mean compute in A,
 * and IMPROVED when -m passes the same test; with fewer than CMP_MIN_STEPS values the
 * noise is not estimated and nothing is judged (no rank regressed or improved, B neither
 * slower nor faster: the verdict says "not judged"). Identical runs give d = 0 everywhere:
 * "no difference". A side whose every compared value is 0 measured no time: nothing is
 * judged (cmp_ranks.unmeasured); a rank whose every compared value is 0 on a side, the
 * others measuring time, is not judged nor part of the wall (cmp_rank.unmeasured: "not
 * compared: rank 3 (no time measured in A)"). A side that records the other's phases and
 * more (the other stopped recording a phase: its time is missing there, not 0) is not
 * judged either, the phases named (cmp_ranks.one_side). The per-step wall (the slowest common rank's
 * compute plus the largest comm of the common ranks; by step time, the slowest common rank's
 * step time), over the steps every common rank has in both runs, is tested the same way for
 * the headline; not when a side's mean wall is not above 0 (no time measured).
 * ONSET in B of a regressed rank: flag the common steps whose d_s exceeds
 * max(3 * sqrt(2) * 1.4826 * MAD of the rank's compute in A, 1% of its mean in A) (d_s
 * differs two noisy steps: sqrt(2) times the noise of one); the onset is
 * the first step of the contiguous stretch maximising sum(flag - 1/2), when that
 * stretch spans at least ANALYSIS_ONSET_MIN_STEPS steps (else none). */
#ifndef MODEL_COMPARE_H
#define MODEL_COMPARE_H

#include "model/run.h"

/* Common steps the regression test needs to estimate the noise (the straggler tests'
 * STRAG_MIN_JUDGE, steps/analysis.h). */
#define CMP_MIN_STEPS 16

struct compare {
	struct run *a, *b;
	const char *family;       /* subsystem name of both sides: "steps", "trace", ... */
	struct cmp_memo *memo;    /* analyses, owned (compare.c) */
};

/* ---- pairing ------------------------------------------------------------------------ */

struct run_identity;
/* Do the runs found in the PATHs (model/identity.h) form a comparison? Exactly two runs
 * of one family (a step run without step logs too: the report then says pytscope's
 * "Both run directories must contain steps."), DASF runs excepted (no DASF comparison:
 * refused, named), and no PATH inside another (identity.h: nested, refused). */
bool compare_is_pair(const struct run_identity *id);
/* Family name for messages: "steps", "trace", "sweep", "dasf". */
const char *compare_family_name(int family);
/* Open both runs of a pair (each as run_open() opens its group's paths). Never NULL. */
struct compare *compare_open(const struct run_identity *id, const struct opts *opts, struct load_ctx *hooks);
/* A pair of runs already open (taking ownership), of the given family name. */
struct compare *compare_new(struct run *a, struct run *b, const char *family);
void compare_free(struct compare *c);
/* The run of side 0 (A) or 1 (B). */
struct run *compare_side(const struct compare *c, int side);

/* ---- pytscope diff (§6.8) ----------------------------------------------------------- */

/* One differing key; a and b are the values as pytscope prints them ("—" for null,
 * "<absent>" for a missing key, %.4g for floats, Python str() otherwise). Unsanitized.
 * na, nb: the value of a JSON number (num_a, num_b), in full (a and b may be rounded). */
struct cmp_field {
	char *key, *a, *b;
	double na, nb;
	bool num_a, num_b;
};

enum { CMP_NMETRICS = 6 };
struct cmp_metric {
	const char *key;          /* final_loss best_loss mean_step_ms steps_per_sec peak_alloc_mb n_steps */
	double a, b;
	bool has_a, has_b;        /* false: None */
};

struct pydiff {
	char *name_a, *name_b;    /* run.json name (Python str of it), else "A" / "B" */
	/* The rank of each side whose metrics and losses are read (run.json is always each
	 * side's lowest rank's): each side's lowest; when their ids differ (lowest_differ),
	 * the lowest rank id both have step records of, else each side's lowest still
	 * (rank_a != rank_b: not judged, different ranks' losses are not expected to match).
	 * pytscope's single-rank layout: index 0 each. */
	size_t ri_a, ri_b;        /* rank indexes (steps.h) */
	int rank_a, rank_b;       /* their ids */
	bool lowest_differ;
	struct cmp_field *env, *config;
	size_t nenv, nconfig;
	/* The workload keys (WORKLOAD, below) whose values differ as Python compares them,
	 * "<absent>" on a side without: config's at any depth, keyed by their path from
	 * config ("train.batch_size"), then the environment's. */
	struct cmp_field *workload;
	size_t nworkload;
	struct cmp_metric metric[CMP_NMETRICS];
	long first_divergence;    /* index into the loss list, -1 when none */
	bool identical;           /* losses non-empty and equal */
	size_t nloss_a, nloss_b;  /* the losses of each side's lowest rank */
	char **note;              /* the Reproducibility notes, in order, deduplicated */
	size_t nnote;
	/* tscope-tui's notes (the Overview, the default report): pytscope's, but none that
	 * the input does not bear out: without a loss on a side, "not judged" instead of
	 * NONDETERMINISM or "Reproducible" and no divergence step; a side without run.json is
	 * said to have none, not a config or environment that differs nor an unset
	 * PYTHONHASHSEED. */
	char **native;
	size_t nnative;
};
/* Python's format(x, ".4g") (or "+.4g" with sign): C's %.4g, but "nan", never "-nan". */
void compare_g4(char *buf, size_t n, double x, bool sign);
/* True when both sides have step records on their lowest rank (pytscope's condition). */
bool compare_has_steps(const struct compare *c);
/* NULL unless compare_has_steps(). */
const struct pydiff *compare_pydiff(struct compare *c);

/* ---- trace environment -------------------------------------------------------------- */

/* What the lowest rank's trace of A and of B records of the hardware and software
 * (trace.h: gpu, cuda_runtime_version, cuda_driver_version, backend): one entry per key either
 * side records, a or b NULL where that side does not; differs when they are not the same.
 * The strings are the traces' (unsanitized). Returns the number of entries (0: a side
 * has no trace, or neither records any). */
enum { CMP_TRACE_ENV_KEYS = 4 };
struct cmp_env {
	const char *key, *a, *b;
	bool differs;
};
size_t compare_trace_env(const struct compare *c, struct cmp_env out[CMP_TRACE_ENV_KEYS]);

/* ---- per-rank deltas -------------------------------------------------------------- */

/* Step numbers of one rank that one run has and the other lacks (or has with no value):
 * count, range, and the stretches of consecutive step numbers they form, ascending, when
 * there are at most CMP_SPAN_RUNS of them (nruns > CMP_SPAN_RUNS: more, not kept), so
 * that steps 0-19 and 40-59 are never said as 0-59. */
enum { CMP_SPAN_RUNS = 4 };
struct cmp_span {
	size_t n;
	long lo, hi;              /* present when n > 0 */
	size_t nruns;
	struct { long lo, hi; } run[CMP_SPAN_RUNS];
};

struct cmp_rank {
	int rank;                 /* rank id */
	bool in_a, in_b;
	size_t n;                 /* steps of this rank with a value in both runs */
	struct cmp_span a_only, b_only; /* this rank's steps in A only, in B only: not compared */
	struct cmp_span novalue_a, novalue_b; /* steps in both runs with no value in A, in B (no
	                          * phase recorded there, or a NaN): not compared */
	char novalue_why_a[64], novalue_why_b[64]; /* why at the first of them ("a NaN forward
	                          * phase value", "no compute phase value"; sanitized) */
	double a_ms, b_ms;        /* mean compute per common step (ms), present when n > 0 */
	double a_lost_s, b_lost_s; /* time lost at the barrier: the distributed analyses' when
	                           * every rank of both runs was compared, measuring time, over
	                           * the same steps; else the wait for it of the other ranks of
	                           * the step wall alone (the compared ranks measuring time on
	                           * both sides) over the wall's steps, on each side */
	bool has_lost;            /* this rank is in the step wall and the pair has a time lost
	                           * (cmp_ranks.no_lost "") */
	double delta_ms, noise_ms; /* mean of d (ms) and its test threshold 3 sigma / sqrt(n) */
	bool regressed, improved;
	bool judged;              /* the noise test ran: n >= CMP_MIN_STEPS and both runs
	                           * measured time for this rank (cmp_ranks.unmeasured, below) */
	const char *unmeasured;   /* "A", "B", "A and B": this rank's every compared value is 0
	                           * there (no time measured) while its side measured time on
	                           * another rank: not judged, not in the step wall; NULL */
	long onset_b;             /* step number, -1 when none */
};

struct cmp_ranks {
	struct cmp_rank *v;       /* union of the rank ids, ascending */
	size_t n;
	size_t *order;            /* indexes into v: regressed ranks by regression size, largest first */
	size_t nregressed, nimproved;
	size_t a_ranks, b_ranks, ncommon_ranks;
	size_t a_steps, b_steps;  /* distinct step numbers of each run (over all its ranks) */
	long a_lo, a_hi, b_lo, b_hi; /* first and last step number of each run */
	size_t ncommon;           /* the most steps a common rank was compared over */
	size_t ncommon_min;       /* the fewest, of the ranks compared over some */
	size_t ncompared_ranks;   /* common ranks compared over some step (with those unmeasured) */
	size_t nunmeasured;       /* of them, ranks with no time measured on a side (cmp_rank.unmeasured) */
	long lo, hi;              /* first and last step compared on some rank (-1: none) */
	size_t nleft;             /* common ranks with steps in one run only (left out) */
	bool has_wall;
	char no_wall[160];        /* why not, when !has_wall ("one side has a single rank", "the
	                           * step wall of A is 0 at every such step: no time measured") */
	size_t nwall;             /* steps of the wall: every compared rank has them in both */
	long wall_lo, wall_hi;    /* their range */
	double a_wall_ms, b_wall_ms, wall_noise_ms; /* mean wall per common step */
	bool slower, faster, identical; /* B vs A per step (noise-aware); identical: every d = 0 */
	bool judged;              /* ncommon >= CMP_MIN_STEPS, no side unmeasured and no phase
	                           * on one side only (one_side): the regression test ran */
	bool by_step_time;        /* the ranks' series is their step time, not compute */
	char no_lost[160];        /* why no rank has a time lost ("the ranks are compared by step
	                           * time and time lost is read off the compute", "fewer than 2
	                           * ranks compared measure time on both sides", one_side's
	                           * text), "" when the ranks of the wall have one */
	const char *step_time_why; /* why ranks of several ranks are compared by step time, not
	                           * compute ("no compute to weigh in B", "compute leaves out
	                           * phases fwd, bwd of A and B": compare_series); NULL */
	const char *unmeasured;   /* "A", "B", "A and B": every value compared is 0 on that side
	                           * (no time measured), or "A or B": each rank's on one side or
	                           * the other: nothing judged; NULL */
	char one_side[160];       /* "phase data recorded in A only": one side records the other's
	                           * phases and these too (the other stopped recording them: their
	                           * time is missing there, not 0), so no rank is judged, nor the
	                           * step wall compared (no_wall says it); "" */
};
/* NULL when a side has no step records at all. */
const struct cmp_ranks *compare_ranks(struct compare *c);
/* compare_ranks() will not be NULL, without computing it (a frame's hint row). */
bool compare_has_ranks(const struct compare *c);
/* Regression size of ranks entry i (seconds: the increase in time lost, or of compute
 * over the common steps when there is no time lost), the sort key of `order`. */
double compare_regression_s(const struct cmp_rank *r);
/* What `order` sorts the regressed ranks by, as "by increase in time lost", "by increase
 * in compute over the common steps" or "by increase in step time over the common steps"
 * (the ranks have no time lost: cmp_ranks.no_lost). */
const char *compare_regression_by(const struct cmp_ranks *r);

/* Room for the whole of compare_verdict() and compare_scope() (several summary lines). */
enum { CMP_TEXT_MAX = 2048 };
/* The Overview's first line: "B is 7.9% slower per step; rank 5 regressed from step 100"
 * (or why it could not be judged), then, when --ranks left ranks out of a side, "; over
 * the ranks loaded only (...)" (compare_subset; not shown as good). Always filled. */
void compare_verdict(struct compare *c, char *buf, size_t n);
/* A subset of a side was loaded (--ranks left rank dirs, or a trace set's ranks, out:
 * steps_subset_scope): the ranks loaded of each side, "A and B each: --ranks 4-7 left 4
 * rank dirs out", or "A: --ranks 4-7 left 4 rank dirs out; B: every rank loaded", in buf
 * and true; false, buf "", when each side was loaded whole (or a sweep or DASF pair).
 * Every verdict across ranks of the pair holds for those ranks only and says so. */
bool compare_subset(const struct compare *c, char *buf, size_t n);
/* What a figure over each side whole covers: "all ranks and steps of each side", or, when
 * --ranks left ranks out (compare_subset), "the ranks loaded and all steps of each side". */
const char *compare_sides_whole(const struct compare *c);
/* What the budget of each side whole covers: compare_sides_whole(), or under --warmup N
 * (a step pair) "all ranks of each side, each rank's step records after --warmup N"
 * (the ranks loaded, under --ranks), then, when a side's run budget adds not every rank,
 * "; only the ranks that measure every line: 1 of 2 in A, 2 of 2 in B", in buf. */
const char *compare_budget_whole(const struct compare *c, char *buf, size_t n);
/* Under --warmup N (a step pair), what it leaves as it is, in buf and true: the
 * per-rank comparison and its step wall read every common step (as the distributed
 * analysis, which no warmup slices), the pytscope metrics and the budget skip each
 * rank's first N records; false, buf "", without --warmup. */
bool compare_warmup_scope(const struct compare *c, char *buf, size_t n);
/* What differs in scope: world sizes, step ranges, and what was not compared ("" when
 * both runs cover the same ranks and steps). */
void compare_scope(struct compare *c, char *buf, size_t n);
/* WORKLOAD. What differs between A and B in the work of a step, by the lowest rank's
 * run.json (pytscope's diff, compare_pydiff): the config keys model, batch size, micro
 * batch, gradient accumulation and sequence length (workload.h: model, model_name,
 * model_id, batch_size, global_batch_size, local_batch_size, micro_batch_size,
 * train_batch_size, train_micro_batch_size_per_gpu, per_device_batch_size,
 * per_device_train_batch_size, per_gpu_train_batch_size, gradient_accumulation_steps,
 * grad_accum_steps, accumulate_grad_batches, seq_len, seq_length, sequence_length,
 * max_seq_len, max_seq_length, block_size, context_length; in any case, camelCase or
 * snake_case) at any depth of config ("train.batch_size"), the environment's gpu and
 * gpu_count, and world_size, each that both sides set, as "batch_size 16 -> 32, gpu A ->
 * B" (sanitized); a top-level config key the ranks of a side set otherwise, by every
 * rank's run.json, where each value is ("32 -> 32 on rank 0 / 64 on ranks 1-3"); for a sweep
 * pair the GenAI-Perf workload keys (sweep.h enum sweep_wl) that both record, each side's
 * values ("model a -> a / b");
 * for a trace pair the lowest rank's trace's gpu and distributedInfo world_size, each
 * that both record; "" when none (or a DASF pair). Then
 * per-step times are not like for like: the verdict says so and calls no rank regressed
 * or improved (slower or faster beyond noise instead). */
void compare_workload_diff(struct compare *c, char *buf, size_t n);
/* The workloads differ (compare_workload_diff is not empty). */
bool compare_unlike(struct compare *c);
/* How a changed rank reads: "regressed" / "improved", or "slower" / "faster" when the
 * workloads differ (unlike: compare_unlike). */
const char *compare_change_word(bool regressed, bool unlike);
/* What the comparison left out, as "rank 3 (no step records in B), ranks 4-7 (only in
 * B), rank 2 steps 100-199 (100 only in A)", steps of one side in stretches ("ranks 0-3
 * steps 0-19, 40-59 (40 only in A)"; past CMP_SPAN_RUNS of them "steps in 0-300 (41 only
 * in A)") ("" when nothing). */
void compare_left_out(const struct cmp_ranks *r, char *buf, size_t n);
/* Compare mode's Overview lines, s emptied first: the verdict, A and B, the scope, what
 * --warmup leaves as it is (compare_warmup_scope), the step wall of both runs, the
 * findings new / resolved / persisting and pytscope's reproducibility notes (flagged
 * prose: whole sentences). A verdict or scope longer than a summary line goes on as
 * lines under the key "", cut between clauses, never mid-word; the verdict's lines are
 * prose too. */
struct summary;
void compare_summary(struct compare *c, struct summary *s);

/* ---- heatmap ----------------------------------------------------------------------------- */

/* The comparison heatmap (model/compare/grid.c), a grid provider (model/grid.h) whose
 * model is the struct compare, handed out by compare mode's Heatmap tab (views.h
 * compare_tabs): common ranks x common steps of the compute per step (step time for
 * single-rank runs), as B - A (metric 0, "delta B-A"; src->diverging: signed, larger is
 * slower in B), A or B. open() is false with a reason when nothing is in common. */
enum cmp_grid_metric { CMP_GRID_DELTA, CMP_GRID_A, CMP_GRID_B, CMP_GRID_NMETRICS };
struct grid_provider;
extern const struct grid_provider compare_grid;

/* ---- findings ------------------------------------------------------------------------ */

/* A finding of one run only is new in B (resolved) when A's (B's) rules could judge it,
 * else not judged in A (in B): the other run has no records of the rule's family (a
 * finding of the traces beside runs without), a single rank for a rule across ranks, not
 * what the finding is about ("no rank 3", "no host gpu-1"; a rule of the lowest rank's
 * records: "its rules read rank 0"), not the steps it is about (of its evidence steps,
 * fewer than all or than CMP_MIN_STEPS: "no step 300", "rank 2 has only 2 of steps
 * 18-39"), an item of its not-judged list stands for the finding's id (findings.h
 * findings_not_judged_list: "no memory recorded"), or, for a rule across the ranks of
 * step records, it does not align across ranks enough of the steps the finding's slowness
 * lies on ("B compares no rank on steps 0-29", "B compares the ranks on only 10 of steps
 * 10-29"; findings.c ALIGNED STEPS); a subset's ranks left out are no reason for the
 * ranks it loaded. */
enum cmp_status { CMP_NEW, CMP_RESOLVED, CMP_PERSIST, CMP_UNJUDGED_A, CMP_UNJUDGED_B, CMP_NSTATUS };
struct cmp_finding {
	enum cmp_status status;
	const struct finding *a, *b; /* NULL on the side that lacks it, or that flags its rank
	                           * past the ranks its findings list (CMP_PERSIST) */
	char why[160];            /* CMP_UNJUDGED_*: why that side could not judge it ("no trace",
	                           * "a single rank", "no memory recorded"); CMP_PERSIST: what
	                           * each side names when it differs ("rank 7 in A, rank 2 in B",
	                           * "DIST.STRAGGLER in A", "keys lr in A; lr, batch_size in B"),
	                           * or that a side's finding is past the ranks it lists ("in
	                           * B, beyond the 8 ranks it lists"); sanitized, else "" */
};
/* Findings of A and B matched by id and what they are about (model/compare/findings.c
 * MATCHING): the evidence rank of a rule about a rank (a straggler on rank 3 and one on
 * rank 5 are two findings), the id alone for a rule that names one rank of several (the
 * idlest GPU, the lowest rank), the run.json keys for ranks that differ (lr in A and
 * batch_size in B are two findings), the node of a slow node; evidence on another grid
 * (DASF's worker rows) by name alone: its row numbers differ. A rank slow on both sides
 * but past the ranks one side's findings list (8 at most) persists, never resolved or new.
 * New in B first, then resolved, not judged in A, not judged in B, then persisting, each
 * in B's (resp. A's) order. */
const struct cmp_finding *compare_findings(struct compare *c, size_t *n);
/* "new" "resolved" "persisting" "not judged in A" "not judged in B" */
const char *compare_status_name(enum cmp_status s);
/* The status with its reason: "not judged in B (no memory recorded)"; buf holds it when
 * there is one. */
const char *compare_finding_status(const struct cmp_finding *f, char *buf, size_t n);

/* A rule the rules of A, of B or of both could not judge, with no finding of it on either
 * side to say so: an item of a side's not-judged list (findings.h findings_not_judged_list)
 * that stands for none of the other side's findings (such a finding is not judged there:
 * compare_findings). "0 resolved" says nothing of memory when A records none. */
struct cmp_unjudged {
	char *text;               /* the item, "what (why)": "memory (no memory recorded by rank 0)" */
	char *ids;                /* the finding ids it stands for, space-separated, "" for none */
	bool in_a, in_b;          /* the sides that could not judge it */
};
/* Those items of A, each with B's item of the same ids, part and text when B has it
 * (in_a and in_b), then B's own; an item is the other side's too when that side has no
 * records of the item's family (its rules' family: a side without step records judged no
 * memory either). First, when a side has no record at all (findings_unjudged), an item of
 * its own, "every rule (no step record, trace event or other record)", ids "". *n;
 * malloc'd (compare_unjudged_free), NULL when none. */
struct cmp_unjudged *compare_unjudged(struct compare *c, size_t *n);
void compare_unjudged_free(struct cmp_unjudged *v, size_t n);
/* "not judged in A and B", "not judged in A", "not judged in B" */
const char *compare_unjudged_status(const struct cmp_unjudged *u);

#endif
