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
#include "model/table.h"

struct run;

enum severity { SEV_HIGH, SEV_MED, SEV_LOW };

/* What a drill-down opens. Every Enter (a finding, a table row, a heatmap cell) yields
 * one evidence; the UI keeps ONE map from evidence to pane (ui/app.c app_open_evidence):
 *   EV_RANK             heatmap (grid `grid`, NULL: the default) at rank, steps marked;
 *                       a grid whose rows are not ranks (DASF's workers): at row id `item`,
 *                       rank -1 (no rank column shows a row number); a run without that
 *                       heatmap: the rank's row of `view` (NULL: sources)
 *   EV_STEPS, EV_SERIES the Steps pane at rank, step range, series (a series with no
 *                       step range: the whole run)
 *   EV_BUDGET           the Budget pane at rank
 *   EV_KERNEL, EV_TASK  the rows of view `view` that match (evidence_filter): `name` in
 *                       the column with role `match` or named `match_col` (exactly;
 *                       neither: a substring of any text column), each `also[i]` exactly
 *                       in the column named `also_col[i]`, rank when >= 0, and the steps
 *                       step_lo..step_hi when step_lo >= 0 (one step: step_hi <= step_lo)
 *   EV_CONFIG, EV_SOURCE, EV_ROW, EV_FINDING
 *                       the row of view `view` whose ref is `item` (EV_FINDING: the
 *                       finding number `item` in run_findings order: its own evidence) */
