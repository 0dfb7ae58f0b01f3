/* SPDX-License-Identifier: MIT */
/* genai.h: internal to the GenAI-Perf loader (load_genai*.c): helpers for
 * exported text (numbers with thousands separators, "Title (unit)" names), the CSV
 * rows, and the per-file loaders that sweep_genai_load() dispatches to. */
#ifndef MODEL_SWEEP_GENAI_H
#define MODEL_SWEEP_GENAI_H

#include "model/sweep/sweep.h"

struct json_doc;
struct load_ctx;

/* A file's bytes in the load's total (model/byteplan.h) and those reported done so far:
 * the loader reports them as it goes (genai_progress_to), the rest when the file is done. */
struct genai_progress {
	struct load_ctx *ctx;
	long long bytes, reported;
};
/* The file's bytes up to offset off read (at most pg->bytes): reported done once they are
 * a MiB more than last time, or all of them. */
void genai_progress_to(struct genai_progress *pg, long long off);

struct genai_csv {
	char ***row;     /* row[i][j] */
	size_t *nf;      /* fields per row */
	long *line;
	size_t n, cap;
	bool partial;    /* no final newline: a truncated tail (warned by genai_read_csv) */
};

/* Exported number: "9,182.22", "550.00"; false for N/A, empty or non-finite. */
bool genai_number(const char *s, double *out);
/* A cell of a GenAI-Perf CSV at line of path as a value: true with *v for a finite,
 * non-negative number (no statistic, a time, rate, count or GPU reading, can be
 * negative); false for an empty or N/A cell (missing) and, after a warning naming field
 * (sweep_bad_value) counted in *bad, for anything else (abc, NaN, 1e400, -3.5). */
bool genai_cell_value(struct run *run, const char *path, long line, const char *field, const char *cell,
		      double *v, size_t *bad);
/* "Request Latency (ms)" -> title "Request Latency", unit "ms". */
void genai_split_title(const char *s, char *title, size_t tn, char *unit, size_t un);
/* Metric by its CSV title (case-insensitive; old "Num Output Token" is OSL). */
bool genai_metric_by_title(const char *title, enum sweep_metric *m);
/* "GPU Power Usage" -> "gpu_power_usage". */
void genai_snake(const char *title, char *out, size_t n);
/* "avg", "Avg.", "mean", "p99", ... */
bool genai_stat_by_name(const char *s, enum sweep_stat *st);
/* Factor from a file's time unit to metric m's (ms for the latencies): old exports write
 * ns, and a "unit" of s or us is read as what it says, not as ms. 1 for any other unit. */
double genai_unit_scale(enum sweep_metric m, const char *unit);
/* Read a CSV file as rows (registered as a source); -1 after a diagnostic. A file
 * without a final newline is warned about and marked partial (out->partial). */
int genai_read_csv(struct run *run, const char *path, struct genai_csv *out, size_t *src);
void genai_csv_free(struct genai_csv *r);
/* Field j of row i, "" when the row is shorter. */
const char *genai_cell(const struct genai_csv *r, size_t i, size_t j);
/* Set stimulus st from a JSON number (or numeric string) unless already set. */
void genai_set_stim(struct sweep_cfg *c, enum sweep_stim st, const struct json_doc *d, int tok);

/* A value from *_genai_perf.csv is rounded to 2 decimals: it may differ from the exact one
 * by this much (formats.md §3.8; sweep.h). */
#define GENAI_CSV_ROUNDING SWEEP_CSV_ROUNDING

/* *_genai_perf.csv or *_aiperf.csv into s->cfg[ci] (load_genai_csv.c): its values fill
 * what the JSON did not give; where both have one they are cross-checked. */
void genai_load_csv(struct run *run, struct sweep_set *s, size_t ci, const char *path);
/* The raw export at path (load_genai_raw.c), opened into d as source src by
 * sweep_json_open (released here): recompute into s->cfg[ci] (more experiments in one
 * file add configs of ci's path, each numbered in experiment for the loader to name by its
 * level; ci keeps the one at its own recorded level, else the first). The bytes up to each
 * request are reported to pg as it goes; a cancelled load (load_cancelled) stops it. */
void genai_load_raw(struct run *run, struct sweep_set *s, size_t ci, const char *path, struct json_doc *d,
		    size_t src, struct genai_progress *pg);
/* analyze_export_genai_perf.csv and checkpoint.json (load_genai_runs.c). */
void genai_load_analyze(struct run *run, struct sweep_set *s, const char *path);
void genai_load_checkpoint(struct run *run, struct sweep_set *s, const char *path);

#endif
