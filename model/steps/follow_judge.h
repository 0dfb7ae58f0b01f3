/* SPDX-License-Identifier: MIT */
/* follow_judge.h: private to the follower (load_follow.c): the stall rule of follow.h
 * applied to each followed rank's state at one poll, giving the job's state and the live
 * findings (follow_judge.c); the rule's median step time and a rank's usual gap between
 * its file's growths; whether a run.json read again names another run.
 *
 * Beyond follow.h's rule, the job is never called finished while it cannot be: a rank
 * followed with no step record (its file empty, absent or unreadable), a rank of
 * run.json's world_size with no rank dir, a steps.jsonl whose last line has no newline
 * (a half-written record, its writer gone once no rank advanced within T:
 * perf-reliability.md 5.5), or a rank without the finish marker (run.json n_steps:
 * pytscope writes it at finish()) while others have it keeps an idle job STALLED
 * (LIVE.JOB_STALL, naming the ranks and why). No rank with the marker, all at one step:
 * IDLE (LIVE.JOB_IDLE, low: paused, writing in bursts, or stopped without finishing),
 * never finished. While other ranks advance, a rank with no record idle for more than T
 * is stalled (LIVE.STALLED_RANK), the ranks at the front named unless all the others are;
 * a rank whose finish marker it reached (run.json n_steps, not short of it) is finished,
 * never stalled; and no rank is stalled before a file was seen growing while followed
 * (grown: until then how the files grow, a record or a buffer at a time, is not known). */
#ifndef MODEL_STEPS_FOLLOW_JUDGE_H
#define MODEL_STEPS_FOLLOW_JUDGE_H

#include "model/findings.h"
#include "model/steps/follow.h"
#include "model/steps/steps.h"
#include "model/summary.h"

/* One followed rank at this poll. */
struct follow_rank_now {
	int rank;
	bool has;               /* it has a step record; step is its newest */
	long step;
	double idle;            /* seconds since it last advanced (or appeared) */
	bool short_of_plan;     /* run.json n_steps says more steps should come */
	bool finished;          /* its run.json records n_steps: the finish marker */
	bool partial;           /* its steps.jsonl ends in a line without its newline */
	int err;                /* errno its steps.jsonl last failed with, 0: none */
};

struct follow_verdict {
	enum follow_state state;
	unsigned long sig;      /* signature of what the findings say (not their "ago" figures) */
};

/* Judge v[0..n) (sorted by rank) against threshold T into live (emptied first); missing:
 * the world_size ranks no rank dir gave; grown: a followed file grew while followed;
 * subset: "" or " (--ranks: ...)" when ranks are left out. stalled[i] is set for each
 * v[i] reported stalled. */
struct follow_verdict follow_judge(struct finding_list *live, const struct follow_rank_now *v, size_t n,
				   const struct summary_ids *missing, long world, double T, bool grown,
				   const char *subset, bool *stalled);

/* The stall rule's median step time: the median over m's ranks of each rank's median
 * timestamp gap over its last 16 records (a gap: between two records next to each other,
 * both with a timestamp), so one clock jump or pause among them does not set it; a rank
 * whose median gap is not above 0 is left out; fallback when no rank is left. */
double follow_step_time(const struct steps_model *m, double fallback);

/* The gaps between a file's growths kept (its last ones the follower watched). */
enum { FOLLOW_GAPS = 16 };

/* A rank's usual gap between its file's growths: the median of gap[0..n) (n may exceed
 * FOLLOW_GAPS: the ring is full), so one long pause among them does not set it; 0 when
 * n is 0. */
double follow_growth_gap(const double *gap, size_t n);

/* A run.json read again (now) names another run than the one read before (was): its
 * name or world_size differs, both read; what differs ("name 'b' (was 'a'), world_size
 * 4 (was 2)") in buf and true. */
bool follow_other_run(const struct steps_meta *was, const struct steps_meta *now, char *buf, size_t n);

#endif
