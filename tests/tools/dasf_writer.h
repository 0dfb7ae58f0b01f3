/* SPDX-License-Identifier: MIT */
/* dasf_writer.h: writes DASF EventProfiler databases exactly as dasf.profile does
 * (spec formats.md §1.1-1.3): each record is an 8-byte big-endian length and one
 * msgpack map with DASF's key order. Shared by tests/tools/gen_dasf.c and the unit
 * tests (header-only, static functions). */
#ifndef TESTS_TOOLS_DASF_WRITER_H
#define TESTS_TOOLS_DASF_WRITER_H

#include <msgpack.h>
#include <stdio.h>
#include <string.h>

struct dw {
	FILE *f;
	msgpack_sbuffer sb;
	msgpack_packer pk;
};

static inline int dw_open(struct dw *w, const char *path)
{
	w->f = fopen(path, "wb");
	if (!w->f)
		return -1;
	msgpack_sbuffer_init(&w->sb);
	msgpack_packer_init(&w->pk, &w->sb, msgpack_sbuffer_write);
	return 0;
}

static inline int dw_close(struct dw *w)
{
	msgpack_sbuffer_destroy(&w->sb);
	return fclose(w->f);
}

/* Write raw bytes (hostile inputs). */
static inline void dw_raw(struct dw *w, const void *p, size_t n)
{
	fwrite(p, 1, n, w->f);
}

static inline void dw_len(struct dw *w, unsigned long long n)
{
	unsigned char b[8];
	for (int i = 7; i >= 0; i--, n >>= 8)
		b[i] = (unsigned char)(n & 0xff);
	dw_raw(w, b, 8);
}

/* Frame the packed record and reset the buffer. */
static inline void dw_flush(struct dw *w)
{
	dw_len(w, w->sb.size);
	dw_raw(w, w->sb.data, w->sb.size);
	msgpack_sbuffer_clear(&w->sb);
}

static inline void dw_str(struct dw *w, const char *s)
{
	size_t n = strlen(s);
	msgpack_pack_str(&w->pk, n);
	msgpack_pack_str_body(&w->pk, s, n);
}

static inline void dw_strs(struct dw *w, const char *const *v, size_t n)
{
	msgpack_pack_array(&w->pk, n);
	for (size_t i = 0; i < n; i++)
		dw_str(w, v[i]);
}

struct dw_task {
	const char *host, *thread, *key, *name;
	double ts, dur;
	long long size;
	const char *const *deps;
	size_t ndeps;
	const char *const *dnts;
	size_t ndnts;
};

/* A "Compute" complete event (phase X). */
static inline void dw_compute(struct dw *w, const struct dw_task *t)
{
	msgpack_pack_map(&w->pk, 7);
	dw_str(w, "name"); dw_str(w, "Compute");
	dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, t->ts);
	dw_str(w, "duration"); msgpack_pack_double(&w->pk, t->dur);
	dw_str(w, "phase"); dw_str(w, "X");
	dw_str(w, "process_id"); dw_str(w, t->host);
	dw_str(w, "thread_id"); dw_str(w, t->thread);
	dw_str(w, "args");
	msgpack_pack_map(&w->pk, 9);
	dw_str(w, "key"); dw_str(w, t->key);
	dw_str(w, "name"); dw_str(w, t->name);
	dw_str(w, "state"); dw_str(w, "memory");
	dw_str(w, "size"); msgpack_pack_int64(&w->pk, t->size);
	dw_str(w, "shape"); msgpack_pack_array(&w->pk, 2);
	msgpack_pack_int(&w->pk, 4); msgpack_pack_int(&w->pk, 4);
	dw_str(w, "dtype"); dw_str(w, "float64");
	dw_str(w, "type"); dw_str(w, "<class 'cupy._core.core.ndarray'>");
	dw_str(w, "dependencies"); dw_strs(w, t->deps, t->ndeps);
	dw_str(w, "dependents"); dw_strs(w, t->dnts, t->ndnts);
	dw_flush(w);
}

