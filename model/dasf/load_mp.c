/* SPDX-License-Identifier: MIT */
/* load_mp.c: the DASF loader's MessagePack reader. One pass over a record validates it
 * (one complete object exactly filling the bytes, every count and length within them,
 * containers at most 32 deep as msgpack-c decodes them) and notes where the values the
 * analyses use begin; nothing is allocated and nothing is decoded twice. The getters
 * below read those values in place. See internal.h for the contract. */
#include "model/dasf/internal.h"

#include <limits.h>
#include <string.h>

/* msgpack-c's unpacker refuses a container nested deeper than this (its
 * MSGPACK_EMBED_STACK_SIZE); the loader keeps that limit so results stay the same. */
#define MP_MAX_DEPTH 32

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The head of the object at p: *hdr bytes after the marker hold its size, then *pay
 * bytes of payload follow; a container has *items children (keys and values for a map).
 * False for the reserved marker 0xc1 or a size field past end. */
static bool head(const unsigned char *p, const unsigned char *end, uint64_t *pay, uint64_t *items,
		 int *hdr)
{
	unsigned m = p[0];
	*items = 0;
	*pay = 0;
	*hdr = 0;
	if (m <= 0x7f || m >= 0xe0 || m == 0xc0 || m == 0xc2 || m == 0xc3)
		return true;
	if (m <= 0x8f) {
		*items = 2ull * (m & 0x0f);
		return true;
	}
	if (m <= 0x9f) {
		*items = m & 0x0f;
		return true;
	}
	if (m <= 0xbf) {
		*pay = m & 0x1f;
		return true;
	}
	/* 0xc4..0xdf: size-field width (bytes), fixed payload (-1: the size field's value,
	 * -2: that + the ext type byte), container (1 array, 2 map) */
	static const struct { signed char hdr, fixed, container; } tab[] = {
		{ 1, -1, 0 }, { 2, -1, 0 }, { 4, -1, 0 },                           /* bin 8/16/32 */
		{ 1, -2, 0 }, { 2, -2, 0 }, { 4, -2, 0 },                           /* ext 8/16/32 */
		{ 0, 4, 0 }, { 0, 8, 0 },                                           /* float 32/64 */
		{ 0, 1, 0 }, { 0, 2, 0 }, { 0, 4, 0 }, { 0, 8, 0 },                 /* uint 8..64 */
		{ 0, 1, 0 }, { 0, 2, 0 }, { 0, 4, 0 }, { 0, 8, 0 },                 /* int 8..64 */
		{ 0, 2, 0 }, { 0, 3, 0 }, { 0, 5, 0 }, { 0, 9, 0 }, { 0, 17, 0 },   /* fixext */
		{ 1, -1, 0 }, { 2, -1, 0 }, { 4, -1, 0 },                           /* str 8/16/32 */
		{ 2, 0, 1 }, { 4, 0, 1 }, { 2, 0, 2 }, { 4, 0, 2 },                 /* array, map 16/32 */
	};
	if (m < 0xc4) /* 0xc1: never used */
		return false;
	size_t i = m - 0xc4;
	*hdr = tab[i].hdr;
	if ((size_t)(end - p) < (size_t)tab[i].hdr + 1)
		return false;
	uint64_t n = be(p + 1, tab[i].hdr);
	if (tab[i].container)
		*items = tab[i].container == 2 ? 2 * n : n;
	else
		*pay = tab[i].fixed >= 0 ? (uint64_t)tab[i].fixed : n + (tab[i].fixed == -2);
	return true;
}

static bool is_container(unsigned m)
{
	return (m >= 0x80 && m <= 0x9f) || (m >= 0xdc && m <= 0xdf);
}

/* True when the (valid) value at p, inside `outer` containers, holds a container at
 * nesting level MP_MAX_DEPTH + 1 or deeper. Recursion stops at that level. */
