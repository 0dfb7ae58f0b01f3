/* SPDX-License-Identifier: MIT */
/* workload.h: which run.json keys define the work of a step (model/compare/workload.c),
 * for the pytscope diff's workload keys (pydiff.c, compare.h WORKLOAD): a key's name as
 * users spell it, and the keys the ranks of one step run set otherwise. */
#ifndef MODEL_COMPARE_WORKLOAD_H
#define MODEL_COMPARE_WORKLOAD_H

#include "model/compare/compare.h"

struct steps_model;

/* key (a config key, or with env an environment key) is a workload key: model, batch
 * size, micro batch, gradient accumulation, sequence length (compare.h WORKLOAD), or the
 * GPU and how many; in any case and with or without '_', '-', ' ' (batchSize, BATCH_SIZE
 * and batch-size are batch_size). */
bool compare_workload_key(const char *key, bool env);

/* The top-level config workload keys that the ranks of m with a run.json do not all set
 * alike (a key absent counts as a value; a rank whose run.json was not read is none),
 * appended to (*out)[0..*nout) as key and, in a, where each value is: "32 on rank 0 / 64
 * on ranks 1-3" (the first three values in rank order, then "other values on rank 7";
 * unsanitized). Nested config values are not kept for every rank, so not weighed. */
void compare_ranks_workload(const struct steps_model *m, struct cmp_field **out, size_t *nout);

#endif
