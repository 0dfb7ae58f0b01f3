#!/bin/sh
# trace_edges.sh: Kineto traces whose events are odd. A span with a negative dur is
# skipped, counted and named with its file and offset; kernels that overlap on one
# stream give no negative idle (gaps are measured from the latest end on the stream);
# HTA's potential stragglers are left empty when its method cannot run (no ProfilerStep);
# without a ProfilerStep every step rule is listed not judged with why (stragglers,
# imbalance and comm share; timing, loss, memory and efficiency), and the ranks of the
# traces' world_size no trace gave (beyond the ranks loaded), never "potential stragglers" alone;
# steps of one length whose phases split it otherwise from step 21 (exposed comm longer)
# draw a flat step-time sparkline, not float noise stretched to a cliff;
# a CPU-only profile among GPU ranks has n/a step phases, not 0 or the whole step (a
# truncated file's steps: trace_truncated.sh); a step
# without a kernel in a complete file is GPU idle; a second trace claiming a rank is
# left out, never moved onto another rank; a file with no traceEvents is named, not passed
# over in silence; per-rank GPU-time percentages are rounded once (the temporal view's
# CSV has them in full, the pane and the headline round the raw value); with
# several traces the native COMMUNICATION OVERLAP section and DIST.EXPOSED_COMM name the
# rank whose trace they read. A trace starting with a UTF-8 byte order mark is sniffed as one
# (given alone as PATH, plain or gzipped, or unnamed in a directory). In a run of several
# ranks whose kernels the classification table matches no communication kernel in (the
# fixtures above have none either: their steps have no comm column), comm is n/a, not 0%,
# and the communication share rule is listed not judged with why (the comm_overlap view's
# comm cells empty, as the report has no section); one rank alone keeps its
# step comm 0, but its GPU time line says comm n/a too (its memory share kept). HTA's GPU
# time is over the HTA span (the last ProfilerStep left out), never called the trace span,
# which the exposed communication is over. rank{k}/ dirs (or a run dir) holding traces and
# no step log get the traces' ProfilerSteps as steps, as worker dirs do, keeping what a
# run.json there says. A late peer's collective lasting about the profiled window is kept
# (only 100 windows past it, or an hour, is absurd: skipped), and a step's compute and
# comm that sum to more than the step keep their shares; a skipped communication kernel
# is said skipped, never "no kernel matched as communication", and communication kernels
# of zero duration (which pytscope's summary does not measure) are said so, never skipped.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"

mkdir neg ov
{ head_of 0 1; step 1 0 1000; kernel gemm 7 30 -50 1; printf ,; kernel ncclKernel_AllReduce 9 100 100 2
  printf ']}\n'; } >neg/rank0.json
"$TSCOPE_BIN" --no-index --export kernels neg >neg.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources neg >neg_src.csv 2>/dev/null
tap_check "negative kernel dur: the kernel is left out" \
	'! grep -q gemm neg.csv && grep -q "^0,ncclKernel_AllReduce,COMMUNICATION,1,100,100,100,100,0,100$" neg.csv'
tap_check "negative kernel dur: counted as skipped, named with file and offset" \
	'grep -q "^file,neg/rank0.json,kineto,0,,,4,1,ok$" neg_src.csv &&
	 grep -q "^warning,neg/rank0.json,,0,,[0-9][0-9]*,,,span event with a negative dur; event skipped$" neg_src.csv'

{ head_of 0 1; kernel k1 7 100 500 1; printf ,; kernel k2 7 200 100 2; printf ,; kernel k3 7 400 50 3
  printf ,; kernel k4 7 700 10 4; printf ']}\n'; } >ov/rank0.json
"$TSCOPE_BIN" --no-index --export idle ov >ov_idle.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal ov >ov_temp.csv 2>/dev/null
tap_check "overlapping kernels on a stream: the gap is from the latest end, never negative" \
	'grep -q "^0,7,host_wait,100,1$" ov_idle.csv && grep -q "^0,7,kernel_wait,0,0$" ov_idle.csv &&
	 grep -q "^0,7,other,0,0$" ov_idle.csv && ! grep -q ",-" ov_idle.csv'
tap_check "overlapping kernels on a stream: the temporal view's idle agrees" 'grep -q "^0,100,510,0,610," ov_temp.csv'

