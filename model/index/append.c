/* SPDX-License-Identifier: MIT */
/* append.c: writing what a run read beyond its index back into it: index_append()
 * rewrites the index whole from the run (every rank's body encoded again), atomically,
 * with each rank's latest source and the diagnostics of its files (after an open that
 * parsed the tails of grown sources; a follower's compaction); the index log
 * (index.h DELTAS) appends a follower's new records as delta segments (delta.h). */
#include "model/index/index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/delta.h"
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

/* The diagnostics from run->diags[from] on about the plan's ranks, not about the index
 * itself. */
static size_t *pick_diags(const struct run *run, const char *index_dir, const struct steps_rank_file *files,
			  size_t n, size_t from, size_t *nout)
{
	size_t dlen = strlen(index_dir), k = 0;
	size_t *v = xmalloc((run->diags.n ? run->diags.n : 1) * sizeof(*v));
	for (size_t i = from; i < run->diags.n; i++) {
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
		size_t *diag = pick_diags(run, dir, files, n, 0, &ndiag);
		struct index_pick pick = { src, nsrc, diag, ndiag };
		err = index_write_pick(run, run_dir, 0, 1, files, 0, n, &pick, path_out);
		free(diag);
		free(dir);
	}
	free(src);
	steps_rank_files_free(files, n);
	return err;
}

/* ---- the index log: delta segments ---------------------------------------------------- */

struct index_log {
	struct run *run;
	char *run_dir, *dir;
	struct steps_rank_file *files;   /* the plan when the log began, sorted by rank id */
	size_t n;
	size_t *saved;                   /* records of files[i]'s rank the index holds */
	long long *covered;              /* bytes of its steps.jsonl the index covers */
	size_t diag0;                    /* run->diags up to here are in the index */
	bool checked;                    /* the index is known to hold saved/covered */
	struct index_file_id base;       /* the base part then */
	unsigned seq;                    /* deltas on it */
	unsigned max;
};

/* What the run holds now, per file: records and covered bytes (false: a rank is missing
 * or was read twice: reloaded). */
static bool log_now(struct index_log *lg, size_t *recs, long long *cov)
{
	struct steps_model *m = lg->run->steps;
	long *src = xmalloc((lg->n ? lg->n : 1) * sizeof(*src));
	size_t *count = xmalloc((lg->n ? lg->n : 1) * sizeof(*count));
	index_sources_of(lg->run, lg->files, NULL, lg->n, src, count);
	bool ok = m != NULL;
	pthread_mutex_lock(&lg->run->lock);
	for (size_t i = 0; i < lg->n && ok; i++) {
		long ri = steps_rank_index(m, (int)lg->files[i].rank);
		ok = ri >= 0 && count[i] == 1 && !lg->run->src[src[i]].err;
		if (ok) {
			recs[i] = steps_nrecords(m, (size_t)ri);
			cov[i] = lg->run->src[src[i]].consumed;
		}
	}
	pthread_mutex_unlock(&lg->run->lock);
	free(src);
	free(count);
	return ok;
}

static void log_snapshot(struct index_log *lg)
{
	if (!log_now(lg, lg->saved, lg->covered))
		lg->checked = false;
	lg->diag0 = lg->run->diags.n;
}

unsigned index_delta_max(void)
{
	const char *e = getenv("TSCOPE_INDEX_DELTAS");
	long v = e && *e ? atol(e) : 0;
	return v > 0 ? (unsigned)v : INDEX_DELTA_MAX;
}

struct index_log *index_log_begin(struct run *run, const char *run_dir)
{
	struct index_log *lg = xcalloc(1, sizeof(*lg));
	lg->run = run;
	lg->run_dir = xstrdup(run_dir);
	lg->dir = index_dir_for(run_dir);
	lg->n = index_plan(run_dir, &lg->files);
	lg->saved = xcalloc(lg->n ? lg->n : 1, sizeof(*lg->saved));
	lg->covered = xcalloc(lg->n ? lg->n : 1, sizeof(*lg->covered));
	lg->max = index_delta_max();
	log_snapshot(lg);
	return lg;
}

