/* SPDX-License-Identifier: MIT */
/* store.c: the per-rank columnar step store (see steps.h for the contract and the
 * storage layout): writing from loader threads, compaction in steps_finalize(), the
 * step -> position index and the aligned step set. The read accessors are store_read.c,
 * follow mode's growth store_follow.c, the serialized form store_index.c. */
#include "model/steps/internal.h"

#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model/index/codec.h"
#include "model/steps/analysis.h"
#include "model/run.h"
#include "model/xalloc.h"

/* ---- model and metrics ----------------------------------------------------- */

struct steps_model *steps_model_get(struct run *run)
{
	pthread_mutex_lock(&run->lock);
	if (!run->steps) {
		struct steps_model *m = xcalloc(1, sizeof(*m));
		pthread_mutex_init(&m->lock, NULL);
		for (size_t i = 0; i < ARRAY_LEN(m->body_lock); i++)
			pthread_mutex_init(&m->body_lock[i], NULL);
		m->run = run;
		run->steps = m;
	}
	struct steps_model *m = run->steps;
	pthread_mutex_unlock(&run->lock);
	return m;
}

int steps_metric_intern(struct steps_model *m, enum metric_kind kind, const char *name)
{
	pthread_mutex_lock(&m->lock);
	int id = -1;
	for (size_t i = 0; i < m->nmetric; i++)
		if (m->metric[i].kind == kind && strcmp(m->metric[i].name, name) == 0) {
			id = (int)i;
			break;
		}
	if (id < 0) {
		xgrow((void **)&m->metric, &m->metric_cap, m->nmetric + 1, sizeof(*m->metric));
		m->metric[m->nmetric] = (struct metric_def){ .name = xstrdup(name), .kind = kind };
		id = (int)m->nmetric++;
	}
	pthread_mutex_unlock(&m->lock);
	return id;
}

size_t steps_nmetrics(const struct steps_model *m)
{
	return m ? m->nmetric : 0;
}

const struct metric_def *steps_metric(const struct steps_model *m, int metric)
{
	return &m->metric[metric];
}

