/* SPDX-License-Identifier: MIT */
/* steps.h: the per-rank step model (columnar, compact; immutable after load except
 * through the follow-mode growing calls below).
 *
 * CONTRACT (shared by the pytscope loader, the trace loader that adds step spans from
 * ProfilerStep#N, the analyzers and the UI). The implementation (model/steps/store.c) owns
 * the storage details: float32 columns per rank and metric, presence bitmaps so that
 * a missing value is never 0, metric names interned once, per-rank step -> position
 * index, the aligned step set, and per-block aggregates for the heatmap.
 *
 * Writing (loaders): build a struct rank_steps privately on a worker thread
 * (steps_rank_new, rank_append, rank_set), then hand it over with steps_publish_rank()
 * (thread-safe). After every loader ran, run_open() calls steps_finalize() once.
 *
 * Reading: ranks are indexed 0..steps_nranks()-1 in ascending rank id; records in a
 * rank keep file order (steps may repeat or restart: pytscope appends).
 *
 * Storage (model/steps/store.c): per rank and metric one column. Phase columns hold exact
 * integer nanoseconds in a uint32 (pytscope writes int_ns / 1e9, so value = code / 1e9
 * reproduces the written double bit for bit) and fall back to double on the first
 * value that is not such a multiple, so phase sums stay exact. Memory columns are
 * float32 while every value fits exactly (bytes: multiples of 512 B below 8 GiB), else
 * double. Scalar columns (loss, grad_norm, lr, ...) are float32: about 7 significant
 * digits, except on a rank marked rank_exact_scalars() (memory's rule: double when
 * needed). After finalize a column whose values form few runs is stored run-length
 * encoded, and a presence bitmap is kept only when some record lacks the metric.
 * Step numbers cost nothing while a rank's steps are contiguous (step0 + position);
 * timestamps are a double base plus float32 offsets. Heatmap aggregates are built
 * lazily by the analyzers (model/steps/analysis.h), not here.
 *
 * Reading is not synchronised: after run_open() returns, read from one thread (or
 * several readers with no writer). */
#ifndef MODEL_STEPS_H
#define MODEL_STEPS_H

#include "model/base.h"

struct run;
struct table;
struct steps_model;
struct rank_steps;

enum metric_kind { METRIC_PHASE, METRIC_SCALAR, METRIC_MEMORY };

struct metric_def {
	const char *name;        /* interned, owned by the model (unsanitized) */
	enum metric_kind kind;
	uint64_t first;          /* where the run first has it (steps_metric_first), for the
				  * run's order of metrics; METRIC_FIRST_NONE: not known */
};

/* A metric that is rank `rank`'s seq-th (in the order its records name them): ranks
 * by id (ids are not negative), then that order. */
#define METRIC_FIRST_NONE UINT64_MAX
static inline uint64_t steps_metric_first(int rank, unsigned seq)
{
	return (uint64_t)(uint32_t)rank << 32 | seq;
}

/* run.json of one rank (pytscope §3). Missing fields are flagged, never 0. */
struct steps_meta {
	bool present;            /* run.json was read and parsed */
	char *name;              /* owned (or in env_text), NULL when absent (unsanitized) */
	double flops_per_step, peak_flops;
	bool has_flops, has_peak; /* the key holds a JSON number, as read (1e400: inf; the budget
				   * judges it); without one the value is NaN when the key holds
				   * something else (a string, a boolean), else 0 */
	long world_size, n_steps, rank;
	bool has_world, has_nsteps, has_rank;
	double wall_time;
	bool has_wall;
	double started;          /* epoch seconds at pytscope's start() */
	bool has_started;
	/* environment flattened to key=value text ("gpu", "env.OMP_NUM_THREADS", ...), then
	 * config as "config.KEY" (nested values "{...}"; an empty config: "config" = "{}") */
	char **env_key, **env_val;   /* owned (unsanitized): each string, or env_text all */
	char *env_text;              /* when set: the one allocation holding env_key, env_val,
				      * every key and value, and the name */
	size_t nenv;
	/* when not 0: the keys and values lie back to back from env_key[0] in env_bytes
	 * bytes (key0, val0, key1, ..., each with its NUL, none holding a NUL), as the
	 * loader's strict tokenizer and the index decoder make them: one piece to copy,
	 * compare or write */
	size_t env_bytes;
	/* the whole run.json text (owned, NUL-terminated) when it parsed as an object, else
	 * NULL: typed readers (the run comparison's env/config diff of rank 0) parse it again.
	 * A load keeps it for its lowest rank only (not 10,000 copies for one reader). */
	char *json;
	size_t json_len;
	/* run.json as the loader read it: its size (-1: absent) and mtime in ns at the open
	 * (the index part's stamp of it); stamped false: not read here (restored from the
	 * index, or unreadable) */
	bool stamped;
	long long stamp_size, stamp_mtime_ns;
};

