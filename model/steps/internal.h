/* SPDX-License-Identifier: MIT */
/* internal.h: private to the step family (model/steps/): the loader entry points
 * registered by subsystem.c, and for the analyzers (analysis*.c) the memo cache kept in
 * the step model, the phase sets and per-record sums every analysis shares, and the
 * cross-file helpers (warmup slice, pass threads, per-step medians), and for the store
 * (store*.c) the column, rank and model structures (internal_store.h, included at the
 * end). Other modules use
 * model/steps/steps.h and model/steps/analysis.h only. */
#ifndef MODEL_STEPS_INTERNAL_H
#define MODEL_STEPS_INTERNAL_H

#include "model/registry.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include <pthread.h>
#include <string.h>

struct load_ctx;
struct opts;

/* The pytscope loader (load.c). */
int pytscope_probe(const char *path, const struct opts *opts);
int pytscope_load(struct load_ctx *ctx, const char *path);
/* run.json of the rank in dir into m (load_meta.c); problems become diagnostics. */
void steps_load_meta(struct run *run, const char *dir, int rank, struct steps_meta *m);
/* The "name" of dir/run.json (malloc'd), NULL when none: no diagnostics (probing). */
char *steps_meta_name(const char *dir);
/* A UTF-8 byte-order mark at the start of a run.json or steps.jsonl: natively skipped
 * with the note STEPS_BOM_NOTE, the data read; pytscope cannot decode it, so under
 * --compat pytscope the file (run.json) or its line 1 (steps.jsonl) stays unread, its
 * warning saying STEPS_BOM_COMPAT (model/text.h text_utf8_bom finds one). */
#define STEPS_BOM_NOTE "starts with a UTF-8 byte-order mark, skipped"
#define STEPS_BOM_COMPAT "starts with a UTF-8 byte-order mark (pytscope cannot read it)"
/* Why rank's run.json was found but nothing was read from it ("truncated at byte 51",
 * "invalid JSON at byte 12", "permission denied"), into buf, from its row in the sources
 * and its warning (what the index keeps of it); NULL when it was read or is absent. */
const char *steps_meta_unread(struct run *run, int rank, char *buf, size_t n);
/* Whether a rank's run.json holds a world_size that is no rank count (a string, -4, 4.5:
 * warned about by the load, has_world false), said from its warning (what the index
 * keeps of it) into buf: "in run.json, \"4\" is not a number" (several: "in rank 2's
 * run.json, ..."), the first such warning's. */
bool steps_meta_world_unused(struct run *run, bool several, char *buf, size_t n);
struct json_doc;
/* run.json's one-pass tokenizer (load_meta.c): true when js[0..len) is an object it
 * takes, with d holding the tokens json_parse() would give; false: use json_parse(). */
bool steps_meta_tokenize(struct json_doc *d, const char *js, size_t len);

/* The loader's pieces that follow mode (load_follow.c, model/steps/follow.h) reuses:
 * reading a rank's steps.jsonl from a byte offset, the rank files a PATH holds, and a
 * rank's run.json (load.c).
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
/* Records loaded from this file so far. */
size_t steps_tail_records(const struct steps_tail *t);
void steps_tail_free(struct steps_tail *t);

/* Detection (load_detect.c): the ranks to load under a PATH, as pytscope_load() plans
 * them: rank{k}/ dirs (the last name wins per rank id), else the directory itself, else
 * a steps.jsonl file given directly. */
struct rank_task {
	long rank;
	char *dir;            /* directory holding steps.jsonl / run.json */
	char *steps_path;     /* explicit steps file (a path given directly), else NULL */
};

struct task_list {
	struct rank_task *v;
	size_t n, cap;
};

/* The ranks to load under path (load_detect.c); what pytscope's layout rules leave unread
 * (a steps.jsonl beside rank dirs, a rank dir whose id a later name repeats) is noted in
 * notes (may be NULL), each about a file directly in path and tagged steps_plan_tag
 * (diag.family: follow mode replaces them when it lists path again). */
