/* SPDX-License-Identifier: MIT */
/* sweep.c: two GenAI-Perf sweeps compared level by level (views.h): the view diff_sweep
 * and the verdict of a sweep pair. A row pairs the results of A and B at one level of the
 * stimulus (and one workload when either sweep holds several), each side's config named.
 * A level where a side has two results or more (a level measured twice, another run's
 * level file beside the sweep) is never compared by whichever result comes first: it gets
 * a row per result, in name order, its deltas empty, and the verdict names the results
 * ("not compared: concurrency 2 (2 results in A: c2, rerun/c2)"). The verdict claims the
 * same values only of the metrics it compared, and names those one side records alone
 * ("not judged: request throughput (only in A)"). A finding about one series (its knee,
 * its latency fit) is judged on the other side by that series' like there, paired as the
 * levels are (compare_sweep_series), and for a knee only where that side's knee test
 * compared the levels the finding's did (compare_sweep_unjudged). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/internal.h"
#include "model/compare/views.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/xalloc.h"

struct sw_metric {
	const char *name;
	enum sweep_metric m;
	enum sweep_stat st;
};
static const struct sw_metric sw_metrics[] = {
	{ "latency_p50", SM_LATENCY, SS_P50 }, { "latency_p99", SM_LATENCY, SS_P99 },
	{ "ttft_p99", SM_TTFT, SS_P99 }, { "request_throughput", SM_RPS, SS_AVG },
	{ "output_token_throughput", SM_TPS, SS_AVG },
};
enum { SW_NMETRICS = ARRAY_LEN(sw_metrics), SW_FIRST_THROUGHPUT = 3 };
/* The columns naming each side's config, before the workload. */
enum { SW_A_CONFIG_COL = CMP_SWEEP_WORKLOAD_COL - 2, SW_B_CONFIG_COL = CMP_SWEEP_WORKLOAD_COL - 1 };
_Static_assert(2 + 4 * SW_NMETRICS == SW_A_CONFIG_COL, "diff_sweep: the metric columns, then the configs");

/* Results named per level and side in the verdict, and levels with several results named;
 * the others counted. */
enum { RESULTS_NAMED = 3, SEVERAL_NAMED = 2 };

static const char *cell_text(const struct table *t, size_t row, int col)
{
	const struct table_cell *c = table_cell(t, row, col);
	return c && c->present && c->text ? c->text : "";
}

/* The stimulus of a sweep: its first series' detected stimulus, -1 when none. */
static int sweep_stim_of(const struct sweep_set *s)
{
	for (size_t i = 0; i < s->nseries; i++)
		if (s->series[i].stim >= 0)
			return s->series[i].stim;
	return -1;
}

/* crossed[k]: stimulus k is held fixed in a series of sa or sb, crossed with the one the
 * series varies (series fixed: "input_length=100"), and is not the stimulus compared. */
static void crossed_stims(const struct sweep_set *sa, const struct sweep_set *sb, bool crossed[ST_N])
{
	const struct sweep_set *side[] = { sa, sb };
	memset(crossed, 0, ST_N * sizeof(*crossed));
	for (size_t j = 0; j < ARRAY_LEN(side); j++)
		for (size_t i = 0; i < side[j]->nseries; i++)
			for (const char *p = side[j]->series[i].fixed; p && *p; p += strcspn(p, " "), p += *p == ' ')
				for (int k = 0; k < ST_N; k++) {
					size_t len = strlen(sweep_stim_name(k));
					crossed[k] |= strncmp(p, sweep_stim_name(k), len) == 0 && p[len] == '=';
				}
	if (sweep_stim_of(sa) >= 0)
		crossed[sweep_stim_of(sa)] = false;
}

/* "name=val" appended to *key (space separated). */
static void key_add(char **key, const char *name, const char *val)
{
	char *next = xasprintf("%s%s%s=%s", *key, **key ? " " : "", name, val);
	free(*key);
	*key = next;
}

/* The key pairing config c with its like on the other side: its values of the workload
 * keys that split either sweep (wl_split) and of the stimuli crossed with the one
 * compared (crossed), "model=auto url=n/a input_length=100" (as the series' names give
 * them); "" when none (one workload a side: they pair, and the verdict says when they
 * differ). */
