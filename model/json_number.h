/* SPDX-License-Identifier: MIT */
/* json_number.h: the JSON number parser behind json_parse_double*() (model/json.h), as
 * inline code so that the steps.jsonl scanner (model/steps/scan.c) gets it inlined
 * (7% of its load speed). Everything else calls the json.h functions. */
#ifndef MODEL_JSON_NUMBER_H
#define MODEL_JSON_NUMBER_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/base.h"
#include "model/xalloc.h"

static const double json_pow10_tab[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* 5^q as a 128-bit fraction for the division-free exact path (json_pow5_round):
 * T = hi:lo in [2^127, 2^128) with T ~ 5^q * 2^s. For q >= 0 T is exact; for q < 0 it
 * is floor(2^s / 5^-q) + 1, an upper bound less than 1 above the true value.
 * Generated with Python's integers (tests/unit/test_core.c checks every entry). */
#define JSON_POW5_MIN (-27)
#define JSON_POW5_MAX 27
struct json_pow5 {
	uint64_t hi, lo;
	int s;
};
static const struct json_pow5 json_pow5_tab[] = {
	{ 0x9e74d1b791e07e48u, 0x775ea264cf55347eu, 190 }, /* -27 */
	{ 0xc612062576589ddau, 0x95364afe032a819eu, 188 }, /* -26 */
	{ 0xf79687aed3eec551u, 0x3a83ddbd83f52205u, 186 }, /* -25 */
	{ 0x9abe14cd44753b52u, 0xc4926a9672793543u, 183 }, /* -24 */
	{ 0xc16d9a0095928a27u, 0x75b7053c0f178294u, 181 }, /* -23 */
	{ 0xf1c90080baf72cb1u, 0x5324c68b12dd6339u, 179 }, /* -22 */
	{ 0x971da05074da7beeu, 0xd3f6fc16ebca5e04u, 176 }, /* -21 */
	{ 0xbce5086492111aeau, 0x88f4bb1ca6bcf585u, 174 }, /* -20 */
	{ 0xec1e4a7db69561a5u, 0x2b31e9e3d06c32e6u, 172 }, /* -19 */
	{ 0x9392ee8e921d5d07u, 0x3aff322e62439fd0u, 169 }, /* -18 */
	{ 0xb877aa3236a4b449u, 0x09befeb9fad487c3u, 167 }, /* -17 */
	{ 0xe69594bec44de15bu, 0x4c2ebe687989a9b4u, 165 }, /* -16 */
	{ 0x901d7cf73ab0acd9u, 0x0f9d37014bf60a11u, 162 }, /* -15 */
	{ 0xb424dc35095cd80fu, 0x538484c19ef38c95u, 160 }, /* -14 */
	{ 0xe12e13424bb40e13u, 0x2865a5f206b06fbau, 158 }, /* -13 */
	{ 0x8cbccc096f5088cbu, 0xf93f87b7442e45d4u, 155 }, /* -12 */
	{ 0xafebff0bcb24aafeu, 0xf78f69a51539d749u, 153 }, /* -11 */
	{ 0xdbe6fecebdedd5beu, 0xb573440e5a884d1cu, 151 }, /* -10 */
	{ 0x89705f4136b4a597u, 0x31680a88f8953031u, 148 }, /* -9 */
	{ 0xabcc77118461cefcu, 0xfdc20d2b36ba7c3eu, 146 }, /* -8 */
	{ 0xd6bf94d5e57a42bcu, 0x3d32907604691b4du, 144 }, /* -7 */
	{ 0x8637bd05af6c69b5u, 0xa63f9a49c2c1b110u, 141 }, /* -6 */
	{ 0xa7c5ac471b478423u, 0x0fcf80dc33721d54u, 139 }, /* -5 */
	{ 0xd1b71758e219652bu, 0xd3c36113404ea4a9u, 137 }, /* -4 */
	{ 0x83126e978d4fdf3bu, 0x645a1cac083126eau, 134 }, /* -3 */
	{ 0xa3d70a3d70a3d70au, 0x3d70a3d70a3d70a4u, 132 }, /* -2 */
	{ 0xccccccccccccccccu, 0xcccccccccccccccdu, 130 }, /* -1 */
	{ 0x8000000000000000u, 0x0000000000000000u, 127 }, /* 0 */
	{ 0xa000000000000000u, 0x0000000000000000u, 125 }, /* 1 */
	{ 0xc800000000000000u, 0x0000000000000000u, 123 }, /* 2 */
	{ 0xfa00000000000000u, 0x0000000000000000u, 121 }, /* 3 */
	{ 0x9c40000000000000u, 0x0000000000000000u, 118 }, /* 4 */
	{ 0xc350000000000000u, 0x0000000000000000u, 116 }, /* 5 */
	{ 0xf424000000000000u, 0x0000000000000000u, 114 }, /* 6 */
	{ 0x9896800000000000u, 0x0000000000000000u, 111 }, /* 7 */
	{ 0xbebc200000000000u, 0x0000000000000000u, 109 }, /* 8 */
	{ 0xee6b280000000000u, 0x0000000000000000u, 107 }, /* 9 */
	{ 0x9502f90000000000u, 0x0000000000000000u, 104 }, /* 10 */
	{ 0xba43b74000000000u, 0x0000000000000000u, 102 }, /* 11 */
	{ 0xe8d4a51000000000u, 0x0000000000000000u, 100 }, /* 12 */
	{ 0x9184e72a00000000u, 0x0000000000000000u, 97 }, /* 13 */
	{ 0xb5e620f480000000u, 0x0000000000000000u, 95 }, /* 14 */
	{ 0xe35fa931a0000000u, 0x0000000000000000u, 93 }, /* 15 */
	{ 0x8e1bc9bf04000000u, 0x0000000000000000u, 90 }, /* 16 */
	{ 0xb1a2bc2ec5000000u, 0x0000000000000000u, 88 }, /* 17 */
	{ 0xde0b6b3a76400000u, 0x0000000000000000u, 86 }, /* 18 */
	{ 0x8ac7230489e80000u, 0x0000000000000000u, 83 }, /* 19 */
	{ 0xad78ebc5ac620000u, 0x0000000000000000u, 81 }, /* 20 */
	{ 0xd8d726b7177a8000u, 0x0000000000000000u, 79 }, /* 21 */
	{ 0x878678326eac9000u, 0x0000000000000000u, 76 }, /* 22 */
	{ 0xa968163f0a57b400u, 0x0000000000000000u, 74 }, /* 23 */
	{ 0xd3c21bcecceda100u, 0x0000000000000000u, 72 }, /* 24 */
	{ 0x84595161401484a0u, 0x0000000000000000u, 69 }, /* 25 */
	{ 0xa56fa5b99019a5c8u, 0x0000000000000000u, 67 }, /* 26 */
	{ 0xcecb8f27f4200f3au, 0x0000000000000000u, 65 }, /* 27 */
};

static inline bool json_span_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static inline bool json_word_is(const char *s, size_t n, const char *lit, size_t *used)
{
	size_t k = strlen(lit);
	if (used ? n < k || memcmp(s, lit, k) != 0 : !json_span_is(s, n, lit))
		return false;
	if (used)
		*used = k;
	return true;
}

/* mant * 10^q correctly rounded (to nearest, ties to even) without a division, for
 * 0 < mant < 2^64 and q in [JSON_POW5_MIN, JSON_POW5_MAX]. The 192-bit product
 * P = mant * 2^lz * T decides the rounding; for q < 0 the true value lies in
 * (P - 2^64, P), so when the bits below the rounding bit cannot tell (a possible tie
 * or carry within that interval) it returns false and the caller takes an exact path.
 * The result equals strtod's (tests/unit/test_core.c compares millions of strings). */
static inline bool json_pow5_round(uint64_t mant, int q, double *out)
{
#ifndef __SIZEOF_INT128__
	(void)mant, (void)q, (void)out;
	return false; /* no 128-bit products: the callers' exact paths */
#else
	const struct json_pow5 *t = &json_pow5_tab[q - JSON_POW5_MIN];
	int lz = __builtin_clzll(mant);
	uint64_t w = mant << lz;
	unsigned __int128 a = (unsigned __int128)w * t->hi, b = (unsigned __int128)w * t->lo;
	uint64_t mid = (uint64_t)a, carry;
	uint64_t m = mid + (uint64_t)(b >> 64);
	carry = m < mid;
	uint64_t h = (uint64_t)(a >> 64) + carry;
	uint64_t low = (uint64_t)b;
	int up = (int)(h >> 63), shift = up + 9;
	uint64_t below = h & (((uint64_t)1 << shift) - 1); /* tail bits left in h */
	uint64_t m54 = h >> shift;                          /* 53 bits + the rounding bit */
	bool round_bit = m54 & 1, round_up;
	if (q >= 0) /* exact product: ties to even */
		round_up = round_bit && (below || m || low || (m54 & 2));
	else if (!below && !m)
		return false;
	else
		round_up = round_bit;
	uint64_t m53 = (m54 >> 1) + round_up;
	int e = 181 + shift + q - lz - t->s;
	if (m53 == (uint64_t)1 << 53) {
		m53 >>= 1;
		e++;
	}
	if (e + 1023 < 1 || e + 1023 > 2046)
		return false;
	uint64_t bits = (m53 & (((uint64_t)1 << 52) - 1)) | (uint64_t)(e + 1023) << 52;
	memcpy(out, &bits, sizeof(*out));
	return true;
#endif
}

/* Eight digits in a little-endian word, the first (most significant) in the low byte,
 * each byte an ASCII digit or 0 (a leading zero): the low nibbles combined in pairs,
 * then fours, then the eight, one multiply each. */
static inline uint64_t json_swar8(uint64_t v)
{
	v = (v & 0x0F0F0F0F0F0F0F0Fu) * (10 * 256 + 1) >> 8;
	v = (v & 0x00FF00FF00FF00FFu) * (100 * 65536 + 1) >> 16;
	return (v & 0x0000FFFF0000FFFFu) * (10000 * (1ull << 32) + 1) >> 32;
}

/* Eight ASCII digits at s (s[0] the most significant) as a number; false when one of
 * the eight bytes is not a digit. Word at a time on little-endian CPUs. */
static inline bool json_digits8(const char *s, uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;
	memcpy(&v, s, 8);
	if ((v & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u ||
	    ((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u)
		return false;
	*out = json_swar8(v);
	return true;
#else
	uint64_t v = 0;
	for (int i = 0; i < 8; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
#endif
}

/* A run of digits at s[*i..n) appended to *mant; returns how many. Eight at a time
 * while eight digits are there, then byte by byte. *mant wraps past 19 digits (the
 * caller then re-reads the digits carefully). */
static inline size_t json_digit_run(const char *s, size_t n, size_t *i, uint64_t *mant)
{
	size_t start = *i, k = *i;
	uint64_t v = *mant, d8;
	while (n - k >= 8 && json_digits8(s + k, &d8)) {
		v = v * 100000000u + d8;
		k += 8;
	}
	for (; k < n && s[k] >= '0' && s[k] <= '9'; k++)
		v = v * 10 + (uint64_t)(s[k] - '0');
	*mant = v;
	*i = k;
	return k - start;
}

static const uint64_t json_pow10_u64[] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
	1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
	100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u,
};

/* ---- the common decimal a word at a time (json_decimal_fast) ----
 * Little-endian CPUs only (elsewhere json_decimal_fast always declines). */

/* Bytes json_decimal_fast may read from its start: sign, 16 digits, point, 16 digits,
 * the words that find where they end, an exponent of three digits and the byte after. */
#define JSON_DEC_READ 48

/* 0x80 in each byte of w that is not an ASCII digit, 0 in each digit byte. */
static inline uint64_t json_nondigits(uint64_t w)
{
	uint64_t x = w ^ 0x3030303030303030u; /* a digit becomes 0-9, any other byte >= 10 */
	return (((x & 0x7F7F7F7F7F7F7F7Fu) + 0x7676767676767676u) | x) & 0x8080808080808080u;
}

/* A run of 1-16 ASCII digits at p (p[0..17) readable): its value and length. False when
 * p[0] is not a digit or the run is longer than 16 digits. The first k digits of a word
 * are shifted to its top, so the zero bytes shifted in become leading zeros. */
static inline bool json_run16(const char *p, uint64_t *v, unsigned *k)
{
	uint64_t w, w1;
	memcpy(&w, p, 8);
	uint64_t m = json_nondigits(w);
	if (m) {
		unsigned n = (unsigned)__builtin_ctzll(m) >> 3; /* 0-7 */
		if (!n)
			return false;
		*v = n == 1 ? (w & 15) : json_swar8(w << (64 - 8 * n)); /* 0.5, 3.39...: one digit */
		*k = n;
		return true;
	}
	memcpy(&w1, p + 8, 8);
	m = json_nondigits(w1);
	if (!m && p[16] >= '0' && p[16] <= '9')
		return false;
	unsigned n = m ? (unsigned)__builtin_ctzll(m) >> 3 : 8;
	uint64_t hi = json_swar8(w);
	*v = n ? hi * json_pow10_u64[n] + json_swar8(w1 << (64 - 8 * n)) : hi;
	*k = 8 + n;
	return true;
}

/* The number at p, when it has the common shape -?D+(.D+)?([eE][+-]?D{1,3})? (at most
 * 16 digits before and after the point, at most 19 in all) and ends by n (the bytes up
 * to p + n belong to the line; p[0..JSON_DEC_READ) must be readable, they may lie past
 * n): its digits as one integer *mant, *exp10 (the exponent less the digits after the
 * point), *neg and *used, exactly as json_number_parse gathers them (json_number_finish then gives its
 * result); exact_only: a fraction of zeros is dropped (from *exp10), which changes no
 * correctly rounded result (the approximate one could: it is left alone). False for
 * anything else (json_number_parse decides then): a leading zero, an empty run, an
 * exponent of 4+ digits, NaN / Infinity, a longer mantissa, a number past n. */
static inline __attribute__((always_inline)) bool json_decimal_fast(const char *p, size_t n, bool exact_only, uint64_t *mant, int *exp10,
				     bool *neg, size_t *used)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	size_t i = *p == '-';
	uint64_t vi, vf;
	unsigned ki, kf = 0;
	if (!json_run16(p + i, &vi, &ki) || (ki > 1 && p[i] == '0'))
		return false;
	i += ki;
	if (p[i] == '.') {
		if (!json_run16(p + i + 1, &vf, &kf) || ki + kf > 19)
			return false;
		i += 1 + kf;
		if (exact_only && vf == 0)
			kf = 0; /* 4294989824.0: the integer (the same value; exact is exact however written) */
		else
			vi = vi * json_pow10_u64[kf] + vf;
	}
	int e10 = -(int)kf;
	if ((p[i] | 0x20) == 'e') { /* an exponent of 1-3 digits (lr 9e-09); longer ones decline */
		size_t j = i + 1 + (p[i + 1] == '-' || p[i + 1] == '+');
		int e = 0, k = 0;
		for (; k < 3 && p[j + k] >= '0' && p[j + k] <= '9'; k++)
			e = e * 10 + (p[j + k] - '0');
		if (k == 0 || (p[j + k] >= '0' && p[j + k] <= '9'))
			return false;
		e10 += p[i + 1] == '-' ? -e : e;
		i = j + (size_t)k;
	}
	if (i > n)
		return false;
	*mant = vi;
	*exp10 = e10;
	*neg = *p == '-';
	*used = i;
	return true;
#else
	(void)p, (void)n, (void)exact_only, (void)mant, (void)exp10, (void)neg, (void)used;
	return false;
#endif
}

/* The first 19 significant digits of the digits before and after the point (the slow
 * path for long mantissas): *exact false when digits were dropped. */
static inline uint64_t json_mantissa19(const char *s, size_t n, size_t i, int *exp10, bool *exact)
{
	uint64_t mant = 0;
	int ndig = 0;
	*exp10 = 0;
	*exact = true;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			if (mant)
				ndig++;
		} else {
			*exact = false;
		}
	}
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				if (mant)
					ndig++;
				(*exp10)--;
			} else {
				*exact = false;
			}
		}
	return mant;
}

