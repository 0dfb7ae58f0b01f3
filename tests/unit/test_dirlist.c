/* SPDX-License-Identifier: MIT */
/* test_dirlist.c: directory listings (model/dirlist.h): sorted names with their kind
 * (a link followed), each directory read once inside a scope and fresh outside one,
 * the probe memo (registry_probe) only inside a scope, and small files read once inside
 * a scope (dirlist_read: run.json shared by the probes and the loader); a directory
 * whose entries take more than one getdents64 buffer; dirlist_path, dirlist_dir_len and
 * dirlist_in_dir (a file directly in a dir, its trailing slashes aside); the pytscope probe
 * deciding from the listing (issue 17: identification without a stat per file); the
 * directories a scope keeps open to open what is under them relative to them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/registry.h"
#include "model/steps/internal.h"
#include "model/xalloc.h"
#include "tests/tap.h"

static int probes;

static int probe_count(const char *path, const struct opts *opts)
{
	(void)path;
	(void)opts;
	return ++probes;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
}

static void write_text(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fwrite(text, 1, n, f);
		fclose(f);
	}
}

/* dirlist_read: a small file opened once inside a scope (its head, its error), a large
 * one read each time, everything fresh outside a scope. */
static void test_read(const char *dir)
{
	char *small = xasprintf("%s/run.json", dir), *big = xasprintf("%s/trace.json", dir);
	char *missing = xasprintf("%s/none.json", dir);
	static const char json[] = "{\"name\": \"r\"}";
	write_text(small, json, strlen(json));
	size_t bign = DIRLIST_SMALL + 100;
	char *text = xmalloc(bign);
	memset(text, 'x', bign);
	write_text(big, text, bign);
	size_t len = 0, before = dirlist_file_reads();
	char *a = dirlist_read(small, 1000, &len);
	ok(a && len == strlen(json) && strcmp(a, json) == 0, "outside a scope: the whole small file");
	free(a);
	free(dirlist_read(small, 4, &len));
	is_int(dirlist_file_reads() - before, 2, "outside a scope every read opens the file");
	dirlist_scope_begin();
	before = dirlist_file_reads();
	char *h = dirlist_read(small, 4, &len);
	ok(h && len == 4 && strcmp(h, "{\"na") == 0, "inside a scope: the first 4 bytes");
	free(h);
	write_text(small, "changed", 7);
	a = dirlist_read(small, 1000, &len);
	ok(a && len == strlen(json) && strcmp(a, json) == 0, "then the whole file, from the first read");
	free(a);
	errno = 0;
	ok(dirlist_read(missing, 10, &len) == NULL && errno == ENOENT, "a missing file: NULL, ENOENT");
	errno = 0;
	ok(dirlist_read(missing, 10, &len) == NULL && errno == ENOENT, "and again, from memory");
	is_int(dirlist_file_reads() - before, 1, "the small file was opened once, the missing one not counted");
	before = dirlist_file_reads();
	a = dirlist_read(big, 10, &len);
	ok(a && len == 10 && strcmp(a, "xxxxxxxxxx") == 0, "a large file: its head");
	free(a);
	a = dirlist_read(big, DIRLIST_SMALL, &len);
	ok(a && len == DIRLIST_SMALL && a[len - 1] == 'x', "... and a longer head, up to DIRLIST_SMALL bytes");
	free(a);
	is_int(dirlist_file_reads() - before, 1, "a large file's head is kept: one open for both");
	a = dirlist_read(big, bign + 50, &len);
	ok(a && len == bign, "a large file read whole when asked");
	free(a);
	is_int(dirlist_file_reads() - before, 2, "... which opens it again");
	dirlist_scope_end();
	a = dirlist_read(small, 1000, &len);
	ok(a && len == 7 && strcmp(a, "changed") == 0, "after the scope the file is read fresh");
	free(a);
	free(text);
	free(small);
	free(big);
	free(missing);
}

static void set_mtime(const char *path, long long sec)
{
	struct timespec t[2] = { { sec, 5 }, { sec, 5 } };
	utimensat(AT_FDCWD, path, t, 0);
}