static char *sweep_pair_key(const struct sweep_set *sa, const struct sweep_set *sb, const bool crossed[ST_N],
			    const struct sweep_cfg *c)
{
	char *key = xstrdup("");
	for (int k = 0; k < WL_N; k++)
		if (sa->wl_split[k] || sb->wl_split[k])
			key_add(&key, sweep_wl_name(k), c->wl[k] ? c->wl[k] : "n/a");
	for (int k = 0; k < ST_N; k++) {
		char val[40] = "n/a";
		if (c->has_stim[k])
			snprintf(val, sizeof(val), "%g", c->stim[k]);
		if (crossed[k])
			key_add(&key, sweep_stim_name(k), val);
	}
	return key;
}

/* Whether s holds configs of several workloads (a key with two recorded values). */
static bool sweep_splits(const struct sweep_set *s)
{
	for (int k = 0; k < WL_N; k++)
		if (s->wl_split[k])
			return true;
	return false;
}

/* Whether the rows of sa and sb pair by a key (sweep_pair_key is not ""). */
static bool sweep_keyed(const struct sweep_set *sa, const struct sweep_set *sb)
{
	bool crossed[ST_N];
	crossed_stims(sa, sb, crossed);
	for (int k = 0; k < ST_N; k++)
		if (crossed[k])
			return true;
	return sweep_splits(sa) || sweep_splits(sb);
}

/* Each config's pair key of s (sweep_pair_key), made once: a malloc'd array of s->ncfg. */
static char **sweep_pair_keys(const struct sweep_set *sa, const struct sweep_set *sb, const struct sweep_set *s)
{
	bool crossed[ST_N];
	crossed_stims(sa, sb, crossed);
	char **keys = xmalloc((s->ncfg + 1) * sizeof(*keys));
	for (size_t i = 0; i < s->ncfg; i++)
		keys[i] = sweep_pair_key(sa, sb, crossed, &s->cfg[i]);
	return keys;
}

static void sweep_pair_keys_free(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* One level of diff_sweep: a workload key (one of the pair keys) and a level of the stimulus. */
struct sw_level {
	const char *wl;
	double v;
};

static int cmp_sw_level(const void *x, const void *y)
{
	const struct sw_level *a = x, *b = y;
	int c = strcmp(a->wl, b->wl);
	return c ? c : (a->v > b->v) - (a->v < b->v);
}

/* A config with values: a run directory without results has none, and is no second result
 * beside one (as the single-run sweep counts them, model/sweep/analysis.c). */
static bool has_results(const struct sweep_cfg *c)
{
	return c->has_stored || c->has_calc;
}

static int cmp_cfg_name(const void *x, const void *y)
{
	const struct sweep_cfg *a = *(const struct sweep_cfg *const *)x, *b = *(const struct sweep_cfg *const *)y;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->path, b->path);
}

/* The results of s (its pair keys: keys) at level l->v of stimulus k in workload l->wl,
 * in name order, into out (room for s->ncfg): the configs with values, or the first
 * without when none has any. Returns the count (0: s lacks the level). */
static size_t sweep_level(const struct sweep_set *s, char *const *keys, int k, const struct sw_level *l,
			  const struct sweep_cfg **out)
{
	size_t n = 0;
	const struct sweep_cfg *bare = NULL;
	for (size_t i = 0; i < s->ncfg; i++) {
		const struct sweep_cfg *c = &s->cfg[i];
		if (!c->has_stim[k] || c->stim[k] != l->v || strcmp(keys[i], l->wl) != 0)
			continue;
		if (has_results(c))
			out[n++] = c;
		else if (!bare)
			bare = c;
	}
	if (!n && bare)
		out[n++] = bare;
	qsort(out, n, sizeof(*out), cmp_cfg_name);
	return n;
}

static bool level_value(const struct sweep_cfg *c, const struct sw_metric *m, double *v)
{
	if (!c || (m->m == SM_TTFT && c->has_streaming && !c->streaming))
		return false;
	return sweep_value(c, m->m, m->st, v);
}

