#!/bin/sh
# subset.sh: a run loaded with --ranks LIST says it is a subset, and every verdict across
# ranks says it holds for the ranks loaded only: the coverage line names the ranks left
# out as a subset (they are not "missing"; a rank the list names and no dir has still
# is), the stragglers and imbalance lines say "among the N ranks loaded" (a subset's
# "none" is not green; so do they when ranks of world_size are missing), the report's
# DISTRIBUTED heading says so (amber LED), the ranks view of one rank loaded keeps its own
# mean and median compute (those of the whole run's view), the budget export's all-ranks row is
# `loaded`, not `run`, a slow
# node counts its loaded ranks, and a run with no finding lists the ranks left out among
# what was not judged. The explorer's Overview shows the same lines, and follow mode
# (R) reads no rank the list leaves out; --compat pytscope keeps pytscope's layout. Rank
# ids at or above world_size are named too, and so are the ids the list names there (a
# subset that loads such a rank still says it is one).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$gen" run 16 300 >/dev/null || exit 1

"$T" --print --no-index --color never run >all.txt 2>/dev/null
tap_check "the whole run: all 16 ranks, rank 11 straggles" \
	'grep -q "coverage  *all 16 ranks (world_size 16)$" all.txt && grep -q "stragglers  *1 (rank 11:" all.txt'
"$T" --print --color never --ranks 0-7 run >sub.txt 2>/dev/null
tap_check "--ranks 0-7: a subset, the others not called missing" \
	'grep -q "coverage  *8 of 16 ranks (world_size), a subset: --ranks 0-7 left 8 rank dirs out$" sub.txt &&
	 ! grep -q "missing" sub.txt'
"$T" --print --no-index --color never --ranks 0-7,18-20,17 run >beyond.txt 2>/dev/null
tap_check "ids the list names beyond world_size: the first named" \
	'grep -q "coverage  *8 of 16 ranks (world_size), a subset: --ranks 0-7,18-20,17 left 8 rank dirs out; it names \
ids from 17, beyond world_size 16$" beyond.txt'
tap_check "its stragglers verdict holds among the ranks loaded only" \
	'grep -q "stragglers  *none (.*) among the 8 ranks loaded (--ranks 0-7 left 8 rank dirs out)$" sub.txt'
tap_check "and so does the imbalance" \
	'grep -q "imbalance  *[0-9.]*% of critical compute lost to imbalance among the 8 ranks loaded;" sub.txt'
tap_check "DISTRIBUTED says it is a subset" \
	'grep -q "^. DISTRIBUTED — 8 ranks, 300 aligned steps (--ranks 0-7 left 8 rank dirs out)$" sub.txt'
"$T" --export ranks --no-index run >r_all.csv 2>/dev/null
"$T" --export ranks --no-index --ranks 3 run >r3.csv 2>/dev/null
"$T" --export ranks --ranks 3 run >r3i.csv 2>/dev/null
want=$(grep "^3," r_all.csv | cut -d, -f1,3,4)
tap_check "--ranks 3: rank 3's own mean and median compute, as the whole run's ranks view gives them" \
	'[ -n "$(echo "$want" | cut -d, -f2)" ] && [ "$(tail -n +2 r3.csv | cut -d, -f1,3,4)" = "$want" ] &&
	 [ "$(tail -n +2 r3i.csv | cut -d, -f1,3,4)" = "$want" ]'
"$T" --print --color always --ranks 0-7 run >subc.txt 2>/dev/null
tap_check "with an amber LED, not green (the ranks left out were not judged)" \
	'grep -q "^.\[33m●.*DISTRIBUTED" subc.txt'
"$T" --print --color always run >allc.txt 2>/dev/null
tap_check "the whole run's stays as it was (red: a straggler)" 'grep -q "^.\[31m●.*DISTRIBUTED" allc.txt'
"$T" --print --color never --ranks 8-15 run >s815.txt 2>/dev/null
tap_check "the lowest-rank sections name the rank they read (8 here, not the run)" \
	'grep -q "^. TIMING (rank 8) — 300 steps" s815.txt && grep -q "^. CONVERGENCE (rank 8)$" s815.txt &&
	 grep -q "^. MEMORY (rank 8)$" s815.txt'