struct diag_list;
void steps_plan(const char *path, struct task_list *t, struct diag_list *notes);
extern const char steps_plan_tag[];
void steps_tasks_free(struct task_list *t);
/* The rank files of a plan, in its order (*out one allocation with its entries' strings:
 * steps_rank_files_free). */
size_t steps_tasks_files(const struct task_list *t, struct steps_rank_file **out);
bool steps_is_dir(const char *path);
/* The steps file of a task (a new string). */
char *steps_task_file(const struct rank_task *t);

/* Discovery (load_detect.c): the listing of the planned ranks, one stat of each rank's
 * steps.jsonl in plan order, on a thread of its own while the ranks load, so parsing
 * never waits for it (on a cold file system it takes seconds for thousands of rank
 * dirs). The load opens rank i's file with steps_discover_openat(), which shares that
 * stat: whichever of the two comes first takes it, the other uses it (one stat per
 * steps.jsonl in all; a file that grows meanwhile is read to the size then, as a load
 * reads to the size at its stat). Meanwhile m says how many are listed (m->listing, m->listed: the loading
 * screen's "listing: j of N rank dirs"); the bytes to read go to load_progress() once,
 * when every rank is sized (until then the total, and so the ETA, is unknown). A file
 * that cannot be stat'ed counts 0 bytes (its open diagnoses it). sizes (NULL or t->n
 * long) receives each rank's bytes. Without a thread it runs before returning.
 * steps_discover_end() waits for it and returns the total; t must live until then. */
struct steps_discovery;
struct stat;
struct steps_discovery *steps_discover_begin(struct load_ctx *ctx, struct steps_model *m,
					     const struct task_list *t, long long *sizes);
long long steps_discover_end(struct steps_discovery *d);
/* Open task i's steps file (rel: relative to dirfd) as infile_openat_stream() does,
 * with the stat shared with discovery d (NULL: a stat of its own). */
int steps_discover_openat(struct steps_discovery *d, size_t i, int dirfd, const char *rel, struct stat *st);

/* steps_plan_files(): see steps.h. */
/* Read dir/run.json into r (diagnostics as in the loader; load_meta.c); its text is
 * kept (steps_meta.json) only with keep_json: a load keeps its lowest rank's. True when
 * it starts with a UTF-8 byte-order mark (read otherwise under --compat pytscope). */
bool steps_rank_load_meta(struct run *run, struct rank_steps *r, const char *dir, int rank, bool keep_json);
/* A rank loaded without a step record whose run.json records n_steps > 0 (pytscope writes
 * it at finish()): its step log is missing or empty, a warning (load_meta.c). */
void steps_rank_log_missing(struct run *run, const struct rank_steps *r, const char *dir);
/* The same warning for rank's step log at path, whose run.json meta says so; and whether
 * diagnostic d is one (follow mode adds and removes it as the log fills or empties). */
void steps_log_missing(struct run *run, const struct steps_meta *meta, int rank, const char *path);
bool steps_is_log_missing(const struct diag *d);
/* The run's display name: run.json's name of the lowest rank that has one (unchanged
 * when none has). */
void steps_name_run(struct run *run, const struct steps_model *m);

/* Views (views.c: ranks, steps, heatmap, budget; snake_case columns) and pytscope's
 * finding rules (rules.c) in pytscope's registration order (orders 100..610;
 * DIST.EXPOSED_COMM 430 lives with the traces), registered by subsystem.c. */
#define STEPS_NVIEWS 5
#define STEPS_NRULES 19
extern const struct view_def steps_views[STEPS_NVIEWS];
extern const struct finding_rule steps_rules[STEPS_NRULES];
/* What those rules could not judge on run and why (rules_unjudged.c; registry.h), for
 * a run in which some rank has a step record. */
void steps_unjudged(struct run *run, struct not_judged *nj);
/* The same for a run in which no rank has one, when its steps would be its traces'
 * (no step log): every step rule, with why (no ProfilerStep span in the traces, or none
 * measured); nothing for a run without traces (findings_unjudged() says why). */
void steps_unjudged_unrecorded(struct run *run, struct not_judged *nj);
/* The records after a resume the spike tests could not judge for want of earlier records
 * (rules_cross.c; analysis.h struct resume_gap), natively. */