/* ---- writing ------------------------------------------------------------- */

/* The run's step model, created on first use. Thread-safe. */
struct steps_model *steps_model_get(struct run *run);
/* Intern (kind, name) and return its metric id. Thread-safe. Ids follow the order
 * names were interned, which several loader threads make arbitrary: what lists metrics
 * goes by steps_metric_nth(), whose places come from the ranks (a rank's first value of
 * a metric gives it that rank's place) and from `first` here (steps_metric_first, as an
 * index part recorded it; plain: METRIC_FIRST_NONE), the lowest winning. */
int steps_metric_intern(struct steps_model *m, enum metric_kind kind, const char *name);
int steps_metric_intern_at(struct steps_model *m, enum metric_kind kind, const char *name, uint64_t first);
struct rank_steps *steps_rank_new(struct steps_model *m, int rank, const char *path);
/* Keep the rank's scalar columns (loss, grad_norm, ...) exact: double instead of float32
 * once a value needs it. The loader sets it on the lowest rank of a run dir, whose loss
 * series pytscope's reports (analyze, diff) compare and print. Before any rank_set. */
void rank_exact_scalars(struct rank_steps *r);
bool rank_scalars_exact(const struct rank_steps *r);
/* Expect about n records (a hint from the file size): avoids growth slack. */
void rank_reserve(struct rank_steps *r, size_t n);
/* Append a record; returns its position. */
size_t rank_append(struct rank_steps *r, long step, double timestamp, bool have_timestamp);
void rank_set(struct rank_steps *r, size_t pos, int metric, double value);
/* rank_set(r, pos, metric, code / 1e9) for a value known as its nanosecond code (a
 * phase the scanner read as one, see scan_member_value): the same stored result,
 * without the division and its check when the column holds codes. */
void rank_set_nano(struct rank_steps *r, size_t pos, int metric, uint32_t code);
/* Set the rank's run.json metadata (takes ownership of meta's heap members). */
void rank_set_meta(struct rank_steps *r, struct steps_meta *meta);
/* Free meta's heap members (and zero it). */
void steps_meta_free(struct steps_meta *meta);

/* ---- run identity (model/identity.c) -------------------------------------- */

/* What a pytscope PATH holds, without loading it (model/steps/load.c). */
struct pytscope_run_info {
	long *rank;              /* rank ids as the loader plans them */
	char **dir;              /* their directories (rank{k}/, or the run dir) */
	size_t n;
	char *name;              /* run.json name of the lowest rank, NULL when none */
	bool has_steps;          /* some rank has a steps.jsonl */
};
void pytscope_run_info(const char *path, struct pytscope_run_info *out);
void pytscope_run_info_free(struct pytscope_run_info *info);
/* Transfer ownership of r to the model (replaces an earlier rank with the same id). */
void steps_publish_rank(struct steps_model *m, struct rank_steps *r);
void steps_rank_free(struct rank_steps *r);
/* A rank dir's name, "rank" + one or more ASCII digits -> the rank id (int(suffix)),
 * else -1. */
long steps_rank_dir_id(const char *name);
/* The rank id of an unpublished rank (a shell decoded from the index). */
int steps_rank_own_id(const struct rank_steps *r);
/* A loader is about to parse `more` ranks (after any it restored from the index): the
 * loading screen's "k of N ranks" (progress.h). Thread-safe. */
