#!/bin/sh
# heatmap_copy_tmux.sh: the heatmap's status row rounds by the units rule ("worst 108
# ms"), y copies the cell under the cursor in full precision (OSC 52 into tmux's
# buffer): row and column labels, metric, worst, mean and unit, tab-separated; a node's
# name (a long CJK hostname) whole, never cut inside a character.
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
wait_gone "compute worst"
# a node line of ranks on hosts with long CJK names: y copies the name whole and valid
# UTF-8 (never cut inside a character), the status row names it whole too
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$work/cjk" 16 20 >/dev/null
for r in $(seq 0 15); do
	sed "s/\"python\":/\"hostname\": \"计算节点-机房七-机架三-x服务器0$((r / 8))\", \"python\":/" \
		"$work/cjk/rank$r/run.json" >"$work/run.json" && mv "$work/run.json" "$work/cjk/rank$r/run.json"
done
T send-keys -t hcopy "'$TSCOPE_BIN' --tui --no-index '$work/cjk'" Enter
wait_for "rank 0  step 0  compute"
T send-keys -t hcopy 2 o j
wait_for "x服务器01  step"
T send-keys -t hcopy y
wait_for "copied"
tap_check "y on a node line copies its whole name (valid UTF-8, no U+FFFD)" \
	'wait_until "T show-buffer 2>/dev/null |
		grep -q \"^计算节点-机房七-机架三-x服务器01	0	compute	0\\.[0-9]\""'
T send-keys -t hcopy q
tap_plan
