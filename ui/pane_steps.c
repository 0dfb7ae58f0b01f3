/* SPDX-License-Identifier: MIT */
/* pane_steps.c: one rank over its step records: per-step phases as stacked bars (one
 * fill glyph and colour per phase, so it reads in mono) and sparklines of step time,
 * loss, grad norm and memory on the same step axis. When records exceed the columns,
 * a column shows the mean phases of its records and the WORST (max) of each series.
 * j/k change rank, h/l move the step cursor, +/- zoom (not zoomed, the columns fit all
 * the records at any size), H/L pan; y/Y copy the step time / the record as --export
 * steps writes them. A rank without a record says why: its steps.jsonl, or its trace
 * when the run's steps are its traces' ProfilerSteps (trace_steps_why_none). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/units.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/copy.h"
#include "ui/draw.h"
#include "ui/legend.h"

enum { SP_SERIES = STEPS_NSERIES, SP_LABEL_W = 12, SP_MAX_PHASES = 16 };


struct spane {
	const struct steps_model *m;
	size_t ri;
	int rank;                   /* steps_rank_id of ri (follow mode re-finds it) */
	size_t cur, c0, spc;        /* record positions */
	bool zoomed;                /* spc below the fit (+/-, evidence): kept by a resize; else every frame fits */
	size_t n_seen;              /* records of the rank when the view was last fixed */
	int w;                      /* columns of the last frame */
	int phase[SP_MAX_PHASES];   /* phase metric ids in display order */
	size_t nphase;
	int series[SP_SERIES];      /* metric ids (-1 absent); step_time is derived */
	long mark_lo, mark_hi;      /* marked step range, -1 none */
	const long *marks;
	size_t nmarks;
	const char *hl_series;      /* highlighted series name (evidence) */
	size_t from_ri, from_cur, from_c0; /* where a `/` search began (sp_search_from) */
	struct table *export;
};

static void set_phases(struct spane *p, struct app *app)
{
	p->rank = steps_rank_id(p->m, p->ri);
	p->nphase = 0;
	const struct timing *t = analysis_timing(app->run, p->ri);
	if (t)
		for (size_t i = 0; i < t->nphase && p->nphase < SP_MAX_PHASES; i++)
			p->phase[p->nphase++] = t->phase[i].metric;
	for (size_t i = 0; i < steps_nmetrics(p->m) && p->nphase < SP_MAX_PHASES; i++) {
		int id = steps_metric_nth(p->m, i);
		if (steps_metric(p->m, id)->kind != METRIC_PHASE)
			continue;
		bool have = false;
		for (size_t k = 0; k < p->nphase; k++)
			have |= p->phase[k] == id;
		if (!have)
			p->phase[p->nphase++] = id;
	}
}

static void *sp_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	const struct steps_model *m = app->run->steps;
	if (!m || !steps_nranks(m)) {
		snprintf(why, whyn, "no per-rank step records in this run");
		return NULL;
	}
	struct spane *p = xcalloc(1, sizeof(*p));
	p->m = m;
	p->mark_lo = p->mark_hi = -1;
	size_t n;
	const int *strag = app_stragglers(app, &n);
	long ri = n ? steps_rank_index(m, strag[0]) : -1;
	p->ri = ri >= 0 ? (size_t)ri : 0;
	set_phases(p, app);
	for (int k = 0; k < SP_SERIES; k++)
		p->series[k] = steps_series_metric(m, (enum steps_series)k);
	return p;
}

static void sp_close(void *priv)
{
	struct spane *p = priv;
	table_free(p->export);
	free(p);
}

static size_t nrec(const struct spane *p)
{
	return steps_nrecords(p->m, p->ri);
}

/* The record's finite phases summed left to right: drawn (the sparkline's every record
 * in view) and shown to three digits; the exact sum is the export's (the steps view). */
static double step_time(const struct spane *p, size_t pos, bool *have)
{
	double sum = 0;
	*have = false;
	for (size_t k = 0; k < p->nphase; k++) {
		double v;
		if (steps_value(p->m, p->ri, p->phase[k], pos, &v) && isfinite(v)) {
			sum += v;
			*have = true;
		}
	}
	return sum;
}

static bool series_value(const struct spane *p, int s, size_t pos, double *out)
{
	if (s == 0) {
		bool have;
		*out = step_time(p, pos, &have);
		return have;
	}
	return p->series[s] >= 0 && steps_value(p->m, p->ri, p->series[s], pos, out);
}

