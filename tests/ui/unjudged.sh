#!/bin/sh
# unjudged.sh: a run of run.json files without a step record (pytscope wrote no
# steps.jsonl) opens in the explorer, and nothing claims a verdict: the Overview says
# the steps are none (not "0 aligned", not a "-1--1" span) and that nothing was judged
# (not "no findings"), the Findings tab and `--export findings` say why instead of an
# empty list, the Steps pane says the rank has no records (no 0 s axis); a run with
# records keeps its findings (headless, scripted keys). A run in which some ranks have
# no step record, or whose ranks share no step, says the stragglers were not judged and
# why, where it said nothing (pytscope's report, --compat pytscope, still says nothing).
# A run with records and no finding lists the rules that could not judge it and why
# (too few steps, no loss, memory or phase) under "no findings": the report, the
# Overview, and the Findings tab and --export findings (a "not judged" row each);
# --compat pytscope keeps "No issues found". A run
# without a comm phase has comm n/a in the headline and the report, not 0%; one whose
# compute is 0 everywhere (or has no compute phase) judges no straggler or imbalance, and
# without a compute phase no run wall or comm share either (not comm 100%).
set -u
BIN=${TSCOPE_BIN:?}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TMP" || exit 1
RUN="$TMP/meta_only"
for r in 0 1; do
	mkdir -p "$RUN/rank$r"
	printf '{"name": "ddp", "config": {}, "rank": %d, "world_size": 2, "n_steps": 205}\n' "$r" \
		>"$RUN/rank$r/run.json"
done
printf '1\n:dump %s\n6\n:dump %s\n4\n:dump %s\nq\n' "$TMP/ov.txt" "$TMP/fi.txt" "$TMP/st.txt" >"$TMP/keys"
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=30 COLUMNS=140 "$BIN" --tui "$RUN" >/dev/null 2>"$TMP/err"
tap_rc $? "the explorer opens a run of run.json files alone and exits 0"
tap_check "Overview: steps none, no rank has a step record" \
	'grep -q "steps  *none: no rank has a step record" "$TMP/ov.txt"'
tap_check "Overview: steps found none of run.json n_steps (no -1--1 span)" \
	'grep -q "steps found  *none of run.json n_steps 205" "$TMP/ov.txt" && ! grep -q -- "-1--1" "$TMP/ov.txt"'
tap_check "Overview: findings not judged, not \"no findings\"" \
	'grep -q "not judged: no step record" "$TMP/ov.txt" && ! grep -q "no findings" "$TMP/ov.txt"'
tap_check "Findings tab: why nothing was judged, not an empty table" \
	'grep -q "findings: not judged: no step record" "$TMP/fi.txt" && ! grep -q "no rows" "$TMP/fi.txt"'
tap_check "Steps pane: the rank has no step records (no 0 s axis)" \
	'grep -q "no step records for this rank" "$TMP/st.txt" && ! grep -q "^0 s" "$TMP/st.txt"'
"$BIN" --export findings "$RUN" >"$TMP/f.csv" 2>"$TMP/f.err"
rc=$?
tap_check "--export findings fails (exit 1) and says why" \
	'[ "$rc" -eq 1 ] && [ ! -s "$TMP/f.csv" ] && grep -q "not judged: no step record" "$TMP/f.err"'
"$BIN" --export all -o "$TMP/all" "$RUN" >/dev/null 2>&1
tap_rc $? "--export all still writes what there is"
tap_check "and writes no findings.csv" '[ -f "$TMP/all/sources.csv" ] && [ ! -f "$TMP/all/findings.csv" ]'
"$BIN" --export findings "$TSCOPE_ROOT/testdata/demo" >"$TMP/demo.csv" 2>/dev/null
rc=$?
tap_check "a run with records still exports its findings" \
	'[ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/demo.csv")" -gt 1 ]'

