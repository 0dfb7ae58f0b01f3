#!/bin/sh
# bench_dasf.sh: load and analyse about 10^6 DASF events (gen_dasf bench: 4 hosts x 4
# workers, Compute + Managed Memory + Resource Usage), reporting wall time and peak RSS
# of: reading the bytes (cat), load only (--export sources), load + every DASF analysis
# (--export function_bottleneck, which runs the task graph, the first-match resource
# matching, task_bottleneck, task_balance and the critical path), and --print. CPU time
# (user + sys) is steadier than wall time on a shared machine.
# Usage: sh tests/bench_dasf.sh [EVENTS]   (default 1000000)
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$PWD/$BUILD/tscope-tui}
N=${1:-1000000}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-dasf.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

"$BUILD/tests/gen_dasf" bench "$N" "$DIR/db" >/dev/null || exit 1
echo "dataset: $N events, $(du -sm "$DIR/db" | cut -f1) MB in $(ls "$DIR/db" | wc -l) files"

measure() { # measure LABEL COMMAND...
	label=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %U %S %M" -o "$DIR/t" "$@" >/dev/null 2>&1
		read -r secs user sys kb <"$DIR/t"
		printf '%-34s %6s s wall %6s s cpu %5s MB RSS   $ %s\n' "$label" "$secs" \
			"$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$((kb / 1024))" "$*"
	else
		start=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		printf '%-34s %6s s   $ %s\n' "$label" "$(echo "$(date +%s.%N) - $start" | bc)" "$*"
	fi
}

cat "$DIR"/db/*.msgpack >/dev/null # warm the page cache
measure "read the bytes (cat)" sh -c "cat '$DIR'/db/*.msgpack"
measure "load only" "$BIN" --export sources "$DIR/db"
measure "load + DASF analyses" "$BIN" --export function_bottleneck "$DIR/db"
measure "load + analyses + task_bottleneck" "$BIN" --export task_bottleneck "$DIR/db"
measure "--print" "$BIN" --print "$DIR/db"
