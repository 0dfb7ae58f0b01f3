/* SPDX-License-Identifier: MIT */
/* store.c: the trace model after decoding (see trace.h): rank assignment (metadata,
 * file name, else the next free id; a second trace of one process, by the HOST_PID.MS
 * file names, or of one file-name rank is left out, never made another rank; what it
 * says told from what a parse says, for the index), the host of a HOST_PID.MS file
 * name, per-rank post-processing (CPU events by correlation, kernels tagged with their
 * ProfilerStep, the ProfilerStep span that holds an instant; warnings on GPU events
 * without a CPU launch and on repeated step numbers), and the model's lifetime. */
#include "model/trace/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/infile.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* ---- rank assignment and post-processing ----------------------------------- */

/* The number after "rank" or "worker" in name[0..n), or -1. */
static int rank_in(const char *name, size_t n)
{
	static const char *const keys[] = { "rank", "worker" };
	for (size_t k = 0; k < ARRAY_LEN(keys); k++) {
		size_t m = strlen(keys[k]);
		for (size_t i = 0; i + m < n; i++) {
			if (strncasecmp(name + i, keys[k], m) != 0)
				continue;
			size_t j = i + m;
			while (j < n && (name[j] == '-' || name[j] == '_'))
				j++;
			if (j < n && isdigit((unsigned char)name[j]))
				return (int)strtol(name + j, NULL, 10);
		}
	}
	return -1;
}

/* The rank in the file's base name, else in its directory's name (rank3/trace.json). */
static int rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	int r = rank_in(base ? base + 1 : path, strlen(base ? base + 1 : path));
	if (r >= 0 || !base)
		return r;
	const char *dir = base;
	while (dir > path && dir[-1] != '/')
		dir--;
	return rank_in(dir, (size_t)(base - dir));
}

/* Does name[0..n) end with suffix? Returns the length before it, or -1. */
static long strip_suffix(const char *name, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);
	return n > m && strncmp(name + n - m, suffix, m) == 0 ? (long)(n - m) : -1;
}

/* name[0..n) ends with sep and at least one digit: the length before sep, else -1. */
static long strip_number(const char *name, size_t n, char sep)
{
	size_t i = n;
	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	return i < n && i > 1 && name[i - 1] == sep ? (long)(i - 1) : -1;
}

/* s[0..n) is "rank" or "worker", '-' or '_', and digits alone (rank0, worker-3). */
static bool rank_token(const char *s, size_t n)
{
	static const char *const keys[] = { "rank", "worker" };
	for (size_t k = 0; k < ARRAY_LEN(keys); k++) {
		size_t m = strlen(keys[k]), j = m;
		if (n <= m || strncasecmp(s, keys[k], m) != 0)
			continue;
		while (j < n && (s[j] == '-' || s[j] == '_'))
			j++;
		size_t d = j;
		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j > d && j == n)
			return true;
	}
	return false;
}

/* s[0..n) can be a host name: letters, digits, '-' and '.' (worker3_step of
 * worker3_step_12.MS is none), and not a rank token alone (rank0 of rank0_55.MS). A
 * host holding one is a host (job-worker-0 of a Kubeflow pod). */
static bool host_like(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '.')
			return false;
	return n > 0 && !rank_token(s, n);
}

/* The process tensorboard_trace_handler's default file name HOST_PID.MS.pt.trace.json[.gz]
 * names: host[0..hostlen) and pid[0..pidlen), inside the path. */
struct name_proc {
	const char *host, *pid;
	size_t hostlen, pidlen;
};

/* Fill np from path's base name; false when it is not of that form. */
static bool name_proc_of(const char *path, struct name_proc *np)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	long k = strip_suffix(base, n, ".pt.trace.json.gz");
	if (k < 0)
		k = strip_suffix(base, n, ".pt.trace.json");
	if (k >= 0)
		k = strip_number(base, (size_t)k, '.');   /* .<epoch ms> */
	long h = k >= 0 ? strip_number(base, (size_t)k, '_') : -1; /* _<pid> */
	if (h <= 0 || !host_like(base, (size_t)h))
		return false;
	*np = (struct name_proc){ .host = base, .hostlen = (size_t)h, .pid = base + h + 1, .pidlen = (size_t)(k - h - 1) };
	return true;
}

