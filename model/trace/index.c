/* SPDX-License-Identifier: MIT */
/* index.c: the trace summaries of the persistent index (model/index/index.h, issue 15).
 * A Kineto trace can be a GB per rank; what the Overview, the findings and the trace
 * views read of it is small: per file the rank (id, world size, host), the kernel name
 * table, the ProfilerStep spans with each step's exposed communication, the HTA
 * analyses (temporal breakdown, kernel-type breakdown, per-kernel statistics, idle time
 * by stream and GPU, each GPU's span), pytscope's trace summary and the straggler inputs (trace.h). Those are
 * kept in RUN_DIR/.tscope-index/traces-K-of-N.tsx (the index file format of index.h:
 * header, CRC-32 of the head; everything is in the head), one per shard: a shard holds
 * the trace files in its rank dirs (the steps' ranks of the shard) and a slice of the
 * others (sorted by path, split like the steps' ranks), so it walks no other rank dir;
 * a shard none falls in writes no part (trace_index_shard_empty) and --status counts it
 * complete; an open names a part it does not use (damaged, or missing while its shard
 * holds traces) and the count of traces it parses instead, as it names a steps shard.
 *
 * A file whose size and mtime are as recorded is restored from its record (a lazy
 * rank: trace_rank_need_events() parses it when a drill-down reads its events); any
 * other file is parsed, and so is a truncated one (whether its GPU events were all
 * read is decided as it is parsed). The ranks of the files restored and parsed are then
 * assigned together in the discovery's order, as a plain load assigns them: a record
 * keeps its distributedInfo.rank (a rank an earlier file claims too is refused, whatever
 * shard indexed either), the file name or order gives the others theirs again, and what
 * trace_finish_rank() said of a record is said of the ranks kept alone (trace_index_late).
 * Records were computed under one last-step rule; when the
 * rule for a rank differs now, trace_filter_check() drops them (recomputed from the
 * events). Not used with --no-index, --kernel-classes (the classes are part of the
 * summaries) or --trace; with --ranks the records of the traces discovery took (the
 * listed rank dirs', and loose files', whose ranks not listed are then dropped). Written
 * by `tscope-tui index` (a shard with --shard), or after a load (not a --ranks subset)
 * that parsed at least TRACE_INDEX_AUTO_MIN_BYTES of traces. */
#include "model/trace/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/opts.h"
#include "model/run.h"
#include "model/text.h"
#include "model/xalloc.h"

#define TRACE_INDEX_AUTO_MIN_BYTES ((long long)64 << 20)

bool trace_index_usable(const struct run *run, const char *path)
{
	const struct opts *o = run->opts;
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       !(o && (o->no_index || o->kernel_classes || o->ntrace > 0));
}

static char *part_path(const char *dir, unsigned k, unsigned n)
{
	return xasprintf("%s/traces-%u-of-%u.tsx", dir, k, n);
}

/* ---- one file's record --------------------------------------------------------------- */

static void put_hta(struct obuf *o, const struct trace_hta *h)
{
	ob_u8(o, h->have_gpu);
	const double f[] = { h->kernel_us, h->idle_us, h->compute_us, h->noncompute_us, h->idle_pct,
			     h->compute_pct, h->noncompute_pct, h->overlap_pct, h->comm_us };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		ob_f64(o, f[i]);
	ob_u8(o, h->have_overlap);
	for (size_t i = 0; i < TB_MAX_LABELS; i++)
		ob_f64(o, h->type_us[i]);
	ob_uvar(o, h->nkstat);
	for (size_t i = 0; i < h->nkstat; i++) {
		const struct trace_kstat *k = &h->kstat[i];
		ob_u32(o, (uint32_t)k->name);
		ob_u8(o, k->cls);
		ob_uvar(o, k->count);
		const double v[] = { k->sum, k->min, k->max, k->mean, k->std };
		for (size_t j = 0; j < ARRAY_LEN(v); j++)
			ob_f64(o, v[j]);
	}
	ob_uvar(o, h->nidle);
	for (size_t i = 0; i < h->nidle; i++) {
		ob_svar(o, h->idle[i].device);
		ob_u32(o, (uint32_t)h->idle[i].stream);
		ob_f64(o, h->idle[i].host_wait);
		ob_f64(o, h->idle[i].kernel_wait);
		ob_f64(o, h->idle[i].other);
	}
	ob_uvar(o, h->ndev);
	for (size_t i = 0; i < h->ndev; i++) {
		const struct trace_devtime *d = &h->dev[i];
		ob_svar(o, d->device);
		const double v[] = { d->kernel_us, d->idle_us, d->compute_us, d->idle_pct };
		for (size_t j = 0; j < ARRAY_LEN(v); j++)
			ob_f64(o, v[j]);
	}
	ob_uvar(o, h->nevents);
	ob_uvar(o, h->nfiltered);
}

