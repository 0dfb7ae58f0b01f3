/* SPDX-License-Identifier: MIT */
/* analysis_index.h: private to the index summary (analysis_index.c writes and opens it,
 * analysis_index_rows.c reads a restored pyramid's rows on demand): the state of a
 * pyramid whose rows stay in the summary file. */
#ifndef MODEL_STEPS_ANALYSIS_INDEX_H
#define MODEL_STEPS_ANALYSIS_INDEX_H

#include "model/steps/internal.h"
#include "model/index/index.h"

struct ibuf;
struct obuf;

/* The version of what the index summary holds (analysis_index.c): a summary of another
 * version is stale and recomputed. The RULE: bump it in the same commit as any change
 * that alters a result the summary keeps (the distributed analysis and its verdicts,
 * the budget sums, the aligned set, the pyramids' cells or colour scale) or the
 * summary's byte layout; a change of the index file header or of the parts bumps
 * INDEX_VERSION (index.h) instead. The build (TSCOPE_VERSION) is not part of the key:
 * a rebuilt binary whose analyses are unchanged keeps the summary. */
#define SUMMARY_VERSION 8u

/* Words per checked chunk of a pyramid row as the summary is written (1 KB): a frame
 * reads and checks the chunks that hold the blocks it draws, not whole rows. At 10,000
 * ranks a zoom reads one window of one level per rank (~200 words): 1-2 chunks of
 * 1 KB each instead of 1-2 of 8 KB (summaries written with 8 KB chunks stay valid and
 * readable: the chunk size is part of each pyramid's descriptor, so this is no change
 * of SUMMARY_VERSION). */
#define SUMMARY_CHUNK_WORDS 256u
/* Resident chunks of one restored pyramid (the oldest are dropped first). */
#define HEAT_CHUNK_BYTES ((size_t)256 << 20)
/* Whole rows of a restored pyramid assembled for a caller that wants a row
 * (analysis_heat_row without pin: a summary written from a restored grid). */
#define HEAT_WHOLE_ROWS 16

/* ---- writing (analysis_index.c; analysis_index_rebuild.c streams rows through it) ---- */

#define SUMMARY_NGRID 2    /* HEAT_COMPUTE, HEAT_REL_SLOWDOWN */
extern const int summary_series[SUMMARY_NGRID]; /* the series the summary holds */

/* What the summary holds (internal.h struct summary_out) and, per pyramid, its grid
 * (built and kept in the analysis cache, or given by the writer) or a stream that makes
 * each row as it is written (`tscope-tui index`: no pyramid is kept in memory); and what
 * the rows gave. */
struct summary_job {
	const struct summary_out *out;
	struct run *run;           /* the run whose pyramids are built here (NULL: out's grids) */
	const char *run_dir;
	const struct heat_grid *grid[SUMMARY_NGRID];
	struct heat_stream *stream[SUMMARY_NGRID];
	const uint32_t *row_src[SUMMARY_NGRID]; /* NULL: rank i is stored row i */
	size_t ngrid;
	size_t chunk_words;                             /* words per checked chunk */
	bool not_dense;                                 /* a streamed row had a missing cell */
	uint64_t rows_off[SUMMARY_NGRID];
	uint32_t *crc[SUMMARY_NGRID];       /* per stored row and chunk */
	double lo[SUMMARY_NGRID], hi[SUMMARY_NGRID]; /* colour scale */
};

/* RUN_DIR's summary file (malloc'd). */
char *summary_path(const char *run_dir);

/* A summary as an open decodes it, before steps_summary_restore() hands it over. */
struct steps_summary {
	struct distributed *dist;
	struct budget_sums *bsum;
	struct heat_grid **grid;
	size_t ngrid;
};

/* Pieces of the summary head shared with its follow-mode extension
 * (analysis_index_delta.c): the index files it was computed from (name, size, mtime,
 * inode of index_part_files(run_dir) as they are now), the rank ids, the aligned set,
 * the distributed analysis, the budget sums. The getters check against the model: NULL
 * or why not ("stale", "malformed"); summary_check_parts() sets *prefix (when not
 * NULL) and gives NULL when the recorded files are some of the model's parts in order
 * and the others are deltas (an index that deltas extended since), else they must be
 * all of them. */
