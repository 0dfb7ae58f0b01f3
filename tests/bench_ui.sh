#!/bin/sh
# UI benchmark: key-to-screen CPU time and bytes written per key at 200x50 in a pty,
# on a synthetic 1024 ranks x 20,000 steps run (BENCH_UI_RANKS / BENCH_UI_STEPS override),
# then the heatmap keys on the noisy real-looking 512 x 5,000 run and its spike-dense
# variant (`noisy`, `spiky`: tests/tools/synth_run.h) and the noisy run at 1024 x 20,000.
# With BENCH_UI_RANKS or BENCH_UI_STEPS set (a quick check), the noisy and spiky cases run
# at that size too, once each. Figures are recorded in BENCHMARKS.md; nothing is asserted.
set -u
cd "$(dirname "$0")/.."
bin="${TSCOPE_BUILD:-build}/tests/bench_ui"
if ! command -v python3 >/dev/null 2>&1; then echo "bench_ui: python3 missing, skipped"; exit 0; fi
[ -x "$bin" ] || make -s "$bin" || exit 1
ranks=${BENCH_UI_RANKS:-1024}
steps=${BENCH_UI_STEPS:-20000}
echo "python3 tests/bench_ui.py $bin $ranks $steps"
python3 tests/bench_ui.py "$bin" "$ranks" "$steps"
cases="512 5000 noisy
512 5000 spiky
1024 20000 noisy"
[ -n "${BENCH_UI_RANKS:-}${BENCH_UI_STEPS:-}" ] && cases="$ranks $steps noisy
$ranks $steps spiky"
printf '%s\n' "$cases" | while read -r r s kind; do
	echo
	echo "python3 tests/bench_ui.py $bin $r $s $kind"
	python3 tests/bench_ui.py "$bin" "$r" "$s" "$kind" </dev/null
done
if command -v htop >/dev/null 2>&1; then
	echo
	echo "python3 tests/bench_ui.py --peer htop -d 100"
	python3 tests/bench_ui.py --peer htop -d 100
else
	echo "peer htop: not installed (apt-get install htop), skipped"
fi
