/* SPDX-License-Identifier: MIT */
/* main.c: process glue. Parse options, load the run (with a progress line on a tty),
 * then pick the mode: explorer (tty), --print (default off a tty), --export, lists.
 * Exit status: 0 ok, 1 nothing found or data error, 2 usage error. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "model/compare/compare.h"
#include "model/compat.h"
#include "model/dirlist.h"
#include "model/identity.h"
#include "model/index/index.h"
#include "model/registry.h"
#include "model/run.h"
#include "model/steps/follow.h"
#include "model/steps/progress.h"
#include "model/steps/steps.h"
#include "model/summary.h"
#include "model/sweep/sweep.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "src/cli.h"
#include "src/index_cmd.h"
#include "src/meter.h"
#include "src/export.h"
#include "src/print.h"
#include "src/refuse.h"
#include "src/unused_options.h"
#include "ui/ui.h"

struct progress {
	struct meter m;          /* the bytes loaded and the progress line */
	bool keys;               /* stdin is a terminal too: q or Esc cancels a slow load */
	atomic_bool cancel;      /* the loaders' cancel flag (load_ctx.cancel) */
	bool screen;             /* the explorer's loading screen shows the progress */
	bool watched;            /* load_line draws the line and reads the keys */
	_Atomic(struct run *) run;   /* the run being loaded (load_ctx.started) */
	_Atomic(const char *) phase; /* load_ctx.phase: what the loaders do, NULL: reading */
};

/* The line after its 0.5 s: from the first draw q or Esc cancels the load (the terminal
 * set to read them: src/meter.h meter_keys_*). */
static void load_line_draw(struct progress *p)
{
	if (p->keys && !atomic_load(&p->m.shown))
		meter_keys_start();
	if (p->keys && meter_keys_cancel())
		atomic_store(&p->cancel, true);
	meter_draw(&p->m, "loading", p->keys ? " · q cancels" : "");
}

/* Called from loader threads: the bytes; unless another thread shows them (the loading
 * screen, load_line), after 0.5 s the line redrawn at most 10x/s. */
static void on_progress(void *ud, long long done_delta, long long total_delta)
{
	struct progress *p = ud;
	if (p->screen || p->watched)
		meter_count(&p->m, done_delta, total_delta);
	else if (meter_add(&p->m, done_delta, total_delta))
		load_line_draw(p);
}

/* The data-quality list counted as the Overview counts it: errors, warnings, notes
 * (and the diagnostics beyond the ones kept), and the records skipped. side: NULL for
 * one run; "A" or "B" of a comparison, named with the run's path. */
static void report_quality(const struct run *run, const char *side)
{
	size_t skipped = 0, level[3] = { 0 };
	for (size_t i = 0; i < run->nsrc; i++)
		skipped += run->src[i].skipped;
	for (size_t i = 0; i < run->diags.n; i++)
		level[run->diags.v[i].level]++;
	if (!run->diags.n && !run->diags.dropped)
		return;
	char more[48] = "";
	if (run->diags.dropped)
		snprintf(more, sizeof(more), ", %zu more not kept", run->diags.dropped);
	char *of = NULL;
	if (side) {
		char *path = text_sanitize_dup(run->path ? run->path : "-", 0);
		of = xasprintf(" of %s (%s)", side, path);
		free(path);
	}
	fprintf(stderr, "tscope-tui: data quality%s: %zu error%s, %zu warning%s, %zu note%s%s (%zu record%s skipped); "
			"see --export sources\n", of ? of : "", level[DIAG_ERROR], level[DIAG_ERROR] == 1 ? "" : "s",
		level[DIAG_WARN], level[DIAG_WARN] == 1 ? "" : "s", level[DIAG_INFO], level[DIAG_INFO] == 1 ? "" : "s",
		more, skipped, skipped == 1 ? "" : "s");
	free(of);
}

/* --objective / --constraint terms the run has no metric for (dropped, also diagnosed). */
static void report_metric_refs(struct run *run)
{
	refuse_lines(sweep_ref_errors(run));
}

/* The first diagnostics of a run that loaded nothing: they usually say why. */
static void print_diags(const struct run *run)
{
	for (size_t i = 0; i < run->diags.n && i < 5; i++) {
		char buf[1024];
		diag_format(&run->diags.v[i], buf, sizeof(buf));
		char *safe = text_sanitize_dup(buf, 0);
		fprintf(stderr, "tscope-tui: %s\n", safe);
		free(safe);
	}
}

