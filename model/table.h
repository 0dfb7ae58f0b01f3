/* SPDX-License-Identifier: MIT */
/* table.h: a view is a table in the model. Columns (name, type, display precision),
 * rows of cells (a number or text, each with a presence flag so missing is never 0),
 * one model reference per row for drill-down, plus a sort and a filter that produce
 * the visible row order. Panes draw a table, `--export` and the interactive `e` write
 * the same table through table_write_csv(), so an export is exactly what is on screen
 * (visible rows, in order) in full precision.
 *
 * Ownership: the table owns every string in it. Text cells are sanitized when set
 * (text_sanitize), so every consumer (curses, CSV, --print) receives safe text. */
#ifndef MODEL_TABLE_H
#define MODEL_TABLE_H

#include <stdio.h>
#include "model/base.h"
#include "model/units.h"

enum col_type { COL_TEXT, COL_INT, COL_NUM };

/* What a column means, so generic code (panes, drill-down, stragglers) finds it by
 * role, never by name. At most one column of a table has a given role, but for
 * COL_ROLE_SEVERITY, which says how cells sort and filter (diff_findings' severity_a and
 * severity_b) and is never looked up. */
enum col_role {
	COL_ROLE_NONE,
	COL_ROLE_RANK,        /* a rank id: Enter and n/N land on it */
	COL_ROLE_STEP,        /* a step number */
	COL_ROLE_SEVERITY,    /* "high" / "med" / "low": coloured and sorted by severity */
	COL_ROLE_TITLE,       /* a finding's title: the detail box highlights it */
	COL_ROLE_NAME,        /* the row's name (function, kernel, config) */
	COL_ROLE_TIME_LOST,   /* seconds lost by the row's rank */
	COL_ROLE_ONSET,       /* the step at which the row's rank turned slow */
	COL_ROLE_GROUP_WORST, /* the figure a row group's representative is the highest in (groups.h:
			       * a node's worst rank, by mean compute) */
};

struct table_col {
	char *name;          /* header; also the CSV column name and the --sort/--filter key */
	enum col_type type;
	enum col_role role;
	int width;           /* preferred display width in columns */
	int prec;            /* COL_NUM display decimals; CSV has full precision */
	enum unit unit;      /* what the values are in (from the name, see units_from_name,
			      * or table_col_unit); the screen shows them with it */
	bool right;          /* right-align when drawn */
	int prio;            /* importance on a narrow screen: after the frozen first column,
			      * higher prio columns are shown first (0: ordinary) */
	const char *doc;     /* what the column holds when neither its name nor its role says
			      * (static text, not owned; the legend shows it), or NULL */
};

struct table_cell {     /* 32 bytes */
	double num;          /* COL_INT / COL_NUM value */
	long long exact;     /* the exact integer when is_int (step numbers above 2^53) */
	char *text;          /* COL_TEXT value (sanitized, owned) */
	bool is_int;         /* set by table_set_int: exact holds the value */
	bool present;        /* false: missing, shown as "-" and written as an empty CSV cell */
};

struct table {
	char *name;          /* view name, e.g. "ranks" */
	char *title;         /* human title */
	char *empty_note;    /* NULL, or what a view with no row means (table_set_empty_note) */
	char *note;          /* NULL, or what the rows leave out or could not judge, for a reader
			      * without the title (table_set_note): --export says it on stderr */
	struct table_col *col;
	size_t ncol;
	struct table_cell *cell; /* row-major, nrow * ncol */
	long *ref;           /* per row: model reference (rank id, finding index, ...) */
	size_t nrow, rowcap;
	size_t *view;        /* visible rows (filter + sort applied), nview entries */
	size_t nview;
	int sort_col;        /* -1: insertion order */
	bool sort_desc;
	char *filter;        /* NULL or the active filter, as text (shown and editable) */
	struct table_term *terms;  /* the active filter, parsed (table.c) */
	size_t nterms;
	/* Optional row groups (ranks by node, model/groups.h; table_set_groups). While
	 * grouped, the view is a tree: a closed group is one row, its worst visible row (its
	 * representative when the filter keeps it, else its kept row highest in the
	 * COL_ROLE_GROUP_WORST column), at that row's place, so a sorted column reads in
	 * order; an open group's visible rows together at the place of its first. Not
	 * grouped: the plain view. */
	struct groups *groups;
	int group_col;       /* the column naming the group */
	bool grouped;
	bool *gopen;         /* per group */
	size_t *gkept;       /* per group, while grouped: its rows the filter keeps */
	bool *gworst;        /* per group, while grouped: the row a closed group shows is known to be
			      * the worst it keeps (it has the COL_ROLE_GROUP_WORST figure; without
			      * such a column, it is the representative) */
	bool partial;        /* the first rows of a view built in parts, the rest not held
			      * (an export of it is not the whole view) */
};