static bool same_proc(const struct name_proc *a, const struct name_proc *b)
{
	return a->hostlen == b->hostlen && a->pidlen == b->pidlen && strncasecmp(a->host, b->host, a->hostlen) == 0 &&
	       strncmp(a->pid, b->pid, a->pidlen) == 0;
}

char *trace_host_from_name(const char *path)
{
	struct name_proc np;
	return name_proc_of(path, &np) ? xstrndup(np.host, np.hostlen) : NULL;
}

const struct trace_rank *trace_rank_of(const struct run *run, int rank)
{
	const struct trace_set *ts = run->trace;
	size_t lo = 0, hi = ts ? ts->n : 0;   /* ts->r is sorted by rank id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ts->r[mid]->rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ts && lo < ts->n && ts->r[lo]->rank == rank ? ts->r[lo] : NULL;
}

const char *trace_rank_host(struct run *run, int rank)
{
	const struct trace_rank *r = trace_rank_of(run, rank);
	return r ? r->host : NULL;
}

long trace_world_size(const struct run *run)
{
	const struct trace_set *ts = run->trace;
	return ts && ts->n ? ts->r[0]->world_size : -1; /* ts->r is sorted by rank id */
}

/* The index in ts->r[0..upto) of the trace with rank id rank, or upto. */
static size_t rank_holder(const struct trace_set *ts, int rank, size_t upto)
{
	size_t i = 0;
	while (i < upto && ts->r[i]->rank != rank)
		i++;
	return i;
}

/* What the rank assignment and trace_finish_rank() say of a trace once its parse is done
 * (trace_said_by tells them from what the parse said). */
#define SAID_BY_NAME "no distributedInfo.rank; rank %d taken from the file name"
#define SAID_BY_ORDER "no usable rank in distributedInfo or the file name; rank %d from file order"
#define SAID_BY_ORDER_PROC "the rank %d its file name gives is held by a trace of another process (another host or " \
	"pid in its file name); rank %d from file order"
#define SAID_NO_COMM_CUT "%zu GPU kernels read before the file ends, no communication kernel among them (those " \
	"past the cut are unknown); communication overlap is n/a"
#define SAID_NO_COMM "%zu GPU kernels but no communication kernel matched the classification table (extend " \
	"it with --kernel-classes); communication overlap is n/a"
#define SAID_COMM_SKIPPED "%zu GPU kernels kept, no communication kernel among them: those read were skipped " \
	"(each lasts far past the rank's profiled window); communication overlap is n/a"
#define SAID_NO_LAUNCH "%zu of %zu GPU events have no CPU launch (no CPU event has their correlation id): the " \
	"steps' compute and comm place each by its own start, in the ProfilerStep span that holds it (HTA places " \
	"a kernel by its launch: its per-step figures leave them out)"
#define STEP_AGAIN_WHY "each span's compute and comm are of the kernels launched in it; where the ranks " \
	"align, the last record of a step counts, and HTA's per-step figures (potential stragglers) take the spans " \
	"of one number as one step"
#define SAID_STEP_AGAIN "ProfilerStep#%ld is recorded %zu times in this trace: " STEP_AGAIN_WHY
#define SAID_STEPS_AGAIN "ProfilerStep#%ld is recorded %zu times in this trace (%zu repeated step numbers in " \
	"all): " STEP_AGAIN_WHY

/* msg is what fmt prints (its conversions all %d, %ld or %zu). */
static bool said_as(const char *msg, const char *fmt)
{
	while (*fmt) {
		if (*fmt == '%') {
			fmt += fmt[1] == 'z' || fmt[1] == 'l' ? 3 : 2;
			if (*msg == '-')
				msg++;
			if (!isdigit((unsigned char)*msg))
				return false;
			while (isdigit((unsigned char)*msg))
				msg++;
		} else if (*fmt++ != *msg++) {
			return false;
		}
	}
	return *msg == '\0';
}

