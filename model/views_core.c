/* SPDX-License-Identifier: MIT */
/* views_core.c: the core subsystem: views that every run has, sources (the
 * data-quality inventory with every diagnostic) and findings (with none, what the rules
 * could not judge), and the tabs every run has (Overview, Heatmap, Findings, Sources). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/summary.h"
#include "model/xalloc.h"

/* Files in rank order (no rank last), then by path with numbers compared as numbers
 * (rank2 before rank10), so the inventory reads the way the ranks are numbered. */
static int cmp_source(const void *a, const void *b, void *ud)
{
	const struct run *run = ud;
	const struct source *x = &run->src[*(const size_t *)a], *y = &run->src[*(const size_t *)b];
	unsigned xr = (unsigned)x->rank, yr = (unsigned)y->rank;   /* -1 sorts last */
	if (xr != yr)
		return xr < yr ? -1 : 1;
	return strverscmp(x->path, y->path);
}

/* Diagnostics as sources: by rank (none last), file, line, offset, then as they came (the
 * loader threads add them in the order ranks end, which varies from run to run). */
static int cmp_diag(const void *a, const void *b, void *ud)
{
	const struct run *run = ud;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct diag *x = &run->diags.v[i], *y = &run->diags.v[j];
	unsigned xr = (unsigned)x->rank, yr = (unsigned)y->rank;
	if (xr != yr)
		return xr < yr ? -1 : 1;
	int c = strverscmp(x->file ? x->file : "", y->file ? y->file : "");
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (i > j) - (i < j);
}

static struct table *build_sources(struct run *run, char *err, size_t errn)
{
	struct table *t = table_new("sources", "Sources and data quality");
	int c_kind = table_add_col(t, "kind", COL_TEXT, 7, 0);
	int c_path = table_add_col(t, "path", COL_TEXT, 40, 0);
	int c_fmt = table_add_col(t, "format", COL_TEXT, 10, 0);
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_line = table_add_col(t, "line", COL_INT, 7, 0);
	int c_off = table_add_col(t, "offset", COL_INT, 9, 0);
	int c_rec = table_add_col(t, "records", COL_INT, 9, 0);
	table_col_doc(t, c_rec, "records read; ");
	int c_skip = table_add_col(t, "skipped", COL_INT, 8, 0);
	int c_msg = table_add_col(t, "message", COL_TEXT, 50, 0);
	size_t *order = xmalloc((run->nsrc + 1) * sizeof(*order));
	for (size_t i = 0; i < run->nsrc; i++)
		order[i] = i;
	qsort_r(order, run->nsrc, sizeof(*order), cmp_source, run);
	for (size_t k = 0; k < run->nsrc; k++) {
		size_t i = order[k];
		const struct source *s = &run->src[i];
		size_t r = table_add_row(t, (long)i);
		table_set_text(t, r, c_kind, s->refused ? "refused" : "file");
		table_set_text(t, r, c_path, s->path);
		table_set_text(t, r, c_fmt, s->format);
		table_set_num_opt(t, r, c_rank, s->rank, s->rank >= 0);
		table_set_num_opt(t, r, c_rec, (double)s->records, !s->left_out);
		table_set_num_opt(t, r, c_skip, (double)s->skipped, !s->left_out);
		char msg[160];
		if (s->left_out)
			snprintf(msg, sizeof(msg), "left out: not a rank --ranks names");
		else if (s->err)
			snprintf(msg, sizeof(msg), "unreadable");
		else if (s->partial)
			snprintf(msg, sizeof(msg), "partial (truncated tail or still being written)");
		else if (s->skipped && !s->records) /* its diagnostics say why */
			snprintf(msg, sizeof(msg), "nothing read: see its messages");
		else
			snprintf(msg, sizeof(msg), "ok");
		table_set_text(t, r, c_msg, s->refused ? s->refused : msg);
	}
	order = xrealloc(order, (run->diags.n + 1) * sizeof(*order));
	for (size_t i = 0; i < run->diags.n; i++)
		order[i] = i;
	qsort_r(order, run->diags.n, sizeof(*order), cmp_diag, run);
	for (size_t k = 0; k < run->diags.n; k++) {
		size_t i = order[k];
		const struct diag *d = &run->diags.v[i];
		size_t r = table_add_row(t, -1 - (long)i);
		table_set_text(t, r, c_kind, diag_level_name(d->level));
		table_set_text(t, r, c_path, d->file);
		table_set_num_opt(t, r, c_rank, d->rank, d->rank >= 0);
		table_set_num_opt(t, r, c_line, (double)d->line, d->line > 0);
		table_set_num_opt(t, r, c_off, (double)d->offset, d->offset >= 0);
		table_set_text(t, r, c_msg, d->msg);
	}
	free(order);
	if (run->diags.dropped) {
		size_t r = table_add_row(t, -1);
		char msg[96];
		snprintf(msg, sizeof(msg), "%zu more diagnostics not kept", run->diags.dropped);
		table_set_text(t, r, c_kind, "warning");
		table_set_text(t, r, c_msg, msg);
	}
	(void)err;
	(void)errn;
	return t;
}