/* Header of an instant event (phase I, scope g); the caller packs args. */
static inline void dw_instant_head(struct dw *w, const char *name, double ts, const char *host,
				   const char *thread)
{
	msgpack_pack_map(&w->pk, 7);
	dw_str(w, "name"); dw_str(w, name);
	dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, ts);
	dw_str(w, "phase"); dw_str(w, "I");
	dw_str(w, "scope"); dw_str(w, "g");
	dw_str(w, "process_id"); dw_str(w, host);
	dw_str(w, "thread_id");
	if (thread)
		dw_str(w, thread);
	else
		msgpack_pack_nil(&w->pk);
	dw_str(w, "args");
}

/* A "Managed Memory" instant event. */
static inline void dw_memory(struct dw *w, const char *host, const char *thread, double ts,
			     const char *key, long long bytes, long long tasks)
{
	dw_instant_head(w, "Managed Memory", ts, host, thread);
	msgpack_pack_map(&w->pk, 4);
	dw_str(w, "key"); dw_str(w, key);
	dw_str(w, "state"); dw_str(w, "memory");
	dw_str(w, "size"); msgpack_pack_int64(&w->pk, bytes);
	dw_str(w, "tasks"); msgpack_pack_int64(&w->pk, tasks);
	dw_flush(w);
}

/* A "Resource Usage" sample; gpu_util < 0 writes a CPU-only sample (no gpu_* keys). */
static inline void dw_resource(struct dw *w, const char *host, double ts, int gpu_util,
			       long long gpu_mem)
{
	dw_instant_head(w, "Resource Usage", ts, host, NULL);
	msgpack_pack_map(&w->pk, gpu_util < 0 ? 8 : 10);
	dw_str(w, "cpu"); msgpack_pack_double(&w->pk, 12.5);
	dw_str(w, "memory"); msgpack_pack_int64(&w->pk, 1LL << 30);
	dw_str(w, "time"); msgpack_pack_double(&w->pk, 1.7e9 + ts);
	dw_str(w, "host_net_io.read_bps"); msgpack_pack_double(&w->pk, 0);
	dw_str(w, "host_net_io.write_bps"); msgpack_pack_double(&w->pk, 0);
	dw_str(w, "host_disk_io.read_bps"); msgpack_pack_double(&w->pk, 0);
	dw_str(w, "host_disk_io.write_bps"); msgpack_pack_double(&w->pk, 0);
	dw_str(w, "num_fds"); msgpack_pack_int(&w->pk, 42);
	if (gpu_util >= 0) {
		dw_str(w, "gpu_utilization"); msgpack_pack_int(&w->pk, gpu_util);
		dw_str(w, "gpu_memory_used"); msgpack_pack_int64(&w->pk, gpu_mem);
	}
	dw_flush(w);
}

/* A user-defined instant event (not one of DASF's built-in names). */
static inline void dw_other(struct dw *w, const char *name, double ts)
{
	dw_instant_head(w, name, ts, "0", NULL);
	msgpack_pack_map(&w->pk, 0);
	dw_flush(w);
}

static inline int dw_open_in(struct dw *w, const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return dw_open(w, path);
}

#define DW_ARR(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)
#define DW_NONE NULL, 0

/* The fixture: files 1-, 2-, 3- in DIR (load order = name order). Every number derived
 * from it is worked out by hand in tests/unit/test_dasf.c. */
