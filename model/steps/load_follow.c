/* SPDX-License-Identifier: MIT */
/* load_follow.c: following a running pytscope job (see follow.h for the contract and the
 * stall rule): the PATHs the run's load read, per-rank tails polled with stat/pread,
 * ranks that appear later (a rank id taken by a later rank dir), reloads of shrunk,
 * replaced or rewritten files (their records compared with those they replace), files
 * replaced by what cannot be read, run.json read again when it appears or changes, a run
 * dir's own steps.jsonl dropped once rank dirs appear, rank dirs that vanish and come
 * back, stall detection and the live findings. The follower's state is
 * follow_private.h's; the source rows and diagnostics those reads leave, and traces and
 * DASF databases that appear (said, not read), are follow_sources.c's; the events said,
 * follow_events.c's; the index appends, follow_index.c's; a sweep's reloads, follow_sweep.c's;
 * the state read back (follow.h's getters), follow_state.c's. */
#include "model/infile.h"
#include "model/steps/follow_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/ranklist.h"
#include "model/steps/follow_judge.h"
#include "model/steps/follow_sources.h"
#include "model/xalloc.h"

enum { META_EVERY = 5 };

bool follow_applies(const struct run *run)
{
	static const char *const grown[] = { "pytscope", "genai-perf", "nat" };   /* a sweep: a level at a time */
	for (size_t i = 0; i < run->nsrc; i++)
		for (size_t k = 0; k < ARRAY_LEN(grown); k++)
			if (run->src[i].format && strcmp(run->src[i].format, grown[k]) == 0)
				return true;
	return run->nsrc == 0 || run_is_empty(run);   /* no file yet: rank dirs made before their first file */
}

double follow_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- events --------------------------------------------------------------------- */

/* An event (follow_events.h): the text from fmt; kind, the same without what differs from
 * rank to rank, folds many of one poll into one entry. */
static void event(struct follow *f, const char *id, enum severity sev, long rank, const char *kind,
		  const char *fmt, ...) PRINTF_LIKE(6, 7);

