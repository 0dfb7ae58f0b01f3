/* SPDX-License-Identifier: MIT */
/* index.h: the persistent index of a pytscope run dir (DESIGN.md invariant 12: a cache,
 * never the truth). Owns the part files, their header and checksum, where they live,
 * staleness against the sources, and sharding.
 *
 * Layout. RUN_DIR/.tscope-index/ when the run dir is writable, else
 * $XDG_CACHE_HOME/tscope-tui/<absolute run dir, '/' -> '%'; where.c>/ (XDG_CACHE_HOME defaults to
 * ~/.cache). One file per shard: steps-K-of-N.tsx (a whole index is steps-0-of-1.tsx);
 * a shard also writes inputs-K-of-N.tsx, its part of the summary, which the first open
 * merges into summary.tsx (model/steps/analysis_index_inputs.c, analysis_index.c).
 * A shard holds the ranks of slice K of N of the run's rank ids in ascending order
 * (ranks [K*R/N, (K+1)*R/N) of R).
 *
 * File format (version INDEX_VERSION). Header, 48 bytes: magic "TSCOPEIX", u32 version,
 * u32 byte-order mark 0x01020304 as written by the host, u64 payload length, u64 head
 * offset and u64 head length (in the payload), u32 CRC-32 of the head, u32 zero (a file
 * invalidated after an open found it damaged is this header alone with "DEAD" there:
 * index_file_invalidate).
 * Payload (model/index/codec.h encoding: integers as varints, check words fixed width):
 * first every rank's BODY (steps_rank_encode_body: step codes, timestamps (format 21: a
 * timestamp that is not finite is missing, no longer the base of the others), phase
 * (format 22: a trace's steps place a kernel without a CPU launch by its own start, and
 * a repeated ProfilerStep number is two records; format 23: pytscope's trace summary
 * in pytscope's float seconds, a truncated trace's steps never read as a CPU-only
 * profile's; format 24: a run.json FLOPs or peak that is not a finite positive number is
 * warned about and kept as not a number) columns, presence bits; in rank order, or in
 * the order the ranks were sealed when
 * `tscope-tui index` streams them during the load), then the HEAD: shard K and N;
 * the slice's sources (per rank: id, dir, the steps.jsonl extent of extent.h: size
 * read, mtime, inode, bytes of complete lines parsed and two CRC windows; run.json
 * size and mtime in ns, size -1 when absent, -2 when its writer could not open it);
 * the metric table (delta.h index_metrics_put: kind, name and where the run first has
 * each); per rank its SHELL
 * (steps_rank_encode_shell: id, counts, step span, the count of "loss" values that were
 * not numbers (format 19), run.json metadata, whose environment
 * a shell gives as "the one before me" when it is the same bytes, and the lowest rank's
 * run.json text, which the run comparison parses again) and where its
 * body is (file offset, length, CRC-32 of the body; several shells may name the same
 * body: ranks whose steps are the same bytes); the loader's source entries and
 * diagnostics for these ranks.
 *
 * Opening reads the header and the head with pread (never a mapping: a part truncated
 * in place later cannot raise SIGBUS) and checks magic, version, byte order, the file
 * length against the header, the head's checksum, the shard numbers, then every
 * source's size and mtime against the run dir as it is now (a rank dir added or removed
 * changes the slice and makes the part stale; a steps.jsonl that only grew keeps the
 * part, and only its new bytes are parsed: extent.h). A part that fails any check is named in
 * a diagnostic (why) and its ranks are read from the JSONL instead; a missing shard
 * likewise. Nothing from a failed part is used. The ranks of a valid part are published
 * as shells: a rank's body is read (pread, length and CRC checked) the first time its
 * steps or values are read; a body that fails then is diagnosed, the part invalidated and
 * that rank re-read from its JSONL (model/steps/internal.h store_rank_load_body). */
#ifndef MODEL_INDEX_INDEX_H
#define MODEL_INDEX_INDEX_H

#include "model/base.h"

#define INDEX_VERSION 26u
#define INDEX_HEADER_LEN 48
#define INDEX_INVALID_MARK 0x44414544u /* the header's last word in an invalidated file: "DEAD" */

struct load_ctx;
struct run;
struct steps_rank_file;

