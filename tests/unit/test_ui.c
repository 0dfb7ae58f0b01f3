/* SPDX-License-Identifier: MIT */
/* test_ui.c: the explorer's pure parts (layout, keymap, action table, theme tier,
 * glyph choice) and a headless scripted session on a synthetic run whose names carry
 * escape sequences and C1 bytes: the screen and the exported CSV show only sanitized
 * text. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"
#include "ui/glyph.h"
#include "ui/keymap.h"
#include "ui/layout.h"
#include "ui/list.h"
#include "ui/theme.h"
#include "ui/ui.h"

#define HOSTILE "\x1b]0;pwned\x07\x1b[31mred\xc2\x9b" "2J"

static void test_layout(void)
{
	struct layout l = layout_compute(24, 80);
	ok(!l.too_small, "80x24 is big enough");
	is_int(l.body.y, 1, "body starts below the title row");
	is_int(l.body.h, 21, "body is rows - 3");
	is_int(l.status.y, 22, "status row");
	is_int(l.hint.y, 23, "hint row is the last row");
	ok(layout_compute(23, 80).too_small, "23 rows is too small");
	ok(layout_compute(24, 79).too_small, "79 columns is too small");
	struct heat_geom g;
	layout_heatmap(&l.body, 10, &g);
	is_int(g.cells.x, 10, "cells start after the labels");
	is_int(g.cells.w, 70, "cells take the rest of the width");
	is_int(g.cells.h, 19, "cells leave a header and a note row");
	is_int(g.note.y, l.body.y + l.body.h - 1, "note is the body's last row");
	struct rect top, bot;
	layout_split_bottom(&l.body, 7, &top, &bot);
	is_int(top.h + bot.h, l.body.h, "split keeps every row");
	is_int(bot.y, top.y + top.h, "bottom follows top");
	struct rect c = layout_center(&l.body, 100, 50);
	is_int(c.w, 50, "center clamps width");
	is_int(c.h, l.body.h, "center clamps height");
}

/* The zoom ladder: fit and its whole halvings; - after + comes back, the last - to fit. */
static void test_zoom_level(void)
{
	is_int((int)layout_zoom_level(7, 7, true), 3, "fit 7: + gives 3");
	is_int((int)layout_zoom_level(7, 3, true), 1, "... + again gives 1");
	is_int((int)layout_zoom_level(7, 1, true), 1, "... 1 is the finest");
	is_int((int)layout_zoom_level(7, 1, false), 3, "... - gives 3");
	is_int((int)layout_zoom_level(7, 3, false), 7, "... - again the fit, 7 (not 6)");
	is_int((int)layout_zoom_level(195, 97, false), 195, "fit 195: - from 97 gives 195 (not 194)");
	is_int((int)layout_zoom_level(8, 5, false), 8, "a zoom off the ladder (5, kept through a resize) joins it");
	is_int((int)layout_zoom_level(8, 5, true), 4, "... + from it gives the next finer level, 4");
}

static void test_keymap(void)
{
	int k;
	is_int(keymap_parse("<Down>x", &k), 6, "<Down> consumes 6 bytes");
	is_int(k, KEY_DOWN, "<Down> is KEY_DOWN");
	is_int(keymap_parse("<C-f>", &k), 5, "<C-f>");
	is_int(k, 6, "<C-f> is 0x06");
	is_int(keymap_parse("j", &k), 1, "a plain key");
	is_int(keymap_parse("<", &k), 1, "a lone < is a key");
	is_int(k, '<', "lone <");
	is_int(keymap_parse("<Bogus>", &k), -1, "unknown names are errors");
	is_int(keymap_parse("\xc3\xa9", &k), 2, "UTF-8 character");
	is_int(k, KEYMAP_CHAR | 0xe9, "a character >= U+0080: KEYMAP_CHAR plus its code point");
	/* U+0102 is curses' KEY_DOWN: typed at a prompt it is a letter, not a move */
	is_int(keymap_parse("\xc4\x82", &k), 2, "U+0102 parses");
	ok(k != KEY_DOWN && keymap_lookup(k) == ACT_NONE, "U+0102 is no key code and no action");
	char u[4];
	ok(keymap_utf8(k, u) == 2 && memcmp(u, "\xc4\x82", 2) == 0, "U+0102 back to its UTF-8 bytes");
	ok(keymap_utf8(KEYMAP_CHAR | 0x8282, u) == 3 && memcmp(u, "\xe8\x8a\x82", 3) == 0, "U+8282 (3 bytes)");
	is_int(keymap_utf8(KEY_DOWN, u), 0, "a KEY_* code is no character");
	is_int(keymap_utf8(27, u), 0, "Esc is no character");
	is_str(keymap_name(KEYMAP_CHAR | 0xe9), "\xc3\xa9", "a character's name is itself");
	is_int(keymap_lookup('q'), ACT_QUIT, "q quits");
	is_int(keymap_lookup('\r'), ACT_ENTER, "CR folds to Enter");
	is_int(keymap_lookup(KEY_NPAGE), ACT_PAGE_DOWN, "PgDn");
	is_int(keymap_lookup('n'), ACT_NEXT_STRAG, "n is next straggler");
	/* every default key parses, and no key is bound twice */
	int seen[512] = { 0 };
	bool parses = true, unique = true;
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		const char *s = action_info((enum action)a)->keys;
		while (*s) {
			if (*s == ' ') {
				s++;
				continue;
			}
			int n = keymap_parse(s, &k);
			if (n <= 0) {
				parses = false;
				break;
			}
			int slot = k < 256 ? k : 256 + (k % 256);
			if (seen[slot])
				unique = false;
			seen[slot] = a;
			s += n;
		}
	}
	ok(parses, "every default key in the action table parses");
	ok(unique, "no key is bound to two actions");
	is_str(keymap_name(KEY_UP), "<Up>", "key names round-trip");
}

