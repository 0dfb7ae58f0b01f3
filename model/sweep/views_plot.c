/* SPDX-License-Identifier: MIT */
/* views_plot.c: text plots of a sweep metric vs its stimulus (see plot.h). */
#include "model/sweep/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/findings.h"
#include "model/run.h"
#include "model/sweep/internal.h"
#include "model/xalloc.h"

enum cell { C_BLANK, C_FIT, C_TARGET, C_EST, C_POINT, C_LOWCONF, C_OUTLIER, C_NCELL };

static const char *const glyph_utf8[C_NCELL] = { " ", "·", "─", "│", "●", "○", "✕" };
static const char *const glyph_ascii[C_NCELL] = { " ", ".", "-", "|", "o", "?", "x" };

enum { GUTTER = 10 };

struct frame {
	double x0, x1, y0, y1;
	int pw, ph;   /* plot area in cells */
};

static void extend(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

static bool make_frame(const struct plot_spec *p, int w, int h, struct frame *f)
{
	f->x0 = f->y0 = INFINITY;
	f->x1 = f->y1 = -INFINITY;
	for (size_t i = 0; i < p->n; i++) {
		if (p->skip[i])
			continue;
		extend(&f->x0, &f->x1, p->x[i]);
		extend(&f->y0, &f->y1, p->y[i]);
	}
	if (!isfinite(f->x0) || !isfinite(f->y0))
		return false;
	if (p->has_estimate && p->estimate <= 4 * f->x1)
		extend(&f->x0, &f->x1, p->estimate);
	if (p->has_target)
		extend(&f->y0, &f->y1, p->target);
	if (f->y0 > 0 && f->y0 < 0.5 * f->y1)
		f->y0 = 0;
	if (f->x1 == f->x0) {
		f->x0 -= 1;
		f->x1 += 1;
	}
	if (f->y1 == f->y0) {
		f->y0 -= fabs(f->y0) * 0.1 + 1;
		f->y1 += fabs(f->y1) * 0.1 + 1;
	}
	f->pw = w - GUTTER;
	f->ph = h - 2;
	return f->pw >= 8 && f->ph >= 3;
}

static int col_of(const struct frame *f, double x)
{
	return (int)lround((x - f->x0) / (f->x1 - f->x0) * (f->pw - 1));
}

static int row_of(const struct frame *f, double y)
{
	return f->ph - 1 - (int)lround((y - f->y0) / (f->y1 - f->y0) * (f->ph - 1));
}

static void put(unsigned char *grid, const struct frame *f, int r, int c, enum cell v)
{
	if (r < 0 || r >= f->ph || c < 0 || c >= f->pw)
		return;
	unsigned char *g = &grid[r * f->pw + c];
	if (v > *g)
		*g = (unsigned char)v;
}

static void fill_grid(const struct plot_spec *p, const struct frame *f, unsigned char *grid)
{
	if (p->has_target)
		for (int c = 0; c < f->pw; c++)
			put(grid, f, row_of(f, p->target), c, C_TARGET);
	if (p->has_estimate)
		for (int r = 0; r < f->ph; r++)
			put(grid, f, r, col_of(f, p->estimate), C_EST);
	if (p->has_line)
		for (int c = 0; c < f->pw; c++) {
			double x = f->x0 + (f->x1 - f->x0) * c / (f->pw - 1);
			put(grid, f, row_of(f, p->slope * x + p->intercept), c, C_FIT);
		}
	for (size_t i = 0; i < p->n; i++)
		if (!p->skip[i] && isfinite(p->x[i]) && isfinite(p->y[i]))
			put(grid, f, row_of(f, p->y[i]), col_of(f, p->x[i]),
			    p->outlier[i] ? C_OUTLIER : p->lowconf[i] ? C_LOWCONF : C_POINT);
}

/* A y value in at most GUTTER - 2 columns, right-aligned, then a blank. */
static void axis_label(char *buf, size_t n, double y)
{
	char v[64];
	snprintf(v, sizeof(v), "%.4g", y);
	if (strlen(v) > GUTTER - 2)
		snprintf(v, sizeof(v), "%.0f", y);
	if (strlen(v) > GUTTER - 2)
		snprintf(v, sizeof(v), "%.1e", y);
	snprintf(buf, n, "%*.*s ", GUTTER - 2, GUTTER - 2, v);
}

/* The y value of plot row r: y1 at the top, y0 at the bottom, exactly; rounding noise around 0
 * (1e-16 where the rows' steps cross it) is 0, so no label reads "-0". */
static double row_value(const struct frame *f, int r)
{
	double y = r == f->ph - 1 ? f->y0 : f->y1 - (f->y1 - f->y0) * r / (f->ph - 1);
	return fabs(y) < 1e-9 * (f->y1 - f->y0) ? 0 : y;
}

static char *row_text(const char *gutter, const unsigned char *cells, int n, const char *const *g,
		      const char *axis)
{
	size_t cap = strlen(gutter) + strlen(axis) + (size_t)n * 4 + 1;
	char *s = xmalloc(cap);
	size_t k = (size_t)snprintf(s, cap, "%s%s", gutter, axis);
	for (int c = 0; c < n; c++) {
		size_t gl = strlen(g[cells[c]]);
		memcpy(s + k, g[cells[c]], gl);
		k += gl;
	}
	s[k] = '\0';
	return s;
}

static char *pad_line(const char *text, int w)
{
	char *s = xmalloc((size_t)w + 1);
	int n = (int)strlen(text);
	if (n > w)
		n = w;
	memcpy(s, text, (size_t)n);
	memset(s + n, ' ', (size_t)(w - n));
	s[w] = '\0';
	return s;
}

char **plot_render(const struct plot_spec *p, int w, int h, bool ascii)
{
	struct frame f;
	if (w < 20 || h < 5 || !make_frame(p, w, h, &f))
		return NULL;
	const char *const *g = ascii ? glyph_ascii : glyph_utf8;
	unsigned char *grid = xcalloc((size_t)f.pw * (size_t)f.ph, 1);
	fill_grid(p, &f, grid);
	char **rows = xcalloc((size_t)h, sizeof(*rows));
	for (int r = 0; r < f.ph; r++) {
		char gutter[GUTTER + 8];
		if (r == 0 || r == f.ph - 1 || r == f.ph / 2)
			axis_label(gutter, sizeof(gutter), row_value(&f, r));
		else
			snprintf(gutter, sizeof(gutter), "%*s", GUTTER - 1, "");
		rows[r] = row_text(gutter, grid + r * f.pw, f.pw, g, ascii ? "|" : "│");
	}
	unsigned char *axis = xmalloc((size_t)f.pw);
	memset(axis, C_TARGET, (size_t)f.pw);
	char gut[GUTTER + 1];
	snprintf(gut, sizeof(gut), "%*s", GUTTER - 1, "");
	rows[f.ph] = row_text(gut, axis, f.pw, g, ascii ? "+" : "└");
	free(axis);
	char lab[512];
	int left = snprintf(lab, sizeof(lab), "%*s%-.4g", GUTTER, "", f.x0);
	char right[64];
	int rn = snprintf(right, sizeof(right), "%s %.4g", p->xlabel, f.x1);
	int gap = w - left - rn;
	if (gap < 1)
		gap = 1;
	snprintf(lab + left, sizeof(lab) - (size_t)left, "%*s%s", gap, "", right);
	rows[f.ph + 1] = pad_line(lab, w);
	free(grid);
	return rows;
}

void plot_free(char **rows, int h)
{
	if (!rows)
		return;
	for (int i = 0; i < h; i++)
		free(rows[i]);
	free(rows);
}

/* ---------------------------------------------------------------------------------
 * Specs from the model */

static size_t genai_sources(const struct sweep_set *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nseries; i++)
		n += s->series[i].stim >= 0;
	return n;
}

