/* SPDX-License-Identifier: MIT */
/* test_dasf.c: the DASF loader and analyses against values worked out by hand from the
 * spec's definitions (formats.md §1.5) on the fixture of tests/tools/dasf_writer.h,
 * the first-match resource rule against a brute-force O(R x E) reference, the findings
 * (ties named, a thread id of two hosts told apart, skipped Compute events weighed as
 * unknown time), and hostile inputs (bad length, garbage, empty file, unknown event,
 * missing keys, hostile counts, legacy text). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/compare/compare.h"
#include "model/dasf/dasf.h"
#include "model/dasf/internal.h"
#include "model/grid.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/tools/dasf_writer.h"

static char tmpdir[4096];
static const struct opts no_opts;

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static struct run *open_paths(const char *const *names, size_t n)
{
	char **paths = xmalloc(n * sizeof(*paths));
	for (size_t i = 0; i < n; i++)
		paths[i] = tmp_path(names[i]);
	struct run *run = run_open((const char *const *)paths, n, &no_opts, NULL);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return run;
}

static struct table *view(struct run *run, const char *name)
{
	char err[256] = "";
	const struct view_def *vd = registry_view(name);
	return vd ? vd->build(run, err, sizeof(err)) : NULL;
}

/* Cell of the r-th visible row by column name; NAN when missing. */
static double num(const struct table *t, size_t r, const char *col)
{
	int c = table_col_index(t, col);
	if (c < 0 || r >= t->nview)
		return -12345;
	const struct table_cell *cell = table_cell(t, t->view[r], c);
	return cell->present ? cell->num : NAN;
}

static const char *txt(const struct table *t, size_t r, const char *col)
{
	int c = table_col_index(t, col);
	if (c < 0 || r >= t->nview)
		return "(no such cell)";
	const struct table_cell *cell = table_cell(t, t->view[r], c);
	return cell->present ? cell->text : "(missing)";
}

static const char *const fixture_files[] = {
	"fx/1-TracePlugin-hA.msgpack", "fx/2-TracePlugin-hB.msgpack", "fx/3-ResourceMonitor-hA.msgpack",
};

static void test_sources(struct run *run)
{
	is_int(run->nsrc, 3, "fixture: three sources in the order given");
	is_int(run->src[0].records, 9, "file 1: 4 Compute + 4 Managed Memory + 1 user event");
	is_int(run->src[1].records, 5, "file 2: 3 Compute + 2 Managed Memory before the truncated tail");
	ok(run->src[1].partial && !run->src[0].partial, "file 2 is flagged partial (truncated tail)");
	is_int(run->src[2].records, 9, "file 3: 9 Resource Usage samples");
	long long off = -1;
	ok(tu_has_diag(run, "truncated tail", &off) && off > 0, "truncated tail: diagnostic with a byte offset");
	ok(tu_has_diag(run, "unknown event 'MyEvent'", NULL), "user-defined event: diagnostic");
	ok(tu_has_diag(run, "2 Resource Usage samples have no gpu_utilization", NULL),
	   "CPU-only samples (no gpu_utilization): one diagnostic, not a KeyError");
}

/* Hand computation, function_bottleneck (§1.5):
 * Compute events in database order: A1 hA/w0 load 10+2 | A2 hA/w0 load 12.5+1 |
 * A3 hA/w1 proc 11+4 | A4 hA/w0 proc 14+0.5 | B1 hB sum 100+3 | B2 hB load 104+1 |
 * B3 hB proc 106+2 (key proc-1 again).
 * Groups: hA/w0 load 3.0 (2 tasks), proc 0.5; hA/w1 proc 4.0; hB sum 3.0, load 1.0, proc 2.0.
 * Thread totals 3.5, 4.0, 6.0 -> percentages 85.714.., 14.285.., 100, 50, 16.66.., 33.33...
 * Graph (last attributes win: proc-1 has size 600000, duration 2): input sizes
 * proc-1 = size(load-1) = 1e6, proc-2 = 3e6, sum-0 = 600000 + 700000, others 0;
 * throughput proc-1 1e6/2, proc-2 3e6/0.5, sum-0 1.3e6/3.
 * GPU samples by first match: 10.5->A1 load (50, 2e9), 11.5->A1 load (70, 4e9),
 * 12.2->A3 proc (0, 1e9), 14.2->A3 proc (5, 3e9) (A3 precedes A4), 100.5->B1 sum (8, 5e8),
 * 200 -> none, 13.5->A2 load (30, 1e9: A2 ends exactly at 13.5 and precedes A3 in the
 * database although A3 started earlier). Per function: load 50 % / 7e9/3 B, proc 2.5 % /
 * 2e9 B, sum 8 % / 5e8 B. Sorted by duration, ties in DASF's dict order. */
static void test_function_bottleneck(struct run *run)
{
	struct table *t = view(run, "function_bottleneck");
	if (!ok(t && t->nview == 6, "function_bottleneck: 6 rows"))
		return;
	static const struct {
		const char *host, *gpu, *fn;
		double dur, pct, util, mem, data, thr, n, mean;
	} want[] = {
		{ "hA", "1", "proc", 4.0, 100.0, 2.5, 2.0, 1.0, 0.5, 1, 4.0 },
		{ "hA", "0", "load", 3.0, 3.0 / 3.5 * 100, 50, 7e9 / 3 / 1e9, 0, 0, 2, 1.5 },
		{ "hB", "0", "sum", 3.0, 50.0, 8, 0.5, 1.3, 1.3e6 / 3 / 1e6, 1, 3.0 },
		{ "hB", "0", "proc", 2.0, 2.0 / 6 * 100, 2.5, 2.0, 1.0, 0.5, 1, 2.0 },
		{ "hB", "0", "load", 1.0, 1.0 / 6 * 100, 50, 7e9 / 3 / 1e9, 0, 0, 1, 1.0 },
		{ "hA", "0", "proc", 0.5, 0.5 / 3.5 * 100, 2.5, 2.0, 3.0, 6.0, 1, 0.5 },
	};
	for (size_t r = 0; r < ARRAY_LEN(want); r++) {
		char msg[96];
		snprintf(msg, sizeof(msg), "function_bottleneck row %zu: %s %s %s", r, want[r].host, want[r].gpu,
			 want[r].fn);
		ok(strcmp(txt(t, r, "Host"), want[r].host) == 0 && strcmp(txt(t, r, "GPU"), want[r].gpu) == 0 &&
		   strcmp(txt(t, r, "Function"), want[r].fn) == 0, "%s: identity", msg);
		is_dbl(num(t, r, "Duration (s)"), want[r].dur, 1e-12, "  Duration (s)");
		is_dbl(num(t, r, "Percentage of total time (%)"), want[r].pct, 1e-9, "  Percentage of total time (%)");
		is_dbl(num(t, r, "Mean GPU Utilization (%)"), want[r].util, 1e-12, "  Mean GPU Utilization (%)");
		is_dbl(num(t, r, "Mean GPU Memory Used (GB)"), want[r].mem, 1e-12, "  Mean GPU Memory Used (GB)");
		is_dbl(num(t, r, "Mean Data Size (MB)"), want[r].data, 1e-12, "  Mean Data Size (MB)");
		is_dbl(num(t, r, "Mean Throughput (MB/s)"), want[r].thr, 1e-12, "  Mean Throughput (MB/s)");
		is_dbl(num(t, r, "Num Tasks (chunks)"), want[r].n, 0, "  Num Tasks (chunks)");
		is_dbl(num(t, r, "Mean Task time (s)"), want[r].mean, 1e-12, "  Mean Task time (s)");
	}
	table_free(t);
}

