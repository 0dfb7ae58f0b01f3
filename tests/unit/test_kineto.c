/* SPDX-License-Identifier: MIT */
/* test_kineto.c: the Kineto trace loader and analyses on fixtures generated here:
 * pytscope's synthetic exposed-comm trace (spec §12), truncated gzip, invalid JSON
 * mid-file, events missing fields, string pid/tid and legacy categories, fractional-ns
 * ts with baseTimeNanoseconds, rank discovery, classification, the last-step rule,
 * steps published from ProfilerStep#N, the heatmap drill-down table and the GPU a trace
 * names as its rank's (deviceProperties, args.device); a NUL in a kernel name shown as "^@". */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "model/trace/classify.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/table.h"
#include "model/trace/trace.h"
#include "model/trace/scan.h"
#include "model/xalloc.h"
#include "src/print.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char tmpdir[256];

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void write_gz(const char *path, const char *s, size_t n)
{
	gzFile g = gzopen(path, "wb");
	gzwrite(g, s, (unsigned)n);
	gzclose(g);
}

static struct run *open_one(const char *path, const struct opts *o)
{
	static const struct opts dflt;
	const char *paths[1] = { path };
	return run_open(paths, 1, o ? o : &dflt, NULL);
}

/* pytscope examples/exposed_comm.py: 6 steps, sgemm [base, +8000], allreduce [+4000, +6000] */
static char *synthetic_trace(void)
{
	char *s = xstrdup("{\"traceEvents\": [\n");
	for (int k = 0; k < 6; k++) {
		long base = 10000L * k;
		char *n = xasprintf("%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm_backward\",\"pid\":0,"
				    "\"tid\":7,\"ts\":%ld,\"dur\":8000},\n{\"ph\":\"X\",\"cat\":\"kernel\","
				    "\"name\":\"ncclDevKernel_AllReduce_Sum\",\"pid\":0,\"tid\":8,\"ts\":%ld,"
				    "\"dur\":6000}%s\n", s, base, base + 4000, k < 5 ? "," : "");
		free(s);
		s = n;
	}
	char *n = xasprintf("%s]}\n", s);
	free(s);
	return n;
}

static void test_synthetic_pytscope(void)
{
	char *js = synthetic_trace(), *dir = tmp_path("synth");
	mkdir(dir, 0755);
	char *p = xasprintf("%s/trace.json", dir);
	tu_write_file(p, js, strlen(js));
	struct run *run = open_one(dir, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->n == 1, "pytscope run dir: trace.json found");
	const struct trace_pysum *s = trace_pysum(ts, 0);
	is_dbl(s->comm, 0.036, 1e-12, "comm 36.0 ms");
	is_dbl(s->exposed, 0.012, 1e-12, "exposed 12.0 ms");
	is_dbl(s->wall, 0.060, 1e-12, "wall 60 ms");
	is_int(s->n_comm, 6, "6 comm kernels");
	struct print_opts po = { .color = false };
	char *sec = print_section_trace(run, &po);
	is_str(sec, "● COMMUNICATION OVERLAP — from kernel trace\n"
		    "  comm 36.0 ms · overlapped 67% · exposed 12.0 ms (20% of trace span)\n"
		    "  by collective: all_reduce 36.0ms\n", "COMMUNICATION OVERLAP section");
	free(sec);
	const struct finding_list *fl = run_findings(run);
	const struct finding *f = NULL;
	for (size_t i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].id, "DIST.EXPOSED_COMM") == 0)
			f = &fl->v[i];
	ok(f && f->severity == SEV_HIGH, "DIST.EXPOSED_COMM is HIGH");
	if (f)
		is_str(f->detail, "20% of wall time is *exposed* communication — collective time that does not "
				  "overlap any compute kernel. Only 67% of the 36.0 ms of communication is hidden "
				  "behind compute.", "EXPOSED_COMM detail text");
	const struct trace_hta *h = trace_hta(ts, 0);
	/* no args.stream: the numeric tid is the stream (formats.md §2.3), the pid the GPU */
	ok(h->have_gpu && h->nidle == 2 && h->idle[0].stream == 7 && h->idle[1].stream == 8 && h->ndev == 1 &&
	   h->dev[0].device == 0, "HTA reads the tid as the stream of kernels without args.stream");
	is_dbl(h->comm_us, 36000, 1e-9, "... and their communication, as pytscope's summary does");
	run_free(run);
	free(p);
	free(dir);
	free(js);
}


