/* SPDX-License-Identifier: MIT */
/* load_event.c: the fields of one trace event for the loader (event.h): a strict
 * single-pass walk of its bytes, else the members of its jsmn parse; and the first
 * halves of span events (ph "B") waiting for their "E" on the same pid and tid. */
#include "model/trace/event.h"

#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

/* ---- fast path: a strict single-pass walk of one event object ---- */

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

/* p at '"': end of the string (after the closing quote), or NULL; *esc when it holds
 * any backslash (such strings go to the jsmn path, which unescapes them). */
static const char *fast_string(const char *p, const char *e, bool *esc)
{
	const char *q = p + 1;
	*esc = false;
	for (;;) {
		const char *c = memchr(q, '"', (size_t)(e - q));
		if (!c)
			return NULL;
		size_t bs = 0;
		while (c - bs - 1 > p && c[-(ptrdiff_t)bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0) {
			*esc = memchr(p + 1, '\\', (size_t)(c - p - 1)) != NULL;
			return c + 1;
		}
		q = c + 1;
	}
}

/* p at '{' or '[': end of the container, or NULL. */
static const char *fast_skip(const char *p, const char *e)
{
	char open = *p, close = open == '{' ? '}' : ']';
	long depth = 0;
	while (p < e) {
		char c = *p;
		if (c == '"') {
			bool esc;
			p = fast_string(p, e, &esc);
			if (!p)
				return NULL;
			continue;
		}
		if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

static struct val *fast_slot(struct ev *ev, const char *k, size_t n, bool args)
{
	if (args) {
		if (n == 6 && memcmp(k, "stream", 6) == 0)
			return &ev->stream;
		if (n == 11 && memcmp(k, "correlation", 11) == 0)
			return &ev->corr;
		if (n == 6 && memcmp(k, "device", 6) == 0)
			return &ev->device;
		return NULL;
	}
	switch (n) {
	case 2: return memcmp(k, "ph", 2) == 0 ? &ev->ph : memcmp(k, "ts", 2) == 0 ? &ev->ts : NULL;
	case 3: return memcmp(k, "cat", 3) == 0 ? &ev->cat : memcmp(k, "dur", 3) == 0 ? &ev->dur :
		       memcmp(k, "tid", 3) == 0 ? &ev->tid : memcmp(k, "pid", 3) == 0 ? &ev->pid : NULL;
	case 4: return memcmp(k, "name", 4) == 0 ? &ev->name : NULL;
	default: return NULL;
	}
}

/* Walk one object; false on anything unusual (the jsmn path then decides). */
static bool fast_object(const char **pp, const char *e, struct ev *ev, bool args)
{
	const char *p = skip_ws(*pp + 1, e);
	if (p < e && *p == '}') {
		*pp = p + 1;
		return true;
	}
	for (;;) {
		bool esc;
		if (p >= e || *p != '"')
			return false;
		const char *k = p + 1, *ke = fast_string(p, e, &esc);
		if (!ke || esc)
			return false;
		size_t kn = (size_t)(ke - 1 - k);
		p = skip_ws(ke, e);
		if (p >= e || *p != ':')
			return false;
		p = skip_ws(p + 1, e);
		if (p >= e)
			return false;
		struct val v = { .p = p, .tok = -1 };
		if (*p == '"') {
			const char *ve = fast_string(p, e, &esc);
			if (!ve || esc)
				return false;
			v = (struct val){ p + 1, (size_t)(ve - p - 2), 's', -1 };
			p = ve;
		} else if (*p == '{' && !args && kn == 4 && memcmp(k, "args", 4) == 0) {
			if (!fast_object(&p, e, ev, true))
				return false;
			v.type = 'o';
		} else if (*p == '{' || *p == '[') {
			const char *ve = fast_skip(p, e);
			if (!ve)
				return false;
			v.type = *p == '{' ? 'o' : 'a';
			p = ve;
		} else {
			const char *ve = p;
			while (ve < e && *ve != ',' && *ve != '}' && *ve != ']' && *ve != ' ' && *ve != '\n' &&
			       *ve != '\r' && *ve != '\t')
				ve++;
			v = (struct val){ p, (size_t)(ve - p), 'p', -1 };
			p = ve;
		}
		struct val *slot = fast_slot(ev, k, kn, args);
		if (slot && v.type != 'o')
			*slot = v;
		p = skip_ws(p, e);
		if (p < e && *p == ',') {
			p = skip_ws(p + 1, e);
			continue;
		}
		if (p < e && *p == '}') {
			*pp = p + 1;
			return true;
		}
		return false;
	}
}

bool tevent_fast(const char *js, size_t len, struct ev *ev)
{
	const char *p = js, *e = js + len;
	memset(ev, 0, sizeof(*ev));
	return p < e && *p == '{' && fast_object(&p, e, ev, false) && skip_ws(p, e) == e;
}

/* ---- slow path: the members of a jsmn parse ---- */

static bool key_is(const struct json_doc *d, int k, const char *lit, size_t n)
{
	const jsmntok_t *t = &d->tok[k];
	return (size_t)(t->end - t->start) == n && memcmp(d->js + t->start, lit, n) == 0;
}

struct val tevent_tok(const struct json_doc *d, int t)
{
	const jsmntok_t *k = &d->tok[t];
	char type = k->type == JSMN_STRING ? 's' : k->type == JSMN_PRIMITIVE ? 'p' :
		    k->type == JSMN_OBJECT ? 'o' : 'a';
	return (struct val){ d->js + k->start, (size_t)(k->end - k->start), type, t };
}

void tevent_fields(const struct json_doc *d, struct ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->doc = d;
	for (int k = json_first(d, 0); k >= 0; k = json_next(d, 0, k)) {
		if (key_is(d, k, "args", 4) && json_is_object(d, k + 1)) {
			for (int a = json_first(d, k + 1); a >= 0; a = json_next(d, k + 1, a)) {
				const jsmntok_t *t = &d->tok[a];
				struct val *slot = fast_slot(ev, d->js + t->start, (size_t)(t->end - t->start), true);
				if (slot)
					*slot = tevent_tok(d, a + 1);
			}
			continue;
		}
		const jsmntok_t *t = &d->tok[k];
		struct val *slot = fast_slot(ev, d->js + t->start, (size_t)(t->end - t->start), false);
		if (slot)
			*slot = tevent_tok(d, k + 1);
	}
}

/* ---- span events in halves ---- */

/* The key of ev's track: its pid and tid as written ('-' for one missing). */
static char *half_key(const struct ev *ev, size_t *n)
{
	char *k = xasprintf("%c%.*s\n%c%.*s", ev->pid.type ? ev->pid.type : '-', (int)ev->pid.n,
			    ev->pid.p ? ev->pid.p : "", ev->tid.type ? ev->tid.type : '-', (int)ev->tid.n,
			    ev->tid.p ? ev->tid.p : "");
	*n = strlen(k);
	return k;
}

void tevent_open_add(struct tevent_open *o, const struct ev *ev, const char *js, size_t len, uint64_t off)
{
	xgrow((void **)&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	struct tevent_half *h = &o->v[o->n++];
	h->key = half_key(ev, &h->keylen);
	h->js = js ? memcpy(xmalloc(len + 1), js, len) : NULL;
	h->len = len;
	h->off = off;
}

bool tevent_close(struct tevent_open *o, const struct ev *ev, char **js, size_t *len, uint64_t *off)
{
	size_t kn;
	char *key = half_key(ev, &kn);
	size_t i = o->n;
	while (i > 0 && !(o->v[i - 1].keylen == kn && memcmp(o->v[i - 1].key, key, kn) == 0))
		i--;
	free(key);
	if (i == 0)
		return false;
	struct tevent_half h = o->v[i - 1];
	memmove(&o->v[i - 1], &o->v[i], (o->n - i) * sizeof(*o->v));
	o->n--;
	free(h.key);
	*js = h.js;
	*len = h.len;
	*off = h.off;
	return true;
}

size_t tevent_open_free(struct tevent_open *o)
{
	size_t n = 0;
	for (size_t i = 0; i < o->n; i++) {
		n += o->v[i].js != NULL;
		free(o->v[i].key);
		free(o->v[i].js);
	}
	free(o->v);
	*o = (struct tevent_open){ 0 };
	return n;
}
