/* SPDX-License-Identifier: MIT */
/* draw.c: sanitized, clipped drawing on stdscr (see draw.h). */
#include "ui/draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"

static unsigned tflags;
static const struct glyphs *gl;
static const char *needle;   /* draw_mark: highlighted in every text drawn */

void draw_init(unsigned text_flags, const struct glyphs *g)
{
	tflags = text_flags;
	gl = g;
}

static int clip(const char *s, int w, char *out, size_t outn)
{
	char safe[1024];
	text_sanitize(s, strlen(s), safe, sizeof(safe), tflags);
	return text_clip(safe, w, out, outn, true, tflags);
}

void draw_mark(const char *s)
{
	needle = s && *s ? s : NULL;
}

/* Repaint every occurrence of the needle in out (as drawn at (y, x)) in ROLE_MATCH.
 * Positions are found in the clipped, sanitized text, so they are where it shows. */
static void mark(int y, int x, const char *out)
{
	size_t nl = needle ? strlen(needle) : 0;
	for (const char *m = nl ? strcasestr(out, needle) : NULL; m; m = strcasestr(m + nl, needle)) {
		char pre[1024], hit[1024];
		snprintf(pre, sizeof(pre), "%.*s", (int)(m - out), out);
		snprintf(hit, sizeof(hit), "%.*s", (int)nl, m);
		attrset(theme_attr(ROLE_MATCH));
		mvaddstr(y, x + text_width(pre), hit);
	}
	attrset(A_NORMAL);
}

static int put(int y, int x, int w, const char *s, enum role r, bool right)
{
	if (w <= 0 || !s)
		return 0;
	char out[1024];
	int used = clip(s, w, out, sizeof(out));
	if (right)
		x += w - used;
	attrset(theme_attr(r));
	mvaddstr(y, x, out);
	attrset(A_NORMAL);
	if (needle)
		mark(y, x, out);
	return used;
}

int draw_text(int y, int x, int w, const char *s, enum role r)
{
	return put(y, x, w, s, r, false);
}

int draw_text_right(int y, int x, int w, const char *s, enum role r)
{
	return put(y, x, w, s, r, true);
}

int draw_fmt(int y, int x, int w, enum role r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(y, x, w, buf, r);
}

void draw_repeat(int y, int x, int w, const char *glyph, enum role r)
{
	if (w <= 0)
		return;
	attrset(theme_attr(r));
	move(y, x);
	for (int i = 0; i < w; i++)
		addstr(glyph);
	attrset(A_NORMAL);
}

void draw_fill(int y, int x, int w, int k)
{
	if (w <= 0)
		return;
	if (theme_tier() == TIER_MONO) {
		draw_repeat(y, x, w, gl->fill[k % GLYPH_FILLS], theme_phase(k));
		return;
	}
	attrset(theme_attr(theme_phase(k)) | A_REVERSE);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void draw_bar(int y, int x, int w, double frac, enum role r)
{
	if (w <= 0)
		return;
	int eighths = (int)text_bar_cells(frac, (long)w * 8);
	int full = eighths / 8, rem = eighths % 8;
	draw_repeat(y, x, full, gl->eighth[8], r);
	if (rem && full < w && *gl->eighth[rem]) {
		attrset(theme_attr(r));
		mvaddstr(y, x + full, gl->eighth[rem]);
		attrset(A_NORMAL);
	}
}

static int wrap(const struct rect *r, int row, const char *s, enum role role, bool draw)
{
	char *safe = text_sanitize_dup(s, tflags);
	const char *p = safe;
	int used = 0;
	while (*p && row + used < r->h) {
		/* take as many whole words as fit in r->w columns */
		const char *end = p, *brk = NULL;
		int w = 0;
		while (*end && *end != '\n') {
			uint32_t cp;
			int k = text_utf8_decode(end, strlen(end), &cp);
			if (w + 1 > r->w)
				break;
			if (*end == ' ')
				brk = end;
			w++;
			end += k;
		}
		if (*end && *end != '\n' && brk && brk > p)
			end = brk;
		/* the last row when text remains: the rest, clipped with the ellipsis */
		if (row + used == r->h - 1 && *end && *end != '\n')
			end = p + strcspn(p, "\n");
		char line[1024];
		size_t len = (size_t)(end - p) < sizeof(line) - 1 ? (size_t)(end - p) : sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (draw && row + used >= 0)   /* rows above r are scrolled off */
			draw_text(r->y + row + used, r->x, r->w, line, role);
		used++;
		p = end;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	free(safe);
	return used;
}

void draw_clear_rect(const struct rect *r, enum role role)
{
	attrset(theme_attr(role));
	for (int i = 0; i < r->h; i++)
		mvhline(r->y + i, r->x, ' ', r->w);
	attrset(A_NORMAL);
}

int draw_wrap(const struct rect *r, int row, const char *s, enum role role)
{
	return wrap(r, row, s, role, true);
}

int draw_wrap_count(int w, const char *s)
{
	struct rect r = { 0, 0, 1 << 20, w };
	return wrap(&r, 0, s, ROLE_NORMAL, false);
}

/* A field wider than w is clipped as usual (contract in draw.h). */
void draw_fit_fields(char *buf, size_t n, int w, const char *ellipsis)
{
	if (text_width(buf) <= w)
		return;
	int ew = text_width(ellipsis) + 2;
	char *cut = NULL;
	for (char *s = strstr(buf, "  "); s; s = strstr(s + 1, "  ")) {
		char c = *s;
		*s = '\0';
		bool fits = text_width(buf) + ew <= w;
		*s = c;
		if (!fits)
			break;
		cut = s;
	}
	if (cut)
		snprintf(cut, n - (size_t)(cut - buf), "  %s", ellipsis);
}
