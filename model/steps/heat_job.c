/* SPDX-License-Identifier: MIT */
/* heat_job.c: a heatmap pyramid built on a thread of its own (heat_job.h), for a metric
 * whose pyramid is not in memory and whose build would hold the explorer for seconds.
 *
 * The thread reads the step model through `view`, a copy of the model's struct with a
 * rank table of its own: a rank whose body is not resident (an indexed run) is read into
 * a private copy (steps_rank_body_copy), its row made, the copy freed; the model itself
 * is not changed, so the UI thread never sees a body appear or go under it, and memory
 * is the pyramid plus one rank. A resident rank is read where it is (bodies are never
 * freed while the run is open; a live run builds no job). Level 0 is every step when
 * the pyramid fits HEAT_JOB_MAX_BYTES, else blocks of 2^shift steps (the smallest shift
 * that fits: analysis_heat_new_coarse), each row made whole in a scratch row first, so
 * a coarse cell is exactly the mean and worst of its steps. The cells are the records of
 * the run's alignment (internal.h NATIVE ALIGNMENT: its records copied at the start). A rank that cannot be read
 * has a row with no value (missing, never 0) and is counted. Ranks are shared out among
 * up to HEAT_JOB_THREADS threads (--jobs, else one per core), each with its own scratch;
 * rows are independent, so the result does not depend on which thread made a row. */
#include "model/steps/heat_job.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include "model/pool.h"
#include "model/steps/internal.h"

/* The pyramid a job may keep (the explorer's memory target is 2 GB at 10,000 ranks x
 * 100,000 steps: this is 16-step blocks there). */
#define HEAT_JOB_MAX_BYTES ((size_t)640 << 20)
/* Below this (bytes of the on-thread build, analysis_heat_cost) the UI thread builds it:
 * a few hundred ms at most, and the screens stay as they were. */
#define HEAT_JOB_MIN_BYTES ((size_t)64 << 20)
#define HEAT_JOB_THREADS 8

struct heat_job;
struct job_worker {
	struct heat_job *j;
	pthread_t th;
	bool threaded;              /* th runs worker_main (else it ran in heat_job_start) */
	void *scratch;              /* its row of full being made (shift > 0) */
	double *buf;
};

struct heat_job {
	struct job_worker w[HEAT_JOB_THREADS];
	size_t nw;
	struct steps_model view;
	struct rank_steps **rank;   /* view's rank table (a worker swaps only its ranks' slots) */
	double *cmed;               /* HEAT_REL_SLOWDOWN: the step medians (a copy) */
	struct native_align *na;    /* the native alignment's records (a copy), or NULL */
	struct heat_grid *full;     /* shift 0: the result; else its layout, a row per worker */
	struct heat_grid *coarse;   /* shift > 0: the result */
	long delay_ms;              /* TSCOPE_TEST_HEAT_JOB_MS: a pause after each rank */
	atomic_size_t next, done, unreadable, running;
	atomic_bool cancel;
};

/* Bytes a pyramid of g's layout takes for every rank. */
static size_t grid_bytes(const struct heat_grid *g)
{
	return g->row_words * 4 * g->nranks;
}

/* A row with no value anywhere: NaN means and worsts, zero counts. */
static void missing_row(struct heat_grid *g, size_t ri)
{
	float *w = xmalloc(g->row_words * 4);
	for (size_t i = 0; i < g->row_words; i++)
		w[i] = NAN;
	for (size_t l = g->shift ? 0 : 1; l < g->nlevels; l++)
		memset(w + g->off_count[l], 0, g->len[l] * 4);
	free(g->row[ri]);
	g->row[ri] = w;
}

static void one_rank(struct job_worker *w, size_t ri)
{
	struct heat_job *j = w->j;
	struct rank_steps *shared = j->rank[ri], *own = NULL;
	struct heat_grid *out = j->coarse ? j->coarse : j->full;
	if (!steps_rank_body_copy(shared, &own)) {
		atomic_fetch_add(&j->unreadable, 1);
		missing_row(out, ri);
		return;
	}
	if (own)
		j->rank[ri] = own;
	if (j->coarse)
		j->full->row[ri] = w->scratch;
	analysis_heat_make_row(&j->view, j->full, j->cmed, j->na, ri, w->buf);
	if (j->coarse) {
		analysis_heat_coarsen_row(j->full, ri, j->coarse);
		j->full->row[ri] = NULL;
	}
	j->rank[ri] = shared;
	steps_rank_body_copy_free(own);
}

