/* SPDX-License-Identifier: MIT */
/* codec.h: the byte encoding of the persistent index (model/index/): a growable output
 * buffer and a bounds-checked reader over untrusted bytes. Integers (counts, lengths,
 * ids, sizes, offsets, steps) are LEB128 varints: 7 bits a byte, low bits first, the
 * high bit set on every byte but the last (ob_uvar; ob_svar writes the zigzag form, 0,
 * -1, 1, -2, ... as 0, 1, 2, 3, ..., so small negatives stay one byte). Check words,
 * tags and the header's fields are little-endian fixed width (ob_u32, ob_w64), doubles
 * their IEEE bits as ob_w64. A string is its length + 1 as a varint (0: NULL), then
 * its bytes.
 *
 * CONTRACT. Writers never fail (allocation aborts). A reader never reads past its end:
 * the first short or malformed read sets `bad`, and every later get returns 0 / NULL /
 * false, so a decoder may read a whole record and check `bad` once. */
#ifndef MODEL_INDEX_CODEC_H
#define MODEL_INDEX_CODEC_H

#include "model/base.h"

#include <string.h>

struct obuf {
	unsigned char *p;
	size_t n, cap;
	/* the inline path's bound (ob_room): a piece goes straight into the buffer while
	 * n + its size stays under lim; 0 until the buffer exists, set by codec.c whenever
	 * p, cap, lead or the mode change */
	size_t lim;
	/* stream mode (ob_stream): the buffer is written to fd whenever it passes 1 MB, and
	 * a piece of OB_DIRECT bytes or more is written from the caller's memory as it is
	 * (no copy into the buffer, but for the part after the last page boundary of the
	 * file: writes end on page boundaries) */
	bool stream;
	int fd, err;              /* err: the first write errno, sticky */
	uint64_t off0;            /* fd's offset when the stream began */
	uint64_t written;
	/* the file's blocks are allocated (fallocate) up to `reserved` ahead of the writes,
	 * OB_RESERVE at a time (none when the file system cannot: no_reserve) */
	uint64_t reserved;
	bool no_reserve;
	/* direct mode (fd opened with O_DIRECT, codec.c "direct writes"): whole pages at
	 * page-aligned offsets from aligned memory; a page written in pieces waits in part[]
	 * until it is whole or the stream finishes */
	bool direct;
	size_t lead;              /* direct: the buffered bytes start at p + lead, so that a
				   * byte's place in p is its file offset's in its page */
	struct ob_page *part;
	size_t npart;
	unsigned char *aux;       /* ob_pwrite's bytes: aux_n from file offset aux_at, at aux + aux_lead */
	size_t aux_n, aux_lead;
	uint64_t aux_at;
	/* ob_sum_begin(): sum is the CRC-32 of the bytes put since: a large piece's as it is
	 * copied in, small ones' when the bytes from p + sum_at on are taken together
	 * (before they leave the buffer, a large piece, or ob_sum_end) */
	bool sum_on;
	uint32_t sum;
	size_t sum_at;
	/* ob_head(): where the file's head begins (bytes from the stream's start); its sum
	 * runs from there */
	bool head_on;
	uint64_t head_at;
};

#define OB_DIRECT ((size_t)32 << 10)
#define OB_FLUSH ((size_t)1 << 20)   /* stream mode: the buffer is written out from here */

/* Pieces under this size are copied into the buffer and summed later, with their
 * neighbours (codec.c "checksums"); larger ones are summed while they are copied. */
#define OB_SUM_LATER 256

/* ob_bytes() when the piece is not one for the inline path below. */
void ob_bytes_out(struct obuf *o, const void *p, size_t n);

/* Where the next n bytes may be put straight into the buffer (NULL when it has no room
 * to spare for them: ob_bytes then grows it, writes it out or takes the sum). */
static inline unsigned char *ob_room(struct obuf *o, size_t n)
{
	return o->n + n < o->lim ? o->p + o->lead + o->n : NULL;
}

/* n bytes from p. A piece under OB_SUM_LATER with room for it is a copy, inline: no
 * growing, no write out, its sum taken with its neighbours (a rank's shell and body are
 * mostly fixed-width values, short strings and columns of tens of bytes: the call and
 * the checks of the general path would cost more than the copy). Anything else goes
 * through ob_bytes_out. */
