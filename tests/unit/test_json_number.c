/* SPDX-License-Identifier: MIT */
/* test_json_number.c: the JSON number parser (model/json_number.h) against strtod and
 * against the parser as it was before the division-free path (kept here as the
 * reference): every exact parse must equal strtod bit for bit, every approximate one
 * the old approximate result, on edge cases and millions of random strings. */
#include <inttypes.h>
#include <stdlib.h>
#include "model/json.h"
#include "model/json_number.h"
#include "tests/tap.h"
#include "tests/testutil.h"

/* The parser before json_pow5_round (Clinger's fast path with a division, else strtod). */
static bool ref_parse(const char *s, size_t n, double *out, bool exact_only)
{
	static const char *const words[] = { "NaN", "Infinity", "-Infinity" };
	static const double vals[] = { NAN, INFINITY, -INFINITY };
	for (int w = 0; w < 3; w++)
		if (strlen(words[w]) == n && memcmp(s, words[w], n) == 0) {
			*out = vals[w];
			return true;
		}
	size_t i = 0;
	bool neg = n > 0 && s[0] == '-';
	i += neg;
	if (i >= n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9'))
		return false;
	uint64_t mant = 0;
	int ndig = 0, exp10 = 0;
	bool exact = true;
	for (int part = 0; part < 2; part++) {
		if (part == 1) {
			if (i >= n || s[i] != '.')
				break;
			if (++i >= n || s[i] < '0' || s[i] > '9')
				return false;
		}
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				ndig += mant != 0;
				exp10 -= part;
			} else {
				exact = false;
			}
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool eneg = ++i < n && s[i] == '-';
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || s[i] < '0' || s[i] > '9')
			return false;
		int e = 0;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		exp10 += eneg ? -e : e;
	}
	if (i != n)
		return false;
	if (exact && (mant < ((uint64_t)1 << 53) || !exact_only) && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant;
		v = exp10 < 0 ? v / json_pow10_tab[-exp10] : v * json_pow10_tab[exp10];
		*out = neg ? -v : v;
		return true;
	}
	char buf[512];
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	return true;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t rnd64(void)
{
	return tu_xorshift(&rng);
}

static unsigned rnd(unsigned n)
{
	return (unsigned)(rnd64() % n);
}

static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static long checked, bad_exact, bad_approx, bad_accept;
static char first_bad[128];

/* One string through the new parser, exact and approximate, against the references. */
static void check(const char *s)
{
	size_t n = strlen(s);
	double got, want, ref;
	bool ok_new = json_parse_double(s, n, &got), ok_ref = ref_parse(s, n, &ref, true);
	checked++;
	if (ok_new != ok_ref) {
		if (!bad_accept++)
			snprintf(first_bad, sizeof(first_bad), "accept: %s", s);
		return;
	}
	if (!ok_new)
		return;
	want = strtod(s, NULL);
	bool words = strchr(s, 'N') || strchr(s, 'I');
	if (!(words ? same_bits(got, ref) : same_bits(got, want)) && !bad_exact++)
		snprintf(first_bad, sizeof(first_bad), "exact: %s -> %.17g, strtod %.17g", s, got, want);
	if (!json_parse_double_approx(s, n, &got) || !ref_parse(s, n, &ref, false) || !same_bits(got, ref))
		if (!bad_approx++)
			snprintf(first_bad, sizeof(first_bad), "approx: %s -> %.17g, before %.17g", s, got, ref);
}

static void digits(char *p, unsigned n, bool lead)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (char)('0' + (i == 0 && lead ? 1 + rnd(9) : rnd(10)));
	p[n] = '\0';
}

/* A random decimal of the JSON grammar: sign, 1-21 integer digits, maybe a fraction of
 * 1-21 digits, maybe an exponent within +-40. */
