/* SPDX-License-Identifier: MIT */
/* term.h: the curses lifetime. Only this module calls newterm/endwin. Two modes:
 *   tty       the user's terminal (stdin/stdout, or /dev/tty when they are not ttys);
 *   headless  TSCOPE_SCRIPT tests: newterm on /dev/null streams, size from LINES and
 *             COLUMNS, no tty needed; keys come from the script (ui/script.c).
 * The terminal is restored on every exit path: term_stop() (idempotent), the xalloc die
 * hook, SIGINT/SIGTERM/SIGHUP (the handler only records the signal; the loop sees
 * term_signal() and quits through term_stop) and SIGSEGV/SIGBUS/SIGFPE/SIGABRT (the
 * handler only restores the tty modes and the screen with async-signal-safe calls,
 * then re-raises). Ctrl-Z (SIGTSTP, where the shell has job control) stops at once,
 * whatever the program is doing: the shell's screen and modes back, stop; on fg the
 * program's modes, screen and keypad back, then at the next term_getkey the terminal's
 * size read again and the screen repainted (until then a busy program's screen says it
 * is busy). */
#ifndef UI_TERM_H
#define UI_TERM_H

#include "model/base.h"

/* Start curses. Returns 0, or -1 when no terminal can be opened or the terminal cannot
 * be drawn on (TERM unset, unknown or without cursor addressing: the reason is in why,
 * else why is ""). Nothing is changed on failure. */
int term_start(bool headless, char *why, size_t whyn);
/* End curses and free the screen; safe to call twice or before term_start. */
void term_stop(void);
/* True when curses runs headless (TSCOPE_SCRIPT), false on a terminal or before term_start. */
bool term_headless(void);
/* The terminating signal received (SIGINT, SIGTERM, SIGHUP), or 0. */
int term_signal(void);
/* Put text on the terminal's clipboard with OSC 52 (works over SSH; inside tmux with
 * set-clipboard on). 0, or -1 when the terminal has no Ms capability (or headless). */
int term_clipboard(const char *text);
/* Mouse reporting on (clicks and the wheel arrive as KEY_MOUSE) or off; true when on. */
bool term_mouse(bool on);
/* Wait up to ms for a key (ERR on timeout or signal); -1 ms blocks. A key is a curses
 * KEY_* code, an ASCII character, or a character beyond ASCII typed as UTF-8 (its bytes
 * read whole) as KEYMAP_CHAR plus its code point (ui/keymap.h); a byte that starts no
 * UTF-8 character is returned alone. KEY_RESIZE after a resume (fg): lay out and draw
 * again (also the first call after an fg that came while the caller was busy). */
int term_getkey(int ms);

#endif
