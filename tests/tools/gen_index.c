/* SPDX-License-Identifier: MIT */
/* gen_index.c: writes the persistent index of a big run directly, without parsing its
 * JSONL (issue 15's browse target: 10,000 ranks x 100,000 steps, whose index would
 * otherwise need ~350 GB of step logs first).
 *
 * TEMPLATE is a run dir of D ranks (e.g. gen_demo's), loaded with the project's loader.
 * OUT gets NRANKS rank dirs (a multiple of D), rank i a copy of template rank i mod D,
 * and the index a full load of such a run writes, through the same writers
 * (index_write_spec, steps_summary_write_out): one part whose D bodies are the template
 * ranks' and whose NRANKS shells each name their template's body (ranks whose steps are
 * the same bytes share one body), and a summary whose pyramid rows are the template's,
 * rank i using stored row i mod D. So the index on disk is D bodies and D rows per
 * pyramid, but a frame reads (and checks) a chunk per rank it draws, as for NRANKS
 * distinct ranks. The distributed analysis is the template's, each rank carrying its
 * template rank's figures and verdicts; the per-step critical rank is the template's (the
 * first copy); the straggler set is every copy of the template's stragglers (a plain
 * load of the copies would give the critical-path counts and time lost to the first
 * copy only: ties go to the lowest index).
 *
 * Usage: gen_index TEMPLATE OUT NRANKS [--placeholder]
 *   default: each rank's steps.jsonl and run.json are hard links to its template's, so a
 *   plain load of OUT (--no-index) is the same run (the tests compare them);
 *   --placeholder: every steps.jsonl is one empty file (hard links): only the index
 *   holds the steps (the benchmark); run.json as above. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/opts.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"
#include "model/xalloc.h"

struct gen {
	struct run *tmpl;
	const char *out;
	size_t D, N;
	const struct steps_rank_file *files;  /* OUT's rank files, by rank id */
	struct index_body_loc *loc;           /* per template rank */
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "gen_index: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* OUT/rankI/ with steps.jsonl and run.json linked to template rank I mod D's (or an
 * empty placeholder steps.jsonl). */
static void make_dirs(const struct gen *g, bool placeholder)
{
	if (mkdir(g->out, 0755) != 0)
		die("cannot create", g->out);
	const struct steps_model *m = g->tmpl->steps;
	char *empty = xasprintf("%s/.empty-steps.jsonl", g->out);
	if (placeholder) {
		FILE *f = fopen(empty, "w");
		if (!f || fclose(f) != 0)
			die("cannot write", empty);
	}
	for (size_t i = 0; i < g->N; i++) {
		const struct rank_steps *t = m->rank[i % g->D];
		char *dir = xasprintf("%s/rank%zu", g->out, i);
		if (mkdir(dir, 0755) != 0)
			die("cannot create", dir);
		const char *names[] = { "steps.jsonl", "run.json" };
		for (size_t k = 0; k < 2; k++) {
			char *from = xasprintf("%s/%s", t->path, names[k]);
			char *to = xasprintf("%s/%s", dir, names[k]);
			const char *src = k == 0 && placeholder ? empty : from;
			if (access(src, F_OK) == 0 && link(src, to) != 0)
				die("cannot link", to);
			free(from);
			free(to);
		}
		free(dir);
	}
	if (placeholder)
		unlink(empty); /* the links keep the file */
	free(empty);
}

/* The first copy of a template rank writes its body; the others name it. */
static bool gen_body(void *ud, size_t i, struct obuf *o, struct index_body_loc *loc)
{
	struct gen *g = ud;
	size_t d = i % g->D;
	if (i < g->D) {
		index_body_begin(o, &g->loc[d]);
		steps_rank_encode_body(g->tmpl->steps, d, o);
		index_body_end(o, &g->loc[d]);
	}
	*loc = g->loc[d];
	return true;
}

static bool gen_shell(void *ud, size_t i, size_t prev, struct obuf *o)
{
	struct gen *g = ud;
	steps_rank_encode_shell_as(g->tmpl->steps, i % g->D, prev == SIZE_MAX ? -1 : (long)(prev % g->D),
				   (int)g->files[i].rank, g->files[i].dir, g->out, o);
	return true;
}

/* The template's source entry of rank id `rank` (its steps.jsonl), NULL when none. */
static const struct source *tmpl_source(const struct run *run, int rank)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (run->src[i].rank == rank && strstr(run->src[i].path, "steps.jsonl"))
			return &run->src[i];
	return NULL;
}

/* The loader's source entries of OUT: each rank's steps.jsonl as its template's read. */
static size_t add_sources(struct gen *g)
{
	struct run *run = g->tmpl;
	size_t src0 = run->nsrc;
	for (size_t i = 0; i < g->N; i++) {
		const struct source *t = tmpl_source(run, steps_rank_id(run->steps, i % g->D));
		if (!t)
			continue;
		struct source s = *t; /* run_add_source may move run->src */
		size_t k = run_add_source(run, g->files[i].steps, "pytscope", (int)g->files[i].rank, s.bytes);
		run_source_done(run, k, s.records, s.skipped, s.err, s.partial);
		run_source_progress(run, k, s.bytes, s.consumed, s.lines);
	}
	return src0;
}

