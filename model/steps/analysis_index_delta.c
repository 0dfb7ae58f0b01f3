/* SPDX-License-Identifier: MIT */
/* analysis_index_delta.c: the summary delta a follower writes beside each index delta
 * (analysis_index.h FOLLOW MODE), and extending the summary with it at an open.
 *
 * File: the index header (index.h), per rank the tails of every pyramid of the summary
 * it extends (in the summary's pyramid order), then the head: u32 SDELTA_TAG,
 * SUMMARY_VERSION (u32), the summary it extends (i64 size, mtime in ns, inode), the
 * index files (summary_put_parts), rank ids, aligned set, distributed analysis, budget
 * sums (as in the summary), u64 S0 (the summary's aligned steps), u64 file offset of
 * the tails, u64 pyramids; per pyramid i64 series, u8 dense, u64 tail words per rank,
 * f64 colour scale low and high; per rank the CRC-32 of its tails (u32). */
#include "model/steps/analysis_index.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/grid.h"
#include "model/index/codec.h"
#include "model/infile.h"
#include "model/run.h"
#include "model/xalloc.h"

#define SDELTA_TAG 0x544c4453u /* "SDLT" */

char *summary_delta_path(const char *run_dir)
{
	char *dir = index_dir_for(run_dir);
	char *p = xasprintf("%s/summary-delta.tsx", dir);
	free(dir);
	return p;
}

size_t summary_tail_words(size_t S0, size_t S, bool dense)
{
	struct heat_grid *g = analysis_heat_new(HEAT_COMPUTE, 1, S, dense);
	struct row_region *v = xmalloc(3 * (g->nlevels + 1) * sizeof(*v));
	size_t n = analysis_heat_regions(g, S0, NULL, v), t = 0;
	for (size_t i = 0; i < n; i++)
		t += v[i].len - v[i].from;
	free(v);
	analysis_heat_free(g);
	return t;
}

/* ---- writing -------------------------------------------------------------------------- */

/* What the summary a delta extends holds (base_read). */
struct sd_base {
	struct index_file_id id;
	size_t S0, ngrid;
	int series[SUMMARY_NGRID];
	bool dense[SUMMARY_NGRID];
};

/* The first S0 aligned steps of the model are the summary's (b at its aligned set). */
static bool aligned_prefix(struct ibuf *b, const struct steps_model *m, size_t *S0)
{
	bool contiguous = ib_u8(b) != 0;
	long lo = (long)ib_svar(b);
	size_t S = ib_count(b, contiguous ? 0 : 1);
	bool same = !b->bad && S <= steps_naligned(m);
	for (size_t k = 0; k < S && !b->bad; k++) {
		long step = contiguous ? lo + (long)k : (long)ib_svar(b);
		same = same && step == steps_aligned_step(m, k);
	}
	ib_uvar(b);   /* the union then */
	*S0 = S;
	return same && !b->bad;
}

/* Skip a pyramid descriptor of N ranks over S0 steps; false when malformed. */
static bool grid_skip(struct ibuf *b, size_t N, size_t S0, int *series, bool *dense)
{
	*series = (int)ib_svar(b);
	*dense = ib_u8(b) != 0;
	ib_uvar(b);
	size_t n = (size_t)ib_uvar(b), D = ib_count(b, 4), W = ib_u32(b);
	if (b->bad || n != N || !W || !D)
		return false;
	size_t nc = (summary_tail_words(0, S0, *dense) + W - 1) / W;
	for (size_t k = 0; k < N + D * nc && !b->bad; k++)
		ib_u32(b);
	ib_f64(b);
	ib_f64(b);
	return !b->bad;
}

/* The index files a summary (or summary delta) names, b at its parts, are run_dir's
 * index files as they are now; with earlier, or some of them, in order, the others
 * deltas: an earlier state of this index. */
