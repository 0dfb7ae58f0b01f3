#!/bin/sh
# bench_export.sh: `--export steps` of BENCH_EXPORT_RANKS x 1,000 steps (default 1,000
# ranks: a million rows, 1.7 kB each; rank dirs hard-linked to 64 gen_demo ranks, as
# bench_summary.sh's run), to a file: CPU s (user + sys) and peak RSS from the JSONL
# (--no-index) and from the index, then sorted (--sort -step_time_ms, from the index:
# the parts sorted and merged through a temporary file). The numbers' full form and the
# part-by-part write are the work (BENCHMARKS.md "The steps export in parts", "A sorted
# steps export in parts"). BENCH_BEFORE_BIN=BIN runs another tscope-tui too and says
# whether its CSV is the same.
# Usage: sh tests/bench_export.sh (BENCH_EXPORT_RANKS=10000: 10 million rows, 1.7 GB
# of CSV per command).
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
. tests/tools/bench_lib.sh
ranks=${BENCH_EXPORT_RANKS:-1000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-export.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
"$BUILD/tests/gen_demo" "$dir/base" 64 1000 >/dev/null || exit 1
bench_linked_run "$dir/run" "$ranks" "$dir/base" || exit 1
"$BIN" index "$dir/run" >/dev/null 2>&1 || exit 1
one() { # BIN TAG OPTS...
	b=$1 tag=$2
	shift 2
	/usr/bin/time -f '%U %S %M' -o "$dir/t" "$b" --export steps --force -o "$dir/$tag.csv" "$@" "$dir/run" 2>/dev/null ||
		{ echo "$tag: failed"; return 1; }
	awk -v t="$tag" -v mb="$(du -m "$dir/$tag.csv" | cut -f1)" \
		'{ printf "%s: %.2f CPU s, %.0f MB peak RSS (%s MB of CSV)\n", t, $1 + $2, $3 / 1024, mb }' "$dir/t"
}
echo "export steps, $ranks ranks x 1,000 steps (load $(bench_load_avg))"
for who in ${BENCH_BEFORE_BIN:+before} after; do
	b=$BIN
	[ "$who" = before ] && b=$BENCH_BEFORE_BIN
	one "$b" "$who-jsonl" --no-index
	one "$b" "$who-index"
	one "$b" "$who-sorted" --sort -step_time_ms
done
[ -n "${BENCH_BEFORE_BIN:-}" ] && { cmp -s "$dir/before-index.csv" "$dir/after-index.csv" &&
	cmp -s "$dir/before-sorted.csv" "$dir/after-sorted.csv" && echo "CSV before = after (both orders)"; }
cmp -s "$dir/after-jsonl.csv" "$dir/after-index.csv" && echo "CSV from the JSONL = from the index"
exit 0