static void print_empty(const struct run *run, const struct cli *cli)
{
	print_diags(run);
	char *p = text_sanitize_dup(cli->paths[0], 0);
	fprintf(stderr, "tscope-tui: nothing to explore in '%s'\n", p);
	free(p);
}

static void on_started(void *ud, struct run *run)
{
	atomic_store(&((struct progress *)ud)->run, run);
}

static void on_phase(void *ud, const char *what)
{
	atomic_store(&((struct progress *)ud)->phase, what);
}

/* One load: its paths, progress and hooks, and (on the loading screen) its thread. */
struct load_job {
	const char *const *paths;
	size_t npaths;
	const struct opts *opts;
	struct progress prog;
	struct load_ctx hooks;
	struct run *run;
	atomic_bool done;
	pthread_t th;
	bool threaded;           /* run_open() runs on th */
};

static void load_job_init(struct load_job *job, const char *const *paths, size_t npaths, const struct opts *opts)
{
	memset(job, 0, sizeof(*job));
	job->paths = paths;
	job->npaths = npaths;
	job->opts = opts;
	meter_start(&job->prog.m);
	job->hooks = (struct load_ctx){ .progress = on_progress, .started = on_started, .phase = on_phase,
					.ud = &job->prog, .cancel = &job->prog.cancel };
}

static void *load_thread(void *ud)
{
	struct load_job *job = ud;
	job->run = run_open(job->paths, job->npaths, job->opts, &job->hooks);
	atomic_store(&job->done, true);
	return NULL;
}

/* Start job's run_open() on a thread of its own (false: it could not be started). */
static bool load_job_start(struct load_job *job)
{
	job->prog.screen = true;
	job->threaded = pthread_create(&job->th, NULL, load_thread, job) == 0;
	return job->threaded;
}

/* Records the partial Overview reads per frame at most (model/steps/progress.h): the
 * loaders wait on the model's lock for about that long. */
#define LOAD_DIGEST_RECORDS 200000

/* The loading screen before anything is known to read. */
#define LOAD_FINDING "finding the run's files"

/* What the loading screen shows: bytes from the progress hooks, the partial Overview
 * from what the loaders published (model/steps/progress.h). */
static void load_status(struct progress *p, struct steps_progress *sp, const char *path, struct summary *lines,
			struct summary *findings, struct ui_load_status *st)
{
	*st = (struct ui_load_status){ .path = path, .done = atomic_load(&p->m.done), .total = atomic_load(&p->m.total),
				       .seconds = (double)meter_elapsed_ms(&p->m) / 1e3, .lines = lines,
				       .findings = findings, .doing = atomic_load(&p->phase) };
	struct run *run = atomic_load(&p->run);
	if (run)
		steps_progress_update(sp, run, LOAD_DIGEST_RECORDS);
	steps_progress_lines(sp, path, lines, findings);
	size_t expected, k = steps_progress_ranks(sp, &expected);   /* a pipe's bytes are not in total */
	st->listing = steps_progress_listing(sp, &st->listed);
	bool finishing = !st->listing && st->total > 0 && st->done >= st->total && k >= expected;
	st->finishing = finishing ? steps_progress_finishing(sp) : NULL;
	if (!st->doing && !st->listing && st->done == 0 && st->total == 0) /* nothing known to read yet */
		st->doing = LOAD_FINDING;
}

/* How long a cancelled load may take to stop before the process ends without it, and
 * what is said then (the loaders check the cancel often: one that does not stop is
 * blocked, in a read of a pipe or a stalled file system, say). */
#define LOAD_CANCEL_WAIT_MS 1000
#define LOAD_ABANDONED " (a loader that did not stop within a second was not waited for)"

/* A loader that does not stop after q: end the process here, with every caller's frame
 * (the loader's paths and hooks) still alive under the thread not waited for. */
static _Noreturn void load_abandon(int rc, const char *why)
{
	ui_load_end(false);
	index_tmp_unlink(); /* the loader may be writing an index */
	fprintf(stderr, "tscope-tui: load cancelled%s\n", why);
	exit(rc);
}

/* The explorer's load: the loaders run on a thread (started here unless it runs
 * already) while this one draws the loading screen at once and every 100 ms (at once
 * again after a key); q or Esc cancels the loaders and quits (*quit_rc 0), a signal too
 * (128 + N); a loader that does not stop within LOAD_CANCEL_WAIT_MS ends the process
 * (load_abandon). NULL when not loaded. */
