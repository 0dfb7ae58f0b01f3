/* SPDX-License-Identifier: MIT */
/* outfile.c: safe output files: temp + rename for regular files, in place for FIFOs
 * and devices, signals held while a temp file exists (see outfile.h). */
#include "model/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/text.h"
#include "model/xalloc.h"

static void hold_signals(sigset_t *old)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1,
				    SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF };
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
		sigaddset(&set, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

bool outfile_interrupted(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU };
	sigset_t pending;
	if (sigpending(&pending) != 0)
		return false;
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
		if (sigismember(&pending, sigs[i]) == 1)
			return true;
	return false;
}

/* The descriptor named by /dev/stdout, /dev/stderr or /dev/fd/N, else -1: those are
 * written through a duplicate, exactly where the shell pointed them (a regular file
 * opened with > or >>, a pipe, a tty). */
static int named_fd(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	if (strncmp(path, "/dev/fd/", 8) != 0 || !path[8])
		return -1;
	char *end;
	long n = strtol(path + 8, &end, 10);
	return *end || n < 0 || n > INT_MAX ? -1 : (int)n;
}

/* path opened for writing in place; an open that a signal interrupts while it waits
 * for a FIFO's reader (Ctrl-Z and fg, a resize) is tried again. */
static int open_write(const char *path)
{
	int fd;
	do
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	return fd;
}

static int open_in_place(struct outfile *o, const char *path)
{
	int nfd = named_fd(path);
	int fd = nfd >= 0 ? fcntl(nfd, F_DUPFD_CLOEXEC, 3) : open_write(path);
	if (fd < 0)
		return -1;
	if (nfd >= 0) {
		o->f = fdopen(fd, "w");
		if (!o->f)
			close(fd);
		return o->f ? 0 : -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd); /* replaced by a file between the checks: refuse rather than clobber */
		errno = EAGAIN;
		return -1;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

/* Bytes of dest's directory, its '/' included (0: the current directory). */
static int dir_len(const char *dest)
{
	const char *slash = strrchr(dest, '/');
	return slash ? (int)(slash - dest) + 1 : 0;
}

/* Temp file next to dest; mode as the final file should have it. */
static int open_temp(struct outfile *o, const char *dest, mode_t mode)
{
	o->tmp = xasprintf("%.*s.tscope-XXXXXX", dir_len(dest), dest);
	o->dest = xstrdup(dest);
	hold_signals(&o->old);
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd >= 0 && fchmod(fd, mode) == 0 && (o->f = fdopen(fd, "w")))
		return 0;
	int e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(o->tmp);
	}
	pthread_sigmask(SIG_SETMASK, &o->old, NULL);
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
	errno = e;
	return -1;
}

int outfile_open(struct outfile *o, const char *path, bool overwrite)
{
	*o = (struct outfile){ 0 };
	struct stat lst, st;
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT)
			return -1;
		mode_t mask = umask(0);
		umask(mask);
		return open_temp(o, path, 0666 & ~mask);
	}
	if (stat(path, &st) != 0) /* a dangling symlink: never replaced, never followed */
		return -1;
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || (strncmp(path, "/dev/", 5) == 0 && !S_ISDIR(st.st_mode)))
		return open_in_place(o, path);
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	if (!overwrite) {
		errno = EEXIST;
		return -1;
	}
	if (!S_ISLNK(lst.st_mode))
		return open_temp(o, path, st.st_mode & 07777);
	char *target = realpath(path, NULL); /* replace the link's target, keep the link */
	if (!target)
		return -1;
	int rc = open_temp(o, target, st.st_mode & 07777);
	free(target);
	return rc;
}

int outfile_close(struct outfile *o, bool ok)
{
	int e = 0;
	if (o->f && ferror(o->f))
		e = errno ? errno : EIO;
	if (o->f && fclose(o->f) != 0 && !e)
		e = errno;
	o->f = NULL;
	if (o->tmp) {
		if (ok && !e && rename(o->tmp, o->dest) != 0)
			e = errno;
		if (!ok || e)
			unlink(o->tmp);
		free(o->tmp);
		free(o->dest);
		o->tmp = o->dest = NULL;
		pthread_sigmask(SIG_SETMASK, &o->old, NULL);
	}
	errno = e;
	return e ? -1 : 0;
}

const char *outfile_strerror(const char *path, int err)
{
	struct stat st;
	if (err == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return "dangling symbolic link, not replaced";
	if (err == EAGAIN)
		return "changed while opening it; not replaced";
	return strerror(err);
}

/* The file an overwrite of path replaces (a symlink's target), malloc'd; NULL unless it is
 * a regular file this user may write. */
static char *writable_dest(const char *path)
{
	struct stat st, lst;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
		return NULL;
	return lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : xstrdup(path);
}

/* Whether this user cannot create a file in dest's directory. */
static bool dir_refuses(const char *dest)
{
	int n = dir_len(dest);
	char *dir = n ? xasprintf("%.*s", n, dest) : xstrdup(".");
	bool refuses = faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0;
	free(dir);
	return refuses;
}

char *outfile_message(const char *path, int err, bool *in_place)
{
	char *dest = err == EACCES || err == EPERM ? writable_dest(path) : NULL;
	*in_place = dest && dir_refuses(dest);
	char *msg, *word = text_shell_word_dup(*in_place ? dest : path);
	if (!*in_place) {
		msg = xasprintf("cannot write %s: %s", word, outfile_strerror(path, err));
	} else if (dir_len(dest)) {
		char *dir = xasprintf("%.*s", dir_len(dest), dest), *dir_word = text_shell_word_dup(dir);
		msg = xasprintf("cannot create a temporary file in %s (%s): the CSV is written there and renamed "
				"over %s", dir_word, strerror(err), word);
		free(dir_word);
		free(dir);
	} else {
		msg = xasprintf("cannot create a temporary file in the current directory (%s): the CSV is written "
				"there and renamed over %s", strerror(err), word);
	}
	free(word);
	free(dest);
	return msg;
}
