/* SPDX-License-Identifier: MIT */
/* testutil.h: helpers shared by the unit tests (tests/unit) and the fixture generators
 * (tests/tools): a private scratch directory under $TSCOPE_TMP and its removal, writing
 * a whole file, a rank's run.json at finish, making a directory, finding a diagnostic and a finding, a pseudo-random
 * sequence, an empty run, a path in the source tree, file modes that hold for root too.
 * Header-only (static
 * inline); no TAP output: callers decide what a failure means for them. */
#ifndef TESTS_TESTUTIL_H
#define TESTS_TESTUTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "model/run.h"

/* xorshift64: the randomized tests' repeatable sequence (*state not 0). */
static inline uint64_t tu_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* An empty run with default options, to publish synthetic ranks into. */
static inline struct run *tu_empty_run(void)
{
	static const struct opts o;
	return run_open(NULL, 0, &o, NULL);
}

/* A file of the source tree (fixtures, fuzz seeds): rel under $TSCOPE_ROOT, else under
 * the working directory (tests/run.sh runs from the root). malloc'd. */
static inline char *tu_source_path(const char *rel)
{
	const char *root = getenv("TSCOPE_ROOT");
	size_t n = strlen(root ? root : ".") + 1 + strlen(rel) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", root ? root : ".", rel);
	return p;
}

/* Where scratch files go: $TSCOPE_TMP (tests/run.sh sets it), else /tmp. */
static inline const char *tu_tmp_base(void)
{
	const char *t = getenv("TSCOPE_TMP");
	return t ? t : "/tmp";
}

/* Creates a new private directory tu_tmp_base()/PREFIX<6 random chars> (mkdtemp) and
 * leaves its path in buf (n bytes). Returns buf, or NULL (errno set) on failure. The
 * caller removes it with tu_rm_rf. */
static inline char *tu_mkdtemp(char *buf, size_t n, const char *prefix)
{
	snprintf(buf, n, "%s/%sXXXXXX", tu_tmp_base(), prefix);
	return mkdtemp(buf);
}

/* Removes dir and everything below it (rm -rf). Returns 0 on success. dir must not
 * contain a single quote (the paths above never do). */
static inline int tu_rm_rf(const char *dir)
{
	size_t n = strlen(dir) + 16;
	char *cmd = malloc(n);
	if (!cmd)
		return -1;
	snprintf(cmd, n, "rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

/* Writes n bytes of data to path (created or truncated). A fixture that cannot be
 * written makes every later check meaningless, so any failure prints the path and
 * exits 1. */
static inline void tu_write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* dir/rank{rank}/run.json as pytscope's finish() writes it (the finish marker a follower
 * looks for): rank, world_size and n_steps; exits 1 as tu_write_file. */
static inline void tu_write_finish(const char *dir, int rank, long world, long n_steps)
{
	char path[4200], text[128];
	snprintf(path, sizeof(path), "%s/rank%d/run.json", dir, rank);
	int k = snprintf(text, sizeof(text), "{\"rank\": %d, \"world_size\": %ld, \"n_steps\": %ld}\n", rank, world,
			 n_steps);
	tu_write_file(path, text, (size_t)k);
}

/* mkdir dir (0755); an existing directory is fine, any other failure prints the path
 * and exits 1. */
static inline void tu_make_dir(const char *dir)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		perror(dir);
		exit(1);
	}
}

/* dir/name created (truncated) for writing; a failure prints the path and exits 1. */
static inline FILE *tu_create_in(const char *dir, const char *name)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

/* dir/rank{rank} made (tu_make_dir); its path goes to rdir (cap bytes). */
static inline void tu_rank_dir(char *rdir, size_t cap, const char *dir, int rank)
{
	snprintf(rdir, cap, "%s/rank%d", dir, rank);
	tu_make_dir(rdir);
}

/* True when a diagnostic of run has needle in its message; the first such
 * diagnostic's offset goes to *off when off is not NULL. */
static inline bool tu_has_diag(const struct run *run, const char *needle, long long *off)
{
	for (size_t i = 0; i < run->diags.n; i++)
		if (strstr(run->diags.v[i].msg, needle)) {
			if (off)
				*off = run->diags.v[i].offset;
			return true;
		}
	return false;
}

/* How many diagnostics of run have needle in their message. */
static inline size_t tu_count_diag(const struct run *run, const char *needle)
{
	size_t n = 0;
	for (size_t i = 0; i < run->diags.n; i++)
		n += strstr(run->diags.v[i].msg, needle) != NULL;
	return n;
}

/* The first finding of the run with this id, or NULL. */
static inline const struct finding *tu_finding(struct run *run, const char *id)
{
	const struct finding_list *fl = run_findings(run);
	for (size_t i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].id, id) == 0)
			return &fl->v[i];
	return NULL;
}

/* Whether list l holds a finding with this id whose title holds text (any title: NULL). */
static inline bool tu_list_has(const struct finding_list *l, const char *id, const char *text)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, id) == 0 && (!text || strstr(l->v[i].title, text)))
			return true;
	return false;
}

/* The whole file at path, NUL-terminated (malloc'd), or NULL when it cannot be read. */
static inline char *tu_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The whole file rel of the source tree (tu_source_path), NUL-terminated (malloc'd);
 * exits 1, naming it, when it cannot be read: a fixture a test cannot do without. */
static inline char *tu_source_text(const char *rel)
{
	char *path = tu_source_path(rel);
	char *text = path ? tu_read_file(path) : NULL;
	if (!text) {
		perror(path ? path : rel);
		exit(1);
	}
	free(path);
	return text;
}

/* File modes that refuse the process as they refuse a file's owner, also when it is
 * root (CI runs the suite as root): the calling thread, and the threads it starts after,
 * lose the capabilities that override them (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH). Call
 * it before any thread starts. True when a file of mode 000 in dir then cannot be opened
 * (so a permission test means what it says); false: skip that test, saying why. */
static inline bool tu_modes_hold(const char *dir)
{
	if (geteuid() == 0) {
		struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
		struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
		if (syscall(SYS_capget, &h, d) != 0)
			return false;
		d[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
		if (syscall(SYS_capset, &h, d) != 0)
			return false;
	}
	char probe[4200];
	snprintf(probe, sizeof(probe), "%s/.mode-probe", dir);
	tu_write_file(probe, "x", 1);
	chmod(probe, 0);
	int fd = open(probe, O_RDONLY);
	if (fd >= 0)
		close(fd);
	unlink(probe);
	return fd < 0;
}

#endif
