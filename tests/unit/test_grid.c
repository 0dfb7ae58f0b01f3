/* SPDX-License-Identifier: MIT */
/* test_grid.c: grid block aggregates and rectangle queries (model/grid.h). */
#include <math.h>
#include <stdlib.h>
#include "model/grid.h"
#include "tests/tap.h"

/* 5 rows x 100 cols: value = row + col/1000, row 3 col 57 is a spike of 50, col 10 missing. */
static bool val(void *ud, size_t r, size_t c, double *out)
{
	(void)ud;
	if (c == 10)
		return false;
	*out = (r == 3 && c == 57) ? 50.0 : (double)r + (double)c / 1000.0;
	return true;
}

int main(void)
{
	struct grid_src src = { .nrows = 5, .ncols = 100, .value = val };
	struct grid_blocks *b = grid_blocks_build(&src, 16);
	is_int(b->nblocks, 7, "ceil(100/16) blocks");
	is_int(b->npresent, 5 * 99, "missing values are not counted");
	is_dbl(b->max, 50.0, 1e-9, "max");
	double w = 0, m = 0;
	size_t n = grid_rect(&src, b, 0, 5, 0, 100, &w, &m);
	is_int(n, 5 * 99, "whole-grid count");
	is_dbl(w, 50.0, 1e-9, "worst over the grid is the spike");
	/* Compare block path and raw path on ragged rectangles. */
	bool same = true;
	for (size_t c0 = 0; c0 < 100; c0 += 7)
		for (size_t c1 = c0 + 1; c1 <= 100; c1 += 13) {
			double w1 = 0, m1 = 0, w2 = 0, m2 = 0;
			size_t n1 = grid_rect(&src, b, 1, 4, c0, c1, &w1, &m1);
			size_t n2 = grid_rect(&src, NULL, 1, 4, c0, c1, &w2, &m2);
			if (n1 != n2 || (n1 && (fabs(w1 - w2) > 1e-5 || fabs(m1 - m2) > 1e-4)))
				same = false;
		}
	ok(same, "block-aggregated rectangles equal raw rectangles");
	n = grid_rect(&src, b, 0, 5, 10, 11, &w, &m);
	is_int(n, 0, "an all-missing rectangle reports 0 values");
	char buf[16];
	grid_row_label(&src, 3, buf, sizeof(buf));
	is_str(buf, "3", "default row label is the index");
	grid_blocks_free(b);
	return tap_done();
}
