#!/bin/sh
# steps_resume.sh: a run resumed from a checkpoint (the log goes back in step numbers and
# logs those steps again). Natively the loss and grad-norm spikes and CROSS.CORRELATED_
# INSTABILITY judge each run of steps on its own: the loss logged again at the resume and
# the slow first steps after it (warm caches) are no spike and no finding, on one rank and
# on every rank; a real spike after the resume is still found, and a finding whose steps
# were logged twice says which run of them it means (after or before the resume, named
# by its step numbers); a spike at steps logged once is named as before. --compat pytscope
# keeps pytscope's one series across the resume (its finding at the resume, its spike
# line). A loss logged as strings is not "no loss recorded": the not-judged reason counts
# the loss values that are not numbers (of the lowest rank with several ranks), in the
# report and in --export findings; the count is the loader's (exact when more warnings
# than are kept, the same from the index), and a phase named "loss" is no loss value.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

rep() { "$TSCOPE_BIN" --print --no-index --color never "$@" 2>/dev/null; }

# gen DIR RUNS [SPIKE]: the records of each run of steps "lo-hi" of RUNS ("0-499,400-999"), in
# order; the loss falls with the step number (the same value when a step is logged again), the
# first 3 steps of a run after the first are slow; SPIKE "k:s": step s of the k-th run is a loss
# and step-time spike.
gen() {
	mkdir -p "$1"
	awk -v runs="$2" -v spike="${3:-0:0}" 'BEGIN {
		n = split(runs, rs, ","); split(spike, sp, ":")
		for (k = 1; k <= n; k++) {
			split(rs[k], r, "-")
			for (s = r[1]; s <= r[2]; s++) {
				loss = 2 * exp(-s / 300) + 0.1; f = s - r[1] < 3 && k > 1 ? 0.024 : 0.004
				if (k == sp[1] && s == sp[2]) { loss = 5; f = 0.04 }
				printf "{\"step\":%d,\"phases\":{\"data\":0.001,\"forward\":%s,\"backward\":0.006,", s, f
				printf "\"optimizer\":0.0005},\"scalars\":{\"loss\":%.17g,\"grad_norm\":1.0}}\n", loss
			}
		}
	}' >"$1/steps.jsonl"
}

# 1. resumed at step 400 after step 499: the loss logged again, slow first steps
gen resume "0-499,400-999"
rep resume >resume.out
rep --compat pytscope resume >resumec.out
tap_check "resume: no finding and no loss spike at the resume" \
	'! grep -q "Correlated instability\|spikes at steps" resume.out && grep -q "^  loss trend improving" resume.out'
tap_check "resume, --compat pytscope: pytscope's one series (its finding at steps 400–402, its spike line)" \
	'grep -q "^  \[HIGH\] Correlated instability at steps 400–402  (CROSS.CORRELATED_INSTABILITY)$" resumec.out &&
	 grep -q "^  loss spikes at steps \[400, " resumec.out'
for r in 0 1 2 3; do gen all/rank$r "0-499,400-999"; done
rep all >all.out
tap_check "every rank resumed: no finding and no loss spike at the resume" \
	'grep -q "^  ranks  *4" all.out && ! grep -q "Correlated instability\|spikes at steps" all.out'

# 2. a real spike at step 450 after the resume, and at step 450 before it
gen after "0-499,400-999" 2:450
rep after >after.out
back="the resume from step 499 back to 400"
tap_check "a spike at a step logged twice, after the resume: found, and named as after it" \
	'grep -q "^  \[HIGH\] Correlated instability at step 450 after $back  (CROSS" after.out &&
	 grep -q "^        At step 450 after $back, 2 independent axes spike" after.out &&
	 grep -q "^  loss spikes at steps \[450\]$" after.out'
gen before "0-499,400-999" 1:450
rep before >before.out
tap_check "a spike at a step logged twice, before the resume: named as before it" \
	'grep -q "^  \[HIGH\] Correlated instability at step 450 before $back  (CROSS" before.out'
gen once "0-499,400-999" 2:700
rep once >once.out
tap_check "a spike at a step logged once: its step alone" \
	'grep -q "^  \[HIGH\] Correlated instability at step 700  (CROSS" once.out'
rep --compat pytscope after >afterc.out
tap_check "--compat pytscope: pytscope's where (no run named)" \
	'grep -q "Correlated instability at step 450  (CROSS" afterc.out'

# 3. the loss logged as strings
mkdir lossstr
awk 'BEGIN { for (s = 0; s < 100; s++)
	printf "{\"step\":%d,\"phases\":{\"forward\":0.004,\"backward\":0.006},\"scalars\":{\"loss\":\"1.1\"}}\n", s }' \
	>lossstr/steps.jsonl
rep lossstr >lossstr.out
why="loss divergence and plateau (100 loss values are not numbers)"
"$TSCOPE_BIN" --export findings --no-index lossstr >lossstr.csv 2>/dev/null
tap_check "loss as strings: the reason counts the values that are not numbers (report, --export findings)" \
	'grep -qx "  - $why" lossstr.out &&
	 grep -q "^not judged,CONVERGENCE.DIVERGED CONVERGENCE.NO_PROGRESS,$why," lossstr.csv &&
	 ! grep -q "no loss recorded" lossstr.out lossstr.csv'
mkdir -p two/rank0 two/rank1
cp lossstr/steps.jsonl two/rank0/steps.jsonl
sed 's/"1.1"/1.1/' lossstr/steps.jsonl >two/rank1/steps.jsonl
rep two >two.out
tap_check "loss as strings on rank 0 of two: counted for rank 0" \
	'grep -qx "  - loss divergence and plateau (100 loss values of rank 0 are not numbers)" two.out'
mkdir noloss
sed 's/,"scalars":{"loss":"1.1"}//' lossstr/steps.jsonl >noloss/steps.jsonl
rep noloss >noloss.out
tap_check "no loss at all: still \"no loss recorded\"" \
	'grep -qx "  - loss divergence and plateau (no loss recorded)" noloss.out'
mkdir phloss
sed 's/,"scalars":{"loss":"1.1"}//; s/"backward":0.006/&,"loss":"x"/' lossstr/steps.jsonl >phloss/steps.jsonl
rep phloss >phloss.out
tap_check "a phase named loss that is not a number: no loss recorded (it is no loss value)" \
	'grep -qx "  - loss divergence and plateau (no loss recorded)" phloss.out'
mkdir lossmany
awk 'BEGIN { for (s = 0; s < 10050; s++)
	printf "{\"step\":%d,\"phases\":{\"forward\":0.004},\"scalars\":{\"loss\":\"1.1\"}}\n", s }' \
	>lossmany/steps.jsonl
rep lossmany >lossmany.out
why="loss divergence and plateau (10050 loss values are not numbers)"
tap_check "more loss strings than diagnostics are kept: the loader's exact count" 'grep -qx "  - $why" lossmany.out'
"$TSCOPE_BIN" index lossmany >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never lossmany >lossmany_idx.out 2>/dev/null
tap_check "... the same count from the index" \
	'[ -f lossmany/.tscope-index/steps-0-of-1.tsx ] && grep -qx "  - $why" lossmany_idx.out'
tap_plan
