/* SPDX-License-Identifier: MIT */
/* index_slurm.c: `tscope-tui index --slurm` (src/index_cmd.h index_slurm): the job array
 * that indexes a run shard by shard. Owns the number of shards (--shards N, at most one
 * per rank dir or per trace file in no rank dir, whichever are more: a larger N is
 * lowered to that, and said on stderr; without it one per GiB; a run with nothing to
 * index is refused; a current index is left as it is, no job submitted, unless --force),
 * the job script (its log name a Slurm filename pattern sbatch reads whole; each task
 * given index's --jobs and --force), its submission with sbatch, the merge step
 * (--merge-step: not submitted is a failure, exit 1, with what merges by hand), and what
 * is printed then: the job id, where the logs go and how to watch it; --dry-run prints
 * the script instead (whether or not the index is current), with the sbatch command
 * lines (the user's sbatch options in them) as comments, sanitized on a terminal. */
#include "src/index_cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/steps/steps.h"
#include "model/text.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

#define SHARD_BYTES ((long long)1 << 30)  /* --slurm without --shards: a shard per GiB (default_shards) */

/* s quoted for sh (single quotes, embedded ' as '\''). */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* s as a word for sh: as it is when every byte is plain (letters, digits, _ - . / , : @ %
 * + =), else quoted (put_quoted). */
static void put_word(FILE *f, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			strchr("_-./,:@%+=", *p);
	if (plain)
		fputs(s, f);
	else
		put_quoted(f, s);
}

/* s quoted for sh, as a string (malloc'd). */
static char *sh_quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return xstrdup("''");
	put_quoted(f, s);
	fclose(f);
	return buf;
}

/* The merge step's command: when every shard is usable, an open (--print) merges the
 * summary and its report goes to the step's log. malloc'd. */
static char *merge_command(const char *exe, const char *run_dir)
{
	char *qexe = sh_quoted(exe), *qrun = sh_quoted(run_dir);
	char *cmd = xasprintf("%s index --status %s && %s --print %s", qexe, qrun, qexe, qrun);
	free(qexe);
	free(qrun);
	return cmd;
}

