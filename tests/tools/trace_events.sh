# trace_events.sh: shell functions that print Kineto trace events for the trace test
# scripts (sourced; each prints one JSON fragment, the caller joins them):
#   head_of RANK WORLD_SIZE          the document's start: distributedInfo, "traceEvents":[
#   step N TS DUR                    a ProfilerStep#N span on the host, and a comma
#   strag_rank RANK WORLD "LATE" NSTEPS GEMM [BASE_NS] [LATE_US]
#                                    a whole trace: NSTEPS 10 ms ProfilerSteps, each with
#       a GEMM us gemm on stream 7 from 100 us and a 3 ms ncclKernel on stream 24 from 2 ms,
#       which starts LATE_US (1000) us later (and lasts as much less) in the steps listed
#       in LATE; with BASE_NS (may be ""), a top-level baseTimeNanoseconds (its clock that
#       much later)
# kernel NAME STREAM TS DUR CORR: a kernel event and its cudaLaunchKernel (10 us before)
kernel() {
	printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":5,' $(($3 - 10))
	printf '"args":{"correlation":%d}},' "$5"
	printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":%d,"ts":%d,"dur":%d,' "$1" "$2" "$3" "$4"
	printf '"args":{"stream":%d,"device":0,"correlation":%d}}' "$2" "$5"
}
head_of() { printf '{"distributedInfo":{"rank":%d,"world_size":%d},"traceEvents":[' "$1" "$2"; }
step() { printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":%d},' "$@"; }
strag_rank() {
	printf '{"distributedInfo":{"rank":%d,"world_size":%d},%s"traceEvents":[' "$1" "$2" \
		"${6:+\"baseTimeNanoseconds\":$6,}"
	_s=1
	while [ "$_s" -le "$4" ]; do
		_t=$(((_s - 1) * 10000)) _late=0
		case " $3 " in *" $_s "*) _late=${7:-1000} ;; esac
		step "$_s" "$_t" 9900
		kernel gemm 7 $((_t + 100)) "$5" $((2 * _s)); printf ,
		kernel ncclKernel_AllReduce 24 $((_t + 2000 + _late)) $((3000 - _late)) $((2 * _s + 1))
		[ "$_s" -eq "$4" ] || printf ,
		_s=$((_s + 1))
	done
	printf ']}\n'
}
