/* SPDX-License-Identifier: MIT */
/* trace_load.c: finding Kineto/Chrome trace files, decoding their events one at a time
 * (trace_scan.c hands each event to jsmn) into the per-rank trace model (trace.h), rank
 * assignment, and the load-time diagnostics. */
#include "model/trace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "model/json.h"
#include "model/pool.h"
#include "model/run.h"
#include "model/trace_scan.h"
#include "model/xalloc.h"

#define PROBE_BYTES ((size_t)64 << 10)
#define MAX_EVENT_DIAGS 20

/* ---- discovery ------------------------------------------------------------ */

struct pathvec {
	char **v;
	size_t n, cap;
};

static void pathvec_add(struct pathvec *pv, const char *p)
{
	for (size_t i = 0; i < pv->n; i++)
		if (strcmp(pv->v[i], p) == 0)
			return;
	xgrow((void **)&pv->v, &pv->cap, pv->n + 1, sizeof(*pv->v));
	pv->v[pv->n++] = xstrdup(p);
}

static void pathvec_free(struct pathvec *pv)
{
	for (size_t i = 0; i < pv->n; i++)
		free(pv->v[i]);
	free(pv->v);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static bool is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool trace_file_name(const char *dir, const char *name)
{
	if (ends_with(name, ".pt.trace.json") || ends_with(name, ".pt.trace.json.gz"))
		return true;
	if (!ends_with(name, ".json") && !ends_with(name, ".json.gz"))
		return false;
	char *p = xasprintf("%s/%s", dir, name);
	bool yes = tscan_probe(p, PROBE_BYTES);
	free(p);
	return yes;
}

static bool rank_dir_name(const char *name)
{
	return strncasecmp(name, "rank", 4) == 0 || strncasecmp(name, "worker", 6) == 0;
}

/* Per-rank trace files in dir; one level into rank* / worker* subdirectories. */
static void scan_dir(const char *dir, struct pathvec *out, int depth)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (name[0] == '.')
			goto next;
		char *p = xasprintf("%s/%s", dir, name);
		if (is_regular(p) && trace_file_name(dir, name))
			pathvec_add(out, p);
		else if (depth == 0 && rank_dir_name(name) && is_dir(p))
			scan_dir(p, out, depth + 1);
		free(p);
next:
		free(ents[i]);
	}
	free(ents);
}

/* pytscope's auto-detected trace in a run directory, in pytscope's order. */
static char *pytscope_trace(const char *dir)
{
	static const char *const names[] = { "trace.json", "trace.json.gz", "kineto.json", "kineto.json.gz" };
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		if (is_regular(p))
			return p;
		free(p);
	}
	return NULL;
}

static void discover(const char *path, struct pathvec *out, bool explicit)
{
	if (!is_dir(path)) {
		if (explicit || tscan_probe(path, PROBE_BYTES))
			pathvec_add(out, path);
		return;
	}
	char *p = pytscope_trace(path);
	if (p) {
		pathvec_add(out, p);
		free(p);
		return;
	}
	scan_dir(path, out, 0);
}

int trace_probe(const char *path, const struct opts *opts)
{
	if (opts && opts->ntrace > 0)
		return 50;
	struct pathvec pv = { 0 };
	discover(path, &pv, false);
	int conf = pv.n ? 80 : 0;
	pathvec_free(&pv);
	return conf;
}

/* ---- per-file decoding ---------------------------------------------------- */

struct name_slot {
	uint64_t hash;
	int32_t idx;       /* -1 empty */
};

struct file_ctx {
	struct trace_rank *r;
	struct run *run;
	struct load_ctx *ctx;
	struct json_doc doc;
	struct name_slot *slots;
	size_t nslots;
	char **raw;        /* raw (escaped) name bytes, parallel to r->names */
	size_t *rawlen;
	bool have_base;
	int64_t base_ns;
	size_t ndiag;
	size_t skipped;
	size_t kept;
};

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static void names_rehash(struct file_ctx *fc)
{
	size_t ncap = fc->nslots ? fc->nslots * 2 : 1024;
	struct name_slot *ns = xmalloc(ncap * sizeof(*ns));
	for (size_t i = 0; i < ncap; i++)
		ns[i].idx = -1;
	for (size_t i = 0; i < fc->nslots; i++) {
		if (fc->slots[i].idx < 0)
			continue;
		size_t j = fc->slots[i].hash & (ncap - 1);
		while (ns[j].idx >= 0)
			j = (j + 1) & (ncap - 1);
		ns[j] = fc->slots[i];
	}
	free(fc->slots);
	fc->slots = ns;
	fc->nslots = ncap;
}

