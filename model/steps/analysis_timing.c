/* SPDX-License-Identifier: MIT */
/* analysis_timing.c: pytscope's timing analysis of one rank (analysis.h §6.1): mean, std,
 * p50/p95 of the step time and the per-phase totals and fractions, over exact sums, and
 * the first phase value that is not a duration (their native n/a); natively records whose
 * every phase is 0 have no step time either (n/a, as their budget). Natively a record
 * without any phase (an eval record's scalars) is no step of 0 s: it is left out of the
 * steps timed (analysis.h STEPS TIMED). And the step times as pytscope's report sums
 * them, and the text of a share a rule judges, on its side of the bar (analysis.h BARS). */
#include "model/steps/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/text.h"
#include "model/xalloc.h"

static int cmp_phase(const void *a, const void *b)
{
	const struct timing_phase *x = a, *y = b;
	int i = analysis_phase_order(x->name), j = analysis_phase_order(y->name);
	if (i >= 0 || j >= 0) {
		if (i < 0)
			return 1;
		if (j < 0)
			return -1;
		return (i > j) - (i < j);
	}
	return strcmp(x->name, y->name);
}

/* ---- timing ------------------------------------------------------------------------- */

/* The timing of a rank made in pieces: begun, its records fed in ranges, finished. */
struct timing_job {
	struct analysis_job job;
	const struct steps_model *m;
	size_t ri, at;            /* at: post-warmup records fed so far */
	bool native;              /* not --compat pytscope: a record without any phase is no step */
	struct timing *t;
	int *ids;
	size_t np;
	struct stats_sum *tot;
	bool *seen;
};

static void timing_job_free(void *p)
{
	struct timing_job *j = p;
	if (!j)
		return;
	free(j->tot);
	free(j->seen);
	free(j->ids);
	analysis_timing_free(j->t);
	free(j);
}

static void *timing_begin(struct run *run, size_t ri)
{
	const struct steps_model *m = run->steps;
	size_t n_all = steps_nrecords(m, ri), w = analysis_warmup_start(run, n_all), n = n_all - w;
	struct timing_job *j = xcalloc(1, sizeof(*j));
	j->job.free = timing_job_free;
	j->m = m;
	j->ri = ri;
	j->native = !(run->opts && run->opts->compat_pytscope);
	j->t = xcalloc(1, sizeof(*j->t));
	j->t->nrec = n;
	j->t->first = w;
	j->t->bad_step = -1;
	j->t->bad_metric = -1;
	if (n == 0)
		return j;
	j->ids = xmalloc((steps_nmetrics(m) + 1) * sizeof(*j->ids));
	size_t np = j->np = analysis_phase_ids(m, j->ids);
	j->t->phase = xcalloc(np ? np : 1, sizeof(*j->t->phase));
	j->t->step_time = xmalloc(n * sizeof(*j->t->step_time));
	j->tot = xmalloc((np ? np : 1) * sizeof(*j->tot));
	j->seen = xcalloc(np ? np : 1, sizeof(*j->seen));
	for (size_t p = 0; p < np; p++)
		stats_sum_init(&j->tot[p]);
	return j;
}

/* Record pos is t's next step. */
static void timing_step_add(struct timing *t, size_t pos, double step_time)
{
	if (t->pos)
		t->pos[t->n] = pos;
	t->step_time[t->n++] = step_time;
}

/* A record without any phase is left out: from now on t keeps its steps' positions. */
static void timing_leave_out(struct timing *t)
{
	if (t->pos)
		return;
	t->pos = xmalloc(t->nrec * sizeof(*t->pos));
	for (size_t i = 0; i < t->n; i++)
		t->pos[i] = t->first + i;
}

/* Post-warmup records [at, at + k) of the rank; true when every one is in. */
static bool timing_feed(const struct steps_model *m, void *job, size_t k)
{
	struct timing_job *j = job;
	struct timing *t = j->t;
	size_t end = t->nrec - j->at < k ? t->nrec : j->at + k;
	for (size_t i = j->at; i < end; i++) {
		size_t pos = t->first + i;
		struct stats_sum st;
		stats_sum_init(&st);
		bool phased = false;
		for (size_t p = 0; p < j->np; p++) {
			double v;
			if (steps_value(m, j->ri, j->ids[p], pos, &v)) {
				if (!(v >= 0 && v < INFINITY) && t->bad_metric < 0) { /* not a duration */
					t->bad_metric = j->ids[p];
					t->bad_step = steps_step(m, j->ri, pos);
					t->bad_value = v;
				}
				stats_sum_add(&st, v);
				stats_sum_add(&j->tot[p], v);
				j->seen[p] = true;
				phased = true;
			}
		}
		if (phased || !j->native)
			timing_step_add(t, pos, stats_sum_result(&st));
		else
			timing_leave_out(t);
	}
	j->at = end;
	return end == t->nrec;
}

