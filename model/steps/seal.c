/* SPDX-License-Identifier: MIT */
/* seal.c: the summary's inputs of a rank taken at its seal (seal.h), and handing them
 * to the summary's pass. */
#include "model/steps/seal.h"

#include <pthread.h>
#include <stdlib.h>
#include "model/xalloc.h"

void seal_sets_free(struct seal_sets *s)
{
	if (!s->have)
		return;
	analysis_phase_sets_free(&s->ps);
	analysis_budget_plan_free(&s->bp);
	s->have = false;
}

/* s as m's metric table is now (the table grows under m's lock, while other loader
 * threads intern the metrics they meet). */
static void sets_update(struct steps_model *m, unsigned long load, struct seal_sets *s)
{
	pthread_mutex_lock(&m->lock);
	if (!s->have || s->load != load || s->nmetric != m->nmetric) {
		seal_sets_free(s);
		analysis_phase_sets_init(m, &s->ps);
		analysis_budget_plan(m, &s->ps, &s->bp);
		s->peak_alloc = steps_metric_find(m, METRIC_MEMORY, "peak_alloc");
		s->alloc = steps_metric_find(m, METRIC_MEMORY, "alloc");
		s->nmetric = m->nmetric;
		s->load = load;
		s->have = true;
	}
	pthread_mutex_unlock(&m->lock);
}

struct seal_inputs *seal_inputs_take(struct steps_model *m, unsigned long load, const struct rank_steps *r,
				     struct seal_sets *sets)
{
	sets_update(m, load, sets);
	/* One allocation, taken while the body is still held: the body's block, freed next,
	 * is then whole for the next rank's body (a second, small allocation after the free
	 * would split it, and each body would take fresh pages again: BENCHMARKS.md, issue
	 * 15 "bodies written at their seal"). */
	double *v = xmalloc(2 * r->n * sizeof(*v) + sizeof(struct seal_inputs));
	struct seal_inputs *in = (struct seal_inputs *)(v + 2 * r->n);
	in->compute = v;
	in->comm = v + r->n;
	struct budget_lanes bl; /* ~10 KB: on the stack */
	analysis_lanes_init(&sets->bp, &bl);
	analysis_rank_records_lanes(&sets->ps, r, in->compute, in->comm, &bl);
	if (!analysis_lanes_sums(&sets->bp, &bl, &sets->ps, r, &in->bsum)) {
		seal_inputs_free(in);
		return NULL;
	}
	struct rank_stat mem = { 0 };
	analysis_mem_peak_of(r, sets->peak_alloc, sets->alloc, &mem);
	in->has_mem_peak = mem.has_mem_peak;
	in->mem_peak = mem.mem_peak;
	return in;
}

void seal_inputs_free(struct seal_inputs *in)
{
	if (in)
		free(in->compute);
}

void seal_inputs_sums(const struct seal_inputs *in, struct budget_sums *bsum, struct rank_stat *rs)
{
	*bsum = in->bsum;
	if (rs) {
		rs->has_mem_peak = in->has_mem_peak;
		rs->mem_peak = in->mem_peak;
	}
}

struct seal_inputs *steps_rank_take_inputs(struct steps_model *m, size_t ri)
{
	struct seal_inputs *in = m->rank[ri]->sealed_in;
	m->rank[ri]->sealed_in = NULL;
	return in;
}
