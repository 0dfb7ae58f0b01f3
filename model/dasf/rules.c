/* SPDX-License-Identifier: MIT */
/* rules.c: the DASF family's finding rules (one function dominates, worker imbalance over
 * every worker the headline counts, idle GPUs), over the memoized analyses, and what they
 * could not judge; evidence opens exactly a function's function_bottleneck rows (its tasks
 * when its names differ by a per-call token) or a worker's row of the "tasks" grid (its tasks
 * without one), names sanitized as the tables hold them (so a drill-down finds the rows of a
 * name the sanitizer rewrites). A task without
 * a usable duration could change any share of task time, so the function and worker rules
 * are not judged while one exists (the not-judged item names the function or worker with
 * most of them), nor while the summed task times overflow (named likewise), nor while the
 * loader skipped a Compute event (a task whose function, worker and time are unknown). No
 * one function has most idle GPU samples when several tie for it: GPU idleness names them
 * all and opens every function's row; likewise workers tied for busiest (or least busy) are
 * all named and the finding opens every function_bottleneck row. A worker is named by its
 * thread id, with its host when that id is another host's too ("worker-0 on hA"), and such
 * a worker's evidence is its tasks, never the task balance row its hosts share. A task with
 * no span (no usable duration or timestamp) holds no GPU sample, said in the detail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/dasf.h"
#include "model/dasf/internal.h"
#include "model/numfmt.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

#define DOMINANT_SHARE 0.5   /* one function with at least this share of all task time */
#define DOMINANT_HIGH 0.8    /* ... high from this share */
#define IMBALANCE_RATIO 1.5  /* busiest worker / mean worker busy time */
#define IDLE_SHARE 0.5       /* share of in-task GPU samples below DASF_IDLE_UTIL */
#define IDLE_MIN_SAMPLES 5
#define TIED_NAMED 4         /* tied functions (most idle samples) or workers named, the rest counted */

/* A function group's rows (dasf.h dasf_function_groups), its name sanitized as the tables
 * hold it (a name the sanitizer rewrites would match no row otherwise): its
 * function_bottleneck rows (Function exactly) when the group is one name, else (names that
 * differ by a per-call token) its tasks (Function group exactly). */
static struct evidence task_evidence(const char *group, bool stripped)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_TASK;
	ev.view = stripped ? "tasks" : "function_bottleneck";
	ev.match = stripped ? COL_ROLE_NONE : COL_ROLE_NAME;
	ev.match_col = stripped ? "Function group" : NULL;
	ev.name = text_sanitize_dup(group, 0);
	return ev;
}

/* A worker (host, thread): its row in the "tasks" grid (task balance heatmap) when it has
 * one (the row in item: a DASF run has no ranks, rank stays -1) that is its own (the grid
 * keys rows by thread id, as DASF's task_balance: a thread id of several hosts, `shared`,
 * has one row for all), else its tasks (Worker and Host exactly); names sanitized as
 * task_evidence's. */
static struct evidence worker_evidence(struct run *run, const char *host, const char *thread, bool shared)
{
	struct evidence ev = evidence_none();
	ev.name = text_sanitize_dup(thread, 0);
	long row = shared ? -1 : dasf_balance_row(run, thread);
	if (row >= 0) {
		ev.kind = EV_RANK;
		ev.grid = "tasks";
		ev.item = row;
		return ev;
	}
	ev.kind = EV_TASK;
	ev.view = "tasks";
	ev.match_col = "Worker";
	ev.also_col[0] = "Host";
	ev.also[0] = text_sanitize_dup(host, 0);
	return ev;
}

/* name and its mark appended to the malloc'd *text (NULL: empty), after sep unless first. */
static void names_append(char **text, const char *sep, const char *name, const char *mark)
{
	char *t = xasprintf("%s%s%s%s", *text ? *text : "", *text ? sep : "", name, mark);
	free(*text);
	*text = t;
}

/* How many of ntied tied names are named (TIED_NAMED at most). */
static size_t tied_shown(size_t ntied)
{
	return ntied > TIED_NAMED ? TIED_NAMED : ntied;
}