void steps_expect_ranks(struct steps_model *m, size_t more);
/* Sort ranks, compact columns, build indexes and the aligned step set. Called once. */
void steps_finalize(struct steps_model *m);
/* Free the run's step model (sub_steps.free). */
void steps_model_free(struct steps_model *m);

/* ---- growing a live run (follow mode, DESIGN invariant 13) ------------------
 * After steps_finalize() a follower (model/steps/follow.h) may append records to a
 * published rank and publish new or replacing ranks, then calls steps_refresh() once
 * per batch before anything reads the model again:
 *   r = steps_rank_grow(m, ri); pos = rank_append(r, ...); rank_set(r, pos, ...);
 *   steps_publish_rank(m, fresh);    (a rank that appeared, or a reloaded one)
 *   steps_refresh(m);
 * steps_rank_grow() undoes the rank's compaction the first time (run-length columns
 * expand to doubles, presence bitmaps come back): records already stored stay, nothing
 * is read again. steps_refresh() re-sorts the ranks when one was published, rebuilds
 * the step index of the ranks that changed, the aligned and union step sets (O(ranks
 * log ranks) while every rank is contiguous) and tells the memoized analyses
 * (steps_analysis_slot): after appends only (every changed rank gained step numbers
 * after all it had, no rank published) they extend or are held (analysis.h LIVE
 * RUNS), otherwise they are dropped. It returns false, and touches nothing, when
 * nothing changed.
 * Not synchronised: call from the thread that reads, between frames. */
struct rank_steps *steps_rank_grow(struct steps_model *m, size_t ri);
bool steps_refresh(struct steps_model *m);
/* A live run (the follower calls it). The first call drops the memoized analyses, like
 * a change (true); later calls do nothing (false). */
bool steps_set_live(struct steps_model *m);

/* ---- reading ------------------------------------------------------------- */

size_t steps_nranks(const struct steps_model *m);
int steps_rank_id(const struct steps_model *m, size_t ri);
const char *steps_rank_path(const struct steps_model *m, size_t ri);
size_t steps_nrecords(const struct steps_model *m, size_t ri);
/* The "loss" scalars of rank ri's records that were not numbers (a string, null: the
 * loader skips each with a warning), as its loader counted them, kept by the index. */
size_t steps_loss_not_numbers(const struct steps_model *m, size_t ri);
long steps_step(const struct steps_model *m, size_t ri, size_t pos);
bool steps_timestamp(const struct steps_model *m, size_t ri, size_t pos, double *out);
/* Value of metric at a record; false when missing (the value is never 0 for missing). */
bool steps_value(const struct steps_model *m, size_t ri, int metric, size_t pos, double *out);

size_t steps_nmetrics(const struct steps_model *m);
const struct metric_def *steps_metric(const struct steps_model *m, int metric);
/* The id of the k-th metric (k < steps_nmetrics) in the run's order: phases, then
 * scalars, then memory values, each as a load that reads the ranks one after another,
 * by id, meets them (each rank's records in file order); the same for a load on
 * several threads, from an index or from its shards. */
int steps_metric_nth(const struct steps_model *m, size_t k);
/* Metric id, or -1 when absent. */
int steps_metric_find(const struct steps_model *m, enum metric_kind kind, const char *name);
/* The run records phase `name` (on any rank: its metric exists; false without a model).
 * What is not recorded is shown n/a, never 0. */
bool steps_has_phase(const struct steps_model *m, const char *name);
/* Rank dirs the loaders found and left out because --ranks did not name them: a subset.
 * steps_add_left_out() from the loading thread before finalize; steps_set_left_out()
 * when follow mode lists the rank dirs again. */
void steps_add_left_out(struct steps_model *m, size_t n);
void steps_set_left_out(struct steps_model *m, size_t n);
size_t steps_left_out(const struct steps_model *m);
/* A subset was loaded (--ranks left rank dirs out): how, e.g. "--ranks 0-7 left 992 rank
 * dirs out" (a trace family's, whose traces may be files: "left 2 ranks out"), in buf
 * and true. Every verdict across ranks
 * (stragglers, imbalance, slow nodes) holds for those ranks only and says so. false,
 * buf "", when every rank dir found was loaded. */