# Ranks with GPU and NCCL kernels but no ProfilerStep: HTA's straggler search cannot
# run, so no rank is "no" (the column is empty), nor "yes".
mkdir nostep
for r in 0 1; do
	{ head_of $r 2; kernel gemm 7 100 300 1; printf ,; kernel ncclKernel_AllReduce 9 500 $((200 + r * 100)) 2
	  printf ']}\n'; } >nostep/rank$r.json
done
"$TSCOPE_BIN" --no-index --export temporal nostep >ns.csv 2>/dev/null
tap_check "no ProfilerStep: potential_straggler not judged (empty), not \"no\"" \
	'[ "$(cut -d, -f1,10 ns.csv | tr "\n" " ")" = "rank,potential_straggler 0, 1, " ]'
mkdir nostep4   # the same, of world_size 4
for r in 0 1; do sed 's/"world_size":2/"world_size":4/' nostep/rank$r.json >nostep4/rank$r.json; done
"$TSCOPE_BIN" --no-index --print --color never nostep4 >ns4.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export findings nostep4 >ns4.csv 2>/dev/null
tap_check "no ProfilerStep: every step rule not judged, with why, and the ranks beyond those loaded" \
	'grep -qx "  - every rule across ranks, beyond the ranks loaded (ranks 2, 3 of world_size 4 missing)" ns4.out &&
	 grep -qx "  - stragglers, imbalance and communication share (no ProfilerStep span in the traces)" ns4.out &&
	 grep -qx "  - timing, loss, memory and efficiency rules (no ProfilerStep span in the traces)" ns4.out &&
	 grep -q "^not judged,DIST.STRAGGLER .*DIST.LOAD_IMBALANCE .*DIST.COMM_BOUND,\"stragglers" ns4.csv &&
	 grep -q "^not judged,TIMING.DATALOADER_BOUND .*EFFICIENCY.RECOVERABLE,\"timing, loss" ns4.csv'

# 40 steps of 14455 us: gemm 324 us, an all-reduce of 960 us, 1360 us from step 21
mkdir flat
{ head_of 0 1; s=1; while [ $s -le 40 ]; do t=$(((s - 1) * 14455)) c=960; [ $s -gt 20 ] && c=1360
	step $s $t 14455; kernel gemm 7 $((t + 20)) 324 $((2 * s)); printf ,
	kernel ncclKernel_AllReduce 24 $((t + 400)) $c $((2 * s + 1)); [ $s -lt 40 ] && printf ,; s=$((s + 1)); done
  printf ']}\n'; } >flat/rank0.json
"$TSCOPE_BIN" --no-index --print --color never flat >flat.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps flat >flat.csv 2>/dev/null
tap_check "one step time, phases split otherwise: the report's step-time sparkline is flat" \
	'[ "$(grep -c ",14.455," flat.csv)" -eq 40 ] && grep -q "^  step time  ▁▁*  (low→high)$" flat.out'

# Ranks measured on different bases: rank 0 with GPU kernels, rank 1 CPU-only (the same
# steps): rank 1's phases are n/a and said why, no imbalance is weighed between them.
mkdir mix
{ head_of 0 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 100 1; printf ,
  kernel gemm 7 1100 100 2; printf ']}\n'; } >mix/rank0.json
{ head_of 1 2; step 1 0 1000; step 2 1000 1000
  printf '{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":500}]}\n'; } >mix/rank1.json
"$TSCOPE_BIN" --no-index --export steps mix >mix.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources mix >mix_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never mix >mix.out 2>/dev/null
tap_check "GPU and CPU-only ranks: the CPU-only rank's phases are n/a, not the whole step" \
	'grep -q "^1,1,0,,,$" mix.csv && grep -q "^1,2,.*,,,$" mix.csv &&
	 grep -q "^warning,mix/rank1.json,,1,.*no GPU kernel in this trace, while other ranks" mix_src.csv'
tap_check "GPU and CPU-only ranks: no imbalance weighed between them" \
	'grep -q "^  imbalance  *n/a: rank 1 records no compute phase" mix.out &&
	 ! grep -q "lost to imbalance among" mix.out'

# A complete trace whose last step has no kernel: a GPU-idle step (compute 0, other = the
# step), counted in the step time, not "not measured" nor a step of 0 ms.
mkdir idle
for r in 0 1; do
	{ head_of $r 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 900 1; printf ']}\n'; } >idle/rank$r.json
