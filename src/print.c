/* SPDX-License-Identifier: MIT */
/* print.c: the plain-text report (see print.h): pytscope 0.2.1's `analyze` layout for
 * step runs (TIMING, MEMORY, CONVERGENCE, DISTRIBUTED, EFFICIENCY BUDGET, FINDINGS),
 * the other formats' sections in between, and the SGR color layer. Under --compat
 * pytscope and without color the bytes equal `pytscope --color never analyze RUN_DIR`
 * (pytscope.md §11); the default report differs in its header and verdicts. */
#include "src/print.h"

#include <errno.h>
#include <math.h>
#include <stdio_ext.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "model/compat.h"
#include "model/numfmt.h"
#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"
#include "src/sbuf.h"

#define MB 1048576.0
#define BAR_CELLS 30
#define BAR_COMPAT_MAX 3000 /* --compat pytscope: cells of a bar past its 30, either way */

enum led { LED_HIGH, LED_MED, LED_LOW, LED_GREEN, LED_AMBER };
enum bar_kind { BAR_PLAIN, BAR_BAD, BAR_GOOD };

struct print_opts print_opts_of(const struct opts *o, int fd)
{
	return (struct print_opts){ .color = print_want_color(o->color, fd, o->compat_pytscope),
				    .compat = o->compat_pytscope,
				    .width = print_width(fd),
				    .ascii = !o->compat_pytscope && (o->ascii || !text_locale_utf8()) };
}

FILE *print_out_begin(struct print_out *p, FILE *out, bool ascii)
{
	*p = (struct print_out){ .out = out, .ascii = ascii };
	p->f = open_memstream(&p->buf, &p->len);
	if (!p->f)
		p->f = out;
	return p->f;
}

int print_out_end(struct print_out *p)
{
	int err = 0;
	if (p->f != p->out) {
		fclose(p->f);
		const char *s = p->buf ? p->buf : "";
		size_t n = p->buf ? p->len : 0;
		char *a = p->ascii ? text_ascii_dup(s, n, &n) : NULL;
		if (fwrite(a ? a : s, 1, n, p->out) != n)
			err = errno;
		free(a);
		free(p->buf);
	}
	if (!err && fflush(p->out) != 0)
		err = errno;
	if (!err && ferror(p->out)) /* written straight to out (no buffer): the errno is gone */
		err = EIO;
	*p = (struct print_out){ 0 };
	return err;
}

/* An environment variable that is set to something: an empty value counts as unset
 * (no-color.org, force-color.org), but under --compat pytscope, where set is set. */
static bool env_given(const char *name, bool compat)
{
	const char *v = getenv(name);
	return v && (compat || *v);
}

/* A terminal that TERM says shows no colour: TERM unset, empty or dumb (as git, grep and
 * ls decide). */
static bool term_colorless(void)
{
	const char *t = getenv("TERM");
	return !t || !*t || strcmp(t, "dumb") == 0;
}

/* auto: NO_COLOR, then FORCE_COLOR, then a terminal that shows colour (under --compat
 * pytscope any terminal, as pytscope decides). */
bool print_want_color(enum color_mode mode, int fd, bool compat)
{
	if (mode == COLOR_NEVER)
		return false;
	if (mode == COLOR_ALWAYS || mode == COLOR_256 || mode == COLOR_8)
		return true;
	if (env_given("NO_COLOR", compat))
		return false;
	if (env_given("FORCE_COLOR", compat))
		return true;
	return isatty(fd) && (compat || !term_colorless());
}

/* ---- pytscope widgets ------------------------------------------------------------- */

static void title(struct sbuf *b, const struct print_opts *po, enum led l, const char *text)
{
	static const enum sgr code[] = { SGR_RED, SGR_YELLOW, SGR_CYAN, SGR_GREEN, SGR_YELLOW };
	sb_heading(b, po->color, code[l], text);
}

/* The full cells of a bar of frac: round-half-even(frac * 30). Natively clamped to
 * [0, 30] (a fraction outside [0, 1] is bad data: the bar is 30 cells whatever the value);
 * under --compat pytscope as pytscope counts them (spec §11 Bar), within BAR_COMPAT_MAX
 * cells past either end. NaN: 0. */
static long bar_filled(const struct print_opts *po, double frac)
{
	if (!po->compat)
		return text_bar_cells(frac, BAR_CELLS);
	double c = rint(frac * BAR_CELLS), lo = -BAR_COMPAT_MAX, hi = BAR_CELLS + BAR_COMPAT_MAX;
	return isnan(c) ? 0 : (long)(c < lo ? lo : c > hi ? hi : c);
}

/* 30-cell bar: bar_filled() full cells, the rest (30 - filled) light shade; under --compat
 * pytscope a count below 0 draws none, so a share above 1 draws more than 30 full cells
 * and no light shade, one below 0 no full cell and more than 30 light shade, as pytscope. */
