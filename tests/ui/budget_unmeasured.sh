#!/bin/sh
# budget_unmeasured.sh: an efficiency budget line that nothing in the run measures is
# n/a, never "0 s 0.0% recoverable", and the efficiency of a run that records only its
# compute (no data, comm or other phase, no FLOPs/peak) is not judged, where it said
# 100%: the Budget pane, its status line, the Overview's budget line, the `budget` view
# (empty cells) and the default report; --compat pytscope keeps pytscope's lines. A
# rank with fewer steps than the pane's windows shows a window a step, no empty ones
# between them (headless, scripted keys). The pane opens when any rank has a budget
# (not only rank 0) and starts on one that has; the report says which rules read rank 0
# alone and found nothing to judge there. Its per step windows read the records after
# --warmup, as the budget does, and a rank with none left says why (no windows); a run of
# one rank without a budget gets the same reason from the pane, the report and the export.
# Without FLOPs/peak the pane says "compute X%" (all compute is useful compute then: no
# efficiency) on its budget line, rank rows, windows and status row, as the Overview does,
# and rec n/a (the compute overhead, recoverable too, is unknown); with them eff and rec.
# A run without a compute phase has no useful compute: the status row says "useful -", not 0 s.
# A share a rule judges keeps its side of the bar (19.996%, not 20.0%: pane and Overview).
# Without MFU no top recoverable line is named while the unknown compute overhead could be
# the larger (Overview, budget view). Time in a phase the budget does not weigh is named
# under the pane's budget lines and in the budget view's note (stderr of --export).
set -u
BIN=${TSCOPE_BIN:?}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TMP" || exit 1
# mkrun DIR PHASES: one rank, 3 steps of the given phases (a JSON members list)
mkrun() {
	mkdir -p "$1/rank0"
	printf '{"name": "t", "config": {}, "rank": 0, "world_size": 1, "n_steps": 3}\n' >"$1/rank0/run.json"
	ph=$2
	for s in 0 1 2; do
		printf '{"step":%d,"timestamp":%d.5,"phases":{%s}}\n' "$s" "$((1000 + s))" "$ph"
	done >"$1/rank0/steps.jsonl"
}
mkrun fwd '"forward":0.25,"backward":0.5'
mkrun data '"forward":0.25,"backward":0.5,"data":0.25'
mkrun dataonly '"data":0.25'
printf '5\n:dump %s\n1\n:dump %s\nq\n' "$TMP/bp.txt" "$TMP/ov.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index fwd >/dev/null 2>err
tap_rc $? "the explorer opens a compute-only run and exits 0"
tap_check "Budget pane: efficiency n/a, not 100%" \
	'grep -q "efficiency n/a: only compute is recorded (no data, comm or other phase)" bp.txt && ! grep -q "100.0%, MFU" bp.txt'
tap_check "Budget pane: unmeasured lines n/a, not 0 s recoverable" \
	'grep -q "data_stall .* - *n/a not recorded" bp.txt && grep -q "communication .* - *n/a not recorded" bp.txt &&
	 grep -q "compute_overhead .* - *n/a no FLOPs/peak" bp.txt && ! grep -q "0 s   0.0% recoverable" bp.txt'
tap_check "Budget pane: per rank and per window eff n/a" \
	'grep -q "rank 0 .*eff   n/a rec  n/a" bp.txt && grep -q "steps 2-2 .*eff   n/a" bp.txt'
tap_check "Budget pane: 3 steps, 3 windows, no empty window between them" \
	'[ "$(grep -c "^ steps [0-9]-[0-9] " bp.txt)" -eq 3 ] && ! grep -q "^ steps -" bp.txt'
tap_check "Budget pane status line: efficiency n/a" 'grep -q "rank 0 .*efficiency n/a" bp.txt'
tap_check "Overview: the budget is n/a, only compute is recorded" \
	'grep -q "budget  *n/a: only compute is recorded" ov.txt'

"$BIN" --export budget --no-index fwd >fwd.csv 2>/dev/null
tap_check "budget view: efficiency and the unmeasured lines are empty cells" \
	'grep -q "^run,,3,2.25,,,2.25,,,,,$" fwd.csv && grep -q "^rank,0,3,2.25,,,2.25,,,,,$" fwd.csv'
