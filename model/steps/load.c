/* SPDX-License-Identifier: MIT */
/* load.c: pytscope run directories (steps.jsonl, run.json, rank{k}/): the parallel
 * JSONL loader (detection: load_detect.c; fast lines: load_scan.c; what to read from
 * the index and what to write to it: load_plan.c; its notes on record values:
 * load_notes.c), the count of "loss" values it skipped as not numbers, and run.json
 * metadata. A UTF-8 byte-order mark at the start of a steps.jsonl is skipped with a note
 * (line 1 read), or under --compat pytscope leaves line 1 unread, saying why; a load
 * that met one in any rank's file writes no index (load_plan.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/extent.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/json.h"
#include "model/pool.h"
#include "model/steps/scan.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/load_notes.h"
#include "model/steps/load_plan.h"
#include "model/steps/seal.h"
#include "model/steps/store_body.h"
#include "model/text.h"
#include "model/xalloc.h"

#define CHUNK XPAGE_BLOCK /* the read buffer: one of the process's kept blocks (xalloc.h) */
#define MAX_LINE ((size_t)64 << 20)
/* The read buffer is page-aligned and each byte is kept at its file offset's place in
 * its page: the kernel then copies whole pages from the page cache to the same place in
 * ours, ~15% less CPU per load than at a shifted place (BENCHMARKS.md, issue 15). */
#define READ_PAGE ((size_t)4096)

/* A read buffer of cap bytes, page-aligned (CHUNK: a kept block), and back. */
static char *read_buf_new(size_t cap)
{
	return cap == CHUNK ? xpage_take() : xmalloc_aligned(READ_PAGE, cap);
}

static void read_buf_free(char *buf, size_t cap)
{
	if (cap == CHUNK)
		xpage_give(buf);
	else
		free(buf);
}

/* buf (of old bytes) resized to cap bytes, its bytes [lead, lead + n) kept in place. */
static char *read_buf_resize(char *buf, size_t old, size_t cap, size_t lead, size_t n)
{
	char *p = read_buf_new(cap);
	memcpy(p + lead, buf + lead, n);
	read_buf_free(buf, old);
	return p;
}

/* ---- steps.jsonl ----------------------------------------------------------------- */

/* Per-file cache from a raw (escaped) key to its metric id, so the hot path never
 * takes the model's lock. */
struct key_cache {
	struct {
		unsigned char kind;
		unsigned char len;
		char key[46];
		int id;
	} e[64];
	size_t n, next;
};

struct steps_tail {
	struct load_ctx *ctx;
	struct steps_model *m;
	struct rank_steps *r;
	const char *path;     /* owned by a steps_tail_new() tail, borrowed by a one-shot load's */
	int rank;
	struct json_doc doc;
	struct key_cache cache;
	struct scan_line scan;
	size_t records, skipped;
	long line;
	long long size;       /* file size at open, -1 unknown */
	long long offset;     /* first byte not consumed (the start of a pending line) */
	bool skip_nl;         /* an unterminated last line was loaded: its '\n' may follow */
	bool partial;         /* the bytes after offset are a truncated line */
	size_t src;           /* index in run->src */
	int last_err;         /* the read error already diagnosed */
	bool resumed;         /* resumed and not read since: the byte before offset (a newline?)
			       * and the notes on the records before are still to be looked up */
	bool discarding;      /* inside a line longer than MAX_LINE (already diagnosed) */
	bool bom;             /* line 1 started with a UTF-8 byte-order mark (feed_bom_line) */
	struct steps_notes notes; /* what the once-a-file notes said so far (load_notes.h) */
	const char *lim;      /* while feeding: the end of the read buffer (readable) */
	/* after steps_tail_read(): the file's bytes [mem.off, mem.off + mem.len) as the last
	 * read left them in the thread's read buffer (mem.p NULL: none), until its next use */
	struct extent_mem mem;
};

/* Metric id of a raw (escaped) key through the cache; on a miss the name is interned
 * unescaped (from token keytok, or the raw key itself when keytok < 0). */
static int cached_metric_id(struct steps_tail *fl, enum metric_kind kind, const char *k, size_t len,
			    int keytok)
{
	struct key_cache *c = &fl->cache;
	/* Lines repeat their key order: try the entry after the last hit first. */
	for (size_t j = 0; j < c->n; j++) {
		size_t i = (c->next + j) % c->n;
		if (c->e[i].len == len && c->e[i].kind == kind && c->e[i].key[0] == k[0] &&
		    memcmp(c->e[i].key, k, len) == 0) {
			c->next = i + 1;
			return c->e[i].id;
		}
	}
	char *name = keytok >= 0 ? json_strdup(&fl->doc, keytok) : xstrndup(k, len);
	int id = steps_metric_intern(fl->m, kind, name);
	free(name);
	if (len < sizeof(c->e[0].key) && c->n < ARRAY_LEN(c->e)) {
		c->e[c->n].kind = (unsigned char)kind;
		c->e[c->n].len = (unsigned char)len;
		memcpy(c->e[c->n].key, k, len);
		c->e[c->n++].id = id;
	}
	return id;
}

