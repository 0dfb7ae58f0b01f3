/* SPDX-License-Identifier: MIT */
/* analysis_index_rows.c: the rows of a heatmap pyramid restored from the index summary
 * (analysis_index.c has the format): read on demand with pread, one chunk of
 * chunk_words words at a time, each chunk checked against its CRC-32 when it is read,
 * so a frame reads and checks what it draws (a few blocks of one level per rank), never
 * whole rows. A bounded number of chunks stays resident (the oldest go first); whole
 * rows (heat_row(), a summary rewritten from a restored grid) are read whole and
 * checked chunk by chunk. A chunk that cannot be read or fails its check is diagnosed
 * once, the summary invalidated (the next open rewrites it) and that rank's row
 * computed from its steps. */
#include "model/steps/analysis_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "model/run.h"
#include "model/xalloc.h"

void analysis_heat_lazy_free(struct heat_lazy *lz)
{
	if (!lz)
		return;
	if (lz->fd >= 0)
		close(lz->fd);
	for (size_t ri = 0; lz->chunk && ri < lz->nranks; ri++) {
		for (size_t c = 0; lz->chunk[ri] && c < lz->nchunks; c++)
			free(lz->chunk[ri][c]);
		free(lz->chunk[ri]);
	}
	free(lz->chunk);
	free(lz->path);
	free(lz->row_src);
	free(lz->crc);
	free(lz->pinned);
	free(lz->ring);
	free(lz);
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

static size_t chunk_len(const struct heat_grid *g, const struct heat_lazy *lz, size_t c)
{
	size_t lo = c * lz->chunk_words;
	return (g->row_words - lo < lz->chunk_words ? g->row_words - lo : lz->chunk_words) * 4;
}

static uint64_t row_at(const struct heat_grid *g, const struct heat_lazy *lz, size_t ri)
{
	return lz->rows_off + (uint64_t)lz->row_src[ri] * g->row_words * 4;
}

bool analysis_heat_read_row(struct heat_grid *g, size_t ri, void *row)
{
	const struct heat_lazy *lz = g->lazy;
	if (!read_at(lz->fd, row, g->row_words * 4, row_at(g, lz, ri)))
		return false;
	const uint32_t *crc = lz->crc + (size_t)lz->row_src[ri] * lz->nchunks;
	for (size_t c = 0; c < lz->nchunks; c++)
		if ((uint32_t)crc32(0, (const unsigned char *)row + c * lz->chunk_words * 4,
				    (uInt)chunk_len(g, lz, c)) != crc[c])
			return false;
	return true;
}

/* Rank ri's row could not be read: diagnosed (once), the summary invalidated, the row
 * computed from the steps and kept. */
static void row_failed(struct heat_grid *g, size_t ri)
{
	struct heat_lazy *lz = g->lazy;
	if (!lz->failed)
		diag_add(&lz->run->diags, DIAG_WARN, lz->path, -1, -1, steps_rank_id(lz->run->steps, ri),
			 "index summary damaged or changed since it was opened: heatmap rows are "
			 "computed from the steps; the summary is invalidated (the next open rewrites it)");
	lz->failed = true;
	index_file_invalidate(lz->path, lz->id.ino);
	analysis_heat_build_row(lz->run, g, ri);
	lz->pinned[ri] = true;
}

static void drop_chunk(struct heat_lazy *lz, struct chunk_ref r)
{
	if (lz->chunk[r.ri]) {
		free(lz->chunk[r.ri][r.c]);
		lz->chunk[r.ri][r.c] = NULL;
	}
}

/* Read chunk c of rank ri (resident from now on, until it is the oldest of a full
 * ring); false when it cannot be read or fails its check. */
static bool chunk_load(struct heat_grid *g, size_t ri, size_t c)
{
	struct heat_lazy *lz = g->lazy;
	size_t n = chunk_len(g, lz, c);
	void *buf = xmalloc(n);
	if (!read_at(lz->fd, buf, n, row_at(g, lz, ri) + (uint64_t)c * lz->chunk_words * 4) ||
	    (uint32_t)crc32(0, buf, (uInt)n) != lz->crc[(size_t)lz->row_src[ri] * lz->nchunks + c]) {
		free(buf);
		return false;
	}
	if (!lz->chunk[ri])
		lz->chunk[ri] = xcalloc(lz->nchunks, sizeof(*lz->chunk[ri]));
	if (lz->nring == lz->cap) {
		drop_chunk(lz, lz->ring[lz->head]);
		lz->ring[lz->head] = (struct chunk_ref){ (uint32_t)ri, (uint32_t)c };
		lz->head = (lz->head + 1) % lz->cap;
	} else {
		lz->ring[(lz->head + lz->nring++) % lz->cap] = (struct chunk_ref){ (uint32_t)ri, (uint32_t)c };
	}
	lz->chunk[ri][c] = buf;
	return true;
}

uint32_t analysis_heat_word(const struct heat_grid *cg, size_t ri, size_t w)
{
	struct heat_grid *g = (struct heat_grid *)cg;
	struct heat_lazy *lz = g->lazy;
	if (g->row[ri])
		return ((const uint32_t *)g->row[ri])[w];
	size_t c = w / lz->chunk_words;
	if ((!lz->chunk[ri] || !lz->chunk[ri][c]) && !chunk_load(g, ri, c)) {
		row_failed(g, ri);
		return ((const uint32_t *)g->row[ri])[w];
	}
	return ((const uint32_t *)lz->chunk[ri][c])[w - c * lz->chunk_words];
}

void analysis_heat_words(const struct heat_grid *cg, size_t ri, size_t w, size_t n, void *out)
{
	struct heat_grid *g = (struct heat_grid *)cg;
	struct heat_lazy *lz = g->lazy;
	unsigned char *o = out;
	while (n) {
		size_t c = w / lz->chunk_words, at = w - c * lz->chunk_words;
		size_t k = lz->chunk_words - at < n ? lz->chunk_words - at : n;
		if (!g->row[ri] && (!lz->chunk[ri] || !lz->chunk[ri][c]) && !chunk_load(g, ri, c))
			row_failed(g, ri);
		const uint32_t *src = g->row[ri] ? (const uint32_t *)g->row[ri] + w
						 : (const uint32_t *)lz->chunk[ri][c] + at;
		memcpy(o, src, k * 4);
		o += k * 4;
		w += k;
		n -= k;
	}
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
