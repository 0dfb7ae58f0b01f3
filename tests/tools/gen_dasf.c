/* SPDX-License-Identifier: MIT */
/* gen_dasf.c: writes DASF-format databases for tests and benchmarks.
 *   gen_dasf fixture DIR   the hand-checked fixture (tests/unit/test_dasf.c and
 *                          tests/cli/dasf.sh pin its numbers): two worker hosts, three
 *                          workers, a client ResourceMonitor file with GPU and CPU-only
 *                          samples, a user-defined event and a truncated tail
 *   gen_dasf bench N DIR   about N events over 4 hosts x 4 workers (+ a resource file)
 *   gen_dasf legacy FILE   the legacy `trace: {json}` text format (times in ms)
 *   gen_dasf skew FILE     one function and one worker dominate (findings fire)
 *   gen_dasf names FILE    function names with glob characters and spaces
 *   gen_dasf hostile DIR   names the sanitizer rewrites: function "big<U+200B>x" dominates
 *                          and is idle on the GPU, worker "w<ESC>[2J<TAB><0xff>" is busiest
 *                          (no Managed Memory event: its evidence is function_bottleneck's)
 *   gen_dasf variants FILE every value type and encoding the loader may meet (ints for
 *                          strings, float32, uint64, nil, bin keys, str8/16/32, map16/32,
 *                          duplicate keys, nesting around msgpack-c's 32-level limit)
 *   gen_dasf mutants SRC N DIR  N copies of SRC with 1-4 bytes changed (DIR/m0000.msgpack
 *                          ...), the same on every machine (tests/cli/dasf_parity.sh)
 *   gen_dasf run DIR SLOW TOKEN EXTRA  one run of a pair (tests/cli/dasf_compare.sh): 2 hosts
 *                          x 2 workers; load, unc_fit-<TOKEN...> (a uuid per task, as DASF
 *                          names them), predict (SLOW % slower) x 40 tasks, sum x 8, EXTRA x 20
 *   gen_dasf verdicts DIR  small databases whose verdicts are edge cases (tests/cli/dasf_verdicts.sh):
 *                          cycle, allcycle, zero, neg, nan, tie, memonly (Managed Memory events
 *                          alone) (.msgpack), two/ (one host's files
 *                          of two runs), copy/ (a database and its copy under another name) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/tools/dasf_writer.h"

static int open_err(const char *dir)
{
	fprintf(stderr, "gen_dasf: cannot write in %s: %s\n", dir, strerror(errno));
	return 1;
}

static unsigned long long lcg_state = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((lcg_state >> 33) % n);
}

#define BENCH_HOSTS 4
#define BENCH_WORKERS 4

static int bench(long n, const char *dir)
{
	static const char *const fn[] = { "from_zarr", "unc_fit-62a75b12-6b7a-49b0-b279", "var", "reshape",
					  "getitem", "predict", "sum", "transpose" };
	struct dw host[BENCH_HOSTS], res;
	char name[64];
	for (int h = 0; h < BENCH_HOSTS; h++) {
		snprintf(name, sizeof(name), "bench-TracePlugin-h%d.msgpack", h);
		if (dw_open_in(&host[h], dir, name) < 0)
			return open_err(dir);
	}
	if (dw_open_in(&res, dir, "bench-ResourceMonitor-h0.msgpack") < 0)
		return open_err(dir);
	double clock[BENCH_HOSTS * BENCH_WORKERS];
	long held[BENCH_HOSTS * BENCH_WORKERS] = { 0 };
	for (int w = 0; w < BENCH_HOSTS * BENCH_WORKERS; w++)
		clock[w] = 1000.0 * (w / BENCH_WORKERS + 1);
	long written = 0;
	for (long i = 0; written < n; i++) {
		int w = (int)(i % (BENCH_HOSTS * BENCH_WORKERS)), h = w / BENCH_WORKERS;
		char hostname[16], thread[48], key[64], dep[64], dnt[64];
		snprintf(hostname, sizeof(hostname), "h%d", h);
		snprintf(thread, sizeof(thread), "worker-h%d-%d", h, w % BENCH_WORKERS);
		const char *f = fn[(i / 16 + (unsigned long)w * 3) % 8];
		snprintf(key, sizeof(key), "('%s-%08lx', %ld, 0)", f, (unsigned long)(i * 2654435761u), i);
		long prev = i - 16, next = i + 16;
		snprintf(dep, sizeof(dep), "('%s-%08lx', %ld, 0)", fn[(prev / 16 + (unsigned long)w * 3) % 8],
			 (unsigned long)(prev * 2654435761u), prev);
		snprintf(dnt, sizeof(dnt), "('%s-%08lx', %ld, 0)", fn[(next / 16 + (unsigned long)w * 3) % 8],
			 (unsigned long)(next * 2654435761u), next);
		const char *deps[1] = { dep }, *dnts[1] = { dnt };
		double dur = 0.001 * (1 + rnd(200)) * (w == 0 ? 2 : 1);
		struct dw_task t = { hostname, thread, key, f, clock[w], dur, 1000 + rnd(4000000),
				     deps, prev >= 0, dnts, 1 };
		dw_compute(&host[h], &t);
		held[w] = (held[w] + 1 + rnd(3)) % 40;
		dw_memory(&host[h], hostname, thread, clock[w] + dur, key, held[w] * 100000, held[w]);
		written += 2;
		if (i % 5 == 0) {
			dw_resource(&res, "h0", clock[0] + 0.0005, i % 50 == 0 ? -1 : (int)rnd(101),
				    (long long)rnd(16000) * 1000000);
			written++;
		}
		clock[w] += dur + 0.0001 * rnd(10);
	}
	int rc = 0;
	for (int h = 0; h < BENCH_HOSTS; h++)
		rc |= dw_close(&host[h]);
	rc |= dw_close(&res);
	printf("%ld events\n", written);
	return rc ? 1 : 0;
}

static int legacy(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen_dasf: %s: %s\n", path, strerror(errno));
		return 1;
	}
	static const char *const line[] = {
		"{\"name\": \"Compute\", \"phase\": \"X\", \"timestamp\": 5000.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"compute\", \"data\": {\"key\": \"a-1\", "
		"\"name\": \"a\", \"state\": \"memory\", \"size\": 2000000, \"shape\": [], \"dtype\": \"unknown\", "
		"\"type\": \"<class 'int'>\", \"dependencies\": [], \"dependents\": [\"b-1\"]}, "
		"\"thread_timestamp\": 0, \"color_name\": null, \"duration\": 1500.0, \"thread_duration\": 0}",
		"{\"name\": \"Compute\", \"phase\": \"X\", \"timestamp\": 7000.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"compute\", \"data\": {\"key\": \"b-1\", "
		"\"name\": \"b\", \"state\": \"memory\", \"size\": 10, \"shape\": [2, 3], \"dtype\": \"float32\", "
		"\"type\": \"<class 'int'>\", \"dependencies\": [\"a-1\"], \"dependents\": []}, "
		"\"thread_timestamp\": 0, \"color_name\": null, \"duration\": 500.0, \"thread_duration\": 0}",
		"{\"name\": \"Managed Memory\", \"phase\": \"I\", \"timestamp\": 7600.0, \"process_id\": \"lh\", "
		"\"thread_id\": \"worker-lh-0\", \"category\": \"memory\", \"data\": {\"key\": \"b-1\", "
		"\"state\": \"memory\", \"size\": 2000010, \"tasks\": 2}}",
	};
	for (size_t i = 0; i < sizeof(line) / sizeof(line[0]); i++)
		fprintf(f, "trace: %s\n", line[i]);
	fprintf(f, "this line is not a trace\n");
	fprintf(f, "trace: {\"name\": \"Compute\", \"timestamp\": 9");
	return fclose(f) ? 1 : 0;
}

/* Functions "other" (4 s), "a b[1]*" (two tasks, 3 s) and "a bX1]" (3 s): a drill-down
 * must match a name exactly, glob characters and filter separators included. */