static int metric_id(struct steps_tail *fl, enum metric_kind kind, int keytok)
{
	const jsmntok_t *t = &fl->doc.tok[keytok];
	return cached_metric_id(fl, kind, fl->doc.js + t->start, (size_t)(t->end - t->start), keytok);
}

static struct note_at note_at(const struct steps_tail *fl)
{
	return (struct note_at){ &fl->ctx->run->diags, fl->path, fl->line, fl->rank };
}

/* A phase whose value is not a duration (NaN, infinite, negative: pytscope never writes
 * one) is kept as recorded, as pytscope keeps it, and said once a file, at its first. */
static void check_phase(struct steps_tail *fl, const char *key, size_t len, double x)
{
	if (!(x >= 0 && x < INFINITY) && !fl->notes.bad_phase_said)
		steps_note_phase(&fl->notes, note_at(fl), key, len, x);
}

/* A memory value that is not finite (NaN, an infinity: pytscope never writes one) is
 * kept as recorded, for --compat pytscope, and is missing to the native memory analysis
 * (analysis_memory.c); said once a file, at its first. */
static void check_memory(struct steps_tail *fl, const char *key, size_t len, double x)
{
	if (!isfinite(x) && !fl->notes.bad_memory_said)
		steps_note_memory(&fl->notes, note_at(fl), key, len, x);
}

/* The record at pos repeats or goes back in step numbers (pytscope appends on a resume;
 * phased: it has a phase, else it is an evaluation's scalars, say): noted once a file and
 * kind (steps_note_order). A rank whose steps still run contiguously has not. */
static void check_order(struct steps_tail *fl, size_t pos, bool phased)
{
	const struct rank_steps *r = fl->r;
	bool prev_phased = fl->notes.prev_phased;
	fl->notes.prev_phased = phased;
	if (!r->contiguous && pos > 0 && r->step[pos] <= r->step[pos - 1])
		steps_note_order(&fl->notes, note_at(fl), r->step[pos], r->step[pos - 1], phased, prev_phased);
}

/* Members of a phases / scalars / memory object. Bad values are noted and skipped;
 * the rest of the record is kept. */
static void load_group(struct steps_tail *fl, size_t pos, int obj, enum metric_kind kind)
{
	const struct json_doc *d = &fl->doc;
	if (!json_is_object(d, obj)) {
		diag_add(&fl->ctx->run->diags, DIAG_WARN, fl->path, fl->line, -1, fl->rank,
			 "\"%s\" is not an object; ignored", kind == METRIC_PHASE ? "phases" :
			 kind == METRIC_SCALAR ? "scalars" : "memory");
		return;
	}
	int n = d->tok[obj].size, k = obj + 1;
	for (int i = 0; i < n && k + 1 < d->ntok; i++) {
		const jsmntok_t *v = &d->tok[k + 1];
		double x;
		const char *num = d->js + v->start;
		size_t len = (size_t)(v->end - v->start);
		/* scalars are stored as float32 (but on the lowest rank): an approximate parse is enough */
		bool approx = kind == METRIC_SCALAR && !fl->scan.exact_scalars;
		if (v->type == JSMN_PRIMITIVE && (approx ? json_parse_double_approx(num, len, &x)
							 : json_parse_double(num, len, &x))) {
			rank_set(fl->r, pos, metric_id(fl, kind, k), x);
			const char *key = d->js + d->tok[k].start;
			size_t klen = (size_t)(d->tok[k].end - d->tok[k].start);
			if (kind == METRIC_PHASE)
				check_phase(fl, key, klen, x);
			else if (kind == METRIC_MEMORY)
				check_memory(fl, key, klen, x);
			k += 2;
			continue;
		}
		char *name = json_strdup(d, k);
		diag_add(&fl->ctx->run->diags, DIAG_WARN, fl->path, fl->line, -1, fl->rank,
			 "value of \"%s\" is not a number; ignored", name);
		if (kind == METRIC_SCALAR && strcmp(name, "loss") == 0) /* the convergence rules' not-judged reason */
			fl->r->loss_not_number++;
		free(name);
		k = json_skip(d, k + 1);
	}
}

