/* SPDX-License-Identifier: MIT */
/* unused_options.c: the options that do not apply to the run's input families, named on
 * stderr (unused_options.h), and --ranks-per-node when every rank records a hostname
 * (the node roll-up groups by hostname then: model/steps/nodes.h). */
#include "src/unused_options.h"

#include <stdio.h>
#include "model/steps/nodes.h"
#include "model/steps/steps.h"
#include "model/sweep/sweep.h"

/* A GPU estimate can be made: a NAT calculator's output, or a GenAI-Perf concurrency series with a
 * latency fit (the only sizing a GenAI-Perf sweep has: p95 request latency against concurrency). */
static bool sizing_fit(const struct sweep_set *sw)
{
	if (!sw)
		return false;
	for (size_t i = 0; i < sw->nseries; i++)
		if (sw->series[i].has_fit)
			return true;
	return sw->nnat > 0;
}

/* The run's step records come from rank dirs, which --ranks names: not from a steps.jsonl
 * given directly nor a directory without rank dirs (the loader reads those whole). */
static bool steps_ranked(struct run *run)
{
	if (!run->steps || !steps_nranks(run->steps))
		return false;
	if (steps_nranks(run->steps) > 1 || steps_left_out(run->steps))
		return true;
	struct steps_rank_file *v;
	size_t n = steps_plan_files(run->path, &v);
	bool flat = steps_files_flat(v, n, run->path);
	steps_rank_files_free(v);
	return !flat;
}

enum { STEPS, RANKS, TRACES, SWEEPS, SIZING, RUNTIME, NFAM };

/* The input families of run that options may be for, or'd into applies. */
static void families_of(const struct opts *o, struct run *run, bool applies[NFAM])
{
	const struct sweep_set *sw = run->sweep ? sweep_derived(run) : NULL;
	bool ranked = o->ranks && steps_ranked(run);   /* listed only for --ranks: it may list a dir */
	applies[STEPS] |= run->steps && steps_nranks(run->steps) > 0;
	applies[RANKS] |= ranked || run->trace;
	applies[TRACES] |= run->trace != NULL;
	applies[SWEEPS] |= sw && sw->ncfg > 0;
	applies[SIZING] |= sizing_fit(sw);
	applies[RUNTIME] |= sw && sw->nnat > 0;
}

void note_unused_options(const struct opts *o, struct run *const *runs, size_t nruns)
{
	bool applies[NFAM] = { false };
	for (size_t r = 0; r < nruns; r++) {
		if (run_is_empty(runs[r]))
			return;
		families_of(o, runs[r], applies);
	}
	static const char *const to[NFAM] = {
		"step records", "rank dirs or traces", "Kineto traces", "GenAI-Perf sweeps",
		"GPU sizing (NAT output, or a GenAI-Perf concurrency sweep with a p95 latency fit)",
		"NAT sizing (p95 workflow runtime)",
	};
	const struct {
		const char *name;
		bool given;
		int fam;
	} v[] = {
		{ "--warmup", o->warmup > 0, STEPS }, { "--flops-per-step", o->flops_set, STEPS },
		{ "--peak-tflops", o->peak_set, STEPS }, { "--ranks-per-node", o->ranks_per_node > 0, STEPS },
		{ "--ranks", o->ranks != NULL, RANKS }, { "--kernel-classes", o->kernel_classes != NULL, TRACES },
		{ "--objective", o->objective != NULL, SWEEPS }, { "--constraint", o->nconstraints > 0, SWEEPS },
		{ "--target-users", o->target_users > 0, SIZING },
		{ "--target-latency", o->target_latency > 0, SIZING },
		{ "--target-runtime", o->target_runtime > 0, RUNTIME }, { "--test-gpus", o->test_gpus > 0, SIZING },
	};
	for (int f = 0; f < NFAM; f++) {
		char names[160] = "";
		size_t used = 0, k = 0, n = 0;
		for (size_t i = 0; i < ARRAY_LEN(v); i++)
			n += v[i].fam == f && v[i].given;
		for (size_t i = 0; i < ARRAY_LEN(v) && !applies[f]; i++) {
			if (v[i].fam != f || !v[i].given || used >= sizeof(names))
				continue;
			const char *sep = k == 0 ? "" : k + 1 == n ? " and " : ", ";
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", sep, v[i].name);
			k++;
		}
		if (k)
			fprintf(stderr, "tscope-tui: %s ignored: for %s only, and %s\n", names, to[f],
				nruns == 1 ? "this run has none" : "neither run has any");
	}
	if (nruns == 1 && o->ranks_per_node > 0 && applies[STEPS] && steps_nodes_every_host(runs[0]))
		fprintf(stderr, "tscope-tui: --ranks-per-node ignored: every rank records a hostname; nodes are by "
				"hostname\n");
}
