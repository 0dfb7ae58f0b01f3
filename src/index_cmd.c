/* SPDX-License-Identifier: MIT */
/* index_cmd.c: `tscope-tui index ...`, building the persistent index of a run dir
 * (model/index/index.h): whole, one shard (--shard K/N; a shard no rank or trace falls in
 * writes nothing; a run dir with nothing to index is refused by every shard as by a whole
 * build), each left as it is when current unless --force, its state (--status: the lines
 * of src/index_health.c), or as a Slurm job array (--slurm: src/index_slurm.c). Owns the
 * command line (getopt_long, as the main command's: options anywhere, --opt=VALUE, '--',
 * --help and --version; with --slurm, what index does not know goes to sbatch in order,
 * RUN_DIR the last word) and its usage errors, and the checks an open makes that RUN_DIR
 * is one run (model/identity.h): a run dir every open refuses is never indexed, called
 * current or usable, nor submitted. */
#include "src/index_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/dirlist.h"
#include "model/identity.h"
#include "model/index/index.h"
#include "model/numfmt.h"
#include "model/pool.h"
#include "model/run.h"
#include "model/steps/analysis.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"
#include "src/cli.h"
#include "src/index_health.h"
#include "src/meter.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tscope-tui index [--jobs N] [--force] [--shard K/N] RUN_DIR\n"
		   "       tscope-tui index --status [--verify] RUN_DIR\n"
		   "       tscope-tui index --slurm [--shards N] [--merge-step] [--dry-run] [SBATCH_OPTION...] RUN_DIR\n"
		   "Build the persistent index of a run dir (pytscope ranks, Kineto traces; see tscope-tui(1),\n"
		   "INDEX). Options go anywhere, as --opt VALUE or --opt=VALUE; after '--' every argument is\n"
		   "RUN_DIR's.\n"
		   "\n"
		   "      --jobs N         parse with N threads, at most 64 (default: one per core, at most 8)\n"
		   "      --force          rebuild an index that is current (else left as it is)\n"
		   "      --shard K/N      index shard K of N (ranks by id, traces by file): one task of a job array\n"
		   "      --status         list the index's parts and summary, what changed since, why one is\n"
		   "                       not usable\n"
		   "      --verify         with --status: read every rank body and heatmap row back and check\n"
		   "                       its checksum (--status checks each file's header and head)\n"
		   "      --slurm          write and submit a Slurm job array, one shard per task; the options\n"
		   "                       index does not know, and the arguments before RUN_DIR (the last one\n"
		   "                       that is not an option), go to sbatch\n"
		   "      --shards N       with --slurm: N shards, at most one per rank dir or per trace file in\n"
		   "                       none (default: one per GiB of JSONL and traces)\n"
		   "      --merge-step     with --slurm: a dependent job that checks the shards, merges the summary\n"
		   "                       and prints the report to its log\n"
		   "      --dry-run        with --slurm: print the script, submit nothing\n"
		   "  -h, --help           show this help and exit\n"
		   "  -V, --version        show the version and exit\n");
}

/* index_cli_fail, with cli_dash_path_hint's line (argc 0: none) before the pointer to --help. */
static int fail_hinted(const char *what, const char *arg, int argc, char **argv)
{
	char *safe = text_sanitize_dup(arg ? arg : "", 0);
	fprintf(stderr, "tscope-tui index: %s%s%s\n", what, arg ? ": " : "", safe);
	free(safe);
	cli_dash_path_hint("tscope-tui index", argc, argv);
	fprintf(stderr, "Try 'tscope-tui index --help'.\n");
	return 2;
}

int index_cli_fail(const char *what, const char *arg)
{
	return fail_hinted(what, arg, 0, NULL);
}

static bool parse_uint(const char *s, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *s == '-' || *end || errno || v > UINT_MAX)
		return false;
	*out = (unsigned)v;
	return true;
}

static bool parse_shard(const char *s, unsigned *k, unsigned *n)
{
	const char *slash = strchr(s, '/');
	if (!slash)
		return false;
	char *ks = xstrndup(s, (size_t)(slash - s));
	bool ok = parse_uint(ks, k) && parse_uint(slash + 1, n) && *n >= 1 && *n <= INDEX_MAX_SHARDS && *k < *n;
	free(ks);
	return ok;
}