"$BIN" --print --color never --no-index fwd >fwd.txt 2>&1
tap_check "report: says no efficiency is judged" \
	'grep -q "^  no efficiency is judged: only compute is recorded" fwd.txt'
"$BIN" --print --compat pytscope --color never --no-index fwd >fwdc.txt 2>&1
tap_check "--compat pytscope: pytscope's budget lines, no such note" \
	'grep -q "^  useful_compute .*100.0%" fwdc.txt && ! grep -q "no efficiency is judged" fwdc.txt'

"$BIN" --export budget --no-index data >data.csv 2>/dev/null
tap_check "a run with a data phase: efficiency judged, comm and other empty, data measured" \
	'grep -q "^rank,0,3,3,,0.75,2.25,,0.75,,,$" data.csv'
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index data >/dev/null 2>err
tap_check "Budget pane of that run: compute 75.0% (no FLOPs/peak), data 25.0% recoverable, comm n/a" \
	'grep -q "compute 75.0%, MFU n/a" bp.txt && grep -q "data_stall .* 25.0% recoverable" bp.txt &&
	 grep -q "communication .* - *n/a not recorded" bp.txt'
# Without FLOPs/peak the useful compute is all compute: its share is no efficiency (the
# slowest rank's would read the highest) and the recoverable lines leave out the compute
# overhead nothing measures, so the rows say "compute" and rec n/a, as the Overview does.
tap_check "... its rank rows, windows and status row: compute 75.0%, rec n/a, no efficiency" \
	'grep -q "^ rank 0 .* compute  75.0% rec n/a$" bp.txt && grep -q "^ steps 2-2 .* compute  75.0% rec n/a$" bp.txt &&
	 grep -q "^ rank 0  rank wall 3 s  useful 2.25 s  compute 75.0%  data_stall" bp.txt &&
	 ! grep -q "efficiency [0-9]" bp.txt && ! grep -q "eff  *[0-9]" bp.txt'
tap_check "... the Overview's budget line says the same compute share" \
	'grep -q "budget  *compute 75.0% of rank wall 3 s (rank 0); MFU n/a" ov.txt'
mkrun mfu '"forward":0.25,"backward":0.5,"data":0.25'
printf '{"name": "t", "config": {}, "rank": 0, "world_size": 1, "n_steps": 3, "flops_per_step": 1e12, ' \
	>mfu/rank0/run.json
printf '"peak_flops": 1e13}\n' >>mfu/rank0/run.json
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index mfu >/dev/null 2>err
tap_check "with FLOPs and peak: efficiency 10.0% (the MFU), eff and rec on the rows and the status row" \
	'grep -q "rank wall 3 s, efficiency 10.0% .*MFU 10.0%" bp.txt && grep -q "^ rank 0 .* eff  10.0% rec 90.0%$" bp.txt &&
	 grep -q "^ steps 2-2 .* eff  10.0% rec 90.0%$" bp.txt && grep -q "^ rank 0  rank wall .*  efficiency 10.0%  " bp.txt'
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index dataonly >/dev/null 2>err
tap_check "a run without a compute phase: useful compute n/a, efficiency n/a, data measured" \
	'grep -q "efficiency n/a: no compute phase is recorded" bp.txt &&
	 grep -q "useful_compute .* - *n/a not recorded" bp.txt && grep -q "data_stall .*100.0% recoverable" bp.txt'
tap_check "... its status row: useful -, not 0 s" \
	'grep -q "^ rank 0  rank wall 750 ms  useful -  efficiency n/a  data_stall" bp.txt &&
	 ! grep -q "useful 0 s" bp.txt'

# FLOPs and peak known, no compute phase: MFU would weigh nothing, so it is n/a (not
# pytscope's "MFU 0.0%"), and the finding is the recoverable share, not "MFU is 0%".
mkrun flops '"data":0.25,"comm":0.5'
printf '{"name": "t", "config": {}, "rank": 0, "world_size": 1, "n_steps": 3, "flops_per_step": 1e12, ' \
	>flops/rank0/run.json
printf '"peak_flops": 1e14}\n' >>flops/rank0/run.json
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index flops >/dev/null 2>err
tap_check "FLOPs/peak without a compute phase: the pane's MFU n/a, said why; no 0.0%" \
	'grep -q "efficiency n/a: no compute phase is recorded, MFU n/a$" bp.txt &&
	 ! grep -q "MFU 0.0%" bp.txt && grep -q "compute_overhead .* - *n/a not recorded" bp.txt'
