/* SPDX-License-Identifier: MIT */
/* pane_overview.c: the run at a glance: name, sources, ranks, steps, wall time, the
 * budget headline (MFU when known), top findings (selectable: Enter opens the evidence)
 * and a data-quality summary. */
#include <stdlib.h>
#include <string.h>
#include "model/steps/analysis.h"
#include "model/registry.h"
#include "model/dasf/dasf.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"
#include "ui/app.h"
#include "ui/draw.h"

struct opane {
	size_t sel;           /* selected finding */
	int list_y;           /* first finding row in the last frame */
	struct table *export; /* `e` here exports the findings view */
};

static void *ov_open(struct app *app, const char *arg, char *why, size_t whyn)
{
	return xcalloc(1, sizeof(struct opane));
}

static void ov_close(void *priv)
{
	struct opane *p = priv;
	table_free(p->export);
	free(p);
}

static struct table *ov_table(void *priv, struct app *app)
{
	struct opane *p = priv;
	const struct view_def *vd = registry_view("findings");
	char err[128];
	table_free(p->export);
	p->export = vd ? vd->build(app->run, err, sizeof(err)) : NULL;
	return p->export;
}

/* "key   value", the value wrapped onto a second row when it does not fit; returns
 * the row after it. */
static int kv_role(int y, int x, int w, const char *k, const char *v, enum role r)
{
	draw_text(y, x, 18, k, ROLE_DIM);
	struct rect area = { y, x + 18, 2, w - 18 };
	int used = draw_wrap(&area, 0, v, r);
	return y + (used > 0 ? used : 1);
}

static int kv(int y, int x, int w, const char *k, const char *v)
{
	return kv_role(y, x, w, k, v, ROLE_NORMAL);
}

