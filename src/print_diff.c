/* SPDX-License-Identifier: MIT */
/* print_diff.c: the plain-text report of a run comparison (`--print A B`, see print.h).
 * For two pytscope runs it starts with pytscope 0.2.1's `diff` report, byte for byte
 * (pytscope.md §11: padding counts characters, colors as pytscope's, but the delta
 * column padded as the plain report's, so removing the SGR codes gives it exactly: the
 * codes count in its padding under --compat pytscope only, as in pytscope); a pair of run
 * dirs each with its steps.jsonl in it (pytscope's single-rank layout) gets nothing else,
 * with or without --compat pytscope. A side of rank{k}/ dirs is multi-rank whatever
 * --ranks loaded of it (model/compat.h compat_diff_layout); a pair pytscope's diff
 * refuses (compat_diff_refused) is said by the caller, never reported here. Multi-rank
 * pairs, and pairs of other kinds, then get tscope-tui's
 * sections: the verdict with per-rank deltas, budget deltas, findings new / resolved /
 * persisting with the rules a side could not judge, and kernel deltas for trace sets (per
 * profiler step when the sides count other numbers of them), each table after its view's
 * note (what it leaves out or could not judge); when --ranks left ranks out, the verdict
 * and the sections over each side say they are over the ranks loaded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/compat.h"
#include "model/compare/compare.h"
#include "model/compare/views.h"
#include "model/steps/steps.h"
#include "model/summary.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "src/print.h"
#include "src/sbuf.h"

static void put_safe(FILE *f, const char *s)
{
	char *safe = text_sanitize_dup(s, 0);
	fputs(safe, f);
	free(safe);
}

/* s padded with spaces to width characters, on the left (right-aligned) or the right. */
static void padded(FILE *f, const char *s, size_t width, bool right)
{
	size_t n = text_codepoints(s);
	for (size_t i = n; right && i < width; i++)
		fputc(' ', f);
	fputs(s, f);
	for (size_t i = n; !right && i < width; i++)
		fputc(' ', f);
}

/* ---- pytscope's diff (§11) ------------------------------------------------------------ */

static void field_lines(FILE *f, const struct print_opts *po, const char *heading, const struct cmp_field *v,
			size_t n)
{
	sgr_fputs(f, po->color, SGR_BOLD, heading);
	fputc('\n', f);
	if (!n) {
		sgr_fputs(f, po->color, SGR_DIM, "  (identical)");
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		fputs("  ", f);
		put_safe(f, v[i].key);
		fputs(": ", f);
		put_safe(f, v[i].a);
		fputs("  ", f);
		sgr_fputs(f, po->color, SGR_YELLOW, "->");
		fputs("  ", f);
		put_safe(f, v[i].b);
		fputc('\n', f);
	}
}

static void metric_value(char *buf, size_t n, bool has, double v)
{
	if (has)
		compare_g4(buf, n, v, false);
	else
		snprintf(buf, n, "—");
}

static void metric_lines(FILE *f, const struct print_opts *po, const struct pydiff *d)
{
	sgr_fputs(f, po->color, SGR_BOLD, "Metrics:");
	fputc('\n', f);
	char head[96];
	snprintf(head, sizeof(head), "  %-16s%14s%14s%13s%s", "metric", "A", "B", "", "Δ"); /* Δ: 1 character */
	sgr_fputs(f, po->color, SGR_BOLD, head);
	fputc('\n', f);
	for (int i = 0; i < CMP_NMETRICS; i++) {
		const struct cmp_metric *m = &d->metric[i];
		char a[48], b[48], delta[64];
		metric_value(a, sizeof(a), m->has_a, m->a);
		metric_value(b, sizeof(b), m->has_b, m->b);
		fputs("  ", f);
		padded(f, m->key, 16, false);
		padded(f, a, 14, true);
		padded(f, b, 14, true);
		if (!m->has_a || !m->has_b) {
			padded(f, "—", 14, true);
		} else if (po->color && po->compat) { /* pytscope pads the delta with its SGR codes counted */
			char g[40];
			compare_g4(g, sizeof(g), m->b - m->a, true);
			snprintf(delta, sizeof(delta), "\033[%dm%s\033[0m", SGR_MAGENTA, g);
			padded(f, delta, 14, true);
		} else { /* padded as the plain report, then coloured: removing the codes gives it exactly */
			compare_g4(delta, sizeof(delta), m->b - m->a, true);
			for (size_t k = text_codepoints(delta); k < 14; k++)
				fputc(' ', f);
			sgr_fputs(f, po->color, SGR_MAGENTA, delta);
		}
		fputc('\n', f);
	}
}

