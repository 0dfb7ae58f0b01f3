/* SPDX-License-Identifier: MIT */
/* load_scan.c: the strict single-pass scanner for the common steps.jsonl line (see
 * scan.h). Every unexpected byte returns false: the jsmn path then decides. A line
 * with the previous line's shape is read as values and gap comparisons (shape_scan),
 * a gap compared 8 (portable), 16 (SSE2) or 32 (AVX2, chosen at run time) bytes at a
 * time; any other line is scanned in full, a member key matched against the previous
 * line's a vector at a time where the CPU allows (key_matches). */
#include <pthread.h>
#include <stdlib.h>
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

/* Bytes past a line's end that the word and vector reads of a value or gap may touch:
 * when the buffer holds that many after the line (nearly every line), no read checks
 * its own bound. */
#define SCAN_ROOM 64

struct cursor {
	const char *p, *end;
	const char *lim;      /* bytes up to here may be read (>= end) */
	enum scan_isa isa;
	bool room;            /* lim - end >= SCAN_ROOM */
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

/* The common decimal at c->p read a word at a time (json_decimal_fast), where the
 * buffer holds JSON_DEC_READ bytes from there. */
struct decimal {
	uint64_t mant;
	int exp10;
	bool neg;
	size_t used;
};

static inline __attribute__((always_inline)) bool scan_decimal(const struct cursor *c, bool exact, struct decimal *d)
{
	return (c->room || c->lim - c->p >= JSON_DEC_READ) &&
	       json_decimal_fast(c->p, (size_t)(c->end - c->p), exact, &d->mant, &d->exp10, &d->neg, &d->used);
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

/* What member_number does not take itself: scan_number (out of line, so that the
 * common path keeps few registers). */
static __attribute__((noinline)) bool member_number_slow(struct cursor *c, struct scan_member *m, bool exact)
{
	m->nano = false;
	return scan_number(c, &m->value, exact);
}

/* A member's value at c->p: the common decimal through json_decimal_fast, a phase of at
 * most nine fraction digits within 0-4.294967295 s as its nanosecond code (see
 * scan_member_value), any other through json_number_finish, which gives what
 * json_number_parse gives; anything else member_number_slow. shaped: the caller
 * compares the next gap, whose first byte ended this value on the shape's line (a byte
 * that ends a jsmn primitive), so the end is not checked here. */
static inline __attribute__((always_inline)) bool member_number(struct cursor *c, struct scan_member *m,
								enum metric_kind kind, bool exact, bool shaped)
{
	struct decimal d;
	if (!scan_decimal(c, exact, &d))
		return member_number_slow(c, m, exact);
	if (kind == METRIC_PHASE && !d.neg && d.exp10 >= -9 && d.exp10 <= 0 && d.mant <= UINT32_MAX &&
	    d.mant * json_pow10_u64[9 + d.exp10] <= UINT32_MAX) {
		m->nano = true;
		m->code = (uint32_t)(d.mant * json_pow10_u64[9 + d.exp10]);
	} else if (json_number_quick(d.mant, d.exp10, d.neg, exact, &m->value) ||
		   json_number_finish(d.mant, d.exp10, d.neg, exact, &m->value)) {
		m->nano = false;
	} else {
		return member_number_slow(c, m, exact);
	}
	c->p += d.used;
	return shaped || span_ends_at(c->p, c->end);
}

/* The step: a plain non-negative integer of up to 16 digits a word at a time, else
 * the span through json_parse_int as the jsmn path reads it. *num, *nlen: its bytes. */
static bool scan_step(struct cursor *c, long long *step, const char **num, size_t *nlen)
{
	skip_ws(c);
	uint64_t v;
	unsigned k;
	if ((c->room || c->lim - c->p >= 17) && json_run16(c->p, &v, &k) && (k == 1 || *c->p != '0') &&
	    k <= (size_t)(c->end - c->p) && span_ends_at(c->p + k, c->end)) {
		*num = c->p;
		*nlen = k;
		c->p += k;
		*step = (long long)v;
		return true;
	}
	return number_span(c, num, nlen) && json_parse_int(*num, *nlen, step);
}

/* The timestamp: as json_parse_double_approx reads its span (scan_number's fast path
 * when the number ends the span). */
static bool scan_timestamp(struct cursor *c, double *ts, const char **num)
{
	skip_ws(c);
	size_t nlen;
	*num = c->p;
	struct decimal d;
	if (scan_decimal(c, false, &d) && span_ends_at(c->p + d.used, c->end) &&
	    (json_number_quick(d.mant, d.exp10, d.neg, false, ts) ||
	     json_number_finish(d.mant, d.exp10, d.neg, false, ts))) {
		c->p += d.used;
		return true;
	}
	return number_span(c, num, &nlen) && json_parse_double_approx(*num, nlen, ts);
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
	if (c->isa != SCAN_ISA_PORTABLE && n <= 32 && c->lim - c->p >= 32) {
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

/* Note where a value of the line scanned in full lies (shape_build). */
static void record_value(struct scan_line *out, unsigned what, size_t member, const char *start, const char *end)
{
	if (out->nrec < SCAN_SHAPE_VALUES)
		out->rec[out->nrec++] = (struct scan_rec){ start, end, (uint8_t)what, (uint8_t)member };
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
		skip_ws(c);
		const char *start = c->p;
		if (!member_number(c, &m[i], kind, kind != METRIC_SCALAR || out->exact_scalars, false))
			return false;
		record_value(out, SCAN_VALUE_MEMBER + kind, i, start, c->p);
		if (!after_member(c, &more))
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
		if (!scan_step(c, &out->step, &num, &nlen))
			return false;
		record_value(out, SCAN_VALUE_STEP, 0, num, c->p);
		return true;
	case TOP_TIMESTAMP:
		out->have_timestamp = scan_timestamp(c, &out->timestamp, &num);
		if (out->have_timestamp)
			record_value(out, SCAN_VALUE_TIMESTAMP, 0, num, c->p);
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

/* The line s[0..end) scanned in full succeeded: its gaps and values become the shape,
 * unless a member key is too long to be predicted (the full scan would not match it
 * whole) or the gaps do not fit. */
static void shape_build(struct scan_line *out, const char *s, const char *end)
{
	struct scan_shape *sh = &out->shape;
	size_t used = 0;
	const char *gap = s;
	for (size_t k = 0; k <= out->nrec; k++) {
		const struct scan_rec *r = &out->rec[k];
		const char *next = k < out->nrec ? r->start : end;
		size_t len = (size_t)(next - gap);
		if (len > SCAN_SHAPE_BYTES - used || memchr(gap, '\n', len))
			return; /* no gap holds a newline (pytscope_scan_next relies on it) */
		struct scan_value *v = &sh->v[k];
		memcpy(sh->bytes + used, gap, len);
		v->gap_off = (uint16_t)used;
		v->gap_len = (uint16_t)len;
		v->want = len >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << len) - 1;
		used += len;
		if (k == out->nrec)
			break;
		v->what = r->what;
		v->member = r->member;
		if (r->what >= SCAN_VALUE_MEMBER) {
			const struct scan_member *m = &out->m[r->what - SCAN_VALUE_MEMBER][r->member];
			if (m->len >= sizeof(out->pred[0][0].key))
				return;
			v->key_off = (uint16_t)(m->key - gap);
		}
		gap = r->end;
	}
	memcpy(sh->n, out->n, sizeof(sh->n));
	sh->nvalues = out->nrec;
}

/* Gap comparisons: are the len bytes at p (p + len within the line, bytes up to lim
 * readable) those of gap (readable 64 bytes past len)? want: the gap's scan_value.want. */
typedef bool (*gap_eq_fn)(const char *p, const char *gap, size_t len, uint32_t want, const char *lim);

/* The bytes of a 64-bit word that come first in memory, k of them (0 < k < 8). */
static inline uint64_t word_head(size_t k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return ~(uint64_t)0 << (8 * (8 - k));
#else
	return ~(uint64_t)0 >> (8 * (8 - k));
#endif
}

/* Any CPU: 64-bit words; a tail word masked where it may be read, else memcmp. */
static inline bool gap_eq_words(const char *p, const char *gap, size_t len, uint32_t want, const char *lim)
{
	(void)want;
	size_t k = 0;
	uint64_t a, b;
	for (; len - k >= 8; k += 8) {
		memcpy(&a, p + k, 8);
		memcpy(&b, gap + k, 8);
		if (a != b)
			return false;
	}
	if (k == len)
		return true;
	if (lim - (p + k) < 8)
		return memcmp(p + k, gap + k, len - k) == 0;
	memcpy(&a, p + k, 8);
	memcpy(&b, gap + k, 8);
	return ((a ^ b) & word_head(len - k)) == 0;
}

#ifdef SCAN_X86
/* The vector paths run on lines with SCAN_ROOM bytes after them (shape_scan_isa): a gap
 * within the line read a whole vector at a time ends less than 32 bytes past the line. */
static inline bool gap_eq_sse2(const char *p, const char *gap, size_t len, uint32_t want, const char *lim)
{
	(void)lim;
	if (len <= 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)gap);
		return ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & want) == want;
	}
	for (size_t k = 0; k < len; k += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + k));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(gap + k));
		uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b));
		uint32_t part = len - k >= 16 ? 0xFFFFu : ((uint32_t)1 << (len - k)) - 1;
		if ((eq & part) != part)
			return false;
	}
	return true;
}