void rules_cross_unjudged(struct run *run, struct not_judged *nj);
/* Where the ranks with a step record start and end (subsystem.c), for the headline and
 * the not-judged list: n such ranks; the earliest and the latest first step, the
 * earliest and the latest last step, each with the lowest rank index at it (_r); how
 * many ranks start after the earliest first step (late) and end before the latest last
 * step (early); running: a live run that its lowest rank's run.json does not call
 * finished, whose ranks are behind, not ended. The rules across ranks read the steps on
 * every rank: none before first_hi, none after last_lo. */
struct steps_ends {
	size_t n, late, early;
	long first_lo, first_hi, last_lo, last_hi;
	size_t first_lo_r, first_hi_r, last_lo_r, last_hi_r;
	bool running;
};
void steps_ends(const struct steps_model *m, struct steps_ends *e);
/* The steps between the latest first step of a rank and the earliest last one (e) that
 * some rank has and another lacks (rules_unjudged.c): the rules across ranks read the
 * steps on every rank, so none of these. How many, the first runs of them ("20-39",
 * "20-29, 41, 60-65 and 2 more") and the ranks that lack some ("rank 1", "ranks 1,3",
 * "1200 ranks"; nranks of them); false when there are none. e's first_hi and last_lo may
 * narrow the window to steps every rank spans (rules.c: those between two aligned steps). */
struct steps_gaps {
	size_t nsteps, nranks;
	char steps[96], ranks[80];
};
bool steps_gaps_find(const struct steps_model *m, const struct steps_ends *e, struct steps_gaps *out);
/* The rules whose work grows with rank 0's steps, in slices for idle time (rules.c). */
#define STEPS_NSLICERS 4
extern const struct rule_slicer steps_rule_slicers[STEPS_NSLICERS];

/* Ranks per task of the row passes (distributed, heatmap). */
#define ANALYSIS_RANK_CHUNK 8

/* A heatmap pyramid (analysis_heatmap.c). Each rank's row is one block of 4-byte words:
 * for every level l, val (mean; level 0: the value, NaN when missing) at off_val[l],
 * worst at off_worst[l] (level 0 shares val) and, unless dense, the present count per
 * block at off_count[l] (levels >= 1); each level has room for cap[l] >= len[l] blocks
 * (a live run grows in place). A grid restored from the index summary (lazy != NULL,
 * analysis_index_rows.c) reads a row's words by checked chunks when a range needs them
 * and keeps a bounded number of chunks; rows asked by heat_row() stay whole. */
struct heat_grid {
	int series;
	size_t nranks, nsteps;
	size_t nlevels;
	bool dense;               /* no cell missing: no counts (the block's coverage) */
	unsigned shift;           /* a coarse grid (analysis_heat_new_coarse): level 0 is the
				   * blocks of 2^shift steps, with their worst and counts */
	size_t *len;              /* blocks per level */
	size_t *cap;              /* room per level in a row */
	size_t lcap;              /* level slots allocated */
	size_t *off_val, *off_worst, *off_count;
	size_t row_words;
	void **row;               /* [rank] -> row_words words; NULL: not read yet */
	size_t *from;             /* per row: its first column a growing run may change */
	bool stale;               /* the run grew since (analysis_cache_grown) */
	bool native;              /* in the native alignment (NATIVE ALIGNMENT below) */
	struct heat_lazy *lazy;
	/* The colour scale (grid.h grid_colour_scale) an index summary kept for this grid
	 * at scale_cols columns; has_scale false: none. */
	bool has_scale;
	size_t scale_cols;
	double scale_lo, scale_hi;
};
/* Lay out a grid of nranks x nsteps (no rows yet). */
struct heat_grid *analysis_heat_new(int series, size_t nranks, size_t nsteps, bool dense);
/* Build rank ri's row from the step model (level 0 from the columns, levels above). */
void analysis_heat_build_row(struct run *run, struct heat_grid *g, size_t ri);
/* The same from model m (a thread's view of the run's model, heat_job.c), the row
 * allocated when g has none, cmed: analysis_step_medians() for HEAT_REL_SLOWDOWN (read
 * by the caller; analysis_native_medians() with na), na: the native alignment's records
 * (NULL: pytscope's), buf: steps_naligned() doubles of scratch. True when a cell is missing
 * (a dense g's row then has no levels: build g not dense). */