static void bar(struct sbuf *b, const struct print_opts *po, double frac, enum bar_kind kind)
{
	long filled = bar_filled(po, frac);
	frac = (double)filled / BAR_CELLS;
	struct sbuf full = { 0 }, empty = { 0 };
	sb_repeat(&full, "█", filled);
	sb_repeat(&empty, "░", BAR_CELLS - filled);
	enum sgr color = SGR_NONE;
	if (kind != BAR_PLAIN) {
		double f = kind == BAR_BAD ? frac : 1 - frac;
		color = f < 1.0 / 3 ? SGR_GREEN : f < 2.0 / 3 ? SGR_YELLOW : SGR_RED;
	}
	if (full.s)
		sb_style(b, po->color, color, SGR_NONE, full.s);
	if (empty.s)
		sb_style(b, po->color, SGR_DIM, SGR_NONE, empty.s);
	free(full.s);
	free(empty.s);
}

/* Sparkline over the finite values (pytscope drops NaN; an Infinity crashes 0.2.1, we
 * drop it too), one glyph per value. With width > 0 and more values than that (the
 * default report), the values are cut into width buckets and each glyph shows the worst
 * (highest) value of its bucket, so a one-step stall still shows at 100k steps. Empty
 * when fewer than 2 values. Natively (not --compat: pytscope stretches any range) values
 * apart by float noise alone (text_flat) are drawn flat, as one value. */
static char *sparkline(const double *v, size_t n, size_t width, bool native)
{
	static const char *const ticks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	double lo = 0, hi = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (k == 0 || v[i] < lo)
			lo = v[i];
		if (k == 0 || v[i] > hi)
			hi = v[i];
		k++;
	}
	if (k < 2)
		return NULL;
	if (native && text_flat(lo, hi))
		hi = lo;
	double *fin = xmalloc(k * sizeof(*fin));
	size_t f = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			fin[f++] = v[i];
	size_t cells = width && k > width ? width : k;
	struct sbuf b = { 0 };
	for (size_t c = 0; c < cells; c++) {
		size_t i0 = c * k / cells, i1 = (c + 1) * k / cells;
		double w = fin[i0];
		for (size_t i = i0 + 1; i < i1; i++)
			if (fin[i] > w)
				w = fin[i];
		int t = (int)(text_frac(w, lo, hi) * 8);
		sb_puts(&b, ticks[t < 7 ? t : 7]);
	}
	free(fin);
	return sb_take(&b);
}

int print_width(int fd)
{
	struct winsize ws;
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	int n = c ? atoi(c) : 0;
	return n > 0 && n < 10000 ? n : 0;
}

/* Glyphs a sparkline gets in the default report: the terminal width less the label and
 * the "(low→high)" tail; every value under --compat (pytscope's layout). */
static size_t spark_width(const struct print_opts *po)
{
	if (po->compat)
		return 0;
	int cols = po->width > 0 ? po->width : 100;
	return cols > 46 ? (size_t)cols - 26 : 20;
}

/* ---- sections ----------------------------------------------------------------------- */

/* " (rank K)" after the heading of a section that reads the lowest rank alone (TIMING,
 * MEMORY, CONVERGENCE, as pytscope's) when the run has more: not the run's figures. */
static const char *lowest_rank(const struct run *run, const struct print_opts *po, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!po->compat && steps_nranks(run->steps) > 1)
		snprintf(buf, n, " (rank %d)", steps_rank_id(run->steps, 0));
	return buf;
}

/* The native TIMING section of a rank 0 with nothing to time: every record inside
 * --warmup, or no phase recorded; NULL when it has something (pytscope's layout then). */
static char *timing_none(struct run *run, const struct print_opts *po, const struct timing *t)
{
	size_t all = t ? steps_nrecords(run->steps, 0) : 0;
	if (po->compat || (t && t->n > 0 && t->nphase > 0 && !timing_no_time(t)))
		return NULL;
	char who[32], why[160], *head = NULL;
	lowest_rank(run, po, who, sizeof(who));
	if (t && t->n == 0 && all > 0)
		head = xasprintf("TIMING%s — n/a: all %zu record%s inside --warmup %ld (nothing left to analyse)",
				 who, all, all == 1 ? " is" : "s are", run->opts ? run->opts->warmup : 0L);
	else if (timing_why_na(run, t, 0, why, sizeof(why))) /* every phase 0: no step time, as no budget */
		head = xasprintf("TIMING%s — n/a: %s", who, why);
	else if (t && t->n > 0)
		head = xasprintf("TIMING%s — %zu step%s · n/a ms/step (no phase recorded)", who, t->n,
				 t->n == 1 ? "" : "s");
	else if (t && all == 0 && steps_nranks(run->steps) > 1) /* other ranks have records */
		head = xasprintf("TIMING%s — n/a: rank %d, the rank this section reads, has no step record", who,
				 steps_rank_id(run->steps, 0));
	if (!head)
		return NULL;
	struct sbuf b = { 0 };
	title(&b, po, LED_AMBER, head);
	sb_puts(&b, "\n");
	free(head);
	return sb_take(&b);
}

/* v to print as pytscope (Python) does: a NaN without a sign ("nan"; glibc's printf
 * prints a set sign bit, "-nan"); inf and -inf print alike. */
