#!/bin/sh
# trace_env.sh: the software and hardware Kineto traces record (deviceProperties' GPU
# names, cuda_runtime_version, cuda_driver_version, distributedInfo's backend) compared
# across ranks: a trace that records another GPU, CUDA or backend than most is named in
# the headline ("traces differ": the
# first such rank, its value and the others', how many, the keys) and by a medium
# TRACE.ENV_DIFFERS finding; with no majority (two traces, half and half) against the
# lowest rank. No such finding when the ranks' run.json names the same rank and keys
# (ENV.RANKS_DIFFER: one cause, one finding). A trace lists every GPU of its node; the
# one its kernels ran on (args.device) is the rank's. The same from the index; nothing
# when every trace records the same, or none records it; never under --compat pytscope.
# A trace that does not record its backend is not compared on it (the other keys: a value
# a trace does not record counts as one).
# Without run.json, the headline's environment line gives the lowest rank's.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
h100="NVIDIA H100 80GB HBM3" a100="NVIDIA A100-SXM4-80GB"
# trace FILE RANK WORLD GPU DRIVER [BACKEND]: a small trace of rank RANK of WORLD, on two GPUs
# named GPU (none when GPU is ""), with cuda_driver_version DRIVER (none when ""), on
# BACKEND (nccl when not given, none recorded when -)
trace() {
	{
		printf '{"schemaVersion":1,'
		[ -n "$4" ] && printf '"deviceProperties":[{"id":0,"name":"%s"},{"id":1,"name":"%s"}],' "$4" "$4"
		[ -n "$5" ] && printf '"cuda_driver_version":%s,' "$5"
		if [ "${6:-nccl}" = - ]; then
			printf '"distributedInfo":{"rank":%d,"world_size":%d},"traceEvents":[' "$2" "$3"
		else
			printf '"distributedInfo":{"backend":"%s","rank":%d,"world_size":%d},"traceEvents":[' "${6:-nccl}" "$2" "$3"
		fi
		printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%d,"dur":50,' $((100 + $2))
		printf '"args":{"stream":7,"correlation":1}}]}\n'
	} >"$1"
}
# run DIR WORLD GPU DRIVER: traces of ranks 0..WORLD-1, all alike
run() {
	mkdir -p "$1"
	r=0
	while [ $r -lt "$2" ]; do
		trace "$1/rank$r.pt.trace.json" $r "$2" "$3" "$4"
		r=$((r + 1))
	done
}
report() { "$TSCOPE_BIN" --print --color never --no-index "$@" >"$1.out" 2>/dev/null; }

run same 4 "$h100" 12020
report same
tap_check "every trace on one GPU and driver: no such line, no finding" \
	'grep -q "^  coverage  *all 4 ranks" same.out && ! grep -q "traces differ\|ENV_DIFFERS" same.out'
run odd 4 "$h100" 12020
trace odd/rank2.pt.trace.json 2 4 "$a100" 12020
report odd
tap_check "rank 2 on another GPU: the headline names it, the others' GPU and the count" \
	'grep -q "^  traces differ  *rank 2.s gpu=$a100, the other traces. $h100 (1 of 4 traces differ; keys: gpu)$" odd.out'
tap_check "... and a medium TRACE.ENV_DIFFERS finding" \
	'grep -q "^  \[MED \] Rank 2.s trace has gpu=$a100, the others $h100  (TRACE.ENV_DIFFERS)$" odd.out'
"$TSCOPE_BIN" index odd >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never odd >odd_idx.out 2>/dev/null
tap_check "the same from the index" 'cmp -s odd.out odd_idx.out'
tap_check "no run.json: the environment line gives the lowest rank's GPU and CUDA, n/a where not recorded" \
	'grep -q "^  environment  *gpu=$h100, cuda_runtime_version=n/a, cuda_driver_version=12020, backend=nccl \
(rank 0.s trace)$" odd.out'
"$TSCOPE_BIN" --print --color never --no-index --compat pytscope odd >compat.out 2>/dev/null
tap_check "not in pytscope's layout" '! grep -q "traces differ\|ENV_DIFFERS" compat.out'
tap_check "the header names the trace directory; --compat: no trace pytscope reads (not trace.json), no report" \
	'[ "$(head -1 odd.out)" = "tscope-tui — odd  (odd)" ] && [ ! -s compat.out ]'
run drv 4 "$h100" 12020
trace drv/rank1.pt.trace.json 1 4 "$h100" 12040
trace drv/rank3.pt.trace.json 3 4 "$h100" 12040
report drv
tap_check "half the ranks on another driver: no majority, named against rank 0" \
	'grep -q "^  traces differ  *rank 1.s cuda_driver_version=12040, rank 0.s 12020 (2 of 4 traces differ from rank 0: \
1,3, no majority; keys: cuda_driver_version)$" drv.out &&
	 grep -q "^  \[MED \] Rank 1.s trace has cuda_driver_version=12040, rank 0 12020 (2 of 4 traces differ from rank 0: \
1,3, no majority)  (TRACE.ENV_DIFFERS)$" drv.out'
run two 2 "$h100" ""
trace two/rank1.pt.trace.json 1 2 "" ""
report two
tap_check "two traces, one without deviceProperties: (none), against rank 0" \
	'grep -q "^  traces differ  *rank 1.s gpu=(none), rank 0.s $h100 (1 of 2 traces differ from rank 0, no" two.out'
