/* SPDX-License-Identifier: MIT */
/* print_dasf.c: the DASF section of the plain-text report: what was loaded, the heads
 * of function_bottleneck, task_bottleneck and task_balance, and the critical path (said to
 * be one of several when other chains are as long). Rows come from the same view tables as
 * the explorer and --export (already sanitized), with the views' decimals; a number is
 * never cut (its column widens to fit it, and 1e15 or more is in exponent form), text is
 * clipped with an ellipsis ("~" in an ASCII report, one column as "…" is). */
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
#define HEAD_COLS 8      /* the most columns a head prints (function_bottleneck's) */
#define CELL_MAX 256
_Static_assert(BALANCE_COLS <= HEAD_COLS, "task_balance's head has too many columns");

struct pcol {
	const char *name;   /* view column */
	const char *head;   /* printed header */
	int width;          /* negative: left-aligned */
};

/* A view's head as printed: the columns, then the text of its first rows. */
struct head {
	unsigned flags;                   /* TEXT_ASCII for an ASCII report (po->ascii) */
	size_t ncol, nrow;
	int col[HEAD_COLS];               /* view column */
	const char *name[HEAD_COLS];      /* printed header */
	int width[HEAD_COLS];             /* negative: left-aligned; a number column widens */
	char text[TOP_ROWS][HEAD_COLS][CELL_MAX];
};

/* One cell, clipped to |width| display columns and padded. In an ASCII report (flags
 * TEXT_ASCII) it is clipped as written, each character by its ASCII stand-in and the
 * ellipsis "~", so that print_out_end() changes no width. */
static void cell(struct sbuf *f, const char *s, int width, unsigned flags)
{
	char safe[CELL_MAX * 2], clip[CELL_MAX];
	int w = width < 0 ? -width : width;
	text_sanitize(s, strlen(s), safe, sizeof(safe), flags);
	int used = text_clip(safe, w, clip, sizeof(clip), true, flags);
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

/* The first rows of the view as text; a number column widened to its widest value, so
 * a number is never cut (text is clipped with an ellipsis). */
static void head_fill(struct head *h, const struct table *t, size_t max)
{
	h->nrow = t->nview < max ? t->nview : max;
	for (size_t r = 0; r < h->nrow; r++)
		for (size_t c = 0; c < h->ncol; c++) {
			table_format_report(t, t->view[r], h->col[c], true, h->text[r][c], CELL_MAX);
			int len = (int)strlen(h->text[r][c]), w = h->width[c];
			if (t->col[h->col[c]].type != COL_TEXT && len > abs(w))
				h->width[c] = w < 0 ? -len : len;
		}
}

/* The header line (and `extra`, what follows it), then the rows. */
static void head_print(struct sbuf *f, const struct head *h, const char *extra)
{
	sb_printf(f, "   ");
	for (size_t c = 0; c < h->ncol; c++) {
		sb_puts(f, " ");
		cell(f, h->name[c], h->width[c], h->flags);
	}
	sb_printf(f, "%s\n", extra);
	for (size_t r = 0; r < h->nrow; r++) {
		sb_printf(f, "   ");
		for (size_t c = 0; c < h->ncol; c++) {
			sb_puts(f, " ");
			cell(f, h->text[r][c], h->width[c], h->flags);
		}
		sb_puts(f, "\n");
	}
}

/* Up to `max` rows of view `name` (dasf.h dasf_view_head) with the chosen columns;
 * flags: the cells' (struct head). */
static void print_view(struct sbuf *f, struct run *run, const char *name, const struct pcol *cols, size_t ncol,
		       size_t max, unsigned flags)
{
	char err[128];
	size_t total;
	struct table *t = dasf_view_head(run, name, max, &total, err, sizeof(err));
	if (!t) {
		no_view(f, err);
		return;
	}
	struct head h = { .flags = flags, .ncol = ncol };
	for (size_t c = 0; c < ncol; c++) {
		h.col[c] = table_col_index(t, cols[c].name);
		h.name[c] = cols[c].head;
		h.width[c] = cols[c].width;
	}
	head_fill(&h, t, max);
	head_print(f, &h, "");
	more_rows(f, total, max, name);
	table_free(t);
}

/* Up to `max` rows and the first BALANCE_COLS columns of view `name` as the view has
 * them (task_balance: one column per worker), each at least `width` wide; head0 names
 * column 0. */
static void print_view_head(struct sbuf *f, struct run *run, const char *name, const char *head0,
			    size_t max, int width, unsigned flags)
{
	char err[128], extra[64] = "";
	size_t total;
	struct table *t = dasf_view_head(run, name, max, &total, err, sizeof(err));
	if (!t) {
		no_view(f, err);
		return;
	}
	struct head h = { .flags = flags, .ncol = t->ncol < BALANCE_COLS ? t->ncol : BALANCE_COLS };
	for (size_t c = 0; c < h.ncol; c++) {
		h.col[c] = (int)c;
		h.name[c] = c ? t->col[c].name : head0;
		h.width[c] = width;
	}
	if (t->ncol > h.ncol)
		snprintf(extra, sizeof(extra), " … %zu more column%s", t->ncol - h.ncol,
			 t->ncol - h.ncol == 1 ? "" : "s");
	head_fill(&h, t, max);
	head_print(f, &h, extra);
	more_rows(f, total, max, name);
	table_free(t);
}

/* The task heads: top functions and tasks (the critical path after task_balance). */
static void print_task_heads(struct sbuf *f, struct run *run, unsigned flags)
{
	static const struct pcol fn_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Function", "Function", -32 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Num Tasks (chunks)", "Tasks", 7 }, { "Mean GPU Utilization (%)", "GPU %", 6 },
		{ "Mean Throughput (MB/s)", "MB/s", 10 },
	};
	_Static_assert(ARRAY_LEN(fn_cols) <= HEAD_COLS, "function_bottleneck's head has too many columns");
	sb_printf(f, "  Top functions (function_bottleneck)\n");
	print_view(f, run, "function_bottleneck", fn_cols, ARRAY_LEN(fn_cols), TOP_ROWS, flags);
	static const struct pcol tb_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Task Key", "Task key", -36 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Memory usage (Mb)", "Memory MB", 10 },
	};
	sb_printf(f, "\n  Top tasks (task_bottleneck)\n");
	print_view(f, run, "task_bottleneck", tb_cols, ARRAY_LEN(tb_cols), TOP_ROWS, flags);
}