void summary_put_parts(struct obuf *h, const char *run_dir);
const char *summary_check_parts(struct ibuf *b, const struct steps_model *m, bool *prefix);
/* The same against files cur[0..n) (base names): *extended (when not NULL) when the
 * recorded files are some of them in order and the others are deltas (added since). */
struct summary_part {
	const char *name;
	long long size, mtime_ns, ino;
};
const char *summary_match_parts(struct ibuf *b, const struct summary_part *cur, size_t n, bool *extended);
void summary_put_ranks(struct obuf *h, size_t n, const int *ids);
const char *summary_check_ranks(struct ibuf *b, const struct steps_model *m);
void summary_put_aligned(struct obuf *h, bool contiguous, long lo, size_t n, const int64_t *aligned, size_t nunion);
bool summary_get_aligned(struct ibuf *b, struct steps_model *m);
void summary_put_dist(struct obuf *o, const struct distributed *d);
struct distributed *summary_get_dist(struct ibuf *b, size_t N, size_t S);
/* One rank's sums (n, the four lines, which lines it has), then N ranks' (or none). */
void summary_put_bsum1(struct obuf *o, const struct budget_sums *v);
void summary_get_bsum1(struct ibuf *b, struct budget_sums *v);
void summary_put_bsum(struct obuf *o, const struct budget_sums *v, size_t N);
struct budget_sums *summary_get_bsum(struct ibuf *b, size_t N);

/* FOLLOW MODE (analysis_index_delta.c). A follower that appends a delta to a whole
 * index (index.h DELTAS) keeps the summary current with a summary delta,
 * summary-delta.tsx beside summary.tsx, rewritten atomically after each delta (the
 * explorer's follower: once, when following stops; follow.h summary_at_stop): it
 * extends the summary it names (size, mtime, inode) to the index files as they are
 * then (the base part and every delta, as summary_put_parts() lists them), so an open
 * uses it only when the deltas it maps are exactly those; else it is reported and the
 * analyses are recomputed. It holds the run-wide results whole (ranks, aligned set,
 * distributed analysis, budget sums: O(ranks + aligned steps)) and of each pyramid of
 * the summary only the cells the new steps made or changed: per rank, per level l and
 * kind (the row layout's order: values of every level, worsts of levels >= 1, counts
 * when not dense) the blocks from S0 >> l on (S0: the summary's aligned steps; the
 * blocks before cover old steps alone and are the summary's), one CRC-32 per rank;
 * the new colour scale. So a save writes O(ranks x steps since the summary) bytes.
 *
 * steps_summary_follow() writes it (or, when the summary it would extend is not the
 * one of the base part, or `rewrote`: the index was rewritten whole, a whole summary
 * from the run as it is: O(records), like the rewrite): 0 or an errno; ENOTSUP when the
 * run is not one it extends (a pyramid with missing cells), the summary delta removed.
 * The run is live (a follower's): its results are computed as a plain open computes
 * them, over the aligned steps. summary_delta_apply() extends s, decoded from the
 * summary with id `base`, to the model's parts: NULL or why not. */
/* The whole summary of a follower's run with its distributed analysis dist computed
 * over the aligned steps (analysis_dist_compute). */
int steps_summary_write_live(struct run *run, const char *run_dir, const struct distributed *dist);
const char *summary_delta_apply(struct run *run, const char *run_dir, const struct index_file_id *base,
				struct steps_summary *s);
char *summary_delta_path(const char *run_dir);
/* A restored grid g extended to S columns whose rows' blocks from (S0 >> l) on come from
 * ext (nranks x ext_words words, the summary delta's tails): g freed, the new grid
 * returned (its rows read through g's summary as before). */
struct heat_grid *analysis_heat_lazy_extend(struct heat_grid *g, size_t S, uint32_t *ext, size_t ext_words);
/* The words per rank of such tails for a grid of S0 -> S columns (dense or not). */
size_t summary_tail_words(size_t S0, size_t S, bool dense);
/* One level and kind of a row's layout (heat_layout: the values of every level, the
 * worsts of levels >= 1, the counts when not dense): words [off, off + len) of g's
 * row; its blocks before `from` (S0 >> l: they cover the first S0 steps alone) at
 * base_off in the row of `base` (the summary's layout), the rest at ext_off in the
 * tail of the rank. analysis_heat_regions() lists g's regions in order into v (room
 * for 3 x g->nlevels) and returns how many. */
