/* SPDX-License-Identifier: MIT */
/* scan_reader.h: private to the trace scanner (load_scan.c): its byte source, a file, a
 * gzip file (concatenated members too; inflated on its own thread) or memory, and the
 * check that tells a gzip stream which inflates to garbage (corrupt data zlib finds only
 * at its trailer) from a well-formed one holding invalid JSON (scan_reader.c). */
#ifndef MODEL_TRACE_SCAN_READER_H
#define MODEL_TRACE_SCAN_READER_H

#include <sys/types.h>
#include <zlib.h>
#include "model/base.h"

struct zpipe;
struct scan_reader {
	int fd;
	const char *mem;
	size_t memlen, mempos;
	bool gz, zinit, zend;
	z_stream z;
	unsigned char *zin;
	bool eof, truncated;
	bool trailing;      /* bytes after the last member that start no other (gzip -d ignores them) */
	bool zcheck;        /* zmsg is a gzip trailer (CRC or length) that does not match the data
			     * inflated: the stream ends there, its data whole but perhaps corrupt */
	int err;
	const char *zmsg;   /* a gzip error, NULL none: zbuf, or a literal */
	char zbuf[224];
	long long raw;      /* input bytes consumed, for progress (producer side) */
	struct zpipe *zp;   /* inflate thread, or NULL */
	long long raw_seen; /* with zp: input bytes behind the data consumed */
};

/* Read up to n bytes of the raw input (not inflated); -1 with errno on error. */
ssize_t scan_reader_raw_read(struct scan_reader *r, void *dst, size_t n);
/* The input is gzip: inflate it from here, head[0..nhead) being its bytes already read. */
void scan_reader_open_gz(struct scan_reader *r, const unsigned char *head, size_t nhead);
/* Inflate on a thread of its own (nothing when none can start: inline then); stop it
 * (joined: the reader's flags are final afterwards). */
void scan_reader_start(struct scan_reader *r);
void scan_reader_stop(struct scan_reader *r);
/* Up to n bytes of the (inflated) data; 0 at the end or after an error. */
ssize_t scan_reader_read(struct scan_reader *r, char *dst, size_t n);
/* Input bytes behind the data read so far (progress). */
long long scan_reader_raw(const struct scan_reader *r);
void scan_reader_close(struct scan_reader *r);
/* Inflate the gzip input again from its start (the reader goes on with its own): true
 * when the member that holds byte `at` of the inflated data is corrupt (zlib fails, or
 * its trailer does not match the data), with zlib's message in why[n] and the byte of
 * the file that inflated to `at` in *file_at. False when that member is whole or the
 * input ends first. */
bool scan_reader_gz_bad_at(const struct scan_reader *r, uint64_t at, long long *file_at, char *why, size_t n);

#endif
