/* SPDX-License-Identifier: MIT */
/* test_core.c: unit tests for the core model modules: text sanitizer, json getters (a key
 * given twice: the last), tables (sort, a severity column's order, filter, CSV),
 * diagnostics, the run's source list; a path as a shell word. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "model/diag.h"
#include "model/json.h"
#include "model/run.h"
#include "model/table.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static void test_sanitize(void)
{
	char out[256];
	text_sanitize("a\x1b[31mred\x07", 10, out, sizeof(out), 0);
	is_str(out, "a^[[31mred^G", "ESC and BEL become caret notation");
	text_sanitize("x\xc2\x9b" "2J", 5, out, sizeof(out), 0);
	is_str(out, "x\\x9b2J", "C1 CSI becomes \\x9b");
	text_sanitize("\xe2\x80\xae" "evil", 7, out, sizeof(out), 0);
	is_str(out, "<U+202E>evil", "bidi override is made visible");
	text_sanitize("ok\xff", 3, out, sizeof(out), 0);
	is_str(out, "ok\xef\xbf\xbd", "invalid byte becomes U+FFFD");
	text_sanitize("caf\xc3\xa9", 5, out, sizeof(out), TEXT_ASCII);
	is_str(out, "caf?", "ASCII mode replaces non-ASCII");
	const char *typo = "MFU is 3% \xe2\x80\x94 97% \xc2\xb7 R\xc2\xb2 "
			   "\xe2\x89\xa5 16 \xe2\x86\x92 x\xe2\x80\xa6 5\xc3\x97";
	text_sanitize(typo, strlen(typo), out, sizeof(out), TEXT_ASCII);
	is_str(out, "MFU is 3% - 97% - R^2 >= 16 -> x... 5x", "ASCII mode: the program's typography as ASCII");
	text_sanitize("\xe2\x80\x94", 3, out, sizeof(out), 0);
	is_str(out, "\xe2\x80\x94", "... UTF-8 mode keeps it");
	/* a report in ASCII: glyphs by their stand-ins, ASCII bytes (SGR, tabs) as they are */
	const char *rep = "\x1b[1m\xe2\x97\x8f T\x1b[0m\t\xe2\x96\x81\xe2\x96\x84\xe2\x96\x88\xe2\x96\x91 "
			  "\xce\xa3\xe2\x80\xa6\xe2\x98\x83\xff\xe2\x96";
	size_t n = 99;
	char *a = text_ascii_dup(rep, strlen(rep), &n);
	is_str(a, "\x1b[1m* T\x1b[0m\t_-#. sum...????", "text_ascii_dup: stand-ins, '?' for others and bad bytes");
	ok(n == strlen(a), "text_ascii_dup: the length returned");
	free(a);
	a = text_ascii_dup("", 0, &n);
	ok(n == 0 && *a == '\0', "text_ascii_dup: empty in, empty out");
	free(a);
	text_sanitize("\x7f\t", 2, out, sizeof(out), 0);
	is_str(out, "^?^I", "DEL and TAB");
	text_sanitize("abcdef", 6, out, 4, 0);
	is_str(out, "abc", "truncates to the buffer");
	static const struct { const char *in, *want; } invisible[] = {
		{ "a\xc2\xad" "b", "a<U+00AD>b" },          /* soft hyphen */
		{ "\xd8\x9c" "x", "<U+061C>x" },            /* Arabic letter mark */
		{ "\xe2\x81\xa0\xe2\x81\xa4", "<U+2060><U+2064>" },
		{ "\xe2\x81\xaa\xe2\x81\xaf", "<U+206A><U+206F>" },
		{ "\xf3\xa0\x80\x81\xf3\xa0\x81\xbf", "<U+E0001><U+E007F>" }, /* tags */
		{ "\xef\xbf\xb9", "<U+FFF9>" },
	};
	for (size_t i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++) {
		char *v = text_sanitize_dup(invisible[i].in, 0);
		is_str(v, invisible[i].want, invisible[i].want);
		free(v);
	}
	is_int(text_bar_cells(1e9, 30), 30, "bar cells clamp a fraction above 1");
	is_int(text_bar_cells(-5, 30), 0, "bar cells clamp a negative fraction");
	is_int(text_bar_cells(NAN, 30), 0, "bar cells: NaN draws nothing");
	ok(fabs(text_frac(1e308, -1e308, 1.5e308) - 0.8) < 1e-12 && text_frac(1e308, -1e308, 1.5e308) <= 1,
	   "frac has no overflow over an unrepresentable span");
	ok(text_flat(0.000324 + 0.00136 + 0.012771, 0.014455) && text_flat(-1e308, -1e308) && text_flat(0, 0),
	   "flat: one value but for float noise (phases summed in another order)");
	ok(!text_flat(0.014455, 0.014456) && !text_flat(0, 1e-300) && !text_flat(-1e308, 1e308) && !text_flat(0, NAN),
	   "flat: not a real difference, however small, nor across 0, nor NaN");
	char *d = text_sanitize_dup("plain", 0);
	is_str(d, "plain", "clean text passes unchanged");
	free(d);
	is_int(text_width("ab\xe2\x96\x88"), 3, "width counts a block glyph as 1");
	is_int(text_codepoints("\xe2\x80\x94x"), 2, "codepoints");
	text_clip("abcdefgh", 5, out, sizeof(out), true, TEXT_ASCII);
	is_str(out, "abcd~", "clip with ASCII ellipsis");
}