static void random_decimal(char *out)
{
	char *p = out;
	if (rnd(4) == 0)
		*p++ = '-';
	unsigned ni = 1 + rnd(rnd(3) ? 10 : 21);
	if (rnd(3) == 0)
		ni = 1, *p = '0';
	else
		digits(p, ni, ni > 1);
	p += ni;
	if (rnd(4)) {
		*p++ = '.';
		unsigned nf = 1 + rnd(rnd(3) ? 12 : 21);
		digits(p, nf, false);
		p += nf;
	}
	if (rnd(3) == 0)
		p += sprintf(p, "%c%s%u", rnd(2) ? 'e' : 'E', rnd(2) ? "-" : rnd(2) ? "+" : "", rnd(41));
	*p = '\0';
}

/* Halfway and near-halfway cases: odd integers above 2^53 (exact ties between two
 * doubles), written with trailing zeros and negative or positive exponents. */
static void tie_decimal(char *out)
{
	uint64_t m = ((uint64_t)1 << (53 + rnd(11))) + (rnd64() >> (11 + rnd(11)));
	m = (m | 1) + (uint64_t)rnd(3) - 1;
	switch (rnd(4)) {
	case 0:
		sprintf(out, "%" PRIu64, m);
		break;
	case 1:
		sprintf(out, "%" PRIu64 ".0", m);
		break;
	case 2:
		sprintf(out, "%" PRIu64 "e-%u", m, rnd(3));
		break;
	default: /* m / 10^k written as a decimal: the same digits, point moved */
		if (m < 1000000000000000000u) {
			sprintf(out, "%" PRIu64 "e%u", m, rnd(9));
		} else {
			char d[24];
			sprintf(d, "%" PRIu64, m);
			size_t k = 1 + rnd((unsigned)strlen(d) - 1);
			sprintf(out, "%.*s.%s", (int)k, d, d + k);
		}
	}
}

/* A random double as printf writes it with 15-17 significant digits (17 round-trips;
 * Python's repr is the shortest of these that does). */
static void printed_double(char *out)
{
	uint64_t bits = rnd64() & 0x7FFFFFFFFFFFFFFFu;
	int e = 1023 + (int)rnd(120) - 90; /* 1e-27 .. 1e9 */
	bits = (bits & 0x000FFFFFFFFFFFFFu) | (uint64_t)e << 52;
	double d;
	memcpy(&d, &bits, sizeof(d));
	sprintf(out, "%.*g", 15 + (int)rnd(3), rnd(2) ? d : -d);
}

/* String i of the random mix: decimals, halfway cases, printed doubles in turn. */
static void random_string(char *s, long i)
{
	if (i % 3 == 0)
		random_decimal(s);
	else if (i % 3 == 1)
		tie_decimal(s);
	else
		printed_double(s);
}

static void test_edges(void)
{
	static const char *const v[] = {
		"0", "-0", "0.0", "-0.0", "0e5", "-0e-5", "1", "-1", "9007199254740992", "9007199254740993",
		"9007199254740993.0", "9007199254740995", "18446744073709551615", "18446744073709551616",
		"9999999999999999999", "99999999999999999999", "0.1", "0.2", "0.30000000000000004",
		"1e22", "1e23", "1e-22", "1e-23", "1e27", "1e-27", "1e28", "1e-28", "5e-324", "1e308",
		"1.7976931348623157e308", "2.2250738585072014e-308", "123456789012345678e-27",
		"4294989824.0", "1795344000.1198754", "0.007658334", "6e-06", "1.2179151109982091",
		"3.392390708859734", "0.000000000000000000001234567", "1.00000000000000000000000001",
		"12345678.12345678", "87654321", "1234567812345678", "0.12345678", "NaN", "Infinity",
		"-Infinity", "1.", ".5", "01", "-", "1e", "1e+", "+1", "1.5e", "nul", "0x10", "1_0",
	};
	long before = bad_exact + bad_approx + bad_accept;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		check(v[i]);
	ok(bad_exact + bad_approx + bad_accept == before, "edge cases: strtod and the old parser agree (%s)",
	   first_bad);
}

static void test_random(void)
{
	char s[128];
	for (long i = 0; i < 1500000; i++) {
		random_string(s, i);
		check(s);
	}
	ok(bad_accept == 0, "random: same strings accepted as before (%ld checked) %s", checked, first_bad);
	ok(bad_exact == 0, "random: exact parse == strtod bit for bit (%ld differ) %s", bad_exact, first_bad);
	ok(bad_approx == 0, "random: approximate parse unchanged (%ld differ) %s", bad_approx, first_bad);
}

