/* SPDX-License-Identifier: MIT */
/* analysis_index.h: private to the index summary (analysis_index.c writes and opens it,
 * analysis_index_rows.c reads a restored pyramid's rows on demand): the state of a
 * pyramid whose rows stay in the summary file. */
#ifndef MODEL_STEPS_ANALYSIS_INDEX_H
#define MODEL_STEPS_ANALYSIS_INDEX_H

#include "model/steps/internal.h"
#include "model/index/index.h"

/* The version of what the index summary holds (analysis_index.c): a summary of another
 * version is stale and recomputed. The RULE: bump it in the same commit as any change
 * that alters a result the summary keeps (the distributed analysis and its verdicts,
 * the budget sums, the aligned set, the pyramids' cells or colour scale) or the
 * summary's byte layout; a change of the index file header or of the parts bumps
 * INDEX_VERSION (index.h) instead. The build (TSCOPE_VERSION) is not part of the key:
 * a rebuilt binary whose analyses are unchanged keeps the summary. */
#define SUMMARY_VERSION 1u

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
	size_t wring[HEAT_WHOLE_ROWS], nwring, whead;
	bool failed;
};

/* A restored pyramid's chunk cache holds at most cap chunks (tests: a small cache
 * shows what eviction does; the default is HEAT_CHUNK_BYTES' worth). */
void analysis_heat_lazy_cap(struct heat_lazy *lz, size_t cap);

#endif
