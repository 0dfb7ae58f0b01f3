/* SPDX-License-Identifier: MIT */
/* analysis_index_rebuild.c: the index summary (analysis_index.c) recomputed rank by rank
 * in bounded memory, when an open took every rank from the index but found no summary
 * it could use (missing, of another analysis version, damaged, or the first open after
 * a sharded build). The file written is the one the whole computation writes, byte for
 * byte, without holding every rank's steps at once:
 *   1. rank by rank: its compute and comm at every aligned step, its budget sums and
 *      memory peak, from its shard's part of the summary when a sharded build wrote one
 *      (analysis_index_inputs.c: no step of the rank is read, gaps and restarts or not),
 *      else from its steps read from its part (analysis_rank_compute), and the step of
 *      its last record when it logs a step number twice; its compute pyramid row is
 *      made and written to the summary; its compute goes to a table
 *      of N x S doubles (a temporary file next to the index, unlinked at once and never
 *      mapped: the page cache holds it, not the process); its steps are handed back.
 *   2. the distributed analysis from the table (analysis_distributed_from): its step
 *      pass reads a band of steps of every rank at a time (REBUILD_BAND_BYTES), its
 *      rank pass one rank's row at a time.
 *   3. the slowdown pyramid, row by row from the table and the step medians.
 * With no aligned step (a rank without records) there is no pyramid and no distributed
 * analysis: only the ranks' budget sums.
 * Memory: one rank's steps, one band, a few arrays of S: O(band + S), not O(N x S).
 * The bytes of the ranks' steps read are reported to the load's progress; a cancelled
 * load writes nothing. */
#include "model/steps/analysis_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/grid.h"
#include "model/index/codec.h"
#include "model/run.h"
#include "model/xalloc.h"

/* The step pass's band of every rank's compute held at once. */
#define REBUILD_BAND_BYTES ((size_t)256 << 20)

struct rebuild {
	struct run *run;
	struct steps_model *m;
	size_t N, S;
	int fd;                    /* the table: row r = rank r's compute at the aligned steps */
	int err;                   /* first table error (errno), set once */
	double *comm_max;          /* per aligned step, over the ranks in rank order */
	struct rank_stat *mem;     /* per rank: has_mem_peak, mem_peak */
	struct budget_sums *bsum;
	int *ids;
	double *band;              /* [r * band_n + k - band_k0] */
	size_t band_k0, band_n, band_steps;
	struct summary_job j;
	struct summary_out out;
	struct summary_inputs *in; /* the shards' parts of the summary, or NULL */
	size_t *pos;               /* per aligned step: a rank's record (summary_inputs_rank) */
	long *last;                /* per rank logging a step number twice: its last record's step */
};