static inline void ob_bytes(struct obuf *o, const void *p, size_t n)
{
	unsigned char *at = n && n < OB_SUM_LATER ? ob_room(o, n) : NULL;
	if (at) {
		memcpy(at, p, n);
		o->n += n;
		return;
	}
	ob_bytes_out(o, p, n);
}

/* Little-endian bytes of v, written out one by one: the compiler merges them into a
 * single store (no loop, no call), whatever the host's byte order. */
static inline void ob_le32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

static inline void ob_u8(struct obuf *o, unsigned v)
{
	unsigned char c = (unsigned char)v;
	ob_bytes(o, &c, 1);
}

static inline void ob_u32(struct obuf *o, uint32_t v)
{
	unsigned char b[4];
	ob_le32(b, v);
	ob_bytes(o, b, 4);
}

static inline void ob_w64(struct obuf *o, uint64_t v)
{
	unsigned char b[8];
	ob_le32(b, (uint32_t)v);
	ob_le32(b + 4, (uint32_t)(v >> 32));
	ob_bytes(o, b, 8);
}

/* LEB128 bytes of v at b (room for 10); returns how many. */
static inline size_t ob_leb(unsigned char *b, uint64_t v)
{
	size_t n = 0;
	for (; v >= 0x80; v >>= 7)
		b[n++] = (unsigned char)(v | 0x80);
	b[n++] = (unsigned char)v;
	return n;
}

static inline void ob_uvar(struct obuf *o, uint64_t v)
{
	unsigned char *at = ob_room(o, 10);
	if (at) { /* encoded in place: no copy of a variable length */
		o->n += ob_leb(at, v);
		return;
	}
	unsigned char b[10];
	ob_bytes(o, b, ob_leb(b, v));
}

/* The zigzag varint of v (ob_svar's bytes) at b (room for 10); returns how many. */
static inline size_t ob_sleb(unsigned char *b, int64_t v)
{
	return ob_leb(b, (uint64_t)v << 1 ^ (uint64_t)(v < 0 ? -1 : 0));
}

static inline void ob_svar(struct obuf *o, int64_t v)
{
	ob_uvar(o, (uint64_t)v << 1 ^ (uint64_t)(v < 0 ? -1 : 0));
}

/* The little-endian bytes of double v (ob_f64's) at b. */
static inline void ob_le_f64(unsigned char *b, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	ob_le32(b, (uint32_t)u);
	ob_le32(b + 4, (uint32_t)(u >> 32));
}

static inline void ob_f64(struct obuf *o, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	ob_w64(o, u);
}
/* NULL is read back as NULL. */
void ob_str(struct obuf *o, const char *s);
/* A path under base is written relative to it and read back under the base given then,
 * so an index stays valid when the run dir is reached by another path (a job's absolute
 * path, the user's relative one). Other paths are kept as they are. */
void ob_path(struct obuf *o, const char *base, const char *path);
void ob_free(struct obuf *o);
/* Stream what follows to fd from its current offset (memory stays bounded whatever the
 * size written). An fd opened with O_DIRECT is written around the page cache (whole
 * aligned pages; the bytes are the same); should the file system refuse such a write
 * (EINVAL), the stream goes on through the page cache. */
void ob_stream(struct obuf *o, int fd);
/* Write the buffered bytes out (stream mode); returns 0 or the first write errno. */
int ob_flush(struct obuf *o);
/* Stream mode, after the last write: every byte written out and the file ending at the
 * stream's end (blocks allocated ahead of the writes and the padding of a last direct
 * page given back); returns 0 or the first errno. */
int ob_finish(struct obuf *o);
/* Stream mode: leave the next n bytes of the file to ob_pwrite() (the stream goes on
 * after them), and write n bytes at p at file offset `at` without moving the stream. */
void ob_skip(struct obuf *o, uint64_t n);
void ob_pwrite(struct obuf *o, const void *p, size_t n, uint64_t at);
/* Stream mode: no two writes (stream, ob_pwrite) may cover the same byte. */
/* Give up the stream with err (unless it failed already): nothing more is written and
 * index_file_write() returns err without putting the file in place. */