/* Every json_pow5_tab entry: 5^q * 2^s exactly for q >= 0; for q < 0 the least integer
 * above 2^s / 5^-q (T * 5^k > 2^s >= (T - 1) * 5^k). */
static void test_table(void)
{
	int bad = 0;
	for (int q = JSON_POW5_MIN; q <= JSON_POW5_MAX; q++) {
		const struct json_pow5 *t = &json_pow5_tab[q - JSON_POW5_MIN];
		uint64_t p = 1;
		for (int k = 0; k < (q < 0 ? -q : q); k++)
			p *= 5;
		if (q >= 0) {
			bad += t->lo != 0 || t->s < 64 || t->hi != p << (t->s - 64) || !(t->hi >> 63);
			continue;
		}
		/* (hi:lo) * p as 192 bits, compared with 2^s, then with (T - 1) * p */
		for (int minus = 0; minus < 2; minus++) {
			uint64_t lo = t->lo - (uint64_t)minus, hi = t->hi - (uint64_t)(minus && t->lo == 0);
			unsigned __int128 a = (unsigned __int128)lo * p, b = (unsigned __int128)hi * p;
			unsigned __int128 mid = (a >> 64) + (uint64_t)b;
			uint64_t w[3] = { (uint64_t)a, (uint64_t)mid, (uint64_t)(b >> 64) + (uint64_t)(mid >> 64) };
			uint64_t two[3] = { 0, 0, 0 };
			two[t->s / 64] = (uint64_t)1 << (t->s % 64);
			int cmp = 0;
			for (int k = 2; k >= 0 && !cmp; k--)
				cmp = (w[k] > two[k]) - (w[k] < two[k]);
			bad += minus ? cmp > 0 : cmp <= 0;
		}
	}
	ok(bad == 0, "power-of-five table: every entry checked (%d wrong)", bad);
}

static void test_digits8(void)
{
	int bad = 0;
	char s[9];
	for (int i = 0; i < 100000; i++) {
		digits(s, 8, false);
		if (i % 7 == 0)
			s[rnd(8)] = "/:a .\xb0\x30"[rnd(7)];
		uint64_t want = 0, got;
		bool all = true;
		for (int k = 0; k < 8; k++) {
			all = all && s[k] >= '0' && s[k] <= '9';
			want = want * 10 + (uint64_t)(s[k] - '0');
		}
		bool r = json_digits8(s, &got);
		bad += r != all || (r && got != want);
	}
	ok(bad == 0, "eight digits at a time == digit by digit (%d differ)", bad);
}

/* json_decimal_fast + json_number_finish (and json_number_quick where it decides)
 * against json_number_parse on the same bytes:
 * the number at the start of a buffer (JSON_DEC_READ bytes and more), the line ending at n
 * (the number's length, or further when a delimiter follows it), garbage after n that
 * may continue the number (digits, '.', 'e'). Where the fast path accepts, it must
 * report the same length and, for exact and approximate parses, the same bits; where
 * it declines, json_number_parse decides (the scanner's fallback). *fast: accepted. */
static int decimal_case(const char *num, long *fast)
{
	static const char after[] = ",}] \t:0123456789.eE-+\"x";
	char buf[JSON_DEC_READ + 80];
	size_t len = strlen(num);
	if (len + JSON_DEC_READ + 8 > sizeof(buf))
		return 0;
	memcpy(buf, num, len);
	for (size_t k = len; k < sizeof(buf); k++)
		buf[k] = after[rnd(sizeof(after) - 1)];
	int bad = 0;
	for (int ends = 0; ends < 2; ends++) {
		/* ends 0: the line ends right after the number; 1: a delimiter follows in the line */
		size_t n = len;
		if (ends) {
			buf[len] = ",} "[rnd(3)];
			n = len + 1 + rnd(4);
		}
		for (int exact = 0; exact < 2; exact++) {
			uint64_t mant;
			int e10;
			bool neg;
			size_t used = 0, want_used = 0;
			double got, want;
			if (!json_decimal_fast(buf, n, exact, &mant, &e10, &neg, &used))
				continue;
			bool ok_want = json_number_parse(buf, n, &want, exact, &want_used);
			bool done = json_number_finish(mant, e10, neg, exact, &got);
			bad += !ok_want || used != want_used || (done && !same_bits(got, want));
			done = json_number_quick(mant, e10, neg, exact, &got);
			bad += done && !same_bits(got, want);
			*fast += exact;
		}
	}
	return bad;
}

