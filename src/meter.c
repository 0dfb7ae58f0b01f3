/* SPDX-License-Identifier: MIT */
/* meter.c: the progress line on stderr and how a signal ends its command (meter.h). */
#include "src/meter.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/numfmt.h"
#include "model/text.h"

#define METER_DELAY_MS 500
#define METER_EVERY_MS 100

void meter_start(struct meter *m)
{
	atomic_store(&m->done, 0);
	atomic_store(&m->total, 0);
	atomic_store(&m->last_ms, 0);
	atomic_store(&m->shown, false);
	m->tty = isatty(STDERR_FILENO);
	m->ascii = !text_locale_utf8();
	clock_gettime(CLOCK_MONOTONIC, &m->start);
}

/* "\r" (and what more moves to the line's start: erase) then "tscope-tui: " and text, in
 * ASCII when the locale is not UTF-8 (its middle dots: model/text.h). */
static void put_line(const struct meter *m, const char *start, const char *text)
{
	char safe[512];
	text_sanitize(text, strlen(text), safe, sizeof(safe), m->ascii ? TEXT_ASCII : 0);
	fprintf(stderr, "%stscope-tui: %s", start, safe);
}

long long meter_elapsed_ms(const struct meter *m)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - m->start.tv_sec) * 1000LL + (now.tv_nsec - m->start.tv_nsec) / 1000000;
}

bool meter_add(struct meter *m, long long done_delta, long long total_delta)
{
	atomic_fetch_add(&m->done, done_delta);
	atomic_fetch_add(&m->total, total_delta);
	if (!m->tty)
		return false;
	long long ms = meter_elapsed_ms(m);
	long long last = atomic_load(&m->last_ms);
	return ms >= METER_DELAY_MS && ms - last >= METER_EVERY_MS &&
	       atomic_compare_exchange_strong(&m->last_ms, &last, ms);
}

/* The line with the counts divided by scale and named unit; a nonzero figure never
 * reads 0 (numfmt_nonzero: "0.213 MB"). */
static void draw(struct meter *m, const char *what, const char *hint, double scale, const char *unit)
{
	long long done = atomic_load(&m->done), total = atomic_load(&m->total);
	long long ms = meter_elapsed_ms(m);
	double rate = (double)done / scale / ((double)(ms > 0 ? ms : 1) / 1e3); /* units/s */
	atomic_store(&m->shown, true);
	char line[400], d[32], t[32], r[32], eta[32];
	numfmt_nonzero((double)done / scale, 0, d, sizeof(d));
	numfmt_nonzero((double)total / scale, 0, t, sizeof(t));
	if (total > 0 && rate > 0) {
		numfmt_nonzero(rate, 0, r, sizeof(r));
		numfmt_nonzero((double)(total > done ? total - done : 0) / scale / rate, 0, eta, sizeof(eta));
		snprintf(line, sizeof(line), "%s %s / %s %s (%d%%) · %s %s/s · ETA %s s%s  ", what, d, t, unit,
			 (int)(100.0 * (double)done / (double)total), r, unit, eta, hint);
	} else {
		numfmt_nonzero(rate, scale > 1 ? 1 : 0, r, sizeof(r)); /* MB/s to a tenth */
		snprintf(line, sizeof(line), "%s %s %s · %s %s/s%s  ", what, d, unit, r, unit, hint);
	}
	put_line(m, "\r", line);
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
		put_line(m, "\r\033[K", text);
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
