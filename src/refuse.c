/* SPDX-License-Identifier: MIT */
/* refuse.c: what main says when a PATH is not opened as one run, on stderr and in the
 * run picker (see refuse.h). */
#include "src/refuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/compare/compare.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "src/sbuf.h"

void refuse_lines(const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);
		char *safe = text_sanitize_dup(line, 0);
		fprintf(stderr, "tscope-tui: %s\n", safe);
		free(safe);
		free(line);
		p = nl ? nl + 1 : NULL;
	}
}

/* Whether PATH holds something of a run of id: a PATH of a group, or a trace file under it. */
static bool path_claimed(const struct run_identity *id, const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	for (size_t i = 0; i < id->n; i++)
		for (size_t k = 0; k < id->v[i].npaths; k++) {
			const char *p = id->v[i].paths[k];
			if (strcmp(p, path) == 0 || (strncmp(p, path, n) == 0 && (p[n] == '/' || p[n] == '\0')))
				return true;
		}
	return false;
}

bool refuse_empty_path(const struct run_identity *id, const struct opts *o)
{
	bool refused = false;
	for (size_t i = 0; id->npaths > 1 && i < id->npaths; i++) {
		if (path_claimed(id, id->paths[i]))
			continue;
		refused = true;
		if (o->compat_pytscope && id->npaths == 2)
			continue;
		char why[160];
		run_path_why_empty(id->paths[i], o, why, sizeof(why));
		char *path = text_sanitize_dup(id->paths[i], 0);
		fprintf(stderr, "tscope-tui: %s: %s\n", path, why);
		free(path);
	}
	if (refused && o->compat_pytscope && id->npaths == 2)
		fputs("Both run directories must contain steps.\n", stderr);
	else if (refused)
		fputs("tscope-tui: nothing opened: every PATH must hold data of the run (or of the two runs to "
		      "compare)\n", stderr);
	return refused;
}

/* The runs of one PATH: "holds 2 runs, never merged: a trace run (--format kineto) and a
 * dasf run (--format dasf)". malloc'd. */
static char *runs_held(const struct run_identity *id)
{
	struct sbuf b = { 0 };
	sb_printf(&b, "holds %zu runs, never merged:", id->n);
	for (size_t i = 0; i < id->n; i++)
		sb_printf(&b, "%s a %s run (--format %s)", i ? (i + 1 == id->n ? " and" : ",") : "",
			  compare_family_name(id->v[i].family), id->v[i].format);
	return sb_take(&b);
}

/* One PATH holding runs of several kinds: which kinds, and the --format that picks each. */
static void refuse_one_path(const struct run_identity *id)
{
	char *path = text_sanitize_dup(id->paths[0], 0), *runs = runs_held(id);
	fprintf(stderr, "tscope-tui: the one PATH '%s' %s; choose one with --format\n", path, runs);
	free(runs);
	free(path);
}

void refuse_mixed(const struct run_identity *id)
{
	char *what = run_identity_describe(id);
	refuse_lines(what);
	free(what);
	if (id->npaths == 1)
		refuse_one_path(id);
	else if (id->n == 2 && id->v[0].family != id->v[1].family)
		fprintf(stderr, "tscope-tui: cannot compare a %s run with a %s run: compare mode takes two runs "
				"of the same kind\n", compare_family_name(id->v[0].family),
			compare_family_name(id->v[1].family));
}

void refuse_folder(const char *dir, const struct run_child *kids, size_t nk)
{
	char *safe = text_sanitize_dup(dir, 0);
	fprintf(stderr, "tscope-tui: '%s' holds %zu run%s below it; open one:\n", safe, nk, nk == 1 ? "" : "s");
	char **words = xmalloc((nk ? nk : 1) * sizeof(*words));   /* each path ready to paste into a shell */
	int w = 0;
	for (size_t i = 0; i < nk; i++) {
		words[i] = text_shell_word_dup(kids[i].path);
		if (text_width(words[i]) > w)
			w = text_width(words[i]);
	}
	for (size_t i = 0; i < nk; i++) {
		fprintf(stderr, "  tscope-tui %s%*s  (%s)\n", words[i], w - text_width(words[i]), "", kids[i].format);
		free(words[i]);
	}
	free(words);
	free(safe);
}

char *refuse_picked(const char *path, const char *why)
{
	static const char self[] = "tscope-tui: ";
	struct sbuf b = { 0 };
	char *safe = text_sanitize_dup(path, 0);
	sb_printf(&b, "'%s' not opened: ", safe);
	free(safe);
	for (const char *p = why; *p;) {
		if (strncmp(p, self, sizeof(self) - 1) == 0)
			p += sizeof(self) - 1;
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		sb_safe(&b, line);
		free(line);
		p += n;
		p += *p == '\n';
		if (*p)
			sb_puts(&b, "\n");
	}
	return sb_take(&b);
}

char *refuse_picked_runs(const char *path, const struct run_identity *id, const struct opts *o)
{
	char why[160];
	if (id->n == 0) {
		run_path_why_empty(path, o, why, sizeof(why));
		return refuse_picked(path, why);
	}
	char *runs = runs_held(id), *word = text_shell_word_dup(path);
	char *text = xasprintf("it %s\nopen one from the shell: tscope-tui --format FORMAT %s", runs, word);
	char *msg = refuse_picked(path, text);
	free(text);
	free(word);
	free(runs);
	return msg;
}

/* Diagnostics the picker's message names of a run with nothing to explore. */
enum { PICKED_DIAGS = 3 };

char *refuse_picked_empty(const char *path, const struct run *run)
{
	struct sbuf b = { 0 };
	sb_puts(&b, "nothing to explore");
	for (size_t i = 0; i < run->diags.n && i < PICKED_DIAGS; i++) {
		char line[1024];
		diag_format(&run->diags.v[i], line, sizeof(line));
		sb_puts(&b, "\n");
		sb_safe(&b, line);   /* a newline of a path is "^J", not a line of its own */
	}
	char *why = sb_take(&b), *msg = refuse_picked(path, why);
	free(why);
	return msg;
}
