/* SPDX-License-Identifier: MIT */
/* follow_sources.c: a followed rank's files (follow_sources.h): their state on disk (the
 * window read last, run.json's stamp), and their source rows and diagnostics kept as a
 * fresh open would have them: replaced when the rank or its run.json is read again, the
 * notes that a file is missing or unreadable dropped once it reads, the row of one that
 * no longer reads marked so, the warning that a finished rank has no record as its log
 * fills or empties, the notes of a listing on what it leaves unread; a checksum of a
 * rank's records (a reload that gives the same records is no advance); the traces that
 * appear in a followed run dir or its rank dirs, and the DASF databases that appear in a
 * followed dir (said, not read). */
#include "model/steps/follow_sources.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/dasf/dasf.h"
#include "model/dirlist.h"
#include "model/index/codec.h"
#include "model/index/extent.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/steps/follow_private.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

enum { RANK_DIR_EVERY = 5 };   /* s: each followed rank dir is looked at at least once in that time */

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

void follow_take_window(int fd, struct ftail *t)
{
	long long at = t->tail ? steps_tail_offset(t->tail) : 0;
	t->win_at = follow_window_crc(fd, at, &t->win_crc) ? at : -1;
}

bool follow_window_holds(int fd, const struct ftail *t)
{
	uint32_t crc;
	return follow_window_crc(fd, t->win_at, &crc) && crc == t->win_crc;
}

void follow_window_from_load(struct run *run, long si, struct ftail *t)
{
	pthread_mutex_lock(&run->lock);
	const struct source_stamp *s = &run->src[si].stamp;
	if (s->set && s->windows && s->consumed > 0 && s->consumed == steps_tail_offset(t->tail)) {
		t->win_at = s->consumed;
		t->win_crc = s->tail_crc;
	}
	pthread_mutex_unlock(&run->lock);
	int fd = t->win_at < 0 ? infile_open(t->steps) : -1;
	if (fd >= 0) {
		follow_take_window(fd, t);
		close(fd);
	}
}

