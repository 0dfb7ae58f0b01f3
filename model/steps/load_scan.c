/* SPDX-License-Identifier: MIT */
/* load_scan.c: the strict single-pass scanner for the common steps.jsonl line (see
 * scan.h). Every unexpected byte returns false: the jsmn path then decides. A member
 * key is matched against the previous line's a vector at a time where the CPU allows
 * (key_matches). */
#include <string.h>
#include "model/json.h"
#include "model/json_number.h"
#include "model/steps/scan.h"
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SCAN_X86 1
#endif

/* Byte classes of a primitive (number) span, as jsmn's non-strict primitive scan sees
 * them: SPAN_END ends the span, SPAN_BAD is a byte jsmn rejects (or NUL, where jsmn
 * stops reading). */
enum { SPAN_OK, SPAN_END, SPAN_BAD };

static unsigned char span_class(unsigned char c)
{
	switch (c) {
	case ':': case '\t': case '\r': case '\n': case ' ': case ',': case ']': case '}':
		return SPAN_END;
	}
	return c < 32 || c >= 127 ? SPAN_BAD : SPAN_OK;
}

static bool span_ends_at(const char *p, const char *end)
{
	return p == end || span_class((unsigned char)*p) == SPAN_END;
}

struct cursor {
	const char *p, *end;
	const char *lim;      /* bytes up to here may be read (>= end) */
	enum scan_isa isa;
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n'))
		c->p++;
}

static bool expect(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->p >= c->end || *c->p != ch)
		return false;
	c->p++;
	return true;
}

/* A primitive value span; false when empty or holding a byte jsmn rejects. */
static bool number_span(struct cursor *c, const char **s, size_t *n)
{
	skip_ws(c);
	const char *start = c->p;
	for (;;) {
		if (c->p >= c->end)
			break;
		unsigned char k = span_class((unsigned char)*c->p);
		if (k == SPAN_END)
			break;
		if (k == SPAN_BAD)
			return false;
		c->p++;
	}
	*s = start;
	*n = (size_t)(c->p - start);
	/* a quote, brace or bracket starts a string / container: not ours */
	return *n > 0 && *start != '"' && *start != '{' && *start != '[';
}

/* A number value, parsed in place (the same bytes and parser as the jsmn path's span):
 * the byte after it must end a jsmn primitive. */
static bool scan_number(struct cursor *c, double *out, bool exact)
{
	skip_ws(c);
	size_t used = 0;
	if (!json_number_parse(c->p, (size_t)(c->end - c->p), out, exact, &used))
		return false;
	c->p += used;
	return span_ends_at(c->p, c->end);
}

/* A key after its opening quote: no escape, no control byte. */
static bool key_span(struct cursor *c, const char **s, size_t *n)
{
	const char *start = c->p;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\' || (unsigned char)*c->p < 32)
			return false;
		c->p++;
	}
	if (c->p >= c->end)
		return false;
	*s = start;
	*n = (size_t)(c->p - start);
	c->p++; /* closing quote */
	return expect(c, ':');
}

/* After a member: ',' (true, *more) or the closing '}' (true, !*more). */
static bool after_member(struct cursor *c, bool *more)
{
	skip_ws(c);
	if (c->p >= c->end)
		return false;
	char ch = *c->p++;
	*more = ch == ',';
	return ch == ',' || ch == '}';
}

static bool member_repeats(const struct scan_member *m, size_t n, const char *key, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].len == len && memcmp(m[i].key, key, len) == 0)
			return true;
	return false;
}

/* Does the key at c->p (after its opening quote) equal the prediction, closing quote
 * included (pred->key[len] is '"')? SSE2 compares 16 bytes at once (two vectors for
 * keys up to 31 bytes) where that many may be read; memcmp otherwise. */
static inline bool key_matches(const struct cursor *c, const struct scan_pred *pred)
{
	size_t n = pred->len + 1;
	if (pred->len >= sizeof(pred->key) || (size_t)(c->end - c->p) < n)
		return false;
#ifdef SCAN_X86
	if (c->isa == SCAN_ISA_SSE2 && n <= 32 && c->lim - c->p >= 32) {
		__m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)c->p);
		__m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)pred->key);
		__m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(c->p + 16));
		__m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)(pred->key + 16));
		uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
			      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
		uint32_t want = n == 32 ? ~(uint32_t)0 : ((uint32_t)1 << n) - 1;
		return (eq & want) == want;
	}
#endif
	return memcmp(c->p, pred->key, n) == 0;
}

/* The key of member i of a group, after its opening quote: the previous line's key at
 * the same place when it matches (*predicted: no scan, and no repeat check needed, see
 * scan_group), else a full key scan. */
static bool group_key(struct cursor *c, const struct scan_pred *pred, struct scan_member *e, bool *predicted)
{
	*predicted = key_matches(c, pred);
	if (*predicted) {
		e->key = c->p;
		e->len = pred->len;
		e->id = pred->id;
		c->p += pred->len + 1;
		return expect(c, ':');
	}
	e->id = -1;
	return key_span(c, &e->key, &e->len);
}

/* Member i's key becomes the prediction for i; the ones after it are dropped, so the
 * predictions of a group stay pairwise distinct (each was checked against the ones
 * before it). */
