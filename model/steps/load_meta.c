/* SPDX-License-Identifier: MIT */
/* load_meta.c: run.json of a pytscope rank (pytscope.md §3): name, FLOPs, peak,
 * world size, environment flattened to key=value, read with a size limit; problems
 * become diagnostics, missing fields stay flagged missing (a FLOPs or peak value that is
 * no finite positive number is warned about, and one no number marked: steps.h; a peak
 * the GPU table disagrees with for the GPU beside it is kept and said; a world_size that
 * is no rank count, "4", -4 or 4.5, is warned about and left unset, which
 * steps_meta_world_unused says for the headline; a key of ours given twice: the last is
 * used, as pytscope's Python json reads it, with a warning); the run's display name from
 * the lowest rank's. A UTF-8 byte-order mark at the start is skipped with a note, and
 * left unread under --compat pytscope (pytscope cannot decode it), saying why; why a
 * rank's run.json was found but not read, for the headline (steps_meta_unread). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/gpu_peaks.h"
#include "model/infile.h"
#include "model/json.h"
#include "model/run.h"
#include "model/steps/internal.h"
#include "model/text.h"
#include "model/xalloc.h"

#define META_MAX ((size_t)16 << 20)

/* run.json (at most META_MAX bytes), read once per open with the probes (dirlist_read). */
static char *read_small(const char *path, size_t *len, int *err, struct dirlist_stamp *st)
{
	char *buf = dirlist_read_stamp(path, META_MAX, len, st);
	*err = buf ? 0 : errno;
	if (buf && *len >= META_MAX) {
		free(buf);
		*err = EFBIG;
		return NULL;
	}
	return buf;
}

/* The environment and config strings of one run.json, built in the stack buffers
 * below (the heap only for a large run.json), then handed over as one block with the
 * key/value arrays and the name (steps_meta.env_text): one allocation per rank, not
 * two per key and three arrays. */
#define POOL_STACK 4096
#define POOL_STACK_OFF 256
struct env_pool {
	bool plain;              /* the strict tokenizer's tokens: a string's text is its bytes */
	char *buf;
	size_t len, cap, start;  /* start: of the string being built */
	size_t *off;             /* key, value, key, value, ... */
	size_t noff, offcap;
	char stack[POOL_STACK];
	size_t stack_off[POOL_STACK_OFF];
};

static void pool_init(struct env_pool *p, bool plain)
{
	p->plain = plain;
	p->buf = p->stack;
	p->cap = sizeof(p->stack);
	p->off = p->stack_off;
	p->offcap = POOL_STACK_OFF;
	p->len = p->start = p->noff = 0;
}