static int names(const char *path)
{
	static const char *const fn[] = { "a b[1]*", "a b[1]*", "a bX1]", "other" };
	struct dw w;
	if (dw_open(&w, path) < 0)
		return 1;
	for (int i = 0; i < 4; i++) {
		char key[16];
		snprintf(key, sizeof(key), "k%d", i + 1);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, fn[i], i, 1.0 + i, 1, NULL, 0, NULL, 0 });
	}
	return dw_close(&w) ? 1 : 0;
}

/* Function "big<U+200B>x" (3 tasks, 9 s) on worker "w<ESC>[2J<TAB><0xff>" (ESC, tab,
 * invalid UTF-8), "small" (1 s) on worker-h-1, and 6 GPU samples at 0% while big runs:
 * the three findings fire, each about a name the sanitizer rewrites. */
static int hostile(const char *dir)
{
	const char *big = "big\xe2\x80\x8bx", *worker = "w\x1b[2J\t\xff";
	struct dw t, r;
	if (dw_open_in(&t, dir, "1-TracePlugin-h.msgpack") < 0 || dw_open_in(&r, dir, "2-ResourceMonitor-h.msgpack") < 0)
		return open_err(dir);
	for (int i = 0; i < 3; i++) {
		char key[16];
		snprintf(key, sizeof(key), "big-%d", i);
		dw_compute(&t, &(struct dw_task){ "h", worker, key, big, 3.0 * i, 3.0, 10, DW_NONE, DW_NONE });
	}
	dw_compute(&t, &(struct dw_task){ "h", "worker-h-1", "small-0", "small", 0, 1.0, 10, DW_NONE, DW_NONE });
	for (int i = 0; i < 6; i++)
		dw_resource(&r, "h", 1.5 + 1.4 * i, 0, 1000000000LL);
	return dw_close(&t) | dw_close(&r) ? 1 : 0;
}

