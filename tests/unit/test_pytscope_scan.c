/* SPDX-License-Identifier: MIT */
/* test_pytscope_scan.c: the steps.jsonl fast path (model/steps/scan.c) against the
 * jsmn path. Generated lines (every key order and subset, whitespace, NaN/Infinity,
 * long mantissas, exponents, float steps, empty and oversized groups, long and UTF-8
 * keys), their mutations (byte flips, cuts, deletions, repeated keys, escapes, nested
 * values, strings) and the hostile-line corpus are loaded twice, with the scanner on and
 * off; every stored value (bit for bit), metric name and order, source count and
 * diagnostic must be the same. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/json.h"
#include "model/json_number.h"
#include "model/steps/scan.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "tests/steps_compare.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char root[2048];
static unsigned seed = 12345;

static unsigned num_seed = 777; /* numbers: a line's shape can be repeated with new numbers */

static unsigned rnd_from(unsigned *s, unsigned n)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) % n;
}

static unsigned rnd(unsigned n)
{
	return rnd_from(&seed, n);
}

static unsigned rnd_num(unsigned n)
{
	return rnd_from(&num_seed, n);
}

struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			exit(1);
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static void puts_(struct text *t, const char *s)
{
	put(t, s, strlen(s));
}

static const char *ws(void)
{
	static const char *const w[] = { "", "", "", "", " ", "\t", "  ", "\r" };
	return w[rnd(8)];
}

static const char *number(void)
{
	static const char *const v[] = {
		"0.007658334", "0.030954727", "1.5", "0", "-0", "-0.0", "12", "3.392390708859734",
		"1.2179151109982091", "6e-06", "1.2e-05", "1E+3", "4294989824.0", "6979321856.0",
		"NaN", "Infinity", "-Infinity", "1e308", "1e-320", "2.2250738585072014e-308",
		"123456789012345678901234567890", "0.1000000000000000055511151231257827",
		"9007199254740993", "-5e22", "1e23", "7.0e-10", "3.4028235e38", "1795344000.1198754",
		/* phases as nanosecond codes (scan_member_value): the edges of 0-4.294967295 s */
		"4.294967295", "4.294967296", "4.2949672950", "0.000000001", "0.0000000001", "-0.000000001",
		"0.123456789", "1234567890123456.5", "0.0311004", "00.5", "4294967295", "0.5e1",
	};
	return v[rnd_num(ARRAY_LEN(v))];
}

static const char *step_value(unsigned i)
{
	static char buf[32];
	static const char *const v[] = { "5.0", "1e3", "-3", "0", "9223372036854775807", "00" };
	if (rnd_num(6) == 0)
		return v[rnd_num(ARRAY_LEN(v))];
	snprintf(buf, sizeof(buf), "%u", i);
	return buf;
}

static void group(struct text *t, const char *const *keys, size_t nkeys)
{
	puts_(t, "{");
	puts_(t, ws());
	size_t n = rnd(3) == 0 ? rnd((unsigned)nkeys + 1) : nkeys;
	if (rnd(40) == 0)
		n = 40; /* more members than the scanner takes */
	for (size_t i = 0; i < n; i++) {
		char key[80];
		if (i < nkeys)
			snprintf(key, sizeof(key), "%s", keys[(i + (rnd(64) == 0)) % nkeys]);
		else
			snprintf(key, sizeof(key), "extra_%zu", i);
		if (i)
			puts_(t, ",");
		puts_(t, ws());
		puts_(t, "\"");
		puts_(t, key);
		puts_(t, "\"");
		puts_(t, ws());
		puts_(t, ":");
		puts_(t, ws());
		puts_(t, number());
		puts_(t, ws());
	}
	puts_(t, "}");
}

