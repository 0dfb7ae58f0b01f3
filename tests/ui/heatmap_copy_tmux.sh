#!/bin/sh
# heatmap_copy_tmux.sh: the heatmap's status row rounds by the units rule ("worst 108
# ms"), y copies the cell under the cursor in full precision (OSC 52 into tmux's
# buffer): row and column labels, metric, worst, mean and unit, tab-separated; a node's
# name (a long CJK hostname) whole, never cut inside a character, and Y's first field
# names node rows "node". y on a missing cell says the value is missing (a cell is
# selected). Y copies every visible bucket (past 4 KiB: a 250-column heatmap), and a copy
# longer than 16 KiB is cut after a whole character, with the message saying so.
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
T send-keys -t hcopy Y
wait_for "copied"
tap_check "Y on a node line: the first field names the rows nodes, then the node's name whole" \
	'wait_until "T show-buffer 2>/dev/null | sed -n 1p | grep -q \"^node (compute worst, s)	0	1	\" &&
		T show-buffer 2>/dev/null | sed -n 2p | grep -q \"^计算节点-机房七-机架三-x服务器01	0\\.[0-9]\""'
T send-keys -t hcopy q
wait_gone "compute"

# rank 2 has no steps past 49: its cell at step 59 is selected, and missing
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$work/gap" 4 60 >/dev/null
grep -v '^{"step":5[0-9],' "$work/gap/rank2/steps.jsonl" >"$work/steps" &&
	mv "$work/steps" "$work/gap/rank2/steps.jsonl"
T send-keys -t hcopy "'$TSCOPE_BIN' --tui --no-index '$work/gap'" Enter
wait_for "rank 0  step 0  compute"
T send-keys -t hcopy 2 g j j $(printf 'l %.0s' $(seq 59))
wait_for "rank 2  step 59  compute missing"
T send-keys -t hcopy y
tap_check "y on a missing cell says its value is missing, not that nothing is selected" \
	'wait_for "the selected cell'"'"'s value is missing: nothing copied"'
T send-keys -t hcopy q
wait_gone "compute"

# ranks 0 and 1 on a host named with 10000 two-byte characters (20000 bytes), in node rows
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$work/lh" 4 40 >/dev/null
long=$(i=0; while [ $i -lt 10000 ]; do printf 'é'; i=$((i + 1)); done)
for r in 0 1 2 3; do
	h=$([ $r -lt 2 ] && echo "$long" || echo short)
	sed "s/\"python\":/\"hostname\": \"$h\", \"python\":/" "$work/lh/rank$r/run.json" >"$work/run.json" &&
		mv "$work/run.json" "$work/lh/rank$r/run.json"
done
T send-keys -t hcopy "'$TSCOPE_BIN' --tui --no-index '$work/lh'" Enter
wait_for "compute"
T send-keys -t hcopy 2 o g
wait_for "ééé"
T delete-buffer 2>/dev/null
T send-keys -t hcopy y
tap_check "y: a 20000-byte name cut after the last whole character of 16 KiB, and the message says so" \
	'wait_for "copied 16382 bytes, the most y/Y copy (the rest left out)" &&
	 [ "$(T show-buffer | wc -c)" = 16382 ] && T show-buffer | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1'
T delete-buffer 2>/dev/null
T send-keys -t hcopy Y
tap_check "Y: cut the same way (valid UTF-8, said), its first line naming the rows nodes" \
	'wait_for "Y copy (the rest left out): node (compute" &&
	 [ "$(T show-buffer | wc -c)" -ge 16382 ] && T show-buffer | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 &&
	 T show-buffer | sed -n 1p | grep -q "^node (compute worst, s)	0	1	"'
T send-keys -t hcopy q
wait_gone "compute"

# 250 steps at one step a column in a 260-column pane: Y holds every bucket (more than 4 KiB)
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$work/big" 4 250 >/dev/null
T resize-window -t hcopy -x 260 -y 30
T send-keys -t hcopy "'$TSCOPE_BIN' --tui --no-index '$work/big'" Enter
wait_for "rank 0  step 0  compute"
T delete-buffer 2>/dev/null
T send-keys -t hcopy Y
wait_for "copied"
fields() { T show-buffer 2>/dev/null | sed -n "$1p" | tr '\t' '\n'; }   # line $1 of the copy, a field a line
heads() { fields 1 | sed 1d | tr '\n' ,; }
want=$(seq 0 249 | tr '\n' ,)
tap_check "Y on 250 buckets copies all 250 (steps 0-249) and their worsts, uncut" \
	'wait_until "[ \"\$(heads)\" = \"\$want\" ]" && [ "$(fields 2 | grep -c "^0\.[0-9]")" = 250 ] &&
	 ! grep -q "rest left out" "$work/screen"'
T send-keys -t hcopy q
tap_plan
