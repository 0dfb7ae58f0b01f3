/* SPDX-License-Identifier: MIT */
/* table.c: view tables, sort, filter and CSV export (see table.h; row groups: table_groups.c). */
#include "model/table.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "model/groups.h"
#include "model/numfmt.h"
#include "model/outfile.h"
#include "model/table_view.h"
#include "model/text.h"
#include "model/units.h"
#include "model/xalloc.h"

static void free_terms(struct table_term *terms, size_t n);
static void format_number(const struct table_cell *c, enum col_type type, char *buf, size_t n);

struct table *table_new(const char *name, const char *title)
{
	struct table *t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->title = xstrdup(title ? title : name);
	t->sort_col = -1;
	return t;
}

void table_set_empty_note(struct table *t, const char *note)
{
	free(t->empty_note);
	t->empty_note = note ? xstrdup(note) : NULL;
}

void table_set_note(struct table *t, const char *note)
{
	free(t->note);
	t->note = note ? xstrdup(note) : NULL;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	free(t->empty_note);
	free(t->note);
	for (size_t i = 0; i < t->nrow * t->ncol; i++)
		free(t->cell[i].text);
	for (size_t c = 0; c < t->ncol; c++)
		free(t->col[c].name);
	free(t->col);
	free(t->cell);
	free(t->ref);
	free(t->view);
	free(t->filter);
	free_terms(t->terms, t->nterms);
	groups_free(t->groups);
	free(t->gopen);
	free(t->gkept);
	free(t->gworst);
	free(t->name);
	free(t->title);
	free(t);
}

int table_add_col(struct table *t, const char *name, enum col_type type, int width, int prec)
{
	t->col = xrealloc(t->col, (t->ncol + 1) * sizeof(*t->col));
	t->col[t->ncol] = (struct table_col){
		.name = xstrdup(name), .type = type, .width = width, .prec = prec,
		.right = type != COL_TEXT, .unit = type == COL_TEXT ? UNIT_NONE : units_from_name(name),
	};
	return (int)t->ncol++;
}

void table_col_unit(struct table *t, int col, enum unit u)
{
	if (col >= 0 && (size_t)col < t->ncol && t->col[col].type != COL_TEXT)
		t->col[col].unit = u;
}

void table_col_doc(struct table *t, int col, const char *doc)
{
	if (col >= 0 && (size_t)col < t->ncol)
		t->col[col].doc = doc;
}

void table_col_prio(struct table *t, int col, int prio)
{
	if (col >= 0 && (size_t)col < t->ncol)
		t->col[col].prio = prio;
}

size_t table_add_row(struct table *t, long ref)
{
	if (t->nrow == t->rowcap) {
		size_t cap = t->rowcap ? t->rowcap * 2 : 64;
		t->cell = xrealloc(t->cell, cap * t->ncol * sizeof(*t->cell));
		t->ref = xrealloc(t->ref, cap * sizeof(*t->ref));
		t->view = xrealloc(t->view, cap * sizeof(*t->view));
		t->rowcap = cap;
	}
	size_t r = t->nrow++;
	memset(&t->cell[r * t->ncol], 0, t->ncol * sizeof(*t->cell));
	t->ref[r] = ref;
	t->view[t->nview++] = r;
	return r;
}

void table_append_take(struct table *t, struct table *src)
{
	size_t n = src->ncol < t->ncol ? src->ncol : t->ncol;
	for (size_t r = 0; r < src->nrow; r++) {
		size_t row = table_add_row(t, src->ref[r]);
		memcpy(&t->cell[row * t->ncol], &src->cell[r * src->ncol], n * sizeof(*t->cell));
		for (size_t c = 0; c < n; c++)
			src->cell[r * src->ncol + c].text = NULL; /* t's now */
	}
	table_free(src);
}

static struct table_cell *cell_at(struct table *t, size_t row, int col)
{
	return &t->cell[row * t->ncol + (size_t)col];
}

