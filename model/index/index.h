/* SPDX-License-Identifier: MIT */
/* index.h: the persistent index of a pytscope run dir (DESIGN.md invariant 12: a cache,
 * never the truth). Owns the part files, their header and checksum, where they live,
 * staleness against the sources, and sharding.
 *
 * Layout. RUN_DIR/.tscope-index/ when the run dir is writable, else
 * $XDG_CACHE_HOME/tscope-tui/<absolute run dir, '/' -> '%'>/ (XDG_CACHE_HOME defaults to
 * ~/.cache). One file per shard: steps-K-of-N.tsx (a whole index is steps-0-of-1.tsx).
 * A shard holds the ranks of slice K of N of the run's rank ids in ascending order
 * (ranks [K*R/N, (K+1)*R/N) of R).
 *
 * File format (version INDEX_VERSION). Header, 32 bytes: magic "TSCOPEIX", u32 version,
 * u32 byte-order mark 0x01020304 as written by the host, u64 payload length, u32 CRC-32 of
 * the payload, u32 zero. Payload (model/index/codec.h encoding): shard K and N; the slice's
 * sources with their sizes and mtimes (per rank: id, dir, steps.jsonl and run.json size
 * and mtime in ns, -1 when absent); the metric table; the loader's source entries and
 * diagnostics for these ranks; the sealed ranks (steps_rank_encode: step codes, phase
 * columns, presence bits, run.json metadata).
 *
 * Opening. Parts are mapped read-only (mmap) and checked: magic, version, byte order,
 * length, checksum, shard numbers, then every source's size and mtime against the run dir
 * as it is now (a rank dir added or removed changes the slice and makes the part stale).
 * A part that fails any check is named in a diagnostic (why) and its ranks are read from
 * the JSONL instead; a missing shard likewise. Nothing from a failed part is used. */
#ifndef MODEL_INDEX_INDEX_H
#define MODEL_INDEX_INDEX_H

#include "model/base.h"

#define INDEX_VERSION 1u

struct load_ctx;
struct run;
struct steps_rank_file;

/* The directory the index of run_dir lives in (malloc'd): run_dir/.tscope-index when
 * run_dir is writable, else the cache directory. */
char *index_dir_for(const char *run_dir);

/* The run's rank files (steps_plan_files) sorted by rank id, as shards count them. */
size_t index_plan(const char *run_dir, struct steps_rank_file **out);

/* Ranks [lo, hi) of nfiles (sorted by id) form shard k of n. */
void index_shard_slice(size_t nfiles, unsigned k, unsigned n, size_t *lo, size_t *hi);

/* Load every valid part of run_dir's index into ctx->run. files: the run's plan sorted
 * by rank id. covered[i] is set for each file whose rank came from the index. Returns the
 * number of parts used; *found tells whether any index part existed (valid or not). */
size_t index_load(struct load_ctx *ctx, const char *run_dir, const struct steps_rank_file *files,
		  size_t nfiles, bool *covered, bool *found);

/* Write part k of n for files[lo, hi) (sorted by id; their ranks are published and sealed
 * in run->steps), with the run's source entries [src0, src1) and diagnostics [d0, d1) the
 * load of those ranks produced. A whole index (n == 1) removes other parts. Returns 0 or
 * an errno; *path_out (malloc'd, may be NULL) names the file written. */
int index_write(struct run *run, const char *run_dir, unsigned k, unsigned n,
		const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
		size_t d0, size_t d1, char **path_out);

/* The parts of run_dir's index (the newest shard count) and why each one would not be
 * used (why NULL: valid and current). files: the run's plan sorted by rank id. */
struct index_part_status {
	unsigned k, n;
	char *path;
	char *why;
	size_t lo, hi;       /* its ranks: files[lo, hi) */
	size_t bytes;
};
size_t index_status(const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		    struct index_part_status **out);
void index_status_free(struct index_part_status *v, size_t n);

/* Check one part file's bytes: header, length and checksum. NULL when valid, else a
 * static reason. The payload is at bytes + 32. For the fuzz harness and the tests. */
const char *index_check(const unsigned char *bytes, size_t len);

#endif
