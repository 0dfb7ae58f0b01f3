/* SPDX-License-Identifier: MIT */
/* env_diff.c: the software and hardware that a few traces record otherwise than the rest
 * (trace_env_diff in internal.h): per key, a majority vote over the traces, then the
 * traces that differ from the most common value; with no majority, from the lowest
 * rank's. A value a trace does not record counts as one, except the backend's: many
 * traces carry only distributedInfo's rank, and only the recorded backends are compared.
 * Owns the traces' environment keys (trace.h trace_env_keys) and which GPU a
 * trace names as its rank's (trace_devices_gpu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/json.h"
#include "model/ranklist.h"
#include "model/text.h"
#include "model/trace/internal.h"
#include "model/xalloc.h"

const char *const trace_env_keys[TRACE_ENV_KEYS] = { "gpu", "cuda_runtime_version", "cuda_driver_version",
								     "backend" };

const char *trace_rank_env(const struct trace_rank *r, size_t k)
{
	const char *const v[TRACE_ENV_KEYS] = { r->gpu, r->cuda_runtime, r->cuda_driver, r->backend };
	return k < TRACE_ENV_KEYS ? v[k] : NULL;
}

void trace_devices_free(struct trace_devices *dv)
{
	for (size_t i = 0; i < dv->n; i++)
		free(dv->name[i]);
	dv->n = 0;
}

void trace_devices_read(struct trace_devices *dv, const struct json_doc *d)
{
	trace_devices_free(dv);
	dv->total = 0;
	for (int e = json_first(d, 0); e >= 0; e = json_next(d, 0, e)) {
		int t = json_get(d, e, "name"), id = json_get(d, e, "id");
		if (t < 0 || !json_is_string(d, t) || d->tok[t].end == d->tok[t].start)
			continue;
		if (dv->total++ >= ARRAY_LEN(dv->name))
			continue;
		long long x;
		dv->id[dv->n] = id >= 0 && json_int(d, id, &x) && x >= 0 && x < 64 ? x : -1;
		dv->name[dv->n++] = json_strdup(d, t);
	}
}

/* Whether device i of dv is wanted: its id is set in used, or (all) none is. */
static bool device_wanted(const struct trace_devices *dv, size_t i, uint64_t used, bool all)
{
	return all || (dv->id[i] >= 0 && (used >> dv->id[i] & 1));
}

char *trace_devices_gpu(const struct trace_devices *dv, uint64_t used)
{
	bool all = true;
	for (size_t i = 0; i < dv->n && all; i++)
		all = !device_wanted(dv, i, used, false);
	char buf[201] = "";
	size_t used_bytes = 0, shown = 0;
	for (size_t i = 0; i < dv->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = device_wanted(dv, j, used, all) && strcmp(dv->name[j], dv->name[i]) == 0;
		if (seen || !device_wanted(dv, i, used, all) || used_bytes >= sizeof(buf))
			continue;
		used_bytes += (size_t)snprintf(buf + used_bytes, sizeof(buf) - used_bytes, "%s%s", shown++ ? ", " : "",
					       dv->name[i]);
	}
	return shown ? xstrdup(buf) : NULL;
}

/* Rank i's value of key k, NULL when its trace does not record it. */
static const char *env_value(const struct trace_set *ts, size_t i, size_t k)
{
	return trace_rank_env(ts->r[i], k);
}

/* Whether rank i's trace is compared on key k: not on the backend when it does not
 * record one. */
static bool env_compared(const struct trace_set *ts, size_t i, size_t k)
{
	return env_value(ts, i, k) || strcmp(trace_env_keys[k], "backend") != 0;
}

/* The value of key k of the lowest rank compared on it (NULL when none is). */
static const char *env_first(const struct trace_set *ts, size_t k)
{
	for (size_t i = 0; i < ts->n; i++)
		if (env_compared(ts, i, k))
			return env_value(ts, i, k);
	return NULL;
}

/* The value more than half of the traces compared on key k have (Boyer-Moore's vote),
 * else NULL with *found false. */
static const char *majority(const struct trace_set *ts, size_t k, bool *found)
{
	const char *cand = NULL;
	size_t votes = 0, most = 0, n = 0;
	for (size_t i = 0; i < ts->n; i++) {
		if (!env_compared(ts, i, k))
			continue;
		const char *v = env_value(ts, i, k);
		if (votes == 0)
			cand = v;
		votes = votes == 0 || text_same(v, cand) ? votes + 1 : votes - 1;
		n++;
	}
	for (size_t i = 0; i < ts->n; i++)
		most += env_compared(ts, i, k) && text_same(env_value(ts, i, k), cand);
	*found = 2 * most > n;
	return *found ? cand : NULL;
}

/* Key k named against v into out: the traces that differ from it marked in differs,
 * the lowest of them kept. */
static void name_key(const struct trace_set *ts, size_t k, const char *v, bool *differs, struct trace_env_diff *out)
{
	size_t used = strlen(out->keys);
	snprintf(out->keys + used, sizeof(out->keys) - used, "%s%s", used ? ", " : "", trace_env_keys[k]);
	for (size_t i = 0; i < ts->n; i++) {
		const char *x = env_value(ts, i, k);
		if (!env_compared(ts, i, k) || text_same(x, v))
			continue;
		if (!out->key || i < out->first) {
			out->first = i;
			out->key = trace_env_keys[k];
			out->value = x ? x : "(none)";
			out->others = v ? v : "(none)";
		}
		differs[i] = true;
	}
}

bool trace_env_diff(const struct trace_set *ts, struct trace_env_diff *out)
{
	*out = (struct trace_env_diff){ .n = ts ? ts->n : 0 };
	if (!ts || ts->n < 2)
		return false;
	bool varies[TRACE_ENV_KEYS], found[TRACE_ENV_KEYS];
	const char *most[TRACE_ENV_KEYS];
	for (size_t k = 0; k < TRACE_ENV_KEYS; k++) {
		varies[k] = found[k] = false;
		const char *first = env_first(ts, k);
		for (size_t i = 0; i < ts->n && !varies[k]; i++)
			varies[k] = env_compared(ts, i, k) && !text_same(env_value(ts, i, k), first);
		most[k] = varies[k] ? majority(ts, k, &found[k]) : NULL;
	}
	bool *differs = xcalloc(ts->n, sizeof(*differs)), named[TRACE_ENV_KEYS] = { false };
	for (size_t k = 0; k < TRACE_ENV_KEYS; k++) {
		named[k] = varies[k] && found[k];
		if (named[k])
			name_key(ts, k, most[k], differs, out);
	}
	out->split = !out->key;
	for (size_t k = 0; k < TRACE_ENV_KEYS && out->split; k++) {
		named[k] = varies[k];
		if (named[k])
			name_key(ts, k, env_first(ts, k), differs, out);
	}
	out->split = out->split && out->key;
	out->n = 0; /* the traces compared on a named key (a backend not recorded is not) */
	for (size_t i = 0; i < ts->n; i++) {
		bool any = false;
		for (size_t k = 0; k < TRACE_ENV_KEYS && !any; k++)
			any = named[k] && env_compared(ts, i, k);
		out->n += any;
	}
	long *ids = xmalloc(ts->n * sizeof(*ids));
	for (size_t i = 0; i < ts->n; i++)
		if (differs[i])
			ids[out->ndiff++] = ts->r[i]->rank;
	if (out->ndiff > 1)
		ranklist_format(ids, out->ndiff, out->ranks, sizeof(out->ranks));
	free(ids);
	free(differs);
	return out->key != NULL;
}