PART="$TMP/part"
mkdir -p "$PART"
cp -r "$TSCOPE_ROOT/testdata/demo/rank0" "$TSCOPE_ROOT/testdata/demo/rank1" "$TSCOPE_ROOT/testdata/demo/rank2" "$PART/"
: >"$PART/rank2/steps.jsonl"
mkdir -p "$PART/rank3" && cp "$TSCOPE_ROOT/testdata/demo/rank3/run.json" "$PART/rank3/"
"$BIN" --print --color never "$PART" >"$TMP/part.txt" 2>/dev/null
tap_check "ranks without a step record: the stragglers are not judged, and the ranks named" \
	'grep -q "stragglers  *not judged: ranks 2, 3 have no step record, so no step is on every rank" "$TMP/part.txt"'
"$BIN" --print --compat pytscope "$PART" >"$TMP/part_compat.txt" 2>/dev/null
tap_check "--compat pytscope keeps pytscope's report (no headline)" '! grep -q "not judged" "$TMP/part_compat.txt"'
printf '1\n:dump %s\nq\n' "$TMP/part_ov.txt" >"$TMP/keys2"
TSCOPE_SCRIPT="$TMP/keys2" TERM=dumb LINES=30 COLUMNS=160 "$BIN" --tui "$PART" >/dev/null 2>&1
tap_check "the Overview says the same" 'grep -q "stragglers  *not judged: ranks 2, 3 have" "$TMP/part_ov.txt"'
tap_check "and its data quality counts the note on rank 3's missing steps.jsonl, and the warnings that the run.json of ranks 2 and 3 (n_steps) says their step logs should hold steps" \
	'grep -q "data quality .*0 errors, 2 warnings, 1 note$" "$TMP/part_ov.txt"'
"$BIN" --print --color never --ranks 0-1 "$PART" >"$TMP/part01.txt" 2>/dev/null
tap_check "--ranks 0-1 leaves them out and judges the rest" \
	'grep -q "stragglers  *none" "$TMP/part01.txt"'

DISJ="$TMP/disjoint"
for r in 0 1; do
	mkdir -p "$DISJ/rank$r"
	for k in 0 1; do
		printf '{"step": %d, "phases": {"forward": 0.01, "comm": 0.002}}\n' $((r * 2 + k))
	done >"$DISJ/rank$r/steps.jsonl"
done
"$BIN" --print --color never "$DISJ" >"$TMP/disj.txt" 2>/dev/null
tap_check "ranks whose steps do not overlap: not judged, no step on every rank" \
	'grep -q "stragglers  *not judged: no step number is on every rank" "$TMP/disj.txt"'
tap_check "and the findings say which rules could not judge it" \
	'grep -q "^  - stragglers and imbalance (no step number is on every rank)$" "$TMP/disj.txt"'
tap_check "forward without backward: the phases missing named, not forward" \
	'grep -q "^  - phase-share rules (no data, backward or optimizer phase recorded by rank 0)$" "$TMP/disj.txt"'

ONE="$TMP/one_step"
for r in 0 1; do
	mkdir -p "$ONE/rank$r"
	printf '{"step": 0, "timestamp": 1000.5, "phases": {"forward": 0.25, "backward": 0.5, "comm": 0.1}}\n' \
		>"$ONE/rank$r/steps.jsonl"
done
"$BIN" --print --color never "$ONE" >"$TMP/one.txt" 2>/dev/null
tap_check "no finding on one step: the report lists what could not be judged, and why" \
	'grep -q "^. No findings: no rule fired on this run; these rules could not judge it:$" "$TMP/one.txt" &&
	 grep -q "^  - stragglers (1 aligned step, the noise test needs 16)$" "$TMP/one.txt" &&
	 grep -q "^  - step-time jitter and correlated spikes (rank 0: 1 step, they need 10 and 8)$" "$TMP/one.txt" &&
	 grep -q "^  - phase-share rules (no data or optimizer phase recorded by rank 0)$" "$TMP/one.txt" &&
	 grep -q "^  - loss divergence and plateau (no loss recorded by rank 0)$" "$TMP/one.txt" &&
	 grep -q "^  - memory (no memory recorded by rank 0)$" "$TMP/one.txt"'
