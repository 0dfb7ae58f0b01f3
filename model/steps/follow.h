/* SPDX-License-Identifier: MIT */
/* follow.h: following a running job (--follow; DESIGN invariant 13). No daemon, no
 * port, no inotify dependency: every poll stat()s each rank's steps.jsonl and pread()s
 * only the bytes appended since the last poll, so it works on NFS/Lustre/GPFS where
 * the ranks write from other nodes.
 *
 * CONTRACT.
 * - follow_new() starts where the loader stopped (run->src[].consumed / .lines), so
 *   nothing loaded is read again. Of the PATHs given it follows those the run's load
 *   read (run->paths, as model/identity.h left them): one the load left out (a repeat,
 *   a file that a directory given beside it reads) is not read on its own, so a reload
 *   reads what the first load read. Call follow_poll() every interval from the thread
 *   that reads the run (the UI loop between frames, or the --print loop); it:
 *   . reads the complete lines appended to each rank's file into the step store
 *     (steps_rank_grow / steps_refresh), keeping a half-written last line for the next
 *     poll (read again only once the file's size or mtime changed: one longer than a
 *     slice does not keep the follower behind; one longer than a line may be, 64 MiB, is
 *     skipped as a load skips it and still counts as unfinished); a garbage line is
 *     skipped with its file:line diagnostic (once: it is consumed); a file that cannot
 *     be opened is diagnosed once per errno, and its source row says so, as does the row
 *     of a file whose rank dir vanished;
 *   . picks up rank{k}/ dirs and steps.jsonl files that appear later (the directory's
 *     mtime changed), loading their run.json; once rank dirs appear in a run dir, its
 *     own steps.jsonl is no longer read and rank 0 becomes rank0/'s, as a fresh load
 *     reads them (LIVE.RELOADED); a rank dir whose rank id a followed one has is read
 *     as a load reads them: the later name alone, the rank made again from its file
 *     (never one series of both), said (LIVE.RELOADED), the other named in a warning
 *     (each listing's notes on what it leaves unread replace the last one's); the note
 *     that a PATH held nothing is what a fresh open says at each listing (none once a
 *     loader claims it);
 *   . reloads a rank whose file shrank, was replaced (another inode) or rewritten in
 *     place (the bytes read before changed, or the same size with a newer mtime found
 *     at two polls running) from the start; once the file is read to its end its
 *     records are compared with those they replace (follow_records_sum): other records
 *     advance the rank and are said (LIVE.RELOADED, "a restarted job?"), the same are no
 *     advance, said as such ("the same records (not an advance)"), or not at all when
 *     only the mtime changed; a run.json read with it that names another run than the
 *     rank replaced is said in that event. What the earlier read left (its source rows,
 *     its diagnostics) is replaced, as a fresh open has it (follow_sources.h), and so is
 *     a run.json's when it is read again;
 *   . stops judging a rank whose rank dir vanished (removed, or the job made again with
 *     fewer ranks), and says so once (LIVE.RANK_GONE); its records read before stay; one
 *     whose dir is back is judged again, said (LIVE.RANK_BACK), and the event that said
 *     it gone no longer stands;
 *   . says once a steps.jsonl replaced by what cannot be read (a directory, a FIFO, a
 *     file it cannot open: LIVE.UNREADABLE, its source row and error a fresh open's),
 *     the records of the file it replaced no longer analysed; the warning that a rank
 *     whose run.json records n_steps has no record stands while its log gives none;
 *   . says once each trace (as a load finds them) that appears in a run dir followed when
 *     its listing changes, or in one of its rank dirs when that one's mtime changes
 *     (LIVE.NEW_TRACE; the rank dirs looked at in turn, each once in T/4 or 5 s,
 *     whichever is shorter), and each DASF database that appears in a followed dir
 *     (LIVE.NEW_DASF): following reads step logs and sweeps, a reopen reads them;
 *   . says each event (reload, new rank, rank gone, unreadable file, new trace) as a
 *     live finding (follow_events.h: many of one kind in one poll are one entry naming
 *     the ranks; past FOLLOW_EVENTS_KEPT entries one more counts the rest);
 *   . reads a rank's run.json again when it appears or changes (size, mtime), looked at
 *     while the rank writes no record (pytscope writes it at finish()) every T/4 or 5 s,
 *     whichever is shorter; one naming another run (name, world_size) is said
 *     (LIVE.RELOADED), never merged silently;
 *   . loads a sweep again (GenAI-Perf level dirs, NAT jobs) when the files under a PATH
 *     changed (run_tree_signature, 3 levels deep), while the run has a sweep or no
 *     steps yet; the reloads are counted in one LIVE.RELOADED entry (follow_sweep.h);
 *   . calls run_changed() when the model changed (memoized findings dropped; the step
 *     store dropped its analyses in steps_refresh).
 * - Stall rule (documented in the man page, FOLLOW MODE): threshold T = max(10 x the
 *   median step time, 2 x the longest of the ranks' usual gaps between their file's
 *   growths, the floor --stall, default 10 s). The median step time is the median over
 *   ranks of each rank's median timestamp gap over its last 16 records (one clock jump
 *   among them does not set it; the poll interval when no rank has timestamps). A rank
 *   "advances" when a poll finds new records; times are the follower's own monotonic
 *   clock (compute-node clocks are not trusted); a rank loaded before following starts
 *   last advanced when its file was last modified (its mtime's age by the login node's
 *   clock, at least 0). A rank's usual gap between growths is the median of the last 16
 *   gaps between the polls that found its file grown, those the follower watched (not
 *   one cut by a pause or a catch-up's slices): a buffered writer grows a file a burst at
 *   a time (pytscope.md 1: every 200 records, sooner when Python's 8 KiB buffer spills),
 *   and a rank between two bursts is not stalled. With at least one rank
 *   advanced within T, once a followed file was seen growing (before that, how the files
 *   grow is not known): a rank idle for more than T whose newest step is behind the
 *   advancing ranks is stalled (LIVE.STALLED_RANK, high: "rank 3 stopped at step 249,
 *   12 s ago; the others are at 380", or "rank 0 is at 380" when not all the others are;
 *   a rank with no step record idle past T likewise), unless it finished: its run.json
 *   records n_steps and its newest step is the last of them (ranks that end at different
 *   steps). With no rank advanced within T, the finish
 *   marker is a rank's run.json with n_steps (pytscope writes it at finish() only): every
 *   followed rank has it (none short of its n_steps) is state FINISHED (LIVE.FINISHED,
 *   low), whatever step each stopped at (the steps said when they differ); none has it
 *   and every rank is at the same newest step is state IDLE (LIVE.JOB_IDLE, low: paused,
 *   writing in bursts, or stopped without finishing; never finished); unless a rank has
 *   no step record, a rank of run.json's world_size has no rank dir (a run dir followed),
 *   a steps.jsonl ends in an unfinished line (no newline: a half-written record) or some
 *   ranks have the marker and others not; otherwise the job is stalled (LIVE.JOB_STALL,
 *   high, naming those ranks). follow_judge.h has the code.
 * - The live findings are owned by the follower and linked into run->live_findings,
 *   so run_findings() (Findings pane, --print) shows them; follow_free() unlinks them.
 * - follow_save_index() appends what the polls read since the last append to each run
 *   dir's index that existed when following started, as a delta segment
 *   (model/index/index.h DELTAS: the new records' columns, written atomically; the
 *   next open reads them instead of parsing the new lines); every INDEX_DELTA_MAX
 *   deltas, or when the index does not hold what the follower last wrote, the index
 *   is rewritten whole instead (compaction). follow_poll() calls it every
 *   opts.index_every seconds or opts.index_bytes bytes read, whichever comes first
 *   (not while a big append is read in slices); call follow_stop_index() when following
 *   stops (the explorer quits, --print --follow ends). Not with --ranks or
 *   --no-index, nor when nothing new was read; a rank reloaded or added while
 *   following leaves the index alone (stale: the next open rebuilds it). Returns the
 *   run dirs whose index was written.
 * - Time is passed in (seconds, CLOCK_MONOTONIC) so tests drive it. */
