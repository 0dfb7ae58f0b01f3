/* SPDX-License-Identifier: MIT */
/* dasf.c: two DASF runs compared function by function (views.h): each run's tasks
 * grouped by function (dasf.h dasf_function_groups: dask's key_split names, so a token
 * that changes from run to run does not split a function in two), matched by that name.
 * Per function: the task count, total and mean task time of A and B, and a noise test of
 * the mean task time. A task without a duration counts as a task but leaves its side's
 * total unknown (empty, never 0), as do task times whose sum overflows (never inf); then
 * the function's deltas are empty and its change n/a (never slower or faster off a partial
 * or infinite total), named in the view's note and title. A function of one side only has
 * no time added (its other side is missing, not 0). The pair's total task times are n/a
 * likewise, said why (tasks without a duration, Compute events the loader skipped, task
 * times that overflow). Means are over
 * the tasks with a duration (scaled when the sum overflows: never inf). The tasks of a
 * function are not paired across runs, so the test is Welch's: B's mean minus A's against
 * 3 standard errors, sqrt(var_A/n_A + var_B/n_B) (from deviations scaled by the largest
 * task, so a sum of squares never overflows), and against 1% of A's mean, with
 * CMP_MIN_STEPS tasks on each side (else "n/a": not judged).
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
	double total, mean;       /* total: inf when the sum overflows (never shown) */
	double se;                /* the standard error of the mean, sqrt(var / n); 0 under 2 tasks */
	bool overflow;            /* the durations sum past the largest double */
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
	size_t nunknown;          /* functions of both sides with a side's total unknown (not judged) */
	size_t untimed_a, untimed_b; /* tasks without a duration (not in the total task time) */
	bool overflow_a, overflow_b; /* no untimed task, yet the total task time overflows */
	bool identical;           /* every function on both sides, the same count, total and spread */
	struct dasf_summary sa, sb;
};

/* The mean of durations >= 0 whose plain sum overflows: each over the largest (max > 0),
 * so the sum stays within n, then scaled back. */
static double scaled_mean(const struct dasf_fn_group *g, double max)
{
	double sum = 0;
	for (size_t i = 0; i < g->n; i++)
		sum += g->dur[i] / max;
	return sum / (double)g->n * max;
}

/* The standard error of the mean, sqrt(var / n) with the sample variance (n - 1), from
 * deviations over the largest duration (each at most 1 in size): no square overflows. */
static double std_error(const struct dasf_fn_group *g, double mean, double max)
{
	if (g->n < 2 || max == 0)
		return 0;
	double ss = 0;
	for (size_t i = 0; i < g->n; i++)
		ss += (g->dur[i] - mean) / max * ((g->dur[i] - mean) / max);
	return max * sqrt(ss / (double)(g->n - 1) / (double)g->n);
}

static void side_stats(const struct dasf_fn_group *g, struct fn_side *s)
{
	*s = (struct fn_side){ .ntasks = g->ntasks, .n = g->n };
	double max = 0;
	for (size_t i = 0; i < g->n; i++) {
		s->total += g->dur[i];
		max = g->dur[i] > max ? g->dur[i] : max;
	}
	s->overflow = !isfinite(s->total);
	if (!g->n)
		return;
	s->mean = s->overflow ? scaled_mean(g, max) : s->total / (double)g->n;
	s->se = std_error(g, s->mean, max);
}

/* A side's total task time of the function is known: every task of it has a duration
 * and their sum does not overflow. */
static bool total_known(const struct fn_side *s)
{
	return s->n == s->ntasks && !s->overflow;
}

/* Each side that has the function knows its total. */
static bool totals_known(const struct cmp_fn *f)
{
	return (!f->in_a || total_known(&f->a)) && (!f->in_b || total_known(&f->b));
}

/* Never slower or faster off a side whose total is unknown (a task left out of the mean
 * could be any time), nor under CMP_MIN_STEPS tasks a side. */
