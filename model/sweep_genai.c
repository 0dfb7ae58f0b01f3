/* SPDX-License-Identifier: MIT */
/* sweep_genai.c: the GenAI-Perf loader (formats.md §3). It walks an artifacts tree and
 * turns every run directory into one sweep_cfg: *_genai_perf.json (full precision)
 * first, *_genai_perf.csv to fill gaps and cross-check, the raw profile export
 * recomputed (latency, TTFT, TTST, ITL, throughput, count), plus every
 * analyze_export_genai_perf.csv row and checkpoint.json run_config as configs of their
 * own. Problems become diagnostics; nothing here prints or exits. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/json.h"
#include "model/run.h"
#include "model/sweep.h"
#include "model/sweep_io.h"
#include "model/xalloc.h"

#define WALK_MAX_DEPTH 6
#define WALK_MAX_FILES 20000
#define SNIFF_BYTES 4096

/* ---------------------------------------------------------------------------------
 * Names */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static bool is_analyze_csv(const char *name)
{
	return strcmp(name, "analyze_export_genai_perf.csv") == 0;
}

static bool is_checkpoint(const char *name)
{
	return strcmp(name, "checkpoint.json") == 0;
}

/* Exported summaries: X_genai_perf.json, X_genai_perf.csv and AIPerf's X_aiperf.csv. */
enum export_kind { EXP_NONE, EXP_JSON, EXP_CSV };

static const struct { const char *suffix; enum export_kind kind; } export_suffixes[] = {
	{ "_genai_perf.json", EXP_JSON }, { "_genai_perf.csv", EXP_CSV }, { "_aiperf.csv", EXP_CSV },
};

/* Kind of an export file name, and the length of its prefix X. */
static enum export_kind export_kind(const char *name, size_t *prefix_len)
{
	for (size_t i = 0; i < ARRAY_LEN(export_suffixes); i++)
		if (ends_with(name, export_suffixes[i].suffix)) {
			if (prefix_len)
				*prefix_len = strlen(name) - strlen(export_suffixes[i].suffix);
			return export_suffixes[i].kind;
		}
	return EXP_NONE;
}

static bool is_export(const char *name)
{
	return export_kind(name, NULL) != EXP_NONE;
}

/* A raw perf_analyzer export: a JSON object whose first bytes hold "experiments". */
static bool sniff_raw(const char *path)
{
	const char *name = base_name(path);
	if (!ends_with(name, ".json") || is_export(name) || is_checkpoint(name) ||
	    strcmp(name, "inputs.json") == 0)
		return false;
	char buf[SNIFF_BYTES + 1];
	size_t n = sweep_sniff(path, buf, SNIFF_BYTES);
	buf[n] = '\0';
	return strstr(buf, "\"experiments\"") != NULL;
}

static bool relevant_file(const char *path)
{
	const char *name = base_name(path);
	return is_export(name) || is_analyze_csv(name) || is_checkpoint(name) || sniff_raw(path);
}

/* ---------------------------------------------------------------------------------
 * Directory walk: every relevant file, sorted, grouped by directory. */

struct file_list {
	char **v;
	size_t n, cap;
};

static void walk(const char *dir, int depth, struct file_list *out, bool probe_only)
{
	if (depth > WALK_MAX_DEPTH || out->n >= WALK_MAX_FILES)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && out->n < WALK_MAX_FILES) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) != 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			walk(p, depth + 1, out, probe_only);
			free(p);
		} else if (S_ISREG(st.st_mode) && relevant_file(p)) {
			xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = p;
			if (probe_only)
				break;
		} else {
			free(p);
		}
		if (probe_only && out->n)
			break;
	}
	closedir(d);
}

static void file_list_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

int sweep_genai_probe(const char *path, const struct opts *opts)
{
	(void)opts;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return relevant_file(path) ? 90 : 0;
	if (!S_ISDIR(st.st_mode))
		return 0;
	struct file_list l = { 0 };
	walk(path, 2, &l, true);
	int r = l.n ? 80 : 0;
	file_list_free(&l);
	return r;
}

/* ---------------------------------------------------------------------------------
 * Numbers in exported text: "9,182.22", N/A, 550.00. */

static bool parse_export_number(const char *s, double *out)
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

/* "Request Latency (ms)" -> title "Request Latency", unit "ms". */
static void split_title(const char *s, char *title, size_t tn, char *unit, size_t un)
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

static bool metric_by_title(const char *title, enum sweep_metric *m)
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
static void snake(const char *title, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = title; *p && k + 1 < n; p++)
		out[k++] = *p == ' ' || *p == '-' ? '_' : (char)tolower((unsigned char)*p);
	out[k] = '\0';
}

static bool stat_by_name(const char *s, enum sweep_stat *st)
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

struct csv_rows {
	char ***row;     /* row[i][j] */
	size_t *nf;      /* fields per row */
	long *line;
	size_t n, cap;
};

static void csv_rows_free(struct csv_rows *r)
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

static const char *cell(const struct csv_rows *r, size_t i, size_t j)
{
	return j < r->nf[i] ? r->row[i][j] : "";
}

/* Parse one GenAI-Perf export or analyze CSV; -1 with a diagnostic when unreadable. */
static int read_csv(struct run *run, const char *path, struct csv_rows *out, size_t *src)
{
	size_t len;
	int err;
	char *buf = sweep_slurp(path, &len, &err);
	*src = run_add_source(run, path, "genai-perf", -1, buf ? (long long)len : -1);
	if (!buf) {
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1, "cannot read: %s", strerror(err));
		run_source_done(run, *src, 0, 0, err, false);
		return -1;
	}
	int rc = sweep_csv_parse(buf, len, &out->row, &out->nf, &out->line, &out->n);
	free(buf);
	if (rc < 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
			 "CSV parse error; rows after it were ignored");
	return 0;
}

/* Header row of a metric table: column -> stat (or -2 GPU, -3 Value, -1 unknown). */
struct csv_header {
	int col[64];
	size_t n;
	bool has_gpu;
};

