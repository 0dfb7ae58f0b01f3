/* SPDX-License-Identifier: MIT */
/* cli.c: the option table, getopt_long and its usage errors (the ambiguity and dash-path
 * helpers `index` shares; an option of one mode given with another), --help, the check of
 * the files options name and the refusal of --compat pytscope for input pytscope does not
 * read (see cli.h). */
#include <stdio.h>
#include "src/cli.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/infile.h"
#include "model/pool.h"
#include "model/ranklist.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/sweep/rank.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "src/meter.h"

enum opt_id {
	OPT_PRINT = 256, OPT_EXPORT, OPT_SORT, OPT_FILTER, OPT_FORCE, OPT_CSV_RAW, OPT_LIST_VIEWS,
	OPT_LIST_KEYS, OPT_COLOR, OPT_ASCII, OPT_FORMAT, OPT_JOBS, OPT_WARMUP, OPT_FLOPS, OPT_PEAK,
	OPT_TRACE, OPT_KCLASSES, OPT_DASF, OPT_OBJECTIVE, OPT_CONSTRAINT, OPT_TUSERS, OPT_TLAT,
	OPT_TRUNTIME, OPT_TGPUS, OPT_TUI, OPT_MAX_FRAMES, OPT_COMPAT, OPT_RANKS, OPT_NO_INDEX, OPT_RANKS_PER_NODE,
	OPT_NO_MOUSE, OPT_FOLLOW, OPT_INTERVAL, OPT_STALL,
};

struct cli_option {
	const char *name;
	int has_arg;
	int id;
	const char *arg;
	const char *help;
};

static const struct cli_option options[] = {
	{ "print", 0, OPT_PRINT, NULL, "print the plain-text report (default when stdout is not a tty)" },
	{ "tui", 0, OPT_TUI, NULL, "open the interactive explorer even if stdout is not a tty" },
	{ "export", 1, OPT_EXPORT, "VIEW", "write VIEW as CSV (see --list-views) to -o FILE or stdout; "
					   "'all': every view with data as -o DIR/VIEW.csv" },
	{ "output", 1, 'o', "FILE", "output file for --export ('-' for stdout), a directory for --export all" },
	{ "sort", 1, OPT_SORT, "[-]COL", "sort the exported view by COL (prefix '-' for descending)" },
	{ "filter", 1, OPT_FILTER, "EXPR", "filter the exported view, e.g. 'rank>=8 onset_step>0'" },
	{ "force", 0, OPT_FORCE, NULL, "let --export replace an existing -o FILE (or DIR/VIEW.csv)" },
	{ "csv-raw", 0, OPT_CSV_RAW, NULL, "do not neutralise spreadsheet formulas in CSV text cells" },
	{ "list-views", 0, OPT_LIST_VIEWS, NULL, "list the exportable views and exit" },
	{ "list-keys", 0, OPT_LIST_KEYS, NULL, "list the interactive key bindings and exit" },
	{ "compat", 1, OPT_COMPAT, "TOOL", "pytscope: the report (and findings) exactly as pytscope 0.2.1 prints them" },
	{ "color", 1, OPT_COLOR, "WHEN", "auto, always, never, 256 or 8 (NO_COLOR and FORCE_COLOR respected)" },
	{ "follow", 0, OPT_FOLLOW, NULL, "follow a running job: read new step records as they are written (no tty: print new findings)" },
	{ "interval", 1, OPT_INTERVAL, "SECS", "follow mode: seconds between polls of the rank files (default 1)" },
	{ "stall", 1, OPT_STALL, "SECS", "follow mode: stall after max(SECS, 10 x step time, 2 x growth gap) (default 10)" },
	{ "max-frames", 1, OPT_MAX_FRAMES, "N", "explorer: quit after drawing N frames (an idle 200 ms draws one; for CI)" },
	{ "no-mouse", 0, OPT_NO_MOUSE, NULL, "explorer: leave the mouse to the terminal (its own text selection); T toggles" },
	{ "ascii", 0, OPT_ASCII, NULL, "draw and print in ASCII only (automatic when the locale is not UTF-8)" },
	{ "format", 1, OPT_FORMAT, "NAME", "load PATHs only with loader NAME instead of probing" },
	{ "jobs", 1, OPT_JOBS, "N", "loader threads, at most 64 (default: one per core, at most 8)" },
	{ "ranks", 1, OPT_RANKS, "LIST", "load only these rank ids, e.g. 0-63,4096 (from the index when it has them)" },
	{ "no-index", 0, OPT_NO_INDEX, NULL, "neither read nor write the run's persistent index" },
	{ "ranks-per-node", 1, OPT_RANKS_PER_NODE, "N",
	  "node roll-up when run.json has no hostname (default: gpu_count, else the GPUs each trace lists)" },
	{ "warmup", 1, OPT_WARMUP, "N", "skip the first N step records in the single-rank analyses" },
	{ "flops-per-step", 1, OPT_FLOPS, "F", "model FLOPs per step (overrides run.json) for MFU" },
	{ "peak-tflops", 1, OPT_PEAK, "T", "accelerator peak TFLOP/s (overrides run.json) for MFU" },
	{ "trace", 1, OPT_TRACE, "PATH", "a Kineto trace file or a directory of per-rank traces (repeatable)" },
	{ "kernel-classes", 1, OPT_KCLASSES, "FILE", "extra kernel classification rules (see the man page)" },
	{ "dasf", 0, OPT_DASF, NULL, "treat the PATHs as DASF event databases (same as --format dasf)" },
	{ "objective", 1, OPT_OBJECTIVE, "LIST", "rank sweep configs by weighted metrics, e.g. ttft_p99:1,gpu_power_usage:2" },
	{ "constraint", 1, OPT_CONSTRAINT, "EXPR", "mark sweep configs passing/failing, e.g. 'ttft_p99<10' (repeatable)" },
	{ "target-users", 1, OPT_TUSERS, "N", "sizing: concurrent users to serve" },
	{ "target-latency", 1, OPT_TLAT, "S", "sizing: target p95 latency in seconds" },
	{ "target-runtime", 1, OPT_TRUNTIME, "S", "sizing: target workflow runtime in seconds" },
	{ "test-gpus", 1, OPT_TGPUS, "N", "sizing: GPUs used in the measured runs" },
	{ "help", 0, 'h', NULL, "show this help and exit" },
	{ "version", 0, 'V', NULL, "show the version and exit" },
};

