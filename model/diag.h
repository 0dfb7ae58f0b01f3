/* SPDX-License-Identifier: MIT */
/* diag.h: data-quality diagnostics. Loaders never print or exit: every bad record,
 * unreadable file or suspicious value becomes a struct diag appended to the run's
 * list (file, line or byte offset, rank, reason), which the Sources pane, --print and
 * `--export sources` show. Thread-safe: loaders on worker threads may append at once. */
#ifndef MODEL_DIAG_H
#define MODEL_DIAG_H

#include <pthread.h>
#include "model/base.h"

enum diag_level { DIAG_INFO, DIAG_WARN, DIAG_ERROR };

struct diag {
	enum diag_level level;
	char *file;        /* owned; path as given, unsanitized (sanitize when shown) */
	long line;         /* 1-based line number, or -1 */
	long long offset;  /* byte offset, or -1 */
	int rank;          /* rank, or -1 */
	char *msg;         /* owned */
	/* Who added it, static: the input family whose loaders or finalize did (a reload of
	 * the family replaces them, run_reload_family), or a run-level tag; NULL: untagged. */
	const char *family;
	size_t seq;        /* its number in the order added: kept when others are removed */
};

/* At most DIAG_KEEP diagnostics are stored; later ones are only counted in `dropped`. */
#define DIAG_KEEP 10000

struct diag_list {
	struct diag *v;
	size_t n, cap;
	size_t dropped;
	size_t added;      /* diagnostics stored so far: the next one's seq */
	pthread_mutex_t lock;
};

void diag_list_init(struct diag_list *l);
void diag_list_free(struct diag_list *l);
/* Append a diagnostic; file may be NULL. Copies every string. */
void diag_add(struct diag_list *l, enum diag_level level, const char *file, long line,
	      long long offset, int rank, const char *fmt, ...) PRINTF_LIKE(7, 8);
/* Tag the diagnostics from index `from` on that have no tag yet with family (static). */
void diag_tag(struct diag_list *l, size_t from, const char *family);
/* Remove the diagnostics for which drop(d, ud) is true, keeping the others' order. An
 * index into the list moves then: one kept across a removal is a seq (diag_since). */
void diag_remove_if(struct diag_list *l, bool (*drop)(const struct diag *d, const void *ud), const void *ud);
/* The index of the first diagnostic added as seq or later (l->n when none is), on the
 * thread that adds and removes them. */
size_t diag_since(const struct diag_list *l, size_t seq);
/* "file:line: msg" / "file@offset: msg" / "file: msg" into buf (unsanitized). */
void diag_format(const struct diag *d, char *buf, size_t n);
const char *diag_level_name(enum diag_level level);

#endif
