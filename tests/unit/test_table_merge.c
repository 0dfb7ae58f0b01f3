/* SPDX-License-Identifier: MIT */
/* test_table_merge.c: model/table_merge.c against table_sort(): rows given as parts,
 * sorted and merged through the temporary file, are the CSV of the parts joined and
 * sorted, byte for byte, for every column both ways: texts, exact integers above 2^53,
 * NaN, missing cells, ties (the order of the parts kept), empty parts, thousands of
 * runs with records longer than a run's window. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/table.h"
#include "model/table_merge.h"
#include "tests/tap.h"

static unsigned long long rng = 88172645463325252ULL;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 11);
}

static struct table *new_part(void)
{
	struct table *t = table_new("t", NULL);
	table_add_col(t, "name", COL_TEXT, 8, 0);
	table_add_col(t, "step", COL_INT, 5, 0);
	table_add_col(t, "val", COL_NUM, 8, 3);
	return t;
}

/* A row with few distinct values (ties), some missing, some NaN; long_text: a name of
 * 5,000 bytes now and then. */
static void add_row(struct table *t, long ref, bool long_text)
{
	size_t row = table_add_row(t, ref);
	unsigned x = next_rand();
	char name[5008];
	if (long_text && x % 7 == 0) {
		memset(name, 'a' + (int)(x % 3), 5000);
		name[5000] = '\0';
	} else {
		snprintf(name, sizeof(name), "n%u", x % 5);
	}
	if (x % 11)
		table_set_text(t, row, 0, name);
	if ((x >> 4) % 9)
		table_set_int(t, row, 1, 9007199254740993LL + (long long)((x >> 8) % 4));
	unsigned v = (x >> 12) % 13;
	if (v == 0)
		table_set_num(t, row, 2, NAN);
	else if (v != 1)
		table_set_num(t, row, 2, (double)(v % 5) / 4 - 0.5);
}

static char *csv_of(const struct table *t)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	table_write_csv(t, f, 0);
	fclose(f);
	return text;
}

/* nparts parts of 0..most rows; merged by col (desc) = the joined table sorted. */
static void check(size_t nparts, unsigned most, bool long_text, int col, bool desc, const char *what)
{
	unsigned long long seed = rng;
	struct table *whole = new_part();
	for (size_t k = 0; k < nparts; k++) {
		struct table *p = new_part();
		for (unsigned r = 0, n = next_rand() % (most + 1); r < n; r++)
			add_row(p, (long)(1000 * k + r), long_text);
		table_append_take(whole, p);
	}
	table_sort(whole, col, desc);
	char *want = csv_of(whole);
	table_free(whole);

	rng = seed; /* the same rows again, as parts into the merge */
	struct table *first = new_part();
	struct table_merge *m = table_merge_new(first, col, desc, 0, "/tmp");
	int r = m ? 0 : -1;
	for (size_t k = 0; k < nparts && r == 0; k++) {
		struct table *p = new_part();
		for (unsigned i = 0, n = next_rand() % (most + 1); i < n; i++)
			add_row(p, (long)(1000 * k + i), long_text);
		r = table_merge_add(m, p);
		table_free(p);
	}
	char *got = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&got, &size);
	table_write_csv_header(first, f, 0);
	long n = 0;
	while (r == 0 && (n = table_merge_write(m, f, 1000)) > 0)
		;
	fclose(f);
	ok(r == 0 && n == 0 && strcmp(got, want) == 0, "%s: merged = joined and sorted (%zu bytes)", what,
	   strlen(want));
	table_merge_free(m);
	table_free(first);
	free(got);
	free(want);
}

static void test_columns(void)
{
	static const char *names[] = { "name", "step", "val" };
	for (int col = 0; col < 3; col++)
		for (int desc = 0; desc < 2; desc++) {
			char what[64];
			snprintf(what, sizeof(what), "12 parts, by %s%s", desc ? "-" : "", names[col]);
			check(12, 400, false, col, desc, what);
		}
}

static void test_shapes(void)
{
	check(1, 50, false, 2, false, "one part");
	check(5, 0, false, 1, false, "only empty parts");
	check(9000, 3, true, 0, true, "9,000 runs (4 KB windows), 5,000-byte texts");
	check(40, 200, true, 0, false, "long texts, 40 runs");
}

static void test_no_dir(void)
{
	struct table *t = new_part();
	errno = 0;
	struct table_merge *m = table_merge_new(t, 0, false, 0, "/nonexistent/tscope-test");
	ok(!m && errno == ENOENT, "a temporary file in a missing directory: NULL, ENOENT");
	table_free(t);
}

static void test_count(void)
{
	struct table *t = new_part();
	for (int i = 0; i < 3; i++)
		add_row(t, i, false);
	struct table_merge *m = table_merge_new(t, 1, false, 0, "/tmp");
	table_merge_add(m, t);
	table_merge_add(m, t);
	ok(table_merge_rows(m) == 6, "rows counted over the runs");
	table_merge_free(m); /* never merged: freed all the same */
	table_free(t);
}

int main(void)
{
	test_columns();
	test_shapes();
	test_no_dir();
	test_count();
	return tap_done();
}