size_t steps_loss_not_numbers(const struct steps_model *m, size_t ri)
{
	return m && ri < m->nrank ? m->rank[ri]->loss_not_number : 0;
}

/* The top-level keys of a steps record, by their unescaped names. */
enum top_key { TOP_STEP, TOP_TIMESTAMP, TOP_PHASES, TOP_SCALARS, TOP_MEMORY, TOP_OTHER };

static enum top_key top_key(const struct json_doc *d, int k)
{
	static const struct {
		const char *s;
		size_t n;
	} names[] = { { "step", 4 }, { "timestamp", 9 }, { "phases", 6 }, { "scalars", 7 }, { "memory", 6 } };
	const jsmntok_t *t = &d->tok[k];
	const char *s = d->js + t->start;
	size_t n = (size_t)(t->end - t->start);
	char buf[64]; /* an escaped key is compared unescaped (an escape never grows) */
	if (memchr(s, '\\', n)) {
		if (n >= sizeof(buf))
			return TOP_OTHER;
		n = json_strput(d, k, buf);
		s = buf;
	}
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (names[i].n == n && memcmp(s, names[i].s, n) == 0)
			return (enum top_key)i;
	return TOP_OTHER;
}

static void skip_line(struct steps_tail *fl, const char *why)
{
	fl->skipped++;
	diag_add(&fl->ctx->run->diags, DIAG_WARN, fl->path, fl->line, -1, fl->rank,
		 "line skipped: %s", why);
}

static bool scan_enabled = true;

void pytscope_scan_enable(bool on)
{
	scan_enabled = on;
}

/* A record's timestamp is there: 0.0 is pytscope's for a record without one (spec §2),
 * missing, never an offset of minus the rank's first timestamp; one that is not finite
 * is missing too, and said. */
static bool timestamp_kept(struct steps_tail *fl, bool have, double ts)
{
	if (have && !isfinite(ts)) {
		steps_note_timestamp(note_at(fl), true, ts);
		return false;
	}
	return have && ts != 0.0;
}

/* The line the scanner understood, stored with the calls (and metric interning order)
 * of the jsmn path below. */
static void store_scanned(struct steps_tail *fl)
{
	struct scan_line *l = &fl->scan;
	bool have_ts = timestamp_kept(fl, l->have_timestamp, l->timestamp);
	size_t pos = rank_append(fl->r, (long)l->step, l->timestamp, have_ts);
	check_order(fl, pos, l->n[METRIC_PHASE] > 0);
	for (int g = 0; g < 3; g++)
		for (size_t i = 0; i < l->n[g]; i++) {
			const struct scan_member *e = &l->m[g][i];
			int id = e->id;
			if (id < 0) {
				id = cached_metric_id(fl, (enum metric_kind)g, e->key, e->len, -1);
				if (l->pred[g][i].len == e->len) /* e is the prediction now */
					l->pred[g][i].id = id;
			}
			if (e->nano) {
				store_set_nano(fl->r, pos, id, e->code);
			} else {
				store_set(fl->r, pos, id, e->value);
				if (g == METRIC_PHASE)
					check_phase(fl, e->key, e->len, e->value);
				else if (g == METRIC_MEMORY)
					check_memory(fl, e->key, e->len, e->value);
			}
		}
	fl->records++;
}

/* One stripped, non-empty line. last_partial: the final line had no newline. Returns
 * false when the line is a truncated tail (not an error). */