void index_log_end(struct index_log *lg)
{
	if (!lg)
		return;
	steps_rank_files_free(lg->files, lg->n);
	free(lg->saved);
	free(lg->covered);
	free(lg->run_dir);
	free(lg->dir);
	free(lg);
}

static bool same_id(const struct index_file_id *a, const struct index_file_id *b)
{
	return a->size == b->size && a->mtime_ns == b->mtime_ns && a->ino == b->ino;
}

/* The index as it is now holds what the log says (the base part, its deltas, and per
 * rank the bytes covered). */
static bool log_matches_index(struct index_log *lg)
{
	bool found = false;
	if (index_newest_count(lg->dir, "steps", &found) != 1)
		return false;
	char *path = xasprintf("%s/steps-0-of-1.tsx", lg->dir);
	struct index_file_id id;
	long *ids;
	struct index_extent *ext;
	size_t n;
	bool ok = extent_read_part(path, lg->run_dir, &id, &ids, &ext, &n) && n == lg->n;
	free(path);
	unsigned nd = delta_count(lg->dir);
	if (ok && lg->checked) { /* what this log wrote last, unless someone else wrote since */
		ok = same_id(&id, &lg->base) && nd == lg->seq;
	} else if (ok) {
		struct delta_set *ds = delta_set_read(NULL, lg->dir, lg->run_dir, &id);
		ok = delta_set_count(ds) == nd;
		for (size_t i = 0; i < n && ok; i++) {
			const struct index_extent *moved = delta_set_extent(ds, ids[i]);
			ok = ids[i] == lg->files[i].rank && (moved ? moved : &ext[i])->covered == lg->covered[i];
		}
		delta_set_free(ds);
	}
	free(ids);
	free(ext);
	if (ok) {
		lg->base = id;
		lg->seq = nd;
		lg->checked = true;
	}
	return ok;
}

struct delta_job {
	struct index_log *lg;
	const size_t *which;             /* files that grew */
	size_t nwhich;
	const size_t *src;               /* their latest sources */
	const size_t *diag;
	size_t ndiag;
	struct index_body_loc *loc;
};

static void delta_bodies(struct obuf *body, const struct delta_job *j)
{
	struct steps_model *m = j->lg->run->steps;
	for (size_t k = 0; k < j->nwhich; k++) {
		size_t i = j->which[k];
		long ri = steps_rank_index(m, (int)j->lg->files[i].rank);
		struct index_body_loc *loc = &j->loc[k];
		loc->off = index_body_offset(body);
		ob_sum_begin(body);
		steps_rank_encode_delta(m, (size_t)ri, j->lg->saved[i], body);
		loc->crc = ob_sum_end(body);
		loc->len = index_body_offset(body) - loc->off;
	}
}

static void delta_entry_put(struct obuf *h, const struct delta_job *j, size_t k)
{
	struct run *run = j->lg->run;
	struct steps_model *m = run->steps;
	size_t i = j->which[k];
	const struct steps_rank_file *f = &j->lg->files[i];
	ob_i64(h, f->rank);
	ob_u64(h, j->lg->saved[i]);
	extent_put(h, run, f->steps);
	pthread_mutex_lock(&run->lock);
	struct source s = run->src[j->src[k]];
	pthread_mutex_unlock(&run->lock);
	ob_source_counts(h, &s);
	steps_rank_encode_shell(m, (size_t)steps_rank_index(m, (int)f->rank), j->lg->run_dir, h);
	ob_u64(h, j->loc[k].off);
	ob_u64(h, j->loc[k].len);
	ob_u32(h, j->loc[k].crc);
}

static void fill_delta(struct obuf *body, struct obuf *h, void *ud)
{
	const struct delta_job *j = ud;
	struct index_log *lg = j->lg;
	struct steps_model *m = lg->run->steps;
	delta_bodies(body, j);
	ob_u32(h, DELTA_TAG);
	ob_i64(h, lg->base.size);
	ob_i64(h, lg->base.mtime_ns);
	ob_i64(h, lg->base.ino);
	ob_u32(h, lg->seq + 1);
	size_t nm = steps_nmetrics(m);
	ob_u64(h, nm);
	for (size_t i = 0; i < nm; i++) {
		ob_u8(h, steps_metric(m, (int)i)->kind);
		ob_str(h, steps_metric(m, (int)i)->name);
	}
	ob_u64(h, j->nwhich);
	for (size_t k = 0; k < j->nwhich; k++)
		delta_entry_put(h, j, k);
	index_put_diags(h, lg->run_dir, lg->run, j->diag, 0, j->ndiag);
}

