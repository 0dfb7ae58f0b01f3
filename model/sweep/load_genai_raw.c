/* SPDX-License-Identifier: MIT */
/* load_genai_raw.c: GenAI-Perf's raw profile export (perf_analyzer's
 * profile_export.json, formats.md §3.2-3.3) recomputed into a config's `calc` stats:
 * responses preprocessed as llm_profile_data_parser does (splintered SSE chunks
 * merged, responses without generated text dropped), then request latency, TTFT,
 * TTST, ITL, per-user token rate, request count and throughput with numpy-linear
 * percentiles, cross-checked against the exported values (a metric that disagrees is
 * taken as recomputed: sweep_cfg.differs). A request with a response
 * before it (or before the response ahead), or whose first response comes more than a
 * day after it (a timestamp of 0, or of another clock), is warned about and gives no
 * times (it still counts as sent). A file
 * holding several experiments (a --concurrency-range run) gives a config per experiment,
 * each numbered (experiment) for load_genai.c to name by its level, and each takes the
 * model its requests' payload names, so experiments of other models stay apart. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/json.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/sweep/genai.h"
#include "model/sweep/io.h"
#include "model/text.h"
#include "model/xalloc.h"

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
		if (!json_int(d, t, &ts))
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
			st->v[m][qs[i]] = stats_percentile_sorted(s, k, q[i]);
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
	/* one response per request everywhere: nothing was streamed */
	if (!c->has_streaming && q->nttst == 0) {
		c->streaming = false;
		c->has_streaming = true;
	}
}

/* How far recomputed value (m, k) of c may be from the stored one: float noise, plus the
 * CSV's rounding when the stored value came from the CSV, plus for the output token
 * throughput that of the CSV's output sequence length it was recomputed from (finish_experiment:
 * osl x requests / duration, so the rounding scales by requests / duration). */
static double crosscheck_tol(const struct sweep_cfg *c, enum sweep_metric m, int k)
{
	double a = c->stored.v[m][k], tol = 1e-9 * fmax(1.0, fabs(a));
	if (c->stored_csv[m][k])
		tol += GENAI_CSV_ROUNDING;
	double osl = c->stored.v[SM_OSL][SS_AVG];
	if (m == SM_TPS && k == SS_AVG && c->stored_csv[SM_OSL][SS_AVG] && osl > 0)
		tol += GENAI_CSV_ROUNDING * c->calc.v[m][k] / osl;
	return tol;
}

/* Compare recomputed against exported values where the export does not depend on a
 * tokenizer we cannot run. A metric with a value that disagrees is marked (differs): its
 * recomputed values, from the requests in front of us, are the ones used (sweep_value); the
 * warning keeps the stored one. */
static void calc_crosscheck(struct sweep_cfg *c, struct run *run, const char *path)
{
	static const enum sweep_metric ms[] = { SM_LATENCY, SM_TTFT, SM_TTST, SM_RPS, SM_COUNT, SM_TPS };
	for (size_t i = 0; i < ARRAY_LEN(ms); i++)
		for (int k = 0; k < SS_N; k++) {
			enum sweep_metric m = ms[i];
			if (!c->stored.has[m][k] || !c->calc.has[m][k])
				continue;
			double a = c->stored.v[m][k], b = c->calc.v[m][k];
			if (fabs(a - b) > crosscheck_tol(c, m, k)) {
				const char *name = sweep_metric_info(m)->name;
				diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
					 "recomputed %s %s is %.6g but the export says %.6g; the recomputed %s is used",
					 name, sweep_stat_name(k), b, a, name);
				c->differs[m] = true;
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
		genai_set_stim(c, ST_CONCURRENCY, d, val);
	else if (json_eq(d, mode, "request_rate"))
		genai_set_stim(c, ST_REQUEST_RATE, d, val);
}

/* The first response of rs that comes before its request (t0) or before the response
 * ahead of it, -1 when they are in order; *ms: by how much. */
static long early_response(long long t0, const struct resp_scan *rs, double *ms)
{
	for (size_t i = 0; i < rs->n; i++) {
		long long prev = i ? rs->ts[i - 1] : t0;
		if (rs->ts[i] < prev) {
			*ms = (double)(prev - rs->ts[i]) / 1e6;
			return (long)i;
		}
	}
	return -1;
}

/* No request waits this long (s) for its first response: a request timestamp that far
 * before it is none (0) or of another clock. */
static const double raw_max_wait_s = 86400;

/* Why the times of a request sent at t0 cannot be used, into why (false when they can): a
 * response before the request or the response ahead of it, or a first response more than
 * raw_max_wait_s after it. */
static bool unusable_times(long long t0, const struct resp_scan *rs, char *why, size_t n)
{
	double ms;
	long early = early_response(t0, rs, &ms);
	if (early >= 0) {
		char before[32] = "its request";
		if (early)
			snprintf(before, sizeof(before), "response %ld", early);
		snprintf(why, n, "response %ld comes %.6g ms before %s", early + 1, ms, before);
		return true;
	}
	double wait = rs->n ? ((double)rs->ts[0] - (double)t0) / 1e9 : 0;
	if (wait <= raw_max_wait_s)
		return false;
	snprintf(why, n, "request timestamp %lld comes %.6g s before its first response (over a day: not a "
		 "time of this run)", t0, wait);
	return true;
}

/* Request r's times into q, unless they cannot be used (unusable_times): then it counts as
 * sent (the throughput's count) but, warned about with its offset, gives no latency. False
 * then. */
static bool take_request(struct run *run, const char *path, const struct json_doc *d, int r, long long t0,
			 struct resp_scan *rs, struct req_metrics *q)
{
	char why[160];
	bool unusable = unusable_times(t0, rs, why, sizeof(why));
	if (unusable) {
		diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[r].start, -1, "%s; the request's times are ignored",
			 why);
		rs->n = 0;
	}
	add_request(q, t0, rs);
	return !unusable;
}