static void pytscope_diff(FILE *f, const struct print_opts *po, const struct pydiff *d, const char *pa,
			  const char *pb)
{
	fputs("pytscope diff  (", f);
	put_safe(f, pa);
	fputs("  vs  ", f);
	put_safe(f, pb);
	fputs(")\n\n", f);
	char *head = xasprintf("Comparing  A='%s'  vs  B='%s'", d->name_a, d->name_b);
	char *safe = text_sanitize_dup(head, 0);
	sgr_fputs(f, po->color, SGR_BOLD, safe);
	free(safe);
	free(head);
	if (d->lowest_differ && d->rank_a == d->rank_b) /* never in pytscope's single-rank layout */
		fprintf(f, "  (metrics of rank %d: the lowest rank both runs have)", d->rank_a);
	else if (d->lowest_differ)
		fprintf(f, "  (A's rank %d, B's rank %d: no rank in both runs)", d->rank_a, d->rank_b);
	fputs("\n\n", f);
	field_lines(f, po, "Environment diffs:", d->env, d->nenv);
	fputc('\n', f);
	field_lines(f, po, "Config diffs:", d->config, d->nconfig);
	fputc('\n', f);
	metric_lines(f, po, d);
	fputc('\n', f);
	sgr_fputs(f, po->color, SGR_BOLD, "Reproducibility:");
	fputc('\n', f);
	char *const *notes = po->compat ? d->note : d->native; /* tscope-tui's own: none the input does not hold */
	for (size_t i = 0; i < (po->compat ? d->nnote : d->nnative); i++) {
		fputs("  ", f);
		sgr_fputs(f, po->color, SGR_CYAN, "•");
		fputc(' ', f);
		put_safe(f, notes[i]);
		fputc('\n', f);
	}
}

/* ---- tscope-tui's sections ---------------------------------------------------------------- */

static void heading(FILE *f, const struct print_opts *po, enum sgr led, const char *text)
{
	fputc('\n', f);
	sgr_fputs(f, po->color, led, "●");
	fputc(' ', f);
	sgr_fputs(f, po->color, SGR_BOLD, text);
	fputc('\n', f);
}

/* unlike: the workloads differ (compare_workload_diff), so a change is slower or faster,
 * not regressed or improved. */
static void rank_line(FILE *f, const struct cmp_rank *r, bool unlike)
{
	fprintf(f, "    rank %d: %.2f -> %.2f ms/step (%+.2f ms, noise %.3f ms)", r->rank, r->a_ms, r->b_ms, r->delta_ms,
		r->noise_ms);
	if (r->has_lost)
		fprintf(f, " · time lost %.3f -> %.3f s", r->a_lost_s, r->b_lost_s);
	fprintf(f, " · %s", compare_change_word(r->regressed, unlike));
	if (r->onset_b >= 0)
		fprintf(f, " from step %ld", r->onset_b);
	fputc('\n', f);
}

/* What a side's lost data may look like in the comparison: steps or ranks only in the
 * other side (step runs and traces), levels only in it (sweeps), fewer tasks or less task
 * time (DASF). */
static void lost_clause(const struct compare *c, const char *me, const char *other, char *buf, size_t n)
{
	if (strcmp(c->family, "dasf") == 0)
		snprintf(buf, n, "fewer tasks or less task time in %s may be %s's lost data", me, me);
	else if (strcmp(c->family, "sweep") == 0)
		snprintf(buf, n, "levels only in %s may be %s's lost data", other, me);
	else
		snprintf(buf, n, "steps or ranks only in %s may be %s's lost data", other, me);
}

/* Under the verdict of every family, for a side that lost data in the load (records
 * skipped, files unreadable or partial): what was lost, and that what the verdict has in
 * the other side only may be that data, not what the side never ran. */
