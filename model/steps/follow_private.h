/* SPDX-License-Identifier: MIT */
/* follow_private.h: private to the follower's files (load_follow.c, follow_index.c,
 * follow_sources.c, follow_state.c): its state (the PATHs followed, a tail per followed steps.jsonl, the
 * live findings) and the index appends follow_index.c does for load_follow.c's polls
 * (follow.h CONTRACT: the index every opts.index_every seconds or opts.index_bytes bytes
 * read). */
#ifndef MODEL_STEPS_FOLLOW_PRIVATE_H
#define MODEL_STEPS_FOLLOW_PRIVATE_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "model/steps/follow.h"
#include "model/steps/follow_events.h"
#include "model/steps/follow_judge.h"
#include "model/steps/follow_sweep.h"
#include "model/steps/internal.h"

/* A rank read again from the start, its records compared with those it replaces once its
 * file is read to the end: a file touched, or replaced by a copy, gives the same records,
 * which are no advance (and, when only the mtime changed, no event). */
struct reload {
	bool on;
	bool quiet;                 /* only the mtime changed: said only when the records differ */
	size_t n;                   /* the records replaced and their follow_records_sum() */
	uint64_t sum;
	const char *how;            /* "was replaced", "shrank", ... (static) */
	char bytes[64];             /* "(10584 -> 1051 bytes)" */
	char other[200];            /* its run.json names another run: what differs, else "" */
};

/* One followed steps.jsonl. */
struct ftail {
	long rank;
	char *dir, *steps;
	size_t path;                /* the PATH it was found under (f->p) */
	struct steps_tail *tail;    /* NULL until first read by the follower */
	struct rank_steps *r;       /* the model's rank once grown or created here */
	dev_t dev;
	ino_t ino;
	bool have_id;
	bool regular;               /* the file of dev/ino was a regular file (an inode number
				     * may be reused by what replaced it) */
	int err_seen;               /* errno already reported for this file */
	bool unread;                /* a note or an error says it is missing or unreadable */
	bool gone;                  /* its rank dir vanished: not judged (rank_gone) */
	bool no_records;            /* the warning that its rank holds no record though run.json
				     * records n_steps stands (follow_note_no_records) */
	double t_adv;               /* when a poll last found new records */
	double gap[FOLLOW_GAPS];    /* the last gaps between the polls that found its file grown,
				     * those the follower watched (a ring: advanced() in load_follow.c) */
	size_t ngap;                /* gaps taken so far */
	size_t records;             /* records loaded at the last poll */
	long long size;             /* file size at the last stat */
	long long seen;             /* bytes looked at: those read, and an unfinished last line
				     * after them, read up to the size then (not read again while
				     * the size and mtime stay) */
	bool open_line;             /* the bytes read end in an over-long line skipped (the tail
				     * reads on to its newline): an unfinished last line too */
	struct reload reload;
	long long mtime;            /* its mtime then, in ns */
	bool touched;               /* that stat found the same size, a newer mtime, the bytes read
				     * unchanged: modified in place, or a write under way (poll_steps) */
	long long meta_size, meta_mtime; /* run.json as last read (size -1: absent), mtime in ns */
	long long dir_mtime;        /* its rank dir's mtime in ns at the last look (0: not looked at
				     * yet): one that changed is listed for traces (follow_note_rank_traces) */
	double meta_at;             /* when run.json was last looked at */
	bool stalled;
	long long win_at;           /* bytes read when win_crc was taken, -1: none */
	uint32_t win_crc;           /* CRC of the last KiB before win_at (an extent's tail window): a
				     * rewrite in place changes it */
};

/* (the tails array is sorted by rank id: tail_of_rank() looks them up by bsearch) */

struct fpath {
	char *path;
	struct timespec mtime;
	bool seen;
	struct index_log *log;        /* its index's log (index.h DELTAS), NULL: none */
	size_t left_out;              /* its rank files --ranks does not name (last listing) */
	bool noted;                   /* a note may say nothing was found there (run_path_note_again) */
	bool summary_due;             /* a save left its summary for the stop (summary_at_stop) */
	bool summary_rewrote;         /* ... and one of those saves rewrote the index */
};

struct follow {
	struct run *run;
	struct load_ctx ctx;
	struct follow_opts o;
	struct fpath *p;
	size_t np;
	const char **paths;           /* the p[].path strings, for follow_sweep */
	struct follow_sweep sweep;
	struct ftail *t;
	size_t nt, tcap;
	struct finding_list live;     /* linked into run->live_findings */
	struct follow_events ev;      /* reloads, new ranks, unreadable files, new traces (kept) */
	char **traces;                /* the traces and DASF databases said to have appeared */
	size_t ntraces, traces_cap;
	size_t ndasf;                 /* ... of which DASF databases */
	double dir_at;                /* when rank dirs were last looked at (follow_note_rank_traces) */
	size_t dir_next;              /* the tail whose rank dir is looked at next */
	enum follow_state state;
	double t_start, t_newest;     /* t_newest < 0: no record seen yet */
	double threshold;
	unsigned long sig;            /* signature of what the live findings say */
	bool grew;                    /* a poll read new records since the index was appended to */
	double t_saved;               /* when the index was last appended to */
	long long read_saved;         /* bytes read (follow_read_bytes) then */
	size_t next;                  /* the tail the next poll starts at (slices) */
	bool behind;                  /* the last poll stopped at the slice */
	bool catching_up;             /* the poll before this one stopped at the slice */
	double t_polled;              /* when the poll before this one ran */
	double spacing;               /* the time between the two polls before this one */
	bool grown;                   /* a followed file was seen growing: until then no rank is
				       * judged stalled (follow_judge.h) */
};

/* opts' index_every and index_bytes: TSCOPE_INDEX_EVERY="SECONDS[,MIB]" where not set
 * (default FOLLOW_INDEX_EVERY s, FOLLOW_INDEX_MIB MiB). */
void follow_index_every(struct follow_opts *o);
/* Log the run dirs that have an index, as the run holds them now. */
void follow_logs_begin(struct follow *f);
/* Bytes read from the followed files so far (their offsets summed). */
long long follow_read_bytes(const struct follow *f);
/* Append to the index when due (not while a big append is read in slices). */
void follow_save_due(struct follow *f, double now);

#endif
