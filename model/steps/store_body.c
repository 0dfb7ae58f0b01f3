/* SPDX-License-Identifier: MIT */
/* store_body.c: where a rank's body lives (internal.h "body storage"): a loader
 * thread's scratch while the rank loads, compaction (one block of the exact size, or
 * each array trimmed on its own for a large body), the per-array form a growing rank
 * needs again, and freeing each form. Writing records is store.c. */
#include "model/steps/store_body.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/asan.h"   /* poisoned bytes after each array of a block and each scratch buffer's used part */
#include "model/xalloc.h"

/* ---- the loader thread's scratch ------------------------------------------------- */

struct scratch_buf {
	void *p;
	size_t cap;
};

struct store_scratch {
	struct scratch_buf *slot;   /* by STORE_SLOT_* / store_slot_data / _present */
	size_t nslot;
};

struct store_scratch *store_scratch_new(void)
{
	return xcalloc(1, sizeof(struct store_scratch));
}

void store_scratch_free(struct store_scratch *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->nslot; k++) {
		asan_unpoison(s->slot[k].p, s->slot[k].cap);
		free(s->slot[k].p);
	}
	free(s->slot);
	free(s);
}

/* Nothing of s may be read until a rank asks for it again (ASan: a pointer a compacted
 * rank kept into its old scratch is reported). */
static void scratch_seal(struct store_scratch *s)
{
	for (size_t k = 0; k < s->nslot; k++)
		asan_poison(s->slot[k].p, s->slot[k].cap);
}

/* Slot k with room for n bytes, its first bytes as they were. The buffers stay from
 * rank to rank with a quarter more room than asked (ranks of about the same length
 * fit), so this reallocates only while the thread meets larger ranks. */
static void *scratch_room(struct store_scratch *s, size_t k, size_t n)
{
	if (k >= s->nslot) {
		size_t ns = s->nslot ? s->nslot : 32;
		while (ns <= k)
			ns *= 2;
		s->slot = xrealloc(s->slot, ns * sizeof(*s->slot));
		memset(s->slot + s->nslot, 0, (ns - s->nslot) * sizeof(*s->slot));
		s->nslot = ns;
	}
	struct scratch_buf *b = &s->slot[k];
	asan_unpoison(b->p, b->cap);
	if (n + ASAN_REDZONE > b->cap) {
		b->cap = n + n / 4 + ASAN_REDZONE;
		b->p = xrealloc(b->p, b->cap);
	}
	asan_poison((char *)b->p + n, b->cap - n);
	return b->p;
}

/* The rank takes the buffer p of slot k for its own (a large body: no copy). */
static void scratch_give(struct store_scratch *s, size_t k, const void *p)
{
	if (!p || k >= s->nslot || s->slot[k].p != p)
		return;
	asan_unpoison(s->slot[k].p, s->slot[k].cap);
	s->slot[k].p = NULL;
	s->slot[k].cap = 0;
}

void store_rank_use_scratch(struct rank_steps *r, struct store_scratch *s)
{
	r->scratch = s;
}

void *store_body_room(struct rank_steps *r, size_t k, void *p, size_t n)
{
	return r->scratch ? scratch_room(r->scratch, k, n) : xrealloc(p, n);
}

void store_body_drop(const struct rank_steps *r, void *p)
{
	if (!r->scratch)
		free(p);
}

/* Entries r->col holds for ncol columns: a power of two from 16, so a rank's first
 * columns cost one allocation, not one reallocation each. */
static size_t cols_cap(size_t ncol)
{
	size_t c = 16;
	while (c < ncol)
		c *= 2;
	return c;
}

void store_rank_cols(struct rank_steps *r, size_t n)
{
	if (n <= r->ncol)
		return;
	if (!r->col || cols_cap(n) > cols_cap(r->ncol))
		r->col = store_body_room(r, STORE_SLOT_COLS, r->col, cols_cap(n) * sizeof(*r->col));
	memset(r->col + r->ncol, 0, (n - r->ncol) * sizeof(*r->col));
	r->ncol = n;
}

/* ---- compaction ------------------------------------------------------------------- */

/* Runs of equal values in a column of n records (missing records do not break a run;
 * entries past c->cap are missing) when there are at most n / 16 of them and n allows
 * a run-length column; else 0. */