/* A row of diff_sweep at level l, its workload cell wl ("": none); the deltas only when
 * the row is judged (one result a side at that level). */
static void sweep_row(struct table *t, int k, const struct sw_level *l, const char *wl, const struct sweep_cfg *a,
		      const struct sweep_cfg *b, bool judged)
{
	size_t row = table_add_row(t, -1);
	table_set_text(t, row, 0, sweep_stim_name(k));
	table_set_num(t, row, 1, l->v);
	if (a)
		table_set_text(t, row, SW_A_CONFIG_COL, a->name);
	if (b)
		table_set_text(t, row, SW_B_CONFIG_COL, b->name);
	if (*wl)
		table_set_text(t, row, CMP_SWEEP_WORKLOAD_COL, wl);
	for (size_t i = 0; i < SW_NMETRICS; i++) {
		double va = 0, vb = 0;
		bool ha = level_value(a, &sw_metrics[i], &va), hb = level_value(b, &sw_metrics[i], &vb);
		int col = 2 + 4 * (int)i;
		table_set_num_opt(t, row, col, va, ha);
		table_set_num_opt(t, row, col + 1, vb, hb);
		table_set_num_opt(t, row, col + 2, vb - va, judged && ha && hb);
		table_set_num_opt(t, row, col + 3, va != 0 ? 100.0 * (vb - va) / va : 0, judged && ha && hb && va != 0);
	}
}

/* The rows of level l: one pairing A's result with B's; when a side has several, one row
 * per result (of the side with one, its result on each row), none judged. */
static void level_rows(struct table *t, int k, const struct sw_level *l, const char *wl,
		       const struct sweep_cfg *const *a, size_t na, const struct sweep_cfg *const *b, size_t nb)
{
	size_t rows = na > nb ? na : nb;
	for (size_t i = 0; i < rows; i++)
		sweep_row(t, k, l, wl, na == 1 ? a[0] : i < na ? a[i] : NULL, nb == 1 ? b[0] : i < nb ? b[i] : NULL,
			  na <= 1 && nb <= 1);
}

/* The (workload, level) pairs of s's configs at a level of stimulus k, appended to lv. */
static size_t sweep_levels(const struct sweep_set *s, char *const *keys, int k, struct sw_level *lv, size_t n)
{
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[i].has_stim[k])
			lv[n++] = (struct sw_level){ keys[i], s->cfg[i].stim[k] };
	return n;
}

static struct table *diff_sweep_table(void)
{
	struct table *t = table_new("diff_sweep", "Sweep levels, A vs B (delta = B - A)");
	table_add_col(t, "stimulus", COL_TEXT, 12, 0);
	table_add_col(t, "level", COL_NUM, 8, 2);
	for (size_t i = 0; i < SW_NMETRICS; i++) {
		char name[64];
		static const char *const part[] = { "a_", "b_", "delta_", "delta_" };
		for (size_t p = 0; p < ARRAY_LEN(part); p++) { /* the unit from the name: "_ms", "_pct" */
			snprintf(name, sizeof(name), "%s%s%s", part[p], sw_metrics[i].name,
				 p == 3 ? "_pct" : sweep_metric_suffix(sw_metrics[i].m));
			table_add_col(t, name, COL_NUM, 10, p == 3 ? 1 : 3);
		}
	}
	static const char doc[] = "the config (its directory under the sweep) the side's values are of; a level "
				  "with several results on a side has a row per result and no delta; ";
	table_col_doc(t, table_add_col(t, "a_config", COL_TEXT, 24, 0), doc);
	table_col_doc(t, table_add_col(t, "b_config", COL_TEXT, 24, 0), doc);
	table_add_col(t, "workload", COL_TEXT, 24, 0);
	return t;
}

