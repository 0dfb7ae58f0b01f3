/* SPDX-License-Identifier: MIT */
/* test_sweep.c: the sweep loaders end to end (run_open -> model -> views): the real
 * GenAI-Perf medium sweep (recomputed metrics pinned against its own CSV/JSON; skipped
 * when ../shared is absent), generated streaming exports, export CSVs with thousands
 * separators / N/A / BOM / telemetry, analyze CSV, checkpoint.json, NAT calculator
 * output (both layouts), Cerebras performance.json (both shapes), objectives and
 * constraints, and bad files that must give diagnostics, not crashes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/internal.h"
#include "model/sweep/rank.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char tmpdir[256];

static char *fixture(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, rel);
	for (char *p = path + strlen(tmpdir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	tu_write_file(path, text, strlen(text));
	return path;
}

/* A fixture file's bytes (tests/unit/fixtures/sweep/NAME under $TSCOPE_ROOT, else the
 * working directory); exits 1 when it cannot be read. */
static char *fixture_text(const char *name)
{
	char *rel = xasprintf("tests/unit/fixtures/sweep/%s", name);
	char *text = tu_source_text(rel);
	free(rel);
	return text;
}

/* fixture() with the bytes of tests/unit/fixtures/sweep/NAME. */
static char *fixture_copy(const char *rel, const char *name)
{
	char *text = fixture_text(name);
	char *path = fixture(rel, text);
	free(text);
	return path;
}

static struct run *open_one(const char *path, const struct opts *o)
{
	const char *paths[] = { path };
	return run_open(paths, 1, o, NULL);
}

static struct table *view(struct run *run, const char *name)
{
	char err[128];
	const struct view_def *v = registry_view(name);
	return v ? v->build(run, err, sizeof(err)) : NULL;
}

static double cell_num(const struct table *t, size_t row, const char *col)
{
	int c = table_col_index(t, col);
	const struct table_cell *x = c >= 0 && row < t->nrow ? table_cell(t, row, c) : NULL;
	return x && x->present ? x->num : NAN;
}

static const char *cell_text(const struct table *t, size_t row, const char *col)
{
	int c = table_col_index(t, col);
	const struct table_cell *x = c >= 0 && row < t->nrow ? table_cell(t, row, c) : NULL;
	return x && x->present ? x->text : "";
}

static bool has_finding(struct run *run, const char *id)
{
	const struct finding_list *fl = run_findings(run);
	for (size_t i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].id, id) == 0)
			return true;
	return false;
}

/* ---------------------------------------------------------------------------------
 * Real medium sweep */

static void close_rel(double got, double want, const char *what, const char *cfg)
{
	ok(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)), "%s: recomputed %s matches the export",
	   cfg, what);
	if (fabs(got - want) > 1e-9 * fmax(1, fabs(want)))
		printf("#   got %.17g want %.17g\n", got, want);
}

static void test_real_medium(void)
{
	const char *root = "../shared/real/genai-perf-medium";
	struct stat st;
	if (stat(root, &st) != 0) {
		tap_skip("../shared/real/genai-perf-medium is absent");
		return;
	}
	struct opts o = { 0 };
	struct run *run = open_one(root, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 4, "real medium sweep: 4 configs");
	if (!s || s->ncfg != 4) {
		run_free(run);
		return;
	}
	sweep_derive(run);
	is_int(s->nseries, 1, "one series");
	is_int(s->series[0].stim, ST_CONCURRENCY, "swept stimulus is concurrency");
	static const double want_c[] = { 1, 10, 25, 50 };
	static const enum sweep_metric ms[] = { SM_LATENCY, SM_TTFT };
	for (size_t i = 0; i < 4; i++) {
		const struct sweep_cfg *c = &s->cfg[s->series[0].cfg[i]];
		is_dbl(c->stim[ST_CONCURRENCY], want_c[i], 0, "series sorted by concurrency");
		ok(c->has_calc && c->has_stored, "%s: stored and recomputed", c->name);
		for (size_t m = 0; m < ARRAY_LEN(ms); m++)
			for (int k = 0; k < SS_N; k++)
				close_rel(c->calc.v[ms[m]][k], c->stored.v[ms[m]][k],
					  sweep_stat_name(k), sweep_metric_info(ms[m])->name);
		close_rel(c->calc.v[SM_RPS][SS_AVG], c->stored.v[SM_RPS][SS_AVG], "request_throughput", c->name);
		close_rel(c->calc.v[SM_COUNT][SS_AVG], c->stored.v[SM_COUNT][SS_AVG], "request_count", c->name);
		close_rel(c->calc.v[SM_TPS][SS_AVG], c->stored.v[SM_TPS][SS_AVG], "output_token_throughput",
			  c->name);
	}
	const struct sweep_cfg *c10 = &s->cfg[s->series[0].cfg[1]];
	is_dbl(c10->calc.v[SM_COUNT][SS_AVG], 26, 0, "c10: 26 requests");
	is_dbl(c10->calc.v[SM_LATENCY][SS_AVG], 9611.462467961537, 1e-8, "c10: mean latency 9611.46 ms");
	is_dbl(c10->calc.v[SM_RPS][SS_AVG], 0.9143702288467201, 1e-12, "c10: 0.914 req/s");
	ok(!tu_has_diag(run, "recomputed", NULL), "no recompute mismatch diagnostics");
	ok(!tu_has_diag(run, "in the CSV but", NULL), "CSV agrees with JSON");
	struct table *t = view(run, "sweep");
	ok(t && t->nrow == 4, "sweep view has 4 rows");
	if (t) {
		is_dbl(cell_num(t, 1, "latency_p99_ms"), 19113.67754225, 1e-9, "sweep view latency_p99_ms of c10");
		ok(table_col_index(t, "itl_p90_ms") < 0, "no ITL column for a non-streaming sweep");
		table_free(t);
	}
	t = view(run, "sizing");
	ok(t && t->nrow == 1 && strcmp(cell_text(t, 0, "source"), "genai-perf") == 0,
	   "sizing view: the GenAI-Perf p95 latency fit");
	table_free(t);
	run_free(run);
}

