/* SPDX-License-Identifier: MIT */
/* scan_nest.c: the bracket nesting of a trace event that looks broken (scan_nest.h). */
#include "model/trace/scan_nest.h"

static bool nest_in_array(const struct nest *n)
{
	return n->lvl > 0 && n->lvl <= 64 && (n->arr >> (n->lvl - 1) & 1);
}

static void nest_push(struct nest *n, bool array)
{
	if (n->lvl < 64)
		n->arr = array ? n->arr | 1ULL << n->lvl : n->arr & ~(1ULL << n->lvl);
	n->lvl++;
}

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* A '{' after a ',' inside an object, where only a key may come: the objects open there
 * lack their '}'. Close them up to the innermost array inside the event, where the '{'
 * starts an element; false when there is none (the event itself lacks its '}'). */
static bool nest_close_unclosed(struct nest *n)
{
	while (n->lvl > 1 && !nest_in_array(n)) {
		n->lvl--;
		n->depth--;
	}
	return nest_in_array(n);
}

int nest_step(struct nest *n, const unsigned char *b, size_t from, size_t p)
{
	switch (b[p]) {
	case '{':
		if (n->depth > 0 && n->lvl <= 64 && !nest_in_array(n) && nest_after_comma(b, from, p)) {
			if (!nest_close_unclosed(n))
				return -1;
			if (!n->resync)
				n->resync = p - from + 1;
		}
		n->depth++;
		nest_push(n, false);
		return 0;
	case '[':
		nest_push(n, true);
		return 0;
	case ']':
		if (nest_in_array(n) || n->lvl > 64)
			n->lvl--;
		else if (n->depth == 1 && n->lvl == 1)
			n->stray = p - from + 1;
		return 0;
	default: /* '}' closes the arrays left open inside its object */
		while (nest_in_array(n))
			n->lvl--;
		if (n->lvl > 0)
			n->lvl--;
		return --n->depth <= 0;
	}
}

/* Track the nesting of the event bytes b[from..to) (in memory, outside a string at both
 * ends) into n, from scratch. */
static void nest_replay(struct nest *n, const unsigned char *b, size_t from, size_t to)
{
	*n = (struct nest){ .on = true };
	for (size_t p = from; p < to; p++) {
		if (b[p] == '"') {
			for (p++; p < to && b[p] != '"'; p++)
				if (b[p] == '\\')
					p++; /* and the byte it escapes */
			if (p >= to)
				return;
		} else if (b[p] == '{' || b[p] == '}' || b[p] == '[' || b[p] == ']') {
			nest_step(n, b, from, p);
		}
	}
}

bool nest_check(struct nest *n, const unsigned char *b, size_t from, size_t p)
{
	if (!n->on)
		nest_replay(n, b, from, p);
	return nest_step(n, b, from, p) < 0;
}

size_t nest_unclosed_len(const char *js, size_t len)
{
	while (len > 0 && (is_ws((unsigned char)js[len - 1]) || js[len - 1] == ','))
		len--;
	return len;
}

bool nest_swallowed_end(const char *js, size_t len, size_t *evlen, size_t *rest)
{
	const unsigned char *b = (const unsigned char *)js;
	struct nest n;
	nest_replay(&n, b, 0, len - 1);
	if (!n.stray)
		return false;
	size_t q = n.stray;
	while (is_ws(b[q]))
		q++;
	if (b[q] != ',' && q != len - 1)
		return false;
	*evlen = nest_unclosed_len(js, n.stray - 1);
	*rest = n.stray;
	return true;
}
