/* SPDX-License-Identifier: MIT */
/* test_not_judged.c: what the rules could not judge (findings.h findings_not_judged_list)
 * names the findings each item stands for, so a comparison calls a finding of one run
 * "not judged" on the other by its id, not by the item's wording. On runs of every family
 * whose rules cannot judge much (steps: one rank of 5 steps, two ranks of 5 aligned steps,
 * two ranks with no step in common, a run with its step time alone; a trace with no GPU
 * kernel; a sweep of 2 levels, a NAT sizing of one concurrency and a Cerebras file
 * without ordinals; a DASF database of one task): every item names finding ids the rules
 * give (the one without any: the ranks a subset left out), and together the items name
 * every rule but those that always judge what they find (ranks or traces that differ, a
 * stored sizing fit that differs). A new rule, or an item whose ids were left out or
 * misspelt, fails here. Under --compat pytscope no item names a rule that does not run
 * (tscope-tui's own) or that judged what it was given (pytscope's across ranks). */
#include <stdlib.h>
#include <string.h>
#include "model/findings.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "tests/tools/dasf_writer.h"

/* Rules that judge whatever they are given: nothing to be "not judged". */
static const char *const always_judged[] = { "CONFIG.RANKS_DIFFER", "ENV.RANKS_DIFFER", "TRACE.ENV_DIFFERS",
					     "SIZING.STORED_DIFFERS" };
/* Finding ids a rule gives under another id than its own. */
static const char *const other_ids[] = { "EFFICIENCY.RECOVERABLE" };

static bool known_id(const char *id, size_t len)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t i = 0; i < registry[s]->nrules; i++)
			if (strlen(registry[s]->rules[i].id) == len && strncmp(registry[s]->rules[i].id, id, len) == 0)
				return true;
	for (size_t i = 0; i < ARRAY_LEN(other_ids); i++)
		if (strlen(other_ids[i]) == len && strncmp(other_ids[i], id, len) == 0)
			return true;
	return false;
}

/* The ids every item of the runs seen so far names, space-separated. */
static char seen[4096];

/* run's items: each names known ids (or none: the ranks left out), added to seen. */
static void check_items(struct run *run, const char *what)
{
	struct not_judged nj = { 0 };
	ok(findings_not_judged_list(run, &nj), "%s: some rule could not judge it", what);
	bool good = true;
	for (size_t i = 0; i < nj.n; i++) {
		const char *ids = nj.v[i].ids;
		bool none_ok = strncmp(nj.v[i].text, "every rule across ranks, beyond the ranks loaded", 48) == 0;
		if (!*ids && !none_ok) {
			printf("# %s: no id for \"%s\"\n", what, nj.v[i].text);
			good = false;
		}
		for (const char *p = ids; *p;) {
			size_t len = strcspn(p, " ");
			if (!known_id(p, len)) {
				printf("# %s: \"%.*s\" is no finding id (\"%s\")\n", what, (int)len, p, nj.v[i].text);
				good = false;
			}
			text_appendf(seen, sizeof(seen), " %.*s", (int)len, p);
			p += len + (p[len] == ' ');
		}
	}
	ok(good, "%s: every item names the finding ids it stands for", what);
	findings_not_judged_free(&nj);
}

/* A step run read with options o: ranks ranks (rank r skipping steps when disjoint: rank 1
 * has steps 100...) of `steps` steps, with the phases named (comma-separated), no loss, no
 * memory. */