static void print_critical_path(struct sbuf *f, struct run *run, unsigned flags)
{
	static const struct pcol cp_cols[] = {
		{ "Step", "#", 3 }, { "Task Key", "Task key", -36 }, { "Function", "Function", -20 },
		{ "Host", "Host", -10 }, { "Duration (s)", "Duration s", 11 }, { "Cumulative (s)", "Total s", 11 },
	};
	sb_printf(f, "\n  Critical path (critical_path)\n");
	print_view(f, run, "critical_path", cp_cols, ARRAY_LEN(cp_cols), TOP_ROWS, flags);
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
	char task[40] = "n/a", crit[160] = "n/a", num[40];
	if (isfinite(s.total_task_s))
		snprintf(task, sizeof(task), "%s s", units_fixed(s.total_task_s, 3, num, sizeof(num)));
	if (isfinite(s.critical_s) && s.tasks)
		snprintf(crit, sizeof(crit), "%s s over %zu task%s", units_fixed(s.critical_s, 3, num, sizeof(num)),
			 s.critical_len, s.critical_len == 1 ? "" : "s");
	if (isfinite(s.critical_s) && s.tasks && s.critical_tied) /* another chain is as long: never "the" one */
		text_appendf(crit, sizeof(crit), ", one of several chains as long (%zu tasks lie on them)",
			     s.critical_tied);
	sb_printf(f, "  task time %s · critical path %s\n", task, crit);
	sb_printf(f, "  timestamps are per-host monotonic seconds: not comparable across hosts\n\n");
	unsigned flags = po->ascii ? TEXT_ASCII : 0;
	if (s.tasks)
		print_task_heads(f, run, flags);
	else
		sb_printf(f, "  no task (Compute) event: top functions, top tasks and the critical path n/a\n");
	sb_printf(f, "\n  Tasks in memory per worker (task_balance; seconds from the first event, "
		   "hosts' clocks mixed as in DASF)\n");
	print_view_head(f, run, "task_balance", "second", TOP_ROWS, 14, flags);
	if (s.tasks)
		print_critical_path(f, run, flags);
	return sb_take(&b);
}
