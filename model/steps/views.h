/* SPDX-License-Identifier: MIT */
/* steps_views.h: views of a step run (model/steps/views.c), registered by sub_steps:
 * ranks, steps, heatmap, budget. Column names are snake_case. */
#ifndef MODEL_STEPS_VIEWS_H
#define MODEL_STEPS_VIEWS_H

#include "model/registry.h"

#define STEPS_NVIEWS 4
extern const struct view_def steps_views[STEPS_NVIEWS];

#endif
