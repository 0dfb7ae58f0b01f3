/* SPDX-License-Identifier: MIT */
/* dasf.c: two DASF runs compared function by function (views.h): each run's tasks
 * grouped by function (dasf.h dasf_function_groups: dask's key_split names, so a token
 * that changes from run to run does not split a function in two), matched by that name.
 * Per function: the task count, total and mean task time of A and B, and a noise test of
 * the mean task time. A task without a duration counts as a task but leaves its side's
 * total, and the time added, unknown (empty, never 0), as does a function of one side only
 * (its other side is missing, not 0); and so the pair's total task times
 * (n/a, said why: never a change read off a partial sum); means and the test are over the
 * tasks with one. The tasks of a function are not paired across runs, so the test is
 * Welch's: B's mean minus A's against 3 standard errors, sqrt(var_A/n_A + var_B/n_B), and
 * against 1% of A's mean, with CMP_MIN_STEPS tasks on each side (else "n/a": not judged).
 * Owns the view diff_functions, the verdict and the Overview's lines of such a pair; the
 * verdict of identical runs claims the same task times only of functions with a duration,
 * and names those without one as not compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/internal.h"
#include "model/compare/views.h"
#include "model/dasf/dasf.h"
#include "model/run.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

#define FN_Z 3.0        /* standard errors a difference of means must exceed */
#define FN_FLOOR 0.01   /* ... and this fraction of A's mean */

enum fn_change { FN_SAME, FN_SLOWER, FN_FASTER, FN_NA, FN_ONLY_A, FN_ONLY_B };

struct fn_side {
	size_t ntasks;            /* tasks, with a duration or not */
	size_t n;                 /* tasks with a duration: the statistics are over these */
	double total, mean, var;  /* var: the sample variance (n - 1), 0 under 2 tasks */
};

struct cmp_fn {
	const char *name;         /* owned by the groups in struct cmp_fns */
	bool stripped;            /* a member's name had a token left out (shown "name-*") */
	bool in_a, in_b;
	struct fn_side a, b;
	double noise;             /* the test's threshold on B's mean minus A's (s) */
	enum fn_change change;
};

struct cmp_fns {
	struct dasf_fn_group *ga, *gb;
	size_t nga, ngb;
	struct cmp_fn *v;         /* slower first by added time, then by |added time| */
	size_t n;
	size_t nslower, nfaster, njudged;
	size_t untimed_a, untimed_b; /* tasks without a duration (not in the total task time) */
	bool identical;           /* every function on both sides, the same count, total and spread */
	struct dasf_summary sa, sb;
};

static void side_stats(const struct dasf_fn_group *g, struct fn_side *s)
{
	*s = (struct fn_side){ .ntasks = g->ntasks, .n = g->n };
	for (size_t i = 0; i < g->n; i++)
		s->total += g->dur[i];
	s->mean = g->n ? s->total / (double)g->n : 0;
	for (size_t i = 0; g->n > 1 && i < g->n; i++)
		s->var += (g->dur[i] - s->mean) * (g->dur[i] - s->mean) / (double)(g->n - 1);
}

static void fn_test(struct cmp_fn *f)
{
	if (!f->in_a || !f->in_b) {
		f->change = f->in_a ? FN_ONLY_A : FN_ONLY_B;
		return;
	}
	f->noise = FN_Z * sqrt(f->a.var / (double)f->a.n + f->b.var / (double)f->b.n);
	double d = f->b.mean - f->a.mean, floor = FN_FLOOR * f->a.mean;
	if (f->a.n < CMP_MIN_STEPS || f->b.n < CMP_MIN_STEPS)
		f->change = FN_NA;
	else if (d > f->noise && d > floor)
		f->change = FN_SLOWER;
	else if (-d > f->noise && -d > floor)
		f->change = FN_FASTER;
	else
		f->change = FN_SAME;
}

/* B's total minus A's (s): the time a function added in B (negative: saved). */
static double added_s(const struct cmp_fn *f)
{
	return f->b.total - f->a.total;
}

/* A side's total task time of the function is known: every task of it has a duration. */
static bool total_known(const struct fn_side *s)
{
	return s->n == s->ntasks;
}

/* Each side that has the function knows its total. */
static bool totals_known(const struct cmp_fn *f)
{
	return (!f->in_a || total_known(&f->a)) && (!f->in_b || total_known(&f->b));
}

/* added_s() is known: both sides have the function and know its total (a side without
 * it is missing, not a total of 0). */
static bool added_known(const struct cmp_fn *f)
{
	return f->in_a && f->in_b && totals_known(f);
}

/* Slower first, then by time added (slower) or |added| (others; a function of one side
 * only by its total there, the time that appeared or went away), a row with a total not
 * known after those whose totals are. */