int steps_metric_find(const struct steps_model *m, enum metric_kind kind, const char *name)
{
	if (!m)
		return -1;
	for (size_t i = 0; i < m->nmetric; i++)
		if (m->metric[i].kind == kind && strcmp(m->metric[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- writing a rank ---------------------------------------------------------- */

struct rank_steps *steps_rank_new(struct steps_model *m, int rank, const char *path)
{
	struct rank_steps *r = xcalloc(1, sizeof(*r));
	r->m = m;
	r->rank = rank;
	r->path = xstrdup(path ? path : "");
	r->contiguous = true;
	return r;
}

static void rank_resize(struct rank_steps *r, size_t ncap)
{
	if (r->step)
		r->step = xrealloc(r->step, ncap * sizeof(*r->step));
	r->ts = xrealloc(r->ts, ncap * sizeof(*r->ts));
	r->ts_present = bitmap_grow(r->ts_present, r->cap, ncap);
	r->cap = ncap;
}

static void rank_grow(struct rank_steps *r)
{
	rank_resize(r, r->cap ? r->cap * 2 : 64);
}

void rank_reserve(struct rank_steps *r, size_t n)
{
	if (n > r->cap)
		rank_resize(r, n);
}

/* step == step0 + pos, computed without overflow (steps near LONG_MAX are data too). */
static bool continues(long step0, size_t pos, long step)
{
	return pos == 0 || (step > step0 && (unsigned long)step - (unsigned long)step0 == pos);
}

size_t rank_append(struct rank_steps *r, long step, double timestamp, bool have_timestamp)
{
	if (r->n == r->cap)
		rank_grow(r);
	size_t pos = r->n++;
	r->dirty = true;
	if (pos == 0)
		r->step0 = step;
	if (r->contiguous && !continues(r->step0, pos, step)) {
		r->contiguous = false;
		r->step = xmalloc(r->cap * sizeof(*r->step));
		for (size_t i = 0; i < pos; i++)
			r->step[i] = r->step0 + (long)i;
	}
	if (!r->contiguous)
		r->step[pos] = step;
	if (have_timestamp) {
		if (!r->have_ts0) {
			r->ts0 = timestamp;
			r->have_ts0 = true;
		}
		r->ts[pos] = (float)(timestamp - r->ts0);
		bit_set(r->ts_present, pos);
	} else {
		r->ts[pos] = 0;
	}
	return pos;
}

unsigned char store_col_fresh_enc(const double *v, size_t n, enum metric_kind kind, bool exact)
{
	uint32_t code;
	if (kind == METRIC_PHASE) {
		for (size_t i = 0; i < n; i++)
			if (!store_nano_code(v[i], &code))
				return ENC_F64;
		return ENC_NANO;
	}
	for (size_t i = 0; i < n && exact; i++)
		if ((double)(float)v[i] != v[i] && v[i] == v[i])
			return ENC_F64;
	return ENC_F32;
}

void store_col_encode(struct column *c, const double *v, size_t n, unsigned char enc)
{
	free(c->data);
	c->enc = enc;
	c->data = xmalloc((n ? n : 1) * store_col_elem(enc));
	uint32_t code = 0;
	for (size_t i = 0; i < n; i++) {
		if (enc == ENC_NANO && store_nano_code(v[i], &code))
			((uint32_t *)c->data)[i] = code;
		else if (enc == ENC_NANO)
			((uint32_t *)c->data)[i] = 0;
		else if (enc == ENC_F32)
			((float *)c->data)[i] = (float)v[i];
		else
			((double *)c->data)[i] = v[i];
	}
}

size_t store_col_elem(unsigned char enc)
{
	return enc == ENC_NANO || enc == ENC_F32 ? 4 : 8;
}

void store_col_to_f64(struct column *c)
{
	double *d = xcalloc(c->cap ? c->cap : 1, sizeof(*d));
	for (size_t i = 0; i < c->cap; i++)
		if (bit_get(c->present, i))
			d[i] = store_col_raw(c, i);
	free(c->data);
	c->data = d;
	c->enc = ENC_F64;
}

/* Set the capacity to exactly ncap entries (new entries zero and missing). */
static void col_resize(struct column *c, size_t ncap)
{
	size_t e = store_col_elem(c->enc);
	c->data = xrealloc(c->data, (ncap ? ncap : 1) * e);
	if (ncap > c->cap)
		memset((char *)c->data + c->cap * e, 0, (ncap - c->cap) * e);
	c->present = bitmap_grow(c->present, c->cap, ncap ? ncap : 1);
	c->cap = ncap;
}

static void col_grow(struct column *c, size_t need)
{
	size_t ncap = c->cap ? c->cap : 64;
	while (ncap < need)
		ncap *= 2;
	col_resize(c, ncap);
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
		r->col = xrealloc(r->col, cols_cap(n) * sizeof(*r->col));
	memset(r->col + r->ncol, 0, (n - r->ncol) * sizeof(*r->col));
	r->ncol = n;
}

static struct column *rank_column(struct rank_steps *r, int metric)
{
	if ((size_t)metric >= r->ncol)
		store_rank_cols(r, (size_t)metric + 1);
	struct column *c = &r->col[metric];
	if (c->cap == 0) {
		pthread_mutex_lock(&r->m->lock);
		enum metric_kind kind = r->m->metric[metric].kind;
		pthread_mutex_unlock(&r->m->lock);
		c->enc = kind == METRIC_PHASE ? ENC_NANO : ENC_F32;
		c->exact = kind == METRIC_MEMORY || (kind == METRIC_SCALAR && r->exact_scalars);
		col_resize(c, r->cap); /* as many as the rank expects (rank_reserve) */
	}
	return c;
}

struct column *store_col_room(struct rank_steps *r, int metric, size_t pos)
{
	struct column *c = rank_column(r, metric);
	if (pos >= c->cap)
		col_grow(c, pos + 1);
	return c;
}

void rank_set(struct rank_steps *r, size_t pos, int metric, double value)
{
	store_set(r, pos, metric, value);
}

void rank_set_nano(struct rank_steps *r, size_t pos, int metric, uint32_t code)
{
	store_set_nano(r, pos, metric, code);
}

void rank_exact_scalars(struct rank_steps *r)
{
	r->exact_scalars = true;
}

bool rank_scalars_exact(const struct rank_steps *r)
{
	return r->exact_scalars;
}

void rank_set_meta(struct rank_steps *r, struct steps_meta *meta)
{
	r->meta = *meta;
	memset(meta, 0, sizeof(*meta));
}

void steps_meta_free(struct steps_meta *meta)
{
	free(meta->name);
	for (size_t i = 0; i < meta->nenv && !meta->env_text; i++) {
		free(meta->env_key[i]);
		free(meta->env_val[i]);
	}
	free(meta->env_text);
	free(meta->env_key);
	free(meta->env_val);
	free(meta->json);
	memset(meta, 0, sizeof(*meta));
}

void store_column_free(struct column *c)
{
	free(c->data);
	free(c->present);
	free(c->run_start);
	free(c->run_val);
}

void store_rank_free_body(struct rank_steps *r)
{
	for (size_t i = 0; i < r->ncol; i++)
		store_column_free(&r->col[i]);
	free(r->col);
	free(r->step);
	free(r->ts);
	free(r->ts_present);
	free(r->idx_step);
	free(r->idx_pos);
	store_rank_forget_body(r);
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
}

void steps_rank_free(struct rank_steps *r)
{
	if (!r)
		return;
	store_rank_free_body(r);
	store_rank_free_segs(r);
	free(r->path);
	steps_meta_free(&r->meta);
	free(r);
}

/* Home slot of a rank id in the id -> index table (nslot is a power of two). */
static size_t slot_home(const struct steps_model *m, int rank)
{
	uint32_t h = (uint32_t)rank * 2654435761u;
	return (size_t)h & (m->nslot - 1);
}

/* The table slot holding rank id `rank`, or the empty slot where it would go. */
size_t *store_slot_find(const struct steps_model *m, int rank)
{
	size_t i = slot_home(m, rank);
	while (m->slot[i] && m->rank[m->slot[i] - 1]->rank != rank)
		i = (i + 1) & (m->nslot - 1);
	return &m->slot[i];
}

/* (Re)build the id -> index table for the current rank[] order, with room to grow. */
void store_slots_rebuild(struct steps_model *m, size_t need)
{
	size_t n = 64;
	while (n < need * 2)
		n *= 2;
	free(m->slot);
	m->slot = xcalloc(n, sizeof(*m->slot));
	m->nslot = n;
	for (size_t i = 0; i < m->nrank; i++)
		*store_slot_find(m, m->rank[i]->rank) = i + 1;
}

/* O(1) amortised: the id table finds an earlier rank with the same id. */
void steps_publish_rank(struct steps_model *m, struct rank_steps *r)
{
	pthread_mutex_lock(&m->lock);
	if (m->finalized) /* a follower's new or reloaded rank: steps_refresh() indexes it */
		r->live = r->dirty = m->resort = true;
	if ((m->nrank + 1) * 2 > m->nslot)
		store_slots_rebuild(m, m->nrank + 1);
	size_t *s = store_slot_find(m, r->rank);
	if (*s) {
		m->nreplaced++;
		steps_rank_free(m->rank[*s - 1]);
		m->rank[*s - 1] = r;
	} else {
		xgrow((void **)&m->rank, &m->rank_cap, m->nrank + 1, sizeof(*m->rank));
		m->rank[m->nrank++] = r;
		*s = m->nrank;
	}
	pthread_mutex_unlock(&m->lock);
}

void steps_expect_ranks(struct steps_model *m, size_t more)
{
	pthread_mutex_lock(&m->lock);
	m->expect = (m->expect > m->nrank ? m->expect : m->nrank) + more;
	pthread_mutex_unlock(&m->lock);
}

/* ---- finalize ------------------------------------------------------------------ */

/* Replace a column by runs when it has at most n/16 value changes. */
static void col_try_rle(struct column *c, size_t n)
{
	size_t runs = 0;
	double prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c->all_present && !bit_get(c->present, i))
			continue;
		double v = store_col_raw(c, i);
		if (runs == 0 || memcmp(&v, &prev, sizeof(v)) != 0) {
			if (++runs > n / 16)
				return;
			prev = v;
		}
	}
	if (runs == 0)
		return;
	c->run_start = xmalloc(runs * sizeof(*c->run_start));
	c->run_val = xmalloc(runs * sizeof(*c->run_val));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c->all_present && !bit_get(c->present, i))
			continue;
		double v = store_col_raw(c, i);
		if (k == 0 || memcmp(&v, &c->run_val[k - 1], sizeof(v)) != 0) {
			c->run_start[k] = (uint32_t)i;
			c->run_val[k++] = v;
		}
	}
	c->run_start[0] = 0;
	c->nruns = k;
	free(c->data);
	c->data = NULL;
	c->enc = ENC_RLE;
}