static struct run *steps_run_opts(const struct opts *o, int ranks, int steps, const char *phases, bool disjoint)
{
	struct run *run = run_open(NULL, 0, o, NULL);
	struct steps_model *m = steps_model_get(run);
	int ph[4], nph = 0;
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", phases);
	for (char *save, *t = strtok_r(buf, ",", &save); t && nph < 4; t = strtok_r(NULL, ",", &save))
		ph[nph++] = steps_metric_intern(m, METRIC_PHASE, t);
	for (int r = 0; r < ranks; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, NULL);
		for (int s = 0; s < steps; s++) {
			size_t pos = rank_append(rs, s + (disjoint ? 100 * r : 0), 1000.0 + s, true);
			for (int k = 0; k < nph; k++)
				rank_set(rs, pos, ph[k], 0.01 * (k + 1) * (1 + 0.01 * s));
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

/* The same with default options. */
static struct run *steps_run(int ranks, int steps, const char *phases, bool disjoint)
{
	static const struct opts o;
	return steps_run_opts(&o, ranks, steps, phases, disjoint);
}

static void test_steps(void)
{
	struct run *run = steps_run(1, 5, "forward,comm", false);
	check_items(run, "one rank of 5 steps, forward and comm");
	run_free(run);
	run = steps_run(1, 5, "step", false);
	check_items(run, "one rank, its step time alone");
	run_free(run);
	run = steps_run(2, 5, "forward,comm", false);
	check_items(run, "two ranks of 5 aligned steps");
	run_free(run);
	run = steps_run(2, 5, "forward", false);
	check_items(run, "two ranks without comm");
	run_free(run);
	run = steps_run(2, 5, "forward,comm", true);
	check_items(run, "two ranks with no step in common");
	run_free(run);
}

/* Rule id (len bytes) is tscope-tui's own: --compat pytscope does not run it. */
static bool native_id(const char *id, size_t len)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t i = 0; i < registry[s]->nrules; i++)
			if (strlen(registry[s]->rules[i].id) == len && strncmp(registry[s]->rules[i].id, id, len) == 0)
				return registry[s]->rules[i].native;
	return false;
}

/* run's items name a rule across ranks (DIST., NODE.); with native, only native ones
 * count, else any. Under --compat pytscope each is said. */
static bool names_across(struct run *run, bool native)
{
	struct not_judged nj = { 0 };
	bool found = false;
	findings_not_judged_list(run, &nj);
	for (size_t i = 0; i < nj.n; i++)
		for (const char *p = nj.v[i].ids; *p;) {
			size_t len = strcspn(p, " ");
			bool across = strncmp(p, "DIST.", 5) == 0 || strncmp(p, "NODE.", 5) == 0;
			if (across && (!native || native_id(p, len))) {
				if (run->opts->compat_pytscope) /* natively expected */
					printf("# \"%.*s\" in \"%s\"\n", (int)len, p, nj.v[i].text);
				found = true;
			}
			p += len + (p[len] == ' ');
		}
	findings_not_judged_free(&nj);
	return found;
}

/* Under --compat pytscope only pytscope's rules run, and those across ranks weigh every
 * aligned step they are given, whatever it holds: on two ranks of one node (--ranks-per-node
 * 2) with every step aligned, no item names a rule across ranks (natively: the node, the
 * stalls, too few steps for the noise test, a compute that leaves out most of the phase
 * time, no comm phase), nor one of
 * tscope-tui's rules on ranks with no step in common. */
static void test_compat(void)
{
	static const struct opts native = { .ranks_per_node = 2 };
	static const struct opts compat = { .ranks_per_node = 2, .compat_pytscope = true };
	static const struct {
		int steps;
		const char *phases, *what;
	} runs[] = { { 20, "forward,comm", "one node, two ranks" }, { 5, "forward,comm", "5 aligned steps" },
		     { 20, "forward,foo", "compute leaving out a phase" }, { 20, "forward", "no comm phase" } };
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		struct run *run = steps_run_opts(&native, 2, runs[i].steps, runs[i].phases, false);
		ok(names_across(run, false), "natively, %s: a rule across ranks not judged", runs[i].what);
		run_free(run);
		run = steps_run_opts(&compat, 2, runs[i].steps, runs[i].phases, false);
		ok(!names_across(run, false), "--compat pytscope, %s: every rule across ranks judged", runs[i].what);
		run_free(run);
	}
	struct run *run = steps_run_opts(&compat, 2, 5, "forward,comm", true);
	ok(!names_across(run, true), "--compat pytscope, no step in common: no native rule named");
	run_free(run);
}

