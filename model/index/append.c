/* SPDX-License-Identifier: MIT */
/* append.c: writing what a run read beyond its index back into it: index_append()
 * rewrites the index whole from the run (every rank's body encoded again), atomically,
 * with each rank's sources as a plain load has them (its run.json's, its steps.jsonl's
 * latest) and the diagnostics of its files (after an open that parsed the tails of
 * grown sources); the index log (index.h DELTAS) appends a
 * follower's new records as delta segments (delta.h) to each part of the index, whole
 * or sharded, and compacts a part by rewriting that part alone from the run.
 *
 * Why a sharded index stays sharded when a follower compacts it: a part is rewritten
 * at the cost of its own ranks, not the run's (the save costs what changed, and a
 * compaction a 1/N share of the run); a shard that is missing or failed stays missing
 * and is still named at each open (its job may be queued or running: Slurm builds it,
 * not the follower), where rewriting the run as one part would have removed the other
 * parts and their summary inputs; and a shard built again later (`index --shard K/N`)
 * replaces its part only, beside the parts the follower kept. */
#include "model/index/index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/delta.h"
#include "model/infile.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

static bool in_plan(const struct steps_rank_file *files, size_t n, long rank)
{
	return steps_rank_files_find(files, n, rank) != NULL;
}

/* The pytscope sources by path: per path the latest source (the highest index in
 * run->src) and how many there are. Open addressing over a power of two of slots, at
 * least 1.5 times the sources, by the hash each source took when it was added; a slot
 * is 16 bytes and a source's path is read only when the hashes match (at 10,000 ranks a
 * table of pointers and counts was 2 MB of new pages, a fault each 4 KB). */
struct src_slot {
	uint64_t hash;
	uint32_t latest1;     /* the latest source + 1; 0: empty */
	uint32_t count;
};

struct src_table {
	struct src_slot *slot;
	size_t mask;
	const struct run *run;
};

/* The slot of path: its entry, or the empty slot where it goes. */
static struct src_slot *src_find(const struct src_table *t, const char *path, uint64_t h)
{
	for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
		struct src_slot *s = &t->slot[i];
		if (!s->latest1 || (s->hash == h && strcmp(t->run->src[s->latest1 - 1].path, path) == 0))
			return s;
	}
}

static void src_table_build(struct src_table *t, const struct run *run)
{
	size_t cap = 16;
	while (cap < run->nsrc + run->nsrc / 2)
		cap *= 2;
	t->slot = xmalloc(cap * sizeof(*t->slot));
	memset(t->slot, 0, cap * sizeof(*t->slot)); /* written once: no zero page mapped, then copied */
	t->mask = cap - 1;
	t->run = run;
	for (size_t i = 0; i < run->nsrc && i < UINT32_MAX; i++) { /* (4 G sources: no run has) */
		const struct source *src = &run->src[i];
		if (!src->format || strcmp(src->format, "pytscope") != 0)
			continue;
		struct src_slot *s = src_find(t, src->path, src->path_hash);
		s->hash = src->path_hash;
		s->latest1 = (uint32_t)i + 1;
		s->count++;
	}
}

void index_sources_of(struct run *run, const struct steps_rank_file *files, const size_t *which, size_t n,
		      long *latest, size_t *count)
{
	pthread_mutex_lock(&run->lock);
	struct src_table t;
	src_table_build(&t, run);
	for (size_t i = 0; i < n; i++) {
		const char *path = files[which ? which[i] : i].steps;
		const struct src_slot *s = src_find(&t, path, run_path_hash(path));
		latest[i] = (long)s->latest1 - 1;
		if (count)
			count[i] = s->count;
	}
	free(t.slot);
	pthread_mutex_unlock(&run->lock);
}

/* The sources of each file as a plain load has them: its run.json's (the latest; none
 * when absent) and its steps.jsonl's; false when a steps.jsonl has several (its rank was
 * reloaded: what the run holds is not one read of the file). */
static bool pick_sources(struct run *run, const struct steps_rank_file *files, size_t n, size_t **out,
			 size_t *nout)
{
	size_t *v = xmalloc((2 * n + 1) * sizeof(*v)), k = 0;
	bool ok = true;
	pthread_mutex_lock(&run->lock);
	struct src_table t;
	src_table_build(&t, run);
	for (size_t i = 0; i < n && ok; i++) {
		char *meta = xasprintf("%s/run.json", files[i].dir);
		const struct src_slot *m = src_find(&t, meta, run_path_hash(meta));
		const struct src_slot *s = src_find(&t, files[i].steps, run_path_hash(files[i].steps));
		free(meta);
		ok = s->count <= 1;
		if (m->latest1)
			v[k++] = m->latest1 - 1;
		if (s->latest1)
			v[k++] = s->latest1 - 1;
	}
	free(t.slot);
	pthread_mutex_unlock(&run->lock);
	*out = v;
	*nout = k;
	return ok;
}