/* One generated line: the top-level members in a random order and subset. */
static void gen_line(struct text *t, unsigned i)
{
	static const char *const phases[] = { "data", "forward", "backward", "optimizer", "comm",
					      "a_phase_name_that_is_longer_than_the_key_cache_slot",
					      "backward_compute_time", "a_thirty_one_byte_phase_name_xy",
					      "\xce\xbb_phase", "" };
	static const char *const scalars[] = { "loss", "grad_norm", "lr" };
	static const char *const memory[] = { "alloc", "reserved", "peak_alloc", "peak_reserved" };
	int order[5] = { 0, 1, 2, 3, 4 };
	for (int k = 4; k > 0; k--) {
		int j = (int)rnd((unsigned)k + 1), tmp = order[k];
		order[k] = order[j];
		order[j] = tmp;
	}
	puts_(t, ws());
	puts_(t, "{");
	bool first = true;
	for (int k = 0; k < 5; k++) {
		if (order[k] != 0 && rnd(6) == 0)
			continue;
		if (!first)
			puts_(t, ",");
		first = false;
		puts_(t, ws());
		static const char *const names[] = { "\"step\"", "\"timestamp\"", "\"phases\"",
						     "\"scalars\"", "\"memory\"" };
		puts_(t, names[order[k]]);
		puts_(t, ws());
		puts_(t, ":");
		puts_(t, ws());
		switch (order[k]) {
		case 0: puts_(t, step_value(i)); break;
		case 1: puts_(t, rnd_num(4) ? "1795344000.1198754" : number()); break;
		case 2: group(t, phases, rnd(4) ? 5 : ARRAY_LEN(phases)); break;
		case 3: group(t, scalars, ARRAY_LEN(scalars)); break;
		case 4: group(t, memory, ARRAY_LEN(memory)); break;
		}
		puts_(t, ws());
	}
	puts_(t, "}");
	puts_(t, ws());
}

/* Line i of a file: three in four repeat the shape (keys, order, whitespace) of the
 * line before with other numbers, as real files do (the scanner's shape path). */
static void gen_line_like(struct text *t, unsigned i)
{
	static unsigned shape_seed;
	if (i > 0 && rnd(4)) {
		unsigned keep = seed;
		seed = shape_seed;
		gen_line(t, i);
		seed = keep;
		return;
	}
	shape_seed = seed;
	gen_line(t, i);
}

/* Mutations the scanner must refuse or treat exactly as jsmn does. */
static void mutate(struct text *line)
{
	static const char *const inserts[] = {
		"\"x\":1,", "\"step\":1,", "\"phases\":{},", "\"a\\\"b\":1,", "\"s\\u0074ep\":2,",
		"\"n\":{\"m\":1},", "\"n\":[1],", "\"n\":\"str\",", "\"n\":null,", "\"n\":true,",
		"\"timestamp\":\"x\",", "\"timestamp\":null,", "\"data\":1,",
	};
	static const char junk[] = "{}[]\":,0123456789.eE+-NIaInfty \\\x01\xff\x7f";
	if (line->n == 0)
		return;
	size_t at = rnd((unsigned)line->n);
	switch (rnd(5)) {
	case 0:
		line->s[at] = junk[rnd(sizeof(junk) - 1)];
		break;
	case 1:
		line->n = at; /* cut */
		break;
	case 2:
		if (at + 3 < line->n) {
			memmove(line->s + at, line->s + at + 3, line->n - at - 3);
			line->n -= 3;
		}
		break;
	default: {
		/* after an opening brace, so the line stays well formed around it */
		char *brace = memchr(line->s + at, '{', line->n - at);
		if (!brace)
			brace = memchr(line->s, '{', line->n);
		if (!brace)
			break;
		struct text t = { 0 };
		size_t off = (size_t)(brace - line->s) + 1;
		put(&t, line->s, off);
		puts_(&t, inserts[rnd(ARRAY_LEN(inserts))]);
		put(&t, line->s + off, line->n - off);
		free(line->s);
		*line = t;
		break;
	}
	}
	line->s[line->n] = '\0';
}