done
"$TSCOPE_BIN" --no-index --export steps idle >idle.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources idle >idle_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never idle >idle.out 2>/dev/null
tap_check "complete trace, a step without a kernel: GPU idle (compute 0, other the step), no warning" \
	'grep -q "^1,2,[0-9.]*,1,0,1$" idle.csv && ! grep -q "not measured" idle_src.csv &&
	 grep -q "^  run wall  *2 ms" idle.out'

# Two traces claiming rank 0 (rank0.json and its .gz copy) beside rank1.json: the copy is
# named and left out; rank1.json keeps rank 1, no third rank.
mkdir dup
for r in 0 1; do
	{ head_of $r 2; step 1 0 1000; kernel gemm 7 100 100 1; printf ']}\n'; } >dup/rank$r.json
done
gzip -c dup/rank0.json >dup/rank0.json.gz
"$TSCOPE_BIN" --no-index --export sources dup >dup_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never dup >dup.out 2>/dev/null
tap_check "two traces claim rank 0: the second is left out, named; rank1.json stays rank 1" \
	'grep -q "^file,dup/rank1.json,kineto,1,.*,ok$" dup_src.csv &&
	 grep -q "^refused,dup/rank0.json.gz,kineto,0,.*refused: rank 0, which dup/rank0.json claims too" dup_src.csv &&
	 ! grep -q "from file order" dup_src.csv && grep -q "^  coverage  *all 2 ranks" dup.out'

# A Kineto file with distributedInfo but no traceEvents: --format kineto FILE says so;
# in a traces dir it is listed in the sources as skipped, with the reason.
mkdir noev
printf '{"distributedInfo":{"rank":1,"world_size":2}}\n' >noev/rank1.json
"$TSCOPE_BIN" --no-index --print --format kineto noev/rank1.json >/dev/null 2>noev.err
tap_check "--format kineto on a file without traceEvents: the specific message" \
	'grep -q "noev/rank1.json: no traceEvents array in this file" noev.err'
{ head_of 0 2; kernel gemm 7 100 100 1; printf ']}\n'; } >noev/rank0.json
"$TSCOPE_BIN" --no-index --export sources noev >noev.csv 2>/dev/null
tap_check "... in a traces dir: listed in the sources as skipped, with the reason" \
	'grep -q "^refused,noev/rank1.json,kineto,.*,skipped: no traceEvents array in this file$" noev.csv &&
	 grep -q "^file,noev/rank0.json,kineto,0,.*,ok$" noev.csv'
# Rounded once: rank 0 computes 7.948% of its span (the CSV 7.948, the pane 7.9%, not
# 8.0% from HTA's 7.95), rank 1 is idle 10.4501% (the CSV 10.4501, the pane and the
# headline 10.5%, not 10.4% from HTA's 10.45).
mkdir pct
kev() { printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%s,"dur":%s,' "$@"
	printf '"args":{"stream":7,"device":0}}'; }
{ head_of 0 2; kev gemm 0 794.8; printf ,; kev ncclKernel_AllReduce 1000 9000; printf ']}\n'; } >pct/rank0.json
{ head_of 1 2; kev gemm 0 4000; printf ,; kev ncclKernel_AllReduce 5045.01 4954.99; printf ']}\n'; } >pct/rank1.json
"$TSCOPE_BIN" --no-index --export temporal pct | cut -d, -f1,6,7 >pct.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never pct >pct.out 2>/dev/null
printf '9\n:dump %s/pct.pane\n' "$TSCOPE_TMP" >pct.keys
LINES=24 COLUMNS=160 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/pct.keys" "$TSCOPE_BIN" --no-index --tui pct \
	>/dev/null 2>&1
tap_check "GPU-time percentages: in full in the CSV, not HTA's 2 decimals" \
	'[ "$(tr "\n" " " <pct.csv)" = "rank,idle_pct,compute_pct 0,2.052,7.948 1,10.4501,40 " ]'
tap_check "... the pane rounds the raw value, not HTA's 2 decimals again" \
	'grep -q "^. *0 .*  2.1%  *7.9%  *90.0% " pct.pane && grep -q "^. *1 .*  10.5%  *40.0%  *49.5% " pct.pane'
tap_check "... the headline's idle by rank from the raw value" \
	'grep -q "^  GPU idle by rank  *2.1% (rank 0) to 10.5% (rank 1)" pct.out'
