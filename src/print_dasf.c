/* SPDX-License-Identifier: MIT */
/* print_dasf.c: the DASF section of the plain-text report: what was loaded, the heads
 * of function_bottleneck, task_bottleneck and task_balance, and the critical path. Rows
 * come from the same view tables as the explorer and --export (already sanitized). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dasf/dasf.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/text.h"
#include "src/print.h"

#define TOP_ROWS 5
#define BALANCE_COLS 7   /* the offset and six workers */

struct pcol {
	const char *name;   /* view column */
	const char *head;   /* printed header */
	int width;          /* negative: left-aligned */
};

/* One cell, clipped to |width| display columns and padded. */
static void cell(FILE *f, const char *s, int width)
{
	char clip[256];
	int w = width < 0 ? -width : width;
	int used = text_clip(s, w, clip, sizeof(clip), true, 0);
	if (width > 0)
		fprintf(f, "%*s%s", w - used, "", clip);
	else
		fprintf(f, "%s%*s", clip, w - used, "");
}

/* Up to `max` visible rows of view `name` with the chosen columns. */
static void print_view(FILE *f, struct run *run, const char *name, const struct pcol *cols, size_t ncol,
		       size_t max)
{
	char err[128];
	struct table *t = registry_view(name)->build(run, err, sizeof(err));
	if (!t)
		return;
	fprintf(f, "   ");
	for (size_t c = 0; c < ncol; c++) {
		fputc(' ', f);
		cell(f, cols[c].head, cols[c].width);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nview && r < max; r++) {
		fprintf(f, "   ");
		for (size_t c = 0; c < ncol; c++) {
			char buf[256];
			table_format(t, t->view[r], table_col_index(t, cols[c].name), buf, sizeof(buf));
			fputc(' ', f);
			cell(f, buf, cols[c].width);
		}
		fputc('\n', f);
	}
	if (t->nview > max)
		fprintf(f, "    … %zu more row%s (--export %s)\n", t->nview - max, t->nview - max == 1 ? "" : "s",
			name);
	table_free(t);
}

/* Up to `max` rows and the first `maxcol` columns of view `name` as the view has them
 * (task_balance: one column per worker), each `width` wide; head0 names column 0. */
static void print_view_head(FILE *f, struct run *run, const char *name, const char *head0,
			    size_t max, size_t maxcol, int width)
{
	char err[128];
	struct table *t = registry_view(name)->build(run, err, sizeof(err));
	if (!t)
		return;
	size_t ncol = t->ncol < maxcol ? t->ncol : maxcol;
	fprintf(f, "   ");
	for (size_t c = 0; c < ncol; c++) {
		fputc(' ', f);
		cell(f, c ? t->col[c].name : head0, width);
	}
	if (t->ncol > ncol)
		fprintf(f, " … %zu more column%s", t->ncol - ncol, t->ncol - ncol == 1 ? "" : "s");
	fputc('\n', f);
	for (size_t r = 0; r < t->nview && r < max; r++) {
		fprintf(f, "   ");
		for (size_t c = 0; c < ncol; c++) {
			char buf[256];
			table_format(t, t->view[r], (int)c, buf, sizeof(buf));
			fputc(' ', f);
			cell(f, buf, width);
		}
		fputc('\n', f);
	}
	if (t->nview > max)
		fprintf(f, "    … %zu more row%s (--export %s)\n", t->nview - max, t->nview - max == 1 ? "" : "s",
			name);
	table_free(t);
}

static void heading(FILE *f, const struct print_opts *po, const char *title)
{
	if (po->color)
		fprintf(f, "\033[36m●\033[0m \033[1m%s\033[0m\n", title);
	else
		fprintf(f, "● %s\n", title);
}

char *print_section_dasf(struct run *run, const struct print_opts *po)
{
	struct dasf_summary s;
	if (!dasf_summarize(run, &s) || !s.tasks)
		return NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	heading(f, po, "DASF task profile");
	fprintf(f, "  %zu files · %zu tasks · %zu functions · %zu workers on %zu hosts · "
		   "%zu GPU samples (%zu CPU-only)\n",
		s.files, s.tasks, s.functions, s.workers, s.hosts, s.gpu_samples, s.cpu_only_samples);
	fprintf(f, "  task time %.3f s · critical path %.3f s over %zu tasks\n", s.total_task_s,
		s.critical_s, s.critical_len);
	fprintf(f, "  timestamps are per-host monotonic seconds: not comparable across hosts\n\n");
	static const struct pcol fn_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Function", "Function", -32 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Num Tasks (chunks)", "Tasks", 7 }, { "Mean GPU Utilization (%)", "GPU %", 6 },
		{ "Mean Throughput (MB/s)", "MB/s", 10 },
	};
	fprintf(f, "  Top functions (function_bottleneck)\n");
	print_view(f, run, "function_bottleneck", fn_cols, ARRAY_LEN(fn_cols), TOP_ROWS);
	static const struct pcol cp_cols[] = {
		{ "Step", "#", 3 }, { "Task Key", "Task key", -36 }, { "Function", "Function", -20 },
		{ "Host", "Host", -10 }, { "Duration (s)", "Duration s", 11 }, { "Cumulative (s)", "Total s", 11 },
	};
	static const struct pcol tb_cols[] = {
		{ "Host", "Host", -10 }, { "GPU", "GPU", -4 }, { "Task Key", "Task key", -36 },
		{ "Duration (s)", "Duration s", 11 }, { "Percentage of total time (%)", "% worker", 8 },
		{ "Memory usage (Mb)", "Memory MB", 10 },
	};
	fprintf(f, "\n  Top tasks (task_bottleneck)\n");
	print_view(f, run, "task_bottleneck", tb_cols, ARRAY_LEN(tb_cols), TOP_ROWS);
	fprintf(f, "\n  Tasks in memory per worker (task_balance; seconds from the first event, "
		   "hosts' clocks mixed as in DASF)\n");
	print_view_head(f, run, "task_balance", "second", TOP_ROWS, BALANCE_COLS, 14);
	fprintf(f, "\n  Critical path (critical_path)\n");
	print_view(f, run, "critical_path", cp_cols, ARRAY_LEN(cp_cols), TOP_ROWS);
	if (ferror(f)) {
		fclose(f);
		free(out);
		return NULL;
	}
	fclose(f);
	return out;
}