struct table *compare_build_diff_sweep(struct compare *c, char *err, size_t errn)
{
	struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	if (!sa || !sb || !sa->ncfg || !sb->ncfg) {
		snprintf(err, errn, "needs a GenAI-Perf sweep on both sides");
		return NULL;
	}
	int k = sweep_stim_of(sa);
	if (k < 0 || k != sweep_stim_of(sb)) {
		snprintf(err, errn, "the sweeps vary no common stimulus");
		return NULL;
	}
	struct table *t = diff_sweep_table();
	char **ka = sweep_pair_keys(sa, sb, sa), **kb = sweep_pair_keys(sa, sb, sb);
	struct sw_level *lv = xmalloc((sa->ncfg + sb->ncfg) * sizeof(*lv));
	const struct sweep_cfg **ra = xmalloc((sa->ncfg + 1) * sizeof(*ra));
	const struct sweep_cfg **rb = xmalloc((sb->ncfg + 1) * sizeof(*rb));
	size_t n = sweep_levels(sa, ka, k, lv, 0);
	n = sweep_levels(sb, kb, k, lv, n);
	qsort(lv, n, sizeof(*lv), cmp_sw_level);
	char across[512] = ""; /* one workload a side, not the same: every row without a key says so */
	if (!sweep_splits(sa) && !sweep_splits(sb))
		compare_workload_diff(c, across, sizeof(across));
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && cmp_sw_level(&lv[i], &lv[i - 1]) == 0)
			continue;
		size_t na = sweep_level(sa, ka, k, &lv[i], ra), nb = sweep_level(sb, kb, k, &lv[i], rb);
		level_rows(t, k, &lv[i], *lv[i].wl ? lv[i].wl : across, ra, na, rb, nb);
	}
	free(ra);
	free(rb);
	free(lv);
	sweep_pair_keys_free(ka, sa->ncfg);
	sweep_pair_keys_free(kb, sb->ncfg);
	return t;
}

/* ---- the verdict ---------------------------------------------------------------------- */

/* Metric i of sw_metrics in words: "latency p50", "output token throughput". */
static void sw_metric_words(size_t i, char *buf, size_t n)
{
	snprintf(buf, n, "%s", sw_metrics[i].name);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* Whether wl is one of keys[0, n). */
static bool has_key(char *const *keys, size_t n, const char *wl)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], wl) == 0)
			return true;
	return false;
}

/* The workloads of one side the other lacks (pair keys ks[0, ns) against ko[0, no)),
 * appended to buf after tag ("; only in A: model=x, model=y"). */
static void one_sided(char *const *ks, size_t ns, char *const *ko, size_t no, const char *tag, char *buf,
		      size_t n)
{
	bool any = false;
	for (size_t i = 0; i < ns; i++) {
		if (has_key(ks, i, ks[i]) || has_key(ko, no, ks[i]))
			continue; /* said already, or the other side has it */
		text_appendf(buf, n, "%s%s", any ? ", " : tag, ks[i]);
		any = true;
	}
}

/* Where row r of diff_sweep t has values: a metric on both sides (a delta), A's or B's
 * alone, no metric on both (values on both sides, or on neither), or a level both sides
 * have with several results on a side (rows of one level and workload: not compared). */
enum lv_side { LV_BOTH, LV_A, LV_B, LV_APART, LV_SEVERAL };

/* Whether rows r and q of t are of one level and workload. */
static bool same_level(const struct table *t, size_t r, size_t q)
{
	return table_cell(t, r, 1)->num == table_cell(t, q, 1)->num &&
	       strcmp(cell_text(t, r, CMP_SWEEP_WORKLOAD_COL), cell_text(t, q, CMP_SWEEP_WORKLOAD_COL)) == 0;
}

/* The rows [*lo, *hi) of t of row r's level and workload; whether both sides have a result
 * among them. */
static bool level_group(const struct table *t, size_t r, size_t *lo, size_t *hi)
{
	*lo = r;
	*hi = r + 1;
	while (*lo > 0 && same_level(t, r, *lo - 1))
		(*lo)--;
	while (*hi < t->nrow && same_level(t, r, *hi))
		(*hi)++;
	bool a = false, b = false;
	for (size_t q = *lo; q < *hi; q++) {
		a |= *cell_text(t, q, SW_A_CONFIG_COL) != '\0';
		b |= *cell_text(t, q, SW_B_CONFIG_COL) != '\0';
	}
	return a && b;
}

