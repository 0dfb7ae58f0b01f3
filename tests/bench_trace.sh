#!/bin/sh
# bench_trace.sh: Kineto trace load throughput and peak RSS (make bench).
# Synthesizes a Kineto-like trace with build/tests/gen_trace (TRACE_MB, default 1000 MB;
# real-looking pretty-printed events: cpu_op, cudaLaunchKernel, kernels with full args,
# ac2g flows, one ProfilerStep per 40 launches), then loads it with
#   tscope-tui --format kineto --export temporal FILE
# plain, gzip -1, and as a directory of 4 per-rank files (parallel load). Reports wall
# and CPU (user+sys) MB/s and peak RSS / file size. Timings are printed, never asserted.
set -u
cd "$(dirname "$0")/.."
BIN=${TSCOPE_BIN:-$PWD/build/tscope-tui}
GEN=${TSCOPE_BUILD:-build}/tests/gen_trace
MB=${TRACE_MB:-1000}
[ -x "$GEN" ] || { echo "bench_trace: build $GEN first (make bench)"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-bench-trace.XXXXXX")
trap 'rm -rf "$dir"' EXIT
need=$((MB * 25 / 10))
avail=$(df -Pm "$dir" | awk 'NR==2 {print $4}')
if [ "$avail" -lt "$need" ]; then
	echo "bench_trace: need ${need} MB free in $dir, have ${avail} MB; set TRACE_MB lower"
	exit 0
fi
"$GEN" "$dir/big.pt.trace.json" "$MB" 0
gzip -1 -c "$dir/big.pt.trace.json" >"$dir/big.pt.trace.json.gz"
mkdir "$dir/ranks"
for r in 0 1 2 3; do "$GEN" "$dir/ranks/rank$r.pt.trace.json" $((MB / 4)) $r; done
cat "$dir/big.pt.trace.json" >/dev/null # warm the page cache

measure() { # measure LABEL PATH BYTES
	/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$BIN" --format kineto --export temporal "$2" >/dev/null
	read -r wall user sys rss <"$dir/time"
	awk -v l="$1" -v b="$3" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN {
		mb = b / 1e6; cpu = u + s;
		printf "%-28s %8.1f MB  wall %6.2f s %7.1f MB/s  cpu %6.2f s %7.1f MB/s  peak RSS %7.1f MB (%.3fx)\n",
			l, mb, w, mb / w, cpu, (cpu > 0 ? mb / cpu : 0), r / 1024, r * 1024 / b }'
}
plain=$(stat -c %s "$dir/big.pt.trace.json")
gz=$(stat -c %s "$dir/big.pt.trace.json.gz")
ranks=$(cat "$dir"/ranks/*.json | wc -c)
echo "bench_trace: $(nproc) cores; MB/s counted on the uncompressed JSON; RSS ratio against it"
measure "plain JSON, 1 file" "$dir/big.pt.trace.json" "$plain"
measure "gzip -1 ($((gz / 1000000)) MB), 1 file" "$dir/big.pt.trace.json.gz" "$plain"
measure "plain JSON, 4 rank files" "$dir/ranks" "$ranks"

# Past 2 GiB: a 2200 MB trace cut at byte 2,200,000,000 must load up to the cut and report
# the truncation at its 64-bit offset (a check, printed; the suite never runs this).
rm -f "$dir"/big.pt.trace.json* "$dir"/ranks/*
if [ "$(df -Pm "$dir" | awk 'NR==2 {print $4}')" -gt 2600 ]; then
	"$GEN" "$dir/huge.json" 2300 0
	truncate -s 2200000000 "$dir/huge.json"
	measure "plain JSON past 2 GiB" "$dir/huge.json" 2200000000
	"$BIN" --format kineto --export sources "$dir/huge.json" |
		awk -F, 'NR>1 && $1!="file" && $6!="" {print "truncation reported at offset " $6 ($6 > 2147483647 ? " (> 2^31: ok)" : " (WRONG)")}
			 $1=="file" {print "records loaded: " $7 ", partial: " ($9 ~ /partial/ ? "yes" : "no")}'
fi
