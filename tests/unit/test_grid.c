/* SPDX-License-Identifier: MIT */
/* test_grid.c: grid block aggregates and rectangle queries (model/grid.h), row groups
 * and their outline (model/groups.h), a grouped table's view (model/table.h) and, with a
 * filter hiding a node's representative, the worst of the rows it keeps; row labels whole
 * however long. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/grid.h"
#include "model/groups.h"
#include "model/table.h"
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

/* Node b open (lines a, b, 1, 3): its line alone covers the node, but among several lines
 * it covers none of its rows (they are lines of their own), so lines cut into buckets
 * hold each row once and a bucket's label ends with the last line whose rows it holds. */
static void test_outline_open(const struct grid_src *src, const struct grid_blocks *b, const struct outline *ol)
{
	double w = 0, m = 0;
	size_t wr = 99, a0, a1;
	is_int(grid_rect_lines(src, b, ol, 1, 2, 50, 60, &w, &m, &wr), 20, "open b's line alone: both its rows");
	is_int(wr, 3, "... its worst the spike of row 3");
	is_int(grid_rect_lines(src, b, ol, 1, 3, 50, 60, &w, &m, &wr), 10, "b's line and rank 1: row 1 alone");
	is_dbl(w, 1.059, 1e-9, "... not the spike of row 3, which the next bucket holds");
	is_int(grid_rect_lines(src, b, ol, 0, 3, 0, 1, &w, &m, &wr), 4, "a, b's line, rank 1: rows 0, 2, 4, 1");
	is_dbl(m, 7.0 / 4, 1e-9, "... their mean, row 1 counted once");
	is_int(grid_rect_lines(src, b, ol, 0, 2, 0, 1, &w, &m, &wr), 3, "a and b's line: a's three rows");
	outline_span(ol, 0, 2, &a0, &a1);
	is_int(a1 - a0, 3, "... its span a's members");
	is_int(outline_last(ol, 0, 2), 0, "... and its label ends at a");
	is_int(outline_last(ol, 1, 3), 2, "b's line and rank 1: the label ends at rank 1");
	is_int(outline_last(ol, 1, 2), 1, "b's line alone ends its own label");
}

/* Rows {0,2,4} form node "a" (rep 4), rows {1,3} node "b" (rep 3): the outline's lines,
 * the rows a line covers, the worst row of a node, reveal. */
static void test_outline(const struct grid_src *src, const struct grid_blocks *b)
{
	struct groups *gs = groups_new("node", 5);
	groups_add(gs, "a", (const size_t[]){ 0, 2, 4 }, 3, 4);
	groups_add(gs, "b", (const size_t[]){ 1, 3 }, 2, 3);
	is_int(gs->group_of[3], 1, "row 3 is in node b");
	struct outline ol;
	outline_init(&ol, gs);
	is_int(ol.nline, 2, "closed: one line per node");
	is_int(outline_line_row(&ol, 1), 3, "a closed node's line stands for its representative");
	double w = 0, m = 0;
	size_t wr = 99;
	size_t n = grid_rect_lines(src, b, &ol, 1, 2, 50, 60, &w, &m, &wr);
	is_int(n, 20, "node b over 10 columns: 2 rows x 10 values");
	is_dbl(w, 50.0, 1e-9, "node b's worst is the spike of row 3");
	is_int(wr, 3, "and names row 3");
	n = grid_rect_lines(src, b, &ol, 0, 1, 0, 1, &w, &m, &wr);
	is_dbl(w, 4.0, 1e-9, "node a at col 0: worst of rows 0, 2, 4");
	is_dbl(m, 2.0, 1e-9, "mean of rows 0, 2, 4");
	char lab[16];
	grid_line_label(src, &ol, 0, lab, sizeof(lab));
	is_str(lab, "a", "a node line's label is its name");
	size_t l = outline_reveal(&ol, 3);
	is_int(ol.nline, 4, "reveal opens node b: its line and two rank lines");
	is_int(l, 3, "row 3 is on line 3 (a, b, 1, 3)");
	grid_line_label(src, &ol, 2, lab, sizeof(lab));
	is_str(lab, "1", "a rank line's label is the row's");
	struct grid_window win = { .rpr = 2, .spc = 100, .ncols = 1, .ol = &ol };
	struct table *t = grid_cells_table(src, b, &win);
	is_int(t->nrow, 2, "cells as shown: two buckets of two lines");
	is_str(table_cell(t, 1, 0)->text, "1", "second bucket starts at rank line 1");
	is_str(table_cell(t, 0, 1)->text, "a", "first bucket (a, open b's line) ends at a: it holds none of b's rows");
	table_free(t);
	test_outline_open(src, b, &ol);
	outline_set(&ol, 1, false);
	is_int(ol.nline, 2, "closing node b again");
	outline_free(&ol);
	groups_free(gs);
}

/* A grouped table: closed nodes show their representative at its place (row order
 * unsorted), an open node its rows together at its first row's place; ungrouped shows
 * everything. */