/* The raw export alone (recomputed) against the exported CSV alone ({:,.2f}). */
static void test_real_csv_vs_raw(void)
{
	static const int levels[] = { 1, 10, 25, 50 };
	const char *base = "../shared/real/genai-perf-medium";
	struct stat st;
	if (stat(base, &st) != 0) {
		tap_skip("../shared/real/genai-perf-medium is absent");
		return;
	}
	struct opts o = { 0 };
	for (size_t i = 0; i < ARRAY_LEN(levels); i++) {
		char *dir = xasprintf("%s/simple_medium_response_c%d_artifacts/auto-openai-chat-concurrency%d/"
				      "simple_medium_response_c%d", base, levels[i], levels[i], levels[i]);
		char *raw = xasprintf("%s.json", dir), *csv = xasprintf("%s_genai_perf.csv", dir);
		struct run *rr = open_one(raw, &o), *rc = open_one(csv, &o);
		bool okay = rr->sweep && rc->sweep && rr->sweep->ncfg == 1 && rc->sweep->ncfg == 1;
		size_t compared = 0, bad = 0;
		for (int m = 0; okay && m < SM_N; m++)
			for (int k = 0; k < SS_N; k++) {
				const struct sweep_stats *a = &rr->sweep->cfg[0].calc, *b = &rc->sweep->cfg[0].stored;
				if (m == SM_TPS || m == SM_OSL || !a->has[m][k] || !b->has[m][k])
					continue;
				compared++;
				if (fabs(a->v[m][k] - b->v[m][k]) > 0.005 + 1e-9 * fabs(b->v[m][k])) {
					bad++;
					printf("# c%d %s %s: recomputed %.17g, CSV %.2f\n", levels[i],
					       sweep_metric_info(m)->name, sweep_stat_name(k), a->v[m][k], b->v[m][k]);
				}
			}
		ok(okay && compared >= 14 && bad == 0,
		   "c%d: the raw export alone, recomputed, rounds to the CSV's %zu values", levels[i], compared);
		run_free(rr);
		run_free(rc);
		free(dir);
		free(raw);
		free(csv);
	}
}

/* ---------------------------------------------------------------------------------
 * Synthetic streaming export (SSE chunks, [DONE], empty chunk, usage) */

/* Request 1: chunks at +100/+120/+140 ms kept (an empty chunk and [DONE] dropped),
 * usage 5. Request 2 (starts +10): a role-only chunk (+205) dropped, +210 kept, a
 * splintered chunk (+260, continued at +265 without "data: ") merged, usage 3.
 * Request 3: no responses. Request 4 (starts +30): one chunk at +330, usage 1.
 * Request 5: a bad timestamp. */

static void test_streaming(void)
{
	char *p = fixture_copy("stream/m-openai-chat-concurrency4/profile_export.json", "profile_export.json");
	struct opts o = { 0 };
	struct run *run = open_one(p, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 1 && s->cfg[0].has_calc, "streaming export loads as one recomputed config");
	if (s && s->ncfg == 1) {
		const struct sweep_stats *c = &s->cfg[0].calc;
		is_dbl(c->v[SM_COUNT][SS_AVG], 3, 0, "3 requests with responses");
		is_dbl(c->v[SM_RPS][SS_AVG], 4 / 0.33, 1e-9, "throughput counts every request: 4 / 0.33 s");
		is_dbl(c->v[SM_LATENCY][SS_AVG], 230, 1e-9, "latency avg 230 ms ([DONE] and empty chunk dropped)");
		is_dbl(c->v[SM_LATENCY][SS_P90], 290, 1e-9, "latency p90 290 ms (numpy linear)");
		is_dbl(c->v[SM_TTFT][SS_AVG], 200, 1e-9, "TTFT avg 200 ms");
		is_dbl(c->v[SM_TTST][SS_AVG], 35, 1e-9, "TTST avg 35 ms (two requests)");
		is_dbl(c->v[SM_ITL][SS_AVG], 17.5, 1e-9, "ITL avg 17.5 ms from usage tokens");
		is_dbl(c->v[SM_TPS_USER][SS_MAX], 100, 1e-9, "per-user throughput max 100 tok/s");
		is_dbl(c->v[SM_OSL][SS_AVG], 3, 1e-12, "OSL avg 3 from usage");
		is_dbl(c->v[SM_TPS][SS_AVG], 9 / 0.33, 1e-9, "output token throughput 9 tokens / 0.33 s");
		is_dbl(s->cfg[0].stim[ST_CONCURRENCY], 4, 0, "concurrency from the experiment");
		ok(run->src[0].skipped == 1 && tu_has_diag(run, "integer timestamp", NULL),
		   "request with a bad timestamp skipped with a diagnostic");
	}
	run_free(run);
	free(p);
}

/* ---------------------------------------------------------------------------------
 * Export CSV: BOM, CRLF, thousands separators, N/A, telemetry tables */

static void test_export_csv(void)
{
	char *p = fixture_copy("csv/run-concurrency8/x_genai_perf.csv", "x_genai_perf.csv");
	struct opts o = { 0 };
	struct run *run = open_one(p, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 1, "export CSV loads");
	if (s && s->ncfg == 1) {
		const struct sweep_stats *c = &s->cfg[0].stored;
		is_dbl(c->v[SM_TTFT][SS_AVG], 1234.5, 1e-9, "BOM stripped, thousands separator removed");
		ok(!c->has[SM_TTFT][SS_MIN], "N/A is missing, not 0");
		is_dbl(c->v[SM_TTFT][SS_P50], 1100.25, 1e-9, "header-driven column p50");
		is_dbl(c->v[SM_LATENCY][SS_P99], 12000, 1e-9, "latency p99 12,000.00");
		is_dbl(c->v[SM_TPS][SS_AVG], 1408.83, 1e-9, "Metric,Value table");
		is_dbl(c->v[SM_COUNT][SS_AVG], 27, 0, "request count");
		ok(tu_has_diag(run, "unknown metric row", NULL), "unknown metric row gives a diagnostic");
		ok(s->ngpu == 2, "two telemetry rows");
		if (s->ngpu == 2) {
			is_str(s->gpu[0].metric, "gpu_power_usage", "telemetry metric snake name");
			is_dbl(s->gpu[0].v[SS_AVG], 1200.5, 1e-9, "telemetry avg with separator");
			is_dbl(s->gpu[1].v[SS_AVG], 700, 1e-9, "Metric,GPU,Value row");
		}
		sweep_derive(run);
		is_dbl(s->cfg[0].stim[ST_CONCURRENCY], 8, 0, "concurrency from the directory name");
		struct table *t = view(run, "gpu_telemetry");
		ok(t && t->nrow == 2, "gpu_telemetry view");
		table_free(t);
	}
	run_free(run);
	free(p);
}