const struct table_cell *table_cell(const struct table *t, size_t row, int col)
{
	return &t->cell[row * t->ncol + (size_t)col];
}

void table_set_num(struct table *t, size_t row, int col, double v)
{
	struct table_cell *c = cell_at(t, row, col);
	c->num = v;
	c->present = true;
}

void table_set_int(struct table *t, size_t row, int col, long long v)
{
	table_set_num(t, row, col, (double)v);
	struct table_cell *c = &t->cell[row * t->ncol + (size_t)col];
	c->exact = v;
	c->is_int = true;
}

void table_set_int_opt(struct table *t, size_t row, int col, long long v, bool present)
{
	if (present)
		table_set_int(t, row, col, v);
}

void table_set_num_opt(struct table *t, size_t row, int col, double v, bool present)
{
	if (present)
		table_set_num(t, row, col, v);
}

void table_set_text(struct table *t, size_t row, int col, const char *s)
{
	struct table_cell *c = cell_at(t, row, col);
	free(c->text);
	c->text = s ? text_sanitize_dup(s, 0) : NULL;
	c->present = s != NULL;
}

int table_col_index(const struct table *t, const char *name)
{
	for (size_t c = 0; c < t->ncol; c++)
		if (strcasecmp(t->col[c].name, name) == 0)
			return (int)c;
	return -1;
}

void table_set_role(struct table *t, int col, enum col_role role)
{
	if (col >= 0 && col < (int)t->ncol)
		t->col[col].role = role;
}

int table_col_role(const struct table *t, enum col_role role)
{
	for (size_t c = 0; c < t->ncol; c++)
		if (t->col[c].role == role)
			return (int)c;
	return -1;
}

/* ---- sort ---------------------------------------------------------------- */

int table_cell_cmp(const struct table_cell *x, const struct table_cell *y, enum col_type type, bool desc)
{
	if (!x->present || !y->present)
		return (int)!x->present - (int)!y->present; /* missing last, both ways */
	int r;
	if (type == COL_TEXT) {
		r = strcmp(x->text, y->text);
	} else {
		bool nx = isnan(x->num), ny = isnan(y->num);
		if (nx || ny)
			return (int)nx - (int)ny;
		r = x->is_int && y->is_int ? (x->exact > y->exact) - (x->exact < y->exact)
					   : (x->num > y->num) - (x->num < y->num);
	}
	return desc ? -r : r;
}

/* The place of s in the severity order (low < med < high, any case), -1 for any other
 * text ("not judged"). */
static int severity_of(const char *s)
{
	static const char *const order[] = { "low", "med", "high" };
	for (int i = 0; i < (int)ARRAY_LEN(order); i++)
		if (strcasecmp(s, order[i]) == 0)
			return i;
	return -1;
}

/* A severity cell's place in its order, -1 for any other text and a missing cell. */
static int severity_rank(const struct table_cell *c)
{
	return c->present ? severity_of(c->text) : -1;
}

/* A severity column sorts by severity, not by name: descending is high, med, low, as
 * the findings list; a row without one ("not judged") is last both ways. */
static int cmp_severity(const struct table_cell *x, const struct table_cell *y, bool desc)
{
	int rx = severity_rank(x), ry = severity_rank(y);
	if (rx < 0 || ry < 0)
		return (rx < 0) - (ry < 0);
	return desc ? ry - rx : rx - ry;
}

static int cmp_cells(const struct table *t, int col, size_t a, size_t b, bool desc)
{
	if (t->col[col].role == COL_ROLE_SEVERITY)
		return cmp_severity(table_cell(t, a, col), table_cell(t, b, col), desc);
	return table_cell_cmp(table_cell(t, a, col), table_cell(t, b, col), t->col[col].type, desc);
}

