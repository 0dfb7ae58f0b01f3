/* SPDX-License-Identifier: MIT */
/* glyph.h: the two glyph sets (UTF-8 and ASCII) for heat cells, bars, sparklines,
 * boxes and markers. UTF-8 is used only when the locale's codeset is UTF-8, TERM is
 * not "linux" and --ascii is not given. Heat levels differ by glyph as well as colour,
 * so a mono terminal still shows the ramp. Every string is one display column. */
#ifndef UI_GLYPH_H
#define UI_GLYPH_H

#include "model/base.h"

enum { GLYPH_HEAT = 8, GLYPH_SPARK = 8, GLYPH_FILLS = 6 };

struct glyphs {
	bool utf8;
	/* level 0 (quiet) .. 7 (worst); levels 1-3 are the one-byte marks . : ; in both sets
	 * (the commonest non-quiet cells of a noisy run: 1 byte on the wire, a block 3). No
	 * level is a node's glyph (closed, opened) or the tables' missing "-": on the heatmap
	 * a glyph has one meaning */
	const char *heat[GLYPH_HEAT];
	const char *missing;            /* no value in the cell */
	const char *eighth[9];          /* horizontal bar remainders: 0/8 .. 8/8 */
	const char *spark[GLYPH_SPARK]; /* sparkline heights */
	const char *fill[GLYPH_FILLS];  /* stacked-bar fills, one per phase (distinct in mono) */
	const char *hline, *vline, *mark, *ellipsis, *pointer, *asc, *desc;
	const char *closed, *opened;     /* a node row that can expand / has expanded */
};

/* The set to use: ascii forced, or chosen from codeset and TERM. */
const struct glyphs *glyph_pick(bool force_ascii, const char *codeset, const char *term);
const struct glyphs *glyph_utf8(void);
const struct glyphs *glyph_ascii(void);

#endif
