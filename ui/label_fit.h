/* SPDX-License-Identifier: MIT */
/* label_fit.h: a name fitted to a width among the other names shown with it (the
 * heatmap's row labels, the Ranks pane's node column): whole when it fits, else clipped
 * at a character boundary with an ellipsis, keeping the part where it differs from the
 * others (a worker's port, a node's number), so two rows never read the same:
 * "worker-sdumont…13:44321", "…node0003.hpc.example.org", tight "…ode-0010" (not "…0",
 * as gpu-node-0000 would read too). Pure: no curses, unit-tested in
 * tests/unit/test_heatmap_label.c. */
#ifndef UI_LABEL_FIT_H
#define UI_LABEL_FIT_H

#include "model/base.h"

/* names[i] (sanitized; names[0..n), NULL ones skipped, are the others shown with it) in
 * at most w columns, with flags (model/text.h TEXT_ASCII: "~" for the ellipsis).
 * malloc'd. */
char *label_fit(char *const *names, size_t n, size_t i, int w, unsigned flags);

#endif
