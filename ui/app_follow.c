/* SPDX-License-Identifier: MIT */
/* app_follow.c: follow mode: polling the job, scheduling polls and catch-ups by their
 * CPU cost, refreshing the panes when the run grew, and the F / R keys (see app.h; R
 * reads step logs: it says so of a trace that appeared while following). */
#include "ui/app.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/stats.h"
#include "model/steps/follow.h"
#include "model/steps/analysis.h"
#include "model/text.h"
#include "ui/app_internal.h"

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The run grew: every opened pane is stale; the current one rebuilds now (its rebuild
 * op keeps cursor, scroll, sort and filter; without one it reopens), a hidden one when
 * it is next shown (app_pane_priv), so hidden panes cost nothing while following. */
static void refresh_panes(struct app *app)
{
	for (size_t i = 0; i < app->npane; i++)
		app->pane[i].stale = app->pane[i].opened;
	app_pane_priv(app, app->cur);
	app_strag_forget(app);
}

/* The held analyses are recomputed at most every CATCH_UP_FACTOR x their CPU cost, and
 * not within CATCH_UP_IDLE seconds of a key (a catch-up of a long run takes a second or
 * two of CPU: keys keep their usual answer time while the user works). */
enum { CATCH_UP_FACTOR = 40, POLL_FACTOR = 25 };
#define CATCH_UP_IDLE 2.0

/* Bytes one poll reads at most (follow_opts.slice): a big append (the first poll after
 * a long pause, a job that wrote thousands of steps) is read in slices of about 20 ms
 * of parsing, with the keys handled between them; TSCOPE_FOLLOW_SLICE (bytes) sets it
 * for tests. */
#define FOLLOW_SLICE ((long long)16 << 20)

static long long follow_slice(void)
{
	const char *e = getenv("TSCOPE_FOLLOW_SLICE");
	long long v = e && *e ? atoll(e) : 0;
	return v > 0 ? v : FOLLOW_SLICE;
}

/* Between the start of a catch-up on the worker and its result, every
 * RECOMPUTE_CHECK seconds: is it done? (No poll meanwhile: the step model stays as the
 * worker reads it.) */
#define RECOMPUTE_CHECK 0.05

/* The worker's result replaced the held analyses: the panes show it. It covers the
 * records read when it started, so their age counts from then. */
static void recompute_published(struct app *app, double now)
{
	double wait = CATCH_UP_FACTOR * (cpu_seconds() - app->recompute_cpu0);
	double interval = follow_interval(app->follow);
	app->caught_up_t = app->recompute_t0;
	app->next_catch_up = now + (wait > interval ? wait : interval);
	app->next_poll = now;
	refresh_panes(app);
}

/* A catch-up on the worker runs: publish it when done, else check again soon. */
static unsigned recompute_check(struct app *app, double now)
{
	if (analysis_recompute_publish(app->run)) {
		recompute_published(app, now);
		return PR_REDRAW;
	}
	app->next_poll = now + RECOMPUTE_CHECK;
	return 0;
}

/* Catch up: at once when asked (R, the first poll), else on the worker (keys are
 * answered from the held analyses meanwhile, marked "updating"). */
static void catch_up_now(struct app *app, bool asked, double now)
{
	if (!asked && analysis_recompute_start(app->run)) {
		app->recompute_cpu0 = cpu_seconds();
		app->recompute_t0 = now;
		return;
	}
	analysis_catch_up(app->run);
	app->caught_up_t = now;
}

