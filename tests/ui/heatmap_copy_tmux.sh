#!/bin/sh
# heatmap_copy_tmux.sh: the heatmap's status row rounds by the units rule ("worst 108
# ms"), y copies the cell under the cursor in full precision (OSC 52 into tmux's
# buffer): row and column labels, metric, worst, mean and unit, tab-separated.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/hcopy.$$"
mkdir -p "$work"
tmux_start hcopy 100 30 "$work"
T set -g set-clipboard on
T send-keys -t hcopy "'$TSCOPE_BIN' --tui --no-index '$TSCOPE_ROOT/testdata/demo'" Enter
wait_for "compute worst"
tap_check "the status row shows the rounded figures with their unit" \
	'grep -q "^ rank 0  step 0-[0-9]*  compute worst [0-9.]* ms mean [0-9.]* ms" "$work/screen"'
T send-keys -t hcopy y
wait_for "copied"
tap_check "y copies the cell in full precision: labels, metric, worst, mean, unit" \
	'wait_until "T show-buffer 2>/dev/null | grep -qE \"^0	0-[0-9]+	compute	0\\.[0-9]{12,}	0\\.[0-9]{12,}	s\$\""'
T send-keys -t hcopy q
tap_plan