/* Records a column at which the rank's records fit the width. */
static size_t fit_spc(const struct spane *p)
{
	size_t n = nrec(p);
	return p->w > 0 && n > (size_t)p->w ? (n + (size_t)p->w - 1) / (size_t)p->w : 1;
}

/* The window after a move, a zoom, a new size or new records: a view not zoomed fits
 * all the rank's records at the width it has now (a resize too); a zoom is kept, never
 * coarser than that fit (reaching it ends the zoom). */
static void fix_view(struct spane *p)
{
	size_t n = nrec(p);
	p->n_seen = n;
	if (p->cur >= n)
		p->cur = n ? n - 1 : 0;
	if (p->w <= 0)
		return;
	size_t fit = fit_spc(p);
	if (!p->zoomed || !p->spc || p->spc >= fit) {
		p->spc = fit;
		p->zoomed = false;
	}
	size_t span = (size_t)p->w * p->spc;
	if (p->cur < p->c0)
		p->c0 = p->cur;
	if (p->cur >= p->c0 + span)
		p->c0 = p->cur - span / 2;
	p->c0 -= p->c0 % p->spc;
	if (n <= span)
		p->c0 = 0;
}

static bool marked(const struct spane *p, size_t a, size_t b)
{
	long lo = steps_step(p->m, p->ri, a), hi = steps_step(p->m, p->ri, b - 1);
	if (p->mark_lo >= 0 && p->mark_lo <= hi && (p->mark_hi < 0 ? p->mark_lo : p->mark_hi) >= lo)
		return true;
	for (size_t i = 0; i < p->nmarks; i++)
		if (p->marks[i] >= lo && p->marks[i] <= hi)
			return true;
	return false;
}

/* Mean of each phase over records [a, b); returns the stacked total. */
static double bucket_phases(const struct spane *p, size_t a, size_t b, double *mean)
{
	double total = 0;
	for (size_t k = 0; k < p->nphase; k++) {
		double sum = 0;
		size_t cnt = 0;
		for (size_t pos = a; pos < b; pos++) {
			double v;
			if (steps_value(p->m, p->ri, p->phase[k], pos, &v) && isfinite(v)) {
				sum += v;
				cnt++;
			}
		}
		mean[k] = cnt ? sum / (double)cnt : 0;
		total += mean[k];
	}
	return total;
}

/* The stacked bars in r: its first SP_LABEL_W columns the y axis's label, then p->w
 * columns of buckets of records, as the axis and the sparklines have. */
static void draw_chart(struct spane *p, struct app *app, const struct rect *r)
{
	size_t n = nrec(p);
	double ymax = 0;
	double mean[SP_MAX_PHASES];
	int cols = 0;
	for (int x = 0; x < p->w; x++, cols++) {
		size_t a = p->c0 + (size_t)x * p->spc;
		if (a >= n)
			break;
		size_t b = a + p->spc < n ? a + p->spc : n;
		double t = bucket_phases(p, a, b, mean);
		if (t > ymax)
			ymax = t;
	}
	char lab[32];
	draw_text(r->y, r->x, SP_LABEL_W, units_seconds(ymax, lab, sizeof(lab)), ROLE_DIM);
	for (int x = 0; x < cols; x++) {
		size_t a = p->c0 + (size_t)x * p->spc;
		size_t b = a + p->spc < n ? a + p->spc : n;
		bucket_phases(p, a, b, mean);
		double cum = 0;
		size_t k = 0;
		for (int y = 0; y < r->h && ymax > 0; y++) {
			double level = (y + 0.5) / r->h * ymax;   /* from the bottom */
			while (k < p->nphase && cum + mean[k] < level)
				cum += mean[k++];
			if (k >= p->nphase)
				break;
			/* the cursor is shown on the axis and the sparklines only: a move then
			 * rewrites a few cells, not a whole chart column */
			draw_fill(r->y + r->h - 1 - y, r->x + SP_LABEL_W + x, 1, (int)k);
		}
	}
}

/* Columns from one step label to the next: 12, more when the widest step shown needs
 * them, so a step near 1e12 shows whole, never clipped to "100000000..." like its
 * neighbours. */
static int axis_gap(const struct spane *p, int ncol)
{
	int widest = 0;
	for (int x = 0; x < ncol; x++) {
		char label[24];
		int len = snprintf(label, sizeof(label), "%ld", steps_step(p->m, p->ri, p->c0 + (size_t)x * p->spc));
		widest = len > widest ? len : widest;
	}
	return widest + 2 > 12 ? widest + 2 : 12;
}