static double py_float(double v)
{
	return isnan(v) ? NAN : v;
}

/* A share (0..1) with "%": pytscope's "%.*f" of it under --compat, else native's digits (a
 * share a rule judges stays on its side of the bar: analysis.h BARS). */
static const char *pct(const struct print_opts *po, double frac, int prec, const char *native, char *buf, size_t n)
{
	if (po->compat)
		snprintf(buf, n, "%.*f%%", prec, py_float(frac * 100));
	else
		snprintf(buf, n, "%s%%", native);
	return buf;
}

/* "%.1f" of v * scale, or "n/a" when the native report has no finite value. */
static const char *fmt_ms(char *buf, size_t n, double v, double scale, const struct print_opts *po)
{
	if (po->compat || isfinite(v))
		snprintf(buf, n, "%.1f", py_float(v * scale));
	else
		snprintf(buf, n, "n/a");
	return buf;
}

/* TIMING's heading line; shares n/a natively when a phase total is not finite. */
static void timing_head(struct sbuf *b, struct run *run, const struct print_opts *po, const struct timing *t)
{
	bool na = !po->compat && !t->finite;
	double bad = na ? 0 : timing_fraction(t, "data") + timing_fraction(t, "comm");
	char who[32], mean[32], sps[32], p50[32], p95[32];
	lowest_rank(run, po, who, sizeof(who));
	fmt_ms(mean, sizeof(mean), na ? NAN : t->mean_step_time, 1e3, po);
	fmt_ms(sps, sizeof(sps), na ? NAN : t->steps_per_sec, 1, po);
	char *head = xasprintf("TIMING%s — %zu step%s · %s ms/step · %s steps/s", who, t->n,
			       po->compat || t->n != 1 ? "s" : "", mean, sps);
	title(b, po, bad >= 0.5 ? LED_HIGH : LED_AMBER, head);
	free(head);
	char cv[40] = "n/a"; /* one step has no spread to measure: not 0.00 (pytscope's) */
	if (po->compat)
		snprintf(cv, sizeof(cv), "%.2f", py_float(t->cv));
	else if (t->n > 1 && !na) /* on its side of TIMING.JITTER's bar */
		numfmt_same_side(t->cv, BAR_JITTER_CV, 2, cv, sizeof(cv));
	fmt_ms(p50, sizeof(p50), na ? NAN : t->p50, 1e3, po);
	fmt_ms(p95, sizeof(p95), na ? NAN : t->p95, 1e3, po);
	char *tail = xasprintf("   (median %s · p95 %s ms · CV %s)", p50, p95, cv);
	sb_style(b, po->color, SGR_DIM, SGR_NONE, tail);
	free(tail);
	sb_puts(b, "\n");
	char why[160];
	if (na && timing_why_na(run, t, 0, why, sizeof(why))) {
		sb_puts(b, "  shares n/a (");
		sb_puts(b, why); /* its phase name sanitized (timing_why_na) */
		sb_puts(b, ")\n");
	}
	if (analysis_left_out_records(t->nrec - t->n, why, sizeof(why))) /* natively only */
		sb_printf(b, "  left out: %s\n", why);
}

/* --compat pytscope of a run whose steps are its traces' ProfilerSteps: pytscope reads no
 * steps from a trace (its run dir holds no steps.jsonl), so it shows none (model/compat.h). */
static bool compat_no_steps(const struct run *run, const struct print_opts *po)
{
	return po->compat && compat_steps_from_trace(run);
}

static char *section_timing(struct run *run, const struct print_opts *po)
{
	if (compat_no_steps(run, po))
		return xstrdup("No steps recorded.\n");
	const struct timing *t = run->steps && steps_nranks(run->steps) ? analysis_timing(run, 0) : NULL;
	char *none = timing_none(run, po, t);
	if (none)
		return none;
	struct sbuf b = { 0 };
	if (!t || t->n == 0) {
		sb_puts(&b, "No steps recorded.\n");
		return sb_take(&b);
	}
	timing_head(&b, run, po, t);
	bool na = !po->compat && !t->finite;
	char own[48], num[48];
	double *st = timing_plain_step_times(run, t);
	char *spark = sparkline(st, t->n, spark_width(po), !po->compat);
	free(st);
	if (spark)
		sb_printf(&b, "  step time  %s  (low→high)\n", spark);
	free(spark);
	for (size_t i = 0; i < t->nphase; i++) {
		const struct timing_phase *p = &t->phase[i];
		bool is_bad = strcmp(p->name, "data") == 0 || strcmp(p->name, "comm") == 0;
		sb_puts(&b, "  ");
		sb_pad(&b, p->name, 10, po);
		sb_puts(&b, " ");
		bar(&b, po, na ? 0 : p->fraction, is_bad ? BAR_BAD : BAR_PLAIN);
		sb_printf(&b, " %6s", na ? "n/a" : pct(po, p->fraction, 1, timing_share_text(p, 1, own, sizeof(own)), num,
							  sizeof(num)));
		if (po->compat || isfinite(p->seconds * 1e3)) /* 1e308 s a step: n/a ms, not inf */
			sb_printf(&b, "  %7.2f ms\n", py_float(p->seconds * 1e3));
		else
			sb_puts(&b, "      n/a ms\n");
	}
	return sb_take(&b);
}