static struct run *load_screen(struct load_job *job, int *quit_rc)
{
	struct progress *prog = &job->prog;
	if (!job->threaded && !load_job_start(job)) {
		load_thread(job);
		return job->run;
	}
	struct steps_progress *sp = steps_progress_new();
	struct summary *lines = xmalloc(sizeof(*lines)), *findings = xmalloc(sizeof(*findings));
	long long cancel_ms = 0;
	while (!atomic_load(&job->done)) {
		struct ui_load_status st;
		load_status(prog, sp, job->npaths ? job->paths[0] : ".", lines, findings, &st);
		int rc = ui_load_frame(&st, 100);
		if (rc >= 0 && !atomic_load(&prog->cancel)) {
			atomic_store(&prog->cancel, true);
			*quit_rc = rc;
			cancel_ms = meter_elapsed_ms(&prog->m);
		}
		bool late = cancel_ms && meter_elapsed_ms(&prog->m) - cancel_ms > LOAD_CANCEL_WAIT_MS;
		if (late && !atomic_load(&job->done))
			load_abandon(*quit_rc, LOAD_ABANDONED);
	}
	pthread_join(job->th, NULL);
	job->threaded = false;
	steps_progress_free(sp);
	free(lines);
	free(findings);
	if (!atomic_load(&prog->cancel))
		return job->run;
	ui_load_end(false);
	fprintf(stderr, "tscope-tui: load cancelled\n");
	run_free(job->run);
	return NULL;
}

/* How often load_line wakes while the loaders make no progress. */
#define LOAD_TICK_MS 100

/* One tick of load_line: until the loader thread ends (a byte on wake), a key comes or
 * LOAD_TICK_MS pass; then the line when it is due, and the keys typed. */
static void load_line_tick(struct progress *p, int wake)
{
	bool keys = p->keys && atomic_load(&p->m.shown) && meter_keys_foreground();
	struct pollfd fd[2] = { { .fd = wake, .events = POLLIN }, { .fd = STDIN_FILENO, .events = POLLIN } };
	poll(fd, keys ? 2 : 1, LOAD_TICK_MS);
	if (meter_due(&p->m))
		load_line_draw(p);
	else if (keys && meter_keys_cancel())
		atomic_store(&p->cancel, true);
	if (keys && (fd[1].revents & (POLLHUP | POLLERR | POLLNVAL)))
		p->keys = false;   /* the terminal hung up: no key to read any more */
}

/* A load on a thread of its own that says on wake[1] when it ends. */
struct load_wake {
	struct load_job *job;
	int wake[2];
};

static void *load_wake_thread(void *ud)
{
	struct load_wake *w = ud;
	load_thread(w->job);
	(void)!write(w->wake[1], "", 1);
	return NULL;
}

/* The load of --print or --export with stderr on a terminal: run_open() on a thread of
 * its own while this one wakes every LOAD_TICK_MS whether bytes come or not (a FIFO with
 * no writer yet, a stalled file system): the line from 0.5 s on, q or Esc read as soon as
 * typed. A cancelled loader that does not stop within LOAD_CANCEL_WAIT_MS ends the
 * process (load_abandon). Without a thread, on_progress draws as the bytes come. */
static struct run *load_line(struct load_job *job)
{
	struct progress *prog = &job->prog;
	struct load_wake w = { .job = job };
	prog->watched = pipe2(w.wake, O_CLOEXEC) == 0;
	if (prog->watched && pthread_create(&job->th, NULL, load_wake_thread, &w) != 0) {
		close(w.wake[0]);
		close(w.wake[1]);
		prog->watched = false;
	}
	if (!prog->watched)
		return run_open(job->paths, job->npaths, job->opts, &job->hooks);
	long long cancel_ms = 0;
	while (!atomic_load(&job->done)) {
		load_line_tick(prog, w.wake[0]);
		if (!cancel_ms && atomic_load(&prog->cancel))
			cancel_ms = meter_elapsed_ms(&prog->m);
		bool late = cancel_ms && meter_elapsed_ms(&prog->m) - cancel_ms > LOAD_CANCEL_WAIT_MS;
		if (late && !atomic_load(&job->done)) {
			meter_keys_stop();
			meter_clear(&prog->m);
			load_abandon(1, LOAD_ABANDONED);
		}
	}
	pthread_join(job->th, NULL);
	close(w.wake[0]);
	close(w.wake[1]);
	return job->run;
}

/* Load with a progress line on a tty after 0.5 s (rate, ETA); q or Esc on a tty cancels:
 * NULL then, after saying so. With screen (the explorer follows on a terminal) the
 * loading screen shows the progress instead, from the first moment, and q quits
 * (*quit_rc 0). early: a load of these paths that identify() started already, or NULL. */
