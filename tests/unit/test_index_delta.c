/* SPDX-License-Identifier: MIT */
/* test_index_delta.c: the delta chains of an index's parts (model/index/delta.h): each
 * part K of N has its own chain steps-K-of-N.delta-SEQ.tsx; a chain is read against
 * the part it extends (its size, mtime, inode), so the deltas of another part or of a
 * part rebuilt since are never taken: they are reported and dropped with every later
 * one of that chain only; an out-of-sequence delta likewise; removing a part's chain
 * leaves the others; index_part_files() lists each part followed by its deltas (the
 * order the open registers them in, which the summary records). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/delta.h"
#include "model/index/index.h"
#include "model/run.h"
#include "model/xalloc.h"
#include "tests/tap.h"
#include "tests/testutil.h"

struct head_spec {
	struct index_file_id base;
	unsigned seq;
};

/* A delta with no entries: tag, base, sequence, no metric, no rank, no diagnostic. */
static void fill_empty_delta(struct obuf *o, void *ud)
{
	const struct head_spec *s = ud;
	ob_head(o);
	ob_u32(o, DELTA_TAG);
	ob_svar(o, s->base.size);
	ob_svar(o, s->base.mtime_ns);
	ob_svar(o, s->base.ino);
	ob_u32(o, s->seq);
	ob_uvar(o, 0);
	ob_uvar(o, 0);
	ob_uvar(o, 0);
}

/* Write delta file seq of part k of n extending base, its head saying head_seq. */
static void put_delta(const char *dir, unsigned k, unsigned n, unsigned seq, const struct index_file_id *base,
		      unsigned head_seq)
{
	struct head_spec s = { *base, head_seq };
	char *p = delta_path(dir, k, n, seq);
	if (index_file_write(p, fill_empty_delta, &s) != 0)
		printf("# cannot write %s\n", p);
	free(p);
}

static size_t set_count(const char *dir, unsigned k, unsigned n, const struct index_file_id *base)
{
	struct delta_set *ds = delta_set_read(NULL, dir, k, n, dir, base, delta_count(dir, k, n));
	size_t c = delta_set_count(ds);
	delta_set_free(ds);
	return c;
}

static void check_chains(const char *dir)
{
	char *p = delta_path(dir, 1, 4, 3);
	char *want = xasprintf("%s/steps-1-of-4.delta-000003.tsx", dir);
	is_str(p, want, "delta_path: steps-K-of-N.delta-SEQ.tsx");
	free(p);
	free(want);
	struct index_file_id b0 = { 1000, 11, 101, 0 }, b1 = { 2000, 22, 202, 0 }, rebuilt = { 2000, 23, 203, 0 };
	put_delta(dir, 0, 4, 1, &b0, 1);
	put_delta(dir, 1, 4, 1, &b1, 1);
	put_delta(dir, 1, 4, 2, &b1, 2);
	is_int(delta_count(dir, 0, 4), 1, "part 0 of 4: a chain of 1");
	is_int(delta_count(dir, 1, 4), 2, "part 1 of 4: a chain of 2");
	is_int(delta_count(dir, 2, 4), 0, "part 2 of 4: none");
	is_int(delta_count(dir, 1, 2), 0, "another shard count: none");
	is_int(set_count(dir, 1, 4, &b1), 2, "part 1's chain read against part 1: both deltas");
	is_int(set_count(dir, 0, 4, &b0), 1, "part 0's chain against part 0: its delta");
	is_int(set_count(dir, 1, 4, &b0), 0, "part 1's chain against another part: none taken");
	is_int(delta_count(dir, 1, 4), 2, "without a run (a status), nothing is removed");

	/* part 1 rebuilt: its old chain is stale */
	static const struct opts o;
	struct run *run = run_open(NULL, 0, &o, NULL);
	struct delta_set *ds = delta_set_read(run, dir, 1, 4, dir, &rebuilt, delta_count(dir, 1, 4));
	is_int(delta_set_count(ds), 0, "rebuilt part: none of the old deltas taken");
	delta_set_free(ds);
	ok(tu_has_diag(run, "index delta 1 of 2 not used: it extends another version of the index; it and the 1 "
			    "after it are dropped", NULL), "rebuilt part: the stale chain reported");
	is_int(delta_count(dir, 1, 4), 0, "rebuilt part: its stale chain removed");
	is_int(delta_count(dir, 0, 4), 1, "rebuilt part: part 0's chain untouched");
	is_int(set_count(dir, 0, 4, &b0), 1, "rebuilt part: part 0's delta still taken");
	run_free(run);

	/* a chain broken in the middle: the good head is kept, the rest dropped */
	put_delta(dir, 3, 4, 1, &b1, 1);
	put_delta(dir, 3, 4, 2, &b1, 3);
	put_delta(dir, 3, 4, 3, &b1, 3);
	run = run_open(NULL, 0, &o, NULL);
	ds = delta_set_read(run, dir, 3, 4, dir, &b1, delta_count(dir, 3, 4));
	is_int(delta_set_count(ds), 1, "out of sequence: the deltas before it kept");
	delta_set_free(ds);
	ok(tu_has_diag(run, "index delta 2 of 3 not used: out of sequence; it and the 1 after it are dropped", NULL),
	   "out of sequence: reported");
	is_int(delta_count(dir, 3, 4), 1, "out of sequence: it and the later ones removed");
	run_free(run);

	delta_remove_part(dir, 3, 4);
	is_int(delta_count(dir, 3, 4), 0, "delta_remove_part: that part's chain removed");
	is_int(delta_count(dir, 0, 4), 1, "delta_remove_part: the others kept");
	delta_remove_all(dir);
	is_int(delta_count(dir, 0, 4), 0, "delta_remove_all: every chain removed");
}

static void check_part_files(const char *run_dir)
{
	char *dir = index_dir_for(run_dir);
	index_mkdir_p(dir);
	struct index_file_id b = { 1, 1, 1, 0 };
	for (unsigned k = 0; k < 2; k++) {
		char *p = xasprintf("%s/steps-%u-of-2.tsx", dir, k);
		tu_write_file(p, "x", 1);
		free(p);
	}
	put_delta(dir, 0, 2, 1, &b, 1);
	put_delta(dir, 1, 2, 1, &b, 1);
	put_delta(dir, 1, 2, 2, &b, 2);
	char **v = NULL;
	size_t n = index_part_files(run_dir, &v);
	is_int(n, 5, "index_part_files: 2 parts and 3 deltas");
	const char *want[] = { "steps-0-of-2.tsx", "steps-0-of-2.delta-000001.tsx", "steps-1-of-2.tsx",
			       "steps-1-of-2.delta-000001.tsx", "steps-1-of-2.delta-000002.tsx" };
	bool order = n == 5;
	for (size_t i = 0; i < n; i++) {
		const char *s = strrchr(v[i], '/');
		order = order && s && strcmp(s + 1, want[i]) == 0;
		free(v[i]);
	}
	free(v);
	ok(order, "index_part_files: each part followed by its own deltas in sequence");
	free(dir);
}

int main(void)
{
	char dir[512], run_dir[512];
	if (!tu_mkdtemp(dir, sizeof(dir), "delta") || !tu_mkdtemp(run_dir, sizeof(run_dir), "deltarun"))
		return tap_skip("cannot make a scratch directory");
	check_chains(dir);
	check_part_files(run_dir);
	tu_rm_rf(dir);
	tu_rm_rf(run_dir);
	return tap_done();
}
