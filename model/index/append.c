/* SPDX-License-Identifier: MIT */
/* append.c: writing what a run read beyond its index back into it (index.h,
 * index_append): after a follow, or after an open that parsed the tails of grown
 * sources. The index is rewritten whole from the run (every rank's body encoded again),
 * atomically, with each rank's latest source and the diagnostics of its files. */
#include "model/index/index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

static int cmp_file_rank(const void *a, const void *b)
{
	const struct steps_rank_file *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static bool in_plan(const struct steps_rank_file *files, size_t n, long rank)
{
	struct steps_rank_file key = { .rank = rank };
	return bsearch(&key, files, n, sizeof(key), cmp_file_rank) != NULL;
}

static int cmp_src_path(const void *a, const void *b, void *ud)
{
	const struct run *run = ud;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(run->src[i].path, run->src[j].path);
	return c ? c : (i > j) - (i < j);
}

void index_sources_of(struct run *run, const struct steps_rank_file *files, const size_t *which, size_t n,
		      long *latest, size_t *count)
{
	pthread_mutex_lock(&run->lock);
	size_t *ord = xmalloc((run->nsrc ? run->nsrc : 1) * sizeof(*ord)), k = 0;
	for (size_t i = 0; i < run->nsrc; i++)
		if (run->src[i].format && strcmp(run->src[i].format, "pytscope") == 0)
			ord[k++] = i;
	qsort_r(ord, k, sizeof(*ord), cmp_src_path, run);
	for (size_t i = 0; i < n; i++) {
		const char *path = files[which ? which[i] : i].steps;
		size_t lo = 0, hi = k;   /* the first entry after path */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (strcmp(run->src[ord[mid]].path, path) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t c = 0;
		while (c < lo && strcmp(run->src[ord[lo - 1 - c]].path, path) == 0)
			c++;
		latest[i] = c ? (long)ord[lo - 1] : -1;
		if (count)
			count[i] = c;
	}
	free(ord);
	pthread_mutex_unlock(&run->lock);
}

/* The one pytscope source of each file that has one; false when a file has several
 * (its rank was reloaded: what the run holds is not one read of the file). */
static bool pick_sources(struct run *run, const struct steps_rank_file *files, size_t n, size_t **out,
			 size_t *nout)
{
	long *latest = xmalloc((n ? n : 1) * sizeof(*latest));
	size_t *count = xmalloc((n ? n : 1) * sizeof(*count));
	index_sources_of(run, files, NULL, n, latest, count);
	size_t *v = xmalloc((n ? n : 1) * sizeof(*v)), k = 0;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		ok = ok && count[i] <= 1;
		if (count[i] == 1)
			v[k++] = (size_t)latest[i];
	}
	free(latest);
	free(count);
	*out = v;
	*nout = k;
	return ok;
}

/* The diagnostics about the plan's ranks, not about the index itself. */
static size_t *pick_diags(const struct run *run, const char *index_dir, const struct steps_rank_file *files,
			  size_t n, size_t *nout)
{
	size_t dlen = strlen(index_dir), k = 0;
	size_t *v = xmalloc((run->diags.n ? run->diags.n : 1) * sizeof(*v));
	for (size_t i = 0; i < run->diags.n; i++) {
		const struct diag *d = &run->diags.v[i];
		if (d->rank < 0 || !d->file || !in_plan(files, n, d->rank) ||
		    (strncmp(d->file, index_dir, dlen) == 0 && (d->file[dlen] == '/' || !d->file[dlen])))
			continue;
		v[k++] = i;
	}
	*nout = k;
	return v;
}

int index_append(struct run *run, const char *run_dir, char **path_out)
{
	if (path_out)
		*path_out = NULL;
	struct steps_model *m = run->steps;
	if (!m)
		return EINVAL;
	struct steps_rank_file *files = NULL;
	size_t n = index_plan(run_dir, &files);
	bool whole = n > 0;
	for (size_t i = 0; i < n && whole; i++)
		whole = steps_rank_index(m, (int)files[i].rank) >= 0;
	size_t *src = NULL, nsrc = 0;
	int err = EAGAIN;
	if (whole && pick_sources(run, files, n, &src, &nsrc)) {
		for (size_t i = 0; i < n; i++)
			steps_rank_settle(m, (size_t)steps_rank_index(m, (int)files[i].rank));
		char *dir = index_dir_for(run_dir);
		size_t ndiag;
		size_t *diag = pick_diags(run, dir, files, n, &ndiag);
		struct index_pick pick = { src, nsrc, diag, ndiag };
		err = index_write_pick(run, run_dir, 0, 1, files, 0, n, &pick, path_out);
		free(diag);
		free(dir);
	}
	free(src);
	steps_rank_files_free(files, n);
	return err;
}