static void test_table_groups(void)
{
	struct table *t = table_new("ranks", "Ranks");
	int c = table_add_col(t, "x", COL_NUM, 5, 0);
	static const double x[] = { 1, 9, 3, 7, 5 };
	for (size_t r = 0; r < 5; r++)
		table_set_num(t, table_add_row(t, (long)r), c, x[r]);
	struct groups *gs = groups_new("node", 5);
	groups_add(gs, "a", (const size_t[]){ 0, 2, 4 }, 3, 4);
	groups_add(gs, "b", (const size_t[]){ 1, 3 }, 2, 1);
	table_set_groups(t, gs, c);
	is_int(t->nview, 5, "ungrouped: every row");
	table_group_by(t, true);
	is_int(t->nview, 2, "grouped, all closed: one row per node");
	ok(t->view[0] == 1 && t->view[1] == 4, "each node shows its representative, at its place");
	table_sort(t, c, true);
	ok(t->view[0] == 1 && t->view[1] == 4, "sorted by x descending: node b (9) first");
	table_group_open(t, 0, true);
	is_int(t->nview, 4, "node a open: its three rows");
	ok(t->view[1] == 4 && t->view[2] == 2 && t->view[3] == 0, "node a's rows together, sorted");
	table_filter(t, "x<9", NULL, 0);
	ok(t->nview == 4 && t->view[0] == 3, "filtered out representative: node b shows its other row");
	table_group_by(t, false);
	is_int(t->nview, 4, "ungrouped again: the filtered rows");
	is_int(table_row_group(t, 3), 1, "row 3's group");
	table_free(t);
}

/* A filter that hides a node's representative: the node shows the worst of the rows it
 * keeps (highest in the COL_ROLE_GROUP_WORST column, not the first kept), counts them and
 * sits where that row sorts; without a figure among them its worst is not known.
 * Node a: rows 0-3, w 4 1 8 2 (rep 2); node b: rows 4-7, w 7 3 - 5 (rep 4). */
static void test_group_worst_filtered(void)
{
	struct table *t = table_new("ranks", "Ranks");
	int c_id = table_add_col(t, "id", COL_INT, 5, 0), c_w = table_add_col(t, "w", COL_NUM, 5, 0);
	static const double w[] = { 4, 1, 8, 2, 7, 3, -1, 5 };
	for (size_t r = 0; r < 8; r++) {
		table_set_num(t, table_add_row(t, (long)r), c_id, (double)r);
		table_set_num_opt(t, r, c_w, w[r], w[r] >= 0);
	}
	table_set_role(t, c_w, COL_ROLE_GROUP_WORST);
	struct groups *gs = groups_new("node", 8);
	groups_add(gs, "a", (const size_t[]){ 0, 1, 2, 3 }, 4, 2);
	groups_add(gs, "b", (const size_t[]){ 4, 5, 6, 7 }, 4, 4);
	table_set_groups(t, gs, c_id);
	table_group_by(t, true);
	char buf[128];
	is_str(table_group_describe(t, 0, buf, sizeof(buf)), "worst of 4", "no filter: worst of all 4");
	table_filter(t, "id!=2 id!=4", NULL, 0);
	ok(t->nview == 2 && t->view[0] == 0 && t->view[1] == 7,
	   "representatives filtered out: rows 0 (w 4) and 7 (w 5), not the first kept");
	is_str(table_group_count(t, 1, buf, sizeof(buf)), "3/4", "node b counts its kept rows of all");
	is_str(table_group_describe(t, 1, buf, sizeof(buf)), "worst of 3 shown, 4 in the node", "and says which worst");
	table_sort(t, c_id, true);
	ok(t->nview == 2 && t->view[0] == 7 && t->view[1] == 0, "sorted by id descending: 7 before 0");
	table_filter(t, "id>=5 id<=6", NULL, 0);
	is_int(t->view[0], 5, "node b keeps rows 5 and 6 (w missing): row 5 (w 3)");
	table_filter(t, "id=6", NULL, 0);
	is_str(table_group_describe(t, 1, buf, sizeof(buf)), "no w among the 1 shown, 4 in the node: worst not known",
	       "no figure among the kept rows: the worst is not known");
	table_free(t);
}

/* Row labels longer than any fixed buffer (a DASF worker's host and address): whole in
 * grid_row_label_dup and in the cells table, so two rows never share a label. */
static void long_label(void *ud, size_t row, char *buf, size_t n)
{
	(void)ud;
	char name[400];
	memset(name, 'w', 300);
	snprintf(name + 300, sizeof(name) - 300, "-tcp://10.12.34.56:4123%zu-\xc3\xa9", row);
	snprintf(buf, n, "%s", name);
}

static void test_long_labels(void)
{
	struct grid_src src = { .nrows = 2, .ncols = 3, .value = val, .row_label = long_label };
	char *a = grid_row_label_dup(&src, 0), *b = grid_row_label_dup(&src, 1);
	is_int(strlen(a), 327, "a 327-byte row label comes whole");
	ok(strcmp(a, b) != 0 && strcmp(a + strlen(a) - 4, "0-\xc3\xa9") == 0, "two rows' labels differ in their end");
	struct grid_window win = { .rpr = 1, .spc = 3, .ncols = 1 };
	struct table *t = grid_cells_table(&src, NULL, &win);
	ok(t->nrow == 2 && strcmp(table_cell(t, 0, 0)->text, a) == 0 && strcmp(table_cell(t, 1, 1)->text, b) == 0,
	   "cells table: row_first and row_last whole");
	table_free(t);
	free(a);
	free(b);
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
	test_outline(&src, b);
	test_table_groups();
	test_group_worst_filtered();
	test_long_labels();
	grid_blocks_free(b);
	return tap_done();
}
