/* SPDX-License-Identifier: MIT */
/* analysis.c: what the sweep model derives once after loading (see sweep.h
 * sweep_derive): series of configs and their stimulus, the GenAI-Perf sizing fit and
 * knee (analysis_knee.c; neither over a series with two results at one level:
 * sweep_finalize warns of them once loaded), the NAT and Cerebras recomputations and the
 * objective/constraint ranking (analysis_rank.c). Fits are analysis_fit.c's. */
#include "model/sweep/sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/sweep/fit.h"
#include "model/sweep/internal.h"
#include "model/sweep/rank.h"
#include "model/text.h"
#include "model/xalloc.h"

/* ---------------------------------------------------------------------------------
 * Series and stimulus */

/* Stimulus from a directory name as GenAI-Perf names artifact dirs,
 * <model>-<service>-<backend>-<sweep_type><value> ("...-concurrency10",
 * "...-request_rate2.5", "...-num_dataset_entries100"), so a tree of *_genai_perf.csv
 * files alone still forms a sweep. A value read from the data wins; the last
 * occurrence of a key followed by a number counts. */
static const struct { const char *key; enum sweep_stim st; } stim_keys[] = {
	{ "concurrency", ST_CONCURRENCY }, { "request_rate", ST_REQUEST_RATE },
	{ "request-rate", ST_REQUEST_RATE }, { "input_sequence_length", ST_INPUT_LENGTH },
	{ "batch_size", ST_BATCH_SIZE }, { "num_dataset_entries", ST_DATASET_ENTRIES },
};

/* What follows the last occurrence of stim_keys[i] in name, NULL when it does not occur. */
static const char *after_last_key(const char *name, size_t i)
{
	const char *p = NULL, *q = name;
	while ((q = strstr(q, stim_keys[i].key)))
		p = q++;
	return p ? p + strlen(stim_keys[i].key) : NULL;
}

static void stim_from_name(struct sweep_cfg *c)
{
	for (size_t i = 0; i < ARRAY_LEN(stim_keys); i++) {
		if (c->has_stim[stim_keys[i].st])
			continue;
		const char *p = after_last_key(c->name, i);
		if (!p)
			continue;
		char *end;
		double v = strtod(p, &end);
		if (end != p && isdigit((unsigned char)*p) && isfinite(v)) {
			c->stim[stim_keys[i].st] = v;
			c->has_stim[stim_keys[i].st] = true;
		}
	}
}

/* End of the number starting at s[i] (digits and dots, no trailing dot). */
static size_t number_end(const char *s, size_t i, size_t n)
{
	size_t j = i;
	while (j < n && (isdigit((unsigned char)s[j]) || s[j] == '.'))
		j++;
	while (j > i + 1 && s[j - 1] == '.')
		j--;
	return j;
}

/* True when comp[i] starts the number that follows a stimulus key ("concurrency8"). */
static bool after_stim_key(const char *comp, size_t i)
{
	for (size_t k = 0; k < ARRAY_LEN(stim_keys); k++) {
		size_t kl = strlen(stim_keys[k].key);
		if (i >= kl && strncmp(comp + i - kl, stim_keys[k].key, kl) == 0)
			return true;
	}
	return false;
}

/* Offsets in name of the numbers stim_from_name reads as levels: per stimulus, the number
 * after the last occurrence of its first key followed by one (an earlier "concurrency4",
 * a model dir's, is no level). Returns the count (at most ST_N). */
static size_t level_offsets(const char *name, size_t off[ST_N])
{
	bool done[ST_N] = { false };
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(stim_keys); i++) {
		const char *p = done[stim_keys[i].st] ? NULL : after_last_key(name, i);
		if (p && isdigit((unsigned char)*p)) {
			off[n++] = (size_t)(p - name);
			done[stim_keys[i].st] = true;
		}
	}
	return n;
}

static bool offset_in(const size_t *off, size_t n, size_t lo, size_t hi)
{
	for (size_t i = 0; i < n; i++)
		if (off[i] >= lo && off[i] < hi)
			return true;
	return false;
}

#define NUM_SLOT '\x01'

/* An artifact name's shape: a level (level_offsets) is '*'; in a path component with a
 * level the other numbers stay ("Llama-3.1-8B-...-concurrency*"), but for one after a
 * stimulus key; every other number is a NUM_SLOT, its text kept in num[] ("isl128",
 * "_c10_", "model-concurrency4/"); a NUM_SLOT byte of the name itself reads '?', so two
 * names of one shape have as many slots. */
