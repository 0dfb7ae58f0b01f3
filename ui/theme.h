/* SPDX-License-Identifier: MIT */
/* theme.h: colours are semantic roles. Each role has a column per terminal tier:
 * 256 colours (fg, bg), 8 colours (fg, bg) plus attributes, and mono (bold, reverse,
 * underline only). The tier is chosen once by theme_init() from has_colors(), COLORS,
 * NO_COLOR and --color; everything draws through theme_attr(role). Heat is also
 * encoded by glyph (ui/glyph.h), so the heatmap reads in mono. In mono the tones stay
 * apart: ROLE_GOOD plain (as ROLE_NORMAL), ROLE_SEV_MED underlined, ROLE_SEV_HIGH bold;
 * and in the heatmap's cells only the cursor is reversed (level 7 is bold: a reversed
 * full block would look blank), ROLE_CURSOR_FASTER, the cursor on a cell faster in B,
 * keeping ROLE_FASTER's underline. */
#ifndef UI_THEME_H
#define UI_THEME_H

#include <curses.h>
#include "model/opts.h"

/* X(role, fg256, bg256, fg8, bg8, attr in colour tiers, attr in mono); -1 = default. */
#define THEME_ROLES(X) \
	X(ROLE_NORMAL,     -1,  -1, -1,            -1,          0,        0) \
	X(ROLE_TITLE,     231,  24, COLOR_WHITE,   COLOR_BLUE,  A_BOLD,   A_REVERSE) \
	X(ROLE_TAB,       231,  24, COLOR_WHITE,   COLOR_BLUE,  0,        A_REVERSE) \
	X(ROLE_TAB_ACTIVE, 16, 214, COLOR_BLACK,   COLOR_YELLOW, A_BOLD,  A_BOLD) \
	X(ROLE_STATUS,    252, 237, COLOR_BLACK,   COLOR_WHITE, 0,        A_REVERSE) \
	X(ROLE_HINT,      245,  -1, -1,            -1,          A_DIM,    0) \
	X(ROLE_HEADER,     81,  -1, COLOR_CYAN,    -1,          A_BOLD,   A_BOLD | A_UNDERLINE) \
	X(ROLE_SORTED,    214,  -1, COLOR_YELLOW,  -1,          A_BOLD,   A_BOLD | A_UNDERLINE) \
	X(ROLE_SELECTED,   -1,  -1, -1,            -1,          A_REVERSE, A_REVERSE) \
	X(ROLE_DIM,       244,  -1, -1,            -1,          A_DIM,    0) \
	X(ROLE_SEV_HIGH,  196,  -1, COLOR_RED,     -1,          A_BOLD,   A_BOLD) \
	X(ROLE_SEV_MED,   214,  -1, COLOR_YELLOW,  -1,          0,        A_UNDERLINE) \
	X(ROLE_SEV_LOW,    75,  -1, COLOR_CYAN,    -1,          0,        0) \
	X(ROLE_HEAT_MILD,   3,  -1, COLOR_YELLOW,  -1,          0,        0) \
	X(ROLE_AXIS,      244,  -1, -1,            -1,          0,        0) \
	X(ROLE_HEAT_HIGH,   1,  -1, COLOR_RED,     -1,          0,        A_BOLD) \
	X(ROLE_HEAT_WORST, 13,  -1, COLOR_MAGENTA, -1,          0,        A_BOLD) \
	X(ROLE_MISSING,   238,  -1, -1,            -1,          A_DIM,    0) \
	X(ROLE_MARK,      201,  -1, COLOR_MAGENTA, -1,          A_BOLD,   A_BOLD | A_UNDERLINE) \
	X(ROLE_CURSOR,     -1,  -1, -1,            -1,          A_REVERSE, A_REVERSE) \
	X(ROLE_PHASE_0,    75,  -1, COLOR_BLUE,    -1,          0,        0) \
	X(ROLE_PHASE_1,   114,  -1, COLOR_GREEN,   -1,          0,        A_BOLD) \
	X(ROLE_PHASE_2,   179,  -1, COLOR_YELLOW,  -1,          0,        0) \
	X(ROLE_PHASE_3,   176,  -1, COLOR_MAGENTA, -1,          0,        A_BOLD) \
	X(ROLE_PHASE_4,   209,  -1, COLOR_RED,     -1,          0,        0) \
	X(ROLE_PHASE_5,   250,  -1, COLOR_WHITE,   -1,          0,        A_BOLD) \
	X(ROLE_BAR,        75,  -1, COLOR_BLUE,    -1,          0,        0) \
	X(ROLE_RECOVER,   208,  -1, COLOR_RED,     -1,          A_BOLD,   A_BOLD) \
	X(ROLE_GOOD,      114,  -1, COLOR_GREEN,   -1,          0,        0) \
	X(ROLE_ERROR,     196,  -1, COLOR_RED,     -1,          A_BOLD,   A_BOLD | A_REVERSE) \
	X(ROLE_ACCENT,     81,  -1, COLOR_CYAN,    -1,          A_BOLD,   A_BOLD) \
	X(ROLE_MATCH,      16, 226, COLOR_BLACK,   COLOR_YELLOW, A_BOLD,  A_BOLD | A_UNDERLINE) \
	X(ROLE_FASTER,     39,  -1, COLOR_BLUE,    -1,          0,        A_UNDERLINE) \
	X(ROLE_CURSOR_FASTER, -1, -1, -1,          -1,          A_REVERSE, A_REVERSE | A_UNDERLINE)

enum role {
#define X(r, f256, b256, f8, b8, a, m) r,
	THEME_ROLES(X)
#undef X
	ROLE_COUNT
};

enum { THEME_HEAT_LEVELS = 8, THEME_PHASES = 6 };

enum theme_tier { TIER_MONO, TIER_8, TIER_256 };

/* Pick the tier (after curses started) and set up colour pairs. */
enum theme_tier theme_init(enum color_mode mode);
/* Tier chosen from the inputs alone (pure; unit-tested). */
enum theme_tier theme_pick(enum color_mode mode, bool has_colors, int colors, bool no_color_env);
enum theme_tier theme_tier(void);
attr_t theme_attr(enum role r);
/* Heat role for level 0..THEME_HEAT_LEVELS-1 (< 0: missing): level 0 (quiet) is plain;
 * levels 1-7 come in three colour bands, 1-5 (mild), 6 and 7 (the glyph tells the level
 * within a band), so the common levels share one attribute and a noisy row costs a
 * colour change only around its hot cells. The bands use the 16 basic colours without
 * bold in both colour tiers: their SGR is 5 bytes, a 256-colour one 11, and leaving
 * bold costs a full reset and the colour again. Phase role for phase index (wraps).
 * ROLE_AXIS: the heatmap's row and column labels, grey without A_DIM for the same
 * reason (one label a row). */
enum role theme_heat(int level);
/* True when a blank drawn in role r looks like a plain blank (no background of its own,
 * no reverse or underline): a quiet cell can then keep its neighbour's attribute. */
bool theme_blank_plain(enum role r);
enum role theme_phase(int i);

#endif
