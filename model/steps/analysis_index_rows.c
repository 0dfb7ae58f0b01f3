/* SPDX-License-Identifier: MIT */
/* analysis_index_rows.c: the rows of a heatmap pyramid restored from the index summary
 * (analysis_index.c has the format): read on demand, one chunk of chunk_words words at
 * a time, each chunk checked against its CRC-32 when it is read, so a frame reads and
 * checks what it draws (a few blocks of one level per rank), never whole rows. The
 * chunks a call needs and does not hold are read with one preadv per rank into a
 * bounded cache of fixed slots (reused oldest first, no allocation per chunk), found
 * through an open-addressing table keyed by (rank, chunk). Whole rows (heat_row(), a
 * summary rewritten from a restored grid) are read whole and checked chunk by chunk.
 * A chunk that cannot be read or fails its check is diagnosed once, the summary
 * invalidated (the next open rewrites it) and that rank's row computed from its
 * steps. */
#include "model/steps/analysis_index.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/run.h"
#include "model/xalloc.h"

/* Chunks read by one preadv at most. */
#define CHUNK_RUN 64

void analysis_heat_lazy_free(struct heat_lazy *lz)
{
	if (!lz)
		return;
	if (lz->fd >= 0)
		close(lz->fd);
	free(lz->slots);
	free(lz->slot_key);
	free(lz->tab);
	free(lz->path);
	free(lz->row_src);
	free(lz->crc);
	free(lz->pinned);
	analysis_heat_free(lz->base);
	free(lz->ext);
	free(lz);
}

void analysis_heat_lazy_cap(struct heat_lazy *lz, size_t cap)
{
	free(lz->slots);
	free(lz->slot_key);
	free(lz->tab);
	lz->slots = NULL;
	lz->slot_key = NULL;
	lz->tab = NULL;
	lz->next = 0;
	size_t all = lz->nranks * lz->nchunks; /* never more slots than chunks */
	lz->cap = cap < all ? cap : all;
	if (lz->cap < 1)
		lz->cap = 1;
	size_t t = 2;
	while (t < 2 * lz->cap)
		t *= 2;
	lz->tmask = t - 1;
}