tap_check "... the Overview's budget line: n/a, MFU n/a, one reason" \
	'grep -q "budget  *n/a: no compute phase is recorded, rank wall 2.25 s (rank 0); MFU n/a$" ov.txt'
"$BIN" --print --color never --no-index flops >flops.txt 2>&1
tap_check "... the report: useful_compute n/a (not recorded), no \"MFU is 0%\" finding" \
	'grep -q "^  useful_compute  *n/a  *- (not recorded)$" flops.txt && ! grep -q "MFU is 0%" flops.txt &&
	 grep -q "(EFFICIENCY.RECOVERABLE)$" flops.txt'
"$BIN" --export budget --no-index flops >flops.csv 2>/dev/null
tap_check "... the budget view: the MFU cell empty" 'grep -q "^rank,0,3,2.25,,,,,0.75,1.5,,communication$" flops.csv'
"$BIN" --print --compat pytscope --color never --no-index flops >flopsc.txt 2>&1
tap_check "--compat pytscope: pytscope's MFU 0.0% and its finding" \
	'grep -q "MFU 0.0%" flopsc.txt && grep -q "MFU is 0%" flopsc.txt'

# Rank 0 records no phase, rank 1 does: the pane opens on rank 1; rank 0 has no budget.
mkrun r0bare '"forward":0.25,"backward":0.5,"data":0.25'
mv r0bare/rank0 r0bare/rank1
sed 's/"rank": 0, "world_size": 1/"rank": 1, "world_size": 2/' r0bare/rank1/run.json >r0bare/rank1/r &&
	mv r0bare/rank1/r r0bare/rank1/run.json
mkdir r0bare/rank0
sed 's/"world_size": 1/"world_size": 2/' fwd/rank0/run.json >r0bare/rank0/run.json
printf '{"step":%d,"timestamp":%d.5}\n' 0 1000 1 1001 2 1002 >r0bare/rank0/steps.jsonl
printf '5\n:dump %s\nk\n:dump %s\nq\n' "$TMP/r0.txt" "$TMP/r0k.txt" >r0.keys
TSCOPE_SCRIPT=r0.keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index r0bare >/dev/null 2>err
tap_check "rank 0 without phases, rank 1 with: the Budget pane opens on rank 1" \
	'grep -q "compute 75.0%" r0.txt && grep -q "^ *rank 1 .*compute  75.0%" r0.txt &&
	 ! grep -q "no efficiency budget" r0.txt'
tap_check "... and says rank 0 has no budget" 'grep -q "rank 0 has no budget" r0k.txt'
"$BIN" --print --color never --no-index r0bare >r0.out 2>&1
tap_check "... the report's findings: rank 0's phase rules and efficiency not judged, said whose" \
	'grep -q "^  - phase-share rules (no data, forward, backward or optimizer phase recorded by rank 0)$" r0.out &&
	 grep -q "^  - efficiency (no phase time recorded by rank 0)$" r0.out'

# --warmup: the windows read the budget's records, those after it (they began at step 0,
# the skipped steps' figures beside the rank's); a rank with none left says why.
mkdir -p warm/rank0 warm/rank1
awk 'BEGIN { for (s = 0; s < 200; s++)
	printf "{\"step\":%d,\"timestamp\":%d.5,\"phases\":{\"data\":%s,\"forward\":0.5,\"comm\":0.25}}\n",
		s, 1000 + s, s < 50 ? "4" : "0.25" }' >warm/rank1/steps.jsonl
head -30 warm/rank1/steps.jsonl >warm/rank0/steps.jsonl
printf '5\n:dump %s\nq\n' "$TMP/w1.txt" >w1.keys
TSCOPE_SCRIPT=w1.keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index --warmup 50 warm/rank1 >/dev/null 2>err
tap_check "--warmup 50: the windows start at step 50, their compute share the rank's" \
	'grep -q "^ Rank 1 per step window, after --warmup 50$" w1.txt && grep -q "^ steps 50-" w1.txt &&
	 ! grep -q "^ steps [0-4]\?[0-9]-" w1.txt && [ "$(grep -c "^ steps .*compute  50.0% rec n/a" w1.txt)" -eq 8 ]'