/* The cursor pointer and the evidence marks, then the step labels where none of them
 * falls (a label with its first digit drawn over would read as another step: "▶0" for
 * step 10); a label wider than 10 columns only whole, never clipped at the right edge. */
static void draw_axis(struct spane *p, struct app *app, int y, int x0, int w)
{
	size_t n = nrec(p);
	char *sym = xcalloc((size_t)w + 1, 1); /* per column: 'p' pointer, 'm' mark, 0 */
	int ncol = 0;
	for (; ncol < w; ncol++) {
		size_t a = p->c0 + (size_t)ncol * p->spc;
		if (a >= n)
			break;
		size_t b = a + p->spc < n ? a + p->spc : n;
		sym[ncol] = a <= p->cur && p->cur < b ? 'p' : marked(p, a, b) ? 'm' : 0;
		if (sym[ncol])
			draw_text(y, x0 + ncol, 1, sym[ncol] == 'p' ? app->g->pointer : app->g->mark,
				  sym[ncol] == 'p' ? ROLE_CURSOR : ROLE_MARK);
	}
	int gap = axis_gap(p, ncol);
	for (int x = 0; x + 8 < w && x < ncol; x += gap) {
		char label[24];
		int len = snprintf(label, sizeof(label), "%ld", steps_step(p->m, p->ri, p->c0 + (size_t)x * p->spc));
		if (len > 10 && x + len > w)
			break;
		bool covered = false;
		for (int k = x; k < x + len && k < ncol && !covered; k++)
			covered = sym[k] != 0;
		if (!covered)
			draw_text(y, x0 + x, gap - 2, label, ROLE_DIM);
	}
	free(sym);
}

static void draw_spark(struct spane *p, struct app *app, int s, int y, int x0, int w)
{
	size_t n = nrec(p);
	double lo = INFINITY, hi = -INFINITY;
	double *v = xmalloc(((size_t)w + 1) * sizeof(*v));
	for (int x = 0; x < w; x++) {
		v[x] = NAN;
		size_t a = p->c0 + (size_t)x * p->spc;
		if (a >= n)
			continue;
		size_t b = a + p->spc < n ? a + p->spc : n;
		for (size_t pos = a; pos < b; pos++) {
			double val;
			if (series_value(p, s, pos, &val) && !isnan(val) && (isnan(v[x]) || val > v[x]))
				v[x] = val;
		}
		if (isfinite(v[x])) {
			lo = v[x] < lo ? v[x] : lo;
			hi = v[x] > hi ? v[x] : hi;
		}
	}
	if (text_flat(lo, hi))   /* one value but for float noise (phases summed in another order): flat */
		hi = lo;
	bool hl = p->hl_series && strcmp(p->hl_series, steps_series_name[s]) == 0;
	if (hl)   /* the evidence series: marked by glyph too, so it shows in mono */
		draw_fmt(y, x0 - SP_LABEL_W, SP_LABEL_W - 1, ROLE_MARK, "%s%s", app->g->mark, steps_series_name[s]);
	else
		draw_text(y, x0 - SP_LABEL_W, SP_LABEL_W - 1, steps_series_name[s], ROLE_DIM);
	if (!(hi >= lo)) {
		draw_text(y, x0, w, "n/a (not recorded)", ROLE_DIM);
		free(v);
		return;
	}
	for (int x = 0; x < w; x++) {
		size_t a = p->c0 + (size_t)x * p->spc;
		if (a >= n)
			break;
		bool cur = a <= p->cur && p->cur < a + p->spc;
		if (isnan(v[x])) {
			draw_text(y, x0 + x, 1, app->g->missing, cur ? ROLE_CURSOR : ROLE_MISSING);
			continue;
		}
		int l = !isfinite(v[x]) ? GLYPH_SPARK - 1 : (int)(text_frac(v[x], lo, hi) * (GLYPH_SPARK - 1) + 0.5);
		draw_text(y, x0 + x, 1, app->g->spark[l], cur ? ROLE_CURSOR : hl ? ROLE_MARK : ROLE_BAR);
	}
	free(v);
}

