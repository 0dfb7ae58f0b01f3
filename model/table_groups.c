/* SPDX-License-Identifier: MIT */
/* table_groups.c: a table's row groups (ranks by node, model/groups.h): the tree view
 * over the filtered, sorted rows, which row a closed group shows (its worst kept one),
 * and what that row stands for, in words (see table.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/groups.h"
#include "model/table.h"
#include "model/table_view.h"
#include "model/xalloc.h"

long table_row_group(const struct table *t, size_t row)
{
	return t->groups && row < t->groups->nrows ? t->groups->group_of[row] : -1;
}

/* Is row a's cell of column c higher than row b's (a missing cell is the lowest)? */
static bool higher(const struct table *t, int c, size_t a, size_t b)
{
	return table_cell_cmp(table_cell(t, a, c), table_cell(t, b, c), t->col[c].type, true) < 0;
}

/* The row closed group g shows, one of its kept rows (one at least): its representative
 * when kept, else the kept row highest in the COL_ROLE_GROUP_WORST column (missing last,
 * the first of equals, as the producer picks). *known: that row is the group's worst kept
 * one (it has that figure; with no such column, it is the representative). */
static size_t group_shown(const struct table *t, size_t g, const bool *kept, bool *known)
{
	const struct groups *gs = t->groups;
	int c = table_col_role(t, COL_ROLE_GROUP_WORST);
	size_t best = 0;
	bool have = false;
	for (size_t k = gs->first[g]; k < gs->first[g + 1]; k++) {
		size_t r = gs->member[k];
		if (!kept[r])
			continue;
		if (r == gs->rep[g]) {
			best = r;
			break;
		}
		if (!have || (c >= 0 && higher(t, c, r, best)))
			best = r;
		have = true;
	}
	*known = c < 0 ? best == gs->rep[g] : table_cell(t, best, c)->present;
	return best;
}

/* The tree over the filtered, sorted view (see struct table). */
void table_groups_apply(struct table *t)
{
	const struct groups *gs = t->groups;
	bool *kept = xcalloc(t->nrow + 1, sizeof(*kept));
	size_t *cnt = xcalloc(gs->n + 2, sizeof(*cnt));
	for (size_t i = 0; i < t->nview; i++) {
		long g = table_row_group(t, t->view[i]);
		kept[t->view[i]] = true;
		if (g >= 0)
			cnt[g + 1]++;
	}
	for (size_t g = 0; g < gs->n; g++) {   /* offsets of each group's visible rows */
		t->gkept[g] = cnt[g + 1];
		cnt[g + 1] += cnt[g];
	}
	size_t *mem = xmalloc((t->nview + 1) * sizeof(*mem)), *fill = xcalloc(gs->n + 1, sizeof(*fill));
	for (size_t i = 0; i < t->nview; i++) {
		long g = table_row_group(t, t->view[i]);
		if (g >= 0)
			mem[cnt[g] + fill[g]++] = t->view[i];
	}
	size_t *at = xcalloc(gs->n + 1, sizeof(*at));   /* the row at whose place a group sits */
	for (size_t g = 0; g < gs->n; g++)
		if (t->gkept[g])
			at[g] = t->gopen[g] ? mem[cnt[g]] : group_shown(t, g, kept, &t->gworst[g]);
	size_t *out = xmalloc((t->nview + 1) * sizeof(*out)), n = 0;
	for (size_t i = 0; i < t->nview; i++) {
		long g = table_row_group(t, t->view[i]);
		if (g < 0)
			out[n++] = t->view[i];
		else if (t->view[i] == at[g] && t->gopen[g])
			for (size_t k = cnt[g]; k < cnt[g + 1]; k++)
				out[n++] = mem[k];
		else if (t->view[i] == at[g])
			out[n++] = at[g];
	}
	memcpy(t->view, out, n * sizeof(*out));
	t->nview = n;
	free(out);
	free(at);
	free(fill);
	free(mem);
	free(cnt);
	free(kept);
}

void table_set_groups(struct table *t, struct groups *gs, int col)
{
	groups_free(t->groups);
	free(t->gopen);
	free(t->gkept);
	free(t->gworst);
	t->groups = gs;
	t->group_col = col;
	t->gopen = xcalloc(gs->n + 1, sizeof(*t->gopen));
	t->gkept = xcalloc(gs->n + 1, sizeof(*t->gkept));
	t->gworst = xcalloc(gs->n + 1, sizeof(*t->gworst));
	t->grouped = false;
}

void table_group_by(struct table *t, bool on)
{
	if (!t->groups || t->grouped == on)
		return;
	t->grouped = on;
	table_view_apply(t);
}

void table_group_open(struct table *t, long g, bool open)
{
	if (!t->groups)
		return;
	for (size_t k = 0; k < t->groups->n; k++)
		if (g < 0 || (size_t)g == k)
			t->gopen[k] = open;
	table_view_apply(t);
}

/* Group g's rows: all of them. */
static size_t group_size(const struct table *t, long g)
{
	return t->groups->first[g + 1] - t->groups->first[g];
}

const char *table_group_count(const struct table *t, long g, char *buf, size_t n)
{
	if (t->gkept[g] < group_size(t, g))
		snprintf(buf, n, "%zu/%zu", t->gkept[g], group_size(t, g));
	else
		snprintf(buf, n, "%zu", group_size(t, g));
	return buf;
}

const char *table_group_of(const struct table *t, long g, char *buf, size_t n)
{
	if (t->gkept[g] < group_size(t, g))
		snprintf(buf, n, " shown, %zu in the %s", group_size(t, g), t->groups->axis);
	else if (n)
		*buf = '\0';
	return buf;
}

const char *table_group_describe(const struct table *t, long g, char *buf, size_t n)
{
	int c = table_col_role(t, COL_ROLE_GROUP_WORST);
	char of[64];
	table_group_of(t, g, of, sizeof(of));
	if (t->gworst[g])
		snprintf(buf, n, "worst of %zu%s", t->gkept[g], of);
	else if (c >= 0)
		snprintf(buf, n, "no %s among %s %zu%s: worst not known", t->col[c].name, *of ? "the" : "its",
			 t->gkept[g], of);
	else
		snprintf(buf, n, "worst of %zu%s not known", t->gkept[g], of);
	return buf;
}
