#!/bin/sh
# steps_views.sh: the step run's views through --export (F2 fixture: 4 ranks x 50 steps,
# rank 2 a straggler): ranks, steps, heatmap, budget; snake_case columns; sort/filter.
# A rank without records (no aligned step): every straggler verdict n/a, each rank's own
# memory peak; ranks with run.json alone: ranks and nodes refused as steps is; metric
# names of any length and case whole and unique in steps, each one found by --sort and
# --filter. A rank judged not a straggler says "no" (it was an empty text that
# `straggler=` did not select and `straggler!=-` kept); findings sort by severity, not
# A to Z. The budget's run line adds only the ranks that measure every line some rank does
# (a phase a rank does not record, or an MFU it lacks, is not 0 s of it): "partial" then.
# Phases in ms are the logged value (0.008660412 s: 8.660412, from its nanoseconds; it read
# 8.660411999999999, so --filter on the logged value kept no row), and the step time their
# exact sum. The heatmap view's empty relative slowdown is said in a note on stderr (one
# rank; the steps after a rank ended early), as its title says it (it said nothing).
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
# step time = the exactly rounded sum of the phases (pytscope.md's fsum), in ms from their
# nanoseconds: the demo's first records are where a left-to-right sum is off in the last
# bit (0.119875466000...02 s), and where fsum in seconds times 1e3 read 120.62917100000001
"$TSCOPE_BIN" --export steps --filter "rank=0" "$TSCOPE_ROOT/testdata/demo" >demo.csv
tap_check "steps: step_time_ms is the exactly rounded sum of the phases" \
	'sed -n 2,3p demo.csv | cut -d, -f4 | tr "\n" " " | grep -qx "119.875466 120.629171 "'
# phases in ms as logged: 8660412 ns is 8.660412 ms (v * 1e3 read 8.660411999999999)
mkdir -p nsr/rank0
for s in 0 1; do
	printf '{"step":%d,"phases":{"data":0.008660412,"forward":0.030954727,"backward":5.000000001}}\n' $s
done >nsr/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export steps nsr >nsr.csv 2>/dev/null
tap_check "steps: phase ms are the logged values, step time their sum" \
	'sed -n 2p nsr.csv | grep -qx "0,0,,5039.61514,8.660412,30.954727,5000.000001"'
"$TSCOPE_BIN" --no-index --export steps --filter 'data_ms=8.660412 forward_ms>=30.954727 forward_ms<=30.954727' \
	nsr >nsf.csv 2>nsf.err
tap_check "steps: --filter on the logged value keeps its rows" \
	'[ "$(wc -l <nsf.csv)" -eq 3 ] && ! grep -q "keeps no row" nsf.err'
"$TSCOPE_BIN" --export heatmap f2 >heat.csv
tap_check "heatmap: 4 ranks x 50 blocks" '[ "$(wc -l <heat.csv)" -eq 201 ]'
tap_check "heatmap: straggler block slower than the median" 'grep -q "^2,5,5,12.2[0-9]*,12.2[0-9]*,0.18[0-9]*,0.18" heat.csv'
# empty relative slowdown: the reason on stderr, as the title says it
mkdir -p one/rank0 early
head -30 f2/rank0/steps.jsonl >one/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap one >one.csv 2>one.err
tap_check "heatmap of one rank: the note says why the slowdown is empty" \
	'grep -qx "tscope-tui: note on .heatmap.: relative slowdown not judged: one rank, nothing to compare against" \
	 one.err && [ -z "$(cut -d, -f6 one.csv | sed 1d | sort -u)" ]'
