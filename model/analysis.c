/* SPDX-License-Identifier: MIT */
/* analysis.c: analyzers over the step model (see analysis.h). */
#include "model/analysis.h"

#include <stdlib.h>
#include "model/run.h"

const struct timing *analysis_timing(struct run *run, size_t ri) { (void)run; (void)ri; return NULL; }
double timing_fraction(const struct timing *t, const char *name) { (void)t; (void)name; return 0; }
double timing_seconds(const struct timing *t, const char *name) { (void)t; (void)name; return 0; }
const struct memory *analysis_memory(struct run *run, size_t ri) { (void)run; (void)ri; return NULL; }
const struct convergence *analysis_convergence(struct run *run, size_t ri) { (void)run; (void)ri; return NULL; }
const struct distributed *analysis_distributed(struct run *run) { (void)run; return NULL; }
const struct budget *analysis_budget(struct run *run, size_t ri) { (void)run; (void)ri; return NULL; }
bool analysis_budget_window(struct run *run, size_t ri, long lo, long hi, struct budget *out) { (void)run; (void)ri; (void)lo; (void)hi; (void)out; return false; }
const struct heat_grid *analysis_heatmap(struct run *run, int series) { (void)run; (void)series; return NULL; }
size_t heat_nsteps(const struct heat_grid *g) { (void)g; return 0; }
size_t heat_nranks(const struct heat_grid *g) { (void)g; return 0; }
bool heat_range(const struct heat_grid *g, size_t ri, size_t k_lo, size_t k_hi, double *mean, double *worst) { (void)g; (void)ri; (void)k_lo; (void)k_hi; (void)mean; (void)worst; return false; }
void heat_extent(const struct heat_grid *g, double *lo, double *hi) { (void)g; *lo = 0; *hi = 0; }
void analysis_cache_free(void *cache) { free(cache); }