/* Index of the name in token t (a string), interned on first sight. */
static int32_t intern_name(struct file_ctx *fc, int t)
{
	const jsmntok_t *tok = &fc->doc.tok[t];
	const char *s = fc->doc.js + tok->start;
	size_t n = (size_t)(tok->end - tok->start);
	struct trace_rank *r = fc->r;
	if ((r->nnames + 1) * 2 > fc->nslots)
		names_rehash(fc);
	uint64_t h = fnv1a(s, n);
	size_t j = h & (fc->nslots - 1);
	while (fc->slots[j].idx >= 0) {
		int32_t i = fc->slots[j].idx;
		if (fc->slots[j].hash == h && fc->rawlen[i] == n && memcmp(fc->raw[i], s, n) == 0)
			return i;
		j = (j + 1) & (fc->nslots - 1);
	}
	size_t cap = r->namecap;
	xgrow((void **)&r->names, &r->namecap, r->nnames + 1, sizeof(*r->names));
	if (r->namecap != cap) {
		fc->raw = xrealloc(fc->raw, r->namecap * sizeof(*fc->raw));
		fc->rawlen = xrealloc(fc->rawlen, r->namecap * sizeof(*fc->rawlen));
	}
	int32_t idx = (int32_t)r->nnames++;
	r->names[idx] = json_strdup(&fc->doc, t);
	fc->raw[idx] = xstrndup(s, n);
	fc->rawlen[idx] = n;
	fc->slots[j] = (struct name_slot){ .hash = h, .idx = idx };
	return idx;
}

static void file_diag(struct file_ctx *fc, uint64_t off, const char *fmt, const char *arg)
{
	if (fc->ndiag++ >= MAX_EVENT_DIAGS)
		return;
	char msg[256];
	snprintf(msg, sizeof(msg), fmt, arg);
	diag_add(&fc->run->diags, DIAG_WARN, fc->r->path, -1, (long long)off, -1, "%s", msg);
}

bool trace_parse_us(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	int64_t ip = 0;
	size_t nd = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
		if (ip > (INT64_MAX / 1000 - 9) / 10)
			goto slow; /* ns would overflow int64 */
		ip = ip * 10 + (s[i] - '0');
	}
	if (nd == 0)
		goto slow;
	int64_t frac = 0;
	int fd = 0;
	bool round_up = false;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (fd < 3)
				frac = frac * 10 + (s[i] - '0');
			else if (fd == 3)
				round_up = s[i] >= '5';
			fd++;
		}
	}
	if (i != n)
		goto slow;
	for (; fd < 3; fd++)
		frac *= 10;
	int64_t v = ip * 1000 + frac + (round_up ? 1 : 0);
	*out = neg ? -v : v;
	return true;
slow:;
	double d;
	if (!json_parse_double(s, n, &d) || !(d > -9.2e15 && d < 9.2e15))
		return false;
	double ns = d * 1000.0;
	*out = (int64_t)(ns < 0 ? ns - 0.5 : ns + 0.5);
	return true;
}

static bool tok_us(const struct json_doc *d, int t, int64_t *out)
{
	if (t < 0 || (d->tok[t].type != JSMN_PRIMITIVE && d->tok[t].type != JSMN_STRING))
		return false;
	return trace_parse_us(d->js + d->tok[t].start, (size_t)(d->tok[t].end - d->tok[t].start), out);
}

static bool tok_int(const struct json_doc *d, int t, long long *out)
{
	if (t < 0)
		return false;
	if (d->tok[t].type == JSMN_STRING) {
		double v;
		if (!json_number_str(d, t, &v, true) || v != (double)(long long)v)
			return false;
		*out = (long long)v;
		return true;
	}
	return json_int(d, t, out);
}

static bool key_is(const struct json_doc *d, int k, const char *lit, size_t n)
{
	const jsmntok_t *t = &d->tok[k];
	return (size_t)(t->end - t->start) == n && memcmp(d->js + t->start, lit, n) == 0;
}

static bool tok_ieq(const struct json_doc *d, int t, const char *lit)
{
	size_t n = strlen(lit);
	return t >= 0 && (size_t)(d->tok[t].end - d->tok[t].start) == n &&
	       strncasecmp(d->js + d->tok[t].start, lit, n) == 0;
}

