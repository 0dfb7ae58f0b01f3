/* SPDX-License-Identifier: MIT */
/* codec.c: byte writer and bounds-checked reader for the persistent index (codec.h). */
#include "model/index/codec.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>
#include "model/diag.h"
#include "model/run.h"
#include "model/xalloc.h"

#define OB_PAGE ((size_t)4096)
#define OB_RESERVE ((uint64_t)8 << 20)
#define OB_DIRECT_BUF XPAGE_BLOCK  /* a direct write: a megabyte (xalloc.h kept blocks) */

/* Allocate the file's blocks up to `end` at least (OB_RESERVE beyond the last
 * reservation) before bytes are written there: writing into allocated blocks costs the
 * kernel less per page than delayed allocation (ext4: ~3 ms less CPU per 44 MB) and the
 * rename that puts the file in place has nothing left to allocate. A file system that
 * cannot (EOPNOTSUPP, a full disk) is written as before: the writes report errors. */
static void ob_reserve(struct obuf *o, uint64_t end)
{
	if (o->no_reserve || end <= o->reserved)
		return;
	uint64_t to = o->reserved + OB_RESERVE > end ? o->reserved + OB_RESERVE : end;
	if (fallocate(o->fd, 0, (off_t)o->reserved, (off_t)(to - o->reserved)) == 0)
		o->reserved = to;
	else
		o->no_reserve = true;
}

/* ---- direct writes ----------------------------------------------------------------
 * `tscope-tui index` writes its files for a later open (often on another node: a Slurm
 * shard's part is read on the login node) that reads them with pread: the writer's
 * page cache serves no one. Written through it, every page costs the writer an
 * allocation, a copy and, when the old index is replaced, a release; on a virtual
 * machine whose host backs guest memory on first touch, up to ~2 ns per byte more
 * (BENCHMARKS.md, issue 15 s15icpu). Through an O_DIRECT fd (index_write_direct()) the
 * pages go from the stream's aligned buffer to the disk, OB_DIRECT_BUF at a time. A
 * page the stream writes in pieces (the first one, which the header completes; the
 * edges of a region left to ob_pwrite) is gathered in part[] and written when whole,
 * or padded at ob_finish (the file is then cut at its end). */

struct ob_page {
	uint64_t off;             /* file offset, a multiple of OB_PAGE */
	unsigned char *b;
	size_t filled;
};

/* Page-aligned memory (xmalloc's when that fails: a direct write from it is refused
 * with EINVAL and the stream goes on through the page cache). */
static unsigned char *page_alloc(size_t n)
{
	void *p = NULL;
	return posix_memalign(&p, OB_PAGE, n) == 0 ? p : xmalloc(n);
}

/* Direct buffers (OB_DIRECT_BUF bytes, page-aligned) come from and go back to the
 * process's kept blocks (xalloc.h xpage_take): `tscope-tui index` writes a part and a
 * summary (each a stream buffer and, for rows written to their place, a second one),
 * the part's after the loader gave its read buffers back. Small pages: a huge page
 * would take one fault, but on a virtual machine whose host backs guest memory on
 * first touch a fresh one cost up to 7 ms to zero, where a megabyte of small pages
 * (often recycled ones) costs ~1 ms at worst (BENCHMARKS.md, issue 15 "small-page
 * direct buffers"). They are taken in ob_stream() and aux_put(), given back in
 * ob_free(). */

static int write_at(int fd, const unsigned char *p, size_t n, uint64_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		n -= (size_t)w;
		at += (uint64_t)w;
	}
	return 0;
}

/* The file system refused a direct write: the rest goes through the page cache (the
 * gathered pages first, zero-padded: whatever is still missing in them is written
 * later over the zeros). */
static void direct_off(struct obuf *o)
{
	int fl = fcntl(o->fd, F_GETFL);
	if (fl < 0 || fcntl(o->fd, F_SETFL, fl & ~O_DIRECT) < 0 ||
	    lseek(o->fd, (off_t)(o->off0 + o->written), SEEK_SET) < 0)
		ob_fail(o, errno);
	o->direct = false; /* the callers then move the buffered bytes to p (lead 0) */
	for (size_t i = 0; i < o->npart; i++) {
		int err = write_at(o->fd, o->part[i].b, OB_PAGE, o->part[i].off);
		if (err)
			ob_fail(o, err);
		free(o->part[i].b);
	}
	o->npart = 0;
}