struct native_align;
bool analysis_heat_make_row(const struct steps_model *m, struct heat_grid *g, const double *cmed,
			    const struct native_align *na, size_t ri, double *buf);
/* A coarse grid of full's ranks whose level 0 is full's level `shift` (blocks of
 * 2^shift steps: mean, worst and present count each), its levels full's from shift up:
 * heat_range() over its columns gives what full gives over the blocks' steps, bit for
 * bit. full must not be dense; shift >= 1. coarsen_row copies full's row ri into c. */
struct heat_grid *analysis_heat_new_coarse(const struct heat_grid *full, unsigned shift);
void analysis_heat_coarsen_row(const struct heat_grid *full, size_t ri, struct heat_grid *c);
/* A fresh pyramid of series made one row at a time into one reused row, nothing kept
 * (the index summary of `tscope-tui index` writes each row as it is made: no grid in
 * memory). Dense (no missing cell) unless `dense` is false (the layout with counts a
 * whole build takes when a cell is missing). stream_row() makes row r (every row once,
 * in order) and returns it, or NULL when a cell of a dense grid's row is missing (build
 * it whole instead);
 * the row is what analysis_heatmap()'s grid holds for r, bit for bit. stream_grid() is
 * the layout, with row r readable (heat_range) until the next row is made. */
struct heat_stream;
struct heat_stream *analysis_heat_stream_new(struct run *run, int series, bool dense);
/* s (HEAT_REL_SLOWDOWN) then makes row r from the compute `from` (HEAT_COMPUTE of the
 * same run) read for its row r, when from made row r last: one read of the records for
 * both rows. */
void analysis_heat_stream_share(struct heat_stream *s, const struct heat_stream *from);
/* s then makes row r from rows[r] (the compute of rank r at the A aligned steps:
 * analysis_cache index_rows) instead of reading the records. */
void analysis_heat_stream_rows(struct heat_stream *s, double *const *rows);
const struct heat_grid *analysis_heat_stream_grid(const struct heat_stream *s);
const void *analysis_heat_stream_row(struct heat_stream *s, size_t r);
/* Row r from its compute at every aligned step (what analysis_rank_compute() gives; only
 * read), when the grid's columns are the aligned steps (else NULL). */
const void *analysis_heat_stream_row_of(struct heat_stream *s, size_t r, double *compute);
void analysis_heat_stream_free(struct heat_stream *s);
/* Row ri of g (its words at row, never NULL) into the colour scale s (model/grid.h):
 * what grid_scale_add_row() adds over heat_range(), bit for bit, without its calls
 * through a grid_src (the index summary's writers, a row at a time). */
struct grid_scale;
void heat_row_scale(const struct heat_grid *g, const void *row, size_t ri, struct grid_scale *s)
	__attribute__((nonnull(2)));
/* Read row ri of a lazy grid whole, every chunk checked (analysis_index_rows.c): false
 * when it cannot be read. */
bool analysis_heat_read_row(struct heat_grid *g, size_t ri, void *row);
/* Word w of row ri of a lazy grid whose row is not resident, from the chunk that holds
 * it (read and checked the first time; a row that fails is computed from the steps). */
uint32_t analysis_heat_word(const struct heat_grid *g, size_t ri, size_t w);
/* Words [w, w + n) of that row into out, chunk by chunk. */
void analysis_heat_words(const struct heat_grid *g, size_t ri, size_t w, size_t n, void *out);
void analysis_heat_lazy_free(struct heat_lazy *lz);
/* Keep row ri resident (heat_row callers), or let it be evicted (lazy grids). */
const void *analysis_heat_row(const struct heat_grid *g, size_t ri, bool pin);
/* analysis_heatmap() in pytscope's alignment whatever the mode: the pyramids the index
 * summary holds. _held: the one held now, neither built nor brought up to the heatmap's
 * columns (a summary's, over the aligned steps), or NULL. */
