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
	char step_time_why[200];  /* its reason, "" when none */
	bool series_done;
};

/* ranks.c: the memo's per-rank deltas released. */
void compare_ranks_free(struct cmp_ranks *r);

struct steps_model;
/* The step numbers both runs have: their aligned indexes ka[j] in A and kb[j] in B
 * (malloc'd), ascending. Returns the count. */
size_t compare_common_steps(const struct steps_model *ma, const struct steps_model *mb, size_t **ka,
			    size_t **kb);

/* The per-rank series A and B are compared by (once per comparison): compute
 * (HEAT_COMPUTE) when both have several ranks and a compute to weigh
 * (analysis_compute_unweighable_grid: a compute phase, not 0 everywhere) that leaves out
 * no phase of theirs (a phase name outside pytscope's COMPUTE_PHASES and comm: compute
 * would not see a rank slower there); else each rank's step time (HEAT_STEP_TIME), and
 * *why (may be NULL) says why for runs of several ranks ("no compute to weigh in B",
 * "compute leaves out phases fwd, bwd of A and B"; NULL when none). */
int compare_series(struct compare *c, const char **why);

/* pydiff.c */
void pydiff_free(struct pydiff *d);

/* sweep.c: the view diff_sweep (views.h compare_views). */
struct table *compare_build_diff_sweep(struct compare *c, char *err, size_t errn);

/* dasf.c: the view diff_functions (views.h compare_views) and the memo's release. */
struct table *compare_build_diff_functions(struct compare *c, char *err, size_t errn);
void compare_fns_free(struct cmp_fns *m);

#endif
