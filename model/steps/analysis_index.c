/* SPDX-License-Identifier: MIT */
/* analysis_index.c: the index summary (DESIGN.md invariant 12, model/index/index.h): the
 * run-wide results an indexed open needs without reading every rank's steps: the aligned
 * step set, the distributed analysis (per-rank verdicts and time lost, the per-step
 * critical path, the straggler set), per rank the budget's phase sums (the Budget pane
 * reads no body) and the heatmap pyramids of HEAT_COMPUTE and
 * HEAT_REL_SLOWDOWN. Written next to the index parts as summary.tsx, tied to the parts
 * (name, size, mtime, inode), the rank ids and SUMMARY_VERSION (analysis_index.h: the
 * version of the analyses it holds, not the build: a rebuilt tscope-tui whose analyses
 * give the same results keeps using it); restored at finalize; pyramid rows are read on
 * demand, one chunk at a time (analysis_index_rows.c).
 *
 * File: the index header (index.h), every pyramid's STORED rows, then the head:
 * SUMMARY_VERSION (u32), the build that wrote it (only named in diagnostics), parts,
 * rank ids, aligned set, distributed analysis, budget sums (present flag, then per
 * rank: records, compute, data, comm, other seconds, lanes, the first compute and comm
 * phase values that are not durations), pyramid descriptors. A pyramid
 * descriptor: series, dense, file offset of stored row 0, rank count N, stored row
 * count D, words per chunk W (SUMMARY_CHUNK_WORDS when written here), per rank the
 * stored row it uses (ranks whose rows are the same bytes may share one stored row),
 * per stored row one CRC-32 per chunk of W words (ceil(row words / W) chunks, the last
 * one short), the colour scale. A frame reads and checks only the chunks it draws. */
#include "model/steps/analysis_index.h"
#include "model/steps/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/grid.h"
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/run.h"
#include "model/xalloc.h"

#ifndef TSCOPE_VERSION
#define TSCOPE_VERSION "dev"
#endif

const int summary_series[SUMMARY_NGRID] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };

void steps_summary_free(void *p)
{
	struct steps_summary *s = p;
	if (!s)
		return;
	analysis_dist_free(s->dist);
	free(s->bsum);
	for (size_t i = 0; i < s->ngrid; i++)
		analysis_heat_free(s->grid[i]);
	free(s->grid);
	free(s);
}

char *summary_path(const char *run_dir)
{
	char *dir = index_dir_for(run_dir);
	char *p = xasprintf("%s/summary.tsx", dir);
	free(dir);
	return p;
}

/* ---- the distributed analysis ------------------------------------------------------ */

/* ob_svar, ob_f64 and ob_u8 of the fields, built here and put at once (each value put
 * through o would store and reload o->n: 10,000 ranks make it felt). */
static void rank_stat_put(struct obuf *o, const struct rank_stat *r)
{
	const double f[] = { r->mean_compute, r->median_compute, r->slowest_fraction, r->straggler_z,
			     r->critical_share, r->critical_z, r->rel_slowdown, r->time_lost, r->coverage,
			     r->mem_peak, r->noise, r->slow_shift, r->slow_z, r->slow_cost, r->stall_shift,
			     r->stall_z, r->stall_cost, r->own_mean, r->own_median, r->gap_shift, r->slow_before,
			     r->rise_level, r->late_level };
	const long long n[] = { (long long)r->slowest_count, (long long)r->missing, (long long)r->no_compute,
				r->onset, r->onset_end, r->slow_onset, r->stall_lo, r->stall_hi, r->gap_onset,
				r->rise_onset, r->late_onset };
	unsigned char b[10 + 8 * ARRAY_LEN(f) + 10 * ARRAY_LEN(n) + 1];
	size_t k = ob_sleb(b, r->rank);
	for (size_t i = 0; i < ARRAY_LEN(f); i++, k += 8)
		ob_le_f64(b + k, f[i]);
	for (size_t i = 0; i < ARRAY_LEN(n); i++)
		k += ob_sleb(b + k, n[i]);
	b[k++] = (unsigned char)((unsigned)r->has_mem_peak | (unsigned)r->fail_slow << 1 | (unsigned)r->straggler << 2 |
				 (unsigned)r->gap_sped_up << 3 | (unsigned)r->recovered << 4);
	ob_bytes(o, b, k);
}