struct name_shape {
	char *shape;
	char **num;
	size_t n;
	bool art;    /* an artifact directory's name (only those share slots) */
};

static void shape_of(const char *name, struct name_shape *out)
{
	size_t len = strlen(name), k = 0, comp = 0, lv[ST_N], nlv = level_offsets(name, lv);
	bool keyed = offset_in(lv, nlv, 0, strcspn(name, "/"));
	out->shape = xmalloc(len + 1);
	for (size_t i = 0; i < len;) {
		if (name[i] == '/') {
			out->shape[k++] = name[i++];
			comp = i;
			keyed = offset_in(lv, nlv, comp, comp + strcspn(name + comp, "/"));
		} else if (!isdigit((unsigned char)name[i])) {
			out->shape[k++] = name[i] == NUM_SLOT ? '?' : name[i];
			i++;
		} else {
			size_t j = number_end(name, i, len);
			if (offset_in(lv, nlv, i, i + 1))
				out->shape[k++] = '*';
			else if (keyed && !after_stim_key(name + comp, i - comp))
				for (size_t q = i; q < j; q++)
					out->shape[k++] = name[q];
			else {
				out->shape[k++] = NUM_SLOT;
				out->num = xrealloc(out->num, (out->n + 1) * sizeof(*out->num));
				out->num[out->n++] = xstrndup(name + i, j - i);
			}
			i = j;
		}
	}
	out->shape[k] = '\0';
}

/* The stimulus number slot p follows across the group's configs (member[0..nm)), -1 for
 * none: it takes more than one value among the configs that record the stimulus, and in
 * each of them equals that config's value ("simple_c10_artifacts" at concurrency 10). A
 * config that records no value of it keeps its number (series_base): it is set apart, not
 * a reason to split the others. A constant number (a model's "gpt2") stays. */
static int slot_tracks_stim(const struct sweep_set *s, const struct name_shape *ns, const size_t *member,
			    size_t nm, size_t p)
{
	for (int k = 0; k < ST_N; k++) {
		bool all = true, varies = false;
		const char *first = NULL;
		for (size_t j = 0; j < nm && all; j++) {
			const struct sweep_cfg *c = &s->cfg[member[j]];
			const char *num = ns[member[j]].num[p];
			if (!c->has_stim[k])
				continue;
			all = c->stim[k] == strtod(num, NULL);
			varies |= first && strcmp(num, first) != 0;
			first = first ? first : num;
		}
		if (all && varies)
			return k;
	}
	return -1;
}

/* Series key of config i before splitting by other swept values: an artifact name with its
 * stimulus values replaced by '*' (shape_of; track[p]: the stimulus slot p follows across
 * the configs of the same shape, kept as a number in a config without that stimulus);
 * else the file it came from. */
static char *series_base(const struct sweep_cfg *c, const struct name_shape *ns, const int *track)
{
	if (strcmp(c->source, "artifacts") != 0)
		return xstrdup(c->path);
	char *out = xmalloc(strlen(c->name) + 1);
	size_t k = 0, p = 0;
	for (const char *q = ns->shape; *q; q++) {
		if (*q != NUM_SLOT) {
			out[k++] = *q;
			continue;
		}
		if (track[p] >= 0 && c->has_stim[track[p]])
			out[k++] = '*';
		else
			for (const char *d = ns->num[p]; *d; d++)
				out[k++] = *d;
		p++;
	}
	out[k] = '\0';
	return out;
}

/* Configs of the same kind (artifact or not) and shape: one group. */
static int cmp_group(const struct name_shape *x, const struct name_shape *y)
{
	return x->art != y->art ? (x->art ? 1 : -1) : strcmp(x->shape, y->shape);
}

static int cmp_shape(const void *a, const void *b, void *ud)
{
	const struct name_shape *ns = ud;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = cmp_group(&ns[i], &ns[j]);
	return c ? c : (i > j) - (i < j);
}

/* The base series key of every config (ncfg strings): the configs are sorted by shape, so
 * the configs of one shape are one run of the order and each of its slots is judged once. */
