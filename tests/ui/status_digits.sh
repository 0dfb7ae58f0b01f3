#!/bin/sh
# status_digits.sh: the status row shows a table value with ten significant digits at
# most (no summation noise such as 0.013658207646409237), integers exactly.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
printf '3\nllllll\njjj\n:dump %s/s1\nhhhhhh\n:dump %s/s2\n' "$PWD" "$PWD" >keys
TSCOPE_SCRIPT="$PWD/keys" TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>&1
tap_check "a number in the status row has no float noise" 'grep -q "rel_slowdown=0\.01365820765\$" s1'
tap_check "an integer in the status row is exact" 'grep -q "row 4/16  rank=3\$" s2'
tap_plan