/* task_bottleneck: groups by key per (host, thread): hA/w0 load-1 2, load-2 1, proc-2 0.5;
 * hA/w1 proc-1 4; hB sum-0 3, load-3 1, proc-1 2. Memory usage = last size of the key
 * anywhere (proc-1: B3's 600000). */
static void test_task_bottleneck(struct run *run)
{
	struct table *t = view(run, "task_bottleneck");
	if (!ok(t && t->nview == 7, "task_bottleneck: 7 rows"))
		return;
	static const struct {
		const char *host, *gpu, *key;
		double dur, pct, mb;
	} want[] = {
		{ "hA", "1", "proc-1", 4, 100, 0.6 }, { "hB", "0", "sum-0", 3, 50, 8e-6 },
		{ "hA", "0", "load-1", 2, 2 / 3.5 * 100, 1 }, { "hB", "0", "proc-1", 2, 2.0 / 6 * 100, 0.6 },
		{ "hA", "0", "load-2", 1, 1 / 3.5 * 100, 3 }, { "hB", "0", "load-3", 1, 1.0 / 6 * 100, 2 },
		{ "hA", "0", "proc-2", 0.5, 0.5 / 3.5 * 100, 0.7 },
	};
	for (size_t r = 0; r < ARRAY_LEN(want); r++) {
		ok(strcmp(txt(t, r, "Host"), want[r].host) == 0 && strcmp(txt(t, r, "GPU"), want[r].gpu) == 0 &&
		   strcmp(txt(t, r, "Task Key"), want[r].key) == 0, "task_bottleneck row %zu: %s %s", r,
		   want[r].host, want[r].key);
		is_dbl(num(t, r, "Duration (s)"), want[r].dur, 1e-12, "  Duration (s)");
		is_dbl(num(t, r, "Percentage of total time (%)"), want[r].pct, 1e-9, "  Percentage of total time (%)");
		is_dbl(num(t, r, "Memory usage (Mb)"), want[r].mb, 1e-15, "  Memory usage (Mb)");
	}
	table_free(t);
}

/* task_balance: Managed Memory (sec = int(ts), last tasks per (sec, worker)):
 * hA/w0 10.2->1, 10.9->2, 14.7->3; hA/w1 11.1->1; hB 13.4->5, 10.0->4 (another host's clock,
 * mixed in as DASF does). Seconds 10, 11, 13, 14 -> offsets 0, 1, 3, 4 (12 has no row). */