/* One record of the variants file: a map of n entries whose body the caller packs. */
static void var_map(struct dw *w, size_t n)
{
	msgpack_pack_map(&w->pk, n);
}

static void var_kv_str(struct dw *w, const char *k, const char *v)
{
	dw_str(w, k);
	dw_str(w, v);
}

/* A Compute record whose timestamp, duration, process_id, thread_id and args.size take
 * a type chosen by i (float32, uint64, negative ints, nil, bool, out-of-range sizes),
 * with shapes of 0-3 and 40 ints, non-string dependencies and a non-array dependents. */
static void var_compute(struct dw *w, int i)
{
	char key[32];
	snprintf(key, sizeof(key), "v-%d", i);
	var_map(w, 7);
	var_kv_str(w, "name", "Compute");
	dw_str(w, "timestamp");
	switch (i % 5) {
	case 0: msgpack_pack_float(&w->pk, 1.5f + (float)i); break;
	case 1: msgpack_pack_uint64(&w->pk, 10 + (uint64_t)i); break;
	case 2: msgpack_pack_int8(&w->pk, (int8_t)-i); break;
	case 3: msgpack_pack_int64(&w->pk, -1000000000000LL - i); break;
	default: msgpack_pack_double(&w->pk, 0.25 * i); break;
	}
	dw_str(w, "duration");
	if (i % 3 == 0)
		msgpack_pack_uint8(&w->pk, (uint8_t)(1 + i));
	else
		msgpack_pack_float(&w->pk, 0.125f * (float)(i + 1));
	dw_str(w, "process_id");
	switch (i % 4) {
	case 0: msgpack_pack_uint32(&w->pk, 4000000000u); break;
	case 1: msgpack_pack_int16(&w->pk, -300); break;
	case 2: msgpack_pack_nil(&w->pk); break;
	default: dw_str(w, "host-s"); break;
	}
	dw_str(w, "thread_id");
	switch (i % 3) {
	case 0: msgpack_pack_int(&w->pk, i); break;
	case 1: msgpack_pack_true(&w->pk); break;
	default: dw_str(w, "worker-s-0"); break;
	}
	var_kv_str(w, "phase", "X");
	dw_str(w, "args");
	var_map(w, 7);
	var_kv_str(w, "key", key);
	var_kv_str(w, "name", i % 2 ? "f-odd" : "f-even");
	dw_str(w, "size");
	switch (i % 4) {
	case 0: msgpack_pack_uint64(&w->pk, 18446744073709551615ULL); break;
	case 1: msgpack_pack_int64(&w->pk, -5); break;
	case 2: msgpack_pack_double(&w->pk, 3.5); break;
	default: msgpack_pack_uint16(&w->pk, 60000); break;
	}
	int nshape = i % 4 == 3 ? 40 : i % 4;
	dw_str(w, "shape");
	msgpack_pack_array(&w->pk, (size_t)nshape);
	for (int k = 0; k < nshape; k++)
		if (i == 2 && k == 1)
			dw_str(w, "x"); /* not an int: no shape */
		else
			msgpack_pack_int64(&w->pk, k % 2 ? -123456789012LL : 7);
	dw_str(w, "type");
	if (i % 2)
		msgpack_pack_int(&w->pk, 5); /* not a string: no type */
	else
		dw_str(w, "<class 'numpy.ndarray'>");
	dw_str(w, "dependencies");
	msgpack_pack_array(&w->pk, 3);
	dw_str(w, "v-0");
	msgpack_pack_int(&w->pk, 9); /* not a string: not an edge */
	msgpack_pack_bin(&w->pk, 3);
	msgpack_pack_bin_body(&w->pk, "v-1", 3);
	dw_str(w, "dependents");
	if (i % 2)
		dw_str(w, "not-an-array");
	else
		dw_strs(w, (const char *const[]){ "v-9", "" }, 2);
	dw_flush(w);
}

