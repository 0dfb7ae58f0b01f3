/* SPDX-License-Identifier: MIT */
/* load.c: the DASF loader. Reads EventProfiler databases (length-prefixed
 * MessagePack records: an 8-byte big-endian length, then one msgpack map) and the
 * legacy `trace: {json}` text format (each line packed as a record by load_legacy.c),
 * file after file in the order given, into the run's struct dasf_db (internal.h). One
 * pass over each record (load_mp.c) validates it and finds the fields the analyses use,
 * which are read in place: nothing is allocated per record, so a hostile count cannot
 * make it allocate; a bad length (past the file's end, or framing bytes that are not one
 * record while a plausible record begins inside them) resynchronises on the next
 * plausible record; a truncated tail ends the file with a warning. Values the analyses
 * cannot use (a gpu_utilization that is not a number from 0 to 100, a negative size) are
 * left out and counted in one diagnostic a file; a Compute event whose duration is no
 * usable number (absent, nil, NaN, negative, infinite) keeps its task, its time missing,
 * with a diagnostic at its offset; one skipped (no args map, string key or name, numeric
 * timestamp) is counted as a task whose time is unknown (db->lost). Files are read with
 * pread through a sliding window (never mmap: a database that shrinks while it loads,
 * being rotated or rewritten, must end the file early, not raise SIGBUS). The bytes of
 * every database of the run's PATHs are in the load's total before the first is read
 * (model/byteplan.h), each file's corrected at its open and its end when its size changed;
 * a cancelled load opens no further file. Nothing here prints or exits: problems become
 * diagnostics. */
#include "model/dasf/dasf.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/byteplan.h"
#include "model/dasf/internal.h"
#include "model/dirlist.h"
#include "model/json.h"
#include "model/run.h"
#include "model/xalloc.h"

#define LEGACY_PREFIX "trace: "
#define MAX_UNKNOWN_NAMES 16
#define WINDOW ((size_t)256 << 10) /* bytes read per pread refill (more for a larger record) */

/* A database image: a caller's buffer, or a file read through a window that slides
 * forward. size is what is believed to exist; a short read (the file shrank) lowers it
 * to what could be read, so the walk ends there. Memory: the window, at most the
 * largest record + 8 bytes or WINDOW, whatever the file size (a legacy text file is
 * read whole). */
struct image {
	const unsigned char *mem; /* the whole image, or NULL for a file */
	int fd;
	size_t size;
	unsigned char *win;
	size_t woff, wlen, wcap;
	int err;                  /* read error that ended the image early */
	bool shrank;              /* the file ended before its size at open */
};

/* Bytes [off, off + n) of the image, or NULL when they are not all there. */
static const unsigned char *img_at(struct image *im, size_t off, size_t n)
{
	if (off > im->size || n > im->size - off)
		return NULL;
	if (im->mem)
		return im->mem + off;
	if (im->win && off >= im->woff && n <= im->wlen && off - im->woff <= im->wlen - n)
		return im->win + (off - im->woff);
	size_t want = n > WINDOW ? n : WINDOW;
	if (want > im->size - off)
		want = im->size - off;
	if (want > im->wcap) {
		free(im->win); /* nothing in it is needed any more */
		im->win = xmalloc(want);
		im->wcap = want;
	}
	size_t got = 0;
	while (got < want) {
		ssize_t r = pread(im->fd, im->win + got, want - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				im->err = errno;
			break;
		}
		got += (size_t)r;
	}
	im->woff = off;
	im->wlen = got;
	if (got < want) {
		im->size = off + got;
		im->shrank = im->err == 0;
	}
	return got >= n ? im->win : NULL;
}

/* Values of one kind a file holds that the analyses cannot use: how many, and the first
 * (its record's offset and what it was), for one diagnostic a file. */
struct tally {
	size_t n;
	long long off;
	char first[32];
};

/* Per-file decoding state. */
struct dasf_file_ctx {
	struct load_ctx *ctx;
	struct dasf_db *db;
	const char *path;
	uint32_t file;
	bool legacy;            /* times in milliseconds, args under "data" */
	size_t records, skipped;
	size_t no_gpu;          /* Resource Usage without gpu_utilization in this file */
	long long no_gpu_off;
	struct tally bad_util;  /* gpu_utilization not a number from 0 to 100: not GPU samples */
	struct tally bad_mem;   /* gpu_memory_used not a finite number >= 0: memory missing */
	struct tally neg_size;  /* a negative args.size (Compute, Managed Memory): size missing */
	uint32_t unknown[MAX_UNKNOWN_NAMES]; /* distinct other event names (strs ids) */
	long long unknown_off[MAX_UNKNOWN_NAMES];
	size_t unknown_n[MAX_UNKNOWN_NAMES];
	size_t nunknown, unknown_more;
	uint32_t last_host, last_thread, last_name; /* strs ids of the previous event (a cache) */
	uint32_t last_type, last_shape;
};

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static bool is_map_marker(unsigned char m)
{
	return (m >= 0x80 && m <= 0x8f) || m == 0xde || m == 0xdf;
}

