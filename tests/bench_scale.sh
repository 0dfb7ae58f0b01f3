#!/bin/sh
# bench_scale.sh: open cost against the rank count (`make bench`; issue 15 targets).
# Side by side, in the same run, on the same machine:
#   A  10,000 ranks x 2,000 steps   against  B  50,000 ranks x 400 steps  (same records;
#      target: B within 1.3x of A in CPU seconds and peak RSS);
#   C  10,000 rank dirs x 10 steps  against  D  100,000 rank dirs x 10 steps
#      (target: D within 15x of C).
# Each run dir is built from 64 distinct gen_demo ranks of the right length; rank k's
# steps.jsonl and run.json are hard links to distinct rank k % 64, so 100,000 rank dirs
# cost little disk while every rank file is still opened, read and parsed. The page cache
# is warm (each figure is the best of 2). Measured: `tscope-tui --print --no-index RUN` (load,
# finalize, every analysis the report needs), CPU seconds (user + system) and peak RSS
# from /usr/bin/time. Nothing is asserted.
# Environment: BENCH_SCALE_DIV=N divides every rank count by N (a quick look);
# BENCH_SCALE_ARGS adds options (e.g. --format pytscope: no other family's probe);
# BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
div=${BENCH_SCALE_DIV:-1}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-scale.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

. tests/tools/bench_lib.sh

# measure NAME: best CPU seconds of 2 runs of --print, and its peak RSS.
measure() {
	best=""
	for i in 1 2; do
		/usr/bin/time -f '%U %S %M' -o "$dir/t" "$BIN" --print --no-index ${BENCH_SCALE_ARGS:-} "$dir/$1" >/dev/null 2>&1
		set -- "$1" $(cat "$dir/t")
		cpu=$(echo "$2 + $3" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc -l)" = 1 ]; then
			best=$cpu
			rss=$4
		fi
		set -- "$1"
	done
	printf '%-10s %12s %10.2f %10.0f\n' "$1" "$(cat "$dir/$1.shape")" "$best" "$(echo "$rss / 1024" | bc -l)"
	eval "cpu_$1=$best rss_$1=$rss"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for spec in "A $((10000 / div)) 2000" "B $((50000 / div)) 400" "C $((10000 / div)) 10" \
	    "D $((100000 / div)) 10"; do
	set -- $spec
	bench_generated_run "$dir" "$1" "$2" "$3" || exit 1
	echo "$2x$3" >"$dir/$1.shape"
done
echo
printf '%-10s %12s %10s %10s\n' run "ranks x steps" "CPU s" "peak MB"
for r in A B C D; do
	measure $r
done
echo
printf 'B/A: CPU %sx, RSS %sx (target <= 1.3x both)\n' \
	"$(bench_ratio "$cpu_B" "$cpu_A")" "$(bench_ratio "$rss_B" "$rss_A")"
printf 'D/C: CPU %sx, RSS %sx (target <= 15x; 10x is linear)\n' \
	"$(bench_ratio "$cpu_D" "$cpu_C")" "$(bench_ratio "$rss_D" "$rss_C")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: sh tests/bench_scale.sh   (BENCH_SCALE_DIV=N for 1/N of the ranks)"
