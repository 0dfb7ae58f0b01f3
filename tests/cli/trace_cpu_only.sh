#!/bin/sh
# trace_cpu_only.sh: a Kineto trace without any GPU kernel (a CPU-only profile) has
# ProfilerStep spans but no measured communication: the run has no comm phase (no
# comm_ms column, not 0), compute is the whole step, the report has no comm line and
# says GPU time n/a, the budget's communication line is n/a and no efficiency is judged,
# the findings name the trace rules that could not judge it;
# from the trace index the same; a GPU trace keeps its comm values. Under --compat
# pytscope a run dir holding such a trace alone is pytscope's "No steps or trace found"
# (exit 1: pytscope reads no steps from a trace, and its trace analysis needs a kernel);
# with a GPU trace.json, "No steps recorded." and no TIMING or budget from its steps (also
# for "gpudir/"); traces in rank dirs alone are none pytscope reads (exit 1).
# --export and the explorer read such runs as --print does: where pytscope reads nothing
# (the CPU-only trace.json, the rank dirs, the real kineto-hta-2rank set, skipped when
# ../shared/real is absent), --export VIEW, --export all and the explorer end with "No
# steps or trace found" (exit 1, nothing written or opened); with the GPU trace.json (or
# a trace.json.gz), the views made from its ProfilerStep steps (steps, budget, heatmap,
# heatmap_cells, ranks, nodes) are refused with why (exit 1), --export all leaves them
# out saying so, and the trace's own views (comm_overlap) are still written; the
# explorer's Overview makes no headline line from those steps (its steps line says why).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"

mkdir -p cpu gpu
ev=""
for s in 0 1 2 3 4; do
	t=$((1000 + s * 10000))
	ev="$ev{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#$s\",\"pid\":1,\"tid\":1,\"ts\":$t,\"dur\":10000},"
	ev="$ev{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":$((t + 100)),\"dur\":6000},"
done
printf '{"distributedInfo":{"rank":0,"world_size":1},"traceEvents":[%s{"ph":"i","name":"end","ts":0,"pid":1,"tid":1}]}\n' \
	"$ev" >cpu/rank0.pt.trace.json

"$T" --export steps --no-index cpu >steps.csv 2>steps.err
rc=$?
tap_check "CPU-only trace: 5 steps exported (exit 0)" '[ "$rc" -eq 0 ] && [ "$(grep -c "^0," steps.csv)" -eq 5 ]'
tap_check "CPU-only trace: no comm_ms column (unknown), compute is the step" \
	'! head -1 steps.csv | grep -q "comm_ms" && [ "$(grep -c "^0,[0-9]*,[^,]*,10,10$" steps.csv)" -eq 5 ]'
"$T" --export budget --no-index cpu >budget.csv 2>/dev/null
tap_check "CPU-only trace: the budget's communication is empty (n/a), efficiency not judged" \
	'grep -q "^rank,0,5,0.05,,,0.05,,,,,$" budget.csv'
"$T" --print --color never --no-index cpu >print.txt 2>&1
tap_check "CPU-only trace: the report has no comm line, says GPU time n/a and no efficiency" \
	'! grep -q "^  comm " print.txt && grep -q "^  compute " print.txt &&
	 grep -q "GPU time *n/a: no GPU kernel in the traces" print.txt && grep -q "budget *n/a: only compute" print.txt'
tap_check "CPU-only trace: no finding, and the trace rules say why they could not judge it" \
	'grep -q "^. No findings: no rule fired on this run; these rules could not judge it:$" print.txt &&
	 grep -q "^  - exposed communication (no GPU kernel in rank 0.s trace)$" print.txt &&
	 grep -q "^  - GPU idle time (no GPU kernel in the traces)$" print.txt'
"$T" index cpu >/dev/null 2>&1
"$T" --export steps cpu >steps_ix.csv 2>/dev/null
tap_check "CPU-only trace from its index: the same steps (still no comm column)" \
	'[ -s cpu/.tscope-index/traces-0-of-1.tsx ] && cmp -s steps.csv steps_ix.csv'