tap_check "a subset with the straggler finds it, among its ranks" \
	'grep -q "stragglers  *1 (rank 11: .*) among the 8 ranks loaded (--ranks 8-15 left 8 rank dirs out)$" s815.txt'
"$T" --export budget --ranks 0-7 run >sb.csv 2>/dev/null
"$T" --export budget --no-index run >ab.csv 2>/dev/null
tap_check "the budget export's all-ranks row of a subset is \"loaded\", not \"run\"" \
	'sed -n 2p sb.csv | grep -q "^loaded,," && ! grep -q "^run," sb.csv && sed -n 2p ab.csv | grep -q "^run,,"'

# A slow node (ranks 8-15 at gpu_count 8), loaded in part: its loaded ranks are counted.
cp -r run slow
python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" slow 8 15 1.2 || exit 1
"$T" --print --color never --ranks 0-7,10-15 slow >node.txt 2>/dev/null
tap_check "slow node: all 6 loaded ranks of node 1, and the subset named" \
	'grep -q "All 6 loaded ranks of node 1 slow together" node.txt &&
	 grep -q "Every loaded rank on node 1 (ranks 10-15; --ranks 0-7,10-15 left 2 rank dirs out) is at least" node.txt'
"$T" --print --color never --no-index slow >nodeall.txt 2>/dev/null
tap_check "the whole run: all 8 ranks of node 1 (no \"loaded\")" \
	'grep -q "All 8 ranks of node 1 slow together" nodeall.txt && ! grep -q "loaded rank" nodeall.txt'

rm -r run/rank3
"$T" --print --color never --ranks 0-7 run >gap.txt 2>/dev/null
tap_check "a rank the list names and no dir has is still missing" \
	'grep -q "coverage  *7 of 16 ranks (world_size), a subset: --ranks 0-7 left 8 rank dirs out; missing 3$" gap.txt'
tap_check "and the verdicts name both" \
	'grep -q "stragglers  *none (.*) among the 7 ranks loaded (--ranks 0-7 left 8 rank dirs out; rank 3 of world_size 16 missing)$" gap.txt'
"$T" --print --color never --no-index run >gapall.txt 2>/dev/null
tap_check "without --ranks: no subset, rank 3 missing" \
	'grep -q "coverage  *15 of 16 ranks (world_size); missing 3$" gapall.txt && ! grep -q "subset\|--ranks" gapall.txt'
tap_check "a missing rank: the stragglers found hold among the ranks loaded" \
	'grep -q "stragglers  *1 (rank 11: .*) among the 15 ranks loaded (rank 3 of world_size 16 missing)$" gapall.txt &&
	 grep -q "^. DISTRIBUTED — 15 ranks, 300 aligned steps (rank 3 of world_size 16 missing)$" gapall.txt'
"$T" --print --color never --ranks 0-15 run >every.txt 2>/dev/null
tap_check "a list that leaves no rank dir out is no subset" \
	'grep -q "coverage  *15 of 16 ranks (world_size); missing 3$" every.txt && ! grep -q "subset\|--ranks" every.txt'
mkdir more && for r in 0 6 7; do cp -r run/rank$r more/; done
"$T" --print --color never --no-index more >more.txt 2>/dev/null
tap_check "more than three missing: counted" \
	'grep -q "among the 3 ranks loaded (13 ranks of world_size 16 missing)$" more.txt'

# No finding on a subset: the ranks left out are among what was not judged.
for r in 0 1 2; do
	mkdir -p one/rank$r
	printf '{"step": 0, "phases": {"forward": 0.25, "backward": 0.5, "comm": 0.1}}\n' >one/rank$r/steps.jsonl
done
"$T" --print --color never --ranks 0-1 one >one.txt 2>/dev/null
tap_check "no finding: the ranks left out are listed as not judged" \
	'grep -q "^  - every rule across ranks, beyond the ranks loaded (--ranks 0-1 left 1 rank dir out)$" one.txt'