size_t sweep_plot_count(struct run *run)
{
	if (!run->sweep)
		return 0;
	sweep_derive(run);
	return genai_sources(run->sweep) + run->sweep->nnat;
}

static bool in_fit_outliers(const struct sweep_fit *f, double x)
{
	for (size_t i = 0; i < f->nout; i++)
		if (f->outliers[i] == x)
			return true;
	return false;
}

static void fit_into(struct plot_spec *p, const struct sweep_fit *f, double scale)
{
	if (!f->ok)
		return;
	p->has_line = true;
	p->slope = f->slope * scale;
	p->intercept = f->intercept * scale;
	for (size_t i = 0; i < p->n; i++)
		p->outlier[i] = !p->skip[i] && in_fit_outliers(f, p->x[i]);
}

enum sweep_stat sweep_plot_latency_stat(const struct sweep_set *s, const struct sweep_series *se)
{
	static const enum sweep_stat pref[] = { SS_P95, SS_P99, SS_AVG };
	for (size_t k = 0; k < ARRAY_LEN(pref); k++)
		for (size_t i = 0; i < se->n; i++) {
			double v;
			if (sweep_value(&s->cfg[se->cfg[i]], SM_LATENCY, pref[k], &v))
				return pref[k];
		}
	return SS_P95;
}