static void test_task_balance(struct run *run)
{
	struct table *t = view(run, "task_balance");
	if (!ok(t && t->nview == 4 && t->ncol == 4, "task_balance: 4 sparse rows, offset + 3 worker columns"))
		return;
	is_str(t->col[0].name, "Time Interval (seconds from begin)", "task_balance: DASF's first column");
	ok(strcmp(t->col[1].name, "worker-hA-0") == 0 && strcmp(t->col[2].name, "worker-hA-1") == 0 &&
	   strcmp(t->col[3].name, "worker-hB-0") == 0, "task_balance: worker columns sorted lexically");
	static const double want[4][4] = { { 0, 2, 0, 4 }, { 1, 0, 1, 0 }, { 3, 0, 0, 5 }, { 4, 3, 0, 0 } };
	bool same = true;
	for (size_t r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			same &= table_cell(t, t->view[r], c)->num == want[r][c];
	ok(same, "task_balance: values (last value per second, 0 where a worker had no event)");
	table_free(t);
}

/* The "tasks" grid (heatmap): workers x every second 10..14 (offsets 0..4); a second
 * without an event for a worker is missing, not 0 (offset 2 has no event at all). */
static void test_grid(struct run *run)
{
	const struct grid_provider *gp = registry_grid("tasks");
	struct grid_src src;
	char err[128], label[64];
	if (!ok(gp && gp->nmetrics(run) == 2 && gp->open(run, 0, &src, err, sizeof(err)),
		"tasks grid provider opens on the fixture"))
		return;
	is_int(src.nrows, 3, "tasks grid: 3 workers");
	is_int(src.ncols, 5, "tasks grid: 5 seconds (10..14), including the silent second 12");
	double v = -1;
	ok(src.value(src.ud, 0, 0, &v) && v == 2, "worker-hA-0 at offset 0: last value 2");
	ok(!src.value(src.ud, 1, 0, &v), "worker-hA-1 at offset 0: missing (DASF's CSV says 0)");
	ok(!src.value(src.ud, 0, 2, &v) && !src.value(src.ud, 2, 2, &v), "offset 2: no event, missing");
	ok(src.value(src.ud, 2, 3, &v) && v == 5, "worker-hB-0 at offset 3: 5");
	grid_row_label(&src, 1, label, sizeof(label));
	is_str(label, "worker-hA-1", "row label is the worker");
	is_int(src.col_find(src.ud, 4), 4, "col_find(offset 4)");
	is_int(dasf_balance_row(run, "worker-hB-0"), 2, "dasf_balance_row: worker-hB-0 is row 2");
	is_int(dasf_balance_row(run, "nobody"), -1, "dasf_balance_row: unknown worker -1");
	gp->close(&src);
	ok(gp->open(run, 1, &src, err, sizeof(err)) && src.value(src.ud, 0, 4, &v) && v == 4.7 &&
	   src.value(src.ud, 2, 0, &v) && v == 2.000008, "memory metric: MB held, last event of the second");
	gp->close(&src);
}

static void test_graph(struct run *run)
{
	struct table *t = view(run, "task_graph");
	if (!ok(t && t->nview == 7, "task_graph: 7 nodes (ext-0 only through an edge)"))
		return;
	size_t ext = 6;
	is_str(txt(t, ext, "Task Key"), "ext-0", "task_graph: edge-only node is last");
	is_str(txt(t, ext, "Function"), "(missing)", "task_graph: edge-only node has no attributes");
	is_dbl(num(t, ext, "Throughput (MB/s)"), 0, 0, "task_graph: edge-only node throughput 0/1");
	is_str(txt(t, 4, "Task Key"), "sum-0", "task_graph: sum-0 row");
	is_dbl(num(t, 4, "Input Data Size (MB)"), 1.3, 1e-12, "task_graph: sum-0 input = last sizes of proc-1 + proc-2");
	is_dbl(num(t, 4, "Dependencies"), 2, 0, "task_graph: sum-0 has 2 distinct predecessors");
	is_dbl(num(t, 1, "Dependents"), 1, 0, "task_graph: proc-1's edge to sum-0 counted once");
	is_dbl(num(t, 1, "Offset on host (s)"), 6.0, 1e-12, "task_graph: proc-1 (B3) offset on hB's clock = 106-100");
	is_str(txt(t, 1, "Critical"), "yes", "task_graph: proc-1 is on the critical path");
	table_free(t);

	t = view(run, "critical_path");
	if (!ok(t && t->nview == 3, "critical_path: 3 steps"))
		return;
	ok(strcmp(txt(t, 0, "Task Key"), "load-1") == 0 && strcmp(txt(t, 1, "Task Key"), "proc-1") == 0 &&
	   strcmp(txt(t, 2, "Task Key"), "sum-0") == 0, "critical_path: load-1 -> proc-1 -> sum-0");
	is_dbl(num(t, 2, "Cumulative (s)"), 7.0, 1e-12, "critical_path: 2 + 2 + 3 s (longer than 1 + 0.5 + 3)");
	table_free(t);

	char err[128];
	t = dasf_function_tasks(run, "load", err, sizeof(err));
	ok(t && t->nview == 3 && strcmp(txt(t, 0, "Task Key"), "load-1") == 0 &&
	   strcmp(txt(t, 2, "Task Key"), "load-3") == 0 && strcmp(txt(t, 2, "Host"), "hB") == 0,
	   "dasf_function_tasks(load): its 3 tasks in database order, every host");
	table_free(t);
	ok(!dasf_function_tasks(run, "nope", err, sizeof(err)) && strstr(err, "nope"),
	   "dasf_function_tasks: unknown function -> NULL with a reason");

	struct dasf_summary s;
	ok(dasf_summarize(run, &s) && s.tasks == 7 && s.functions == 3 && s.workers == 3 && s.hosts == 2 &&
	   s.gpu_samples == 7 && s.cpu_only_samples == 2 && s.critical_len == 3,
	   "summary: 7 tasks, 3 functions, 3 workers, 2 hosts, 7 GPU + 2 CPU-only samples");
}

/* The report's heads: the first rows of the whole view, and its row count. */
static void test_view_head(struct run *run)
{
	char err[128];
	size_t total = 0;
	struct table *h = dasf_view_head(run, "task_bottleneck", 2, &total, err, sizeof(err));
	struct table *t = view(run, "task_bottleneck");
	ok(h && t && h->nrow == 2 && total == t->nrow && total == 7 &&
	   strcmp(txt(h, 1, "Task Key"), txt(t, 1, "Task Key")) == 0 &&
	   num(h, 1, "Duration (s)") == num(t, 1, "Duration (s)"),
	   "task_bottleneck head: 2 of 7 rows, as the whole view has them");
	table_free(h);
	table_free(t);
	h = dasf_view_head(run, "task_balance", 100, &total, err, sizeof(err));
	ok(h && h->nrow == 4 && total == 4, "a head longer than the view: every row");
	table_free(h);
	ok(!dasf_view_head(run, "tasks", 2, &total, err, sizeof(err)) && strstr(err, "tasks"),
	   "no head of a view the report does not show: NULL, said");
}

static void test_fixture_findings(struct run *run)
{
	const struct finding *f = tu_finding(run, "DASF.GPU_IDLE");
	ok(f && f->ev.kind == EV_TASK && f->ev.name && strcmp(f->ev.name, "proc") == 0,
	   "GPU_IDLE: 3 of 6 in-task samples < 10%%, evidence = function proc (2 idle samples)");
	ok(!tu_finding(run, "DASF.FUNCTION_DOMINATES"), "no FUNCTION_DOMINATES: proc has 6.5 of 13.5 s (48%%)");
	ok(!tu_finding(run, "DASF.WORKER_IMBALANCE"), "no WORKER_IMBALANCE: busiest 6 s vs mean 4.5 s (1.33x)");
}

/* File order matters (MultiEventDatabase is a concatenation): loading hB's file first
 * makes hA's proc-1 (500000 B) the last size seen for proc-1. */
static void test_order(void)
{
	const char *const files[] = { fixture_files[1], fixture_files[0], fixture_files[2] };
	struct run *run = open_paths(files, 3);
	struct table *t = view(run, "task_bottleneck");
	ok(t && strcmp(txt(t, 0, "Task Key"), "proc-1") == 0 && num(t, 0, "Memory usage (Mb)") == 0.5,
	   "file order given: the last proc-1 size becomes hA's 0.5 MB");
	table_free(t);
	run_free(run);
}

/* Brute force: DASF's own loop (for each sample, the first Compute in database order
 * with ts <= t <= ts + dur) against the sorted-interval sweep, on random overlapping
 * tasks with many exact boundary ties. */
static void test_first_match_random(void)
{
	char *path = tmp_path("rand.msgpack");
	struct dw w;
	dw_open(&w, path);
	unsigned long long s = 12345;
	char key[32], fn[16];
	for (int i = 0; i < 400; i++) {
		s = s * 6364136223846793005ULL + 1;
		snprintf(key, sizeof(key), "k%d", i);
		snprintf(fn, sizeof(fn), "f%u", (unsigned)(s >> 40) % 7);
		double ts = (double)((s >> 20) % 200) * 0.5, dur = (double)((s >> 50) % 12) * 0.5;
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, fn, ts, dur, 1, DW_NONE, DW_NONE });
	}
	for (int i = 0; i < 600; i++) {
		s = s * 6364136223846793005ULL + 1;
		dw_resource(&w, "h", (double)((s >> 30) % 220) * 0.5, (int)((s >> 45) % 101), 1000);
	}
	dw_close(&w);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	struct dasf_db *db = run->dasf;
	const struct dasf_an *an = dasf_analyse(db);
	double *sum = xcalloc(db->strs.n, sizeof(*sum));
	size_t *cnt = xcalloc(db->strs.n, sizeof(*cnt));
	for (size_t r = 0; r < db->nres; r++)
		for (size_t i = 0; i < db->ntask; i++)
			if (db->task[i].ts <= db->res[r].ts && db->res[r].ts <= db->task[i].ts + db->task[i].dur) {
				sum[db->task[i].name] += db->res[r].gpu_util;
				cnt[db->task[i].name]++;
				break;
			}
	bool same = an->nfn > 0;
	for (size_t i = 0; i < an->nfn; i++) {
		const struct dasf_fn_row *f = &an->fn[i];
		same &= f->nres == cnt[f->name] && (!cnt[f->name] || fabs(f->util - sum[f->name] / cnt[f->name]) < 1e-9);
	}
	ok(same, "first-match by sorted intervals == DASF's O(R x E) loop on 400 tasks x 600 samples");
	free(sum);
	free(cnt);
	run_free(run);
	free(path);
}