static bool load_line(struct steps_tail *fl, const char *s, size_t n, bool unterminated)
{
	size_t avail = fl->lim > s ? (size_t)(fl->lim - s) : n; /* the fast path first */
	if (scan_enabled && pytscope_scan_line(s, n, avail, &fl->scan)) {
		store_scanned(fl);
		return true;
	}
	struct json_doc *d = &fl->doc;
	int rc = json_parse(d, s, n);
	if (rc < 0 || (rc > 0 && d->tok[0].end != (int)n)) {
		if (unterminated)
			return false;
		skip_line(fl, rc < 0 ? json_err_str(rc) : "trailing data after the JSON value");
		return true;
	}
	if (d->tok[0].type != JSMN_OBJECT) {
		skip_line(fl, "not a JSON object");
		return true;
	}
	int at[TOP_OTHER + 1] = { -1, -1, -1, -1, -1, -1 }; /* value token by key (the last of a name) */
	for (int k = 1, i = 0; i < d->tok[0].size && k + 1 < d->ntok; i++) {
		at[top_key(d, k)] = k + 1;
		k = d->tok[k + 1].type == JSMN_PRIMITIVE || d->tok[k + 1].type == JSMN_STRING
			    ? k + 2 : json_skip(d, k + 1);
	}
	int step_tok = at[TOP_STEP], ts_tok = at[TOP_TIMESTAMP];
	int grp[3] = { [METRIC_PHASE] = at[TOP_PHASES], [METRIC_SCALAR] = at[TOP_SCALARS],
		       [METRIC_MEMORY] = at[TOP_MEMORY] };
	long long step;
	if (step_tok < 0) {
		skip_line(fl, "no \"step\" key");
		return true;
	}
	if (!json_int(d, step_tok, &step)) {
		skip_line(fl, "\"step\" is not an integer");
		return true;
	}
	double ts = 0;
	bool have_ts = ts_tok >= 0 && d->tok[ts_tok].type == JSMN_PRIMITIVE && /* float32 offsets */
		       json_parse_double_approx(d->js + d->tok[ts_tok].start,
						(size_t)(d->tok[ts_tok].end - d->tok[ts_tok].start), &ts);
	if (ts_tok >= 0 && !have_ts)
		steps_note_timestamp(note_at(fl), false, 0);
	size_t pos = rank_append(fl->r, (long)step, ts, timestamp_kept(fl, have_ts, ts));
	int ph = grp[METRIC_PHASE];
	check_order(fl, pos, ph >= 0 && json_is_object(d, ph) && d->tok[ph].size > 0);
	for (int g = 0; g < 3; g++)
		if (grp[g] >= 0)
			load_group(fl, pos, grp[g], (enum metric_kind)g);
	fl->records++;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Line 1 after the UTF-8 byte-order mark at its start (stripped, n bytes, maybe none):
 * natively read, with a note; under --compat pytscope skipped, as pytscope's json.loads
 * fails on it, saying why. False for a truncated tail, as load_line(). */
static bool feed_bom_line(struct steps_tail *fl, const char *s, size_t n, bool unterminated)
{
	const struct opts *o = fl->ctx->run->opts;
	if (!(o && o->compat_pytscope)) {
		if (n && !load_line(fl, s, n, unterminated))
			return false;
		diag_add(&fl->ctx->run->diags, DIAG_INFO, fl->path, fl->line, -1, fl->rank, STEPS_BOM_NOTE);
		fl->bom = true;
		return true;
	}
	int rc = n ? json_parse(&fl->doc, s, n) : 0;
	if (unterminated && (rc < 0 || (rc > 0 && fl->doc.tok[0].end != (int)n)))
		return false;
	skip_line(fl, STEPS_BOM_COMPAT);
	fl->bom = true;
	return true;
}

/* Strip and dispatch one line; returns false for a truncated tail. */
static bool feed_line(struct steps_tail *fl, const char *s, size_t n, bool unterminated)
{
	bool bom = ++fl->line == 1 && text_utf8_bom(s, n);
	if (bom) {
		s += 3;
		n -= 3;
	}
	while (n && is_space(*s)) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	if (n > MAX_LINE) {
		skip_line(fl, "line longer than 64 MiB");
		return true;
	}
	if (bom)
		return feed_bom_line(fl, s, n, unterminated);
	return n == 0 || load_line(fl, s, n, unterminated);
}

/* Bytes of the first chunk whose newlines size a rank's columns. */
#define SAMPLE_BYTES ((size_t)8 << 10)

/* Size the rank's columns from the line length in the first chunk's first SAMPLE_BYTES
 * and the file size (exactly when the sample is the whole file; compaction trims an
 * estimate). Counting every newline of a file read in one chunk would be a second pass
 * over all the bytes of a run of many small ranks. */
static void reserve_from_sample(struct steps_tail *fl, const char *buf, size_t n)
{
	size_t lines = 0, k = n < SAMPLE_BYTES ? n : SAMPLE_BYTES, end = 0;
	for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + k - p))); p++) {
		lines++;
		end = (size_t)(p - buf) + 1;
	}
	if ((long long)k >= fl->size) { /* the whole file: reserve exactly (no trim at compaction) */
		rank_reserve(fl->r, lines + (end < k));
		return;
	}
	if (lines < 8)
		return;
	double per_line = (double)end / (double)lines;
	rank_reserve(fl->r, (size_t)((double)fl->size / per_line * 1.02) + 16);
}

/* Feed the complete lines of buf[0..end); returns the bytes consumed (up to the last
 * newline). Inside an over-long line (discarding) everything up to its newline is
 * consumed unparsed: one physical line is one record or one diagnostic, never a
 * phantom record made of its tail. */
