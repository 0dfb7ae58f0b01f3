/* SPDX-License-Identifier: MIT */
/* test_state.c: what the explorer remembers per run between sessions (ui/state.h), on the
 * demo run with $XDG_STATE_HOME in a scratch directory: a tab left showing a drill-down
 * is saved with its own filter, never the drill-down's; a table tab a session never
 * opened (tabs open lazily) keeps its saved sort and filter; a saved sort on a column the
 * run no longer has is said, as a saved filter's is, never dropped in silence. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "model/findings.h"
#include "model/run.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "ui/app.h"
#include "ui/state.h"

static struct opts opts = { .no_index = true };
static struct run *run;
static char dir[4096];

/* A session on the run: one table tab, the Ranks view, as the default tabs; the saved
 * state loaded. */
static void session_start(struct app *app)
{
	memset(app, 0, sizeof(*app));
	app->run = run;
	app->opts = &opts;
	app->strag_pos = -1;
	app->search_pos = -1;
	app->tick_ms = -1;
	app->lay = layout_compute(40, 120);
	app_pane(app, &pane_table, "ranks", "Ranks");
	app->nfixed = app->npane;
	state_load(app);
}

/* Quit: the state saved, the tabs closed. */
static void session_end(struct app *app)
{
	state_save(app);
	state_free(app);
	for (size_t i = 0; i < app->npane; i++) {
		if (app->pane[i].priv)
			app->pane[i].ops->close(app->pane[i].priv);
		free(app->pane[i].arg);
	}
}

/* The run's state file (the only one under the scratch $XDG_STATE_HOME), malloc'd. */
static char *state_file(void)
{
	char sub[4200];
	snprintf(sub, sizeof(sub), "%s/tscope-tui", dir);
	DIR *d = opendir(sub);
	struct dirent *e;
	char *path = NULL;
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "run-", 4) == 0 && !strchr(e->d_name, '.'))
			path = xasprintf("%s/%s", sub, e->d_name);
	if (d)
		closedir(d);
	return path;
}

/* Does the state file hold this line? */
static bool saved(const char *want)
{
	char *path = state_file(), line[4096];
	FILE *f = path ? fopen(path, "r") : NULL;
	bool found = false;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found |= strcmp(line, want) == 0;
	}
	if (f)
		fclose(f);
	free(path);
	return found;
}

/* Write the state file whole: the magic line, then body. */
static void save_state(const char *body)
{
	char *path = state_file(), *text = xasprintf("tscope-tui state 1\n%s", body);
	if (path)
		tu_write_file(path, text, strlen(text));
	free(text);
	free(path);
}

/* f rank>=5 on Ranks, then a drill-down to rank 3's rows, then quit. */
static void test_drill_down_not_saved(void)
{
	struct app app;
	session_start(&app);
	void *priv = app_pane_priv(&app, 0);
	char err[256];
	ok(priv && pane_table.filter(priv, &app, "rank>=5", err, sizeof(err)) == 0, "the Ranks tab takes rank>=5");
	struct evidence ev = evidence_none();
	ev.kind = EV_TASK;
	ev.view = "ranks";
	ev.rank = 3;
	struct ui_target t = { .rank = -1, .step_lo = -1, .step_hi = -1, .item = -1, .ev = &ev, .drill = true };
	pane_table.select(priv, &app, &t);
	const struct table *tb = pane_table.table(priv, &app);
	is_str(tb->filter, "rank=3", "a drill-down to rank 3 shows its evidence's filter in the tab's place");
	session_end(&app);
	ok(saved("table\tranks\t-\tasc\trank>=5"), "quit during the drill-down: the tab's own filter is saved");
	ok(!saved("table\tranks\t-\tasc\trank=3"), "... never the drill-down's");
	session_start(&app);
	priv = app_pane_priv(&app, 0);
	is_str(pane_table.table(priv, &app)->filter, "rank>=5", "reopened, the tab shows its own filter again");
	session_end(&app);
}

/* A session that never opens the Ranks tab keeps what an earlier one saved for it. */
static void test_unopened_tab_kept(void)
{
	struct app app;
	session_start(&app);
	void *priv = app_pane_priv(&app, 0);
	char err[256];
	pane_table.filter(priv, &app, "rank>=5", err, sizeof(err));
	struct table *t = pane_table.table(priv, &app);
	table_sort(t, table_col_index(t, "rank"), true);
	session_end(&app);
	ok(saved("table\tranks\trank\tdesc\trank>=5"), "a session saves the Ranks tab's sort and filter");
	session_start(&app);   /* the Ranks tab is never opened */
	session_end(&app);
	ok(saved("table\tranks\trank\tdesc\trank>=5"), "a session that never opens the tab keeps its saved line");
	session_start(&app);
	priv = app_pane_priv(&app, 0);
	t = pane_table.table(priv, &app);
	ok(t->filter && strcmp(t->filter, "rank>=5") == 0 && t->sort_col == table_col_index(t, "rank") && t->sort_desc,
	   "the session after it restores both");
	session_end(&app);
}

/* A saved sort and filter on columns the run does not have are said, both. */
static void test_sort_gone_said(void)
{
	struct app app;
	session_start(&app);
	session_end(&app);
	save_state("pane\tRanks\ntable\tranks\tloss\tdesc\t\n");
	session_start(&app);
	app_pane_priv(&app, 0);
	ok(strstr(app.msg, "saved sort '-loss' no longer applies: unknown column 'loss'") && app.msg_err,
	   "a saved sort on a column the run lacks is said (%s)", app.msg);
	session_end(&app);
	save_state("table\tranks\tloss\tasc\tbogus>1\n");
	session_start(&app);
	app_pane_priv(&app, 0);
	ok(strstr(app.msg, "saved sort 'loss' no longer applies") &&
		   strstr(app.msg, "; saved filter 'bogus>1' no longer applies: unknown column 'bogus'"),
	   "with a saved filter that no longer applies either, both are said (%s)", app.msg);
	session_end(&app);
}

int main(void)
{
	if (!tu_mkdtemp(dir, sizeof(dir), "state")) {
		perror("mkdtemp");
		return 1;
	}
	setenv("XDG_STATE_HOME", dir, 1);
	unsetenv("TSCOPE_SCRIPT");
	char *demo = tu_source_path("testdata/demo");
	const char *paths[] = { demo };
	run = run_open(paths, 1, &opts, NULL);
	test_drill_down_not_saved();
	test_unopened_tab_kept();
	test_sort_gone_said();
	run_free(run);
	free(demo);
	tu_rm_rf(dir);
	return tap_done();
}
