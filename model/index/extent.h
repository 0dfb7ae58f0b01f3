/* SPDX-License-Identifier: MIT */
/* extent.h: what an index part records of each rank's steps.jsonl (model/index/index.h)
 * so that a source which only grew since the part was written is resumed where the
 * part's parse stopped instead of being read again (issue 15, follow mode appends).
 *
 * An extent: the bytes the parse read up to (`size`, the file's size then), its mtime
 * and inode when the part was written, the bytes of complete lines parsed (`covered`:
 * the source's consumed offset; a trailing half-written line is not covered) and the
 * CRC-32 of the first and of the last EXTENT_WINDOW covered bytes.
 *
 * CONTRACT. extent_check() judges a file now against its extent:
 *   SAME  size and mtime as recorded (what the index held before extents);
 *   GREW  same inode, larger than the recorded size, at least `covered` bytes, and both
 *         windows still hold the same bytes: the covered prefix is taken as unchanged
 *         (a cheap check: an edit between the windows that keeps the size growing is not
 *         seen) and only [covered, size now) needs parsing;
 *   STALE anything else (shrank, truncated, replaced, rewritten, touched at the same
 *         size, absent then);
 *   GONE  absent now (it was there);
 *   DENIED this process may not read it (extent_may_read; or stat fails otherwise than
 *         ENOENT: a rank dir it cannot search), where the index holds what its writer
 *         read: the index never shows more than the files do;
 *   READABLE recorded as unreadable (EXTENT_UNREADABLE) and this process can open it now.
 * An extent with covered < 0 (unreadable, no source) never GREWs. A file its writer could
 * not open (EACCES, EPERM) is recorded with its stat and covered EXTENT_UNREADABLE: SAME
 * while its size and mtime hold and it still cannot be opened (its rank holds what a
 * plain load gives: no record, the error). A rank's run.json stamp follows the same
 * rules (index.c), its size EXTENT_UNREADABLE when its writer could not open it. The
 * format is unchanged (INDEX_VERSION): an older reader takes -2 as "not resumable". */
#ifndef MODEL_INDEX_EXTENT_H
#define MODEL_INDEX_EXTENT_H

#include "model/base.h"

#define EXTENT_WINDOW 1024

struct obuf;
struct ibuf;
struct run;

struct index_extent {
	long long size;        /* -1: the file was absent */
	long long mtime_ns, ino;
	long long covered;     /* -1: not resumable; EXTENT_UNREADABLE */
	uint32_t head_crc, tail_crc;
};

#define EXTENT_UNREADABLE (-2LL)

enum extent_state { EXTENT_SAME, EXTENT_GREW, EXTENT_STALE, EXTENT_GONE, EXTENT_DENIED, EXTENT_READABLE };

/* Bytes of a file still in memory: [off, off + len) at p (p NULL: none). */
struct extent_mem {
	const void *p;
	long long off;
	size_t len;
};

/* Stamp source src of run (a steps.jsonl its loader read whole from fd, st: its fstat at
 * open) with what its extent will record, while fd is open: extent_put_src() then
 * writes it without opening the file again (one path walk and three calls less per
 * rank; on a shared file system, metadata requests). A window that mem (the loader's
 * last read, or NULL) holds is summed there, the others read from fd. */
struct stat;
void extent_stamp(struct run *run, size_t src, int fd, const struct stat *st, const struct extent_mem *mem);
/* Record steps (a rank's steps.jsonl) as run's latest source for it says it was read. */
void extent_put(struct obuf *o, const struct run *run, const char *steps);
/* The same with that source given: its index in run->src (index_sources_of), -1: none. */
void extent_put_src(struct obuf *o, const struct run *run, const char *steps, long src);
void extent_get(struct ibuf *b, struct index_extent *e);
enum extent_state extent_check(const struct index_extent *e, const char *steps);
/* This process may read file path of stat st: its mode bits against the effective uid,
 * gid and groups say so, or (they do not: root, a POSIX ACL that grants it) an open()
 * succeeds. An ACL that denies what the mode bits allow is not seen. */
bool extent_may_read(const char *path, const struct stat *st);
/* The rank ids and extents index part `path` records (malloc'd arrays of *n, in its
 * order: ascending ids) and the file as read; false when it cannot be read, is damaged
 * or is not part part_k of part_n. */
struct index_file_id;
bool extent_read_part(const char *path, const char *base, unsigned part_k, unsigned part_n,
		      struct index_file_id *id, long **ids, struct index_extent **ext, size_t *n);

#endif
