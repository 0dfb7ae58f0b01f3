/* SPDX-License-Identifier: MIT */
/* findings.c: rule dispatch, severity ordering, finding lifetime, the not-judged items of
 * the rules that run (see findings.h). */
#include "model/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/run.h"
#include "model/text.h"
#include "model/xalloc.h"

struct evidence evidence_none(void)
{
	return (struct evidence){ .kind = EV_NONE, .rank = -1, .step_lo = -1, .step_hi = -1, .item = -1 };
}

void evidence_free(struct evidence *ev)
{
	free(ev->series);
	free(ev->name);
	free(ev->also[0]);
	free(ev->also[1]);
	free(ev->steps);
	*ev = evidence_none();
}

/* One number term of evidence_filter, and its text form after the others'. */
static void filter_num(const struct table *t, int c, enum filter_op op, double v, struct filter_term *out,
		       char *shown, size_t shownn)
{
	static const char *const sym[] = { [FILTER_EQ] = "=", [FILTER_GE] = ">=", [FILTER_LE] = "<=" };
	*out = (struct filter_term){ .col = c, .op = op, .num = v };
	text_appendf(shown, shownn, "%s%s%s%.0f", shown[0] ? " " : "", t->col[c].name, sym[op], v);
}

size_t evidence_filter(const struct evidence *ev, const struct table *t, struct filter_term out[EVIDENCE_TERMS],
		       char *shown, size_t shownn)
{
	size_t n = 0;
	shown[0] = '\0';
	if (ev->name) {
		int c = ev->match != COL_ROLE_NONE ? table_col_role(t, ev->match)
			: ev->match_col ? table_col_index(t, ev->match_col) : -1;
		out[n++] = (struct filter_term){ .col = c, .op = c >= 0 ? FILTER_IS : FILTER_HAS, .text = ev->name };
		text_appendf(shown, shownn, "%s%s%s", c >= 0 ? t->col[c].name : "", c >= 0 ? "=" : "", ev->name);
	}
	for (size_t i = 0; i < ARRAY_LEN(ev->also) && ev->also[i]; i++) {
		int c = table_col_index(t, ev->also_col[i]);
		if (c < 0)
			continue;
		out[n++] = (struct filter_term){ .col = c, .op = FILTER_IS, .text = ev->also[i] };
		text_appendf(shown, shownn, "%s%s=%s", shown[0] ? " " : "", t->col[c].name, ev->also[i]);
	}
	int cr = table_col_role(t, COL_ROLE_RANK), cs = table_col_role(t, COL_ROLE_STEP);
	if (ev->rank >= 0 && cr >= 0)
		filter_num(t, cr, FILTER_EQ, ev->rank, &out[n++], shown, shownn);
	if (ev->step_lo >= 0 && cs >= 0 && ev->step_hi > ev->step_lo) {   /* a bucket of steps: all of them */
		filter_num(t, cs, FILTER_GE, (double)ev->step_lo, &out[n++], shown, shownn);
		filter_num(t, cs, FILTER_LE, (double)ev->step_hi, &out[n++], shown, shownn);
	} else if (ev->step_lo >= 0 && cs >= 0) {
		filter_num(t, cs, FILTER_EQ, (double)ev->step_lo, &out[n++], shown, shownn);
	}
	return n;
}

struct finding *findings_add(struct finding_list *l, const char *id, enum severity sev,
			     const char *title, const char *detail, const char *fix,
			     struct evidence ev)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	struct finding *f = &l->v[l->n++];
	*f = (struct finding){
		.id = xstrdup(id), .severity = sev,
		.title = xstrdup(title ? title : ""),
		.detail = xstrdup(detail ? detail : ""),
		.fix = xstrdup(fix ? fix : ""),
		.ev = ev,
	};
	return f;
}

