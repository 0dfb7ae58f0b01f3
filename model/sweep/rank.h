/* SPDX-License-Identifier: MIT */
/* rank.h: the ranking hooks sweep_derive (analysis.c) calls, and the pure --objective /
 * --constraint syntax checkers src/cli.c calls (the objective / constraint API on a
 * loaded run is in sweep.h). */
#ifndef MODEL_SWEEP_RANK_H
#define MODEL_SWEEP_RANK_H

struct run;
struct sweep_set;

/* Pure syntax checks of an --objective list ("ttft_p99:1,gpu_power_usage:2") and of one
 * --constraint ("itl_p90<=5"), no run needed: src/cli.c calls them at parse time and
 * refuses bad input with exit status 2. 0, or -1 with a message naming the bad term in
 * err. A name that is not a request metric is taken as a GPU telemetry metric (an
 * optional stat suffix, avg by default); whether the run has it is checked later by
 * sweep_rank_resolve(). A request metric with a bad stat (ttft_p999) is a syntax error. */
int sweep_objective_syntax(const char *spec, char *err, size_t errn);
int sweep_constraint_syntax(const char *spec, char *err, size_t errn);
/* Parse --objective, --constraint (bad ones become diagnostics) and copy the sizing
 * targets into s. */
void sweep_rank_from_opts(struct run *run, struct sweep_set *s);
/* Once, after loading (sweep_derive): drop terms naming telemetry the run lacks, each
 * with a diagnostic and a line in s->ref_errors; a constraint on a metric no config has
 * (that telemetry, or a request metric such as ITL in a non-streaming run) is listed in
 * s->con_unjudged, not judged. A config lacking a metric others have fails (n/a). */
void sweep_rank_resolve(struct run *run, struct sweep_set *s);
/* Re-evaluate constraints and scores and assign ranks. */
void sweep_rerank(struct sweep_set *s);
/* Free objectives and constraints. */
void sweep_rank_free(struct sweep_set *s);

#endif
