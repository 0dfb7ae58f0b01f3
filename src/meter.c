/* SPDX-License-Identifier: MIT */
/* meter.c: the progress line on stderr, how a signal ends its command, and the keys typed
 * while a load's line shows (meter.h). */
#include "src/meter.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/numfmt.h"
#include "model/text.h"
#include "src/print.h"

#define METER_DELAY_MS 500
#define METER_EVERY_MS 100
#define METER_PREFIX "tscope-tui: "

static bool ascii_forced; /* meter_ascii(): --ascii */

void meter_ascii(void)
{
	ascii_forced = true;
}

void meter_start(struct meter *m)
{
	atomic_store(&m->done, 0);
	atomic_store(&m->total, 0);
	atomic_store(&m->last_ms, 0);
	atomic_store(&m->shown, false);
	m->tty = isatty(STDERR_FILENO);
	m->ascii = ascii_forced || !text_locale_utf8();
	clock_gettime(CLOCK_MONOTONIC, &m->start);
}

/* Columns the line may take: the terminal's width (stderr's, else $COLUMNS, else 80) less
 * one, so that it never wraps; a wrapped line is not erased by "\r" and stays on screen. */
static int line_cols(void)
{
	int cols = print_width(STDERR_FILENO);
	return (cols > 0 ? cols : 80) - 1;
}

/* "\r", METER_PREFIX and text cut to line_cols() by display width (an ellipsis where it
 * is cut), in ASCII when the locale is not UTF-8 or --ascii is given (its middle dots:
 * model/text.h), then the rest of the line erased. */
static void put_line(const struct meter *m, const char *text)
{
	unsigned flags = m->ascii ? TEXT_ASCII : 0;
	char safe[512], fitted[512];
	size_t n = strlen(METER_PREFIX);
	memcpy(safe, METER_PREFIX, n);
	text_sanitize(text, strlen(text), safe + n, sizeof(safe) - n, flags);
	text_clip(safe, line_cols(), fitted, sizeof(fitted), true, flags);
	fprintf(stderr, "\r%s\033[K", fitted);
}

long long meter_elapsed_ms(const struct meter *m)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - m->start.tv_sec) * 1000LL + (now.tv_nsec - m->start.tv_nsec) / 1000000;
}

void meter_count(struct meter *m, long long done_delta, long long total_delta)
{
	atomic_fetch_add(&m->done, done_delta);
	atomic_fetch_add(&m->total, total_delta);
}

bool meter_add(struct meter *m, long long done_delta, long long total_delta)
{
	meter_count(m, done_delta, total_delta);
	return meter_due(m);
}

bool meter_due(struct meter *m)
{
	if (!m->tty)
		return false;
	long long ms = meter_elapsed_ms(m);
	long long last = atomic_load(&m->last_ms);
	return ms >= METER_DELAY_MS && ms - last >= METER_EVERY_MS &&
	       atomic_compare_exchange_strong(&m->last_ms, &last, ms);
}

/* The line from its parts (head: what and the counts; then the rate, the ETA and the hint,
 * each "" or starting " · "): whole when it fits line_cols(), else without the rate, then
 * without the ETA too, the parts least needed; cut by put_line only when that is not
 * enough. */
static void put_parts(const struct meter *m, const char *head, const char *rate, const char *eta, const char *hint)
{
	int room = line_cols() - (int)strlen(METER_PREFIX);
	char line[400];
	snprintf(line, sizeof(line), "%s%s%s%s", head, rate, eta, hint);
	if (text_width(line) > room)
		snprintf(line, sizeof(line), "%s%s%s", head, eta, hint);
	if (text_width(line) > room)
		snprintf(line, sizeof(line), "%s%s", head, hint);
	put_line(m, line);
}

/* The line with the counts divided by scale and named unit; a nonzero figure never
 * reads 0 (numfmt_nonzero: "0.213 MB"). A percentage and an ETA only below the total: the
 * bytes of a FIFO or of a file that grew are not in it (meter.h). */
