/* SPDX-License-Identifier: MIT */
/* json.h: jsmn wrapper. json.c is the only translation unit that holds the jsmn
 * implementation; everything else includes this header (JSMN_HEADER mode) and uses
 * the typed getters below. Parser mode: default + JSMN_PARENT_LINKS (never quadratic).
 * jsmn does not validate primitives, so json_number() does: a token is a number only
 * when it parses completely, or is exactly NaN / Infinity / -Infinity (Python's
 * allow_nan output).
 *
 * A struct json_doc owns a token array that grows on demand (starting from an inline
 * stack-sized buffer), so one doc can be reused for every line of a JSONL file
 * without allocating. Buffers must stay below 2 GiB (jsmn uses int offsets): stream
 * large documents one element at a time. */
#ifndef MODEL_JSON_H
#define MODEL_JSON_H

#define JSMN_PARENT_LINKS
#define JSMN_HEADER
#include <jsmn.h>
#undef JSMN_HEADER
#include "model/base.h"

#define JSON_INLINE_TOKENS 128
#define JSON_MAX_LEN ((size_t)1 << 30)

enum json_err {
	JSON_ENOMEM = -1, /* not returned: the token array grows */
	JSON_EINVAL = -2, /* invalid JSON */
	JSON_EPART = -3,  /* truncated input */
	JSON_ETOOBIG = -4, /* larger than JSON_MAX_LEN */
	JSON_EDEEP = -5   /* containers nested deeper than JSON_MAX_DEPTH */
};

/* Deeper nesting is rejected before tokenizing: closing the k-th bracket walks k parent
 * links in jsmn, so an unbounded depth would make one line cost time quadratic in its
 * length. No format we read nests deeper than a handful of levels. */
#define JSON_MAX_DEPTH 256

struct json_doc {
	const char *js;
	size_t len;
	jsmntok_t *tok; /* == inline_tok or heap */
	int ntok;
	unsigned cap;
	long long err_off; /* after json_parse failed: the byte offset where jsmn stopped, -1 when unknown */
	jsmntok_t inline_tok[JSON_INLINE_TOKENS];
};

void json_doc_init(struct json_doc *d);
void json_doc_free(struct json_doc *d);
/* Tokenize js[0..len). Returns the token count (> 0) or a negative enum json_err;
 * time is linear in len (JSON_EDEEP past JSON_MAX_DEPTH).
 * js must outlive any getter call on d. */
int json_parse(struct json_doc *d, const char *js, size_t len);
const char *json_err_str(int err);
/* Where a JSON document of len bytes that json_parse() gave rc for, and that is no
 * object or did not parse, went wrong: its length when truncated (where it ended), the
 * top-level value's start when it parsed (the value is no object), else where the parser
 * stopped (d->err_off); -1 for an empty document or when unknown. */
long long json_error_offset(const struct json_doc *d, int rc, size_t len);

/* Index of the token after the whole subtree rooted at i: O(log n) for an n-token
 * subtree (tokens are in document order). */
int json_skip(const struct json_doc *d, int i);
/* Value token of key in object token obj, or -1. Keys compare byte-exact (escaped keys
 * are compared in their escaped form). A key given twice: the last one's value, as
 * Python's json (pytscope's, the calculators') keeps it. Time: the object's members, each
 * subtree skipped in O(log n) (json_skip). */
int json_get(const struct json_doc *d, int obj, const char *key);
/* The key token of the second member of object obj whose key an earlier member has
 * (byte-exact, as json_get compares), *first that earlier key token: of the keys given
 * twice, the one given again first; -1 (and *first -1) when every key is one member's.
 * O(m log m) for m members (sorted copies of the keys, one allocation). */
int json_dup_key(const struct json_doc *d, int obj, int *first);
/* Iterate an object's members: for (k = json_first(d, obj); k >= 0; k = json_next(d, obj, k)),
 * value token = k + 1. For arrays, the same walk visits the elements. */
int json_first(const struct json_doc *d, int container);
int json_next(const struct json_doc *d, int container, int cur);
bool json_is_object(const struct json_doc *d, int i);
bool json_is_array(const struct json_doc *d, int i);
bool json_is_string(const struct json_doc *d, int i);
bool json_is_null(const struct json_doc *d, int i);
/* True when token i is a string (or key) equal to s. */
bool json_eq(const struct json_doc *d, int i, const char *s);

/* Number from a primitive token (or from a string holding a number when allow_str).
 * Accepts NaN, Infinity, -Infinity. Returns false for anything else. */
bool json_number(const struct json_doc *d, int i, double *out);
bool json_number_str(const struct json_doc *d, int i, double *out, bool allow_str);
/* Integer from a primitive token: "-?[0-9]+" is parsed exactly over the whole int64
 * range (overflow -> false); a float spelling of an integral value (5.0, 1e3) is
 * accepted only below 2^53 in magnitude, where the double is exact. */
bool json_int(const struct json_doc *d, int i, long long *out);
/* The same rule over the span s[0..n) (json_int of a primitive token). */
bool json_parse_int(const char *s, size_t n, long long *out);
bool json_bool(const struct json_doc *d, int i, bool *out);
/* Unescaped string value (strings only; primitives copied raw). Returns malloc'd
 * UTF-8 (invalid escapes kept literally); NULL when i < 0. */
char *json_strdup(const struct json_doc *d, int i);
/* The same into out (room for the token's raw length + 1: escapes never grow), NUL
 * terminated; returns the length. 0 <= i < ntok. */
size_t json_strput(const struct json_doc *d, int i, char *out);
/* Same into a caller buffer; returns the full unescaped length (may exceed n-1). */
size_t json_strcpy(const struct json_doc *d, int i, char *out, size_t n);

/* Fast decimal parse of s[0..n): Clinger fast path with strtod fallback. Returns false
 * unless the whole span is a number (or NaN/Infinity/-Infinity). */
bool json_parse_double(const char *s, size_t n, double *out);
/* The same grammar, but up to 19 significant digits are converted with at most two
 * roundings instead of strtod: a few ulp off at worst. For values that are stored with
 * less precision anyway (float32 columns); never for values that must be exact. */
bool json_parse_double_approx(const char *s, size_t n, double *out);

#endif