/* A Managed Memory record with containers `depth` levels deep in an unused field. */
static void var_deep(struct dw *w, int depth, int empty_inner)
{
	dw_instant_head(w, "Managed Memory", 50 + depth, "host-d", "worker-d-0");
	var_map(w, 2);
	dw_str(w, "tasks");
	msgpack_pack_int(&w->pk, depth);
	dw_str(w, "junk");
	for (int k = 0; k < depth - 2; k++) {
		if (k % 2) {
			msgpack_pack_array(&w->pk, 1);
			continue;
		}
		var_map(w, 1);
		dw_str(w, "k");
	}
	if (empty_inner)
		msgpack_pack_array(&w->pk, 0);
	else
		msgpack_pack_int(&w->pk, 1);
	dw_flush(w);
}

/* Raw record bytes (explicit encodings msgpack-c's packer never picks). */
static void var_raw(struct dw *w, const char *bytes, size_t n)
{
	dw_len(w, n);
	dw_raw(w, bytes, n);
}

/* Records the common case never shows: duplicate keys, a bin key, wrong types at the
 * top, map/array keys, ext values, explicit wide encodings, malformed bodies. */
static void var_odd(struct dw *w)
{
	var_map(w, 6); /* duplicate keys: the first wins; a bin "name" key is not a name */
	msgpack_pack_bin(&w->pk, 4);
	msgpack_pack_bin_body(&w->pk, "name", 4);
	dw_str(w, "Bogus");
	var_kv_str(w, "name", "Managed Memory");
	var_kv_str(w, "name", "Compute");
	dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, 70);
	dw_str(w, "args"); var_map(w, 2);
	dw_str(w, "tasks"); msgpack_pack_int(&w->pk, 3);
	dw_str(w, "tasks"); msgpack_pack_int(&w->pk, 4);
	dw_str(w, "args"); var_map(w, 0);
	dw_flush(w);
	var_map(w, 3); var_kv_str(w, "name", "Compute"); dw_str(w, "timestamp"); /* args not a map */
	msgpack_pack_int(&w->pk, 1); dw_str(w, "args"); msgpack_pack_array(&w->pk, 0); dw_flush(w);
	var_map(w, 2); var_kv_str(w, "name", "Resource Usage"); dw_str(w, "timestamp"); /* no args */
	msgpack_pack_int(&w->pk, 1); dw_flush(w);
	var_map(w, 2); dw_str(w, "name"); msgpack_pack_int(&w->pk, 7); dw_str(w, "timestamp");
	msgpack_pack_int(&w->pk, 1); dw_flush(w);
	var_map(w, 1); var_kv_str(w, "name", "Compute"); dw_flush(w); /* no timestamp */
	var_map(w, 2); dw_str(w, "name"); msgpack_pack_nil(&w->pk); dw_str(w, "timestamp");
	msgpack_pack_nil(&w->pk); dw_flush(w);
	var_map(w, 4); /* an array key; ext values */
	msgpack_pack_array(&w->pk, 1); msgpack_pack_int(&w->pk, 1); msgpack_pack_int(&w->pk, 2);
	var_kv_str(w, "name", "Resource Usage"); dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, 12.5);
	dw_str(w, "args"); var_map(w, 3);
	dw_str(w, "gpu_utilization"); msgpack_pack_float(&w->pk, 42.5f);
	dw_str(w, "gpu_memory_used"); msgpack_pack_ext(&w->pk, 4, 5); msgpack_pack_ext_body(&w->pk, "abcd", 4);
	dw_str(w, "x"); msgpack_pack_ext(&w->pk, 1, -1); msgpack_pack_ext_body(&w->pk, "z", 1);
	dw_flush(w);
	msgpack_pack_array(&w->pk, 2); dw_str(w, "name"); dw_str(w, "Compute"); dw_flush(w);
	dw_other(w, "MyEvent", 80);
	dw_other(w, "", 81);
	/* map32 { str32 "name": str16 "Managed Memory", str8 "timestamp": float64 90,
	 * "args": map16 { "tasks": uint64 6, "size": int32 -1 } } */
	static const char wide[] =
		"\xdf\x00\x00\x00\x03"
		"\xdb\x00\x00\x00\x04name" "\xda\x00\x0eManaged Memory"
		"\xd9\x09timestamp" "\xcb\x40\x56\x80\x00\x00\x00\x00\x00"
		"\xa4" "args" "\xde\x00\x02"
		"\xa5tasks" "\xcf\x00\x00\x00\x00\x00\x00\x00\x06"
		"\xa4size" "\xd2\xff\xff\xff\xff";
	var_raw(w, wide, sizeof(wide) - 1);
	static const char trail[] = "\x81\xa4name\xa7" "Compute" "\x00"; /* a byte after the map */
	var_raw(w, trail, sizeof(trail) - 1);
	static const char c1[] = "\x82\xa4name\xa7" "Compute" "\xa1x\xc1"; /* reserved marker */
	var_raw(w, c1, sizeof(c1) - 1);
	static const char big[] = "\x82\xa4name\xa7" "Compute" "\xa1x\xdd\xff\xff\xff\xff"; /* count past the end */
	var_raw(w, big, sizeof(big) - 1);
}

