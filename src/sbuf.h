/* SPDX-License-Identifier: MIT */
/* sbuf.h: the report layer's ONE string builder and its SGR colour layer (pytscope's
 * _style): every --print section (src/print*.c) builds its text here.
 *
 * struct sbuf starts zeroed ({ 0 }); it owns b->s (NUL-terminated once anything was
 * added, NULL before). sb_take() hands the string over (never NULL) and resets b.
 * Colour: sb_style() wraps text in SGR codes only when color is on and the text is not
 * empty, so stripping the SGR codes gives the plain report byte for byte. Data strings
 * go through sb_safe()/sb_pad() (the one sanitizer, model/text.h). sb_pad() aligns by
 * display columns, but under --compat pytscope by code points (Python's len()). */
#ifndef SRC_SBUF_H
#define SRC_SBUF_H

#include <stdio.h>
#include "model/base.h"

struct print_opts;

/* The SGR codes the report uses. */
enum sgr {
	SGR_NONE = 0, SGR_BOLD = 1, SGR_DIM = 2, SGR_RED = 31, SGR_GREEN = 32, SGR_YELLOW = 33,
	SGR_MAGENTA = 35, SGR_CYAN = 36,
};

struct sbuf {
	char *s;
	size_t n, cap;
};

void sb_putn(struct sbuf *b, const char *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_printf(struct sbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* text in one or two SGR codes (c2 may be SGR_NONE); plain when !color, empty text or
 * c1 == SGR_NONE. */
void sb_style(struct sbuf *b, bool color, enum sgr c1, enum sgr c2, const char *text);
/* A section heading: "● TITLE" with the LED in `led` and the title bold (no newline). */
void sb_heading(struct sbuf *b, bool color, enum sgr led, const char *title);
/* A data string, sanitized; sb_pad also left-aligns it to width display columns of the
 * report po (in an ASCII report each character by its ASCII stand-in, so the columns are
 * those printed), or under po->compat to width code points, as pytscope pads (len()). */
void sb_safe(struct sbuf *b, const char *s);
void sb_pad(struct sbuf *b, const char *s, size_t width, const struct print_opts *po);
/* glyph n times */
void sb_repeat(struct sbuf *b, const char *glyph, long n);
/* The built string (malloc'd, "" when empty); b is reset. */
char *sb_take(struct sbuf *b);
/* Write text to f styled as sb_style does (for sections written straight to a FILE). */
void sgr_fputs(FILE *f, bool color, enum sgr code, const char *text);

#endif