__attribute__((target("avx2"))) static inline bool gap_eq_avx2(const char *p, const char *gap, size_t len,
							   uint32_t want, const char *lim)
{
	(void)lim;
	if (len <= 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
		__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)gap);
		return ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) & want) == want;
	}
	for (size_t k = 0; k < len; k += 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + k));
		__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(gap + k));
		uint32_t eq = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b));
		uint32_t part = len - k >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << (len - k)) - 1;
		if ((eq & part) != part)
			return false;
	}
	return true;
}
#endif

/* After the last gap of a line read up to its newline (pytscope_scan_next): only
 * whitespace (as the loader strips it) before a '\n' at or before end; *nl: where. */
static bool line_ends(const char *p, const char *end, const char **nl)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'))
		p++;
	*nl = p;
	return p < end && *p == '\n';
}

/* The line s[0..end) read with the previous line's shape: each gap compared whole,
 * each value parsed as the full scan parses it (the same functions from the same
 * byte), a member's key and id those of its prediction (the full scan would match
 * every key). False when a gap or value differs: the caller then scans in full. */
static inline __attribute__((always_inline)) bool shape_scan(const char *s, const char *end, const char *lim,
							      struct scan_line *out, gap_eq_fn eq, bool room,
							      const char **to_nl)
{
	const struct scan_shape *sh = &out->shape;
	struct cursor c = { s, end, lim, out->isa, room };
	const char *num;
	size_t nlen;
	for (size_t k = 0;; k++) {
		const struct scan_value *v = &sh->v[k];
		const char *gap = c.p;
		if ((size_t)(end - gap) < v->gap_len || !eq(gap, sh->bytes + v->gap_off, v->gap_len, v->want, lim))
			return false;
		c.p += v->gap_len;
		if (k == sh->nvalues)
			return to_nl ? line_ends(c.p, end, to_nl) : c.p == end;
		if (c.p < end && (*c.p == ' ' || *c.p == '\t' || *c.p == '\r' || *c.p == '\n'))
			return false; /* not the shape's line (the full scan decides): no value read skips a newline */
		if (v->what == SCAN_VALUE_STEP) {
			if (!scan_step(&c, &out->step, &num, &nlen))
				return false;
		} else if (v->what == SCAN_VALUE_TIMESTAMP) {
			if (!scan_timestamp(&c, &out->timestamp, &num))
				return false;
			out->have_timestamp = true;
		} else {
			int g = v->what - SCAN_VALUE_MEMBER;
			const struct scan_pred *pred = &out->pred[g][v->member];
			struct scan_member *m = &out->m[g][v->member];
			m->key = gap + v->key_off; /* m->len is the key's, from the scan that built the shape */
			m->id = pred->id;
			if (!member_number(&c, m, (enum metric_kind)g, g != METRIC_SCALAR || out->exact_scalars, true))
				return false;
		}
	}
}

