/* SPDX-License-Identifier: MIT */
/* follow_sweep.h: private to the follower (load_follow.c): a followed PATH that holds, or
 * becomes, a sweep (GenAI-Perf levels, NAT jobs). Those files are written whole and have
 * no appending reader: the sweep is loaded again when the files under a PATH change.
 *
 * CONTRACT.
 * - follow_sweep_poll() compares each PATH's run_tree_signature() (SWEEP_DEPTH levels
 *   deep) with the last poll's, while the run has a sweep or no steps yet (still
 *   starting); when one changed, the sweep family is loaded again from the PATHs it was
 *   given (run_reload_family), which are the ones the run's load read (run->paths, as
 *   model/identity.h left them: no repeat, no file that a directory beside it reads).
 * - The reloads are counted in one LIVE.RELOADED entry of the events list ("sweep: files
 *   changed under sw; reloaded 3 times"), its text replaced at each reload, never one
 *   entry per reload; *last gets that text.
 * - follow_sweep_line() is what the status row says of a followed sweep: its files and
 *   the age of their last change, by the follower's clock. */
#ifndef MODEL_STEPS_FOLLOW_SWEEP_H
#define MODEL_STEPS_FOLLOW_SWEEP_H

#include "model/findings.h"
#include "model/run.h"

struct follow_sweep {
	const char *const *paths;   /* the followed PATHs (the follower's, not copied) */
	size_t npaths;
	unsigned long long *tree;   /* per PATH: its run_tree_signature() at the last poll */
	unsigned reloads;           /* reloads that found a sweep */
	double t_changed;           /* when the last of those reloads ran (-1: none yet) */
	long event;                 /* their LIVE.RELOADED entry in the events list (-1: none yet) */
};

/* Start watching paths (kept, not copied: they outlive w); their first signatures. */
void follow_sweep_init(struct follow_sweep *w, const char *const *paths, size_t npaths);
/* Reload the sweep when the files under a PATH changed (contract above); FOLLOW_RELOADED
 * then, else 0. */
unsigned follow_sweep_poll(struct follow_sweep *w, struct run *run, struct finding_list *events, char *last,
			   size_t nlast, double now);
/* "sweep, 3 files, last change 12 s ago" into buf; false (buf untouched) when the run
 * holds no sweep. */
bool follow_sweep_line(const struct follow_sweep *w, const struct run *run, double now, char *buf, size_t n);
void follow_sweep_free(struct follow_sweep *w);

#endif