static void event(struct follow *f, const char *id, enum severity sev, long rank, const char *kind,
		  const char *fmt, ...)
{
	char text[sizeof(f->ev.last)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	follow_event(&f->ev, id, sev, rank, kind, text);
}

/* ---- tails ------------------------------------------------------------------------ */

static int cmp_tail(const void *a, const void *b);

static struct ftail *tail_find(struct follow *f, const char *steps)
{
	for (size_t i = 0; i < f->nt; i++)
		if (strcmp(f->t[i].steps, steps) == 0)
			return &f->t[i];
	return NULL;
}

static void tail_free(struct ftail *t)
{
	steps_tail_free(t->tail);
	free(t->dir);
	free(t->steps);
}

static void tail_add(struct follow *f, size_t path, const struct steps_rank_file *rf, double now, bool later)
{
	xgrow((void **)&f->t, &f->tcap, f->nt + 1, sizeof(*f->t));
	struct ftail *t = &f->t[f->nt++];
	*t = (struct ftail){ .rank = rf->rank, .dir = xstrdup(rf->dir), .steps = xstrdup(rf->steps), .path = path,
			     .t_adv = now, .win_at = -1, .meta_at = now };
	long si = follow_source_of(f->run, rf->steps);
	/* the load could not read it, or noted it missing (a rank file listed then, not read) */
	t->unread = si >= 0 ? f->run->src[si].err != 0 : !later;
	struct stat st;
	if (si >= 0) {   /* the loader read it: resume there, and remember which file it was */
		t->tail = steps_tail_resume(&f->ctx, (size_t)si);
		follow_window_from_load(f->run, si, t);
		t->records = steps_tail_records(t->tail);
		t->seen = steps_tail_offset(t->tail);
		if (stat(rf->steps, &st) == 0) {
			t->dev = st.st_dev;
			t->ino = st.st_ino;
			t->have_id = true;
			t->regular = S_ISREG(st.st_mode);
			t->size = (long long)st.st_size;
			t->mtime = infile_mtime_ns(&st);
			t->t_adv = now - follow_mtime_age(&st);
			if (t->records && t->t_adv > f->t_newest)
				f->t_newest = t->t_adv;
		}
	}
	const struct steps_model *m = f->run->steps;
	long ri = m ? steps_rank_index(m, (int)rf->rank) : -1;
	follow_meta_note(t, ri >= 0 ? steps_rank_meta(m, (size_t)ri) : NULL);
	/* the load's warning that the rank has no record (not for a file it could not read) */
	t->no_records = !later && ri >= 0 && !(si >= 0 && t->unread) && steps_nrecords(m, (size_t)ri) == 0 &&
			steps_meta_finished(steps_rank_meta(m, (size_t)ri));
	if (later && ri < 0)
		event(f, "LIVE.NEW_RANK", SEV_LOW, rf->rank, "appeared while following",
		      "rank %ld appeared while following (%s)", rf->rank, rf->dir);
}

static struct rank_steps *new_rank(struct follow *f, struct ftail *t, const char *top);
static void rank_replaced(struct follow *f, struct ftail *t, struct rank_steps *r);

/* A tail under PATH i of rank id rf->rank, of a rank dir other than rf's (not the run
 * dir's own steps.jsonl: drop_top_level), or -1. */
static long same_rank(const struct follow *f, size_t i, const struct steps_rank_file *rf)
{
	for (size_t k = 0; k < f->nt; k++)
		if (f->t[k].path == i && f->t[k].rank == rf->rank && strcmp(f->t[k].dir, f->p[i].path) != 0)
			return (long)k;
	return -1;
}

/* Rank file rf found under PATH i (later: after the first listing) is followed. A tail of
 * its rank id there that the listing no longer gives (a later name has the id, as pytscope
 * keeps the last one, or its dir is gone) goes, as a fresh load reads them: the rank is
 * rf's alone from now on (never one series of both), said. Returns FOLLOW_RELOADED then. */
static unsigned add_file(struct follow *f, size_t i, const struct steps_rank_file *rf, double now, bool later)
{
	long old = later ? same_rank(f, i, rf) : -1;
	tail_add(f, i, rf, now, later);
	if (old < 0)
		return 0;
	struct ftail *o = &f->t[old], *t = &f->t[f->nt - 1];
	struct stat st;
	if (stat(o->dir, &st) == 0)
		event(f, "LIVE.RELOADED", SEV_MED, t->rank, "a rank dir later by name has its rank id; read instead, "
		      "as pytscope keeps the last one", "rank %ld: %s is no longer read: %s, later by name, has the "
		      "same rank id, and pytscope keeps the last one", t->rank, o->dir, t->dir);
	else
		event(f, "LIVE.RELOADED", SEV_MED, t->rank, "its rank dir is gone; another with its rank id is read "
		      "instead", "rank %ld: %s is gone; %s, with the same rank id, is read instead", t->rank, o->dir,
		      t->dir);
	if (o->gone)
		follow_events_withdraw(&f->ev, "LIVE.RANK_GONE", t->rank);
	rank_replaced(f, t, new_rank(f, t, o->dir));
	tail_free(o);
	f->t[old] = f->t[--f->nt];   /* (discover sorts them again) */
	f->next = 0;
	return FOLLOW_RELOADED;
}

/* Rank dirs appeared in run dir PATH i (listed in v[0, n)): as a fresh load, its own
 * steps.jsonl is no longer read (pytscope.md §1); its tail goes, its rank 0 stays until
 * rank0/'s is read (top_level_of). */
static void drop_top_level(struct follow *f, size_t i, const struct steps_rank_file *v, size_t n)
{
	const char *path = f->p[i].path;
	if (!n || strcmp(v[0].dir, path) == 0)   /* no rank dir (a file PATH lists its own dir) */
		return;
	size_t k = 0;
	for (size_t j = 0; j < f->nt; j++)
		if (strcmp(f->t[j].dir, path) == 0)
			tail_free(&f->t[j]);
		else
			f->t[k++] = f->t[j];
	f->next = k < f->nt ? 0 : f->next;
	f->nt = k;
}

/* Pick up rank dirs and files under each path whose directory changed, and say the traces
 * and DASF databases that appeared there or in a rank dir whose own mtime changed; under
 * --ranks only the ranks it names (a subset stays one: the others count as left out), of
 * a path with rank dirs (a path without them is followed whole: steps_files_flat). Returns
 * FOLLOW_RELOADED when a rank is another file's now (add_file). */
static unsigned discover(struct follow *f, double now)
{
	const char *asked = f->run->opts ? f->run->opts->ranks : NULL;
	bool listed = false;
	unsigned out = 0;
	for (size_t i = 0; i < f->np; i++) {
		struct fpath *p = &f->p[i];
		struct stat st;
		if (stat(p->path, &st) != 0)
			continue;
		if (p->seen && st.st_mtim.tv_sec == p->mtime.tv_sec && st.st_mtim.tv_nsec == p->mtime.tv_nsec)
			continue;
		bool later = p->seen;
		p->seen = true;
		p->mtime = st.st_mtim;
		struct steps_rank_file *v;
		size_t n = follow_list_path(f->run, p->path, &v);
		if (p->noted)   /* nothing was found there at the start: is there now? */
			p->noted = run_path_note_again(f->run, p->path);
		listed = true;
		p->left_out = 0;
		bool flat = steps_files_flat(v, n, p->path);
		for (size_t k = 0; k < n; k++)
			if (asked && !flat && !ranklist_has(asked, v[k].rank))
				p->left_out++;
			else if (!tail_find(f, v[k].steps))
				out |= add_file(f, i, &v[k], now, later);
		if (f->nt)
			qsort(f->t, f->nt, sizeof(*f->t), cmp_tail);
		drop_top_level(f, i, v, n);
		steps_rank_files_free(v);
		if (later)
			follow_note_new_files(f, i);
	}
	follow_note_rank_traces(f, now);   /* (the first look at a rank dir takes its mtime) */
	if (!listed || !asked || !f->run->steps)
		return out;
	size_t left_out = 0;
	for (size_t i = 0; i < f->np; i++)
		left_out += f->p[i].left_out;
	steps_set_left_out(f->run->steps, left_out);
	return out;
}

/* The run's step model; one the run opened without (an empty dir) is made finalized, as
 * steps.h has a followed model: a rank published later re-sorts the ranks and drops the
 * analyses (never taken for appends to the ranks they were sized for). */
static struct steps_model *model_of(struct follow *f)
{
	bool made = !f->run->steps;
	struct steps_model *m = steps_model_get(f->run);
	if (made)
		steps_finalize(m);
	return m;
}

/* No rank of m has an id below rank's: its scalars are exact, as a load reads them. */
static bool lowest_rank(const struct steps_model *m, long rank)
{
	for (size_t i = 0; i < steps_nranks(m); i++)
		if (steps_rank_id(m, i) < rank)
			return false;
	return true;
}

/* A fresh rank for t with no record yet, its earlier source rows and diagnostics
 * replaced (top: the dir whose files gave the rank before, no longer read: the run dir's
 * own, or a rank dir of the same id). A run.json that names another run than the rank it
 * replaces is put in t's reload (said with it). */
static struct rank_steps *new_rank(struct follow *f, struct ftail *t, const char *top)
{
	struct steps_model *m = model_of(f);
	struct rank_steps *r = steps_rank_new(m, (int)t->rank, t->dir);
	if (lowest_rank(m, t->rank))
		rank_exact_scalars(r);
	bool again = t->tail || t->unread;   /* read or noted before (not a rank new here) */
	if (top)
		follow_forget_files(f->run, top, t->rank);
	if (again) {
		follow_drop_diags(f->run, t->steps, t->rank);
		t->no_records = false;
	}
	struct steps_meta meta = { 0 };
	follow_read_meta(f->run, t->dir, t->rank, &meta, again);
	rank_set_meta(r, &meta);
	follow_meta_note(t, &r->meta);
	long ri = steps_rank_index(m, (int)t->rank);   /* the rank replaced (not published yet) */
	t->reload.other[0] = '\0';
	if (ri >= 0)
		follow_other_run(steps_rank_meta(m, (size_t)ri), &r->meta, t->reload.other, sizeof(t->reload.other));
	return r;
}

/* A fresh rank for t (new_rank), loaded from the start of its file (a new or a reloaded
 * rank). */
static struct rank_steps *fresh_rank(struct follow *f, struct ftail *t, long long size, const char *top)
{
	struct rank_steps *r = new_rank(f, t, top);
	bool slot = t->tail != NULL;
	steps_tail_free(t->tail);
	t->tail = follow_tail_restart(&f->ctx, t->rank, t->steps, size, slot);
	t->records = 0;
	t->seen = 0;
	t->open_line = false;
	t->unread = false;
	return r;
}

/* The rank t appends to: created and published when the model lacks it. */
static struct rank_steps *rank_for(struct follow *f, struct ftail *t, long long size)
{
	struct steps_model *m = model_of(f);
	long ri = t->r ? -1 : steps_rank_index(m, (int)t->rank);
	if (!t->r && ri < 0) {
		t->r = fresh_rank(f, t, size, NULL);
		steps_publish_rank(m, t->r);
	} else if (!t->r) {
		t->r = steps_rank_grow(m, (size_t)ri);
		if (steps_rank_id(m, 0) == t->rank)   /* the lowest: its scalars exact, as a load reads them */
			rank_exact_scalars(t->r);
	}
	if (!t->tail)   /* a rank grown, or made new by add_file */
		t->tail = steps_tail_new(&f->ctx, (int)t->rank, t->steps, size);
	return t->r;
}

/* t's rank takes r (a fresh rank): published, and t's PATH's index is stale (the next
 * open rebuilds it). */
static void rank_replaced(struct follow *f, struct ftail *t, struct rank_steps *r)
{
	t->r = r;
	steps_publish_rank(model_of(f), r);
	index_log_end(f->p[t->path].log);
	f->p[t->path].log = NULL;
}

static void report_once(struct follow *f, struct ftail *t, int err, const char *what)
{
	if (t->err_seen == err)
		return;
	t->err_seen = err;
	follow_mark_unread(f->run, t, err, what);
	char kind[96];
	snprintf(kind, sizeof(kind), "cannot read its steps.jsonl: %s (reported once)", infile_strerror(err));
	event(f, "LIVE.UNREADABLE", SEV_MED, t->rank, kind, "rank %ld: cannot read %s: %s (reported once)",
	      t->rank, t->steps, infile_strerror(err));
}

/* t's rank dir, said gone, is there again: the rank is judged again, said; the event
 * that said it gone no longer stands. */
static void rank_back(struct follow *f, struct ftail *t)
{
	if (!t->gone)
		return;
	t->gone = false;
	follow_events_withdraw(&f->ev, "LIVE.RANK_GONE", t->rank);
	follow_file_readable(f->run, t->steps, t->rank);   /* its "rank dir gone" */
	event(f, "LIVE.RANK_BACK", SEV_LOW, t->rank, "its rank dir is back; the rank is judged again",
	      "rank %ld: %s is back; the rank is judged again", t->rank, t->dir);
}

/* t's steps.jsonl is another file now (st), one that cannot be read (err: a directory, a
 * FIFO the load did not read, a file it cannot open): said once, with the error a fresh
 * open has; the records of the file it replaced are no longer analysed (an empty rank). */
static unsigned lost(struct follow *f, struct ftail *t, const struct stat *st, int err)
{
	bool held = t->tail != NULL;
	if (held)
		rank_replaced(f, t, fresh_rank(f, t, 0, NULL));
	t->dev = st->st_dev;
	t->ino = st->st_ino;
	t->have_id = true;
	t->regular = S_ISREG(st->st_mode);
	t->err_seen = 0;   /* a row read again: the error goes in it again */
	report_once(f, t, err, "cannot open");
	return held ? FOLLOW_RELOADED : 0;
}

/* t's steps.jsonl cannot be stat'ed (err). Its rank dir gone too (removed, or the job
 * re-created with fewer ranks): the rank is no longer judged, said once (its records read
 * before stay, its source row says the file cannot be read); else (its rank dir there: a
 * rank said gone is back) the error is said once (one read before and gone now too). */
static void stat_failed(struct follow *f, struct ftail *t, int err)
{
	struct stat st;
	if (err == ENOENT && stat(t->dir, &st) != 0 && errno == ENOENT) {
		if (!t->gone) {
			event(f, "LIVE.RANK_GONE", SEV_MED, t->rank, "its rank dir is gone; the rank is no longer "
			      "judged (its records read before stay)", "rank %ld: %s is gone; the rank is no longer "
			      "judged (its records read before stay)", t->rank, t->dir);
			if (t->have_id)
				follow_mark_unread(f->run, t, err, "rank dir gone");
		}
		t->gone = true;
		return;
	}
	rank_back(f, t);
	if (err != ENOENT || t->have_id)
		report_once(f, t, err, "cannot stat");
}

/* Read t's appended bytes up to size, at most *left of them when *left >= 0 (then
 * *left is reduced by what was read); one cut mid-line that gives no complete line
 * reads on to size, so a slice always makes progress. t->seen: where the read stopped
 * (size when the file was read to its end, an unfinished last line and all); an
 * unfinished line longer than the tail keeps is skipped as a load skips it, and is still
 * an unfinished last line (t->open_line). */
static void read_slice(struct ftail *t, struct rank_steps *r, int fd, long long size, long long *left)
{
	long long from = steps_tail_offset(t->tail);
	long long limit = *left >= 0 && size - from > *left ? from + *left : size;
	steps_tail_read(t->tail, r, fd, limit, false);
	if (limit < size && steps_tail_offset(t->tail) == from) {
		limit = size;
		steps_tail_read(t->tail, r, fd, size, false);
	}
	long long to = steps_tail_offset(t->tail);
	char last;
	if (to > from && pread(fd, &last, 1, to - 1) == 1)   /* only a line too long is read without its '\n' */
		t->open_line = last != '\n';
	t->seen = limit > to ? limit : to;
	if (*left >= 0) {   /* a cut ends the slice (what is left of it is a part line) */
		long long used = steps_tail_offset(t->tail) - from;
		*left = limit < size || used >= *left ? 0 : *left - used;
	}
}

/* The run dir whose own steps.jsonl gave rank 0 when t reads rank 0 of its rank dirs,
 * else NULL. */
static const char *top_level_of(const struct follow *f, const struct ftail *t)
{
	const struct steps_model *m = f->run->steps;
	long ri = t->rank == 0 && m ? steps_rank_index(m, 0) : -1;
	for (size_t i = 0; ri >= 0 && i < f->np; i++)
		if (strcmp(steps_rank_path(m, (size_t)ri), f->p[i].path) == 0 && strcmp(t->dir, f->p[i].path) != 0)
			return f->p[i].path;
	return NULL;
}

/* t is read again from the start (how: "was replaced", ...; from -> to bytes): the
 * records it replaces are summed, to be compared once the file is read (reload_done);
 * quiet: only the mtime changed. A reload begun before and not read to the end yet keeps
 * the records of the first. */
static void reload_begin(struct follow *f, struct ftail *t, const char *how, long long from, long long to,
			 bool quiet)
{
	struct reload *rl = &t->reload;
	if (!rl->on) {
		const struct steps_model *m = f->run->steps;
		long ri = m ? steps_rank_index(m, (int)t->rank) : -1;
		rl->n = ri >= 0 ? steps_nrecords(m, (size_t)ri) : 0;
		rl->sum = ri >= 0 ? follow_records_sum(m, (size_t)ri) : 0;
		rl->quiet = true;
	}
	rl->quiet = rl->quiet && quiet;
	rl->on = true;
	rl->how = how;
	snprintf(rl->bytes, sizeof(rl->bytes), "(%lld -> %lld bytes)", from, to);
}

/* t's reload is read to the end of its file, n records: compared with those it replaced.
 * The same records are no advance, said as such (nothing when only the mtime changed);
 * others advance the rank; a run.json naming another run is said. */
static unsigned reload_done(struct follow *f, struct ftail *t, size_t n, double now)
{
	struct reload *rl = &t->reload;
	const struct steps_model *m = f->run->steps;
	long ri = steps_rank_index(m, (int)t->rank);
	bool same = n == rl->n && (n == 0 || (ri >= 0 && follow_records_sum(m, (size_t)ri) == rl->sum));
	rl->on = false;
	if (!same && n) {
		t->t_adv = now;
		f->t_newest = now;
	}
	if (same && rl->quiet && !rl->other[0])
		return 0;
	char why[300], kind[400];
	if (rl->other[0])
		snprintf(why, sizeof(why), ": its run.json names another run, %s (a new run written into the same "
			 "dir?)", rl->other);
	else
		snprintf(why, sizeof(why), "%s", same ? ": the same records (not an advance)" : " (a restarted job?)");
	snprintf(kind, sizeof(kind), "steps.jsonl %s; reloaded from the start%s", rl->how, why);
	event(f, "LIVE.RELOADED", same && !rl->other[0] ? SEV_LOW : SEV_MED, t->rank, kind,
	      "rank %ld: steps.jsonl %s %s; reloaded from the start%s", t->rank, rl->how, rl->bytes, why);
	return FOLLOW_RELOADED;
}

/* t's file grew by records at now: the gap since it last grew is taken when the follower
 * watched it (the poll before came within half of it or at most twice the spacing before,
 * read the file whole and did not stop at the slice): a gap cut by a pause (F) or a
 * catch-up's slices says nothing of how the file grows. */
static void advanced(struct follow *f, struct ftail *t, double now)
{
	double gap = now - t->t_adv, since = now - f->t_polled;
	if (!f->catching_up && t->seen >= t->size && (since <= gap / 2 || since <= 2 * f->spacing))
		t->gap[t->ngap++ % FOLLOW_GAPS] = gap;
	t->t_adv = now;
	f->t_newest = now;
	f->grown = true;
}

/* Poll t's steps.jsonl, reading at most *left bytes (< 0: no limit); returns FOLLOW_* bits. */
static unsigned poll_steps(struct follow *f, struct ftail *t, double now, long long *left)
{
	struct stat st;
	if (stat(t->steps, &st) != 0) {
		stat_failed(f, t, errno);
		return 0;
	}
	rank_back(f, t);
	bool other = t->have_id && (st.st_ino != t->ino || st.st_dev != t->dev);
	if (!S_ISREG(st.st_mode) && t->have_id && !other && !t->regular)
		return 0;   /* the same: a FIFO the load read as a stream, or one said unreadable */
	if (!S_ISREG(st.st_mode))
		return lost(f, t, &st, S_ISDIR(st.st_mode) ? EISDIR : INFILE_ENOTREG);
	/* the size unchanged and a newer mtime: modified in place, unless a write is under
	 * way (a write sets the mtime, then the size): settled when a later stat finds both
	 * unchanged */
	bool same = t->have_id && (long long)st.st_size == t->size;
	bool touched = same && infile_mtime_ns(&st) != t->mtime, settled = same && t->touched && !touched;
	t->size = (long long)st.st_size;
	t->mtime = infile_mtime_ns(&st);
	bool replaced = t->have_id && (other || !t->regular);   /* a file where none was is another */
	long long offset = t->tail ? steps_tail_offset(t->tail) : 0;
	bool shrank = t->tail && st.st_size < offset;
	if (!replaced && !shrank && !touched && !settled && st.st_size == t->seen && !t->err_seen)
		return 0;   /* nothing new (an error said before: opened, to see it is gone) */
	int fd = infile_open(t->steps);
	if (fd < 0 && replaced)
		return lost(f, t, &st, errno);
	if (fd < 0) {
		report_once(f, t, errno, "cannot open");
		return 0;
	}
	t->err_seen = 0;
	struct stat fst;
	if (fstat(fd, &fst) == 0) {
		replaced = t->have_id && (fst.st_ino != t->ino || fst.st_dev != t->dev || !t->regular);
		if (fst.st_size != st.st_size || infile_mtime_ns(&fst) != t->mtime)   /* written meanwhile */
			touched = settled = false;
		st = fst;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->have_id = true;
	t->regular = true;   /* (infile_open opens no other) */
	t->mtime = infile_mtime_ns(&st);
	unsigned out = 0;
	/* what was read before is not there any more (truncated and written again in place:
	 * the inode stays, the size grows or stays) */
	bool rewritten = !replaced && !shrank && t->win_at > 0 && t->win_at <= (long long)st.st_size &&
			 !follow_window_holds(fd, t);
	bool modified = settled && !replaced && !shrank && !rewritten;
	bool again = replaced || shrank || rewritten || modified;
	t->touched = touched && !again;
	const char *top = t->r || again ? NULL : top_level_of(f, t);   /* replaced, not grown */
	if (again)   /* said once read (reload_done) */
		reload_begin(f, t, replaced ? "was replaced" : shrank ? "shrank" : rewritten ? "was rewritten in place"
			     : "has a newer mtime at the same size", offset, (long long)st.st_size, modified);
	else if (top)
		event(f, "LIVE.RELOADED", SEV_MED, 0, NULL, "rank 0: %s/steps.jsonl is no longer read: rank dirs "
		      "appeared there, and a run dir's own steps.jsonl is ignored once it has them; rank 0 is now %s's",
		      top, t->dir);
	if (again || top) {
		rank_replaced(f, t, fresh_rank(f, t, (long long)st.st_size, top));
		out |= top ? FOLLOW_RELOADED : FOLLOW_GREW;
	}
	struct rank_steps *r = rank_for(f, t, (long long)st.st_size);
	if (t->unread)   /* before the read: what it says of the file is new */
		follow_file_readable(f->run, t->steps, t->rank);
	t->unread = false;
	if (t->win_at < 0)   /* the bytes held now, which a later rewrite changes */
		follow_take_window(fd, t);
	t->size = (long long)st.st_size;
	read_slice(t, r, fd, t->size, left);
	follow_take_window(fd, t);
	close(fd);
	size_t n = steps_tail_records(t->tail);
	if (t->reload.on) {   /* compared once the file is read to its end */
		t->records = n;
		return out | FOLLOW_GREW | (t->seen >= t->size ? reload_done(f, t, n, now) : 0);
	}
	if (n != t->records) {
		if (n > t->records)
			advanced(f, t, now);
		t->records = n;
		out |= FOLLOW_GREW;
	}
	return out;
}

/* run.json is written at finish() and overwritten by a run into the same dir (pytscope.md
 * §1): one that appeared or changed (size, mtime) since t's rank read it is read again. */
static unsigned poll_meta(struct follow *f, struct ftail *t, double now)
{
	t->meta_at = now;
	long long size, mtime;
	follow_meta_stat(t->dir, &size, &mtime);
	struct steps_model *m = f->run->steps;
	long ri = m ? steps_rank_index(m, (int)t->rank) : -1;
	if ((size == t->meta_size && mtime == t->meta_mtime) || ri < 0 || top_level_of(f, t))
		return 0;   /* unchanged, or no rank of t's yet: read with it */
	struct steps_meta meta = { 0 };
	follow_read_meta(f->run, t->dir, t->rank, &meta, true);
	follow_meta_note(t, &meta);
	if (ri > 0) {   /* the lowest rank's text is kept, as a load keeps it */
		free(meta.json);
		meta.json = NULL;
		meta.json_len = 0;
	}
	char what[200];   /* another run's: said (ranks that differ show as mixed runs), never merged */
	bool other = follow_other_run(steps_rank_meta(m, (size_t)ri), &meta, what, sizeof(what));
	if (other) {
		char kind[300];
		snprintf(kind, sizeof(kind), "run.json was overwritten by another run: %s; read again (a new run "
			 "written into the same dir?)", what);
		event(f, "LIVE.RELOADED", SEV_MED, t->rank, kind, "rank %ld: %s", t->rank, kind);
	}
	steps_rank_replace_meta(m, (size_t)ri, &meta);
	return other ? FOLLOW_RELOADED : FOLLOW_GREW;
}

/* Poll one file (poll_steps); while no record comes, its run.json too (pytscope writes
 * it at finish(), after its last record), every T/4 (T the stall threshold: it is seen
 * before the rank is judged idle) or META_EVERY s, whichever is shorter. */
static unsigned poll_file(struct follow *f, struct ftail *t, double now, long long *left)
{
	size_t had = t->records;
	unsigned out = poll_steps(f, t, now, left);
	double every = f->threshold / 4 < META_EVERY ? f->threshold / 4 : META_EVERY;
	bool due = t->records == had && !(out & FOLLOW_RELOADED) && !t->gone && now - t->meta_at >= every;
	out |= due ? poll_meta(f, t, now) : 0;
	follow_note_no_records(f->run, t);
	return out;
}

/* ---- stall detection ------------------------------------------------------------------ */

static int cmp_tail(const void *a, const void *b)
{
	const struct ftail *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The tails are kept sorted by rank id (discover() sorts after adding). */
static struct ftail *tail_of_rank(struct follow *f, int rank)
{
	struct ftail key = { .rank = rank };
	return bsearch(&key, f->t, f->nt, sizeof(*f->t), cmp_tail);
}

bool follow_rank_stalled(const struct follow *f, int rank)
{
	const struct ftail *t = tail_of_rank((struct follow *)f, rank);
	return t && t->stalled;
}

/* Every PATH is a run dir (not a steps.jsonl, not one rank{k}/): the whole job is followed. */
static bool follows_job(const struct follow *f)
{
	for (size_t i = 0; i < f->np; i++) {
		const char *slash = strrchr(f->p[i].path, '/');
		if (!steps_is_dir(f->p[i].path) || steps_rank_dir_id(slash && slash[1] ? slash + 1 : f->p[i].path) >= 0)
			return false;
	}
	return true;
}

/* The ranks of run.json's world_size (the lowest rank's) that no followed rank file
 * gives, of those --ranks names, when the job is followed; *world: that world_size (-1:
 * none). */
static void world_missing(struct follow *f, struct summary_ids *out, long *world)
{
	const struct steps_model *m = f->run->steps;
	const struct steps_meta *meta = steps_nranks(m) && follows_job(f) ? steps_rank_meta(m, 0) : NULL;
	const char *asked = f->run->opts ? f->run->opts->ranks : NULL;
	*out = (struct summary_ids){ .n = 0 };
	*world = meta && meta->present && meta->has_world ? meta->world_size : -1;
	for (long r = 0; r < *world && r < 1000000; r++) {
		const struct ftail *t = tail_of_rank(f, (int)r);
		if ((!asked || ranklist_has(asked, r)) && (!t || t->gone))
			summary_ids_add(out, r);
	}
}

/* Rank t at this poll (a rank id followed in several files: the first). */
static struct follow_rank_now rank_now(struct follow *f, const struct ftail *t, double now)
{
	const struct steps_model *m = f->run->steps;
	long ri = steps_rank_index(m, (int)t->rank);
	size_t k = ri >= 0 ? steps_nrecords(m, (size_t)ri) : 0;
	long long read = t->tail ? steps_tail_offset(t->tail) : 0;
	struct follow_rank_now v = { .rank = (int)t->rank, .has = k > 0, .idle = now - t->t_adv,
				     .partial = t->size > read || t->open_line, .err = t->err_seen };
	if (k) {
		const struct steps_meta *meta = steps_rank_meta(m, (size_t)ri);
		v.step = steps_step(m, (size_t)ri, k - 1);
		v.short_of_plan = meta->has_nsteps && v.step + 1 < meta->n_steps;
		v.finished = meta->has_nsteps;
	}
	return v;
}

/* The stall threshold T (follow.h): max(10 x the median step time, 2 x the longest of the
 * ranks' usual gaps between their file's growths, the floor). */
static double threshold(const struct follow *f)
{
	double T = 10 * follow_step_time(f->run->steps, f->o.interval);
	for (size_t i = 0; i < f->nt; i++) {
		double g = f->t[i].gone ? 0 : 2 * follow_growth_gap(f->t[i].gap, f->t[i].ngap);
		T = g > T ? g : T;
	}
	return T > f->o.stall_floor ? T : f->o.stall_floor;
}

static unsigned assess(struct follow *f, double now)
{
	f->threshold = threshold(f);
	struct follow_rank_now *v = xmalloc((f->nt ? f->nt : 1) * sizeof(*v));
	bool *stalled = xmalloc((f->nt ? f->nt : 1) * sizeof(*stalled));
	size_t n = 0;
	for (size_t i = 0; i < f->nt; i++)   /* a rank whose dir is gone is not judged */
		if (!f->t[i].gone && (!n || f->t[i].rank != v[n - 1].rank))
			v[n++] = rank_now(f, &f->t[i], now);
	char subset[96] = "";
	size_t out = 0;
	for (size_t i = 0; i < f->np; i++)
		out += f->p[i].left_out;
	if (out)
		snprintf(subset, sizeof(subset), " (--ranks: %zu rank file%s left out, not watched)", out,
			 out == 1 ? "" : "s");
	struct summary_ids missing;
	long world;
	world_missing(f, &missing, &world);
	struct follow_verdict vd = follow_judge(&f->live, v, n, &missing, world, f->threshold, f->grown, subset,
						stalled);
	f->state = vd.state;
	for (size_t i = 0; i < f->nt; i++)
		f->t[i].stalled = false;
	for (size_t i = 0; i < n; i++)
		if (stalled[i])
			tail_of_rank(f, v[i].rank)->stalled = true;
	free(v);
	free(stalled);
	for (size_t i = 0; i < f->ev.list.n; i++) {
		const struct finding *e = &f->ev.list.v[i];   /* its evidence has no heap members */
		if (follow_events_stands(&f->ev, i))
			findings_add(&f->live, e->id, e->severity, e->title, e->detail, e->fix, e->ev);
	}
	/* the state, the stalled set, the events; the "ago" figures refresh every 10 s */
	unsigned long tick = f->state == FOLLOW_RUNNING && vd.sig ? (unsigned long)(now - f->t_start) / 10 : 0;
	unsigned long events = f->ev.total + f->sweep.reloads;   /* a reload counted in its entry */
	unsigned long sig = ((vd.sig * 7 + (unsigned long)f->state) * 131 + events) * 1009 + tick;
	if (sig == f->sig && f->live.n)
		return 0;
	f->sig = sig;
	return FOLLOW_FINDINGS;
}

/* ---- lifetime and polling ---------------------------------------------------------------- */

/* Of paths, those the run's load read (run->paths: identity.h leaves out a repeat, and a
 * file that a directory given beside it reads), each once, in the load's order: what a
 * reload reads is what the first load read. */
static void keep_loaded(struct follow *f, const char *const *paths, size_t npaths)
{
	size_t cap = f->run->npaths ? f->run->npaths : 1;
	f->p = xcalloc(cap, sizeof(*f->p));
	f->paths = xcalloc(cap, sizeof(*f->paths));
	for (size_t i = 0; i < f->run->npaths; i++)
		for (size_t k = 0; k < npaths; k++)
			if (strcmp(f->run->paths[i], paths[k]) == 0) {
				f->p[f->np].path = xstrdup(paths[k]);
				f->p[f->np].noted = true;   /* until run_path_note_again() says none stands */
				f->paths[f->np] = f->p[f->np].path;
				f->np++;
				break;
			}
}

struct follow *follow_new(struct run *run, const char *const *paths, size_t npaths,
			  const struct follow_opts *o, double now)
{
	struct follow *f = xcalloc(1, sizeof(*f));
	f->run = run;
	f->ctx = (struct load_ctx){ .run = run, .opts = run->opts };
	f->o = *o;
	if (!(f->o.interval > 0))
		f->o.interval = 1;
	follow_index_every(&f->o);
	keep_loaded(f, paths, npaths);
	f->t_start = f->t_saved = f->t_polled = now;
	f->spacing = f->o.interval;
	f->t_newest = -1;
	f->threshold = f->o.stall_floor;
	follow_events_init(&f->ev);
	follow_logs_begin(f);
	discover(f, now);
	follow_sweep_init(&f->sweep, f->paths, f->np);
	f->read_saved = follow_read_bytes(f);
	run->live_findings = &f->live;
	return f;
}

/* Some rank of m holds a record. */
static bool any_record(const struct steps_model *m)
{
	for (size_t i = 0; i < steps_nranks(m); i++)
		if (steps_nrecords(m, i))
			return true;
	return false;
}

unsigned follow_poll(struct follow *f, double now)
{
	unsigned out = discover(f, now);
	long long left = f->o.slice > 0 ? f->o.slice : -1;
	size_t k = 0, start = f->next < f->nt ? f->next : 0;
	f->catching_up = f->behind;
	f->behind = false;
	for (; k < f->nt && !f->behind; k++) {
		struct ftail *t = &f->t[(start + k) % f->nt];
		out |= poll_file(f, t, now, &left);
		/* the slice is used up: go on here next time if this file has more (not an
		 * unfinished last line read to the end: that waits for the file to change) */
		if (left == 0) {
			bool more = t->tail && t->seen < t->size;
			f->behind = more || k + 1 < f->nt;
			f->next = (start + k + !more) % f->nt;
		}
	}
	if (!f->behind)
		f->next = 0;
	f->grew = f->grew || out;
	if (out) {
		steps_refresh(f->run->steps);
		steps_name_run(f->run, f->run->steps);   /* run.json read again, a rank 0 replaced */
		if (!any_record(f->run->steps))   /* every log emptied: no newest record to date */
			f->t_newest = -1;
	}
	if (steps_set_live(f->run->steps))   /* the heatmap reaches the leading ranks (once) */
		out |= FOLLOW_GREW;
	follow_events_flush(&f->ev);
	out |= follow_sweep_poll(&f->sweep, f->run, &f->ev.list, f->ev.last, sizeof(f->ev.last), now);
	if (!f->behind)   /* ranks not read yet are not idle */
		out |= assess(f, now);
	if (out)
		run_changed(f->run);
	follow_save_due(f, now);
	f->spacing = now - f->t_polled;
	f->t_polled = now;
	return out;
}

void follow_free(struct follow *f)
{
	if (!f)
		return;
	if (f->run->live_findings == &f->live) {
		f->run->live_findings = NULL;
		run_changed(f->run);
	}
	for (size_t i = 0; i < f->nt; i++)
		tail_free(&f->t[i]);
	free(f->t);
	for (size_t i = 0; i < f->np; i++) {
		free(f->p[i].path);
		index_log_end(f->p[i].log);
	}
	free(f->p);
	free(f->paths);
	follow_sweep_free(&f->sweep);
	findings_free(&f->live);
	follow_events_free(&f->ev);
	for (size_t i = 0; i < f->ntraces; i++)
		free(f->traces[i]);
	free(f->traces);
	free(f);
}