static void test_theme_glyph(void)
{
	is_int(theme_pick(COLOR_AUTO, false, 0, false), TIER_MONO, "no colours -> mono");
	is_int(theme_pick(COLOR_AUTO, true, 256, false), TIER_256, "256 colours");
	is_int(theme_pick(COLOR_AUTO, true, 8, false), TIER_8, "8 colours");
	is_int(theme_pick(COLOR_AUTO, true, 256, true), TIER_MONO, "NO_COLOR -> mono");
	is_int(theme_pick(COLOR_256, true, 256, true), TIER_256, "--color 256 beats NO_COLOR");
	is_int(theme_pick(COLOR_8, true, 256, false), TIER_8, "--color 8");
	is_int(theme_pick(COLOR_NEVER, true, 256, false), TIER_MONO, "--color never");
	ok(glyph_pick(false, "UTF-8", "xterm")->utf8, "UTF-8 locale -> UTF-8 glyphs");
	ok(!glyph_pick(false, "ANSI_X3.4-1968", "xterm")->utf8, "LANG=C -> ASCII");
	ok(!glyph_pick(true, "UTF-8", "xterm")->utf8, "--ascii -> ASCII");
	ok(!glyph_pick(false, "UTF-8", "linux")->utf8, "TERM=linux -> ASCII");
	const struct glyphs *a = glyph_ascii();
	bool distinct = true;
	for (int i = 0; i < GLYPH_HEAT; i++)
		for (int j = i + 1; j < GLYPH_HEAT; j++)
			distinct &= strcmp(a->heat[i], a->heat[j]) != 0 && strcmp(glyph_utf8()->heat[i], glyph_utf8()->heat[j]) != 0;
	ok(distinct, "heat levels differ by glyph (readable in mono)");
	ok(theme_heat(0) == ROLE_NORMAL && theme_heat(-1) == ROLE_MISSING, "heat: level 0 is plain, < 0 missing");
	bool mild = true;
	for (int i = 2; i <= 5; i++)
		mild &= theme_heat(i) == theme_heat(1);
	ok(mild, "heat: levels 1-5 share a colour band (fewer colour changes on noisy rows)");
	ok(theme_heat(5) != theme_heat(6) && theme_heat(6) != theme_heat(7) && theme_heat(1) != ROLE_NORMAL &&
	   theme_heat(9) == theme_heat(7), "heat: three bands, 6 and 7 alone, above 7 is 7");
	bool marks = true;   /* the common low levels cost one byte on the wire in both sets */
	for (int i = 1; i <= 3; i++)
		marks &= strlen(glyph_utf8()->heat[i]) == 1 && strlen(a->heat[i]) == 1;
	ok(marks, "heat: levels 1-3 are one-byte marks in both glyph sets");
	/* the heatmap legend shows the ramp with the missing cell and the node glyphs: no
	 * level reads as one of them nor as the tables' missing "-" (one glyph, one meaning) */
	for (int set = 0; set < 2; set++) {
		const struct glyphs *g = set ? glyph_utf8() : a;
		const char *other[] = { g->missing, g->closed, g->opened, "-" };
		bool apart = true;
		for (int i = 0; i < GLYPH_HEAT; i++)
			for (size_t k = 0; k < sizeof(other) / sizeof(*other); k++)
				apart &= strcmp(g->heat[i], other[k]) != 0;
		ok(apart, "heat (%s): no level's glyph is the missing cell's, a node's or the tables' missing -",
		   set ? "UTF-8" : "ASCII");
	}
}