/* Non-streaming: a JSON export whose TTFT is the request latency (GenAI-Perf's quirk),
 * without input_config, and one saying streaming false: TTFT, ITL left empty. */
static void test_nonstreaming(void)
{
	static const char *quirk =
		"{\"request_latency\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
		"\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
		"\"request_count\":{\"unit\":\"count\",\"avg\":300}}";
	static const char *flagged =
		"{\"request_latency\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
		"\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":5,\"p99\":7},"
		"\"input_config\":{\"endpoint\":{\"streaming\":false}}}";
	static const char *streamed =
		"{\"request_latency\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
		"\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
		"\"inter_token_latency\":{\"unit\":\"ms\",\"avg\":1,\"p99\":2}}";
	const char *docs[] = { quirk, flagged, streamed };
	const char *what[] = { "TTFT equal to latency, no ITL", "input_config streaming false",
			       "TTFT equal to latency but ITL present" };
	for (size_t i = 0; i < 3; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "ns%zu/m-openai-chat-concurrency1/p_genai_perf.json", i);
		char *p = fixture(rel, docs[i]);
		struct opts o = { 0 };
		struct run *run = open_one(p, &o);
		struct sweep_set *s = run->sweep;
		double v;
		ok(s && s->ncfg == 1 && sweep_value(&s->cfg[0], SM_LATENCY, SS_P99, &v) && v == 20,
		   "%s: latency kept", what[i]);
		bool ttft = s && s->ncfg == 1 && sweep_value(&s->cfg[0], SM_TTFT, SS_P99, &v);
		ok(i < 2 ? !ttft : ttft, "%s: TTFT %s", what[i], i < 2 ? "empty (n/a)" : "kept");
		if (i == 0) {
			ok(tu_has_diag(run, "non-streaming run", NULL), "non-streaming diagnostic");
			struct table *t = view(run, "sweep");
			ok(t && table_col_index(t, "ttft_p99_ms") < 0 && strcmp(cell_text(t, 0, "streaming"), "no") == 0,
			   "sweep view: no TTFT value, streaming no");
			ok(t && strcmp(cell_text(t, 0, "low_confidence"), "p99") == 0 &&
				   cell_num(t, 0, "requests_beyond_p99") == 3,
			   "300 requests: 3 beyond the p99, low confidence");
			table_free(t);
		}
		run_free(run);
		free(p);
	}
}

/* CSV-only artifact dirs named <model>-<service>-<backend>-<sweep_type><value>: one
 * series over that stimulus for every GenAI-Perf sweep type. */
static void test_stimulus_names(void)
{
	static const struct { const char *type; enum sweep_stim st; } types[] = {
		{ "concurrency", ST_CONCURRENCY }, { "request_rate", ST_REQUEST_RATE },
		{ "input_sequence_length", ST_INPUT_LENGTH }, { "batch_size", ST_BATCH_SIZE },
		{ "num_dataset_entries", ST_DATASET_ENTRIES },
	};
	for (size_t i = 0; i < ARRAY_LEN(types); i++) {
		static const char *const vals[] = { "8", "2.5", "64" };
		for (size_t v = 0; v < ARRAY_LEN(vals); v++) {
			char *rel = xasprintf("names%zu/gpt2-triton-vllm-%s%s/profile_export_genai_perf.csv", i,
					      types[i].type, vals[v]);
			free(fixture(rel, "Metric,avg,p99\nRequest Latency (ms),10.00,20.00\n"));
			free(rel);
		}
		char *dir = xasprintf("%s/names%zu", tmpdir, i);
		struct opts o = { 0 };
		struct run *run = open_one(dir, &o);
		struct sweep_set *s = run->sweep;
		if (s)
			sweep_derive(run);
		ok(s && s->nseries == 1 && s->series[0].n == 3 && s->series[0].stim == (int)types[i].st &&
			   s->cfg[s->series[0].cfg[0]].stim[types[i].st] == 2.5,
		   "...-%s{2.5,8,64}: one 3-level series over %s, sorted", types[i].type,
		   sweep_stim_name(types[i].st));
		run_free(run);
		free(dir);
	}
}

/* ---------------------------------------------------------------------------------
 * Stimulus detection: input length varies, concurrency is fixed */

static void test_stimulus(void)
{
	static const int isl[] = { 512, 128, 256 };
	for (size_t i = 0; i < 3; i++) {
		char rel[128], doc[640];
		snprintf(rel, sizeof(rel), "stim/isl%d/m-openai-chat-concurrency4/p_genai_perf.json", isl[i]);
		snprintf(doc, sizeof(doc),
			 "{\"request_latency\":{\"unit\":\"ms\",\"avg\":%d,\"p95\":%d},"
			 "\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":2.0},"
			 "\"input_config\":{\"endpoint\":{\"streaming\":true},\"perf_analyzer\":"
			 "{\"stimulus\":{\"concurrency\":4}},\"input\":{\"batch_size\":1,"
			 "\"num_dataset_entries\":100,\"synthetic_tokens\":{\"mean\":%d,\"stddev\":0}}}}",
			 isl[i], isl[i] * 2, isl[i]);
		free(fixture(rel, doc));
	}
	char *dir = xasprintf("%s/stim", tmpdir);
	struct opts o = { 0 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 3, "three input-length configs");
	if (s && s->ncfg == 3) {
		sweep_derive(run);
		ok(s->nseries == 1, "one series: isl*/m-openai-chat-concurrency*");
		is_str(s->series[0].name, "isl*/m-openai-chat-concurrency*", "series key");
		is_int(s->series[0].stim, ST_INPUT_LENGTH, "swept stimulus is the input length");
		is_dbl(s->cfg[s->series[0].cfg[0]].stim[ST_INPUT_LENGTH], 128, 0, "sorted by input length");
		ok(s->cfg[0].has_streaming && s->cfg[0].streaming, "streaming flag from input_config");
		ok(!s->series[0].has_fit, "no concurrency fit when concurrency is not swept");
	}
	run_free(run);
	free(dir);
}

/* ---------------------------------------------------------------------------------
 * analyze CSV and checkpoint.json */

