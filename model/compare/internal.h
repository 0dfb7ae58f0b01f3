/* SPDX-License-Identifier: MIT */
/* internal.h: what the files of model/compare/ share and nobody else sees: the memo of
 * a comparison's analyses and the pytscope diff's constructor. */
#ifndef MODEL_COMPARE_INTERNAL_H
#define MODEL_COMPARE_INTERNAL_H

#include "model/compare/compare.h"

struct cmp_memo {
	struct pydiff *pydiff;
	bool pydiff_done;
	struct cmp_ranks *ranks;
	bool ranks_done;
	struct cmp_finding *findings;
	size_t nfindings;
};

/* pydiff.c */
void pydiff_free(struct pydiff *d);

#endif
