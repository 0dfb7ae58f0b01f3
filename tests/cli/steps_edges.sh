#!/bin/sh
# steps_edges.sh: step logs at the edges of what the records say. A rank 0 whose records
# are all inside --warmup has no budget, and the report's budget line and EFFICIENCY
# BUDGET section say why (--compat pytscope prints neither, as pytscope); pytscope's
# timestamp 0.0 (its value when absent, spec pytscope.md §2) is missing, an empty cell,
# never an offset from the rank's first timestamp; timestamps are exported to the
# precision they are kept at (float32 offsets from the rank's first one: 0.1 s a week
# into the run), from the index too; rank dirs whose run.json disagree on world_size (an
# elastic job) are judged against the largest, the coverage line naming the values and
# which ranks say each and the ranks missing, and the stragglers line is qualified the
# same way. Steps a rank lacks between its first and last that the others have (a hole
# in its log; gen_demo runs edited) are on no rank-to-rank analysis: the headline's
# "ranks lack" line and a not-judged item name the steps and the ranks, in the report,
# the findings export and from the index, as for a rank that starts late; a fail-slow
# onset right after them is given as "after step 39, by step 60", not as exact. A record
# without any phase (an eval record's scalars) is natively no step: one logged by rank 0
# after its last step extends no span (no "ranks end"; steps found, missing_steps and
# coverage as without it, no heatmap column for it), from the index too; --compat
# pytscope keeps every record a step.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# rank DIR RANK WORLD N C: a rank dir of N records, compute C seconds a step
rank() {
	mkdir -p "$1/rank$2"
	printf '{"name": "e", "rank": %d, "world_size": %d, "n_steps": 200}\n' "$2" "$3" >"$1/rank$2/run.json"
	awk -v n="$4" -v c="$5" 'BEGIN { for (s = 0; s < n; s++)
		printf "{\"step\":%d,\"timestamp\":%.2f,\"phases\":{\"data\":0.001,\"forward\":%g,\"backward\":%g," \
			"\"comm\":0.002}}\n", s, 1000 + 0.02 * s, 0.4 * c, 0.6 * c }' >"$1/rank$2/steps.jsonl"
}

# --warmup past rank 0's records: the budget is n/a, said why (it was dropped silently).
rank warm0 0 2 30 0.015
rank warm0 1 2 200 0.010
"$TSCOPE_BIN" --print --color never --no-index --warmup 50 warm0 >warm0.out 2>/dev/null
why="all 30 records of rank 0 are inside --warmup 50 (nothing left to analyse)"
tap_check "--warmup past rank 0's records: the headline's budget line says why it is n/a" \
	'grep -qx "  budget  *n/a: $why" warm0.out'
tap_check "... and so does the EFFICIENCY BUDGET section" 'grep -qx "● EFFICIENCY BUDGET — n/a: $why" warm0.out'
"$TSCOPE_BIN" --print --compat pytscope --color never --no-index --warmup 50 warm0 >warm0c.out 2>/dev/null
tap_check "... --compat pytscope prints no budget section, as pytscope" \
	'! grep -q "BUDGET\|n/a: all 30" warm0c.out && grep -q "^● DISTRIBUTED" warm0c.out'
"$TSCOPE_BIN" --print --color never --no-index --warmup 10 warm0 >warm10.out 2>/dev/null
tap_check "... a budget left after --warmup: the usual lines" \
	'grep -q "^  budget  *compute [0-9.]*% of rank wall" warm10.out &&
	 grep -q "^  rank wall .* over 20 steps" warm10.out'

# Timestamps: 0.0 is absent; a week into the run, 0.1 s is what a float32 offset holds.
mkdir tszero tslong
printf '%s\n' '{"step":0,"timestamp":1795344081.2502363,"phases":{"forward":0.01}}' \
	'{"step":1,"timestamp":0.0,"phases":{"forward":0.01}}' \
	'{"step":2,"timestamp":1795344081.2702363,"phases":{"forward":0.01}}' >tszero/steps.jsonl
"$TSCOPE_BIN" --export steps --no-index tszero >tszero.csv 2>/dev/null
tap_check "timestamp 0.0 (pytscope's when absent): an empty cell, not a made-up value" \
	'[ "$(cut -d, -f3 tszero.csv | sed -n 3p)" = "" ] && ! grep -q ",-" tszero.csv'
tap_check "... the other records keep theirs, to the microsecond" \
	'cut -d, -f3 tszero.csv | sed -n 2p | grep -qx "1795344081.25023[67]" &&
	 cut -d, -f3 tszero.csv | sed -n 4p | grep -qx "1795344081.27023[67]"'
