/* SPDX-License-Identifier: MIT */
/* sweep.h: the inference sweep and sizing model (run->sweep), owned by the sweep
 * subsystem (model/sweep/subsystem.c). Three input families land here:
 *   GenAI-Perf   one sweep_cfg per run config (artifact dir, analyze CSV row or
 *                checkpoint run_config), grouped into series that vary one stimulus
 *   NAT          calc_runner_output.json: sizing points, stored and recomputed fits
 *   Cerebras     performance.json: per-ordinal rates, stored and recomputed aggregate
 * Loaders (load_genai.c, load_nat.c, load_cerebras.c) fill the model (store.c);
 * analysis.c derives series, stimulus, fits and ranking; views.c and rules.c read
 * it. After run_open() the model only changes through sweep_set_objective() /
 * sweep_add_constraint() (UI thread). */
#ifndef MODEL_SWEEP_H
#define MODEL_SWEEP_H

#include "model/base.h"
#include "model/byteplan.h"
#include "model/registry.h"
#include "model/sweep/fit.h"

struct run;
struct opts;
struct load_ctx;

/* GenAI-Perf metrics, in the CSV's row order, then the whole-run system metrics. */
enum sweep_metric {
	SM_TTFT, SM_TTST, SM_LATENCY, SM_ITL, SM_TPS_USER, SM_OSL, SM_ISL,
	SM_RPS, SM_TPS, SM_GOODPUT, SM_COUNT,
	SM_N
};
enum sweep_stat {
	SS_AVG, SS_MIN, SS_MAX, SS_STD, SS_P1, SS_P5, SS_P10, SS_P25, SS_P50, SS_P75,
	SS_P90, SS_P95, SS_P99,
	SS_N
};
/* Swept stimulus candidates, in detection priority order. */
enum sweep_stim {
	ST_CONCURRENCY, ST_REQUEST_RATE, ST_INPUT_LENGTH, ST_BATCH_SIZE, ST_DATASET_ENTRIES,
	ST_N
};

struct sweep_stats {
	double v[SM_N][SS_N];
	bool has[SM_N][SS_N];
};

/* Metric facts: snake name (JSON key, checkpoint tag base), short alias, CSV title
 * without unit, unit, and whether lower is better (latencies) for objectives. */
struct sweep_metric_info {
	const char *name, *alias, *title, *unit;
	bool lower_better;
	bool system;   /* whole-run value: only avg */
};
const struct sweep_metric_info *sweep_metric_info(enum sweep_metric m);
/* The unit suffix of m's table columns by the naming rule (a column takes its unit from
 * its name): "_ms" for the latencies, "" for rates and counts (views.c). */
const char *sweep_metric_suffix(enum sweep_metric m);
const char *sweep_stat_name(enum sweep_stat s);   /* "avg" "min" ... "p99" */
const char *sweep_stim_name(enum sweep_stim s);   /* "concurrency" "request_rate" ... */
/* Parse "ttft_p99", "time_to_first_token_p99", "request_throughput" (system metrics
 * default to avg), "latency_avg". Returns false when unknown. */
bool sweep_metric_parse(const char *s, size_t n, enum sweep_metric *m, enum sweep_stat *st);

/* What a config measures, as the export records it (input_config; formats.md §3.5):
 * configs that differ in one of these are other workloads, never one series. */
enum sweep_wl { WL_MODEL, WL_URL, WL_SERVICE_KIND, WL_BACKEND, WL_ENDPOINT_TYPE, WL_N };
/* "model" "url" "service_kind" "backend" "endpoint_type" */
const char *sweep_wl_name(enum sweep_wl k);

struct sweep_cfg {
	char *name;          /* display name: dir relative to the loaded root, or config name */
	char *series;        /* series key: name with the stimulus value replaced by '*' */
	char *path;          /* directory or file it came from */
	const char *source;  /* "artifacts", "analyze", "checkpoint" (static) */
	size_t experiment;   /* one of several experiments of a raw export: its place (1-based), named
			      * "<file's config>#concurrency10" by its level; 0 otherwise */
	double stim[ST_N];
	bool has_stim[ST_N];
	bool streaming, has_streaming;
	char *wl[WL_N];      /* workload keys (sanitized; model_names joined by ","), NULL unrecorded */
	struct sweep_stats stored;  /* from *_genai_perf.json (full precision), else CSV */
	bool has_stored;
	bool stored_csv[SM_N][SS_N]; /* that stored value came from a CSV (2 decimals: *_genai_perf.csv,
				      * the analyze CSV) */
	struct sweep_stats calc;    /* recomputed from the raw profile export */
	bool has_calc;
	bool differs[SM_N];         /* a recomputed value of that metric disagrees with the stored one
				     * (warned, load_genai_raw.c): its recomputed values are used */
	/* derived by sweep_rank() */
	double score;               /* mean weighted gain vs the others, in percent */
	bool has_score;
	int rank;                   /* 1 = best; 0 when unranked */
	bool pass;                  /* every constraint holds (true with none) */
	char *failed;               /* "ttft_p99<10 (12.3)" list, NULL when passing */
};

