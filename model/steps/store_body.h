/* SPDX-License-Identifier: MIT */
/* store_body.h: private to model/steps. Where a rank's body (steps, timestamps, columns)
 * lives while it is loaded and after its seal: the loader thread's scratch buffers, then
 * one block or arrays of its own (store_body.c); used by the loader (load.c), the store
 * (store.c) and a compacted rank that grows again (store_follow.c).
 *
 * CONTRACT. A loader thread keeps one store_scratch and loads its ranks through it one
 * at a time (store_rank_use_scratch before the first append): the rank's arrays grow in
 * buffers that stay with the thread from rank to rank, so a rank allocates and faults
 * in nothing for its records. store_rank_compact() (steps_rank_seal) then moves a body
 * of at most STORE_BLOCK_MAX bytes into one block of its exact size (one allocation, one
 * free), and hands a larger one the buffers themselves (each array trimmed on its own,
 * no copy). A rank reserved (rank_reserve) for more than STORE_SCRATCH_ROWS records
 * leaves the scratch before its first record: its arrays are its own from the start
 * (a copy would cost more than the allocations it saves). Every body array is grown or
 * freed through store_body_room/_drop (its slot: STORE_SLOT_* or store_slot_data/_present
 * of a metric id). A compacted rank that grows again (steps_rank_grow) is first given
 * arrays of its own (store_rank_unblock). Under ASan each array in a block or a scratch
 * buffer is followed by poisoned bytes, so overruns are still reported. */
#ifndef MODEL_STEPS_STORE_BODY_H
#define MODEL_STEPS_STORE_BODY_H

#include "model/steps/internal.h"

#define STORE_BLOCK_MAX ((size_t)1 << 20)
#define STORE_SCRATCH_ROWS 8192
enum { STORE_SLOT_STEP, STORE_SLOT_TS, STORE_SLOT_TS_PRESENT, STORE_SLOT_COLS, STORE_SLOT_COL0 };
static inline size_t store_slot_data(size_t metric)
{
	return STORE_SLOT_COL0 + 2 * metric;
}
static inline size_t store_slot_present(size_t metric)
{
	return STORE_SLOT_COL0 + 2 * metric + 1;
}
struct store_scratch;
struct store_scratch *store_scratch_new(void);
void store_scratch_free(struct store_scratch *s);
/* r (fresh: nothing stored yet) keeps its body in s until compacted or freed; s holds
 * one rank at a time. */
void store_rank_use_scratch(struct rank_steps *r, struct store_scratch *s);
/* Body array p of r in slot k resized to n bytes (n > 0), its first bytes kept (the
 * scratch's buffer, or a realloc); store_body_drop() frees it (not a scratch buffer). */
void *store_body_room(struct rank_steps *r, size_t k, void *p, size_t n);
void store_body_drop(const struct rank_steps *r, void *p);
/* Give a compacted rank's body arrays allocations of their own (before it grows). */
void store_rank_unblock(struct rank_steps *r);

/* The body store_rank_compact() would leave of r, as a view over r's arrays where the
 * compaction would only trim them: *v a copy of r, to read (the analyses; the body's
 * bytes from store_rank_encode_body are the compacted body's), never to grow. Returns
 * the one allocation the view adds (its columns, and the runs of those the compaction
 * would run-length encode), for the caller to free after its last read of *v; NULL (no
 * view) when the compaction would move values (a column shorter than the rank). */
void *store_rank_sealed_view(const struct rank_steps *r, struct rank_steps *v);
/* Free the body of r (not sealed: its view was read instead) and leave r as the seal
 * and store_rank_free_body() would: sealed, room for its n records (a body read back
 * from the part holds n, and an append trusts the room). */
void store_rank_free_sealed(struct rank_steps *r);

#endif
