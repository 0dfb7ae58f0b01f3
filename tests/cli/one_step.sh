#!/bin/sh
# one_step.sh: a run of one step record reads as one: the budget's "over 1 step", the
# LOW_MFU finding's "(60.3 ms over 1 step)" (its budget line's figure; pytscope's "0.06s"
# under --compat), the unjudged rules' "(1 step, needs N)" (memory growth's "(1 memory
# sample, needs N)"),
# --export all's "1 row", the Overview's "1 file, 1 record loaded" and the Steps pane's
# "1 record"; --compat pytscope keeps pytscope's "over 1 steps".
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
mkdir one nomfu
printf '{"step":0,"phases":{"data":0.0077,"forward":0.031,"backward":0.0619,"optimizer":0.0059,"comm":0.0134},%s}\n' \
	'"scalars":{"loss":2.5},"memory":{"alloc":1e9}' >one/steps.jsonl
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
tap_check "the low-MFU finding: (60.3 ms over 1 step), as its budget line; pytscope's 0.06s, 1 steps under --compat" \
	'grep -q "^  compute_overhead .*  60\.3 ms (recoverable)$" one.out &&
	 grep -q "compute_overhead at 50% of wall (60\.3 ms over 1 step)\. " one.out &&
	 grep -q "compute_overhead at 50% of wall (0.06s over 1 steps)\. " one_compat.out'
"$TSCOPE_BIN" --export all -o all --no-index one >all.txt 2>/dev/null
tap_check "--export all: a view of one row says 1 row" 'grep -q "/steps.csv	1 row$" all.txt'
tap_check "rules that need more steps: (1 step, needs N)" \
	'grep -q "loss plateau (1 step, needs [0-9]*)" nomfu.out &&
	 grep -q "memory growth (1 memory sample, needs [0-9]*)" nomfu.out'
printf '1\n:dump %s/ov.txt\n4\n:dump %s/st.txt\nq\n' "$PWD" "$PWD" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$TSCOPE_BIN" --tui --no-index nomfu >/dev/null 2>&1
tap_check "the explorer: 1 file, 1 record loaded; 0 errors, 0 warnings, 1 note; the Steps pane's 1 record" \
	'grep -q "sources  *1 file, 1 record loaded$" ov.txt && grep -q "; 0 errors, 0 warnings, 1 note$" ov.txt &&
	 grep -q "rank 0 (1 of 1)  1 record  " st.txt'
tap_plan
