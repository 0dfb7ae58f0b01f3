/* SPDX-License-Identifier: MIT */
/* outfile.h: the one safe way to write an output file the user named (`--export -o`,
 * the explorer's `e`, `--export all`). What happens depends on what is at the path:
 *   - nothing: the data goes to a short temp file in the same directory
 *     (".tscope-XXXXXX", so any valid name works), mode 0666 & ~umask, renamed into
 *     place on commit;
 *   - a regular file (also through a symlink): refused unless overwrite (EEXIST); the
 *     temp file then replaces the link's target (never the link) and keeps its mode;
 *   - a FIFO, a character device, or any existing path under /dev/ (/dev/null, a
 *     tty): written in place, never replaced, no overwrite needed; /dev/stdout,
 *     /dev/stderr and /dev/fd/N write to that descriptor as the shell set it up;
 *   - a dangling symlink (ENOENT), a directory (EISDIR) or anything else (EINVAL):
 *     refused. Nothing is ever renamed over a path that is not a regular file.
 * While the temp file exists the termination signals (INT, TERM, HUP, QUIT, ALRM,
 * USR1/2, XCPU, XFSZ, VTALRM, PROF) are blocked in the calling thread, so one arriving
 * mid-write takes effect after the temp file is renamed or removed: nothing is left
 * behind (a write past RLIMIT_FSIZE fails with EFBIG instead of killing us). */
#ifndef MODEL_OUTFILE_H
#define MODEL_OUTFILE_H

#include <signal.h>
#include <stdio.h>
#include "model/base.h"

struct outfile {
	FILE *f;         /* write here between open and close */
	char *tmp;       /* temp file path, NULL when writing in place */
	char *dest;      /* rename target */
	sigset_t old;    /* signal mask to restore */
};

/* Returns 0 with o->f open, or -1 with errno (see above). */
int outfile_open(struct outfile *o, const char *path, bool overwrite);
/* Flush and close; commit (rename) when ok and every write succeeded, else remove the
 * temp file. Returns 0, or -1 with errno of the first failure. */
int outfile_close(struct outfile *o, bool ok);
/* A termination signal (INT, TERM, HUP, QUIT, ALRM, USR1/2, XCPU) is pending, held
 * while a temp file exists: a long writer stops and closes without committing, and
 * the signal then takes effect. */
bool outfile_interrupted(void);
/* Message for a failed outfile_open/close on path (strerror, or "dangling symbolic
 * link, not replaced"). */
const char *outfile_strerror(const char *path, int err);
/* The message for a failed outfile_open/close (errno err) on path, malloc'd, unsanitized:
 * "cannot write PATH: REASON" (outfile_strerror); or, when path is a regular file this
 * user may write in a directory where it may not create a file (the temp file, which is
 * renamed over path, cannot be made), "cannot create a temporary file in DIR/ (REASON):
 * the CSV is written there and renamed over PATH" (DIR and PATH: a symlink's target's),
 * *in_place then true: the file can still be written in place (`-o - > PATH`). PATH and
 * DIR as shell words (text_shell_word_dup: quoted where they hold a blank). */
char *outfile_message(const char *path, int err, bool *in_place);

#endif