static size_t col_runs(const struct column *c, size_t n)
{
	if (n < 64 || n >= UINT32_MAX)
		return 0;
	size_t runs = 0, m = c->cap < n ? c->cap : n;
	double prev = 0;
	for (size_t i = 0; i < m; i++) {
		if (c->count < n && !bit_get(c->present, i))
			continue;
		double v = store_col_raw(c, i);
		if (runs == 0 || memcmp(&v, &prev, sizeof(v)) != 0) {
			if (++runs > n / 16)
				return 0;
			prev = v;
		}
	}
	return runs;
}

/* The runs col_runs() counted: where each starts and its value. */
static void col_fill_runs(const struct column *c, size_t n, uint32_t *start, double *val)
{
	size_t k = 0, m = c->cap < n ? c->cap : n;
	for (size_t i = 0; i < m; i++) {
		if (c->count < n && !bit_get(c->present, i))
			continue;
		double v = store_col_raw(c, i);
		if (k == 0 || memcmp(&v, &val[k - 1], sizeof(v)) != 0) {
			start[k] = (uint32_t)i;
			val[k++] = v;
		}
	}
	start[0] = 0;
}

/* c (src, or a copy of it) as the run-length column of src's runs (col_runs() of them)
 * in start and val; the arrays its values were in are the caller's. */
static void col_as_runs(struct column *c, const struct column *src, size_t n, uint32_t *start, double *val)
{
	col_fill_runs(src, n, start, val);
	c->run_start = start;
	c->run_val = val;
	c->data = NULL;
	c->enc = ENC_RLE;
}

/* c as a sealed column of n records: room for n, no presence bitmap when every record
 * has a value (else `present`), no scratch room for doubles. */
static void col_trimmed(struct column *c, size_t n, uint64_t *present)
{
	c->all_present = c->count == n;
	c->present = c->all_present ? NULL : present;
	c->cap = n;
	c->wide = false;
}

/* Each array on its own: trimmed to n entries, a full presence bitmap dropped, runs. */
static void col_compact(struct rank_steps *r, size_t metric, size_t n)
{
	struct column *c = &r->col[metric];
	if (c->cap == 0 || n == 0)
		return;
	if (c->cap != n || c->wide) /* a scratch buffer's room for doubles is trimmed too */
		store_col_resize(r, metric, n);
	if (c->count == n) {
		c->all_present = true;
		free(c->present);
		c->present = NULL;
	}
	size_t runs = col_runs(c, n);
	if (!runs)
		return;
	void *data = c->data;
	uint32_t *start = xmalloc(runs * sizeof(*start));
	col_as_runs(c, c, n, start, xmalloc(runs * sizeof(double)));
	c->nruns = runs;
	free(data);
}

/* Records with a timestamp: the bits of the presence bitmap below n. */
static size_t ts_count(const struct rank_steps *r)
{
	if (!r->ts_present)
		return 0;
	size_t nts = 0, full = r->n / 64, tail = r->n % 64;
	for (size_t w = 0; w < full; w++)
		nts += (size_t)__builtin_popcountll(r->ts_present[w]);
	if (tail)
		nts += (size_t)__builtin_popcountll(r->ts_present[full] & (((uint64_t)1 << tail) - 1));
	return nts;
}

/* A body kept in the scratch's buffers becomes the rank's own (no copy). */
static void body_adopt(struct rank_steps *r)
{
	struct store_scratch *s = r->scratch;
	scratch_give(s, STORE_SLOT_STEP, r->step);
	scratch_give(s, STORE_SLOT_TS, r->ts);
	scratch_give(s, STORE_SLOT_TS_PRESENT, r->ts_present);
	scratch_give(s, STORE_SLOT_COLS, r->col);
	for (size_t i = 0; i < r->ncol; i++) {
		scratch_give(s, store_slot_data(i), r->col[i].data);
		scratch_give(s, store_slot_present(i), r->col[i].present);
	}
	scratch_seal(s);
	r->scratch = NULL;
}

/* Compaction with each array on its own (a large body, or n == 0). */
static void compact_each(struct rank_steps *r, size_t nts)
{
	size_t n = r->n;
	if (r->scratch)
		body_adopt(r);
	if (r->cap > n) {
		size_t c = n ? n : 1;
		if (r->step)
			r->step = xrealloc(r->step, c * sizeof(*r->step));
		r->ts = xrealloc(r->ts, c * sizeof(*r->ts));
		r->ts_present = xrealloc(r->ts_present, bitmap_bytes(c));
		r->cap = n;
	}
	if (nts == n) {
		free(r->ts_present);
		r->ts_present = NULL;
	}
	if (nts == 0) {
		free(r->ts);
		r->ts = NULL;
	}
	for (size_t i = 0; i < r->ncol; i++)
		col_compact(r, i, n);
}

