#!/bin/sh
# trace_truncated.sh: a truncated Kineto trace is not analysed as if whole. Kineto writes
# the GPU events out of time order and its process and thread names (ph M) only once
# every span is written, so a file cut before those names may have lost a kernel of any
# step: none of its steps is measured (no record on that rank, not a step of 0 ms, said
# in the sources), while a file cut after them lost no GPU event and is measured as a
# whole one. The rank's HTA figures are marked partial in the temporal view, and the
# verdicts over ranks leave it out and say so: TRACE.GPU_IDLE and the GPU time headline
# (not judged: GPU idle time of the rank), the potential stragglers (its cell empty),
# DIST.EXPOSED_COMM when it is the lowest rank, whose COMMUNICATION OVERLAP section says
# its figures are of the events read (exposed share n/a; the comm_overlap view's cell
# empty, and its export says so on stderr). A truncated file without a communication kernel read is not blamed on the
# classification table. The trace index does not
# restore a truncated trace (its record does not say whether every GPU event was read):
# it is parsed again. A file cut before its ProfilerSteps loads as a rank without a step
# record (missing), not as another run's. Files cut before their first GPU kernel are
# not CPU-only profiles: their steps are not measured either, even when no rank has a
# kernel. A truncated rank's rows in the kernels, idle and kernel_breakdown views are
# marked partial (a partial column and a note), left out of the all-ranks rows and the
# top kernels, as of the GPU time line, and of step_kernels. The same on the real traces
# cut (../shared/real; skipped when absent).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
names() { printf ',{"ph":"M","name":"process_name","pid":%d,"tid":0,"args":{"name":"python"}}' 1 0; }
# The head of a file cut in its GPU events: step 2's kernel written before step 1's.
ooo_head() { head_of "$1" 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 1100 100 2; printf ,; }

# Kernels out of time order, cut before step 1's kernel: step 1 is not measured either
# (the latest kernel read ends after it, and still its kernel is past the cut).
mkdir ooo
{ ooo_head 0; kernel gemm 7 100 800 1; names; printf ']}\n'; } >ooo/rank0.json
{ ooo_head 1; printf '{"ph":"X","cat":"cuda_runtime","na'; } >ooo/rank1.json
"$TSCOPE_BIN" --no-index --export steps ooo >ooo.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources ooo >ooo_src.csv 2>/dev/null
tap_check "cut in the GPU events: no step of the rank measured, not step 1 with compute 0" \
	'grep -q "^0,1,0,1,0.8,0.2$" ooo.csv && grep -q "^0,2," ooo.csv && ! grep -q "^1," ooo.csv'
tap_check "... the sources say why" \
	'grep -q "^warning,ooo/rank1.json,,1,,,,,\"2 of 2 ProfilerSteps not measured (left out on this rank): the \
file is truncated before the end of its GPU events, which are not written in time order" ooo_src.csv'

# Cut before its ProfilerSteps: the rank loads without a step record (missing, said in the
# sources), the run is not refused as another one's (its steps are the traces' own).
mkdir nostep
{ ooo_head 0; kernel gemm 7 100 800 1; names; printf ']}\n'; } >nostep/rank0.json
{ head_of 1 2; kernel gemm 7 100 800 1; printf ',{"ph":"X","cat":"user_annotation","na'; } >nostep/rank1.json
"$TSCOPE_BIN" --no-index --export steps nostep >nostep.csv 2>nostep.err
rc=$?
"$TSCOPE_BIN" --no-index --export sources nostep >nostep_src.csv 2>/dev/null
tap_check "cut before its ProfilerSteps: the run loads (exit 0), that rank without a step record" \
	'[ "$rc" -eq 0 ] && ! grep -q "another run" nostep.err && grep -q "^0,1," nostep.csv &&
	 ! grep -q "^1," nostep.csv'
tap_check "... the sources say its steps are missing" \
	'grep -q "^warning,nostep/rank1.json,,1,,,,,\"no ProfilerStep span before the file.s cut (truncated): this \
rank has no step record, its steps are missing (not 0 ms)\"$" nostep_src.csv'

# Cut after the names that end the spans: every GPU event was read, both steps measured
# as in the whole file (step 2 too, whose rest after its kernel is GPU idle).
mkdir tail
for r in 0 1; do
	{ head_of $r 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 800 1; printf ,
	  kernel gemm 7 1100 100 2; names; names; printf '],"traceName":"rank%d"}\n' $r; } >tail/rank$r.json