static bool too_deep(const unsigned char **pp, const unsigned char *end, int outer)
{
	const unsigned char *p = *pp;
	uint64_t pay, items;
	int hdr;
	head(p, end, &pay, &items, &hdr);
	if (is_container(p[0]) && outer >= MP_MAX_DEPTH)
		return true;
	p += 1 + hdr + pay;
	for (uint64_t i = 0; i < items; i++)
		if (too_deep(&p, end, outer + 1))
			return true;
	*pp = p;
	return false;
}

/* Size of the scalar at p when its marker alone tells it (the common markers: fixint,
 * nil, bool, fixstr, float64, uint64, int64, str8), else 0. */
static inline uint64_t quick_size(const unsigned char *p, const unsigned char *end)
{
	unsigned m = p[0];
	if (m <= 0x7f || m >= 0xe0 || m == 0xc0 || m == 0xc2 || m == 0xc3)
		return 1;
	if (m >= 0xa0 && m <= 0xbf)
		return 1 + (m & 0x1f);
	if (m == 0xcb || m == 0xcf || m == 0xd3)
		return 9;
	if (m == 0xd9 && end - p >= 2)
		return 2 + (uint64_t)p[1];
	return 0;
}

/* skip() for values that are not a scalar of a common marker. */
static bool skip_any(const unsigned char **pp, const unsigned char *end, int outer, bool *deep)
{
	const unsigned char *p = *pp, *start = p;
	uint64_t pending = 1, containers = 0;
	while (pending) {
		if (p >= end)
			return false;
		uint64_t pay = quick_size(p, end), items;
		if (pay) {
			if (pay > (uint64_t)(end - p))
				return false;
			p += pay;
			pending--;
			continue;
		}
		int hdr;
		if (!head(p, end, &pay, &items, &hdr))
			return false;
		containers += is_container(p[0]);
		p += 1 + hdr;
		if (pay > (uint64_t)(end - p) || items > (uint64_t)(end - p))
			return false;
		p += pay;
		pending += items - 1;
	}
	*pp = p;
	if (containers && (int)containers + outer > MP_MAX_DEPTH && too_deep(&start, end, outer))
		*deep = true;
	return true;
}

/* Validate the value at *pp and step over it. A value that holds enough containers to
 * reach the depth limit from `outer` enclosing containers is checked exactly (sets
 * *deep). False when malformed. */
static inline bool skip(const unsigned char **pp, const unsigned char *end, int outer, bool *deep)
{
	const unsigned char *p = *pp;
	uint64_t n = p < end ? quick_size(p, end) : 0;
	if (n && n <= (uint64_t)(end - p)) {
		*pp = p + n;
		return true;
	}
	return skip_any(pp, end, outer, deep);
}

/* A str at p: its bytes and length. False for any other type (bin included). */
static inline bool str_at(const unsigned char *p, const unsigned char *end, const char **s, size_t *n)
{
	unsigned m = p[0];
	int hdr;
	if (m >= 0xa0 && m <= 0xbf)
		hdr = 0, *n = m & 0x1f;
	else if (m >= 0xd9 && m <= 0xdb)
		hdr = 1 << (m - 0xd9), *n = (size_t)be(p + 1, hdr);
	else
		return false;
	if ((size_t)(end - p) < (size_t)hdr + 1 || *n > (size_t)(end - p) - 1 - (size_t)hdr)
		return false;
	*s = (const char *)p + 1 + hdr;
	return true;
}

static bool key_is(const char *s, size_t n, const char *want, size_t wn)
{
	return n == wn && memcmp(s, want, wn) == 0;
}

/* The slot of a top-level key the analyses read, or NULL. */
static const unsigned char **top_slot(struct dasf_rec *r, const char *k, size_t n, bool legacy)
{
	switch (n) {
	case 4:
		return key_is(k, n, "name", 4) ? &r->name : !legacy && key_is(k, n, "args", 4) ? &r->args :
		       legacy && key_is(k, n, "data", 4) ? &r->args : NULL;
	case 8: return key_is(k, n, "duration", 8) ? &r->duration : NULL;
	case 9:
		return key_is(k, n, "timestamp", 9) ? &r->timestamp : key_is(k, n, "thread_id", 9) ? &r->thread_id : NULL;
	case 10: return key_is(k, n, "process_id", 10) ? &r->process_id : NULL;
	default: return NULL;
	}
}