static enum lv_side level_side(const struct table *t, size_t r)
{
	size_t lo, hi;
	if (level_group(t, r, &lo, &hi) && hi - lo > 1)
		return LV_SEVERAL;
	bool a = false, b = false;
	for (size_t i = 0; i < SW_NMETRICS; i++) {
		int col = 2 + 4 * (int)i;
		if (table_cell(t, r, col + 2)->present)
			return LV_BOTH;
		a |= table_cell(t, r, col)->present;
		b |= table_cell(t, r, col + 1)->present;
	}
	return a == b ? LV_APART : a ? LV_A : LV_B;
}

enum { LEVELS_NAMED = 6 };

/* Whether row q of t names another config in column col than the row before it (rows of a
 * level are in name order). */
static bool new_config(const struct table *t, size_t lo, size_t q, int col)
{
	return *cell_text(t, q, col) && (q == lo || strcmp(cell_text(t, q, col), cell_text(t, q - 1, col)) != 0);
}

/* The configs of one side (column col) on rows [lo, hi) of t, appended to buf after sep
 * when there are several: "2 results in A: c2, rerun/c2", the first RESULTS_NAMED named.
 * Returns whether it appended. */
static bool level_results(const struct table *t, size_t lo, size_t hi, int col, const char *sep, char *buf,
			  size_t n)
{
	size_t k = 0, named = 0;
	for (size_t q = lo; q < hi; q++)
		k += new_config(t, lo, q, col);
	if (k < 2)
		return false;
	text_appendf(buf, n, "%s%zu results in %s: ", sep, k, col == SW_A_CONFIG_COL ? "A" : "B");
	for (size_t q = lo; q < hi && named < RESULTS_NAMED; q++)
		if (new_config(t, lo, q, col))
			text_appendf(buf, n, "%s%s", named++ ? ", " : "", cell_text(t, q, col));
	if (k > RESULTS_NAMED)
		text_appendf(buf, n, " and %zu more", k - RESULTS_NAMED);
	return true;
}

/* The levels of t where a side has several results, appended to buf after the other
 * levels not compared (any: some were named): "2 (2 results in A: c2, rerun/c2)", the
 * first SEVERAL_NAMED named, the others counted. */
static void levels_several(const struct table *t, bool split, bool any, char *buf, size_t n)
{
	size_t k = 0;
	for (size_t r = 0, lo, hi; r < t->nrow; r = hi) {
		if (!level_group(t, r, &lo, &hi) || hi - lo < 2 || k++ >= SEVERAL_NAMED)
			continue;
		const char *wl = cell_text(t, r, CMP_SWEEP_WORKLOAD_COL);
		if (!any)
			text_appendf(buf, n, "; not compared: %s ", table_cell(t, r, 0)->text);
		text_appendf(buf, n, "%s%g%s%s (", any ? ", " : "", table_cell(t, r, 1)->num, split ? " for " : "",
			     split ? wl : "");
		bool in_a = level_results(t, lo, hi, SW_A_CONFIG_COL, "", buf, n);
		level_results(t, lo, hi, SW_B_CONFIG_COL, in_a ? ", " : "", buf, n);
		text_appendf(buf, n, ")");
		any = true;
	}
	if (k > SEVERAL_NAMED)
		text_appendf(buf, n, " and %zu more level%s with several results on a side", k - SEVERAL_NAMED,
			     k - SEVERAL_NAMED == 1 ? "" : "s");
}

/* The levels of diff_sweep t not compared, appended to buf ("; not compared: concurrency 1,
 * 8 (only in A), 2 (only in B)"; "10 for model=auto" when the sweeps split by workload:
 * split), the first LEVELS_NAMED of each kind named, then each level with several results
 * on a side, its results named; the levels of a workload one side lacks are left out
 * (one_sided names the workload). ka, kb: the pair keys of A and B. */
