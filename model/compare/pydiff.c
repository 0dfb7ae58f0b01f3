/* SPDX-License-Identifier: MIT */
/* pydiff.c: pytscope 0.2.1's `diff_runs` (pytscope.md §6.8) over the lowest rank of each
 * side (its metrics and losses, when their ids differ, of the lowest rank both have: a
 * different rank's losses are no reproducibility test): run.json read back as Python values (equality as Python's
 * `!=`: 1 == 1.0 == True, nested NaN equal to itself as json's singleton is), printed as
 * pytscope's `_fmt` does (str(), repr() inside containers, %.4g for floats); the six
 * metrics; the first loss divergence (an index into the loss list); the notes in their
 * order; the run.json workload keys that differ (compare.h WORKLOAD, workload.h), nested
 * in config too, and those the ranks of a side set otherwise (every rank's run.json). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/internal.h"
#include "model/compare/workload.h"
#include "model/json.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"

#define ABSENT "<absent>"

/* ---- Python values over jsmn tokens --------------------------------------------------- */

enum pv_kind { PV_NULL, PV_BOOL, PV_INT, PV_FLOAT, PV_STR, PV_LIST, PV_DICT };

struct pv {                 /* one value: a token of a parsed run.json (tok < 0: absent) */
	const struct json_doc *d;
	int tok;
};

static enum pv_kind pv_kind(struct pv v)
{
	const jsmntok_t *t = &v.d->tok[v.tok];
	if (t->type == JSMN_OBJECT)
		return PV_DICT;
	if (t->type == JSMN_ARRAY)
		return PV_LIST;
	if (t->type == JSMN_STRING)
		return PV_STR;
	const char *s = v.d->js + t->start;
	size_t n = (size_t)(t->end - t->start);
	if (s[0] == 'n')
		return PV_NULL;
	if (s[0] == 't' || s[0] == 'f')
		return PV_BOOL;
	if (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n) || memchr(s, 'N', n) || memchr(s, 'I', n))
		return PV_FLOAT;
	return PV_INT;
}

static double pv_double(struct pv v)
{
	double x = 0;
	json_number(v.d, v.tok, &x);
	return x;
}

/* Numeric value of bool / int (exact when it fits in long long; *big otherwise). */
static long long pv_integer(struct pv v, bool *big)
{
	bool b;
	long long x = 0;
	*big = false;
	if (json_bool(v.d, v.tok, &b))
		return b;
	if (!json_int(v.d, v.tok, &x))
		*big = true;
	return x;
}

static bool pv_numeric(enum pv_kind k)
{
	return k == PV_BOOL || k == PV_INT || k == PV_FLOAT;
}

static bool pv_eq(struct pv a, struct pv b, bool nested);

static bool num_eq(struct pv a, struct pv b, enum pv_kind ka, enum pv_kind kb, bool nested)
{
	if (ka == PV_FLOAT && kb == PV_FLOAT) {
		double x = pv_double(a), y = pv_double(b);
		return x == y || (nested && isnan(x) && isnan(y));
	}
	if (ka == PV_FLOAT || kb == PV_FLOAT) { /* int vs float: exact, as Python compares them */
		struct pv f = ka == PV_FLOAT ? a : b, i = ka == PV_FLOAT ? b : a;
		double x = pv_double(f);
		bool big;
		long long y = pv_integer(i, &big);
		return !big && isfinite(x) && x == floor(x) && fabs(x) < 9.2e18 && (long long)x == y;
	}
	bool bx, by;
	long long x = pv_integer(a, &bx), y = pv_integer(b, &by);
	if (bx || by) { /* beyond int64: compare the digits */
		const jsmntok_t *ta = &a.d->tok[a.tok], *tb = &b.d->tok[b.tok];
		return bx && by && ta->end - ta->start == tb->end - tb->start &&
		       memcmp(a.d->js + ta->start, b.d->js + tb->start, (size_t)(ta->end - ta->start)) == 0;
	}
	return x == y;
}

