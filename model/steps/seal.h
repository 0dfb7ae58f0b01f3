/* SPDX-License-Identifier: MIT */
/* seal.h: private to model/steps. `tscope-tui index` writes each rank's body into the
 * part as the rank is sealed (load_stream.c) and frees it, so the next rank's body
 * reuses its memory; what the summary needs of the rank is taken then, while the body
 * is in cache (seal.c): its compute and comm per record, budget sums and memory peak.
 * The summary's pass (analysis_distributed.c fill_rows) and a shard's part of the
 * summary (analysis_index_inputs.c) take them instead of reading the body back: the
 * values those reads give, bit for bit. */
#ifndef MODEL_STEPS_SEAL_H
#define MODEL_STEPS_SEAL_H

#include "model/steps/internal.h"

/* What the summary needs of one rank, over its own records (n = the rank's): one
 * allocation, compute's n doubles at its start, then comm's, then this record (the
 * summary's row is made in place and freed as the allocation, seal_inputs_free()). */
struct seal_inputs {
	double *compute, *comm;
	struct budget_sums bsum;     /* analysis_budget_sums() */
	bool has_mem_peak;           /* analysis_rank_mem_peak() */
	double mem_peak;
};

/* The phase sets, budget plan and memory metric ids of a model's metric table as it was
 * when taken; a loader thread keeps its own, taken again when the table grew. The ids
 * only grow, and a rank's columns are all in the table by its seal, so a rank's values
 * are the ones the whole table gives (a phase the rank lacks adds nothing). */
struct seal_sets {
	bool have;
	unsigned long load;          /* the load they were taken in (a thread's scratch outlives it) */
	size_t nmetric;
	struct phase_sets ps;
	struct budget_plan bp;
	int peak_alloc, alloc;
};
void seal_sets_free(struct seal_sets *s);

/* The inputs of r (loaded and sealed, its steps contiguous) with m's metric table as it
 * is now (sets brought up to date under m's lock, for load `load`), or NULL when the
 * budget sums need the exact pass over the records (analysis_budget_sums; the body is
 * then kept). */
struct seal_inputs *seal_inputs_take(struct steps_model *m, unsigned long load, const struct rank_steps *r,
				     struct seal_sets *sets);
void seal_inputs_free(struct seal_inputs *in);
/* in's budget sums into *bsum and memory peak into rs (its has_mem_peak and mem_peak;
 * rs may be NULL). */
void seal_inputs_sums(const struct seal_inputs *in, struct budget_sums *bsum, struct rank_stat *rs);
/* Rank ri's inputs handed over (NULL: none): the caller frees them, or makes its row in
 * them and frees that. */
struct seal_inputs *steps_rank_take_inputs(struct steps_model *m, size_t ri);

/* `tscope-tui index` of a run the distributed analysis passes over (one rank, or no
 * aligned step): the analysis cache's index_rows and budget sums from the inputs the
 * seal took, for the summary (nothing when no rank has any, or the rows are made). */
struct run;
void analysis_index_rows_of_inputs(struct run *run);
/* steps_rank_encode_body() of a loaded rank that is not (yet) in a model. */
struct obuf;
void store_rank_encode_body(const struct rank_steps *r, struct obuf *o);
/* analysis_records_compute_lanes() of a loaded rank that is not (yet) in a model. */
void analysis_rank_records_lanes(const struct phase_sets *ps, const struct rank_steps *r, double *out,
				 double *comm, struct budget_lanes *lanes);
/* Lanes for plan bp, empty (analysis_budget.c). */
void analysis_lanes_init(const struct budget_plan *bp, struct budget_lanes *bl);
/* The budget sums of all records of loaded rank r from lanes filled over them, per the
 * plan (ps: its phase sets); false when the lanes cannot decide one (analysis_budget.c). */
bool analysis_lanes_sums(const struct budget_plan *bp, struct budget_lanes *bl, const struct phase_sets *ps,
			 const struct rank_steps *r, struct budget_sums *sums);
/* analysis_rank_mem_peak() of loaded rank r with the memory metrics' ids. */
void analysis_mem_peak_of(const struct rank_steps *r, int peak_alloc, int alloc, struct rank_stat *rs);

#endif
