/* SPDX-License-Identifier: MIT */
/* app_evidence.c: THE drill-down map (see app.h app_open_evidence): the pane that shows
 * an evidence and where in it, and the heatmap tab that shows a grid: the default
 * Heatmap tab for the grid it shows, else a tab of the grid's own. */
#include <string.h>
#include "model/registry.h"
#include "ui/app.h"
#include "ui/app_internal.h"

struct ui_target app_target_none(void)
{
	return (struct ui_target){ .rank = -1, .step_lo = -1, .step_hi = -1, .item = -1 };
}

const struct grid_provider *app_grid(struct app *app, const char *name, void **model)
{
	if (app->grid && (!name || strcmp(name, app->grid->name) == 0)) {
		*model = app->grid_model;
		return app->grid;
	}
	*model = app->run;
	for (size_t i = 0; !name && i < registry_ngrids(); i++) /* default: the first with data */
		if (registry_grid_at(i)->nmetrics(app->run) > 0)
			return registry_grid_at(i);
	return registry_grid(name);
}

/* The grid the default Heatmap tab shows (app_grid's default) is that tab's, never a
 * second tab of the same cells. */
long app_heatmap(struct app *app, const char *grid)
{
	long fixed = app_find(app, &pane_heatmap, NULL);
	void *model;
	const struct grid_provider *gp = grid ? registry_grid(grid) : NULL, *shown = app_grid(app, NULL, &model);
	if (!grid || (fixed >= 0 && gp && gp == shown))
		return fixed;
	return gp ? app_pane(app, &pane_heatmap, gp->name, gp->label) : -1;
}

/* EV_RANK: the heatmap at the rank; a run without that heatmap (a trace without steps)
 * opens the rank's row of the view the evidence names, else of sources (the rank's
 * files), and says so; -1 when that view has no data either. */
static long rank_pane(struct app *app, const struct evidence *ev)
{
	long p = app_heatmap(app, ev->grid);
	if (p >= 0)
		return p;
	const char *view = ev->view ? ev->view : "sources";
	const struct view_def *vd = registry_view(view);
	if (!vd || !registry_view_available(app->run, vd))
		return -1;
	app_msg(app, false, "this run has no heatmap: rank %d's row of %s", ev->rank, view);
	return app_pane(app, &pane_table, view, view);
}

unsigned app_open_evidence(struct app *app, const struct evidence *ev)
{
	struct ui_target t = app_target_none();
	/* EV_RANK of a grid whose rows are not ranks: the row id in item (model/findings.h) */
	t.rank = ev->kind == EV_RANK && ev->rank < 0 && ev->item >= 0 ? (int)ev->item : ev->rank;
	t.step_lo = ev->step_lo;
	t.step_hi = ev->step_hi;
	t.series = ev->series;
	t.marks = ev->steps;
	t.nmarks = ev->nsteps;
	long p = -1;
	switch (ev->kind) {
	case EV_FINDING:
		return app_open_finding(app, (size_t)ev->item);
	case EV_RANK:
		p = rank_pane(app, ev);
		break;
	case EV_STEPS:
	case EV_SERIES:
		p = app_find(app, &pane_steps, NULL);
		break;
	case EV_BUDGET:
		p = app_find(app, &pane_budget, NULL);
		break;
	case EV_KERNEL:
	case EV_TASK:
	case EV_CONFIG:
	case EV_SOURCE:
	case EV_ROW:
		p = ev->view && registry_view(ev->view) ? app_pane(app, &pane_table, ev->view, ev->view) : -1;
		t = app_target_none();
		t.ev = ev;
		t.item = ev->kind == EV_CONFIG || ev->kind == EV_SOURCE || ev->kind == EV_ROW ? ev->item : -1;
		break;
	case EV_NONE:
		break;
	}
	if (p < 0) {
		app_msg(app, false, "no evidence to open here");
		return PR_REDRAW;
	}
	return app_show(app, (size_t)p, &t);
}

unsigned app_open_finding(struct app *app, size_t idx)
{
	const struct finding_list *fl = run_findings(app->run);
	if (idx >= fl->n)
		return PR_NONE;
	if (fl->v[idx].ev.kind == EV_NONE || fl->v[idx].ev.kind == EV_FINDING) {
		app_msg(app, false, "this finding has no evidence to open");
		return PR_REDRAW;
	}
	return app_open_evidence(app, &fl->v[idx].ev);
}