static const char hostile[] =
	"{\"step\":0,\"timestamp\":1.5,\"phases\":{\"forward\":0.01,\"backward\":0.02},\"scalars\":{\"loss\":NaN}}\n"
	"hello world\n"
	"\x01\xff\xfe{\x80\n"
	"{\"step\":1,\"scalars\":{\"loss\":Infinity,\"lr\":-Infinity}}\n"
	"{\"step\":1,\"phases\":{\"forward\":0.01,\"backward\":-0.5,\"comm\":NaN}}\n"
	"{\"phases\":{\"forward\":0.01}}\n"
	"[1,2,3]\n"
	"\n   \n"
	"{\"step\":2,\"phases\":{\"forward\":\"fast\",\"backward\":0.03}}\r\n"
	"{\"step\":2.5}\n"
	"{\"step\":3,\"phases\":{\"forward\":0.01}} {\"step\":4}\n"
	"{\"step\":3.0,\"phases\":{\"forward\":0.04}}\n"
	"{\"step\":7,\0\"x\":1}\n"
	"{\"step\":8,\"phases\":{\"f\0\":1}}\n"
	"{\"step\":9,\"phases\":{\"f\":1\0}}\n"
	"{\"step\":10,\"phases\":{\"f\":1,\"f\":2}}\n"
	"{\"step\":11,\"phases\":{\"f\":1},\"phases\":{\"g\":2}}\n"
	"{\"step\":12,\"phases\":{\"f\":01}}\n"
	"{\"step\":13,\"phases\":{\"f\":1.}}\n"
	"{\"step\":14,\"phases\":{\"f\":-}}\n"
	"{\"step\":15,\"phases\":{\"f\":NaNa}}\n"
	"{\"step\":16,\"phases\":{\"f\":1:2}}\n"
	"{\"step\":17,\"phases\":{\"f\":1]}}\n"
	"{\"step\":18,\"phases\":[1]}\n"
	"{\"step\":19,\"phases\":{\"f\":1},}\n"
	"{step:20}\n"
	"{\"step\":21 \"timestamp\":1}\n"
	"{\"step\":99999999999999999999}\n"
	"{\"step\":4,\"phases\":{\"forw";

static struct run *load(const char *dir, bool scan)
{
	static struct opts o = { .jobs = 1 };
	const char *paths[] = { dir };
	pytscope_scan_enable(scan);
	struct run *run = run_open(paths, 1, &o, NULL);
	pytscope_scan_enable(true);
	return run;
}

static int compare_file(const char *name, const char *data, size_t n)
{
	char dir[2200], path[2300];
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/steps.jsonl", dir);
	tu_write_file(path, data, n);
	struct run *fast = load(dir, true), *slow = load(dir, false);
	int bad = compare_runs(fast, slow, name);
	run_free(fast);
	run_free(slow);
	return bad;
}

/* Scanner accept / refuse counts over the lines of data (a sanity check that both
 * paths were exercised). */
static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static void count_scanned(const char *data, size_t n, size_t *yes, size_t *no)
{
	static struct scan_line l;
	pytscope_scan_init(&l);
	for (const char *p = data, *end = data + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		while (p < e && space(*p))
			p++;
		while (e > p && space(e[-1]))
			e--;
		if (e > p)
			*(pytscope_scan_line(p, (size_t)(e - p), 0, &l) ? yes : no) += 1;
		p = nl ? nl + 1 : end;
	}
}

static void test_generated(void)
{
	size_t yes = 0, no = 0;
	int bad = 0;
	for (int f = 0; f < 12; f++) {
		struct text file = { 0 };
		for (unsigned i = 0; i < 700; i++) {
			struct text line = { 0 };
			gen_line_like(&line, i);
			if (f >= 4 && rnd(2))
				mutate(&line);
			if (f >= 8)
				mutate(&line);
			put(&file, line.s, line.n);
			if (i + 1 < 700 || f % 2 == 0) /* odd files end with an unterminated line */
				puts_(&file, "\n");
			free(line.s);
		}
		char name[32];
		snprintf(name, sizeof(name), "gen%d", f);
		count_scanned(file.s, file.n, &yes, &no);
		bad += compare_file(name, file.s, file.n);
		free(file.s);
	}
	is_int(bad, 0, "8400 generated and mutated lines: fast path and jsmn path store the same values, metrics and diagnostics");
	printf("# scanner took %zu lines, refused %zu\n", yes, no);
	ok(yes > 2000 && no > 2000, "both paths exercised (scanner took %zu, refused %zu)", yes, no);
}

