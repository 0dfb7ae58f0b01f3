#!/bin/sh
# heatmap_legend.sh: the heatmap's legend (i) and its honest scale label (issue 10). The
# legend says what a cell is, what the scale's range is (the median cell to the worst cell
# of the whole grid, not only the window) and where values outside it go (blank: at or
# below the median and up to an eighth of the range above it; none above the
# worst), gives every level's bounds and the missing
# glyph (the pane's, not the tables' "-", which is no level's glyph either); the axis
# note's "scale median LO..max HI" names the same LO and HI, and HI is
# the worst cell `--export heatmap_cells` has. Level bounds keep the digits that tell them
# apart (a narrow range: 108.8 ms .. 109.3 ms, not 109 ms .. 109 ms); a scale with no range
# (every cell the same) says its levels above the first hold no cell.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"

printf '2\n:dump %s/note\ni\n:dump %s/legend\n' "$TSCOPE_TMP" "$TSCOPE_TMP" >keys
LINES=40 COLUMNS=200 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui "$demo" >/dev/null 2>err
tap_rc $? "explorer ran the script"

# The grid's worst cell, as the heatmap formats it (3 significant digits, ms).
worst=$("$TSCOPE_BIN" --export heatmap_cells "$demo" | awk -F, 'NR > 1 && $6 != "" && $6 + 0 > m { m = $6 + 0 } END { printf "%.3g ms", m * 1000 }')
tap_eq "the demo's worst cell" "171 ms" "$worst"

note_lo=$(sed -n 's/.* scale median \([^.]*\)\.\.max \([0-9.]* [a-z]*\) .*/\1/p' note)
note_hi=$(sed -n 's/.* scale median \([^.]*\)\.\.max \([0-9.]* [a-z]*\) .*/\2/p' note)
tap_eq "axis note: the scale's top is the grid's worst cell" "$worst" "$note_hi"
# the legend's sentence may wrap: drop the heatmap's row labels beside it, join the lines
sed 's/^ *[0-9]* *//' legend | tr -s ' \n' '  ' >legend.flat
tap_check "legend: the range is named (median cell to worst cell of the whole grid), the same as the axis note" \
	'grep -qF "Scale: the median cell of the whole grid (not only the window), $note_lo, to its worst cell," legend.flat &&
	 grep -qF "to its worst cell, $note_hi, in 8 levels." legend.flat'
tap_check "legend: the first level is blank (the median, below it and an eighth above), none above the worst" \
	'grep -qF "Cells of the first level (the median, below it, and up to 1/8 of the range above it)" legend.flat &&
	 grep -qF "are blank (quiet), not missing; no cell is above the worst." legend.flat'
tap_check "legend: the quiet level and the top level, ending at the worst" \
	'grep -q "<= [0-9.]* ms (quiet: the median, below it and just above)" legend &&
	 grep -q "[0-9.]* ms \.\. $note_hi (up to the worst)" legend'
tap_eq "legend: eight levels with bounds" 8 "$(grep -c '[0-9.]* ms \.\. [0-9.]* ms\|<= [0-9.]* ms (quiet' legend)"
tap_check "legend: what a cell is and the missing glyph" \
	'grep -q "A cell is the WORST value of its bucket" legend && grep -q "no value in the bucket (missing is not zero)" legend'
tap_check "legend: a missing cell as this pane shows it (···), not the tables' - (one glyph, one meaning)" \
	'grep -q "···  *a missing cell: no value in the bucket" legend && ! grep -q "never shown as 0" legend'
tap_check "a blank (quiet) cell still has its exact value on the status row" \
	'grep -q "^ rank 0  step 0-[0-9]*  compute worst 10[0-9] ms mean 10[0-9] ms" note'

# A narrow range (gen_demo's 8 ranks x 60 steps: median 108 ms, worst 112 ms): each level's
# bounds keep the digits that tell them apart (not "109 ms .. 109 ms"), rising from the
# quiet level's to the worst, which the scale sentence names the same way.
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" run 8 60 >/dev/null && mv run narrow || { tap_notok "gen_demo"; exit 0; }
printf '2\ni\n:dump %s/legend8\n' "$TSCOPE_TMP" >keys8
# LC_ALL=C: ASCII glyphs, so that a column is a byte for awk
LINES=40 COLUMNS=200 TERM=dumb LC_ALL=C TSCOPE_SCRIPT="$TSCOPE_TMP/keys8" "$TSCOPE_BIN" --tui narrow >/dev/null 2>err8
tap_rc $? "explorer ran the script (narrow range)"
# the bounds in order, one a line: the quiet level's, then each level's two
grep -o '<= [0-9.]* [mu]*s (quiet\|[0-9.]* [mu]*s \.\. [0-9.]* [mu]*s' legend8 |
	sed 's/^<= \([^(]*\) (quiet/\1/; s/ \.\. /\n/' >bounds8
bounds_ok() {   # $1: file of bounds; each level starts where the one below ends, and rises
	awk 'function us(v, u) { return u == "s" ? v * 1e6 : u == "ms" ? v * 1e3 : v }
	     NR == 1 { prev = $0; pv = us($1, $2); next }
	     NR % 2 == 0 { if ($0 != prev) bad = bad " " NR ": starts at " $0 " not " prev; next }
	     { v = us($1, $2); if (!(v > pv)) bad = bad " " NR ": " $0 " not above " prev; prev = $0; pv = v }
	     END { if (NR != 15 || bad != "") { print "bounds:" bad " (" NR " lines)"; exit 1 } }' "$1"
}
tap_check "narrow range: every level's bounds differ and rise (enough digits to tell them apart)" 'bounds_ok bounds8'
# the legend's column alone (the heatmap's cells are beside it), its lines joined
awk '!c && (i = index($0, "Scale: ")) { c = i } c { print substr($0, c) }' legend8 | tr -s ' \n' '  ' >legend8.flat
tap_check "narrow range: the scale sentence's worst is the top level's end" \
	'grep -qF "to its worst cell, $(tail -n 1 bounds8), in 8 levels." legend8.flat'
tap_check "ASCII: level 3 is ;;;, a missing cell ???, and no - stands for missing" \
	'grep -q ";;;  *[0-9.]* [mu]*s \.\. " legend8 && grep -q "???  *a missing cell: " legend8 &&
	 ! grep -q "never shown as 0" legend8'

# A scale with no range (every cell the same): the levels above the first hold no cell,
# and say so rather than "40 ms .. 40 ms".
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" run 4 10 >/dev/null && mv run flat || { tap_notok "gen_demo"; exit 0; }
for f in flat/rank*/steps.jsonl; do
	sed -E 's/"(data|forward|backward|optimizer|comm)":[0-9.e-]*/"\1":0.01/g' "$f" >t && mv t "$f"
done
printf '2\ni\n:dump %s/legendf\n' "$TSCOPE_TMP" >keysf
LINES=40 COLUMNS=200 TERM=dumb TSCOPE_SCRIPT="$TSCOPE_TMP/keysf" "$TSCOPE_BIN" --tui flat >/dev/null 2>errf
tap_rc $? "explorer ran the script (no range)"
tap_eq "no range: seven levels say they hold no cell" 7 \
	"$(grep -c 'no cell: the scale has no range (its worst is its median)' legendf)"
tap_plan
