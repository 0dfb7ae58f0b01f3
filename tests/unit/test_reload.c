/* SPDX-License-Identifier: MIT */
/* test_reload.c: run_reload_family() (follow mode loading a sweep again as its files
 * change): the family's sources and diagnostics are replaced, not appended again, at
 * every reload; the note that a PATH held nothing goes once the family loads something
 * there; another family's sources keep their indices (its model holds them). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char tmpdir[256];
static char *export_text;   /* tests/unit/fixtures/sweep/profile_export.json */

/* DIR/m-openai-chat-concurrencyLEVEL/profile_export.json with text (the fixture when NULL). */
static void level(const char *dir, int lvl, const char *text)
{
	char *d = xasprintf("%s/m-openai-chat-concurrency%d", dir, lvl);
	char *p = xasprintf("%s/profile_export.json", d);
	tu_make_dir(d);
	text = text ? text : export_text;
	tu_write_file(p, text, strlen(text));
	free(p);
	free(d);
}

static void level_remove(const char *dir, int lvl)
{
	char *p = xasprintf("%s/m-openai-chat-concurrency%d/profile_export.json", dir, lvl);
	unlink(p);
	free(p);
}

static void reload(struct run *run, const char *const *paths, size_t n)
{
	run_reload_family(run, &sub_sweep, paths, n);
}

/* The sources of the genai-perf loader, and those at path. */
static size_t sweep_sources(const struct run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->nsrc; i++)
		n += strcmp(run->src[i].format, "genai-perf") == 0;
	return n;
}

static long source_at(const struct run *run, const char *path)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (strcmp(run->src[i].path, path) == 0)
			return (long)i;
	return -1;
}

/* An empty dir followed as it becomes a sweep, a level at a time (a bad one among them). */
static void test_dir_becomes_sweep(void)
{
	char *dir = xasprintf("%s/grow", tmpdir);
	tu_make_dir(dir);
	const char *paths[] = { dir };
	struct opts o = { .follow = true };
	struct run *run = run_open(paths, 1, &o, NULL);
	ok(run->nsrc == 0 && tu_count_diag(run, "no supported data found here") == 1,
	   "an empty dir: no source, and the note that it holds nothing");
	level(dir, 1, NULL);
	reload(run, paths, 1);
	tap_is_int((long long)sweep_sources(run), 1, "a level appeared: its source");
	tap_is_int((long long)tu_count_diag(run, "no supported data found here"), 0, "the note that the dir held nothing went");
	level(dir, 2, NULL);
	level(dir, 8, "{\"experiments\": 5}");
	reload(run, paths, 1);
	reload(run, paths, 1);
	tap_is_int((long long)run->nsrc, 3, "three levels, reloaded twice: three sources, not one per reload");
	tap_is_int((long long)tu_count_diag(run, "no experiments"), 1, "the bad level's diagnostic once, not once per reload");
	size_t repeated = tu_count_diag(run, "results at concurrency");
	reload(run, paths, 1);
	ok(repeated > 0 && tu_count_diag(run, "results at concurrency") == repeated,
	   "the finalize's warning (levels measured twice: %zu) is not added again by a reload", repeated);
	struct run *fresh = run_open(paths, 1, &o, NULL);
	ok(run->sweep && fresh->sweep && run->sweep->ncfg == fresh->sweep->ncfg && run->nsrc == fresh->nsrc &&
	   run->diags.n == fresh->diags.n, "as a fresh open: %zu configs, %zu sources, %zu diagnostics",
	   fresh->sweep ? fresh->sweep->ncfg : 0, fresh->nsrc, fresh->diags.n);
	run_free(fresh);
	level_remove(dir, 8);
	reload(run, paths, 1);
	ok(run->nsrc == 2 && tu_count_diag(run, "no experiments") == 0,
	   "the bad level removed: its source and its diagnostic go");
	run_free(run);
	free(dir);
}

/* A step run and a sweep in two PATHs: the steps' sources keep their indices. */
static void test_other_family_keeps_indices(void)
{
	char *sw = xasprintf("%s/sw", tmpdir), *st = xasprintf("%s/st", tmpdir);
	char *steps = xasprintf("%s/rank0/steps.jsonl", st);
	tu_make_dir(sw);
	tu_make_dir(st);
	level(sw, 1, NULL);
	level(sw, 2, NULL);
	level(sw, 4, NULL);
	char rdir[512];
	tu_rank_dir(rdir, sizeof(rdir), st, 0);
	const char *line = "{\"step\":0,\"timestamp\":1000.0,\"phases\":{\"forward\":0.5}}\n";
	tu_write_file(steps, line, strlen(line));
	const char *paths[] = { sw, st };
	struct opts o = { .follow = true };
	struct run *run = run_open(paths, 2, &o, NULL);
	long at = source_at(run, steps);
	ok(at == 3 && run->nsrc == 4, "three levels, then rank 0's steps (source %ld of %zu)", at, run->nsrc);
	level_remove(sw, 2);
	level(sw, 8, NULL);
	reload(run, paths, 2);
	tap_is_int(source_at(run, steps), at, "after a reload the steps' source is where it was");
	char *c2 = xasprintf("%s/m-openai-chat-concurrency2/profile_export.json", sw);
	char *c8 = xasprintf("%s/m-openai-chat-concurrency8/profile_export.json", sw);
	long gone = source_at(run, c2);
	ok(gone >= 0 && gone < at && run->src[gone].records == 0 && run->src[gone].err == ENOENT,
	   "the level removed keeps its slot before the steps', with nothing loaded and why");
	ok(source_at(run, c8) > at && run->nsrc == 5, "the new level comes after the steps' source");
	reload(run, paths, 2);
	ok(run->nsrc == 5 && source_at(run, steps) == at, "reloaded again: the same sources");
	run_free(run);
	free(c2);
	free(c8);
	free(steps);
	free(sw);
	free(st);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "reload")) {
		perror("mkdtemp");
		return 1;
	}
	export_text = tu_source_text("tests/unit/fixtures/sweep/profile_export.json");
	test_dir_becomes_sweep();
	test_other_family_keeps_indices();
	free(export_text);
	if (tu_rm_rf(tmpdir) != 0)
		fprintf(stderr, "cleanup failed\n");
	return tap_done();
}
