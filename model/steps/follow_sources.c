/* SPDX-License-Identifier: MIT */
/* follow_sources.c: a followed rank's files (follow_sources.h): their state on disk, and
 * their source rows and diagnostics kept as a fresh open would have them: replaced when
 * the rank or its run.json is read again, the notes that a file is missing or unreadable
 * dropped once it reads, the row of one that no longer reads marked so; a checksum of a
 * rank's records (a reload that gives the same records is no advance). */
#include "model/steps/follow_sources.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/dirlist.h"
#include "model/index/codec.h"
#include "model/index/extent.h"
#include "model/index/index.h"
#include "model/infile.h"

double follow_mtime_age(const struct stat *st)
{
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	double age = (double)(wall.tv_sec - st->st_mtim.tv_sec) + (double)(wall.tv_nsec - st->st_mtim.tv_nsec) / 1e9;
	return age > 0 ? age : 0;
}

bool follow_window_crc(int fd, long long at, uint32_t *crc)
{
	unsigned char buf[EXTENT_WINDOW];
	size_t w = at < EXTENT_WINDOW ? (size_t)at : EXTENT_WINDOW;
	if (at <= 0 || !index_pread_all(fd, buf, w, at - (long long)w))
		return false;
	*crc = index_crc32(0, buf, w);
	return true;
}

void follow_meta_stat(const char *dir, long long *size, long long *mtime)
{
	char *path = dirlist_path(dir, "run.json");
	struct stat st;
	bool ok = stat(path, &st) == 0;
	*size = ok ? (long long)st.st_size : -1;
	*mtime = ok ? infile_mtime_ns(&st) : 0;
	free(path);
}

long follow_source_of(const struct run *run, const char *path)
{
	for (size_t i = run->nsrc; i-- > 0;)
		if (run->src[i].format && strcmp(run->src[i].format, "pytscope") == 0 &&
		    strcmp(run->src[i].path, path) == 0)
			return (long)i;
	return -1;
}

void follow_source_failed(struct run *run, const char *path, int err)
{
	long si = follow_source_of(run, path);
	if (si < 0)
		return;
	pthread_mutex_lock(&run->lock);
	run->src[si].err = err;
	pthread_mutex_unlock(&run->lock);
}

/* FNV-1a over the n bytes at p. */
static uint64_t sum_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

uint64_t follow_records_sum(const struct steps_model *m, size_t ri)
{
	size_t n = steps_nrecords(m, ri), nmetric = steps_nmetrics(m);
	uint64_t h = sum_bytes(1469598103934665603ULL, &n, sizeof(n));
	for (size_t pos = 0; pos < n; pos++) {
		long step = steps_step(m, ri, pos);
		double v;
		bool has = steps_timestamp(m, ri, pos, &v);
		h = sum_bytes(h, &step, sizeof(step));
		h = has ? sum_bytes(h, &v, sizeof(v)) : sum_bytes(h, "-", 1);
		for (int id = 0; (size_t)id < nmetric; id++)   /* ids are dense: 0 .. nmetric - 1 */
			if (steps_value(m, ri, id, pos, &v)) {
				h = sum_bytes(h, &id, sizeof(id));
				h = sum_bytes(h, &v, sizeof(v));
			}
	}
	return h;
}

/* Which diagnostics go: those of rank about the file path, every one or only those that
 * say the file is missing or unreadable (about the whole file, not a warning). */
struct diag_match {
	const char *path;
	long rank;
	bool unreadable_only;
};

static bool diag_matches(const struct diag *d, const void *ud)
{
	const struct diag_match *m = ud;
	if (d->rank != m->rank || !d->file || strcmp(d->file, m->path) != 0)
		return false;
	return !m->unreadable_only || (d->line < 0 && d->offset < 0 && d->level != DIAG_WARN);
}

void follow_drop_diags(struct run *run, const char *path, long rank)
{
	struct diag_match m = { path, rank, false };
	diag_remove_if(&run->diags, diag_matches, &m);
}

void follow_file_readable(struct run *run, const char *path, long rank)
{
	struct diag_match m = { path, rank, true };
	diag_remove_if(&run->diags, diag_matches, &m);
}

/* A source read at one of the paths ud (a NULL-terminated array). */
static bool source_at(const struct source *s, const void *ud)
{
	for (const char *const *p = ud; *p; p++)
		if (s->format && strcmp(s->format, "pytscope") == 0 && strcmp(s->path, *p) == 0)
			return true;
	return false;
}

void follow_read_meta(struct run *run, const char *dir, long rank, struct steps_meta *meta, bool again)
{
	if (!again) {
		steps_load_meta(run, dir, (int)rank, meta);
		return;
	}
	char *path = dirlist_path(dir, "run.json");
	const char *paths[] = { path, NULL };
	follow_drop_diags(run, path, rank);
	size_t had = run->nsrc;
	steps_load_meta(run, dir, (int)rank, meta);
	run_replace_sources(run, had, source_at, paths);
	free(path);
}

void follow_forget_files(struct run *run, const char *dir, long rank)
{
	char *steps = dirlist_path(dir, "steps.jsonl"), *meta = dirlist_path(dir, "run.json");
	const char *paths[] = { steps, meta, NULL };
	follow_drop_diags(run, steps, rank);
	follow_drop_diags(run, meta, rank);
	run_replace_sources(run, run->nsrc, source_at, paths);
	free(steps);
	free(meta);
}

struct steps_tail *follow_tail_restart(struct load_ctx *ctx, long rank, const char *steps, long long size,
				       bool slot)
{
	long si = slot ? follow_source_of(ctx->run, steps) : -1;
	if (si < 0)
		return steps_tail_new(ctx, (int)rank, steps, size);
	run_source_reread(ctx->run, (size_t)si, size);
	return steps_tail_resume(ctx, (size_t)si);
}