bool steps_subset_scope(const struct run *run, char *buf, size_t n);
/* The coverage line's words on a subset (steps and trace families): ", a subset: " and
 * the above, then, when --ranks names ids at or above world (known: >= 0), "; it names
 * ids from F, beyond world_size W"; buf "" without a subset. */
void steps_subset_coverage(const struct run *run, long world, char *buf, size_t n);
/* The run's cross-rank verdicts cover part of it: a subset (as above) and/or ranks of
 * run.json's world_size that no rank dir gave ("rank 3 of world_size 16 missing", "10
 * ranks of ..."), joined by "; ", in buf and true; false, buf "", when they cover it all. */
bool steps_partial_scope(const struct run *run, char *buf, size_t n);
/* The stragglers verdict as the headline gives it (analysis_straggler_line: "none (...)",
 * "1 (rank 11: ...)", "not judged: ..."), a verdict over part of the run followed by
 * "among the N ranks loaded (scope)"; true when it covers part of the run. Only when
 * analysis_distributed(run) is not NULL. */
bool steps_straggler_verdict(struct run *run, char *buf, size_t n);
/* Is that verdict one (green when no rank straggles)? A compute phase recorded, at least
 * STRAG_MIN_JUDGE aligned steps, every rank loaded (partial: the verdict covers part
 * of the run, as steps_straggler_verdict or steps_partial_scope says), no 2-rank gap
 * whose cause is not judged (analysis_gap_rank) and no rise too late to judge
 * (analysis_late_rank). */
bool steps_stragglers_judged(struct run *run, bool partial);

/* run.json metadata of rank ri (meta->present false when missing or broken). */
const struct steps_meta *steps_rank_meta(const struct steps_model *m, size_t ri);
/* run.json records steps: n_steps > 0, which pytscope writes when the run finished. */
bool steps_meta_finished(const struct steps_meta *meta);
/* Why the run's step logs (a rank's steps.jsonl, a steps file given as PATH) gave no
 * step record, from its sources, into buf: "the step log is missing" (one rank), else
 * each case counted, "2 step logs cannot be read: Permission denied; 1 step log is
 * empty" (missing, empty, holding no step record; "" when every log has records). True
 * when some cannot be read (an error). */
bool steps_logs_why_none(const struct run *run, char *buf, size_t n);
/* Rank index of rank id, or -1. */
long steps_rank_index(const struct steps_model *m, int rank);
/* Cache hints for a pass that visits the ranks one after another (the index writer):
 * the ranks were loaded far apart in memory and each visit would wait for its record,
 * then its body or run.json, one miss after the other. steps_rank_prefetch() asks for
 * rank ri's record (whole, or only the fields that say where its body is); a few ranks
 * later (the record has arrived) _body for its body block (not a lazy rank's: nothing
 * is read), _meta for its path and run.json environment. None of them changes
 * anything. */
void steps_rank_prefetch(const struct steps_model *m, size_t ri, bool whole);
void steps_rank_prefetch_body(const struct steps_model *m, size_t ri);
void steps_rank_prefetch_meta(const struct steps_model *m, size_t ri);
/* Rank ri's run.json stamp as its loader read it (steps_meta stamped): false when not
 * known. */
bool steps_rank_meta_stamp(const struct steps_model *m, size_t ri, long long *size, long long *mtime_ns);
/* Position of the last record of rank ri with step number `step`; false when absent. */
bool steps_find(const struct steps_model *m, size_t ri, long step, size_t *pos);
/* Number of distinct step numbers in rank ri. */
size_t steps_ndistinct(const struct steps_model *m, size_t ri);
/* Smallest and largest step number of rank ri (false when it has no record); from the
 * rank's shell, but natively (not under --compat pytscope) without the steps at its ends
 * whose records have no phase and that not every rank has (store_read.c NATIVE STEPS:
 * a lazy rank's body is read only when its records may lack a phase). */