/* Why config c has no point in the plot of (stim, lat, st), or NULL; has_v: it has the value. */
static const char *genai_skip(const struct sweep_cfg *c, int stim, bool lat, enum sweep_stat st, bool has_v)
{
	if (!c->has_stored && !c->has_calc)
		return "no results";
	if (!c->has_stim[stim])
		return "no stimulus value";
	if (has_v)
		return NULL;
	if (!lat)
		return "no request throughput";
	return st == SS_P95 ? "no p95 request latency" : st == SS_P99 ? "no p99 request latency"
								: "no avg request latency";
}

static bool genai_spec(const struct sweep_set *s, const struct sweep_series *se,
		       enum plot_kind kind, struct plot_spec *p)
{
	bool lat = kind == PLOT_LATENCY;
	enum sweep_stat st = lat ? sweep_plot_latency_stat(s, se) : SS_AVG;
	const char *sn = sweep_stim_name(se->stim);
	snprintf(p->xlabel, sizeof(p->xlabel), "%s", sn);
	if (lat)
		snprintf(p->ylabel, sizeof(p->ylabel), "%s request latency (ms)", sweep_stat_name(st));
	else
		snprintf(p->ylabel, sizeof(p->ylabel), "request throughput (req/s)");
	snprintf(p->title, sizeof(p->title), "%s vs %s%s%s%s", p->ylabel, sn, se->workload ? " [" : "",
		 se->workload ? se->workload : "", se->workload ? "]" : "");
	for (size_t i = 0; i < se->n && p->n < PLOT_MAX_POINTS; i++) {
		const struct sweep_cfg *c = &s->cfg[se->cfg[i]];
		double v;
		bool has_v = sweep_value(c, lat ? SM_LATENCY : SM_RPS, st, &v);
		p->skip[p->n] = genai_skip(c, se->stim, lat, st, has_v);
		p->x[p->n] = c->has_stim[se->stim] ? c->stim[se->stim] : NAN;
		p->ref[p->n] = (long)se->cfg[i];
		p->lowconf[p->n] = has_v && sweep_low_confidence(c, st);
		p->conf_na[p->n] = has_v && sweep_confidence_unjudged(c, st);
		p->y[p->n++] = has_v ? v : NAN;
	}
	if (lat && st == SS_P95 && se->has_fit) {
		fit_into(p, &se->fit, 1000.0);
		if (s->target_latency > 0) {
			p->has_target = true;
			p->target = s->target_latency * 1000.0;
		}
		if (se->est.ok) {
			p->has_estimate = true;
			p->estimate = se->est.conc;
		}
	}
	return p->n > 0;
}

