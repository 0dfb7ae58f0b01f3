/* SPDX-License-Identifier: MIT */
/* store_follow.c: growing a live run (follow mode, model/steps/follow.h): thawing a
 * finalized rank for appends and re-deriving the indexes and the aligned set after new
 * records (steps_rank_grow, steps_refresh); a rank's run.json read again
 * (steps_rank_replace_meta). */
#include "model/steps/store_body.h"

#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/xalloc.h"

/* A bitmap of n bits, all set (bits past n clear, as bit counting expects). */
static uint64_t *bitmap_full(size_t n)
{
	uint64_t *b = xcalloc((n + 63) / 64 ? (n + 63) / 64 : 1, sizeof(*b));
	for (size_t w = 0; w < n / 64; w++)
		b[w] = ~(uint64_t)0;
	if (n % 64)
		b[n / 64] = ((uint64_t)1 << (n % 64)) - 1;
	return b;
}

/* Undo col_compact(): runs expand to the encoding a fresh load would have (so values
 * appended later are rounded as a fresh load rounds them), the presence bitmap comes
 * back. */
static void col_thaw(struct column *c, size_t n, enum metric_kind kind)
{
	if (c->enc == ENC_RLE) {
		double *d = xmalloc((n ? n : 1) * sizeof(*d));
		for (size_t k = 0; k < c->nruns; k++) {
			size_t end = k + 1 < c->nruns ? c->run_start[k + 1] : n;
			for (size_t i = c->run_start[k]; i < end; i++)
				d[i] = c->run_val[k];
		}
		free(c->run_start);
		free(c->run_val);
		c->run_start = NULL;
		c->run_val = NULL;
		c->nruns = 0;
		c->data = NULL;
		store_col_encode(c, d, n, store_col_fresh_enc(d, n, kind, c->exact));
		free(d);
		c->cap = n;
	}
	if (c->cap && c->all_present) {
		c->present = bitmap_full(c->cap);
		c->all_present = false;
	}
}

struct rank_steps *steps_rank_grow(struct steps_model *m, size_t ri)
{
	struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	store_rank_thaw(r);
	return r;
}

void store_rank_thaw(struct rank_steps *r)
{
	struct steps_model *m = r->m;
	store_rank_unblock(r); /* a rank published live may be compacted already */
	if (r->live)
		return;
	r->live = true;
	if (!r->ts) {
		r->ts = xcalloc(r->cap ? r->cap : 1, sizeof(*r->ts));
		free(r->ts_present);
		r->ts_present = bitmap_grow(NULL, 0, r->cap ? r->cap : 1);
	} else if (!r->ts_present) {
		r->ts_present = bitmap_full(r->cap);
	}
	for (size_t i = 0; i < r->ncol; i++) {
		pthread_mutex_lock(&m->lock); /* loader threads may intern metrics meanwhile */
		enum metric_kind kind = m->metric[i].kind;
		pthread_mutex_unlock(&m->lock);
		col_thaw(&r->col[i], r->n, kind);
	}
}

/* The records r gained since its index was built only add step numbers after every
 * step it had, so no earlier step moved or changed its record. */
static bool rank_appended_after(const struct rank_steps *r)
{
	if (r->contiguous || r->nindexed == 0)
		return true;
	long last = r->idx_step ? (long)r->idx_step[r->ndistinct - 1] : r->step0 + (long)(r->nindexed - 1);
	for (size_t i = r->nindexed; i < r->n; i++)
		if (r->step[i] <= last)
			return false;
	return true;
}

bool steps_refresh(struct steps_model *m)
{
	if (!m)
		return false;
	bool changed = m->resort, append = !m->resort;
	if (m->resort) {
		qsort(m->rank, m->nrank, sizeof(*m->rank), store_cmp_rank);
		store_slots_rebuild(m, m->nrank);
	}
	m->resort = false;
	for (size_t i = 0; i < m->nrank; i++) {
		struct rank_steps *r = m->rank[i];
		if (!r->dirty)
			continue;
		append = append && rank_appended_after(r);
		free(r->idx_step);
		free(r->idx_pos);
		r->idx_step = NULL;
		r->idx_pos = NULL;
		store_rank_build_index(r);
		r->dirty = false;
		changed = true;
	}
	if (!changed)
		return false;
	size_t old_aligned = m->naligned, old_tail = m->ntail;
	long *tail = xmalloc((old_tail ? old_tail : 1) * sizeof(*tail));
	for (size_t k = 0; k < old_tail; k++)
		tail[k] = steps_column_step(m, old_aligned + k);
	free(m->aligned);
	m->aligned = NULL;
	m->naligned = 0;
	m->aligned_contiguous = false;
	store_build_aligned(m);
	store_build_union(m);
	store_build_tail(m);
	/* appends only: the aligned steps known so far keep their index and records, new
	 * ones come after them, so the analyses extend instead of starting over; the
	 * heatmaps too when the old columns are the first new ones */
	bool kept = m->naligned + m->ntail >= old_aligned + old_tail;
	for (size_t k = 0; k < old_tail && kept; k++)
		kept = steps_column_step(m, old_aligned + k) == tail[k];
	free(tail);
	if (append) {
		analysis_cache_grown(m->analysis, m->analysis_lag, kept);
	} else {
		analysis_cache_free(m->analysis);
		m->analysis = NULL;
	}
	return true;
}

void steps_rank_replace_meta(struct steps_model *m, size_t ri, struct steps_meta *meta)
{
	pthread_mutex_lock(&m->lock);
	steps_meta_free(&m->rank[ri]->meta);
	rank_set_meta(m->rank[ri], meta);
	m->resort = true; /* the next steps_refresh() drops the analyses, as after a reload */
	pthread_mutex_unlock(&m->lock);
}