static void sp_draw(void *priv, struct app *app, const struct rect *body)
{
	struct spane *p = priv;
	p->w = body->w - SP_LABEL_W - 1;   /* the columns of the bars, the axis and the sparklines */
	fix_view(p);
	int y = body->y;
	draw_fmt(y++, body->x + 1, body->w - 2, ROLE_HEADER,
		 "rank %d (%zu of %zu)  %zu record%s%s  j/k:rank h/l:step +/-:zoom H/L:pan", steps_rank_id(p->m, p->ri),
		 p->ri + 1, steps_nranks(p->m), nrec(p), nrec(p) == 1 ? "" : "s",
		 p->spc > 1 ? "  (per column: mean phases, max of each series)" : "");
	if (!nrec(p)) { /* an empty chart would draw a 0 s axis; its steps may be its trace's ProfilerSteps */
		const char *why = trace_steps_why_none(app->run, steps_rank_id(p->m, p->ri));
		draw_fmt(y + 1, body->x + 2, body->w - 4, ROLE_DIM, "no step records for this rank: %s (see Sources)",
			 why ? why : "its steps.jsonl is missing, empty or has no valid line");
		return;
	}
	int chart_h = body->h - 4 - SP_SERIES;
	struct rect chart = { y, body->x, chart_h, p->w + SP_LABEL_W };
	draw_chart(p, app, &chart);
	y += chart_h;
	draw_axis(p, app, y++, body->x + SP_LABEL_W, p->w);
	int x = body->x + SP_LABEL_W;
	for (size_t k = 0; k < p->nphase && x < body->x + body->w - 4; k++) {
		const char *name = steps_metric(p->m, p->phase[k])->name;
		draw_fill(y, x, 1, (int)k);
		if (p->hl_series && strcmp(p->hl_series, name) == 0) /* the evidence phase, marked as a series is */
			x += 2 + draw_fmt(y, x + 2, body->x + body->w - x - 2, ROLE_MARK, "%s%s", app->g->mark, name);
		else
			x += 2 + draw_text(y, x + 2, body->x + body->w - x - 2, name, ROLE_DIM);
		x += 1;
	}
	y++;
	for (int s = 0; s < SP_SERIES; s++)
		draw_spark(p, app, s, y++, body->x + SP_LABEL_W, p->w);
}

static unsigned sp_handle(void *priv, struct app *app, enum action a)
{
	struct spane *p = priv;
	size_t n = nrec(p), spc = p->spc ? p->spc : 1, half = (size_t)(p->w > 1 ? p->w / 2 : 1) * spc;
	size_t hp = half / 2 > spc ? half / 2 : spc;
	switch (a) {
	case ACT_UP:
	case ACT_DOWN:
		if (a == ACT_UP && p->ri > 0)
			p->ri--;
		else if (a == ACT_DOWN && p->ri + 1 < steps_nranks(p->m))
			p->ri++;
		set_phases(p, app);
		break;
	case ACT_LEFT: p->cur = p->cur > spc ? p->cur - spc : 0; break;
	case ACT_RIGHT: p->cur += spc; break;
	case ACT_PAN_LEFT: case ACT_PAGE_UP: p->cur = p->cur > half ? p->cur - half : 0; p->c0 = p->c0 > half ? p->c0 - half : 0; break;
	case ACT_PAN_RIGHT: case ACT_PAGE_DOWN: p->cur += half; p->c0 += half; if (p->c0 >= n) p->c0 = p->cur; break;
	/* half a page (of PgDn's step): the cursor only, the view follows it (fix_view) */
	case ACT_HALF_UP: p->cur = p->cur > hp ? p->cur - hp : 0; break;
	case ACT_HALF_DOWN: p->cur += hp; break;
	case ACT_TOP: p->cur = 0; break;
	case ACT_BOTTOM: p->cur = n ? n - 1 : 0; break;
	case ACT_ZOOM_IN: {   /* the zoom levels: layout_zoom_level, as the heatmap's */
		size_t finer = layout_zoom_level(fit_spc(p), spc, true);   /* spc itself at 1 record a column */
		p->zoomed |= finer < spc;
		p->spc = finer;
		p->c0 = p->cur > half / 2 ? p->cur - half / 2 : 0;
		break;
	}
	case ACT_ZOOM_OUT: p->spc = layout_zoom_level(fit_spc(p), spc, false); break;   /* at the fit: unzoomed */
	default: return PR_NONE;
	}
	fix_view(p);
	return PR_HANDLED;
}