enum { HCOL_UNKNOWN = -1, HCOL_GPU = -2, HCOL_VALUE = -3 };

static void read_header(const struct csv_rows *r, size_t i, struct csv_header *h)
{
	h->n = r->nf[i] < ARRAY_LEN(h->col) ? r->nf[i] : ARRAY_LEN(h->col);
	h->has_gpu = false;
	for (size_t j = 0; j < h->n; j++) {
		enum sweep_stat st;
		const char *c = cell(r, i, j);
		if (strcasecmp(c, "GPU") == 0) {
			h->col[j] = HCOL_GPU;
			h->has_gpu = true;
		} else if (strcasecmp(c, "Value") == 0)
			h->col[j] = HCOL_VALUE;
		else
			h->col[j] = stat_by_name(c, &st) ? (int)st : HCOL_UNKNOWN;
	}
}

static double unit_scale(const char *unit)
{
	return strcmp(unit, "ns") == 0 ? 1e-6 : 1.0;
}

static void csv_metric_row(struct sweep_set *s, size_t ci, struct sweep_stats *st,
			   const struct csv_rows *r, size_t i, const struct csv_header *h,
			   struct run *run, const char *path, size_t *bad)
{
	char title[160], unit[32];
	split_title(cell(r, i, 0), title, sizeof(title), unit, sizeof(unit));
	if (h->has_gpu) {
		char name[160];
		snake(title, name, sizeof(name));
		const char *gpu = "";
		for (size_t j = 1; j < h->n; j++)
			if (h->col[j] == HCOL_GPU)
				gpu = cell(r, i, j);
		struct sweep_gpu *g = sweep_add_gpu(s, ci, name, unit, gpu);
		for (size_t j = 1; j < h->n; j++) {
			double v;
			int c = h->col[j] == HCOL_VALUE ? SS_AVG : h->col[j];
			if (c >= 0 && parse_export_number(cell(r, i, j), &v)) {
				g->v[c] = v;
				g->has[c] = true;
			}
		}
		return;
	}
	enum sweep_metric m;
	if (!metric_by_title(title, &m)) {
		diag_add(&run->diags, DIAG_INFO, path, r->line[i], -1, -1,
			 "unknown metric row ignored");
		(*bad)++;
		return;
	}
	double scale = unit_scale(unit);
	for (size_t j = 1; j < h->n; j++) {
		double v;
		int c = h->col[j] == HCOL_VALUE ? SS_AVG : h->col[j];
		if (c < 0 || st->has[m][c] || !parse_export_number(cell(r, i, j), &v))
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

static void load_export_csv(struct run *run, struct sweep_set *s, size_t ci, const char *path)
{
	struct csv_rows r = { 0 };
	size_t src;
	if (read_csv(run, path, &r, &src) < 0)
		return;
	struct sweep_stats csv;
	memset(&csv, 0, sizeof(csv));
	struct csv_header h = { .n = 0 };
	size_t recs = 0, bad = 0;
	for (size_t i = 0; i < r.n; i++) {
		if (strcasecmp(cell(&r, i, 0), "Metric") == 0) {
			read_header(&r, i, &h);
			continue;
		}
		if (h.n == 0 || !*cell(&r, i, 0)) {
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
				c->has_stored = true;
			}
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no metric rows");
	run_source_done(run, src, recs, bad, 0, false);
	csv_rows_free(&r);
}

/* ---------------------------------------------------------------------------------
 * *_genai_perf.json */

static void json_stats_into(const struct json_doc *d, int obj, double *v, bool *has)
{
	for (int k = 0; k < SS_N; k++) {
		double x;
		if (json_number(d, json_get(d, obj, sweep_stat_name(k)), &x) && isfinite(x)) {
			v[k] = x;
			has[k] = true;
		}
	}
}

static void set_stim(struct sweep_cfg *c, enum sweep_stim st, const struct json_doc *d, int tok)
{
	double v;
	if (tok >= 0 && !c->has_stim[st] && json_number_str(d, tok, &v, true) && isfinite(v)) {
		c->stim[st] = v;
		c->has_stim[st] = true;
	}
}

/* input_config: the nested (2025) layout, and the flat keys of older versions. */
static void read_input_config(const struct json_doc *d, int ic, struct sweep_cfg *c)
{
	if (ic < 0 || !json_is_object(d, ic))
		return;
	int pa = json_get(d, ic, "perf_analyzer");
	int stim = pa >= 0 ? json_get(d, pa, "stimulus") : -1;
	int in = json_get(d, ic, "input");
	int ep = json_get(d, ic, "endpoint");
	set_stim(c, ST_CONCURRENCY, d, stim >= 0 ? json_get(d, stim, "concurrency") : -1);
	set_stim(c, ST_REQUEST_RATE, d, stim >= 0 ? json_get(d, stim, "request_rate") : -1);
	set_stim(c, ST_CONCURRENCY, d, json_get(d, ic, "concurrency"));
	set_stim(c, ST_REQUEST_RATE, d, json_get(d, ic, "request_rate"));
	int syn = in >= 0 ? json_get(d, in, "synthetic_tokens") : -1;
	set_stim(c, ST_INPUT_LENGTH, d, syn >= 0 ? json_get(d, syn, "mean") : -1);
	set_stim(c, ST_INPUT_LENGTH, d, json_get(d, ic, "synthetic_input_tokens_mean"));
	set_stim(c, ST_BATCH_SIZE, d, in >= 0 ? json_get(d, in, "batch_size") : -1);
	set_stim(c, ST_BATCH_SIZE, d, json_get(d, ic, "batch_size_text"));
	set_stim(c, ST_BATCH_SIZE, d, json_get(d, ic, "batch_size"));
	set_stim(c, ST_DATASET_ENTRIES, d, in >= 0 ? json_get(d, in, "num_dataset_entries") : -1);
	set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, ic, "num_dataset_entries"));
	set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, ic, "num_prompts"));
	bool b;
	int sk = ep >= 0 ? json_get(d, ep, "streaming") : json_get(d, ic, "streaming");
	if (json_bool(d, sk, &b)) {
		c->streaming = b;
		c->has_streaming = true;
	}
}

