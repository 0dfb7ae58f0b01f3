/* SPDX-License-Identifier: MIT */
/* analysis_index_inputs.c: an index shard's part of the summary (`tscope-tui index
 * --shard K/N`): what the summary rebuild (analysis_index_rebuild.c) would otherwise
 * read each rank's steps for, so the first open after a sharded build merges the
 * shards without reading any rank's steps. Per rank: compute and comm of every record
 * (the doubles analysis_records_compute() gives, so any aligned set the merged run has
 * is a slice of them), the budget sums and the memory peak. The distributed analysis
 * (medians over every rank at each step), the pyramids and their colour scales need
 * every rank, so the open computes them from these, not the shards.
 *
 * File inputs-K-of-N.tsx next to the part steps-K-of-N.tsx: the index header
 * (index.h), per rank its compute then its comm (n doubles each), then the head:
 * SUMMARY_VERSION, the part's name, size, mtime and inode, the compute phases (names,
 * in the order they are summed), per rank: id, records n, offset of its doubles, their
 * CRC-32, budget sums (records, compute, data, comm, other), memory peak (flag, value).
 * The open uses a rank's inputs when the file and its part are the ones it read, the
 * compute phases are the merged run's (same names, same order) and the rank's aligned
 * steps are a run of its records (contiguous ranks, contiguous aligned set); otherwise
 * it reads that rank's steps. */
#include "model/steps/analysis_index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "model/index/codec.h"
#include "model/run.h"
#include "model/xalloc.h"