static bool parts_match(struct ibuf *b, const char *run_dir, bool earlier)
{
	char **parts = NULL;
	size_t np = index_part_files(run_dir, &parts);
	struct summary_part *cur = xmalloc((np ? np : 1) * sizeof(*cur));
	bool ok = true;
	for (size_t i = 0; i < np; i++) {
		struct stat st = { 0 };
		const char *slash = strrchr(parts[i], '/');
		ok = ok && stat(parts[i], &st) == 0;
		cur[i] = (struct summary_part){ slash ? slash + 1 : parts[i], (long long)st.st_size,
						infile_mtime_ns(&st),
						(long long)st.st_ino };
	}
	bool extended = false;
	ok = ok && summary_match_parts(b, cur, np, earlier ? &extended : NULL) == NULL;
	free(cur);
	for (size_t i = 0; i < np; i++)
		free(parts[i]);
	free(parts);
	return ok;
}

/* The summary of run_dir when it is of an earlier state of its index (the parts, some
 * of their deltas), of the model's ranks, its aligned steps the model's first ones. */
static bool base_read(struct run *run, const char *run_dir, struct sd_base *bi)
{
	const struct steps_model *m = run->steps;
	char *path = summary_path(run_dir);
	unsigned char *head = NULL;
	size_t len = 0;
	const char *bad = index_head_read(path, &head, &len, &bi->id);
	free(path);
	if (bad)
		return false;
	struct ibuf b = { head, len, 0, false };
	bool ok = ib_u32(&b) == SUMMARY_VERSION;
	free(ib_str(&b));
	ok = ok && parts_match(&b, run_dir, true);
	size_t N = steps_nranks(m);
	ok = ok && ib_count(&b, 1) == N;
	for (size_t i = 0; i < N && ok; i++)
		ok = ib_svar(&b) == steps_rank_id(m, i);
	ok = ok && aligned_prefix(&b, m, &bi->S0);
	if (ok) {
		analysis_dist_free(summary_get_dist(&b, N, bi->S0));
		free(summary_get_bsum(&b, N));
		bi->ngrid = ib_count(&b, 17);
		ok = !b.bad && bi->ngrid <= SUMMARY_NGRID;
	}
	for (size_t i = 0; ok && i < bi->ngrid; i++)
		ok = grid_skip(&b, N, bi->S0, &bi->series[i], &bi->dense[i]);
	free(head);
	return ok && !b.bad && b.off == b.n;
}

struct sd_job {
	struct run *run;
	const char *run_dir;
	const struct sd_base *bi;
	const struct distributed *dist;
	struct budget_sums *bsum;
	struct heat_stream *stream[SUMMARY_NGRID];
	size_t tails[SUMMARY_NGRID];
	double lo[SUMMARY_NGRID], hi[SUMMARY_NGRID];
	uint32_t *crc;
	uint64_t tails_off;
};

/* Every rank's tails (each pyramid's row made fresh, its blocks from S0 >> l on), the
 * colour scales over the rows; false: a row had a missing cell. */
static bool put_tails(struct obuf *o, struct sd_job *j)
{
	size_t N = steps_nranks(j->run->steps), ng = j->bi->ngrid;
	struct grid_scale sc[SUMMARY_NGRID];
	struct row_region *v[SUMMARY_NGRID];
	size_t nv[SUMMARY_NGRID];
	for (size_t i = 0; i < ng; i++) {
		const struct heat_grid *g = analysis_heat_stream_grid(j->stream[i]);
		grid_scale_init(&sc[i], N, g->nsteps);
		v[i] = xmalloc(3 * (g->nlevels + 1) * sizeof(*v[i]));
		nv[i] = analysis_heat_regions(g, j->bi->S0, NULL, v[i]);
	}
	j->tails_off = index_body_offset(o);
	bool ok = true;
	for (size_t r = 0; r < N && ok; r++) {
		ob_sum_begin(o);
		for (size_t i = 0; i < ng && ok; i++) {
			const uint32_t *row = analysis_heat_stream_row(j->stream[i], r);
			ok = row != NULL;
			for (size_t k = 0; ok && k < nv[i]; k++)
				ob_bytes(o, row + v[i][k].off + v[i][k].from, (v[i][k].len - v[i][k].from) * 4);
			if (ok)
				heat_row_scale(analysis_heat_stream_grid(j->stream[i]), row, r, &sc[i]);
		}
		j->crc[r] = ob_sum_end(o);
	}
	for (size_t i = 0; i < ng; i++) {
		grid_scale_done(&sc[i], &j->lo[i], &j->hi[i]);
		free(v[i]);
	}
	return ok;
}