/* Where some rule could not judge a run with records: one row per item
 * (findings_not_judged_list), severity "not judged", the ids it stands for, the item
 * ("what (why)") as title; ref -1 - i (no finding: no evidence). The list, its CSV
 * (--export, `e`) and --export all then say what the header alone would claim was
 * judged, as the report's list does, with findings or without: a finding of one rule,
 * or of the same rule on another part of the run, does not make this one's silence a
 * verdict. */
static void not_judged_rows(struct run *run, struct table *t, int c_sev, int c_id, int c_title, int c_detail,
			    bool any_finding)
{
	struct not_judged nj = { 0 };
	findings_not_judged_list(run, &nj);
	for (size_t i = 0; i < nj.n; i++) {
		size_t r = table_add_row(t, -1 - (long)i);
		table_set_text(t, r, c_sev, "not judged");
		table_set_text(t, r, c_id, *nj.v[i].ids ? nj.v[i].ids : NULL);
		table_set_text(t, r, c_title, nj.v[i].text);
		table_set_text(t, r, c_detail, nj.v[i].subject ? "This rule could not judge this part of the run, so the "
			       "absence of its finding here is no verdict."
			       : any_finding ? "This rule could not judge this run, so the absence of its finding is no "
			       "verdict." : "No rule fired on this run; this one could not judge it, so the absence "
			       "of its finding is no verdict.");
	}
	findings_not_judged_free(&nj);
}

static struct table *build_findings(struct run *run, char *err, size_t errn)
{
	const struct finding_list *fl = run_findings(run);
	const char *why = fl->n ? NULL : findings_unjudged(run);
	if (why) { /* an empty table would read as "no findings" */
		snprintf(err, errn, "%s", why);
		return NULL;
	}
	struct table *t = table_new("findings", "Findings");
	int c_sev = table_add_col(t, "severity", COL_TEXT, 10, 0); /* "not judged" whole */
	table_set_role(t, c_sev, COL_ROLE_SEVERITY);
	int c_id = table_add_col(t, "id", COL_TEXT, 28, 0);
	int c_title = table_add_col(t, "title", COL_TEXT, 50, 0);
	table_set_role(t, c_title, COL_ROLE_TITLE);
	int c_rank = table_add_col(t, "rank", COL_INT, 5, 0);
	table_set_role(t, c_rank, COL_ROLE_RANK);
	int c_lo = table_add_col(t, "step_lo", COL_INT, 8, 0);
	int c_hi = table_add_col(t, "step_hi", COL_INT, 8, 0);
	int c_detail = table_add_col(t, "detail", COL_TEXT, 80, 0);
	int c_fix = table_add_col(t, "fix", COL_TEXT, 80, 0);
	table_col_prio(t, c_id, 2);      /* what and which before the evidence columns */
	table_col_prio(t, c_title, 1);
	for (size_t i = 0; i < fl->n; i++) {
		const struct finding *f = &fl->v[i];
		size_t r = table_add_row(t, (long)i);
		table_set_text(t, r, c_sev, severity_name(f->severity));
		table_set_text(t, r, c_id, f->id);
		table_set_text(t, r, c_title, f->title);
		table_set_num_opt(t, r, c_rank, f->ev.rank, f->ev.rank >= 0);
		table_set_int_opt(t, r, c_lo, f->ev.step_lo, f->ev.step_lo >= 0);
		table_set_int_opt(t, r, c_hi, f->ev.step_hi, f->ev.step_hi >= 0);
		table_set_text(t, r, c_detail, f->detail);
		table_set_text(t, r, c_fix, f->fix);
	}
	/* the header alone would claim every rule judged; a finding, that its rule judged every part */
	not_judged_rows(run, t, c_sev, c_id, c_title, c_detail, fl->n > 0);
	return t;
}

