/* SPDX-License-Identifier: MIT */
/* test_index.c: the persistent index's byte form (model/index/codec.c, the rank codec in
 * model/steps/store.c, the part header check in model/index/index.c): a sealed rank
 * round-trips exactly (every encoding, presence, repeated steps, run.json metadata), and
 * truncated or corrupted bytes are rejected without reading out of bounds (check-asan
 * runs this under ASan+UBSan). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "model/index/codec.h"
#include "model/index/extent.h"
#include "model/index/index.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/findings.h"
#include "model/grid.h"
#include "model/registry.h"
#include "model/steps/analysis.h"
#include "model/steps/analysis_index.h"
#include "model/summary.h"
#include "model/table.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/index_fixture.h"

static struct run *new_run(void)
{
	static const struct opts o;
	return run_open(NULL, 0, &o, NULL);
}

/* Rank 7: restarted steps, a phase column that turns double, a run-length scalar, a
 * memory column with gaps, timestamps on some records, run.json metadata. */
static struct rank_steps *sample_rank(struct steps_model *m)
{
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int lr = steps_metric_intern(m, METRIC_SCALAR, "lr");
	int mem = steps_metric_intern(m, METRIC_MEMORY, "alloc");
	struct rank_steps *r = steps_rank_new(m, 7, "run/rank7");
	for (long s = 0; s < 300; s++) {
		size_t pos = rank_append(r, s < 200 ? s : s - 150, 1e9 + (double)s, s % 3 != 0);
		rank_set(r, pos, fwd, s == 120 ? 0.1 / 3 : (double)(1000 + s) / 1e9);
		rank_set(r, pos, lr, s < 100 ? 1e-4 : 5e-5);
		if (s % 5)
			rank_set(r, pos, mem, 4096.0 * (double)s);
	}
	struct steps_meta meta = { .present = true, .name = xstrdup("job"), .has_world = true,
				   .world_size = 64, .nenv = 1 };
	meta.env_key = xcalloc(1, sizeof(char *));
	meta.env_val = xcalloc(1, sizeof(char *));
	meta.env_key[0] = xstrdup("gpu");
	meta.env_val[0] = xstrdup("H100");
	rank_set_meta(r, &meta);
	steps_rank_seal(r);
	return r;
}

static bool same_values(struct steps_model *a, struct steps_model *b)
{
	if (steps_nrecords(a, 0) != steps_nrecords(b, 0))
		return false;
	for (size_t pos = 0; pos < steps_nrecords(a, 0); pos++) {
		if (steps_step(a, 0, pos) != steps_step(b, 0, pos))
			return false;
		double x = 0, y = 0;
		bool hx = steps_timestamp(a, 0, pos, &x), hy = steps_timestamp(b, 0, pos, &y);
		if (hx != hy || memcmp(&x, &y, sizeof(x)) != 0)
			return false;
		for (int k = 0; k < (int)steps_nmetrics(a); k++) {
			x = y = 0;
			hx = steps_value(a, 0, k, pos, &x);
			hy = steps_value(b, 0, k, pos, &y);
			if (hx != hy || memcmp(&x, &y, sizeof(x)) != 0)
				return false;
		}
	}
	return true;
}

static void test_round_trip(void)
{
	struct run *ra = new_run(), *rb = new_run();
	struct steps_model *a = steps_model_get(ra), *b = steps_model_get(rb);
	steps_publish_rank(a, sample_rank(a));
	steps_finalize(a);
	struct obuf o = { 0 };
	steps_rank_encode(a, 0, "run", &o);
	int map[3] = { 0, 1, 2 };
	for (int k = 0; k < 3; k++)
		map[k] = steps_metric_intern(b, steps_metric(a, k)->kind, steps_metric(a, k)->name);
	struct ibuf in = { o.p, o.n, 0, false };
	struct rank_steps *r = steps_rank_decode(b, &in, "/abs/run", map, 3);
	ok(r && !in.bad && in.off == o.n, "a sealed rank decodes, consuming every byte");
	steps_publish_rank(b, r);
	steps_finalize(b);
	is_int(steps_rank_id(b, 0), 7, "rank id kept");
	is_str(steps_rank_path(b, 0), "/abs/run/rank7", "its path is relative to the run dir");
	ok(same_values(a, b), "every step, timestamp and value identical (bit for bit), missing stays missing");
	size_t pa, pb;
	ok(steps_find(b, 0, 60, &pb) && steps_find(a, 0, 60, &pa) && pa == pb,
	   "the step index is rebuilt: a repeated step finds its last record");
	const struct steps_meta *meta = steps_rank_meta(b, 0);
	ok(meta->present && meta->name && strcmp(meta->name, "job") == 0 && meta->has_world &&
	   meta->world_size == 64 && !meta->has_flops, "run.json metadata kept, absent stays absent");
	ok(meta->nenv == 1 && strcmp(meta->env_val[0], "H100") == 0, "environment kept");

	/* Every truncation is rejected; no read past the end (ASan in check-asan). */
	size_t rejected = 0;
	for (size_t n = 0; n < o.n; n++) {
		struct ibuf t = { o.p, n, 0, false };
		struct rank_steps *x = steps_rank_decode(b, &t, "run", map, 3);
		rejected += !x && t.bad;
		steps_rank_free(x);
	}
	is_int(rejected, o.n, "every truncated encoding is rejected");
	/* Corrupt bytes: decoded or rejected, never a crash or an out-of-bounds read. */
	size_t survived = 0;
	for (size_t i = 0; i < o.n; i += 7) {
		unsigned char *c = xmalloc(o.n);
		memcpy(c, o.p, o.n);
		c[i] ^= 0xa5;
		struct ibuf t = { c, o.n, 0, false };
		struct rank_steps *x = steps_rank_decode(b, &t, "run", map, 3);
		survived += x != NULL || t.bad;
		steps_rank_free(x);
		free(c);
	}
	is_int(survived, (o.n + 6) / 7, "every corrupted encoding is decoded or rejected");
	int badmap[3] = { 0, 0, 0 };
	struct ibuf t = { o.p, o.n, 0, false };
	ok(!steps_rank_decode(b, &t, "run", badmap, 3) && t.bad, "two columns mapped to one metric: rejected");
	ob_free(&o);
	run_free(ra);
	run_free(rb);
}

