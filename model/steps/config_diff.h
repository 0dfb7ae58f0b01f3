/* SPDX-License-Identifier: MIT */
/* config_diff.h: run.json keys that a few ranks of a step run set otherwise than the
 * rest (model/steps/config_diff.c), for the Overview's "config differs" and "env
 * differs" lines and the CONFIG.RANKS_DIFFER and ENV.RANKS_DIFFER findings: a rank
 * launched with another batch size or model does other work per step, one on another
 * GPU or software stack runs at another speed, and ranks of another run with the same
 * name would be merged in silence.
 *
 * CONTRACT. The keys weighed: the config's ("config.K" in struct steps_meta), or the
 * environment's that pytscope records of the software and hardware (gpu, gpu_count,
 * torch, cuda, cuda_available, cudnn_benchmark, cudnn_deterministic, python, cpu_count;
 * not hostnames, the platform string nor the user's env.* variables). Over the
 * ranks whose run.json was read (n of them), a key (compared by its text) is named when
 * fewer than half of those ranks have another value than the most common one (a key
 * absent counts as a value): a key set per rank, such as local_rank, differs on most
 * ranks and is not named, and two ranks have no majority. When no key is so named but
 * some key's value differs with no such majority (two ranks that differ, ranks split
 * half and half, a key set per rank), those keys are named against the lowest rank's
 * values instead, with split set: the ranks that differ are those whose value is not the
 * lowest rank's. Keys beyond a scope's first 32 are not weighed. The strings point into
 * the model's run.json metadata (unsanitized) and live as long as it. */
#ifndef MODEL_STEPS_CONFIG_DIFF_H
#define MODEL_STEPS_CONFIG_DIFF_H

#include "model/base.h"

struct steps_model;

enum diff_scope { DIFF_CONFIG, DIFF_ENV };

struct config_diff {
	size_t first;           /* rank index of the lowest rank that differs */
	const char *key;        /* its first named key (a config key without "config.") */
	const char *value;      /* its value there ("(none)": absent) */
	const char *others;     /* the most common value ("(none)": absent) */
	size_t ndiff, n;        /* ranks that differ on a named key, of the ranks with a run.json */
	char ranks[48];         /* their ids as ranges ("8-15,17") when more than one; "" when one or longer */
	bool split;             /* no majority: named against the lowest rank (others: its value) */
	char keys[200];         /* the named keys, ", "-separated, without "config." */
};

/* true when some key of the scope is named (out filled), false when every rank with a
 * run.json has the lowest rank's keys and values of the scope, or the lowest rank has no
 * run.json. */
bool steps_config_diff(const struct steps_model *m, enum diff_scope scope, struct config_diff *out);

/* key is one of run.json's config entries: "config.K", or "config" for an empty one. */
bool steps_is_config_key(const char *key);

#endif
