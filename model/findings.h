/* SPDX-License-Identifier: MIT */
/* findings.h: the findings engine. A rule looks at analyzer results (never at files)
 * and appends findings; every finding carries machine-readable evidence so the UI can
 * drill down by lookup instead of re-analysing.
 *
 * Rules come from every subsystem (struct subsystem.rules, see registry.h) and run in
 * ascending `order` (pytscope's registration order uses 100..1500; other formats use
 * 2000+). The result is then stably sorted by severity (high, med, low), exactly as
 * pytscope 0.2.1 does. */
#ifndef MODEL_FINDINGS_H
#define MODEL_FINDINGS_H

#include "model/base.h"

struct run;

enum severity { SEV_HIGH, SEV_MED, SEV_LOW };

enum evidence_kind {
	EV_NONE,
	EV_RANK,      /* rank, optional step range: heatmap row with critical steps marked */
	EV_STEPS,     /* step range (and rank when >= 0): Steps pane at those steps */
	EV_SERIES,    /* a named series (loss, grad_norm, memory, step_time) over a step range */
	EV_KERNEL,    /* kernel name (+ rank) in the Kernels view */
	EV_CONFIG,    /* a sweep configuration / sizing point (index in `item`) */
	EV_TASK,      /* DASF function / task / worker (name in `name`; for a worker, `item`
	              * is its row in the "tasks" grid (task balance) or -1) */
	EV_SOURCE,    /* a source file (index in `item`) */
};

struct evidence {
	enum evidence_kind kind;
	int rank;            /* -1 when not about a rank */
	long step_lo, step_hi; /* step numbers, -1 when none */
	long item;           /* kind-specific index, -1 when none */
	char *series;        /* owned, NULL when none: "loss", "grad_norm", "memory", ... */
	char *name;          /* owned, NULL when none: kernel / function / config name */
	long *steps;         /* owned, optional list of marked step numbers (e.g. critical steps) */
	size_t nsteps;
	const char *view;    /* static, EV_CONFIG: the view whose row refs `item` indexes
	                      * ("sweep", "sizing", "cerebras"); NULL: the subsystem's first view */
};

struct finding {
	char *id;            /* "DIST.STRAGGLER" */
	enum severity severity;
	char *title, *detail, *fix; /* owned, UTF-8, may hold data text (sanitize when shown) */
	struct evidence ev;
};

struct finding_list {
	struct finding *v;
	size_t n, cap;
};

struct finding_rule {
	const char *id;
	int order;
	void (*run)(struct run *run, struct finding_list *out);
	bool native;         /* tscope-tui's own rule over what pytscope reads (steps, traces):
	                      * skipped under --compat pytscope */
};

/* Append a finding; copies the strings; takes ownership of ev's heap members. */
struct finding *findings_add(struct finding_list *l, const char *id, enum severity sev,
			     const char *title, const char *detail, const char *fix,
			     struct evidence ev);
/* An evidence value with every field "none". */
struct evidence evidence_none(void);
void findings_free(struct finding_list *l);
/* Run every registered rule in order (not the native ones when the run's options ask
 * for --compat pytscope), then stable-sort by severity. */
void findings_compute(struct run *run, struct finding_list *out);
const char *severity_name(enum severity s);   /* "high" "med" "low" */
const char *severity_label(enum severity s);  /* "HIGH" "MED " "LOW " */

#endif
