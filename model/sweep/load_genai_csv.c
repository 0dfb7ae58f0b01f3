/* SPDX-License-Identifier: MIT */
/* load_genai_csv.c: GenAI-Perf's exported text (formats.md §3.4): numbers ("9,182.22",
 * N/A), "Title (unit)" names, metric and statistic names, and *_genai_perf.csv (or AIPerf's
 * *_aiperf.csv) read into a config's stored stats, filling what the JSON lacks and
 * cross-checked against it. A value that is no finite number, or a negative one, is warned
 * about with its line and left out (genai_cell_value). Nothing here prints or exits. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/infile.h"
#include "model/json.h"
#include "model/run.h"
#include "model/sweep/genai.h"
#include "model/sweep/io.h"

/* ---------------------------------------------------------------------------------
 * Numbers in exported text: "9,182.22", N/A, 550.00. */

bool genai_number(const char *s, double *out)
{
	char buf[64];
	size_t n = 0;
	while (isspace((unsigned char)*s))
		s++;
	for (; *s && n + 1 < sizeof(buf); s++)
		if (*s != ',')
			buf[n++] = *s;
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	if (n == 0 || strcasecmp(buf, "N/A") == 0 || strcasecmp(buf, "nan") == 0)
		return false;
	return json_parse_double(buf, n, out) && isfinite(*out);
}

bool genai_cell_value(struct run *run, const char *path, long line, const char *field, const char *cell,
		      double *v, size_t *bad)
{
	if (genai_number(cell, v)) {
		if (*v >= 0)
			return true;
		sweep_bad_value(run, path, line, -1, field, cell, strlen(cell), SWEEP_BAD_NEGATIVE, bad);
		return false;
	}
	const char *s = cell;
	while (isspace((unsigned char)*s))
		s++;
	if (*s && strncasecmp(s, "N/A", 3) != 0)
		sweep_bad_value(run, path, line, -1, field, cell, strlen(cell), SWEEP_BAD_NOT_FINITE, bad);
	return false;
}

/* "Request Latency (ms)" -> title "Request Latency", unit "ms". */
void genai_split_title(const char *s, char *title, size_t tn, char *unit, size_t un)
{
	const char *open = strrchr(s, '(');
	size_t len = open ? (size_t)(open - s) : strlen(s);
	while (len && s[len - 1] == ' ')
		len--;
	snprintf(title, tn, "%.*s", (int)len, s);
	unit[0] = '\0';
	if (open) {
		const char *close = strchr(open, ')');
		size_t ul = close ? (size_t)(close - open - 1) : strlen(open + 1);
		snprintf(unit, un, "%.*s", (int)ul, open + 1);
	}
}

bool genai_metric_by_title(const char *title, enum sweep_metric *m)
{
	for (int i = 0; i < SM_N; i++)
		if (strcasecmp(title, sweep_metric_info(i)->title) == 0) {
			*m = i;
			return true;
		}
	if (strcasecmp(title, "Num Output Token") == 0) {
		*m = SM_OSL;
		return true;
	}
	return false;
}

/* "GPU Power Usage" -> "gpu_power_usage" */
void genai_snake(const char *title, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = title; *p && k + 1 < n; p++)
		out[k++] = *p == ' ' || *p == '-' ? '_' : (char)tolower((unsigned char)*p);
	out[k] = '\0';
}

bool genai_stat_by_name(const char *s, enum sweep_stat *st)
{
	for (int i = 0; i < SS_N; i++)
		if (strcasecmp(s, sweep_stat_name(i)) == 0) {
			*st = i;
			return true;
		}
	if (strcasecmp(s, "avg.") == 0 || strcasecmp(s, "mean") == 0) {
		*st = SS_AVG;
		return true;
	}
	return false;
}

/* ---------------------------------------------------------------------------------
 * CSV: rows of fields through libcsv, tables split at each header row. */

void genai_csv_free(struct genai_csv *r)
{
	for (size_t i = 0; i < r->n; i++) {
		for (size_t j = 0; j < r->nf[i]; j++)
			free(r->row[i][j]);
		free(r->row[i]);
	}
	free(r->row);
	free(r->nf);
	free(r->line);
}