/* A path as a shell word: as it is when every byte is plain, else in single quotes
 * (' as '\''), but one the sanitizer would rewrite in $'...' (ASCII, byte escapes);
 * one beginning with - after ./ (never read as an option). An option's value
 * (text_shell_arg_dup): the same quoting, a leading - kept. */
static void test_shell_word(void)
{
	static const struct { const char *in, *want; } words[] = {
		{ "runs/a-1.b_c,d:e@f%g+h=i", "runs/a-1.b_c,d:e@f%g+h=i" },
		{ "fold/\xc3\xbcn\xc3\xaf", "fold/\xc3\xbcn\xc3\xaf" },
		{ "run with space", "'run with space'" },
		{ "it's", "'it'\\''s'" },
		{ "''", "''\\'''\\'''" },
		{ "$HOME;~*?", "'$HOME;~*?'" },
		{ "", "''" },
		{ "-dashrun", "./-dashrun" },
		{ "-run with space", "'./-run with space'" },
		/* what the sanitizer would rewrite: $'...', ASCII, the same bytes once read */
		{ "e\x1b[2J", "$'e\\x1b[2J'" },
		{ "p/tab\there", "$'p/tab\\there'" },
		{ "bad\nname\r", "$'bad\\nname\\r'" },
		{ "a\xe2\x80\xaez", "$'a\\xe2\\x80\\xaez'" },          /* U+202E */
		{ "zw\xe2\x80\x8b", "$'zw\\xe2\\x80\\x8b'" },          /* U+200B */
		{ "\xc2\x9b" "31m", "$'\\xc2\\x9b\\x33\\x31m'" },        /* C1, then hex digits */
		{ "\xff\xfe", "$'\\xff\\xfe'" },                          /* not UTF-8 */
		{ "it's\\\a\x7f", "$'it\\'s\\\\\\x07\\x7f'" },
		{ "\xe5\xa4\xa7\t", "$'\\xe5\\xa4\\xa7\\t'" },           /* all ASCII */
		{ "-\x1b", "$'./-\\x1b'" },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char *w = text_shell_word_dup(words[i].in);
		is_str(w, words[i].want, words[i].want);
		free(w);
	}
	/* an option's value: quoted the same, but a leading - as it is (--sort -COL) */
	static const struct { const char *in, *want; } args[] = {
		{ "-step_time_ms", "-step_time_ms" }, { "rank=7 step>=100", "'rank=7 step>=100'" },
		{ "-'data ms'", "'-'\\''data ms'\\'''" }, { "-\x1b", "$'-\\x1b'" }, { "", "''" },
	};
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		char *w = text_shell_arg_dup(args[i].in);
		is_str(w, args[i].want, args[i].want);
		free(w);
	}
}

/* json_int parses integers exactly: no detour through a double above 2^53. */
static void test_json_int(void)
{
	struct json_doc d;
	json_doc_init(&d);
	const char *s = "[9007199254740993,-9007199254740993,9223372036854775807,"
			"-9223372036854775808,9223372036854775808,-9223372036854775809,"
			"1700000000123456789,5.0,1e3,9007199254740993.0,1.5,\"7\",true,-,0]";
	ok(json_parse(&d, s, strlen(s)) > 0, "json_int fixture parses");
	long long v = 0;
	int t = json_first(&d, 0);
	ok(json_int(&d, t, &v) && v == 9007199254740993LL, "2^53+1 is exact");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == -9007199254740993LL, "-(2^53+1) is exact");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == LLONG_MAX, "INT64_MAX");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == LLONG_MIN, "INT64_MIN");
	t = json_next(&d, 0, t);
	v = 42;
	ok(!json_int(&d, t, &v) && v == 42, "INT64_MAX+1 overflows: false, out untouched");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "INT64_MIN-1 overflows: false");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == 1700000000123456789LL, "nanosecond timestamp is exact");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == 5, "5.0 is an integer");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == 1000, "1e3 is an integer");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "float spelling above 2^53 is rejected (not exact)");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "1.5 is not an integer");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "a string is not an integer");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "true is not an integer");
	t = json_next(&d, 0, t);
	ok(!json_int(&d, t, &v), "a lone '-' is not an integer");
	t = json_next(&d, 0, t);
	ok(json_int(&d, t, &v) && v == 0, "0");
	json_doc_free(&d);
}

