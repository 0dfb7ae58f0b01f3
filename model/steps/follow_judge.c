/* SPDX-License-Identifier: MIT */
/* follow_judge.c: the follower's stall rule (follow_judge.h, follow.h STALL RULE): from
 * each followed rank's newest step, idle time, finish marker and file state, the job's
 * state (running, idle, stalled, finished) and the live findings that say so; the rule's median step time
 * and a rank's usual gap between its file's growths; whether a run.json read again names another run. */
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
 * step record; ..." in buf ("" when nothing does); some_marked: some rank with records
 * has its finish marker, so those without it are named. Returns a signature of it. */
static unsigned long unfinished(const struct follow_rank_now *v, size_t n, const struct summary_ids *missing,
				long world, bool some_marked, char *buf, size_t len)
{
	struct summary_ids none = { .n = 0 }, unread = { .n = 0 }, part = { .n = 0 }, unmarked = { .n = 0 };
	unsigned long sig = missing->n;
	for (size_t i = 0; i < n; i++) {
		bool no_mark = some_marked && v[i].has && !v[i].finished;
		if (!v[i].has)
			summary_ids_add(v[i].err ? &unread : &none, v[i].rank);
		else if (v[i].partial)
			summary_ids_add(&part, v[i].rank);
		if (no_mark)
			summary_ids_add(&unmarked, v[i].rank);
		if (!v[i].has || v[i].partial || no_mark)
			sig = sig * 31 + (unsigned long)v[i].rank * 4 + v[i].partial * 2 + no_mark + 1;
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
	clause(buf, len, &used, &unmarked, "has no run.json with n_steps", "have no run.json with n_steps");
	return sig;
}

/* Who is at front (the newest step of the advancing ranks), for a rank behind it: "the
 * others are at 121" when every other rank is, else "rank 0 is at 121", "ranks 0, 4 are
 * at 121". */
static void front_text(const struct follow_rank_now *v, size_t n, long front, char *buf, size_t len)
{
	struct summary_ids at = { .n = 0 };
	for (size_t i = 0; i < n; i++)
		if (v[i].has && v[i].step == front)
			summary_ids_add(&at, v[i].rank);
	if (at.n + 1 == n)
		snprintf(buf, len, "the others are at %ld", front);
	else
		snprintf(buf, len, "rank%s %s%s %s at %ld", at.n == 1 ? "" : "s", at.text, summary_ids_more(&at),
			 at.n == 1 ? "is" : "are", front);
}

/* Some ranks advance (the newest step of those is front): the others idle for more than
 * T and behind are stalled, unless finished (the finish marker at its last step) or none
 * is judged yet (!grown). Returns a signature of them. */
static unsigned long judge_running(struct finding_list *live, const struct follow_rank_now *v, size_t n,
				   size_t nadv, long front, double T, bool grown, bool *stalled)
{
	char title[400], detail[512], ahead[SUMMARY_TEXT + 64];
	front_text(v, n, front, ahead, sizeof(ahead));
	unsigned long sig = 0;
	for (size_t i = 0; i < n && grown; i++) {
		if (v[i].idle <= T || (v[i].has && v[i].step >= front) || (v[i].finished && !v[i].short_of_plan))
			continue;
		if (v[i].has)
			snprintf(title, sizeof(title), "rank %d stopped at step %ld, %.0f s ago; %s", v[i].rank, v[i].step,
				 v[i].idle, ahead);
		else
			snprintf(title, sizeof(title), "rank %d has written no step record in %.0f s; %s", v[i].rank,
				 v[i].idle, ahead);
		snprintf(detail, sizeof(detail),
			 "No new record from rank %d for %.0f s while %zu of %zu ranks advanced (threshold %.1f s "
			 "= max(10 x median step time, 2 x the ranks' usual gap between file growths, --stall "
			 "floor)).", v[i].rank, v[i].idle, nadv, n, T);
		add_live(live, "LIVE.STALLED_RANK", SEV_HIGH, v[i].rank, v[i].has ? v[i].step : -1, title, detail,
			 "Look at that rank's node: a hung collective, a dead process, a full disk or a lost mount.");
		stalled[i] = true;
		sig = sig * 31 + (unsigned long)v[i].rank + 1;
	}
	return sig;
}

/* The newest steps of the ranks with records (lowest, highest) and the least idle time. */
struct span {
	long lo, hi;
	double idle;
};

static struct span span_of(const struct follow_rank_now *v, size_t n)
{
	struct span s = { 0, 0, 0 };
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].has)
			continue;
		s.lo = first || v[i].step < s.lo ? v[i].step : s.lo;
		s.hi = first || v[i].step > s.hi ? v[i].step : s.hi;
		s.idle = first || v[i].idle < s.idle ? v[i].idle : s.idle;
		first = false;
	}
	return s;
}

