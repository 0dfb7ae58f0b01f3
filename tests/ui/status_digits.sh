#!/bin/sh
# status_digits.sh: the status row shows the selected value as the table does (issue
# 14: one precision per quantity, a unit on a time, no summation noise such as
# 0.013658207646409237); integers exactly.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
printf '3\nllllll\njjj\n:dump %s/s1\nl\n:dump %s/s2\nhhhhhhh\n:dump %s/s3\n' "$PWD" "$PWD" "$PWD" >keys
TSCOPE_SCRIPT="$PWD/keys" TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>&1
tap_check "a ratio in the status row has the table's digits, no float noise" 'grep -q "rel_slowdown=0\.014\$" s1'
tap_check "a time in the status row has its unit and 3 significant digits" 'grep -q "time_lost_s=118 ms\$" s2'
tap_check "the same value in the table" 'grep -q " 3  *400 .* 118 ms " s2'
tap_check "an integer in the status row is exact" 'grep -q "row 4/16  rank=3\$" s3'
tap_plan