/* Merge sort of idx[0..n) (stable; qsort is not). */
static void sort_rows(const struct table *t, int col, bool desc, size_t *idx, size_t *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_rows(t, col, desc, idx, tmp, h);
	sort_rows(t, col, desc, idx + h, tmp, n - h);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_cells(t, col, idx[j], idx[i], desc) < 0 ? idx[j++] : idx[i++];
	while (i < h)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

/* ---- filter -------------------------------------------------------------- */

/* A stored term: the public one with its operand copied. */
struct table_term {
	struct filter_term ft;
	char *text;
	bool num_ok;        /* the operand is a number */
	bool missing;       /* '=' / '!=' with "-" or "": the cell is (not) missing */
	int sev;            /* < <= > >= on a severity column: the operand's place (severity_of) */
};

static bool contains_ci(const char *hay, const char *needle)
{
	return strcasestr(hay, needle) != NULL;
}

static bool is_order(enum filter_op op)
{
	return op == FILTER_LT || op == FILTER_LE || op == FILTER_GT || op == FILTER_GE;
}

/* Whether an order term holds for a cell that compares as r (<0, 0, >0) to its operand. */
static bool order_holds(enum filter_op op, int r)
{
	return op == FILTER_LT ? r < 0 : op == FILTER_LE ? r <= 0 : op == FILTER_GT ? r > 0 : r >= 0;
}

/* < <= > >= on a text column: only a severity column has an order (low < med < high),
 * and then the operand must be one of those. 0, or -1 with a message in err. */
static int check_order(const struct table *t, const struct filter_term *ft, char *err, size_t errn)
{
	if (!is_order(ft->op) || (ft->col >= 0 && t->col[ft->col].type != COL_TEXT))
		return 0;
	const char *name = ft->col >= 0 ? t->col[ft->col].name : "";
	if (ft->col < 0 || t->col[ft->col].role != COL_ROLE_SEVERITY)
		snprintf(err, errn, "'%s' is text: < and > need a number column", name);
	else if (!ft->text || severity_of(ft->text) < 0)
		snprintf(err, errn, "'%s' is ordered low < med < high: got '%s'", name, ft->text ? ft->text : "");
	else
		return 0;
	return -1;
}

static bool term_match_cell(const struct table *t, const struct table_term *tm, size_t row, int col)
{
	const struct table_cell *c = table_cell(t, row, col);
	enum filter_op op = tm->ft.op;
	if (tm->missing)
		return (op == FILTER_NE) == c->present;
	if (!c->present)
		return op == FILTER_NE;
	if (t->col[col].type == COL_TEXT) {
		switch (op) {
		case FILTER_IS: return strcmp(c->text, tm->text) == 0;
		case FILTER_EQ: return fnmatch(tm->text, c->text, FNM_CASEFOLD) == 0;
		case FILTER_NE: return fnmatch(tm->text, c->text, FNM_CASEFOLD) != 0;
		case FILTER_HAS: return contains_ci(c->text, tm->text);
		default: {   /* a severity column (check_order refuses < > on any other text) */
			int r = severity_rank(c);
			return r >= 0 && order_holds(op, r - tm->sev);
		}
		}
	}
	char buf[64];
	switch (op) {
	case FILTER_IS:
	case FILTER_EQ: return tm->num_ok && c->num == tm->ft.num;
	case FILTER_NE: return !tm->num_ok || c->num != tm->ft.num;
	case FILTER_LT: return c->num < tm->ft.num;
	case FILTER_LE: return c->num <= tm->ft.num;
	case FILTER_GT: return c->num > tm->ft.num;
	case FILTER_GE: return c->num >= tm->ft.num;
	case FILTER_HAS:   /* the full-precision text the CSV has, not the rounded display */
		format_number(c, t->col[col].type, buf, sizeof(buf));
		return contains_ci(buf, tm->text);
	}
	return false;
}

static bool term_match(const struct table *t, const struct table_term *tm, size_t row)
{
	bool m = false;
	if (tm->ft.col >= 0) {
		m = term_match_cell(t, tm, row, tm->ft.col);
	} else {
		for (size_t c = 0; c < t->ncol && !m; c++)
			if (t->col[c].type == COL_TEXT)
				m = term_match_cell(t, tm, row, (int)c);
	}
	return tm->ft.neg ? !m : m;
}

static const struct { const char *tok; enum filter_op op; } filter_ops[] = {
	{"!=", FILTER_NE}, {"<=", FILTER_LE}, {">=", FILTER_GE}, {"=", FILTER_EQ},
	{"<", FILTER_LT}, {">", FILTER_GT}, {"~", FILTER_HAS},
};

static bool is_quote(char c)
{
	return c == '\'' || c == '"';
}

/* The first operator of s outside quotes (the longest one there): its offset and
 * filter_ops index, or -1. */
static long find_op(const char *s, size_t *k)
{
	char q = 0;
	for (size_t i = 0; s[i]; i++) {
		if (q) {
			q = s[i] == q ? 0 : q;
			continue;
		}
		if (is_quote(s[i])) {
			q = s[i];
			continue;
		}
		for (*k = 0; *k < ARRAY_LEN(filter_ops); (*k)++)
			if (strncmp(s + i, filter_ops[*k].tok, strlen(filter_ops[*k].tok)) == 0)
				return (long)i;
	}
	return -1;
}

/* Drop the quotes of s ('...' or "..."), keeping what they enclose, in place. */
static void unquote(char *s)
{
	char q = 0, *w = s;
	for (const char *r = s; *r; r++) {
		if (q ? *r == q : is_quote(*r)) {
			q = q ? 0 : *r;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

/* The next term of *p: up to a space, tab or comma outside quotes (kept for
 * parse_term). NULL at the end; *open: a quote is not closed. */
static char *next_term(char **p, bool *open)
{
	char *s = *p + strspn(*p, " \t,"), *e = s, q = 0;
	if (!*s)
		return NULL;
	for (; *e && (q || !strchr(" \t,", *e)); e++)
		if (q ? *e == q : is_quote(*e))
			q = q ? 0 : *e;
	*open = q != 0;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

/* "-" or "": a missing value for '=' and '!='. */
static bool means_missing(const char *v)
{
	return !*v || strcmp(v, "-") == 0;
}

/* A term that starts with '<' and a letter or '_' ('<float', '<lambda>'): a name in angle
 * brackets to search for, as kernel names have; any other operator first names no column
 * ('>1', '=x', '!=3', the '>1' of 'rank >1'). */
static bool angle_name(const char *s, size_t k)
{
	return filter_ops[k].op == FILTER_LT && (isalpha((unsigned char)s[1]) || s[1] == '_');
}

/* One term of the text syntax into ft (ft->text points into s); -1 with err. */
static int parse_term(const struct table *t, char *s, struct filter_term *ft, char *err, size_t errn)
{
	char *term = xstrdup(s);   /* for messages */
	memset(ft, 0, sizeof(*ft));
	ft->col = -1;
	ft->op = FILTER_HAS;
	if (*s == '!' && s[1] != '=') {
		ft->neg = true;
		s++;
	}
	size_t k = 0;
	long at = find_op(s, &k);
	int rc = 0;
	if (at < 0 || (at == 0 && angle_name(s, k))) {   /* bare TEXT: a substring of any text column */
		unquote(s);
		ft->text = s;
		if (!*s) {
			snprintf(err, errn, "'%s' is not COL OP VALUE nor a text to search", term);
			rc = -1;
		}
		free(term);
		return rc;
	}
	char *val = s + at + strlen(filter_ops[k].tok), *end;
	s[at] = '\0';
	unquote(s);
	unquote(val);
	ft->op = filter_ops[k].op;
	ft->text = val;
	ft->col = *s ? table_col_index(t, s) : -1;
	ft->num = strtod(val, &end);
	bool missing = (ft->op == FILTER_EQ || ft->op == FILTER_NE) && means_missing(val);
	if (!*s) {
		snprintf(err, errn, "'%s' names no column: write COL%sVALUE, no space before the operator (quote a "
				    "name or value with spaces: 'Duration (s)'>1, node='node 1', or a text to search for: "
				    "\"'=x'\")", term, filter_ops[k].tok);
		rc = -1;
	} else if (ft->col < 0) {
		snprintf(err, errn, "unknown column '%s' in '%s'", s, term);
		rc = -1;
	} else if (t->col[ft->col].type != COL_TEXT && ft->op != FILTER_HAS && !missing &&
		   !(*val && *end == '\0')) {
		snprintf(err, errn, "'%s' needs a number, got '%s'", t->col[ft->col].name, val);
		rc = -1;
	} else {
		rc = check_order(t, ft, err, errn);
	}
	free(term);
	return rc;
}

static void free_terms(struct table_term *terms, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(terms[k].text);
	free(terms);
}

void table_view_apply(struct table *t)
{
	t->nview = 0;
	for (size_t r = 0; r < t->nrow; r++) {
		bool ok = true;
		for (size_t k = 0; k < t->nterms && ok; k++)
			ok = term_match(t, &t->terms[k], r);
		if (ok)
			t->view[t->nview++] = r;
	}
	if (t->sort_col >= 0 && t->nview > 1) {
		size_t *tmp = xmalloc(t->nview * sizeof(*tmp));
		sort_rows(t, t->sort_col, t->sort_desc, t->view, tmp, t->nview);
		free(tmp);
	}
	if (t->grouped && t->groups)
		table_groups_apply(t);
}

int table_filter_terms(struct table *t, const struct filter_term *terms, size_t n, const char *shown)
{
	for (size_t k = 0; k < n; k++)
		if (terms[k].col >= (int)t->ncol || (terms[k].col >= 0 && terms[k].op == FILTER_HAS &&
						     !terms[k].text) || check_order(t, &terms[k], NULL, 0) < 0)
			return -1;
	free_terms(t->terms, t->nterms);
	t->terms = xcalloc(n ? n : 1, sizeof(*t->terms));
	t->nterms = n;
	for (size_t k = 0; k < n; k++) {
		struct table_term *tm = &t->terms[k];
		tm->ft = terms[k];
		tm->text = xstrdup(terms[k].text ? terms[k].text : "");
		tm->ft.text = tm->text;
		char *end;
		double v = strtod(tm->text, &end);
		tm->num_ok = terms[k].text ? *tm->text && *end == '\0' : true;
		if (terms[k].text && tm->num_ok)
			tm->ft.num = v;
		tm->missing = terms[k].text && (tm->ft.op == FILTER_EQ || tm->ft.op == FILTER_NE) &&
			      means_missing(tm->text);
		tm->sev = severity_of(tm->text);
	}
	free(t->filter);
	t->filter = n && shown && *shown ? xstrdup(shown) : NULL;
	table_view_apply(t);
	return 0;
}

int table_filter(struct table *t, const char *expr, char *err, size_t errn)
{
	char *copy = xstrdup(expr ? expr : "");
	struct filter_term *terms = NULL;
	size_t n = 0, cap = 0;
	char *p = copy, *tok;
	bool open = false;
	int rc = 0;
	while (rc == 0 && (tok = next_term(&p, &open)) != NULL) {
		if (open) {
			snprintf(err, errn, "'%s': a quote is not closed (to search for a quote, quote the term with "
				 "the other kind: \"'x\")", tok);
			rc = -1;
			break;
		}
		xgrow((void **)&terms, &cap, n + 1, sizeof(*terms));
		rc = parse_term(t, tok, &terms[n++], err, errn);
	}
	if (rc == 0)
		table_filter_terms(t, terms, n, expr);
	free(terms);
	free(copy);
	return rc;
}

void table_sort(struct table *t, int col, bool desc)
{
	t->sort_col = col < (int)t->ncol ? col : -1;
	t->sort_desc = desc;
	table_view_apply(t);
}

int table_sort_spec(struct table *t, const char *spec, char *err, size_t errn)
{
	bool desc = *spec == '-';
	if (*spec == '-' || *spec == '+')
		spec++;
	size_t len = strlen(spec);
	bool quoted = is_quote(*spec) && len >= 2 && spec[len - 1] == *spec;
	if (is_quote(*spec) && !quoted) {
		snprintf(err, errn, "'%s': a quote is not closed", spec);
		return -1;
	}
	char *name = quoted ? xstrndup(spec + 1, len - 2) : xstrdup(spec);
	int col = table_col_index(t, name);
	if (col < 0)
		snprintf(err, errn, "unknown column '%s'", name);
	else
		table_sort(t, col, desc);
	free(name);
	return col < 0 ? -1 : 0;
}

/* Whether a text cell of the term's column equals its operand as written (any case). */
static bool held_as_written(const struct table *t, const struct table_term *tm)
{
	for (size_t r = 0; r < t->nrow; r++) {
		const struct table_cell *c = table_cell(t, r, tm->ft.col);
		if (c->present && strcasecmp(c->text, tm->text) == 0)
			return true;
	}
	return false;
}

/* s with a backslash before each character a glob reads as a pattern ([ * ? \), new. */
static char *glob_escape(const char *s)
{
	char *esc = xmalloc(2 * strlen(s) + 1), *w = esc;
	for (; *s; s++) {
		if (strchr("[*?\\", *s))
			*w++ = '\\';
		*w++ = *s;
	}
	*w = '\0';
	return esc;
}

bool table_filter_hint(const struct table *t, char *buf, size_t n)
{
	for (size_t k = 0; k < t->nterms; k++) {
		const struct table_term *tm = &t->terms[k];
		if (tm->ft.op != FILTER_EQ || tm->ft.neg || tm->missing || tm->ft.col < 0 ||
		    t->col[tm->ft.col].type != COL_TEXT || !strpbrk(tm->text, "[]*?") || !held_as_written(t, tm))
			continue;
		char *esc = glob_escape(tm->text);
		snprintf(buf, n, "'%s' is a pattern: [ ] * ? match; escape them with \\ to match them as written "
				 "('%s')", tm->text, esc);
		free(esc);
		return true;
	}
	return false;
}

/* ---- formatting and CSV -------------------------------------------------- */

void table_format_full(double v, char *buf, size_t n)
{
	numfmt_full(v, buf, n);
}

/* An integer or number cell in full: the exact integer, %.0f while that is short and
 * exact, else the shortest round-trip form (so 1e300 is never cut to fit a buffer). */
static void format_number(const struct table_cell *c, enum col_type type, char *buf, size_t n)
{
	if (c->is_int)
		snprintf(buf, n, "%lld", c->exact);
	else if (type == COL_INT && fabs(c->num) < 1e17)
		snprintf(buf, n, "%.0f", c->num);
	else
		table_format_full(c->num, buf, n);
}

void table_format(const struct table *t, size_t row, int col, char *buf, size_t n)
{
	const struct table_cell *c = table_cell(t, row, col);
	if (!c->present) {
		snprintf(buf, n, "-");
		return;
	}
	switch (t->col[col].type) {
	case COL_TEXT:
		snprintf(buf, n, "%s", c->text);
		break;
	case COL_INT:
		format_number(c, COL_INT, buf, n);
		break;
	case COL_NUM:
		if (!isfinite(c->num) || fabs(c->num) >= 1e17)
			format_number(c, COL_NUM, buf, n);
		else
			snprintf(buf, n, "%.*f", t->col[col].prec, c->num);
		break;
	}
}

void table_display(const struct table *t, size_t row, int col, char *buf, size_t n)
{
	const struct table_cell *c = table_cell(t, row, col);
	const struct table_col *tc = &t->col[col];
	if (!c->present || tc->type == COL_TEXT || !isfinite(c->num) || fabs(c->num) >= 1e17) {
		table_format(t, row, col, buf, n);
		return;
	}
	if (tc->unit != UNIT_NONE) {
		units_format(c->num, tc->unit, buf, n);
		return;
	}
	table_format_nonzero(t, row, col, buf, n);
}

void table_format_nonzero(const struct table *t, size_t row, int col, char *buf, size_t n)
{
	const struct table_cell *c = table_cell(t, row, col);
	const struct table_col *tc = &t->col[col];
	if (!c->present || tc->type != COL_NUM || c->is_int || !isfinite(c->num) || fabs(c->num) >= 1e17)
		table_format(t, row, col, buf, n);
	else
		numfmt_nonzero(c->num + 0.0, tc->prec, buf, n); /* no -0; 3 digits where the decimals read 0 */
}

void table_format_report(const struct table *t, size_t row, int col, bool nonzero, char *buf, size_t n)
{
	const struct table_cell *c = table_cell(t, row, col);
	if (t->col[col].type == COL_NUM && c->present && isfinite(c->num) && fabs(c->num) >= 1e15)
		units_fixed(c->num, t->col[col].prec, buf, n);
	else if (nonzero)
		table_format_nonzero(t, row, col, buf, n);
	else
		table_format(t, row, col, buf, n);
}

static int write_field(FILE *f, const char *s, bool quote_always)
{
	if (!quote_always && strpbrk(s, ",\"\r\n") == NULL)
		return fputs(s, f) < 0 ? -1 : 0;
	return csv_fwrite(f, s, strlen(s));
}

static int write_text_cell(FILE *f, const char *s, unsigned flags)
{
	bool risky = !(flags & TABLE_CSV_RAW) && strchr("=+-@\t\r", s[0]) && s[0];
	if (!risky)
		return write_field(f, s, false);
	char *p = xasprintf("'%s", s);
	int r = write_field(f, p, false);
	free(p);
	return r;
}

int table_write_csv_header(const struct table *t, FILE *f, unsigned flags)
{
	int r = 0;
	for (size_t c = 0; c < t->ncol; c++) {
		if (c)
			fputc(',', f);
		r |= write_text_cell(f, t->col[c].name, flags);
	}
	fputc('\n', f);
	return (r || ferror(f)) ? -1 : 0;
}

int table_write_csv_row(const struct table *t, size_t row, FILE *f, unsigned flags)
{
	int r = 0;
	char buf[64];
	for (size_t c = 0; c < t->ncol; c++) {
		const struct table_cell *cell = table_cell(t, row, (int)c);
		if (c)
			fputc(',', f);
		if (!cell->present)
			continue;
		if (t->col[c].type == COL_TEXT) {
			r |= write_text_cell(f, cell->text, flags);
		} else {
			format_number(cell, t->col[c].type, buf, sizeof(buf));
			fputs(buf, f);
		}
	}
	fputc('\n', f);
	return r;
}

int table_write_csv(const struct table *t, FILE *f, unsigned flags)
{
	int r = 0;
	if (!(flags & TABLE_CSV_NO_HEADER))
		r |= table_write_csv_header(t, f, flags);
	for (size_t i = 0; i < t->nview; i++)
		r |= table_write_csv_row(t, t->view[i], f, flags);
	return (r || ferror(f)) ? -1 : 0;
}

int table_export_file(const struct table *t, const char *path, bool overwrite, unsigned flags)
{
	struct outfile o;
	if (outfile_open(&o, path, overwrite) != 0)
		return -1;
	int r = table_write_csv(t, o.f, flags);
	int e = errno;
	if (outfile_close(&o, r == 0) != 0)
		return -1;
	if (r != 0)
		errno = e ? e : EIO;
	return r;
}
