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
/* The environment and config strings of one run.json, built in one block (it becomes
 * steps_meta.env_text): two allocations per key would be sixty per rank of a big run,
 * and as many frees. Offsets until the block stops moving. */
struct env_pool {
	char *buf;
	size_t len, cap, start;  /* start: of the string being built */
	size_t *off;             /* key, value, key, value, ... */
	size_t noff, offcap;
};

static void pool_room(struct env_pool *p, size_t n)
{
	if (p->len + n > p->cap) {
		p->cap = (p->len + n) * 2;
		p->buf = xrealloc(p->buf, p->cap);
	}
}

static void pool_add(struct env_pool *p, const char *s)
{
	size_t n = strlen(s);
	pool_room(p, n);
	memcpy(p->buf + p->len, s, n);
	p->len += n;
}

/* Token i's text (unescaped), not yet terminated. */
static void pool_add_tok(struct env_pool *p, const struct json_doc *d, int i)
{
	pool_room(p, (size_t)(d->tok[i].end - d->tok[i].start) + 1);
	p->len += json_strput(d, i, p->buf + p->len);
}

/* Terminate the string being built and note where it starts. */
static void pool_end(struct env_pool *p)
{
	pool_room(p, 1);
	p->buf[p->len++] = '\0';
	xgrow((void **)&p->off, &p->offcap, p->noff + 1, sizeof(*p->off));
	p->off[p->noff++] = p->start;
	p->start = p->len;
}

/* Hand the block and its key/value pointers to m. */
static void pool_finish(struct env_pool *p, struct steps_meta *m)
{
	m->nenv = p->noff / 2;
	if (m->nenv) {
		m->env_text = p->buf = xrealloc(p->buf, p->len);
		m->env_key = xmalloc(m->nenv * sizeof(*m->env_key));
		m->env_val = xmalloc(m->nenv * sizeof(*m->env_val));
		for (size_t i = 0; i < m->nenv; i++) {
			m->env_key[i] = p->buf + p->off[2 * i];
			m->env_val[i] = p->buf + p->off[2 * i + 1];
		}
	} else {
		free(p->buf);
	}
	free(p->off);
}

/* environment: flat key=value text; the nested "env" object becomes env.KEY. */
static void meta_environment(const struct json_doc *d, int obj, struct env_pool *p)
{
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		if (json_is_object(d, k + 1)) {
			for (int j = json_first(d, k + 1); j >= 0; j = json_next(d, k + 1, j)) {
				pool_add_tok(p, d, k);
				pool_add(p, ".");
				pool_add_tok(p, d, j);
				pool_end(p);
				pool_add_tok(p, d, j + 1);
				pool_end(p);
			}
		} else {
			pool_add_tok(p, d, k);
			pool_end(p);
			pool_add_tok(p, d, k + 1);
			pool_end(p);
		}
	}
}

/* config: each top-level key as "config.KEY" (nested values as "{...}"), after the
 * environment; an empty config as the single key "config" = "{}". */
static void meta_config(const struct json_doc *d, int obj, struct env_pool *p)
{
	if (!json_is_object(d, obj))
		return;
	if (json_first(d, obj) < 0) {
		pool_add(p, "config");
		pool_end(p);
		pool_add(p, "{}");
		pool_end(p);
	}
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		pool_add(p, "config.");
		pool_add_tok(p, d, k);
		pool_end(p);
		if (json_is_object(d, k + 1) || json_is_array(d, k + 1))
			pool_add(p, "{...}");
		else
			pool_add_tok(p, d, k + 1);
		pool_end(p);
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

/* dir/run.json in a new string (no formatting: one per rank of a big run). */
static char *run_json_path(const char *dir)
{
	size_t n = strlen(dir);
	char *s = xmalloc(n + sizeof("/run.json"));
	memcpy(s, dir, n);
	memcpy(s + n, "/run.json", sizeof("/run.json"));
	return s;
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
	int env = json_get(d, 0, "environment"), config = json_get(d, 0, "config");
	struct env_pool p = { .cap = 64 };   /* the strings are those two objects', mostly */
	if (env >= 0)
		p.cap += (size_t)(d->tok[env].end - d->tok[env].start);
	if (config >= 0)
		p.cap += (size_t)(d->tok[config].end - d->tok[config].start);
	p.buf = xmalloc(p.cap);
	if (json_is_object(d, env))
		meta_environment(d, env, &p);
	meta_config(d, config, &p);
	pool_finish(&p, m);
}

/* run.json "name" in dir, or NULL. */
char *steps_meta_name(const char *dir)
{
	char *path = run_json_path(dir);
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
	char *path = run_json_path(dir);
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