/* One GPU telemetry row: metric x gpu for one config. */
struct sweep_gpu {
	size_t cfg;
	char *metric;        /* snake name, e.g. gpu_power_usage */
	char *unit;
	char *gpu;           /* "gpu0" */
	double v[SS_N];
	bool has[SS_N];
};

struct sweep_series {
	char *name;
	char *fixed;         /* other swept stimuli held fixed: "input_length=100", or NULL */
	char *workload;      /* the workload keys that split it from configs of the same name:
			      * "model=llama-70b url=http://h:8000" (n/a: not recorded), or NULL */
	size_t *cfg;         /* config indexes sorted by stimulus value */
	size_t n;
	int stim;            /* enum sweep_stim, -1 when none detected */
	/* Sizing on a concurrency sweep: p95 request latency (s) vs concurrency. */
	struct sweep_fit fit;
	bool has_fit;
	struct sweep_estimate est;
	long knee;           /* index into cfg[] of the throughput knee, -1 none */
	long knee_next;      /* index into cfg[] of the level the knee was compared with: the
			      * next one with a throughput and a latency, -1 with no knee */
	int knee_stat;       /* enum sweep_stat of the request latency the knee's step compared:
			      * the first of p50, avg, p99 both levels have; SS_N with no knee */
	size_t knee_open;    /* steps between two levels weighed that the knee test could not
			      * compare (no latency statistic at both, or a CSV's 2 decimals that
			      * could decide them: sweep_knee_unweighed names them) */
	size_t knee_points;  /* configs the knee test can weigh (fit_knee_points) */
	bool knee_rising;    /* the last of them has more throughput than the one before */
	long knee_last;      /* index into cfg[] of the last of them, -1 none */
	long twice;          /* index into cfg[] of the first config at the stimulus level of the
			      * one before it (results of other runs, or a level measured twice:
			      * warned, naming the files), -1 none; then neither the knee nor the
			      * fit is judged (knee -1, has_fit false) */
};

/* NAT calc_runner_output.json */
struct nat_point {
	double conc;
	double lat_p95, rt_p95, total_rt;
	bool has_lat, has_rt, has_total;
	bool zero_lat, zero_rt;              /* a p95 of 0, the calculator's "not measured": read as
					      * missing (has_* false), with a note (formats.md §4.3) */
	bool bad_lat, bad_rt;                /* a p95 there but unusable (warned): missing */
	bool interrupted;
	bool valid;                          /* used for the fits */
	/* stored */
	bool has_s_alerts;                   /* calc_data[c].alerts present */
	double s_gpu_lat, s_gpu_rt;
	bool has_s_gpu_lat, has_s_gpu_rt;
	bool s_out_lat, s_out_rt;
	long s_items_lat, s_items_rt;        /* -1 missing */
	/* recomputed */
	double c_gpu_lat, c_gpu_rt;
	bool has_c_gpu_lat, has_c_gpu_rt;
	bool c_out_lat, c_out_rt;
	long c_items_lat, c_items_rt;        /* -1 when no target or no per_item_metrics */
	double *item_lat, *item_rt;          /* per_item_metrics, NaN when missing */
	size_t nitems;
	bool has_items;                      /* per_item_metrics present (else nitems is n/a) */
	long job;                            /* in a merge: the s->nat index it came from */
};

/* One calc_runner_output.json, or (merged = true) the calculator's offline merge of
 * every job under one calc output directory (root): files newest first (mtime, then
 * path), the first sizing_metrics seen per concurrency wins (formats.md §4.1). A
 * merge is derived by nat_merge(); its jobs keep their own fits (merge_into). */
