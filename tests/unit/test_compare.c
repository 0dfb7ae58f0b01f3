/* SPDX-License-Identifier: MIT */
/* test_compare.c: the run comparison (model/compare/): the noise-aware regression test
 * and its onset, identical and noise-only pairs, different step ranges and rank sets,
 * the verdict, findings matching (a rule that names one rank of several, the first that
 * differs or the lowest, persists whatever rank each side names, and says which; a
 * straggler on another rank is another finding, one the native rules call slow on the
 * same rank the same; a finding about a rank the other side lacks, or does not read, is
 * not judged there), and pytscope's diff semantics over run.json (Python equality
 * 1 == 1.0 == True, str()/repr() of values, <absent>, the notes) and the Overview lines
 * (compare_summary: the notes flagged prose). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/summary.h"
#include "model/xalloc.h"
#include "tests/tap.h"

static unsigned long long lcg;

static double rnd(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

struct spec {
	int ranks, steps;
	unsigned long long seed;
	int slow_rank, from;     /* -1: none */
	int skip_rank;           /* a rank id left out, -1: none */
	const char *meta;        /* run.json of rank 0, or NULL */
	int cut_rank1, cut_to;   /* rank id + 1 whose steps stop before step cut_to (0: none) */
	int lo;                  /* the first step number (steps lo..steps-1) */
	int bare_rank1;          /* rank id + 1 that records comm only, no compute phase (0: none) */
};

static struct run *make_run(const struct spec *sp)
{
	static const struct opts o;
	struct run *run = run_open(NULL, 0, &o, NULL);
	struct steps_model *m = steps_model_get(run);
	int fwd = steps_metric_intern(m, METRIC_PHASE, "forward");
	int comm = steps_metric_intern(m, METRIC_PHASE, "comm");
	int loss = steps_metric_intern(m, METRIC_SCALAR, "loss");
	lcg = sp->seed;
	for (int r = 0; r < sp->ranks; r++) {
		if (r == sp->skip_rank)
			continue;
		struct rank_steps *rs = steps_rank_new(m, r, NULL);
		if (r == 0)
			rank_exact_scalars(rs);
		int steps = r + 1 == sp->cut_rank1 ? sp->cut_to : sp->steps;
		for (int s = 0; s < steps; s++) {
			double slow = r == sp->slow_rank && s >= sp->from ? 1.2 : 1.0;
			double f = (double)(long)(5e7 * slow * (1 + 0.04 * (rnd() - 0.5))) / 1e9;
			if (s < sp->lo) { /* the same noise at every step number, whatever the first */
				rnd();
				continue;
			}
			size_t pos = rank_append(rs, s, 1000.0 + s, true);
			if (r + 1 != sp->bare_rank1)
				rank_set(rs, pos, fwd, f);
			rank_set(rs, pos, comm, (double)(long)(1e7 * (1 + 0.1 * rnd())) / 1e9);
			if (r == 0)
				rank_set(rs, pos, loss, 2.0 / (1.0 + 0.01 * s));
		}
		if (r == 0 && sp->meta) {
			struct steps_meta meta = { .present = true, .json = xstrdup(sp->meta), .json_len = strlen(sp->meta) };
			rank_set_meta(rs, &meta);
		}
		steps_publish_rank(m, rs);
	}
	steps_finalize(m);
	return run;
}

static struct compare *pair(const struct spec *a, const struct spec *b)
{
	return compare_new(make_run(a), make_run(b), "steps");
}

static void test_regression(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 2, 3, 40, -1, NULL, 0, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r != NULL, "ranks compared");
	is_int(r->nregressed, 1, "one rank regressed");
	const struct cmp_rank *w = &r->v[r->order[0]];
	is_int(w->rank, 3, "it is rank 3");
	ok(w->onset_b >= 38 && w->onset_b <= 42, "onset near step 40 (got %ld)", w->onset_b);
	ok(w->delta_ms > w->noise_ms && w->noise_ms > 0, "delta above its noise threshold");
	ok(compare_regression_s(w) > 0, "time lost grew");
	ok(r->slower && !r->identical, "B slower per step");
	char v[256];
	compare_verdict(c, v, sizeof(v));
	ok(strstr(v, "% slower per step; rank 3 regressed from step") != NULL, "verdict: %s", v);
	char err[128];
	struct table *t = compare_view("diff_ranks")->build(c, err, sizeof(err));
	ok(t && t->nrow == 8 && t->ref[t->view[0]] == 3, "diff_ranks: rank 3 first");
	table_free(t);
	compare_free(c);
}