/* One term of a structured filter (AND of terms). */
enum filter_op {
	FILTER_HAS,          /* case-insensitive substring (numbers: of their display text) */
	FILTER_EQ,           /* text: case-insensitive glob; numbers: == */
	FILTER_NE,
	FILTER_LT, FILTER_LE, FILTER_GT, FILTER_GE,
	FILTER_IS,           /* text: exactly equal (no glob); numbers: == */
};

struct filter_term {
	int col;             /* column index; -1: any text column */
	enum filter_op op;
	bool neg;            /* NOT of the term */
	const char *text;    /* operand (copied); NULL for a number-only term */
	double num;          /* numeric operand when text is NULL */
};

struct groups;

struct table *table_new(const char *name, const char *title);
/* What the table with no row means, shown instead of "no rows" (a copy is kept): an
 * empty findings list that is no verdict on everything, say. */
void table_set_empty_note(struct table *t, const char *note);
/* What the rows leave out or could not judge ("10 steps left out ..."), said beside an
 * export of the view (a copy is kept; NULL: nothing). */
void table_set_note(struct table *t, const char *note);
void table_free(struct table *t);
/* Add a column; returns its index. Columns must be added before rows. */
int table_add_col(struct table *t, const char *name, enum col_type type, int width, int prec);
/* Append a row with every cell missing; returns its index. It is visible until the
 * next table_sort/table_filter call re-derives the view. */
size_t table_add_row(struct table *t, long ref);
/* Append the rows of src (built with the same columns: a later part of the same view)
 * to t, visible as table_add_row makes them, and free src. */
void table_append_take(struct table *t, struct table *src);
void table_set_num(struct table *t, size_t row, int col, double v);
/* Sets the cell only when present; otherwise leaves it missing. */
void table_set_num_opt(struct table *t, size_t row, int col, double v, bool present);
void table_set_text(struct table *t, size_t row, int col, const char *s);
/* An integer kept exact (num holds its nearest double for sorting and filtering). */
void table_set_int(struct table *t, size_t row, int col, long long v);
void table_set_int_opt(struct table *t, size_t row, int col, long long v, bool present);
const struct table_cell *table_cell(const struct table *t, size_t row, int col);

/* Set the unit of column col's values (table_add_col takes it from the name). */
void table_col_unit(struct table *t, int col, enum unit u);
/* Say what column col holds (doc: static text ending "; ", kept by pointer). */
void table_col_doc(struct table *t, int col, const char *doc);
/* Mark column col as important (prio > 0) so it survives narrow screens. */
void table_col_prio(struct table *t, int col, int prio);
/* Column index by name (case-insensitive), or -1. */
int table_col_index(const struct table *t, const char *name);
/* Give column col a role (see enum col_role); the index of the column with a role, or -1. */
void table_set_role(struct table *t, int col, enum col_role role);
int table_col_role(const struct table *t, enum col_role role);
/* Stable sort of the visible rows by col; missing values always sort last. col < 0
 * restores insertion order. */
void table_sort(struct table *t, int col, bool desc);
/* Sort by a --sort SPEC: [-|+]COL, '-' descending; COL may be quoted with '...' or "..."
 * as --filter takes it (-'Duration (s)'). Returns 0, or -1 with a message in err naming an
 * unknown column or an unclosed quote (the sort is unchanged). */
int table_sort_spec(struct table *t, const char *spec, char *err, size_t errn);
/* The order table_sort() gives two cells of a column of this type: <0, 0, >0. A
 * missing cell after any other and NaN after any number, whatever desc. */
int table_cell_cmp(const struct table_cell *x, const struct table_cell *y, enum col_type type, bool desc);
/* Filter expression, AND of whitespace/comma separated terms:
 *   COL=VALUE  COL!=VALUE  COL<N  COL<=N  COL>N  COL>=N  COL~TEXT  TEXT  !TERM
 * '=' on text is a case-insensitive glob, quoted or not ([ ] * ? match; a backslash
 * makes the next character literal: 'a b\[1]\*'); '~' and a bare TEXT are case-insensitive
 * substring matches (bare TEXT searches every text column; on a number '~' matches its
 * full-precision CSV text). < <= > >= compare numbers, and on a severity column
 * (COL_ROLE_SEVERITY) the order low < med < high; on other text they are an error.
 * '=' and '!=' with "-" or "" select missing (present) cells
 * of any column. A column name or value may be quoted with '...' or "..." (spaces,
 * commas and operators inside are literal): 'Duration (s)'>1, node='node 1'. A term
 * with an operator but no column, an unknown column, a non-number for a numeric
 * comparison or an unclosed quote is an error naming it. NULL/"" clears the filter.
 * Returns 0, or -1 with a message in err (the previous filter stays). */
