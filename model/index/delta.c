/* SPDX-License-Identifier: MIT */
/* delta.c: reading the delta segments of an index part at open (see delta.h for the
 * format): which deltas are valid, the extents and sources they move on, and the
 * segments they add to the ranks restored from the base part. */
#include "model/index/delta.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/run.h"
#include "model/steps/internal.h"
#include "model/xalloc.h"

struct delta_file {
	char *path;
	unsigned char *head;
	size_t head_len;
	struct index_file_id id;
	size_t metric_off, diag_off;  /* in head */
	const struct steps_part *part;
};

struct delta_entry {
	long rank;
	size_t file, from;
	struct index_extent ext;
	struct source counts;   /* the source's counters only (ib_source_counts) */
	struct rank_steps *shell;
	uint64_t off, len;
	uint32_t crc;
};

struct delta_set {
	struct delta_file *f;
	size_t nf;
	size_t unused;           /* delta files of the part not taken (delta_set_unused) */
	struct delta_entry *e;   /* sorted by rank, then file */
	size_t ne, ecap;
};

char *delta_path(const char *dir, unsigned k, unsigned n, unsigned seq)
{
	return xasprintf("%s/steps-%u-of-%u.delta-%06u.tsx", dir, k, n, seq);
}

unsigned delta_count(const char *dir, unsigned k, unsigned nparts)
{
	unsigned n = 0;
	for (;;) {
		char *p = delta_path(dir, k, nparts, n + 1);
		bool there = access(p, F_OK) == 0;
		free(p);
		if (!there)
			return n;
		n++;
	}
}

/* name is delta file SEQ of part K of N (not a temporary one). */
static bool delta_name(const char *name, unsigned *k, unsigned *n, unsigned *seq)
{
	int end = 0;
	return sscanf(name, "steps-%u-of-%u.delta-%u.tsx%n", k, n, seq, &end) == 3 && end > 0 && !name[end];
}

unsigned *delta_files_of(const char *dir, unsigned n)
{
	unsigned *c = xcalloc(n ? n : 1, sizeof(*c));
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned dk, dn, seq;
	while (d && (e = readdir(d)))
		if (delta_name(e->d_name, &dk, &dn, &seq) && dn == n && dk < n && seq > 0)
			c[dk]++;
	if (d)
		closedir(d);
	return c;
}

/* Which deltas remove_deltas() takes: every one, part k of n's, those a new part k of n
 * replaces, part k of n's after sequence number `after`. */
enum delta_pick { DELTAS_ALL, DELTAS_OF_PART, DELTAS_REPLACED, DELTAS_AFTER };

static bool delta_picked(enum delta_pick pick, unsigned dk, unsigned dn, unsigned dseq, unsigned k, unsigned n,
			 unsigned after)
{
	bool of_part = dk == k && dn == n;
	return pick == DELTAS_ALL || (pick == DELTAS_OF_PART && of_part) ||
	       (pick == DELTAS_REPLACED && (of_part || dn != n)) || (pick == DELTAS_AFTER && of_part && dseq > after);
}

/* Remove the deltas pick chooses for part k of n, in one pass over dir (and the
 * temporary files of those a writer left: "...tsx.PID.tmp"). */
