/* SPDX-License-Identifier: MIT */
/* store.c: the per-rank columnar step store (see steps.h for the contract and the
 * storage layout): writing from loader threads, compaction in steps_finalize(), the
 * step -> position index and the aligned step set. The read accessors are store_read.c,
 * follow mode's growth store_follow.c, the serialized form store_index.c. */
#include "model/steps/seal.h"
#include "model/steps/store_body.h"

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
		m->order = m->order_inline; /* no allocation among the loader's (a heap layout of its own) */
		run->steps = m;
	}
	struct steps_model *m = run->steps;
	pthread_mutex_unlock(&run->lock);
	return m;
}

/* The run's order: phases, scalars, memory; each by where the run first has it. */
static bool metric_before(const struct steps_model *m, int a, int b)
{
	const struct metric_def *x = &m->metric[a], *y = &m->metric[b];
	if (x->kind != y->kind)
		return x->kind < y->kind;
	return x->first != y->first ? x->first < y->first : a < b;
}

/* Put id at its place in m->order[0..n) (n = the ids placed; id not among them). */
static void order_place(struct steps_model *m, size_t n, int id)
{
	size_t k = n;
	while (k > 0 && metric_before(m, id, m->order[k - 1])) {
		m->order[k] = m->order[k - 1];
		k--;
	}
	m->order[k] = id;
}

/* Metric id met at first: moved to its new place when that is lower than its first so
 * far. Under m->lock. */
static void order_lower(struct steps_model *m, int id, uint64_t first)
{
	if (first >= m->metric[id].first)
		return;
	size_t k = 0;
	while (m->order[k] != id)
		k++;
	memmove(m->order + k, m->order + k + 1, (m->nmetric - k - 1) * sizeof(*m->order));
	m->metric[id].first = first;
	order_place(m, m->nmetric - 1, id);
}

/* Room in m->order for metric_cap ids: the inline array, then the heap. */
static void order_room(struct steps_model *m)
{
	if (m->metric_cap <= ARRAY_LEN(m->order_inline))
		return;
	if (m->order == m->order_inline) {
		m->order = xmalloc(m->metric_cap * sizeof(*m->order));
		memcpy(m->order, m->order_inline, sizeof(m->order_inline));
	} else {
		m->order = xrealloc(m->order, m->metric_cap * sizeof(*m->order));
	}
}

int steps_metric_intern_at(struct steps_model *m, enum metric_kind kind, const char *name, uint64_t first)
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
		order_room(m);
		id = (int)m->nmetric;
		m->metric[id] = (struct metric_def){ .name = xstrdup(name), .kind = kind, .first = first };
		order_place(m, m->nmetric++, id);
	} else {
		order_lower(m, id, first);
	}
	pthread_mutex_unlock(&m->lock);
	return id;
}

int steps_metric_intern(struct steps_model *m, enum metric_kind kind, const char *name)
{
	return steps_metric_intern_at(m, kind, name, METRIC_FIRST_NONE);
}

