/* SPDX-License-Identifier: MIT */
/* refuse.h: what main says when a PATH is not opened as one run: PATHs holding several
 * runs or none (on stderr), a folder of runs off the explorer (its runs named, one
 * command line each), and, for the run picker, why the run picked was not opened (the
 * checks main() makes of a PATH, so a run of the picker is refused as the same PATH on
 * the command line is). Data text is sanitized; nothing here exits. */
#ifndef SRC_REFUSE_H
#define SRC_REFUSE_H

#include "model/identity.h"
#include "model/run.h"

/* Each line of text sanitized on stderr after "tscope-tui: ". The data strings in text
 * are sanitized already (a newline of a path is "^J"): only the message's own line
 * breaks split it, so no file name makes a line of its own. */
void refuse_lines(const char *text);
/* Several PATHs of which one holds no data that identify() recognised (missing, empty,
 * of no supported format): each named on stderr with why, so that `A B` with B empty is
 * never A's report alone (--compat pytscope, two PATHs: pytscope diff's line alone).
 * True when refused (the caller opens nothing, exit 1). */
bool refuse_empty_path(const struct run_identity *id, const struct opts *o);
/* PATHs that hold several runs (id->n > 1, or nested): what was found and how to open
 * one (run_identity_describe), on stderr; for one PATH, which kinds it holds and the
 * --format that picks each; for two of different kinds, that compare mode takes two of
 * one kind. */
void refuse_mixed(const struct run_identity *id);
/* A folder of runs outside the explorer: "'DIR' holds N runs below it; open one:", then
 * one `tscope-tui PATH  (format)` line per run of kids (a path quoted for a POSIX shell
 * when it needs it: text_shell_word_dup), on stderr. */
void refuse_folder(const char *dir, const struct run_child *kids, size_t nk);
/* The run picker's message for the run at path not opened, and why: "'PATH' not opened:
 * WHY", why's lines (each may end in "\n"; a leading "tscope-tui: " is dropped) kept
 * apart by "\n", no "\n" at the end. malloc'd. */
char *refuse_picked(const char *path, const char *why);
/* The same for the run at path that identification (run_identify, one PATH) does not
 * find as one run: nothing recognised any more (run_path_why_empty), or several runs,
 * never merged (as refuse_mixed names them, with the --format that opens each). */
char *refuse_picked_runs(const char *path, const struct run_identity *id, const struct opts *o);
/* The same for a run that loaded nothing to explore: its first diagnostics say why. */
char *refuse_picked_empty(const char *path, const struct run *run);

#endif