static void get_hta(struct ibuf *b, struct trace_hta *h, size_t nnames)
{
	h->have_gpu = ib_u8(b) != 0;
	double *f[] = { &h->kernel_us, &h->idle_us, &h->compute_us, &h->noncompute_us, &h->idle_pct,
			&h->compute_pct, &h->noncompute_pct, &h->overlap_pct, &h->comm_us };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		*f[i] = ib_f64(b);
	h->have_overlap = ib_u8(b) != 0;
	for (size_t i = 0; i < TB_MAX_LABELS; i++)
		h->type_us[i] = ib_f64(b);
	h->nkstat = ib_count(b, 46);
	h->kstat = xcalloc(h->nkstat ? h->nkstat : 1, sizeof(*h->kstat));
	for (size_t i = 0; i < h->nkstat && !b->bad; i++) {
		struct trace_kstat *k = &h->kstat[i];
		k->name = (int32_t)ib_u32(b);
		unsigned cls = ib_u8(b);
		k->count = (size_t)ib_uvar(b);
		double *v[] = { &k->sum, &k->min, &k->max, &k->mean, &k->std };
		for (size_t j = 0; j < ARRAY_LEN(v); j++)
			*v[j] = ib_f64(b);
		if (k->name < 0 || (size_t)k->name >= nnames || cls >= KC_COUNT)
			b->bad = true;
		k->cls = (enum kclass)cls;
	}
	h->nidle = ib_count(b, 29);
	h->idle = xcalloc(h->nidle ? h->nidle : 1, sizeof(*h->idle));
	for (size_t i = 0; i < h->nidle && !b->bad; i++) {
		h->idle[i].device = (int32_t)ib_svar(b);
		h->idle[i].stream = (int32_t)ib_u32(b);
		h->idle[i].host_wait = ib_f64(b);
		h->idle[i].kernel_wait = ib_f64(b);
		h->idle[i].other = ib_f64(b);
	}
	h->ndev = ib_count(b, 33);
	h->dev = xcalloc(h->ndev ? h->ndev : 1, sizeof(*h->dev));
	for (size_t i = 0; i < h->ndev && !b->bad; i++) {
		struct trace_devtime *d = &h->dev[i];
		d->device = (int32_t)ib_svar(b);
		double *v[] = { &d->kernel_us, &d->idle_us, &d->compute_us, &d->idle_pct };
		for (size_t j = 0; j < ARRAY_LEN(v); j++)
			*v[j] = ib_f64(b);
	}
	h->nevents = (size_t)ib_uvar(b);
	h->nfiltered = (size_t)ib_uvar(b);
}

static void put_py(struct obuf *o, const struct trace_pysum *p)
{
	ob_u8(o, p->present);
	const double f[] = { p->wall, p->comm, p->compute, p->exposed, p->overlapped };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		ob_f64(o, f[i]);
	ob_uvar(o, p->n_comm);
	ob_uvar(o, p->n_compute);
	for (size_t i = 0; i < 6; i++) {
		ob_f64(o, p->per_coll[i]);
		ob_u8(o, p->has_coll[i]);
	}
}

static void get_py(struct ibuf *b, struct trace_pysum *p)
{
	p->present = ib_u8(b) != 0;
	double *f[] = { &p->wall, &p->comm, &p->compute, &p->exposed, &p->overlapped };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		*f[i] = ib_f64(b);
	p->n_comm = (size_t)ib_uvar(b);
	p->n_compute = (size_t)ib_uvar(b);
	for (size_t i = 0; i < 6; i++) {
		p->per_coll[i] = ib_f64(b);
		p->has_coll[i] = ib_u8(b) != 0;
	}
}