/* dirlist_read_stamp: the size and mtime of the open the bytes came from (the index
 * part's stamp of a run.json is the file as its loader read it): a kept file's first
 * open inside a scope, each open of a large file and outside a scope. */
static void test_read_stamp(const char *dir)
{
	char *small = xasprintf("%s/stamp.json", dir), *big = xasprintf("%s/stamp_big.json", dir);
	write_text(small, "{}", 2);
	set_mtime(small, 1000000000);
	size_t bign = DIRLIST_SMALL + 10, len;
	char *text = xmalloc(bign);
	memset(text, 'y', bign);
	write_text(big, text, bign);
	set_mtime(big, 1100000000);
	struct dirlist_stamp st = { -2, -2 };
	dirlist_scope_begin();
	free(dirlist_read_stamp(small, 10, &len, &st));
	ok(st.size == 2 && st.mtime_ns == 1000000000000000005LL, "in a scope: the stamp of the open (size, mtime in ns)");
	write_text(small, "{\"a\": 1}", 8);
	set_mtime(small, 1200000000);
	st = (struct dirlist_stamp){ -2, -2 };
	free(dirlist_read_stamp(small, 10, &len, &st));
	ok(st.size == 2 && st.mtime_ns == 1000000000000000005LL, "a kept file: the stamp of the open its bytes came from");
	free(dirlist_read_stamp(big, 10, &len, &st));
	ok(st.size == (long long)bign && st.mtime_ns == 1100000000000000005LL, "a large file: its own open's stamp");
	dirlist_scope_end();
	free(dirlist_read_stamp(small, 10, &len, &st));
	ok(st.size == 8 && st.mtime_ns == 1200000000000000005LL, "outside a scope: the file as it is now");
	free(text);
	free(small);
	free(big);
}

/* 700 entries with long names: several getdents64 buffers (the 8 KB one on the
 * stack, then the heap), every name intact, sorted. */
/* The heads a scope keeps stop at DIRLIST_HEADS bytes: the files after that are opened
 * at each read, as outside a scope. */
static void test_heads(const char *dir)
{
	size_t nk = DIRLIST_HEADS / DIRLIST_SMALL, n = nk + 2, size = DIRLIST_SMALL + 1;
	char *text = xmalloc(size), **path = xmalloc(n * sizeof(*path));
	memset(text, 'y', size);
	for (size_t i = 0; i < n; i++) {
		path[i] = xasprintf("%s/head-%zu.json", dir, i);
		write_text(path[i], text, size);
	}
	dirlist_scope_begin();
	size_t len, before = dirlist_file_reads();
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < n; i++)
			free(dirlist_read(path[i], 100, &len));
	is_int(dirlist_file_reads() - before, n + 2,
	       "heads kept up to DIRLIST_HEADS bytes a scope, the rest read again");
	dirlist_scope_end();
	for (size_t i = 0; i < n; i++) {
		unlink(path[i]);
		free(path[i]);
	}
	free(path);
	free(text);
}

static void test_big(const char *dir)
{
	char *big = dirlist_path(dir, "big");
	is_str(big + strlen(dir), "/big", "dirlist_path joins with one slash");
	mkdir(big, 0700);
	for (int i = 0; i < 700; i++) {
		char *f = xasprintf("%s/entry-with-a-rather-long-name-to-fill-the-buffer-%04d", big, 699 - i);
		touch(f);
		free(f);
	}
	struct dirlist *l = dirlist_open(big);
	ok(l && l->n == 700, "700 entries listed");
	bool good = l != NULL;
	for (size_t i = 0; good && i < l->n; i++) {
		char want[80];
		snprintf(want, sizeof(want), "entry-with-a-rather-long-name-to-fill-the-buffer-%04zu", i);
		good = strcmp(l->v[i].name, want) == 0 && l->v[i].kind == DIRENT_FILE;
	}
	ok(good, "every name intact, in order, a regular file");
	dirlist_close(l);
	free(big);
}

