/* SPDX-License-Identifier: MIT */
/* registry.h: loaders, views and finding rules are registered, not hard-wired. Each
 * input family is one `struct subsystem` defined in its own folder; registry.c lists
 * them. Adding a format = one folder + one line in registry.c.
 *
 * FOLDER ROLES. Every family folder (model/steps, model/trace, model/sweep,
 * model/dasf) names its files by role, so knowing one family is knowing them all:
 *   <family>.h     the family's model: what other layers may read
 *   internal.h     private to the folder (loader entry points, view/rule tables, ...)
 *   subsystem.c    the struct subsystem: registration, and nothing else
 *   load*.c        loaders: probe, decode, diagnostics (load_<format>.c when several)
 *   store*.c       the model's storage and lifetime (store_<topic>.c when split)
 *   analysis*.c    lazy, memoized analyses (analysis_<topic>.c when split)
 *   views*.c       view tables for panes, --export and --print
 *   rules.c        finding rules
 *   grid.c         heatmap grid provider (model/grid.h), where the family has one
 * Numeric helpers every family shares (fsum, medians, the percentile) are model/stats.h. */
#ifndef MODEL_REGISTRY_H
#define MODEL_REGISTRY_H

#include "model/findings.h"
#include "model/grid.h"
#include "model/opts.h"
#include "model/summary.h"
#include "model/table.h"

struct run;
struct load_ctx;

struct loader {
	const char *name;   /* --format name: "pytscope", "kineto", "genai-perf", ... */
	const char *help;   /* one line for --help / man page */
	/* Confidence 0..100 that `path` (a file or directory) holds this format. Cheap:
	 * stat and a few hundred bytes at most. */
	int (*probe)(const char *path, const struct opts *opts);
	/* Load what this format finds under path into ctx->run. Returns 0 when something
	 * was loaded, -1 otherwise; problems become diagnostics. Never exits or prints. */
	int (*load)(struct load_ctx *ctx, const char *path);
	/* What it loads goes into the persistent index (model/index/index.h): `tscope-tui
	 * index` (opts index_build or shard_n) runs only these loaders and their probes. */
	bool indexed;
};

struct view_def {
	const char *name;   /* --export NAME */
	const char *help;   /* one line for --list-views */
	/* Build the table for the run; NULL (with a reason in err) when the run has no
	 * data for this view. The caller frees the table. */
	struct table *(*build)(struct run *run, char *err, size_t errn);
	/* Optional: what Enter on row `row` of a table this view built opens (findings.h);
	 * false when nothing. NULL: a row with a COL_ROLE_RANK cell opens that rank's
	 * steps (EV_STEPS). The caller frees out with evidence_free(). */
	bool (*row_evidence)(struct run *run, const struct table *t, size_t row, struct evidence *out);
	/* Optional, for a view too big to hold whole (steps: a row per record): the same
	 * table in parts, each with every column, their rows in the whole table's order.
	 * *cursor starts at 0 and is advanced; NULL after the last part (err ""), or NULL
	 * with a reason in err as build gives. `--export` without --sort writes the view
	 * part by part (src/export.c). */
	struct table *(*build_next)(struct run *run, size_t *cursor, char *err, size_t errn);
};

/* A model command, typed as ":name args" in the explorer (ui/cmd.c lists them in
 * :help after its own). It changes model settings, never draws: 0 with a summary in
 * msg (the UI then rebuilds every pane), -1 with the error in msg. */
struct model_cmd {
	const char *name;   /* "objective" */
	const char *args;   /* synopsis for :help, "" when none */
	const char *help;
	int (*run)(struct run *run, const char *args, char *msg, size_t msgn);
};

/* A default tab of the explorer: the pane kind (the UI maps it to its pane), its
 * argument and label, and the number key that selects it. Tabs of every subsystem
 * are shown in key order; show() == NULL means always. */
enum tab_pane { TAB_OVERVIEW, TAB_HEATMAP, TAB_TABLE, TAB_STEPS, TAB_BUDGET, TAB_SWEEP, TAB_COMPARE };

struct tab_def {
	int key;                 /* 1..9, unique over the registry */
	const char *label;       /* "Ranks" */
	enum tab_pane pane;
	const char *arg;         /* TAB_TABLE: view name; TAB_HEATMAP: grid (NULL: first with data) */
	bool (*show)(const struct run *run);
	const char *view;        /* the view `e` exports from a pane that is not a table, or NULL */
	/* TAB_HEATMAP: the grid a mode hands out over its own model (compare mode's pair,
	 * model/compare/views.h), NULL: the run's grid named arg (registry_grid) */
	const struct grid_provider *grid;
};

/* One input family. Everything but name may be empty/NULL. Call order: every loader
 * whose probe() claims a path loads it (worker threads allowed); then, once, finalize()
 * of every subsystem in registry order; the run is then read by views, rules, grids,
 * summaries and commands from one thread; free() at run_free(). */