int steps_metric_nth(const struct steps_model *m, size_t k)
{
	return m->order[k];
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

bool steps_has_phase(const struct steps_model *m, const char *name)
{
	return steps_metric_find(m, METRIC_PHASE, name) >= 0;
}

void steps_add_left_out(struct steps_model *m, size_t n)
{
	m->left_out += n;
}

void steps_set_left_out(struct steps_model *m, size_t n)
{
	m->left_out = n;
}

size_t steps_left_out(const struct steps_model *m)
{
	return m ? m->left_out : 0;
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

/* Body bitmap b of r in slot k grown (or shrunk) from old_bits to new_bits (>= 1), the
 * new bits clear. */
static uint64_t *body_bitmap(struct rank_steps *r, size_t k, uint64_t *b, size_t old_bits, size_t new_bits)
{
	size_t ob = b ? bitmap_bytes(old_bits) : 0, nb = bitmap_bytes(new_bits);
	b = store_body_room(r, k, b, nb);
	if (nb > ob)
		memset((char *)b + ob, 0, nb - ob);
	return b;
}

static void rank_resize(struct rank_steps *r, size_t ncap)
{
	if (r->step)
		r->step = store_body_room(r, STORE_SLOT_STEP, r->step, ncap * sizeof(*r->step));
	r->ts = store_body_room(r, STORE_SLOT_TS, r->ts, ncap * sizeof(*r->ts));
	r->ts_present = body_bitmap(r, STORE_SLOT_TS_PRESENT, r->ts_present, r->cap, ncap);
	r->cap = ncap;
}

static void rank_grow(struct rank_steps *r)
{
	rank_resize(r, r->cap ? r->cap * 2 : 64);
}

void rank_reserve(struct rank_steps *r, size_t n)
{
	if (r->scratch && r->cap == 0 && n > STORE_SCRATCH_ROWS)
		r->scratch = NULL; /* a long rank: arrays of its own from the start (internal.h) */
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
		r->step = store_body_room(r, STORE_SLOT_STEP, NULL, r->cap * sizeof(*r->step));
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
	if (c->wide) { /* in place, from the last entry down: entry i's double covers entries 2i, 2i + 1 */
		for (size_t i = c->cap; i-- > 0;) {
			double v = bit_get(c->present, i) ? store_col_raw(c, i) : 0;
			((double *)c->data)[i] = v;
		}
		c->enc = ENC_F64;
		return;
	}
	double *d = xcalloc(c->cap ? c->cap : 1, sizeof(*d));
	for (size_t i = 0; i < c->cap; i++)
		if (bit_get(c->present, i))
			d[i] = store_col_raw(c, i);
	free(c->data);
	c->data = d;
	c->enc = ENC_F64;
}

void store_col_resize(struct rank_steps *r, size_t metric, size_t ncap)
{
	struct column *c = &r->col[metric];
	size_t e = store_col_elem(c->enc);
	c->wide = r->scratch != NULL; /* room for doubles: store_col_to_f64 needs no other buffer */
	c->data = store_body_room(r, store_slot_data(metric), c->data, (ncap ? ncap : 1) * (c->wide ? 8 : e));
	if (ncap > c->cap)
		memset((char *)c->data + c->cap * e, 0, (ncap - c->cap) * e);
	c->present = body_bitmap(r, store_slot_present(metric), c->present, c->cap, ncap ? ncap : 1);
	c->cap = ncap;
}

static void col_grow(struct rank_steps *r, size_t metric, size_t need)
{
	size_t ncap = r->col[metric].cap ? r->col[metric].cap : 64;
	while (ncap < need)
		ncap *= 2;
	store_col_resize(r, metric, ncap);
}

static struct column *rank_column(struct rank_steps *r, int metric)
{
	if ((size_t)metric >= r->ncol)
		store_rank_cols(r, (size_t)metric + 1);
	struct column *c = &r->col[metric];
	if (c->cap == 0) {
		unsigned made = 0; /* the rank's columns before this one: the order its records name them */
		for (size_t i = 0; i < r->ncol; i++)
			made += r->col[i].cap != 0;
		pthread_mutex_lock(&r->m->lock);
		enum metric_kind kind = r->m->metric[metric].kind;
		order_lower(r->m, metric, steps_metric_first(r->rank, made));
		pthread_mutex_unlock(&r->m->lock);
		c->enc = kind == METRIC_PHASE ? ENC_NANO : ENC_F32;
		c->exact = kind == METRIC_MEMORY || (kind == METRIC_SCALAR && r->exact_scalars);
		store_col_resize(r, (size_t)metric, r->cap); /* as many as the rank expects (rank_reserve) */
	}
	return c;
}

struct column *store_col_room(struct rank_steps *r, int metric, size_t pos)
{
	struct column *c = rank_column(r, metric);
	if (pos >= c->cap) {
		col_grow(r, (size_t)metric, pos + 1);
		c = &r->col[metric];
	}
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

bool steps_rank_meta_stamp(const struct steps_model *m, size_t ri, long long *size, long long *mtime_ns)
{
	const struct steps_meta *x = &m->rank[ri]->meta;
	*size = x->stamp_size;
	*mtime_ns = x->stamp_mtime_ns;
	return x->stamped;
}

void rank_set_meta(struct rank_steps *r, struct steps_meta *meta)
{
	r->meta = *meta;
	memset(meta, 0, sizeof(*meta));
}

void steps_meta_free(struct steps_meta *meta)
{
	if (meta->env_text) { /* one block: the arrays, the strings and the name */
		free(meta->env_text);
	} else {
		free(meta->name);
		for (size_t i = 0; i < meta->nenv; i++) {
			free(meta->env_key[i]);
			free(meta->env_val[i]);
		}
		free(meta->env_key);
		free(meta->env_val);
	}
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

void steps_rank_free(struct rank_steps *r)
{
	if (!r)
		return;
	store_rank_free_body(r);
	store_rank_free_segs(r);
	seal_inputs_free(r->sealed_in);
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
uint64_t *store_slot_find(const struct steps_model *m, int rank)
{
	size_t i = slot_home(m, rank);
	while (m->slot[i] && (uint32_t)(m->slot[i] >> 32) != (uint32_t)rank)
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
	m->slot = xcalloc_written(n, sizeof(*m->slot)); /* probed as it fills */
	m->nslot = n;
	for (size_t i = 0; i < m->nrank; i++)
		*store_slot_find(m, m->rank[i]->rank) = store_slot_make(m->rank[i]->rank, i);
}

/* O(1) amortised: the id table finds an earlier rank with the same id. */
void steps_publish_rank(struct steps_model *m, struct rank_steps *r)
{
	pthread_mutex_lock(&m->lock);
	if (m->finalized) /* a follower's new or reloaded rank: steps_refresh() indexes it */
		r->live = r->dirty = m->resort = true;
	if ((m->nrank + 1) * 2 > m->nslot)
		store_slots_rebuild(m, m->nrank + 1);
	uint64_t *s = store_slot_find(m, r->rank);
	if (*s) {
		m->nreplaced++;
		steps_rank_free(m->rank[store_slot_index(*s)]);
		m->rank[store_slot_index(*s)] = r;
	} else {
		xgrow((void **)&m->rank, &m->rank_cap, m->nrank + 1, sizeof(*m->rank));
		*s = store_slot_make(r->rank, m->nrank);
		m->rank[m->nrank++] = r;
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

/* Rank r's steps after `last` appended to *v (*n of them, room for *cap). A rank whose
 * largest step is not after it is not read; a lazy rank's body is read into a copy,
 * not made resident (an indexed run's open reads no body it does not need). */
static void tail_of_rank(struct rank_steps *r, long last, int64_t **v, size_t *n, size_t *cap)
{
	struct rank_steps *own = NULL;
	if (!r->ndistinct || r->span_hi <= last || (!r->contiguous && !steps_rank_body_copy(r, &own)))
		return;   /* unreadable: its next ordinary read diagnoses it */
	const struct rank_steps *s = own ? own : r;
	size_t j = s->ndistinct;
	while (j > 0 && store_rank_distinct_step(s, j - 1) > last)
		j--;
	if (*n + s->ndistinct - j > *cap) {
		*cap = (*n + s->ndistinct - j) * 2;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	for (; j < s->ndistinct; j++)
		(*v)[(*n)++] = store_rank_distinct_step(s, j);
	steps_rank_body_copy_free(own);
}

/* The heatmap columns after the aligned steps: every step after the last aligned one
 * that some rank has (the ranks that go on after a rank ended early, a live run's
 * leading ranks). */
void store_build_tail(struct steps_model *m)
{
	free(m->tail);
	m->tail = NULL;
	m->ntail = 0;
	m->tail_range = false;
	if (m->naligned == 0)
		return;
	long last = steps_aligned_step(m, m->naligned - 1);
	if (m->aligned_contiguous) {   /* every rank contiguous: (last, the newest step] */
		long hi = last;
		for (size_t i = 0; i < m->nrank; i++)
			if (steps_max_step(m, i) > hi)
				hi = steps_max_step(m, i);
		m->tail_range = true;   /* none when the last aligned step is the newest (LONG_MAX too) */
		m->tail_lo = hi > last ? last + 1 : last;
		m->ntail = (size_t)((unsigned long)hi - (unsigned long)last);
		return;
	}
	size_t k = 0, cap = 0;
	for (size_t i = 0; i < m->nrank; i++)
		tail_of_rank(m->rank[i], last, &m->tail, &k, &cap);
	if (k > 1)
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
	analysis_cache_free(m->analysis);   /* the analyses start over as a live run's */
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
	store_build_tail(m);
	m->finalized = true;
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
	if (m->order != m->order_inline)
		free(m->order);
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
