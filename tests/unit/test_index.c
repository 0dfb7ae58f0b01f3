/* SPDX-License-Identifier: MIT */
/* test_index.c: the persistent index's byte form (model/index/codec.c, the rank codec in
 * model/steps/store.c, the part header check in model/index/index.c): a sealed rank
 * round-trips exactly (every encoding, presence, repeated steps, run.json metadata), and
 * truncated or corrupted bytes are rejected without reading out of bounds (check-asan
 * runs this under ASan+UBSan). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "tests/tap.h"

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

static void test_header(void)
{
	unsigned char h[40] = "TSCOPEIX";
	ok(index_check(h, 10) && strstr(index_check(h, 10), "truncated"), "short file: truncated");
	unsigned char x[40] = "NOTANIDX";
	ok(strstr(index_check(x, sizeof(x)), "magic") != NULL, "bad magic");
	h[8] = (unsigned char)(INDEX_VERSION + 1);
	ok(strstr(index_check(h, sizeof(h)), "version") != NULL, "another version");
	h[8] = (unsigned char)INDEX_VERSION;
	uint32_t bom = 0x01020304u;
	memcpy(h + 12, &bom, 4);
	h[16] = 8; /* payload length 8 = 40 - 32 */
	h[32] = 1;  /* checksum field (0) does not match the payload */
	ok(strstr(index_check(h, sizeof(h)), "checksum") != NULL, "checksum mismatch");
	h[16] = 9;
	ok(strstr(index_check(h, sizeof(h)), "truncated") != NULL, "payload shorter than its length");
}

static void test_ranklist(void)
{
	ok(ranklist_valid("0-63,4096") && ranklist_valid("5"), "rank lists: ids and ranges");
	ok(!ranklist_valid("") && !ranklist_valid("1,") && !ranklist_valid("3-1") && !ranklist_valid("1-x") &&
	   !ranklist_valid("-2"), "rank lists: malformed ones rejected");
	ok(ranklist_has("0-63,4096", 63) && ranklist_has("0-63,4096", 4096) && !ranklist_has("0-63,4096", 64),
	   "rank lists: membership");
}

int main(void)
{
	test_round_trip();
	test_header();
	test_ranklist();
	return tap_done();
}
