/* SPDX-License-Identifier: MIT */
/* trace.h: the Kineto/Chrome trace model (run->trace) and its analyses.
 *
 * Loading (model/trace/load.c) keeps, per rank, only what the analyses need:
 *   - GPU events: kernel, gpu_memcpy, gpu_memset (and the legacy Kernel/Memcpy/Memset),
 *     plus any span carrying args.stream; their stream is args.stream, else the tid (a
 *     number, or the legacy "stream 7"), their device args.device, else the pid; times
 *     in integer nanoseconds so that fractional-ns `ts` ("4458676522690.655") and
 *     baseTimeNanoseconds stay exact;
 *   - CPU events carrying args.correlation (the runtime launches), for HTA's last-step
 *     filter, the host_wait idle category and kernel -> iteration attribution;
 *   - ProfilerStep#N spans.
 * A span is a complete event (ph X) or a pair of halves (ph B, then E on the same pid and
 * tid); a half without its other is counted, as is a GPU event without a stream.
 * Names are interned per rank. Ranks are sorted by rank id (distributedInfo.rank, else
 * the number after "rank"/"worker" in the file name, else file order).
 *
 * Analyses are lazy and memoized (first call computes, under the set's lock):
 *   trace_pysum()     pytscope 0.2.1 analyze_trace on one rank (spec pytscope.md §6.6),
 *                     communication kernels by the classification table but under
 *                     --compat pytscope (pytscope's name list there)
 *   trace_hta()       HTA temporal breakdown, comm/comp overlap, kernel-type breakdown,
 *                     per-kernel stats and idle time by stream (formats.md §2.4), on the
 *                     HTA event set (events with a stream, after the last-step rule)
 *   trace_stragglers() HTA get_potential_stragglers(num_candidates=2)
 * Conventions of HTA @f4d0062 (formats.md §2.4), per rank: a rank with >= 2 distinct
 * ProfilerStep numbers keeps only the GPU events whose correlation matches a CPU event
 * that starts before its last ProfilerStep (so the last step is dropped); a rank with 0
 * or 1 step drops nothing. (HTA counts the step names over every rank, which leaves a
 * rank of one step no GPU event when another rank has another step.) A truncated file
 * (trace_rank_partial) is not measured as if whole: its steps have no phases, and the
 * verdicts over ranks (GPU idle, potential stragglers) leave it out and say so. The run
 * is immutable after load, so readers need no lock. */
#ifndef MODEL_TRACE_H
#define MODEL_TRACE_H

#include <pthread.h>
#include "model/base.h"
#include "model/trace/classify.h"

struct run;
struct table;
struct opts;

enum { TK_PYSEL = 1 };   /* selected by pytscope (cat contains kernel/gpu_memcpy/gpu_memset) */

struct trace_kernel {
	int64_t ts, dur;     /* ns (absolute: baseTimeNanoseconds + ts when present) */
	int64_t corr;        /* args.correlation, -1 when none */
	int32_t name;        /* index into the rank's name table */
	int32_t stream;      /* args.stream (else the tid: a number, or legacy "stream N"), -1 when none */
	int32_t iter;        /* ProfilerStep number via the correlated CPU event, -1 none */
	int16_t device;      /* the GPU: args.device, else the pid; -1 unknown */
	uint8_t flags;       /* TK_* */
};

struct trace_cpu {       /* a CPU event carrying a correlation id */
	int64_t ts, dur, corr;
};

struct trace_step {      /* a ProfilerStep#N span (CPU) */
	long step;
	int64_t ts, dur;
};

struct trace_kstat {     /* per-name statistics on one rank (HTA event set) */
	int32_t name;
	enum kclass cls;
	size_t count;
	double sum, min, max, mean, std; /* us; std = sample std, 0 for one kernel */
};

struct trace_idle {      /* idle time of one stream of one GPU by HTA category */
	int32_t device;      /* trace_kernel device */
	int32_t stream;
	double host_wait, kernel_wait, other; /* us */
};

struct trace_devtime {   /* HTA temporal breakdown of one GPU of a rank */
	int32_t device;      /* trace_kernel device */
	double kernel_us, idle_us, compute_us, idle_pct; /* span, idle and compute us; idle % of span */
};

