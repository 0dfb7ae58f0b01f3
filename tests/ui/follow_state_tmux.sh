#!/bin/sh
# follow_state_tmux.sh: the view stays where the user is while a followed job grows
# (issue 12). A writer (tests/tools/follow_writer.sh) appends to 8 ranks, rank 3 stops,
# while `tscope-tui --follow --interval 0.2` refreshes several times a second; on each
# pane the user's place must survive those refreshes: the Overview's selected finding
# (by id, not by position), the Budget pane's selected rank, the Heatmap's cursor row,
# the Ranks table's filter and sort; and the heatmap's axis extends to the leading
# ranks' newest steps, the stopped rank's cells there missing. While keys come the
# analyses over every record are held (the status row says how old), and catch up once
# the keys pause. Waits are bounded; nothing asserts a duration.
# Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/follow_state.$$"
status() { snap; tail -n 2 "$work/screen" | head -n 1; }
records0() { wc -l <"$work/run/rank0/steps.jsonl"; }
# wait until rank 0's file grew by 5 records (a second of polls at 0.2 s)
polls_pass() {
	n0=$(records0)
	i=0
	while [ $i -lt 300 ]; do
		[ "$(records0)" -ge $((n0 + 5)) ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# the rank column of the Ranks pane's rows, in screen order
ranks_order() { snap; awk '$1 ~ /^[0-9]+$/ || $1 == "▶" { print ($1 == "▶") ? $2 : $1 }' "$work/screen" | tr '\n' ' '; }

follow_start "$work" 30 40
wait_re "LIVE running, 1 stalled" >/dev/null

# Overview: the last finding stays selected (a reopened pane would select the first)
T send-keys -t f 1
wait_re "Findings \([2-9]" >/dev/null
T send-keys -t f G
wait_re "finding ([2-9])/\1 " >/dev/null
before=$(status | grep -oE "finding [0-9]+/[0-9]+ +[A-Z_.]+")
polls_pass
after=$(status | grep -oE "finding [0-9]+/[0-9]+ +[A-Z_.]+")
tap_check "Overview: the selected finding stays selected while data grows ($before -> $after)" \
	'[ -n "$before" ] && [ "${before##* }" = "${after##* }" ] && [ "${before##* }" != LIVE.STALLED_RANK ]'

# on pane KEY (shown when REGEX matches), select the sixth row (rank 5); then polls pass
select_rank5() {
	T send-keys -t f "$1"
	wait_re "$2" >/dev/null
	T send-keys -t f g j j j j j
	wait_re "$3" >/dev/null
	polls_pass
}

# Budget: rank 5 stays selected
select_rank5 5 "Budget of rank" "Budget of rank 5:"
tap_check "Budget: rank 5 stays selected while data grows" 'wait_re "Budget of rank 5:" && status | grep -q "^ rank 5 "'

# Heatmap: the cursor stays on rank 5's row
select_rank5 2 "^ rank [0-9]+ +step" "^ rank 5 +step"
tap_check "Heatmap: the cursor stays on rank 5 while data grows" 'status | grep -qE "^ rank 5 +step"'
axis_max() { sed -n 2p "$work/screen" | tr -s ' ' '\n' | grep -E '^[0-9]+$' | sort -n | tail -n 1; }
tap_check "Heatmap: the axis goes past rank 3's stop (step 40) to the others' newest steps ($(axis_max))" \
	'[ "$(axis_max)" -gt 60 ]'
tap_check "Heatmap: rank 3's cells after its stop are missing (·), not zero" 'wait_re "^ *!3 +.*·+ *$"'

# Ranks: a filter and a sort survive refreshes
T send-keys -t f 3
wait_re "records" >/dev/null
T send-keys -t f f "rank>=4" Enter
wait_re "rank>=4" >/dev/null
T send-keys -t f s
sleep 0.5
order1=$(ranks_order)
polls_pass
order2=$(ranks_order)
tap_check "Ranks: the filter rank>=4 survives refreshes (rows: $order2)" \
	'[ -n "$order2" ] && ! echo " $order2" | grep -qE " [0-3] " && grep -q "rank>=4" "$work/screen"'
tap_check "Ranks: the sort by rank, descending, survives refreshes ($order1 -> $order2)" '[ "$order1" = "7 6 5 4 " ] && [ "$order2" = "$order1" ]'

# while keys come, the analyses over every record are held and the status row says how
# old they are; once the keys pause they catch up
held=no
i=0
while [ $i -lt 40 ] && [ $held = no ]; do
	T send-keys -t f j
	sleep 0.15
	T send-keys -t f k
	sleep 0.15
	status | grep -qE "analyses [0-9]+ s old" && held=yes
	i=$((i + 1))
done
tap_eq "keys coming: the status row says the analyses are held (\"analyses N s old\")" yes "$held"
# (up to 30 s: on a loaded machine the worker's recompute can outlast several polls)
tap_check "keys paused: they catch up (the age leaves the status row)" \
	'i=0; while [ $i -lt 300 ] && status | grep -q "analyses [0-9]* s old"; do sleep 0.1; i=$((i + 1)); done; ! status | grep -q "s old"'

follow_quit Q
tap_eq "quits with status 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