/* The directory the index of run_dir is read from (malloc'd): run_dir/.tscope-index
 * when this user can write it (or make it); else the cache directory once it holds a
 * part (this user's own index of a run dir it cannot write), unless run_dir/.tscope-index
 * holds parts that give an open more of the run as it is now (struct index_cover; a tie
 * goes to the cache: a stale run-dir index is rebuilt there and read from then on): the
 * parts of the two are never combined; else run_dir/.tscope-index when it is there
 * (another user's index, or one built by a job: read-only here); else the cache
 * directory. The cache directory is $XDG_CACHE_HOME (an absolute one), else ~/.cache
 * (HOME, else the passwd entry's home), /tscope-tui/<run dir's name>, and only when it is
 * this user's own (not made by another user, not writable by all): else
 * run_dir/.tscope-index stands in for it. When both hold parts, the choice is made once
 * for their files as they are (names, inodes, sizes, mtimes) and kept until one of
 * them changes; thread-safe. */
char *index_dir_for(const char *run_dir);
/* What an index directory gives an open of its run as it is now: the ranks of its usable
 * steps parts (index_status) and the traces of its usable trace parts whose files are
 * unchanged (trace_index_status). */
struct index_cover {
	size_t ranks, traces;
};
/* When both run_dir/.tscope-index (which this user cannot write) and this user's cache
 * hold parts: the one index_dir_for() does not read (malloc'd), what it would give an
 * open (*unread) and what the one read gives (*read). Else NULL. */
char *index_dir_unread(const char *run_dir, struct index_cover *read, struct index_cover *unread);
/* Where a part of run_dir's index is written (malloc'd): run_dir/.tscope-index when this
 * user can write it, else the cache directory (its parts are read from then on once they
 * give an open as much of the run as the run dir's: index_dir_for()); without a cache
 * directory of this user's, run_dir/.tscope-index (the write fails: index_write_failure). */
char *index_write_dir_for(const char *run_dir);
/* dir holds a part of an index (steps-K-of-N.tsx, traces-K-of-N.tsx). */
bool index_holds_parts(const char *dir);
/* Make a directory and its parents: 0 when path is then a directory, else the errno
 * of the mkdir that failed (EACCES: a cache dir that cannot be made). */
int index_mkdir_p(const char *path);
/* Why the index of run_dir was not written (err, an errno), for a diagnostic: its
 * directory and the error, and when that is the cache (the run dir is not writable)
 * where it can go instead. malloc'd. */
char *index_write_failure(const char *run_dir, int err);
/* What a write refused by an index this user can only read (err EACCES, EROFS) means
 * for its opens, as a parenthesis to append to a diagnostic; "" for other errors. */
const char *index_read_only_note(int err);

/* The run's rank files (steps_plan_files) sorted by rank id, as shards count them. */
size_t index_plan(const char *run_dir, struct steps_rank_file **out);

/* Ranks [lo, hi) of nfiles (sorted by id) form shard k of n. */
void index_shard_slice(size_t nfiles, unsigned k, unsigned n, size_t *lo, size_t *hi);

/* The rank dirs of run_dir (index_plan: pytscope's rank{id}/, one per id) with the shard
 * each belongs to, from the listing of run_dir alone: a shard's probes and loaders walk
 * into its own rank dirs only. name: the entries' names sorted by strcmp. */
struct index_shard_dirs {
	char **name;
	bool *mine;          /* name[i] is a rank dir of shard k */
	size_t n;
};
void index_shard_dirs(const char *run_dir, unsigned k, unsigned n, struct index_shard_dirs *out);
/* 1: entry `name` of the run dir is a rank dir of the shard; 0: of another shard; -1:
 * not a rank dir. */
int index_shard_dir_of(const struct index_shard_dirs *s, const char *name);
void index_shard_dirs_free(struct index_shard_dirs *s);

/* Load every valid part of run_dir's index into ctx->run (with --ranks only the listed
 * ranks, their sources and diagnostics: delta.h index_subset). files: the run's plan sorted
 * by rank id. covered[i] is set for each file of a used part (its rank came from the
 * index, or a subset leaves it out; not the subset's reparsed rank), grown[i] too when
 * its steps.jsonl only grew since (model/index/extent.h; a listed rank under a subset):
 * the rank holds the indexed records and its source the indexed offset; the caller parses
 * the rest (steps_ranks_extend). Returns the number of parts used; *found tells whether
 * any index part existed (valid or not). With parts to open it says "opening the index"
 * (load_phase: mapped, no bytes counted); the caller says when reading begins again. */
size_t index_load(struct load_ctx *ctx, const char *run_dir, const struct steps_rank_file *files,
		  size_t nfiles, bool *covered, bool *grown, bool *found);