/* mant * 10^exp10 with sign neg, rounded as json_number_parse does, for a mantissa of
 * at most 19 significant digits: correctly rounded when mant < 2^53 or exact_only,
 * else (approximate) with one extra rounding. False when only strtod can give the
 * result (the caller then calls it on the text). */
static inline bool json_number_finish(uint64_t mant, int exp10, bool neg, bool exact_only, double *out)
{
	if (mant == 0) {
		*out = neg ? -0.0 : 0.0;
		return true;
	}
	bool small = mant < ((uint64_t)1 << 53);
	if (small && exp10 == 0) { /* an integer a double holds exactly */
		*out = neg ? -(double)mant : (double)mant;
		return true;
	}
	if ((small || exact_only) && exp10 >= JSON_POW5_MIN && exp10 <= JSON_POW5_MAX &&
	    json_pow5_round(mant, exp10, out)) {
		if (neg)
			*out = -*out;
		return true;
	}
	if ((small || !exact_only) && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant; /* beyond 2^53 (approximate only): rounded here and below */
		v = exp10 < 0 ? v / json_pow10_tab[-exp10] : v * json_pow10_tab[exp10];
		*out = neg ? -v : v;
		return true;
	}
	return false;
}

/* The cheap cases of json_number_finish, for callers that inline them: an integer a
 * double holds exactly (4294989824.0 read exactly), a mantissa below 2^53 with a power
 * of ten a double holds (Clinger's fast path: both exact, one correctly rounded
 * operation, so the result json_pow5_round gives), and an approximate mantissa beyond
 * 2^53 (one extra rounding, as json_number_finish). False: call json_number_finish. */
