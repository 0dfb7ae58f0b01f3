/* SPDX-License-Identifier: MIT */
/* print_trace.c: the COMMUNICATION OVERLAP section of the report, byte-identical to
 * pytscope 0.2.1 (spec pytscope.md §11) for the trace of the lowest rank. */
#include "src/print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/trace/trace.h"
#include "model/xalloc.h"

enum { SGR_RED = 31, SGR_GREEN = 32, SGR_YELLOW = 33 };

/* text styled with SGR codes when color is on; empty text is never styled */
static void styled(char *out, size_t n, bool color, const char *codes, const char *text)
{
	if (!color || !*text)
		snprintf(out, n, "%s", text);
	else
		snprintf(out, n, "\x1b[%sm%s\x1b[0m", codes, text);
}

static void append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

char *print_section_trace(struct run *run, const struct print_opts *po)
{
	struct trace_set *ts = trace_get(run);
	if (!ts || ts->n == 0)
		return NULL;
	const struct trace_pysum *p = trace_pysum(ts, 0);
	if (!p->present || p->n_comm == 0)
		return NULL;
	bool color = po && po->color;
	double frac = p->wall > 0 ? p->exposed / p->wall : 0;
	double eff = p->comm > 0 ? p->overlapped / p->comm : 0;
	const char *led_code = frac >= 0.5 ? "31" : "33"; /* high red; med and amber yellow */
	const char *exp_code = frac >= 0.5 ? "31" : frac >= 0.2 ? "33" : "32";
	char led[32], title[96], pct[32], pcts[48], exp[96], exps[128], line[512];
	styled(led, sizeof(led), color, led_code, "●");
	styled(title, sizeof(title), color, "1", "COMMUNICATION OVERLAP");
	char *out = NULL;
	size_t len = 0;
	snprintf(line, sizeof(line), "%s %s — from kernel trace\n", led, title);
	append(&out, &len, line);
	snprintf(pct, sizeof(pct), "%.0f%%", eff * 100);
	styled(pcts, sizeof(pcts), color, "32", pct);
	snprintf(exp, sizeof(exp), "%.1f ms (%.0f%% of wall)", p->exposed * 1e3, frac * 100);
	styled(exps, sizeof(exps), color, exp_code, exp);
	snprintf(line, sizeof(line), "  comm %.1f ms · overlapped %s · exposed %s\n", p->comm * 1e3, pcts, exps);
	append(&out, &len, line);
	append(&out, &len, "  by collective: ");
	bool first = true;
	for (int k = 0; k < 6; k++) {
		if (!p->has_coll[k])
			continue;
		snprintf(line, sizeof(line), "%s%s %.1fms", first ? "" : ", ", trace_coll_names[k],
			 p->per_coll[k] * 1e3);
		append(&out, &len, line);
		first = false;
	}
	append(&out, &len, "\n");
	return out;
}