static int variants(const char *path)
{
	struct dw w;
	if (dw_open(&w, path) < 0)
		return 1;
	for (int i = 0; i < 12; i++)
		var_compute(&w, i);
	for (int d = 28; d <= 36; d++) {
		var_deep(&w, d, 0);
		var_deep(&w, d, 1);
	}
	var_odd(&w);
	return dw_close(&w) ? 1 : 0;
}

/* N mutants of the file SRC: each has 1-4 bytes set to a random value or to a msgpack
 * marker, at random offsets (a fixed generator: the same files on every machine). */
static int mutants(const char *src, long n, const char *dir)
{
	FILE *f = fopen(src, "rb");
	if (!f)
		return open_err(src);
	static unsigned char buf[1 << 16], out[1 << 16];
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (!len || (mkdir(dir, 0755) != 0 && errno != EEXIST))
		return open_err(dir);
	static const unsigned char marker[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x91, 0x9f, 0xa0,
						0xa1, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc7, 0xca, 0xcb,
						0xcc, 0xcf, 0xd0, 0xd3, 0xd4, 0xd8, 0xd9, 0xda, 0xdb, 0xdc,
						0xdd, 0xde, 0xdf, 0xe0, 0xff };
	for (long m = 0; m < n; m++) {
		memcpy(out, buf, len);
		int k = 1 + (int)rnd(4);
		for (int j = 0; j < k; j++) {
			size_t at = rnd((unsigned)len);
			out[at] = rnd(2) ? (unsigned char)rnd(256) : marker[rnd(sizeof(marker))];
		}
		char path[4096];
		snprintf(path, sizeof(path), "%s/m%04ld.msgpack", dir, m);
		FILE *o = fopen(path, "wb");
		if (!o || fwrite(out, 1, len, o) != len || fclose(o))
			return open_err(dir);
	}
	return 0;
}