static void levels_not_compared(const struct table *t, bool split, char *const *ka, size_t na, char *const *kb,
				size_t nb, char *buf, size_t n)
{
	static const char *const why[] = { "", "only in A", "only in B", "no metric on both sides" };
	bool any = false;
	for (int s = LV_A; s <= LV_APART; s++) {
		size_t k = 0;
		for (size_t r = 0; r < t->nrow; r++) {
			const char *wl = cell_text(t, r, CMP_SWEEP_WORKLOAD_COL);
			bool theirs = !split || (has_key(ka, na, wl) && has_key(kb, nb, wl));
			/* a level of several results on one side only: named once */
			if (level_side(t, r) != (enum lv_side)s || !theirs || (r > 0 && same_level(t, r, r - 1)))
				continue;
			if (k++ >= LEVELS_NAMED)
				continue;
			if (!any && k == 1)
				text_appendf(buf, n, "; not compared: %s ", table_cell(t, r, 0)->text);
			else
				text_appendf(buf, n, ", ");
			text_appendf(buf, n, "%g%s%s", table_cell(t, r, 1)->num, split ? " for " : "", split ? wl : "");
		}
		if (k > LEVELS_NAMED)
			text_appendf(buf, n, " and %zu more", k - LEVELS_NAMED);
		if (k)
			text_appendf(buf, n, " (%s)", why[s]);
		any |= k > 0;
	}
	levels_several(t, split, any, buf, n);
}

/* What the verdict's rows measured, per metric: the levels it was compared at (a delta),
 * those of the compared levels where only A or only B records it. */
struct sw_cover {
	size_t compared[SW_NMETRICS], only_a[SW_NMETRICS], only_b[SW_NMETRICS];
	size_t common, several;   /* levels compared; levels with several results on a side */
	bool changed;
	double most;              /* the largest relative change, at row `at`, metric `which` */
	size_t at, which;
};

static void sweep_cover(const struct table *t, struct sw_cover *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t r = 0; r < t->nrow; r++) {
		enum lv_side side = level_side(t, r);
		v->several += side == LV_SEVERAL && !(r > 0 && same_level(t, r, r - 1));
		if (side != LV_BOTH)
			continue;
		v->common++;
		for (size_t i = 0; i < SW_NMETRICS; i++) {
			int col = 2 + 4 * (int)i;
			const struct table_cell *d = table_cell(t, r, col + 2), *pct = table_cell(t, r, col + 3);
			bool a = table_cell(t, r, col)->present, b = table_cell(t, r, col + 1)->present;
			v->compared[i] += d->present;
			v->only_a[i] += a && !b;
			v->only_b[i] += b && !a;
			v->changed |= d->present && d->num != 0;
			if (pct->present && fabs(pct->num) > fabs(v->most)) {
				v->most = pct->num;
				v->at = r;
				v->which = i;
			}
		}
	}
}

/* Whether a metric either side records at a compared level was not compared there. */
static bool cover_partial(const struct sw_cover *v)
{
	for (size_t i = 0; i < SW_NMETRICS; i++)
		if (v->only_a[i] || v->only_b[i])
			return true;
	return false;
}

/* The words of the metrics i with count[i] > 0, appended to buf after lead: "latency p50,
 * latency p99 and ttft p99". Returns the largest count. */
static size_t metric_list(const size_t *count, const char *lead, char *buf, size_t n)
{
	size_t k = 0, most = 0, all = 0;
	for (size_t i = 0; i < SW_NMETRICS; i++)
		all += count[i] > 0;
	for (size_t i = 0; i < SW_NMETRICS; i++) {
		if (!count[i])
			continue;
		char words[48];
		sw_metric_words(i, words, sizeof(words));
		text_appendf(buf, n, "%s%s", k == 0 ? lead : k + 1 == all ? " and " : ", ", words);
		k++;
		most = count[i] > most ? count[i] : most;
	}
	return most;
}

/* What "the same" holds for: "latency and throughput" (every metric recorded compared:
 * the kinds), else the metrics compared ("latency p50 and latency p99"). */
static void same_what(const struct sw_cover *v, char *buf, size_t n)
{
	buf[0] = '\0';
	if (cover_partial(v)) {
		metric_list(v->compared, "", buf, n);
		return;
	}
	bool lat = false, tp = false;
	for (size_t i = 0; i < SW_NMETRICS; i++) {
		lat |= v->compared[i] && i < SW_FIRST_THROUGHPUT;
		tp |= v->compared[i] && i >= SW_FIRST_THROUGHPUT;
	}
	snprintf(buf, n, "%s%s%s", lat ? "latency" : "", lat && tp ? " and " : "", tp ? "throughput" : "");
}

