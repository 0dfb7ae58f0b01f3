/* SPDX-License-Identifier: MIT */
/* tmpfile.c: the index's temporary files (tmpfile.h): the registry a signal handler
 * reads and the sweep of those a killed writer left. */
#include "model/index/tmpfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/xalloc.h"

/* A slot is free (0), being filled (1) or names a file to remove on a signal (2). */
#define TMP_SLOTS 8
static struct tmp_slot {
	char path[PATH_MAX];
	atomic_int state;
} tmp_slot[TMP_SLOTS];

static void tmp_arm(const char *tmp)
{
	size_t n = strlen(tmp);
	for (int i = 0; i < TMP_SLOTS && n < PATH_MAX; i++) {
		int free_slot = 0;
		if (atomic_compare_exchange_strong(&tmp_slot[i].state, &free_slot, 1)) {
			memcpy(tmp_slot[i].path, tmp, n + 1);
			atomic_store(&tmp_slot[i].state, 2);
			return;
		}
	}
	/* more writers than slots: this one is not removed on a signal (the sweep will) */
}

static void tmp_disarm(const char *tmp)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (atomic_load(&tmp_slot[i].state) == 2 && strcmp(tmp_slot[i].path, tmp) == 0) {
			atomic_store(&tmp_slot[i].state, 0);
			return;
		}
}

void index_tmp_unlink(void)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (atomic_load(&tmp_slot[i].state) == 2)
			unlink(tmp_slot[i].path);
}

/* name is "BASE.DIGITS.tmp". */
static bool tmp_of(const char *name, const char *base, size_t blen)
{
	if (strncmp(name, base, blen) != 0 || name[blen] != '.')
		return false;
	const char *p = name + blen + 1, *d = p;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > d && strcmp(p, ".tmp") == 0;
}

/* Whether temporary file name in dir dfd was left by a writer that is gone: nothing
 * wrote to it for INDEX_TMP_STALE_S seconds and no process holds its lock (its lock
 * taken here, shared: a live writer's exclusive one refuses it). Where the file system
 * has no locks, the age decides. */
static bool tmp_abandoned(int dfd, const char *name, time_t now)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
	    now - st.st_mtime <= INDEX_TMP_STALE_S)
		return false;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return true;
	bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);
	return !held;
}

/* Remove path's temporary files that killed writers left. */
static void tmp_sweep(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	const char *base = slash ? slash + 1 : path;
	size_t blen = strlen(base);
	DIR *d = opendir(dir);
	time_t now = time(NULL);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (tmp_of(e->d_name, base, blen) && tmp_abandoned(dirfd(d), e->d_name, now))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	free(dir);
}

char *index_tmp_begin(const char *path)
{
	tmp_sweep(path);
	char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	tmp_arm(tmp);
	return tmp;
}

void index_tmp_hold(int fd)
{
	(void)flock(fd, LOCK_EX | LOCK_NB); /* no locks here: the age rule alone */
}

void index_tmp_end(char *tmp)
{
	tmp_disarm(tmp);
	free(tmp);
}
