/* SPDX-License-Identifier: MIT */
/* rules.c: the trace family's finding rules: DIST.EXPOSED_COMM (pytscope's order 430,
 * from the trace summary of the lowest rank, whose communication kernels are the
 * classification table's as the steps' are, but under --compat pytscope; its share the
 * one the report's section rounds), the native TRACE.GPU_IDLE and TRACE.ENV_DIFFERS, and
 * what they and HTA's potential stragglers could not judge (the subsystem's `unjudged`;
 * traces of two runs are not weighed against each other, and each reason is the one the
 * input has: the headline's when HTA's last-step filter left no kernel, zero-duration
 * communication kernels told from skipped ones); the text of an idle share on its side of
 * TRACE.GPU_IDLE's bars (trace_idle_text) and of what that filter left (trace_filtered_text). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/config_diff.h"
#include "model/steps/steps.h"
#include "model/trace/internal.h"

static void rule_exposed_comm(struct run *run, struct finding_list *out)
{
	struct trace_set *ts = trace_get(run);
	if (!ts || ts->n == 0)
		return;
	const struct trace_pysum *p = trace_pysum(ts, 0);
	if (!p->present || p->n_comm == 0 || p->wall <= 0 || trace_rank_partial(ts->r[0]))
		return;
	double exp = trace_pysum_exposed_pct(p); /* the section's value: 37.5% is 38% in both */
	if (exp < 5)
		return;
	double ovl = p->comm > 0 ? p->overlapped / p->comm : 0;
	char who[48] = ""; /* natively, whose trace when there are more (pytscope's text: none) */
	if (ts->n > 1 && !(run->opts && run->opts->compat_pytscope))
		snprintf(who, sizeof(who), "On rank %d's trace (the lowest rank's), ", ts->r[0]->rank);
	char detail[560];
	snprintf(detail, sizeof(detail),
		 "%s%.0f%% of wall time is *exposed* communication — collective time that does not overlap "
		 "any compute kernel. Only %.0f%% of the %.1f ms of communication is hidden behind compute.",
		 who, exp, ovl * 100, p->comm * 1e3);
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = ts->r[0]->rank;
	ev.view = "comm_overlap"; /* its row there, in a run without a heatmap */
	findings_add(out, "DIST.EXPOSED_COMM", exp >= 15 ? SEV_HIGH : SEV_MED,
		     "Communication is not overlapped with compute", detail,
		     "Improve compute/communication overlap: enable DDP gradient bucketing (tune "
		     "`bucket_cap_mb`), avoid `find_unused_parameters` stalls, overlap optimizer/all-reduce, "
		     "or increase per-GPU compute so backward lasts long enough to hide the all-reduce.",
		     ev);
}

void trace_idle_text(double pct, int prec, char *buf, size_t n)
{
	numfmt_same_side(pct, pct < TRACE_IDLE_PCT ? TRACE_IDLE_PCT : TRACE_IDLE_HIGH_PCT, prec, buf, n);
}

const char *const trace_filtered_what = "HTA's last-step filter left no GPU kernel";

void trace_filtered_text(size_t filtered, char *buf, size_t n)
{
	snprintf(buf, n, "it keeps those whose CPU launch, by correlation id, starts before the last ProfilerStep; "
		 "%zu kernel%s had none", filtered, filtered == 1 ? "" : "s");
}

/* TRACE.GPU_IDLE (native): a rank's GPU idle for TRACE_IDLE_PCT of its HTA span or
 * more (HTA temporal breakdown: the span of its events, without the last ProfilerStep
 * when HTA drops it); one finding naming the idlest rank and how many ranks pass. A rank
 * that drives several GPUs has each judged on its own span, and the finding names GPUs.
 * A partial rank (truncated) is not judged (trace_gpu_time leaves it out; trace_unjudged).
 * Evidence: that rank's row of the temporal view. */
