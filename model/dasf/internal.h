/* SPDX-License-Identifier: MIT */
/* internal.h: the DASF model's internals, shared by load.c (decoding, with load_mp.c,
 * the MessagePack reader, and load_legacy.c, the legacy text format), store.c
 * (interning), analysis.c, views.c, rules.c, grid.c and subsystem.c. Other modules use
 * model/dasf/dasf.h only.
 *
 * Events are kept per type, each array in database order (files in the order given,
 * records in file order), because DASF's results depend on that order: the first
 * matching Compute event wins a resource sample, the last Compute event of a key gives
 * its size, the last Managed Memory event of a (second, worker) gives its task count.
 * Strings are interned: `strs` holds hosts, workers, function names, types; `keys` holds
 * task keys (every Compute key and every dependency/dependent named), so a key id is
 * also the task-graph node id.
 *
 * Timestamps are seconds of each host's time.monotonic(): never compared across hosts,
 * except where DASF itself does (resource matching, task_balance), which the views say. */
#ifndef MODEL_DASF_DB_H
#define MODEL_DASF_DB_H

#include <stdatomic.h>
#include "model/base.h"
#include "model/byteplan.h"
#include "model/registry.h"

#define DASF_NONE UINT32_MAX

/* An append-only string interner: ids are dense, 0..n-1, in first-seen order. The
 * last string seen per recent[] slot (by hash) is checked first: task keys come back as
 * dependencies and dependents a few records later, and then cost no probe of the big
 * table. */
#define DASF_INTERN_RECENT 4096
struct dasf_intern {
	char **str;            /* id -> NUL-terminated string (in the arena) */
	uint32_t *len;         /* id -> length in bytes (a string may hold a NUL) */
	size_t n, cap;
	uint64_t *slot;        /* open addressing: hash << 32 | (id + 1), 0 when empty */
	size_t nslot;
	char *arena;           /* current arena block (blocks are chained by their first word) */
	size_t arena_used, arena_cap;
	uint64_t recent[DASF_INTERN_RECENT]; /* hash << 32 | (id + 1), 0 when empty */
};

uint32_t dasf_intern(struct dasf_intern *in, const char *s, size_t len);
/* The same for a string whose dasf_hash() is h. */
uint32_t dasf_intern_hashed(struct dasf_intern *in, const char *s, size_t len, uint32_t h);
uint32_t dasf_hash(const char *s, size_t len);
/* A hint, changing nothing: bring the table slot of hash h into cache (unless recent[]
 * has it), so that interning it a little later does not wait on memory. */
void dasf_intern_prefetch(const struct dasf_intern *in, uint32_t h);
/* Id of s, or DASF_NONE when never interned. */
uint32_t dasf_intern_find(const struct dasf_intern *in, const char *s);
void dasf_intern_free(struct dasf_intern *in);

/* One MessagePack record as the loader reads it (load_mp.c): where the value of each
 * key the analyses use begins (its marker byte), NULL when the key is absent; the first
 * of duplicate keys counts. The args fields come from the first args value (`data` in
 * the legacy format) when it is a map. */
struct dasf_rec {
	const unsigned char *name, *timestamp, *duration, *process_id, *thread_id, *args;
	const unsigned char *key, *fn, *type, *shape, *size, *deps, *dnts, *tasks, *gpu_util, *gpu_mem;
	const unsigned char *end;   /* end of the record */
};

enum dasf_rec_status {
	DASF_REC_OK,
	DASF_REC_MALFORMED,         /* not exactly one well-formed object in the bytes */
	DASF_REC_TOO_DEEP,          /* well-formed, with containers nested deeper than 32 */
	DASF_REC_NOT_MAP,           /* well-formed, not a map */
};

/* Validate buf[0..n) in one pass and fill *r (only meaningful for DASF_REC_OK). */
enum dasf_rec_status dasf_rec_scan(const unsigned char *buf, size_t n, bool legacy, struct dasf_rec *r);

/* Getters for a value of a record dasf_rec_scan accepted; v may be NULL (absent): false.
 * dasf_mp_number takes every integer and float; dasf_mp_int integers that fit a long long;
 * dasf_mp_uint only uint64-encoded values; dasf_mp_array returns the element count and
 * the first element, or DASF_NONE when v is not an array; dasf_mp_next steps over one. */