/* A header for a payload of 8 bytes whose head is its last 4 bytes. */
static void header_for(unsigned char *f, uint32_t crc)
{
	index_header_put(f, 8, 4, 4, crc);
	memcpy(f + INDEX_HEADER_LEN, "bodyhead", 8);
}

static void test_header(void)
{
	unsigned char f[INDEX_HEADER_LEN + 8];
	header_for(f, (uint32_t)crc32(0, (const unsigned char *)"head", 4));
	ok(index_check(f, sizeof(f)) == NULL, "a well-formed file passes");
	ok(index_check(f, 10) && strstr(index_check(f, 10), "truncated"), "short file: truncated");
	ok(strstr(index_check(f, sizeof(f) - 1), "truncated") != NULL, "payload shorter than its length");
	memcpy(f, "NOTANIDX", 8);
	ok(strstr(index_check(f, sizeof(f)), "magic") != NULL, "bad magic");
	header_for(f, 0);
	ok(strstr(index_check(f, sizeof(f)), "checksum") != NULL, "the head's checksum does not match");
	header_for(f, (uint32_t)crc32(0, (const unsigned char *)"head", 4));
	f[8] = (unsigned char)(INDEX_VERSION + 1);
	ok(strstr(index_check(f, sizeof(f)), "version") != NULL, "another version");
	header_for(f, (uint32_t)crc32(0, (const unsigned char *)"head", 4));
	f[24] = 9; /* head offset past the payload */
	ok(strstr(index_check(f, sizeof(f)), "malformed") != NULL, "a head outside the payload");
}

/* A stream of small items and pieces past OB_DIRECT (written from the caller's memory,
 * no copy): the file holds every byte in order, and the running CRC-32 of a section
 * equals zlib's CRC-32 of its bytes. */
static void test_stream(void)
{
	char dir[512], path[600];
	tu_mkdtemp(dir, sizeof(dir), "stream");
	snprintf(path, sizeof(path), "%s/out", dir);
	FILE *f = fopen(path, "wb");
	size_t big = OB_DIRECT * 3 + 5, total = 0;
	unsigned char *want = xmalloc(4 * big + 4096), *piece = xmalloc(big);
	for (size_t i = 0; i < big; i++)
		piece[i] = (unsigned char)(i * 31 + 7);
	struct obuf o = { 0 };
	ob_stream(&o, fileno(f));
	uint32_t sum = 0, crc = 0;
	for (int round = 0; round < 4; round++) {
		if (round == 2)
			ob_sum_begin(&o);
		size_t from = total;
		ob_u32(&o, 0x01020304u + (uint32_t)round);
		for (int b = 0; b < 4; b++)
			want[total++] = (unsigned char)((0x01020304u + (uint32_t)round) >> (8 * b));
		ob_bytes(&o, piece, big - (size_t)round); /* past OB_DIRECT: direct */
		memcpy(want + total, piece, big - (size_t)round);
		total += big - (size_t)round;
		ob_bytes(&o, "tail", 4);
		memcpy(want + total, "tail", 4);
		total += 4;
		if (round == 2) {
			sum = ob_sum_end(&o);
			crc = (uint32_t)crc32(0, want + from, (uInt)(total - from));
		}
	}
	ok(ob_finish(&o) == 0 && o.written == total, "stream: every byte written (%zu)", total);
	ob_free(&o);
	fclose(f);
	struct stat st;
	char *got = tu_read_file(path);
	ok(got && stat(path, &st) == 0 && (size_t)st.st_size == total && memcmp(got, want, total) == 0,
	   "stream: the file holds the small items and the direct pieces in order");
	ok(sum == crc, "stream: running CRC-32 of a section = CRC-32 of its bytes");
	free(got);
	free(want);
	free(piece);
	tu_rm_rf(dir);
}

/* One stream laid out like a summary through a direct (O_DIRECT) fd: the header's place
 * skipped, small items, pieces past the 4 MB buffer from unaligned memory, a region left
 * to ob_pwrite (rows written into it one by one, not on page boundaries, while the
 * stream goes on after it), the header last: the file holds the same bytes as the same
 * calls through the page cache, and is cut at the stream's end. */
static size_t direct_calls(struct obuf *o, unsigned char *want, const unsigned char *piece, size_t big)
{
	size_t at = 48, row = 3001, nrows = 5;
	ob_u32(o, 0xa1b2c3d4u);
	memcpy(want + at, "\xd4\xc3\xb2\xa1", 4);
	at += 4;
	ob_bytes(o, piece + 1, big); /* unaligned, past the buffer */
	memcpy(want + at, piece + 1, big);
	at += big;
	for (size_t r = 0; r < nrows; r++) { /* a row streamed, its pair to its place */
		ob_bytes(o, piece + 7 * r, row);
		memcpy(want + at, piece + 7 * r, row);
		at += row;
	}
	size_t pair0 = at;
	ob_skip(o, nrows * row);
	for (size_t r = 0; r < nrows; r++) {
		ob_pwrite(o, piece + 100 + r, row, pair0 + r * row);
		memcpy(want + pair0 + r * row, piece + 100 + r, row);
	}
	at += nrows * row;
	ob_bytes(o, "head", 4);
	memcpy(want + at, "head", 4);
	at += 4;
	unsigned char hdr[48];
	for (size_t i = 0; i < sizeof(hdr); i++)
		hdr[i] = (unsigned char)(200 + i);
	ob_pwrite(o, hdr, sizeof(hdr), 0);
	memcpy(want, hdr, sizeof(hdr));
	return at;
}

