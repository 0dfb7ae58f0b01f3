#!/bin/sh
# gen_index.sh: tests/tools/gen_index (the generator of the 10k x 100k browse benchmark's
# index, BENCHMARKS.md) at a small scale, so it cannot rot: 64 ranks, copies of a 16-rank
# gen_demo template x 1,500 steps. The generated index (one part with 16 shared bodies,
# a summary with 16 stored rows per pyramid) opens as current; heatmap cells, the
# steps, the Ranks columns of each rank's own steps, and the heatmap pane as browsed
# (zoom, pan, n) are those of a plain load of the same copies; with placeholder
# (empty) steps.jsonl files the run is browsed from the index alone.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
work="$TSCOPE_TMP/gen_index.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
"$B/gen_demo" tmpl 16 1500 >/dev/null || exit 1
"$B/gen_index" tmpl out 64 >gen.txt 2>&1
tap_check "gen_index writes 64 ranks, copies of 16" 'grep -q "64 ranks (copies of 16) x 1500 steps" gen.txt'
tap_check "... one part and the summary" '[ -s out/.tscope-index/steps-0-of-1.tsx ] && [ -s out/.tscope-index/summary.tsx ]'
"$T" index --status out >status.txt 2>&1
tap_check "the generated part is current" 'grep -q "ranks 0-63  ok" status.txt'
"$T" --export sources out >src.csv 2>err.txt
tap_check "opening it adds no diagnostic (part and summary used)" '! grep -q "not used" src.csv err.txt'

for v in heatmap_cells steps ranks findings; do
	"$T" --export $v out >idx_$v.csv 2>/dev/null
	"$T" --export $v --no-index out >raw_$v.csv 2>/dev/null
done
tap_check "heatmap cells (shared pyramid rows) = a plain load of the copies" \
	'[ -s idx_heatmap_cells.csv ] && cmp -s idx_heatmap_cells.csv raw_heatmap_cells.csv'
# the lowest rank keeps exact scalars (loss, grad norm) in its body: its copies do too
awk -F, 'NR == 1 || $1 % 16 != 0' idx_steps.csv >idx_s.csv
awk -F, 'NR == 1 || $1 % 16 != 0' raw_steps.csv >raw_s.csv
tap_check "steps of every rank (shared bodies) = a plain load" '[ $(wc -l <idx_s.csv) -gt 80000 ] && cmp -s idx_s.csv raw_s.csv'
cut -d, -f1-4,7,10-12,14 idx_ranks.csv >idx_r.csv
cut -d, -f1-4,7,10-12,14 raw_ranks.csv >raw_r.csv
tap_check "Ranks: each rank's own figures = a plain load" '[ $(wc -l <idx_r.csv) = 65 ] && cmp -s idx_r.csv raw_r.csv'
tap_check "findings: every copy of the template's straggler (11, 27, 43, 59) turned slow" \
	'[ $(grep -c "DIST.FAIL_SLOW,Rank \(11\|27\|43\|59\) turned slow" idx_findings.csv) = 4 ]'

# The heatmap pane browsed as a user does: from the index = from the JSONL.
printf '2\n:dump @D@/1\n+\n+\n:dump @D@/2\nL\n:dump @D@/3\nn\n:dump @D@/4\n-\n-\n-\nG\n:dump @D@/5\n' >keys
for mode in idx raw; do
	mkdir -p $mode
	sed "s|@D@|$work/$mode|" keys >$mode.script
	flag=; [ $mode = raw ] && flag=--no-index
	env LINES=30 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$work/$mode.script" \
		"$T" --tui $flag out >/dev/null 2>&1
	cat $mode/1 $mode/2 $mode/3 $mode/4 $mode/5 >$mode.screens 2>/dev/null
done
tap_check "heatmap browsed (zoom, pan, n, G) from the index = from the JSONL" \
	'grep -q "rank" idx.screens && cmp -s idx.screens raw.screens'

"$B/gen_index" tmpl ph 64 --placeholder >/dev/null 2>&1
"$T" --print out >want.txt 2>/dev/null
"$T" --print ph 2>err.txt | sed 1s/ph/out/ >got.txt
tap_check "placeholder steps.jsonl (empty): the run is read from the index alone" \
	'[ ! -s ph/rank7/steps.jsonl ] && [ -s got.txt ] && cmp -s want.txt got.txt'
"$T" --export steps ph >ph_steps.csv 2>/dev/null
tap_check "... drill-down to every rank's steps reads its (shared) body" 'cmp -s ph_steps.csv idx_steps.csv'
tap_plan
