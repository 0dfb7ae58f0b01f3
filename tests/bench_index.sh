#!/bin/sh
# bench_index.sh: the persistent index (`make bench`; issue 15 targets). On one generated
# run (64 ranks x BENCH_INDEX_STEPS steps, gen_demo lines), page cache warm, side by side:
#   - plain load (bench_load DIR 1: parse + finalize) against `tscope-tui index --jobs 1`
#     (parse + finalize + write the index): CPU seconds and MB of JSONL per CPU second;
#   - index size (parts and summary) against the JSONL (target <= 40%);
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
part=$(cat "$run"/.tscope-index/*.tsx | wc -c)   # the parts and the summary
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

# BENCH_INDEX_BIG=1: reopen at scale, 10,000 ranks x 1,000 steps (rank dirs hard-linked
# to 64 distinct gen_demo ranks, 3.6 GB of JSONL as read): `index --jobs 2`, then the
# explorer's first frame from the index (script + --max-frames 1) and --print from it,
# CPU seconds and peak RSS; then tests/bench_ui.py drives the keys (first n, moves,
# zoom, pan) on it. Only the pytscope loader probes (--format pytscope): the other
# formats' probes walk every rank dir (BENCHMARKS.md, open cost against the rank count).
[ "${BENCH_INDEX_BIG:-0}" = 1 ] || exit 0
big="$dir/big"
"$BUILD/tests/gen_demo" "$dir/base" 64 1000 >/dev/null || exit 1
python3 - "$big" "$dir/base" <<'PY'
import os, sys
run, base = sys.argv[1], sys.argv[2]
os.mkdir(run)
for k in range(10000):
    d = "%s/rank%d" % (run, k)
    os.mkdir(d)
    for f in ("steps.jsonl", "run.json"):
        os.link("%s/rank%d/%s" % (base, k % 64, f), "%s/%s" % (d, f))
PY
/usr/bin/time -f '%U %S %M' -o "$dir/big_idx.t" "$BIN" index --jobs 2 "$big" >/dev/null
"$BIN" --print --format pytscope "$big" >/dev/null 2>&1   # warm
/usr/bin/time -f '%U %S %M' -o "$dir/big_ff.t" script -qec "$BIN --tui --max-frames 1 --format pytscope $big" /dev/null >/dev/null
/usr/bin/time -f '%U %S %M' -o "$dir/big_p.t" "$BIN" --print --format pytscope "$big" >/dev/null
echo
echo "10,000 x 1,000 (load average $(cut -d' ' -f1-3 /proc/loadavg)); index $(cat "$big"/.tscope-index/*.tsx | wc -c) bytes"
printf '%-44s %8s %8s\n' "" "CPU s" "peak MB"
printf '%-44s %8s %8s\n' "index --jobs 2" "$(cpu_of "$dir/big_idx.t")" "$(mb_of "$dir/big_idx.t")"
printf '%-44s %8s %8s\n' "first frame from the index (target 0.3 s, 150 MB)" "$(cpu_of "$dir/big_ff.t")" "$(mb_of "$dir/big_ff.t")"
printf '%-44s %8s %8s\n' "--print from the index" "$(cpu_of "$dir/big_p.t")" "$(mb_of "$dir/big_p.t")"
bin_abs="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
cat >"$dir/wrap.sh" <<SH
#!/bin/sh
exec "$bin_abs" --tui --format pytscope "$big"
SH
chmod +x "$dir/wrap.sh"
python3 tests/bench_ui.py "$dir/wrap.sh" 10000 1000
