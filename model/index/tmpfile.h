/* SPDX-License-Identifier: MIT */
/* tmpfile.h: the temporary files of the index (model/index/): index_file_write()
 * (wfile.c) writes each file of the index to a temporary file beside it and renames it
 * into place. While written, a temporary file is registered, so that a signal handler can
 * remove it (index_tmp_unlink, index.h); before one is created, the ones of the same
 * target a killed writer left behind (SIGKILL, the OOM killer, a node that went down:
 * nothing could remove them) are removed once nothing has written to them for
 * INDEX_TMP_STALE_S seconds (a live writer writes all the time: a megabyte at once). */
#ifndef MODEL_INDEX_TMPFILE_H
#define MODEL_INDEX_TMPFILE_H

#define INDEX_TMP_STALE_S 600

/* The temporary file for path ("PATH.PID.tmp", malloc'd), registered; stale ones of path
 * removed first. */
char *index_tmp_begin(const char *path);
/* tmp is written and renamed, or removed: no longer registered; freed. */
void index_tmp_end(char *tmp);

#endif
