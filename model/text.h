/* SPDX-License-Identifier: MIT */
/* text.h: the one sanitizer for text that came from data, plus UTF-8 width helpers.
 *
 * Every string read from an input file (run, phase, kernel and host names, paths, JSON
 * keys, CSV cells) passes text_sanitize() before it reaches the terminal, a --print
 * report or an exported CSV cell. Rules:
 *   - invalid UTF-8 bytes            -> U+FFFD (or '?' in ASCII mode)
 *   - C0 controls 0x00-0x1F, DEL      -> caret notation: ESC -> "^[", TAB -> "^I", DEL -> "^?"
 *   - C1 controls U+0080-U+009F       -> "\xNN" (e.g. U+009B -> "\x9b")
 *   - invisible format characters     -> "<U+XXXX>": soft hyphen U+00AD, U+061C (Arabic letter
 *     mark), U+180E, zero-width U+200B-200F, U+2028/2029, bidi controls U+202A-202E and
 *     U+2066-2069, U+2060-2064, U+206A-206F, U+FEFF, U+FFF9-FFFB, tag characters U+E0000-E007F
 *   - in ASCII mode (TEXT_ASCII) every other non-ASCII character -> '?', but for the
 *     typography of the program's own texts, which reads as ASCII: dashes and U+00B7 -> '-',
 *     U+2026 -> "...", arrows -> "->" "<-", <= >=, quotes, x for U+00D7, ^2, u (micro),
 *     box lines, sparkline heights and bar cells as the explorer's ASCII glyphs ...
 * The output is always NUL-terminated and never split inside a replacement. */
#ifndef MODEL_TEXT_H
#define MODEL_TEXT_H

#include <stdarg.h>
#include "model/base.h"

enum { TEXT_ASCII = 1 };

/* Sanitize in[0..len) into out (capacity outsz >= 1). Returns bytes written (excluding NUL).
 * Truncates cleanly when out is too small. */
size_t text_sanitize(const char *in, size_t len, char *out, size_t outsz, unsigned flags);
/* Sanitized malloc'd copy of a NUL-terminated string (NULL -> ""). The caller frees. */
char *text_sanitize_dup(const char *s, unsigned flags);
/* s as a word to paste into a shell (a path in a suggested command line), malloc'd,
 * both safe to show and exact: the same bytes once the shell has read it. A path that
 * text_sanitize() would change (a control byte, C1, an invisible or bidi character,
 * invalid UTF-8) is in $'...' quotes (bash, zsh, ksh, POSIX.1-2024), ASCII only: \t \n
 * \r, \' and \\, every other byte outside printable ASCII as \xHH ("e\x1b[2J",
 * "a\xe2\x80\xaeb" for U+202E). Otherwise, unless every byte is plain (letters, digits,
 * non-ASCII characters, _ - . / , : @ % + =), in single quotes with each ' as '\''. A
 * path beginning with - gets ./ in front, so no command reads it as an option. NULL or
 * "" -> "''". */
char *text_shell_word_dup(const char *s);
/* s as one argument of a suggested command (an option's value: --sort -step_time_ms,
 * --filter 'rank=7 step>=100'), quoted as text_shell_word_dup() quotes, but as it is: no
 * ./ in front of a leading -. NULL or "" -> "''". */
char *text_shell_arg_dup(const char *s);
/* The program's own output s[0..len) (a report: text made of sanitized data) in ASCII,
 * malloc'd, NUL-terminated, *out_len bytes: each non-ASCII character by its TEXT_ASCII
 * stand-in (sparkline heights and bar cells as the explorer's ASCII glyphs) or '?', a
 * byte that is not UTF-8 '?'; ASCII bytes, SGR codes included, as they are. */
char *text_ascii_dup(const char *s, size_t len, size_t *out_len);
/* True when the locale's codeset (LC_CTYPE, as setlocale() made it) is UTF-8. */
bool text_locale_utf8(void);
/* printf at the end of the string in buf (n bytes), truncating; a full buf is left as it
 * is. */
void text_appendf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void text_vappendf(char *buf, size_t n, const char *fmt, va_list ap);
/* True when a and b are the same text, or both absent (NULL). */
bool text_same(const char *a, const char *b);
/* qsort/bsearch comparator of an array of strings (char *): strcmp order. */
int text_cmp_ptr(const void *a, const void *b);
/* True when s needs no change under text_sanitize (fast path). */
bool text_is_clean(const char *s, size_t len, unsigned flags);
/* s[0..len) starts with a UTF-8 byte-order mark (EF BB BF). */
bool text_utf8_bom(const char *s, size_t len);

/* Decode one UTF-8 sequence at s (n bytes available). Returns its length (>= 1) and
 * stores the code point, or U+FFFD with length 1 for an invalid byte. */
int text_utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Number of code points in a valid UTF-8 string (Python's len()). */
size_t text_codepoints(const char *s);
/* Display width in terminal columns of sanitized UTF-8 (wcwidth; unknown -> 1). */
int text_width(const char *s);
/* Copy at most `cols` display columns of sanitized s into out; when clipped and
 * `ellipsis` is set the last column becomes "~" (ASCII) or "…" (UTF-8, unless
 * TEXT_ASCII), and a number the cut would end on is left out whole ("across …", never
 * "across 8…", which reads as a cut number) unless the text is only that number.
 * Returns columns used. */
int text_clip(const char *s, int cols, char *out, size_t outsz, bool ellipsis, unsigned flags);

/* Cells of a `cells`-wide bar filled by frac: round-half-even(frac * cells) clamped to
 * [0, cells]; NaN -> 0. Every width drawn from a data value goes through it (or
 * text_frac), so output is bounded by the layout, never by a value. */
long text_bar_cells(double frac, long cells);
/* Position of finite v on [lo, hi] as a fraction in [0, 1] (an empty range -> 0), with
 * no overflow when hi - lo is not representable. */
double text_frac(double v, double lo, double hi);
/* Finite lo <= hi are one value but for floating-point noise: hi - lo within TEXT_FLAT_REL
 * of their magnitude (phases that sum to one step time in another order differ so; a
 * nanosecond clock is coarser on any step up to 1000 s). A plot between them would
 * stretch a rounding error to its whole range: it is to be drawn flat. */
#define TEXT_FLAT_REL 1e-12
bool text_flat(double lo, double hi);

#endif
