#!/bin/sh
# view_parts.sh: a view built in parts (steps: a row per record) opens in the explorer
# with its first parts only, up to 262,144 rows of whole ranks, so a huge run's view
# never fills the memory; the status row says so and names the export that writes
# every row; e exports the rows shown (its prompt and message say so). A smaller run's view opens whole, unmarked.
# A filter keeping no row of the ranks loaded (rank=280) says it searched the first ranks' rows only, naming
# them, and gives the command that writes every rank's rows with its filter and sort, each argument a shell
# word; e says the same (it said "no rows match the filter" and wrote a header-only CSV as if that were all).
# Headless (TSCOPE_SCRIPT) over a 300-rank x 1,000-step index (tests/tools/gen_index).
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TMP" || exit 1
B="$TSCOPE_ROOT/$BUILD"
[ -x "$B/tests/gen_demo" ] || B=$BUILD
"$B/tests/gen_demo" tmpl 4 1000 >/dev/null || exit 1
"$B/tests/gen_index" tmpl big 300 >/dev/null 2>&1 || exit 1
cat >keys <<EOF2
:view steps
:dump $TMP/big.txt
e
<Enter>
:dump $TMP/exported.txt
q
EOF2
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=140 "$BIN" --tui big >/dev/null 2>err.txt
tap_rc $? "headless session over 300 x 1,000 exits 0"
tap_check "the steps view shows 260 whole ranks' rows (4 parts) and says the rest is not shown" \
	'grep -q "steps  row 1/260000  the first ranks. rows only (all: --export steps)" big.txt'
tap_check "its export holds the rows shown: ranks 0-259" \
	'f=$(ls tscope-*steps*.csv) && [ "$(wc -l <"$f")" -eq 260001 ] && [ "$(tail -n 1 "$f" | cut -d, -f1)" = 259 ]'
tap_check "... and its message says so, naming the ranks and the export of every row" \
	'grep -q "exported 260000 rows of .steps. to tscope-[^ ]*steps[^ ]*.csv: \
ranks 0-259 of 300 only; all: tscope-tui --export steps big\$" exported.txt'
ln -s big 'big run'
cat >keys <<EOF2
:view steps
s
:filter rank=280 step>=0
:dump $TMP/filtered.txt
<Enter>
:dump $TMP/enter.txt
e<C-u>filtered.csv
:dump $TMP/prompt.txt
<Enter>
:dump $TMP/filtered_exported.txt
q
EOF2
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=200 "$BIN" --tui 'big run' >/dev/null 2>err.txt
cmd="tscope-tui --export steps --filter 'rank=280 step>=0' --sort -rank 'big run'"
tap_check "a filter keeping no row of ranks 0-259 says so and names the command for every rank, quoted" \
	'grep -qF "no row matches the filter in the first ranks'"'"' rows loaded, \
ranks 0-259 of 300 only; all: $cmd" filtered.txt'
tap_check "... Enter says the filter keeps no row of the first ranks' rows loaded" \
	'tail -n 1 enter.txt | grep -q "^nothing to open: no row matches the filter in the first ranks. rows loaded"'
tap_check "... e's prompt says the rows shown are the first ranks' only" \
	'tail -n 1 prompt.txt | grep -q "^export the 0 rows shown, the first ranks. only, to: filtered.csv"'
tap_check "... e's message names the ranks written and the same command" \
	'tail -n 1 filtered_exported.txt |
	 grep -qxF "exported 0 rows of '"'steps'"' to filtered.csv: ranks 0-259 of 300 only; all: $cmd"'
eval "\"\$BIN\"${cmd#tscope-tui}" >all.csv 2>/dev/null
tap_check "... and that command, run as shown, writes rank 280's 1,000 rows" \
	'[ "$(wc -l <all.csv)" -eq 1001 ] && [ "$(tail -n +2 all.csv | cut -d, -f1 | sort -u)" = 280 ]'
cat >keys <<EOF2
:view steps
:dump $TMP/small.txt
q
EOF2
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=140 "$BIN" --tui tmpl >/dev/null 2>&1
tap_check "a 4 x 1,000 run's steps view opens whole, unmarked" \
	'grep -q "steps  row 1/4000 " small.txt && ! grep -q "rows only" small.txt'
tap_plan