static struct run *open_path(const char *path)
{
	static const struct opts o;
	const char *paths[] = { path };
	return run_open(paths, 1, &o, NULL);
}

static void test_files(const char *dir)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/t", dir);
	tu_make_dir(path);
	static const char trace[] = "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
				    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, "
				    "\"tid\": 1, \"ts\": 10, \"dur\": 5}]}\n";
	snprintf(path, sizeof(path), "%s/t/rank0.pt.trace.json", dir);
	tu_write_file(path, trace, strlen(trace));
	snprintf(path, sizeof(path), "%s/t", dir);
	struct run *run = open_path(path);
	check_items(run, "a trace without a GPU kernel");
	run_free(run);

	char *fx = tu_source_path("tests/unit/fixtures/sweep/checkpoint.json");
	run = open_path(fx);
	check_items(run, "a sweep of 2 levels");
	run_free(run);
	free(fx);

	static const char nat[] = "{\"calc_data\":{\"1\":{\"sizing_metrics\":{\"llm_latency_p95\":5,"
				  "\"workflow_runtime_p95\":5}}}}\n";
	snprintf(path, sizeof(path), "%s/nat", dir);
	tu_make_dir(path);
	snprintf(path, sizeof(path), "%s/nat/calc_runner_output.json", dir);
	tu_write_file(path, nat, strlen(nat));
	run = open_path(path);
	check_items(run, "a NAT sizing of one concurrency");
	run_free(run);

	static const char cb[] = "{\"samples_per_sec\": 200.0, \"total_samples\": 2000, \"total_time\": 10.0}\n";
	snprintf(path, sizeof(path), "%s/cb", dir);
	tu_make_dir(path);
	snprintf(path, sizeof(path), "%s/cb/performance.json", dir);
	tu_write_file(path, cb, strlen(cb));
	snprintf(path, sizeof(path), "%s/cb", dir);
	run = open_path(path);
	check_items(run, "a Cerebras file without ordinals");
	run_free(run);

	snprintf(path, sizeof(path), "%s/d", dir);
	tu_make_dir(path);
	snprintf(path, sizeof(path), "%s/d/p-TracePlugin-h.msgpack", dir);
	struct dw w;
	if (dw_open(&w, path) == 0) {
		dw_compute(&w, &(struct dw_task){ "h", "worker-h-0", "f-0", "f", 1, 1.0, 1, DW_NONE, DW_NONE });
		dw_close(&w);
	}
	snprintf(path, sizeof(path), "%s/d", dir);
	run = open_path(path);
	check_items(run, "a DASF database of one task");
	run_free(run);
}

/* Every rule but those that always judge is named by some item above. */
static void test_coverage(void)
{
	bool good = true;
	for (size_t s = 0; s < registry_count; s++)
		for (size_t i = 0; i < registry[s]->nrules; i++) {
			const char *id = registry[s]->rules[i].id;
			bool always = false;
			for (size_t k = 0; k < ARRAY_LEN(always_judged); k++)
				always |= strcmp(id, always_judged[k]) == 0;
			char word[64];
			snprintf(word, sizeof(word), " %s", id);
			const char *at = strstr(seen, word);
			bool named = at && (at[strlen(word)] == ' ' || at[strlen(word)] == '\0');
			if (!always && !named) {
				printf("# %s: named by no not-judged item\n", id);
				good = false;
			}
		}
	ok(good, "every rule that can be not judged is named by an item");
}

int main(void)
{
	char dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "notjudged")) {
		ok(false, "a scratch directory");
		return tap_done();
	}
	test_steps();
	test_compat();
	test_files(dir);
	test_coverage();
	tu_rm_rf(dir);
	return tap_done();
}