static long long file_bytes(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* What a run's shards hold: units, the most shards it has use for (its rank dirs, or its
 * trace files in no rank dir when those are more: by_traces; shards split each of them,
 * a rank dir's traces go with its rank), and the bytes on disk of its steps.jsonl and
 * trace files. */
struct shard_units {
	size_t units;
	bool by_traces;
	long long bytes;
};

static struct shard_units count_units(const char *run_dir)
{
	struct shard_units u = { 0 };
	struct steps_rank_file *files = NULL;
	size_t n = index_plan(run_dir, &files);
	for (size_t i = 0; i < n; i++)
		u.bytes += file_bytes(files[i].steps);
	u.units = index_plan_rank_dirs(run_dir, files, n);
	steps_rank_files_free(files);
	char **traces = NULL;
	size_t nt = 0;
	trace_list_files(run_dir, &traces, &nt);
	for (size_t i = 0; i < nt; i++)
		u.bytes += file_bytes(traces[i]);
	size_t loose = trace_index_loose(run_dir, traces, nt);
	u.by_traces = loose > u.units;
	u.units = u.by_traces ? loose : u.units;
	for (size_t i = 0; i < nt; i++)
		free(traces[i]);
	free(traces);
	return u;
}

/* --slurm without --shards: one shard per GiB of the run's steps.jsonl and trace files
 * (a byte of either family counted alike), at most one per unit and INDEX_MAX_SHARDS. */
static unsigned default_shards(const struct shard_units *u)
{
	unsigned long long shards = (unsigned long long)((u->bytes + SHARD_BYTES - 1) / SHARD_BYTES);
	if (shards > u->units)
		shards = u->units;
	if (shards > INDEX_MAX_SHARDS)
		shards = INDEX_MAX_SHARDS;
	return shards ? (unsigned)shards : 1;
}

/* The job array's size: --shards N, lowered to the run's units u (one or more; a shard
 * beyond them would hold nothing), which stderr says; else default_shards(). */
static unsigned shard_count(const struct index_cli *c, const struct shard_units *u)
{
	if (!c->shards)
		return default_shards(u);
	if (c->shards <= u->units)
		return c->shards;
	unsigned n = (unsigned)u->units; /* lowered: u->units < c->shards <= 1000 */
	if (u->by_traces)
		fprintf(stderr, "tscope-tui index: --shards %u: the run has %u trace file%s in no rank dir", c->shards,
			n, n == 1 ? "" : "s");
	else
		fprintf(stderr, "tscope-tui index: --shards %u: the run has %u rank dir%s", c->shards, n,
			n == 1 ? "" : "s");
	fprintf(stderr, "; submitting %u shard%s\n", n, n == 1 ? "" : "s");
	return n;
}

/* dir/NAME as a Slurm filename pattern that names it (sbatch(1), "filename pattern"):
 * each '%' of dir doubled, NAME's replacement symbols (%A, %a) kept. malloc'd. */
static char *slurm_log_pattern(const char *dir, const char *name)
{
	size_t len = strlen(dir), pct = 0;
	for (size_t i = 0; i < len; i++)
		pct += dir[i] == '%';
	char *lit = xmalloc(len + pct + 1), *o = lit;
	for (size_t i = 0; i < len; i++) {
		*o++ = dir[i];
		if (dir[i] == '%')
			*o++ = '%';
	}
	*o = '\0';
	char *pat = xasprintf("%s/%s", lit, name);
	free(lit);
	return pat;
}

/* s as the argument of an #SBATCH line: in double quotes, each '"' escaped with a
 * backslash (sbatch takes quoted characters, spaces, '#' and single quotes among them, as
 * one argument; slurm() refuses a backslash or a line break, which it cannot take). */
static void put_directive_arg(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The job array's script: task K runs `index --shard K/N` with the index options given
 * (--jobs, --force), which are not sbatch's. */
static void write_script(FILE *f, const struct index_cli *c, const char *exe, const char *run_dir, const char *dir,
			 unsigned n)
{
	char *logs = slurm_log_pattern(dir, "slurm-%A_%a.out");
	fprintf(f, "#!/bin/sh\n"
		   "# tscope-tui index job array: task K indexes shard K/%u of the run.\n"
		   "#SBATCH --job-name=tscope-index\n"
		   "#SBATCH --array=0-%u\n"
		   "#SBATCH --output=", n, n - 1);
	put_directive_arg(f, logs);
	fputs("\nexec ", f);
	put_quoted(f, exe);
	fputs(" index", f);
	if (c->jobs)
		fprintf(f, " --jobs %d", c->jobs);
	if (c->force)
		fputs(" --force", f);
	fprintf(f, " --shard \"$SLURM_ARRAY_TASK_ID/%u\" ", n);
	put_quoted(f, run_dir);
	fputc('\n', f);
	free(logs);
}

/* s sh-quoted and sanitized, for a hint on the terminal (malloc'd). */
static char *hint_quoted(const char *s)
{
	char *q = sh_quoted(s), *safe = text_sanitize_dup(q, 0);
	free(q);
	return safe;
}

/* Run argv, capture the first line of its stdout into out. Returns the exit status (or -1). */
static int run_capture(char *const *argv, char *out, size_t outlen)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "tscope-tui index: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	FILE *f = fdopen(fds[0], "r");
	out[0] = '\0';
	if (f) {
		if (!fgets(out, (int)outlen, f))
			out[0] = '\0';
		char tmp[256];
		while (fgets(tmp, sizeof(tmp), f))
			;
		fclose(f);
	} else {
		close(fds[0]);
	}
	out[strcspn(out, "\r\n")] = '\0';
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* sbatch --parsable [user options] [extra...] SCRIPT_OR_NULL; the job id in jobid. */
static int sbatch(const struct index_cli *c, const char *const *extra, size_t nextra, char *jobid,
		  size_t len)
{
	char **argv = xcalloc(c->nsbatch + nextra + 3, sizeof(*argv));
	size_t k = 0;
	argv[k++] = (char *)"sbatch";
	argv[k++] = (char *)"--parsable";
	for (size_t i = 0; i < c->nsbatch; i++)
		argv[k++] = (char *)c->sbatch[i];
	for (size_t i = 0; i < nextra; i++)
		argv[k++] = (char *)extra[i];
	int rc = run_capture(argv, jobid, len);
	free(argv);
	jobid[strcspn(jobid, ";")] = '\0'; /* --parsable: "id[;cluster]" */
	return rc;
}

/* The user's sbatch options name the array's log (--output, -o): it is not ours then. */
static bool user_output(const struct index_cli *c)
{
	for (size_t i = 0; i < c->nsbatch; i++)
		if (strncmp(c->sbatch[i], "--output", 8) == 0 || strncmp(c->sbatch[i], "-o", 2) == 0)
			return true;
	return false;
}

/* The merge step: a job after the array (afterany: it names the shards that failed) that
 * checks them, merges the summary and prints the report to DIR/slurm-JOBID-status.out.
 * False when it was not submitted (said, with what does it by hand). */
static bool submit_merge(const struct index_cli *c, const char *exe, const char *abs, const char *dir,
			 const char *jobid)
{
	char *name = xasprintf("slurm-%s-status.out", jobid);
	char *pat = slurm_log_pattern(dir, name), *log = xasprintf("%s/%s", dir, name);
	char *dep = xasprintf("--dependency=afterany:%s", jobid), *out = xasprintf("--output=%s", pat);
	char *wrap = merge_command(exe, abs);
	const char *margs[] = { dep, "--job-name=tscope-index-merge", out, "--wrap", wrap };
	char mid[128];
	int st = sbatch(c, margs, ARRAY_LEN(margs), mid, sizeof(mid));
	bool done = st == 0 && mid[0];
	if (done) {
		char *q = hint_quoted(log);
		printf("merge step: job %s (after the array: index --status, then the summary merged and the "
		       "report printed to %s)\n", mid, q);
		free(q);
	} else {
		char *q = hint_quoted(abs), why[48] = "sbatch printed no job id";
		if (st > 0)
			snprintf(why, sizeof(why), "sbatch failed (exit status %d)", st);
		else if (st)
			snprintf(why, sizeof(why), "sbatch failed");
		fprintf(stderr, "tscope-tui index: the merge step was not submitted: %s; the job array runs without it "
			"(exit status 1): once it is done, `tscope-tui index --status %s && tscope-tui --print %s` "
			"checks the shards and merges the summary\n", why, q, q);
		free(q);
	}
	free(name);
	free(pat);
	free(log);
	free(dep);
	free(out);
	free(wrap);
	return done;
}

/* An sbatch command line of --dry-run on f, as a comment: "# LEAD: sbatch", the user's
 * sbatch options as sbatch() gives them (each a word for sh), then fmt's text.
 * The line is sanitized: it is for the reader, and no byte of an option may end it. */
static void put_sbatch_line(FILE *f, const struct index_cli *c, const char *lead, const char *fmt, ...)
	PRINTF_LIKE(4, 5);
static void put_sbatch_line(FILE *f, const struct index_cli *c, const char *lead, const char *fmt, ...)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	if (!m)
		return;
	fprintf(m, "# %s: sbatch", lead);
	for (size_t i = 0; i < c->nsbatch; i++) {
		fputc(' ', m);
		put_word(m, c->sbatch[i]);
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(m, fmt, ap);
	va_end(ap);
	fclose(m);
	char *safe = text_sanitize_dup(line, 0);
	fprintf(f, "%s\n", safe);
	free(safe);
	free(line);
}

/* text to stdout: on a terminal each line sanitized (a run dir's control bytes are shown,
 * never sent to it), else as it is (a script of paths in single quotes, valid as written). */
static void put_display(const char *text, size_t len)
{
	if (!isatty(STDOUT_FILENO)) {
		fwrite(text, 1, len, stdout);
		return;
	}
	for (const char *p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);
		char *line = xstrndup(p, n), *safe = text_sanitize_dup(line, 0);
		printf("%s\n", safe);
		free(safe);
		free(line);
		p += n + 1;
	}
}

/* --dry-run: the job array's script, then as comments the sbatch command lines that
 * submit it (the user's sbatch options first) and the merge step. */
static void dry_run(const struct index_cli *c, const char *exe, const char *abs, const char *dir, unsigned n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	write_script(f, c, exe, abs, dir, n);
	char *script = xasprintf("%s/index-slurm.sh", dir), *qscript = sh_quoted(script);
	put_sbatch_line(f, c, "submitted with", " %s", qscript);
	if (c->merge_step) {
		char *wrap = merge_command(exe, abs), *q = sh_quoted(wrap);
		char *pat = slurm_log_pattern(dir, "slurm-JOBID-status.out"), *qout = sh_quoted(pat);
		put_sbatch_line(f, c, "then (--merge-step)", " --dependency=afterany:JOBID "
				"--job-name=tscope-index-merge --output=%s --wrap %s", qout, q);
		free(q);
		free(wrap);
		free(qout);
		free(pat);
	}
	fclose(f);
	put_display(text, len);
	free(text);
	free(script);
	free(qscript);
}

/* Where the array's logs go and what to run then, paths sh-quoted. */
static void say_submitted(const struct index_cli *c, const char *abs, const char *dir, const char *jobid)
{
	char *qdir = hint_quoted(dir), *qabs = hint_quoted(abs);
	if (user_output(c))
		printf("watch: squeue -j %s    logs: where your --output says\n", jobid);
	else
		printf("watch: squeue -j %s    logs: %s/slurm-%s_*.out\n", jobid, qdir, jobid);
	printf("then:  tscope-tui index --status %s    (missing or failed shards are named; the rest is used)\n",
	       qabs);
	free(qdir);
	free(qabs);
}

/* A path a Slurm log cannot be in (a backslash turns its name's %A and %a off, sbatch(1);
 * a line break ends the #SBATCH line): said, and true. */
static bool log_dir_refused(const char *dir)
{
	if (!strpbrk(dir, "\\\n"))
		return false;
	char *safe = text_sanitize_dup(dir, 0);
	fprintf(stderr, "tscope-tui index: Slurm cannot name a log file in %s: its path has a backslash or a line "
		"break; index each shard with `tscope-tui index --shard K/N` in a job of your own\n", safe);
	free(safe);
	return true;
}

int index_slurm(const struct index_cli *c)
{
	char exe[PATH_MAX];
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (el <= 0)
		return index_cli_fail("cannot find the tscope-tui executable", NULL);
	exe[el] = '\0';
	char *abs = realpath(c->run_dir, NULL);
	char *dir = index_write_dir_for(abs); /* where the tasks write their parts */
	char *script = xasprintf("%s/index-slurm.sh", dir);
	int rc = 1;
	if (log_dir_refused(dir))
		goto out;
	struct shard_units u = count_units(c->run_dir);
	if (!u.units) {
		fprintf(stderr, "tscope-tui index: no job submitted (%s)\n", INDEX_NOTHING_HERE);
		goto out;
	}
	if (!c->dry_run && !c->force && index_report_current(c)) { /* said: no job submitted */
		rc = 0;
		goto out;
	}
	unsigned n = shard_count(c, &u);
	if (c->dry_run) {
		dry_run(c, exe, abs, dir, n);
		rc = 0;
		goto out;
	}
	index_mkdir_p(dir);
	FILE *f = fopen(script, "w");
	char *safe = text_sanitize_dup(script, 0);
	if (!f) {
		fprintf(stderr, "tscope-tui index: cannot write %s: %s\n", safe, strerror(errno));
		free(safe);
		goto out;
	}
	write_script(f, c, exe, abs, dir, n);
	fclose(f);
	char jobid[128];
	const char *args[] = { script };
	if (sbatch(c, args, 1, jobid, sizeof(jobid)) != 0 || !jobid[0]) {
		fprintf(stderr, "tscope-tui index: sbatch failed; the script is %s\n", safe);
		free(safe);
		goto out;
	}
	free(safe);
	safe = text_sanitize_dup(abs, 0);
	printf("submitted job array %s: %u shard%s of %s\n", jobid, n, n == 1 ? "" : "s", safe);
	free(safe);
	bool merged = !c->merge_step || submit_merge(c, exe, abs, dir, jobid);
	say_submitted(c, abs, dir, jobid);
	rc = merged ? 0 : 1;
out:
	free(script);
	free(dir);
	free(abs);
	return rc;
}
