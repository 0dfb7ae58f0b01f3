#!/bin/sh
# alloc_per_record.sh: loading step logs allocates per rank, never per record (issue
# 17): the same two ranks with 4x the steps take the same number of allocations
# (counted by the fault-injecting build, TSCOPE_ALLOC_COUNT=1) for a load (--export
# sources: no analysis runs), through the scanner (gen_demo lines) and through the jsmn
# path (the same lines with an unknown key); and --print, whose analyses allocate per
# series, rank or block of steps, not per step. And per rank a bounded number: 8 ranks
# against 2 of the same length (issue 17: per-rank work that does not grow).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
B="$TSCOPE_ROOT/$TSCOPE_BUILD/tests"
F="$B/tscope-tui-faulty"

count() { # count ARGS...: the allocations of one run
	TSCOPE_ALLOC_COUNT=1 "$F" --jobs 1 --no-index "$@" 2>&1 >/dev/null | sed -n 's/^tscope-tui: \([0-9]*\) allocations$/\1/p'
}

"$B/gen_demo" small 2 1000 >/dev/null
"$B/gen_demo" large 2 4000 >/dev/null
for d in small large; do # the same lines with an unknown key: the jsmn path
	mkdir -p "jsmn_$d/rank0" "jsmn_$d/rank1"
	for r in 0 1; do
		sed 's/^{"step"/{"extra":1,"step"/' "$d/rank$r/steps.jsonl" >"jsmn_$d/rank$r/steps.jsonl"
	done
done

for run in "" jsmn_; do
	s=$(count --export sources "${run}small") l=$(count --export sources "${run}large")
	tap_check "$([ -n "$run" ] && echo jsmn || echo scanner) path: 2 x 1000 and 2 x 4000 steps take the same allocations ($s, $l)" \
		'[ -n "$s" ] && [ "$s" -gt 0 ] && [ "$s" = "$l" ]'
done
# --print adds the analyses: their scratch is per series, per rank or per block of
# steps, never per step (stats_local_spikes used to allocate three times a step), so
# 3,000 more steps a rank add far fewer than one allocation per 8 steps (findings and
# step blocks still grow with the data).
s=$(count --print small) l=$(count --print large)
tap_check "--print: 2 x 4000 steps take fewer than 375 allocations more than 2 x 1000 ($s, $l)" \
	'[ -n "$s" ] && [ -n "$l" ] && [ "$l" -lt $((s + 375)) ]'
# Per rank: the load's one block for the rank's steps and columns (store_body.c), the
# rank and its path, run.json read (kept for the lowest rank) and its strings in one
# block, the rank's two sources, the probes' listings and paths, and --export sources'
# 8 rows: 29 a rank on 2026-11-25 (102 before s17arena's per-rank block and s17ident's
# listing; 177 before s17rank).
"$B/gen_demo" two 2 500 >/dev/null
"$B/gen_demo" eight 8 500 >/dev/null
s=$(count --export sources two) l=$(count --export sources eight)
tap_check "8 ranks take at most 36 allocations a rank more than 2 ranks of the same length ($s, $l)" \
	'[ -n "$s" ] && [ -n "$l" ] && [ "$l" -le $((s + 6 * 36)) ]'
tap_plan
