#!/bin/sh
# The man page KEYS section is generated from the action table (--list-keys); this
# test regenerates it and compares. UPDATE=1 rewrites the section in man/tscope-tui.1.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
man="$TSCOPE_ROOT/man/tscope-tui.1"
gen="$TSCOPE_TMP/keys.mdoc"
cur="$TSCOPE_TMP/keys.cur"
{
	echo '.Bl -tag -width "<PgDn> <C-f> <Space>" -compact'
	"$TSCOPE_BIN" --list-keys | awk -F '\t' '{ printf ".It Cm \"\\&%s\"\n%s\n", $1, $3 }'
	echo '.El'
} >"$gen"
# current section: lines after the marker up to the next .Sh
awk '/^\.\\" == keys ==$/ { on = 1; next } on && /^\.Sh / { exit } on' "$man" >"$cur"
if [ "${UPDATE:-}" = 1 ]; then
	awk -v gen="$gen" '
		/^\.\\" == keys ==$/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
		skip && /^\.Sh / { skip = 0 }
		!skip' "$man" >"$man.new" && mv "$man.new" "$man"
	cp "$gen" "$cur"
fi
if cmp -s "$gen" "$cur"; then
	tap_ok "man page KEYS section matches --list-keys"
else
	tap_notok "man page KEYS section differs from --list-keys (run UPDATE=1)"
	diff -u "$cur" "$gen" | sed 's/^/# /'
fi
n=$("$TSCOPE_BIN" --list-keys | wc -l)
tap_check "--list-keys lists $n actions" '[ "$n" -ge 30 ]'
# README's key table is the same action table
readme="$TSCOPE_ROOT/README.md"
"$TSCOPE_BIN" --list-keys | awk -F '\t' '{ n = split($1, k, " "); s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") "`" k[i] "`"; printf "| %s | %s |\n", s, $3 }' >"$TSCOPE_TMP/readme.keys"
awk '/^\| Keys \| Action \|$/ { on = 1; getline; next } on && /^\|/ { print; next } on { exit }' "$readme" >"$TSCOPE_TMP/readme.cur"
if cmp -s "$TSCOPE_TMP/readme.keys" "$TSCOPE_TMP/readme.cur"; then
	tap_ok "README key table matches --list-keys"
else
	tap_notok "README key table differs from --list-keys"
	diff -u "$TSCOPE_TMP/readme.cur" "$TSCOPE_TMP/readme.keys" | sed 's/^/# /'
fi
tap_plan
