/* SPDX-License-Identifier: MIT */
/* print_trace.c: the COMMUNICATION OVERLAP section of the report, byte-identical to
 * pytscope 0.2.1 (spec pytscope.md §11) for the trace of the lowest rank; natively its
 * communication kernels are the classification table's (trace_pysum), with more traces
 * the heading names that rank, and a truncated trace (trace_rank_partial) is said so: its
 * figures are of the events read and the exposed share is n/a (not judged, as
 * DIST.EXPOSED_COMM). The exposed share is the value DIST.EXPOSED_COMM rounds
 * (trace_pysum_exposed_pct). */
#include "src/print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/trace/trace.h"
#include "src/sbuf.h"

char *print_section_trace(struct run *run, const struct print_opts *po)
{
	struct trace_set *ts = trace_get(run);
	if (!ts || ts->n == 0)
		return NULL;
	const struct trace_pysum *p = trace_pysum(ts, 0);
	if (!p->present || p->n_comm == 0)
		return NULL;
	bool color = po && po->color, native = po && !po->compat;
	bool partial = native && trace_rank_partial(ts->r[0]);
	double frac = p->wall > 0 ? p->exposed / p->wall : 0;
	double eff = p->comm > 0 ? p->overlapped / p->comm : 0;
	enum sgr led = frac >= 0.5 ? SGR_RED : SGR_YELLOW; /* high red; med and amber yellow */
	enum sgr exp_code = frac >= 0.5 ? SGR_RED : frac >= 0.2 ? SGR_YELLOW : SGR_GREEN;
	char pct[32], exp[96];
	struct sbuf b = { 0 };
	sb_heading(&b, color, partial ? SGR_CYAN : led, "COMMUNICATION OVERLAP");
	if (native && ts->n > 1) /* the lowest rank's trace alone, as TIMING's " (rank K)" */
		sb_printf(&b, " (rank %d)", ts->r[0]->rank);
	sb_puts(&b, " — from kernel trace\n");
	if (partial)
		sb_printf(&b, "  rank %d's trace is truncated before the end of its GPU events: figures of the events "
			  "read, exposed share not judged\n", ts->r[0]->rank);
	snprintf(pct, sizeof(pct), "%.0f%%", eff * 100);
	if (partial)
		snprintf(exp, sizeof(exp), "%.1f ms (share n/a)", p->exposed * 1e3);
	else
		snprintf(exp, sizeof(exp), "%.1f ms (%.0f%% of %s)", p->exposed * 1e3, trace_pysum_exposed_pct(p),
			 native ? "trace span" : "wall");
	sb_printf(&b, "  comm %.1f ms · overlapped ", p->comm * 1e3);
	sb_style(&b, color, SGR_GREEN, SGR_NONE, pct);
	sb_puts(&b, " · exposed ");
	sb_style(&b, color, partial ? SGR_NONE : exp_code, SGR_NONE, exp);
	sb_puts(&b, "\n  by collective: ");
	bool first = true;
	for (int k = 0; k < 6; k++) {
		if (!p->has_coll[k])
			continue;
		sb_printf(&b, "%s%s %.1fms", first ? "" : ", ", trace_coll_names[k], p->per_coll[k] * 1e3);
		first = false;
	}
	sb_puts(&b, "\n");
	return sb_take(&b);
}
