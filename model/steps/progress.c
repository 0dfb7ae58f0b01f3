/* SPDX-License-Identifier: MIT */
/* progress.c: the partial Overview of a loading run (see progress.h for the contract):
 * a per-rank digest taken in under the step model's lock as the loaders publish ranks,
 * and the lines the loading screen draws from it (a run with no step model: its sources
 * alone). */
#include "model/steps/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/stats.h"
#include "model/steps/internal.h"
#include "model/summary.h"
#include "model/units.h"

/* One rank taken in. */
struct prank {
	int id;
	size_t n;                 /* records */
	double med;               /* median step time (sum of the phases), NaN: none */
	bool lazy;                /* restored from the index: shell only */
};

struct steps_progress {
	size_t seen;              /* m->rank entries taken in (publish order) */
	size_t replaced;          /* m->nreplaced when they were */
	size_t expected;          /* ranks planned by the loaders, 0: unknown */
	bool listing;             /* the loader still lists (sizes) its rank dirs: */
	size_t listed;            /* how many so far */
	struct prank *rank;
	size_t nrank, cap;
	size_t records, longest;
	long lo, hi;              /* step span over the ranks (lo > hi: none) */
	double *phase;            /* seconds per phase metric id */
	char **phase_name;        /* owned copies, per metric id (NULL: not a phase) */
	size_t nphase;
	bool has_ident;           /* identity of the lowest rank id so far: */
	int ident_rank;
	char *name;
	char ident[SUMMARY_TEXT];
	size_t files, src_records, skipped, unreadable, notes;
	bool closed;
	bool model;               /* the run has a step model (pytscope's lines) */
};

struct steps_progress *steps_progress_new(void)
{
	struct steps_progress *p = xcalloc(1, sizeof(*p));
	p->lo = 1;
	p->hi = 0;
	return p;
}

/* Forget every rank taken in (a rank was replaced: take them in again). */
static void progress_reset(struct steps_progress *p)
{
	for (size_t i = 0; i < p->nphase; i++)
		free(p->phase_name[i]);
	free(p->phase_name);
	free(p->phase);
	free(p->rank);
	free(p->name);
	size_t files = p->files, rec = p->src_records, sk = p->skipped, un = p->unreadable, no = p->notes;
	bool model = p->model;
	memset(p, 0, sizeof(*p));
	p->lo = 1;
	p->model = model;
	p->files = files;
	p->src_records = rec;
	p->skipped = sk;
	p->unreadable = un;
	p->notes = no;
}

void steps_progress_free(struct steps_progress *p)
{
	if (!p)
		return;
	progress_reset(p);
	free(p);
}

/* Sources and diagnostics so far, each under its own lock. */
static struct steps_model *take_sources(struct steps_progress *p, struct run *run)
{
	pthread_mutex_lock(&run->lock);
	p->files = run->nsrc;
	p->src_records = p->skipped = p->unreadable = 0;
	for (size_t i = 0; i < run->nsrc; i++) {
		p->src_records += run->src[i].records;
		p->skipped += run->src[i].skipped;
		p->unreadable += run->src[i].err != 0;
	}
	struct steps_model *m = run->steps;
	pthread_mutex_unlock(&run->lock);
	pthread_mutex_lock(&run->diags.lock);
	p->notes = run->diags.n + run->diags.dropped;
	pthread_mutex_unlock(&run->diags.lock);
	return m;
}

/* The phase metrics interned so far (under m->lock), with their names copied. */
static void take_phases(struct steps_progress *p, const struct steps_model *m)
{
	if (m->nmetric <= p->nphase)
		return;
	p->phase = xrealloc(p->phase, m->nmetric * sizeof(*p->phase));
	p->phase_name = xrealloc(p->phase_name, m->nmetric * sizeof(*p->phase_name));
	for (size_t i = p->nphase; i < m->nmetric; i++) {
		p->phase[i] = 0;
		p->phase_name[i] = m->metric[i].kind == METRIC_PHASE ? xstrdup(m->metric[i].name) : NULL;
	}
	p->nphase = m->nmetric;
}