tap_check "without run.json: the coverage line still says it is a subset" \
	'grep -q "coverage  *2 ranks, a subset: --ranks 0-1 left 1 rank dir out; world_size n/a (not in run.json)$" one.txt'
"$T" --print --color never one >one_all.txt 2>/dev/null
tap_check "the whole run lists no such item" '! grep -q "beyond the ranks loaded" one_all.txt'
printf '1\n:dump %s\nq\n' "$TSCOPE_TMP/ov.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=200 "$T" --tui --ranks 0-1 one >/dev/null 2>&1
tap_check "the Overview's not-judged note names it too" 'grep -q "beyond the ranks loaded (--ranks 0-1 left 1 rank dir out)" ov.txt'
printf '1\n:dump %s\nq\n' "$TSCOPE_TMP/ov2.txt" >keys2
TSCOPE_SCRIPT=keys2 TERM=dumb LINES=30 COLUMNS=200 "$T" --tui --ranks 0-7 run >/dev/null 2>&1
tap_check "the Overview's headline: coverage and stragglers as the report's" \
	'grep -q "coverage  *7 of 16 ranks (world_size), a subset: --ranks 0-7 left 8 rank dirs out; missing 3" ov2.txt &&
	 grep -q "stragglers  *none (.*) among the 7 ranks loaded (--ranks 0-7 left 8 rank dirs out; rank 3 of" ov2.txt'
"$T" --print --color never --compat pytscope --ranks 0-7 run >compat.txt 2>/dev/null
tap_check "--compat pytscope: pytscope's DISTRIBUTED heading" \
	'grep -q "^. DISTRIBUTED — 7 ranks, 300 aligned steps$" compat.txt'
# Rank ids at or above world_size: named, not "all 8 ranks" over 16 loaded.
"$gen" w8 16 30 >/dev/null || exit 1
for r in $(seq 0 15); do
	sed 's/"world_size": 16/"world_size": 8/' w8/rank$r/run.json >t && mv t w8/rank$r/run.json
done
"$T" --print --color never --no-index w8 >w8.txt 2>/dev/null
tap_check "ranks beyond world_size are named (another run mixed in?)" \
	'grep -q "coverage  *16 ranks against world_size 8: ranks 8, 9, 10, 11, 12, 13, 14, 15 beyond it (another run mixed in, or a wrong world_size?)$" w8.txt &&
	 ! grep -q "all 8 ranks" w8.txt'
"$T" --print --color never --no-index --ranks 6-9 w8 >w8sub.txt 2>/dev/null
tap_check "a subset loading ranks beyond world_size: still a subset, its ids beyond named" \
	'grep -q "coverage  *4 ranks against world_size 8, a subset: --ranks 6-9 left 12 rank dirs out; it names ids \
from 8, beyond world_size 8: ranks 8, 9 beyond it (another run mixed in, or a wrong world_size?)$" w8sub.txt'

# Kineto traces: the world_size in distributedInfo, 3 traces of 8 ranks.
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
mkdir tr && for r in 0 1 2; do "$tgen" tr/rank$r.pt.trace.json 1 $r >/dev/null || exit 1; done
"$T" --print --color never --no-index tr >tr.txt 2>/dev/null
tap_check "traces: coverage against the traces' world_size, the missing ranks named" \
	'grep -q "coverage  *3 of 8 ranks (the traces. world_size); missing 3, 4, 5, 6, 7$" tr.txt'
tap_check "traces: the verdicts hold among the 3 ranks loaded" \
	'grep -q "imbalance .* lost to imbalance among the 3 ranks loaded;" tr.txt &&
	 grep -q "^. DISTRIBUTED — 3 ranks, 18 aligned steps (5 ranks of world_size 8 missing)$" tr.txt'
mkdir nostep && printf '{"distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 4}, "traceEvents": [%s]}\n' \
	'{"ph": "X", "cat": "kernel", "name": "gemm", "ts": 100, "dur": 50, "pid": 0, "tid": 7, "args": {"stream": 7}}' \
	>nostep/rank1.pt.trace.json