static void quality_notes(FILE *f, struct compare *c)
{
	for (int side = 0; side < 2; side++) {
		const struct run *run = compare_side(c, side);
		size_t skipped = 0, unreadable = 0, partial = 0;
		for (size_t i = 0; i < run->nsrc; i++) {
			skipped += run->src[i].skipped;
			unreadable += run->src[i].err != 0;
			partial += run->src[i].partial;
		}
		if (!skipped && !unreadable && !partial)
			continue;
		char lost[96];
		lost_clause(c, side ? "B" : "A", side ? "A" : "B", lost, sizeof(lost));
		fprintf(f, "  data quality of %s: %zu record%s skipped, %zu file%s unreadable, %zu partial "
			   "(--export sources A B); %s\n", side ? "B" : "A", skipped, skipped == 1 ? "" : "s", unreadable,
			unreadable == 1 ? "" : "s", partial, lost);
	}
}

static void section_ranks(FILE *f, const struct print_opts *po, struct compare *c)
{
	char verdict[CMP_TEXT_MAX], scope[CMP_TEXT_MAX];
	compare_verdict(c, verdict, sizeof(verdict));
	compare_scope(c, scope, sizeof(scope));
	const struct cmp_ranks *r = compare_ranks(c);
	bool unlike = compare_unlike(c);
	char *head = xasprintf("COMPARISON — %s", verdict);
	char subset[CMP_TEXT_MAX];
	heading(f, po, r && r->nregressed && !unlike ? SGR_RED
		       : r && ((!r->judged && !r->identical) || (unlike && (r->nregressed || r->slower))) ? SGR_YELLOW
		       : compare_subset(c, subset, sizeof(subset)) ? SGR_YELLOW /* good for the ranks loaded only */
		       : SGR_GREEN,
		head);
	free(head);
	if (*scope)
		fprintf(f, "  %s\n", scope);
	if (r && compare_warmup_scope(c, scope, sizeof(scope)))
		fprintf(f, "  %s\n", scope);
	quality_notes(f, c);
	if (!r)
		return;
	if (r->has_wall && !r->judged) /* no noise estimate under CMP_MIN_STEPS common steps */
		fprintf(f, "  mean step wall %.2f -> %.2f ms (%+.2f ms, noise n/a) over %zu common step%s\n",
			r->a_wall_ms, r->b_wall_ms, r->b_wall_ms - r->a_wall_ms, r->nwall, r->nwall == 1 ? "" : "s");
	else if (r->has_wall)
		fprintf(f, "  mean step wall %.2f -> %.2f ms (%+.2f ms, noise %.3f ms) over %zu common steps\n",
			r->a_wall_ms, r->b_wall_ms, r->b_wall_ms - r->a_wall_ms, r->wall_noise_ms, r->nwall);
	if (!r->nregressed && !r->nimproved)
		return;
	fprintf(f, "  per-rank %s, A -> B (%zu %s, %zu %s; %s by %s first):\n",
		r->by_step_time ? "step time" : "compute",
		r->nregressed, compare_change_word(true, unlike), r->nimproved, compare_change_word(false, unlike),
		compare_change_word(true, unlike), r->nregressed && r->v[r->order[0]].has_lost ? "time lost" : "size");
	size_t shown = 0;
	for (size_t i = 0; i < r->nregressed && shown < 10; i++, shown++)
		rank_line(f, &r->v[r->order[i]], unlike);
	for (size_t i = 0; i < r->n && shown < 10; i++)
		if (r->v[i].improved) {
			rank_line(f, &r->v[i], unlike);
			shown++;
		}
	if (r->nregressed + r->nimproved > shown)
		fprintf(f, "    ... %zu more (--export diff_ranks)\n", r->nregressed + r->nimproved - shown);
}

enum { CELLS_MAX = 16 };

/* The text of row's cell in column col (row < 0: label) as the report writes it: in an
 * ASCII report (flags TEXT_ASCII) each character by its ASCII stand-in, so that widths
 * are those printed (print_out_end() changes none). */
static void cell_text(const struct table *t, long row, int col, const char *label, unsigned flags, char *out,
		      size_t n)
{
	char cell[256];
	if (row >= 0)
		table_format_report(t, (size_t)row, col, false, cell, sizeof(cell));
	else
		snprintf(cell, sizeof(cell), "%s", label);
	text_sanitize(cell, strlen(cell), out, n, flags);
}

