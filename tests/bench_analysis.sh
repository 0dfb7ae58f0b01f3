#!/bin/sh
# Analyzer benchmark: wall and CPU time of the run-wide analyses the explorer computes on
# first use (the distributed analysis behind the first `n`, each heatmap metric), on a
# synthetic 1024 ranks x 20,000 steps run built in memory (BENCH_ANALYSIS_RANKS /
# BENCH_ANALYSIS_STEPS override). Each line ends with a digest of the results, so two
# builds can be compared bit for bit. Figures are recorded in BENCHMARKS.md.
set -u
cd "$(dirname "$0")/.."
bin="${TSCOPE_BUILD:-build}/tests/bench_analysis"
[ -x "$bin" ] || make -s "$bin" || exit 1
ranks=${BENCH_ANALYSIS_RANKS:-1024}
steps=${BENCH_ANALYSIS_STEPS:-20000}
echo "$bin $ranks $steps"
"$bin" "$ranks" "$steps" || exit 1
echo "BENCH_HEAT_FIRST=1 $bin $ranks $steps   (slowdown metric before the distributed analysis)"
BENCH_HEAT_FIRST=1 "$bin" "$ranks" "$steps"