/* The diagnostics added as seq `from` or later (diag_since) about the plan's ranks, not
 * about the index itself. */
static size_t *pick_diags(const struct run *run, const char *index_dir, const struct steps_rank_file *files,
			  size_t n, size_t from, size_t *nout)
{
	size_t dlen = strlen(index_dir), k = 0;
	size_t *v = xmalloc((run->diags.n ? run->diags.n : 1) * sizeof(*v));
	for (size_t i = diag_since(&run->diags, from); i < run->diags.n; i++) {
		const struct diag *d = &run->diags.v[i];
		if (d->rank < 0 || !d->file || !in_plan(files, n, d->rank) ||
		    (strncmp(d->file, index_dir, dlen) == 0 && (d->file[dlen] == '/' || !d->file[dlen])))
			continue;
		v[k++] = i;
	}
	*nout = k;
	return v;
}

/* Rewrite part k of n (files[lo, hi), sorted by id) from the run: every rank of the
 * slice in the run, read from one source each (else EAGAIN), compacted first. */
static int write_part(struct run *run, const char *run_dir, const struct steps_rank_file *files, unsigned k,
		      unsigned n, size_t lo, size_t hi, char **path_out)
{
	struct steps_model *m = run->steps;
	bool whole = hi > lo;
	for (size_t i = lo; i < hi && whole; i++)
		whole = steps_rank_index(m, (int)files[i].rank) >= 0;
	size_t *src = NULL, nsrc = 0;
	int err = EAGAIN;
	if (whole && pick_sources(run, files + lo, hi - lo, &src, &nsrc)) {
		for (size_t i = lo; i < hi; i++)
			steps_rank_settle(m, (size_t)steps_rank_index(m, (int)files[i].rank));
		char *dir = index_dir_for(run_dir);
		size_t ndiag;
		size_t *diag = pick_diags(run, dir, files + lo, hi - lo, 0, &ndiag);
		struct index_pick pick = { src, nsrc, diag, ndiag };
		err = index_write_pick(run, run_dir, k, n, files, lo, hi, &pick, path_out);
		free(diag);
		free(dir);
	}
	free(src);
	return err;
}

int index_append(struct run *run, const char *run_dir, char **path_out)
{
	if (path_out)
		*path_out = NULL;
	if (!run->steps)
		return EINVAL;
	struct steps_rank_file *files = NULL;
	size_t n = index_plan(run_dir, &files);
	int err = write_part(run, run_dir, files, 0, 1, 0, n, path_out);
	steps_rank_files_free(files);
	return err;
}

/* ---- the index log: delta segments ---------------------------------------------------- */

/* A part of the index as the log last saw it. */
struct log_part {
	struct index_file_id base;       /* the part file then */
	unsigned seq;                    /* deltas on it */
	bool checked;                    /* it holds saved/covered of its slice */
	size_t diag0;                    /* run->diags added before this seq are in it (its ranks') */
};

struct index_log {
	struct run *run;
	char *run_dir, *dir;
	struct steps_rank_file *files;   /* the plan when the log began, sorted by rank id */
	size_t n;
	size_t *saved;                   /* records of files[i]'s rank the index holds */
	long long *covered;              /* bytes of its steps.jsonl the index covers (-1: it has none) */
	bool *held;                      /* saved/covered[i] are known (the rank was in the run) */
	size_t diag_begin;               /* the seq of the first diagnostic added after the log began */
	unsigned nparts;                 /* the shard count of the parts below (0: none seen) */
	struct log_part *part;
	unsigned max;
};

/* What the run holds now, per file: records and covered bytes (-1: the rank has no
 * steps.jsonl, a rank dir with run.json alone: no source, as the index's extent of an
 * absent file says); ok[i] false when the rank is missing, was read twice (reloaded) or
 * its source failed. */