/* text (the names shown of ntied) with the rest counted: "a, b, c, d and 2 more". */
static char *tied_rest(char *text, size_t ntied)
{
	if (ntied <= TIED_NAMED)
		return text;
	char *t = xasprintf("%s and %zu more", text, ntied - TIED_NAMED);
	free(text);
	return t;
}

/* Tasks without a usable duration over the groups of a rule (functions or workers): how
 * many, in how many groups, and the group with the most of them (its index, its tasks). */
struct untimed {
	size_t n, ngroups;
	size_t top, top_n, top_tasks;
};

static void untimed_add(struct untimed *u, size_t group, size_t missing, size_t tasks)
{
	if (!missing)
		return;
	if (!u->ngroups++ || missing > u->top_n) {
		u->top = group;
		u->top_n = missing;
		u->top_tasks = tasks;
	}
	u->n += missing;
}

/* "3 of 4 tasks of function b have no usable duration; 2 more in 1 other function"
 * (`kind` is "function" or "worker"; name sanitized here). */
static void untimed_text(const struct untimed *u, const char *kind, const char *name, char *buf, size_t n)
{
	char *safe = text_sanitize_dup(name, 0);
	int k = snprintf(buf, n, "%zu of %zu task%s of %s %s %s no usable duration", u->top_n, u->top_tasks,
			 u->top_tasks == 1 ? "" : "s", kind, safe, u->top_n == 1 ? "has" : "have");
	if (k > 0 && (size_t)k < n && u->ngroups > 1)
		snprintf(buf + k, n - (size_t)k, "; %zu more in %zu other %s%s", u->n - u->top_n, u->ngroups - 1, kind,
			 u->ngroups > 2 ? "s" : "");
	free(safe);
}

/* Task time per function group (dasf.h dasf_function_groups: names that differ only by a
 * per-call token are one function): the groups, the one with the most time, the total;
 * tie when another group has exactly the top time; the tasks without a usable duration. */
struct fn_times {
	struct dasf_fn_group *g;
	size_t n, top;
	double top_s, total_s;
	bool tie;
	struct untimed untimed;
};

static void function_times(struct run *run, struct fn_times *t)
{
	*t = (struct fn_times){ 0 };
	t->n = dasf_function_groups(run, &t->g);
	for (size_t k = 0; k < t->n; k++) {
		double s = 0;
		for (size_t i = 0; i < t->g[k].n; i++)
			s += t->g[k].dur[i];
		t->total_s += s;
		untimed_add(&t->untimed, k, t->g[k].ntasks - t->g[k].n, t->g[k].ntasks);
		if (k == 0 || s > t->top_s) {
			t->top = k;
			t->top_s = s;
			t->tie = false;
		} else if (s == t->top_s) {
			t->tie = true;
		}
	}
}

