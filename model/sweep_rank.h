/* SPDX-License-Identifier: MIT */
/* sweep_rank.h: internal to the sweep model: the ranking hooks sweep.c calls (the
 * public objective / constraint API is in sweep.h). */
#ifndef MODEL_SWEEP_RANK_H
#define MODEL_SWEEP_RANK_H

struct run;
struct sweep_set;

/* Parse --objective, --constraint (bad ones become diagnostics) and copy the sizing
 * targets into s. */
void sweep_rank_from_opts(struct run *run, struct sweep_set *s);
/* Re-evaluate constraints and scores and assign ranks. */
void sweep_rerank(struct sweep_set *s);
/* Free objectives and constraints. */
void sweep_rank_free(struct sweep_set *s);

#endif
