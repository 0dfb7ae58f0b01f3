/* SPDX-License-Identifier: MIT */
/* test_index_mode.c: the mode an index file is written with (model/index/wfile.c): in a
 * run dir's .tscope-index no more readable than the run dir (0700: 0600, 0750: 0640,
 * 0755: 0644; the umask applies too), elsewhere (this user's cache) 0600 whatever the
 * run, and a temporary file of the same name that an earlier process of this id left
 * (0666) does not lend its mode to the file; nor more readable than a source noted
 * (index_note_source: a 0600 file, a 0700 dir), even one noted while it was written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static void fill_tiny(struct obuf *o, void *ud)
{
	(void)ud;
	ob_head(o);
	ob_u32(o, 1);
}

/* The mode of NAME written into dir (made first), or -1 when it was not written. */
static int written_mode(const char *dir, const char *name)
{
	char path[4200];
	tu_make_dir(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct stat st;
	if (index_file_write(path, fill_tiny, NULL) != 0 || stat(path, &st) != 0)
		return -1;
	return (int)(st.st_mode & 0777);
}

/* The mode of a part written into the .tscope-index of run dir base/name of mode. */
static int run_part_mode(const char *base, const char *name, mode_t mode)
{
	char run[4096], own[4200];
	snprintf(run, sizeof(run), "%s/%s", base, name);
	tu_make_dir(run);
	chmod(run, mode);
	snprintf(own, sizeof(own), "%s/.tscope-index", run);
	return written_mode(own, "steps-0-of-1.tsx");
}

static void is_mode(int got, int want, const char *msg)
{
	if (!ok(got == want, "%s", msg))
		printf("#   got %04o, want %04o\n", (unsigned)got, (unsigned)want);
}

static void check_run_dirs(const char *base)
{
	umask(022);
	is_mode(run_part_mode(base, "r700", 0700), 0600, "a 0700 run dir: its index file 0600 (was 0644)");
	is_mode(run_part_mode(base, "r750", 0750), 0640, "a 0750 run dir: 0640");
	is_mode(run_part_mode(base, "r755", 0755), 0644, "a 0755 run dir: 0644");
	umask(077);
	is_mode(run_part_mode(base, "u077", 0755), 0600, "a 0755 run dir under umask 077: 0600");
	umask(022);
}

static void check_cache(const char *base)
{
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/cache", base);
	tu_make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/cache/%%data%%run", base);
	is_mode(written_mode(dir, "steps-0-of-1.tsx"), 0600, "in this user's cache: 0600");
}

static void check_stale_tmp(const char *base)
{
	char run[4096], own[4200], tmp[4300];
	snprintf(run, sizeof(run), "%s/stale", base);
	tu_make_dir(run);
	chmod(run, 0700);
	snprintf(own, sizeof(own), "%s/.tscope-index", run);
	tu_make_dir(own);
	snprintf(tmp, sizeof(tmp), "%s/summary.tsx.%ld.tmp", own, (long)getpid());
	tu_write_file(tmp, "x", 1);
	chmod(tmp, 0666);
	is_mode(written_mode(own, "summary.tsx"), 0600,
		"a 0666 temporary file of this process id left behind: the file written 0600");
}

/* Last: the sources noted narrow every later file of this process. */
static void check_sources(const char *base)
{
	char src[4096], own[4200], path[4300];
	snprintf(src, sizeof(src), "%s/open", base);
	tu_make_dir(src);
	chmod(src, 0755);
	snprintf(src, sizeof(src), "%s/open/rank0", base);
	tu_make_dir(src);
	snprintf(path, sizeof(path), "%s/run.json", src);
	tu_write_file(path, "{}", 2);
	chmod(path, 0644);
	index_note_source(path);
	is_mode(run_part_mode(base, "n755", 0755), 0644, "sources readable by all noted: 0644");
	snprintf(src, sizeof(src), "%s/priv", base);
	tu_make_dir(src);
	snprintf(src, sizeof(src), "%s/priv/rank0", base);
	tu_make_dir(src);
	chmod(src, 0700);
	snprintf(path, sizeof(path), "%s/run.json", src);
	tu_write_file(path, "{}", 2);
	snprintf(own, sizeof(own), "%s/open/.tscope-index", base);
	tu_make_dir(own);
	snprintf(path, sizeof(path), "%s/steps-0-of-1.tsx", own);
	struct index_wfile w;
	struct stat st;
	bool begun = index_file_begin(&w, path) == 0;
	snprintf(path, sizeof(path), "%s/run.json", src);
	index_note_source(path); /* its rank dir 0700 */
	ob_head(&w.o);
	bool kept = begun && index_file_end(&w, true) == 0;
	snprintf(path, sizeof(path), "%s/steps-0-of-1.tsx", own);
	is_mode(kept && stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1, 0600,
		"a 0700 rank dir noted while the file was written: 0600 (was 0644)");
	is_mode(run_part_mode(base, "m755", 0755), 0600, "a 0755 run dir after that: 0600");
}

int main(void)
{
	char base[512];
	if (!tu_mkdtemp(base, sizeof(base), "imode"))
		return tap_skip("cannot make a scratch directory");
	check_run_dirs(base);
	check_cache(base);
	check_stale_tmp(base);
	check_sources(base);
	tu_rm_rf(base);
	return tap_done();
}