static void test_hostile(void)
{
	size_t yes = 0, no = 0;
	count_scanned(hostile, sizeof(hostile) - 1, &yes, &no);
	is_int(compare_file("hostile", hostile, sizeof(hostile) - 1), 0,
	       "hostile-line corpus: both paths give the same records and diagnostics");
	is_int(yes, 4, "scanner takes only the 4 clean hostile lines (NaN, +-Infinity, NaN and negative phases, "
		       "step 3.0)");
}

static void test_scanner(void)
{
	static struct scan_line l;
	pytscope_scan_init(&l);
	static const char line[] = " { \"memory\" : {\"alloc\":1024.0} , \"step\" : 1e3 ,"
				   "\"phases\":{\"fwd\":-Infinity,\"bwd\":0.5},\"timestamp\":NaN}";
	ok(pytscope_scan_line(line, sizeof(line) - 1, 0, &l), "scanner: whitespace, any order, float step, NaN");
	ok(l.step == 1000 && l.have_timestamp && l.timestamp != l.timestamp, "scanner: step 1000, NaN timestamp");
	ok(l.n[METRIC_PHASE] == 2 && l.n[METRIC_MEMORY] == 1 && l.n[METRIC_SCALAR] == 0 &&
	   scan_member_value(&l.m[METRIC_PHASE][1]) == 0.5 && scan_member_value(&l.m[METRIC_MEMORY][0]) == 1024.0,
	   "scanner: members per group, in line order");
	static const char *const refused[] = {
		"{\"step\":1,\"rank\":0}", "{\"step\":1,\"step\":2}", "{\"timestamp\":1}",
		"{\"step\":1}x", "{\"step\":1", "{\"step\":\"1\"}", "{\"step\":1,\"phases\":{\"a\\n\":1}}",
		"{\"step\":1,\"scalars\":{\"loss\":[1]}}", "{\"step\":1,\"memory\":5}",
	};
	bool none = true;
	for (size_t i = 0; i < ARRAY_LEN(refused); i++)
		none = none && !pytscope_scan_line(refused[i], strlen(refused[i]), 0, &l);
	ok(none, "scanner refuses unknown and repeated keys, escapes, nesting, trailing data, truncation");
}

/* One scanner state per structural path, fed the same lines in lockstep: the
 * reference scans every line in full from the line alone (portable, no shape); the
 * portable, SSE2 and AVX2 paths use the previous line's shape and read each line from
 * a buffer with garbage after it (at a shifting offset, so gaps and keys cross vector
 * boundaries; one line in four without readable bytes past it). Every path must give
 * the reference's verdict and outputs. */
#define ISA_PATHS 4
struct isa_lockstep {
	struct scan_line ref, path[ISA_PATHS - 1];
	bool run[ISA_PATHS - 1];
	char buf[8192];
	size_t lines, padded, shaped;
};

static bool same_scan(const struct scan_line *a, const struct scan_line *b)
{
	if (a->step != b->step || a->have_timestamp != b->have_timestamp ||
	    memcmp(&a->timestamp, &b->timestamp, sizeof(a->timestamp)) != 0)
		return false;
	for (int g = 0; g < 3; g++) {
		if (a->n[g] != b->n[g])
			return false;
		for (size_t i = 0; i < a->n[g]; i++) {
			const struct scan_member *x = &a->m[g][i], *y = &b->m[g][i];
			double vx = scan_member_value(x), vy = scan_member_value(y);
			if (x->len != y->len || memcmp(x->key, y->key, x->len) != 0 || x->id != y->id ||
			    memcmp(&vx, &vy, sizeof(vx)) != 0)
				return false;
		}
	}
	return true;
}

