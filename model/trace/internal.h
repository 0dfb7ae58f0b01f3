/* SPDX-License-Identifier: MIT */
/* internal.h: private to the trace family (model/trace/): the views (views.c) and the
 * finding rule (rules.c) registered by subsystem.c, and the post-processing the loader
 * (load.c) calls in store.c. The model, the loader entry points and the analyses are
 * model/trace/trace.h. */
#ifndef MODEL_TRACE_INTERNAL_H
#define MODEL_TRACE_INTERNAL_H

#include "model/registry.h"
#include "model/trace/trace.h"

#define TRACE_NVIEWS 6
#define TRACE_NRULES 3
extern const struct view_def trace_views[TRACE_NVIEWS];
extern const struct finding_rule trace_rules[TRACE_NRULES];
/* What those rules could not judge (no GPU or communication kernel; registry.h). */
void trace_unjudged(struct run *run, struct not_judged *nj);
/* Why HTA's last-step filter left the GPU time n/a (trace_gpu_time: no rank kept a GPU
 * event, `filtered` events left out), in the headline's words and the not-judged list's
 * alike (rules.c): trace_filtered_what, then trace_filtered_text's detail into buf[n]. */
extern const char *const trace_filtered_what;
void trace_filtered_text(size_t filtered, char *buf, size_t n);

/* Traces of two runs (subsystem.c): the first ProfilerSteps of two traces, on clocks
 * that read as wall time (2001 on: not a trace written from 0), lie more than an hour
 * apart, where the ranks of one job start within minutes (the step family's run.json
 * test). lo, hi: the indexes in ts->r of the earliest and the latest; nlate: the traces
 * that start more than an hour after lo's. trace_mixed_why() is why no rank is weighed
 * against another then ("rank 4's trace starts ... : traces of two runs") into buf[n],
 * NULL when none is late. */
struct trace_late_start {
	size_t lo, hi, nlate;
	double spread_s;
};
bool trace_late_start(const struct trace_set *ts, struct trace_late_start *out);
const char *trace_mixed_why(const struct trace_set *ts, char *buf, size_t n);

/* The GPU names, CUDA runtime and CUDA driver that traces record otherwise than the rest
 * (env_diff.c), for the "traces differ" line and TRACE.ENV_DIFFERS: ranks of one job on
 * another GPU type or software stack run at another speed, and traces of other jobs
 * would be merged in silence. As steps' config_diff.h: a key is named when fewer than
 * half of the traces have another value than the most common one (a key a trace does not
 * record counts as a value); with no such key but some key that differs (two traces, half
 * and half), the keys that differ are named against the lowest rank's values (split).
 * Indexes are into ts->r; the strings are the traces' (unsanitized). */
struct trace_env_diff {
	size_t first;           /* index of the lowest rank that differs */
	const char *key;        /* its first named key: gpu, cuda_runtime_version, cuda_driver_version */
	const char *value;      /* its value there ("(none)": not recorded) */
	const char *others;     /* the most common value, or for a split the lowest rank's */
	size_t ndiff, n;        /* traces that differ on a named key, of n compared on one */
	char ranks[48];         /* their rank ids as ranges ("8-15,17") when more than one; "" when one or longer */
	bool split;
	char keys[96];          /* the named keys, ", "-separated */
};
/* true when some key is named (out filled); false when every trace records the same
 * (or none), or there are fewer than two traces. */
bool trace_env_diff(const struct trace_set *ts, struct trace_env_diff *out);

/* The GPUs a trace's deviceProperties lists (env_diff.c): each object's "id" (-1 when
 * it gives none) and "name", the first 16 objects with a non-empty name. A process sees
 * every GPU of its node; the kernels' args.device says which one the rank used. total
 * counts every object with a non-empty name, kept or not.
 * trace_devices_read() replaces dv's list with array d's; trace_devices_gpu() is the
 * rank's gpu (the caller frees it; NULL when the list is empty): the distinct names of
 * the devices whose ids are set in used (bit i: device i ran a GPU event), else, when
 * no such id is listed, the distinct names of all; ", "-separated and cut at 200 bytes. */
struct json_doc;
struct trace_devices {
	size_t n, total;          /* kept, and every object with a name */
	long long id[16];
	char *name[16];
};
void trace_devices_read(struct trace_devices *dv, const struct json_doc *d);
char *trace_devices_gpu(const struct trace_devices *dv, uint64_t used);
void trace_devices_free(struct trace_devices *dv);