/* The metrics one side records alone at compared levels, appended to buf: "; not judged:
 * request throughput and output token throughput (only in A)", "ttft p99 (only in B at
 * some of 3 levels)". */
static void metrics_not_judged(const struct sw_cover *v, char *buf, size_t n)
{
	bool any = false;
	for (int side = 0; side < 2; side++) {
		const size_t *only = side ? v->only_b : v->only_a;
		size_t most = metric_list(only, any ? "; " : "; not judged: ", buf, n);
		if (most)
			text_appendf(buf, n, " (only in %s%s", side ? "B" : "A", most == v->common ? ")" : "");
		if (most && most < v->common)
			text_appendf(buf, n, " at some of %zu levels)", v->common);
		any |= most > 0;
	}
}

/* The verdict's first sentence, from what the rows cover (stim: the stimulus' name). */
static void verdict_head(const struct table *t, const struct sw_cover *v, const char *stim, char *buf, size_t n)
{
	char metric[48], same[160];
	sw_metric_words(v->which, metric, sizeof(metric));
	same_what(v, same, sizeof(same));
	const char *s = v->common == 1 ? "" : "s";
	if (!v->common)
		snprintf(buf, n, "sweeps not compared: no %s level has a metric on both sides%s", stim,
			 v->several ? " and one result a side" : "");
	else if (!v->changed)
		snprintf(buf, n, "no difference: the same %s at %zu common %s level%s", same, v->common, stim, s);
	else if (v->most == 0) /* changes only where A's value is 0: no relative change */
		snprintf(buf, n, "values differ at %zu common %s level%s (see the levels below; no relative change: A "
			 "is 0 there)", v->common, stim, s);
	else
		snprintf(buf, n, "largest change: %s %+.1f%% at %s %g%s%s (%zu common level%s; one run per level: no "
			 "noise estimate, nothing called a regression)", metric, v->most, stim,
			 table_cell(t, v->at, 1)->num,
			 table_cell(t, v->at, CMP_SWEEP_WORKLOAD_COL)->present ? " for " : "",
			 cell_text(t, v->at, CMP_SWEEP_WORKLOAD_COL), v->common, s);
	if (v->common)
		metrics_not_judged(v, buf, n);
}

int compare_sweep_verdict(struct compare *c, char *buf, size_t n)
{
	char err[128];
	struct table *t = compare_build_diff_sweep(c, err, sizeof(err));
	if (!t) {
		snprintf(buf, n, "sweeps not compared: %s", err);
		return -1;
	}
	struct sw_cover v;
	sweep_cover(t, &v);
	verdict_head(t, &v, t->nrow ? table_cell(t, 0, 0)->text : "", buf, n);
	struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	char **ka = sweep_pair_keys(sa, sb, sa), **kb = sweep_pair_keys(sa, sb, sb);
	if (v.common || v.several)
		levels_not_compared(t, sweep_keyed(sa, sb), ka, sa->ncfg, kb, sb->ncfg, buf, n);
	table_free(t);
	one_sided(ka, sa->ncfg, kb, sb->ncfg, "; only in A: ", buf, n);
	one_sided(kb, sb->ncfg, ka, sa->ncfg, "; only in B: ", buf, n);
	sweep_pair_keys_free(ka, sa->ncfg);
	sweep_pair_keys_free(kb, sb->ncfg);
	char workload[512];
	compare_workload_diff(c, workload, sizeof(workload));
	if (*workload)
		text_appendf(buf, n, "; but the workload differs (%s): not a like-for-like comparison", workload);
	if (!v.common)
		return -1;
	return *workload || v.changed || v.several || cover_partial(&v);
}

/* ---- a series' findings on the other side --------------------------------------------- */

/* The series of s whose pair key (their first config's in keys, s's pair keys) is key: their
 * count, the one named name (NULL: none) into *named, the last into *last. */