static void remove_deltas(const char *dir, enum delta_pick pick, unsigned k, unsigned n, unsigned after)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	unsigned seq, dk, dn;
	char tail[8];
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "steps-%u-of-%u.delta-%u.ts%1s", &dk, &dn, &seq, tail) == 4 &&
		    delta_picked(pick, dk, dn, seq, k, n, after)) {
			char *p = xasprintf("%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
	closedir(d);
}

void delta_remove_all(const char *dir)
{
	remove_deltas(dir, DELTAS_ALL, 0, 0, 0);
}

void delta_remove_part(const char *dir, unsigned k, unsigned n)
{
	remove_deltas(dir, DELTAS_OF_PART, k, n, 0);
}

void delta_remove_replaced(const char *dir, unsigned k, unsigned n)
{
	remove_deltas(dir, DELTAS_REPLACED, k, n, 0);
}

/* One entry of a delta head; false when malformed. */
static bool entry_get(struct ibuf *b, const char *base_dir, size_t file, struct delta_entry *x)
{
	*x = (struct delta_entry){ .file = file };
	x->rank = (long)ib_svar(b);
	x->from = (size_t)ib_uvar(b);
	extent_get(b, &x->ext);
	ib_source_counts(b, &x->counts);
	x->shell = b->bad ? NULL : steps_rank_decode_shell(NULL, b, NULL, base_dir);
	x->off = ib_uvar(b);
	x->len = ib_uvar(b);
	x->crc = ib_u32(b);
	bool ok = !b->bad && x->shell && x->shell->rank == x->rank && x->shell->n >= x->from;
	if (!ok) {
		steps_rank_free(x->shell);
		x->shell = NULL;
	}
	return ok;
}

/* Check delta seq's head against the base and decode its entries into ds; NULL or
 * why it is not used. */
static const char *file_read(struct delta_set *ds, struct delta_file *f, unsigned seq, const char *base_dir,
			     const struct index_file_id *base)
{
	const char *bad = index_head_read(f->path, &f->head, &f->head_len, &f->id);
	if (bad)
		return bad;
	struct ibuf b = { f->head, f->head_len, 0, false };
	if (ib_u32(&b) != DELTA_TAG)
		return "not a delta";
	long long size = ib_svar(&b), mtime = ib_svar(&b), ino = ib_svar(&b);
	if (size != base->size || mtime != base->mtime_ns || ino != base->ino)
		return "it extends another version of the index";
	if (ib_u32(&b) != seq)
		return "out of sequence";
	f->metric_off = b.off;
	index_metrics_skip(&b);
	size_t n = ib_count(&b, 27), ne0 = ds->ne;
	for (size_t i = 0; i < n && !b.bad; i++) {
		xgrow((void **)&ds->e, &ds->ecap, ds->ne + 1, sizeof(*ds->e));
		if (entry_get(&b, base_dir, ds->nf, &ds->e[ds->ne]))
			ds->ne++;
		else
			b.bad = true;
	}
	f->diag_off = b.off;
	index_get_diags(&b, NULL, base_dir, false, NULL);
	if (b.bad || b.off != b.n) {
		for (size_t i = ne0; i < ds->ne; i++)
			steps_rank_free(ds->e[i].shell);
		ds->ne = ne0;
		return "malformed";
	}
	return NULL;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct delta_entry *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->file > y->file) - (x->file < y->file);
}

/* Delta seq of n is bad (why): report it, remove it and the ones after it (their
 * records are parsed again from the JSONL and appended by this open). */
static void drop_from(struct run *run, const char *dir, unsigned part_k, unsigned part_n, const char *path,
		      unsigned seq, unsigned n, const char *why)
{
	diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
		 "index delta %u of %u not used: %s; it and the %u after it are dropped, the records they held "
		 "are read from the JSONL", seq, n, why, n - seq);
	for (unsigned k = seq; k <= n; k++) {
		char *p = delta_path(dir, part_k, part_n, k);
		unlink(p);
		free(p);
	}
}

/* Part k of n's chain ends at delta seq - 1 (seq missing) while `after` more of its delta
 * files lie beyond: report and remove them (their records are read from the JSONL). */
static void drop_after_gap(struct run *run, const char *dir, unsigned k, unsigned n, unsigned seq, unsigned after)
{
	char *path = delta_path(dir, k, n, seq);
	diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
		 "index delta %u missing: the %u delta%s after it %s out of sequence and dropped, the records they "
		 "held are read from the JSONL", seq, after, after == 1 ? "" : "s", after == 1 ? "is" : "are");
	free(path);
	remove_deltas(dir, DELTAS_AFTER, k, n, seq);
}

struct delta_set *delta_set_read(struct run *run, const char *dir, unsigned k, unsigned nparts,
				 const char *base_dir, const struct index_file_id *base, unsigned files)
{
	unsigned n = files ? delta_count(dir, k, nparts) : 0;
	if (!n && !files)
		return NULL;
	struct delta_set *ds = xcalloc(1, sizeof(*ds));
	ds->f = xcalloc(n ? n : 1, sizeof(*ds->f));
	for (unsigned seq = 1; seq <= n; seq++) {
		struct delta_file *f = &ds->f[ds->nf];
		f->path = delta_path(dir, k, nparts, seq);
		const char *why = file_read(ds, f, seq, base_dir, base);
		if (why) {
			if (run) /* an open: report and remove them (a status only looks) */
				drop_from(run, dir, k, nparts, f->path, seq, n, why);
			free(f->path);
			free(f->head);
			break;
		}
		ds->nf++;
	}
	unsigned beyond = files > n ? files - n : 0; /* after a gap at n + 1 */
	ds->unused = n - ds->nf + beyond;
	if (run && beyond)
		drop_after_gap(run, dir, k, nparts, n + 1, beyond);
	if (ds->ne)
		qsort(ds->e, ds->ne, sizeof(*ds->e), cmp_entry);
	return ds;
}