static void read_telemetry(const struct json_doc *d, int tel, struct sweep_set *s, size_t ci)
{
	if (tel < 0 || !json_is_object(d, tel))
		return;
	for (int k = json_first(d, tel); k >= 0; k = json_next(d, tel, k)) {
		char metric[96], unit[32] = "";
		json_strcpy(d, k, metric, sizeof(metric));
		int mo = k + 1;
		if (!json_is_object(d, mo))
			continue;
		json_strcpy(d, json_get(d, mo, "unit"), unit, sizeof(unit));
		for (int g = json_first(d, mo); g >= 0; g = json_next(d, mo, g)) {
			if (!json_is_object(d, g + 1))
				continue;
			char gpu[64];
			json_strcpy(d, g, gpu, sizeof(gpu));
			struct sweep_gpu *row = sweep_add_gpu(s, ci, metric, unit, gpu);
			json_stats_into(d, g + 1, row->v, row->has);
		}
	}
}

static void load_export_json(struct run *run, struct sweep_set *s, size_t ci, const char *path)
{
	struct json_doc d;
	size_t src;
	int root = sweep_json_open(run, path, "genai-perf", &d, &src);
	if (root < 0)
		return;
	struct sweep_cfg *c = &s->cfg[ci];
	size_t recs = 0, bad = 0;
	for (int m = 0; m < SM_N; m++) {
		int o = json_get(&d, root, sweep_metric_info(m)->name);
		if (o < 0)
			continue;
		if (!json_is_object(&d, o)) {
			diag_add(&run->diags, DIAG_WARN, path, -1, d.tok[o].start, -1,
				 "%s is not an object", sweep_metric_info(m)->name);
			bad++;
			continue;
		}
		json_stats_into(&d, o, c->stored.v[m], c->stored.has[m]);
		c->has_stored = true;
		recs++;
	}
	read_input_config(&d, json_get(&d, root, "input_config"), c);
	read_telemetry(&d, json_get(&d, root, "telemetry_stats"), s, ci);
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no GenAI-Perf metrics in this file");
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(&d);
}

/* ---------------------------------------------------------------------------------
 * Raw profile export: recompute the metrics (formats.md §3.3). */

struct req_metrics {
	double *lat, *ttft, *ttst, *itl, *tpsu, *osl;
	size_t nlat, nttft, nttst, nitl, ntpsu, nosl;
	long long t_min, t_max;
	size_t nreq;
	size_t nvalid;
};

static void req_metrics_free(struct req_metrics *q)
{
	free(q->lat);
	free(q->ttft);
	free(q->ttst);
	free(q->itl);
	free(q->tpsu);
	free(q->osl);
}

/* One SSE event's body: skips a "data:" prefix and surrounding blanks. */
static const char *sse_body(const char *s, size_t *n)
{
	while (*n && isspace((unsigned char)*s)) {
		s++;
		(*n)--;
	}
	if (*n >= 5 && strncmp(s, "data:", 5) == 0) {
		s += 5;
		*n -= 5;
	}
	while (*n && isspace((unsigned char)*s)) {
		s++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)s[*n - 1]))
		(*n)--;
	return s;
}

/* completion_tokens of the parsed body's usage object, or -1. */
static long usage_tokens(const struct json_doc *tmp)
{
	int u = json_get(tmp, 0, "usage");
	long long t;
	if (u >= 0 && json_is_object(tmp, u) && json_int(tmp, json_get(tmp, u, "completion_tokens"), &t))
		return (long)t;
	return -1;
}

static bool nonempty_string(const struct json_doc *d, int i)
{
	return i >= 0 && json_is_string(d, i) && d->tok[i].end > d->tok[i].start;
}

/* GenAI-Perf's _extract_text_output on a parsed body: chat.completion message
 * content, chat.completion.chunk delta content, otherwise choices[0].text (vLLM and
 * legacy completions), or Triton's text_output. */
static bool body_has_text(const struct json_doc *t)
{
	int ch = json_get(t, 0, "choices");
	if (ch < 0 || !json_is_array(t, ch))
		return nonempty_string(t, json_get(t, 0, "text_output"));
	int c0 = json_first(t, ch);
	if (c0 < 0 || !json_is_object(t, c0))
		return false;
	int obj = json_get(t, 0, "object");
	const char *holder = json_eq(t, obj, "chat.completion") ? "message"
			     : json_eq(t, obj, "chat.completion.chunk") ? "delta" : NULL;
	if (!holder)
		return nonempty_string(t, json_get(t, c0, "text"));
	int h = json_get(t, c0, holder);
	return h >= 0 && json_is_object(t, h) && nonempty_string(t, json_get(t, h, "content"));
}

/* One event body: true when it carries generated text; usage tokens into *osl.
 * [DONE] and empty bodies carry none; a body that is not JSON counts as text. */
static bool event_text(const char *body, size_t n, long *osl, struct json_doc *tmp)
{
	if (n == 0 || (n == 6 && memcmp(body, "[DONE]", 6) == 0))
		return false;
	if (json_parse(tmp, body, n) <= 0 || !json_is_object(tmp, 0))
		return true;
	long u = usage_tokens(tmp);
	if (u >= 0)
		*osl = u;
	return body_has_text(tmp);
}

/* SSE field lines that carry no data (": comment", "event:", "id:", "retry:"). */
static bool not_data_field(const char *s)
{
	return s[0] == ':' || strncmp(s, "event:", 6) == 0 || strncmp(s, "id:", 3) == 0 ||
	       strncmp(s, "retry:", 6) == 0;
}