static void test_identical_and_noise(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = a;
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r->identical && !r->nregressed && !r->nimproved && !r->slower && !r->faster, "identical: no difference");
	char v[256];
	compare_verdict(c, v, sizeof(v));
	ok(strncmp(v, "no difference:", 14) == 0, "verdict: %s", v);
	size_t nf;
	const struct cmp_finding *f = compare_findings(c, &nf);
	size_t persist = 0;
	for (size_t i = 0; i < nf; i++)
		persist += f[i].status == CMP_PERSIST;
	is_int(persist, nf, "identical: every finding persists");
	compare_free(c);

	b.seed = 7; /* the same job, other noise */
	c = pair(&a, &b);
	r = compare_ranks(c);
	ok(!r->identical && !r->nregressed && !r->nimproved, "noise only: nothing regressed or improved");
	ok(!r->slower && !r->faster, "noise only: the step wall is the same within noise");
	compare_free(c);
}

static void test_scope(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 80, 1, -1, 0, 7, NULL, 0, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	is_int(r->ncommon, 80, "common steps: 80");
	is_int(r->ncommon_ranks, 7, "common ranks: 7");
	is_int(r->n, 8, "rank union: 8");
	ok(r->v[7].in_a && !r->v[7].in_b, "rank 7 only in A");
	char s[256];
	compare_scope(c, s, sizeof(s));
	ok(strcmp(s, "A: 8 ranks, steps 0-119; B: 7 ranks, steps 0-79; compared: 7 common ranks, 80 common steps; "
		     "not compared: ranks 0-6 steps 80-119 (40 only in A), rank 7 (only in A)") == 0,
	   "scope: %s", s);
	compare_free(c);
}

/* Every figure of the ranks of c and d (of the ranks of both: the same pair but for a
 * rank out of the comparison) the same: basis, means, time lost, wall. */
static bool same_figures(struct compare *c, struct compare *d)
{
	const struct cmp_ranks *x = compare_ranks(c), *y = compare_ranks(d);
	bool same = x->by_step_time == y->by_step_time && x->has_wall == y->has_wall &&
		    x->a_wall_ms == y->a_wall_ms && x->b_wall_ms == y->b_wall_ms && x->nregressed == y->nregressed;
	for (size_t i = 0, j = 0; i < x->n && j < y->n; i++, j++) {
		while (j < y->n && y->v[j].rank < x->v[i].rank)
			j++;
		if (j == y->n || y->v[j].rank != x->v[i].rank || !x->v[i].n || !y->v[j].n)
			continue;
		const struct cmp_rank *p = &x->v[i], *q = &y->v[j];
		same = same && p->a_ms == q->a_ms && p->b_ms == q->b_ms && p->has_lost == q->has_lost &&
		       fabs(p->a_lost_s - q->a_lost_s) < 1e-12 && fabs(p->b_lost_s - q->b_lost_s) < 1e-12;
	}
	return same;
}

/* A rank of B without step records: the other ranks are compared, that one named; it is
 * left out as an absent rank is (the others compared by compute, with the same figures). */
static void test_empty_rank(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 2, 5, 60, -1, NULL, 4, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r != NULL && r->ncompared_ranks == 7, "empty rank: 7 ranks compared");
	char v[512];
	compare_verdict(c, v, sizeof(v));
	ok(strncmp(v, "step times not compared", 23) != 0 && strstr(v, "; not compared: rank 3 (no step records in B)"),
	   "verdict: %s", v);
	ok(!r->by_step_time && !r->step_time_why, "empty rank: the others compared by compute (%s)",
	   r->step_time_why ? r->step_time_why : "");
	struct spec gone = b;
	gone.skip_rank = 3;
	gone.cut_rank1 = 0;
	struct compare *d = pair(&a, &gone);
	ok(same_figures(c, d), "empty rank: the figures of a B without that rank");
	ok(r->nregressed == 1 && r->v[r->order[0]].has_lost, "empty rank: rank 5 regressed, with its time lost");
	compare_free(d);
	compare_free(c);
}

/* A rank of A only, without a compute phase: not compared, so no reason to weigh the
 * others' step time instead of their compute. */
