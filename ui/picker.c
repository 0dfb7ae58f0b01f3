/* SPDX-License-Identifier: MIT */
/* picker.c: the run picker for a folder of runs (ui_pick_run in ui.h). A plain list:
 * the same movement keys as every list (action table), Enter opens, q/Esc quits. */
#include <langinfo.h>
#include <stdlib.h>
#include "model/text.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/layout.h"
#include "ui/term.h"
#include "ui/theme.h"
#include "ui/ui.h"

static void pick_draw(const char *dir, const char *const *paths, size_t n, size_t sel, size_t *top)
{
	erase();
	int rows = LINES - 2 > 1 ? LINES - 2 : 1;
	if (sel < *top)
		*top = sel;
	if (sel >= *top + (size_t)rows)
		*top = sel - (size_t)rows + 1;
	draw_clear_rect(&(struct rect){ 0, 0, 1, COLS }, ROLE_TITLE);
	draw_fmt(0, 1, COLS - 2, ROLE_TITLE, "%s holds %zu runs below it", dir, n);
	for (int i = 0; i < rows && *top + (size_t)i < n; i++) {
		size_t k = *top + (size_t)i;
		enum role r = k == sel ? ROLE_SELECTED : ROLE_NORMAL;
		if (k == sel)
			draw_clear_rect(&(struct rect){ 1 + i, 0, 1, COLS }, ROLE_SELECTED);
		draw_text(1 + i, 2, COLS - 3, paths[k], r);
	}
	draw_text(LINES - 1, 0, COLS, " Enter:open  j/k:move  q:quit", ROLE_HINT);
	wnoutrefresh(stdscr);
	doupdate();
}

int ui_pick_run(const char *dir, const char *const *paths, size_t n, const struct opts *opts)
{
	char why[160];
	if (!n || term_start(false, why, sizeof(why)) < 0)
		return UI_PICK_NO_TTY;
	theme_init(opts->color);
	const struct glyphs *g = glyph_pick(opts->ascii, nl_langinfo(CODESET), getenv("TERM"));
	draw_init(g->utf8 ? 0 : TEXT_ASCII, g);
	size_t sel = 0, top = 0;
	int rc = UI_PICK_QUIT;
	for (;;) {
		pick_draw(dir, paths, n, sel, &top);
		int key = term_getkey(-1);
		if (key == ERR)   /* a signal, or the end of input */
			break;
		size_t page = LINES > 4 ? (size_t)LINES - 3 : 1;
		switch (keymap_lookup(key)) {
		case ACT_UP: sel = sel ? sel - 1 : 0; continue;
		case ACT_DOWN: sel = sel + 1 < n ? sel + 1 : sel; continue;
		case ACT_PAGE_UP: case ACT_HALF_UP: sel = sel > page ? sel - page : 0; continue;
		case ACT_PAGE_DOWN: case ACT_HALF_DOWN: sel = sel + page < n ? sel + page : n - 1; continue;
		case ACT_TOP: sel = 0; continue;
		case ACT_BOTTOM: sel = n - 1; continue;
		case ACT_ENTER: rc = (int)sel; break;
		case ACT_QUIT: case ACT_QUIT_ALL: case ACT_BACK: break;
		default: continue;
		}
		break;
	}
	term_stop();
	return rc;
}