/* A plausible record starts at off: sane length, fits, and is one well-formed map. */
static bool plausible_record(struct image *im, size_t off)
{
	const unsigned char *h = img_at(im, off, 9);
	if (!h)
		return false;
	uint64_t len = be(h, 8);
	if (len < 1 || len > DASF_MAX_RECORD || len > im->size - off - 8 || !is_map_marker(h[8]))
		return false;
	const unsigned char *rec = img_at(im, off, 8 + (size_t)len); /* one range: the window stays */
	struct dasf_rec r;
	return rec && dasf_rec_scan(rec + 8, (size_t)len, false, &r) != DASF_REC_MALFORMED;
}

/* ---- ingest one record's fields ---- */

/* Intern a str or int the way Python's str() shows it; nil and absent become "None"
 * and "0" (DASF's defaults); other types "?". */
static uint32_t intern_text(struct dasf_intern *in, const struct dasf_rec *r, const unsigned char *v,
			    const char *absent)
{
	char buf[32];
	const char *s;
	size_t n;
	long long i;
	unsigned long long u;
	if (!v)
		return dasf_intern(in, absent, strlen(absent));
	if (dasf_mp_str(r, v, &s, &n))
		return dasf_intern(in, s, n);
	if (dasf_mp_uint(v, &u))
		snprintf(buf, sizeof(buf), "%llu", u);
	else if (dasf_mp_int(v, &i))
		snprintf(buf, sizeof(buf), "%lld", i);
	else
		snprintf(buf, sizeof(buf), "%s", dasf_mp_is_nil(v) ? "None" : "?");
	return dasf_intern(in, buf, strlen(buf));
}

/* intern_text through a one-entry cache: hosts, threads and names repeat from event to event. */
static uint32_t intern_cached(struct dasf_intern *in, uint32_t *last, const struct dasf_rec *r,
			      const unsigned char *v, const char *absent)
{
	const char *s;
	size_t n;
	if (*last != DASF_NONE && dasf_mp_str(r, v, &s, &n) && in->len[*last] == n && memcmp(in->str[*last], s, n) == 0)
		return *last;
	*last = intern_text(in, r, v, absent);
	return *last;
}

/* v in decimal at p (no NUL); returns the length (at most 20). */
static size_t put_ll(char *p, long long v)
{
	char tmp[24];
	size_t k = 0, n = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		tmp[k++] = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		p[n++] = '-';
	while (k)
		p[n++] = tmp[--k];
	return n;
}

/* Shape as Python prints a tuple: "()", "(3,)", "(2, 3)" (no printf: one per task);
 * *last caches the previous task's shape. */
static uint32_t intern_shape(struct dasf_intern *in, uint32_t *last, const struct dasf_rec *r,
			     const unsigned char *v)
{
	const unsigned char *e;
	uint32_t count = dasf_mp_array(v, &e);
	if (count == DASF_NONE)
		return DASF_NONE;
	char buf[256];
	size_t n = 0;
	buf[n++] = '(';
	for (uint32_t i = 0; i < count && n < sizeof(buf) - 32; i++, e = dasf_mp_next(r, e)) {
		long long x;
		if (!dasf_mp_int(e, &x))
			return DASF_NONE;
		if (i) {
			buf[n++] = ',';
			buf[n++] = ' ';
		}
		n += put_ll(buf + n, x);
	}
	if (count == 1)
		buf[n++] = ',';
	buf[n++] = ')';
	if (*last == DASF_NONE || in->len[*last] != n || memcmp(in->str[*last], buf, n) != 0)
		*last = dasf_intern(in, buf, n);
	return *last;
}

static int skip_record(struct dasf_file_ctx *fc, long long off, const char *why, const char *what)
{
	fc->skipped++;
	diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, off, -1, "%s%s%s%s", why,
		 what ? " '" : "", what ? what : "", what ? "'" : "");
	return -1;
}

/* A Compute event skipped (`lacks`: why): a task that ran, its time unknown (db->lost). */
static void lose_compute(struct dasf_file_ctx *fc, const char *lacks)
{
	if (!fc->db->lost++)
		fc->db->lost_lacks = lacks;
}