static char **series_bases(const struct sweep_set *s)
{
	struct name_shape *ns = xcalloc(s->ncfg + 1, sizeof(*ns));
	size_t *ord = xcalloc(s->ncfg + 1, sizeof(*ord));
	for (size_t i = 0; i < s->ncfg; i++) {
		shape_of(s->cfg[i].name, &ns[i]);
		ns[i].art = strcmp(s->cfg[i].source, "artifacts") == 0;
		ord[i] = i;
	}
	qsort_r(ord, s->ncfg, sizeof(*ord), cmp_shape, ns);
	char **base = xcalloc(s->ncfg + 1, sizeof(*base));
	for (size_t a = 0, b; a < s->ncfg; a = b) {
		for (b = a + 1; b < s->ncfg && cmp_group(&ns[ord[b]], &ns[ord[a]]) == 0; b++)
			;
		int *track = xcalloc(ns[ord[a]].n + 1, sizeof(*track));
		for (size_t p = 0; p < ns[ord[a]].n; p++)
			track[p] = slot_tracks_stim(s, ns, ord + a, b - a, p);
		for (size_t j = a; j < b; j++)
			base[ord[j]] = series_base(&s->cfg[ord[j]], &ns[ord[j]], track);
		free(track);
	}
	for (size_t i = 0; i < s->ncfg; i++) {
		for (size_t p = 0; p < ns[i].n; p++)
			free(ns[i].num[p]);
		free(ns[i].num);
		free(ns[i].shape);
	}
	free(ns);
	free(ord);
	return base;
}

static int cmp_base(const void *a, const void *b, void *ud)
{
	char *const *base = ud;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(base[i], base[j]);
	return c ? c : (i > j) - (i < j);
}

struct pair_sort {
	const struct sweep_set *s;
	int a, b;
};

/* Configs x, y have the same value of stimulus k (both without one: the same, n/a). */
static bool same_stim(const struct sweep_cfg *x, const struct sweep_cfg *y, int k)
{
	return x->has_stim[k] == y->has_stim[k] && (!x->has_stim[k] || x->stim[k] == y->stim[k]);
}

static int cmp_stim_val(const struct sweep_cfg *x, const struct sweep_cfg *y, int k)
{
	if (x->has_stim[k] != y->has_stim[k])
		return x->has_stim[k] ? 1 : -1;
	if (!x->has_stim[k] || x->stim[k] == y->stim[k])
		return 0;
	return x->stim[k] < y->stim[k] ? -1 : 1;
}

static int cmp_pair(const void *a, const void *b, void *ud)
{
	const struct pair_sort *ps = ud;
	const struct sweep_cfg *x = &ps->s->cfg[*(const size_t *)a], *y = &ps->s->cfg[*(const size_t *)b];
	int c = cmp_stim_val(x, y, ps->a);
	return c ? c : cmp_stim_val(x, y, ps->b);
}

/* Stimulus b is crossed with stimulus a among the configs ord[0..n) (reordered): some
 * value of a comes with two values of b (concurrency x ISL); not so when b is a function
 * of a (num_dataset_entries = 20 x concurrency). */
static bool stims_crossed(const struct sweep_set *s, size_t *ord, size_t n, int a, int b)
{
	struct pair_sort ps = { s, a, b };
	qsort_r(ord, n, sizeof(*ord), cmp_pair, &ps);
	for (size_t j = 1; j < n; j++) {
		const struct sweep_cfg *x = &s->cfg[ord[j - 1]], *y = &s->cfg[ord[j]];
		if (same_stim(x, y, a) && !same_stim(x, y, b))
			return true;
	}
	return false;
}

/* Whether stimulus k takes more than one value among the configs ord[0..n). */
static bool stim_varies(const struct sweep_set *s, const size_t *ord, size_t n, int k)
{
	const struct sweep_cfg *first = NULL;
	for (size_t j = 0; j < n; j++) {
		const struct sweep_cfg *c = &s->cfg[ord[j]];
		if (!c->has_stim[k])
			continue;
		if (first && c->stim[k] != first->stim[k])
			return true;
		first = c;
	}
	return false;
}

/* Whether workload key k has two recorded values among the configs ord[0..n). */
static bool wl_varies(const struct sweep_set *s, const size_t *ord, size_t n, int k)
{
	const char *first = NULL;
	for (size_t j = 0; j < n; j++) {
		const char *v = s->cfg[ord[j]].wl[k];
		if (v && first && strcmp(v, first) != 0)
			return true;
		first = v ? v : first;
	}
	return false;
}

/* How the configs sharing a base key split into series: by the workload keys with two
 * recorded values among them (another model or endpoint is never the same series), and by
 * the stimuli that vary crossed with the first that varies (stims_crossed). */
