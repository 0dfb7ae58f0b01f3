/* SPDX-License-Identifier: MIT */
/* analysis_classify.c: the kernel classification table and user rules (see classify.h). */
#include "model/infile.h"
#include "model/trace/classify.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
 *                  cached_notify|notify, ^rccl, ^oneccl, ccl::
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
		"ncclKernel", "nvshmem", "deep_ep::", "dpsk::ep::", "ccl::",
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

static void add_err(char *err, size_t errn, const char *path, long line, const char *why)
{
	size_t used = strlen(err);
	if (used + 1 < errn)
		snprintf(err + used, errn - used, "%s%s:%ld: %s", used ? "\n" : "", path, line, why);
}

static void load_user(struct kclassifier *c, const char *path, char *err, size_t errn)
{
	FILE *f = infile_fopen(path);
	if (!f) {
		add_err(err, errn, path, 0, "cannot open");
		return;
	}
	char line[4096];
	long no = 0;
	while (fgets(line, sizeof(line), f)) {
		no++;
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		size_t n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			p[--n] = '\0';
		if (!*p || *p == '#')
			continue;
		char *sp = p;
		while (*sp && !isspace((unsigned char)*sp))
			sp++;
		char *pat = sp;
		if (*sp)
			*pat++ = '\0';
		while (isspace((unsigned char)*pat))
			pat++;
		enum kclass k;
		if (!parse_class(p, &k) || !*pat) {
			add_err(err, errn, path, no, "expected 'CLASS REGEX' (CLASS: communication, memory, computation, other)");
			continue;
		}
		xgrow((void **)&c->user, &c->cap, c->nuser + 1, sizeof(*c->user));
		if (regcomp(&c->user[c->nuser].re, pat, REG_EXTENDED | REG_NOSUB) != 0) {
			add_err(err, errn, path, no, "invalid regular expression");
			continue;
		}
		c->user[c->nuser++].cls = k;
	}
	fclose(f);
}

struct kclassifier *kclass_new(const char *path, char *err, size_t errn)
{
	struct kclassifier *c = xcalloc(1, sizeof(*c));
	if (errn)
		err[0] = '\0';
	if (path)
		load_user(c, path, err, errn);
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
