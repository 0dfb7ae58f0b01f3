/* SPDX-License-Identifier: MIT */
/* grid.c: per-block aggregates over a grid_src, rectangle queries and the cells table,
 * its row labels in full however long (see grid.h). */
#include "model/grid.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/groups.h"
#include "model/stats.h"
#include "model/table.h"
#include "model/xalloc.h"

enum { GRID_DEFAULT_BLOCK = 16, GRID_SAMPLE_MAX = 1 << 18 };

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/* Median of block means and p99 of block worsts, from a bounded sample of blocks. */
static void grid_scale(struct grid_blocks *b)
{
	size_t n = b->nrows * b->nblocks;
	size_t stride = n > GRID_SAMPLE_MAX ? n / GRID_SAMPLE_MAX + 1 : 1;
	float *means = xmalloc((n / stride + 1) * sizeof(*means));
	float *worsts = xmalloc((n / stride + 1) * sizeof(*worsts));
	size_t k = 0;
	for (size_t i = 0; i < n; i += stride) {
		if (!b->count[i])
			continue;
		means[k] = b->sum[i] / (float)b->count[i];
		worsts[k] = b->worst[i];
		k++;
	}
	if (k) {
		qsort(means, k, sizeof(*means), cmp_float);
		qsort(worsts, k, sizeof(*worsts), cmp_float);
		b->median = means[k / 2];
		b->p99 = worsts[(size_t)((double)(k - 1) * 0.99)];
	}
	free(means);
	free(worsts);
}

struct grid_blocks *grid_blocks_build(const struct grid_src *src, size_t block)
{
	struct grid_blocks *b = xcalloc(1, sizeof(*b));
	b->nrows = src->nrows;
	b->ncols = src->ncols;
	b->block = block ? block : GRID_DEFAULT_BLOCK;
	b->nblocks = (src->ncols + b->block - 1) / b->block;
	size_t n = b->nrows * b->nblocks;
	b->worst = xmalloc((n ? n : 1) * sizeof(*b->worst));
	b->sum = xcalloc(n ? n : 1, sizeof(*b->sum));
	b->count = xcalloc(n ? n : 1, sizeof(*b->count));
	b->min = INFINITY;
	b->max = -INFINITY;
	for (size_t r = 0; r < src->nrows; r++) {
		for (size_t k = 0; k < b->nblocks; k++) {
			size_t i = r * b->nblocks + k;
			float worst = NAN;
			double sum = 0;
			uint32_t cnt = 0;
			size_t c1 = (k + 1) * b->block < src->ncols ? (k + 1) * b->block : src->ncols;
			for (size_t c = k * b->block; c < c1; c++) {
				double v;
				if (!src->value(src->ud, r, c, &v) || isnan(v))
					continue;
				if (cnt == 0 || v > worst)
					worst = (float)v;
				if (v < b->min)
					b->min = v;
				if (v > b->max)
					b->max = v;
				sum += v;
				cnt++;
			}
			b->worst[i] = worst;
			b->sum[i] = (float)sum;
			b->count[i] = cnt;
			b->npresent += cnt;
		}
	}
	if (!b->npresent)
		b->min = b->max = 0;
	grid_scale(b);
	return b;
}

void grid_blocks_free(struct grid_blocks *b)
{
	if (!b)
		return;
	free(b->worst);
	free(b->sum);
	free(b->count);
	free(b);
}

struct acc {
	double worst, sum;
	size_t n;
};

static void acc_raw(const struct grid_src *src, size_t r, size_t c0, size_t c1, struct acc *a)
{
	for (size_t c = c0; c < c1; c++) {
		double v;
		if (!src->value(src->ud, r, c, &v) || isnan(v))
			continue;
		if (a->n == 0 || v > a->worst)
			a->worst = v;
		a->sum += v;
		a->n++;
	}
}

