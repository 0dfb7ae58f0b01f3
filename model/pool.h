/* SPDX-License-Identifier: MIT */
/* pool.h: run n independent tasks on up to `threads` worker threads and wait. Used by
 * loaders (one task per file). threads <= 0 means one per online core, at most 8; more
 * than POOL_MAX_THREADS means POOL_MAX_THREADS. */
#ifndef MODEL_POOL_H
#define MODEL_POOL_H

#include "model/base.h"

#define POOL_MAX_THREADS 64

int pool_default_threads(void);
void pool_run(size_t ntasks, int threads, void (*fn)(void *ud, size_t task), void *ud);

#endif
