/* SPDX-License-Identifier: MIT */
/* load.c: decoding Kineto/Chrome trace files (found by load_discover.c) one event at a
 * time (load_scan.c hands each event over, load_event.c finds its fields and keeps span
 * halves until they pair, load_names.c interns the GPU events' names) into the per-rank
 * trace model (trace.h), rank assignment, and the load-time diagnostics (a GPU event
 * lasting far past the rank's profiled window among the skipped events; offsets in a
 * gzip file said to be of its decompressed data). */
#include "model/infile.h"
#include "model/trace/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "model/json.h"
#include "model/pool.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/trace/event.h"
#include "model/trace/load_names.h"
#include "model/trace/scan.h"
#include "model/units.h"
#include "model/xalloc.h"

#define MAX_EVENT_DIAGS 20

/* ---- per-file decoding ---------------------------------------------------- */

/* The rank's profiled window as read so far: from the first start of any event kept to
 * the last start, or end of a ProfilerStep or CPU event (host: one was read). A GPU
 * event's end is what is judged: one that ends past the window by more than
 * FAR_WINDOWS times the window's length, or by more than FAR_MAX_NS, is an absurd
 * duration (far_past; a late peer's collective lasting about the window is not). The
 * window only grows, so an event far past the final window was far past it when read:
 * those are kept as candidates (event index, offset) and judged once the file is read
 * (drop_far). */
#define FAR_WINDOWS 100
#define FAR_MAX_NS (3600LL * 1000000000LL)   /* an hour */
struct far_event {
	size_t k;
	uint64_t off;
};
struct window {
	int64_t lo, hi;
	bool any, host;
	struct far_event *far;
	size_t nfar, farcap;
};

struct file_ctx {
	struct trace_rank *r;
	struct diag_list *diags;   /* where this file's diagnostics go */
	struct load_ctx *ctx;
	const struct tscan_result *res;   /* the scan's (gz: offsets are into decompressed data) */
	struct json_doc doc;
	struct trace_names names;  /* the GPU events' names, by their raw bytes */
	struct window win;         /* the profiled window, GPU events far past it */
	bool have_base;
	int64_t base_ns;
	size_t ndiag;
	size_t skipped;
	size_t invalid;    /* events and metadata values that are not valid JSON */
	char *host_name;   /* top-level host_name (distributedInfo's hostname comes first) */
	const char *only;  /* --ranks: a rank its distributedInfo gives outside it ends the read */
	long long progressed; /* input bytes reported as progress */
	struct trace_devices devices; /* deviceProperties */
	uint64_t used_devices;        /* bit i: a GPU event's args.device was i */
	bool names_after_spans;       /* a metadata event (ph M) was read after the last span */
	struct tevent_open open;      /* span halves (ph B) waiting for their E */
	size_t unpaired;              /* span halves the analyses want without their other half */
	size_t nostream;              /* GPU events without a stream id (left out of HTA's set) */
};

/* The file's rank for its diagnostics: its distributedInfo's (read before the events), or -1. */
static int file_rank(const struct file_ctx *fc)
{
	return fc->r->rank_from_meta ? fc->r->rank : -1;
}

/* A warning on this file at document offset off. In a gzip file that offset is into the
 * decompressed data: the message says so, and the offset column (a byte of the file)
 * stays empty. */
static void offset_diag(const struct file_ctx *fc, uint64_t off, const char *msg)
{
	if (fc->res->gz)
		diag_add(fc->diags, DIAG_WARN, fc->r->path, -1, -1, file_rank(fc),
			 "%s (at byte %llu of the decompressed trace)", msg, (unsigned long long)off);
	else
		diag_add(fc->diags, DIAG_WARN, fc->r->path, -1, (long long)off, file_rank(fc), "%s", msg);
}

/* One of the first MAX_EVENT_DIAGS warnings on the file's events (the rest counted). */
static void file_diag(struct file_ctx *fc, uint64_t off, const char *fmt, const char *arg)
{
	if (fc->ndiag++ >= MAX_EVENT_DIAGS)
		return;
	char msg[384];
	snprintf(msg, sizeof(msg), fmt, arg);
	offset_diag(fc, off, msg);
}

static bool val_us(const struct val *v, int64_t *out)
{
	return (v->type == 'p' || v->type == 's') && trace_parse_us(v->p, v->n, out);
}

/* p[0..n) holds a decimal digit. */
static bool has_digit(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isdigit((unsigned char)p[i]))
			return true;
	return false;
}