enum { TB_MAX_LABELS = 8 };
/* A rank whose events ran on several GPUs (trace_kernel device) has each GPU's span,
 * idle and compute time in dev; its figures below are their sums (a GPU's idle time is
 * never hidden by another's kernels), its overlap and kernel-type breakdown too, and its
 * idle rows are per GPU and stream. With one GPU, HTA's figures. */
struct trace_hta {
	bool have_gpu;       /* any HTA GPU event after filtering */
	double kernel_us, idle_us, compute_us, noncompute_us;
	double idle_pct, compute_pct, noncompute_pct;   /* of kernel_us, unrounded (HTA's CSV: 2 decimals) */
	bool have_overlap;   /* false when there is no communication kernel */
	double overlap_pct;  /* comp_comm_overlap_pctg, unrounded */
	double comm_us;      /* union of communication kernels */
	/* kernel-type breakdown: time per running mask of {COMP=1, COMM=2, MEMORY=4} */
	double type_us[TB_MAX_LABELS];
	struct trace_kstat *kstat;  /* sorted by sum descending */
	size_t nkstat;
	struct trace_idle *idle;    /* by GPU (device order), then streams in order of first appearance */
	size_t nidle;
	struct trace_devtime *dev;  /* the GPUs, in device order */
	size_t ndev;
	size_t nevents;      /* HTA GPU events after filtering */
	size_t nfiltered;    /* GPU events the last-step filter left out (no CPU launch before it) */
};

struct trace_pysum {     /* pytscope TraceSummary; seconds */
	bool present;        /* false: no selected kernel (pytscope returns None) */
	double wall, comm, compute, exposed, overlapped;
	size_t n_comm, n_compute;
	double per_coll[6];  /* all_gather, all_reduce, all_to_all, broadcast, other, reduce_scatter */
	bool has_coll[6];
};
extern const char *const trace_coll_names[6]; /* sorted, as pytscope prints them */

/* STRAGGLER INPUTS. What HTA's straggler search (trace_stragglers) reads of a rank,
 * kept per rank so that it runs from the index without the events: the span of the
 * rank's HTA GPU events launched in each ProfilerStep, and its candidate kernels
 * (ncclKernel* on a stream > 0 in a step > 0, in the HTA event set). */
struct trace_iterwin {
	long iter;
	int64_t lo, hi;      /* ns */
};
struct trace_ncclk {
	int32_t stream, name;
	long iter;
	size_t order;        /* index in the rank's events (file order) */
	int64_t ts, dur;
};

struct trace_rank {
	int rank;
	char *path;
	bool rank_from_meta;
	long world_size;     /* -1 unknown */
	char *host;          /* unsanitized; NULL unknown (trace_rank_host) */
	/* The software and hardware the trace records (unsanitized; NULL unknown): the GPU
	 * names of deviceProperties (distinct, ", "-separated) that its GPU events ran on
	 * (args.device), all of them when no such id is listed; Kineto's top-level
	 * cuda_runtime_version and cuda_driver_version (decimal text); distributedInfo's
	 * backend ("nccl", "gloo", "mtia:hccl,cpu:gloo"). */
	char *gpu, *cuda_runtime, *cuda_driver, *backend; /* trace_rank_env() reads them by key */
	/* How many GPUs deviceProperties lists (the GPUs its process saw: its node's, unless
	 * CUDA_VISIBLE_DEVICES narrowed them; 0 none) and the lowest device id its GPU events
	 * ran on (args.device; -1 unknown); the node roll-up's last resort (steps/nodes.h). */
	int ngpus, device;
	struct trace_kernel *k;
	size_t nk, kcap;
	struct trace_cpu *cpu;
	size_t ncpu, cpucap;
	struct trace_step *step;
	size_t nstep, stepcap;
	char **names;
	enum kclass *name_cls;
	size_t nnames, namecap;
	size_t skipped;      /* events skipped (bad records) */
	bool truncated;      /* the file ended early: the events after that point were not read */
	bool kernels_whole;  /* truncated after the process and thread names (ph M) that Kineto
			      * writes once every activity is written: no GPU event was cut off */
	size_t src;          /* index in run->src */
	/* memoized analyses (restored from the index: model/trace/index.c) */
	bool hta_done, py_done, strag_done;
	bool strag_tied;     /* it ties for HTA's last potential-straggler place: not judged
			      * (trace_stragglers, trace_straggler_judged) */
	bool hta_filter;     /* the last-step rule dropped its last ProfilerStep when hta and the
			      * straggler inputs were computed */
	struct trace_hta hta;
	struct trace_pysum py;       /* communication by pytscope's name list (kept in a trace index) */
	struct trace_pysum py_table; /* by the classification table; valid when py_table_done (and py_done) */
	bool py_table_done;
	int64_t base_ns;     /* the file's baseTimeNanoseconds (0 none): pytscope reads ts without it */
	struct trace_iterwin *win;
	size_t nwin;
	struct trace_ncclk *nccl;
	size_t nnccl;
	int64_t *step_comm;  /* per step[]: exposed communication (ns, load_steps.c); NULL: not yet */
	int64_t *step_comp;  /* per step[]: GPU computation (ns, load_steps.c), with step_comm;
			      * both -1 for a step not measured (every step of a partial rank,
			      * trace_rank_partial, and a span that holds or overlaps another); a
			      * step without a kernel in a whole file has 0, 0 */
	/* Restored from the index: k, cpu (the events) are not loaded; the analyses above
	 * are. trace_rank_need_events() parses the file the first time events are read. */
	bool lazy;
	/* Read only as far as a distributedInfo.rank --ranks does not name (no events):
	 * left out (load.c; a trace keeps its distributedInfo.rank, store.c). */
	bool peeked;
	long long file_size, file_mtime_ns;   /* the file as indexed */
};