cp -r f2/rank0 f2/rank1 f2/rank2 f2/rank3 early/
head -20 f2/rank1/steps.jsonl >early/rank1/steps.jsonl
last=$(sed -n '$s/^{"step":\([0-9]*\),.*/\1/p' early/rank1/steps.jsonl)
"$TSCOPE_BIN" --no-index --export heatmap early >early.csv 2>early.err
# rows with a slowdown past the last common step, and rows without one up to it: none
awk -F, -v s="$last" 'NR > 1 && (($2 > s) == ($6 != ""))' early.csv >early.odd
tap_check "heatmap, rank 1 ends at step $last: the note says the slowdown after it is not judged" \
	'grep -qx "tscope-tui: note on .heatmap.: relative slowdown not judged after step $last, the last step every rank \
has: no median over every rank there" early.err && [ -n "$last" ] && [ ! -s early.odd ]'
"$TSCOPE_BIN" --export budget f2 >budget.csv
tap_check "budget: whole-run line (all ranks) then one per rank" '[ "$(wc -l <budget.csv)" -eq 6 ] && sed -n 2p budget.csv | grep -q "^run,,200,2.725,,0.7798"'
"$TSCOPE_BIN" --export budget --filter "scope=rank rank=2" f2 >b2.csv
tap_check "budget: filter by rank" '[ "$(wc -l <b2.csv)" -eq 2 ] && grep -q "^rank,2,50,0.775," b2.csv'

# mkph DIR RANK PHASES [RUNJSON]: 4 steps of rank RANK with the given phases (a JSON members list)
mkph() {
	mkdir -p "$1/rank$2"
	printf '{"name":"%s","rank":%d,"world_size":2%s}\n' "$1" "$2" "${4:-}" >"$1/rank$2/run.json"
	for s in 0 1 2 3; do printf '{"step":%d,"phases":{%s}}\n' $s "$3"; done >"$1/rank$2/steps.jsonl"
}
# only rank 0 records a data phase: the run line is rank 0's alone, "partial" (it added rank
# 1's data as 0 s: useful fraction 0.857 of 7 s, 1 by construction with 63 ranks like rank 1);
# no top recoverable: without MFU the compute overhead, unknown, could outweigh data_stall
mkph mixph 0 '"data":0.25,"forward":0.25,"backward":0.5'
mkph mixph 1 '"forward":0.25,"backward":0.5'
"$TSCOPE_BIN" --no-index --export budget mixph >mixph.csv 2>/dev/null
tap_eq "budget: a phase a rank does not record is not 0 s: the run line adds only the ranks that record it" \
	"partial,,4,4,,0.75,3,,1,,, rank,0,4,4,,0.75,3,,1,,, rank,1,4,3,,,3,,,,," \
	"$(sed 1d mixph.csv | paste -sd' ')"
# rank 0 records data, rank 1 comm: no rank measures every line, no run figure
mkph mixdc 0 '"data":0.25,"forward":0.25,"backward":0.5'
mkph mixdc 1 '"forward":0.25,"backward":0.5,"comm":0.25'
"$TSCOPE_BIN" --no-index --export budget mixdc >mixdc.csv 2>/dev/null
tap_eq "... no rank records every phase of the run: the run line empty, partial; the ranks' rows stay" \
	"partial,,,,,,,,,,, rank,0,4 rank,1,4" \
	"$(sed -n 2p mixdc.csv) $(sed 1,2d mixdc.csv | cut -d, -f1-3 | paste -sd' ')"
# FLOPs and peak in rank 0's run.json alone: rank 1's compute is not useful compute of the run's MFU
mkph mixmfu 0 '"data":0.25,"forward":0.25,"backward":0.5' ',"flops_per_step":1e12,"peak_flops":4e12'
mkph mixmfu 1 '"data":0.25,"forward":0.25,"backward":0.5'
"$TSCOPE_BIN" --no-index --export budget mixmfu >mixmfu.csv 2>/dev/null
tap_eq "... a rank without MFU is left out of a run line with one: partial, rank 0's MFU" \
	"partial,,4,4,0.25" "$(sed -n 2p mixmfu.csv | cut -d, -f1-5)"

# The value of column $1 (by name) on every row of CSV file $2, one a line.
col_of() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$2"; }

# the demo: rank 3 the straggler, the 15 others judged not; its five findings by severity
demo="$TSCOPE_ROOT/testdata/demo"
"$TSCOPE_BIN" --export ranks "$demo" >demo_ranks.csv
tap_check "ranks: a rank judged not a straggler says no (15), the straggler yes" \
	'[ "$(col_of straggler demo_ranks.csv | sort | uniq -c | tr -s " " | paste -sd/)" = " 15 no/ 1 yes" ]'