struct subsystem {
	const char *name;
	const struct loader *loaders;
	size_t nloaders;
	const struct view_def *views;
	size_t nviews;
	const struct finding_rule *rules;
	size_t nrules;
	const struct rule_slicer *slicers;         /* rules that come in slices (findings.h) */
	size_t nslicers;
	const struct grid_provider *const *grids;  /* heatmap grids (model/grid.h) */
	size_t ngrids;
	const struct model_cmd *cmds;
	size_t ncmds;
	const struct tab_def *tabs;
	size_t ntabs;
	/* After every loader ran: build indexes, align, derive (may be NULL). */
	void (*finalize)(struct run *run);
	/* This family found data in the run (run_is_empty() is false when any did). */
	bool (*has_data)(const struct run *run);
	/* Optional: the run has the data this family's view vd builds from, as its build tests
	 * (NULL: every view of the family has data when has_data says so). */
	bool (*view_has_data)(struct run *run, const struct view_def *vd);
	/* This family has records its rules judge (NULL: has_data). A step model read from
	 * run.json files alone has data (the Overview shows them) and nothing to judge. */
	bool (*has_records)(const struct run *run);
	/* Append this family's headline lines (nothing when it has no data). The Overview
	 * pane and the --print headline both show exactly these lines, in registry order.
	 * Must be cheap enough for a frame after the first call (memoize analyses). */
	void (*summary)(struct run *run, struct summary *out);
	/* What this family's rules could not judge on this run and why, each item added
	 * with findings_unjudged_add() (findings.h) with the finding ids it stands for; may be
	 * NULL. Called when the run has no finding, from a frame, and by a comparison:
	 * memoized analyses only. */
	void (*unjudged)(struct run *run, struct not_judged *out);
	void (*free)(struct run *run);   /* free this family's model in run */
};

extern const struct subsystem sub_steps;   /* model/steps/subsystem.c */
extern const struct subsystem sub_trace;   /* model/trace/subsystem.c */
extern const struct subsystem sub_sweep;   /* model/sweep/subsystem.c */
extern const struct subsystem sub_dasf;    /* model/dasf/subsystem.c */
extern const struct subsystem sub_core;    /* model/views_core.c: sources, findings */

extern const struct subsystem *const registry[];
extern const size_t registry_count;

/* View by name (NULL when unknown); all views in registry order. */
const struct view_def *registry_view(const char *name);
/* True when the run has the data of vd's subsystem (a steps view needs step records, a
 * trace view traces, ...) and, for a family with view_has_data, the data vd builds from
 * (a sweep run may have no NAT file for `sizing_points`); the view may still find nothing
 * to show. */
bool registry_view_available(struct run *run, const struct view_def *vd);
/* ld->probe(path, opts), asked once per loader and path inside a dirlist scope
 * (model/dirlist.h): identification and the load share the answer. With --trace
 * (opts->ntrace > 0) it is asked every time: the answer depends on the option. */
int registry_probe(const struct loader *ld, const char *path, const struct opts *opts);
/* The rule that gives finding id, its subsystem into *sub when sub is not NULL: the rule
 * of that id, else the first of its category (a rule may add a finding of another id of
 * its category: EFFICIENCY.LOW_MFU adds EFFICIENCY.RECOVERABLE); NULL when none (the LIVE
 * events of --follow come from no rule). */
const struct finding_rule *registry_rule(const char *id, const struct subsystem **sub);
/* Loader by its --format name (NULL when unknown). */
const struct loader *registry_loader(const char *name);
/* The --format names, separated by ", ", into buf (truncated to n). */
void registry_loader_names(char *buf, size_t n);
/* The evidence behind row `row` of table t (built by the view named t->name, or any
 * table with a rank column); false when the row opens nothing. Free with
 * evidence_free(). */
bool registry_row_evidence(struct run *run, const struct table *t, size_t row, struct evidence *out);
/* Heatmap grid by name (NULL name: the first), NULL when unknown; and by index over
 * every subsystem's grids in registry order (i < registry_ngrids()). */
const struct grid_provider *registry_grid(const char *name);
size_t registry_ngrids(void);
const struct grid_provider *registry_grid_at(size_t i);
/* Model command by name (first n bytes), NULL when unknown; and by index. */
const struct model_cmd *registry_cmd(const char *name, size_t n);
size_t registry_ncmds(void);
const struct model_cmd *registry_cmd_at(size_t i);
/* The view `e` exports from the default tab of this pane kind (tab_def.view), or NULL. */
const char *registry_tab_view(enum tab_pane pane);
/* The tabs shown for this run, in number-key order; returns how many (<= cap). */
size_t registry_tabs(const struct run *run, const struct tab_def **out, size_t cap);
/* The slot in run->family that holds sub's model (NULL until the family sets it): a
 * family's loader stores its model there, its free() clears it. */
void **registry_slot(struct run *run, const struct subsystem *sub);
/* True when some subsystem has data. */
bool registry_has_data(const struct run *run);
/* True when some family has records for its rules (has_records, else has_data): when
 * false, an empty findings list is no verdict (findings_unjudged()). */
bool registry_has_records(const struct run *run);
/* Every subsystem's summary lines, in registry order. */
void registry_summary(struct run *run, struct summary *out);

#endif
