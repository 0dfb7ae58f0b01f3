/* SPDX-License-Identifier: MIT */
/* load_cerebras.c: Cerebras Model Zoo performance.json (formats.md §5) in both shapes:
 * R1.6-R2.0 perf_utils (aggregate + per-ordinal "ordinals") and the R2.x trainer
 * (global_rate / rate / flops_utilization). cb_recompute() re-applies the documented
 * merge rule to the ordinals and flags a stored aggregate that disagrees; it rates each
 * ordinal against its siblings (cb_unrated_why: why one has no rate). The Model Zoo's 0
 * for what it could not measure is read as missing, with a note (formats.md §5.1: a
 * total_time of 0 and a rate of 0 beside it, est_samples_per_sec 0 when the counter is
 * absent). A performance.json in its own place (performance/) is claimed whatever it
 * holds or is (a FIFO, a dangling link), one given by path even when empty, unreadable or
 * not starting as JSON, so that the load names it (truncated, invalid, not Cerebras, not a
 * regular file); any file under --format cerebras. A key given twice in the aggregate or
 * in an ordinal is warned about (the first of each), the last used (json_get). */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/json.h"
#include "model/stats.h"
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/sweep/io.h"
#include "model/text.h"
#include "model/xalloc.h"

#define CB_FILE "performance.json"

static bool is_cb_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return strcmp(b ? b + 1 : path, CB_FILE) == 0;
}

/* path is performance/performance.json, the Model Zoo's own place for it. */
static bool in_own_place(const char *path)
{
	static const char own[] = "performance/" CB_FILE;
	size_t n = strlen(path), k = strlen(own);
	return n >= k && strcmp(path + n - k, own) == 0 && (n == k || path[n - k - 1] == '/');
}

/* Whether path names a regular file, or with any, any entry but a directory (one that
 * cannot be read too: a FIFO, a device, a dangling link, which the load names with why). */
static bool file_entry(const char *path, bool any)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return S_ISREG(st.st_mode) || (any && !S_ISDIR(st.st_mode));
	return any && lstat(path, &st) == 0;
}

/* performance.json directly in dir (a regular file) or in dir/performance/ (*own: there,
 * the Model Zoo's own place for it, whatever it is but a directory). */
static char *cb_in_dir(const char *dir, bool *own)
{
	static const char *const rel[] = { CB_FILE, "performance/" CB_FILE };
	for (size_t i = 0; i < ARRAY_LEN(rel); i++) {
		char *p = xasprintf("%s/%s", dir, rel[i]);
		if (file_entry(p, i == 1)) {
			*own = i == 1;
			return p;
		}
		free(p);
	}
	return NULL;
}

/* The first bytes of path hold a Cerebras key; *broken: they hold no JSON object (the file
 * is empty, unreadable, or starts with something else than '{' after blanks and a BOM). */
static bool looks_like_cb(const char *path, bool *broken)
{
	char buf[2049];
	size_t n = sweep_sniff(path, buf, 2048);
	buf[n] = '\0';
	size_t i = text_utf8_bom(buf, n) ? 3 : 0;
	while (i < n && isspace((unsigned char)buf[i]))
		i++;
	*broken = i == n || buf[i] != '{';
	return strstr(buf, "\"samples_per_sec\"") || strstr(buf, "\"global_rate\"") ||
	       strstr(buf, "\"total_samples\"");
}

/* score when path is a Cerebras file, else 0: in the Model Zoo's own place (own), whatever
 * it holds (a truncated file's first bytes may hold no key yet); its keys in its first
 * bytes; or, given by path under the Model Zoo's name (named), nothing another tool's JSON
 * object could be (empty, unreadable, not JSON); so the load names the file and why; or
 * anything under --format cerebras (asked). */
static int cb_claim(const char *path, bool own, bool named, bool asked, int score)
{
	bool broken;
	return own || asked || looks_like_cb(path, &broken) || (named && broken) ? score : 0;
}

void sweep_cb_dir_files(const char *dir, char ***files, size_t *n)
{
	bool own;
	char *p = cb_in_dir(dir, &own);
	*files = p ? xmalloc(sizeof(**files)) : NULL;
	*n = p != NULL;
	if (p)
		**files = p;
}