/* The diagnostics of the run about path. */
static void put_diags(struct obuf *o, const struct run *run, const char *base, const char *path)
{
	size_t n = 0;
	for (size_t i = 0; i < run->diags.n; i++)
		n += run->diags.v[i].file && strcmp(run->diags.v[i].file, path) == 0;
	ob_uvar(o, n);
	for (size_t i = 0; i < run->diags.n; i++)
		if (run->diags.v[i].file && strcmp(run->diags.v[i].file, path) == 0)
			ob_diag(o, base, &run->diags.v[i]);
}

static void put_rank(struct obuf *o, const struct run *run, const char *base, const struct trace_rank *r)
{
	const struct source *so = &run->src[r->src];
	ob_path(o, base, r->path);
	ob_svar(o, r->file_size);
	ob_svar(o, r->file_mtime_ns);
	ob_uvar(o, so->records);
	ob_uvar(o, so->skipped);
	ob_svar(o, so->err);
	ob_u8(o, so->partial);
	put_diags(o, run, base, r->path);
	ob_svar(o, r->rank);
	ob_u8(o, r->rank_from_meta);
	ob_svar(o, r->world_size);
	ob_str(o, r->host);
	ob_str(o, r->gpu);
	ob_str(o, r->cuda_runtime);
	ob_str(o, r->cuda_driver);
	ob_str(o, r->backend);
	ob_svar(o, r->ngpus);
	ob_svar(o, r->device);
	ob_uvar(o, r->skipped);
	ob_uvar(o, r->nnames);
	for (size_t i = 0; i < r->nnames; i++)
		ob_str(o, r->names[i]);
	ob_uvar(o, r->nstep);
	for (size_t i = 0; i < r->nstep; i++) {
		ob_svar(o, r->step[i].step);
		ob_svar(o, r->step[i].ts);
		ob_svar(o, r->step[i].dur);
		ob_svar(o, r->step_comm[i]);
		ob_svar(o, r->step_comp[i]);
	}
	ob_u8(o, r->hta_filter);
	put_hta(o, &r->hta);
	put_py(o, &r->py);
	ob_uvar(o, r->nwin);
	for (size_t i = 0; i < r->nwin; i++) {
		ob_svar(o, r->win[i].iter);
		ob_svar(o, r->win[i].lo);
		ob_svar(o, r->win[i].hi);
	}
	ob_uvar(o, r->nnccl);
	for (size_t i = 0; i < r->nnccl; i++) {
		const struct trace_ncclk *e = &r->nccl[i];
		ob_u32(o, (uint32_t)e->stream);
		ob_u32(o, (uint32_t)e->name);
		ob_svar(o, e->iter);
		ob_uvar(o, e->order);
		ob_svar(o, e->ts);
		ob_svar(o, e->dur);
	}
}

/* A decoded record: the rank (lazy, its analyses done) and what goes into the run once
 * the whole part checked out. */
struct rec {
	struct trace_rank *r;
	size_t records, skipped;
	int err;
	bool partial;
	struct diag *d;
	size_t nd;
};

static void rec_free(struct rec *x)
{
	trace_rank_free(x->r);
	for (size_t i = 0; i < x->nd; i++) {
		free(x->d[i].file);
		free(x->d[i].msg);
	}
	free(x->d);
	memset(x, 0, sizeof(*x));
}

static void get_diags(struct ibuf *b, const char *base, struct rec *x)
{
	x->nd = ib_count(b, ENCODED_DIAG_MIN);
	x->d = xcalloc(x->nd ? x->nd : 1, sizeof(*x->d));
	for (size_t i = 0; i < x->nd && !b->bad; i++)
		ib_diag(b, base, &x->d[i]);
}