/* What an option of one mode goes with: --export, the explorer, --follow (bits). */
enum { FOR_EXPORT = 1, FOR_EXPLORER = 2, FOR_FOLLOW = 4 };

/* The options that go with some modes only; any other goes with every mode. */
static const struct {
	int id;
	unsigned with;
} mode_bound[] = {
	{ 'o', FOR_EXPORT }, { OPT_SORT, FOR_EXPORT }, { OPT_FILTER, FOR_EXPORT }, { OPT_FORCE, FOR_EXPORT },
	{ OPT_CSV_RAW, FOR_EXPORT | FOR_EXPLORER }, { OPT_MAX_FRAMES, FOR_EXPLORER }, { OPT_NO_MOUSE, FOR_EXPLORER },
	{ OPT_INTERVAL, FOR_FOLLOW | FOR_EXPLORER }, { OPT_STALL, FOR_FOLLOW | FOR_EXPLORER },
};

void cli_usage(FILE *f)
{
	fprintf(f, "usage: tscope-tui [options] PATH...\n"
		   "       tscope-tui [options] A B      (compare two runs of one kind)\n"
		   "       tscope-tui index [...] RUN_DIR  (the run's persistent index: tscope-tui index --help)\n"
		   "Explore the performance of ML training and inference runs in the terminal.\n"
		   "PATH: a pytscope run dir, Kineto traces, GenAI-Perf artifacts, NAT sizing output,\n"
		   "DASF databases or a Cerebras performance.json; the format is detected.\n\n");
	for (size_t i = 0; i < ARRAY_LEN(options); i++) {
		const struct cli_option *o = &options[i];
		char lhs[64];
		if (o->id == 'o' || o->id == 'h' || o->id == 'V')
			snprintf(lhs, sizeof(lhs), "-%c, --%s%s%s", o->id, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(lhs, sizeof(lhs), "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->id == OPT_FORMAT) {
			char names[512];
			registry_loader_names(names, sizeof(names));
			fprintf(f, "  %-28s %s: %s\n", lhs, o->help, names);
			continue;
		}
		fprintf(f, "  %-28s %s\n", lhs, o->help);
	}
	fprintf(f, "\nExit status: 0 ok, 1 nothing found or data error, 2 usage error.\n"
		   "See tscope-tui(1) for keys, formats and examples.\n");
}

/* A command-line value in a message, and a reason that quotes it (--ranks), go through the
 * sanitizer like any data. */
static int bad(const char *opt, const char *val, const char *why)
{
	char *safe = text_sanitize_dup(val, 0), *safe_why = text_sanitize_dup(why, 0);
	fprintf(stderr, "tscope-tui: --%s '%s': %s\n", opt, safe, safe_why);
	fprintf(stderr, "Try 'tscope-tui --help'.\n");
	free(safe);
	free(safe_why);
	return 2;
}

static const struct cli_option *option_by_id(int id)
{
	for (size_t i = 0; i < ARRAY_LEN(options); i++)
		if (options[i].id == id)
			return &options[i];
	return NULL;
}

char *cli_ambiguous(const struct option *lo, const char *elem)
{
	if (strncmp(elem, "--", 2) != 0)
		return NULL;
	const char *name = elem + 2;
	size_t len = strcspn(name, "="), n = 0;
	char *list = NULL;
	for (; lo->name; lo++) {
		if (strncmp(lo->name, name, len) != 0)
			continue;
		char *more = xasprintf("%s%s--%s", list ? list : "", list ? ", " : "", lo->name);
		free(list);
		list = more;
		n++;
	}
	if (n < 2) {
		free(list);
		return NULL;
	}
	return list;
}

void cli_dash_path_hint(const char *prog, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (argv[i][0] != '-' || !argv[i][1] || access(argv[i], F_OK) != 0)
			continue;
		char *safe = text_sanitize_dup(argv[i], 0);
		fprintf(stderr, "%s: '%s' is a path: give it after '--' or as './%s'\n", prog, safe, safe);
		free(safe);
		return;
	}
}

