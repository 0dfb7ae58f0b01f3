/* SPDX-License-Identifier: MIT */
/* test_index.c: the persistent index's byte form (model/index/codec.c, the rank codec in
 * model/steps/store_index.c, the part header check in model/index/index.c): a sealed
 * rank round-trips exactly (every encoding, presence, repeated steps, run.json metadata),
 * and truncated or corrupted bytes are rejected without reading out of bounds (check-asan
 * runs this under ASan+UBSan); a flipped bit in a part's header (fields under no
 * checksum) named as damage where no build writes such a value, a length that does not
 * match with both lengths; varints and strings, streams, CRC-32, shells in a row,
 * source extents. Opening
 * a run from its index: test_index_lazy.c. */
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
#include "model/steps/analysis_index.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/index_fixture.h"

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
	struct run *ra = tu_empty_run(), *rb = tu_empty_run();
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

/* The bytes ob_uvar / ob_svar / ob_str write for one value, in hex. */
static const char *hex_of(const struct obuf *o)
{
	static char s[64];
	s[0] = '\0';
	for (size_t i = 0; i < o->n && i < 20; i++)
		snprintf(s + 2 * i, 3, "%02x", o->p[i]);
	return s;
}

/* What ob_svar(s) (zigzag) or ob_uvar(u) writes, in hex. */
static const char *var_hex(uint64_t u, int64_t s, bool zigzag)
{
	struct obuf o = { 0 };
	if (zigzag)
		ob_svar(&o, s);
	else
		ob_uvar(&o, u);
	const char *h = hex_of(&o);
	ob_free(&o);
	return h;
}

static const char *uvar_hex(uint64_t v)
{
	return var_hex(v, 0, false);
}

static const char *svar_hex(int64_t v)
{
	return var_hex(0, v, true);
}

/* Bytes given in hex read as one varint: its value, *bad when rejected, *used bytes. */
static uint64_t uvar_of(const char *hex, bool *bad, size_t *used)
{
	unsigned char b[32];
	size_t n = 0;
	for (; hex[2 * n] && n < sizeof(b); n++)
		sscanf(hex + 2 * n, "%2hhx", &b[n]);
	struct ibuf in = { b, n, 0, false };
	uint64_t v = ib_uvar(&in);
	*bad = in.bad;
	*used = in.off;
	return v;
}

static void test_varints(void)
{
	is_str(uvar_hex(0), "00", "uvar 0: one byte");
	is_str(uvar_hex(127), "7f", "uvar 127: one byte");
	is_str(uvar_hex(128), "8001", "uvar 128: two bytes, low seven bits first");
	is_str(uvar_hex(300), "ac02", "uvar 300 = ac 02 (LEB128)");
	is_str(uvar_hex(UINT64_MAX), "ffffffffffffffffff01", "uvar 2^64 - 1: ten bytes");
	is_str(svar_hex(0), "00", "svar 0 -> 0");
	is_str(svar_hex(-1), "01", "svar -1 -> 1 (zigzag: one byte)");
	is_str(svar_hex(1), "02", "svar 1 -> 2");
	is_str(svar_hex(-64), "7f", "svar -64: one byte");
	is_str(svar_hex(64), "8001", "svar 64: two bytes");
	is_str(svar_hex(INT64_MIN), "ffffffffffffffffff01", "svar INT64_MIN: ten bytes");

	static const uint64_t u[] = { 0, 1, 127, 128, 16383, 16384, 1u << 31, (uint64_t)1 << 32,
				      (uint64_t)1 << 63, UINT64_MAX - 1, UINT64_MAX };
	static const int64_t sv[] = { 0, -1, 1, -65, 65, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX,
				      1700000000123456789LL };
	struct obuf o = { 0 };
	for (size_t i = 0; i < ARRAY_LEN(u); i++)
		ob_uvar(&o, u[i]);
	for (size_t i = 0; i < ARRAY_LEN(sv); i++)
		ob_svar(&o, sv[i]);
	struct ibuf in = { o.p, o.n, 0, false };
	size_t same = 0;
	for (size_t i = 0; i < ARRAY_LEN(u); i++)
		same += ib_uvar(&in) == u[i];
	for (size_t i = 0; i < ARRAY_LEN(sv); i++)
		same += ib_svar(&in) == sv[i];
	ok(same == ARRAY_LEN(u) + ARRAY_LEN(sv) && !in.bad && in.off == o.n,
	   "every edge value reads back as written, consuming every byte");
	size_t cut = 0;
	for (size_t n = 0; n < o.n; n++) { /* each prefix: the values before the cut, then bad */
		struct ibuf t = { o.p, n, 0, false };
		while (!t.bad)
			ib_uvar(&t);
		cut += t.off <= n;
	}
	is_int(cut, o.n, "every cut is rejected inside the buffer");
	ob_free(&o);

	bool bad;
	size_t used;
	ok(uvar_of("ffffffffffffffffff01", &bad, &used) == UINT64_MAX && !bad && used == 10,
	   "ten bytes whose last is 01: 2^64 - 1");
	uvar_of("ffffffffffffffffff02", &bad, &used);
	ok(bad, "a tenth byte above 01 (more than 64 bits): rejected");
	uvar_of("ffffffffffffffffff8001", &bad, &used);
	ok(bad, "eleven bytes: rejected");
	uvar_of("80", &bad, &used);
	ok(bad, "a continuation bit on the last byte: rejected");
	ok(uvar_of("8100", &bad, &used) == 1 && !bad && used == 2, "a longer form of a value is read as it");

	ob_str(&o, NULL);
	ob_str(&o, "");
	ob_str(&o, "abc");
	is_str(hex_of(&o), "000104616263", "strings: NULL 00, \"\" 01, \"abc\" 04 'abc'");
	in = (struct ibuf){ o.p, o.n, 0, false };
	char *a = ib_str(&in), *e = ib_str(&in), *c = ib_str(&in);
	ok(!a && e && !*e && c && strcmp(c, "abc") == 0 && !in.bad && in.off == o.n, "... and read back so");
	free(e);
	free(c);
	in = (struct ibuf){ o.p + 2, 3, 0, false };
	ok(!ib_str(&in) && in.bad, "a string longer than the bytes left: rejected");
	ob_free(&o);
	ob_uvar(&o, 3);
	ob_bytes(&o, "abcdef", 6);
	in = (struct ibuf){ o.p, o.n, 0, false };
	ok(ib_count(&in, 2) == 3 && !in.bad, "a count of 3 two-byte elements in 6 bytes");
	in = (struct ibuf){ o.p, o.n, 0, false };
	ok(ib_count(&in, 3) == 0 && in.bad, "... of 3 three-byte elements: rejected");
	ob_free(&o);
	struct diag d = { DIAG_INFO, NULL, -1, -1, -1, (char *)"", NULL, 0 };
	ob_diag(&o, NULL, &d);
	is_int(o.n, ENCODED_DIAG_MIN, "the smallest diagnostic is ENCODED_DIAG_MIN bytes (lists bound their counts by it)");
	ob_free(&o);
}