/* "world_size 8, n_steps 200, gpu=..., model=..." of a rank's run.json. */
static void take_ident(struct steps_progress *p, const struct rank_steps *r)
{
	const struct steps_meta *meta = &r->meta;
	p->has_ident = true;
	p->ident_rank = r->rank;
	free(p->name);
	p->name = meta->name ? xstrdup(meta->name) : NULL;
	if (!meta->present) {
		snprintf(p->ident, sizeof(p->ident), "n/a (no run.json in rank %d)", r->rank);
		return;
	}
	size_t used = 0;
	char *b = p->ident;
	size_t n = sizeof(p->ident);
	b[0] = '\0';
	if (meta->has_world)
		used += (size_t)snprintf(b + used, n - used, "world_size %ld", meta->world_size);
	if (meta->has_nsteps && used < n)
		used += (size_t)snprintf(b + used, n - used, "%sn_steps %ld", used ? ", " : "", meta->n_steps);
	static const char *const keys[] = { "gpu", "gpu_count", "config.model" };
	for (size_t k = 0; k < ARRAY_LEN(keys); k++)
		for (size_t i = 0; i < meta->nenv && used < n; i++)
			if (strcmp(meta->env_key[i], keys[k]) == 0 && meta->env_val[i])
				used += (size_t)snprintf(b + used, n - used, "%s%s=%s", used ? ", " : "",
							 meta->env_key[i], meta->env_val[i]);
	if (!used)
		snprintf(b, n, "n/a (run.json of rank %d has no world_size, n_steps or gpu)", r->rank);
}

/* Digest rank ri (sealed, not lazy) into p; scratch holds its records' step times. */
static double rank_median(struct steps_progress *p, const struct steps_model *m, size_t ri, double **scratch,
			  size_t *scap)
{
	const struct rank_steps *r = m->rank[ri];
	xgrow((void **)scratch, scap, r->n ? r->n : 1, sizeof(**scratch));
	size_t k = 0;
	for (size_t pos = 0; pos < r->n; pos++) {
		double sum = 0, v;
		bool any = false;
		for (size_t id = 0; id < p->nphase; id++)
			if (p->phase_name[id] && steps_value(m, ri, (int)id, pos, &v)) {
				sum += v;
				p->phase[id] += v;
				any = true;
			}
		if (any)
			(*scratch)[k++] = sum;
	}
	return k ? stats_median_inplace(*scratch, k) : NAN;
}

static void take_rank(struct steps_progress *p, const struct steps_model *m, size_t ri, double **scratch,
		      size_t *scap)
{
	const struct rank_steps *r = m->rank[ri];
	xgrow((void **)&p->rank, &p->cap, p->nrank + 1, sizeof(*p->rank));
	struct prank *d = &p->rank[p->nrank++];
	d->id = r->rank;
	d->n = r->n;
	d->lazy = __atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE);
	d->med = d->lazy ? NAN : rank_median(p, m, ri, scratch, scap);
	p->records += r->n;
	p->longest = r->n > p->longest ? r->n : p->longest;
	if (r->n) {
		p->lo = p->lo > p->hi || r->span_lo < p->lo ? r->span_lo : p->lo;
		p->hi = r->span_hi > p->hi ? r->span_hi : p->hi;
	}
	if (!p->has_ident || r->rank < p->ident_rank)
		take_ident(p, r);
}

