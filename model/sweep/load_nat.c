/* SPDX-License-Identifier: MIT */
/* load_nat.c: NeMo Agent Toolkit sizing calculator output (formats.md §4):
 * {online|offline}/job_<ts>/calc_runner_output.json with string concurrency keys (and the
 * stale `per_concurrency_data` layout as an alias). Stored fits and estimates are kept
 * next to the recomputation (nat_recompute) so the views can show where they differ;
 * the jobs of one calc output directory are merged as the calculator's offline mode
 * does (nat_merge). A p95 or per-item time that is not a finite number, or negative, is
 * warned about with its offset (sweep_bad_json) and left out; a p95 of 0, which the calculator
 * leaves out of the fits as not measured (formats.md §4.3), is missing too, with a note
 * (unmeasured), and so is the total_runtime 0 of a concurrency the fits leave out, the
 * calculator's zeroed default (total_unmeasured); a calc_data key that is not
 * a concurrency as the calculator's reader takes one (conc_key: "4", "4.0"; not "inf",
 * "16.5" or "0x10") is warned about with its offset and skipped; a concurrency given twice
 * in calc_data (the key "4" twice, or "1" and "1.0") is warned about with both offsets
 * and only the last is used, as the calculator's JSON reader keeps the last of a key
 * (keep_last); a directory the search cannot list is an error (sweep_dir_unreadable), a
 * calculator file that does not open a sizing job left out (sweep_file_unread).
 * sweep_sizing_needs says which sizing options an estimate still needs. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/json.h"
#include "model/run.h"
#include "model/text.h"
#include "model/sweep/sweep.h"
#include "model/sweep/io.h"
#include "model/xalloc.h"

#define NAT_FILE "calc_runner_output.json"
#define NAT_MAX_DEPTH 3

static bool is_nat_file(const char *path)
{
	const char *b = strrchr(path, '/');
	return strcmp(b ? b + 1 : path, NAT_FILE) == 0;
}

struct nat_files {
	char **v;
	size_t n, cap;
};

/* Every calc_runner_output.json under dir into out; run: the load's (NULL for the probe),
 * told of a directory it cannot list. */
static void find_nat(struct run *run, const char *dir, int depth, struct nat_files *out)
{
	if (depth > NAT_MAX_DEPTH)
		return;
	struct dirlist *l = dirlist_open(dir);
	if (!l && run)
		sweep_dir_unreadable(run, dir, true);
	for (size_t i = 0; l && i < l->n; i++) {
		const struct dirlist_entry *e = &l->v[i];
		if (e->name[0] == '.' || (e->kind != DIRENT_DIR && strcmp(e->name, NAT_FILE) != 0))
			continue;
		char *p = dirlist_path(dir, e->name);
		if (e->kind == DIRENT_DIR) {
			find_nat(run, p, depth + 1, out);
			free(p);
		} else {
			xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = p;
		}
	}
	dirlist_close(l);
}

void sweep_nat_dir_files(const char *dir, char ***files, size_t *n)
{
	struct nat_files f = { 0 };
	find_nat(NULL, dir, 0, &f);
	*files = f.v;
	*n = f.n;
}

int sweep_nat_probe(const char *path, const struct opts *opts)
{
	(void)opts;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode)) {
		if (is_nat_file(path))
			return 95;
		char buf[4097];
		size_t n = sweep_sniff(path, buf, 4096);
		buf[n] = '\0';
		return strstr(buf, "\"calc_data\"") || strstr(buf, "\"per_concurrency_data\"") ? 70 : 0;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	struct nat_files f = { 0 };
	find_nat(NULL, path, 0, &f);
	int r = f.n ? 85 : 0;
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	return r;
}

/* ---------------------------------------------------------------------------------
 * Parsing */

static bool num_opt(const struct json_doc *d, int tok, double *out)
{
	return tok >= 0 && !json_is_null(d, tok) && json_number(d, tok, out) && isfinite(*out);
}