/* Count value v (at the record at off) in t, keeping the first one's offset and text. */
static void tally_add(struct tally *t, long long off, const unsigned char *v)
{
	double x;
	if (t->n++)
		return;
	t->off = off;
	if (dasf_mp_number(v, &x))
		snprintf(t->first, sizeof(t->first), "%g", x);
	else
		snprintf(t->first, sizeof(t->first), "%s", dasf_mp_kind(v));
}

/* args.size v as bytes: false when absent, not an integer, or negative (then counted). */
static bool size_of(struct dasf_file_ctx *fc, const unsigned char *v, long long off, long long *bytes)
{
	if (!dasf_mp_int(v, bytes))
		return false;
	if (*bytes >= 0)
		return true;
	tally_add(&fc->neg_size, off, v);
	return false;
}

/* Edge keys hashed, with their table slots prefetched, before a task's other strings are
 * interned: new keys (a task's dependents, mostly) then do not wait on memory. */
#define EDGE_AHEAD 8

/* Hashes of the first EDGE_AHEAD string elements of array v into h; returns how many. */
static uint32_t hash_ahead(struct dasf_db *db, const struct dasf_rec *r, const unsigned char *v, uint32_t *h)
{
	const unsigned char *e;
	uint32_t n = dasf_mp_array(v, &e), k = 0;
	for (uint32_t i = 0; n != DASF_NONE && i < n && k < EDGE_AHEAD; i++, e = dasf_mp_next(r, e)) {
		const char *s;
		size_t len;
		if (dasf_mp_str(r, e, &s, &len)) {
			h[k] = dasf_hash(s, len);
			dasf_intern_prefetch(&db->keys, h[k++]);
		}
	}
	return k;
}

/* Intern the string elements of array v as edges; the first nh hashes are in h. */
static void push_keys(struct dasf_db *db, const struct dasf_rec *r, const unsigned char *v, const uint32_t *h,
		      uint32_t nh, uint32_t *count)
{
	const unsigned char *e;
	uint32_t n = dasf_mp_array(v, &e);
	*count = 0;
	if (n == DASF_NONE)
		return;
	xgrow((void **)&db->edges, &db->edgecap, db->nedges + n, sizeof(*db->edges));
	for (uint32_t i = 0; i < n; i++, e = dasf_mp_next(r, e)) {
		const char *s;
		size_t len;
		if (!dasf_mp_str(r, e, &s, &len))
			continue;
		uint32_t hash = *count < nh ? h[*count] : dasf_hash(s, len);
		db->edges[db->nedges++] = dasf_intern_hashed(&db->keys, s, len, hash);
		(*count)++;
	}
}

/* The duration of the Compute event at off in seconds, NaN when it has none that is a
 * number (absent, nil, a string: the task ran, its time is unknown); warned of when the
 * analyses cannot count it (dasf_dur_usable). */
static double compute_duration(struct dasf_file_ctx *fc, const struct dasf_rec *r, long long off)
{
	double dur;
	if (!dasf_mp_number(r->duration, &dur)) {
		diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, off, -1,
			 "Compute event without a numeric 'duration' (%s): its task time is counted as missing",
			 r->duration ? dasf_mp_kind(r->duration) : "absent");
		return NAN;
	}
	if (fc->legacy)
		dur /= 1000.0;
	if (!dasf_dur_usable(dur))
		diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, off, -1,
			 "Compute event with an unusable duration (%g s: %s): its task time is counted as missing",
			 dur, isnan(dur) ? "not a number" : dur < 0 ? "negative" : "infinite");
	return dur;
}

