#!/bin/sh
# bench_load.sh: pytscope step-log load benchmark (`make bench`). Generates a 64-rank x
# 20,000-step run (~0.46 GB, 1.28 M records; gen_demo's realistic lines) in a temp dir
# and reports side by side, on the same files in the same run:
#   wc -l, our load with 1 and 2 threads (--jobs), Python json.loads per line,
#   CPU seconds, MB/s per CPU second, peak RSS and resident bytes per record.
# Targets (perf-reliability.md §0): >= 300 MB/s per core, >= 1.6x that on 2 cores,
# >= 8x Python json.loads, <= 48 B per record resident. Nothing is asserted.
# Environment: BENCH_RANKS, BENCH_STEPS override the size; BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
ranks=${BENCH_RANKS:-64}
steps=${BENCH_STEPS:-20000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-bench.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l | awk '{printf "%.3f", $1}'; }

echo "generating $ranks ranks x $steps steps in $dir ..."
"$BUILD/tests/gen_demo" "$dir/run" "$ranks" "$steps" || exit 1
bytes=$(cat "$dir"/run/rank*/steps.jsonl | wc -c)
mb=$(echo "$bytes / 1000000" | bc -l)
printf 'input: %.1f MB, %s files; load average: %s\n' "$mb" "$ranks" "$(cut -d' ' -f1-3 /proc/loadavg)"
cat "$dir"/run/rank*/steps.jsonl >/dev/null # warm the page cache

t0=$(now); cat "$dir"/run/rank*/steps.jsonl | wc -l >/dev/null; t1=$(now)
wc_s=$(secs "$t0" "$t1")

for j in 1 2; do
	"$BUILD/tests/bench_load" "$dir/run" $j >"$dir/ours$j.txt"
	"$BUILD/tests/bench_load" "$dir/run" $j >>"$dir/ours$j.txt" # best of 2
done

t0=$(now)
/usr/bin/time -f "%U %S" -o "$dir/py.cpu" python3 - "$dir"/run/rank*/steps.jsonl <<'PY'
import json, sys
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                json.loads(line)
PY
t1=$(now)
py_s=$(secs "$t0" "$t1")
py_cpu=$(awk '{printf "%.3f", $1 + $2}' "$dir/py.cpu")

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | sort -g | head -1; }
ours1=$(field "$dir/ours1.txt" seconds)
ours2=$(field "$dir/ours2.txt" seconds)
cpu1=$(field "$dir/ours1.txt" cpu_seconds)
echo
printf '%-34s %9s %10s\n' "reader (same files, hot cache)" "seconds" "MB/s"
printf '%-34s %9s %10.0f\n' "wc -l" "$wc_s" "$(echo "$mb / $wc_s" | bc -l)"
printf '%-34s %9s %10.0f\n' "tscope-tui load, --jobs 1 (wall)" "$ours1" "$(echo "$mb / $ours1" | bc -l)"
printf '%-34s %9s %10.0f\n' "tscope-tui load, --jobs 1 (CPU)" "$cpu1" "$(echo "$mb / $cpu1" | bc -l)"
printf '%-34s %9s %10.0f\n' "tscope-tui load, --jobs 2 (wall)" "$ours2" "$(echo "$mb / $ours2" | bc -l)"
printf '%-34s %9s %10.0f\n' "python3 json.loads per line (wall)" "$py_s" "$(echo "$mb / $py_s" | bc -l)"
printf '%-34s %9s %10.0f\n' "python3 json.loads per line (CPU)" "$py_cpu" "$(echo "$mb / $py_cpu" | bc -l)"
echo
printf '2 threads vs 1 (wall): %.2fx;  vs Python: %.1fx (1 thread), %.1fx (2 threads);  vs wc -l: %.1fx slower\n' \
	"$(echo "$ours1 / $ours2" | bc -l)" "$(echo "$py_s / $ours1" | bc -l)" "$(echo "$py_s / $ours2" | bc -l)" \
	"$(echo "$ours1 / $wc_s" | bc -l)"
printf 'per CPU second: %.1fx Python\n' "$(echo "$py_cpu / $cpu1" | bc -l)"
echo "memory (jobs 1): $(sed -n 's/.*\(store_B\/record=[^ ]*\).*\(peak_rss_MB=[^ ]*\) \(rss_after_load_MB=[^ ]*\) \(rss_B\/record=[^ ]*\).*/\1 \2 \3 \4/p' "$dir/ours1.txt" | head -1)"
echo "raw:"
sed 's/^/  /' "$dir/ours1.txt" "$dir/ours2.txt"
echo "command: make bench   (or: sh tests/bench_load.sh; BENCH_RANKS/BENCH_STEPS to resize)"