enum trace_said trace_said_by(const char *msg)
{
	if (said_as(msg, SAID_BY_NAME) || said_as(msg, SAID_BY_ORDER) || said_as(msg, SAID_BY_ORDER_PROC))
		return TRACE_SAID_RANK;
	if (said_as(msg, SAID_NO_COMM_CUT) || said_as(msg, SAID_NO_COMM) || said_as(msg, SAID_COMM_SKIPPED) ||
	    said_as(msg, SAID_NO_LAUNCH) || said_as(msg, SAID_STEP_AGAIN) || said_as(msg, SAID_STEPS_AGAIN))
		return TRACE_SAID_FINISH;
	return TRACE_SAID_PARSE;
}

/* Leave r out of the rank assignment: msg named on it, its source refused (why, after
 * "refused: ") and left out, shown with rank id `rank` (-1: none). */
static void leave_out(struct run *run, const struct trace_rank *r, int rank, const char *msg, const char *why)
{
	diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, rank, "%s; this trace is left out", msg);
	char *src_why = xasprintf("refused: %s", why);
	pthread_mutex_lock(&run->lock);
	run_refuse(run, NULL, (long)r->src, src_why);
	run->src[r->src].left_out = true;
	run->src[r->src].rank = rank;
	pthread_mutex_unlock(&run->lock);
	free(src_why);
}

/* A trace whose distributedInfo.rank an earlier one claims: named, and left out. */
static void drop_duplicate(struct run *run, const struct trace_rank *r, const struct trace_rank *first)
{
	char *msg = xasprintf("distributedInfo.rank %d is claimed by %s too", r->rank, first->path);
	char *why = xasprintf("rank %d, which %s claims too", r->rank, first->path);
	leave_out(run, r, r->rank, msg, why);
	free(msg);
	free(why);
}

/* A trace of the process (np) that wrote `kept` too: another profiling window of one
 * rank (one process is one rank; tscope-tui reads one window of each), left out. */
static void drop_window(struct run *run, const struct trace_rank *r, const struct trace_rank *kept,
			const struct name_proc *np)
{
	int h = (int)np->hostlen, p = (int)np->pidlen;
	char *msg = xasprintf("2 traces of one process (%.*s pid %.*s, by the file names): %s and this one, another "
			      "profiling window of the same rank, not another rank (open this file alone to read it)",
			      h, np->host, p, np->pid, kept->path);
	char *why = xasprintf("another profiling window of the process of %s (%.*s pid %.*s)", kept->path, h, np->host,
			      p, np->pid);
	leave_out(run, r, -1, msg, why);
	free(msg);
	free(why);
}

/* A trace whose file name gives the rank (rank) `holder` has: the same rank's other
 * trace (another profiling window, a copy), left out. */
static void drop_name_twin(struct run *run, const struct trace_rank *r, const struct trace_rank *holder, int rank)
{
	char *msg = xasprintf("its file name gives rank %d, which %s has too (%s): 2 traces of rank %d, another "
			      "profiling window or a copy (open this file alone to read it)", rank, holder->path,
			      holder->rank_from_meta ? "distributedInfo.rank" : "by its file name", rank);
	char *why = xasprintf("rank %d from the file name, which %s has too", rank, holder->path);
	leave_out(run, r, rank, msg, why);
	free(msg);
	free(why);
}

/* The index of a trace placed before ts->r[i] (ts->r[0..k), kept so far, and the traces
 * after i whose distributedInfo gives their rank) with rank id `rank` (-1: any) and of
 * process np (NULL: any); ts->n when none. ts->r[k..i] are the slots being compacted. */