static void put_at(struct obuf *o, const unsigned char *p, size_t n, uint64_t at)
{
	if (o->err)
		return;
	int err = write_at(o->fd, p, n, at);
	if (err == EINVAL && o->direct) {
		direct_off(o);
		err = write_at(o->fd, p, n, at);
	}
	if (err)
		ob_fail(o, err);
}

/* n bytes (less than a page, within one page) at file offset at into its gathered page. */
static void part_put(struct obuf *o, const unsigned char *p, size_t n, uint64_t at)
{
	uint64_t po = at - at % OB_PAGE;
	size_t i = 0;
	while (i < o->npart && o->part[i].off != po)
		i++;
	if (i == o->npart) {
		o->part = xrealloc(o->part, (o->npart + 1) * sizeof(*o->part));
		o->part[i] = (struct ob_page){ po, page_alloc(OB_PAGE), 0 };
		memset(o->part[i].b, 0, OB_PAGE);
		o->npart++;
	}
	memcpy(o->part[i].b + at % OB_PAGE, p, n);
	o->part[i].filled += n;
	if (o->part[i].filled < OB_PAGE)
		return;
	struct ob_page whole = o->part[i];
	o->part[i] = o->part[--o->npart];
	put_at(o, whole.b, OB_PAGE, whole.off);
	free(whole.b);
}

/* n bytes at p to file offset at, direct: whole pages as they are (p + the head is
 * aligned: the buffers keep each byte at its file offset's place in its page), the
 * pieces at either end gathered. */
static void direct_put(struct obuf *o, const unsigned char *p, size_t n, uint64_t at)
{
	size_t head = at % OB_PAGE ? OB_PAGE - (size_t)(at % OB_PAGE) : 0;
	if (head > n)
		head = n;
	if (head) {
		part_put(o, p, head, at);
		p += head;
		n -= head;
		at += head;
	}
	size_t whole = n - n % OB_PAGE;
	if (whole)
		put_at(o, p, whole, at);
	if (n > whole)
		part_put(o, p + whole, n - whole, at + whole);
}

/* The ob_pwrite() bytes gathered in aux (one run of consecutive bytes from file offset
 * aux_at, at aux + aux_lead): written whole pages at a time, the last piece kept unless
 * all. A region filled row by row then goes out in a few large writes. */
static void aux_flush(struct obuf *o, bool all)
{
	size_t n = o->aux_n, keep = all ? 0 : (size_t)((o->aux_at + n) % OB_PAGE);
	n = n > keep ? n - keep : 0;
	if (n)
		direct_put(o, o->aux + o->aux_lead, n, o->aux_at);
	memmove(o->aux, o->aux + o->aux_lead + n, o->aux_n - n);
	o->aux_n -= n;
	o->aux_at += n;
	o->aux_lead = o->aux_n ? 0 : (size_t)(o->aux_at % OB_PAGE);
}

static void aux_put(struct obuf *o, const unsigned char *p, size_t n, uint64_t at)
{
	if (o->aux_n && at != o->aux_at + o->aux_n)
		aux_flush(o, true);
	if (!o->aux)
		o->aux = xpage_take();
	if (!o->aux_n) {
		o->aux_at = at;
		o->aux_lead = (size_t)(at % OB_PAGE);
	}
	while (n) {
		size_t room = OB_DIRECT_BUF - o->aux_lead - o->aux_n, k = room < n ? room : n;
		memcpy(o->aux + o->aux_lead + o->aux_n, p, k);
		o->aux_n += k;
		p += k;
		n -= k;
		if (o->aux_lead + o->aux_n == OB_DIRECT_BUF)
			aux_flush(o, false);
	}
}

/* ---- checksums ------------------------------------------------------------------------
 * A rank's body is many small pieces (a few bytes each: ob_u8, ob_uvar, ob_str): one CRC
 * call each cost more than the bytes (~120 instructions a call, a zlib call under
 * 64 bytes). They are summed together when they must: a large piece comes (summed while
 * it is copied, the bytes then still in cache), the buffer is written out or moved, or
 * the sum ends (pieces under OB_SUM_LATER, codec.h, wait for their neighbours). */

