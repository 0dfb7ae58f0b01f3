/* SPDX-License-Identifier: MIT */
/* keymap.h: key names <-> curses key codes, and key -> action lookup built from the
 * default keys of the action table (ui/action.h). The same parser reads test scripts
 * (TSCOPE_SCRIPT) so a script says <Down> exactly as the table does. */
#ifndef UI_KEYMAP_H
#define UI_KEYMAP_H

#include <stdio.h>
#include "ui/action.h"

/* Parse one key at s: a UTF-8 character or a <Name>. Returns bytes consumed (0 at end
 * of string, -1 for an unknown <Name>) and stores the key code (curses KEY_* or a
 * character; characters >= 0x80 are returned as their code point). */
int keymap_parse(const char *s, int *key);
/* Name of a key for display ("<Down>", "j"); static buffer, overwritten per call. */
const char *keymap_name(int key);
/* Action bound to key, or ACT_NONE. */
enum action keymap_lookup(int key);
/* --list-keys: "KEYS<TAB>NAME<TAB>HELP" per action. */
void keymap_list(FILE *f);

#endif