/* Post-processing of decoded ranks (store.c), called by the loader (load.c): the run's
 * trace set (created with the --kernel-classes table on first use); the rank ids of the
 * ranks ts->r[n0..) just added in file order (single: the only file of the run): each
 * keeps its own distributedInfo.rank, a later trace claiming a rank already held is
 * named in a diagnostic, its source refused and left out, and removed (freed; ts->n
 * shrinks); then the others get their file name's rank (all reserved before the file
 * order gives any); a trace of the same process as another (by their HOST_PID.MS names),
 * or whose file name's rank a trace not known to be of another process holds, is left
 * out likewise; then the rest get the free ids in file order; then the
 * per-rank indexes the analyses read. trace_rank_cmp orders ranks by id. */
struct trace_set *trace_set_get_or_new(struct run *run);
/* With step logs (and no --trace): the ranks ts->r[n0..) whose file lies in a rank{k}/ dir
 * of a step rank k while its distributedInfo names another rank, or another world_size
 * than that rank's run.json, are traces of another job: each is named in a diagnostic,
 * its source refused and left out, counted in ts->nforeign (the first in ts->foreign),
 * and removed (freed; ts->n shrinks). A trace without distributedInfo stays. Returns how
 * many were dropped. Before trace_assign_ranks (a foreign trace claims no rank). */
size_t trace_drop_foreign(struct run *run, struct trace_set *ts, size_t n0);
/* path is the run dir's own trace (pytscope's trace.json of a step rank's dir, beside its
 * run.json): when the trace loaded from it names another rank or world_size than that
 * run.json, that is named in a diagnostic and ts->own_other (the first), and the trace
 * is kept (pytscope reads it as the run's). After the trace index is saved: the note is
 * made at each open, never restored with the trace's own diagnostics. */
void trace_note_own(struct run *run, const char *path);
void trace_assign_ranks(struct run *run, struct trace_set *ts, size_t n0, bool single);
/* Who said msg of a trace: its parse, the rank assignment above (its rank from its file
 * name or the file order) or trace_finish_rank(); an index record holds them all, and an
 * open restores them by who said them (index.c). */
enum trace_said { TRACE_SAID_PARSE, TRACE_SAID_RANK, TRACE_SAID_FINISH };
enum trace_said trace_said_by(const char *msg);
/* The host of tensorboard_trace_handler's default file name HOST_PID.MS.pt.trace.json
 * (trace.h trace_rank_host): letters, digits, '-' and '.', not a rank token alone
 * (job-worker-0, not rank0 or worker3_step), or NULL; the caller frees it. */
char *trace_host_from_name(const char *path);
struct diag_list;
/* Finish a decoded rank: CPU events sorted by correlation id, each GPU event's step (its
 * CPU launch's span's number, trace_kernel iter), and the warnings on it: no
 * communication kernel, GPU events without a CPU launch, a repeated ProfilerStep number. */
void trace_finish_rank(struct diag_list *diags, struct trace_set *ts, struct trace_rank *r);
/* The ProfilerStep span (index into r->step) that holds instant ts, as HTA's
 * add_iteration finds it (the last in file order when spans overlap), -1 when none; the
 * index is built once per rank over the spans kept[] marks (NULL: all of them), its v
 * freed by the caller (store.c). */
struct trace_span_index {
	const struct trace_step **v;   /* the spans by start time */
	size_t n;
	bool overlap;
};
void trace_span_index_build(const struct trace_rank *r, const bool *kept, struct trace_span_index *si);
long trace_span_of(const struct trace_rank *r, const struct trace_span_index *si, int64_t ts);
/* Decode one trace file into a new, unfinished rank (NULL when it gave nothing); its
 * diagnostics go to diags (load.c). */
/* Drop what the analyses computed of r (hta, pysum, straggler inputs, step comm):
 * they run again from its events (store.c). */
void trace_rank_drop_analyses(struct trace_rank *r);
/* After a load that restored ranks from the index: the last-step rule over every rank
 * now (analysis.c); a rank whose analyses were computed under the other rule drops
 * them. */
void trace_filter_check(struct trace_set *ts);
/* HTA's event set (analysis.c), shared by the analyses and the straggler search
 * (analysis_stragglers.c): whether the last-step rule drops r's last ProfilerStep (2 or
 * more distinct step numbers), the start of r's last ProfilerStep (INT64_MIN: none), and
 * whether GPU event e is kept (filter and cutoff: the two above). */
