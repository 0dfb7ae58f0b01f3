/* SPDX-License-Identifier: MIT */
/* rules.c: the trace family's finding rule DIST.EXPOSED_COMM (pytscope's order 430),
 * from the trace summary of the lowest rank. */
#include <stdio.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/trace/internal.h"

static void rule_exposed_comm(struct run *run, struct finding_list *out)
{
	struct trace_set *ts = trace_get(run);
	if (!ts || ts->n == 0)
		return;
	const struct trace_pysum *p = trace_pysum(ts, 0);
	if (!p->present || p->n_comm == 0 || p->wall <= 0)
		return;
	double exp = 100.0 * p->exposed / p->wall;
	if (exp < 5)
		return;
	double ovl = p->comm > 0 ? p->overlapped / p->comm : 0;
	char detail[512];
	snprintf(detail, sizeof(detail),
		 "%.0f%% of wall time is *exposed* communication — collective time that does not overlap "
		 "any compute kernel. Only %.0f%% of the %.1f ms of communication is hidden behind compute.",
		 exp, ovl * 100, p->comm * 1e3);
	struct evidence ev = evidence_none();
	ev.kind = EV_RANK;
	ev.rank = ts->r[0]->rank;
	findings_add(out, "DIST.EXPOSED_COMM", exp >= 15 ? SEV_HIGH : SEV_MED,
		     "Communication is not overlapped with compute", detail,
		     "Improve compute/communication overlap: enable DDP gradient bucketing (tune "
		     "`bucket_cap_mb`), avoid `find_unused_parameters` stalls, overlap optimizer/all-reduce, "
		     "or increase per-GPU compute so backward lasts long enough to hide the all-reduce.",
		     ev);
}

const struct finding_rule trace_rules[TRACE_NRULES] = {
	{ "DIST.EXPOSED_COMM", 430, rule_exposed_comm, false },
};