struct run_fn {
	const char *name;
	int ntasks;
	double base;
};

static void run_task(struct dw *host, double *clock, const char *name, const char *key, double dur, const char *dep)
{
	static int next;
	int w = next++ % 4;
	char hostname[8], thread[24];
	snprintf(hostname, sizeof(hostname), "h%d", w / 2);
	snprintf(thread, sizeof(thread), "worker-h%d-%d", w / 2, w % 2);
	const char *deps[1] = { dep };
	struct dw_task t = { hostname, thread, key, name, clock[w], dur, 4000000, deps, dep != NULL, NULL, 0 };
	dw_compute(&host[w / 2], &t);
	clock[w] += dur + 0.001;
}

static int pair_run(const char *dir, double slow_pct, const char *token, const char *extra)
{
	const struct run_fn fn[] = { { "load", 40, 0.5 }, { "unc_fit", 40, 0.2 }, { "predict", 40, 1.0 },
				     { "sum", 8, 0.05 }, { extra, 20, 0.1 } };
	struct dw host[2];
	if (dw_open_in(&host[0], dir, "p-TracePlugin-h0.msgpack") < 0 ||
	    dw_open_in(&host[1], dir, "p-TracePlugin-h1.msgpack") < 0)
		return open_err(dir);
	double clock[4] = { 100, 100, 500, 500 };
	for (size_t f = 0; f < sizeof(fn) / sizeof(fn[0]); f++)
		for (int i = 0; i < fn[f].ntasks; i++) {
			char name[64], key[96], dep[96];
			double dur = fn[f].base * (1 + 0.2 * ((i * 37) % 11) / 10.0);
			if (f == 1) /* DASF's name of a per-call uuid key keeps the uuid */
				snprintf(name, sizeof(name), "unc_fit-%s%04x-6b7a-49b0-b279", token, (unsigned)i);
			else
				snprintf(name, sizeof(name), "%s", fn[f].name);
			if (f == 2)
				dur *= 1 + slow_pct / 100;
			snprintf(key, sizeof(key), "('%s-%s', %d)", name, token, i);
			snprintf(dep, sizeof(dep), "('load-%s', %d)", token, i);
			run_task(host, clock, name, key, dur, f == 2 ? dep : NULL);
		}
	return dw_close(&host[0]) | dw_close(&host[1]) ? 1 : 0;
}

/* One task of a verdict database: function f (key "f-1"), worker w of host h, duration,
 * one dependency or NULL. */
struct vd_task {
	const char *fn;
	int w;
	double dur;
	const char *dep;
};

static int vd_file(const char *dir, const char *file, const struct vd_task *t, size_t n)
{
	struct dw w;
	if (dw_open_in(&w, dir, file) < 0)
		return open_err(dir);
	for (size_t i = 0; i < n; i++) {
		char key[32], thread[16];
		snprintf(key, sizeof(key), "%s-1", t[i].fn);
		snprintf(thread, sizeof(thread), "worker-h-%d", t[i].w);
		const char *deps[1] = { t[i].dep };
		struct dw_task k = { "h", thread, key, t[i].fn, 10.0 + (double)i, t[i].dur, 1000,
				     deps, t[i].dep != NULL, NULL, 0 };
		dw_compute(&w, &k);
	}
	return dw_close(&w) ? 1 : 0;
}

/* Managed Memory events of two workers and no task (task_balance alone). */
static int memonly(const char *dir)
{
	struct dw w;
	if (dw_open_in(&w, dir, "memonly.msgpack") < 0)
		return open_err(dir);
	for (int s = 0; s < 3; s++) {
		dw_memory(&w, "h", "worker-h-0", 100.0 + s, "x-1", 1000, s + 1);
		dw_memory(&w, "h", "worker-h-1", 100.5 + s, "y-1", 1000, 2 * s);
	}
	return dw_close(&w) ? 1 : 0;
}

