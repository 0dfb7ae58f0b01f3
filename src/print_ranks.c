/* SPDX-License-Identifier: MIT */
/* print_ranks.c: the default report's bounded per-rank list (print.h): which ranks it
 * shows, and the lines counting the ranks it leaves out with what those have in common.
 * The ranks that matter are read three ways: the stragglers by their cost (the time the
 * others waited for them since the onset, as the headline says it), every rank by its
 * time lost, and every rank by its share of the critical path; each of the three orders
 * breaks its ties on the others' cost (time lost, then mean compute), then on the lower
 * rank id. The list takes the next rank of each order in turn, so every rank it leaves
 * out comes after all the ranks before it in each order: it loses no more time and is on
 * the critical path no more often than any rank taken for that, and a straggler left out
 * costs no more than any straggler taken for its cost. The lines that count them say the
 * bounds from the ranks left out (rounded up: an "at most" is never below the value). */
#include "src/print.h"

#include <math.h>
#include <stdlib.h>
#include "model/steps/analysis.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "src/sbuf.h"

/* The orders, ranks that matter more first: by v descending, a missing (NaN) value last. */
static int by_more(double x, double y)
{
	x = x == x ? x : -INFINITY;
	y = y == y ? y : -INFINITY;
	return (x < y) - (x > y);
}

