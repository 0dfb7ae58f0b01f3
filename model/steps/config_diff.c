/* SPDX-License-Identifier: MIT */
/* config_diff.c: run.json keys a few ranks set otherwise (see config_diff.h). One pass
 * compares each rank's keys of the scope with the lowest rank's (a rank whose whole
 * environment and config are the lowest rank's bytes costs one memcmp); only the keys
 * whose value differs somewhere (every key, when some rank has other keys) get a
 * majority vote over the ranks that differ, the others voting the lowest rank's. Keys
 * with a minority are named against the most common value; without any, the keys that
 * differ at all are named against the lowest rank's value (split). */
#include "model/steps/config_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/ranklist.h"
#include "model/steps/internal.h"
#include "model/text.h"
#include "model/xalloc.h"

#define DIFF_KEYS 32

bool steps_is_config_key(const char *key)
{
	return strncmp(key, "config", 6) == 0 && (key[6] == '\0' || key[6] == '.');
}

/* What pytscope records of the software and hardware that decide a rank's speed
 * (steps.h struct steps_meta environment keys): the same on every rank of one job on like
 * nodes. Hostnames and the user's env.* variables may differ by host or rank, and the
 * platform string (a kernel version) rarely decides; they are not weighed. */
static const char *const env_keys[] = { "gpu", "gpu_count", "torch", "cuda", "cuda_available", "cudnn_benchmark",
					"cudnn_deterministic", "python", "cpu_count" };

static bool in_scope(enum diff_scope scope, const char *key)
{
	if (scope == DIFF_CONFIG)
		return steps_is_config_key(key) && key[6] == '.';
	for (size_t i = 0; i < ARRAY_LEN(env_keys); i++)
		if (strcmp(key, env_keys[i]) == 0)
			return true;
	return false;
}

/* The key as named: a config key without "config.". */
static const char *key_name(enum diff_scope scope, const char *key)
{
	return scope == DIFF_CONFIG ? key + 7 : key;
}

/* Where x's keys of the scope may be: run.json's config comes after the environment,
 * as "config.KEY" keys, so the config's walk back costs its keys only. */
static size_t scope_start(enum diff_scope scope, const struct steps_meta *x)
{
	size_t i = x->nenv;
	while (scope == DIFF_CONFIG && i > 0 && steps_is_config_key(x->env_key[i - 1]))
		i--;
	return scope == DIFF_CONFIG ? i : 0;
}

/* The value of key in x, NULL when x has none. */
static const char *value_of(enum diff_scope scope, const struct steps_meta *x, const char *key)
{
	for (size_t i = scope_start(scope, x); i < x->nenv; i++)
		if (strcmp(x->env_key[i], key) == 0)
			return x->env_val[i] ? x->env_val[i] : "null";
	return NULL;
}

/* x's environment and config are m0's bytes (their keys and values back to back). */
static bool same_bytes(const struct steps_meta *x, const struct steps_meta *m0)
{
	return x->env_bytes && x->env_bytes == m0->env_bytes && x->nenv == m0->nenv &&
	       (x->env_key[0] == m0->env_key[0] || memcmp(x->env_key[0], m0->env_key[0], x->env_bytes) == 0);
}

/* The comparison's state: the lowest rank, its keys of the scope, the ranks that differ. */
struct diff_pass {
	enum diff_scope scope;
	const struct steps_model *m;
	const struct steps_meta *m0;
	const char *keys0[DIFF_KEYS];   /* m0's keys of the scope */
	size_t nkeys0;
	size_t *odd, nodd;              /* rank indexes whose keys or values differ */
	size_t n;                       /* ranks with a run.json */
	uint32_t varies;                /* bit k: keys0[k]'s value differs on some rank */
	bool other_keys;                /* some rank has keys m0 has not, or lacks some */
	size_t j0;                      /* scope_start of m0 */
	size_t place0[DIFF_KEYS];       /* keys0[k] is m0's key j0 + place0[k] */
};

static size_t scope_count(enum diff_scope scope, const struct steps_meta *x)
{
	size_t n = 0;
	for (size_t i = scope_start(scope, x); i < x->nenv; i++)
		n += in_scope(scope, x->env_key[i]);
	return n;
}