/* Take the next rank until none is left or the job is cancelled. */
static void *worker_main(void *arg)
{
	struct job_worker *w = arg;
	struct heat_job *j = w->j;
	for (;;) {
		size_t ri = atomic_fetch_add(&j->next, 1);
		if (ri >= j->full->nranks || atomic_load(&j->cancel))
			break;
		one_rank(w, ri);
		atomic_fetch_add(&j->done, 1);
		if (j->delay_ms > 0) {
			struct timespec ts = { j->delay_ms / 1000, (j->delay_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	atomic_fetch_sub(&j->running, 1);
	return NULL;
}

static size_t job_threads(const struct run *run, size_t nranks)
{
	int t = run->opts && run->opts->jobs > 0 ? run->opts->jobs : pool_default_threads();
	size_t n = t > HEAT_JOB_THREADS ? HEAT_JOB_THREADS : t < 1 ? 1 : (size_t)t;
	return n < nranks ? n : nranks;
}

/* The smallest shift whose pyramid fits max_bytes (0: every step). */
static unsigned pick_shift(const struct heat_grid *full, size_t max_bytes)
{
	if (grid_bytes(full) <= max_bytes)
		return 0;
	unsigned s = 1;
	for (; s + 1 < full->nlevels; s++) {
		struct heat_grid *c = analysis_heat_new_coarse(full, s);
		size_t b = grid_bytes(c);
		analysis_heat_free(c);
		if (b <= max_bytes)
			break;
	}
	return s;
}

struct heat_job *heat_job_start(struct run *run, int series)
{
	const char *hook = getenv("TSCOPE_TEST_HEAT_JOB_MS");
	bool forced = hook && *hook;
	if (analysis_heat_cost(run, series) <= HEAT_JOB_MIN_BYTES && !forced)
		return NULL;
	const char *max = forced ? getenv("TSCOPE_TEST_HEAT_JOB_MAX") : NULL;
	return heat_job_start_within(run, series, max && *max ? strtoull(max, NULL, 10) : HEAT_JOB_MAX_BYTES);
}

struct heat_job *heat_job_start_within(struct run *run, int series, size_t max_bytes)
{
	const struct steps_model *m = run->steps;
	const char *hook = getenv("TSCOPE_TEST_HEAT_JOB_MS");
	if (!m || !steps_nranks(m) || !steps_ncolumns(m) || analysis_heat_cost(run, series) == 0 || m->live ||
	    run->live_findings || series < HEAT_REL_SLOWDOWN || (series >= 0 && (size_t)series >= steps_nmetrics(m)))
		return NULL;
	struct heat_job *j = xcalloc(1, sizeof(*j));
	j->delay_ms = hook && *hook ? strtol(hook, NULL, 10) : 0;
	size_t N = steps_nranks(m), A = steps_naligned(m);
	j->na = analysis_native_copy(analysis_native(run)); /* read on this thread, as the medians */
	if (series == HEAT_REL_SLOWDOWN && j->na) {
		j->cmed = analysis_native_medians(run, j->na);
	} else if (series == HEAT_REL_SLOWDOWN) {   /* read on this thread: the memo is the cache's */
		j->cmed = xmalloc((A ? A : 1) * sizeof(*j->cmed));
		memcpy(j->cmed, analysis_step_medians(run, analysis_cache_of(run)), A * sizeof(*j->cmed));
	}
	j->view = *m;   /* read only through the job's rank table; its locks are never taken */
	j->rank = xmalloc(N * sizeof(*j->rank));
	memcpy(j->rank, m->rank, N * sizeof(*j->rank));
	j->view.rank = j->rank;
	j->full = analysis_heat_new(series, N, steps_ncolumns(m), false);
	unsigned shift = pick_shift(j->full, max_bytes);
	if (shift)
		j->coarse = analysis_heat_new_coarse(j->full, shift);
	j->nw = job_threads(run, N);
	atomic_store(&j->running, j->nw);
	for (size_t t = 0; t < j->nw; t++) {
		struct job_worker *w = &j->w[t];
		w->j = j;
		w->scratch = shift ? xmalloc(j->full->row_words * 4) : NULL;
		w->buf = xmalloc((A ? A : 1) * sizeof(*w->buf));
	}
	for (size_t t = 0; t < j->nw; t++) {
		struct job_worker *w = &j->w[t];
		w->threaded = pthread_create(&w->th, NULL, worker_main, w) == 0;
		if (!w->threaded && t == 0)
			worker_main(w);   /* no thread to be had: build here */
		else if (!w->threaded)
			atomic_fetch_sub(&j->running, 1);
	}
	return j;
}

bool heat_job_poll(struct heat_job *j, size_t *done, size_t *total)
{
	*done = atomic_load(&j->done);
	*total = j->full->nranks;
	return atomic_load(&j->running) == 0;
}

static void job_join(struct heat_job *j)
{
	for (size_t t = 0; t < j->nw; t++) {
		if (j->w[t].threaded)
			pthread_join(j->w[t].th, NULL);
		j->w[t].threaded = false;
	}
}

struct heat_grid *heat_job_take(struct heat_job *j, size_t *unreadable)
{
	job_join(j);
	struct heat_grid *g = NULL;
	if (!atomic_load(&j->cancel)) {
		g = j->coarse ? j->coarse : j->full;
		if (j->coarse)
			j->coarse = NULL;
		else
			j->full = NULL;
	}
	*unreadable = atomic_load(&j->unreadable);
	heat_job_cancel(j);
	return g;
}

void heat_job_cancel(struct heat_job *j)
{
	if (!j)
		return;
	atomic_store(&j->cancel, true);
	job_join(j);
	for (size_t t = 0; t < j->nw; t++) {
		free(j->w[t].scratch);
		free(j->w[t].buf);
	}
	analysis_heat_free(j->full);
	analysis_heat_free(j->coarse);
	free(j->cmed);
	analysis_native_free(j->na);
	free(j->rank);
	free(j);
}