/* Scan every "\n\n"-separated event of one response: text present, usage tokens. */
static bool scan_events(const char *txt, long *osl, struct json_doc *tmp)
{
	bool text = false;
	const char *p = txt;
	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		size_t n = len;
		if (!not_data_field(p)) {
			const char *body = sse_body(p, &n);
			text |= event_text(body, n, osl, tmp);
		}
		p += len;
		while (*p == '\n')
			p++;
	}
	return text;
}

struct resp_scan {
	long long *ts;
	char **txt;          /* response text, NULL for non-text (tensor) outputs */
	size_t n, cap, tcap;
	long osl;
};

/* GenAI-Perf's splinter fix: a response that does not start with "data: " continues
 * the previous one (up to its own "data: ", if any). */
static void merge_splinters(struct resp_scan *rs)
{
	for (size_t i = rs->n; i-- > 1;) {
		char *cur = rs->txt[i], *prev = rs->txt[i - 1];
		if (!cur || !prev || !*cur || not_data_field(cur) || strncmp(cur, "data: ", 6) == 0)
			continue;
		char *at = strstr(cur, "data: ");
		size_t keep = at ? (size_t)(at - cur) : strlen(cur);
		char *joined = xasprintf("%s%.*s", prev, (int)keep, cur);
		free(prev);
		rs->txt[i - 1] = joined;
		char *rest = xstrdup(at ? at : "");
		free(cur);
		rs->txt[i] = rest;
	}
}

static void resp_scan_clear(struct resp_scan *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->txt[i]);
	rs->n = 0;
	rs->osl = -1;
}

/* Response timestamps of one request after GenAI-Perf's preprocessing: splintered
 * chunks merged, responses without generated text ([DONE], role-only or usage-only
 * chunks, empty bodies) dropped. Non-text outputs (Triton tensors) are kept. */
static void scan_responses(const struct json_doc *d, int req, struct resp_scan *rs,
			   struct json_doc *tmp)
{
	resp_scan_clear(rs);
	int tsa = json_get(d, req, "response_timestamps");
	int outs = json_get(d, req, "response_outputs");
	if (tsa < 0 || !json_is_array(d, tsa))
		return;
	int o = outs >= 0 && json_is_array(d, outs) ? json_first(d, outs) : -1;
	for (int t = json_first(d, tsa); t >= 0; t = json_next(d, tsa, t)) {
		long long ts;
		int rv = o >= 0 && json_is_object(d, o) ? json_get(d, o, "response") : -1;
		if (o >= 0)
			o = json_next(d, outs, o);
		if (!sweep_json_i64(d, t, &ts))
			continue;
		xgrow((void **)&rs->ts, &rs->cap, rs->n + 1, sizeof(*rs->ts));
		xgrow((void **)&rs->txt, &rs->tcap, rs->n + 1, sizeof(*rs->txt));
		rs->ts[rs->n] = ts;
		rs->txt[rs->n++] = rv >= 0 ? json_strdup(d, rv) : NULL;
	}
	merge_splinters(rs);
	size_t k = 0;
	for (size_t i = 0; i < rs->n; i++) {
		bool keep = !rs->txt[i] || scan_events(rs->txt[i], &rs->osl, tmp);
		free(rs->txt[i]);
		rs->txt[i] = NULL;
		if (keep)
			rs->ts[k++] = rs->ts[i];
	}
	rs->n = k;
}

/* Append to an array whose capacity is the next power of two >= n. */
static void push(double **v, size_t *n, double x)
{
	if ((*n & (*n - 1)) == 0)
		*v = xrealloc(*v, (*n ? 2 * *n : 1) * sizeof(**v));
	(*v)[(*n)++] = x;
}

static void add_request(struct req_metrics *q, long long t0, const struct resp_scan *rs)
{
	q->nreq++;
	if (rs->n == 0)
		return;
	long long last = rs->ts[rs->n - 1];
	if (q->nvalid == 0 || t0 < q->t_min)
		q->t_min = t0;
	if (q->nvalid == 0 || last > q->t_max)
		q->t_max = last;
	q->nvalid++;
	double lat = (double)(last - t0), ttft = (double)(rs->ts[0] - t0);
	push(&q->lat, &q->nlat, lat);
	push(&q->ttft, &q->nttft, ttft);
	if (rs->n >= 2)
		push(&q->ttst, &q->nttst, (double)(rs->ts[1] - rs->ts[0]));
	if (rs->osl < 0)
		return;
	push(&q->osl, &q->nosl, (double)rs->osl);
	if (rs->n >= 2 && rs->osl > 1) {
		double itl = round((lat - ttft) / (double)(rs->osl - 1));
		push(&q->itl, &q->nitl, itl);
		push(&q->tpsu, &q->ntpsu, itl > 0 ? 1e9 / itl : NAN);
	}
}

static void stats_from(struct sweep_stats *st, enum sweep_metric m, const double *v0, size_t n,
		       double scale)
{
	static const double q[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99 };
	static const enum sweep_stat qs[] = { SS_P1, SS_P5, SS_P10, SS_P25, SS_P50, SS_P75,
					      SS_P90, SS_P95, SS_P99 };
	double *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v0[i]))
			v[k++] = v0[i] * scale;
	if (k) {
		double *s = xmalloc(k * sizeof(*s));
		memcpy(s, v, k * sizeof(*s));
		qsort(s, k, sizeof(*s), sweep_cmp_double);
		st->v[m][SS_AVG] = fit_mean(v, k);
		st->v[m][SS_STD] = fit_pstd(v, k);
		st->v[m][SS_MIN] = s[0];
		st->v[m][SS_MAX] = s[k - 1];
		for (size_t i = 0; i < ARRAY_LEN(q); i++)
			st->v[m][qs[i]] = fit_percentile_sorted(s, k, q[i]);
		for (int j = 0; j < SS_N; j++)
			st->has[m][j] = true;
		free(s);
	}
	free(v);
}

static void set_system(struct sweep_stats *st, enum sweep_metric m, double v)
{
	st->v[m][SS_AVG] = v;
	st->has[m][SS_AVG] = true;
}

