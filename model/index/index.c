/* SPDX-License-Identifier: MIT */
/* index.c: the persistent index's part files (see index.h for the layout and format):
 * writing a part atomically (whole, or its bodies streamed beforehand; the file itself:
 * wfile.c), reading and checking parts' heads, staleness against the sources, and
 * restoring a valid part's rank shells (bodies are read on demand,
 * model/steps/store_index.c; a subset's metrics: subset.c), sources and diagnostics
 * into a run. The sources a part is written from or checked against are noted for the
 * index files' mode (wfile.c). Invalidating a damaged file: damage.c. */
#include "model/index/index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/delta.h"
#include "model/index/extent.h"
#include "model/infile.h"
#include "model/opts.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

#define BYTE_ORDER_MARK 0x01020304u
#define BYTE_ORDER_SWAPPED 0x04030201u /* the mark as read from a host of the other byte order */
static const char index_magic[8] = { 'T', 'S', 'C', 'O', 'P', 'E', 'I', 'X' };

static char *part_path(const char *dir, unsigned k, unsigned n)
{
	return xasprintf("%s/steps-%u-of-%u.tsx", dir, k, n);
}

/* ---- sources: sizes and mtimes -------------------------------------------------------- */

struct file_stamp {
	long long size;      /* -1: absent */
	long long mtime_ns;
};

static struct file_stamp stamp_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return (struct file_stamp){ -1, 0 };
	return (struct file_stamp){ (long long)st.st_size,
				    infile_mtime_ns(&st) };
}

/* ---- writing -------------------------------------------------------------------------- */

/* A loaded run's rank of files[i]: its index in the step model, -1 when none. */
static long model_rank(const struct index_part_spec *s, size_t i)
{
	return steps_rank_index(s->run->steps, (int)s->files[i].rank);
}