static int fn_order(const void *x, const void *y)
{
	const struct cmp_fn *a = x, *b = y;
	if ((a->change == FN_SLOWER) != (b->change == FN_SLOWER))
		return a->change == FN_SLOWER ? -1 : 1;
	if (totals_known(a) != totals_known(b))
		return totals_known(a) ? -1 : 1;
	double ka = a->change == FN_SLOWER ? added_s(a) : fabs(added_s(a));
	double kb = b->change == FN_SLOWER ? added_s(b) : fabs(added_s(b));
	if (ka != kb)
		return ka < kb ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int by_name(const void *x, const void *y)
{
	return strcmp((*(const struct cmp_fn *const *)x)->name, (*(const struct cmp_fn *const *)y)->name);
}

/* A's functions, then B's matched by name (a binary search over A's, sorted by name:
 * a run may have many thousands of function names) or appended. */
static void fns_match(struct cmp_fns *m)
{
	m->v = xcalloc(m->nga + m->ngb + 1, sizeof(*m->v));
	struct cmp_fn **sorted = xmalloc((m->nga + 1) * sizeof(*sorted));
	for (size_t i = 0; i < m->nga; i++) {
		struct cmp_fn *f = &m->v[m->n++];
		*f = (struct cmp_fn){ .name = m->ga[i].name, .stripped = m->ga[i].stripped, .in_a = true };
		side_stats(&m->ga[i], &f->a);
		sorted[i] = f;
	}
	qsort(sorted, m->nga, sizeof(*sorted), by_name);
	for (size_t j = 0; j < m->ngb; j++) {
		struct cmp_fn key = { .name = m->gb[j].name }, *pk = &key;
		struct cmp_fn **hit = bsearch(&pk, sorted, m->nga, sizeof(*sorted), by_name);
		struct cmp_fn *f = hit ? *hit : NULL;
		if (!f) {
			f = &m->v[m->n++];
			*f = (struct cmp_fn){ .name = m->gb[j].name };
		}
		f->in_b = true;
		f->stripped |= m->gb[j].stripped;
		side_stats(&m->gb[j], &f->b);
	}
	free(sorted);
}

static struct cmp_fns *fns_compute(struct compare *c)
{
	struct cmp_fns *m = xcalloc(1, sizeof(*m));
	if (!dasf_summarize(c->a, &m->sa) || !dasf_summarize(c->b, &m->sb))
		return m;
	m->nga = dasf_function_groups(c->a, &m->ga);
	m->ngb = dasf_function_groups(c->b, &m->gb);
	fns_match(m);
	m->identical = m->n > 0;
	for (size_t i = 0; i < m->n; i++) {
		struct cmp_fn *f = &m->v[i];
		fn_test(f);
		m->nslower += f->change == FN_SLOWER;
		m->nfaster += f->change == FN_FASTER;
		m->njudged += f->change <= FN_FASTER;
		m->untimed_a += f->a.ntasks - f->a.n;
		m->untimed_b += f->b.ntasks - f->b.n;
		m->identical &= f->in_a && f->in_b && f->a.ntasks == f->b.ntasks && f->a.n == f->b.n &&
				f->a.total == f->b.total && f->a.var == f->b.var;
	}
	qsort(m->v, m->n, sizeof(*m->v), fn_order);
	return m;
}

static struct cmp_fns *fns_of(struct compare *c)
{
	if (!c->memo->fns)
		c->memo->fns = fns_compute(c);
	return c->memo->fns;
}

void compare_fns_free(struct cmp_fns *m)
{
	if (!m)
		return;
	dasf_fn_groups_free(m->ga, m->nga);
	dasf_fn_groups_free(m->gb, m->ngb);
	free(m->v);
	free(m);
}

/* ---- diff_functions --------------------------------------------------------------- */

static const char *change_name(enum fn_change c)
{
	static const char *const name[] = { "same", "slower", "faster", "n/a", "only_in_A", "only_in_B" };
	return name[c];
}

static int seconds_col(struct table *t, const char *name, int prec)
{
	int col = table_add_col(t, name, COL_NUM, 9, prec);
	table_col_unit(t, col, UNIT_S);
	return col;
}

static void fn_row(struct table *t, const struct cmp_fn *f)
{
	size_t row = table_add_row(t, -1);
	char *name = xasprintf("%s%s", f->name, dasf_group_mark(f->stripped));
	table_set_text(t, row, 0, name);
	free(name);
	table_set_text(t, row, 1, change_name(f->change));
	bool both = f->in_a && f->in_b;
	table_set_int_opt(t, row, 2, (long long)f->a.ntasks, f->in_a);
	table_set_int_opt(t, row, 3, (long long)f->b.ntasks, f->in_b);
	/* a task without a duration leaves the total unknown, never summed as 0 */
	table_set_num_opt(t, row, 4, f->a.total, f->in_a && total_known(&f->a));
	table_set_num_opt(t, row, 5, f->b.total, f->in_b && total_known(&f->b));
	table_set_num_opt(t, row, 6, added_s(f), added_known(f));
	table_set_num_opt(t, row, 7, f->a.mean, f->in_a && f->a.n);
	table_set_num_opt(t, row, 8, f->b.mean, f->in_b && f->b.n);
	table_set_num_opt(t, row, 9, 100 * (f->b.mean - f->a.mean) / f->a.mean, both && f->a.mean > 0 && f->b.n);
	table_set_num_opt(t, row, 10, f->noise, f->change <= FN_FASTER);
}

struct table *compare_build_diff_functions(struct compare *c, char *err, size_t errn)
{
	const struct cmp_fns *m = fns_of(c);
	if (!m->nga || !m->ngb) {
		snprintf(err, errn, "needs DASF task events on both sides");
		return NULL;
	}
	struct table *t = table_new("diff_functions", "DASF functions, A vs B (slower first)");
	table_col_doc(t, table_add_col(t, "function", COL_TEXT, 24, 0),
		      "task function, named as dask's key_split groups keys (name-*: a per-call token left out); ");
	table_col_doc(t, table_add_col(t, "change", COL_TEXT, 9, 0),
		      "slower or faster: B's mean task time moved beyond noise_s and 1% of A's; n/a: under 16 tasks on "
		      "a side; ");
	table_add_col(t, "a_tasks", COL_INT, 7, 0);
	table_add_col(t, "b_tasks", COL_INT, 7, 0);
	seconds_col(t, "a_total_s", 3);
	seconds_col(t, "b_total_s", 3);
	table_col_doc(t, seconds_col(t, "delta_total_s", 3),
		      "task time B added (negative: saved); empty when a task of the function has no duration or "
		      "a side lacks the function; ");
	seconds_col(t, "a_mean_task_s", 4);
	seconds_col(t, "b_mean_task_s", 4);
	table_col_unit(t, table_add_col(t, "delta_mean_pct", COL_NUM, 8, 1), UNIT_PCT);
	table_col_doc(t, seconds_col(t, "noise_s", 4),
		      "3 standard errors of the difference of the means, sqrt(var_A/n_A + var_B/n_B); ");
	for (size_t i = 0; i < m->n; i++)
		fn_row(t, &m->v[i]);
	return t;
}

/* ---- verdict and Overview -------------------------------------------------------- */

static double pct_change(double a, double b)
{
	return 100 * (b - a) / a;
}

/* "+12.3%" of B against A, "n/a" when A is 0 (no relative change). */
static const char *pct_text(double a, double b, char *buf, size_t n)
{
	if (a > 0)
		snprintf(buf, n, "%+.1f%%", pct_change(a, b));
	else
		snprintf(buf, n, "n/a");
	return buf;
}

/* "tasks without a duration: 2 of A, 0 of B": why the total task times are not compared. */
static const char *untimed_text(const struct cmp_fns *m, char *buf, size_t n)
{
	snprintf(buf, n, "tasks without a duration: %zu of A, %zu of B", m->untimed_a, m->untimed_b);
	return buf;
}

/* "; total task time +12.3% in B" when A has some; n/a when a side has a task without a
 * duration (a sum without it is no total: never a saving read off the tasks left out). */
static void total_clause(const struct cmp_fns *m, char *buf, size_t n)
{
	char untimed[96];
	if (m->untimed_a || m->untimed_b)
		text_appendf(buf, n, "; total task time n/a (%s)", untimed_text(m, untimed, sizeof(untimed)));
	else if (m->sa.total_task_s > 0)
		text_appendf(buf, n, "; total task time %+.1f%% in B", pct_change(m->sa.total_task_s, m->sb.total_task_s));
}

static void slower_sentence(const struct cmp_fns *m, char *buf, size_t n)
{
	const struct cmp_fn *f = &m->v[0];
	char a[32], b[32], *name = text_sanitize_dup(f->name, 0);
	snprintf(buf, n, "function %s%s slower in B: mean task %s -> %s (%+.1f%%, %zu tasks in B)", name,
		 dasf_group_mark(f->stripped), units_seconds(f->a.mean, a, sizeof(a)), units_seconds(f->b.mean, b, sizeof(b)),
		 pct_change(f->a.mean, f->b.mean), f->b.n);
	free(name);
	size_t k = strlen(buf);
	if (m->nslower > 1 && k < n)
		snprintf(buf + k, n - k, " (%zu functions slower)", m->nslower);
}

enum { UNTIMED_NAMED = 6 };

/* The functions of both runs with no task that has a duration on a side, appended to buf
 * ("a, b and 3 more"; sanitized). Returns their count. */
static size_t untimed_fns(const struct cmp_fns *m, char *buf, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct cmp_fn *f = &m->v[i];
		if (!f->in_a || !f->in_b || (f->a.n && f->b.n))
			continue;
		if (k++ >= UNTIMED_NAMED)
			continue;
		char *name = text_sanitize_dup(f->name, 0);
		text_appendf(buf, n, "%s%s%s", k > 1 ? ", " : "", name, dasf_group_mark(f->stripped));
		free(name);
	}
	if (k > UNTIMED_NAMED)
		text_appendf(buf, n, " and %zu more", k - UNTIMED_NAMED);
	return k;
}