static void rank_stat_get(struct ibuf *b, struct rank_stat *r)
{
	r->rank = (int)ib_svar(b);
	double *f[] = { &r->mean_compute, &r->median_compute, &r->slowest_fraction, &r->straggler_z,
			&r->critical_share, &r->critical_z, &r->rel_slowdown, &r->time_lost, &r->coverage,
			&r->mem_peak, &r->noise, &r->slow_shift, &r->slow_z, &r->slow_cost, &r->stall_shift,
			&r->stall_z, &r->stall_cost, &r->own_mean, &r->own_median, &r->gap_shift, &r->slow_before,
			&r->rise_level, &r->late_level };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		*f[i] = ib_f64(b);
	r->slowest_count = (size_t)ib_svar(b);
	r->missing = (size_t)ib_svar(b);
	r->no_compute = (size_t)ib_svar(b);
	long *l[] = { &r->onset, &r->onset_end, &r->slow_onset, &r->stall_lo, &r->stall_hi, &r->gap_onset,
		      &r->rise_onset, &r->late_onset };
	for (size_t i = 0; i < ARRAY_LEN(l); i++)
		*l[i] = (long)ib_svar(b);
	unsigned fl = ib_u8(b);
	r->has_mem_peak = fl & 1;
	r->fail_slow = fl >> 1 & 1;
	r->straggler = fl >> 2 & 1;
	r->gap_sped_up = fl >> 3 & 1;
	r->recovered = fl >> 4 & 1;
}

void summary_put_dist(struct obuf *o, const struct distributed *d)
{
	ob_u8(o, d != NULL);
	if (!d)
		return;
	ob_uvar(o, d->world_size);
	ob_uvar(o, d->n_steps);
	ob_uvar(o, d->n_judged);
	ob_u8(o, d->repeats);
	const double f[] = { d->mean_step_wall, d->mean_comm_fraction, d->imbalance_cv, d->sync_skew,
			     d->wall_frac_lost };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		ob_f64(o, f[i]);
	ob_svar(o, d->straggler);
	ob_uvar(o, d->nstragglers);
	for (size_t i = 0; i < d->nstragglers; i++)
		ob_svar(o, d->stragglers[i]);
	for (size_t i = 0; i < d->world_size; i++)
		rank_stat_put(o, &d->rank[i]);
	for (size_t k = 0; k < d->n_steps; k++) {
		const struct dist_step *s = &d->step[k];
		ob_svar(o, s->step);
		ob_svar(o, s->critical);
		ob_uvar(o, (uint64_t)s->ntied);
		const double g[] = { s->wall, s->cmax, s->cmean, s->cmed, s->comm_max, s->comm_frac, s->cv, s->skew };
		for (size_t i = 0; i < ARRAY_LEN(g); i++)
			ob_f64(o, g[i]);
	}
}

/* The distributed analysis of N ranks and S aligned steps (NULL: none, or b->bad). */
struct distributed *summary_get_dist(struct ibuf *b, size_t N, size_t S)
{
	if (!ib_u8(b))
		return NULL;
	struct distributed *d = xcalloc(1, sizeof(*d));
	d->world_size = (size_t)ib_uvar(b);
	d->n_steps = (size_t)ib_uvar(b);
	d->n_judged = (size_t)ib_uvar(b);
	d->repeats = ib_u8(b) != 0;
	double *f[] = { &d->mean_step_wall, &d->mean_comm_fraction, &d->imbalance_cv, &d->sync_skew,
			&d->wall_frac_lost };
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		*f[i] = ib_f64(b);
	d->straggler = (long)ib_svar(b);
	d->nstragglers = ib_count(b, 1);
	if (b->bad || d->world_size != N || d->n_steps != S || d->n_judged > S || d->nstragglers > N ||
	    d->straggler < -1 || d->straggler >= (long)N) {
		b->bad = true;
		analysis_dist_free(d);
		return NULL;
	}
	d->stragglers = xcalloc(d->nstragglers ? d->nstragglers : 1, sizeof(*d->stragglers));
	for (size_t i = 0; i < d->nstragglers; i++) {
		long long v = ib_svar(b);
		if (v < 0 || v >= (long long)N)
			b->bad = true;
		d->stragglers[i] = (int)v;
	}
	d->rank = xcalloc(N ? N : 1, sizeof(*d->rank));
	for (size_t i = 0; i < N && !b->bad; i++)
		rank_stat_get(b, &d->rank[i]);
	d->step = xcalloc(S ? S : 1, sizeof(*d->step));
	for (size_t k = 0; k < S && !b->bad; k++) {
		struct dist_step *s = &d->step[k];
		s->step = (long)ib_svar(b);
		long long c = ib_svar(b);
		if (c < 0 || c >= (long long)N)
			b->bad = true;
		s->critical = (int)c;
		uint64_t t = ib_uvar(b);
		if (t < 1 || t > N)
			b->bad = true;
		s->ntied = (int)t;
		double *g[] = { &s->wall, &s->cmax, &s->cmean, &s->cmed, &s->comm_max, &s->comm_frac, &s->cv, &s->skew };
		for (size_t i = 0; i < ARRAY_LEN(g); i++)
			*g[i] = ib_f64(b);
	}
	if (b->bad) {
		analysis_dist_free(d);
		return NULL;
	}
	return d;
}