/* Write part k of n for files[lo, hi) (sorted by id; their ranks are published and sealed
 * in run->steps), with the run's source entries [src0, src1) and diagnostics [d0, d1) the
 * load of those ranks produced. A whole index (n == 1) removes other parts. Returns 0 or
 * an errno; *path_out (malloc'd, may be NULL) names the file written. (write_model.c:
 * the model's ranks through index_write_spec() below.) */
int index_write(struct run *run, const char *run_dir, unsigned k, unsigned n,
		const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
		size_t d0, size_t d1, char **path_out);

/* index_write() of a part whose bodies the load streamed into w (index_part_begin():
 * has[i - lo] and loc[i - lo] for files[i] as index_part_end() takes them); the part
 * then backs the ranks' bodies (steps_rank_back_body). */
struct index_wfile;
struct index_body_loc;
int index_write_streamed(struct run *run, const char *run_dir, unsigned k, unsigned n,
			 const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
			 size_t d0, size_t d1, struct index_wfile *w, const bool *has, const struct index_body_loc *loc,
			 char **path_out);

/* index_write() with the run's sources and diagnostics to record given as lists of
 * their indexes in run->src and run->diags (appending after a follow or a grown open). */
struct index_pick {
	const size_t *src;
	size_t nsrc;
	const size_t *diag;
	size_t ndiag;
};
int index_write_pick(struct run *run, const char *run_dir, unsigned k, unsigned n,
		     const struct steps_rank_file *files, size_t lo, size_t hi, const struct index_pick *pick,
		     char **path_out);

/* Rewrite run_dir's index whole (one part, atomically: a temporary file renamed; the
 * old parts stay valid until then) from the run as it is now, with what it read beyond
 * the index (what a follower's save cost before DELTAS; tests/tools/bench_delta.c
 * measures it against a delta): every rank of the plan
 * must be in the run, read from one source each (a rank reloaded while following
 * leaves the index alone: the next open finds it stale and rebuilds it). Ranks are
 * compacted first (steps_rank_settle). Returns 0, an errno, or EAGAIN when the run does
 * not match its plan; *path_out as index_write. */
int index_append(struct run *run, const char *run_dir, char **path_out);
/* DELTAS (follow mode appends to the index). A follower logs what it reads into the
 * index's parts, whole or sharded, as delta segments (model/index/delta.h: a chain per
 * part): index_log_begin() notes what the run holds when following starts (per rank
 * its records and the bytes of its steps.jsonl read); each index_log_save() writes, for
 * each part with ranks that grew since the last save, one delta file with the new
 * records' columns as stored, the rank's shell, source and extent after them, and the
 * diagnostics added about them; atomically (a temporary file renamed: a killed follower
 * leaves the index as of its last save, valid). An open then restores each part's ranks
 * with their segments (replayed when a body is first read, nothing parsed again) and
 * parses only the bytes after the last delta's extents (and appends them the same way).
 * index_log_save() rewrites a part instead (that part alone, from the run: its deltas
 * go; *rewrote is set: its ranks were compacted, a follower must grow them again) when
 * it does not hold what the log last saved (none yet, written by someone else, stale)
 * or already has index_delta_max() deltas: compaction. A rank dir without steps.jsonl
 * (run.json alone: no source) is held as such, so the other ranks' growth goes on as
 * deltas; once its steps.jsonl is read (a follower's), its part is rewritten (a delta
 * extends a rank's source, which the part does not hold). A part that is missing or
 * damaged is left alone when the index is sharded (its shard's job builds it; the open
 * names it) and written when the index is whole (or there is none yet). Returns 0, an
 * errno, or EAGAIN when the run does not match its plan (a rank reloaded or added, a
 * source that failed: the parts of those ranks are left alone). Not thread-safe; the
 * run's model must not change during the call. */
#define INDEX_DELTA_MAX 16
unsigned index_delta_max(void);   /* TSCOPE_INDEX_DELTAS, else INDEX_DELTA_MAX */
struct index_log;
struct index_log *index_log_begin(struct run *run, const char *run_dir);
int index_log_save(struct index_log *lg, bool *rewrote, char **path_out);
void index_log_end(struct index_log *lg);

/* For files[which[i]] (files[i] when which is NULL), i < n: the index in run->src of
 * the latest pytscope source of its steps.jsonl (-1: none) and, when count is not NULL,
 * how many the run has. O(sources + n) expected (a hash of the paths); takes run->lock. */
void index_sources_of(struct run *run, const struct steps_rank_file *files, const size_t *which, size_t n,
		      long *latest, size_t *count);