bool steps_progress_update(struct steps_progress *p, struct run *run, size_t budget)
{
	struct steps_model *m = take_sources(p, run);
	if (p->closed || !m)
		return !p->closed;
	p->model = true;
	double *scratch = NULL;
	size_t scap = 0;
	pthread_mutex_lock(&m->lock);
	if (m->closed) {
		p->closed = true;
	} else {
		if (m->nreplaced != p->replaced) {
			progress_reset(p);
			p->replaced = m->nreplaced;
		}
		p->expected = m->expect;
		p->listing = m->listing;
		p->listed = m->listed;
		take_phases(p, m);
		size_t done = 0;
		while (p->seen < m->nrank && (done == 0 || done < budget)) {
			done += m->rank[p->seen]->n + 1;
			take_rank(p, m, p->seen++, &scratch, &scap);
		}
	}
	pthread_mutex_unlock(&m->lock);
	free(scratch);
	return !p->closed;
}

size_t steps_progress_ranks(const struct steps_progress *p, size_t *expected)
{
	*expected = p->expected;
	return p->nrank;
}

bool steps_progress_listing(const struct steps_progress *p, size_t *listed)
{
	*listed = p->listed;
	return p->listing;
}

/* " (k of N ranks)" */
static void of_ranks(const struct steps_progress *p, char *buf, size_t n)
{
	if (p->expected)
		snprintf(buf, n, "%zu of %zu ranks", p->nrank, p->expected);
	else
		snprintf(buf, n, "%zu ranks so far", p->nrank);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Step time over the ranks digested: the median of their medians (*med), the range,
 * and the slowest; returns that rank's index in p->rank (-1: no step time yet). */
static long step_time_line(const struct steps_progress *p, const char *of, double *med_out, struct summary *s)
{
	double *v = xmalloc((p->nrank ? p->nrank : 1) * sizeof(*v));
	size_t k = 0;
	long slow = -1;
	for (size_t i = 0; i < p->nrank; i++)
		if (!isnan(p->rank[i].med)) {
			v[k++] = p->rank[i].med;
			if (slow < 0 || p->rank[i].med > p->rank[slow].med)
				slow = (long)i;
		}
	if (!k) {
		summary_add(s, TONE_NORMAL, "step time", "n/a: no phase times in the ranks loaded yet (%s)", of);
		free(v);
		return -1;
	}
	qsort(v, k, sizeof(*v), cmp_double);
	*med_out = stats_median(v, k);
	char med[32], lo[32], hi[32];
	summary_add(s, TONE_NORMAL, "step time", "partial, %s: median %s (rank medians %s to %s, slowest rank %d)",
		    of, units_seconds(*med_out, med, sizeof(med)), units_seconds(v[0], lo, sizeof(lo)),
		    units_seconds(v[k - 1], hi, sizeof(hi)), p->rank[slow].id);
	free(v);
	return slow;
}

/* Phase shares of the summed phase time, largest first (up to six). */
static void phase_line(const struct steps_progress *p, const char *of, struct summary *s)
{
	double total = 0;
	for (size_t i = 0; i < p->nphase; i++)
		total += p->phase_name[i] ? p->phase[i] : 0;
	if (!(total > 0))
		return;
	bool *used = xcalloc(p->nphase, sizeof(*used));
	char buf[SUMMARY_TEXT];
	size_t n = 0;
	buf[0] = '\0';
	for (int shown = 0; shown < 6; shown++) {
		long best = -1;
		for (size_t i = 0; i < p->nphase; i++)
			if (p->phase_name[i] && !used[i] && p->phase[i] > 0 && (best < 0 || p->phase[i] > p->phase[best]))
				best = (long)i;
		if (best < 0 || n >= sizeof(buf))
			break;
		used[best] = true;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %.1f%%", shown ? ", " : "", p->phase_name[best],
				      100 * p->phase[best] / total);
	}
	free(used);
	summary_add(s, TONE_NORMAL, "phases", "partial, %s: %s of the phase time", of, buf);
}

/* What can be seen already, each labelled partial (a slow rank among those loaded is no
 * straggler verdict), then that no verdict is given yet. */