/* A usage error getopt_long found (opterr is off: its own messages echo the argument
 * raw), sanitized, naming the option as it was meant. A short option is named by its
 * letter (optopt): inside a cluster such as -xo, argv[optind - 1] is another argument. A
 * long one is argv[optind - 1] (getopt_long has stepped past it): optopt is its id when
 * it is in the table (a value missing, or given to an option that takes none), else 0
 * (unknown, or the abbreviation of more than one, which getopt_long does not tell apart). */
static int bad_option(int c, const struct option *lo, int argc, char **argv)
{
	const char *elem = argv[optind - 1];
	const struct cli_option *o = optopt ? option_by_id(optopt) : NULL;
	char *msg, *list = NULL;
	if (c == ':' && o->id == 'o' && strncmp(elem, "--", 2) != 0)
		msg = xstrdup("missing value for option '-o'");
	else if (c == ':')
		msg = xasprintf("missing value for option '--%s'", o->name);
	else if (o)
		msg = xasprintf("option '--%s' takes no value: '%s'", o->name, elem);
	else if (optopt)
		msg = xasprintf("unknown option '-%c'", optopt);
	else if ((list = cli_ambiguous(lo, elem)))
		msg = xasprintf("option '%.*s' is ambiguous: %s", (int)strcspn(elem, "="), elem, list);
	else
		msg = xasprintf("unknown option '%.*s'", (int)strcspn(elem, "="), elem);
	char *safe = text_sanitize_dup(msg, 0);
	fprintf(stderr, "tscope-tui: %s\n", safe);
	if (c == '?' && !o && !list)
		cli_dash_path_hint("tscope-tui", argc, argv);
	fprintf(stderr, "Try 'tscope-tui --help'.\n");
	free(safe);
	free(msg);
	free(list);
	return 2;
}

static int parse_double(const char *opt, const char *s, double *out, bool positive)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v))
		return bad(opt, s, "not a number");
	if (positive && v <= 0)
		return bad(opt, s, "must be > 0");
	*out = v;
	return 0;
}