printf '%s\n' '{"step":0,"timestamp":1795344081.2502363,"phases":{"forward":0.01}}' \
	'{"step":1,"timestamp":1795344081.2715364,"phases":{"forward":0.01}}' \
	'{"step":2,"timestamp":1795430481.2715364,"phases":{"forward":0.01}}' \
	'{"step":3,"timestamp":1795948881.3736362,"phases":{"forward":0.01}}' \
	'{"step":4,"timestamp":1795948881.3958364,"phases":{"forward":0.01}}' >tslong/steps.jsonl
"$TSCOPE_BIN" --export steps --no-index tslong >tslong.csv 2>/dev/null
got=$(cut -d, -f3 tslong.csv | sed -n 3,6p | tr '\n' ' ')
tap_eq "timestamps to the precision kept: 1 us, 10 ms a day in, 0.1 s a week in" \
	"1795344081.271536 1795430481.27 1795948881.4 1795948881.4 " "$got"
"$TSCOPE_BIN" index tslong >/dev/null 2>&1 && "$TSCOPE_BIN" index tszero >/dev/null 2>&1
"$TSCOPE_BIN" --export steps tslong >tslong_idx.csv 2>/dev/null
"$TSCOPE_BIN" --export steps tszero >tszero_idx.csv 2>/dev/null
tap_check "... the same from the index" 'cmp -s tslong.csv tslong_idx.csv && cmp -s tszero.csv tszero_idx.csv'

# Elastic world_size: ranks 0-7 say 8, ranks 8-13 say 16; rank 12 is slow.
for r in $(seq 0 13); do
	w=8; [ "$r" -ge 8 ] && w=16
	c=0.010; [ "$r" = 12 ] && c=0.015
	rank elastic "$r" "$w" 200 "$c"
done
"$TSCOPE_BIN" --print --color never --no-index elastic >el.out 2>/dev/null
said="the ranks disagree on world_size: ranks 0-7 say 8, ranks 8-13 say 16; judged against the largest"
tap_check "ranks disagreeing on world_size: coverage names who says what, judged against the largest" \
	'grep -qx "  coverage  *14 of 16 ranks ($said); missing 14, 15" el.out'
said="ranks 14, 15 of world_size 16 missing; the ranks disagree on world_size (8, 16), judged against the largest"
tap_check "... the stragglers line is qualified the same way" \
	'grep -qx "  stragglers  *1 (rank 12: .*) among the 14 ranks loaded ($said)" el.out'
for r in $(seq 0 13); do sed 's/"world_size": 8,/"world_size": 16,/' "elastic/rank$r/run.json" >r.json &&
	mv r.json "elastic/rank$r/run.json"; done
"$TSCOPE_BIN" --print --color never --no-index elastic >el16.out 2>/dev/null
tap_check "all saying 16: the plain coverage and stragglers lines" \
	'grep -qx "  coverage  *14 of 16 ranks (world_size); missing 14, 15" el16.out &&
	 grep -qx "  stragglers  *1 (rank 12: .*) among the 14 ranks loaded (ranks 14, 15 of world_size 16 missing)" \
		el16.out'

# Steps a rank lacks in between: rank 1 of a 4-rank demo run has no record of steps
# 20-39, during which rank 2 is 1.4x slower (its slowdown is then on no aligned step).
# edit DIR PY: run the python3 body PY on each rank's records (r: rank, a: its records).
edit() {
	python3 - "$1" "$2" <<'EOF'
import json, os, sys
d, body = sys.argv[1], sys.argv[2]
for r in range(4):
    p = os.path.join(d, "rank%d" % r, "steps.jsonl")
    a = [json.loads(l) for l in open(p)]
    exec(body)
    open(p, "w").write("".join(json.dumps(x) + "\n" for x in a))
EOF
}
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
"$B/gen_demo" hole 4 60 >/dev/null
edit hole 'a = [x for x in a if r != 1 or not 20 <= x["step"] < 40]
for x in a:
    if r == 2 and 20 <= x["step"] < 40:
        x["phases"]["forward"] *= 1.4; x["phases"]["backward"] *= 1.4'
"$TSCOPE_BIN" --print --no-index --color never hole >hole.out 2>/dev/null
lack="rank 1 lacks steps 20-39 (20 steps other ranks have); cross-rank analyses leave them out"
tap_check "rank 1 lacks steps 20-39: the headline says so, and that cross-rank analyses leave them out" \
	'grep -qx "  ranks lack  *$lack" hole.out'