static void fn_test(struct cmp_fn *f)
{
	if (!f->in_a || !f->in_b) {
		f->change = f->in_a ? FN_ONLY_A : FN_ONLY_B;
		return;
	}
	f->noise = FN_Z * hypot(f->a.se, f->b.se);
	double d = f->b.mean - f->a.mean, floor = FN_FLOOR * f->a.mean;
	if (!totals_known(f) || f->a.n < CMP_MIN_STEPS || f->b.n < CMP_MIN_STEPS || !isfinite(f->noise))
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

/* Slower first, then by time added (slower) or |added| (others; a function of one side
 * only by its total there, the time that appeared or went away), rows with a total not
 * known after those whose totals are, by name. */
static int fn_order(const void *x, const void *y)
{
	const struct cmp_fn *a = x, *b = y;
	if ((a->change == FN_SLOWER) != (b->change == FN_SLOWER))
		return a->change == FN_SLOWER ? -1 : 1;
	if (totals_known(a) != totals_known(b))
		return totals_known(a) ? -1 : 1;
	if (!totals_known(a))
		return strcmp(a->name, b->name);
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
		m->nunknown += f->in_a && f->in_b && !totals_known(f);
		m->untimed_a += f->a.ntasks - f->a.n;
		m->untimed_b += f->b.ntasks - f->b.n;
		m->identical &= f->in_a && f->in_b && f->a.ntasks == f->b.ntasks && f->a.n == f->b.n &&
				f->a.total == f->b.total && f->a.mean == f->b.mean && f->a.se == f->b.se;
	}
	/* dasf_summarize: the total task time is NaN with a task without a usable duration, a
	 * Compute event skipped or a sum that overflows (a side has tasks here) */
	m->overflow_a = !m->untimed_a && !m->sa.lost_tasks && !isfinite(m->sa.total_task_s);
	m->overflow_b = !m->untimed_b && !m->sb.lost_tasks && !isfinite(m->sb.total_task_s);
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

/* B's change against A in percent into *pct: known when A's value is above 0 and the
 * ratio is finite (a tiny A's could overflow). */
static bool pct_known(double a, double b, double *pct)
{
	*pct = a > 0 ? 100 * (b - a) / a : NAN;
	return isfinite(*pct);
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
	double pct;
	bool deltas = f->in_a && f->in_b && totals_known(f); /* never off a partial or infinite total */
	bool pct_shown = deltas && f->b.n && pct_known(f->a.mean, f->b.mean, &pct);
	table_set_int_opt(t, row, 2, (long long)f->a.ntasks, f->in_a);
	table_set_int_opt(t, row, 3, (long long)f->b.ntasks, f->in_b);
	/* a task without a duration or a sum that overflows leaves the total unknown, never 0 or inf */
	table_set_num_opt(t, row, 4, f->a.total, f->in_a && total_known(&f->a));
	table_set_num_opt(t, row, 5, f->b.total, f->in_b && total_known(&f->b));
	table_set_num_opt(t, row, 6, added_s(f), deltas);
	table_set_num_opt(t, row, 7, f->a.mean, f->in_a && f->a.n);
	table_set_num_opt(t, row, 8, f->b.mean, f->in_b && f->b.n);
	table_set_num_opt(t, row, 9, pct_shown ? pct : 0, pct_shown);
	table_set_num_opt(t, row, 10, f->noise, f->change <= FN_FASTER);
}

enum { UNTIMED_NAMED = 6 };

/* Why a side's total of the function is unknown, appended to buf ("1 of 2 tasks in A has no
 * usable duration", "the task times of B overflow"; sep before it); nothing when known. */
static void side_why(const struct fn_side *s, char side, const char *sep, char *buf, size_t n)
{
	if (s->n < s->ntasks)
		text_appendf(buf, n, "%s%zu of %zu task%s in %c %s no usable duration", sep, s->ntasks - s->n, s->ntasks,
			     s->ntasks == 1 ? "" : "s", side, s->ntasks - s->n == 1 ? "has" : "have");
	else if (s->overflow)
		text_appendf(buf, n, "%sthe task times of %c overflow", sep, side);
}

/* The view's note: the functions of both sides not judged for a total not known, named
 * with why ("a (the task times of A overflow), b (...) and 3 more"; sanitized); "" without. */
static void unknown_note(const struct cmp_fns *m, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!m->nunknown)
		return;
	text_appendf(buf, n, "change n/a and deltas empty where a total is not known: ");
	size_t k = 0;
	for (size_t i = 0; i < m->n && k < UNTIMED_NAMED; i++) {
		const struct cmp_fn *f = &m->v[i];
		if (!f->in_a || !f->in_b || totals_known(f))
			continue;
		char *name = text_sanitize_dup(f->name, 0);
		text_appendf(buf, n, "%s%s%s (", k++ ? ", " : "", name, dasf_group_mark(f->stripped));
		free(name);
		side_why(&f->a, 'A', "", buf, n);
		side_why(&f->b, 'B', total_known(&f->a) ? "" : "; ", buf, n);
		text_appendf(buf, n, ")");
	}
	if (m->nunknown > k)
		text_appendf(buf, n, " and %zu more", m->nunknown - k);
}