/* No record has a phase (natively every one was left out): the records are the steps, of
 * no phase time (no phase recorded, the reports say). */
static void timing_all_steps(struct timing *t)
{
	free(t->pos);
	t->pos = NULL;
	t->n = t->nrec;
	for (size_t i = 0; i < t->n; i++)
		t->step_time[i] = 0.0;
}

/* The totals, fractions and percentiles of a job fed every step; the timing is the
 * caller's (the job is freed). */
static struct timing *timing_finish(struct timing_job *j)
{
	const struct steps_model *m = j->m;
	struct timing *t = j->t;
	j->t = NULL;
	if (t->nrec == 0) {
		timing_job_free(j);
		return t;
	}
	if (t->n == 0)
		timing_all_steps(t);
	size_t n = t->n, np = j->np;
	double *totals = xmalloc((np ? np : 1) * sizeof(*totals));
	size_t k = 0;
	for (size_t p = 0; p < np; p++) {
		if (!j->seen[p])
			continue;
		t->phase[k].metric = j->ids[p];
		t->phase[k].name = steps_metric(m, j->ids[p])->name;
		t->phase[k].total = stats_sum_result(&j->tot[p]);
		totals[k] = t->phase[k].total;
		k++;
	}
	t->nphase = k;
	double grand = stats_fsum(totals, k), denom = grand > 0 ? grand : 1.0;
	t->finite = isfinite(grand) && t->bad_metric < 0;
	for (size_t p = 0; p < k; p++)
		t->finite &= isfinite(totals[p]);
	for (size_t p = 0; p < k; p++) {
		t->phase[p].seconds = t->phase[p].total / (double)n;
		t->phase[p].fraction = t->phase[p].total / denom;
	}
	qsort(t->phase, k, sizeof(*t->phase), cmp_phase);
	t->total_time = grand;
	t->mean_step_time = grand / (double)n;
	double mean_st = stats_mean(t->step_time, n);
	t->std_step_time = stats_pstdev(t->step_time, n, mean_st);
	t->p50 = stats_percentile(t->step_time, n, 50);
	t->p95 = stats_percentile(t->step_time, n, 95);
	t->steps_per_sec = t->mean_step_time > 0 ? 1.0 / t->mean_step_time : 0.0;
	t->cv = t->mean_step_time != 0 ? t->std_step_time / t->mean_step_time : 0.0;
	t->p95_p50_ratio = t->p50 != 0 ? t->p95 / t->p50 : 0.0;
	free(totals);
	timing_job_free(j);
	return t;
}

static bool timing_done(const struct rank_cache *rc)
{
	return rc->timing_done;
}

static void timing_keep(struct rank_cache *rc, void *job)
{
	rc->timing = timing_finish(job);
	rc->timing_done = true;
}

static const struct analysis_pieces timing_pieces = { timing_done, timing_begin, timing_feed, timing_keep };

const struct timing *analysis_timing(struct run *run, size_t ri)
{
	struct rank_cache *rc = analysis_pieces_whole(run, ri, &timing_pieces);
	return rc ? rc->timing : NULL;
}

bool analysis_timing_slice(struct run *run, size_t ri, void **job)
{
	return analysis_pieces_slice(run, ri, job, &timing_pieces);
}

static const struct timing_phase *timing_phase(const struct timing *t, const char *name)
{
	for (size_t i = 0; t && i < t->nphase; i++)
		if (strcmp(t->phase[i].name, name) == 0)
			return &t->phase[i];
	return NULL;
}

double timing_fraction(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->fraction : 0.0;
}

double timing_seconds(const struct timing *t, const char *name)
{
	const struct timing_phase *p = timing_phase(t, name);
	return p ? p->seconds : 0.0;
}

bool timing_has_phase(const struct timing *t, const char *name)
{
	return timing_phase(t, name) != NULL;
}