static int ingest_compute(struct dasf_file_ctx *fc, const struct dasf_rec *r, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	const char *key, *name;
	size_t klen, nlen;
	bool has_key = dasf_mp_str(r, r->key, &key, &klen), has_name = dasf_mp_str(r, r->fn, &name, &nlen);
	if (!has_key || !has_name) {
		lose_compute(fc, !has_key ? "without string args 'key'" : "without string args 'name'");
		return skip_record(fc, off, "Compute event without string args", !has_key ? "key" : "name");
	}
	double dur = compute_duration(fc, r, off);
	uint32_t hdep[EDGE_AHEAD], hdnt[EDGE_AHEAD];
	uint32_t ndep = hash_ahead(db, r, r->deps, hdep), ndnt = hash_ahead(db, r, r->dnts, hdnt);
	xgrow((void **)&db->task, &db->taskcap, db->ntask + 1, sizeof(*db->task));
	struct dasf_task *t = &db->task[db->ntask++];
	*t = (struct dasf_task){ .ts = ts, .dur = dur, .file = fc->file, .edge = (uint32_t)db->nedges };
	/* interned in this order (ids are first-seen order) */
	t->host = intern_cached(&db->strs, &fc->last_host, r, r->process_id, "0");
	t->thread = intern_cached(&db->strs, &fc->last_thread, r, r->thread_id, "None");
	t->name = intern_cached(&db->strs, &fc->last_name, r, r->fn, "");
	t->key = dasf_intern(&db->keys, key, klen);
	t->type = dasf_mp_str(r, r->type, &name, &nlen) ? intern_cached(&db->strs, &fc->last_type, r, r->type, "") :
		  DASF_NONE;
	t->shape = intern_shape(&db->strs, &fc->last_shape, r, r->shape);
	t->has_size = size_of(fc, r->size, off, &t->size);
	push_keys(db, r, r->deps, hdep, ndep, &t->ndeps);
	push_keys(db, r, r->dnts, hdnt, ndnt, &t->ndnts);
	return 0;
}

static int ingest_memory(struct dasf_file_ctx *fc, const struct dasf_rec *r, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	long long tasks;
	if (!dasf_mp_int(r->tasks, &tasks))
		return skip_record(fc, off, "Managed Memory event without an integer", "tasks");
	char why[80];
	if (tasks < 0) {
		snprintf(why, sizeof(why), "Managed Memory event with a negative tasks count (%lld)", tasks);
		return skip_record(fc, off, why, NULL);
	}
	if (isfinite(ts) && fabs(ts) > DASF_MEM_TS_MAX) { /* task_balance cannot place it (NaN, inf: kept) */
		snprintf(why, sizeof(why), "Managed Memory event with a timestamp too far from 0 (%g s)", ts);
		return skip_record(fc, off, why, NULL);
	}
	xgrow((void **)&db->mem, &db->memcap, db->nmem + 1, sizeof(*db->mem));
	struct dasf_mem *m = &db->mem[db->nmem++];
	*m = (struct dasf_mem){ .ts = ts, .tasks = tasks };
	m->host = intern_cached(&db->strs, &fc->last_host, r, r->process_id, "0");
	m->thread = intern_cached(&db->strs, &fc->last_thread, r, r->thread_id, "None");
	m->has_bytes = size_of(fc, r->size, off, &m->bytes);
	return 0;
}

static void ingest_resource(struct dasf_file_ctx *fc, const struct dasf_rec *r, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	double util, mem = 0;
	if (!r->gpu_util) {
		if (!fc->no_gpu++)
			fc->no_gpu_off = off;
		db->res_no_gpu++;
		return;
	}
	if (!dasf_mp_number(r->gpu_util, &util) || !(util >= 0 && util <= 100)) {
		tally_add(&fc->bad_util, off, r->gpu_util);
		return;
	}
	bool has_mem = dasf_mp_number(r->gpu_mem, &mem) && mem >= 0 && isfinite(mem);
	if (r->gpu_mem && !has_mem)
		tally_add(&fc->bad_mem, off, r->gpu_mem);
	xgrow((void **)&db->res, &db->rescap, db->nres + 1, sizeof(*db->res));
	db->res[db->nres++] = (struct dasf_res){
		.ts = ts, .gpu_util = util, .gpu_mem = mem, .has_mem = has_mem,
		.host = intern_cached(&db->strs, &fc->last_host, r, r->process_id, "0"),
	};
}

static void note_unknown(struct dasf_file_ctx *fc, const char *name, size_t len, long long off)
{
	uint32_t id = dasf_intern(&fc->db->strs, name, len);
	fc->db->other_events++;
	for (size_t i = 0; i < fc->nunknown; i++)
		if (fc->unknown[i] == id) {
			fc->unknown_n[i]++;
			return;
		}
	if (fc->nunknown == MAX_UNKNOWN_NAMES) {
		fc->unknown_more++;
		return;
	}
	fc->unknown[fc->nunknown] = id;
	fc->unknown_off[fc->nunknown] = off;
	fc->unknown_n[fc->nunknown++] = 1;
}