static struct run *load(const char *const *paths, size_t npaths, const struct opts *opts, bool screen,
			int *quit_rc, struct load_job *early)
{
	struct load_job own, *job = early && early->threaded ? early : &own;
	if (job == &own)
		load_job_init(job, paths, npaths, opts);
	struct progress *prog = &job->prog;
	*quit_rc = 1;
	if (job->threaded || (screen && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && ui_load_begin(opts)))
		return load_screen(job, quit_rc);   /* metric reference errors are diagnostics the Sources pane lists */
	prog->keys = prog->m.tty && isatty(STDIN_FILENO);
	meter_signals_on(&prog->m, meter_keys_restore);
	struct run *run = prog->m.tty ? load_line(job) : run_open(paths, npaths, opts, &job->hooks);
	meter_keys_stop();
	meter_signals_off();
	meter_clear(&prog->m);
	if (atomic_load(&prog->cancel)) {
		fprintf(stderr, "tscope-tui: load cancelled\n");
		run_free(run);
		return NULL;
	}
	report_metric_refs(run);
	return run;
}

/* A load identify() started that the PATHs turned out not to want (several runs):
 * cancel it and wait, the loading screen up meanwhile (q ends the process). */
static void load_job_drop(struct load_job *job)
{
	if (!job->threaded)
		return;
	atomic_store(&job->prog.cancel, true);
	struct steps_progress *none = steps_progress_new();
	struct summary *lines = xmalloc(sizeof(*lines)), *findings = xmalloc(sizeof(*findings));
	steps_progress_lines(none, job->paths[0], lines, findings);
	while (!atomic_load(&job->done)) {
		struct ui_load_status st = { .path = job->paths[0], .doing = "cancelling the load begun early",
					     .lines = lines, .findings = findings };
		int rc = ui_load_frame(&st, 100);
		if (rc >= 0)
			load_abandon(rc, "");
	}
	pthread_join(job->th, NULL);
	job->threaded = false;
	run_free(job->run);
	job->run = NULL;
	steps_progress_free(none);
	free(lines);
	free(findings);
}

/* The mode asked for; else the explorer when standard input and output are terminals (it
 * reads its keys from standard input), else --print. When standard output alone is a
 * terminal, the first call says why on stderr, once. */
static enum cli_mode pick_mode(const struct cli *cli)
{
	static bool said;
	if (cli->mode != MODE_AUTO)
		return cli->mode;
	if (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))
		return MODE_TUI;
	if (isatty(STDOUT_FILENO) && !said) {
		said = true;
		fputs("tscope-tui: standard input is not a terminal, so the explorer does not open (--tui opens it "
		      "on /dev/tty)\n", stderr);
	}
	return MODE_PRINT;
}

struct identify_job {
	const struct cli *cli;
	struct run_identity *id;
	atomic_bool done;
};

static void *identify_thread(void *ud)
{
	struct identify_job *job = ud;
	run_identify(job->cli->paths, job->cli->npaths, &job->cli->opts, job->id);
	atomic_store(&job->done, true);
	return NULL;
}

/* Identify the PATHs (model/identity.h). For the explorer on a terminal the loading
 * screen is up from the first moment, while that runs on another thread: on a cold
 * file system listing thousands of rank dirs takes seconds. One PATH is one run unless
 * identification finds several in it, so its load begins at once, on a third thread
 * (*early; load() goes on with it, load_job_drop() cancels it): the screen shows its
 * partial Overview while the probes still walk the rank dirs. q or Esc then ends the
 * process (nothing is kept; the threads are not waited for), other keys are kept; for a
 * run picked from a folder of runs the first q cancels it instead: true then, once the
 * identification has ended (the early load goes on: load_job_drop() it). */