/* " · peak reserved 418 MB · fragmentation 28%" (fragmentation once the alloc peak is
 * 64 MiB); natively what no record measures is n/a with why, not pytscope's 0. */
static void memory_reserved(struct sbuf *b, const struct print_opts *po, const struct memory *m)
{
	bool frag = m->peak_alloc >= 64 * MB;
	if (po->compat || m->has_reserved)
		sb_printf(b, " · peak reserved %.0f MB", py_float(m->peak_reserved / MB));
	else
		sb_puts(b, " · peak reserved n/a");
	if (frag && (po->compat || m->has_fragmentation))
		sb_printf(b, " · fragmentation %.0f%%", py_float(m->fragmentation * 100));
	else if (frag)
		sb_puts(b, " · fragmentation n/a");
	if (!po->compat && !m->has_reserved)
		sb_puts(b, " (no record has reserved or peak_reserved memory)");
	else if (!po->compat && frag && !m->has_fragmentation)
		sb_puts(b, " (no reserved value above 0 to set alloc against)");
}

static char *section_memory(struct run *run, const struct print_opts *po)
{
	const struct memory *m = run->steps && steps_nranks(run->steps) ? analysis_memory(run, 0) : NULL;
	if (!m || !m->has_memory)
		return NULL;
	struct sbuf b = { 0 };
	char who[32], *head = xasprintf("MEMORY%s", lowest_rank(run, po, who, sizeof(who)));
	title(&b, po, m->growth > 0 ? LED_HIGH : LED_GREEN, head);
	free(head);
	sb_printf(&b, "\n  peak alloc %.0f MB", py_float(m->peak_alloc / MB));
	memory_reserved(&b, po, m);
	sb_puts(&b, "\n");
	if (m->growth > 0) {
		char *g = xasprintf("  growth %.2f MB/step", py_float(m->growth / MB));
		sb_style(&b, po->color, SGR_YELLOW, SGR_NONE, g);
		if (!po->compat && m->n_samples < m->n_steps) /* per step (analysis.h GROWTH): over which */
			sb_printf(&b, " (%zu memory samples, steps %ld to %ld)", m->n_samples, m->first_step,
				  m->last_step);
		sb_puts(&b, "\n");
		free(g);
	}
	return sb_take(&b);
}

/* The spikes a spike line lists (pytscope's first 8). */
#define SPIKES_SHOWN 8

/* "  loss spikes at steps [...]": the first SPIKES_SHOWN step numbers (in record order),
 * natively with how many more and the highest step of those (pytscope's list alone under
 * --compat). */
static void spike_line(struct sbuf *b, const struct print_opts *po, const char *what, const long *v,
		       size_t n)
{
	if (n == 0)
		return;
	struct sbuf l = { 0 };
	sb_printf(&l, "  %s spikes at steps [", what);
	for (size_t i = 0; i < n && i < SPIKES_SHOWN; i++)
		sb_printf(&l, "%s%ld", i ? ", " : "", v[i]);
	sb_puts(&l, "]");
	if (!po->compat && n > SPIKES_SHOWN) {
		long last = v[SPIKES_SHOWN];
		for (size_t i = SPIKES_SHOWN + 1; i < n; i++)
			last = v[i] > last ? v[i] : last;
		sb_printf(&l, " and %zu more, up to step %ld", n - SPIKES_SHOWN, last);
	}
	sb_style(b, po->color, SGR_YELLOW, SGR_NONE, l.s);
	sb_puts(b, "\n");
	free(l.s);
}

static void fmt_g4(char *buf, size_t n, bool have, double v)
{
	if (have)
		snprintf(buf, n, "%.4g", py_float(v));
	else
		snprintf(buf, n, "n/a");
}