size_t grid_rect(const struct grid_src *src, const struct grid_blocks *b, size_t r0, size_t r1,
		 size_t c0, size_t c1, double *worst, double *mean)
{
	if (r1 > src->nrows)
		r1 = src->nrows;
	if (c1 > src->ncols)
		c1 = src->ncols;
	struct acc a = { 0 };
	size_t bs = b ? b->block : 0;
	for (size_t r = r0; r < r1; r++) {
		double rm, rw;
		if (src->range) {
			if (c1 > c0 && src->range(src->ud, r, c0, c1, &rm, &rw)) {
				if (a.n == 0 || rw > a.worst)
					a.worst = rw;
				a.sum += rm;
				a.n++;
			}
			continue;
		}
		if (!b || c1 <= c0 || c1 - c0 < bs) {
			acc_raw(src, r, c0, c1, &a);
			continue;
		}
		size_t k0 = (c0 + bs - 1) / bs, k1 = c1 / bs;
		if (k1 <= k0) {
			acc_raw(src, r, c0, c1, &a);
			continue;
		}
		acc_raw(src, r, c0, k0 * bs, &a);
		for (size_t k = k0; k < k1; k++) {
			size_t i = r * b->nblocks + k;
			if (!b->count[i])
				continue;
			if (a.n == 0 || b->worst[i] > a.worst)
				a.worst = b->worst[i];
			a.sum += b->sum[i];
			a.n += b->count[i];
		}
		acc_raw(src, r, k1 * bs, c1, &a);
	}
	if (a.n) {
		*worst = a.worst;
		*mean = a.sum / (double)a.n;
	}
	return a.n;
}

void grid_scale_init(struct grid_scale *s, size_t nrows, size_t ncols)
{
	memset(s, 0, sizeof(*s));
	s->ncols = ncols;
	s->nc = ncols < 64 ? ncols : 64;
	s->v = xmalloc((nrows * s->nc + 1) * sizeof(*s->v));
}

void grid_scale_segment(const struct grid_scale *s, size_t k, size_t *c0, size_t *c1)
{
	*c0 = k * s->ncols / s->nc;
	*c1 = (k + 1) * s->ncols / s->nc;
}

void grid_scale_add_mean(struct grid_scale *s, double mean)
{
	if (isfinite(mean))
		s->v[s->n++] = mean;
}

void grid_scale_add_worst(struct grid_scale *s, double worst)
{
	if (!s->have_worst || worst > s->worst) { /* the first present row's, then any above it */
		s->worst = worst;
		s->have_worst = true;
	}
}

void grid_scale_add_row(struct grid_scale *s, const struct grid_src *src, const struct grid_blocks *b, size_t r)
{
	double w, m;
	for (size_t k = 0; k < s->nc; k++) {
		size_t c0, c1;
		grid_scale_segment(s, k, &c0, &c1);
		if (grid_rect(src, b, r, r + 1, c0, c1, &w, &m))
			grid_scale_add_mean(s, m);
	}
	if (grid_rect(src, b, r, r + 1, 0, s->ncols, &w, &m))
		grid_scale_add_worst(s, w);
}

void grid_scale_done(struct grid_scale *s, double *lo, double *hi)
{
	*lo = *hi = 0;
	if (s->n) { /* the lower median and the maximum: a selection, not a sort */
		*hi = s->v[0];
		for (size_t i = 1; i < s->n; i++)
			*hi = s->v[i] > *hi ? s->v[i] : *hi;
		*lo = stats_kth_inplace(s->v, s->n, (s->n - 1) / 2);
		if (s->have_worst && isfinite(s->worst) && s->worst > *hi)
			*hi = s->worst;
	}
	free(s->v);
	s->v = NULL;
	free(s->plan);
	s->plan = NULL;
}

void grid_colour_scale(const struct grid_src *src, const struct grid_blocks *b, double *lo, double *hi)
{
	struct grid_scale s;
	grid_scale_init(&s, src->nrows, src->ncols);
	for (size_t r = 0; r < src->nrows; r++)
		grid_scale_add_row(&s, src, b, r);
	bool any = s.n > 0;
	grid_scale_done(&s, lo, hi);
	if (!any) /* every cell missing: no scale, not 0..0 */
		*lo = *hi = NAN;
}

size_t grid_rect_rows(const struct grid_src *src, const struct grid_blocks *b, const size_t *rows,
		      size_t n, size_t c0, size_t c1, double *worst, double *mean, size_t *worst_row)
{
	double top = 0, sum = 0;
	size_t cnt = 0;
	for (size_t i = 0; i < n; i++) {
		double w, m;
		size_t k = grid_rect(src, b, rows[i], rows[i] + 1, c0, c1, &w, &m);
		if (!k)
			continue;
		if (cnt == 0 || w > top) {
			top = w;
			if (worst_row)
				*worst_row = rows[i];
		}
		sum += m * (double)k;
		cnt += k;
	}
	if (cnt) {
		*worst = top;
		*mean = sum / (double)cnt;
	}
	return cnt;
}