static void test_findings_fire(void)
{
	char *path = tmp_path("skew.msgpack");
	dw_write_skew(path);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	const struct finding *f = tu_finding(run, "DASF.FUNCTION_DOMINATES");
	ok(f && f->severity == SEV_HIGH && f->ev.kind == EV_TASK && strcmp(f->ev.name, "big") == 0 &&
	   f->ev.item == -1, "FUNCTION_DOMINATES: big has 9 of 10 s (90%% -> high), evidence = big");
	f = tu_finding(run, "DASF.WORKER_IMBALANCE");
	ok(f && f->ev.kind == EV_RANK && f->ev.grid && strcmp(f->ev.grid, "tasks") == 0 && f->ev.item == 0 &&
	   f->ev.rank == -1 && f->ev.name && strcmp(f->ev.name, "worker-x-0") == 0,
	   "WORKER_IMBALANCE: worker-x-0 busy 9 s vs mean 5 s (1.8x), evidence = its task balance row 0, no rank");
	struct table *ft = view(run, "findings");
	size_t wi = 0;
	while (ft && wi < ft->nview && strcmp(txt(ft, wi, "id"), "DASF.WORKER_IMBALANCE") != 0)
		wi++;
	ok(ft && wi < ft->nview && isnan(num(ft, wi, "rank")),
	   "... its findings row's rank empty (a DASF run has no ranks)");
	table_free(ft);
	ok(!tu_finding(run, "DASF.GPU_IDLE"), "no GPU_IDLE without GPU samples");
	struct table *t = view(run, "function_bottleneck");
	ok(t && isnan(num(t, 0, "Mean GPU Utilization (%)")) && isnan(num(t, 0, "Mean GPU Memory Used (GB)")),
	   "no GPU sample matched: GPU columns missing, not 0 (DASF writes 0)");
	table_free(t);
	t = view(run, "tasks");
	ok(t && t->nview == 4 && strcmp(txt(t, 3, "Function"), "small") == 0, "tasks view: every task in database order");
	table_free(t);
	run_free(run);
	free(path);
}

/* Function groups for comparing runs (dasf.h): dask's key_split rule on the names, the
 * usable durations only. A name whose first word is empty is dask's "Other" (it was an
 * empty group, which reads as missing, for "-neg,fn" and "", and "-lead" for "-lead"). */
static void test_function_groups(void)
{
	static const char *const names[] = { "unc_fit-62a75b12-6b7a-49b0-b279", "unc_fit-aaaa1111-0b7a-49b0-b279",
					     "hello-world", "x-deadbeef", "x-abcdefgh", "a-1-2", "var", "var", "-lead",
					     "", "-neg,fn" };
	char *path = tmp_path("groups.msgpack");
	struct dw w;
	dw_open(&w, path);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char key[16];
		snprintf(key, sizeof(key), "k-%zu", i);
		double dur = i == 7 ? NAN : (double)(i + 1);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, names[i], 1, dur, 1, DW_NONE, DW_NONE });
	}
	dw_close(&w);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	struct dasf_fn_group *g;
	size_t n = dasf_function_groups(run, &g);
	static const char *const want[] = { "unc_fit", "hello-world", "x", "x-abcdefgh", "a", "var", "Other" };
	bool same = n == sizeof(want) / sizeof(want[0]);
	for (size_t i = 0; same && i < n; i++)
		same = strcmp(g[i].name, want[i]) == 0;
	ok(same, "function groups: key_split names in first-seen order (%zu groups)", n);
	ok(same && g[0].n == 2 && g[0].dur[1] == 2 && g[0].stripped && !g[1].stripped && g[2].stripped &&
	   !g[3].stripped && g[4].stripped,
	   "a per-call token is left out (stripped), words of letters stay, an 8-letter non-hex word stays");
	ok(same && g[6].stripped && g[6].nnames == 3 && g[6].ntasks == 3,
	   "an empty first word (\"-lead\", \"\", \"-neg,fn\"): dask's Other, marked as a group");
	ok(same && g[5].n == 1 && g[5].dur[0] == 7, "a NaN duration is not a task time of its group");
	dasf_fn_groups_free(g, n);
	run_free(run);
	free(path);
}

/* A function DASF names with a per-call token (one name per task) that takes most of the
 * task time dominates as one function, said so (each name alone is 1 task of 12); its
 * idle GPU samples are that function's. */
static void test_dominant_tokens(void)
{
	char *path = tmp_path("tokens.msgpack");
	struct dw w;
	dw_open(&w, path);
	for (int i = 0; i < 12; i++) {
		char key[32], name[48];
		snprintf(key, sizeof(key), "k-%d", i);
		snprintf(name, sizeof(name), i < 10 ? "unc_fit-%08x-6b7a-49b0-b279" : "load", 0x62a75b12u + (unsigned)i);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, name, i, 1.0, 1, DW_NONE, DW_NONE });
		dw_resource(&w, "h", i + 0.5, i < 10 ? 0 : 90, 1000000);
	}
	dw_close(&w);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	const struct finding *f = tu_finding(run, "DASF.GPU_IDLE");
	ok(f && strstr(f->detail, "most of them during unc_fit-* (10).") && strcmp(f->ev.name, "unc_fit") == 0,
	   "GPU_IDLE: the idle samples of every unc_fit call count for one function");
	f = tu_finding(run, "DASF.FUNCTION_DOMINATES");
	ok(f && f->severity == SEV_HIGH && strcmp(f->title, "Function unc_fit-* takes 83% of all task time") == 0 &&
	   strstr(f->detail, "ran 10 tasks (10 names that differ by a per-call token) for 10.000 s of 12.000 s") &&
	   strstr(f->detail, "(2 functions in all)") && f->ev.name && strcmp(f->ev.name, "unc_fit") == 0,
	   "per-call token names are one function: unc_fit-* dominates (83%%), its rows the evidence");
	run_free(run);
	free(path);
}

