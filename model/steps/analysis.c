/* SPDX-License-Identifier: MIT */
/* analysis.c: the core of the step analyzers (see analysis.h): the memo cache kept in the
 * step model and freed with it, the warmup slice, the canonical phases and the per-record
 * compute/comm sums every analysis shares (internal.h). The analyses themselves live in
 * analysis_timing.c, _memory, _convergence, _distributed, _budget and _heatmap. */
#include "model/steps/seal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/stats.h"
#include "model/xalloc.h"

/* ---- cache -------------------------------------------------------------------------- */

void analysis_timing_free(struct timing *t)
{
	if (t) {
		free(t->phase);
		free(t->step_time);
		free(t->pos);
		free(t);
	}
}

void analysis_conv_free(struct convergence *c)
{
	if (c) {
		free(c->loss_spikes);
		free(c->grad_spikes);
		free(c->loss);
		free(c->loss_step);
		free(c);
	}
}

void analysis_job_free(void *job)
{
	if (job)
		((struct analysis_job *)job)->free(job);
}

struct rank_cache *analysis_pieces_whole(struct run *run, size_t ri, const struct analysis_pieces *p)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (rc && !p->done(rc)) {
		void *job = p->begin(run, ri);
		while (!p->feed(run->steps, job, SIZE_MAX))
			;
		p->keep(rc, job);
	}
	return rc;
}

bool analysis_pieces_slice(struct run *run, size_t ri, void **job, const struct analysis_pieces *p)
{
	struct rank_cache *rc = analysis_rank_cache(run, ri);
	if (!rc || p->done(rc)) { /* made meanwhile by a pane that needed it */
		analysis_job_free(*job);
		*job = NULL;
		return true;
	}
	if (!*job) {
		*job = p->begin(run, ri);
		return false;
	}
	if (!p->feed(run->steps, *job, ANALYSIS_SLICE))
		return false;
	p->keep(rc, *job);
	*job = NULL;
	return true;
}

void analysis_dist_free(struct distributed *d)
{
	if (d) {
		free(d->rank);
		free(d->step);
		free(d->stragglers);
		free(d);
	}
}

/* The results over every record (per-rank analyses, the whole-run budget, the
 * distributed analysis): what appends make stale. */
void analysis_cache_drop_records(struct analysis_cache *c)
{
	for (size_t i = 0; i < c->nranks; i++) {
		analysis_timing_free(c->rank[i].timing);
		free(c->rank[i].memory);
		analysis_conv_free(c->rank[i].conv);
		free(c->rank[i].budget);
		c->rank[i] = (struct rank_cache){ 0 };
	}
	free(c->budget_all);
	c->budget_all = NULL;
	c->budget_all_done = false;
	analysis_dist_free(c->dist);
	c->dist = NULL;
	c->dist_done = false;
	analysis_dist_free(c->native);
	c->native = NULL;
	c->native_done = false;
	free(c->bsum);
	c->bsum = NULL;
	analysis_index_rows_free(c);
	c->unweigh_done = false;
	c->outside_done = false;
	c->lagging = false;
}

void analysis_cache_free(void *p)
{
	struct analysis_cache *c = p;
	if (!c)
		return;
	analysis_recompute_free(c->rc);
	analysis_cache_drop_records(c);
	free(c->rank);
	free(c->cmed);
	analysis_native_free(c->native_align);
	for (size_t i = 0; i < c->nheat; i++)
		analysis_heat_free(c->heat[i]);
	free(c->heat);
	free(c);
}

/* The heatmap pyramids and the per-step medians stay: their accessors extend them to
 * the new aligned steps on next use. */
void analysis_cache_grown(void *p, bool lag_ok, bool columns_kept)
{
	struct analysis_cache *c = p;
	if (!c)
		return;
	for (size_t i = 0; i < c->nheat; i++) {
		if (!columns_kept)
			analysis_heat_free(c->heat[i]);
		else
			c->heat[i]->stale = true;
	}
	if (!columns_kept)
		c->nheat = 0;
	if (!lag_ok) {
		analysis_cache_drop_records(c);
		return;
	}
	bool held = c->budget_all_done || c->dist_done;
	for (size_t i = 0; i < c->nranks && !held; i++)
		held = c->rank[i].timing_done || c->rank[i].memory_done || c->rank[i].conv_done ||
		       c->rank[i].budget_done;
	c->lagging = held;
}

/* ---- live runs ---------------------------------------------------------------------- */