struct cfg_split {
	bool wl[WL_N];
	bool stim[ST_N];
};

/* split[i]: how the configs with config i's base key split (sorted by key, each key's
 * configs are looked at once per stimulus and workload key). */
static void split_groups(const struct sweep_set *s, char **base, struct cfg_split *split)
{
	size_t *ord = xcalloc(s->ncfg + 1, sizeof(*ord));
	for (size_t i = 0; i < s->ncfg; i++)
		ord[i] = i;
	qsort_r(ord, s->ncfg, sizeof(*ord), cmp_base, base);
	for (size_t a = 0, b; a < s->ncfg; a = b) {
		for (b = a + 1; b < s->ncfg && strcmp(base[ord[b]], base[ord[a]]) == 0; b++)
			;
		struct cfg_split g = { { false }, { false } };
		for (int k = 0; k < WL_N; k++)
			g.wl[k] = wl_varies(s, ord + a, b - a, k);
		int first = 0;
		while (first < ST_N && !stim_varies(s, ord + a, b - a, first))
			first++;
		for (int k = first + 1; k < ST_N; k++)
			g.stim[k] = stim_varies(s, ord + a, b - a, k) && stims_crossed(s, ord + a, b - a, first, k);
		for (size_t j = a; j < b; j++)
			split[ord[j]] = g;
	}
	free(ord);
}

/* "a=b" appended to *list (space separated). */
static void append_kv(char **list, const char *key, const char *val)
{
	char *next = xasprintf("%s%s%s=%s", *list ? *list : "", *list ? " " : "", key, val);
	free(*list);
	*list = next;
}

/* Series key of config c with base key base: the base, and when the configs sharing it
 * split (split_groups), c's values of the splitting workload keys and stimuli, so each
 * series measures one workload and varies one stimulus ("... [model=m input_length=100]").
 * *workload gets the workload part ("model=m"; n/a when c does not record it) and *fixed
 * the stimulus part ("input_length=100"), each NULL when none. */
static char *series_key(const struct sweep_cfg *c, const char *base, const struct cfg_split *split,
			char **workload, char **fixed)
{
	*workload = *fixed = NULL;
	for (int k = 0; k < WL_N; k++)
		if (split->wl[k])
			append_kv(workload, sweep_wl_name(k), c->wl[k] ? c->wl[k] : "n/a");
	for (int k = 0; k < ST_N; k++) {
		if (!split->stim[k])
			continue;
		char val[40] = "n/a";
		if (c->has_stim[k])
			snprintf(val, sizeof(val), "%g", c->stim[k]);
		append_kv(fixed, sweep_stim_name(k), val);
	}
	if (!*workload && !*fixed)
		return xstrdup(base);
	return xasprintf("%s [%s%s%s]", base, *workload ? *workload : "", *workload && *fixed ? " " : "",
			 *fixed ? *fixed : "");
}

static int detect_stim(const struct sweep_set *s, const struct sweep_series *se)
{
	for (int k = 0; k < ST_N; k++) {
		bool seen = false;
		double first = 0;
		for (size_t i = 0; i < se->n; i++) {
			const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
			if (!c->has_stim[k])
				continue;
			if (seen && c->stim[k] != first)
				return k;
			seen = true;
			first = c->stim[k];
		}
	}
	for (int k = 0; k < ST_N; k++)
		for (size_t i = 0; i < se->n; i++)
			if (s->cfg[se->cfg[i]].has_stim[k])
				return k;
	return -1;
}

struct stim_sort {
	const struct sweep_set *s;
	int stim;
};

/* A config with values: a run directory without results (load_genai.c) has none. */
static bool has_results(const struct sweep_cfg *c)
{
	return c->has_stored || c->has_calc;
}

/* By stimulus value; at one value, the configs with results first (same_level compares
 * neighbours), then load order. */
static int cmp_by_stim(const void *a, const void *b, void *ud)
{
	const struct stim_sort *ss = ud;
	int sort_stim = ss->stim;
	const struct sweep_cfg *x = &ss->s->cfg[*(const size_t *)a];
	const struct sweep_cfg *y = &ss->s->cfg[*(const size_t *)b];
	bool hx = sort_stim >= 0 && x->has_stim[sort_stim], hy = sort_stim >= 0 && y->has_stim[sort_stim];
	if (hx != hy)
		return hx ? -1 : 1;
	if (hx && x->stim[sort_stim] != y->stim[sort_stim])
		return x->stim[sort_stim] < y->stim[sort_stim] ? -1 : 1;
	if (has_results(x) != has_results(y))
		return has_results(x) ? -1 : 1;
	size_t ix = *(const size_t *)a, iy = *(const size_t *)b;
	return (ix > iy) - (ix < iy);
}