/* The stamp of files[i]'s run.json: as its loader read it, else as it is now. */
static void put_meta_stamp(struct obuf *o, const struct index_part_spec *s, size_t i)
{
	long ri = s->run->steps ? model_rank(s, i) : -1;
	long long size, mtime_ns;
	if (ri >= 0 && steps_rank_meta_stamp(s->run->steps, (size_t)ri, &size, &mtime_ns)) {
		ob_svar(o, size);
		ob_svar(o, mtime_ns);
		return;
	}
	char *meta = xasprintf("%s/run.json", s->files[i].dir);
	struct file_stamp st = stamp_of(meta);
	int fd = st.size >= 0 ? open(meta, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (st.size >= 0 && fd < 0 && (errno == EACCES || errno == EPERM)) /* the load had no metadata either */
		st.size = EXTENT_UNREADABLE;
	if (fd >= 0)
		close(fd);
	ob_svar(o, st.size);
	ob_svar(o, st.mtime_ns);
	free(meta);
}

/* f's sources (its steps.jsonl, its run.json, their dir) for the mode of the index files
 * written from now on (index_note_source). */
static void note_rank_sources(const struct steps_rank_file *f)
{
	char *meta = xasprintf("%s/run.json", f->dir);
	index_note_source(meta);
	free(meta);
	if (f->steps)
		index_note_source(f->steps);
}

/* Entry i of the spec's sources (or diagnostics): pick's list, else the range. */
static size_t picked(const size_t *list, size_t first, size_t i)
{
	return list ? list[i] : first + i;
}

static void put_sources(struct obuf *o, const struct index_part_spec *sp)
{
	const struct run *run = sp->run;
	const char *base = sp->run_dir;
	size_t n = sp->pick ? sp->pick->nsrc : sp->src1 - sp->src0;
	ob_uvar(o, n);
	for (size_t i = 0; i < n; i++) {
		const struct source *s = &run->src[picked(sp->pick ? sp->pick->src : NULL, sp->src0, i)];
		ob_path(o, base, s->path);
		ob_svar(o, s->rank);
		ob_source_counts(o, s);
	}
}

void index_put_diags(struct obuf *o, const char *base, const struct run *run, const size_t *idx, size_t first,
		     size_t n)
{
	ob_uvar(o, n);
	for (size_t i = 0; i < n; i++)
		ob_diag(o, base, &run->diags.v[picked(idx, first, i)]);
}

static void put_diags(struct obuf *o, const struct index_part_spec *sp)
{
	index_put_diags(o, sp->run_dir, sp->run, sp->pick ? sp->pick->diag : NULL, sp->d0,
			sp->pick ? sp->pick->ndiag : sp->d1 - sp->d0);
}

/* The head: shard, the slice's source stamps, the metric table, the rank shells with
 * where their bodies are (offset in the file, length, CRC-32), sources, diagnostics.
 * has[i - lo]: files[i]'s rank has steps, its body at loc[i - lo]. */
static void build_head(struct obuf *o, const struct index_part_spec *s, const bool *has,
		       const struct index_body_loc *loc)
{
	const char *base = s->run_dir;
	ob_u32(o, s->k);
	ob_u32(o, s->n);
	ob_uvar(o, s->hi - s->lo);
	long *src = xmalloc((s->hi - s->lo + 1) * sizeof(*src)); /* each file's source, one sort */
	index_sources_of(s->run, s->files + s->lo, NULL, s->hi - s->lo, src, NULL);
	for (size_t i = s->lo; i < s->hi; i++) {
		if (s->ahead)
			s->ahead(s->ud, i, INDEX_PASS_STAMPS);
		note_rank_sources(&s->files[i]);
		ob_svar(o, s->files[i].rank);
		ob_path(o, base, s->files[i].dir);
		extent_put_src(o, s->run, s->files[i].steps, src[i - s->lo]);
		put_meta_stamp(o, s, i);
	}
	free(src);
	index_metrics_put(o, s->run->steps);
	size_t nr = 0;
	for (size_t i = s->lo; i < s->hi; i++)
		nr += has[i - s->lo];
	ob_uvar(o, nr);
	for (size_t i = s->lo, prev = SIZE_MAX; i < s->hi; i++) {
		if (s->ahead)
			s->ahead(s->ud, i, INDEX_PASS_SHELLS);
		if (!has[i - s->lo])
			continue;
		s->shell(s->ud, i, prev, o);
		prev = i;
		ob_uvar(o, loc[i - s->lo].off);
		ob_uvar(o, loc[i - s->lo].len);
		ob_u32(o, loc[i - s->lo].crc);
	}
	put_sources(o, s);
	put_diags(o, s);
}

/* Part k of n of family `kind` ("steps", "traces") when name is one (not a temporary). */
static bool part_name(const char *name, const char *kind, unsigned *k, unsigned *n)
{
	size_t kl = strlen(kind);
	char tail[8];
	return strncmp(name, kind, kl) == 0 && sscanf(name + kl, "-%u-of-%u.ts%1s", k, n, tail) == 3 && *n &&
	       *k < *n && !strstr(name, ".tmp");
}

void index_remove_other_parts(const char *dir, const char *kind, unsigned n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		unsigned pk, pn;
		if (part_name(e->d_name, kind, &pk, &pn) && pn != n) {
			char *p = xasprintf("%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
	}
	closedir(d);
}

/* The header for a payload of plen bytes whose head is [head_off, head_off + head_len)
 * of the payload with CRC-32 crc. */
void index_header_put(unsigned char *out, uint64_t plen, uint64_t head_off, uint64_t head_len, uint32_t crc)
{
	struct obuf h = { 0 };
	ob_bytes(&h, index_magic, sizeof(index_magic));
	ob_u32(&h, INDEX_VERSION);
	uint32_t bom = BYTE_ORDER_MARK;
	ob_bytes(&h, &bom, sizeof(bom));
	ob_w64(&h, plen);
	ob_w64(&h, head_off);
	ob_w64(&h, head_len);
	ob_u32(&h, crc);
	ob_u32(&h, 0);
	memcpy(out, h.p, INDEX_HEADER_LEN);
	ob_free(&h);
}

/* A part as it is written: its spec and where each file's body went. */
struct part_fill {
	const struct index_part_spec *s;
	bool *has;
	struct index_body_loc *loc;
};

/* The part's bodies (spec->body: each with its CRC-32), then its head. */
static void fill_part(struct obuf *o, void *ud)
{
	struct part_fill *f = ud;
	const struct index_part_spec *s = f->s;
	for (size_t i = s->lo; i < s->hi; i++) {
		if (s->ahead)
			s->ahead(s->ud, i, INDEX_PASS_BODIES);
		f->has[i - s->lo] = s->body(s->ud, i, o, &f->loc[i - s->lo]);
	}
	ob_head(o);
	build_head(o, s, f->has, f->loc);
}

uint64_t index_body_offset(const struct obuf *body)
{
	return INDEX_HEADER_LEN + body->written + body->n;
}

void index_body_begin(struct obuf *body, struct index_body_loc *loc)
{
	loc->off = index_body_offset(body);
	ob_sum_begin(body);
}

void index_body_end(struct obuf *body, struct index_body_loc *loc)
{
	loc->crc = ob_sum_end(body);
	loc->len = index_body_offset(body) - loc->off;
}

/* After part s was written to path (err: 0 or why not): the written callback, and the
 * parts it replaces removed. */
static int part_done(const struct index_part_spec *s, char *dir, char *path, int err, const bool *has,
		     const struct index_body_loc *loc, char **path_out)
{
	if (!err && s->written)
		s->written(s->ud, path, has, loc);
	/* The open reads the parts of the newest shard count only (index_newest_count):
	 * from now on those of any other count, their deltas and their parts of the summary
	 * are never read again. */
	if (!err) {
		index_remove_other_parts(dir, "steps", s->n);
		index_remove_other_parts(dir, "inputs", s->n == 1 ? 0 : s->n); /* a whole index: every shard's */
		delta_remove_replaced(dir, s->k, s->n); /* its own extend the part replaced (and would not match it) */
	}
	free(dir);
	if (path_out && !err)
		*path_out = path;
	else
		free(path);
	return err;
}

int index_write_spec(const struct index_part_spec *s, char **path_out)
{
	if (path_out)
		*path_out = NULL;
	if (!s->run->steps || s->n == 0 || s->k >= s->n)
		return EINVAL;
	char *dir = index_write_dir_for(s->run_dir);
	int derr = index_mkdir_p(dir);
	if (derr) {
		free(dir);
		return derr;
	}
	char *path = part_path(dir, s->k, s->n);
	size_t cap = s->hi > s->lo ? s->hi - s->lo : 1;
	struct part_fill f = { s, xcalloc(cap, sizeof(*f.has)), xcalloc(cap, sizeof(*f.loc)) };
	int err = index_file_write(path, fill_part, &f);
	err = part_done(s, dir, path, err, f.has, f.loc, path_out);
	free(f.has);
	free(f.loc);
	return err;
}

int index_part_begin(struct index_wfile *w, const char *run_dir, unsigned k, unsigned n)
{
	char *dir = index_write_dir_for(run_dir);
	int err = index_mkdir_p(dir);
	char *path = part_path(dir, k, n);
	if (!err)   /* else w is not begun (the caller drops it unused) */
		err = index_file_begin(w, path);
	free(path);
	free(dir);
	return err;
}

int index_part_end(const struct index_part_spec *s, struct index_wfile *w, const bool *has,
		   const struct index_body_loc *loc, char **path_out)
{
	if (path_out)
		*path_out = NULL;
	char *dir = index_write_dir_for(s->run_dir);
	char *path = xstrdup(w->path);
	ob_head(&w->o);
	build_head(&w->o, s, has, loc);
	int err = index_file_end(w, true);
	return part_done(s, dir, path, err, has, loc, path_out);
}

/* ---- reading -------------------------------------------------------------------------- */

/* A part's header: payload length, where the head is and its CRC-32. */
struct part_header {
	uint64_t plen, head_off, head_len;
	uint32_t head_crc;
};

/* A version field above INDEX_VERSION by more than this no build wrote: a damaged header. */
#define VERSION_AHEAD_MAX 16u

/* The header's fields that are under no checksum (version, byte-order mark, payload
 * length) against a file of have bytes after its header: NULL, a static reason, or one
 * in this thread's buffer (index.h). One flipped bit is named as damage where no build
 * writes such a field; a length that does not match can be either. */
static const char *header_fields_why(uint32_t version, uint32_t bom, uint64_t plen, unsigned long long have)
{
	static _Thread_local char why[160];
	if (version == 0 || version > INDEX_VERSION + VERSION_AHEAD_MAX)
		snprintf(why, sizeof(why), "damaged header (version field reads %u)", version);
	else if (version != INDEX_VERSION)
		snprintf(why, sizeof(why), "written by another index format version (%u; this build reads %u)", version,
			 INDEX_VERSION);
	else if (bom == BYTE_ORDER_SWAPPED)
		return "written on a host of another byte order";
	else if (bom != BYTE_ORDER_MARK)
		snprintf(why, sizeof(why), "damaged header (byte-order mark reads 0x%08x)", bom);
	else if (plen > have)
		snprintf(why, sizeof(why), "truncated or damaged (its header gives a payload of %llu bytes, the file "
			 "holds %llu)", (unsigned long long)plen, have);
	else if (plen < have)
		snprintf(why, sizeof(why), "trailing bytes after the payload, or a damaged header (its header gives a "
			 "payload of %llu bytes, the file holds %llu)", (unsigned long long)plen, have);
	else
		return NULL;
	return why;
}

/* Check a header against the file's length; NULL or a reason (header_fields_why). */
static const char *header_check(const unsigned char *bytes, size_t avail, unsigned long long file_len,
				struct part_header *h)
{
	if (avail < INDEX_HEADER_LEN || file_len < INDEX_HEADER_LEN)
		return "truncated (shorter than its header)";
	if (memcmp(bytes, index_magic, sizeof(index_magic)) != 0)
		return "not an index file (bad magic)";
	struct ibuf b = { bytes, INDEX_HEADER_LEN, sizeof(index_magic), false };
	uint32_t version = ib_u32(&b);
	uint32_t bom;
	memcpy(&bom, ib_bytes(&b, 4), sizeof(bom));
	h->plen = ib_w64(&b);
	h->head_off = ib_w64(&b);
	h->head_len = ib_w64(&b);
	h->head_crc = ib_u32(&b);
	if (ib_u32(&b) == INDEX_INVALID_MARK)
		return "invalidated: an earlier open found it damaged";
	const char *bad = header_fields_why(version, bom, h->plen, file_len - INDEX_HEADER_LEN);
	if (bad)
		return bad;
	if (h->head_off > h->plen || h->head_len != h->plen - h->head_off)
		return "malformed header";
	return NULL;
}

const char *index_check(const unsigned char *bytes, size_t len)
{
	struct part_header h;
	const char *bad = header_check(bytes, len, len, &h);
	if (bad)
		return bad;
	const unsigned char *head = bytes + INDEX_HEADER_LEN + h.head_off;
	if (index_crc32(0, head, h.head_len) != h.head_crc)
		return "checksum mismatch (damaged)";
	return NULL;
}

/* Why a part is not used for a source in state es (not SAME nor GREW): malloc'd. */
static char *source_why(enum extent_state es, const char *path)
{
	switch (es) {
	case EXTENT_GONE:
		return xasprintf("stale: %s was removed", path);
	case EXTENT_DENIED:
		return xasprintf("%s is not readable by this user (the index shows no more than the files do)", path);
	case EXTENT_READABLE:
		return xasprintf("stale: %s can be read now (it could not when the index was written)", path);
	default:
		return xasprintf("stale: %s changed", path);
	}
}

/* A rank's run.json now against its recorded stamp (size EXTENT_UNREADABLE: its writer
 * could not open it; extent.h's rules). NULL when it matches, else a malloc'd reason. */
static char *meta_check(const char *meta, struct file_stamp was)
{
	struct stat st;
	struct file_stamp now = { -1, 0 };
	if (stat(meta, &st) == 0)
		now = (struct file_stamp){ (long long)st.st_size, infile_mtime_ns(&st) };
	else if (errno != ENOENT && was.size >= 0)
		return source_why(EXTENT_DENIED, meta);
	if (was.size == EXTENT_UNREADABLE && now.size >= 0 && now.mtime_ns == was.mtime_ns) {
		int fd = open(meta, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		return fd >= 0 ? source_why(EXTENT_READABLE, meta) : NULL;
	}
	if (now.size >= 0 && was.size >= 0 && !extent_may_read(meta, &st))
		return source_why(EXTENT_DENIED, meta);
	if (now.size == was.size && now.mtime_ns == was.mtime_ns)
		return NULL;
	return source_why(now.size < 0 && was.size >= 0 ? EXTENT_GONE : EXTENT_STALE, meta);
}

/* The slice's recorded sources against the run dir now; NULL when they match, else a
 * malloc'd reason. A steps.jsonl that only grew (extent.h) matches; grown[i - lo] is
 * then set (grown may be NULL). */
static char *check_sources(struct ibuf *b, const char *base, const struct steps_rank_file *files,
			   size_t lo, size_t hi, bool *grown, const struct delta_set *ds)
{
	size_t n = ib_count(b, 17);
	if (b->bad)
		return xstrdup("malformed source list");
	if (n != hi - lo)
		return xasprintf("stale: the shard had %zu rank dirs, now %zu", n, hi - lo);
	for (size_t i = 0; i < n; i++) {
		long id = (long)ib_svar(b);
		char *dir = ib_path(b, base);
		struct index_extent ext;
		extent_get(b, &ext);
		struct file_stamp mt = { ib_svar(b), ib_svar(b) };
		const struct steps_rank_file *f = &files[lo + i];
		const struct index_extent *moved = delta_set_extent(ds, f->rank);
		if (moved) /* a follower appended this rank's records since */
			ext = *moved;
		bool same_dir = dir && strcmp(dir, f->dir) == 0;
		free(dir);
		if (b->bad)
			return xstrdup("malformed source list");
		if (id != f->rank || !same_dir)
			return xasprintf("stale: rank dirs changed (rank %ld)", f->rank);
		note_rank_sources(f);
		enum extent_state es = extent_check(&ext, f->steps);
		if (es != EXTENT_SAME && es != EXTENT_GREW)
			return source_why(es, f->steps);
		if (grown)
			grown[i] = es == EXTENT_GREW;
		char *meta = xasprintf("%s/run.json", f->dir);
		char *why = meta_check(meta, mt);
		free(meta);
		if (why)
			return why;
	}
	return NULL;
}

bool index_keeps(const struct index_subset *s, long rank)
{
	return !s || rank < 0 || (ranklist_has(s->only, rank) && rank != s->reparsed);
}

/* The subset a load takes from the index (NULL: the whole run, also a run without rank
 * dirs, which --ranks does not apply to: steps_files_flat). */
static const struct index_subset *subset_of(const struct load_ctx *ctx, const char *run_dir,
					    const struct steps_rank_file *files, size_t nfiles, struct index_subset *s)
{
	if (!ctx->opts || !ctx->opts->ranks || steps_files_flat(files, nfiles, run_dir))
		return NULL;
	*s = (struct index_subset){ ctx->opts->ranks, -1 };
	for (size_t i = 0; i < nfiles; i++) {
		if (ranklist_has(s->only, files[i].rank)) {
			s->reparsed = i ? files[i].rank : -1;
			break;
		}
	}
	return s;
}

static void restore_sources(struct ibuf *b, struct run *run, const char *base, bool apply,
			    const struct index_subset *s)
{
	size_t n = ib_count(b, 10);
	for (size_t i = 0; i < n && !b->bad; i++) {
		char *path = ib_path(b, base);
		int rank = (int)ib_svar(b);
		struct source c;
		ib_source_counts(b, &c);
		if (apply && !b->bad && path && index_keeps(s, rank)) {
			size_t si = run_add_source(run, path, "pytscope", rank, c.bytes);
			run_source_done(run, si, c.records, c.skipped, c.err, c.partial);
			run_source_progress(run, si, c.bytes, c.consumed, c.lines);
		}
		free(path);
	}
}

void index_get_diags(struct ibuf *b, struct run *run, const char *base, bool apply, const struct index_subset *s)
{
	size_t n = ib_count(b, ENCODED_DIAG_MIN);
	for (size_t i = 0; i < n && !b->bad; i++) {
		struct diag d;
		ib_diag(b, base, &d);
		if (apply && !b->bad && index_keeps(s, d.rank))
			diag_add(&run->diags, d.level, d.file, d.line, d.offset, d.rank, "%s", d.msg);
		free(d.file);
		free(d.msg);
	}
}

/* An opened part: its head read into memory (pread: nothing of the part stays mapped,
 * so a part truncated in place later gives a short read, never a SIGBUS) and the file's
 * identity as checked. */
struct part_map {
	unsigned char *head;
	struct index_file_id id;
	struct delta_set *ds;     /* the part's deltas (delta.h), NULL: none */
};

bool index_pread_all(int fd, void *buf, size_t n, long long off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)off + (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* Decode a checked head's metric table (its ids: index_metrics_get's) and rank shells;
 * each shell reads its body from the part (*part) later (lazy). NULL on malformed bytes. */
static struct rank_steps **decode_ranks(struct ibuf *b, struct steps_model *m, const char *path,
					const char *base, const struct part_map *pm, const struct index_metric_ids *ids,
					const struct steps_part **part_out, size_t *nout)
{
	size_t nm;
	int *map = index_metrics_get(b, m, ids, &nm);
	size_t nr = ib_count(b, 16);
	struct rank_steps **r = xcalloc(nr ? nr : 1, sizeof(*r));
	const struct steps_part *part = b->bad ? NULL : steps_add_part(m, path, base, pm->id.size,
								      pm->id.mtime_ns, pm->id.ino, map, nm);
	*part_out = part;
	if (part)
		delta_set_register(pm->ds, m, base, ids);
	size_t k = 0;
	while (k < nr && !b->bad) {
		struct rank_steps *x = steps_rank_decode_shell(m, b, k ? r[k - 1] : NULL, base);
		uint64_t off = ib_uvar(b), len = ib_uvar(b);
		uint32_t crc = ib_u32(b);
		if (x && !b->bad && off >= INDEX_HEADER_LEN && len <= pm->id.body_end && off <= pm->id.body_end - len) {
			steps_rank_defer_body(x, part, off, len, crc);
			r[k++] = x;
			if (!delta_set_defer(pm->ds, x))
				b->bad = true;
		} else {
			steps_rank_free(x);
			b->bad = true;
		}
	}
	free(map);
	if (b->bad) {
		for (size_t i = 0; i < k; i++)
			steps_rank_free(r[i]);
		free(r);
		return NULL;
	}
	*nout = k;
	return r;
}

/* Sources and diagnostics after the ranks: checked whole first, then added to the run
 * (those index_keeps(s)). */
static bool restore_rest(struct ibuf *b, struct run *run, const char *base, const struct index_subset *s)
{
	struct ibuf dry = *b;
	restore_sources(&dry, run, base, false, NULL);
	index_get_diags(&dry, run, base, false, NULL);
	if (dry.bad || dry.off != dry.n)
		return false;
	restore_sources(b, run, base, true, s);
	index_get_diags(b, run, base, true, s);
	return true;
}

const char *index_head_read(const char *path, unsigned char **head, size_t *head_len,
			    struct index_file_id *id)
{
	*head = NULL;
	*head_len = 0;
	memset(id, 0, sizeof(*id));
	int fd = infile_open(path); /* a FIFO in its place: refused, not waited for */
	if (fd < 0)
		return errno == ENOENT ? "missing (not built yet, or its job failed)" : "cannot open";
	struct stat st;
	unsigned char hdr[INDEX_HEADER_LEN];
	struct part_header h;
	const char *bad = NULL;
	if (fstat(fd, &st) != 0 || st.st_size < INDEX_HEADER_LEN || !index_pread_all(fd, hdr, INDEX_HEADER_LEN, 0))
		bad = "truncated (shorter than its header)";
	else
		bad = header_check(hdr, INDEX_HEADER_LEN, (unsigned long long)st.st_size, &h);
	if (!bad) {
		id->size = (long long)st.st_size;
		id->mtime_ns = infile_mtime_ns(&st);
		id->ino = (long long)st.st_ino;
		id->body_end = INDEX_HEADER_LEN + h.head_off;
		*head = xmalloc(h.head_len ? h.head_len : 1);
		*head_len = h.head_len;
		if (!index_pread_all(fd, *head, h.head_len, (long long)(INDEX_HEADER_LEN + h.head_off)))
			bad = "truncated";
		else if (index_crc32(0, *head, h.head_len) != h.head_crc)
			bad = "checksum mismatch (damaged)";
	}
	close(fd);
	if (bad) {
		free(*head);
		*head = NULL;
	}
	return bad;
}

/* Read and check one part's header and head (checksum, shard, sources) and its deltas
 * (deltas: its delta files, delta_files_of); on success b is at the metric table.
 * Returns NULL or a malloc'd reason. */
static char *part_open(struct part_map *pm, struct ibuf *b, const char *path, const char *base,
		       unsigned k, unsigned n, const struct steps_rank_file *files, size_t nfiles, bool *grown,
		       struct run *run, unsigned deltas)
{
	memset(pm, 0, sizeof(*pm));
	size_t head_len;
	const char *bad = index_head_read(path, &pm->head, &head_len, &pm->id);
	if (bad)
		return strcmp(bad, "cannot open") == 0 ? xasprintf("cannot open: %s", infile_strerror(errno)) : xstrdup(bad);
	*b = (struct ibuf){ pm->head, head_len, 0, false };
	size_t lo, hi;
	index_shard_slice(nfiles, k, n, &lo, &hi);
	if (ib_u32(b) != k || ib_u32(b) != n)
		return xstrdup("its header names another shard");
	char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path)); /* the index dir it is in */
	pm->ds = delta_set_read(run, dir, k, n, base, &pm->id, deltas);
	free(dir);
	return check_sources(b, base, files, lo, hi, grown ? grown + lo : NULL, pm->ds);
}

static void part_close(struct part_map *pm)
{
	free(pm->head);
	pm->head = NULL;
	delta_set_free(pm->ds);
	pm->ds = NULL;
}

/* Map and check one part; on success publish its ranks, sources and diagnostics (those
 * index_keeps(s)) and mark the slice covered. Returns NULL or a malloc'd reason it was
 * not used. */
static char *use_part(struct load_ctx *ctx, const char *path, const char *base, unsigned k, unsigned n,
		      const struct steps_rank_file *files, size_t nfiles, bool *covered, bool *grown,
		      const struct index_subset *s, unsigned deltas)
{
	struct part_map pm;
	struct ibuf b;
	char *why = part_open(&pm, &b, path, base, k, n, files, nfiles, grown, ctx->run, deltas);
	struct index_metric_ids ids;
	struct index_subset_plan *plan = s && !why ? index_subset_plan_new(&ids) : NULL; /* subset.c */
	if (!why) {
		struct steps_model *m = steps_model_get(ctx->run);
		size_t nr = 0;
		const struct steps_part *part;
		struct rank_steps **r = decode_ranks(&b, m, path, base, &pm, plan ? &ids : NULL, &part, &nr);
		if (!r || !restore_rest(&b, ctx->run, base, s)) {
			for (size_t i = 0; r && i < nr; i++)
				steps_rank_free(r[i]);
			free(r);
			why = xstrdup("malformed payload");
		} else {
			if (plan)
				index_subset_settle(plan, m, s, r, nr, part, pm.ds);
			delta_set_restore(pm.ds, ctx->run, base, s);
			for (size_t i = 0; i < nr; i++) {
				if (index_keeps(s, steps_rank_own_id(r[i])))
					steps_publish_rank(m, r[i]);
				else
					steps_rank_free(r[i]);
			}
			free(r);
			size_t lo, hi;
			index_shard_slice(nfiles, k, n, &lo, &hi);
			for (size_t i = lo; i < hi; i++) {
				covered[i] = !s || files[i].rank != s->reparsed;
				grown[i] = grown[i] && index_keeps(s, files[i].rank);
			}
		}
	}
	if (why) { /* none of this part's ranks came from it */
		size_t lo, hi;
		index_shard_slice(nfiles, k, n, &lo, &hi);
		memset(grown + lo, 0, (hi - lo) * sizeof(*grown));
	}
	index_subset_plan_free(plan);
	part_close(&pm);
	return why;
}

unsigned index_newest_count(const char *dir, const char *kind, bool *found)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	unsigned best = 0;
	long long best_t = -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		unsigned pk, pn;
		if (!part_name(e->d_name, kind, &pk, &pn))
			continue;
		*found = true;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct file_stamp s = stamp_of(p);
		free(p);
		if (s.mtime_ns > best_t) {
			best_t = s.mtime_ns;
			best = pn;
		}
	}
	closedir(d);
	return best;
}

