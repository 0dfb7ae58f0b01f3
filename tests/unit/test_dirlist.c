/* SPDX-License-Identifier: MIT */
/* test_dirlist.c: directory listings (model/dirlist.h): sorted names with their kind
 * (a link followed), each directory read once inside a scope and fresh outside one,
 * and the probe memo (registry_probe) only inside a scope. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/registry.h"
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

int main(void)
{
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

	p = xasprintf("rm -rf '%s'", dir);
	if (system(p) != 0)
		perror("rm");
	free(p);
	return tap_done();
}