static size_t feed_complete(struct steps_tail *t, const char *buf, size_t end)
{
	size_t start = 0;
	if (t->discarding) {
		const char *nl = memchr(buf, '\n', end);
		if (!nl)
			return end;
		start = (size_t)(nl - buf) + 1;
		t->discarding = false;
	}
	if (t->skip_nl && end) {
		t->skip_nl = false;
		if (buf[0] == '\n')
			start = 1;
	}
	for (;;) { /* a line with the previous line's shape is read before its newline is found */
		size_t len;
		if (scan_enabled && pytscope_scan_next(buf + start, end - start, &t->scan, &len)) {
			t->line++;
			store_scanned(t);
			start += len + 1;
			continue;
		}
		const char *nl = memchr(buf + start, '\n', end - start);
		if (!nl)
			return start;
		feed_line(t, buf + start, (size_t)(nl - (buf + start)), false);
		start = (size_t)(nl - buf) + 1;
	}
}

/* The unterminated bytes at the end of what is read: a last line without newline is
 * loaded when it parses; a truncated one stays pending (offset keeps its start). */
static void feed_tail(struct steps_tail *t, const char *buf, size_t len)
{
	long line = t->line;
	if (feed_line(t, buf, len, true)) {
		t->offset += (long long)len;
		t->skip_nl = true;
		t->partial = false;
	} else {
		t->line = line; /* counted again when the rest arrives */
		t->partial = true;
	}
}

/* Per thread, reused from file to file: the read buffer, a one-shot load's tail (its
 * scan state is 17 KB), the path of its file and the rank's arrays (store_body.c), so
 * reading a rank allocates nothing and touches no fresh pages. Freed when the thread
 * ends. tail_load: the load the tail read last (its key cache and shape carry on). */
struct read_scratch {
	char *buf;
	size_t cap;
	struct store_scratch *body;
	struct steps_tail tail;
	char *path;
	size_t path_cap;
	unsigned long tail_load;
	struct seal_sets sets;      /* load_stream_rank()'s */
};

/* Numbers the loads (load_job.id): a thread's key cache and shape stay in theirs. */
static atomic_ulong load_serial;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_key_ok;

static void scratch_free(void *p)
{
	struct read_scratch *s = p;
	read_buf_free(s->buf, s->cap);
	store_scratch_free(s->body);
	seal_sets_free(&s->sets);
	free(s->path);
	free(s);
}

static void scratch_key_init(void)
{
	scratch_key_ok = pthread_key_create(&scratch_key, scratch_free) == 0;
}

/* The calling thread's scratch handed back at the end of a load, as a pool thread's is
 * when it ends: its read buffer goes back to the kept blocks, where the index writer's
 * direct buffer is taken from next. */
static void scratch_release(void)
{
	struct read_scratch *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
	if (s && pthread_setspecific(scratch_key, NULL) == 0)
		scratch_free(s);
}

/* This thread's scratch; *own: a one-off the caller frees (no thread key to keep it). */
static struct read_scratch *scratch_get(bool *own)
{
	pthread_once(&scratch_once, scratch_key_init);
	struct read_scratch *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
	*own = false;
	if (s)
		return s;
	s = xcalloc(1, sizeof(*s));
	s->cap = CHUNK;
	s->buf = read_buf_new(CHUNK);
	s->body = store_scratch_new();
	*own = !scratch_key_ok || pthread_setspecific(scratch_key, s) != 0;
	return s;
}

