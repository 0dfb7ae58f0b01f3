/* SPDX-License-Identifier: MIT */
/* index_health.h: the state of a run's index as `tscope-tui index` reads it
 * (src/index_health.c): what --status lists of each part, the summary and the traces no
 * part holds, and the other place this user's index could be read from; which the
 * command also reads to tell whether the whole index, or one shard of it, is current.
 * Every function reads the index where an open reads it (index_dir_for()). */
#ifndef SRC_INDEX_HEALTH_H
#define SRC_INDEX_HEALTH_H

#include <stdio.h>
#include "model/base.h"

struct index_cli;

/* What the parts' lines find: the parts, those not usable, and what an open would read
 * besides them (ranks whose steps.jsonl grew, deltas, traces changed or new since). */
struct index_health {
	size_t parts, trace_parts, bad, since;
	size_t steps_bad;       /* steps parts not usable */
	unsigned steps_bad_k;   /* the first of them: shard K of steps_n */
	unsigned steps_n;       /* the steps parts' shard count */
	bool sharded;           /* the steps parts are shards K/N, N > 1 (an open rebuilds none) */
	size_t ranks, traces;   /* in the usable parts */
	size_t rank_dirs;       /* the run's pytscope rank dirs (the steps parts' to hold) */
};

/* The steps parts' lines on out (NULL: none, a check without a report), added to h. */
void index_health_steps(const char *run_dir, FILE *out, struct index_health *h);
/* The trace parts' lines on out (NULL: none), each part not usable with the traces its
 * shard holds (an open parses them) and what rebuilds it; then the traces no part holds
 * nor is to hold: those an open leaves out (named; the run opened as any open opens it,
 * index_open_as_any()) and the others, which `tscope-tui index` adds; added to h. */
void index_health_traces(const struct index_cli *c, FILE *out, struct index_health *h);
/* The summary's line on stdout (an index with steps parts): current, or why not and what
 * writes it (a command this user can run there, or where it writes instead). */
void index_health_summary(const char *run_dir, const struct index_health *h);
/* The line saying no steps part holds the run's ranks while a trace part is there (each
 * open reads them from the JSONL), on stdout: the index is not usable then (h->bad). */
void index_health_unindexed_steps(const char *run_dir, struct index_health *h);
/* When this user's cache and the run dir's index (read-only here) both hold parts: the
 * line on stdout naming the one not read and what each gives an open (index_dir_unread). */
void index_health_other_place(const char *run_dir);

/* Shard K/N of c (c->shard_n > 0) of the index in dir is current: the index is sharded
 * N ways and the shard's steps part (when it holds a rank dir) and trace part (when it
 * holds a trace) are usable with nothing since (no delta, no rank grown, no trace of it
 * changed, gone or new). *ranks and *traces: what its parts hold. */
bool index_health_shard_current(const struct index_cli *c, const char *dir, size_t *ranks, size_t *traces);

#endif
