/* SPDX-License-Identifier: MIT */
/* infile.h: the one way loaders open an input file. A FIFO, device or socket named as
 * PATH or found inside a run directory (a run.json that is a FIFO) would block the load
 * forever or never end: infile_open() opens without blocking and refuses anything that
 * is not a regular file (on which O_NONBLOCK has no effect: reads block as usual). No
 * open ever blocks: a steps.jsonl FIFO (infile_openat_stream) is read once a writer has
 * it open, waited for a bounded time (the FIFO wait). */
#ifndef MODEL_INFILE_H
#define MODEL_INFILE_H

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include "model/base.h"

/* errno of infile_open() for an existing path that is not a regular file or directory. */
#define INFILE_ENOTREG ENODEV
/* errno of infile_openat_stream() for a FIFO that no writer has open (EPIPE: never what
 * an open or a read gives). */
#define INFILE_ENOWRITER EPIPE
/* The FIFO wait: how long a FIFO is given to get a writer (one started with the load, or
 * typed in another terminal after it) before it is refused as INFILE_ENOWRITER, in
 * seconds; TSCOPE_FIFO_WAIT sets it (0 to INFILE_FIFO_WAIT_MAX_S; any other value leaves
 * the default, and the refusal's message says it was not used). A FIFO nobody writes
 * (left in a copied run) costs the load that long. */
#define INFILE_FIFO_WAIT_S 10
#define INFILE_FIFO_WAIT_MAX_S 86400

/* A read-only, close-on-exec descriptor for a regular file, or -1 with errno
 * (EISDIR for a directory, INFILE_ENOTREG for a FIFO/device/socket). */
int infile_open(const char *path);
/* As infile_open, with what fstat said of the file in *st. */
int infile_open_st(const char *path, struct stat *st);
/* As infile_open_st, path relative to the directory dirfd (or AT_FDCWD). */
int infile_openat_st(int dirfd, const char *path, struct stat *st);
/* As infile_open_st, path relative to the directory dirfd (or AT_FDCWD), but a FIFO is
 * accepted and read as a stream until its writer closes it (steps.jsonl fed by a pipe),
 * when a writer has it open (or left bytes in it): one with none within the FIFO wait
 * is refused (INFILE_ENOWRITER), never waited for longer (a load must end). Its reads
 * block, as on a pipe. *st is the stat of path taken just before the open (one stat, no
 * fstat: the size a one-shot load reads up to). */
int infile_openat_stream(int dirfd, const char *path, struct stat *st);
/* The open of infile_openat_stream() after its stat, *st taken by the caller. */
int infile_openat_statted(int dirfd, const char *path, const struct stat *st);
/* The same as a stdio stream ("rb"). */
FILE *infile_fopen(const char *path);
/* A stat's mtime in nanoseconds since the epoch: what the index and follow mode record
 * of a file to tell whether it changed. */
long long infile_mtime_ns(const struct stat *st);
/* Message for an infile_open errno ("not a regular file (FIFO, device or socket)",
 * "a FIFO with no writer within 10 s (TSCOPE_FIFO_WAIT sets the wait)"). */
const char *infile_strerror(int err);

#endif