struct nat_calc {
	char *path;                          /* the file; for a merge, the root directory */
	const char *mode;                    /* "online", "offline", "merged" or "" */
	char *root;                          /* dir holding online/ and offline/, or NULL */
	long long mtime_ns;
	bool merged;
	size_t *jobs, njobs;                 /* merged: s->nat indexes merged, newest first */
	long merge_into;                     /* job of a merge: that merge's index, else -1 */
	struct nat_point *pt;
	size_t npt;
	bool alias_layout;                   /* per_concurrency_data alias */
	struct sweep_fit s_fit_lat, s_fit_rt;  /* stored (ok=false when null/missing) */
	bool has_s_fit_lat, has_s_fit_rt;
	double s_gpu_lat, s_gpu_rt;
	bool has_s_gpu_lat, has_s_gpu_rt;
	struct sweep_fit c_fit_lat, c_fit_rt;  /* recomputed */
	struct sweep_estimate c_est_lat, c_est_rt;
};

/* Cerebras performance.json */
struct cb_ordinal {
	double samples_per_sec, total_time;
	long long total_samples;
	bool has_rate, has_time, has_samples;
	bool zero_time, zero_rate;           /* total_time 0, samples_per_sec 0 beside it: read as
					      * missing (has_* false), the Model Zoo's "unknown" */
	const char *bad_rate, *bad_time, *bad_samples; /* there but unusable, why in the loaders' one
					      * wording ("not a finite number", "negative", "not an
					      * integer", "too large for a count"; warned), else NULL */
	bool not_object;                     /* the ordinal is no JSON object (warned): nothing read */
	/* derived by cb_recompute: rate (samples_per_sec, else samples / time) over the
	 * median rate of the other ordinals; slow below CB_SLOW_RATIO */
	double rel_rate;
	bool has_rel, slow;
};

/* An ordinal whose rate is below this fraction of the median of its siblings' rates is
 * slow (CEREBRAS.SLOW_ORDINAL; high below CB_SLOW_HIGH): the merge rule takes the first
 * non-zero ordinal's total_time, so the aggregate rate hides it when the longest ordinal
 * time is longer (rules.c says which). */
#define CB_SLOW_RATIO 0.8
#define CB_SLOW_HIGH 0.5
/* An ordinal's rate relative to its siblings' (rel_rate) as a percent with no decimals,
 * unless they would put it on the other side of a bar above (numfmt_same_side): "79.996",
 * never "80" for an ordinal judged slow. */
void sweep_cb_rel_text(double rel_rate, char *buf, size_t n);
/* v with dec decimals by the display rule (README "Numbers"): 3 significant digits where
 * those decimals would show a nonzero v as zero, the exponent form from 1e15 on, so no
 * figure is hundreds of digits long (a compile_time of 1e300). Returns buf (n >= 32). */
char *sweep_num_text(double v, int dec, char *buf, size_t n);

struct cb_perf {
	char *path;
	bool trainer_shape;                  /* R2.x: global_rate / rate keys */
	double samples_per_sec, total_time, compile_time, programming_time, est_sps;
	double global_rate, rate, flops_util;
	long long total_samples;
	bool has_sps, has_time, has_compile, has_prog, has_est, has_global, has_rate,
	     has_flops, has_samples;
	bool zero_time, zero_rate;           /* total_time 0, a rate 0 beside it: missing, as
					      * cb_ordinal's; est_samples_per_sec 0 is missing too */
	const char *bad_sps, *bad_global;    /* samples_per_sec, global_rate there but unusable:
					      * why (sweep_bad_text), else NULL */
	struct cb_ordinal *ord;
	size_t nord;
	/* recomputed aggregate (merge rule), only with ordinals that all have total_samples
	 * and a total_time up to the first non-zero one; else has_c is false and c_why says
	 * why ("ordinal 1 has no total_samples") */
	double c_sps, c_time, c_samples;
	bool has_c;
	char c_why[128];
	double c_wall_time;                  /* longest ordinal total_time (0 when none) */
	long slowest;                        /* the slowest slow ordinal, -1 none */
	bool mismatch;                       /* stored aggregate disagrees (false when there
					      * is none: cb_has_aggregate) */
};

/* A directory a loader could not list (sweep_dir_unreadable, io.h), or a level or job
 * file that gave nothing (sweep_file_unread): whatever configs or sizing jobs it holds
 * are missing from the verdicts. */
struct sweep_unread {
	char *path;
	char *why;                           /* "cannot open: Permission denied", "truncated JSON" */
	bool nat;                            /* met by the NAT loader, else GenAI-Perf's */
	bool file;                           /* a file read in vain, else a directory not listed */
};