"$tgen" gpu/rank0.pt.trace.json 1 0 >/dev/null || tap_notok "gen_trace failed"
"$T" --export steps --no-index gpu >gsteps.csv 2>/dev/null
tap_check "a GPU trace keeps its comm values" \
	'[ "$(grep -c "^0," gsteps.csv)" -gt 0 ] && ! grep -q ",$" gsteps.csv'

mkdir -p cpudir && cp cpu/rank0.pt.trace.json cpudir/trace.json
"$T" --print --no-index --compat pytscope --color never cpudir >cc.out 2>cc.err
rc=$?
tap_check "--compat pytscope, a run dir with a CPU-only trace.json: nothing pytscope reads, exit 1" \
	'[ "$rc" -eq 1 ] && [ ! -s cc.out ] && grep -qx "No steps or trace found in .cpudir.." cc.err &&
	 ! grep -q "balanced" cc.out'
mkdir -p gpudir && "$tgen" gpudir/trace.json 1 0 >/dev/null
"$T" --print --no-index --compat pytscope --color never gpudir >gc.out 2>/dev/null
tap_check "--compat pytscope, a run dir with a GPU trace.json: No steps recorded., no TIMING or budget" \
	'[ "$(sed -n 3p gc.out)" = "No steps recorded." ] && ! grep -q "TIMING\|EFFICIENCY" gc.out'
"$T" --print --no-index --compat pytscope --color never gpudir/ >gs.out 2>/dev/null
tap_check "... spelled gpudir/: the same" '[ "$(sed -n 3p gs.out)" = "No steps recorded." ]'
mkdir -p rdirs/rank0 rdirs/rank1 && "$tgen" rdirs/rank0/trace.json 1 0 >/dev/null &&
	"$tgen" rdirs/rank1/trace.json 1 1 >/dev/null
"$T" --print --no-index --compat pytscope --color never rdirs >rd.out 2>rd.err
rc=$?
tap_check "--compat pytscope, traces in rank dirs and no step log: No steps or trace found, exit 1" \
	'[ "$rc" -eq 1 ] && [ ! -s rd.out ] && grep -qx "No steps or trace found in .rdirs.." rd.err'
"$T" --print --no-index --color never rdirs >rdn.out 2>/dev/null
tap_check "... the default report reads them" '[ $? -eq 0 ] && grep -q "^  ranks  *2$" rdn.out'

# --compat pytscope: --export and the explorer as --print. nothing_read DIR LABEL: a run
# pytscope reads nothing of ends each of them with pytscope's message, exit 1.
nothing_read() {
	dir=$1
	for v in findings steps sources; do
		"$T" --export "$v" --no-index --compat pytscope "$dir" >nr.out 2>nr.err
		rc=$?
		tap_check "--compat pytscope, $2: --export $v says No steps or trace found, exit 1" \
			'[ "$rc" -eq 1 ] && [ ! -s nr.out ] && grep -qx "No steps or trace found in .$dir.." nr.err'
	done
	rm -rf nr.all
	"$T" --export all -o nr.all --no-index --compat pytscope "$dir" >nr.out 2>nr.err
	rc=$?
	tap_check "--compat pytscope, $2: --export all says it and writes nothing, exit 1" \
		'[ "$rc" -eq 1 ] && [ ! -e nr.all ] && grep -qx "No steps or trace found in .$dir.." nr.err'
	printf ':dump nr.screen\nq\n' >nr.keys
	TSCOPE_SCRIPT=nr.keys TERM=dumb LINES=24 COLUMNS=100 "$T" --tui --no-index --compat pytscope "$dir" \
		>/dev/null 2>nr.err
	rc=$?
	tap_check "--compat pytscope, $2: the explorer says it without opening, exit 1" \
		'[ "$rc" -eq 1 ] && [ ! -e nr.screen ] && grep -qx "No steps or trace found in .$dir.." nr.err'
}
nothing_read cpudir "a CPU-only trace.json"
nothing_read rdirs "traces in rank dirs"

