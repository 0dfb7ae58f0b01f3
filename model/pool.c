/* SPDX-License-Identifier: MIT */
/* pool.c: a tiny fork-join pool over pthreads (see pool.h). */
#include "model/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

struct pool_job {
	size_t ntasks;
	atomic_size_t next;
	void (*fn)(void *ud, size_t task);
	void *ud;
};

int pool_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > 8 ? 8 : (int)n;
}

static void *worker(void *arg)
{
	struct pool_job *job = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&job->next, 1);
		if (i >= job->ntasks)
			break;
		job->fn(job->ud, i);
	}
	return NULL;
}

void pool_run(size_t ntasks, int threads, void (*fn)(void *ud, size_t task), void *ud)
{
	struct pool_job job = { .ntasks = ntasks, .fn = fn, .ud = ud };
	atomic_init(&job.next, 0);
	if (threads <= 0)
		threads = pool_default_threads();
	if (threads > POOL_MAX_THREADS)
		threads = POOL_MAX_THREADS;
	if ((size_t)threads > ntasks)
		threads = (int)ntasks;
	if (threads <= 1) {
		worker(&job);
		return;
	}
	pthread_t tid[POOL_MAX_THREADS];
	int started = 0;
	for (int t = 0; t < threads - 1; t++)
		if (pthread_create(&tid[started], NULL, worker, &job) == 0)
			started++;
	worker(&job);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
}