/* n bytes at file offset at; false on a short read (a summary truncated meanwhile). */
static bool read_at(int fd, void *buf, size_t n, uint64_t at)
{
	size_t got = 0;
	while (fd >= 0 && got < n) {
		ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)(at + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return fd >= 0;
}

/* One preadv of n buffers (bytes in all) at file offset at, short reads continued. */
static bool readv_at(int fd, const struct iovec *buf, size_t n, size_t bytes, uint64_t at)
{
	struct iovec v[CHUNK_RUN], *iov = v;
	memcpy(v, buf, n * sizeof(*v));
	size_t got = 0;
	while (fd >= 0 && got < bytes) {
		ssize_t k = preadv(fd, iov, (int)n, (off_t)(at + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
		for (size_t left = (size_t)k; left;) { /* skip what was read */
			size_t t = left < iov->iov_len ? left : iov->iov_len;
			iov->iov_base = (char *)iov->iov_base + t;
			iov->iov_len -= t;
			left -= t;
			if (!iov->iov_len && n > 1) {
				iov++;
				n--;
			}
		}
	}
	return fd >= 0;
}

static size_t chunk_len(const struct heat_lazy *lz, size_t c)
{
	size_t lo = c * lz->chunk_words;
	return (lz->row_words - lo < lz->chunk_words ? lz->row_words - lo : lz->chunk_words) * 4;
}

static uint64_t row_at(const struct heat_lazy *lz, size_t ri)
{
	return lz->rows_off + (uint64_t)lz->row_src[ri] * lz->row_words * 4;
}

bool analysis_heat_read_row(struct heat_grid *g, size_t ri, void *row)
{
	const struct heat_lazy *lz = g->lazy;
	if (lz->base || !read_at(lz->fd, row, lz->row_words * 4, row_at(lz, ri)))
		return false;
	const uint32_t *crc = lz->crc + (size_t)lz->row_src[ri] * lz->nchunks;
	for (size_t c = 0; c < lz->nchunks; c++)
		if (index_crc32(0, (const unsigned char *)row + c * lz->chunk_words * 4, chunk_len(lz, c)) != crc[c])
			return false;
	return true;
}

/* The first row read of any grid to find the summary unusable: true (the others fail
 * on the file it leaves, or on the damage itself, and say nothing more). */
static bool summary_first_failure(const struct heat_lazy *lz)
{
	struct steps_model *m = lz->run->steps;
	pthread_mutex_lock(&m->lock);
	bool first = m->summary_failed_ino != lz->id.ino;
	m->summary_failed_ino = lz->id.ino;
	pthread_mutex_unlock(&m->lock);
	return first;
}

/* Rank ri's row could not be read: diagnosed (once for the summary, whichever grid
 * meets it first), the summary invalidated, the row computed from the steps and kept. */
static void row_failed(struct heat_grid *g, size_t ri)
{
	struct heat_lazy *lz = g->lazy;
	if (!lz->failed && summary_first_failure(lz))
		diag_add(&lz->run->diags, DIAG_WARN, lz->path, -1, -1, steps_rank_id(lz->run->steps, ri),
			 "index summary damaged or changed since it was opened: heatmap rows are "
			 "computed from the steps; %s",
			 index_damage_note(index_file_invalidate(lz->path, lz->id.ino), true));
	lz->failed = true;
	analysis_heat_build_row(lz->run, g, ri);
	lz->pinned[ri] = true;
}

static size_t tab_home(const struct heat_lazy *lz, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & lz->tmask;
}

/* The slot of chunk c of rank ri, or NULL when it is not resident. */
static const uint32_t *chunk_find(const struct heat_lazy *lz, size_t ri, size_t c)
{
	if (!lz->tab)
		return NULL;
	uint64_t key = (uint64_t)ri * lz->nchunks + c + 1;
	for (size_t i = tab_home(lz, key);; i = (i + 1) & lz->tmask) {
		if (lz->tab[i].key == key)
			return lz->slots + (size_t)lz->tab[i].slot * lz->chunk_words;
		if (!lz->tab[i].key)
			return NULL;
	}
}

/* Remove key from the table (linear probing: the entries after it move back). */
static void tab_del(struct heat_lazy *lz, uint64_t key)
{
	size_t i = tab_home(lz, key);
	while (lz->tab[i].key != key)
		i = (i + 1) & lz->tmask;
	for (size_t j = (i + 1) & lz->tmask; lz->tab[j].key; j = (j + 1) & lz->tmask) {
		size_t h = tab_home(lz, lz->tab[j].key);
		/* entry j may fill hole i unless its home lies cyclically in (i, j] */
		if (((j - h) & lz->tmask) >= ((j - i) & lz->tmask)) {
			lz->tab[i] = lz->tab[j];
			i = j;
		}
	}
	lz->tab[i].key = 0;
}

static void tab_put(struct heat_lazy *lz, uint64_t key, uint32_t slot)
{
	size_t i = tab_home(lz, key);
	while (lz->tab[i].key)
		i = (i + 1) & lz->tmask;
	lz->tab[i] = (struct chunk_ent){ key, slot };
}

/* The next slot, its old chunk dropped. */
static uint32_t slot_take(struct heat_lazy *lz)
{
	if (!lz->slots) {
		lz->slots = xmalloc(lz->cap * lz->chunk_words * 4);
		lz->slot_key = xcalloc(lz->cap, sizeof(*lz->slot_key));
		lz->tab = xcalloc(lz->tmask + 1, sizeof(*lz->tab));
	}
	uint32_t s = (uint32_t)lz->next;
	lz->next = (lz->next + 1) % lz->cap;
	if (lz->slot_key[s])
		tab_del(lz, lz->slot_key[s]);
	lz->slot_key[s] = 0;
	return s;
}

/* Read chunks [c0, c1) of rank ri (none resident; c1 - c0 <= cap) with one preadv
 * into fresh slots, each checked; false (none kept) when one cannot be read or fails
 * its check. */
static bool chunks_load(struct heat_grid *g, size_t ri, size_t c0, size_t c1)
{
	struct heat_lazy *lz = g->lazy;
	struct iovec iov[CHUNK_RUN];
	uint32_t slot[CHUNK_RUN];
	size_t n = c1 - c0, bytes = 0;
	for (size_t k = 0; k < n; k++) {
		slot[k] = slot_take(lz);
		iov[k] = (struct iovec){ lz->slots + (size_t)slot[k] * lz->chunk_words, chunk_len(lz, c0 + k) };
		bytes += iov[k].iov_len;
	}
	bool ok = readv_at(lz->fd, iov, n, bytes, row_at(lz, ri) + (uint64_t)c0 * lz->chunk_words * 4);
	const uint32_t *crc = lz->crc + (size_t)lz->row_src[ri] * lz->nchunks + c0;
	for (size_t k = 0; k < n && ok; k++)
		ok = index_crc32(0, iov[k].iov_base, iov[k].iov_len) == crc[k];
	for (size_t k = 0; k < n && ok; k++) {
		uint64_t key = (uint64_t)ri * lz->nchunks + c0 + k + 1;
		lz->slot_key[slot[k]] = key;
		tab_put(lz, key, slot[k]);
	}
	return ok;
}

/* Chunk c of rank ri, read with the missing chunks after it up to chunk last (not
 * included) when it is not resident; NULL when it cannot be read (the row is then
 * computed: row_failed). */
static const uint32_t *chunk_get(struct heat_grid *g, size_t ri, size_t c, size_t last)
{
	struct heat_lazy *lz = g->lazy;
	const uint32_t *ch = chunk_find(lz, ri, c);
	if (ch)
		return ch;
	size_t e = c + 1;
	while (e < last && e - c < CHUNK_RUN && e - c < lz->cap && !chunk_find(lz, ri, e))
		e++;
	if (chunks_load(g, ri, c, e))
		return chunk_find(lz, ri, c);
	row_failed(g, ri);
	return NULL;
}

/* Words [w, w + n) of rank ri's stored row (the summary's layout) into o by checked
 * chunks; false when one cannot be read (row_failed() has computed the row). */
static bool stored_words(struct heat_grid *g, size_t ri, size_t w, size_t n, unsigned char *o)
{
	struct heat_lazy *lz = g->lazy;
	size_t last = n ? (w + n - 1) / lz->chunk_words + 1 : 0;
	while (n) {
		size_t c = w / lz->chunk_words, at = w - c * lz->chunk_words;
		size_t k = lz->chunk_words - at < n ? lz->chunk_words - at : n;
		const uint32_t *ch = chunk_get(g, ri, c, last);
		if (!ch)
			return false;
		memcpy(o, ch + at, k * 4);
		o += k * 4;
		w += k;
		n -= k;
	}
	return true;
}

static size_t level_off(const struct heat_grid *g, int kind, size_t l)
{
	return kind == 0 ? g->off_val[l] : kind == 1 ? g->off_worst[l] : g->off_count[l];
}

size_t analysis_heat_regions(const struct heat_grid *g, size_t S0, const struct heat_grid *base,
			     struct row_region *v)
{
	size_t n = 0, e = 0;
	for (int kind = 0; kind < (g->dense ? 2 : 3); kind++)
		for (size_t l = kind ? 1 : 0; l < g->nlevels; l++) {
			size_t off = level_off(g, kind, l), len = g->len[l];
			size_t from = l < 63 && (S0 >> l) < len ? S0 >> l : len;
			v[n++] = (struct row_region){ off, len, from, from && base ? level_off(base, kind, l) : 0, e };
			e += len - from;
		}
	return n;
}

/* The region of an extended grid's row holding word w (false: none, w is past the row). */
static bool region_of(const struct heat_grid *g, const struct heat_lazy *lz, size_t w, struct row_region *r)
{
	struct row_region v[3 * 64];
	size_t n = analysis_heat_regions(g, lz->base->nsteps, lz->base, v);
	for (size_t i = 0; i < n; i++)
		if (w >= v[i].off && w < v[i].off + v[i].len) {
			*r = v[i];
			return true;
		}
	return false;
}

void analysis_heat_words(const struct heat_grid *cg, size_t ri, size_t w, size_t n, void *out)
{
	struct heat_grid *g = (struct heat_grid *)cg;
	struct heat_lazy *lz = g->lazy;
	unsigned char *o = out;
	while (n) {
		if (g->row[ri]) { /* whole, or computed after a failed read */
			memcpy(o, (const uint32_t *)g->row[ri] + w, n * 4);
			return;
		}
		size_t k = n, sw = w;
		struct row_region r;
		if (lz->base && region_of(g, lz, w, &r)) {
			size_t b = w - r.off;
			if (b >= r.from) { /* a block the summary delta holds */
				k = r.len - b < n ? r.len - b : n;
				memcpy(o, lz->ext + ri * lz->ext_words + r.ext_off + (b - r.from), k * 4);
				o += k * 4;
				w += k;
				n -= k;
				continue;
			}
			k = r.from - b < n ? r.from - b : n;
			sw = r.base_off + b;
		}
		if (!stored_words(g, ri, sw, k, o))
			continue;
		o += k * 4;
		w += k;
		n -= k;
	}
}

uint32_t analysis_heat_word(const struct heat_grid *g, size_t ri, size_t w)
{
	uint32_t x;
	analysis_heat_words(g, ri, w, 1, &x);
	return x;
}

/* Keep at most HEAT_WHOLE_ROWS unpinned whole rows: the oldest goes. */
static void whole_push(struct heat_grid *g, size_t ri)
{
	struct heat_lazy *lz = g->lazy;
	if (lz->nwring == HEAT_WHOLE_ROWS) {
		size_t old = lz->wring[lz->whead];
		if (!lz->pinned[old]) {
			free(g->row[old]);
			g->row[old] = NULL;
		}
		lz->wring[lz->whead] = ri;
		lz->whead = (lz->whead + 1) % HEAT_WHOLE_ROWS;
		return;
	}
	lz->wring[(lz->whead + lz->nwring++) % HEAT_WHOLE_ROWS] = ri;
}

const void *analysis_heat_row(const struct heat_grid *cg, size_t ri, bool pin)
{
	struct heat_grid *g = (struct heat_grid *)cg;
	struct heat_lazy *lz = g->lazy;
	if (!g->row[ri] && lz->base) { /* assembled from the summary and its delta */
		void *row = xmalloc(g->row_words ? g->row_words * 4 : 1);
		analysis_heat_words(g, ri, 0, g->row_words, row);
		if (g->row[ri]) { /* failed: computed from the steps */
			free(row);
		} else {
			g->row[ri] = row;
			if (!pin)
				whole_push(g, ri);
		}
	}
	if (!g->row[ri]) {
		void *row = xmalloc(g->row_words ? g->row_words * 4 : 1);
		if (analysis_heat_read_row(g, ri, row)) {
			g->row[ri] = row;
			if (!pin)
				whole_push(g, ri);
		} else {
			free(row);
			row_failed(g, ri);
		}
	}
	if (pin && lz)
		lz->pinned[ri] = true;
	return g->row[ri];
}

struct heat_grid *analysis_heat_lazy_extend(struct heat_grid *g, size_t S, uint32_t *ext, size_t ext_words)
{
	struct heat_grid *n = analysis_heat_new(g->series, g->nranks, S, g->dense);
	struct heat_lazy *lz = g->lazy;
	g->lazy = NULL;
	n->lazy = lz;
	lz->base = g;
	lz->ext = ext;
	lz->ext_words = ext_words;
	return n;
}

size_t analysis_heat_read_back(struct run *run, bool *failed)
{
	size_t rows = 0;
	*failed = false;
	for (size_t i = 0; i < SUMMARY_NGRID; i++) {
		/* none, or not restored: nothing to read back */
		const struct heat_grid *g = analysis_heatmap_held(run, summary_series[i]);
		for (size_t ri = 0; g && g->lazy && !g->lazy->failed && ri < g->nranks; ri++, rows++)
			analysis_heat_row(g, ri, false);
		*failed = *failed || (g && g->lazy && g->lazy->failed);
	}
	return rows;
}