static void test_json(void)
{
	struct json_doc d;
	json_doc_init(&d);
	const char *s = "{\"step\":5,\"x\":NaN,\"y\":-Infinity,\"s\":\"a\\u00e9\\n\",\"o\":{\"k\":[1,2,3]},\"z\":1e-05}";
	int n = json_parse(&d, s, strlen(s));
	ok(n > 0, "parses an object with NaN/-Infinity");
	long long step;
	ok(json_int(&d, json_get(&d, 0, "step"), &step) && step == 5, "int getter");
	double v;
	ok(json_number(&d, json_get(&d, 0, "x"), &v) && isnan(v), "NaN literal");
	ok(json_number(&d, json_get(&d, 0, "y"), &v) && isinf(v) && v < 0, "-Infinity literal");
	ok(json_number(&d, json_get(&d, 0, "z"), &v) && v == 1e-05, "exponent");
	char *str = json_strdup(&d, json_get(&d, 0, "s"));
	is_str(str, "a\xc3\xa9\n", "string unescape");
	free(str);
	int o = json_get(&d, 0, "o");
	int arr = json_get(&d, o, "k");
	int cnt = 0;
	for (int k = json_first(&d, arr); k >= 0; k = json_next(&d, arr, k))
		cnt++;
	is_int(cnt, 3, "array walk");
	ok(json_get(&d, 0, "missing") < 0, "missing key");
	ok(json_parse(&d, "{\"a\":1", 6) == JSON_EPART, "truncated input is EPART");
	/* jsmn (not strict) takes a key without a value: its "value" would be the next token
	 * or one past the last (a fuzzed run.json read stale tokens) */
	static const char *const unpaired[] = { "{\"b\"}", "{\"a\": 1, \"b\"}", "{\"a\" \"b\"}",
						 "{\"c\": {/ \"m\" 0 \"b\"}}", "[{\"x\"}]" };
	for (size_t i = 0; i < ARRAY_LEN(unpaired); i++) {
		int rc = json_parse(&d, unpaired[i], strlen(unpaired[i]));
		ok(rc == JSON_EINVAL && d.ntok == 0, "a key without a value is invalid JSON: %s", unpaired[i]);
	}
	const char *nested = "{\"a\": {\"b\": []}, \"c\": [{}]}";
	ok(json_parse(&d, nested, strlen(nested)) == 8, "... nested members with values parse");
	is_int(json_skip(&d, 8), 8, "json_skip past the last token: the token count");
	char big[8192];
	size_t p = 0;
	p += (size_t)snprintf(big + p, sizeof(big) - p, "[");
	for (int i = 0; i < 500; i++)
		p += (size_t)snprintf(big + p, sizeof(big) - p, "%s%d", i ? "," : "", i);
	p += (size_t)snprintf(big + p, sizeof(big) - p, "]");
	is_int(json_parse(&d, big, p), 501, "token array grows past the inline buffer");
	ok(!json_parse_double("1.5e", 4, &v), "rejects 1.5e");
	ok(!json_parse_double("01", 2, &v), "rejects leading zero");
	ok(!json_parse_double("nul", 3, &v), "rejects nul");
	ok(json_parse_double("0.012209579", 11, &v) && v == 0.012209579, "fast path exact");
	ok(json_parse_double("1795344081.2502363", 18, &v) && v == 1795344081.2502363, "17 digits exact");
	ok(json_parse_double("12345678901234567890123", 23, &v) && v == 12345678901234567890123.0, "long mantissa via strtod");
	json_doc_free(&d);
}

/* The token after i's subtree, walked one token at a time (json_skip's reference). */
static int skip_linear(const struct json_doc *d, int i)
{
	int j = i + 1;
	while (j < d->ntok && d->tok[j].start < d->tok[i].end)
		j++;
	return j;
}

/* A key given twice: json_get gives the last one's value (Python's json keeps it),
 * json_dup_key names the key given again first; json_skip over any subtree is the linear
 * walk's. */
