/* SPDX-License-Identifier: MIT */
/* internal.h: private to the trace family (model/trace/): the views (views.c) and the
 * finding rule (rules.c) registered by subsystem.c, and the post-processing the loader
 * (load.c) calls in store.c. The model, the loader entry points and the analyses are
 * model/trace/trace.h. */
#ifndef MODEL_TRACE_INTERNAL_H
#define MODEL_TRACE_INTERNAL_H

#include "model/registry.h"
#include "model/trace/trace.h"

#define TRACE_NVIEWS 6
#define TRACE_NRULES 2
extern const struct view_def trace_views[TRACE_NVIEWS];
extern const struct finding_rule trace_rules[TRACE_NRULES];

/* Post-processing of decoded ranks (store.c), called by the loader (load.c) in file
 * order: the run's trace set (created with the --kernel-classes table on first use),
 * the rank id of ts->r[i] (single: the only file of the run), then the per-rank indexes
 * the analyses read. trace_rank_cmp orders ranks by id. */
struct trace_set *trace_set_get_or_new(struct run *run);
void trace_assign_rank(struct run *run, struct trace_set *ts, size_t i, bool single);
/* The host of tensorboard_trace_handler's default file name (trace.h trace_rank_host),
 * or NULL; the caller frees it. */
char *trace_host_from_name(const char *path);
void trace_finish_rank(struct run *run, struct trace_set *ts, struct trace_rank *r);
int trace_rank_cmp(const void *a, const void *b);

#endif