bool steps_rank_span(const struct steps_model *m, size_t ri, long *lo, long *hi);
/* Rank ri's distinct step numbers inside that span. */
size_t steps_rank_nsteps(const struct steps_model *m, size_t ri);
/* Distinct step numbers over all ranks (the union; natively not those inside no rank's
 * span), and how many of them rank ri lacks. */
size_t steps_nunion(const struct steps_model *m);
size_t steps_missing(const struct steps_model *m, size_t ri);
/* Resident bytes of the step storage (columns, bitmaps, indexes), for benchmarks. */
size_t steps_resident_bytes(const struct steps_model *m);
size_t steps_total_records(const struct steps_model *m);
/* Analyzer cache slot (model/steps/analysis.c owns what it points to). */
void **steps_analysis_slot(struct steps_model *m);

/* The per-step series the Steps pane charts, by the names EV_SERIES evidence uses:
 * step time (derived: the sum of the phases), loss, grad_norm and memory (alloc, else
 * allocated, peak_alloc, reserved, else the first memory metric). */
enum steps_series { SERIES_STEP_TIME, SERIES_LOSS, SERIES_GRAD_NORM, SERIES_MEMORY, STEPS_NSERIES };
extern const char *const steps_series_name[STEPS_NSERIES];
/* Metric id of series k in m; -1 for SERIES_STEP_TIME (derived) or when m lacks it. */
int steps_series_metric(const struct steps_model *m, enum steps_series k);

/* The `steps` view's table (every column) holding rank index ri's records only: what
 * the Steps pane exports, built without the other ranks. NULL when there is no such
 * rank. The caller frees it. */
struct table *steps_view_rank(struct run *run, size_t ri);
/* "no efficiency budget: " and why no rank has one (analysis_budget_why_absent of the
 * run), into err (errn bytes): the budget view's refusal and the Budget pane's. */
void steps_budget_none_why(struct run *run, char *err, size_t errn);

/* The ranks x aligned-steps heatmap grids (grid.c; registered by subsystem.c). */
extern const struct grid_provider grid_steps;

/* Aligned steps: the sorted intersection of step numbers over all ranks. */
size_t steps_naligned(const struct steps_model *m);
long steps_aligned_step(const struct steps_model *m, size_t k);
/* Index of the first aligned step >= step (steps_naligned() when none). */
size_t steps_aligned_lower(const struct steps_model *m, long step);
/* Position in rank ri of aligned step k (the last record with that step number). */
size_t steps_aligned_pos(const struct steps_model *m, size_t ri, size_t k);
/* The heatmap's columns: the aligned steps (column k < steps_naligned() is aligned step
 * k), then every step after the last aligned one that some rank has, ascending (a live
 * run's leading ranks, the ranks that go on after one ended early), where a rank
 * without a record has it missing (never 0); natively up to the last step of a rank's
 * span. */
size_t steps_ncolumns(const struct steps_model *m);
long steps_column_step(const struct steps_model *m, size_t k);
/* The largest step number of rank ri (LONG_MIN when it has no record). */
long steps_max_step(const struct steps_model *m, size_t ri);


/* The rank files under PATH as the loader plans them: rank{k}/ dirs in name order, else
 * the directory itself (rank 0), else a steps.jsonl given directly (load.c; used by
 * follow mode and the persistent index). */
struct steps_rank_file {
	long rank;
	char *dir;      /* holds run.json */
	char *steps;    /* the steps.jsonl path */
};
/* *out and its entries' strings are one allocation (steps_rank_files_free()). */
size_t steps_plan_files(const char *path, struct steps_rank_file **out);
void steps_rank_files_free(struct steps_rank_file *v);
/* v[0, n), the plan of path, is path itself, without rank dirs: a steps.jsonl given
 * directly or a directory without rank{k}/ dirs. --ranks, which names rank dirs, does not
 * apply to it: its steps are loaded whatever the list, and main names --ranks as ignored. */
bool steps_files_flat(const struct steps_rank_file *v, size_t n, const char *path);
/* v[0, n) in ascending rank id (a plan's ids are distinct): ids lowest, lowest + 1, ...
 * (pytscope's rank0..rank{N-1}) placed in one pass, others sorted. */