static void read_fit(const struct json_doc *d, int f, struct sweep_fit *fit, bool *has)
{
	*has = false;
	memset(fit, 0, sizeof(*fit));
	if (f < 0 || !json_is_object(d, f))
		return;
	if (!num_opt(d, json_get(d, f, "slope"), &fit->slope) ||
	    !num_opt(d, json_get(d, f, "intercept"), &fit->intercept))
		return;
	num_opt(d, json_get(d, f, "r_squared"), &fit->r2);
	int o = json_get(d, f, "outliers_removed");
	for (int k = o >= 0 && json_is_array(d, o) ? json_first(d, o) : -1; k >= 0;
	     k = json_next(d, o, k)) {
		double x;
		if (json_number(d, k, &x) && fit->nout < FIT_MAX_OUTLIERS)
			fit->outliers[fit->nout++] = x;
	}
	fit->ok = true;
	*has = true;
}

static void read_estimates(const struct json_doc *d, int g, double *lat, bool *has_lat,
			   double *rt, bool *has_rt)
{
	*has_lat = g >= 0 && num_opt(d, json_get(d, g, "gpu_estimate_by_llm_latency"), lat);
	*has_rt = g >= 0 && num_opt(d, json_get(d, g, "gpu_estimate_by_wf_runtime"), rt);
}

/* One calc_data entry being read: where (its concurrency) for the messages, bad counts
 * values that are there but unusable. */
struct nat_read {
	struct run *run;
	const char *path;
	const struct json_doc *d;
	const char *conc;
	size_t bad;
};

/* A time of entry obj (item: the per-item entry's id, or NULL): false when absent or
 * null, and when not a finite number (NaN, a string) or negative, which is also warned
 * about with its offset (sweep_bad_json), counted and flagged in *unusable (may be NULL). */
static bool time_value(struct nat_read *rd, int obj, const char *key, const char *item, double *out,
		       bool *unusable)
{
	int t = json_get(rd->d, obj, key);
	if (t < 0 || json_is_null(rd->d, t))
		return false;
	bool finite = json_number(rd->d, t, out) && isfinite(*out);
	if (finite && *out >= 0)
		return true;
	char field[192];
	snprintf(field, sizeof(field), "concurrency %s%s%s %s", rd->conc, item ? " item " : "", item ? item : "", key);
	sweep_bad_json(rd->run, rd->path, rd->d, t, field, finite ? SWEEP_BAD_NEGATIVE : SWEEP_BAD_NOT_FINITE,
		       &rd->bad);
	if (unusable)
		*unusable = true;
	return false;
}

static void read_items(struct nat_read *rd, int items, struct nat_point *p)
{
	const struct json_doc *d = rd->d;
	if (items < 0 || !json_is_object(d, items))
		return;
	p->has_items = true;
	for (int k = json_first(d, items); k >= 0; k = json_next(d, items, k)) {
		int it = k + 1;
		double lat = NAN, rt = NAN;
		if (json_is_object(d, it)) {
			char id[64];
			json_strcpy(d, k, id, sizeof(id));
			if (!time_value(rd, it, "llm_latency", id, &lat, NULL))
				lat = NAN;
			if (!time_value(rd, it, "workflow_runtime", id, &rt, NULL))
				rt = NAN;
		}
		p->item_lat = xrealloc(p->item_lat, (p->nitems + 1) * sizeof(double));
		p->item_rt = xrealloc(p->item_rt, (p->nitems + 1) * sizeof(double));
		p->item_lat[p->nitems] = lat;
		p->item_rt[p->nitems] = rt;
		p->nitems++;
	}
}

/* A p95 of key in obj read as v (*has): when 0, the calculator's "not measured", which it leaves
 * out of the fits (formats.md §4.3 step 1), it is missing (*has false, *zero true), with a note at
 * its offset. True when it is. */
static bool unmeasured(struct nat_read *rd, int obj, const char *key, bool *has, double v, bool *zero)
{
	if (!*has || v != 0)
		return false;
	*has = false;
	*zero = true;
	diag_add(&rd->run->diags, DIAG_INFO, rd->path, -1, rd->d->tok[json_get(rd->d, obj, key)].start, -1,
		 "concurrency %s %s 0 read as not measured: the calculator leaves a concurrency whose p95 is 0 "
		 "or missing out of the fits", rd->conc, key);
	return true;
}