/* A trace with a malformed event, garbage between events and an event without dur
 * (tests/unit/fixtures/kineto/broken_events.json). */
static void test_invalid_json_mid_file(void)
{
	char *fx = tu_source_path("tests/unit/fixtures/kineto/broken_events.json");
	char *broken_events = fx ? tu_read_file(fx) : NULL;
	free(fx);
	if (!broken_events) {
		ok(false, "fixture broken_events.json readable");
		return;
	}
	char *p = tmp_path("broken.json");
	tu_write_file(p, broken_events, strlen(broken_events));
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->n == 1 && ts->r[0]->nk == 2, "the two good kernels around the bad ones are kept");
	long long off = -1;
	ok(tu_has_diag(run, "invalid JSON in a trace event", &off), "invalid event reported");
	const char *bad = strstr(broken_events, "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\"");
	is_int(off, bad - broken_events, "... at its byte offset");
	ok(tu_has_diag(run, "unexpected 'g' in traceEvents", &off), "garbage between events reported");
	is_int(off, strstr(broken_events, "garbage") - broken_events, "... at its byte offset");
	ok(tu_has_diag(run, "span event without a dur; event skipped", NULL), "event missing dur reported as such");
	is_int(run->src[0].skipped, 2, "source counts two skipped events");
	run_free(run);
	free(p);
	free(broken_events);
}

static void test_truncated_gzip(void)
{
	char *js = synthetic_trace(), *p = tmp_path("trunc.json.gz");
	/* repeat the events so the stream is long enough to cut in the middle */
	size_t n = strlen(js);
	write_gz(p, js, n);
	struct stat st;
	stat(p, &st);
	FILE *f = fopen(p, "rb");
	char *gz = xmalloc((size_t)st.st_size);
	fread(gz, 1, (size_t)st.st_size, f);
	fclose(f);
	tu_write_file(p, gz, (size_t)st.st_size * 2 / 3);
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->n == 1 && ts->r[0]->nk > 0 && ts->r[0]->nk < 12, "truncated gzip keeps the events read");
	ok(run->nsrc == 1 && run->src[0].partial, "source flagged partial");
	ok(tu_has_diag(run, "unexpected end of file", NULL), "truncation reported with an offset");
	run_free(run);
	free(gz);
	free(p);
	free(js);
}

/* A trace large enough (several MiB) to cycle the inflate thread's chunk ring. */
static char *big_trace(size_t nevents)
{
	size_t cap = nevents * 160 + 64, len = 0;
	char *s = xmalloc(cap);
	len += (size_t)snprintf(s + len, cap - len, "{\"traceEvents\":[");
	for (size_t i = 0; i < nevents; i++)
		len += (size_t)snprintf(s + len, cap - len,
					"%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%zu\",\"pid\":0,\"tid\":7,"
					"\"ts\":%zu,\"dur\":3,\"args\":{\"stream\":7,\"correlation\":%zu}}\n",
					i ? "," : "", i % 50, 10 * i, i);
	snprintf(s + len, cap - len, "]}");
	return s;
}

static void test_gzip_thread(void)
{
	char *js = big_trace(60000), *p = tmp_path("big.json.gz");
	write_gz(p, js, strlen(js));
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->r[0]->nk == 60000 && !run->src[0].partial, "6 MB gzip trace: every event through the inflate thread");
	ok(ts && ts->r[0]->nnames == 50, "names interned across chunk boundaries");
	run_free(run);
	/* corrupt the deflate data in the middle: what was inflated before stays */
	struct stat st;
	stat(p, &st);
	FILE *f = fopen(p, "rb");
	char *gz = xmalloc((size_t)st.st_size);
	size_t got = fread(gz, 1, (size_t)st.st_size, f);
	fclose(f);
	for (size_t i = got / 2; i < got / 2 + 64; i++)
		gz[i] = (char)0xff;
	tu_write_file(p, gz, got);
	run = open_one(p, NULL);
	ts = trace_get(run);
	ok(ts && ts->r[0]->nk > 0 && ts->r[0]->nk < 60000 && run->src[0].partial,
	   "corrupt gzip data: the events before it are kept, the source is partial");
	run_free(run);
	free(gz);
	free(p);
	free(js);
}

