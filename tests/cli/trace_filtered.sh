#!/bin/sh
# trace_filtered.sh: HTA keeps, of a trace with two ProfilerSteps or more, only the GPU
# kernels whose CPU launch (by correlation id) starts before the last step. Traces whose
# kernels have no such launch (hand-made, or cut by a filter) leave none: the headline
# and the not-judged list say so in the same words and how many kernels it left out, not
# "no GPU kernel in the traces" nor "no GPU kernel launched before the last ProfilerStep"
# (the kernels ran in the earlier steps); the same from the index. With launches, GPU
# time is measured. The rule is per rank (formats.md §2.4: with 0 or 1 step nothing is
# dropped): a rank of one ProfilerStep among ranks of two keeps its kernels (HTA,
# counting the steps of every rank, would leave it none and call it CPU-only), and the
# headline says whose last step is left out. A rank whose kernels the filter all left
# out, among GPU ranks, is a GPU rank: its steps are measured, each kernel without a CPU
# launch placed by its own start, and said so.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
# trace FILE RANK LAUNCH [DUR]: two ProfilerSteps of one kernel each (DUR us, else 500);
# with LAUNCH=1 each kernel's cudaLaunchKernel
trace() {
	{
		printf '{"distributedInfo":{"rank":%d,"world_size":2},"traceEvents":[' "$2"
		for s in 1 2; do
			printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":900},' \
				$s $((s * 1000))
			[ "$3" = 1 ] && printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,%s},' \
				"\"ts\":$((s * 1000 + 10)),\"dur\":5,\"args\":{\"correlation\":$s}"
			printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%d,' $((s * 1000 + 100))
			printf '"dur":%d,' "${4:-500}"
			printf '"args":{"stream":7,"correlation":%d}}%s' $s "$([ $s = 1 ] && echo ,)"
		done
		printf ']}\n'
	} >"$1"
}
# (bare: kernels that fill their steps, so that no finding hides the not-judged list)
mkdir bare launched
for r in 0 1; do
	trace bare/rank$r.json $r 0 900
	trace launched/rank$r.json $r 1
done
"$TSCOPE_BIN" --print --color never --no-index bare >bare.out 2>/dev/null
tap_check "kernels without a CPU launch: the filter left none, said so with the count (headline, not-judged list)" \
	'grep -q "^  GPU time  *n/a: HTA.s last-step filter left no GPU kernel (it keeps those whose CPU launch, by \
correlation id, starts before the last ProfilerStep; 4 kernels had none)$" bare.out &&
	 grep -q "^  - GPU idle time (HTA.s last-step filter left no GPU kernel: it keeps those whose CPU launch, by \
correlation id, starts before the last ProfilerStep; 4 kernels had none)$" bare.out &&
	 ! grep -q "no GPU kernel in the traces" bare.out'
"$TSCOPE_BIN" index bare >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never bare >bare_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s bare.out bare_idx.out'
"$TSCOPE_BIN" --print --color never --no-index launched >launched.out 2>/dev/null
tap_check "kernels launched before the last step: GPU time measured" \
	'grep -q "^  GPU time  *busy 100.0% " launched.out'
# Rank 1 has one ProfilerStep, rank 0 two.
mkdir one mixed
trace one/rank0.json 0 1
{ printf '{"distributedInfo":{"rank":1,"world_size":2},"traceEvents":['
  printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":1000,"dur":900},'
  printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1010,"dur":5,'
  printf '"args":{"correlation":1}},{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1100,"dur":500,'
  printf '"args":{"stream":7,"correlation":1}}]}\n'; } >one/rank1.json
"$TSCOPE_BIN" --no-index --export temporal one >one_t.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps one >one_s.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources one >one_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never one >one.out 2>/dev/null
tap_check "a rank of one ProfilerStep among ranks of two keeps its kernels (nothing dropped on it)" \
	'grep -q "^1,0,500,0,500,0,100,0,," one_t.csv && grep -q "^1,1,[0-9.]*,0.9,0.5,0.4$" one_s.csv &&
	 ! grep -q "no GPU kernel" one_src.csv'
tap_check "... the headline says whose last step HTA leaves out" \
	'grep -q "summed over 2 ranks; HTA leaves out the last ProfilerStep of the ranks with several)$" one.out'
trace mixed/rank0.json 0 1
trace mixed/rank1.json 1 0
"$TSCOPE_BIN" --no-index --export sources mixed >mixed_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps mixed >mixed_s.csv 2>/dev/null
tap_check "a rank whose kernels the filter all left out, among GPU ranks: measured by their own start, said so" \
	'grep -q "^info,mixed/rank1.json,,1,,,,,\"2 of 2 GPU events have no CPU launch (no CPU event has their" \
		mixed_src.csv && ! grep -q "no GPU kernel in this trace" mixed_src.csv &&
	 [ "$(grep -c "^1,[12],[0-9.]*,0.9,0.5,0.4$" mixed_s.csv)" = 2 ]'
tap_plan
