#!/bin/sh
# back_stack.sh: Esc and q go back the same way (headless, TSCOPE_SCRIPT). The back
# stack holds where a drill-down (Enter, n) and a tab opened with v, :view or :heatmap
# came from; a tab switch (a digit, Tab, :pane) pushes nothing. So from the Heatmap, 3
# then Esc stays on Ranks, and 3 then q quits, as at the top (Esc went back to the
# Heatmap while q quit). Findings, Enter (Steps), 3, Ranks' Enter (Steps): q goes back to
# Ranks, q to the Findings drill-down under it (q quit there), and only then q quits.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
tui() {   # the explorer on ./keys, headless, 30x120
	TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui "$@" >/dev/null 2>err
}
status() { tail -2 "$1" | head -1; }   # the status row of a dump

cat >keys <<KEYS
3<Esc>
:dump $PWD/digit_esc
q
:dump $PWD/digit_q
KEYS
tui "$demo"
tap_eq "Heatmap, 3, Esc, q: exit 0" 0 $?
tap_check "Esc after a digit stays on Ranks (a tab switch is not a drill-down)" \
	'status digit_esc | grep -q "^ ranks  row"'
tap_check "q there quits, as Esc did nothing: at the top" '[ ! -e digit_q ]'

cat >keys <<KEYS
6<Enter>
:dump $PWD/d1
3jj<Enter>
:dump $PWD/d2
q
:dump $PWD/q1
q
:dump $PWD/q2
q
:dump $PWD/q3
KEYS
tui "$demo"
tap_eq "Findings, Enter, 3, Enter, q q q: exit 0" 0 $?
tap_check "Findings' Enter drills into Steps, Ranks' Enter too" \
	'status d1 | grep -q "^ rank .* step " && status d2 | grep -q "^ rank 2 step "'
tap_check "the first q goes back to Ranks" 'status q1 | grep -q "^ ranks  row 3/16"'
tap_check "the second q to the Findings drill-down under it (it quit)" 'status q2 | grep -q "^ findings  row 1/"'
tap_check "the third q quits" '[ ! -e q3 ]'
tap_plan
