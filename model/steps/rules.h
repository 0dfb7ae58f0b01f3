/* SPDX-License-Identifier: MIT */
/* rules.h: private to model/steps. What the step rules (rules.c) share with
 * CROSS.CORRELATED_INSTABILITY (rules_cross.c: that rule, its slicer, which rules.c
 * registers, and which run of steps a finding at steps logged twice means) and with
 * DIST.LOAD_IMBALANCE's native hang (rules_hang.c). */
#ifndef MODEL_STEPS_RULES_H
#define MODEL_STEPS_RULES_H

#include "model/findings.h"
#include "model/run.h"

/* The run is read under --compat pytscope. */
bool rules_compat(const struct run *run);
/* Steps the rules read: none under --compat pytscope when they are a trace's ProfilerSteps
 * (pytscope reads no steps from a trace). */
bool rules_have_steps(const struct run *run);
/* Evidence: steps[0..n) of rank 0 (step numbers). */
struct evidence rules_ev_steps(const struct run *run, const long *steps, size_t n);
/* What a rule over rank 0 needs first, in slices: rank 0's steps read, then make()'s
 * analysis of rank 0 a slice at a time; true when it is all there (*state freed). */
bool rules_prep_slice(struct run *run, void **state, bool (*make)(struct run *run, size_t ri, void **job));
void rules_prep_drop(void *state);

/* Which run of steps records [g0, g1] of step[0..n) are when their step numbers were logged
 * in another run too (natively: analysis_resumes_at): " after the resume from step P back
 * to S" (the last resume before them, when a record before it has a step number from g0's
 * on), else " before the resume ..." (the first resume after them, when a record from it
 * on has a step number up to g1's); "" when their step numbers are logged once. */
void rules_which_run(const long *step, size_t n, size_t g0, size_t g1, char *buf, size_t bn);
/* CROSS.CORRELATED_INSTABILITY (findings.h struct finding_rule), and the same in slices
 * (struct rule_slicer). */
void rules_cross(struct run *run, struct finding_list *out);
bool rules_cross_slice(struct run *run, struct finding_list *out, void **state);
void rules_cross_drop(void *state);
/* DIST.LOAD_IMBALANCE natively when the median step is balanced: the aligned step, or burst
 * of steps waiting for one hung rank, that alone lost 5% or more of the critical compute
 * (rules_hang.c); nothing on fewer than STRAG_MIN_JUDGE aligned steps. */
struct distributed;
void rules_hang(const struct distributed *d, struct finding_list *out);

#endif