void steps_rank_files_sort(struct steps_rank_file *v, size_t n);
/* The entry of `rank` in v[0, n) sorted by id, or NULL: v[rank - v[0].rank] when the
 * ids are dense there, else a binary search. */
const struct steps_rank_file *steps_rank_files_find(const struct steps_rank_file *v, size_t n, long rank);

/* True when run_dir's index summary (analysis_index.c) is of this build's analyses and
 * of the index parts exactly as they are now: an open would use it as it is. */
bool steps_summary_current(const char *run_dir);
/* NULL when it is current, else why not (static text: "none yet", a damaged header's
 * reason, "of another analysis version", ...). */
const char *steps_summary_state(const char *run_dir);
/* True when a follower's summary-delta.tsx (analysis_index.h FOLLOW MODE) extends
 * run_dir's summary to the index parts and deltas exactly as they are now: an open would
 * use the two (its checksums and ranks are checked then). */
bool steps_summary_delta_current(const char *run_dir);

/* AN INDEX THE SOURCES OUTGREW (model/index/extent.h, store_extend.c). After
 * index_load() restored ranks whose steps.jsonl only grew (grown[i] for files[i]),
 * steps_ranks_extend() keeps each one's indexed records and parses only the bytes after
 * its source's consumed offset, on ctx->opts->jobs threads, as a plain load would
 * (lowest: the run's lowest rank id, whose scalars are exact); returns the bytes parsed.
 * Before the model is finalized. steps_rank_settle() compacts a rank that was grown
 * (steps_rank_grow) back to the form a fresh load has, so it can be encoded into the
 * index; a rank that was not grown is left alone. Not synchronised. */
struct load_ctx;
long long steps_ranks_extend(struct load_ctx *ctx, const struct steps_rank_file *files, const bool *grown,
			     size_t nfiles, long lowest);
void steps_rank_settle(struct steps_model *m, size_t ri);

/* ---- serialized form (the persistent index, model/index/) -------------------------
 * CONTRACT. steps_rank_seal() compacts a complete rank and builds its step index now
 * (what steps_finalize() would do); the loader seals each rank on its worker thread.
 * steps_rank_encode() appends the sealed rank ri (columns exactly as stored: encodings,
 * presence bitmaps, run-length runs, run.json metadata; column i is metric id i of m)
 * to o (its path relative to base, see ob_path). steps_rank_decode() reads one rank back from untrusted bytes; metric_map[i] is
 * the model's metric id for the writer's metric i (nmap entries). It returns a sealed
 * rank (publish it with steps_publish_rank), or NULL with b->bad set when the bytes are
 * malformed; it never reads past b's end. Values are in host byte order (the index
 * header records it). */
struct obuf;
struct ibuf;
void steps_rank_seal(struct rank_steps *r);
void steps_rank_encode(const struct steps_model *m, size_t ri, const char *base, struct obuf *o);
struct rank_steps *steps_rank_decode(struct steps_model *m, struct ibuf *b, const char *base,
				     const int *metric_map, size_t nmap);
/* The same in two pieces: the shell (id, path, counts, step span, run.json; what a
 * rank restored from the index holds until its body is first read) and the body
 * (steps, timestamps, columns). decode_shell returns an unpublished sealed rank without
 * a body; decode_body fills it (false, b->bad and nothing kept when malformed or when
 * the body does not match the shell's counts).
 * Shells in a row (a part's head) name the one before them, prev (encode: its rank
 * index in m; decode: the rank it gave; -1 / NULL for the first or a shell alone): a
 * shell whose run.json environment is byte for byte prev's says so instead of
 * repeating it (the ranks of one job: one copy in the file); decoding it without the
 * same prev is malformed. */
void steps_rank_encode_shell(const struct steps_model *m, size_t ri, long prev, const char *base, struct obuf *o);
/* Rank ri's shell as the shell of rank `id` at `path` (a rank whose steps are the same
 * bytes as ri's and share its body: tests/tools/gen_index.c). */
void steps_rank_encode_shell_as(const struct steps_model *m, size_t ri, long prev, int id, const char *path,
				const char *base, struct obuf *o);