/* Functions tied for the most idle GPU samples: no one has most of them; the detail names
 * the tied ones (four, the rest counted), the drill-down opens every function's row. */
static void test_idle_ties(void)
{
	static const int per_fn[][6] = { { 3, 3, 0 }, { 2, 2, 1, 2, 0 }, { 1, 1, 1, 1, 1, 1 } };
	static const char *const want[] = { "no one function has most of them: f0 and f1 tie with 3 each.",
		"no one function has most of them: f0, f1 and f3 tie with 2 each.",
		"no one function has most of them: f0, f1, f2, f3 and 2 more tie with 1 each." };
	for (size_t k = 0; k < ARRAY_LEN(per_fn); k++) {
		char *path = tmp_path("ties.msgpack");
		struct dw w;
		dw_open(&w, path);
		for (int f = 0; f < 6 && (f < 2 || per_fn[k][f]); f++) {
			char key[16], fn[8];
			snprintf(key, sizeof(key), "f%d-0", f);
			snprintf(fn, sizeof(fn), "f%d", f);
			dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, fn, 10.0 * f, 5, 1, DW_NONE,
							  DW_NONE });
			for (int i = 0; i < per_fn[k][f]; i++)
				dw_resource(&w, "h", 10.0 * f + 0.5 + i, 2, 1000);
		}
		dw_close(&w);
		struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
		const struct finding *f = tu_finding(run, "DASF.GPU_IDLE");
		ok(f && strstr(f->detail, want[k]) && !strstr(f->detail, "most of them during") && !f->ev.name &&
		   f->ev.kind == EV_TASK && strcmp(f->ev.view, "function_bottleneck") == 0,
		   "GPU_IDLE with a tie (case %zu): the tied functions named, every function's row the evidence", k);
		run_free(run);
		free(path);
	}
}

/* A Compute event without a numeric duration (absent, nil) is a task whose time is
 * unknown, as one with a NaN duration: kept, said at its offset, and the function and
 * worker findings not judged (a took 60%% of the time the other tasks give). */
static void compute_no_duration(struct dw *w, const char *key, bool nil)
{
	msgpack_pack_map(&w->pk, nil ? 5 : 4);
	dw_str(w, "name"); dw_str(w, "Compute");
	dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, 12);
	if (nil) {
		dw_str(w, "duration"); msgpack_pack_nil(&w->pk);
	}
	dw_str(w, "thread_id"); dw_str(w, "worker-h-1");
	dw_str(w, "args"); msgpack_pack_map(&w->pk, 2);
	dw_str(w, "key"); dw_str(w, key);
	dw_str(w, "name"); dw_str(w, "c");
	dw_flush(w);
}

static void test_missing_duration(void)
{
	char *path = tmp_path("nodur.msgpack");
	struct dw w;
	dw_open(&w, path);
	for (int i = 0; i < 3; i++) {
		char key[8];
		snprintf(key, sizeof(key), "a-%d", i);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", key, "a", 10 + i, 1, 1, DW_NONE, DW_NONE });
	}
	dw_compute(&w, &(struct dw_task){ "h", "worker-h-1", "b-0", "b", 10, 2, 1, DW_NONE, DW_NONE });
	compute_no_duration(&w, "c-0", false);
	compute_no_duration(&w, "c-1", true);
	dw_close(&w);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	long long off = -1;
	struct dasf_summary s;
	ok(run->dasf && run->dasf->ntask == 6 && run->src[0].skipped == 0 && dasf_summarize(run, &s) &&
	   s.tasks == 6 && s.functions == 3 && isnan(s.total_task_s) && isnan(s.critical_s),
	   "no duration: the tasks are kept (6 tasks, 3 functions), task time and critical path n/a");
	ok(tu_has_diag(run, "without a numeric 'duration' (absent): its task time is counted as missing", &off) &&
	   off > 0 && tu_has_diag(run, "without a numeric 'duration' (nil)", NULL),
	   "no duration, a nil one: a diagnostic each at its offset");
	ok(!tu_finding(run, "DASF.FUNCTION_DOMINATES") && !tu_finding(run, "DASF.WORKER_IMBALANCE"),
	   "no duration: no verdict on shares of task time (a's 60%% of the rest is none)");
	run_free(run);
	free(path);
}

/* Workers tied for busiest (4 s each) are named together and none has the evidence: every
 * function_bottleneck row; a thread id of two hosts (worker-0) is named with its host and
 * its evidence is its own tasks, never the task balance row both hosts share. */
static void test_worker_ties(void)
{
	char *path = tmp_path("wties.msgpack");
	struct dw w;
	dw_open(&w, path);
	static const double busy[] = { 4, 4, 0.5, 0.5 };
	for (int i = 0; i < 4; i++) {
		char key[16], thread[16], fn[8];
		snprintf(key, sizeof(key), "f%d-1", i);
		snprintf(thread, sizeof(thread), "worker-h-%d", i);
		snprintf(fn, sizeof(fn), "f%d", i);
		dw_compute(&w, &(struct dw_task){ "h", thread, key, fn, 100, busy[i], 1, DW_NONE, DW_NONE });
		dw_memory(&w, "h", thread, 100 + busy[i], key, 1, 1);
	}
	dw_close(&w);
	struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	const struct finding *f = tu_finding(run, "DASF.WORKER_IMBALANCE");
	ok(f && strstr(f->title, "worker-h-0 and worker-h-1 are busy 1.8x") && f->ev.kind == EV_TASK && !f->ev.name &&
	   f->ev.view && strcmp(f->ev.view, "function_bottleneck") == 0,
	   "WORKER_IMBALANCE with a tie at the top: both named, every function_bottleneck row the evidence");
	struct table *t = view(run, "task_graph");
	ok(t && t->nview == 4 && strcmp(txt(t, 0, "Critical"), "yes") == 0 && strcmp(txt(t, 1, "Critical"), "yes") == 0 &&
	   strcmp(txt(t, 2, "Critical"), "no") == 0, "task_graph: both 4 s tasks critical (a tie), the 0.5 s ones not");
	table_free(t);
	run_free(run);
	dw_open(&w, path);
	dw_compute(&w, &(struct dw_task){ "hA", "worker-0", "f-1", "f", 100, 3, 1, DW_NONE, DW_NONE });
	dw_compute(&w, &(struct dw_task){ "hB", "worker-0", "g-1", "g", 100, 1, 1, DW_NONE, DW_NONE });
	dw_memory(&w, "hA", "worker-0", 100, "f-1", 1, 1);
	dw_memory(&w, "hB", "worker-0", 100.5, "g-1", 1, 7);
	dw_close(&w);
	run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
	f = tu_finding(run, "DASF.WORKER_IMBALANCE");
	ok(f && strstr(f->detail, "busiest worker-0 on hA 3.000 s of tasks, least busy worker-0 on hB 1.000 s") &&
	   f->ev.kind == EV_TASK && strcmp(f->ev.view, "tasks") == 0 && strcmp(f->ev.name, "worker-0") == 0 &&
	   strcmp(f->ev.match_col, "Worker") == 0 && f->ev.also[0] && strcmp(f->ev.also[0], "hA") == 0,
	   "a thread id on two hosts: named with the host, its own tasks the evidence (not the shared row)");
	run_free(run);
	free(path);
}

