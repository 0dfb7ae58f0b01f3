/* SPDX-License-Identifier: MIT */
/* text.c: sanitizer and UTF-8 width helpers (see text.h). */
#include "model/text.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "model/xalloc.h"

int text_utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	int len;
	uint32_t v, min;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2; v = c & 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; v = c & 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if ((size_t)len > n) {
		*cp = 0xFFFD;
		return 1;
	}
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = v;
	return len;
}

/* Format characters that draw nothing (or reorder text): the bidi controls, zero-width
 * and invisible operators, deprecated format controls, annotations and tags. */
static bool is_invisible(uint32_t cp)
{
	return cp == 0x00AD || cp == 0x061C || cp == 0x180E || (cp >= 0x200B && cp <= 0x200F) ||
	       (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x2066 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
	       (cp >= 0xE0000 && cp <= 0xE007F);
}

/* ASCII stand-ins (TEXT_ASCII) for the typography of the program's own texts and the
 * commonest in data: "MFU is 3% - 97% ..." on a LANG=C terminal, not "3% ? 97%". By code
 * point. */
static const struct {
	uint32_t cp;
	const char *ascii;
} ascii_of[] = {
	{ 0x00A0, " " },   { 0x00B2, "^2" },  { 0x00B5, "u" },   { 0x00B7, "-" },  { 0x00D7, "x" },
	{ 0x0394, "d" },   { 0x03A3, "sum" }, { 0x03BC, "u" },   { 0x2013, "-" },  { 0x2014, "-" },
	{ 0x2018, "'" },   { 0x2019, "'" },   { 0x201C, "\"" },  { 0x201D, "\"" }, { 0x2022, "*" },
	{ 0x2026, "..." }, { 0x2190, "<-" },  { 0x2192, "->" },  { 0x2212, "-" },  { 0x2248, "~" },
	{ 0x2264, "<=" },  { 0x2265, ">=" },  { 0x2500, "-" },   { 0x2502, "|" },  { 0x2514, "+" },
	/* sparkline heights as the explorer draws them in ASCII (ui/glyph.c), bar cells as the
	 * trace views do (model/trace/views.c) */
	{ 0x2581, "_" },   { 0x2582, "." },   { 0x2583, "-" },   { 0x2584, "-" },  { 0x2585, "=" },
	{ 0x2586, "+" },   { 0x2587, "*" },   { 0x2588, "#" },   { 0x2591, "." },  { 0x2592, "=" },
	{ 0x25CB, "o" },   { 0x25CF, "*" },   { 0x2715, "x" },
};

static const char *ascii_stand_in(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(ascii_of) / sizeof(ascii_of[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ascii_of[mid].cp == cp)
			return ascii_of[mid].ascii;
		if (ascii_of[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return "?";
}

/* Replacement text for one code point, or NULL when it passes through unchanged. */
static const char *replacement(uint32_t cp, bool invalid, unsigned flags, char buf[16])
{
	if (invalid)
		return (flags & TEXT_ASCII) ? "?" : "\xEF\xBF\xBD";
	if (cp < 0x20) {
		buf[0] = '^';
		buf[1] = (char)(cp + 0x40);
		buf[2] = '\0';
		return buf;
	}
	if (cp == 0x7F)
		return "^?";
	if (cp >= 0x80 && cp <= 0x9F) {
		snprintf(buf, 16, "\\x%02x", (unsigned)cp);
		return buf;
	}
	if (is_invisible(cp)) {
		snprintf(buf, 16, "<U+%04X>", (unsigned)cp);
		return buf;
	}
	if (cp >= 0x80 && (flags & TEXT_ASCII))
		return ascii_stand_in(cp);
	return NULL;
}

bool text_is_clean(const char *s, size_t len, unsigned flags)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if (c < 0x80 || (flags & TEXT_ASCII))
			return false;
		uint32_t cp;
		int k = text_utf8_decode(s + i, len - i, &cp);
		char buf[16];
		if (replacement(cp, cp == 0xFFFD && k == 1, flags, buf))
			return false;
		i += (size_t)k;
	}
	return true;
}

size_t text_sanitize(const char *in, size_t len, char *out, size_t outsz, unsigned flags)
{
	size_t o = 0;
	if (!outsz)
		return 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int k = text_utf8_decode(in + i, len - i, &cp);
		bool invalid = cp == 0xFFFD && k == 1 && (unsigned char)in[i] >= 0x80;
		char buf[16];
		const char *rep = replacement(cp, invalid, flags, buf);
		const char *src = rep ? rep : in + i;
		size_t n = rep ? strlen(rep) : (size_t)k;
		if (o + n + 1 > outsz)
			break;
		memcpy(out + o, src, n);
		o += n;
		i += (size_t)k;
	}
	out[o] = '\0';
	return o;
}

char *text_sanitize_dup(const char *s, unsigned flags)
{
	if (!s)
		return xstrdup("");
	size_t len = strlen(s);
	if (text_is_clean(s, len, flags))
		return xstrndup(s, len);
	size_t cap = len * 8 + 1; /* worst case: each byte becomes "<U+XXXX>" (8 bytes) */
	char *out = xmalloc(cap);
	text_sanitize(s, len, out, cap, flags);
	return out;
}

/* A byte a POSIX shell reads as part of a word, unquoted: letters, digits, any byte of a
 * non-ASCII character, and _ - . / , : @ % + = (Python's shlex.quote, UTF-8 kept). */
static bool shell_plain_byte(unsigned char c)
{
	return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-./,:@%+=", c));
}

/* word as it is, or in single quotes with each ' as '\'' (malloc'd). */
static char *single_quoted(const char *word)
{
	size_t n = 0, quotes = 0;
	bool plain = word[0] != '\0';
	for (; word[n]; n++) {
		plain &= shell_plain_byte((unsigned char)word[n]);
		quotes += word[n] == '\'';
	}
	if (plain)
		return xstrdup(word);
	char *out = xmalloc(n + quotes * 3 + 3), *o = out;
	*o++ = '\'';
	for (const char *p = word; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);   /* close the quotes, a quoted ', open them again */
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

static bool is_hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* word as $'...' in ASCII (malloc'd): printable ASCII as it is but ' and \ escaped, TAB,
 * LF and CR as \t \n \r, every other byte as \xHH, and a hex digit right after a \xHH as
 * \xHH too (POSIX leaves a third digit's meaning unspecified). Bytes, never \u: bash
 * reads \u as the locale's character, and the word must be the same bytes in any locale. */
static char *dollar_quoted(const char *word)
{
	char *out = xmalloc(strlen(word) * 4 + 4), *o = out;
	bool after_hex = false;
	*o++ = '$';
	*o++ = '\'';
	for (const unsigned char *p = (const unsigned char *)word; *p; p++) {
		const char *named = *p == '\t' ? "\\t" : *p == '\n' ? "\\n" : *p == '\r' ? "\\r" :
				    *p == '\'' ? "\\'" : *p == '\\' ? "\\\\" : NULL;
		bool raw = !named && *p >= 0x20 && *p < 0x7F && !(after_hex && is_hex_digit(*p));
		if (named)
			o += sprintf(o, "%s", named);
		else if (raw)
			*o++ = (char)*p;
		else
			o += sprintf(o, "\\x%02x", *p);
		after_hex = !named && !raw;
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *text_shell_arg_dup(const char *s)
{
	const char *arg = s ? s : "";
	return text_is_clean(arg, strlen(arg), 0) ? single_quoted(arg) : dollar_quoted(arg);
}

char *text_shell_word_dup(const char *s)
{
	const char *path = s ? s : "";
	char *word = xasprintf("%s%s", path[0] == '-' ? "./" : "", path); /* -x would read as an option */
	char *out = text_shell_arg_dup(word);
	free(word);
	return out;
}

bool text_locale_utf8(void)
{
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

char *text_ascii_dup(const char *s, size_t len, size_t *out_len)
{
	size_t cap = len * 2 + 1, o = 0; /* the most a stand-in grows: "sum" for 2 bytes */
	char *out = xmalloc(cap);
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		uint32_t cp;
		int k = text_utf8_decode(s + i, len - i, &cp);
		const char *rep = cp == 0xFFFD && k == 1 ? "?" : ascii_stand_in(cp);
		size_t n = strlen(rep);
		memcpy(out + o, rep, n);
		o += n;
		i += (size_t)k;
	}
	out[o] = '\0';
	*out_len = o;
	return out;
}

size_t text_codepoints(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

static int cp_width(uint32_t cp)
{
	if (cp < 0x80)
		return 1;
	int w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w;
}

int text_width(const char *s)
{
	int w = 0;
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		i += (size_t)text_utf8_decode(s + i, len - i, &cp);
		w += cp_width(cp);
	}
	return w;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The length of out[0, o) without a trailing number (digits, with '.' or ',' between
 * them), *w less its columns; o when the number is all there is. */
static size_t unnumber_tail(const char *out, size_t o, int *w)
{
	size_t b = o;
	while (b > 0 && (is_digit(out[b - 1]) || (b > 1 && strchr(".,", out[b - 1]) && is_digit(out[b - 2]))))
		b--;
	if (b == 0)
		return o;
	*w -= (int)(o - b);
	return b;
}

int text_clip(const char *s, int cols, char *out, size_t outsz, bool ellipsis, unsigned flags)
{
	size_t len = strlen(s);
	size_t o = 0;
	int w = 0;
	if (!outsz)
		return 0;
	out[0] = '\0';
	if (cols <= 0)
		return 0;
	bool clipped = text_width(s) > cols;
	int budget = clipped && ellipsis ? cols - 1 : cols;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int k = text_utf8_decode(s + i, len - i, &cp);
		int cw = cp_width(cp);
		if (w + cw > budget || o + (size_t)k + 4 > outsz)
			break;
		memcpy(out + o, s + i, (size_t)k);
		o += (size_t)k;
		w += cw;
		i += (size_t)k;
	}
	if (clipped && ellipsis)
		o = unnumber_tail(out, o, &w);
	if (clipped && ellipsis && o + 4 <= outsz) {
		const char *e = (flags & TEXT_ASCII) ? "~" : "\xE2\x80\xA6";
		memcpy(out + o, e, strlen(e));
		o += strlen(e);
		w++;
	}
	out[o] = '\0';
	return w;
}

long text_bar_cells(double frac, long cells)
{
	if (!(frac > 0)) /* also NaN */
		return 0;
	if (frac >= 1)
		return cells;
	return (long)rint(frac * (double)cells);
}

double text_frac(double v, double lo, double hi)
{
	if (!(hi > lo) || !(v > lo))
		return 0;
	if (v >= hi)
		return 1;
	double f = (v / 2 - lo / 2) / (hi / 2 - lo / 2); /* halves: no overflow to inf */
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

bool text_flat(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) && hi / 2 - lo / 2 <= TEXT_FLAT_REL / 2 * fmax(fabs(lo), fabs(hi));
}

void text_vappendf(char *buf, size_t n, const char *fmt, va_list ap)
{
	size_t used = strnlen(buf, n);
	if (used + 1 < n)
		vsnprintf(buf + used, n - used, fmt, ap);
}

void text_appendf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vappendf(buf, n, fmt, ap);
	va_end(ap);
}

bool text_same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

int text_cmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool text_utf8_bom(const char *s, size_t len)
{
	return len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0;
}
