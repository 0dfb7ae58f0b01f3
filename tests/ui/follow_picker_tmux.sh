#!/bin/sh
# follow_picker_tmux.sh: `tscope-tui --follow FOLDER` on a folder of runs, end to end in
# tmux. The folder holds nothing itself, so the explorer offers the run picker; the run
# picked is followed as `tscope-tui --follow FOLDER/RUN` follows it: the explorer opens
# (the folder's loading screen does not stay up under the picker), the status row says
# LIVE running and the record count of a rank its job appends to grows on screen; q
# comes back to the picker and the other run, a job that stopped and wrote its run.json
# (n_steps: the finish marker), ends "finished"; Q
# quits with exit 0. Waits are bounded (60 s); nothing asserts a duration. Skips
# without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/follow_picker.$$"
rm -rf "$work" && mkdir -p "$work/runs" && cd "$work" || exit 1
# the records column of rank $1 in the Ranks pane
records() {
	snap
	awk -v r="$1" '$1 == r || ($1 == "▶" && $2 == r) { print ($1 == "▶") ? $3 : $2; exit }' "$work/screen"
}

tmux_start fp 140 30 "$work"
wpid=
trap 'T kill-server 2>/dev/null; [ -n "$wpid" ] && kill "$wpid" 2>/dev/null' EXIT
sh "$follow_writer" runs/live 4 0 20 0
FOLLOW_WRITER_FINISH=1 sh "$follow_writer" runs/done 4 0 10 0
sh "$follow_writer" runs/live 4 21 100000 0.05 &
wpid=$!
T send-keys -t fp "'$TSCOPE_BIN' --follow --interval 0.2 --stall 2 runs; echo EXIT=\$? > exit.txt" Enter
tap_check "--follow on a folder of runs offers the picker" 'wait_for "runs holds 2 runs below it"'
T send-keys -t fp Enter   # runs/done
tap_check "the picked run opens in the explorer, followed" 'wait_re "^ done .*1 Overview" && wait_for "LIVE"'
tap_check "the picked job that stopped ends \"finished\"" 'wait_re "LIVE finished"'
T send-keys -t fp q
tap_check "q comes back to the picker" 'wait_for "runs holds 2 runs below it"'
T send-keys -t fp j Enter   # runs/live
tap_check "the other run opens, live: the status row says LIVE running" \
	'wait_re "LIVE running.*newest record [0-9]+ s ago"'
T send-keys -t fp 3
wait_re "^ *(▶ +)?0 +[0-9]{2,} " >/dev/null
a=$(records 0)
wait_re "^ *(▶ +)?0 +$((a + 5))" >/dev/null
b=$(records 0)
tap_check "the record count of rank 0 grows on screen ($a, then $b): the picked run's files are read" \
	'[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]'
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
wpid=
T send-keys -t fp Q
i=0
while [ ! -s exit.txt ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tap_eq "Q quits with exit 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