static bool identify(const struct cli *cli, struct run_identity *id, struct load_job *early)
{
	struct identify_job job = { .cli = cli, .id = id };
	pthread_t th;
	if (pick_mode(cli) != MODE_TUI || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    !ui_load_begin(&cli->opts) || pthread_create(&th, NULL, identify_thread, &job) != 0) {
		identify_thread(&job);
		return false;
	}
	struct meter clock; /* no bytes to count: only the time */
	meter_start(&clock);
	const char *path = cli->npaths ? cli->paths[0] : ".";
	if (cli->npaths == 1) {
		load_job_init(early, cli->paths, 1, &cli->opts);
		load_job_start(early);
	}
	struct steps_progress *sp = steps_progress_new();   /* the Overview of what is loaded so far */
	struct summary *lines = xmalloc(sizeof(*lines)), *findings = xmalloc(sizeof(*findings));
	steps_progress_lines(sp, path, lines, findings);
	bool cancelled = false;
	while (!atomic_load(&job.done)) {
		struct ui_load_status st = { .path = path, .seconds = (double)meter_elapsed_ms(&clock) / 1e3,
					     .doing = LOAD_FINDING, .lines = lines, .findings = findings };
		if (early->threaded)
			load_status(&early->prog, sp, path, lines, findings, &st);
		if (!st.doing && !st.listing && atomic_load(&early->done)) /* it waits for this */
			st.doing = LOAD_FINDING;
		if (cancelled)
			st.doing = "cancelling the load";
		int rc = ui_load_frame(&st, 100);
		if (rc == 0 && cli->opts.from_picker && !cancelled)
			cancelled = true;
		else if (rc >= 0)
			load_abandon(rc, "");
	}
	pthread_join(th, NULL);
	steps_progress_free(sp);
	free(lines);
	free(findings);
	return cancelled;
}

static int run_mode(struct cli *cli, struct run *run, char **unopened);

/* The run at path picked from a folder of runs (the one PATH of cli), identified, loaded
 * and checked as main() does a PATH: one that holds several runs is refused, never
 * merged, and so is a run with traces of ranks its step logs lack. NULL when not loaded:
 * *msg (malloc'd) says why for the picker, or a signal ended the load (*rc 128 + N). */
static struct run *picked_load(struct cli *cli, const char *path, char **msg, int *rc)
{
	struct run_identity id;
	struct load_job early = { 0 };
	dirlist_scope_begin();
	bool cancelled = identify(cli, &id, &early);
	if (id.n != 1 || cancelled) {
		load_job_drop(&early);
		ui_load_end(false);
		dirlist_scope_end();
		*msg = cancelled ? refuse_picked(path, "load cancelled") : refuse_picked_runs(path, &id, &cli->opts);
		run_identity_free(&id);
		return NULL;
	}
	struct run *run = load(id.paths, id.npaths, &cli->opts, true, rc, &early);
	dirlist_scope_end();
	if (run)
		run_identity_notes(&id, 0, run);
	run_identity_free(&id);
	char why[1024];
	struct run *refused = run ? run_identity_mismatch(run, why, sizeof(why)) : NULL;
	ui_load_end(run && !refused && (!run_is_empty(run) || cli->opts.follow));
	if (refused || (!run && *rc < 128))   /* q on the loading screen comes back to the picker */
		*msg = refuse_picked(path, refused ? why : "load cancelled");
	if (!refused)
		return run;
	run_free(refused);
	run_free(run);
	return NULL;
}

/* The run picked from a folder of runs, opened as `tscope-tui FOLDER/RUN` opens it: its
 * path is the one PATH while it is open (what --follow watches, what messages name), the
 * folder's PATH again after. UI_BACK with *msg (malloc'd) when it was not opened. */
static int run_picked(struct cli *cli, const char *path, char **msg)
{
	const char **paths = cli->paths, *one[1] = { path };
	size_t npaths = cli->npaths;
	cli->paths = one;
	cli->opts.paths = one;
	cli->npaths = cli->opts.npaths = 1;
	cli->opts.from_picker = true;
	int rc = UI_BACK;
	struct run *run = picked_load(cli, path, msg, &rc);
	if (run)
		rc = run_mode(cli, run, msg);
	run_free(run);
	cli->paths = paths;
	cli->opts.paths = paths;
	cli->npaths = cli->opts.npaths = npaths;
	return *msg ? UI_BACK : rc;
}

/* PATH holds no run itself but runs below it: the explorer offers a picker, the other
 * modes name the runs (one line each, ready to paste) and exit 1. */
static int folder_of_runs(struct cli *cli, const struct run_child *kids, size_t nk)
{
	if (pick_mode(cli) == MODE_TUI) {
		ui_load_end(false);   /* the folder is not explored: --follow kept its loading screen's terminal */
		int rc = UI_BACK, i = 0;
		char *msg = NULL;   /* why the run picked last was not opened: the picker shows it */
		/* q at the top of the run, or a run not opened, comes back here (UI_BACK); Q quits */
		while (rc == UI_BACK) {
			i = ui_pick_run(cli->paths[0], kids, nk, (size_t)i, msg, &cli->opts);
			if (i < 0)
				break;
			free(msg);
			msg = NULL;
			rc = run_picked(cli, kids[i].path, &msg);
		}
		if (msg && i == UI_PICK_NO_TTY)   /* the terminal went: the message is not lost */
			refuse_lines(msg);
		free(msg);
		if (i == UI_PICK_QUIT)
			return ui_exit_signal();   /* q: 0; Ctrl-C: 130, as a shell expects */
		if (i >= 0)
			return rc;
	}
	refuse_folder(cli->paths[0], kids, nk);
	return 1;
}

