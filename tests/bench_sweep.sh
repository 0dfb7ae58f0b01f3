#!/bin/sh
# bench_sweep.sh: GenAI-Perf raw-export recomputation at scale: gen_sweep writes 4
# concurrency levels of streaming profile exports (20000 requests x 32 SSE chunks each by
# default), then we time reading the bytes (cat), the full load + recompute + sweep view
# (--export sweep) and --print. Usage: sh tests/bench_sweep.sh [REQUESTS [CHUNKS]]
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$PWD/$BUILD/tscope-tui}
REQ=${1:-20000}
CH=${2:-32}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-sweep.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

"$BUILD/tests/gen_sweep" "$DIR/a" "$REQ" "$CH" 4 || exit 1
echo "dataset: 4 levels x $REQ requests x $CH chunks, $(du -sm "$DIR/a" | cut -f1) MB"

measure() { # measure LABEL COMMAND...
	label=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %M" -o "$DIR/t" "$@" >/dev/null 2>&1
		read -r secs kb <"$DIR/t"
		printf '%-34s %6s s  %7s MB RSS   $ %s\n' "$label" "$secs" "$((kb / 1024))" "$*"
	else
		start=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		printf '%-34s %6s s   $ %s\n' "$label" "$(echo "$(date +%s.%N) - $start" | bc)" "$*"
	fi
}

cat "$DIR"/a/*/*.json >/dev/null
measure "read the bytes (cat)" sh -c "cat '$DIR'/a/*/*.json"
measure "load + recompute (--export sweep)" "$BIN" --export sweep "$DIR/a"
measure "--print" "$BIN" --print "$DIR/a"