/* A raw trace read in many refills (the scan keeps each byte at its offset's place in
 * a page, load_scan.c scan_drop): every event; one event with a 9 MB argument grows the
 * buffer past its 4 MB while it is marked, and the events after it still count. */
static void test_raw_refills(void)
{
	char *js = big_trace(60000), *p = tmp_path("big_raw.json");
	size_t n = strlen(js), big = (size_t)9 << 20, cut = n / 2;
	while (js[cut] != '\n')
		cut++;
	char *w = xmalloc(n + big + 256);
	memcpy(w, js, cut + 1);
	size_t len = cut + 1;
	len += (size_t)sprintf(w + len, ",{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"huge\",\"pid\":0,\"tid\":7,"
				      "\"ts\":1,\"dur\":3,\"args\":{\"x\":\"");
	memset(w + len, 'a', big);
	len += big;
	len += (size_t)sprintf(w + len, "\"}}\n");
	memcpy(w + len, js + cut + 1, n - cut - 1);
	len += n - cut - 1;
	tu_write_file(p, w, len);
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->r[0]->nk == 60001 && ts->r[0]->nnames == 51 && !run->src[0].partial,
	   "15 MB raw trace in refills, one 9 MB event: every event, every name");
	run_free(run);
	free(w);
	free(p);
	free(js);
}

static bool always_cancel(void *ud)
{
	(void)ud;
	return true;
}

static void test_gzip_and_mem_scan(void)
{
	char *js = synthetic_trace(), *p = tmp_path("ok.pt.trace.json.gz");
	write_gz(p, js, strlen(js));
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->r[0]->nk == 12 && !run->src[0].partial, "complete gzip trace loads 12 kernels");
	run_free(run);
	struct tscan_result res;
	const struct tscan_cb cb = { 0 };
	ok(tscan_mem(js, strlen(js), &cb, NULL, &res) == 0 && res.events == 12, "in-memory scan counts events");
	ok(tscan_mem(js, strlen(js) - 20, &cb, NULL, &res) < 0 && res.truncated, "cut document is truncated");
	const struct tscan_cb stop = { .cancelled = always_cancel };
	ok(tscan_mem(js, strlen(js), &stop, NULL, &res) < 0 && res.cancelled && res.events == 0,
	   "a cancelled scan stops at the first refill");
	free(p);
	free(js);
}

/* The enough callback: true once distributedInfo is seen. */
static void count_meta(void *ud, const char *key, const char *js, size_t len, uint64_t off)
{
	(void)key, (void)js, (void)len, (void)off;
	++*(int *)ud;
}

static bool seen_meta(void *ud)
{
	return *(int *)ud > 0;
}

static void test_scan_enough(void)
{
	const char *js = "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 3}, \"traceEvents\": ["
			 "{\"ph\": \"X\", \"name\": \"k\", \"ts\": 1, \"dur\": 2}, 7], \"x\": ";
	static const char *const keys[] = { "distributedInfo", NULL };
	const struct tscan_cb cb = { .meta = count_meta, .meta_keys = keys, .enough = seen_meta };
	struct tscan_result res;
	int seen = 0;
	ok(tscan_mem(js, strlen(js), &cb, &seen, &res) == 0 && res.ended && seen == 1 && res.events == 0 &&
	   !res.found_events && !res.truncated && !res.errors,
	   "enough ends the scan after the member that satisfied it: no events, no error, not truncated");
	const struct tscan_cb all = { .meta = count_meta, .meta_keys = keys };
	seen = 0;
	ok(tscan_mem(js, strlen(js), &all, &seen, &res) < 0 && !res.ended && res.events == 1 && res.errors == 2,
	   "without it the same document is read to its (cut) end");
}