static void log_now(struct index_log *lg, size_t *recs, long long *cov, bool *ok)
{
	struct steps_model *m = lg->run->steps;
	long *src = xmalloc((lg->n ? lg->n : 1) * sizeof(*src));
	size_t *count = xmalloc((lg->n ? lg->n : 1) * sizeof(*count));
	index_sources_of(lg->run, lg->files, NULL, lg->n, src, count);
	pthread_mutex_lock(&lg->run->lock);
	for (size_t i = 0; i < lg->n; i++) {
		long ri = m ? steps_rank_index(m, (int)lg->files[i].rank) : -1;
		bool none = count[i] == 0; /* the loader's "no steps.jsonl" */
		ok[i] = ri >= 0 && (none || (count[i] == 1 && !lg->run->src[src[i]].err));
		recs[i] = ok[i] ? steps_nrecords(m, (size_t)ri) : 0;
		cov[i] = ok[i] && !none ? lg->run->src[src[i]].consumed : -1;
	}
	pthread_mutex_unlock(&lg->run->lock);
	free(src);
	free(count);
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
	lg->held = xcalloc(lg->n ? lg->n : 1, sizeof(*lg->held));
	lg->max = index_delta_max();
	log_now(lg, lg->saved, lg->covered, lg->held);
	lg->diag_begin = run->diags.added;
	return lg;
}

void index_log_end(struct index_log *lg)
{
	if (!lg)
		return;
	steps_rank_files_free(lg->files);
	free(lg->saved);
	free(lg->covered);
	free(lg->held);
	free(lg->part);
	free(lg->run_dir);
	free(lg->dir);
	free(lg);
}

static bool same_id(const struct index_file_id *a, const struct index_file_id *b)
{
	return a->size == b->size && a->mtime_ns == b->mtime_ns && a->ino == b->ino;
}

/* The file at path as it is now (size, mtime, inode); false when absent. */
static bool id_now(const char *path, struct index_file_id *id)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	*id = (struct index_file_id){ (long long)st.st_size,
				      infile_mtime_ns(&st),
				      (long long)st.st_ino, 0 };
	return true;
}

enum part_state {
	PART_MATCHES,   /* holds what the log saved for its slice: deltas go on it */
	PART_DIFFERS,   /* a valid part that does not (written by someone else, stale): rewrite it */
	PART_UNUSABLE   /* missing, damaged, another shard */
};

/* Part k of lg->nparts (files[lo, hi)) against what the log last saved of its slice. */
static enum part_state log_part_state(struct index_log *lg, unsigned k, size_t lo, size_t hi)
{
	struct log_part *p = &lg->part[k];
	unsigned N = lg->nparts;
	char *path = xasprintf("%s/steps-%u-of-%u.tsx", lg->dir, k, N);
	struct index_file_id id;
	unsigned nd = delta_count(lg->dir, k, N);
	if (p->checked) { /* what this log wrote last, unless someone else wrote since */
		if (id_now(path, &id) && same_id(&id, &p->base) && nd == p->seq) {
			free(path);
			return PART_MATCHES;
		}
		p->checked = false;
	}
	long *ids;
	struct index_extent *ext;
	size_t n;
	bool readable = extent_read_part(path, lg->run_dir, k, N, &id, &ids, &ext, &n);
	free(path);
	bool ok = readable && n == hi - lo;
	if (ok) {
		struct delta_set *ds = delta_set_read(NULL, lg->dir, k, N, lg->run_dir, &id, nd);
		ok = delta_set_count(ds) == nd;
		for (size_t i = 0; i < n && ok; i++) {
			const struct index_extent *moved = delta_set_extent(ds, ids[i]);
			ok = ids[i] == lg->files[lo + i].rank && lg->held[lo + i] &&
			     (moved ? moved : &ext[i])->covered == lg->covered[lo + i];
		}
		delta_set_free(ds);
	}
	free(ids);
	free(ext);
	if (!ok)
		return readable ? PART_DIFFERS : PART_UNUSABLE;
	p->base = id;
	p->seq = nd;
	p->checked = true;
	return PART_MATCHES;
}

struct delta_job {
	struct index_log *lg;
	unsigned k;                      /* the part it extends */
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
		index_body_begin(body, loc);
		steps_rank_encode_delta(m, (size_t)ri, j->lg->saved[i], body);
		index_body_end(body, loc);
	}
}