static void test_bare_rank_one_side(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 2, 5, 60, 7, NULL, 0, 0, 0, 0 };
	a.bare_rank1 = 8;
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(!r->by_step_time && !r->step_time_why, "a bare rank of A only: compared by compute (%s)",
	   r->step_time_why ? r->step_time_why : "");
	compare_free(c);
	a.ranks = b.ranks = 7; /* ... as when the bare rank is in both: then its lack counts */
	a.bare_rank1 = 7;
	b.skip_rank = -1;
	c = pair(&a, &b);
	r = compare_ranks(c);
	ok(r->by_step_time && r->step_time_why && strstr(r->step_time_why, "rank 6 records no compute phase"),
	   "a bare rank of both: compared by step time (%s)", r->step_time_why ? r->step_time_why : "");
	compare_free(c);
}

/* B records steps 40-79 of A's 0-119: the steps only A has are two stretches, named as
 * such, never as the range 0-119 that holds the compared ones. With steps of one side only
 * the time lost is over the common steps: that of the pair with A cut to them too. */
static void test_gap_span_and_time_lost(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 80, 2, 5, 50, -1, NULL, 0, 0, 40, 0 };
	struct compare *c = pair(&a, &b);
	char s[512];
	compare_scope(c, s, sizeof(s));
	ok(strstr(s, "not compared: ranks 0-7 steps 0-39, 80-119 (80 only in A)") != NULL, "scope: %s", s);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r->nregressed == 1 && r->v[5].has_lost && r->v[5].b_lost_s > r->v[5].a_lost_s && !r->no_lost[0],
	   "one-sided steps: time lost over the common steps (rank 5: %.3f -> %.3f s)", r->v[5].a_lost_s,
	   r->v[5].b_lost_s);
	ok(strcmp(compare_regression_by(r), "by increase in time lost") == 0, "regressions ordered by time lost");
	compare_free(c);
	b.steps = 120; /* B: steps 40-119; A: 0-119, then A cut to 40-119 as well */
	struct spec cut = a;
	cut.lo = 40;
	c = pair(&a, &b);
	struct compare *d = pair(&cut, &b);
	ok(compare_ranks(c)->v[5].has_lost && same_figures(c, d),
	   "... the time lost of the pair over those steps alone");
	compare_free(d);
	compare_free(c);
	struct spec one = { 1, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 };
	struct spec one_b = { 1, 120, 2, 0, 50, -1, NULL, 0, 0, 0, 0 };
	c = pair(&one, &one_b);
	r = compare_ranks(c);
	ok(r->nregressed == 1 && !r->v[0].has_lost && strstr(r->no_lost, "step time") &&
	   strcmp(compare_regression_by(r), "by increase in step time over the common steps") == 0,
	   "single ranks: no time lost, why (%s), ordered by step time", r->no_lost);
	compare_free(c);
}

/* A rank of B that stops early: the others are compared over all their steps, B's range
 * is its own, and the left-out steps named. */
static void test_short_rank(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 2, 5, 60, -1, NULL, 4, 60, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r->nregressed == 1 && r->v[r->order[0]].rank == 5, "short rank: rank 5 regressed");
	is_int(r->b_hi, 119, "B's steps end at 119");
	is_int(r->nwall, 60, "the wall over the 60 steps every rank has");
	char v[512];
	compare_verdict(c, v, sizeof(v));
	ok(strstr(v, "rank 5 regressed from step") && strstr(v, "; not compared: rank 3 steps 60-119 (60 only in A)"),
	   "verdict: %s", v);
	compare_free(c);
}