/* Digit runs of every length 0-20 before and after the point, each digit count at
 * the word boundaries, leading zeros, signs, exponents, NaN / Infinity, 17+ significant
 * digits, subnormals, negative zero, and random decimals and printed doubles. */
static void test_decimal_fast(void)
{
	static const char *const edge[] = {
		"0", "-0", "0.0", "-0.0", "-0.000", "00", "01", "-01.5", "0.", "-", ".5", "1.e5", "1e5", "1.5E-3",
		"NaN", "Infinity", "-Infinity", "4.9e-324", "2.2250738585072014e-308", "1e-320",
		"0.000000000000000000001234567", "9007199254740993", "9007199254740993.0", "18446744073709551615",
		"9999999999999999999", "99999999999999999999", "1234567890123456.789", "1.2179151109982091",
		"1795344000.1198754", "4294989824.0", "4294967296", "0.007658334", "4.294967295", "4.294967296",
		"0.0311004", "6e-06", "3.392390708859734", "12345678.12345678", "1234567812345678.0",
		"123456781234567812", "0.1234567812345678", "0.12345678123456781", "-12345678.90000000",
	};
	long fast = 0;
	int bad = 0;
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		bad += decimal_case(edge[i], &fast);
	ok(bad == 0, "fast decimal: edge cases read as json_number_parse reads them");
	char s[128];
	bad = 0;
	for (unsigned ni = 0; ni <= 20; ni++)
		for (unsigned nf = 0; nf <= 20; nf++)
			for (int rep = 0; rep < 40; rep++) {
				char *p = s;
				if (rep % 4 == 1)
					*p++ = '-';
				digits(p, ni, rep % 5 != 2);
				p += ni;
				if (nf || rep % 3 == 0) {
					*p++ = '.';
					digits(p, nf, false);
					p += nf;
					if (rep % 7 == 3)
						memset(p - nf, '0', nf); /* 12.000: an integer for exact parses */
				}
				if (rep % 9 == 4)
					p += sprintf(p, "e-%u", rnd(330));
				*p = '\0';
				bad += decimal_case(s, &fast);
			}
	ok(bad == 0, "fast decimal: every run length 0-20 before and after the point, signs, exponents");
	bad = 0;
	for (long i = 0; i < 600000; i++) {
		random_string(s, i);
		bad += decimal_case(s, &fast);
	}
	ok(bad == 0, "fast decimal: random, halfway and printed decimals, same length and bits (%d differ)", bad);
	ok(fast > 200000, "fast decimal: the fast path took %ld of them", fast);
}

/* The nanosecond code of a phase: a decimal of at most nine fraction digits parses to
 * code / 1e9 bit for bit (what scan_member_value and rank_set_nano rely on). */
static void test_nano_codes(void)
{
	int bad = 0;
	char s[40];
	for (long i = 0; i < 400000; i++) {
		uint32_t code = i < 2000 ? (uint32_t)i : i < 4000 ? UINT32_MAX - (uint32_t)(i - 2000) : (uint32_t)rnd64();
		unsigned nf = 9;
		uint32_t c = code;
		int len = sprintf(s, "%u.%09u", c / 1000000000u, c % 1000000000u);
		while (rnd(2) && nf > 1 && s[len - 1] == '0') { /* shortest forms: 0.0311004 */
			s[--len] = '\0';
			nf--;
		}
		double want;
		bad += !json_parse_double(s, (size_t)len, &want) || !same_bits(want, (double)code / 1e9);
	}
	ok(bad == 0, "a decimal of <= 9 fraction digits is code / 1e9 bit for bit (%d differ)", bad);
}

int main(void)
{
	test_table();
	test_digits8();
	test_edges();
	test_random();
	test_decimal_fast();
	test_nano_codes();
	return tap_done();
}
