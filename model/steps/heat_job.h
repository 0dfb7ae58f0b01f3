/* SPDX-License-Identifier: MIT */
/* heat_job.h: a heatmap pyramid built on a thread of its own, rank by rank, within a
 * memory bound (heat_job.c says how). The step grid (grid.c) hands it to the heatmap
 * pane as a grid job (model/grid.h): the pane stays live while it runs and takes the
 * result in one step when it ended. Everything but the thread's own work runs on the
 * caller's thread; the run must not change while a job runs (a live run builds none). */
#ifndef MODEL_STEPS_HEAT_JOB_H
#define MODEL_STEPS_HEAT_JOB_H

#include <stdbool.h>
#include <stddef.h>

struct run;
struct heat_grid;
struct heat_job;

/* A job building series' pyramid, or NULL when the caller should build it itself
 * (analysis_heatmap): it is in memory, small (the UI thread builds it in well under a
 * second), or the run is live. The environment variable TSCOPE_TEST_HEAT_JOB_MS (tests)
 * makes every pyramid not in memory a job, pausing that many ms after each rank, and
 * TSCOPE_TEST_HEAT_JOB_MAX (with it) sets the memory bound in bytes. */
struct heat_job *heat_job_start(struct run *run, int series);
/* A job whatever the cost (NULL only when none can be built: in memory, live, no
 * steps), its pyramid kept within max_bytes (heat_job_start: 640 MiB). */
struct heat_job *heat_job_start_within(struct run *run, int series, size_t max_bytes);
/* True once the job ended; ranks made so far of the total. */
bool heat_job_poll(struct heat_job *j, size_t *done, size_t *total);
/* The ended job's pyramid (the caller owns it: analysis_heat_free), level 0 every step
 * or, when that would not fit the bound, blocks of 2^g->shift steps; *unreadable: ranks
 * whose body could not be read (their rows have no value). Frees j. */
struct heat_grid *heat_job_take(struct heat_job *j, size_t *unreadable);
/* Stop the job (between two ranks), wait for its thread, free it. NULL: nothing. */
void heat_job_cancel(struct heat_job *j);

#endif