static bool get_rank(struct ibuf *b, const char *base, const struct trace_set *ts, struct rec *x)
{
	struct trace_rank *r = x->r = xcalloc(1, sizeof(*r));
	r->path = ib_path(b, base);
	r->file_size = ib_svar(b);
	r->file_mtime_ns = ib_svar(b);
	x->records = (size_t)ib_uvar(b);
	x->skipped = (size_t)ib_uvar(b);
	x->err = (int)ib_svar(b);
	x->partial = ib_u8(b) != 0;
	get_diags(b, base, x);
	long long rank = ib_svar(b);
	r->rank = (int)rank;
	r->rank_from_meta = ib_u8(b) != 0;
	r->world_size = (long)ib_svar(b);
	r->host = ib_str(b);
	r->gpu = ib_str(b);
	r->cuda_runtime = ib_str(b);
	r->cuda_driver = ib_str(b);
	r->backend = ib_str(b);
	int64_t ngpus = ib_svar(b), device = ib_svar(b);
	if (ngpus < 0 || ngpus > 1000000 || device < -1 || device > 63)
		b->bad = true; /* never written so */
	r->ngpus = (int)ngpus;
	r->device = (int)device;
	r->skipped = (size_t)ib_uvar(b);
	r->nnames = ib_count(b, 1);
	r->names = xcalloc(r->nnames ? r->nnames : 1, sizeof(*r->names));
	r->name_cls = xcalloc(r->nnames + 1, sizeof(*r->name_cls));
	for (size_t i = 0; i < r->nnames && !b->bad; i++) {
		r->names[i] = ib_str(b);
		if (!r->names[i])
			b->bad = true;
		else
			r->name_cls[i] = kclass_of(ts->cls, r->names[i]);
	}
	r->nstep = ib_count(b, 4);
	r->step = xcalloc(r->nstep ? r->nstep : 1, sizeof(*r->step));
	r->step_comm = xcalloc(r->nstep ? r->nstep : 1, sizeof(*r->step_comm));
	r->step_comp = xcalloc(r->nstep ? r->nstep : 1, sizeof(*r->step_comp));
	for (size_t i = 0; i < r->nstep && !b->bad; i++) {
		r->step[i].step = (long)ib_svar(b);
		r->step[i].ts = ib_svar(b);
		r->step[i].dur = ib_svar(b);
		r->step_comm[i] = ib_svar(b);
		r->step_comp[i] = ib_svar(b);
	}
	r->hta_filter = ib_u8(b) != 0;
	get_hta(b, &r->hta, r->nnames);
	get_py(b, &r->py);
	r->nwin = ib_count(b, 3);
	r->win = xcalloc(r->nwin ? r->nwin : 1, sizeof(*r->win));
	for (size_t i = 0; i < r->nwin && !b->bad; i++) {
		r->win[i].iter = (long)ib_svar(b);
		r->win[i].lo = ib_svar(b);
		r->win[i].hi = ib_svar(b);
	}
	r->nnccl = ib_count(b, 12);
	r->nccl = xcalloc(r->nnccl ? r->nnccl : 1, sizeof(*r->nccl));
	for (size_t i = 0; i < r->nnccl && !b->bad; i++) {
		struct trace_ncclk *e = &r->nccl[i];
		e->stream = (int32_t)ib_u32(b);
		e->name = (int32_t)ib_u32(b);
		e->iter = (long)ib_svar(b);
		e->order = (size_t)ib_uvar(b);
		e->ts = ib_svar(b);
		e->dur = ib_svar(b);
		if (e->name < 0 || (size_t)e->name >= r->nnames)
			b->bad = true;
	}
	if (!r->path || rank < 0 || rank > INT32_MAX)
		b->bad = true;
	r->hta_done = r->py_done = r->strag_done = r->lazy = true;
	for (size_t i = 0; i < x->nd; i++) { /* the record's own path for the one ib_diag read */
		free(x->d[i].file);
		x->d[i].file = r->path ? xstrdup(r->path) : NULL;
	}
	return !b->bad;
}

/* ---- writing ----------------------------------------------------------------------------- */

struct part_job {
	struct run *run;
	const char *base;
	unsigned k, n;
};

static void fill_part(struct obuf *o, void *ud)
{
	const struct part_job *j = ud;
	struct trace_set *ts = j->run->trace;
	ob_head(o);
	ob_u32(o, j->k);
	ob_u32(o, j->n);
	ob_uvar(o, ts->n);
	for (size_t i = 0; i < ts->n; i++)
		put_rank(o, j->run, j->base, ts->r[i]);
}