/* The bytes buffered since sum_at into the sum. */
static void sum_catch_up(struct obuf *o)
{
	size_t end = o->lead + o->n;
	if (o->sum_on && end > o->sum_at)
		o->sum = index_crc32(o->sum, o->p + o->sum_at, end - o->sum_at);
	o->sum_at = end;
}

/* ---- streaming ------------------------------------------------------------------------ */

/* ob_room's bound for the buffer as it is now: room up to cap (a byte short of it), and
 * a stream through the page cache writes out from OB_FLUSH buffered bytes on. */
static void ob_relimit(struct obuf *o)
{
	size_t room = o->p && o->cap > o->lead ? o->cap - o->lead : 0;
	o->lim = o->stream && !o->direct && room > OB_FLUSH ? OB_FLUSH : room;
}

static void ob_write_out(struct obuf *o, size_t nb, const unsigned char *p, size_t n);

/* The first nb buffered bytes and then n bytes at p in one writev (after an error,
 * nothing more is written); the buffered bytes after nb move to the front. Direct: the
 * nb bytes only (n is 0: ob_bytes copies everything into the aligned buffer). The
 * buffered bytes are in the sum before they go or move. */
static void ob_write(struct obuf *o, size_t nb, const unsigned char *p, size_t n)
{
	sum_catch_up(o);
	ob_write_out(o, nb, p, n);
	o->sum_at = o->lead + o->n;
	ob_relimit(o);
}

static void ob_write_out(struct obuf *o, size_t nb, const unsigned char *p, size_t n)
{
	struct iovec iov[2] = { { o->p, nb }, { (void *)p, n } };
	size_t left = nb + n, k = 0;
	uint64_t at = o->off0 + o->written;
	ob_reserve(o, at + left);
	o->written += left;
	if (o->direct) { /* the rest starts on a page: at its buffer's start, or empty */
		direct_put(o, o->p + o->lead, nb, at);
		memmove(o->p, o->p + o->lead + nb, o->n - nb);
		o->n -= nb;
		o->lead = o->n || !o->direct ? 0 : (size_t)((o->off0 + o->written) % OB_PAGE);
		return;
	}
	while (left && !o->err) {
		ssize_t w = writev(o->fd, iov + k, (int)(2 - k));
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			o->err = errno;
			break;
		}
		left -= (size_t)w;
		for (size_t done = (size_t)w;;) { /* a short write: resume after it */
			if (k == 0 && iov[0].iov_len == 0)
				k = 1;
			if (!done)
				break;
			size_t take = done < iov[k].iov_len ? done : iov[k].iov_len;
			iov[k].iov_base = (char *)iov[k].iov_base + take;
			iov[k].iov_len -= take;
			done -= take;
		}
	}
	if (nb) {
		memmove(o->p, o->p + nb, o->n - nb);
		o->n -= nb;
	}
}

/* Bytes to write of the buffer and then n more so that the write ends on a page
 * boundary of the file (the rest stays buffered): the page cache then never zeroes the
 * tail of a page that the next write fills. All of them when that is none. */
static size_t to_page(const struct obuf *o, size_t n)
{
	size_t end = (size_t)((o->off0 + o->written + o->n + n) % OB_PAGE);
	return end < o->n + n ? o->n + n - end : o->n + n;
}

void ob_bytes_out(struct obuf *o, const void *p, size_t n)
{
	if (!n)
		return;
	if (o->direct) { /* into the aligned buffer (checksummed on the way), whole pages out when it is full */
		for (const unsigned char *s = p; n;) {
			size_t room = o->cap - o->lead - o->n, k = room < n ? room : n;
			if (o->sum_on && k >= OB_SUM_LATER) {
				sum_catch_up(o);
				o->sum = index_crc32_copy(o->sum, o->p + o->lead + o->n, s, k);
				o->sum_at += k;
			} else {
				memcpy(o->p + o->lead + o->n, s, k);
			}
			o->n += k;
			s += k;
			n -= k;
			if (o->lead + o->n == o->cap)
				ob_write(o, to_page(o, 0), NULL, 0);
		}
		return;
	}
	if (o->stream && n >= OB_DIRECT) { /* from the caller's memory up to a page boundary */
		sum_catch_up(o);
		if (o->sum_on)
			o->sum = index_crc32(o->sum, p, n);
		size_t head = to_page(o, n) - o->n;
		ob_write(o, o->n, p, head);
		xgrow((void **)&o->p, &o->cap, OB_PAGE, 1);
		memcpy(o->p, (const unsigned char *)p + head, n - head);
		o->n = n - head;
		o->sum_at = o->n; /* summed above */
		ob_relimit(o);
		return;
	}
	xgrow((void **)&o->p, &o->cap, o->n + n, 1);
	memcpy(o->p + o->n, p, n);
	o->n += n;
	if (o->stream && o->n >= OB_FLUSH)
		ob_write(o, to_page(o, 0), NULL, 0);
	ob_relimit(o);
}