/* Part k of n (at path) was not used (why): its ranks the load reads from the JSONL
 * instead, those s lists under --ranks. A shard of no rank (more shards than ranks)
 * lacks nothing. */
static void unused_note(struct run *run, const char *path, unsigned k, unsigned n, const char *why,
			const struct steps_rank_file *files, size_t nfiles, const struct index_subset *s)
{
	size_t lo, hi, listed = 0;
	index_shard_slice(nfiles, k, n, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		listed += !s || ranklist_has(s->only, files[i].rank);
	if (hi == lo)
		return;
	if (!s)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
			 "index shard %u/%u not used: %s; its %zu rank%s read from the JSONL", k, n, why, hi - lo,
			 hi - lo == 1 ? " is" : "s are");
	else if (listed)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
			 "index shard %u/%u not used: %s; %zu of its %zu ranks %s listed (--ranks) and read from the "
			 "JSONL", k, n, why, listed, hi - lo, listed == 1 ? "is" : "are");
	else
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
			 "index shard %u/%u not used: %s; none of its %zu rank%s listed (--ranks), so none is read",
			 k, n, why, hi - lo, hi - lo == 1 ? " is" : "s is");
}

size_t index_load(struct load_ctx *ctx, const char *run_dir, const struct steps_rank_file *files,
		  size_t nfiles, bool *covered, bool *grown, bool *found)
{
	*found = false;
	char *dir = index_dir_for(run_dir);
	unsigned n = index_newest_count(dir, "steps", found);
	size_t used = 0;
	struct index_subset sub;
	const struct index_subset *s = subset_of(ctx, run_dir, files, nfiles, &sub); /* once: it parses the list */
	load_phase(ctx, n ? "opening the index" : NULL); /* mapped, not read: no bytes to count */
	unsigned *deltas = delta_files_of(dir, n);
	for (unsigned k = 0; k < n && !load_cancelled(ctx); k++) {
		char *path = part_path(dir, k, n);
		char *why = use_part(ctx, path, run_dir, k, n, files, nfiles, covered, grown, s, deltas[k]);
		if (why) {
			unused_note(ctx->run, path, k, n, why, files, nfiles, s);
			free(why);
		} else {
			used++;
		}
		free(path);
	}
	free(deltas);
	free(dir);
	return used;
}