int trace_index_write(struct run *run, const char *path, unsigned k, unsigned n, char **path_out)
{
	struct trace_set *ts = run->trace;
	if (path_out)
		*path_out = NULL;
	if (!ts || !ts->n || n == 0 || k >= n)
		return EINVAL;
	for (size_t i = 0; i < ts->n; i++) {
		trace_rank_summarize(ts, i);
		trace_rank_step_comm(ts, ts->r[i]);
		index_note_source(ts->r[i]->path); /* the part shows no more than its traces (wfile.c) */
	}
	char *dir = index_write_dir_for(path);
	int err = index_mkdir_p(dir);
	char *file = part_path(dir, k, n);
	struct part_job job = { run, path, k, n };
	if (!err)
		err = index_file_write(file, fill_part, &job);
	if (!err) /* the open reads the newest shard count's parts only */
		index_remove_other_parts(dir, "traces", n);
	free(dir);
	if (!err && path_out)
		*path_out = file;
	else
		free(file);
	return err;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Index of path in the sorted files, or -1. */
static long file_index(char *const *sorted, size_t n, const char *path)
{
	if (!n)
		return -1;
	char *const *p = bsearch(&path, sorted, n, sizeof(*sorted), text_cmp_ptr);
	return p ? (long)(p - sorted) : -1;
}

/* st: r's file now (stat'ed) is as r was read. */
static bool stamp_is(const struct trace_rank *r, const struct stat *st)
{
	return (long long)st->st_size == r->file_size && infile_mtime_ns(st) == r->file_mtime_ns;
}

static bool same_stamp(const struct trace_rank *r)
{
	struct stat st;
	return stat(r->path, &st) == 0 && stamp_is(r, &st);
}

/* What trace_finish_rank() said of the restored traces (their records' diagnostics), added
 * once the loader knows which ranks it keeps and their ids (trace_index_late). */
struct trace_late {
	struct diag *d;
	size_t n, cap;
};

/* Publish one checked record into the run and hand its rank over (the caller's held[]):
 * its source and what its parse said; what trace_finish_rank() said waits in late; the
 * rank its file name or the file order gave is dropped (the loader assigns it again among
 * all the run's traces: the record's shard may have held other traces than the run). */
static struct trace_rank *restore(struct run *run, struct rec *x, struct trace_late *late)
{
	struct trace_rank *r = x->r;
	if (!r->rank_from_meta)
		r->rank = -1;
	size_t src = run_add_source(run, r->path, "kineto", r->rank, r->file_size);
	run_source_done(run, src, x->records, x->skipped, x->err, x->partial);
	r->src = src;
	for (size_t i = 0; i < x->nd; i++) {
		struct diag *d = &x->d[i];
		enum trace_said by = trace_said_by(d->msg);
		if (by == TRACE_SAID_PARSE)
			diag_add(&run->diags, d->level, d->file, d->line, d->offset, d->rank, "%s", d->msg);
		if (by != TRACE_SAID_FINISH)
			continue;
		xgrow((void **)&late->d, &late->cap, late->n + 1, sizeof(*late->d));
		late->d[late->n++] = *d; /* taken: rec_free() frees what is left */
		*d = (struct diag){ 0 };
	}
	x->r = NULL;
	return r;
}

static int rank_path_cmp(const void *a, const void *b)
{
	const struct trace_rank *x = *(struct trace_rank *const *)a, *y = *(struct trace_rank *const *)b;
	return strcmp(x->path, y->path);
}

void trace_index_late(struct run *run, const struct trace_set *ts, size_t n0, struct trace_late *late)
{
	if (!late)
		return;
	size_t n = ts && ts->n > n0 ? ts->n - n0 : 0;
	struct trace_rank **kept = xmalloc((n ? n : 1) * sizeof(*kept));
	if (n)
		memcpy(kept, ts->r + n0, n * sizeof(*kept));
	qsort(kept, n, sizeof(*kept), rank_path_cmp);
	for (size_t i = 0; i < late->n; i++) {
		struct diag *d = &late->d[i];
		struct trace_rank key = { .path = d->file }, *kp = &key;
		struct trace_rank **r = n ? bsearch(&kp, kept, n, sizeof(*kept), rank_path_cmp) : NULL;
		if (r)
			diag_add(&run->diags, d->level, d->file, d->line, d->offset, (*r)->rank, "%s", d->msg);
		free(d->file);
		free(d->msg);
	}
	free(kept);
	free(late->d);
	free(late);
}

static void recs_free(struct rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rec_free(&v[i]);
	free(v);
}

/* Part k of n at file decoded as an open uses it: its records (*out, *nout; freed with
 * recs_free) and NULL, else why it is not used (static: index_head_read()'s reason, or
 * "malformed") with nothing kept. */
static const char *part_records(const char *file, const char *base, const struct trace_set *ts, unsigned k,
				unsigned n, struct rec **out, size_t *nout)
{
	unsigned char *head;
	size_t hlen;
	struct index_file_id id;
	*out = NULL;
	*nout = 0;
	const char *why = index_head_read(file, &head, &hlen, &id);
	if (why)
		return why;
	struct ibuf b = { head, hlen, 0, false };
	if (ib_u32(&b) != k || ib_u32(&b) != n)
		b.bad = true;
	size_t nrec = ib_count(&b, 8), got = 0;
	struct rec *v = xcalloc(nrec ? nrec : 1, sizeof(*v));
	while (got < nrec && !b.bad)
		if (!get_rank(&b, base, ts, &v[got++]))
			b.bad = true;
	free(head); /* the records hold copies */
	if (b.bad || b.off != b.n) {
		recs_free(v, got);
		return "malformed";
	}
	*out = v;
	*nout = got;
	return NULL;
}

/* How many of the traces sorted[0..nfiles) shard k of n holds; owner[i] set to k for each
 * of them when owner is not NULL. */
static size_t shard_count(const char *run_dir, char *const *sorted, size_t nfiles, unsigned k, unsigned n,
			  long *owner)
{
	char **v = xmalloc((nfiles ? nfiles : 1) * sizeof(*v));
	for (size_t i = 0; i < nfiles; i++)
		v[i] = xstrdup(sorted[i]);
	size_t kept = nfiles;
	trace_index_shard(run_dir, v, &kept, k, n);
	for (size_t i = 0; i < kept; i++) {
		long fi = owner ? file_index(sorted, nfiles, v[i]) : -1;
		if (fi >= 0)
			owner[fi] = k;
		free(v[i]);
	}
	free(v);
	return kept;
}

/* Read part k of n; restore the records of files in sorted[] (not yet restored: held[i]
 * NULL) whose stamps match. A part not used (damaged; missing while its shard holds
 * traces: a shard of none writes no part) is named in a diagnostic with the count of
 * its shard's traces, which are parsed. */
static size_t use_part(struct run *run, const char *path, const char *file, unsigned k, unsigned n,
		       char *const *sorted, size_t nfiles, struct trace_rank **held, struct trace_late *late)
{
	struct trace_set *ts = trace_set_get_or_new(run);
	struct rec *v;
	size_t got, used = 0;
	const char *why = part_records(file, path, ts, k, n, &v, &got);
	size_t parsed = why ? shard_count(path, sorted, nfiles, k, n, NULL) : 0;
	if (why && (parsed || strncmp(why, "missing", 7) != 0))
		diag_add(&run->diags, DIAG_WARN, file, -1, -1, -1,
			 "trace index part %u/%u not used: %s; its %zu trace%s parsed", k, n, why, parsed,
			 parsed == 1 ? " is" : "s are");
	for (size_t i = 0; i < got; i++) {
		long fi = file_index(sorted, nfiles, v[i].r->path);
		/* a truncated file is parsed: its record does not say whether every GPU
		 * event was read (trace.h kernels_whole) */
		if (fi < 0 || held[fi] || !same_stamp(v[i].r) || v[i].partial)
			continue;
		held[fi] = restore(run, &v[i], late);
		used++;
	}
	recs_free(v, got);
	return used;
}

static size_t trace_index_load(struct run *run, const char *path, char *const *files, size_t nfiles,
			       struct trace_rank **held, struct trace_late *late)
{
	char *dir = index_dir_for(path);
	bool found = false;
	unsigned n = index_newest_count(dir, "traces", &found);
	char **sorted = xmalloc((nfiles ? nfiles : 1) * sizeof(*sorted));
	if (nfiles)
		memcpy(sorted, files, nfiles * sizeof(*sorted));
	qsort(sorted, nfiles, sizeof(*sorted), text_cmp_ptr);
	struct trace_rank **sheld = xcalloc(nfiles ? nfiles : 1, sizeof(*sheld));
	size_t used = 0;
	for (unsigned k = 0; k < n; k++) {
		char *file = part_path(dir, k, n);
		used += use_part(run, path, file, k, n, sorted, nfiles, sheld, late);
		free(file);
	}
	for (size_t i = 0; i < nfiles; i++)
		held[i] = sheld[file_index(sorted, nfiles, files[i])];
	free(sheld);
	free(sorted);
	free(dir);
	return used;
}

/* Part v->k of v->n decoded as an open would, each trace's stamp compared with its file
 * now; seen[i]: sorted[i] has a record in it. */
static void part_status(const char *run_dir, const struct trace_set *ts, struct trace_part_status *v,
			char *const *sorted, size_t nfiles, bool *seen)
{
	struct rec *r;
	size_t n;
	const char *why = part_records(v->path, run_dir, ts, v->k, v->n, &r, &n);
	v->why = why ? xstrdup(why) : NULL;
	v->traces = n;
	for (size_t i = 0; i < n; i++) {
		long fi = file_index(sorted, nfiles, r[i].r->path);
		struct stat st;
		bool gone = stat(r[i].r->path, &st) != 0;
		v->gone += gone;
		v->changed += !gone && !stamp_is(r[i].r, &st);
		if (fi >= 0)
			seen[fi] = true;
	}
	recs_free(r, n);
}

size_t trace_index_status(const char *dir, const char *run_dir, struct trace_part_status **out, size_t *unindexed,
			  char ***unindexed_paths)
{
	bool found = false;
	unsigned n = index_newest_count(dir, "traces", &found);
	struct trace_part_status *v = xcalloc(n ? n : 1, sizeof(*v));
	struct trace_set ts = { .cls = kclass_new(NULL, NULL) }; /* names classed as an open would */
	struct trace_pathvec pv = { 0 };  /* the traces an open would read */
	trace_discover(run_dir, &pv, true, NULL);
	if (pv.n)
		qsort(pv.v, pv.n, sizeof(*pv.v), text_cmp_ptr);
	bool *seen = xcalloc(pv.n ? pv.n : 1, sizeof(*seen));
	long *owner = xmalloc((pv.n ? pv.n : 1) * sizeof(*owner)); /* the shard of each trace */
	for (size_t i = 0; i < pv.n; i++)
		owner[i] = -1;
	for (unsigned k = 0; k < n; k++) {
		v[k] = (struct trace_part_status){ .k = k, .n = n, .path = part_path(dir, k, n) };
		part_status(run_dir, &ts, &v[k], pv.v, pv.n, seen);
		v[k].planned = shard_count(run_dir, pv.v, pv.n, k, n, owner);
		if (v[k].why && strncmp(v[k].why, "missing", 7) == 0 && !v[k].planned) {
			free(v[k].why); /* more shards than traces: it lacks nothing (an open says nothing of it) */
			v[k].why = NULL;
		}
	}
	for (size_t i = 0; i < pv.n; i++) { /* a part not usable: its shard's traces are counted with it */
		const struct trace_part_status *p = !seen[i] && owner[i] >= 0 ? &v[owner[i]] : NULL;
		seen[i] = seen[i] || (p && p->why);
		if (p && !p->why)
			v[owner[i]].added++;
	}
	free(owner);
	*unindexed = 0;
	char **paths = unindexed_paths ? xmalloc((pv.n ? pv.n : 1) * sizeof(*paths)) : NULL;
	for (size_t i = 0; i < pv.n; i++) {
		if (!seen[i] && paths)
			paths[*unindexed] = xstrdup(pv.v[i]);
		*unindexed += !seen[i];
	}
	if (unindexed_paths)
		*unindexed_paths = paths;
	free(seen);
	trace_pathvec_free(&pv);
	kclass_free(ts.cls);
	*out = v;
	return n;
}

void trace_index_part_state(const char *dir, const char *run_dir, unsigned k, unsigned n,
			    struct trace_part_status *out)
{
	struct trace_set ts = { .cls = kclass_new(NULL, NULL) };
	struct trace_pathvec pv = { 0 };
	trace_discover(run_dir, &pv, true, NULL);
	if (pv.n)
		qsort(pv.v, pv.n, sizeof(*pv.v), text_cmp_ptr);
	bool *seen = xcalloc(pv.n ? pv.n : 1, sizeof(*seen));
	long *owner = xmalloc((pv.n ? pv.n : 1) * sizeof(*owner));
	for (size_t i = 0; i < pv.n; i++)
		owner[i] = -1;
	*out = (struct trace_part_status){ .k = k, .n = n, .path = part_path(dir, k, n) };
	part_status(run_dir, &ts, out, pv.v, pv.n, seen);
	out->planned = shard_count(run_dir, pv.v, pv.n, k, n, owner);
	for (size_t i = 0; i < pv.n; i++)
		out->added += owner[i] == (long)k && !seen[i];
	free(owner);
	free(seen);
	trace_pathvec_free(&pv);
	kclass_free(ts.cls);
}

void trace_index_status_free(struct trace_part_status *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].path);
		free(v[i].why);
	}
	free(v);
}