static size_t series_keyed(const struct sweep_set *s, char *const *keys, const char *key, const char *name,
			   const struct sweep_series **named, const struct sweep_series **last)
{
	size_t k = 0;
	*named = *last = NULL;
	for (size_t i = 0; i < s->nseries; i++) {
		const struct sweep_series *se = &s->series[i];
		if (strcmp(keys[se->cfg[0]], key) != 0)
			continue;
		k++;
		*last = se;
		if (strcmp(se->name, name) == 0)
			*named = se;
	}
	return k;
}

bool compare_sweep_series(struct compare *c, int side, const struct finding *f, const struct sweep_series **own,
			  const struct sweep_series **like, char *why, size_t n)
{
	struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	const struct sweep_set *so = side ? sb : sa, *st = side ? sa : sb;
	*own = so ? sweep_finding_series(so, f) : NULL;
	*like = NULL;
	if (!*own)
		return false;
	char **ko = st ? sweep_pair_keys(sa, sb, so) : NULL, **kt = st ? sweep_pair_keys(sa, sb, st) : NULL;
	const char *key = ko ? ko[(*own)->cfg[0]] : "";
	const struct sweep_series *named = NULL, *last = NULL, *mine_named, *mine_last;
	size_t theirs = st ? series_keyed(st, kt, key, (*own)->name, &named, &last) : 0;
	size_t mine = ko ? series_keyed(so, ko, key, (*own)->name, &mine_named, &mine_last) : 0;
	*like = named ? named : theirs == 1 && mine == 1 ? last : NULL;
	if (!*like && why) { /* a workload it lacks, else no series it alone pairs with */
		bool workload = theirs == 0 && *key;
		char *what = text_sanitize_dup(workload ? key : (*own)->name, 0);
		snprintf(why, n, "no %s%s", workload ? "" : "series ", what);
		free(what);
	}
	if (ko)
		sweep_pair_keys_free(ko, so->ncfg);
	if (kt)
		sweep_pair_keys_free(kt, st->ncfg);
	return true;
}

bool compare_sweep_unjudged(struct compare *c, int side, const struct finding *f, const struct sweep_series *like,
			    char other_name, char *why, size_t n)
{
	const struct sweep_set *so = sweep_derived(side ? c->b : c->a), *st = sweep_derived(side ? c->a : c->b);
	const struct sweep_series *own = sweep_finding_series(so, f);
	if (like->stim != own->stim) {
		if (like->stim < 0)
			snprintf(why, n, "%c's series records no %s", other_name, sweep_stim_name(own->stim));
		else
			snprintf(why, n, "%c's series varies %s, not %s", other_name, sweep_stim_name(like->stim),
				 sweep_stim_name(own->stim));
		return true;
	}
	if (strcmp(f->id, "SWEEP.SATURATION") != 0) { /* a latency fit's */
		if (!like->has_fit)
			snprintf(why, n, "%c's series has no p95 request latency fit: fewer than 2 levels have one",
				 other_name);
		return !like->has_fit;
	}
	const struct sweep_cfg *k = &so->cfg[own->cfg[own->knee]], *nx = &so->cfg[own->cfg[own->knee_next]];
	return !sweep_knee_compared(st, like, k->stim[own->stim], nx->stim[own->stim], why, n);
}

void compare_sweep_persisting(struct compare *c, const struct finding *a, const struct finding *b, char *why,
			      size_t n)
{
	why[0] = '\0';
	const struct sweep_set *sa = sweep_derived(c->a), *sb = sweep_derived(c->b);
	if (strcmp(a->id, "SWEEP.SATURATION") != 0 || strcmp(b->id, a->id) != 0 || !sa || !sb)
		return;
	const struct sweep_series *xa = sweep_finding_series(sa, a), *xb = sweep_finding_series(sb, b);
	if (!xa || !xb || xa->stim < 0 || xa->stim != xb->stim)
		return;
	double ka = sa->cfg[xa->cfg[xa->knee]].stim[xa->stim], kb = sb->cfg[xb->cfg[xb->knee]].stim[xb->stim];
	if (ka != kb)
		snprintf(why, n, "%s %g in A, %g in B", sweep_stim_name(xa->stim), ka, kb);
}