static int draw_sources(struct app *app, int y, int x, int w)
{
	const struct run *run = app->run;
	size_t rec = 0, skipped = 0, unreadable = 0, partial = 0;
	for (size_t i = 0; i < run->nsrc; i++) {
		rec += run->src[i].records;
		skipped += run->src[i].skipped;
		unreadable += run->src[i].err != 0;
		partial += run->src[i].partial;
	}
	size_t nerr = 0, nwarn = 0;
	for (size_t i = 0; i < run->diags.n; i++) {
		nerr += run->diags.v[i].level == DIAG_ERROR;
		nwarn += run->diags.v[i].level == DIAG_WARN;
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%zu files, %zu records loaded", run->nsrc, rec);
	y = kv(y, x, w, "sources", buf);
	snprintf(buf, sizeof(buf), "%zu skipped, %zu unreadable, %zu partial; %zu errors, %zu warnings%s",
		 skipped, unreadable, partial, nerr, nwarn, run->diags.dropped ? " (more dropped)" : "");
	return kv_role(y, x, w, "data quality", buf, skipped || unreadable || nerr ? ROLE_SEV_MED : ROLE_GOOD);
}

static int draw_steps(struct app *app, int y, int x, int w)
{
	const struct steps_model *m = app->run->steps;
	char buf[256];
	if (!m || !steps_nranks(m)) {
		y = kv(y, x, w, "ranks", "no per-rank step records");
		return y;
	}
	snprintf(buf, sizeof(buf), "%zu", steps_nranks(m));
	y = kv(y, x, w, "ranks", buf);
	snprintf(buf, sizeof(buf), "%zu aligned across ranks, %zu distinct", steps_naligned(m), steps_nunion(m));
	y = kv(y, x, w, "steps", buf);
	const struct distributed *d = analysis_distributed(app->run);
	if (d) {
		snprintf(buf, sizeof(buf), "%.4g s (mean step wall %.4g s x %zu aligned steps)",
			 d->mean_step_wall * (double)d->n_steps, d->mean_step_wall, d->n_steps);
		y = kv(y, x, w, "wall time", buf);
		snprintf(buf, sizeof(buf), "%.1f%% of wall lost to imbalance; imbalance cv %.3f; comm %.1f%%",
			 d->wall_frac_lost * 100, d->imbalance_cv, d->mean_comm_fraction * 100);
		y = kv(y, x, w, "imbalance", buf);
		analysis_straggler_line(d, buf, sizeof(buf));
		y = kv_role(y, x, w, "stragglers", buf, d->nstragglers ? ROLE_SEV_HIGH : ROLE_GOOD);
	}
	const struct budget *b = analysis_budget(app->run, 0);
	if (b) {
		int k = snprintf(buf, sizeof(buf), "efficiency %.1f%% of %.4g s wall (rank %d)", b->efficiency * 100,
				 b->wall, steps_rank_id(m, 0));
		if (b->has_mfu)
			snprintf(buf + k, sizeof(buf) - (size_t)k, "; MFU %.1f%%", b->mfu * 100);
		else
			snprintf(buf + k, sizeof(buf) - (size_t)k, "; MFU n/a (no FLOPs/peak)");
		y = kv(y, x, w, "budget", buf);
		if (b->nrecoverable) {
			const struct budget_line *l = &b->line[b->recoverable[0]];
			snprintf(buf, sizeof(buf), "%s %.4g s (%.1f%%)", l->name, l->seconds, l->fraction * 100);
			y = kv(y, x, w, "top recoverable", buf);
		}
	}
	return y;
}

/* DASF databases: what was loaded and where to look. */
static int draw_dasf(struct app *app, int y, int x, int w)
{
	struct dasf_summary s;
	if (!dasf_summarize(app->run, &s) || !s.tasks)
		return y;
	char buf[256];
	snprintf(buf, sizeof(buf), "%zu tasks, %zu functions, %zu workers on %zu hosts; %.4g s of task time",
		 s.tasks, s.functions, s.workers, s.hosts, s.total_task_s);
	y = kv(y, x, w, "DASF tasks", buf);
	snprintf(buf, sizeof(buf), "%.4g s over %zu tasks (:view critical_path; :view function_bottleneck)",
		 s.critical_s, s.critical_len);
	y = kv(y, x, w, "critical path", buf);
	return y;
}

static void ov_draw(void *priv, struct app *app, const struct rect *body)
{
	struct opane *p = priv;
	int x = body->x + 2, w = body->w - 4, y = body->y + 1;
	y = kv(y, x, w, "run", app->run->name ? app->run->name : "-");
	y = kv(y, x, w, "path", app->run->path ? app->run->path : "-");
	y = draw_sources(app, y, x, w);
	y = draw_steps(app, y, x, w);
	y = draw_dasf(app, y, x, w);
	y++;
	const struct finding_list *fl = run_findings(app->run);
	draw_fmt(y++, x, w, ROLE_HEADER, "Findings (%zu; Enter opens the evidence, 6 lists them all)", fl->n);
	p->list_y = y;
	if (p->sel >= fl->n)
		p->sel = fl->n ? fl->n - 1 : 0;
	for (size_t i = 0; i < fl->n && y < body->y + body->h; i++, y++) {
		const struct finding *f = &fl->v[i];
		enum role sev = f->severity == SEV_HIGH ? ROLE_SEV_HIGH : f->severity == SEV_MED ? ROLE_SEV_MED : ROLE_SEV_LOW;
		if (i == p->sel)
			draw_clear_rect(&(struct rect){ y, x, 1, w }, ROLE_SELECTED);
		draw_text(y, x, 5, severity_label(f->severity), i == p->sel ? ROLE_SELECTED : sev);
		draw_text(y, x + 6, w - 6, f->title, i == p->sel ? ROLE_SELECTED : ROLE_NORMAL);
	}
	if (!fl->n)
		draw_text(y, x, w, "no findings", ROLE_DIM);
}

static unsigned ov_handle(void *priv, struct app *app, enum action a)
{
	struct opane *p = priv;
	size_t n = run_findings(app->run)->n;
	switch (a) {
	case ACT_UP: if (p->sel) p->sel--; return PR_HANDLED;
	case ACT_DOWN: if (p->sel + 1 < n) p->sel++; return PR_HANDLED;
	case ACT_TOP: p->sel = 0; return PR_HANDLED;
	case ACT_BOTTOM: p->sel = n ? n - 1 : 0; return PR_HANDLED;
	case ACT_ENTER: return n ? app_open_finding(app, p->sel) | PR_HANDLED : PR_HANDLED;
	default: return PR_NONE;
	}
}

static void ov_status(void *priv, struct app *app, char *buf, size_t n)
{
	struct opane *p = priv;
	const struct finding_list *fl = run_findings(app->run);
	if (fl->n && p->sel < fl->n)
		snprintf(buf, n, "finding %zu/%zu  %s", p->sel + 1, fl->n, fl->v[p->sel].id);
	else
		snprintf(buf, n, "overview");
}

const struct pane_ops pane_overview = {
	.name = "overview",
	.open = ov_open,
	.close = ov_close,
	.draw = ov_draw,
	.handle = ov_handle,
	.status = ov_status,
	.table = ov_table,
};