/* Every rank has its finish marker (run.json n_steps), none short of it, no rank
 * advanced within T: finished, at one step or (uneven ends) between two. */
static void judge_finished(struct finding_list *live, const struct follow_rank_now *v, size_t n,
			   const char *subset)
{
	struct span s = span_of(v, n);
	char title[320];
	if (s.lo != s.hi && subset[0])
		snprintf(title, sizeof(title), "the ranks followed finished: all %zu wrote run.json with n_steps; they "
			 "stopped between steps %ld and %ld%s", n, s.lo, s.hi, subset);
	else if (s.lo != s.hi)
		snprintf(title, sizeof(title), "job finished: all %zu ranks wrote run.json with n_steps; they stopped "
			 "between steps %ld and %ld", n, s.lo, s.hi);
	else if (subset[0] && n == 1)   /* the ranks left out are not watched: no word on the whole job */
		snprintf(title, sizeof(title), "the rank followed finished: it stopped at step %ld%s", s.lo, subset);
	else if (subset[0])
		snprintf(title, sizeof(title), "the ranks followed finished: all %zu stopped at step %ld%s", n, s.lo,
			 subset);
	else if (n == 1)
		snprintf(title, sizeof(title), "job finished: the rank stopped at step %ld", s.lo);
	else
		snprintf(title, sizeof(title), "job finished: all %zu ranks stopped at step %ld", n, s.lo);
	add_live(live, "LIVE.FINISHED", SEV_LOW, -1, -1, title, s.lo != s.hi ?
		 "Every rank wrote its run.json with n_steps (pytscope writes it at finish()), none stopped short of "
		 "it, and none advanced within the stall threshold: a finish, not a stall. The ranks ended at "
		 "different steps, each at its own end (uneven data shards, a DDP join)." :
		 "Every rank wrote its run.json with n_steps (pytscope writes it at finish()), stopped at the same "
		 "step and none advanced within the stall threshold: a finish, not a stall.", "");
}

/* No rank advanced within T, every rank at one step, none with its finish marker: not
 * finished, and nothing says it is stalled either (low; following goes on). */
static void judge_idle(struct finding_list *live, const struct follow_rank_now *v, size_t n, double T,
		       const char *subset)
{
	struct span s = span_of(v, n);
	char title[480], which[48], detail[512];
	if (n == 1)
		snprintf(which, sizeof(which), "the rank");
	else
		snprintf(which, sizeof(which), "all %zu ranks", n);
	snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s; %s at step %ld, no run.json with n_steps "
		 "yet (a finished pytscope job writes one): paused, still writing in bursts, or stopped without "
		 "finishing%s", subset[0] ? "the ranks followed idle" : "job idle", s.idle, which, s.lo, subset);
	snprintf(detail, sizeof(detail),
		 "No rank wrote a record within the stall threshold (%.1f s) and every rank is at the same step, but "
		 "no rank has written its run.json with n_steps, which pytscope writes at finish(): the job may be "
		 "paused (a checkpoint, an evaluation), writing its records in bursts (pytscope flushes every 200 "
		 "records), or stopped without finishing (killed, or crashed at that step). Following goes on.", T);
	add_live(live, "LIVE.JOB_IDLE", SEV_LOW, -1, -1, title, detail,
		 "Wait: a job that goes on writes records again, one that finishes writes run.json. If neither comes, "
		 "look at the job's processes and the scheduler.");
}

