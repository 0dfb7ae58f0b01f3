/* SPDX-License-Identifier: MIT */
/* test_meta_tokens.c: run.json's one-pass tokenizer (steps_meta_tokenize, load_meta.c)
 * gives exactly the tokens jsmn gives (json_parse: type, span, size, parent) on every
 * document it takes: hand-written run.json shapes and thousands of random valid
 * documents; and it leaves to jsmn what it must not take (escapes, control bytes,
 * trailing data or commas, too many tokens or levels, invalid JSON). */
#include <stdio.h>
#include <stdlib.h>
#include "model/json.h"
#include "model/steps/internal.h"
#include "tests/tap.h"

/* Tokens of the tokenizer equal jsmn's for js; false (and a note) on the first
 * difference or when either refuses. */
static bool same_tokens(const char *js)
{
	struct json_doc a, b;
	json_doc_init(&a);
	json_doc_init(&b);
	size_t len = strlen(js);
	bool fast = steps_meta_tokenize(&a, js, len);
	int rc = json_parse(&b, js, len);
	bool same = fast && rc == a.ntok;
	for (int i = 0; same && i < a.ntok; i++) {
		const jsmntok_t *x = &a.tok[i], *y = &b.tok[i];
		same = x->type == y->type && x->start == y->start && x->end == y->end && x->size == y->size &&
		       x->parent == y->parent;
		if (!same)
			fprintf(stderr, "# token %d differs in %s\n", i, js);
	}
	json_doc_free(&a);
	json_doc_free(&b);
	return same;
}

static bool refused(const char *js)
{
	struct json_doc d;
	json_doc_init(&d);
	bool fast = steps_meta_tokenize(&d, js, strlen(js));
	json_doc_free(&d);
	return !fast;
}

/* A random valid value of depth at most `depth` appended to *s (within cap). */
static void rand_value(char *s, size_t *n, size_t cap, int depth, unsigned *seed)
{
	static const char *const prims[] = { "0", "-1", "3.25", "1e-7", "-2.5E+3", "true", "false",
					     "null", "NaN", "Infinity", "-Infinity", "12000000000000.0" };
	static const char *const strs[] = { "", "a", "gpu", "NVIDIA A100-SXM4-80GB", "caf\xc3\xa9", "x y:z,{}[]" };
	static const char *const ws[] = { "", " ", "\n  ", "\t", "\r\n" };
	int kind = depth > 0 ? rand_r(seed) % 4 : rand_r(seed) % 2;
	if (*n + 256 > cap)
		kind = 0;
	if (kind == 0) {
		*n += (size_t)snprintf(s + *n, cap - *n, "%s", prims[rand_r(seed) % 12]);
	} else if (kind == 1) {
		*n += (size_t)snprintf(s + *n, cap - *n, "\"%s\"", strs[rand_r(seed) % 6]);
	} else {
		bool obj = kind == 2;
		int members = rand_r(seed) % 5;
		s[(*n)++] = obj ? '{' : '[';
		for (int i = 0; i < members && *n + 256 < cap; i++) {
			*n += (size_t)snprintf(s + *n, cap - *n, "%s%s", i ? "," : "", ws[rand_r(seed) % 5]);
			if (obj)
				*n += (size_t)snprintf(s + *n, cap - *n, "\"k%d\"%s:%s", rand_r(seed) % 4,
						       ws[rand_r(seed) % 5], ws[rand_r(seed) % 5]);
			rand_value(s, n, cap, depth - 1, seed);
			*n += (size_t)snprintf(s + *n, cap - *n, "%s", ws[rand_r(seed) % 5]);
		}
		s[(*n)++] = obj ? '}' : ']';
		s[*n] = '\0';
	}
}