const char *genai_cell(const struct genai_csv *r, size_t i, size_t j)
{
	return j < r->nf[i] ? r->row[i][j] : "";
}

/* Parse one GenAI-Perf export or analyze CSV; -1 with a diagnostic when unreadable. */
int genai_read_csv(struct run *run, const char *path, struct genai_csv *out, size_t *src)
{
	size_t len;
	int err;
	char *buf = sweep_slurp(path, &len, &err);
	*src = run_add_source(run, path, "genai-perf", -1, buf ? (long long)len : -1);
	if (!buf) {
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1, "cannot read: %s", infile_strerror(err));
		run_source_done(run, *src, 0, 0, err, false);
		return -1;
	}
	long bad_line = sweep_csv_parse(buf, len, &out->row, &out->nf, &out->line, &out->n);
	out->partial = len && buf[len - 1] != '\n';
	free(buf);
	if (bad_line)
		diag_add(&run->diags, DIAG_WARN, path, bad_line, -1, -1,
			 "CSV parse error; rows after it were ignored");
	if (out->partial)
		diag_add(&run->diags, DIAG_WARN, path, out->n ? out->line[out->n - 1] : -1, -1, -1,
			 "no newline at the end: the file is truncated or still being written");
	return 0;
}

/* Header row of a metric table: column -> stat (or -2 GPU, -3 Value, -1 unknown). */
struct csv_header {
	int col[64];
	size_t n;
	bool has_gpu;
};

enum { HCOL_UNKNOWN = -1, HCOL_GPU = -2, HCOL_VALUE = -3 };

static void read_header(const struct genai_csv *r, size_t i, struct csv_header *h)
{
	h->n = r->nf[i] < ARRAY_LEN(h->col) ? r->nf[i] : ARRAY_LEN(h->col);
	h->has_gpu = false;
	for (size_t j = 0; j < h->n; j++) {
		enum sweep_stat st;
		const char *c = genai_cell(r, i, j);
		if (strcasecmp(c, "GPU") == 0) {
			h->col[j] = HCOL_GPU;
			h->has_gpu = true;
		} else if (strcasecmp(c, "Value") == 0)
			h->col[j] = HCOL_VALUE;
		else
			h->col[j] = genai_stat_by_name(c, &st) ? (int)st : HCOL_UNKNOWN;
	}
}

double genai_unit_scale(enum sweep_metric m, const char *unit)
{
	static const struct { const char *unit; double ms; } times[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "\xc2\xb5s", 1e-3 }, { "ms", 1 }, { "s", 1e3 }, { "sec", 1e3 },
	};
	if (strcmp(sweep_metric_info(m)->unit, "ms") != 0)
		return 1.0;
	for (size_t i = 0; i < ARRAY_LEN(times); i++)
		if (strcmp(unit, times[i].unit) == 0)
			return times[i].ms;
	return 1.0;
}

/* Cell j of row i as a number (genai_cell_value), the field named by the row's title and
 * the column's statistic ("Request Latency p99", "Request Throughput value"). */
static bool csv_number(struct run *run, const char *path, const struct genai_csv *r, size_t i, size_t j,
		       const char *title, int stat, size_t *bad, double *v)
{
	char field[192];
	snprintf(field, sizeof(field), "%s %s", title, stat >= 0 ? sweep_stat_name(stat) : "value");
	return genai_cell_value(run, path, r->line[i], field, genai_cell(r, i, j), v, bad);
}