static int stdout_err; /* errno of the first failed flush of stdout */

/* A failed write of stdout with its errno (0: none): the first is kept. */
static void stdout_failed(int err)
{
	if (err && !stdout_err)
		stdout_err = err;
}

static void flush_stdout(void)
{
	if (fflush(stdout) != 0)
		stdout_failed(errno);
}

/* A refused run (model/identity.h): what was found is on stderr already; the explorer
 * shows it (Overview, Sources), --export sources or all writes the sources view with
 * each source's reason. Exit 1 whatever happens. */
static int refused_mode(struct cli *cli, struct run *run)
{
	enum cli_mode mode = pick_mode(cli);
	if (mode == MODE_TUI)
		ui_run(run, &cli->opts);
	else if (mode == MODE_EXPORT &&
		 (strcmp(cli->export_view, "sources") == 0 || strcmp(cli->export_view, "all") == 0))
		export_view(run, &(struct export_args){ cli->export_view, cli->output, cli->sort, cli->filter,
							cli->force });
	run_free(run);
	return 1;
}

/* --compat pytscope on a run of a family pytscope does not read (cli_compat_refusal): the
 * terminal a loading screen kept for the explorer restored, the usage error said. */
static bool compat_refused(const struct cli *cli, enum cli_mode mode, const struct run *run)
{
	char *why = cli_compat_refusal(&cli->opts, mode, run);
	if (!why)
		return false;
	ui_load_end(false);
	fputs(why, stderr);
	free(why);
	return true;
}

/* Why run is not opened in mode, malloc'd (lines ending in "\n"), else NULL: --compat
 * pytscope on a family pytscope does not read (cli_compat_refusal), --follow on a run with
 * nothing a job appends to (follow_applies); usage errors. */
static char *usage_refusal(const struct cli *cli, enum cli_mode mode, const struct run *run)
{
	char *why = cli_compat_refusal(&cli->opts, mode, run);
	if (why || !cli->opts.follow || follow_applies(run))
		return why;
	return xstrdup("tscope-tui: --follow reads pytscope step logs (steps.jsonl) as a job writes them, "
		       "and GenAI-Perf sweeps and NAT sizing jobs as they grow; these PATHs hold none (traces, "
		       "Cerebras and DASF files are written whole): open them without --follow\n");
}

/* The run not opened, and why (lines ending in "\n", freed here): the run picker's message
 * when it asks for one (*unopened: UI_BACK), else said on stderr (rc). The terminal a
 * loading screen kept for the explorer is restored. */
static int not_opened(const struct cli *cli, char *why, char **unopened, int rc)
{
	ui_load_end(false);
	if (unopened)
		*unopened = refuse_picked(cli->paths[0], why);
	else
		fputs(why, stderr);
	free(why);
	return unopened ? UI_BACK : rc;
}

/* The explorer on run (rc as ui_run's), unless there is nothing to explore (the run is
 * empty, or --compat pytscope reads nothing of it; following, the explorer waits for the
 * job): said as --print says it (1), or the picker's message (*unopened: UI_BACK). */
static int explore(struct cli *cli, struct run *run, char **unopened)
{
	bool empty = run_is_empty(run) && !cli->opts.follow;
	if (empty || (compat_reads_nothing(run) && !cli->opts.follow)) {
		ui_load_end(false);
		note_unused_options(&cli->opts, &run, 1);
		if (unopened)
			*unopened = empty ? refuse_picked_empty(cli->paths[0], run) :
				    refuse_picked(cli->paths[0], "no steps or trace found that pytscope 0.2.1 reads "
						  "(--compat pytscope)");
		else if (empty)
			print_empty(run, cli);
		return unopened ? UI_BACK : empty ? 1 : print_nothing_found(run, true);
	}
	int rc = ui_run(run, &cli->opts);
	note_unused_options(&cli->opts, &run, 1);   /* under the explorer's screen it was lost */
	return rc;
}

/* Open run in the mode asked for (the explorer on a terminal). unopened: NULL, or where
 * the run picker's message goes when the run is not opened (not_opened). */
