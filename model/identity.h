/* SPDX-License-Identifier: MIT */
/* identity.h: run identity. Before anything is loaded, group the PATH arguments (and
 * what each PATH holds) into runs, so that sources of different runs are never merged
 * into one `struct run` (DESIGN.md invariant 11).
 *
 * RULES (cheap: probes, directory listings and the lowest rank's run.json name).
 *   - The same PATH twice (same realpath) counts once.
 *   - A pytscope run dir is one run: its rank{k}/ dirs, and its own traces, which are
 *     exactly the documented combination: pytscope's trace.json (.gz, kineto.json[.gz])
 *     in the run dir and trace files inside its rank{k}/ dirs. Any other trace file under
 *     it (e.g. a *.pt.trace.json beside the rank dirs) is a different run. (Once read, a
 *     trace in rank{k}/ whose distributedInfo names another rank or world_size is left
 *     out as another job's: trace_drop_foreign, model/trace/internal.h.)
 *   - Two pytscope PATHs are one run when their run.json names are equal and their rank
 *     ids do not overlap (rank dirs given one by one); otherwise two runs.
 *   - A trace directory is one run; trace files given one by one form one run together.
 *   - GenAI-Perf artifacts directories among sweep PATHs, and directories among DASF
 *     PATHs (one run's databases), are one run each when there are two or more of them:
 *     two alone form a pair (compare mode, diff_sweep, diff_functions). Another PATH of
 *     the family (a loose GenAI-Perf file, a NAT or Cerebras PATH, a database file) joins
 *     the run of the given directory that holds it; those in none of them are one run of
 *     their own (`astray`), so the PATHs hold three runs or more and are refused, never
 *     merged into a directory's run. With one such directory or none, all the family's
 *     PATHs are one run (files given one by one; a sweep dir with a NAT or Cerebras PATH),
 *     whatever the order: each PATH is judged by the loader that claims it, not by the
 *     first PATH's. A sweep, a DASF database, traces and a training run next to each
 *     other are different runs.
 *   - A sweep or DASF PATH that the load of a directory of its family given beside it
 *     reads already (as that directory's loaders find their files: sweep_*_dir_files,
 *     dasf_dir_files) is dropped before all this, whatever the order and the number of
 *     directories, and named in a note of that directory's run (run_identity_notes). A
 *     file under the directory that its load does not read (another format, deeper than
 *     its loader looks) is not dropped.
 *   - A PATH inside another PATH given (by realpath: a sweep dir and one of its level dirs,
 *     a run dir and one of its rank dirs) that is not in a run of that PATH (dropped as
 *     above, or joined to it as a file under a directory) is refused (`nested`): never
 *     merged, never compared as two runs ("INNER is inside OUTER: give one of them").
 *   - A folder holding a sweep in subdirectories beside runs of another kind is a folder
 *     of runs, the sweep one of them (run_identity_folder, below).
 * --format restricts the probing to that loader (the way to pick one run of a mixed
 * folder); --trace files are attached on purpose and are not grouped here. */
#ifndef MODEL_IDENTITY_H
#define MODEL_IDENTITY_H

#include "model/opts.h"

struct run;
struct run_child;

enum run_family { FAMILY_STEPS, FAMILY_TRACES, FAMILY_SWEEP, FAMILY_DASF };

struct run_group {
	enum run_family family;
	const char *format;      /* the claiming loader's --format name (static) */
	char *name;              /* pytscope run.json name, NULL otherwise / when absent */
	char **paths;            /* what opens this run alone (PATHs, or trace files) */
	const char **formats;    /* per path: the --format name of the loader claiming it (static) */
	size_t npaths;
	long *rank;              /* pytscope: rank ids (for the overlap test) */
	size_t nrank;
	bool complete;           /* a pytscope run with step logs (compare mode takes two) */
	bool astray;             /* PATHs in none of the directories given beside them (rules above) */
};

struct run_drop {
	char *path;              /* the PATH dropped */
	char *dir;               /* the directory PATH whose load reads it */
};

struct run_identity {
	struct run_group *v;     /* the runs found, in PATH order */
	size_t n;
	const char **paths;      /* the PATH list without repeats (the caller's strings) */
	size_t npaths;
	size_t nrepeats;         /* PATHs dropped as repeats */
	struct run_drop *drops;  /* PATHs dropped as read by a directory's load (rules above) */
	size_t ndrops;
	const char *nested[2];   /* a PATH inside another PATH in none of its runs, and that
				  * PATH (the caller's strings), or NULL: refused (rules above) */
};

/* Group paths into runs (see above). Never fails; n == 0 when nothing was recognised. */
void run_identify(const char *const *paths, size_t npaths, const struct opts *opts,
		  struct run_identity *out);
/* After loading run `group` of id (0 for the one run): a note in run's data-quality list
 * for each PATH dropped as read by the load of one of its directories ("already read as
 * part of DIR"). */
void run_identity_notes(const struct run_identity *id, size_t group, struct run *run);
/* True when the runs are exactly two complete pytscope runs (a comparison). */
bool run_identity_is_pair(const struct run_identity *id);
/* What was found and how to open one run, several lines, each ending in "\n" (data
 * text sanitized, so a newline of a path is "^J", never a line of its own; the paths of
 * the command lines are shell words, text_shell_word_dup); first the nested PATHs when
 * there are. malloc'd. */
char *run_identity_describe(const struct run_identity *id);
/* The refusal of id (more than one run, not a pair, or nested PATHs) as a run in the
 * model: no data, one source per PATH of each group whose `refused` says which run it is
 * and how to open it alone (a command line of shell words), an error diagnostic,
 * run->refused set. The Sources view and `--export sources` show it; the caller writes
 * run_identity_describe() on stderr and exits 1. */
struct run *run_identity_refusal(const struct run_identity *id, const struct opts *opts);
void run_identity_free(struct run_identity *id);

/* After loading one run: its traces' ranks (distributedInfo, else the file name) must be
 * ranks of its step logs, unless the traces came with --trace or the run has no step log
 * (its steps are the traces' own ProfilerSteps: trace_steps_only). NULL when they are; else
 * the refused run (as run_identity_refusal: run's sources and diagnostics, no data, the
 * foreign trace's source saying why), with what was found and how to pick in why (lines
 * ending in "\n", the trace's path sanitized, the command line's a shell word) for stderr. The
 * caller frees both runs. */
struct run *run_identity_mismatch(const struct run *run, char *why, size_t n);

/* A folder of runs (never a run dropped in silence): the runs below the one PATH dir, into
 * *kids (run_children, model/run.h; 0 and NULL when dir is no such folder), given run, the
 * run loaded from dir. dir holds no run itself; or the sweep loaders, which look several
 * levels down, found a sweep in its subdirectories alone, beside runs of another kind (a
 * training run, traces, DASF databases): the sweep is then one run of the folder, named
 * as the others are. A sweep dir (its levels in subdirectories, nothing else) is no such
 * folder, nor a sweep with files of dir's own: each run of another kind below it gets a
 * warning in run's diagnostics saying how to open it alone. */
size_t run_identity_folder(const char *dir, struct run *run, const struct opts *opts, struct run_child **kids);

#endif
