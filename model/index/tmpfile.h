/* SPDX-License-Identifier: MIT */
/* tmpfile.h: the temporary files of the index (model/index/): index_file_write()
 * (wfile.c) writes each file of the index to a temporary file beside it and renames it
 * into place. While written, a temporary file is registered, so that a signal handler can
 * remove it (index_tmp_unlink, index.h); before one is created, the ones of the same
 * target a killed writer left behind (SIGKILL, the OOM killer, a node that went down:
 * nothing could remove them) are removed once nothing has written to them for
 * INDEX_TMP_STALE_S seconds (a live writer writes all the time: a megabyte at once) and
 * no process holds their lock: a writer holds one on its file while it lives
 * (index_tmp_hold), so a writer stopped longer than that (a Slurm job suspended by
 * preemption, a stalled file system) keeps its file. A file system without flock()
 * (ENOLCK, EOPNOTSUPP: some NFS and Lustre mounts) leaves the age alone to decide. */
#ifndef MODEL_INDEX_TMPFILE_H
#define MODEL_INDEX_TMPFILE_H

#define INDEX_TMP_STALE_S 600

/* The temporary file for path ("PATH.PID.tmp", malloc'd), registered; stale ones of path
 * removed first. */
char *index_tmp_begin(const char *path);
/* fd, open for writing on the temporary file, holds its lock until it is closed: the
 * sweep of any process leaves the file alone meanwhile. */
void index_tmp_hold(int fd);
/* tmp is written and renamed, or removed: no longer registered; freed. */
void index_tmp_end(char *tmp);

#endif