/* One line of cells (row < 0: the labels), each clipped to its width (a text column's;
 * a number column is as wide as its widest value: table_lines) and padded to it by
 * display columns. */
static void cells_line(FILE *f, const struct table *t, long row, const int *cols, const int *width, size_t ncols,
		       const char *const *labels, unsigned flags)
{
	fputs(" ", f);
	for (size_t k = 0; k < ncols; k++) {
		char cell[512], clipped[256];
		cell_text(t, row, cols[k], labels ? labels[k] : NULL, flags, cell, sizeof(cell));
		int used = text_clip(cell, width[k], clipped, sizeof(clipped), true, flags);
		bool right = t->col[cols[k]].type != COL_TEXT;
		int pad = k + 1 < ncols || right ? width[k] - used : 0; /* a last text column: no trailing blanks */
		fprintf(f, " %*s%s%*s", right ? pad : 0, "", clipped, right ? 0 : pad, "");
	}
	fputc('\n', f);
}

/* The width of each column of the first max rows: a number column widened to its widest
 * value and to its label (labels: one per column, or NULL), so neither is ever cut. */
static void cells_width(const struct table *t, const int *cols, size_t ncols, size_t max, unsigned flags,
			const char *const *labels, int *width)
{
	for (size_t k = 0; k < ncols; k++) {
		width[k] = t->col[cols[k]].width;
		if (labels && t->col[cols[k]].type != COL_TEXT && text_width(labels[k]) > width[k])
			width[k] = text_width(labels[k]);
		for (size_t i = 0; t->col[cols[k]].type != COL_TEXT && i < t->nview && i < max; i++) {
			char cell[512];
			cell_text(t, (long)t->view[i], cols[k], NULL, flags, cell, sizeof(cell));
			int len = text_width(cell);
			width[k] = len > width[k] ? len : width[k];
		}
	}
}

/* Rows of a compare view as "  label  cols..." lines, at most max rows, after the view's
 * note when it has one; with labels (one per column), a header line first; in ASCII for
 * an ASCII report (po->ascii). */
static void table_lines(FILE *f, const struct print_opts *po, struct compare *c, const char *view, const int *cols,
			size_t ncols, size_t max, const char *const *labels)
{
	char err[256]; /* as --export's and the explorer's: room for a side's reason */
	struct table *t = compare_view(view)->build(c, err, sizeof(err));
	if (!t) {
		fprintf(f, "  not compared: %s\n", err);
		return;
	}
	if (t->note) { /* what the rows leave out or could not judge (the view's title says it too) */
		fputs("  ", f);
		put_safe(f, t->note);
		fputc('\n', f);
	}
	int width[CELLS_MAX];
	ncols = ncols < CELLS_MAX ? ncols : CELLS_MAX;
	unsigned flags = po->ascii ? TEXT_ASCII : 0;
	cells_width(t, cols, ncols, max, flags, labels, width);
	if (labels)
		cells_line(f, t, -1, cols, width, ncols, labels, flags);
	for (size_t i = 0; i < t->nview && i < max; i++)
		cells_line(f, t, (long)t->view[i], cols, width, ncols, NULL, flags);
	if (t->nview > max)
		fprintf(f, "  ... %zu more rows (--export %s)\n", t->nview - max, view);
	table_free(t);
}

/* What the lowest rank's trace of each side records of the GPU and CUDA: a key that
 * differs as "A  ->  B", one the same once; nothing when neither records any. */
static void section_trace_env(FILE *f, const struct print_opts *po, struct compare *c)
{
	struct cmp_env e[CMP_TRACE_ENV_KEYS];
	size_t n = compare_trace_env(c, e), ndiff = 0;
	for (size_t i = 0; i < n; i++)
		ndiff += e[i].differs;
	if (!n)
		return;
	heading(f, po, ndiff ? SGR_YELLOW : SGR_GREEN, "ENVIRONMENT — what the lowest rank's trace records, A -> B");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "  %s: ", e[i].key);
		put_safe(f, e[i].a ? e[i].a : "n/a");
		fputs(e[i].differs ? "  ->  " : "  (the same)", f);
		if (e[i].differs)
			put_safe(f, e[i].b ? e[i].b : "n/a");
		fputc('\n', f);
	}
}