static void delta_entry_put(struct obuf *h, const struct delta_job *j, size_t k)
{
	struct run *run = j->lg->run;
	struct steps_model *m = run->steps;
	size_t i = j->which[k];
	const struct steps_rank_file *f = &j->lg->files[i];
	ob_svar(h, f->rank);
	ob_uvar(h, j->lg->saved[i]);
	extent_put(h, run, f->steps);
	pthread_mutex_lock(&run->lock);
	struct source s = run->src[j->src[k]];
	pthread_mutex_unlock(&run->lock);
	ob_source_counts(h, &s);
	steps_rank_encode_shell(m, (size_t)steps_rank_index(m, (int)f->rank), -1, j->lg->run_dir, h);
	ob_uvar(h, j->loc[k].off);
	ob_uvar(h, j->loc[k].len);
	ob_u32(h, j->loc[k].crc);
}

static void fill_delta(struct obuf *o, void *ud)
{
	const struct delta_job *j = ud;
	struct index_log *lg = j->lg;
	const struct log_part *p = &lg->part[j->k];
	struct steps_model *m = lg->run->steps;
	delta_bodies(o, j);
	ob_head(o);
	ob_u32(o, DELTA_TAG);
	ob_svar(o, p->base.size);
	ob_svar(o, p->base.mtime_ns);
	ob_svar(o, p->base.ino);
	ob_u32(o, p->seq + 1);
	index_metrics_put(o, m);
	ob_uvar(o, j->nwhich);
	for (size_t k = 0; k < j->nwhich; k++)
		delta_entry_put(o, j, k);
	index_put_diags(o, lg->run_dir, lg->run, j->diag, 0, j->ndiag);
}

/* Write delta seq + 1 of part k (files[lo, hi), slice_changed) with its ranks that grew
 * since the log's last commit and the diagnostics added about them. */
static int write_delta(struct index_log *lg, unsigned k, size_t lo, size_t hi, const size_t *recs,
		       const long long *cov, char **path_out)
{
	struct log_part *p = &lg->part[k];
	struct delta_job j = { .lg = lg, .k = k };
	size_t *which = xmalloc((hi - lo ? hi - lo : 1) * sizeof(*which));
	for (size_t i = lo; i < hi; i++)
		if (recs[i] != lg->saved[i] || cov[i] != lg->covered[i])
			which[j.nwhich++] = i;
	j.which = which;
	long *latest = xmalloc((j.nwhich ? j.nwhich : 1) * sizeof(*latest));
	index_sources_of(lg->run, lg->files, which, j.nwhich, latest, NULL);
	size_t *src = xmalloc((j.nwhich ? j.nwhich : 1) * sizeof(*src));
	for (size_t x = 0; x < j.nwhich; x++)
		src[x] = (size_t)latest[x];
	free(latest);
	j.src = src;
	size_t *diag = pick_diags(lg->run, lg->dir, lg->files + lo, hi - lo, p->diag0, &j.ndiag);
	j.diag = diag;
	j.loc = xcalloc(j.nwhich ? j.nwhich : 1, sizeof(*j.loc));
	char *path = delta_path(lg->dir, k, lg->nparts, p->seq + 1);
	int err = index_file_write(path, fill_delta, &j);
	if (!err)
		p->seq++;
	if (!err && path_out && !*path_out)
		*path_out = path;
	else
		free(path);
	free(which);
	free(src);
	free(diag);
	free(j.loc);
	return err;
}

/* Part k's slice (files[lo, hi)) has something the index does not: a rank grew, or a
 * diagnostic about one of its ranks was added. */
static bool slice_changed(const struct index_log *lg, unsigned k, size_t lo, size_t hi, const size_t *recs,
			  const long long *cov)
{
	for (size_t i = lo; i < hi; i++)
		if (recs[i] != lg->saved[i] || cov[i] != lg->covered[i])
			return true;
	size_t nd;
	free(pick_diags(lg->run, lg->dir, lg->files + lo, hi - lo, lg->part[k].diag0, &nd));
	return nd > 0;
}

/* A rank of files[lo, hi) changed since the log's last save with no steps.jsonl source
 * then or now (its file appeared, and a follower read it): a delta cannot carry it (an
 * open applies a delta's counts to the rank's steps.jsonl source, which the part does
 * not hold), its part is rewritten. */
static bool slice_changed_sourceless(const struct index_log *lg, size_t lo, size_t hi, const size_t *recs,
				     const long long *cov)
{
	for (size_t i = lo; i < hi; i++)
		if ((lg->covered[i] < 0 || cov[i] < 0) && (recs[i] != lg->saved[i] || cov[i] != lg->covered[i]))
			return true;
	return false;
}