static void csv_metric_row(struct sweep_set *s, size_t ci, struct sweep_stats *st,
			   const struct genai_csv *r, size_t i, const struct csv_header *h,
			   struct run *run, const char *path, size_t *bad)
{
	char title[160], unit[32];
	genai_split_title(genai_cell(r, i, 0), title, sizeof(title), unit, sizeof(unit));
	if (h->has_gpu) {
		char name[160];
		genai_snake(title, name, sizeof(name));
		const char *gpu = "";
		for (size_t j = 1; j < h->n; j++)
			if (h->col[j] == HCOL_GPU)
				gpu = genai_cell(r, i, j);
		struct sweep_gpu *g = sweep_add_gpu(s, ci, name, unit, gpu);
		for (size_t j = 1; j < h->n; j++) {
			double v;
			int c = h->col[j] == HCOL_VALUE ? SS_AVG : h->col[j];
			if (c >= 0 && csv_number(run, path, r, i, j, title, h->col[j], bad, &v)) {
				g->v[c] = v;
				g->has[c] = true;
			}
		}
		return;
	}
	enum sweep_metric m;
	if (!genai_metric_by_title(title, &m)) {
		diag_add(&run->diags, DIAG_INFO, path, r->line[i], -1, -1,
			 "unknown metric row ignored");
		(*bad)++;
		return;
	}
	double scale = genai_unit_scale(m, unit);
	for (size_t j = 1; j < h->n; j++) {
		double v;
		int c = h->col[j] == HCOL_VALUE ? SS_AVG : h->col[j];
		if (c < 0 || !csv_number(run, path, r, i, j, title, h->col[j], bad, &v) || st->has[m][c])
			continue;
		st->v[m][c] = v * scale;
		st->has[m][c] = true;
	}
}

/* Cross-check CSV (rounded to 2 decimals) against the JSON values. */
static void csv_crosscheck(const struct sweep_stats *json, const struct sweep_stats *csv,
			   struct run *run, const char *path)
{
	for (int m = 0; m < SM_N; m++)
		for (int k = 0; k < SS_N; k++) {
			if (!json->has[m][k] || !csv->has[m][k])
				continue;
			double a = json->v[m][k], b = csv->v[m][k];
			if (fabs(a - b) > 0.0051 + 1e-9 * fabs(a)) {
				diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
					 "%s %s is %.2f in the CSV but %.6g in the JSON",
					 sweep_metric_info(m)->name, sweep_stat_name(k), b, a);
				return;
			}
		}
}

void genai_load_csv(struct run *run, struct sweep_set *s, size_t ci, const char *path)
{
	struct genai_csv r = { 0 };
	size_t src;
	if (genai_read_csv(run, path, &r, &src) < 0)
		return;
	struct sweep_stats csv;
	memset(&csv, 0, sizeof(csv));
	struct csv_header h = { .n = 0 };
	size_t recs = 0, bad = 0;
	for (size_t i = 0; i < r.n; i++) {
		if (strcasecmp(genai_cell(&r, i, 0), "Metric") == 0) {
			read_header(&r, i, &h);
			continue;
		}
		if (h.n == 0 || !*genai_cell(&r, i, 0)) {
			bad++;
			continue;
		}
		if (r.partial && i + 1 == r.n) { /* the cut-off tail: its last cell may be cut too */
			if (r.nf[i] < h.n)
				diag_add(&run->diags, DIAG_WARN, path, r.line[i], -1, -1,
					 "last row has %zu of its header's %zu cells; skipped", r.nf[i], h.n);
			else
				diag_add(&run->diags, DIAG_WARN, path, r.line[i], -1, -1,
					 "last row may be cut off within its last cell; skipped");
			bad++;
			continue;
		}
		csv_metric_row(s, ci, &csv, &r, i, &h, run, path, &bad);
		recs++;
	}
	struct sweep_cfg *c = &s->cfg[ci];
	if (c->has_stored)
		csv_crosscheck(&c->stored, &csv, run, path);
	for (int m = 0; m < SM_N; m++)
		for (int k = 0; k < SS_N; k++)
			if (csv.has[m][k] && !c->stored.has[m][k]) {
				c->stored.v[m][k] = csv.v[m][k];
				c->stored.has[m][k] = true;
				c->stored_csv[m][k] = true;
				c->has_stored = true;
			}
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no metric rows");
	run_source_done(run, src, recs, bad, 0, r.partial);
	genai_csv_free(&r);
}
