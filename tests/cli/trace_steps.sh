#!/bin/sh
# trace_steps.sh: the step records a traces-only run gets from its ProfilerStep spans.
# Each span's phases are of the GPU kernels launched in it, by their CPU launch's
# correlation id; a kernel whose launch is not in the trace (its correlation id matches
# no CPU event) is placed by its own start, in the span that holds it, and the sources
# say how many such kernels a trace has. So with one step or several, one rank or two,
# such steps get their compute, comm and other: never "compute 100%" as if CPU-only (HTA's
# last-step filter leaving no kernel), never a GPU-idle step while the GPU time line says
# busy, never "comm n/a" beside NCCL kernels; and the straggler search's not-judged
# reason says that HTA places a kernel by its launch. A ProfilerStep number recorded
# twice is two spans, each with the kernels launched in it (never each with both's), and
# named in the sources. The trace index restores those notes.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# kern NAME TS DUR CORR: a kernel on stream 7
kern() {
	printf ',{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%d,"dur":%d,' "$1" "$2" "$3"
	printf '"args":{"correlation":%d,"device":0,"stream":7}}' "$4"
}
# launch TS CORR: a cudaLaunchKernel
launch() {
	printf ',{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,'
	printf '"ts":%d,"dur":10,"args":{"correlation":%d}}' "$1" "$2"
}
nccl="ncclKernel_AllReduce_RING_LL_Sum_float(x)"
# trace FILE RANK WORLD LAUNCH NUMBERS: a ProfilerStep of 1 ms for each number of NUMBERS,
# in order, each running gemm (300 us), an NCCL all-reduce (300 us) and an elementwise
# kernel (100 us) one after the other; with LAUNCH=1 each kernel has its cudaLaunchKernel
trace() {
	t0=1700000000000000 i=0 c=1 with_launch=$4
	{
		printf '{"distributedInfo":{"backend":"nccl","rank":%d,"world_size":%d},"traceEvents":[' "$2" "$3"
		for n in $5; do
			st=$((t0 + i * 1000))
			[ $i -gt 0 ] && printf ,
			printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":100,' "$n"
			printf '"tid":100,"ts":%d,"dur":1000}' $st
			for k in gemm_kernel:50:300 "$nccl:400:300" elementwise_kernel:750:100; do
				name=${k%%:*} rest=${k#*:}
				off=${rest%%:*} dur=${rest#*:}
				[ "$with_launch" = 1 ] && launch $((st + off - 20)) $c
				kern "$name" $((st + off)) "$dur" $c
				c=$((c + 1))
			done
			i=$((i + 1))
		done
		printf ']}\n'
	} >"$1"
}
T="$TSCOPE_BIN"
mkdir several one two again
trace several/rank0.pt.trace.json 0 1 0 "1 2 3"
trace one/rank0.pt.trace.json 0 1 0 1
trace two/rank0.pt.trace.json 0 2 0 "1 2 3"
trace two/rank1.pt.trace.json 1 2 0 "1 2 3"
trace again/rank0.pt.trace.json 0 1 1 "1 2 2"
for d in several one two again; do
	"$T" --no-index --export steps $d >$d.steps 2>/dev/null
	"$T" --no-index --export sources $d >$d.src 2>/dev/null
	"$T" --no-index --print --color never $d >$d.out 2>/dev/null
done

# each step: compute 0.4 ms (gemm, elementwise), comm 0.3 ms (the all-reduce), other 0.3 ms
tap_check "kernels without a CPU launch, 3 steps: each step's compute, comm and other (not compute 100%)" \
	'[ "$(grep -c "^0,[123],[0-9.]*,1,0.4,0.3,0.3$" several.steps)" = 3 ] &&
	 grep -q "^  compute  .* 40.0%     0.40 ms$" several.out &&
	 grep -q "^  comm  .* 30.0%     0.30 ms$" several.out &&
	 grep -q "^  useful_compute  .* 40.0% " several.out'
tap_check "... the sources say how many GPU events have no CPU launch and how they are placed" \
	'grep -q "^info,several/rank0.pt.trace.json,,0,,,,,\"9 of 9 GPU events have no CPU launch (no CPU event \
has their correlation id): the steps. compute and comm place each by its own start, in the ProfilerStep span that \
holds it" several.src'
tap_check "... one step: measured (not GPU-idle beside a busy GPU time line)" \
	'grep -q "^0,1,[0-9.]*,1,0.4,0.3,0.3$" one.steps && grep -q "^  GPU time  *busy 87.5% " one.out &&
	 grep -q "^  compute  .* 40.0%     0.40 ms$" one.out'
tap_check "... two ranks: both measured, comm 30% of the step wall (not n/a)" \
	'[ "$(grep -c "^[01],[123],[0-9.]*,1,0.4,0.3,0.3$" two.steps)" = 6 ] &&
	 grep -q "^  imbalance .*; comm 30.0% of step wall$" two.out &&
	 grep -q "^info,two/rank1.pt.trace.json,,1,,,,,\"9 of 9 GPU events have no CPU launch" two.src'
tap_check "... the potential stragglers not judged: HTA places a kernel by its CPU launch" \
	'grep -q "^  - potential stragglers (no ncclKernel communication kernel longer than 1% of the mean step that \
HTA places in a step by its CPU launch.s correlation id)$" two.out'
# ProfilerStep#3 recorded as #2: steps 1, 2, 2, each with its own kernels
tap_check "a step number recorded twice: each span its own kernels (comm 0.3, other 0.3), not both's" \
	'[ "$(grep -c "^0,2,[0-9.]*,1,0.4,0.3,0.3$" again.steps)" = 2 ] &&
	 grep -q "^0,1,[0-9.]*,1,0.4,0.3,0.3$" again.steps &&
	 grep -q "^  top recoverable  *n/a: .*; largest measured communication 900 us (30.0%)$" again.out'
tap_check "... named in the sources" \
	'grep -q "^warning,again/rank0.pt.trace.json,,0,,,,,\"ProfilerStep#2 is recorded 2 times in this trace: each \
span.s compute and comm are of the kernels launched in it" again.src && ! grep -q "no CPU launch" again.src'
"$T" index two >/dev/null 2>&1 && "$T" --export sources two >two_idx.src 2>/dev/null
"$T" index again >/dev/null 2>&1 && "$T" --export sources again >again_idx.src 2>/dev/null
tap_check "the trace index restores those notes" 'cmp -s two.src two_idx.src && cmp -s again.src again_idx.src'
tap_plan