enum evidence_kind {
	EV_NONE,
	EV_RANK,      /* rank, optional step range: heatmap row with critical steps marked */
	EV_STEPS,     /* step range (and rank when >= 0): Steps pane at those steps */
	EV_SERIES,    /* a named series (loss, grad_norm, memory, step_time) over a step range */
	EV_KERNEL,    /* kernel rows: name (+ rank, step) in `view` */
	EV_CONFIG,    /* a sweep configuration / sizing point (row ref `item` of `view`) */
	EV_TASK,      /* DASF function / task / worker rows: name in `view` */
	EV_SOURCE,    /* a source file (row ref `item` of `view`) */
	EV_FINDING,   /* finding number `item` */
	EV_ROW,       /* any other row: row ref `item` of `view` (e.g. a rank of "temporal") */
	EV_BUDGET,    /* the efficiency budget of `rank` (Budget pane) */
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
	const char *view;    /* static: the view that holds the rows (see enum evidence_kind) */
	const char *grid;    /* static, EV_RANK: the heatmap grid, NULL: the default heatmap */
	enum col_role match; /* EV_KERNEL/EV_TASK: the column role `name` must equal */
	const char *match_col; /* static: or, with match COL_ROLE_NONE, the column so named */
	const char *also_col[2]; /* static, EV_TASK: columns that must hold also[i] too (a DASF worker) */
	char *also[2];       /* owned, NULL when unused */
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

/* What a rule's findings are about, so a comparison matches a finding of run A with the
 * one of run B about the same thing (model/compare/findings.c):
 *   SUBJECT_RANK    the evidence rank: a straggler on rank 3 and one on rank 5 are two;
 *   SUBJECT_PICKED  the run, naming the rank the rule picked of the several it judged
 *                   (the idlest GPU, the first rank whose config differs);
 *   SUBJECT_LOWEST  the run as read from its lowest rank (pytscope's rules of rank 0);
 *   SUBJECT_NODE    a node, naming its worst rank. */
enum finding_subject { SUBJECT_RANK, SUBJECT_PICKED, SUBJECT_LOWEST, SUBJECT_NODE };

struct finding_rule {
	const char *id;
	int order;
	void (*run)(struct run *run, struct finding_list *out);
	bool native;         /* tscope-tui's own rule over what pytscope reads (steps, traces):
	                      * skipped under --compat pytscope */
	enum finding_subject subject;  /* what its findings are about */
	bool across_ranks;   /* judged across ranks (stragglers, imbalance, ranks that differ):
	                      * a run of one rank has no peers to judge it on */
};

/* A rule whose work grows with the run (the steps of a rank, every rank) in slices of
 * bounded cost, for the explorer's idle time (a subsystem's `slicers`; a rule without
 * one is a single step): each call of slice() does the next slice, keeping what it
 * needs in *state (NULL at the first); true when the rule is done (the findings `run`
 * adds added, *state freed and NULL). drop() frees the state of a rule left part way. */
struct rule_slicer {
	const char *id;      /* the rule's (same subsystem) */
	bool (*slice)(struct run *run, struct finding_list *out, void **state);
	void (*drop)(void *state);
};

/* How far findings_compute_step() got: rules done, the live findings copied, and the
 * begun rule's state between its slices. Zeroed: not begun. */
struct findings_progress {
	size_t next;
	bool begun;
	void *state;
};

/* Append a finding; copies the strings; takes ownership of ev's heap members. */
struct finding *findings_add(struct finding_list *l, const char *id, enum severity sev,
			     const char *title, const char *detail, const char *fix,
			     struct evidence ev);
/* An evidence value with every field "none". */
struct evidence evidence_none(void);
/* Free ev's heap members (series, name, also, steps) and make it none. */
void evidence_free(struct evidence *ev);
/* The most terms evidence_filter gives: name, also[0], also[1], rank, and the step range
 * (step >= lo, step <= hi). */
#define EVIDENCE_TERMS 6
/* The structured filter that shows ev's rows in table t (EV_KERNEL, EV_TASK): up to
 * EVIDENCE_TERMS terms into out, and their text form into shown ("rank=2 step>=101
 * step<=104"; one step: "step=101"). Returns the number of terms (0: no row filter, e.g.
 * the view lacks the columns). */
size_t evidence_filter(const struct evidence *ev, const struct table *t, struct filter_term out[EVIDENCE_TERMS],
		       char *shown, size_t shownn);
void findings_free(struct finding_list *l);
/* Run every registered rule in order (not the native ones when the run's options ask
 * for --compat pytscope), then stable-sort by severity. */
void findings_compute(struct run *run, struct finding_list *out);
/* The same a step at a time (idle-time work): a rule, or a slice of a rule that has
 * them (rule_slicer); p starts zeroed. True when the last rule is done and out is
 * sorted (out then equals what findings_compute gives, which runs each rule whole). */
bool findings_compute_step(struct run *run, struct finding_list *out, struct findings_progress *p);
/* Free what a findings_compute_step() sequence left part way and zero p. */
void findings_progress_drop(struct run *run, struct findings_progress *p);
/* Why an empty findings list of run is no verdict (static text), or NULL when some
 * family had records for the rules to judge (registry_has_records). */
const char *findings_unjudged(const struct run *run);
/* What the rules could not judge on run and why, for an empty findings list, where
 * "no findings" alone would claim more than was checked (a rule that needs 16 aligned
 * steps, a loss, a data phase ...): every family's items (subsystem `unjudged`), "what
 * (why)" separated by "; ", into buf (truncated to n); false when there is none. */
bool findings_not_judged(struct run *run, char *buf, size_t n);
/* The same items as report lines, "  - what (why)\n" each, sanitized, malloc'd; NULL when
 * there is none. The report lists them under "no findings" and beside findings alike: a
 * finding of one rule does not make another rule's silence a verdict. */
char *findings_not_judged_lines(struct run *run);
#define FINDINGS_NOT_JUDGED_MAX 1024 /* room for every family's items */
/* What an empty findings list of run says, malloc'd: "no findings; not judged: " and
 * findings_not_judged()'s items; NULL when every rule could judge. */
char *findings_empty_note(struct run *run);

/* The same items one by one, each with the finding ids it stands for: the findings the
 * rules could not have given on this run (a comparison calls a finding of the other run
 * "not judged" here rather than new or resolved). ids are space-separated finding ids
 * ("MEMORY.FRAGMENTATION MEMORY.GROWTH"), "" for an item that rules out no finding by
 * its id alone (the ranks a subset left out: the rules across ranks judged the others). */
struct not_judged_item {
	char *text;          /* "what (why)", never holding "; " (the separator of the joined text) */
	char *ids;
	char *subject;       /* the one part of the run it is about (a sweep series, a file), as its
			      * findings' evidence names it (name or series); NULL: the whole run */
};
struct not_judged {
	struct not_judged_item *v;
	size_t n, cap;
};
/* Every family's items for run into nj (zeroed, or emptied with findings_not_judged_free);
 * false when there is none. Only the rules that run are named: under --compat pytscope an
 * item keeps the ids of pytscope's rules alone, and one that stood for native rules only
 * (NODE.SLOW_TOGETHER, DIST.TRANSIENT_STALL ...) is left out. */
bool findings_not_judged_list(struct run *run, struct not_judged *nj);
void findings_not_judged_free(struct not_judged *nj);
/* The first item of nj that stands for finding f, NULL when none: one whose ids hold f's
 * id and, when it is about one part of the run, whose subject f's evidence names (its
 * name or series): series b's outliers not judged are not series a's. */
const struct not_judged_item *findings_not_judged_of(const struct not_judged *nj, const struct finding *f);
/* Append one item (printf format), standing for findings ids, for a family's `unjudged`
 * callback. */
void findings_unjudged_add(struct not_judged *nj, const char *ids, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The same for an item about one part of the run, subject (copied; NULL: the whole run).
 * The report and the findings view list such items beside findings too, where a finding
 * of the same rule on another part would make their silence read as a verdict. */
void findings_unjudged_add_about(struct not_judged *nj, const char *ids, const char *subject, const char *fmt,
				 ...) PRINTF_LIKE(4, 5);
const char *severity_name(enum severity s);   /* "high" "med" "low" */
const char *severity_label(enum severity s);  /* "HIGH" "MED " "LOW " */

#endif