bool dasf_mp_str(const struct dasf_rec *r, const unsigned char *v, const char **s, size_t *n);
bool dasf_mp_number(const unsigned char *v, double *out);
bool dasf_mp_int(const unsigned char *v, long long *out);
bool dasf_mp_uint(const unsigned char *v, unsigned long long *out);
bool dasf_mp_is_nil(const unsigned char *v);
/* What value v (not NULL) is, for a diagnostic: "a number", "a string", "nil", "a map", ... */
const char *dasf_mp_kind(const unsigned char *v);
uint32_t dasf_mp_array(const unsigned char *v, const unsigned char **first);
const unsigned char *dasf_mp_next(const struct dasf_rec *r, const unsigned char *v);

/* The legacy `trace: {json}` format (load_legacy.c): a MessagePack buffer, grown as it is
 * written (b xmalloc'd, cap its size; the caller frees b), reused line after line. */
struct dasf_packer {
	unsigned char *b;
	size_t n, cap;
};
struct json_doc;
/* The object of a parsed line (token 0 of d, which json_parse accepted) packed into pk
 * (pk->n its length): false when it is no object, nests deeper than 64, or jsmn left it
 * malformed (a key without its value). */
bool dasf_legacy_pack(struct dasf_packer *pk, const struct json_doc *d);

/* A uint64 -> uint32 hash map (open addressing), for grouping. */
struct dasf_map {
	uint64_t *key;
	uint32_t *val;
	bool *used;
	size_t n, cap;
};

/* Value for key; when absent, inserts `fresh` and returns it. */
uint32_t dasf_map_get_or_add(struct dasf_map *m, uint64_t key, uint32_t fresh);
/* Value for key, or DASF_NONE. */
uint32_t dasf_map_find(const struct dasf_map *m, uint64_t key);
void dasf_map_free(struct dasf_map *m);

/* One "Compute" event (a task that ran; DASF treats it as running over [ts, ts+dur]). */
struct dasf_task {
	double ts, dur;
	long long size;        /* args.size (bytes), valid when has_size */
	uint32_t host, thread; /* strs: process_id, thread_id as text */
	uint32_t name, key;    /* strs: args.name (the "function"); keys: args.key */
	uint32_t type, shape;  /* strs, DASF_NONE when absent */
	uint32_t edge;         /* first entry in db->edges: ndeps dependencies, then ndnts dependents */
	uint32_t ndeps, ndnts;
	uint32_t file;         /* index in db->files */
	bool has_size;
};

/* A Managed Memory event's timestamp further from 0 than this (s) is skipped by the
 * loader (warned of): task_balance's whole seconds and their offsets stay exact. */
#define DASF_MEM_TS_MAX 9e15

/* One "Managed Memory" event. */
struct dasf_mem {
	double ts;             /* NaN, +-inf or within DASF_MEM_TS_MAX */
	long long tasks;       /* args.tasks: keys held in the worker's memory */
	long long bytes;       /* args.size: bytes held by the worker, valid when has_bytes */
	bool has_bytes;
	uint32_t thread, host;
};

/* One "Resource Usage" sample with gpu_utilization (samples without it are counted only). */
struct dasf_res {
	double ts;
	double gpu_util;       /* % */
	double gpu_mem;        /* bytes, valid when has_mem */
	uint32_t host;
	bool has_mem;
};

/* A GPU sample below this utilisation (%) counts as idle. */
#define DASF_IDLE_UTIL 10.0

/* Results of every analysis, computed once (dasf_analyse) and read by the views. */
struct dasf_fn_row {        /* one function_bottleneck row */
	uint32_t host, thread, name;
	double dur, pct;        /* NaN when a task of the group has no usable duration; pct also
	                         * when one of the worker's has none */
	double mean_s;          /* mean usable duration, NaN when no task has one */
	double util, mem_gb;    /* valid when nres > 0 / nmem > 0 */
	size_t nres, nmem;
	double data_mb;         /* mean input data size */
	double thr_mbs;         /* mean throughput over tasks with a defined throughput */
	size_t nthr;
	size_t ntasks;
	uint32_t first_task;    /* head of the group's task list (dasf_an.task_next) */
};