struct table *compare_build_diff_functions(struct compare *c, char *err, size_t errn)
{
	const struct cmp_fns *m = fns_of(c);
	if (!m->nga || !m->ngb) {
		snprintf(err, errn, "needs DASF task events on both sides");
		return NULL;
	}
	char note[CMP_TEXT_MAX];
	unknown_note(m, note, sizeof(note));
	char *title = xasprintf("DASF functions, A vs B (slower first%s%s)", *note ? "; " : "", note);
	struct table *t = table_new("diff_functions", title);
	free(title);
	table_set_note(t, *note ? note : NULL);
	table_col_doc(t, table_add_col(t, "function", COL_TEXT, 24, 0),
		      "task function, named as dask's key_split groups keys (name-*: a per-call token left out); ");
	table_col_doc(t, table_add_col(t, "change", COL_TEXT, 9, 0),
		      "slower or faster: B's mean task time moved beyond noise_s and 1% of A's; n/a: under 16 tasks on "
		      "a side, or a side's total not known; ");
	table_add_col(t, "a_tasks", COL_INT, 7, 0);
	table_add_col(t, "b_tasks", COL_INT, 7, 0);
	static const char total_doc[] = "empty when a task of that side has no usable duration or its task times "
					"overflow; ";
	table_col_doc(t, seconds_col(t, "a_total_s", 3), total_doc);
	table_col_doc(t, seconds_col(t, "b_total_s", 3), total_doc);
	table_col_doc(t, seconds_col(t, "delta_total_s", 3),
		      "task time B added (negative: saved); empty when a side's total is not known or a side lacks the "
		      "function, as delta_mean_pct; ");
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

/* "+12.3%" of B against A, "n/a" when A is 0 (no relative change) or the ratio overflows. */
static const char *pct_text(double a, double b, char *buf, size_t n)
{
	double pct;
	if (pct_known(a, b, &pct))
		snprintf(buf, n, "%+.1f%%", pct);
	else
		snprintf(buf, n, "n/a");
	return buf;
}

/* Why the total task times are not compared: "tasks without a duration: 2 of A, 0 of B",
 * "Compute events skipped: 1 of A, 0 of B", "the task times of B overflow", or several
 * ("; " between). */
static const char *total_na_text(const struct cmp_fns *m, char *buf, size_t n)
{
	buf[0] = '\0';
	if (m->untimed_a || m->untimed_b)
		text_appendf(buf, n, "tasks without a duration: %zu of A, %zu of B", m->untimed_a, m->untimed_b);
	if (m->sa.lost_tasks || m->sb.lost_tasks)
		text_appendf(buf, n, "%sCompute events skipped: %zu of A, %zu of B", *buf ? "; " : "", m->sa.lost_tasks,
			     m->sb.lost_tasks);
	if (m->overflow_a || m->overflow_b)
		text_appendf(buf, n, "%sthe task times of %s overflow", *buf ? "; " : "",
			     m->overflow_a && m->overflow_b ? "A and B" : m->overflow_a ? "A" : "B");
	return buf;
}

/* A side's total task time is not known: a task without a duration, a Compute event skipped
 * or a sum that overflows. */
static bool totals_na(const struct cmp_fns *m)
{
	return m->untimed_a || m->untimed_b || m->sa.lost_tasks || m->sb.lost_tasks || m->overflow_a || m->overflow_b;
}

/* "; total task time +12.3% in B" when A has some; n/a when a side's total is not known
 * (a sum without a task is no total: never a saving read off the tasks left out), said why. */
static void total_clause(const struct cmp_fns *m, char *buf, size_t n)
{
	char why[192], pct[32];
	if (totals_na(m))
		text_appendf(buf, n, "; total task time n/a (%s)", total_na_text(m, why, sizeof(why)));
	else if (m->sa.total_task_s > 0)
		text_appendf(buf, n, "; total task time %s in B", pct_text(m->sa.total_task_s, m->sb.total_task_s, pct,
									   sizeof(pct)));
}

/* The slower function that added the most time; its change in percent, or in seconds
 * when A's mean is 0 s (no relative change). */
static void slower_sentence(const struct cmp_fns *m, char *buf, size_t n)
{
	const struct cmp_fn *f = &m->v[0];
	char a[32], b[32], d[32], *name = text_sanitize_dup(f->name, 0);
	double pct;
	if (pct_known(f->a.mean, f->b.mean, &pct))
		snprintf(d, sizeof(d), "%+.1f%%", pct);
	else
		units_seconds_signed(f->b.mean - f->a.mean, d, sizeof(d));
	snprintf(buf, n, "function %s%s slower in B: mean task %s -> %s (%s, %zu tasks in B)", name,
		 dasf_group_mark(f->stripped), units_seconds(f->a.mean, a, sizeof(a)), units_seconds(f->b.mean, b, sizeof(b)),
		 d, f->b.n);
	free(name);
	size_t k = strlen(buf);
	if (m->nslower > 1 && k < n)
		snprintf(buf + k, n - k, " (%zu functions slower)", m->nslower);
}

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

/* No function judged: too few tasks, or (with the tasks the test needs) a total not known. */
static void not_judged_sentence(const struct cmp_fns *m, char *buf, size_t n)
{
	size_t k = 0; /* functions with the tasks on both sides, so their totals not known */
	for (size_t i = 0; i < m->n; i++)
		k += m->v[i].change == FN_NA && m->v[i].a.n >= CMP_MIN_STEPS && m->v[i].b.n >= CMP_MIN_STEPS;
	snprintf(buf, n, "not judged: no function has %d tasks on both sides (the noise test needs them)", CMP_MIN_STEPS);
	if (k)
		text_appendf(buf, n, " and its totals known: %zu function%s with them %s a task without a usable "
			     "duration or task times that overflow (diff_functions)", k, k == 1 ? "" : "s",
			     k == 1 ? "has" : "have");
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
		not_judged_sentence(m, buf, n);
	}
	total_clause(m, buf, n);
	return rc;
}