/* Ranks of B only do not weigh in the per-step wall, and are named. */
static void test_wall_common_ranks(void)
{
	struct spec a = { 4, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 1, 6, 0, -1, NULL, 0, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct cmp_ranks *r = compare_ranks(c);
	ok(r->has_wall && r->a_wall_ms == r->b_wall_ms && !r->slower, "wall over ranks 0-3 only: the same");
	char v[512];
	compare_verdict(c, v, sizeof(v));
	ok(strstr(v, "; not compared: ranks 4-7 (only in B)") != NULL, "verdict: %s", v);
	compare_free(c);
}

/* Set run's findings: one of id with rank as its evidence per call. */
static void set_finding(struct run *run, const char *id, int rank)
{
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = rank;
	findings_add(&run->findings, id, SEV_HIGH, id, "", "", ev);
	run->findings_done = true;
}

/* The status of c's finding id that names rank on side b (else a), "-" when none. */
static const char *status_of(struct compare *c, const char *id, int rank, char *buf, size_t n)
{
	size_t nf;
	const struct cmp_finding *f = compare_findings(c, &nf);
	for (size_t i = 0; i < nf; i++) {
		const struct finding *x = f[i].b ? f[i].b : f[i].a;
		if (strcmp(x->id, id) == 0 && x->ev.rank == rank)
			return compare_finding_status(&f[i], buf, n);
	}
	return "-";
}

static void test_findings_match(void)
{
	struct spec a = { 8, 120, 1, -1, 0, -1, NULL, 0, 0, 0, 0 }, b = { 8, 120, 1, -1, 0, 7, NULL, 0, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	set_finding(c->a, "CONFIG.RANKS_DIFFER", 7);
	set_finding(c->a, "ENV.RANKS_DIFFER", 7);
	set_finding(c->a, "DIST.STRAGGLER", 3);
	set_finding(c->b, "CONFIG.RANKS_DIFFER", 2);
	set_finding(c->b, "DIST.STRAGGLER", 5);
	set_finding(c->a, "DIST.STRAGGLER", 4);
	set_finding(c->b, "DIST.SLOW_RANK", 4);
	char st[200];
	is_str(status_of(c, "CONFIG.RANKS_DIFFER", 2, st, sizeof(st)), "persisting (rank 7 in A, rank 2 in B)",
	       "the first rank that differs: the rule fires on both sides, each naming its rank");
	is_str(status_of(c, "ENV.RANKS_DIFFER", 7, st, sizeof(st)), "not judged in B (no rank 7)",
	       "a finding naming a rank B lacks: not judged in B, not resolved");
	is_str(status_of(c, "DIST.STRAGGLER", 3, st, sizeof(st)), "resolved", "a straggler on rank 3 in A: resolved");
	is_str(status_of(c, "DIST.STRAGGLER", 5, st, sizeof(st)), "new", "... on rank 5 in B: another finding, new");
	is_str(status_of(c, "DIST.SLOW_RANK", 4, st, sizeof(st)), "persisting (DIST.STRAGGLER in A)",
	       "rank 4 the persistent straggler in A, slow throughout in B: persisting, A's id named");
	compare_free(c);

	b.skip_rank = 0; /* B's lowest rank is 1: the lowest rank's rules read rank 1 there */
	c = pair(&a, &b);
	set_finding(c->a, "TIMING.JITTER", 0);
	set_finding(c->a, "CONVERGENCE.DIVERGED", 0);
	set_finding(c->b, "TIMING.JITTER", 1);
	set_finding(c->b, "TIMING.OPTIMIZER_HEAVY", 1);
	is_str(status_of(c, "TIMING.JITTER", 1, st, sizeof(st)), "persisting (rank 0 in A, rank 1 in B)",
	       "a rule of the lowest rank on both sides: persisting, each side's rank named");
	is_str(status_of(c, "CONVERGENCE.DIVERGED", 0, st, sizeof(st)), "not judged in B (no rank 0)",
	       "... of A's rank 0, which B lacks: not judged in B");
	is_str(status_of(c, "TIMING.OPTIMIZER_HEAVY", 1, st, sizeof(st)), "not judged in A (its rules read rank 0)",
	       "... of B's rank 1, which A's rules do not read: not judged in A, not new");
	compare_free(c);
}

static const struct cmp_field *field(const struct cmp_field *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].key, key) == 0)
			return &f[i];
	return NULL;
}

