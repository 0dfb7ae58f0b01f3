/* SPDX-License-Identifier: MIT */
/* store.c: the DASF model's string interner and uint64 -> uint32 map (see internal.h). */
#include "model/dasf/internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "model/xalloc.h"

#define ARENA_FIRST ((size_t)1 << 14)  /* blocks double from 16 KiB up to 1 MiB */
#define ARENA_BLOCK ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

/* A word-at-a-time hash (keys are often 30-60 bytes): 8 bytes per multiply, the tail
 * zero-padded; the length seeds it. Only equality and table spread depend on it. */
static uint32_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	if (i < len) {
		uint64_t w = 0;
		memcpy(&w, s + i, len - i);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	h ^= h >> 32;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h ^ h >> 29);
}

static char *arena_alloc(struct dasf_intern *in, size_t n)
{
	size_t head = sizeof(char *);
	if (!in->arena || in->arena_used + n > in->arena_cap) {
		size_t want = in->arena_cap ? in->arena_cap * 2 : ARENA_FIRST;
		if (want > ARENA_BLOCK)
			want = ARENA_BLOCK;
		size_t cap = n + head > want ? n + head : want;
		char *blk = xmalloc(cap);
		memcpy(blk, &in->arena, sizeof(char *)); /* chain to the previous block */
		in->arena = blk;
		in->arena_used = head;
		in->arena_cap = cap;
	}
	char *p = in->arena + in->arena_used;
	in->arena_used += n;
	return p;
}

/* A slot holds hash << 32 | (id + 1), 0 when empty: a probe compares hashes without
 * touching the string tables (one cache miss less per probe). */
/* A zeroed slot table. From 2 MiB up it is aligned to and asks for huge pages: every
 * probe lands on a random slot, and with 4 KiB pages each one also missed the TLB. */
static uint64_t *slot_table(size_t nslot)
{
	size_t bytes = nslot * sizeof(uint64_t);
	void *p = NULL;
	if (bytes < HUGE_PAGE || posix_memalign(&p, HUGE_PAGE, bytes) != 0)
		return xcalloc(nslot, sizeof(uint64_t));
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without THP the table works the same */
#endif
	memset(p, 0, bytes);
	return p;
}

static void rehash(struct dasf_intern *in)
{
	size_t nslot = in->nslot ? in->nslot * 2 : 1024;
	uint64_t *slot = slot_table(nslot);
	for (size_t k = 0; k < in->nslot; k++) {
		if (!in->slot[k])
			continue;
		size_t i = (in->slot[k] >> 32) & (nslot - 1);
		while (slot[i])
			i = (i + 1) & (nslot - 1);
		slot[i] = in->slot[k];
	}
	free(in->slot);
	in->slot = slot;
	in->nslot = nslot;
}

static uint32_t lookup(const struct dasf_intern *in, const char *s, size_t len, uint32_t h,
		       size_t *at)
{
	if (!in->nslot)
		return DASF_NONE;
	size_t i = h & (in->nslot - 1);
	for (; in->slot[i]; i = (i + 1) & (in->nslot - 1)) {
		if ((uint32_t)(in->slot[i] >> 32) != h)
			continue;
		uint32_t id = (uint32_t)in->slot[i] - 1;
		if (in->len[id] == len && memcmp(in->str[id], s, len) == 0)
			return id;
	}
	*at = i;
	return DASF_NONE;
}

/* Add s (absent; `at` is the empty slot lookup() found) and return its id. */
static uint32_t insert(struct dasf_intern *in, const char *s, size_t len, uint32_t h, size_t at)
{
	uint32_t id;
	if ((in->n + 1) * 2 > in->nslot) {
		rehash(in);
		lookup(in, s, len, h, &at);
	}
	if (in->n == in->cap) {
		xgrow((void **)&in->str, &in->cap, in->n + 1, sizeof(*in->str));
		in->len = xrealloc(in->len, in->cap * sizeof(*in->len));
	}
	char *copy = arena_alloc(in, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	id = (uint32_t)in->n++;
	in->str[id] = copy;
	in->len[id] = (uint32_t)len;
	in->slot[at] = (uint64_t)h << 32 | (id + 1);
	return id;
}

uint32_t dasf_hash(const char *s, size_t len)
{
	return hash_bytes(s, len);
}

void dasf_intern_prefetch(const struct dasf_intern *in, uint32_t h)
{
	if (in->nslot && (uint32_t)(in->recent[h & (DASF_INTERN_RECENT - 1)] >> 32) != h)
		__builtin_prefetch(&in->slot[h & (in->nslot - 1)]);
}

uint32_t dasf_intern(struct dasf_intern *in, const char *s, size_t len)
{
	return dasf_intern_hashed(in, s, len, hash_bytes(s, len));
}

uint32_t dasf_intern_hashed(struct dasf_intern *in, const char *s, size_t len, uint32_t h)
{
	uint64_t *recent = &in->recent[h & (DASF_INTERN_RECENT - 1)];
	uint32_t id = (uint32_t)*recent - 1;
	if (*recent && (uint32_t)(*recent >> 32) == h && in->len[id] == len && memcmp(in->str[id], s, len) == 0)
		return id;
	size_t at = 0;
	id = lookup(in, s, len, h, &at);
	if (id == DASF_NONE)
		id = insert(in, s, len, h, at);
	*recent = (uint64_t)h << 32 | (id + 1);
	return id;
}

uint32_t dasf_intern_find(const struct dasf_intern *in, const char *s)
{
	size_t len = strlen(s), at;
	return lookup(in, s, len, hash_bytes(s, len), &at);
}

void dasf_intern_free(struct dasf_intern *in)
{
	char *blk = in->arena;
	while (blk) {
		char *prev;
		memcpy(&prev, blk, sizeof(char *));
		free(blk);
		blk = prev;
	}
	free(in->str);
	free(in->len);
	free(in->slot);
	memset(in, 0, sizeof(*in));
}

static size_t map_slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

static void map_grow(struct dasf_map *m)
{
	struct dasf_map big = { .cap = m->cap ? m->cap * 2 : 256 };
	big.key = xmalloc(big.cap * sizeof(*big.key));
	big.val = xmalloc(big.cap * sizeof(*big.val));
	big.used = xcalloc(big.cap, sizeof(*big.used));
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			dasf_map_get_or_add(&big, m->key[i], m->val[i]);
	dasf_map_free(m);
	*m = big;
}

uint32_t dasf_map_get_or_add(struct dasf_map *m, uint64_t key, uint32_t fresh)
{
	if ((m->n + 1) * 2 > m->cap)
		map_grow(m);
	size_t i = map_slot(key, m->cap);
	for (; m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return m->val[i];
	m->used[i] = true;
	m->key[i] = key;
	m->val[i] = fresh;
	m->n++;
	return fresh;
}

uint32_t dasf_map_find(const struct dasf_map *m, uint64_t key)
{
	if (!m->cap)
		return DASF_NONE;
	for (size_t i = map_slot(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return m->val[i];
	return DASF_NONE;
}

void dasf_map_free(struct dasf_map *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