/* ---- the budget's phase sums -------------------------------------------------------- */

void summary_put_bsum1(struct obuf *o, const struct budget_sums *v)
{
	ob_uvar(o, v->n);
	const double f[] = { v->compute, v->data, v->comm, v->other };
	for (size_t k = 0; k < ARRAY_LEN(f); k++)
		ob_f64(o, f[k]);
	ob_u8(o, (uint8_t)v->has);
	for (size_t l = 0; l < BUDGET_NLANES; l++)
		ob_uvar(o, v->lane_n[l]);
	const struct phase_flaw *fl[] = { &v->flaw_compute, &v->flaw_comm }; /* 0 or 1 + phase, step, value */
	for (size_t k = 0; k < ARRAY_LEN(fl); k++) {
		ob_u8(o, fl[k]->found ? 1u + fl[k]->phase : 0u);
		ob_svar(o, fl[k]->step);
		ob_f64(o, fl[k]->value);
	}
}

void summary_get_bsum1(struct ibuf *b, struct budget_sums *v)
{
	v->n = (size_t)ib_uvar(b);
	double *f[] = { &v->compute, &v->data, &v->comm, &v->other };
	for (size_t k = 0; k < ARRAY_LEN(f); k++)
		*f[k] = ib_f64(b);
	v->has = ib_u8(b);
	for (size_t l = 0; l < BUDGET_NLANES; l++)
		v->lane_n[l] = (size_t)ib_uvar(b);
	struct phase_flaw *fl[] = { &v->flaw_compute, &v->flaw_comm };
	for (size_t k = 0; k < ARRAY_LEN(fl); k++) {
		unsigned p = ib_u8(b);
		b->bad |= p > PHASE_FLAW_NPHASES;
		*fl[k] = (struct phase_flaw){ .found = p != 0, .phase = (unsigned char)(p ? p - 1 : 0) };
		fl[k]->step = (long)ib_svar(b);
		fl[k]->value = ib_f64(b);
	}
}

void summary_put_bsum(struct obuf *o, const struct budget_sums *v, size_t N)
{
	ob_u8(o, v != NULL);
	for (size_t i = 0; v && i < N; i++)
		summary_put_bsum1(o, &v[i]);
}

struct budget_sums *summary_get_bsum(struct ibuf *b, size_t N)
{
	if (b->bad || !ib_u8(b))
		return NULL;
	struct budget_sums *v = xcalloc(N ? N : 1, sizeof(*v));
	for (size_t i = 0; i < N && !b->bad; i++)
		summary_get_bsum1(b, &v[i]);
	if (b->bad) {
		free(v);
		return NULL;
	}
	return v;
}

/* ---- writing ------------------------------------------------------------------------ */

const struct heat_grid *summary_job_grid(const struct summary_job *j, size_t i)
{
	return j->stream[i] ? analysis_heat_stream_grid(j->stream[i]) : j->grid[i];
}

size_t summary_chunks_of(size_t row_words, size_t chunk_words)
{
	return (row_words + chunk_words - 1) / chunk_words;
}

/* run_dir's index parts as they are now (*paths: their paths, owned; (*cur)[i].name
 * points into them): size, mtime and inode, size -1 when a part cannot be stat'ed. */
static size_t parts_now(const char *run_dir, char ***paths, struct summary_part **cur)
{
	size_t np = index_part_files(run_dir, paths);
	*cur = xcalloc(np ? np : 1, sizeof(**cur));
	for (size_t i = 0; i < np; i++) {
		struct stat st;
		bool ok = stat((*paths)[i], &st) == 0;
		(*cur)[i] = (struct summary_part){ summary_base_name((*paths)[i]), ok ? (long long)st.st_size : -1,
						   ok ? infile_mtime_ns(&st) : 0, ok ? (long long)st.st_ino : 0 };
	}
	return np;
}

