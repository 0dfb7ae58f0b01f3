/* SPDX-License-Identifier: MIT */
/* term.c: curses start/stop, headless screens, signal-safe restore, suspend and resume
 * (Ctrl-Z, fg), keys (a UTF-8 character read whole), the clipboard and the mouse (see
 * term.h). */
#include "ui/term.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/keymap.h"

static SCREEN *screen;
static FILE *tin, *tout;
static bool headless, own_streams;
static volatile sig_atomic_t got_signal, got_cont;
static volatile sig_atomic_t in_key_wait;   /* term_getkey waits in wgetch: it draws after fg */

/* Saved before curses touches the tty, for the signal handlers. */
static int tty_fd = -1;
static struct termios saved_tios;   /* the shell's modes: at the start, then as set at the shell while stopped */
static bool have_tios;
static pthread_t main_thread;   /* the curses thread: Ctrl-Z is handled there */
static struct termios cont_tios;   /* the shell's modes when fg resumed us, for resume() */
static volatile sig_atomic_t have_cont_tios;

/* What the signal handlers write to the terminal, built ahead by the curses thread
 * (seqs_build): leave is what endwin writes (mouse off, attributes off, the cursor shown
 * on the last line, the normal screen, the keypad's local mode), enter is what the
 * program's screen needs again after fg (the alternate screen, the cursor hidden, the
 * keypad, the mouse), busy says why that screen stays empty until the work in hand ends.
 * Two copies: a handler reads the one seq_cur names, never the one being built. */
struct tty_seqs {
	char leave[256], enter[128], busy[160];
	size_t nleave, nenter, nbusy;
};
static struct tty_seqs seqs[2];
static volatile sig_atomic_t seq_cur;
static int seq_lines = -1;   /* the screen height the current copy was built for */
static bool mouse_on;

static void on_quit_signal(int sig)
{
	got_signal = sig;
}

static void on_cont(int sig)
{
	(void)sig;
	got_cont = 1;
}

static void tty_write(const char *s, size_t n)
{
	if (n && write(tty_fd, s, n) < 0) {
		/* nothing more we can do in a signal handler */
	}
}

/* SIGTSTP's action: handler, without SA_RESTART (a blocked getch returns). The one place
 * it is set: at the start (on_tstp), for the stop (SIG_DFL, then on_tstp again) and at
 * the end (SIG_DFL). */
static void tstp_action(void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = handler;
	sigaction(SIGTSTP, &sa, NULL);
}

static void on_tstp(int sig);

/* Stop with SIGTSTP's default action (from its handler: unblocked first); returns on
 * SIGCONT (fg), the handler in place again. */
static void stop_process(void)
{
	sigset_t tstp;
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	tstp_action(SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &tstp, NULL);
	raise(SIGTSTP);   /* stopped here until SIGCONT */
	pthread_sigmask(SIG_BLOCK, &tstp, NULL);   /* another Ctrl-Z: once this handler is done */
	tstp_action(on_tstp);
}

/* Ctrl-Z, handled at once whatever the program is doing (a load, a long computation):
 * the shell's screen and modes back, stop; after fg the program's modes and screen back
 * and got_cont set, so that the next term_getkey redraws the screen whole (resume). A
 * program busy meanwhile shows a line that says so until then. Only async-signal-safe
 * calls; on the curses thread (a signal that came to another one is sent on), so that
 * no frame of its own is written while the handler writes. */
static void on_tstp(int sig)
{
	int saved_errno = errno;
	if (!pthread_equal(pthread_self(), main_thread)) {
		pthread_kill(main_thread, sig);
		errno = saved_errno;
		return;
	}
	const struct tty_seqs *s = &seqs[seq_cur];
	struct termios prog;
	bool tty = tty_fd >= 0 && tcgetattr(tty_fd, &prog) == 0;
	if (tty) {
		tty_write(s->leave, s->nleave);
		if (have_tios)
			tcsetattr(tty_fd, TCSADRAIN, &saved_tios);
	}
	stop_process();
	if (tty) {
		have_cont_tios = tcgetattr(tty_fd, &cont_tios) == 0;
		tcsetattr(tty_fd, TCSADRAIN, &prog);
		tty_write(s->enter, s->nenter);
		if (!in_key_wait)
			tty_write(s->busy, s->nbusy);
	}
	got_cont = 1;
	errno = saved_errno;
}