/* Part writing with the ranks given by callbacks (index_write() gives the loaded run's;
 * tests/tools/gen_index.c ranks that share bodies). For each i of [lo, hi), in order,
 * body() streams the body of files[i]'s rank into o and sets *loc (between
 * index_body_begin() and index_body_end()), or sets *loc to a
 * body already written (ranks whose steps are the same bytes may share one body); then
 * shell() encodes the shell of each rank that had a body (steps_rank_encode_shell),
 * after the shell of files[prev] (SIZE_MAX: the first).
 * body() returns false when the run has no steps for files[i]. run gives the metric
 * table, the source entries [src0, src1) and the diagnostics [d0, d1). */
struct obuf;
struct index_body_loc {
	uint64_t off, len;
	uint32_t crc;
};
/* The passes of a part's writing over its files, in order (index_part_spec ahead). */
enum index_pass { INDEX_PASS_BODIES, INDEX_PASS_STAMPS, INDEX_PASS_SHELLS };
struct index_part_spec {
	struct run *run;
	const char *run_dir;
	unsigned k, n;
	const struct steps_rank_file *files;
	size_t lo, hi, src0, src1, d0, d1;
	bool (*body)(void *ud, size_t i, struct obuf *o, struct index_body_loc *loc);
	bool (*shell)(void *ud, size_t i, size_t prev, struct obuf *o);
	void *ud;
	/* when not NULL: the sources and diagnostics to record, in place of the ranges */
	const struct index_pick *pick;
	/* optional: called before files[i] is visited in each pass over [lo, hi), a cache
	 * hint for the files after it in that pass */
	void (*ahead)(void *ud, size_t i, enum index_pass pass);
	/* optional: called once the part is in place at path, with has[i - lo] and
	 * loc[i - lo] as body() gave them for each files[i] */
	void (*written)(void *ud, const char *path, const bool *has, const struct index_body_loc *loc);
};
int index_write_spec(const struct index_part_spec *s, char **path_out);
/* The same with the bodies streamed in beforehand: index_part_begin() opens part k of n
 * of run_dir (codec.h struct index_wfile: 0 or an errno), the caller streams bodies into
 * w->o (index_body_begin/index_body_end for each loc); index_part_end()
 * writes the head for files[lo, hi) of s with has[] and loc[] (s->body is not called)
 * and puts the part in place as index_write_spec() does. A part not to be written is
 * dropped with index_file_end(w, false). */
int index_part_begin(struct index_wfile *w, const char *run_dir, unsigned k, unsigned n);
int index_part_end(const struct index_part_spec *s, struct index_wfile *w, const bool *has,
		   const struct index_body_loc *loc, char **path_out);

/* The parts of run_dir's index in dir (index_dir_for(), or the other place of
 * index_dir_unread(); the newest shard count) and why each one would not be used (why
 * NULL: valid and current; or a shard of no rank, lo == hi, which an open never misses:
 * more shards than ranks). files: the run's plan sorted by rank id. */
struct index_part_status {
	unsigned k, n;
	char *path;
	char *why;
	size_t lo, hi;       /* its ranks: files[lo, hi) */
	size_t bytes;
	size_t deltas;       /* the follower's deltas it would be read with (delta.h) */
	size_t unused_deltas; /* its delta files an open drops (damaged, out of sequence, after a
			       * gap; their records are read from the JSONL) */
	size_t grown;        /* its ranks whose steps.jsonl grew since (the open reads the
			      * new bytes and appends them) */
};
size_t index_status(const char *dir, const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		    struct index_part_status **out);
void index_status_free(struct index_part_status *v, size_t n);
/* Part k of n of the index in dir alone as index_status() finds it (`index --shard K/N`:
 * the other parts are not read, nor their sources noted for the mode of the files this
 * process writes); the caller frees v->path and v->why. */
void index_part_state(const char *dir, const char *run_dir, const struct steps_rank_file *files, size_t nfiles,
		      unsigned k, unsigned n, struct index_part_status *v);

/* Check one part file's bytes: header, length and the head's checksum. NULL when
 * valid, else a static reason. The payload is at bytes + 48. For the fuzz harness and
 * the tests. */
const char *index_check(const unsigned char *bytes, size_t len);

/* The part files of the newest shard count that exist, in shard order, each followed
 * by its deltas in sequence order (malloc'd paths in a malloc'd array). */
size_t index_part_files(const char *run_dir, char ***out);