struct dasf_tb_row {        /* one task_bottleneck row */
	uint32_t host, thread, key;
	double dur, pct;        /* missing as dasf_fn_row's */
};

struct dasf_an {
	struct dasf_fn_row *fn;     /* sorted by duration, descending (stable) */
	size_t nfn;
	uint32_t *task_next;        /* per Compute event: next event of the same fn group, or NONE */
	struct dasf_tb_row *tb;     /* sorted by duration, descending (stable) */
	size_t ntb;
	long long *last_size;       /* per key: last args.size seen (valid when has_last_size) */
	bool *has_last_size;
	/* task graph, one node per key id */
	uint32_t *node_task;        /* last Compute event of the key, DASF_NONE: edge-only node */
	uint32_t *pred_off, *pred;  /* deduplicated predecessors (CSR, nnode + 1 offsets) */
	uint32_t *succ_off, *succ;  /* deduplicated successors */
	double *input_size;         /* bytes */
	double *throughput;         /* bytes/s, valid when has_thr */
	bool *has_thr;
	uint32_t *critical;         /* longest chain by duration, first to last (empty without one) */
	size_t ncritical;
	bool *on_longest;           /* per key: on a chain exactly as long as the critical path (its
	                             * own keys among them; all false without one) */
	size_t nlongest;            /* such keys: more than ncritical when chains tie for the longest */
	uint32_t untimed_node;      /* a key whose task has no usable duration (DASF_NONE: none): then
	                             * no critical path, as any chain through it could be the longest */
	size_t untimed_nodes;       /* keys whose task has no usable duration */
	uint32_t eventless_node;    /* a key with no Compute event that depends on a key and that a
	                             * task depends on: it ran, its event is lost (DASF_NONE: none);
	                             * then no critical path either */
	size_t eventless_nodes;     /* such keys */
	uint32_t loose_node;        /* a key with no Compute event at a chain's start (depending on no
	                             * key: an input) or end (no task depends on it): on no chain, as
	                             * the headline says (DASF_NONE: none) */
	size_t loose_nodes;         /* such keys */
	size_t cyclic;              /* nodes in or behind a dependency cycle: then no critical path */
	uint32_t cycle_node;        /* a key on a cycle (DASF_NONE: the graph is acyclic) */
	size_t cycle_len;           /* tasks on that cycle */
	/* task_balance: rows only for seconds with an event */
	long long *bal_sec;         /* nsec seconds (int(ts)), ascending */
	size_t nsec;
	uint32_t *bal_thread;       /* nthr thread ids (strs), sorted lexically */
	size_t nbal_thr;
	long long *bal_tasks;       /* nsec * nbal_thr, last value seen */
	double *bal_bytes;          /* nsec * nbal_thr, last args.size seen (NaN: none) */
	bool *bal_has;
	bool bal_too_big;           /* more cells than DASF_BALANCE_MAX_CELLS: no table */
	/* GPU idle: matched samples (a task was running) and how many had 0% utilisation */
	size_t res_matched, res_idle;
	size_t unspanned;           /* tasks no sample can match: no usable duration or timestamp */
	size_t *idle_by_name;       /* per function name (strs id): its idle samples */
	double total_dur;           /* sum of the Compute durations, NaN when a task has no usable
	                             * one (or there is none), +inf when the sum overflows */
};

#define DASF_BALANCE_MAX_CELLS ((size_t)1 << 25)

struct dasf_file {
	char *path;
	size_t records;
	size_t mem_end, res_end;    /* db->mem and db->res entries up to this file's last (events
	                             * are in file order: the file's own begin at the previous end) */
};

struct dasf_db {
	struct dasf_intern strs, keys;
	struct dasf_task *task;
	size_t ntask, taskcap;
	uint32_t *edges;            /* key ids */
	size_t nedges, edgecap;
	struct dasf_mem *mem;
	size_t nmem, memcap;
	struct dasf_res *res;
	size_t nres, rescap;
	size_t res_no_gpu;          /* Resource Usage samples without gpu_utilization */
	size_t lost;                /* Compute events the loader skipped (no args map, string key or
	                             * name, numeric timestamp): tasks that ran, their time unknown */
	const char *lost_lacks;     /* what the first one lacks ("without string args 'name'"; static) */
	size_t other_events;        /* events of other (user-defined) names */
	struct dasf_file *files;
	size_t nfiles, filecap;
	struct dasf_an *an;         /* NULL until dasf_analyse() */
	struct byteplan plan;       /* the loader's bytes over the run's PATHs (load.c), released
	                             * at finalize */
	const atomic_bool *cancel;  /* the load's cancel flag (load_ctx.cancel) until finalize
	                             * ends, else NULL (dasf_cancelled) */
};

