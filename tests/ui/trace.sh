#!/bin/sh
# trace.sh: the explorer on a traces-only run (two generated per-rank Kineto traces),
# headless (TSCOPE_SCRIPT): ProfilerStep#N fill the heatmap, Enter on a cell (rank,
# step) covered by a trace opens that step's kernels, Esc returns to the heatmap; on a cell
# of several steps (200 steps: the heatmap zoomed out) Enter opens the kernels of all of
# them, the slow step's too, not only the first step's; the Steps pane draws one step
# time whose phases split otherwise from step 21 flat, not float noise as a cliff, and
# its legend's glossary says a ProfilerStep's comm is its exposed communication (the trace
# views' comm all communication kernel time); the
# hint row's number keys reach the GPU time tab, and 9 opens it; F says there is nothing
# to follow. --ascii draws the GPU time tab's bar in ASCII; the temporal and
# kernel_breakdown CSVs keep their UTF-8 bar whatever the display (the same bytes).
# The GPU time tab's legend (i) shows the view's title, with why HTA's potential
# stragglers were not judged (their column is empty: which ranks tie for which place) or
# the clock they were judged on. The comm_overlap legend's title names whose list of
# communication kernels its summary uses (the classification table; pytscope's name list
# under --compat pytscope). The Steps pane of a rank without a step record says why from
# its trace (truncated before the end of its GPU events, or before its first
# ProfilerStep), not "its steps.jsonl is missing". Under --compat pytscope a run dir whose trace.json pytscope
# reads opens with the Heatmap, Ranks, Steps and Budget tabs saying why they are empty
# (pytscope reads no steps from a trace: the ProfilerStep steps are left out), on the
# Overview, its GPU time tab as without it; the per-rank traces alone are none pytscope
# reads: the explorer says "No steps or trace found" without opening (exit 1).
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
FX="$TMP/traces"
mkdir -p "$FX"
"$BUILD/tests/gen_trace" "$FX/rank0.pt.trace.json" 1 0 && "$BUILD/tests/gen_trace" "$FX/rank1.pt.trace.json" 1 1 ||
	{ tap_notok "gen_trace"; tap_plan; exit 0; }
cat >"$TMP/keys" <<EOF
:dump $TMP/heat.txt
<Enter>
:dump $TMP/kernels.txt
<Esc>
:dump $TMP/back.txt
9
:dump $TMP/gpu.txt
F
:dump $TMP/follow.txt
q
EOF
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$FX" >/dev/null 2>"$TMP/err"
tap_rc $? "headless session on a traces-only run exits 0"
grep -q 'Heatmap' "$TMP/heat.txt" && grep -qE '^ +1 ' "$TMP/heat.txt"; tap_rc $? "the heatmap has the trace ranks"
grep -q 'ncclKernel_AllReduce' "$TMP/kernels.txt" && grep -q 'step' "$TMP/kernels.txt"
tap_rc $? "Enter on (rank 0, step 1) lists that step's kernels"
if grep -qE '^ +[0-9]+ +1 ' "$TMP/kernels.txt"; then tap_notok "only rank 0 is listed"; else tap_ok "only rank 0 is listed"; fi
grep -q 'Heatmap' "$TMP/back.txt" && ! grep -q 'ncclKernel' "$TMP/back.txt"; tap_rc $? "Esc returns to the heatmap"
grep -q ' 9 GPU time' "$TMP/heat.txt" && grep -q 'Esc:back  1-7,9:panes' "$TMP/heat.txt"
tap_rc $? "the hint row names the number keys the tabs have (9 GPU time: 1-7,9)"
grep -q 'idle_us  *compute_us' "$TMP/gpu.txt" && ! grep -q 'not bound' "$TMP/gpu.txt"
tap_rc $? "9 opens the GPU time tab"
grep -q "^nothing to follow: F and R read pytscope step logs" "$TMP/follow.txt" && ! grep -q LIVE "$TMP/follow.txt"
tap_rc $? "F on traces: nothing to follow, said so; no LIVE state"
# --ascii draws the GPU time tab's bar in ASCII; its CSV, and kernel_breakdown's, keep the UTF-8 bar
printf '9\n:dump %s/gpu_ascii.txt\nq\n' "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=160 LC_ALL=C.UTF-8 "$BIN" --tui --ascii --no-index "$FX" \
	>/dev/null 2>&1
for v in temporal kernel_breakdown; do
	"$BIN" --export $v --no-index "$FX" >"$TMP/$v.csv" 2>/dev/null
	"$BIN" --export $v --no-index --ascii "$FX" >"$TMP/${v}_ascii.csv" 2>/dev/null