/* Why val_us refuses a span's field (ts or dur), into why[n]: non-finite for NaN or
 * Infinity written out; out of range for digits too large, 1e400 (overflowing) too. */
static void us_problem(const struct val *v, const char *field, char *why, size_t n)
{
	double d;
	const char *fmt = !v->type ? "span event without a %s" :
			  (v->type != 'p' && v->type != 's') || !json_parse_double(v->p, v->n, &d) ?
			  "span event with a %s that is not a number" :
			  !isfinite(d) && !has_digit(v->p, v->n) ? "span event with a non-finite %s" :
			  "span event with a %s out of range";
	snprintf(why, n, fmt, field);
}

static bool val_int(const struct val *v, long long *out)
{
	double d;
	if ((v->type != 'p' && v->type != 's') || !json_parse_double(v->p, v->n, &d) ||
	    !(d > -9.2e18 && d < 9.2e18) || d != (double)(long long)d)
		return false;
	*out = (long long)d;
	return true;
}

/* ProfilerStep\s*#\s*(\d+) at the start of the name. */
static bool profiler_step(const struct val *v, long *step)
{
	const char *s = v->p;
	size_t n = v->n, i = 12;
	if (v->type != 's' || n < 13 || memcmp(s, "ProfilerStep", 12) != 0)
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || s[i++] != '#')
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || !isdigit((unsigned char)s[i]))
		return false;
	long x = 0;
	for (; i < n && isdigit((unsigned char)s[i]) && x < 100000000000L; i++)
		x = x * 10 + (s[i] - '0');
	*step = x;
	return true;
}

/* A GPU event's stream from its tid: the number (formats.md §2.3: the GPU tid is the
 * stream id), or the legacy "stream 7"; -1 otherwise. */
static int32_t tid_stream(const struct val *v)
{
	long long x;
	if (val_int(v, &x))
		return x >= 0 && x <= INT32_MAX ? (int32_t)x : -1;
	if (v->type != 's' || v->n < 8 || strncasecmp(v->p, "stream ", 7) != 0)
		return -1;
	x = 0;
	for (size_t i = 7; i < v->n && isdigit((unsigned char)v->p[i]) && x < 1000000000L; i++)
		x = x * 10 + (v->p[i] - '0');
	return (int32_t)x;
}

/* The GPU a GPU event ran on: args.device, else its pid (formats.md §2.3: the GPU pid is
 * the device id); -1 unknown. */
static int16_t event_device(const struct ev *ev)
{
	long long d;
	if (val_int(&ev->device, &d) && d >= 0 && d <= INT16_MAX)
		return (int16_t)d;
	if (!ev->device.type && val_int(&ev->pid, &d) && d >= 0 && d <= INT16_MAX)
		return (int16_t)d;
	return -1;
}

/* ---- keeping what the analyses need ---- */

static void window_add(struct window *w, int64_t lo, int64_t hi)
{
	w->lo = !w->any || lo < w->lo ? lo : w->lo;
	w->hi = !w->any || hi > w->hi ? hi : w->hi;
	w->any = true;
}

/* How far past the window's end a GPU event may end: FAR_WINDOWS times its length, at
 * most FAR_MAX_NS (no overflow). */
static int64_t far_limit(const struct window *w)
{
	int64_t len = w->hi - w->lo;
	return len >= FAR_MAX_NS / FAR_WINDOWS ? FAR_MAX_NS : len * FAR_WINDOWS;
}

/* A GPU event starting at ts, inside the window, ends past its end by more than
 * far_limit (no overflow: dur may be any int64). */
static bool far_past(const struct window *w, int64_t ts, int64_t dur)
{
	return dur - (w->hi - ts) > far_limit(w);
}

/* GPU event k (ts, dur) at document offset off. */
static void window_gpu(struct window *w, size_t k, int64_t ts, int64_t dur, uint64_t off)
{
	window_add(w, ts, ts);
	if (!far_past(w, ts, dur))
		return;
	xgrow((void **)&w->far, &w->farcap, w->nfar + 1, sizeof(*w->far));
	w->far[w->nfar++] = (struct far_event){ k, off };
}

static unsigned cat_flags(const char *c, size_t n);
enum { CAT_PYSEL = 1, CAT_GPU = 2, CAT_CPU_ONLY = 4 };