static bool shape_scan_portable(const char *s, const char *end, const char *lim, struct scan_line *out,
				const char **to_nl)
{
	return shape_scan(s, end, lim, out, gap_eq_words, lim - end >= SCAN_ROOM, to_nl);
}

#ifdef SCAN_X86
static bool shape_scan_sse2(const char *s, const char *end, const char *lim, struct scan_line *out,
			    const char **to_nl)
{
	return shape_scan(s, end, lim, out, gap_eq_sse2, true, to_nl);
}

__attribute__((target("avx2"))) static bool shape_scan_avx2(const char *s, const char *end, const char *lim,
							   struct scan_line *out, const char **to_nl)
{
	return shape_scan(s, end, lim, out, gap_eq_avx2, true, to_nl);
}
#endif

/* The path of out->isa; a line without SCAN_ROOM bytes after it takes the portable
 * one, whose reads check their bounds. to_nl: the line is read up to its newline, which
 * lies before end (*to_nl: where); NULL: the line is s[0..end). */
static bool shape_scan_isa(const char *s, const char *end, const char *lim, struct scan_line *out,
			   const char **to_nl)
{
#ifdef SCAN_X86
	bool room = lim - end >= SCAN_ROOM;
	if (room && out->isa == SCAN_ISA_AVX2)
		return shape_scan_avx2(s, end, lim, out, to_nl);
	if (room && out->isa == SCAN_ISA_SSE2)
		return shape_scan_sse2(s, end, lim, out, to_nl);
#endif
	return shape_scan_portable(s, end, lim, out, to_nl);
}

