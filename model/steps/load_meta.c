/* SPDX-License-Identifier: MIT */
/* load_meta.c: run.json of a pytscope rank (pytscope.md §3): name, FLOPs, peak,
 * world size, environment flattened to key=value, read with a size limit; problems
 * become diagnostics, missing fields stay flagged missing. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/json.h"
#include "model/run.h"
#include "model/steps/internal.h"
#include "model/xalloc.h"

#define META_MAX ((size_t)16 << 20)

/* run.json (at most META_MAX bytes), read once per open with the probes (dirlist_read). */
static char *read_small(const char *path, size_t *len, int *err)
{
	char *buf = dirlist_read(path, META_MAX, len);
	*err = buf ? 0 : errno;
	if (buf && *len >= META_MAX) {
		free(buf);
		*err = EFBIG;
		return NULL;
	}
	return buf;
}

/* The arrays grow to the next power of two (from 16) when nenv reaches one: a few
 * reallocations per run.json, not two per key. */
/* a + b + c in a new string (what xasprintf("%s%s%s") gives, without formatting:
 * three per rank in a run of many ranks). */
static char *concat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = xmalloc(la + lb + lc + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

static void env_add(struct steps_meta *m, char *key, char *val)
{
	size_t n = m->nenv;
	if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {
		size_t cap = n ? n * 2 : 16;
		m->env_key = xrealloc(m->env_key, cap * sizeof(*m->env_key));
		m->env_val = xrealloc(m->env_val, cap * sizeof(*m->env_val));
	}
	m->env_key[m->nenv] = key;
	m->env_val[m->nenv++] = val;
}

/* environment: flat key=value text; the nested "env" object becomes env.KEY. */
static void meta_environment(const struct json_doc *d, int obj, struct steps_meta *m)
{
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		char *key = json_strdup(d, k);
		if (json_is_object(d, k + 1)) {
			for (int j = json_first(d, k + 1); j >= 0; j = json_next(d, k + 1, j)) {
				char *sub = json_strdup(d, j);
				env_add(m, concat3(key, ".", sub), json_strdup(d, j + 1));
				free(sub);
			}
			free(key);
		} else {
			env_add(m, key, json_strdup(d, k + 1));
		}
	}
}

/* config: each top-level key as "config.KEY" (nested values as "{...}"), after the
 * environment; an empty config as the single key "config" = "{}". */
static void meta_config(const struct json_doc *d, int obj, struct steps_meta *m)
{
	if (!json_is_object(d, obj))
		return;
	if (json_first(d, obj) < 0)
		env_add(m, xstrdup("config"), xstrdup("{}"));
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		char *key = json_strdup(d, k);
		bool nested = json_is_object(d, k + 1) || json_is_array(d, k + 1);
		env_add(m, concat3("config.", key, ""), nested ? xstrdup("{...}") : json_strdup(d, k + 1));
		free(key);
	}
}

static bool meta_long(const struct json_doc *d, int obj, const char *key, long *out)
{
	long long v;
	if (!json_int(d, json_get(d, obj, key), &v))
		return false;
	*out = (long)v;
	return true;
}

static void meta_parse(const struct json_doc *d, struct steps_meta *m)
{
	m->present = true;
	int name = json_get(d, 0, "name");
	if (json_is_string(d, name))
		m->name = json_strdup(d, name);
	m->has_flops = json_number(d, json_get(d, 0, "flops_per_step"), &m->flops_per_step);
	m->has_peak = json_number(d, json_get(d, 0, "peak_flops"), &m->peak_flops);
	m->has_wall = json_number(d, json_get(d, 0, "wall_time"), &m->wall_time);
	m->has_world = meta_long(d, 0, "world_size", &m->world_size);
	m->has_nsteps = meta_long(d, 0, "n_steps", &m->n_steps);
	m->has_rank = meta_long(d, 0, "rank", &m->rank);
	int env = json_get(d, 0, "environment");
	if (json_is_object(d, env))
		meta_environment(d, env, m);
	meta_config(d, json_get(d, 0, "config"), m);
}

/* run.json "name" in dir, or NULL. */
char *steps_meta_name(const char *dir)
{
	char *path = concat3(dir, "/", "run.json");
	size_t len = 0;
	int err = 0;
	char *buf = read_small(path, &len, &err);
	free(path);
	if (!buf)
		return NULL;
	char *name = NULL;
	struct json_doc d;
	json_doc_init(&d);
	if (json_parse(&d, buf, len) > 0 && json_is_object(&d, 0)) {
		struct steps_meta m = { 0 };
		meta_parse(&d, &m);
		name = m.name;
		m.name = NULL;
		steps_meta_free(&m);
	}
	json_doc_free(&d);
	free(buf);
	return name;
}

void steps_load_meta(struct run *run, const char *dir, int rank, struct steps_meta *m)
{
	char *path = concat3(dir, "/", "run.json");
	size_t len = 0;
	int err = 0;
	char *buf = read_small(path, &len, &err);
	if (!buf) {
		if (err != ENOENT) {
			size_t si = run_add_source(run, path, "pytscope", rank, -1);
			run_source_done(run, si, 0, 0, err, false);
		}
		diag_add(&run->diags, err == ENOENT ? DIAG_INFO : DIAG_WARN, path, -1, -1, rank,
			 "run.json %s: no run metadata", err == ENOENT ? "missing" : infile_strerror(err));
		free(path);
		return;
	}
	size_t si = run_add_source(run, path, "pytscope", rank, (long long)len);
	struct json_doc d;
	json_doc_init(&d);
	int rc = json_parse(&d, buf, len);
	if (rc > 0 && json_is_object(&d, 0)) {
		meta_parse(&d, m);
		m->json = buf; /* NUL-terminated: kept, not copied */
		m->json_len = len;
		buf = NULL;
		run_source_done(run, si, 1, 0, 0, false);
	} else {
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, rank, "run.json is not a JSON object (%s): no run metadata",
			 rc > 0 ? "wrong type" : json_err_str(rc));
		run_source_done(run, si, 0, 1, 0, false);
	}
	json_doc_free(&d);
	free(buf);
	free(path);
}