static void test_stream_direct(void)
{
	char dir[512], path[600];
	tu_mkdtemp(dir, sizeof(dir), "direct");
	snprintf(path, sizeof(path), "%s/out", dir);
	size_t big = ((size_t)9 << 20) + 123;
	unsigned char *piece = xmalloc(big + 64), *want = xcalloc(big + 65536, 1);
	for (size_t i = 0; i < big + 64; i++)
		piece[i] = (unsigned char)(i * 131 + (i >> 12));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0) {
		tap_skip("direct stream: this file system takes no O_DIRECT");
	} else {
		struct obuf o = { 0 };
		lseek(fd, 48, SEEK_SET);
		ob_stream(&o, fd);
		bool direct = o.direct;
		size_t total = direct_calls(&o, want, piece, big);
		int err = ob_finish(&o);
		ob_free(&o);
		close(fd);
		ok(direct && err == 0, "direct stream: written with O_DIRECT, no error");
		struct stat st;
		FILE *f = fopen(path, "rb");
		unsigned char *got = xmalloc(total + 1);
		bool same = f && stat(path, &st) == 0 && (size_t)st.st_size == total &&
			    fread(got, 1, total, f) == total && memcmp(got, want, total) == 0;
		ok(same, "direct stream: the file holds every byte in place and ends at the stream's end (%zu)", total);
		if (f)
			fclose(f);
		free(got);
	}
	free(piece);
	free(want);
	tu_rm_rf(dir);
}

/* ---- lazy open from the index ------------------------------------------------------- */

/* The heatmap pane's colour scale of the compute and slowdown grids: kept in the
 * summary of b (src.scale answers), equal to the scale a full pass over a's rows gives. */
static bool same_kept_scale(struct run *a, struct run *b)
{
	for (size_t metric = 0; metric < 2; metric++) {
		struct grid_src sa, sb;
		char err[128];
		if (!grid_steps.open(a, metric, &sa, err, sizeof(err)))
			return false;
		if (!grid_steps.open(b, metric, &sb, err, sizeof(err))) {
			grid_steps.close(&sa);
			return false;
		}
		double lo_a, hi_a, lo_b = -1, hi_b = -1, x, y;
		grid_colour_scale(&sa, NULL, &lo_a, &hi_a);
		bool kept = sb.scale && sb.scale(sb.ud, &lo_b, &hi_b);
		bool plain = sa.scale && sa.scale(sa.ud, &x, &y);
		grid_steps.close(&sa);
		grid_steps.close(&sb);
		if (!kept || plain || lo_a != lo_b || hi_a != hi_b || !(hi_a > lo_a))
			return false;
	}
	return true;
}

static bool same_f64(double x, double y)
{
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Every rank's budget and the whole run's, bit for bit (ri == N: the whole run). */
static bool same_budgets(struct run *a, struct run *b)
{
	size_t N = steps_nranks(a->steps);
	for (size_t ri = 0; ri <= N; ri++) {
		const struct budget *x = ri < N ? analysis_budget(a, ri) : analysis_budget_all(a);
		const struct budget *y = ri < N ? analysis_budget(b, ri) : analysis_budget_all(b);
		if (!x || !y || x->n != y->n || x->has_mfu != y->has_mfu || x->nrecoverable != y->nrecoverable ||
		    !same_f64(x->wall, y->wall) || !same_f64(x->compute_measured, y->compute_measured) ||
		    !same_f64(x->useful, y->useful) || !same_f64(x->overhead, y->overhead) ||
		    !same_f64(x->efficiency, y->efficiency) || !same_f64(x->mfu, y->mfu))
			return false;
		for (int i = 0; i < BUDGET_NLINES; i++)
			if (!same_f64(x->line[i].seconds, y->line[i].seconds) ||
			    !same_f64(x->line[i].fraction, y->line[i].fraction) || x->recoverable[i] != y->recoverable[i])
				return false;
	}
	return true;
}

/* A temp dir (named after tag) holding the lazy run, indexed (`tscope-tui index`); its
 * part and summary paths; returns the run as a plain load of the JSONL gives it. */
static struct run *indexed_run(const char *tag, char *dir, char *part, char *summary)
{
	tu_mkdtemp(dir, 512, tag);
	write_lazy_run(dir);
	snprintf(part, 600, "%s/.tscope-index/steps-0-of-1.tsx", dir);
	snprintf(summary, 600, "%s/.tscope-index/summary.tsx", dir);
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }; /* the run keeps it */
	struct run *want = open_dir(dir, &plain);
	run_free(open_dir(dir, &build));
	return want;
}

