/* SPDX-License-Identifier: MIT */
/* list.h: the ONE list cursor, used by every list-like pane and overlay (tables, the
 * Overview's findings, the help and views overlays, Budget rows, Sweep points, the
 * comparison), so the navigation keys mean the same everywhere:
 *   up/down (k/j, arrows)   one item
 *   half-page up/down       half a page, the selection only
 *   page-up/page-down       one page (the visible rows less one, at least 1): the
 *                           selection and the first visible item move together
 *   top/bottom (g/G, Home/End)  the first / last item
 * The selection never leaves [0, n) (no wrap) and always stays visible. Pure: no
 * curses, unit-tested in tests/unit/test_ui.c. */
#ifndef UI_LIST_H
#define UI_LIST_H

#include "model/base.h"
#include "ui/action.h"

struct list_cursor {
	size_t n;        /* items */
	size_t sel;      /* selected item (0 when n == 0) */
	size_t top;      /* first visible item */
	int rows;        /* visible rows in the last frame; <= 0: unknown (no scrolling) */
};

/* Apply a navigation action; true when a is one (then the cursor is clamped). */
bool list_key(struct list_cursor *c, enum action a);
/* Set the item count and visible rows (each frame), then clamp. */
void list_resize(struct list_cursor *c, size_t n, int rows);
/* Keep sel in range and visible, moving top as little as possible. */
void list_clamp(struct list_cursor *c);
/* Select item i and scroll it to the middle of the window (a jump from elsewhere). */
void list_jump(struct list_cursor *c, size_t i);

#endif
