/* SPDX-License-Identifier: MIT */
/* pane_heatmap_label.c: the heatmap pane's row names: a line's name in full and
 * sanitized (the status row, y/Y), and names fitted to a width (the label column, the
 * note's range of rows). A name wider than its room is clipped at a character boundary
 * with an ellipsis, keeping the part where it differs from the other names shown (a
 * worker's port, a node's number), so two rows never read the same:
 * "worker-sdumont…13:44321", "…node0003.hpc.example.org". State and shared helpers:
 * ui/pane_heatmap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/pane_heatmap.h"

/* A clipped name keeps its text from a little before where it differs from the others:
 * from a word's start (letters, digits, any non-ASCII character) within HL_WORD_CHARS
 * characters before it ("…13:44321", not "…1"); it keeps its start as well when at least
 * HL_HEAD_MIN columns are left for it. */
enum { HL_WORD_CHARS = 8, HL_HEAD_MIN = 4 };

char *hm_row_name(const struct hpane *p, size_t row, unsigned flags)
{
	char *raw = grid_row_label_dup(&p->src, row);
	char *s = text_sanitize_dup(raw, flags);
	free(raw);
	return s;
}

/* A line's name, sanitized: a node's, else the row's label. */
static char *line_name(const struct hpane *p, size_t l, unsigned flags)
{
	if (!p->by_node || p->ol.row[l] >= 0)
		return hm_row_name(p, hm_line_row(p, l), flags);
	return text_sanitize_dup(p->ol.gs->name[p->ol.grp[l]], flags);
}

char *hm_lines_label(const struct hpane *p, size_t l0, size_t l1, unsigned flags)
{
	char *a = line_name(p, l0, flags);
	if (l1 - l0 <= 1)
		return a;
	char *b = line_name(p, l1 - 1, flags);
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s-%s", a, b);
	free(a);
	free(b);
	return s;
}

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
 * within HL_WORD_CHARS characters before d ("13:44321", "node0003.hpc…"), else d. */
static size_t keep_from(const char *s, size_t d)
{
	size_t b = d;
	for (int back = 0; b > 0 && back < HL_WORD_CHARS; back++) {
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

char *hm_fit_name(char *const *names, size_t n, size_t i, int w, unsigned flags)
{
	const char *s = names[i], *ell = (flags & TEXT_ASCII) ? "~" : "\u2026";
	size_t sz = strlen(s) + 8;
	char *out = xmalloc(sz);
	text_clip(s, w, out, sz, true, flags);
	if (text_width(s) <= w || w < HL_HEAD_MIN + 2)
		return out;
	size_t d = differ_at(names, n, i);
	if (head_len(out, flags) > d)   /* the end's clip shows where it differs */
		return out;
	size_t keep = keep_from(s, d);
	int tw = text_width(s + keep);
	if (tw + 1 + HL_HEAD_MIN <= w) {   /* "head…tail" */
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

/* Screen row y's label after its prefix: "first" or "first-last", in room columns. */
static void fit_row(char **names, size_t n, size_t y, int room, unsigned flags, char **lab)
{
	char *a = names[2 * y], *b = names[2 * y + 1], *fa, *fb = NULL;
	int wa = text_width(a);
	if (!b)
		fa = hm_fit_name(names, n, 2 * y, room, flags);
	else if (wa + 1 + text_width(b) <= room) {
		fa = xstrdup(a);
		fb = xstrdup(b);
	} else {   /* each half the room; a short first name leaves the rest to the last */
		fa = hm_fit_name(names, n, 2 * y, wa < (room - 1) / 2 ? wa : (room - 1) / 2, flags);
		fb = hm_fit_name(names, n, 2 * y + 1, room - 1 - text_width(fa), flags);
	}
	size_t sz = strlen(lab[y]) + strlen(fa) + (fb ? strlen(fb) : 0) + 2;
	char *s = xmalloc(sz);
	snprintf(s, sz, "%s%s%s%s", lab[y], fa, fb ? "-" : "", fb ? fb : "");
	free(fa);
	free(fb);
	free(lab[y]);
	lab[y] = s;
}

void hm_fit_labels(const struct hpane *p, size_t ny, int w, unsigned flags, char **lab)
{
	size_t n = 2 * ny;
	char **names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t y = 0; y < ny; y++) {
		size_t r0 = p->top + y * p->rpr, r1 = r0 + p->rpr < hm_nlines(p) ? r0 + p->rpr : hm_nlines(p);
		names[2 * y] = line_name(p, r0, flags);
		if (r1 - r0 > 1)
			names[2 * y + 1] = line_name(p, r1 - 1, flags);
	}
	for (size_t y = 0; y < ny; y++)
		fit_row(names, n, y, w - text_width(lab[y]), flags, lab);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
