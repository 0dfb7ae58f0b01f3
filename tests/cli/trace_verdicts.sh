#!/bin/sh
# trace_verdicts.sh: trace-only runs (../shared/real Kineto traces) get a headline of GPU
# busy/idle with its split, of the HTA spans (HTA leaves out the last ProfilerStep: not the
# trace span), the idle spread over ranks and the top kernels; a GPU idle for
# 25% or more of its HTA span is a TRACE.GPU_IDLE finding whose Enter opens the rank's
# row of the temporal view; no efficiency or MFU without a FLOP basis, and the budget's
# compute is the GPU's computation kernels (the step's idle rest is other); stragglers are
# "not judged" on one or two aligned steps. An idle share just under a bar (25%, high
# from 50%) is shown on its side in the headline, the finding (its figure over all ranks
# too) and the temporal CSV (in full): 24.999%, never 25.0%; 49.96%, never 50%. HTA's potential stragglers (the
# temporal view's column): a tie is no straggler (ranks alike in every step are all "no",
# where HTA names the first two; ranks tied below a late one do not count with it), ranks
# whose traces share no instant (another clock: baseTimeNanoseconds) are judged each on
# its own clock, not left empty; ranks that tie for a place HTA names are not judged (the
# ranks above them "yes", below "no"), and which tie is in the not-judged list, under the
# findings when there are some, and in the findings export. One classification of
# kernels: the overlap section, DIST.EXPOSED_COMM and comm_overlap count as communication
# what the classification table does (DeepEP, c10d::, --kernel-classes), as the steps and
# the budget; --compat pytscope keeps pytscope's name list; all in pytscope's float
# seconds, so an exposed share of 0.375 is 38% in the section and the finding alike, with
# or without baseTimeNanoseconds, and from a trace index too; comm_overlap's exposed share
# is the number they round (0.0003 s of 0.0008 s: 37.49999999999999, their 37%, not 37.5).
# The rest skips when
# ../shared/real is absent.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# Hand-written traces of two ranks: a kernel of BUSY us from 0 and one of 5000 us from
# 5000 us, so the GPU is idle (5000 - BUSY) us of a 10 ms HTA span.
hw_kernel() { printf '{"ph":"X","cat":"kernel","name":"volta_sgemm_128x64_nt","pid":0,"tid":7,"ts":%s,"dur":%s,' "$@"
	printf '"args":{"stream":7,"device":0}}'; }
hw_trace() { printf '{"distributedInfo":{"rank":%d,"world_size":2},"traceEvents":[' "$1"; hw_kernel 0 "$2"; printf ,
	hw_kernel 5000 5000; printf ']}\n'; }
mkdir i25 i50
hw_trace 0 2500.1 >i25/rank0.json && hw_trace 1 2500.3 >i25/rank1.json   # idle 24.999%, 24.997%
hw_trace 0 4 >i50/rank0.json && hw_trace 1 2500.1 >i50/rank1.json        # idle 49.96%, 24.999%
"$TSCOPE_BIN" --no-index --print --color never i25 >i25.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export temporal i25 >i25.csv 2>/dev/null
tap_check "idle 24.999% (below 25%): the headline says so, not 25.0%; no TRACE.GPU_IDLE" \
	'grep -q "idle 24.998% of the HTA spans" i25.out &&
	 grep -q "^  GPU idle by rank  *24.997% (rank 1) to 24.999% (rank 0)" i25.out && ! grep -q "GPU_IDLE" i25.out'
tap_check "... the temporal CSV has it in full, not HTA's 25: idle_pct>=25 keeps no row, as the rule" \
	'grep -q "^0,2499.9,7500.1,0,10000,24.999,75.001,0," i25.csv &&
	 ! "$TSCOPE_BIN" --no-index --export temporal --filter "idle_pct>=25" i25 2>/dev/null | grep -q "^[01],"'