const struct heat_grid *analysis_heatmap_last(struct run *run, int series);
const struct heat_grid *analysis_heatmap_held(struct run *run, int series);

struct rank_cache {
	bool timing_done, memory_done, conv_done, budget_done, flaws_done;
	struct timing *timing;
	struct memory *memory;
	struct convergence *conv;
	struct budget *budget;
	struct phase_flaw budget_flaw; /* why budget is NULL natively, when a phase value is */
	bool budget_overflow;          /* ... or when its phase sums overflow */
	struct phase_flaw flaw[2];     /* over all records (analysis_ranks_flaw): compute's, comm's */
};

struct analysis_cache {
	size_t nranks;
	struct rank_cache *rank;
	bool budget_all_done;
	struct budget *budget_all;
	bool dist_done;
	struct distributed *dist;
	bool lagging;             /* the results above predate appended records (analysis.h LIVE) */
	double *cmed;             /* analysis_step_medians(), NULL until first needed */
	size_t ncmed;             /* aligned steps cmed covers (a live run extends it) */
	struct heat_grid **heat;
	size_t nheat;
	struct budget_sums *bsum; /* per rank, from the index summary; NULL: none */
	struct analysis_recompute *rc; /* a worker recomputing the held results (analysis_recompute.c) */
	/* `tscope-tui index`: the compute of every rank at every aligned step (row r: rank
	 * r's S values, most of them in the memory its body had: keep_rows), read once by
	 * the distributed analysis for its passes and the summary's pyramid rows
	 * (analysis_index.c frees them after writing them: analysis_index_rows_free); NULL:
	 * none */
	double **index_rows;
	size_t index_nrows;
	bool unweigh_done;        /* analysis_compute_unweighable(), "" when it can weigh */
	char unweigh[160];
	bool outside_done;        /* the phases compute leaves out keep the ranks from being */
	char outside[160];        /* weighed (analysis_weighable.c outside_reason), "" not */
	bool native_done;         /* native: analysis_distributed() in the native alignment, */
	struct distributed *native; /* NULL when it is dist's (analysis_distributed.c) */
	struct native_align *native_align; /* analysis_native()'s memo, NULL until first asked */
	/* grid.c's note of the steps no heatmap column shows, for the model's shape it was
	 * made for (ranks, records, steps, aligned steps, columns; all 0: none yet): a grid
	 * opened again (another metric, a live poll, an export) reads no rank again */
	size_t left_out_key[5];
	char left_out[224];
};
void analysis_index_rows_free(struct analysis_cache *c);

/* ---- NATIVE ALIGNMENT (analysis_native.c) ---------------------------------------------
 * pytscope aligns a step to its last record; natively (not under --compat pytscope) a
 * last record without any phase (an eval record's scalars) leaves the step to the last
 * earlier record of it with phases. The distributed analysis, the heatmaps (so compare
 * mode) and the heatmap's cell description take that record; the index summary holds
 * pytscope's (analysis_distributed_last, analysis_heatmap_last). Per rank, the steps
 * where the two differ (ascending) and the record the native alignment takes there. */
struct native_rank {
	size_t n, cap;
	long *step;
	size_t *pos;
	size_t scanned;           /* records looked at so far (a live run's appends: the rest) */
};
struct native_align {
	size_t nranks, total;     /* total: steps over every rank */
	struct native_rank *rank;
};
/* The run's, memoized in its analysis cache (brought up to date with appended records);
 * NULL under --compat pytscope or when no rank has such a step. */
const struct native_align *analysis_native(struct run *run);
/* The first entry of rank ri at or after step (na->rank[ri].n: none). */
size_t analysis_native_first(const struct native_align *na, size_t ri, long step);
/* The record the native alignment takes at step of rank ri into *pos when it differs
 * from pytscope's (false: it does not, or na is NULL). */
bool analysis_native_pos(const struct native_align *na, size_t ri, long step, size_t *pos);
/* The record of step that rank ri's aligned cell shows (the native one natively);
 * false when the rank has no record of step. */