/* p's total_runtime of 0 when the fits leave p out (interrupted, or a p95 0 or missing):
 * the zeroed sizing_metrics the calculator writes for such a concurrency (formats.md §4.3
 * step 7), not measured: missing (has_total false), with a note at its offset. */
static void total_unmeasured(struct nat_read *rd, int obj, struct nat_point *p)
{
	bool left_out = p->interrupted || (!p->has_lat && !p->bad_lat) || (!p->has_rt && !p->bad_rt);
	if (!p->has_total || p->total_rt != 0 || !left_out)
		return;
	p->has_total = false;
	diag_add(&rd->run->diags, DIAG_INFO, rd->path, -1, rd->d->tok[json_get(rd->d, obj, "total_runtime")].start, -1,
		 "concurrency %s total_runtime 0 read as not measured: the calculator writes zeroed sizing_metrics "
		 "for a concurrency it leaves out of the fits (%s)", rd->conc,
		 p->interrupted ? "workflow_interrupted" : "a p95 0 or missing");
}

/* A calc_data key as the calculator's reader (pydantic, dict[int, ...]) takes a
 * concurrency: decimal digits, then at most a fraction of zeros ("4", "4.0"), above 0 and
 * below 1e15 (exact as a double). "inf", "16.5", "0x10", "1e1" and "-4" are not. */
static bool conc_key(const char *s, size_t n, double *out)
{
	size_t k = 0;
	double v = 0;
	for (; k < n && s[k] >= '0' && s[k] <= '9'; k++)
		if ((v = v * 10 + (s[k] - '0')) >= 1e15)
			return false;
	if (k == 0)
		return false;
	if (k < n && s[k] == '.') {
		size_t frac = ++k;
		while (k < n && s[k] == '0')
			k++;
		if (k == frac)
			return false;
	}
	*out = v;
	return k == n && v > 0;
}

/* One calc_data entry; false (with a diagnostic naming its key, sanitized) when its key
 * is not a concurrency (conc_key) or its value no object. Unusable values (time_value)
 * are counted in *bad. */
static bool read_point(struct run *run, const char *path, const struct json_doc *d, int key,
		       struct nat_point *p, size_t *bad)
{
	char kb[32];
	memset(p, 0, sizeof(*p));
	p->s_items_lat = p->s_items_rt = -1;
	p->job = -1;
	size_t klen = json_strcpy(d, key, kb, sizeof(kb));
	int v = key + 1;
	bool conc = klen < sizeof(kb) && conc_key(kb, klen, &p->conc);
	if (!conc || !json_is_object(d, v)) {
		char safe[96], shown[64];
		text_sanitize(kb, strlen(kb), safe, sizeof(safe), 0);
		text_clip(safe, 24, shown, sizeof(shown), true, 0);
		diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[key].start, -1,
			 "calc_data entry '%s' skipped: %s", shown,
			 !conc ? "its key is not a concurrency (a positive whole number)" : "not an object");
		return false;
	}
	int sm = json_get(d, v, "sizing_metrics");
	if (sm < 0 || !json_is_object(d, sm))
		sm = v; /* tolerate metrics directly in the entry */
	struct nat_read rd = { run, path, d, kb, 0 };
	p->has_lat = time_value(&rd, sm, "llm_latency_p95", NULL, &p->lat_p95, &p->bad_lat);
	p->has_rt = time_value(&rd, sm, "workflow_runtime_p95", NULL, &p->rt_p95, &p->bad_rt);
	p->has_total = time_value(&rd, sm, "total_runtime", NULL, &p->total_rt, NULL);
	bool zero = unmeasured(&rd, sm, "llm_latency_p95", &p->has_lat, p->lat_p95, &p->zero_lat);
	zero |= unmeasured(&rd, sm, "workflow_runtime_p95", &p->has_rt, p->rt_p95, &p->zero_rt);
	int al = json_get(d, sm, "alerts");
	if (al >= 0 && json_is_object(d, al))
		json_bool(d, json_get(d, al, "workflow_interrupted"), &p->interrupted);
	total_unmeasured(&rd, sm, p);
	read_items(&rd, json_get(d, sm, "per_item_metrics"), p);
	*bad += rd.bad;
	read_estimates(d, json_get(d, v, "gpu_estimates"), &p->s_gpu_lat, &p->has_s_gpu_lat,
		       &p->s_gpu_rt, &p->has_s_gpu_rt);
	int ca = json_get(d, v, "alerts");
	if (ca >= 0 && json_is_object(d, ca)) {
		long long n;
		p->has_s_alerts = true;
		json_bool(d, json_get(d, ca, "outlier_llm_latency"), &p->s_out_lat);
		json_bool(d, json_get(d, ca, "outlier_workflow_runtime"), &p->s_out_rt);
		if (json_int(d, json_get(d, ca, "num_items_greater_than_target_latency"), &n))
			p->s_items_lat = (long)n;
		if (json_int(d, json_get(d, ca, "num_items_greater_than_target_runtime"), &n))
			p->s_items_rt = (long)n;
	}
	if (!zero && (p->has_lat || p->has_rt) && !(p->has_lat && p->has_rt))
		diag_add(&run->diags, DIAG_INFO, path, -1, d->tok[key].start, -1,
			 "concurrency %s lacks a p95 latency or runtime; it is not fitted", kb);
	return true;
}