"$TSCOPE_BIN" --no-index --print --color never i50 >i50.out 2>/dev/null
tap_check "idle 49.96% (medium, high from 50%): the finding says 49.96%, never 50%" \
	'grep -q "^  \[MED \] The GPU is idle 49.96% of the HTA span on rank 0  (TRACE.GPU_IDLE)" i50.out &&
	 grep -q "for 49.96% of its HTA span .*(least idle: rank 1 at 24.999%)" i50.out &&
	 grep -q "^  GPU idle by rank  *24.999% (rank 1) to 49.96% (rank 0)" i50.out'
mkdir i4999
hw_trace 0 1 >i4999/rank0.json && hw_trace 1 1 >i4999/rank1.json   # idle 49.99% on both
"$TSCOPE_BIN" --no-index --print --color never i4999 >i4999.out 2>/dev/null
tap_check "... and over all ranks at 49.99%: 49.99%, never 50.0% beside the ranks' 49.99%" \
	'grep -q "^  \[MED \] The GPU is idle 49.99% of the HTA span on rank 0  (TRACE.GPU_IDLE)" i4999.out &&
	 grep -q "Over all ranks: compute 50.0%, .*, idle 49.99%\.$" i4999.out && ! grep -q "idle 50" i4999.out'

# Potential stragglers on generated ranks (trace_events.sh strag_rank: the ncclKernel of
# the steps listed starts 1 ms late; 3 steps, the last left out by HTA's rule).
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
strag() {   # strag DIR: "rank,potential_straggler" of its temporal view, one line
	"$TSCOPE_BIN" --no-index --export temporal "$1" 2>/dev/null | cut -d, -f1,10 | tr '\n' ' '
}
mkdir tie spill clock cut
for r in 0 2 3 5 7; do strag_rank $r 8 "" 3 4000 >tie/rank$r.json; done
tap_eq "5 identical ranks: no potential straggler (a tie), not the first two" \
	"rank,potential_straggler 0,no 2,no 3,no 5,no 7,no " "$(strag tie)"
for r in 0 1 2; do strag_rank $r 4 "" 3 4000 >spill/rank$r.json; done
strag_rank 3 4 "1 2" 3 4000 >spill/rank3.json
tap_eq "rank 3 late in every step: it alone, not the 3 ranks tied below it" \
	"rank,potential_straggler 0,no 1,no 2,no 3,yes " "$(strag spill)"
strag_rank 0 3 "" 3 4000 3000000000 >clock/rank0.json
strag_rank 1 3 "" 3 4000 >clock/rank1.json && strag_rank 2 3 "1 2" 3 4000 >clock/rank2.json
tap_eq "rank 0's clock 3 s apart (baseTimeNanoseconds): judged on each rank's clock, rank 2 late" \
	"rank,potential_straggler 0,no 1,no 2,yes " "$(strag clock)"
for r in 0 1 2 3; do strag_rank $r 4 "$r" 4 9800 >cut/rank$r.json; done   # rank 0 late in no step
"$TSCOPE_BIN" --no-index --print --color never cut >cut.out 2>/dev/null
tap_check "ranks 1, 2, 3 late once each (a tie for 2 places): not judged, rank 0 no, why in the not-judged list" \
	'[ "$(strag cut)" = "rank,potential_straggler 0,no 1, 2, 3, " ] &&
	 grep -q "^  - potential stragglers (ranks 1, 2 and 3 tie for the 2 places HTA names, late in 1 step each)$" cut.out'
mkdir second   # rank 3 latest in every step; ranks 1 and 2 second in 2 steps each
strag_rank 0 4 "" 5 4000 >second/rank0.json && strag_rank 1 4 "1 2" 5 4000 >second/rank1.json
strag_rank 2 4 "3 4" 5 4000 >second/rank2.json && strag_rank 3 4 "1 2 3 4 5" 5 4000 "" 2000 >second/rank3.json
"$TSCOPE_BIN" --no-index --print --color never second >second.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export findings second >second.csv 2>/dev/null
tap_check "ranks 1 and 2 tie for HTA's second place: rank 3 yes, they not judged, rank 0 no" \
	'[ "$(strag second)" = "rank,potential_straggler 0,no 1, 2, 3,yes " ]'