void findings_free(struct finding_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct finding *f = &l->v[i];
		free(f->id);
		free(f->title);
		free(f->detail);
		free(f->fix);
		evidence_free(&f->ev);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int rule_cmp(const void *a, const void *b)
{
	const struct finding_rule *x = *(const struct finding_rule *const *)a;
	const struct finding_rule *y = *(const struct finding_rule *const *)b;
	return (x->order > y->order) - (x->order < y->order);
}

/* A copy of f appended to out (strings and evidence duplicated). */
static void finding_copy(struct finding_list *out, const struct finding *f)
{
	struct evidence ev = f->ev;
	ev.series = f->ev.series ? xstrdup(f->ev.series) : NULL;
	ev.name = f->ev.name ? xstrdup(f->ev.name) : NULL;
	for (size_t i = 0; i < ARRAY_LEN(ev.also); i++)
		ev.also[i] = f->ev.also[i] ? xstrdup(f->ev.also[i]) : NULL;
	ev.steps = NULL;
	if (f->ev.nsteps) {
		ev.steps = xmalloc(f->ev.nsteps * sizeof(*ev.steps));
		memcpy(ev.steps, f->ev.steps, f->ev.nsteps * sizeof(*ev.steps));
	}
	findings_add(out, f->id, f->severity, f->title, f->detail, f->fix, ev);
}

/* Rule r runs on run: every rule, but not the native ones under --compat pytscope. */
static bool rule_runs(const struct run *run, const struct finding_rule *r)
{
	return !(r->native && run->opts && run->opts->compat_pytscope);
}

/* The rules in run order (rule_runs); how many. */
static size_t rules_sorted(const struct run *run, const struct finding_rule **rules, size_t cap)
{
	size_t n = 0;
	for (size_t s = 0; s < registry_count; s++)
		for (size_t k = 0; k < registry[s]->nrules && n < cap; k++)
			if (rule_runs(run, &registry[s]->rules[k]))
				rules[n++] = &registry[s]->rules[k];
	qsort(rules, n, sizeof(*rules), rule_cmp); /* orders are unique, so stable enough */
	return n;
}

/* The slicer of rule r, if its subsystem has one. */
static const struct rule_slicer *slicer_of(const struct finding_rule *r)
{
	for (size_t s = 0; s < registry_count; s++) {
		const struct subsystem *sub = registry[s];
		bool mine = false;
		for (size_t k = 0; k < sub->nrules && !mine; k++)
			mine = &sub->rules[k] == r;
		for (size_t k = 0; mine && k < sub->nslicers; k++)
			if (strcmp(sub->slicers[k].id, r->id) == 0)
				return &sub->slicers[k];
	}
	return NULL;
}

/* A live run's findings (stalled ranks, reloads), first within their severity. */
static void live_copy(const struct run *run, struct finding_list *out)
{
	for (size_t i = 0; run->live_findings && i < run->live_findings->n; i++)
		finding_copy(out, &run->live_findings->v[i]);
}

/* Stable severity sort (insertion sort; finding lists are short). */
static void severity_sort(struct finding_list *out)
{
	for (size_t i = 1; i < out->n; i++) {
		struct finding f = out->v[i];
		size_t j = i;
		while (j > 0 && out->v[j - 1].severity > f.severity) {
			out->v[j] = out->v[j - 1];
			j--;
		}
		out->v[j] = f;
	}
}

bool findings_compute_step(struct run *run, struct finding_list *out, struct findings_progress *p)
{
	const struct finding_rule *rules[256];
	size_t n = rules_sorted(run, rules, ARRAY_LEN(rules));
	if (!p->begun)
		live_copy(run, out);
	p->begun = true;
	if (p->next < n) {
		const struct rule_slicer *s = slicer_of(rules[p->next]);
		if (s && !s->slice(run, out, &p->state))
			return false;
		if (!s)
			rules[p->next]->run(run, out);
	}
	if (++p->next < n)
		return false;
	severity_sort(out);
	return true;
}

void findings_compute(struct run *run, struct finding_list *out)
{
	const struct finding_rule *rules[256];
	size_t n = rules_sorted(run, rules, ARRAY_LEN(rules));
	live_copy(run, out);
	for (size_t i = 0; i < n; i++)
		rules[i]->run(run, out);
	severity_sort(out);
}

void findings_progress_drop(struct run *run, struct findings_progress *p)
{
	const struct finding_rule *rules[256];
	size_t n = rules_sorted(run, rules, ARRAY_LEN(rules));
	const struct rule_slicer *s = p->state && p->next < n ? slicer_of(rules[p->next]) : NULL;
	if (s)
		s->drop(p->state);
	*p = (struct findings_progress){ 0 };
}

const char *findings_unjudged(const struct run *run)
{
	if (registry_has_records(run))
		return NULL;
	return "not judged: no step record, trace event or other record in this run (Sources lists every file read)";
}

/* The finding id (len bytes) is no rule's that runs on run (rule_runs): a native rule's
 * under --compat pytscope. An id no rule has (a rule's second id) stays. */
static bool id_not_run(const struct run *run, const char *id, size_t len)
{
	for (size_t s = 0; s < registry_count; s++)
		for (size_t k = 0; k < registry[s]->nrules; k++) {
			const struct finding_rule *r = &registry[s]->rules[k];
			if (strlen(r->id) == len && strncmp(r->id, id, len) == 0)
				return !rule_runs(run, r);
		}
	return false;
}

/* Item it without the ids of the rules that do not run on run, in place; false when it
 * stood for some id and none is left (nothing of what it says was to be judged). */
static bool item_keep_run(const struct run *run, struct not_judged_item *it)
{
	char *w = it->ids;
	bool had = it->ids[0] != '\0';
	for (const char *p = it->ids; *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");
		if (len && !id_not_run(run, p, len)) {
			if (w != it->ids)
				*w++ = ' ';
			memmove(w, p, len);
			w += len;
		}
		p += len;
	}
	*w = '\0';
	return !had || it->ids[0] != '\0';
}

bool findings_not_judged_list(struct run *run, struct not_judged *nj)
{
	size_t from = nj->n, kept = nj->n;
	for (size_t s = 0; s < registry_count; s++)
		if (registry[s]->unjudged)
			registry[s]->unjudged(run, nj);
	for (size_t i = from; i < nj->n; i++) {
		if (item_keep_run(run, &nj->v[i])) {
			nj->v[kept++] = nj->v[i];
			continue;
		}
		free(nj->v[i].text);
		free(nj->v[i].ids);
		free(nj->v[i].subject);
	}
	nj->n = kept;
	return nj->n > 0;
}

void findings_not_judged_free(struct not_judged *nj)
{
	for (size_t i = 0; i < nj->n; i++) {
		free(nj->v[i].text);
		free(nj->v[i].ids);
		free(nj->v[i].subject);
	}
	free(nj->v);
	*nj = (struct not_judged){ 0 };
}

/* Item it is about what evidence ev names: the whole run, or its subject is ev's name or series. */
static bool item_about(const struct not_judged_item *it, const struct evidence *ev)
{
	return !it->subject || (ev->name && strcmp(ev->name, it->subject) == 0) ||
	       (ev->series && strcmp(ev->series, it->subject) == 0);
}

const struct not_judged_item *findings_not_judged_of(const struct not_judged *nj, const struct finding *f)
{
	size_t len = strlen(f->id);
	for (size_t i = 0; len && i < nj->n; i++)
		for (const char *p = nj->v[i].ids; (p = strstr(p, f->id)) != NULL; p += len)
			if ((p == nj->v[i].ids || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0') &&
			    item_about(&nj->v[i], &f->ev))
				return &nj->v[i];
	return NULL;
}

bool findings_not_judged(struct run *run, char *buf, size_t n)
{
	if (!n)
		return false;
	buf[0] = '\0';
	struct not_judged nj = { 0 };
	findings_not_judged_list(run, &nj);
	for (size_t i = 0; i < nj.n; i++)
		text_appendf(buf, n, "%s%s", i ? "; " : "", nj.v[i].text);
	findings_not_judged_free(&nj);
	return buf[0] != '\0';
}

char *findings_not_judged_lines(struct run *run)
{
	struct not_judged nj = { 0 };
	findings_not_judged_list(run, &nj);
	char *out = NULL;
	size_t len = 0, cap = 0;
	for (size_t i = 0; i < nj.n; i++) {
		char *item = text_sanitize_dup(nj.v[i].text, 0);
		size_t n = strlen(item);
		xgrow((void **)&out, &cap, len + n + 6, 1);
		len += (size_t)snprintf(out + len, cap - len, "  - %s\n", item);
		free(item);
	}
	findings_not_judged_free(&nj);
	return out;
}

char *findings_empty_note(struct run *run)
{
	char nj[FINDINGS_NOT_JUDGED_MAX];
	return findings_not_judged(run, nj, sizeof(nj)) ? xasprintf("no findings; not judged: %s", nj) : NULL;
}

static void unjudged_vadd(struct not_judged *nj, const char *ids, const char *subject, const char *fmt,
			  va_list ap)
{
	if (nj->n == nj->cap) {
		nj->cap = nj->cap ? nj->cap * 2 : 8;
		nj->v = xrealloc(nj->v, nj->cap * sizeof(*nj->v));
	}
	nj->v[nj->n++] = (struct not_judged_item){ xvasprintf(fmt, ap), xstrdup(ids),
						   subject ? xstrdup(subject) : NULL };
}

void findings_unjudged_add(struct not_judged *nj, const char *ids, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	unjudged_vadd(nj, ids, NULL, fmt, ap);
	va_end(ap);
}

void findings_unjudged_add_about(struct not_judged *nj, const char *ids, const char *subject, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	unjudged_vadd(nj, ids, subject, fmt, ap);
	va_end(ap);
}

const char *severity_name(enum severity s)
{
	return s == SEV_HIGH ? "high" : s == SEV_MED ? "med" : "low";
}

const char *severity_label(enum severity s)
{
	return s == SEV_HIGH ? "HIGH" : s == SEV_MED ? "MED " : "LOW ";
}