/* The rank dir of run_dir that file is in ("rank3" of "<run_dir>/rank3/x.json"), -1
 * when it is not in one of its rank dirs: index_shard_dir_of(). */
static int file_shard_dir(const struct index_shard_dirs *sd, const char *run_dir, const char *file)
{
	size_t rl = strlen(run_dir);
	const char *rest = strncmp(file, run_dir, rl) == 0 && file[rl] == '/' ? file + rl + 1 : NULL;
	const char *slash = rest ? strchr(rest, '/') : NULL;
	if (!slash || strchr(slash + 1, '/'))
		return -1;
	char *name = xstrndup(rest, (size_t)(slash - rest));
	int mine = index_shard_dir_of(sd, name);
	free(name);
	return mine;
}

/* Of v[0..n): which are in a rank dir of shard k of nshard (of[i] 1), of another shard (0),
 * in no rank dir (-1); *nother: how many of the last (malloc'd). */
static int *files_of_shard(const char *run_dir, char *const *v, size_t n, unsigned k, unsigned nshard,
			   size_t *nother)
{
	struct index_shard_dirs sd;
	index_shard_dirs(run_dir, k, nshard, &sd);
	int *of = xmalloc((n ? n : 1) * sizeof(*of));
	*nother = 0;
	for (size_t i = 0; i < n; i++) {
		of[i] = file_shard_dir(&sd, run_dir, v[i]);
		*nother += of[i] < 0;
	}
	index_shard_dirs_free(&sd);
	return of;
}