bool trace_drops_last_step(const struct trace_rank *r);
int64_t trace_last_step_start(const struct trace_rank *r);
bool trace_hta_keep(const struct trace_rank *r, const struct trace_kernel *e, bool filter, int64_t cutoff);
/* HTA's breakdowns of r's selected GPU events idx[0..n) (file order), GPU by GPU, into
 * h (analysis_idle.c): its temporal breakdown, overlap, kernel types, idle rows and GPUs
 * (trace.h trace_hta). */
void trace_hta_gpus(const struct trace_rank *r, const size_t *idx, size_t n, struct trace_hta *h);
/* The trace summaries in the persistent index (index.c, which says when it is used).
 * trace_index_shard() keeps shard k of n's files of v[0..*n), sorted by path (the others
 * freed): those in its rank dirs of run_dir (index_shard_dirs()), and slice k of n of
 * the files in no rank dir; trace_index_restore() restores the files of v[0..n) it holds
 * as they are now: held[i] is file i's rank (lazy; its source and what its parse said in
 * the run; its rank unassigned unless its distributedInfo gave it) and the count is
 * returned; the loader assigns the ranks of all the files in their order, as a plain load
 * does, then trace_index_late() adds what trace_finish_rank() said of each restored rank
 * still in ts->r[n0..) (the ranks kept), under its rank, and frees late (may be NULL);
 * trace_index_want() tells whether a load that parsed that much should write it;
 * trace_index_save() writes this load's part from run->trace (every rank's summaries
 * computed first; a failure is a diagnostic). */
bool trace_index_usable(const struct run *run, const char *path);
void trace_index_shard(const char *run_dir, char **v, size_t *n, unsigned k, unsigned nshard);
struct trace_late;
size_t trace_index_restore(struct run *run, const char *path, char *const *v, size_t n, struct trace_rank **held,
			   struct trace_late **late);
void trace_index_late(struct run *run, const struct trace_set *ts, size_t n0, struct trace_late *late);
bool trace_index_want(const struct run *run, long long parsed_bytes);
void trace_index_save(struct run *run, const char *path);
/* ---- discovery (load_discover.c) ---- */
/* A list of paths (owned strings). With `only` (a --ranks list, set before
 * trace_discover), rank dirs (rank<id>) whose id it does not name are not entered:
 * left_out counts them, and the traces the load then drops (dropped, the first few
 * named in dropped_names). The rank* / worker* directories that could not be listed are
 * in bad, with the errno, and so are the *.json[.gz] files that could not be read to tell
 * whether they are traces (file). */
struct trace_unlisted {     /* a rank* / worker* directory that could not be listed, or a file not read */
	char *path;
	int err;
	bool file;
};
struct trace_pathvec {
	char **v;
	size_t n, cap;
	const char *only;
	size_t left_out, dropped;
	char dropped_names[400];
	struct trace_unlisted *bad; /* the subdirectories discovery could not enter, the files it could not read */
	size_t nbad, badcap;
};
void trace_pathvec_free(struct trace_pathvec *pv);
/* The directories and files of pv->bad, each an error naming why and an unreadable
 * source (not the directories named rank<id> when rank_dirs_named: the pytscope loader
 * read those rank dirs and names them). */
void trace_note_unlisted(struct run *run, const struct trace_pathvec *pv, bool rank_dirs_named);
/* The trace files of path (a file, or a directory; explicit: a file is taken without
 * sniffing its first bytes), appended to out; with o, as `tscope-tui index --shard`
 * sees a run dir. */
void trace_discover(const char *path, struct trace_pathvec *out, bool explicit, const struct opts *o);
/* The trace files of the --trace paths into out, a file named twice (the same device
 * and inode: another spelling, or in a directory named too) read once, as a repeated
 * PATH is; a directory that holds none (nor a rank dir that cannot be listed) is an
 * error naming it: --trace replaced the run's own traces with nothing. */
void trace_discover_explicit(struct run *run, const struct opts *o, struct trace_pathvec *out);
/* A diagnostic naming the trace files beside dir's pytscope trace.json that
 * trace_discover() does not read; read: what it returned for dir (nothing to say
 * unless that is dir's pytscope trace alone). */
void trace_note_unread(struct run *run, const char *dir, const struct trace_pathvec *read);
struct trace_rank *trace_parse_file(struct run *run, struct diag_list *diags, const char *path);
int trace_rank_cmp(const void *a, const void *b);

#endif