static void test_variants(void)
{
	/* legacy 2021 schema: string pid/tid, "Kernel"/"Runtime" categories, tid "stream 7" */
	static const char legacy[] =
		"{\"schemaVersion\":1,\"traceEvents\":[\n"
		"{\"ph\":\"X\",\"cat\":\"Runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":\"1234\",\"tid\":\"1234\",\"ts\":90,\"dur\":5,\"args\":{\"correlation\":11}},\n"
		"{\"ph\":\"X\",\"cat\":\"Kernel\",\"name\":\"volta_sgemm\",\"pid\":\"0\",\"tid\":\"stream 7\",\"ts\":100,\"dur\":10,\"args\":{\"correlation\":11,\"external id\":3}},\n"
		"{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\",\"pid\":\"Spans\",\"tid\":\"PyTorch Profiler\",\"ts\":1,\"dur\":1000}\n"
		"]}";
	char *p = tmp_path("worker3.1623143089861.pt.trace.json");
	tu_write_file(p, legacy, strlen(legacy));
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->r[0]->nk == 1 && ts->r[0]->k[0].stream == 7, "legacy tid \"stream 7\" gives stream 7");
	is_int(ts ? ts->r[0]->rank : -1, 3, "rank 3 from the file name (worker3)");
	ok(tu_has_diag(run, "taken from the file name", NULL), "rank source noted");
	ok(tu_has_diag(run, "no communication kernel matched", NULL), "zero-comm diagnostic");
	run_free(run);
	free(p);

	/* newest schema: baseTimeNanoseconds after the events, fractional-ns ts */
	static const char fracns[] =
		"{\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":5,\"world_size\":8},\"traceEvents\":[\n"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)\",\"pid\":0,\"tid\":7,\"ts\":4458676522690.655,\"dur\":1.001,\"args\":{\"stream\":7}}\n"
		"],\"baseTimeNanoseconds\":1711964646000000000}";
	p = tmp_path("newest.json");
	tu_write_file(p, fracns, strlen(fracns));
	run = open_one(p, NULL);
	ts = trace_get(run);
	ok(ts && ts->r[0]->rank == 5, "rank from distributedInfo");
	ok(ts && ts->r[0]->k[0].ts == 1711964646000000000LL + 4458676522690655LL, "fractional-ns ts kept exactly");
	ok(ts && ts->r[0]->k[0].dur == 1001, "dur 1.001 us = 1001 ns");
	ok(ts && ts->r[0]->name_cls[0] == KC_COMMUNICATION, "ncclDevKernel is communication");
	run_free(run);
	free(p);
	int64_t ns;
	static const char esc[] = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"evil\\u001b]0;x\\u0007 \\\"q\\\"\",\"ts\":1,\"dur\":2}]}";
	p = tmp_path("escaped.json");
	tu_write_file(p, esc, strlen(esc));
	run = open_one(p, NULL);
	ts = trace_get(run);
	ok(ts && strcmp(ts->r[0]->names[0], "evil\x1b]0;x\x07 \"q\"") == 0, "escaped kernel name is unescaped");
	run_free(run);
	free(p);
	static const char nul[] = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"nccl_A\\u0000ZZZ\","
				  "\"ts\":1,\"dur\":2}]}";
	p = tmp_path("nul.json");
	tu_write_file(p, nul, strlen(nul));
	run = open_one(p, NULL);
	ts = trace_get(run);
	ok(ts && strcmp(ts->r[0]->names[0], "nccl_A^@ZZZ") == 0, "a NUL in a kernel name: \"^@\", the rest kept");
	run_free(run);
	free(p);
	ok(trace_parse_us("1694128201435418", 16, &ns) && ns == 1694128201435418000LL, "16-digit us exact");
	ok(trace_parse_us("68.0", 4, &ns) && ns == 68000, "68.0 us");
	ok(trace_parse_us("1.5e3", 5, &ns) && ns == 1500000, "exponent form");
	ok(!trace_parse_us("abc", 3, &ns), "not a number");
}

/* The GPU of a trace whose deviceProperties lists DEVS, its events being EVENTS; NULL
 * when none. */
static char *gpu_of(const char *devs, const char *events)
{
	char *text = xasprintf("{\"deviceProperties\":%s,\"traceEvents\":[%s]}", devs, events);
	char *p = tmp_path("devices.json");
	tu_write_file(p, text, strlen(text));
	struct run *run = open_one(p, NULL);
	struct trace_set *ts = trace_get(run);
	char *gpu = ts && ts->r[0]->gpu ? xstrdup(ts->r[0]->gpu) : NULL;
	run_free(run);
	free(p);
	free(text);
	return gpu;
}

