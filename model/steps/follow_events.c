/* SPDX-License-Identifier: MIT */
/* follow_events.c: the follower's events (follow_events.h): queued during a poll, those of
 * one kind folded into one entry when a poll has many of them, kept as findings up to a
 * cap and counted past it; withdrawn by rank once they no longer stand. */
#include "model/steps/follow_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

struct follow_queued {
	const char *id;
	enum severity sev;
	long rank;
	char *kind, *text;  /* kind NULL: never folded */
	size_t group;       /* events of its id and kind in the poll */
	bool done;
};

/* What an entry kept here is about: its ranks, and its kind when folded. */
struct follow_entry {
	long *ids;
	size_t n;
	char *kind;         /* NULL: one rank's event */
	bool withdrawn;     /* no rank left: it no longer stands */
};

static const char DETAIL[] = "Seen while following the job (--follow).";

void follow_events_init(struct follow_events *e)
{
	memset(e, 0, sizeof(*e));
	e->over = -1;
}

void follow_event(struct follow_events *e, const char *id, enum severity sev, long rank, const char *kind,
		  const char *text)
{
	xgrow((void **)&e->q, &e->qcap, e->nq + 1, sizeof(*e->q));
	e->q[e->nq++] = (struct follow_queued){ .id = id, .sev = sev, .rank = rank, .text = xstrdup(text),
						.kind = kind && rank >= 0 ? xstrdup(kind) : NULL };
	e->total++;
}

/* Past the cap: the entry that counts the events not listed says the latest, text. */
static void count_over(struct follow_events *e, const char *id, enum severity sev, const char *text)
{
	e->dropped++;
	char title[sizeof(e->last) + 96];
	snprintf(title, sizeof(title), "%zu more event%s not listed (the list keeps %d); the latest: %s", e->dropped,
		 e->dropped == 1 ? "" : "s", FOLLOW_EVENTS_KEPT, text);
	struct evidence ev = evidence_none();
	ev.item = (long)(e->list.n + e->dropped);   /* another item each time: printed again */
	if (e->over < 0) {
		e->over = (long)e->list.n;
		findings_add(&e->list, id, sev, title, DETAIL, "", ev);
		return;
	}
	struct finding *f = &e->list.v[e->over];
	free(f->id);
	free(f->title);
	f->id = xstrdup(id);
	f->title = xstrdup(title);
	f->severity = sev;
	f->ev = ev;
}

/* Keep an event as an entry: of rank (-1: of none, or folded: ids[0, n) of kind). */
static void keep(struct follow_events *e, const char *id, enum severity sev, long rank, const char *text,
		 const long *ids, size_t n, const char *kind)
{
	snprintf(e->last, sizeof(e->last), "%s", text);
	if (e->kept >= FOLLOW_EVENTS_KEPT) {
		count_over(e, id, sev, text);
		return;
	}
	struct evidence ev = evidence_none();
	ev.item = (long)e->list.n;   /* tells repeated events of one rank apart */
	if (rank >= 0) {
		ev.kind = EV_RANK;
		ev.rank = (int)rank;
	}
	findings_add(&e->list, id, sev, text, DETAIL, "", ev);
	e->kept++;
	xgrow((void **)&e->ent, &e->entcap, e->list.n, sizeof(*e->ent));
	memset(e->ent + e->nent, 0, (e->list.n - e->nent) * sizeof(*e->ent));   /* the sweep's: none */
	e->nent = e->list.n;
	struct follow_entry *x = &e->ent[e->nent - 1];
	x->n = rank >= 0 ? 1 : n;
	x->ids = xmalloc((x->n ? x->n : 1) * sizeof(*x->ids));
	if (x->n)
		memcpy(x->ids, rank >= 0 ? &rank : ids, x->n * sizeof(*x->ids));
	x->kind = kind ? xstrdup(kind) : NULL;
}

static bool same_kind(const struct follow_queued *a, const struct follow_queued *b)
{
	return a->kind && b->kind && strcmp(a->id, b->id) == 0 && strcmp(a->kind, b->kind) == 0;
}

/* By id and kind (the unfolded last), then the order queued. */
static int cmp_queued(const void *pa, const void *pb, void *ud)
{
	const struct follow_queued *q = ud, *a = &q[*(const size_t *)pa], *b = &q[*(const size_t *)pb];
	int c = (a->kind == NULL) - (b->kind == NULL);
	if (!c && a->kind) {
		c = strcmp(a->id, b->id);
		c = c ? c : strcmp(a->kind, b->kind);
	}
	return c ? c : (a < b ? -1 : a > b);
}