static void test_analyze_checkpoint(void)
{
	free(fixture_copy("an/analyze_export_genai_perf.csv", "analyze_export_genai_perf.csv"));
	char *dir = xasprintf("%s/an", tmpdir);
	struct opts o = { 0 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 3, "analyze CSV: 3 run configs");
	if (s && s->ncfg == 3) {
		is_dbl(s->cfg[1].stim[ST_CONCURRENCY], 2, 0, "concurrency column");
		is_dbl(s->cfg[1].stim[ST_INPUT_LENGTH], 200, 0, "ISL column");
		is_dbl(s->cfg[2].stored.v[SM_TTFT][SS_P99], 30, 0, "p99 TTFT column");
		is_dbl(s->cfg[2].stored.v[SM_TPS][SS_AVG], 800, 0, "Avg. output token throughput");
		is_dbl(s->cfg[0].stored.v[SM_RPS][SS_AVG], 3, 0, "request throughput");
		ok(s->ngpu == 6 && strcmp(s->gpu[0].metric, "gpu_power_usage") == 0, "GPU table rows");
		ok(tu_has_diag(run, "unknown config", NULL), "GPU row for an unknown config gives a diagnostic");
		sweep_derive(run);
		ok(s->nseries == 1 && s->series[0].stim == ST_CONCURRENCY, "analyze series swept concurrency");
		is_int(s->series[0].knee, 1, "throughput knee at concurrency 2");
		const struct finding_list *fl = run_findings(run);
		bool knee = false;
		for (size_t i = 0; i < fl->n; i++)
			if (strcmp(fl->v[i].id, "SWEEP.SATURATION") == 0 && fl->v[i].ev.kind == EV_CONFIG &&
			    fl->v[i].ev.item == 1)
				knee = true;
		ok(knee, "SWEEP.SATURATION finding with EV_CONFIG evidence");
	}
	run_free(run);
	free(dir);

	/* analyze writes a run directory per config next to the CSV: the directory wins */
	free(fixture_copy("an2/analyze_export_genai_perf.csv", "analyze_export_genai_perf.csv"));
	free(fixture("an2/m-openai-chat-concurrency1/profile_export_genai_perf.json",
		     "{\"request_latency\":{\"unit\":\"ms\",\"avg\":200.0,\"p99\":300.004},"
		     "\"input_config\":{\"perf_analyzer\":{\"stimulus\":{\"concurrency\":1}}}}"));
	dir = xasprintf("%s/an2", tmpdir);
	run = open_one(dir, &o);
	s = run->sweep;
	ok(s && s->ncfg == 3, "analyze row repeating a run directory is dropped (3 configs, not 4)");
	if (s && s->ncfg == 3) {
		ok(strcmp(s->cfg[0].source, "artifacts") == 0 && s->cfg[0].stored.has[SM_LATENCY][SS_AVG],
		   "the run directory (with every statistic) is kept");
		ok(s->ngpu == 6 && s->gpu[0].cfg == 0, "its GPU rows move to the run directory");
		ok(tu_has_diag(run, "repeats run directory", NULL), "the drop is noted");
	}
	run_free(run);
	free(dir);

	char *ap = fixture("ai/profile_export_aiperf.csv",
			   "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\n"
			   "Time to First Token (ms),\"1,010.00\",1,2,99,1,1,1,1,5.5,1,1,1,9,0.5\n"
			   "Request Count (count),12.00\n");
	run = open_one(ap, &o);
	s = run->sweep;
	ok(s && s->ncfg == 1 && s->cfg[0].stored.v[SM_TTFT][SS_AVG] == 1010 &&
	   s->cfg[0].stored.v[SM_TTFT][SS_P50] == 5.5 && s->cfg[0].stored.v[SM_TTFT][SS_STD] == 0.5,
	   "AIPerf CSV: header-driven (sum ignored), 'Time to First Token' matched");
	run_free(run);
	free(ap);

	char *cp = fixture_copy("ck/checkpoint.json", "checkpoint.json");
	struct opts o2 = { .objective = "ttft_p99:1,itl_p90:3" };
	const char *cons[] = { "ttft_p99<20" };
	o2.constraints = cons;
	o2.nconstraints = 1;
	run = open_one(cp, &o2);
	s = run->sweep;
	ok(s && s->ncfg == 2, "checkpoint: 2 run configs");
	if (s && s->ncfg == 2) {
		is_dbl(s->cfg[0].stored.v[SM_TTFT][SS_P99], 10.5, 0, "[tag, attrs] record value");
		is_dbl(s->cfg[1].stim[ST_CONCURRENCY], 2, 0, "concurrency from perf_analyzer _parameters");
		ok(s->ngpu == 1 && s->gpu[0].v[SS_P99] == 250, "GPU record");
		ok(run->src[0].skipped == 1, "malformed record counted as skipped");
		sweep_derive(run);
		ok(s->cfg[0].pass && !s->cfg[1].pass, "constraint ttft_p99<20: config 0 passes, 1 fails");
		ok(s->cfg[1].failed && strstr(s->cfg[1].failed, "ttft_p99<20 (30)"), "failure text");
		/* gain(0 vs 1) = 1/4*(+2*(30-10.5)/40.5*100)... : config 0 better on TTFT, worse on ITL x3 */
		ok(s->cfg[0].rank == 1, "passing config ranks first");
		char err[128];
		ok(sweep_set_objective(run, "ttft_p99:1", err, sizeof(err)) == 0, "set objective");
		ok(s->cfg[0].score > 0 && s->cfg[1].score < 0, "TTFT-only objective favours config 0");
		ok(sweep_set_objective(run, "bogus_p99:1", err, sizeof(err)) < 0 && strstr(err, "bogus"),
		   "unknown objective metric is an error");
		ok(sweep_set_objective(run, "ttft_p99:-1", err, sizeof(err)) < 0, "negative weight rejected");
		ok(sweep_add_constraint(run, "itl_p90>=1.2", err, sizeof(err)) == 0, "add constraint");
		ok(!s->cfg[1].pass && s->cfg[0].pass, "both constraints evaluated");
		ok(sweep_add_constraint(run, "itl_p90~1", err, sizeof(err)) < 0, "bad operator rejected");
		sweep_clear_constraints(run);
		ok(s->cfg[1].pass, "constraints cleared");
		char m[256];   /* :objective when no config passes: rank 1 is not called best */
		ok(sweep_cmd_constraint(run, "ttft_p99<1", m, sizeof(m)) == 0 && sweep_cmd_objective(run, "ttft_p99:1", m,
		   sizeof(m)) == 0 && strstr(m, "0 of 2 configs pass 1 constraint; none passes: rank 1 by the objective is ")
		   && strstr(m, "(fails ttft_p99<1 (10.5))") && !strstr(m, "best:"), ":objective: none passes, no best");
	}
	run_free(run);
	free(cp);
}

