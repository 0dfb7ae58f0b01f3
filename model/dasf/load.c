/* SPDX-License-Identifier: MIT */
/* load.c: the DASF loader. Reads EventProfiler databases (length-prefixed
 * MessagePack records: an 8-byte big-endian length, then one msgpack map) and the
 * legacy `trace: {json}` text format, file after file in the order given, into the
 * run's struct dasf_db (internal.h). Every record is checked structurally before
 * msgpack-c decodes it, so a hostile count cannot make it allocate; bad lengths
 * resynchronise on the next plausible record; a truncated tail ends the file with a
 * warning. Files are read with pread through a sliding window (never mmap: a database
 * that shrinks while it loads, being rotated or rewritten, must end the file early, not
 * raise SIGBUS). Nothing here prints or exits: problems become diagnostics. */
#include "model/dasf/dasf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dasf/internal.h"
#include "model/json.h"
#include "model/run.h"
#include "model/xalloc.h"

#define LEGACY_PREFIX "trace: "
#define LEGACY_DEPTH 64
#define MAX_UNKNOWN_NAMES 16
#define WINDOW ((size_t)4 << 20) /* bytes read per pread refill (more for a larger record) */

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
	uint32_t unknown[MAX_UNKNOWN_NAMES]; /* distinct other event names (strs ids) */
	long long unknown_off[MAX_UNKNOWN_NAMES];
	size_t unknown_n[MAX_UNKNOWN_NAMES];
	size_t nunknown, unknown_more;
	uint32_t last_host, last_thread, last_name; /* strs ids of the previous event (a cache) */
};

/* ---- structural check: one complete msgpack object exactly filling [p, end) ---- */

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Bytes of payload after the marker (and its size field) for scalar markers; sets
 * *items for containers; -1 for an invalid marker. *hdr is the size-field width. */
static long long marker_payload(const unsigned char *p, size_t avail, uint64_t *items, int *hdr)
{
	unsigned m = p[0];
	*items = 0;
	*hdr = 0;
	if (m <= 0x7f || m >= 0xe0 || m == 0xc0 || m == 0xc2 || m == 0xc3)
		return 0;
	if (m >= 0x80 && m <= 0x8f) {
		*items = 2ull * (m & 0x0f);
		return 0;
	}
	if (m >= 0x90 && m <= 0x9f) {
		*items = m & 0x0f;
		return 0;
	}
	if (m >= 0xa0 && m <= 0xbf)
		return m & 0x1f;
	static const struct { unsigned char m; signed char hdr, fixed; bool container, map; } tab[] = {
		{ 0xc4, 1, -1, 0, 0 }, { 0xc5, 2, -1, 0, 0 }, { 0xc6, 4, -1, 0, 0 },
		{ 0xc7, 1, -2, 0, 0 }, { 0xc8, 2, -2, 0, 0 }, { 0xc9, 4, -2, 0, 0 },
		{ 0xca, 0, 4, 0, 0 }, { 0xcb, 0, 8, 0, 0 }, { 0xcc, 0, 1, 0, 0 }, { 0xcd, 0, 2, 0, 0 },
		{ 0xce, 0, 4, 0, 0 }, { 0xcf, 0, 8, 0, 0 }, { 0xd0, 0, 1, 0, 0 }, { 0xd1, 0, 2, 0, 0 },
		{ 0xd2, 0, 4, 0, 0 }, { 0xd3, 0, 8, 0, 0 }, { 0xd4, 0, 2, 0, 0 }, { 0xd5, 0, 3, 0, 0 },
		{ 0xd6, 0, 5, 0, 0 }, { 0xd7, 0, 9, 0, 0 }, { 0xd8, 0, 17, 0, 0 },
		{ 0xd9, 1, -1, 0, 0 }, { 0xda, 2, -1, 0, 0 }, { 0xdb, 4, -1, 0, 0 },
		{ 0xdc, 2, 0, 1, 0 }, { 0xdd, 4, 0, 1, 0 }, { 0xde, 2, 0, 1, 1 }, { 0xdf, 4, 0, 1, 1 },
	};
	if (m < 0xc4) /* 0xc1: never used */
		return -1;
	size_t i = m - 0xc4; /* tab covers 0xc4..0xdf in order */
	*hdr = tab[i].hdr;
	if ((size_t)tab[i].hdr + 1 > avail)
		return -1;
	uint64_t n = be(p + 1, tab[i].hdr);
	if (tab[i].container) {
		*items = tab[i].map ? 2 * n : n;
		return 0;
	}
	if (tab[i].fixed >= 0)
		return tab[i].fixed;
	return (long long)(n + (tab[i].fixed == -2 ? 1 : 0)); /* ext has a type byte */
}