static int run_mode(struct cli *cli, struct run *run, char **unopened)
{
	struct run_child *kids = NULL;
	size_t nk = 0;
	if (cli->npaths == 1)
		nk = run_identity_folder(cli->paths[0], run, &cli->opts, &kids);
	if (nk) {
		int rc = folder_of_runs(cli, kids, nk);
		run_children_free(kids, nk);
		return rc;
	}
	enum cli_mode mode = pick_mode(cli);
	char *usage = usage_refusal(cli, mode, run);
	if (usage)
		return not_opened(cli, usage, unopened, 2);
	if (mode != MODE_TUI)   /* the explorer's: once the terminal is the shell's again */
		note_unused_options(&cli->opts, &run, 1);
	if (mode == MODE_PRINT && cli->opts.follow) {
		int rc = print_follow(run, cli->paths, cli->npaths, &cli->opts, stdout);
		if (run_is_empty(run))   /* as --print says it, with what the follower read */
			print_diags(run);
		else
			report_quality(run, NULL);
		return rc;
	}
	if (mode == MODE_TUI) {
		int rc = explore(cli, run, unopened);
		if (rc != UI_NO_TTY)
			return rc;
		mode = MODE_PRINT;
	}
	if (mode == MODE_EXPORT) {
		if (run_is_empty(run)) {
			print_empty(run, cli);
			return 1;
		}
		if (compat_reads_nothing(run))   /* as --print says it */
			return print_nothing_found(run, true);
		int rc = export_view(run, &(struct export_args){ cli->export_view, cli->output, cli->sort,
								 cli->filter, cli->force });
		if (rc != 2)   /* as --print says it; a usage error says nothing of the data */
			report_quality(run, NULL);
		return rc;
	}
	struct print_opts po = print_opts_of(&cli->opts, STDOUT_FILENO);
	if (run_is_empty(run))
		print_diags(run);
	struct print_out out;
	int rc = print_report(run, print_out_begin(&out, stdout, po.ascii), &po);
	stdout_failed(print_out_end(&out));
	if (!run_is_empty(run))
		report_quality(run, NULL);
	return rc;
}

/* Every byte we wrote to stdout must have arrived: a failed write or close (ENOSPC,
 * EIO, EPIPE when SIGPIPE is ignored) ends with a message and exit 1. A closed pipe
 * with SIGPIPE at its default (`| head`) ends the process quietly before this. A closed
 * stdout (`>&-`) nothing was written to is no error (EBADF at close alone, as gnulib's
 * close_stdout: `--export -o FILE` writes nothing there). */
static int close_stdout(int rc)
{
	flush_stdout();
	bool failed = ferror(stdout) != 0;
	if (fclose(stdout) != 0 && (failed || errno != EBADF)) {
		failed = true;
		if (!stdout_err)
			stdout_err = errno;
	}
	int e = stdout_err;
	if (!failed)
		return rc;
	fprintf(stderr, "tscope-tui: write error on standard output: %s\n", strerror(e ? e : EIO));
	return 1;
}

/* Two complete runs of one family: compare mode (explorer, --print, --export). */
static int compare_mode(struct cli *cli, const struct run_identity *id, struct load_ctx *hooks,
			struct progress *prog)
{
	if (cli->opts.follow) {
		dirlist_scope_end();
		fprintf(stderr, "tscope-tui: --follow follows one run, not a comparison of two\n");
		return 2;
	}
	struct compare *c = compare_open(id, &cli->opts, hooks);
	dirlist_scope_end();
	meter_clear(&prog->m);
	enum cli_mode mode = pick_mode(cli);
	int rc = -1;
	struct run *sides[2] = { compare_side(c, 0), compare_side(c, 1) };
	bool usage = compat_refused(cli, mode, sides[0]) || compat_refused(cli, mode, sides[1]);
	/* pytscope's diff refuses the pair: every mode says so, nothing written or opened */
	bool refused = !usage && compat_diff_refused(c, mode == MODE_PRINT);
	if (usage)
		rc = 2;
	else if (mode != MODE_TUI || refused)   /* the explorer's: after it */
		note_unused_options(&cli->opts, sides, 2);
	if (refused) {
		fputs("Both run directories must contain steps.\n", stderr);
		rc = 1;
	}
	bool quality = !usage; /* --print and --export say each side's, as for one run */
	if (rc < 0 && mode == MODE_TUI) {
		rc = ui_run_compare(c, &cli->opts);
		note_unused_options(&cli->opts, sides, 2);   /* after the explorer, as for one run */
		quality = false;
	}
	if (rc < 0 && mode == MODE_EXPORT) {
		rc = export_compare_view(c, &(struct export_args){ cli->export_view, cli->output, cli->sort,
								   cli->filter, cli->force });
		quality = rc != 2;
	}
	if (rc < 0) {
		struct print_opts po = print_opts_of(&cli->opts, STDOUT_FILENO);
		struct print_out out;
		print_compare(c, id->v[0].paths[0], id->v[1].paths[0], print_out_begin(&out, stdout, po.ascii), &po);
		stdout_failed(print_out_end(&out));
		rc = 0;
	}
	for (int side = 0; quality && side < 2; side++)
		report_quality(compare_side(c, side), side ? "B" : "A");
	compare_free(c);
	return rc;
}

