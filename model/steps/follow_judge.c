/* SPDX-License-Identifier: MIT */
/* follow_judge.c: the follower's stall rule (follow_judge.h, follow.h STALL RULE): from
 * each followed rank's newest step, idle time and file state, the job's state (running,
 * stalled, finished) and the live findings that say so; the rule's median step time;
 * whether a run.json read again names another run. */
#include "model/steps/follow_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stats.h"
#include "model/xalloc.h"

enum { GAP_RECORDS = 16 };   /* the records a rank's step time is taken over */

static void add_live(struct finding_list *live, const char *id, enum severity sev, int rank, long step_lo,
		     const char *title, const char *detail, const char *fix)
{
	struct evidence ev = evidence_none();
	if (rank >= 0) {
		ev.kind = EV_RANK;
		ev.rank = rank;
		ev.step_lo = step_lo;
	}
	findings_add(live, id, sev, title, detail, fix, ev);
}

/* "; rank 3 wrote ..." or "; ranks 3, 5 wrote ..." appended to buf[*used..len) when ids
 * holds any (one: one_verb, several: verb). */
static void clause(char *buf, size_t len, size_t *used, const struct summary_ids *ids, const char *one_verb,
		   const char *verb)
{
	if (!ids->n || *used >= len)
		return;
	int k = snprintf(buf + *used, len - *used, "; rank%s %s%s %s", ids->n == 1 ? "" : "s", ids->text,
			 summary_ids_more(ids), ids->n == 1 ? one_verb : verb);
	*used += k > 0 ? (size_t)k : 0;
}

/* What keeps an idle job from being finished (follow_judge.h), as "; rank 3 wrote no
 * step record; ..." in buf ("" when nothing does); returns a signature of it. */
static unsigned long unfinished(const struct follow_rank_now *v, size_t n, const struct summary_ids *missing,
				long world, char *buf, size_t len)
{
	struct summary_ids none = { .n = 0 }, unread = { .n = 0 }, part = { .n = 0 };
	unsigned long sig = missing->n;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].has)
			summary_ids_add(v[i].err ? &unread : &none, v[i].rank);
		else if (v[i].partial)
			summary_ids_add(&part, v[i].rank);
		if (!v[i].has || v[i].partial)
			sig = sig * 31 + (unsigned long)v[i].rank * 2 + v[i].partial + 1;
	}
	char world_of[64];
	snprintf(world_of, sizeof(world_of), "of world_size %ld has no rank dir", world);
	char worlds_of[64];
	snprintf(worlds_of, sizeof(worlds_of), "of world_size %ld have no rank dir", world);
	size_t used = 0;
	buf[0] = '\0';
	clause(buf, len, &used, &none, "wrote no step record", "wrote no step record");
	clause(buf, len, &used, &unread, "has no step record: its steps.jsonl cannot be read",
	       "have no step record: their steps.jsonl cannot be read");
	clause(buf, len, &used, missing, world_of, worlds_of);
	clause(buf, len, &used, &part, "left an unfinished last line", "left an unfinished last line");
	return sig;
}

/* Some ranks advance (the newest step of those is front): the others idle for more than
 * T and behind are stalled. Returns a signature of them. */
static unsigned long judge_running(struct finding_list *live, const struct follow_rank_now *v, size_t n,
				   size_t nadv, long front, double T, bool *stalled)
{
	char title[320], detail[512];
	unsigned long sig = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].idle <= T || (v[i].has && v[i].step >= front))
			continue;
		if (v[i].has)
			snprintf(title, sizeof(title), "rank %d stopped at step %ld, %.0f s ago; the others are at %ld",
				 v[i].rank, v[i].step, v[i].idle, front);
		else
			snprintf(title, sizeof(title), "rank %d has written no step record in %.0f s; the others are "
				 "at %ld", v[i].rank, v[i].idle, front);
		snprintf(detail, sizeof(detail),
			 "No new record from rank %d for %.0f s while %zu of %zu ranks advanced (threshold %.1f s "
			 "= max(10 x median step time, --stall floor)).", v[i].rank, v[i].idle, nadv, n, T);
		add_live(live, "LIVE.STALLED_RANK", SEV_HIGH, v[i].rank, v[i].has ? v[i].step : -1, title, detail,
			 "Look at that rank's node: a hung collective, a dead process, a full disk or a lost mount.");
		stalled[i] = true;
		sig = sig * 31 + (unsigned long)v[i].rank + 1;
	}
	return sig;
}

static void judge_finished(struct finding_list *live, const struct follow_rank_now *v, size_t n,
			   const char *subset)
{
	char title[320];
	if (subset[0] && n == 1)   /* the ranks left out are not watched: no word on the whole job */
		snprintf(title, sizeof(title), "the rank followed finished: it stopped at step %ld%s", v[0].step,
			 subset);
	else if (subset[0])
		snprintf(title, sizeof(title), "the ranks followed finished: all %zu stopped at step %ld%s", n,
			 v[0].step, subset);
	else if (n == 1)
		snprintf(title, sizeof(title), "job finished: the rank stopped at step %ld", v[0].step);
	else
		snprintf(title, sizeof(title), "job finished: all %zu ranks stopped at step %ld", n, v[0].step);
	add_live(live, "LIVE.FINISHED", SEV_LOW, -1, -1, title,
		 "Every rank stopped at the same step and none advanced within the stall threshold: a finish, not a "
		 "stall.", "");
}

/* No rank advanced within T, and the ranks did not stop together at the planned end or
 * something keeps the job from being finished (why: "; rank 3 ...", or ""). */
