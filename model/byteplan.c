/* SPDX-License-Identifier: MIT */
/* byteplan.c: the bytes a loader reads over every PATH of a run, added to the load's
 * total at its first PATH (see byteplan.h for the contract). */
#include "model/byteplan.h"

#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/xalloc.h"

/* The entry of run->paths that path is, -1 when none. */
static long path_index(const struct run *run, const char *path)
{
	for (size_t i = 0; i < run->npaths; i++)
		if (strcmp(run->paths[i], path) == 0)
			return (long)i;
	return -1;
}

/* Plan the PATHs after entry i that ld claims; returns their bytes. */
static long long plan_after(struct byteplan *p, const struct run *run, size_t i, const struct loader *ld,
			    long long (*sizer)(const char *path, const struct opts *opts))
{
	long long sum = 0;
	p->n = run->npaths;
	p->planned = xmalloc(p->n * sizeof(*p->planned));
	for (size_t k = 0; k < p->n; k++) {
		bool later = k > i && ld && registry_probe(ld, run->paths[k], run->opts) > 0;
		p->planned[k] = later ? sizer(run->paths[k], run->opts) : -1;
		sum += later ? p->planned[k] : 0;
	}
	return sum;
}

void byteplan_path(struct byteplan *p, struct load_ctx *ctx, const char *loader, const char *path,
		   long long bytes, long long (*sizer)(const char *path, const struct opts *opts))
{
	long i = path_index(ctx->run, path);
	long long add = bytes;
	if (i >= 0 && !p->n)
		add += plan_after(p, ctx->run, (size_t)i, registry_loader(loader), sizer);
	else if (i >= 0 && (size_t)i < p->n && p->planned[i] >= 0)
		add -= p->planned[i];   /* in the total already: what changed since */
	if (i >= 0 && (size_t)i < p->n)
		p->planned[i] = -1;
	load_progress(ctx, 0, add);
}

void byteplan_free(struct byteplan *p)
{
	free(p->planned);
	*p = (struct byteplan){ 0 };
}