# Two traces: the native report says the overlap section and finding read rank 0's alone;
# --compat pytscope keeps pytscope's text (of the trace --trace names: pytscope reads no
# rank*.json of a directory).
"$TSCOPE_BIN" --no-index --print --compat pytscope --trace pct/rank0.json pct >pct_compat.out 2>/dev/null
tap_check "COMMUNICATION OVERLAP and DIST.EXPOSED_COMM name the lowest rank natively" \
	'grep -q "^● COMMUNICATION OVERLAP (rank 0) — from kernel trace$" pct.out &&
	 grep -q "^        On rank 0.s trace (the lowest rank.s), 90% of wall time is \*exposed\* communication" pct.out'
tap_check "... not under --compat pytscope" \
	'grep -q "^● COMMUNICATION OVERLAP — from kernel trace$" pct_compat.out &&
	 grep -q "^        90% of wall time is \*exposed\* communication" pct_compat.out'

# A UTF-8 BOM before the document: sniffed like the same file without it.
mkdir bomdir
{ head_of 0 1; step 1 0 1000; kernel gemm 7 100 200 1; printf ']}\n'; } >nobom.json
{ printf '\357\273\277'; cat nobom.json; } >bom.json
cp bom.json bomdir/profile.json && gzip -c bom.json >bom.json.gz
"$TSCOPE_BIN" --no-index --export kernels nobom.json >nobom.csv 2>/dev/null
for p in bom.json bom.json.gz bomdir; do
	"$TSCOPE_BIN" --no-index --export kernels "$p" >"bom_$(echo $p | tr / _).csv" 2>/dev/null
done
tap_check "a trace behind a UTF-8 BOM loads alone, gzipped and unnamed in a directory" \
	'grep -q ",gemm," nobom.csv && cmp -s nobom.csv bom_bom.json.csv && cmp -s nobom.csv bom_bom.json.gz.csv &&
	 cmp -s nobom.csv bom_bomdir.csv'
# Two ranks whose kernels match no communication pattern (a DeepEP-style kernel the table
# does not know): comm n/a with why, not "comm 0%"; --kernel-classes naming it measures
# it; a single rank (no communication expected) keeps comm 0.
mkdir nocomm one
for r in 0 1; do
	{ head_of $r 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 50 700 1; printf ,
	  kernel xyz_p2p_exchange_kernel 9 760 200 2; printf ,; kernel gemm 7 1050 700 3; printf ,
	  kernel xyz_p2p_exchange_kernel 9 1760 200 4; printf ']}\n'; } >nocomm/rank$r.json
done
{ head_of 0 1; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 500 1; printf ']}\n'; } >one/rank0.json
"$TSCOPE_BIN" --no-index --print --color never nocomm >nc.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps nocomm >nc.csv 2>/dev/null
printf 'communication ^xyz_p2p\n' >classes
"$TSCOPE_BIN" --no-index --kernel-classes classes --print --color never nocomm >nck.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps one >one.csv 2>/dev/null
unmatched="no kernel in the traces matched the classification table as communication, which --kernel-classes extends"
tap_check "2 ranks, no kernel matched as communication: comm n/a with why, not 0%" \
	'grep -q "; comm n/a ($unmatched)$" nc.out && ! grep -q "comm 0.0%\|comm/memory 0.0%\|comm 0%" nc.out &&
	 grep -q "(compute 98.9%, memory and other 0.0%, comm n/a: no kernel matched as communication)" nc.out &&
	 [ "$(head -1 nc.csv)" = "rank,step,timestamp,step_time_ms,compute_ms,other_ms" ]'
tap_check "... the communication share is listed not judged, with why" \
	'grep -qx "  - communication share ($unmatched)" nc.out'
"$TSCOPE_BIN" --no-index --export comm_overlap nocomm >nc_ov.csv 2>/dev/null
tap_check "... comm_overlap: comm, exposed, overlapped and their shares empty (n/a, as the report), not 0" \
	'[ "$(cut -d, -f1,3,5-9 nc_ov.csv | tail -n +2 | tr "\n" " ")" = "0,,,,,,0 1,,,,,,0 " ]'
tap_check "... --kernel-classes naming the kernel: comm measured" \
	'grep -q "; comm 20.0% of step wall$" nck.out && ! grep -q "comm n/a" nck.out'
tap_check "one rank alone (no communication expected): its comm 0 is kept" \
	'[ "$(head -1 one.csv)" = "rank,step,timestamp,step_time_ms,compute_ms,comm_ms,other_ms" ] &&
	 grep -q "^0,1,0,1,0.5,0,0.5$" one.csv'