/* The slot of an args key the analyses read, or NULL. */
static const unsigned char **args_slot(struct dasf_rec *r, const char *k, size_t n)
{
	switch (n) {
	case 3: return key_is(k, n, "key", 3) ? &r->key : NULL;
	case 4:
		return key_is(k, n, "name", 4) ? &r->fn : key_is(k, n, "size", 4) ? &r->size :
		       key_is(k, n, "type", 4) ? &r->type : NULL;
	case 5: return key_is(k, n, "shape", 5) ? &r->shape : key_is(k, n, "tasks", 5) ? &r->tasks : NULL;
	case 10: return key_is(k, n, "dependents", 10) ? &r->dnts : NULL;
	case 12: return key_is(k, n, "dependencies", 12) ? &r->deps : NULL;
	case 15:
		return key_is(k, n, "gpu_utilization", 15) ? &r->gpu_util :
		       key_is(k, n, "gpu_memory_used", 15) ? &r->gpu_mem : NULL;
	default: return NULL;
	}
}

/* A map's entry count at *pp (stepping over its head), or false when not a map or its
 * count cannot fit in the bytes left. */
static bool map_head(const unsigned char **pp, const unsigned char *end, uint64_t *n)
{
	const unsigned char *p = *pp;
	uint64_t pay, items;
	int hdr;
	if (!((p[0] >= 0x80 && p[0] <= 0x8f) || p[0] == 0xde || p[0] == 0xdf) || !head(p, end, &pay, &items, &hdr))
		return false;
	p += 1 + hdr;
	if (items > (uint64_t)(end - p))
		return false;
	*n = items / 2;
	*pp = p;
	return true;
}

/* Walk the entries of the map whose entries start at *pp, inside `outer` containers:
 * keys found by `slot` (top_slot or args_slot) keep their first value's position; the
 * first args value that is a map is walked too (its entries into r). */
static bool walk_map(const unsigned char **pp, const unsigned char *end, uint64_t n, int outer,
		     struct dasf_rec *r, bool legacy, bool top, bool *deep)
{
	const unsigned char *p = *pp;
	for (uint64_t i = 0; i < n; i++) {
		const unsigned char **slot = NULL;
		const char *k;
		size_t kn;
		if (p >= end)
			return false;
		if (str_at(p, end, &k, &kn)) {
			slot = top ? top_slot(r, k, kn, legacy) : args_slot(r, k, kn);
			p = (const unsigned char *)k + kn;
		} else if (!skip(&p, end, outer, deep)) {
			return false;
		}
		if (p >= end)
			return false;
		if (slot && *slot)
			slot = NULL; /* a duplicate key: the first one counts */
		if (slot)
			*slot = p;
		uint64_t m;
		const unsigned char *q = p;
		if (top && slot == &r->args && map_head(&q, end, &m)) {
			if (!walk_map(&q, end, m, outer + 1, r, legacy, false, deep))
				return false;
			p = q;
		} else if (!skip(&p, end, outer, deep)) {
			return false;
		}
	}
	*pp = p;
	return true;
}

enum dasf_rec_status dasf_rec_scan(const unsigned char *buf, size_t n, bool legacy, struct dasf_rec *r)
{
	memset(r, 0, sizeof(*r));
	const unsigned char *p = buf, *end = buf + n;
	bool deep = false, ok;
	uint64_t m;
	if (!n)
		return DASF_REC_MALFORMED;
	bool is_map = map_head(&p, end, &m);
	ok = is_map ? walk_map(&p, end, m, 1, r, legacy, true, &deep) : skip(&p, end, 0, &deep);
	r->end = end;
	if (!ok || p != end)
		return DASF_REC_MALFORMED;
	if (deep)
		return DASF_REC_TOO_DEEP;
	return is_map ? DASF_REC_OK : DASF_REC_NOT_MAP;
}