static bool str_eq(struct pv a, struct pv b)
{
	char *x = json_strdup(a.d, a.tok), *y = json_strdup(b.d, b.tok);
	bool eq = strcmp(x, y) == 0;
	free(x);
	free(y);
	return eq;
}

static bool list_eq(struct pv a, struct pv b)
{
	if (a.d->tok[a.tok].size != b.d->tok[b.tok].size)
		return false;
	int i = json_first(a.d, a.tok), j = json_first(b.d, b.tok);
	for (; i >= 0 && j >= 0; i = json_next(a.d, a.tok, i), j = json_next(b.d, b.tok, j))
		if (!pv_eq((struct pv){ a.d, i }, (struct pv){ b.d, j }, true))
			return false;
	return i < 0 && j < 0;
}

/* Value token of the member of object obj whose unescaped key is key, or -1. */
static int dict_get(const struct json_doc *d, int obj, const char *key)
{
	int found = -1;
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		char *name = json_strdup(d, k);
		if (strcmp(name, key) == 0)
			found = k + 1; /* the last one wins, as in a Python dict */
		free(name);
	}
	return found;
}

static bool dict_eq(struct pv a, struct pv b)
{
	if (a.d->tok[a.tok].size != b.d->tok[b.tok].size)
		return false;
	for (int k = json_first(a.d, a.tok); k >= 0; k = json_next(a.d, a.tok, k)) {
		char *name = json_strdup(a.d, k);
		int j = dict_get(b.d, b.tok, name);
		free(name);
		if (j < 0 || !pv_eq((struct pv){ a.d, k + 1 }, (struct pv){ b.d, j }, true))
			return false;
	}
	return true;
}

/* Python ==; nested: inside a container, where the identity shortcut makes NaN == NaN. */
static bool pv_eq(struct pv a, struct pv b, bool nested)
{
	if (a.tok < 0 || b.tok < 0)
		return a.tok < 0 && b.tok < 0;
	enum pv_kind ka = pv_kind(a), kb = pv_kind(b);
	if (pv_numeric(ka) && pv_numeric(kb))
		return num_eq(a, b, ka, kb, nested);
	if (ka != kb)
		return false;
	switch (ka) {
	case PV_NULL: return true;
	case PV_STR: return str_eq(a, b);
	case PV_LIST: return list_eq(a, b);
	case PV_DICT: return dict_eq(a, b);
	default: return false;
	}
}

/* ---- Python str() / repr() ---------------------------------------------------------------- */

struct sb {
	char *s;
	size_t n, cap;
};