/* The first entry of rank id (ds->e is sorted), or NULL. */
static const struct delta_entry *first_of(const struct delta_set *ds, long rank)
{
	size_t lo = 0, hi = ds ? ds->ne : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ds->e[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ds && lo < ds->ne && ds->e[lo].rank == rank ? &ds->e[lo] : NULL;
}

const struct index_extent *delta_set_extent(const struct delta_set *ds, long rank)
{
	const struct delta_entry *x = first_of(ds, rank);
	if (!x)
		return NULL;
	while (x + 1 < ds->e + ds->ne && x[1].rank == rank)
		x++;
	return &x->ext;
}

void index_metrics_put(struct obuf *o, const struct steps_model *m)
{
	size_t nm = steps_nmetrics(m);
	ob_uvar(o, nm);
	for (size_t i = 0; i < nm; i++) {
		const struct metric_def *d = steps_metric(m, (int)i);
		ob_u8(o, d->kind);
		ob_str(o, d->name);
		ob_uvar(o, d->first);
	}
}

/* One entry of a metric table: its name in place (*len bytes; NULL for a written NULL
 * or on error), kind and place. */
static const char *metric_entry(struct ibuf *b, unsigned *kind, size_t *len, uint64_t *first)
{
	*kind = ib_u8(b);
	const char *name = ib_str_view(b, len);
	*first = ib_uvar(b);
	return name;
}

void index_metrics_skip(struct ibuf *b)
{
	size_t nm = ib_count(b, 3), len;
	unsigned kind;
	uint64_t first;
	for (size_t i = 0; i < nm && !b->bad; i++)
		metric_entry(b, &kind, &len, &first);
}

int *index_metrics_get(struct ibuf *b, struct steps_model *m, const struct index_metric_ids *ids, size_t *n)
{
	size_t nm = ib_count(b, 3), len;
	int *map = xcalloc(nm ? nm : 1, sizeof(*map));
	for (size_t k = 0; k < nm; k++) {
		unsigned kind;
		uint64_t first;
		const char *view = metric_entry(b, &kind, &len, &first);
		if (!view || kind > METRIC_MEMORY || b->bad)
			b->bad = true;
		char *name = b->bad ? NULL : xstrndup(view, len);
		if (!name)
			map[k] = -1;
		else if (ids)
			map[k] = ids->id(ids->ud, (enum metric_kind)kind, name, first);
		else
			map[k] = steps_metric_intern_at(m, (enum metric_kind)kind, name, first);
		free(name);
	}
	*n = nm;
	return map;
}

void delta_set_register(struct delta_set *ds, struct steps_model *m, const char *base_dir,
			const struct index_metric_ids *ids)
{
	for (size_t i = 0; ds && i < ds->nf; i++) {
		struct delta_file *f = &ds->f[i];
		struct ibuf b = { f->head, f->head_len, f->metric_off, false };
		size_t nm;
		int *map = index_metrics_get(&b, m, ids, &nm);
		f->part = steps_add_part(m, f->path, base_dir, f->id.size, f->id.mtime_ns, f->id.ino, map, nm);
		free(map);
	}
}

bool delta_set_defer(const struct delta_set *ds, struct rank_steps *x)
{
	const struct delta_entry *e = first_of(ds, x->rank);
	for (; e && e < ds->e + ds->ne && e->rank == x->rank; e++) {
		const struct delta_file *f = &ds->f[e->file];
		if (!f->part || e->off < INDEX_HEADER_LEN || e->len > f->id.body_end ||
		    e->off > f->id.body_end - e->len ||
		    !steps_rank_defer_delta(x, e->shell, f->part, e->off, e->len, e->crc, e->from))
			return false;
	}
	return true;
}

void delta_set_restore(const struct delta_set *ds, struct run *run, const char *base_dir,
		       const struct index_subset *s)
{
	if (!ds)
		return;
	for (size_t i = 0; i < ds->ne; i++) {
		const struct delta_entry *e = &ds->e[i];
		char *steps = xasprintf("%s/steps.jsonl", e->shell->path);
		long si = -1;
		index_sources_of(run, &(struct steps_rank_file){ .rank = e->rank, .steps = steps }, NULL, 1, &si, NULL);
		free(steps);
		if (si < 0)
			continue;
		const struct source *c = &e->counts;
		run_source_done(run, (size_t)si, c->records, c->skipped, c->err, c->partial);
		run_source_progress(run, (size_t)si, c->bytes, c->consumed, c->lines);
	}
	for (size_t i = 0; i < ds->nf; i++) {
		struct ibuf b = { ds->f[i].head, ds->f[i].head_len, ds->f[i].diag_off, false };
		index_get_diags(&b, run, base_dir, true, s);
	}
}

size_t delta_set_count(const struct delta_set *ds)
{
	return ds ? ds->nf : 0;
}

const struct steps_part *delta_set_part(const struct delta_set *ds, size_t i)
{
	return ds->f[i].part;
}

size_t delta_set_unused(const struct delta_set *ds)
{
	return ds ? ds->unused : 0;
}

void delta_set_free(struct delta_set *ds)
{
	if (!ds)
		return;
	for (size_t i = 0; i < ds->ne; i++)
		steps_rank_free(ds->e[i].shell);
	for (size_t i = 0; i < ds->nf; i++) {
		free(ds->f[i].path);
		free(ds->f[i].head);
	}
	free(ds->e);
	free(ds->f);
	free(ds);
}