struct row_region {
	size_t off, len, from, base_off, ext_off;
};
size_t analysis_heat_regions(const struct heat_grid *g, size_t S0, const struct heat_grid *base,
			     struct row_region *v);
/* Pyramid i of the job: its grid, or its stream's layout. */
const struct heat_grid *summary_job_grid(const struct summary_job *j, size_t i);
/* Frees the job's streams and chunk CRCs. */
void summary_job_free(struct summary_job *j);
/* Chunks of a row of row_words words. */
size_t summary_chunks_of(size_t row_words, size_t chunk_words);
/* One stored row, a CRC-32 per chunk of cw words into crc[]: into the stream, or
 * (stream false) to its place at file offset `at` (pwrite). */
void summary_put_row(struct obuf *o, const unsigned char *row, size_t bytes, size_t cw, uint32_t *crc, bool stream,
		     uint64_t at);
/* The head (analysis_index.c's file comment) of what j wrote. */
void summary_put_head(struct obuf *h, const struct summary_job *j);
/* The index shards' parts of the summary (analysis_index_inputs.c) for the model's
 * parts: NULL when there are none. summary_inputs_rank() fills rank r's compute and
 * comm at every aligned step (pos: scratch of as many), its budget sums and memory peak
 * from them (false: not usable for r; read its steps). summary_inputs_free() is in
 * internal.h. */
struct summary_inputs *summary_inputs_open(const struct steps_model *m);
bool summary_inputs_rank(struct summary_inputs *in, const struct steps_model *m, size_t r, size_t *pos,
			 double *compute, double *comm, struct budget_sums *bsum, struct rank_stat *mem);
/* The step number of rank r's last record from its step index there (r's steps not
 * contiguous); false: not usable (read its steps). */
bool summary_inputs_last_step(struct summary_inputs *in, size_t r, long *last);
/* The file name of path (after its last '/'), as the summary names the parts it covers. */
const char *summary_base_name(const char *path);

/* Rebuild RUN_DIR's summary rank by rank (analysis_index_rebuild.c): 0, an errno, or
 * ENOTSUP when this run is not one it rebuilds (the caller computes it whole). */
int steps_summary_rebuild(struct run *run, const char *run_dir);

/* A slot of the chunk cache in the open-addressing table: key (rank x nchunks +
 * chunk) + 1, 0 for an empty entry. */
struct chunk_ent {
	uint64_t key;
	uint32_t slot;
};

struct heat_lazy {
	char *path;
	int fd;                   /* the summary as opened (-1: could not be opened) */
	struct index_file_id id;
	uint64_t rows_off;        /* file offset of stored row 0 */
	size_t nranks, nstored;   /* ranks, stored rows */
	uint32_t *row_src;        /* per rank: its stored row */
	size_t chunk_words, nchunks;
	uint32_t *crc;            /* nstored x nchunks */
	struct run *run;
	/* the chunk cache: cap slots of chunk_words words each, reused oldest first
	 * (next), found by (rank, chunk) through tab (tmask + 1 entries, at least twice
	 * cap); allocated at the first read */
	uint32_t *slots;
	uint64_t *slot_key;       /* per slot: its key, 0 free */
	struct chunk_ent *tab;
	size_t cap, tmask, next;
	bool *pinned;             /* whole rows kept (heat_row) */
	size_t row_words;         /* words of a stored row (the summary's layout) */
	/* extended by a summary delta (analysis_heat_lazy_extend): base is the summary's
	 * layout (no rows), ext the tails, ext_words per rank; NULL: not extended */
	struct heat_grid *base;
	uint32_t *ext;
	size_t ext_words;
	size_t wring[HEAT_WHOLE_ROWS], nwring, whead;
	bool failed;
};

/* A restored pyramid's chunk cache holds at most cap chunks (tests: a small cache
 * shows what eviction does; the default is HEAT_CHUNK_BYTES' worth). */
void analysis_heat_lazy_cap(struct heat_lazy *lz, size_t cap);

#endif