static int cmp_long(const void *pa, const void *pb)
{
	long a = *(const long *)pa, b = *(const long *)pb;
	return (a > b) - (a < b);
}

/* ids[0, n) (sorted, distinct) as "0-69, 75, 77" into buf, runs of consecutive ids as
 * ranges, cut with ", ..." where the next would not fit. */
static void ranks_text(const long *ids, size_t n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		char run[48];
		if (j > i)
			snprintf(run, sizeof(run), "%s%ld-%ld", i ? ", " : "", ids[i], ids[j]);
		else
			snprintf(run, sizeof(run), "%s%ld", i ? ", " : "", ids[i]);
		if (used + strlen(run) + 6 > len) {
			snprintf(buf + used, len - used, ", ...");
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s", run);
		i = j + 1;
	}
}

/* A folded entry's text: "80 ranks (0-79): KIND" ("rank 3: KIND" when one is left). */
static void fold_text(const long *ids, size_t n, const char *kind, char *buf, size_t len)
{
	char list[112];
	ranks_text(ids, n, list, sizeof(list));
	if (n == 1)
		snprintf(buf, len, "rank %ld: %s", ids[0], kind);
	else
		snprintf(buf, len, "%zu ranks (%s): %s", n, list, kind);
}

/* The events of q[i]'s id and kind in one entry: "80 ranks (0-79): KIND". */
static void fold(struct follow_events *e, size_t i)
{
	const struct follow_queued *x = &e->q[i];
	long *ids = xmalloc(x->group * sizeof(*ids));
	size_t n = 0;
	enum severity sev = x->sev;
	for (size_t j = i; j < e->nq && n < x->group; j++)
		if (!e->q[j].done && (j == i || same_kind(x, &e->q[j]))) {
			ids[n++] = e->q[j].rank;
			sev = e->q[j].sev < sev ? e->q[j].sev : sev;
			e->q[j].done = true;
		}
	qsort(ids, n, sizeof(*ids), cmp_long);
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (!k || ids[j] != ids[k - 1])
			ids[k++] = ids[j];
	char text[sizeof(e->last)];
	fold_text(ids, k, x->kind, text, sizeof(text));
	keep(e, x->id, sev, -1, text, ids, k, x->kind);
	free(ids);
}

bool follow_events_flush(struct follow_events *e)
{
	if (!e->nq)
		return false;
	size_t *order = xmalloc(e->nq * sizeof(*order));
	for (size_t i = 0; i < e->nq; i++)
		order[i] = i;
	qsort_r(order, e->nq, sizeof(*order), cmp_queued, e->q);
	for (size_t a = 0, b; a < e->nq; a = b) {
		for (b = a + 1; b < e->nq && same_kind(&e->q[order[a]], &e->q[order[b]]);)
			b++;
		for (size_t k = a; k < b; k++)
			e->q[order[k]].group = b - a;
	}
	free(order);
	for (size_t i = 0; i < e->nq; i++) {
		if (e->q[i].done)
			continue;
		if (e->q[i].group >= FOLLOW_FOLD_AT)
			fold(e, i);
		else
			keep(e, e->q[i].id, e->q[i].sev, e->q[i].rank, e->q[i].text, NULL, 0, NULL);
	}
	for (size_t i = 0; i < e->nq; i++) {
		free(e->q[i].kind);
		free(e->q[i].text);
	}
	e->nq = 0;
	return true;
}

void follow_events_withdraw(struct follow_events *e, const char *id, long rank)
{
	for (size_t i = 0; i < e->nent; i++) {
		struct follow_entry *x = &e->ent[i];
		if (!x->n || strcmp(e->list.v[i].id, id) != 0)
			continue;
		size_t k = 0;
		for (size_t j = 0; j < x->n; j++)
			if (x->ids[j] != rank)
				x->ids[k++] = x->ids[j];
		if (k == x->n)
			continue;
		x->n = k;
		x->withdrawn = k == 0;
		if (k && x->kind) {
			char text[sizeof(e->last)];
			fold_text(x->ids, k, x->kind, text, sizeof(text));
			free(e->list.v[i].title);
			e->list.v[i].title = xstrdup(text);
		}
	}
}

bool follow_events_stands(const struct follow_events *e, size_t i)
{
	return i >= e->nent || !e->ent[i].withdrawn;
}

void follow_events_free(struct follow_events *e)
{
	for (size_t i = 0; i < e->nq; i++) {
		free(e->q[i].kind);
		free(e->q[i].text);
	}
	free(e->q);
	for (size_t i = 0; i < e->nent; i++) {
		free(e->ent[i].ids);
		free(e->ent[i].kind);
	}
	free(e->ent);
	findings_free(&e->list);
	follow_events_init(e);
}
