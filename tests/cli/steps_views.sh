#!/bin/sh
# steps_views.sh: the step run's views through --export (F2 fixture: 4 ranks x 50 steps,
# rank 2 a straggler): ranks, steps, heatmap, budget; snake_case columns; sort/filter.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
[ -x "$gen" ] || gen="$TSCOPE_BUILD/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" f2 f2 || exit 1

"$TSCOPE_BIN" --list-views >views.txt
tap_check "--list-views lists ranks, steps, heatmap, budget" \
	'grep -q "^ranks " views.txt && grep -q "^steps " views.txt && grep -q "^heatmap " views.txt && grep -q "^budget " views.txt'
"$TSCOPE_BIN" --export ranks --sort -time_lost_s f2 >ranks.csv
tap_check "ranks: header" 'head -1 ranks.csv | grep -qx "rank,records,mean_compute_ms,median_compute_ms,critical_share,z,rel_slowdown,time_lost_s,onset_step,missing_steps,coverage,mem_peak_mb,straggler,slow_from_step,straggler_cost_s,stall_steps"'
tap_check "ranks: 4 rows" '[ "$(wc -l <ranks.csv)" -eq 5 ]'
tap_check "ranks: sorted by time lost, rank 2 first, straggler, onset 5" 'sed -n 2p ranks.csv | grep -q "^2,50,12.5,12.5,1,12.24744871391589,0.2376237623762376,.*,5,0,1,,yes,5,0.12[0-9]*,$"'
"$TSCOPE_BIN" --export steps --filter "rank=3" f2 >steps.csv
tap_check "steps: one row per record of rank 3" '[ "$(wc -l <steps.csv)" -eq 51 ]'
tap_check "steps: phase columns in ms, missing memory absent" 'head -1 steps.csv | grep -qx "rank,step,timestamp,step_time_ms,forward_ms,backward_ms,comm_ms,loss"'
tap_check "steps: first record" 'sed -n 2p steps.csv | grep -q "^3,5,2000,"'
# step time = fsum of the phases (pytscope.md), as the heatmap's: the demo's first
# records are where a left-to-right sum is off in the last bit (0.119875466000...02 s)
"$TSCOPE_BIN" --export steps --filter "rank=0" "$TSCOPE_ROOT/testdata/demo" >demo.csv
tap_check "steps: step_time_ms is the exactly rounded sum of the phases" \
	'sed -n 2,3p demo.csv | cut -d, -f4 | tr "\n" " " | grep -qx "119.875466 120.62917100000001 "'
"$TSCOPE_BIN" --export heatmap f2 >heat.csv
tap_check "heatmap: 4 ranks x 50 blocks" '[ "$(wc -l <heat.csv)" -eq 201 ]'
tap_check "heatmap: straggler block slower than the median" 'grep -q "^2,5,5,12.2[0-9]*,12.2[0-9]*,0.18[0-9]*,0.18" heat.csv'
"$TSCOPE_BIN" --export budget f2 >budget.csv
tap_check "budget: whole-run line (all ranks) then one per rank" '[ "$(wc -l <budget.csv)" -eq 6 ] && sed -n 2p budget.csv | grep -q "^run,,200,2.725,,0.7798"'
"$TSCOPE_BIN" --export budget --filter "scope=rank rank=2" f2 >b2.csv
tap_check "budget: filter by rank" '[ "$(wc -l <b2.csv)" -eq 2 ] && grep -q "^rank,2,50,0.775," b2.csv'
tap_plan
