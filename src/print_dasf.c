/* SPDX-License-Identifier: MIT */
/* print_dasf.c: the DASF section of the plain-text report: what was loaded, the heads
 * of function_bottleneck, task_bottleneck and task_balance, and the critical path. Rows
 * come from the same view tables as the explorer and --export (already sanitized). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/dasf.h"
#include "model/run.h"
#include "model/text.h"
#include "model/units.h"
#include "src/print.h"
#include "src/sbuf.h"

#define TOP_ROWS 5
#define BALANCE_COLS 7   /* the offset and six workers */

struct pcol {
	const char *name;   /* view column */
	const char *head;   /* printed header */
	int width;          /* negative: left-aligned */
};

/* One cell, clipped to |width| display columns and padded. */
static void cell(struct sbuf *f, const char *s, int width)
{
	char clip[256];
	int w = width < 0 ? -width : width;
	int used = text_clip(s, w, clip, sizeof(clip), true, 0);
	if (width > 0)
		sb_printf(f, "%*s%s", w - used, "", clip);
	else
		sb_printf(f, "%s%*s", clip, w - used, "");
}

/* "… 12 more rows (--export task_bottleneck)" when the view has more than the head. */
static void more_rows(struct sbuf *f, size_t total, size_t max, const char *name)
{
	if (total > max)
		sb_printf(f, "    … %zu more row%s (--export %s)\n", total - max, total - max == 1 ? "" : "s", name);
}

/* Why a view has no rows (dasf_view_head's reason, sanitized there), in place of its head. */
static void no_view(struct sbuf *f, const char *err)
{
	sb_printf(f, "    n/a: %s\n", err);
}

/* Up to `max` rows of view `name` (dasf.h dasf_view_head) with the chosen columns. */
static void print_view(struct sbuf *f, struct run *run, const char *name, const struct pcol *cols, size_t ncol,
		       size_t max)
{
	char err[128];
	size_t total;
	struct table *t = dasf_view_head(run, name, max, &total, err, sizeof(err));
	if (!t) {
		no_view(f, err);
		return;
	}
	sb_printf(f, "   ");
	for (size_t c = 0; c < ncol; c++) {
		sb_puts(f, " ");
		cell(f, cols[c].head, cols[c].width);
	}
	sb_puts(f, "\n");
	for (size_t r = 0; r < t->nview && r < max; r++) {
		sb_printf(f, "   ");
		for (size_t c = 0; c < ncol; c++) {
			char buf[256];
			table_format_nonzero(t, t->view[r], table_col_index(t, cols[c].name), buf, sizeof(buf));
			sb_puts(f, " ");
			cell(f, buf, cols[c].width);
		}
		sb_puts(f, "\n");
	}
	more_rows(f, total, max, name);
	table_free(t);
}

/* Up to `max` rows and the first `maxcol` columns of view `name` as the view has them
 * (task_balance: one column per worker), each `width` wide; head0 names column 0. */
static void print_view_head(struct sbuf *f, struct run *run, const char *name, const char *head0,
			    size_t max, size_t maxcol, int width)
{
	char err[128];
	size_t total;
	struct table *t = dasf_view_head(run, name, max, &total, err, sizeof(err));
	if (!t) {
		no_view(f, err);
		return;
	}
	size_t ncol = t->ncol < maxcol ? t->ncol : maxcol;
	sb_printf(f, "   ");
	for (size_t c = 0; c < ncol; c++) {
		sb_puts(f, " ");
		cell(f, c ? t->col[c].name : head0, width);
	}
	if (t->ncol > ncol)
		sb_printf(f, " … %zu more column%s", t->ncol - ncol, t->ncol - ncol == 1 ? "" : "s");
	sb_puts(f, "\n");
	for (size_t r = 0; r < t->nview && r < max; r++) {
		sb_printf(f, "   ");
		for (size_t c = 0; c < ncol; c++) {
			char buf[256];
			table_format(t, t->view[r], (int)c, buf, sizeof(buf));
			sb_puts(f, " ");
			cell(f, buf, width);
		}
		sb_puts(f, "\n");
	}
	more_rows(f, total, max, name);
	table_free(t);
}