static void fill_sdelta(struct obuf *o, void *ud)
{
	struct sd_job *j = ud;
	if (!put_tails(o, j)) {
		ob_fail(o, ENOTSUP);
		return;
	}
	const struct steps_model *m = j->run->steps;
	size_t N = steps_nranks(m);
	ob_head(o);
	ob_u32(o, SDELTA_TAG);
	ob_u32(o, SUMMARY_VERSION);
	ob_svar(o, j->bi->id.size);
	ob_svar(o, j->bi->id.mtime_ns);
	ob_svar(o, j->bi->id.ino);
	summary_put_parts(o, j->run_dir);
	ob_uvar(o, N);
	for (size_t i = 0; i < N; i++)
		ob_svar(o, steps_rank_id(m, i));
	summary_put_aligned(o, m->aligned_contiguous, m->aligned_lo, steps_naligned(m), m->aligned, m->nunion);
	summary_put_dist(o, j->dist);
	summary_put_bsum(o, j->bsum, N);
	ob_uvar(o, j->bi->S0);
	ob_uvar(o, j->tails_off);
	ob_uvar(o, j->bi->ngrid);
	for (size_t i = 0; i < j->bi->ngrid; i++) {
		ob_svar(o, j->bi->series[i]);
		ob_u8(o, j->bi->dense[i]);
		ob_uvar(o, j->tails[i]);
		ob_f64(o, j->lo[i]);
		ob_f64(o, j->hi[i]);
	}
	for (size_t r = 0; r < N; r++)
		ob_u32(o, j->crc[r]);
}

/* The summary delta of run against the summary bi describes. */
static int sdelta_write(struct run *run, const char *run_dir, const struct sd_base *bi,
			const struct distributed *dist)
{
	const struct steps_model *m = run->steps;
	size_t N = steps_nranks(m), S = steps_naligned(m);
	struct sd_job j = { .run = run, .run_dir = run_dir, .bi = bi, .dist = dist };
	int err = 0;
	for (size_t i = 0; i < bi->ngrid && !err; i++) {
		j.stream[i] = analysis_heat_stream_new(run, bi->series[i], bi->dense[i]);
		j.tails[i] = summary_tail_words(bi->S0, S, bi->dense[i]);
		if (!j.stream[i])
			err = ENOTSUP;
		else if (i && bi->series[i] == HEAT_REL_SLOWDOWN && bi->series[0] == HEAT_COMPUTE)
			analysis_heat_stream_share(j.stream[i], j.stream[0]);
	}
	if (!err) {
		j.bsum = xmalloc(N * sizeof(*j.bsum));
		for (size_t i = 0; i < N; i++)
			analysis_budget_sums(run, i, &j.bsum[i]);
		j.crc = xcalloc(N ? N : 1, sizeof(*j.crc));
		char *path = summary_delta_path(run_dir);
		err = index_file_write(path, fill_sdelta, &j);
		free(path);
	}
	for (size_t i = 0; i < bi->ngrid; i++)
		analysis_heat_stream_free(j.stream[i]);
	free(j.bsum);
	free(j.crc);
	return err;
}

