/* SPDX-License-Identifier: MIT */
/* keymap.h: key names <-> curses key codes, and key -> action lookup built from the
 * default keys of the action table (ui/action.h). The same parser reads test scripts
 * (TSCOPE_SCRIPT) so a script says <Down> exactly as the table does. */
#ifndef UI_KEYMAP_H
#define UI_KEYMAP_H

#include <stdio.h>
#include "ui/action.h"

/* A character at or above U+0080 as a key: KEYMAP_CHAR plus its code point, kept apart
 * from curses' KEY_* codes (which overlap U+0101..U+01FF). term_getkey and
 * keymap_parse give such keys; ASCII characters are their own code. */
enum { KEYMAP_CHAR = 0x1000000 };

/* Parse one key at s: a UTF-8 character or a <Name>. Returns bytes consumed (0 at end
 * of string, -1 for an unknown <Name>) and stores the key code (curses KEY_*, an ASCII
 * character, or KEYMAP_CHAR plus the code point). */
int keymap_parse(const char *s, int *key);
/* The UTF-8 bytes of a character key (printable ASCII, or KEYMAP_CHAR plus a code
 * point) into buf (4 bytes at most); 0 for any other key (controls, KEY_*). */
int keymap_utf8(int key, char *buf);
/* Name of a key for display ("<Down>", "j"); static buffer, overwritten per call. */
const char *keymap_name(int key);
/* Action bound to key, or ACT_NONE. */
enum action keymap_lookup(int key);
/* --list-keys: "KEYS<TAB>NAME<TAB>HELP" per action. */
void keymap_list(FILE *f);

#endif