# mixed FILE RANK DEVICE: rank RANK of 4 on a node of an H100 (id 0) and an A100 (id 1),
# its kernel on DEVICE (no args.device when "")
mixed() {
	{
		printf '{"deviceProperties":[{"id":0,"name":"%s"},{"id":1,"name":"%s"}],' "$h100" "$a100"
		printf '"distributedInfo":{"rank":%d,"world_size":4},"traceEvents":[' "$2"
		printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":100,"dur":50,"args":{"stream":7,'
		[ -n "$3" ] && printf '"device":%s,' "$3"
		printf '"correlation":1}}]}\n'
	} >"$1"
}
mkdir mix nodev
for r in 0 1 2 3; do
	mixed mix/rank$r.pt.trace.json $r $((r % 2))
	mixed nodev/rank$r.pt.trace.json $r ""
done
report mix
tap_check "a node of two GPU types: each rank's is the one its kernels ran on" \
	'grep -q "^  traces differ  *rank 1.s gpu=$a100, rank 0.s $h100 (2 of 4 traces differ from rank 0: 1,3, no" mix.out &&
	 grep -q "^  environment  *gpu=$h100, cuda_runtime" mix.out'
"$TSCOPE_BIN" index mix >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never mix >mix_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s mix.out mix_idx.out'
report nodev
tap_check "no args.device: every GPU the trace lists" \
	'grep -q "^  environment  *gpu=$h100, $a100, cuda_runtime" nodev.out && ! grep -q "traces differ" nodev.out'
# pytscope DIR GPU2 TRACE_GPU2 DRIVER2: a pytscope run of 4 ranks (steps, run.json, trace.json),
# rank 2's run.json on GPU2, its trace on TRACE_GPU2 with cuda_driver_version DRIVER2
pytscope() {
	for r in 0 1 2 3; do
		mkdir -p "$1/rank$r"
		printf '{"step":%d,"phases":{"forward":0.01,"backward":0.02}}\n' 0 1 2 3 4 >"$1/rank$r/steps.jsonl"
		g=$h100 tg=$h100 drv=12020
		[ $r = 2 ] && g=$2 tg=$3 drv=$4
		printf '{"name":"p","rank":%d,"world_size":4,"environment":{"gpu":"%s","cuda":"12.1"}}\n' $r "$g" \
			>"$1/rank$r/run.json"
		trace "$1/rank$r/trace.json" $r 4 "$tg" $drv
	done
}
pytscope both "$a100" "$a100" 12020
report both
tap_check "run.json and trace name rank 2's GPU: both headline lines, one finding (ENV.RANKS_DIFFER)" \
	'grep -q "^  env differs  *rank 2.s gpu=$a100" both.out && grep -q "^  traces differ  *rank 2.s gpu=$a100" both.out &&
	 grep -q "(ENV.RANKS_DIFFER)$" both.out && ! grep -q "TRACE.ENV_DIFFERS" both.out'
pytscope drv2 "$a100" "$a100" 12040
report drv2
tap_check "... the trace also names a driver run.json cannot record: both findings" \
	'grep -q "(ENV.RANKS_DIFFER)$" drv2.out && grep -q "keys: gpu, cuda_driver_version)$" drv2.out &&
	 grep -q "(TRACE.ENV_DIFFERS)$" drv2.out'
pytscope trace_only "$h100" "$a100" 12020
report trace_only
tap_check "... only the trace says rank 2 differs: TRACE.ENV_DIFFERS alone" \
	'grep -q "(TRACE.ENV_DIFFERS)$" trace_only.out && ! grep -q "ENV.RANKS_DIFFER" trace_only.out'
run bare 4 "" ""
report bare
tap_check "no trace records a GPU or driver: no such line; the environment line gives the backend" \
	'! grep -q "traces differ\|ENV_DIFFERS" bare.out && grep -q "^  environment  *gpu=n/a, cuda_runtime_version=n/a, \
cuda_driver_version=n/a, backend=nccl (rank 0.s trace)$" bare.out'
# Another job's trace in the directory: rank 3 on gloo where the others are on nccl.
run gloo 4 "$h100" 12020
trace gloo/rank3.pt.trace.json 3 4 "$h100" 12020 gloo
report gloo
tap_check "rank 3 on another backend: named in the headline and by TRACE.ENV_DIFFERS, never merged in silence" \
	'grep -q "^  traces differ  *rank 3.s backend=gloo, the other traces. nccl (1 of 4 traces differ; keys: backend)$" \
gloo.out && grep -q "^  \[MED \] Rank 3.s trace has backend=gloo, the others nccl  (TRACE.ENV_DIFFERS)$" gloo.out'
# A trace that does not record its backend (many carry only the rank) is not compared on it.
run nobe 4 "$h100" 12020
trace nobe/rank0.pt.trace.json 0 4 "$h100" 12020 -
report nobe
tap_check "a trace without a backend among traces on nccl: not named as differing" \
	'! grep -q "traces differ\|ENV_DIFFERS" nobe.out'
trace nobe/rank3.pt.trace.json 3 4 "$h100" 12020 gloo
report nobe
tap_check "... while one on another backend still is, of the traces that record one" \
	'grep -q "^  traces differ  *rank 3.s backend=gloo, the other traces. nccl (1 of 3 traces differ; keys: backend)$" \
nobe.out'
"$TSCOPE_BIN" index gloo >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never gloo >gloo_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s gloo.out gloo_idx.out'
tap_plan