#ifndef MODEL_STEPS_FOLLOW_H
#define MODEL_STEPS_FOLLOW_H

#include "model/findings.h"
#include "model/run.h"

struct follow;

struct follow_opts {
	double interval;      /* seconds between polls (--interval, default 1) */
	double stall_floor;   /* seconds (--stall, default 10) */
	/* Bytes one poll reads at most (0: no limit). A poll that stops there is "behind"
	 * (follow_behind): the next poll goes on where it stopped, files in turn (a file
	 * cut mid-line is read again from its last complete line), so a big append is read
	 * in slices and the caller handles keys between them. While behind, the stall rule
	 * judges nothing (ranks not read yet are not idle). */
	long long slice;
	/* Append to the index (follow_save_index) every index_every seconds or index_bytes
	 * read; 0: TSCOPE_INDEX_EVERY="SECONDS[,MIB]", else FOLLOW_INDEX_EVERY s and
	 * FOLLOW_INDEX_MIB MiB. */
	double index_every;
	long long index_bytes;
	/* The analysis summary (analysis_index.h FOLLOW MODE) costs O(records) to write:
	 * true writes it only at follow_stop_index() (the explorer: a periodic save must
	 * not hold the UI thread for it; a follower killed before its stop leaves a
	 * summary the next open reports and recomputes); false with every save. */
	bool summary_at_stop;
};
#define FOLLOW_INDEX_EVERY 60.0
#define FOLLOW_INDEX_MIB 64.0

