/* SPDX-License-Identifier: MIT */
/* groups.h: rows grouped under named headers (ranks under their node) and the outline a
 * list draws from them: a closed group is one line, an open group its line and then one
 * line per member row. The heatmap's node rows (grid rows) and the Ranks pane's (table
 * rows, table.h) share the grouping; the producer (model/steps/nodes.c) fills it.
 *
 * CONTRACT. Rows are indexes of the grid or table the groups were made for (nrows of
 * them); every row belongs to at most one group; groups are kept in the order added and
 * members in the order given. rep[g] is the group's representative, its worst member by
 * the producer's measure. Names are unsanitized. Not thread-safe. */
#ifndef MODEL_GROUPS_H
#define MODEL_GROUPS_H

#include "model/base.h"

struct groups {
	const char *axis;     /* what a group is ("node"; static) */
	size_t nrows;         /* rows of the grid or table */
	size_t n;             /* groups */
	char **name;
	size_t *first;        /* n + 1 offsets: group g is member[first[g] .. first[g+1]) */
	size_t *member;       /* rows, group after group */
	size_t *rep;          /* per group: its representative (worst) row */
	long *group_of;       /* per row: its group, -1 for none */
	size_t cap, mcap;
};

struct groups *groups_new(const char *axis, size_t nrows);
/* Add a group of rows[0..n) (n > 0, rows not yet in a group, < nrows) with its
 * representative rep (one of rows). */
void groups_add(struct groups *gs, const char *name, const size_t *rows, size_t n, size_t rep);
void groups_free(struct groups *gs);

/* The lines of a grouped list. Line l covers member positions [p0[l], p1[l]) of the
 * groups: the whole group for a group line (row[l] == -1), one member for a row line. */
struct outline {
	const struct groups *gs;
	bool *open;           /* per group */
	size_t nline;
	size_t *p0, *p1;
	long *row;
	size_t *grp;
};

/* Every group closed; gs must outlive o. */
void outline_init(struct outline *o, const struct groups *gs);
void outline_free(struct outline *o);
void outline_set(struct outline *o, size_t g, bool open);
/* Open the group holding row (when closed); returns the line showing row, or the
 * first line when row belongs to no group. */
size_t outline_reveal(struct outline *o, size_t row);
/* The member positions lines [l0, l1) cover: [*a, *b) (l0 < l1 <= nline). A line alone
 * covers its own; among several lines an open group's line covers none (its members are
 * lines of their own there), so lines cut into consecutive spans cover every member
 * once: a span that holds an open group's line and some of its members holds those
 * members only. */
void outline_span(const struct outline *o, size_t l0, size_t l1, size_t *a, size_t *b);
/* The last of lines [l0, l1) whose members the span holds, the one its label ends with:
 * l1 - 1, or the line before it when several lines end with an open group's line. */
size_t outline_last(const struct outline *o, size_t l0, size_t l1);
/* The row a line stands for: its own, or its group's representative. */
size_t outline_line_row(const struct outline *o, size_t l);

#endif
