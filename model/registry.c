/* SPDX-License-Identifier: MIT */
/* registry.c: the list of subsystems (see registry.h). */
#include "model/registry.h"

#include <string.h>

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