/* A Compute event the loader skips (no args.name, no args map, no numeric timestamp) is a
 * task whose time is unknown: the task time and critical path n/a, no share judged. */
static void test_lost_compute(void)
{
	char *path = tmp_path("lost.msgpack");
	for (int k = 0; k < 3; k++) {
		struct dw w;
		dw_open(&w, path);
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", "f-1", "f", 100, 3, 1, DW_NONE, DW_NONE });
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-1", "g-1", "g", 100, 1, 1, DW_NONE, DW_NONE });
		msgpack_pack_map(&w.pk, 5); /* k 0: args without a name, 1: no args map, 2: no timestamp */
		dw_str(&w, "name"); dw_str(&w, "Compute");
		dw_str(&w, k == 2 ? "time" : "timestamp"); msgpack_pack_double(&w.pk, 102);
		dw_str(&w, "duration"); msgpack_pack_double(&w.pk, 5);
		dw_str(&w, "thread_id"); dw_str(&w, "worker-h-1");
		dw_str(&w, k == 1 ? "argz" : "args"); msgpack_pack_map(&w.pk, 1);
		dw_str(&w, "key"); dw_str(&w, "x-1");
		dw_flush(&w);
		dw_close(&w);
		struct run *run = run_open((const char *const[]){ path }, 1, &no_opts, NULL);
		struct dasf_summary s;
		static const char *const why[] = { "args 'name'", "args map", "numeric 'timestamp'" };
		ok(dasf_summarize(run, &s) && s.tasks == 2 && tu_has_diag(run, why[k], NULL) && isnan(s.total_task_s) &&
		   isnan(s.critical_s) && !tu_finding(run, "DASF.FUNCTION_DOMINATES") &&
		   !tu_finding(run, "DASF.WORKER_IMBALANCE"),
		   "a skipped Compute event (case %d): task time and critical path n/a, no share judged", k);
		run_free(run);
	}
	free(path);
}

/* A finding on a worker's row persists in a comparison when B has one more worker that
 * sorts before it (its row number shifts, its name does not). */
static void test_compare_worker_rows(void)
{
	char *a = tmp_path("cw-a"), *b = tmp_path("cw-b"), *fa = tmp_path("cw-a/skew.msgpack");
	char *fb = tmp_path("cw-b/skew.msgpack"), *fx = tmp_path("cw-b/extra.msgpack");
	mkdir(a, 0755);
	mkdir(b, 0755);
	dw_write_skew(fa);
	dw_write_skew(fb);
	struct dw w;
	dw_open(&w, fx);
	dw_compute(&w, &(struct dw_task){ "a", "worker-a-0", "tiny-0", "small", 0, 0.5, 10, DW_NONE, DW_NONE });
	dw_memory(&w, "a", "worker-a-0", 1, "tiny-0", 10, 1);
	dw_close(&w);
	struct run *ra = run_open((const char *const[]){ a }, 1, &no_opts, NULL);
	struct run *rb = run_open((const char *const[]){ b }, 1, &no_opts, NULL);
	const struct finding *ia = tu_finding(ra, "DASF.WORKER_IMBALANCE"), *ib = tu_finding(rb, "DASF.WORKER_IMBALANCE");
	ok(ia && ib && ia->ev.item == 0 && ib->ev.item == 1 && ia->ev.rank == -1 && ib->ev.rank == -1,
	   "worker-x-0's row: 0 in A, 1 in B (worker-a-0 first), no rank");
	struct compare *c = compare_new(ra, rb, "dasf");
	size_t n, persist = 0;
	const struct cmp_finding *v = compare_findings(c, &n);
	for (size_t i = 0; i < n; i++)
		persist += v[i].status == CMP_PERSIST && strcmp(v[i].b->id, "DASF.WORKER_IMBALANCE") == 0;
	ok(persist == 1, "WORKER_IMBALANCE on worker-x-0 persists, not resolved and new");
	compare_free(c);
	free(a);
	free(b);
	free(fa);
	free(fb);
	free(fx);
}

static void write_file(const char *name, const void *p, size_t n)
{
	char *path = tmp_path(name);
	tu_write_file(path, p, n);
	free(path);
}

static void one_compute(struct dw *w, const char *key)
{
	dw_compute(w, &(struct dw_task){ "h", "worker-h-0", key, "f", 1, 1, 1, DW_NONE, DW_NONE });
}

