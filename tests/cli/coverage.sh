#!/bin/sh
# coverage.sh: the headline compares what was found with run.json (world_size, n_steps)
# and names the missing ranks; it shows the environment and the config of run.json
# (real ../shared/real/pytscope-t4 run.json files next to generated steps); ranks whose
# steps end before the others' are named.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" balanced cov || { tap_notok "fixture generated"; exit 1; }
rm -rf cov/rank5 cov/rank63
"$TSCOPE_BIN" --print --color never cov >c.out 2>&1
tap_check "missing ranks named against world_size" 'grep -q "^  coverage  *62 of 64 ranks (world_size); missing 5, 63$" c.out'
tap_check "steps against n_steps" 'grep -q "^  steps found  *0-399 (400 distinct) of run.json n_steps 400$" c.out'
tap_check "no environment or config in that run.json: n/a, and whose run.json it is" \
	'grep -q "^  environment  *n/a (not in rank 0.s run.json)$" c.out &&
	 grep -q "^  config  *n/a (not in rank 0.s run.json)$" c.out'
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" one 1 50 >/dev/null || exit 1
"$TSCOPE_BIN" --print --color never one >one.out 2>&1
tap_check "a one-rank run: \"the one rank\", not \"all 1 ranks\"" \
	'grep -q "^  coverage  *the one rank (world_size 1)$" one.out'
tap_check "... whose environment and config are its run.json's, no rank named" \
	'grep -q "^  environment  .*(7 more keys in run.json)$" one.out &&
	 grep -q "^  config  *model=gpt2-medium, batch_size=16$" one.out'
for k in 0 1; do
	mkdir -p few$k
	cp one/rank0/steps.jsonl few$k/
done
printf '{"rank":0,"world_size":1,"environment":{"gpu":"H100","cuda":"12.1"}}\n' >few0/run.json
printf '{"rank":0,"world_size":1,"environment":{"gpu":"H100","cuda":"12.1","cpu_count":64}}\n' >few1/run.json
"$TSCOPE_BIN" --print --color never few0 >few0.out 2>&1
"$TSCOPE_BIN" --print --color never few1 >few1.out 2>&1
tap_check "an environment of the shown keys alone: no \"(0 more keys\"; one more: \"1 more key\"" \
	'grep -q "^  environment  *gpu=H100, cuda=12.1$" few0.out &&
	 grep -q "^  environment  *gpu=H100, cuda=12.1; (1 more key in run.json)$" few1.out'

real="$TSCOPE_ROOT/../shared/real/pytscope-t4/gpu_straggler"
if [ -f "$real/rank0/run.json" ]; then
	for r in 0 1; do
		mkdir -p gs/rank$r
		cp "$real/rank$r/run.json" gs/rank$r/
		i=5
		while [ $i -lt 25 ]; do printf '{"step":%d,"phases":{"forward":0.01}}\n' $i; i=$((i + 1)); done >gs/rank$r/steps.jsonl
	done
	"$TSCOPE_BIN" --print --color never gs >g.out 2>&1
	tap_check "real run.json: environment (gpu first), of rank 0" \
		'grep -q "^  environment  *gpu=Tesla T4, gpu_count=2, torch=2.10.0+cu128, cuda=12.8, python=3.12.13; \
(8 more keys in rank 0.s run.json)$" g.out'
	tap_check "real run.json: empty config shown as such" 'grep -q "^  config  *{} (empty in rank 0.s run.json)$" g.out'
	tap_check "real run.json: n_steps 205 but steps end at 24: said" 'grep -q "^  steps found  *5-24 (20 distinct) of run.json n_steps 205: the last ones are missing$" g.out'
else
	tap_skip "../shared/real/pytscope-t4 not present"
fi

# A rank whose steps end early (died, hung, stopped logging): said, with the part the
# analyses across ranks leave out; not said when every rank ends at the same step
"$gen" balanced ends || exit 1
head -50 ends/rank7/steps.jsonl >e7 && mv e7 ends/rank7/steps.jsonl
head -300 ends/rank9/steps.jsonl >e9 && mv e9 ends/rank9/steps.jsonl
"$TSCOPE_BIN" --print --color never --no-index ends >e.out 2>&1
tap_check "ranks that end early: the first, the last, how many, and what is left out" \
	'grep -q "^  ranks end  *rank 7 at step 49, rank 0 at 399 (2 of 64 end early); cross-rank analyses stop" e.out &&
	 grep -q "^  steps  *50 aligned across ranks" e.out'
tap_check "every rank to the same step: no such line" '! grep -q "ranks end" c.out'

# Followed while it runs (run.json without n_steps): the ranks have not ended, they are at
# different steps as a running job's are; in the normal tone. The same run followed once
# run.json says it finished (n_steps), or not followed: they end early, as above.
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" live 4 50 >/dev/null || exit 1
head -49 live/rank2/steps.jsonl >l2 && mv l2 live/rank2/steps.jsonl
for r in 0 1 2 3; do
	grep -v '"n_steps"' live/rank$r/run.json | sed 's/"wall_time": \([0-9.]*\),/"wall_time": \1/' >rj &&
		mv rj live/rank$r/run.json
done
printf '1\n:dump %s\nq\n' "$TSCOPE_TMP/live.txt" >keys_live
TSCOPE_SCRIPT=keys_live TERM=dumb LINES=30 COLUMNS=160 "$TSCOPE_BIN" --tui --follow live >/dev/null 2>&1
tap_check "a live run followed: where the ranks are, not that they end early" \
	'grep -q "^  ranks at  *rank 2 at step 48, rank 0 at 49 (1 of 4 behind, the run is live); cross-rank an" live.txt &&
	 grep -q "^  coverage  *all 4 ranks (world_size 4)$" live.txt'
TSCOPE_SCRIPT=keys_live TERM=dumb LINES=30 COLUMNS=160 "$TSCOPE_BIN" --tui live >/dev/null 2>&1
tap_check "the same run not followed: rank 2 ends early" \
	'grep -q "^  ranks end  *rank 2 at step 48, rank 0 at 49 (1 of 4 end early);" live.txt'
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" done 4 50 >/dev/null || exit 1
head -49 done/rank2/steps.jsonl >d2 && mv d2 done/rank2/steps.jsonl
TSCOPE_SCRIPT=keys_live TERM=dumb LINES=30 COLUMNS=160 "$TSCOPE_BIN" --tui --follow done >/dev/null 2>&1
tap_check "followed, but run.json says the run finished: rank 2 ends early" \
	'grep -q "^  ranks end  *rank 2 at step 48, rank 0 at 49 (1 of 4 end early);" live.txt'
tap_plan