static char *inputs_path(const char *dir, unsigned k, unsigned n)
{
	return xasprintf("%s/inputs-%u-of-%u.tsx", dir, k, n);
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* ---- writing (the shard) ------------------------------------------------------------ */

struct inputs_job {
	struct run *run;
	const char *part;
	uint64_t *off;
	uint32_t *crc;
};

static void fill_inputs(struct obuf *o, struct obuf *h, void *ud)
{
	struct inputs_job *j = ud;
	struct steps_model *m = j->run->steps;
	size_t N = steps_nranks(m);
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	size_t cap = 0;
	double *v = NULL;
	for (size_t r = 0; r < N; r++) {
		size_t n = steps_nrecords(m, r);
		if (n > cap) {
			cap = n;
			v = xrealloc(v, 2 * cap * sizeof(*v));
		}
		analysis_records_compute(m, &ps, r, 0, n, v, v + n);
		j->off[r] = index_body_offset(o);
		ob_sum_begin(o);
		ob_bytes(o, v, 2 * n * sizeof(*v));
		j->crc[r] = ob_sum_end(o);
	}
	free(v);
	ob_u32(h, SUMMARY_VERSION);
	struct stat st;
	bool ok = stat(j->part, &st) == 0;
	ob_str(h, base_of(j->part));
	ob_i64(h, ok ? (long long)st.st_size : -1);
	ob_i64(h, ok ? (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec : 0);
	ob_i64(h, ok ? (long long)st.st_ino : 0);
	ob_u64(h, ps.ncompute);
	for (size_t i = 0; i < ps.ncompute; i++)
		ob_str(h, steps_metric(m, ps.compute[i])->name);
	ob_u64(h, N);
	for (size_t r = 0; r < N; r++) {
		struct budget_sums b;
		struct rank_stat mem = { 0 };
		analysis_budget_sums(j->run, r, &b);
		analysis_rank_mem_peak(m, r, &mem);
		ob_i64(h, steps_rank_id(m, r));
		ob_u64(h, steps_nrecords(m, r));
		ob_u64(h, j->off[r]);
		ob_u32(h, j->crc[r]);
		ob_u64(h, b.n);
		const double f[] = { b.compute, b.data, b.comm, b.other };
		for (size_t i = 0; i < ARRAY_LEN(f); i++)
			ob_f64(h, f[i]);
		ob_u8(h, mem.has_mem_peak);
		ob_f64(h, mem.mem_peak);
	}
	analysis_phase_sets_free(&ps);
}

int steps_summary_inputs_write(struct run *run, const char *part_path, unsigned k, unsigned n)
{
	struct steps_model *m = run->steps;
	if (!m || !steps_nranks(m))
		return 0;
	char *dir = xstrdup(part_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *path = inputs_path(slash ? dir : ".", k, n);
	size_t N = steps_nranks(m);
	struct inputs_job j = { .run = run, .part = part_path, .off = xcalloc(N, sizeof(uint64_t)),
				.crc = xcalloc(N, sizeof(uint32_t)) };
	int err = index_file_write(path, fill_inputs, &j);
	free(j.off);
	free(j.crc);
	free(path);
	free(dir);
	return err;
}

/* ---- reading (the open's rebuild) --------------------------------------------------- */

struct rank_input {
	int fd;                    /* the file's descriptor (owned by the inputs), -1: none */
	uint64_t off, n;
	uint32_t crc;
	struct budget_sums bsum;
	bool has_mem_peak;
	double mem_peak;
};

struct summary_inputs {
	struct rank_input *rank;   /* per rank of the model */
	int *fd;
	size_t nfd;
	double *buf;
	size_t cap;
};

/* The compute phases recorded = the model's (names, order). */
static bool same_phases(struct ibuf *b, const struct steps_model *m)
{
	struct phase_sets ps;
	analysis_phase_sets_init(m, &ps);
	size_t n = ib_count(b, 4);
	bool same = !b->bad && n == ps.ncompute;
	for (size_t i = 0; i < n && !b->bad; i++) {
		char *name = ib_str(b);
		same = same && name && strcmp(name, steps_metric(m, ps.compute[i])->name) == 0;
		free(name);
	}
	analysis_phase_sets_free(&ps);
	return same && !b->bad;
}

/* The ranks of one inputs file whose head checks out against part p. */
static void inputs_take(struct summary_inputs *in, const struct steps_model *m, const struct steps_part *p,
			struct ibuf *b, int fd, const struct index_file_id *id)
{
	char *name = ib_str(b);
	long long size = ib_i64(b), mtime = ib_i64(b), ino = ib_i64(b);
	bool same = name && strcmp(name, base_of(p->path)) == 0 && size == p->size && mtime == p->mtime_ns &&
		    ino == p->ino;
	free(name);
	if (b->bad || !same || !same_phases(b, m))
		return;
	size_t nr = ib_count(b, 8);
	for (size_t i = 0; i < nr && !b->bad; i++) {
		long long rid = ib_i64(b);
		struct rank_input x = { .fd = fd };
		x.n = ib_u64(b);
		x.off = ib_u64(b);
		x.crc = ib_u32(b);
		x.bsum.n = (size_t)ib_u64(b);
		double *f[] = { &x.bsum.compute, &x.bsum.data, &x.bsum.comm, &x.bsum.other };
		for (size_t k = 0; k < ARRAY_LEN(f); k++)
			*f[k] = ib_f64(b);
		x.has_mem_peak = ib_u8(b) != 0;
		x.mem_peak = ib_f64(b);
		long ri = rid >= INT32_MIN && rid <= INT32_MAX ? steps_rank_index(m, (int)rid) : -1;
		bool fits = x.n <= (id->body_end - INDEX_HEADER_LEN) / 16 && x.off >= INDEX_HEADER_LEN &&
			    x.off <= id->body_end - 16 * x.n;
		if (!b->bad && ri >= 0 && fits && x.n == steps_nrecords(m, (size_t)ri))
			in->rank[ri] = x;
	}
}

struct summary_inputs *summary_inputs_open(const struct steps_model *m)
{
	struct summary_inputs *in = xcalloc(1, sizeof(*in));
	in->rank = xcalloc(m->nrank ? m->nrank : 1, sizeof(*in->rank));
	for (size_t i = 0; i < m->nrank; i++)
		in->rank[i].fd = -1;
	in->fd = xcalloc(m->npart ? m->npart : 1, sizeof(*in->fd));
	size_t found = 0;
	for (size_t i = 0; i < m->npart; i++) {
		const struct steps_part *p = m->part[i];
		unsigned k, n;
		const char *name = base_of(p->path);
		if (sscanf(name, "steps-%u-of-%u.tsx", &k, &n) != 2)
			continue;
		char *dir = xstrndup(p->path, (size_t)(name - p->path));
		char *path = inputs_path(dir, k, n);
		free(dir);
		unsigned char *head = NULL;
		size_t len = 0;
		struct index_file_id id;
		int fd = -1;
		if (!index_head_read(path, &head, &len, &id))
			fd = open(path, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) != 0 || (long long)st.st_ino != id.ino)) {
			close(fd);
			fd = -1;
		}
		struct ibuf b = { head, len, 0, false };
		if (fd >= 0 && ib_u32(&b) == SUMMARY_VERSION) {
			in->fd[in->nfd++] = fd;
			inputs_take(in, m, p, &b, fd, &id);
			found++;
		} else if (fd >= 0) {
			close(fd);
		}
		free(head);
		free(path);
	}
	if (!found) {
		summary_inputs_free(in);
		return NULL;
	}
	return in;
}

void summary_inputs_free(struct summary_inputs *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nfd; i++)
		close(in->fd[i]);
	free(in->fd);
	free(in->rank);
	free(in->buf);
	free(in);
}

bool summary_inputs_rank(struct summary_inputs *in, const struct steps_model *m, size_t r, double *compute,
			 double *comm, struct budget_sums *bsum, struct rank_stat *mem)
{
	const struct rank_input *x = in ? &in->rank[r] : NULL;
	const struct rank_steps *rs = m->rank[r];
	size_t S = m->naligned;
	if (!x || x->fd < 0 || !m->aligned_contiguous || !rs->contiguous || m->aligned_lo < rs->step0 ||
	    (size_t)(m->aligned_lo - rs->step0) + S > x->n)
		return false;
	if (x->n > in->cap) {
		in->cap = x->n;
		in->buf = xrealloc(in->buf, 2 * in->cap * sizeof(*in->buf));
	}
	size_t bytes = 2 * x->n * sizeof(*in->buf);
	if (!index_pread_all(x->fd, in->buf, bytes, (long long)x->off) ||
	    (uint32_t)crc32_z(0, (const unsigned char *)in->buf, bytes) != x->crc)
		return false;
	size_t p0 = (size_t)(m->aligned_lo - rs->step0);
	memcpy(compute, in->buf + p0, S * sizeof(*compute));
	memcpy(comm, in->buf + x->n + p0, S * sizeof(*comm));
	*bsum = x->bsum;
	mem->has_mem_peak = x->has_mem_peak;
	mem->mem_peak = x->mem_peak;
	return true;
}