static void sb_put(struct sb *b, const char *s, size_t n)
{
	xgrow((void **)&b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void sb_str(struct sb *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void PRINTF_LIKE(2, 3) sb_fmt(struct sb *b, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_str(b, buf);
}

/* repr(float): the shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
static void float_repr(struct sb *b, double x)
{
	if (isnan(x)) {
		sb_str(b, "nan");
		return;
	}
	if (isinf(x)) {
		sb_str(b, x < 0 ? "-inf" : "inf");
		return;
	}
	char e[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p - 1, x);
		if (strtod(e, NULL) == x)
			break;
	}
	char digits[24];
	size_t nd = 0;
	const char *q = e;
	if (*q == '-') {
		sb_str(b, "-");
		q++;
	}
	for (; *q && *q != 'e'; q++)
		if (*q != '.')
			digits[nd++] = *q;
	int exp = atoi(q + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (exp < -4 || exp >= 16) {
		sb_put(b, digits, 1);
		if (nd > 1) {
			sb_str(b, ".");
			sb_put(b, digits + 1, nd - 1);
		}
		sb_fmt(b, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		sb_str(b, "0.");
		for (int i = -1; i > exp; i--)
			sb_str(b, "0");
		sb_put(b, digits, nd);
	} else {
		size_t ip = (size_t)exp + 1;
		for (size_t i = 0; i < ip; i++)
			sb_put(b, i < nd ? &digits[i] : "0", 1);
		sb_str(b, ".");
		if (nd > ip)
			sb_put(b, digits + ip, nd - ip);
		else
			sb_str(b, "0");
	}
}

/* repr(str): single quotes unless the text holds ' and no ". */
static void str_repr(struct sb *b, const char *s)
{
	char quote = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
	sb_put(b, &quote, 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == (unsigned char)quote)
			sb_fmt(b, "\\%c", *p);
		else if (*p == '\n')
			sb_str(b, "\\n");
		else if (*p == '\r')
			sb_str(b, "\\r");
		else if (*p == '\t')
			sb_str(b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			sb_fmt(b, "\\x%02x", *p);
		else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) /* C1 controls */
			sb_fmt(b, "\\x%02x", *++p);
		else
			sb_put(b, (const char *)p, 1);
	}
	sb_put(b, &quote, 1);
}

static void pv_write(struct sb *b, struct pv v, bool repr);

static void container_repr(struct sb *b, struct pv v, bool dict)
{
	sb_str(b, dict ? "{" : "[");
	bool first = true;
	for (int k = json_first(v.d, v.tok); k >= 0; k = json_next(v.d, v.tok, k)) {
		if (!first)
			sb_str(b, ", ");
		first = false;
		if (dict) {
			char *key = json_strdup(v.d, k);
			str_repr(b, key);
			free(key);
			sb_str(b, ": ");
			pv_write(b, (struct pv){ v.d, k + 1 }, true);
		} else {
			pv_write(b, (struct pv){ v.d, k }, true);
		}
	}
	sb_str(b, dict ? "}" : "]");
}

/* Python str(v) (repr when `repr`, as inside containers). */
static void pv_write(struct sb *b, struct pv v, bool repr)
{
	const jsmntok_t *t = &v.d->tok[v.tok];
	bool big;
	long long x;
	switch (pv_kind(v)) {
	case PV_NULL: sb_str(b, "None"); return;
	case PV_BOOL: sb_str(b, v.d->js[t->start] == 't' ? "True" : "False"); return;
	case PV_FLOAT: float_repr(b, pv_double(v)); return;
	case PV_INT:
		x = pv_integer(v, &big);
		if (big)
			sb_put(b, v.d->js + t->start, (size_t)(t->end - t->start));
		else
			sb_fmt(b, "%lld", x);
		return;
	case PV_STR: {
		char *s = json_strdup(v.d, v.tok);
		if (repr)
			str_repr(b, s);
		else
			sb_str(b, s);
		free(s);
		return;
	}
	case PV_LIST: container_repr(b, v, false); return;
	case PV_DICT: container_repr(b, v, true); return;
	}
}

void compare_g4(char *buf, size_t n, double x, bool sign)
{
	if (isnan(x))
		snprintf(buf, n, "%s", sign ? "+nan" : "nan");
	else
		snprintf(buf, n, sign ? "%+.4g" : "%.4g", x);
}

/* pytscope's _fmt: None -> "—", float -> .4g, anything else str(); absent -> "<absent>". */
static char *pv_fmt(struct pv v)
{
	struct sb b = { 0 };
	char g[40];
	if (v.tok < 0) {
		sb_str(&b, ABSENT);
	} else if (pv_kind(v) == PV_NULL) {
		sb_str(&b, "—");
	} else if (pv_kind(v) == PV_FLOAT) {
		compare_g4(g, sizeof(g), pv_double(v), false);
		sb_str(&b, g);
	} else {
		pv_write(&b, v, false);
	}
	return b.s;
}

/* ---- flattened dicts and their differences ------------------------------------------- */

struct member {
	char *key;
	struct pv v;
};

struct members {
	struct member *m;
	size_t n, cap;
};

static void members_put(struct members *l, char *key, struct pv v)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->m[i].key, key) == 0) { /* a repeated key: the last value wins */
			free(key);
			l->m[i].v = v;
			return;
		}
	xgrow((void **)&l->m, &l->cap, l->n + 1, sizeof(*l->m));
	l->m[l->n++] = (struct member){ key, v };
}

/* Members of object obj (none when obj is not an object); flatten_env: the "env" object
 * becomes env.KEY members (pytscope's _flatten_env). */