static void rule_dominant_function(struct run *run, struct finding_list *out)
{
	if (!run->dasf || !run->dasf->ntask)
		return;
	struct fn_times t;
	function_times(run, &t);
	double share = t.total_s > 0 ? t.top_s / t.total_s : 0;
	if (t.n >= 2 && !t.untimed.n && !run->dasf->lost && t.total_s > 0 && isfinite(t.total_s) && !t.tie &&
	    share >= DOMINANT_SHARE) {
		const struct dasf_fn_group *g = &t.g[t.top];
		char *name = xasprintf("%s%s", g->name, dasf_group_mark(g->stripped));
		char *names = g->nnames > 1 ? xasprintf(" (%zu names that differ by a per-call token)", g->nnames)
					    : xstrdup("");
		char pct[32];   /* high from 80%: never "80%" for 79.996% */
		numfmt_same_side(share * 100, DOMINANT_HIGH * 100, 0, pct, sizeof(pct));
		char *title = xasprintf("Function %s takes %s%% of all task time", name, pct);
		char top[40], total[40], mean[40];
		char *detail = xasprintf("%s ran %zu task%s%s for %s s of %s s of task time across every "
					 "worker (%zu functions in all); mean task time %s s.",
					 name, g->n, g->n == 1 ? "" : "s", names,
					 units_fixed(t.top_s, 3, top, sizeof(top)),
					 units_fixed(t.total_s, 3, total, sizeof(total)), t.n,
					 units_fixed(g->n ? t.top_s / (double)g->n : 0, 4, mean, sizeof(mean)));
		findings_add(out, "DASF.FUNCTION_DOMINATES", share >= DOMINANT_HIGH ? SEV_HIGH : SEV_MED, title, detail,
			     g->stripped ? "Optimise this function first: rechunk so its tasks are fewer and "
					   "larger, fuse it with its neighbours, or run it on the GPU. Enter on it "
					   "lists its tasks."
					 : "Optimise this function first: rechunk so its tasks are fewer and "
					   "larger, fuse it with its neighbours, or run it on the GPU. Enter on it "
					   "in function_bottleneck lists its tasks.",
			     task_evidence(g->name, g->stripped));
		free(name);
		free(names);
		free(title);
		free(detail);
	}
	dasf_fn_groups_free(t.g, t.n);
}

/* The workers as the headline counts them (dasf_summarize): every (host, thread) with a task
 * or a Managed Memory event, those with a task first; their busy seconds (the usable
 * durations: 0 for the last `idle` ones, which ran no task); whether a worker's thread id is
 * another host's worker's too (shared: then its name needs the host); the tasks without a
 * usable duration in untimed. The arrays are xmalloc'd (workers_free). */
struct workers {
	size_t n, idle;
	double *busy;
	uint32_t *host, *thread;  /* strs ids */
	bool *shared;
	struct untimed untimed;
};

/* Mark the workers whose thread id another worker (so another host) has too. */
static void workers_shared(struct workers *ws)
{
	struct dasf_map first = { 0 };
	for (size_t w = 0; w < ws->n; w++) {
		uint32_t f = dasf_map_get_or_add(&first, ws->thread[w], (uint32_t)w);
		if (f != w)
			ws->shared[f] = ws->shared[w] = true;
	}
	dasf_map_free(&first);
}

static void workers_read(const struct dasf_db *db, struct workers *ws)
{
	struct dasf_map m = { 0 };
	size_t nev = db->ntask + db->nmem;
	*ws = (struct workers){ .busy = xcalloc(nev + 1, sizeof(double)), .host = xmalloc((nev + 1) * sizeof(uint32_t)),
				.thread = xmalloc((nev + 1) * sizeof(uint32_t)), .shared = xcalloc(nev + 1, sizeof(bool)) };
	size_t *ntasks = xcalloc(nev + 1, sizeof(*ntasks)), *nmissing = xcalloc(nev + 1, sizeof(*nmissing));
	for (size_t i = 0; i < nev; i++) {
		bool task = i < db->ntask;
		uint32_t host = task ? db->task[i].host : db->mem[i - db->ntask].host;
		uint32_t thread = task ? db->task[i].thread : db->mem[i - db->ntask].thread;
		uint32_t w = dasf_map_get_or_add(&m, (uint64_t)host << 32 | thread, (uint32_t)ws->n);
		if (w == ws->n) {
			ws->host[ws->n] = host;
			ws->thread[ws->n++] = thread;
			ws->idle += !task;
		}
		if (task && dasf_dur_usable(db->task[i].dur))
			ws->busy[w] += db->task[i].dur;
		ntasks[w] += task;
		nmissing[w] += task && !dasf_dur_usable(db->task[i].dur);
	}
	for (size_t w = 0; w < ws->n; w++)
		untimed_add(&ws->untimed, w, nmissing[w], ntasks[w]);
	workers_shared(ws);
	dasf_map_free(&m);
	free(ntasks);
	free(nmissing);
}

static void workers_free(struct workers *ws)
{
	free(ws->busy);
	free(ws->host);
	free(ws->thread);
	free(ws->shared);
}