/* The metric an objective or constraint names: a request metric (tele == NULL), or a
 * GPU telemetry metric (tele = its snake name, e.g. "gpu_power_usage"), whose value
 * for a config is the mean of stat st over that config's GPUs. Telemetry is
 * lower-is-better except names containing utilization, free or clock. */
struct sweep_mref {
	enum sweep_metric m;
	enum sweep_stat st;
	char *tele;
};
struct sweep_objective {
	struct sweep_mref ref;
	double w;
	char *text;          /* canonical "ttft_p99:1" */
};
enum sweep_op { SOP_LT, SOP_LE, SOP_GT, SOP_GE };
struct sweep_constraint {
	struct sweep_mref ref;
	enum sweep_op op;
	double value;
	char *text;          /* canonical "ttft_p99<10" */
};

struct sweep_set {
	struct sweep_cfg *cfg;
	size_t ncfg, cfgcap;
	struct sweep_gpu *gpu;
	size_t ngpu, gpucap;
	struct sweep_series *series;
	size_t nseries;
	struct nat_calc *nat;
	size_t nnat;
	struct cb_perf *cb;
	size_t ncb;
	struct sweep_objective *obj;
	size_t nobj;
	struct sweep_constraint *con;
	size_t ncon;
	char *wl_mixed;              /* workload keys with two recorded values among the configs:
				      * "model, url" (they measure other workloads), or NULL */
	bool wl_split[WL_N];         /* those keys (sweep_same_workload compares only them) */
	bool derived;
	bool refs_resolved;          /* telemetry names checked (sweep_rank_resolve) */
	char *ref_errors;            /* dropped --objective/--constraint terms, one a line */
	char *con_unjudged;          /* dropped --constraint terms ("a_p99<1, b<2"): not judged,
				      * no config has their metric; NULL when none */
	struct sweep_unread *unread; /* directories under a loaded path that could not be listed, and
				      * level or job files that gave nothing (sweep_file_unread) */
	size_t nunread;
	struct byteplan genai_plan;  /* the GenAI-Perf loader's bytes over the run's PATHs */
	/* sizing targets (from opts) */
	double target_users, target_latency, target_runtime;
	long test_gpus;
};

/* The run's sweep model, created on first use (loaders call it); creation reads
 * --objective, --constraint and the sizing targets from run->opts. */
struct sweep_set *sweep_get(struct run *run);
/* Append a config; returns it zeroed except name/path/source (copied). */
struct sweep_cfg *sweep_add_cfg(struct sweep_set *s, const char *name, const char *path,
				const char *source);
struct sweep_gpu *sweep_add_gpu(struct sweep_set *s, size_t cfg, const char *metric,
				const char *unit, const char *gpu);
/* The knee test (analysis_knee.c) compares two neighbouring levels on one request latency
 * statistic both have, the first of p50, avg and p99 (ms), never one's p50 with the other's
 * average; a step with none in common, or whose verdict the 2-decimal rounding of a value
 * read from a CSV could decide, is not compared (sweep_series.knee_open).
 * Series se with a knee (derived): true when a level before the knee lacks a stimulus, a
 * request throughput or a request latency (> 0), which the knee test could not weigh, or a
 * step up to the knee was not compared, so an earlier knee may hide there: the knee is at
 * or before the level found, as the headline, the report and SWEEP.SATURATION say. *below
 * (may be NULL) gets the index into cfg[] of the highest level known to be at or below the
 * knee: the last level weighed before the first such level, or the first level of the
 * first step not compared; -1 when there is none or the knee is not "at or before". */
bool sweep_knee_or_before(const struct sweep_set *s, const struct sweep_series *se, long *below);
/* The levels of series se before index upto of cfg[] (se->n: all) the knee test could not
 * weigh and what they lack, then the steps from a level before upto it could not compare and
 * why, into buf: "concurrency 2, 8 not judged (no request latency); concurrency 16 to 32 not
 * compared (request throughput 0.05 -> 0.05 req/s has 2 decimals in the CSV: its rounding
 * could decide the knee)"; "" when there are none or no level of se was weighed. */
void sweep_knee_unweighed(const struct sweep_set *s, const struct sweep_series *se, size_t upto, char *buf,
			  size_t n);
