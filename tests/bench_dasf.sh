#!/bin/sh
# bench_dasf.sh: load and analyse about 10^6 DASF events (gen_dasf bench: 4 hosts x 4
# workers, Compute + Managed Memory + Resource Usage), reporting wall time and peak RSS
# of: reading the bytes (cat), load only (--export sources), load + every DASF analysis
# (--export function_bottleneck, which runs the task graph, the first-match resource
# matching, task_bottleneck, task_balance and the critical path), --print, and two such
# runs compared (--export diff_functions A B, a copy as B). CPU time
# (user + sys) is steadier than wall time on a shared machine. Then the load alone
# against its peer, a bare Python msgpack loop over the same records (unpackb per
# length-prefixed record; python3-msgpack; skipped with a message when missing), CPU
# seconds min / median of 3 (tests/tools/bench_lib.sh). Target (issue 17): >= 5x.
# Usage: sh tests/bench_dasf.sh [EVENTS]   (default 1000000)
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$PWD/$BUILD/tscope-tui}
N=${1:-1000000}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-dasf.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
. tests/tools/bench_lib.sh

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
cp -r "$DIR/db" "$DIR/db2"
measure "two runs: --export diff_functions" "$BIN" --export diff_functions "$DIR/db" "$DIR/db2"

echo
echo "load only against a bare Python msgpack loop (load average $(bench_load_avg)):"
mb=$(du -sm "$DIR/db" | cut -f1)
bench_header "reader (same files, hot cache)"
bench_cpu3 "$DIR" "read the bytes (cat)" "$mb" sh -c "cat '$DIR'/db/*.msgpack"
bench_cpu3 "$DIR" "tscope-tui load only (--export sources)" "$mb" "$BIN" --export sources "$DIR/db"
ours=$BENCH_MED
py=$(bench_python msgpack)
if [ -z "$py" ]; then
	echo "python msgpack loop: python3-msgpack not installed (apt-get install python3-msgpack), skipped"
	exit 0
fi
cat >"$DIR/peer_msgpack.py" <<'PY'
import struct, sys
import msgpack
n = 0
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off + 8 <= len(data):
        (size,) = struct.unpack_from(">Q", data, off)
        msgpack.unpackb(data[off + 8:off + 8 + size], raw=False, strict_map_key=False)
        off += 8 + size
        n += 1
PY
bench_cpu3 "$DIR" "python3 msgpack.unpackb loop" "$mb" "$py" "$DIR/peer_msgpack.py" "$DIR"/db/*.msgpack &&
	printf 'tscope-tui load only: %sx the bare Python loop per CPU second (target >= 5x)\n' "$(bench_ratio "$BENCH_MED" "$ours")"