/* Which NAT source the plot shows: the merge and its job count, or the job directory. */
static void nat_title_source(const struct nat_calc *n, char *title, size_t cap)
{
	size_t k = strlen(title);
	if (n->merged) {
		snprintf(title + k, cap - k, " — merged, %zu jobs", n->njobs);
		return;
	}
	const char *end = strrchr(n->path, '/'), *start = end;
	while (start && start > n->path && start[-1] != '/')
		start--;
	if (end && start && end > start)
		snprintf(title + k, cap - k, " — %.*s", (int)(end - start), start);
}

/* Why point pt is not plotted in the latency (lat) or runtime plot: the calculator leaves it
 * out of both fits (nat_recompute: interrupted, or a p95 missing, unusable or 0), or NULL. */
static const char *nat_skip(const struct nat_point *pt, bool lat)
{
	if (pt->valid)
		return NULL;
	if (pt->interrupted)
		return "interrupted";
	const char *own = nat_p95_why(pt, lat, false);
	return own ? own : nat_p95_why(pt, !lat, true);
}

static bool nat_spec(const struct sweep_set *s, const struct nat_calc *n, enum plot_kind kind,
		     struct plot_spec *p)
{
	bool lat = kind == PLOT_LATENCY;
	snprintf(p->xlabel, sizeof(p->xlabel), "concurrency");
	snprintf(p->ylabel, sizeof(p->ylabel), "%s", lat ? "p95 LLM latency (s)" : "p95 workflow runtime (s)");
	snprintf(p->title, sizeof(p->title), "%s vs concurrency", p->ylabel);
	nat_title_source(n, p->title, sizeof(p->title));
	for (size_t i = 0; i < n->npt && p->n < PLOT_MAX_POINTS; i++) {
		const struct nat_point *pt = &n->pt[i];
		bool has_v = lat ? pt->has_lat : pt->has_rt;
		p->skip[p->n] = nat_skip(pt, lat);
		p->x[p->n] = pt->conc;
		p->ref[p->n] = (long)i;
		p->y[p->n++] = !has_v ? NAN : lat ? pt->lat_p95 : pt->rt_p95;
	}
	fit_into(p, lat ? &n->c_fit_lat : &n->c_fit_rt, 1.0);
	double target = lat ? s->target_latency : s->target_runtime;
	const struct sweep_estimate *e = lat ? &n->c_est_lat : &n->c_est_rt;
	if (target > 0) {
		p->has_target = true;
		p->target = target;
	}
	if (e->ok) {
		p->has_estimate = true;
		p->estimate = e->conc;
	}
	return p->n > 0;
}

bool sweep_plot_from_run(struct run *run, size_t idx, enum plot_kind kind, struct plot_spec *p)
{
	memset(p, 0, sizeof(*p));
	struct sweep_set *s = run->sweep;
	if (!s)
		return false;
	sweep_derive(run);
	size_t k = 0;
	for (size_t i = 0; i < s->nseries; i++) {
		if (s->series[i].stim < 0)
			continue;
		if (k++ == idx)
			return genai_spec(s, &s->series[i], kind, p);
	}
	idx -= k;
	p->nat = true;
	p->nat_idx = idx;
	return idx < s->nnat && nat_spec(s, &s->nat[idx], kind, p);
}

const char *sweep_plot_view(const struct plot_spec *p)
{
	return p->nat ? "sizing_points" : "sweep";
}

void sweep_plot_evidence(const struct run *run, const struct plot_spec *p, size_t i, struct evidence *out)
{
	*out = evidence_none();
	out->kind = EV_CONFIG;
	out->view = sweep_plot_view(p);
	out->item = p->nat ? sweep_point_ref(run->sweep, p->nat_idx, (size_t)p->ref[i]) : p->ref[i];
}