/* The task heads: top functions and tasks (the critical path after task_balance). */
static void print_task_heads(struct sbuf *f, struct run *run)
{
	static const struct pcol fn_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Function", "Function", -32 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Num Tasks (chunks)", "Tasks", 7 }, { "Mean GPU Utilization (%)", "GPU %", 6 },
		{ "Mean Throughput (MB/s)", "MB/s", 10 },
	};
	sb_printf(f, "  Top functions (function_bottleneck)\n");
	print_view(f, run, "function_bottleneck", fn_cols, ARRAY_LEN(fn_cols), TOP_ROWS);
	static const struct pcol tb_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Task Key", "Task key", -36 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Memory usage (Mb)", "Memory MB", 10 },
	};
	sb_printf(f, "\n  Top tasks (task_bottleneck)\n");
	print_view(f, run, "task_bottleneck", tb_cols, ARRAY_LEN(tb_cols), TOP_ROWS);
}

static void print_critical_path(struct sbuf *f, struct run *run)
{
	static const struct pcol cp_cols[] = {
		{ "Step", "#", 3 }, { "Task Key", "Task key", -36 }, { "Function", "Function", -20 },
		{ "Host", "Host", -10 }, { "Duration (s)", "Duration s", 11 }, { "Cumulative (s)", "Total s", 11 },
	};
	sb_printf(f, "\n  Critical path (critical_path)\n");
	print_view(f, run, "critical_path", cp_cols, ARRAY_LEN(cp_cols), TOP_ROWS);
}

/* The section: what was loaded, then the heads; a database of Managed Memory events
 * alone (no task) still has its task_balance, the rest said n/a. */
char *print_section_dasf(struct run *run, const struct print_opts *po)
{
	struct dasf_summary s;
	if (!dasf_summarize(run, &s) || (!s.tasks && !s.mem_events))
		return NULL;
	struct sbuf b = { 0 }, *f = &b;
	sb_heading(f, po->color, SGR_CYAN, "DASF task profile");
	sb_puts(f, "\n");
	char fns[64];
	dasf_functions_text(&s, fns, sizeof(fns));
	sb_printf(f, "  %zu file%s · %zu task%s · %s · %zu worker%s on %zu host%s · %zu GPU sample%s (%zu CPU-only)\n",
		  s.files, s.files == 1 ? "" : "s", s.tasks, s.tasks == 1 ? "" : "s", fns, s.workers,
		  s.workers == 1 ? "" : "s", s.hosts, s.hosts == 1 ? "" : "s", s.gpu_samples,
		  s.gpu_samples == 1 ? "" : "s", s.cpu_only_samples);
	char task[40] = "n/a", crit[96] = "n/a", num[40];
	if (isfinite(s.total_task_s))
		snprintf(task, sizeof(task), "%s s", units_fixed(s.total_task_s, 3, num, sizeof(num)));
	if (isfinite(s.critical_s) && s.tasks)
		snprintf(crit, sizeof(crit), "%s s over %zu task%s", units_fixed(s.critical_s, 3, num, sizeof(num)),
			 s.critical_len, s.critical_len == 1 ? "" : "s");
	sb_printf(f, "  task time %s · critical path %s\n", task, crit);
	sb_printf(f, "  timestamps are per-host monotonic seconds: not comparable across hosts\n\n");
	if (s.tasks)
		print_task_heads(f, run);
	else
		sb_printf(f, "  no task (Compute) event: top functions, top tasks and the critical path n/a\n");
	sb_printf(f, "\n  Tasks in memory per worker (task_balance; seconds from the first event, "
		   "hosts' clocks mixed as in DASF)\n");
	print_view_head(f, run, "task_balance", "second", TOP_ROWS, BALANCE_COLS, 14);
	if (s.tasks)
		print_critical_path(f, run);
	return sb_take(&b);
}