/* ---------------------------------------------------------------------------------
 * NAT calc_runner_output.json */

static char *nat_doc(const char *key, bool with_fits)
{
	static const char *const c[] = { "1", "2", "4", "8", "16", "32" };
	static const char *const rt[] = { "4.03488", "4.71197", "5.67581", "7.90895", "12.677", "24.5307" };
	static const char *const lat[] = { "1.14981", "1.3591", "1.50682", "2.10668", "3.30196", "6.57847" };
	char *body = xstrdup("");
	for (size_t i = 0; i < 6; i++) {
		char *n = xasprintf("%s%s\"%s\":{\"gpu_estimates\":{\"gpu_estimate_by_wf_runtime\":null,"
				    "\"gpu_estimate_by_llm_latency\":null},\"alerts\":{\"outlier_workflow_runtime\":false,"
				    "\"outlier_llm_latency\":%s,\"num_items_greater_than_target_latency\":0,"
				    "\"num_items_greater_than_target_runtime\":0},\"sizing_metrics\":{\"alerts\":"
				    "{\"workflow_interrupted\":false},\"llm_latency_p95\":%s,\"workflow_runtime_p95\":%s,"
				    "\"total_runtime\":%d,\"per_item_metrics\":{\"0\":{\"llm_latency\":1.0,"
				    "\"workflow_runtime\":%s},\"1\":{\"llm_latency\":1.0,\"workflow_runtime\":11.0}}}}",
				    body, i ? "," : "", c[i], i == 5 ? "true" : "false", lat[i], rt[i], 20 + (int)i,
				    rt[i]);
		free(body);
		body = n;
	}
	char *doc = xasprintf(
		"{\"gpu_estimates\":{\"gpu_estimate_by_wf_runtime\":75.35159084873075,"
		"\"gpu_estimate_by_llm_latency\":null},%s\"%s\":{%s,\"64\":{\"sizing_metrics\":{\"alerts\":"
		"{\"workflow_interrupted\":true},\"llm_latency_p95\":0,\"workflow_runtime_p95\":0,"
		"\"total_runtime\":0,\"per_item_metrics\":{}}},\"x\":{}}}",
		with_fits ? "\"fit_results\":{\"llm_latency_fit\":{\"slope\":0.14213034946236558,"
			    "\"intercept\":1.0036658333333333,\"r_squared\":0.9963213113636101,"
			    "\"outliers_removed\":[32]},\"wf_runtime_fit\":{\"slope\":0.6568376759061832,"
			    "\"intercept\":3.026422736318409,\"r_squared\":0.9954928276447451,"
			    "\"outliers_removed\":[]}}," : "",
		key, body);
	free(body);
	return doc;
}

static void test_nat(void)
{
	char *doc = nat_doc("calc_data", true);
	free(fixture("nat/online/job_1752000000/calc_runner_output.json", doc));
	free(doc);
	char *dir = xasprintf("%s/nat", tmpdir);
	struct opts o = { .target_users = 100, .target_runtime = 10, .test_gpus = 8 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->nnat == 1 && s->nat[0].npt == 7, "NAT: 7 concurrencies (string keys; 'x' skipped)");
	ok(tu_has_diag(run, "calc_data entry 'x' skipped", NULL), "non-numeric concurrency key gives a diagnostic");
	if (s && s->nnat == 1 && s->nat[0].npt == 7) {
		sweep_derive(run);
		const struct nat_calc *n = &s->nat[0];
		is_str(n->mode, "online", "online job directory");
		ok(!n->pt[6].valid && n->pt[6].interrupted, "interrupted concurrency 64 not fitted");
		ok(!n->pt[6].has_total && n->pt[0].has_total && n->pt[0].total_rt == 20,
		   "its zeroed total_runtime is not measured, a fitted one's is kept");
		ok(tu_has_diag(run, "concurrency 64 total_runtime 0 read as not measured", NULL),
		   "... with a note");
		is_dbl(n->c_fit_rt.slope, 0.6568376759061832, 1e-12, "recomputed runtime slope");
		ok(n->c_fit_lat.nout == 1 && n->c_fit_lat.outliers[0] == 32, "recomputed latency outlier 32");
		ok(n->pt[5].c_out_lat && !n->pt[4].c_out_lat, "outlier flag on concurrency 32 only");
		is_dbl(n->c_est_rt.gpus, 75.35159084873075, 1e-9, "75.3516 GPUs");
		is_dbl(n->pt[0].c_gpu_rt, 322.7904, 5e-5, "rough c1");
		is_dbl(n->pt[3].c_gpu_rt, 79.0895, 5e-5, "rough c8");
		ok(!n->pt[4].has_c_gpu_rt && !n->pt[5].has_c_gpu_rt, "rough c16, c32 null");
		is_int(n->pt[4].c_items_rt, 2, "items over the 10 s runtime target at c16");
		struct table *t = view(run, "sizing");
		ok(t && t->nrow == 2, "sizing view: latency and runtime rows");
		if (t) {
			is_str(cell_text(t, 1, "differs"), "no", "stored runtime fit equals the recomputed one");
			is_str(cell_text(t, 0, "outliers"), "32", "outliers column");
			is_dbl(cell_num(t, 1, "gpus"), 75.35159084873075, 1e-9, "gpus column");
			is_dbl(cell_num(t, 1, "stored_gpus"), 75.35159084873075, 1e-12, "stored_gpus column");
			table_free(t);
		}
		t = view(run, "sizing_points");
		ok(t && t->nrow == 7, "sizing_points view");
		if (t) {
			is_str(cell_text(t, 5, "alerts"), "!L", "alerts column marks the latency outlier");
			is_str(cell_text(t, 6, "alerts"), "!W", "alerts column marks the interrupted run");
			table_free(t);
		}
		const struct finding_list *fl = run_findings(run);
		bool outl = false;
		for (size_t i = 0; i < fl->n; i++)
			outl |= strcmp(fl->v[i].id, "SIZING.OUTLIERS") == 0 && fl->v[i].ev.kind == EV_CONFIG &&
				fl->v[i].ev.view && strcmp(fl->v[i].ev.view, "sizing") == 0;
		ok(outl, "SIZING.OUTLIERS finding, evidence in the sizing view");
	}
	run_free(run);
	free(dir);

	/* noisy latencies: R² far below 0.7 */
	char *p = fixture("nat3/calc_runner_output.json",
		    "{\"calc_data\":{\"1\":{\"sizing_metrics\":{\"llm_latency_p95\":5,\"workflow_runtime_p95\":5}},"
		    "\"2\":{\"sizing_metrics\":{\"llm_latency_p95\":1,\"workflow_runtime_p95\":1}},"
		    "\"4\":{\"sizing_metrics\":{\"llm_latency_p95\":6,\"workflow_runtime_p95\":6}},"
		    "\"8\":{\"sizing_metrics\":{\"llm_latency_p95\":2,\"workflow_runtime_p95\":2}}}}");
	run = open_one(p, &o);
	if (run->sweep && run->sweep->nnat == 1) {
		const struct finding_list *fl = run_findings(run);
		size_t poor = 0;
		for (size_t i = 0; i < fl->n; i++)
			poor += strcmp(fl->v[i].id, "SIZING.POOR_FIT") == 0 && fl->v[i].severity == SEV_MED &&
				fl->v[i].ev.kind == EV_CONFIG;
		is_int(poor, 2, "SIZING.POOR_FIT for both fits (R² < 0.7)");
		ok(!run->sweep->nat[0].c_est_rt.ok, "no GPU estimate from a poor fit");
	} else
		ok(0, "noisy NAT file loads");
	run_free(run);
	free(p);

	doc = nat_doc("per_concurrency_data", false);
	p = fixture("nat2/calc_runner_output.json", doc);
	free(doc);
	run = open_one(p, &o);
	s = run->sweep;
	ok(s && s->nnat == 1 && s->nat[0].alias_layout, "per_concurrency_data alias accepted");
	if (s && s->nnat == 1) {
		struct table *t = view(run, "sizing");
		ok(t && strcmp(cell_text(t, 0, "differs"), "") == 0,
		   "no stored fit (no fit_results): differs is empty, not yes");
		ok(t && strcmp(cell_text(t, 1, "differs"), "no") == 0,
		   "stored GPU estimate still compared (runtime row: no)");
		table_free(t);
		ok(!has_finding(run, "SIZING.STORED_DIFFERS"), "no SIZING.STORED_DIFFERS without a stored fit");
	}
	run_free(run);
	free(p);
}