/* What the analyses need of a span whose ts and dur (ns) are read. */
static void keep_span(struct file_ctx *fc, const struct ev *ev, int64_t ts, int64_t dur, uint64_t off)
{
	long long stream = -1, corr = -1;
	if (!val_int(&ev->stream, &stream))
		stream = -1;
	if (!val_int(&ev->corr, &corr))
		corr = -1;
	unsigned cf = ev->cat.type == 's' ? cat_flags(ev->cat.p, ev->cat.n) : 0;
	bool gpu = cf & CAT_GPU, pysel = cf & CAT_PYSEL;
	if (stream < 0 && gpu)
		stream = tid_stream(&ev->tid);
	fc->nostream += gpu && stream < 0;
	long long dev;
	if (gpu && val_int(&ev->device, &dev) && dev >= 0 && dev < 64)
		fc->used_devices |= 1ULL << dev;
	struct trace_rank *r = fc->r;
	if (stream >= 0 || gpu || pysel) {
		xgrow((void **)&r->k, &r->kcap, r->nk + 1, sizeof(*r->k));
		r->k[r->nk++] = (struct trace_kernel){
			.ts = ts, .dur = dur, .corr = corr, .stream = (int32_t)stream, .iter = -1,
			.name = trace_names_intern(&fc->names, r, ev->name.p, ev->name.n, ev->doc, ev->name.tok),
			.device = event_device(ev), .flags = pysel ? TK_PYSEL : 0,
		};
		window_gpu(&fc->win, r->nk - 1, ts, dur, off);
		return;
	}
	long step;
	bool is_step = profiler_step(&ev->name, &step);
	if (is_step || corr >= 0) {
		window_add(&fc->win, ts, ts + dur);
		fc->win.host = true;
	}
	if (is_step) {
		xgrow((void **)&r->step, &r->stepcap, r->nstep + 1, sizeof(*r->step));
		r->step[r->nstep++] = (struct trace_step){ .step = step, .ts = ts, .dur = dur };
	}
	if (corr >= 0) {
		xgrow((void **)&r->cpu, &r->cpucap, r->ncpu + 1, sizeof(*r->cpu));
		r->cpu[r->ncpu++] = (struct trace_cpu){ .ts = ts, .dur = dur, .corr = corr };
	}
}

/* A span that cannot be read: counted and named. */
static void skip_span(struct file_ctx *fc, uint64_t off, const char *why)
{
	fc->skipped++;
	file_diag(fc, off, "%s; event skipped", why);
}

/* The GPU events that end far past the rank's profiled window (far_past): an absurd
 * duration (27.8 h in a run of milliseconds), which would take over every share of GPU
 * time; each is named, skipped and counted. Their names stay in the rank's name table, so
 * a skipped communication kernel still tells that the table matched one in the trace
 * (trace_rank_comm_kernels: its comm is not called unmatched). Only with a window from
 * the host (a ProfilerStep or CPU event): GPU events alone give no window to judge
 * against. */
static void drop_far(struct file_ctx *fc)
{
	struct window *w = &fc->win;
	struct trace_rank *r = fc->r;
	size_t ndrop = 0;
	for (size_t i = 0; i < w->nfar && w->host; i++) {
		struct trace_kernel *e = &r->k[w->far[i].k];
		if (!far_past(w, e->ts, e->dur))
			continue;
		char dur[32], span[32], limit[40] = "an hour", why[320];
		units_seconds((double)e->dur / 1e9, dur, sizeof(dur));
		units_seconds((double)(w->hi - w->lo) / 1e9, span, sizeof(span));
		if (far_limit(w) < FAR_MAX_NS)
			snprintf(limit, sizeof(limit), "%d times the window", FAR_WINDOWS);
		snprintf(why, sizeof(why), "GPU event \"%.80s\" lasts %s, past the end of the rank's profiled window "
			 "(%s: its ProfilerSteps, CPU events and GPU event starts) by more than %s",
			 r->names[e->name], dur, span, limit);
		skip_span(fc, w->far[i].off, why);
		e->dur = -1;   /* dropped below: a kept span never has a negative dur */
		ndrop++;
	}
	free(w->far);
	if (!ndrop)
		return;
	size_t m = 0;
	for (size_t k = 0; k < r->nk; k++)
		if (r->k[k].dur >= 0)
			r->k[m++] = r->k[k];
	r->nk = m;
}

/* A complete span (ph X). */
static void use_event(struct file_ctx *fc, const struct ev *ev, uint64_t off)
{
	int64_t ts, dur;
	char why[64] = "";
	if (ev->name.type != 's')
		snprintf(why, sizeof(why), "span event without a name");
	else if (!val_us(&ev->ts, &ts))
		us_problem(&ev->ts, "ts", why, sizeof(why));
	else if (!val_us(&ev->dur, &dur))
		us_problem(&ev->dur, "dur", why, sizeof(why));
	else if (dur < 0)
		snprintf(why, sizeof(why), "span event with a negative dur");
	if (why[0])
		skip_span(fc, off, why);
	else
		keep_span(fc, ev, ts, dur, off);
}