static void members_of(const struct json_doc *d, int obj, bool flatten_env, struct members *out)
{
	if (obj < 0 || !json_is_object(d, obj))
		return;
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		char *key = json_strdup(d, k);
		if (flatten_env && strcmp(key, "env") == 0 && json_is_object(d, k + 1)) {
			for (int j = json_first(d, k + 1); j >= 0; j = json_next(d, k + 1, j)) {
				char *sub = json_strdup(d, j);
				members_put(out, xasprintf("env.%s", sub), (struct pv){ d, j + 1 });
				free(sub);
			}
			free(key);
		} else {
			members_put(out, key, (struct pv){ d, k + 1 });
		}
	}
}

static void members_free(struct members *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->m[i].key);
	free(l->m);
}

static struct pv members_get(const struct members *l, const char *key, const struct json_doc *d)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->m[i].key, key) == 0)
			return l->m[i].v;
	return (struct pv){ d, -1 };
}

/* pytscope's _dict_diffs: the sorted union of keys whose values differ. */
static struct cmp_field *dict_diffs(const struct members *a, const struct members *b, const struct json_doc *da,
				    const struct json_doc *db, size_t *nout)
{
	char **keys = xmalloc((a->n + b->n + 1) * sizeof(*keys));
	size_t nk = 0;
	for (size_t i = 0; i < a->n; i++)
		keys[nk++] = a->m[i].key;
	for (size_t i = 0; i < b->n; i++)
		if (members_get(a, b->m[i].key, da).tok < 0)
			keys[nk++] = b->m[i].key;
	qsort(keys, nk, sizeof(*keys), text_cmp_ptr);
	struct cmp_field *out = xcalloc(nk + 1, sizeof(*out));
	size_t n = 0;
	for (size_t i = 0; i < nk; i++) {
		struct pv va = members_get(a, keys[i], da), vb = members_get(b, keys[i], db);
		if (pv_eq(va, vb, false) && va.tok >= 0 && vb.tok >= 0)
			continue;
		bool num_a = va.tok >= 0 && (pv_kind(va) == PV_INT || pv_kind(va) == PV_FLOAT);
		bool num_b = vb.tok >= 0 && (pv_kind(vb) == PV_INT || pv_kind(vb) == PV_FLOAT);
		out[n++] = (struct cmp_field){ .key = xstrdup(keys[i]), .a = pv_fmt(va), .b = pv_fmt(vb),
					       .na = num_a ? pv_double(va) : 0, .nb = num_b ? pv_double(vb) : 0,
					       .num_a = num_a, .num_b = num_b };
	}
	free(keys);
	*nout = n;
	return out;
}

/* ---- the workload keys (compare.h WORKLOAD) ----------------------------------------------- */

/* The workload keys of config object obj at any depth into out, keyed by their dotted
 * path from config ("train.batch_size"; prefix: obj's, "" at the top): a workload key's
 * value whatever it holds, any other object walked into. */
static void config_workload(const struct json_doc *d, int obj, const char *prefix, struct members *out)
{
	if (obj < 0 || !json_is_object(d, obj))
		return;
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		char *key = json_strdup(d, k);
		char *path = *prefix ? xasprintf("%s.%s", prefix, key) : xstrdup(key);
		if (compare_workload_key(key, false)) {
			members_put(out, path, (struct pv){ d, k + 1 });
		} else {
			config_workload(d, k + 1, path, out);
			free(path);
		}
		free(key);
	}
}

/* The environment's workload keys (top level: gpu, gpu_count) of members env into out. */
static void env_workload(const struct members *env, struct members *out)
{
	for (size_t i = 0; i < env->n; i++)
		if (compare_workload_key(env->m[i].key, true))
			members_put(out, xstrdup(env->m[i].key), env->m[i].v);
}

static void fields_free(struct cmp_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].a);
		free(f[i].b);
	}
	free(f);
}

/* ---- one side -------------------------------------------------------------------------------- */

struct side {
	struct json_doc doc;
	bool parsed;
	struct members env, config;
	struct members work_config, work_env; /* the workload keys (config_workload, env_workload) */
	struct cmp_field *mixed;  /* the workload keys its ranks set otherwise (compare_ranks_workload) */
	size_t nmixed;
	int name;                 /* token of "name", -1 */
};