done
tap_check "--ascii: the GPU time tab's bar in ASCII, the CSV bars UTF-8 and the same bytes as without it" \
	'grep -qE " =\.{19} +no\$" "$TMP/gpu_ascii.txt" &&
	 grep -q ",▒░░░░░░░░░░░░░░░░░░░,no\$" "$TMP/temporal.csv" && grep -q "█" "$TMP/kernel_breakdown.csv" &&
	 cmp -s "$TMP/temporal.csv" "$TMP/temporal_ascii.csv" &&
	 cmp -s "$TMP/kernel_breakdown.csv" "$TMP/kernel_breakdown_ascii.csv"'

# 200 steps: a cell holds several; rank 1's step 3 has a late (2 ms) all-reduce
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
mkdir -p "$TMP/long"
strag_rank 0 2 "" 200 4000 >"$TMP/long/rank0.json" && strag_rank 1 2 "3" 200 4000 >"$TMP/long/rank1.json"
printf 'j\n:dump %s/lh.txt\n<Enter>\n:dump %s/lk.txt\nq\n' "$TMP" "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui --no-index "$TMP/long" >/dev/null 2>&1
cell=$(grep -o 'rank 1  step [0-9]*-[0-9]*' "$TMP/lh.txt" | sed 's/.* step //')
tap_check "a cell of several steps (rank 1, steps ${cell:-?}) opens all their kernels, the slow step 3's too" \
	'[ -n "$cell" ] && grep -q "filter .rank=1 step>=${cell%-*} step<=${cell#*-}." "$TMP/lk.txt" &&
	 grep -qE "^ +3 +1 ncclKernel_AllReduce +COMMUNICATION +1 +2 ms" "$TMP/lk.txt"'

# 40 steps of 14455 us whose exposed all-reduce grows from 960 to 1360 us at step 21
mkdir -p "$TMP/flat"
{ head_of 0 1; s=1; while [ $s -le 40 ]; do t=$(((s - 1) * 14455)) c=960; [ $s -gt 20 ] && c=1360
	step $s $t 14455; kernel gemm 7 $((t + 20)) 324 $((2 * s)); printf ,
	kernel ncclKernel_AllReduce 24 $((t + 400)) $c $((2 * s + 1)); [ $s -lt 40 ] && printf ,; s=$((s + 1)); done
  printf ']}\n'; } >"$TMP/flat/rank0.json"
printf '4\n:dump %s/flat.txt\nq\n' "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=30 COLUMNS=100 "$BIN" --tui --no-index "$TMP/flat" >/dev/null 2>&1
spark="^step_time   ▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁"
spark="${spark}▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁ *$"
tap_check "Steps pane: one step time, phases split otherwise: a flat step_time sparkline, no cliff" \
	'grep -q "$spark" "$TMP/flat.txt"'
printf '4\ni\n:dump %s/flat.legend\nq\n' "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=40 COLUMNS=100 "$BIN" --tui --no-index "$TMP/flat" >/dev/null 2>&1
tap_check "Steps pane legend: a ProfilerStep's comm is its exposed communication, the trace views' all of it" \
	'tr -s " \n" " " <"$TMP/flat.legend" | grep -q "comm The phase comm of a step record; for a trace.s \
ProfilerStep, its exposed communication: .* In the trace views: GPU time in communication kernels, overlapped or not"'

# ranks 1-3 late once each tie for HTA's 2 places; ranks 1 and 2 tie for its second, below
# rank 3; rank 0's clock is 3 s ahead in the other
mkdir -p "$TMP/tie" "$TMP/tie2" "$TMP/clock"
for r in 0 1 2 3; do strag_rank $r 4 "$r" 4 9800 >"$TMP/tie/rank$r.json"; done
strag_rank 0 4 "" 5 4000 >"$TMP/tie2/rank0.json" && strag_rank 1 4 "1 2" 5 4000 >"$TMP/tie2/rank1.json"
strag_rank 2 4 "3 4" 5 4000 >"$TMP/tie2/rank2.json" && strag_rank 3 4 "1 2 3 4 5" 5 4000 "" 2000 >"$TMP/tie2/rank3.json"
strag_rank 0 2 "" 3 4000 3000000000 >"$TMP/clock/rank0.json" && strag_rank 1 2 "" 3 4000 >"$TMP/clock/rank1.json"
for d in tie tie2 clock; do
	printf '9\ni\n:dump %s/%s.legend\nq\n' "$TMP" "$d" >"$TMP/keys"
	TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=40 COLUMNS=100 "$BIN" --tui --no-index "$TMP/$d" >/dev/null 2>&1
done
tr -s ' \n' ' ' <"$TMP/tie.legend" |
	grep -q "potential stragglers not judged: ranks 1, 2 and 3 tie for the 2 places HTA names, late in 1 step each"
