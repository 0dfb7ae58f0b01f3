/* SPDX-License-Identifier: MIT */
/* subset.c: the metrics a subset open (--ranks: delta.h index_subset) takes from an
 * index part. A part's metric table (and each of its deltas') is the writer's whole
 * table, metrics of ranks the list leaves out included; a plain load of the listed ranks
 * has only theirs, and so does the open from the index. The table gives where the run
 * first has each metric (the lowest rank with it): a metric is among the kept ranks'
 * when that rank is one of them, and not when every kept rank is below it; for the
 * others the kept ranks above it are read (bodies with their delta segments, into
 * copies that are dropped) until one has it. Nothing is diagnosed there: a body that
 * cannot be read is diagnosed, and its rank read from the JSONL, when the rank is. */
#include "model/index/delta.h"

#include <stdlib.h>
#include <string.h>
#include "model/steps/internal.h"
#include "model/xalloc.h"

/* A metric of the part's tables: the lowest place any of them gives it, the lowest kept
 * rank found with it (-1: none) and whether a kept rank not read yet may have it. */
struct plan_metric {
	enum metric_kind kind;
	char *name;
	uint64_t first;
	long rank;
	bool sought;
};

struct index_subset_plan {
	struct plan_metric *v;
	size_t n, cap;
};

/* index_metric_ids: the metric's place in the plan, added when new. */
static int plan_id(void *ud, enum metric_kind kind, const char *name, uint64_t first)
{
	struct index_subset_plan *p = ud;
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].kind == kind && strcmp(p->v[i].name, name) == 0) {
			if (first < p->v[i].first)
				p->v[i].first = first;
			return (int)i;
		}
	}
	xgrow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n] = (struct plan_metric){ kind, xstrdup(name), first, -1, false };
	return (int)p->n++;
}

struct index_subset_plan *index_subset_plan_new(struct index_metric_ids *ids)
{
	struct index_subset_plan *p = xcalloc(1, sizeof(*p));
	*ids = (struct index_metric_ids){ plan_id, p };
	return p;
}

void index_subset_plan_free(struct index_subset_plan *p)
{
	for (size_t i = 0; p && i < p->n; i++)
		free(p->v[i].name);
	if (p)
		free(p->v);
	free(p);
}

/* The rank its place names (steps_metric_first), -1 when none. */
static long first_rank(uint64_t first)
{
	return first == METRIC_FIRST_NONE ? -1 : (long)(first >> 32);
}

/* Each metric against the kept ranks of r: had by its first rank when that is one of
 * them, else sought when one above it (or any, without a first rank) may have it.
 * Returns how many are sought. */
static size_t known_metrics(struct index_subset_plan *p, const struct index_subset *s, struct rank_steps *const *r,
			    size_t nr)
{
	size_t left = 0;
	for (size_t u = 0; u < p->n; u++) {
		struct plan_metric *x = &p->v[u];
		long fr = first_rank(x->first);
		for (size_t i = 0; i < nr && x->rank < 0; i++) {
			long id = steps_rank_own_id(r[i]);
			if (!index_keeps(s, id))
				continue;
			if (id == fr)
				x->rank = fr;
			else
				x->sought |= fr < 0 || id > fr;
		}
		x->sought &= x->rank < 0;
		left += x->sought;
	}
	return left;
}

/* A model of the plan's metrics alone, their ids their places in the plan, made as
 * steps_model_get() makes a run's: the kept ranks' bodies and their delta segments
 * (whose replay looks each column's metric up) are read back into it, never into the
 * run's. */
static struct steps_model *scratch_model(const struct index_subset_plan *p)
{
	struct steps_model *m = xcalloc(1, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	for (size_t i = 0; i < ARRAY_LEN(m->body_lock); i++)
		pthread_mutex_init(&m->body_lock[i], NULL);
	m->order = m->order_inline;
	for (size_t u = 0; u < p->n; u++)
		steps_metric_intern_at(m, p->v[u].kind, p->v[u].name, p->v[u].first);
	return m;
}

/* Whether rank id may have a metric still sought (one whose first rank is below it). */
static bool may_have(const struct index_subset_plan *p, long id)
{
	for (size_t u = 0; u < p->n; u++)
		if (p->v[u].sought && first_rank(p->v[u].first) < id)
			return true;
	return false;
}

/* The metrics (plan places) rank x's steps have a column for, x's body and delta
 * segments read into a copy in the scratch model sm; those not found yet get x's id.
 * Returns how many sought ones it found. */
static size_t body_metrics(struct index_subset_plan *p, struct steps_model *sm, const struct rank_steps *x)
{
	struct rank_steps view = *x, *c; /* x as a rank of sm (the copy is made of it, x is not changed) */
	view.m = sm;
	if (!steps_rank_body_copy(&view, &c) || !c)
		return 0;
	size_t found = 0;
	for (size_t u = 0; u < c->ncol && u < p->n; u++) {
		if ((c->col[u].cap || c->col[u].enc == ENC_RLE) && p->v[u].rank < 0) {
			p->v[u].rank = steps_rank_own_id(x);
			found += p->v[u].sought;
			p->v[u].sought = false;
		}
	}
	steps_rank_body_copy_free(c);
	return found;
}

/* The part (the model's, steps_add_part) read with the plan's places: its map becomes
 * the model ids, before any body is read with it. */
static void remap(const struct steps_part *part, const int *id)
{
	struct steps_part *p = (struct steps_part *)part;
	for (size_t j = 0; j < p->nmap; j++)
		p->map[j] = p->map[j] >= 0 ? id[p->map[j]] : -1;
}

void index_subset_settle(struct index_subset_plan *p, struct steps_model *m, const struct index_subset *s,
			 struct rank_steps *const *r, size_t nr, const struct steps_part *part,
			 const struct delta_set *ds)
{
	size_t left = known_metrics(p, s, r, nr);
	struct steps_model *sm = left ? scratch_model(p) : NULL;
	for (size_t i = 0; i < nr && left; i++) { /* in id order: the first found is the lowest */
		long id = steps_rank_own_id(r[i]);
		if (index_keeps(s, id) && may_have(p, id))
			left -= body_metrics(p, sm, r[i]);
	}
	steps_model_free(sm);
	int *id = xmalloc((p->n ? p->n : 1) * sizeof(*id));
	for (size_t u = 0; u < p->n; u++) {
		const struct plan_metric *x = &p->v[u];
		uint64_t first = x->first; /* the first rank's place, else the kept rank's with that seq */
		if (x->rank >= 0 && x->rank != first_rank(first) && first != METRIC_FIRST_NONE)
			first = steps_metric_first((int)x->rank, (unsigned)(uint32_t)first);
		id[u] = x->rank >= 0 ? steps_metric_intern_at(m, x->kind, x->name, first) : -1;
	}
	remap(part, id);
	for (size_t i = 0; i < delta_set_count(ds); i++)
		remap(delta_set_part(ds, i), id);
	free(id);
}