void follow_meta_note(struct ftail *t, const struct steps_meta *meta)
{
	if (meta && meta->stamped) {
		t->meta_size = meta->stamp_size;
		t->meta_mtime = meta->stamp_mtime_ns;
	} else {
		follow_meta_stat(t->dir, &t->meta_size, &t->meta_mtime);
	}
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

void follow_mark_unread(struct run *run, struct ftail *t, int err, const char *what)
{
	t->unread = true;
	diag_add(&run->diags, DIAG_ERROR, t->steps, -1, -1, (int)t->rank, "%s: %s", what, infile_strerror(err));
	follow_source_failed(run, t->steps, err);
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

/* The warning of rank about the file path that it holds no record (steps_is_log_missing). */
static bool log_missing_of(const struct diag *d, const void *ud)
{
	const struct diag_match *m = ud;
	return d->rank == m->rank && d->file && strcmp(d->file, m->path) == 0 && steps_is_log_missing(d);
}

void follow_note_no_records(struct run *run, struct ftail *t)
{
	if (!t->no_records && t->records)
		return;   /* the common case: records read, no warning */
	if ((t->unread && !t->err_seen) || (t->tail && t->seen < t->size))
		return;   /* missing (as the load or the rank dir gone left it), or not read to its end yet */
	const struct steps_model *m = run->steps;
	long ri = m ? steps_rank_index(m, (int)t->rank) : -1;
	const struct steps_meta *meta = ri >= 0 ? steps_rank_meta(m, (size_t)ri) : NULL;
	bool want = meta && !t->unread && steps_nrecords(m, (size_t)ri) == 0 && steps_meta_finished(meta);
	if (want == t->no_records)
		return;
	t->no_records = want;
	struct diag_match dm = { t->steps, t->rank, false };
	diag_remove_if(&run->diags, log_missing_of, &dm);
	if (want)
		steps_log_missing(run, meta, (int)t->rank, t->steps);
}

/* A note of steps_plan() about a file directly in the directory ud. */
static bool plan_note_in(const struct diag *d, const void *ud)
{
	const char *dir = ud;
	size_t k = strlen(dir);
	return d->family == steps_plan_tag && d->file && strncmp(d->file, dir, k) == 0 && d->file[k] == '/' &&
	       !strchr(d->file + k + 1, '/');
}

size_t follow_list_path(struct run *run, const char *path, struct steps_rank_file **out)
{
	struct task_list t = { 0 };
	struct diag_list notes;
	diag_list_init(&notes);
	steps_plan(path, &t, &notes);
	size_t n = steps_tasks_files(&t, out);
	steps_tasks_free(&t);
	diag_remove_if(&run->diags, plan_note_in, path);
	size_t had = run->diags.n;
	for (size_t i = 0; i < notes.n; i++) {
		const struct diag *d = &notes.v[i];
		diag_add(&run->diags, d->level, d->file, d->line, d->offset, d->rank, "%s", d->msg);
	}
	diag_tag(&run->diags, had, steps_plan_tag);
	diag_list_free(&notes);
	return n;
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

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The paths the run read (its sources, whatever the family) and the traces said to have
 * appeared, sorted for trace_known (xmalloc'd; *n of them). */
static const char **known_paths(const struct follow *f, size_t *n)
{
	const char **v = xmalloc((f->run->nsrc + f->ntraces + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < f->run->nsrc; i++)
		v[(*n)++] = f->run->src[i].path;
	for (size_t i = 0; i < f->ntraces; i++)
		v[(*n)++] = f->traces[i];
	qsort(v, *n, sizeof(*v), cmp_path);
	return v;
}

static bool trace_known(const char **known, size_t nknown, const char *path)
{
	return bsearch(&path, known, nknown, sizeof(*known), cmp_path) != NULL;
}

/* Of v[0, n) (xmalloc'd strings, taken), those not read nor said before are kept as said
 * (dasf: DASF databases, counted apart) and said once, in one event (id) naming the
 * first; what: "trace", "DASF database"; how: how to read them. */
static void note_new(struct follow *f, char **v, size_t n, const char *id, const char *what, const char *how,
		     bool dasf)
{
	if (!n) {   /* (no sort of the known paths at every poll) */
		free(v);
		return;
	}
	size_t nknown, fresh = 0;
	const char *first = NULL;
	const char **known = known_paths(f, &nknown); /* a listing of 10,000 traces: no n x m compare */
	for (size_t k = 0; k < n; k++) {
		if (trace_known(known, nknown, v[k])) {
			free(v[k]);
			continue;
		}
		xgrow((void **)&f->traces, &f->traces_cap, f->ntraces + 1, sizeof(*f->traces));
		f->traces[f->ntraces++] = v[k];
		first = first ? first : v[k];
		fresh++;
	}
	free(v);
	free(known);
	f->ndasf += dasf ? fresh : 0;
	char text[sizeof(f->ev.last)];
	if (fresh == 1)
		snprintf(text, sizeof(text), "%s %s appeared while following; %s it", what, first, how);
	else if (fresh)
		snprintf(text, sizeof(text), "%zu %ss appeared while following (%s, ...); %s them", fresh, what, first,
			 how);
	if (fresh)
		follow_event(&f->ev, id, SEV_LOW, -1, NULL, text);
}

/* The DASF databases a load of dir PATH reads (model/run.c: its loader claims the
 * PATH, unless --format names another family). */
static void list_dasf(const struct opts *o, const char *path, char ***v, size_t *n)
{
	*v = NULL;
	*n = 0;
	if ((!o || !o->format || strcmp(o->format, "dasf") == 0) && dasf_probe(path, o) > 0)
		dasf_dir_files(path, v, n);
}

static const char trace_how[] = "--follow and R read the step logs only: open the run again to read";

void follow_note_new_files(struct follow *f, size_t i)
{
	const struct opts *o = f->run->opts;
	const char *path = f->p[i].path;
	if (!steps_is_dir(path))
		return;
	char **v;
	size_t n;
	if (!o || o->ntrace == 0) {   /* --trace: the traces named are the run's only ones */
		trace_list_files(path, &v, &n);
		note_new(f, v, n, "LIVE.NEW_TRACE", "trace", trace_how, false);
	}
	char how[sizeof(f->ev.last)];
	snprintf(how, sizeof(how), "--follow and R read step logs and sweeps only: open %s without --follow to read",
		 path);
	list_dasf(o, path, &v, &n);
	note_new(f, v, n, "LIVE.NEW_DASF", "DASF database", how, true);
}

/* Look at t's rank dir (not its PATH itself); first: only take its mtime (its traces
 * then are the load's, or said with its PATH's). One whose mtime changed is listed: its
 * traces go to *all (*nall of them, *cap room). */
static void look_rank_dir(struct follow *f, struct ftail *t, bool first, char ***all, size_t *nall, size_t *cap)
{
	const char *path = f->p[t->path].path;
	struct stat st;
	if (t->gone || strcmp(t->dir, path) == 0 || stat(t->dir, &st) != 0 || infile_mtime_ns(&st) == t->dir_mtime)
		return;
	t->dir_mtime = infile_mtime_ns(&st);
	char **v;
	size_t n;
	if (first)
		return;
	trace_list_rank_dir(path, t->dir, &v, &n);
	if (n) {
		xgrow((void **)all, cap, *nall + n, sizeof(**all));
		memcpy(*all + *nall, v, n * sizeof(*v));
		*nall += n;
	}
	free(v);
}

void follow_note_rank_traces(struct follow *f, double now)
{
	const struct opts *o = f->run->opts;
	if ((o && o->ntrace > 0) || !f->nt)
		return;
	char **all = NULL;
	size_t nall = 0, cap = 0;
	for (size_t k = 0; k < f->nt; k++)   /* (no syscall but for a tail new here) */
		if (f->t[k].dir_mtime == 0)
			look_rank_dir(f, &f->t[k], true, &all, &nall, &cap);
	/* each once in T/4 or 5 s, whichever is shorter (T the stall threshold): a trace written
	 * before the job's end is seen before the job is judged finished */
	double every = f->threshold / 4 < RANK_DIR_EVERY ? f->threshold / 4 : RANK_DIR_EVERY;
	double share = every > 0 ? (now - f->dir_at) / every : 1;
	size_t due = share >= 1 ? f->nt : share > 0 ? (size_t)ceil(share * (double)f->nt) : 0;
	f->dir_at = now;
	for (size_t k = 0; k < due; k++)
		look_rank_dir(f, &f->t[(f->dir_next + k) % f->nt], false, &all, &nall, &cap);
	f->dir_next = (f->dir_next + due) % f->nt;
	note_new(f, all, nall, "LIVE.NEW_TRACE", "trace", trace_how, false);
}