/* Write delta seq + 1 with the ranks that grew since the log's last commit. */
static int write_delta(struct index_log *lg, const size_t *recs, const long long *cov, char **path_out)
{
	struct delta_job j = { .lg = lg };
	size_t *which = xmalloc((lg->n ? lg->n : 1) * sizeof(*which));
	for (size_t i = 0; i < lg->n; i++)
		if (recs[i] != lg->saved[i] || cov[i] != lg->covered[i])
			which[j.nwhich++] = i;
	j.which = which;
	long *latest = xmalloc((j.nwhich ? j.nwhich : 1) * sizeof(*latest));
	index_sources_of(lg->run, lg->files, which, j.nwhich, latest, NULL);
	size_t *src = xmalloc((j.nwhich ? j.nwhich : 1) * sizeof(*src));
	for (size_t k = 0; k < j.nwhich; k++)
		src[k] = (size_t)latest[k];
	free(latest);
	j.src = src;
	size_t *diag = pick_diags(lg->run, lg->dir, lg->files, lg->n, lg->diag0, &j.ndiag);
	j.diag = diag;
	j.loc = xcalloc(j.nwhich ? j.nwhich : 1, sizeof(*j.loc));
	int err = 0;
	if (j.nwhich || j.ndiag) {
		char *path = delta_path(lg->dir, lg->seq + 1);
		err = index_file_write(path, fill_delta, &j);
		if (!err)
			lg->seq++;
		if (!err && path_out)
			*path_out = path;
		else
			free(path);
	}
	free(which);
	free(src);
	free(diag);
	free(j.loc);
	return err;
}

int index_log_save(struct index_log *lg, bool *rewrote, char **path_out)
{
	*rewrote = false;
	if (path_out)
		*path_out = NULL;
	size_t *recs = xmalloc((lg->n ? lg->n : 1) * sizeof(*recs));
	long long *cov = xmalloc((lg->n ? lg->n : 1) * sizeof(*cov));
	struct steps_rank_file *now = NULL;
	size_t nnow = index_plan(lg->run_dir, &now);
	bool same_plan = nnow == lg->n;
	for (size_t i = 0; i < nnow && same_plan; i++)
		same_plan = now[i].rank == lg->files[i].rank && strcmp(now[i].steps, lg->files[i].steps) == 0;
	steps_rank_files_free(now, nnow);
	index_mkdir_p(lg->dir);
	char *lock = xasprintf("%s/steps.lock", lg->dir);
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(lock);
	if (lfd >= 0)
		flock(lfd, LOCK_EX); /* one writer at a time (two followers of one run) */
	int err = EAGAIN;
	if (same_plan && log_now(lg, recs, cov)) {
		if (log_matches_index(lg) && lg->seq < lg->max) {
			err = write_delta(lg, recs, cov, path_out);
		} else {
			err = index_append(lg->run, lg->run_dir, path_out);
			*rewrote = err == 0;
			char *path = xasprintf("%s/steps-0-of-1.tsx", lg->dir);
			long *ids = NULL;
			struct index_extent *ext = NULL;
			size_t n;
			lg->checked = !err && extent_read_part(path, lg->run_dir, &lg->base, &ids, &ext, &n);
			free(ids);
			free(ext);
			free(path);
			lg->seq = 0;
		}
	}
	if (lfd >= 0)
		close(lfd);
	if (!err) {
		memcpy(lg->saved, recs, lg->n * sizeof(*recs));
		memcpy(lg->covered, cov, lg->n * sizeof(*cov));
		lg->diag0 = lg->run->diags.n;
	}
	free(recs);
	free(cov);
	return err;
}
