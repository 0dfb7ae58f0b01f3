#!/bin/sh
# steps_eval.sh: records without any phase (an evaluation's scalars, logged with the step
# number of a training record) are no steps of 0 ms in the native timing figures: TIMING
# counts and times the training records alone and says how many records it left out,
# TIMING.JITTER does not fire on the gaps they would make, the budget counts the same
# steps (its "over N steps" and the N steps of FLOPs its MFU weighs) and says the same,
# its export's steps column and the low-MFU finding too; the same from the index. --compat pytscope keeps
# pytscope's rule (every record a step: 80 steps, the jitter finding, its MFU).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

rep() { "$TSCOPE_BIN" --print --color never "$@" 2>/dev/null; }

# evalrun DIR: 60 training steps of 108, 108.5 and 109 ms in turn, and after every third an
# evaluation record of the same step number (scalars alone): 80 records
evalrun() {
	mkdir -p "$1"
	awk 'BEGIN {
		for (s = 0; s < 60; s++) {
			printf "{\"step\":%d,\"phases\":{\"data\":0.01,\"forward\":0.03,\"backward\":%.4f,", s,
				0.06 + 0.0005 * (s % 3)
			printf "\"optimizer\":0.005,\"comm\":0.003},\"scalars\":{\"loss\":%.4f}}\n", 2 / (s + 1)
			if (s % 3 == 2) printf "{\"step\":%d,\"scalars\":{\"eval_loss\":%.4f}}\n", s, 3 / (s + 1)
		}
	}' >"$1/steps.jsonl"
}
evalrun ev
echo '{"name":"ev","rank":0,"world_size":1}' >ev/run.json
evalrun evf
echo '{"name":"evf","rank":0,"world_size":1,"flops_per_step":1e12,"peak_flops":312e12}' >evf/run.json
rep --no-index ev >ev.out
rep --no-index --compat pytscope ev >evc.out
left="  left out: 20 records without any phase (no step time, not steps of 0 ms)"
tap_check "TIMING: the 60 training steps at 108.5 ms, the 20 records without phases said left out" \
	'grep -q "^● TIMING — 60 steps · 108.5 ms/step · 9.2 steps/s " ev.out &&
	 [ "$(grep -A1 "^● TIMING" ev.out | tail -n 1)" = "$left" ]'
tap_check "... no step-time jitter finding (the spread is 0.4%)" '! grep -q "TIMING.JITTER" ev.out'
tap_check "... the budget over the same 60 steps, saying the same" \
	'grep -q "^  rank wall 6.51 s over 60 steps (MFU: n/a)$" ev.out &&
	 [ "$(grep -A5 "^● EFFICIENCY BUDGET" ev.out | grep -c "^$left$")" = 1 ]'
rep --no-index evf >evf.out
rep --no-index --compat pytscope evf >evfc.out
tap_check "... MFU weighs the FLOPs of 60 steps (3.0%, the finding's 60), not 80 (pytscope's 3.9% under --compat)" \
	'grep -q "^  MFU 3\.0%  ·  " evf.out && grep -q "(5\.54 s over 60 steps)" evf.out &&
	 grep -q "^  MFU 3\.9%  ·  " evfc.out && grep -q "(5\.47s over 80 steps)" evfc.out'
"$TSCOPE_BIN" --export budget --no-index ev >ev_budget.csv 2>/dev/null
tap_check "... the budget export's steps column: 60" 'grep -q "^rank,0,60," ev_budget.csv'
tap_check "--compat pytscope: pytscope's 80 steps of 81.4 ms, its jitter finding, no left-out line" \
	'grep -q "^● TIMING — 80 steps · 81.4 ms/step " evc.out && grep -q "(TIMING.JITTER)" evc.out &&
	 grep -q "^  wall 6.51s over 80 steps (MFU: n/a)$" evc.out && ! grep -q "left out" evc.out'
"$TSCOPE_BIN" index ev >/dev/null 2>&1
rep ev >ev_idx.out
rep --compat pytscope ev >evc_idx.out
tap_check "... the same from the index, native and --compat" 'cmp -s ev.out ev_idx.out && cmp -s evc.out evc_idx.out'
tap_plan