"$BIN" --print --color always "$ONE" >"$TMP/one_c.txt" 2>/dev/null
tap_check "TIMING over one step: CV n/a, not 0.00" 'grep -q "^. TIMING (rank 0) — 1 step .*· CV n/a)$" "$TMP/one.txt"'
tap_check "its LED is amber, not green" 'grep -q "^.\[33m●" "$TMP/one_c.txt"'
"$BIN" --print --compat pytscope --color never "$ONE" >"$TMP/one_compat.txt" 2>/dev/null
tap_check "--compat pytscope: pytscope's line alone, and its CV 0.00" \
	'grep -q "^● No issues found. Training looks balanced.$" "$TMP/one_compat.txt" &&
	 ! grep -q "could not judge" "$TMP/one_compat.txt" && grep -q "· CV 0.00)$" "$TMP/one_compat.txt"'
printf '1\n:dump %s\n6\n:dump %s\nq\n' "$TMP/one_ov.txt" "$TMP/one_fi.txt" >"$TMP/keys3"
TSCOPE_SCRIPT="$TMP/keys3" TERM=dumb LINES=40 COLUMNS=160 "$BIN" --tui "$ONE" >/dev/null 2>&1
tap_check "Overview: no findings, and what was not judged" \
	'grep -q "no findings; not judged: stragglers (1 aligned step, the noise test needs 16); step-time jitter" "$TMP/one_ov.txt"'
tap_check "Findings tab: the same, a not judged row each, instead of \"no rows\"" \
	'grep -q "^.not judged .*stragglers (1 aligned step, the noise test needs 16)" "$TMP/one_fi.txt" &&
	 ! grep -q "no rows" "$TMP/one_fi.txt"'
"$BIN" --export findings "$ONE" >"$TMP/one_f.csv" 2>/dev/null
rc=$?
tap_check "--export findings: a not judged row each, not the header alone (\"no issues\"), exit 0" \
	'[ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/one_f.csv")" -gt 1 ] &&
	 [ "$(sed 1d "$TMP/one_f.csv" | grep -vc "^not judged,")" -eq 0 ]'

NOCOMM="$TMP/no_comm"
for r in 0 1; do
	mkdir -p "$NOCOMM/rank$r"
	for k in 0 1 2; do
		printf '{"step": %d, "phases": {"forward": 0.25, "backward": 0.5}}\n' "$k"
	done >"$NOCOMM/rank$r/steps.jsonl"
done
"$BIN" --print --color never "$NOCOMM" >"$TMP/nocomm.txt" 2>/dev/null
tap_check "no comm phase: the headline and DISTRIBUTED say comm n/a, not 0%" \
	'grep -q "imbalance .*; comm n/a (no comm phase recorded)$" "$TMP/nocomm.txt" &&
	 grep -q "^  mean step wall 750.0 ms · comm n/a · imbalance CV" "$TMP/nocomm.txt"'
"$BIN" --print --compat pytscope --color never "$NOCOMM" >"$TMP/nocomm_c.txt" 2>/dev/null
tap_check "--compat pytscope: pytscope's comm 0%" 'grep -q "^  mean step wall 750.0 ms · comm 0% ·" "$TMP/nocomm_c.txt"'
for run in no_comm one_step; do # the heatmap's fourth metric (three m's from compute)
	printf '2\nm\nm\nm\n:dump %s\nq\n' "$TMP/${run}_h.txt" >"$TMP/keys_$run"
	XDG_STATE_HOME="$TMP/state" TSCOPE_SCRIPT="$TMP/keys_$run" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui \
		--no-index "$TMP/$run" >/dev/null 2>&1
done
tap_check "heatmap: no comm metric without a comm phase (m goes from step time to the first phase)" \
	'grep -q "^ forward: " "$TMP/no_comm_h.txt" && grep -q "^ comm: " "$TMP/one_step_h.txt"'

# Only comm recorded: every rank's compute is 0, so nothing is judged from it.
NOCPU="$TMP/no_compute"
for r in 0 1; do
	mkdir -p "$NOCPU/rank$r"
	for k in $(seq 0 19); do printf '{"step": %d, "phases": {"comm": 0.0%d}}\n' "$k" $((r + 1)); done \
		>"$NOCPU/rank$r/steps.jsonl"