/* The pytscope probe from the listing: steps.jsonl or run.json as regular files (a link
 * followed), or a rank{k}/ dir; a directory named steps.jsonl or a rank file is not. */
static void test_probe(const char *dir)
{
	static const char *const sub[] = { "p1", "p2", "p3", "p4", "p5" };
	/* what to make: a path under dir, and "/" a directory, "" a file, else a link to it */
	static const char *const make[][2] = {
		{ "p1", "/" }, { "p2", "/" }, { "p3", "/" }, { "p4", "/" }, { "p5", "/" },
		{ "p1/run.json", "" }, { "p2/steps.jsonl", "/" }, { "p2/rank3", "" }, { "p3/rank12", "/" },
		{ "p4/steps.jsonl", "../b.json" }, { "p5/steps.jsonl", "../nowhere" },
	};
	for (size_t i = 0; i < ARRAY_LEN(make); i++) {
		char *p = dirlist_path(dir, make[i][0]);
		if (strcmp(make[i][1], "/") == 0)
			mkdir(p, 0700);
		else if (!make[i][1][0])
			touch(p);
		else if (symlink(make[i][1], p) != 0)
			perror("symlink");
		free(p);
	}
	static const int want[] = { 90, 0, 90, 90, 0 };
	static const char *const why[] = { "run.json alone", "a directory steps.jsonl and a file rank3: not a run",
					   "a rank dir", "steps.jsonl a link to a file", "steps.jsonl a dangling link" };
	for (int scope = 0; scope < 2; scope++) {
		if (scope)
			dirlist_scope_begin();
		for (size_t i = 0; i < 5; i++) {
			char *p = dirlist_path(dir, sub[i]);
			is_int(pytscope_probe(p, NULL), want[i], why[i]);
			free(p);
		}
		if (scope)
			dirlist_scope_end();
	}
}

/* Open file descriptors of the process (the listing's own counted each time alike;
 * not through dirlist, whose scope would keep the first listing). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return d ? n : -1;
}

/* Inside a scope a listed directory with subdirectories stays open (at most 8) and the
 * listings and files under it are opened relative to it: the same names and bytes as by
 * their whole path, a sibling whose name it prefixes not taken for a path under it, and
 * every kept directory closed at the scope's end. */
static void test_bases(const char *dir)
{
	static const char *const make[] = { "bases", "bases/run", "bases/run/rankA", "bases/run/rankB",
					    "bases/run/rankB/sub", "bases/run2", "bases/run2/rankA" };
	for (size_t i = 0; i < ARRAY_LEN(make); i++) {
		char *p = dirlist_path(dir, make[i]);
		mkdir(p, 0700);
		free(p);
	}
	char *a = xasprintf("%s/bases/run/rankA/run.json", dir), *a2 = xasprintf("%s/bases/run2/rankA/run.json", dir);
	write_text(a, "{\"name\": \"A\"}", 13);
	write_text(a2, "{\"name\": \"other\"}", 17);
	char *run = xasprintf("%s/bases/run", dir), *rank_b = xasprintf("%s/bases/run/rankB", dir);
	int fds = open_fds();
	dirlist_scope_begin();
	struct dirlist *l = dirlist_open(run);
	ok(l && l->n == 2, "the run dir listed");
	is_int(open_fds(), fds + 1, "a listed directory with subdirectories is kept open");
	size_t len = 0;
	char *t = dirlist_read(a, 100, &len), *t2 = dirlist_read(a2, 100, &len);
	ok(t && strcmp(t, "{\"name\": \"A\"}") == 0, "a file under it read relative to it");
	ok(t2 && strcmp(t2, "{\"name\": \"other\"}") == 0, "a sibling it prefixes (run2) read by its own path");
	free(t);
	free(t2);
	struct dirlist *b = dirlist_open(rank_b);
	ok(b && b->n == 1 && strcmp(b->v[0].name, "sub") == 0, "a directory under it listed relative to it");
	is_int(open_fds(), fds + 2, "it has a subdirectory: kept too");
	for (int i = 0; i < 10; i++) {
		char *d = xasprintf("%s/bases/many%d", dir, i), *sub = xasprintf("%s/s", d);
		mkdir(d, 0700);
		mkdir(sub, 0700);
		dirlist_close(dirlist_open(d));
		free(d);
		free(sub);
	}
	is_int(open_fds(), fds + 8, "at most 8 directories kept");
	dirlist_close(l);
	dirlist_close(b);
	dirlist_scope_end();
	is_int(open_fds(), fds, "all closed at the scope's end");
	free(a);
	free(a2);
	free(run);
	free(rank_b);
}