/* p (calc_data key k) when n already has its concurrency (read at key keys[j]): warned
 * about, naming both keys and their offsets, and put in the place of the earlier one,
 * which is left out: the last is used, as a JSON reader (the calculator's Python) keeps
 * the last of a key given twice. False when the concurrency is new. */
static bool keep_last(struct run *run, const char *path, const struct json_doc *d, struct nat_calc *n,
		      int *keys, int k, const struct nat_point *p)
{
	for (size_t j = 0; j < n->npt; j++) {
		if (n->pt[j].conc != p->conc)
			continue;
		char raw[2][32], key[2][128];
		json_strcpy(d, keys[j], raw[0], sizeof(raw[0]));
		json_strcpy(d, k, raw[1], sizeof(raw[1]));
		for (int i = 0; i < 2; i++)
			text_sanitize(raw[i], strlen(raw[i]), key[i], sizeof(key[i]), 0);
		diag_add(&run->diags, DIAG_WARN, path, -1, d->tok[k].start, -1,
			 "concurrency %g given twice in calc_data (key '%s' at byte %d, and '%s' here): the last is "
			 "used, as the calculator's JSON reader keeps the last; the first is left out",
			 p->conc, key[0], d->tok[keys[j]].start, key[1]);
		free(n->pt[j].item_lat);
		free(n->pt[j].item_rt);
		n->pt[j] = *p;
		keys[j] = k;
		return true;
	}
	return false;
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct nat_point *)a)->conc, y = ((const struct nat_point *)b)->conc;
	return (x > y) - (x < y);
}

/* The last "online/" or "offline/" path component: its mode and where it starts. */
static const char *mode_of(const char *path, size_t *at)
{
	static const char *const modes[] = { "offline", "online" };
	const char *best = NULL, *mode = "";
	for (size_t m = 0; m < ARRAY_LEN(modes); m++) {
		size_t k = strlen(modes[m]);
		for (const char *q = path; (q = strstr(q, modes[m])); q++)
			if ((q == path || q[-1] == '/') && q[k] == '/' && (!best || q > best)) {
				best = q;
				mode = modes[m];
			}
	}
	if (at)
		*at = best ? (size_t)(best - path) : 0;
	return mode;
}

/* The calc output directory holding online/ and offline/, or NULL. */
static char *root_of(const char *path)
{
	size_t at;
	if (!*mode_of(path, &at))
		return NULL;
	return at ? xstrndup(path, at > 1 ? at - 1 : 1) : xstrdup(".");
}

