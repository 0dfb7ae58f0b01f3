#!/bin/sh
# stragglers.sh: the native straggler rules end to end on generated pytscope runs
# (gen_fixtures failslow / balanced): one late fail-slow rank among 48 is the only
# straggler in the report, the ranks view, the explorer's n/N and the findings; a
# 20-step stall on another rank is a transient finding; pytscope's rule (--compat
# pytscope) misses the late rank; a balanced run flags nothing.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" failslow fs && "$gen" balanced bal || { tap_notok "fixtures generated"; exit 1; }

"$TSCOPE_BIN" --print --color never fs >fs.out 2>fs.err
rc=$?
tap_check "fail-slow run: exit 0" '[ "$rc" -eq 0 ]'
onset=$(sed -n 's/.*Rank 17 turned slow at step \([0-9]*\) (fail-slow)  (DIST.FAIL_SLOW)$/\1/p' fs.out)
tap_check "fail-slow: DIST.FAIL_SLOW on rank 17, onset within 5 steps of 1000 (got $onset)" \
	'[ -n "$onset" ] && [ "$onset" -ge 995 ] && [ "$onset" -le 1005 ]'
tap_check "fail-slow: its cost is reported" 'grep -q "The other ranks waited [0-9.]* s for it since then" fs.out'
tap_check "fail-slow: the only straggler finding" '[ "$(grep -c "(DIST\.\(FAIL_SLOW\|SLOW_RANK\|STRAGGLER\))$" fs.out)" -eq 1 ]'
tap_check "stall: DIST.TRANSIENT_STALL on rank 30 over steps 400-419" 'grep -q "Rank 30 stalled over steps 400-419  (DIST.TRANSIENT_STALL)" fs.out'
tap_check "report headline names the one straggler" 'grep -q "^  stragglers  *1 (rank 17: fail-slow, 35% slower from step 10" fs.out'
tap_check "never 'No issues found' while a native rule fires" '! grep -q "No issues found" fs.out'

"$TSCOPE_BIN" --print --compat pytscope --color never fs >fc.out 2>&1
tap_check "--compat pytscope: pytscope's whole-run rule misses it (as 0.2.1)" 'grep -q "No issues found. Training looks balanced." fc.out'

"$TSCOPE_BIN" --export ranks fs >r.csv 2>/dev/null
col=$(head -1 r.csv | tr ',' '\n' | grep -n '^straggler$' | cut -d: -f1)
yes=$(awk -F, -v c="$col" 'NR>1 && $c=="yes" {print $1}' r.csv | tr '\n' ' ')
tap_eq "ranks view: the straggler column holds rank 17 only" "17 " "$yes"

# The explorer's n walks the same set.
cat >keys <<KEYS
n
:dump $TSCOPE_TMP/n1
KEYS
LINES=24 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui fs >/dev/null 2>tui.err
tap_check "n/N: straggler 1/1 is rank 17" 'grep -q "straggler 1/1: rank 17, slow from step" n1'

"$TSCOPE_BIN" --print --color never bal >b.out 2>&1
tap_check "balanced 64 ranks (+-5% noise): no straggler" 'grep -q "^  stragglers  *none" b.out'
tap_check "balanced: no finding, and no training-is-fine claim" 'grep -q "No findings: no rule fired" b.out && ! grep -q "balanced" b.out'
tap_plan
