/* SPDX-License-Identifier: MIT */
/* json.c: the only jsmn implementation unit, plus typed getters (see json.h). */
#define JSMN_PARENT_LINKS
#include <jsmn.h>
#include "model/json.h"
#include "model/json_number.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

void json_doc_init(struct json_doc *d)
{
	d->js = NULL;
	d->len = 0;
	d->tok = d->inline_tok;
	d->cap = JSON_INLINE_TOKENS;
	d->ntok = 0;
	d->err_off = -1;
}

void json_doc_free(struct json_doc *d)
{
	if (d->tok != d->inline_tok)
		free(d->tok);
	json_doc_init(d);
}

/* True when brackets outside strings nest deeper than JSON_MAX_DEPTH (one linear pass;
 * unbalanced text is left to jsmn to reject). */
static bool too_deep(const char *js, size_t len)
{
	int depth = 0;
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		char c = js[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > JSON_MAX_DEPTH)
				return true;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return false;
}

/* Every member of every object is a key with one value (jsmn, not strict, takes
 * `{"a"}` or `{"a" "b"}`: a key without a value would make the next token, or one past
 * the last, read as its value). */
static bool members_paired(const struct json_doc *d)
{
	for (int i = 0; i < d->ntok; i++) {
		int up = d->tok[i].parent;
		if (up >= 0 && d->tok[up].type == JSMN_OBJECT && (d->tok[i].size != 1 || i + 1 >= d->ntok))
			return false;
	}
	return true;
}

int json_parse(struct json_doc *d, const char *js, size_t len)
{
	if (len > JSON_MAX_LEN)
		return JSON_ETOOBIG;
	d->js = js;
	d->len = len;
	d->ntok = 0;
	d->err_off = -1;
	if (too_deep(js, len))
		return JSON_EDEEP;
	jsmn_parser p;
	jsmn_init(&p);
	d->js = js;
	d->len = len;
	for (;;) {
		int r = jsmn_parse(&p, js, len, d->tok, d->cap);
		if (r != JSMN_ERROR_NOMEM) {
			d->ntok = r > 0 ? r : 0;
			if (r < 0)
				d->err_off = p.pos;
			if (r == 0)
				return JSON_EPART;
			if (r > 0 && !members_paired(d)) {
				d->ntok = 0;
				return JSON_EINVAL;
			}
			return r;
		}
		/* jsmn keeps its position: grow and continue. */
		unsigned ncap = d->cap * 2;
		if (d->tok == d->inline_tok) {
			jsmntok_t *t = xmalloc(ncap * sizeof(*t));
			memcpy(t, d->inline_tok, sizeof(d->inline_tok));
			d->tok = t;
		} else {
			d->tok = xrealloc(d->tok, ncap * sizeof(*d->tok));
		}
		d->cap = ncap;
	}
}

long long json_error_offset(const struct json_doc *d, int rc, size_t len)
{
	if (len == 0)
		return -1;
	if (rc == JSON_EPART)
		return (long long)len;
	return rc > 0 ? d->tok[0].start : d->err_off;
}

const char *json_err_str(int err)
{
	switch (err) {
	case JSON_EINVAL: return "invalid JSON";
	case JSON_EPART: return "truncated JSON";
	case JSON_ETOOBIG: return "JSON text too large";
	case JSON_ENOMEM: return "out of memory";
	case JSON_EDEEP: return "JSON nested too deeply";
	}
	return "JSON error";
}

/* Tokens are in document order: a subtree ends at the first token starting at or after
 * its root's end. */
#define SKIP_LINEAR 8

/* Past the subtree whose token lo is inside it (starts before end), the rest found in
 * steps that double, then halve: O(log n) for n tokens, so a walk over an object's
 * members (json_get) skips a large array without visiting its tokens. */