static void rule_gpu_idle(struct run *run, struct finding_list *out)
{
	struct trace_set *ts = trace_get(run);
	struct trace_gpu_time g;
	if (!trace_gpu_time(ts, &g) || g.max_idle_pct < TRACE_IDLE_PCT)
		return;
	char max_who[64], min_who[64], count[96];
	trace_gpu_label(g.max_rank, g.max_device, g.max_ngpu, max_who, sizeof(max_who));
	trace_gpu_label(g.min_rank, g.min_device, g.min_ngpu, min_who, sizeof(min_who));
	if (g.ngpu > g.n)
		snprintf(count, sizeof(count), "%zu of %zu traced GPUs (of %zu rank%s)", g.nidle, g.ngpu, g.n,
			 g.n == 1 ? "" : "s");
	else
		snprintf(count, sizeof(count), "%zu of %zu traced ranks", g.nidle, g.n);
	/* HTA's last-step rule is per rank: say whose last step it left out */
	const char *last = g.dropped_last == g.n ? ", which leaves out the last ProfilerStep"
			 : g.dropped_last ? ", which leaves out the last ProfilerStep of the ranks with several" : "";
	char partial[96] = "";
	if (g.npartial == 1)
		snprintf(partial, sizeof(partial), " (rank %d's truncated trace not judged)", g.partial_rank);
	else if (g.npartial)
		snprintf(partial, sizeof(partial), " (%zu truncated traces not judged, the first rank %d's)",
			 g.npartial, g.partial_rank);
	char title[160], detail[640], max_title[32], max_pct[32], min_pct[32], all_pct[32];
	trace_idle_text(g.max_idle_pct, 0, max_title, sizeof(max_title));   /* not "50%" high for 49.96% */
	trace_idle_text(g.max_idle_pct, 1, max_pct, sizeof(max_pct));
	trace_idle_text(g.min_idle_pct, 1, min_pct, sizeof(min_pct));
	trace_idle_text(100 * g.idle_us / g.span_us, 1, all_pct, sizeof(all_pct));
	if (g.max_ngpu > 1)   /* one of the rank's GPUs: never "the GPU" over several */
		snprintf(title, sizeof(title), "%s is idle %s%% of its HTA span", max_who, max_title);
	else
		snprintf(title, sizeof(title), "The GPU is idle %s%% of the HTA span on rank %d", max_title, g.max_rank);
	title[0] = (char)toupper((unsigned char)title[0]);
	char on[80];
	snprintf(on, sizeof(on), g.max_ngpu > 1 ? "%s" : "%s's GPU", max_who);
	snprintf(detail, sizeof(detail),
		 "No kernel runs on %s for %s%% of its HTA span (HTA temporal breakdown%s); "
		 "%s%s are idle %.0f%% or more (least idle: %s at %s%%). Over %s "
		 "ranks: compute %.1f%%, %s %.1f%%, idle %s%%.",
		 on, max_pct, last, count, partial, TRACE_IDLE_PCT, min_who,
		 min_pct, g.npartial ? "those" : "all", 100 * g.compute_us / g.span_us,
		 g.comm_unknown ? "communication n/a (no kernel matched as communication), memory and other"
				: "communication and memory",
		 100 * g.noncompute_us / g.span_us, all_pct);
	struct evidence ev = evidence_none();
	ev.kind = EV_ROW;
	ev.view = "temporal";
	ev.item = g.max_rank;
	ev.rank = g.max_rank;
	findings_add(out, "TRACE.GPU_IDLE", g.max_idle_pct >= TRACE_IDLE_HIGH_PCT ? SEV_HIGH : SEV_MED, title,
		     detail,
		     "See the idle view for where the gaps are: host_wait (the CPU launches too late: "
		     "dataloader, Python overhead, synchronisation; try CUDA graphs, torch.compile, more "
		     "loader workers) or kernel_wait (many tiny kernels: fuse them).",
		     ev);
}