/* A span written in halves: its first (ph B) in b, its last (ph E) in e, which adds
 * the args b lacks (Chrome's trace format merges them). */
static void use_halves(struct file_ctx *fc, struct ev *b, const struct ev *e, uint64_t off)
{
	int64_t ts, end;
	char why[64] = "";
	if (b->name.type != 's')
		snprintf(why, sizeof(why), "span event without a name");
	else if (!val_us(&b->ts, &ts))
		us_problem(&b->ts, "ts", why, sizeof(why));
	else if (!val_us(&e->ts, &end))
		us_problem(&e->ts, "ts", why, sizeof(why));
	else if (end < ts)
		snprintf(why, sizeof(why), "span event that ends (ph E) before it begins");
	if (why[0]) {
		skip_span(fc, off, why);
		return;
	}
	struct val *mine[] = { &b->stream, &b->corr, &b->device };
	const struct val *theirs[] = { &e->stream, &e->corr, &e->device };
	for (size_t i = 0; i < ARRAY_LEN(mine); i++)
		if (!mine[i]->type)
			*mine[i] = *theirs[i];
	keep_span(fc, b, ts, end - ts, off);
}

/* The string value after key `key` (with quotes) in js, or NULL; *n gets its length. */
static const char *raw_string_value(const char *js, size_t len, const char *key, size_t klen, size_t *n)
{
	const char *k = memmem(js, len, key, klen);
	if (!k)
		return NULL;
	const char *p = k + klen, *end = js + len;
	while (p < end && (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	if (p >= end || *p != '"')
		return NULL;
	const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
	if (!q)
		return NULL;
	*n = (size_t)(q - p - 1);
	return p + 1;
}

/* Category flags from a category string (case-insensitive). */
static unsigned cat_flags(const char *c, size_t n)
{
	char low[48];
	if (n >= sizeof(low))
		n = sizeof(low) - 1;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)c[i]);
	low[n] = '\0';
	unsigned f = 0;
	if (strstr(low, "kernel") || strstr(low, "gpu_memcpy") || strstr(low, "gpu_memset"))
		f |= CAT_PYSEL;
	static const char *const gpu[] = { "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset" };
	for (size_t i = 0; i < ARRAY_LEN(gpu); i++)
		if (strcmp(low, gpu[i]) == 0)
			f |= CAT_GPU;
	/* categories that never carry a stream or correlation id */
	static const char *const cpu[] = {
		"cpu_op", "python_function", "user_annotation", "cpu_instant_event", "trace",
		"fwdbwd", "ac2g", "operator", "overhead", "async",
	};
	for (size_t i = 0; i < ARRAY_LEN(cpu); i++)
		if (strcmp(low, cpu[i]) == 0)
			f |= CAT_CPU_ONLY;
	return f;
}

/* Cheap pre-filter on a span's raw bytes: only GPU events, spans with a correlation or
 * stream id and ProfilerStep spans are decoded; plain CPU ops are skipped untouched. */
static bool event_wanted(const char *js, size_t len)
{
	size_t n;
	const char *cat = raw_string_value(js, len, "\"cat\"", 5, &n);
	unsigned f = cat ? cat_flags(cat, n) : 0;
	if (f & (CAT_PYSEL | CAT_GPU))
		return true;
	if (f & CAT_CPU_ONLY) {
		const char *name = raw_string_value(js, len, "\"name\"", 6, &n);
		return name && n >= 12 && memcmp(name, "ProfilerStep", 12) == 0;
	}
	return memmem(js, len, "\"correlation\"", 13) || memmem(js, len, "\"stream\"", 8) ||
	       memmem(js, len, "ProfilerStep", 12);
}

/* The fields of event js: the strict walk, else jsmn (into fc->doc); false for
 * invalid JSON, counted and named. */
static bool decode(struct file_ctx *fc, const char *js, size_t len, uint64_t off, struct ev *ev)
{
	if (tevent_fast(js, len, ev))
		return true;
	struct json_doc *d = &fc->doc;
	int rc = json_parse(d, js, len);
	if (rc < 0 || !json_is_object(d, 0)) {
		fc->skipped++;
		fc->invalid++;
		file_diag(fc, off, "invalid JSON in a trace event (%s); event skipped",
			  rc < 0 ? json_err_str(rc) : "not an object");
		return false;
	}
	tevent_fields(d, ev);
	return true;
}