static bool same_key(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

/* x has as many keys from the scope's start as m0, and m0's keys of the scope in the
 * same places (a run.json of the same shape; a config's few keys are each checked in
 * place, an empty one's "config" too): the bits of keys0 whose value differs set in
 * *varies, with no lookup. In the environment only m0's places of the scope are
 * checked: an environment key of the scope that x has where m0 has a key outside it
 * (at the same count) is not seen; pytscope writes its environment keys in one order. */
static bool same_places(const struct diff_pass *p, const struct steps_meta *x, uint32_t *varies)
{
	size_t i0 = scope_start(p->scope, x), len = p->m0->nenv - p->j0;
	if (x->nenv - i0 != len)
		return false;
	for (size_t t = 0; p->scope == DIFF_CONFIG && t < len; t++)
		if (!same_key(x->env_key[i0 + t], p->m0->env_key[p->j0 + t]))
			return false;
	uint32_t v = 0;
	for (size_t k = 0; k < p->nkeys0; k++) {
		size_t i = i0 + p->place0[k], j = p->j0 + p->place0[k];
		if (p->scope != DIFF_CONFIG && !same_key(x->env_key[i], p->m0->env_key[j]))
			return false;
		if (!text_same(x->env_val[i], p->m0->env_val[j]))
			v |= (uint32_t)1 << k;
	}
	*varies |= v;
	return true;
}

/* x against m0: the bits of keys0 whose value differs set in *varies; false when x has
 * other keys of the scope. */
static bool against(const struct diff_pass *p, const struct steps_meta *x, uint32_t *varies)
{
	if (same_bytes(x, p->m0) || same_places(p, x, varies))
		return true;
	size_t found = 0;
	for (size_t k = 0; k < p->nkeys0; k++) {
		const char *v = value_of(p->scope, x, p->keys0[k]);
		found += v != NULL;
		if (!text_same(v, value_of(p->scope, p->m0, p->keys0[k])))
			*varies |= (uint32_t)1 << k;
	}
	return found == p->nkeys0 && scope_count(p->scope, x) == p->nkeys0;
}

/* The keys of m0 and of the ranks that differ (at most DIFF_KEYS). */
static size_t all_keys(const struct diff_pass *p, const char **keys)
{
	size_t n = 0;
	for (size_t k = 0; k <= p->nodd; k++) {
		const struct steps_meta *x = k ? steps_rank_meta(p->m, p->odd[k - 1]) : p->m0;
		for (size_t i = scope_start(p->scope, x); i < x->nenv && n < DIFF_KEYS; i++) {
			bool seen = !in_scope(p->scope, x->env_key[i]);
			for (size_t j = 0; j < n && !seen; j++)
				seen = strcmp(keys[j], x->env_key[i]) == 0;
			if (!seen)
				keys[n++] = x->env_key[i];
		}
	}
	return n;
}

/* The keys to weigh: those whose value differs on some rank, or (some rank has other
 * keys) every key of m0 and of the ranks that differ. */
static size_t weighed(const struct diff_pass *p, const char **keys)
{
	if (p->other_keys)
		return all_keys(p, keys);
	size_t n = 0;
	for (size_t k = 0; k < p->nkeys0; k++)
		if (p->varies & (uint32_t)1 << k)
			keys[n++] = p->keys0[k];
	return n;
}

/* What most ranks with a run.json have for key (absent: NULL), by a majority vote: the
 * ranks like m0 vote m0's value, each odd rank its own; *most: how many have it. */
static const char *majority(const struct diff_pass *p, const char *key, size_t *most)
{
	const char *v0 = value_of(p->scope, p->m0, key), *cand = v0;
	size_t votes = p->n - p->nodd;
	for (size_t k = 0; k < p->nodd; k++) {
		const char *v = value_of(p->scope, steps_rank_meta(p->m, p->odd[k]), key);
		if (votes == 0)
			cand = v;
		if (votes == 0 || text_same(v, cand))
			votes++;
		else
			votes--;
	}
	*most = text_same(v0, cand) ? p->n - p->nodd : 0;
	for (size_t k = 0; k < p->nodd; k++)
		*most += text_same(value_of(p->scope, steps_rank_meta(p->m, p->odd[k]), key), cand);
	return cand;
}

/* Key `key`, whose most common value is v, into out: the ranks that differ on it marked
 * in differs ([0]: m0 and the ranks like it, then odd), the lowest of them kept. */
static void name_key(const struct diff_pass *p, const char *key, const char *v, bool *differs, struct config_diff *out)
{
	size_t used = strlen(out->keys);
	snprintf(out->keys + used, sizeof(out->keys) - used, "%s%s", used ? ", " : "", key_name(p->scope, key));
	for (size_t k = 0; k <= p->nodd; k++) {
		size_t r = k ? p->odd[k - 1] : 0;
		const char *x = value_of(p->scope, k ? steps_rank_meta(p->m, r) : p->m0, key);
		if (text_same(x, v))
			continue;
		differs[k] = true;
		if (!out->key || r < out->first) {
			out->first = r;
			out->key = key_name(p->scope, key);
			out->value = x ? x : "(none)";
			out->others = v ? v : "(none)";
		}
	}
}

/* The ids of the ranks marked in differs (as name_key marks them), as ranges, into
 * out->ranks; "" when they do not fit. */
static void list_ranks(const struct diff_pass *p, const bool *differs, struct config_diff *out)
{
	long *ids = xmalloc((out->ndiff ? out->ndiff : 1) * sizeof(*ids));
	size_t n = 0, k = 0;
	for (size_t r = 0; r < steps_nranks(p->m) && n < out->ndiff; r++) {
		if (!steps_rank_meta(p->m, r)->present)
			continue;
		bool odd = k < p->nodd && p->odd[k] == r;
		k += odd;
		if (differs[odd ? k : 0])
			ids[n++] = steps_rank_id(p->m, r);
	}
	ranklist_format(ids, n, out->ranks, sizeof(out->ranks));
	free(ids);
}

bool steps_config_diff(const struct steps_model *m, enum diff_scope scope, struct config_diff *out)
{
	const struct steps_meta *m0 = steps_nranks(m) ? steps_rank_meta(m, 0) : NULL;
	if (!m0 || !m0->present)
		return false;
	struct diff_pass p = { .scope = scope, .m = m, .m0 = m0, .n = 1,
			       .odd = xmalloc(steps_nranks(m) * sizeof(*p.odd)) };
	p.j0 = scope_start(scope, m0);
	for (size_t i = p.j0; i < m0->nenv && p.nkeys0 < DIFF_KEYS; i++)
		if (in_scope(scope, m0->env_key[i])) {
			p.place0[p.nkeys0] = i - p.j0;
			p.keys0[p.nkeys0++] = m0->env_key[i];
		}
	for (size_t r = 1; r < steps_nranks(m); r++) {
		const struct steps_meta *x = steps_rank_meta(m, r);
		if (!x->present)
			continue;
		p.n++;
		uint32_t v = 0;
		bool same_keys = against(&p, x, &v);
		p.other_keys |= !same_keys;
		p.varies |= v;
		if (!same_keys || v)
			p.odd[p.nodd++] = r;
	}
	const char *keys[DIFF_KEYS];
	size_t nkeys = p.nodd ? weighed(&p, keys) : 0;
	bool *differs = xcalloc(p.nodd + 1, sizeof(*differs));
	*out = (struct config_diff){ .n = p.n };
	size_t most[DIFF_KEYS];
	for (size_t j = 0; j < nkeys; j++) {
		const char *v = majority(&p, keys[j], &most[j]);
		if (most[j] < p.n && 2 * (p.n - most[j]) < p.n)
			name_key(&p, keys[j], v, differs, out);
	}
	out->split = !out->key;
	for (size_t j = 0; j < nkeys && out->split; j++)
		if (most[j] < p.n)
			name_key(&p, keys[j], value_of(scope, m0, keys[j]), differs, out);
	out->split = out->split && out->key;
	for (size_t k = 0; k <= p.nodd; k++)
		out->ndiff += differs[k] ? (k ? 1 : p.n - p.nodd) : 0;
	if (out->ndiff > 1)
		list_ranks(&p, differs, out);
	free(differs);
	free(p.odd);
	return out->key != NULL;
}
