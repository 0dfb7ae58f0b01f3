/* SPDX-License-Identifier: MIT */
/* print_follow.c: --follow without a tty. Follows the job and prints each finding that
 * appears as one line, "TIME SEVERITY ID TEXT" (UTC ISO 8601 time, sanitized text), for
 * a cron job or a chat alert, until the job finishes (exit 0) or a signal stops it
 * (SIGINT/SIGTERM: exit 128 + signal); a followed sweep has no end of its own (a signal
 * ends it), and each of its reloads is a line with their count. The live findings
 * (stalled ranks, reloads) are judged on every poll, polls at most every max(interval,
 * 25 x the median CPU time of the last five polls), as the explorer's (ui/app_follow.c),
 * so that a tiny --interval does not spin a core; the other rules re-run at most every
 * max(interval, 50 x the CPU time of their last run) so that following a large job
 * stays cheap. A line on stderr says at the start what the lines will be (a job's
 * findings until it finishes, a sweep's reloads until a signal, or that the PATHs hold
 * nothing yet), and again when PATHs that held nothing come to hold a job or a sweep.
 * A finding said before whose severity rises above the highest said for it (med ->
 * high) is a line again, its text ending "(severity rose from med)"; one that falls
 * says nothing.
 * Records skipped (garbage lines) are lines in the same format too, LIVE.SKIPPED, med:
 * first what the load skipped, then what each poll did, one line per file with its first
 * skipped line's diagnostic, at most SKIP_LINES_MAX a poll and the rest in a count; the
 * caller says the data-quality line at the end (src/main.c). */
#include "src/print.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/stats.h"
#include "model/steps/follow.h"
#include "model/text.h"
#include "model/xalloc.h"

static volatile sig_atomic_t stop_signal;
static int write_err; /* errno of the first failed line */

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* Identity of a finding across polls: its id and evidence (not its text, whose "ago"
 * figures change, nor its severity, which may rise: said apart); a reload's text too, as
 * a sweep's reloads are counted in one entry ("reloaded 3 times"): each count is a line. */
static char *finding_key(const struct finding *f)
{
	bool reload = strcmp(f->id, "LIVE.RELOADED") == 0;
	return xasprintf("%s|%d|%ld|%ld|%s", f->id, f->ev.rank, f->ev.step_lo, f->ev.item, reload ? f->title : "");
}

/* The findings said: each key with the highest severity said for it. */
struct said {
	char *key;
	enum severity sev;
};

struct keyset {
	struct said *v;
	size_t n, cap;
};

/* The severity said for k, or -1 when k was not said. */
static int keyset_sev(const struct keyset *s, const char *k)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].key, k) == 0)
			return (int)s->v[i].sev;
	return -1;
}

static void keyset_add(struct keyset *s, char *k, enum severity sev)
{
	xgrow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = (struct said){ k, sev };
}

static void keyset_free(struct keyset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "TIME SEVERITY ID TEXT"; flags: the sanitizer's (TEXT_ASCII for an ASCII report,
 * print_opts_of). */
static void print_line(FILE *out, enum severity sev, const char *id, const char *text, unsigned flags)
{
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	char *safe = text_sanitize_dup(text, flags);
	errno = 0;
	if ((fprintf(out, "%s %s %s %s\n", when, severity_name(sev), id, safe) < 0 ||
	     fflush(out) != 0) && !write_err)
		write_err = errno ? errno : EIO;
	free(safe);
}

/* Print the findings of l not in prev, and those of prev whose severity rose above the
 * one said (SEV_HIGH is the lowest value); their keys go to cur with the highest severity
 * said. live: only LIVE.* ones, else only the others (run_findings() holds copies of the
 * live ones). */
static void report(FILE *out, unsigned flags, const struct finding_list *l, bool live, const struct keyset *prev,
		   struct keyset *cur)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct finding *f = &l->v[i];
		if ((strncmp(f->id, "LIVE.", 5) == 0) != live)
			continue;
		char *k = finding_key(f);
		int said = keyset_sev(prev, k);
		if (said < 0) {
			print_line(out, f->severity, f->id, f->title, flags);
		} else if ((int)f->severity < said) {
			char *text = xasprintf("%s (severity rose from %s)", f->title, severity_name((enum severity)said));
			print_line(out, f->severity, f->id, text, flags);
			free(text);
		}
		keyset_add(cur, k, said >= 0 && said < (int)f->severity ? (enum severity)said : f->severity);
	}
}