/* The default heatmap's cells (the first grid with data, its first metric) in a window
 * of every row and HEATMAP_CELLS columns: the same table as `e` on the heatmap pane
 * (grid_cells_table), whose window is the screen's. */
#define HEATMAP_CELLS 100

static struct table *build_heatmap_cells(struct run *run, char *err, size_t errn)
{
	const struct grid_provider *gp = NULL;
	for (size_t i = 0; !gp && i < registry_ngrids(); i++)
		if (registry_grid_at(i)->nmetrics(run) > 0)
			gp = registry_grid_at(i);
	struct grid_src src;
	memset(&src, 0, sizeof(src));
	if (!gp) {
		snprintf(err, errn, "no heatmap grid has data in this run");
		return NULL;
	}
	if (!gp->open(run, 0, &src, err, errn))
		return NULL;
	struct grid_blocks *b = src.range ? NULL : grid_blocks_build(&src, 0);
	struct grid_window w = { .rpr = 1, .spc = (src.ncols + HEATMAP_CELLS - 1) / HEATMAP_CELLS,
				 .c0 = 0, .ncols = HEATMAP_CELLS };
	struct table *t = grid_cells_table(&src, b, &w);
	grid_blocks_free(b);
	gp->close(&src);
	return t;
}

/* Enter on a finding opens its own evidence (row ref = finding number). */
static bool finding_row_evidence(struct run *run, const struct table *t, size_t row, struct evidence *out)
{
	if (t->ref[row] < 0)
		return false;
	out->kind = EV_FINDING;
	out->item = t->ref[row];
	return true;
}

static const struct view_def core_views[] = {
	{ "findings", "findings, severity-sorted, with evidence (rank, step range) and fix; with none, a "
	  "\"not judged\" row per rule that could not judge the run (with findings, per part of it a rule "
	  "could not judge: a sweep series, a file)", build_findings,
	  finding_row_evidence, NULL },
	{ "sources", "every file read, records loaded/skipped, and every diagnostic", build_sources, NULL, NULL },
	{ "heatmap_cells", "the default heatmap's cells (worst and mean per cell), as the heatmap pane's e writes them",
	  build_heatmap_cells, NULL, NULL },
};

/* The tabs of every run (the heatmap draws the first grid with data). The Heatmap tab
 * only when some grid has data (a sweep or a trace without steps has
 * none). nmetrics() reads the run; the cast is for its non-const signature. */
static bool heatmap_show(const struct run *run)
{
	for (size_t i = 0; i < registry_ngrids(); i++)
		if (registry_grid_at(i)->nmetrics((struct run *)run) > 0)
			return true;
	return false;
}

static const struct tab_def core_tabs[] = {
	{ 1, "Overview", TAB_OVERVIEW, NULL, NULL, "findings", NULL },
	{ 2, "Heatmap", TAB_HEATMAP, NULL, heatmap_show, NULL, NULL },
	{ 6, "Findings", TAB_TABLE, "findings", NULL, NULL, NULL },
	{ 7, "Sources", TAB_TABLE, "sources", NULL, NULL, NULL },
};

/* A refused run (model/identity.h) says so first: nothing was opened, and where the
 * list of what was found is. */
static void core_summary(struct run *run, struct summary *out)
{
	if (run->refused)
		summary_add(out, TONE_BAD, "refused", "%s; nothing opened: the sources view lists what was found "
			    "and how to open each run alone", run->refused);
}

/* heatmap_cells needs a grid with data, as its build does; findings and sources are always. */
static bool core_view_has_data(struct run *run, const struct view_def *vd)
{
	return vd->build != build_heatmap_cells || heatmap_show(run);
}

const struct subsystem sub_core = {
	.name = "core",
	.summary = core_summary,
	.views = core_views,
	.nviews = ARRAY_LEN(core_views),
	.view_has_data = core_view_has_data,
	.tabs = core_tabs,
	.ntabs = ARRAY_LEN(core_tabs),
};
