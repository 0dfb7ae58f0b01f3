#!/bin/sh
# trace_filtered.sh: HTA keeps, of a trace with two ProfilerSteps or more, only the GPU
# kernels whose CPU launch (by correlation id) starts before the last step. Traces whose
# kernels have no such launch (hand-made, or cut by a filter) leave none: the headline
# says so and how many kernels it left out, not "no GPU kernel in the traces"; the same
# from the index. With launches, GPU time is measured.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
# trace FILE RANK LAUNCH: two ProfilerSteps of one kernel each; with LAUNCH=1 each kernel's
# cudaLaunchKernel
trace() {
	{
		printf '{"distributedInfo":{"rank":%d,"world_size":2},"traceEvents":[' "$2"
		for s in 1 2; do
			printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":900},' \
				$s $((s * 1000))
			[ "$3" = 1 ] && printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,%s},' \
				"\"ts\":$((s * 1000 + 10)),\"dur\":5,\"args\":{\"correlation\":$s}"
			printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%d,"dur":500,' $((s * 1000 + 100))
			printf '"args":{"stream":7,"correlation":%d}}%s' $s "$([ $s = 1 ] && echo ,)"
		done
		printf ']}\n'
	} >"$1"
}
mkdir bare launched
for r in 0 1; do
	trace bare/rank$r.json $r 0
	trace launched/rank$r.json $r 1
done
"$TSCOPE_BIN" --print --color never --no-index bare >bare.out 2>/dev/null
tap_check "kernels without a CPU launch: the filter left none, said so with the count" \
	'grep -q "^  GPU time  *n/a: HTA.s last-step filter left no GPU kernel (it keeps those whose CPU launch, by \
correlation id, starts before the last ProfilerStep; 4 kernels had none)$" bare.out &&
	 grep -q "^  - GPU idle time (no GPU kernel launched before the last ProfilerStep)$" bare.out &&
	 ! grep -q "no GPU kernel in the traces" bare.out'
"$TSCOPE_BIN" index bare >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never bare >bare_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s bare.out bare_idx.out'
"$TSCOPE_BIN" --print --color never --no-index launched >launched.out 2>/dev/null
tap_check "kernels launched before the last step: GPU time measured" \
	'grep -q "^  GPU time  *busy 100.0% " launched.out'
tap_plan
