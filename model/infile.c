/* SPDX-License-Identifier: MIT */
/* infile.c: non-blocking open of regular input files only, and of steps.jsonl FIFOs that
 * get a writer within the FIFO wait (see infile.h). */
#include "model/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
	if (fd < 0) {
		if (errno == ENXIO && fstatat(dirfd, path, st, 0) == 0 && S_ISSOCK(st->st_mode))
			errno = INFILE_ENOTREG; /* what open(2) says of a socket */
		return -1;
	}
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

static double fifo_wait_s = INFILE_FIFO_WAIT_S;
static char fifo_msg[160];

/* TSCOPE_FIFO_WAIT when it is a number of seconds from 0 to INFILE_FIFO_WAIT_MAX_S, and
 * the message that names the wait: one set to anything else is said there (the only
 * place its default wait shows), not passed over in silence. */
static void fifo_wait_init(void)
{
	const char *env = getenv("TSCOPE_FIFO_WAIT");
	char *end = NULL;
	double v = env && *env ? strtod(env, &end) : -1;
	bool usable = end && !*end && v >= 0 && v <= INFILE_FIFO_WAIT_MAX_S;
	if (usable)
		fifo_wait_s = v;
	if (usable || !env)
		snprintf(fifo_msg, sizeof(fifo_msg), "a FIFO with no writer within %g s (TSCOPE_FIFO_WAIT sets the wait)",
			 fifo_wait_s);
	else
		snprintf(fifo_msg, sizeof(fifo_msg), "a FIFO with no writer within %g s (TSCOPE_FIFO_WAIT is not a "
			 "number of seconds from 0 to %d, so not used)", fifo_wait_s, INFILE_FIFO_WAIT_MAX_S);
}

static double fifo_wait(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, fifo_wait_init);
	return fifo_wait_s;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 0 when the FIFO open as fd has a writer or bytes in it, else INFILE_ENOWRITER or an
 * errno. tee(2) into a pipe of our own looks without taking a byte: EAGAIN is a writer
 * that wrote nothing yet (a writer waiting in its open counts: ours woke it), 0 is no
 * writer and nothing to read. A writer started with the load or after it (a command
 * typed in another terminal) may not have reached its open yet: asked again every 50 ms
 * for the FIFO wait (fifo_wait). */
static int fifo_fed(int fd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return errno;
	double end = now_s() + fifo_wait();
	int e;
	for (;;) {
		ssize_t n = tee(fd, p[1], 1, SPLICE_F_NONBLOCK);
		e = n > 0 || (n < 0 && errno == EAGAIN) ? 0 : n == 0 ? INFILE_ENOWRITER : errno;
		if (e != INFILE_ENOWRITER || now_s() >= end)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000000L }, NULL);
	}
	close(p[0]);
	close(p[1]);
	return e;
}

/* A FIFO opened without blocking (a blocking open waits for a writer, forever if none
 * comes), kept only when fed, then read blocking as a pipe is. */
static int open_fifo(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	int e = fifo_fed(fd), flags = e ? 0 : fcntl(fd, F_GETFL);
	if (!e && (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0))
		e = errno;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* One stat first, so that a FIFO is told from a file before the open. A file is opened
 * without blocking and not stat'ed again: a file swapped for something else between the
 * two calls fails its reads (pread: ESPIPE, EISDIR) instead of blocking the load. */
int infile_openat_stream(int dirfd, const char *path, struct stat *st)
{
	if (fstatat(dirfd, path, st, 0) != 0)
		return -1;
	return infile_openat_statted(dirfd, path, st);
}

int infile_openat_statted(int dirfd, const char *path, const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return open_fifo(dirfd, path);
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
	if (err == INFILE_ENOWRITER) {
		fifo_wait();
		return fifo_msg;
	}
	return err == INFILE_ENOTREG ? "not a regular file (FIFO, device or socket)" : strerror(err);
}