/* Under a section over each side whole: the ranks --ranks loaded of each side, and when
 * the sides differ in ranks or steps, that it is not the common part the COMPARISON
 * compared. */
static void scope_note(FILE *f, struct compare *c)
{
	char subset[CMP_TEXT_MAX];
	if (compare_subset(c, subset, sizeof(subset)))
		fprintf(f, "  over the ranks loaded only (%s)\n", subset);
	const struct cmp_ranks *r = compare_ranks(c);
	if (r && (r->a_ranks != r->b_ranks || r->nleft || r->ncommon_ranks != r->n))
		fprintf(f, "  each side whole (A: %zu rank%s, B: %zu rank%s), not only the common part compared above\n",
			r->a_ranks, r->a_ranks == 1 ? "" : "s", r->b_ranks, r->b_ranks == 1 ? "" : "s");
}

static void section_budget(FILE *f, const struct print_opts *po, struct compare *c)
{
	char whole[CMP_TEXT_MAX];
	char *head = xasprintf("BUDGET — ms per step record and %% of rank wall, A -> B (%s)",
			       compare_budget_whole(c, whole, sizeof(whole)));
	heading(f, po, SGR_YELLOW, head);
	free(head);
	scope_note(f, c);
	static const int cols[] = { 0, 1, 2, 3, 4, 5, 6 };
	static const char *const labels[ARRAY_LEN(cols)] = { "line", "A ms", "B ms", "delta ms", "A %", "B %",
							     "points" };
	table_lines(f, po, c, "diff_budget", cols, ARRAY_LEN(cols), 10, labels);
}

static void section_findings(FILE *f, const struct print_opts *po, struct compare *c)
{
	size_t n, k[CMP_NSTATUS] = { 0 };
	const struct cmp_finding *v = compare_findings(c, &n);
	for (size_t i = 0; i < n; i++)
		k[v[i].status]++;
	char unjudged[64] = "";
	for (int s = CMP_UNJUDGED_A; s <= CMP_UNJUDGED_B; s++)
		if (k[s])
			text_appendf(unjudged, sizeof(unjudged), " · %zu %s", k[s], compare_status_name(s));
	size_t nu;
	struct cmp_unjudged *u = compare_unjudged(c, &nu);
	char *head = xasprintf("FINDINGS — %zu new in B · %zu resolved · %zu persisting%s", k[CMP_NEW],
			       k[CMP_RESOLVED], k[CMP_PERSIST], unjudged);
	/* amber, as a run's "no findings" list: not every rule could judge both runs */
	heading(f, po, k[CMP_NEW] ? SGR_RED : nu || *unjudged ? SGR_YELLOW : SGR_GREEN, head);
	free(head);
	for (size_t i = 0; i < n; i++) {
		const struct finding *x = v[i].b ? v[i].b : v[i].a;
		char st[200];
		fprintf(f, "  %-11s [%s] ", compare_finding_status(&v[i], st, sizeof(st)), severity_label(x->severity));
		put_safe(f, x->title);
		fputs("  (", f);
		put_safe(f, x->id);
		fputs(")\n", f);
	}
	for (size_t i = 0; i < nu; i++) { /* no finding of these is no verdict */
		fprintf(f, "  %s: ", compare_unjudged_status(&u[i]));
		put_safe(f, u[i].text);
		fputc('\n', f);
	}
	compare_unjudged_free(u, nu);
}

static void section_kernels(FILE *f, const struct print_opts *po, struct compare *c)
{
	char kscope[CMP_TEXT_MAX]; /* diff_kernels' note, said under the heading by table_lines */
	bool per_step = compare_kernel_scope(c, kscope, sizeof(kscope)) && *kscope;
	char *head = xasprintf("KERNELS — largest changes in %s, A -> B (summed over %s)",
			       per_step ? "time per profiler step" : "total time", compare_sides_whole(c));
	heading(f, po, SGR_YELLOW, head);
	free(head);
	scope_note(f, c);
	static const int cols[] = { 2, 3, 4, 6, 7, 8, 0 };
	const char *const labels[ARRAY_LEN(cols)] = { "status", "count A", "count B", "total A us", "total B us",
						      per_step ? "delta us/step" : "delta us", "kernel" };
	table_lines(f, po, c, "diff_kernels", cols, ARRAY_LEN(cols), 15, labels);
}