/* Add one record (scanned by dasf_rec_scan, status OK); returns 0 when it counted as loaded. */
static int ingest(struct dasf_file_ctx *fc, const struct dasf_rec *r, long long off)
{
	const char *n;
	size_t nlen;
	double ts;
	if (!dasf_mp_str(r, r->name, &n, &nlen))
		return skip_record(fc, off, "record without a string", "name");
	bool compute = nlen == 7 && memcmp(n, "Compute", 7) == 0;
	bool memory = nlen == 14 && memcmp(n, "Managed Memory", 14) == 0;
	bool resource = nlen == 14 && memcmp(n, "Resource Usage", 14) == 0;
	if (!dasf_mp_number(r->timestamp, &ts)) {
		if (compute)
			lose_compute(fc, "without a numeric timestamp");
		return skip_record(fc, off, "record without a numeric", "timestamp");
	}
	if (fc->legacy)
		ts /= 1000.0;
	bool args_map = r->args && ((r->args[0] >= 0x80 && r->args[0] <= 0x8f) || r->args[0] == 0xde || r->args[0] == 0xdf);
	if ((compute || memory || resource) && !args_map) {
		if (compute)
			lose_compute(fc, "without an args map");
		return skip_record(fc, off, "event without an args map: name",
				   compute ? "Compute" : memory ? "Managed Memory" : "Resource Usage");
	}
	if ((compute || memory || resource) && !isfinite(ts))
		diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, off, -1,
			 "%.*s event with an unusable timestamp (%g: %s): its time is shown as missing", (int)nlen, n,
			 ts, isnan(ts) ? "not a number" : "infinite");
	if (compute)
		return ingest_compute(fc, r, ts, off);
	if (memory)
		return ingest_memory(fc, r, ts, off);
	if (resource)
		ingest_resource(fc, r, ts, off);
	else
		note_unknown(fc, n, nlen, off);
	return 0;
}

/* Ingest a record scanned as st (r only read when DASF_REC_OK), or say why it is skipped. */
static void take_record(struct dasf_file_ctx *fc, enum dasf_rec_status st, const struct dasf_rec *r, long long off)
{
	switch (st) {
	case DASF_REC_MALFORMED:
		skip_record(fc, off, "malformed MessagePack record", NULL);
		return;
	case DASF_REC_TOO_DEEP:
		skip_record(fc, off, "record too large to decode", NULL);
		return;
	case DASF_REC_NOT_MAP:
		skip_record(fc, off, "record is not a map", NULL);
		return;
	case DASF_REC_OK:
		break;
	}
	if (ingest(fc, r, off) == 0)
		fc->records++;
}

/* Scan one record in a single pass (load_mp.c) and ingest it. */
static void decode_record(struct dasf_file_ctx *fc, const unsigned char *p, size_t n, long long off)
{
	struct dasf_rec r;
	take_record(fc, dasf_rec_scan(p, n, fc->legacy, &r), &r, off);
}

/* ---- framing ---- */

/* Offset of the first plausible record in [from, to) after a bad one (to: SIZE_MAX for
 * the rest of the image); to, or the image size when it comes first, when there is none. */
static size_t resync(struct image *im, size_t from, size_t to)
{
	for (size_t off = from; off < to && off + 9 <= im->size; off++) {
		const unsigned char *b = img_at(im, off, 1);
		if (b && *b == 0 && plausible_record(im, off))
			return off;
	}
	return to < im->size ? to : im->size;
}

/* A record at off whose length, len, frames no whole record: skipped to next (a record,
 * or the end of an image of size bytes). */
static void bad_length(struct dasf_file_ctx *fc, size_t off, uint64_t len, size_t next, size_t size)
{
	size_t left = size > off + 8 ? size - off - 8 : 0;
	diag_add(&fc->ctx->run->diags, DIAG_ERROR, fc->path, -1, (long long)off, -1,
		 "bad record length %llu (%zu bytes left): skipped %zu bytes to %s", (unsigned long long)len, left,
		 next - off, next < size ? "the next whole record" : "the end of the file");
	fc->skipped++;
}

/* At off the image ends, or a length DASF could have written begins (the next record's,
 * maybe truncated). */
static bool frame_head_sane(struct image *im, size_t off)
{
	if (off == im->size)
		return true;
	const unsigned char *h = img_at(im, off, 8);
	uint64_t len = h ? be(h, 8) : 0;
	return len >= 1 && len <= DASF_MAX_RECORD;
}

/* The offset after the record at off, of len bytes at rec (in the image), once ingested. A
 * record that is not one well-formed object is a bad length when a plausible record
 * begins inside it, or when no sane length follows it (the walk resynchronises on the
 * next plausible record); else it is a malformed record of the right length. */
