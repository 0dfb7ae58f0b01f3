#!/bin/sh
# ties.sh: ranks tied at a step's slowest compute (timers of ms resolution) share the
# step's critical path and its time lost (analysis.h THE CRITICAL PATH): the ranks
# export, the default report's per-rank lines and its line counting the tied steps; the
# same from the index, from two shards' parts and in a comparison; --compat pytscope
# keeps pytscope's rule (a tie to the lowest rank id). Fixture: gen_fixtures ties.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" ties t || { tap_notok "fixture generated"; exit 1; }
cols() { cut -d, -f1,5,6,8,9 "$1"; }

"$TSCOPE_BIN" --export ranks --no-index t >plain.csv 2>/dev/null
cols plain.csv >plain.cols
tap_eq "ranks export: split shares, their z, time lost, onset" \
	"rank,critical_share,z,time_lost_s,onset_step
0,0.28125,0.45643546458763845,0.01,
1,0.09375,-2.282177322938192,0,
2,0.34375,1.3693063937629153,0.04999999999999998,30
3,0.28125,0.45643546458763845,0.01," "$(cat plain.cols)"

"$TSCOPE_BIN" --print --no-index --color never t >p.out 2>/dev/null
tap_check "the report counts the tied steps" \
	'grep -q "^  (30 of 40 steps: ranks tied at the slowest compute share the step)$" p.out'
tap_check "... and gives rank 3 its share" 'grep -q "^    rank 3:  *10.75 ms · .*  28% (z=+0.5)$" p.out'
"$TSCOPE_BIN" --print --compat pytscope --color never t >c.out 2>/dev/null
tap_check "--compat pytscope: a tie goes to the lowest rank id (rank 0 75%, rank 3 0%)" \
	'grep -q "^    rank 0:  *10.75 ms · .*  75% (z=+7.3)$" c.out &&
	 grep -q "^    rank 3:  *10.75 ms · .*   0% (z=-3.7)$" c.out'
tap_check "--compat pytscope: no line of tscope-tui's own" '! grep -q "tied" c.out'

"$TSCOPE_BIN" index --jobs 1 t >/dev/null 2>&1
"$TSCOPE_BIN" --export ranks t >index.csv 2>/dev/null
tap_check "from the index: the same export" 'cmp -s plain.csv index.csv'
"$TSCOPE_BIN" --print --color never t >pi.out 2>/dev/null
tap_check "from the index: the same report" 'cmp -s p.out pi.out'

rm -rf t/.tscope-index
"$TSCOPE_BIN" index --jobs 1 --shard 0/2 t >/dev/null 2>&1
"$TSCOPE_BIN" index --jobs 1 --shard 1/2 t >/dev/null 2>&1
"$TSCOPE_BIN" --export ranks t >shards.csv 2>/dev/null
tap_check "from two shards: the same export" 'cmp -s plain.csv shards.csv'

cp -r t u
rm -rf u/.tscope-index
"$TSCOPE_BIN" --export diff_ranks --no-index t u >d.csv 2>/dev/null
tap_check "a comparison with itself: each rank's time lost on both sides as in the run" \
	'awk -F, "NR == 1 { printf \"%s,%s \", \$7, \$8 } NR > 1 { printf \"%s,%.6f,%.6f \", \$1, \$7, \$8 }" d.csv |
	 grep -qx "a_time_lost_s,b_time_lost_s 0,0.010000,0.010000 1,0.000000,0.000000 2,0.050000,0.050000 \
3,0.010000,0.010000 "'

# Ties that binary rounding hides: every rank's compute is 10.5 ms in every step, as
# 6 + 4.5 ms on rank 0 and 8 + 2.5 ms on rank 1 (0.006 + 0.0045 is 0.010499999999999999 in
# doubles, 0.008 + 0.0025 is 0.0105): a tie, never rank 1 critical in every step. From
# step logs, and from traces (12 ms ProfilerSteps: a gemm of 6 or 8 ms, then a 3 ms
# all-reduce half hidden behind it: 1.5 ms exposed, 10.5 ms of compute and other).
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
mkdir -p fl/rank0 fl/rank1 tr
for r in 0 1; do
	[ $r = 0 ] && ph='"forward":0.006,"other":0.0045' || ph='"forward":0.008,"other":0.0025'
	for s in 0 1 2 3 4 5 6 7 8 9; do printf '{"step":%d,"phases":{%s}}\n' $s "$ph"; done >fl/rank$r/steps.jsonl
	printf '{"name":"fl","rank":%d,"world_size":2}\n' $r >fl/rank$r/run.json
	[ $r = 0 ] && g=6000 || g=8000
	{ head_of $r 2
	  for s in 0 1 2 3 4 5 6 7 8 9; do
		t=$((s * 12000))
		step $s $t 12000
		kernel sgemm_kernel 7 $((t + 500)) $g $((2 * s + 1)); printf ,
		kernel ncclKernel_AllReduce_RING_LL_Sum_float 20 $((t + g - 1000)) 3000 $((2 * s + 2))
		[ $s = 9 ] || printf ,
	  done
	  printf ']}\n'; } >tr/rank$r.json
done
for d in fl tr; do
	"$TSCOPE_BIN" --export ranks --no-index $d 2>/dev/null | cut -d, -f1,5,6,8,9 >$d.cols
	"$TSCOPE_BIN" --print --no-index --color never $d >$d.out 2>/dev/null
	tap_eq "10.5 ms as 6 + 4.5 and 8 + 2.5 ($d): a tie, shares split, no z, time lost or onset" \
		"rank,critical_share,z,time_lost_s,onset_step
0,0.5,0,0,
1,0.5,0,0," "$(cat $d.cols)"
	tap_check "... the report counts the tied steps ($d)" \
		'grep -q "^  (10 of 10 steps: ranks tied at the slowest compute share the step)$" $d.out &&
		 grep -q "^    rank 1:  *10.50 ms · .*  50% (z=+0.0)$" $d.out'
done
"$TSCOPE_BIN" --print --compat pytscope --color never fl >fl_c.out 2>/dev/null
tap_check "--compat pytscope keeps pytscope's argmax of the doubles (rank 1 100%)" \
	'grep -q "^    rank 1:  *10.50 ms · .* 100% (z=+3.2)$" fl_c.out'
tap_plan
