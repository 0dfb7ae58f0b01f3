/* SPDX-License-Identifier: MIT */
/* fuzz.h: what the libFuzzer harnesses (tests/fuzz/fuzz_*.c) share. Header-only.
 *
 * A harness writes its input where a loader looks for it (a private scratch directory,
 * one per process), opens the run through run_open() exactly as the program does, then
 * runs everything downstream of the parser: every registered view, filter and sort on
 * it, the findings, the CSV export and the --print report. So a fuzzed input reaches
 * the same code a user's file does, and a crash, a sanitizer report, a leak or an
 * assertion anywhere on that path fails the harness.
 *
 * The same sources build two ways: with clang -fsanitize=fuzzer (make fuzz), and with
 * tests/fuzz/replay.c's main() and the ordinary build (make check replays the seed and
 * regression corpora through build/tests/replay_NAME). */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/table.h"
#include "model/xalloc.h"
#include "src/print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's scratch directory (created on first use, removed at exit). */
static char fuzz_root[256];

static inline void fuzz_cleanup(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_root);
}

static inline const char *fuzz_dir(void)
{
	if (!fuzz_root[0]) {
		/* an allocation that cannot be had (a size gone negative) ends in abort(), which
		 * libFuzzer reports with the input saved; xalloc's own _exit() would leave none */
		xalloc_set_die_hook(abort);
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_root, sizeof(fuzz_root), "%s/tscope-fuzz.XXXXXX", t ? t : "/tmp");
		if (!mkdtemp(fuzz_root))
			abort();
		atexit(fuzz_cleanup);
	}
	return fuzz_root;
}

/* fuzz_dir()/rel, with its parent directories; returns the path (static buffer). */
static inline const char *fuzz_path(const char *rel)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), rel);
	for (char *p = path + strlen(fuzz_dir()) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			abort();
		*p = '/';
	}
	return path;
}

static inline void fuzz_write(const char *rel, const void *data, size_t n)
{
	FILE *f = fopen(fuzz_path(rel), "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

/* /dev/null, opened once. */
static inline FILE *fuzz_null(void)
{
	static FILE *null;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	return null;
}

/* Everything a user can ask of a loaded run: each view (sorted by each column, and
 * filtered), findings, CSV, the report. Output goes to /dev/null. */
static inline void fuzz_exercise(struct run *run)
{
	FILE *null = fuzz_null();
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++) {
			char err[256];
			struct table *t = registry[s]->views[v].build(run, err, sizeof(err));
			if (!t)
				continue;
			for (size_t c = 0; c < t->ncol && c < 8; c++)
				table_sort(t, (int)c, c % 2);
			if (t->ncol)
				table_filter(t, t->col[0].type == COL_TEXT ? "x" : "0", err, sizeof(err));
			table_write_csv(t, null, 0);
			table_free(t);
		}
	run_findings(run);
	struct print_opts po = { .color = true };
	if (!run_is_empty(run)) /* an empty run only says so on stderr */
		print_report(run, null, &po);
}

/* Open path (relative to fuzz_dir()) as the program would, exercise it, free it. */
static inline void fuzz_load(const char *rel, const struct opts *opts)
{
	const char *paths[] = { fuzz_path(rel) };
	static const struct opts dflt = { .jobs = 1 };
	struct run *run = run_open(paths, 1, opts ? opts : &dflt, NULL);
	fuzz_exercise(run);
	run_free(run);
}

#endif