static size_t placed_other(const struct trace_set *ts, size_t i, size_t k, int rank, const struct name_proc *np)
{
	for (size_t j = 0; j < ts->n; j++) {
		const struct trace_rank *q = ts->r[j];
		struct name_proc qp;
		if ((j >= k && j <= i) || (j > i && !q->rank_from_meta) || (rank >= 0 && q->rank != rank))
			continue;
		if (!np || (name_proc_of(q->path, &qp) && same_proc(np, &qp)))
			return j;
	}
	return ts->n;
}

/* ts->r[i], which has no distributedInfo.rank, among the traces placed (placed_other):
 * false when it is left out, as another window of a placed trace's process (by the file
 * names), or of the rank its file name gives when a placed trace has it and is not known
 * to be another process; else it takes its file name's rank, or waits for file order
 * (rank -1). */
static bool place_by_name(struct run *run, struct trace_set *ts, size_t i, size_t k)
{
	struct trace_rank *r = ts->r[i];
	struct name_proc np, qp;
	bool known = name_proc_of(r->path, &np);
	size_t q = known ? placed_other(ts, i, k, -1, &np) : ts->n;
	if (q < ts->n) {
		drop_window(run, r, ts->r[q], &np);
		return false;
	}
	int byname = rank_from_name(r->path);
	q = byname >= 0 ? placed_other(ts, i, k, byname, NULL) : ts->n;
	if (byname < 0 || (q < ts->n && known && name_proc_of(ts->r[q]->path, &qp)))
		return true;   /* no name rank, or another process holds it: file order */
	if (q < ts->n) {
		drop_name_twin(run, r, ts->r[q], byname);
		return false;
	}
	diag_add(&run->diags, DIAG_INFO, r->path, -1, -1, byname, SAID_BY_NAME, byname);
	r->rank = byname;
	return true;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The traces ts->r[n0..) still without a rank get the free ids in file order. */
static void assign_by_order(struct run *run, struct trace_set *ts, size_t n0, bool single)
{
	int *held = xcalloc(ts->n ? ts->n : 1, sizeof(*held));
	size_t nheld = 0, h = 0;
	for (size_t i = 0; i < ts->n; i++)
		if (ts->r[i]->rank >= 0)
			held[nheld++] = ts->r[i]->rank;
	qsort(held, nheld, sizeof(*held), int_cmp);
	int next = 0;
	for (size_t i = n0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		if (r->rank >= 0)
			continue;
		for (; h < nheld && held[h] <= next; h++)
			if (held[h] == next)
				next++;
		int byname = rank_from_name(r->path);
		enum diag_level lv = single ? DIAG_INFO : DIAG_WARN;
		if (byname >= 0)
			diag_add(&run->diags, lv, r->path, -1, -1, next, SAID_BY_ORDER_PROC, byname, next);
		else
			diag_add(&run->diags, lv, r->path, -1, -1, next, SAID_BY_ORDER, next);
		r->rank = next++;
	}
	free(held);
}

void trace_assign_ranks(struct run *run, struct trace_set *ts, size_t n0, bool single)
{
	size_t k = n0;
	for (size_t i = n0; i < ts->n; i++) {   /* every file's own rank is reserved first */
		struct trace_rank *r = ts->r[i];
		size_t first = r->rank >= 0 ? rank_holder(ts, r->rank, k) : k;
		if (first < k) {
			drop_duplicate(run, r, ts->r[first]);
			trace_rank_free(r);
			continue;
		}
		ts->r[k++] = r;
	}
	ts->n = k;
	k = n0;
	for (size_t i = n0; i < ts->n; i++) {   /* then the file names' ranks */
		struct trace_rank *r = ts->r[i];
		if (r->rank_from_meta || place_by_name(run, ts, i, k)) {
			ts->r[k++] = r;
			continue;
		}
		trace_rank_free(r);
	}
	ts->n = k;
	assign_by_order(run, ts, n0, single);
}

/* The rank id of the rank{k}/ directory holding path, or -1. */
static long dir_rank_id(const char *path)
{
	const char *base = strrchr(path, '/');
	if (!base)
		return -1;
	const char *dir = base;
	while (dir > path && dir[-1] != '/')
		dir--;
	char name[64];
	size_t n = (size_t)(base - dir);
	if (n == 0 || n >= sizeof(name))
		return -1;
	memcpy(name, dir, n);
	name[n] = '\0';
	return steps_rank_dir_id(name);
}

/* What distributedInfo (or run.json) says of a rank, "" when nothing: "rank 1 of
 * world_size 2", "rank 1", "world_size 2" (world < 0: not said). */
static void rank_said(char *buf, size_t n, bool has_rank, long rank, long world)
{
	if (has_rank && world >= 0)
		snprintf(buf, n, "rank %ld of world_size %ld", rank, world);
	else if (has_rank)
		snprintf(buf, n, "rank %ld", rank);
	else if (world >= 0)
		snprintf(buf, n, "world_size %ld", world);
	else
		buf[0] = '\0';
}

/* Why r, in the rank dir of step rank `rank` (run.json world_size `world`, -1: none), is
 * of another job (malloc'd), or NULL when its distributedInfo agrees or says nothing. */
static char *foreign_why(const struct trace_rank *r, long rank, long world)
{
	bool other_rank = r->rank_from_meta && r->rank != rank;
	bool other_world = r->world_size >= 0 && world >= 0 && r->world_size != world;
	if (!other_rank && !other_world)
		return NULL;
	char said[64];
	rank_said(said, sizeof(said), r->rank_from_meta, r->rank, r->world_size);
	char wbuf[48] = "";
	if (world >= 0)
		snprintf(wbuf, sizeof(wbuf), " (run.json: world_size %ld)", world);
	return xasprintf("its distributedInfo says %s, but it lies in rank %ld's dir%s: a trace of another job "
			 "(or misplaced)", said, rank, wbuf);
}

/* Refuse r (a trace of another job, why): named, its source refused and left out. */
static void drop_foreign(struct run *run, struct trace_set *ts, const struct trace_rank *r, const char *why)
{
	diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank, "%s; this trace is left out", why);
	char *src_why = xasprintf("refused: %s", why);
	pthread_mutex_lock(&run->lock);
	run_refuse(run, NULL, (long)r->src, src_why);
	run->src[r->src].left_out = true;
	run->src[r->src].rank = r->rank;
	pthread_mutex_unlock(&run->lock);
	free(src_why);
	if (ts->nforeign++ == 0)
		ts->foreign = xasprintf("%s: %s", r->path, why);
}