/* One online job's calc_runner_output.json: rows "conc runtime latency". */
static void nat_job(const char *rel, const char *const *rows, size_t n, time_t mtime)
{
	char *body = xstrdup("");
	for (size_t i = 0; i < n; i++) {
		double c, rt, lat;
		sscanf(rows[i], "%lf %lf %lf", &c, &rt, &lat);
		char *nb = xasprintf("%s%s\"%g\":{\"sizing_metrics\":{\"alerts\":{\"workflow_interrupted\":"
				     "false},\"llm_latency_p95\":%.17g,\"workflow_runtime_p95\":%.17g,"
				     "\"total_runtime\":30}}", body, i ? "," : "", c, lat, rt);
		free(body);
		body = nb;
	}
	char *doc = xasprintf("{\"gpu_estimates\":{\"gpu_estimate_by_wf_runtime\":null},\"calc_data\":{%s}}", body);
	char *path = fixture(rel, doc);
	struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };
	utimes(path, tv);
	free(path);
	free(doc);
	free(body);
}

/* Two online jobs (c 1-4 and c 8-32, plus an older c 8 that loses) merge into one
 * 6-point fit: the spec's 75.3516 GPUs; each job keeps its own fit. */
static void test_nat_merge(void)
{
	static const char *const lo[] = { "1 4.03488 1.14981", "2 4.71197 1.3591", "4 5.67581 1.50682",
					  "8 99 99" };
	static const char *const hi[] = { "8 7.90895 2.10668", "16 12.677 3.30196", "32 24.5307 6.57847" };
	nat_job("natm/online/job_1752000000/calc_runner_output.json", lo, ARRAY_LEN(lo), 1752000000);
	nat_job("natm/online/job_1752000100/calc_runner_output.json", hi, ARRAY_LEN(hi), 1752000100);
	char *dir = xasprintf("%s/natm", tmpdir);
	struct opts o = { .target_users = 100, .target_runtime = 10, .test_gpus = 8 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->nnat == 2, "two online jobs load as two files");
	if (s && s->nnat == 2) {
		sweep_derive(run);
		ok(s->nnat == 3 && s->nat[2].merged && s->nat[2].njobs == 2, "one merged entry");
		const struct nat_calc *m = &s->nat[2];
		is_int(m->npt, 6, "merge: 6 concurrencies (c 8 once)");
		is_dbl(m->npt == 6 ? m->pt[3].rt_p95 : 0, 7.90895, 0, "c 8 from the newest job wins");
		is_dbl(m->c_est_rt.gpus, 75.35159084873075, 1e-9, "merged fit: 75.3516 GPUs");
		is_dbl(m->c_fit_rt.slope, 0.6568376759061832, 1e-12, "merged runtime slope (spec)");
		ok(s->nat[0].merge_into == 2 && s->nat[1].merge_into == 2, "jobs point to their merge");
		ok(s->nat[0].c_fit_rt.ok && s->nat[0].c_fit_rt.nused == 4, "older job keeps its own 4-point fit");
		sweep_derive(run);
		s->derived = false;
		sweep_derive(run);
		ok(s->nnat == 3, "re-deriving keeps one merge");
		struct table *t = view(run, "sizing");
		size_t merged_rows = 0;
		for (size_t r = 0; t && r < t->nrow; r++)
			merged_rows += strcmp(cell_text(t, r, "source"), "nat merged") == 0;
		is_int(merged_rows, 2, "sizing view: merged latency and runtime rows next to the jobs'");
		ok(t && t->nrow == 6, "sizing view: 2 rows per job + 2 merged");
		table_free(t);
		const struct finding_list *fl = run_findings(run);
		size_t outl = 0;
		for (size_t i = 0; i < fl->n; i++)
			outl += strcmp(fl->v[i].id, "SIZING.OUTLIERS") == 0;
		is_int(outl, 1, "fit findings come from the merge only (one outlier finding)");
	}
	run_free(run);
	free(dir);

	/* an offline job (the calculator's own merge), newest: its points win everywhere */
	static const char *const all[] = { "1 4.03488 1.14981", "2 4.71197 1.3591", "4 5.67581 1.50682",
					   "8 7.90895 2.10668", "16 12.677 3.30196", "32 24.5307 6.57847" };
	nat_job("nato/online/job_1752000000/calc_runner_output.json", lo, ARRAY_LEN(lo), 1752000000);
	nat_job("nato/offline/job_1752000200/calc_runner_output.json", all, ARRAY_LEN(all), 1752000200);
	dir = xasprintf("%s/nato", tmpdir);
	run = open_one(dir, &o);
	s = run->sweep;
	if (s)
		sweep_derive(run);
	ok(s && s->nnat == 3 && s->nat[2].merged && s->nat[2].npt == 6, "online + offline job: one merge");
	if (s && s->nnat == 3) {
		size_t from_offline = 0;
		for (size_t i = 0; i < s->nat[2].npt; i++)
			from_offline += strcmp(s->nat[s->nat[2].pt[i].job].mode, "offline") == 0;
		is_int(from_offline, 6, "the newer offline file wins every concurrency");
		is_dbl(s->nat[2].c_est_rt.gpus, 75.35159084873075, 1e-9, "merge: 75.3516 GPUs");
	}
	run_free(run);
	free(dir);
}

