/* SPDX-License-Identifier: MIT */
/* cli.h: command-line parsing. One option table feeds getopt_long, --help and the man
 * page's OPTIONS section (kept in step by tests/cli/options.sh). */
#ifndef SRC_CLI_H
#define SRC_CLI_H

#include "model/opts.h"

struct option;
struct run;

enum cli_mode { MODE_AUTO, MODE_TUI, MODE_PRINT, MODE_EXPORT, MODE_LIST_VIEWS, MODE_LIST_KEYS,
		MODE_HELP, MODE_VERSION };

struct cli {
	struct opts opts;
	enum cli_mode mode;
	const char *export_view;  /* --export VIEW */
	const char *output;       /* -o FILE ("-" or NULL: stdout) */
	const char *sort;         /* --sort [-]COL */
	char *filter;             /* --filter EXPR (owned; the terms of every --filter given) */
	bool force;               /* --force: overwrite -o FILE */
	const char **paths;       /* positional PATHs */
	size_t npaths;
};

/* PATH (an argv string) without its trailing slashes, in place ("/" keeps its one): the
names a load makes from it (sweep configs, source paths) are then the same whether or not
it ends in '/'. A symbolic link keeps its slash, which makes it the directory it names. */
void cli_trim_path(char *path);
/* Parse argv into cli (its PATHs trimmed: cli_trim_path). Returns 0, or 2 after printing
 * a usage error to stderr naming the option as it was meant (the letter inside a cluster,
 * an ambiguous abbreviation's options, a value given to an option that takes none), or
 * an option of one mode given with another, with the mode it goes with ("--force goes
 * with --export VIEW, not --print"; --interval and --stall go with --follow or the
 * explorer). With no mode given and no terminal for the explorer, the explorer's options
 * are named on stderr as ignored; --jobs above POOL_MAX_THREADS is said and capped.
 * --help and --version end the parse, as in GNU tools: what follows them is not read, and
 * they go with any mode; an error before them (two modes, an option the mode given does
 * not take) is still reported. --ascii also puts the progress line in ASCII (meter_ascii). */
int cli_parse(struct cli *cli, int argc, char **argv);
/* The long options of lo (getopt_long's table, ended by a zeroed entry) that the
 * argument elem ("--rank" or "--rank=0") abbreviates, "--ranks, --ranks-per-node"
 * (malloc'd), when more than one (getopt_long's "ambiguous"); else NULL. */
char *cli_ambiguous(const struct option *lo, const char *elem);
/* After an unknown option: when an argument on the line (before "--") that begins with '-'
 * names a file or directory, how to give it, on stderr after "prog: " (like rm's hint). */
void cli_dash_path_hint(const char *prog, int argc, char **argv);
/* The files named on options (--trace PATH, --kernel-classes FILE) as the loaders will
 * open them: 0 when each can be, else 1 after naming each that cannot on stderr with
 * why ("--trace x.json: cannot open: No such file or directory"), like a missing PATH. */
int cli_check_inputs(const struct cli *cli);
/* --compat pytscope (o) keeps to what pytscope 0.2.1 reads: step logs and Kineto traces.
 * When the loaded run holds data of another family (a GenAI-Perf sweep, NAT or Cerebras
 * output, a DASF database; alone or beside a --trace), the usage error naming it and how
 * mode (the one picked) opens it: one line for stderr, malloc'd; the caller exits 2 with
 * nothing written on stdout. Else NULL. */
char *cli_compat_refusal(const struct opts *o, enum cli_mode mode, const struct run *run);
void cli_free(struct cli *cli);
void cli_usage(FILE *f);

#endif