static void on_fatal_signal(int sig)
{
	if (tty_fd >= 0) {
		const struct tty_seqs *s = &seqs[seq_cur];
		tty_write(s->leave, s->nleave);
		if (have_tios)
			tcsetattr(tty_fd, TCSANOW, &saved_tios);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* cap appended to buf (of size n, len used): a capability the terminal lacks, or one
 * that does not fit, adds nothing. */
static size_t seq_add(char *buf, size_t n, size_t len, const char *cap)
{
	if (!cap || cap == (char *)-1)
		return len;
	size_t k = strlen(cap);
	if (len + k >= n)
		return len;
	memcpy(buf + len, cap, k);
	return len + k;
}

/* The mouse's on or off sequence as ncurses sends it to an xterm-like terminal (XM, else
 * ncurses' default), NULL when the mouse is off. tiparm's buffer: append it at once. */
static const char *mouse_seq(bool on)
{
	if (!mouse_on)
		return NULL;
	const char *xm = tigetstr("XM");
	return tiparm(xm && xm != (char *)-1 ? xm : "\033[?1000%?%p1%{1}%=%th%el%;", on ? 1 : 0);
}

/* The cursor moved to row, column 0; NULL on a terminal that cannot address it. */
static const char *cursor_to(int row)
{
	return cursor_address && cursor_address != (char *)-1 ? tiparm(cursor_address, row, 0) : NULL;
}

/* Build the copy of seqs the handlers do not read, then make it theirs. */
static void seqs_build(void)
{
	struct tty_seqs *s = &seqs[!seq_cur];
	size_t n = 0;
	n = seq_add(s->leave, sizeof(s->leave), n, mouse_seq(false));
	n = seq_add(s->leave, sizeof(s->leave), n, exit_attribute_mode);
	n = seq_add(s->leave, sizeof(s->leave), n, cursor_to(LINES > 0 ? LINES - 1 : 0));
	n = seq_add(s->leave, sizeof(s->leave), n, cursor_normal);
	n = seq_add(s->leave, sizeof(s->leave), n, exit_ca_mode);
	n = seq_add(s->leave, sizeof(s->leave), n, "\r");
	s->nleave = seq_add(s->leave, sizeof(s->leave), n, keypad_local);
	n = seq_add(s->enter, sizeof(s->enter), 0, enter_ca_mode);
	n = seq_add(s->enter, sizeof(s->enter), n, cursor_invisible);
	n = seq_add(s->enter, sizeof(s->enter), n, keypad_xmit);
	s->nenter = seq_add(s->enter, sizeof(s->enter), n, mouse_seq(true));
	n = seq_add(s->busy, sizeof(s->busy), 0, cursor_to(0));
	s->nbusy = seq_add(s->busy, sizeof(s->busy), n, "tscope-tui is busy: the screen comes back when it is done");
	seq_cur = !seq_cur;
	seq_lines = LINES;
}

/* Signals whose default action ends the process: the terminal is restored first, then
 * the signal is raised again with its default action (same exit status, core or not).
 * SIGWINCH is left to ncurses (KEY_RESIZE). SIGTSTP and SIGCONT are this module's
 * (on_tstp): ncurses' own SIGTSTP handler restarts the read it interrupted, so after
 * fg a key was read before the keypad mode was sent again (an arrow came as Esc [ B)
 * and nothing was redrawn at a size changed meanwhile until a key came. */
static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGTRAP, SIGSYS,
				  SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
				  SIGXCPU, SIGPIPE };

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;   /* no SA_RESTART: a blocked getch returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	struct sigaction old;
	/* Ctrl-Z only where it stops us by default (a shell with job control); installed
	 * before newterm, so ncurses installs no SIGTSTP handler of its own */
	main_thread = pthread_self();
	if (sigaction(SIGTSTP, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		tstp_action(on_tstp);
	sa.sa_handler = on_cont;
	sigaction(SIGCONT, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_LEN(fatal_sigs); i++) {
		if (sigaction(fatal_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* ignored by our parent (nohup, a shell's SIGPIPE): keep it so */
		sigaction(fatal_sigs[i], &sa, NULL);
	}
}

static void restore_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	struct sigaction cur;
	if (sigaction(SIGTSTP, NULL, &cur) == 0 && cur.sa_handler == on_tstp)
		tstp_action(SIG_DFL);
	for (size_t i = 0; i < ARRAY_LEN(fatal_sigs); i++) {
		if (sigaction(fatal_sigs[i], NULL, &cur) == 0 && cur.sa_handler == on_fatal_signal)
			signal(fatal_sigs[i], SIG_DFL);
	}
}

/* Close the terminal streams when this module opened them; forget them either way. */
static void close_streams(void)
{
	if (own_streams) {
		if (tin)
			fclose(tin);
		if (tout)
			fclose(tout);
	}
	tin = tout = NULL;
	own_streams = false;
}

static int open_streams(bool want_headless)
{
	if (want_headless) {
		tin = fopen("/dev/null", "r");
		tout = fopen("/dev/null", "w");
		own_streams = true;
	} else if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		tin = stdin;
		tout = stdout;
		own_streams = false;
	} else {
		tin = fopen("/dev/tty", "r");
		tout = fopen("/dev/tty", "w");
		own_streams = true;
	}
	if (!tin || !tout) {
		close_streams();
		return -1;
	}
	return 0;
}

/* A terminal the explorer can draw on: known to terminfo, with cursor addressing and
 * not a hardcopy terminal (TERM=dumb, an unknown TERM). The reason goes to why. */
static int term_usable(const char *term, int fd, char *why, size_t whyn)
{
	int err = 0;
	if (!term || !*term) {
		snprintf(why, whyn, "TERM is not set");
		return -1;
	}
	if (setupterm(term, fd, &err) != OK) {
		snprintf(why, whyn, "TERM=%s is not in the terminfo database", term);
		return -1;
	}
	bool ok = cursor_address && cursor_address != (char *)-1 && !hard_copy;
	del_curterm(cur_term);
	if (!ok)
		snprintf(why, whyn, "TERM=%s cannot address the cursor", term);
	return ok ? 0 : -1;
}

int term_start(bool want_headless, char *why, size_t whyn)
{
	if (screen)
		return 0;
	if (whyn)
		why[0] = '\0';
	if (open_streams(want_headless) < 0)
		return -1;
	headless = want_headless;
	if (!headless && term_usable(getenv("TERM"), fileno(tout), why, whyn) < 0) {
		close_streams();
		return -1;
	}
	if (!headless) {
		tty_fd = fileno(tout);
		have_tios = tcgetattr(tty_fd, &saved_tios) == 0;
	}
	got_signal = got_cont = have_cont_tios = 0;
	install_signals();
	const char *term = getenv("TERM");
	screen = newterm(term && *term ? term : (headless ? "dumb" : NULL), tout, tin);
	if (!screen) {
		restore_signals();
		term_stop();
		return -1;
	}
	set_term(screen);
	seqs_build();
	xalloc_set_die_hook(term_stop);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	leaveok(stdscr, TRUE);
	return 0;
}

void term_stop(void)
{
	if (screen) {
		restore_signals();   /* first: a Ctrl-Z now stops as it would without us */
		endwin();
		delscreen(screen);
		screen = NULL;
	}
	close_streams();
	tty_fd = -1;
	mouse_on = false;
}

bool term_headless(void)
{
	return screen && headless;
}

int term_signal(void)
{
	return got_signal;
}

/* How long the rest of a character's UTF-8 bytes may take after its first byte: they
 * are sent together, so only a slow link spreads them. */
enum { TERM_UTF8_WAIT_MS = 100 };

/* The UTF-8 character whose first byte is lead (0xC2..0xF4), its other bytes read now:
 * KEYMAP_CHAR plus its code point, or the lead byte alone (a key that is no character)
 * when they do not follow. Locale-independent: under LANG=C a terminal sends UTF-8 too,
 * and ncurses' wget_wch there would take the next keys as bytes of one character. */
static int utf8_key(int lead)
{
	char b[4] = { (char)lead };
	int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
	wtimeout(stdscr, TERM_UTF8_WAIT_MS);
	for (int i = 1; i < need; i++) {
		int c = wgetch(stdscr);
		if (c == ERR || (c & ~0xFF) || (c & 0xC0) != 0x80) {
			if (c != ERR)
				ungetch(c);   /* a key of its own: read next */
			return lead;
		}
		b[i] = (char)c;
	}
	uint32_t cp;
	return text_utf8_decode(b, (size_t)need, &cp) == need ? KEYMAP_CHAR | (int)cp : lead;
}

/* After fg (SIGCONT, after Ctrl-Z or a SIGSTOP): the modes set at the shell meanwhile
 * kept for the exit (after Ctrl-Z), the program's tty modes, the screen at the
 * terminal's size now (it may have been resized while we were stopped: the SIGWINCH
 * then went to the shell), repainted whole. On Ctrl-Z the handler sent the keypad's
 * application mode already (wgetch would send it only when its next read starts, after
 * a key typed meanwhile came in the other mode). */
static void resume(void)
{
	got_cont = 0;
	struct winsize ws;
	if (tty_fd >= 0 && ioctl(tty_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
	    is_term_resized(ws.ws_row, ws.ws_col))
		resize_term(ws.ws_row, ws.ws_col);
	if (have_cont_tios && tcsetattr(tty_fd, TCSANOW, &cont_tios) == 0) {
		def_shell_mode();
		saved_tios = cont_tios;
	}
	have_cont_tios = 0;
	reset_prog_mode();   /* after a SIGSTOP the shell set its own modes meanwhile */
	clearok(curscr, TRUE);
	doupdate();
	keypad(stdscr, TRUE);
	seqs_build();   /* at the size now */
}

/* The terminal's input hung up or failed (poll's POLLHUP, POLLERR, POLLNVAL): no key
 * will come. */
static bool input_gone(void)
{
	struct pollfd pfd = { .fd = fileno(tin), .events = POLLIN };
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL));
}

int term_getkey(int ms)
{
	if (got_cont) {   /* Ctrl-Z while busy: KEY_RESIZE lays out and draws again */
		resume();
		return KEY_RESIZE;
	}
	if (LINES != seq_lines)
		seqs_build();   /* the last line, where Ctrl-Z leaves the cursor, moved */
	wtimeout(stdscr, ms);
	in_key_wait = 1;
	int c = wgetch(stdscr);   /* a signal ends its wait (no SA_RESTART) */
	in_key_wait = 0;
	if (got_cont) {
		if (c != ERR)
			ungetch(c);   /* read again after the resume */
		resume();
		return KEY_RESIZE;
	}
	/* a wait without end that ended with no key: the terminal gone (end of file, EIO)
	 * without a SIGHUP (a pty not the controlling one, nohup) ends as on SIGHUP, never
	 * read again and again at full speed; a read a signal cut short reads on */
	if (c == ERR && ms < 0 && !headless && !got_signal && input_gone())
		got_signal = SIGHUP;
	return c >= 0xC2 && c <= 0xF4 ? utf8_key(c) : c;
}

/* ---- clipboard and mouse ----------------------------------------------------- */

static void base64(const unsigned char *in, size_t n, FILE *f)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? in[i + 2] : 0);
		fputc(b64[v >> 18 & 63], f);
		fputc(b64[v >> 12 & 63], f);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? b64[v & 63] : '=', f);
	}
}

int term_clipboard(const char *text)
{
	if (!screen || headless)
		return -1;
	/* terminfo's Ms (set selection) says the terminal takes OSC 52; tmux's own
	 * terminfo has it too and forwards it (set-clipboard on) */
	const char *ms = tigetstr("Ms");
	if (!ms || ms == (char *)-1)
		return -1;
	fputs("\033]52;c;", tout);
	base64((const unsigned char *)text, strlen(text), tout);
	fputs("\a", tout);
	fflush(tout);
	return 0;
}

bool term_mouse(bool on)
{
	if (!screen)
		return false;
	/* Every button's press and release, though only button 1 and the wheel act
	 * (app_mouse): an event outside the mask that arrives alone makes wgetch() go on
	 * reading, blocking even under a zero timeout, so a release taken in while a click
	 * is handled held its frame (and follow mode, idle work) until the next key. The
	 * result is what the terminal will report (the second argument would be the mask
	 * before this call). */
	mmask_t want = on ? ALL_MOUSE_EVENTS : 0;
	mmask_t got = mousemask(want, NULL);
	mouseinterval(0);   /* presses at once, no click-detection delay */
	mouse_on = on && got != 0;
	seqs_build();   /* Ctrl-Z turns it off and on again */
	return mouse_on;
}