int steps_tail_read(struct steps_tail *t, struct rank_steps *r, int fd, long long limit, bool final)
{
	t->r = r;
	t->scan.exact_scalars = rank_scalars_exact(r);
	bool own;
	struct read_scratch *scratch = scratch_get(&own);
	size_t cap = scratch->cap, len = 0, lead = (size_t)t->offset % READ_PAGE;
	char *buf = scratch->buf;   /* the pending bytes at buf + lead (READ_PAGE) */
	long long pos = t->offset;   /* file offset of buf + lead + len */
	int err = 0;
	t->partial = false;
	t->mem.p = NULL;
	char prev;
	if (t->resumed && t->offset > 0 && pread(fd, &prev, 1, (off_t)(t->offset - 1)) == 1)
		t->skip_nl = prev != '\n';
	if (t->resumed)
		steps_notes_recall(&t->notes, &t->ctx->run->diags, t->path, t->rank, r, r->n);
	t->resumed = false;
	for (;;) {
		if (load_cancelled(t->ctx))
			break;
		if (lead + len == cap) {
			t->mem.p = NULL;
			buf = scratch->buf = read_buf_resize(buf, cap, cap * 2, lead, len);
			cap = scratch->cap = cap * 2;
		}
		size_t want = cap - lead - len;
		if (limit - pos < (long long)want)
			want = (size_t)(limit - pos);
		ssize_t got = !want ? 0 : t->size < 0 ? read(fd, buf + lead + len, want)
					       : pread(fd, buf + lead + len, want, (off_t)pos);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			break;
		}
		t->lim = buf + cap;
		if (got == 0) { /* the limit, or the end of a file that shrank under us */
			if (len && final)
				feed_tail(t, buf + lead, len);
			else
				t->partial = len > 0;
			break;
		}
		load_progress(t->ctx, got, 0);
		pos += got;
		size_t end = len + (size_t)got;
		if (t->line == 0 && t->size > 0)
			reserve_from_sample(t, buf + lead, end);
		size_t had = t->records;
		size_t used = feed_complete(t, buf + lead, end);
		if (t->records != had)
			run_source_records(t->ctx->run, t->src, t->records);
		t->offset += (long long)used;
		len = end - used;
		size_t to = (size_t)t->offset % READ_PAGE;   /* the pending line's place */
		bool kept = !len || to == lead + used;       /* the move leaves every byte in place */
		t->mem = (struct extent_mem){ .p = kept ? buf + lead : NULL, .off = pos - (long long)end, .len = end };
		memmove(buf + to, buf + lead + used, len);
		lead = to;
		if (len > MAX_LINE + 1) { /* an endless line: drop it and resync after its newline */
			t->mem.p = NULL;
			t->line++;
			skip_line(t, "line longer than 64 MiB");
			t->discarding = true;
			t->offset += (long long)len;
			len = 0;
			lead = (size_t)t->offset % READ_PAGE;
		}
		if (cap > CHUNK && len < CHUNK / 2) {
			t->mem.p = NULL;
			buf = scratch->buf = read_buf_resize(buf, cap, CHUNK, lead, len);
			cap = scratch->cap = CHUNK;
		}
	}
	if (scratch->cap > CHUNK) { /* after an over-long line: keep only the usual size */
		t->mem.p = NULL;
		scratch->buf = read_buf_resize(scratch->buf, scratch->cap, CHUNK, 0, 0);
		scratch->cap = CHUNK;
	}
	if (own) {
		t->mem.p = NULL;
		scratch_free(scratch);
	}
	run_source_done(t->ctx->run, t->src, t->records, t->skipped, err, t->partial);
	run_source_progress(t->ctx->run, t->src, limit < LLONG_MAX ? limit : pos, t->offset, t->line);
	if (err && err != t->last_err)
		diag_add(&t->ctx->run->diags, DIAG_ERROR, t->path, t->line > 0 ? t->line : -1, -1,
			 t->rank, "read error: %s", strerror(err));
	t->last_err = err;
	return err;
}

/* A tail at the start of path (borrowed), a new source; field by field (no 17 KB memset).
 * keep: the key cache and scanner shape go on from the file it read last, of the same
 * load (that model's metric ids; a line matching them gives what a full scan gives). */
static void tail_init(struct steps_tail *t, struct load_ctx *ctx, int rank, const char *path, long long size, bool keep)
{
	t->ctx = ctx;
	t->m = steps_model_get(ctx->run);
	t->r = NULL;
	t->path = path;
	t->rank = rank;
	t->records = t->skipped = 0;
	t->line = t->offset = t->last_err = 0;
	t->size = size;
	t->skip_nl = t->partial = t->resumed = t->discarding = t->bom = false;
	t->notes = (struct steps_notes){ 0 };
	t->lim = NULL;
	t->src = run_add_source(ctx->run, path, "pytscope", rank, size);
	json_doc_init(&t->doc);
	if (!keep) {
		t->cache.n = t->cache.next = 0;
		pytscope_scan_init(&t->scan);
	}
}

struct steps_tail *steps_tail_new(struct load_ctx *ctx, int rank, const char *path, long long size)
{
	struct steps_tail *t = xmalloc(sizeof(*t));
	tail_init(t, ctx, rank, path, size, false);
	t->path = xstrdup(path);
	return t;
}

struct steps_tail *steps_tail_resume(struct load_ctx *ctx, size_t src)
{
	struct run *run = ctx->run;
	pthread_mutex_lock(&run->lock);
	struct source so = run->src[src];
	char *path = xstrdup(so.path);
	pthread_mutex_unlock(&run->lock);
	struct steps_tail *t = xcalloc(1, sizeof(*t));
	t->ctx = ctx;
	t->m = steps_model_get(run);
	t->path = path;
	t->rank = so.rank;
	t->size = so.bytes;
	t->src = src;
	t->offset = so.consumed;
	t->line = so.lines;
	t->records = so.records;
	t->skipped = so.skipped;
	t->resumed = true;
	json_doc_init(&t->doc);
	pytscope_scan_init(&t->scan);
	return t;
}

size_t steps_tail_records(const struct steps_tail *t)
{
	return t->records;
}