/* Whether the knee test of series se (derived) compared its level lo with its level hi
 * (lo < hi, of se's stimulus): both weighed, no level between them that has a request
 * throughput or a request latency but not both (the test compares nothing across it; one
 * with neither is passed over), and every step from lo to hi compared. Else false, why into
 * why: "no concurrency 16", "concurrency 16 has no request latency", "concurrency 8 to 16 not
 * compared (...)". */
bool sweep_knee_compared(const struct sweep_set *s, const struct sweep_series *se, double lo, double hi, char *why,
			 size_t n);
/* The series a finding of s's rules (rules.c) is about: SWEEP.SATURATION's (the series of
 * its knee), SIZING.POOR_FIT's and SIZING.OUTLIERS' on a series' latency fit (not on a NAT
 * file's); NULL for another finding. */
const struct sweep_series *sweep_finding_series(const struct sweep_set *s, const struct finding *f);
/* Confidence of a percentile from few requests. A config with n requests has
 * n x min(Q, 100 - Q) / 100 of them beyond its pQ (the tail that backs it); below
 * SWEEP_LOWCONF_TAIL requests the pQ rests on one or two extreme requests and is low
 * confidence: p99 needs 500 requests, p95 100, p90 50, p50 10. sweep_tail() is false
 * when st is not a percentile, the config's request count is unknown, or it is 0 (no
 * successful request: no percentile, missing, never a tail of 0); sweep_low_confidence()
 * is false then too (not judged). */
#define SWEEP_LOWCONF_TAIL 5
bool sweep_tail(const struct sweep_cfg *c, enum sweep_stat st, double *tail);
bool sweep_low_confidence(const struct sweep_cfg *c, enum sweep_stat st);
/* st is a percentile whose confidence cannot be judged: the config's request count is
 * unknown (older GenAI-Perf exports); the report, the pane and the view say n/a. False for
 * a count of 0 (no percentile to judge). */
bool sweep_confidence_unjudged(const struct sweep_cfg *c, enum sweep_stat st);
/* The value a view / objective uses: stored, else recomputed; recomputed, else stored, for a
 * metric whose recomputation from the raw export disagrees with the stored value (differs:
 * the requests in front of us win, the stored value is in the warning). False for every
 * metric but the request count when that count is 0 (nothing was measured). */
bool sweep_value(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, double *out);
/* dec, or 2 when fewer and the value sweep_value gives was read from a CSV, which rounds to 2
 * decimals (stored_csv): a report never shows the CSV's 0.06 as "0.060". */
int sweep_value_decimals(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st, int dec);
/* The half-width of the rounding of the value sweep_value gives: SWEEP_CSV_ROUNDING when it
 * was read from a CSV's 2 decimals (stored_csv; in the CSV's unit, which GenAI-Perf writes in
 * ms and req/s), else 0 (full precision). */
#define SWEEP_CSV_ROUNDING 0.005
double sweep_value_rounding(const struct sweep_cfg *c, enum sweep_metric m, enum sweep_stat st);

/* The distinct recorded values of workload key k over the configs, sorted, joined by
 * " / " ("auto / llama-70b"); NULL when no config records it. The caller frees. */
char *sweep_wl_values(const struct sweep_set *s, enum sweep_wl k);

/* Configs a and b of s measure the same workload: alike in every key of s->wl_split (two
 * unrecorded values are alike). A key no config records twice differently is unknown where
 * unrecorded: it neither splits series nor separates rankings (the series' rule). */
bool sweep_same_workload(const struct sweep_set *s, const struct sweep_cfg *a, const struct sweep_cfg *b);
/* The best config, the one every report names: NULL when the configs measure different
 * workloads (s->wl_mixed); under --objective the config ranked 1 (it may fail the
 * constraints), else the passing config with the highest request throughput; NULL when
 * none (the first in load order of those tied: sweep_best_ties). *by_objective (may be
 * NULL) tells which rule chose. */
const struct sweep_cfg *sweep_best(const struct sweep_set *s, bool *by_objective);
/* Without --objective, the other passing configs whose request throughput ties with best's
 * (equal within 1e-9 relative, or, read from a CSV, within its rounding: sweep_value_rounding):
 * how many, the first max into tie[]; *rounding: a tie rests on a CSV's rounding (either may
 * be higher). 0 under --objective or without a best. */
size_t sweep_best_ties(const struct sweep_set *s, const struct sweep_cfg *best, const struct sweep_cfg **tie,
		       size_t max, bool *rounding);

