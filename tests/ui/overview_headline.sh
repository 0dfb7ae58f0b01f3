#!/bin/sh
# overview_headline.sh: the Overview pane and the --print headline come from one
# source (registry_summary): every headline line of the demo's report appears, key and
# value, on the Overview (headless, 160 columns so nothing wraps).
set -u
BIN=${TSCOPE_BIN:?}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
DEMO="$TSCOPE_ROOT/testdata/demo"
"$BIN" --print --color never "$DEMO" | sed -n '3,/^$/p' | sed '/^$/d' >"$TMP/head.txt"
n=$(wc -l <"$TMP/head.txt")
tap_check "the report has a headline ($n lines)" '[ "$n" -ge 5 ]'
printf '1\n:dump %s\nq\n' "$TMP/ov.txt" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=40 COLUMNS=160 "$BIN" --tui "$DEMO" >/dev/null 2>"$TMP/err"
tap_rc $? "headless Overview exits 0"
missing=0
while IFS= read -r line; do
	key=$(printf '%s' "$line" | cut -c3-18 | sed 's/ *$//')
	val=$(printf '%s' "$line" | cut -c20-)
	grep -F "$key" "$TMP/ov.txt" | grep -qF "$val" || { missing=$((missing + 1)); echo "# not on the Overview: $line"; }
done <"$TMP/head.txt"
tap_check "every headline line is on the Overview" '[ "$missing" -eq 0 ]'
tap_plan
