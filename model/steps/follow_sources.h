/* SPDX-License-Identifier: MIT */
/* follow_sources.h: private to the follower (load_follow.c): a followed rank's files, their
 * state on disk (an mtime's age, run.json's stamp, the CRC of a window read before) and
 * what reading them leaves in the run's inventory (run->src, run->diags), kept as a fresh
 * open would have it; the traces and DASF databases that appear beside them.
 *
 * CONTRACT.
 * - A rank read again from the start (its steps.jsonl shrank, was replaced or rewritten)
 *   and a run.json read again replace what the earlier read left: the diagnostics about
 *   that file for that rank go, and its source row is reused (steps.jsonl: the same slot,
 *   read again from its start; run.json: run_replace_sources), never added a second
 *   time. Source slots never move for a live tail (its reader holds the index), nor for
 *   another family or rank (run_replace_sources keeps them).
 * - A steps.jsonl read once it was missing or unreadable takes away the notes and errors
 *   that said so (the loader's "no steps.jsonl", "cannot open", the follower's "cannot
 *   stat"). The warning that a finished rank (run.json's n_steps) has no record stands
 *   while its file, read to its end, gives none, as at a fresh open
 *   (follow_note_no_records after each poll of the file).
 * - A listing of a followed PATH replaces the notes the last one (or the load) made on
 *   what it leaves unread (steps_plan: a rank dir whose id a later name has, a run dir's
 *   own steps.jsonl beside rank dirs).
 * - A steps.jsonl that can no longer be read (it cannot be opened, or it and its rank dir
 *   are gone) shows so in its source row (unreadable, the errno), as a fresh open shows a
 *   file it cannot read; the row is the read's again once the file reads.
 * - The diagnostic list is changed on the follower's thread only (no loader runs then). */
#ifndef MODEL_STEPS_FOLLOW_SOURCES_H
#define MODEL_STEPS_FOLLOW_SOURCES_H

#include <stdint.h>
#include <sys/stat.h>
#include "model/run.h"
#include "model/steps/internal.h"

struct follow;
struct ftail;

/* Seconds since the file was last written, by the login node's clock (0 when the file
 * server's clock runs ahead): where a rank loaded before following last advanced. */
double follow_mtime_age(const struct stat *st);
/* CRC of the last EXTENT_WINDOW bytes before offset at of fd (an index extent's tail
 * window: one read, where the next read resumes); false when they cannot be read. */
bool follow_window_crc(int fd, long long at, uint32_t *crc);
/* dir/run.json's size (-1: absent or not to stat) and mtime in ns. */
void follow_meta_stat(const char *dir, long long *size, long long *mtime);
/* t's window over the bytes read so far, from fd (none when it cannot be read). */
void follow_take_window(int fd, struct ftail *t);
/* The bytes t read before still end as they did when the window was taken. */
bool follow_window_holds(int fd, const struct ftail *t);
/* t's window of what the loader read of source si: the tail window it stamped (for an
 * index, extent.h), else taken now. */
void follow_window_from_load(struct run *run, long si, struct ftail *t);
/* t's run.json as read into meta (its stamp), else (not read: restored from the index,
 * unreadable; no rank yet) as it is now. */
void follow_meta_note(struct ftail *t, const struct steps_meta *meta);

/* The pytscope source the loader or the follower registered for path (the latest), or -1. */
long follow_source_of(const struct run *run, const char *path);
/* path's source row (if any) says it cannot be read: errno err. */
void follow_source_failed(struct run *run, const char *path, int err);
/* t's steps.jsonl cannot be read (err, what failed: "cannot open"): a diagnostic and its
 * source row say so, as a fresh open would. */
void follow_mark_unread(struct run *run, struct ftail *t, int err, const char *what);
/* A checksum of the records of rank index ri of m (steps, timestamps, values): a rank read
 * again from the start that gives the same holds the same records. */
uint64_t follow_records_sum(const struct steps_model *m, size_t ri);
/* Drop rank's diagnostics about the file path. */
void follow_drop_diags(struct run *run, const char *path, long rank);
/* The steps.jsonl path of rank reads now: drop its notes and errors that said it was
 * missing or unreadable. */
void follow_file_readable(struct run *run, const char *path, long rank);
/* The warning that t's rank holds no record though its run.json records n_steps, added or
 * removed as a fresh open would have it now (t->no_records: it stands). */
void follow_note_no_records(struct run *run, struct ftail *t);
/* The rank files under path as a load plans them (steps_plan_files), the plan's notes on
 * what it leaves unread replacing those about files directly in path. */
size_t follow_list_path(struct run *run, const char *path, struct steps_rank_file **out);
/* PATH i of f, a directory, was listed again: the traces (not with --trace, which names
 * them) and DASF databases a load of it finds there now (trace_list_files; the DASF
 * loader's, unless --format names another family), neither read nor said before, are
 * said once each, in one event a poll per kind (LIVE.NEW_TRACE, LIVE.NEW_DASF):
 * following reads step logs and sweeps only, a reopen reads them. */
void follow_note_new_files(struct follow *f, size_t i);
/* The rank dirs of f's tails (not a PATH itself) are looked at in turn, each once in T/4
 * or 5 s, whichever is shorter (T: the stall threshold, as run.json's look), by the
 * calls' clock (now; a stat each, a share of them a call): one whose mtime changed
 * since it was last looked at is listed alone for the traces a load of its run dir reads
 * there (trace_list_rank_dir), said as follow_note_new_files() says them; a rank dir's
 * first look (a tail new since the last call) only takes its mtime. A file added to
 * rank0/ changes rank0's mtime, not its run dir's. */
void follow_note_rank_traces(struct follow *f, double now);
/* Read dir/run.json of rank into meta (zeroed by the caller); again (it may have been read
 * before): its diagnostics and source row replace the earlier read's. */
void follow_read_meta(struct run *run, const char *dir, long rank, struct steps_meta *meta, bool again);
/* The files of a rank no longer read (dir's steps.jsonl and run.json: a run dir's own
 * once rank dirs appear): their diagnostics go, their source rows show nothing loaded
 * (run_replace_sources). */
void follow_forget_files(struct run *run, const char *dir, long rank);
/* A tail reading rank's steps (size bytes now) from its start: with slot (a tail read it
 * before), in the source slot it was read into, reset (run_source_reread); else a new one. */
struct steps_tail *follow_tail_restart(struct load_ctx *ctx, long rank, const char *steps, long long size,
				       bool slot);

#endif
