#!/bin/sh
# trace_nested.sh: ProfilerStep spans of one trace that hold or overlap one another. A
# span that holds others (an outer ProfilerStep#0 over #1 to #5) or overlaps one (a step
# starting before the last one ended) is left out of the step records, its time never
# counted twice, and named in the sources with one of its pairs; a kernel counts in the
# step that alone holds its launch (the inner one), never in the outer. So the walls,
# the budget and EFFICIENCY.RECOVERABLE are those of the real steps. The trace index
# gives the same.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
cd "$TSCOPE_TMP" || exit 1

# one_step N TS: a 10 ms ProfilerStep#N from TS us: a 6 ms gemm, then a 3 ms all-reduce
# half hidden behind it (compute 6 ms, exposed comm 1.5 ms, other 2.5 ms), and a comma
one_step() {
	step "$1" "$2" 10000
	kernel sgemm_kernel 7 $(($2 + 500)) 6000 $((2 * $1 + 1)); printf ,
	kernel ncclKernel_AllReduce_RING_LL_Sum_float 20 $(($2 + 5000)) 3000 $((2 * $1 + 2)); printf ,
}
tail_of() { printf '{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}]}\n'; }
mkdir nested cross
{ head_of 0 1; for n in 1 2 3 4 5; do one_step $n $(((n - 1) * 10000)); done; step 0 0 50000; tail_of; } \
	>nested/rank0.json
# steps 1 to 4 of 10 ms, step 3 starting 5 ms early, within step 2
{ head_of 0 1; one_step 1 0; one_step 2 10000; one_step 3 15000; one_step 4 30000; tail_of; } >cross/rank0.json

for d in nested cross; do
	"$TSCOPE_BIN" --no-index --export steps $d >$d.steps 2>/dev/null
	"$TSCOPE_BIN" --no-index --export sources $d >$d.src 2>/dev/null
	"$TSCOPE_BIN" --no-index --print --color never $d >$d.out 2>/dev/null
done
tap_eq "an outer ProfilerStep over 5 others: left out, each inner step its own kernels" \
	"rank,step,timestamp,step_time_ms,compute_ms,comm_ms,other_ms
0,1,0,10,6,1.5,2.5
0,2,0.01,10,6,1.5,2.5
0,3,0.02,10,6,1.5,2.5
0,4,0.03,10,6,1.5,2.5
0,5,0.04,10,6,1.5,2.5" "$(cat nested.steps)"
tap_check "... named in the sources: what it holds, why it is left out" \
	'grep -q "^warning,nested/rank0.json,,0,,,,,\"1 of 6 ProfilerSteps left out: each holds or overlaps another \
span of this trace (ProfilerStep#0 holds ProfilerStep#1), so its time would count twice; a step within one keeps the \
kernels launched in it\"$" nested.src'
tap_check "... the wall of the real steps (50 ms), other 25%, no HIGH recoverable share" \
	'grep -q "^  rank wall 50 ms over 5 steps" nested.out &&
	 grep -q "^  other  .* 25.0%     2.50 ms$" nested.out && ! grep -q "^  \[HIGH\].*RECOVERABLE" nested.out'
tap_eq "a step that starts before the last one ends: both left out, the others measured" \
	"rank,step,timestamp,step_time_ms,compute_ms,comm_ms,other_ms
0,1,0,10,6,1.5,2.5
0,4,0.03,10,6,1.5,2.5" "$(cat cross.steps)"
tap_check "... named in the sources" \
	'grep -q "^warning,cross/rank0.json,,0,,,,,\"2 of 4 ProfilerSteps left out: each holds or overlaps another \
span of this trace (ProfilerStep#2 overlaps ProfilerStep#3), so its time would count twice" cross.src'
"$TSCOPE_BIN" index nested >/dev/null 2>&1
"$TSCOPE_BIN" --export steps nested >nested_idx.steps 2>/dev/null
"$TSCOPE_BIN" --export sources nested >nested_idx.src 2>/dev/null
tap_check "from the trace index: the same steps and sources" \
	'[ -s nested/.tscope-index/traces-0-of-1.tsx ] && cmp -s nested.steps nested_idx.steps &&
	 cmp -s nested.src nested_idx.src'
tap_plan