static void col_compact(struct column *c, size_t n)
{
	if (c->cap == 0 || n == 0)
		return;
	if (c->cap != n)
		col_resize(c, n);
	if (c->count == n) {
		c->all_present = true;
		free(c->present);
		c->present = NULL;
	}
	if (n >= 64 && n < UINT32_MAX)
		col_try_rle(c, n);
}

static int cmp_pos_by_step(const void *a, const void *b, void *ud)
{
	const int64_t *step = ud;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (step[x] != step[y])
		return step[x] < step[y] ? -1 : 1;
	return (x > y) - (x < y);
}

void store_rank_build_index(struct rank_steps *r)
{
	r->nindexed = r->n;
	if (r->contiguous) {
		r->ndistinct = r->n;
		r->span_lo = r->step0;
		r->span_hi = r->step0 + (long)(r->n ? r->n - 1 : 0);
		return;
	}
	uint32_t *ord = xmalloc((r->n ? r->n : 1) * sizeof(*ord));
	for (size_t i = 0; i < r->n; i++)
		ord[i] = (uint32_t)i;
	qsort_r(ord, r->n, sizeof(*ord), cmp_pos_by_step, r->step);
	r->idx_step = xmalloc((r->n ? r->n : 1) * sizeof(*r->idx_step));
	r->idx_pos = xmalloc((r->n ? r->n : 1) * sizeof(*r->idx_pos));
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++) {
		int64_t s = r->step[ord[i]];
		if (k > 0 && r->idx_step[k - 1] == s) {
			r->idx_pos[k - 1] = ord[i]; /* later position wins */
			continue;
		}
		r->idx_step[k] = s;
		r->idx_pos[k++] = ord[i];
	}
	free(ord);
	r->ndistinct = k;
	r->span_lo = k ? (long)r->idx_step[0] : r->step0;
	r->span_hi = k ? (long)r->idx_step[k - 1] : r->step0;
	r->idx_step = xrealloc(r->idx_step, (k ? k : 1) * sizeof(*r->idx_step));
	r->idx_pos = xrealloc(r->idx_pos, (k ? k : 1) * sizeof(*r->idx_pos));
}

