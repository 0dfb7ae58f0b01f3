/* SPDX-License-Identifier: MIT */
/* index_cmd.h: the `tscope-tui index` subcommand (src/index_cmd.c): its entry point, and
 * what it shares with its Slurm job array writer (src/index_slurm.c) and the state lines
 * (src/index_health.c): the parsed command line, the usage error, the count of a run's
 * rank dirs, whether the index is current, and the run opened as any open opens it. */
#ifndef SRC_INDEX_CMD_H
#define SRC_INDEX_CMD_H

#include "model/base.h"

#define INDEX_MAX_SHARDS 1000u
/* Why nothing was written or submitted for a run dir with no rank dir and no trace. */
#define INDEX_NOTHING_HERE "nothing to index here: the index holds pytscope ranks and traces"

struct opts;
struct run;
struct steps_rank_file;

struct index_cli {
	const char *run_dir;
	int jobs;
	unsigned shard_k, shard_n;  /* --shard K/N */
	unsigned shards;            /* --shards N (with --slurm) */
	bool slurm, dry_run, status, merge_step, force, verify;
	bool help, version;         /* -h/--help, -V/--version: the rest of the line unread */
	const char **sbatch;        /* with --slurm, sbatch's: the other arguments, in order */
	size_t nsbatch;
};

/* argv[0] is "index". Returns the exit status (0 ok, 1 failure, 2 usage error). */
int index_main(int argc, char **argv);

/* A usage error: what was wrong (with arg, sanitized, when not NULL) and the pointer to
 * --help on stderr. Returns 2. */
int index_cli_fail(const char *what, const char *arg);

/* The rank dirs of a plan (index_plan): its entries, none when its one entry is the run
 * dir itself without steps.jsonl or run.json (a dir of traces, no pytscope run: the
 * plan's stand-in rank 0). */
size_t index_plan_rank_dirs(const char *run_dir, const struct steps_rank_file *files, size_t n);

/* --slurm: writes the job array's script and submits it (--dry-run: prints it). Returns
 * the exit status. */
int index_slurm(const struct index_cli *c);

/* The index of c->run_dir is current (every part usable, nothing since, its summary of
 * the parts as they are: written from them when it is not, e.g. a sharded build's
 * merged); said on stdout ("index current: DIR (8 ranks); nothing to rebuild", with
 * --slurm "no job submitted"). False, and nothing said, when it is not, or has no part. */
bool index_report_current(const struct index_cli *c);

/* The run opened as any open opens it, with the progress line on a terminal; o (the
 * caller's, which the run points to until run_free) set to the index command's jobs. */
struct run *index_open_as_any(const struct index_cli *c, struct opts *o);

#endif