bool analysis_step_record(struct run *run, size_t ri, long step, size_t *pos);
/* A copy (a heatmap built on a thread of its own reads it), and its free. */
struct native_align *analysis_native_copy(const struct native_align *na);
void analysis_native_free(struct native_align *na);
/* The step medians (analysis_step_medians) as the native alignment na has them: a new
 * array of steps_naligned() doubles (analysis_distributed.c). */
double *analysis_native_medians(struct run *run, const struct native_align *na);

struct phase_sets {
	int *compute;             /* phase ids in COMPUTE_PHASES */
	size_t ncompute;
	int comm;
	int *all;                 /* every phase id, ascending */
	size_t nall;
};

/* The run's analyzer cache, created on first use; NULL without a step model. */
struct analysis_cache *analysis_cache_of(struct run *run);
/* Rank ri's slot; NULL when out of range. */
struct rank_cache *analysis_rank_cache(struct run *run, size_t ri);
/* First position after the warmup slice of a rank with n records. */
size_t analysis_warmup_start(const struct run *run, size_t n);
/* Threads for the run-wide passes: --jobs, else one per core. */
int analysis_threads(const struct run *run);

/* Index of a canonical phase name (data, forward, ..., other), -1 for others. */
int analysis_phase_order(const char *name);
/* The phases pytscope weighs (the canonical names), in a reason: "no " ... " phase recorded". */
#define ANALYSIS_PYTSCOPE_PHASES "data, forward, backward, optimizer, compute, comm or other"
/* When rank ri (ri < 0: the run) records phases but none of the canonical ones: their
 * names (sanitized, the first met first, at most 4, then "and N more") into buf, true;
 * false when it records a canonical phase or no phase (analysis_weighable.c). */
bool analysis_phases_foreign(struct run *run, long ri, char *buf, size_t n);
/* "a negative phase value: forward at step 7 on rank 0" (or "a non-finite"): why a
 * value that is not a duration (value) of phase (a sanitized name) leaves a figure n/a. */
void analysis_flaw_text(double value, const char *phase, long step, int rank, char *buf, size_t n);
/* A canonical phase other than comm (pytscope's COMPUTE_PHASES). */
bool analysis_in_compute_phases(const char *name);
/* Phase metric ids of the model (all of them) into ids (steps_nmetrics() slots). */
size_t analysis_phase_ids(const struct steps_model *m, int *ids);
void analysis_phase_sets_init(const struct steps_model *m, struct phase_sets *ps);
void analysis_phase_sets_free(struct phase_sets *ps);
/* A record without a compute phase value has no compute, not 0 s: analysis_no_compute(),
 * a quiet NaN told from a NaN its phases sum to by its payload (copies keep it), whose
 * float is the float NAN (payload in the low bits); pytscope's figures take it as 0 s. */
#define ANALYSIS_NO_COMPUTE_BITS 0x7ff800000000c0deull
double analysis_no_compute(void);
static inline bool analysis_is_no_compute(double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	return bits == ANALYSIS_NO_COMPUTE_BITS;
}
/* compute_r (analysis_no_compute() when the record has no compute phase value) and
 * comm_r of one record (analysis.h, distributed). */
double analysis_record_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			       size_t pos);
/* The exact sum (fsum) of every phase of record pos of rank ri: its step time. */
double analysis_record_step_time(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t pos);
/* Rank ri records some compute phase: else its compute is missing, not 0 (a rank whose
 * records carry no phase, or other phases only). */
bool analysis_rank_has_compute_phase(const struct steps_model *m, const struct phase_sets *ps, size_t ri);
double analysis_record_comm(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
			    size_t pos);

/* compute_r of rank ri at aligned steps [k0, k0 + n) into out[n] unless out is NULL,
 * and comm_r into comm[n] unless comm is NULL: the doubles analysis_record_compute and
 * _comm give, read a column at a time in blocks of ANALYSIS_BLOCK aligned steps. */
#define ANALYSIS_BLOCK 64
void analysis_rank_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t k0,
			   size_t n, double *out, double *comm);
/* The same values for rank ri's records [p0, p0 + n) (its own steps, whatever the
 * aligned set: what an index shard keeps for the summary, analysis_index_inputs.c). */