int table_filter(struct table *t, const char *expr, char *err, size_t errn);
/* Why the active filter may keep no row: a '=' term whose value is a pattern that a cell
 * of its column holds as written ("'a b[1]*' is a pattern: [ ] * ? match; escape them
 * with \ to match them as written ('a b\[1]\*')"), in buf. false when there is none. */
bool table_filter_hint(const struct table *t, char *buf, size_t n);
/* The same from terms (drill-down builds these; no text is parsed): replaces the
 * filter; `shown` is its text form for the status row and the `/` prompt. Returns 0,
 * or -1 when a term names no column of t or has < <= > >= on text that is not a severity
 * low, med or high (the filter is unchanged). n = 0 clears. */
int table_filter_terms(struct table *t, const struct filter_term *terms, size_t n, const char *shown);

/* Row groups: gs (now owned by the table) indexes the table's rows, col names the
 * group. The table starts ungrouped with every group closed. The column the groups'
 * representatives are the worst by has COL_ROLE_GROUP_WORST (the Ranks view's
 * mean_compute_ms, set by the view). */
void table_set_groups(struct table *t, struct groups *gs, int col);
/* Show the tree (on) or the plain view; open or close group g (-1: every group). */
void table_group_by(struct table *t, bool on);
void table_group_open(struct table *t, long g, bool open);
/* The group of a row, -1 for none (or no groups). */
long table_row_group(const struct table *t, size_t row);
/* While grouped, group g's rows in words, in buf (cut to n bytes), which is returned:
 * its count, "8", or with a filter leaving some out, the kept of all, "6/8"
 * (table_group_count); what follows the count of its kept rows in a sentence, "" or
 * " shown, 8 in the node" (table_group_of); what a closed group's row is, "worst of 6
 * shown, 8 in the node", or "no mean_compute_ms among the 6 shown, 8 in the node: worst
 * not known" when no kept row has the COL_ROLE_GROUP_WORST figure (table_group_describe). */
const char *table_group_count(const struct table *t, long g, char *buf, size_t n);
const char *table_group_of(const struct table *t, long g, char *buf, size_t n);
const char *table_group_describe(const struct table *t, long g, char *buf, size_t n);

/* Display text of a cell: "-" when missing, COL_NUM with prec decimals; a value too
 * large for fixed notation (|v| >= 1e17) in the shortest round-trip form. */
void table_format(const struct table *t, size_t row, int col, char *buf, size_t n);
/* Screen text of a cell (model/units.h rule): "-" when missing; a number with a unit
 * as a duration, size or percentage ("18.5 ms", "5.76 GiB", "8.5%"); any other
 * COL_NUM with the column's decimals, or 3 significant digits when those decimals
 * would show a nonzero value as zero ("6e-06", not "0.0000"). Never float noise; a
 * pane fits a column to its values or leaves the column out, never cuts a number. */
void table_display(const struct table *t, size_t row, int col, char *buf, size_t n);
/* Cell (row, col) as table_format() writes it, but a nonzero number the column's
 * decimals would show as zero in 3 significant digits (table_display's rule without
 * the units): the report's tables that keep their source's layout (DASF's). */
void table_format_nonzero(const struct table *t, size_t row, int col, char *buf, size_t n);
/* A cell in a plain-text report's table: table_format_nonzero (nonzero) or table_format,
 * but a number of 1e15 or more in exponent form (units_fixed), never hundreds of digits. */
void table_format_report(const struct table *t, size_t row, int col, bool nonzero, char *buf, size_t n);
/* Shortest round-trip representation of v (the CSV form): "%.15g".."%.17g", nan, inf. */
void table_format_full(double v, char *buf, size_t n);

/* TABLE_CSV_RAW: do not neutralise spreadsheet formulas; TABLE_CSV_NO_HEADER: rows only
 * (a part of a view written after the first, src/export.c). */
enum { TABLE_CSV_RAW = 1, TABLE_CSV_NO_HEADER = 2 };
/* Header + visible rows as CSV (RFC 4180 quoting via libcsv; text cells starting with
 * = + - @ TAB CR NUL get a leading ' unless TABLE_CSV_RAW). Returns 0 or -1 (errno). */
int table_write_csv(const struct table *t, FILE *f, unsigned flags);
/* Its parts: the header line; row `row`'s line (any row, visible or not). 0 or -1. */
int table_write_csv_header(const struct table *t, FILE *f, unsigned flags);
int table_write_csv_row(const struct table *t, size_t row, FILE *f, unsigned flags);
/* Write the CSV to path through outfile (model/outfile.h: temp file + rename for a
 * regular file, in place for a FIFO or device). Refuses to replace an existing file
 * unless overwrite (returns -1, errno EEXIST); message: outfile_strerror(). */
int table_export_file(const struct table *t, const char *path, bool overwrite, unsigned flags);

#endif