/* The template's distributed analysis over N copies (see the head of the file). */
static struct distributed *dist_expand(const struct distributed *t, const struct gen *g)
{
	if (!t)
		return NULL;
	struct distributed *d = xcalloc(1, sizeof(*d));
	*d = *t;
	d->world_size = g->N;
	d->straggler = g->N == g->D ? t->straggler : -1; /* pytscope's: one rank, not N/D copies */
	d->rank = xcalloc(g->N, sizeof(*d->rank));
	for (size_t i = 0; i < g->N; i++) {
		d->rank[i] = t->rank[i % g->D];
		d->rank[i].rank = (int)g->files[i].rank;
	}
	d->step = xmalloc((t->n_steps ? t->n_steps : 1) * sizeof(*d->step));
	memcpy(d->step, t->step, t->n_steps * sizeof(*d->step));
	d->nstragglers = t->nstragglers * (g->N / g->D);
	d->stragglers = xcalloc(d->nstragglers ? d->nstragglers : 1, sizeof(*d->stragglers));
	size_t k = 0;
	for (size_t j = 0; j < t->nstragglers; j++)
		for (size_t c = 0; c < g->N / g->D; c++)
			d->stragglers[k++] = t->stragglers[j] + (int)(c * g->D);
	return d;
}

static int write_summary(struct gen *g)
{
	struct run *run = g->tmpl;
	const struct steps_model *m = run->steps;
	static const int series[] = { HEAT_COMPUTE, HEAT_REL_SLOWDOWN };
	const struct distributed *td = analysis_distributed(run);
	struct distributed *d = dist_expand(td, g);
	int *ids = xmalloc(g->N * sizeof(*ids));
	uint32_t *row_src = xmalloc(g->N * sizeof(*row_src));
	struct budget_sums *bsum = xmalloc(g->N * sizeof(*bsum));
	for (size_t i = 0; i < g->D && i < g->N; i++)
		analysis_budget_sums(run, i, &bsum[i]);
	for (size_t i = 0; i < g->N; i++) {
		ids[i] = (int)g->files[i].rank;
		row_src[i] = (uint32_t)(i % g->D);
		bsum[i] = bsum[i % g->D];
	}
	struct summary_out s = { .nranks = g->N, .rank_id = ids, .aligned_contiguous = m->aligned_contiguous,
				 .aligned_lo = m->aligned_lo, .naligned = steps_naligned(m), .aligned = m->aligned,
				 .nunion = m->nunion, .dist = d, .bsum = bsum };
	for (size_t i = 0; i < ARRAY_LEN(series); i++) {
		const struct heat_grid *hg = analysis_heatmap(run, series[i]);
		if (hg)
			s.grid[s.ngrid++] = (struct summary_grid_out){ hg, row_src };
	}
	int err = steps_summary_write_out(g->out, &s);
	if (d) {
		free(d->rank);
		free(d->step);
		free(d->stragglers);
		free(d);
	}
	free(ids);
	free(row_src);
	free(bsum);
	return err;
}

int main(int argc, char **argv)
{
	if (argc < 4 || (argc == 5 && strcmp(argv[4], "--placeholder") != 0) || argc > 5) {
		fprintf(stderr, "usage: gen_index TEMPLATE OUT NRANKS [--placeholder]\n");
		return 2;
	}
	struct opts o = { .no_index = true };
	const char *paths[] = { argv[1] };
	struct gen g = { .out = argv[2], .N = (size_t)strtoul(argv[3], NULL, 10) };
	g.tmpl = run_open(paths, 1, &o, NULL);
	g.D = g.tmpl->steps ? steps_nranks(g.tmpl->steps) : 0;
	if (!g.D || !g.N || g.N % g.D) {
		fprintf(stderr, "gen_index: %s has %zu ranks; NRANKS must be a multiple of it\n", argv[1], g.D);
		return 1;
	}
	make_dirs(&g, argc == 5);
	struct steps_rank_file *files = NULL;
	size_t nf = index_plan(g.out, &files);
	if (nf != g.N) {
		fprintf(stderr, "gen_index: %s plans %zu rank dirs, not %zu\n", g.out, nf, g.N);
		return 1;
	}
	g.files = files;
	g.loc = xcalloc(g.D, sizeof(*g.loc));
	size_t src0 = add_sources(&g);
	struct index_part_spec spec = { g.tmpl, g.out, 0, 1, files, 0, g.N, src0, g.tmpl->nsrc, 0, 0,
					gen_body, gen_shell, &g, NULL, NULL, NULL };
	int err = index_write_spec(&spec, NULL);
	if (!err)
		err = write_summary(&g);
	if (err) {
		errno = err;
		die("cannot write the index of", g.out);
	}
	printf("gen_index: %s: %zu ranks (copies of %zu) x %zu steps\n", g.out, g.N, g.D,
	       steps_naligned(g.tmpl->steps));
	free(g.loc);
	steps_rank_files_free(files);
	run_free(g.tmpl);
	return 0;
}
