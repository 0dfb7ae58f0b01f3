#!/bin/sh
# heatmap_legend.sh: the heatmap's legend (i) and its honest scale label (issue 10). The
# legend says what a cell is, what the scale's range is (the median cell to the worst cell
# of the whole grid, not only the window) and where values outside it go (blank: at or
# below the median and up to an eighth of the range above it; none above the
# worst), gives every level's bounds and the missing
# glyph; the axis note's "scale median LO..max HI" names the same LO and HI, and HI is
# the worst cell `--export heatmap_cells` has.
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
tap_check "a blank (quiet) cell still has its exact value on the status row" \
	'grep -q "^ rank 0  step 0-[0-9]*  compute worst 10[0-9] ms mean 10[0-9] ms" note'
tap_plan