/* Worker w's name (malloc'd): its thread id, with its host when the id is another host's
 * too ("worker-0 on hA"). */
static char *worker_name(const struct dasf_db *db, const struct workers *ws, size_t w)
{
	if (ws->shared[w])
		return xasprintf("%s on %s", db->strs.str[ws->thread[w]], db->strs.str[ws->host[w]]);
	return xstrdup(db->strs.str[ws->thread[w]]);
}

/* The names of the workers busy exactly `busy` s (ntied of them), in the headline's order:
 * the first TIED_NAMED named, the rest counted ("a, b, c, d and 2 more"). */
static char *workers_at(const struct dasf_db *db, const struct workers *ws, double busy, size_t ntied)
{
	char *text = NULL;
	size_t named = 0, shown = tied_shown(ntied);
	for (size_t w = 0; w < ws->n && named < shown; w++) {
		if (ws->busy[w] != busy)
			continue;
		char *name = worker_name(db, ws, w);
		names_append(&text, ++named == ntied ? " and " : ", ", name, "");
		free(name);
	}
	return tied_rest(text, ntied);
}

/* WORKER_IMBALANCE's evidence and fix: the busiest worker's row (worker_evidence), or with a
 * tie every function_bottleneck row (each worker's functions: the tied ones among them). */
static struct evidence imbalance_evidence(struct run *run, const struct workers *ws, size_t hi, size_t nhi,
					  const char **fix)
{
	const struct dasf_db *db = run->dasf;
	if (nhi > 1) {
		struct evidence ev = evidence_none();
		ev.kind = EV_TASK;
		ev.view = "function_bottleneck";
		*fix = "Spread the work: rechunk into more, even chunks, and check that data is not pinned to these "
		       "workers (scatter/persist placement). Enter lists every worker's functions (the tied ones "
		       "among them).";
		return ev;
	}
	struct evidence ev = worker_evidence(run, db->strs.str[ws->host[hi]], db->strs.str[ws->thread[hi]],
					     ws->shared[hi]);
	*fix = ev.kind == EV_RANK ? "Spread the work: rechunk into more, even chunks, check that data is not pinned "
				    "to one worker (scatter/persist placement), and see its task balance row for "
				    "when the imbalance starts."
				  : "Spread the work: rechunk into more, even chunks, and check that data is not "
				    "pinned to one worker (scatter/persist placement).";
	return ev;
}

/* The finding: workers busiest at busy[hi] (nhi of them) and least busy at busy[lo] (nlo),
 * every tied one named ("a and b tie at 4.000 s of tasks each"). */
static void add_imbalance(struct run *run, const struct workers *ws, size_t hi, size_t nhi, size_t lo, size_t nlo,
			  double mean, struct finding_list *out)
{
	const struct dasf_db *db = run->dasf;
	const double *busy = ws->busy;
	char *top = workers_at(db, ws, busy[hi], nhi), *low = workers_at(db, ws, busy[lo], nlo);
	char *title = xasprintf("Worker imbalance: %s %s busy %.1fx the mean worker", top, nhi > 1 ? "are" : "is",
				busy[hi] / mean);
	char b_hi[40], b_lo[40], b_mean[40], idle[128] = "";
	if (ws->idle)
		snprintf(idle, sizeof(idle), " (%zu of them ran no task: Managed Memory events only, 0 s busy%s)",
			 ws->idle, ws->idle == 1 ? "" : " each");
	char *detail = xasprintf("%zu workers%s; busiest %s%s%s s of tasks%s, least busy %s%s%s s%s, mean %s s. "
				 "The run lasts as long as its busiest worker.", ws->n, idle, top,
				 nhi > 1 ? " tie at " : " ", units_fixed(busy[hi], 3, b_hi, sizeof(b_hi)),
				 nhi > 1 ? " each" : "", low, nlo > 1 ? " tie at " : " ",
				 units_fixed(busy[lo], 3, b_lo, sizeof(b_lo)), nlo > 1 ? " each" : "",
				 units_fixed(mean, 3, b_mean, sizeof(b_mean)));
	const char *fix;
	struct evidence ev = imbalance_evidence(run, ws, hi, nhi, &fix);
	findings_add(out, "DASF.WORKER_IMBALANCE", SEV_MED, title, detail, fix, ev);
	free(top);
	free(low);
	free(title);
	free(detail);
}

