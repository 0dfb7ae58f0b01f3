/* SPDX-License-Identifier: MIT */
/* infile.c: non-blocking open of regular input files only (see infile.h). */
#include "model/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A FIFO (when fifo_ok) is opened blocking, waiting for a writer as cat would; anything
 * else without blocking, then checked with one fstat. A regular file is handed back as it
 * is: O_NONBLOCK has no effect on regular files, so no fcntl clears it (two system calls
 * less per file, per rank on a big run). */
static int open_checked(const char *path, bool fifo_ok)
{
	struct stat st;
	if (fifo_ok && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		return open(path, O_RDONLY | O_CLOEXEC);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	int e = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? INFILE_ENOTREG : 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int infile_open(const char *path)
{
	return open_checked(path, false);
}

int infile_open_stream(const char *path)
{
	return open_checked(path, true);
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
