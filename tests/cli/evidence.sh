#!/bin/sh
# evidence.sh: each finding's Enter opens its own evidence, never the previous finding's
# cursor: on the demo run, CROSS.CORRELATED_INSTABILITY lands on step 300, then
# MEMORY.GROWTH on the memory series over the whole run (from step 0), and
# EFFICIENCY.LOW_MFU on the Budget pane.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
cat >keys <<KEYS
1
<Enter>
:dump $TSCOPE_TMP/cross
<Esc>
j
<Enter>
:dump $TSCOPE_TMP/growth
<Esc>
j
j
:dump $TSCOPE_TMP/sel
<Enter>
:dump $TSCOPE_TMP/mfu
KEYS
LINES=30 COLUMNS=110 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>err
tap_check "CROSS.CORRELATED_INSTABILITY: the Steps pane at step 300" 'grep -q "^ rank 0 step 300 " cross'
tap_check "MEMORY.GROWTH next: the whole run from step 0, memory highlighted" 'grep -q "^ rank 0 step 0 " growth && grep -qi "memory" growth'
tap_check "the LOW_MFU finding is selected" 'grep -q "EFFICIENCY.LOW_MFU" sel'
tap_check "EFFICIENCY.LOW_MFU: the Budget pane" 'grep -q "^ rank 0  rank wall .* efficiency " mfu'
tap_plan
