/* SPDX-License-Identifier: MIT */
/* test_follow_sweep.c: following a dir that becomes a GenAI-Perf sweep (model/steps/follow.h,
 * follow_sweep.h), on a driven clock. The PATHs as given hold the dir and one of its files
 * (empty when opened), which run identity leaves out as read by the dir's load: each reload
 * reads the identity's list, as the first load did, so that file is read once (not again
 * as a PATH of its own). An --objective term naming telemetry the sweep lacks is noted
 * once, not once more per reload. The reloads are counted in one LIVE.RELOADED entry, and
 * the status row speaks of the sweep's files and their last change, not of step records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/identity.h"
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/sweep/sweep.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char tmpdir[256];
static char *export_text;   /* tests/unit/fixtures/sweep/profile_export.json */

/* DIR/m-openai-chat-concurrencyLEVEL/profile_export.json (its path, malloc'd) with text. */
static char *level(const char *dir, int lvl, const char *text)
{
	char *d = xasprintf("%s/m-openai-chat-concurrency%d", dir, lvl);
	char *p = xasprintf("%s/profile_export.json", d);
	tu_make_dir(d);
	tu_write_file(p, text, strlen(text));
	free(d);
	return p;
}

static size_t sources_at(const struct run *run, const char *path)
{
	size_t n = 0;
	for (size_t i = 0; i < run->nsrc; i++)
		n += strcmp(run->src[i].path, path) == 0;
	return n;
}

/* Open paths as src/main.c does: identified first, the identity's list loaded. */
static struct run *open_identified(const char *const *paths, size_t n, const struct opts *o)
{
	struct run_identity id;
	run_identify(paths, n, o, &id);
	struct run *run = run_open(id.paths, id.npaths, o, NULL);
	run_identity_notes(&id, 0, run);
	run_identity_free(&id);
	return run;
}

static size_t count_live(const struct follow *f, const char *id, const struct finding **last)
{
	const struct finding_list *l = follow_findings(f);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, id) == 0) {
			*last = &l->v[i];
			n++;
		}
	return n;
}

static void test_followed_sweep(void)
{
	char *dir = xasprintf("%s/sw", tmpdir);
	tu_make_dir(dir);
	char *first = level(dir, 1, "");
	const char *paths[] = { dir, first };
	struct opts o = { .follow = true, .objective = "gpu_power_usage_p99:1" };
	struct run *run = open_identified(paths, 2, &o);
	ok(run_is_empty(run) && tu_count_diag(run, "already read as part of") == 1,
	   "opened: nothing loaded yet, the file PATH noted as read by the dir's load");
	struct follow_opts fo = { .interval = 1, .stall_floor = 10 };
	struct follow *f = follow_new(run, paths, 2, &fo, 0);
	tu_write_file(first, export_text, strlen(export_text));
	follow_poll(f, 1);
	sweep_derived(run);
	free(level(dir, 2, export_text));
	follow_poll(f, 2);
	sweep_derived(run);
	free(level(dir, 4, export_text));
	follow_poll(f, 3);
	sweep_derived(run);
	follow_poll(f, 4);   /* nothing changed */
	tap_is_int((long long)sources_at(run, first), 1, "the file PATH read once per reload, as part of the dir");
	const char *dir_only[] = { dir };
	struct run *fresh = run_open(dir_only, 1, &o, NULL);
	sweep_derived(fresh);
	ok(run->sweep && fresh->sweep && run->sweep->ncfg == fresh->sweep->ncfg && run->nsrc == fresh->nsrc,
	   "as a fresh open of the dir: %zu configs, %zu sources", fresh->sweep ? fresh->sweep->ncfg : 0, fresh->nsrc);
	ok(tu_count_diag(fresh, "(term ignored)") == 1, "a fresh open notes the unknown --objective term once");
	tap_is_int((long long)tu_count_diag(run, "(term ignored)"), 1, "three reloads: the term is noted once");
	run_free(fresh);
	const struct finding *rl = NULL;
	tap_is_int((long long)count_live(f, "LIVE.RELOADED", &rl), 1, "three reloads: one LIVE.RELOADED entry");
	ok(rl && strstr(rl->title, "reloaded 3 times"), "it counts them: %s", rl ? rl->title : "(none)");
	char status[128] = "";
	ok(follow_sweep_status(f, 5.4, status, sizeof(status)) &&
	   strcmp(status, "sweep, 3 files, last change 2 s ago") == 0, "the status of a sweep: %s", status);
	follow_free(f);
	run_free(run);
	free(first);
	free(dir);
}

/* A dir with steps: no sweep status (the step words stay). */
static void test_steps_no_sweep_status(void)
{
	char *dir = xasprintf("%s/st", tmpdir);
	char rdir[512];
	tu_make_dir(dir);
	tu_rank_dir(rdir, sizeof(rdir), dir, 0);
	char *steps = xasprintf("%s/steps.jsonl", rdir);
	const char *line = "{\"step\":0,\"timestamp\":1000.0,\"phases\":{\"forward\":0.5}}\n";
	tu_write_file(steps, line, strlen(line));
	const char *paths[] = { dir };
	struct opts o = { .follow = true };
	struct run *run = run_open(paths, 1, &o, NULL);
	struct follow_opts fo = { .interval = 1, .stall_floor = 10 };
	struct follow *f = follow_new(run, paths, 1, &fo, 0);
	follow_poll(f, 1);
	char status[128] = "";
	ok(!follow_sweep_status(f, 1, status, sizeof(status)) && !status[0], "a step run: no sweep status");
	follow_free(f);
	run_free(run);
	free(steps);
	free(dir);
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "follow_sweep")) {
		perror("mkdtemp");
		return 1;
	}
	export_text = tu_source_text("tests/unit/fixtures/sweep/profile_export.json");
	test_followed_sweep();
	test_steps_no_sweep_status();
	free(export_text);
	if (tu_rm_rf(tmpdir) != 0)
		fprintf(stderr, "cleanup failed\n");
	return tap_done();
}
