/* SPDX-License-Identifier: MIT */
/* load_genai_runs.c: the GenAI-Perf analyze outputs that list several run configs:
 * analyze_export_genai_perf.csv (two tables, formats.md §3.6) and checkpoint.json
 * ([tag, attrs] records, §3.7). Each run config becomes a sweep_cfg; a value that is no
 * finite number, or negative, is warned about (genai_cell_value, sweep_bad_json) and left
 * out. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/json.h"
#include "model/run.h"
#include "model/sweep/genai.h"
#include "model/sweep/io.h"

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
		if (genai_stat_by_name(pre, st))
			h = sp + 1;
	}
	genai_split_title(h, title, tn, unit, un);
	if (strcasecmp(title, "Request Throughput") == 0) {
		*m = SM_RPS;
		return true;
	}
	return genai_metric_by_title(title, m);
}

static size_t analyze_cfg_by_name(struct sweep_set *s, size_t first, const char *name)
{
	for (size_t i = first; i < s->ncfg; i++)
		if (strcmp(s->cfg[i].name, name) == 0)
			return i;
	return SIZE_MAX;
}

/* The stimulus a column of the analyze CSV holds ("Concurrency", "ISL", ...), ST_N for none. */
static enum sweep_stim analyze_stim(const char *h)
{
	static const struct {
		const char *name;
		enum sweep_stim stim;
	} cols[] = {
		{ "Concurrency", ST_CONCURRENCY }, { "Request Rate", ST_REQUEST_RATE }, { "ISL", ST_INPUT_LENGTH },
		{ "Num Dataset Entries", ST_DATASET_ENTRIES }, { "Batch Size", ST_BATCH_SIZE },
	};
	for (size_t k = 0; k < ARRAY_LEN(cols); k++)
		if (strcasecmp(h, cols[k].name) == 0)
			return cols[k].stim;
	return ST_N;
}

/* Run config row i (header row hdr): a cell of a stimulus or metric column that is no
 * finite number, or negative, is warned about with its line (genai_cell_value), counted
 * in bad and left out; other columns are not read. */
static void analyze_perf_row(struct run *run, struct sweep_set *s, const struct genai_csv *r, size_t hdr,
			     size_t i, const char *path, size_t *bad)
{
	struct sweep_cfg *c = sweep_add_cfg(s, genai_cell(r, i, 0), path, "analyze");
	for (size_t j = 1; j < r->nf[hdr]; j++) {
		const char *h = genai_cell(r, hdr, j);
		double v;
		enum sweep_stim stim = analyze_stim(h);
		if (stim != ST_N) {
			if (genai_cell_value(run, path, r->line[i], h, genai_cell(r, i, j), &v, bad)) {
				c->stim[stim] = v;
				c->has_stim[stim] = true;
			}
			continue;
		}
		enum sweep_metric m;
		enum sweep_stat st;
		char title[128], unit[32], field[160];
		if (!analyze_col(h, &m, &st, title, sizeof(title), unit, sizeof(unit)))
			continue;
		snprintf(field, sizeof(field), "%s %s", title, sweep_stat_name(st));
		if (genai_cell_value(run, path, r->line[i], field, genai_cell(r, i, j), &v, bad)) {
			c->stored.v[m][st] = v;
			c->stored.has[m][st] = true;
			c->stored_csv[m][st] = true; /* {:.2f} */
			c->has_stored = true;
		}
	}
}

static void analyze_gpu_row(struct sweep_set *s, size_t first, const struct genai_csv *r,
			    size_t hdr, size_t i, struct run *run, const char *path, size_t *bad)
{
	size_t ci = analyze_cfg_by_name(s, first, genai_cell(r, i, 0));
	if (ci == SIZE_MAX) {
		diag_add(&run->diags, DIAG_WARN, path, r->line[i], -1, -1,
			 "GPU row for an unknown config skipped");
		(*bad)++;
		return;
	}
	for (size_t j = 2; j < r->nf[hdr]; j++) {
		double v;
		const char *h = genai_cell(r, hdr, j), *sp = strchr(h, ' ');
		enum sweep_stat st = SS_AVG;
		char pre[16], title[128], unit[32], name[128], field[160];
		if (sp && (size_t)(sp - h) < sizeof(pre)) {
			snprintf(pre, sizeof(pre), "%.*s", (int)(sp - h), h);
			if (genai_stat_by_name(pre, &st))
				h = sp + 1;
		}
		genai_split_title(h, title, sizeof(title), unit, sizeof(unit));
		snprintf(field, sizeof(field), "%s %s", title, sweep_stat_name(st));
		if (!genai_cell_value(run, path, r->line[i], field, genai_cell(r, i, j), &v, bad))
			continue;
		genai_snake(title, name, sizeof(name));
		struct sweep_gpu *g = sweep_add_gpu(s, ci, name, unit, genai_cell(r, i, 1));
		g->v[st] = v;
		g->has[st] = true;
	}
}

