/* SPDX-License-Identifier: MIT */
/* steps.h: the per-rank step model (columnar, compact, immutable after load).
 *
 * CONTRACT (shared by the pytscope loader, the trace loader that adds step spans from
 * ProfilerStep#N, the analyzers and the UI). The implementation (model/steps.c) owns
 * the storage details: float32 columns per rank and metric, presence bitmaps so that
 * a missing value is never 0, metric names interned once, per-rank step -> position
 * index, the aligned step set, and per-block aggregates for the heatmap.
 *
 * Writing (loaders): build a struct rank_steps privately on a worker thread
 * (steps_rank_new, rank_append, rank_set), then hand it over with steps_publish_rank()
 * (thread-safe). After every loader ran, run_open() calls steps_finalize() once.
 *
 * Reading: ranks are indexed 0..steps_nranks()-1 in ascending rank id; records in a
 * rank keep file order (steps may repeat or restart: pytscope appends). */
#ifndef MODEL_STEPS_H
#define MODEL_STEPS_H

#include "model/base.h"

struct run;
struct steps_model;
struct rank_steps;

enum metric_kind { METRIC_PHASE, METRIC_SCALAR, METRIC_MEMORY };

struct metric_def {
	const char *name;        /* interned, owned by the model (unsanitized) */
	enum metric_kind kind;
};

/* ---- writing ------------------------------------------------------------- */

/* The run's step model, created on first use. Thread-safe. */
struct steps_model *steps_model_get(struct run *run);
/* Intern (kind, name) and return its metric id. Thread-safe. */
int steps_metric_intern(struct steps_model *m, enum metric_kind kind, const char *name);
struct rank_steps *steps_rank_new(struct steps_model *m, int rank, const char *path);
/* Append a record; returns its position. */
size_t rank_append(struct rank_steps *r, long step, double timestamp, bool have_timestamp);
void rank_set(struct rank_steps *r, size_t pos, int metric, double value);
/* Transfer ownership of r to the model (replaces an earlier rank with the same id). */
void steps_publish_rank(struct steps_model *m, struct rank_steps *r);
void steps_rank_free(struct rank_steps *r);
/* Sort ranks, build indexes, aligned steps and heatmap aggregates. Called once. */
void steps_finalize(struct steps_model *m);

/* ---- reading ------------------------------------------------------------- */

size_t steps_nranks(const struct steps_model *m);
int steps_rank_id(const struct steps_model *m, size_t ri);
const char *steps_rank_path(const struct steps_model *m, size_t ri);
size_t steps_nrecords(const struct steps_model *m, size_t ri);
long steps_step(const struct steps_model *m, size_t ri, size_t pos);
bool steps_timestamp(const struct steps_model *m, size_t ri, size_t pos, double *out);
/* Value of metric at a record; false when missing (the value is never 0 for missing). */
bool steps_value(const struct steps_model *m, size_t ri, int metric, size_t pos, double *out);

size_t steps_nmetrics(const struct steps_model *m);
const struct metric_def *steps_metric(const struct steps_model *m, int metric);
/* Metric id, or -1 when absent. */
int steps_metric_find(const struct steps_model *m, enum metric_kind kind, const char *name);

/* Aligned steps: the sorted intersection of step numbers over all ranks. */
size_t steps_naligned(const struct steps_model *m);
long steps_aligned_step(const struct steps_model *m, size_t k);
/* Position in rank ri of aligned step k (the last record with that step number). */
size_t steps_aligned_pos(const struct steps_model *m, size_t ri, size_t k);

#endif