/* ---------------------------------------------------------------------------------
 * Cerebras */

static void test_cerebras(void)
{
	char *p = fixture_copy("cb1/performance/performance.json", "cerebras_ordinals.json");
	char *dir = xasprintf("%s/cb1", tmpdir);
	struct opts o = { 0 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncb == 1 && s->cb[0].nord == 2, "Cerebras per-ordinal shape (found under performance/)");
	if (s && s->ncb == 1) {
		sweep_derive(run);
		is_dbl(s->cb[0].c_sps, 200, 1e-12, "merge rule: Σ samples / first non-zero time");
		ok(!s->cb[0].mismatch, "consistent aggregate");
		is_int(s->cb[0].slowest, 1, "ordinal 1 (50 vs 100 samples/s) is the slow one");
		is_dbl(s->cb[0].ord[1].rel_rate, 0.5, 1e-12, "its rate is half its sibling's");
		ok(!s->cb[0].ord[0].slow && s->cb[0].ord[0].has_rel, "ordinal 0 compared, not slow");
		is_dbl(s->cb[0].c_wall_time, 20, 0, "longest ordinal time");
		ok(has_finding(run, "CEREBRAS.SLOW_ORDINAL"), "CEREBRAS.SLOW_ORDINAL despite a consistent aggregate");
		struct table *t = view(run, "cerebras");
		ok(t && t->nrow == 4, "cerebras view: stored, recomputed, 2 ordinals");
		table_free(t);
	}
	run_free(run);
	free(dir);
	free(p);

	p = fixture_copy("cb2/performance.json", "cerebras_sum_of_rates.json");
	run = open_one(p, &o);
	s = run->sweep;
	if (s && s->ncb == 1) {
		sweep_derive(run);
		ok(s->cb[0].mismatch, "sum-of-rates aggregate flagged as a mismatch");
		ok(has_finding(run, "CEREBRAS.AGGREGATE_MISMATCH"), "CEREBRAS.AGGREGATE_MISMATCH finding");
	} else
		ok(0, "second Cerebras file loads");
	run_free(run);
	free(p);

	p = fixture_copy("cb3/performance.json", "cerebras_trainer.json");
	run = open_one(p, &o);
	s = run->sweep;
	ok(s && s->ncb == 1 && s->cb[0].trainer_shape && s->cb[0].has_flops && s->cb[0].nord == 0,
	   "Cerebras trainer shape (rate keys, no ordinals)");
	run_free(run);
	free(p);
}

/* ---------------------------------------------------------------------------------
 * Bad files */

static void test_bad_files(void)
{
	static const struct { const char *rel, *text, *diag; } bad[] = {
		{ "bad1/a_genai_perf.json", "{\"request_latency\": [1,2], \"request_count\": \"x\"}", "not an object" },
		{ "bad2/a_genai_perf.json", "{\"request_latency\": {\"avg\": 1", "truncated" },
		{ "bad3/a_genai_perf.csv", "", "no metric rows" },
		{ "bad4/profile_export.json", "{\"experiments\": 5}", "no experiments" },
		{ "bad5/profile_export.json", "{\"experiments\":[{\"requests\":[]}]}", "no request with a response" },
		{ "bad6/calc_runner_output.json", "{\"calc_data\": {}}", "empty sizing sweep" },
		{ "bad7/calc_runner_output.json", "[1,2,3]", "not a JSON object" },
		{ "bad8/performance.json", "{\"samples_per_sec\": \"fast\", \"ordinals\": 3}", "ordinals is not an array" },
		{ "bad9/checkpoint.json", "{\"Results\": {\"run_configs\": [1, {\"name\": \"x\"}]}}", "no perf metrics" },
		{ "bad10/a_genai_perf.csv", "Metric,avg\n\"Request Latency (ms),1\n", "CSV parse error" },
		{ "bad11/a_genai_perf.json", "\x01\x02garbage\xff", "invalid" },
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char *p = fixture(bad[i].rel, bad[i].text);
		struct opts o = { .target_users = 10, .target_latency = 1, .test_gpus = 1 };
		struct run *run = open_one(p, &o);
		for (size_t v = 0; v < SWEEP_NVIEWS; v++) {
			char err[128];
			struct table *t = sweep_views[v].build(run, err, sizeof(err));
			table_free(t);
		}
		run_findings(run);
		ok(tu_has_diag(run, bad[i].diag, NULL), "%s: diagnostic '%s', no crash", bad[i].rel, bad[i].diag);
		run_free(run);
		free(p);
	}
	char *p = fixture("empty/readme.txt", "nothing here");
	char *dir = xasprintf("%s/empty", tmpdir);
	struct opts o = { 0 };
	struct run *run = open_one(dir, &o);
	ok(run->sweep == NULL, "a directory without sweep files loads no sweep");
	char err[128] = "";
	ok(registry_view("sweep")->build(run, err, sizeof(err)) == NULL && *err, "sweep view says why it is empty");
	run_free(run);
	free(dir);
	free(p);
}

/* Objectives and constraints over GPU telemetry: the mean over a config's GPUs,
 * lower-is-better power, higher-is-better utilization; unknown telemetry is dropped
 * with a diagnostic and a stderr line; the pure syntax checkers src/cli.c uses. */