/* True when buf[0..n) is exactly one well-formed msgpack object whose container
 * counts fit in the bytes available (so decoding cannot over-allocate). */
static bool mp_check(const unsigned char *buf, size_t n)
{
	const unsigned char *p = buf, *end = buf + n;
	uint64_t pending = 1;
	while (pending) {
		if (p >= end)
			return false;
		uint64_t items;
		int hdr;
		long long pay = marker_payload(p, (size_t)(end - p), &items, &hdr);
		if (pay < 0)
			return false;
		p += 1 + hdr;
		if ((uint64_t)pay > (uint64_t)(end - p) || items > (uint64_t)(end - p))
			return false;
		p += pay;
		pending += items - 1;
	}
	return p == end;
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
	return rec && mp_check(rec + 8, (size_t)len);
}

/* ---- msgpack object getters ---- */

static const msgpack_object *mp_get(const msgpack_object *map, const char *key)
{
	if (!map || map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	size_t klen = strlen(key);
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == klen &&
		    memcmp(k->via.str.ptr, key, klen) == 0)
			return &map->via.map.ptr[i].val;
	}
	return NULL;
}

static bool mp_number(const msgpack_object *o, double *out)
{
	if (!o)
		return false;
	switch (o->type) {
	case MSGPACK_OBJECT_POSITIVE_INTEGER: *out = (double)o->via.u64; return true;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER: *out = (double)o->via.i64; return true;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64: *out = o->via.f64; return true;
	default: return false;
	}
}

static bool mp_int(const msgpack_object *o, long long *out)
{
	if (!o)
		return false;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= (uint64_t)LLONG_MAX) {
		*out = (long long)o->via.u64;
		return true;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*out = o->via.i64;
		return true;
	}
	return false;
}

static bool mp_is_str(const msgpack_object *o)
{
	return o && o->type == MSGPACK_OBJECT_STR;
}

/* Intern a str or int the way Python's str() shows it; nil and absent become "None"
 * and "0" (DASF's defaults); other types "?". */
static uint32_t intern_text(struct dasf_intern *in, const msgpack_object *o, const char *absent)
{
	char buf[32];
	if (!o)
		return dasf_intern(in, absent, strlen(absent));
	if (o->type == MSGPACK_OBJECT_STR)
		return dasf_intern(in, o->via.str.ptr, o->via.str.size);
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->via.u64);
	else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		snprintf(buf, sizeof(buf), "%lld", (long long)o->via.i64);
	else if (o->type == MSGPACK_OBJECT_NIL)
		snprintf(buf, sizeof(buf), "None");
	else
		snprintf(buf, sizeof(buf), "?");
	return dasf_intern(in, buf, strlen(buf));
}