done
head -c $(($(wc -c <tail/rank1.json) - 12)) tail/rank1.json >tail/r1 && mv tail/r1 tail/rank1.json
"$TSCOPE_BIN" --no-index --export steps tail >tail.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources tail >tail_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal tail >tail_t.csv 2>/dev/null
tap_check "cut after the metadata that follows every span: both steps measured as whole" \
	'grep -q "^file,tail/rank1.json,kineto,1,.*partial" tail_src.csv && ! grep -q "not measured" tail_src.csv &&
	 [ "$(grep "^1," tail.csv | cut -d, -f2,4-)" = "$(grep "^0," tail.csv | cut -d, -f2,4-)" ] &&
	 grep -q "^1,2,[0-9.]*,1,0.1,0.9$" tail.csv'
tap_check "... its HTA figures are not partial" 'grep -q "^1,.*,no$" tail_t.csv'

# The GPU idle verdict: rank 1's file lost step 1's long kernel (idle 57% of what was
# read), rank 0 is idle 14%: no TRACE.GPU_IDLE on rank 1; it is named as left out.
mkdir idle
idle_head() { head_of "$1" 2; step 1 0 1000; step 2 1000 1000; step 3 2000 1000; kernel gemm 7 20 10 3; printf ,
	      kernel gemm 7 1100 800 2; printf ,; }
{ idle_head 0; kernel gemm 7 100 800 1; names; printf ']}\n'; } >idle/rank0.json
{ idle_head 1; printf '{"ph":"X","cat":"cuda_runtime"'; } >idle/rank1.json
"$TSCOPE_BIN" --no-index --print --color never idle >idle.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal idle >idle_t.csv 2>/dev/null
tap_check "truncated rank: no TRACE.GPU_IDLE from the events read, the GPU time of the whole ranks" \
	'! grep -q "TRACE.GPU_IDLE" idle.out &&
	 grep -q "^  GPU time  *busy 85.6% .*(1.88 ms summed over 1 rank; HTA leaves out the last ProfilerStep; \
rank 1.s truncated trace left out)$" idle.out'
tap_check "... its temporal row (the events read) is marked partial" \
	'grep -q "^1,1070,810,0,1880,56.91489361702128,43.08510638297872,0,,,[^,]*,yes$" idle_t.csv &&
	 grep -q "^0,.*,no$" idle_t.csv'
"$TSCOPE_BIN" index idle >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never idle >idle_idx.out 2>/dev/null
tap_check "... the same from the index (a truncated trace is parsed again)" \
	'[ -d idle/.tscope-index ] && cmp -s idle.out idle_idx.out'
# Rank 1 alone: no rule fires; GPU idle and exposed communication are listed not judged.
mkdir alone
cp idle/rank1.json alone/
"$TSCOPE_BIN" --no-index --print --color never alone >alone.out 2>/dev/null
tap_check "truncated lowest rank: GPU idle and exposed communication listed not judged, with why" \
	'grep -q "^  GPU time  *n/a: rank 1.s trace is truncated before the end of its GPU events$" alone.out &&
	 grep -qx "  - exposed communication (rank 1.s trace is truncated before the end of its GPU events)" \
		alone.out &&
	 grep -qx "  - GPU idle time of rank 1 (truncated before the end of its GPU events)" alone.out'
# The lowest rank cut after a communication kernel: its COMMUNICATION OVERLAP section
# says the trace is truncated, its figures of the events read, the exposed share n/a (as
# DIST.EXPOSED_COMM, not judged); --compat pytscope prints pytscope's section (of a run
# dir's trace.json: pytscope reads no other).
mkdir ovl ovl_c
{ head_of 0 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 300 1; printf ,
  kernel ncclKernel_AllReduce 9 200 400 2; printf ',{"ph":"X","cat":"cuda_runtime"'; } >ovl/rank0.json
{ head_of 1 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 300 1; printf ,
  kernel ncclKernel_AllReduce 9 200 400 2; names; printf ']}\n'; } >ovl/rank1.json
cp ovl/rank0.json ovl_c/trace.json
"$TSCOPE_BIN" --no-index --print --color never ovl >ovl.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never --compat pytscope ovl_c >ovl_c.out 2>/dev/null
tap_check "truncated lowest rank: COMMUNICATION OVERLAP says so, its exposed share n/a" \
	'grep -A3 "^● COMMUNICATION OVERLAP (rank 0) — from kernel trace$" ovl.out | grep -qx "  rank 0.s trace is \
truncated before the end of its GPU events: figures of the events read, exposed share not judged" &&
	 grep -qx "  comm 0.4 ms · overlapped 50% · exposed 0.2 ms (share n/a)" ovl.out'