/* s->wl_mixed, s->wl_split: the workload keys with two recorded values among all the configs. */
static void mixed_workload(struct sweep_set *s)
{
	free(s->wl_mixed);
	s->wl_mixed = NULL;
	size_t *ord = xcalloc(s->ncfg + 1, sizeof(*ord));
	for (size_t i = 0; i < s->ncfg; i++)
		ord[i] = i;
	for (int k = 0; k < WL_N; k++) {
		s->wl_split[k] = wl_varies(s, ord, s->ncfg, k);
		if (!s->wl_split[k])
			continue;
		char *next = xasprintf("%s%s%s", s->wl_mixed ? s->wl_mixed : "", s->wl_mixed ? ", " : "",
				       sweep_wl_name(k));
		free(s->wl_mixed);
		s->wl_mixed = next;
	}
	free(ord);
}

bool sweep_same_workload(const struct sweep_set *s, const struct sweep_cfg *a, const struct sweep_cfg *b)
{
	for (int k = 0; k < WL_N; k++)
		if (s->wl_split[k] && ((a->wl[k] == NULL) != (b->wl[k] == NULL) ||
				       (a->wl[k] && strcmp(a->wl[k], b->wl[k]) != 0)))
			return false;
	return true;
}

/* Whether configs i and i + 1 of se (sorted by stimulus) are two results at one stimulus
 * level: a run without results beside one is no second result. */
static bool same_level(const struct sweep_set *s, const struct sweep_series *se, size_t i)
{
	const struct sweep_cfg *a = &s->cfg[se->cfg[i]], *b = &s->cfg[se->cfg[i + 1]];
	return se->stim >= 0 && a->has_stim[se->stim] && b->has_stim[se->stim] &&
	       a->stim[se->stim] == b->stim[se->stim] && has_results(a) && has_results(b);
}

/* The index into se->cfg[] of the first config at the level of the one before it, -1 none. */
static long first_repeat(const struct sweep_set *s, const struct sweep_series *se)
{
	for (size_t i = 0; i + 1 < se->n; i++)
		if (same_level(s, se, i))
			return (long)i + 1;
	return -1;
}

static void build_series(struct sweep_set *s)
{
	sweep_series_clear(s);
	for (size_t i = 0; i < s->ncfg; i++)
		stim_from_name(&s->cfg[i]);
	char **base = series_bases(s);
	struct cfg_split *split = xcalloc(s->ncfg + 1, sizeof(*split));
	split_groups(s, base, split);
	for (size_t i = 0; i < s->ncfg; i++) {
		struct sweep_cfg *c = &s->cfg[i];
		free(c->series);
		char *fixed, *workload;
		c->series = series_key(c, base[i], &split[i], &workload, &fixed);
		size_t k = 0;
		while (k < s->nseries && strcmp(s->series[k].name, c->series) != 0)
			k++;
		if (k == s->nseries) {
			s->series = xrealloc(s->series, (s->nseries + 1) * sizeof(*s->series));
			memset(&s->series[k], 0, sizeof(s->series[k]));
			s->series[k].name = xstrdup(c->series);
			s->series[k].fixed = fixed;
			s->series[k].workload = workload;
			fixed = workload = NULL;
			s->series[k].knee = -1;
			s->nseries++;
		}
		struct sweep_series *se = &s->series[k];
		se->cfg = xrealloc(se->cfg, (se->n + 1) * sizeof(*se->cfg));
		se->cfg[se->n++] = i;
		free(fixed);
		free(workload);
	}
	for (size_t i = 0; i < s->ncfg; i++)
		free(base[i]);
	free(base);
	free(split);
	mixed_workload(s);
	for (size_t k = 0; k < s->nseries; k++) {
		struct sweep_series *se = &s->series[k];
		se->stim = detect_stim(s, se);
		struct stim_sort ss = { s, se->stim };
		qsort_r(se->cfg, se->n, sizeof(*se->cfg), cmp_by_stim, &ss);
		se->twice = first_repeat(s, se);
	}
}