static void test_json_dup(void)
{
	struct json_doc d;
	json_doc_init(&d);
	const char *s = "{\"a\": 1, \"b\": [1, {\"c\": 2}], \"a\": {\"x\": 3}, \"b\": 4, \"a\": 5, "
			"\"d\": {\"e\": 6, \"e\": 7}}";
	ok(json_parse(&d, s, strlen(s)) > 0, "parses an object with keys given twice");
	long long v;
	ok(json_int(&d, json_get(&d, 0, "a"), &v) && v == 5, "json_get: the last of a key given three times");
	ok(json_int(&d, json_get(&d, 0, "b"), &v) && v == 4, "... and of one given twice");
	ok(json_int(&d, json_get(&d, json_get(&d, 0, "d"), "e"), &v) && v == 7, "... in a nested object too");
	int first, again = json_dup_key(&d, 0, &first);
	ok(again >= 0 && json_eq(&d, again, "a") && json_eq(&d, first, "a") && d.tok[first].start == 2 &&
	   d.tok[again].start == 30, "json_dup_key: the key given again first, and its first place");
	ok(json_dup_key(&d, json_get(&d, 0, "d"), &first) >= 0 && json_eq(&d, first, "e"), "... in a nested object");
	const char *one = "{\"a\": 1, \"b\": 2, \"ab\": 3}";
	json_parse(&d, one, strlen(one));
	ok(json_dup_key(&d, 0, &first) < 0 && first < 0, "... none when every key is one member's");
	bool same = true;
	const char *deep = "{\"a\": [[1, 2, [3, 4, {\"b\": [5, 6, 7, 8, 9, 10, 11]}]], {}, []], \"c\": \"x\", \"d\": [1]}";
	json_parse(&d, deep, strlen(deep));
	for (int i = 0; i < d.ntok; i++)
		same = same && json_skip(&d, i) == skip_linear(&d, i);
	ok(same, "json_skip of every token: the linear walk's");
	json_doc_free(&d);
}

static void test_table(void)
{
	struct table *t = table_new("t", "T");
	int cn = table_add_col(t, "name", COL_TEXT, 10, 0);
	int cv = table_add_col(t, "val", COL_NUM, 8, 2);
	const char *names[] = { "b", "=cmd()", "a", "c" };
	double vals[] = { 2.5, 1, 0.1, 0 };
	for (int i = 0; i < 4; i++) {
		size_t r = table_add_row(t, i);
		table_set_text(t, r, cn, names[i]);
		table_set_num_opt(t, r, cv, vals[i], i != 3);
	}
	table_sort(t, cv, true);
	is_int(t->ref[t->view[0]], 0, "sort desc: largest first");
	is_int(t->ref[t->view[3]], 3, "missing sorts last");
	char buf[64];
	table_format(t, 3, cv, buf, sizeof(buf));
	is_str(buf, "-", "missing shows as -");
	char err[128];
	ok(table_filter(t, "val>=1", err, sizeof(err)) == 0 && t->nview == 2, "numeric filter");
	ok(table_filter(t, "nosuch=1", err, sizeof(err)) < 0, "unknown column rejected");
	ok(table_filter(t, "!name=b", err, sizeof(err)) == 0 && t->nview == 3, "negated glob");
	table_filter(t, NULL, err, sizeof(err));
	table_sort(t, -1, false);
	char *path = xasprintf("%s/t.csv", tu_tmp_base());
	unlink(path);
	ok(table_export_file(t, path, false, 0) == 0, "export writes");
	ok(table_export_file(t, path, false, 0) < 0, "export refuses to overwrite");
	FILE *f = fopen(path, "r");
	char csv[512] = "";
	size_t n = f ? fread(csv, 1, sizeof(csv) - 1, f) : 0;
	csv[n] = '\0';
	if (f)
		fclose(f);
	is_str(csv, "name,val\nb,2.5\n'=cmd(),1\na,0.1\nc,\n", "CSV: neutralised formula, full precision, empty missing");
	unlink(path);
	free(path);
	table_free(t);
	table_format_full(0.1 + 0.2, buf, sizeof(buf));
	is_str(buf, "0.30000000000000004", "shortest round-trip precision");
}

/* A view in parts joined (the explorer's steps view): the rows in order, texts moved,
 * exact integers and missing cells kept; CSV without its header for a later part. */