# One trace without a communication kernel (world_size 1, or none recorded): the GPU time
# line says comm n/a as with two ranks, never "comm/memory 0.0%"; its memcpy time is kept.
mkdir onemem onenodist
{ head_of 0 1; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 500 1; printf ,
  kernel Memcpy_HtoD 8 900 50 2; printf ']}\n'; } >onemem/rank0.json
sed 's/{"distributedInfo":{"rank":0,"world_size":1},/{/' one/rank0.json >onenodist/rank0.json
"$TSCOPE_BIN" --no-index --print --color never one >one.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never onemem >onemem.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never onenodist >onenodist.out 2>/dev/null
tap_check "one trace, no communication kernel: GPU time says comm n/a, not comm/memory 0.0%" \
	'grep -q "(compute 100.0%, memory and other 0.0%, comm n/a: no kernel matched as communication)" one.out &&
	 grep -q "(compute 100.0%, memory and other 0.0%, comm n/a: no kernel matched as communication)" onenodist.out &&
	 ! grep -q "comm/memory" one.out onenodist.out'
tap_check "... its memory kernel measured: memory and other 5.9%, comm n/a (and in TRACE.GPU_IDLE)" \
	'grep -q "(compute 58.8%, memory and other 5.9%, comm n/a: no kernel matched as communication)" onemem.out &&
	 grep -q "communication n/a (no kernel matched as communication), memory and other 5.9%, idle" onemem.out'

# One rank, three ProfilerSteps: HTA's GPU time leaves the last one out (the HTA span, 1.3
# ms), the exposed communication is over the trace span (2.8 ms): two names, each kept.
mkdir hspan
{ head_of 0 1; step 1 0 1000; step 2 1000 1000; step 3 2000 1000
  kernel gemm 7 100 300 1; printf ,; kernel ncclKernel_AllReduce 9 700 200 2; printf ,
  kernel gemm 7 1100 300 3; printf ,; kernel gemm 7 2100 800 4; printf ']}\n'; } >hspan/rank0.json
"$TSCOPE_BIN" --no-index --print --color never hspan >hs.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export comm_overlap hspan >hs.csv 2>/dev/null
tap_check "GPU time and TRACE.GPU_IDLE: of the HTA span, which leaves out the last ProfilerStep" \
	'grep -q "idle 38.5% of the HTA spans (1.3 ms summed over 1 rank; HTA leaves out the last ProfilerStep)$" \
		hs.out &&
	 grep -q "The GPU is idle 38% of the HTA span on rank 0  (TRACE.GPU_IDLE)" hs.out &&
	 grep -q "for 38.5% of its HTA span (HTA temporal breakdown, which leaves out the last ProfilerStep)" hs.out'
tap_check "... the exposed communication stays of the trace span (2.8 ms), the only trace span said" \
	'grep -q "exposed 0.2 ms (7% of trace span)$" hs.out && grep -q "^0,2.8," hs.csv &&
	 [ "$(grep -c "trace span" hs.out)" = 1 ]'

# rank{k}/ dirs holding traces alone (no steps.jsonl anywhere): the ProfilerSteps are the
# steps, as in worker{k}/ dirs; a run.json there keeps its metadata (the run's name);
# --compat pytscope reads no step from a trace (as for a run dir's trace.json)
mkdir -p rk/rank0 rk/rank1 wk/worker0 wk/worker1 rkc
for r in 0 1; do
	{ head_of $r 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 100 100 1; printf ,
	  kernel ncclKernel_AllReduce 9 1100 100 2; printf ']}\n'; } >rk/rank$r/rank$r.pt.trace.json
	cp rk/rank$r/rank$r.pt.trace.json wk/worker$r/
done
printf '{"name":"named","rank":0,"world_size":2}\n' | tee rk/rank0/run.json >rkc/run.json
cp rk/rank0/rank0.pt.trace.json rkc/trace.json
"$TSCOPE_BIN" --no-index --export steps rk >rk.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps wk >wk.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never rk >rk.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never rkc >rkc.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never --compat pytscope rkc >rkc_p.out 2>/dev/null
tap_check "rank{k}/ dirs of traces alone: the ProfilerSteps are the steps, as in worker{k}/ dirs" \
	'[ "$(wc -l <rk.csv)" -eq 5 ] && cmp -s rk.csv wk.csv && grep -q "^  steps  *2 aligned across ranks" rk.out'