static void test_hostile(void)
{
	struct dw w;
	char *p = tmp_path("badlen.msgpack");
	dw_open(&w, p);
	one_compute(&w, "a");
	dw_len(&w, 0xffffffffffffULL); /* absurd length, then garbage, then a good record */
	dw_raw(&w, "\x87garbage", 8);
	one_compute(&w, "b");
	dw_close(&w);
	free(p);
	struct run *run = open_paths((const char *const[]){ "badlen.msgpack" }, 1);
	long long off = -1;
	ok(tu_has_diag(run, "bad record length", &off) && off > 0, "bad length: diagnostic at its byte offset");
	ok(run->dasf && run->dasf->ntask == 2, "bad length: resynchronised, the record after it loads");
	run_free(run);

	write_file("empty.msgpack", "", 0);
	run = open_paths((const char *const[]){ "empty.msgpack" }, 1);
	ok(tu_has_diag(run, "empty file", NULL) && run_is_empty(run), "empty file: diagnostic, nothing loaded");
	run_free(run);

	char junk[4096];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 131 + 7);
	write_file("junk.msgpack", junk, sizeof(junk));
	run = open_paths((const char *const[]){ "junk.msgpack" }, 1);
	ok(run->diags.n > 0 && (!run->dasf || !run->dasf->ntask), "garbage: diagnostics, no tasks, no crash");
	run_free(run);

	p = tmp_path("keys.msgpack");
	dw_open(&w, p);
	msgpack_pack_map(&w.pk, 3); /* Compute without duration */
	dw_str(&w, "name"); dw_str(&w, "Compute");
	dw_str(&w, "timestamp"); msgpack_pack_double(&w.pk, 1);
	dw_str(&w, "args"); msgpack_pack_map(&w.pk, 0);
	dw_flush(&w);
	msgpack_pack_array(&w.pk, 1); /* not a map */
	msgpack_pack_nil(&w.pk);
	dw_flush(&w);
	dw_len(&w, 6); /* array32 claiming 4 G elements: must not allocate */
	dw_raw(&w, "\xdd\xff\xff\xff\xff\xc0", 6);
	dw_other(&w, "Custom Thing", 2);
	dw_resource(&w, "h", 1.5, -1, 0);
	one_compute(&w, "ok");
	dw_close(&w);
	free(p);
	run = open_paths((const char *const[]){ "keys.msgpack" }, 1);
	ok(tu_has_diag(run, "Compute event without string args 'key'", NULL),
	   "missing key: Compute without key (nor duration) -> diagnostic");
	ok(tu_has_diag(run, "not a map", NULL), "a record that is not a map -> diagnostic");
	ok(tu_has_diag(run, "malformed MessagePack", NULL), "hostile array count -> diagnostic, no allocation");
	ok(tu_has_diag(run, "unknown event 'Custom Thing'", NULL), "unknown event -> diagnostic");
	ok(tu_has_diag(run, "no gpu_utilization", NULL), "CPU-only sample -> diagnostic");
	ok(run->dasf && run->dasf->ntask == 1 && run->src[0].skipped == 3,
	   "the rest loads: 1 task, 3 records skipped");
	run_free(run);
}

/* A Compute event whose args.key is the n bytes at key (may hold a NUL). */
static void compute_raw_key(struct dw *w, const char *key, size_t n)
{
	msgpack_pack_map(&w->pk, 4);
	dw_str(w, "name"); dw_str(w, "Compute");
	dw_str(w, "timestamp"); msgpack_pack_double(&w->pk, 1);
	dw_str(w, "duration"); msgpack_pack_double(&w->pk, 1);
	dw_str(w, "args"); msgpack_pack_map(&w->pk, 2);
	dw_str(w, "key"); msgpack_pack_str(&w->pk, n); msgpack_pack_str_body(&w->pk, key, n);
	dw_str(w, "name"); dw_str(w, "f");
	dw_flush(w);
}

static void test_nul_keys(void)
{
	struct dw w;
	char *p = tmp_path("nul.msgpack");
	dw_open(&w, p);
	compute_raw_key(&w, "ab", 2);
	compute_raw_key(&w, "ab\0cd", 5);
	compute_raw_key(&w, "ab\0cd", 5);
	dw_close(&w);
	free(p);
	struct run *run = open_paths((const char *const[]){ "nul.msgpack" }, 1);
	ok(run->dasf && run->dasf->ntask == 3 && run->dasf->keys.n == 2,
	   "a key holding a NUL is its own key (compared by length, never read past its end)");
	run_free(run);
}

/* Names from data reach tables (so the screen, --print and CSV) only sanitized. */
static void test_hostile_text(void)
{
	struct dw w;
	char *p = tmp_path("esc.msgpack");
	dw_open(&w, p);
	dw_compute(&w, &(struct dw_task){ "h\x1b]0;pwned\x07", "worker-h-\xc2\x9b" "2J", "k", "\x1b[31mevil",
					  1, 1, 1, DW_NONE, DW_NONE });
	dw_memory(&w, "h", "worker-\x1b[2J", 1.5, "k", 1, 1);
	dw_close(&w);
	free(p);
	struct run *run = open_paths((const char *const[]){ "esc.msgpack" }, 1);
	struct table *t = view(run, "function_bottleneck");
	ok(t && strcmp(txt(t, 0, "Function"), "^[[31mevil") == 0 && strcmp(txt(t, 0, "Host"), "h^[]0;pwned^G") == 0 &&
	   strcmp(txt(t, 0, "GPU"), "\\x9b2J") == 0, "escape sequences in names are shown in caret/\\x notation");
	table_free(t);
	t = view(run, "task_balance");
	ok(t && t->ncol == 2 && strcmp(t->col[1].name, "worker-^[[2J") == 0, "a worker column name from data is sanitized");
	table_free(t);
	run_free(run);
}

/* libFuzzer finds (tests/fuzz/fuzz_dasf.c), kept as regressions. */
static void test_fuzz_regressions(void)
{
	static const char legacy_key_without_value[] = "trace: { 0}\ntrace: {\"\",9p\": 9";
	write_file("fuzz1.txt", legacy_key_without_value, sizeof(legacy_key_without_value) - 1);
	struct run *run = open_paths((const char *const[]){ "fuzz1.txt" }, 1);
	ok(run->diags.n > 0 && (!run->dasf || !run->dasf->ntask),
	   "legacy line whose object key has no value: diagnostics, no crash (fuzz find)");
	run_free(run);
}

static void test_legacy(void)
{
	char *p = tmp_path("traces.txt");
	char *cmd = xasprintf("%s/tests/gen_dasf legacy %s", getenv("TSCOPE_BUILD") ? getenv("TSCOPE_BUILD") : "build", p);
	int rc = system(cmd);
	free(cmd);
	free(p);
	if (rc != 0) {
		tap_skip("gen_dasf not built");
		return;
	}
	struct run *run = open_paths((const char *const[]){ "traces.txt" }, 1);
	ok(run->dasf && run->dasf->ntask == 2 && run->dasf->nmem == 1, "legacy trace: lines load (2 Compute, 1 memory)");
	ok(run->src[0].partial && tu_has_diag(run, "truncated last line", NULL), "legacy: truncated last line flagged");
	ok(tu_has_diag(run, "not a `trace: {json}` line", NULL), "legacy: a foreign line -> diagnostic");
	struct table *t = view(run, "task_bottleneck");
	ok(t && strcmp(txt(t, 0, "Task Key"), "a-1") == 0 && num(t, 0, "Duration (s)") == 1.5,
	   "legacy: milliseconds become seconds (1500 ms -> 1.5 s)");
	table_free(t);
	t = view(run, "task_graph");
	ok(t && num(t, 1, "Input Data Size (MB)") == 2.0, "legacy: task graph from data.dependencies");
	table_free(t);
	run_free(run);
}