void ob_fail(struct obuf *o, int err);
/* CRC-32 (zlib's) of the bytes put between ob_sum_begin() and ob_sum_end(), computed
 * while they are in cache; a rank's body or a pyramid row is checksummed as it is
 * written, never copied or re-read for it. */
void ob_sum_begin(struct obuf *o);
uint32_t ob_sum_end(struct obuf *o);
/* The head of an index file begins here (index_file_write(): once, after the bodies):
 * its place is kept and its sum begun (ob_sum_end() gives the head's CRC-32). */
void ob_head(struct obuf *o);

/* CRC-32 of n bytes at p continuing crc: zlib's crc32(crc, p, n) bit for bit, faster
 * on CPUs with carry-less multiplication (crc.c). */
uint32_t index_crc32(uint32_t crc, const void *p, size_t n);
/* The same while copying the n bytes to dst (one pass over them). */
uint32_t index_crc32_copy(uint32_t crc, void *dst, const void *src, size_t n);

struct ibuf {
	const unsigned char *p;
	size_t n, off;
	bool bad;
};

/* n bytes at the cursor (NULL when fewer remain); the cursor moves past them. */
const void *ib_bytes(struct ibuf *b, size_t n);
unsigned ib_u8(struct ibuf *b);
uint32_t ib_u32(struct ibuf *b);
uint64_t ib_w64(struct ibuf *b);
double ib_f64(struct ibuf *b);
/* A varint (ob_uvar); more than 64 bits or a cut one is bad. The one-byte case inline. */
uint64_t ib_uvar_slow(struct ibuf *b);
static inline uint64_t ib_uvar(struct ibuf *b)
{
	if (!b->bad && b->off < b->n && b->p[b->off] < 0x80)
		return b->p[b->off++];
	return ib_uvar_slow(b);
}
static inline int64_t ib_svar(struct ibuf *b)
{
	uint64_t u = ib_uvar(b);
	return (int64_t)(u >> 1 ^ (0 - (u & 1)));
}
/* A count (a varint) of elements of at least elem bytes each that must still fit in
 * the buffer. */
size_t ib_count(struct ibuf *b, size_t elem);
/* A malloc'd copy of a string (NULL for a written NULL or on error). */
char *ib_str(struct ibuf *b);
/* The same string in place: its *len bytes at the cursor (no NUL after them), NULL for
 * a written NULL or on error. */
const char *ib_str_view(struct ibuf *b, size_t *len);
char *ib_path(struct ibuf *b, const char *base);

/* One diagnostic (level, file as ob_path under base, line, offset, rank, message), the
 * one encoding the index parts and the trace summaries share. ib_diag() fills d with
 * malloc'd strings (file may be NULL) and sets b->bad on a bad level or a missing
 * message; the caller frees both in either case. ENCODED_DIAG_MIN: its smallest size. */
struct diag;
#define ENCODED_DIAG_MIN 7
void ob_diag(struct obuf *o, const char *base, const struct diag *d);
void ib_diag(struct ibuf *b, const char *base, struct diag *d);

/* A source's counters (bytes, records, skipped, err, partial, consumed, lines), the one
 * encoding the index parts and the follow deltas share. ib_source_counts() sets only
 * those fields of s. */
struct source;
void ob_source_counts(struct obuf *o, const struct source *s);
void ib_source_counts(struct ibuf *b, struct source *s);

/* An index file written in steps (index.c; index_file_write() is the one-call form):
 * index_file_begin() opens path's temporary file (O_DIRECT under index_write_direct())
 * with the header's place kept, and o streams into it from there (the bodies, then
 * ob_head() and the head); index_file_end() with keep writes the header and renames
 * the file into place (0 or an errno), without keep removes it. begin returns 0 or an
 * errno (w is then ended). Either frees w's memory. */
struct index_wfile {
	char *path, *tmp;
	int fd;
	struct obuf o;
};
int index_file_begin(struct index_wfile *w, const char *path);
int index_file_end(struct index_wfile *w, bool keep);

#endif