/* p95 request latency (s) vs concurrency, and the throughput knee (analysis_knee.c); neither
 * over two results at one level (se->twice). */
static void series_sizing(struct sweep_set *s, struct sweep_series *se)
{
	double *x = xcalloc(se->n + 1, sizeof(*x)), *y = xcalloc(se->n + 1, sizeof(*y));
	size_t n = 0;
	sweep_series_knee(s, se);
	se->has_fit = false;
	if (se->stim == ST_CONCURRENCY && se->n >= 2 && se->twice < 0) {
		for (size_t i = 0; i < se->n; i++) {
			double v;
			const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
			if (c->has_stim[ST_CONCURRENCY] && sweep_value(c, SM_LATENCY, SS_P95, &v) && v > 0) {
				x[n] = c->stim[ST_CONCURRENCY];
				y[n++] = v / 1000.0;
			}
		}
		if (n >= 2) {
			se->fit = fit_linear(x, y, n);
			se->has_fit = true;
			se->est = fit_gpu_estimate(&se->fit, s->target_latency, s->target_users,
						   (double)s->test_gpus);
		}
	}
	free(x);
	free(y);
}

/* A warning per stimulus level of se with more than one result, naming their files:
 * they may come from other runs, and a knee or a fit over them would be true of neither
 * (se->twice: not judged). */
static void warn_repeated_levels(struct run *run, const struct sweep_series *se)
{
	const struct sweep_set *s = run->sweep;
	for (size_t i = 0; i + 1 < se->n; i++) {
		if (!same_level(s, se, i))
			continue;
		size_t last = i + 1;   /* configs i..last are at one level */
		while (last + 1 < se->n && same_level(s, se, last))
			last++;
		char *files = NULL;
		for (size_t k = i; k <= last; k++) {
			const struct sweep_cfg *c = &s->cfg[se->cfg[k]];
			char *next = xasprintf("%s%s%s%s", files ? files : "", k == i ? "" : k == last ? " and " : ", ",
					       c->path, strcmp(c->source, "artifacts") == 0 ? "*" : ""); /* a prefix */
			free(files);
			files = next;
		}
		const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
		diag_add(&run->diags, DIAG_WARN, s->cfg[se->cfg[last]].path, -1, -1, -1,
			 "%zu results at %s %g in series '%s': %s (other runs, or a level measured twice); all are "
			 "shown, and the series' knee and latency fit are not judged", last - i + 1,
			 sweep_stim_name(se->stim), c->stim[se->stim], se->name, files);
		free(files);
		i = last;
	}
}

void sweep_finalize(struct run *run)
{
	if (!run->sweep)
		return;
	build_series(run->sweep); /* sweep_derive builds them again: derived stays as it is */
	for (size_t k = 0; k < run->sweep->nseries; k++)
		warn_repeated_levels(run, &run->sweep->series[k]);
}

void sweep_derive(struct run *run)
{
	struct sweep_set *s = run->sweep;
	if (!s || s->derived)
		return;
	build_series(s);
	for (size_t k = 0; k < s->nseries; k++)
		series_sizing(s, &s->series[k]);
	nat_merge(s);
	for (size_t i = 0; i < s->nnat; i++)
		nat_recompute(&s->nat[i], s);
	for (size_t i = 0; i < s->ncb; i++)
		cb_recompute(&s->cb[i]);
	sweep_rank_resolve(run, s);
	sweep_rerank(s);
	s->derived = true;
}


struct sweep_set *sweep_derived(struct run *run)
{
	if (run->sweep)
		sweep_derive(run);
	return run->sweep;
}

const char *sweep_wl_name(enum sweep_wl k)
{
	static const char *const names[WL_N] = { "model", "url", "service_kind", "backend", "endpoint_type" };
	return k < WL_N ? names[k] : "";
}

char *sweep_wl_values(const struct sweep_set *s, enum sweep_wl k)
{
	const char **v = xcalloc(s->ncfg + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < s->ncfg; i++)
		if (s->cfg[i].wl[k])
			v[n++] = s->cfg[i].wl[k];
	qsort(v, n, sizeof(*v), text_cmp_ptr);
	char *out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(v[i], v[i - 1]) == 0)
			continue;
		char *next = xasprintf("%s%s%s", out ? out : "", out ? " / " : "", v[i]);
		free(out);
		out = next;
	}
	free(v);
	return out;
}
