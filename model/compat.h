/* SPDX-License-Identifier: MIT */
/* compat.h: what pytscope 0.2.1 reads of a run, and whether its diff refuses a pair, the
 * one answer --print, --export and the explorer share under --compat pytscope (man page,
 * --compat; COMPARING TWO RUNS). pytscope reads the lowest
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

/* A side of a step pair is pytscope diff's layout (its single-rank run dir): every step
 * log of run is in its PATH itself (run->path, or that PATH's directory when it is the
 * file), not in rank{k}/ dirs below it nor spread over several PATHs. Rank dirs are rank
 * dirs whatever --ranks loaded of them. */
bool compat_diff_layout(const struct run *run);
struct compare;
/* pytscope 0.2.1's diff refuses the step pair c: "Both run directories must contain
 * steps." (exit 1). It does when a side has no step record on its lowest rank
 * (compare_has_steps), and, under --compat pytscope (the sides' opts), when a side is
 * not in its layout (compat_diff_layout: 0.2.1 reads no rank dirs in diff). report: for
 * the --print report, which pytscope's diff heads, so it refuses with or without
 * --compat; --export and the explorer end there under --compat pytscope only (without,
 * their views say what a side lacks). The one answer of every mode; false for a pair of
 * another family. */
bool compat_diff_refused(struct compare *c, bool report);

#endif
