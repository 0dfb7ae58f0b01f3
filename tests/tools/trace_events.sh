# trace_events.sh: shell functions that print Kineto trace events for the trace test
# scripts (sourced; each prints one JSON fragment, the caller joins them):
#   head_of RANK WORLD_SIZE          the document's start: distributedInfo, "traceEvents":[
#   step N TS DUR                    a ProfilerStep#N span on the host, and a comma
# kernel NAME STREAM TS DUR CORR: a kernel event and its cudaLaunchKernel (10 us before)
kernel() {
	printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":5,' $(($3 - 10))
	printf '"args":{"correlation":%d}},' "$5"
	printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":%d,"ts":%d,"dur":%d,' "$1" "$2" "$3" "$4"
	printf '"args":{"stream":%d,"device":0,"correlation":%d}}' "$2" "$5"
}
head_of() { printf '{"distributedInfo":{"rank":%d,"world_size":%d},"traceEvents":[' "$1" "$2"; }
step() { printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":%d},' "$@"; }