static struct run *hostile_run(void)
{
	static struct opts o;
	struct run *run = run_open(NULL, 0, &o, NULL);
	run_set_name(run, "run" HOSTILE);
	size_t s = run_add_source(run, "/tmp/rank0" HOSTILE "/steps.jsonl", "pytscope", 0, 100);
	run_source_done(run, s, 10, 1, 0, false);
	diag_add(&run->diags, DIAG_WARN, "/tmp/x" HOSTILE, 3, -1, 0, "bad phase name '%s'", HOSTILE);
	struct evidence ev = evidence_none();
	findings_add(&run->findings, "TEST.HOSTILE", SEV_HIGH, "phase" HOSTILE " is slow",
		     "detail" HOSTILE, "=HYPERLINK(\"http://x\")", ev);
	run->findings_done = true;
	return run;
}

static char *slurp(const char *path)
{
	char *s = tu_read_file(path);
	return s ? s : xstrdup("");
}

static bool has_raw_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == 0x1b || *p == 0x07 || *p == 0x9b)
			return true;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return true;
	}
	return false;
}

static void test_headless(void)
{
	char dir[160];
	if (!tu_mkdtemp(dir, sizeof(dir), "tscope-ui-")) {
		tap_skip("no temp dir");
		return;
	}
	char script[256], d1[256], d2[256], d3[256], d4[256], csv[256];
	snprintf(script, sizeof(script), "%s/keys", dir);
	snprintf(d1, sizeof(d1), "%s/overview.txt", dir);
	snprintf(d2, sizeof(d2), "%s/findings.txt", dir);
	snprintf(d3, sizeof(d3), "%s/sources.txt", dir);
	snprintf(d4, sizeof(d4), "%s/small.txt", dir);
	snprintf(csv, sizeof(csv), "%s/f.csv", dir);
	FILE *f = fopen(script, "w");
	fprintf(f, "# overview, findings, sources, export, too small\n:dump %s\n6\n:dump %s\n"
		   "e<C-u>%s<Enter>\n7j\n:dump %s\n:resize 20 60\n:dump %s\n:resize 24 80\nq\n",
		d1, d2, csv, d3, d4);
	fclose(f);
	setenv("TSCOPE_SCRIPT", script, 1);
	setenv("TERM", "dumb", 1);
	setenv("LINES", "24", 1);
	setenv("COLUMNS", "80", 1);
	struct run *run = hostile_run();
	struct opts o = { 0 };
	int rc = ui_run(run, &o);
	is_int(rc, 0, "headless script runs to the end");
	char *s1 = slurp(d1), *s2 = slurp(d2), *s3 = slurp(d3), *s4 = slurp(d4), *c = slurp(csv);
	ok(strstr(s1, "Overview") && strstr(s1, "is slow"), "overview shows the tabs and the finding");
	ok(strstr(s2, "TEST.HOSTILE") && strstr(s2, "detail^[]0;pwned^G"), "findings pane shows the detail, sanitized");
	if (!ok(strstr(s3, "bad phase name"), "sources pane lists the diagnostic"))
		printf("# %s\n", s3);
	if (!strstr(s2, "detail^[]0"))
		printf("# %s\n", s2);
	ok(strstr(s4, "terminal too small"), "a 60x20 screen says it is too small");
	ok(!has_raw_controls(s1) && !has_raw_controls(s2) && !has_raw_controls(s3), "no raw escape or C1 on screen");
	ok(strstr(c, "TEST.HOSTILE") != NULL, "export wrote the findings CSV");
	ok(!has_raw_controls(c), "no raw escape or C1 in the CSV");
	ok(strstr(c, "'=HYPERLINK") != NULL, "formula cells are neutralised");
	free(s1); free(s2); free(s3); free(s4); free(c);
	run_free(run);
	if (tu_rm_rf(dir) != 0)
		printf("# cleanup failed\n");
	unsetenv("TSCOPE_SCRIPT");
}