/* Two identical runs: the same task times, but never of a function without a duration
 * (not compared, named). Returns the verdict's code (compare_dasf_verdict). */
static int identical_sentence(const struct cmp_fns *m, char *buf, size_t n)
{
	char names[512] = "";
	size_t k = untimed_fns(m, names, sizeof(names));
	if (!k) {
		snprintf(buf, n, "no difference: the same task times for all %zu function%s", m->n,
			 m->n == 1 ? "" : "s");
		return 0;
	}
	if (k == m->n)
		snprintf(buf, n, "task times not compared: no task of the %zu function%s has a duration", m->n,
			 m->n == 1 ? "" : "s");
	else
		snprintf(buf, n, "no difference: the same task times for %zu of %zu functions", m->n - k, m->n);
	text_appendf(buf, n, "; not compared: %s (no task with a duration)", names);
	return 2;
}

int compare_dasf_verdict(struct compare *c, char *buf, size_t n)
{
	const struct cmp_fns *m = fns_of(c);
	if (!m->nga || !m->ngb) {
		snprintf(buf, n, "task profiles not compared: %s has no DASF task event", !m->nga ? "A" : "B");
		return -1;
	}
	if (m->identical)
		return identical_sentence(m, buf, n);
	int rc = 2;
	if (m->nslower) {
		slower_sentence(m, buf, n);
		rc = 1;
	} else if (m->njudged) {
		snprintf(buf, n, "no function slower in B beyond its noise (%zu of %zu function%s judged%s)", m->njudged, m->n,
			 m->n == 1 ? "" : "s", m->nfaster ? ", some faster" : "");
		rc = 0;
	} else {
		snprintf(buf, n, "not judged: no function has %d tasks on both sides (the noise test needs them)",
			 CMP_MIN_STEPS);
	}
	total_clause(m, buf, n);
	return rc;
}

