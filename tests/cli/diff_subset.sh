#!/bin/sh
# diff_subset.sh: a comparison under --ranks says it holds for the ranks loaded. B's rank 5
# regresses from step 100 (tests/tools/gen_pair); --ranks 0-3 leaves it out of both sides:
# the verdict ends "over the ranks loaded only (A and B each: --ranks 0-3 left 4 rank dirs
# out)", in --print and in the explorer's Overview, its LED is not green (no regression
# among part of the ranks is no verdict on the run), and the BUDGET heading says "the
# ranks loaded" instead of "all ranks", with the subset under it. A side that --ranks
# left whole says so ("A: every rank loaded"); trace sets say it in the verdict and the
# KERNELS heading. Without --ranks nothing changes: the BUDGET heading claims all ranks,
# the verdict names no subset. Under --warmup the COMPARISON says it compared every
# common step (the warmup slices the pytscope metrics and the budget only) and the BUDGET
# heading that it is after the warmup. When a side's rank records no data phase that
# another rank records, the BUDGET heading says the run budget adds only the ranks that
# measure every line, how many of each side.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
cd "$TSCOPE_TMP" || exit 1
"$gen" a 8 200 1 >/dev/null && "$gen" reg 8 200 2 5 100 >/dev/null && "$gen" a6 6 200 1 >/dev/null ||
	{ tap_notok "pairs generated"; exit 1; }
mkdir ta tb || exit 1
for r in 0 1 2 3; do
	"$tgen" ta/rank$r.json 1 $r >/dev/null && "$tgen" tb/rank$r.json 2 $r >/dev/null ||
		{ tap_notok "traces generated"; exit 1; }
done
each="A and B each: --ranks 0-3 left 4 rank dirs out"
tr_each="A and B each: --ranks 0-1 left 2 ranks out"

"$TSCOPE_BIN" --print --color never --no-index a reg >all.txt 2>/dev/null
tap_check "all ranks: rank 5 regressed, no subset named" \
	'grep -q "^● COMPARISON — B is [0-9.]*% slower per step; rank 5 regressed from step 100\$" all.txt &&
	 ! grep -q "ranks loaded" all.txt'
tap_check "... the BUDGET heading: all ranks and steps of each side" \
	'grep -q "^● BUDGET — .* (all ranks and steps of each side)\$" all.txt'

"$TSCOPE_BIN" --print --color never --no-index --ranks 0-3 a reg >sub.txt 2>/dev/null
tap_rc $? "--ranks 0-3: the report exits 0"
tap_check "... the verdict holds for the ranks loaded of each side" \
	'grep -q "^● COMPARISON — .*; over the ranks loaded only ($each)\$" sub.txt'
tap_check "... the BUDGET heading says the ranks loaded, not all ranks, the subset under it" \
	'grep -A1 "^● BUDGET" sub.txt | grep -q "(the ranks loaded and all steps of each side)\$" &&
	 grep -A1 "^● BUDGET" sub.txt | grep -q "^  over the ranks loaded only ($each)\$" &&
	 ! grep -q "all ranks" sub.txt'
"$TSCOPE_BIN" --print --color always --no-index --ranks 0-3 a reg 2>/dev/null | grep COMPARISON >led.txt
tap_check "... no regression among part of the ranks: the LED is not green" \
	'grep -q "^.\[33m●" led.txt'

"$TSCOPE_BIN" --print --color never --no-index --ranks 0-5 a6 reg >one.txt 2>/dev/null
tap_check "a side --ranks left whole says so" \
	'grep -q "over the ranks loaded only (A: every rank loaded; B: --ranks 0-5 left 2 rank dirs out)\$" one.txt'

"$TSCOPE_BIN" --print --color never --no-index --ranks 0-1 ta tb >tr.txt 2>/dev/null
tap_check "trace sets: the verdict and the KERNELS heading say the ranks loaded" \
	'grep -q "^● COMPARISON — .*; over the ranks loaded only ($tr_each)\$" tr.txt &&
	 grep -q "^● KERNELS — .* (summed over the ranks loaded and all steps of each side)\$" tr.txt'

printf ':dump %s/ov\n1\n:dump %s/ov\nq\n' "$PWD" "$PWD" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui --no-index --ranks 0-3 a reg \
	>out 2>err
tap_rc $? "explorer with --ranks 0-3: headless session exits 0"
tap_check "... the Overview's verdict says it holds for the ranks loaded" \
	'sed -n "3,6p" ov | tr -s " \n" "  " | grep -q "over the ranks loaded only ($each)"'
printf 'n\n:dump %s/msg\nq\n' "$PWD" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui --no-index --ranks 0-3 a reg \
	>out 2>err
tap_check "... n finds no regression among the ranks loaded, not among all" \
	'grep -q "no regression: no rank loaded is slower in B beyond its run-to-run noise" msg'
# --warmup slices the pytscope metrics and the budget, not the per-rank comparison (as it
# never slices the distributed analysis): the COMPARISON says it compared every common
# step, the BUDGET heading that it is after the warmup; without --warmup neither line.
"$TSCOPE_BIN" --print --color never --no-index --warmup 120 a reg >wu.txt 2>/dev/null
want="^  --warmup 120 not applied here: the ranks are compared over every common step, as the distributed"
tap_check "--warmup 120: the COMPARISON over every common step says so, the BUDGET heading after the warmup" \
	'grep -A1 "^● COMPARISON" wu.txt | grep -q "$want analysis reads them; the pytscope metrics and the budget" &&
	 grep -q "^  mean step wall .* over 200 common steps$" wu.txt && grep -q "^  n_steps  *80  *80 " wu.txt &&
	 grep -q "^● BUDGET — .* (all ranks of each side, each rank.s step records after --warmup 120)$" wu.txt'
"$TSCOPE_BIN" --export diff_budget --no-index --warmup 120 a reg >wu.csv 2>/dev/null
"$TSCOPE_BIN" --export diff_budget --no-index a reg >nowu.csv 2>/dev/null
tap_check "... the budget after the warmup differs from the whole one (what the heading says)" \
	'! cmp -s wu.csv nowu.csv && ! grep -q "warmup" all.txt'
"$gen" nd 2 40 1 >/dev/null && cp -r nd nd2 &&
	sed -i 's/"data":[0-9.e-]*,//' nd/rank1/steps.jsonl nd2/rank1/steps.jsonl
"$TSCOPE_BIN" --print --no-index --color never nd nd2 >nd.txt 2>/dev/null
tap_check "a rank without the data phase: the BUDGET heading says the run budget adds 1 of 2 ranks a side" \
	'grep -q "^● BUDGET .*; only the ranks that measure every line: 1 of 2 in A, 1 of 2 in B)$" nd.txt'
tap_plan