static void finish_experiment(struct sweep_cfg *c, struct req_metrics *q)
{
	struct sweep_stats *st = &c->calc;
	stats_from(st, SM_LATENCY, q->lat, q->nlat, 1e-6);
	stats_from(st, SM_TTFT, q->ttft, q->nttft, 1e-6);
	stats_from(st, SM_TTST, q->ttst, q->nttst, 1e-6);
	stats_from(st, SM_ITL, q->itl, q->nitl, 1e-6);
	stats_from(st, SM_TPS_USER, q->tpsu, q->ntpsu, 1.0);
	stats_from(st, SM_OSL, q->osl, q->nosl, 1.0);
	if (q->nvalid) {
		double dur = (double)(q->t_max - q->t_min) / 1e9;
		set_system(st, SM_COUNT, (double)q->nlat);
		if (dur > 0) {
			set_system(st, SM_RPS, (double)q->nreq / dur);
			/* OSL is a tokenizer count: use the exported average when present. */
			if (c->stored.has[SM_OSL][SS_AVG])
				set_system(st, SM_TPS, c->stored.v[SM_OSL][SS_AVG] * (double)q->nlat / dur);
			else if (q->nosl == q->nlat)
				set_system(st, SM_TPS, fit_mean(q->osl, q->nosl) * (double)q->nlat / dur);
		}
	}
	c->has_calc = true;
}

/* Compare recomputed against exported values where the export does not depend on a
 * tokenizer we cannot run. */
static void calc_crosscheck(const struct sweep_cfg *c, struct run *run, const char *path)
{
	static const enum sweep_metric ms[] = { SM_LATENCY, SM_TTFT, SM_TTST, SM_RPS, SM_COUNT, SM_TPS };
	for (size_t i = 0; i < ARRAY_LEN(ms); i++)
		for (int k = 0; k < SS_N; k++) {
			enum sweep_metric m = ms[i];
			if (!c->stored.has[m][k] || !c->calc.has[m][k])
				continue;
			double a = c->stored.v[m][k], b = c->calc.v[m][k];
			if (fabs(a - b) > 1e-9 * fmax(1.0, fabs(a))) {
				diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
					 "recomputed %s %s is %.6g but the export says %.6g",
					 sweep_metric_info(m)->name, sweep_stat_name(k), b, a);
			}
		}
}

static void read_experiment_mode(const struct json_doc *d, int ex, struct sweep_cfg *c)
{
	int e = json_get(d, ex, "experiment");
	if (e < 0 || !json_is_object(d, e))
		return;
	int mode = json_get(d, e, "mode");
	int val = json_get(d, e, "value");
	if (json_eq(d, mode, "concurrency"))
		set_stim(c, ST_CONCURRENCY, d, val);
	else if (json_eq(d, mode, "request_rate"))
		set_stim(c, ST_REQUEST_RATE, d, val);
}

static void load_raw(struct run *run, struct sweep_set *s, size_t ci, const char *path)
{
	struct json_doc d, tmp;
	size_t src;
	int root = sweep_json_open(run, path, "genai-perf", &d, &src);
	if (root < 0)
		return;
	json_doc_init(&tmp);
	int exps = json_get(&d, root, "experiments");
	size_t recs = 0, bad = 0, nexp = 0;
	struct resp_scan rs = { 0 };
	if (exps < 0 || !json_is_array(&d, exps))
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no experiments array");
	for (int ex = exps >= 0 ? json_first(&d, exps) : -1; ex >= 0; ex = json_next(&d, exps, ex)) {
		if (!json_is_object(&d, ex)) {
			bad++;
			continue;
		}
		size_t target = ci;
		if (nexp++) { /* more experiments in one file: one config each */
			char *nm = xasprintf("%s#%zu", s->cfg[ci].name, nexp);
			struct sweep_cfg *n = sweep_add_cfg(s, nm, path, "artifacts");
			free(nm);
			target = (size_t)(n - s->cfg);
		}
		struct sweep_cfg *c = &s->cfg[target];
		read_experiment_mode(&d, ex, c);
		struct req_metrics q = { 0 };
		int reqs = json_get(&d, ex, "requests");
		for (int r = reqs >= 0 && json_is_array(&d, reqs) ? json_first(&d, reqs) : -1; r >= 0;
		     r = json_next(&d, reqs, r)) {
			long long t0;
			if (!json_is_object(&d, r) || !sweep_json_i64(&d, json_get(&d, r, "timestamp"), &t0)) {
				diag_add(&run->diags, DIAG_WARN, path, -1, d.tok[r].start, -1,
					 "request without an integer timestamp skipped");
				bad++;
				continue;
			}
			scan_responses(&d, r, &rs, &tmp);
			add_request(&q, t0, &rs);
			recs++;
		}
		if (q.nvalid == 0)
			diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
				 "experiment %zu has no request with a response", nexp);
		else {
			finish_experiment(c, &q);
			calc_crosscheck(c, run, path);
		}
		req_metrics_free(&q);
	}
	free(rs.ts);
	free(rs.txt);
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(&d);
	json_doc_free(&tmp);
}

/* ---------------------------------------------------------------------------------
 * analyze_export_genai_perf.csv (formats.md §3.6) */

/* "p99 Time To First Token (ms)" / "Avg. Output Token Throughput (tokens/sec)" */
static bool analyze_col(const char *h, enum sweep_metric *m, enum sweep_stat *st, char *title,
			size_t tn, char *unit, size_t un)
{
	const char *sp = strchr(h, ' ');
	char pre[16];
	*st = SS_AVG;
	if (sp && (size_t)(sp - h) < sizeof(pre)) {
		snprintf(pre, sizeof(pre), "%.*s", (int)(sp - h), h);
		if (stat_by_name(pre, st))
			h = sp + 1;
	}
	split_title(h, title, tn, unit, un);
	if (strcasecmp(title, "Request Throughput") == 0) {
		*m = SM_RPS;
		return true;
	}
	return metric_by_title(title, m);
}

