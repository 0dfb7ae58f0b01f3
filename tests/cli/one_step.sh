#!/bin/sh
# one_step.sh: a run of one step record reads as one: the budget's "over 1 step", the
# LOW_MFU finding's "(0.06s over 1 step)" and --export all's "1 row"; --compat pytscope
# keeps pytscope's "over 1 steps" in both.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
mkdir one nomfu
printf '{"step":0,"phases":{"data":0.0077,"forward":0.031,"backward":0.0619,"optimizer":0.0059,"comm":0.0134}}\n' \
	>one/steps.jsonl
cp one/steps.jsonl nomfu/
printf '{"name":"one","rank":0,"world_size":1,"flops_per_step":1.2e13,"peak_flops":3.12e14}\n' >one/run.json
report() { "$TSCOPE_BIN" --print --color never --no-index "$@" 2>/dev/null; }
report one >one.out
report --compat pytscope one >one_compat.out
report nomfu >nomfu.out
report --compat pytscope nomfu >nomfu_compat.out
tap_check "the budget without MFU: over 1 step; pytscope's over 1 steps under --compat" \
	'grep -q "^  rank wall 120 ms over 1 step (MFU: n/a)$" nomfu.out &&
	 grep -q "^  wall 0.12s over 1 steps (MFU: n/a)$" nomfu_compat.out'
tap_check "the low-MFU finding: (0.06s over 1 step); pytscope's 1 steps under --compat" \
	'grep -q "compute_overhead at 50% of wall (0.06s over 1 step)\. " one.out &&
	 grep -q "compute_overhead at 50% of wall (0.06s over 1 steps)\. " one_compat.out'
"$TSCOPE_BIN" --export all -o all --no-index one >all.txt 2>/dev/null
tap_check "--export all: a view of one row says 1 row" 'grep -q "/steps.csv	1 row$" all.txt'
tap_plan
