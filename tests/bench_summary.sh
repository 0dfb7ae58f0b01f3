#!/bin/sh
# bench_summary.sh: what the index summary costs when an open has to make it (issue 15):
#   1. the first open after a 2-shard build (`index --shard 0/2`, `1/2`) of 10,000 ranks x
#      1,000 steps (rank dirs hard-linked to 64 distinct gen_demo ranks, as
#      BENCH_INDEX_BIG's run): it merges the shards' parts of the summary (no rank's
#      steps read); `--print` CPU s and peak RSS, then the explorer's first frame after it;
#      the same with 10% of the ranks (k % 10 == 5) missing steps 500-509: their shards
#      keep their step index, so this merge reads no rank's steps either;
#   2. the rank-by-rank rebuild of a missing summary on a generated index
#      (tests/tools/gen_index, BENCH_SUMMARY_RANKS x BENCH_SUMMARY_STEPS, default
#      10,000 x 20,000: a 4.8 GB summary and a 1.6 GB table; 10,000 x 100,000 would write
#      24 GB + 8 GB); `--print` CPU s, peak RSS, wall s.
# BENCH_BEFORE=BIN runs part 1 with another tscope-tui too (its own shards: an older
# build reads every rank's steps there); BENCH_SUMMARY_REBUILD=0 skips part 2.
# Opt-in: BENCH_SUMMARY=1 sh tests/bench_summary.sh
# (~4 GB of temp data for part 1, ~7 GB for part 2, removed at the end).
set -u
[ "${BENCH_SUMMARY:-0}" = 1 ] || { echo "bench_summary: opt-in, skipped (BENCH_SUMMARY=1)"; exit 0; }
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
. tests/tools/bench_lib.sh
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-summary.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cpu_of() { awk '{printf "%.2f", $1 + $2}' "$1"; }
mb_of() { awk '{printf "%.0f", $3 / 1024}' "$1"; }

"$BUILD/tests/gen_demo" "$dir/base" 64 1000 >/dev/null || exit 1
bench_linked_run "$dir/run" 10000 "$dir/base" || exit 1
shard_open() { # BIN TAG
	rm -rf "$dir/run/.tscope-index"
	for k in 0 1; do "$1" index --jobs 1 --shard $k/2 "$dir/run" >/dev/null 2>&1; done
	/usr/bin/time -f '%U %S %M %e' -o "$dir/$2.t" "$1" --print --format pytscope "$dir/run" >"$dir/$2.txt" 2>/dev/null
	/usr/bin/time -f '%U %S %M' -o "$dir/$2.ff" script -qec "$1 --tui --max-frames 1 --format pytscope $dir/run" /dev/null >/dev/null
	echo "$2: first open after 2 shards (--print): $(cpu_of "$dir/$2.t") CPU s, $(mb_of "$dir/$2.t") MB; the explorer's first frame after it: $(cpu_of "$dir/$2.ff") CPU s, $(mb_of "$dir/$2.ff") MB (load $(cut -d' ' -f1-3 /proc/loadavg))"
}
[ -n "${BENCH_BEFORE:-}" ] && shard_open "$BENCH_BEFORE" before
shard_open "$BIN" after
[ -n "${BENCH_BEFORE:-}" ] && { cmp -s "$dir/before.txt" "$dir/after.txt" && echo "--print before = after"; }
mkdir "$dir/gap"
for b in $(seq 0 63); do
	mkdir "$dir/gap/rank$b"
	grep -v '^{"step":50[0-9],' "$dir/base/rank$b/steps.jsonl" >"$dir/gap/rank$b/steps.jsonl"
done
for k in $(seq 5 10 9999); do
	ln -f "$dir/gap/rank$((k % 64))/steps.jsonl" "$dir/run/rank$k/steps.jsonl"
done
echo "10% of the ranks with a gap (steps 500-509):"
[ -n "${BENCH_BEFORE:-}" ] && shard_open "$BENCH_BEFORE" before
shard_open "$BIN" after
[ -n "${BENCH_BEFORE:-}" ] && { cmp -s "$dir/before.txt" "$dir/after.txt" && echo "--print before = after"; }
"$BIN" --print --format pytscope --no-index "$dir/run" >"$dir/plain.txt" 2>/dev/null
cmp -s "$dir/plain.txt" "$dir/after.txt" && echo "--print after = a plain --no-index load"
rm -rf "$dir/run" "$dir/base" "$dir/gap"

[ "${BENCH_SUMMARY_REBUILD:-1}" = 1 ] || exit 0
ranks=${BENCH_SUMMARY_RANKS:-10000}
steps=${BENCH_SUMMARY_STEPS:-20000}
"$BUILD/tests/gen_demo" "$dir/tmpl" 40 "$steps" >/dev/null || exit 1
"$BUILD/tests/gen_index" "$dir/tmpl" "$dir/gen" "$ranks" --placeholder >/dev/null || exit 1
rm -rf "$dir/tmpl" "$dir/gen/.tscope-index/summary.tsx"
/usr/bin/time -f '%U %S %M %e' -o "$dir/rb.t" "$BIN" --print --format pytscope "$dir/gen" >/dev/null 2>&1
echo "rebuild of a missing summary, $ranks x $steps: $(cpu_of "$dir/rb.t") CPU s, $(mb_of "$dir/rb.t") MB peak, $(awk '{print $4}' "$dir/rb.t") s wall; summary $(wc -c <"$dir/gen/.tscope-index/summary.tsx") bytes (load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "command: BENCH_SUMMARY=1 [BENCH_BEFORE=OLD_BIN] [BENCH_SUMMARY_REBUILD=0] [BENCH_SUMMARY_RANKS=N BENCH_SUMMARY_STEPS=S] sh tests/bench_summary.sh"
