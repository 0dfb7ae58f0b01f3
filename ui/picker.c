/* SPDX-License-Identifier: MIT */
/* picker.c: the run picker for a folder of runs (ui_pick_run in ui.h). A plain list:
 * the same movement keys as every list (action table), Enter opens, q or Q quits; Esc and
 * Backspace do nothing, as at the top of a run; q at the top of a run opened from here
 * comes back to it (ui_run's UI_BACK). C-l repaints the whole screen. Ctrl-Z and fg, or a
 * read a signal interrupted, leave it up and redrawn; SIGINT, SIGTERM or SIGHUP end it.
 * Each row is a run's name below the folder, clipped apart from the others' when it does
 * not fit (ui/label_fit.h: at 80 columns two long names that differ at their end still
 * read apart), and its kind as the listing off a terminal names it ("(pytscope)"). Why
 * the run picked last was not opened is shown in its own rows above the hint line. */
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/label_fit.h"
#include "ui/layout.h"
#include "ui/list.h"
#include "ui/term.h"
#include "ui/theme.h"
#include "ui/ui.h"

/* Columns a name keeps before the kinds column is given up for it (a very narrow screen). */
enum { PICK_NAME_MIN = 12 };

/* What the picker shows, made once. */
struct pick {
	const char *dir;
	const struct run_child *kids;
	char **names;      /* each run's NAME in dir, sanitized with flags */
	size_t n;
	const char *msg;   /* why the run picked last was not opened, or NULL */
	unsigned flags;    /* the UI's text flags (TEXT_ASCII in ASCII mode) */
	int name_w, kind_w;   /* the widest name, the widest "(kind)" */
};

static void pick_init(struct pick *p, const char *dir, const struct run_child *kids, size_t n, const char *msg,
		      unsigned flags)
{
	*p = (struct pick){ .dir = dir, .kids = kids, .n = n, .msg = msg, .flags = flags };
	p->names = xcalloc(n, sizeof(*p->names));
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(kids[i].path, '/');
		p->names[i] = text_sanitize_dup(slash ? slash + 1 : kids[i].path, flags);
		int w = text_width(p->names[i]), kw = (int)strlen(kids[i].format) + 2;
		p->name_w = w > p->name_w ? w : p->name_w;
		p->kind_w = kw > p->kind_w ? kw : p->kind_w;
	}
}

static void pick_free(struct pick *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->names[i]);
	free(p->names);
}

/* "DIR holds N runs below it": the folder clipped, the count never. */
static void pick_title(const struct pick *p)
{
	char tail[64];
	snprintf(tail, sizeof(tail), " holds %zu run%s below it", p->n, p->n == 1 ? "" : "s");
	int w = COLS - 2 - text_width(tail);
	draw_clear_rect(&(struct rect){ 0, 0, 1, COLS }, ROLE_TITLE);
	int used = draw_text(0, 1, w > 1 ? w : 1, p->dir, ROLE_TITLE);
	draw_text(0, 1 + used, COLS - 2 - used, tail, ROLE_TITLE);
}

/* Run k on screen row y: its name fitted among the others', then its kind. */
static void pick_row(const struct pick *p, int y, size_t k, bool sel)
{
	enum role r = sel ? ROLE_SELECTED : ROLE_NORMAL;
	if (sel)
		draw_clear_rect(&(struct rect){ y, 0, 1, COLS }, ROLE_SELECTED);
	int room = COLS - 3, kw = room - p->kind_w - 2 >= PICK_NAME_MIN ? p->kind_w : 0;
	int nw = kw ? room - kw - 2 : room;
	nw = p->name_w < nw ? p->name_w : nw;
	char *name = label_fit(p->names, p->n, k, nw, p->flags);
	draw_text(y, 2, nw, name, r);
	free(name);
	if (kw)
		draw_fmt(y, 2 + nw + 2, kw, sel ? r : ROLE_DIM, "(%s)", p->kids[k].format);
}

/* Rows of the message: each of its lines wrapped to the screen's width, at most half the
 * rows under the title (the list keeps the rest); drawn above the hint line with draw. */
static int pick_msg(const char *msg, bool draw)
{
	int max = (LINES - 2) / 2, rows = 0;
	if (!msg || max < 1 || COLS < 3)
		return 0;
	struct rect r = { 0, 1, max, COLS - 2 };
	if (draw) {
		r.h = pick_msg(msg, false);
		r.y = LINES - 1 - r.h;
	}
	for (const char *s = msg; *s && rows < r.h;) {
		size_t n = strcspn(s, "\n");
		char *line = xstrndup(s, n);
		rows += draw ? draw_wrap(&r, rows, line, ROLE_ERROR) : draw_wrap_count(r.w, line);
		free(line);
		s += n + (s[n] == '\n');
	}
	return rows < r.h ? rows : r.h;
}

static void pick_draw(const struct pick *p, struct list_cursor *lc)
{
	erase();
	int rows = LINES - 2 - pick_msg(p->msg, false);
	list_resize(lc, lc->n, rows > 1 ? rows : 1);
	pick_title(p);
	for (int i = 0; i < lc->rows && lc->top + (size_t)i < lc->n; i++)
		pick_row(p, 1 + i, lc->top + (size_t)i, lc->top + (size_t)i == lc->sel);
	pick_msg(p->msg, true);
	draw_text(LINES - 1, 0, COLS, " Enter:open  j/k:move  q:quit", ROLE_HINT);
	wnoutrefresh(stdscr);
	doupdate();
}

int ui_pick_run(const char *dir, const struct run_child *kids, size_t n, size_t sel, const char *msg,
		const struct opts *opts)
{
	char why[160];
	if (!n || term_start(false, why, sizeof(why)) < 0)
		return UI_PICK_NO_TTY;
	theme_init(opts->color);
	const struct glyphs *g = glyph_pick(opts->ascii, nl_langinfo(CODESET), getenv("TERM"));
	unsigned flags = g->utf8 ? 0 : TEXT_ASCII;
	draw_init(flags, g);
	struct pick p;
	pick_init(&p, dir, kids, n, msg, flags);
	struct list_cursor lc = { .n = n, .sel = sel < n ? sel : 0 };
	int rc = UI_PICK_QUIT;
	for (;;) {
		pick_draw(&p, &lc);
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
	pick_free(&p);
	term_stop();
	return rc;
}