static bool tok_icontains(const struct json_doc *d, int t, const char *lit)
{
	if (t < 0)
		return false;
	const char *s = d->js + d->tok[t].start;
	size_t n = (size_t)(d->tok[t].end - d->tok[t].start), m = strlen(lit);
	for (size_t i = 0; i + m <= n; i++)
		if (strncasecmp(s + i, lit, m) == 0)
			return true;
	return false;
}

/* ProfilerStep\s*#\s*(\d+) at the start of the name token. */
static bool profiler_step(const struct json_doc *d, int t, long *step)
{
	const char *s = d->js + d->tok[t].start;
	size_t n = (size_t)(d->tok[t].end - d->tok[t].start), i = 12;
	if (n < 13 || memcmp(s, "ProfilerStep", 12) != 0)
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || s[i++] != '#')
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || !isdigit((unsigned char)s[i]))
		return false;
	long v = 0;
	for (; i < n && isdigit((unsigned char)s[i]) && v < 100000000000L; i++)
		v = v * 10 + (s[i] - '0');
	*step = v;
	return true;
}

/* Legacy GPU tid "stream 7" -> 7. */
static int32_t legacy_stream(const struct json_doc *d, int t)
{
	if (t < 0 || d->tok[t].type != JSMN_STRING)
		return -1;
	const char *s = d->js + d->tok[t].start;
	size_t n = (size_t)(d->tok[t].end - d->tok[t].start);
	if (n < 8 || strncasecmp(s, "stream ", 7) != 0)
		return -1;
	long v = 0;
	for (size_t i = 7; i < n && isdigit((unsigned char)s[i]) && v < 1000000000L; i++)
		v = v * 10 + (s[i] - '0');
	return (int32_t)v;
}

struct ev_fields {
	int ph, cat, name, ts, dur, tid, args;
};

static void find_fields(const struct json_doc *d, struct ev_fields *f)
{
	*f = (struct ev_fields){ -1, -1, -1, -1, -1, -1, -1 };
	for (int k = json_first(d, 0); k >= 0; k = json_next(d, 0, k)) {
		switch (d->js[d->tok[k].start]) {
		case 'p': if (key_is(d, k, "ph", 2)) f->ph = k + 1; break;
		case 'c': if (key_is(d, k, "cat", 3)) f->cat = k + 1; break;
		case 'n': if (key_is(d, k, "name", 4)) f->name = k + 1; break;
		case 't':
			if (key_is(d, k, "ts", 2)) f->ts = k + 1;
			else if (key_is(d, k, "tid", 3)) f->tid = k + 1;
			break;
		case 'd': if (key_is(d, k, "dur", 3)) f->dur = k + 1; break;
		case 'a': if (key_is(d, k, "args", 4)) f->args = k + 1; break;
		default: break;
		}
	}
}

static void args_fields(const struct json_doc *d, int args, long long *stream, long long *corr)
{
	*stream = -1;
	*corr = -1;
	if (!json_is_object(d, args))
		return;
	for (int k = json_first(d, args); k >= 0; k = json_next(d, args, k)) {
		if (key_is(d, k, "stream", 6) && !tok_int(d, k + 1, stream))
			*stream = -1;
		else if (key_is(d, k, "correlation", 11) && !tok_int(d, k + 1, corr))
			*corr = -1;
	}
}

static bool gpu_category(const struct json_doc *d, int cat)
{
	return tok_ieq(d, cat, "kernel") || tok_ieq(d, cat, "gpu_memcpy") || tok_ieq(d, cat, "gpu_memset") ||
	       tok_ieq(d, cat, "memcpy") || tok_ieq(d, cat, "memset");
}

static void keep_kernel(struct file_ctx *fc, const struct ev_fields *f, int64_t ts, int64_t dur,
			long long stream, long long corr, bool pysel)
{
	struct trace_rank *r = fc->r;
	xgrow((void **)&r->k, &r->kcap, r->nk + 1, sizeof(*r->k));
	r->k[r->nk++] = (struct trace_kernel){
		.ts = ts, .dur = dur, .corr = corr, .stream = (int32_t)stream, .iter = -1,
		.name = intern_name(fc, f->name), .flags = pysel ? TK_PYSEL : 0,
	};
}