static void test_lazy_open(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("lazy", dir, part, summary);
	struct opts dflt = { 0 };
	ok(access(part, F_OK) == 0 && access(summary, F_OK) == 0, "index writes its part and its summary");

	struct run *got = open_dir(dir, &dflt);
	struct steps_model *m = got->steps;
	is_int(steps_nranks(m), LZ_RANKS, "every rank is there (as a shell)");
	is_int(steps_bodies_resident(m), 0, "opening from the index reads no rank's steps");
	ok(same_kept_scale(want, got), "heatmap colour scale kept in the summary = a full pass over the rows");
	struct summary sum = { 0 };
	registry_summary(got, &sum);
	struct finding_list fl = { 0 };
	findings_compute(got, &fl);
	findings_free(&fl);
	ok(same_view(want, got, "ranks") && same_view(want, got, "findings") && same_view(want, got, "heatmap_cells"),
	   "Overview, Ranks, findings and heatmap cells from the summary = from the JSONL");
	ok(same_heat(want, got), "every pyramid range (each zoom) = from the JSONL");
	is_int(steps_bodies_resident(m), 1, "... reading only rank 0's steps (pytscope's per-rank rules)");
	ok(same_budgets(want, got) && same_view(want, got, "budget"),
	   "every rank's budget and the whole run's from the summary's sums = from the JSONL, bit for bit");
	is_int(steps_bodies_resident(m), 1, "... reading no more rank's steps");
	ok(analysis_distributed(got)->rank[4].straggler, "rank 4 is the straggler, from the summary");
	double x = 0, y = 0;
	ok(steps_value(got->steps, 4, 1, 30, &x) && steps_value(want->steps, 4, 1, 30, &y) && x == y,
	   "drill-down reads rank 4's steps on demand, same values");
	is_int(steps_bodies_resident(m), 2, "one more rank's steps resident");
	ok(same_view(want, got, "steps"), "steps view (every rank's steps on demand) = from the JSONL");
	run_free(got);

	/* --warmup: the summary's sums cover every record, so the budget reads the steps. */
	struct opts warm = { .warmup = 5 }, warm_plain = { .warmup = 5, .no_index = true };
	struct run *want_warm = open_dir(dir, &warm_plain);
	got = open_dir(dir, &warm);
	ok(same_budgets(want_warm, got) && !same_budgets(want, got),
	   "--warmup 5: budgets from the steps after the warmup = from the JSONL");
	run_free(got);
	run_free(want_warm);

	/* A part truncated in place after the open: a short pread, never a SIGBUS. */
	got = open_dir(dir, &dflt);
	ok(truncate(part, 4000) == 0, "part truncated in place under an open run");
	ok(steps_value(got->steps, 5, 1, 10, &x) && steps_value(want->steps, 5, 1, 10, &y) && x == y,
	   "truncated part: the rank is re-read from its JSONL, same values");
	ok(tu_has_diag(got, "index part not usable for rank 5", NULL), "truncated part: diagnosed");
	struct stat st;
	ok(stat(part, &st) == 0 && st.st_size == 0, "truncated part: invalidated for the next open");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(tu_has_diag(got, "not used: truncated", NULL) && same_view(want, got, "ranks"),
	   "next open: reported, read from the JSONL");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(!tu_has_diag(got, "not used", NULL) && steps_bodies_resident(got->steps) == 0,
	   "... and rebuilt: the open after it maps the index again");
	run_free(got);

	/* A summary whose pyramid rows are damaged: rows computed from the steps instead. */
	FILE *f = fopen(summary, "r+b");
	fseek(f, INDEX_HEADER_LEN + 8, SEEK_SET);
	fputc(0x7f, f);
	fclose(f);
	got = open_dir(dir, &dflt);
	ok(same_heat(want, got) && tu_has_diag(got, "index summary damaged", NULL),
	   "damaged pyramid row: diagnosed, computed from the steps, same cells");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* Flip one byte of a file in place. */
static void flip_byte(const char *path, long long off)
{
	FILE *f = fopen(path, "r+b");
	fseek(f, (long)off, SEEK_SET);
	int c = fgetc(f);
	fseek(f, (long)off, SEEK_SET);
	fputc(c ^ 0x5a, f);
	fclose(f);
}

/* heat_row_buckets() = heat_range()'s worst bucket by bucket, every rank, aligned
 * power-of-two buckets (one block each) and others, ragged last bucket included. */
static bool same_buckets(struct run *run)
{
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t S = heat_nsteps(g);
	float got[64];
	for (size_t r = 0; r < heat_nranks(g); r++)
		for (size_t spc = 1; spc <= 2 * S; spc = spc * 2 + (spc == 8)) /* 1, 2, 4, 8, 17, 35, ... */
			for (size_t c0 = 0; c0 < S; c0 += spc * 7) {
				heat_row_buckets(g, r, c0, spc, 64, got);
				for (size_t x = 0; x < 64; x++) {
					double m, w;
					bool has = heat_range(g, r, c0 + x * spc, c0 + (x + 1) * spc, &m, &w);
					if (has != !isnan(got[x]) || (has && (float)w != got[x]))
						return false;
				}
			}
	return true;
}

/* The chunk cache of a restored pyramid: 1 KB chunks, read one preadv per rank into
 * fixed slots reused oldest first; a cache of a few chunks (every read evicts) gives
 * the same cells at every zoom; a summary written with another chunk size (8 KB, as
 * earlier builds wrote) is read by its own chunk size, and still checked. */
static void test_chunk_cache(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("cache", dir, part, summary);
	struct opts dflt = { 0 };

	struct run *got = open_dir(dir, &dflt);
	const struct heat_grid *g = analysis_heatmap(got, HEAT_COMPUTE);
	struct heat_lazy *lz = g->lazy;
	ok(lz && lz->chunk_words == 256 && lz->nchunks == (g->row_words + 255) / 256,
	   "summary written with 1 KB chunks (%zu per row)", lz ? lz->nchunks : 0);
	analysis_heat_lazy_cap(lz, 3);
	analysis_heat_lazy_cap(analysis_heatmap(got, HEAT_REL_SLOWDOWN)->lazy, 3);
	ok(same_buckets(got) && same_heat(want, got) && !tu_has_diag(got, "index summary damaged", NULL),
	   "a cache of 3 chunks (each read evicts the oldest): row buckets and every zoom = from the JSONL");
	ok(lz->cap == 3 && lz->next < 3, "... in 3 slots");
	size_t resident = 0;
	for (size_t i = 0; i <= lz->tmask; i++)
		resident += lz->tab[i].key != 0;
	is_int(resident, 3, "... 3 chunks found by (rank, chunk), the evicted ones gone from the table");
	run_free(got);

	ok(steps_summary_write_chunks(want, dir, 2048) == 0, "summary rewritten with 8 KB chunks");
	got = open_dir(dir, &dflt);
	g = analysis_heatmap(got, HEAT_COMPUTE);
	lz = g->lazy;
	ok(lz && lz->chunk_words == 2048 && same_heat(want, got) && same_buckets(got) &&
	   !tu_has_diag(got, "not used", NULL), "8 KB chunks: read by their own size, every zoom = from the JSONL");
	long long at = (long long)(lz->rows_off + (uint64_t)lz->row_src[5] * g->row_words * 4 + 2048 * 4 + 8);
	run_free(got);
	flip_byte(summary, at);
	got = open_dir(dir, &dflt);
	double m1, w1;
	ok(heat_range(analysis_heatmap(got, HEAT_COMPUTE), 5, 0, 1, &m1, &w1) &&
	   !tu_has_diag(got, "index summary damaged", NULL), "8 KB chunks: a damaged second chunk unread, unreported");
	ok(same_heat(want, got) && tu_has_diag(got, "index summary damaged", NULL),
	   "... read: its checksum catches the flipped byte, the row computed, same cells");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* Format 3: a pyramid row is checked chunk by chunk, when the chunk is read; an index
 * of another format version is reported and rebuilt. */
static void test_summary_chunks(void)
{
	char dir[512], part[600], summary[600];
	struct run *want = indexed_run("chunks", dir, part, summary);
	struct opts dflt = { 0 };

	struct run *got = open_dir(dir, &dflt);
	const struct heat_grid *g = analysis_heatmap(got, HEAT_COMPUTE);
	const struct heat_lazy *lz = g->lazy;
	ok(same_buckets(want) && same_buckets(got), "row buckets = heat_range bucket by bucket (built and from the summary)");
	ok(lz && lz->nchunks >= 2 && lz->chunk_words == SUMMARY_CHUNK_WORDS,
	   "a restored pyramid row of 1,500 steps has 2 chunks or more");
	/* rank 3's worst of level-1 block 0 lies in a later chunk than its level-0 cells */
	size_t w = g->off_worst[1], c = w / lz->chunk_words;
	long long at = (long long)(lz->rows_off + (uint64_t)lz->row_src[3] * g->row_words * 4 + w * 4);
	ok(c > 0 && g->off_val[0] / lz->chunk_words == 0, "the byte to damage is in chunk %zu, not chunk 0", c);
	run_free(got);
	flip_byte(summary, at);

	got = open_dir(dir, &dflt);
	g = analysis_heatmap(got, HEAT_COMPUTE);
	double m1, w1, m2, w2;
	ok(heat_range(g, 3, 0, 1, &m1, &w1) && heat_range(g, 2, 0, 1024, &m1, &w1) &&
	   !tu_has_diag(got, "index summary damaged", NULL),
	   "a damaged chunk is not read (nor reported) while no frame needs it");
	ok(heat_range(g, 3, 0, 2, &m1, &w1) && tu_has_diag(got, "index summary damaged", NULL),
	   "reading it: the checksum of that chunk catches the flipped byte");
	ok(heat_range(analysis_heatmap(want, HEAT_COMPUTE), 3, 0, 2, &m2, &w2) && m1 == m2 && w1 == w2,
	   "... and the row is computed from the steps: same cell");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(same_heat(want, got) && !tu_has_diag(got, "index summary damaged", NULL),
	   "the next open rewrote the summary");
	run_free(got);

	/* An index of format version 2 (the version field of both files) */
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(i ? summary : part, "r+b");
		unsigned char v2[4] = { 2, 0, 0, 0 };
		fseek(f, 8, SEEK_SET);
		fwrite(v2, 1, 4, f);
		fclose(f);
	}
	got = open_dir(dir, &dflt);
	ok(tu_has_diag(got, "written by another index format version", NULL) && same_view(want, got, "ranks"),
	   "version 2 index: reported, read from the JSONL");
	run_free(got);
	got = open_dir(dir, &dflt);
	ok(!tu_has_diag(got, "not used", NULL) && steps_bodies_resident(got->steps) == 0 && same_heat(want, got),
	   "... and rebuilt in format %u", INDEX_VERSION);
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* The summary `tscope-tui index` writes (pyramid rows made one at a time, nothing kept)
 * and the one an open writes when the summary is missing (pyramids built whole, kept):
 * the same rows, byte for byte, and the same colour scale. */
static void test_summary_paths(void)
{
	char dir[512], summary[600];
	tu_mkdtemp(dir, sizeof(dir), "sumpaths");
	write_lazy_run(dir);
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	struct opts build = { .index_build = true }, dflt = { 0 };
	run_free(open_dir(dir, &build));
	struct stat st;
	char *streamed = tu_read_file(summary);
	size_t n1 = stat(summary, &st) == 0 ? (size_t)st.st_size : 0;
	unlink(summary);
	struct run *got = open_dir(dir, &dflt); /* every part used, no summary: it writes one */
	char *built = tu_read_file(summary);
	size_t n2 = stat(summary, &st) == 0 ? (size_t)st.st_size : 0;
	uint64_t rows_end = 0; /* the head's offset in the payload: the rows lie before it */
	for (int b = 0; streamed && n1 >= INDEX_HEADER_LEN && b < 8; b++)
		rows_end |= (uint64_t)(unsigned char)streamed[24 + b] << (8 * b);
	ok(streamed && built && n1 == n2 && rows_end > 1000 && rows_end < n1 &&
	   memcmp(streamed, built, 24) == 0 && memcmp(streamed + INDEX_HEADER_LEN, built + INDEX_HEADER_LEN, rows_end) == 0,
	   "summary: rows streamed by `index` = rows of the pyramids built whole, byte for byte");
	run_free(got);
	struct opts plain = { .no_index = true };
	struct run *want = open_dir(dir, &plain);
	got = open_dir(dir, &dflt);
	ok(same_kept_scale(want, got), "summary written at open: colour scale kept = a full pass over the rows");
	run_free(want);
	run_free(got);
	free(streamed);
	free(built);
	tu_rm_rf(dir);

	/* step 5 without compute on any rank: its slowdown is missing, the slowdown pyramid
	 * is not dense, the stream gives up and the pyramids are built whole */
	tu_mkdtemp(dir, sizeof(dir), "sumsparse");
	write_sparse_run(dir);
	snprintf(summary, sizeof(summary), "%s/.tscope-index/summary.tsx", dir);
	run_free(open_dir(dir, &build));
	ok(access(summary, F_OK) == 0, "summary with a missing slowdown cell: written");
	want = open_dir(dir, &plain);
	got = open_dir(dir, &dflt);
	double mean, worst;
	ok(same_heat(want, got) && !tu_has_diag(got, "not used", NULL) &&
	   !heat_range(analysis_heatmap(got, HEAT_REL_SLOWDOWN), 1, 5, 6, &mean, &worst),
	   "... read back: every pyramid range = from the JSONL, the cell missing");
	run_free(want);
	run_free(got);
	tu_rm_rf(dir);
}

/* 5 ranks; live: rank 3 runs 9 steps longer (columns after the aligned steps: compute cells
 * missing on the others, no slowdown there), step 4 has no compute on any rank (step
 * median 0: no slowdown), rank 1 lacks forward at step 7. */
static struct run *pair_run(bool live)
{
	struct run *run = new_run();
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int bwd = steps_metric_intern(m, METRIC_PHASE, "backward");
	int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (int r = 0; r < 5; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, "synthetic");
		for (long s = 0; s < (r == 3 ? 49 : 40); s++) {
			size_t pos = rank_append(rs, s, 0, false);
			if (s != 4 && !(r == 1 && s == 7))
				rank_set(rs, pos, fwd, 0.01 + 1e-4 * (double)((r * 7 + s * 13) % 11) + (r == 2 ? 0.003 : 0));
			if (s != 4)
				rank_set(rs, pos, bwd, 0.02 + 1e-5 * (double)(s % 5));
			rank_set(rs, pos, comm, 0.004);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	if (live)
		steps_set_live(m); /* the heatmap reaches rank 3's later steps */
	return run;
}

/* analysis_heatmaps() fills the compute and slowdown pyramids in one pass: every cell
 * and block equals the two grids built one at a time, bit for bit (missing cells, step
 * median 0, columns after the aligned steps), with or without the distributed analysis
 * computed first. */
static void test_heat_pair(void)
{
	static const int series[] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };
	struct run *one = pair_run(true), *pair = pair_run(true), *dist_first = pair_run(true);
	is_int(steps_ncolumns(one->steps) - steps_naligned(one->steps), 9, "pair run: 9 columns after the aligned steps");
	analysis_heatmaps(pair, series, ARRAY_LEN(series));
	ok(same_heat(one, pair), "compute + slowdown pyramids in one pass = built one at a time, bit for bit");
	ok(analysis_distributed(dist_first) != NULL, "pair run: distributed analysis");
	analysis_heatmaps(dist_first, series, ARRAY_LEN(series));
	ok(same_heat(one, dist_first), "... also after the distributed analysis (its step medians)");
	double mean, worst;
	const struct heat_grid *rel = analysis_heatmap(pair, HEAT_REL_SLOWDOWN);
	ok(rel && !heat_range(rel, 0, 4, 5, &mean, &worst) && !heat_range(rel, 3, 45, 46, &mean, &worst) &&
	   heat_range(rel, 2, 0, 40, &mean, &worst) && mean > 0.05,
	   "slowdown: missing at a median-0 step and after the aligned steps, present elsewhere");
	run_free(one);
	run_free(pair);
	run_free(dist_first);
}

/* Every block of a dense pyramid against the definition, bit for bit: the count-weighted
 * mean of its two children (as doubles, summed in order) and the worse of their worsts
 * (the full blocks take a path without counts, analysis_heatmap.c heat_level_row). */
static void test_heat_levels(void)
{
	struct run *run = pair_run(false); /* the aligned steps only: a dense grid */
	const struct heat_grid *g = analysis_heatmap(run, HEAT_COMPUTE);
	size_t S = heat_nsteps(g), bad = 0, blocks = 0;
	float *v = xmalloc(S * sizeof(*v)), *w = xmalloc(S * sizeof(*w));
	double *c = xmalloc(S * sizeof(*c));
	for (size_t r = 0; g && r < heat_nranks(g); r++) {
		for (size_t k = 0; k < S; k++) {
			double m0, w0;
			heat_range(g, r, k, k + 1, &m0, &w0);
			v[k] = (float)m0;
			w[k] = (float)w0;
			c[k] = 1;
		}
		for (size_t len = S, l = 1; len > 1; l++) {
			size_t nlen = (len + 1) / 2;
			for (size_t b = 0; b < nlen; b++) {
				double sum = 0, cnt = 0;
				float worst = w[2 * b];
				for (size_t j = 2 * b; j < 2 * b + 2 && j < len; j++) {
					sum += (double)v[j] * c[j];
					cnt += c[j];
					worst = w[j] > worst ? w[j] : worst;
				}
				v[b] = (float)(sum / cnt);
				w[b] = worst;
				c[b] = cnt;
				size_t lo = b << l, hi = lo + ((size_t)1 << l);
				double m1, w1;
				if (hi > S) /* a range over a partial block sums its pieces in another order */
					continue;
				bool have = heat_range(g, r, lo, hi, &m1, &w1); /* exactly block b of level l */
				float fm = (float)m1, fw = (float)w1;
				bad += !have || memcmp(&fm, &v[b], sizeof(fm)) || memcmp(&fw, &w[b], sizeof(fw));
				blocks++;
			}
			len = nlen;
		}
	}
	ok(g && blocks > 150 && bad == 0, "dense pyramid: every block = its definition, bit for bit (%zu blocks)", blocks);
	free(v);
	free(w);
	free(c);
	run_free(run);
}

static void test_ranklist(void)
{
	ok(ranklist_valid("0-63,4096") && ranklist_valid("5"), "rank lists: ids and ranges");
	ok(!ranklist_valid("") && !ranklist_valid("1,") && !ranklist_valid("3-1") && !ranklist_valid("1-x") &&
	   !ranklist_valid("-2"), "rank lists: malformed ones rejected");
	ok(ranklist_has("0-63,4096", 63) && ranklist_has("0-63,4096", 4096) && !ranklist_has("0-63,4096", 64),
	   "rank lists: membership");
}

/* index_crc32 = zlib's crc32 at every length (the folded path from 64 bytes, the tail
 * under 16), alignment and starting value, and chained. */
static void test_crc(void)
{
	size_t N = 70000;
	unsigned char *b = xmalloc(N + 64);
	uint32_t x = 12345;
	for (size_t i = 0; i < N + 64; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (unsigned char)(x >> 16);
	}
	size_t bad = 0;
	for (size_t t = 0; t < 3000; t++) {
		x = x * 1103515245u + 12345u;
		size_t off = x % 64, n = t < 2000 ? t % 300 : (x >> 8) % N;
		uint32_t c0 = t % 3 ? x : 0;
		bad += index_crc32(c0, b + off, n) != (uint32_t)crc32_z(c0, b + off, n);
	}
	is_int((long)bad, 0, "index_crc32 = zlib crc32 (3000 lengths, offsets, starts)");
	uint32_t two = index_crc32(index_crc32(0, b, 1000), b + 1000, 5000);
	is_int(two, (uint32_t)crc32_z(0, b, 6000), "index_crc32 chains like zlib's");
	unsigned char *d = xmalloc(N + 64);
	bad = 0;
	for (size_t t = 0; t < 600; t++) {
		x = x * 1103515245u + 12345u;
		size_t off = x % 64, doff = (x >> 6) % 64, n = t < 400 ? t * 3 : (x >> 8) % N;
		memset(d, 0xa5, N + 64);
		uint32_t c = index_crc32_copy(t % 2 ? x : 0, d + doff, b + off, n);
		bad += c != (uint32_t)crc32_z(t % 2 ? x : 0, b + off, n) || memcmp(d + doff, b + off, n) != 0 ||
		       (doff && d[doff - 1] != 0xa5) || d[doff + n] != 0xa5;
	}
	is_int((long)bad, 0, "index_crc32_copy: zlib's crc32 and an exact copy (600 lengths, offsets)");
	free(d);
	free(b);
}

/* index_sources_of: per rank file, the latest pytscope source of its path and how many
 * the run has (a reloaded rank has two); other formats and other paths do not count. */
static void test_sources_of(void)
{
	struct run *run = new_run();
	char path[64];
	for (int r = 0; r < 300; r++) { /* enough paths for the table to grow */
		snprintf(path, sizeof(path), "/runs/a/rank%d/steps.jsonl", r);
		run_add_source(run, path, "pytscope", r, 100);
	}
	size_t again = run_add_source(run, "/runs/a/rank5/steps.jsonl", "pytscope", 5, 120);
	run_add_source(run, "/runs/a/rank6/steps.jsonl", "kineto", 6, 10);
	run_add_source(run, "/runs/a/rank7/trace.json", "kineto", 7, 10);
	struct steps_rank_file f[] = { { .rank = 4, .steps = "/runs/a/rank4/steps.jsonl" },
				       { .rank = 5, .steps = "/runs/a/rank5/steps.jsonl" },
				       { .rank = 6, .steps = "/runs/a/rank6/steps.jsonl" },
				       { .rank = 7, .steps = "/runs/a/rank7/trace.json" },
				       { .rank = 8, .steps = "/runs/b/rank8/steps.jsonl" } };
	long latest[5];
	size_t count[5];
	index_sources_of(run, f, NULL, 5, latest, count);
	ok(latest[0] == 4 && count[0] == 1, "a file read once: its source, one");
	ok(latest[1] == (long)again && count[1] == 2, "a rank read twice: the latest source, two");
	ok(latest[2] == 6 && count[2] == 1, "a kineto source of the same path does not count");
	ok(latest[3] == -1 && count[3] == 0 && latest[4] == -1 && count[4] == 0,
	   "a path with no pytscope source: -1, none");
	size_t which[] = { 4, 1 };
	index_sources_of(run, f, which, 2, latest, NULL);
	ok(latest[0] == -1 && latest[1] == (long)again, "which[] picks the files, count may be NULL");
	run_free(run);
}

/* run.json environments in a part's head: a shell whose environment is the bytes of
 * the one before it writes a flag instead (and cannot be read without that one); an
 * environment with escapes (another layout in memory) is written whole; reopening
 * from the index gives every rank's metadata as the JSONL load does. */
static const char *meta_json(int r)
{
	static char buf[512];
	const char *env = r == 2 ? "{\"gpu\": \"H\\u00e9100 \\\"sxm\\\"\", \"odd\": \"a\\u0000b\", \"nodes\": 8}"
				 : "{\"gpu\": \"H100\", \"torch\": \"2.4.0\", \"env\": {\"NCCL_ALGO\": \"ring\"}}";
	snprintf(buf, sizeof(buf), "{\"name\": \"job\", \"rank\": %d, \"environment\": %s, \"config\": {\"lr\": 0.1}}",
		 r, env);
	return buf;
}

static bool same_meta(const struct steps_meta *a, const struct steps_meta *b)
{
	bool same = a->present == b->present && !a->name == !b->name && (!a->name || strcmp(a->name, b->name) == 0) &&
		    a->nenv == b->nenv && a->has_rank == b->has_rank && a->rank == b->rank;
	for (size_t i = 0; same && i < a->nenv; i++)
		same = strcmp(a->env_key[i], b->env_key[i]) == 0 && strcmp(a->env_val[i], b->env_val[i]) == 0;
	return same;
}

static void test_shell_env_rows(void)
{
	char dir[512], path[700];
	tu_mkdtemp(dir, sizeof(dir), "envrow");
	write_lazy_run(dir);
	for (int r = 0; r < 4; r++) {
		snprintf(path, sizeof(path), "%s/rank%d/run.json", dir, r);
		tu_write_file(path, meta_json(r), strlen(meta_json(r)));
	}
	static const struct opts plain = { .no_index = true }, build = { .index_build = true }, dflt = { 0 };
	struct run *want = open_dir(dir, &plain);
	struct steps_model *m = want->steps;
	const struct steps_meta *m0 = steps_rank_meta(m, 0), *m2 = steps_rank_meta(m, 2);
	ok(m0->nenv == 4 && m0->env_bytes > 0 && m2->nenv == 4 && m2->env_bytes == 0,
	   "plain run.json: the environment back to back; with escapes: another layout");

	struct obuf o = { 0 };
	steps_rank_encode_shell(m, 0, -1, dir, &o);
	size_t one = o.n;
	steps_rank_encode_shell(m, 1, 0, dir, &o);
	size_t two = o.n;
	steps_rank_encode_shell(m, 2, 1, dir, &o);
	steps_rank_encode_shell(m, 3, 2, dir, &o);
	ok(two - one + m0->env_bytes <= one, "rank 1 after rank 0 (the same environment): the flag, not the bytes");
	struct run *rb = new_run();
	struct steps_model *mb = steps_model_get(rb);
	struct ibuf in = { o.p, o.n, 0, false };
	struct rank_steps *x[4] = { 0 };
	for (int r = 0; r < 4 && !in.bad; r++)
		x[r] = steps_rank_decode_shell(mb, &in, r ? x[r - 1] : NULL, dir);
	bool same = !in.bad && in.off == o.n;
	for (int r = 0; r < 4; r++)
		same = same && x[r] && same_meta(steps_rank_meta(m, (size_t)r), &x[r]->meta);
	ok(same, "the row decodes: every rank's run.json as loaded (escapes, a NUL cut as before)");
	for (int r = 0; r < 4; r++)
		steps_rank_free(x[r]);
	struct ibuf alone = { o.p + one, two - one, 0, false };
	ok(!steps_rank_decode_shell(mb, &alone, NULL, dir) && alone.bad,
	   "that shell without the one before it: malformed");
	ob_free(&o);
	run_free(rb);

	run_free(open_dir(dir, &build));
	struct run *got = open_dir(dir, &dflt);
	is_int(steps_bodies_resident(got->steps), 0, "reopened from the index");
	same = steps_nranks(got->steps) == steps_nranks(m);
	for (size_t r = 0; same && r < steps_nranks(m); r++)
		same = same_meta(steps_rank_meta(m, r), steps_rank_meta(got->steps, r));
	ok(same, "every rank's run.json metadata from the index = from the JSONL");
	run_free(got);
	run_free(want);
	tu_rm_rf(dir);
}

/* The CRC windows a part records of each steps.jsonl (extent.h) are those of the file's
 * covered bytes, whether the loader's last read still holds them (one read: a small
 * file) or not (a file read in several chunks, a last line cut short): zlib's crc32 of
 * the first and the last EXTENT_WINDOW bytes of the complete lines. */
static void test_extent_windows(void)
{
	char dir[512], path[700];
	tu_mkdtemp(dir, sizeof(dir), "extwin");
	static const size_t lines[] = { 3, 20, 40, 15000, 13000 }; /* ~85 B a line: 1.1-1.3 MB, two reads */
	for (int r = 0; r < 5; r++) {
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		tu_make_dir(path);
		size_t cap = lines[r] * 160 + 64, n = 0;
		char *buf = xmalloc(cap);
		for (size_t s = 0; s < lines[r]; s++)
			n += (size_t)snprintf(buf + n, cap - n,
					      "{\"step\":%zu,\"phases\":{\"forward\":0.0%zu1,\"backward\":0.02}%*s}\n", s,
					      s % 97, (int)(s % 60), "");
		if (r % 2) /* a last line cut short: not covered */
			n += (size_t)snprintf(buf + n, cap - n, "{\"step\":%zu,\"pha", lines[r]);
		snprintf(path, sizeof(path), "%s/rank%d/steps.jsonl", dir, r);
		tu_write_file(path, buf, n);
		free(buf);
	}
	/* rank 5: 66 lines of 64 bytes (4,224 covered) and a 300-byte cut line, which the
	 * loader moves to the page offset 128 of its buffer, over the first window */
	snprintf(path, sizeof(path), "%s/rank5", dir);
	tu_make_dir(path);
	char *buf = xmalloc(66 * 64 + 301);
	size_t n = 0;
	for (int s = 0; s < 66; s++)
		n += (size_t)snprintf(buf + n, 65, "{\"step\":%2d,\"phases\":{\"forward\":0.01}%*s}\n", s, 26, "");
	memset(buf + n, ' ', 300);
	memcpy(buf + n, "{\"step\":66,", 10);
	snprintf(path, sizeof(path), "%s/rank5/steps.jsonl", dir);
	tu_write_file(path, buf, n + 300);
	free(buf);
	static const struct opts build = { .index_build = true };
	run_free(open_dir(dir, &build));
	snprintf(path, sizeof(path), "%s/.tscope-index/steps-0-of-1.tsx", dir);
	struct index_file_id id;
	long *ids = NULL;
	struct index_extent *ext = NULL;
	size_t good = 0;
	bool read = extent_read_part(path, dir, 0, 1, &id, &ids, &ext, &n);
	for (size_t i = 0; read && i < n; i++) {
		char steps[700];
		snprintf(steps, sizeof(steps), "%s/rank%ld/steps.jsonl", dir, ids[i]);
		unsigned char *f = (unsigned char *)tu_read_file(steps);
		size_t len = f ? strlen((char *)f) : 0;
		long long cov = ext[i].covered;
		size_t w = cov < EXTENT_WINDOW ? (size_t)cov : EXTENT_WINDOW;
		bool lines_end = cov > 0 && (size_t)cov <= len && f[cov - 1] == '\n' && ((size_t)cov == len) == !(ids[i] % 2) &&
				 (ids[i] != 5 || cov == 66 * 64);
		good += lines_end && ext[i].head_crc == (uint32_t)crc32(0, f, (uInt)w) &&
			ext[i].tail_crc == (uint32_t)crc32(0, f + cov - (long long)w, (uInt)w);
		free(f);
	}
	ok(read && n == 6 && good == 6, "every extent: the complete lines, and their windows' CRC-32 = zlib's (%zu of %zu)",
	   good, n);
	free(ids);
	free(ext);
	tu_rm_rf(dir);
}

/* The fuzz harness's seeds (tests/fuzz/corpus/index) are parts of the current format:
 * seeds of an older one stop at the version check and the fuzzer starts from nothing.
 * When INDEX_VERSION changes, write them again (tests/fuzz/fuzz_index.c says how). */
static void test_fuzz_seeds_current(void)
{
	const char *root = getenv("TSCOPE_ROOT");
	char *path = xasprintf("%s/tests/fuzz/corpus/index/whole", root ? root : ".");
	FILE *f = fopen(path, "rb");
	unsigned char head[1 + 12] = { 0 };
	bool read = f && fread(head, 1, sizeof(head), f) == sizeof(head);
	if (f)
		fclose(f);
	uint32_t version = (uint32_t)head[9] | (uint32_t)head[10] << 8 | (uint32_t)head[11] << 16 |
			   (uint32_t)head[12] << 24;
	ok(read && memcmp(head + 1, "TSCOPEIX", 8) == 0 && version == INDEX_VERSION,
	   "the index fuzz seed is a part of format %u (it is %u)", INDEX_VERSION, version);
	free(path);
}

int main(void)
{
	test_crc();
	test_round_trip();
	test_header();
	test_stream();
	test_stream_direct();
	test_ranklist();
	test_lazy_open();
	test_summary_chunks();
	test_chunk_cache();
	test_heat_pair();
	test_heat_levels();
	test_summary_paths();
	test_sources_of();
	test_shell_env_rows();
	test_extent_windows();
	test_fuzz_seeds_current();
	return tap_done();
}
