/* SPDX-License-Identifier: MIT */
/* pane_table_legend.c: the table pane's `i` legend (pane_table.h): the view and its
 * row count, the title it was built with when that says more (what it could not
 * judge), each column's meaning (its role or the view's doc, its unit and type), then
 * the glossary terms its title and columns use. */
#include <stdio.h>
#include <string.h>
#include "model/registry.h"
#include "model/units.h"
#include "ui/pane_table.h"

/* What a column holds: its role (an onset in compare mode is B's) or the view's doc,
 * its unit (model/units) and its type. */
static void col_meaning(const struct table_col *c, bool cmp, char *buf, size_t n)
{
	static const char *const role_text[] = {
		[COL_ROLE_NONE] = "",
		[COL_ROLE_RANK] = "rank id (Enter opens the rank; n/N land on it); ",
		[COL_ROLE_STEP] = "step number; ",
		[COL_ROLE_SEVERITY] = ("severity: high, med or low, coloured as below; not judged (dim): a rule that "
				       "could not judge the run; "),
		[COL_ROLE_TITLE] = "the finding (title, detail and fix in full below the table); ",
		[COL_ROLE_NAME] = "the row's name; ",
		[COL_ROLE_TIME_LOST] = "the rank's time lost; ",
		[COL_ROLE_ONSET] = "first step of its longest critical-path stretch; ",
		[COL_ROLE_GROUP_WORST] = "a node row shows its rank highest in this, of the ranks the filter keeps; ",
	};
	const char *unit = units_describe(c->unit);
	const char *type = c->type == COL_TEXT ? "text" : c->type == COL_INT ? "integer" : "number";
	const char *what = *role_text[c->role] ? role_text[c->role] : c->doc ? c->doc : "";
	if (c->role == COL_ROLE_ONSET && cmp)   /* diff_ranks' onset_b (man page, diff_ranks) */
		what = "first step of the regression in B; ";
	snprintf(buf, n, "%s%s%s%s", what, unit ? unit : type, unit ? ", " : "", unit ? type : "");
}

void table_pane_legend(const struct table *t, const char *view, bool cmp, struct legend *l)
{
	const struct view_def *vd = view ? registry_view(view) : NULL;
	char buf[512], words[2048];
	snprintf(buf, sizeof(buf), "Table: %s", t->name);
	legend_head(l, buf);
	const char *what = vd && vd->help ? vd->help : t->title ? t->title : t->name;
	snprintf(buf, sizeof(buf), "%s. %zu row%s%s. Numbers are shown at the view's precision; e exports and Y copies "
		 "them in full.", what, t->nrow, t->nrow == 1 ? "" : "s", t->filter ? ", filtered (f)" : "");
	legend_para(l, buf);
	/* the title this table was built with says what the help cannot: what it could not
	 * judge, what a figure is read on (a one-word title adds nothing) */
	if (vd && vd->help && t->title && strchr(t->title, ' '))
		legend_para(l, t->title);
	legend_head(l, "Columns");
	size_t k = snprintf(words, sizeof(words), "%s", t->title ? t->title : "");
	for (size_t c = 0; c < t->ncol; c++) {
		col_meaning(&t->col[c], cmp, buf, sizeof(buf));
		legend_key(l, t->col[c].name, buf);
		if (k < sizeof(words))
			k += (size_t)snprintf(words + k, sizeof(words) - k, " %s", t->col[c].name);
	}
	legend_terms(l, words);
}