void steps_rank_encode_body(const struct steps_model *m, size_t ri, struct obuf *o);
struct rank_steps *steps_rank_decode_shell(struct steps_model *m, struct ibuf *b, const struct rank_steps *prev,
					   const char *base);
bool steps_rank_decode_body(struct rank_steps *r, struct ibuf *b, const int *metric_map, size_t nmap);

/* LAZY BODIES. steps_add_part() registers an index part file (its identity when checked:
 * size, mtime, inode; its metric table mapped to model ids, nmap entries, copied) with
 * the model; steps_rank_defer_body() makes a decoded shell read its body from that part
 * (len bytes at off, CRC-32 crc) the first time anything reads its steps, timestamps
 * or values (thread-safe). The model keeps the parts until steps_model_free(). */
struct steps_part;
const struct steps_part *steps_add_part(struct steps_model *m, const char *path, const char *base,
					long long size, long long mtime_ns, long long ino, const int *map,
					size_t nmap);
void steps_rank_defer_body(struct rank_steps *r, const struct steps_part *p, uint64_t off, uint64_t len,
			   uint32_t crc);
/* A part just written from rank ri's body (len bytes at off of p, CRC-32 crc) backs it
 * from now on: steps_rank_take_block() may then take the body's memory and leave the
 * rank lazy, its body read from p when next needed; a rank whose body was written at its
 * seal and freed (model/steps/seal.h) becomes lazy now. A rank that is lazy, live or has
 * delta segments is left alone. */
void steps_rank_back_body(struct steps_model *m, size_t ri, const struct steps_part *p, uint64_t off,
			  uint64_t len, uint32_t crc);
/* The memory of rank ri's body (its one block, malloc'd, at least `need` bytes: the
 * caller's to use and free) when a part backs it (steps_rank_back_body), the rank then
 * lazy; else NULL and the rank as it was. Thread-safe per rank. */
void *steps_rank_take_block(struct steps_model *m, size_t ri, size_t need);
/* DELTA SEGMENTS (follow mode appends to the index: model/index/index.h DELTAS).
 * steps_rank_encode_delta() writes rank ri's records [from, n) as stored (steps,
 * timestamps, each column's elements and presence bits; column ids are metric ids of
 * m). steps_rank_defer_delta() adds such a segment (len bytes at off of part p, CRC-32
 * crc) to a lazy rank decoded from its part, whose shell then becomes `shell` (a shell
 * decoded from the delta: the rank after the segment); false when it does not continue
 * r (another rank, r does not hold `from` records, r is not lazy). When the body is
 * first read the segments are replayed onto it in order and the rank is compacted as a
 * fresh load of all its records would be; a segment that fails is handled as a body
 * that fails (diagnosed, its file invalidated, the rank read from its steps.jsonl). */
void steps_rank_encode_delta(const struct steps_model *m, size_t ri, size_t from, struct obuf *o);
bool steps_rank_defer_delta(struct rank_steps *r, const struct rank_steps *shell, const struct steps_part *p,
			    uint64_t off, uint64_t len, uint32_t crc, size_t from);
/* Read every lazy rank's body from its part and hand it back (`index --status --verify`):
 * each checked as any read checks it, a damaged part diagnosed, invalidated and its ranks
 * read from their JSONL (those stay resident); a rank with delta segments has its body
 * and segments checked against their CRC-32s, not decoded, unless one fails. progress
 * (or NULL) gets the bytes to read, then those read, with ud. Returns the bodies read. */
size_t steps_read_back_bodies(struct steps_model *m, void (*progress)(void *ud, long long done_delta,
							       long long total_delta), void *ud);
/* Ranks whose body has been read (or never was lazy), for tests and benchmarks. */
size_t steps_bodies_resident(const struct steps_model *m);
/* Rank bodies read from index parts since the open (a body read again after it was
 * handed back counts again). */
size_t steps_bodies_read(const struct steps_model *m);
/* Of those, the reads that failed (the rank then read from its JSONL). */
size_t steps_bodies_failed(const struct steps_model *m);

#endif