static size_t analyze_cfg_by_name(struct sweep_set *s, size_t first, const char *name)
{
	for (size_t i = first; i < s->ncfg; i++)
		if (strcmp(s->cfg[i].name, name) == 0)
			return i;
	return SIZE_MAX;
}

static void analyze_perf_row(struct sweep_set *s, const struct csv_rows *r, size_t hdr,
			     size_t i, const char *path)
{
	struct sweep_cfg *c = sweep_add_cfg(s, cell(r, i, 0), path, "analyze");
	for (size_t j = 1; j < r->nf[hdr]; j++) {
		const char *h = cell(r, hdr, j);
		double v;
		if (!parse_export_number(cell(r, i, j), &v))
			continue;
		enum sweep_stim stim = ST_N;
		if (strcasecmp(h, "Concurrency") == 0)
			stim = ST_CONCURRENCY;
		else if (strcasecmp(h, "Request Rate") == 0)
			stim = ST_REQUEST_RATE;
		else if (strcasecmp(h, "ISL") == 0)
			stim = ST_INPUT_LENGTH;
		else if (strcasecmp(h, "Num Dataset Entries") == 0)
			stim = ST_DATASET_ENTRIES;
		else if (strcasecmp(h, "Batch Size") == 0)
			stim = ST_BATCH_SIZE;
		if (stim != ST_N) {
			c->stim[stim] = v;
			c->has_stim[stim] = true;
			continue;
		}
		enum sweep_metric m;
		enum sweep_stat st;
		char title[128], unit[32];
		if (analyze_col(h, &m, &st, title, sizeof(title), unit, sizeof(unit))) {
			c->stored.v[m][st] = v;
			c->stored.has[m][st] = true;
			c->has_stored = true;
		}
	}
}

static void analyze_gpu_row(struct sweep_set *s, size_t first, const struct csv_rows *r,
			    size_t hdr, size_t i, struct run *run, const char *path, size_t *bad)
{
	size_t ci = analyze_cfg_by_name(s, first, cell(r, i, 0));
	if (ci == SIZE_MAX) {
		diag_add(&run->diags, DIAG_WARN, path, r->line[i], -1, -1,
			 "GPU row for an unknown config skipped");
		(*bad)++;
		return;
	}
	for (size_t j = 2; j < r->nf[hdr]; j++) {
		double v;
		if (!parse_export_number(cell(r, i, j), &v))
			continue;
		const char *h = cell(r, hdr, j), *sp = strchr(h, ' ');
		enum sweep_stat st = SS_AVG;
		char pre[16], title[128], unit[32], name[128];
		if (sp && (size_t)(sp - h) < sizeof(pre)) {
			snprintf(pre, sizeof(pre), "%.*s", (int)(sp - h), h);
			if (stat_by_name(pre, &st))
				h = sp + 1;
		}
		split_title(h, title, sizeof(title), unit, sizeof(unit));
		snake(title, name, sizeof(name));
		struct sweep_gpu *g = sweep_add_gpu(s, ci, name, unit, cell(r, i, 1));
		g->v[st] = v;
		g->has[st] = true;
	}
}

static void load_analyze(struct run *run, struct sweep_set *s, const char *path)
{
	struct csv_rows r = { 0 };
	size_t src;
	if (read_csv(run, path, &r, &src) < 0)
		return;
	size_t first = s->ncfg, recs = 0, bad = 0, hdr = SIZE_MAX;
	bool gpu_table = false;
	for (size_t i = 0; i < r.n; i++) {
		if (strcasecmp(cell(&r, i, 0), "Config Name") == 0) {
			hdr = i;
			gpu_table = strcasecmp(cell(&r, i, 1), "GPU") == 0;
			continue;
		}
		if (hdr == SIZE_MAX || !*cell(&r, i, 0)) {
			bad++;
			continue;
		}
		if (gpu_table)
			analyze_gpu_row(s, first, &r, hdr, i, run, path, &bad);
		else
			analyze_perf_row(s, &r, hdr, i, path);
		recs++;
	}
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no run configs in the analyze CSV");
	run_source_done(run, src, recs, bad, 0, false);
	csv_rows_free(&r);
}

/* ---------------------------------------------------------------------------------
 * checkpoint.json (formats.md §3.7): records are [tag, {"_value": v, ...}]. */

static bool record_value(const struct json_doc *d, int rec, double *v)
{
	if (!json_is_array(d, rec))
		return false;
	int tag = json_first(d, rec);
	int attrs = tag >= 0 ? json_next(d, rec, tag) : -1;
	return attrs >= 0 && json_is_object(d, attrs) &&
	       json_number(d, json_get(d, attrs, "_value"), v) && isfinite(*v);
}

/* "request_latency_p99" -> metric + stat */
static bool split_tag(const char *tag, char *base, size_t bn, enum sweep_stat *st)
{
	const char *us = strrchr(tag, '_');
	if (!us || !stat_by_name(us + 1, st))
		return false;
	snprintf(base, bn, "%.*s", (int)(us - tag), tag);
	return true;
}

static void checkpoint_perf(const struct json_doc *d, int pm, struct sweep_cfg *c, size_t *bad)
{
	for (int k = json_first(d, pm); k >= 0; k = json_next(d, pm, k)) {
		char tag[96], base[96];
		double v;
		enum sweep_stat st;
		enum sweep_metric m;
		json_strcpy(d, k, tag, sizeof(tag));
		if (!record_value(d, k + 1, &v) || !split_tag(tag, base, sizeof(base), &st) ||
		    !sweep_metric_parse(base, strlen(base), &m, &(enum sweep_stat){ 0 })) {
			(*bad)++;
			continue;
		}
		c->stored.v[m][st] = v;
		c->stored.has[m][st] = true;
		c->has_stored = true;
	}
}