/* The run grew (follow mode): the same rank by id, the cursor on the same record (on the
 * newest when it was on the last), a zoom kept (a view not zoomed fits the grown run);
 * the evidence marks are dropped (they pointed into the findings the change freed), the
 * marked step range stays. */
static bool sp_rebuild(void *priv, struct app *app)
{
	struct spane *p = priv;
	long ri = steps_rank_index(p->m, p->rank);
	if (ri < 0)
		return false;
	bool at_end = p->cur + 1 >= p->n_seen;
	p->ri = (size_t)ri;
	set_phases(p, app);
	p->marks = NULL;
	p->nmarks = 0;
	p->hl_series = NULL;
	size_t n = nrec(p);
	if (at_end && n)
		p->cur = n - 1;
	fix_view(p);
	return true;
}

static unsigned sp_select(void *priv, struct app *app, const struct ui_target *t)
{
	struct spane *p = priv;
	if (t->rank >= 0) {
		long ri = steps_rank_index(p->m, t->rank);
		if (ri < 0)
			return PR_NONE;
		p->ri = (size_t)ri;
		set_phases(p, app);
	}
	p->mark_lo = t->step_lo;
	p->mark_hi = t->step_hi;
	p->marks = t->marks;
	p->nmarks = t->nmarks;
	p->hl_series = t->series;
	long want = t->step_lo >= 0 ? t->step_lo : t->nmarks ? t->marks[0] : -1;
	size_t pos;
	if (want >= 0 && steps_find(p->m, p->ri, want, &pos)) {
		p->cur = pos;
	} else if (want < 0) { /* a whole-run series: the whole run, never the last cursor */
		p->cur = 0;
		p->zoomed = false;
	}
	if (t->step_lo >= 0 && t->step_hi > t->step_lo && p->w > 0) {
		/* zoom so the whole evidence range is visible */
		size_t hi;
		if (steps_find(p->m, p->ri, t->step_hi, &hi) && hi > p->cur)
			while (p->spc > 1 && (hi - p->cur) / (p->spc / 2) < (size_t)p->w) {
				p->spc /= 2;
				p->zoomed = true;
			}
	}
	fix_view(p);
	return PR_HANDLED;
}

static void sp_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct spane *p = priv;
	if (!nrec(p)) {
		snprintf(buf, n, "rank %d: no records", steps_rank_id(p->m, p->ri));
		return;
	}
	bool have;
	double st = step_time(p, p->cur, &have);
	char num[32];
	int k = snprintf(buf, n, "rank %d step %ld", steps_rank_id(p->m, p->ri), steps_step(p->m, p->ri, p->cur));
	if (have && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "  step_time %s", units_seconds(st, num, sizeof(num)));
	for (size_t i = 0; i < p->nphase && k > 0 && (size_t)k < n; i++) {
		double v;
		if (steps_value(p->m, p->ri, p->phase[i], p->cur, &v))
			k += snprintf(buf + k, n - (size_t)k, "  %s %s", steps_metric(p->m, p->phase[i])->name,
				      units_seconds(v, num, sizeof(num)));
	}
	for (int s = 1; s < SP_SERIES && k > 0 && (size_t)k < n; s++) {
		double v;
		if (!series_value(p, s, p->cur, &v))
			continue;
		if (s == SERIES_MEMORY)
			units_bytes(v, num, sizeof(num));
		else   /* loss and grad norm have no unit */
			snprintf(num, sizeof(num), "%.4g", v);
		k += snprintf(buf + k, n - (size_t)k, "  %s %s", steps_series_name[s], num);
	}
}

static struct table *sp_table(void *priv, struct app *app)
{
	struct spane *p = priv;
	table_free(p->export);
	p->export = NULL;
	p->export = steps_view_rank(app->run, p->ri);
	return p->export;
}

/* `/` items, in the pane's order: the rank's steps ("step 120"), the phase and series
 * names, then the other ranks ("rank 3": showing one switches to it). */
static size_t sp_items(void *priv, struct app *app, size_t *sel)
{
	struct spane *p = priv;
	*sel = p->cur;
	return nrec(p) + p->nphase + SP_SERIES + steps_nranks(p->m);
}