static void on_event(void *ud, const char *js, size_t len, uint64_t off)
{
	struct file_ctx *fc = ud;
	struct json_doc *d = &fc->doc;
	int rc = json_parse(d, js, len);
	if (rc < 0 || !json_is_object(d, 0)) {
		fc->skipped++;
		file_diag(fc, off, "invalid JSON in a trace event (%s); event skipped",
			  rc < 0 ? json_err_str(rc) : "not an object");
		return;
	}
	struct ev_fields f;
	find_fields(d, &f);
	if (f.ph < 0 || !json_eq(d, f.ph, "X"))
		return; /* only complete spans matter to every analysis */
	int64_t ts, dur;
	if (f.name < 0 || d->tok[f.name].type != JSMN_STRING || !tok_us(d, f.ts, &ts) ||
	    !tok_us(d, f.dur, &dur)) {
		fc->skipped++;
		file_diag(fc, off, "%s", "span event without a name, ts or dur; event skipped");
		return;
	}
	fc->kept++;
	long long stream, corr;
	args_fields(d, f.args, &stream, &corr);
	bool gpu = gpu_category(d, f.cat);
	if (stream < 0 && gpu)
		stream = legacy_stream(d, f.tid);
	bool pysel = tok_icontains(d, f.cat, "kernel") || tok_icontains(d, f.cat, "gpu_memcpy") ||
		     tok_icontains(d, f.cat, "gpu_memset");
	if (stream >= 0 || gpu || pysel) {
		keep_kernel(fc, &f, ts, dur, stream, corr, pysel);
		return;
	}
	struct trace_rank *r = fc->r;
	long step;
	if (profiler_step(d, f.name, &step)) {
		xgrow((void **)&r->step, &r->stepcap, r->nstep + 1, sizeof(*r->step));
		r->step[r->nstep++] = (struct trace_step){ .step = step, .ts = ts, .dur = dur };
	}
	if (corr >= 0) {
		xgrow((void **)&r->cpu, &r->cpucap, r->ncpu + 1, sizeof(*r->cpu));
		r->cpu[r->ncpu++] = (struct trace_cpu){ .ts = ts, .dur = dur, .corr = corr };
	}
}

static void on_meta(void *ud, const char *key, const char *js, size_t len, uint64_t off)
{
	struct file_ctx *fc = ud;
	struct json_doc *d = &fc->doc;
	if (json_parse(d, js, len) < 0) {
		file_diag(fc, off, "invalid JSON in top-level \"%s\"", key);
		return;
	}
	long long v;
	if (strcmp(key, "baseTimeNanoseconds") == 0) {
		if (tok_int(d, 0, &v)) {
			fc->have_base = true;
			fc->base_ns = v;
		}
		return;
	}
	/* distributedInfo */
	if (tok_int(d, json_get(d, 0, "rank"), &v) && v >= 0 && v < 1000000000LL) {
		fc->r->rank = (int)v;
		fc->r->rank_from_meta = true;
	}
	if (tok_int(d, json_get(d, 0, "world_size"), &v))
		fc->r->world_size = (long)v;
}

static void on_error(void *ud, uint64_t off, const char *msg)
{
	struct file_ctx *fc = ud;
	diag_add(&fc->run->diags, DIAG_WARN, fc->r->path, -1, (long long)off, -1, "%s", msg);
}

struct load_job {
	struct load_ctx *ctx;
	struct run *run;
	struct pathvec *files;
	struct trace_rank **out;
};

static void on_progress(void *ud, long long bytes)
{
	struct file_ctx *fc = ud;
	load_progress(fc->ctx, bytes, 0);
}

static void load_one(void *ud, size_t i)
{
	struct load_job *job = ud;
	const char *path = job->files->v[i];
	struct stat st;
	long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
	size_t src = run_add_source(job->run, path, "kineto", -1, size);
	struct trace_rank *r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->rank = -1;
	r->world_size = -1;
	struct file_ctx fc = { .r = r, .run = job->run, .ctx = job->ctx };
	json_doc_init(&fc.doc);
	static const char *const meta_keys[] = { "distributedInfo", "baseTimeNanoseconds", NULL };
	const struct tscan_cb cb = {
		.event = on_event, .meta = on_meta, .meta_keys = meta_keys, .error = on_error,
		.progress = on_progress,
	};
	struct tscan_result res;
	tscan_file(path, &cb, &fc, &res);
	if (res.err)
		diag_add(&job->run->diags, DIAG_ERROR, path, -1, -1, -1, "cannot read: %s", strerror(res.err));
	else if (!res.found_events && !res.errors)
		diag_add(&job->run->diags, DIAG_WARN, path, -1, -1, -1, "no traceEvents array in this file");
	if (fc.ndiag > MAX_EVENT_DIAGS)
		diag_add(&job->run->diags, DIAG_WARN, path, -1, -1, -1,
			 "%zu more skipped events not listed", fc.ndiag - MAX_EVENT_DIAGS);
	if (fc.have_base) {
		for (size_t k = 0; k < r->nk; k++)
			r->k[k].ts += fc.base_ns;
		for (size_t k = 0; k < r->ncpu; k++)
			r->cpu[k].ts += fc.base_ns;
		for (size_t k = 0; k < r->nstep; k++)
			r->step[k].ts += fc.base_ns;
	}
	r->skipped = fc.skipped;
	run_source_done(job->run, src, fc.kept, fc.skipped, res.err, res.truncated);
	for (size_t k = 0; k < r->nnames; k++)
		free(fc.raw[k]);
	free(fc.raw);
	free(fc.rawlen);
	free(fc.slots);
	json_doc_free(&fc.doc);
	if (res.err || (!res.found_events && r->nk == 0)) {
		trace_rank_free(r);
		r = NULL;
	}
	job->out[i] = r;
}