static int load_one(struct run *run, struct sweep_set *s, const char *path)
{
	struct json_doc d;
	size_t src;
	char why[96];
	if (sweep_json_open_why(run, path, "nat", &d, &src, why, sizeof(why)) < 0) {
		sweep_file_unread(run, path, why, true);
		return -1;
	}
	struct nat_calc n = { .path = xstrdup(path), .mode = mode_of(path, NULL),
			      .root = root_of(path), .merge_into = -1 };
	struct stat fst;
	if (stat(path, &fst) == 0)
		n.mtime_ns = infile_mtime_ns(&fst);
	int cd = json_get(&d, 0, "calc_data");
	if (cd < 0) {
		cd = json_get(&d, 0, "per_concurrency_data");
		n.alias_layout = cd >= 0;
	}
	size_t recs = 0, bad = 0;
	int *keys = NULL; /* each point's key token, until sorted */
	if (cd < 0 || !json_is_object(&d, cd))
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1,
			 "no calc_data object: not a sizing calculator output");
	for (int k = cd >= 0 && json_is_object(&d, cd) ? json_first(&d, cd) : -1; k >= 0;
	     k = json_next(&d, cd, k)) {
		struct nat_point p;
		if (!read_point(run, path, &d, k, &p, &bad) || keep_last(run, path, &d, &n, keys, k, &p)) {
			bad++;
			continue;
		}
		n.pt = xrealloc(n.pt, (n.npt + 1) * sizeof(*n.pt));
		keys = xrealloc(keys, (n.npt + 1) * sizeof(*keys));
		keys[n.npt] = k;
		n.pt[n.npt++] = p;
		recs++;
	}
	free(keys);
	if (n.npt)
		qsort(n.pt, n.npt, sizeof(*n.pt), cmp_point);
	int fr = json_get(&d, 0, "fit_results");
	if (fr >= 0 && json_is_object(&d, fr)) {
		read_fit(&d, json_get(&d, fr, "llm_latency_fit"), &n.s_fit_lat, &n.has_s_fit_lat);
		read_fit(&d, json_get(&d, fr, "wf_runtime_fit"), &n.s_fit_rt, &n.has_s_fit_rt);
	}
	read_estimates(&d, json_get(&d, 0, "gpu_estimates"), &n.s_gpu_lat, &n.has_s_gpu_lat,
		       &n.s_gpu_rt, &n.has_s_gpu_rt);
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(&d);
	if (cd < 0) {
		nat_calc_free(&n);
		return -1;
	}
	if (n.npt == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "empty sizing sweep (no concurrencies)");
	s->nat = xrealloc(s->nat, (s->nnat + 1) * sizeof(*s->nat));
	s->nat[s->nnat++] = n;
	s->derived = false;
	return 0;
}

int sweep_nat_load(struct load_ctx *ctx, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	struct nat_files f = { 0 };
	if (S_ISDIR(st.st_mode))
		find_nat(ctx->run, path, 0, &f);
	else {
		f.v = xmalloc(sizeof(*f.v));
		f.v[f.n++] = xstrdup(path);
	}
	qsort(f.v, f.n, sizeof(*f.v), text_cmp_ptr);
	struct sweep_set *s = sweep_get(ctx->run);
	int loaded = 0;
	for (size_t i = 0; i < f.n; i++) {
		if (load_one(ctx->run, s, f.v[i]) == 0)
			loaded++;
		free(f.v[i]);
	}
	free(f.v);
	return loaded ? 0 : -1;
}

void nat_calc_free(struct nat_calc *n)
{
	for (size_t j = 0; j < n->npt; j++) {
		free(n->pt[j].item_lat);
		free(n->pt[j].item_rt);
	}
	free(n->pt);
	free(n->path);
	free(n->root);
	free(n->jobs);
}

/* ---------------------------------------------------------------------------------
 * Offline merge (formats.md §4.1) */

static void drop_merged(struct sweep_set *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nnat; i++) {
		if (s->nat[i].merged)
			nat_calc_free(&s->nat[i]);
		else
			s->nat[k++] = s->nat[i];
	}
	s->nnat = k;
	for (size_t i = 0; i < s->nnat; i++)
		s->nat[i].merge_into = -1;
}