void analysis_records_compute(const struct steps_model *m, const struct phase_sets *ps, size_t ri, size_t p0,
			      size_t n, double *out, double *comm);
/* analysis_records_compute() over all of rank ri's records into out and comm
 * (steps_nrecords values each), each block of a column also added into lanes (analysis_budget.c): line[i]
 * is the lane of compute phase ps->compute[i] (-1: none), comm whether the comm column
 * goes into BUDGET_LANE_COMM. */
enum { BUDGET_LANE_COMPUTE, BUDGET_LANE_DATA, BUDGET_LANE_COMM, BUDGET_LANE_OTHER, BUDGET_NLANES };
struct budget_lanes {
	const int *line;
	bool comm;
	bool flaw;                /* a value added is not a duration: the sums take the exact pass */
	struct stats_lanes lane[BUDGET_NLANES];
};
void analysis_records_compute_lanes(const struct steps_model *m, const struct phase_sets *ps, size_t ri,
				    double *out, double *comm, struct budget_lanes *lanes);
/* Median of compute over the ranks at every aligned step, memoized in c
 * (analysis_distributed.c): shared by the distributed analysis and the slowdown heatmap;
 * after appends only the new aligned steps are computed. */
const double *analysis_step_medians(struct run *run, struct analysis_cache *c);
/* The distributed analysis with each rank's compute read from `in` instead of the
 * model (the index summary rebuilt rank by rank, analysis_index_rebuild.c): bit for bit
 * what analysis_distributed() gives when `in` gives the doubles analysis_rank_compute()
 * would. The step pass goes through the aligned steps in bands of band_steps: band()
 * makes [k0, k1) of every rank readable, then compute() is asked for pieces of it (any
 * thread); the rank pass asks compute() for a rank's every aligned step (any thread).
 * comm_max: per aligned step the comm max over the ranks in rank order (r == 0 or
 * greater); mem_peak() fills a rank's has_mem_peak and mem_peak; last_step: per rank
 * the step number of its last record, read where a rank logs a step number twice (the
 * judged steps, analysis.h STRAGGLERS). */
struct dist_input {
	void (*band)(void *ud, size_t k0, size_t k1);
	void (*compute)(void *ud, size_t r, size_t k0, size_t n, double *out);
	void (*mem_peak)(void *ud, size_t r, struct rank_stat *rs);
	const long *last_step;
	const double *comm_max;
	size_t band_steps;
	void *ud;
};
struct distributed *analysis_distributed_from(struct run *run, const struct dist_input *in);
/* The distributed analysis where the last record of a step counts, pytscope's (the
 * cache's dist): what the index summary holds and --compat pytscope reports;
 * analysis_distributed() is the native one otherwise. */
const struct distributed *analysis_distributed_last(struct run *run);
/* Rank ri's memory peak (peak_alloc, else alloc; finite values only) into rs (has_mem_peak, mem_peak). */
void analysis_rank_mem_peak(const struct steps_model *m, size_t ri, struct rank_stat *rs);
/* Rank ri's own mean and median compute in seconds, as rank_stat own_mean and own_median
 * are taken (a step without a compute left out; a NaN one makes both NaN), over its own
 * steps, each its record in the run's alignment (the native one natively): the figures
 * of a rank the distributed analysis does not weigh (one rank loaded, or no step on
 * every rank). Reads the rank's body. False, *mean and *median untouched, when no step
 * has a compute. */
bool analysis_rank_own_compute(struct run *run, size_t ri, double *mean, double *median);
/* The native straggler rules for rank ri (analysis.h STRAGGLERS; analysis_stragglers.c):
 * c = its compute at every aligned step, ratio = c / step median - 1 at every aligned
 * step when `aligned` (every step median > 0), lost = per aligned step the seconds the
 * others waited for the critical rank, x = 2 S doubles of scratch. Needs d->step[]. */
void analysis_rank_verdict(const struct distributed *d, size_t ri, const double *c, const double *ratio,
			   bool aligned, const double *lost, double *x, struct rank_stat *rs);
