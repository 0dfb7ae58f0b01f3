/* SPDX-License-Identifier: MIT */
/* test_registry.c: the subsystem contract (model/registry.h): every family registered
 * once with unique tab keys, loader, view and command names; tabs in key order with the
 * conditional Sweep tab; grids and model commands found by name; finalize/has_data
 * through run_open()/run_is_empty(); has_records and findings_unjudged() (a run of
 * run.json files alone: data, nothing judged); summary lines sanitized and in registry
 * order, their values whole (a 256-byte path) or, past SUMMARY_VALUE, cut at a character
 * with an ellipsis; the not-judged items of an empty findings list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/findings.h"
#include "model/registry.h"
#include "model/sweep/sweep.h"
#include "model/run.h"
#include "model/table.h"
#include "tests/tap.h"

static void test_unique_names(void)
{
	int keys[10] = { 0 };
	size_t dup = 0, nviews = 0;
	for (size_t s = 0; s < registry_count; s++) {
		const struct subsystem *sub = registry[s];
		ok(sub->name && *sub->name, "subsystem %zu has a name", s);
		for (size_t t = 0; t < sub->ntabs; t++) {
			int k = sub->tabs[t].key;
			dup += k < 1 || k > 9 || keys[k]++;
		}
		for (size_t v = 0; v < sub->nviews; v++, nviews++)
			dup += registry_view(sub->views[v].name) != &sub->views[v];
	}
	ok(dup == 0 && nviews > 10, "tab keys 1..9 and view names are unique (%zu views)", nviews);
	for (size_t i = 0; i < registry_ncmds(); i++) {
		const struct model_cmd *c = registry_cmd_at(i);
		ok(registry_cmd(c->name, strlen(c->name)) == c, "model command :%s found by name", c->name);
	}
}

static void test_lookups(void)
{
	ok(registry_cmd("objective", 9) && registry_cmd("constraint", 10), ":objective and :constraint are model commands");
	ok(!registry_cmd("obj", 3), "a prefix is not a command");
	ok(registry_grid("steps") && registry_grid("tasks"), "grids steps and tasks are registered");
	ok(registry_grid(NULL) == registry_grid_at(0), "no name: the first grid");
	ok(!registry_grid("nope"), "unknown grid: NULL");
}

static bool keys_are(const struct tab_def *const *t, size_t n, const int *want, size_t nwant)
{
	bool same = n == nwant;
	for (size_t i = 0; same && i < n; i++)
		same = t[i]->key == want[i];
	return same;
}

/* Default options (zeroed, kept for the runs' lifetime) and the demo run opened with them. */
static struct opts test_opts;

static struct run *open_demo(void)
{
	const char *demo[] = { "testdata/demo" };
	return run_open(demo, 1, &test_opts, NULL);
}

static void test_tabs(void)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	const struct tab_def *t[16];
	size_t n = registry_tabs(&r, t, 16);
	ok(keys_are(t, n, (const int[]){ 1, 6, 7 }, 3),
	   "a run without data: Overview, Findings, Sources only, no training tabs (%zu)", n);
	struct sweep_set sw = { .ncb = 1 };   /* a Cerebras file alone: nothing to plot */
	r.sweep = &sw;
	n = registry_tabs(&r, t, 16);
	ok(keys_are(t, n, (const int[]){ 1, 6, 7 }, 3), "a Cerebras file alone: no Sweep tab (%zu)", n);
	sw.ncfg = 1;   /* GenAI-Perf configs */
	n = registry_tabs(&r, t, 16);
	ok(keys_are(t, n, (const int[]){ 1, 6, 7, 8 }, 4) && t[3]->pane == TAB_SWEEP,
	   "a sweep run: the Sweep tab on key 8, no Heatmap/Ranks/Steps/Budget");
	ok(registry_tabs(&r, t, 2) == 2, "cap is honoured");
	void **slot = registry_slot(&r, registry[registry_count - 1]);
	ok(slot && *slot == NULL && slot == &r.family[registry_count - 1],
	   "every subsystem has a model slot in the run (a new family needs no run field)");
	ok(!registry_slot(&r, NULL), "no slot for an unregistered subsystem");
	struct run *run = open_demo();
	n = registry_tabs(run, t, 16);
	ok(keys_are(t, n, (const int[]){ 1, 2, 3, 4, 5, 6, 7 }, 7), "a step run has tabs 1..7 in key order (%zu)", n);
	ok(n >= 3 && strcmp(t[2]->label, "Ranks") == 0 && t[2]->pane == TAB_TABLE, "tab 3 is the Ranks table");
	run_free(run);
}