/* Bytes an array of n bytes takes in a block: 8-aligned, then the red zone. */
static size_t piece(size_t n)
{
	return (n + 7) / 8 * 8 + ASAN_REDZONE;
}

/* The block's bytes before run-length encoding (the bound that picks the form). */
static size_t block_bound(const struct rank_steps *r, size_t n, size_t nts)
{
	size_t b = piece(r->ncol * sizeof(*r->col));
	if (r->step)
		b += piece(n * sizeof(*r->step));
	if (nts)
		b += piece(n * sizeof(*r->ts)) + piece(bitmap_bytes(n));
	for (size_t i = 0; i < r->ncol; i++)
		if (r->col[i].cap)
			b += piece(n * store_col_elem(r->col[i].enc)) + piece(bitmap_bytes(n));
	return b;
}

/* The block's exact bytes; each column's runs (0: not run-length) noted in its nruns. */
static size_t block_bytes(struct rank_steps *r, size_t n, size_t nts)
{
	size_t b = piece(r->ncol * sizeof(*r->col));
	if (r->step)
		b += piece(n * sizeof(*r->step));
	if (nts)
		b += piece(n * sizeof(*r->ts));
	if (nts && nts < n)
		b += piece(bitmap_bytes(n));
	for (size_t i = 0; i < r->ncol; i++) {
		struct column *c = &r->col[i];
		if (!c->cap)
			continue;
		c->nruns = col_runs(c, n);
		if (c->nruns)
			b += piece(c->nruns * sizeof(*c->run_start)) + piece(c->nruns * sizeof(*c->run_val));
		else
			b += piece(n * store_col_elem(c->enc));
		if (c->count < n)
			b += piece(bitmap_bytes(n));
	}
	return b;
}

/* The next want bytes of the block at *at: the first `have` from src (NULL: none), the
 * rest zero; the padding after them poisoned. */
static void *take(char **at, const void *src, size_t have, size_t want)
{
	char *p = *at;
	if (have > want)
		have = want;
	if (have)
		memcpy(p, src, have);
	memset(p + have, 0, want - have);
	asan_poison(p + want, piece(want) - want);
	*at += piece(want);
	return p;
}

/* Column c (a copy of the rank's, in the block) packed at *at for n records; its old
 * arrays dropped. */
static void col_pack(const struct rank_steps *r, struct column *c, size_t n, char **at)
{
	void *data = c->data;
	uint64_t *present = c->present;
	size_t have = c->cap < n ? c->cap : n;
	if (c->nruns) {
		uint32_t *start = take(at, NULL, 0, c->nruns * sizeof(*start));
		col_as_runs(c, c, n, start, take(at, NULL, 0, c->nruns * sizeof(double)));
	} else {
		size_t e = store_col_elem(c->enc);
		c->data = take(at, data, have * e, n * e);
	}
	col_trimmed(c, n, c->count == n ? NULL : take(at, present, bitmap_bytes(have), bitmap_bytes(n)));
	store_body_drop(r, data);
	store_body_drop(r, present);
}

/* Compaction into one block of `bytes` (block_bytes). */
static void compact_block(struct rank_steps *r, size_t nts, size_t bytes)
{
	size_t n = r->n;
	char *block = xmalloc(bytes), *at = block;
	struct column *col = take(&at, r->col, r->ncol * sizeof(*r->col), r->ncol * sizeof(*r->col));
	int64_t *step = r->step ? take(&at, r->step, n * sizeof(*step), n * sizeof(*step)) : NULL;
	float *ts = nts ? take(&at, r->ts, n * sizeof(*ts), n * sizeof(*ts)) : NULL;
	uint64_t *tsp = nts && nts < n ? take(&at, r->ts_present, bitmap_bytes(n), bitmap_bytes(n)) : NULL;
	for (size_t i = 0; i < r->ncol; i++)
		if (col[i].cap)
			col_pack(r, &col[i], n, &at);
	store_body_drop(r, r->col);
	store_body_drop(r, r->step);
	store_body_drop(r, r->ts);
	store_body_drop(r, r->ts_present);
	r->col = col;
	r->step = step;
	r->ts = ts;
	r->ts_present = tsp;
	r->cap = n;
	r->block = block;
	r->block_len = bytes;
	if (r->scratch)
		scratch_seal(r->scratch);
	r->scratch = NULL;
}

