/* SPDX-License-Identifier: MIT */
/* config_diff.c: run.json config keys a few ranks set otherwise (see config_diff.h). One
 * pass compares each rank's config with the lowest rank's, key by key in place; only
 * the keys whose value differs somewhere (every key, when some rank has other keys) get
 * a majority vote over the ranks that differ, the others voting the lowest rank's. */
#include "model/steps/config_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/steps/internal.h"
#include "model/xalloc.h"

#define CONFIG_KEYS 32

bool steps_is_config_key(const char *key)
{
	return strncmp(key, "config", 6) == 0 && (key[6] == '\0' || key[6] == '.');
}

/* Where x's config keys start: run.json's config comes after the environment, as
 * "config.KEY" keys (steps.h struct steps_meta), so the walk back costs its keys only. */
static size_t config_start(const struct steps_meta *x)
{
	size_t i = x->nenv;
	while (i > 0 && steps_is_config_key(x->env_key[i - 1]))
		i--;
	return i;
}

/* The value of config key `key` ("config.batch_size") in x, NULL when x has none. */
static const char *config_value(const struct steps_meta *x, const char *key)
{
	for (size_t i = config_start(x); i < x->nenv; i++)
		if (strcmp(x->env_key[i], key) == 0)
			return x->env_val[i] ? x->env_val[i] : "null";
	return NULL;
}

static bool same_value(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* x's config against m0's (whose keys start at j0): false when the keys differ (not the
 * same ones in the same order), else true, with the bit of each key (its place in m0's,
 * up to CONFIG_KEYS) whose value differs set in *varies. */
static bool config_against(const struct steps_meta *x, const struct steps_meta *m0, size_t j0, uint32_t *varies)
{
	size_t i = config_start(x);
	if (x->nenv - i != m0->nenv - j0)
		return false;
	for (size_t j = j0; j < m0->nenv; i++, j++) {
		if (x->env_key[i] != m0->env_key[j] && strcmp(x->env_key[i], m0->env_key[j]) != 0)
			return false;
		if (!same_value(x->env_val[i], m0->env_val[j]))
			*varies |= j - j0 < CONFIG_KEYS ? (uint32_t)1 << (j - j0) : 0;
	}
	return true;
}

/* The config keys of m0 and of the ranks in `odd` (at most CONFIG_KEYS). */
static size_t config_keys(const struct steps_model *m, const struct steps_meta *m0, const size_t *odd, size_t nodd,
			  const char **keys)
{
	size_t n = 0;
	for (size_t k = 0; k <= nodd; k++) {
		const struct steps_meta *x = k ? steps_rank_meta(m, odd[k - 1]) : m0;
		for (size_t i = config_start(x); i < x->nenv && n < CONFIG_KEYS; i++) {
			bool seen = strcmp(x->env_key[i], "config") == 0;
			for (size_t j = 0; j < n && !seen; j++)
				seen = strcmp(keys[j], x->env_key[i]) == 0;
			if (!seen)
				keys[n++] = x->env_key[i];
		}
	}
	return n;
}

/* What most ranks with a run.json have for key (absent: NULL), by a majority vote: the
 * nsame ranks whose config is m0's vote m0's value, each of odd its own; *most: how many
 * ranks have it. */
static const char *config_majority(const struct steps_model *m, const struct steps_meta *m0, size_t nsame,
				   const size_t *odd, size_t nodd, const char *key, size_t *most)
{
	const char *cand = config_value(m0, key);
	size_t votes = nsame;
	for (size_t k = 0; k < nodd; k++) {
		const char *v = config_value(steps_rank_meta(m, odd[k]), key);
		if (votes == 0)
			cand = v;
		if (votes == 0 || same_value(v, cand))
			votes++;
		else
			votes--;
	}
	*most = same_value(config_value(m0, key), cand) ? nsame : 0;
	for (size_t k = 0; k < nodd; k++)
		*most += same_value(config_value(steps_rank_meta(m, odd[k]), key), cand);
	return cand;
}

/* The config keys to weigh ("config.KEY", not an empty config's "config"): those whose
 * value differs on some rank, or when some rank has other keys, every key of m0 and of
 * the ranks that differ. */
static size_t config_weighed(const struct steps_model *m, const struct steps_meta *m0, const size_t *odd, size_t nodd,
			     bool other_keys, uint32_t varies, const char **keys)
{
	if (other_keys)
		return config_keys(m, m0, odd, nodd, keys);
	size_t n = 0, j0 = config_start(m0);
	for (size_t j = j0; j < m0->nenv && j - j0 < CONFIG_KEYS; j++)
		if (varies & (uint32_t)1 << (j - j0) && strcmp(m0->env_key[j], "config") != 0)
			keys[n++] = m0->env_key[j];
	return n;
}

bool steps_config_diff(const struct steps_model *m, struct config_diff *out)
{
	const struct steps_meta *m0 = steps_nranks(m) ? steps_rank_meta(m, 0) : NULL;
	if (!m0 || !m0->present)
		return false;
	size_t n = 1, nodd = 0, *odd = xmalloc(steps_nranks(m) * sizeof(*odd)), j0 = config_start(m0);
	uint32_t varies = 0;
	bool other_keys = false;
	for (size_t r = 1; r < steps_nranks(m); r++) {
		const struct steps_meta *x = steps_rank_meta(m, r);
		if (!x->present)
			continue;
		n++;
		uint32_t v = 0;
		bool same_keys = config_against(x, m0, j0, &v);
		other_keys |= !same_keys;
		varies |= v;
		if (!same_keys || v)
			odd[nodd++] = r;
	}
	const char *keys[CONFIG_KEYS], *flagged = NULL;
	size_t nkeys = nodd ? config_weighed(m, m0, odd, nodd, other_keys, varies, keys) : 0;
	bool *differs = xcalloc(nodd + 1, sizeof(*differs)); /* [0]: m0 and its like, then odd */
	*out = (struct config_diff){ .n = n };
	for (size_t j = 0; j < nkeys; j++) {
		size_t most;
		const char *v = config_majority(m, m0, n - nodd, odd, nodd, keys[j], &most);
		if (most == n || 2 * (n - most) >= n)
			continue;
		size_t used = strlen(out->keys);
		snprintf(out->keys + used, sizeof(out->keys) - used, "%s%s", used ? ", " : "", keys[j] + 7);
		for (size_t k = 0; k <= nodd; k++) {
			size_t r = k ? odd[k - 1] : 0;
			const char *x = config_value(k ? steps_rank_meta(m, r) : m0, keys[j]);
			if (same_value(x, v))
				continue;
			differs[k] = true;
			if (!flagged || r < out->first) {
				flagged = keys[j];
				out->first = r;
				out->key = keys[j] + 7;
				out->value = x ? x : "(none)";
				out->others = v ? v : "(none)";
			}
		}
	}
	for (size_t k = 0; k <= nodd; k++)
		out->ndiff += differs[k] ? (k ? 1 : n - nodd) : 0;
	free(differs);
	free(odd);
	return flagged != NULL;
}