/* Part k of n of the index in dir into v (index_status); grown: nfiles flags, scratch. */
static void part_state(const char *dir, const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		       unsigned k, unsigned n, unsigned deltas, bool *grown, struct index_part_status *v)
{
	char *path = part_path(dir, k, n);
	struct part_map pm;
	struct ibuf b;
	char *why = part_open(&pm, &b, path, run_dir, k, n, files, nfiles, grown, NULL, deltas);
	*v = (struct index_part_status){ .k = k, .n = n, .path = path, .why = why };
	index_shard_slice(nfiles, k, n, &v->lo, &v->hi);
	if (v->lo == v->hi) { /* no rank (more shards than ranks): it lacks nothing, as an open finds */
		free(v->why);
		v->why = NULL;
	}
	v->bytes = (size_t)pm.id.size;
	v->deltas = delta_set_count(pm.ds);
	v->unused_deltas = delta_set_unused(pm.ds);
	for (size_t i = v->lo; !v->why && i < v->hi; i++)
		v->grown += grown[i];
	part_close(&pm);
}

size_t index_status(const char *dir, const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		    struct index_part_status **out)
{
	bool found = false;
	unsigned n = index_newest_count(dir, "steps", &found);
	struct index_part_status *v = xcalloc(n ? n : 1, sizeof(*v));
	bool *grown = xcalloc(nfiles ? nfiles : 1, sizeof(*grown));
	unsigned *deltas = delta_files_of(dir, n);
	for (unsigned k = 0; k < n; k++)
		part_state(dir, run_dir, files, nfiles, k, n, deltas[k], grown, &v[k]);
	free(deltas);
	free(grown);
	*out = v;
	return n;
}

