/* SPDX-License-Identifier: MIT */
/* glyph.c: the UTF-8 and ASCII glyph sets (see glyph.h). */
#include "ui/glyph.h"

#include <strings.h>
#include <string.h>

static const struct glyphs utf8_set = {
	.utf8 = true,
	.heat = { " ", ".", ":", ";", "\u2584", "\u2585", "\u2586", "\u2588" },
	.missing = "\u00b7",
	.eighth = { "", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589", "\u2588" },
	.spark = { "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" },
	.fill = { "\u2588", "\u2593", "\u2592", "\u2591", "\u2586", "\u2583" },
	.hline = "\u2500", .vline = "\u2502", .mark = "\u25b2", .ellipsis = "\u2026",
	.pointer = "\u25b6", .asc = "\u25b2", .desc = "\u25bc",
	.closed = "\u25b8", .opened = "\u25be",
};

static const struct glyphs ascii_set = {
	.utf8 = false,
	.heat = { " ", ".", ":", ";", "=", "o", "*", "#" },
	.missing = "?",
	.eighth = { "", "", "", "", "", "", "", "", "#" },
	.spark = { "_", ".", "-", "-", "=", "+", "*", "#" },
	.fill = { "#", "=", "+", "-", "o", "." },
	.hline = "-", .vline = "|", .mark = "^", .ellipsis = "~",
	.pointer = ">", .asc = "^", .desc = "v",
	.closed = "+", .opened = "-",
};

const struct glyphs *glyph_utf8(void)
{
	return &utf8_set;
}

const struct glyphs *glyph_ascii(void)
{
	return &ascii_set;
}

const struct glyphs *glyph_pick(bool force_ascii, const char *codeset, const char *term)
{
	if (force_ascii || !codeset)
		return &ascii_set;
	if (strcasecmp(codeset, "UTF-8") != 0 && strcasecmp(codeset, "utf8") != 0)
		return &ascii_set;
	if (term && strcmp(term, "linux") == 0)
		return &ascii_set;
	return &utf8_set;
}
