/* SPDX-License-Identifier: MIT */
/* load_stream.c: the part `tscope-tui index` writes (whole, or a shard's), written while
 * the run loads: each rank's body goes into the part as the loader thread seals the
 * rank, in cache, in the order ranks end (the head gives each body's offset), and a rank
 * whose summary inputs were taken then (seal.h) hands its body back at once (read and
 * encoded where the loader put it, not compacted first), so the next rank's body is made
 * in memory already touched: the load never holds every body, and neither the part's
 * pass nor the summary's (a shard's part of it) reads one back (BENCHMARKS.md, issue 15
 * "bodies written at their seal"). After the parse the head
 * goes after the bodies and the part is put in place (load_plan.c); a load that does not
 * write the part (a pipe among the sources, a write error) drops it and parses the ranks
 * it freed again. */
#include "model/steps/load_plan.h"

#include <pthread.h>
#include <stdlib.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/opts.h"
#include "model/run.h"
#include "model/steps/seal.h"
#include "model/steps/store_body.h"
#include "model/xalloc.h"

/* One rank's body in the part. */
struct stream_body {
	struct rank_steps *r;
	struct index_body_loc loc;
};

struct load_stream {
	pthread_mutex_t lock;         /* the part's stream and v */
	struct steps_model *m;
	unsigned long load;           /* the load's serial (seal_sets) */
	unsigned k, n;                /* part k of n (a shard's, or 0 of 1) */
	struct index_wfile w;
	struct stream_body *v;
	size_t nv, cap;
	bool failed;                  /* a source was a pipe, or a write failed: no part */
};

struct load_stream *load_stream_begin(struct load_ctx *ctx, const char *path, const struct load_plan *lp,
				      unsigned long load)
{
	const struct opts *o = ctx->opts;
	if (!o || !(o->index_build || o->shard_n) || o->ranks || !lp->indexed || lp->grown || !lp->tasks.n ||
	    lp->tasks.n != lp->hi - lp->lo)
		return NULL;
	struct load_stream *s = xcalloc(1, sizeof(*s));
	s->k = o->shard_n ? o->shard_k : 0;
	s->n = o->shard_n ? o->shard_n : 1;
	if (index_part_begin(&s->w, path, s->k, s->n) != 0) { /* the write after the parse says why */
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->m = steps_model_get(ctx->run);
	s->load = load;
	return s;
}

/* Rank r's body into the part, encoded from body (r, or a view of it). */
static void stream_body(struct load_stream *s, struct rank_steps *r, const struct rank_steps *body)
{
	struct obuf *o = &s->w.o;
	struct stream_body b = { .r = r };
	index_body_begin(o, &b.loc);
	store_rank_encode_body(body, o);
	index_body_end(o, &b.loc);
	xgrow((void **)&s->v, &s->cap, s->nv + 1, sizeof(*s->v));
	s->v[s->nv++] = b;
	s->failed = o->err != 0;
}

/* A body handed back at once is read (summary inputs) and encoded from a view of its
 * arrays as the seal would leave them (store_rank_sealed_view): compacting it would copy
 * it only to free it. */
void load_stream_rank(struct load_stream *s, struct rank_steps *r, bool regular, struct seal_sets *sets)
{
	if (!s) {
		steps_rank_seal(r);
		return;
	}
	bool loose = regular && r->contiguous && r->n;
	struct rank_steps view;
	if (loose)
		store_rank_build_index(r); /* all a contiguous rank's seal indexes */
	void *viewed = loose ? store_rank_sealed_view(r, &view) : NULL;
	if (!viewed)
		steps_rank_seal(r);
	const struct rank_steps *body = viewed ? &view : r;
	struct seal_inputs *in = loose ? seal_inputs_take(s->m, s->load, body, sets) : NULL;
	pthread_mutex_lock(&s->lock);
	s->failed |= !regular;
	if (!s->failed)
		stream_body(s, r, body);
	bool hand = in && !s->failed;
	pthread_mutex_unlock(&s->lock);
	free(viewed);
	if (hand) {
		r->sealed_in = in;
		store_rank_free_sealed(r);
	} else {
		seal_inputs_free(in);
		steps_rank_seal(r);
	}
}

bool load_stream_failed(const struct load_stream *s)
{
	return s->failed;
}

/* Index of rank id `rank` in files[lo, hi) (sorted by id), or hi. */
static size_t file_of(const struct steps_rank_file *files, size_t lo, size_t hi, long rank)
{
	const struct steps_rank_file *f = steps_rank_files_find(files + lo, hi - lo, rank);
	return f ? (size_t)(f - files) : hi;
}

int load_stream_write(struct load_stream *s, struct run *run, const char *path, const struct load_plan *lp,
		      size_t src0, size_t src1, size_t d0, size_t d1, char **written)
{
	size_t lo = lp->lo, hi = lp->hi, cap = hi > lo ? hi - lo : 1;
	bool *has = xcalloc(cap, sizeof(*has));
	struct index_body_loc *loc = xcalloc(cap, sizeof(*loc));
	for (size_t i = 0; i < s->nv; i++) {
		size_t f = file_of(lp->files, lo, hi, s->v[i].r->rank);
		if (f < hi) {
			has[f - lo] = true;
			loc[f - lo] = s->v[i].loc;
		}
	}
	int err = index_write_streamed(run, path, s->k, s->n, lp->files, lo, hi, src0, src1, d0, d1, &s->w, has, loc,
				       written);
	free(has);
	free(loc);
	if (err) /* the ranks it freed are read again (steps_rank_reparse) */
		s->failed = true;
	return err;
}

void load_stream_end(struct load_stream *s, struct run *run)
{
	if (!s)
		return;
	if (s->w.path) { /* not written (load_plan.c: a subset, a pipe, a cancelled load) */
		index_file_end(&s->w, false);
		s->failed = true;
	}
	for (size_t i = 0; i < s->nv && s->failed; i++) {
		struct rank_steps *r = s->v[i].r;
		if (!r->sealed_in)
			continue;
		seal_inputs_free(r->sealed_in);
		r->sealed_in = NULL;
		__atomic_store_n(&r->lazy, false, __ATOMIC_RELEASE);
		steps_rank_reparse(run, r);
	}
	pthread_mutex_destroy(&s->lock);
	free(s->v);
	free(s);
}
