/* SPDX-License-Identifier: MIT */
/* picker.c: the run picker for a folder of runs (ui_pick_run in ui.h). A plain list:
 * the same movement keys as every list (action table), Enter opens, q or Q quits; Esc and
 * Backspace do nothing, as at the top of a run; q at the top of a run opened from here
 * comes back to it (ui_run's UI_BACK). C-l repaints the whole screen. Ctrl-Z and fg, or a
 * read a signal interrupted, leave it up and redrawn; SIGINT, SIGTERM or SIGHUP end it. */
#include <langinfo.h>
#include <stdlib.h>
#include "model/text.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/layout.h"
#include "ui/list.h"
#include "ui/term.h"
#include "ui/theme.h"
#include "ui/ui.h"

static void pick_draw(const char *dir, const char *const *paths, struct list_cursor *lc)
{
	erase();
	list_resize(lc, lc->n, LINES - 2 > 1 ? LINES - 2 : 1);
	size_t n = lc->n, sel = lc->sel, *top = &lc->top;
	int rows = lc->rows;
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

int ui_pick_run(const char *dir, const char *const *paths, size_t n, size_t sel, const struct opts *opts)
{
	char why[160];
	if (!n || term_start(false, why, sizeof(why)) < 0)
		return UI_PICK_NO_TTY;
	theme_init(opts->color);
	const struct glyphs *g = glyph_pick(opts->ascii, nl_langinfo(CODESET), getenv("TERM"));
	draw_init(g->utf8 ? 0 : TEXT_ASCII, g);
	struct list_cursor lc = { .n = n, .sel = sel < n ? sel : 0 };
	int rc = UI_PICK_QUIT;
	for (;;) {
		pick_draw(dir, paths, &lc);
		int key = term_getkey(-1);
		if (key == ERR && term_signal())
			break;
		if (key == ERR)   /* a read a signal interrupted (fg, SIGCHLD): draw and read again */
			continue;
		enum action a = keymap_lookup(key);
		if (a == ACT_REDRAW)   /* the next draw repaints every cell */
			clearok(curscr, TRUE);
		if (a == ACT_REDRAW || list_key(&lc, a))
			continue;
		if (a == ACT_ENTER)
			rc = (int)lc.sel;
		else if (a != ACT_QUIT && a != ACT_QUIT_ALL)
			continue;
		break;
	}
	term_stop();
	return rc;
}