static void sp_item_text(void *priv, struct app *app, size_t i, char *buf, size_t n)
{
	struct spane *p = priv;
	size_t nr = nrec(p);
	if (i < nr)
		snprintf(buf, n, "step %ld", steps_step(p->m, p->ri, i));
	else if ((i -= nr) < p->nphase)
		snprintf(buf, n, "%s", steps_metric(p->m, p->phase[i])->name);
	else if ((i -= p->nphase) < SP_SERIES)
		snprintf(buf, n, "%s", steps_series_name[i]);
	else
		snprintf(buf, n, "rank %d", steps_rank_id(p->m, i - SP_SERIES));
}

static void sp_item_show(void *priv, struct app *app, size_t i)
{
	struct spane *p = priv;
	size_t nr = nrec(p), names = p->nphase + SP_SERIES;
	if (i < nr) {
		p->cur = i;
	} else if (i - nr >= names) {   /* a phase or series name is always on screen */
		p->ri = i - nr - names;
		set_phases(p, app);
	}
	fix_view(p);
}

/* y: the step time of the step under the cursor, Y: its record, as --export steps writes
 * them (step_time_ms, then every phase and series). */
static int sp_copy(void *priv, struct app *app, bool row, char *buf, size_t n)
{
	struct spane *p = priv;
	if (!nrec(p))
		return -1;
	const struct table *t = sp_table(p, app);
	int c_step = t ? table_col_role(t, COL_ROLE_STEP) : -1;
	long step = steps_step(p->m, p->ri, p->cur), r = -1;
	for (size_t i = 0; c_step >= 0 && r < 0 && i < t->nrow; i++) {   /* the cursor's row: record p->cur */
		size_t k = (p->cur + i) % t->nrow;
		const struct table_cell *c = table_cell(t, k, c_step);
		if (c->present && (c->is_int ? c->exact : (long long)c->num) == step)
			r = (long)k;
	}
	return copy_cells(t, r, row, t ? table_col_index(t, "step_time_ms") : -1, buf, n);
}

/* A search that showed "rank 3" switched ranks: Esc or "no match" come back to the
 * rank and step it began on. */
static void sp_search_from(void *priv, struct app *app, bool back)
{
	struct spane *p = priv;
	if (!back) {
		p->from_ri = p->ri;
		p->from_cur = p->cur;
		p->from_c0 = p->c0;
		return;
	}
	if (p->ri != p->from_ri && p->from_ri < steps_nranks(p->m)) {
		p->ri = p->from_ri;
		set_phases(p, app);
	}
	p->cur = p->from_cur;
	p->c0 = p->from_c0;
	fix_view(p);
}

static int sp_cur_rank(void *priv, struct app *app)
{
	struct spane *p = priv;
	return steps_rank_id(p->m, p->ri);
}

/* The phases' fills, the sparklines' ramp, the axis marks. */
static void sp_legend(void *priv, struct app *app, struct legend *l)
{
	struct spane *p = priv;
	char buf[160];
	legend_head(l, "Steps: one rank over its step records");
	legend_para(l, "Top: each step's phases as a stacked bar (the label is the tallest bar's step time); when "
		       "steps outnumber the columns a column shows the mean phases of its steps. Below: one sparkline "
		       "per series, each on its own scale from its lowest to its highest value in view, the WORST "
		       "(max) of a column's steps.");
	for (size_t k = 0; k < p->nphase; k++) {
		snprintf(buf, sizeof(buf), "phase %s", steps_metric(p->m, p->phase[k])->name);
		legend_fill(l, (int)k, buf);
	}
	snprintf(buf, sizeof(buf), "a series' lowest value in view; %s its highest", app->g->spark[GLYPH_SPARK - 1]);
	legend_row(l, app->g->spark[0], 1, ROLE_BAR, buf);
	legend_row(l, app->g->pointer, 1, ROLE_CURSOR, "the step under the cursor (h/l move it; the status row has its values)");
	legend_row(l, app->g->mark, 1, ROLE_MARK, "a step the opened finding names; a marked series label is its evidence");
	legend_row(l, app->g->missing, 1, ROLE_MISSING, "no value recorded at that step");
	legend_terms(l, "step time compute comm");
}

const struct pane_ops pane_steps = {
	.name = "steps",
	.open = sp_open,
	.close = sp_close,
	.draw = sp_draw,
	.handle = sp_handle,
	.select = sp_select,
	.table = sp_table,
	.rebuild = sp_rebuild,
	.status = sp_status,
	.cur_rank = sp_cur_rank,
	.items = sp_items,
	.item_text = sp_item_text,
	.item_show = sp_item_show,
	.search_from = sp_search_from,
	.copy = sp_copy,
	.legend = sp_legend,
};