int main(void)
{
	ok(same_tokens("{\n  \"name\": \"demo-ddp\",\n  \"config\": {\n    \"model\": \"gpt2-medium\",\n"
		       "    \"batch_size\": 16\n  },\n  \"rank\": 0,\n  \"world_size\": 64,\n  \"environment\": {\n"
		       "    \"python\": \"3.11.9\",\n    \"cuda_available\": true,\n    \"gpu_count\": 8,\n"
		       "    \"env\": {\"OMP_NUM_THREADS\": \"8\", \"NCCL_DEBUG\": null}\n  },\n"
		       "  \"started\": 1795344000.0,\n  \"flops_per_step\": 12000000000000.0,\n"
		       "  \"peak_flops\": 312000000000000.0,\n  \"wall_time\": 15.488,\n  \"n_steps\": 128\n}\n"),
	   "a gen_demo run.json: jsmn's tokens");
	ok(same_tokens("{}") && same_tokens(" { } ") && same_tokens("{\"a\":{}}") && same_tokens("{\"a\":[]}"),
	   "empty objects and arrays");
	ok(same_tokens("{\"config\": {\"layers\": [1, [2, {\"x\": [3]}], {}], \"opt\": {\"lr\": 1e-4}}}"),
	   "config with nested arrays and objects");
	ok(same_tokens("{\"a\": 1, \"a\": 2, \"wall_time\": NaN, \"w\": -Infinity, \"b\": [true, false, null]}"),
	   "repeated keys, NaN, Infinity, literals");
	ok(same_tokens("{\"k\": \"\xe2\x9c\x93 \xf0\x9f\x98\x80\", \"\": \"\"}"), "UTF-8 bytes and empty strings");

	ok(refused("{\"name\": \"a\\\"b\"}") && refused("{\"p\": \"C:\\\\x\"}"), "escapes are left to jsmn");
	ok(refused("{\"a\": \"x\ty\"}"), "a control byte in a string is left to jsmn");
	bool all = true;
	for (int at = 0; at < 24; at++) { /* the word-at-a-time scan: every position of a long string */
		char js[64], plain[64];
		snprintf(plain, sizeof(plain), "{\"k\": \"%.*s\"}", at, "abcdefghijklmnopqrstuvwxyz");
		all = all && same_tokens(plain);
		for (int c = 0; c < 3; c++) {
			snprintf(js, sizeof(js), "{\"k\": \"%.*s%s0123456789\"}", at, "abcdefghijklmnopqrstuvwxyz",
				 c == 0 ? "\\\"" : c == 1 ? "\\n" : "\x01");
			all = all && refused(js);
		}
	}
	ok(all, "long strings: plain ones taken at every length, an escape or control byte at any offset left to jsmn");
	ok(refused("{\"a\": 1} x") && refused("{\"a\": 1}{}"), "trailing data is left to jsmn");
	ok(refused("{\"a\": 1,}") && refused("[1, 2]") && refused("\"s\"") && refused(""), "a trailing comma, not an object");
	ok(refused("{\"a\" 1}") && refused("{\"a\": 1 \"b\": 2}") && refused("{\"a\": }") && refused("{a: 1}") &&
	       refused("{\"a\": [1 2]}") && refused("{\"a\": 1") && refused("{\"a\": \"x"),
	   "invalid JSON is left to jsmn");
	ok(refused("{\"a\": 1\"}") && refused("{\"a\": tr$ue}") && refused("{\"a\": 1:2}"), "odd primitives are left to jsmn");
	char deep[256] = "{\"a\":";
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	for (int i = 0; i < 40; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	ok(refused(deep), "more than 32 levels are left to jsmn");
	char many[2048] = "{\"a\": [";
	for (int i = 0; i < 130; i++)
		strcat(many, i ? ",1" : "1");
	strcat(many, "]}");
	ok(refused(many), "more than the inline tokens are left to jsmn");

	unsigned seed = 17;
	int bad = 0, taken = 0;
	static char doc[16384];
	for (int i = 0; i < 5000; i++) {
		size_t n = 0;
		doc[n++] = '{';
		int members = rand_r(&seed) % 6;
		for (int m = 0; m < members; m++) {
			n += (size_t)snprintf(doc + n, sizeof(doc) - n, "%s\"f%d\": ", m ? ", " : "", rand_r(&seed) % 9);
			rand_value(doc, &n, sizeof(doc) - 8, 4, &seed);
		}
		doc[n++] = '}';
		doc[n] = '\0';
		if (refused(doc))
			continue; /* over the inline tokens */
		taken++;
		bad += !same_tokens(doc);
	}
	ok(bad == 0 && taken > 4000, "random valid documents: jsmn's tokens (%d of %d differ)", bad, taken);
	return tap_done();
}
