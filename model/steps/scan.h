/* SPDX-License-Identifier: MIT */
/* scan.h: the strict single-pass scanner for the common steps.jsonl line
 * (the pytscope loader's fast path; model/steps/load.c falls back to jsmn).
 *
 * CONTRACT. pytscope_scan_line() accepts exactly the lines of the form
 *   {"step":INT,"timestamp":NUM,"phases":{KEY:NUM,...},"scalars":{...},"memory":{...}}
 * in any key order, any subset that includes "step", whitespace allowed between
 * tokens, numbers in JSON syntax or NaN / Infinity / -Infinity. It returns false, and
 * the caller must take the jsmn path, for anything else: an unknown or repeated
 * top-level key, a repeated member key, a key with an escape, a control byte or NUL,
 * a string, null, bool, array or nested object as a value, a number the jsmn path
 * would reject, trailing data, a truncated line, more than SCAN_MAX_MEMBERS members.
 * A line it accepts is one the jsmn path loads without any diagnostic, and the values
 * are parsed by the same functions over the same byte spans (json_parse_int for the
 * step, json_parse_double_approx for the timestamp and scalars, json_parse_double for
 * phases and memory, and for scalars too when exact_scalars is set), so the stored
 * results are bit-identical.
 *
 * Keys are returned raw (pointers into the line, no escapes by construction); the
 * caller interns them in group order phases, scalars, memory as the jsmn path does.
 * The five top-level keys, and member i of a group against the key member i had on
 * the previous line, are matched whole (closing quote included) without a key scan. */
#ifndef MODEL_PYTSCOPE_SCAN_H
#define MODEL_PYTSCOPE_SCAN_H

#include "model/base.h"
#include "model/steps/steps.h"

#define SCAN_MAX_MEMBERS 32

struct scan_member {
	const char *key;   /* into the line, not NUL-terminated */
	size_t len;
	int id;            /* the predicted metric id (see scan_pred), or -1 */
	double value;
};

/* Prediction: member i of a group usually has the key it had on the previous line.
 * The scanner keeps the key; the caller stores its metric id (id -1: not known yet). */
#define SCAN_NO_PRED ((size_t)-1)
struct scan_pred {
	char key[40];
	size_t len;                 /* SCAN_NO_PRED: none */
	int id;
};

/* How keys are compared with their prediction: memcmp (any CPU) or SSE2, 16 bytes a
 * vector (x86-64, where SSE2 is always there). Both give the same results. */
enum scan_isa { SCAN_ISA_PORTABLE, SCAN_ISA_SSE2 };

/* The fastest this build can run (what pytscope_scan_init picks). */
enum scan_isa scan_isa_best(void);

struct scan_line {
	long long step;
	double timestamp;           /* 0 when absent */
	bool have_timestamp;
	size_t n[3];                /* members per enum metric_kind */
	struct scan_member m[3][SCAN_MAX_MEMBERS];
	struct scan_pred pred[3][SCAN_MAX_MEMBERS]; /* kept from line to line */
	bool exact_scalars;         /* set by the caller: parse scalars exactly */
	enum scan_isa isa;          /* pytscope_scan_init: scan_isa_best() */
};

/* Before the first line of a file: no predictions. */
void pytscope_scan_init(struct scan_line *l);

/* Scan the stripped line s[0..n); s[0..avail) may be read (avail <= n: nothing past
 * the line). True when the line is fully understood (out filled); false means "take
 * the jsmn path" (out is then unspecified). */
bool pytscope_scan_line(const char *s, size_t n, size_t avail, struct scan_line *out);

/* Tests only (defined in load.c): false sends every line through the jsmn path,
 * so that both paths can be compared. Set before run_open(); not synchronised. */
void pytscope_scan_enable(bool on);

#endif