static void test_in_dir(void)
{
	const char *name = NULL;
	is_int((int)dirlist_dir_len("run///"), 3, "dir_len drops trailing slashes");
	is_int((int)dirlist_dir_len("/"), 1, "dir_len keeps the root's one");
	ok(dirlist_in_dir("run/trace.json", "run", &name) && strcmp(name, "trace.json") == 0, "in_dir: run/NAME");
	ok(dirlist_in_dir("run//trace.json", "run/", &name) && strcmp(name, "trace.json") == 0,
	   "in_dir: 'run/' holds 'run//NAME'");
	ok(dirlist_in_dir("/trace.json", "/", NULL), "in_dir: the root");
	ok(!dirlist_in_dir("run/rank0/trace.json", "run", NULL), "in_dir: not a file below a subdir");
	ok(!dirlist_in_dir("run2/trace.json", "run", NULL), "in_dir: not another dir sharing the prefix");
	ok(!dirlist_in_dir("run/", "run", NULL), "in_dir: not the dir itself");
}

int main(void)
{
	test_in_dir();
	char tmpl[] = "/tmp/tscope-dirlist.XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!ok(dir != NULL, "temp dir"))
		return tap_done();
	char *p = xasprintf("%s/rank1", dir);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/b.json", dir);
	touch(p);
	free(p);
	p = xasprintf("%s/a", dir);
	if (symlink("rank1", p) != 0)
		perror("symlink");
	free(p);

	struct dirlist *l = dirlist_open(dir);
	ok(l && l->n == 3, "three entries, no . or ..");
	ok(l && !l->cached, "outside a scope: not cached");
	if (l && l->n == 3) {
		is_str(l->v[0].name, "a", "sorted by name");
		is_int(l->v[0].kind, DIRENT_DIR, "a link to a directory is a directory");
		is_int(l->v[1].kind, DIRENT_FILE, "a regular file");
		is_int(l->v[2].kind, DIRENT_DIR, "a directory");
	}
	dirlist_close(l);
	size_t before = dirlist_reads();
	dirlist_close(dirlist_open(dir));
	is_int(dirlist_reads() - before, 1, "outside a scope each open reads the directory");

	const struct loader ld = { .name = "count", .probe = probe_count };
	registry_probe(&ld, dir, NULL);
	registry_probe(&ld, dir, NULL);
	is_int(probes, 2, "outside a scope a probe is asked every time");

	dirlist_scope_begin();
	before = dirlist_reads();
	struct dirlist *a = dirlist_open(dir), *b = dirlist_open(dir);
	ok(a == b && a->cached, "inside a scope the same listing comes back");
	is_int(dirlist_reads() - before, 1, "and the directory is read once");
	dirlist_close(a);
	dirlist_close(b);
	ok(dirlist_open("/nonexistent/tscope") == NULL, "an unreadable directory is NULL");
	probes = 0;
	is_int(registry_probe(&ld, dir, NULL), 1, "first probe asked");
	is_int(registry_probe(&ld, dir, NULL), 1, "second answered from the memo");
	is_int(registry_probe(&ld, "/other", NULL), 2, "another path is asked");
	dirlist_scope_end();
	is_int(registry_probe(&ld, dir, NULL), 3, "after the scope the probe is asked again");
	test_read(dir);
	test_read_stamp(dir);
	test_heads(dir);
	test_big(dir);
	test_probe(dir);
	test_bases(dir);

	p = xasprintf("rm -rf '%s'", dir);
	if (system(p) != 0)
		perror("rm");
	free(p);
	return tap_done();
}