static void parts_free(char **paths, struct summary_part *cur, size_t np)
{
	for (size_t i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	free(cur);
}

void summary_put_parts(struct obuf *h, const char *run_dir)
{
	char **paths = NULL;
	struct summary_part *cur;
	size_t np = parts_now(run_dir, &paths, &cur);
	ob_uvar(h, np);
	for (size_t i = 0; i < np; i++) {
		ob_str(h, cur[i].name);
		ob_svar(h, cur[i].size);
		ob_svar(h, cur[i].mtime_ns);
		ob_svar(h, cur[i].ino);
	}
	parts_free(paths, cur, np);
}

void summary_put_ranks(struct obuf *h, size_t n, const int *ids)
{
	ob_uvar(h, n);
	for (size_t i = 0; i < n; i++)
		ob_svar(h, ids[i]);
}

void summary_put_aligned(struct obuf *h, bool contiguous, long lo, size_t n, const int64_t *aligned, size_t nunion)
{
	ob_u8(h, contiguous);
	ob_svar(h, lo);
	ob_uvar(h, n);
	if (!contiguous)
		for (size_t k = 0; k < n; k++)
			ob_svar(h, aligned[k]);
	ob_uvar(h, nunion);
}

void summary_put_head(struct obuf *h, const struct summary_job *j)
{
	const struct summary_out *s = j->out;
	ob_u32(h, SUMMARY_VERSION);
	ob_str(h, TSCOPE_VERSION);
	summary_put_parts(h, j->run_dir);
	size_t N = s->nranks;
	summary_put_ranks(h, N, s->rank_id);
	summary_put_aligned(h, s->aligned_contiguous, s->aligned_lo, s->naligned, s->aligned, s->nunion);
	summary_put_dist(h, s->dist);
	summary_put_bsum(h, s->bsum, s->nranks);
	ob_uvar(h, j->ngrid);
	for (size_t i = 0; i < j->ngrid; i++) {
		const struct heat_grid *g = summary_job_grid(j, i);
		ob_svar(h, g->series);
		ob_u8(h, g->dense);
		ob_uvar(h, j->rows_off[i]);
		ob_uvar(h, N);
		ob_uvar(h, g->nranks);
		ob_u32(h, (uint32_t)j->chunk_words);
		for (size_t r = 0; r < N; r++)
			ob_u32(h, j->row_src[i] ? j->row_src[i][r] : (uint32_t)r);
		size_t nc = summary_chunks_of(g->row_words, j->chunk_words);
		for (size_t k = 0; k < g->nranks * nc; k++)
			ob_u32(h, j->crc[i][k]);
		ob_f64(h, j->lo[i]); /* the heatmap pane's colour scale (grid.h): an indexed */
		ob_f64(h, j->hi[i]); /* open reads no row to draw its first frame */
	}
}

/* A grid's ranks seen through a rank -> stored row map. */
struct mapped_grid {
	const struct heat_grid *g;
	const uint32_t *row_src;
};

static bool mapped_range(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst)
{
	const struct mapped_grid *mg = ud;
	return heat_range(mg->g, mg->row_src[row], c0, c1, mean, worst);
}

/* The colour scale over N ranks whose rows are mapped to stored rows (gen_index). */
static void mapped_scale(struct summary_job *j, size_t i)
{
	struct mapped_grid mg = { summary_job_grid(j, i), j->row_src[i] };
	size_t N = j->out->nranks;
	struct grid_src src = { .nrows = N, .ncols = mg.g->nsteps, .ud = &mg, .range = mapped_range };
	struct grid_scale sc;
	grid_scale_init(&sc, N, mg.g->nsteps);
	for (size_t r = 0; r < N; r++)
		grid_scale_add_row(&sc, &src, NULL, r);
	grid_scale_done(&sc, &j->lo[i], &j->hi[i]);
}

/* One stored row of pyramid i, a CRC-32 per chunk of cw words: into the stream (first
 * of a pair, or alone), or to its place at `at` (pwrite). */
void summary_put_row(struct obuf *o, const unsigned char *row, size_t bytes, size_t cw, uint32_t *crc, bool stream,
		     uint64_t at)
{
	size_t cb = cw * 4;
	for (size_t lo = 0, c = 0; lo < bytes; lo += cb, c++) {
		size_t n = bytes - lo < cb ? bytes - lo : cb;
		if (stream) {
			ob_sum_begin(o);
			ob_bytes(o, row + lo, n);
			crc[c] = ob_sum_end(o);
		} else {
			crc[c] = index_crc32(0, row + lo, n);
		}
	}
	if (!stream)
		ob_pwrite(o, row, bytes, at);
}

/* Pyramids [i0, i1) (one, or a streamed pair sharing each rank's compute), stored row r
 * of each in turn: the first one's rows go into the stream, the second one's to their
 * place after them (pwrite; the stream skips over them). Each row is written from the
 * grid or the stream as it is, its chunks' CRC-32 and its share of the colour scale
 * taken while it is in cache (rows shared by ranks: the scale over the ranks after).
 * False: a streamed row had a missing cell (the stream is given up). */
static bool put_rows(struct obuf *o, struct summary_job *j, size_t i0, size_t i1)
{
	struct grid_scale sc[2];
	size_t rb[2], nc[2], N = summary_job_grid(j, i0)->nranks;
	for (size_t i = i0; i < i1; i++) {
		const struct heat_grid *g = summary_job_grid(j, i);
		grid_scale_init(&sc[i - i0], g->nranks, g->nsteps);
		rb[i - i0] = g->row_words * 4;
		nc[i - i0] = summary_chunks_of(g->row_words, j->chunk_words);
		j->rows_off[i] = i == i0 ? index_body_offset(o) : j->rows_off[i0] + N * rb[0];
		j->crc[i] = xcalloc(N * nc[i - i0] + 1, sizeof(*j->crc[i]));
	}
	bool ok = true;
	for (size_t r = 0; r < N && ok; r++)
		for (size_t i = i0; i < i1 && ok; i++) {
			const void *row = j->stream[i] ? analysis_heat_stream_row(j->stream[i], r)
						       : analysis_heat_row(summary_job_grid(j, i), r, false);
			ok = row != NULL;
			if (!ok)
				break;
			summary_put_row(o, row, rb[i - i0], j->chunk_words, j->crc[i] + r * nc[i - i0], i == i0,
				j->rows_off[i] + r * rb[i - i0]);
			if (!j->row_src[i])
				heat_row_scale(summary_job_grid(j, i), row, r, &sc[i - i0]);
		}
	if (i1 - i0 == 2)
		ob_skip(o, N * rb[1]);
	for (size_t i = i0; i < i1; i++) {
		grid_scale_done(&sc[i - i0], &j->lo[i], &j->hi[i]);
		if (ok && j->row_src[i])
			mapped_scale(j, i);
	}
	return ok;
}

static void fill_summary(struct obuf *o, void *ud)
{
	struct summary_job *j = ud;
	for (size_t i = 0; i < j->ngrid;) {
		bool pair = i + 1 < j->ngrid && j->stream[i] && j->stream[i + 1];
		size_t next = i + (pair ? 2 : 1);
		if (!put_rows(o, j, i, next)) {
			j->not_dense = true;
			ob_fail(o, ECANCELED);
			return;
		}
		i = next;
	}
	ob_head(o);
	summary_put_head(o, j);
}

void summary_job_free(struct summary_job *j)
{
	for (size_t i = 0; i < j->ngrid; i++) {
		analysis_heat_stream_free(j->stream[i]);
		free(j->crc[i]);
	}
	memset(j->stream, 0, sizeof(j->stream));
	memset(j->crc, 0, sizeof(j->crc));
	j->ngrid = 0;
}

/* The summary's pyramids: built whole into the analysis cache (both in one pass over
 * the records), or, for `tscope-tui index` (nothing else will read them) and a
 * follower (its cache covers its newest steps too), streamed (dense: without a missing
 * cell); or the writer's (j->run NULL). */
static void job_pyramids(struct summary_job *j, bool stream, bool dense)
{
	struct run *run = j->run;
	if (!run) {
		for (size_t i = 0; i < j->out->ngrid; i++) {
			j->grid[j->ngrid] = j->out->grid[i].g;
			j->row_src[j->ngrid++] = j->out->grid[i].row_src;
		}
		return;
	}
	if (stream) {
		double **rows = analysis_cache_of(run)->index_rows; /* every rank's compute, read once */
		for (size_t i = 0; i < ARRAY_LEN(summary_series); i++)
			if ((j->stream[j->ngrid] = analysis_heat_stream_new(run, summary_series[i], dense))) {
				if (rows)
					analysis_heat_stream_rows(j->stream[j->ngrid], rows);
				j->ngrid++;
			}
		if (j->ngrid == 2) /* the slowdown row from the compute its compute row read */
			analysis_heat_stream_share(j->stream[1], j->stream[0]);
		return;
	}
	analysis_heatmaps(run, summary_series, ARRAY_LEN(summary_series));
	for (size_t i = 0; i < ARRAY_LEN(summary_series); i++) {
		const struct heat_grid *g = analysis_heatmap_last(run, summary_series[i]);
		bool compact = g != NULL; /* rows as analysis_heat_new() lays them out */
		for (size_t l = 0; compact && l < g->nlevels; l++)
			compact = g->cap[l] == g->len[l];
		if (compact)
			j->grid[j->ngrid++] = g;
	}
}

/* Write the summary of out; run: build its pyramids here (NULL: out's), streamed
 * when `stream`, always when `live` (a follower's run). A summary delta of the
 * summary it replaces is removed. */
static int summary_write(const char *run_dir, const struct summary_out *out, struct run *run, bool stream,
			 bool live)
{
	struct summary_job j = { .out = out, .run = run, .run_dir = run_dir,
				 .chunk_words = out->chunk_words ? out->chunk_words : SUMMARY_CHUNK_WORDS };
	job_pyramids(&j, stream || live, true);
	char *path = summary_path(run_dir);
	int err = index_file_write(path, fill_summary, &j);
	if (err == ECANCELED && j.not_dense) { /* a pyramid with missing cells: build it whole */
		summary_job_free(&j);
		j.not_dense = false;
		job_pyramids(&j, live, false);
		err = index_file_write(path, fill_summary, &j);
	}
	summary_job_free(&j);
	free(path);
	if (!err) {
		char *dpath = summary_delta_path(run_dir);
		unlink(dpath);
		free(dpath);
	}
	return err;
}

int steps_summary_write_out(const char *run_dir, const struct summary_out *s)
{
	return summary_write(run_dir, s, NULL, false, false);
}

int steps_summary_write(struct run *run, const char *run_dir)
{
	int rebuilt = steps_summary_rebuild(run, run_dir); /* rank by rank, when it can */
	return rebuilt != ENOTSUP ? rebuilt : steps_summary_write_chunks(run, run_dir, 0);
}

/* The summary of run with the distributed analysis dist (NULL: the run's). live: the
 * run is a follower's (its analyses and pyramids in memory cover its newest steps too):
 * the pyramids are streamed over the aligned steps, as they are when the heatmap's
 * columns go on past them (a rank ended early). */
static int write_summary_of(struct run *run, const char *run_dir, size_t chunk_words,
			    const struct distributed *dist, bool live)
{
	const struct steps_model *m = run->steps;
	if (!m || !steps_nranks(m))
		return 0;
	/* the distributed analysis first: the slowdown pyramid then takes its step medians
	 * instead of a pass of its own */
	if (!dist)
		dist = analysis_distributed_last(run);
	if (run->opts && run->opts->index_build) /* no distributed analysis took the seal's inputs */
		analysis_index_rows_of_inputs(run);
	struct analysis_cache *c = analysis_cache_of(run);
	size_t N = steps_nranks(m);
	int *ids = xmalloc(N * sizeof(*ids));
	struct budget_sums *bsum = xmalloc(N * sizeof(*bsum));
	for (size_t i = 0; i < N; i++) {
		ids[i] = steps_rank_id(m, i);
		if (c->index_rows) /* taken with the compute rows */
			bsum[i] = c->bsum[i];
		else
			analysis_budget_sums(run, i, &bsum[i]);
	}
	struct summary_out s = { .bsum = bsum, .nranks = N, .rank_id = ids, .aligned_contiguous = m->aligned_contiguous,
				 .aligned_lo = m->aligned_lo, .naligned = steps_naligned(m),
				 .aligned = m->aligned, .nunion = m->nunion, .dist = dist, .chunk_words = chunk_words };
	int err = summary_write(run_dir, &s, run, run->opts && run->opts->index_build,
				live || steps_ncolumns(m) > steps_naligned(m));
	analysis_index_rows_free(c);
	free(bsum);
	free(ids);
	return err;
}

int steps_summary_write_chunks(struct run *run, const char *run_dir, size_t chunk_words)
{
	return write_summary_of(run, run_dir, chunk_words, NULL, false);
}

int steps_summary_write_live(struct run *run, const char *run_dir, const struct distributed *dist)
{
	return write_summary_of(run, run_dir, 0, dist, true);
}

/* ---- reading ------------------------------------------------------------------------ */

const char *summary_match_parts(struct ibuf *b, const struct summary_part *cur, size_t n, bool *extended)
{
	size_t np = ib_count(b, 4), j = 0;
	if (b->bad)
		return "malformed";
	bool exact = np == n, sub = np > 0;
	for (size_t i = 0; i < np; i++) {
		char *name = ib_str(b);
		long long size = ib_svar(b), mtime = ib_svar(b), ino = ib_svar(b);
		if (b->bad || !name) {
			free(name);
			return "malformed";
		}
		exact = exact && strcmp(name, cur[i].name) == 0 && size == cur[i].size && mtime == cur[i].mtime_ns &&
			ino == cur[i].ino;
		for (; j < n && !(strcmp(name, cur[j].name) == 0 && size == cur[j].size && mtime == cur[j].mtime_ns &&
				  ino == cur[j].ino); j++)
			sub = sub && strstr(cur[j].name, ".delta-"); /* skipped: only deltas */
		sub = sub && j < n;
		j++;
		free(name);
	}
	for (; j < n; j++)
		sub = sub && strstr(cur[j].name, ".delta-");
	if (extended)
		*extended = !exact && sub;
	return exact || (extended && sub) ? NULL : "stale";
}

const char *steps_summary_state(const char *run_dir)
{
	char *path = summary_path(run_dir);
	unsigned char *head = NULL;
	size_t len = 0;
	struct index_file_id id;
	const char *why = index_head_read(path, &head, &len, &id);
	free(path);
	if (why && strncmp(why, "missing", 7) == 0) /* its wording is a part's */
		why = "none yet";
	struct ibuf b = { head, len, 0, false };
	if (!why && ib_u32(&b) != SUMMARY_VERSION)
		why = "of another analysis version";
	free(why ? NULL : ib_str(&b));
	char **paths = NULL;
	struct summary_part *cur = NULL;
	size_t np = why ? 0 : parts_now(run_dir, &paths, &cur);
	for (size_t i = 0; i < np && !why; i++)
		if (cur[i].size < 0)
			why = "of parts that cannot be read";
	if (!why && (b.bad || !np || summary_match_parts(&b, cur, np, NULL)))
		why = "of other parts (written before the parts it covers changed)";
	parts_free(paths, cur, np);
	free(head);
	return why;
}

bool steps_summary_current(const char *run_dir)
{
	return steps_summary_state(run_dir) == NULL;
}

/* Recorded parts against the parts this open used (m->part, shard order). */
const char *summary_check_parts(struct ibuf *b, const struct steps_model *m, bool *prefix)
{
	struct summary_part *cur = xmalloc((m->npart ? m->npart : 1) * sizeof(*cur));
	for (size_t i = 0; i < m->npart; i++) {
		const struct steps_part *p = m->part[i];
		cur[i] = (struct summary_part){ summary_base_name(p->path), p->size, p->mtime_ns, p->ino };
	}
	const char *why = summary_match_parts(b, cur, m->npart, prefix);
	free(cur);
	return why;
}

const char *summary_check_ranks(struct ibuf *b, const struct steps_model *m)
{
	size_t n = ib_count(b, 1);
	if (b->bad)
		return "malformed";
	if (n != m->nrank)
		return "stale";
	long long prev = 0;
	for (size_t i = 0; i < n; i++) {
		long long id = ib_svar(b);
		if (b->bad || id < INT32_MIN || id > INT32_MAX || (i && id <= prev))
			return "malformed";
		if (steps_rank_index(m, (int)id) < 0)
			return "stale";
		prev = id;
	}
	return NULL;
}

bool summary_get_aligned(struct ibuf *b, struct steps_model *m)
{
	bool contiguous = ib_u8(b) != 0;
	long lo = (long)ib_svar(b);
	size_t S = ib_count(b, contiguous ? 0 : 1);
	int64_t *v = NULL;
	if (!contiguous && !b->bad) {
		v = xmalloc((S ? S : 1) * sizeof(*v));
		for (size_t k = 0; k < S; k++)
			v[k] = ib_svar(b);
	}
	size_t nunion = (size_t)ib_uvar(b);
	if (b->bad || S > nunion) {
		free(v);
		b->bad = true;
		return false;
	}
	free(m->preset_aligned); /* a summary delta's replaces its summary's */
	m->preset = true;
	m->preset_contiguous = contiguous;
	m->preset_lo = lo;
	m->preset_aligned = v;
	m->preset_naligned = S;
	m->preset_nunion = nunion;
	return true;
}

/* The rows of a restored grid stay in the summary (analysis_index_rows.c). */
static struct heat_lazy *lazy_new(struct run *run, const char *path, const struct index_file_id *id,
				  uint64_t off, size_t N, size_t D, size_t W, size_t nchunks)
{
	struct heat_lazy *lz = xcalloc(1, sizeof(*lz));
	lz->path = xstrdup(path);
	lz->fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (lz->fd >= 0 && (fstat(lz->fd, &st) != 0 || (long long)st.st_ino != id->ino)) {
		close(lz->fd); /* replaced since its head was read: every row is computed */
		lz->fd = -1;
	}
	lz->id = *id;
	lz->rows_off = off;
	lz->run = run;
	lz->nranks = N;
	lz->nstored = D;
	lz->chunk_words = W;
	lz->nchunks = nchunks;
	lz->row_src = xmalloc(N * sizeof(*lz->row_src));
	lz->crc = xmalloc((D * nchunks + 1) * sizeof(*lz->crc));
	lz->pinned = xcalloc(N, sizeof(*lz->pinned));
	analysis_heat_lazy_cap(lz, HEAT_CHUNK_BYTES / (W * 4));
	return lz;
}

static struct heat_grid *grid_get(struct ibuf *b, struct run *run, const char *path,
				  const struct index_file_id *id, size_t N, size_t S)
{
	long long series = ib_svar(b);
	bool dense = ib_u8(b) != 0;
	uint64_t off = ib_uvar(b);
	size_t n = (size_t)ib_uvar(b);
	size_t D = ib_count(b, 4); /* a chunk CRC each, at least */
	size_t W = ib_u32(b);
	if (b->bad || n != N || series < HEAT_REL_SLOWDOWN || series > INT32_MAX || !S || !D || D > N || !W ||
	    W > ((size_t)1 << 24)) {
		b->bad = true;
		return NULL;
	}
	struct heat_grid *g = analysis_heat_new((int)series, N, S, dense);
	size_t nc = (g->row_words + W - 1) / W;
	uint64_t bytes = (uint64_t)g->row_words * 4 * D;
	if (off < INDEX_HEADER_LEN || off > id->body_end || bytes > id->body_end - off || !nc ||
	    (b->n - b->off) / 4 < N + D * nc) {
		analysis_heat_free(g);
		b->bad = true;
		return NULL;
	}
	struct heat_lazy *lz = lazy_new(run, path, id, off, N, D, W, nc);
	lz->row_words = g->row_words;
	g->lazy = lz;
	for (size_t r = 0; r < N; r++) {
		lz->row_src[r] = ib_u32(b);
		if (lz->row_src[r] >= D)
			b->bad = true;
	}
	for (size_t k = 0; k < D * nc; k++)
		lz->crc[k] = ib_u32(b);
	g->scale_lo = ib_f64(b);
	g->scale_hi = ib_f64(b);
	g->scale_cols = S;
	g->has_scale = isfinite(g->scale_lo) && isfinite(g->scale_hi) && g->scale_lo <= g->scale_hi;
	if (b->bad) {
		analysis_heat_free(g);
		return NULL;
	}
	return g;
}

/* Decode a checked head against the model. NULL or why it is not used; *prefix: the
 * summary is of the model's first parts (a summary delta must extend it). */
static const char *summary_decode(struct ibuf *b, struct run *run, const char *path,
				  const struct index_file_id *id, struct steps_summary *s, bool *prefix)
{
	struct steps_model *m = run->steps;
	uint32_t version = ib_u32(b);
	char *build = ib_str(b);
	if (!b->bad && version != SUMMARY_VERSION) {
		diag_add(&run->diags, DIAG_INFO, path, -1, -1, -1,
			 "index summary of analysis version %u (written by tscope-tui %s); this build's analyses are "
			 "version %u: they are computed again and the summary rewritten",
			 version, build ? build : "?", SUMMARY_VERSION);
		free(build);
		return "stale";
	}
	free(build);
	if (b->bad)
		return "malformed";
	const char *why = summary_check_parts(b, m, prefix);
	if (!why)
		why = summary_check_ranks(b, m);
	if (why)
		return why;
	if (!summary_get_aligned(b, m))
		return "malformed";
	s->dist = summary_get_dist(b, m->nrank, m->preset_naligned);
	s->bsum = summary_get_bsum(b, m->nrank);
	size_t ng = b->bad ? 0 : ib_count(b, 17);
	s->grid = xcalloc(ng ? ng : 1, sizeof(*s->grid));
	for (size_t i = 0; i < ng && !b->bad; i++) {
		struct heat_grid *g = grid_get(b, run, path, id, m->nrank, m->preset_naligned);
		if (g)
			s->grid[s->ngrid++] = g;
	}
	if (b->bad || b->off != b->n)
		return "malformed";
	return NULL;
}

void steps_summary_open(struct run *run, const char *run_dir)
{
	struct steps_model *m = run->steps;
	if (!m || !m->nrank)
		return;
	char *path = summary_path(run_dir);
	unsigned char *head = NULL;
	size_t len = 0;
	struct index_file_id id;
	const char *why = index_head_read(path, &head, &len, &id);
	struct steps_summary *s = xcalloc(1, sizeof(*s));
	bool prefix = false;
	if (!why) {
		struct ibuf b = { head, len, 0, false };
		why = summary_decode(&b, run, path, &id, s, &prefix);
	}
	free(head);
	if (!why && prefix) { /* deltas since: only with the summary delta of exactly those */
		why = summary_delta_apply(run, run_dir, &id, s);
		if (why) {
			char *dpath = summary_delta_path(run_dir);
			diag_add(&run->diags, DIAG_INFO, dpath, -1, -1, -1,
				 "index summary delta not used: %s; the analyses are computed from the steps and the "
				 "summary rewritten", why);
			free(dpath);
			why = "stale";
		}
	}
	if (why) {
		steps_summary_free(s);
		free(m->preset_aligned);
		m->preset_aligned = NULL;
		m->preset = false;
		if (strcmp(why, "stale") != 0 && strncmp(why, "missing", 7) != 0)
			diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1,
				 "index summary not used: %s; the analyses are computed from the steps and the summary rewritten",
				 why);
	} else {
		m->summary = s;
	}
	free(path);
}

bool steps_summary_restore(struct run *run)
{
	struct steps_model *m = run->steps;
	struct steps_summary *s = m ? m->summary : NULL;
	if (!s)
		return false;
	struct analysis_cache *c = analysis_cache_of(run);
	c->dist = s->dist;
	c->dist_done = true;
	s->dist = NULL;
	c->bsum = s->bsum;
	s->bsum = NULL;
	c->heat = xrealloc(c->heat, (c->nheat + s->ngrid) * sizeof(*c->heat));
	for (size_t i = 0; i < s->ngrid; i++)
		c->heat[c->nheat++] = s->grid[i];
	s->ngrid = 0;
	steps_summary_free(s);
	m->summary = NULL;
	return true;
}

bool heat_kept_scale(const struct heat_grid *g, double *lo, double *hi)
{
	if (!g || !g->has_scale || g->stale || g->nsteps != g->scale_cols)
		return false;
	*lo = g->scale_lo;
	*hi = g->scale_hi;
	return true;
}
