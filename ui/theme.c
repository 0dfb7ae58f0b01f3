/* SPDX-License-Identifier: MIT */
/* theme.c: the colour tier and role attributes (see theme.h). */
#include "ui/theme.h"

#include <stdlib.h>

struct role_def {
	short fg256, bg256, fg8, bg8;
	attr_t attr, mono;
};

static const struct role_def roles[] = {
#define X(r, f256, b256, f8, b8, a, m) [r] = { f256, b256, f8, b8, a, m },
	THEME_ROLES(X)
#undef X
};

static enum theme_tier tier = TIER_MONO;
static attr_t attrs[ROLE_COUNT];

enum theme_tier theme_pick(enum color_mode mode, bool has_colors, int colors, bool no_color_env)
{
	if (!has_colors || colors < 8 || mode == COLOR_NEVER)
		return TIER_MONO;
	if (no_color_env && mode == COLOR_AUTO)
		return TIER_MONO;
	if (mode == COLOR_8)
		return TIER_8;
	return colors >= 256 ? TIER_256 : TIER_8;
}

enum theme_tier theme_init(enum color_mode mode)
{
	const char *nc = getenv("NO_COLOR");
	bool no_color = nc && *nc;
	bool hc = has_colors();
	/* COLORS is only known after start_color(). Mono by choice never starts colour:
	 * start_color() alone paints every cell white on black (SGR 37;40), where mono
	 * must keep the terminal's own default colours (a light theme stays light). */
	if (theme_pick(mode, hc, 256, no_color) == TIER_MONO)
		hc = false;
	if (hc && start_color() != OK)
		hc = false;
	tier = theme_pick(mode, hc, hc ? COLORS : 0, no_color);
	bool defaults = hc && use_default_colors() == OK;
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_def *d = &roles[r];
		if (tier == TIER_MONO) {
			attrs[r] = d->mono;
			continue;
		}
		short fg = tier == TIER_256 ? d->fg256 : d->fg8;
		short bg = tier == TIER_256 ? d->bg256 : d->bg8;
		if (!defaults) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		if (r + 1 < COLOR_PAIRS && (fg >= 0 || bg >= 0)) {
			init_pair((short)(r + 1), fg, bg);
			attrs[r] = COLOR_PAIR(r + 1) | d->attr;
		} else {
			attrs[r] = d->attr;
		}
	}
	return tier;
}

enum theme_tier theme_tier(void)
{
	return tier;
}

attr_t theme_attr(enum role r)
{
	return r < ROLE_COUNT ? attrs[r] : 0;
}

enum role theme_heat(int level)
{
	static const enum role band[THEME_HEAT_LEVELS] = {
		ROLE_NORMAL, ROLE_HEAT_MILD, ROLE_HEAT_MILD, ROLE_HEAT_MILD, ROLE_HEAT_MILD,
		ROLE_HEAT_MILD, ROLE_HEAT_HIGH, ROLE_HEAT_WORST,
	};
	if (level < 0)
		return ROLE_MISSING;
	return band[level < THEME_HEAT_LEVELS ? level : THEME_HEAT_LEVELS - 1];
}

bool theme_blank_plain(enum role r)
{
	if (r >= ROLE_COUNT || (attrs[r] & (A_REVERSE | A_UNDERLINE | A_STANDOUT)))
		return false;
	const struct role_def *d = &roles[r], *n = &roles[ROLE_NORMAL];
	return tier == TIER_MONO || (tier == TIER_256 ? d->bg256 == n->bg256 : d->bg8 == n->bg8);
}

enum role theme_phase(int i)
{
	return (enum role)(ROLE_PHASE_0 + (i % THEME_PHASES));
}