nj="stragglers and imbalance on steps 20-39 (rank 1 lacks them)"
tap_check "... the not-judged list names the steps and the rank" 'grep -qx "  - $nj" hole.out'
"$TSCOPE_BIN" --export findings --no-index hole >hole.csv 2>/dev/null
tap_check "... so does the findings export" 'grep -q "^not judged,DIST.STRAGGLER .*,$nj,,,," hole.csv'
"$TSCOPE_BIN" index hole >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never hole >hole_idx.out 2>/dev/null
tap_check "... the same from the index" '[ -f hole/.tscope-index/summary.tsx ] && cmp -s hole.out hole_idx.out'
"$B/gen_demo" holes 4 60 >/dev/null
edit holes 'a = [x for x in a if not (r == 1 and 20 <= x["step"] < 30 or r == 3 and x["step"] in (41, 45, 46, 47, 52))]'
"$TSCOPE_BIN" --print --no-index --color never holes >holes.out 2>/dev/null
some="steps 20-29, 41, 45-47 and 1 more"
tap_check "ranks 1 and 3 lack steps: the first stretches named, the rest counted" \
	'grep -q "^  ranks lack  *ranks 1,3 lack some of $some (15 steps other ranks have);" holes.out &&
	 grep -qx "  - stragglers and imbalance on $some (ranks 1,3 lack some of them)" holes.out'
"$B/gen_demo" nohole 4 60 >/dev/null
"$TSCOPE_BIN" --print --no-index --color never nohole >nohole.out 2>/dev/null
tap_check "no step lacking: no such line nor item" '! grep -q "ranks lack\|lacks\? \(some of \)\?them" nohole.out'
# ... and rank 2 1.4x slower from step 50 while rank 1 lacks steps 40-59: the change point
# is the first step judged after them, so the onset is "after step 39, by step 60", not 60
"$B/gen_demo" holeslow 4 80 >/dev/null
edit holeslow 'a = [x for x in a if r != 1 or not 40 <= x["step"] < 60]
for x in a:
    if r == 2 and x["step"] >= 50:
        x["phases"]["forward"] *= 1.4; x["phases"]["backward"] *= 1.4'
"$TSCOPE_BIN" --print --no-index --color never holeslow >hs.out 2>/dev/null
tap_check "a fail-slow onset right after steps a rank lacks: not given as exact, the steps between named" \
	'grep -q "^  \[HIGH\] Rank 2 turned slow after step 39, by step 60 (fail-slow)  (DIST.FAIL_SLOW)$" hs.out &&
	 grep -q "The steps between 39 and 60 are not on every rank, so not judged: it may have turned slow" hs.out'
"$TSCOPE_BIN" --export findings --no-index holeslow 2>/dev/null >hs.csv
tap_eq "... its evidence from step 40" "2,40,79" \
	"$(grep "^high,DIST.FAIL_SLOW," hs.csv | sed 's/.*(fail-slow)",//' | cut -d, -f1-3)"
"$TSCOPE_BIN" index holeslow >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never holeslow >hs_idx.out 2>/dev/null
tap_check "... the same from the index" '[ -f holeslow/.tscope-index/summary.tsx ] && cmp -s hs.out hs_idx.out'

# A phase-less eval record logged by rank 0 after its last step (step 60).
"$B/gen_demo" evalend 4 60 >/dev/null
edit evalend 'a += [{"step": 60, "timestamp": a[-1]["timestamp"] + 5, "scalars": {"eval_loss": 2.4}}] if r == 0 else []'
"$TSCOPE_BIN" --print --no-index --color never evalend >ee.out 2>/dev/null
tap_check "an eval record after rank 0's last step: no rank ends early, steps found 0-59, judged but for the nodes" \
	'! grep -q "ranks end\|step 60" ee.out && [ "$(grep "^  - " ee.out)" = "  - slow nodes (ranks 0-3 on one node, \
node 0: no other node to weigh it against)" ] &&
	 grep -q "^  steps  *60 aligned across ranks, 60 distinct$" ee.out &&
	 grep -q "^  steps found  *0-59 (60 distinct) of run.json n_steps 60$" ee.out'
"$TSCOPE_BIN" --export ranks --no-index evalend >ee.csv 2>/dev/null
tap_eq "... every rank misses no step, coverage 1" "0,61,0,1 1,60,0,1 2,60,0,1 3,60,0,1 " \
	"$(cut -d, -f1,2,10,11 ee.csv | sed 1d | tr '\n' ' ')"
"$TSCOPE_BIN" --export heatmap --no-index evalend >eeh.csv 2>/dev/null
tap_check "... no heatmap column for step 60" '! grep -q "^[0-9]*,60," eeh.csv && grep -q "^3,59,59," eeh.csv'
"$TSCOPE_BIN" index evalend >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never evalend >ee_idx.out 2>/dev/null
"$TSCOPE_BIN" --export ranks evalend >ee_idx.csv 2>/dev/null
tap_check "... the same from the index" 'cmp -s ee.out ee_idx.out && cmp -s ee.csv ee_idx.csv'
"$TSCOPE_BIN" --export ranks --compat pytscope evalend >eec.csv 2>/dev/null
"$TSCOPE_BIN" --export heatmap --compat pytscope evalend >eech.csv 2>/dev/null
tap_check "... --compat pytscope: every record a step (ranks 1-3 miss step 60, its column is there)" \
	'grep -q "^1,60,.*,1,0.98[0-9]*,[^,]*,no," eec.csv && grep -q "^3,60,60,,,,$" eech.csv'
tap_plan