void genai_load_analyze(struct run *run, struct sweep_set *s, const char *path)
{
	struct genai_csv r = { 0 };
	size_t src;
	if (genai_read_csv(run, path, &r, &src) < 0)
		return;
	size_t first = s->ncfg, recs = 0, bad = 0, hdr = SIZE_MAX;
	bool gpu_table = false;
	for (size_t i = 0; i < r.n; i++) {
		if (strcasecmp(genai_cell(&r, i, 0), "Config Name") == 0) {
			hdr = i;
			gpu_table = strcasecmp(genai_cell(&r, i, 1), "GPU") == 0;
			continue;
		}
		if (hdr == SIZE_MAX || !*genai_cell(&r, i, 0)) {
			bad++;
			continue;
		}
		if (gpu_table)
			analyze_gpu_row(s, first, &r, hdr, i, run, path, &bad);
		else
			analyze_perf_row(run, s, &r, hdr, i, path, &bad);
		recs++;
	}
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no run configs in the analyze CSV");
	run_source_done(run, src, recs, bad, 0, r.partial);
	genai_csv_free(&r);
}

/* ---------------------------------------------------------------------------------
 * checkpoint.json (formats.md §3.7): records are [tag, {"_value": v, ...}]. */

/* The finite number *v of record rec and its token *tok; false for a malformed record. */
static bool record_value(const struct json_doc *d, int rec, double *v, int *tok)
{
	if (!json_is_array(d, rec))
		return false;
	int tag = json_first(d, rec);
	int attrs = tag >= 0 ? json_next(d, rec, tag) : -1;
	*tok = attrs >= 0 && json_is_object(d, attrs) ? json_get(d, attrs, "_value") : -1;
	return *tok >= 0 && json_number(d, *tok, v) && isfinite(*v);
}

/* "request_latency_p99" -> metric + stat */
static bool split_tag(const char *tag, char *base, size_t bn, enum sweep_stat *st)
{
	const char *us = strrchr(tag, '_');
	if (!us || !genai_stat_by_name(us + 1, st))
		return false;
	snprintf(base, bn, "%.*s", (int)(us - tag), tag);
	return true;
}

/* The perf metric records of pm into c; a malformed one is counted in bad, a negative one
 * also warned about with its offset. */
static void checkpoint_perf(struct run *run, const char *path, const struct json_doc *d, int pm,
			    struct sweep_cfg *c, size_t *bad)
{
	for (int k = json_first(d, pm); k >= 0; k = json_next(d, pm, k)) {
		char tag[96], base[96];
		double v;
		int vt;
		enum sweep_stat st;
		enum sweep_metric m;
		json_strcpy(d, k, tag, sizeof(tag));
		if (!record_value(d, k + 1, &v, &vt) || !split_tag(tag, base, sizeof(base), &st) ||
		    !sweep_metric_parse(base, strlen(base), &m, &(enum sweep_stat){ 0 })) {
			(*bad)++;
			continue;
		}
		if (v < 0) {
			char field[128];
			snprintf(field, sizeof(field), "%s %s", sweep_metric_info(m)->name, sweep_stat_name(st));
			sweep_bad_json(run, path, d, vt, field, SWEEP_BAD_NEGATIVE, bad);
			continue;
		}
		c->stored.v[m][st] = v;
		c->stored.has[m][st] = true;
		c->has_stored = true;
	}
}

/* The GPU metric records of gm into config ci's telemetry rows; a malformed one is
 * counted in bad, a negative one also warned about with its offset (its row stays, n/a). */
static void checkpoint_gpu(struct run *run, const char *path, const struct json_doc *d, int gm,
			   struct sweep_set *s, size_t ci, size_t *bad)
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
			int vt;
			enum sweep_stat st;
			json_strcpy(d, k, tag, sizeof(tag));
			if (!record_value(d, k + 1, &v, &vt) || !split_tag(tag, base, sizeof(base), &st)) {
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
			if (v < 0) {
				char field[128];
				snprintf(field, sizeof(field), "%s %s", base, sweep_stat_name(st));
				sweep_bad_json(run, path, d, vt, field, SWEEP_BAD_NEGATIVE, bad);
				continue;
			}
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
		genai_set_stim(c, ST_CONCURRENCY, d, json_get(d, pp, "concurrency"));
		genai_set_stim(c, ST_REQUEST_RATE, d, json_get(d, pp, "request_rate"));
		genai_set_stim(c, ST_REQUEST_RATE, d, json_get(d, pp, "request-rate"));
		genai_set_stim(c, ST_BATCH_SIZE, d, json_get(d, pp, "batch_size"));
		genai_set_stim(c, ST_BATCH_SIZE, d, json_get(d, pp, "batch-size"));
	}
	if (gp >= 0) {
		genai_set_stim(c, ST_INPUT_LENGTH, d, json_get(d, gp, "input_sequence_length"));
		genai_set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, gp, "num_dataset_entries"));
		genai_set_stim(c, ST_BATCH_SIZE, d, json_get(d, gp, "batch_size"));
	}
}

void genai_load_checkpoint(struct run *run, struct sweep_set *s, const char *path)
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
				checkpoint_perf(run, path, &d, pm, &s->cfg[ci], &bad);
		}
		int gm = meas >= 0 ? json_get(&d, meas, "_gpu_metrics") : -1;
		if (gm >= 0 && json_is_object(&d, gm))
			checkpoint_gpu(run, path, &d, gm, s, ci, &bad);
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