static char *section_convergence(struct run *run, const struct print_opts *po)
{
	if (!run->steps || !steps_nranks(run->steps))
		return NULL;
	const struct convergence *c = analysis_convergence(run, 0);
	if (!c->has_loss)
		return NULL;
	struct sbuf b = { 0 };
	bool bad = (c->diverged && !c->recovered) || strcmp(c->trend, "worsening") == 0;
	char who[32];
	char *head = xasprintf("CONVERGENCE%s", lowest_rank(run, po, who, sizeof(who)));
	title(&b, po, bad ? LED_HIGH : LED_GREEN, head);
	free(head);
	sb_puts(&b, "\n  loss trend ");
	enum sgr tc = strcmp(c->trend, "improving") == 0 ? SGR_GREEN : bad ? SGR_RED : SGR_NONE;
	sb_style(&b, po->color, tc, SGR_NONE, c->trend);
	char best[32], fin[32];
	fmt_g4(best, sizeof(best), c->has_final, c->best_loss);
	fmt_g4(fin, sizeof(fin), c->has_final, c->final_loss);
	sb_printf(&b, " · best %s · final %s\n", best, fin);
	char *spark = sparkline(c->loss, c->nloss, spark_width(po), !po->compat);
	if (spark) {
		sb_puts(&b, "  loss   ");
		sb_style(&b, po->color, SGR_GREEN, SGR_NONE, spark);
		sb_puts(&b, "  (low→high)\n");
	}
	free(spark);
	if (c->diverged) { /* natively, one a resume left behind is recovered (analysis.h) */
		char *d = c->recovered ? xasprintf("  diverged at step %ld before the resume from step %ld back to %ld; recovered",
						   c->diverged_at, c->left_from, c->left_to) : xasprintf("  DIVERGED at step %ld", c->diverged_at);
		sb_style(&b, po->color, c->recovered ? SGR_YELLOW : SGR_BOLD, c->recovered ? SGR_NONE : SGR_RED, d);
		sb_puts(&b, "\n");
		free(d);
	}
	spike_line(&b, po, "loss", c->loss_spikes, c->nloss_spikes);
	spike_line(&b, po, "grad-norm", c->grad_spikes, c->ngrad_spikes);
	return sb_take(&b);
}

/* At most this many per-rank lines in the default report. */
#define RANK_LINES 16

static char *section_distributed(struct run *run, const struct print_opts *po)
{
	const struct distributed *d = compat_no_steps(run, po) ? NULL : analysis_distributed(run);
	if (!d)
		return NULL;
	struct sbuf b = { 0 };
	char scope[200] = "";
	bool partial = !po->compat && steps_partial_scope(run, scope, sizeof(scope));
	char *head = xasprintf("DISTRIBUTED — %zu ranks, %zu aligned step%s%s%s%s", d->world_size, d->n_steps,
			       po->compat || d->n_steps != 1 ? "s" : "", partial ? " (" : "", scope, partial ? ")" : "");
	bool any = po->compat ? d->straggler >= 0 : d->nstragglers > 0;
	/* ranks left out, too few steps or no compute: not judged, not green */
	title(&b, po, any ? LED_HIGH : po->compat || steps_stragglers_judged(run, partial) ? LED_GREEN : LED_AMBER,
	      head);
	free(head);
	/* no comm phase recorded, or a NaN in the walls: n/a, not 0% or nan% (pytscope's layout) */
	char comm[48] = "n/a", wall[24] = "n/a", why[160], own[48];
	if (po->compat || (steps_has_phase(run->steps, "comm") && isfinite(d->mean_comm_fraction) &&
			   !analysis_comm_unmeasured(run, why, sizeof(why))))
		pct(po, d->mean_comm_fraction, 0, analysis_comm_share_text(d->mean_comm_fraction, 0, own, sizeof(own)),
		    comm, sizeof(comm));
	/* a rank without phase time: the walls it is in are no step's wall (the headline says why) */
	if (po->compat || (isfinite(d->mean_step_wall) && !analysis_wall_unmeasured(run, why, sizeof(why))))
		snprintf(wall, sizeof(wall), "%.1f ms", py_float(d->mean_step_wall * 1e3));
	const char *unweighable = po->compat ? NULL : analysis_compute_unweighable(run);
	if (unweighable) { /* every compute 0: nothing to weigh */
		sb_printf(&b, "\n  mean step wall %s · comm %s · imbalance CV n/a\n", wall, comm);
		sb_puts(&b, "  critical compute lost to imbalance n/a · median sync skew n/a\n");
		sb_printf(&b, "  per-rank compute: n/a (%s)\n", unweighable);
		return sb_take(&b);
	}
	sb_printf(&b, "\n  mean step wall %s · comm %s · imbalance CV %.2f\n", wall, comm, py_float(d->imbalance_cv));
	/* pytscope's "wall lost to imbalance" is a share of the critical compute (glossary) */
	sb_printf(&b, "  %s lost to imbalance %.1f%% · median sync skew %.1f ms/step\n",
		  po->compat ? "wall" : "critical compute", py_float(d->wall_frac_lost * 100), py_float(d->sync_skew * 1e3));
	sb_puts(&b, "  per-rank compute (ms/step) · % steps on critical path:\n");
	size_t ties = 0;
	for (size_t k = 0; k < d->n_steps && !po->compat; k++)
		ties += d->step[k].ntied > 1;
	if (ties)
		sb_printf(&b, "  (%zu of %zu steps: ranks tied at the slowest compute share the step)\n", ties,
			  d->n_steps);
	bool *shown = print_ranks_shown(d, po->compat ? 0 : RANK_LINES);
	int width = 0; /* the default report's labels padded to the widest shown */
	for (size_t r = 0; r < d->world_size && !po->compat; r++) {
		int w = snprintf(NULL, 0, "rank %d:", d->rank[r].rank);
		if ((!shown || shown[r]) && w > width)
			width = w;
	}
	for (size_t r = 0; r < d->world_size; r++) {
		const struct rank_stat *rs = &d->rank[r];
		if (shown && !shown[r])
			continue;
		bool strag = po->compat ? d->straggler == (long)r : rs->straggler;
		char *label = xasprintf("rank %d:", rs->rank);
		sb_puts(&b, "    ");
		sb_style(&b, po->color, strag ? SGR_BOLD : SGR_NONE, SGR_RED, label);
		sb_printf(&b, "%*s %7.2f ms · ", width > (int)strlen(label) ? width - (int)strlen(label) : 0, "",
			  py_float(rs->mean_compute * 1e3));
		free(label);
		double share = po->compat ? rs->slowest_fraction : rs->critical_share;
		bar(&b, po, share, strag ? BAR_BAD : BAR_PLAIN);
		sb_printf(&b, " %4.0f%% (z=%+.1f)", py_float(share * 100),
			  py_float(po->compat ? rs->straggler_z : rs->critical_z));
		if (strag) {
			sb_puts(&b, "  ");
			sb_style(&b, po->color, SGR_BOLD, SGR_RED, "<- straggler");
		}
		sb_puts(&b, "\n");
	}
	print_ranks_left_out(&b, d, shown, po->color);
	free(shown);
	return sb_take(&b);
}

