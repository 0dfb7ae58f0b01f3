/* SPDX-License-Identifier: MIT */
/* internal.h: private to the step family (model/steps/): the loader entry points
 * registered by subsystem.c, and for the analyzers (analysis*.c) the memo cache kept in
 * the step model, the phase sets and per-record sums every analysis shares, and the
 * cross-file helpers (warmup slice, pass threads, per-step medians). Other modules use
 * model/steps/steps.h and model/steps/analysis.h only. */
#ifndef MODEL_STEPS_INTERNAL_H
#define MODEL_STEPS_INTERNAL_H

#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"

struct load_ctx;
struct opts;

/* The pytscope loader (load.c). */
int pytscope_probe(const char *path, const struct opts *opts);
int pytscope_load(struct load_ctx *ctx, const char *path);

/* Views (views.c: ranks, steps, heatmap, budget; snake_case columns) and pytscope's
 * finding rules (rules.c) in pytscope's registration order (orders 100..610;
 * DIST.EXPOSED_COMM 430 lives with the traces), registered by subsystem.c. */
#define STEPS_NVIEWS 4
#define STEPS_NRULES 13
extern const struct view_def steps_views[STEPS_NVIEWS];
extern const struct finding_rule steps_rules[STEPS_NRULES];

/* Ranks per task of the row passes (distributed, heatmap). */
#define ANALYSIS_RANK_CHUNK 8

struct heat_grid {
	int series;
	size_t nranks, nsteps;
	size_t nlevels;
	float **val;              /* [level] -> nranks * level_len[level]: mean (level 0: value) */
	float **worst;            /* [level] (level 0 shares val) */
	uint32_t **count;         /* [level >= 1] present values per block; all NULL when no
				   * cell is missing (the count is then the block's coverage) */
	size_t *len;              /* blocks per level */
};

struct rank_cache {
	bool timing_done, memory_done, conv_done, budget_done;
	struct timing *timing;
	struct memory *memory;
	struct convergence *conv;
	struct budget *budget;
};

struct analysis_cache {
	size_t nranks;
	struct rank_cache *rank;
	bool budget_all_done;
	struct budget *budget_all;
	bool dist_done;
	struct distributed *dist;
	double *cmed;             /* analysis_step_medians(), NULL until first needed */
	struct heat_grid **heat;
	size_t nheat;
};


struct phase_sets {
	int *compute;             /* phase ids in COMPUTE_PHASES */
	size_t ncompute;
	int comm;
	int *all;                 /* every phase id, ascending */
	size_t nall;
};

/* The run's analyzer cache, created on first use; NULL without a step model. */
struct analysis_cache *analysis_cache_of(struct run *run);
/* Rank ri's slot; NULL when out of range. */
struct rank_cache *analysis_rank_cache(struct run *run, size_t ri);
/* First position after the warmup slice of a rank with n records. */
size_t analysis_warmup_start(const struct run *run, size_t n);
/* Threads for the run-wide passes: --jobs, else one per core. */
int analysis_threads(const struct run *run);

/* Index of a canonical phase name (data, forward, ..., other), -1 for others. */
int analysis_phase_order(const char *name);
/* A canonical phase other than comm (pytscope's COMPUTE_PHASES). */
bool analysis_in_compute_phases(const char *name);
/* Phase metric ids of the model (all of them) into ids (steps_nmetrics() slots). */
size_t analysis_phase_ids(const struct steps_model *m, int *ids);
void analysis_phase_sets_init(const struct steps_model *m, struct phase_sets *ps);
void analysis_phase_sets_free(struct phase_sets *ps);
/* compute_r and comm_r of one record (analysis.h, distributed). */
double analysis_record_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			       size_t pos);
double analysis_record_comm(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			    size_t pos);

/* Median of compute over the ranks at every aligned step, memoized in c
 * (analysis_distributed.c): shared by the distributed analysis and the slowdown heatmap. */
const double *analysis_step_medians(struct run *run, struct analysis_cache *c);
/* Frees one heatmap pyramid (analysis_heatmap.c). */
void analysis_heat_free(struct heat_grid *g);

#endif