static size_t take_frame(struct dasf_file_ctx *fc, struct image *im, size_t off, const unsigned char *rec,
			 uint64_t len)
{
	struct dasf_rec r;
	size_t end = off + 8 + (size_t)len;
	enum dasf_rec_status st = dasf_rec_scan(rec, (size_t)len, false, &r);
	if (st == DASF_REC_MALFORMED) {
		size_t next = resync(im, off + 1, end); /* moves the window: rec and r are stale */
		if (next == end && !frame_head_sane(im, end))
			next = resync(im, end, SIZE_MAX);
		if (next != end) {
			bad_length(fc, off, len, next, im->size);
			return next;
		}
	}
	take_record(fc, st, &r, (long long)off);
	return end;
}

/* Walk the records of an image. Returns true when the tail was truncated. */
static bool read_frames(struct dasf_file_ctx *fc, struct image *im)
{
	size_t off = 0, reported = 0;
	bool partial = false;
	while (off < im->size && !load_cancelled(fc->ctx)) {
		const unsigned char *h = img_at(im, off, 8);
		size_t size = im->size; /* after the read: a shrunken file ends here */
		if (!h || size - off < 8) {
			diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, (long long)off, -1,
				 "truncated tail: %zu bytes after the last whole record (treated as end of file)",
				 size - off);
			partial = true;
			break;
		}
		uint64_t len = be(h, 8);
		const unsigned char *rec = len && len <= DASF_MAX_RECORD ? img_at(im, off, 8 + (size_t)len) : NULL;
		if (rec) {
			off = take_frame(fc, im, off, rec + 8, len);
		} else {
			size_t next = resync(im, off + 1, SIZE_MAX);
			size = im->size;
			if (next == size && len >= 1 && len <= DASF_MAX_RECORD) {
				diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, (long long)off, -1,
					 "truncated tail: record of %llu bytes, %zu left (treated as end of file)",
					 (unsigned long long)len, size > off + 8 ? size - off - 8 : 0);
				partial = true;
			} else {
				bad_length(fc, off, len, next, size);
			}
			off = next;
		}
		if (off - reported >= ((size_t)1 << 20)) {
			load_progress(fc->ctx, (long long)(off - reported), 0);
			reported = off;
		}
	}
	load_progress(fc->ctx, (long long)(im->size - reported), 0);
	return partial;
}

/* ---- legacy `trace: {json}` lines: converted to msgpack (load_legacy.c), then ingested the same way ---- */

static bool read_legacy(struct dasf_file_ctx *fc, const char *base, size_t size)
{
	struct json_doc doc;
	json_doc_init(&doc);
	struct dasf_packer pk = { 0 };
	long lineno = 0;
	size_t off = 0, reported = 0;
	bool partial = false;
	while (off < size && !load_cancelled(fc->ctx)) {
		const char *line = base + off;
		const char *nl = memchr(line, '\n', size - off);
		size_t n = nl ? (size_t)(nl - line) + 1 : size - off;
		lineno++;
		bool last_unterminated = !nl;
		size_t plen = strlen(LEGACY_PREFIX);
		const char *js = line + plen;
		int r = -1;
		if (n > plen && memcmp(line, LEGACY_PREFIX, plen) == 0)
			r = json_parse(&doc, js, n - plen);
		if (r > 0 && dasf_legacy_pack(&pk, &doc)) {
			decode_record(fc, pk.b, pk.n, (long long)off);
		} else if (r == JSON_EPART && last_unterminated) {
			diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, lineno, (long long)off, -1,
				 "truncated last line (treated as end of file)");
			partial = true;
		} else if (!(n == 1 && line[0] == '\n')) {
			fc->skipped++;
			diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, lineno, (long long)off, -1,
				 "not a `trace: {json}` line");
		}
		off += n;
		if (off - reported >= ((size_t)1 << 20)) {
			load_progress(fc->ctx, (long long)(off - reported), 0);
			reported = off;
		}
	}
	load_progress(fc->ctx, (long long)(size - reported), 0);
	free(pk.b);
	json_doc_free(&doc);
	return partial;
}

/* ---- files ---- */