enum follow_state { FOLLOW_WAITING, FOLLOW_RUNNING, FOLLOW_IDLE, FOLLOW_STALLED, FOLLOW_FINISHED };

/* follow_poll() result bits */
enum { FOLLOW_GREW = 1, FOLLOW_RELOADED = 2, FOLLOW_FINDINGS = 4 };

/* Whether following has anything to read: the run holds pytscope step logs or run.json
 * (a job that has not written a step yet), a GenAI-Perf sweep or NAT sizing jobs (written
 * a level or a job at a time: loaded again as they change), or nothing yet: no file (the
 * job has not started, or made its rank dirs and wrote nothing in them yet) or no data.
 * Traces, Cerebras and DASF files are written whole, at the end. */
bool follow_applies(const struct run *run);
/* Follow the pytscope data under paths (run dirs or steps.jsonl files). */
struct follow *follow_new(struct run *run, const char *const *paths, size_t npaths,
			  const struct follow_opts *o, double now);
unsigned follow_poll(struct follow *f, double now);
size_t follow_save_index(struct follow *f);
/* The last save when following stops: follow_save_index() and every summary left. */
size_t follow_stop_index(struct follow *f);
void follow_free(struct follow *f);

/* Seconds, CLOCK_MONOTONIC. */
double follow_clock(void);
enum follow_state follow_state(const struct follow *f);
const char *follow_state_name(enum follow_state s);  /* "waiting" "running" "idle" "stalled" "finished" */
const struct finding_list *follow_findings(const struct follow *f);
double follow_interval(const struct follow *f);
/* The stall threshold T of the last poll, in seconds. */
double follow_threshold(const struct follow *f);
/* Seconds since a poll last found a new record (-1: none yet). */
double follow_newest_age(const struct follow *f, double now);
/* Rank id is stalled (LIVE.STALLED_RANK) at the last poll; how many ranks are. */
bool follow_rank_stalled(const struct follow *f, int rank);
size_t follow_nstalled(const struct follow *f);
/* The last poll stopped at opts.slice bytes with more to read; *left (optional): bytes
 * known to be left (file sizes at their last stat minus what is read). */
bool follow_behind(const struct follow *f, long long *left);
/* The latest reload / new rank / unreadable file event as one line ("" when none). */
const char *follow_last_event(const struct follow *f);
/* Traces that appeared while following (LIVE.NEW_TRACE): not read, a reopen reads them. */
size_t follow_new_traces(const struct follow *f);
/* A followed sweep has no step records, ranks or stalls: what the status row says of it,
 * "sweep, 3 files, last change 12 s ago" (the age by the follower's clock, now), into
 * buf. False (buf untouched) when the run holds no sweep. */
bool follow_sweep_status(const struct follow *f, double now, char *buf, size_t n);

#endif
