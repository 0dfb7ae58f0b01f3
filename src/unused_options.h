/* SPDX-License-Identifier: MIT */
/* unused_options.h: options given for an input family the run does not have, named on
 * stderr as ignored, never dropped in silence ("--objective and --constraint ignored:
 * for GenAI-Perf sweeps only, and this run has none"). */
#ifndef SRC_UNUSED_OPTIONS_H
#define SRC_UNUSED_OPTIONS_H

#include "model/opts.h"
#include "model/run.h"

/* One stderr line per input family the runs (one, or the two sides of a comparison) lack
 * whose options were given, and for one run one for --ranks-per-node when every rank
 * records a hostname; nothing when a run is empty. */
void note_unused_options(const struct opts *o, struct run *const *runs, size_t nruns);

#endif
