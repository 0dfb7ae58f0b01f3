/* SPDX-License-Identifier: MIT */
/* ranklist.h: rank subsets as typed on the command line (--ranks 0-63,4096): a comma-
 * separated list of non-negative ids and inclusive ranges. */
#ifndef MODEL_RANKLIST_H
#define MODEL_RANKLIST_H

#include "model/base.h"

/* true when list is well formed (every item N or N-M with N <= M). */
bool ranklist_valid(const char *list);
/* true when rank is in a valid list. */
bool ranklist_has(const char *list, long rank);

#endif