static unsigned poll_now(struct app *app, bool catch_up)
{
	double c0 = cpu_seconds(), now = follow_clock();
	if (analysis_recompute_running(app->run)) {
		if (!catch_up)
			return recompute_check(app, now);
		analysis_recompute_wait(app->run);   /* R: everything current, at once */
		recompute_published(app, now);
	}
	app_stop_work(app);   /* the model changes under a pane's work off the UI thread */
	if (!app->follow) {
		struct follow_opts fo = { .interval = app->opts->interval, .stall_floor = app->opts->stall_floor,
					  .slice = follow_slice(), .summary_at_stop = true };
		app->follow = follow_new(app->run, app->opts->paths, app->opts->npaths, &fo, now);
		analysis_allow_lag(app->run, true);
		app->caught_up_t = app->next_catch_up = now;
		catch_up = true;   /* the first poll rebuilds everything: a catch-up's cost */
	}
	unsigned ch = follow_poll(app->follow, now);
	/* while a big append is read in slices the analyses wait for its end */
	bool behind = follow_behind(app->follow, NULL);
	app->catch_up_due = behind && (catch_up || app->catch_up_due);
	app->poll_caught_up = !behind && (catch_up || app->catch_up_due ||
					  (analysis_lagging(app->run) && now >= app->next_catch_up &&
					   now - app->key_t >= CATCH_UP_IDLE));
	if (app->poll_caught_up)
		catch_up_now(app, catch_up, now);
	if (analysis_recompute_running(app->run))
		app->poll_caught_up = false;   /* scheduled when its result is published */
	if (ch || app->poll_caught_up)
		refresh_panes(app);
	if (ch & FOLLOW_RELOADED) {
		char *safe = text_sanitize_dup(follow_last_event(app->follow), 0);
		app_msg(app, false, "%s", safe);
		free(safe);
	}
	app->poll_t = now;
	app->poll_cpu0 = c0;
	app->poll_open = true;
	app_poll_end(app);   /* a schedule now; the frame refines it */
	app->poll_open = true;
	return PR_REDRAW;
}

unsigned app_poll(struct app *app)
{
	return poll_now(app, false);
}

void app_poll_end(struct app *app)
{
	if (!app->poll_open || !app->follow)
		return;
	app->poll_open = false;
	app->poll_cost = cpu_seconds() - app->poll_cpu0;
	double interval = follow_interval(app->follow);
	if (analysis_recompute_running(app->run)) {   /* the worker's CPU is not the poll's */
		app->next_poll = app->poll_t + RECOMPUTE_CHECK;
		return;
	}
	if (follow_behind(app->follow, NULL)) {   /* the next slice at once, after the keys */
		app->next_poll = app->poll_t;
		return;
	}
	if (app->poll_caught_up) {
		double wait = CATCH_UP_FACTOR * app->poll_cost;
		app->next_catch_up = app->poll_t + (wait > interval ? wait : interval);
		app->next_poll = app->poll_t + interval;
		return;
	}
	/* the median of the last polls: one that rebuilt a pane (a reload) is an outlier */
	app->fast_cost[app->nfast++ % APP_FAST_POLLS] = app->poll_cost;
	size_t n = app->nfast < APP_FAST_POLLS ? app->nfast : APP_FAST_POLLS;
	double v[APP_FAST_POLLS];
	memcpy(v, app->fast_cost, n * sizeof(*v));
	double period = POLL_FACTOR * stats_median(v, n);
	app->next_poll = app->poll_t + (period > interval ? period : interval);
}

int app_poll_wait_ms(const struct app *app)
{
	if (!app->following || !app->follow)
		return -1;
	double ms = (app->next_poll - follow_clock()) * 1e3;
	return ms <= 0 ? 0 : ms > 60000 ? 60000 : (int)ms + 1;
}

unsigned app_follow_key(struct app *app, bool toggle)
{
	if (app->cmp) {   /* nothing is read: say so, not "paused" or "read" */
		app->following = false;
		app_msg(app, true, "follow mode follows one run, not a comparison");
		return PR_REDRAW;
	}
	if (!follow_applies(app->run)) {
		app_msg(app, true, "nothing to follow: F and R read pytscope step logs; this run's files are written "
			"whole (traces, sweeps, sizing, Cerebras, DASF)");
		return PR_REDRAW;
	}
	if (toggle)
		app->following = !app->following;
	if (!toggle || app->following)
		poll_now(app, !toggle);   /* R: everything current, held analyses too */
	else if (analysis_lagging(app->run)) {   /* paused: one consistent picture */
		analysis_catch_up(app->run);   /* (a worker's result, when one runs) */
		app->caught_up_t = follow_clock();
		refresh_panes(app);
	}
	size_t traces = app->follow ? follow_new_traces(app->follow) : 0;
	if (!toggle && traces)   /* R reads step logs: a trace that appeared waits for a reopen */
		app_msg(app, false, "read what was written since (R); %s; %zu trace%s appeared while following, not "
			"read: open the run again to read %s", app->following ? "following" : "F follows", traces,
			traces == 1 ? "" : "s", traces == 1 ? "it" : "them");
	else if (!toggle)
		app_msg(app, false, "read what was written since (R); %s", app->following ? "following" : "F follows");
	else if (app->following)
		app_msg(app, false, "following the job: a poll every %g s (F pauses)", follow_interval(app->follow));
	else
		app_msg(app, false, "follow paused (F resumes, R reads once)");
	return PR_REDRAW;
}
