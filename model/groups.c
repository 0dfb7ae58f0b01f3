/* SPDX-License-Identifier: MIT */
/* groups.c: row groups and their outline (see groups.h). */
#include "model/groups.h"

#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

struct groups *groups_new(const char *axis, size_t nrows)
{
	struct groups *gs = xcalloc(1, sizeof(*gs));
	gs->axis = axis;
	gs->nrows = nrows;
	gs->first = xcalloc(1, sizeof(*gs->first));
	gs->group_of = xmalloc((nrows ? nrows : 1) * sizeof(*gs->group_of));
	for (size_t r = 0; r < nrows; r++)
		gs->group_of[r] = -1;
	return gs;
}

void groups_add(struct groups *gs, const char *name, const size_t *rows, size_t n, size_t rep)
{
	if (gs->n + 2 > gs->cap) {
		gs->cap = gs->cap * 2 + 8;
		gs->name = xrealloc(gs->name, gs->cap * sizeof(*gs->name));
		gs->rep = xrealloc(gs->rep, gs->cap * sizeof(*gs->rep));
		gs->first = xrealloc(gs->first, gs->cap * sizeof(*gs->first));
	}
	xgrow((void **)&gs->member, &gs->mcap, gs->first[gs->n] + n, sizeof(*gs->member));
	gs->name[gs->n] = xstrdup(name);
	gs->rep[gs->n] = rep;
	memcpy(gs->member + gs->first[gs->n], rows, n * sizeof(*rows));
	for (size_t i = 0; i < n; i++)
		gs->group_of[rows[i]] = (long)gs->n;
	gs->first[gs->n + 1] = gs->first[gs->n] + n;
	gs->n++;
}

void groups_free(struct groups *gs)
{
	if (!gs)
		return;
	for (size_t g = 0; g < gs->n; g++)
		free(gs->name[g]);
	free(gs->name);
	free(gs->first);
	free(gs->member);
	free(gs->rep);
	free(gs->group_of);
	free(gs);
}

static void outline_lines(struct outline *o)
{
	const struct groups *gs = o->gs;
	o->nline = 0;
	for (size_t g = 0; g < gs->n; g++) {
		size_t l = o->nline++;
		o->p0[l] = gs->first[g];
		o->p1[l] = gs->first[g + 1];
		o->row[l] = -1;
		o->grp[l] = g;
		for (size_t p = gs->first[g]; o->open[g] && p < gs->first[g + 1]; p++) {
			l = o->nline++;
			o->p0[l] = p;
			o->p1[l] = p + 1;
			o->row[l] = (long)gs->member[p];
			o->grp[l] = g;
		}
	}
}

void outline_init(struct outline *o, const struct groups *gs)
{
	size_t most = gs->n + gs->first[gs->n] + 1;
	o->gs = gs;
	o->open = xcalloc(gs->n + 1, sizeof(*o->open));
	o->p0 = xmalloc(most * sizeof(*o->p0));
	o->p1 = xmalloc(most * sizeof(*o->p1));
	o->row = xmalloc(most * sizeof(*o->row));
	o->grp = xmalloc(most * sizeof(*o->grp));
	outline_lines(o);
}

void outline_free(struct outline *o)
{
	free(o->open);
	free(o->p0);
	free(o->p1);
	free(o->row);
	free(o->grp);
	memset(o, 0, sizeof(*o));
}

void outline_set(struct outline *o, size_t g, bool open)
{
	if (g < o->gs->n && o->open[g] != open) {
		o->open[g] = open;
		outline_lines(o);
	}
}

size_t outline_reveal(struct outline *o, size_t row)
{
	long g = row < o->gs->nrows ? o->gs->group_of[row] : -1;
	if (g < 0)
		return 0;
	outline_set(o, (size_t)g, true);
	for (size_t l = 0; l < o->nline; l++)
		if (o->row[l] == (long)row)
			return l;
	return 0;
}

/* Lines come in member order and p1 grows along them but at an open group's line (its
 * whole group): the span ends where its last line that covers members ends. An open
 * group's line is followed by its members, so it starts where its first member does,
 * and it never precedes another one directly. */
void outline_span(const struct outline *o, size_t l0, size_t l1, size_t *a, size_t *b)
{
	*a = o->p0[l0];
	*b = o->p1[outline_last(o, l0, l1)];
}

size_t outline_last(const struct outline *o, size_t l0, size_t l1)
{
	size_t l = l1 - 1;
	return l > l0 && o->row[l] < 0 && o->open[o->grp[l]] ? l - 1 : l;
}

size_t outline_line_row(const struct outline *o, size_t l)
{
	return o->row[l] >= 0 ? (size_t)o->row[l] : o->gs->rep[o->grp[l]];
}