int sweep_cb_probe(const char *path, const struct opts *opts)
{
	bool asked = opts && opts->format && strcmp(opts->format, "cerebras") == 0;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return cb_claim(path, in_own_place(path), is_cb_name(path), asked, 90);
	if (!S_ISDIR(st.st_mode))
		return 0;
	bool own = false;
	char *p = cb_in_dir(path, &own);
	int r = p ? cb_claim(p, own, own, asked, 80) : 0;
	free(p);
	return r;
}

/* One performance.json being read: bad counts the records (the aggregate, an ordinal) with a value
 * that is there but unusable, or that give nothing, each once (one_skip). */
struct cb_read {
	struct run *run;
	const char *path;
	const struct json_doc *d;
	size_t bad;
	long ordinal;   /* the ordinal being read, -1 for the aggregate */
	bool zero_agg;          /* the aggregate's total_time is 0 (read_zeros) */
	size_t zero_ord;        /* ordinals whose total_time is 0 */
	long long zero_at;      /* offset of the first such total_time */
};

/* Warn that the value at token t of key is unusable and why (sweep_bad_json, the field
 * "ordinal N KEY" within an ordinal), count it in rd->bad and note why in *bad_value (may
 * be NULL). */
static void bad_value_at(struct cb_read *rd, int t, const char *key, enum sweep_bad why, const char **bad_value)
{
	char field[96];
	if (rd->ordinal >= 0)
		snprintf(field, sizeof(field), "ordinal %ld %s", rd->ordinal, key);
	else
		snprintf(field, sizeof(field), "%s", key);
	sweep_bad_json(rd->run, rd->path, rd->d, t, field, why, &rd->bad);
	if (bad_value)
		*bad_value = sweep_bad_text(why);
}

/* Value of key in obj: false when absent or null, and when not a finite number (NaN,
 * Infinity, 1e400, a string), which is also warned about (bad_value_at). */
static bool num(struct cb_read *rd, int obj, const char *key, double *out, const char **bad_value)
{
	int t = json_get(rd->d, obj, key);
	if (t < 0 || json_is_null(rd->d, t))
		return false;
	if (json_number(rd->d, t, out) && isfinite(*out))
		return true;
	bad_value_at(rd, t, key, SWEEP_BAD_NOT_FINITE, bad_value);
	return false;
}

/* num() of a time, rate or count that cannot be negative: a negative one is warned about too. */
static bool nonneg(struct cb_read *rd, int obj, const char *key, double *out, const char **bad_value)
{
	if (!num(rd, obj, key, out, bad_value))
		return false;
	if (*out >= 0)
		return true;
	bad_value_at(rd, json_get(rd->d, obj, key), key, SWEEP_BAD_NEGATIVE, bad_value);
	return false;
}

/* A sample count: a non-negative integer below 9e15; 2000.5, 1e20 and -5 are warned about. */
static bool count(struct cb_read *rd, int obj, const char *key, long long *out, const char **bad_value)
{
	double v;
	if (!nonneg(rd, obj, key, &v, bad_value))
		return false;
	if (v == floor(v) && v < 9e15) {
		long long i;
		*out = json_int(rd->d, json_get(rd->d, obj, key), &i) ? i : (long long)v;
		return true;
	}
	bad_value_at(rd, json_get(rd->d, obj, key), key, v < 9e15 ? SWEEP_BAD_NOT_INTEGER : SWEEP_BAD_TOO_LARGE,
		     bad_value);
	return false;
}

/* A rate of obj read as missing (read_zeros): where it is and whether it is there. */
struct cb_rate {
	const double *v;
	bool *has;
};

/* formats.md §5.1: perf_utils writes a total_time of 0 for a rate of 0 and a rate of 0 for a
 * total_time of 0: neither was measured. obj's total_time of 0 (*has_time) and the rates of 0
 * beside it are read as missing, flagged in *zero_time and *zero_rate, and counted in rd for
 * the load's note (zero_note). */