static void checkpoint_gpu(const struct json_doc *d, int gm, struct sweep_set *s, size_t ci,
			   size_t *bad)
{
	for (int g = json_first(d, gm); g >= 0; g = json_next(d, gm, g)) {
		char gpu[64];
		json_strcpy(d, g, gpu, sizeof(gpu));
		int recs = g + 1;
		if (!json_is_object(d, recs))
			continue;
		for (int k = json_first(d, recs); k >= 0; k = json_next(d, recs, k)) {
			char tag[96], base[96];
			double v;
			enum sweep_stat st;
			json_strcpy(d, k, tag, sizeof(tag));
			if (!record_value(d, k + 1, &v) || !split_tag(tag, base, sizeof(base), &st)) {
				(*bad)++;
				continue;
			}
			struct sweep_gpu *row = NULL;
			for (size_t i = 0; i < s->ngpu; i++)
				if (s->gpu[i].cfg == ci && strcmp(s->gpu[i].metric, base) == 0 &&
				    strcmp(s->gpu[i].gpu, gpu) == 0)
					row = &s->gpu[i];
			if (!row)
				row = sweep_add_gpu(s, ci, base, "", gpu);
			row->v[st] = v;
			row->has[st] = true;
		}
	}
}

static void checkpoint_params(const struct json_doc *d, int rc, struct sweep_cfg *c)
{
	int pac = json_get(d, rc, "perf_analyzer_config");
	int pp = pac >= 0 ? json_get(d, pac, "_parameters") : -1;
	int gpc = json_get(d, rc, "genai_perf_config");
	int gp = gpc >= 0 ? json_get(d, gpc, "_parameters") : -1;
	if (pp >= 0) {
		set_stim(c, ST_CONCURRENCY, d, json_get(d, pp, "concurrency"));
		set_stim(c, ST_REQUEST_RATE, d, json_get(d, pp, "request_rate"));
		set_stim(c, ST_REQUEST_RATE, d, json_get(d, pp, "request-rate"));
		set_stim(c, ST_BATCH_SIZE, d, json_get(d, pp, "batch_size"));
		set_stim(c, ST_BATCH_SIZE, d, json_get(d, pp, "batch-size"));
	}
	if (gp >= 0) {
		set_stim(c, ST_INPUT_LENGTH, d, json_get(d, gp, "input_sequence_length"));
		set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, gp, "num_dataset_entries"));
		set_stim(c, ST_BATCH_SIZE, d, json_get(d, gp, "batch_size"));
	}
}

static void load_checkpoint(struct run *run, struct sweep_set *s, const char *path)
{
	struct json_doc d;
	size_t src;
	int root = sweep_json_open(run, path, "genai-perf", &d, &src);
	if (root < 0)
		return;
	int res = json_get(&d, root, "Results");
	int rcs = res >= 0 ? json_get(&d, res, "run_configs") : -1;
	size_t recs = 0, bad = 0;
	if (rcs < 0 || !json_is_array(&d, rcs))
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no Results.run_configs array");
	for (int rc = rcs >= 0 ? json_first(&d, rcs) : -1; rc >= 0; rc = json_next(&d, rcs, rc)) {
		if (!json_is_object(&d, rc)) {
			bad++;
			continue;
		}
		char name[128];
		if (json_strcpy(&d, json_get(&d, rc, "name"), name, sizeof(name)) == 0)
			snprintf(name, sizeof(name), "run_config_%zu", recs);
		struct sweep_cfg *c = sweep_add_cfg(s, name, path, "checkpoint");
		size_t ci = (size_t)(c - s->cfg);
		checkpoint_params(&d, rc, c);
		int meas = json_get(&d, rc, "measurement");
		int mcm = meas >= 0 ? json_get(&d, meas, "_model_config_measurements") : -1;
		for (int k = mcm >= 0 && json_is_object(&d, mcm) ? json_first(&d, mcm) : -1; k >= 0;
		     k = json_next(&d, mcm, k)) {
			int pm = json_is_object(&d, k + 1) ? json_get(&d, k + 1, "_perf_metrics") : -1;
			if (pm >= 0 && json_is_object(&d, pm))
				checkpoint_perf(&d, pm, &s->cfg[ci], &bad);
		}
		int gm = meas >= 0 ? json_get(&d, meas, "_gpu_metrics") : -1;
		if (gm >= 0 && json_is_object(&d, gm))
			checkpoint_gpu(&d, gm, s, ci, &bad);
		if (!s->cfg[ci].has_stored)
			diag_add(&run->diags, DIAG_WARN, path, -1, d.tok[rc].start, -1,
				 "run config '%s' has no perf metrics", name);
		recs++;
	}
	if (bad)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
			 "%zu malformed checkpoint records skipped", bad);
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(&d);
}

/* ---------------------------------------------------------------------------------
 * Grouping per run directory and the loader entry point. */

/* The export prefix X of X_genai_perf.{csv,json}, or the raw file's stem. */
static char *file_prefix(const char *path)
{
	const char *name = base_name(path);
	size_t n = strlen(name);
	if (export_kind(name, &n) == EXP_NONE && ends_with(name, ".json"))
		n -= 5;
	char *dir = xstrndup(path, (size_t)(name - path));
	char *p = xasprintf("%s%.*s", dir, (int)n, name);
	free(dir);
	return p;
}

static char *cfg_name(const char *root, const char *prefix, bool root_is_file)
{
	const char *slash = strrchr(prefix, '/');
	size_t dl = slash ? (size_t)(slash - prefix) : 0;
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (!root_is_file && dl > rl && strncmp(prefix, root, rl) == 0 && prefix[rl] == '/')
		return xstrndup(prefix + rl + 1, dl - rl - 1);
	/* the run dir itself (or a file in it): its own base name */
	char *dir = xstrndup(prefix, dl ? dl : strlen(prefix));
	char *name = xstrdup(base_name(dir));
	free(dir);
	return name;
}

