#!/bin/sh
# follow_sweep_tmux.sh: following an empty dir that becomes a GenAI-Perf sweep, end to end
# in tmux, as a person would: `tscope-tui --follow` on an empty dir, then the level
# directories of a generated sweep moved in one by one. The explorer ends as a fresh open
# of the sweep: its tab bar "1 Overview 6 Findings 7 Sources 8 Sweep" (the step tabs gone,
# 8 opens the Sweep pane), 3 files and 150 records (each reload replaces the sweep's
# sources, not adds them again), no warning left that the dir held nothing; the current
# pane stays when it still exists (Sources), the Overview when it went (Ranks). The status
# row says "LIVE sweep, 3 files, last change N s ago" (no step words), and Findings holds
# one LIVE.RELOADED entry that counts the reloads. Waits are bounded; nothing asserts a
# duration. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
work="$TSCOPE_TMP/follow_sweep.$$"
rm -rf "$work" && mkdir -p "$work/sw" && cd "$work" || exit 1
"$B/gen_sweep" src 50 8 3 >/dev/null || { tap_notok "gen_sweep writes the sweep"; tap_plan; exit 1; }
set -- $(ls src)
l1=$1 l2=$2 l3=$3
tmux_start fs 140 30 "$work"
T send-keys -t fs "'$TSCOPE_BIN' --follow --interval 0.2 sw; echo EXIT=\$? > exit.txt" Enter
tap_check "an empty dir followed: the step tabs, and the warning that it holds nothing" \
	'wait_for "3 Ranks" && grep -q "1 warning" screen'

# on Ranks when the first level comes: the Ranks tab goes, the Overview is current
T send-keys -t fs 3
wait_for "ranks: no pytscope steps" >/dev/null
mv "src/$l1" sw/
tap_check "the Ranks tab went: the Overview is current, with the sweep" 'wait_for "Sweep pane: 8"'
tap_check "the tab bar is a sweep's" 'wait_re "^ sw  1 Overview  6 Findings  7 Sources  8 Sweep *$"'

# on Sources while the other levels come: it stays current and lists each file once
T send-keys -t fs 7
wait_for "$l1/profile_export" >/dev/null
mv "src/$l2" sw/
wait_for "$l2/profile_export" >/dev/null
mv "src/$l3" sw/
tap_check "Sources stays current while the sweep grows, and lists the new level" 'wait_for "$l3/profile_export"'
snap   # three reloads so far: each would have added the sources again
tap_eq "Sources lists each of the 3 files once" 3 "$(grep -cE '^ *(▶ *)?file +sw/.*/profile_export' screen)"
tap_check "the tab bar is still a sweep's (no Ranks, Steps, Budget)" \
	'grep -qE "^ sw  1 Overview  6 Findings  7 Sources  8 Sweep *$" screen'
tap_check "the status row speaks of the sweep's files, not of step records" \
	'grep -qE "LIVE sweep, 3 files, last change [0-9]+ s ago *$" screen && ! grep -q "no record yet" screen'
T send-keys -t fs 6
tap_check "Findings: the reloads counted in one LIVE.RELOADED entry" \
	'wait_for "reloaded 3 times" && [ "$(grep -c "LIVE.RELOADED  *sweep: " screen)" -eq 1 ]'

T send-keys -t fs 8
tap_check "8 opens the Sweep pane" 'wait_for "vs concurrency"'
T send-keys -t fs 1
tap_check "the Overview: 3 files, 150 records, as a fresh open" 'wait_for "3 files, 150 records loaded"'
tap_check "no warning left that the dir held nothing" 'grep -q "0 errors, 0 warnings" screen'
T send-keys -t fs 7
wait_for "kind" >/dev/null
tap_check "Sources: no 'no supported data found here' note" '! grep -q "no supported data" screen'

T send-keys -t fs q
i=0
while [ ! -s exit.txt ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tap_check "q exits 0" 'grep -q "EXIT=0" exit.txt'
tap_plan
