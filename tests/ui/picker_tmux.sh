#!/bin/sh
# picker_tmux.sh: the run picker of a folder of runs, end to end in tmux at 80x24.
# A run picked goes through the checks a PATH on the command line goes through (src/main.c
# picked_load): a subfolder holding runs of two kinds (a trace and DASF databases) and a
# run dir with a trace of a rank its step logs lack are refused, never merged: the list
# stays and a message names the run and why, as `tscope-tui FOLDER/RUN` says it. A run
# that does not open (nothing to explore under --ranks, a load cancelled with q on its
# loading screen) comes back to the list with the message too, never quits. Each row is
# the run's name below the folder with its kind (as the listing off a terminal names it);
# names too long for 80 columns that differ at their end are clipped apart (ui/label_fit),
# runs under a long parent path are named by their own names, and the title counts "1 run"
# or "N runs". Every wait polls the screen (tests/tmux.sh). Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
work="$TSCOPE_TMP/picker.$$"
rm -rf "$work" && mkdir -p "$work/f/mixed" "$work/g" "$work/long" && cd "$work" || exit 1
long=experiment-llama3-70b-fsdp-tp8-pp4-bf16-activation-checkpointing-lr3e-4-warmup2000
parent=campaign_december_2026_learning_rate_sweeps_on_the_large_cluster_partition
{ "$B/gen_dasf" fixture dasf && "$B/gen_trace" t.json 1 0 && cp dasf/* t.json f/mixed/ &&
	"$B/gen_demo" f/ok 2 30 && "$B/gen_demo" g/sub 2 30 && "$B/gen_trace" g/sub/trace.json 1 5 &&
	"$B/gen_demo" "long/$long-seed1" 2 10 && mkdir "long/$long-seed2" && cp t.json "long/$long-seed2/" &&
	mkdir "$parent" && "$B/gen_demo" "$parent/sweep_lr_0001" 2 10 && "$B/gen_demo" "$parent/sweep_lr_0003" 2 10 &&
	mkdir slow && "$B/gen_demo" slow/stalled 5 400; } >/dev/null ||
	{ tap_notok "the fixtures could not be made"; tap_plan; exit 0; }
tmux_start pick 80 24 "$work"
start() {   # the command "$@" (shell words) in the session, its exit status into exit.txt
	rm -f exit.txt
	T send-keys -t pick clear Enter
	wait_until '! grep -q "holds" "$tmux_screen"'
	T send-keys -t pick "$* 2>err.txt; echo EXIT=\$? > exit.txt" Enter
}
wait_exit() {   # exit.txt holds EXIT=$1
	wait_until '[ -s exit.txt ]' && grep -qx "EXIT=$1" exit.txt
}
listed() {   # the picker lists both runs of f, its title first
	grep -q "^ f holds 2 runs below it" "$tmux_screen" && grep -q "^  mixed  (kineto)" "$tmux_screen" &&
		grep -q "ok     (pytscope)" "$tmux_screen"
}

start "'$TSCOPE_BIN'" --no-index f
tap_check "each run is named below the folder, with its kind" 'wait_for "holds 2 runs below it" && listed'
T send-keys -t pick Enter   # f/mixed: a trace and DASF databases
tap_check "a picked folder holding a trace and DASF databases is refused: the list stays" \
	'wait_for "not opened" && listed && [ ! -s exit.txt ]'
said="'f/mixed' not opened: it holds 2 runs, never merged:"
said="$said a trace run (--format *kineto) and a dasf run (--format dasf)"
tap_check "... the message names the run, its runs and the --format that opens each" \
	'tr -d "\n" <"$tmux_screen" | grep -q "$said"'
tap_check "... nothing of either run is shown merged (no Overview)" \
	'! grep -q "DASF tasks\|GPU time\|Overview" "$tmux_screen"'
T send-keys -t pick j Enter   # f/ok
tap_check "the other run opens" 'wait_for "demo-ddp  1 Overview"'
T send-keys -t pick q
tap_check "q at its top comes back to the list, the message gone" \
	'wait_for "holds 2 runs" && ! grep -q "not opened" "$tmux_screen"'
T send-keys -t pick q
tap_check "q in the picker quits (exit 0)" 'wait_exit 0'

start "'$TSCOPE_BIN'" --no-index g
wait_for "holds 1 run below it" >/dev/null
tap_check "one run: the title says \"holds 1 run\"" 'grep -q "^ g holds 1 run below it" "$tmux_screen"'
T send-keys -t pick Enter   # g/sub: a trace of rank 5 beside 2 ranks' step logs
tap_check "a picked run with a trace of a rank its step logs lack is refused, never merged" \
	'wait_for "not opened" &&
	 tr -d "\n" <"$tmux_screen" | grep -q "trace g/sub/trace.json is rank 5, *which the step logs (2 *ranks) do not have"'
tap_check "... the list stays, nothing opened" \
	'grep -q "^  sub  (pytscope)" "$tmux_screen" && ! grep -q "Overview" "$tmux_screen"'
T send-keys -t pick q
wait_exit 0 >/dev/null

start "'$TSCOPE_BIN'" --no-index --ranks 9 f
wait_for "holds 2 runs" >/dev/null
T send-keys -t pick j Enter
tap_check "a picked run with nothing to explore comes back to the list, saying why" \
	'wait_for "not opened: nothing to explore" && wait_for "--ranks 9" && listed && [ ! -s exit.txt ]'
T send-keys -t pick q
tap_check "... q then quits (exit 0)" 'wait_exit 0'

# a load that does not end (TSCOPE_LIST_DELAY_MS: a rank dir listing that never ends, as
# on a stalled file system): q on its loading screen
start TSCOPE_LIST_DELAY_MS=600000 "'$TSCOPE_BIN'" --no-index --jobs 1 slow
wait_for "holds 1 run" >/dev/null
T send-keys -t pick Enter
wait_for "quits the load" >/dev/null
T send-keys -t pick q
tap_check "q on a picked run's loading screen comes back to the list, saying so" \
	'wait_for "'"'"'slow/stalled'"'"' not opened: load cancelled" && grep -q "^  stalled  (pytscope)" "$tmux_screen" &&
	 [ ! -s exit.txt ]'
T send-keys -t pick q
wait_exit 0 >/dev/null

start "'$TSCOPE_BIN'" --no-index long
wait_for "holds 2 runs" >/dev/null
row1=$(grep -n "seed1" "$tmux_screen" | cut -d: -f2-)
row2=$(grep -n "seed2" "$tmux_screen" | cut -d: -f2-)
tap_check "80 columns: two long names that differ at their end read apart (…seed1, …seed2)" \
	'[ -n "$row1" ] && [ -n "$row2" ] && [ "$row1" != "$row2" ] && echo "$row1" | grep -q "…seed1  (pytscope)"'
tap_check "... each with its kind, within 80 columns" \
	'echo "$row2" | grep -q "…seed2  (kineto)" && [ "$(printf %s "$row2" | wc -m)" -le 80 ]'
T send-keys -t pick q
wait_exit 0 >/dev/null

start "'$TSCOPE_BIN'" --no-index "'$work/$parent'"
wait_for "holds 2 runs" >/dev/null
tap_check "runs under a long parent path are named by their own names" \
	'grep -q "^  sweep_lr_0001  (pytscope)" "$tmux_screen" && grep -q "^  sweep_lr_0003  (pytscope)" "$tmux_screen"'
tap_check "... the title keeps its count, the folder clipped" 'grep -q "… holds 2 runs below it" "$tmux_screen"'
T send-keys -t pick q
wait_exit 0 >/dev/null
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