/* A budget figure: pytscope's "0.65s" under --compat, else the units rule ("650 ms"). */
static const char *secs(const struct print_opts *po, double v, char *buf, size_t n)
{
	if (po->compat)
		snprintf(buf, n, "%.2fs", py_float(v));
	else
		units_seconds(v, buf, n);
	return buf;
}

static char *section_budget(struct run *run, const struct print_opts *po)
{
	if (!run->steps || !steps_nranks(run->steps) || compat_no_steps(run, po))
		return NULL;
	const struct budget *e = analysis_budget(run, 0);
	if (!e && (po->compat || !steps_total_records(run->steps))) /* pytscope prints none; natively, why */
		return NULL;
	struct sbuf b = { 0 };
	char sec[32], why[160], own[48], num[48];
	enum led l = !e || !e->has_mfu ? LED_AMBER : e->mfu >= 0.5 ? LED_GREEN : e->mfu >= 0.25 ? LED_MED : LED_HIGH;
	/* pytscope's budget wall is rank 0's rank wall (glossary); the default report says so */
	const char *wall = po->compat ? "wall" : "rank wall";
	char *head = !e ? xasprintf("EFFICIENCY BUDGET — n/a: %s", analysis_budget_why_absent(run, 0, why, sizeof(why)))
		     : po->compat ? xasprintf("EFFICIENCY BUDGET — wall-time decomposition")
		     : xasprintf("EFFICIENCY BUDGET — rank wall decomposition (rank %d)", steps_rank_id(run->steps, 0));
	title(&b, po, l, head);
	free(head);
	sb_puts(&b, "\n");
	if (!e)
		return sb_take(&b);
	if (e->has_mfu) {
		sb_puts(&b, "  MFU ");
		sb_style(&b, po->color, SGR_BOLD, e->mfu >= 0.5 ? SGR_GREEN : e->mfu >= 0.25 ? SGR_YELLOW : SGR_RED,
			 pct(po, e->mfu, 1, analysis_budget_mfu_text(e, 1, own, sizeof(own)), num, sizeof(num)));
		sb_printf(&b, "  ·  useful compute %.1f%% of %s %s", py_float(e->efficiency * 100),
			  secs(po, e->wall, sec, sizeof(sec)), wall);
		if (e->peak_table) /* never under --compat: the table is not consulted there */
			sb_printf(&b, "  (peak from GPU table: %s)", e->peak_table);
		sb_puts(&b, "\n");
	} else {
		sb_printf(&b, "  %s %s over %zu step%s (MFU: n/a)\n", wall, secs(po, e->wall, sec, sizeof(sec)), e->steps,
			  po->compat || e->steps != 1 ? "s" : "");
	}
	for (int i = 0; i < BUDGET_NLINES; i++) {
		const struct budget_line *ln = &e->line[i];
		if (i != BUDGET_USEFUL && ln->seconds <= 0)
			continue;
		sb_puts(&b, "  ");
		sb_pad(&b, ln->name, 17, po);
		sb_puts(&b, " ");
		if (!po->compat && !ln->measured) { /* pytscope's 0.0% of a phase nobody recorded */
			sb_printf(&b, "%*s %6s  %8s (not recorded)\n", BAR_CELLS, "", "n/a", "-");
			continue;
		}
		bar(&b, po, ln->fraction, ln->recoverable ? BAR_BAD : BAR_GOOD);
		sb_printf(&b, " %6s  %8s", pct(po, ln->fraction, 1, analysis_budget_share_text(e, i, 1, own, sizeof(own)), num,
					       sizeof(num)), secs(po, ln->seconds, sec, sizeof(sec)));
		if (ln->recoverable) {
			sb_puts(&b, " ");
			sb_style(&b, po->color, SGR_YELLOW, SGR_NONE, "(recoverable)");
		}
		sb_puts(&b, "\n");
	}
	if (!po->compat && !e->judged) /* pytscope shows the lone 100% line as it is */
		sb_printf(&b, "  no efficiency is judged: %s\n", analysis_budget_unjudged(e));
	const char *mfu_why = e->has_mfu ? "" : analysis_budget_mfu_na_after(e);
	if (!po->compat && *mfu_why && strcmp(mfu_why, BUDGET_NO_PEAK) != 0) /* the headline says that one */
		sb_printf(&b, "  MFU n/a: %s\n", mfu_why);
	char out[256]; /* natively only: records without any phase, time in phases of no line */
	if (analysis_left_out_records(e->unphased, out, sizeof(out)))
		sb_printf(&b, "  left out: %s\n", out);
	if (analysis_budget_left_out(run, e, out, sizeof(out)))
		sb_printf(&b, "  left out: %s\n", out);
	if (analysis_budget_steps_text(e, out, sizeof(out))) /* natively: micro-batches */
		sb_printf(&b, "  steps: %s\n", out);
	return sb_take(&b);
}