void trace_index_shard(const char *run_dir, char **v, size_t *n, unsigned k, unsigned nshard)
{
	if (*n) /* v is NULL when there is none */
		qsort(v, *n, sizeof(*v), text_cmp_ptr);
	size_t nother, lo, hi, other = 0, kept = 0;
	int *of = files_of_shard(run_dir, v, *n, k, nshard, &nother);
	index_shard_slice(nother, k, nshard, &lo, &hi);
	for (size_t i = 0; i < *n; i++) {
		bool keep = of[i] == 1 || (of[i] < 0 && other >= lo && other < hi);
		other += of[i] < 0;
		if (keep)
			v[kept++] = v[i];
		else
			free(v[i]);
	}
	free(of);
	*n = kept;
}

bool trace_index_shard_empty(const char *run_dir, unsigned k, unsigned n)
{
	struct opts o = { .shard_k = k, .shard_n = n }; /* the rank dirs of other shards are not listed */
	struct trace_pathvec pv = { 0 };
	trace_discover(run_dir, &pv, true, &o);
	trace_index_shard(run_dir, pv.v, &pv.n, k, n);
	bool empty = pv.n == 0;
	trace_pathvec_free(&pv);
	return empty;
}

size_t trace_index_loose(const char *run_dir, char *const *v, size_t n)
{
	size_t nother;
	free(files_of_shard(run_dir, v, n, 0, 1, &nother));
	return nother;
}