void index_part_state(const char *dir, const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		      unsigned k, unsigned n, struct index_part_status *v)
{
	bool *grown = xcalloc(nfiles ? nfiles : 1, sizeof(*grown));
	unsigned *deltas = delta_files_of(dir, n);
	part_state(dir, run_dir, files, nfiles, k, n, deltas[k], grown, v);
	free(deltas);
	free(grown);
}

void index_status_free(struct index_part_status *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].path);
		free(v[i].why);
	}
	free(v);
}

size_t index_part_files(const char *run_dir, char ***out)
{
	bool found = false;
	char *dir = index_dir_for(run_dir);
	unsigned n = index_newest_count(dir, "steps", &found);
	char **v = NULL;
	size_t k = 0, cap = 0;
	for (unsigned i = 0; i < n; i++) {
		char *p = part_path(dir, i, n);
		if (access(p, F_OK) != 0) {
			free(p);
			continue;
		}
		unsigned nd = delta_count(dir, i, n); /* a part's deltas follow it */
		xgrow((void **)&v, &cap, k + 1 + nd, sizeof(*v));
		v[k++] = p;
		for (unsigned d = 1; d <= nd; d++)
			v[k++] = delta_path(dir, i, n, d);
	}
	if (!v)
		v = xcalloc(1, sizeof(*v));
	free(dir);
	*out = v;
	return k;
}
