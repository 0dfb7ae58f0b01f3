/* SPDX-License-Identifier: MIT */
/* steps_compare.h: two loads of the same steps.jsonl compared in full (every stored
 * value bit for bit, metric names and order, sources, diagnostics): the line scanner's
 * contract, checked by tests/unit/test_pytscope_scan.c and tests/fuzz/fuzz_steps.c.
 * Header-only; differences are printed as TAP comments. */
#ifndef TESTS_STEPS_COMPARE_H
#define TESTS_STEPS_COMPARE_H

#include <stdio.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/steps.h"

static bool same_double(bool ha, double a, bool hb, double b)
{
	return ha == hb && (!ha || memcmp(&a, &b, sizeof(a)) == 0);
}

/* Everything the loader stored, compared; returns the number of differences. */
static int compare_runs(const struct run *a, const struct run *b, const char *what)
{
	int bad = 0;
	const struct steps_model *ma = a->steps, *mb = b->steps;
	if (!ma || !mb || steps_nranks(ma) != steps_nranks(mb) || steps_nmetrics(ma) != steps_nmetrics(mb)) {
		printf("# %s: models differ in shape\n", what);
		return 1;
	}
	for (size_t k = 0; k < steps_nmetrics(ma); k++) {
		const struct metric_def *da = steps_metric(ma, (int)k), *db = steps_metric(mb, (int)k);
		if (da->kind != db->kind || strcmp(da->name, db->name) != 0) {
			printf("# %s: metric %zu differs: %s / %s\n", what, k, da->name, db->name);
			bad++;
		}
	}
	for (size_t ri = 0; ri < steps_nranks(ma); ri++) {
		size_t n = steps_nrecords(ma, ri);
		if (n != steps_nrecords(mb, ri)) {
			printf("# %s: rank %zu: %zu / %zu records\n", what, ri, n, steps_nrecords(mb, ri));
			bad++;
			continue;
		}
		for (size_t pos = 0; pos < n; pos++) {
			double x = 0, y = 0;
			bool hx = steps_timestamp(ma, ri, pos, &x), hy = steps_timestamp(mb, ri, pos, &y);
			bool same = steps_step(ma, ri, pos) == steps_step(mb, ri, pos) && same_double(hx, x, hy, y);
			for (size_t k = 0; k < steps_nmetrics(ma); k++) {
				hx = steps_value(ma, ri, (int)k, pos, &x);
				hy = steps_value(mb, ri, (int)k, pos, &y);
				same = same && same_double(hx, x, hy, y);
			}
			if (!same) {
				printf("# %s: record %zu differs\n", what, pos);
				bad++;
			}
		}
	}
	if (a->diags.n != b->diags.n || a->diags.dropped != b->diags.dropped) {
		printf("# %s: %zu / %zu diagnostics\n", what, a->diags.n, b->diags.n);
		return bad + 1;
	}
	for (size_t i = 0; i < a->diags.n; i++) {
		const struct diag *x = &a->diags.v[i], *y = &b->diags.v[i];
		if (x->level != y->level || x->line != y->line || x->offset != y->offset ||
		    x->rank != y->rank || strcmp(x->msg, y->msg) != 0 ||
		    strcmp(x->file ? x->file : "", y->file ? y->file : "") != 0) {
			printf("# %s: diagnostic %zu differs: %s / %s\n", what, i, x->msg, y->msg);
			bad++;
		}
	}
	if (a->nsrc != b->nsrc)
		return bad + 1;
	for (size_t i = 0; i < a->nsrc; i++)
		if (a->src[i].records != b->src[i].records || a->src[i].skipped != b->src[i].skipped ||
		    a->src[i].partial != b->src[i].partial || a->src[i].err != b->src[i].err)
			bad++;
	return bad;
}

#endif