static size_t cfg_for_prefix(struct sweep_set *s, size_t first, const char *root,
			     const char *prefix, bool root_is_file)
{
	for (size_t i = first; i < s->ncfg; i++)
		if (strcmp(s->cfg[i].source, "artifacts") == 0 && s->cfg[i].path &&
		    strcmp(s->cfg[i].path, prefix) == 0)
			return i;
	char *name = cfg_name(root, prefix, root_is_file);
	struct sweep_cfg *c = sweep_add_cfg(s, name, prefix, "artifacts");
	free(name);
	return (size_t)(c - s->cfg);
}

static int order_of(const char *path)
{
	switch (export_kind(base_name(path), NULL)) {
	case EXP_JSON: return 0;
	case EXP_CSV: return 1;
	case EXP_NONE: break;
	}
	return 2;
}

/* Exports first (so the raw recompute can use the exported OSL), raw files last. */
static int cmp_files(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int ox = order_of(x), oy = order_of(y);
	return ox != oy ? ox - oy : strcmp(x, y);
}

/* Disambiguate configs sharing a directory (several exports in one dir). */
static void name_by_prefix(struct sweep_set *s, size_t first)
{
	for (size_t i = first; i < s->ncfg; i++)
		for (size_t j = i + 1; j < s->ncfg; j++) {
			if (strcmp(s->cfg[i].source, "artifacts") || strcmp(s->cfg[j].source, "artifacts") ||
			    strcmp(s->cfg[i].name, s->cfg[j].name))
				continue;
			for (size_t k = 0; k < 2; k++) {
				struct sweep_cfg *c = &s->cfg[k ? j : i];
				char *n = xasprintf("%s/%s", c->name, base_name(c->path));
				free(c->name);
				c->name = n;
			}
		}
}

/* The run directory of an analyze/checkpoint config: an artifacts config of the same
 * load with the same concurrency / request rate and the same p99 request latency (the
 * analyze CSV rounds it to 2 decimals). SIZE_MAX when none. */
static size_t duplicate_of(const struct sweep_set *s, size_t first, const struct sweep_cfg *c)
{
	double a, b;
	if (!sweep_value(c, SM_LATENCY, SS_P99, &a))
		return SIZE_MAX;
	for (size_t i = first; i < s->ncfg; i++) {
		const struct sweep_cfg *r = &s->cfg[i];
		if (strcmp(r->source, "artifacts") != 0 || !sweep_value(r, SM_LATENCY, SS_P99, &b) ||
		    fabs(a - b) > 0.0051)
			continue;
		bool same = false;
		for (int k = ST_CONCURRENCY; k <= ST_REQUEST_RATE; k++) {
			if (c->has_stim[k] != r->has_stim[k] || (c->has_stim[k] && c->stim[k] != r->stim[k])) {
				same = false;
				break;
			}
			same |= c->has_stim[k];
		}
		if (same)
			return i;
	}
	return SIZE_MAX;
}

/* GenAI-Perf analyze writes a run directory per config next to the analyze CSV (and
 * the checkpoint repeats them): keep the run directory, which has every statistic, and
 * drop the summary row, moving its GPU rows over when the directory has none. */
static void drop_duplicates(struct run *run, struct sweep_set *s, size_t first)
{
	for (size_t i = first; i < s->ncfg;) {
		struct sweep_cfg *c = &s->cfg[i];
		size_t dup = strcmp(c->source, "artifacts") != 0 ? duplicate_of(s, first, c) : SIZE_MAX;
		if (dup == SIZE_MAX) {
			i++;
			continue;
		}
		diag_add(&run->diags, DIAG_INFO, c->path, -1, -1, -1,
			 "%s config '%s' repeats run directory '%s'; the directory is kept", c->source,
			 c->name, s->cfg[dup].name);
		bool dup_has_gpu = false;
		for (size_t g = 0; g < s->ngpu; g++)
			dup_has_gpu |= s->gpu[g].cfg == dup;
		size_t target = dup > i ? dup - 1 : dup;
		for (size_t g = 0; g < s->ngpu;) {
			struct sweep_gpu *row = &s->gpu[g];
			if (row->cfg == i && dup_has_gpu) {
				free(row->metric);
				free(row->unit);
				free(row->gpu);
				memmove(row, row + 1, (s->ngpu - g - 1) * sizeof(*row));
				s->ngpu--;
				continue;
			}
			if (row->cfg == i)
				row->cfg = target;
			else if (row->cfg > i)
				row->cfg--;
			g++;
		}
		free(c->name);
		free(c->path);
		free(c->series);
		free(c->failed);
		memmove(c, c + 1, (s->ncfg - i - 1) * sizeof(*c));
		s->ncfg--;
	}
}

int sweep_genai_load(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	struct file_list l = { 0 };
	bool is_file = S_ISREG(st.st_mode);
	if (is_file) {
		l.v = xmalloc(sizeof(*l.v));
		l.v[l.n++] = xstrdup(path);
	} else {
		walk(path, 0, &l, false);
		if (l.n >= WALK_MAX_FILES)
			diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
				 "more than %d GenAI-Perf files; the rest were ignored", WALK_MAX_FILES);
	}
	qsort(l.v, l.n, sizeof(*l.v), cmp_files);
	struct sweep_set *s = sweep_get(run);
	size_t first = s->ncfg;
	for (size_t i = 0; i < l.n && !load_cancelled(ctx); i++) {
		const char *f = l.v[i], *name = base_name(f);
		if (is_analyze_csv(name)) {
			load_analyze(run, s, f);
			continue;
		}
		if (is_checkpoint(name)) {
			load_checkpoint(run, s, f);
			continue;
		}
		char *prefix = file_prefix(f);
		size_t ci = cfg_for_prefix(s, first, path, prefix, is_file);
		free(prefix);
		switch (export_kind(name, NULL)) {
		case EXP_JSON: load_export_json(run, s, ci, f); break;
		case EXP_CSV: load_export_csv(run, s, ci, f); break;
		case EXP_NONE: load_raw(run, s, ci, f); break;
		}
	}
	name_by_prefix(s, first);
	drop_duplicates(run, s, first);
	file_list_free(&l);
	s->derived = false;
	return s->ncfg > first ? 0 : -1;
}
