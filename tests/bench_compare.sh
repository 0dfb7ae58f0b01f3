#!/bin/sh
# Compare-mode benchmark (`make bench`): CPU seconds (user + system) to open the explorer
# on one synthetic 1024 ranks x 20,000 steps run, and on a pair of them (compare mode),
# headless, first frame then quit (tests/tools/bench_compare.c). Target: the pair costs
# at most 2.2x the single run. BENCH_CMP_RANKS / BENCH_CMP_STEPS override the size.
# Figures are recorded in BENCHMARKS.md; nothing is asserted.
set -u
cd "$(dirname "$0")/.."
bin="${TSCOPE_BUILD:-build}/tests/bench_compare"
[ -x "$bin" ] || make -s "$bin" || exit 1
ranks=${BENCH_CMP_RANKS:-1024}
steps=${BENCH_CMP_STEPS:-20000}
keys=$(mktemp)
trap 'rm -f "$keys"' EXIT
echo q >"$keys"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in one pair one pair; do
	cpu=$(TSCOPE_SCRIPT="$keys" TERM=dumb LINES=50 COLUMNS=200 "$bin" "$mode" "$ranks" "$steps" 2>&1 >/dev/null |
		sed -n 's/^cpu_s //p')
	echo "$mode $ranks x $steps: $cpu CPU s   (TSCOPE_SCRIPT=<q> $bin $mode $ranks $steps)"
	eval "last_$mode=$cpu"
done
awk -v a="$last_pair" -v b="$last_one" 'BEGIN { printf "pair / one = %.2f (target <= 2.2)\n", a / b }'