static void test_run_contract(void)
{
	struct run *run = open_demo();
	ok(!run_is_empty(run) && registry_has_data(run), "the demo run has data (has_data)");
	struct summary s;
	registry_summary(run, &s);
	ok(s.n >= 5 && strcmp(s.line[0].key, "ranks") == 0 && strcmp(s.line[0].text, "16") == 0,
	   "the step family's summary starts with the rank count (%zu lines)", s.n);
	bool has_strag = false;
	for (size_t i = 0; i < s.n; i++)
		has_strag |= strcmp(s.line[i].key, "stragglers") == 0 && strstr(s.line[i].text, "rank 11") != NULL;
	ok(has_strag, "the summary names the demo's straggler");
	run_free(run);
	const char *none[] = { "/nonexistent/tscope" };
	run = run_open(none, 1, &test_opts, NULL);
	ok(run_is_empty(run), "nothing loaded: no subsystem has data");
	registry_summary(run, &s);
	ok(s.n == 0, "and no summary lines");
	run_free(run);
}

static const char *summary_text(const struct summary *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->line[i].key, key) == 0)
			return s->line[i].text;
	return "";
}

/* A pytscope run dir of two ranks with run.json (n_steps 205) and no steps.jsonl. */
static void write_meta_only_run(const char *dir)
{
	for (int r = 0; r < 2; r++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/rank%d/run.json", dir, r);
		FILE *f = fopen(path, "w");
		if (!f)
			return;
		fprintf(f, "{\"name\": \"ddp\", \"config\": {}, \"rank\": %d, \"world_size\": 2, "
			   "\"n_steps\": 205}\n", r);
		fclose(f);
	}
}

static void test_records_contract(void)
{
	struct run *run = open_demo();
	ok(registry_has_records(run) && !findings_unjudged(run), "the demo run has records: its findings are a verdict");
	run_free(run);
	char dir[] = "/tmp/tscope-registry.XXXXXX";
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	write_meta_only_run(dir);
	const char *meta_only[] = { dir };
	run = run_open(meta_only, 1, &test_opts, NULL);
	ok(!run_is_empty(run) && !registry_has_records(run), "run.json alone: data (the explorer opens), no records");
	const char *why = findings_unjudged(run);
	ok(why && strstr(why, "not judged"), "an empty findings list there is no verdict: %s", why ? why : "NULL");
	char err[256] = "";
	struct table *t = registry_view("findings")->build(run, err, sizeof(err));
	ok(!t && strstr(err, "not judged"), "the findings view says so instead of an empty table (%s)", err);
	if (t)
		table_free(t);
	struct summary s;
	registry_summary(run, &s);
	is_str(summary_text(&s, "steps"), "none: no rank has a step record (Sources lists what was read)",
	       "the steps line says none, not 0 aligned");
	is_str(summary_text(&s, "steps found"), "none of run.json n_steps 205", "no -1--1 span");
	run_free(run);
	for (int r = 0; r < 2; r++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/rank%d/run.json", dir, r);
		unlink(path);
		snprintf(path, sizeof(path), "%s/rank%d", dir, r);
		rmdir(path);
	}
	rmdir(dir);
}

