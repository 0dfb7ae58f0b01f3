/* SPDX-License-Identifier: MIT */
/* workload.c: the run.json keys that define the work of a step (workload.h): their names
 * folded as users spell them, and the workload keys the ranks of one run set otherwise
 * (every rank's top-level config, as its metadata keeps it: steps.h struct steps_meta). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/workload.h"
#include "model/ranklist.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* key as compare_workload_key compares it: lower case, without '_', '-' nor ' ', cut at
 * n - 1 bytes. */
static void key_folded(const char *key, char *out, size_t n)
{
	size_t k = 0;
	for (; *key && k + 1 < n; key++)
		if (*key != '_' && *key != '-' && *key != ' ')
			out[k++] = (char)(*key >= 'A' && *key <= 'Z' ? *key - 'A' + 'a' : *key);
	out[k] = '\0';
}

bool compare_workload_key(const char *key, bool env)
{
	static const char *const config[] = {
		"model", "model_name", "model_id", "batch_size", "global_batch_size", "local_batch_size",
		"micro_batch_size", "train_batch_size", "train_micro_batch_size_per_gpu", "per_device_batch_size",
		"per_device_train_batch_size", "per_gpu_train_batch_size", "gradient_accumulation_steps",
		"grad_accum_steps", "accumulate_grad_batches", "seq_len", "seq_length", "sequence_length",
		"max_seq_len", "max_seq_length", "block_size", "context_length" };
	static const char *const environment[] = { "gpu", "gpu_count" };
	const char *const *list = env ? environment : config;
	size_t n = env ? ARRAY_LEN(environment) : ARRAY_LEN(config);
	char k[64], c[64];
	key_folded(key, k, sizeof(k));
	for (size_t i = 0; i < n; i++) {
		key_folded(list[i], c, sizeof(c));
		if (strcmp(k, c) == 0)
			return true;
	}
	return false;
}

/* Config key `key`'s value in m (a top-level key: "config.KEY"), "(none)" when m has none. */
static const char *rank_config(const struct steps_meta *m, const char *key)
{
	for (size_t i = 0; i < m->nenv; i++)
		if (strncmp(m->env_key[i], "config.", 7) == 0 && strcmp(m->env_key[i] + 7, key) == 0)
			return m->env_val[i];
	return "(none)";
}

/* *s with a and b appended (*s NULL: empty). */
static void str_add(char **s, const char *a, const char *b)
{
	char *t = xasprintf("%s%s%s", *s ? *s : "", a, b);
	free(*s);
	*s = t;
}

/* Value v held by the rank ids[0..n): " / " unless first, "v on rank 0", "v on ranks
 * 1-3,5", or "v on 40 ranks" when their list is long, appended to *s. */
static void value_on(char **s, const char *v, const long *ids, size_t n)
{
	char r[64], on[80];
	if (ranklist_format(ids, n, r, sizeof(r)))
		snprintf(on, sizeof(on), " on rank%s %s", n > 1 ? "s" : "", r);
	else
		snprintf(on, sizeof(on), " on %zu ranks", n);
	str_add(s, *s ? " / " : "", v);
	str_add(s, on, "");
}

/* Where the ranks of m with a run.json hold key's values (compare_ranks_workload). */
static char *rank_values(const struct steps_model *m, const char *key)
{
	size_t n = steps_nranks(m), nid = 1;
	const char *val[3] = { NULL };
	long *ids = xmalloc(n * sizeof(*ids));
	char *s = NULL;
	for (size_t k = 0; k <= ARRAY_LEN(val) && nid; k++) { /* value k, then the ranks of others */
		nid = 0;
		for (size_t ri = 0; ri < n; ri++) {
			const struct steps_meta *mi = steps_rank_meta(m, ri);
			const char *v = mi->present ? rank_config(mi, key) : NULL;
			size_t j = 0;
			while (v && j < k && strcmp(v, val[j]) != 0)
				j++;
			if (!v || j < k)
				continue; /* no run.json, or a value named already */
			if (k < ARRAY_LEN(val) && !val[k])
				val[k] = v;
			if (k == ARRAY_LEN(val) || strcmp(v, val[k]) == 0)
				ids[nid++] = steps_rank_id(m, ri);
		}
		if (nid)
			value_on(&s, k < ARRAY_LEN(val) ? val[k] : "other values", ids, nid);
	}
	free(ids);
	return s;
}

/* key is in out[0..n). */
static bool named(const struct cmp_field *out, size_t n, const char *key)
{
	for (size_t j = 0; j < n; j++)
		if (strcmp(out[j].key, key) == 0)
			return true;
	return false;
}

void compare_ranks_workload(const struct steps_model *m, struct cmp_field **out, size_t *nout)
{
	const struct steps_meta *m0 = m && steps_nranks(m) ? steps_rank_meta(m, 0) : NULL;
	for (size_t ri = 1; m0 && m0->present && ri < steps_nranks(m); ri++) {
		const struct steps_meta *mi = steps_rank_meta(m, ri), *side[2] = { m0, mi };
		for (int s = 0; s < 2 && mi->present; s++) { /* the keys of either */
			for (size_t i = 0; i < side[s]->nenv; i++) {
				const char *k = side[s]->env_key[i];
				if (strncmp(k, "config.", 7) != 0 || strcmp(rank_config(m0, k + 7), rank_config(mi, k + 7)) == 0 ||
				    !compare_workload_key(k + 7, false) || named(*out, *nout, k + 7))
					continue;
				*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
				(*out)[(*nout)++] = (struct cmp_field){ .key = xstrdup(k + 7), .a = rank_values(m, k + 7) };
			}
		}
	}
}
