/* SPDX-License-Identifier: MIT */
/* steps_rules.h: pytscope's finding rules over step runs (model/steps/rules.c), in
 * pytscope's registration order (orders 100..610; DIST.EXPOSED_COMM 430 lives with the
 * traces). Registered by sub_steps (model/steps/load.c). */
#ifndef MODEL_STEPS_RULES_H
#define MODEL_STEPS_RULES_H

#include "model/findings.h"

#define STEPS_NRULES 13
extern const struct finding_rule steps_rules[STEPS_NRULES];

#endif
