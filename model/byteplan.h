/* SPDX-License-Identifier: MIT */
/* byteplan.h: the bytes a loader reads over every PATH of a run, in the load's total
 * (load_progress) before it reads the first. The loading screen's bar, rate and ETA are
 * then of the whole load: a total that grew file by file or PATH by PATH sent the bar
 * back and gave an ETA of a moment with most of the work still ahead.
 *
 * CONTRACT. One zeroed struct byteplan per loader and run, kept in the family's model;
 * the loader is called once per PATH, in run->paths order, on run_open()'s thread. As it
 * begins a PATH, before reading, the loader calls byteplan_path() with the bytes it will
 * read there now (its files' sizes). The first call adds them, and the bytes of every
 * later PATH of the run that the loader claims (registry_probe, as run_open() asks it),
 * sized with sizer (0 for what it cannot stat); a later call adds only what its PATH's
 * bytes now differ from the plan (0 unless a file changed meanwhile). A PATH that is not
 * one of run->paths (a loader called directly) adds its bytes alone. The loader reports
 * the bytes it reads as done, and corrects the total where a file's size at its open, or
 * at its end, differs from what it passed. byteplan_free() releases the plan. */
#ifndef MODEL_BYTEPLAN_H
#define MODEL_BYTEPLAN_H

#include "model/base.h"

struct load_ctx;
struct opts;

struct byteplan {
	long long *planned;   /* per entry of run->paths: the bytes planned there, -1: none */
	size_t n;             /* entries (0: nothing planned yet) */
};

/* Begin PATH path of ctx's run (see above): bytes, what the loader named `loader` (its
 * --format name) reads there now; sizer gives a later PATH's. */
void byteplan_path(struct byteplan *p, struct load_ctx *ctx, const char *loader, const char *path,
		   long long bytes, long long (*sizer)(const char *path, const struct opts *opts));
void byteplan_free(struct byteplan *p);

#endif