void steps_tail_free(struct steps_tail *t)
{
	if (!t)
		return;
	json_doc_free(&t->doc);
	free((char *)t->path);
	free(t);
}

long long steps_tail_offset(const struct steps_tail *t)
{
	return t->offset;
}

/* Open a rank's steps.jsonl (rel: path relative to dirfd, the same file; d, i: its stat
 * shared with discovery, or NULL); an absent file is a note (-1), an unreadable one an
 * error (-2). */
static int open_steps(struct run *run, int dirfd, const char *path, const char *rel, int rank, struct stat *st,
		      struct steps_discovery *d, size_t i)
{
	int fd = steps_discover_openat(d, i, dirfd, rel, st);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT) {
		diag_add(&run->diags, DIAG_INFO, path, -1, -1, rank, "no steps.jsonl");
		return -1;
	}
	size_t si = run_add_source(run, path, "pytscope", rank, -1);
	run_source_done(run, si, 0, 0, errno, false);
	diag_add(&run->diags, DIAG_ERROR, path, -1, -1, rank, "cannot open: %s", infile_strerror(errno));
	return -2;
}

/* One-shot load of path (rel: the same file relative to dirfd, or AT_FDCWD and path) up
 * to the size seen at open, so a writer that keeps appending cannot keep the load from
 * finishing (follow mode reads the rest). The tail is the thread's (read_scratch);
 * within load load_id (0: none) its key cache and shape go on from the previous file.
 * False when the file was read as a stream (a FIFO) to its writer's end, or is a FIFO
 * that no writer had open (not waited for). *unreadable (when not NULL): it could not be
 * opened (the error is diagnosed); *bom (when not NULL): it starts with a UTF-8
 * byte-order mark. */
static bool load_steps_file(struct load_ctx *ctx, struct rank_steps *r, int dirfd, const char *path,
			    const char *rel, int rank, unsigned long load_id, struct steps_discovery *d, size_t i,
			    bool *unreadable, bool *bom)
{
	struct stat st = { 0 }; /* st_mode 0 unless the open got as far as a stat */
	int fd = open_steps(ctx->run, dirfd, path, rel, rank, &st, d, i);
	if (unreadable)
		*unreadable = fd == -2;
	if (bom)
		*bom = false;
	if (fd < 0)
		return !S_ISFIFO(st.st_mode); /* a FIFO with no writer is not indexed either */
	long long size = S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
	bool own;
	struct read_scratch *s = scratch_get(&own);
	tail_init(&s->tail, ctx, rank, path, size, load_id && s->tail_load == load_id);
	steps_tail_read(&s->tail, r, fd, size >= 0 ? size : LLONG_MAX, true);
	if (size >= 0 && ctx->opts && (ctx->opts->index_build || ctx->opts->shard_n)) /* for the part it writes */
		extent_stamp(ctx->run, s->tail.src, fd, &st, &s->tail.mem);
	close(fd);
	json_doc_free(&s->tail.doc);
	if (bom)
		*bom = s->tail.bom;
	s->tail_load = load_id;
	if (own)
		scratch_free(s);
	return size >= 0;
}

void steps_rank_reparse(struct run *run, struct rank_steps *r)
{
	struct steps_model *m = r->m;
	struct load_ctx ctx = { .run = run, .opts = run->opts };
	struct rank_steps *f = steps_rank_new(m, r->rank, r->path);
	bool lowest = true;
	for (size_t i = 0; i < m->nrank && lowest; i++)
		lowest = m->rank[i]->rank >= r->rank;
	if (lowest)
		rank_exact_scalars(f);
	char *steps = xasprintf("%s/steps.jsonl", r->path);
	load_steps_file(&ctx, f, AT_FDCWD, steps, steps, r->rank, 0, NULL, 0, NULL, NULL);
	free(steps);
	steps_rank_seal(f);
	/* the body moves into r; r keeps its shell (path, run.json, part) */
	struct rank_steps keep = *r;
	*r = *f;
	free(r->path);
	steps_meta_free(&r->meta);
	r->meta = keep.meta;
	r->path = keep.path;
	r->part = keep.part;
	free(f);
}

struct load_job {
	struct load_ctx *ctx;
	struct steps_model *m;
	struct task_list *tasks;
	long lowest;          /* lowest rank id of the plan: its scalars are kept exactly */
	const char *path;     /* the run dir ... */
	int dirfd;            /* ... open (-1: not a directory), rank files are opened relative to it */
	unsigned long id;     /* load_serial */
	struct steps_discovery *disc;   /* sizes the ranks meanwhile, one stat per file between them */
	atomic_long streamed; /* a task whose steps.jsonl was a FIFO (the first to say so), or -1 */
	atomic_long bom;      /* a task whose steps.jsonl or run.json starts with a UTF-8 BOM, or -1 */
	struct load_stream *stream; /* the index part written as ranks are sealed, or NULL */
};