static void test_devices(void)
{
	static const char node[] = "[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"},{\"id\":2,\"name\":\"A\"},"
				   "{\"name\":\"C\"},{\"id\":\"3\",\"name\":\"D\"},{\"id\":4,\"name\":\"\"}]";
	static const char *const cases[][3] = {
		{ "", "A, B, C, D", "no args.device: every distinct name listed" },
		{ "\"device\":1", "B", "the device the kernels ran on" },
		{ "\"device\":7", "A, B, C, D", "a device the list does not hold: every name" },
		{ "\"device\":3", "A, B, C, D", "an id given as a string is no id" },
		{ "\"device\":-1", "A, B, C, D", "a negative device is none" },
		{ "\"device\":\"x\"", "A, B, C, D", "a device that is no number is none" },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *ev = xasprintf("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":1,\"dur\":2,"
				     "\"args\":{%s}}", cases[i][0]);
		char *gpu = gpu_of(node, ev);
		is_str(gpu, cases[i][1], cases[i][2]);
		free(gpu);
		free(ev);
	}
	char *gpu = gpu_of(node, "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"device\":2}},"
			   "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"m\",\"ts\":5,\"dur\":2,\"args\":{\"device\":0}},"
			   "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\",\"ts\":5,\"dur\":2,\"args\":{\"device\":1,"
			   "\"correlation\":4}}");
	is_str(gpu, "A", "devices 0 and 2 (one name once); a CPU op's device is not a GPU's");
	free(gpu);
	gpu = gpu_of("[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"}]",
		     "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\\u0041\",\"ts\":1,\"dur\":2,\"args\":{\"device\":1}}");
	is_str(gpu, "B", "the jsmn path (an escaped name) reads args.device too");
	free(gpu);
	gpu = gpu_of("[{\"id\":0},{\"id\":1,\"name\":7}]", "");
	ok(gpu == NULL, "no name listed: no GPU");
	free(gpu);
}