"$TSCOPE_BIN" --export ranks --filter "straggler=no" "$demo" >strag_no.csv
"$TSCOPE_BIN" --export ranks --filter "straggler!=-" "$demo" >strag_any.csv
"$TSCOPE_BIN" --export ranks --filter "straggler=" "$demo" >strag_missing.csv 2>/dev/null
tap_check "--filter: straggler=no keeps the 15, straggler!=- all 16, straggler= (missing) none" \
	'[ "$(wc -l <strag_no.csv)" -eq 16 ] && [ "$(wc -l <strag_any.csv)" -eq 17 ] &&
	 [ "$(wc -l <strag_missing.csv)" -eq 1 ]'
for s in -severity severity; do
	"$TSCOPE_BIN" --export findings --sort $s "$demo" | cut -d, -f1 | sed 1d | paste -sd' ' >"sev$s.txt"
done
tap_check "findings: --sort -severity is high, med, low (not A to Z)" \
	'[ "$(cat sev-severity.txt)" = "high high med med low" ]'
tap_check "findings: --sort severity is low, med, high" '[ "$(cat sevseverity.txt)" = "low med med high high" ]'

# rank 2 without records: no step on every rank, nothing judged; memory still recorded
cp -r "$TSCOPE_ROOT/testdata/demo" dead
: >dead/rank2/steps.jsonl
"$TSCOPE_BIN" --no-index --export ranks dead >dead.csv 2>/dev/null
tap_check "no aligned step (rank 2 has no record): every straggler cell n/a" \
	'[ "$(col_of straggler dead.csv | sort -u)" = n/a ] && [ "$(col_of straggler dead.csv | wc -l)" -eq 16 ]'
tap_check "no aligned step: each rank's own memory peak, none for rank 2" \
	'[ "$(col_of mem_peak_mb dead.csv | grep -c "^58[0-9][0-9]\.")" -eq 15 ] &&
	 [ -z "$(awk -F, "\$1 == 2" dead.csv | cut -d, -f12)" ]'

# ranks with run.json alone (n_steps 205): no row of 0 records and 0 missing steps
for r in 0 1; do
	mkdir -p meta/rank$r
	printf '{"name":"m","rank":%d,"world_size":2,"environment":{"gpu_count":2},"n_steps":205}\n' $r \
		>meta/rank$r/run.json
done
for v in ranks nodes; do
	"$TSCOPE_BIN" --no-index --export $v meta >meta_$v.csv 2>meta_$v.err
	tap_check "run.json alone: $v refused as steps is, no row" \
		'[ $? -eq 1 ] && [ ! -s meta_$v.csv ] &&
		 grep -q "^tscope-tui: view .$v. is not available for this run: no step records in this run" meta_$v.err'
done

# metric names longer than any buffer, alike in case or after their kind's unit
a=$(printf '%0200d' 0 | tr 0 x)A
b=$(printf '%0200d' 0 | tr 0 x)B
mkdir -p longn/rank0
for i in 0 1 2; do
	printf '{"step":%d,"phases":{"forward":0.01,"loss":0.002},' $i
	printf '"scalars":{"%s":%d,"%s":%d,"loss_ms":1,"LOSS_MS":2,"step":7}}\n' "$a" $i "$b" $((2 - i))
done >longn/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export steps longn >longn.csv 2>/dev/null
tap_check "steps: long metric names whole, names taken get #2, #3" \
	'head -1 longn.csv | grep -qx "rank,step,timestamp,step_time_ms,forward_ms,loss_ms,$a,$b,loss_ms#2,LOSS_MS#3,step#2"'
"$TSCOPE_BIN" --no-index --export steps --sort "$a" --filter "$b>0" longn >la.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps --sort "-$b" --filter "loss_ms#2=1 LOSS_MS#3=2 step#2=7" longn \
	>lb.csv 2>/dev/null
tap_check "steps: --sort and --filter find each of them" \
	'[ "$(col_of step la.csv | tr "\n" " ")" = "0 1 " ] && [ "$(col_of step lb.csv | tr "\n" " ")" = "0 1 2 " ]'
tap_plan