/* The steps.jsonl of task t: its path in the thread's buffer, and in *rel the same file
 * relative to the run dir (*dirfd) when the rank dir is inside it (each open then walks
 * two names, not the whole path). */
static const char *task_steps(const struct load_job *job, const struct rank_task *t,
			      struct read_scratch *s, const char **rel, int *dirfd)
{
	static const char name[] = "/steps.jsonl";
	const char *dir = t->steps_path ? t->steps_path : t->dir;
	size_t n = strlen(dir), need = n + sizeof(name);
	xgrow((void **)&s->path, &s->path_cap, need, 1);
	memcpy(s->path, dir, n);
	if (t->steps_path)
		s->path[n] = '\0';
	else
		memcpy(s->path + n, name, sizeof(name));
	*rel = s->path;
	*dirfd = AT_FDCWD;
	size_t k = strlen(job->path);
	if (job->dirfd < 0 || t->steps_path || strncmp(dir, job->path, k) != 0)
		return s->path;
	if (dir[k] == '\0') {
		*rel = s->path + n + 1;  /* the run dir itself: "steps.jsonl" */
		*dirfd = job->dirfd;
	} else if (dir[k] == '/' && dir[k + 1] && dir[k + 1] != '/') {
		*rel = s->path + k + 1;
		*dirfd = job->dirfd;
	}
	return s->path;
}

static void load_rank(void *ud, size_t i)
{
	struct load_job *job = ud;
	const struct rank_task *t = &job->tasks->v[i];
	struct rank_steps *r = steps_rank_new(job->m, (int)t->rank, t->dir);
	if (t->rank == job->lowest)
		rank_exact_scalars(r);
	bool own;
	struct read_scratch *s = scratch_get(&own);
	store_rank_use_scratch(r, s->body); /* until the seal below */
	const char *rel;
	int dirfd;
	const char *steps = task_steps(job, t, s, &rel, &dirfd);
	long none = -1;
	bool unreadable, bom, regular = load_steps_file(job->ctx, r, dirfd, steps, rel, (int)t->rank, job->id,
						       job->disc, i, &unreadable, &bom);
	if (!regular)
		atomic_compare_exchange_strong(&job->streamed, &none, (long)i);
	none = -1;
	if (steps_rank_load_meta(job->ctx->run, r, t->dir, (int)t->rank, t->rank == job->lowest) || bom)
		atomic_compare_exchange_strong(&job->bom, &none, (long)i);
	if (r->n == 0 && !unreadable) /* an unreadable one's error says why it has none */
		steps_rank_log_missing(job->ctx->run, r, t->dir);
	load_stream_rank(job->stream, r, regular, &s->sets); /* sealed on the worker thread */
	if (own)
		scratch_free(s);
	steps_publish_rank(job->m, r);
}

int pytscope_load(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	struct load_plan lp;
	steps_plan_load(ctx, path, &lp);
	pthread_mutex_lock(&run->lock); /* what the parse adds goes into a new index */
	size_t src0 = run->nsrc;
	pthread_mutex_unlock(&run->lock);
	size_t d0 = run->diags.n;
	struct task_list *t = &lp.tasks;
	struct load_job job = { .ctx = ctx, .m = steps_model_get(run), .tasks = t, .lowest = lp.lowest,
				.path = path, .dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
				.id = atomic_fetch_add(&load_serial, 1) + 1, .streamed = -1, .bom = -1 };
	lp.stream = job.stream = load_stream_begin(ctx, path, &lp, job.id);
	steps_expect_ranks(job.m, t->n);
	steps_add_left_out(job.m, lp.left_out);
	/* the ranks are parsed while their files are listed and sized (load_detect.c) */
	struct steps_discovery *d = job.disc = steps_discover_begin(ctx, job.m, t, NULL);
	pool_run(t->n, ctx->opts ? ctx->opts->jobs : 0, load_rank, &job);
	scratch_release();
	if (job.dirfd >= 0)
		close(job.dirfd);
	long long total = steps_discover_end(d);
	lp.streamed = atomic_load(&job.streamed);
	lp.bom = atomic_load(&job.bom);
	if (t->n || lp.grown)
		steps_plan_write_index(ctx, path, &lp, total, src0, d0);
	load_stream_end(lp.stream, run);
	steps_tasks_free(t);
	index_log_end(lp.log);
	steps_rank_files_free(lp.files);
	steps_name_run(run, job.m);
	return 0;
}
