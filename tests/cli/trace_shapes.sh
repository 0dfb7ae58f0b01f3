#!/bin/sh
# trace_shapes.sh: GPU events in the other shapes a Chrome trace allows, and a process
# that drives several GPUs. A span written in halves (ph B, then E on the same pid and
# tid) is read as the complete span (ph X) it stands for, nested halves on a thread
# paired as they nest; a half without its other is counted as skipped and named. A GPU
# event without args.stream takes its numeric tid as the stream (formats.md §2.3), so
# HTA's GPU time and pytscope's comm overlap read the same kernels; one with no stream
# at all is named, not dropped in silence. Kernels on two GPUs of one rank (args.device,
# else the pid) are judged GPU by GPU: each GPU's span, idle and idle by stream (the
# idle view gains a device column), the headline sums the GPUs' spans and says so, and
# TRACE.GPU_IDLE names the idle GPU, never "the GPU" over their union; the trace index
# keeps the same.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

COMM="ncclKernel_AllReduce_RING_LL_Sum_float"
head_of() { printf '{"distributedInfo":{"rank":0,"world_size":1},"traceEvents":[\n'; }
step() { printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":100,"tid":100,' "$1"
	printf '"ts":%d,"dur":9900},\n' "$2"; }
launch() { printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":%d,"dur":5,' \
	$(($1 - 50)); printf '"args":{"correlation":%d}},\n' "$2"; }
# kx NAME DEVICE STREAM TS DUR CORR: a kernel (ph X) and its launch
kx() { launch "$4" "$6"; printf '{"ph":"X","cat":"kernel","name":"%s","pid":%d,"tid":%d,"ts":%d,"dur":%d,' "$1" "$2" \
	"$3" "$4" "$5"; printf '"args":{"device":%d,"stream":%d,"correlation":%d}},\n' "$2" "$3" "$6"; }
# kbe NAME DEVICE STREAM TS DUR CORR: the same kernel in halves
kbe() { launch "$4" "$6"; printf '{"ph":"B","cat":"kernel","name":"%s","pid":%d,"tid":%d,"ts":%d,' "$1" "$2" "$3" "$4"
	printf '"args":{"device":%d,"stream":%d,"correlation":%d}},\n' "$2" "$3" "$6"
	printf '{"ph":"E","cat":"kernel","name":"%s","pid":%d,"tid":%d,"ts":%d},\n' "$1" "$2" "$3" $(($4 + $5)); }
# knt NAME DEVICE STREAM TS DUR CORR: the kernel with no args.stream nor args.device
knt() { launch "$4" "$6"; printf '{"ph":"X","cat":"kernel","name":"%s","pid":%d,"tid":%d,"ts":%d,"dur":%d,' "$1" "$2" \
	"$3" "$4" "$5"; printf '"args":{"correlation":%d}},\n' "$6"; }
tail_of() { printf '{"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"python"}}]}\n'; }
# one_gpu FORM: 3 steps of a 4 ms gemm on stream 7 and a 3 ms all-reduce on stream 24
one_gpu() {
	head_of
	for s in 0 1 2; do
		t=$((s * 10000))
		step $((s + 1)) $t
		$1 volta_sgemm_128x64_nn 0 7 $((t + 100)) 4000 $((2 * s + 1))
		$1 "$COMM" 0 24 $((t + 2000)) 3000 $((2 * s + 2))
	done
	tail_of
}
export_all() { for v in kernels idle temporal comm_overlap step_kernels; do
	"$TSCOPE_BIN" --no-index --export $v "$1"; done 2>/dev/null; }

mkdir x be nt
one_gpu kx >x/rank0.json
one_gpu kbe >be/rank0.json
one_gpu knt >nt/rank0.json
export_all x >x.csv
export_all be >be.csv
export_all nt >nt.csv
"$TSCOPE_BIN" --no-index --export sources be >be_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never be >be.out 2>/dev/null
tap_check "kernels in halves (ph B/E): read as the spans they stand for, the views as for ph X" \
	'grep -q "^0,7,host_wait," be.csv && cmp -s x.csv be.csv'
tap_check "... every event read, none skipped; the headline has the GPU time, no 'no GPU kernel'" \
	'grep -q "^file,be/rank0.json,kineto,0,,,22,0,ok$" be_src.csv && [ "$(wc -l <be_src.csv)" -eq 2 ] &&
	 grep -q "^  GPU time  *busy 65.8%" be.out && ! grep -q "no GPU kernel" be.out'
tap_check "kernels without args.stream: the numeric tid is the stream, the views as with it" \
	'grep -q "^0,24,host_wait," nt.csv && cmp -s x.csv nt.csv'
"$TSCOPE_BIN" --no-index --print --color never nt >nt.out 2>/dev/null
tap_check "... the GPU time and the comm overlap read the same kernels: no 'no GPU kernel' beside comm 9.0 ms" \
	'grep -q "^  GPU time  *busy 65.8%" nt.out && grep -q "comm 9.0 ms" nt.out && ! grep -q "no GPU kernel" nt.out'

# Halves without their other: a kernel begun and never ended, an end with no beginning.
# A ProfilerStep in halves around CPU ops in halves on its thread (not read) pairs with
# its own E.
mkdir odd
{ head_of
  printf '{"ph":"B","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0},\n'
  printf '{"ph":"B","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":10},\n'
  kx gemm 0 7 100 400 1
  printf '{"ph":"E","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":600},\n'
  printf '{"ph":"E","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":1000},\n'
  printf '{"ph":"B","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":700,"args":{"stream":7}},\n'
  printf '{"ph":"E","cat":"kernel","name":"gemm","pid":0,"tid":8,"ts":900},\n'
  tail_of; } >odd/rank0.json
"$TSCOPE_BIN" --no-index --export sources odd >odd_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps odd >odd_steps.csv 2>/dev/null
tap_check "halves without their other half: counted as skipped and named" \
	'grep -q "^file,odd/rank0.json,kineto,0,,,7,2,ok$" odd_src.csv &&
	 grep -q "2 span event halves (ph B or E) without the other half on the same pid and tid; not read" odd_src.csv'
tap_check "nested halves pair as they nest: the ProfilerStep spans its own B to E" \
	'[ "$(wc -l <odd_steps.csv)" -eq 2 ] && grep -q "^0,1,0,1,0.4," odd_steps.csv'

mkdir nostream
{ head_of; step 1 0; kx gemm 0 7 100 400 1
  printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":"GPU worker","ts":600,"dur":100,"args":{}},\n'
  tail_of; } >nostream/rank0.json
"$TSCOPE_BIN" --no-index --export sources nostream >ns_src.csv 2>/dev/null
tap_check "a GPU event with no stream id at all: named as left out of HTA's analyses" \
	'grep -q "1 GPU event without a stream id (args.stream, or a tid that is one): left out of HTA" ns_src.csv'

# One process, two GPUs, both on their stream 7: each busy 4.8 of every 10 ms, in turn
# (the union of the two is busy 97%); in "idle1" GPU 1 is busy 2 ms of every 10.
two_gpus() {
	head_of
	for s in 0 1 2; do
		t=$((s * 10000))
		step $((s + 1)) $t
		$1 volta_sgemm_128x64_nn 0 7 $((t + 100)) 4800 $((2 * s + 1))
		$1 volta_sgemm_128x64_nn 1 7 $((t + 5100)) "$2" $((2 * s + 2))
	done
	tail_of
}
mkdir g2 g2pid idle1
two_gpus kx 4800 >g2/rank0.json
two_gpus knt 4800 >g2pid/rank0.json
two_gpus kx 2000 >idle1/rank0.json
"$TSCOPE_BIN" --no-index --print --color never g2 >g2.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export idle g2 >g2_idle.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export idle g2pid >g2pid_idle.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal g2 >g2_temp.csv 2>/dev/null
tap_check "two GPUs of one rank: idle by GPU and stream, a device column, no merged stream 7" \
	'[ "$(head -1 g2_idle.csv)" = "rank,device,stream,idle_category,idle_time_us,idle_time_ratio" ] &&
	 grep -q "^0,0,7,host_wait,5200,1$" g2_idle.csv && grep -q "^0,1,7,host_wait,5200,1$" g2_idle.csv &&
	 ! grep -q ",600," g2_idle.csv'
tap_check "... the device from the pid when args.device is missing" 'cmp -s g2_idle.csv g2pid_idle.csv'
tap_check "... the rank's temporal figures are the two GPUs' sums (each GPU idle 5.2 of 14.8 ms)" \
	'grep -q "^0,10400,19200,0,29600,35.13" g2_temp.csv'
tap_check "... the headline says the spans are two GPUs', not one GPU busy 97%" \
	'grep -q "idle 35.1% of the HTA spans (29.6 ms summed over 2 GPUs of 1 rank;" g2.out &&
	 grep -q "^  GPU idle by GPU  *35.1% on each of the 2 GPUs; :view idle$" g2.out && ! grep -q "busy 97" g2.out'
tap_check "... TRACE.GPU_IDLE judges each GPU and names one, never \"the GPU\"" \
	'grep -q "^  \[MED \] GPU 0 of rank 0 is idle 35% of its HTA span  (TRACE.GPU_IDLE)$" g2.out &&
	 grep -q "2 of 2 traced GPUs (of 1 rank) are idle 25% or more" g2.out && ! grep -q "The GPU is idle" g2.out'
"$TSCOPE_BIN" --no-index --print --color never idle1 >idle1.out 2>/dev/null
tap_check "a rank's idle GPU is named with its share, the busy one as the least idle" \
	'grep -q "^  \[HIGH\] GPU 1 of rank 0 is idle 67% of its HTA span  (TRACE.GPU_IDLE)$" idle1.out &&
	 grep -q "(least idle: GPU 0 of rank 0 at 35.1%)" idle1.out &&
	 grep -q "^  GPU idle by GPU  *35.1% (GPU 0 of rank 0) to 66.7% (GPU 1 of rank 0); :view idle$" idle1.out'
"$TSCOPE_BIN" index idle1 >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never idle1 >idle1_ix.out 2>/dev/null
"$TSCOPE_BIN" --export idle idle1 >idle1_ix.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export idle idle1 >idle1.csv 2>/dev/null
tap_check "... the trace index keeps each GPU's figures: the same report and idle view" \
	'[ -f idle1/.tscope-index/traces-0-of-1.tsx ] && cmp -s idle1.out idle1_ix.out && cmp -s idle1.csv idle1_ix.csv'
tap_plan
