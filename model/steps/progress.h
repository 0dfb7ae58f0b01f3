/* SPDX-License-Identifier: MIT */
/* progress.h: the partial Overview of a run that is still loading (the explorer's
 * loading screen): what the ranks loaded so far show, and what cannot be judged yet.
 *
 * CONTRACT. run_open() runs on another thread. steps_progress_update() takes in the
 * ranks the loaders published since its last call, reading them under the step model's
 * lock: a published rank is sealed and does not change until steps_finalize(), which
 * closes the model to this reader first (under the same lock), so a snapshot is never
 * torn. Sources and diagnostics are counted under their own locks (run.h), one lock at
 * a time. One call reads about `budget` records at most (at least one rank), so the
 * loaders wait on the lock only briefly; the rest is taken in by later calls. A rank
 * restored from the index is counted from its shell only (its body is not read here).
 *
 * steps_progress_lines() writes the Overview's "key  value" lines and the partial
 * findings. Every figure says it is over the ranks loaded so far; a figure that needs
 * every rank (coverage, run wall, imbalance, stragglers, budget) reads "n/a: loading
 * (k of N ranks)", and no line ever gives a verdict of the whole run. A run with no step
 * model (yet: identification; or ever: DASF, sweeps, traces until their steps are
 * published) has no ranks, steps or step times to wait for: its lines are the path, the
 * files and records so far and the data quality, and no verdict.
 *
 * Not thread-safe itself: one reader (the loading screen) owns a struct steps_progress. */
#ifndef MODEL_STEPS_PROGRESS_H
#define MODEL_STEPS_PROGRESS_H

#include "model/base.h"

struct run;
struct summary;
struct steps_progress;

struct steps_progress *steps_progress_new(void);
void steps_progress_free(struct steps_progress *p);
/* Take in what was loaded since the last call (see above). Returns true while the
 * load goes on, false once the step model is closed (finalize began): the lines then
 * stay as they were. */
bool steps_progress_update(struct steps_progress *p, struct run *run, size_t budget);
/* Ranks taken in so far, and the ranks the loaders planned (0: not known yet). */
size_t steps_progress_ranks(const struct steps_progress *p, size_t *expected);
/* True while the loader still lists its rank dirs (each rank's steps.jsonl is sized
 * while the ranks load, model/steps/internal.h steps_discover_begin): the bytes to read
 * are not known yet. *listed: rank dirs listed so far (of the expected ranks). */
bool steps_progress_listing(const struct steps_progress *p, size_t *listed);
/* The partial Overview: lines (run identity, sources, ranks and steps so far, step time
 * and phase shares of the ranks loaded, n/a for run-wide figures; without a step model
 * only the path, sources and data quality) and findings (partial observations, each
 * labelled, then the line saying no verdict is given yet). path is the first PATH
 * (unsanitized; summary_add sanitizes). */
void steps_progress_lines(const struct steps_progress *p, const char *path, struct summary *lines,
			  struct summary *findings);
/* What the load does once every file is read (static text): "aligning the steps and
 * analysing" with a step model, else "analysing". */
const char *steps_progress_finishing(const struct steps_progress *p);

#endif
