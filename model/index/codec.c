/* SPDX-License-Identifier: MIT */
/* codec.c: byte writer and bounds-checked reader for the persistent index (codec.h). */
#include "model/index/codec.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>
#include "model/diag.h"
#include "model/run.h"
#include "model/xalloc.h"

#define STR_NULL 0xffffffffu
#define OB_FLUSH ((size_t)1 << 20)
#define OB_PAGE ((size_t)4096)

/* The first nb buffered bytes and then n bytes at p in one writev (after an error,
 * nothing more is written); the buffered bytes after nb move to the front. */
static void ob_write(struct obuf *o, size_t nb, const unsigned char *p, size_t n)
{
	struct iovec iov[2] = { { o->p, nb }, { (void *)p, n } };
	size_t left = nb + n, k = 0;
	o->written += left;
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

void ob_bytes(struct obuf *o, const void *p, size_t n)
{
	if (!n)
		return;
	if (o->sum_on)
		o->sum = index_crc32(o->sum, p, n);
	if (o->stream && n >= OB_DIRECT) { /* from the caller's memory up to a page boundary */
		size_t head = to_page(o, n) - o->n;
		ob_write(o, o->n, p, head);
		xgrow((void **)&o->p, &o->cap, OB_PAGE, 1);
		memcpy(o->p, (const unsigned char *)p + head, n - head);
		o->n = n - head;
		return;
	}
	xgrow((void **)&o->p, &o->cap, o->n + n, 1);
	memcpy(o->p + o->n, p, n);
	o->n += n;
	if (o->stream && o->n >= OB_FLUSH)
		ob_write(o, to_page(o, 0), NULL, 0);
}

void ob_stream(struct obuf *o, int fd)
{
	o->stream = true;
	o->fd = fd;
	off_t at = lseek(fd, 0, SEEK_CUR);
	o->off0 = at > 0 ? (uint64_t)at : 0;
}

void ob_skip(struct obuf *o, uint64_t n)
{
	ob_flush(o);
	o->written += n;
	if (!o->err && lseek(o->fd, (off_t)(o->off0 + o->written), SEEK_SET) < 0)
		o->err = errno;
}

void ob_pwrite(struct obuf *o, const void *p, size_t n, uint64_t at)
{
	const unsigned char *b = p;
	for (size_t off = 0; off < n && !o->err;) {
		ssize_t w = pwrite(o->fd, b + off, n - off, (off_t)(at + off));
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			o->err = errno;
		else
			off += (size_t)w;
	}
}

int ob_flush(struct obuf *o)
{
	if (o->stream && o->n)
		ob_write(o, o->n, NULL, 0);
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
}

uint32_t ob_sum_end(struct obuf *o)
{
	o->sum_on = false;
	return o->sum;
}

void ob_u8(struct obuf *o, unsigned v)
{
	unsigned char c = (unsigned char)v;
	ob_bytes(o, &c, 1);
}

void ob_u32(struct obuf *o, uint32_t v)
{
	unsigned char b[4];
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	ob_bytes(o, b, 4);
}

void ob_u64(struct obuf *o, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	ob_bytes(o, b, 8);
}

void ob_i64(struct obuf *o, int64_t v)
{
	ob_u64(o, (uint64_t)v);
}

void ob_f64(struct obuf *o, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	ob_u64(o, u);
}

void ob_str(struct obuf *o, const char *s)
{
	if (!s) {
		ob_u32(o, STR_NULL);
		return;
	}
	size_t n = strlen(s);
	ob_u32(o, (uint32_t)n);
	ob_bytes(o, s, n);
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

uint64_t ib_u64(struct ibuf *b)
{
	const unsigned char *p = ib_bytes(b, 8);
	uint64_t v = 0;
	for (int i = 0; p && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int64_t ib_i64(struct ibuf *b)
{
	return (int64_t)ib_u64(b);
}

double ib_f64(struct ibuf *b)
{
	uint64_t u = ib_u64(b);
	double v;
	memcpy(&v, &u, sizeof(v));
	return v;
}

size_t ib_count(struct ibuf *b, size_t elem)
{
	uint64_t n = ib_u64(b);
	if (b->bad || (elem && n > (b->n - b->off) / elem)) {
		b->bad = true;
		return 0;
	}
	return (size_t)n;
}

char *ib_str(struct ibuf *b)
{
	uint32_t n = ib_u32(b);
	if (b->bad || n == STR_NULL)
		return NULL;
	const char *p = ib_bytes(b, n);
	if (!p)
		return NULL;
	if (memchr(p, '\0', n)) {
		b->bad = true;
		return NULL;
	}
	return xstrndup(p, n);
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
	ob_i64(o, d->line);
	ob_i64(o, d->offset);
	ob_i64(o, d->rank);
	ob_str(o, d->msg);
}

void ib_diag(struct ibuf *b, const char *base, struct diag *d)
{
	unsigned level = ib_u8(b);
	d->file = ib_path(b, base);
	d->line = (long)ib_i64(b);
	d->offset = ib_i64(b);
	d->rank = (int)ib_i64(b);
	d->msg = ib_str(b);
	if (level > DIAG_ERROR || !d->msg)
		b->bad = true;
	d->level = (enum diag_level)level;
}

void ob_source_counts(struct obuf *o, const struct source *s)
{
	ob_i64(o, s->bytes);
	ob_u64(o, s->records);
	ob_u64(o, s->skipped);
	ob_i64(o, s->err);
	ob_u8(o, s->partial);
	ob_i64(o, s->consumed);
	ob_i64(o, s->lines);
}

void ib_source_counts(struct ibuf *b, struct source *s)
{
	s->bytes = ib_i64(b);
	s->records = (size_t)ib_u64(b);
	s->skipped = (size_t)ib_u64(b);
	s->err = (int)ib_i64(b);
	s->partial = ib_u8(b) != 0;
	s->consumed = ib_i64(b);
	s->lines = (long)ib_i64(b);
}
