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
# Across ranks: a job restarted from step 0 whose newest run ends before the steps the
# earlier one reached is not judged on those steps (logged only before the step numbers
# went back: no fail-slow invented at the boundary; the straggler line names them, the
# same from the index), while a resume that goes on past them is judged throughout;
# several records of one step in a row (micro-batches) are noted as such, not as a
# resume, and the straggler line says which record of a step logged several times is
# weighed (its last with phases: not the sum of micro-batches). MFU counts the FLOPs per
# training step once a step natively, not once a micro-batch (the report says how many
# steps in how many records; EFFICIENCY.LOW_MFU judges that MFU), from the index too and in
# a Budget step window's figures; a resume's steps logged again were run again and count
# again; --compat pytscope keeps pytscope's count, one a record.
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

# 4. across ranks. rgen FILE RUNS SLOW [MICRO]: the records of each run of steps of RUNS, in
# order, every phase x1.3 from step s of the k-th run on (SLOW "k:s", "0:0": never); with MICRO
# "m:f", m records per step, the first of each x f.
rgen() {
	awk -v runs="$2" -v slow="$3" -v micro="${4:-1:1}" 'BEGIN {
		srand(7); n = split(runs, rs, ","); split(slow, sl, ":"); split(micro, mi, ":")
		for (k = 1; k <= n; k++) {
			split(rs[k], r, "-")
			for (s = r[1]; s <= r[2]; s++) for (j = 0; j < mi[1]; j++) {
				f = (1 + 0.01 * rand()) * (k == sl[1] && s >= sl[2] ? 1.3 : 1) * (j ? 1 : mi[2])
				printf "{\"step\":%d,\"phases\":{\"data\":%.7f,", s, 0.001 * f
				printf "\"forward\":%.7f,\"backward\":%.7f,", 0.004 * f, 0.006 * f
				printf "\"optimizer\":%.7f}}\n", 0.0005 * f
			}
		}
	}' >"$1"
}
mkdir -p restart/rank0 restart/rank1
rgen restart/rank0/steps.jsonl "0-149,0-99" 0:0
rgen restart/rank1/steps.jsonl "0-149,0-99" 1:0
rep restart >restart.out
line="none over steps 0-99 (no rank significantly slower than the step median); steps 100-149, logged only"
line="$line before the step numbers went back, left out of tscope-tui's tests; a step logged twice counts by its"
line="$line last record with phases"
tap_check "restarted from step 0, rank 1 slow before only: steps 100-149 (logged before the restart) not judged" \
	'grep -qx "  stragglers  *$line" restart.out &&
	 ! grep -q "FAIL_SLOW\|turned slow" restart.out'
"$TSCOPE_BIN" index restart >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never restart >restart_idx.out 2>/dev/null
tap_check "... the same from the index" '[ -f restart/.tscope-index/summary.tsx ] && cmp -s restart.out restart_idx.out'
mkdir -p restart2/rank0 restart2/rank1
rgen restart2/rank0/steps.jsonl "0-149,0-99" 0:0
rgen restart2/rank1/steps.jsonl "0-149,0-99" 2:50
rep restart2 >restart2.out
tap_check "restarted from step 0, rank 1 slow from step 50 of the new run: its span ends at the last step judged" \
	'grep -q "From step 50 to step 99 (the last judged) rank 1.s compute" restart2.out &&
	 ! grep -q "to the end" restart2.out'
mkdir -p resumed/rank0 resumed/rank1
rgen resumed/rank0/steps.jsonl "0-149,100-299" 0:0
rgen resumed/rank1/steps.jsonl "0-149,100-299" 2:200
rep resumed >resumed.out
tap_check "resumed at step 100 after step 149, rank 1 slow from step 200: judged throughout, fail-slow found" \
	'grep -q "^  stragglers  *1 (rank 1: fail-slow, [0-9]*% slower from step 200, cost [^;]*); a step" resumed.out &&
	 grep -q "Rank 1 turned slow at step 200 (fail-slow)  (DIST.FAIL_SLOW)" resumed.out'