/* The experiment of exps at the level file config c records (its summary export's
 * concurrency or request rate), else the first: it is the one c's stored values describe. */
static int home_experiment(const struct json_doc *d, int exps, const struct sweep_cfg *c)
{
	int first = -1;
	for (int ex = json_first(d, exps); ex >= 0; ex = json_next(d, exps, ex)) {
		if (!json_is_object(d, ex))
			continue;
		struct sweep_cfg lv = { 0 };
		read_experiment_mode(d, ex, &lv);
		for (int k = ST_CONCURRENCY; k <= ST_REQUEST_RATE; k++)
			if (lv.has_stim[k] && c->has_stim[k] && lv.stim[k] == c->stim[k])
				return ex;
		first = first < 0 ? ex : first;
	}
	return first;
}

/* The model the first request's OpenAI payload names ("model"), sanitized; NULL when it
 * names none (Triton inputs). */
static char *payload_model(const struct json_doc *d, int reqs, struct json_doc *tmp)
{
	int r = reqs >= 0 && json_is_array(d, reqs) ? json_first(d, reqs) : -1;
	int in = r >= 0 && json_is_object(d, r) ? json_get(d, r, "request_inputs") : -1;
	int pl = in >= 0 && json_is_object(d, in) ? json_get(d, in, "payload") : -1;
	if (pl < 0 || !json_is_string(d, pl))
		return NULL;
	char *body = json_strdup(d, pl), *model = NULL;
	if (json_parse(tmp, body, strlen(body)) > 0 && json_is_object(tmp, 0)) {
		int m = json_get(tmp, 0, "model");
		if (nonempty_string(tmp, m)) {
			char *raw = json_strdup(tmp, m);
			model = text_sanitize_dup(raw, 0);
			free(raw);
		}
	}
	free(body);
	return model;
}

/* A config for another experiment of file config ci's raw export: the same path and
 * workload keys (one perf_analyzer run against one endpoint), but the model, which
 * genai_load_raw takes from the experiment's payload when it names one. */
static size_t experiment_cfg(struct sweep_set *s, size_t ci)
{
	struct sweep_cfg *n = sweep_add_cfg(s, s->cfg[ci].name, s->cfg[ci].path, "artifacts");
	for (int k = 0; k < WL_N; k++)
		if (k != WL_MODEL && s->cfg[ci].wl[k])
			n->wl[k] = xstrdup(s->cfg[ci].wl[k]);
	return (size_t)(n - s->cfg);
}

/* The model of config target: model (what its experiment's payload names; taken), else file
 * config ci's. */
static void experiment_model(struct sweep_set *s, size_t ci, size_t target, char *model)
{
	struct sweep_cfg *c = &s->cfg[target];
	if (!c->wl[WL_MODEL] && model)
		c->wl[WL_MODEL] = model;
	else
		free(model);
	if (!c->wl[WL_MODEL] && s->cfg[ci].wl[WL_MODEL])
		c->wl[WL_MODEL] = xstrdup(s->cfg[ci].wl[WL_MODEL]);
}

void genai_load_raw(struct run *run, struct sweep_set *s, size_t ci, const char *path, struct json_doc *d,
		    size_t src, struct genai_progress *pg)
{
	struct json_doc tmp;
	json_doc_init(&tmp);
	int exps = json_get(d, 0, "experiments");
	size_t recs = 0, bad = 0, nexp = 0;
	struct resp_scan rs = { 0 };
	if (exps < 0 || !json_is_array(d, exps))
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no experiments array");
	int home = exps >= 0 && json_is_array(d, exps) ? home_experiment(d, exps, &s->cfg[ci]) : -1;
	for (int ex = exps >= 0 ? json_first(d, exps) : -1; ex >= 0; ex = json_next(d, exps, ex)) {
		if (!json_is_object(d, ex)) {
			bad++;
			continue;
		}
		size_t target = ex == home ? ci : experiment_cfg(s, ci); /* more experiments: one config each */
		struct sweep_cfg *c = &s->cfg[target];
		c->experiment = ++nexp;
		read_experiment_mode(d, ex, c);
		struct req_metrics q = { 0 };
		int reqs = json_get(d, ex, "requests");
		experiment_model(s, ci, target, payload_model(d, reqs, &tmp));
		for (int r = reqs >= 0 && json_is_array(d, reqs) ? json_first(d, reqs) : -1;
		     r >= 0 && !load_cancelled(pg->ctx); r = json_next(d, reqs, r)) {
			genai_progress_to(pg, d->tok[r].end);
			long long t0;
			if (!json_is_object(d, r) || !json_int(d, json_get(d, r, "timestamp"), &t0)) {
				diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[r].start, -1,
					 "request without an integer timestamp skipped");
				bad++;
				continue;
			}
			scan_responses(d, r, &rs, &tmp);
			if (take_request(run, path, d, r, t0, &rs, &q))
				recs++;
			else
				bad++;
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
	if (nexp == 1)
		s->cfg[ci].experiment = 0; /* one experiment: the file's config, named as it is */
	free(rs.ts);
	free(rs.txt);
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(d);
	json_doc_free(&tmp);
}