static void test_table_parts(void)
{
	struct table *part[2];
	for (int k = 0; k < 2; k++) {
		struct table *t = part[k] = table_new("steps", NULL);
		int name = table_add_col(t, "name", COL_TEXT, 8, 0), step = table_add_col(t, "step", COL_INT, 5, 0);
		for (int r = 0; r < 2; r++) {
			size_t row = table_add_row(t, 10 * k + r);
			char text[16];
			snprintf(text, sizeof(text), "r%d", 10 * k + r);
			table_set_text(t, row, name, text);
			if (k == 0 || r == 0)
				table_set_int(t, row, step, 9007199254740993LL + k);
		}
	}
	table_append_take(part[0], part[1]);
	struct table *t = part[0];
	char csv[256] = "";
	FILE *f = fmemopen(csv, sizeof(csv) - 1, "w");
	table_write_csv(t, f, TABLE_CSV_NO_HEADER);
	fclose(f);
	is_str(csv, "r0,9007199254740993\nr1,9007199254740993\nr10,9007199254740994\nr11,\n",
	       "parts joined: rows in order, texts, exact integers, a missing cell; no header");
	ok(t->nrow == 4 && t->nview == 4 && t->ref[2] == 10 && t->ref[3] == 11, "... their refs, all visible");
	table_free(t);
}

/* A severity column sorts by severity (high > med > low), not A to Z; a row without
 * one ("not judged", a missing cell) last both ways, in its order. */
static void test_table_severity(void)
{
	struct table *t = table_new("findings", NULL);
	int sev = table_add_col(t, "severity", COL_TEXT, 8, 0);
	table_set_role(t, sev, COL_ROLE_SEVERITY);
	const char *v[] = { "low", "not judged", "high", "med", NULL, "high" };
	for (int i = 0; i < 6; i++)
		table_set_text(t, table_add_row(t, i), sev, v[i]);
	char got[32] = "";
	table_sort(t, sev, true);
	for (size_t i = 0; i < t->nview; i++)
		text_appendf(got, sizeof(got), "%ld", t->ref[t->view[i]]);
	is_str(got, "253014", "severity descending: high, high, med, low, then not judged and missing");
	got[0] = '\0';
	table_sort(t, sev, false);
	for (size_t i = 0; i < t->nview; i++)
		text_appendf(got, sizeof(got), "%ld", t->ref[t->view[i]]);
	is_str(got, "032514", "severity ascending: low, med, high, high, then not judged and missing");
	table_free(t);
}

static void test_diag(void)
{
	struct diag_list l;
	diag_list_init(&l);
	diag_add(&l, DIAG_WARN, "f.jsonl", 7, -1, 2, "bad %s", "line");
	char buf[128];
	diag_format(&l.v[0], buf, sizeof(buf));
	is_str(buf, "f.jsonl:7: bad line", "diag format");
	diag_list_free(&l);
}

/* xasprintf: the text whole at every length around its one-pass buffer (256). */
static void test_asprintf(void)
{
	char want[1200];
	size_t bad = 0;
	for (size_t n = 0; n < sizeof(want) - 8; n += n < 300 ? 1 : 97) {
		memset(want, 'a' + (int)(n % 26), n);
		snprintf(want + n, 8, "/%d", (int)(n % 10));
		char *got = xasprintf("%.*s/%d", (int)n, want, (int)(n % 10));
		bad += strcmp(got, want) != 0;
		free(got);
	}
	ok(bad == 0, "xasprintf: lengths 0-300 and to 1,100, whole (%zu bad)", bad);
}

/* Test source path i (one of 100 KB) into path, of room PATH_ROOM. */
#define PATH_ROOM 100100
static void source_path(size_t i, char *path)
{
	size_t len = i == 1500 ? PATH_ROOM - 1 : 20 + i % 90;
	memset(path, 'a' + (int)(i % 26), len);
	path[len] = '\0';
	int k = snprintf(path, 12, "r%zu/", i);
	path[k] = 'x';
}

/* Source paths kept back to back in blocks (run.c src_text): every path whole, across
 * block ends and for a path longer than a block; the hash taken from the argument. */
static void test_source_paths(void)
{
	struct run *run = tu_empty_run();
	static char path[PATH_ROOM];
	size_t bad = 0, n = 3000;
	for (size_t i = 0; i < n; i++) {
		source_path(i, path);
		run_add_source(run, path, "pytscope", (int)i, 1);
	}
	for (size_t i = 0; i < n; i++) {
		source_path(i, path);
		bad += strcmp(run->src[i].path, path) != 0 || run->src[i].path_hash != run_path_hash(path);
	}
	ok(run->nsrc == n && bad == 0, "3,000 source paths (one of 100 KB) read back whole (%zu bad)", bad);
	run_free(run);
}

int main(void)
{
	test_sanitize();
	test_shell_word();
	test_json();
	test_json_dup();
	test_json_int();
	test_table();
	test_table_parts();
	test_table_severity();
	test_diag();
	test_asprintf();
	test_source_paths();
	return tap_done();
}