done
"$BIN" --print --color always --no-index "$NOCPU" >"$TMP/nocpu.txt" 2>/dev/null
tap_check "no compute phase: imbalance, stragglers, run wall and comm share not judged, said why (not 100%)" \
	'grep -q "imbalance .*n/a: no compute phase recorded; comm n/a (no compute phase recorded)" "$TMP/nocpu.txt" &&
	 grep -q "run wall .*n/a: no compute phase recorded" "$TMP/nocpu.txt" &&
	 ! grep -q "COMM_BOUND" "$TMP/nocpu.txt" &&
	 grep -q "stragglers .*not judged: no compute phase recorded (data, forward, backward, optimizer, compute" \
		"$TMP/nocpu.txt"'
tap_check "... DISTRIBUTED amber, its compute figures n/a, no per-rank 0.00 ms" \
	'grep -q "^.\[33m●.*DISTRIBUTED" "$TMP/nocpu.txt" &&
	 grep -q "^  critical compute lost to imbalance n/a · median sync skew n/a$" "$TMP/nocpu.txt" &&
	 grep -q "^  per-rank compute: n/a (no compute phase recorded)$" "$TMP/nocpu.txt" &&
	 ! grep -q "0.00 ms ·" "$TMP/nocpu.txt"'
"$BIN" --print --compat pytscope --color never --no-index "$NOCPU" >"$TMP/nocpu_c.txt" 2>/dev/null
tap_check "--compat pytscope: pytscope's 0.00 ms per rank" 'grep -q "^    rank 1:    0.00 ms · " "$TMP/nocpu_c.txt"'
"$BIN" --export ranks --no-index "$NOCPU" >"$TMP/nocpu.csv" 2>/dev/null
tap_eq "ranks export: compute figures empty, straggler n/a" "0,20,,,,,,,,0,1,,n/a,,,|1,20,,,,,,,,0,1,,n/a,,," \
	"$(tail -n +2 "$TMP/nocpu.csv" | tr '\n' '|' | sed 's/|$//')"
"$BIN" --export heatmap --no-index "$NOCPU" >"$TMP/nocpu_h.csv" 2>/dev/null
tap_check "heatmap export: compute cells empty, not 0" '! grep -q "^[0-9]*,[0-9]*,[0-9]*,0," "$TMP/nocpu_h.csv" &&
	 grep -q "^1,19,19,,,,$" "$TMP/nocpu_h.csv"'
printf '2\n:dump %s\nq\n' "$TMP/nocpu_hm.txt" >"$TMP/keys_nocpu"
XDG_STATE_HOME="$TMP/state" TSCOPE_SCRIPT="$TMP/keys_nocpu" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui --no-index \
	"$NOCPU" >/dev/null 2>&1
tap_check "heatmap: no compute or slowdown metric, it opens on step time" 'grep -q "^ step time: " "$TMP/nocpu_hm.txt"'

# Phases recorded as zeros: every rank's compute is 0, nothing to weigh either
ZERO="$TMP/zero_compute"
for r in 0 1; do
	mkdir -p "$ZERO/rank$r"
	for k in $(seq 0 19); do printf '{"step": %d, "phases": {"forward": 0.0, "comm": 0.0}}\n' "$k"; done \
		>"$ZERO/rank$r/steps.jsonl"
done
"$BIN" --print --color never --no-index "$ZERO" >"$TMP/zero.txt" 2>/dev/null
tap_check "compute all 0: imbalance n/a, stragglers not judged, said why (not 'none', not 0.0%)" \
	'grep -q "^  imbalance  *n/a: every rank.s compute is 0; comm" "$TMP/zero.txt" &&
	 grep -q "^  stragglers  *not judged: every rank.s compute is 0 on every aligned step$" "$TMP/zero.txt" &&
	 grep -q "^  per-rank compute: n/a (every rank.s compute is 0)$" "$TMP/zero.txt" &&
	 grep -q "^  - stragglers and imbalance (every rank.s compute is 0)$" "$TMP/zero.txt"'
"$BIN" --export ranks --no-index "$ZERO" >"$TMP/zero.csv" 2>/dev/null
tap_eq "... the ranks view: the recorded zeros, the straggler column n/a" \
	"0,20,0,0,0.5,0,0,0,,0,1,,n/a,,,|1,20,0,0,0.5,0,0,0,,0,1,,n/a,,," \
	"$(tail -n +2 "$TMP/zero.csv" | tr '\n' '|' | sed 's/|$//')"
tap_plan