static void test_telemetry_rank(void)
{
	/* config c1: power 100/300 W (mean 200), util 90; c2: power 150/150 (mean 150), util 40 */
	static const char *const tel[] = {
		"\"gpu_power_usage\":{\"unit\":\"W\",\"gpu0\":{\"avg\":100,\"p99\":110},"
		"\"gpu1\":{\"avg\":300,\"p99\":320}},\"gpu_utilization\":{\"unit\":\"%\","
		"\"gpu0\":{\"avg\":90},\"gpu1\":{\"avg\":90}}",
		"\"gpu_power_usage\":{\"unit\":\"W\",\"gpu0\":{\"avg\":150,\"p99\":160},"
		"\"gpu1\":{\"avg\":150,\"p99\":160}},\"gpu_utilization\":{\"unit\":\"%\","
		"\"gpu0\":{\"avg\":40},\"gpu1\":{\"avg\":40}}",
	};
	for (int i = 0; i < 2; i++) {
		char rel[128], doc[1024];
		snprintf(rel, sizeof(rel), "tel/m-openai-chat-concurrency%d/p_genai_perf.json", i + 1);
		snprintf(doc, sizeof(doc),
			 "{\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":10,\"p99\":20},"
			 "\"telemetry_stats\":{%s},\"input_config\":{\"perf_analyzer\":"
			 "{\"stimulus\":{\"concurrency\":%d}}}}", tel[i], i + 1);
		free(fixture(rel, doc));
	}
	char *dir = xasprintf("%s/tel", tmpdir);
	const char *cons[] = { "gpu_power_usage<180", "gpu_memory_used_p99<10" };
	struct opts o = { .objective = "gpu_power_usage_avg:1,bogus_metric:2", .constraints = cons,
			  .nconstraints = 2 };
	struct run *run = open_one(dir, &o);
	struct sweep_set *s = run->sweep;
	ok(s && s->ncfg == 2 && s->ngpu == 8, "two configs with 2 GPUs x 2 telemetry metrics");
	if (s && s->ncfg == 2 && s->ngpu == 8) {
		const char *e = sweep_ref_errors(run);
		ok(e && strstr(e, "--objective: unknown metric 'bogus_metric_avg'") &&
		   strstr(e, "--constraint: unknown metric 'gpu_memory_used_p99'") &&
		   strstr(e, "gpu_power_usage, gpu_utilization"),
		   "unknown telemetry terms reported for stderr, naming what the run has");
		ok(tu_has_diag(run, "bogus_metric_avg", NULL) && tu_has_diag(run, "gpu_memory_used_p99", NULL),
		   "and as diagnostics");
		ok(s->nobj == 1 && s->ncon == 1, "unknown terms dropped, known ones kept");
		size_t c1 = strstr(s->cfg[0].name, "concurrency1") ? 0 : 1, c2 = 1 - c1;
		ok(!s->cfg[c1].pass && s->cfg[c2].pass, "gpu_power_usage<180: mean 200 W fails, 150 W passes");
		ok(s->cfg[c1].failed && strstr(s->cfg[c1].failed, "gpu_power_usage_avg<180 (200)"),
		   "failure text shows the mean over GPUs");
		ok(s->cfg[c2].rank == 1 && s->cfg[c2].score > 0, "lower power ranks first");
		/* gain of c2 over c1 = -(150-200)/175*100 */
		is_dbl(s->cfg[c2].score, 50.0 / 175 * 100, 1e-9, "power score is the mean gain");
		char err[256];
		sweep_clear_constraints(run);
		ok(sweep_set_objective(run, "gpu_utilization:1", err, sizeof(err)) == 0,
		   ":objective with telemetry");
		ok(s->cfg[c1].rank == 1, "higher utilization ranks first");
		ok(sweep_add_constraint(run, "gpu_power_usage_p99<=160", err, sizeof(err)) == 0 &&
		   !s->cfg[c1].pass && s->cfg[c2].pass, ":constraint on telemetry p99 (mean 215 vs 160)");
		ok(sweep_set_objective(run, "gpu_temperature:1", err, sizeof(err)) < 0 &&
		   strstr(err, "gpu_temperature_avg"), "unknown telemetry in the UI is an error");
		ok(s->nobj == 1, "a refused objective keeps the current one");
	}
	run_free(run);
	free(dir);

	char err[256];
	ok(sweep_objective_syntax("ttft_p99:1,itl_p90:3,gpu_power_usage:2", err, sizeof(err)) == 0,
	   "syntax: request and telemetry objectives");
	ok(sweep_objective_syntax("", err, sizeof(err)) == 0, "syntax: empty objective clears");
	ok(sweep_objective_syntax("ttft_p999:1", err, sizeof(err)) < 0 && strstr(err, "ttft_p999"),
	   "syntax: bad stat on a request metric names the term");
	ok(sweep_objective_syntax("rps_p99", err, sizeof(err)) < 0, "syntax: system metric takes only avg");
	ok(sweep_objective_syntax("ttft_p99:0", err, sizeof(err)) < 0 && strstr(err, "ttft_p99:0"),
	   "syntax: zero weight");
	ok(sweep_objective_syntax("ttft_p99,,itl_p90", err, sizeof(err)) < 0, "syntax: empty term");
	ok(sweep_objective_syntax("ttft_p99:1,", err, sizeof(err)) < 0, "syntax: trailing comma");
	ok(sweep_objective_syntax("ttft-p99", err, sizeof(err)) < 0 && strstr(err, "ttft-p99"),
	   "syntax: not an identifier");
	ok(sweep_constraint_syntax("gpu_utilization_p50 >= 0.5", err, sizeof(err)) == 0,
	   "syntax: telemetry constraint with spaces");
	ok(sweep_constraint_syntax("ttft_p99=10", err, sizeof(err)) < 0 && strstr(err, "ttft_p99=10"),
	   "syntax: missing operator names the term");
	ok(sweep_constraint_syntax("ttft_p99<1x", err, sizeof(err)) < 0 && strstr(err, "1x"),
	   "syntax: bad number");
	ok(sweep_constraint_syntax("<3", err, sizeof(err)) < 0, "syntax: missing metric");
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "sweep")) {
		perror("mkdtemp");
		return 1;
	}
	test_real_medium();
	test_real_csv_vs_raw();
	test_streaming();
	test_export_csv();
	test_nonstreaming();
	test_stimulus_names();
	test_stimulus();
	test_analyze_checkpoint();
	test_telemetry_rank();
	test_nat();
	test_nat_merge();
	test_cerebras();
	test_bad_files();
	if (tu_rm_rf(tmpdir) != 0)
		fprintf(stderr, "cleanup failed\n");
	return tap_done();
}