static void draw(struct meter *m, const char *what, const char *hint, double scale, const char *unit)
{
	long long done = atomic_load(&m->done), total = atomic_load(&m->total);
	long long ms = meter_elapsed_ms(m);
	double rate = (double)done / scale / ((double)(ms > 0 ? ms : 1) / 1e3); /* units/s */
	atomic_store(&m->shown, true);
	char head[300], d[32], t[32], r[32], per_s[64], eta[48] = "";
	numfmt_nonzero((double)done / scale, 0, d, sizeof(d));
	numfmt_nonzero((double)total / scale, 0, t, sizeof(t));
	bool known = total > 0 && done <= total;
	numfmt_nonzero(rate, known || scale == 1 ? 0 : 1, r, sizeof(r)); /* MB/s of no total to a tenth */
	snprintf(per_s, sizeof(per_s), " · %s %s/s", r, unit);
	if (known && done < total && rate > 0) {
		char left[32];
		numfmt_nonzero((double)(total - done) / scale / rate, 0, left, sizeof(left));
		snprintf(eta, sizeof(eta), " · ETA %s s", left);
	}
	if (known)
		snprintf(head, sizeof(head), "%s %s / %s %s (%d%%)", what, d, t, unit,
			 (int)(100.0 * (double)done / (double)total));
	else
		snprintf(head, sizeof(head), "%s %s %s%s", what, d, unit, total > 0 ? " (total unknown)" : "");
	put_parts(m, head, per_s, eta, hint);
}

void meter_draw(struct meter *m, const char *what, const char *hint)
{
	draw(m, what, hint, 1e6, "MB");
}

void meter_draw_count(struct meter *m, const char *what, const char *unit)
{
	draw(m, what, "", 1, unit);
}

void meter_note(struct meter *m, const char *text)
{
	if (atomic_load(&m->shown))
		put_line(m, text);
}

void meter_clear(struct meter *m)
{
	if (atomic_exchange(&m->shown, false))
		fprintf(stderr, "\r\033[K");
}

static struct meter *signal_meter;
static void (*signal_restore)(void);

static void on_end_signal(int sig)
{
	index_tmp_unlink();
	if (signal_meter && atomic_load(&signal_meter->shown))
		(void)!write(STDERR_FILENO, "\r\033[K", 4);
	if (signal_restore)
		signal_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void end_signals(void (*handler)(int))
{
	signal(SIGINT, handler);
	signal(SIGTERM, handler);
	signal(SIGHUP, handler);
}

void meter_signals_on(struct meter *m, void (*restore)(void))
{
	signal_meter = m;
	signal_restore = restore;
	end_signals(on_end_signal);
}

void meter_signals_off(void)
{
	end_signals(SIG_DFL);
}

/* ---- the keys typed while a load's line shows ----------------------------------- */

/* How long the bytes after an ESC may take to come for an escape sequence: an arrow key's
 * ESC [ A arrives at once (the explorer's curses waits as long: ui/term.c). */
#define METER_ESC_WAIT_MS 25

/* The terminal while a slow load watches for q / Esc: byte-at-a-time, no echo; restored
 * after the load, on SIGINT/SIGTERM/SIGHUP and on Ctrl-Z (SIGTSTP: the shell and the
 * user get their terminal back while the load is stopped). A key is read only when poll
 * says one is there and the load has the terminal, and the load's mode is set again
 * whenever the terminal is found out of it (after fg), so that nothing the shell does to
 * the terminal can block the load. */
static struct termios keys_tio;            /* the user's terminal, as the load found it */
static volatile sig_atomic_t keys_tio_set; /* the terminal is in the load's mode */
static struct sigaction keys_tstp_old;     /* SIGTSTP's action before the load's */
static bool keys_tstp_set;                 /* on_keys_tstp is installed */

/* TCSAFLUSH: what was typed and not read yet goes with the load's mode. */
void meter_keys_restore(void)
{
	if (keys_tio_set) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &keys_tio);
		keys_tio_set = 0;
	}
}