static int parse_long(const char *opt, const char *s, long *out, long min)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || (errno && errno != ERANGE))
		return bad(opt, s, "not an integer");
	if (errno == ERANGE && v == LONG_MAX)
		return bad(opt, s, "out of range (too large)");
	if (v < min)
		return bad(opt, s, min > 0 ? "must be >= 1" : "must be >= 0");
	*out = v;
	return 0;
}

/* --objective / --constraint syntax (model/sweep/rank.h); metric names that may be GPU
 * telemetry are checked against the run after loading. */
static int check_term(const char *opt, const char *arg,
		      int (*syntax)(const char *, char *, size_t))
{
	char err[200];
	if (syntax(arg, err, sizeof(err)) == 0)
		return 0;
	char *safe = text_sanitize_dup(err, 0);
	fprintf(stderr, "tscope-tui: --%s: %s\n", opt, safe);
	fprintf(stderr, "Try 'tscope-tui --help'.\n");
	free(safe);
	return 2;
}

void cli_trim_path(char *path)
{
	size_t n = dirlist_dir_len(path);
	if (!path[n])
		return;
	char kept = path[n];
	path[n] = '\0';
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		path[n] = kept;
}

static void push(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static int parse_color(const char *s, enum color_mode *out)
{
	static const struct { const char *name; enum color_mode m; } tab[] = {
		{ "auto", COLOR_AUTO }, { "always", COLOR_ALWAYS }, { "never", COLOR_NEVER },
		{ "256", COLOR_256 }, { "8", COLOR_8 },
	};
	for (size_t i = 0; i < ARRAY_LEN(tab); i++)
		if (strcmp(s, tab[i].name) == 0) {
			*out = tab[i].m;
			return 0;
		}
	return bad("color", s, "expected auto, always, never, 256 or 8");
}

static int parse_format(const char *s, const char **out)
{
	if (!registry_loader(s)) {
		char names[512], why[600];
		registry_loader_names(names, sizeof(names));
		snprintf(why, sizeof(why), "unknown format; expected one of %s", names);
		return bad("format", s, why);
	}
	*out = s;
	return 0;
}

/* Repeated --filter: the terms of each, all to match (joined with a space). */
static void add_filter(struct cli *cli, const char *arg)
{
	char *all = cli->filter ? xasprintf("%s %s", cli->filter, arg) : xstrdup(arg);
	free(cli->filter);
	cli->filter = all;
}

static int apply(struct cli *cli, int id, const char *arg)
{
	struct opts *o = &cli->opts;
	long l;
	switch (id) {
	case OPT_PRINT: cli->mode = MODE_PRINT; return 0;
	case OPT_TUI: cli->mode = MODE_TUI; return 0;
	case OPT_EXPORT:
		cli->export_view = arg;
		cli->mode = MODE_EXPORT;
		return 0;
	case 'o':
		if (!*arg)
			return bad("output", arg, "an empty name: give a file, '-' for standard output, or a directory "
					   "for --export all");
		cli->output = arg;
		return 0;
	case OPT_SORT: cli->sort = arg; return 0;
	case OPT_FILTER: add_filter(cli, arg); return 0;
	case OPT_FORCE: cli->force = true; return 0;
	case OPT_CSV_RAW: o->csv_raw = true; return 0;
	case OPT_LIST_VIEWS: cli->mode = MODE_LIST_VIEWS; return 0;
	case OPT_LIST_KEYS: cli->mode = MODE_LIST_KEYS; return 0;
	case OPT_COLOR: return parse_color(arg, &o->color);
	case OPT_COMPAT:
		if (strcmp(arg, "pytscope") != 0)
			return bad("compat", arg, "expected pytscope");
		o->compat_pytscope = true;
		return 0;
	case OPT_ASCII: o->ascii = true; meter_ascii(); return 0;   /* the progress line too */
	case OPT_FOLLOW: o->follow = true; return 0;
	case OPT_INTERVAL: return parse_double("interval", arg, &o->interval, true) ? 2 : 0;
	case OPT_STALL: return parse_double("stall", arg, &o->stall_floor, true) ? 2 : 0;
	case OPT_NO_MOUSE: o->no_mouse = true; return 0;
	case OPT_MAX_FRAMES: return parse_long("max-frames", arg, &o->max_frames, 1) ? 2 : 0;
	case OPT_FORMAT: return parse_format(arg, &o->format);
	case OPT_DASF: o->format = "dasf"; return 0;
	case OPT_JOBS:
		if (parse_long("jobs", arg, &l, 1))
			return 2;
		if (l > POOL_MAX_THREADS)
			fprintf(stderr, "tscope-tui: --jobs %ld: %d loader threads at most; using %d\n", l, POOL_MAX_THREADS,
				POOL_MAX_THREADS);
		o->jobs = (int)(l > POOL_MAX_THREADS ? POOL_MAX_THREADS : l);
		return 0;
	case OPT_RANKS: {
		char why[160];
		if (!ranklist_valid(arg, why, sizeof(why)))
			return bad("ranks", arg, why);
		o->ranks = arg;
		return 0;
	}
	case OPT_NO_INDEX: o->no_index = true; return 0;
	case OPT_RANKS_PER_NODE: return parse_long("ranks-per-node", arg, &o->ranks_per_node, 1) ? 2 : 0;
	case OPT_WARMUP: return parse_long("warmup", arg, &o->warmup, 0) ? 2 : 0;
	case OPT_FLOPS: o->flops_set = true; return parse_double("flops-per-step", arg, &o->flops_per_step, true) ? 2 : 0;
	case OPT_PEAK: o->peak_set = true; return parse_double("peak-tflops", arg, &o->peak_tflops, true) ? 2 : 0;
	case OPT_TRACE: push(&o->trace_paths, &o->ntrace, arg); return 0;
	case OPT_KCLASSES: o->kernel_classes = arg; return 0;
	case OPT_OBJECTIVE:
		if (check_term("objective", arg, sweep_objective_syntax))
			return 2;
		o->objective = arg;
		return 0;
	case OPT_CONSTRAINT:
		if (check_term("constraint", arg, sweep_constraint_syntax))
			return 2;
		push(&o->constraints, &o->nconstraints, arg);
		return 0;
	case OPT_TUSERS: return parse_double("target-users", arg, &o->target_users, true) ? 2 : 0;
	case OPT_TLAT: return parse_double("target-latency", arg, &o->target_latency, true) ? 2 : 0;
	case OPT_TRUNTIME: return parse_double("target-runtime", arg, &o->target_runtime, true) ? 2 : 0;
	case OPT_TGPUS: return parse_long("test-gpus", arg, &o->test_gpus, 1) ? 2 : 0;
	}
	return 2;
}

/* Whether an option that goes with `with` goes with mode (follow: --follow given). With
 * no mode given, one of --export alone does not (the mode is the explorer or --print);
 * the others wait for the mode picked (cli_parse's note). The lists take nothing. */
static bool goes_with(unsigned with, enum cli_mode mode, bool follow)
{
	switch (mode) {
	case MODE_AUTO: return with != FOR_EXPORT;
	case MODE_TUI: return with & FOR_EXPLORER;
	case MODE_PRINT: return follow && (with & FOR_FOLLOW);
	case MODE_EXPORT: return with & FOR_EXPORT;
	default: return true;
	}
}

/* "--export VIEW or the explorer": what options of `with` go with. */
static const char *with_name(unsigned with)
{
	switch (with) {
	case FOR_EXPORT: return "--export VIEW";
	case FOR_EXPLORER: return "the explorer";
	case FOR_EXPORT | FOR_EXPLORER: return "--export VIEW or the explorer";
	default: return "--follow or the explorer";
	}
}

/* ", not --print without --follow": the mode, as the usage error for an option of `with` names it. */
static const char *mode_name(enum cli_mode mode, unsigned with)
{
	switch (mode) {
	case MODE_TUI: return ", not --tui";
	case MODE_PRINT: return with & FOR_FOLLOW ? ", not --print without --follow" : ", not --print";
	case MODE_EXPORT: return ", not --export";
	default: return "";
	}
}

/* "-o, --sort and --force": the options of mode_bound given (bit i: mode_bound[i]) whose
 * `with` is with, into names (size bytes); how many. */
static size_t bound_names(unsigned given, unsigned with, char *names, size_t size)
{
	size_t n = 0, k = 0, len = 0;
	for (size_t i = 0; i < ARRAY_LEN(mode_bound); i++)
		n += mode_bound[i].with == with && (given >> i & 1);
	names[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(mode_bound) && len < size; i++) {
		if (mode_bound[i].with != with || !(given >> i & 1))
			continue;
		const char *sep = k == 0 ? "" : k + 1 == n ? " and " : ", ";
		int id = mode_bound[i].id;
		len += (size_t)snprintf(names + len, size - len, "%s%s%s", sep, id == 'o' ? "-o" : "--",
					id == 'o' ? "" : option_by_id(id)->name);
		k++;
	}
	return n;
}

/* The options given (bits of mode_bound) that do not go with mode, one line on stderr per
 * kind: the usage error ("--force goes with --export VIEW, not --print"), or with
 * ignored, for the --print the explorer gives way to, their note ("--no-mouse ignored:
 * ..."). Whether any was said. */
static bool say_unbound(unsigned given, enum cli_mode mode, bool follow, bool ignored)
{
	static const unsigned kinds[] = { FOR_EXPORT, FOR_EXPLORER, FOR_EXPORT | FOR_EXPLORER, FOR_FOLLOW | FOR_EXPLORER };
	bool said = false;
	for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
		char names[160];
		size_t n = bound_names(given, kinds[k], names, sizeof(names));
		if (n == 0 || goes_with(kinds[k], mode, follow))
			continue;
		if (ignored)
			fprintf(stderr, "tscope-tui: %s ignored: for %s only, and %s (standard input or output is not a "
					"terminal)\n", names, with_name(kinds[k]),
				kinds[k] & FOR_FOLLOW ? "there is no --follow and no explorer" : "the explorer does not open");
		else
			fprintf(stderr, "tscope-tui: %s %s with %s%s\n", names, n == 1 ? "goes" : "go", with_name(kinds[k]),
				mode_name(mode, kinds[k]));
		said = true;
	}
	return said;
}

