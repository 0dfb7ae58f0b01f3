/* SPDX-License-Identifier: MIT */
/* internal.h: what the files of model/compare/ share and nobody else sees: the memo of
 * a comparison's analyses, the pytscope diff's constructor, the sweep and DASF pairs' views. */
#ifndef MODEL_COMPARE_INTERNAL_H
#define MODEL_COMPARE_INTERNAL_H

#include "model/compare/compare.h"

struct cmp_memo {
	struct pydiff *pydiff;
	bool pydiff_done;
	struct cmp_ranks *ranks;
	bool ranks_done;
	struct cmp_finding *findings;
	size_t nfindings;
	struct cmp_fns *fns;      /* a DASF pair's functions (dasf.c) */
	char *workload;           /* compare_workload_diff's text */
	bool workload_done;
	int series;               /* compare_series */
	char step_time_why[400];  /* its reason, "" when none */
	bool series_done;
	int side_series[2];       /* compare_side_series */
	bool side_series_done;
};

/* ranks.c: the memo's per-rank deltas released. */
void compare_ranks_free(struct cmp_ranks *r);

struct steps_model;
/* The step numbers both runs have: their aligned indexes ka[j] in A and kb[j] in B
 * (malloc'd), ascending. Returns the count. */
size_t compare_common_steps(const struct steps_model *ma, const struct steps_model *mb, size_t **ka,
			    size_t **kb);

/* compare.c: the ranks of m with step records (a rank without is left out of the
 * comparison as one of the other run only would be). */
size_t compare_ranks_recorded(const struct steps_model *m);
/* compare.c: the per-rank series A and B are compared by (once per comparison): compute
 * (HEAT_COMPUTE) when both have several ranks with step records and a compute to weigh
 * (analysis_compute_unweighable_grid over the ranks both have step records of, the ones
 * compared: a compute phase, not 0 everywhere, no value that is
 * not a duration, ...) that leaves out no phase of theirs (a phase name outside pytscope's
 * COMPUTE_PHASES and comm: compute would not see a rank slower there); else each rank's
 * step time (HEAT_STEP_TIME), and *why (may be NULL) says why for runs of several ranks,
 * with that test's reason ("B's compute cannot be weighed (rank 1 records a NaN forward
 * phase value at step 10)", "compute leaves out phases fwd, bwd of A and B"; NULL when
 * none). The step wall and the time lost read this series. */
int compare_series(struct compare *c, const char **why);
/* The heatmap series the ranks of side 0 (A) or 1 (B) are compared by: compare_series(),
 * but when both sides' steps are their traces' ProfilerSteps (trace_steps_only) and
 * compared by compute or of a single rank, each side's phase `compute` (a metric id): the
 * GPU time in compute kernels, the glossary's compute in the trace views (the steps view's
 * compute_ms), not the distributed analysis' every phase but comm (the step less its
 * exposed comm, which the step wall and the time lost keep). */
int compare_side_series(struct compare *c, int side);
/* When one side records the other's phases and more (the other stopped recording a phase:
 * its time is missing there, not 0), the phases of that side only into buf ("phase data
 * recorded in A only", sanitized) and true; false when each records a phase the other
 * lacks (other names for the parts of a step: compare_series says so) or the same. */
bool compare_phases_one_side(const struct steps_model *ma, const struct steps_model *mb, char *buf, size_t n);

/* pydiff.c */
void pydiff_free(struct pydiff *d);

/* sweep.c: the view diff_sweep (views.h compare_views). */
struct table *compare_build_diff_sweep(struct compare *c, char *err, size_t errn);

/* sweep.c: a finding about one GenAI-Perf series (sweep_finding_series: a knee, a latency
 * fit's) and that series' like on the other side, which judges it there: the series of
 * the same name among those that pair with it (diff_sweep's pair key: the same workload
 * keys and crossed stimuli; any, one workload a side), else the one that pairs with it
 * when neither side has another that does (m-small's series against llama-70b's). */
struct sweep_series;
/* Finding f of side `side` of c (0: A, 1: B) is about one series: *own, and its like on
 * the other side into *like, NULL when there is none, why then into why (may be NULL):
 * "no series m-*", "no model=x" when the other has no series of that workload. False for
 * another finding. */
bool compare_sweep_series(struct compare *c, int side, const struct finding *f, const struct sweep_series **own,
			  const struct sweep_series **like, char *why, size_t n);
/* The like there (not NULL) of series finding f of side `side`, the other side named
 * other_name, could not have given f, why into why: it varies another stimulus or none
 * ("B's series varies request_rate, not concurrency"), has no latency fit for a fit's
 * finding, or, for SWEEP.SATURATION, its knee test did not compare the two levels f's
 * did (sweep_knee_compared: "no concurrency 16"). Checked after its not-judged items. */
bool compare_sweep_unjudged(struct compare *c, int side, const struct finding *f, const struct sweep_series *like,
			    char other_name, char *why, size_t n);
/* A persisting pair of SWEEP.SATURATION a of A and b of B whose knees are at other
 * levels, into why ("concurrency 8 in A, 4 in B"); "" otherwise. */
void compare_sweep_persisting(struct compare *c, const struct finding *a, const struct finding *b, char *why,
			      size_t n);

/* dasf.c: the view diff_functions (views.h compare_views) and the memo's release. */
struct table *compare_build_diff_functions(struct compare *c, char *err, size_t errn);
void compare_fns_free(struct cmp_fns *m);

#endif
