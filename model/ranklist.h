/* SPDX-License-Identifier: MIT */
/* ranklist.h: rank subsets as typed on the command line (--ranks 0-63,4096): a comma-
 * separated list of non-negative ids and inclusive ranges. */
#ifndef MODEL_RANKLIST_H
#define MODEL_RANKLIST_H

#include "model/base.h"

/* true when list is well formed (every item N or N-M with N <= M); else false, and when
 * why is not NULL, what is wrong (naming the item) into why (n bytes). */
bool ranklist_valid(const char *list, char *why, size_t n);
/* true when rank is in a valid list. */
bool ranklist_has(const char *list, long rank);
/* true when a valid list names an id >= lo; *first: the smallest such. */
bool ranklist_first_from(const char *list, long lo, long *first);
/* ids (ascending, non-negative) as a list ranklist_valid() takes, runs as ranges
 * ("0-1,4,6-9"), into buf; false (buf "") when it does not fit in n bytes. */
bool ranklist_format(const long *ids, size_t nids, char *buf, size_t n);

#endif