double *timing_plain_step_times(struct run *run, const struct timing *t)
{
	const struct steps_model *m = run->steps;
	double *v = xmalloc((t->n ? t->n : 1) * sizeof(*v));
	for (size_t i = 0; i < t->n; i++) {
		double s = 0, x;
		for (size_t k = 0; k < steps_nmetrics(m); k++) { /* the lowest rank's order: its records' */
			int id = steps_metric_nth(m, k);
			if (steps_metric(m, id)->kind == METRIC_PHASE && steps_value(m, 0, id, timing_pos(t, i), &x))
				s += x;
		}
		v[i] = s;
	}
	return v;
}

size_t timing_pos(const struct timing *t, size_t i)
{
	return t->pos ? t->pos[i] : t->first + i;
}

bool timing_step_time_at(const struct timing *t, size_t pos, double *v)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) { /* the positions ascend */
		size_t mid = lo + (hi - lo) / 2;
		if (timing_pos(t, mid) < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->n || timing_pos(t, lo) != pos)
		return false;
	*v = t->step_time[lo];
	return true;
}

const char *analysis_left_out_records(size_t k, char *buf, size_t n)
{
	if (k == 0)
		return NULL;
	snprintf(buf, n, "%zu record%s without any phase (no step time, not %s of 0 ms)", k, k == 1 ? "" : "s",
		 k == 1 ? "a step" : "steps");
	return buf;
}

bool timing_no_time(const struct timing *t)
{
	return t && t->n > 0 && t->nphase > 0 && t->finite && !(t->total_time > 0);
}

bool timing_why_na(const struct run *run, const struct timing *t, size_t ri, char *buf, size_t n)
{
	buf[0] = '\0';
	const struct steps_model *m = run->steps;
	int rank = t ? steps_rank_id(m, ri) : 0;
	if (timing_no_time(t)) { /* the budget's words (analysis_budget_why_absent) */
		char past[48] = "";
		if (t->first)
			snprintf(past, sizeof(past), " after --warmup %ld", run->opts ? run->opts->warmup : 0L);
		snprintf(buf, n, "the %zu record%s of rank %d%s ha%s no phase time, every phase 0", t->n,
			 t->n == 1 ? "" : "s", rank, past, t->n == 1 ? "s" : "ve");
		return true;
	}
	if (!t || t->n == 0 || t->finite)
		return false;
	if (t->bad_metric >= 0) {
		const char *name = steps_metric(m, t->bad_metric)->name;
		char safe[64];
		text_sanitize(name, strlen(name), safe, sizeof(safe), 0);
		analysis_flaw_text(t->bad_value, safe, t->bad_step, rank, buf, n);
	} else {
		snprintf(buf, n, "the phase totals overflow on rank %d", rank);
	}
	return true;
}

bool timing_shares_judged(const struct run *run, const struct timing *t)
{
	return (run->opts && run->opts->compat_pytscope) || (t->finite && !timing_no_time(t));
}

const char *analysis_share_text(double frac, const double *bars, size_t nbars, int prec, char *buf, size_t n)
{
	double near = nbars ? bars[0] : 0;
	for (size_t i = 1; i < nbars; i++)
		if (fabs(frac - bars[i]) < fabs(frac - near))
			near = bars[i];
	if (!isfinite(frac))
		snprintf(buf, n, "n/a");
	else if (nbars)
		numfmt_same_side(frac * 100, near * 100, prec, buf, n);
	else
		snprintf(buf, n, "%.*f", prec, frac * 100);
	return buf;
}

const char *analysis_comm_share_text(double frac, int prec, char *buf, size_t n)
{
	static const double bars[] = { BAR_COMM, BAR_COMM_HIGH };
	return analysis_share_text(frac, bars, ARRAY_LEN(bars), prec, buf, n);
}

const char *timing_share_text(const struct timing_phase *p, int prec, char *buf, size_t n)
{
	static const double data[] = { BAR_DATA, BAR_DATA_HIGH }, optimizer[] = { BAR_OPTIMIZER };
	if (strcmp(p->name, "data") == 0)
		return analysis_share_text(p->fraction, data, ARRAY_LEN(data), prec, buf, n);
	if (strcmp(p->name, "optimizer") == 0)
		return analysis_share_text(p->fraction, optimizer, ARRAY_LEN(optimizer), prec, buf, n);
	if (strcmp(p->name, "comm") == 0)
		return analysis_comm_share_text(p->fraction, prec, buf, n);
	return analysis_share_text(p->fraction, NULL, 0, prec, buf, n);
}