static void test_pydiff(void)
{
	struct spec a = { 1, 30, 1, -1, 0, -1,
			  "{\"name\": \"a\", \"config\": {\"lr\": 1e-05, \"big\": 1e16, \"n\": 3, \"flag\": true, "
			  "\"tags\": [1, 2.0, \"it's\"], \"reprs\": [1e16, 1e-05, 100.0, 0.1, 123456789.5, -2.5e-300, \"a\\\"b'c\"]}, \"environment\": {\"cudnn_benchmark\": true, \"gpu_count\": 1, "
			  "\"torch\": \"2.3\", \"env\": {\"PYTHONHASHSEED\": \"0\"}}}", 0, 0, 0, 0 };
	struct spec b = { 1, 30, 1, -1, 0, -1,
			  "{\"name\": \"b\", \"config\": {\"lr\": 1e-05, \"big\": 1e16, \"n\": 3.0, \"flag\": 1, "
			  "\"tags\": [1, 2, \"it's\"], \"reprs\": [], \"opt\": {\"m\": 0.9, \"nest\": [null, false]}}, "
			  "\"environment\": {\"cudnn_benchmark\": 1, \"gpu_count\": 1.0, \"torch\": \"2.4\"}}",
			  0, 0, 0, 0 };
	struct compare *c = pair(&a, &b);
	const struct pydiff *d = compare_pydiff(c);
	ok(d && strcmp(d->name_a, "a") == 0 && strcmp(d->name_b, "b") == 0, "names from run.json");
	is_int(d->nconfig, 2, "config: 3 == 3.0, True == 1, [1, 2.0] == [1, 2]: only opt and reprs differ");
	const struct cmp_field *reprs = field(d->config, d->nconfig, "reprs");
	ok(reprs && strcmp(reprs->a, "[1e+16, 1e-05, 100.0, 0.1, 123456789.5, -2.5e-300, 'a\"b\\'c']") == 0,
	   "repr of floats and of a string with both quotes: %s", reprs ? reprs->a : "-");
	const struct cmp_field *opt = field(d->config, d->nconfig, "opt");
	ok(opt && strcmp(opt->a, "<absent>") == 0 && strcmp(opt->b, "{'m': 0.9, 'nest': [None, False]}") == 0,
	   "absent key, and repr of a nested dict");
	is_int(d->nenv, 2, "env: torch and env.PYTHONHASHSEED differ, True == 1 and 1 == 1.0 do not");
	const struct cmp_field *seed = field(d->env, d->nenv, "env.PYTHONHASHSEED");
	ok(seed && strcmp(seed->a, "0") == 0 && strcmp(seed->b, "<absent>") == 0, "the nested env object is flattened");
	ok(d->identical && d->first_divergence < 0, "same losses: identical trajectory");
	ok(d->nnote >= 3 && strstr(d->note[0], "Config differs (opt, reprs)") == d->note[0], "config note first");
	ok(strcmp(d->note[1], "cudnn.benchmark is ON in 'a' — a common source of run-to-run nondeterminism.") == 0,
	   "cudnn.benchmark is True only in A (1 is not `is True`)");
	ok(strcmp(d->note[2], "PYTHONHASHSEED is unset in 'b' — set it for reproducibility.") == 0,
	   "PYTHONHASHSEED unset in B");
	char err[128];
	struct table *t = compare_view("diff_env")->build(c, err, sizeof(err));
	ok(t && t->nrow == 4, "diff_env: environment and config rows");
	table_free(t);
	/* the Overview lines: the notes follow the findings line, flagged prose (more rows
	 * to wrap), and nothing else is but the verdict */
	struct summary s;
	compare_summary(c, &s);
	size_t nprose = 0, first = s.n;
	for (size_t i = 1; i < s.n; i++)
		if (s.line[i].prose && nprose++ == 0)
			first = i;
	ok(strcmp(s.line[0].key, "verdict") == 0 && s.line[0].prose, "summary: the verdict first, prose");
	ok(nprose == d->nnote && first + nprose == s.n && first > 0 && strcmp(s.line[first].key, "reproducible?") == 0 &&
	   strcmp(s.line[first].text, d->note[0]) == 0 && strcmp(s.line[first - 1].key, "findings A/B") == 0,
	   "summary: the %zu notes are the other prose lines, last, under 'reproducible?'", d->nnote);
	compare_free(c);
}

static void test_g4(void)
{
	char buf[32];
	compare_g4(buf, sizeof(buf), -0.0 / 0.0, true);
	ok(strcmp(buf, "+nan") == 0, "NaN prints as Python does, never -nan");
	compare_g4(buf, sizeof(buf), 123456.0, false);
	ok(strcmp(buf, "1.235e+05") == 0, "%%.4g: %s", buf);
}

int main(void)
{
	test_regression();
	test_identical_and_noise();
	test_scope();
	test_empty_rank();
	test_bare_rank_one_side();
	test_gap_span_and_time_lost();
	test_short_rank();
	test_wall_common_ranks();
	test_findings_match();
	test_pydiff();
	test_g4();
	return tap_done();
}
