#!/bin/sh
# heatmap_job_tmux.sh: `m` to a heatmap metric whose pyramid is not in memory builds it
# off the UI thread (model/steps/heat_job.c). The test hook TSCOPE_TEST_HEAT_JOB_MS makes
# every such metric a job and slows it (a pause after each rank), so the build is still
# running while keys are pressed: the note row counts "computing step time: k of 16
# ranks", keys are answered meanwhile (the cursor moves, ? opens and closes), the result
# replaces the grid when it is done; m during a build moves on (M back to the metric
# shown needs no build), leaving the pane stops a build (coming back shows the old
# metric, nothing computed), and so does R before it reads the run again. An indexed copy of the demo: the job reads each rank's steps
# from the index. A job's cells are the records the run aligns natively: an eval record
# (scalars alone) after a training record of its step leaves the cell to the training
# record, its slowdown against the median of every rank's compute there (the index
# summary holds pytscope's alignment: natively the pyramid is a job). Every wait polls
# the screen (tests/tmux.sh); no timing is asserted.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/hjob.$$"
mkdir -p "$work"
cp -R "$TSCOPE_ROOT/testdata/demo" "$work/run"
"$TSCOPE_BIN" index "$work/run" >/dev/null 2>&1 || tap_notok "tscope-tui index failed"
tmux_start hjob 120 36 "$work"
T send-keys -t hjob "TSCOPE_TEST_HEAT_JOB_MS=400 '$TSCOPE_BIN' --tui '$work/run'; echo EXIT=\$? > '$work/exit.txt'" Enter
wait_for "compute: "
T send-keys -t hjob m
wait_for "slowdown vs step median: "
T send-keys -t hjob m
tap_check "m to step time: built off the UI thread, its progress in the note row" \
	'wait_re "computing step time: [0-9]+ of 16 ranks"'
tap_check "... the grid shown meanwhile is still the slowdown's" 'grep -q "slowdown vs step median: " "$work/screen"'
T send-keys -t hjob j
tap_check "a key while it computes is answered (the cursor moves to rank 1)" \
	'wait_until "grep -q \"^ rank 1  step\" \"\$tmux_screen\" && grep -q \"computing step time\" \"\$tmux_screen\""'
T send-keys -t hjob '?'
tap_check "? opens the help while it computes" 'wait_for "Keys (Esc closes"'
T send-keys -t hjob Escape
wait_gone "Keys (Esc closes"
tap_check "the build ends: step time replaces the grid, said on the status row" \
	'wait_until "grep -q \"step time: \" \"\$tmux_screen\" && grep -q \"'"'"'step time'"'"' computed\" \"\$tmux_screen\" && ! grep -q computing \"\$tmux_screen\""'
tap_check "... the cursor stayed on rank 1" 'grep -q "^ rank 1  step" "$work/screen"'

# m during a build moves on; M back to the metric shown needs no build
T send-keys -t hjob m
wait_re "computing comm: [0-9]+ of 16 ranks"
T send-keys -t hjob m
tap_check "m during a build stops it and moves on to the next metric" 'wait_re "computing data: [0-9]+ of 16 ranks"'
T send-keys -t hjob M M
tap_check "M back to the metric shown: the build stops, step time stays, nothing computing" \
	'wait_until "grep -q \"step time: \" \"\$tmux_screen\" && ! grep -q computing \"\$tmux_screen\""'

# leaving the pane stops the build
T send-keys -t hjob m
wait_re "computing comm: [0-9]+ of 16 ranks"
T send-keys -t hjob 3
wait_for "ranks  row"
T send-keys -t hjob 2
tap_check "leaving the pane stopped the build: back on the heatmap, step time, nothing computing" \
	'wait_until "grep -q \"step time: \" \"\$tmux_screen\" && ! grep -q \"computing\\|computed\" \"\$tmux_screen\""'

# R (read what was written since) changes the model: a running build stops first
T send-keys -t hjob m
wait_re "computing comm: [0-9]+ of 16 ranks"
T send-keys -t hjob R
tap_check "R while it computes: the build stops, the run is read again" \
	'wait_until "grep -q \"read what was written since\" \"\$tmux_screen\" && ! grep -q computing \"\$tmux_screen\""'
T send-keys -t hjob q
tap_check "q quits (exit 0)" 'wait_until "grep -qx EXIT=0 \"$work/exit.txt\" 2>/dev/null"'

# 4 ranks x 20 steps of 8, 14, 10 and 12 ms compute; rank 0 logs an eval record after its
# training record of step 5
for r in 0 1 2 3; do
	mkdir -p "$work/ev/rank$r"
	awk -v r=$r 'BEGIN {
		f = r == 1 ? 3 : r == 3 ? 2 : r == 2 ? 1 : 0
		for (s = 0; s < 20; s++) {
			printf "{\"step\":%d,\"phases\":{\"forward\":%.3f,\"backward\":0.004}}\n", s, 0.004 + 0.002 * f
			if (r == 0 && s == 5) printf "{\"step\":5,\"scalars\":{\"val_loss\":0.5}}\n"
		}
	}' >"$work/ev/rank$r/steps.jsonl"
done
"$TSCOPE_BIN" index "$work/ev" >/dev/null 2>&1 || tap_notok "tscope-tui index failed"
T send-keys -t hjob "TSCOPE_TEST_HEAT_JOB_MS=10 '$TSCOPE_BIN' --tui '$work/ev'" Enter
wait_for "Overview"
T send-keys -t hjob 2
wait_for "compute: "
T send-keys -t hjob l l l l l
tap_check "an eval record after rank 0's training record of step 5: the job's cell is the training record's" \
	'wait_for "rank 0  step 5  compute 8 ms  forward 4 ms  backward 4 ms"'
T send-keys -t hjob m
tap_check "... its slowdown against the median of the 4 ranks there (10 and 12 ms: 11 ms)" \
	'wait_re "rank 0  step 5  slowdown vs step median -0\.273"'
T send-keys -t hjob q
tap_plan
