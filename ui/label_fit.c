/* SPDX-License-Identifier: MIT */
/* label_fit.c: names fitted to a width, clipped apart from the others shown with them
 * (see label_fit.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/label_fit.h"

/* A clipped name keeps its text from a little before where it differs from the others:
 * from a word's start (letters, digits, any non-ASCII character) within LF_WORD_CHARS
 * characters before it ("…13:44321", not "…1"); it keeps its start as well when at least
 * LF_HEAD_MIN columns are left for it. Tighter, it keeps every place where it differs
 * from one of the others when they fit ("…10.hpc…", "…00.hpc…": not "…0.hpc…" for both),
 * else its last columns when it differs near its end ("…ode-0010", not "…0"). */
enum { LF_WORD_CHARS = 8, LF_HEAD_MIN = 4 };

static bool continuation(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

static bool word_char(char c)
{
	return (unsigned char)c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The byte where names[i] stops sharing its start with the other names: the longest
 * prefix it shares with one that differs, or with first the shortest ("node0010" shares
 * "node001" with "node0011", "node00" with "node0000"); 0 when no name differs. */
static size_t differ_at(char *const *names, size_t n, size_t i, bool first)
{
	const char *s = names[i];
	size_t k = first ? SIZE_MAX : 0;
	for (size_t j = 0; j < n; j++) {
		if (j == i || !names[j] || strcmp(names[j], s) == 0)
			continue;
		size_t c = 0;
		while (s[c] && s[c] == names[j][c])
			c++;
		k = (first ? c < k : c > k) ? c : k;
	}
	k = k == SIZE_MAX ? 0 : k;
	while (k > 0 && continuation(s[k]))
		k--;
	return k;
}

/* Where the kept part of s starts for a difference at byte d: the first word start
 * within LF_WORD_CHARS characters before d ("13:44321", "node0003.hpc…"), else d. */
static size_t keep_from(const char *s, size_t d)
{
	size_t b = d;
	for (int back = 0; b > 0 && back < LF_WORD_CHARS; back++) {
		b--;
		while (b > 0 && continuation(s[b]))
			b--;
	}
	for (size_t k = b > 0 ? b : 1; k < d; k++)
		if (word_char(s[k]) && !word_char(s[k - 1]))
			return k;
	return d;
}

/* Where the last cols columns of s start, at a character boundary at or before d (s + d
 * fits in cols). */
static size_t tail_from(const char *s, size_t d, int cols)
{
	size_t b = d;
	for (int w = text_width(s + d); b > 0;) {
		size_t p = b - 1;
		while (p > 0 && continuation(s[p]))
			p--;
		char ch[8] = "";   /* the character before b */
		memcpy(ch, s + p, b - p < sizeof(ch) - 1 ? b - p : sizeof(ch) - 1);
		if ((w += text_width(ch)) > cols)
			break;
		b = p;
	}
	return b;
}

/* Bytes of a clipped text before its ellipsis. */
static size_t head_len(const char *out, unsigned flags)
{
	return strlen(out) - strlen((flags & TEXT_ASCII) ? "~" : "\u2026");
}

/* out: s from byte a in cols columns (clipped with an ellipsis); does it show the byte d? */
static bool clip_from(const char *s, size_t a, size_t d, int cols, char *out, size_t n, unsigned flags)
{
	text_clip(s + a, cols, out, n, true, flags);
	return text_width(s + a) <= cols || head_len(out, flags) > d - a;
}

char *label_fit(char *const *names, size_t n, size_t i, int w, unsigned flags)
{
	const char *s = names[i], *ell = (flags & TEXT_ASCII) ? "~" : "\u2026";
	size_t sz = strlen(s) + 8;
	char *out = xmalloc(sz);
	text_clip(s, w, out, sz, true, flags);
	if (text_width(s) <= w || w < LF_HEAD_MIN + 2)
		return out;
	size_t d = differ_at(names, n, i, false);
	if (head_len(out, flags) > d)   /* the end's clip shows where it differs */
		return out;
	size_t keep = keep_from(s, d);
	int tw = text_width(s + keep);
	if (tw + 1 + LF_HEAD_MIN <= w) {   /* "head…tail" */
		text_clip(s, w - tw, out, sz, true, flags);
		text_appendf(out, sz, "%s", s + keep);
		return out;
	}
	size_t lo = differ_at(names, n, i, true), k = (size_t)snprintf(out, sz, "%s", ell);   /* "…tail…" */
	if (lo < keep && clip_from(s, lo, d, w - 1, out + k, sz - k, flags))   /* every place it differs */
		return out;
	if (clip_from(s, keep, d, w - 1, out + k, sz - k, flags) || keep == d)
		return out;
	if (text_width(s + d) <= w - 1)   /* it differs near its end: its last columns ("…ode-0010", not "…0") */
		snprintf(out + k, sz - k, "%s", s + tail_from(s, d, w - 1));
	else   /* from d itself */
		text_clip(s + d, w - 1, out + k, sz - k, true, flags);
	return out;
}
