/* SPDX-License-Identifier: MIT */
/* table_merge.h: a stable sort by one column of rows that come as tables (the parts of a
 * view built in parts, view_def.build_next), written as CSV: each part is sorted in
 * memory and spilled (each row's key and CSV line) as one run to an unlinked temporary
 * file, and the runs are merged into the CSV. Memory: one part and a merge buffer of
 * about TABLE_MERGE_BUF bytes (at least TABLE_MERGE_RUN_MIN a run); disk: about the
 * CSV's size. The order is table_sort()'s on the parts joined: rows with equal keys
 * keep the parts' order. Nothing is left on disk, whatever stops the process. */
#ifndef MODEL_TABLE_MERGE_H
#define MODEL_TABLE_MERGE_H

#include <stdio.h>
#include "model/table.h"

#define TABLE_MERGE_BUF ((size_t)32 << 20)
#define TABLE_MERGE_RUN_MIN ((size_t)4096)

struct table_merge;

/* A merge of tables with t's columns sorted by column col (desc: descending), their
 * CSV lines written with flags (TABLE_CSV_RAW), the temporary file in directory dir.
 * NULL with errno when that file cannot be made. */
struct table_merge *table_merge_new(const struct table *t, int col, bool desc, unsigned flags, const char *dir);
/* Sort t's visible rows (table_sort) and spill them as the next run. 0, or -1 with
 * errno (the merge is then unusable). */
int table_merge_add(struct table_merge *m, struct table *t);
/* Rows spilled so far. */
size_t table_merge_rows(const struct table_merge *m);
/* Write up to `most` more rows of the merged order to f (no header; the first call ends
 * the spilling). Returns the rows written, 0 once all are, -1 with errno. */
long table_merge_write(struct table_merge *m, FILE *f, size_t most);
void table_merge_free(struct table_merge *m);

#endif
