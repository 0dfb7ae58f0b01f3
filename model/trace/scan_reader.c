/* SPDX-License-Identifier: MIT */
/* scan_reader.c: the trace scanner's byte source (scan_reader.h): a file, memory, or a
 * gzip file inflated on a thread of its own into a few chunks ahead of the scanner; and
 * a second inflate from the start that finds whether a member is corrupt. */
#include "model/trace/scan_reader.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/xalloc.h"

#define GZ_IN_CHUNK ((size_t)256 << 10)
#define ZP_NBUF 4                  /* inflated chunks in flight between the threads */
#define ZP_CHUNK ((size_t)1 << 20)

/* Inflate on its own thread: the producer fills up to ZP_NBUF chunks, the scanner
 * consumes them in order. Slots [head, head+count) are ready; the producer only writes
 * the next free slot, so the buffers need no lock, only the counters do. */
struct zpipe {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *buf[ZP_NBUF];
	size_t len[ZP_NBUF];
	long long raw[ZP_NBUF];  /* compressed bytes consumed when the chunk was made */
	int head, count;
	size_t off;              /* consumer offset in buf[head] */
	bool done, stop;
};

/* ---- the input as read, and inflated ---------------------------------------------- */

ssize_t scan_reader_raw_read(struct scan_reader *r, void *dst, size_t n)
{
	if (r->mem) {
		size_t k = r->memlen - r->mempos < n ? r->memlen - r->mempos : n;
		memcpy(dst, r->mem + r->mempos, k);
		r->mempos += k;
		return (ssize_t)k;
	}
	for (;;) {
		ssize_t k = read(r->fd, dst, n);
		if (k >= 0 || errno != EINTR)
			return k;
	}
}

static bool gz_refill_input(struct scan_reader *r)
{
	ssize_t k = scan_reader_raw_read(r, r->zin, GZ_IN_CHUNK);
	if (k < 0) {
		r->err = errno;
		return false;
	}
	r->raw += k;
	r->z.next_in = r->zin;
	r->z.avail_in = (uInt)k;
	return k > 0;
}

/* inflate() failed (zr): say what zlib said and where in the file (its compressed bytes). A
 * trailer that does not match (zlib checks it after the member's last byte) is not a cut:
 * the data is whole, perhaps corrupt. Nothing more is inflated. */
static void gz_fail(struct scan_reader *r, int zr)
{
	const char *why = r->z.msg ? r->z.msg : zError(zr);
	long long at = r->raw - (long long)r->z.avail_in;
	r->zcheck = strcmp(why, "incorrect data check") == 0 || strcmp(why, "incorrect length check") == 0;
	if (r->zcheck)
		snprintf(r->zbuf, sizeof(r->zbuf), "gzip trailer does not match the data (zlib: %s, at byte %lld "
			 "of the file): the events may be corrupt", why, at);
	else
		snprintf(r->zbuf, sizeof(r->zbuf), "corrupt gzip data (zlib: %s, at byte %lld of the file); "
			 "nothing after it is read", why, at);
	r->zmsg = r->zbuf;
}

/* Inflate into dst; handles concatenated gzip members. 0 at the end or after an error. */
static ssize_t gz_read(struct scan_reader *r, char *dst, size_t n)
{
	if (r->zmsg)
		return 0;
	r->z.next_out = (Bytef *)dst;
	r->z.avail_out = (uInt)n;
	while (r->z.avail_out == n) {
		if (r->z.avail_in == 0 && !gz_refill_input(r)) {
			if (!r->zend && !r->err)
				r->truncated = true; /* input ended inside a gzip member */
			return r->err ? -1 : 0;
		}
		if (r->zend && r->z.next_in[0] != 0x1f) { /* no gzip magic: trailing garbage or padding */
			r->trailing = true;
			break;
		}
		if (r->zend) { /* another member follows the previous one */
			inflateReset(&r->z);
			r->zend = false;
		}
		int zr = inflate(&r->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			r->zend = true;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			gz_fail(r, zr);
			break;
		}
	}
	return (ssize_t)(n - r->z.avail_out);
}

static void *zp_main(void *arg)
{
	struct scan_reader *r = arg;
	struct zpipe *zp = r->zp;
	for (;;) {
		pthread_mutex_lock(&zp->mu);
		while (zp->count == ZP_NBUF && !zp->stop)
			pthread_cond_wait(&zp->cv, &zp->mu);
		int slot = (zp->head + zp->count) % ZP_NBUF;
		bool stop = zp->stop;
		pthread_mutex_unlock(&zp->mu);
		if (stop)
			return NULL;
		ssize_t k = gz_read(r, zp->buf[slot], ZP_CHUNK);
		pthread_mutex_lock(&zp->mu);
		if (k > 0) {
			zp->len[slot] = (size_t)k;
			zp->raw[slot] = r->raw;
			zp->count++;
		} else {
			zp->done = true;
		}
		pthread_cond_broadcast(&zp->cv);
		bool fin = zp->done;
		pthread_mutex_unlock(&zp->mu);
		if (fin)
			return NULL;
	}
}

void scan_reader_start(struct scan_reader *r)
{
	struct zpipe *zp = xcalloc(1, sizeof(*zp));
	for (int i = 0; i < ZP_NBUF; i++)
		zp->buf[i] = xmalloc(ZP_CHUNK);
	pthread_mutex_init(&zp->mu, NULL);
	pthread_cond_init(&zp->cv, NULL);
	r->zp = zp;
	if (pthread_create(&zp->th, NULL, zp_main, r) != 0) {
		r->zp = NULL; /* no thread: inflate inline */
		pthread_mutex_destroy(&zp->mu);
		pthread_cond_destroy(&zp->cv);
		for (int i = 0; i < ZP_NBUF; i++)
			free(zp->buf[i]);
		free(zp);
	}
}