void ob_stream(struct obuf *o, int fd)
{
	o->stream = true;
	o->fd = fd;
	off_t at = lseek(fd, 0, SEEK_CUR);
	o->off0 = at > 0 ? (uint64_t)at : 0;
	o->reserved = o->off0;
	int fl = fcntl(fd, F_GETFL);
	o->direct = fl >= 0 && (fl & O_DIRECT);
	if (o->direct) { /* a fixed aligned buffer (ob_bytes never grows it) */
		free(o->p);
		o->p = xpage_take();
		o->cap = OB_DIRECT_BUF;
		o->n = 0;
		o->lead = (size_t)(o->off0 % OB_PAGE);
	}
	o->sum_at = o->lead + o->n;
	ob_relimit(o);
}

void ob_skip(struct obuf *o, uint64_t n)
{
	ob_flush(o);
	if (o->aux_n)
		aux_flush(o, true);
	o->written += n;
	o->lead = o->direct ? (size_t)((o->off0 + o->written) % OB_PAGE) : 0;
	o->sum_at = o->lead + o->n;
	ob_relimit(o);
	if (!o->err && lseek(o->fd, (off_t)(o->off0 + o->written), SEEK_SET) < 0)
		o->err = errno;
}

void ob_pwrite(struct obuf *o, const void *p, size_t n, uint64_t at)
{
	if (o->err)
		return;
	ob_reserve(o, at + n);
	if (!o->direct) {
		put_at(o, p, n, at);
		return;
	}
	sum_catch_up(o); /* the buffered bytes may move */
	aux_put(o, p, n, at);
	if (!o->direct) { /* gave up direct writes: the buffered bytes as the page cache path has them */
		memmove(o->p, o->p + o->lead, o->n);
		o->lead = 0;
	}
	o->sum_at = o->lead + o->n;
	ob_relimit(o);
}

int ob_flush(struct obuf *o)
{
	if (o->stream && o->n)
		ob_write(o, o->n, NULL, 0);
	return o->err;
}

int ob_finish(struct obuf *o)
{
	ob_flush(o);
	if (o->aux_n)
		aux_flush(o, true);
	bool padded = o->npart > 0;
	while (o->npart) { /* pages never completed: written padded with zeros */
		struct ob_page pg = o->part[--o->npart];
		put_at(o, pg.b, OB_PAGE, pg.off);
		free(pg.b);
	}
	uint64_t end = o->off0 + o->written;
	if (!o->err && (padded || o->reserved > end) && ftruncate(o->fd, (off_t)end) != 0)
		o->err = errno;
	ob_relimit(o);
	return o->err;
}

void ob_fail(struct obuf *o, int err)
{
	if (!o->err)
		o->err = err;
}

void ob_sum_begin(struct obuf *o)
{
	o->sum_on = true;
	o->sum = 0;
	o->sum_at = o->lead + o->n;
}

void ob_head(struct obuf *o)
{
	o->head_on = true;
	o->head_at = o->written + o->n;
	ob_sum_begin(o);
}

uint32_t ob_sum_end(struct obuf *o)
{
	sum_catch_up(o);
	o->sum_on = false;
	return o->sum;
}

void ob_str(struct obuf *o, const char *s)
{
	if (!s) {
		ob_uvar(o, 0);
		return;
	}
	size_t n = strlen(s);
	ob_uvar(o, (uint64_t)n + 1);
	ob_bytes(o, s, n); /* names and paths: short */
}

void ob_path(struct obuf *o, const char *base, const char *path)
{
	size_t n = base ? strlen(base) : 0;
	bool under = path && n && strncmp(path, base, n) == 0 && (path[n] == '/' || !path[n]);
	ob_u8(o, under);
	ob_str(o, under ? path + n : path);
}