/* A command that loads, writes and exits (`index`, --print, --export) keeps the heap it
 * frees: blocks under 32 MB come from the heap, not from mmap (fresh pages each time, a
 * fault apiece, unmapped again when freed), and the heap grows 64 MB at a time (pages
 * count once touched). 10,000 ranks x 10 steps: 1,650 fewer page faults for `index`,
 * 1,170 for --print, about 2% of their CPU; peak RSS within 2 MB (BENCHMARKS.md). The
 * explorer keeps glibc's defaults: it gives memory back while it browses. */
static void batch_heap(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* numbers read and written with a '.': filters, CSV, JSON */
	signal(SIGXFSZ, SIG_IGN); /* a file size limit fails the write (EFBIG), reported */
	if (argc > 1 && strcmp(argv[1], "index") == 0) {
		batch_heap();
		return close_stdout(index_main(argc - 1, argv + 1));
	}
	struct cli cli;
	int rc = cli_parse(&cli, argc, argv);
	if (rc) {
		cli_free(&cli);
		return rc;
	}
	if (pick_mode(&cli) != MODE_TUI)
		batch_heap();
	switch (cli.mode) {
	case MODE_HELP: cli_usage(stdout); cli_free(&cli); return close_stdout(0);
	case MODE_VERSION: printf("tscope-tui %s\n", TSCOPE_VERSION); cli_free(&cli); return close_stdout(0);
	case MODE_LIST_VIEWS: export_list_views(stdout); cli_free(&cli); return close_stdout(0);
	case MODE_LIST_KEYS: ui_list_keys(stdout); cli_free(&cli); return close_stdout(0);
	default: break;
	}
	if (cli_check_inputs(&cli)) {
		cli_free(&cli);
		return 1;
	}
	struct progress prog = { 0 };
	meter_start(&prog.m);
	struct load_ctx hooks = { .progress = on_progress, .ud = &prog };
	struct run_identity id;
	struct load_job early = { 0 };
	dirlist_scope_begin();   /* identification and the load list each directory once */
	identify(&cli, &id, &early);
	if (refuse_empty_path(&id, &cli.opts)) {
		load_job_drop(&early);
		ui_load_end(false);
		dirlist_scope_end();
		run_identity_free(&id);
		cli_free(&cli);
		return 1;
	}
	if (compare_is_pair(&id) || id.n > 1) {
		load_job_drop(&early);
		ui_load_end(false);   /* the explorer does not follow identify()'s screen */
	}
	if (compare_is_pair(&id)) {
		rc = compare_mode(&cli, &id, &hooks, &prog);
		run_identity_free(&id);
		cli_free(&cli);
		return close_stdout(rc);
	}
	if (id.n > 1) {
		dirlist_scope_end();
		refuse_mixed(&id);
		rc = refused_mode(&cli, run_identity_refusal(&id, &cli.opts));
		run_identity_free(&id);
		cli_free(&cli);
		return close_stdout(rc);
	}
	int quit_rc;
	struct run *run = load(id.paths, id.npaths, &cli.opts, pick_mode(&cli) == MODE_TUI, &quit_rc, &early);
	dirlist_scope_end();   /* later listings (follow mode, the folder picker) are fresh */
	if (run)
		run_identity_notes(&id, 0, run);
	run_identity_free(&id);
	char why[1024];
	struct run *refused = run ? run_identity_mismatch(run, why, sizeof(why)) : NULL;
	/* the loading screen's terminal goes on to the explorer, or is restored first */
	ui_load_end(run && !refused && (!run_is_empty(run) || cli.opts.follow));
	if (refused) {
		refuse_lines(why);
		run_free(run);
		rc = refused_mode(&cli, refused);
		cli_free(&cli);
		return close_stdout(rc);
	}
	if (!run) {
		cli_free(&cli);
		return quit_rc;
	}
	rc = run_mode(&cli, run, NULL);
	run_free(run);
	cli_free(&cli);
	return close_stdout(rc);
}
