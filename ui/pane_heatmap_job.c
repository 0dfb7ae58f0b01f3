/* SPDX-License-Identifier: MIT */
/* pane_heatmap_job.c: the heatmap pane's metric switch (m/M) and a metric built off the
 * UI thread (model/grid.h job_start): its progress in the note row, its result swapped
 * in at once when it ended, stopped when the pane is left or m moves on. State and
 * shared helpers: ui/pane_heatmap.h. */
#include <string.h>
#include "ui/pane_heatmap.h"

void hm_job_stop(struct hpane *p)
{
	if (p->job)
		p->prov->job_end(p->job, NULL, NULL, 0);
	p->job = NULL;
}

/* The job ended: its grid replaces the one shown in one step, the cursor on the same
 * rank and step and the zoom in steps kept where the new columns allow. */
static unsigned job_publish(struct hpane *p, struct app *app)
{
	struct grid_src src;
	memset(&src, 0, sizeof(src));
	char why[200] = "";
	bool ok = p->prov->job_end(p->job, &src, why, sizeof(why));
	p->job = NULL;
	if (!ok) {
		app_msg(app, true, "%s", why);
		return PR_REDRAW;
	}
	size_t row = hm_line_row(p, p->cur_r), span = p->src.col_span ? p->src.col_span : 1;
	long rid = p->src.row_id ? p->src.row_id(p->src.ud, row) : (long)row;
	long cid = p->src.col_id ? p->src.col_id(p->src.ud, p->cur_c) : (long)p->cur_c;
	size_t steps_per_cell = (p->spc ? p->spc : 1) * span;
	p->metric = p->job_metric;
	hm_open_source(p, &src);
	hm_set_scale(p);
	size_t nspan = p->src.col_span ? p->src.col_span : 1;
	long r = p->src.row_find ? p->src.row_find(p->src.ud, rid) : rid;
	long c = p->src.col_find ? p->src.col_find(p->src.ud, cid) : cid;
	p->cur_r = r >= 0 && (size_t)r < p->src.nrows ? hm_row_line(p, (size_t)r, false) : 0;
	p->cur_c = c >= 0 && (size_t)c < p->src.ncols ? (size_t)c : 0;
	p->spc = steps_per_cell > nspan ? steps_per_cell / nspan : 1;
	p->cache_ok = false;
	hm_fix_view(p);
	if (why[0])
		app_msg(app, true, "%s", why);
	else if (nspan > 1)
		app_msg(app, false, "'%s' computed, kept in blocks of %zu steps (the full resolution would not fit "
			"memory): a cell is never finer than one block", p->prov->metric_name(p->model, p->metric), nspan);
	else
		app_msg(app, false, "'%s' computed", p->prov->metric_name(p->model, p->metric));
	return PR_REDRAW;
}

/* m/M: the next metric after the one shown or being computed. One whose grid is not in
 * memory and slow to make is computed off the UI thread while the shown one stays
 * (keys live; m again moves on, leaving the pane stops it); else it is built in the
 * next frame (PR_LATER), after this one says so. */
unsigned hm_next_metric(struct hpane *p, struct app *app, bool forward)
{
	size_t from = p->job ? p->job_metric : p->metric;
	size_t m = (from + (forward ? 1 : p->nmetrics - 1)) % p->nmetrics;
	hm_job_stop(p);
	if (m == p->metric) {
		app_msg(app, false, "%s", p->src.title);
		return PR_HANDLED | PR_REDRAW;
	}
	p->job_metric = m;
	if (p->prov->job_start && (p->job = p->prov->job_start(p->model, m)) != NULL) {
		p->job_done = 0;
		app_msg(app, false, "computing '%s' off the UI thread: keys stay live, m goes on, leaving the pane "
			"stops it", p->prov->metric_name(p->model, m));
		return PR_HANDLED | PR_REDRAW;
	}
	p->metric = m;
	p->pending = true;
	app_msg(app, false, "building the heatmap of '%s'...", p->prov->metric_name(p->model, p->metric));
	return PR_HANDLED | PR_LATER;
}

/* A job's progress, shown in the note row; its end publishes it; leaving the pane
 * stops it. */
unsigned hm_tick(void *priv, struct app *app, bool shown, int *wait_ms)
{
	struct hpane *p = priv;
	if (!p->job)
		return PR_NONE;
	if (!shown) {
		hm_job_stop(p);
		return PR_NONE;
	}
	size_t done, total;
	if (p->prov->job_poll(p->job, &done, &total))
		return job_publish(p, app);
	*wait_ms = 100;
	bool moved = done != p->job_done;
	p->job_done = done;
	p->job_total = total;
	return moved ? PR_REDRAW : PR_NONE;
}