printf '5\nk\n:dump %s\nq\n' "$TMP/w0.txt" >w0.keys
TSCOPE_SCRIPT=w0.keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index --warmup 50 warm >/dev/null 2>err
why="all 30 records of rank 0 are inside --warmup 50 (nothing left to analyse)"
tap_check "a rank with every record inside --warmup: says why, no windows of the steps skipped" \
	'grep -q "^ rank 0 has no budget: $why" w0.txt && grep -q "^ Rank 0 per step window: none; $why" w0.txt &&
	 ! grep -q "^ steps [0-9]" w0.txt'
# One rank, every record inside --warmup: the pane that cannot open, the report and the
# budget export give the one reason, naming the rank.
printf '5\n:dump %s\nq\n' "$TMP/wr.txt" >wr.keys
TSCOPE_SCRIPT=wr.keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index --warmup 5 fwd >/dev/null 2>err
"$BIN" --print --color never --no-index --warmup 5 fwd >wr.out 2>&1
"$BIN" --export budget --no-index --warmup 5 fwd >wr.csv 2>wr.err
why="all 3 records of rank 0 are inside --warmup 5 (nothing left to analyse)"
tap_check "one rank inside --warmup: the Budget pane, the report and the export say the same" \
	'grep -q "no efficiency budget: $why$" wr.txt && grep -q "^  budget  *n/a: $why$" wr.out &&
	 grep -q "no efficiency budget: $why$" wr.err'
# A share a rule judges keeps its side of the bar: a top recoverable line of 19.996%
# (EFFICIENCY.RECOVERABLE from 20%) reads so in the Budget pane and the Overview, not 20.0%.
mkrun edge '"forward":0.0048,"backward":0.0072,"comm":0.0029992500374981254'
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index edge >/dev/null 2>err
tap_check "a top recoverable 19.996%: the Budget pane and the Overview say 19.996%, not 20.0%" \
	'grep -q "communication .* 19.996% recoverable" bp.txt &&
	 grep -q "top recoverable  *n/a: .*; largest measured communication .* (19.996%)" ov.txt &&
	 ! grep -q "20\.0%" bp.txt ov.txt'
# Without MFU the compute overhead is unknown (the pane's rec n/a): no top recoverable line
# is named while it could be the larger (data 0.25 s of 1 s, compute 0.75 s), in the
# Overview, the report and the budget view (it named data_stall); one of at least the
# compute is the top whatever the overhead.
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index data >/dev/null 2>err
tap_check "no MFU, data shorter than the compute: top recoverable n/a in the Overview, said why" \
	'grep -q "top recoverable  *n/a: compute overhead unknown (MFU n/a); largest measured data_stall 750 ms (25.0%)" \
ov.txt'
mkrun dbig '"forward":0.25,"backward":0.25,"data":0.75'
"$BIN" --export budget --no-index dbig >dbig.csv 2>/dev/null
tap_check "... data longer than the compute: top recoverable data_stall" \
	'grep -q "^rank,0,3,3.75,,0.4,1.5,,2.25,,,data_stall$" dbig.csv'
# Time in a phase the budget does not weigh: the pane names it under the budget lines, as
# the report's "left out:" line, and the budget view's note says it on stderr (the pane
# said efficiency 16.7% with no word of it).
mkrun left '"data_loading":0.05,"forward":0.02,"backward":0.04'
printf '{"name": "t", "rank": 0, "world_size": 1, "flops_per_step": 1e12, "peak_flops": 1e14}\n' \
	>left/rank0/run.json
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$BIN" --tui --no-index left >/dev/null 2>err
tap_check "a phase the budget does not weigh: the Budget pane names its time under the lines" \
	'grep -q "efficiency 16.7%" bp.txt && grep -qx " left out: data_loading 150 ms, a phase the budget does not weigh \
(45.5% of the phase time)" bp.txt'
"$BIN" --export budget --no-index left >left.csv 2>left.err
tap_check "... the budget view's note on stderr" \
	'grep -qx "tscope-tui: note on .budget.: the budget leaves out data_loading 150 ms, a phase the budget does \
not weigh (45.5% of the phase time): rank_wall_s, mfu, useful_fraction and top_recoverable are of the phases it \
weighs" left.err'
tap_plan
