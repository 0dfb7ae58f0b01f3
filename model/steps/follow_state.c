/* SPDX-License-Identifier: MIT */
/* follow_state.c: the follower's state read back (follow.h's getters: the job's state and
 * its name, the live findings, the threshold, the newest record's age, the stalled ranks
 * counted, how far behind a sliced poll is, the last event, the traces that appeared, a
 * followed sweep's status), from follow_private.h's state that load_follow.c's polls keep. */
#include "model/steps/follow_private.h"

bool follow_behind(const struct follow *f, long long *left)
{
	if (left) {
		*left = 0;
		for (size_t i = 0; i < f->nt; i++) {
			long long seen = f->t[i].tail ? f->t[i].seen : 0;
			*left += f->t[i].size > seen ? f->t[i].size - seen : 0;
		}
	}
	return f->behind;
}

enum follow_state follow_state(const struct follow *f)
{
	return f->state;
}

const char *follow_state_name(enum follow_state s)
{
	switch (s) {
	case FOLLOW_WAITING: return "waiting";
	case FOLLOW_RUNNING: return "running";
	case FOLLOW_IDLE: return "idle";
	case FOLLOW_STALLED: return "stalled";
	case FOLLOW_FINISHED: return "finished";
	}
	return "?";
}

const struct finding_list *follow_findings(const struct follow *f)
{
	return &f->live;
}

double follow_interval(const struct follow *f)
{
	return f->o.interval;
}

double follow_threshold(const struct follow *f)
{
	return f->threshold;
}

double follow_newest_age(const struct follow *f, double now)
{
	return f->t_newest < 0 ? -1 : now - f->t_newest;
}

size_t follow_nstalled(const struct follow *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nt; i++)
		n += f->t[i].stalled;
	return n;
}

const char *follow_last_event(const struct follow *f)
{
	return f->ev.last;
}

size_t follow_new_traces(const struct follow *f)
{
	return f->ntraces - f->ndasf;
}

bool follow_sweep_status(const struct follow *f, double now, char *buf, size_t n)
{
	return follow_sweep_line(&f->sweep, f->run, now, buf, n);
}
