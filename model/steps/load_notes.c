/* SPDX-License-Identifier: MIT */
/* load_notes.c: the pytscope loader's notes on record values (load_notes.h): a phase
 * that is not a duration, a memory value that is not finite, step numbers that repeat
 * or go back (each once a file), a timestamp that is not a number (on its line); and,
 * for a tail that resumes a file (the index, a load before following it), which of the
 * once-a-file notes the records before it gave. */
#include "model/steps/load_notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/numfmt.h"
#include "model/steps/internal.h"

/* The once-a-file notes: each message is head, what varies, tail (a resumed tail knows
 * one from the two). */
enum note_kind { NOTE_PHASE, NOTE_MEMORY, NOTE_AGAIN, NOTE_BARE, NOTE_BACK, NOTE_KINDS };

static const struct {
	enum diag_level level;
	const char *head, *tail;
} note_text[NOTE_KINDS] = {
	[NOTE_PHASE] = { DIAG_WARN, "phase \"",
			 ", not a duration (a finite number of seconds >= 0); kept as recorded, as pytscope keeps it "
			 "(sums and shares that take it are not durations either; later ones in this file are not "
			 "listed)" },
	[NOTE_MEMORY] = { DIAG_WARN, "memory \"",
			  ", not a number of bytes; the memory analysis and its rules treat it as missing (--compat "
			  "pytscope keeps it as recorded, as pytscope does; later ones in this file are not listed)" },
	[NOTE_AGAIN] = { DIAG_INFO, "step ",
			 " is logged again right after itself: several records of one step in a row (gradient "
			 "accumulation's micro-batches, say), not a resume; where the ranks align the last record of a "
			 "step counts, so the analyses across ranks weigh that record alone, not the whole step; the "
			 "series keep every record in file order (later ones in this file are not listed)" },
	[NOTE_BARE] = { DIAG_INFO, "a record without phases (scalars alone: an evaluation, say) repeats step ",
			": where the ranks align it does not replace a record of that step with phases (under "
			"--compat pytscope it does, as in pytscope); the series keep every record in file order "
			"(later ones in this file are not listed)" },
	[NOTE_BACK] = { DIAG_INFO, "step ",
			": the log repeats step numbers (a resume from a checkpoint, a restart); where the ranks "
			"align the last record of a step counts, the series keep every record in file order (later "
			"ones in this file are not listed)" },
};

static bool *note_said(struct steps_notes *n, enum note_kind k)
{
	switch (k) {
	case NOTE_PHASE: return &n->bad_phase_said;
	case NOTE_MEMORY: return &n->bad_memory_said;
	case NOTE_AGAIN: return &n->again_said;
	case NOTE_BARE: return &n->bare_said;
	default: return &n->back_said;
	}
}

/* Say note k (what: the part between its head and tail), once a file. */
static void say_once(struct steps_notes *n, struct note_at at, enum note_kind k, const char *what)
{
	bool *said = note_said(n, k);
	if (*said)
		return;
	*said = true;
	diag_add(at.diags, note_text[k].level, at.path, at.line, -1, at.rank, "%s%s%s", note_text[k].head, what,
		 note_text[k].tail);
}

/* NaN, Infinity, -Infinity as pytscope writes them; a finite x in full. */
static void value_text(double x, char *buf, size_t n)
{
	if (x != x)
		snprintf(buf, n, "NaN");
	else if (x == INFINITY || x == -INFINITY)
		snprintf(buf, n, "%sInfinity", x < 0 ? "-" : "");
	else
		numfmt_full(x, buf, n);
}

/* `KEY" is VALUE` of a phase or memory note (a new string). */
static char *key_is(const char *key, size_t len, double x)
{
	char v[32];
	value_text(x, v, sizeof(v));
	return xasprintf("%.*s\" is %s", (int)len, key, v);
}

void steps_note_phase(struct steps_notes *n, struct note_at at, const char *key, size_t len, double x)
{
	char *what = key_is(key, len, x);
	say_once(n, at, NOTE_PHASE, what);
	free(what);
}

void steps_note_memory(struct steps_notes *n, struct note_at at, const char *key, size_t len, double x)
{
	char *what = key_is(key, len, x);
	say_once(n, at, NOTE_MEMORY, what);
	free(what);
}

void steps_note_order(struct steps_notes *n, struct note_at at, long step, long before, bool phased,
		      bool prev_phased)
{
	enum note_kind k = !phased ? NOTE_BARE : step == before ? NOTE_AGAIN : NOTE_BACK;
	/* said already (nothing to format for each record of a resumed log), or an
	 * evaluation's scalars, then the step: no news */
	if (*note_said(n, k) || (k == NOTE_AGAIN && !prev_phased))
		return;
	char what[64];
	if (k == NOTE_AGAIN)
		snprintf(what, sizeof(what), "%ld", step);
	else
		snprintf(what, sizeof(what), "%ld%s%ld", step, phased ? " follows step " : " after step ", before);
	say_once(n, at, k, what);
}

void steps_note_timestamp(struct note_at at, bool number, double x)
{
	char v[32];
	if (number)
		value_text(x, v, sizeof(v));
	diag_add(at.diags, DIAG_WARN, at.path, at.line, -1, at.rank, "value of \"timestamp\" is %s%s; the record is "
		 "kept without a timestamp", number ? v : "not a number", number ? ", not a number of seconds" : "");
}

static bool starts_with(const char *s, const char *head)
{
	return strncmp(s, head, strlen(head)) == 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && strcmp(s + n - k, tail) == 0;
}

/* Record pos of r has a phase value. */
static bool record_phased(const struct rank_steps *r, size_t pos)
{
	struct steps_model *m = r->m;
	bool phased = false;
	double x;
	pthread_mutex_lock(&m->lock); /* loader threads may intern metrics meanwhile */
	for (size_t i = 0; i < r->ncol && !phased; i++)
		phased = m->metric[i].kind == METRIC_PHASE && store_rank_value(r, (int)i, pos, &x);
	pthread_mutex_unlock(&m->lock);
	return phased;
}

void steps_notes_recall(struct steps_notes *n, struct diag_list *diags, const char *path, int rank,
			const struct rank_steps *r, size_t pos)
{
	*n = (struct steps_notes){ .prev_phased = pos > 0 && record_phased(r, pos - 1) };
	pthread_mutex_lock(&diags->lock);
	for (size_t i = 0; i < diags->n; i++) {
		const struct diag *d = &diags->v[i];
		if (d->rank != rank || !d->file || strcmp(d->file, path) != 0)
			continue;
		for (int k = 0; k < NOTE_KINDS; k++)
			if (d->level == note_text[k].level && starts_with(d->msg, note_text[k].head) &&
			    ends_with(d->msg, note_text[k].tail))
				*note_said(n, (enum note_kind)k) = true;
	}
	pthread_mutex_unlock(&diags->lock);
}