static void group_predict(struct scan_pred *pred, size_t i, const struct scan_member *e)
{
	pred[i].id = -1;
	pred[i].len = e->len < sizeof(pred[i].key) ? e->len : SCAN_NO_PRED;
	if (e->len < sizeof(pred[i].key)) {
		memcpy(pred[i].key, e->key, e->len);
		pred[i].key[e->len] = '"';
	}
	for (size_t j = i + 1; j < SCAN_MAX_MEMBERS && pred[j].len != SCAN_NO_PRED; j++)
		pred[j].len = SCAN_NO_PRED;
}

/* A phases / scalars / memory object of numbers. A member whose key and all keys
 * before it matched their predictions cannot repeat one of them (the predictions are
 * distinct); any other key is checked against the members before it. */
static bool scan_group(struct cursor *c, enum metric_kind kind, struct scan_line *out)
{
	if (!expect(c, '{'))
		return false;
	skip_ws(c);
	if (c->p < c->end && *c->p == '}') {
		c->p++;
		return true;
	}
	struct scan_member *m = out->m[kind];
	struct scan_pred *pred = out->pred[kind];
	bool more = true, all_predicted = true;
	while (more) {
		size_t i = out->n[kind];
		bool predicted;
		if (i == SCAN_MAX_MEMBERS || !expect(c, '"') || !group_key(c, &pred[i], &m[i], &predicted))
			return false;
		all_predicted = all_predicted && predicted;
		if (!all_predicted) {
			if (member_repeats(m, i, m[i].key, m[i].len))
				return false;
			if (!predicted)
				group_predict(pred, i, &m[i]);
		}
		out->n[kind]++;
		if (!scan_number(c, &m[i].value, kind != METRIC_SCALAR || out->exact_scalars) || !after_member(c, &more))
			return false;
	}
	return true;
}

enum top_key { TOP_STEP, TOP_TIMESTAMP, TOP_PHASES, TOP_SCALARS, TOP_MEMORY, TOP_UNKNOWN };

/* The top-level key at c->p (after its opening quote), matched as a group key is
 * against its prediction, and its ':'; TOP_UNKNOWN for any other key. */
static enum top_key top_key(struct cursor *c)
{
	static const struct scan_pred keys[] = {
		[TOP_STEP] = { "step\"", 4, -1 },       [TOP_TIMESTAMP] = { "timestamp\"", 9, -1 },
		[TOP_PHASES] = { "phases\"", 6, -1 },   [TOP_SCALARS] = { "scalars\"", 7, -1 },
		[TOP_MEMORY] = { "memory\"", 6, -1 },
	};
	if (c->p >= c->end)
		return TOP_UNKNOWN;
	for (int k = 0; k < TOP_UNKNOWN; k++)
		if (keys[k].key[0] == *c->p && key_matches(c, &keys[k])) {
			c->p += keys[k].len + 1;
			return expect(c, ':') ? (enum top_key)k : TOP_UNKNOWN;
		}
	return TOP_UNKNOWN;
}

static bool scan_member(struct cursor *c, enum top_key key, struct scan_line *out)
{
	const char *num;
	size_t nlen;
	switch (key) {
	case TOP_STEP:
		return number_span(c, &num, &nlen) && json_parse_int(num, nlen, &out->step);
	case TOP_TIMESTAMP:
		out->have_timestamp = number_span(c, &num, &nlen) &&
				      json_parse_double_approx(num, nlen, &out->timestamp);
		return out->have_timestamp;
	case TOP_PHASES:
		return scan_group(c, METRIC_PHASE, out);
	case TOP_SCALARS:
		return scan_group(c, METRIC_SCALAR, out);
	case TOP_MEMORY:
		return scan_group(c, METRIC_MEMORY, out);
	case TOP_UNKNOWN:
		break;
	}
	return false;
}

void pytscope_scan_init(struct scan_line *l)
{
	for (int g = 0; g < 3; g++)
		for (size_t i = 0; i < SCAN_MAX_MEMBERS; i++) {
			l->pred[g][i].len = SCAN_NO_PRED;
			l->pred[g][i].id = -1;
		}
	l->isa = scan_isa_best();
}

enum scan_isa scan_isa_best(void)
{
#ifdef SCAN_X86
	return SCAN_ISA_SSE2;
#else
	return SCAN_ISA_PORTABLE;
#endif
}

bool pytscope_scan_line(const char *s, size_t n, size_t avail, struct scan_line *out)
{
	struct cursor c = { s, s + n, s + (avail > n ? avail : n), out->isa };
	out->timestamp = 0;
	out->have_timestamp = false;
	out->n[0] = out->n[1] = out->n[2] = 0;
	if (!expect(&c, '{'))
		return false;
	unsigned seen = 0;
	bool more = true;
	while (more) {
		if (!expect(&c, '"'))
			return false;
		enum top_key k = top_key(&c);
		if (k == TOP_UNKNOWN || (seen & (1u << k)) || !scan_member(&c, k, out) ||
		    !after_member(&c, &more))
			return false;
		seen |= 1u << k;
	}
	skip_ws(&c);
	return c.p == c.end && (seen & (1u << TOP_STEP));
}
