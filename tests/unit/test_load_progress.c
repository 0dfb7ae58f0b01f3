/* SPDX-License-Identifier: MIT */
/* test_load_progress.c: what the DASF and GenAI-Perf loaders tell the loading screen
 * (run.h load_ctx): the bytes of every file of the run's PATHs are in the total before
 * the first byte is reported read (a directory, or files given one by one), the bytes
 * read are reported, and at the end done equals the total, never above it; a cancelled
 * DASF load opens no further file and runs no load-time check (its run is discarded). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/run.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/tools/dasf_writer.h"

static char tmpdir[256];

/* The progress hooks' record of one load. */
struct seen {
	long long done, total;
	int grew;                /* times the total grew after a byte was reported read */
	int over;                /* times done went past the total */
	long long cancel_at;     /* the cancel flag is set once done reaches it (0: never) */
	atomic_bool cancel;
};

static void on_progress(void *ud, long long done_delta, long long total_delta)
{
	struct seen *s = ud;
	s->grew += total_delta > 0 && s->done > 0;
	s->done += done_delta;
	s->total += total_delta;
	s->over += s->done > s->total;
	if (s->cancel_at && s->done >= s->cancel_at)
		atomic_store(&s->cancel, true);
}

static struct run *open_paths(const char *const *paths, size_t n, struct seen *s)
{
	static const struct opts o;
	struct load_ctx hooks = { .progress = on_progress, .ud = s, .cancel = &s->cancel };
	return run_open(paths, n, &o, &hooks);
}

static long long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Three DASF databases in dir/name: the same two tasks in each (of other hosts: files
 * of one run), so each file repeats the first one's tasks (the copy check's warning). */
static void write_dasf(const char *dir, char **files)
{
	static const char *const names[] = { "r-TracePlugin-h0.msgpack", "r-TracePlugin-h1.msgpack",
					      "r-TracePlugin-h2.msgpack" };
	tu_make_dir(dir);
	for (size_t i = 0; i < 3; i++) {
		struct dw w;
		files[i] = xasprintf("%s/%s", dir, names[i]);
		if (dw_open(&w, files[i]) < 0)
			exit(1);
		dw_compute(&w, &(struct dw_task){ "h", "w-0", "load-1", "load", 10.0, 2.0, 100, DW_NONE, DW_NONE });
		dw_compute(&w, &(struct dw_task){ "h", "w-0", "load-2", "load", 12.0, 1.0, 100, DW_NONE, DW_NONE });
		dw_close(&w);
	}
}

static void test_dasf_total(const char *label, const char *const *paths, size_t n, long long bytes)
{
	struct seen s = { 0 };
	struct run *run = open_paths(paths, n, &s);
	is_int(run->nsrc, 3, "DASF: three databases loaded");
	is_int(s.grew, 0, label);
	is_int(s.total, bytes, "... the total is the databases' bytes");
	ok(s.done == s.total && s.over == 0, "... every byte reported read, never past the total (%lld of %lld)",
	   s.done, s.total);
	run_free(run);
}

/* bytes: the databases' in dir. */
static void test_dasf_cancel(const char *dir, long long bytes)
{
	const char *paths[] = { dir };
	struct seen all = { 0 };
	struct run *run = open_paths(paths, 1, &all);
	ok(tu_has_diag(run, "a copy of a database?", NULL), "DASF, not cancelled: the copy check warns");
	run_free(run);

	struct seen first = { .cancel_at = 1 };
	run = open_paths(paths, 1, &first);
	is_int(run->nsrc, 1, "DASF cancelled once the first database was read: no further file is opened");
	run_free(run);

	struct seen read = { .cancel_at = bytes };
	run = open_paths(paths, 1, &read);
	is_int(run->nsrc, 3, "DASF cancelled once every database was read: all three read");
	ok(!tu_has_diag(run, "a copy of a database?", NULL), "... and no load-time check runs on the discarded run");
	run_free(run);
}

static void test_dasf(void)
{
	char *dir = xasprintf("%s/dasf", tmpdir), *files[3];
	write_dasf(dir, files);
	long long bytes = 0;
	for (size_t i = 0; i < 3; i++)
		bytes += file_size(files[i]);
	const char *one[] = { dir };
	test_dasf_total("DASF directory: the total never grows once bytes are read", one, 1, bytes);
	test_dasf_total("DASF files given one by one: the total never grows once bytes are read",
			(const char *const *)files, 3, bytes);
	test_dasf_cancel(dir, bytes);
	for (size_t i = 0; i < 3; i++)
		free(files[i]);
	free(dir);
}

/* A sweep of two levels, each a raw profile export (the loader reads them whole). */
static void test_genai(void)
{
	char *text = tu_source_text("tests/unit/fixtures/sweep/profile_export.json");
	char *dir = xasprintf("%s/sweep", tmpdir), *files[2];
	tu_make_dir(dir);
	long long bytes = 0;
	for (int i = 0; i < 2; i++) {
		char *level = xasprintf("%s/m-openai-chat-concurrency%d", dir, 1 << i);
		tu_make_dir(level);
		files[i] = xasprintf("%s/profile_export.json", level);
		tu_write_file(files[i], text, strlen(text));
		bytes += file_size(files[i]);
		free(level);
	}
	const char *one[] = { dir };
	const char *const *cases[] = { one, (const char *const *)files };
	const char *what[] = { "a sweep directory", "exports given one by one" };
	for (size_t c = 0; c < 2; c++) {
		struct seen s = { 0 };
		struct run *run = open_paths(cases[c], c ? 2 : 1, &s);
		is_int(run->nsrc, 2, "GenAI-Perf: both exports loaded");
		ok(s.done > 0 && s.grew == 0, "GenAI-Perf, %s: bytes reported read, the total known before", what[c]);
		ok(s.total == bytes && s.done == s.total && s.over == 0,
		   "... done equals the total, the exports' bytes (%lld of %lld, %lld)", s.done, s.total, bytes);
		run_free(run);
	}
	for (int i = 0; i < 2; i++)
		free(files[i]);
	free(dir);
	free(text);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "tscope_progress_"))
		return 1;
	test_dasf();
	test_genai();
	tu_rm_rf(tmpdir);
	return tap_done();
}