"$TSCOPE_BIN" --no-index --export comm_overlap ovl >ovl.csv 2>ovl.err
tap_check "--export comm_overlap of a truncated trace: partial said on stderr" \
	'grep -qx "tscope-tui: note on .comm_overlap.: partial: a truncated trace, figures of the events read, exposed \
share not judged" ovl.err'
tap_check "... its comm_overlap row: pytscope's float figures of the events read, exposed share empty (rank 1's kept)" \
	'grep -q "^0,0.4999999999999999,0.39999999999999997,0.30000000000000004,0.19999999999999993,[^,]*,[^,]*,,1,1," \
		ovl.csv && grep -q "^1,0.4999999999999999,[^,]*,[^,]*,0.19999999999999993,[^,]*,[^,]*,39.99999999999999,1,1," \
		ovl.csv'
tap_check "... --compat pytscope: pytscope's section" \
	'grep -qx "  comm 0.4 ms · overlapped 50% · exposed 0.2 ms (40% of wall)" ovl_c.out && ! grep -q "n/a" ovl_c.out'

# Both ranks cut before their first GPU kernel (their CPU events read, no GPU run among
# the ranks): not CPU-only profiles, so no step is measured (no record, not compute = the
# whole step), no imbalance is weighed, and the stragglers' not-judged reason names the
# truncation; one rank alone the same.
mkdir nogpu nogpu1
for r in 0 1; do
	{ head_of $r 2; step 1 0 $((1000 + 400 * r)); step 2 $((1000 + 400 * r)) 1000
	  printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":80,"dur":5,'
	  printf '"args":{"correlation":1}},{"ph":"X","cat":"ker'; } >nogpu/rank$r.json
done
cp nogpu/rank0.json nogpu1/
"$TSCOPE_BIN" --no-index --export steps nogpu >nogpu.csv 2>nogpu.err
"$TSCOPE_BIN" --no-index --export sources nogpu >nogpu_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never nogpu >nogpu.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps nogpu1 >nogpu1.csv 2>/dev/null
tap_check "cut before any GPU kernel, on every rank: no step record, not compute = the whole step" \
	'[ ! -s nogpu.csv ] && [ ! -s nogpu1.csv ] && grep -q "no ProfilerStep of the traces is measured: they are \
truncated before the end of their GPU events" nogpu.err &&
	 [ "$(grep -c "2 of 2 ProfilerSteps not measured (left out on this rank)" nogpu_src.csv)" = 2 ]'
tap_check "... no imbalance weighed, the stragglers not judged for the truncation" \
	'! grep -q "lost to imbalance\|LOAD_IMBALANCE\|100.0%" nogpu.out &&
	 grep -qx "  - potential stragglers (the traces with ProfilerSteps are truncated before the end of their GPU \
events)" nogpu.out'

# Rank 1 cut after step 1's all-reduce, before its last kernel: its rows in kernels, idle
# and kernel_breakdown are marked partial (the note on stderr, as temporal's), left out of
# the all-ranks rows and the headline's top kernels as of the GPU time line, and of
# step_kernels (its step is not measured); whole traces get no partial column.
mkdir pv
pv_head() { head_of "$1" 2; step 1 0 1000; kernel gemm_a 7 100 200 1; printf ,
	    kernel ncclKernel_AllReduce 24 300 300 2; printf ,; }
{ pv_head 0; kernel gemm_c 7 700 200 3; names; printf ']}\n'; } >pv/rank0.json
{ pv_head 1; printf '{"ph":"X","cat":"cuda_runtime","na'; } >pv/rank1.json
for v in kernels idle kernel_breakdown step_kernels temporal; do
	"$TSCOPE_BIN" --no-index --export $v pv >pv_$v.csv 2>pv_$v.err