/* The bit of mode_bound for option id, 0 when it goes with every mode. */
static unsigned bound_bit(int id)
{
	for (size_t i = 0; i < ARRAY_LEN(mode_bound); i++)
		if (mode_bound[i].id == id)
			return 1u << i;
	return 0;
}

static int say_clash(void)
{
	fprintf(stderr, "tscope-tui: --print, --tui, --export, --list-views and --list-keys are exclusive\n");
	return 2;
}

/* -h or -V: ends the parse, as in GNU tools (what follows is not read), after the errors
 * of what came before it: two modes, an option that does not go with the mode given (a
 * --follow may come after: --interval with --print is no error here). */
static int help_or_version(struct cli *cli, int c, bool clash, unsigned given)
{
	if (clash)
		return say_clash();
	if (cli->mode != MODE_AUTO && say_unbound(given, cli->mode, true, false))
		return 2;
	cli->mode = c == 'h' ? MODE_HELP : MODE_VERSION;
	return 0;
}

int cli_parse(struct cli *cli, int argc, char **argv)
{
	memset(cli, 0, sizeof(*cli));
	cli->opts.interval = 1;
	cli->opts.stall_floor = 10;
	struct option lo[ARRAY_LEN(options) + 1];
	for (size_t i = 0; i < ARRAY_LEN(options); i++)
		lo[i] = (struct option){ options[i].name, options[i].has_arg, NULL, options[i].id };
	lo[ARRAY_LEN(options)] = (struct option){ 0 };
	optind = 1;
	opterr = 0;
	int c;
	bool clash = false; /* two of the modes */
	unsigned given = 0; /* the options of mode_bound given */
	while ((c = getopt_long(argc, argv, ":o:hV", lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return bad_option(c, lo, argc, argv);
		if (c == 'h' || c == 'V')
			return help_or_version(cli, c, clash, given);
		enum cli_mode was = cli->mode;
		if (apply(cli, c, optarg))
			return 2;
		clash |= was != MODE_AUTO && cli->mode != was;
		given |= bound_bit(c);
	}
	if (clash)
		return say_clash();
	for (int i = optind; i < argc; i++) {
		cli_trim_path(argv[i]);
		push(&cli->paths, &cli->npaths, argv[i]);
	}
	cli->opts.paths = cli->paths;
	cli->opts.npaths = cli->npaths;
	if (cli->mode == MODE_LIST_VIEWS || cli->mode == MODE_LIST_KEYS)
		return 0;
	if (cli->npaths == 0) {
		fprintf(stderr, "tscope-tui: missing PATH\n");
		cli_usage(stderr);
		return 2;
	}
	if (cli->opts.follow && cli->mode == MODE_EXPORT) {
		fprintf(stderr, "tscope-tui: --follow does not go with --export (export a snapshot instead)\n");
		return 2;
	}
	if (say_unbound(given, cli->mode, cli->opts.follow, false))
		return 2;
	/* no mode given: --print when the explorer does not open (src/main.c pick_mode) */
	if (cli->mode == MODE_AUTO && !(isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)))
		say_unbound(given, MODE_PRINT, cli->opts.follow, true);
	return 0;
}

/* 0 when path can be read as --opt takes it (a regular file; for --trace a directory
 * too), else errno (infile_strerror's). */
static int input_error(const char *path, bool dir_ok)
{
	int fd = infile_open(path);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	int e = errno;
	DIR *d = e == EISDIR && dir_ok ? opendir(path) : NULL;
	if (d) {
		closedir(d);
		return 0;
	}
	return e == EISDIR && dir_ok ? errno : e;
}

static int check_input(const char *opt, const char *path, bool dir_ok)
{
	int e = input_error(path, dir_ok);
	if (e) {
		char *safe = text_sanitize_dup(path, 0);
		fprintf(stderr, "tscope-tui: --%s %s: cannot open: %s\n", opt, safe, infile_strerror(e));
		free(safe);
	}
	return e ? 1 : 0;
}

int cli_check_inputs(const struct cli *cli)
{
	int rc = 0;
	for (size_t i = 0; i < cli->opts.ntrace; i++)
		rc |= check_input("trace", cli->opts.trace_paths[i], true);
	if (cli->opts.kernel_classes)
		rc |= check_input("kernel-classes", cli->opts.kernel_classes, false);
	return rc;
}

/* The input families pytscope 0.2.1 reads none of, by loader name, as a message names them. */
static const char *const compat_unread[][2] = {
	{ "genai-perf", "GenAI-Perf sweep" },
	{ "nat", "NeMo Agent Toolkit sizing" },
	{ "cerebras", "Cerebras performance.json" },
	{ "dasf", "DASF event database" },
};

/* Whether run has data of a family pytscope does not read (any but steps and traces). */
static bool compat_unread_data(const struct run *run)
{
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s] != &sub_steps && registry[s] != &sub_trace && registry[s]->has_data &&
		    registry[s]->has_data(run))
			return true;
	return false;
}