/* No rank advanced within T, and the ranks did not stop together at the planned end or
 * something keeps the job from being finished (why: "; rank 3 ...", or ""). */
static void judge_stalled(struct finding_list *live, const struct follow_rank_now *v, size_t n, const char *why,
			  const char *subset)
{
	struct span s = span_of(v, n);
	const char *who = subset[0] ? "the ranks followed stalled" : "job stalled";
	char title[1024];
	if (why[0] && s.lo == s.hi)
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s%s; the ranks with records stopped at "
			 "step %ld%s", who, s.idle, why, s.lo, subset);
	else if (why[0])
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s%s; the ranks with records stopped "
			 "between steps %ld and %ld%s", who, s.idle, why, s.lo, s.hi, subset);
	else if (s.lo == s.hi)
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s, all at step %ld (run.json n_steps "
			 "not reached)%s", who, s.idle, s.lo, subset);
	else
		snprintf(title, sizeof(title), "%s: no rank advanced for %.0f s; ranks stopped between steps %ld "
			 "and %ld%s", who, s.idle, s.lo, s.hi, subset);
	if (why[0])
		add_live(live, "LIVE.JOB_STALL", SEV_HIGH, -1, -1, title,
			 "No rank wrote a record within the stall threshold, but the job is not finished: a finished "
			 "job has a step record and a run.json with n_steps from every rank of its world_size, and "
			 "every steps.jsonl ends with a newline (an unfinished last line: a record half-written when "
			 "its process died).",
			 "Look at the ranks named: a process that died before its first step, while writing a record "
			 "or before its finish, a rank that never started, a full disk or a lost mount.");
	else
		add_live(live, "LIVE.JOB_STALL", SEV_HIGH, -1, -1, title,
			 "No rank wrote a record within the stall threshold and the ranks did not stop together at the "
			 "planned end.",
			 "Check the scheduler and the ranks behind: the slowest rank usually holds the others at a "
			 "collective.");
}

struct follow_verdict follow_judge(struct finding_list *live, const struct follow_rank_now *v, size_t n,
				   const struct summary_ids *missing, long world, double T, bool grown,
				   const char *subset, bool *stalled)
{
	findings_free(live);
	long front = 0;          /* newest step of the advancing ranks */
	size_t nadv = 0, nrec = 0, nmarked = 0;
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
		nmarked += v[i].finished;
		nrec++;
	}
	struct follow_verdict out = { FOLLOW_WAITING, 0 };
	char why[768];
	if (nrec == 0)
		return out;
	if (nadv > 0) {
		out.state = FOLLOW_RUNNING;
		out.sig = judge_running(live, v, n, nadv, front, T, grown, stalled);
		return out;
	}
	/* (a rank with records and without the marker, some with it: named in why) */
	out.sig = unfinished(v, n, missing, world, nmarked > 0, why, sizeof(why));
	if (!why[0] && nmarked > 0 && !short_of_plan) {
		out.state = FOLLOW_FINISHED;
		judge_finished(live, v, n, subset);
	} else if (!why[0] && nmarked == 0 && same) {
		out.state = FOLLOW_IDLE;
		judge_idle(live, v, n, T, subset);
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

double follow_growth_gap(const double *gap, size_t n)
{
	double v[FOLLOW_GAPS];
	n = n < FOLLOW_GAPS ? n : FOLLOW_GAPS;
	memcpy(v, gap, n * sizeof(*v));
	return n ? stats_median_inplace(v, n) : 0;
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