static void read_zeros(struct cb_read *rd, int obj, double time, bool *has_time, const struct cb_rate *rates,
		       size_t n, bool *zero_time, bool *zero_rate)
{
	if (!*has_time || time != 0)
		return;
	*has_time = false;
	*zero_time = true;
	for (size_t i = 0; i < n; i++)
		if (*rates[i].has && *rates[i].v == 0) {
			*rates[i].has = false;
			*zero_rate = true;
		}
	if (!rd->zero_agg && !rd->zero_ord)
		rd->zero_at = rd->d->tok[json_get(rd->d, obj, "total_time")].start;
	if (rd->ordinal < 0)
		rd->zero_agg = true;
	else
		rd->zero_ord++;
}

/* The note of what read_zeros read as missing: "total_time 0 in the aggregate and 2 ordinals
 * read as not measured, ...". */
static void zero_note(const struct cb_read *rd)
{
	if (!rd->zero_agg && !rd->zero_ord)
		return;
	char ords[48] = "";
	if (rd->zero_ord)
		snprintf(ords, sizeof(ords), "%s%zu ordinal%s", rd->zero_agg ? " and " : "", rd->zero_ord,
			 rd->zero_ord == 1 ? "" : "s");
	diag_add(&rd->run->diags, DIAG_INFO, rd->path, -1, rd->zero_at, -1,
		 "total_time 0 in %s%s read as not measured, as is a rate of 0 beside it: the Model Zoo writes 0 "
		 "for a time or rate it could not compute", rd->zero_agg ? "the aggregate" : "", ords);
}

/* One record (the aggregate, an ordinal) is skipped once, however many of its values were unusable
 * (rd->bad counted each since bad) or, with none, when it gives nothing (empty). */
static void one_skip(struct cb_read *rd, size_t bad, bool empty)
{
	rd->bad = bad + (rd->bad > bad || empty);
}

static void read_aggregate(struct cb_read *rd, struct cb_perf *p)
{
	size_t bad = rd->bad;
	p->has_sps = nonneg(rd, 0, "samples_per_sec", &p->samples_per_sec, &p->bad_sps);
	p->has_time = nonneg(rd, 0, "total_time", &p->total_time, NULL);
	p->has_samples = count(rd, 0, "total_samples", &p->total_samples, NULL);
	p->has_compile = nonneg(rd, 0, "compile_time", &p->compile_time, NULL);
	p->has_prog = nonneg(rd, 0, "programming_time", &p->programming_time, NULL);
	p->has_est = nonneg(rd, 0, "est_samples_per_sec", &p->est_sps, NULL);
	p->has_global = nonneg(rd, 0, "global_rate", &p->global_rate, &p->bad_global);
	p->has_rate = nonneg(rd, 0, "rate", &p->rate, NULL);
	p->has_flops = nonneg(rd, 0, "flops_utilization", &p->flops_util, NULL);
	p->trainer_shape = p->has_global || p->has_rate || p->has_flops;
	p->has_est = p->has_est && p->est_sps != 0; /* a counter, 0 if absent (formats.md §5.1) */
	const struct cb_rate rates[] = { { &p->samples_per_sec, &p->has_sps }, { &p->global_rate, &p->has_global },
					 { &p->rate, &p->has_rate } };
	read_zeros(rd, 0, p->total_time, &p->has_time, rates, ARRAY_LEN(rates), &p->zero_time, &p->zero_rate);
	one_skip(rd, bad, false);
}