static void partial_findings(const struct steps_progress *p, const char *of, long slow, double med,
			     struct summary *f)
{
	if (p->skipped || p->unreadable)
		summary_add(f, TONE_WARN, "partial", "%zu record%s skipped, %zu file%s unreadable so far (%zu note%s)",
			    p->skipped, p->skipped == 1 ? "" : "s", p->unreadable, p->unreadable == 1 ? "" : "s", p->notes,
			    p->notes == 1 ? "" : "s");
	if (p->nrank >= 3 && slow >= 0 && med > 0 && p->rank[slow].med >= 1.1 * med) {
		char s[32], m[32];
		summary_add(f, TONE_WARN, "partial",
			    "rank %d: median step %s, %.2fx the median of the ranks loaded so far (%s); a straggler "
			    "is judged when every rank is in",
			    p->rank[slow].id, units_seconds(p->rank[slow].med, s, sizeof(s)), p->rank[slow].med / med,
			    units_seconds(med, m, sizeof(m)));
	}
	summary_add(f, TONE_NORMAL, "no verdict", "n/a: loading (%s): findings are judged when the load ends", of);
}

/* The lines of any run: path, files and records so far, data quality. */
static void source_lines(const struct steps_progress *p, const char *path, struct summary *s)
{
	summary_add(s, TONE_NORMAL, "path", "%s", path ? path : "-");
	summary_add(s, TONE_NORMAL, "sources", "%zu file%s, %zu record%s loaded so far", p->files,
		    p->files == 1 ? "" : "s", p->src_records, p->src_records == 1 ? "" : "s");
	summary_add(s, p->skipped || p->unreadable ? TONE_WARN : TONE_NORMAL, "data quality",
		    "so far %zu skipped, %zu unreadable; %zu note%s", p->skipped, p->unreadable, p->notes,
		    p->notes == 1 ? "" : "s");
}

const char *steps_progress_finishing(const struct steps_progress *p)
{
	return p->model ? "aligning the steps and analysing" : "analysing";
}

void steps_progress_lines(const struct steps_progress *p, const char *path, struct summary *s, struct summary *f)
{
	char of[64], na[96];
	s->n = f->n = 0;
	if (!p->model) {
		source_lines(p, path, s);
		summary_add(f, TONE_NORMAL, "no verdict", "n/a: loading: findings are judged when the load ends");
		return;
	}
	of_ranks(p, of, sizeof(of));
	snprintf(na, sizeof(na), "n/a: loading (%s)", of);
	summary_add(s, TONE_NORMAL, "run", "%s", p->name ? p->name : "- (no run.json name yet)");
	source_lines(p, path, s);
	if (p->expected && p->listing)
		summary_add(s, TONE_NORMAL, "ranks", "%s loaded; listing: %zu of %zu rank dirs so far", of, p->listed,
			    p->expected);
	else if (p->expected)
		summary_add(s, TONE_NORMAL, "ranks", "%s loaded", of);
	else
		summary_add(s, TONE_NORMAL, "ranks", "%zu loaded so far (how many in all: not known yet)", p->nrank);
	if (p->has_ident)
		summary_add(s, TONE_NORMAL, "identity", "%s (run.json of rank %d)", p->ident, p->ident_rank);
	if (p->lo <= p->hi)
		summary_add(s, TONE_NORMAL, "steps", "%ld-%ld so far (longest rank %zu record%s, %zu record%s in all)",
			    p->lo, p->hi, p->longest, p->longest == 1 ? "" : "s", p->records, p->records == 1 ? "" : "s");
	else
		summary_add(s, TONE_NORMAL, "steps", "none loaded yet");
	double med = NAN;
	long slow = step_time_line(p, of, &med, s);
	phase_line(p, of, s);
	static const char *const need_all[] = { "coverage", "run wall", "imbalance", "stragglers", "budget" };
	for (size_t i = 0; i < ARRAY_LEN(need_all); i++)
		summary_add(s, TONE_NORMAL, need_all[i], "%s", na);
	partial_findings(p, of, slow, med, f);
}