/* ---- command line ------------------------------------------------------------------------ */

enum index_opt {
	IX_JOBS = 256, IX_FORCE, IX_SHARD, IX_SHARDS, IX_SLURM, IX_DRY_RUN, IX_MERGE_STEP, IX_STATUS, IX_VERIFY,
};

static const struct option index_options[] = {
	{ "jobs", required_argument, NULL, IX_JOBS },
	{ "force", no_argument, NULL, IX_FORCE },
	{ "shard", required_argument, NULL, IX_SHARD },
	{ "shards", required_argument, NULL, IX_SHARDS },
	{ "slurm", no_argument, NULL, IX_SLURM },
	{ "dry-run", no_argument, NULL, IX_DRY_RUN },
	{ "merge-step", no_argument, NULL, IX_MERGE_STEP },
	{ "status", no_argument, NULL, IX_STATUS },
	{ "verify", no_argument, NULL, IX_VERIFY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* '-': the arguments that are no option come in order (getopt_long returns 1), so that
 * sbatch's keep theirs and the one being read is always argv[optind] at the call; ':': a
 * missing value is told from an unknown option. */
static const char index_optstring[] = "-:hV";

/* What parse() gathers besides struct index_cli. c->sbatch holds, in order, every
 * argument index does not know: the options (sbatch's with --slurm) and the words, the
 * last of which is RUN_DIR. */
struct index_args {
	char *run_dir;          /* the last word so far */
	size_t run_at, nwords;  /* its place in c->sbatch; the words */
	const char *unknown;    /* the first option index does not know (its argument) */
	int unknown_letter;     /* its letter, when it is a short option */
};

static void push_other(struct index_cli *c, const char *arg)
{
	c->sbatch = xrealloc(c->sbatch, (c->nsbatch + 1) * sizeof(*c->sbatch));
	c->sbatch[c->nsbatch++] = arg;
}

static void add_word(struct index_cli *c, struct index_args *a, char *word)
{
	a->run_dir = word;
	a->run_at = c->nsbatch;
	a->nwords++;
	push_other(c, word);
}

/* The option index does not know at argv[at], kept whole (sbatch's -pgpu is one
 * argument: the rest of a short option's cluster is passed over). */
static void add_unknown(struct index_cli *c, struct index_args *a, int at, int argc, char **argv)
{
	int letter = optopt;
	while (optind == at && getopt_long(argc, argv, index_optstring, index_options, NULL) != -1)
		continue;
	if (!a->unknown) {
		a->unknown = argv[at];
		a->unknown_letter = letter;
	}
	push_other(c, argv[at]);
}

static const struct option *index_option(int id)
{
	for (const struct option *o = index_options; o->name; o++)
		if (o->val == id)
			return o;
	return NULL;
}

/* getopt_long's error about argv[at] (c ':' or '?'), when it is index's whatever --slurm
 * says: a value missing, or given to an option that takes none (optopt: the option's id),
 * or an abbreviation of more than one of its options. Returns 2 after saying which, else
 * 0: an option index does not know. */
static int bad_option(int c, int at, char **argv)
{
	const struct option *o = optopt ? index_option(optopt) : NULL;
	char *list = optopt ? NULL : cli_ambiguous(index_options, argv[at]);
	char *what = NULL, *arg = NULL;
	if (c == ':') {
		what = xstrdup("missing value for option");
		arg = xasprintf("--%s", o->name);
	} else if (o) {
		what = xasprintf("--%s takes no value", o->name);
		arg = xstrdup(argv[at]);
	} else if (list) {
		what = xstrdup("ambiguous option");
		arg = xasprintf("%.*s (%s)", (int)strcspn(argv[at], "="), argv[at], list);
	}
	int rc = what ? index_cli_fail(what, arg) : 0;
	free(what);
	free(arg);
	free(list);
	return rc;
}

static int apply(struct index_cli *c, int id, const char *arg)
{
	unsigned j;
	switch (id) {
	case IX_JOBS:
		if (!parse_uint(arg, &j) || j < 1)
			return index_cli_fail("--jobs expects an integer >= 1", arg);
		if (j > POOL_MAX_THREADS)
			fprintf(stderr, "tscope-tui index: --jobs %u: %d loader threads at most; using %d\n", j,
				POOL_MAX_THREADS, POOL_MAX_THREADS);
		c->jobs = j > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)j;
		return 0;
	case IX_SHARD:
		if (!parse_shard(arg, &c->shard_k, &c->shard_n))
			return index_cli_fail("--shard expects K/N with 0 <= K < N <= 1000", arg);
		return 0;
	case IX_SHARDS:
		if (!parse_uint(arg, &c->shards) || c->shards < 1 || c->shards > INDEX_MAX_SHARDS)
			return index_cli_fail("--shards expects 1..1000", arg);
		return 0;
	case IX_SLURM: c->slurm = true; return 0;
	case IX_DRY_RUN: c->dry_run = true; return 0;
	case IX_MERGE_STEP: c->merge_step = true; return 0;
	case IX_STATUS: c->status = true; return 0;
	case IX_FORCE: c->force = true; return 0;
	case IX_VERIFY: c->verify = true; return 0;
	case 'h': c->help = true; return 0;
	case 'V': c->version = true; return 0;
	}
	return 2;
}

/* The options, anywhere on the line, as the main command's (getopt_long: --opt=VALUE,
 * abbreviations, "--" before words that begin with '-'); --help and --version end it, as
 * in GNU tools. */
static int read_args(struct index_cli *c, struct index_args *a, int argc, char **argv)
{
	optind = 1;
	opterr = 0;
	for (;;) {
		int at = optind, id = getopt_long(argc, argv, index_optstring, index_options, NULL);
		if (id == -1)
			break;
		if (id == 1) {
			add_word(c, a, optarg);
		} else if (id == '?' || id == ':') {
			if (bad_option(id, at, argv))
				return 2;
			add_unknown(c, a, at, argc, argv);
		} else if (apply(c, id, optarg)) {
			return 2;
		}
		if (c->help || c->version)
			return 0;
	}
	for (; optind < argc; optind++)
		add_word(c, a, argv[optind]);
	return 0;
}

/* The words' usage errors; RUN_DIR (the last word) taken out of c->sbatch. */
static int take_run_dir(struct index_cli *c, struct index_args *a, int argc, char **argv)
{
	if (a->unknown && !c->slurm) {
		char letter[3] = { '-', (char)a->unknown_letter, '\0' };
		char *name = xstrndup(a->unknown, strcspn(a->unknown, "="));
		int rc = fail_hinted("unknown option", a->unknown_letter ? letter : name, argc, argv);
		free(name);
		return rc;
	}
	if (!a->nwords)
		return index_cli_fail("missing RUN_DIR", NULL);
	if (a->nwords > 1 && !c->slurm) { /* c->sbatch: the words alone */
		char *all = xstrdup(c->sbatch[0]);
		for (size_t i = 1; i < c->nsbatch; i++) {
			char *more = xasprintf("%s, %s", all, c->sbatch[i]);
			free(all);
			all = more;
		}
		int rc = index_cli_fail("more than one RUN_DIR", all);
		free(all);
		return rc;
	}
	memmove(&c->sbatch[a->run_at], &c->sbatch[a->run_at + 1], (c->nsbatch - a->run_at - 1) * sizeof(*c->sbatch));
	c->nsbatch--;
	cli_trim_path(a->run_dir);
	c->run_dir = a->run_dir;
	return 0;
}

/* --status builds nothing: an option of a build given with it is a usage error, named
 * (it would be dropped). */
static int status_alone(const struct index_cli *c)
{
	const char *with = c->slurm ? "--slurm" : c->shard_n ? "--shard" : c->shards ? "--shards" :
			   c->dry_run ? "--dry-run" : c->merge_step ? "--merge-step" : c->force ? "--force" :
			   c->jobs ? "--jobs" : NULL;
	if (!with)
		return 0;
	char *what = xasprintf("%s and --status do not go together (--status builds nothing; --verify is its "
			       "one option)", with);
	int rc = index_cli_fail(what, NULL);
	free(what);
	return rc;
}

static int parse(struct index_cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	struct index_args a = { 0 };
	int rc = read_args(c, &a, argc, argv);
	if (rc || c->help || c->version)
		return rc;
	if ((rc = take_run_dir(c, &a, argc, argv)) || (c->status && (rc = status_alone(c))))
		return rc;
	if ((c->dry_run || c->merge_step) && !c->slurm)
		return index_cli_fail("--dry-run and --merge-step go with --slurm", NULL);
	if (c->shards && !c->slurm)
		return index_cli_fail("--shards goes with --slurm (--shard K/N indexes one shard)", NULL);
	if (c->shard_n && c->slurm)
		return index_cli_fail("--shard and --slurm do not go together (--shards N sets the job array's size)", NULL);
	if (c->verify && !c->status)
		return index_cli_fail("--verify goes with --status", NULL);
	struct stat st;
	if (stat(c->run_dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (c->slurm && a.nwords > 1)
		return index_cli_fail("not a directory (with --slurm, RUN_DIR is the last argument that is not "
				      "an option: the others go to sbatch)", c->run_dir);
	return index_cli_fail("not a directory", c->run_dir);
}

/* ---- the run ---------------------------------------------------------------------------- */

/* The build's progress line (on a terminal: bytes read, rate, ETA; then the summary's
 * phase) and its signals: SIGINT, SIGTERM (Slurm's, at a time limit or scancel) and SIGHUP
 * remove the temporary file being written and clear the line, then end the process as
 * the signal does (exit status 128 + N); the index as it was before stays in place. */
static struct meter build_meter;

static void on_build_progress(void *ud, long long done_delta, long long total_delta)
{
	(void)ud;
	if (meter_add(&build_meter, done_delta, total_delta))
		meter_draw(&build_meter, "index: read", "");
}

struct run *index_open_as_any(const struct index_cli *c, struct opts *o)
{
	*o = (struct opts){ .jobs = c->jobs };
	const char *paths[] = { c->run_dir };
	struct load_ctx hooks = { .progress = on_build_progress, .ud = (void *)c };
	meter_start(&build_meter);
	struct run *run = run_open(paths, 1, o, &hooks);
	meter_clear(&build_meter);
	return run;
}

size_t index_plan_rank_dirs(const char *run_dir, const struct steps_rank_file *files, size_t n)
{
	if (n != 1 || strcmp(files[0].dir, run_dir) != 0 || access(files[0].steps, F_OK) == 0)
		return n;
	char *meta = xasprintf("%s/run.json", run_dir);
	size_t dirs = access(meta, F_OK) == 0 ? 1 : 0;
	free(meta);
	return dirs;
}

/* ---- one run ---------------------------------------------------------------------------- */

/* After an open's refusal of RUN_DIR (on stderr already): what `index` did not do
 * (`done`) and why. */
static void say_refused(const char *done)
{
	fprintf(stderr, "tscope-tui index: %s: every open refuses this run dir (above), so no index of it would "
		"be used\n", done);
}

/* Each line of text (an open's refusal, data text unsanitized) sanitized on stderr. */
static void refusal_lines(const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n), *safe = text_sanitize_dup(line, 0);
		fprintf(stderr, "tscope-tui index: %s\n", safe);
		free(safe);
		free(line);
		p += p[n] ? n + 1 : n;
	}
}

/* An open's one-run check of RUN_DIR (model/identity.h, as main() makes it), before
 * anything is built, called current, listed or submitted: true when it holds several
 * runs (what was found and how to open one said as an open says it, then what `index`
 * does not do). */
static bool refused(const struct index_cli *c)
{
	struct run_identity id;
	run_identify(&c->run_dir, 1, &(struct opts){ 0 }, &id);
	bool several = id.n > 1;
	if (several) {
		char *what = run_identity_describe(&id);
		refusal_lines(what);
		free(what);
		say_refused(c->status ? "not usable" : c->slurm ? "no job submitted" : "no index written");
	}
	run_identity_free(&id);
	return several;
}

/* The check an open makes of the run once loaded (run_identity_mismatch: a trace of a
 * rank its step logs lack): true when it refuses the run, said as an open says it. */
static bool refused_loaded(const struct run *run)
{
	char why[1024];
	struct run *refusal = run_identity_mismatch(run, why, sizeof(why));
	if (refusal)
		refusal_lines(why);
	run_free(refusal);
	return refusal != NULL;
}

/* A whole build of a run an open refuses once loaded (refused_loaded): the parts it
 * wrote are removed (0: no shard count kept), so that no later `index` or --status calls
 * them current; said. */
static void drop_refused(const struct run *run)
{
	char *dir = xstrdup(run->index_path);
	*strrchr(dir, '/') = '\0'; /* a part's path: DIR/steps-0-of-1.tsx */
	index_remove_other_parts(dir, "steps", 0);
	index_remove_other_parts(dir, "traces", 0);
	free(dir);
	say_refused("no index kept");
}

/* ---- building ------------------------------------------------------------------------ */

/* The load is over: the listings go before the analyses and the summary take memory
 * (a rank directory's listing and run.json each: ~1.2 KB a rank); the progress line says
 * what comes next for a whole index (the analyses and its summary; a shard's part is
 * written by now). */
static void end_listings(void *ud, struct run *run)
{
	const struct index_cli *c = ud;
	(void)run;
	dirlist_scope_end();
	if (c->shard_n)
		return;
	char note[160], mb[32];
	numfmt_nonzero((double)atomic_load(&build_meter.done) / 1e6, 0, mb, sizeof(mb));
	snprintf(note, sizeof(note), "index: %s MB read in %.1f s · analysing, writing the index", mb,
		 (double)meter_elapsed_ms(&build_meter) / 1e3);
	meter_note(&build_meter, note);
}

/* The index of a run that has one is current: every part usable, the rank dirs in steps
 * parts, nothing since (no rank grown, no delta, no trace changed or new, none outside
 * the trace parts) and its summary of the parts as they are (when it is not, an open
 * rewrites it from them, e.g. merges a sharded build's: *summarised, and the check is
 * made again). *h: what it holds. */
static bool is_current(const struct index_cli *c, struct index_health *h, bool *summarised)
{
	index_health_steps(c->run_dir, NULL, h);
	if (h->bad || h->since || (h->rank_dirs && !h->parts)) /* stale: the traces need no listing */
		return false;
	index_health_traces(c, NULL, h);
	if (h->parts + h->trace_parts == 0 || h->bad || h->since)
		return false;
	if (!h->parts || steps_summary_current(c->run_dir))
		return true;
	struct opts o = { .jobs = c->jobs };
	const char *paths[] = { c->run_dir };
	struct load_ctx hooks = { .progress = on_build_progress, .ud = (void *)c }; /* the steps read back */
	struct run *run = run_open(paths, 1, &o, &hooks);
	meter_clear(&build_meter);
	bool wrote = run->index_path != NULL; /* a part rebuilt: not what was there */
	run_free(run);
	struct index_health after = { 0 };
	index_health_steps(c->run_dir, NULL, &after);
	index_health_traces(c, NULL, &after);
	*summarised = true;
	return !wrote && !after.bad && !after.since && after.parts == h->parts && steps_summary_current(c->run_dir);
}

/* "LEAD current: DIR (8 ranks, 2 traces)NOTE; nothing to rebuild (--force rebuilds it)"
 * (with --slurm: no job submitted); the ranks shown when `ranks` says so. */
static void say_current(const struct index_cli *c, const char *lead, const char *dir, bool ranks,
			const struct index_health *h, const char *note)
{
	char *safe = text_sanitize_dup(dir, 0);
	printf("%s current: %s (", lead, safe);
	if (ranks)
		printf("%zu rank%s%s", h->ranks, h->ranks == 1 ? "" : "s", h->traces ? ", " : "");
	if (h->traces)
		printf("%zu trace%s", h->traces, h->traces == 1 ? "" : "s");
	printf(")%s; %s\n", note, c->slurm ? "no job submitted (--force submits it)" :
	       "nothing to rebuild (--force rebuilds it)");
	free(safe);
}

bool index_report_current(const struct index_cli *c)
{
	char *dir = index_dir_for(c->run_dir);
	struct index_health h = { 0 };
	bool summarised = false, current = index_holds_parts(dir) && is_current(c, &h, &summarised);
	if (current)
		say_current(c, "index", dir, h.parts, &h, summarised ? ", its summary brought up to date" : "");
	free(dir);
	return current;
}

/* `index --shard K/N` of a shard whose parts are current (index_health_shard_current()):
 * says so and returns true, nothing to rebuild. */
static bool report_shard_current(const struct index_cli *c)
{
	char *dir = index_dir_for(c->run_dir), lead[48];
	struct index_health h = { 0 };
	bool current = index_health_shard_current(c, dir, &h.ranks, &h.traces);
	snprintf(lead, sizeof(lead), "index shard %u/%u", c->shard_k, c->shard_n);
	if (current)
		say_current(c, lead, dir, h.ranks || !h.traces, &h, "");
	free(dir);
	return current;
}

/* The diagnostics of run that pick() takes, each formatted and sanitized on a line of f
 * after `lead` (a line the same as the one before it once). */
static void say_diags(const struct run *run, bool (*pick)(const struct diag *d), FILE *f, const char *lead)
{
	char last[1024] = "";
	for (size_t i = 0; i < run->diags.n; i++) {
		char buf[1024];
		diag_format(&run->diags.v[i], buf, sizeof(buf));
		if (!pick(&run->diags.v[i]) || strcmp(buf, last) == 0)
			continue;
		char *safe = text_sanitize_dup(buf, 0);
		fprintf(f, "%s%s\n", lead, safe);
		free(safe);
		snprintf(last, sizeof(last), "%s", buf);
	}
}

static bool is_error(const struct diag *d)
{
	return d->level == DIAG_ERROR;
}

static bool is_index(const struct diag *d)
{
	return strncmp(d->msg, "index ", 6) == 0;
}

/* Shard K/N holds no rank (index_shard_slice of index_plan) and no trace: it writes no
 * part, and --status counts it complete (index_status, trace_index_status). *run_none:
 * the run holds neither (no rank dir, no trace: nothing to index here). */
static bool shard_holds_nothing(const struct index_cli *c, bool *run_none)
{
	struct steps_rank_file *files = NULL;
	size_t lo, hi, n = index_plan(c->run_dir, &files), dirs = index_plan_rank_dirs(c->run_dir, files, n);
	steps_rank_files_free(files);
	index_shard_slice(n, c->shard_k, c->shard_n, &lo, &hi);
	bool nothing = (lo == hi || !dirs) && trace_index_shard_empty(c->run_dir, c->shard_k, c->shard_n);
	*run_none = nothing && !dirs && trace_index_shard_empty(c->run_dir, 0, 1);
	return nothing;
}

/* A shard holding nothing (shard_holds_nothing): said; 0, or 1 when the run holds nothing
 * (said as a whole build says it: every task of a job array over a wrong dir fails). */
static int say_shard_holds_nothing(const struct index_cli *c, bool run_none)
{
	if (run_none)
		fprintf(stderr, "tscope-tui index: no index written (%s)\n", INDEX_NOTHING_HERE);
	else
		printf("index shard %u/%u: nothing to index (no rank or trace falls in this shard): no part "
		       "written\n", c->shard_k, c->shard_n);
	return run_none ? 1 : 0;
}

/* "N ranks, M traces" of what a build wrote (the ranks of its step model, its traces). */
static void say_written(const struct run *run)
{
	char *safe = text_sanitize_dup(run->index_path, 0);
	struct stat st;
	long long bytes = stat(run->index_path, &st) == 0 ? (long long)st.st_size : -1;
	size_t nr = steps_nranks(run->steps), nt = run->trace ? run->trace->n : 0;
	printf("index written: %s (", safe);
	if (nr || !nt)
		printf("%zu rank%s, ", nr, nr == 1 ? "" : "s");
	if (nt)
		printf("%zu trace%s, ", nt, nt == 1 ? "" : "s");
	char mb[32];
	numfmt_nonzero((double)bytes / 1e6, 1, mb, sizeof(mb));
	printf("%s%s)\n", bytes >= 0 ? mb : "size unknown", bytes >= 0 ? " MB" : "");
	free(safe);
}

static int build(const struct index_cli *c)
{
	meter_start(&build_meter);
	meter_signals_on(&build_meter, NULL);
	dirlist_scope_begin(); /* the one-run check, every family's probe and loader list each directory once */
	bool run_none = false;
	int early = -1;
	if (refused(c))
		early = 1;
	else if (c->shard_n && shard_holds_nothing(c, &run_none))
		early = say_shard_holds_nothing(c, run_none);
	else if (!c->force && (c->shard_n ? report_shard_current(c) : index_report_current(c)))
		early = 0;
	if (early >= 0) {
		dirlist_scope_end();
		return early;
	}
	struct opts o = { .jobs = c->jobs, .index_build = true, .shard_k = c->shard_k,
			  .shard_n = c->shard_n };
	const char *paths[] = { c->run_dir };
	index_write_direct(true); /* the files are for a later open, maybe on another node */
	meter_start(&build_meter);
	struct load_ctx hooks = { .loaded = end_listings, .progress = on_build_progress, .ud = (void *)c };
	struct run *run = run_open(paths, 1, &o, &hooks);
	meter_clear(&build_meter);
	int rc = 0;
	if (!run->index_path) {
		size_t nerr = 0;
		for (size_t i = 0; i < run->diags.n; i++)
			nerr += run->diags.v[i].level == DIAG_ERROR;
		fprintf(stderr, "tscope-tui index: no index written%s%s%s\n", nerr ? "" : " (",
			nerr ? "" : INDEX_NOTHING_HERE, nerr ? "" : ")");
		say_diags(run, is_error, stderr, "tscope-tui index: ");
		rc = 1;
	} else if (!c->shard_n && refused_loaded(run)) { /* a shard holds some ranks: the open judges */
		drop_refused(run);
		rc = 1;
	} else {
		say_written(run);
	}
	run_free(run);
	return rc;
}

static void on_verify_progress(void *ud, long long done_delta, long long total_delta)
{
	(void)ud;
	if (meter_add(&build_meter, done_delta, total_delta))
		meter_draw(&build_meter, "verify: read back", "");
}

/* `--status --verify` of a run whose steps parts (the ranks of h) are usable: opened as
 * any open opens it, then every rank body of the parts and every heatmap row of the
 * summary read back and checked; the index's diagnostics are listed, a damaged file
 * among them (invalidated as an open does, when this user can: the next open rebuilds
 * it). 1 when a read failed. */
static int verify(const struct index_cli *c, const struct index_health *h)
{
	struct opts o;
	struct run *run = index_open_as_any(c, &o);
	meter_start(&build_meter);
	steps_read_back_bodies(run->steps, on_verify_progress, NULL);
	meter_clear(&build_meter);
	bool rows_failed = false;
	size_t rows = run->steps ? analysis_heat_read_back(run, &rows_failed) : 0;
	bool bad = rows_failed || steps_bodies_failed(run->steps);
	say_diags(run, is_index, stdout, "verify: ");
	if (bad)
		printf("verify: damaged (above)\n");
	else
		printf("verify: %zu rank%s bodies and %zu heatmap row%s read back: checksums ok\n", h->ranks,
		       h->ranks == 1 ? "'s" : "s'", rows, rows == 1 ? "" : "s");
	run_free(run);
	return bad ? 1 : 0;
}

/* `index --status`: the parts' lines, the summary's, the traces', the other place the
 * index could be read from; with --verify, every body read back. */
static int status(const struct index_cli *c)
{
	struct index_health h = { 0 };
	index_health_steps(c->run_dir, stdout, &h);
	index_health_unindexed_steps(c->run_dir, &h);
	if (h.parts)
		index_health_summary(c->run_dir, &h);
	index_health_traces(c, stdout, &h);
	index_health_other_place(c->run_dir);
	if (h.parts + h.trace_parts == 0)
		printf("no index\n");
	int rc = h.parts + h.trace_parts == 0 || h.bad ? 1 : 0;
	if (c->verify && h.parts && !h.bad)
		rc |= verify(c, &h);
	else if (c->verify && h.trace_parts && !h.bad) /* index_head_read() checked them whole */
		printf("verify: the trace parts hold everything in their checksummed heads: read back above\n");
	else if (c->verify)
		printf("verify: not run (%s)\n",
		       h.bad ? "a part is not usable: see above for what rebuilds it" : "no index");
	return rc;
}

int index_main(int argc, char **argv)
{
	struct index_cli c;
	int rc = parse(&c, argc, argv);
	if (!rc && c.help)
		usage(stdout);
	else if (!rc && c.version)
		printf("tscope-tui %s\n", TSCOPE_VERSION);
	else if (!rc && (c.status || c.slurm) && refused(&c))
		rc = 1;
	else if (!rc) /* build() checks the run in its listing scope */
		rc = c.status ? status(&c) : c.slurm ? index_slurm(&c) : build(&c);
	free(c.sbatch);
	return rc;
}
