#!/bin/sh
# follow_narrow_tmux.sh: following a job at 80x24, the status row keeps the value under
# the cursor: the LIVE field gives up its least needed parts first ("analyses N s old",
# then "newest record N s ago"), down to "LIVE running, 1 stalled", before the pane's own
# fields are cut (Heatmap, Steps, Ranks); the Ranks table keeps its live column (the one
# that says "stalled") in view. At 140 columns the whole LIVE field shows beside the
# value. A writer (tests/tools/follow_writer.sh) appends to 8 ranks, rank 3 stops.
# Waits are bounded; nothing asserts a duration. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/follow_narrow.$$"
# the status row (the last row but one) of the last capture has no field cut
uncut() { ! tail -n 2 "$work/screen" | head -n 1 | grep -q …; }

follow_start "$work" 30 40
wait_re "LIVE running, 1 stalled" >/dev/null
T send-keys -t f 2
tap_check "140 columns: the heatmap's value and the whole LIVE field" \
	'wait_re "^ rank [0-9]+ +step [0-9-]+ +[a-z_]+ [0-9.]+ ms .*LIVE running, 1 stalled, newest record"'

T resize-window -t f -x 80 -y 24
tap_check "80 columns: the heatmap's value shows, no field cut" \
	'wait_re "^ rank [0-9]+ +step [0-9-]+ +[a-z_]+ (worst )?[0-9.]+ ms .*LIVE running, 1 stalled *$" && uncut'
T send-keys -t f 4
tap_check "80 columns: the Steps pane's step_time shows; LIVE gives up all but the stall count" \
	'wait_re "^ rank [0-9]+ step [0-9]+ +step_time [0-9.]+ ms .* LIVE 1 stalled *$"'
T send-keys -t f 3
tap_check "80 columns: the Ranks pane's row and rank show, no field cut" \
	'wait_re "^ ranks +row [0-9]+/8 +rank=[0-9] .*LIVE running, 1 stalled" && uncut'
tap_check "80 columns: the Ranks table keeps its live column, rank 3 stalled" \
	'wait_re "^ +rank .*live( |$)" && wait_re "^ +3 .*stalled( |$)"'

follow_quit q
tap_eq "q exits 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