/* Derive series, stimulus, fits, knees and ranking (idempotent; loaders invalidate
 * by setting derived=false). Uses the run's opts for objectives, constraints, targets. */
void sweep_derive(struct run *run);
/* The run's sweep model, derived; NULL when the run has none. */
struct sweep_set *sweep_derived(struct run *run);
/* Free the run's sweep model (the subsystem's free). */
void sweep_free(struct run *run);
/* Drop the derived series (store.c; sweep_derive rebuilds them). */
void sweep_series_clear(struct sweep_set *s);

/* Objectives "ttft_p99:1,itl_p90:3" (weight defaults to 1); replaces the current set
 * and re-ranks. NULL/"" clears. Returns 0, or -1 with a message in err. */
int sweep_set_objective(struct run *run, const char *spec, char *err, size_t errn);
/* Add a constraint "ttft_p99<10" (ops < <= > >=); re-evaluates every config. Refused
 * (-1, err) for telemetry the run lacks and for a metric no config has (not judged). */
int sweep_add_constraint(struct run *run, const char *spec, char *err, size_t errn);
void sweep_clear_constraints(struct run *run);
/* After loading: the --objective/--constraint terms dropped because the run has no such
 * metric (one message a line, for stderr), or NULL. Derives the model. */
const char *sweep_ref_errors(struct run *run);
/* Why s->con_unjudged was not judged: "no config has that metric" (one term) or "...
 * those metrics". */
const char *sweep_con_unjudged_why(const struct sweep_set *s);
/* The model commands ':objective SPEC' and ':constraint EXPR|clear' (subsystem.c):
 * 0 with a summary in msg, or -1 with the error in msg. An empty objective clears; an
 * empty constraint is refused with the usage (only 'clear' clears). */
int sweep_cmd_objective(struct run *run, const char *args, char *msg, size_t n);
int sweep_cmd_constraint(struct run *run, const char *args, char *msg, size_t n);

/* Rebuild the merged entries of s->nat (dropping the previous ones): one per root
 * with two or more jobs (called by sweep_derive before nat_recompute). */
void nat_merge(struct sweep_set *s);
void nat_calc_free(struct nat_calc *n);
/* Recompute NAT fits and estimates for the targets (called by sweep_derive). */
void nat_recompute(struct nat_calc *n, const struct sweep_set *s);
/* What a slope-based GPU estimate for a p95 target still needs, as the options to give
 * ("--target-users, --test-gpus and --target-runtime"): the targets of s not set, and
 * target_opt when target is not; "" when every one is set. */
void sweep_sizing_needs(const struct sweep_set *s, const char *target_opt, double target, char *buf, size_t n);
/* The calculator's Alerts column: "" or "!" + W (interrupted), L / R (latency /
 * runtime outlier, stored or recomputed flags), into out[8]. */
void nat_point_alerts(const struct nat_point *p, bool stored, char out[8]);
/* Why p has no p95 LLM latency (lat) or workflow runtime to fit, NULL when it has one: "p95 LLM
 * latency 0 (not measured)", "unusable p95 workflow runtime" (warned), "no p95 LLM latency"; with
 * out_of_fits, ending ", out of the fits" (said of a point shown by its other p95). Static text. */
const char *nat_p95_why(const struct nat_point *p, bool lat, bool out_of_fits);
/* Recompute the Cerebras merge-rule aggregate and mismatch flags. */
void cb_recompute(struct cb_perf *p);
/* The file stores an aggregate to check (samples_per_sec, total_samples or total_time):
 * without one, mismatch is not judged (false, and no "no"). */
bool cb_has_aggregate(const struct cb_perf *p);
/* Why ordinal i has no rate against its siblings (has_rel false), as "it has
 * samples_per_sec 0 and total_time 0", "it has an unusable samples_per_sec (not a finite
 * number) and no total_samples", "it is not an object" or "no other ordinal has a rate"
 * (n: 160 holds any of them). */
void cb_unrated_why(const struct cb_perf *p, size_t i, char *buf, size_t n);

/* The files each loader's load of directory dir reads, by its own discovery (identity.c:
 * a PATH given beside its directory is not read twice). The caller frees each and the
 * array. */
void sweep_genai_dir_files(const char *dir, char ***files, size_t *n);
void sweep_nat_dir_files(const char *dir, char ***files, size_t *n);
void sweep_cb_dir_files(const char *dir, char ***files, size_t *n);

#endif
