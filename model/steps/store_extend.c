/* SPDX-License-Identifier: MIT */
/* store_extend.c: ranks restored from the index whose steps.jsonl grew since it was
 * written (model/index/extent.h): the indexed records stay and only the new bytes are
 * parsed (steps_ranks_extend); and a grown (thawed) rank goes back to its compact form
 * before the index is written again (steps_rank_settle). */
#include "model/steps/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/infile.h"
#include "model/pool.h"
#include "model/run.h"
#include "model/xalloc.h"

void steps_rank_settle(struct steps_model *m, size_t ri)
{
	struct rank_steps *r = m->rank[ri];
	if (!r->live)
		return;
	free(r->idx_step);
	free(r->idx_pos);
	r->idx_step = NULL;
	r->idx_pos = NULL;
	store_rank_compact(r);
	r->live = false;
	r->dirty = false;
	r->sealed = true;
}

struct extend_job {
	struct load_ctx *ctx;
	struct steps_model *m;
	const struct steps_rank_file *files;
	size_t *which;          /* files[which[i]] grew */
	long *src;              /* its source (run->src) as restored from the index */
	size_t nsrc0;           /* run->nsrc before: a later source for a path is a re-read */
	long lowest;
	atomic_llong bytes;
};

/* A source added for path since job->nsrc0: the rank's body failed and it was read
 * again from its JSONL whole (store_rank_load_body). */
static bool read_again(struct extend_job *job, const char *path)
{
	struct run *run = job->ctx->run;
	bool again = false;
	pthread_mutex_lock(&run->lock);
	for (size_t i = job->nsrc0; i < run->nsrc && !again; i++)
		again = strcmp(run->src[i].path, path) == 0;
	pthread_mutex_unlock(&run->lock);
	return again;
}

static void extend_rank(void *ud, size_t i)
{
	struct extend_job *job = ud;
	const struct steps_rank_file *f = &job->files[job->which[i]];
	long ri = steps_rank_index(job->m, (int)f->rank);
	if (ri < 0 || job->src[i] < 0)
		return;
	rank_need_body(job->m->rank[ri]);
	if (read_again(job, f->steps))
		return;
	int fd = infile_open(f->steps);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct rank_steps *r = steps_rank_grow(job->m, (size_t)ri);
	if (f->rank == job->lowest)
		rank_exact_scalars(r);
	struct steps_tail *t = steps_tail_resume(job->ctx, (size_t)job->src[i]);
	long long from = steps_tail_offset(t);
	load_progress(job->ctx, 0, (long long)st.st_size - from);
	steps_tail_read(t, r, fd, (long long)st.st_size, true);
	close(fd);
	steps_tail_free(t);
	steps_rank_settle(job->m, (size_t)ri);
	atomic_fetch_add(&job->bytes, (long long)st.st_size - from);
}

long long steps_ranks_extend(struct load_ctx *ctx, const struct steps_rank_file *files, const bool *grown,
			     size_t nfiles, long lowest)
{
	struct extend_job job = { .ctx = ctx, .m = steps_model_get(ctx->run), .files = files, .lowest = lowest };
	size_t n = 0;
	job.which = xmalloc((nfiles ? nfiles : 1) * sizeof(*job.which));
	for (size_t i = 0; i < nfiles; i++)
		if (grown[i])
			job.which[n++] = i;
	job.src = xmalloc((n ? n : 1) * sizeof(*job.src));
	index_sources_of(ctx->run, files, job.which, n, job.src, NULL);
	pthread_mutex_lock(&ctx->run->lock);
	job.nsrc0 = ctx->run->nsrc;
	pthread_mutex_unlock(&ctx->run->lock);
	atomic_init(&job.bytes, 0);
	pool_run(n, ctx->opts ? ctx->opts->jobs : 0, extend_rank, &job);
	free(job.which);
	free(job.src);
	return atomic_load(&job.bytes);
}