/* What the loader does after a line (load.c): a new key's metric id becomes its
 * prediction's id, so ids flow through the paths as they do in a load. */
static void assign_ids(struct scan_line *l, int *next_id)
{
	for (int g = 0; g < 3; g++)
		for (size_t i = 0; i < l->n[g]; i++)
			if (l->m[g][i].id < 0 && l->pred[g][i].len == l->m[g][i].len)
				l->pred[g][i].id = (*next_id)++;
}

static int compare_isas(struct isa_lockstep *p, const char *data, size_t n)
{
	static const char garbage[] = "0123456789\"}{:,.eE-";
	int bad = 0;
	for (const char *s = data, *end = data + n; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		while (s < e && space(*s))
			s++;
		while (e > s && space(e[-1]))
			e--;
		size_t len = (size_t)(e - s), off = p->lines % 48, pad = rnd(4) ? 64 : 0;
		if (len && off + len + pad <= sizeof(p->buf)) {
			memcpy(p->buf + off, s, len);
			for (size_t k = 0; k < pad; k++)
				p->buf[off + len + k] = garbage[rnd(sizeof(garbage) - 1)];
			int id = 0;
			bool want = pytscope_scan_line(s, len, 0, &p->ref);
			if (want)
				assign_ids(&p->ref, &id);
			for (int k = 0; k < ISA_PATHS - 1; k++) {
				if (!p->run[k])
					continue;
				struct scan_line *l = &p->path[k];
				bool shaped = l->shape.nvalues > 0;
				bool got = pytscope_scan_line(p->buf + off, len, len + pad, l);
				bad += got != want || (want && !same_scan(&p->ref, l));
				p->shaped += k == 0 && got && shaped && l->shape.nvalues > 0;
				id = 0;
				if (got)
					assign_ids(l, &id);
			}
			p->lines++;
			p->padded += pad > 0;
		}
		s = nl ? nl + 1 : end;
	}
	return bad;
}

static void test_isas(void)
{
	static struct isa_lockstep p;
	pytscope_scan_init(&p.ref);
	p.ref.isa = SCAN_ISA_PORTABLE;
	p.ref.no_shape = true;
	static const enum scan_isa isa[] = { SCAN_ISA_PORTABLE, SCAN_ISA_SSE2, SCAN_ISA_AVX2 };
	static const char *const name[] = { "portable", "SSE2", "AVX2" };
	for (int k = 0; k < ISA_PATHS - 1; k++) {
		pytscope_scan_init(&p.path[k]);
		p.path[k].isa = isa[k];
		p.run[k] = scan_isa_supported(isa[k]);
		if (!p.run[k])
			printf("# no %s on this CPU: that path is not compared\n", name[k]);
	}
	int bad = compare_isas(&p, hostile, sizeof(hostile) - 1);
	for (int f = 0; f < 8; f++) {
		struct text file = { 0 };
		for (unsigned i = 0; i < 1000; i++) {
			struct text line = { 0 };
			gen_line_like(&line, i);
			if (f >= 2 && rnd(3) == 0)
				mutate(&line);
			put(&file, line.s, line.n);
			puts_(&file, "\n");
			free(line.s);
		}
		bad += compare_isas(&p, file.s, file.n);
		free(file.s);
	}
	is_int(bad, 0, "portable, SSE2 and AVX2 paths (shapes, gap and key matching) against the full scan: "
		       "same verdict, keys, ids and values on every line");
	ok(p.padded > 4000, "%zu lines compared, %zu with bytes readable past the line", p.lines, p.padded);
	ok(p.shaped > 2000, "%zu lines read with the previous line's shape", p.shaped);
}