static void pool_room(struct env_pool *p, size_t n)
{
	if (p->len + n <= p->cap)
		return;
	p->cap = (p->len + n) * 2;
	if (p->buf == p->stack) {
		p->buf = xmalloc(p->cap);
		memcpy(p->buf, p->stack, p->len);
	} else {
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

/* Token i's text (unescaped; an escaped NUL, \u0000, as "^@", the caret notation trace
 * names take: the string kept whole), not yet terminated. */
static void pool_add_tok(struct env_pool *p, const struct json_doc *d, int i)
{
	size_t n = (size_t)(d->tok[i].end - d->tok[i].start), nul = 0;
	pool_room(p, n + 1);
	if (p->plain) {
		memcpy(p->buf + p->len, d->js + d->tok[i].start, n);
		p->len += n;
		return;
	}
	n = json_strput(d, i, p->buf + p->len);
	char *s = p->buf + p->len;
	for (size_t k = 0; k < n; k++) /* each NUL was 6 bytes of the token: "^@" fits */
		nul += s[k] == '\0';
	for (size_t k = n, w = n + nul; w > k;) { /* from the end, until no NUL is left before */
		k--;
		s[--w] = s[k] ? s[k] : '@';
		if (!s[k])
			s[--w] = '^';
	}
	p->len += n + nul;
}

/* Terminate the string being built and note where it starts. */
static void pool_end(struct env_pool *p)
{
	pool_room(p, 1);
	p->buf[p->len++] = '\0';
	if (p->noff == p->offcap) {
		p->offcap *= 2;
		if (p->off == p->stack_off) {
			p->off = xmalloc(p->offcap * sizeof(*p->off));
			memcpy(p->off, p->stack_off, sizeof(p->stack_off));
		} else {
			p->off = xrealloc(p->off, p->offcap * sizeof(*p->off));
		}
	}
	p->off[p->noff++] = p->start;
	p->start = p->len;
}

/* The block m->env_text: env_key[nenv], env_val[nenv], the strings, the name (token
 * name, -1: none). Nothing when there is neither. */
static void pool_finish(struct env_pool *p, const struct json_doc *d, int name, struct steps_meta *m)
{
	size_t n = p->noff / 2, arrays = 2 * n * sizeof(char *);
	size_t name_len = name >= 0 ? (size_t)(d->tok[name].end - d->tok[name].start) + 1 : 0;
	if (n || name >= 0) {
		char *block = xmalloc(arrays + p->len + name_len);
		m->env_text = block;
		m->nenv = n;
		m->env_key = (char **)(void *)block;
		m->env_val = m->env_key + n;
		m->env_bytes = p->plain && n ? p->len : 0; /* plain: no escape, so no NUL inside */
		char *text = block + arrays;
		memcpy(text, p->buf, p->len);
		for (size_t i = 0; i < n; i++) {
			m->env_key[i] = text + p->off[2 * i];
			m->env_val[i] = text + p->off[2 * i + 1];
		}
		if (name >= 0) {
			m->name = text + p->len;
			json_strput(d, name, m->name);
		}
	}
	if (p->buf != p->stack)
		free(p->buf);
	if (p->off != p->stack_off)
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

/* ---- the strict tokenizer ------------------------------------------------------------
 * run.json is tokenized in one pass into the tokens jsmn gives (type, span, size,
 * parent: json.h), for what is plainly valid JSON: objects, arrays, strings without an
 * escape or a control byte, primitives of letters, digits and + - . (numbers, true,
 * false, null, NaN, Infinity) followed by a delimiter, at most META_DEPTH deep and
 * JSON_INLINE_TOKENS tokens (no allocation), nothing after the top-level object but
 * whitespace. Anything else is left to jsmn (json_parse), whose tokens and errors the
 * diagnostics are made of: what this accepts, jsmn reads into the same tokens, and
 * without escapes a string's text is its bytes. */
#define META_DEPTH 32

struct meta_tok {
	struct json_doc *d;
	const char *js;
	size_t pos, len;
	int depth;
};

static void mt_space(struct meta_tok *t)
{
	while (t->pos < t->len && (t->js[t->pos] == ' ' || t->js[t->pos] == '\t' || t->js[t->pos] == '\n' ||
				   t->js[t->pos] == '\r'))
		t->pos++;
}

/* A token of type from start (its end set by the caller), child of parent as jsmn
 * counts children: an object's keys, a key's value, an array's elements. */
static int mt_add(struct meta_tok *t, jsmntype_t type, size_t start, int parent)
{
	struct json_doc *d = t->d;
	if (d->ntok >= JSON_INLINE_TOKENS)
		return -1;
	d->tok[d->ntok] = (jsmntok_t){ .type = type, .start = (int)start, .end = -1, .size = 0, .parent = parent };
	if (parent >= 0)
		d->tok[parent].size++;
	return d->ntok++;
}

/* The bytes among the 8 at s that end a plain string (a quote, a backslash, a control
 * byte): the lowest set bit of the result is the first of them (bits above it may be
 * spurious); 0: none. */
static uint64_t mt_stops8(const char *s)
{
	const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
	uint64_t w, q, b;
	memcpy(&w, s, sizeof(w));
	q = w ^ (ones * '"');
	b = w ^ (ones * '\\');
	return (((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w)) & high;
}

/* The first byte at or after p that ends a plain string, or t->len. */
static size_t mt_string_end(const struct meta_tok *t, size_t p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; p + 8 <= t->len; p += 8) { /* a word at a time: the lowest flagged byte is the first */
		uint64_t m = mt_stops8(t->js + p);
		if (m)
			return p + (size_t)__builtin_ctzll(m) / 8;
	}
#endif
	while (p < t->len && t->js[p] != '"' && t->js[p] != '\\' && (unsigned char)t->js[p] >= 0x20)
		p++;
	return p;
}

static bool mt_string(struct meta_tok *t, int parent)
{
	size_t start = t->pos + 1;
	t->pos = mt_string_end(t, start);
	int k = t->pos < t->len && t->js[t->pos] == '"' ? mt_add(t, JSMN_STRING, start, parent) : -1;
	if (k < 0)
		return false;
	t->d->tok[k].end = (int)t->pos++;
	return true;
}

static bool mt_primitive_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
	       c == '.';
}

static bool mt_value(struct meta_tok *t, int parent);

/* An object or array at t->pos; its members, then its closing bracket. */
static bool mt_container(struct meta_tok *t, int parent)
{
	bool obj = t->js[t->pos] == '{';
	char close = obj ? '}' : ']';
	int k = mt_add(t, obj ? JSMN_OBJECT : JSMN_ARRAY, t->pos, parent);
	if (k < 0 || ++t->depth > META_DEPTH)
		return false;
	t->pos++;
	mt_space(t);
	while (t->pos < t->len && t->js[t->pos] != close) {
		int up = k;
		if (obj) {
			if (t->js[t->pos] != '"' || !mt_string(t, k))
				return false;
			up = t->d->ntok - 1;
			mt_space(t);
			if (t->pos >= t->len || t->js[t->pos] != ':')
				return false;
			t->pos++;
			mt_space(t);
		}
		if (!mt_value(t, up))
			return false;
		mt_space(t);
		if (t->pos < t->len && t->js[t->pos] == ',') {
			t->pos++;
			mt_space(t);
			if (t->pos < t->len && t->js[t->pos] == close)
				return false; /* a trailing comma */
		} else if (t->pos < t->len && t->js[t->pos] != close) {
			return false;
		}
	}
	if (t->pos >= t->len)
		return false;
	t->d->tok[k].end = (int)++t->pos;
	t->depth--;
	return true;
}

static bool mt_value(struct meta_tok *t, int parent)
{
	if (t->pos >= t->len)
		return false;
	char c = t->js[t->pos];
	if (c == '"')
		return mt_string(t, parent);
	if (c == '{' || c == '[')
		return mt_container(t, parent);
	size_t start = t->pos;
	while (t->pos < t->len && mt_primitive_char(t->js[t->pos]))
		t->pos++;
	int k = t->pos > start ? mt_add(t, JSMN_PRIMITIVE, start, parent) : -1;
	if (k < 0)
		return false;
	t->d->tok[k].end = (int)t->pos;
	return true;
}

bool steps_meta_tokenize(struct json_doc *d, const char *js, size_t len)
{
	json_doc_free(d);
	d->js = js;
	d->len = len;
	struct meta_tok t = { d, js, 0, len, 0 };
	mt_space(&t);
	bool ok = len <= JSON_MAX_LEN && t.pos < len && js[t.pos] == '{' && mt_container(&t, -1);
	if (ok)
		mt_space(&t);
	if (!ok || t.pos != len) {
		d->ntok = 0;
		return false;
	}
	return true;
}

/* run.json's tokens: the strict tokenizer's (*plain), else jsmn's (json_parse's return). */
static int meta_tokens(struct json_doc *d, const char *js, size_t len, bool *plain)
{
	*plain = steps_meta_tokenize(d, js, len);
	return *plain ? d->ntok : json_parse(d, js, len);
}

/* dir/run.json in buf (room for n bytes), else in a new string: free it when it is not buf. */
static char *run_json_path(const char *dir, char *buf, size_t n)
{
	size_t len = strlen(dir);
	char *s = len + sizeof("/run.json") <= n ? buf : xmalloc(len + sizeof("/run.json"));
	memcpy(s, dir, len);
	memcpy(s + len, "/run.json", sizeof("/run.json"));
	return s;
}

#define META_PATH 512

/* The top-level members run.json has for us, in one walk: each the value of the last
 * member of that name, as Python's json (pytscope's reader) and json_get keep it. */
enum { META_NAME, META_FLOPS, META_PEAK, META_WALL, META_WORLD, META_NSTEPS, META_RANK, META_ENV, META_CONFIG,
       META_STARTED, META_NKEYS };
static const struct {
	const char *s;
	size_t n;
} meta_key[META_NKEYS] = { { "name", 4 },       { "flops_per_step", 14 }, { "peak_flops", 10 },
			   { "wall_time", 9 },  { "world_size", 10 },     { "n_steps", 7 },
			   { "rank", 4 },       { "environment", 11 },    { "config", 6 },
			   { "started", 7 } };

/* Member values into v; dup (may be NULL): the key tokens of the first of those keys
 * given twice, the earlier and the later (dup[0] -1: none). */
static void meta_members(const struct json_doc *d, int v[META_NKEYS], int dup[2])
{
	int key[META_NKEYS];
	for (int f = 0; f < META_NKEYS; f++)
		v[f] = key[f] = -1;
	if (dup)
		dup[0] = dup[1] = -1;
	for (int k = json_first(d, 0); k >= 0; k = json_next(d, 0, k)) {
		const jsmntok_t *t = &d->tok[k];
		size_t n = (size_t)(t->end - t->start);
		for (int f = 0; f < META_NKEYS; f++)
			if (meta_key[f].n == n && memcmp(d->js + t->start, meta_key[f].s, n) == 0) {
				if (dup && key[f] >= 0 && dup[0] < 0) {
					dup[0] = key[f];
					dup[1] = k;
				}
				key[f] = k;
				v[f] = k + 1 < d->ntok ? k + 1 : -1;
				break;
			}
	}
}

static bool meta_long(const struct json_doc *d, int i, long *out)
{
	long long v;
	if (!json_int(d, i, &v))
		return false;
	*out = (long)v;
	return true;
}

/* Member value i is there and neither null nor a number (a string, a boolean, ...). */
static bool meta_not_number(const struct json_doc *d, int i)
{
	double v;
	return i >= 0 && !json_is_null(d, i) && !json_number(d, i, &v);
}

static void meta_parse(const struct json_doc *d, bool plain, struct steps_meta *m)
{
	int v[META_NKEYS];
	meta_members(d, v, NULL);
	m->present = true;
	m->has_flops = json_number(d, v[META_FLOPS], &m->flops_per_step);
	m->has_peak = json_number(d, v[META_PEAK], &m->peak_flops);
	if (!m->has_flops) /* steps.h: NaN marks a value that is no number */
		m->flops_per_step = meta_not_number(d, v[META_FLOPS]) ? NAN : 0;
	if (!m->has_peak)
		m->peak_flops = meta_not_number(d, v[META_PEAK]) ? NAN : 0;
	m->has_wall = json_number(d, v[META_WALL], &m->wall_time);
	m->has_started = json_number(d, v[META_STARTED], &m->started) && isfinite(m->started);
	m->has_world = meta_long(d, v[META_WORLD], &m->world_size) && m->world_size > 0; /* else warned */
	m->has_nsteps = meta_long(d, v[META_NSTEPS], &m->n_steps);
	m->has_rank = meta_long(d, v[META_RANK], &m->rank);
	struct env_pool p;
	pool_init(&p, plain);
	if (json_is_object(d, v[META_ENV]))
		meta_environment(d, v[META_ENV], &p);
	meta_config(d, v[META_CONFIG], &p);
	pool_finish(&p, d, json_is_string(d, v[META_NAME]) ? v[META_NAME] : -1, m);
}

/* run.json "name" in dir, or NULL. */
char *steps_meta_name(const char *dir)
{
	char room[META_PATH], *path = run_json_path(dir, room, sizeof(room));
	size_t len = 0;
	int err = 0;
	char *buf = read_small(path, &len, &err, NULL);
	if (path != room)
		free(path);
	if (!buf)
		return NULL;
	char *name = NULL;
	struct json_doc d;
	json_doc_init(&d);
	bool plain;
	size_t skip = text_utf8_bom(buf, len) ? 3 : 0; /* as the native load reads it */
	if (meta_tokens(&d, buf + skip, len - skip, &plain) > 0 && json_is_object(&d, 0)) {
		struct steps_meta m = { 0 };
		meta_parse(&d, plain, &m);
		name = m.name ? xstrdup(m.name) : NULL;
		steps_meta_free(&m);
	}
	json_doc_free(&d);
	free(buf);
	return name;
}

/* The opening words of the warning on a run.json that does not parse (META_NOT_OBJECT
 * "(why)") or that pytscope cannot read (META_BOM_COMPAT), which steps_meta_unread()
 * reads back: the index keeps diagnostics, not why a rank has no metadata. */
#define META_NOT_OBJECT "run.json is not a JSON object ("
/* The words around a world_size that is no rank count ("world_size "4" is not a number:
 * not used for the rank coverage"), which steps_meta_world_unused() reads back. */
#define META_WORLD_UNUSED "world_size "
#define META_WORLD_UNUSED_END ": not used for the rank coverage"
#define META_BOM_COMPAT "run.json " STEPS_BOM_COMPAT

/* What keeps a FLOPs or peak value (v, a JSON number when has) from MFU, NULL when it is a
 * finite positive number. */
static const char *meta_flops_flaw(bool has, double v)
{
	if (!has)
		return "is not a number";
	if (!isfinite(v))
		return "is not a finite number";
	return v > 0 ? NULL : "is not a positive number";
}

/* Member value i as the file writes it (a string in its quotes), sanitized and clipped. */
static void meta_value_text(const struct json_doc *d, int i, char *text, size_t n)
{
	char safe[128], clip[64];
	const jsmntok_t *t = &d->tok[i];
	size_t len = (size_t)(t->end - t->start);
	text_sanitize(d->js + t->start, len < 96 ? len : 96, safe, sizeof(safe), 0);
	text_clip(safe, 24, clip, sizeof(clip), true, 0);
	const char *quote = json_is_string(d, i) ? "\"" : "";
	snprintf(text, n, "%s%s%s", quote, clip, quote);
}

/* A flops_per_step or peak_flops (key, member value i, v as read) that MFU cannot use,
 * said with its value (as in the file when it is no finite number, sanitized); takes:
 * pytscope's rule takes it (any number but 0 of FLOPs, any above 0 of a peak), so
 * --compat pytscope does. */
static void meta_warn_number(struct run *run, const char *path, int rank, const struct json_doc *d, int i,
			     const char *key, bool has, double v, bool takes)
{
	const char *flaw = meta_flops_flaw(has, v);
	if (i < 0 || json_is_null(d, i) || !flaw)
		return;
	char text[80];
	if (has && isfinite(v))
		snprintf(text, sizeof(text), "%g", v);
	else
		meta_value_text(d, i, text, sizeof(text));
	diag_add(&run->diags, DIAG_WARN, path, -1, -1, rank, "%s %s %s: not used for MFU%s", key, text, flaw,
		 takes ? " (--compat pytscope takes it, as pytscope does)" : "");
}

/* A world_size that is there but no rank count (m read from member value i): "is not a
 * number", "is not an integer", "is not positive", "is too large"; NULL when it is one
 * (has_world) or is absent or null. */
static const char *meta_world_flaw(const struct json_doc *d, int i, const struct steps_meta *m)
{
	double x;
	if (m->has_world || i < 0 || json_is_null(d, i))
		return NULL;
	if (!json_number(d, i, &x))
		return "is not a number";
	if (!isfinite(x) || x != floor(x))
		return "is not an integer";
	return x > 0 ? "is too large" : "is not positive";
}

/* A run.json peak more than this share away from the GPU table's for its GPU is another. */
#define META_PEAK_TOLERANCE 0.01

/* A usable peak_flops that is not the GPU table's peak for the environment.gpu beside it
 * (model/gpu_peaks.h; pytscope's own table has 121e12 for an L40S, spec section 9) is kept,
 * and said with both values and the entry. */
static void meta_check_peak_table(struct run *run, const char *path, int rank, const struct steps_meta *m)
{
	const char *gpu = NULL;
	for (size_t k = 0; k < m->nenv && !gpu; k++)
		if (strcmp(m->env_key[k], "gpu") == 0)
			gpu = m->env_val[k];
	bool usable = m->has_peak && isfinite(m->peak_flops) && m->peak_flops > 0;
	const struct gpu_peak *g = usable ? gpu_peak_lookup(gpu) : NULL;
	if (!g || fabs(m->peak_flops - g->flops) <= META_PEAK_TOLERANCE * g->flops)
		return;
	char safe[160], name[96];
	text_sanitize(gpu, strlen(gpu), safe, sizeof(safe), 0);
	text_clip(safe, 40, name, sizeof(name), true, 0);
	diag_add(&run->diags, DIAG_WARN, path, -1, -1, rank,
		 "peak_flops %g TFLOP/s is not the GPU table's %g TFLOP/s for environment.gpu '%s' (entry %s): "
		 "MFU uses run.json's (--peak-tflops overrides)", m->peak_flops / 1e12, g->flops / 1e12, name, g->name);
}

/* flops_per_step and peak_flops of m (read from d) that MFU cannot use, a peak the GPU
 * table disagrees with, a world_size that is no rank count (META_WORLD_UNUSED): a warning
 * each; and one on the first key of ours given twice (at its later key, the file's offset:
 * skip the bytes of a byte-order mark taken off its start). */
static void meta_check(struct run *run, const char *path, int rank, const struct json_doc *d, size_t skip,
		       const struct steps_meta *m)
{
	int v[META_NKEYS], dup[2];
	meta_members(d, v, dup);
	if (dup[0] >= 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[dup[1]].start + (long long)skip, rank,
			 "key \"%.*s\" given twice (first at byte %lld): the last is used, as pytscope's JSON reader "
			 "keeps the last", d->tok[dup[1]].end - d->tok[dup[1]].start, d->js + d->tok[dup[1]].start,
			 d->tok[dup[0]].start + (long long)skip);
	const char *world = meta_world_flaw(d, v[META_WORLD], m);
	if (world) {
		char text[80];
		meta_value_text(d, v[META_WORLD], text, sizeof(text));
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, rank, META_WORLD_UNUSED "%s %s%s", text, world,
			 META_WORLD_UNUSED_END);
	}
	meta_warn_number(run, path, rank, d, v[META_FLOPS], "flops_per_step", m->has_flops, m->flops_per_step,
			 m->has_flops && m->flops_per_step != 0);
	meta_warn_number(run, path, rank, d, v[META_PEAK], "peak_flops", m->has_peak, m->peak_flops,
			 m->has_peak && m->peak_flops > 0);
	meta_check_peak_table(run, path, rank, m);
}

/* The run.json text in buf (len bytes, NUL-terminated) into m, or a warning on why not;
 * skip: the bytes of a byte-order mark taken off its start (the warning's offset is the file's). */
static void meta_read(struct run *run, const char *path, int rank, char *buf, size_t len, size_t skip,
		      struct steps_meta *m)
{
	size_t si = run_add_source(run, path, "pytscope", rank, (long long)(len + skip));
	struct json_doc d;
	json_doc_init(&d);
	bool plain;
	int rc = meta_tokens(&d, buf, len, &plain);
	if (rc > 0 && json_is_object(&d, 0)) {
		meta_parse(&d, plain, m);
		meta_check(run, path, rank, &d, skip, m);
		m->json = buf; /* NUL-terminated: kept, not copied */
		m->json_len = len;
		run_source_done(run, si, 1, 0, 0, false);
	} else {
		long long at = json_error_offset(&d, rc, len);
		diag_add(&run->diags, DIAG_WARN, path, -1, at < 0 ? at : at + (long long)skip, rank,
			 META_NOT_OBJECT "%s): no run metadata",
			 len == 0 ? "empty file" : rc > 0 ? "wrong type" : json_err_str(rc));
		run_source_done(run, si, 0, 1, 0, false);
		free(buf);
	}
	json_doc_free(&d);
}

/* run.json of the rank in dir into m; true when it starts with a UTF-8 byte-order mark
 * (natively skipped with a note; pytscope cannot read such a file: left unread under
 * --compat pytscope, saying why). */
static bool load_meta(struct run *run, const char *dir, int rank, struct steps_meta *m)
{
	char room[META_PATH], *path = run_json_path(dir, room, sizeof(room));
	size_t len = 0;
	int err = 0;
	struct dirlist_stamp st;
	char *buf = read_small(path, &len, &err, &st);
	if (buf || err == EFBIG || err == ENOENT) { /* opened (a stamp), or absent */
		m->stamped = true;
		m->stamp_size = err == ENOENT ? -1 : st.size;
		m->stamp_mtime_ns = err == ENOENT ? 0 : st.mtime_ns;
	}
	bool bom = buf && text_utf8_bom(buf, len);
	if (!buf) {
		if (err != ENOENT) {
			size_t si = run_add_source(run, path, "pytscope", rank, -1);
			run_source_done(run, si, 0, 0, err, false);
		}
		diag_add(&run->diags, err == ENOENT ? DIAG_INFO : DIAG_WARN, path, -1, -1, rank,
			 "run.json %s: no run metadata", err == ENOENT ? "missing" : infile_strerror(err));
	} else if (bom && run->opts && run->opts->compat_pytscope) {
		size_t si = run_add_source(run, path, "pytscope", rank, (long long)len);
		diag_add(&run->diags, DIAG_WARN, path, -1, 0, rank, META_BOM_COMPAT ": no run metadata");
		run_source_done(run, si, 0, 1, 0, false);
		free(buf);
	} else {
		if (bom) {
			diag_add(&run->diags, DIAG_INFO, path, -1, -1, rank, STEPS_BOM_NOTE);
			memmove(buf, buf + 3, len - 2); /* with the NUL: the kept text (m->json) is JSON */
			len -= 3;
		}
		meta_read(run, path, rank, buf, len, bom ? 3 : 0, m);
	}
	if (path != room)
		free(path);
	return bom;
}

void steps_load_meta(struct run *run, const char *dir, int rank, struct steps_meta *m)
{
	load_meta(run, dir, rank, m);
}

/* The source row of rank's run.json when it was found and nothing was read from it, or NULL. */
static const struct source *unread_source(const struct run *run, int rank)
{
	static const char name[] = "/run.json";
	for (size_t i = 0; i < run->nsrc; i++) {
		const struct source *s = &run->src[i];
		size_t n = s->rank == rank && s->path ? strlen(s->path) : 0;
		if (n >= sizeof(name) - 1 && !s->records && !s->left_out && s->format &&
		    strcmp(s->format, "pytscope") == 0 && strcmp(s->path + n - (sizeof(name) - 1), name) == 0)
			return s;
	}
	return NULL;
}

/* The words of run.json's warning d (META_NOT_OBJECT, META_BOM_COMPAT) as the reason it
 * cannot be read. */
static void unread_why(const struct diag *d, char *buf, size_t n)
{
	if (strncmp(d->msg, META_BOM_COMPAT, strlen(META_BOM_COMPAT)) == 0) {
		snprintf(buf, n, "a UTF-8 byte-order mark at its start, which pytscope cannot decode");
		return;
	}
	if (strncmp(d->msg, META_NOT_OBJECT, strlen(META_NOT_OBJECT)) != 0) {
		snprintf(buf, n, "%s", d->msg);
		return;
	}
	const char *kind = d->msg + strlen(META_NOT_OBJECT);
	int len = (int)strcspn(kind, ")");
	if (strncmp(kind, "truncated JSON)", 15) == 0 && d->offset >= 0)
		snprintf(buf, n, "truncated at byte %lld", d->offset);
	else if (strncmp(kind, "empty file)", 11) == 0)
		snprintf(buf, n, "an empty file");
	else if (strncmp(kind, "wrong type)", 11) == 0)
		snprintf(buf, n, "not a JSON object");
	else if (d->offset >= 0)
		snprintf(buf, n, "%.*s at byte %lld", len, kind, d->offset);
	else
		snprintf(buf, n, "%.*s", len, kind);
}

const char *steps_meta_unread(struct run *run, int rank, char *buf, size_t n)
{
	pthread_mutex_lock(&run->lock); /* loader threads may still add sources */
	const struct source *s = unread_source(run, rank);
	int err = s ? s->err : 0;
	char *path = s ? xstrdup(s->path) : NULL;
	pthread_mutex_unlock(&run->lock);
	if (!path)
		return NULL;
	snprintf(buf, n, "%s", err ? infile_strerror(err) : "see its warnings in --export sources");
	pthread_mutex_lock(&run->diags.lock);
	for (size_t i = 0; i < run->diags.n && !err; i++) {
		const struct diag *d = &run->diags.v[i];
		if (d->level == DIAG_WARN && d->rank == rank && d->file && strcmp(d->file, path) == 0) {
			unread_why(d, buf, n);
			break;
		}
	}
	pthread_mutex_unlock(&run->diags.lock);
	free(path);
	return buf;
}

/* d is the warning on a world_size that is no rank count: its value and flaw ("\"4\" is
 * not a number", d->msg's middle) at *what, *len bytes. */
static bool world_unused_warning(const struct diag *d, const char **what, int *len)
{
	size_t k = strlen(META_WORLD_UNUSED), e = strlen(META_WORLD_UNUSED_END), n = strlen(d->msg);
	if (d->level != DIAG_WARN || n <= k + e || strncmp(d->msg, META_WORLD_UNUSED, k) != 0 ||
	    strcmp(d->msg + n - e, META_WORLD_UNUSED_END) != 0)
		return false;
	*what = d->msg + k;
	*len = (int)(n - k - e);
	return true;
}

bool steps_meta_world_unused(struct run *run, bool several, char *buf, size_t n)
{
	bool found = false;
	pthread_mutex_lock(&run->diags.lock);
	for (size_t i = 0; i < run->diags.n && !found; i++) {
		const struct diag *d = &run->diags.v[i];
		const char *what;
		int len;
		if ((found = world_unused_warning(d, &what, &len))) {
			if (several)
				snprintf(buf, n, "in rank %d's run.json, %.*s", d->rank, len, what);
			else
				snprintf(buf, n, "in run.json, %.*s", len, what);
		}
	}
	pthread_mutex_unlock(&run->diags.lock);
	return found;
}

bool steps_rank_load_meta(struct run *run, struct rank_steps *r, const char *dir, int rank, bool keep_json)
{
	struct steps_meta meta = { 0 };
	bool bom = load_meta(run, dir, rank, &meta);
	if (!keep_json) {
		free(meta.json);
		meta.json = NULL;
		meta.json_len = 0;
	}
	rank_set_meta(r, &meta);
	return bom;
}

bool steps_meta_finished(const struct steps_meta *meta)
{
	return meta->has_nsteps && meta->n_steps > 0;
}

static const char LOG_MISSING[] = "no step record, though run.json records n_steps";

void steps_log_missing(struct run *run, const struct steps_meta *meta, int rank, const char *path)
{
	if (steps_meta_finished(meta))
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, rank, "%s %ld (written when the run finished): the "
			 "step log is missing, empty or holds no valid record", LOG_MISSING, meta->n_steps);
}

bool steps_is_log_missing(const struct diag *d)
{
	return d->level == DIAG_WARN && strncmp(d->msg, LOG_MISSING, sizeof(LOG_MISSING) - 1) == 0;
}

void steps_rank_log_missing(struct run *run, const struct rank_steps *r, const char *dir)
{
	char *path = dirlist_path(dir, "steps.jsonl");
	steps_log_missing(run, &r->meta, r->rank, path);
	free(path);
}

void steps_name_run(struct run *run, const struct steps_model *m)
{
	long best = -1;
	const char *name = NULL;
	for (size_t i = 0; i < steps_nranks(m); i++) {
		const struct steps_meta *meta = steps_rank_meta(m, i);
		long id = steps_rank_id(m, i);
		if (meta->name && (best < 0 || id < best)) {
			best = id;
			name = meta->name;
		}
	}
	if (name)
		run_set_name(run, name);
}