/* ---- rank assignment and post-processing ----------------------------------- */

/* The number after "rank" or "worker" in the file's base name, or -1. */
static int rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	static const char *const keys[] = { "rank", "worker" };
	for (size_t k = 0; k < ARRAY_LEN(keys); k++) {
		size_t m = strlen(keys[k]);
		for (const char *p = base; *p; p++) {
			if (strncasecmp(p, keys[k], m) != 0)
				continue;
			const char *q = p + m;
			while (*q == '-' || *q == '_')
				q++;
			if (isdigit((unsigned char)*q))
				return (int)strtol(q, NULL, 10);
		}
	}
	return -1;
}

static bool rank_taken(const struct trace_set *ts, int rank, size_t upto)
{
	for (size_t i = 0; i < upto; i++)
		if (ts->r[i]->rank == rank)
			return true;
	return false;
}

static void assign_rank(struct run *run, struct trace_set *ts, size_t i)
{
	struct trace_rank *r = ts->r[i];
	if (r->rank >= 0 && !rank_taken(ts, r->rank, i))
		return;
	if (r->rank >= 0)
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "distributedInfo.rank %d is used by another trace", r->rank);
	int byname = rank_from_name(r->path);
	if (byname >= 0 && !rank_taken(ts, byname, i)) {
		if (!r->rank_from_meta)
			diag_add(&run->diags, DIAG_INFO, r->path, -1, -1, byname,
				 "no distributedInfo.rank; rank %d taken from the file name", byname);
		r->rank = byname;
		return;
	}
	int next = 0;
	while (rank_taken(ts, next, i))
		next++;
	diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, next,
		 "no usable rank in distributedInfo or the file name; rank %d from file order", next);
	r->rank = next;
}

static int rank_cmp(const void *a, const void *b)
{
	const struct trace_rank *x = *(struct trace_rank *const *)a, *y = *(struct trace_rank *const *)b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

struct pos_cpu {
	struct trace_cpu c;
	size_t pos;
};

static int pos_cpu_cmp(const void *a, const void *b)
{
	const struct pos_cpu *x = a, *y = b;
	if (x->c.corr != y->c.corr)
		return (x->c.corr > y->c.corr) - (x->c.corr < y->c.corr);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

const struct trace_cpu *trace_cpu_by_corr(const struct trace_rank *r, int64_t corr)
{
	size_t lo = 0, hi = r->ncpu;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->cpu[mid].corr <= corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && r->cpu[lo - 1].corr == corr ? &r->cpu[lo - 1] : NULL;
}

/* HTA add_iteration: the step whose [ts, ts+dur) holds the CPU event (last match). */
static int32_t step_of(const struct trace_rank *r, int64_t ts)
{
	long it = -1;
	for (size_t s = 0; s < r->nstep; s++)
		if (r->step[s].ts <= ts && ts < r->step[s].ts + r->step[s].dur)
			it = r->step[s].step;
	return (int32_t)it;
}

/* Sort the CPU events by correlation id, file order among equal ids. */
static void sort_cpu_stable(struct trace_rank *r)
{
	struct pos_cpu *tmp = xmalloc((r->ncpu + 1) * sizeof(*tmp));
	for (size_t i = 0; i < r->ncpu; i++)
		tmp[i] = (struct pos_cpu){ r->cpu[i], i };
	qsort(tmp, r->ncpu, sizeof(*tmp), pos_cpu_cmp);
	for (size_t i = 0; i < r->ncpu; i++)
		r->cpu[i] = tmp[i].c;
	free(tmp);
}

static void finish_rank(struct run *run, struct trace_set *ts, struct trace_rank *r)
{
	sort_cpu_stable(r);
	r->name_cls = xrealloc(r->name_cls, (r->nnames + 1) * sizeof(*r->name_cls));
	size_t ncomm = 0;
	for (size_t i = 0; i < r->nnames; i++)
		r->name_cls[i] = kclass_of(ts->cls, r->names[i]);
	for (size_t k = 0; k < r->nk; k++) {
		struct trace_kernel *e = &r->k[k];
		if (r->name_cls[e->name] == KC_COMMUNICATION)
			ncomm++;
		const struct trace_cpu *c = e->corr >= 0 ? trace_cpu_by_corr(r, e->corr) : NULL;
		e->iter = c ? step_of(r, c->ts) : -1;
	}
	if (r->nk > 0 && ncomm == 0)
		diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
			 "%zu GPU kernels but no communication kernel matched the classification table "
			 "(extend it with --kernel-classes); communication overlap is n/a", r->nk);
}

void trace_rank_free(struct trace_rank *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->name_cls);
	free(r->k);
	free(r->cpu);
	free(r->step);
	free(r->path);
	free(r->hta.kstat);
	free(r->hta.idle);
	free(r);
}