static void test_classification(void)
{
	char *p = tmp_path("classes.txt");
	const char *rules = "# my rules\ncommunication ^my_allreduce\nmemory   copy_engine\nbogus line\n";
	tu_write_file(p, rules, strlen(rules));
	struct diag_list dl;
	diag_list_init(&dl);
	struct kclassifier *c = kclass_new(p, &dl);
	ok(dl.n == 1 && dl.v[0].line == 4 && strcmp(dl.v[0].file, p) == 0,
	   "bad rule line: a diagnostic with its file:line");
	diag_list_free(&dl);
	is_int(kclass_of(c, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)"), KC_COMMUNICATION, "NCCL");
	is_int(kclass_of(c, "ncclDevKernel_Generic"), KC_COMMUNICATION, "RCCL/new NCCL");
	is_int(kclass_of(c, "hcclAllReduce"), KC_COMMUNICATION, "hccl");
	is_int(kclass_of(c, "void nvshmemi_transfer_kernel<int>()"), KC_COMMUNICATION, "NVSHMEM");
	is_int(kclass_of(c, "void dpsk::ep::internode::dispatch<8>(int*)"), KC_COMMUNICATION, "DeepEP");
	is_int(kclass_of(c, "Memcpy DtoH (Device -> Pinned)"), KC_MEMORY, "Memcpy");
	is_int(kclass_of(c, "Memset (Device)"), KC_MEMORY, "Memset");
	is_int(kclass_of(c, "volta_sgemm_128x64_nn"), KC_COMPUTATION, "gemm is computation");
	is_int(kclass_of(c, "cudaStreamSynchronize"), KC_OTHER, "Sync is other");
	is_int(kclass_of(c, "my_allreduce_kernel"), KC_COMMUNICATION, "user rule");
	is_int(kclass_of(c, "a_copy_engine_op"), KC_MEMORY, "user rule anywhere in the name");
	is_int(kclass_of(c, "cudaLaunchKernel"), KC_OTHER, "cuda...LaunchKernel is other");
	is_int(kclass_of(c, "hipModuleLaunchKernel"), KC_COMMUNICATION, "^hip is communication (HTA's table)");
	is_int(kclass_of(c, "dma_copy"), KC_MEMORY, "^dma is memory");
	is_int(kclass_of(c, "void dpsk::ep::intranode::notify<1>()"), KC_COMMUNICATION, "DeepEP intranode notify");
	is_int(kclass_of(c, "void c10d::intra_node_comm::oneShotAllReduceKernel<float, 2>(...)"), KC_COMMUNICATION,
	       "PyTorch's own all-reduce (c10d::, in pytscope's list too)");
	char *longname = xmalloc(4096);
	memset(longname, 'x', 4000);
	strcpy(longname + 4000, "ncclKernel");
	is_int(kclass_of(c, longname), KC_COMMUNICATION, "ncclKernel deep inside a long templated name");
	free(longname);
	kclass_free(c);
	const char *bad = "communication ([\nbogusclass foo\nmemory\n# c\n\ncomputation ^x\n";
	tu_write_file(p, bad, strlen(bad));
	diag_list_init(&dl);
	c = kclass_new(p, &dl);
	ok(dl.n == 3 && dl.v[0].line == 1 && dl.v[1].line == 2 && dl.v[2].line == 3,
	   "several bad lines: one diagnostic each, with its line");
	ok(dl.n && strstr(dl.v[0].msg, "invalid regular expression '([' (regcomp: ") != NULL,
	   "a bad regex says why (regerror)");
	is_int(kclass_of(c, "x_kernel"), KC_COMPUTATION, "the good line after bad ones still applies");
	kclass_free(c);
	diag_list_free(&dl);
	diag_list_init(&dl);
	kclass_free(kclass_new("/nonexistent/classes.txt", &dl));
	ok(dl.n == 1 && dl.v[0].line == -1 && strstr(dl.v[0].msg, "No such file or directory"),
	   "a missing file: one diagnostic with the reason, no line 0");
	diag_list_free(&dl);
	free(p);
}

/* Two ranks, ProfilerStep#1 and #2; step 2 is dropped by the last-step rule. */
static char *two_step_rank(int rank, int slow)
{
	char *s = xasprintf("{\"distributedInfo\":{\"rank\":%d},\"traceEvents\":[\n", rank);
	for (int st = 1; st <= 2; st++) {
		long t0 = 1000L * st;
		int c = 10 * st + rank * 100;
		char *n = xasprintf(
			"%s{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\",\"pid\":1,\"tid\":1,\"ts\":%ld,\"dur\":900},\n"
			"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%ld,\"dur\":5,\"args\":{\"correlation\":%d}},\n"
			"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%ld,\"dur\":5,\"args\":{\"correlation\":%d}},\n"
			"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":%ld,\"dur\":300,\"args\":{\"stream\":7,\"correlation\":%d}},\n"
			"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_RING_LL_Sum_float\",\"pid\":0,\"tid\":20,\"ts\":%ld,\"dur\":%d,\"args\":{\"stream\":20,\"correlation\":%d}}%s\n",
			s, st, t0, t0 + 10, c, t0 + 20, c + 1, t0 + 50, c, t0 + 200 + slow, 400 - slow, c + 1,
			st == 2 ? "" : ",");
		free(s);
		s = n;
	}
	char *n = xasprintf("%s]}", s);
	free(s);
	return n;
}

static void test_last_step_steps_and_drilldown(void)
{
	char *dir = tmp_path("ranks");
	mkdir(dir, 0755);
	for (int r = 0; r < 2; r++) {
		char *js = two_step_rank(r, r == 1 ? 100 : 0);
		char *p = xasprintf("%s/rank%d.%d.pt.trace.json", dir, r, 17 + r);
		tu_write_file(p, js, strlen(js));
		free(p);
		free(js);
	}
	struct run *run = open_one(dir, NULL);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->n == 2, "directory of per-rank traces: two ranks");
	const struct trace_hta *h = trace_hta(ts, 0);
	is_int(h->nevents, 2, "last step dropped: 2 of 4 GPU events kept");
	is_dbl(h->kernel_us, 550, 1e-9, "kernel time = first start to last end of step 1");
	is_dbl(h->compute_us, 300, 1e-9, "compute time");
	is_dbl(h->idle_us, 0, 1e-9, "idle = kernel time - union");
	is_dbl(h->overlap_pct, 37.5, 1e-9, "comm/comp overlap 150/400");
	ok(h->nidle == 2 && h->idle[0].stream == 7, "idle streams in order of appearance");
	int strag[2];
	is_int(trace_stragglers(ts, strag, NULL), 2, "two straggler candidates");
	ok(run->steps && steps_nranks(run->steps) == 2, "ProfilerStep#N published as steps");
	int m_comm = run->steps ? steps_metric_find(run->steps, METRIC_PHASE, "comm") : -1;
	double v = -1;
	ok(m_comm >= 0 && steps_value(run->steps, 0, m_comm, 0, &v) && fabs(v - 250e-6) < 1e-12,
	   "step comm phase = exposed communication (250 us)");
	char err[128];
	struct table *t = trace_kernels_table(run, 1, 2, err, sizeof(err));
	ok(t && t->nrow == 2, "drill-down: rank 1 step 2 has two kernels");
	table_free(t);
	t = trace_kernels_table(run, 1, 99, err, sizeof(err));
	ok(!t && strstr(err, "step 99"), "drill-down outside the trace says why");
	const struct view_def *vd = registry_view("kernel_breakdown");
	t = vd ? vd->build(run, err, sizeof(err)) : NULL;
	ok(t && t->nrow > 0, "kernel_breakdown view builds");
	table_free(t);
	run_free(run);
	free(dir);
}

