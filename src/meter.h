/* SPDX-License-Identifier: MIT */
/* meter.h: the one progress line a slow command keeps on stderr when stderr is a
 * terminal (the load of `tscope-tui RUN --print`, `tscope-tui index`, the rows of an
 * `--export`): bytes (or things) done of the total known so far, rate and ETA, drawn
 * from 0.5 s on at most ten times a second, from any thread (the loaders', or one that
 * wakes on a timer while they make no progress); cleared before the command writes its
 * own lines, and by a signal that ends the command. Off a terminal it draws nothing and
 * only counts. Also the keys typed while a load's line shows (meter_keys_*): q or Esc
 * cancels, any other key is discarded, and the terminal is given back as it was. */
#ifndef SRC_METER_H
#define SRC_METER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

struct meter {
	atomic_llong done, total;     /* bytes */
	struct timespec start;
	atomic_llong last_ms;         /* when the line was last drawn */
	bool tty;                     /* stderr is a terminal */
	bool ascii;                   /* the line in ASCII: the locale is not UTF-8, or meter_ascii() */
	atomic_bool shown;            /* the line is on the screen */
};

/* Every line of the process in ASCII from now on, whatever the locale: --ascii (cli_parse
 * calls it, before any meter_start). */
void meter_ascii(void);
/* Start counting now (tty: whether stderr is a terminal, drawn on only then). */
void meter_start(struct meter *m);
long long meter_elapsed_ms(const struct meter *m);
/* Add the loaders' deltas. */
void meter_count(struct meter *m, long long done_delta, long long total_delta);
/* True when the line is due (a terminal, 0.5 s in, 100 ms since it was last drawn):
 * this caller alone then draws it. */
bool meter_due(struct meter *m);
/* meter_count, then meter_due. */
bool meter_add(struct meter *m, long long done_delta, long long total_delta);
/* Draw "tscope-tui: WHAT done / total MB (P%) · rate · ETA HINT" (what: e.g. "loading").
 * P never passes 99 and ETA never reads 0 while done is below the total; at the total,
 * "(100%)" without an ETA; past it (bytes of no known size: a FIFO, a file that grew)
 * "done MB (total unknown) · rate"; with no total, done and rate only. The line fits the
 * terminal's width less one column (stderr's, else $COLUMNS, else 80: a wrapped line
 * would stay on screen): without the rate, then without the ETA too, then cut. */
void meter_draw(struct meter *m, const char *what, const char *hint);
/* The same for a count of things (done and total in units, e.g. "rows"). */
void meter_draw_count(struct meter *m, const char *what, const char *unit);
/* Replace the line, when it is shown, with "tscope-tui: TEXT" (a phase with no bytes to
 * count, e.g. the index summary being written), cut to the same width. */
void meter_note(struct meter *m, const char *text);
/* Clear the line when it is shown. */
void meter_clear(struct meter *m);
/* While a slow command runs: SIGINT, SIGTERM (Slurm's, at a time limit or scancel) and
 * SIGHUP remove the index temporary file being written (index_tmp_unlink), clear m's
 * line, call restore (NULL: none; async-signal-safe, e.g. the terminal's modes) and end
 * the process as the signal does (exit status 128 + N). _off: the default actions. */
void meter_signals_on(struct meter *m, void (*restore)(void));
void meter_signals_off(void);

/* Keys, on a standard input that is a terminal. _start (when the line first shows):
 * Ctrl-Z handled from now on (unless SIGTSTP is ignored): the user's terminal while
 * stopped; meter_keys_cancel() sets the load's mode (byte at a time, no echo) again after
 * fg. _stop: the terminal as it was, the keys typed and not read discarded (none is left
 * for the shell), SIGTSTP's action as it was. _restore: the terminal alone, async-signal
 * safe (meter_signals_on's restore). */
void meter_keys_start(void);
void meter_keys_stop(void);
void meter_keys_restore(void);
/* Whether this process group has the terminal (a read in the background would stop it). */
bool meter_keys_foreground(void);
/* Read the keys typed so far (none in the background): true when q or Esc is among them.
 * An escape sequence (an arrow or a function key: ESC then [ or O and more bytes within
 * 25 ms of each other) is not Esc; other keys are discarded. */
bool meter_keys_cancel(void);

#endif