static void file_summary_diags(struct dasf_file_ctx *fc)
{
	struct diag_list *dl = &fc->ctx->run->diags;
	const struct tally *u = &fc->bad_util, *m = &fc->bad_mem, *z = &fc->neg_size;
	if (fc->no_gpu)
		diag_add(dl, DIAG_INFO, fc->path, -1, fc->no_gpu_off, -1,
			 "%zu Resource Usage samples have no gpu_utilization (CPU-only host?): not GPU samples",
			 fc->no_gpu);
	if (u->n)
		diag_add(dl, DIAG_WARN, fc->path, -1, u->off, -1,
			 "%zu Resource Usage sample%s a gpu_utilization that is not a number from 0 to 100 "
			 "(the first: %s): not GPU samples", u->n, u->n == 1 ? " has" : "s have", u->first);
	if (m->n)
		diag_add(dl, DIAG_WARN, fc->path, -1, m->off, -1,
			 "%zu Resource Usage sample%s a gpu_memory_used that is not a byte count (the first: %s): "
			 "%s GPU memory is missing", m->n, m->n == 1 ? " has" : "s have", m->first,
			 m->n == 1 ? "its" : "their");
	if (z->n)
		diag_add(dl, DIAG_WARN, fc->path, -1, z->off, -1,
			 "%zu event%s a negative size (the first: %s bytes): the size is missing",
			 z->n, z->n == 1 ? " has" : "s have", z->first);
	for (size_t i = 0; i < fc->nunknown; i++)
		diag_add(dl, DIAG_INFO, fc->path, -1, fc->unknown_off[i], -1,
			 "unknown event '%s' (%zu records, ignored by the analyses)",
			 fc->db->strs.str[fc->unknown[i]], fc->unknown_n[i]);
	if (fc->unknown_more)
		diag_add(dl, DIAG_INFO, fc->path, -1, -1, -1,
			 "%zu more records of other unknown event names", fc->unknown_more);
}

static struct dasf_db *db_of(struct run *run)
{
	if (!run->dasf)
		run->dasf = xcalloc(1, sizeof(*run->dasf));
	return run->dasf;
}

static bool has_legacy_prefix(const unsigned char *head, size_t n)
{
	size_t plen = strlen(LEGACY_PREFIX);
	return n >= plen && memcmp(head, LEGACY_PREFIX, plen) == 0;
}

/* Decode one database image registered as source idx. */
static int load_image(struct load_ctx *ctx, size_t idx, const char *path, struct image *im)
{
	struct run *run = ctx->run;
	size_t size = im->size, plen = strlen(LEGACY_PREFIX);
	const unsigned char *head = size ? img_at(im, 0, size < plen ? size : plen) : NULL;
	if (!head) {
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "empty file: no DASF records");
		run_source_done(run, idx, 0, 0, 0, false);
		return -1;
	}
	struct dasf_db *db = db_of(run);
	xgrow((void **)&db->files, &db->filecap, db->nfiles + 1, sizeof(*db->files));
	struct dasf_file_ctx fc = {
		.ctx = ctx, .db = db, .path = path, .file = (uint32_t)db->nfiles,
		.last_host = DASF_NONE, .last_thread = DASF_NONE, .last_name = DASF_NONE,
		.last_type = DASF_NONE, .last_shape = DASF_NONE,
		.legacy = has_legacy_prefix(head, size < plen ? size : plen),
	};
	db->files[db->nfiles++] = (struct dasf_file){ .path = xstrdup(path) };
	bool partial;
	if (fc.legacy) {
		/* the text whole; when the file shrank, a second read takes what is left */
		const unsigned char *text = img_at(im, 0, im->size);
		if (!text)
			text = img_at(im, 0, im->size);
		partial = read_legacy(&fc, (const char *)text, text ? im->size : 0);
	} else {
		partial = read_frames(&fc, im);
	}
	if (im->shrank)
		diag_add(&run->diags, DIAG_WARN, path, -1, (long long)im->size, -1,
			 "the file shrank while it was read (rotated or rewritten?): read up to byte %zu",
			 im->size);
	if (im->err)
		diag_add(&run->diags, DIAG_ERROR, path, -1, (long long)im->size, -1, "read error: %s",
			 strerror(im->err));
	file_summary_diags(&fc);
	db->files[fc.file].records = fc.records;
	db->files[fc.file].mem_end = db->nmem;
	db->files[fc.file].res_end = db->nres;
	run_source_done(run, idx, fc.records, fc.skipped, im->err, partial || im->shrank);
	return fc.records ? 0 : -1;
}

/* The database at path, planned bytes of it in the load's total: corrected to its size
 * at the open (nothing of a file that cannot be read), and at its end when it shrank. */