static char *section_findings(struct run *run, const struct print_opts *po)
{
	const struct finding_list *fl = run_findings(run);
	struct sbuf b = { 0 };
	if (fl->n == 0) {
		char *nj = po->compat ? NULL : findings_not_judged_lines(run);
		enum sgr sgr = nj ? SGR_YELLOW : SGR_GREEN; /* amber: not every rule could judge */
		sb_style(&b, po->color, sgr, SGR_NONE, "●");
		sb_puts(&b, " ");
		sb_style(&b, po->color, sgr, SGR_NONE,
			 po->compat ? "No issues found. Training looks balanced.\n"
			 : nj       ? "No findings: no rule fired on this run; these rules could not judge it:\n"
				    : "No findings: no rule fired on this run.\n");
		sb_puts(&b, nj ? nj : "");
		free(nj);
		return sb_take(&b);
	}
	enum severity worst = SEV_LOW;
	for (size_t i = 0; i < fl->n; i++)
		if (fl->v[i].severity < worst)
			worst = fl->v[i].severity;
	char *head = xasprintf("FINDINGS (%zu)", fl->n);
	title(&b, po, (enum led)worst, head);
	free(head);
	sb_puts(&b, "\n");
	for (size_t i = 0; i < fl->n; i++) {
		const struct finding *f = &fl->v[i];
		char *label = xasprintf("[%s]", severity_label(f->severity));
		sb_puts(&b, "  ");
		if (f->severity == SEV_HIGH)
			sb_style(&b, po->color, SGR_BOLD, SGR_RED, label);
		else
			sb_style(&b, po->color, f->severity == SEV_MED ? SGR_YELLOW : SGR_CYAN, SGR_NONE, label);
		free(label);
		sb_puts(&b, " ");
		char *t = text_sanitize_dup(f->title, 0);
		sb_style(&b, po->color, SGR_BOLD, SGR_NONE, t);
		free(t);
		sb_puts(&b, "  (");
		sb_safe(&b, f->id);
		sb_puts(&b, ")\n        ");
		sb_safe(&b, f->detail);
		sb_puts(&b, "\n");
		if (*f->fix) {
			char *fix = text_sanitize_dup(f->fix, 0);
			char *line = xasprintf("        -> %s", fix);
			sb_style(&b, po->color, SGR_CYAN, SGR_NONE, line);
			sb_puts(&b, "\n");
			free(line);
			free(fix);
		}
	}
	char *nj = po->compat ? NULL : findings_not_judged_lines(run);
	if (nj) /* the rules that could not judge the run, or a part of it: their silence is no verdict */
		sb_printf(&b, "  not judged (no finding there is no verdict):\n%s", nj);
	free(nj);
	return sb_take(&b);
}

/* ---- report --------------------------------------------------------------------------- */

/* A rank with step records. */
static bool has_step_records(const struct run *run)
{
	for (size_t r = 0; run->steps && r < steps_nranks(run->steps); r++)
		if (steps_nrecords(run->steps, r) > 0)
			return true;
	return false;
}

/* The run.json name of the lowest rank, else (pytscope's "run" under --compat) the run's
 * display name, its directory's; other formats (no steps, no trace) use the display name. */
static const char *report_name(const struct run *run, const struct print_opts *po)
{
	const char *unnamed = po->compat || !run->name ? "run" : run->name;
	if (run->steps && steps_nranks(run->steps) > 0) {
		const struct steps_meta *meta = steps_rank_meta(run->steps, 0);
		return meta->name && *meta->name ? meta->name : unnamed;
	}
	return run->trace ? unnamed : run->name;
}

/* The columns a clipped run name keeps in the title at least, whatever its path. */
#define TITLE_NAME_MIN 40

/* The title's run name, sanitized (malloc'd): whole as pytscope prints it (whole:
 * its title under --compat), else clipped with an ellipsis to the columns the report's
 * width leaves it beside "tscope-tui — " and the path (at least TITLE_NAME_MIN). */