mkdir -p micro/rank0 micro/rank1
rgen micro/rank0/steps.jsonl "0-39" 0:0 4:1
rgen micro/rank1/steps.jsonl "0-39" 0:0 4:2
rep micro >micro.out
"$TSCOPE_BIN" --export sources --no-index micro >micro.csv 2>/dev/null
note="step 0 is logged again right after itself: several records of one step in a row (gradient accumulation"
tap_check "4 records a step (micro-batches): noted as such, not as a resume" \
	'grep -q "^info,micro/rank0/steps.jsonl,,0,2,,,,\"$note" micro.csv && ! grep -q "from a checkpoint" micro.csv'
tap_check "... the straggler line says the last record of a step is weighed" \
	'grep -q "^  stragglers  .*; a step logged twice counts by its last record with phases$" micro.out'

# 5. MFU of micro-batches. mgen FILE RUNS M: M records a step for each run of steps "lo-hi" of
# RUNS, each 2.5 ms data, 5 ms forward, 10 ms backward: 10 steps x 4 records are a 700 ms rank
# wall whose 1e12 FLOPs a step at 100 TFLOP/s take 100 ms (MFU 14.3%; 57.1% a record).
mgen() {
	awk -v runs="$2" -v m="$3" 'BEGIN {
		n = split(runs, rs, ",")
		for (k = 1; k <= n; k++) {
			split(rs[k], r, "-")
			for (s = r[1]; s <= r[2]; s++) for (j = 0; j < m; j++)
				printf "{\"step\":%d,\"phases\":{\"data\":0.0025,\"forward\":0.005,\"backward\":0.01}}\n", s
		}
	}' >"$1"
}
mfu() { "$TSCOPE_BIN" --flops-per-step 1e12 --peak-tflops 100 --color never "$@" 2>/dev/null; }
mkdir -p mb4 mbres
mgen mb4/steps.jsonl 0-9 4
mgen mbres/steps.jsonl 0-14,5-9 2
mfu --print --no-index mb4 >mb4.out
mfu --export budget --no-index mb4 >mb4.csv
steps="  steps: 10 in 40 records (records of one step in a row, micro-batches, are one step; MFU counts the FLOPs"
steps="$steps per step 10 times)"
tap_check "4 records a step: MFU weighs FLOPs per step over the 10 steps (14.3%, not 57.1%), said; LOW_MFU judges it" \
	'grep -q "^  budget  *efficiency 14.3% of rank wall 700 ms (rank 0); MFU 14.3%$" mb4.out &&
	 grep -q "^  MFU 14.3%  ·  useful compute 14.3% of 700 ms rank wall$" mb4.out && grep -qx "$steps" mb4.out &&
	 grep -q "^  \[HIGH\] MFU is 14% — 86% of wall is recoverable  (EFFICIENCY.LOW_MFU)$" mb4.out &&
	 grep -q "(500 ms over 10 steps)" mb4.out && grep -q "^rank,0,10,0.7,0.1428" mb4.csv'
"$TSCOPE_BIN" index mb4 >/dev/null 2>&1
mfu --print mb4 >mb4_idx.out
tap_check "... the same from the index" '[ -f mb4/.tscope-index/summary.tsx ] && cmp -s mb4.out mb4_idx.out'
cat >keys <<KEYS
5
:dump $PWD/mb4.screen
q
KEYS
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 mfu --tui --no-index mb4 >/dev/null
tap_check "... the Budget pane's rank and its step windows alike (eff 14.3%)" \
	'[ "$(grep -c "eff  14.3%" mb4.screen)" -ge 3 ] && ! grep -q "57.1%" mb4.screen'
mfu --print --no-index mbres >mbres.out
tap_check "a resume's steps logged again count again (2 records a step: 20 steps in 40 records, MFU 28.6%)" \
	'grep -q "^  MFU 28.6%  ·  useful compute 28.6% of 700 ms rank wall$" mbres.out &&
	 grep -q "^  steps: 20 in 40 records " mbres.out'
mfu --print --no-index --compat pytscope mb4 >mb4c.out
tap_check "--compat pytscope: pytscope's MFU, FLOPs once a record (57.1%), no steps line" \
	'grep -q "^  MFU 57.1%  ·  useful compute 57.1% of 0.70s wall$" mb4c.out && ! grep -q "^  steps:" mb4c.out'
tap_plan