/* Newest first: mtime descending, then path descending (job_<unix_ts> names). */
static int cmp_newest(const void *a, const void *b, void *ud)
{
	const struct nat_calc *nat = ((const struct sweep_set *)ud)->nat;
	const struct nat_calc *x = &nat[*(const size_t *)a], *y = &nat[*(const size_t *)b];
	if (x->mtime_ns != y->mtime_ns)
		return x->mtime_ns > y->mtime_ns ? -1 : 1;
	return -strcmp(x->path, y->path);
}

static double *dup_items(const double *v, size_t n)
{
	if (!n)
		return NULL;
	double *d = xmalloc(n * sizeof(*d));
	memcpy(d, v, n * sizeof(*d));
	return d;
}

static bool has_conc(const struct nat_calc *m, double c)
{
	for (size_t i = 0; i < m->npt; i++)
		if (m->pt[i].conc == c)
			return true;
	return false;
}

/* Merge the jobs idx[0..n) (already newest first) into a new entry. */
static void merge_jobs(struct sweep_set *s, const size_t *idx, size_t n)
{
	struct nat_calc m = { .path = xstrdup(s->nat[idx[0]].root), .mode = "merged",
			      .root = xstrdup(s->nat[idx[0]].root), .merged = true, .njobs = n,
			      .jobs = xmalloc(n * sizeof(size_t)), .merge_into = -1 };
	memcpy(m.jobs, idx, n * sizeof(size_t));
	for (size_t j = 0; j < n; j++) {
		const struct nat_calc *job = &s->nat[idx[j]];
		m.alias_layout |= job->alias_layout;
		for (size_t i = 0; i < job->npt; i++) {
			if (has_conc(&m, job->pt[i].conc))
				continue;
			m.pt = xrealloc(m.pt, (m.npt + 1) * sizeof(*m.pt));
			struct nat_point *p = &m.pt[m.npt++];
			*p = job->pt[i];
			p->item_lat = dup_items(job->pt[i].item_lat, job->pt[i].nitems);
			p->item_rt = dup_items(job->pt[i].item_rt, job->pt[i].nitems);
			p->job = (long)idx[j];
			/* stored values belong to the job's own fit: the merge stores nothing */
			p->has_s_alerts = p->s_out_lat = p->s_out_rt = false;
			p->has_s_gpu_lat = p->has_s_gpu_rt = false;
			p->s_items_lat = p->s_items_rt = -1;
		}
	}
	if (m.npt)
		qsort(m.pt, m.npt, sizeof(*m.pt), cmp_point);
	long at = (long)s->nnat;
	for (size_t j = 0; j < n; j++)
		s->nat[idx[j]].merge_into = at;
	s->nat = xrealloc(s->nat, (s->nnat + 1) * sizeof(*s->nat));
	s->nat[s->nnat++] = m;
}

void nat_merge(struct sweep_set *s)
{
	drop_merged(s);
	size_t njob = s->nnat;
	size_t *idx = xcalloc(njob + 1, sizeof(*idx));
	bool *done = xcalloc(njob + 1, sizeof(*done));
	for (size_t i = 0; i < njob; i++) {
		if (done[i] || !s->nat[i].root)
			continue;
		size_t n = 0;
		for (size_t j = i; j < njob; j++)
			if (!done[j] && s->nat[j].root && strcmp(s->nat[j].root, s->nat[i].root) == 0) {
				idx[n++] = j;
				done[j] = true;
			}
		if (n < 2)
			continue;
		qsort_r(idx, n, sizeof(*idx), cmp_newest, s);
		merge_jobs(s, idx, n);
	}
	free(idx);
	free(done);
}

/* ---------------------------------------------------------------------------------
 * Recomputation (formats.md §4.3) */

static bool in_outliers(const struct sweep_fit *f, double c)
{
	for (size_t i = 0; i < f->nout; i++)
		if (f->outliers[i] == c)
			return true;
	return false;
}

static long count_over(const double *v, size_t n, double target)
{
	if (!(target > 0))
		return -1;
	long k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > target)
			k++;
	return k;
}