size_t trace_index_restore(struct run *run, const char *path, char *const *v, size_t n, struct trace_rank **held,
			   struct trace_late **late)
{
	*late = xcalloc(1, sizeof(**late));
	size_t used = trace_index_load(run, path, v, n, held, *late);
	if (!used) {
		trace_index_late(run, NULL, 0, *late);
		*late = NULL;
	}
	return used;
}

void trace_index_save(struct run *run, const char *path)
{
	const struct opts *o = run->opts;
	char *written = NULL;
	int err = trace_index_write(run, path, o && o->shard_n ? o->shard_k : 0, o && o->shard_n ? o->shard_n : 1,
				    &written);
	if (err) {
		char *why = index_write_failure(path, err);
		diag_add(&run->diags, o && o->index_build ? DIAG_ERROR : DIAG_INFO, path, -1, -1, -1,
			 "trace index not written: %s", why);
		free(why);
	}
	else if (!run->index_path)
		run_set_index_path(run, written);
	free(written);
}

bool trace_index_want(const struct run *run, long long parsed_bytes)
{
	const struct opts *o = run->opts;
	if (o && o->ranks) /* a subset is not the run */
		return false;
	return (o && o->index_build) || parsed_bytes >= TRACE_INDEX_AUTO_MIN_BYTES;
}
