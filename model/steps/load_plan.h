/* SPDX-License-Identifier: MIT */
/* load_plan.h: private to the pytscope loader (load.c) and its plan (load_plan.c). */
#ifndef MODEL_STEPS_LOAD_PLAN_H
#define MODEL_STEPS_LOAD_PLAN_H

#include "model/steps/internal.h"

/* What the load of one PATH does with the index and which of its ranks it parses
 * (load_plan.c): steps_plan_load() fills it before the parse; steps_plan_write_index()
 * writes the index part (or appends the delta) after it, the parse having added the
 * run's sources from src0 and its diagnostics from d0 (bytes: the JSONL parsed). */
struct load_plan {
	struct task_list tasks;        /* to parse from the JSONL, in name order */
	struct steps_rank_file *files; /* the whole run (or shard), sorted by rank id */
	size_t nfiles, lo, hi;         /* files[lo, hi): this load's slice */
	long lowest;                   /* lowest rank id loaded (--ranks) or in the whole run */
	bool indexed;                  /* the index is read and may be written (not by a --ranks subset) */
	bool index_found;              /* some index part existed */
	size_t parts_used;
	bool all_indexed;              /* every rank came from the index */
	size_t left_out;               /* rank dirs --ranks did not name */
	size_t grown;                  /* of them, ranks whose steps.jsonl grew since */
	struct index_log *log;         /* then: what the index held, to append their tails */
	long streamed;                 /* a task whose steps.jsonl was a FIFO, or -1 */
};
struct load_ctx;
void steps_plan_load(struct load_ctx *ctx, const char *path, struct load_plan *lp);
void steps_plan_write_index(struct load_ctx *ctx, const char *path, struct load_plan *lp, long long bytes,
			    size_t src0, size_t d0);

#endif