/* TSCOPE_SIMD picks the path once per process; scan_isa_force (tests) overrides it;
 * a path the CPU lacks falls back to the best below it. */
/* pytscope_scan_next (the loader reads a line with the previous line's shape before
 * it looks for the newline) against the loader's other way: find the newline, strip,
 * pytscope_scan_line. Lines repeat shapes; some get spaces or "\r" before the newline,
 * leading spaces, mutations, or a newline cut into them (the cut line's rest begins
 * the next one: no read may take a value across it). Every line read through
 * pytscope_scan_next must be one the other way reads, with the same length and outputs. */
static void test_scan_next(void)
{
	static struct scan_line next, ref;
	pytscope_scan_init(&next);
	pytscope_scan_init(&ref);
	struct text file = { 0 };
	for (unsigned i = 0; i < 6000; i++) {
		struct text line = { 0 };
		gen_line_like(&line, i);
		if (rnd(8) == 0)
			mutate(&line);
		if (rnd(16) == 0 && line.n > 2) { /* a newline cut into the line */
			size_t at = 1 + rnd((unsigned)line.n - 1);
			put(&file, line.s, at);
			puts_(&file, rnd(2) ? "\n" : " \n ");
			put(&file, line.s + at, line.n - at);
		} else {
			if (rnd(32) == 0)
				puts_(&file, " ");
			put(&file, line.s, line.n);
		}
		puts_(&file, rnd(16) == 0 ? "\r" : rnd(16) == 0 ? " \t" : "");
		puts_(&file, "\n");
		free(line.s);
	}
	int bad = 0;
	long taken = 0;
	for (const char *p = file.s, *end = file.s + file.n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		const char *a = p, *b = nl;
		while (a < b && space(*a))
			a++;
		while (b > a && space(b[-1]))
			b--;
		bool want = b > a && pytscope_scan_line(a, (size_t)(b - a), (size_t)(end - a), &ref);
		int id = 0;
		if (want)
			assign_ids(&ref, &id);
		size_t len = 0;
		bool got = pytscope_scan_next(p, (size_t)(end - p), &next, &len);
		if (got) {
			taken++;
			bad += !want || len != (size_t)(nl - p) || !same_scan(&ref, &next);
		} else if (b > a && pytscope_scan_line(a, (size_t)(b - a), (size_t)(end - a), &next) != want) {
			bad++;
		}
		id = 0;
		if (want)
			assign_ids(&next, &id);
		p = nl + 1;
	}
	free(file.s);
	ok(bad == 0, "a line read up to its newline with the previous line's shape (%ld of them) is the line the "
		     "loader finds and strips, same outputs (%d differ)", taken, bad);
	ok(taken > 1000, "most repeated shapes are read that way (%ld)", taken);
}

static void test_isa_choice(void)
{
	enum scan_isa best = scan_isa_best();
	ok(scan_isa_supported(best) && scan_isa_supported(SCAN_ISA_PORTABLE), "the chosen path runs here");
	scan_isa_force(SCAN_ISA_PORTABLE);
	struct scan_line *l = malloc(sizeof(*l));
	pytscope_scan_init(l);
	ok(l && l->isa == SCAN_ISA_PORTABLE, "a forced path reaches the scanner");
	scan_isa_force(SCAN_ISA_AVX2);
	enum scan_isa top = scan_isa_best();
	ok(top == SCAN_ISA_AVX2 ? scan_isa_supported(SCAN_ISA_AVX2) : !scan_isa_supported(SCAN_ISA_AVX2),
	   "AVX2 only where the CPU has it");
	scan_isa_force(best);
	free(l);
}

/* A file larger than the loader's 1 MiB read buffer: lines cross the buffer boundary
 * (the tail of one read is moved to the front and completed by the next). */
