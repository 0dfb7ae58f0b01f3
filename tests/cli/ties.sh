#!/bin/sh
# ties.sh: ranks tied at a step's slowest compute (timers of ms resolution) share the
# step's critical path and its time lost (analysis.h THE CRITICAL PATH): the ranks
# export, the default report's per-rank lines and its line counting the tied steps; the
# same from the index, from two shards' parts and in a comparison; --compat pytscope
# keeps pytscope's rule (a tie to the lowest rank id). Fixture: gen_fixtures ties.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" ties t || { tap_notok "fixture generated"; exit 1; }
cols() { cut -d, -f1,5,6,8,9 "$1"; }

"$TSCOPE_BIN" --export ranks --no-index t >plain.csv 2>/dev/null
cols plain.csv >plain.cols
tap_eq "ranks export: split shares, their z, time lost, onset" \
	"rank,critical_share,z,time_lost_s,onset_step
0,0.28125,0.45643546458763845,0.01,
1,0.09375,-2.282177322938192,0,
2,0.34375,1.3693063937629153,0.04999999999999998,30
3,0.28125,0.45643546458763845,0.01," "$(cat plain.cols)"

"$TSCOPE_BIN" --print --no-index --color never t >p.out 2>/dev/null
tap_check "the report counts the tied steps" \
	'grep -q "^  (30 of 40 steps: ranks tied at the slowest compute share the step)$" p.out'
tap_check "... and gives rank 3 its share" 'grep -q "^    rank 3:  *10.75 ms · .*  28% (z=+0.5)$" p.out'
"$TSCOPE_BIN" --print --compat pytscope --color never t >c.out 2>/dev/null
tap_check "--compat pytscope: a tie goes to the lowest rank id (rank 0 75%, rank 3 0%)" \
	'grep -q "^    rank 0:  *10.75 ms · .*  75% (z=+7.3)$" c.out &&
	 grep -q "^    rank 3:  *10.75 ms · .*   0% (z=-3.7)$" c.out'
tap_check "--compat pytscope: no line of tscope-tui's own" '! grep -q "tied" c.out'

"$TSCOPE_BIN" index --jobs 1 t >/dev/null 2>&1
"$TSCOPE_BIN" --export ranks t >index.csv 2>/dev/null
tap_check "from the index: the same export" 'cmp -s plain.csv index.csv'
"$TSCOPE_BIN" --print --color never t >pi.out 2>/dev/null
tap_check "from the index: the same report" 'cmp -s p.out pi.out'

rm -rf t/.tscope-index
"$TSCOPE_BIN" index --jobs 1 --shard 0/2 t >/dev/null 2>&1
"$TSCOPE_BIN" index --jobs 1 --shard 1/2 t >/dev/null 2>&1
"$TSCOPE_BIN" --export ranks t >shards.csv 2>/dev/null
tap_check "from two shards: the same export" 'cmp -s plain.csv shards.csv'

cp -r t u
rm -rf u/.tscope-index
"$TSCOPE_BIN" --export diff_ranks --no-index t u >d.csv 2>/dev/null
tap_check "a comparison with itself: each rank's time lost on both sides as in the run" \
	'awk -F, "NR == 1 { printf \"%s,%s \", \$7, \$8 } NR > 1 { printf \"%s,%.6f,%.6f \", \$1, \$7, \$8 }" d.csv |
	 grep -qx "a_time_lost_s,b_time_lost_s 0,0.010000,0.010000 1,0.000000,0.000000 2,0.050000,0.050000 \
3,0.010000,0.010000 "'
tap_plan