/* "12.5 s over 7 tasks", "... (tied)" when other chains are as long (dasf.h critical_tied), or
 * "n/a (a dependency cycle)" (dasf.h critical_s NaN, critical_na). */
static void critical_text(const struct dasf_summary *d, char *num, size_t numn, char *buf, size_t n)
{
	if (isnan(d->critical_s))
		snprintf(buf, n, "n/a (%s)", d->critical_na);
	else
		snprintf(buf, n, "%s over %zu task%s%s", units_seconds(d->critical_s, num, numn), d->critical_len,
			 d->critical_len == 1 ? "" : "s", d->critical_tied ? " (tied)" : "");
}

void compare_dasf_summary(struct compare *c, struct summary *s)
{
	const struct cmp_fns *m = fns_of(c);
	if (!m->nga || !m->ngb)
		return;
	const struct dasf_summary *a = &m->sa, *b = &m->sb;
	char x[32], y[32], d[32], p[32], why[128];
	summary_add(s, TONE_NORMAL, "tasks", "%zu -> %zu (functions %zu -> %zu, workers %zu -> %zu, hosts %zu -> %zu)",
		    a->tasks, b->tasks, m->nga, m->ngb, a->workers, b->workers, a->hosts, b->hosts);
	if (totals_na(m)) /* a side's sum without those tasks is no total, nor one that overflows */
		summary_add(s, TONE_WARN, "task time", "%s -> %s (change n/a: %s)",
			    isfinite(a->total_task_s) ? units_seconds(a->total_task_s, x, sizeof(x)) : "n/a",
			    isfinite(b->total_task_s) ? units_seconds(b->total_task_s, y, sizeof(y)) : "n/a",
			    total_na_text(m, why, sizeof(why)));
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
