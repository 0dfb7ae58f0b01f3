/* SPDX-License-Identifier: MIT */
/* load_legacy.c: the DASF loader's legacy `trace: {json}` format, one line's JSON object
 * packed as a MessagePack map (the widest encodings: the reader, load_mp.c, takes them
 * all), so that load.c ingests it as it does a record of a database. Nothing here reads
 * files, prints or exits. See internal.h for the contract. */
#include "model/dasf/internal.h"

#include <stdlib.h>
#include <string.h>
#include "model/json.h"
#include "model/xalloc.h"

#define LEGACY_DEPTH 64

/* Marker m, then v big-endian in w bytes. */
static void pack_head(struct dasf_packer *pk, unsigned char m, uint64_t v, int w)
{
	xgrow((void **)&pk->b, &pk->cap, pk->n + 1 + (size_t)w, 1);
	pk->b[pk->n++] = m;
	for (int i = w - 1; i >= 0; i--)
		pk->b[pk->n++] = (unsigned char)(v >> (8 * i));
}

static void pack_str(struct dasf_packer *pk, const char *s, size_t n)
{
	pack_head(pk, 0xdb, n, 4);
	xgrow((void **)&pk->b, &pk->cap, pk->n + n, 1);
	memcpy(pk->b + pk->n, s, n);
	pk->n += n;
}

static void pack_double(struct dasf_packer *pk, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	pack_head(pk, 0xcb, bits, 8);
}

/* Pack token i; -1 when too deep or malformed (jsmn is lenient: a key may lack its value,
 * so members are counted by walking them, and every index is checked). */
static int pack_json(struct dasf_packer *pk, const struct json_doc *d, int i, int depth)
{
	if (depth > LEGACY_DEPTH || i < 0 || i >= d->ntok)
		return -1;
	const jsmntok_t *t = &d->tok[i];
	if (t->type == JSMN_OBJECT || t->type == JSMN_ARRAY) {
		size_t n = 0;
		for (int k = json_first(d, i); k >= 0; k = json_next(d, i, k))
			n++;
		pack_head(pk, t->type == JSMN_OBJECT ? 0xdf : 0xdd, n, 4);
		for (int k = json_first(d, i); k >= 0; k = json_next(d, i, k)) {
			if (t->type == JSMN_OBJECT && pack_json(pk, d, k, depth + 1) < 0)
				return -1;
			if (pack_json(pk, d, t->type == JSMN_OBJECT ? k + 1 : k, depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	if (t->type == JSMN_STRING) {
		char *s = json_strdup(d, i);
		size_t n = strlen(s);
		pack_str(pk, s, n);
		free(s);
		return 0;
	}
	long long iv;
	double dv;
	bool bv;
	if (json_is_null(d, i))
		pack_head(pk, 0xc0, 0, 0);
	else if (json_bool(d, i, &bv))
		pack_head(pk, bv ? 0xc3 : 0xc2, 0, 0);
	else if (json_int(d, i, &iv))
		pack_head(pk, 0xd3, (uint64_t)iv, 8);
	else if (json_number(d, i, &dv))
		pack_double(pk, dv);
	else
		return -1;
	return 0;
}

bool dasf_legacy_pack(struct dasf_packer *pk, const struct json_doc *d)
{
	pk->n = 0;
	return json_is_object(d, 0) && pack_json(pk, d, 0, 0) == 0;
}
