/* SPDX-License-Identifier: MIT */
/* analysis_classify.c: the kernel classification table and user rules (see classify.h). */
#include "model/infile.h"
#include "model/trace/classify.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/diag.h"
#include "model/xalloc.h"

struct krule {
	enum kclass cls;
	regex_t re;
};

struct kclassifier {
	struct krule *user;
	size_t nuser, cap;
};

/* The built-in table. HTA's patterns (hta/configs/trace_analyzer_config) are plain
 * prefixes and substrings, so they are matched as such: glibc regexec on HTA's
 * ".*ncclKernel.*" costs ~0.3 ms on a 1.8 KB templated kernel name.
 *   communication: ^nccl ^hip ^hccl .*ncclKernel.*, plus names HTA does not know:
 *                  nvshmem, deep_ep::, dpsk::ep::, ::internode|intranode::dispatch|combine|
 *                  cached_notify|notify, ^rccl, ^oneccl, ccl::, c10d:: (pytscope's too)
 *   memory:        ^Memcpy ^hipMemcpy ^Memset ^hipMemset ^dma
 *   not compute:   ^nccl, Memcpy, Memset, dma, Sync, ^Stream Wait Event, cuda.*LaunchKernel,
 *                  ^runFunction ^hip ^job_exe ^packet ^pe_exe ^cpum_exe_subgraph ^hccl
 *                  ^collective_subgraph_execution */
static bool has_prefix(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strncmp(s, *list, strlen(*list)) == 0)
			return true;
	return false;
}

static bool has_substr(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strstr(s, *list))
			return true;
	return false;
}

static bool builtin_comm(const char *s)
{
	static const char *const pre[] = { "nccl", "hip", "hccl", "rccl", "oneccl", NULL };
	static const char *const sub[] = {
		"ncclKernel", "nvshmem", "deep_ep::", "dpsk::ep::", "ccl::", "c10d::",
		"::internode::dispatch", "::internode::combine", "::internode::cached_notify",
		"::internode::notify", "::intranode::dispatch", "::intranode::combine",
		"::intranode::cached_notify", "::intranode::notify", NULL,
	};
	return has_prefix(s, pre) || has_substr(s, sub);
}

static bool builtin_mem(const char *s)
{
	static const char *const pre[] = { "Memcpy", "hipMemcpy", "Memset", "hipMemset", "dma", NULL };
	return has_prefix(s, pre);
}

static bool builtin_not_compute(const char *s)
{
	static const char *const pre[] = {
		"nccl", "Stream Wait Event", "runFunction", "hip", "job_exe", "packet", "pe_exe",
		"cpum_exe_subgraph", "hccl", "collective_subgraph_execution", NULL,
	};
	static const char *const sub[] = { "Memcpy", "Memset", "dma", "Sync", NULL };
	const char *cuda = strstr(s, "cuda");
	return has_prefix(s, pre) || has_substr(s, sub) || (cuda && strstr(cuda + 4, "LaunchKernel"));
}

static bool parse_class(const char *w, enum kclass *out)
{
	static const char *const names[KC_COUNT] = { "computation", "communication", "memory", "other" };
	for (int k = 0; k < KC_COUNT; k++)
		if (strcasecmp(w, names[k]) == 0) {
			*out = (enum kclass)k;
			return true;
		}
	return false;
}

/* One problem of the rules file (line: 1-based, or -1 for the file) as a diagnostic. */
static void rule_error(struct diag_list *diags, const char *path, long line, const char *msg)
{
	if (diags)
		diag_add(diags, DIAG_ERROR, path, line, -1, -1, "--kernel-classes: %s", msg);
}

/* One rule line (trimmed, not a comment) into c, or a diagnostic naming its line. */
static void add_rule(struct kclassifier *c, char *p, const char *path, long no, struct diag_list *diags)
{
	char *pat = p;
	while (*pat && !isspace((unsigned char)*pat))
		pat++;
	if (*pat)
		*pat++ = '\0';
	while (isspace((unsigned char)*pat))
		pat++;
	enum kclass k;
	if (!parse_class(p, &k) || !*pat) {
		rule_error(diags, path, no, "expected 'CLASS REGEX' (CLASS: communication, memory, computation, other)");
		return;
	}
	xgrow((void **)&c->user, &c->cap, c->nuser + 1, sizeof(*c->user));
	int rc = regcomp(&c->user[c->nuser].re, pat, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[160];
		regerror(rc, &c->user[c->nuser].re, why, sizeof(why));
		char *msg = xasprintf("invalid regular expression '%s' (regcomp: %s)", pat, why);
		rule_error(diags, path, no, msg);
		free(msg);
		return;
	}
	c->user[c->nuser++].cls = k;
}

static void load_user(struct kclassifier *c, const char *path, struct diag_list *diags)
{
	FILE *f = infile_fopen(path);
	if (!f) {
		char *msg = xasprintf("cannot open: %s", infile_strerror(errno));
		rule_error(diags, path, -1, msg);
		free(msg);
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	long no = 0;
	while (getline(&line, &cap, f) >= 0) {
		no++;
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		size_t n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			p[--n] = '\0';
		if (*p && *p != '#')
			add_rule(c, p, path, no, diags);
	}
	if (ferror(f)) {
		char *msg = xasprintf("cannot read: %s", strerror(errno));
		rule_error(diags, path, -1, msg);
		free(msg);
	}
	free(line);
	fclose(f);
}

struct kclassifier *kclass_new(const char *path, struct diag_list *diags)
{
	struct kclassifier *c = xcalloc(1, sizeof(*c));
	if (path)
		load_user(c, path, diags);
	return c;
}

void kclass_free(struct kclassifier *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nuser; i++)
		regfree(&c->user[i].re);
	free(c->user);
	free(c);
}

static bool matches(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

enum kclass kclass_of(const struct kclassifier *c, const char *name)
{
	for (size_t i = 0; i < c->nuser; i++)
		if (matches(&c->user[i].re, name))
			return c->user[i].cls;
	if (builtin_comm(name))
		return KC_COMMUNICATION;
	if (builtin_mem(name))
		return KC_MEMORY;
	if (!builtin_not_compute(name))
		return KC_COMPUTATION;
	return KC_OTHER;
}

const char *kclass_name(enum kclass k)
{
	static const char *const names[KC_COUNT] = { "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER" };
	return k < KC_COUNT ? names[k] : "OTHER";
}