static int skip_far(const struct json_doc *d, int lo, int end)
{
	int hi;
	for (int step = 1;; step *= 2) {   /* d->tok[lo] is inside */
		if (step >= d->ntok - lo) {
			hi = d->ntok;
			break;
		}
		hi = lo + step;
		if (d->tok[hi].start >= end)
			break;
		lo = hi;
	}
	while (hi - lo > 1) {   /* the first outside is in (lo, hi] */
		int mid = lo + (hi - lo) / 2;
		if (d->tok[mid].start < end)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The token after i's subtree (0 <= i < ntok): up to SKIP_LINEAR tokens one by one (a
 * leaf, a small object), past them skip_far. */
static inline int skip_tree(const struct json_doc *d, int i)
{
	int end = d->tok[i].end, j = i + 1;
	for (int n = 0; n < SKIP_LINEAR; n++, j++)
		if (j >= d->ntok || d->tok[j].start >= end)
			return j;
	return skip_far(d, j - 1, end);
}

int json_skip(const struct json_doc *d, int i)
{
	if (i < 0 || i >= d->ntok)
		return d->ntok;
	return skip_tree(d, i);
}

int json_first(const struct json_doc *d, int c)
{
	if (c < 0 || c >= d->ntok || d->tok[c].size == 0 || c + 1 >= d->ntok)
		return -1;
	return c + 1;
}

int json_next(const struct json_doc *d, int c, int cur)
{
	int j = cur;
	if (d->tok[c].type == JSMN_OBJECT)
		j = json_skip(d, j + 1); /* skip key and value */
	else
		j = json_skip(d, j);
	if (j >= d->ntok || d->tok[j].parent != c)
		return -1;
	return j;
}

bool json_eq(const struct json_doc *d, int i, const char *s)
{
	if (i < 0 || d->tok[i].type != JSMN_STRING)
		return false;
	size_t n = (size_t)(d->tok[i].end - d->tok[i].start);
	return strlen(s) == n && memcmp(d->js + d->tok[i].start, s, n) == 0;
}

int json_get(const struct json_doc *d, int obj, const char *key)
{
	if (obj < 0 || obj >= d->ntok || d->tok[obj].type != JSMN_OBJECT)
		return -1;
	/* Members from the last: from the last token of a member's value, the parent links
	 * lead up to its key (whose parent is obj), and the token before that key is the last
	 * of the member before. The first key that matches is the last member of that name,
	 * and no value's subtree is walked. */
	size_t klen = strlen(key);
	int k = skip_tree(d, obj) - 1;
	for (int m = 0; m < d->tok[obj].size && k > obj; m++, k--) {
		while (k > obj && d->tok[k].parent != obj)
			k = d->tok[k].parent;
		const jsmntok_t *t = &d->tok[k];
		if (k > obj && k + 1 < d->ntok && (size_t)(t->end - t->start) == klen && d->js[t->start] == key[0] &&
		    memcmp(d->js + t->start, key, klen) == 0)
			return k + 1;
	}
	return -1;
}

/* A key token of an object, for sorting its keys (json_dup_key). */
struct key_ref {
	const char *s;
	int len, tok;
};

/* By the key's bytes, then by place in the document. */
static int key_ref_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	int c = memcmp(x->s, y->s, (size_t)x->len);
	return c ? c : (x->tok > y->tok) - (x->tok < y->tok);
}

static bool key_ref_same(const struct key_ref *x, const struct key_ref *y)
{
	return x->len == y->len && memcmp(x->s, y->s, (size_t)x->len) == 0;
}

int json_dup_key(const struct json_doc *d, int obj, int *first)
{
	*first = -1;
	if (!json_is_object(d, obj) || d->tok[obj].size < 2)
		return -1;
	size_t n = 0, cap = (size_t)d->tok[obj].size;
	struct key_ref *v = xmalloc(cap * sizeof(*v));
	for (int k = json_first(d, obj); k >= 0 && n < cap; k = json_next(d, obj, k))
		v[n++] = (struct key_ref){ d->js + d->tok[k].start, d->tok[k].end - d->tok[k].start, k };
	qsort(v, n, sizeof(*v), key_ref_cmp);
	int later = -1;
	for (size_t i = 1; i < n; i++) /* v[i-1] the first of its key, v[i] the second */
		if (key_ref_same(&v[i - 1], &v[i]) && (i < 2 || !key_ref_same(&v[i - 2], &v[i - 1])) &&
		    (later < 0 || v[i].tok < later)) {
			later = v[i].tok;
			*first = v[i - 1].tok;
		}
	free(v);
	return later;
}

bool json_is_object(const struct json_doc *d, int i)
{
	return i >= 0 && i < d->ntok && d->tok[i].type == JSMN_OBJECT;
}

bool json_is_array(const struct json_doc *d, int i)
{
	return i >= 0 && i < d->ntok && d->tok[i].type == JSMN_ARRAY;
}

bool json_is_string(const struct json_doc *d, int i)
{
	return i >= 0 && i < d->ntok && d->tok[i].type == JSMN_STRING;
}

bool json_is_null(const struct json_doc *d, int i)
{
	return i >= 0 && i < d->ntok && d->tok[i].type == JSMN_PRIMITIVE &&
	       d->tok[i].end - d->tok[i].start == 4 && memcmp(d->js + d->tok[i].start, "null", 4) == 0;
}

bool json_parse_double(const char *s, size_t n, double *out)
{
	return json_number_parse(s, n, out, true, NULL);
}

bool json_parse_double_approx(const char *s, size_t n, double *out)
{
	return json_number_parse(s, n, out, false, NULL);
}

bool json_number_str(const struct json_doc *d, int i, double *out, bool allow_str)
{
	if (i < 0 || i >= d->ntok)
		return false;
	const jsmntok_t *t = &d->tok[i];
	if (t->type == JSMN_PRIMITIVE || (allow_str && t->type == JSMN_STRING))
		return json_parse_double(d->js + t->start, (size_t)(t->end - t->start), out);
	return false;
}

