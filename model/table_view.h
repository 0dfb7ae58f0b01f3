/* SPDX-License-Identifier: MIT */
/* table_view.h: between table.c and table_groups.c only: re-deriving a table's view. */
#ifndef MODEL_TABLE_VIEW_H
#define MODEL_TABLE_VIEW_H

#include "model/table.h"

/* The view again: the filter, the sort, then, while grouped, the groups' tree (table.c). */
void table_view_apply(struct table *t);
/* The groups' tree over the filtered, sorted view (table_groups.c; struct table). */
void table_groups_apply(struct table *t);

#endif