why="--compat pytscope: pytscope reads no steps from a trace (ProfilerStep steps left out)"
for v in steps budget heatmap heatmap_cells ranks nodes; do
	"$T" --export "$v" --no-index --compat pytscope gpudir >lo.out 2>lo.err
	rc=$?
	tap_check "--compat pytscope, a GPU trace.json: --export $v refused with why, exit 1" \
		'[ "$rc" -eq 1 ] && [ ! -s lo.out ] &&
		 grep -qx "tscope-tui: view .$v. is not available for this run: $why" lo.err'
done
mkdir -p gzdir && gzip -c gpudir/trace.json >gzdir/trace.json.gz
for v in steps budget; do
	"$T" --export "$v" --no-index --compat pytscope gzdir >lo.out 2>lo.err
	rc=$?
	tap_check "... a trace.json.gz: --export $v refused too" \
		'[ "$rc" -eq 1 ] && [ ! -s lo.out ] && grep -q "ProfilerStep steps left out" lo.err'
done
"$T" --export comm_overlap --no-index --compat pytscope gpudir >co.csv 2>/dev/null
rc=$?
tap_check "... its trace's own views are written (comm_overlap, exit 0)" \
	'[ "$rc" -eq 0 ] && [ "$(wc -l <co.csv)" -eq 2 ]'
"$T" --export all -o lo.all --no-index --compat pytscope gpudir >lo.out 2>lo.err
rc=$?
tap_check "... --export all leaves out the views of its steps, saying so; writes the others" \
	'[ "$rc" -eq 0 ] && [ -f lo.all/comm_overlap.csv ] && [ -f lo.all/findings.csv ] &&
	 ! ls lo.all | grep -q "^steps\|^budget\|^heatmap\|^ranks" &&
	 grep -qx "tscope-tui: --export all leaves out heatmap_cells, ranks, steps, heatmap, budget: $why" lo.err'
"$T" --export all -o lo.native --no-index gpudir >/dev/null 2>&1
tap_check "... without --compat, --export all writes them" '[ -f lo.native/steps.csv ] && [ -f lo.native/budget.csv ]'

# The explorer's Overview under --compat pytscope: no headline line built from the
# ProfilerStep steps (steps aligned, budget, top recoverable), the steps line saying why.
printf '1\n:dump ov.screen\nq\n' >ov.keys
TSCOPE_SCRIPT=ov.keys TERM=dumb LINES=40 COLUMNS=160 "$T" --tui --no-index --compat pytscope gpudir >/dev/null 2>&1
tap_check "--compat pytscope, a GPU trace.json: the Overview's steps line says why, no line from its steps" \
	'grep -q "^  steps  *$why$" ov.screen && grep -q "^  GPU time " ov.screen &&
	 ! grep -q "aligned across ranks\|^  budget \|^  top recoverable " ov.screen'
TSCOPE_SCRIPT=ov.keys TERM=dumb LINES=40 COLUMNS=160 "$T" --tui --no-index gpudir >/dev/null 2>&1
tap_check "... without --compat, the lines from its steps" \
	'grep -q "^  steps  *[0-9]* aligned across ranks" ov.screen && grep -q "^  budget " ov.screen'

REAL=$TSCOPE_ROOT/../shared/real
if [ -d "$REAL/kineto-hta-2rank" ]; then
	"$T" --print --no-index --compat pytscope "$REAL/kineto-hta-2rank" >/dev/null 2>kr.err
	rc=$?
	tap_check "--compat pytscope, real kineto-hta-2rank (rank traces, no run-dir trace): --print, exit 1" \
		'[ "$rc" -eq 1 ] && grep -q "^No steps or trace found in " kr.err'
	ln -s "$REAL/kineto-hta-2rank" kineto-hta-2rank
	nothing_read kineto-hta-2rank "real kineto-hta-2rank"
else
	tap_skip "../shared/real is absent: the real kineto-hta-2rank checks"
fi
tap_plan
