/* SPDX-License-Identifier: MIT */
/* draw.h: clipped, width-aware drawing primitives on stdscr. Text goes through the
 * one sanitizer (model/text.h) with the UI's flags (TEXT_ASCII in ASCII mode) and is
 * clipped by display columns, never by bytes. */
#ifndef UI_DRAW_H
#define UI_DRAW_H

#include <curses.h>
#include "ui/glyph.h"
#include "ui/layout.h"
#include "ui/theme.h"

void draw_init(unsigned text_flags, const struct glyphs *g);
/* Highlight every occurrence of s (case-insensitive, as typed after `/`) in the text
 * drawn from now on, until draw_mark(NULL). The frame sets it around a pane's draw, so
 * the search highlight is the same in every pane (ui/search.h). s must stay valid. */
void draw_mark(const char *s);
/* Draw s (data or UI text) at (y, x) in at most w columns; returns columns used. */
int draw_text(int y, int x, int w, const char *s, enum role r);
/* Same, right-aligned in w columns. */
int draw_text_right(int y, int x, int w, const char *s, enum role r);
/* printf then draw_text. */
int draw_fmt(int y, int x, int w, enum role r, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Fill w columns with glyph (one column each). */
void draw_repeat(int y, int x, int w, const char *glyph, enum role r);
/* A run of w cells of phase/line k of a stacked bar: in colour tiers blanks on the
 * phase colour (reverse video: 1 byte a cell, runs compress), in mono the phase's own
 * fill glyph so phases stay distinct. */
void draw_fill(int y, int x, int w, int k);
/* Horizontal bar of frac (0..1) of w columns with eighth-block precision. */
void draw_bar(int y, int x, int w, double frac, enum role r);
/* Word-wrap s into r starting at row offset (rows before r's top, offset < 0, are
 * counted, not drawn); returns rows used. */
int draw_wrap(const struct rect *r, int row, const char *s, enum role role);
/* Rows draw_wrap would use for s in w columns. */
int draw_wrap_count(int w, const char *s);
/* Fill a rectangle with blanks in role. */
void draw_clear_rect(const struct rect *r, enum role role);
/* Fields separated by two spaces: when they do not all fit in w columns, end buf after
 * the last whole field that fits and add "  " + ellipsis, so a number is never cut. */
void draw_fit_fields(char *buf, size_t n, int w, const char *ellipsis);

#endif