void analysis_allow_lag(struct run *run, bool allow)
{
	if (!run || !run->steps)
		return;
	run->steps->analysis_lag = allow;
	if (!allow)
		analysis_catch_up(run);
}

void analysis_catch_up(struct run *run)
{
	analysis_recompute_wait(run);   /* a worker's result first: then nothing is held */
	struct analysis_cache *c = run && run->steps ? run->steps->analysis : NULL;
	if (c && c->lagging)
		analysis_cache_drop_records(c);
}

bool analysis_lagging(const struct run *run)
{
	const struct analysis_cache *c = run && run->steps ? run->steps->analysis : NULL;
	return c && c->lagging;
}

struct analysis_cache *analysis_cache_of(struct run *run)
{
	if (!run || !run->steps)
		return NULL;
	void **slot = steps_analysis_slot(run->steps);
	if (!*slot) {
		struct analysis_cache *c = xcalloc(1, sizeof(*c));
		c->nranks = steps_nranks(run->steps);
		c->rank = xcalloc(c->nranks ? c->nranks : 1, sizeof(*c->rank));
		*slot = c;
	}
	return *slot;
}

struct rank_cache *analysis_rank_cache(struct run *run, size_t ri)
{
	struct analysis_cache *c = analysis_cache_of(run);
	return c && ri < c->nranks ? &c->rank[ri] : NULL;
}
size_t analysis_warmup_start(const struct run *run, size_t n)
{
	long w = run->opts ? run->opts->warmup : 0;
	if (w <= 0)
		return 0;
	return (size_t)w < n ? (size_t)w : n;
}

/* ---- phases ------------------------------------------------------------------------- */

static const char *const canonical[] = { "data", "forward", "backward", "optimizer", "compute",
					 "comm", "other" };

int analysis_phase_order(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(canonical); i++)
		if (strcmp(name, canonical[i]) == 0)
			return (int)i;
	return -1;
}

void analysis_flaw_text(double value, const char *phase, long step, int rank, char *buf, size_t n)
{
	snprintf(buf, n, "%s phase value: %s at step %ld on rank %d", isfinite(value) ? "a negative" : "a non-finite",
		 phase, step, rank);
}

bool analysis_in_compute_phases(const char *name)
{
	int k = analysis_phase_order(name);
	return k >= 0 && strcmp(name, "comm") != 0;
}

/* Phase metric ids of the model (all of them). */
size_t analysis_phase_ids(const struct steps_model *m, int *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++)
		if (steps_metric(m, (int)i)->kind == METRIC_PHASE)
			ids[n++] = (int)i;
	return n;
}

bool analysis_has_compute(const struct steps_model *m)
{
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && analysis_in_compute_phases(d->name))
			return true;
	}
	return false;
}

void analysis_phase_sets_init(const struct steps_model *m, struct phase_sets *ps)
{
	ps->compute = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->ncompute = 0;
	for (size_t i = 0; i < steps_nmetrics(m); i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		if (d->kind == METRIC_PHASE && analysis_in_compute_phases(d->name))
			ps->compute[ps->ncompute++] = (int)i;
	}
	ps->comm = steps_metric_find(m, METRIC_PHASE, "comm");
	ps->all = xmalloc((steps_nmetrics(m) + 1) * sizeof(int));
	ps->nall = analysis_phase_ids(m, ps->all);
}

void analysis_phase_sets_free(struct phase_sets *ps)
{
	free(ps->compute);
	free(ps->all);
}

double analysis_no_compute(void)
{
	const uint64_t bits = ANALYSIS_NO_COMPUTE_BITS;
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

/* compute_r of record pos of r (loaded); analysis_no_compute() when it has no compute
 * phase value. */
static double record_compute(const struct rank_steps *r, const struct phase_sets *ps, size_t pos)
{
	double v[ARRAY_LEN(canonical)];
	size_t n = 0;
	for (size_t i = 0; i < ps->ncompute; i++)
		if (store_rank_value(r, ps->compute[i], pos, &v[n]))
			n++;
	return n ? stats_fsum(v, n) : analysis_no_compute();
}

double analysis_record_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			     size_t pos)
{
	rank_need_body(m->rank[ri]);
	return record_compute(m->rank[ri], ps, pos);
}

double analysis_record_step_time(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t pos)
{
	struct stats_sum s;
	stats_sum_init(&s);
	double v;
	for (size_t i = 0; i < ps->nall; i++)
		if (steps_value(m, ri, ps->all[i], pos, &v))
			stats_sum_add(&s, v);
	return stats_sum_result(&s);
}

