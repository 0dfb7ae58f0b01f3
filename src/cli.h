/* SPDX-License-Identifier: MIT */
/* cli.h: command-line parsing. One option table feeds getopt_long, --help and the man
 * page's OPTIONS section (kept in step by tests/cli/options.sh). */
#ifndef SRC_CLI_H
#define SRC_CLI_H

#include "model/opts.h"

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
 * a usage error to stderr. */
int cli_parse(struct cli *cli, int argc, char **argv);
/* The files named on options (--trace PATH, --kernel-classes FILE) as the loaders will
 * open them: 0 when each can be, else 1 after naming each that cannot on stderr with
 * why ("--trace x.json: cannot open: No such file or directory"), like a missing PATH. */
int cli_check_inputs(const struct cli *cli);
void cli_free(struct cli *cli);
void cli_usage(FILE *f);

#endif