/* Time lost, then critical share, then mean compute, then the lower rank id. */
static int cmp_lost(const void *a, const void *b, void *ud)
{
	const struct distributed *d = ud;
	const struct rank_stat *x = &d->rank[*(const size_t *)a], *y = &d->rank[*(const size_t *)b];
	int c = by_more(x->time_lost, y->time_lost);
	c = c ? c : by_more(x->critical_share, y->critical_share);
	c = c ? c : by_more(x->mean_compute, y->mean_compute);
	return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Critical share, then as cmp_lost. */
static int cmp_share(const void *a, const void *b, void *ud)
{
	const struct distributed *d = ud;
	int c = by_more(d->rank[*(const size_t *)a].critical_share, d->rank[*(const size_t *)b].critical_share);
	return c ? c : cmp_lost(a, b, ud);
}

/* A straggler's cost (slow_cost), then as cmp_lost. */
static int cmp_cost(const void *a, const void *b, void *ud)
{
	const struct distributed *d = ud;
	int c = by_more(d->rank[*(const size_t *)a].slow_cost, d->rank[*(const size_t *)b].slow_cost);
	return c ? c : cmp_lost(a, b, ud);
}

/* The first cap rank indexes (stragglers only, or all) in cmp's order (malloc'd, cap
 * entries); how many into *n. The list takes from each order no further than its first
 * cap: every rank before its next is shown, and no more than cap are. */
static size_t *ranks_first(const struct distributed *d, bool stragglers, int (*cmp)(const void *, const void *, void *),
			   size_t cap, size_t *n)
{
	size_t *ord = xmalloc(cap * sizeof(*ord));
	*n = 0;
	for (size_t r = 0; r < d->world_size; r++) {
		if (stragglers && !d->rank[r].straggler)
			continue;
		if (*n == cap && cmp(&r, &ord[cap - 1], (void *)d) >= 0)
			continue; /* after the first cap: the usual rank, one comparison */
		size_t j = *n < cap ? (*n)++ : cap - 1;
		for (; j > 0 && cmp(&r, &ord[j - 1], (void *)d) < 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = r;
	}
	return ord;
}

bool *print_ranks_shown(const struct distributed *d, size_t cap)
{
	if (!cap || d->world_size <= cap)
		return NULL;
	size_t len[3], at[3] = { 0 }, taken = 0;
	size_t *ord[3] = { ranks_first(d, true, cmp_cost, cap, &len[0]), ranks_first(d, false, cmp_lost, cap, &len[1]),
			   ranks_first(d, false, cmp_share, cap, &len[2]) };
	bool *shown = xcalloc(d->world_size, sizeof(*shown));
	while (taken < cap) /* ends: the orders of all ranks hold cap ranks each */
		for (int k = 0; k < 3 && taken < cap; k++) {
			while (at[k] < len[k] && shown[ord[k][at[k]]])
				at[k]++;
			if (at[k] < len[k]) {
				shown[ord[k][at[k]++]] = true;
				taken++;
			}
		}
	for (int k = 0; k < 3; k++)
		free(ord[k]);
	return shown;
}

/* m and v's larger; NaN once either is (no bound can be said then). */
static double worst(double m, double v)
{
	return v > m || v != v ? v : m;
}

/* A share (0..1) as a percentage no lower than it: "2%", else rounded up to one decimal
 * from 1% ("4.2%"), to two below ("0.21%"). */
static const char *pct_at_most(double share, char *buf, size_t n)
{
	double p = share * 100, whole = ceil(p - 1e-9);
	int dec = whole - p < 1e-9 ? 0 : p >= 1 ? 1 : 2;
	double scale = pow(10, dec);
	snprintf(buf, n, "%.*f%%", dec, ceil(p * scale - 1e-9) / scale);
	return buf;
}

/* Seconds (>= 0) as units_seconds shows them, 3 significant digits rounded up. */
static const char *secs_at_most(double s, char *buf, size_t n)
{
	if (s > 0) {
		double p = pow(10, floor(log10(s)) - 2);
		s = ceil(s / p - 1e-9) * p;
	}
	return units_seconds(s, buf, n);
}

/* The line counting `others` ranks left out that are no stragglers, the most of their
 * critical shares `share` and of their time lost `lost` (malloc'd). */
static char *others_line(size_t others, double share, double lost)
{
	const char *s = others == 1 ? "" : "s", *each = others == 1 ? "" : "each ";
	char p[32], t[40];
	if (share == 0) /* then no time lost either */
		return xasprintf("    … %zu more rank%s, never on the critical path (--export ranks: all)", others, s);
	if (!isfinite(share) || !isfinite(lost))
		return xasprintf("    … %zu more rank%s (--export ranks: all)", others, s);
	return xasprintf("    … %zu more rank%s, %sat most %s on critical path and %s lost (--export ranks: all)", others,
			 s, each, pct_at_most(share, p, sizeof(p)), secs_at_most(lost, t, sizeof(t)));
}

/* The line counting `strag` stragglers left out, the most of their costs `cost` (malloc'd). */
static char *stragglers_line(size_t strag, double cost)
{
	char t[40], bound[80] = "";
	if (isfinite(cost))
		snprintf(bound, sizeof(bound), ", %scosting %s%s", strag == 1 ? "" : "each ", cost > 0 ? "at most " : "",
			 secs_at_most(cost, t, sizeof(t)));
	return xasprintf("    … %zu more straggler%s%s (--export ranks --filter straggler=yes)", strag,
			 strag == 1 ? "" : "s", bound);
}

void print_ranks_left_out(struct sbuf *b, const struct distributed *d, const bool *shown, bool color)
{
	size_t strag = 0, others = 0;
	double cost = 0, share = 0, lost = 0;
	for (size_t r = 0; shown && r < d->world_size; r++) {
		const struct rank_stat *rs = &d->rank[r];
		if (shown[r])
			continue;
		if (rs->straggler) {
			strag++;
			cost = worst(cost, rs->slow_cost);
		} else {
			others++;
			share = worst(share, rs->critical_share);
			lost = worst(lost, rs->time_lost);
		}
	}
	char *line[2] = { strag ? stragglers_line(strag, cost) : NULL, others ? others_line(others, share, lost) : NULL };
	for (int i = 0; i < 2; i++)
		if (line[i]) {
			sb_style(b, color, SGR_DIM, SGR_NONE, line[i]);
			sb_puts(b, "\n");
			free(line[i]);
		}
}