static void table_fail(struct rebuild *rb, int err)
{
	int zero = 0;
	__atomic_compare_exchange_n(&rb->err, &zero, err ? err : EIO, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* n doubles of row r from aligned step k0 (zeros after an error, which is kept). */
static void table_read(struct rebuild *rb, size_t r, size_t k0, size_t n, double *out)
{
	long long off = (long long)(((uint64_t)r * rb->S + k0) * sizeof(*out));
	if (!index_pread_all(rb->fd, out, n * sizeof(*out), off)) {
		table_fail(rb, errno);
		memset(out, 0, n * sizeof(*out));
	}
}

static void table_write(struct rebuild *rb, size_t r, const double *v)
{
	const char *p = (const char *)v;
	size_t bytes = rb->S * sizeof(*v), done = 0;
	off_t off = (off_t)((uint64_t)r * bytes);
	while (done < bytes) {
		ssize_t k = pwrite(rb->fd, p + done, bytes - done, off + (off_t)done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			table_fail(rb, k < 0 ? errno : ENOSPC);
			return;
		}
		done += (size_t)k;
	}
}

/* ---- the distributed analysis's input (internal.h struct dist_input) -------------- */

static void in_band(void *ud, size_t k0, size_t k1)
{
	struct rebuild *rb = ud;
	rb->band_k0 = k0;
	rb->band_n = k1 - k0;
	for (size_t r = 0; r < rb->N; r++)
		table_read(rb, r, k0, rb->band_n, rb->band + r * rb->band_n);
}

static void in_compute(void *ud, size_t r, size_t k0, size_t n, double *out)
{
	struct rebuild *rb = ud;
	if (k0 >= rb->band_k0 && k0 + n <= rb->band_k0 + rb->band_n)
		memcpy(out, rb->band + r * rb->band_n + (k0 - rb->band_k0), n * sizeof(*out));
	else
		table_read(rb, r, k0, n, out);
}

static void in_mem_peak(void *ud, size_t r, struct rank_stat *rs)
{
	const struct rebuild *rb = ud;
	rs->has_mem_peak = rb->mem[r].has_mem_peak;
	rs->mem_peak = rb->mem[r].mem_peak;
}

/* ---- the passes --------------------------------------------------------------------- */

/* Pyramid i's rows start here; its chunk CRCs and colour scale are taken as they go. */
struct row_writer {
	const struct heat_grid *g;
	size_t bytes, nc;
	struct grid_scale sc;
};

static void rows_begin(struct rebuild *rb, struct obuf *o, size_t i, struct row_writer *w)
{
	struct summary_job *j = &rb->j;
	w->g = summary_job_grid(j, i);
	w->bytes = w->g->row_words * 4;
	w->nc = summary_chunks_of(w->g->row_words, j->chunk_words);
	grid_scale_init(&w->sc, rb->N, w->g->nsteps);
	j->rows_off[i] = index_body_offset(o);
	j->crc[i] = xcalloc(rb->N * w->nc + 1, sizeof(*j->crc[i]));
	j->ngrid = i + 1;
}

/* Row r of pyramid i (row: its stream's row r, NULL when a cell is missing). */
static bool rows_put(struct rebuild *rb, struct obuf *o, size_t i, struct row_writer *w, size_t r, const void *row)
{
	if (!row)
		return false;
	summary_put_row(o, row, w->bytes, rb->j.chunk_words, rb->j.crc[i] + r * w->nc, true, 0);
	heat_row_scale(w->g, row, r, &w->sc);
	return true;
}

/* Pass 1: every rank's steps once. False: a compute cell is missing (the compute
 * pyramid is not dense), the load was cancelled or the table failed. */
static bool pass_ranks(struct rebuild *rb, struct obuf *o, struct load_ctx *ctx)
{
	struct steps_model *m = rb->m;
	size_t S = rb->S;
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	double *vals = xmalloc(S * sizeof(*vals)), *comm = xmalloc(S * sizeof(*comm));
	struct row_writer w;
	rows_begin(rb, o, 0, &w);
	bool ok = true;
	for (size_t r = 0; r < rb->N && ok; r++) {
		if (!summary_inputs_rank(rb->in, m, r, rb->pos, vals, comm, &rb->bsum[r], &rb->mem[r])) {
			analysis_rank_compute(m, &ps, r, 0, S, vals, comm);
			analysis_budget_sums(rb->run, r, &rb->bsum[r]);
			analysis_rank_mem_peak(m, r, &rb->mem[r]);
		}
		if (steps_nrecords(m, r) > steps_ndistinct(m, r) && !summary_inputs_last_step(rb->in, r, &rb->last[r]))
			rb->last[r] = steps_step(m, r, steps_nrecords(m, r) - 1);
		for (size_t k = 0; k < S; k++)
			if (r == 0 || comm[k] > rb->comm_max[k])
				rb->comm_max[k] = comm[k];
		table_write(rb, r, vals);
		ok = rows_put(rb, o, 0, &w, r, analysis_heat_stream_row_of(rb->j.stream[0], r, vals));
		load_progress(ctx, (long long)m->rank[r]->body_len, 0);
		steps_rank_release_body(m->rank[r]);
		ok = ok && !rb->err && !load_cancelled(ctx);
	}
	grid_scale_done(&w.sc, &rb->j.lo[0], &rb->j.hi[0]);
	free(vals);
	free(comm);
	analysis_phase_sets_free(&ps);
	return ok;
}

/* Pass 2: the distributed analysis from the table, kept in the analysis cache (the
 * slowdown pyramid takes its step medians). */
static void pass_distributed(struct rebuild *rb)
{
	size_t band = REBUILD_BAND_BYTES / sizeof(double) / rb->N;
	rb->band_steps = band < 64 ? 64 : band;
	rb->band = xmalloc(rb->N * (rb->band_steps < rb->S ? rb->band_steps : rb->S) * sizeof(*rb->band));
	struct dist_input in = { .band = in_band, .compute = in_compute, .mem_peak = in_mem_peak, .last_step = rb->last,
				 .comm_max = rb->comm_max, .band_steps = rb->band_steps, .ud = rb };
	struct analysis_cache *c = analysis_cache_of(rb->run);
	c->dist = analysis_distributed_from(rb->run, &in);
	c->dist_done = true;
	free(rb->band);
	rb->band = NULL;
	rb->band_n = 0;
	rb->out.dist = c->dist;
	if (rb->N == 1) { /* no distributed analysis: the step medians are the rank's compute */
		free(c->cmed);
		c->cmed = xmalloc(rb->S * sizeof(*c->cmed));
		c->ncmed = rb->S;
		table_read(rb, 0, 0, rb->S, c->cmed);
	}
}

/* Pass 3: the slowdown pyramid from the table; its layout has counts (not dense) when
 * a step median is not > 0, as the whole build's (a missing cell there). */
static bool pass_slowdown(struct rebuild *rb, struct obuf *o)
{
	const struct distributed *d = rb->out.dist;
	const double *cmed = analysis_cache_of(rb->run)->cmed;
	bool dense = d != NULL || rb->N == 1;
	for (size_t k = 0; k < rb->S && dense; k++)
		dense = (d ? d->step[k].cmed : cmed[k]) > 0;
	rb->j.stream[1] = analysis_heat_stream_new(rb->run, HEAT_REL_SLOWDOWN, dense);
	if (!rb->j.stream[1])
		return false;
	struct row_writer w;
	rows_begin(rb, o, 1, &w);
	double *vals = xmalloc(rb->S * sizeof(*vals));
	bool ok = true;
	for (size_t r = 0; r < rb->N && ok; r++) {
		table_read(rb, r, 0, rb->S, vals);
		ok = rows_put(rb, o, 1, &w, r, analysis_heat_stream_row_of(rb->j.stream[1], r, vals)) && !rb->err;
	}
	grid_scale_done(&w.sc, &rb->j.lo[1], &rb->j.hi[1]);
	free(vals);
	return ok;
}

/* No aligned step: the ranks' budget sums are all the summary holds. */
static bool pass_sums(struct rebuild *rb, struct load_ctx *ctx)
{
	struct steps_model *m = rb->m;
	bool ok = true;
	for (size_t r = 0; r < rb->N && ok; r++) {
		if (!summary_inputs_rank(rb->in, m, r, NULL, NULL, NULL, &rb->bsum[r], &rb->mem[r]))
			analysis_budget_sums(rb->run, r, &rb->bsum[r]);
		load_progress(ctx, (long long)m->rank[r]->body_len, 0);
		steps_rank_release_body(m->rank[r]);
		ok = !load_cancelled(ctx);
	}
	struct analysis_cache *c = analysis_cache_of(rb->run);
	c->dist = NULL; /* as analysis_distributed() has it: nothing aligned to compare */
	c->dist_done = true;
	return ok;
}

static void fill_rebuild(struct obuf *o, void *ud)
{
	struct rebuild *rb = ud;
	struct load_ctx *ctx = rb->m->load_ctx;
	if (!rb->S) {
		if (pass_sums(rb, ctx)) {
			ob_head(o);
			summary_put_head(o, &rb->j);
		} else {
			ob_fail(o, ECANCELED);
		}
		return;
	}
	if (!pass_ranks(rb, o, ctx)) {
		ob_fail(o, rb->err ? rb->err : load_cancelled(ctx) ? ECANCELED : ENOTSUP);
		return;
	}
	pass_distributed(rb);
	if (!pass_slowdown(rb, o) || rb->err) {
		ob_fail(o, rb->err ? rb->err : ENOTSUP);
		return;
	}
	ob_head(o);
	summary_put_head(o, &rb->j);
}

/* An open whose every rank came from index parts (so their steps can be handed back
 * and read again), not a follower's (its analyses cover its newest steps). */
static bool rebuildable(const struct steps_model *m)
{
	if (!m || !m->summary_rebuild || !m->nrank || m->live)
		return false;
	for (size_t i = 0; i < m->nrank; i++)
		if (!m->rank[i]->part)
			return false;
	return true;
}

/* The table next to the summary: created, unlinked, its descriptor kept. */
static int table_open(const char *run_dir)
{
	char *dir = index_dir_for(run_dir);
	index_mkdir_p(dir);
	char *tmpl = xasprintf("%s/.summary-table-XXXXXX", dir);
	int fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	free(tmpl);
	free(dir);
	return fd;
}

/* After the write: the analyses come from the file as any open's (its pyramids read
 * on demand); if it cannot be read back, what the passes computed stays. */
static void restore_written(struct rebuild *rb, const char *run_dir)
{
	struct steps_model *m = rb->m;
	struct analysis_cache *c = analysis_cache_of(rb->run);
	struct distributed *dist = c->dist;
	double *cmed = c->cmed;
	size_t ncmed = c->ncmed;
	c->dist = NULL;
	c->dist_done = false;
	c->cmed = NULL;
	c->ncmed = 0;
	steps_summary_open(rb->run, run_dir);
	free(m->preset_aligned); /* finalize is done: the aligned set is the model's */
	m->preset_aligned = NULL;
	m->preset = false;
	if (steps_summary_restore(rb->run)) {
		analysis_dist_free(dist);
		free(cmed);
		return;
	}
	c->dist = dist;
	c->dist_done = true;
	c->cmed = cmed;
	c->ncmed = ncmed;
	c->bsum = rb->bsum;
	rb->bsum = NULL;
}

int steps_summary_rebuild(struct run *run, const char *run_dir)
{
	struct steps_model *m = run->steps;
	if (!rebuildable(m)) {
		if (m) { /* the aligned set is made: nothing else reads them */
			summary_inputs_free(m->inputs);
			m->inputs = NULL;
		}
		return ENOTSUP;
	}
	struct rebuild rb = { .run = run, .m = m, .N = m->nrank, .S = m->naligned };
	rb.fd = table_open(run_dir);
	if (rb.fd < 0)
		return ENOTSUP;
	for (size_t i = 0; i < rb.N; i++)
		steps_rank_release_body(m->rank[i]); /* what finalize read (the aligned set) */
	rb.comm_max = xmalloc(rb.S * sizeof(*rb.comm_max));
	rb.pos = xmalloc(rb.S * sizeof(*rb.pos));
	rb.mem = xcalloc(rb.N, sizeof(*rb.mem));
	rb.last = xcalloc(rb.N, sizeof(*rb.last));
	rb.bsum = xcalloc(rb.N, sizeof(*rb.bsum));
	rb.ids = xmalloc(rb.N * sizeof(*rb.ids));
	for (size_t i = 0; i < rb.N; i++)
		rb.ids[i] = steps_rank_id(m, i);
	rb.out = (struct summary_out){ .bsum = rb.bsum, .nranks = rb.N, .rank_id = rb.ids,
				       .aligned_contiguous = m->aligned_contiguous, .aligned_lo = m->aligned_lo,
				       .naligned = rb.S, .aligned = m->aligned, .nunion = m->nunion };
	rb.j = (struct summary_job){ .out = &rb.out, .run = run, .run_dir = run_dir, .chunk_words = SUMMARY_CHUNK_WORDS };
	rb.j.stream[0] = analysis_heat_stream_new(run, HEAT_COMPUTE, true);
	rb.in = m->inputs ? m->inputs : summary_inputs_open(m); /* opened at finalize (the aligned set) */
	m->inputs = NULL;
	char *path = summary_path(run_dir);
	int err = !rb.S || rb.j.stream[0] ? index_file_write(path, fill_rebuild, &rb) : ENOTSUP;
	free(path);
	close(rb.fd);
	summary_job_free(&rb.j);
	summary_inputs_free(rb.in);
	if (!err) {
		restore_written(&rb, run_dir);
		char *dir = index_dir_for(run_dir);
		index_remove_other_parts(dir, "inputs", 0); /* merged: the summary holds them now */
		free(dir);
	}
	else if (err != ENOTSUP && analysis_cache_of(run)->dist_done) {
		analysis_cache_of(run)->bsum = rb.bsum; /* not written: the analyses stay */
		rb.bsum = NULL;
	}
	if (err == ENOTSUP) { /* nothing kept: the caller computes the analyses whole */
		struct analysis_cache *c = analysis_cache_of(run);
		analysis_dist_free(c->dist);
		c->dist = NULL;
		c->dist_done = false;
		free(c->cmed);
		c->cmed = NULL;
		c->ncmed = 0;
	}
	free(rb.comm_max);
	free(rb.pos);
	free(rb.mem);
	free(rb.last);
	free(rb.bsum);
	free(rb.ids);
	return err;
}
