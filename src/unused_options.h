/* SPDX-License-Identifier: MIT */
/* unused_options.h: options given for an input family the run does not have, named on
 * stderr as ignored, never dropped in silence ("--objective and --constraint ignored:
 * for GenAI-Perf sweeps only, and this run has none"). */
#ifndef SRC_UNUSED_OPTIONS_H
#define SRC_UNUSED_OPTIONS_H

#include "model/opts.h"
#include "model/run.h"

/* One stderr line per input family the run lacks whose options were given, and one for
 * --ranks-per-node when every rank records a hostname; nothing for an empty run. */
void note_unused_options(const struct opts *o, struct run *run);

#endif