struct trace_set {
	struct trace_rank **r;   /* sorted by rank id */
	size_t n, cap;
	struct kclassifier *cls;
	bool published_steps;    /* the run's step model is these traces' ProfilerSteps
	                          * (trace_publish_steps), not step logs */
	bool comm_unmatched;     /* a run of several ranks whose GPU kernels the classification
				  * table matches no communication kernel in: no comm phase
				  * (load_steps.c) */
	size_t left_out;         /* ranks --ranks left out: rank dirs not entered, traces read then dropped */
	size_t nforeign;         /* traces in a rank dir that are of another job, left out (trace_drop_foreign) */
	char *foreign;           /* the first: "PATH: why" (unsanitized), NULL when none */
	char *own_other;         /* the run dir's own trace (pytscope's trace.json) names another rank
				  * or world_size than its run.json: "PATH why" (unsanitized), kept
				  * and read (trace_note_own, internal.h); NULL when not */
	pthread_mutex_t lock;
	pthread_mutex_t ev_lock; /* trace_rank_need_events */
	struct run *run;         /* for diagnostics of a lazy parse */
	bool strag_done;
	int strag[2];
	size_t nstrag;
	const char *strag_why;   /* why the straggler search could not run or decide (a literal or
				  * strag_tie), or NULL */
	char strag_tie[160];     /* a tie: which ranks tie for which place; "" when none */
	bool strag_own_clock;    /* it read each rank on its own clock (analysis_stragglers.c) */
};

/* The run's trace set, or NULL when no trace was loaded. */
struct trace_set *trace_get(struct run *run);

/* GPU time over every rank (HTA temporal breakdown, analysis.c): sums of the ranks' HTA
 * span (kernel_us: the span of HTA's event set, without the last ProfilerStep on the
 * dropped_last of them whose last step HTA's rule drops), idle, compute and non-compute
 * (communication, memory) time, and the ranks with the least and the most idle share.
 * n = ranks with GPU events; filtered = GPU events that HTA's last-step filter left out
 * on the ranks it left none; comm_unknown: no rank with GPU events has a kernel matched
 * as communication (trace_rank_comm_kernels; one rank alone too: its non-compute time is
 * no measured comm share), so the non-compute time holds no comm that was seen. Partial
 * ranks (trace_rank_partial) are left out of all that: npartial, the first one's id in
 * partial_rank (-1 none). The idle spread and the count of idle GPUs are over GPUs: a
 * rank that drives one GPU counts as one, one that drives several counts each (its GPU
 * named by min_device / max_device, out of min_ngpu / max_ngpu); trace_gpu_label() names
 * one so ("rank 3", or "GPU 1 of rank 0" for a rank of several; analysis_idle.c). */
