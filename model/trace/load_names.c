/* SPDX-License-Identifier: MIT */
/* load_names.c: the loader's table of GPU event names (load_names.h): interned by their
 * raw JSON bytes in an open-addressing hash, decoded once (a NUL made visible); a name
 * stays when its events are skipped (load.c drop_far). */
#include "model/trace/load_names.h"

#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

struct name_slot {
	uint64_t hash;
	int32_t idx;       /* -1 empty */
};

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static void names_rehash(struct trace_names *nt)
{
	size_t ncap = nt->nslots ? nt->nslots * 2 : 1024;
	struct name_slot *ns = xmalloc(ncap * sizeof(*ns));
	for (size_t i = 0; i < ncap; i++)
		ns[i].idx = -1;
	for (size_t i = 0; i < nt->nslots; i++) {
		if (nt->slots[i].idx < 0)
			continue;
		size_t j = nt->slots[i].hash & (ncap - 1);
		while (ns[j].idx >= 0)
			j = (j + 1) & (ncap - 1);
		ns[j] = nt->slots[i];
	}
	free(nt->slots);
	nt->slots = ns;
	nt->nslots = ncap;
}

/* s[0..n) as a C string, each NUL byte written "^@". */
static char *name_dup(const char *s, size_t n)
{
	size_t nul = 0;
	for (size_t i = 0; i < n; i++)
		nul += s[i] == '\0';
	char *out = xmalloc(n + nul + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\0') {
			*o++ = '^';
			*o++ = '@';
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* The decoded name: jsmn token t's string unescaped when d is given, else s[0..n). */
static char *decode_name(const char *s, size_t n, const struct json_doc *d, int t)
{
	if (!d)
		return name_dup(s, n);
	char *raw = xmalloc((size_t)(d->tok[t].end - d->tok[t].start) + 1);
	size_t len = json_strput(d, t, raw);
	char *out = name_dup(raw, len);
	free(raw);
	return out;
}

int32_t trace_names_intern(struct trace_names *nt, struct trace_rank *r, const char *s, size_t n,
			   const struct json_doc *d, int t)
{
	if ((r->nnames + 1) * 2 > nt->nslots)
		names_rehash(nt);
	uint64_t h = fnv1a(s, n);
	size_t j = h & (nt->nslots - 1);
	while (nt->slots[j].idx >= 0) {
		int32_t i = nt->slots[j].idx;
		if (nt->slots[j].hash == h && nt->rawlen[i] == n && memcmp(nt->raw[i], s, n) == 0)
			return i;
		j = (j + 1) & (nt->nslots - 1);
	}
	size_t cap = r->namecap;
	xgrow((void **)&r->names, &r->namecap, r->nnames + 1, sizeof(*r->names));
	if (r->namecap != cap) {
		nt->raw = xrealloc(nt->raw, r->namecap * sizeof(*nt->raw));
		nt->rawlen = xrealloc(nt->rawlen, r->namecap * sizeof(*nt->rawlen));
	}
	int32_t idx = (int32_t)r->nnames++;
	r->names[idx] = decode_name(s, n, d, t);
	nt->raw[idx] = xstrndup(s, n);
	nt->rawlen[idx] = n;
	nt->slots[j] = (struct name_slot){ .hash = h, .idx = idx };
	return idx;
}

void trace_names_free(struct trace_names *nt, const struct trace_rank *r)
{
	for (size_t k = 0; k < r->nnames; k++)
		free(nt->raw[k]);
	free(nt->raw);
	free(nt->rawlen);
	free(nt->slots);
}