second_why="potential stragglers (ranks 1 and 2 tie for HTA's second place, late in 2 steps each)"
tap_check "... which tie: listed under the findings and a not-judged row of the findings export" \
	'grep -q "^● FINDINGS (" second.out && grep -qxF "  - $second_why" second.out &&
	 grep -qF "not judged,,\"$second_why\"" second.csv'

# One classification: which kernels are communication is the classification table's
# (--kernel-classes extends it) in the overlap section, DIST.EXPOSED_COMM and
# comm_overlap as in the steps, the budget and the GPU time line; --compat pytscope keeps
# pytscope's name list. A step of 1 ms: gemm_a 100-300 us, COMM 300-600 us (a kernel of
# that name), gemm_c 700-900 us: 0.3 of a 0.8 ms trace span exposed (0.375, pytscope's
# 38%). kt_trace RANK COMM [BASE_NS [SHIFT]] writes the trace of a rank, its kernels SHIFT us
# later.
kt_kernel() {
	printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,' $(($3 - 20))
	printf '"dur":5,"args":{"correlation":%d}},{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":%d,' "$5" "$1" "$2"
	printf '"ts":%d,"dur":%d,"args":{"stream":%d,"device":0,"correlation":%d}},' "$3" "$4" "$2" "$5"; }
kt_trace() {
	printf '{"distributedInfo":{"rank":%d,"world_size":2,"backend":"nccl"},%s"traceEvents":[' "$1" \
		"${3:+\"baseTimeNanoseconds\":$3,}"
	printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},'
	kt_kernel gemm_a 7 $((100 + ${4:-0})) 200 1 && kt_kernel "$2" 24 $((300 + ${4:-0})) 300 5 &&
		kt_kernel gemm_c 7 $((700 + ${4:-0})) 200 6
	printf '{"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"GPU 0"}}]}\n'; }
nccl=ncclKernel_AllReduce_RING_LL_Sum_float
dispatch='void dpsk::ep::internode::dispatch<8>(int*)'
c10d='void c10d::intra_node_comm::oneShotAllReduceKernel<float, 2>(...)'
mkdir r37 r37b kt_dp kt_c10 kt_bc kt_user
kt_trace 0 $nccl >r37/trace.json && kt_trace 0 $nccl 1775078550000000000 >r37b/trace.json
for r in 0 1; do kt_trace $r "$dispatch" >kt_dp/rank$r.json && kt_trace $r "$c10d" >kt_c10/rank$r.json &&
	kt_trace $r my_xfer_kernel >kt_user/rank$r.json; done
kt_trace 0 my_broadcast_kernel >kt_bc/trace.json
for m in "" "--compat pytscope"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --no-index --print --color never $m r37 >r37.out 2>/dev/null
	tap_check "exposed 0.375 of the span${m:+ ($m)}: 38% in the section and in DIST.EXPOSED_COMM alike" \
		'grep -q "^  comm 0.3 ms · overlapped 0% · exposed 0.3 ms (38% of \(trace span\|wall\))$" r37.out &&
		 grep -q "^        38% of wall time is \*exposed\* communication" r37.out'
done
"$TSCOPE_BIN" --no-index --export comm_overlap r37 >r37.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export comm_overlap r37b >r37b.csv 2>/dev/null
tap_check "pytscope's float seconds (0.3 ms of a 0.7999999999999999 ms span), of ts without baseTimeNanoseconds" \
	'grep -q "^0,0.7999999999999999,0.3,0.39999999999999997,0.3,0,0,37.5,1,2,,0.3,,,,$" r37.csv &&
	 cmp -s r37.csv r37b.csv'