tap_rc $? "GPU time legend: why the potential stragglers were not judged (the view's title)"
tr -s ' \n' ' ' <"$TMP/tie2.legend" |
	grep -q "potential stragglers not judged: ranks 1 and 2 tie for HTA's second place, late in 2 steps each"
tap_rc $? "GPU time legend: which ranks tie for HTA's second place (the view's title)"
tr -s ' \n' ' ' <"$TMP/clock.legend" | grep -q "potential stragglers on each rank's own clock"
tap_rc $? "GPU time legend: potential stragglers judged on each rank's own clock, said so"

mkdir -p "$TMP/rundir" && cp "$FX/rank0.pt.trace.json" "$TMP/rundir/trace.json"
for m in "" "--compat pytscope"; do
	printf ':view comm_overlap\ni\n:dump %s/co%s.legend\nq\n' "$TMP" "${m:+_compat}" >"$TMP/keys"
	# shellcheck disable=SC2086
	TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=40 COLUMNS=100 "$BIN" --tui --no-index $m "$TMP/rundir" >/dev/null 2>&1
done
tap_check "comm_overlap legend: the title names the classification table, pytscope's name list under --compat" \
	'tr -s " \n" " " <"$TMP/co.legend" | grep -q "(pytscope.s trace summary; communication kernels by the \
classification table)" && tr -s " \n" " " <"$TMP/co_compat.legend" | grep -q "(pytscope.s trace summary; \
communication kernels by pytscope.s name list)"'
# rank 1 cut in its GPU events (step 2's kernel written first), or before its ProfilerSteps
cut_head() { head_of "$1" 2; step 1 0 1000; step 2 1000 1000; kernel gemm 7 1100 100 2; printf ,; }
mkdir -p "$TMP/cut" "$TMP/cutstep"
{ cut_head 0; kernel gemm 7 100 800 1; printf ']}\n'; } >"$TMP/cut/rank0.json"
cp "$TMP/cut/rank0.json" "$TMP/cutstep/rank0.json"
{ cut_head 1; printf '{"ph":"X","cat":"cuda_runtime","na'; } >"$TMP/cut/rank1.json"
{ head_of 1 2; kernel gemm 7 100 800 1; printf ',{"ph":"X","cat":"user_annotation","na'; } >"$TMP/cutstep/rank1.json"
for d in cut cutstep; do
	printf '4\nj\n:dump %s/%s.steps\nq\n' "$TMP" "$d" >"$TMP/keys"
	TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=160 "$BIN" --tui --no-index "$TMP/$d" >/dev/null 2>&1
done
tap_check "Steps pane, a truncated trace's rank: no ProfilerStep measured, said so (not a missing steps.jsonl)" \
	'grep -q "no step records for this rank: no ProfilerStep of its trace is measured: it is truncated before the \
end of its GPU events (see Sources)" "$TMP/cut.steps" && ! grep -q steps.jsonl "$TMP/cut.steps"'
tap_check "Steps pane, a trace cut before its ProfilerSteps: said so" \
	'grep -q "no step records for this rank: its trace is truncated before its first ProfilerStep" \
	 "$TMP/cutstep.steps" && ! grep -q steps.jsonl "$TMP/cutstep.steps"'
printf ':dump %s/c1\n2\n:dump %s/c2\n3\n:dump %s/c3\n4\n:dump %s/c4\n5\n:dump %s/c5\n9\n:dump %s/c9\nq\n' \
	"$TMP" "$TMP" "$TMP" "$TMP" "$TMP" "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui --no-index --compat pytscope "$TMP/rundir" \
	>/dev/null 2>&1
tap_rc $? "--compat pytscope, a run dir's trace.json: the explorer opens (exit 0)"
grep -q "Findings (" "$TMP/c1"; tap_rc $? "... on the Overview (no heatmap of its steps to open on)"
why="--compat pytscope: pytscope reads no steps from a trace (ProfilerStep steps left out)"
n=0
for k in 2 3 4 5; do grep -qF -- "$why" "$TMP/c$k" && n=$((n + 1)); done
tap_eq "... Heatmap, Ranks, Steps and Budget say why they show nothing" 4 "$n"
grep -q 'idle_us  *compute_us' "$TMP/c9"; tap_rc $? "... its GPU time tab shows the trace's rows"
printf ':dump %s/n1\nq\n' "$TMP" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui --no-index --compat pytscope "$FX" \
	>/dev/null 2>"$TMP/n.err"
rc=$?
tap_check "--compat pytscope, per-rank traces alone: No steps or trace found, not opened (exit 1)" \
	'[ "$rc" -eq 1 ] && [ ! -e "$TMP/n1" ] && grep -qx "No steps or trace found in .$FX.." "$TMP/n.err"'
tap_plan