/* Half of a span (ph B or E). Each B waits for the E on its pid and tid (the latest open
 * there: spans on a thread nest), a copy of its bytes kept when the analyses want it;
 * an E the analyses would want with no B to close is counted, as are the B left open at
 * the end (parse_file). */
static void on_half(struct file_ctx *fc, char ph, const char *js, size_t len, uint64_t off)
{
	bool wanted = event_wanted(js, len);
	struct ev ev;
	if ((ph == 'E' && fc->open.n == 0) || !decode(fc, js, len, off, &ev)) {
		fc->unpaired += ph == 'E' && fc->open.n == 0 && wanted;
		return;
	}
	if (ph == 'B') {
		tevent_open_add(&fc->open, &ev, wanted ? js : NULL, len, off);
		return;
	}
	char *bjs;
	size_t blen;
	uint64_t boff;
	if (!tevent_close(&fc->open, &ev, &bjs, &blen, &boff)) {
		fc->unpaired += wanted;
		return;
	}
	struct ev b; /* after the E's fields are read: decoding b may reuse fc->doc */
	if (bjs && decode(fc, bjs, blen, boff, &b))
		use_halves(fc, &b, &ev, boff);
	free(bjs);
}

static void on_event(void *ud, const char *js, size_t len, uint64_t off)
{
	struct file_ctx *fc = ud;
	size_t n;
	const char *ph = raw_string_value(js, len, "\"ph\"", 4, &n);
	if (!ph || n != 1)
		return;
	/* Kineto writes process and thread names (ph M) after every span: trace.h kernels_whole */
	if (*ph == 'M' || *ph == 'X' || *ph == 'B' || *ph == 'E')
		fc->names_after_spans = *ph == 'M';
	struct ev ev;
	if (*ph == 'B' || *ph == 'E')
		on_half(fc, *ph, js, len, off);
	else if (*ph == 'X' && event_wanted(js, len) && decode(fc, js, len, off, &ev))
		use_event(fc, &ev, off);
}

static bool tok_int(const struct json_doc *d, int t, long long *out)
{
	if (t < 0)
		return false;
	struct val v = tevent_tok(d, t);
	return val_int(&v, out);
}