void grid_window_worst(const struct grid_src *src, const struct grid_blocks *b, const size_t *rows, size_t base,
		       size_t n, size_t c0, size_t spc, size_t ncols, double *worst)
{
	float *one = src->row_buckets ? xmalloc((ncols ? ncols : 1) * sizeof(*one)) : NULL;
	for (size_t x = 0; x < ncols; x++)
		worst[x] = NAN;
	for (size_t i = 0; i < n; i++) {
		size_t row = rows ? rows[i] : base + i;
		for (size_t x = 0; x < ncols && !one; x++) {
			double w, m;
			if (grid_rect(src, b, row, row + 1, c0 + x * spc, c0 + (x + 1) * spc, &w, &m) &&
			    (isnan(worst[x]) || w > worst[x]))
				worst[x] = w;
		}
		if (!one)
			continue;
		src->row_buckets(src->ud, row, c0, spc, ncols, one);
		for (size_t x = 0; x < ncols; x++)
			if (!isnan(one[x]) && (isnan(worst[x]) || one[x] > worst[x]))
				worst[x] = one[x];
	}
	free(one);
}

size_t grid_rect_lines(const struct grid_src *src, const struct grid_blocks *b, const struct outline *ol,
		       size_t l0, size_t l1, size_t c0, size_t c1, double *worst, double *mean,
		       size_t *worst_row)
{
	if (l1 > ol->nline)
		l1 = ol->nline;
	if (l0 >= l1)
		return 0;
	size_t a, z;
	outline_span(ol, l0, l1, &a, &z);
	return grid_rect_rows(src, b, ol->gs->member + a, z - a, c0, c1, worst, mean, worst_row);
}

void grid_line_label(const struct grid_src *src, const struct outline *ol, size_t l, char *buf, size_t n)
{
	if (ol->row[l] < 0)
		snprintf(buf, n, "%s", ol->gs->name[ol->grp[l]]);
	else
		grid_row_label(src, (size_t)ol->row[l], buf, n);
}

void grid_row_label(const struct grid_src *src, size_t row, char *buf, size_t n)
{
	if (src->row_label)
		src->row_label(src->ud, row, buf, n);
	else
		snprintf(buf, n, "%zu", row);
}

void grid_col_label(const struct grid_src *src, size_t col, char *buf, size_t n)
{
	if (src->col_label)
		src->col_label(src->ud, col, buf, n);
	else
		snprintf(buf, n, "%zu", col);
}

/* A label in full, however long: the producer writes it with snprintf, so a label that
 * fills the buffer may have been cut; it is asked again with twice the room. */
static char *label_dup(const struct grid_src *src, const struct outline *ol, size_t i)
{
	for (size_t n = 64;; n *= 2) {
		char *buf = xmalloc(n);
		if (ol)
			grid_line_label(src, ol, i, buf, n);
		else
			grid_row_label(src, i, buf, n);
		if (strlen(buf) + 1 < n)
			return buf;
		free(buf);
	}
}

char *grid_row_label_dup(const struct grid_src *src, size_t row)
{
	return label_dup(src, NULL, row);
}

bool grid_rows_are_ranks(const struct grid_src *src)
{
	return src->row_id && src->row_axis && strcmp(src->row_axis, "rank") == 0;
}

/* The figures of one bucket of rows or outline lines. */
static size_t cells_bucket(const struct grid_src *src, const struct grid_blocks *b, const struct grid_window *w,
			   size_t r0, size_t r1, size_t c0, size_t c1, double *worst, double *mean)
{
	if (!w->ol)
		return grid_rect(src, b, r0, r1, c0, c1, worst, mean);
	return grid_rect_lines(src, b, w->ol, r0, r1, c0, c1, worst, mean, NULL);
}

/* The row or line a bucket's label ends with: its last, or on outline lines the last
 * whose members it holds (outline_last: not an open node's line after its rank lines). */
static size_t bucket_last(const struct grid_window *w, size_t r0, size_t r1)
{
	return w->ol ? outline_last(w->ol, r0, r1) : r1 - 1;
}

/* True when s is a whole number (a rank id, a step), into *v. */
static bool label_int(const char *s, long long *v)
{
	char *end;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return *s && *end == '\0' && errno == 0;
}

/* Whether every label of the window's row buckets (first and last) and of its column
 * buckets is a whole number: the label columns are then numbers, else text. */