bool analysis_rank_has_compute_phase(const struct steps_model *m, const struct phase_sets *ps, size_t ri)
{
	const struct rank_steps *r = m->rank[ri];
	rank_need_body(r);
	for (size_t i = 0; i < ps->ncompute; i++)
		if ((size_t)ps->compute[i] < r->ncol && r->col[ps->compute[i]].count)
			return true;
	return false;
}

double analysis_record_comm(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			  size_t pos)
{
	double v;
	return steps_value(m, ri, ps->comm, pos, &v) ? v : 0.0;
}

/* ---- a rank's compute over a range of aligned steps -------------------------------- */

/* A block of up to ANALYSIS_BLOCK records of one rank: their positions, whether they
 * are consecutive, and per position the cascade of stats_fsum (stats.c) in three
 * arrays, so the compiler keeps many sums going at once in vector registers (the loops
 * run whole groups of lanes, block_width(); positions past nb add zeros and are
 * ignored). */
struct compute_block {
	size_t pos[ANALYSIS_BLOCK], nb;
	bool consecutive;
	double t[ANALYSIS_BLOCK], e[ANALYSIS_BLOCK];
	double inexact[ANALYSIS_BLOCK];   /* sum of |error of each addition into e|: 0 while exact */
	double x[ANALYSIS_BLOCK];
};

/* The lanes of a block in use: nb rounded up to whole groups of BLOCK_GROUP. The loops
 * over lanes run whole groups with a fixed inner count (vectorized at -O2); the lanes
 * past nb add zeros and are ignored, so a rank of ten records costs two groups, not a
 * block of ANALYSIS_BLOCK. */
#define BLOCK_GROUP 8

static size_t block_width(const struct compute_block *b)
{
	return (b->nb + BLOCK_GROUP - 1) / BLOCK_GROUP * BLOCK_GROUP;
}

static inline void column_decode(const struct column *c, size_t p0, double *x, size_t n)
{
	if (c->enc == ENC_NANO)
		for (size_t j = 0; j < n; j++)
			x[j] = (double)((const uint32_t *)c->data)[p0 + j] / 1e9;
	else if (c->enc == ENC_F32)
		for (size_t j = 0; j < n; j++)
			x[j] = (double)((const float *)c->data)[p0 + j];
	else
		memcpy(x, (const double *)c->data + p0, n * sizeof(*x));
}

void analysis_column_decode(const struct column *c, size_t p0, double *x, size_t n)
{
	column_decode(c, p0, x, n);
}

/* Column metric's values at the block's positions into b->x, 0 where there is none and
 * past nb (adding 0 to a cascade changes nothing but the sign of a zero total, which the
 * cascade leaves to fsum anyway; stats_lanes_add() reads a whole block). Consecutive
 * records of a column every record has are decoded in one loop (whole blocks in a
 * fixed-length one, vectorized), others through a column cursor. */
static void block_column(const struct rank_steps *r, int metric, struct compute_block *b)
{
	const struct column *c = metric >= 0 && (size_t)metric < r->ncol ? &r->col[metric] : NULL;
	size_t nb = b->nb;
	if (c && c->enc != ENC_RLE && c->all_present && b->consecutive && b->pos[0] + nb <= c->cap) {
		if (nb == ANALYSIS_BLOCK) {
			column_decode(c, b->pos[0], b->x, ANALYSIS_BLOCK);
			return;
		}
		column_decode(c, b->pos[0], b->x, nb);
	} else {
		struct col_cursor k;
		col_cursor_init(&k, r, metric);
		for (size_t j = 0; j < nb; j++)
			if (!col_cursor_get(&k, b->pos[j], &b->x[j]))
				b->x[j] = 0.0;
	}
	memset(b->x + nb, 0, (ANALYSIS_BLOCK - nb) * sizeof(*b->x));
}

/* One error-free addition of b->x into every cascade in use (stats.c cascade_add, a
 * lane each). */
static void block_add(struct compute_block *b)
{
	size_t w = block_width(b);
	for (size_t g = 0; g < w; g += BLOCK_GROUP)
		for (size_t k = 0; k < BLOCK_GROUP; k++) {
			size_t j = g + k;
			double t = b->t[j], e = b->e[j], x = b->x[j];
			double s = t + x, bp = s - x;
			double err = (t - bp) + (x - (s - bp));
			double e2 = e + err, bp2 = e2 - err;
			b->inexact[j] += fabs((e - bp2) + (err - (e2 - bp2)));
			b->t[j] = s;
			b->e[j] = e2;
		}
}