struct trace_gpu_time {
	size_t n, filtered, dropped_last, npartial;
	size_t ngpu;             /* GPUs of those ranks */
	size_t nidle;            /* of those, idle for TRACE_IDLE_PCT of their span or more */
	int partial_rank;
	bool comm_unknown;
	double span_us, idle_us, compute_us, noncompute_us;
	int min_rank, max_rank;  /* rank ids */
	int min_device, max_device;
	size_t min_ngpu, max_ngpu;
	double min_idle_pct, max_idle_pct;
};
bool trace_gpu_time(struct trace_set *ts, struct trace_gpu_time *out);
void trace_gpu_label(int rank, int device, size_t ngpu, char *buf, size_t n);
/* A rank's GPU is idle (TRACE.GPU_IDLE) from this share of its HTA span; high from
 * TRACE_IDLE_HIGH_PCT. */
#define TRACE_IDLE_PCT 25.0
#define TRACE_IDLE_HIGH_PCT 50.0
/* An idle share with prec decimals that stays on its side of both bars (numfmt_same_side):
 * "24.999", "49.96", never "25.0" or "50" for them (rules.c). */
void trace_idle_text(double pct, int prec, char *buf, size_t n);
/* Load a rank restored from the index with its events (parse its file; thread-safe;
 * nothing when they are loaded). Whatever reads r->k, r->cpu calls it first. When the
 * file no longer matches what was indexed, the rank's analyses are dropped and
 * recomputed from the events read, with a diagnostic. */
void trace_rank_need_events(struct trace_set *ts, struct trace_rank *r);
/* Every analysis the index keeps of rank index ri: hta, pysum, straggler inputs. */
void trace_rank_summarize(struct trace_set *ts, size_t ri);
/* Memoized analyses of rank index ri (0..n-1); never NULL for a valid ri. */
const struct trace_hta *trace_hta(struct trace_set *ts, size_t ri);
/* pytscope's trace summary of rank index ri, in pytscope's float seconds: its
 * communication kernels are the classification table's (--kernel-classes extends it), as
 * for the steps and HTA's views, but under --compat pytscope pytscope's name list. */
const struct trace_pysum *trace_pysum(struct trace_set *ts, size_t ri);
/* The exposed share of the trace span in percent as pytscope computes it
 * (exposed_comm_fraction * 100; 0 without a span): the report's section and
 * DIST.EXPOSED_COMM round this one value. */
double trace_pysum_exposed_pct(const struct trace_pysum *p);
/* HTA potential stragglers (up to 2 rank ids); returns the count, 0 when HTA's method
 * could not run: then *why (when why is not NULL) says why, else *why is NULL. When ranks
 * tie for a place HTA names (which of them it names is its sort's order), only the ranks
 * above them are returned and *why says which tie. Ranks alike in a step are no
 * stragglers, and ranks whose traces share no instant are read each on its own clock
 * (ts->strag_own_clock; analysis_stragglers.c). */
size_t trace_stragglers(struct trace_set *ts, int out[2], const char **why);
/* Whether rank index ri's potential-straggler verdict is told: false when the method
 * could not run, the rank ties for a place HTA names, or its trace is partial. */
bool trace_straggler_judged(struct trace_set *ts, size_t ri);
/* Per-name statistics over the rank's GPU events idx[0..n) (sorted by sum, descending);
 * returns the count, *out is malloc'd. */
size_t trace_kstats(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_kstat **out);
/* Half-open time intervals in ns: sort and merge in place (touching intervals merge,
 * as in HTA and pytscope; returns the merged count), total length, and the length of
 * the intersection of two merged lists. */
struct trace_ivl {
	int64_t s, e;
};
size_t trace_ivl_merge(struct trace_ivl *v, size_t n);
int64_t trace_ivl_sum(const struct trace_ivl *v, size_t n);
int64_t trace_ivl_intersect(const struct trace_ivl *a, size_t na, const struct trace_ivl *b, size_t nb);
/* The rank's GPU events of ProfilerStep `step` (all when step < 0) sorted by step, then
 * file order; events outside any step sort last with iter INT32_MAX. *out is malloc'd.
 * trace_iter_run() is the length of the run of equal iter starting at v[a]. */