tap_check "... a run.json there keeps its metadata (the run's name), and beside a trace.json too" \
	'grep -q "^tscope-tui — named  (rk)$" rk.out && grep -q "^tscope-tui — named  (rkc)$" rkc.out &&
	 grep -q "^  steps  *2 aligned across ranks" rkc.out'
tap_check "... --compat pytscope reads no step from a trace" \
	'grep -qx "No steps recorded." rkc_p.out && ! grep -q TIMING rkc_p.out'

# A late peer: the 2 ms step's last kernel, an all-reduce launched at 1.9 ms, lasts 2.2 ms
# (past the window by about its length): kept, measured as communication, and the step's
# compute and comm keep their shares of the GPU time launched in it (not comm taking the
# whole step). A GPU event past the window by more than 100 windows is skipped; when it is
# the trace's only communication kernel, nothing calls the trace one without any: the
# sources and the not-judged line say it was skipped. Past a window of a minute, an hour
# past its end is the limit.
mkdir late absurd hour
{ head_of 0 1; step 1 0 2000; kernel gemm_fwd 7 100 800 1; printf ,; kernel gemm_bwd 7 950 900 2; printf ,
  kernel ncclKernel_AllReduce 24 1900 2200 3; printf ']}\n'; } >late/rank0.json
{ head_of 0 1; step 1 0 1000; kernel gemm 7 20 950 1; printf ,; kernel ncclKernel_AllReduce 24 975 100000000000 2
  printf ']}\n'; } >absurd/rank0.json
{ head_of 0 1; step 1 0 60000000; kernel gemm 7 100 1000 1; printf ,; kernel gemm 7 59000000 7200000000 2
  printf ']}\n'; } >hour/rank0.json
"$TSCOPE_BIN" --no-index --export sources late >late_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps late >late.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never late >late.out 2>/dev/null
tap_check "a late peer's collective (1.1 windows) is kept and measured as communication" \
	'grep -q "^file,late/rank0.json,kineto,0,,,7,0,ok$" late_src.csv && ! grep -q "event skipped" late_src.csv &&
	 grep -qx "0,1,0,2,0.871795,1.128205,0" late.csv && ! grep -q "n/a: no kernel matched" late.out'
"$TSCOPE_BIN" --no-index --export sources absurd >absurd_src.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never absurd >absurd.out 2>/dev/null
tap_check "a communication kernel 100 windows past the window: skipped, never called unmatched" \
	'grep -q "^warning,absurd/rank0.json,,0,,[0-9]*,,,\"GPU event \"\"ncclKernel_AllReduce\"\" lasts 100000 s, \
past the end of the rank.s profiled window (1 ms: its ProfilerSteps, CPU events and GPU event starts) by more than 100 \
times the window; event skipped\"$" absurd_src.csv &&
	 grep -q "^warning,absurd/rank0.json,,0,,,,,\"1 GPU kernels kept, no communication kernel among them: those \
read were skipped (each lasts far past the rank.s profiled window); communication overlap is n/a\"$" absurd_src.csv &&
	 ! grep -q "matched" absurd_src.csv absurd.out &&
	 grep -qx "  - exposed communication (rank 0.s communication kernels were skipped: each lasts far past its \
profiled window)" absurd.out'
"$TSCOPE_BIN" --no-index --export sources hour >hour_src.csv 2>/dev/null
tap_check "... past a window of a minute, 2 h (7200 s): more than an hour past its end" \
	'grep -q "lasts 7200 s, past the end of the rank.s profiled window (60 s: .*) by more than an hour; event \
skipped" hour_src.csv'
mkdir zero
{ head_of 0 1; kernel sgemm 7 20 10000 1
  for i in 2 3 4 5 6; do printf ,; kernel ncclKernel_AllReduce_RING_LL_Sum_float 20 $((i * 1000 + 8000)) 0 $i; done
  printf ,; kernel sgemm 7 20000 5000 7; printf ']}\n'; } >zero/rank0.json
"$TSCOPE_BIN" --no-index --print --color never zero >zero.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export findings zero >zero.csv 2>/dev/null
tap_check "communication kernels of zero duration: said so in the not-judged line, never skipped" \
	'grep -qx "  - exposed communication (rank 0.s 5 communication kernels have zero duration)" zero.out &&
	 grep -q "^not judged,DIST.EXPOSED_COMM,exposed communication (rank 0.s 5 communication kernels have zero \
duration)," zero.csv &&
	 ! grep -q "skipped" zero.out zero.csv'
tap_plan