/* Some of x[n] is not a duration (NaN, infinite, negative). */
static bool values_flaw(const double *x, size_t n)
{
	bool flaw = false;
	for (size_t j = 0; j < n; j++)
		flaw |= !(x[j] >= 0 && x[j] < INFINITY);
	return flaw;
}

/* Over aligned steps [k0, k0 + n) of loaded rank r (index ri of m), or (by_pos) its
 * records [k0, k0 + n) (m and ri unused); with lanes, each block of a column is also
 * added into the lanes of its budget line (lanes->flaw set by a value that is not a
 * duration). */
static void rank_compute_r(const struct steps_model *m, const struct phase_sets *ps, const struct rank_steps *r,
			   size_t ri, size_t k0, size_t n, double *out, double *comm, bool by_pos,
			   struct budget_lanes *lanes)
{
	struct compute_block b;
	for (size_t at = 0; at < n; at += ANALYSIS_BLOCK) {
		b.nb = n - at < ANALYSIS_BLOCK ? n - at : ANALYSIS_BLOCK;
		b.consecutive = true;
		if (by_pos) {
			for (size_t j = 0; j < b.nb; j++)
				b.pos[j] = k0 + at + j;
		} else if (m->aligned_contiguous && r->contiguous) {   /* steps_aligned_pos by arithmetic */
			size_t p0 = (size_t)(m->aligned_lo + (long)(k0 + at) - r->step0);
			for (size_t j = 0; j < b.nb; j++)
				b.pos[j] = p0 + j;
		} else {
			for (size_t j = 0; j < b.nb; j++) {
				b.pos[j] = steps_aligned_pos(m, ri, k0 + at + j);
				b.consecutive &= b.pos[j] == b.pos[0] + j;
			}
		}
		size_t w = block_width(&b);
		memset(b.t, 0, w * sizeof(*b.t));
		memset(b.e, 0, w * sizeof(*b.e));
		memset(b.inexact, 0, w * sizeof(*b.inexact));
		for (size_t i = 0; out && i < ps->ncompute; i++) {
			block_column(r, ps->compute[i], &b);
			block_add(&b);
			if (lanes && lanes->line[i] >= 0) {
				stats_lanes_add(&lanes->lane[lanes->line[i]], b.x, b.nb);
				lanes->flaw |= values_flaw(b.x, b.nb);
			}
		}
		/* cascade_result (stats.c): the exact total unless an addition into e was inexact
		 * or the total is zero or not finite; then fsum over the record's values (a
		 * record without any, whose total is 0: analysis_no_compute()) */
		for (size_t j = 0; out && j < b.nb; j++) {
			double s = b.t[j] + b.e[j];
			out[at + j] = b.inexact[j] == 0.0 && isfinite(s) && s != 0.0
					      ? s : record_compute(r, ps, b.pos[j]);
		}
		if (!comm && !(lanes && lanes->comm))
			continue;
		block_column(r, ps->comm, &b);
		if (comm)
			memcpy(comm + at, b.x, b.nb * sizeof(*comm));
		if (lanes && lanes->comm) {
			stats_lanes_add(&lanes->lane[BUDGET_LANE_COMM], b.x, b.nb);
			lanes->flaw |= values_flaw(b.x, b.nb);
		}
	}
}

static void rank_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t k0, size_t n,
			 double *out, double *comm, bool by_pos, struct budget_lanes *lanes)
{
	rank_need_body(m->rank[ri]);
	rank_compute_r(m, ps, m->rank[ri], ri, k0, n, out, comm, by_pos, lanes);
}

void analysis_rank_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t k0,
			   size_t n, double *out, double *comm)
{
	rank_compute(m, ps, ri, k0, n, out, comm, false, NULL);
}

void analysis_records_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t p0,
			      size_t n, double *out, double *comm)
{
	rank_compute(m, ps, ri, p0, n, out, comm, true, NULL);
}

void analysis_records_compute_lanes(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
				    double *out, double *comm, struct budget_lanes *lanes)
{
	rank_compute(m, ps, ri, 0, steps_nrecords(m, ri), out, comm, true, lanes);
}

void analysis_rank_records_lanes(const struct phase_sets *ps, const struct rank_steps *r, double *out,
				 double *comm, struct budget_lanes *lanes)
{
	rank_compute_r(NULL, ps, r, 0, 0, r->n, out, comm, true, lanes);
}

/* Threads for the run-wide passes: --jobs, else one per core. No result depends on it:
 * every task writes its own slots and the order-dependent sums run after the pool. */
int analysis_threads(const struct run *run)
{
	return run->opts ? run->opts->jobs : 0;
}
