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
	long bom;                      /* a task whose steps.jsonl or run.json starts with a UTF-8 BOM, or -1 */
	struct load_stream *stream;    /* the part written as the ranks are sealed, or NULL */
};
struct load_ctx;
void steps_plan_load(struct load_ctx *ctx, const char *path, struct load_plan *lp);
void steps_plan_write_index(struct load_ctx *ctx, const char *path, struct load_plan *lp, long long bytes,
			    size_t src0, size_t d0);

/* The index part written during the load (load_stream.c): begun before the parse when
 * this load writes one (`tscope-tui index`, whole or a shard: every rank of its slice
 * parsed; else NULL); load_stream_rank() seals each loaded rank (s NULL too) and takes it
 * (regular: its steps.jsonl was a regular file) with the loader thread's sets, before it
 * is published; after the parse
 * load_stream_write() puts the part in place for files[lo, hi) of lp (0 or an errno),
 * unless load_stream_failed(); load_stream_end() drops a part not written and parses
 * the ranks whose bodies it freed again, then frees s. */
struct load_stream;
struct seal_sets;
struct load_stream *load_stream_begin(struct load_ctx *ctx, const char *path, const struct load_plan *lp,
				      unsigned long load);
void load_stream_rank(struct load_stream *s, struct rank_steps *r, bool regular, struct seal_sets *sets);
bool load_stream_failed(const struct load_stream *s);
int load_stream_write(struct load_stream *s, struct run *run, const char *path, const struct load_plan *lp,
		      size_t src0, size_t src1, size_t d0, size_t d1, char **written);
void load_stream_end(struct load_stream *s, struct run *run);

#endif
