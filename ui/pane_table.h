/* SPDX-License-Identifier: MIT */
/* pane_table.h: the parts of the table pane (pane_table.c) kept in files of their own:
 * its `i` legend (pane_table_legend.c). Not for other panes. */
#ifndef UI_PANE_TABLE_H
#define UI_PANE_TABLE_H

#include <stdbool.h>
#include "model/table.h"
#include "ui/legend.h"

/* The legend of table t, opened for view `view` (NULL: none; its help heads it): the
 * view, each column's meaning, the glossary terms its columns use. cmp: compare mode
 * (an onset column is B's). */
void table_pane_legend(const struct table *t, const char *view, bool cmp, struct legend *l);

#endif
