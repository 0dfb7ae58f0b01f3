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
 *   store.c        the model's storage and lifetime (the subsystem's free)
 *   analysis*.c    lazy, memoized analyses (analysis_<topic>.c when split)
 *   views*.c       view tables for panes, --export and --print
 *   rules.c        finding rules
 *   grid.c         heatmap grid provider (model/grid.h), where the family has one
 * Numeric helpers every family shares (fsum, medians, the percentile) are model/stats.h. */
#ifndef MODEL_REGISTRY_H
#define MODEL_REGISTRY_H

#include "model/findings.h"
#include "model/opts.h"
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
};

struct view_def {
	const char *name;   /* --export NAME */
	const char *help;   /* one line for --list-views */
	/* Build the table for the run; NULL (with a reason in err) when the run has no
	 * data for this view. The caller frees the table. */
	struct table *(*build)(struct run *run, char *err, size_t errn);
};

struct subsystem {
	const char *name;
	const struct loader *loaders;
	size_t nloaders;
	const struct view_def *views;
	size_t nviews;
	const struct finding_rule *rules;
	size_t nrules;
	void (*free)(struct run *run);   /* free this subsystem's model in run; may be NULL */
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

#endif