bool dasf_mp_str(const struct dasf_rec *r, const unsigned char *v, const char **s, size_t *n)
{
	return v && str_at(v, r->end, s, n);
}

bool dasf_mp_number(const unsigned char *v, double *out)
{
	long long i;
	if (!v)
		return false;
	if (v[0] == 0xca) {
		uint32_t b = (uint32_t)be(v + 1, 4);
		float f;
		memcpy(&f, &b, sizeof(f));
		*out = f;
	} else if (v[0] == 0xcb) {
		uint64_t b = be(v + 1, 8);
		memcpy(out, &b, sizeof(*out));
	} else if (v[0] == 0xcf) {
		*out = (double)be(v + 1, 8);
	} else if (dasf_mp_int(v, &i)) {
		*out = (double)i;
	} else {
		return false;
	}
	return true;
}

bool dasf_mp_int(const unsigned char *v, long long *out)
{
	if (!v)
		return false;
	unsigned m = v[0];
	if (m <= 0x7f || m >= 0xe0) {
		*out = (signed char)m;
		return true;
	}
	switch (m) {
	case 0xcc: *out = v[1]; return true;
	case 0xcd: *out = (long long)be(v + 1, 2); return true;
	case 0xce: *out = (long long)be(v + 1, 4); return true;
	case 0xcf: {
		uint64_t u = be(v + 1, 8);
		if (u > (uint64_t)LLONG_MAX)
			return false;
		*out = (long long)u;
		return true;
	}
	case 0xd0: *out = (int8_t)v[1]; return true;
	case 0xd1: *out = (int16_t)be(v + 1, 2); return true;
	case 0xd2: *out = (int32_t)be(v + 1, 4); return true;
	case 0xd3: *out = (long long)be(v + 1, 8); return true;
	default: return false;
	}
}

bool dasf_mp_uint(const unsigned char *v, unsigned long long *out)
{
	if (!v || v[0] != 0xcf)
		return false;
	*out = be(v + 1, 8);
	return true;
}

bool dasf_mp_is_nil(const unsigned char *v)
{
	return v && v[0] == 0xc0;
}

const char *dasf_mp_kind(const unsigned char *v)
{
	double x;
	unsigned m = v[0];
	if (dasf_mp_number(v, &x))
		return "a number";
	if ((m >= 0xa0 && m <= 0xbf) || (m >= 0xd9 && m <= 0xdb))
		return "a string";
	if (m <= 0x8f || m == 0xde || m == 0xdf)
		return "a map";
	if (m <= 0x9f || m == 0xdc || m == 0xdd)
		return "an array";
	if (m == 0xc0)
		return "nil";
	if (m == 0xc2 || m == 0xc3)
		return "a boolean";
	if (m >= 0xc4 && m <= 0xc6)
		return "binary data";
	return "an extension value";
}

uint32_t dasf_mp_array(const unsigned char *v, const unsigned char **first)
{
	if (!v)
		return DASF_NONE;
	uint64_t n;
	if (v[0] >= 0x90 && v[0] <= 0x9f) {
		n = v[0] & 0x0f;
		*first = v + 1;
	} else if (v[0] == 0xdc || v[0] == 0xdd) {
		int w = v[0] == 0xdc ? 2 : 4;
		n = be(v + 1, w);
		*first = v + 1 + w;
	} else {
		return DASF_NONE;
	}
	return (uint32_t)n;
}

const unsigned char *dasf_mp_next(const struct dasf_rec *r, const unsigned char *v)
{
	bool deep = false;
	skip(&v, r->end, 0, &deep); /* checked by dasf_rec_scan: cannot fail */
	return v;
}