/* Whether a source of run, loaded with it, was read by loader fmt. */
static bool run_has_format(const struct run *run, const char *fmt)
{
	for (size_t i = 0; i < run->nsrc; i++)
		if (run->src[i].format && !run->src[i].refused && !run->src[i].left_out &&
		    strcmp(run->src[i].format, fmt) == 0)
			return true;
	return false;
}

char *cli_compat_refusal(const struct opts *o, enum cli_mode mode, const struct run *run)
{
	const char *name[ARRAY_LEN(compat_unread)];
	size_t n = 0;
	for (size_t i = 0; o->compat_pytscope && i < ARRAY_LEN(compat_unread); i++)
		if (run_has_format(run, compat_unread[i][0]))
			name[n++] = compat_unread[i][1];
	if (n == 0 || !compat_unread_data(run)) /* none read: "No steps or trace found", as pytscope */
		return NULL;
	char what[160] = "";
	for (size_t i = 0, len = 0; i < n; i++)
		len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
					name[i]);
	return xasprintf("tscope-tui: --compat pytscope: pytscope 0.2.1 reads no %s; drop --compat %s\n", what,
			 mode == MODE_EXPORT ? "to export it" : mode == MODE_TUI ? "to explore it" : "for its report");
}

void cli_free(struct cli *cli)
{
	free(cli->filter);
	free(cli->paths);
	free(cli->opts.trace_paths);
	free(cli->opts.constraints);
}
