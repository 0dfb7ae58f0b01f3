#!/bin/sh
# follow_recompute_tmux.sh: while following, the held analyses are recomputed on a
# worker thread (model/steps/analysis_recompute.c, ui/app_follow.c) and keys are
# answered meanwhile. TSCOPE_TEST_RECOMPUTE_HOLD keeps the worker's result back (10
# minutes: the recompute is "running" for as long as the test needs it). The Ranks pane
# (which holds the distributed analysis) is followed; once the status row says
# "updating", `j` moves the cursor and `1` opens the Overview while it still says so;
# R then takes the worker's result at once; Q quits with status 0 (the worker is
# hurried, not waited out). Order and state only: nothing asserts a duration.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/follow_recompute.$$"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
tmux_start r 140 30 "$work"
wpid=
trap 'T kill-server 2>/dev/null; [ -n "$wpid" ] && kill "$wpid" 2>/dev/null; rm -rf "$work"' EXIT
sh "$follow_writer" run 8 0 30 0
sh "$follow_writer" run 8 31 100000 0.05 &
wpid=$!
T send-keys -t r "TSCOPE_TEST_RECOMPUTE_HOLD=600 '$TSCOPE_BIN' --follow --no-index --interval 0.2 run; echo EXIT=\$? >exit.txt" Enter
tap_check "--follow opens live" 'wait_re "LIVE running"'
T send-keys -t r 3
tap_check "Ranks is shown" 'wait_re "ranks +row 1/8"'
tap_check "the held analyses are recomputed on the worker: the status row says updating" \
	'wait_re "analyses [0-9]+ s old, updating"'
T send-keys -t r j
wait_re "ranks +row 2/8" >/dev/null
tap_check "j moves the cursor while the recompute runs" \
	'grep -qE "ranks +row 2/8" "$tmux_screen" && grep -qE "analyses [0-9]+ s old, updating" "$tmux_screen"'
T send-keys -t r 1
# The Ranks screen has lines starting "run" (the tab bar) and "ranks" (its status row):
# wait for the Ranks status row to go, not for either word.
tap_check "1 opens the Overview while the recompute runs" \
	'wait_until "grep -qE \"analyses [0-9]+ s old, updating\" \"\$tmux_screen\" &&
		! grep -qE \"ranks +row 2/8\" \"\$tmux_screen\""'
T send-keys -t r 3 R
tap_check "R takes the worker's result at once: no longer updating" \
	'wait_until "grep -q \"read what was written since\" \"\$tmux_screen\" && ! grep -q \"updating\" \"\$tmux_screen\""'
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
wpid=
T send-keys -t r Q
tap_check "Q quits with status 0" 'wait_until "[ -s exit.txt ]" && grep -q "EXIT=0" exit.txt'
tap_plan
