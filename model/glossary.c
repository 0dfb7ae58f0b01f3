/* SPDX-License-Identifier: MIT */
/* glossary.c: the project's vocabulary (glossary.h): the man page's Glossary and which
 * column names spell each term. */
#include "model/glossary.h"

#include <string.h>

struct glossary_entry {
	const char *term, *also, *def;
};

/* The man page's Glossary, word for word as mandoc renders it (tests/ui/legend.sh
 * compares them). `also` is another spelling that brings the entry in (a column name). */
static const struct glossary_entry glossary[] = {
	{ "step time", "step_time", "One rank's step record: the sum of all its phases (the steps view's step_time_ms, "
				    "the Steps pane's step_time)." },
	{ "step wall", NULL, "One aligned step of a distributed run: the slowest rank's compute plus the largest comm "
			     "(pytscope's step wall; the report's 'mean step wall')." },
	{ "run wall", NULL, "The sum of the step walls over the aligned steps (the Overview's and the report's 'run "
			    "wall')." },
	{ "rank wall", "rank_wall", "One rank's compute, data, comm and other summed over its step records after warmup "
				    "(unknown phases excluded): the base of that rank's efficiency budget (Budget pane, "
				    "budget view's rank_wall_s; the Overview's and the report's budget are the lowest "
				    "rank's)." },
	{ "trace span", "trace_span", "A rank's trace from the first to the last GPU kernel (pytscope's trace wall; the "
				      "comm_overlap view's trace_span_ms)." },
	{ "HTA span", "kernel_us", "A rank's GPU events as HTA's temporal breakdown reads them, from the first to "
				   "the last: like the trace span, but without the kernels launched in the last "
				   "ProfilerStep when the rank's trace records two ProfilerSteps or more (HTA leaves that "
				   "step out). The base of busy and idle: the temporal view's kernel_us and "
				   "percentages, the GPU time line and TRACE.GPU_IDLE." },
	{ "wall", NULL, "Never alone in a label: one of step wall, run wall, rank wall or trace span. Only the texts of "
			"pytscope's findings keep pytscope's bare \"wall\": the rank wall in EFFICIENCY.LOW_MFU and "
			"EFFICIENCY.RECOVERABLE, the critical compute in DIST.STRAGGLER and DIST.LOAD_IMBALANCE (\"% of "
			"wall time is lost\"), the trace span in DIST.EXPOSED_COMM." },
	{ "compute", NULL, "Per rank and step: the sum of the phases data, forward, backward, optimizer, compute and "
			   "other (pytscope's COMPUTE_PHASES; unknown phase names excluded); for a trace's "
			   "ProfilerStep, the step less its exposed communication (its phase compute is the "
			   "computation kernels' time, other the rest). In the trace views: GPU time in compute "
			   "kernels (HTA's kernel types: the temporal view's compute_us; pytscope's comm_overlap "
			   "counts memory copies and sets as compute too)." },
	{ "critical compute", NULL, "The slowest rank's compute at an aligned step; summed over the steps it is the "
				    "base of imbalance." },
	{ "useful compute", "useful_compute", "The efficiency budget's first line: the part of a rank's forward, "
					       "backward, optimizer and compute phases its FLOP basis accounts for (FLOPs per "
					       "step times steps over the peak, at most those phases; records of one step in a "
					       "row, micro-batches, are one step, except under --compat pytscope); all of them "
					       "without a FLOP basis (the Budget pane, budget view's useful_compute_s)." },
	{ "compute overhead", "compute_overhead", "The rest of those phases: their time minus the useful compute "
						  "(compute_overhead_s); n/a without a FLOP basis, and a data_stall, "
						  "communication or other line is n/a when the run records no such "
						  "phase, or for a rank when none of its steps has it (not 0)." },
	{ "non-compute", "non_compute", "HTA's kernel time that is not compute (communication and memory kernels), "
					"in the temporal view (non_compute_us, non_compute_pct)." },
	{ "imbalance", NULL, "The share of the critical compute lost waiting: the sum over aligned steps of slowest "
			     "minus mean compute, over the sum of the slowest (pytscope's \"wall lost to imbalance\")." },
	{ "comm", NULL, "The phase comm of a step record; for a trace's ProfilerStep, its exposed communication: the "
			"time its communication kernels run with no computation kernel overlapping (the steps view's "
			"comm_ms). In the trace views: GPU time in communication kernels, overlapped or not (NCCL and "
			"collectives; the comm_overlap view's comm_ms)." },
	{ "comm overlap", "comm_overlap", "For traces: the share of a rank's comm during which a compute kernel runs too "
					  "(the temporal view's comm_overlap_pct); the rest of the comm is exposed." },
	{ "busy", NULL, "GPU time covered by kernels (compute, comm and memory kernels), within the HTA span." },
	{ "idle", NULL, "Time on the GPU with no kernel running, within the HTA span. For DASF databases: a GPU "
			"utilisation sample below the DASF.GPU_IDLE threshold." },
	{ "time lost", "time_lost", "Seconds the other ranks waited for a rank at the step barrier while it was the "
				    "critical (slowest) rank; ranks tied at the slowest compute (to half a nanosecond) "
				    "share the step's wait." },
	{ "cost", NULL, "A straggler's time lost from its onset on." },
	{ "straggler", NULL, "A rank in the straggler set (FINDINGS, Stragglers); not any rank that lost some time." },
	{ "potential_straggler", NULL, "HTA's per-rank flag in the temporal view: yes for the 2 ranks most often among "
				       "the 2 latest, step by step, to start the communication kernel (over 1% of the "
				       "mean step) whose start time in the step varies most across the ranks; a hint, "
				       "not the straggler set." },
};

size_t glossary_count(void)
{
	return ARRAY_LEN(glossary);
}

const char *glossary_term(size_t i)
{
	return glossary[i].term;
}

const char *glossary_def(size_t i)
{
	return glossary[i].def;
}

bool glossary_used(size_t i, const char *words)
{
	return strcasestr(words, glossary[i].term) || (glossary[i].also && strcasestr(words, glossary[i].also));
}
