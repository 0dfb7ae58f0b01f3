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
 * A line it accepts is one the jsmn path loads without any diagnostic (but those
 * load.c gives on either path: a phase that is not a duration, a memory value or a
 * timestamp that is not finite), and the values
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
	bool nano;         /* a phase read as its nanosecond code: value is not set */
	uint32_t code;     /* when nano: the value is code / 1e9 (scan_member_value) */
	double value;
};

/* A member's value. A phase written as a decimal with at most nine fraction digits
 * within 0-4.294967295 s is kept as its nanosecond code (what the phase column stores,
 * rank_set_nano): the parsed double is the correctly rounded code / 1e9 (both exact
 * operands, one rounding), so this is the value json_parse_double gives, bit for bit. */
static inline double scan_member_value(const struct scan_member *e)
{
	return e->nano ? (double)e->code / 1e9 : e->value;
}

/* Prediction: member i of a group usually has the key it had on the previous line.
 * The scanner keeps the key; the caller stores its metric id (id -1: not known yet). */
#define SCAN_NO_PRED ((size_t)-1)
struct scan_pred {
	char key[40];
	size_t len;                 /* SCAN_NO_PRED: none */
	int id;
};

/* The structural paths. Keys are compared with their prediction, and a line with the
 * shape of the previous one is matched a gap at a time (see struct scan_shape): with
 * 64-bit words (any CPU), SSE2 16 bytes a vector (x86-64, where SSE2 is always there)
 * or AVX2 32 bytes a vector (when the CPU has it). Every path gives the same results. */
enum scan_isa { SCAN_ISA_PORTABLE, SCAN_ISA_SSE2, SCAN_ISA_AVX2 };

/* The path pytscope_scan_init picks, chosen once per process: the fastest this CPU
 * runs, or the one TSCOPE_SIMD names (portable, sse2, avx2; a path the CPU lacks falls
 * back to the best it has). */
enum scan_isa scan_isa_best(void);

/* Can this CPU and build run path isa? */
bool scan_isa_supported(enum scan_isa isa);

/* Tests only: make scan_isa_best() return isa from now on (a path the CPU lacks falls
 * back as above); not synchronised, call before loading. */
void scan_isa_force(enum scan_isa isa);

/* The shape of the last line scanned in full: the bytes between its values (gaps:
 * braces, keys, separators, whitespace) and what each value is. A line whose gaps are
 * the same bytes at the places its values end has the same keys in the same order, so
 * it is read as values and gap comparisons only, with the results the full scan would
 * give (every key predicted). Built only when every member key fits a prediction. */
enum { SCAN_VALUE_STEP, SCAN_VALUE_TIMESTAMP, SCAN_VALUE_MEMBER };
#define SCAN_SHAPE_VALUES (2 + 3 * SCAN_MAX_MEMBERS)
#define SCAN_SHAPE_BYTES 2048
struct scan_value {
	uint16_t gap_off, gap_len;  /* the gap before the value, in bytes[] */
	uint8_t what;               /* SCAN_VALUE_STEP, _TIMESTAMP or _MEMBER + kind */
	uint8_t member;             /* its index in the group */
	uint16_t key_off;           /* a member's key: from the gap's start */
	uint32_t want;              /* gap_len <= 32: its bytes' bits in a 32-byte compare mask */
};
struct scan_rec {
	const char *start, *end;    /* the value's bytes in the line */
	uint8_t what, member;
};
struct scan_shape {
	size_t nvalues;             /* 0: no shape; the last gap follows the last value */
	size_t n[3];
	struct scan_value v[SCAN_SHAPE_VALUES + 1];
	char bytes[SCAN_SHAPE_BYTES + 64]; /* 64: vectors may read past a gap */
};

struct scan_line {
	long long step;
	double timestamp;           /* 0 when absent */
	bool have_timestamp;
	size_t n[3];                /* members per enum metric_kind */
	struct scan_member m[3][SCAN_MAX_MEMBERS];
	struct scan_pred pred[3][SCAN_MAX_MEMBERS]; /* kept from line to line */
	bool exact_scalars;         /* set by the caller: parse scalars exactly */
	enum scan_isa isa;          /* pytscope_scan_init: scan_isa_best() */
	bool no_shape;              /* tests: always scan in full (the reference) */
	struct scan_shape shape;    /* kept from line to line */
	struct scan_rec rec[SCAN_SHAPE_VALUES]; /* the full scan's values */
	size_t nrec;
};

/* Before the first line of a file: no predictions, no shape. */
void pytscope_scan_init(struct scan_line *l);

/* Scan the stripped line s[0..n); s[0..avail) may be read (avail <= n: nothing past
 * the line). True when the line is fully understood (out filled); false means "take
 * the jsmn path" (out is then unspecified). */
bool pytscope_scan_line(const char *s, size_t n, size_t avail, struct scan_line *out);

/* The line that starts at s (s[0..avail) readable, the loader's buffer), when it has
 * the previous line's shape and its newline lies before the last SCAN_ROOM (64) bytes:
 * *len is the bytes before the newline, and out is what pytscope_scan_line() gives for
 * the line stripped of whitespace at both ends, as the loader strips it. A line can be found without searching for its newline first: no gap holds
 * a newline (lines never do) and no value reads across one. False: nothing is known
 * (out unspecified; find the line and call pytscope_scan_line()). */
bool pytscope_scan_next(const char *s, size_t avail, struct scan_line *out, size_t *len);

/* Tests only (defined in load.c): false sends every line through the jsmn path,
 * so that both paths can be compared. Set before run_open(); not synchronised. */
void pytscope_scan_enable(bool on);

#endif
