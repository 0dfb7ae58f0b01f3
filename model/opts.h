/* SPDX-License-Identifier: MIT */
/* opts.h: the options every layer may read. Parsed once by src/cli.c, then passed down
 * read-only (no global flag soup). Unset numeric options are flagged by *_set. */
#ifndef MODEL_OPTS_H
#define MODEL_OPTS_H

#include "model/base.h"

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER, COLOR_256, COLOR_8 };

struct opts {
	const char *format;          /* --format NAME: only this loader */
	bool no_mouse;               /* --no-mouse: leave the mouse to the terminal */
	bool from_picker;            /* the run was opened from the run picker (a folder of
	                              * runs): q at the top goes back to it (ui/ui.h UI_BACK) */
	int jobs;                    /* --jobs N: loader threads (0: one per core, max 8) */
	enum color_mode color;       /* --color */
	bool ascii;                  /* --ascii */
	bool csv_raw;                /* --csv-raw: no formula neutralisation in CSV */
	long max_frames;             /* --max-frames N: explorer quits after N frames (0: never) */

	/* follow mode (model/steps/follow.h) */
	const char *const *paths;    /* the PATH arguments (what follow mode watches) */
	size_t npaths;
	bool follow;                 /* --follow: start following (the explorer's F toggles it) */
	double interval;             /* --interval SECS between polls (cli default 1) */
	double stall_floor;          /* --stall SECS: floor of the stall threshold (cli default 10) */
	bool compat_pytscope;        /* --compat pytscope: pytscope 0.2.1's rules and report only */

	/* rank subsets and the persistent index (model/index/index.h) */
	const char *ranks;           /* --ranks LIST: load only these rank ids (NULL: all) */
	bool no_index;               /* --no-index: neither read nor write the index */
	bool index_build;            /* `tscope-tui index`: parse the JSONL and write the index */
	unsigned shard_k, shard_n;   /* `index --shard K/N` (shard_n 0: the whole run) */
	long ranks_per_node;         /* --ranks-per-node N: node roll-up without hostnames (0 unset) */

	/* pytscope analyze */
	long warmup;                 /* --warmup N (0 when unset) */
	double flops_per_step;       /* --flops-per-step F */
	bool flops_set;
	double peak_tflops;          /* --peak-tflops T */
	bool peak_set;

	/* traces */
	const char **trace_paths;    /* --trace PATH (repeatable): files or directories */
	size_t ntrace;
	const char *kernel_classes;  /* --kernel-classes FILE: extra classification rules */

	/* sweeps and sizing */
	const char *objective;       /* --objective "ttft_p99:1,itl_p90:3" */
	const char **constraints;    /* --constraint 'ttft_p99<10' (repeatable) */
	size_t nconstraints;
	double target_users, target_latency, target_runtime; /* 0 when unset */
	long test_gpus;              /* --test-gpus N, 0 when unset */
};

#endif