static int verdicts(const char *dir)
{
	static const struct vd_task cycle[] = { { "a", 0, 1, "c-1" }, { "b", 0, 2, "a-1" }, { "c", 1, 3, "b-1" },
						{ "d", 1, 0.5, NULL }, { "e", 1, 0.5, "d-1" } };
	static const struct vd_task allcycle[] = { { "a", 0, 1, "b-1" }, { "b", 1, 2, "a-1" } };
	static const struct vd_task zero[] = { { "a", 0, 0, NULL }, { "b", 1, 0, NULL } };
	static const struct vd_task neg[] = { { "a", 0, 5, NULL }, { "b", 1, -4, NULL }, { "c", 1, 1, NULL } };
	static const struct vd_task nan[] = { { "a", 0, NAN, NULL }, { "b", 1, INFINITY, NULL },
					      { "c", 0, 1, NULL }, { "d", 1, 2, NULL } };
	static const struct vd_task tie[] = { { "a", 0, 4, NULL }, { "b", 1, 4, NULL } };
	static const struct vd_task run2[] = { { "fit", 0, 3, NULL }, { "load", 1, 1, NULL } };
	char sub[4096];
	int rc = vd_file(dir, "cycle.msgpack", cycle, 5) | vd_file(dir, "allcycle.msgpack", allcycle, 2) |
		 vd_file(dir, "zero.msgpack", zero, 2) | vd_file(dir, "neg.msgpack", neg, 3) |
		 vd_file(dir, "nan.msgpack", nan, 4) | vd_file(dir, "tie.msgpack", tie, 2) | memonly(dir);
	snprintf(sub, sizeof(sub), "%s/two", dir);
	if (mkdir(sub, 0755) != 0 && errno != EEXIST)
		return open_err(sub);
	rc |= vd_file(sub, "Prof-1700000000-TracePlugin-c096.msgpack", run2, 2) |
	      vd_file(sub, "Prof-1700003600-TracePlugin-c096.msgpack", run2, 2);
	snprintf(sub, sizeof(sub), "%s/copy", dir);
	if (mkdir(sub, 0755) != 0 && errno != EEXIST)
		return open_err(sub);
	return rc | vd_file(sub, "1-TracePlugin-hA.msgpack", run2, 2) |
	       vd_file(sub, "1-TracePlugin-hA.bak.msgpack", run2, 2);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "fixture") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? dw_write_fixture(argv[2]) : 1;
	if (argc == 4 && strcmp(argv[1], "bench") == 0)
		return mkdir(argv[3], 0755) == 0 || errno == EEXIST ? bench(atol(argv[2]), argv[3]) : 1;
	if (argc == 3 && strcmp(argv[1], "legacy") == 0)
		return legacy(argv[2]);
	if (argc == 3 && strcmp(argv[1], "skew") == 0)
		return dw_write_skew(argv[2]);
	if (argc == 3 && strcmp(argv[1], "names") == 0)
		return names(argv[2]);
	if (argc == 3 && strcmp(argv[1], "hostile") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? hostile(argv[2]) : 1;
	if (argc == 3 && strcmp(argv[1], "variants") == 0)
		return variants(argv[2]);
	if (argc == 5 && strcmp(argv[1], "mutants") == 0)
		return mutants(argv[2], atol(argv[3]), argv[4]);
	if (argc == 6 && strcmp(argv[1], "run") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? pair_run(argv[2], atof(argv[3]), argv[4], argv[5]) : 1;
	if (argc == 3 && strcmp(argv[1], "verdicts") == 0)
		return mkdir(argv[2], 0755) == 0 || errno == EEXIST ? verdicts(argv[2]) : 1;
	fprintf(stderr, "usage: gen_dasf fixture DIR | gen_dasf bench N DIR | gen_dasf legacy FILE | gen_dasf skew FILE\n"
		"       gen_dasf names FILE | gen_dasf hostile DIR | gen_dasf variants FILE | gen_dasf mutants SRC N DIR\n"
		"       gen_dasf run DIR SLOW_PCT TOKEN EXTRA_FN | gen_dasf verdicts DIR\n");
	return 2;
}