/* The load was cancelled (q on the loading screen, load_ctx.cancel): its run is
 * discarded, so the loader opens no further file and the load-time checks
 * (dasf_finalize) are not run. False once finalize ended. */
bool dasf_cancelled(const struct dasf_db *db);

/* A Compute duration the analyses count: finite and >= 0. Any other (negative, NaN,
 * inf: the loader warns of each) is missing wherever task time is summed. */
bool dasf_dur_usable(double d);

/* Why task times are incomplete when the loader skipped Compute events (db->lost): "1
 * Compute event without string args 'name' was skipped", "3 Compute events were skipped,
 * the first without ..."; false without. The total task time, the function and worker rules
 * and the critical path are then unknown. */
bool dasf_lost_text(const struct dasf_db *db, char *buf, size_t n);

/* Load-time checks over the whole run, after every file was read (the subsystem's
 * finalize, checks.c): warnings for a dependency cycle (no critical path), databases
 * of two runs (one host's files with different <name>-<unixtime> parts, or one worker's
 * tasks in two files), copies (the same task key at the same timestamp in two files) and
 * records written twice (the same in one file and worker). Every open pays for them: they
 * leave db->an NULL (the analyses stay lazy) unless the task graph has a cycle, which
 * dasf_analyse() then names. */
void dasf_finalize(struct run *run);

/* Why there is no critical path when db->an->cycle_node is set: "the task graph has a
 * dependency cycle through task 'k' (...)", the key sanitized. */
void dasf_cycle_text(const struct dasf_db *db, char *buf, size_t n);
/* Why there is no critical path (a dependency cycle, dasf_cycle_text, a task without a
 * usable duration or a lost event, named, sanitized, or Compute events the loader skipped,
 * dasf_lost_text) in buf; false when there is one. */
bool dasf_no_critical_text(const struct dasf_db *db, char *buf, size_t n);

/* Run every analysis once; the results stay in db->an. */
const struct dasf_an *dasf_analyse(struct dasf_db *db);
void dasf_an_free(struct dasf_an *an);
void dasf_db_free(struct dasf_db *db);

/* The function groups of dasf.h (dasf_function_groups: dask's key_split rule) by name:
 * group_of[strs id] (strs.n entries) the group of each name a task has, DASF_NONE for
 * other strings; the groups' names interned in `names` (ids dense, first-seen order, n of
 * them); stripped[g] whether a name of group g is not g's name (longer, or "Other"),
 * nnames[g] how many names it has. Built by dasf_groups_build(), owned, released by
 * dasf_groups_free(). */
struct dasf_groups {
	uint32_t *group_of;
	struct dasf_intern names;
	bool *stripped;
	size_t *nnames;
	size_t n;
};
void dasf_groups_build(const struct dasf_db *db, struct dasf_groups *g);
void dasf_groups_free(struct dasf_groups *g);
/* The number of groups alone. */
size_t dasf_groups_count(const struct dasf_db *db);

/* "GPU" column: the part of thread_id after its last '-' (the whole string if none). */
const char *dasf_gpu_of(const char *thread);

/* The task balance heatmap grid ("tasks", grid.c). */
extern const struct grid_provider grid_dasf;

/* Views (views.c) and finding rules (rules.c), registered by sub_dasf (subsystem.c). */
#define DASF_NVIEWS 6
#define DASF_NRULES 3
extern const struct view_def dasf_views[DASF_NVIEWS];
/* The run has what view vd builds from: Managed Memory events for task_balance, Compute
 * events for the others (registry.h view_has_data: the v list offers only those). */
bool dasf_view_has_data(struct run *run, const struct view_def *vd);
extern const struct finding_rule dasf_rules[DASF_NRULES];
/* What the rules could not judge on this run and why (the subsystem's `unjudged`). */
void dasf_unjudged(struct run *run, struct not_judged *nj);

#endif