void store_rank_compact(struct rank_steps *r)
{
	size_t n = r->n, nts = ts_count(r);
	if (n && block_bound(r, n, nts) <= STORE_BLOCK_MAX)
		compact_block(r, nts, block_bytes(r, n, nts));
	else
		compact_each(r, nts);
	store_rank_build_index(r);
}

void *store_rank_sealed_view(const struct rank_steps *r, struct rank_steps *v)
{
	size_t n = r->n, ncol = r->ncol, runs = 0;
	struct column *cols = xmalloc(ncol * sizeof(*cols) + 1);
	for (size_t i = 0; i < ncol; i++) {
		struct column *c = &cols[i];
		*c = r->col[i];
		if (c->cap && c->cap < n) {
			free(cols);
			return NULL;
		}
		c->nruns = c->cap ? col_runs(c, n) : 0;
		runs += c->nruns;
	}
	if (runs) /* their runs after the columns (64 bytes each: the doubles stay aligned) */
		cols = xrealloc(cols, ncol * sizeof(*cols) + runs * (sizeof(double) + sizeof(uint32_t)));
	double *val = (double *)(cols + ncol);
	uint32_t *start = (uint32_t *)(val + runs);
	for (size_t i = 0; i < ncol; i++) {
		struct column *c = &cols[i];
		if (!c->cap)
			continue;
		if (c->nruns) {
			col_as_runs(c, &r->col[i], n, start, val);
			start += c->nruns;
			val += c->nruns;
		}
		col_trimmed(c, n, c->present);
	}
	size_t nts = ts_count(r);
	*v = *r;
	v->col = cols;
	v->ts = nts ? r->ts : NULL;
	v->ts_present = nts && nts < n ? r->ts_present : NULL;
	v->cap = n;
	return cols;
}

/* ---- the per-array form again, and freeing -------------------------------------- */

static void *own_copy(const void *p, size_t n, size_t room)
{
	if (!p)
		return NULL;
	void *q = xmalloc(room ? room : 1);
	memcpy(q, p, n);
	return q;
}

void store_rank_unblock(struct rank_steps *r)
{
	if (!r->block)
		return;
	size_t n = r->cap;
	r->col = own_copy(r->col, r->ncol * sizeof(*r->col), cols_cap(r->ncol) * sizeof(*r->col));
	r->step = own_copy(r->step, n * sizeof(*r->step), n * sizeof(*r->step));
	r->ts = own_copy(r->ts, n * sizeof(*r->ts), n * sizeof(*r->ts));
	r->ts_present = own_copy(r->ts_present, bitmap_bytes(n), bitmap_bytes(n));
	for (size_t i = 0; i < r->ncol; i++) {
		struct column *c = &r->col[i];
		size_t e = c->data ? store_col_elem(c->enc) : 0;
		c->data = own_copy(c->data, c->cap * e, c->cap * e);
		c->present = own_copy(c->present, bitmap_bytes(c->cap), bitmap_bytes(c->cap));
		c->run_start = own_copy(c->run_start, c->nruns * sizeof(*c->run_start), c->nruns * sizeof(*c->run_start));
		c->run_val = own_copy(c->run_val, c->nruns * sizeof(*c->run_val), c->nruns * sizeof(*c->run_val));
	}
	free(r->block);
	r->block = NULL;
	r->block_len = 0;
}

void store_rank_free_body(struct rank_steps *r)
{
	if (r->block) {
		free(r->block);
	} else if (r->scratch) {
		scratch_seal(r->scratch);
	} else {
		for (size_t i = 0; i < r->ncol; i++)
			store_column_free(&r->col[i]);
		free(r->col);
		free(r->step);
		free(r->ts);
		free(r->ts_present);
	}
	free(r->idx_step);
	free(r->idx_pos);
	store_rank_forget_body(r);
}

void store_rank_free_sealed(struct rank_steps *r)
{
	store_rank_free_body(r);
	r->cap = r->n;
	r->sealed = true;
}

void store_rank_forget_body(struct rank_steps *r)
{
	r->col = NULL;
	r->ncol = 0;
	r->step = NULL;
	r->ts = NULL;
	r->ts_present = NULL;
	r->idx_step = NULL;
	r->idx_pos = NULL;
	r->block = NULL;
	r->block_len = 0;
	r->scratch = NULL;
}
