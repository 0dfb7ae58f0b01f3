/* SPDX-License-Identifier: MIT */
/* run.h: struct run, the one run model every input format lands in, and its lifetime.
 *
 * A run owns: the sources read (the data-quality inventory), the diagnostics, and one
 * model per input family, each owned and freed by its subsystem (registry.h):
 *   steps  per-rank columnar step records (pytscope; also step spans from traces)
 *   trace  Kineto/Chrome traces: kernels, streams, per-rank summaries
 *   sweep  inference sweeps and sizing (GenAI-Perf, NAT calculator, Cerebras)
 *   dasf   DASF event databases
 * Any of them may be NULL. Analyzer results are memoized inside those models and
 * invalidated only by a reload or by follow mode growing the run (run_changed()).
 *
 * Threading: run_open() runs loaders, which may use worker threads;
 * run_add_source()/run_source_records()/run_source_done() and diag_add() are the only
 * calls they make concurrently. After run_open() returns, the run changes only on the
 * thread that reads it, between frames: model commands (struct model_cmd: `:objective`,
 * `:constraint` re-rank the sweep) and follow mode (model/steps/follow.h) growing it;
 * run_changed() then drops what depended on the old data. */
#ifndef MODEL_RUN_H
#define MODEL_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include "model/diag.h"
#include "model/findings.h"
#include "model/opts.h"

/* Subsystems a run can hold a model for in run->family (registry.c checks the count). */
#define RUN_MAX_FAMILIES 16

struct steps_model;
struct trace_set;
struct sweep_set;
struct dasf_db;

/* A line-oriented file as its loader opened it, for the index's extents
 * (model/index/extent.h extent_stamp): the source's size read and covered bytes then
 * (consumed, -1: none), the file's mtime and inode at open, and when `windows` the
 * CRC-32 windows of its first `consumed` bytes. set false: not recorded. */
struct source_stamp {
	bool set, windows;
	long long size, mtime_ns, ino, consumed;
	uint32_t head_crc, tail_crc;
};

struct source {
	char *path;          /* as read (unsanitized; sanitize when shown); in run->src_text */
	const char *format;  /* loader name, static */
	int rank;            /* -1 when not per-rank */
	long long bytes;     /* file size, -1 unknown */
	size_t records;      /* records loaded */
	size_t skipped;      /* records skipped (each has a diagnostic) */
	int err;             /* 0, or errno of a failure to read the file */
	bool partial;        /* truncated tail / still being written */
	long long consumed;  /* line-oriented sources: bytes loaded (where following resumes) */
	long lines;          /* lines consumed up to `consumed` */
	char *refused;       /* owned, NULL: why it was not opened with the others (identity.h) */
	bool left_out;       /* of a rank --ranks does not name: its records are not in the run */
	struct source_stamp stamp; /* good while bytes and consumed are the stamp's */
	uint64_t path_hash;  /* run_path_hash(path), taken while the path is at hand */
};

struct run {
	char *path;          /* first PATH argument, as typed */
	/* The PATHs run_open() read, as given (copies): the identity's list (model/identity.h),
	 * which follow mode reads again. */
	char **paths;
	size_t npaths;
	char *name;          /* display name: run.json name, else basename(path) */
	const struct opts *opts;
	char *index_path;    /* the index part this load wrote (model/index/index.h), or NULL */
	/* Owned, NULL: why these PATHs were refused as one run (model/identity.h). A refused
	 * run holds no data, only what was found: its sources (each with its reason) and
	 * diagnostics, for the Sources view; the program exits 1. */
	char *refused;

	struct diag_list diags;
	struct source *src;
	size_t nsrc, srccap;
	/* The sources' paths, back to back in blocks (run_add_source; a block chain freed
	 * with the run): the index writes them in order, reading memory in sequence. */
	struct run_text_block *src_text;
	pthread_mutex_t lock;

	struct steps_model *steps;
	struct trace_set *trace;
	struct sweep_set *sweep;
	struct dasf_db *dasf;
	/* The model of any other family, by its index in registry[] (registry_slot()): a
	 * new input family keeps its model here and needs no field of its own. */
	void *family[RUN_MAX_FAMILIES];

	struct finding_list findings;  /* memoized by run_findings() */
	/* Findings of a live run (follow mode: stalled ranks, reloads), owned by the
	 * follower; run_findings() includes them. NULL when not following. */
	const struct finding_list *live_findings;
	bool findings_done;
	struct findings_progress findings_progress; /* how far run_findings_step() got */
	unsigned generation;
};

/* Progress and cancellation handed to loaders. All fields optional. */
struct load_ctx {
	struct run *run;
	const struct opts *opts;
	atomic_bool *cancel;                 /* loaders stop early when set */
	/* Called from any thread as work advances; bytes are cumulative deltas. */
	void (*progress)(void *ud, long long bytes_done_delta, long long bytes_total_delta);
	/* Optional, called once on the loading thread before any loader runs: the run being
	 * loaded, whose sources another thread may read under run->lock while it loads. */
	void (*started)(void *ud, struct run *run);
	/* Optional, called once on the loading thread after every loader ran, before the run
	 * is finalized (its analyses, the index's summary written): `tscope-tui index` ends
	 * its directory listings' scope there, their memory free for what comes next. */
	void (*loaded)(void *ud, struct run *run);
	/* Optional: what the loaders do now that is not reading bytes (static text, e.g.
	 * "opening the index"; NULL: reading again, and after each loader), for the loading
	 * screen. */
	void (*phase)(void *ud, const char *what);
	void *ud;
};

/* Report progress (thread-safe if the callback is). */
void load_progress(struct load_ctx *ctx, long long done_delta, long long total_delta);
/* Say what the load does now (load_ctx.phase; what: static text, NULL when reading). */
void load_phase(struct load_ctx *ctx, const char *what);
bool load_cancelled(const struct load_ctx *ctx);