/* Whether name is one of list's ", "-separated names. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return true;
	return false;
}

/* Whether the run.json comparison (ENV.RANKS_DIFFER, model/steps/config_diff.h) names
 * the rank e names first and, for each key e names, the run.json key that records the
 * same: gpu, and cuda for cuda_runtime_version (run.json has no driver version nor
 * backend). */
static bool runjson_names(const struct run *run, const struct trace_set *ts, const struct trace_env_diff *e)
{
	static const char *const runjson_key[TRACE_ENV_KEYS] = { "gpu", "cuda", NULL, NULL };
	struct config_diff c;
	if (!run->steps || steps_nranks(run->steps) == 0 || !steps_config_diff(run->steps, DIFF_ENV, &c) ||
	    steps_rank_id(run->steps, c.first) != ts->r[e->first]->rank)
		return false;
	for (size_t k = 0; k < TRACE_ENV_KEYS; k++)
		if (listed(e->keys, trace_env_keys[k]) && (!runjson_key[k] || !listed(c.keys, runjson_key[k])))
			return false;
	return true;
}

/* TRACE.ENV_DIFFERS (native): GPU names, CUDA versions or backends that a few traces record
 * otherwise than the rest, or with no majority against the lowest rank's
 * (trace_env_diff); not when the ranks' run.json says the same (runjson_names: one
 * cause, one finding; the headline keeps both lines). Evidence: the first rank that
 * differs. */
static void rule_env(struct run *run, struct finding_list *out)
{
	struct trace_set *ts = trace_get(run);
	struct trace_env_diff e;
	if (!trace_env_diff(ts, &e) || runjson_names(run, ts, &e))
		return;
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = ts->r[e.first]->rank;
	int low = ts->r[0]->rank;
	char others[32] = "the others", more[160] = "";
	if (e.split) {
		snprintf(others, sizeof(others), "rank %d", low);
		snprintf(more, sizeof(more), " (%zu of %zu traces differ from rank %d%s%s, no majority)", e.ndiff, e.n, low,
			 e.ranks[0] ? ": " : "", e.ranks);
	} else if (e.ndiff > 1) {
		snprintf(more, sizeof(more), " (%zu of %zu traces differ%s%s)", e.ndiff, e.n, e.ranks[0] ? ": " : "",
			 e.ranks);
	}
	char title[320], detail[768];
	snprintf(title, sizeof(title), "Rank %d's trace has %s=%s, %s %s%s", ev.rank, e.key, e.value, others, e.others,
		 more);
	snprintf(detail, sizeof(detail), "%zu of the %zu traces record %s otherwise than %s; the first is rank %d's, "
		 "with %s=%s where %s %s %s. A rank on another GPU type, CUDA runtime or driver runs at another "
		 "speed, and in a synchronous job every rank waits for the slowest; another communication backend "
		 "means traces of another job mixed in.", e.ndiff, e.n, e.keys, e.split ? others : "the other traces",
		 ev.rank, e.key, e.value,
		 e.split ? others : "the others", e.split ? "has" : "have", e.others);
	findings_add(out, "TRACE.ENV_DIFFERS", SEV_MED, title, detail,
		     "Run every rank on like nodes and one software image (check the partition's node types and "
		     "the CUDA driver each node has); keep traces of other jobs in a directory of their own.", ev);
}

/* DIST.EXPOSED_COMM not judged: the lowest rank's trace has kernels the classification
 * table calls communication, but none in pytscope's summary (trace_pysum: events of the
 * categories kernel, gpu_memcpy and gpu_memset that last). Why, with the counts: those
 * read have zero duration, or are of another category; none was read: they were skipped,
 * each lasting far past the profiled window (load.c keeps their names). */