static inline int dw_write_fixture(const char *dir)
{
	struct dw a, b, c;
	if (dw_open_in(&a, dir, "1-TracePlugin-hA.msgpack") < 0 || dw_open_in(&b, dir, "2-TracePlugin-hB.msgpack") < 0 ||
	    dw_open_in(&c, dir, "3-ResourceMonitor-hA.msgpack") < 0)
		return 1;
	const char *w0 = "worker-hA-0", *w1 = "worker-hA-1", *wb = "worker-hB-0";
	dw_compute(&a, &(struct dw_task){ "hA", w0, "load-1", "load", 10.0, 2.0, 1000000, DW_NONE, DW_ARR("proc-1") });
	dw_memory(&a, "hA", w0, 10.2, "load-1", 1000000, 1);
	dw_compute(&a, &(struct dw_task){ "hA", w0, "load-2", "load", 12.5, 1.0, 3000000, DW_NONE, DW_ARR("proc-2") });
	dw_memory(&a, "hA", w0, 10.9, "load-2", 4000000, 2);
	dw_other(&a, "MyEvent", 11.0);
	dw_compute(&a, &(struct dw_task){ "hA", w1, "proc-1", "proc", 11.0, 4.0, 500000, DW_ARR("load-1"), DW_ARR("sum-0") });
	dw_memory(&a, "hA", w1, 11.1, "proc-1", 500000, 1);
	dw_compute(&a, &(struct dw_task){ "hA", w0, "proc-2", "proc", 14.0, 0.5, 700000, DW_ARR("load-2"), DW_ARR("sum-0") });
	dw_memory(&a, "hA", w0, 14.7, "proc-2", 4700000, 3);

	dw_compute(&b, &(struct dw_task){ "hB", wb, "sum-0", "sum", 100.0, 3.0, 8, DW_ARR("proc-1", "proc-2"), DW_NONE });
	dw_memory(&b, "hB", wb, 13.4, "sum-0", 8, 5);
	dw_compute(&b, &(struct dw_task){ "hB", wb, "load-3", "load", 104.0, 1.0, 2000000, DW_ARR("ext-0"), DW_NONE });
	dw_memory(&b, "hB", wb, 10.0, "load-3", 2000008, 4);
	dw_compute(&b, &(struct dw_task){ "hB", wb, "proc-1", "proc", 106.0, 2.0, 600000, DW_ARR("load-1"), DW_ARR("sum-0") });
	dw_len(&b, 100); /* truncated tail: a length, then only part of the record */
	dw_raw(&b, "\x87\xa4name\xa7" "Compute", 14);

	dw_resource(&c, "hA", 10.5, 50, 2000000000LL);
	dw_resource(&c, "hA", 11.5, 70, 4000000000LL);
	dw_resource(&c, "hA", 12.2, 0, 1000000000LL);
	dw_resource(&c, "hA", 14.2, 5, 3000000000LL);
	dw_resource(&c, "hA", 14.3, -1, 0);
	dw_resource(&c, "hA", 100.5, 8, 500000000LL);
	dw_resource(&c, "hA", 200.0, 99, 1000000000LL);
	dw_resource(&c, "hA", 101.0, -1, 0);
	dw_resource(&c, "hA", 13.5, 30, 1000000000LL);
	return dw_close(&a) | dw_close(&b) | dw_close(&c) ? 1 : 0;
}

/* A skewed database: function "big" takes 90% of the task time and worker-x-0 is busy
 * 1.8x the mean worker (both findings fire); both workers have Managed Memory events. */
static inline int dw_write_skew(const char *path)
{
	struct dw w;
	if (dw_open(&w, path) < 0)
		return 1;
	for (int i = 0; i < 3; i++) {
		char key[16];
		snprintf(key, sizeof(key), "big-%d", i);
		dw_compute(&w, &(struct dw_task){ "x", "worker-x-0", key, "big", 3.0 * i, 3.0, 10, DW_NONE, DW_NONE });
		dw_memory(&w, "x", "worker-x-0", 3.0 * i + 3, key, 10, i + 1);
	}
	dw_compute(&w, &(struct dw_task){ "x", "worker-x-1", "small-0", "small", 0, 1.0, 10, DW_NONE, DW_NONE });
	dw_memory(&w, "x", "worker-x-1", 1, "small-0", 10, 1);
	return dw_close(&w) ? 1 : 0;
}

#endif