done
"$TSCOPE_BIN" --no-index --print --color never pv >pv.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export kernels tail >tail_k.csv 2>/dev/null
tap_check "truncated rank: kernel_breakdown's all-ranks rows are the whole ranks', its own rows partial" \
	'[ "$(grep "^," pv_kernel_breakdown.csv | cut -d, -f2-4 | tr "\n" " ")" = "COMPUTATION,400,57.14285714285714 \
COMMUNICATION,300,42.857142857142854 " ] && [ "$(grep -c "^1,.*,yes$" pv_kernel_breakdown.csv)" = 2 ] &&
	 grep -qx "tscope-tui: note on .kernel_breakdown.: partial: rank 1.s truncated trace, figures of the kernels \
read, left out of the all-ranks rows (as the GPU time line)" pv_kernel_breakdown.err'
tap_check "... kernels and idle: its rows marked partial, said on stderr (and temporal's)" \
	'[ "$(grep -c "^1,.*,yes$" pv_kernels.csv)" = 2 ] && [ "$(grep -c "^0,.*,no$" pv_kernels.csv)" = 3 ] &&
	 grep -q "note on .kernels.: partial: rank 1.s truncated trace, figures of the kernels read" pv_kernels.err &&
	 [ "$(grep -c "^1,.*,yes$" pv_idle.csv)" = 6 ] && grep -q "note on .idle.: partial: rank 1.s" pv_idle.err &&
	 ! grep -q "partial" tail_k.csv &&
	 grep -qx "tscope-tui: note on .temporal.: partial: rank 1.s truncated trace, figures of the events read, not \
judged (the partial column marks its rows)" pv_temporal.err'
tap_check "... step_kernels leaves out its unmeasured step, and says so" \
	'grep -q "^1,0,gemm_c," pv_step_kernels.csv && ! grep -q "^1,1," pv_step_kernels.csv &&
	 grep -q "note on .step_kernels.: rank 1.s truncated trace left out: a truncated trace.s steps are not \
measured" pv_step_kernels.err'
tap_check "... the headline's top kernels are the GPU time line's ranks'" \
	'grep -q "^  top kernels  *ncclKernel_AllReduce 42.9%, gemm_[ac] 28.6%, gemm_[ac] 28.6%$" pv.out'

real="$TSCOPE_ROOT/../shared/real"
if [ ! -d "$real/kineto-dlrm-8rank" ] || [ ! -d "$real/kineto-hta-2rank" ]; then
	tap_skip "../shared/real not present"
	tap_plan
	exit 0
fi
# HTA's 2 ranks, rank 1 cut at 90000 bytes: 117 of step 551's kernels are past the cut.
mkdir hta
cp "$real/kineto-hta-2rank/sampled_rank-0.json.gz" hta/
head -c 90000 "$real/kineto-hta-2rank/sampled_rank-1.json.gz" >hta/sampled_rank-1.json.gz
"$TSCOPE_BIN" --no-index --export steps hta >hta.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never hta >hta.out 2>/dev/null
tap_check "HTA 2 ranks, rank 1 cut: its step 551 not measured, no imbalance or GPU idle from it" \
	'! grep -q "^1," hta.csv && grep -q "^0,551," hta.csv && ! grep -q "on rank 1  (TRACE.GPU_IDLE)" hta.out &&
	 ! grep -q "lost to imbalance" hta.out'
# dlrm's 8 ranks, worker5 cut at 500000 bytes (no communication kernel read yet).
mkdir dlrm
cp "$real"/kineto-dlrm-8rank/* dlrm/
w5=worker5_step_12.1694128201549.pt.trace.json
head -c 500000 "$real/kineto-dlrm-8rank/$w5" >dlrm/$w5
"$TSCOPE_BIN" --no-index --print --color never dlrm >dlrm.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources dlrm >dlrm_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal dlrm 2>/dev/null | cut -d, -f1,10,12 | tr '\n' ' ' >dlrm_t.txt
tap_check "dlrm, worker5 cut: TRACE.GPU_IDLE judges the 7 whole ranks (rank 7, 75.8%), not rank 5" \
	'grep -q "The GPU is idle 76% of the HTA span on rank 7  (TRACE.GPU_IDLE)" dlrm.out &&
	 grep -q "7 of 7 traced ranks (rank 5.s truncated trace not judged)" dlrm.out'
tap_check "... the truncation is named, not the kernel classification" \
	'! grep -q "^warning,dlrm/$w5,.*--kernel-classes" dlrm_src.csv &&
	 grep -q "^warning,dlrm/$w5,,5,,,,,\"18 GPU kernels read before the file ends, no communication kernel among \
them (those past the cut are unknown)" dlrm_src.csv'
tap_check "... potential stragglers of the whole ranks (HTA: 2, 7), rank 5 partial and not judged" \
	'[ "$(cat dlrm_t.txt)" = "rank,potential_straggler,partial 0,no,no 1,no,no 2,yes,no 3,no,no 4,no,no 5,,yes \
6,no,no 7,yes,no " ]'
tap_plan