/* The side's run.json: its lowest rank's, the one a load keeps whole (steps.h); and the
 * workload keys its ranks set otherwise, from every rank's. */
static void side_open(struct side *s, struct run *run)
{
	json_doc_init(&s->doc);
	s->name = -1;
	compare_ranks_workload(run->steps, &s->mixed, &s->nmixed);
	const struct steps_meta *meta = steps_rank_meta(run->steps, 0);
	if (!meta->json || json_parse(&s->doc, meta->json, meta->json_len) <= 0 || !json_is_object(&s->doc, 0))
		return;
	s->parsed = true;
	s->name = json_get(&s->doc, 0, "name");
	members_of(&s->doc, json_get(&s->doc, 0, "environment"), true, &s->env);
	members_of(&s->doc, json_get(&s->doc, 0, "config"), false, &s->config);
	config_workload(&s->doc, json_get(&s->doc, 0, "config"), "", &s->work_config);
	env_workload(&s->env, &s->work_env);
}

static void side_close(struct side *s)
{
	members_free(&s->env);
	members_free(&s->config);
	members_free(&s->work_config);
	members_free(&s->work_env);
	fields_free(s->mixed, s->nmixed);
	json_doc_free(&s->doc);
}

static char *side_name(const struct side *s, const char *dflt)
{
	if (s->name < 0)
		return xstrdup(dflt);
	struct sb b = { 0 };
	pv_write(&b, (struct pv){ &s->doc, s->name }, false);
	return b.s;
}

/* ---- metrics, losses, notes ---------------------------------------------------------------- */

/* A loss as both sides keep it: a rank other than its run's lowest keeps its scalars as
 * float32 (steps.h), so when a side's compared rank is not its lowest (lowest_differ, a
 * rank in common) both sides' losses are rounded to float32, never a difference of their
 * storage. */
static double loss_kept(const struct pydiff *d, double x)
{
	return d->lowest_differ && d->rank_a == d->rank_b ? (double)(float)x : x;
}

static void metrics(struct pydiff *d, struct run *a, struct run *b)
{
	static const char *const key[CMP_NMETRICS] = { "final_loss", "best_loss", "mean_step_ms",
						       "steps_per_sec", "peak_alloc_mb", "n_steps" };
	struct run *side[2] = { a, b };
	size_t ri[2] = { d->ri_a, d->ri_b };
	for (int i = 0; i < CMP_NMETRICS; i++)
		d->metric[i].key = key[i];
	for (int s = 0; s < 2; s++) {
		const struct convergence *cv = analysis_convergence(side[s], ri[s]);
		const struct timing *t = analysis_timing(side[s], ri[s]);
		const struct memory *m = analysis_memory(side[s], ri[s]);
		double v[CMP_NMETRICS] = { cv && cv->has_final ? loss_kept(d, cv->final_loss) : 0,
					   cv && cv->has_final ? loss_kept(d, cv->best_loss) : 0,
					   t ? t->mean_step_time * 1e3 : 0, t ? t->steps_per_sec : 0,
					   m && m->has_memory ? m->peak_alloc / (1024.0 * 1024.0) : 0, t ? (double)t->n : 0 };
		bool has[CMP_NMETRICS] = { cv && cv->has_final, cv && cv->has_final, t != NULL, t != NULL,
					   m && m->has_memory, t != NULL };
		for (int i = 0; i < CMP_NMETRICS; i++) {
			*(s ? &d->metric[i].b : &d->metric[i].a) = v[i];
			*(s ? &d->metric[i].has_b : &d->metric[i].has_a) = has[i];
		}
	}
}

