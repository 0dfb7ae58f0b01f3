/* SPDX-License-Identifier: MIT */
/* follow_sweep.c: the follower's watch over a sweep (follow_sweep.h): the PATHs' tree
 * signatures, the sweep loaded again when they change, the one LIVE.RELOADED entry that
 * counts those reloads, and the status row's words for a sweep. */
#include "model/steps/follow_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/steps/follow.h"
#include "model/xalloc.h"

enum { SWEEP_DEPTH = 3 };

void follow_sweep_init(struct follow_sweep *w, const char *const *paths, size_t npaths)
{
	*w = (struct follow_sweep){ .paths = paths, .npaths = npaths, .t_changed = -1, .event = -1 };
	w->tree = xcalloc(npaths ? npaths : 1, sizeof(*w->tree));
	for (size_t i = 0; i < npaths; i++)
		w->tree[i] = run_tree_signature(paths[i], SWEEP_DEPTH);
}

/* The PATH whose files changed since the last poll (every signature taken anew), or -1. */
static long changed_path(struct follow_sweep *w)
{
	long changed = -1;
	for (size_t i = 0; i < w->npaths; i++) {
		unsigned long long sig = run_tree_signature(w->paths[i], SWEEP_DEPTH);
		if (changed < 0 && sig != w->tree[i])
			changed = (long)i;
		w->tree[i] = sig;
	}
	return changed;
}

/* Count a reload of the sweep under path in its LIVE.RELOADED entry (added the first time). */
static void count_reload(struct follow_sweep *w, struct finding_list *events, const char *path, double now,
			 char *last, size_t nlast)
{
	w->reloads++;
	w->t_changed = now;
	if (w->reloads == 1)
		snprintf(last, nlast, "sweep: files changed under %s; reloaded", path);
	else
		snprintf(last, nlast, "sweep: reloaded %u times as its files changed, the last under %s", w->reloads,
			 path);
	if (w->event >= 0 && (size_t)w->event < events->n) {
		struct finding *e = &events->v[w->event];
		free(e->title);
		e->title = xstrdup(last);
		return;
	}
	struct evidence ev = evidence_none();
	ev.item = (long)events->n;   /* as the follower's other events: its place in the list */
	w->event = (long)events->n;
	findings_add(events, "LIVE.RELOADED", SEV_LOW, last, "Seen while following the job (--follow).", "", ev);
}

unsigned follow_sweep_poll(struct follow_sweep *w, struct run *run, struct finding_list *events, char *last,
			   size_t nlast, double now)
{
	if (!run->sweep && run->steps)
		return 0;
	long i = changed_path(w);
	if (i < 0)
		return 0;
	bool had = run->sweep != NULL;
	run_reload_family(run, &sub_sweep, w->paths, w->npaths);   /* every PATH is loaded again */
	if (had || run->sweep)
		count_reload(w, events, w->paths[i], now, last, nlast);
	return FOLLOW_RELOADED;
}

/* The sources the sweep's loaders read. */
static size_t sweep_files(const struct run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->nsrc; i++)
		for (size_t l = 0; l < sub_sweep.nloaders; l++)
			if (run->src[i].format && strcmp(run->src[i].format, sub_sweep.loaders[l].name) == 0) {
				n++;
				break;
			}
	return n;
}

bool follow_sweep_line(const struct follow_sweep *w, const struct run *run, double now, char *buf, size_t n)
{
	if (!run->sweep)
		return false;
	size_t files = sweep_files(run);
	int k = snprintf(buf, n, "sweep, %zu file%s", files, files == 1 ? "" : "s");
	if (w->t_changed >= 0 && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, ", last change %.0f s ago", now - w->t_changed);
	return true;
}

void follow_sweep_free(struct follow_sweep *w)
{
	free(w->tree);
	w->tree = NULL;
}