static struct trace_set *trace_set_get_or_new(struct run *run)
{
	if (run->trace)
		return run->trace;
	struct trace_set *ts = xcalloc(1, sizeof(*ts));
	pthread_mutex_init(&ts->lock, NULL);
	char err[1024];
	const char *file = run->opts ? run->opts->kernel_classes : NULL;
	ts->cls = kclass_new(file, err, sizeof(err));
	if (err[0])
		diag_add(&run->diags, DIAG_ERROR, file, -1, -1, -1, "--kernel-classes: %s", err);
	run->trace = ts;
	return ts;
}

static int load_files(struct load_ctx *ctx, struct pathvec *files)
{
	struct run *run = ctx->run;
	if (files->n == 0)
		return -1;
	long long total = 0;
	for (size_t i = 0; i < files->n; i++) {
		struct stat st;
		if (stat(files->v[i], &st) == 0)
			total += st.st_size;
	}
	load_progress(ctx, 0, total);
	struct trace_rank **out = xcalloc(files->n, sizeof(*out));
	struct load_job job = { .ctx = ctx, .run = run, .files = files, .out = out };
	pool_run(files->n, run->opts ? run->opts->jobs : 0, load_one, &job);
	struct trace_set *ts = NULL;
	size_t added = 0;
	for (size_t i = 0; i < files->n; i++) {
		if (!out[i])
			continue;
		ts = trace_set_get_or_new(run);
		xgrow((void **)&ts->r, &ts->cap, ts->n + 1, sizeof(*ts->r));
		ts->r[ts->n++] = out[i];
		assign_rank(run, ts, ts->n - 1);
		finish_rank(run, ts, out[i]);
		added++;
	}
	free(out);
	if (!ts)
		return -1;
	qsort(ts->r, ts->n, sizeof(*ts->r), rank_cmp);
	return added ? 0 : -1;
}

int trace_load(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	const struct opts *o = run->opts;
	struct pathvec files = { 0 };
	bool had_steps = run->steps != NULL; /* the pytscope loader ran first */
	if (o && o->ntrace > 0) {
		if (run->trace && run->trace->explicit_loaded)
			return 0;
		for (size_t i = 0; i < o->ntrace; i++)
			discover(o->trace_paths[i], &files, true);
	} else {
		discover(path, &files, true);
	}
	int rc = load_files(ctx, &files);
	if (rc == 0 && !had_steps)
		trace_publish_steps(run);
	if (o && o->ntrace > 0 && run->trace)
		run->trace->explicit_loaded = true;
	pathvec_free(&files);
	return rc;
}

void trace_free(struct run *run)
{
	struct trace_set *ts = run->trace;
	if (!ts)
		return;
	for (size_t i = 0; i < ts->n; i++)
		trace_rank_free(ts->r[i]);
	free(ts->r);
	kclass_free(ts->cls);
	pthread_mutex_destroy(&ts->lock);
	free(ts);
	run->trace = NULL;
}

struct trace_set *trace_get(struct run *run)
{
	return run ? run->trace : NULL;
}