/* A header for a payload of 8 bytes whose head is its last 4 bytes. */
static void header_for(unsigned char *f, uint32_t crc)
{
	index_header_put(f, 8, 4, 4, crc);
	memcpy(f + INDEX_HEADER_LEN, "bodyhead", 8);
}

/* index_check(f, len) after f's byte at off is xor'ed with mask (f well-formed before)
 * names want. */
static void flip_names(unsigned char *f, size_t len, size_t off, unsigned mask, const char *want)
{
	header_for(f, (uint32_t)crc32(0, (const unsigned char *)"head", 4));
	f[off] ^= (unsigned char)mask;
	const char *why = index_check(f, len);
	if (!ok(why && strcmp(why, want) == 0, "byte %zu ^ 0x%02x: %s", off, mask, want))
		printf("#   got %s\n", why ? why : "(passes)");
}

/* The fields under no checksum (version, byte-order mark, payload length): a value no
 * build writes is a damaged header, not another version or byte order; a length that
 * does not match names both lengths, truncated or damaged. */
static void test_header_bit_flips(unsigned char *f, size_t len)
{
	char want[160];
	snprintf(want, sizeof(want), "damaged header (version field reads %u)", INDEX_VERSION | 1u << 24);
	flip_names(f, len, 11, 1, want);
	flip_names(f, len, 8, INDEX_VERSION, "damaged header (version field reads 0)");
	snprintf(want, sizeof(want), "written by another index format version (%u; this build reads %u)",
		 INDEX_VERSION + 1, INDEX_VERSION);
	flip_names(f, len, 8, INDEX_VERSION ^ (INDEX_VERSION + 1), want);
	uint32_t bom;
	header_for(f, 0);
	f[13] ^= 1;
	memcpy(&bom, f + 12, sizeof(bom)); /* the mark as this host reads it */
	snprintf(want, sizeof(want), "damaged header (byte-order mark reads 0x%08x)", bom);
	flip_names(f, len, 13, 1, want);
	flip_names(f, len, 16, 1, "truncated or damaged (its header gives a payload of 9 bytes, the file holds 8)");
	flip_names(f, len, 16, 0x0f,
		   "trailing bytes after the payload, or a damaged header (its header gives a payload of 7 bytes, "
		   "the file holds 8)");
	flip_names(f, len, 20, 1,
		   "truncated or damaged (its header gives a payload of 4294967304 bytes, the file holds 8)");
	header_for(f, (uint32_t)crc32(0, (const unsigned char *)"head", 4));
	unsigned char swapped[4] = { f[15], f[14], f[13], f[12] };
	memcpy(f + 12, swapped, sizeof(swapped));
	const char *why = index_check(f, len);
	ok(why && strcmp(why, "written on a host of another byte order") == 0,
	   "a byte-swapped mark: another byte order");
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
	test_header_bit_flips(f, sizeof(f));
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

static void test_ranklist(void)
{
	ok(ranklist_valid("0-63,4096", NULL, 0) && ranklist_valid("5", NULL, 0), "rank lists: ids and ranges");
	static const char *const bad[][2] = {
		{ "", "an empty list; " },
		{ "1,", "an empty item (',' at the start or the end, or ',,'); " },
		{ "0,,4", "an empty item (',' at the start or the end, or ',,'); " },
		{ "0-3,5-3,9", "'5-3' is a range that goes down; " },
		{ "1-x", "'1-x' is not a range; " },
		{ "-2", "'-2' is not a rank id; " },
		{ "7a", "'7a' is not a rank id or range; " },
		{ "99999999999999999999", "'99999999999999999999' is too large; " },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char why[160] = "";
		bool valid = ranklist_valid(bad[i][0], why, sizeof(why));
		ok(!valid && strncmp(why, bad[i][1], strlen(bad[i][1])) == 0 && strstr(why, "e.g. 0-63,4096"),
		   "rank lists: '%s' rejected, saying why (%s)", bad[i][0], why);
	}
	ok(!ranklist_valid("3-1", NULL, 0), "rank lists: rejected without a reason asked for");
	ok(ranklist_has("0-63,4096", 63) && ranklist_has("0-63,4096", 4096) && !ranklist_has("0-63,4096", 64),
	   "rank lists: membership");
	long from = -1, from2 = -1, none = -1;
	ok(ranklist_first_from("0-7,20-25,9-30", 16, &from) && from == 16 && ranklist_first_from("0-7,20,18", 16, &from2) &&
	   from2 == 18 && !ranklist_first_from("0-15", 16, &none) && none == -1,
	   "rank lists: the first id at or above a bound (%ld, %ld)", from, from2);
	char buf[16];
	long ids[] = { 0, 1, 3, 5, 6, 7, 4096 };
	ok(ranklist_format(ids, 7, buf, sizeof(buf)) && strcmp(buf, "0-1,3,5-7,4096") == 0 && ranklist_valid(buf, NULL, 0),
	   "rank lists: ids formatted as ranges, a valid list (%s)", buf);
	ok(!ranklist_format(ids, 7, buf, 14) && !buf[0] && ranklist_format(ids, 1, buf, 2) && strcmp(buf, "0") == 0,
	   "rank lists: a list that does not fit is refused, one that fits exactly is not");
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
	struct run *run = tu_empty_run();
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
	struct run *rb = tu_empty_run();
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
	char *path = tu_source_path("tests/fuzz/corpus/index/whole");
	FILE *f = path ? fopen(path, "rb") : NULL;
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

/* run_open's loaded hook (`tscope-tui index` ends its listings there): once, on the
 * loading thread, with every rank loaded (and their part written) and before the
 * finalize writes the summary. */
struct loaded_seen {
	int calls;
	size_t ranks;
	bool summary;
	char path[600];
};

static void on_loaded(void *ud, struct run *run)
{
	struct loaded_seen *seen = ud;
	seen->calls++;
	seen->ranks = steps_nranks(run->steps);
	seen->summary = access(seen->path, F_OK) == 0;
}

static void test_loaded_hook(void)
{
	char dir[512];
	tu_mkdtemp(dir, sizeof(dir), "loaded");
	write_lazy_run(dir);
	static const struct opts build = { .index_build = true };
	struct loaded_seen seen = { 0 };
	snprintf(seen.path, sizeof(seen.path), "%s/.tscope-index/summary.tsx", dir);
	struct load_ctx hooks = { .loaded = on_loaded, .ud = &seen };
	const char *paths[] = { dir };
	struct run *run = run_open(paths, 1, &build, &hooks);
	ok(seen.calls == 1 && seen.ranks == LZ_RANKS && !seen.summary && access(seen.path, F_OK) == 0,
	   "loaded hook: once, every rank loaded, before the summary is written");
	run_free(run);
	tu_rm_rf(dir);
}

int main(void)
{
	test_crc();
	test_loaded_hook();
	test_round_trip();
	test_varints();
	test_header();
	test_stream();
	test_stream_direct();
	test_ranklist();
	test_sources_of();
	test_shell_env_rows();
	test_extent_windows();
	test_fuzz_seeds_current();
	return tap_done();
}
