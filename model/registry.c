/* SPDX-License-Identifier: MIT */
/* registry.c: the list of subsystems (see registry.h). */
#include "model/registry.h"

#include <stdio.h>
#include <string.h>
#include "model/run.h"

const struct subsystem *const registry[] = {
	&sub_core, &sub_steps, &sub_trace, &sub_sweep, &sub_dasf,
};
const size_t registry_count = ARRAY_LEN(registry);

const struct view_def *registry_view(const char *name)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t v = 0; v < registry[s]->nviews; v++)
			if (strcmp(registry[s]->views[v].name, name) == 0)
				return &registry[s]->views[v];
	return NULL;
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

/* Whether the run holds the model a subsystem's views read. */
static bool subsystem_loaded(const struct run *run, const struct subsystem *sub)
{
	if (sub == &sub_steps)
		return run->steps != NULL;
	if (sub == &sub_trace)
		return run->trace != NULL;
	if (sub == &sub_sweep)
		return run->sweep != NULL;
	if (sub == &sub_dasf)
		return run->dasf != NULL;
	return true;
}

bool registry_view_available(const struct run *run, const struct view_def *vd)
{
	for (size_t s = 0; s < registry_count; s++)
		if (vd >= registry[s]->views && vd < registry[s]->views + registry[s]->nviews)
			return subsystem_loaded(run, registry[s]);
	return false;
}