int steps_summary_follow(struct run *run, const char *run_dir, bool rewrote)
{
	struct steps_model *m = run->steps;
	int err = ENOTSUP;
	if (m && steps_nranks(m) && steps_naligned(m)) {
		/* the follower's distributed analysis when it is of the records as they are
		 * (over the aligned steps, as a plain open computes it), else computed here */
		const struct analysis_cache *c = analysis_cache_of(run);
		const struct distributed *held = c && c->dist_done && !c->lagging && !c->rc && c->dist &&
							 c->dist->n_steps == steps_naligned(m) ? c->dist : NULL;
		struct distributed *dist = held ? NULL : analysis_dist_compute(run, NULL);
		struct sd_base bi;
		if (!rewrote && base_read(run, run_dir, &bi))
			err = sdelta_write(run, run_dir, &bi, held ? held : dist);
		if (err) /* no summary to extend, or its dense pyramid has a missing cell now */
			err = steps_summary_write_live(run, run_dir, held ? held : dist);
		analysis_dist_free(dist);
	}
	if (err) {
		char *path = summary_delta_path(run_dir);
		unlink(path);
		free(path);
	}
	return err;
}

/* ---- reading -------------------------------------------------------------------------- */

/* The tails of every rank (N x words bytes at off of path), each rank's checked. */
static uint32_t *tails_read(const char *path, const struct index_file_id *id, uint64_t off, size_t N,
			    size_t words, const uint32_t *crc)
{
	uint64_t bytes = (uint64_t)N * words * 4;
	if (off < INDEX_HEADER_LEN || off > id->body_end || bytes > id->body_end - off)
		return NULL;
	uint32_t *t = xmalloc(bytes ? bytes : 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && (long long)st.st_ino == id->ino &&
		  index_pread_all(fd, t, bytes, (long long)off);
	if (fd >= 0)
		close(fd);
	for (size_t r = 0; r < N && ok; r++)
		ok = index_crc32(0, t + r * words, words * 4) == crc[r];
	if (!ok) {
		free(t);
		return NULL;
	}
	return t;
}

struct sd_grid {
	size_t tails;
	double lo, hi;
};

/* The pyramid descriptors of a summary delta against s's pyramids (S0 steps -> S). */
static const char *grids_get(struct ibuf *b, const struct steps_summary *s, size_t S0, size_t S,
			     struct sd_grid *v)
{
	size_t ng = ib_count(b, 19);
	if (b->bad || ng != s->ngrid)
		return b->bad ? "malformed" : "its pyramids are not the summary's";
	for (size_t i = 0; i < ng; i++) {
		long long series = ib_svar(b);
		bool dense = ib_u8(b) != 0;
		v[i].tails = (size_t)ib_uvar(b);
		v[i].lo = ib_f64(b);
		v[i].hi = ib_f64(b);
		const struct heat_grid *g = s->grid[i];
		if (b->bad)
			return "malformed";
		if (series != g->series || dense != g->dense || g->nsteps != S0 ||
		    v[i].tails != summary_tail_words(S0, S, dense))
			return "its pyramids are not the summary's";
	}
	return NULL;
}

/* Give s the pyramids extended by the tails (N ranks, each with every pyramid's). */
static void grids_extend(struct steps_summary *s, const struct sd_grid *v, const uint32_t *t, size_t N, size_t S)
{
	size_t all = 0, at = 0;
	for (size_t i = 0; i < s->ngrid; i++)
		all += v[i].tails;
	for (size_t i = 0; i < s->ngrid; i++) {
		uint32_t *ext = xmalloc(N * v[i].tails * 4 + 1);
		for (size_t r = 0; r < N; r++)
			memcpy(ext + r * v[i].tails, t + r * all + at, v[i].tails * 4);
		at += v[i].tails;
		struct heat_grid *g = analysis_heat_lazy_extend(s->grid[i], S, ext, v[i].tails);
		g->scale_lo = v[i].lo;
		g->scale_hi = v[i].hi;
		g->scale_cols = S;
		g->has_scale = isfinite(v[i].lo) && isfinite(v[i].hi) && v[i].lo <= v[i].hi;
		s->grid[i] = g;
	}
}

/* Decode a summary delta's head (checked) against the model and s. */
static const char *sdelta_decode(struct ibuf *b, struct run *run, const char *path, const struct index_file_id *id,
				 const struct index_file_id *base, struct steps_summary *s)
{
	struct steps_model *m = run->steps;
	if (ib_u32(b) != SDELTA_TAG)
		return "not a summary delta";
	if (ib_u32(b) != SUMMARY_VERSION)
		return "of another analysis version";
	long long size = ib_svar(b), mtime = ib_svar(b), ino = ib_svar(b);
	if (b->bad)
		return "malformed";
	if (size != base->size || mtime != base->mtime_ns || ino != base->ino)
		return "it extends another summary";
	const char *why = summary_check_parts(b, m, NULL);
	if (why)
		return strcmp(why, "stale") ? why : "it is not of these index deltas (a follower stopped between a delta and its summary)";
	if ((why = summary_check_ranks(b, m)))
		return why;
	if (!summary_get_aligned(b, m))
		return "malformed";
	size_t N = m->nrank, S = m->preset_naligned;
	struct distributed *dist = summary_get_dist(b, N, S);
	struct budget_sums *bsum = summary_get_bsum(b, N);
	size_t S0 = (size_t)ib_uvar(b);
	uint64_t off = ib_uvar(b);
	struct sd_grid v[SUMMARY_NGRID + 1];
	why = b->bad ? "malformed" : S0 > S ? "its aligned steps are fewer than the summary's" : NULL;
	if (!why && s->ngrid > SUMMARY_NGRID)
		why = "its pyramids are not the summary's";
	if (!why)
		why = grids_get(b, s, S0, S, v);
	uint32_t *crc = xmalloc((N + 1) * sizeof(*crc));
	for (size_t r = 0; r < N && !why && !b->bad; r++)
		crc[r] = ib_u32(b);
	if (!why && (b->bad || b->off != b->n))
		why = "malformed";
	size_t all = 0;
	for (size_t i = 0; !why && i < s->ngrid; i++)
		all += v[i].tails;
	uint32_t *t = why ? NULL : tails_read(path, id, off, N, all, crc);
	if (!why && !t)
		why = "damaged (a pyramid's cells fail their checksum)";
	free(crc);
	if (why) {
		analysis_dist_free(dist);
		free(bsum);
		return why;
	}
	analysis_dist_free(s->dist);
	free(s->bsum);
	s->dist = dist;
	s->bsum = bsum;
	grids_extend(s, v, t, N, S);
	free(t);
	return NULL;
}

bool steps_summary_delta_current(const char *run_dir)
{
	char *path = summary_path(run_dir);
	unsigned char *head = NULL;
	size_t len = 0;
	struct index_file_id base, id;
	bool ok = index_head_read(path, &head, &len, &base) == NULL;
	free(head);
	free(path);
	head = NULL;
	path = summary_delta_path(run_dir);
	ok = ok && index_head_read(path, &head, &len, &id) == NULL;
	free(path);
	struct ibuf b = { head, ok ? len : 0, 0, false };
	ok = ok && ib_u32(&b) == SDELTA_TAG && ib_u32(&b) == SUMMARY_VERSION;
	long long size = ib_svar(&b), mtime = ib_svar(&b), ino = ib_svar(&b);
	ok = ok && !b.bad && size == base.size && mtime == base.mtime_ns && ino == base.ino;
	ok = ok && parts_match(&b, run_dir, false);
	free(head);
	return ok;
}

const char *summary_delta_apply(struct run *run, const char *run_dir, const struct index_file_id *base,
				struct steps_summary *s)
{
	char *path = summary_delta_path(run_dir);
	unsigned char *head = NULL;
	size_t len = 0;
	struct index_file_id id;
	const char *why = index_head_read(path, &head, &len, &id);
	if (why && strncmp(why, "missing", 7) == 0)
		why = "missing (the follower stopped before writing it)";
	if (!why) {
		struct ibuf b = { head, len, 0, false };
		why = sdelta_decode(&b, run, path, &id, base, s);
	}
	free(head);
	free(path);
	return why;
}