/* Open PATHs: every registered loader whose probe() is positive for a path loads it
 * (opts->format restricts to one loader). Never NULL; check run_is_empty(). The run
 * keeps a pointer to opts, which must outlive it. */
struct run *run_open(const char *const *paths, size_t npaths, const struct opts *opts,
		     struct load_ctx *hooks);
/* True when no loader found anything to load. */
bool run_is_empty(const struct run *run);

/* Why the loaders opts selects (NULL: all) loaded nothing from PATH, into buf (n bytes):
 * "cannot open: <reason>" (no such path, or not one to stat), "cannot read: <reason>" (a
 * directory that cannot be listed, a file that cannot be opened, a FIFO, device or
 * socket), "cannot read NAME: <reason>; no supported data in the rest" (a directory
 * holding files that cannot be opened: the first named, how many when several); else,
 * under --ranks LIST when a loader claims PATH, "no data here of a rank --ranks LIST
 * names"; under --format NAME, "no data of --format NAME here: it holds OTHER data
 * (--format OTHER, or no --format)", "...: it holds N runs below it of another format
 * (OTHER, the first's): drop --format" or "no data of --format NAME here, nor of
 * another format"; else "no supported data found here". True for the "cannot" ones (an
 * error, not a warning). */
bool run_path_why_empty(const char *path, const struct opts *opts, char *buf, size_t n);
/* Follow mode looks at PATH again: the note run_open() left that nothing was loaded
 * there (if any) becomes what a fresh open would say now: none once a selected loader
 * claims PATH (data arrived), else why it is empty, as it is now. True when a note stands
 * (false too when there was none: nothing changes then). */
bool run_path_note_again(struct run *run, const char *path);

/* The name (static) of the first loader selected by opts (--format) whose probe claims
 * path, NULL when none. Cheap (probes only). */
const char *run_path_loader(const char *path, const struct opts *opts);
/* A folder of runs: the subdirectories of dir (one level, sorted by name) that a
 * selected loader claims, with the first claiming loader's name. Returns how many;
 * *out is a malloc'd array of malloc'd paths ("dir/child"), NULL when none. Cheap
 * (probes only). Free with run_children_free(). */
struct run_child {
	char *path;
	const char *format;   /* static loader name */
};
size_t run_children(const char *dir, const struct opts *opts, struct run_child **out);
void run_children_free(struct run_child *v, size_t n);
void run_free(struct run *run);

/* A 64-bit hash of a path (its bytes 8 at a time), as struct source.path_hash holds it. */
uint64_t run_path_hash(const char *path);
/* Register a source file; returns its index for run_source_done(). Thread-safe. */
size_t run_add_source(struct run *run, const char *path, const char *format, int rank,
		      long long bytes);
void run_source_done(struct run *run, size_t idx, size_t records, size_t skipped, int err,
		     bool partial);
/* Records loaded so far while a source is read (the loading screen counts them); the
 * count run_source_done() gives is the final one. Thread-safe. */
void run_source_records(struct run *run, size_t idx, size_t records);
/* Line-oriented sources: file size now, bytes and lines consumed (follow resumes there). */
void run_source_progress(struct run *run, size_t idx, long long bytes, long long consumed, long lines);
/* The run's data changed (follow mode appended or reloaded): drop the memoized
 * findings and bump run->generation. The subsystems invalidate their own analyses. */
void run_changed(struct run *run);
struct subsystem;
/* Follow mode for a family without an appending reader (sweeps): free its model, load
 * the PATHs again with its loaders, finalize it, run_changed(). The family's sources and
 * diagnostics (those its loaders and finalize added, diag.family) are replaced by the
 * reload's, and the note that nothing was found at a PATH goes once the family loads
 * something there. */
void run_reload_family(struct run *run, const struct subsystem *sub, const char *const *paths,
		       size_t npaths);
/* The sources added at [had, nsrc), read again, replace the earlier ones for which
 * old(s, ud) is true. Others hold the indices of their sources, which must not move: an
 * old source before a kept one keeps its slot, with the source read again at its path
 * in it (else nothing loaded, and the error when the file is gone); the other old ones
 * are removed, and the sources read again that have no slot yet follow, in the order
 * read. had == nsrc: the old ones are not read again. */
void run_replace_sources(struct run *run, size_t had, bool (*old)(const struct source *s, const void *ud),
			 const void *ud);
/* Source idx is read again from its start (follow mode reloads its file; bytes: its size
 * now): its counts, error and stamp start over, its slot and path stay. */
void run_source_reread(struct run *run, size_t idx, long long bytes);
/* A hash of the names, sizes and mtimes under path, depth levels deep (0: path only);
 * it changes when a file or directory is added, removed, grown or rewritten. */
unsigned long long run_tree_signature(const char *path, int depth);
/* Mark the run refused (identity.h) with why (copied) and source idx (-1: none) with
 * its own reason src_why (copied). */
void run_refuse(struct run *run, const char *why, long idx, const char *src_why);
/* Replace the display name (copied). */
void run_set_name(struct run *run, const char *name);
void run_set_index_path(struct run *run, const char *path);

/* Findings of the run, computed on first call (all subsystems' rules), or finished
 * there when run_findings_step() began them. */
const struct finding_list *run_findings(struct run *run);
/* One more step of the findings (the explorer's idle time, so that the first pane that
 * shows them does not wait for every rule): a rule, or a slice of bounded cost of a rule
 * whose work grows with the run (findings.h); true when they are complete. */
bool run_findings_step(struct run *run);
/* Drop the findings (made or begun): the next run_findings() computes them again. */
void run_findings_reset(struct run *run);

#endif