static void cells_numeric(const struct grid_src *src, const struct grid_window *w, size_t nrows, bool *rows_num,
			  bool *cols_num)
{
	size_t rpr = w->rpr ? w->rpr : 1, spc = w->spc ? w->spc : 1;
	char lab[64];
	long long v;
	*rows_num = *cols_num = true;
	for (size_t r0 = 0; r0 < nrows && *rows_num; r0 += rpr)
		for (size_t k = 0; k < 2 && *rows_num; k++) {
			size_t r = k ? bucket_last(w, r0, r0 + rpr < nrows ? r0 + rpr : nrows) : r0;
			char *row_lab = label_dup(src, w->ol, r);
			*rows_num = label_int(row_lab, &v);
			free(row_lab);
		}
	for (size_t x = 0; x < w->ncols && *cols_num; x++) {
		size_t c0 = w->c0 + x * spc;
		if (c0 >= src->ncols)
			break;
		size_t c1 = c0 + spc < src->ncols ? c0 + spc : src->ncols;
		grid_col_label(src, c0, lab, sizeof(lab));
		*cols_num = label_int(lab, &v);
		grid_col_label(src, c1 - 1, lab, sizeof(lab));
		*cols_num = *cols_num && label_int(lab, &v);
	}
}

/* A label cell: the number when the column is numeric, else the text. */
static void set_label(struct table *t, size_t row, int col, const char *lab)
{
	long long v;
	if (t->col[col].type == COL_TEXT)
		table_set_text(t, row, col, lab);
	else if (label_int(lab, &v))
		table_set_int(t, row, col, v);
}

/* "worst_s" / "mean_s": the name with the grid's unit ("%": "_pct"; none: no suffix),
 * and the column shows that unit. */
static int add_value_col(struct table *t, const char *name, const char *unit)
{
	char full[64];
	bool bare = !unit || !*unit;
	const char *suffix = bare ? "" : strcmp(unit, "%") == 0 ? "pct" : unit;
	snprintf(full, sizeof(full), "%s%s%s", name, bare ? "" : "_", suffix);
	int c = table_add_col(t, full, COL_NUM, 10, 6);
	table_col_unit(t, c, units_parse(bare ? NULL : unit));
	return c;
}

struct table *grid_cells_table(const struct grid_src *src, const struct grid_blocks *b,
			       const struct grid_window *w)
{
	struct table *t = table_new("heatmap_cells", "Heatmap cells as shown");
	table_set_note(t, src->note);
	size_t rpr = w->rpr ? w->rpr : 1, spc = w->spc ? w->spc : 1;
	size_t nrows = w->ol ? w->ol->nline : src->nrows;
	bool rows_num, cols_num;
	cells_numeric(src, w, nrows, &rows_num, &cols_num);
	enum col_type rt = rows_num ? COL_INT : COL_TEXT, ct = cols_num ? COL_INT : COL_TEXT;
	int cr0 = table_add_col(t, "row_first", rt, 8, 0);
	int cr1 = table_add_col(t, "row_last", rt, 8, 0);
	int cc0 = table_add_col(t, "col_first", ct, 8, 0);
	int cc1 = table_add_col(t, "col_last", ct, 8, 0);
	int cm = table_add_col(t, "metric", COL_TEXT, 12, 0);
	int cw = add_value_col(t, "worst", src->unit);
	int cmean = add_value_col(t, "mean", src->unit);
	for (size_t r0 = 0; r0 < nrows; r0 += rpr)
		for (size_t x = 0; x < w->ncols; x++) {
			size_t c0 = w->c0 + x * spc;
			if (c0 >= src->ncols)
				break;
			size_t r1 = r0 + rpr < nrows ? r0 + rpr : nrows;
			size_t c1 = c0 + spc < src->ncols ? c0 + spc : src->ncols;
			char *first = label_dup(src, w->ol, r0), lab[32];
			char *last = label_dup(src, w->ol, bucket_last(w, r0, r1));
			double worst = 0, mean = 0;
			bool has = cells_bucket(src, b, w, r0, r1, c0, c1, &worst, &mean) > 0;
			size_t row = table_add_row(t, (long)r0);
			set_label(t, row, cr0, first);
			set_label(t, row, cr1, last);
			free(first);
			free(last);
			grid_col_label(src, c0, lab, sizeof(lab));
			set_label(t, row, cc0, lab);
			grid_col_label(src, c1 - 1, lab, sizeof(lab));
			set_label(t, row, cc1, lab);
			table_set_text(t, row, cm, src->title);
			table_set_num_opt(t, row, cw, worst, has);
			table_set_num_opt(t, row, cmean, mean, has);
		}
	return t;
}