/* The world_size run.json gives, or -1. */
static long meta_world(const struct steps_meta *meta)
{
	return meta && meta->present && meta->has_world ? meta->world_size : -1;
}

void trace_note_own(struct run *run, const char *path)
{
	struct trace_set *ts = run->trace;
	const struct steps_model *m = run->steps;
	size_t k = 0;
	while (ts && k < ts->n && strcmp(ts->r[k]->path, path) != 0)
		k++;
	if (!m || !ts || k == ts->n)
		return;
	const struct trace_rank *r = ts->r[k];
	size_t ri = 0;
	while (ri < steps_nranks(m) && !trace_pytscope_trace_of(r->path, steps_rank_path(m, ri)))
		ri++;
	const struct steps_meta *meta = ri < steps_nranks(m) ? steps_rank_meta(m, ri) : NULL;
	long world = meta_world(meta), rank = meta && meta->present && meta->has_rank ? meta->rank : -1;
	bool other_rank = r->rank_from_meta && rank >= 0 && r->rank != rank;
	bool other_world = r->world_size >= 0 && world >= 0 && r->world_size != world;
	if (!other_rank && !other_world)
		return;
	char said[64], json[64];   /* what differs */
	rank_said(said, sizeof(said), other_rank, r->rank, other_world ? r->world_size : -1);
	rank_said(json, sizeof(json), other_rank, rank, other_world ? world : -1);
	const char *base = strrchr(r->path, '/') + 1; /* trace_pytscope_trace_of: dir/NAME */
	char *why = xasprintf("records %s, run.json %s: another run's trace? It is read as this run's (a run dir's "
			      "%s is its trace, as in pytscope)", said, json, base);
	diag_add(&run->diags, DIAG_WARN, r->path, -1, -1, r->rank, "%s %s", base, why);
	if (!ts->own_other)
		ts->own_other = xasprintf("%s %s", r->path, why);
	free(why);
}