/* 64 ranks x 300 steps, rank 37 slower from step 100: more ranks than rows at 80x24. */
static struct run *wide_run(void)
{
	static struct opts o;
	struct run *run = run_open(NULL, 0, &o, NULL);
	run_set_name(run, "wide");
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	for (int r = 0; r < 64; r++) {
		struct rank_steps *rs = steps_rank_new(m, r, NULL);
		for (long s = 0; s < 300; s++) {
			size_t pos = rank_append(rs, s, 1000.0 + (double)s, true);
			double slow = (r == 37 && s >= 100) ? 1.5 : 1.0;
			rank_set(rs, pos, fwd, (double)(long)(1e7 * slow + 1000 * ((r * 7 + s * 3) % 11)) / 1e9);
			rank_set(rs, pos, comm, 0.001);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

static void test_aggregation(void)
{
	char dir[160];
	if (!tu_mkdtemp(dir, sizeof(dir), "tscope-ui-")) {
		tap_skip("no temp dir");
		return;
	}
	char script[256], d[4][256];
	snprintf(script, sizeof(script), "%s/keys", dir);
	for (int i = 0; i < 4; i++)
		snprintf(d[i], sizeof(d[i]), "%s/d%d", dir, i);
	FILE *f = fopen(script, "w");
	fprintf(f, ":dump %s\nn\n:dump %s\nz\n:dump %s\n+++\n:dump %s\n", d[0], d[1], d[2], d[3]);
	fclose(f);
	setenv("TSCOPE_SCRIPT", script, 1);
	struct run *run = wide_run();
	struct opts o = { 0 };
	is_int(ui_run(run, &o), 0, "headless session on 64 ranks");
	char *s0 = slurp(d[0]), *s1 = slurp(d[1]), *s2 = slurp(d[2]), *s3 = slurp(d[3]);
	ok(strstr(s0, "4 ranks/row, ") != NULL && strstr(s0, "(worst)") != NULL, "64 ranks in 19 rows: the note says each row holds 4 ranks, worst shown");
	ok(strstr(s0, "steps/col (worst)") != NULL || strstr(s0, "1 step/col") != NULL, "column buckets are named too");
	ok(strstr(s0, "36-39 ") != NULL, "row labels give the rank range of a bucket");
	ok(strstr(s1, "straggler 1/") && strstr(s1, "rank 37"), "n lands on rank 37");
	ok(strstr(s1, "rank 36-39  step") != NULL, "the status row names the ranks of the bucket under the cursor");
	ok(strstr(s2, "of 64 (z: all)") && strstr(s2, "rank 37  step"), "z shows one rank per row, cursor on rank 37");
	ok(strstr(s3, "1 step/col") || strstr(s3, "steps/col"), "zoom in changes the steps per column");
	free(s0); free(s1); free(s2); free(s3);
	run_free(run);
	if (tu_rm_rf(dir) != 0)
		printf("# cleanup failed\n");
	unsetenv("TSCOPE_SCRIPT");
}

/* The one list cursor: the same keys mean the same moves in every list. */
static void test_list_cursor(void)
{
	struct list_cursor c = { 0 };
	list_resize(&c, 100, 10);
	list_key(&c, ACT_DOWN);
	ok(c.sel == 1 && c.top == 0, "down: one item");
	list_key(&c, ACT_PAGE_DOWN);
	ok(c.sel == 10 && c.top == 9, "page-down: a page of rows-1, selection and window together");
	list_key(&c, ACT_PAGE_UP);
	ok(c.sel == 1 && c.top == 0, "page-up undoes page-down");
	list_key(&c, ACT_BOTTOM);
	ok(c.sel == 99 && c.top == 90, "bottom (G/End): last item, visible");
	list_key(&c, ACT_DOWN);
	ok(c.sel == 99, "no wrap past the end");
	list_key(&c, ACT_PAGE_DOWN);
	ok(c.sel == 99 && c.top == 90, "page-down at the end stays, no blank rows");
	list_key(&c, ACT_TOP);
	ok(c.sel == 0 && c.top == 0, "top (g/Home): first item");
	list_key(&c, ACT_UP);
	ok(c.sel == 0, "no wrap before the start");
	ok(!list_key(&c, ACT_SORT), "other actions are not the cursor's");
	list_jump(&c, 50);
	ok(c.sel == 50 && c.top == 45, "a jump centres the item");
	list_resize(&c, 20, 10);
	ok(c.sel == 19 && c.top == 10, "a shrinking list keeps the selection inside");
	list_resize(&c, 0, 10);
	ok(c.sel == 0 && c.top == 0, "an empty list");
	list_key(&c, ACT_DOWN);
	ok(c.sel == 0, "moves on an empty list stay at 0");
	struct list_cursor u = { .n = 5 };
	list_key(&u, ACT_PAGE_DOWN);
	ok(u.sel == 1, "unknown window: a page is one item");
}

int main(void)
{
	test_list_cursor();
	test_layout();
	test_zoom_level();
	test_keymap();
	test_theme_glyph();
	test_headless();
	test_aggregation();
	return tap_done();
}
