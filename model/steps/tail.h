/* SPDX-License-Identifier: MIT */
/* tail.h: the pytscope loader's pieces that follow mode (model/steps/follow.h) reuses:
 * reading a rank's steps.jsonl from a byte offset, the rank files a PATH holds, and a
 * rank's run.json. Implemented in model/steps/load.c.
 *
 * CONTRACT. A tail remembers, per file: the offset of the first byte not consumed, the
 * line number, the key cache and scanner predictions, the records and skipped lines
 * counted so far, and its entry in run->src (kept current on every read).
 * steps_tail_read() reads [offset, limit) with pread and feeds every complete
 * ('\n'-terminated) line into r; what is loaded is never read again. The bytes after
 * the last newline are a pending line: with `final` (one-shot load) a last line that
 * parses is loaded, otherwise it is kept for the next read (a half-written line is
 * retried, not skipped). Bad lines become diagnostics with file:line, as in the
 * loader. A read error is diagnosed once per distinct errno. Returns 0 or the errno. */
#ifndef MODEL_STEPS_TAIL_H
#define MODEL_STEPS_TAIL_H

#include "model/run.h"
#include "model/steps/steps.h"

struct steps_tail;

/* size: the regular file's size seen at open (a reserve hint and the source's size);
 * -1 for a pipe or an unknown size: then reads are sequential read() calls from where
 * the descriptor stands, not pread().
 * ctx must outlive the tail (diagnostics go to ctx->run). */
struct steps_tail *steps_tail_new(struct load_ctx *ctx, int rank, const char *path, long long size);
/* Continue source run->src[src] (a steps.jsonl the loader read) where the loader
 * stopped: offset src.consumed, line src.lines, its counts. */
struct steps_tail *steps_tail_resume(struct load_ctx *ctx, size_t src);
int steps_tail_read(struct steps_tail *t, struct rank_steps *r, int fd, long long limit, bool final);
long long steps_tail_offset(const struct steps_tail *t);
/* The bytes after the offset are a truncated line (still being written). */
bool steps_tail_partial(const struct steps_tail *t);
/* Records loaded from this file so far. */
size_t steps_tail_records(const struct steps_tail *t);
void steps_tail_free(struct steps_tail *t);

/* The rank files under PATH as the loader plans them: rank{k}/ dirs in name order, else
 * the directory itself (rank 0), else a steps.jsonl given directly. */
struct steps_rank_file {
	long rank;
	char *dir;      /* holds run.json */
	char *steps;    /* the steps.jsonl path */
};
size_t steps_plan_files(const char *path, struct steps_rank_file **out);
void steps_rank_files_free(struct steps_rank_file *v, size_t n);
/* Read dir/run.json into r (diagnostics as in the loader). */
void steps_rank_load_meta(struct run *run, struct rank_steps *r, const char *dir, int rank);

#endif
