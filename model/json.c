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

int json_skip(const struct json_doc *d, int i)
{
	/* Tokens are in document order: the subtree ends at the first token starting
	 * at or after this token's end. */
	if (i < 0 || i >= d->ntok)
		return d->ntok;
	int end = d->tok[i].end;
	int j = i + 1;
	while (j < d->ntok && d->tok[j].start < end)
		j++;
	return j;
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
	size_t klen = strlen(key);
	for (int k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)) {
		const jsmntok_t *t = &d->tok[k];
		if ((size_t)(t->end - t->start) == klen && d->js[t->start] == key[0] &&
		    memcmp(d->js + t->start, key, klen) == 0)
			return k + 1 < d->ntok ? k + 1 : -1;
	}
	return -1;
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
