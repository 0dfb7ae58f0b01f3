#!/bin/sh
# steps_width.sh: the Steps pane's chart, axis and sparklines take the body's width less
# their label column and one column (14 more columns were kept blank: at 80x24 a rank of
# 60 records showed at 2 records a column in 30 columns, 38 left empty), and the stacked
# bars end where the axis and the sparklines end (zoomed in, they ran 12 columns past
# them). Headless, TSCOPE_SCRIPT.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_demo" r60 8 60 >/dev/null && "$B/gen_demo" r600 1 600 >/dev/null ||
	{ tap_notok "fixtures generated"; tap_plan; exit 0; }
tui() {   # tui COLUMNS RUN: the explorer on ./keys, headless, 24 rows
	TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=$1 LC_ALL=C XDG_STATE_HOME="$PWD/state" \
		"$TSCOPE_BIN" --no-index --tui "$2" >/dev/null 2>err
}
width() { grep "^$2 " "$1" | awk '{ print length($0) }'; }   # the length of a row by its label

printf '4\n:dump %s/s80\n' "$PWD" >keys
tui 80 r60
tap_rc $? "Steps at 80x24: exit 0"
tap_check "60 records at 80 columns: one record a column (no \"per column\" note)" \
	'grep -q "rank 0 (1 of 8)  60 records" s80 && ! grep -q "per column" s80'
tap_eq "... each sparkline 60 cells after its 12-column label" "72 72 72 72" \
	"$(echo $(width s80 step_time) $(width s80 loss) $(width s80 grad_norm) $(width s80 memory))"

printf '4\n++\n:dump %s/z120\n' "$PWD" >keys
tui 120 r600
tap_rc $? "Steps at 120 columns, zoomed in: exit 0"
# the chart's rows: from the one under the header to the axis (its "> " pointer row)
bars=$(awk 'NR > 2 && /^ *>/ { exit } NR > 2 { if (length($0) > m) m = length($0) } END { print m }' z120)
tap_eq "zoomed in, the bars end where the sparklines do: 107 cells after the label" "119 119" \
	"$bars $(width z120 step_time)"
tap_plan
