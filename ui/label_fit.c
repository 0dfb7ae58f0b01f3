/* SPDX-License-Identifier: MIT */
/* label_fit.c: names fitted to a width, clipped apart from the others shown with them
 * (see label_fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/label_fit.h"

/* A clipped name keeps its text from a little before where it differs from the others:
 * from a word's start (letters, digits, any non-ASCII character) within LF_WORD_CHARS
 * characters before it ("…13:44321", not "…1"); it keeps its start as well when at least
 * LF_HEAD_MIN columns are left for it. */
enum { LF_WORD_CHARS = 8, LF_HEAD_MIN = 4 };

static bool continuation(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

static bool word_char(char c)
{
	return (unsigned char)c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The byte where names[i] stops sharing its start with the other names (the longest
 * prefix it shares with one that differs). */
static size_t differ_at(char *const *names, size_t n, size_t i)
{
	const char *s = names[i];
	size_t k = 0;
	for (size_t j = 0; j < n; j++) {
		if (j == i || !names[j] || strcmp(names[j], s) == 0)
			continue;
		size_t c = 0;
		while (s[c] && s[c] == names[j][c])
			c++;
		k = c > k ? c : k;
	}
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

/* Bytes of a clipped text before its ellipsis. */
static size_t head_len(const char *out, unsigned flags)
{
	return strlen(out) - strlen((flags & TEXT_ASCII) ? "~" : "\u2026");
}

char *label_fit(char *const *names, size_t n, size_t i, int w, unsigned flags)
{
	const char *s = names[i], *ell = (flags & TEXT_ASCII) ? "~" : "\u2026";
	size_t sz = strlen(s) + 8;
	char *out = xmalloc(sz);
	text_clip(s, w, out, sz, true, flags);
	if (text_width(s) <= w || w < LF_HEAD_MIN + 2)
		return out;
	size_t d = differ_at(names, n, i);
	if (head_len(out, flags) > d)   /* the end's clip shows where it differs */
		return out;
	size_t keep = keep_from(s, d);
	int tw = text_width(s + keep);
	if (tw + 1 + LF_HEAD_MIN <= w) {   /* "head…tail" */
		text_clip(s, w - tw, out, sz, true, flags);
		text_appendf(out, sz, "%s", s + keep);
		return out;
	}
	size_t k = (size_t)snprintf(out, sz, "%s", ell);   /* "…tail…", from d itself when tight */
	text_clip(s + keep, w - 1, out + k, sz - k, true, flags);
	if (keep < d && tw > w - 1 && head_len(out + k, flags) <= d - keep)
		text_clip(s + d, w - 1, out + k, sz - k, true, flags);
	return out;
}
