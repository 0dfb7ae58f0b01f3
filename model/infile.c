/* SPDX-License-Identifier: MIT */
/* infile.c: non-blocking open of regular input files only (see infile.h). */
#include "model/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* errno for what st describes when it is not a regular file: 0 for a regular file. */
static int not_regular(const struct stat *st)
{
	return S_ISREG(st->st_mode) ? 0 : S_ISDIR(st->st_mode) ? EISDIR : INFILE_ENOTREG;
}

/* Anything but a FIFO is opened without blocking, then checked with one fstat (*st). A
 * regular file is handed back as it is: O_NONBLOCK has no effect on regular files, so no
 * fcntl clears it (two system calls less per file, per rank on a big run). */
static int open_checked(int dirfd, const char *path, struct stat *st)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	int e = fstat(fd, st) != 0 ? errno : not_regular(st);
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int infile_open(const char *path)
{
	struct stat st;
	return open_checked(AT_FDCWD, path, &st);
}

long long infile_mtime_ns(const struct stat *st)
{
	return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

int infile_open_st(const char *path, struct stat *st)
{
	return open_checked(AT_FDCWD, path, st);
}

int infile_openat_st(int dirfd, const char *path, struct stat *st)
{
	return open_checked(dirfd, path, st);
}

/* One stat first, so that a FIFO is opened blocking (waiting for a writer, as cat
 * would; opening it without blocking and reopening would connect a waiting writer to
 * no reader). Anything else is opened without blocking and not stat'ed again: a file
 * swapped for something else between the two calls fails its reads (pread: ESPIPE,
 * EISDIR) instead of blocking the load. */
int infile_openat_stream(int dirfd, const char *path, struct stat *st)
{
	if (fstatat(dirfd, path, st, 0) != 0)
		return -1;
	return infile_openat_statted(dirfd, path, st);
}

int infile_openat_statted(int dirfd, const char *path, const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	int e = not_regular(st);
	if (e) {
		errno = e;
		return -1;
	}
	return openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

FILE *infile_fopen(const char *path)
{
	int fd = infile_open(path);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

const char *infile_strerror(int err)
{
	return err == INFILE_ENOTREG ? "not a regular file (FIFO, device or socket)" : strerror(err);
}