/* Stop and join the inflate thread; afterwards the reader's flags are final. */
void scan_reader_stop(struct scan_reader *r)
{
	struct zpipe *zp = r->zp;
	if (!zp)
		return;
	pthread_mutex_lock(&zp->mu);
	zp->stop = true;
	pthread_cond_broadcast(&zp->cv);
	pthread_mutex_unlock(&zp->mu);
	pthread_join(zp->th, NULL);
	pthread_mutex_destroy(&zp->mu);
	pthread_cond_destroy(&zp->cv);
	for (int i = 0; i < ZP_NBUF; i++)
		free(zp->buf[i]);
	free(zp);
	r->zp = NULL;
}

static ssize_t zp_read(struct scan_reader *r, char *dst, size_t n)
{
	struct zpipe *zp = r->zp;
	pthread_mutex_lock(&zp->mu);
	while (zp->count == 0 && !zp->done)
		pthread_cond_wait(&zp->cv, &zp->mu);
	int h = zp->head;
	bool empty = zp->count == 0;
	pthread_mutex_unlock(&zp->mu);
	if (empty)
		return 0;
	size_t k = zp->len[h] - zp->off < n ? zp->len[h] - zp->off : n;
	memcpy(dst, zp->buf[h] + zp->off, k);
	zp->off += k;
	r->raw_seen = zp->raw[h];
	if (zp->off == zp->len[h]) {
		pthread_mutex_lock(&zp->mu);
		zp->head = (h + 1) % ZP_NBUF;
		zp->count--;
		zp->off = 0;
		pthread_cond_broadcast(&zp->cv);
		pthread_mutex_unlock(&zp->mu);
	}
	return (ssize_t)k;
}

long long scan_reader_raw(const struct scan_reader *r)
{
	return r->zp ? r->raw_seen : r->raw;
}

ssize_t scan_reader_read(struct scan_reader *r, char *dst, size_t n)
{
	if (r->eof)
		return 0;
	ssize_t k;
	if (r->zp) {
		k = zp_read(r, dst, n);
	} else if (r->gz) {
		k = gz_read(r, dst, n);
	} else {
		k = scan_reader_raw_read(r, dst, n);
		if (k > 0)
			r->raw += k;
		if (k < 0)
			r->err = errno;
	}
	if (k <= 0)
		r->eof = true;
	return k;
}

void scan_reader_open_gz(struct scan_reader *r, const unsigned char *head, size_t nhead)
{
	r->gz = true;
	r->zin = xmalloc(GZ_IN_CHUNK);
	memcpy(r->zin, head, nhead);
	r->z.next_in = r->zin;
	r->z.avail_in = (uInt)nhead;
	r->zinit = inflateInit2(&r->z, 15 + 32) == Z_OK;
	if (!r->zinit) {
		r->zmsg = "cannot initialise zlib";
		r->eof = true;
	}
}

void scan_reader_close(struct scan_reader *r)
{
	scan_reader_stop(r);
	if (r->zinit)
		inflateEnd(&r->z);
	free(r->zin);
	if (r->fd >= 0)
		close(r->fd);
}

/* ---- a corrupt member that zlib finds only at its trailer ------------------------- */

/* n bytes of the raw input at offset off (a file: pread, the reader's position unmoved). */
static ssize_t raw_pread(const struct scan_reader *r, unsigned char *dst, size_t n, long long off)
{
	if (r->mem) {
		size_t at = (size_t)off, k = at < r->memlen ? r->memlen - at : 0;
		k = k < n ? k : n;
		memcpy(dst, r->mem + at, k);
		return (ssize_t)k;
	}
	for (;;) {
		ssize_t k = pread(r->fd, dst, n, (off_t)off);
		if (k >= 0 || errno != EINTR)
			return k;
	}
}

bool scan_reader_gz_bad_at(const struct scan_reader *r, uint64_t at, long long *file_at, char *why, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return false;
	unsigned char *in = xmalloc(GZ_IN_CHUNK), *out = xmalloc(ZP_CHUNK);
	long long pos = 0;
	uint64_t total = 0;
	bool bad = false, member_end = false;
	*file_at = -1;
	for (;;) {
		if (z.avail_in == 0) {
			ssize_t k = raw_pread(r, in, GZ_IN_CHUNK, pos);
			if (k <= 0)
				break;   /* the input ends: a cut, told otherwise */
			pos += k;
			z.next_in = in;
			z.avail_in = (uInt)k;
		}
		if (member_end && z.next_in[0] != 0x1f)
			break;   /* no member holds `at` */
		if (member_end)
			inflateReset(&z);
		member_end = false;
		size_t room = total < at && at - total < ZP_CHUNK ? (size_t)(at - total) : ZP_CHUNK;
		z.next_out = out;   /* stops right at `at`, to know the byte of the file there */
		z.avail_out = (uInt)room;
		int zr = inflate(&z, Z_NO_FLUSH);
		total += room - z.avail_out;
		if (total >= at && *file_at < 0)
			*file_at = pos - z.avail_in;
		if (zr == Z_STREAM_END && total > at)
			break;   /* the member that holds `at` is whole */
		member_end = zr == Z_STREAM_END;
		if (zr != Z_OK && zr != Z_BUF_ERROR && zr != Z_STREAM_END) {
			bad = true;
			snprintf(why, n, "%s", z.msg ? z.msg : zError(zr));
			if (*file_at < 0)
				*file_at = pos - z.avail_in;
			break;
		}
	}
	inflateEnd(&z);
	free(in);
	free(out);
	return bad;
}
