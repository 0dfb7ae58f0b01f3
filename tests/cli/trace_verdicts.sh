#!/bin/sh
# trace_verdicts.sh: trace-only runs (../shared/real Kineto traces) get a headline of GPU
# busy/idle with its split, of the HTA spans (HTA leaves out the last ProfilerStep: not the
# trace span), the idle spread over ranks and the top kernels; a GPU idle for
# 25% or more of its HTA span is a TRACE.GPU_IDLE finding whose Enter opens the rank's
# row of the temporal view; no efficiency or MFU without a FLOP basis, and the budget's
# compute is the GPU's computation kernels (the step's idle rest is other); stragglers are
# "not judged" on one or two aligned steps. Skips when ../shared/real is absent.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

real="$TSCOPE_ROOT/../shared/real"
if [ ! -d "$real/kineto-dlrm-8rank" ]; then
	tap_skip "../shared/real not present"
	tap_plan
	exit 0
fi
cd "$TSCOPE_TMP" || exit 1

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
