/* SPDX-License-Identifier: MIT */
/* heat_kernels.h: the per-cell loops of the heatmap pyramids (analysis_heatmap.c): a
 * row's level-0 cells from its values and the full blocks of a dense level from the
 * level below. On x86-64 CPUs with AVX2 (chosen at run time) four cells a step, else
 * one; both give the same bits as the scalar loop written out in each comment (no
 * contraction, the same operations in the same order, NaN as the C constant NAN). */
#ifndef TSCOPE_MODEL_STEPS_HEAT_KERNELS_H
#define TSCOPE_MODEL_STEPS_HEAT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

/* v[k] = (float)x[k] for k < n. True when one of them is NaN. */
bool heat_cells(float *v, const double *x, size_t n);

/* v[k] = med[k] > 0 ? (float)(x[k] / med[k] - 1.0) : NAN for k < n (the slowdown
 * against the step's median). True when one of them is NaN. */
bool heat_cells_rel(float *v, const double *x, const double *med, size_t n);

/* Blocks [b, e) of a dense level whose children 2b, 2b+1 in the level below (values pv,
 * worsts pw) both hold h cells (a power of two):
 *   v[b] = (float)(((0 + (double)pv[2b] * h) + (double)pv[2b+1] * h) * (1 / (2h)))
 *   w[b] = pw[2b+1] > pw[2b] ? pw[2b+1] : pw[2b]
 * v, w must not overlap pv, pw (pv and pw may be the same). */
void heat_halve(const float *pv, const float *pw, float *v, float *w, size_t b, size_t e, double h);

/* Tests: true runs the one-cell loops only, whatever the CPU (not thread-safe: set it
 * before the work). */
void heat_kernels_portable(bool on);

#endif
