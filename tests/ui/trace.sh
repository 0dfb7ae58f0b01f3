#!/bin/sh
# trace.sh: the explorer on a traces-only run (two generated per-rank Kineto traces),
# headless (TSCOPE_SCRIPT): ProfilerStep#N fill the heatmap, Enter on a cell (rank,
# step) covered by a trace opens that step's kernels, Esc returns to the heatmap.
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
n=0
t() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
FX="$TMP/traces"
mkdir -p "$FX"
"$BUILD/tests/gen_trace" "$FX/rank0.pt.trace.json" 1 0 && "$BUILD/tests/gen_trace" "$FX/rank1.pt.trace.json" 1 1 ||
	{ echo "not ok 1 - gen_trace"; echo "1..1"; exit 0; }
cat >"$TMP/keys" <<EOF
:dump $TMP/heat.txt
<Enter>
:dump $TMP/kernels.txt
<Esc>
:dump $TMP/back.txt
q
EOF
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$FX" >/dev/null 2>"$TMP/err"
t $? "headless session on a traces-only run exits 0"
grep -q 'Heatmap' "$TMP/heat.txt" && grep -qE '^ +1 ' "$TMP/heat.txt"; t $? "the heatmap has the trace ranks"
grep -q 'ncclKernel_AllReduce' "$TMP/kernels.txt" && grep -q 'step' "$TMP/kernels.txt"
t $? "Enter on (rank 0, step 1) lists that step's kernels"
if grep -qE '^ +[0-9]+ +1 ' "$TMP/kernels.txt"; then t 1 "only rank 0 is listed"; else t 0 "only rank 0 is listed"; fi
grep -q 'Heatmap' "$TMP/back.txt" && ! grep -q 'ncclKernel' "$TMP/back.txt"; t $? "Esc returns to the heatmap"
echo "1..$n"