static int load_file(struct load_ctx *ctx, const char *path, long long planned)
{
	struct run *run = ctx->run;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
	struct stat st;
	int e = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : 0;
	bool regular = !e && S_ISREG(st.st_mode);
	load_progress(ctx, 0, (regular ? (long long)st.st_size : 0) - planned);
	if (!regular) {
		size_t idx = run_add_source(run, path, "dasf", -1, -1);
		diag_add(&run->diags, DIAG_ERROR, path, -1, -1, -1, "cannot read: %s",
			 e ? strerror(e) : "not a regular file");
		run_source_done(run, idx, 0, 0, e ? e : EINVAL, false);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size;
	size_t idx = run_add_source(run, path, "dasf", -1, (long long)size);
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	struct image im = { .fd = fd, .size = size };
	int rc = load_image(ctx, idx, path, &im);
	if (im.size < size) /* it shrank, or a read failed: bytes not to read */
		load_progress(ctx, 0, -(long long)(size - im.size));
	free(im.win);
	close(fd);
	return rc;
}

int dasf_load_mem(struct load_ctx *ctx, const char *name, const void *buf, size_t n)
{
	size_t idx = run_add_source(ctx->run, name, "dasf", -1, (long long)n);
	struct image im = { .mem = buf, .fd = -1, .size = n };
	load_progress(ctx, 0, (long long)n);
	return load_image(ctx, idx, name, &im);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

/* *.msgpack entries directly in dir but directories (links followed; a FIFO or dangling
 * link is named by the load, never read), sorted by name (the load order); the listing is
 * the scope's (model/dirlist.h): the probe and the load list a big run dir once. */
static char **list_dir(const char *dir, size_t *n)
{
	*n = 0;
	struct dirlist *l = dirlist_open(dir);   /* sorted by name */
	char **v = NULL;
	size_t cap = 0;
	for (size_t i = 0; l && i < l->n; i++) {
		const struct dirlist_entry *e = &l->v[i];
		if (e->name[0] == '.' || e->kind == DIRENT_DIR || !has_suffix(e->name, ".msgpack"))
			continue;
		xgrow((void **)&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = dirlist_path(dir, e->name);
	}
	dirlist_close(l);
	return v;
}

void dasf_dir_files(const char *dir, char ***files, size_t *n)
{
	*files = list_dir(dir, n);
}

/* By its first bytes, else by its name: a *.msgpack that cannot be read (no permission,
 * no regular file) is claimed too, for the load to name it with why. */
static int probe_file(const char *path, bool forced)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	bool regular = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	unsigned char head[16];
	ssize_t n = regular ? read(fd, head, sizeof(head)) : -1; /* a FIFO's bytes are never taken */
	if (fd >= 0)
		close(fd);
	if (n > 0 && has_legacy_prefix(head, (size_t)n))
		return 80;
	if (n >= 9) {
		uint64_t len = be(head, 8);
		if (len >= 1 && len <= DASF_MAX_RECORD && is_map_marker(head[8]))
			return 90;
	}
	return has_suffix(path, ".msgpack") ? 20 : forced ? 10 : 0;
}

int dasf_probe(const char *path, const struct opts *opts)
{
	bool forced = opts && opts->format && strcmp(opts->format, "dasf") == 0;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return probe_file(path, forced);
	if (!S_ISDIR(st.st_mode)) /* a FIFO or device would block or never end */
		return 0;
	size_t n;
	char **files = list_dir(path, &n);
	int best = 0;
	for (size_t i = 0; i < n; i++) {
		int p = probe_file(files[i], false);
		best = p > best ? p : best;
		free(files[i]);
	}
	free(files);
	return best >= 90 ? 60 : best;
}

/* The bytes of the regular file path now, 0 when it is none or cannot be stat'd. */
static long long file_bytes(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
}

/* The files dasf_load() reads at path (the *.msgpack files in a directory, else path). */
static char **path_files(const char *path, size_t *n)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return list_dir(path, n);
	char **v = xmalloc(sizeof(*v));
	v[0] = xstrdup(path);
	*n = 1;
	return v;
}

/* What dasf_load() reads at path, in bytes, as it is now (byteplan's sizer). */
static long long path_bytes(const char *path, const struct opts *opts)
{
	(void)opts;
	size_t n;
	char **files = path_files(path, &n);
	long long bytes = 0;
	for (size_t i = 0; i < n; i++) {
		bytes += file_bytes(files[i]);
		free(files[i]);
	}
	free(files);
	return bytes;
}

int dasf_load(struct load_ctx *ctx, const char *path)
{
	struct dasf_db *db = db_of(ctx->run);
	db->cancel = ctx->cancel;
	size_t n;
	char **files = path_files(path, &n);
	long long *size = xmalloc(n * sizeof(*size)), bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += size[i] = file_bytes(files[i]);
	byteplan_path(&db->plan, ctx, "dasf", path, bytes, path_bytes);
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		if (!dasf_cancelled(db) && load_file(ctx, files[i], size[i]) == 0)
			rc = 0;
		free(files[i]);
	}
	free(files);
	free(size);
	return rc;
}