static inline bool json_number_quick(uint64_t mant, int exp10, bool neg, bool exact_only, double *out)
{
	bool small = mant < ((uint64_t)1 << 53);
	if ((!small && exact_only) || exp10 < -22 || exp10 > 22)
		return false;
	double v = (double)mant;
	if (exp10 < 0)
		v /= json_pow10_tab[-exp10];
	else if (exp10 > 0)
		v *= json_pow10_tab[exp10];
	*out = neg ? -v : v;
	return true;
}

/* Parse s[0..n) as a JSON number (or NaN/Infinity/-Infinity). exact_only: correctly
 * rounded (json_pow5_round, else Clinger's fast path, else strtod); otherwise
 * mantissas beyond 2^53 (with |exp| <= 22) take one extra rounding (within a few ulp)
 * instead of strtod. used == NULL: the whole span must be the number; else *used gets
 * the length of the number that starts s (the grammar stops at the first byte it
 * cannot take): when that byte cannot continue a primitive, the whole-span parse of
 * the same bytes gives the same result. */
static inline bool json_number_parse(const char *s, size_t n, double *out, bool exact_only, size_t *used)
{
	if (n == 0)
		return false;
	bool word = s[0] == 'N' || s[0] == 'I' || (s[0] == '-' && n > 1 && s[1] == 'I');
	if (word && json_word_is(s, n, "NaN", used)) {
		*out = NAN;
		return true;
	}
	if (word && json_word_is(s, n, "Infinity", used)) {
		*out = INFINITY;
		return true;
	}
	if (word && json_word_is(s, n, "-Infinity", used)) {
		*out = -INFINITY;
		return true;
	}
	/* Validate the JSON number grammar and gather digits for the fast path. */
	size_t i = 0;
	bool neg = false;
	if (s[i] == '-') {
		neg = true;
		i++;
	}
	if (i >= n || s[i] < '0' || s[i] > '9')
		return false;
	if (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
		return false; /* leading zero */
	size_t first = i;
	uint64_t mant = 0;
	size_t ndig = json_digit_run(s, n, &i, &mant);
	int exp10 = 0;
	if (i < n && s[i] == '.') {
		i++;
		size_t frac = json_digit_run(s, n, &i, &mant);
		if (frac == 0)
			return false;
		ndig += frac;
		exp10 = -(int)frac;
	}
	bool exact = true;
	if (ndig > 19) /* the mantissa wrapped: keep the first 19 significant digits */
		mant = json_mantissa19(s, n, first, &exp10, &exact);
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		bool eneg = false;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i >= n || s[i] < '0' || s[i] > '9')
			return false;
		int e = 0;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		exp10 += eneg ? -e : e;
	}
	if (used)
		*used = n = i;
	else if (i != n)
		return false;
	if (exact && json_number_finish(mant, exp10, neg, exact_only, out))
		return true;
	char buf[64];
	char *heap = NULL, *p = buf;
	if (n >= sizeof(buf))
		p = heap = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	*out = strtod(p, NULL);
	free(heap);
	return true;
}

#endif