/* Two sweeps: the verdict (the largest change, never judged: one run per level), then per
 * common level latency p50 A and B, the relative changes and request throughput. */
/* Whether a row of diff_sweep names its workload (views.h CMP_SWEEP_WORKLOAD_COL). */
static bool sweep_workloads(struct compare *c)
{
	char err[128];
	struct table *t = compare_view("diff_sweep")->build(c, err, sizeof(err));
	bool any = false;
	for (size_t r = 0; t && r < t->nrow && !any; r++)
		any = table_cell(t, r, CMP_SWEEP_WORKLOAD_COL)->present;
	table_free(t);
	return any;
}

static void section_sweep(FILE *f, const struct print_opts *po, struct compare *c)
{
	char verdict[512];
	int rc = compare_sweep_verdict(c, verdict, sizeof(verdict));
	char *head = xasprintf("SWEEP — %s", verdict);
	heading(f, po, rc == 0 ? SGR_GREEN : SGR_YELLOW, head);
	free(head);
	quality_notes(f, c);
	static const int cols[] = { 1, 2, 3, 5, 9, 13, 14, 15, 17, CMP_SWEEP_WORKLOAD_COL };
	static const char *const labels[ARRAY_LEN(cols)] = { "level", "p50 A ms", "p50 B ms", "p50 %", "p99 %",
							     "ttft p99 %", "req/s A", "req/s B", "req/s %",
							     "workload" };
	/* the workload column when a row has one (sweeps of several, or of other, workloads) */
	table_lines(f, po, c, "diff_sweep", cols, ARRAY_LEN(cols) - !sweep_workloads(c), 20, labels);
}

/* Two DASF runs: the verdict (a function slower beyond its noise, or why none is), the
 * totals A -> B, then the functions that changed most. */
static void section_dasf(FILE *f, const struct print_opts *po, struct compare *c)
{
	char verdict[512];
	int rc = compare_dasf_verdict(c, verdict, sizeof(verdict));
	heading(f, po, rc == 1 ? SGR_RED : rc == 0 ? SGR_GREEN : SGR_YELLOW,
		"DASF TASKS — function by function, A -> B");
	fputs("  ", f);
	put_safe(f, verdict);
	fputc('\n', f);
	quality_notes(f, c);
	if (rc < 0) /* the verdict says why */
		return;
	struct summary s = { 0 };
	compare_dasf_summary(c, &s);
	for (size_t i = 0; i < s.n; i++)
		fprintf(f, "  %s: %s\n", s.line[i].key, s.line[i].text);
	static const int cols[] = { 0, 1, 2, 3, 7, 8, 9, 6 };
	static const char *const labels[ARRAY_LEN(cols)] = { "function", "change", "tasks A", "tasks B", "mean A s",
							     "mean B s", "mean %", "added s" };
	table_lines(f, po, c, "diff_functions", cols, ARRAY_LEN(cols), 15, labels);
}

void print_compare(struct compare *c, const char *path_a, const char *path_b, FILE *f, const struct print_opts *po)
{
	bool steps = strcmp(c->family, "steps") == 0;
	/* the layout decides, not the ranks loaded: rank dirs (one loaded, or one --ranks
	 * named) are a multi-rank run */
	bool multi = steps && (!compat_diff_layout(c->a) || !compat_diff_layout(c->b));
	if (steps) {
		pytscope_diff(f, po, compare_pydiff(c), path_a, path_b);
		if (!multi)
			return;
	} else {
		fputs("tscope-tui compare  (", f);
		put_safe(f, path_a);
		fputs("  vs  ", f);
		put_safe(f, path_b);
		fputs(")\n", f);
	}
	bool trace = strcmp(c->family, "trace") == 0;
	if (strcmp(c->family, "sweep") == 0) {
		section_sweep(f, po, c);
	} else if (strcmp(c->family, "dasf") == 0) {
		section_dasf(f, po, c);
	} else {
		if (trace)
			section_trace_env(f, po, c);
		section_ranks(f, po, c);
		if (trace)
			section_kernels(f, po, c);
		else
			section_budget(f, po, c);
	}
	section_findings(f, po, c);
}