static void rule_worker_imbalance(struct run *run, struct finding_list *out)
{
	if (!run->dasf || !run->dasf->ntask)
		return;
	struct dasf_db *db = run->dasf;
	struct workers ws;
	workers_read(db, &ws);
	const double *busy = ws.busy;
	double sum = 0;
	size_t hi = 0, lo = 0, nhi = 0, nlo = 0;
	for (size_t w = 0; w < ws.n; w++) {
		sum += busy[w];
		hi = busy[w] > busy[hi] ? w : hi;
		lo = busy[w] < busy[lo] ? w : lo;
	}
	for (size_t w = 0; w < ws.n; w++) {
		nhi += busy[w] == busy[hi];
		nlo += busy[w] == busy[lo];
	}
	double mean = ws.n ? sum / (double)ws.n : 0;
	if (ws.n >= 2 && !ws.untimed.n && !db->lost && mean > 0 && busy[hi] / mean >= IMBALANCE_RATIO)
		add_imbalance(run, &ws, hi, nhi, lo, nlo, mean, out);
	workers_free(&ws);
}

/* The function groups (dasf.h) with the most idle GPU samples: the first of them in
 * first-seen order, and how many share its count (a tie: no one function has most). */
struct idle_top {
	char *name;               /* the first group's name, malloc'd */
	bool stripped;
	size_t n;                 /* its idle samples */
	size_t ntied;             /* groups with n idle samples (1: no tie) */
	char *tied;               /* with a tie, their names, marked, malloc'd: "p and q", "a, b, c, d and 3 more" */
};

/* The names of the groups with `top` idle samples (ntied of them, idle[] by group), the
 * first TIED_NAMED named, the rest counted. */
static char *tied_names(const struct dasf_groups *gr, const size_t *idle, size_t top, size_t ntied)
{
	char *text = NULL;
	size_t named = 0, shown = tied_shown(ntied);
	for (size_t g = 0; g < gr->n && named < shown; g++) {
		if (idle[g] != top)
			continue;
		named++;
		names_append(&text, named == ntied ? " and " : ", ", gr->names.str[g],
			     dasf_group_mark(gr->stripped[g]));
	}
	return tied_rest(text, ntied);
}

static bool idle_top_function(const struct dasf_db *db, const struct dasf_an *an, struct idle_top *top)
{
	struct dasf_groups gr;
	dasf_groups_build(db, &gr);
	size_t *idle = xcalloc(gr.n + 1, sizeof(*idle)), best = 0, ntied = 0;
	for (size_t i = 0; i < db->strs.n; i++)
		if (gr.group_of[i] != DASF_NONE)
			idle[gr.group_of[i]] += an->idle_by_name[i];
	for (size_t g = 1; g < gr.n; g++)
		if (idle[g] > idle[best])
			best = g;
	for (size_t g = 0; g < gr.n; g++)
		ntied += idle[g] == idle[best];
	bool found = gr.n && idle[best];
	if (found) {
		char *tied = ntied > 1 ? tied_names(&gr, idle, idle[best], ntied) : NULL;
		*top = (struct idle_top){ xstrndup(gr.names.str[best], gr.names.len[best]), gr.stripped[best],
					  idle[best], ntied, tied };
	}
	free(idle);
	dasf_groups_free(&gr);
	return found;
}

/* GPU_IDLE's evidence: the function most idle samples fell in (task_evidence), or with a
 * tie every function_bottleneck row (the one filter is one name: the tied ones are among
 * them). */
static struct evidence idle_evidence(const struct idle_top *top)
{
	if (top->ntied == 1)
		return task_evidence(top->name, top->stripped);
	struct evidence ev = evidence_none();
	ev.kind = EV_TASK;
	ev.view = "function_bottleneck";
	return ev;
}

