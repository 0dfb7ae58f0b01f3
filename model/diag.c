/* SPDX-License-Identifier: MIT */
/* diag.c: the thread-safe diagnostics list (see diag.h). */
#include "model/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/xalloc.h"

void diag_list_init(struct diag_list *l)
{
	l->v = NULL;
	l->n = l->cap = l->dropped = l->added = 0;
	pthread_mutex_init(&l->lock, NULL);
}

void diag_list_free(struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].msg);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	pthread_mutex_destroy(&l->lock);
}

void diag_add(struct diag_list *l, enum diag_level level, const char *file, long line,
	      long long offset, int rank, const char *fmt, ...)
{
	pthread_mutex_lock(&l->lock);
	if (l->n >= DIAG_KEEP) {
		l->dropped++;
		pthread_mutex_unlock(&l->lock);
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct diag){
		.level = level,
		.file = file ? xstrdup(file) : NULL,
		.line = line,
		.offset = offset,
		.rank = rank,
		.msg = msg,
		.seq = l->added++,
	};
	pthread_mutex_unlock(&l->lock);
}

void diag_tag(struct diag_list *l, size_t from, const char *family)
{
	pthread_mutex_lock(&l->lock);
	for (size_t i = from; i < l->n; i++)
		if (!l->v[i].family)
			l->v[i].family = family;
	pthread_mutex_unlock(&l->lock);
}

void diag_remove_if(struct diag_list *l, bool (*drop)(const struct diag *d, const void *ud), const void *ud)
{
	pthread_mutex_lock(&l->lock);
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (drop(&l->v[i], ud)) {
			free(l->v[i].file);
			free(l->v[i].msg);
			continue;
		}
		l->v[k++] = l->v[i];
	}
	l->n = k;
	pthread_mutex_unlock(&l->lock);
}

size_t diag_since(const struct diag_list *l, size_t seq)
{
	size_t lo = 0, hi = l->n;   /* seq grows along the list */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void diag_format(const struct diag *d, char *buf, size_t n)
{
	const char *f = d->file ? d->file : "";
	if (d->file && d->line > 0)
		snprintf(buf, n, "%s:%ld: %s", f, d->line, d->msg);
	else if (d->file && d->offset >= 0)
		snprintf(buf, n, "%s@%lld: %s", f, d->offset, d->msg);
	else if (d->file)
		snprintf(buf, n, "%s: %s", f, d->msg);
	else
		snprintf(buf, n, "%s", d->msg);
}

const char *diag_level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_INFO: return "info";
	case DIAG_WARN: return "warning";
	case DIAG_ERROR: return "error";
	}
	return "?";
}