/* The single-pass reader (load_mp.c) on records packed by msgpack-c: the fields found,
 * the first of duplicate keys, msgpack-c's 32-level limit, malformed bodies. */
static enum dasf_rec_status scan_packed(struct dw *w, bool legacy, struct dasf_rec *r)
{
	return dasf_rec_scan((const unsigned char *)w->sb.data, w->sb.size, legacy, r);
}

/* An array nested `levels` deep inside {"a": ...} (the map is level 1). */
static void pack_nested(struct dw *w, int levels)
{
	msgpack_sbuffer_clear(&w->sb);
	msgpack_pack_map(&w->pk, 1);
	dw_str(w, "a");
	for (int i = 1; i < levels; i++)
		msgpack_pack_array(&w->pk, 1);
	msgpack_pack_nil(&w->pk);
}

static void test_reader(void)
{
	struct dw w = { 0 };
	msgpack_sbuffer_init(&w.sb);
	msgpack_packer_init(&w.pk, &w.sb, msgpack_sbuffer_write);
	struct dasf_rec r;
	const char *s;
	size_t n;
	double d;
	long long i;

	msgpack_pack_map(&w.pk, 4);
	dw_str(&w, "name"); dw_str(&w, "Compute");
	dw_str(&w, "timestamp"); msgpack_pack_float(&w.pk, 1.5f);
	dw_str(&w, "args"); msgpack_pack_map(&w.pk, 3);
	dw_str(&w, "key"); dw_str(&w, "k-1");
	dw_str(&w, "dependents"); dw_strs(&w, (const char *const[]){ "k-2", "k-3" }, 2);
	dw_str(&w, "key"); dw_str(&w, "second");
	dw_str(&w, "name"); dw_str(&w, "Other");
	ok(scan_packed(&w, false, &r) == DASF_REC_OK, "reader: a well-formed map is accepted");
	ok(dasf_mp_str(&r, r.name, &s, &n) && n == 7 && !memcmp(s, "Compute", 7), "reader: the first 'name' counts");
	ok(dasf_mp_number(r.timestamp, &d) && d == 1.5, "reader: float32 timestamp");
	ok(dasf_mp_str(&r, r.key, &s, &n) && n == 3 && !memcmp(s, "k-1", 3), "reader: the first args 'key' counts");
	const unsigned char *e;
	uint32_t cnt = dasf_mp_array(r.dnts, &e);
	ok(cnt == 2 && dasf_mp_str(&r, dasf_mp_next(&r, e), &s, &n) && n == 3 && !memcmp(s, "k-3", 3),
	   "reader: dependents array, second element");
	ok(!r.duration && !r.process_id && !dasf_mp_number(r.duration, &d), "reader: absent keys are NULL");
	ok(scan_packed(&w, true, &r) == DASF_REC_OK && !r.args && !r.key, "reader: legacy reads 'data', not 'args'");

	msgpack_sbuffer_clear(&w.sb);
	msgpack_pack_uint64(&w.pk, 18446744073709551615ULL);
	ok(scan_packed(&w, false, &r) == DASF_REC_NOT_MAP, "reader: a top-level scalar is not a map");
	msgpack_sbuffer_clear(&w.sb);
	msgpack_pack_map(&w.pk, 1);
	dw_str(&w, "timestamp"); msgpack_pack_uint64(&w.pk, 18446744073709551615ULL);
	ok(scan_packed(&w, false, &r) == DASF_REC_OK && dasf_mp_number(r.timestamp, &d) && d == 18446744073709551615.0 &&
	   !dasf_mp_int(r.timestamp, &i), "reader: uint64 above LLONG_MAX is a number, not a long long");

	pack_nested(&w, 32);
	ok(scan_packed(&w, false, &r) == DASF_REC_OK, "reader: containers 32 levels deep decode (msgpack-c's limit)");
	pack_nested(&w, 33);
	ok(scan_packed(&w, false, &r) == DASF_REC_TOO_DEEP, "reader: 33 levels are refused as msgpack-c does");
	msgpack_sbuffer_write(&w.sb, "\x00", 1);
	ok(scan_packed(&w, false, &r) == DASF_REC_MALFORMED, "reader: malformed wins over too deep (a trailing byte)");

	static const unsigned char bad[][12] = {
		{ 0x81, 0xa1, 'a', 0xc1 },                            /* reserved marker */
		{ 0x81, 0xa1, 'a', 0xdd, 0xff, 0xff, 0xff, 0xff },    /* array count past the end */
		{ 0x81, 0xa4, 'a' },                                  /* key longer than the record */
		{ 0x82, 0xa1, 'a', 0xc0 },                            /* map count past the end */
		{ 0x81, 0xa1, 'a', 0xcb, 0, 0 },                      /* float64 cut short */
	};
	static const size_t badn[] = { 4, 8, 3, 4, 6 };
	int refused = 0;
	for (size_t k = 0; k < sizeof(badn) / sizeof(badn[0]); k++)
		refused += dasf_rec_scan(bad[k], badn[k], false, &r) == DASF_REC_MALFORMED;
	is_int(refused, 5, "reader: reserved marker, counts and lengths past the end are malformed");
	msgpack_sbuffer_destroy(&w.sb);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "dasf"))
		return 1;
	char *fx = tmp_path("fx");
	mkdir(fx, 0755);
	ok(dw_write_fixture(fx) == 0, "fixture written");
	free(fx);
	struct run *run = open_paths(fixture_files, 3);
	test_sources(run);
	test_function_bottleneck(run);
	test_task_bottleneck(run);
	test_task_balance(run);
	test_grid(run);
	test_graph(run);
	test_view_head(run);
	test_fixture_findings(run);
	run_free(run);
	test_order();
	test_first_match_random();
	test_findings_fire();
	test_function_groups();
	test_dominant_tokens();
	test_idle_ties();
	test_missing_duration();
	test_worker_ties();
	test_lost_compute();
	test_compare_worker_rows();
	test_hostile();
	test_nul_keys();
	test_hostile_text();
	test_fuzz_regressions();
	test_legacy();
	test_reader();
	ok(tu_rm_rf(tmpdir) == 0, "temporary files removed");
	return tap_done();
}