void ob_free(struct obuf *o)
{
	for (size_t i = 0; i < o->npart; i++)
		free(o->part[i].b);
	free(o->part);
	xpage_give(o->aux);
	if (o->direct)
		xpage_give(o->p);
	else
		free(o->p);
	memset(o, 0, sizeof(*o));
}

const void *ib_bytes(struct ibuf *b, size_t n)
{
	if (b->bad || n > b->n - b->off) {
		b->bad = true;
		return NULL;
	}
	const void *p = b->p + b->off;
	b->off += n;
	return p;
}

unsigned ib_u8(struct ibuf *b)
{
	const unsigned char *p = ib_bytes(b, 1);
	return p ? p[0] : 0;
}

uint32_t ib_u32(struct ibuf *b)
{
	const unsigned char *p = ib_bytes(b, 4);
	uint32_t v = 0;
	for (int i = 0; p && i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

uint64_t ib_w64(struct ibuf *b)
{
	const unsigned char *p = ib_bytes(b, 8);
	uint64_t v = 0;
	for (int i = 0; p && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

uint64_t ib_uvar_slow(struct ibuf *b)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 64 && !b->bad && b->off < b->n; shift += 7) {
		unsigned c = b->p[b->off++];
		if (shift == 63 && c > 1)
			break; /* more than 64 bits */
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	b->bad = true;
	return 0;
}

double ib_f64(struct ibuf *b)
{
	uint64_t u = ib_w64(b);
	double v;
	memcpy(&v, &u, sizeof(v));
	return v;
}

size_t ib_count(struct ibuf *b, size_t elem)
{
	uint64_t n = ib_uvar(b);
	if (b->bad || (elem && n > (b->n - b->off) / elem)) {
		b->bad = true;
		return 0;
	}
	return (size_t)n;
}

const char *ib_str_view(struct ibuf *b, size_t *len)
{
	uint64_t n1 = ib_uvar(b);
	*len = 0;
	if (b->bad || n1 == 0)
		return NULL;
	if (n1 - 1 > b->n - b->off) {
		b->bad = true;
		return NULL;
	}
	size_t n = (size_t)(n1 - 1);
	const char *p = ib_bytes(b, n);
	if (!p)
		return NULL;
	if (memchr(p, '\0', n)) {
		b->bad = true;
		return NULL;
	}
	*len = n;
	return p;
}

char *ib_str(struct ibuf *b)
{
	size_t n;
	const char *p = ib_str_view(b, &n);
	return p ? xstrndup(p, n) : NULL;
}

char *ib_path(struct ibuf *b, const char *base)
{
	unsigned under = ib_u8(b);
	char *rest = ib_str(b);
	if (!under || !rest)
		return rest;
	char *p = xasprintf("%s%s", base ? base : "", rest);
	free(rest);
	return p;
}

void ob_diag(struct obuf *o, const char *base, const struct diag *d)
{
	ob_u8(o, d->level);
	ob_path(o, base, d->file);
	ob_svar(o, d->line);
	ob_svar(o, d->offset);
	ob_svar(o, d->rank);
	ob_str(o, d->msg);
}

void ib_diag(struct ibuf *b, const char *base, struct diag *d)
{
	unsigned level = ib_u8(b);
	d->file = ib_path(b, base);
	d->line = (long)ib_svar(b);
	d->offset = ib_svar(b);
	d->rank = (int)ib_svar(b);
	d->msg = ib_str(b);
	if (level > DIAG_ERROR || !d->msg)
		b->bad = true;
	d->level = (enum diag_level)level;
}

void ob_source_counts(struct obuf *o, const struct source *s)
{
	unsigned char b[6 * 10 + 1]; /* put at once (col_encode, store_index.c) */
	size_t k = ob_sleb(b, s->bytes);
	k += ob_leb(b + k, s->records);
	k += ob_leb(b + k, s->skipped);
	k += ob_sleb(b + k, s->err);
	b[k++] = (unsigned char)s->partial;
	k += ob_sleb(b + k, s->consumed);
	k += ob_sleb(b + k, s->lines);
	ob_bytes(o, b, k);
}

void ib_source_counts(struct ibuf *b, struct source *s)
{
	s->bytes = ib_svar(b);
	s->records = (size_t)ib_uvar(b);
	s->skipped = (size_t)ib_uvar(b);
	s->err = (int)ib_svar(b);
	s->partial = ib_u8(b) != 0;
	s->consumed = ib_svar(b);
	s->lines = (long)ib_svar(b);
}
