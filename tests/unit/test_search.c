/* SPDX-License-Identifier: MIT */
/* test_search.c: the `/` search on a pane of 400,000 items, driven as the loop drives it
 * (app_key per key, app_tick while tick_ms >= 0) and counted in items looked at, never in
 * time: no key and no frame walks more than a slice; an edit that makes the text longer
 * goes on at the last match, a longer text after a miss misses at once; the walk ends on
 * the same match as a whole walk would; n/N wait for a running walk; Esc and other keys
 * stop it; a run that changed mid-walk starts it over. */
#include <string.h>
#include "model/run.h"
#include "tests/tap.h"
#include "ui/app.h"
#include "ui/search.h"

enum { NITEMS = 400000, ORIGIN = 1000, MATCH1 = 300000, MATCH2 = 350000, QUARTER = NITEMS / 4 };

/* The pane: rows "row N", two of them "row N needle"; the selection; items looked at. */
struct fake {
	size_t sel;
	long looked;
};
static struct fake fake;
static struct run run;
static struct app app;

static size_t fk_items(void *priv, struct app *a, size_t *sel)
{
	*sel = fake.sel;
	return NITEMS;
}

static void fk_item_text(void *priv, struct app *a, size_t i, char *buf, size_t n)
{
	fake.looked++;
	snprintf(buf, n, "row %zu%s", i, i == MATCH1 || i == MATCH2 ? " needle" : "");
}

static void fk_item_show(void *priv, struct app *a, size_t i)
{
	fake.sel = i;
}

static unsigned fk_handle(void *priv, struct app *a, enum action act)
{
	if (act != ACT_DOWN)
		return PR_NONE;
	fake.sel++;
	return PR_HANDLED;
}

static const struct pane_ops fake_ops = {
	.name = "fake", .handle = fk_handle, .items = fk_items, .item_text = fk_item_text, .item_show = fk_item_show,
};

static void setup(void)
{
	memset(&app, 0, sizeof(app));
	app.run = &run;
	app.pane[0] = (struct pane_slot){ .ops = &fake_ops, .priv = &fake, .opened = true };
	app.npane = 1;
	app.search_pos = -1;
	app.strag_pos = -1;
	app.tick_ms = -1;
	fake = (struct fake){ .sel = ORIGIN };
}

/* The loop's frames after a key: app_tick until no work is left (at least once). The
 * items looked at in all, the most in one frame in *most, the frames in *frames. */
static long settle(long *most, int *frames)
{
	long all = 0, top = 0;
	int n = 0;
	do {
		long before = fake.looked;
		app_tick(&app);
		long one = fake.looked - before;
		all += one;
		top = one > top ? one : top;
		n++;
	} while (app.tick_ms >= 0 && n < 100000);
	if (most)
		*most = top;
	if (frames)
		*frames = n;
	return all;
}

/* A key and the frames after it: the items looked at. */
static long key(int k)
{
	long before = fake.looked;
	app_key(&app, k);
	settle(NULL, NULL);
	return fake.looked - before;
}

/* Typing "/nee": the walk for "n" runs in slices, the two "e" go on at its match. */
static void test_typing(void)
{
	setup();
	key('/');
	long before = fake.looked;
	app_key(&app, 'n');
	ok(fake.looked - before <= QUARTER, "a key looks at no more than a quarter of the 400,000 items");
	long most;
	int frames;
	long all = fake.looked - before + settle(&most, &frames);
	ok(most <= QUARTER, "no frame after it looks at more than a quarter of them");
	ok(frames > 1, "the walk to the first match takes more than one frame");
	is_int(all, MATCH1 - ORIGIN + 1, "the walk looks at each item once, from where / opened to the match");
	is_int(fake.sel, MATCH1, "/n selects the first match");
	is_int(key('e'), 1, "'e' makes the text longer: the walk goes on at the match (1 item looked at)");
	is_int(key('e'), 1, "... and again ('nee')");
	is_int(fake.sel, MATCH1, "... on the same match");
	is_int(key('x'), NITEMS - (MATCH1 - ORIGIN), "'neex': the items after the match, once each, then a miss");
	is_int(fake.sel, ORIGIN, "a miss puts the cursor back where / opened");
	ok(strstr(app.msg, "no match for 'neex'") != NULL, "... and says so");
	is_int(key('y'), 0, "'neexy' after a miss misses at once, no item looked at");
	ok(strstr(app.msg, "no match for 'neexy'") != NULL, "... and says so");
	key(127);
	key(127);
	is_int(fake.sel, MATCH1, "Backspace twice ('nee'): a walk from where / opened finds the match again");
	key('\n');
	ok(strstr(app.msg, "search 'nee'") != NULL, "Enter: the message says how to go on");
	key('n');
	is_int(fake.sel, MATCH2, "n: the next match");
	key('n');
	is_int(fake.sel, MATCH1, "n again wraps to the first");
	key('N');
	is_int(fake.sel, MATCH2, "N wraps back to the last");
	key(27);
	ok(!app.search_on, "Esc ends the search");
}

/* Keys while a walk runs: n waits for it, Esc cancels it, another key stops it. */
static void test_keys_meanwhile(void)
{
	setup();
	app_key(&app, '/');
	app_key(&app, 'n');
	app_key(&app, '\n');
	app_key(&app, 'n');
	settle(NULL, NULL);
	is_int(fake.sel, MATCH2, "/n Enter n typed ahead of the walk: the second match, as one at a time");

	setup();
	app_key(&app, '/');
	app_key(&app, 'n');
	app_tick(&app);
	app_key(&app, 27);
	long left = settle(NULL, NULL);
	ok(!app.search_on && app.prompt == PROMPT_NONE, "Esc at the prompt while the walk runs: the search ends");
	is_int(left, 0, "... the walk stops");
	is_int(fake.sel, ORIGIN, "... the cursor where / opened");

	setup();
	app_key(&app, '/');
	app_key(&app, 'n');
	app_key(&app, '\n');
	app_tick(&app);
	app_key(&app, 'j');
	left = settle(NULL, NULL);
	is_int(left, 0, "another key (j) after Enter stops the walk");
	is_int(fake.sel, ORIGIN + 1, "... the cursor back where / opened, then j moves it");
	ok(app.search_on, "... the search stays on");
}

/* The run changed under a running walk (follow mode): it starts over, from where / opened. */
static void test_run_changed(void)
{
	setup();
	app_key(&app, '/');
	app_key(&app, 'n');
	long first = fake.looked;
	app_tick(&app);
	first = fake.looked - first;
	run.generation++;
	long rest = settle(NULL, NULL);
	is_int(rest, MATCH1 - ORIGIN + 1, "the run changed mid-walk: it starts over from where / opened");
	ok(first > 0 && fake.sel == MATCH1, "... and finds the first match");
}

/* What the prompt row says while a walk runs. */
static void test_progress(void)
{
	setup();
	char buf[64];
	app_key(&app, '/');
	app_key(&app, 'n');
	ok(search_progress(&app, buf, sizeof(buf)) && strstr(buf, "searching... 0%"), "the walk starts at 0%%");
	app_tick(&app);
	app_tick(&app);
	ok(search_progress(&app, buf, sizeof(buf)) && strstr(buf, "(Esc cancels)"), "... says how far, Esc cancels");
	settle(NULL, NULL);
	ok(!search_progress(&app, buf, sizeof(buf)), "... nothing once it ended");
}

int main(void)
{
	test_typing();
	test_keys_meanwhile();
	test_run_changed();
	test_progress();
	return tap_done();
}
