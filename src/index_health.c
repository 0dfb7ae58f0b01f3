/* SPDX-License-Identifier: MIT */
/* index_health.c: the state of a run's index as `tscope-tui index` reads it
 * (src/index_health.h): the lines --status gives each part (steps shards by their ranks,
 * trace parts by their traces; a part not usable by what its shard is to hold, never as
 * holding none) and the summary, what rebuilds a part not usable (a command this user
 * can run where the index is, else who can and where this user's own goes), the traces
 * no part holds, the other place the index could be read from, and whether one shard
 * is current (`index --shard K/N` leaves it alone then). */
#include "src/index_health.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/identity.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"
#include "src/index_cmd.h"

/* printf to out, or nothing when out is NULL (a check without a report). */
static void say(FILE *out, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say(FILE *out, const char *fmt, ...)
{
	if (!out)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* What rebuilds the parts not usable of an index in dir (nbad of them, the first shard k of
 * n; n 1: a whole index), for a parenthesis of --status: the command, when this user can
 * write the index; else who can, and where this user's `tscope-tui index` writes (a shard
 * written there is never combined with the parts here: index_dir_for()). */
static void say_rebuild(FILE *out, const char *dir, unsigned k, size_t nbad, unsigned n)
{
	char shard[64];
	if (nbad == 1)
		snprintf(shard, sizeof(shard), "%u/%u` rebuilds it", k, n);
	else
		snprintf(shard, sizeof(shard), "K/%u` rebuilds each shard K above", n);
	bool mine = access(dir, W_OK) == 0;
	if (mine && n == 1)
		say(out, "`tscope-tui index` rebuilds it");
	else if (mine)
		say(out, "`tscope-tui index --shard %s, `tscope-tui index` the whole index", shard);
	else if (n == 1)
		say(out, "this user cannot write this index: `tscope-tui index` builds a whole one in this user's "
		    "cache, read from then on");
	else
		say(out, "this user cannot write this index: `tscope-tui index --shard %s there when run by one who "
		    "can; `tscope-tui index` builds a whole one in this user's cache, read from then on", shard);
}

/* Of the traces no trace part holds (unindexed[0, n), sorted), those an open leaves out:
 * refused (another job's or misplaced, a rank another file claims, no traceEvents) or
 * unreadable. A build keeps what an open keeps: `tscope-tui index` cannot add them. The
 * run is opened as any open opens it (they are parsed at each); when that open refuses
 * the run (a trace of a rank its step logs lack), `tscope-tui index` adds nothing. */
struct left_out {
	size_t refused, unreadable;
	char *first;                  /* the first one, "PATH: why" (sanitized), NULL: none */
	char *foreign;                /* why the open refuses the run (sanitized), NULL: it does not */
};

static void traces_left_out(const struct index_cli *c, char **unindexed, size_t n, struct left_out *lo)
{
	struct opts o;
	struct run *run = index_open_as_any(c, &o);
	for (size_t i = 0; i < run->nsrc; i++) {
		const struct source *s = &run->src[i];
		const char *path = s->path;
		if (!s->format || strcmp(s->format, "kineto") != 0 || (!s->refused && !s->err) ||
		    !bsearch(&path, unindexed, n, sizeof(*unindexed), text_cmp_ptr))
			continue;
		if (!lo->first) {
			char *line = xasprintf("%s: %s", s->path, s->refused ? s->refused : infile_strerror(s->err));
			lo->first = text_sanitize_dup(line, 0);
			free(line);
		}
		lo->refused += s->refused != NULL;
		lo->unreadable += !s->refused;
	}
	char why[1024] = "";
	struct run *refused = run_identity_mismatch(run, why, sizeof(why));
	why[strcspn(why, "\n")] = '\0';
	lo->foreign = refused ? text_sanitize_dup(why, 0) : NULL;
	run_free(refused);
	run_free(run);
}

/* The traces no part holds nor is to hold (trace_index_status): those an open leaves out,
 * named, and the others, which `tscope-tui index` adds (h->since). */
static void unindexed_health(const struct index_cli *c, FILE *out, struct index_health *h, char **unindexed,
			     size_t n)
{
	struct left_out lo = { 0 };
	if (n)
		traces_left_out(c, unindexed, n, &lo);
	size_t left = lo.refused + lo.unreadable;
	const char *what = !lo.unreadable ? "refused" : !lo.refused ? "unreadable" : "refused or unreadable";
	if (left)
		say(out, "traces: %zu %s at each open, so not in the index, which holds the traces an open keeps "
		    "(`tscope-tui index` cannot add %s): %s", left, what, left == 1 ? "it" : "them", lo.first);
	if (left > 1)
		say(out, " (and %zu more: `--export sources` names %s)", left - 1, left == 2 ? "it" : "them");
	if (left)
		say(out, "\n");
	if (lo.foreign)
		say(out, "traces: every open refuses this run dir, so no index of it would be used: %s\n", lo.foreign);
	else if (n > left)
		say(out, "traces: %zu not in the index (parsed at each open; `tscope-tui index` adds them)\n",
		    n - left);
	h->bad += lo.foreign != NULL;
	h->since += lo.foreign ? 0 : n - left;
	free(lo.first);
	free(lo.foreign);
}

/* The line after the trace parts not usable (nbad, the first shard k of n; they are to
 * hold `planned` traces): each open parses them, and what rebuilds them. */
static void say_traces_parsed(FILE *out, const char *dir, size_t planned, size_t nbad, unsigned k, unsigned n)
{
	say(out, "traces: each open parses the %zu trace%s of the %s not usable (", planned, planned == 1 ? "" : "s",
	    nbad == 1 ? "part" : "parts");
	say_rebuild(out, dir, k, nbad, n);
	say(out, ")\n");
}

void index_health_traces(const struct index_cli *c, FILE *out, struct index_health *h)
{
	struct trace_part_status *v = NULL;
	char **unindexed = NULL;
	char *dir = index_dir_for(c->run_dir);
	size_t nun, nbad = 0, planned = 0, n = trace_index_status(dir, c->run_dir, &v, &nun, &unindexed);
	unsigned first_bad = 0;
	for (size_t i = 0; i < n; i++) {
		char *path = text_sanitize_dup(v[i].path, 0);
		char *why = v[i].why ? text_sanitize_dup(v[i].why, 0) : NULL;
		size_t held = why ? v[i].planned : v[i].traces; /* not usable: what its shard is to hold */
		if (!why && !v[i].traces && !v[i].planned) /* trace_index_status: a shard of no trace lacks nothing */
			say(out, "traces %u/%u  no trace  ok  (more shards than traces: nothing to hold)", v[i].k,
			    v[i].n);
		else
			say(out, "traces %u/%u  %zu trace%s  %s%s", v[i].k, v[i].n, held, held == 1 ? "" : "s",
			    why ? "NOT USABLE: " : "ok  ", why ? why : path);
		if (!why && v[i].changed)
			say(out, "  (%zu changed since: parsed again at the next open)", v[i].changed);
		if (!why && v[i].gone)
			say(out, "  (%zu gone since)", v[i].gone);
		say(out, "\n");
		first_bad = why && !nbad ? v[i].k : first_bad;
		nbad += why != NULL;
		planned += why ? v[i].planned : 0;
		h->bad += why != NULL;
		h->since += why ? 0 : v[i].changed + v[i].gone;
		h->traces += why ? 0 : v[i].traces;
		free(path);
		free(why);
	}
	if (nbad)
		say_traces_parsed(out, dir, planned, nbad, first_bad, v[0].n);
	trace_index_status_free(v, n);
	free(dir);
	unindexed_health(c, out, h, unindexed, nun);
	for (size_t i = 0; i < nun; i++)
		free(unindexed[i]);
	free(unindexed);
	h->trace_parts += n;
}

/* The ranks of a shard's n rank files (ascending ids) for `index --status`: "rank 3", "ranks 0-4",
 * "ranks 0-2,4" when ids are missing between, "ranks 0-4097 (1200 ranks)" when the list is long. */
static void shard_ranks(const struct steps_rank_file *files, size_t n, char *buf, size_t cap)
{
	if (n == 0)
		return;
	long *ids = xmalloc(n * sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = files[i].rank;
	char list[48];
	if (n == 1)
		snprintf(buf, cap, "rank %ld", ids[0]);
	else if (ranklist_format(ids, n, list, sizeof(list)))
		snprintf(buf, cap, "ranks %s", list);
	else
		snprintf(buf, cap, "ranks %ld-%ld (%zu ranks)", ids[0], ids[n - 1], n);
	free(ids);
}

void index_health_steps(const char *run_dir, FILE *out, struct index_health *h)
{
	struct steps_rank_file *files = NULL;
	size_t nfiles = index_plan(run_dir, &files);
	struct index_part_status *v = NULL;
	char *dir = index_dir_for(run_dir);
	size_t n = index_status(dir, run_dir, files, nfiles, &v);
	free(dir);
	for (size_t i = 0; i < n; i++) {
		char *path = text_sanitize_dup(v[i].path, 0);
		char *why = v[i].why ? text_sanitize_dup(v[i].why, 0) : NULL;
		char ranks[80];
		shard_ranks(files + v[i].lo, v[i].hi - v[i].lo, ranks, sizeof(ranks));
		if (v[i].lo == v[i].hi) /* index_status: it lacks nothing */
			say(out, "shard %u/%u  no rank  ok  (%u shards for %zu rank dir%s: nothing to hold)", v[i].k,
			    v[i].n, v[i].n, nfiles, nfiles == 1 ? "" : "s");
		else
			say(out, "shard %u/%u  %s  %s%s", v[i].k, v[i].n, ranks, why ? "NOT USABLE: " : "ok  ",
			    why ? why : path);
		if (!why && v[i].deltas)
			say(out, "  + %zu delta%s", v[i].deltas, v[i].deltas == 1 ? "" : "s");
		if (!why && v[i].unused_deltas)
			say(out, "  (%zu delta file%s not used: damaged, out of sequence or after a missing one; "
			    "the next open drops %s and reads %s records from the JSONL)", v[i].unused_deltas,
			    v[i].unused_deltas == 1 ? "" : "s", v[i].unused_deltas == 1 ? "it" : "them",
			    v[i].unused_deltas == 1 ? "its" : "their");
		if (!why && v[i].grown)
			say(out, "  (%zu rank%s grew since: the new records are read at the next open)", v[i].grown,
			    v[i].grown == 1 ? "'s steps.jsonl" : "s' steps.jsonl");
		say(out, "\n");
		h->steps_bad_k = why && !h->steps_bad ? v[i].k : h->steps_bad_k;
		h->steps_n = v[i].n;
		h->bad += why != NULL;
		h->steps_bad += why != NULL;
		h->sharded |= v[i].n > 1;
		h->since += why ? 0 : v[i].deltas + v[i].grown + v[i].unused_deltas;
		h->ranks += why ? 0 : v[i].hi - v[i].lo;
		free(path);
		free(why);
	}
	index_status_free(v, n);
	h->parts += n;
	h->rank_dirs += index_plan_rank_dirs(run_dir, files, nfiles);
	steps_rank_files_free(files);
}

/* The summary is made from every part: with one not usable it is not usable either,
 * however well it matches them; an open rebuilds a whole index but no shard (their ranks
 * are read from the JSONL at each open). */
void index_health_summary(const char *run_dir, const struct index_health *h)
{
	const char *why = steps_summary_state(run_dir);
	char *dir = index_dir_for(run_dir);
	char *safe = text_sanitize_dup(dir, 0);
	if (h->steps_bad && !h->sharded)
		printf("summary  not usable: made from the part above, which is not; the next open rebuilds "
		       "both\n");
	else if (h->steps_bad) {
		printf("summary  not usable: it needs every shard; each open reads the ranks of the shards not "
		       "usable from the JSONL and computes the analyses (");
		say_rebuild(stdout, dir, h->steps_bad_k, h->steps_bad, h->steps_n);
		printf(")\n");
	} else if (why && steps_summary_delta_current(run_dir))
		printf("summary  ok  %s/summary.tsx + summary-delta.tsx (a follower's: an open uses both)\n", safe);
	else if (why && access(dir, W_OK) != 0)
		printf("summary  not current (%s): each open computes the analyses from the parts (this user "
		       "cannot write the index; `tscope-tui index` builds one in the cache)\n", why);
	else if (why)
		printf("summary  not current (%s): an open computes the analyses from the parts and writes it; "
		       "`tscope-tui index` does so now\n", why);
	else
		printf("summary  ok  %s/summary.tsx\n", safe);
	free(safe);
	free(dir);
}

/* A trace part without steps parts: an open that parsed 64 MiB of traces writes those alone. */
void index_health_unindexed_steps(const char *run_dir, struct index_health *h)
{
	char *dir = index_dir_for(run_dir);
	if (!h->parts && h->rank_dirs && index_holds_parts(dir)) {
		printf("steps: no part (%zu rank%s not indexed: each open reads %s from the JSONL; `tscope-tui "
		       "index` indexes %s)\n", h->rank_dirs, h->rank_dirs == 1 ? "" : "s",
		       h->rank_dirs == 1 ? "it" : "them", h->rank_dirs == 1 ? "it" : "them");
		h->bad++;
	}
	free(dir);
}

/* "8 ranks", "2 traces", "8 ranks, 2 traces" of what an index gives an open. */
static void cover_text(const struct index_cover *v, char *buf, size_t cap)
{
	if (v->traces && v->ranks)
		snprintf(buf, cap, "%zu rank%s, %zu trace%s", v->ranks, v->ranks == 1 ? "" : "s", v->traces,
			 v->traces == 1 ? "" : "s");
	else if (v->traces)
		snprintf(buf, cap, "%zu trace%s", v->traces, v->traces == 1 ? "" : "s");
	else
		snprintf(buf, cap, "%zu rank%s", v->ranks, v->ranks == 1 ? "" : "s");
}

void index_health_other_place(const char *run_dir)
{
	struct index_cover read, unread;
	char *other = index_dir_unread(run_dir, &read, &unread);
	if (!other)
		return;
	char *own = xasprintf("%s/.tscope-index", run_dir), *safe = text_sanitize_dup(other, 0);
	char r[80], u[80];
	cover_text(&read, r, sizeof(r));
	cover_text(&unread, u, sizeof(u));
	if (strcmp(other, own) == 0)
		printf("also: the run dir's index %s is not read here: this user's cache above gives an open as much "
		       "of the run or more (%s, against %s there; the parts of the two are never combined)\n", safe, r,
		       u);
	else
		printf("also: this user's cache %s is not read here: the run dir's index above gives an open more of "
		       "the run (%s, against %s there; the parts of the two are never combined)\n", safe, r, u);
	free(safe);
	free(own);
	free(other);
}

/* The steps part of shard K/N in dir: usable with nothing since, or none to hold (no
 * rank dir in it). Only that part is read. *ranks: its ranks. */
static bool shard_steps_current(const struct index_cli *c, const char *dir, size_t *ranks)
{
	struct steps_rank_file *files = NULL;
	size_t nf = index_plan(c->run_dir, &files), lo, hi;
	index_shard_slice(nf, c->shard_k, c->shard_n, &lo, &hi);
	bool found = false, none = !index_plan_rank_dirs(c->run_dir, files, nf) || lo == hi;
	bool sharded = !none && index_newest_count(dir, "steps", &found) == c->shard_n;
	struct index_part_status p = { 0 };
	if (sharded)
		index_part_state(dir, c->run_dir, files, nf, c->shard_k, c->shard_n, &p);
	*ranks = none ? 0 : hi - lo;
	bool current = none || (sharded && !p.why && !p.deltas && !p.unused_deltas && !p.grown);
	free(p.path);
	free(p.why);
	steps_rank_files_free(files);
	return current;
}

/* The trace part of shard K/N in dir: usable with nothing since (no trace of the shard
 * changed, gone or not in it), or none to hold. Only that part is read. *traces: the
 * traces it holds. */
static bool shard_traces_current(const struct index_cli *c, const char *dir, size_t *traces)
{
	bool found = false;
	*traces = 0;
	if (trace_index_shard_empty(c->run_dir, c->shard_k, c->shard_n))
		return true;
	if (index_newest_count(dir, "traces", &found) != c->shard_n)
		return false;
	struct trace_part_status p;
	trace_index_part_state(dir, c->run_dir, c->shard_k, c->shard_n, &p);
	bool current = !p.why && !p.changed && !p.gone && !p.added;
	*traces = p.traces;
	free(p.path);
	free(p.why);
	return current;
}

bool index_health_shard_current(const struct index_cli *c, const char *dir, size_t *ranks, size_t *traces)
{
	bool steps = shard_steps_current(c, dir, ranks);
	bool traced = shard_traces_current(c, dir, traces);   /* both: each sets its count */
	return steps && traced;
}