static void judge_stalled(struct finding_list *live, const struct follow_rank_now *v, size_t n, const char *why,
			  const char *subset)
{
	long lo = 0, hi = 0;
	double idle = 0;
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].has)
			continue;
		lo = first || v[i].step < lo ? v[i].step : lo;
		hi = first || v[i].step > hi ? v[i].step : hi;
		idle = first || v[i].idle < idle ? v[i].idle : idle;
		first = false;
	}
	const char *who = subset[0] ? "the ranks followed stalled" : "job stalled";
	char title[640];
	if (why[0] && lo == hi)
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s%s; the ranks with records stopped at "
			 "step %ld%s", who, idle, why, lo, subset);
	else if (why[0])
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s%s; the ranks with records stopped "
			 "between steps %ld and %ld%s", who, idle, why, lo, hi, subset);
	else if (lo == hi)
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s, all at step %ld (run.json n_steps "
			 "not reached)%s", who, idle, lo, subset);
	else
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s; ranks stopped between steps %ld "
			 "and %ld%s", who, idle, lo, hi, subset);
	if (why[0])
		add_live(live, "LIVE.JOB_STALL", SEV_HIGH, -1, -1, title,
			 "No rank wrote a record within the stall threshold, but the job is not finished: a finished "
			 "job has a step record from every rank of its world_size and every steps.jsonl ends with a "
			 "newline (an unfinished last line: a record half-written when its process died).",
			 "Look at the ranks named: a process that died before its first step or while writing a "
			 "record, a rank that never started, a full disk or a lost mount.");
	else
		add_live(live, "LIVE.JOB_STALL", SEV_HIGH, -1, -1, title,
			 "No rank wrote a record within the stall threshold and the ranks did not stop together at the "
			 "planned end.",
			 "Check the scheduler and the ranks behind: the slowest rank usually holds the others at a "
			 "collective.");
}

struct follow_verdict follow_judge(struct finding_list *live, const struct follow_rank_now *v, size_t n,
				   const struct summary_ids *missing, long world, double T, const char *subset,
				   bool *stalled)
{
	findings_free(live);
	long front = 0;          /* newest step of the advancing ranks */
	size_t nadv = 0, nrec = 0;
	bool same = true, short_of_plan = false;
	const struct follow_rank_now *any = NULL;   /* a rank with records */
	for (size_t i = 0; i < n; i++) {
		stalled[i] = false;
		if (!v[i].has)
			continue;
		if (v[i].idle <= T)
			front = nadv++ ? (v[i].step > front ? v[i].step : front) : v[i].step;
		any = any ? any : &v[i];
		same = same && v[i].step == any->step;
		short_of_plan = short_of_plan || v[i].short_of_plan;
		nrec++;
	}
	struct follow_verdict out = { FOLLOW_WAITING, 0 };
	char why[512];
	if (nrec == 0)
		return out;
	if (nadv > 0) {
		out.state = FOLLOW_RUNNING;
		out.sig = judge_running(live, v, n, nadv, front, T, stalled);
		return out;
	}
	out.sig = unfinished(v, n, missing, world, why, sizeof(why));
	if (same && !short_of_plan && !why[0]) {
		out.state = FOLLOW_FINISHED;
		judge_finished(live, any, n, subset);
	} else {
		out.state = FOLLOW_STALLED;
		judge_stalled(live, v, n, why, subset);
	}
	return out;
}

/* Rank ri's step time: the median of the timestamp gaps between its last GAP_RECORDS
 * records (those with a timestamp next to each other), so one clock jump or a pause
 * among them does not set it; false when it has no gap or the median is not above 0. */
static bool rank_step_time(const struct steps_model *m, size_t ri, double *out)
{
	size_t n = steps_nrecords(m, ri), k = 0;
	double gap[GAP_RECORDS - 1], prev = 0;
	bool had = false;   /* the record before has a timestamp, prev */
	for (size_t pos = n > GAP_RECORDS ? n - GAP_RECORDS : 0; pos < n; pos++) {
		double t;
		bool has = steps_timestamp(m, ri, pos, &t) && isfinite(t);
		if (has && had)
			gap[k++] = t - prev;
		prev = has ? t : prev;
		had = has;
	}
	*out = k ? stats_median_inplace(gap, k) : 0;
	return *out > 0;
}

double follow_step_time(const struct steps_model *m, double fallback)
{
	size_t nr = steps_nranks(m), k = 0;
	double *each = xmalloc((nr ? nr : 1) * sizeof(*each));
	for (size_t ri = 0; ri < nr; ri++)
		k += rank_step_time(m, ri, &each[k]);
	double med = k ? stats_median(each, k) : fallback;
	free(each);
	return med;
}

bool follow_other_run(const struct steps_meta *was, const struct steps_meta *now, char *buf, size_t n)
{
	bool name = (was->name || now->name) && (!was->name || !now->name || strcmp(was->name, now->name) != 0);
	bool world = was->has_world && now->has_world && was->world_size != now->world_size;
	if (!was->present || !now->present || (!name && !world))
		return false;
	int k = name ? snprintf(buf, n, "name '%.60s' (was '%.60s')", now->name ? now->name : "(none)",
				was->name ? was->name : "(none)") : 0;
	size_t used = k <= 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
	if (world)
		snprintf(buf + used, n - used, "%sworld_size %ld (was %ld)", name ? ", " : "", now->world_size,
			 was->world_size);
	return true;
}