static size_t read_ordinals(struct cb_read *rd, struct cb_perf *p)
{
	const struct json_doc *d = rd->d;
	int o = json_get(d, 0, "ordinals");
	if (o < 0)
		return 0;
	if (!json_is_array(d, o)) {
		diag_add(&rd->run->diags, DIAG_WARN, rd->path, -1, d->tok[o].start, -1,
			 "ordinals is not an array");
		rd->bad++;
		return 0;
	}
	bool dup = false;   /* a key given twice in an ordinal: the first such ordinal warned about */
	for (int k = json_first(d, o); k >= 0; k = json_next(d, o, k)) {
		struct cb_ordinal r = { .not_object = !json_is_object(d, k) };
		rd->ordinal = (long)p->nord;
		size_t bad = rd->bad;
		if (!r.not_object) {
			char where[40];
			snprintf(where, sizeof(where), " in ordinal %zu", p->nord);
			dup = dup || sweep_json_dup_warn(rd->run, rd->path, d, k, where);
			r.has_rate = nonneg(rd, k, "samples_per_sec", &r.samples_per_sec, &r.bad_rate);
			r.has_time = nonneg(rd, k, "total_time", &r.total_time, &r.bad_time);
			r.has_samples = count(rd, k, "total_samples", &r.total_samples, &r.bad_samples);
			const struct cb_rate rate = { &r.samples_per_sec, &r.has_rate };
			read_zeros(rd, k, r.total_time, &r.has_time, &rate, 1, &r.zero_time, &r.zero_rate);
		}
		bool empty = r.not_object || (!r.has_rate && !r.has_time && !r.has_samples && !r.zero_time);
		if (empty && rd->bad == bad) /* an unusable value was warned about in its own words */
			diag_add(&rd->run->diags, DIAG_WARN, rd->path, -1, d->tok[k].start, -1, "ordinal %zu %s",
				 p->nord, r.not_object ? "is not an object"
						       : "has no samples_per_sec/total_samples/total_time");
		one_skip(rd, bad, empty);
		p->ord = xrealloc(p->ord, (p->nord + 1) * sizeof(*p->ord));
		p->ord[p->nord++] = r;
	}
	return p->nord;
}

static int load_file(struct run *run, struct sweep_set *s, const char *path)
{
	struct json_doc d;
	size_t src;
	if (sweep_json_open(run, path, "cerebras", &d, &src) < 0)
		return -1;
	struct cb_perf p = { .path = xstrdup(path) };
	struct cb_read rd = { .run = run, .path = path, .d = &d, .ordinal = -1 };
	read_aggregate(&rd, &p);
	size_t recs = read_ordinals(&rd, &p);
	zero_note(&rd);
	bool any = p.has_sps || p.has_time || p.zero_time || p.has_samples || p.has_global || p.nord;
	sweep_json_close(&d);
	run_source_done(run, src, recs + (any ? 1 : 0), rd.bad, 0, false);
	if (!any) {
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1,
			 "no samples_per_sec, total_samples, global_rate or ordinals: not a "
			 "Cerebras performance.json");
		free(p.ord);
		free(p.path);
		return -1;
	}
	s->cb = xrealloc(s->cb, (s->ncb + 1) * sizeof(*s->cb));
	s->cb[s->ncb++] = p;
	s->derived = false;
	return 0;
}