/* Rewrite part k (files[lo, hi)) from the run: a compaction, or a part that does not
 * hold what the log saved. Its deltas go (index_write_spec). */
static int rewrite_part(struct index_log *lg, unsigned k, size_t lo, size_t hi, char **path_out)
{
	char *written = NULL;
	int err = write_part(lg->run, lg->run_dir, lg->files, k, lg->nparts, lo, hi, &written);
	struct log_part *p = &lg->part[k];
	long *ids = NULL;
	struct index_extent *ext = NULL;
	size_t n;
	p->checked = !err && extent_read_part(written, lg->run_dir, k, lg->nparts, &p->base, &ids, &ext, &n);
	p->seq = 0;
	free(ids);
	free(ext);
	if (path_out && !*path_out)
		*path_out = written;
	else
		free(written);
	return err;
}

/* Save part k of the log's parts: a delta, a compaction or a rewrite; EAGAIN when a
 * rank of its slice is not in the run as one source, ENOENT when the part is missing
 * or damaged (a shard not built: left to its job; the open names it). */
static int save_part(struct index_log *lg, unsigned k, const size_t *recs, const long long *cov,
		     const bool *ok, bool *rewrote, char **path_out)
{
	size_t lo, hi;
	index_shard_slice(lg->n, k, lg->nparts, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		if (!ok[i])
			return EAGAIN;
	enum part_state st = log_part_state(lg, k, lo, hi);
	if (st == PART_UNUSABLE && lg->nparts > 1)
		return ENOENT;
	if (st == PART_MATCHES && !slice_changed(lg, k, lo, hi, recs, cov))
		return 0; /* nothing to write (a part at its last delta waits for new records) */
	if (st == PART_MATCHES && lg->part[k].seq < lg->max && !slice_changed_sourceless(lg, lo, hi, recs, cov))
		return write_delta(lg, k, lo, hi, recs, cov, path_out);
	int err = rewrite_part(lg, k, lo, hi, path_out);
	*rewrote = *rewrote || !err;
	return err;
}

int index_log_save(struct index_log *lg, bool *rewrote, char **path_out)
{
	*rewrote = false;
	if (path_out)
		*path_out = NULL;
	struct steps_rank_file *now = NULL;
	size_t nnow = index_plan(lg->run_dir, &now);
	bool same_plan = nnow == lg->n;
	for (size_t i = 0; i < nnow && same_plan; i++)
		same_plan = now[i].rank == lg->files[i].rank && strcmp(now[i].steps, lg->files[i].steps) == 0;
	steps_rank_files_free(now);
	if (!same_plan || !lg->run->steps)
		return EAGAIN;
	size_t *recs = xmalloc((lg->n ? lg->n : 1) * sizeof(*recs));
	long long *cov = xmalloc((lg->n ? lg->n : 1) * sizeof(*cov));
	bool *ok = xmalloc((lg->n ? lg->n : 1) * sizeof(*ok));
	log_now(lg, recs, cov, ok);
	index_mkdir_p(lg->dir);
	char *lock = xasprintf("%s/steps.lock", lg->dir);
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(lock);
	if (lfd >= 0)
		flock(lfd, LOCK_EX); /* one writer at a time (two followers of one run) */
	bool found = false;
	unsigned N = index_newest_count(lg->dir, "steps", &found);
	if (N != lg->nparts) { /* none yet, or the index was built again with another count */
		free(lg->part);
		lg->nparts = N ? N : 1; /* no index at all: write it whole */
		lg->part = xcalloc(lg->nparts, sizeof(*lg->part));
		for (unsigned k = 0; k < lg->nparts; k++)
			lg->part[k].diag0 = lg->diag_begin;
	}
	int err = 0;
	size_t ndiag = lg->run->diags.added;
	for (unsigned k = 0; k < lg->nparts; k++) {
		int e = save_part(lg, k, recs, cov, ok, rewrote, path_out);
		if (e == ENOENT)
			continue;
		err = err ? err : e;
		if (e)
			continue;
		size_t lo, hi;
		index_shard_slice(lg->n, k, lg->nparts, &lo, &hi);
		for (size_t i = lo; i < hi; i++) { /* this slice is in the index as the run holds it */
			lg->saved[i] = recs[i];
			lg->covered[i] = cov[i];
			lg->held[i] = ok[i];
		}
		lg->part[k].diag0 = ndiag;
	}
	if (lfd >= 0)
		close(lfd);
	free(recs);
	free(cov);
	free(ok);
	return err;
}