size_t trace_drop_foreign(struct run *run, struct trace_set *ts, size_t n0)
{
	const struct steps_model *m = run->steps;
	if (!m || (run->opts && run->opts->ntrace > 0))
		return 0;
	size_t k = n0, before = ts->nforeign;
	for (size_t i = n0; i < ts->n; i++) {
		struct trace_rank *r = ts->r[i];
		long rank = dir_rank_id(r->path), ri = rank >= 0 ? steps_rank_index(m, (int)rank) : -1;
		char *why = ri >= 0 ? foreign_why(r, rank, meta_world(steps_rank_meta(m, (size_t)ri))) : NULL;
		if (!why) {
			ts->r[k++] = r;
			continue;
		}
		drop_foreign(run, ts, r, why);
		free(why);
		trace_rank_free(r);
	}
	ts->n = k;
	return ts->nforeign - before;
}

int trace_rank_cmp(const void *a, const void *b)
{
	const struct trace_rank *x = *(struct trace_rank *const *)a, *y = *(struct trace_rank *const *)b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

struct pos_cpu {
	struct trace_cpu c;
	size_t pos;
};

static int pos_cpu_cmp(const void *a, const void *b)
{
	const struct pos_cpu *x = a, *y = b;
	if (x->c.corr != y->c.corr)
		return (x->c.corr > y->c.corr) - (x->c.corr < y->c.corr);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

const struct trace_cpu *trace_cpu_by_corr(const struct trace_rank *r, int64_t corr)
{
	size_t lo = 0, hi = r->ncpu;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->cpu[mid].corr <= corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && r->cpu[lo - 1].corr == corr ? &r->cpu[lo - 1] : NULL;
}

static int step_ptr_cmp(const void *a, const void *b)
{
	const struct trace_step *x = *(const struct trace_step *const *)a, *y = *(const struct trace_step *const *)b;
	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	return (x > y) - (x < y);
}

void trace_span_index_build(const struct trace_rank *r, const bool *kept, struct trace_span_index *si)
{
	si->v = xmalloc((r->nstep + 1) * sizeof(*si->v));
	si->n = 0;
	si->overlap = false;
	for (size_t s = 0; s < r->nstep; s++)
		if (!kept || kept[s])
			si->v[si->n++] = &r->step[s];
	qsort(si->v, si->n, sizeof(*si->v), step_ptr_cmp);
	for (size_t s = 1; s < si->n; s++)
		if (si->v[s]->ts < si->v[s - 1]->ts + si->v[s - 1]->dur)
			si->overlap = true;
}

long trace_span_of(const struct trace_rank *r, const struct trace_span_index *si, int64_t ts)
{
	long span = -1;
	if (si->overlap) {   /* the last in file order */
		for (size_t s = 0; s < si->n; s++)
			if (si->v[s]->ts <= ts && ts < si->v[s]->ts + si->v[s]->dur && si->v[s] - r->step > span)
				span = (long)(si->v[s] - r->step);
		return span;
	}
	size_t lo = 0, hi = si->n;   /* spans that do not overlap: one candidate */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (si->v[mid]->ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && ts < si->v[lo - 1]->ts + si->v[lo - 1]->dur)
		span = (long)(si->v[lo - 1] - r->step);
	return span;
}

/* Sort the CPU events by correlation id, file order among equal ids. */
static void sort_cpu_stable(struct trace_rank *r)
{
	struct pos_cpu *tmp = xmalloc((r->ncpu + 1) * sizeof(*tmp));
	for (size_t i = 0; i < r->ncpu; i++)
		tmp[i] = (struct pos_cpu){ r->cpu[i], i };
	qsort(tmp, r->ncpu, sizeof(*tmp), pos_cpu_cmp);
	for (size_t i = 0; i < r->ncpu; i++)
		r->cpu[i] = tmp[i].c;
	free(tmp);
}

static int long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* A ProfilerStep number r records more than once: the smallest such (its count in *times),
 * how many numbers repeat in *nrep; -1 when none does. */
static long step_repeated(const struct trace_rank *r, size_t *times, size_t *nrep)
{
	long *v = xmalloc((r->nstep + 1) * sizeof(*v)), first = -1;
	for (size_t s = 0; s < r->nstep; s++)
		v[s] = r->step[s].step;
	qsort(v, r->nstep, sizeof(*v), long_cmp);
	*nrep = 0;
	for (size_t s = 0, e; s < r->nstep; s = e) {
		for (e = s + 1; e < r->nstep && v[e] == v[s]; e++)
			;
		if (e - s < 2)
			continue;
		if ((*nrep)++ == 0) {
			first = v[s];
			*times = e - s;
		}
	}
	free(v);
	return first;
}

void trace_finish_rank(struct diag_list *diags, struct trace_set *ts, struct trace_rank *r)
{
	sort_cpu_stable(r);
	r->name_cls = xrealloc(r->name_cls, (r->nnames + 1) * sizeof(*r->name_cls));
	size_t ncomm = 0, nolaunch = 0, times = 0, nrep = 0;
	struct trace_span_index si;
	trace_span_index_build(r, NULL, &si);
	for (size_t i = 0; i < r->nnames; i++)
		r->name_cls[i] = kclass_of(ts->cls, r->names[i]);
	for (size_t k = 0; k < r->nk; k++) {
		struct trace_kernel *e = &r->k[k];
		if (r->name_cls[e->name] == KC_COMMUNICATION)
			ncomm++;
		const struct trace_cpu *c = e->corr >= 0 ? trace_cpu_by_corr(r, e->corr) : NULL;
		long span = c ? trace_span_of(r, &si, c->ts) : -1;
		e->iter = span >= 0 ? (int32_t)r->step[span].step : -1;
		nolaunch += !c;
	}
	free(si.v);
	if (r->nk > 0 && ncomm == 0 && trace_rank_comm_kernels(r))   /* skipped ones' names stay (load.c) */
		diag_add(diags, DIAG_WARN, r->path, -1, -1, r->rank, SAID_COMM_SKIPPED, r->nk);
	else if (r->nk > 0 && ncomm == 0 && trace_rank_partial(r))
		diag_add(diags, DIAG_WARN, r->path, -1, -1, r->rank, SAID_NO_COMM_CUT, r->nk);
	else if (r->nk > 0 && ncomm == 0)
		diag_add(diags, DIAG_WARN, r->path, -1, -1, r->rank, SAID_NO_COMM, r->nk);
	if (nolaunch && r->nstep && !trace_rank_partial(r))   /* a partial rank's steps are not measured */
		diag_add(diags, DIAG_INFO, r->path, -1, -1, r->rank, SAID_NO_LAUNCH, nolaunch, r->nk);
	long again = step_repeated(r, &times, &nrep);
	if (again >= 0 && nrep == 1)
		diag_add(diags, DIAG_WARN, r->path, -1, -1, r->rank, SAID_STEP_AGAIN, again, times);
	else if (again >= 0)
		diag_add(diags, DIAG_WARN, r->path, -1, -1, r->rank, SAID_STEPS_AGAIN, again, times, nrep);
}

void trace_rank_drop_analyses(struct trace_rank *r)
{
	free(r->hta.kstat);
	free(r->hta.idle);
	free(r->hta.dev);
	memset(&r->hta, 0, sizeof(r->hta));
	memset(&r->py, 0, sizeof(r->py));
	free(r->win);
	free(r->nccl);
	free(r->step_comm);
	free(r->step_comp);
	r->win = NULL;
	r->nccl = NULL;
	r->step_comm = NULL;
	r->step_comp = NULL;
	r->nwin = r->nnccl = 0;
	r->hta_done = r->py_done = r->strag_done = false;
}

static void rank_free_names(struct trace_rank *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->name_cls);
}

void trace_rank_free(struct trace_rank *r)
{
	if (!r)
		return;
	rank_free_names(r);
	free(r->k);
	free(r->cpu);
	free(r->step);
	free(r->path);
	free(r->host);
	free(r->gpu);
	free(r->cuda_runtime);
	free(r->cuda_driver);
	free(r->backend);
	trace_rank_drop_analyses(r);
	free(r);
}

/* The file as it is now matches what r was restored from. */
static bool same_file(const struct trace_rank *r)
{
	struct stat st;
	return stat(r->path, &st) == 0 && (long long)st.st_size == r->file_size &&
	       infile_mtime_ns(&st) == r->file_mtime_ns;
}

/* Move f's events (and names, steps) into r; f keeps the rest and is freed. */
static void take_events(struct trace_rank *r, struct trace_rank *f)
{
	free(r->k);
	free(r->cpu);
	free(r->step);
	rank_free_names(r);
	r->k = f->k, r->nk = f->nk, r->kcap = f->kcap;
	r->cpu = f->cpu, r->ncpu = f->ncpu, r->cpucap = f->cpucap;
	r->step = f->step, r->nstep = f->nstep, r->stepcap = f->stepcap;
	r->names = f->names, r->name_cls = f->name_cls, r->nnames = f->nnames, r->namecap = f->namecap;
	r->truncated = f->truncated;
	r->base_ns = f->base_ns;
	f->k = NULL, f->cpu = NULL, f->step = NULL, f->names = NULL, f->name_cls = NULL;
	f->nnames = 0;
	trace_rank_free(f);
}

void trace_rank_need_events(struct trace_set *ts, struct trace_rank *r)
{
	if (!__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&ts->ev_lock);
	if (r->lazy) {
		struct diag_list scratch; /* the file's diagnostics were restored with it */
		diag_list_init(&scratch);
		bool same = same_file(r);
		struct trace_rank *f = trace_parse_file(ts->run, &scratch, r->path);
		if (f)
			trace_finish_rank(&scratch, ts, f);
		same = same && f && f->nnames == r->nnames && f->nstep == r->nstep;
		if (!same) {
			diag_add(&ts->run->diags, DIAG_WARN, r->path, -1, -1, r->rank,
				 "trace changed since its index summary was read; its analyses are computed again "
				 "from the file as it is now");
			trace_rank_drop_analyses(r);
		}
		if (f)
			take_events(r, f);
		diag_list_free(&scratch);
		__atomic_store_n(&r->lazy, false, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&ts->ev_lock);
}

struct trace_set *trace_set_get_or_new(struct run *run)
{
	if (run->trace)
		return run->trace;
	struct trace_set *ts = xcalloc(1, sizeof(*ts));
	pthread_mutex_init(&ts->lock, NULL);
	pthread_mutex_init(&ts->ev_lock, NULL);
	ts->run = run;
	ts->cls = kclass_new(run->opts ? run->opts->kernel_classes : NULL, &run->diags);
	run->trace = ts;
	return ts;
}

void trace_free(struct run *run)
{
	struct trace_set *ts = run->trace;
	if (!ts)
		return;
	for (size_t i = 0; i < ts->n; i++)
		trace_rank_free(ts->r[i]);
	free(ts->r);
	kclass_free(ts->cls);
	free(ts->foreign);
	free(ts->own_other);
	pthread_mutex_destroy(&ts->lock);
	pthread_mutex_destroy(&ts->ev_lock);
	free(ts);
	run->trace = NULL;
}

struct trace_set *trace_get(struct run *run)
{
	return run ? run->trace : NULL;
}
