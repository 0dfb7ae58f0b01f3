#!/bin/sh
# bench_index.sh: the persistent index (`make bench`; issue 15 targets). On one generated
# run (64 ranks x BENCH_INDEX_STEPS steps, gen_demo lines), page cache warm, side by side:
#   - plain load (bench_load DIR 1: parse + finalize) against `tscope-tui index --jobs 1`
#     (parse + finalize + write the index): CPU seconds and MB of JSONL per CPU second;
#   - index size against the JSONL (target <= 40%);
#   - reopen: bench_load DIR 1 index (open through the index) and --print from the index
#     against --print --no-index: CPU seconds and peak RSS;
#   - 2 shards on 2 cores (`index --shard 0/2` and `1/2` at once, --jobs 1 each) against
#     one `index --jobs 1`: wall seconds (target >= 1.7x; wall time by nature, so the
#     machine load is printed with it).
# Nothing is asserted. BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
steps=${BENCH_INDEX_STEPS:-10000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-index.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
run="$dir/run"

now() { date +%s.%N; }
cpu_of() { awk '{printf "%.2f", $1 + $2}' "$1"; }
mb_of() { awk '{printf "%.0f", $3 / 1024}' "$1"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | head -1; }

"$BUILD/tests/gen_demo" "$run" 64 "$steps" >/dev/null || exit 1
jsonl=$(cat "$run"/rank*/steps.jsonl | wc -c)
echo "input: $(echo "$jsonl / 1000000" | bc) MB of JSONL, 64 ranks x $steps steps; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

"$BUILD/tests/bench_load" "$run" 1 >"$dir/plain.txt"
/usr/bin/time -f '%U %S %M' -o "$dir/idx.t" "$BIN" index --jobs 1 "$run" >/dev/null
part=$(cat "$run"/.tscope-index/steps-*.tsx | wc -c)
"$BUILD/tests/bench_load" "$run" 1 index >"$dir/reopen.txt"
/usr/bin/time -f '%U %S %M' -o "$dir/p_idx.t" "$BIN" --print "$run" >/dev/null
/usr/bin/time -f '%U %S %M' -o "$dir/p_raw.t" "$BIN" --print --no-index "$run" >/dev/null

rm -rf "$run/.tscope-index"
t0=$(now)
"$BIN" index --jobs 1 "$run" >/dev/null
t1=$(now)
rm -rf "$run/.tscope-index"
"$BIN" index --jobs 1 --shard 0/2 "$run" >/dev/null &
a=$!
"$BIN" index --jobs 1 --shard 1/2 "$run" >/dev/null &
b=$!
wait $a $b
t2=$(now)
one=$(echo "$t1 - $t0" | bc -l)
two=$(echo "$t2 - $t1" | bc -l)

plain_cpu=$(field "$dir/plain.txt" cpu_seconds)
idx_cpu=$(cpu_of "$dir/idx.t")
mb=$(echo "$jsonl / 1000000" | bc -l)
echo
printf '%-44s %8s %10s %8s\n' "" "CPU s" "MB/CPU s" "peak MB"
printf '%-44s %8s %10.0f %8s\n' "plain load (bench_load DIR 1)" "$plain_cpu" "$(echo "$mb / $plain_cpu" | bc -l)" "$(field "$dir/plain.txt" peak_rss_MB)"
printf '%-44s %8s %10.0f %8s\n' "tscope-tui index --jobs 1" "$idx_cpu" "$(echo "$mb / $idx_cpu" | bc -l)" "$(mb_of "$dir/idx.t")"
printf '%-44s %8s %10s %8s\n' "reopen through the index (bench_load ... index)" "$(field "$dir/reopen.txt" cpu_seconds)" "" "$(field "$dir/reopen.txt" peak_rss_MB)"
printf '%-44s %8s %10s %8s\n' "--print from the index" "$(cpu_of "$dir/p_idx.t")" "" "$(mb_of "$dir/p_idx.t")"
printf '%-44s %8s %10s %8s\n' "--print --no-index" "$(cpu_of "$dir/p_raw.t")" "" "$(mb_of "$dir/p_raw.t")"
echo
printf 'index size: %s of %s bytes = %.1f%% of the JSONL (target <= 40%%)\n' "$part" "$jsonl" "$(echo "100 * $part / $jsonl" | bc -l)"
printf 'indexing per core: %.2fx the plain load (target >= 1x)\n' "$(echo "$plain_cpu / $idx_cpu" | bc -l)"
printf '2 shards at once: %.2f s wall against %.2f s for one: %.2fx (target >= 1.7x); load average %s\n' \
	"$two" "$one" "$(echo "$one / $two" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: sh tests/bench_index.sh   (BENCH_INDEX_STEPS=N resizes)"