"$T" --print --color never --no-index nostep >nostep.txt 2>/dev/null
tap_check "a trace without steps: its coverage line all the same (rank 1 of 4)" \
	'grep -q "^  coverage  *1 of 4 ranks (the traces. world_size); missing 0, 2, 3$" nostep.txt'
tap_check "traces: the same idle on every rank reads so, not 'rank 0 to rank 0'" \
	'grep -q "GPU idle by rank  *91.1% on each of the 3 ranks; :view temporal$" tr.txt'
tap_check "traces: stragglers none among the 3 ranks loaded, not green" \
	'grep -q "stragglers  *none (.*) among the 3 ranks loaded (5 ranks of world_size 8 missing)$" tr.txt'
for r in 0 1; do
	mkdir -p few/rank$r
	printf '{"rank": %d, "world_size": 4}\n' $r >few/rank$r/run.json
	printf '{"step": 0, "phases": {"forward": 0.25, "backward": 0.5, "comm": 0.1}}\n' >few/rank$r/steps.jsonl
done
"$T" --print --color never few >few.txt 2>/dev/null
tap_check "too few steps to judge: not judged, with no scope after it" \
	'grep -q "stragglers  *not judged: 1 aligned step (the noise test needs 16)$" few.txt &&
	 grep -q "coverage  *2 of 4 ranks (world_size); missing 2, 3$" few.txt'
"$T" --export ranks few >few.csv 2>/dev/null
tap_eq "the ranks view: straggler n/a on both ranks (too few steps), not an empty no" "n/a n/a" \
	"$(tail -n +2 few.csv | cut -d, -f13 | tr '\n' ' ' | sed 's/ $//')"
printf 'n\n:dump %s\nq\n' "$TSCOPE_TMP/n_few.txt" >kn
TSCOPE_SCRIPT=kn TERM=dumb LINES=24 COLUMNS=200 "$T" --tui few >/dev/null 2>&1
tap_check "n without a straggler gives the headline's verdict: not judged, and why" \
	'grep -q "^stragglers: not judged: 1 aligned step (the noise test needs 16) (see man page, FINDINGS)" n_few.txt'
printf 'n\n:dump %s\nq\n' "$TSCOPE_TMP/n_sub.txt" >kn2
TSCOPE_SCRIPT=kn2 TERM=dumb LINES=24 COLUMNS=200 "$T" --tui --ranks 0-7 run >/dev/null 2>&1
tap_check "n on a subset: none among the ranks loaded, not a run-wide none" \
	'grep -q "^stragglers: none (.*) among the 7 ranks loaded (--ranks 0-7 left 8 rank dirs out; rank 3 of" n_sub.txt'

# A malformed list is refused before anything is read, naming the item and what is wrong.
"$T" --print --ranks 0-7,12-9 run >bad.txt 2>&1
rc=$?
tap_check "--ranks 0-7,12-9: refused (exit 2), naming the range that goes down" \
	'[ "$rc" = 2 ] && grep -q "^tscope-tui: --ranks .0-7,12-9.: .12-9. is a range that goes down; expected ids" bad.txt'

# Follow mode (R reads what was written since, new rank dirs too) keeps the subset a subset.
"$gen" live 4 50 >/dev/null || exit 1
printf 'R\n2\n:dump %s\n1\n:dump %s\nq\n' "$TSCOPE_TMP/live_h.txt" "$TSCOPE_TMP/live_ov.txt" >keys3
TSCOPE_SCRIPT=keys3 TERM=dumb LINES=30 COLUMNS=160 "$T" --tui --ranks 0-1 live >/dev/null 2>&1
tap_check "R under --ranks 0-1: the heatmap keeps ranks 0 and 1 only" \
	'grep -q "^    1 " live_h.txt && ! grep -q "^    [23] " live_h.txt'
tap_check "and the Overview still says 2 rank dirs are left out" \
	'grep -q "coverage  *2 of 4 ranks (world_size), a subset: --ranks 0-1 left 2 rank dirs out$" live_ov.txt'
tap_plan