struct trace_by_iter {
	int32_t iter;
	size_t k;
};
size_t trace_by_iter(const struct trace_rank *r, long step, struct trace_by_iter **out);
size_t trace_iter_run(const struct trace_by_iter *v, size_t n, size_t a);
/* Label of a kernel-type mask (1..7) in HTA's spelling, e.g. "COMPUTATION overlapping
 * COMMUNICATION"; NULL for 0. */
const char *trace_mask_label(unsigned mask);

/* Kernels of one rank id (all ranks when rank < 0) launched in ProfilerStep `step`
 * (every step when step < 0), one row per (rank, step, kernel name) with a `step`
 * column (missing for kernels outside any step): the drill-down from a heatmap cell
 * (rank, step); the `step_kernels` view is the whole table. Uses every GPU event (no
 * last-step filter). A truncated (partial) trace's steps are not measured: its rows are
 * left out (said in the table's note), and NULL for its rank. NULL, with a reason in err,
 * when no trace covers it. The caller frees the table. */
struct table *trace_kernels_table(struct run *run, int rank, long step, char *err, size_t errn);
/* True when a trace of rank id `rank` that is not partial has ProfilerStep#step (Enter
 * on a heatmap cell then opens the step_kernels view filtered to "rank=R step=S"). */
bool trace_covers(struct run *run, int rank, long step);
/* Why rank id `rank` of a run whose steps are its traces' ProfilerSteps (trace_steps_only)
 * has no step record (rank -1: why no rank has one), a literal: its trace is truncated
 * before the end of its GPU events, or before its first ProfilerStep, or has none; NULL
 * when the run's steps are not its traces' or no trace is of that rank. */
const char *trace_steps_why_none(const struct run *run, int rank);
/* The host of rank id `rank`'s trace: distributedInfo's hostname (or host, node,
 * nodename), else Kineto's top-level "host_name", else the host in the file name that tensorboard_trace_handler writes by
 * default, <host>_<pid>.<ms>.pt.trace.json[.gz] (not when the name carries a rank or
 * worker number: then worker_name was set by hand). NULL when unknown or no trace. */
const char *trace_rank_host(struct run *run, int rank);
/* The trace of rank id `rank`, NULL when none. */
const struct trace_rank *trace_rank_of(const struct run *run, int rank);
/* The software and hardware keys a trace records, in this order: "gpu",
 * "cuda_runtime_version", "cuda_driver_version", "backend" (struct trace_rank gpu,
 * cuda_runtime, cuda_driver, backend); trace_rank_env() is r's value of key k, NULL when
 * not recorded. */
#define TRACE_ENV_KEYS 4
extern const char *const trace_env_keys[TRACE_ENV_KEYS];
const char *trace_rank_env(const struct trace_rank *r, size_t k);
/* The world_size in the lowest rank's trace (distributedInfo), -1 when unknown or no trace. */
long trace_world_size(const struct run *run);

/* ---- loader entry points (load.c, registered by subsystem.c) and lifetime (store.c) ---- */
int trace_probe(const char *path, const struct opts *opts);
/* The trace files the loader would read under path (without --trace): pytscope's
 * trace.json (or .gz, kineto.json[.gz]) of a run dir, else the trace files in the
 * directory and its rank* / worker* subdirectories, or path itself. The caller frees
 * each string and the array. */
void trace_list_files(const char *path, char ***files, size_t *n);
/* Of those, the ones in dir, a rank* / worker* directory directly in run_dir, listing dir
 * alone (a followed rank dir that changed): none when run_dir holds pytscope's trace
 * (then its only one read) or dir is no such directory. Freed as trace_list_files'. */
void trace_list_rank_dir(const char *run_dir, const char *dir, char ***files, size_t *n);
/* base (a file name) is one of pytscope's run-dir trace names (trace.json, trace.json.gz,
 * kineto.json, kineto.json.gz). */
bool trace_pytscope_name(const char *base);
/* file is pytscope's trace of run dir dir: dir/NAME, NAME one of those names (dir's
 * trailing slashes and the slashes after it aside: "run/" holds "run//trace.json"). */
bool trace_pytscope_trace_of(const char *file, const char *dir);
struct load_ctx;
int trace_load(struct load_ctx *ctx, const char *path);
void trace_free(struct run *run);
void trace_rank_free(struct trace_rank *r);
/* r->step_comm and r->step_comp from the events (load_steps.c), unless they are there
 * (restored). */