static void rule_gpu_idle(struct run *run, struct finding_list *out)
{
	if (!run->dasf || !run->dasf->ntask || !run->dasf->nres)
		return;
	struct dasf_db *db = run->dasf;
	const struct dasf_an *an = dasf_analyse(db);
	if (an->res_matched < IDLE_MIN_SAMPLES || (double)an->res_idle < IDLE_SHARE * (double)an->res_matched)
		return;
	struct idle_top top;
	if (!idle_top_function(db, an, &top))
		return;
	double share = (double)an->res_idle / (double)an->res_matched;
	char *title = xasprintf("GPU idle while tasks run: %.0f%% of in-task samples below %.0f%%",
				share * 100, DASF_IDLE_UTIL);
	char *detail = top.tied ? xasprintf("%zu of %zu GPU samples taken while a task ran (DASF's first-match "
					    "rule) show under %.0f%% utilisation; no one function has most of "
					    "them: %s tie with %zu each.", an->res_idle, an->res_matched,
					    DASF_IDLE_UTIL, top.tied, top.n)
				: xasprintf("%zu of %zu GPU samples taken while a task ran (DASF's first-match "
					    "rule) show under %.0f%% utilisation; most of them during %s%s (%zu).",
					    an->res_idle, an->res_matched, DASF_IDLE_UTIL, top.name,
					    dasf_group_mark(top.stripped), top.n);
	if (an->unspanned) { /* samples such a task may hold are no function's here: said, never guessed */
		char *d = xasprintf("%s %zu task%s without a usable duration or timestamp %s left out of the "
				    "matching: %s unknown.", detail, an->unspanned, an->unspanned == 1 ? "" : "s",
				    an->unspanned == 1 ? "is" : "are", an->unspanned == 1 ? "its span is" : "their spans are");
		free(detail);
		detail = d;
	}
	findings_add(out, "DASF.GPU_IDLE", SEV_MED, title, detail,
		     top.tied ? "The tasks run on the CPU or wait on data: use GPU arrays (CuPy) for these "
				"functions, raise chunk sizes, and check that data loading is not the bottleneck. "
				"Enter lists every function (the tied ones among them)."
			      : "The tasks run on the CPU or wait on data: use GPU arrays (CuPy) for this "
				"function, raise chunk sizes, and check that data loading is not the bottleneck.",
		     idle_evidence(&top));
	free(top.name);
	free(top.tied);
	free(title);
	free(detail);
}

/* Why a rule cannot weigh task times whose sums overflow, into buf: "the task times of
 * worker w overflow" when a group's own do (`kind` and its name, sanitized here, else NULL),
 * else "the total task time overflows". */
static void overflow_text(const char *kind, const char *name, char *buf, size_t n)
{
	if (!name) {
		snprintf(buf, n, "the total task time overflows");
		return;
	}
	char *safe = text_sanitize_dup(name, 0);
	snprintf(buf, n, "the task times of %s %s overflow", kind, safe);
	free(safe);
}

/* Why the dominant function rule could not judge, if it could not. */
static void unjudged_function(struct run *run, const struct dasf_an *an, struct not_judged *nj)
{
	struct fn_times t;
	function_times(run, &t);
	char lost[160];
	if (dasf_lost_text(run->dasf, lost, sizeof(lost))) { /* the lost tasks' functions and times are unknown */
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES", "dominant task function (%s: the task time is "
				      "unknown)", lost);
	} else if (t.n < 2) {
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES",
				      "dominant task function (1 function: the test needs 2)");
	} else if (t.untimed.n) {
		const struct dasf_fn_group *g = &t.g[t.untimed.top];
		char *name = xasprintf("%s%s", g->name, dasf_group_mark(g->stripped)), missing[256];
		untimed_text(&t.untimed, "function", name, missing, sizeof(missing));
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES", "dominant task function (%s)", missing);
		free(name);
	} else if (!isfinite(t.total_s)) { /* the top function's sum first: it overflows if any does */
		const struct dasf_fn_group *g = &t.g[t.top];
		char *name = isfinite(t.top_s) ? NULL : xasprintf("%s%s", g->name, dasf_group_mark(g->stripped));
		char why[256];
		overflow_text("function", name, why, sizeof(why));
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES", "dominant task function (%s)", why);
		free(name);
	} else if (!(an->total_dur > 0)) {
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES", "dominant task function (0 s of task time)");
	}
	dasf_fn_groups_free(t.g, t.n);
}