static void test_big_file(void)
{
	struct text file = { 0 };
	for (unsigned i = 0; file.n < (3u << 20) / 2; i++) {
		struct text line = { 0 };
		gen_line_like(&line, i);
		if (rnd(8) == 0)
			mutate(&line);
		put(&file, line.s, line.n);
		puts_(&file, "\n");
		free(line.s);
	}
	is_int(compare_file("big", file.s, file.n), 0,
	       "1.5 MB file (lines across the read buffer boundary): both paths store the same");
	free(file.s);
}

/* Step numbers at the end of the long range (the contiguous-step shortcut must not
 * overflow: UBSan in make check-asan). */
static void test_huge_steps(void)
{
	static const char data[] = "{\"step\":9223372036854775806}\n{\"step\":9223372036854775807}\n"
				   "{\"step\":9223372036854775807}\n";
	char dir[2200], path[2300];
	snprintf(dir, sizeof(dir), "%s/huge", root);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/steps.jsonl", dir);
	tu_write_file(path, data, sizeof(data) - 1);
	struct run *run = load(dir, true);
	const struct steps_model *m = run->steps;
	size_t pos = 0;
	ok(m && steps_nrecords(m, 0) == 3 && steps_step(m, 0, 1) == 9223372036854775807L &&
	   steps_find(m, 0, 9223372036854775807L, &pos) && pos == 2 && steps_ndistinct(m, 0) == 2,
	   "steps up to LONG_MAX load, repeat and are found");
	run_free(run);
}

/* The number parser the scanner shares with the jsmn path, against strtod. */
static void test_numbers(void)
{
	int bad_exact = 0, bad_approx = 0, bad_len = 0;
	for (int k = 0; k < 200000; k++) {
		char buf[80];
		size_t n = 0;
		int before = bad_exact + bad_approx + bad_len;
		if (rnd(4) == 0)
			buf[n++] = '-';
		unsigned nint = 1 + rnd(rnd(4) == 0 ? 22 : 11), nfrac = rnd(4) ? rnd(22) : 0;
		buf[n++] = nint > 1 ? (char)('1' + rnd(9)) : (char)('0' + rnd(10));
		for (unsigned i = 1; i < nint; i++)
			buf[n++] = (char)('0' + (rnd(3) ? rnd(10) : 0));
		if (nfrac) {
			buf[n++] = '.';
			for (unsigned i = 0; i < nfrac; i++)
				buf[n++] = (char)('0' + (rnd(3) ? rnd(10) : 0));
		}
		if (rnd(4) == 0)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "e%d", (int)rnd(80) - 40);
		buf[n] = '\0';
		double want = strtod(buf, NULL), got = 0, approx = 0, scanned = 0;
		if (!json_parse_double(buf, n, &got) || memcmp(&got, &want, sizeof(got)) != 0)
			bad_exact++;
		if (!json_parse_double_approx(buf, n, &approx) || fabs(approx - want) > fabs(want) * 1e-15)
			bad_approx++;
		buf[n] = ',';
		size_t used = 0;
		if (!json_number_parse(buf, n + 1, &scanned, true, &used) || used != n ||
		    memcmp(&scanned, &want, sizeof(got)) != 0)
			bad_len++;
		if (before == 0 && bad_exact + bad_approx + bad_len > 0)
			printf("# first mismatch: %.*s\n", (int)n, buf);
	}
	is_int(bad_exact, 0, "json_parse_double equals strtod bit for bit on 200000 random decimals");
	is_int(bad_approx, 0, "json_parse_double_approx within 1e-15 relative of strtod");
	is_int(bad_len, 0, "json_number_parse(used) reads exactly the number before a delimiter, same value");
}

int main(void)
{
	if (!tu_mkdtemp(root, sizeof(root), "pytscope-scan-")) {
		perror("mkdtemp");
		return 1;
	}
	test_numbers();
	test_scanner();
	test_hostile();
	test_huge_steps();
	test_generated();
	test_isas();
	test_scan_next();
	test_isa_choice();
	test_big_file();
	if (tu_rm_rf(root) != 0)
		printf("# could not remove %s\n", root);
	return tap_done();
}
