/* SPDX-License-Identifier: MIT */
/* registry.c: the list of subsystems and the lookups over it (see registry.h). Adding
 * an input family = its folder under model/ + one line in registry[]. */
#include "model/registry.h"

#include "model/dirlist.h"

#include <stdio.h>
#include <string.h>
#include "model/run.h"

const struct subsystem *const registry[] = {
	&sub_core, &sub_steps, &sub_trace, &sub_sweep, &sub_dasf,
};
const size_t registry_count = ARRAY_LEN(registry);
_Static_assert(ARRAY_LEN(registry) <= RUN_MAX_FAMILIES, "RUN_MAX_FAMILIES");

void **registry_slot(struct run *run, const struct subsystem *sub)
{
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s] == sub)
			return &run->family[s];
	return NULL;
}

const struct view_def *registry_view(const char *name)
{
	if (!name)
		return NULL;
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++)
			if (strcmp(registry[s]->views[v].name, name) == 0)
				return &registry[s]->views[v];
	return NULL;
}

const struct finding_rule *registry_rule(const char *id, const struct subsystem **sub)
{
	const char *dot = strchr(id, '.');
	const struct finding_rule *by_category = NULL;
	const struct subsystem *category_sub = NULL;
	for (size_t s = 0; s < registry_count; s++)
		for (size_t i = 0; i < registry[s]->nrules; i++) {
			const struct finding_rule *r = &registry[s]->rules[i];
			if (strcmp(r->id, id) == 0) {
				if (sub)
					*sub = registry[s];
				return r;
			}
			if (!by_category && dot && strncmp(r->id, id, (size_t)(dot - id) + 1) == 0) {
				by_category = r;
				category_sub = registry[s];
			}
		}
	if (sub)
		*sub = category_sub;
	return by_category;
}

bool registry_row_evidence(struct run *run, const struct table *t, size_t row, struct evidence *out)
{
	*out = evidence_none();
	const struct view_def *vd = registry_view(t->name);
	if (vd && vd->row_evidence)
		return vd->row_evidence(run, t, row, out);
	int c = table_col_role(t, COL_ROLE_RANK);
	if (c < 0 || !table_cell(t, row, c)->present)
		return false;
	out->kind = EV_STEPS;
	out->rank = (int)table_cell(t, row, c)->num;
	int cs = table_col_role(t, COL_ROLE_STEP);   /* a row of one step opens at that step */
	if (cs >= 0 && table_cell(t, row, cs)->present)
		out->step_lo = out->step_hi = (long)table_cell(t, row, cs)->num;
	return true;
}

size_t registry_ngrids(void)
{
	size_t n = 0;
	for (size_t s = 0; s < registry_count; s++)
		n += registry[s]->ngrids;
	return n;
}

const struct grid_provider *registry_grid_at(size_t i)
{
	for (size_t s = 0; s < registry_count; s++) {
		if (i < registry[s]->ngrids)
			return registry[s]->grids[i];
		i -= registry[s]->ngrids;
	}
	return NULL;
}

const struct grid_provider *registry_grid(const char *name)
{
	for (size_t i = 0; i < registry_ngrids(); i++)
		if (!name || strcmp(registry_grid_at(i)->name, name) == 0)
			return registry_grid_at(i);
	return NULL;
}

size_t registry_ncmds(void)
{
	size_t n = 0;
	for (size_t s = 0; s < registry_count; s++)
		n += registry[s]->ncmds;
	return n;
}

const struct model_cmd *registry_cmd_at(size_t i)
{
	for (size_t s = 0; s < registry_count; s++) {
		if (i < registry[s]->ncmds)
			return &registry[s]->cmds[i];
		i -= registry[s]->ncmds;
	}
	return NULL;
}

const struct model_cmd *registry_cmd(const char *name, size_t n)
{
	for (size_t i = 0; i < registry_ncmds(); i++) {
		const struct model_cmd *c = registry_cmd_at(i);
		if (strlen(c->name) == n && strncmp(c->name, name, n) == 0)
			return c;
	}
	return NULL;
}

size_t registry_tabs(const struct run *run, const struct tab_def **out, size_t cap)
{
	size_t n = 0;
	for (int key = 1; key <= 9; key++)
		for (size_t s = 0; s < registry_count; s++)
			for (size_t t = 0; t < registry[s]->ntabs && n < cap; t++) {
				const struct tab_def *d = &registry[s]->tabs[t];
				if (d->key == key && (!d->show || d->show(run)))
					out[n++] = d;
			}
	return n;
}

const char *registry_tab_view(enum tab_pane pane)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t t = 0; t < registry[s]->ntabs; t++)
			if (registry[s]->tabs[t].pane == pane && registry[s]->tabs[t].view)
				return registry[s]->tabs[t].view;
	return NULL;
}

bool registry_has_data(const struct run *run)
{
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s]->has_data && registry[s]->has_data(run))
			return true;
	return false;
}

bool registry_has_records(const struct run *run)
{
	for (size_t s = 0; s < registry_count; s++) {
		bool (*has)(const struct run *) = registry[s]->has_records ? registry[s]->has_records
									     : registry[s]->has_data;
		if (has && has(run))
			return true;
	}
	return false;
}

void registry_summary(struct run *run, struct summary *out)
{
	out->n = 0;
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s]->summary)
			registry[s]->summary(run, out);
}

int registry_probe(const struct loader *ld, const char *path, const struct opts *opts)
{
	int c;
	/* --trace answers the trace probe without looking at path, and identification
	 * probes without it: such an answer is neither remembered nor taken from memory */
	if (opts && opts->ntrace > 0)
		return ld->probe(path, opts);
	if (!dirlist_memo_claim(ld, path, &c)) {   /* the first to ask computes it */
		c = ld->probe(path, opts);
		dirlist_memo_put(ld, path, c);
	}
	return c;
}

const struct loader *registry_loader(const char *name)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t l = 0; l < registry[s]->nloaders; l++)
			if (strcmp(registry[s]->loaders[l].name, name) == 0)
				return &registry[s]->loaders[l];
	return NULL;
}

void registry_loader_names(char *buf, size_t n)
{
	size_t k = 0;
	if (n)
		buf[0] = '\0';
	for (size_t s = 0; s < registry_count; s++)
		for (size_t l = 0; l < registry[s]->nloaders && k < n; l++) {
			int w = snprintf(buf + k, n - k, "%s%s", k ? ", " : "", registry[s]->loaders[l].name);
			k += w > 0 ? (size_t)w : 0;
		}
}

bool registry_view_available(struct run *run, const struct view_def *vd)
{
	for (size_t s = 0; s < registry_count; s++) {
		const struct subsystem *sub = registry[s];
		if (vd >= sub->views && vd < sub->views + sub->nviews)
			return (!sub->has_data || sub->has_data(run)) &&
			       (!sub->view_has_data || sub->view_has_data(run, vd));
	}
	return false;
}