/* Why the worker imbalance rule could not judge, if it could not. */
static void unjudged_worker(const struct dasf_db *db, const struct dasf_an *an, struct not_judged *nj)
{
	struct workers ws;
	workers_read(db, &ws);
	double sum = 0;
	size_t overflows = SIZE_MAX; /* a worker whose own busy time overflows */
	for (size_t w = 0; w < ws.n; w++) {
		sum += ws.busy[w];
		if (!isfinite(ws.busy[w]) && overflows == SIZE_MAX)
			overflows = w;
	}
	char why[256], *name = NULL;
	if (dasf_lost_text(db, why, sizeof(why))) { /* the lost tasks' workers and times are unknown */
		findings_unjudged_add(nj, "DASF.WORKER_IMBALANCE", "worker imbalance (%s: the task time is unknown)",
				      why);
	} else if (ws.n < 2) {
		findings_unjudged_add(nj, "DASF.WORKER_IMBALANCE", "worker imbalance (1 worker: the test needs 2)");
	} else if (ws.untimed.n) {
		name = worker_name(db, &ws, ws.untimed.top);
		untimed_text(&ws.untimed, "worker", name, why, sizeof(why));
		findings_unjudged_add(nj, "DASF.WORKER_IMBALANCE", "worker imbalance (%s)", why);
	} else if (!isfinite(sum)) {
		name = overflows == SIZE_MAX ? NULL : worker_name(db, &ws, overflows);
		overflow_text("worker", name, why, sizeof(why));
		findings_unjudged_add(nj, "DASF.WORKER_IMBALANCE", "worker imbalance (%s)", why);
	} else if (!(an->total_dur > 0)) {
		findings_unjudged_add(nj, "DASF.WORKER_IMBALANCE", "worker imbalance (0 s of task time)");
	}
	free(name);
	workers_free(&ws);
}

void dasf_unjudged(struct run *run, struct not_judged *nj)
{
	struct dasf_db *db = run->dasf;
	if (!db)
		return;
	if (!db->ntask) {
		findings_unjudged_add(nj, "DASF.FUNCTION_DOMINATES DASF.WORKER_IMBALANCE DASF.GPU_IDLE",
				      "task functions, workers and GPU idle (no task event%s)",
				      db->nres ? ", only GPU utilisation samples" : "");
		return;
	}
	const struct dasf_an *an = dasf_analyse(db);
	unjudged_function(run, an, nj);
	unjudged_worker(db, an, nj);
	if (!db->nres)
		findings_unjudged_add(nj, "DASF.GPU_IDLE", "GPU idle while tasks run (no GPU utilisation sample)");
	else if (an->res_matched < IDLE_MIN_SAMPLES)
		findings_unjudged_add(nj, "DASF.GPU_IDLE",
				      "GPU idle while tasks run (%zu GPU sample%s taken while a task ran, the "
				      "test needs %d)", an->res_matched, an->res_matched == 1 ? "" : "s",
				      IDLE_MIN_SAMPLES);
}

const struct finding_rule dasf_rules[DASF_NRULES] = {
	{ "DASF.FUNCTION_DOMINATES", 3000, rule_dominant_function, false, SUBJECT_RANK, false },
	{ "DASF.WORKER_IMBALANCE", 3010, rule_worker_imbalance, false, SUBJECT_RANK, false },
	{ "DASF.GPU_IDLE", 3020, rule_gpu_idle, false, SUBJECT_RANK, false },
};
