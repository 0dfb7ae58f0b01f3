#!/bin/sh
# overview_headline.sh: the Overview pane and the --print headline come from one
# source (registry_summary): every headline line of the demo's report appears, key and
# value, on the Overview (headless, 160 columns so nothing wraps); at 80x24 a NAT run's
# long lines (the second fit, the options an estimate needs) wrap over as many rows as
# they take, whole, where the room is.
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
NAT="$TMP/nat"
mkdir -p "$NAT"
cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/nat_stored_latency_fit.json" "$NAT/calc_runner_output.json"
"$BIN" --print --color never "$NAT" | sed -n '3,/^$/p' | sed '/^$/d' | cut -c3- | sed 's/   */  /' >"$TMP/nat_head.txt"
printf '1\n:dump %s\nq\n' "$TMP/nat_ov.txt" >"$TMP/nat_keys"
TSCOPE_SCRIPT="$TMP/nat_keys" TERM=dumb LINES=24 COLUMNS=80 LC_ALL=C.UTF-8 "$BIN" --tui "$NAT" >/dev/null 2>"$TMP/err"
tap_rc $? "headless NAT Overview at 80x24 exits 0"
# "key  value" per Overview line, its wrapped rows (20 columns indented) joined back
awk '/^  [^ ]/ { if (l != "") print l; k = substr($0, 3, 18); sub(/ +$/, "", k); l = k "  " substr($0, 21) }
     /^                    [^ ]/ { l = l " " substr($0, 21) }
     END { if (l != "") print l }' "$TMP/nat_ov.txt" | sed 's/ *$//' >"$TMP/nat_lines.txt"
cut=0
while IFS= read -r line; do
	grep -qxF "$line" "$TMP/nat_lines.txt" || { cut=$((cut + 1)); echo "# not whole on the Overview: $line"; }
done <"$TMP/nat_head.txt"
tap_check "at 80x24 every headline line of a NAT run is whole on the Overview" \
	'[ "$cut" -eq 0 ] && [ "$(wc -l <"$TMP/nat_head.txt")" -eq 2 ]'
tap_plan
