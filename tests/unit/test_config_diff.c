/* SPDX-License-Identifier: MIT */
/* test_config_diff.c: model/steps/config_diff.c over small generated run dirs: the keys
 * a minority of ranks set otherwise are named with the lowest such rank, its value, the
 * most common value and the count; with no majority (a key set per rank, two ranks, ranks
 * split half and half) against the lowest rank when no key has a minority; keys in another
 * order or absent, ranks without run.json and the lowest rank as the odd one; in the
 * environment, the software and hardware keys only (not a hostname nor env.*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/steps/config_diff.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char dir[2048];

/* A run of n ranks, each with one step record and (config[r] not NULL) a run.json whose
 * config object is config[r] and environment env[r] (env NULL: none); loaded, the diff
 * of scope into *c. */
static bool diff_in(int n, const char *const *config, const char *const *env, enum diff_scope scope,
		    struct config_diff *c)
{
	char run[4096], rdir[4200];
	static int k;
	snprintf(run, sizeof(run), "%s/run%d", dir, k++);
	tu_make_dir(run);
	for (int r = 0; r < n; r++) {
		tu_rank_dir(rdir, sizeof(rdir), run, r);
		FILE *f = tu_create_in(rdir, "steps.jsonl");
		fprintf(f, "{\"step\":0,\"phases\":{\"forward\":0.1}}\n");
		fclose(f);
		if (!config[r])
			continue;
		f = tu_create_in(rdir, "run.json");
		fprintf(f, "{\"name\":\"t\",\"rank\":%d,\"world_size\":%d,\"config\":%s,\"environment\":%s}\n", r, n,
			config[r], env ? env[r] : "{}");
		fclose(f);
	}
	const char *paths[] = { run };
	static const struct opts o = { .no_index = true };
	struct run *rn = run_open(paths, 1, &o, NULL);
	bool found = rn && rn->steps && steps_config_diff(rn->steps, scope, c);
	if (found) { /* the strings live in the model: keep copies past its end */
		static char key[64], value[64], others[64];
		snprintf(key, sizeof(key), "%s", c->key);
		snprintf(value, sizeof(value), "%s", c->value);
		snprintf(others, sizeof(others), "%s", c->others);
		c->key = key;
		c->value = value;
		c->others = others;
	}
	run_free(rn);
	return found;
}

static bool diff_of(int n, const char *const *config, struct config_diff *c)
{
	return diff_in(n, config, NULL, DIFF_CONFIG, c);
}

static bool is(const struct config_diff *c, size_t first, const char *key, const char *value, const char *others,
	       size_t ndiff, size_t n, const char *keys)
{
	return c->first == first && strcmp(c->key, key) == 0 && strcmp(c->value, value) == 0 &&
	       strcmp(c->others, others) == 0 && c->ndiff == ndiff && c->n == n && strcmp(c->keys, keys) == 0;
}

