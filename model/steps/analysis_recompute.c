/* SPDX-License-Identifier: MIT */
/* analysis_recompute.c: recomputing a live run's held results on a worker thread (see
 * analysis.h LIVE RUNS): the distributed analysis, the one O(records) pass over every
 * rank a follower's panes need at once, is computed from the step model while the
 * caller keeps answering from the held results; its result replaces them in one step on
 * the caller's thread. The worker reads the step model and a copy of the per-step
 * medians, and writes only its own result: the cache is touched by the caller alone. */
#include "model/steps/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include "model/xalloc.h"

struct analysis_recompute {
	pthread_t th;
	struct run *run;
	double *cmed;               /* the step medians as of the start, or NULL */
	struct distributed *dist;   /* the result, once done */
	atomic_bool done, hurry;
	double hold;                /* TSCOPE_TEST_RECOMPUTE_HOLD seconds (tests) */
};

/* Tests: keep the result back for `hold` seconds, in 10 ms naps, unless hurried. */
static void test_hold(struct analysis_recompute *rc)
{
	for (double t = 0; t < rc->hold && !atomic_load(&rc->hurry); t += 0.01)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
}

static void *worker(void *ud)
{
	struct analysis_recompute *rc = ud;
	rc->dist = analysis_dist_compute(rc->run, rc->cmed);
	test_hold(rc);
	atomic_store(&rc->done, true);
	return NULL;
}

static struct analysis_cache *cache_of(const struct run *run)
{
	return run && run->steps ? run->steps->analysis : NULL;
}

bool analysis_recompute_start(struct run *run)
{
	struct analysis_cache *c = cache_of(run);
	if (!c || c->rc || !c->lagging)
		return false;
	struct analysis_recompute *rc = xcalloc(1, sizeof(*rc));
	rc->run = run;
	size_t S = steps_naligned(run->steps);
	if (c->cmed) { /* extended to the new steps here, copied: the caller's heatmap extends them too */
		const double *med = analysis_step_medians(run, c);
		rc->cmed = xmalloc((S ? S : 1) * sizeof(*rc->cmed));
		memcpy(rc->cmed, med, S * sizeof(*med));
	}
	const char *h = getenv("TSCOPE_TEST_RECOMPUTE_HOLD");
	rc->hold = h && *h ? atof(h) : 0;
	atomic_init(&rc->done, false);
	atomic_init(&rc->hurry, false);
	if (pthread_create(&rc->th, NULL, worker, rc) != 0) {
		free(rc->cmed);
		free(rc);
		return false;
	}
	c->rc = rc;
	return true;
}

bool analysis_recompute_running(const struct run *run)
{
	const struct analysis_cache *c = cache_of(run);
	return c && c->rc;
}

void analysis_recompute_free(struct analysis_recompute *rc)
{
	if (!rc)
		return;
	atomic_store(&rc->hurry, true);
	pthread_join(rc->th, NULL);
	analysis_dist_free(rc->dist);
	free(rc->cmed);
	free(rc);
}

/* The worker is done: its result replaces the held ones. */
static void publish(struct analysis_cache *c)
{
	struct analysis_recompute *rc = c->rc;
	pthread_join(rc->th, NULL);
	analysis_cache_drop_records(c);   /* per-rank results: recomputed on next use */
	c->dist = rc->dist;
	c->dist_done = true;
	rc->dist = NULL;
	c->rc = NULL;
	free(rc->cmed);
	free(rc);
}

bool analysis_recompute_publish(struct run *run)
{
	struct analysis_cache *c = cache_of(run);
	if (!c || !c->rc || !atomic_load(&c->rc->done))
		return false;
	publish(c);
	return true;
}

void analysis_recompute_wait(struct run *run)
{
	struct analysis_cache *c = cache_of(run);
	if (!c || !c->rc)
		return;
	atomic_store(&c->rc->hurry, true);
	publish(c);
}