void nat_recompute(struct nat_calc *n, const struct sweep_set *s)
{
	double *x = xcalloc(n->npt + 1, sizeof(*x));
	double *yl = xcalloc(n->npt + 1, sizeof(*yl)), *yr = xcalloc(n->npt + 1, sizeof(*yr));
	size_t m = 0;
	for (size_t i = 0; i < n->npt; i++) {
		struct nat_point *p = &n->pt[i];
		p->valid = p->has_lat && p->has_rt && !p->interrupted; /* a p95 of 0 is missing (unmeasured) */
		if (!p->valid)
			continue;
		x[m] = p->conc;
		yl[m] = p->lat_p95;
		yr[m] = p->rt_p95;
		m++;
	}
	n->c_fit_lat = fit_linear(x, yl, m);
	n->c_fit_rt = fit_linear(x, yr, m);
	double users = s->target_users, gpus = (double)s->test_gpus;
	n->c_est_lat = fit_gpu_estimate(&n->c_fit_lat, s->target_latency, users, gpus);
	n->c_est_rt = fit_gpu_estimate(&n->c_fit_rt, s->target_runtime, users, gpus);
	for (size_t i = 0; i < n->npt; i++) {
		struct nat_point *p = &n->pt[i];
		p->c_out_lat = p->valid && in_outliers(&n->c_fit_lat, p->conc);
		p->c_out_rt = p->valid && in_outliers(&n->c_fit_rt, p->conc);
		p->has_c_gpu_lat = p->has_c_gpu_rt = false;
		p->c_items_lat = p->c_items_rt = -1;
		if (!p->valid)
			continue;
		fit_rough_estimate(s->target_latency, s->target_runtime, users, p->conc, gpus,
				   p->lat_p95, p->rt_p95, &p->c_gpu_lat, &p->has_c_gpu_lat,
				   &p->c_gpu_rt, &p->has_c_gpu_rt);
		if (!p->has_items)
			continue;
		p->c_items_lat = count_over(p->item_lat, p->nitems, s->target_latency);
		p->c_items_rt = count_over(p->item_rt, p->nitems, s->target_runtime);
	}
	free(x);
	free(yl);
	free(yr);
}

void sweep_sizing_needs(const struct sweep_set *s, const char *target_opt, double target, char *buf, size_t n)
{
	const char *miss[3];
	size_t k = 0, used = 0;
	if (!(s->target_users > 0))
		miss[k++] = "--target-users";
	if (s->test_gpus <= 0)
		miss[k++] = "--test-gpus";
	if (!(target > 0))
		miss[k++] = target_opt;
	buf[0] = '\0';
	for (size_t i = 0; i < k && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i == 0 ? "" : i + 1 == k ? " and " : ", ",
					  miss[i]);
}

const char *nat_p95_why(const struct nat_point *p, bool lat, bool out_of_fits)
{
	static const char *const why[2][3][2] = {
		{ { "no p95 workflow runtime", "no p95 workflow runtime, out of the fits" },
		  { "p95 workflow runtime 0 (not measured)", "p95 workflow runtime 0 (not measured), out of the fits" },
		  { "unusable p95 workflow runtime", "unusable p95 workflow runtime, out of the fits" } },
		{ { "no p95 LLM latency", "no p95 LLM latency, out of the fits" },
		  { "p95 LLM latency 0 (not measured)", "p95 LLM latency 0 (not measured), out of the fits" },
		  { "unusable p95 LLM latency", "unusable p95 LLM latency, out of the fits" } },
	};
	if (lat ? p->has_lat : p->has_rt)
		return NULL;
	int k = (lat ? p->zero_lat : p->zero_rt) ? 1 : (lat ? p->bad_lat : p->bad_rt) ? 2 : 0;
	return why[lat][k][out_of_fits];
}

void nat_point_alerts(const struct nat_point *p, bool stored, char out[8])
{
	bool lat = stored ? p->s_out_lat : p->c_out_lat, rt = stored ? p->s_out_rt : p->c_out_rt;
	size_t k = 0;
	if (p->interrupted || lat || rt)
		out[k++] = '!';
	if (p->interrupted)
		out[k++] = 'W';
	if (lat)
		out[k++] = 'L';
	if (rt)
		out[k++] = 'R';
	out[k] = '\0';
}