int main(void)
{
	if (!tu_mkdtemp(dir, sizeof(dir), "config_diff.")) {
		perror("mkdtemp");
		return 1;
	}
	struct config_diff c;
	const char *same[] = { "{\"bs\":16}", "{\"bs\":16}", "{\"bs\":16}", "{\"bs\":16}" };
	ok(!diff_of(4, same, &c), "one config on every rank: nothing named");
	const char *one[] = { "{\"bs\":16,\"lr\":1}", "{\"bs\":16,\"lr\":1}", "{\"bs\":32,\"lr\":1}", "{\"bs\":16,\"lr\":1}" };
	ok(diff_of(4, one, &c) && is(&c, 2, "bs", "32", "16", 1, 4, "bs") && !c.split,
	   "rank 2's bs: named with the others' value");
	const char *low[] = { "{\"bs\":8}", "{\"bs\":16}", "{\"bs\":16}", "{\"bs\":16}" };
	ok(diff_of(4, low, &c) && is(&c, 0, "bs", "8", "16", 1, 4, "bs") && c.ranks[0] == '\0',
	   "the lowest rank the odd one: named so (the one rank named: no list)");
	const char *per_rank[] = { "{\"bs\":16,\"local_rank\":0}", "{\"bs\":16,\"local_rank\":1}",
				   "{\"bs\":16,\"local_rank\":2}", "{\"bs\":16,\"local_rank\":3}" };
	ok(diff_of(4, per_rank, &c) && is(&c, 1, "local_rank", "1", "0", 3, 4, "local_rank") && c.split &&
	   strcmp(c.ranks, "1-3") == 0,
	   "a key set per rank: no majority, named against the lowest rank");
	const char *both[] = { "{\"bs\":16,\"local_rank\":0}", "{\"bs\":16,\"local_rank\":1}",
			       "{\"bs\":32,\"local_rank\":2}", "{\"bs\":16,\"local_rank\":3}" };
	ok(diff_of(4, both, &c) && is(&c, 2, "bs", "32", "16", 1, 4, "bs") && !c.split,
	   "a minority and a key set per rank: only the minority's key named");
	const char *two[] = { "{\"bs\":16}", "{\"bs\":32}" };
	ok(diff_of(2, two, &c) && is(&c, 1, "bs", "32", "16", 1, 2, "bs") && c.split,
	   "two ranks: no majority, rank 1 named against rank 0");
	const char *alt[40];
	for (int r = 0; r < 40; r++)
		alt[r] = r % 2 ? "{\"bs\":32}" : "{\"bs\":16}";
	ok(diff_of(40, alt, &c) && c.split && c.ndiff == 20 && c.ranks[0] == '\0',
	   "20 ranks that differ, every other one: their list does not fit, none given (%s)", c.ranks);
	const char *order[] = { "{\"bs\":16,\"lr\":1}", "{\"lr\":1,\"bs\":16}", "{\"bs\":16,\"lr\":1}",
				"{\"bs\":16,\"lr\":1}" };
	ok(!diff_of(4, order, &c), "the same keys and values in another order: nothing named");
	const char *absent[] = { "{\"bs\":16,\"lr\":1}", "{\"bs\":16,\"lr\":1}", "{\"lr\":1}", "{\"bs\":16,\"lr\":2}",
				 "{\"bs\":16,\"lr\":1}" };
	ok(diff_of(5, absent, &c) && is(&c, 2, "bs", "(none)", "16", 2, 5, "bs, lr") && strcmp(c.ranks, "2-3") == 0,
	   "a key absent on a rank and another value on one more: both keys, both ranks (%s)", c.keys);
	const char *swap[] = { "{\"bs\":16,\"lr\":1}", "{\"bs\":16,\"wd\":1}", "{\"bs\":16,\"lr\":1}",
			       "{\"lr\":1,\"bs\":16}" };
	ok(diff_of(4, swap, &c) && is(&c, 1, "lr", "(none)", "1", 1, 4, "lr, wd"),
	   "a rank with as many keys but another one (wd for lr): both keys named (%s)", c.keys);
	const char *no_json[] = { "{\"bs\":16}", NULL, "{\"bs\":16}", "{\"bs\":16}", "{\"bs\":64}" };
	ok(diff_of(5, no_json, &c) && is(&c, 4, "bs", "64", "16", 1, 4, "bs"),
	   "a rank without run.json is not counted (1 of 4)");
	const char *none0[] = { NULL, "{\"bs\":16}", "{\"bs\":32}", "{\"bs\":16}" };
	ok(!diff_of(4, none0, &c), "no run.json on the lowest rank: nothing judged");
	const char *empty[] = { "{}", "{\"bs\":16}", "{\"bs\":16}", "{\"bs\":16}" };
	ok(diff_of(4, empty, &c) && is(&c, 0, "bs", "(none)", "16", 1, 4, "bs"), "an empty config on one rank");
	const char *cfg[] = { "{}", "{}", "{}", "{}", "{}" };
	const char *gpu[] = { "{\"gpu\":\"A100-80GB\",\"hostname\":\"n0\",\"env\":{\"X\":\"0\"}}",
			      "{\"gpu\":\"A100-80GB\",\"hostname\":\"n0\",\"env\":{\"X\":\"1\"}}",
			      "{\"gpu\":\"A100-80GB\",\"hostname\":\"n1\",\"env\":{\"X\":\"0\"}}",
			      "{\"gpu\":\"A100-40GB\",\"hostname\":\"n1\",\"env\":{\"X\":\"0\"}}",
			      "{\"gpu\":\"A100-80GB\",\"hostname\":\"n1\",\"env\":{\"X\":\"0\"}}" };
	ok(diff_in(5, cfg, gpu, DIFF_ENV, &c) && is(&c, 3, "gpu", "A100-40GB", "A100-80GB", 1, 5, "gpu"),
	   "environment: rank 3's gpu named; its hostname (2 of 5 differ) and env.X (1 of 5) are not weighed (%s)",
	   c.keys);
	ok(!diff_in(5, cfg, gpu, DIFF_CONFIG, &c), "... and the config scope sees none of it");
	const char *half[] = { "{\"gpu\":\"A100\",\"torch\":\"2.4\"}", "{\"gpu\":\"H100\",\"torch\":\"2.5\"}",
			       "{\"gpu\":\"A100\",\"torch\":\"2.4\"}", "{\"gpu\":\"H100\",\"torch\":\"2.5\"}" };
	ok(diff_in(4, cfg, half, DIFF_ENV, &c) && is(&c, 1, "gpu", "H100", "A100", 2, 4, "gpu, torch") && c.split,
	   "environment split half and half: both keys named against rank 0, 2 of 4 differ (%s)", c.keys);
	ok(!diff_in(5, gpu, NULL, DIFF_ENV, &c), "no environment anywhere: nothing named");
	tu_rm_rf(dir);
	return tap_done();
}