void trace_rank_step_comm(struct trace_set *ts, struct trace_rank *r);
/* Publish ProfilerStep#N records as steps (load_steps.c); only for runs without
 * pytscope steps. */
void trace_publish_steps(struct run *run);
/* Whether rank r's trace measures communication: the classification table matches one of
 * its kernels as communication, or r is the one rank of a run of one (no communication
 * expected: its 0 is measured). Its kernel names decide, kept in a trace index too. */
bool trace_rank_comm_measured(const struct trace_set *ts, const struct trace_rank *r);
/* Whether the classification table matches one of rank r's kernels as communication
 * (by its name table: a kernel skipped for a duration far past the window counts). */
bool trace_rank_comm_kernels(const struct trace_rank *r);
/* Whether rank r's trace is partial: its file is truncated before the end of its GPU
 * events (not kernels_whole). Kineto does not write GPU events in time order, so a
 * kernel of any step may be past the cut: no step is measured, and its HTA figures are
 * of the events read, not the rank's. */
bool trace_rank_partial(const struct trace_rank *r);
/* Why the steps of a traces-only run have no comm phase when it is because, in a run of
 * several ranks, no trace's kernels matched the classification table as communication
 * (a literal); NULL otherwise. */
const char *trace_comm_unmatched(const struct run *run);
/* Why the ranks of a run whose steps are its traces' ProfilerSteps (trace_steps_only)
 * are not weighed against each other, into buf[n]: the traces are of two runs, their
 * first ProfilerSteps more than an hour apart (subsystem.c); NULL otherwise. The step
 * family's verdicts across ranks (imbalance, sync skew, stragglers, critical path, step
 * walls) read it. */
const char *trace_runs_mixed(const struct run *run, char *buf, size_t n);
/* The run's step model is its traces' ProfilerSteps, published here (no step log):
 * pytscope 0.2.1 reads no steps from a trace, so --compat pytscope shows none. */
bool trace_steps_only(const struct run *run);
/* The CPU event with this correlation id (the last in file order), or NULL. */
const struct trace_cpu *trace_cpu_by_corr(const struct trace_rank *r, int64_t corr);
/* Microseconds text ("1694128201435418", "4458676522690.655", "68.0", "1.5e3") to
 * integer nanoseconds, exact while the value in ns fits in int64 (about 9.2e15 us). */
bool trace_parse_us(const char *s, size_t n, int64_t *out);

/* The trace parts of run_dir's index in dir (index_dir_for(), or the other place of
 * index_dir_unread(); the newest shard count; `tscope-tui index --status`): each part's
 * path, why it would not be used (why NULL: valid, or a shard no trace falls in: more
 * shards than traces), the traces it holds, how many of those files changed since
 * (parsed again at the next open) and how many are gone, the run dir's traces its shard
 * holds now (planned: those an open parses when the part is not usable) and of those the
 * ones no part holds (added: new since, or left out at each open, in *unindexed too);
 * *unindexed: the run dir's traces no part holds nor is planned to hold (parsed at each
 * open), also when there is no part; their paths, sorted by strcmp, in *unindexed_paths
 * when it is not NULL (malloc'd, in a malloc'd array). */
struct trace_part_status {
	unsigned k, n;
	char *path;
	char *why;
	size_t traces, changed, gone, planned, added;
};
size_t trace_index_status(const char *dir, const char *run_dir, struct trace_part_status **out, size_t *unindexed,
			  char ***unindexed_paths);
void trace_index_status_free(struct trace_part_status *v, size_t n);
/* Part k of n of the trace index in dir alone as trace_index_status() finds it (`index
 * --shard K/N`: no other part read; added: its shard's traces it does not hold); the
 * caller frees out->path and out->why. */
void trace_index_part_state(const char *dir, const char *run_dir, unsigned k, unsigned n,
			    struct trace_part_status *out);
/* No trace of run_dir falls in shard k of n (`index --shard K/N`: it lists the run dir
 * and that shard's rank dirs only). */
bool trace_index_shard_empty(const char *run_dir, unsigned k, unsigned n);
/* Of the traces v[0..n) of run_dir (trace_list_files), how many are in none of its rank
 * dirs: the files shards split among them (a rank dir's go with its rank). */
size_t trace_index_loose(const char *run_dir, char *const *v, size_t n);

#endif