# kernels 1 us later: 0.0003 s of 0.0008 s, e / w * 100 is 37.49999999999999 (37%), 100 * e / w is 37.5
mkdir r37s && kt_trace 0 $nccl "" 1 >r37s/trace.json
for m in "" "--compat pytscope"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --no-index --print --color never $m r37s >r37s.out 2>/dev/null
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --no-index --export comm_overlap $m r37s >r37s.csv 2>/dev/null
	tap_check "comm_overlap's exposed share${m:+ ($m)} is the number the section and DIST.EXPOSED_COMM round (37%)" \
		'grep -q "^  comm 0.3 ms · overlapped 0% · exposed 0.3 ms (37% of \(trace span\|wall\))$" r37s.out &&
		 grep -q "^        37% of wall time is \*exposed\* communication" r37s.out &&
		 [ "$(sed -n 2p r37s.csv | cut -d, -f2,5,8)" = "0.8,0.3,37.49999999999999" ]'
done
"$TSCOPE_BIN" --no-index --print --color never kt_dp >kt_dp.out 2>/dev/null
"$TSCOPE_BIN" --no-index --export comm_overlap kt_dp >kt_dp.csv 2>/dev/null
tap_check "DeepEP dispatch (the table's communication): the overlap section, DIST.EXPOSED_COMM, comm_overlap" \
	'grep -q "^  comm 0.3 ms · overlapped 0% · exposed 0.3 ms (38% of trace span)$" kt_dp.out &&
	 grep -q "^  by collective: other 0.3ms$" kt_dp.out && grep -q "(DIST.EXPOSED_COMM)$" kt_dp.out &&
	 grep -q "(DIST.COMM_BOUND)$" kt_dp.out && grep -q "^0,0.7999999999999999,0.3,0.39999999999999997," kt_dp.csv'
"$TSCOPE_BIN" --no-index --print --color never kt_c10 >kt_c10.out 2>/dev/null
tap_check "c10d's all-reduce: communication in the GPU time line, TIMING and the budget as in the overlap section" \
	'grep -q "^  GPU time  *busy 87.5% (compute 50.0%, comm/memory 37.5%)" kt_c10.out &&
	 grep -q "^  comm  *█* *░* *30.0%  *0.30 ms$" kt_c10.out &&
	 grep -q "^  communication  *█* *░* *30.0%  *300 us (recoverable)$" kt_c10.out &&
	 grep -q "^  by collective: all_reduce 0.3ms$" kt_c10.out && ! grep -q "comm n/a" kt_c10.out'
printf 'communication ^my_xfer\n' >xfer.rules && printf 'computation ^ncclKernel\n' >nccl.rules
"$TSCOPE_BIN" --no-index --print --color never --kernel-classes xfer.rules kt_user >kt_user.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never --kernel-classes nccl.rules r37 >r37k.out 2>/dev/null
mkdir r37n && sed 's/{[^}]*ProfilerStep#1[^}]*},//' r37/trace.json >r37n/trace.json   # no step: no other finding
"$TSCOPE_BIN" --no-index --print --color never --kernel-classes nccl.rules r37n >r37n.out 2>/dev/null
tap_check "--kernel-classes moves a kernel in or out of the overlap section and DIST.EXPOSED_COMM too" \
	'grep -q "^  comm 0.3 ms · overlapped 0% · exposed 0.3 ms (38% of trace span)$" kt_user.out &&
	 ! grep -q "COMMUNICATION OVERLAP\|EXPOSED_COMM" r37k.out &&
	 grep -q "^  - exposed communication (no kernel in rank 0.s trace matched the classification table as" r37n.out'
"$TSCOPE_BIN" --no-index --print --color never kt_bc >kt_bc.out 2>/dev/null
"$TSCOPE_BIN" --no-index --print --color never --compat pytscope kt_bc >kt_bc_compat.out 2>/dev/null
tap_check "a name only pytscope's list calls communication (broadcast): in its section under --compat pytscope alone" \
	'! grep -q "COMMUNICATION OVERLAP" kt_bc.out &&
	 grep -q "^  by collective: broadcast 0.3ms$" kt_bc_compat.out'
"$TSCOPE_BIN" index kt_dp >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never kt_dp >kt_dp_ix.out 2>/dev/null
tap_check "from a trace index (which keeps pytscope's list's summary): the same report" \
	'[ -s kt_dp/.tscope-index/traces-0-of-1.tsx ] && cmp -s kt_dp.out kt_dp_ix.out'

