/* SPDX-License-Identifier: MIT */
/* load_notes.h: private to the pytscope loader (load.c) and its notes on record values
 * (load_notes.c). */
#ifndef MODEL_STEPS_LOAD_NOTES_H
#define MODEL_STEPS_LOAD_NOTES_H

#include "model/diag.h"

/* Where a note goes: the run's list, the file, its line and rank. */
struct note_at {
	struct diag_list *diags;
	const char *path;
	long line;
	int rank;
};

/* What a file's notes said so far (the once-a-file ones), and whether the record before
 * had a phase. Zero at the start of a file. */
struct steps_notes {
	bool bad_phase_said;  /* a phase that is not a duration was diagnosed */
	bool bad_memory_said; /* a non-finite memory value was diagnosed */
	bool back_said;       /* a step number below the one before was noted */
	bool again_said;      /* a step logged again right after itself was noted */
	bool bare_said;       /* ... in a record without phases */
	bool prev_phased;     /* the record before had a phase */
};

/* The first phase of the file that is not a duration (x: NaN, infinite, negative): a
 * warning, once a file. */
void steps_note_phase(struct steps_notes *n, struct note_at at, const char *key, size_t len, double x);
/* The first memory value of the file that is not finite: a warning, once a file. */
void steps_note_memory(struct steps_notes *n, struct note_at at, const char *key, size_t len, double x);
/* A record of step `step` after one of step `before` (<= step), phased: it has a phase,
 * prev_phased: the record before had one: noted once a file and kind (load.c
 * check_order). */
void steps_note_order(struct steps_notes *n, struct note_at at, long step, long before, bool phased,
		      bool prev_phased);
/* A timestamp that is not a number (number false: a string, null, ...; else x is NaN or
 * infinite): a warning on its line; the record is kept without a timestamp. */
void steps_note_timestamp(struct note_at at, bool number, double x);

/* A tail resumed after the records [0, pos) of rank r came from path (the index, a
 * load before following it): which once-a-file notes those records gave (the run's
 * diagnostics about path and rank hold them: the index keeps them) and whether record
 * pos - 1 has a phase, so the bytes after give what a plain load of the file gives. */
struct rank_steps;
void steps_notes_recall(struct steps_notes *n, struct diag_list *diags, const char *path, int rank,
			const struct rank_steps *r, size_t pos);

#endif