static void on_meta(void *ud, const char *key, const char *js, size_t len, uint64_t off)
{
	struct file_ctx *fc = ud;
	struct json_doc *d = &fc->doc;
	if (json_parse(d, js, len) < 0) {
		fc->invalid++;
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
	if (strcmp(key, "deviceProperties") == 0) {
		trace_devices_read(&fc->devices, d);
		return;
	}
	if (strcmp(key, "cuda_runtime_version") == 0 || strcmp(key, "cuda_driver_version") == 0) {
		char **to = key[5] == 'r' ? &fc->r->cuda_runtime : &fc->r->cuda_driver;
		if (tok_int(d, 0, &v)) {
			free(*to);
			*to = xasprintf("%lld", v);
		}
		return;
	}
	if (strcmp(key, "host_name") == 0) { /* Kineto's top-level metadata: after distributedInfo's */
		if (json_is_string(d, 0) && d->tok[0].end > d->tok[0].start) {
			free(fc->host_name);
			fc->host_name = json_strdup(d, 0);
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
	int be = json_get(d, 0, "backend");
	if (be >= 0 && json_is_string(d, be) && d->tok[be].end > d->tok[be].start) {
		free(fc->r->backend);
		fc->r->backend = json_strdup(d, be);
	}
	static const char *const host_keys[] = { "hostname", "host", "node", "nodename" };
	for (size_t k = 0; k < ARRAY_LEN(host_keys) && !fc->r->host; k++) {
		int h = json_get(d, 0, host_keys[k]);
		if (h >= 0 && json_is_string(d, h) && d->tok[h].end > d->tok[h].start)
			fc->r->host = json_strdup(d, h);
	}
}

static void on_error(void *ud, uint64_t off, const char *msg)
{
	offset_diag(ud, off, msg);
}

struct load_job {
	struct load_ctx *ctx;
	struct run *run;
	struct trace_pathvec *files;
	struct trace_rank **out;
};

static void on_progress(void *ud, long long bytes)
{
	struct file_ctx *fc = ud;
	fc->progressed += bytes;
	load_progress(fc->ctx, bytes, 0);
}

/* A trace whose distributedInfo names a rank --ranks leaves out is read no further
 * (Kineto writes distributedInfo before traceEvents). */
static bool on_enough(void *ud)
{
	struct file_ctx *fc = ud;
	return fc->only && fc->r->rank_from_meta && !ranklist_has(fc->only, fc->r->rank);
}

static bool on_cancelled(void *ud)
{
	struct file_ctx *fc = ud;
	return load_cancelled(fc->ctx);
}

/* A gzip trailer that does not match the data (res->bad_check) while the document read
 * holds invalid JSON (invalid events or values, or scan errors besides that one): the
 * data is corrupt inside, which zlib finds only at the end, and any event may be lost.
 * Then res is truncated, said in a diagnostic (a file read as partial, no GPU event known
 * whole); a document read whole keeps the trailer's warning alone. */
static bool gz_corrupt_inside(struct diag_list *diags, const char *path, struct tscan_result *res, size_t invalid)
{
	if (!res->bad_check || (invalid == 0 && res->errors <= 1))
		return false;
	res->truncated = true;
	diag_add(diags, DIAG_WARN, path, -1, -1, -1, "the gzip data does not match its trailer and what it "
		 "inflates to is not valid JSON throughout: corrupt, read as a partial file");
	return true;
}

/* The GPU events of fc's file that the analyses cannot all read: the span halves (ph B
 * or E) left without their other half (counted as skipped), and the GPU events without
 * a stream id, which HTA's analyses leave out (pytscope's summary reads them). */
static void note_unread(struct file_ctx *fc, struct diag_list *diags, const char *path)
{
	fc->unpaired += tevent_open_free(&fc->open);
	fc->skipped += fc->unpaired;
	if (fc->unpaired)
		diag_add(diags, DIAG_WARN, path, -1, -1, file_rank(fc), "%zu span event %s (ph B or E) without "
			 "the other half on the same pid and tid; not read", fc->unpaired, fc->unpaired == 1 ? "half" : "halves");
	if (fc->nostream)
		diag_add(diags, DIAG_WARN, path, -1, -1, file_rank(fc), "%zu GPU event%s without a stream id (args.stream, "
			 "or a tid that is one): left out of HTA's analyses (GPU time, idle, kernels)", fc->nostream,
			 fc->nostream == 1 ? "" : "s");
}

/* Decode one trace file into a new rank (not finished: trace_finish_rank), its
 * diagnostics into diags; *res says what was read. NULL when the file gave nothing.
 * With only (--ranks), a file whose distributedInfo gives a rank the list does not name
 * is read no further: a rank without events, `peeked` (its progress counted whole: the
 * file's size bytes, -1 unknown). */
static struct trace_rank *parse_file(struct load_ctx *ctx, struct diag_list *diags, const char *path,
				     const char *only, long long size, struct tscan_result *res, size_t *skipped)
{
	struct trace_rank *r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->rank = -1;
	r->world_size = -1;
	struct file_ctx fc = { .r = r, .diags = diags, .ctx = ctx, .only = only, .res = res };
	json_doc_init(&fc.doc);
	static const char *const meta_keys[] = { "distributedInfo", "baseTimeNanoseconds", "host_name",
						 "deviceProperties", "cuda_runtime_version", "cuda_driver_version", NULL };
	const struct tscan_cb cb = {
		.event = on_event, .meta = on_meta, .meta_keys = meta_keys, .error = on_error,
		.progress = on_progress, .cancelled = on_cancelled, .enough = on_enough,
	};
	tscan_file(path, &cb, &fc, res);
	r->peeked = res->ended;
	if (r->peeked && size > fc.progressed)
		load_progress(ctx, size - fc.progressed, 0);
	if (res->err)
		diag_add(diags, DIAG_ERROR, path, -1, -1, -1, "cannot read: %s", infile_strerror(res->err));
	else if (!res->found_events && !res->errors && !res->ended)
		diag_add(diags, DIAG_WARN, path, -1, -1, -1, "no traceEvents array in this file");
	drop_far(&fc);
	if (fc.ndiag > MAX_EVENT_DIAGS)
		diag_add(diags, DIAG_WARN, path, -1, -1, -1, "%zu more skipped events not listed",
			 fc.ndiag - MAX_EVENT_DIAGS);
	note_unread(&fc, diags, path);
	if (fc.have_base) {
		r->base_ns = fc.base_ns;
		for (size_t k = 0; k < r->nk; k++)
			r->k[k].ts += fc.base_ns;
		for (size_t k = 0; k < r->ncpu; k++)
			r->cpu[k].ts += fc.base_ns;
		for (size_t k = 0; k < r->nstep; k++)
			r->step[k].ts += fc.base_ns;
	}
	if (!r->host) {
		r->host = fc.host_name;
		fc.host_name = NULL;
	}
	free(fc.host_name);
	if (!r->host)
		r->host = trace_host_from_name(path);
	r->skipped = *skipped = fc.skipped + res->oversized; /* an event over the cap: named by the scan */
	bool corrupt = gz_corrupt_inside(diags, path, res, fc.invalid);
	r->truncated = res->truncated;
	r->kernels_whole = res->truncated && fc.names_after_spans && !corrupt && !res->corrupt;
	r->gpu = trace_devices_gpu(&fc.devices, fc.used_devices);
	r->ngpus = (int)fc.devices.total;
	r->device = fc.used_devices ? __builtin_ctzll(fc.used_devices) : -1;
	trace_devices_free(&fc.devices);
	trace_names_free(&fc.names, r);
	json_doc_free(&fc.doc);
	if (res->err || (!res->found_events && r->nk == 0 && !r->peeked)) {
		trace_rank_free(r);
		r = NULL;
	}
	return r;
}

static void load_one(void *ud, size_t i)
{
	struct load_job *job = ud;
	if (job->out[i]) /* restored from the index */
		return;
	const char *path = job->files->v[i];
	struct stat st;
	long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
	size_t src = run_add_source(job->run, path, "kineto", -1, size);
	struct tscan_result res;
	size_t skipped;
	struct trace_rank *r = parse_file(job->ctx, &job->run->diags, path, job->files->only, size, &res,
					  &skipped);
	run_source_done(job->run, src, res.events + res.oversized - skipped, skipped, res.err, res.truncated);
	if (!r && !res.err && !res.found_events) {   /* its diagnostic says the same */
		pthread_mutex_lock(&job->run->lock);
		run_refuse(job->run, NULL, (long)src, res.corrupt ? "skipped: corrupt gzip data, nothing read"
				  : "skipped: no traceEvents array in this file");
		pthread_mutex_unlock(&job->run->lock);
	}
	if (r) {
		r->src = src;
		r->file_size = size;
		r->file_mtime_ns = size >= 0 ? infile_mtime_ns(&st) : 0;
	}
	job->out[i] = r;
}

struct trace_rank *trace_parse_file(struct run *run, struct diag_list *diags, const char *path)
{
	struct load_ctx ctx = { .run = run, .opts = run->opts };
	struct tscan_result res;
	size_t skipped;
	return parse_file(&ctx, diags, path, NULL, -1, &res, &skipped);
}

/* The ranks a load added (ts->r[n0..], parsed or restored from the index, their ranks
 * assigned): with --ranks, those of ranks the list does not name (a trace outside the
 * rank dirs tells its rank once read) are left out, counted and the first few named in
 * files; the others are finished (a restored rank was when it was indexed). Returns those
 * kept. */
static size_t keep_listed(struct run *run, struct trace_set *ts, size_t n0, struct trace_pathvec *files)
{
	size_t k = n0;
	for (size_t i = n0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		if (files->only && !ranklist_has(files->only, r->rank)) {
			char *names = files->dropped_names;
			size_t used = strlen(names);
			if (files->dropped++ < 3)
				snprintf(names + used, sizeof(files->dropped_names) - used, "%srank %d %.100s",
					 used ? ", " : "", r->rank, r->path);
			files->left_out++;
			pthread_mutex_lock(&run->lock);
			run->src[r->src].left_out = true;
			pthread_mutex_unlock(&run->lock);
			trace_rank_free(r);
			continue;
		}
		if (!r->lazy)
			trace_finish_rank(&run->diags, ts, r);
		ts->r[k++] = r;
	}
	ts->n = k;
	return k - n0;
}

/* Parse the files (out[i] NULL; else file i's rank restored from the index, late what
 * waits for its rank: trace_index_restore) and assign the ranks of them all in file order. */
static int load_files(struct load_ctx *ctx, struct trace_pathvec *files, struct trace_rank **out,
		      struct trace_late *late)
{
	struct run *run = ctx->run;
	if (files->n == 0)
		return -1;
	long long total = 0;
	for (size_t i = 0; i < files->n; i++) {
		struct stat st;
		if (!out[i] && stat(files->v[i], &st) == 0)
			total += st.st_size;
	}
	load_progress(ctx, 0, total);
	struct load_job job = { .ctx = ctx, .run = run, .files = files, .out = out };
	pool_run(files->n, run->opts ? run->opts->jobs : 0, load_one, &job);
	struct trace_set *ts = NULL;
	size_t n0 = run->trace ? run->trace->n : 0;
	for (size_t i = 0; i < files->n; i++) {
		if (!out[i])
			continue;
		ts = trace_set_get_or_new(run);
		xgrow((void **)&ts->r, &ts->cap, ts->n + 1, sizeof(*ts->r));
		ts->r[ts->n++] = out[i];
	}
	if (!ts)
		return -1;
	trace_drop_foreign(run, ts, n0);
	trace_assign_ranks(run, ts, n0, files->n == 1 && n0 == 0);
	pthread_mutex_lock(&run->lock); /* the Sources view shows the rank */
	for (size_t i = n0; i < ts->n; i++)
		run->src[ts->r[i]->src].rank = ts->r[i]->rank;
	pthread_mutex_unlock(&run->lock);
	size_t added = keep_listed(run, ts, n0, files);
	trace_index_late(run, ts, n0, late);
	qsort(ts->r, ts->n, sizeof(*ts->r), trace_rank_cmp);
	return added ? 0 : -1;
}

/* path is the first PATH run_open() reads (the first that exists): the --trace paths are
 * read there, once for the run. */
static bool first_path(const struct run *run, const char *path)
{
	for (size_t i = 0; i < run->npaths; i++) {
		struct stat st;
		if (stat(run->paths[i], &st) == 0)
			return strcmp(run->paths[i], path) == 0;
	}
	return true;
}

/* Some rank of m has a step record (a steps.jsonl gave one). */
static bool steps_recorded(const struct steps_model *m)
{
	for (size_t ri = 0; ri < steps_nranks(m); ri++)
		if (steps_nrecords(m, ri) > 0)
			return true;
	return false;
}

int trace_load(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	const struct opts *o = run->opts;
	struct trace_pathvec files = { 0 };
	/* the pytscope loader ran first (steps an earlier PATH's traces published are made
	 * again with this PATH's: trace files given one by one are one run): it read the rank
	 * dirs (named, counted) and run.json; the steps are its own when some rank has a step
	 * record, else the traces' ProfilerSteps are published into its model (not in a
	 * shard's index build: it read the step logs of its ranks alone) */
	bool pytscope_dirs = run->steps != NULL && !trace_steps_only(run);
	bool had_steps = pytscope_dirs && ((o && o->shard_n) || steps_recorded(run->steps));
	bool indexed = false;
	size_t restored = 0;
	if (o && o->ntrace > 0) {
		if (!first_path(run, path))
			return run->trace ? 0 : -1;
		trace_discover_explicit(run, o, &files);
	} else {
		files.only = o ? o->ranks : NULL;
		trace_discover(path, &files, true, o);
		trace_note_unread(run, path, &files);
		indexed = trace_index_usable(run, path);
	}
	trace_note_unlisted(run, &files, pytscope_dirs && !(o && o->ntrace > 0));
	/* the run dir's own trace, as discovery takes it: alone (the index may take it over) */
	char *own = !(o && o->ntrace > 0) && pytscope_dirs && files.n == 1 &&
		    trace_pytscope_trace_of(files.v[0], path) ? xstrdup(files.v[0]) : NULL;
	if (indexed && o && o->shard_n)
		trace_index_shard(path, files.v, &files.n, o->shard_k, o->shard_n);
	struct trace_rank **held = xcalloc(files.n ? files.n : 1, sizeof(*held));
	struct trace_late *late = NULL;
	if (indexed && files.n && !(o && (o->index_build || o->shard_n)))
		restored = trace_index_restore(run, path, files.v, files.n, held, &late);
	long long parsed = 0;
	for (size_t i = 0; i < files.n; i++) {
		struct stat st;
		parsed += !held[i] && stat(files.v[i], &st) == 0 ? (long long)st.st_size : 0;
	}
	int rc = load_files(ctx, &files, held, late);
	free(held);
	if (run->trace && !pytscope_dirs) /* with step logs, their loader counts the rank dirs */
		run->trace->left_out += files.left_out;
	if (files.dropped)
		diag_add(&run->diags, DIAG_INFO, path, -1, -1, -1, "%zu trace%s left out: not of a rank --ranks %s "
			 "names (%s%s)", files.dropped, files.dropped == 1 ? "" : "s", files.only,
			 files.dropped_names, files.dropped > 3 ? ", ..." : "");
	if (run->trace)
		trace_filter_check(run->trace);
	if (rc == 0 && indexed && files.n > restored && trace_index_want(run, parsed) && !load_cancelled(ctx))
		trace_index_save(run, path);
	if (own)
		trace_note_own(run, own);
	free(own);
	if (rc == 0 && !had_steps)
		trace_publish_steps(run);
	trace_pathvec_free(&files);
	return rc;
}