real="$TSCOPE_ROOT/../shared/real"
if [ ! -d "$real/kineto-dlrm-8rank" ]; then
	tap_skip "../shared/real not present"
	tap_plan
	exit 0
fi

"$TSCOPE_BIN" --print --color never "$real/kineto-dlrm-8rank" >d.out 2>d.err
tap_check "dlrm: GPU busy/idle headline (idle 52.3% of the HTA spans)" \
	'grep -q "^  GPU time  *busy 47.7% (compute 7.6%, comm/memory 40.1%), idle 52.3% of the HTA spans" d.out &&
	 grep -q "idle 52.3% of the HTA spans (117 ms summed over 8 ranks)$" d.out'
tap_check "dlrm: idle spread over ranks (HTA: rank 1 34.28%, rank 7 75.8%)" \
	'grep -q "^  GPU idle by rank  *34.3% (rank 1) to 75.8% (rank 7)" d.out'
tap_check "dlrm: top kernels" 'grep -q "^  top kernels  *ncclKernel_SendRecv" d.out'
tap_check "dlrm: TRACE.GPU_IDLE names the idlest rank" \
	'grep -q "The GPU is idle 76% of the HTA span on rank 7  (TRACE.GPU_IDLE)" d.out'
tap_check "dlrm: no efficiency or MFU figure without FLOPs" \
	'grep -q "^  budget  *compute 7.2% .*MFU n/a: no FLOPs/peak" d.out && ! grep -q "efficiency [0-9]" d.out'
tap_check "dlrm: the budget's compute is the GPU's computing (7.2%, HTA 7.6% of the spans), the idle rest is other" \
	'grep -q "^  top recoverable  *other 7.88 ms (54.5%)$" d.out &&
	 grep -q "^  other  *█* *░* *54.5%  *7.88 ms$" d.out'
tap_check "dlrm: stragglers not judged on 1 aligned step" 'grep -q "^  stragglers  *not judged: 1 aligned step" d.out'
tap_check "dlrm: never 'No issues found'" '! grep -q "No issues found" d.out'

"$TSCOPE_BIN" --print --color never "$real/kineto-hta-2rank" >h.out 2>&1
tap_check "hta 2 ranks: idle 54.1% of the HTA spans, without the last ProfilerStep; TRACE.GPU_IDLE high, same words" \
	'grep -q "idle 54.1% of the HTA spans (1.2 s summed over 2 ranks; HTA leaves out the last ProfilerStep)" \
		h.out &&
	 grep -q "^  \[HIGH\] The GPU is idle 55% of the HTA span on rank 1  (TRACE.GPU_IDLE)" h.out &&
	 grep -q "for 54.7% of its HTA span (HTA temporal breakdown, which leaves out the last ProfilerStep)" h.out &&
	 ! grep -q "idle.* trace span" h.out'
"$TSCOPE_BIN" --print --color never "$real/pytscope-t4/exp2_bad" >b.out 2>&1
tap_check "exp2_bad: idle 10.5%, below the threshold: no TRACE.GPU_IDLE" \
	'grep -q "idle 10.5% of the HTA spans (216 ms summed over 1 rank)" b.out && ! grep -q GPU_IDLE b.out'
"$TSCOPE_BIN" --print --compat pytscope --color never "$real/kineto-hta-2rank" >c.out 2>&1
tap_check "--compat pytscope: no TRACE.GPU_IDLE" '! grep -q GPU_IDLE c.out'

# Enter on the finding opens its own evidence: rank 1's row of the temporal view.
cat >keys <<KEYS
6
f
<C-u>id=TRACE.GPU_IDLE<Enter>
<Enter>
:dump $TSCOPE_TMP/s1
KEYS
LINES=24 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui "$real/kineto-hta-2rank" >/dev/null 2>tui.err
tap_check "Enter on TRACE.GPU_IDLE opens the temporal view on rank 1" 'grep -q "^ temporal  row 1/1 (of 2)  rank=1 " s1'
tap_plan