static void test_summary_add(void)
{
	struct summary s = { .n = 0 };
	summary_add(&s, TONE_BAD, "name", "%s", "evil\x1b[2Jname");
	is_str(s.line[0].text, "evil^[[2Jname", "summary values are sanitized");
	ok(s.line[0].tone == TONE_BAD, "and keep their tone");
	char path[257], wide[2 * 3000 + 1];
	memset(path, 'p', 256);
	path[256] = '\0';
	summary_add(&s, TONE_NORMAL, "path", "%s", path);
	ok(strcmp(s.line[1].text, path) == 0, "a run dir path of 256 bytes is kept whole");
	for (int i = 0; i < 3000; i++)
		memcpy(wide + 2 * i, "\xc3\xa9", 2);
	wide[2 * 3000] = '\0';
	summary_add(&s, TONE_NORMAL, "run", "%.300s", wide);
	ok(strlen(s.line[2].text) == 300 && strncmp(s.line[2].text, wide, 300) == 0,
	   "a name of 150 two-byte characters is kept whole");
	summary_add(&s, TONE_NORMAL, "run", "%s", wide);
	const char *t = s.line[3].text;
	size_t len = strlen(t);
	ok(len < SUMMARY_VALUE && len > 4 && strcmp(t + len - 3, "\xe2\x80\xa6") == 0 &&
	   strncmp(t, wide, len - 3) == 0 && (len - 3) % 2 == 0,
	   "a longer one is cut at a character and ends in an ellipsis");
	for (int i = 0; i < SUMMARY_MAX + 3; i++)
		summary_add(&s, TONE_NORMAL, "k", "%d", i);
	ok(s.n == SUMMARY_MAX, "lines past SUMMARY_MAX are dropped");
}

/* The item of l that stands for a finding id whose evidence names name and series. */
static const struct not_judged_item *nj_of(const struct not_judged *l, const char *id, const char *name,
					   const char *series)
{
	struct finding f = { .id = (char *)id, .ev = evidence_none() };
	f.ev.name = (char *)name;
	f.ev.series = (char *)series;
	return findings_not_judged_of(l, &f);
}

/* findings_unjudged_add: items with the finding ids they stand for, found by a whole id;
 * an item about one part of the run (a sweep series) stands only for that part's
 * findings; the demo, which every rule judges, gives no item and no note. */
static void test_not_judged(void)
{
	struct not_judged l = { 0 };
	findings_unjudged_add(&l, "A.X A.YY", "a (%d)", 1);
	findings_unjudged_add(&l, "", "b (%s)", "why");
	ok(l.n == 2 && strcmp(l.v[0].text, "a (1)") == 0 && strcmp(l.v[1].text, "b (why)") == 0,
	   "not-judged items kept in order");
	ok(nj_of(&l, "A.YY", NULL, NULL) == &l.v[0] && nj_of(&l, "A.X", "any", NULL) == &l.v[0],
	   "an item stands for each of its ids");
	ok(!nj_of(&l, "A.Y", NULL, NULL) && !nj_of(&l, "X", NULL, NULL) && !nj_of(&l, "", NULL, NULL),
	   "and for no part of one, nor for anything when it has none");
	findings_unjudged_add_about(&l, "S.OUT", "series b*", "outliers of series b* (%d points)", 3);
	ok(l.v[2].subject && strcmp(l.v[2].subject, "series b*") == 0 && !l.v[0].subject,
	   "an item about one part keeps its subject; one about the run has none");
	ok(nj_of(&l, "S.OUT", "series b*", NULL) == &l.v[2] && nj_of(&l, "S.OUT", "cfg 4", "series b*") == &l.v[2],
	   "an item about series b stands for b's finding (its evidence name or series)");
	ok(!nj_of(&l, "S.OUT", "series a*", "request_latency") && !nj_of(&l, "S.OUT", NULL, NULL),
	   "... not for series a's, nor for one that names no part");
	findings_not_judged_free(&l);
	ok(l.n == 0 && l.v == NULL, "freed empty");
	struct run *run = open_demo();
	const struct finding_list *fl = run_findings(run);
	char nj[FINDINGS_NOT_JUDGED_MAX];
	ok(fl->n > 0 && !findings_not_judged(run, nj, sizeof(nj)) && nj[0] == '\0',
	   "the demo (every phase, loss, memory, 400 steps): every rule could judge it");
	char *note = findings_empty_note(run);
	ok(note == NULL, "so an empty list would have no note");
	free(note);
	run_free(run);
}

int main(void)
{
	test_unique_names();
	test_lookups();
	test_tabs();
	test_run_contract();
	test_records_contract();
	test_summary_add();
	test_not_judged();
	return tap_done();
}