bool json_number(const struct json_doc *d, int i, double *out)
{
	return json_number_str(d, i, out, false);
}

/* Exact decimal integer "-?[0-9]+" in s[0..n): 0 ok, 1 not that syntax, -1 overflow. */
static int parse_int_exact(const char *s, size_t n, long long *out)
{
	size_t i = n && s[0] == '-';
	if (i == n)
		return 1;
	unsigned long long mag = 0;
	const unsigned long long lim = (unsigned long long)LLONG_MAX + (i ? 1u : 0u);
	for (size_t k = i; k < n; k++) {
		if (s[k] < '0' || s[k] > '9')
			return 1;
		unsigned dig = (unsigned)(s[k] - '0');
		if (mag > (lim - dig) / 10)
			return -1;
		mag = mag * 10 + dig;
	}
	*out = i ? (mag == (unsigned long long)LLONG_MAX + 1u ? LLONG_MIN : -(long long)mag)
		 : (long long)mag;
	return 0;
}

bool json_int(const struct json_doc *d, int i, long long *out)
{
	if (i < 0 || i >= d->ntok || d->tok[i].type != JSMN_PRIMITIVE)
		return false;
	return json_parse_int(d->js + d->tok[i].start, (size_t)(d->tok[i].end - d->tok[i].start), out);
}

bool json_parse_int(const char *s, size_t n, long long *out)
{
	int rc = parse_int_exact(s, n, out);
	if (rc <= 0)
		return rc == 0;
	/* 5.0, 1e3: integral values written as floats, only where a double is exact. */
	double v;
	if (!json_parse_double(s, n, &v) || !isfinite(v) || v != floor(v) || fabs(v) >= 0x1p53)
		return false;
	*out = (long long)v;
	return true;
}

bool json_bool(const struct json_doc *d, int i, bool *out)
{
	if (i < 0 || i >= d->ntok || d->tok[i].type != JSMN_PRIMITIVE)
		return false;
	const char *s = d->js + d->tok[i].start;
	size_t n = (size_t)(d->tok[i].end - d->tok[i].start);
	if (json_span_is(s, n, "true"))
		*out = true;
	else if (json_span_is(s, n, "false"))
		*out = false;
	else
		return false;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static bool hex4(const char *s, size_t n, uint32_t *v)
{
	if (n < 4)
		return false;
	*v = 0;
	for (int k = 0; k < 4; k++) {
		int h = hexval(s[k]);
		if (h < 0)
			return false;
		*v = (*v << 4) | (uint32_t)h;
	}
	return true;
}

static size_t put_utf8(uint32_t cp, char *o)
{
	if (cp < 0x80) { o[0] = (char)cp; return 1; }
	if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F)); return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Unescape s[0..n) into o (capacity >= n + 1, escapes never grow). Returns length. */
static size_t unescape(const char *s, size_t n, char *o)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			o[w++] = s[i];
			continue;
		}
		char e = s[++i];
		uint32_t cp;
		switch (e) {
		case 'n': o[w++] = '\n'; break;
		case 't': o[w++] = '\t'; break;
		case 'r': o[w++] = '\r'; break;
		case 'b': o[w++] = '\b'; break;
		case 'f': o[w++] = '\f'; break;
		case 'u':
			if (!hex4(s + i + 1, n - i - 1, &cp)) {
				o[w++] = '\\';
				o[w++] = 'u';
				break;
			}
			i += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < n && s[i + 1] == '\\' &&
			    s[i + 2] == 'u') {
				uint32_t lo;
				if (hex4(s + i + 3, n - i - 3, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					i += 6;
				}
			}
			if (cp >= 0xD800 && cp <= 0xDFFF)
				cp = 0xFFFD;
			w += put_utf8(cp, o + w);
			break;
		default: o[w++] = e; break;
		}
	}
	o[w] = '\0';
	return w;
}

size_t json_strput(const struct json_doc *d, int i, char *out)
{
	const jsmntok_t *t = &d->tok[i];
	size_t n = (size_t)(t->end - t->start);
	if (t->type == JSMN_STRING)
		return unescape(d->js + t->start, n, out);
	memcpy(out, d->js + t->start, n);
	out[n] = '\0';
	return n;
}

char *json_strdup(const struct json_doc *d, int i)
{
	if (i < 0 || i >= d->ntok)
		return NULL;
	char *o = xmalloc((size_t)(d->tok[i].end - d->tok[i].start) + 1);
	json_strput(d, i, o);
	return o;
}

size_t json_strcpy(const struct json_doc *d, int i, char *out, size_t n)
{
	char *s = json_strdup(d, i);
	if (!s) {
		if (n)
			out[0] = '\0';
		return 0;
	}
	size_t len = strlen(s);
	if (n) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(out, s, c);
		out[c] = '\0';
	}
	free(s);
	return len;
}