void pytscope_scan_init(struct scan_line *l)
{
	for (int g = 0; g < 3; g++)
		for (size_t i = 0; i < SCAN_MAX_MEMBERS; i++) {
			l->pred[g][i].len = SCAN_NO_PRED;
			l->pred[g][i].id = -1;
		}
	l->shape.nvalues = 0;
	l->no_shape = false;
	l->isa = scan_isa_best();
}

bool scan_isa_supported(enum scan_isa isa)
{
	switch (isa) {
	case SCAN_ISA_PORTABLE:
		return true;
#ifdef SCAN_X86
	case SCAN_ISA_SSE2:
		return true;
	case SCAN_ISA_AVX2:
		return __builtin_cpu_supports("avx2");
#else
	case SCAN_ISA_SSE2:
	case SCAN_ISA_AVX2:
		break;
#endif
	}
	return false;
}

/* The best path at or below isa that this CPU runs. */
static enum scan_isa isa_at_most(enum scan_isa isa)
{
	while (isa > SCAN_ISA_PORTABLE && !scan_isa_supported(isa))
		isa--;
	return isa;
}

static enum scan_isa isa_chosen;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

static void isa_choose(void)
{
	const char *want = getenv("TSCOPE_SIMD");
	enum scan_isa isa = SCAN_ISA_AVX2;
	if (want && strcmp(want, "portable") == 0)
		isa = SCAN_ISA_PORTABLE;
	else if (want && strcmp(want, "sse2") == 0)
		isa = SCAN_ISA_SSE2;
	isa_chosen = isa_at_most(isa);
}

enum scan_isa scan_isa_best(void)
{
	pthread_once(&isa_once, isa_choose);
	return isa_chosen;
}

void scan_isa_force(enum scan_isa isa)
{
	pthread_once(&isa_once, isa_choose);
	isa_chosen = isa_at_most(isa);
}

/* The full scan: the grammar walk over every byte (see scan.h). */
static bool scan_full(struct cursor *c, struct scan_line *out)
{
	out->nrec = 0;
	if (!expect(c, '{'))
		return false;
	unsigned seen = 0;
	bool more = true;
	while (more) {
		if (!expect(c, '"'))
			return false;
		enum top_key k = top_key(c);
		if (k == TOP_UNKNOWN || (seen & (1u << k)) || !scan_member(c, k, out) ||
		    !after_member(c, &more))
			return false;
		seen |= 1u << k;
	}
	skip_ws(c);
	return c->p == c->end && (seen & (1u << TOP_STEP));
}

bool pytscope_scan_line(const char *s, size_t n, size_t avail, struct scan_line *out)
{
	const char *lim = s + (avail > n ? avail : n);
	out->timestamp = 0;
	out->have_timestamp = false;
	if (out->shape.nvalues && shape_scan_isa(s, s + n, lim, out, NULL)) {
		memcpy(out->n, out->shape.n, sizeof(out->n));
		return true;
	}
	/* the full scan may change the predictions: the shape holds only after it succeeds */
	out->shape.nvalues = 0;
	out->timestamp = 0;
	out->have_timestamp = false;
	out->n[0] = out->n[1] = out->n[2] = 0;
	struct cursor c = { s, s + n, lim, out->isa, lim - (s + n) >= SCAN_ROOM };
	if (!scan_full(&c, out))
		return false;
	if (!out->no_shape)
		shape_build(out, s, s + n);
	return true;
}

bool pytscope_scan_next(const char *s, size_t avail, struct scan_line *out, size_t *len)
{
	const char *nl, *end = s + avail - SCAN_ROOM, *p = s;
	if (!out->shape.nvalues || avail < 2 * SCAN_ROOM)
		return false;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'))
		p++; /* what the loader strips */
	out->timestamp = 0;
	out->have_timestamp = false;
	if (!shape_scan_isa(p, end, s + avail, out, &nl))
		return false;
	memcpy(out->n, out->shape.n, sizeof(out->n));
	*len = (size_t)(nl - s);
	return true;
}
