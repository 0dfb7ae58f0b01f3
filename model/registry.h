/* SPDX-License-Identifier: MIT */
/* registry.h: loaders, views and finding rules are registered, not hard-wired. Each
 * input family is one `struct subsystem` defined in its own module; registry.c lists
 * them. Adding a format = one subsystem + one line in registry.c. */
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

extern const struct subsystem sub_steps;   /* model/steps/load.c */
extern const struct subsystem sub_trace;   /* model/trace/subsystem.c */
extern const struct subsystem sub_sweep;   /* model/sweep/sweep.c */
extern const struct subsystem sub_dasf;    /* model/dasf/subsystem.c */
extern const struct subsystem sub_core;    /* model/views_core.c: sources, findings */

extern const struct subsystem *const registry[];
extern const size_t registry_count;

/* View by name (NULL when unknown); all views in registry order. */
const struct view_def *registry_view(const char *name);
/* True when the run has the data of vd's subsystem (a steps view needs step records, a
 * trace view traces, ...); the view may still find nothing to show. */
bool registry_view_available(const struct run *run, const struct view_def *vd);
/* Loader by its --format name (NULL when unknown). */
const struct loader *registry_loader(const char *name);
/* The --format names, separated by ", ", into buf (truncated to n). */
void registry_loader_names(char *buf, size_t n);

#endif