static char *title_name(const char *raw, const char *path, const struct print_opts *po, bool whole)
{
	char *name = text_sanitize_dup(raw, 0);
	int cols = (po->width > 0 ? po->width : 100) - text_width("tscope-tui —   ()") - text_width(path);
	if (cols < TITLE_NAME_MIN)
		cols = TITLE_NAME_MIN;
	if (whole || text_width(name) <= cols)
		return name;
	size_t n = (size_t)cols * 4 + 8;
	char *clip = xmalloc(n);
	text_clip(name, cols, clip, n, true, po->ascii ? TEXT_ASCII : 0);
	free(name);
	return clip;
}

/* The headline: every subsystem's summary lines (registry_summary), the same lines
 * the Overview pane shows; then a blank line. Nothing when no family has one. */
static void headline(struct run *run, FILE *f, const struct print_opts *po)
{
	static const enum sgr tone_sgr[] = { [TONE_NORMAL] = SGR_NONE, [TONE_GOOD] = SGR_GREEN,
					[TONE_WARN] = SGR_YELLOW, [TONE_BAD] = SGR_RED };
	struct summary s;
	registry_summary(run, &s);
	for (size_t i = 0; i < s.n; i++) {
		struct sbuf b = { 0 };
		sb_printf(&b, "  %-16s ", s.line[i].key);
		sb_style(&b, po->color, tone_sgr[s.line[i].tone], SGR_NONE, s.line[i].text);
		fprintf(f, "%s\n", b.s);
		free(b.s);
	}
	if (s.n)
		fputc('\n', f);
}

int print_write_failed(FILE *f, const char *what, int err)
{
	fprintf(stderr, "tscope-tui: writing %s: %s\n", what, strerror(err ? err : EIO));
	__fpurge(f);
	clearerr(f);
	return 1;
}

/* Data beyond the step model: any other family (registry has_data). A step model
 * without records counts as nothing, as in pytscope. */
static bool other_family_data(const struct run *run)
{
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s] != &sub_steps && registry[s]->has_data && registry[s]->has_data(run))
			return true;
	return false;
}

/* Beyond pytscope's "No steps or trace found": the step logs that could not be read,
 * and the ranks whose run.json records steps (n_steps, written when the run finished)
 * though none has a step record. */
static void say_logs_missing(const struct run *run)
{
	size_t n = 0;
	long most = 0;
	for (size_t ri = 0; run->steps && ri < steps_nranks(run->steps); ri++) {
		const struct steps_meta *meta = steps_rank_meta(run->steps, ri);
		if (steps_meta_finished(meta)) {
			n++;
			most = meta->n_steps > most ? meta->n_steps : most;
		}
	}
	char why[256];
	bool unread = steps_logs_why_none(run, why, sizeof(why));
	if (n)
		fprintf(stderr, "The run finished %ld steps (run.json n_steps, %zu rank%s), but no step record is "
			"here: %s (see --export sources).\n", most, n, n == 1 ? "" : "s", why);
	else if (unread)
		fprintf(stderr, "No step record: %s (see --export sources).\n", why);
}

/* Whether the report has anything: steps, a distributed summary or another family's
 * data; under --compat pytscope, what pytscope reads (model/compat.h). A run with data
 * pytscope does not read never gets here under --compat: main refuses it
 * (cli_compat_refusal). */
static bool report_has_data(struct run *run, const struct print_opts *po)
{
	if (po->compat)
		return compat_reads_data(run);
	return has_step_records(run) || analysis_distributed(run) || other_family_data(run);
}

int print_nothing_found(const struct run *run, bool compat)
{
	char *p = text_sanitize_dup(run->path, 0);
	fprintf(stderr, "No steps or trace found in '%s'.\n", p);
	free(p);
	if (!compat)
		say_logs_missing(run);
	return 1;
}

int print_report(struct run *run, FILE *f, const struct print_opts *po)
{
	bool pytscope_run = run->steps || run->trace;
	if (!report_has_data(run, po))
		return print_nothing_found(run, po->compat);
	char *(*const sections[])(struct run *, const struct print_opts *) = {
		section_timing, section_memory, section_convergence, section_distributed,
		print_section_trace, section_budget, print_section_sweep, print_section_dasf,
		section_findings,
	};
	bool pytscope_title = pytscope_run && po->compat;
	char *path = text_sanitize_dup(run->path, 0);
	char *name = title_name(report_name(run, po), path, po, pytscope_title);
	/* pytscope's header for what pytscope reads under --compat; our own name otherwise. */
	fprintf(f, "%s — %s  (%s)\n\n", pytscope_title ? "pytscope" : "tscope-tui", name, path);
	free(name);
	free(path);
	if (!po->compat)
		headline(run, f, po);
	bool first = true;
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		if (!pytscope_run && i < 3)
			continue; /* TIMING/MEMORY/CONVERGENCE belong to pytscope runs */
		char *s = sections[i](run, po);
		if (s && *s) {
			fprintf(f, "%s%s", first ? "" : "\n", s);
			first = false;
		}
		free(s);
	}
	return 0;
}