/* intern_text through a one-entry cache: hosts, threads and names repeat from event to event. */
static uint32_t intern_cached(struct dasf_intern *in, uint32_t *last, const msgpack_object *o,
			      const char *absent)
{
	if (o && o->type == MSGPACK_OBJECT_STR && *last != DASF_NONE && in->len[*last] == o->via.str.size &&
	    memcmp(in->str[*last], o->via.str.ptr, o->via.str.size) == 0)
		return *last;
	*last = intern_text(in, o, absent);
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

/* Shape as Python prints a tuple: "()", "(3,)", "(2, 3)" (no printf: one per task). */
static uint32_t intern_shape(struct dasf_intern *in, const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return DASF_NONE;
	char buf[256];
	size_t n = 0;
	buf[n++] = '(';
	for (uint32_t i = 0; i < o->via.array.size && n < sizeof(buf) - 32; i++) {
		long long v;
		if (!mp_int(&o->via.array.ptr[i], &v))
			return DASF_NONE;
		if (i) {
			buf[n++] = ',';
			buf[n++] = ' ';
		}
		n += put_ll(buf + n, v);
	}
	if (o->via.array.size == 1)
		buf[n++] = ',';
	buf[n++] = ')';
	return dasf_intern(in, buf, n);
}

/* ---- ingest one decoded record ---- */

static void skip_record(struct dasf_file_ctx *fc, long long off, const char *why, const char *what)
{
	fc->skipped++;
	diag_add(&fc->ctx->run->diags, DIAG_WARN, fc->path, -1, off, -1, "%s%s%s%s", why,
		 what ? " '" : "", what ? what : "", what ? "'" : "");
}

static void push_keys(struct dasf_db *db, const msgpack_object *arr, uint32_t *count)
{
	*count = 0;
	if (!arr || arr->type != MSGPACK_OBJECT_ARRAY)
		return;
	for (uint32_t i = 0; i < arr->via.array.size; i++) {
		const msgpack_object *k = &arr->via.array.ptr[i];
		if (!mp_is_str(k))
			continue;
		xgrow((void **)&db->edges, &db->edgecap, db->nedges + 1, sizeof(*db->edges));
		db->edges[db->nedges++] = dasf_intern(&db->keys, k->via.str.ptr, k->via.str.size);
		(*count)++;
	}
}

static int ingest_compute(struct dasf_file_ctx *fc, const msgpack_object *rec,
			  const msgpack_object *args, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	double dur;
	const msgpack_object *key = mp_get(args, "key"), *name = mp_get(args, "name");
	if (!mp_number(mp_get(rec, "duration"), &dur)) {
		skip_record(fc, off, "Compute event without a numeric", "duration");
		return -1;
	}
	if (!mp_is_str(key) || !mp_is_str(name)) {
		skip_record(fc, off, "Compute event without string args", !mp_is_str(key) ? "key" : "name");
		return -1;
	}
	if (fc->legacy)
		dur /= 1000.0;
	xgrow((void **)&db->task, &db->taskcap, db->ntask + 1, sizeof(*db->task));
	struct dasf_task *t = &db->task[db->ntask++];
	*t = (struct dasf_task){
		.ts = ts, .dur = dur, .file = fc->file,
		.host = intern_cached(&db->strs, &fc->last_host, mp_get(rec, "process_id"), "0"),
		.thread = intern_cached(&db->strs, &fc->last_thread, mp_get(rec, "thread_id"), "None"),
		.name = intern_cached(&db->strs, &fc->last_name, name, ""),
		.key = dasf_intern(&db->keys, key->via.str.ptr, key->via.str.size),
		.type = mp_is_str(mp_get(args, "type")) ? intern_text(&db->strs, mp_get(args, "type"), "") : DASF_NONE,
		.shape = intern_shape(&db->strs, mp_get(args, "shape")),
		.edge = (uint32_t)db->nedges,
	};
	t->has_size = mp_int(mp_get(args, "size"), &t->size);
	push_keys(db, mp_get(args, "dependencies"), &t->ndeps);
	push_keys(db, mp_get(args, "dependents"), &t->ndnts);
	return 0;
}

static int ingest_memory(struct dasf_file_ctx *fc, const msgpack_object *rec,
			 const msgpack_object *args, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	long long tasks;
	if (!mp_int(mp_get(args, "tasks"), &tasks)) {
		skip_record(fc, off, "Managed Memory event without an integer", "tasks");
		return -1;
	}
	xgrow((void **)&db->mem, &db->memcap, db->nmem + 1, sizeof(*db->mem));
	struct dasf_mem *m = &db->mem[db->nmem++];
	*m = (struct dasf_mem){
		.ts = ts, .tasks = tasks,
		.host = intern_cached(&db->strs, &fc->last_host, mp_get(rec, "process_id"), "0"),
		.thread = intern_cached(&db->strs, &fc->last_thread, mp_get(rec, "thread_id"), "None"),
	};
	m->has_bytes = mp_int(mp_get(args, "size"), &m->bytes);
	return 0;
}

static void ingest_resource(struct dasf_file_ctx *fc, const msgpack_object *rec,
			    const msgpack_object *args, double ts, long long off)
{
	struct dasf_db *db = fc->db;
	double util, mem = 0;
	if (!mp_number(mp_get(args, "gpu_utilization"), &util)) {
		if (!fc->no_gpu++)
			fc->no_gpu_off = off;
		db->res_no_gpu++;
		return;
	}
	bool has_mem = mp_number(mp_get(args, "gpu_memory_used"), &mem);
	xgrow((void **)&db->res, &db->rescap, db->nres + 1, sizeof(*db->res));
	db->res[db->nres++] = (struct dasf_res){
		.ts = ts, .gpu_util = util, .gpu_mem = mem, .has_mem = has_mem,
		.host = intern_cached(&db->strs, &fc->last_host, mp_get(rec, "process_id"), "0"),
	};
}

static void note_unknown(struct dasf_file_ctx *fc, const msgpack_object *name, long long off)
{
	uint32_t id = dasf_intern(&fc->db->strs, name->via.str.ptr, name->via.str.size);
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

/* Add one decoded record; returns 0 when it counted as loaded. */
static int ingest(struct dasf_file_ctx *fc, const msgpack_object *rec, long long off)
{
	if (rec->type != MSGPACK_OBJECT_MAP) {
		skip_record(fc, off, "record is not a map", NULL);
		return -1;
	}
	const msgpack_object *name = mp_get(rec, "name");
	double ts;
	if (!mp_is_str(name)) {
		skip_record(fc, off, "record without a string", "name");
		return -1;
	}
	if (!mp_number(mp_get(rec, "timestamp"), &ts)) {
		skip_record(fc, off, "record without a numeric", "timestamp");
		return -1;
	}
	if (fc->legacy)
		ts /= 1000.0;
	const msgpack_object *args = mp_get(rec, fc->legacy ? "data" : "args");
	size_t nlen = name->via.str.size;
	const char *n = name->via.str.ptr;
	bool compute = nlen == 7 && memcmp(n, "Compute", 7) == 0;
	bool memory = nlen == 14 && memcmp(n, "Managed Memory", 14) == 0;
	bool resource = nlen == 14 && memcmp(n, "Resource Usage", 14) == 0;
	if ((compute || memory || resource) && (!args || args->type != MSGPACK_OBJECT_MAP)) {
		skip_record(fc, off, "event without an args map:", NULL);
		return -1;
	}
	if (compute)
		return ingest_compute(fc, rec, args, ts, off);
	if (memory)
		return ingest_memory(fc, rec, args, ts, off);
	if (resource)
		ingest_resource(fc, rec, args, ts, off);
	else
		note_unknown(fc, name, off);
	return 0;
}

/* Decode one checked record with msgpack-c and ingest it. */
static void decode_record(struct dasf_file_ctx *fc, msgpack_zone *zone, const char *p, size_t n,
			  long long off)
{
	msgpack_object obj;
	size_t used = 0;
	msgpack_zone_clear(zone);
	msgpack_unpack_return r = msgpack_unpack(p, n, &used, zone, &obj);
	if (r != MSGPACK_UNPACK_SUCCESS) {
		skip_record(fc, off, r == MSGPACK_UNPACK_NOMEM_ERROR ? "record too large to decode" :
			    "undecodable MessagePack record (nested too deep?)", NULL);
		return;
	}
	if (ingest(fc, &obj, off) == 0)
		fc->records++;
}

/* ---- framing ---- */

/* Offset of the next plausible record after a bad one, or the image size when none. */
static size_t resync(struct image *im, size_t from)
{
	for (size_t off = from; off + 9 <= im->size; off++) {
		const unsigned char *b = img_at(im, off, 1);
		if (b && *b == 0 && plausible_record(im, off))
			return off;
	}
	return im->size;
}

/* Walk the records of an image. Returns true when the tail was truncated. */
static bool read_frames(struct dasf_file_ctx *fc, struct image *im)
{
	msgpack_zone zone;
	msgpack_zone_init(&zone, 4096);
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
		size = im->size;
		if (!rec) {
			size_t next = resync(im, off + 1);
			size = im->size;
			size_t left = size > off + 8 ? size - off - 8 : 0;
			struct diag_list *dl = &fc->ctx->run->diags;
			if (next == size && len >= 1 && len <= DASF_MAX_RECORD) {
				diag_add(dl, DIAG_WARN, fc->path, -1, (long long)off, -1,
					 "truncated tail: record of %llu bytes, %zu left (treated as end of file)",
					 (unsigned long long)len, left);
				partial = true;
			} else {
				diag_add(dl, DIAG_ERROR, fc->path, -1, (long long)off, -1,
					 "bad record length %llu (%zu bytes left): skipped %zu bytes to %s",
					 (unsigned long long)len, left, next - off,
					 next < size ? "the next whole record" : "the end of the file");
				fc->skipped++;
			}
			off = next;
			continue;
		}
		rec += 8;
		if (!mp_check(rec, (size_t)len))
			skip_record(fc, (long long)off, "malformed MessagePack record", NULL);
		else
			decode_record(fc, &zone, (const char *)rec, (size_t)len, (long long)off);
		off += 8 + (size_t)len;
		if (off - reported >= ((size_t)1 << 20)) {
			load_progress(fc->ctx, (long long)(off - reported), 0);
			reported = off;
		}
	}
	load_progress(fc->ctx, (long long)(im->size - reported), 0);
	msgpack_zone_destroy(&zone);
	return partial;
}

/* ---- legacy `trace: {json}` lines: converted to msgpack, then ingested the same way ---- */

/* Pack token i; -1 when too deep or malformed (jsmn is lenient: a key may lack its value,
 * so members are counted by walking them, and every index is checked). */
static int pack_json(msgpack_packer *pk, const struct json_doc *d, int i, int depth)
{
	if (depth > LEGACY_DEPTH || i < 0 || i >= d->ntok)
		return -1;
	const jsmntok_t *t = &d->tok[i];
	if (t->type == JSMN_OBJECT || t->type == JSMN_ARRAY) {
		size_t n = 0;
		for (int k = json_first(d, i); k >= 0; k = json_next(d, i, k))
			n++;
		if (t->type == JSMN_OBJECT)
			msgpack_pack_map(pk, n);
		else
			msgpack_pack_array(pk, n);
		for (int k = json_first(d, i); k >= 0; k = json_next(d, i, k)) {
			if (t->type == JSMN_OBJECT && pack_json(pk, d, k, depth + 1) < 0)
				return -1;
			if (pack_json(pk, d, t->type == JSMN_OBJECT ? k + 1 : k, depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	if (t->type == JSMN_STRING) {
		char *s = json_strdup(d, i);
		size_t n = strlen(s);
		msgpack_pack_str(pk, n);
		msgpack_pack_str_body(pk, s, n);
		free(s);
		return 0;
	}
	long long iv;
	double dv;
	bool bv;
	if (json_is_null(d, i))
		msgpack_pack_nil(pk);
	else if (json_bool(d, i, &bv))
		bv ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
	else if (json_int(d, i, &iv))
		msgpack_pack_int64(pk, iv);
	else if (json_number(d, i, &dv))
		msgpack_pack_double(pk, dv);
	else
		return -1;
	return 0;
}

static bool read_legacy(struct dasf_file_ctx *fc, const char *base, size_t size)
{
	struct json_doc doc;
	json_doc_init(&doc);
	msgpack_sbuffer sb;
	msgpack_sbuffer_init(&sb);
	msgpack_packer pk;
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_zone zone;
	msgpack_zone_init(&zone, 4096);
	long lineno = 0;
	size_t off = 0;
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
		sb.size = 0;
		if (r > 0 && json_is_object(&doc, 0) && pack_json(&pk, &doc, 0, 0) == 0) {
			msgpack_object obj;
			size_t used = 0;
			msgpack_zone_clear(&zone);
			if (msgpack_unpack(sb.data, sb.size, &used, &zone, &obj) == MSGPACK_UNPACK_SUCCESS &&
			    ingest(fc, &obj, (long long)off) == 0)
				fc->records++;
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
	}
	msgpack_zone_destroy(&zone);
	msgpack_sbuffer_destroy(&sb);
	json_doc_free(&doc);
	return partial;
}

/* ---- files ---- */

static void file_summary_diags(struct dasf_file_ctx *fc)
{
	struct diag_list *dl = &fc->ctx->run->diags;
	if (fc->no_gpu)
		diag_add(dl, DIAG_INFO, fc->path, -1, fc->no_gpu_off, -1,
			 "%zu Resource Usage samples have no gpu_utilization (CPU-only host?): not GPU samples",
			 fc->no_gpu);
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
	load_progress(ctx, 0, (long long)size);
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
	run_source_done(run, idx, fc.records, fc.skipped, im->err, partial || im->shrank);
	return fc.records ? 0 : -1;
}

static int load_file(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
	struct stat st;
	int e = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : 0;
	if (e || !S_ISREG(st.st_mode)) {
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
	free(im.win);
	close(fd);
	return rc;
}

int dasf_load_mem(struct load_ctx *ctx, const char *name, const void *buf, size_t n)
{
	size_t idx = run_add_source(ctx->run, name, "dasf", -1, (long long)n);
	struct image im = { .mem = buf, .fd = -1, .size = n };
	return load_image(ctx, idx, name, &im);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular *.msgpack files directly in dir, sorted by name (the load order). */
static char **list_dir(const char *dir, size_t *n)
{
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **v = NULL;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !has_suffix(e->d_name, ".msgpack"))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) { /* FIFOs would block */
			free(path);
			continue;
		}
		xgrow((void **)&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = path;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

static int probe_file(const char *path, bool forced)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return forced ? 10 : 0;
	unsigned char head[16];
	ssize_t n = read(fd, head, sizeof(head));
	struct stat st;
	bool sized = fstat(fd, &st) == 0;
	close(fd);
	if (n > 0 && has_legacy_prefix(head, (size_t)n))
		return 80;
	if (n >= 9 && sized) {
		uint64_t len = be(head, 8);
		if (len >= 1 && len <= DASF_MAX_RECORD && is_map_marker(head[8]))
			return 90;
	}
	if (has_suffix(path, ".msgpack"))
		return 20;
	return forced ? 10 : 0;
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

int dasf_load(struct load_ctx *ctx, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return load_file(ctx, path);
	size_t n;
	char **files = list_dir(path, &n);
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		if (load_file(ctx, files[i]) == 0)
			rc = 0;
		free(files[i]);
	}
	free(files);
	return rc;
}