void store_rank_compact(struct rank_steps *r)
{
	size_t n = r->n;
	if (r->cap > n) {
		size_t c = n ? n : 1;
		if (r->step)
			r->step = xrealloc(r->step, c * sizeof(*r->step));
		r->ts = xrealloc(r->ts, c * sizeof(*r->ts));
		r->ts_present = xrealloc(r->ts_present, bitmap_bytes(c));
		r->cap = n;
	}
	size_t nts = 0;
	for (size_t i = 0; i < n; i++)
		nts += r->ts_present && bit_get(r->ts_present, i);
	if (nts == n) {
		free(r->ts_present);
		r->ts_present = NULL;
	}
	if (nts == 0) {
		free(r->ts);
		r->ts = NULL;
	}
	for (size_t i = 0; i < r->ncol; i++)
		col_compact(&r->col[i], n);
	store_rank_build_index(r);
}

int store_cmp_rank(const void *a, const void *b)
{
	const struct rank_steps *x = *(struct rank_steps *const *)a;
	const struct rank_steps *y = *(struct rank_steps *const *)b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

long store_rank_distinct_step(const struct rank_steps *r, size_t k)
{
	if (r->contiguous)
		return r->step0 + (long)k;
	rank_need_body(r); /* a lazy rank's step index is in its body */
	return (long)r->idx_step[k];
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

struct step_span {
	long lo, hi;
};

static int cmp_span(const void *a, const void *b)
{
	const struct step_span *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Union size when every rank is contiguous: merge the [step0, last] intervals, so a
 * follower's refresh costs O(ranks log ranks), not O(records). False otherwise. */
static bool union_of_spans(struct steps_model *m)
{
	struct step_span *v = xmalloc((m->nrank ? m->nrank : 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		if (!r->contiguous) {
			free(v);
			return false;
		}
		if (r->n)
			v[k++] = (struct step_span){ r->step0, r->step0 + (long)(r->n - 1) };
	}
	if (k)
		qsort(v, k, sizeof(*v), cmp_span);
	size_t u = 0;
	for (size_t i = 0; i < k;) {
		long lo = v[i].lo, hi = v[i].hi;
		for (i++; i < k && v[i].lo <= hi; i++)
			if (v[i].hi > hi)
				hi = v[i].hi;
		u += (size_t)((unsigned long)hi - (unsigned long)lo) + 1;
	}
	free(v);
	m->nunion = u;
	return true;
}

void store_build_union(struct steps_model *m)
{
	if (union_of_spans(m))
		return;
	size_t total = 0;
	for (size_t i = 0; i < m->nrank; i++)
		total += m->rank[i]->ndistinct;
	int64_t *all = xmalloc((total ? total : 1) * sizeof(*all));
	size_t k = 0;
	for (size_t i = 0; i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		if (r->contiguous && i > 0 && m->rank[0]->contiguous && r->ndistinct &&
		    r->step0 == m->rank[0]->step0 && r->n == m->rank[0]->n)
			continue; /* identical range: adds nothing to the union */
		for (size_t j = 0; j < r->ndistinct; j++)
			all[k++] = store_rank_distinct_step(r, j);
	}
	qsort(all, k, sizeof(*all), cmp_i64);
	size_t u = 0;
	for (size_t j = 0; j < k; j++)
		if (u == 0 || all[u - 1] != all[j])
			all[u++] = all[j];
	m->nunion = u;
	free(all);
}

void store_build_aligned(struct steps_model *m)
{
	if (m->nrank == 0)
		return;
	bool contiguous = true;
	long lo = 0, hi = -1;
	for (size_t i = 0; i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		if (!r->contiguous) {
			contiguous = false;
			break;
		}
		long rl = r->step0, rh = r->n ? r->step0 + (long)(r->n - 1) : r->step0;
		if (i == 0 || rl > lo)
			lo = rl;
		if (i == 0 || rh < hi)
			hi = rh;
		if (r->n == 0)
			hi = lo - 1;
	}
	if (contiguous) {
		m->aligned_contiguous = true;
		m->aligned_lo = lo;
		m->naligned = hi >= lo ? (size_t)(hi - lo + 1) : 0;
		return;
	}
	const struct rank_steps *r0 = m->rank[0];
	m->aligned = xmalloc((r0->ndistinct ? r0->ndistinct : 1) * sizeof(*m->aligned));
	for (size_t k = 0; k < r0->ndistinct; k++) {
		long s = store_rank_distinct_step(r0, k);
		bool all = true;
		size_t pos;
		for (size_t i = 1; i < m->nrank && all; i++)
			all = steps_find(m, i, s, &pos);
		if (all)
			m->aligned[m->naligned++] = s;
	}
}

/* The heatmap columns after the aligned steps of a live run (steps_set_live). */
void store_build_tail(struct steps_model *m)
{
	free(m->tail);
	m->tail = NULL;
	m->ntail = 0;
	m->tail_range = false;
	if (!m->live || m->naligned == 0)
		return;
	long last = steps_aligned_step(m, m->naligned - 1);
	if (m->aligned_contiguous) {   /* every rank contiguous: (last, the newest step] */
		long hi = last;
		for (size_t i = 0; i < m->nrank; i++)
			if (steps_max_step(m, i) > hi)
				hi = steps_max_step(m, i);
		m->tail_range = true;
		m->tail_lo = last + 1;
		m->ntail = (size_t)((unsigned long)hi - (unsigned long)last);
		return;
	}
	size_t total = 0;
	for (size_t i = 0; i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		for (size_t j = r->ndistinct; j-- > 0 && store_rank_distinct_step(r, j) > last;)
			total++;
	}
	m->tail = xmalloc((total ? total : 1) * sizeof(*m->tail));
	size_t k = 0;
	for (size_t i = 0; i < m->nrank; i++) {
		const struct rank_steps *r = m->rank[i];
		for (size_t j = r->ndistinct; j-- > 0 && store_rank_distinct_step(r, j) > last;)
			m->tail[k++] = store_rank_distinct_step(r, j);
	}
	qsort(m->tail, k, sizeof(*m->tail), cmp_i64);
	for (size_t j = 0; j < k; j++)
		if (m->ntail == 0 || m->tail[m->ntail - 1] != m->tail[j])
			m->tail[m->ntail++] = m->tail[j];
}

bool steps_set_live(struct steps_model *m)
{
	if (!m || m->live)
		return false;
	m->live = true;
	store_build_tail(m);
	analysis_cache_free(m->analysis);   /* the heatmaps get the new columns */
	m->analysis = NULL;
	return true;
}

void steps_finalize(struct steps_model *m)
{
	if (!m)
		return;
	pthread_mutex_lock(&m->lock); /* the loading screen stops reading (progress.h) */
	m->closed = true;
	pthread_mutex_unlock(&m->lock);
	if (m->nrank) /* a shard may hold none */
		qsort(m->rank, m->nrank, sizeof(*m->rank), store_cmp_rank);
	store_slots_rebuild(m, m->nrank);
	for (size_t i = 0; i < m->nrank; i++) {
		if (!m->rank[i]->sealed)
			store_rank_compact(m->rank[i]);
		m->rank[i]->sealed = true;
		m->rank[i]->dirty = false;
	}
	if (m->preset) { /* from the index summary: no rank's steps are read */
		free(m->aligned);
		m->aligned_contiguous = m->preset_contiguous;
		m->aligned_lo = m->preset_lo;
		m->aligned = m->preset_aligned;
		m->naligned = m->preset_naligned;
		m->nunion = m->preset_nunion;
		m->preset_aligned = NULL;
		m->preset = false;
	} else if (!steps_summary_inputs_align(m)) {
		store_build_aligned(m);
		store_build_union(m);
	}
	m->finalized = true;
#ifdef __GLIBC__
	malloc_trim(0); /* hand back the load-time slack (capacity, bitmaps, run-length sources) */
#endif
}

void steps_model_free(struct steps_model *m)
{
	if (!m)
		return;
	analysis_cache_free(m->analysis);
	for (size_t i = 0; i < m->nrank; i++)
		steps_rank_free(m->rank[i]);
	free(m->rank);
	free(m->slot);
	for (size_t i = 0; i < m->nmetric; i++)
		free((char *)m->metric[i].name);
	free(m->metric);
	free(m->aligned);
	free(m->preset_aligned);
	free(m->summary_dir);
	for (size_t i = 0; i < m->npart; i++) {
		free(m->part[i]->path);
		free(m->part[i]->base);
		free(m->part[i]->map);
		free(m->part[i]);
	}
	free(m->part);
	steps_summary_free(m->summary);
	summary_inputs_free(m->inputs);
	for (size_t i = 0; i < ARRAY_LEN(m->body_lock); i++)
		pthread_mutex_destroy(&m->body_lock[i]);
	free(m->tail);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