#define SKIP_LINES_MAX 4

/* The records skipped said so far: by source slot, with the source's path hash (a slot
 * whose source was removed can hold another one later), and the first diagnostic not
 * looked at yet (its seq). */
struct skip_seen {
	size_t skipped;
	uint64_t path_hash;
};

struct skip_watch {
	struct skip_seen *v;
	size_t n, cap;
	size_t seq;
};

static void skip_watch_free(struct skip_watch *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* The first "line skipped" diagnostic about source s added as seq or later, or NULL. */
static const struct diag *first_skip(const struct run *run, const struct source *s, size_t seq)
{
	for (size_t i = diag_since(&run->diags, seq); i < run->diags.n; i++) {
		const struct diag *d = &run->diags.v[i];
		if (d->rank == s->rank && d->file && strcmp(d->file, s->path) == 0 &&
		    strncmp(d->msg, "line skipped", strlen("line skipped")) == 0)
			return d;
	}
	return NULL;
}

/* "rank 1: 1 record skipped (r/rank1/steps.jsonl:24: line skipped: truncated JSON)". */
static void say_skipped(FILE *out, unsigned flags, const struct run *run, const struct source *s, size_t k,
			size_t seq)
{
	char *who = s->rank >= 0 ? xasprintf("rank %d", s->rank) : xstrdup(s->path);
	const struct diag *d = first_skip(run, s, seq);
	char where[1024] = "";
	if (d)
		diag_format(d, where, sizeof(where));
	char *text = d ? xasprintf("%s: %zu record%s skipped (%s%s)", who, k, k == 1 ? "" : "s",
				   k == 1 ? "" : "the first: ", where)
		       : xasprintf("%s: %zu record%s skipped; see --export sources", who, k, k == 1 ? "" : "s");
	print_line(out, SEV_MED, "LIVE.SKIPPED", text, flags);
	free(text);
	free(who);
}

/* Say the records skipped since the last look (the first look: the load's). A count that
 * fell (the file read again from its start) counts from there. */
static void report_skipped(FILE *out, unsigned flags, const struct run *run, struct skip_watch *w)
{
	size_t said = 0, more = 0, files = 0;
	for (size_t i = 0; i < run->nsrc; i++) {
		const struct source *s = &run->src[i];
		size_t before = i < w->n && w->v[i].path_hash == s->path_hash ? w->v[i].skipped : 0;
		if (s->skipped < before) /* the file read again from its start: its count starts over */
			before = 0;
		if (s->skipped <= before)
			continue;
		if (said < SKIP_LINES_MAX) {
			say_skipped(out, flags, run, s, s->skipped - before, w->seq);
			said++;
		} else {
			more += s->skipped - before;
			files++;
		}
	}
	if (files) {
		char *text = xasprintf("%zu more record%s skipped in %zu more file%s; see --export sources", more,
				       more == 1 ? "" : "s", files, files == 1 ? "" : "s");
		print_line(out, SEV_MED, "LIVE.SKIPPED", text, flags);
		free(text);
	}
	xgrow((void **)&w->v, &w->cap, run->nsrc, sizeof(*w->v));
	for (size_t i = 0; i < run->nsrc; i++)
		w->v[i] = (struct skip_seen){ run->src[i].skipped, run->src[i].path_hash };
	w->n = run->nsrc;
	w->seq = run->diags.added;
}

/* What the PATHs hold for the follower: nothing yet, a job's step logs, or a sweep. */
enum follow_kind { KIND_NONE, KIND_JOB, KIND_SWEEP };

static enum follow_kind follow_kind_of(const struct run *run)
{
	if (run->sweep)
		return KIND_SWEEP;
	for (size_t i = 0; i < run->nsrc; i++)
		if (strcmp(run->src[i].format, "pytscope") == 0)   /* step logs, or run.json before them */
			return KIND_JOB;
	return KIND_NONE;
}

/* What the lines will be, on stderr: at the start ("following every 1 s; ..."), and
 * again when PATHs that held nothing come to hold a job or a sweep, which never finishes. */
static void say_kind(enum follow_kind k, bool start, double interval)
{
	static const char *const says[] = {
		[KIND_NONE] = "nothing here yet: waiting for a job's step records or a sweep",
		[KIND_JOB] = "a job: one line per new finding until it finishes",
		[KIND_SWEEP] = ("a sweep: one line per reload or new finding until SIGINT or SIGTERM "
				"(a sweep never finishes)"),
	};
	if (start)
		fprintf(stderr, "tscope-tui: following every %g s; %s\n", interval, says[k]);
	else
		fprintf(stderr, "tscope-tui: now following %s\n", says[k]);
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Polls are POLL_FACTOR x the median CPU time of the last FAST_POLLS apart at least. */
enum { POLL_FACTOR = 25, FAST_POLLS = 5 };

/* The CPU time of the last FAST_POLLS polls (the rules' runs left out: scheduled apart). */
struct poll_costs {
	double v[FAST_POLLS];
	size_t n;
};

/* Seconds from this poll's start to the next's: max(interval, POLL_FACTOR x the median
 * CPU time of the last polls, this one's cost included). */
static double poll_period(struct poll_costs *pc, double cost, double interval)
{
	pc->v[pc->n++ % FAST_POLLS] = cost;
	double buf[FAST_POLLS];
	double period = POLL_FACTOR * stats_median_buf(pc->v, pc->n < FAST_POLLS ? pc->n : FAST_POLLS, buf);
	return period > interval ? period : interval;
}

static void sleep_until(double when)
{
	double d = when - follow_clock();
	if (d <= 0)
		return;
	struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };
	nanosleep(&ts, NULL);   /* a signal ends it early */
}

int print_follow(struct run *run, const char *const *paths, size_t npaths, const struct opts *o, FILE *out)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct follow_opts fo = { .interval = o->interval, .stall_floor = o->stall_floor };
	double now = follow_clock();
	struct follow *f = follow_new(run, paths, npaths, &fo, now);
	enum follow_kind kind = follow_kind_of(run);
	say_kind(kind, true, follow_interval(f));
	struct keyset prev = { 0 }, rules = { 0 };
	struct skip_watch skips = { 0 };
	double next_rules = now, tick = now;
	struct poll_costs costs = { 0 };
	bool dirty = true;
	int rc = 0;
	unsigned flags = print_opts_of(o, fileno(out)).ascii ? TEXT_ASCII : 0;
	while (!stop_signal && !write_err) {
		double poll_c0 = cpu_seconds(), rules_cost = 0;
		now = follow_clock();
		dirty |= (follow_poll(f, now) & (FOLLOW_GREW | FOLLOW_RELOADED)) != 0;
		if (kind == KIND_NONE && follow_kind_of(run) != KIND_NONE) {
			kind = follow_kind_of(run);
			say_kind(kind, false, 0);
		}
		report_skipped(out, flags, run, &skips);
		struct keyset cur = { 0 };
		report(out, flags, follow_findings(f), true, &prev, &cur);
		if (dirty && now >= next_rules) {
			double c0 = cpu_seconds();
			struct keyset fresh = { 0 };
			report(out, flags, run_findings(run), false, &rules, &fresh);
			keyset_free(&rules);
			rules = fresh;
			rules_cost = cpu_seconds() - c0;
			next_rules = now + (50 * rules_cost > fo.interval ? 50 * rules_cost : 0);
			dirty = false;
		}
		for (size_t i = 0; i < rules.n; i++)
			keyset_add(&cur, xstrdup(rules.v[i].key), rules.v[i].sev);
		keyset_free(&prev);
		prev = cur;
		if (follow_state(f) == FOLLOW_FINISHED)
			break;
		tick += poll_period(&costs, cpu_seconds() - poll_c0 - rules_cost, follow_interval(f));
		if (tick < now)
			tick = now;
		sleep_until(tick);
	}
	if (stop_signal)
		rc = 128 + (int)stop_signal;
	if (write_err)
		rc = print_write_failed(out, "a finding", write_err);
	keyset_free(&prev);
	keyset_free(&rules);
	skip_watch_free(&skips);
	follow_stop_index(f);
	follow_free(f);
	return rc;
}
