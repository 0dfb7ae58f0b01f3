#!/bin/sh
# trace_ranks.sh: the rank and host of a trace from its file name (model/trace/store.c).
# The ranks the file names give are reserved before any file gets one from the file
# order (rank0 and rank1 keep 0 and 1 beside an unnamed file, which gets the next free
# id). Two traces of one process, by tensorboard_trace_handler's default names
# HOST_PID.MS.pt.trace.json (a schedule's successive profiling windows), or two traces of
# the rank one file name gives (worker0.MS1 and worker0.MS2), are never two ranks: the
# second is left out, refused with why, and the warning names both; two processes whose
# names give one rank (job-worker-0_11 and job-worker-0_12, no distributedInfo) are two
# ranks, the second from the file order, saying why. The host of a HOST_PID.MS name is
# a host even when it holds "worker" or "rank" (job-worker-0, a Kubeflow pod), but not a
# rank token alone or a name with an underscore (worker3_step_12.MS). An index open says
# what a plain load says.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
T=$TSCOPE_BIN

# trace FILE RANK FIRST: steps FIRST..FIRST+2 with a gemm and an all-reduce each; RANK
# "-" writes no distributedInfo
trace() {
	{
		if [ "$2" = - ]; then printf '{"traceEvents":['; else head_of "$2" 4; fi
		s=$3
		while [ "$s" -lt $(($3 + 3)) ]; do
			step "$s" $((s * 1000)) 900
			kernel gemm 7 $((s * 1000 + 100)) 300 $((s * 2))
			printf ,
			kernel ncclKernel_AllReduce 9 $((s * 1000 + 500)) 200 $((s * 2 + 1))
			[ "$s" -lt $(($3 + 2)) ] && printf ,
			s=$((s + 1))
		done
		printf ']}\n'
	} >"$1"
}

mkdir named windows twins procs pods steps
trace named/aaa_1234.1700.pt.trace.json - 1
trace named/rank0.pt.trace.json - 1
trace named/rank1.pt.trace.json - 1
"$T" --no-index --export sources named >named.csv 2>/dev/null
tap_check "names reserved first: rank0 and rank1 keep 0 and 1, the unnamed file gets 2 from file order" \
	'grep -q "^file,named/rank0.pt.trace.json,kineto,0," named.csv &&
	 grep -q "^file,named/rank1.pt.trace.json,kineto,1," named.csv &&
	 grep -q "^warning,named/aaa_1234.1700.pt.trace.json,,2,.*rank 2 from file order$" named.csv &&
	 [ "$(grep -c "from file order" named.csv)" -eq 1 ]'

trace windows/gpubox_48213.1694128201545.pt.trace.json - 2
trace windows/gpubox_48213.1694128263911.pt.trace.json - 7
"$T" --no-index --export sources windows >windows.csv 2>/dev/null
"$T" --no-index --print --color never windows >windows.out 2>/dev/null
tap_check "two windows of one process (HOST_PID.MS names): one rank, the second left out and named" \
	'grep -q "^  ranks  *1$" windows.out && ! grep -q "end early" windows.out &&
	 grep -q "^refused,windows/gpubox_48213.1694128263911.pt.trace.json,kineto,,.*another profiling window" windows.csv &&
	 grep -q "2 traces of one process (gpubox pid 48213, by the file names): windows/gpubox_48213.1694128201545" \
		windows.csv'

trace twins/worker0.1623143089861.pt.trace.json - 1
trace twins/worker0.1623143095000.pt.trace.json - 1
"$T" --no-index --export sources twins >twins.csv 2>/dev/null
"$T" --no-index --print --color never twins >twins.out 2>/dev/null
tap_check "two traces the file names give rank 0 (worker0.MS): one rank, no DISTRIBUTED section, no false wording" \
	'grep -q "^  ranks  *1$" twins.out && ! grep -q DISTRIBUTED twins.out &&
	 grep -q "^refused,twins/worker0.1623143095000.pt.trace.json,kineto,0,.*rank 0 from the file name" twins.csv &&
	 ! grep -q "no usable rank" twins.csv'

trace procs/job-worker-0_11.1700000000000.pt.trace.json - 1
trace procs/job-worker-0_12.1700000000000.pt.trace.json - 1
"$T" --no-index --export sources procs >procs.csv 2>/dev/null
tap_check "two processes whose names give rank 0: two ranks, the second from file order, saying why" \
	'grep -q "^file,procs/job-worker-0_11.1700000000000.pt.trace.json,kineto,0," procs.csv &&
	 grep -q "^warning,procs/job-worker-0_12.1700000000000.pt.trace.json,,1,.*another process.*rank 1 from file order" \
		procs.csv && ! grep -q "^refused" procs.csv'

r=0
for h in 0 1; do
	for p in 11 12; do
		trace pods/job-worker-${h}_$p.1700000000000.pt.trace.json $r 1
		r=$((r + 1))
	done
done
"$T" --no-index --export nodes pods >pods.csv 2>/dev/null
tap_eq "hosts holding \"worker\" (Kubeflow pods) group the ranks into nodes" \
	"job-worker-0,2,0,1 job-worker-1,2,2,3" "$(tail -n +2 pods.csv | cut -d, -f1-4 | tr '\n' ' ' | sed 's/ $//')"

trace steps/worker3_step_12.1694128201557.pt.trace.json 0 1
trace steps/worker4_step_12.1694128201558.pt.trace.json 1 1
tap_check "worker3_step_12.MS names no host (an underscore in it)" \
	'! "$T" --no-index --export nodes steps >/dev/null 2>&1'

# an index open: the same ranks, refusals and diagnostics
for d in windows twins procs named; do
	"$T" index $d >/dev/null 2>&1 || exit 1
	"$T" --export sources $d >$d.idx.csv 2>/dev/null
done
tap_check "an index open says what a plain load says (windows, name twins, processes, names first)" \
	'cmp -s windows.csv windows.idx.csv && cmp -s twins.csv twins.idx.csv && cmp -s procs.csv procs.idx.csv &&
	 cmp -s named.csv named.idx.csv'
tap_plan