static void comm_unmeasured(struct trace_set *ts, struct not_judged *nj)
{
	struct trace_rank *r = ts->r[0];
	size_t zero = 0, other = 0;
	trace_rank_need_events(ts, r);
	for (size_t k = 0; k < r->nk; k++)
		if (r->name_cls[r->k[k].name] == KC_COMMUNICATION) {
			zero += (r->k[k].flags & TK_PYSEL) != 0;   /* selected, so of zero duration */
			other += !(r->k[k].flags & TK_PYSEL);
		}
	const char *cat = "of another category than kernel, gpu_memcpy or gpu_memset";
	if (zero && other)
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (none of rank %d's %zu "
				      "communication events is measured: %zu have zero duration, %zu are %s)", r->rank,
				      zero + other, zero, other, cat);
	else if (zero)
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (rank %d's %zu communication "
				      "kernel%s zero duration)", r->rank, zero, zero == 1 ? " has" : "s have");
	else if (other)
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (rank %d's %zu communication "
				      "event%s %s)", r->rank, other, other == 1 ? " is" : "s are", cat);
	else
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (rank %d's communication kernels "
				      "were skipped: each lasts far past its profiled window)", r->rank);
}

void trace_unjudged(struct run *run, struct not_judged *nj)
{
	struct trace_set *ts = trace_get(run);
	if (!ts || ts->n == 0)
		return;
	const struct trace_pysum *p = trace_pysum(ts, 0);
	if (trace_rank_partial(ts->r[0]))
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (rank %d's trace is truncated "
				      "before the end of its GPU events)", ts->r[0]->rank);
	else if (!p->present)
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (no GPU kernel in rank %d's trace)",
				      ts->r[0]->rank);
	else if (p->n_comm == 0 && run->opts && run->opts->compat_pytscope)
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (no communication kernel in "
				      "rank %d's trace)", ts->r[0]->rank);
	else if (p->n_comm == 0 && trace_rank_comm_kernels(ts->r[0]))
		comm_unmeasured(ts, nj);
	else if (p->n_comm == 0)   /* as the GPU time line's "comm n/a" says it */
		findings_unjudged_add(nj, "DIST.EXPOSED_COMM", "exposed communication (no kernel in rank %d's trace "
				      "matched the classification table as communication, which --kernel-classes "
				      "extends)", ts->r[0]->rank);
	struct trace_gpu_time g;
	bool ok = trace_gpu_time(ts, &g);
	char left[160];
	if (g.npartial) {
		findings_unjudged_add(nj, "TRACE.GPU_IDLE", "GPU idle time of %s%d%s (truncated before the end of "
				      "%s GPU events)", g.npartial > 1 ? "ranks " : "rank ", g.partial_rank,
				      g.npartial > 1 ? " and others" : "", g.npartial > 1 ? "their" : "its");
	} else if (!ok && g.filtered) {   /* the headline's words (subsystem.c) */
		trace_filtered_text(g.filtered, left, sizeof(left));
		findings_unjudged_add(nj, "TRACE.GPU_IDLE", "GPU idle time (%s: %s)", trace_filtered_what, left);
	} else if (!ok) {
		findings_unjudged_add(nj, "TRACE.GPU_IDLE", "GPU idle time (no GPU kernel in the traces)");
	}
	char mixed[160];   /* traces of two runs: no rank weighed against another */
	const char *why = trace_mixed_why(ts, mixed, sizeof(mixed));
	int strag[2];
	if (ts->n > 1 && !why)
		trace_stragglers(ts, strag, &why);
	/* the temporal view's column, empty: no finding stands for it, so the report lists it
	 * beside findings too (a subject) */
	if (why)
		findings_unjudged_add_about(nj, "", "potential_straggler", "potential stragglers (%s)", why);
}

const struct finding_rule trace_rules[TRACE_NRULES] = {
	{ "DIST.EXPOSED_COMM", 430, rule_exposed_comm, false, SUBJECT_LOWEST, false },
	{ "TRACE.GPU_IDLE", 440, rule_gpu_idle, true, SUBJECT_PICKED, false },
	{ "TRACE.ENV_DIFFERS", 441, rule_env, true, SUBJECT_PICKED, true },
};