/* The straggler set from the per-rank verdicts and pytscope's straggler. */
void analysis_straggler_set(struct distributed *d);
/* The distributed analysis of the run as it is now, computed (cmed_known: the step
 * medians when known, else computed too); reads the step model only. */
struct distributed *analysis_dist_compute(struct run *run, const double *cmed_known);
/* Join and free a recompute worker, its results unused (analysis_recompute.c). */
void analysis_recompute_free(struct analysis_recompute *rc);
/* Drop the results over every record (analysis.c). */
void analysis_cache_drop_records(struct analysis_cache *c);
/* Frees a distributed analysis (analysis.c). */
void analysis_dist_free(struct distributed *d);
void analysis_timing_free(struct timing *t);
void analysis_conv_free(struct convergence *c);

/* ---- a rank's analyses in slices (the explorer's idle time: rules.c) ----------------- */

/* A job made in slices begins with this, so analysis_job_free() frees any (NULL too). */
struct analysis_job {
	void (*free)(void *job);
};
void analysis_job_free(void *job);
/* Records a slice handles at most (~1-2 ms at 100,000-step ranks). */
#define ANALYSIS_SLICE 16384
/* analysis_timing, _convergence or _memory (run, ri) made a slice per call (*job NULL at
 * the first): true when it is memoized (*job freed and NULL; also when a pane made it
 * meanwhile). The same result as the whole call: the same code, in pieces. */
bool analysis_timing_slice(struct run *run, size_t ri, void **job);
/* How one of those analyses is made in pieces: done() (memoized in rc), begin(), feed()
 * at most k more records of work (true: complete), keep() the complete result in rc
 * (memoized; the job freed). analysis_pieces_whole() memoizes it at once and returns
 * rank ri's cache (NULL: none); analysis_pieces_slice() is a *_slice() above. */
struct analysis_pieces {
	bool (*done)(const struct rank_cache *rc);
	void *(*begin)(struct run *run, size_t ri);
	bool (*feed)(const struct steps_model *m, void *job, size_t k);
	void (*keep)(struct rank_cache *rc, void *job);
};
struct rank_cache *analysis_pieces_whole(struct run *run, size_t ri, const struct analysis_pieces *p);
bool analysis_pieces_slice(struct run *run, size_t ri, void **job, const struct analysis_pieces *p);
bool analysis_convergence_slice(struct run *run, size_t ri, void **job);
bool analysis_memory_slice(struct run *run, size_t ri, void **job);
/* Record i of step[0..n) is a resume (analysis_convergence.c): its step number is below
 * the one before, and it is not a record logged one place late (above the step two
 * records before it, with the next record above the one before it: 51, 50, 52). */
bool analysis_resumes_at(const long *step, size_t n, size_t i);
/* A spike scan judged per run of steps: the scan and the resumes met so far (their first
 * record, and the record before it their run continues from, SIZE_MAX: none), with the
 * records left unjudged after them. Zeroed is empty; reset frees and empties. */
struct resume_scan {
	struct spike_scan scan;
	size_t *start, *from;
	size_t n, cap;
	struct resume_gap gap;
};
void analysis_resume_scan_reset(struct resume_scan *s);
/* stats_spikes_feed() over [i0, i1) of v[0..n), judged per run of steps: at a resume the
 * scan starts again from the history the resumed run continues (the records before it
 * below its step that no resume between left behind, at most 12 values), so no window
 * holds a step logged again; step NULL: one series across it (pytscope's). */
void analysis_spikes_feed(struct resume_scan *s, const double *v, const bool *present, const long *step, size_t n,
			  size_t i0, size_t i1, bool *flags);
/* Frees one heatmap pyramid (analysis_heatmap.c). */
void analysis_heat_free(struct heat_grid *g);
/* The run grew by appends only (steps_refresh): keep what extends in place (heatmaps,
 * unless !columns_kept: the heatmap columns did not only grow at the end; per-step
 * medians), hold the rest when lag_ok, else drop it (analysis.h LIVE RUNS). */
void analysis_cache_grown(void *cache, bool lag_ok, bool columns_kept);

#include "model/steps/internal_store.h"

#endif