/* Ctrl-Z: the user's terminal, then stop as SIGTSTP does; once continued (fg), the next
 * meter_keys_cancel() sets the load's mode again. */
static void on_keys_tstp(int sig)
{
	int e = errno;
	meter_keys_restore();
	struct sigaction dfl = { .sa_handler = SIG_DFL }, self;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigaction(sig, &dfl, &self);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	sigaction(sig, &self, NULL);
	errno = e;
}

/* The load's mode, the user's saved in keys_tio. */
static void keys_mode(void)
{
	struct termios t;
	if (tcgetattr(STDIN_FILENO, &t) != 0)
		return;
	keys_tio = t;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	keys_tio_set = 1;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) != 0)
		keys_tio_set = 0;
}

void meter_keys_start(void)
{
	struct sigaction tstp = { .sa_handler = on_keys_tstp, .sa_flags = SA_RESTART };
	sigemptyset(&tstp.sa_mask);
	if (!keys_tstp_set && sigaction(SIGTSTP, NULL, &keys_tstp_old) == 0 && keys_tstp_old.sa_handler != SIG_IGN)
		keys_tstp_set = sigaction(SIGTSTP, &tstp, NULL) == 0;
}

void meter_keys_stop(void)
{
	meter_keys_restore();
	if (keys_tstp_set)
		sigaction(SIGTSTP, &keys_tstp_old, NULL);
	keys_tstp_set = false;
}

/* Whether the terminal is out of the load's mode (not set yet, a stop and fg gave it back
 * to the user's, or the shell set its own). */
static bool keys_lost(void)
{
	struct termios t;
	return tcgetattr(STDIN_FILENO, &t) == 0 && ((t.c_lflag & (ICANON | ECHO)) || t.c_cc[VMIN] || t.c_cc[VTIME]);
}

bool meter_keys_foreground(void)
{
	pid_t fg = tcgetpgrp(STDIN_FILENO);
	return fg >= 0 && fg == getpgrp();
}

/* Where the bytes typed are: a key of its own, just after an ESC, in a CSI sequence
 * (ESC [, up to its final byte) or an SS3 one (ESC O and one byte). */
enum keys_state { KEYS_KEY, KEYS_ESC, KEYS_CSI, KEYS_SS3 };

/* Byte c in state *s: true for q, and for an ESC that c shows to be the Esc key. */
static bool keys_byte(enum keys_state *s, unsigned char c)
{
	switch (*s) {
	case KEYS_ESC:
		*s = c == '[' ? KEYS_CSI : c == 'O' ? KEYS_SS3 : KEYS_KEY;
		return *s == KEYS_KEY;
	case KEYS_CSI:
		*s = c >= 0x40 && c <= 0x7e ? KEYS_KEY : KEYS_CSI;
		return false;
	case KEYS_SS3:
		*s = KEYS_KEY;
		return false;
	default:
		*s = c == 0x1b ? KEYS_ESC : KEYS_KEY;
		return c == 'q';
	}
}

/* The bytes typed into buf (cap at most), waiting up to wait_ms for the first; 0: none. */
static size_t keys_read(unsigned char *buf, size_t cap, int wait_ms)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	if (poll(&in, 1, wait_ms) != 1 || !(in.revents & POLLIN))
		return 0;
	ssize_t got = read(STDIN_FILENO, buf, cap);
	return got > 0 ? (size_t)got : 0;
}

bool meter_keys_cancel(void)
{
	if (!meter_keys_foreground())
		return false;
	if (keys_lost())
		keys_mode();
	enum keys_state s = KEYS_KEY;
	bool stop = false;
	unsigned char buf[64];
	size_t n;
	while (keys_tio_set && (n = keys_read(buf, sizeof(buf), s == KEYS_KEY ? 0 : METER_ESC_WAIT_MS)) > 0)
		for (size_t i = 0; i < n; i++)
			stop |= keys_byte(&s, buf[i]);
	return stop || s == KEYS_ESC;   /* an ESC with nothing after it is the Esc key */
}
