/* SPDX-License-Identifier: MIT */
/* print.h: the plain-text report (`--print`, and the default when stdout is not a tty).
 * With --compat pytscope (po->compat) and a pytscope run it is byte-identical to
 * `pytscope --color never analyze` (0.2.1); the default report has tscope-tui's header,
 * native findings and honest verdicts. Color uses the same SGR layer either way. Other formats contribute sections through
 * print_section_*(), each returning a malloc'd section that ends with "\n", or NULL. */
#ifndef SRC_PRINT_H
#define SRC_PRINT_H

#include <stdio.h>
#include "model/run.h"

struct print_opts {
	bool color;
	bool compat;   /* --compat pytscope */
	int width;     /* columns the default report fits in (0: 100); ignored under compat */
	bool ascii;    /* the report in ASCII (print_out_begin): --ascii, or a locale that is
			* not UTF-8; never under compat (pytscope writes UTF-8 whatever the locale) */
};

/* The report's options for stdout-like fd under o: color (print_want_color), compat,
 * width (print_width), ascii. */
struct print_opts print_opts_of(const struct opts *o, int fd);
/* Decide color from --color, NO_COLOR, FORCE_COLOR and isatty(fd) (pytscope's order:
 * NO_COLOR wins). An empty NO_COLOR or FORCE_COLOR counts as unset (no-color.org,
 * force-color.org), but under compat (pytscope's rule: set is set, whatever the value). */
bool print_want_color(enum color_mode mode, int fd, bool compat);
/* Columns of the terminal on fd, else $COLUMNS, else 0 (the report's default, 100). */
int print_width(int fd);

/* Where a report is written: a buffer that print_out_end() writes to out in one go,
 * for an ASCII report in ASCII (text_ascii_dup: the sparklines, bars, dashes and dots
 * as the explorer's --ascii draws them), so that a failed write is known with its
 * errno. A buffer that cannot be had (no memory) leaves the report written straight to
 * out, as it is. */
struct print_out {
	FILE *out, *f;
	char *buf;
	size_t len;
	bool ascii;
};
FILE *print_out_begin(struct print_out *p, FILE *out, bool ascii);
/* Write the buffer to out and flush it: 0, or the errno of the failed write (EIO when
 * the report went straight to out and failed there). */
int print_out_end(struct print_out *p);
/* Write the report; returns the exit status (1 with pytscope's message on stderr when
 * there is nothing to report). */
int print_report(struct run *run, FILE *f, const struct print_opts *po);
/* pytscope's "No steps or trace found in 'PATH'." on stderr, and natively why no step
 * record was read; returns 1, the exit status. --export and the explorer end with it too
 * when pytscope reads nothing under --compat pytscope (model/compat.h). */
int print_nothing_found(const struct run *run, bool compat);

/* A failed write of what (err: its errno) to f: the message on stderr, f's buffer and
 * error flag dropped (the final close of stdout has nothing left to fail). Returns 1,
 * the exit status. */
int print_write_failed(FILE *f, const char *what, int err);

/* --follow without a tty (src/print_follow.c): one line per new finding until the job
 * finishes (0), SIGINT/SIGTERM (128 + signal) or a failed write (1, with a message). */
int print_follow(struct run *run, const char *const *paths, size_t npaths, const struct opts *o, FILE *out);
struct compare;
/* The report of a run comparison (src/print_diff.c): pytscope's `diff` for step runs,
 * then tscope-tui's sections. Only for a pair pytscope's diff does not refuse
 * (model/compat.h compat_diff_refused(c, true): the caller says pytscope's message). */
void print_compare(struct compare *c, const char *path_a, const char *path_b, FILE *f,
		   const struct print_opts *po);

struct distributed;
struct sbuf;
/* The default report's per-rank list when it is bounded (src/print_ranks.c): shown[r]
 * (malloc'd) for the cap ranks that matter, taken in turn by a straggler's cost, by time
 * lost and by critical-path share (no rank left out matters more, by each, than the ranks
 * taken for it); NULL when every rank is shown (cap 0, or no more ranks than cap). */
bool *print_ranks_shown(const struct distributed *d, size_t cap);
/* The lines (dim when color) counting the ranks shown leaves out, the stragglers and the
 * others apart, each with what those have in common (the most cost, critical share and
 * time lost among them, rounded up) and the export that lists them; none when shown is NULL. */
void print_ranks_left_out(struct sbuf *b, const struct distributed *d, const bool *shown, bool color);

char *print_section_trace(struct run *run, const struct print_opts *po);  /* src/print_trace.c */
char *print_section_sweep(struct run *run, const struct print_opts *po);  /* src/print_sweep.c */
char *print_section_dasf(struct run *run, const struct print_opts *po);   /* src/print_dasf.c */

#endif