/* "12.5 s over 7 tasks", or "n/a (a dependency cycle)" (dasf.h critical_s NaN, critical_na). */
static void critical_text(const struct dasf_summary *d, char *num, size_t numn, char *buf, size_t n)
{
	if (isnan(d->critical_s))
		snprintf(buf, n, "n/a (%s)", d->critical_na);
	else
		snprintf(buf, n, "%s over %zu task%s", units_seconds(d->critical_s, num, numn), d->critical_len,
			 d->critical_len == 1 ? "" : "s");
}

void compare_dasf_summary(struct compare *c, struct summary *s)
{
	const struct cmp_fns *m = fns_of(c);
	if (!m->nga || !m->ngb)
		return;
	const struct dasf_summary *a = &m->sa, *b = &m->sb;
	char x[32], y[32], d[32], p[32], untimed[96];
	summary_add(s, TONE_NORMAL, "tasks", "%zu -> %zu (functions %zu -> %zu, workers %zu -> %zu, hosts %zu -> %zu)",
		    a->tasks, b->tasks, m->nga, m->ngb, a->workers, b->workers, a->hosts, b->hosts);
	if (m->untimed_a || m->untimed_b) /* a side's sum without those tasks is no total */
		summary_add(s, TONE_WARN, "task time", "%s -> %s (change n/a: %s)",
			    m->untimed_a ? "n/a" : units_seconds(a->total_task_s, x, sizeof(x)),
			    m->untimed_b ? "n/a" : units_seconds(b->total_task_s, y, sizeof(y)),
			    untimed_text(m, untimed, sizeof(untimed)));
	else
		summary_add(s, TONE_NORMAL, "task time", "%s -> %s (%s, %s)", units_seconds(a->total_task_s, x, sizeof(x)),
			    units_seconds(b->total_task_s, y, sizeof(y)),
			    units_seconds_signed(b->total_task_s - a->total_task_s, d, sizeof(d)),
			    pct_text(a->total_task_s, b->total_task_s, p, sizeof(p)));
	char ca[64], cb[64];
	critical_text(a, x, sizeof(x), ca, sizeof(ca));
	critical_text(b, y, sizeof(y), cb, sizeof(cb));
	summary_add(s, TONE_NORMAL, "critical path", "%s -> %s", ca, cb);
	summary_add(s, TONE_NORMAL, "span", "%s -> %s (first task start to last task end, the longest host)",
		    units_seconds(a->span_s, x, sizeof(x)), units_seconds(b->span_s, y, sizeof(y)));
}
