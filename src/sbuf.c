/* SPDX-License-Identifier: MIT */
/* sbuf.c: the report's string builder and SGR layer (see sbuf.h). */
#include "src/sbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "src/print.h"

void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	xgrow((void **)&b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_puts(b, s);
	free(s);
}

void sb_style(struct sbuf *b, bool color, enum sgr c1, enum sgr c2, const char *text)
{
	if (!color || !*text || !c1)
		sb_puts(b, text);
	else if (c2)
		sb_printf(b, "\033[%d;%dm%s\033[0m", (int)c1, (int)c2, text);
	else
		sb_printf(b, "\033[%dm%s\033[0m", (int)c1, text);
}

void sb_heading(struct sbuf *b, bool color, enum sgr led, const char *title)
{
	sb_style(b, color, led, SGR_NONE, "●");
	sb_puts(b, " ");
	sb_style(b, color, SGR_BOLD, SGR_NONE, title);
}

void sb_safe(struct sbuf *b, const char *s)
{
	char *safe = text_sanitize_dup(s, 0);
	sb_puts(b, safe);
	free(safe);
}

void sb_pad(struct sbuf *b, const char *s, size_t width, const struct print_opts *po)
{
	char *safe = text_sanitize_dup(s, po->ascii ? TEXT_ASCII : 0);
	sb_puts(b, safe);
	for (size_t n = po->compat ? text_codepoints(safe) : (size_t)text_width(safe); n < width; n++)
		sb_putn(b, " ", 1);
	free(safe);
}

void sb_repeat(struct sbuf *b, const char *glyph, long n)
{
	for (long i = 0; i < n; i++)
		sb_puts(b, glyph);
}

char *sb_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	*b = (struct sbuf){ 0 };
	return s;
}

void sgr_fputs(FILE *f, bool color, enum sgr code, const char *text)
{
	if (color && code && *text)
		fprintf(f, "\033[%dm%s\033[0m", (int)code, text);
	else
		fputs(text, f);
}
