/* SPDX-License-Identifier: MIT */
/* keymap.c: key names, characters as keys (their UTF-8), the default bindings from the
 * action table, --list-keys. */
#include "ui/keymap.h"

#include <curses.h>
#include <string.h>
#include "model/text.h"

static const struct action_info actions[] = {
	{ NULL, NULL, NULL },
#define X(id, name, keys, help) { name, keys, help },
	ACTIONS(X)
#undef X
};

const struct action_info *action_info(enum action a)
{
	if (a <= ACT_NONE || a >= ACT_COUNT)
		return NULL;
	return &actions[a];
}

static const struct {
	const char *name;
	int key;
} names[] = {
	{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
	{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
	{ "Enter", '\n' }, { "Esc", 27 }, { "Tab", '\t' }, { "S-Tab", KEY_BTAB }, { "Space", ' ' },
	{ "Backspace", KEY_BACKSPACE }, { "lt", '<' }, { "Resize", KEY_RESIZE },
};

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

int keymap_parse(const char *s, int *key)
{
	if (!*s)
		return 0;
	if (s[0] == '<') {
		size_t n = 1;
		while (name_char(s[n]))
			n++;
		if (n > 1 && s[n] == '>') {
			if (n == 4 && s[1] == 'C' && s[2] == '-') {
				*key = s[3] & 0x1f;
				return 5;
			}
			for (size_t i = 0; i < ARRAY_LEN(names); i++)
				if (strlen(names[i].name) == n - 1 && strncmp(s + 1, names[i].name, n - 1) == 0) {
					*key = names[i].key;
					return (int)n + 1;
				}
			return -1;
		}
	}
	uint32_t cp;
	int len = text_utf8_decode(s, strlen(s), &cp);
	*key = cp < 0x80 ? (int)cp : KEYMAP_CHAR | (int)cp;
	return len;
}

int keymap_utf8(int key, char *buf)
{
	if (key >= 0x20 && key < 0x7f) {
		buf[0] = (char)key;
		return 1;
	}
	uint32_t cp = (uint32_t)(key & ~KEYMAP_CHAR);
	if (!(key & KEYMAP_CHAR) || cp < 0x80 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	if (cp < 0x800) {
		buf[0] = (char)(0xC0 | (cp >> 6));
		buf[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (char)(0xE0 | (cp >> 12));
		buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		buf[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	buf[0] = (char)(0xF0 | (cp >> 18));
	buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	buf[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

const char *keymap_name(int key)
{
	static char buf[16];
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (names[i].key == key && key != '<') {
			snprintf(buf, sizeof(buf), "<%s>", names[i].name);
			return buf;
		}
	char u[4];
	int nu = keymap_utf8(key, u);
	if (key > 0 && key < 0x20)
		snprintf(buf, sizeof(buf), "<C-%c>", key + 0x60);
	else if (nu > 0)
		snprintf(buf, sizeof(buf), "%.*s", nu, u);
	else
		snprintf(buf, sizeof(buf), "<%d>", key);
	return buf;
}

struct binding {
	int key;
	enum action act;
};

static struct binding bindings[128];
static size_t nbindings;

/* Terminals send several codes for the same key; fold them before lookup. */
static int key_fold(int key)
{
	switch (key) {
	case '\r': case KEY_ENTER: return '\n';
	case 127: case 8: return KEY_BACKSPACE;
	default: return key;
	}
}

static void keymap_build(void)
{
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		const char *s = actions[a].keys;
		while (*s) {
			if (*s == ' ') {
				s++;
				continue;
			}
			int key;
			int n = keymap_parse(s, &key);
			if (n <= 0)
				break;
			if (nbindings < ARRAY_LEN(bindings))
				bindings[nbindings++] = (struct binding){ key, (enum action)a };
			s += n;
		}
	}
}

enum action keymap_lookup(int key)
{
	if (!nbindings)
		keymap_build();
	key = key_fold(key);
	for (size_t i = 0; i < nbindings; i++)
		if (bindings[i].key == key)
			return bindings[i].act;
	return ACT_NONE;
}

void keymap_list(FILE *f)
{
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++)
		fprintf(f, "%s\t%s\t%s\n", actions[a].keys, actions[a].name, actions[a].help);
}