/* Every file of the index (parts, the summary) has the header above and a head at its
 * end. index_header_put() fills the header of a payload of plen bytes whose head is
 * [head_off, head_off + head_len) of the payload, CRC-32 crc. index_file_write() writes
 * path atomically (a temporary file, then rename; 0 or an errno): what fill() streams
 * into o after the header's place (the bodies, then ob_head() once and the head: the
 * head is streamed too, never held whole in memory), then the header.
 * index_head_read() reads path's header and head with pread and checks the magic,
 * version, byte order, the file's length against the header and the head's checksum:
 * NULL and the malloc'd head, or a static reason (one that gives numbers: another version's
 * names both versions, a damaged header its field, a length that does not match both lengths;
 * this thread's text, until its next call; index_check() likewise). The version, byte-order
 * mark and payload length are under no checksum: a version no build wrote (0, or more than
 * 16 above INDEX_VERSION) or a mark that is neither the host's nor its byte swap is "damaged
 * header", a length that does not match "truncated or damaged" (or trailing bytes). id: the file as read (size, mtime,
 * inode) and where the head starts (bodies lie in [INDEX_HEADER_LEN, body_end)). */
struct index_file_id {
	long long size, mtime_ns, ino;
	uint64_t body_end;
};
void index_header_put(unsigned char *out, uint64_t plen, uint64_t head_off, uint64_t head_len, uint32_t crc);
int index_file_write(const char *path, void (*fill)(struct obuf *o, void *ud), void *ud);
/* A source an index file summarizes (a file read; its directory is noted with it): from
 * now on, the files written into a RUN_DIR/.tscope-index show group and other read only
 * when it grants them too, and group read only for the one group every source that
 * grants it has (wfile.c; one stat each). Thread-safe. */
void index_note_source(const char *path);
/* Remove the temporary files index_file_write() calls are writing now (tmpfile.c).
 * Async-signal-safe: for a handler of a signal that ends the process (Ctrl-C, Slurm's
 * SIGTERM at a time limit or scancel), so that no partial file is left beside the index
 * (a part's can be gigabytes on a shared file system). */
void index_tmp_unlink(void);
/* From now on this process writes index files around the page cache (O_DIRECT where
 * the file system takes it; codec.c, direct writes): `tscope-tui index`, whose files
 * are for a later open, often on another node (Slurm shards). Each write then waits
 * for the disk, so an open that writes the index itself (after a full load) does not:
 * its files stay in the page cache for the next open. */
void index_write_direct(bool on);
/* The file offset the next byte streamed into body will have. */
uint64_t index_body_offset(const struct obuf *body);
/* Around one rank's body streamed into body: *loc gets its offset, then (end) its
 * length and CRC-32. */
void index_body_begin(struct obuf *body, struct index_body_loc *loc);
void index_body_end(struct obuf *body, struct index_body_loc *loc);
const char *index_head_read(const char *path, unsigned char **head, size_t *head_len,
			    struct index_file_id *id);
/* Mark an index file found damaged after it was opened (damage.c): when path is still
 * inode ino, it becomes its header alone, marked (INDEX_INVALID_MARK), so that every
 * later open and `index --status` name it ("invalidated: an earlier open found it
 * damaged") until it is written again. Readers read with pread, so a file cut short never faults them.
 * 0; INDEX_REPLACED when path is another file now or gone (left alone: a newer index);
 * or the errno when this user cannot (a read-only index). */
#define INDEX_REPLACED (-1)
int index_file_invalidate(const char *path, long long ino);
/* The end of the diagnostic of a damaged part (or the summary): what became of it after
 * index_file_invalidate() returned err. Static text. */
const char *index_damage_note(int err, bool summary);
/* The same for the index file at path (a part, whole or a shard, or a delta of one) of
 * run_dir: an open rebuilds a whole index but no shard, so a shard's note names the
 * command that does (`tscope-tui index --shard K/N RUN_DIR`). malloc'd. */
char *index_part_damage_note(int err, const char *path, const char *run_dir);
/* n bytes at off of fd (pread, EINTR retried); false on a short read or an error. */
bool index_pread_all(int fd, void *buf, size_t n, long long off);
/* The part files of a family (kind "steps": steps-K-of-N.tsx; "traces") in an index
 * dir: the shard count N of the newest one (0: none; *found set when any exists), and
 * removing the parts of every other shard count. */
unsigned index_newest_count(const char *dir, const char *kind, bool *found);
void index_remove_other_parts(const char *dir, const char *kind, unsigned n);

#endif
