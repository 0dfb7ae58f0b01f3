/* SPDX-License-Identifier: MIT */
/* compat.h: what pytscope 0.2.1 reads of a run, the one answer --print, --export and the
 * explorer share under --compat pytscope (man page, --compat). pytscope reads the lowest
 * rank's step records, the distributed summary of rank dirs' step logs, and a trace that
 * is its own (named by --trace, or the run dir's trace.json, trace.json.gz, kineto.json or
 * kineto.json.gz, never one in a rank dir) when it has a GPU kernel (else its
 * analyze_trace gives None). It reads no steps from a trace: the steps tscope-tui builds
 * from a trace's ProfilerSteps (a run without a step log) are left out, and so are the
 * views made from them. Reads memoized analyses only; never prints. */
#ifndef MODEL_COMPAT_H
#define MODEL_COMPAT_H

#include <stdbool.h>

struct run;

/* The run's steps are the ones tscope-tui built from its traces' ProfilerSteps (it has
 * no step log): pytscope reads none of them. */
bool compat_steps_from_trace(const struct run *run);
/* pytscope 0.2.1 reads something of the run (above). */
bool compat_reads_data(struct run *run);
/* Under --compat pytscope (run->opts), pytscope reads nothing of the run: --print,
 * --export and the explorer end with "No steps or trace found in 'PATH'." (exit 1).
 * False without --compat. */
bool compat_reads_nothing(struct run *run);
/* Under --compat pytscope, why view `view` (an --export name; "heatmap" for the Heatmap
 * pane too) is refused: static text when its rows are made from steps pytscope does not
 * read (ranks, steps, heatmap, budget, nodes and heatmap_cells of ProfilerStep steps);
 * NULL otherwise, and without --compat. */
const char *compat_view_refusal(const struct run *run, const char *view);

#endif
