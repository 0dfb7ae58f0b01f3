/* SPDX-License-Identifier: MIT */
/* follow_events.h: private to the follower (load_follow.c): what it saw happen to the
 * followed files (a rank reloaded, appeared or gone, a file that cannot be read, a trace
 * that appeared), kept as findings the live list shows and --print --follow prints once.
 *
 * CONTRACT.
 * - follow_event() queues an event of the current poll; follow_events_flush(), once a
 *   poll, keeps what was queued, in order. Of the events of one id and kind (the text
 *   without what differs from rank to rank) in one poll, up to FOLLOW_FOLD_AT - 1 are
 *   kept one by one; more are one entry naming how many and which ranks ("80 ranks
 *   (0-79): steps.jsonl was replaced; ..."), never dropped.
 * - At most FOLLOW_EVENTS_KEPT entries are kept; past them one more entry counts the
 *   events not listed and says the latest, its evidence item changing with each (a
 *   follower printing new findings prints it again): nothing goes unsaid.
 * - last holds the text of the latest entry kept; total counts the events queued (a
 *   change in it is a change in what the live findings say). The sweep's reload entry
 *   (follow_sweep.h) goes into list and last directly.
 * - An event that no longer stands (a rank dir gone is back) is withdrawn by id and rank:
 *   an entry of that rank alone no longer stands (follow_events_stands: the live list
 *   leaves it out; entries never move, the sweep's holds its place), a folded one names
 *   the ranks left. */
#ifndef MODEL_STEPS_FOLLOW_EVENTS_H
#define MODEL_STEPS_FOLLOW_EVENTS_H

#include "model/findings.h"

enum { FOLLOW_FOLD_AT = 5, FOLLOW_EVENTS_KEPT = 64 };

struct follow_queued;
struct follow_entry;

struct follow_events {
	struct finding_list list;     /* the entries kept */
	struct follow_queued *q;      /* this poll's, not kept yet */
	size_t nq, qcap;
	size_t total;                 /* events queued so far */
	size_t kept;                  /* entries of list this module added (not the sweep's) */
	size_t dropped;               /* events past FOLLOW_EVENTS_KEPT */
	long over;                    /* the entry counting them (-1: none yet) */
	struct follow_entry *ent;     /* by place in list: the ranks of an entry kept here */
	size_t nent, entcap;
	char last[512];
};

void follow_events_init(struct follow_events *e);
/* An event of rank (-1: of no rank): text says it whole ("rank 3: steps.jsonl shrank (10 ->
 * 5 bytes); ..."), kind the same without what differs from rank to rank ("steps.jsonl
 * shrank; ..."), NULL: never folded. id is a static string. */
void follow_event(struct follow_events *e, const char *id, enum severity sev, long rank, const char *kind,
		  const char *text);
/* Keep this poll's events (contract above); true when any was queued. */
bool follow_events_flush(struct follow_events *e);
/* The kept events of id about rank no longer stand (contract above). */
void follow_events_withdraw(struct follow_events *e, const char *id, long rank);
/* Entry i of list still stands. */
bool follow_events_stands(const struct follow_events *e, size_t i);
void follow_events_free(struct follow_events *e);

#endif