int sweep_cb_load(struct load_ctx *ctx, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	bool own;
	char *file = S_ISDIR(st.st_mode) ? cb_in_dir(path, &own) : xstrdup(path);
	if (!file)
		return -1;
	int rc = load_file(ctx->run, sweep_get(ctx->run), file);
	free(file);
	return rc;
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

bool cb_has_aggregate(const struct cb_perf *p)
{
	return p->has_sps || p->has_samples || p->has_time || p->zero_time;
}

static bool ordinal_rate(const struct cb_ordinal *o, double *rate)
{
	if (o->has_rate && o->samples_per_sec > 0)
		*rate = o->samples_per_sec;
	else if (o->has_samples && o->has_time && o->total_time > 0)
		*rate = (double)o->total_samples / o->total_time;
	else
		return false;
	return true;
}

/* Each ordinal's rate against the median rate of the others; the slowest slow one. */
static void compare_ordinals(struct cb_perf *p)
{
	double *rate = xcalloc(p->nord, sizeof(*rate)), *other = xcalloc(p->nord, sizeof(*other));
	bool *has = xcalloc(p->nord, sizeof(*has));
	for (size_t i = 0; i < p->nord; i++)
		has[i] = ordinal_rate(&p->ord[i], &rate[i]);
	p->slowest = -1;
	p->c_wall_time = 0;
	for (size_t i = 0; i < p->nord; i++) {
		struct cb_ordinal *o = &p->ord[i];
		if (o->has_time && o->total_time > p->c_wall_time)
			p->c_wall_time = o->total_time;
		o->has_rel = o->slow = false;
		size_t n = 0;
		for (size_t j = 0; j < p->nord; j++)
			if (j != i && has[j])
				other[n++] = rate[j];
		if (!has[i] || n == 0)
			continue;
		double med = stats_median(other, n);
		if (!(med > 0))
			continue;
		o->rel_rate = rate[i] / med;
		o->has_rel = true;
		o->slow = o->rel_rate < CB_SLOW_RATIO;
		if (o->slow && (p->slowest < 0 || o->rel_rate < p->ord[p->slowest].rel_rate))
			p->slowest = (long)i;
	}
	free(rate);
	free(other);
	free(has);
}

/* "no KEY", or "an unusable KEY (WHY)" for a value there but unusable (bad: why, warned). */
static void absent_text(char *buf, size_t n, const char *key, const char *bad)
{
	if (bad)
		snprintf(buf, n, "an unusable %s (%s)", key, bad);
	else
		snprintf(buf, n, "no %s", key);
}

/* What keeps an ordinal from a rate: no positive samples_per_sec, and no total_samples over
 * a non-zero total_time; each missing, unusable (the warning's words) or not an object. */
static void no_rate_why(const struct cb_ordinal *o, char *buf, size_t n)
{
	char rate[64], time[64];
	if (o->not_object) {
		snprintf(buf, n, "it is not an object");
		return;
	}
	if (o->has_rate || o->zero_rate)
		snprintf(rate, sizeof(rate), "samples_per_sec %g", o->samples_per_sec);
	else
		absent_text(rate, sizeof(rate), "samples_per_sec", o->bad_rate);
	if (!o->has_samples)
		absent_text(time, sizeof(time), "total_samples", o->bad_samples);
	else if (o->has_time || o->zero_time)
		snprintf(time, sizeof(time), "total_time %g", o->total_time);
	else
		absent_text(time, sizeof(time), "total_time", o->bad_time);
	snprintf(buf, n, "it has %s and %s", rate, time);
}

void cb_unrated_why(const struct cb_perf *p, size_t i, char *buf, size_t n)
{
	double rate;
	if (i < p->nord && !ordinal_rate(&p->ord[i], &rate))
		no_rate_why(&p->ord[i], buf, n);
	else
		snprintf(buf, n, "no other ordinal has a rate");
}

/* Why ordinal o (i) and its key are of no use to the merge rule: "ordinal 0 has no total_time",
 * the warning's reason for a value it has ("ordinal 0 has an unusable total_samples: too large
 * for a count"), or "ordinal 0 is not an object". */
static void unusable_why(char *buf, size_t n, size_t i, const struct cb_ordinal *o, const char *key, const char *bad)
{
	if (o->not_object)
		snprintf(buf, n, "ordinal %zu is not an object", i);
	else if (bad)
		snprintf(buf, n, "ordinal %zu has an unusable %s: %s", i, key, bad);
	else
		snprintf(buf, n, "ordinal %zu has no %s", i, key);
}

void cb_recompute(struct cb_perf *p)
{
	p->has_c = false;
	p->mismatch = false;
	p->slowest = -1;
	if (p->nord == 0)
		return;
	compare_ordinals(p);
	double samples = 0, time = 0;
	p->c_why[0] = '\0';
	for (size_t i = 0; i < p->nord && !p->c_why[0]; i++) {
		const struct cb_ordinal *o = &p->ord[i];
		if (!o->has_samples)
			unusable_why(p->c_why, sizeof(p->c_why), i, o, "total_samples", o->bad_samples);
		else if (time == 0 && !o->has_time && !o->zero_time) /* a 0 is passed over, as upstream's */
			unusable_why(p->c_why, sizeof(p->c_why), i, o, "total_time", o->bad_time);
		samples += (double)o->total_samples;
		if (time == 0 && o->has_time)
			time = o->total_time;
	}
	if (!p->c_why[0] && time == 0)
		snprintf(p->c_why, sizeof(p->c_why), "no ordinal has a non-zero total_time");
	if (p->c_why[0])
		return;
	p->c_samples = samples;
	p->c_time = time;
	p->c_sps = samples / time;
	p->has_c = true;
	/* a stored total_time of 0 says no ordinal has one */
	if ((p->has_samples && !close_to((double)p->total_samples, samples)) || p->zero_time ||
	    (p->has_time && !close_to(p->total_time, time)) ||
	    (p->has_sps && !close_to(p->samples_per_sec, p->c_sps)))
		p->mismatch = true;
}