static void losses(struct pydiff *d, struct run *a, struct run *b)
{
	const struct convergence *ca = analysis_convergence(a, d->ri_a), *cb = analysis_convergence(b, d->ri_b);
	size_t na = ca ? ca->nloss : 0, nb = cb ? cb->nloss : 0, n = na < nb ? na : nb;
	d->first_divergence = -1;
	for (size_t i = 0; i < n; i++)
		if (loss_kept(d, ca->loss[i]) != loss_kept(d, cb->loss[i])) { /* exact !=, so NaN always differs */
			d->first_divergence = (long)i;
			break;
		}
	if (d->first_divergence < 0 && na != nb)
		d->first_divergence = (long)n;
	/* list ==: the identity shortcut makes json's one NaN object equal to itself */
	d->nloss_a = na;
	d->nloss_b = nb;
	d->identical = na > 0 && na == nb;
	for (size_t i = 0; i < n && d->identical; i++)
		d->identical = loss_kept(d, ca->loss[i]) == loss_kept(d, cb->loss[i]) ||
			       (isnan(ca->loss[i]) && isnan(cb->loss[i]));
}

/* s appended to the notes v[0..*n) unless they have it (deduplicated, keeping the first). */
static void note_add(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

enum note_to { TO_PYTSCOPE = 1, TO_NATIVE = 2, TO_BOTH = 3 };

static void PRINTF_LIKE(3, 4) note(struct pydiff *d, enum note_to to, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (to & TO_PYTSCOPE)
		note_add(&d->note, &d->nnote, s);
	if (to & TO_NATIVE)
		note_add(&d->native, &d->nnative, s);
	free(s);
}

static bool determinism_key(const char *k)
{
	static const char *const keys[] = { "torch", "cuda", "gpu", "gpu_count", "cudnn_deterministic",
					    "cudnn_benchmark", "env.PYTHONHASHSEED", "env.CUBLAS_WORKSPACE_CONFIG" };
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		if (strcmp(k, keys[i]) == 0)
			return true;
	return false;
}

static char *joined_keys(const struct cmp_field *f, size_t n, bool det_only)
{
	struct sb b = { 0 };
	sb_str(&b, "");
	for (size_t i = 0; i < n; i++) {
		if (det_only && !determinism_key(f[i].key))
			continue;
		if (b.n)
			sb_str(&b, ", ");
		sb_str(&b, f[i].key);
	}
	return b.s;
}

static void side_notes(struct pydiff *d, const struct side *s, const char *name)
{
	struct pv bench = members_get(&s->env, "cudnn_benchmark", &s->doc);
	bool on;
	if (bench.tok >= 0 && pv_kind(bench) == PV_BOOL && json_bool(bench.d, bench.tok, &on) && on)
		note(d, TO_BOTH, "cudnn.benchmark is ON in '%s' — a common source of run-to-run nondeterminism.", name);
	if (members_get(&s->env, "env.PYTHONHASHSEED", &s->doc).tok < 0)
		note(d, s->parsed ? TO_BOTH : TO_PYTSCOPE, "PYTHONHASHSEED is unset in '%s' — set it for reproducibility.",
		     name);
}

/* The side that lacks something (a: A, else B): "run A ('name')". */
static void side_named(char *buf, size_t n, const struct pydiff *d, bool a)
{
	snprintf(buf, n, "run %s ('%s')", a ? "A" : "B", a ? d->name_a : d->name_b);
}

/* What tscope-tui says where pytscope's note would claim more than the input holds: a
 * side without a run.json that parses (absent, unreadable or invalid), or without a
 * loss. NULL when pytscope's note holds. */
static const char *unjudged(const struct pydiff *d, const struct side *sa, const struct side *sb, char *buf, size_t n)
{
	char who[256];
	if (!sa->parsed && !sb->parsed) {
		snprintf(buf, n, "Reproducibility not judged: neither run has a readable run.json, so their environment and config "
			 "are not known.");
	} else if (!sa->parsed || !sb->parsed) {
		side_named(who, sizeof(who), d, !sa->parsed);
		snprintf(buf, n, "Reproducibility not judged: %s has no readable run.json, so its environment and config are not "
			 "known.", who);
	} else if (d->rank_a != d->rank_b) {
		snprintf(buf, n, "Reproducibility not judged: A's lowest rank is rank %d and B's is rank %d, and no "
			 "rank is in both runs; the losses of different ranks are not expected to match.", d->rank_a,
			 d->rank_b);
	} else if (!d->nloss_a && !d->nloss_b) {
		snprintf(buf, n, "Reproducibility not judged: neither run records a loss, so no loss trajectories are "
			 "compared.");
	} else if (!d->nloss_a || !d->nloss_b) {
		side_named(who, sizeof(who), d, !d->nloss_a);
		snprintf(buf, n, "Reproducibility not judged: %s records no loss, so the loss trajectories are not "
			 "compared.", who);
	} else {
		return NULL;
	}
	return buf;
}

static void interpret(struct pydiff *d, const struct side *sa, const struct side *sb)
{
	char why[512];
	const char *not_judged = unjudged(d, sa, sb, why, sizeof(why));
	if (d->identical && !d->nenv && !d->nconfig) {
		note(d, not_judged ? TO_PYTSCOPE : TO_BOTH,
		     "Reproducible: identical environment, config, and step-for-step loss trajectory.");
		if (not_judged)
			note(d, TO_NATIVE, "%s", not_judged);
		return;
	}
	char *det = joined_keys(d->env, d->nenv, true);
	if (d->nconfig) {
		char *keys = joined_keys(d->config, d->nconfig, false);
		note(d, sa->parsed && sb->parsed ? TO_BOTH : TO_PYTSCOPE, "Config differs (%s); outcome differences are "
		     "expected, not a reproducibility problem.", keys);
		free(keys);
	} else if (*det) {
		note(d, sa->parsed && sb->parsed ? TO_BOTH : TO_PYTSCOPE, "Environment differs in determinism-relevant "
		     "fields (%s); these can change numerics across otherwise-identical runs.", det);
	} else if (!d->identical) {
		note(d, not_judged ? TO_PYTSCOPE : TO_BOTH, "NONDETERMINISM: identical config and environment, but the "
		     "loss trajectories differ. Set all seeds, enable torch.backends.cudnn.deterministic, set "
		     "CUBLAS_WORKSPACE_CONFIG, and disable cudnn.benchmark to make runs bit-reproducible.");
	}
	if (not_judged)
		note(d, TO_NATIVE, "%s", not_judged);
	free(det);
	side_notes(d, sa, d->name_a);
	side_notes(d, sb, d->name_b);
	if (d->first_divergence >= 0 && !d->identical)
		note(d, d->nloss_a && d->nloss_b && d->rank_a == d->rank_b ? TO_BOTH : TO_PYTSCOPE,
		     "Loss trajectories first diverge at step %ld.", d->first_divergence);
}

/* The rank whose metrics and losses each side gives (struct pydiff): each side's lowest,
 * or when their ids differ the lowest rank id both have step records of, said in a note
 * of tscope-tui's. */
static void pick_ranks(struct pydiff *d, const struct steps_model *ma, const struct steps_model *mb)
{
	d->rank_a = steps_rank_id(ma, 0);
	d->rank_b = steps_rank_id(mb, 0);
	d->lowest_differ = d->rank_a != d->rank_b;
	for (size_t i = 0; d->lowest_differ && i < steps_nranks(ma); i++) {
		long j = steps_rank_index(mb, steps_rank_id(ma, i));
		if (j < 0 || !steps_nrecords(ma, i) || !steps_nrecords(mb, (size_t)j))
			continue;
		d->ri_a = i;
		d->ri_b = (size_t)j;
		d->rank_a = d->rank_b = steps_rank_id(ma, i);
		note(d, TO_NATIVE, "Metrics and losses of rank %d, the lowest rank both runs have (A's lowest rank "
		     "is %d, B's is %d), its losses to float32 precision as kept for a rank above its run's lowest; "
		     "run.json is each side's lowest rank's.", d->rank_a, steps_rank_id(ma, 0), steps_rank_id(mb, 0));
		return;
	}
}

/* Workload key `key` of side s as the comparison shows it: where each value is when its
 * ranks set it otherwise (compare_ranks_workload), else its lowest rank's value (pv_fmt). */
static char *side_value(const struct side *s, const char *key)
{
	for (size_t i = 0; i < s->nmixed; i++)
		if (strcmp(s->mixed[i].key, key) == 0)
			return xstrdup(s->mixed[i].a);
	return pv_fmt(members_get(&s->work_config, key, &s->doc));
}

/* Key `key`, which the ranks of a side set otherwise, into the differences c[0..*nc)
 * (in place of its lowest ranks' values), unless both sides' ranks set it alike. */
static void mixed_diff(struct cmp_field **c, size_t *nc, const struct side *sa, const struct side *sb,
		       const char *key)
{
	char *a = side_value(sa, key), *b = side_value(sb, key);
	size_t j = 0;
	while (j < *nc && strcmp((*c)[j].key, key) != 0)
		j++;
	if (strcmp(a, b) == 0) {
		free(a);
		free(b);
		return;
	}
	if (j == *nc) {
		*c = xrealloc(*c, (*nc + 1) * sizeof(**c));
		(*c)[(*nc)++] = (struct cmp_field){ .key = xstrdup(key) };
	}
	free((*c)[j].a);
	free((*c)[j].b);
	(*c)[j] = (struct cmp_field){ .key = (*c)[j].key, .a = a, .b = b };
}

/* The workload keys that differ: config's (sorted by path; then those whose values
 * differ between the ranks of a side), then the environment's. */
static void workload_diffs(struct pydiff *d, const struct side *sa, const struct side *sb)
{
	size_t nc, ne;
	struct cmp_field *c = dict_diffs(&sa->work_config, &sb->work_config, &sa->doc, &sb->doc, &nc);
	for (size_t i = 0; i < sa->nmixed + sb->nmixed; i++)
		mixed_diff(&c, &nc, sa, sb, i < sa->nmixed ? sa->mixed[i].key : sb->mixed[i - sa->nmixed].key);
	struct cmp_field *e = dict_diffs(&sa->work_env, &sb->work_env, &sa->doc, &sb->doc, &ne);
	d->workload = xrealloc(c, (nc + ne + 1) * sizeof(*c));
	memcpy(d->workload + nc, e, ne * sizeof(*e));
	d->nworkload = nc + ne;
	free(e);
}

void pydiff_free(struct pydiff *d)
{
	if (!d)
		return;
	fields_free(d->env, d->nenv);
	fields_free(d->config, d->nconfig);
	fields_free(d->workload, d->nworkload);
	for (size_t i = 0; i < d->nnote; i++)
		free(d->note[i]);
	for (size_t i = 0; i < d->nnative; i++)
		free(d->native[i]);
	free(d->native);
	free(d->note);
	free(d->name_a);
	free(d->name_b);
	free(d);
}

bool compare_has_steps(const struct compare *c)
{
	const struct steps_model *ma = c->a->steps, *mb = c->b->steps;
	return ma && mb && steps_nranks(ma) && steps_nranks(mb) && steps_nrecords(ma, 0) && steps_nrecords(mb, 0);
}

const struct pydiff *compare_pydiff(struct compare *c)
{
	if (c->memo->pydiff_done)
		return c->memo->pydiff;
	c->memo->pydiff_done = true;
	if (!compare_has_steps(c))
		return NULL;
	struct pydiff *d = xcalloc(1, sizeof(*d));
	struct side sa = { 0 }, sb = { 0 };
	pick_ranks(d, c->a->steps, c->b->steps);
	side_open(&sa, c->a);
	side_open(&sb, c->b);
	d->name_a = side_name(&sa, "A");
	d->name_b = side_name(&sb, "B");
	d->env = dict_diffs(&sa.env, &sb.env, &sa.doc, &sb.doc, &d->nenv);
	d->config = dict_diffs(&sa.config, &sb.config, &sa.doc, &sb.doc, &d->nconfig);
	workload_diffs(d, &sa, &sb);
	metrics(d, c->a, c->b);
	losses(d, c->a, c->b);
	interpret(d, &sa, &sb);
	side_close(&sa);
	side_close(&sb);
	c->memo->pydiff = d;
	return d;
}