/* --trace replaces the run dir's trace.json; --kernel-classes reaches the loader;
 * duplicate and missing ranks fall back to the file name, then to file order. */
static void test_options_and_ranks(void)
{
	char *dir = tmp_path("opt");
	mkdir(dir, 0755);
	char *auto_p = xasprintf("%s/trace.json", dir), *expl = tmp_path("explicit.json");
	static const char auto_js[] = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"auto_k\",\"ts\":1,\"dur\":2}]}";
	static const char expl_js[] = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"my_comm_kernel\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":3}}]}";
	tu_write_file(auto_p, auto_js, strlen(auto_js));
	tu_write_file(expl, expl_js, strlen(expl_js));
	char *rules = tmp_path("rules.txt");
	tu_write_file(rules, "communication ^my_comm\n", 23);
	const char *tp[1] = { expl };
	struct opts o = { .trace_paths = tp, .ntrace = 1, .kernel_classes = rules };
	struct run *run = open_one(dir, &o);
	struct trace_set *ts = trace_get(run);
	ok(ts && ts->n == 1 && strcmp(ts->r[0]->names[0], "my_comm_kernel") == 0, "--trace replaces the run dir's trace.json");
	ok(ts && ts->r[0]->name_cls[0] == KC_COMMUNICATION, "--kernel-classes rule applied");
	ok(!tu_has_diag(run, "no communication kernel matched", NULL), "no zero-comm diagnostic once classified");
	run_free(run);

	char *rd = tmp_path("dups");
	mkdir(rd, 0755);
	static const char r3[] = "{\"distributedInfo\":{\"rank\":3},\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":1,\"dur\":2}]}";
	static const char none[] = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":1,\"dur\":2}]}";
	const char *names[3] = { "a.pt.trace.json", "b.pt.trace.json", "c_rank-7.json" };
	const char *bodies[3] = { r3, r3, none };
	for (int i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s", rd, names[i]);
		tu_write_file(p, bodies[i], strlen(bodies[i]));
		free(p);
	}
	run = open_one(rd, NULL);
	ts = trace_get(run);
	ok(ts && ts->n == 2 && ts->r[0]->rank == 3 && ts->r[1]->rank == 7 && strstr(ts->r[0]->path, "/a.pt"),
	   "second trace of rank 3 left out, not given another rank; rank-7 from the name");
	ok(tu_has_diag(run, "is claimed by", NULL), "duplicate rank reported");
	run_free(run);

	/* rank* / worker* subdirectories, and a bare top-level event array */
	char *sub = tmp_path("sub"), *w = tmp_path("sub/worker1");
	mkdir(sub, 0755);
	mkdir(w, 0755);
	char *p = xasprintf("%s/trace.json", w);
	static const char bare[] = "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":1,\"dur\":2}]";
	tu_write_file(p, bare, strlen(bare));
	run = open_one(sub, NULL);
	ts = trace_get(run);
	ok(ts && ts->n == 1 && ts->r[0]->nk == 1, "trace in a worker* subdirectory; bare event array");
	ok(ts && ts->r[0]->rank == 1, "rank from the directory name (worker1/trace.json)");
	run_free(run);
	free(p);
	free(w);
	free(sub);
	free(rd);
	free(rules);
	free(expl);
	free(auto_p);
	free(dir);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "kineto."))
		return 1;
	test_synthetic_pytscope();
	test_invalid_json_mid_file();
	test_truncated_gzip();
	test_gzip_and_mem_scan();
	test_scan_enough();
	test_gzip_thread();
	test_raw_refills();
	test_variants();
	test_devices();
	test_classification();
	test_last_step_steps_and_drilldown();
	test_options_and_ranks();
	if (tu_rm_rf(tmpdir) != 0)
		return 1;
	return tap_done();
}
