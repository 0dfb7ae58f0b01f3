#!/bin/sh
# steps_verdicts.sh: the step rules and the report's TIMING and DISTRIBUTED sections
# judge only what the records let them: a NaN or overflowing phase makes the shares n/a
# (no rule fires on them; --compat keeps pytscope's figures, whose >= is false on NaN), and
# the budget n/a for that value, not "no phase time"; one negative phase value (a rank's
# mean still positive) makes the shares, step time, jitter, budget, stragglers, imbalance
# and walls n/a naming its rank, phase and step, from the index too (--compat keeps
# pytscope's figures),
# a run without phases or with every record inside --warmup says so, a rank that records
# no compute, another phase set, NaN or negative compute is not weighed (one NaN value
# leaves the rank's median compute empty like its mean), imbalance on one
# aligned step claims no persistence (on 12, a DIST.STRAGGLER that fired is not listed
# as not judged), DIST.STRAGGLER's share and z are the rank line's
# (ties shared), and a 2-rank run reports no transient stall. With no phase on any rank,
# or a rank without phases, the run wall and the comm share of the step wall are n/a
# (naming the rank), not 0 s nor the other ranks' figures as the run's, and DIST.COMM_BOUND
# is listed not judged instead of firing on them. A rank whose records carry phases on
# some steps only: its records without a compute phase are missing there, not 0 s (no
# straggler made of them; its own compute over the steps that have one; --compat keeps
# pytscope's 0 s). Rank dirs whose run.json
# started times lie more than an hour apart (two runs under pytscope's default name) are
# named on a mixed runs line, from the index too, and when the lowest rank has no run.json.
# A figure judged against a bar keeps its side of it (comm 24.996%, not 25.0%, with no
# DIST.COMM_BOUND; a top recoverable 19.996%, a data share 39.996%, a CV 0.49996), as
# pytscope's digits under --compat. Phases all 0 are no phase time (TIMING n/a, its rules
# not judged; a rank of zeros not weighed); phase sums that overflow leave the budget,
# walls and comm share n/a, never nan or inf (report, CSV); a 1e9 s step shows 1e+09 s.
# Phases that compute leaves out (fwd, bwd, opt) with 5% or more of a rank's phase time
# leave stragglers, imbalance, the walls, the comm share and efficiency not judged, naming
# them, the first such rank and its share (--compat keeps pytscope's); below 5% (a small
# checkpoint or logging phase) all is judged as before, the index's kept sums or not.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

P='"phases":{"data":0.01,"forward":0.02,"backward":0.04,"optimizer":0.005,"comm":0.003}'
rep() { "$TSCOPE_BIN" --print --no-index --color never "$@" 2>/dev/null; }

# 1. one NaN optimizer value
mkdir nan1
for s in $(seq 0 29); do
	o=0.005; [ "$s" = 3 ] && o=NaN
	echo "{\"step\":$s,\"phases\":{\"data\":0.01,\"forward\":0.02,\"backward\":0.04,\"optimizer\":$o}}"
done >nan1/steps.jsonl
rep nan1 >nan1.out
tap_check "NaN phase: shares and mean n/a, with the step and the rank" \
	'grep -q "^● TIMING — 30 steps · n/a ms/step · n/a steps/s" nan1.out &&
	 grep -qx "  shares n/a (a non-finite phase value: optimizer at step 3 on rank 0)" nan1.out &&
	 grep -q "^  data .*    n/a    10.00 ms$" nan1.out && ! grep -q "nan%\|nan ms\|30.0%\|120.0%" nan1.out'
nan1_why="a non-finite phase value: optimizer at step 3 on rank 0"
tap_check "NaN phase: no timing rule fires, the shares, jitter and efficiency are named not judged" \
	'! grep -q "TIMING\.\|EFFICIENCY\." nan1.out && ! grep -q "no phase time" nan1.out &&
	 grep -qx "  - phase shares, step-time jitter and efficiency ($nan1_why)" nan1.out'
"$TSCOPE_BIN" --export budget --no-index nan1 >/dev/null 2>nan1b.err
tap_check "NaN phase: no budget, for that value (not \"no phase time\")" \
	'grep -q "no efficiency budget: $nan1_why$" nan1b.err'
rep --compat pytscope nan1 >nan1c.out
tap_check "NaN phase, --compat: pytscope's shares over 1 and its data rule, no optimizer rule (NaN >= 0.15)" \
	'grep -q "^  data .* 30.0%    10.00 ms$" nan1c.out && grep -q "(TIMING.DATALOADER_BOUND)" nan1c.out &&
	 ! grep -q "OPTIMIZER_HEAVY" nan1c.out'
mkdir huge
for s in $(seq 0 29); do
	echo "{\"step\":$s,\"phases\":{\"data\":1e300,\"forward\":1e308,\"backward\":1.7e308,\"optimizer\":0.005}}"
done >huge/steps.jsonl
rep huge >huge.out
rep --compat pytscope huge >hugec.out
tap_check "overflowing phase sums: shares n/a, no BACKWARD_HEAVY or RECOVERABLE (nor under --compat)" \
	'grep -qx "  shares n/a (the phase totals overflow on rank 0)" huge.out &&
	 ! grep -q "BACKWARD_HEAVY\|RECOVERABLE\|nan ms" huge.out && ! grep -q "BACKWARD_HEAVY\|RECOVERABLE" hugec.out'

# 2. a rank without phases, a rank without the data phase
mkdir -p nophase/rank0 nophase/rank1 nodata/rank0 nodata/rank1
for s in $(seq 0 29); do
	echo "{\"step\":$s,$P}" >>nophase/rank0/steps.jsonl
	echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}" >>nophase/rank1/steps.jsonl
	echo "{\"step\":$s,$P}" >>nodata/rank0/steps.jsonl
	echo "{\"step\":$s,\"phases\":{\"forward\":0.02,\"backward\":0.04,\"optimizer\":0.005,\"comm\":0.003}}" \
		>>nodata/rank1/steps.jsonl
done
rep nophase >nophase.out
tap_check "rank without phases: not weighed, named, no straggler" \
	'grep -q "^  stragglers  *not judged: rank 1 records no compute phase$" nophase.out &&
	 grep -qx "  per-rank compute: n/a (rank 1 records no compute phase)" nophase.out &&
	 grep -qx "  - stragglers and imbalance (rank 1 records no compute phase)" nophase.out &&
	 ! grep -q "DIST\.\|straggler  (" nophase.out'
"$TSCOPE_BIN" --export ranks --no-index nophase >nophase.csv 2>/dev/null
tap_eq "rank without phases: its compute figures are empty, no straggler against it" \
	"0,30,75,75,,,,,,0,1,,n/a,,,|1,30,,,,,,,,0,1,,n/a,,," "$(tail -n +2 nophase.csv | paste -sd'|')"
"$TSCOPE_BIN" --export heatmap_cells --no-index nophase 2>/dev/null | awk -F, '$1 == 1' >nophase.cells
tap_check "rank without phases: its compute heatmap cells are missing, not 0" \
	'[ -s nophase.cells ] && ! cut -d, -f6,7 nophase.cells | grep -qv "^,$"'
rep nodata >nodata.out
tap_check "rank without the data phase another records: not weighed, what differs named" \
	'grep -q "^  stragglers  *not judged: rank 1 records no data phase while rank 0 does on most of its records: their" \
	 nodata.out && ! grep -q "DIST\." nodata.out'
# rank 0 records other on one step only (a checkpoint: time really spent): still judged,
# and rank 3, 20% slower throughout, is the straggler
mkdir -p once/rank0 once/rank1 once/rank2 once/rank3
for r in 0 1 2 3; do
	s=0
	while [ $s -lt 40 ]; do
		f=0.0$((30 + (s * 7 + r * 3) % 5)); [ $r = 3 ] && f=0.040
		o=; [ $r = 0 ] && [ $s = 20 ] && o=',"other":0.5'
		echo "{\"step\":$s,\"phases\":{\"forward\":$f,\"backward\":0.06,\"comm\":0.01$o}}"
		s=$((s + 1))
	done >once/rank$r/steps.jsonl
done
rep once >once.out
tap_check "a phase one rank records on one step only does not stop the straggler verdict" \
	'grep -q "^  stragglers  *1 (rank 3: " once.out'

# 3. NaN and negative compute on a rank
mkdir -p nanr/rank0 nanr/rank1 negr/rank0 negr/rank1
for s in $(seq 0 29); do
	echo "{\"step\":$s,$P}" >>nanr/rank0/steps.jsonl
	echo "{\"step\":$s,\"phases\":{\"data\":NaN,\"forward\":NaN,\"backward\":NaN,\"optimizer\":NaN}}" \
		>>nanr/rank1/steps.jsonl
	echo "{\"step\":$s,$P}" >>negr/rank0/steps.jsonl
	echo "{\"step\":$s,\"phases\":{\"data\":-0.01,\"forward\":-0.02,\"backward\":-0.04,\"optimizer\":-0.005}}" \
		>>negr/rank1/steps.jsonl
done
rep nanr >nanr.out
rep negr >negr.out
tap_check "NaN compute on a rank: not judged, not \"none\"" \
	'grep -q "^  stragglers  *not judged: rank 1 records a NaN data phase value at step 0$" nanr.out &&
	 grep -qx "  - stragglers and imbalance (rank 1 records a NaN data phase value at step 0)" nanr.out &&
	 ! grep -q "nan ms\|nan%" nanr.out'
# one NaN forward value on rank 2 (step 5), and on rank 3 (step 9) whose step 7 has no
# compute phase: their median compute is empty like their mean (no median made up by
# sorting a NaN among the values)
mkdir -p nan4/rank0 nan4/rank1 nan4/rank2 nan4/rank3
for r in 0 1 2 3; do
	for s in $(seq 0 29); do
		f=0.0$((20 + (s * 7 + r * 3) % 9))
		{ [ $r = 2 ] && [ $s = 5 ]; } || { [ $r = 3 ] && [ $s = 9 ]; } && f=NaN
		if [ $r = 3 ] && [ $s = 7 ]; then
			echo "{\"step\":$s,\"phases\":{\"data\":0.01}}"
		else
			echo "{\"step\":$s,\"phases\":{\"forward\":$f,\"backward\":0.04,\"comm\":0.003}}"
		fi
	done >nan4/rank$r/steps.jsonl
done
"$TSCOPE_BIN" --export ranks --no-index nan4 >nan4.csv 2>/dev/null
got=$(tail -n +2 nan4.csv | awk -F, '{ printf "%s:%s:%s\n", $1, $3 ? "x" : "", $4 ? "x" : "" }' | paste -sd'|')
tap_eq "a NaN phase value: the rank's mean and median compute both empty (ranks 2 and 3)" "0:x:x|1:x:x|2::|3::" "$got"
tap_check "negative compute on a rank: not judged" \
	'grep -q "^  stragglers  *not judged: rank 1 records a negative data phase value at step 0$" negr.out &&
	 ! grep -q "lost to imbalance [0-9]" negr.out'
# one negative value among 4 ranks x 50 steps, rank 3's mean still positive (it read "imbalance
# 25.4%", rank 3 at 2.93 ms)
mkdir -p neg4/rank0 neg4/rank1 neg4/rank2 neg4/rank3
for r in 0 1 2 3; do for s in $(seq 0 49); do
	b=0.06; [ $r = 3 ] && [ $s = 19 ] && b=-4.0
	echo "{\"step\":$s,\"phases\":{\"data\":0.008,\"forward\":0.03,\"backward\":$b,\"comm\":0.01}}"
done >neg4/rank$r/steps.jsonl; done
rep neg4 >neg4.out
rep --compat pytscope neg4 >neg4c.out
why="rank 3 records a negative backward phase value at step 19"
tap_check "one negative phase value: stragglers, imbalance and the walls n/a naming it" \
	'grep -q "^  stragglers  *not judged: $why$" neg4.out &&
	 grep -q "^  imbalance  *n/a: $why; comm n/a ($why)$" neg4.out &&
	 grep -q "^  run wall  *n/a: $why$" neg4.out && grep -qx "  - stragglers and imbalance ($why)" neg4.out &&
	 grep -qx "  per-rank compute: n/a ($why)" neg4.out && ! grep -q "lost to imbalance [0-9]" neg4.out'
tap_check "... --compat pytscope keeps pytscope's figures" \
	'grep -q "wall lost to imbalance [1-9][0-9.]*%" neg4c.out && grep -q "^    rank 3:   16.80 ms" neg4c.out'
"$TSCOPE_BIN" --export budget --no-index neg4 >neg4b.csv 2>/dev/null
tap_check "... the run budget n/a (not the other ranks'), rank 3's row empty; rank 0's, clean, stays" \
	'grep -qx "partial,,,,,,,,,,," neg4b.csv && grep -qx "rank,3,,,,,,,,,," neg4b.csv && grep -q "^rank,0,50," neg4b.csv'
# one rank, one negative data value (it read "compute 604.2% of rank wall", [HIGH] 76% recoverable)
mkdir neg1
for s in $(seq 0 49); do
	d=0.008; [ $s = 7 ] && d=-5.0
	echo "{\"step\":$s,\"phases\":{\"data\":$d,\"forward\":0.03,\"backward\":0.06,\"optimizer\":0.006," \
		"\"comm\":0.012}}"
done >neg1/steps.jsonl
rep neg1 >neg1.out
rep --compat pytscope neg1 >neg1c.out
why="a negative phase value: data at step 7 on rank 0"
tap_check "one negative phase on one rank: shares, step time, jitter and budget n/a naming it, no finding" \
	'grep -q "^● TIMING — 50 steps · n/a ms/step · n/a steps/s   (median n/a · p95 n/a ms · CV n/a)" neg1.out &&
	 grep -qx "  shares n/a ($why)" neg1.out &&
	 grep -qx "  budget  *n/a: $why" neg1.out && grep -qx "● EFFICIENCY BUDGET — n/a: $why" neg1.out &&
	 ! grep -q "%  *-\|(EFFICIENCY\|(TIMING" neg1.out &&
	 grep -qx "  - phase shares, step-time jitter and efficiency ($why)" neg1.out'
tap_check "... --compat pytscope keeps pytscope's findings" \
	'grep -q "(EFFICIENCY.RECOVERABLE)" neg1c.out && grep -q "(TIMING.JITTER)" neg1c.out'
"$TSCOPE_BIN" index neg1 >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never neg1 >neg1_idx.out 2>/dev/null
"$TSCOPE_BIN" index neg4 >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never neg4 >neg4_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s neg1.out neg1_idx.out && cmp -s neg4.out neg4_idx.out'

# 4. no phase at all
mkdir nop
for s in $(seq 0 29); do echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; done >nop/steps.jsonl
rep nop >nop.out
rep --compat pytscope nop >nopc.out
tap_check "no phase recorded: timing n/a, jitter not judged; --compat keeps pytscope's zeros" \
	'grep -qx "● TIMING — 30 steps · n/a ms/step (no phase recorded)" nop.out &&
	 ! grep -q "step time" nop.out &&
	 grep -qx "  - step-time jitter (no phase recorded)" nop.out &&
	 grep -q "^● TIMING — 30 steps · 0.0 ms/step · 0.0 steps/s" nopc.out'

# 5. --warmup beyond the records
mkdir wu
for s in $(seq 0 29); do
	echo "{\"step\":$s,$P,\"scalars\":{\"loss\":1.0},\"memory\":{\"alloc\":1e9}}"
done >wu/steps.jsonl
rep --warmup 100 wu >wu.out
rep --warmup 100 --compat pytscope wu >wuc.out
tap_check "--warmup past the records: says so, not \"no steps\" nor \"no loss recorded\"" \
	'grep -qx "● TIMING — n/a: all 30 records are inside --warmup 100 (nothing left to analyse)" wu.out &&
	 grep -q "^  - timing, loss and memory rules (all 30 records of rank 0 are inside --warmup 100: nothing" \
	 wu.out && ! grep -q "No steps recorded\|no loss recorded\|no memory recorded\|phase recorded" wu.out &&
	 grep -qx "No steps recorded." wuc.out'

# 6. imbalance on one aligned step
mkdir -p one4/rank0 one4/rank1 one4/rank2 one4/rank3
for r in 0 1 2 3; do
	f=0.02; [ "$r" = 1 ] && f=0.08
	echo "{\"step\":0,\"phases\":{\"forward\":$f,\"backward\":0.04,\"comm\":0.003}}" >one4/rank$r/steps.jsonl
done
rep one4 >one4.out
rep --compat pytscope one4 >one4c.out
tap_check "imbalance on 1 aligned step: no persistence claimed natively, pytscope's text under --compat" \
	'grep -q "CV=0.35 (persistence not judged: 1 aligned step, the noise test needs 16)\." one4.out &&
	 ! grep -q "persistent straggler" one4.out && grep -q "CV=0.35 with no single persistent straggler\." one4c.out'
# ... and 12 aligned steps with rank 2 of 4 slower throughout: pytscope's DIST.STRAGGLER
# (a z test, no noise estimate) judged them and fired; only tscope-tui's tests are not judged
mkdir -p short12/rank0 short12/rank1 short12/rank2 short12/rank3
for r in 0 1 2 3; do
	f=0.02; [ "$r" = 2 ] && f=0.03
	for s in $(seq 0 11); do
		echo "{\"step\":$s,\"phases\":{\"forward\":$f,\"backward\":0.04,\"comm\":0.003}}"
	done >short12/rank$r/steps.jsonl
done
"$TSCOPE_BIN" --export findings --no-index short12 >short12.csv 2>/dev/null
nj='^not judged,DIST.FAIL_SLOW DIST.SLOW_RANK DIST.TRANSIENT_STALL,"other stragglers than DIST.STRAGGLER.s rank 2'
tap_check "12 aligned steps, DIST.STRAGGLER fired: not judged are the native straggler tests, not it" \
	'grep -q "^[a-z]*,DIST.STRAGGLER,Rank 2 is a persistent straggler," short12.csv &&
	 grep -q "$nj (12 aligned steps, the noise test needs 16)\"," short12.csv &&
	 ! grep -q "^not judged,[^,]*DIST.STRAGGLER" short12.csv'

# 7 and 8. rank 1 gets faster from step 10: ties shared, and no stall blamed on 2 ranks
mkdir -p fast2/rank0 fast2/rank1
for s in $(seq 0 39); do
	echo "{\"step\":$s,$P}" >>fast2/rank0/steps.jsonl
	f=0.02; b=0.04; [ "$s" -ge 10 ] && f=0.014 && b=0.028
	echo "{\"step\":$s,\"phases\":{\"data\":0.01,\"forward\":$f,\"backward\":$b,\"optimizer\":0.005}}" \
		>>fast2/rank1/steps.jsonl
done
rep fast2 >fast2.out
rep --compat pytscope fast2 >fast2c.out
tap_check "DIST.STRAGGLER natively: the rank line's share and z (ties shared)" \
	'grep -q "^    rank 0: .* 88% (z=+4.7)" fast2.out && grep -q "rank in 88% of steps .* z=4.7)" fast2.out'
tap_check "DIST.STRAGGLER under --compat: pytscope's tie rule" 'grep -q "rank in 100% of steps .* z=6.3)" fast2c.out'
tap_check "2 ranks: no transient stall blamed on the rank that did not change" \
	'! grep -q "TRANSIENT_STALL\|stalled over" fast2.out'
mkdir -p two/rank0 two/rank1
for s in $(seq 0 29); do for r in 0 1; do echo "{\"step\":$s,$P}" >>two/rank$r/steps.jsonl; done; done
rep two >two.out
tap_check "2 ranks: transient stalls named not judged" \
	'grep -q "^  - transient stalls (they need 3 ranks, the run has 2: with 2 the step median" two.out'
# a negative flops_per_step in run.json: no MFU (it gave MFU -32% and a HIGH finding), said
mkdir -p negf/rank0
P2='"phases":{"forward":0.02,"backward":0.04}'
for s in $(seq 0 19); do echo "{\"step\":$s,$P2}"; done >negf/rank0/steps.jsonl
echo '{"name":"negf","rank":0,"world_size":1,"flops_per_step":-1.2e13,"peak_flops":3.12e14}' >negf/rank0/run.json
"$TSCOPE_BIN" --print --no-index --color never negf >negf.out 2>negf.err
tap_check "negative flops_per_step: MFU n/a with why, a warning, no LOW_MFU" \
	'grep -q "MFU n/a: flops_per_step is negative" negf.out && ! grep -q "LOW_MFU\|MFU -" negf.out &&
	 "$TSCOPE_BIN" --export sources --no-index negf 2>/dev/null |
		grep -q "flops_per_step -1.2e+13 is not a positive number"'
# a NaN in both ranks' step 5: the step walls' mean and comm share are n/a, not nan
mkdir -p nanw/rank0 nanw/rank1
for r in 0 1; do for s in $(seq 0 29); do
	f=0.02; [ $s = 5 ] && f=NaN
	echo "{\"step\":$s,\"phases\":{\"forward\":$f,\"backward\":0.04,\"comm\":0.01}}"
done >nanw/rank$r/steps.jsonl; done
rep nanw >nanw.out
tap_check "a NaN in the step walls: run wall, mean step wall and comm n/a, never nan" \
	'grep -q "^  run wall  *n/a" nanw.out &&
	 grep -q "comm n/a (rank 0 records a NaN forward phase value at step 5)" nanw.out &&
	 ! grep -qi "nan%\|nan ms\|nan s" nanw.out'
# ranks without phases: no step wall is measured (all ranks), or only rank 0's (rank 1)
mkdir -p nophase/rank0 nophase/rank1 halfph/rank0 halfph/rank1 halfcb/rank0 halfcb/rank1
for s in $(seq 0 29); do echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; done >nophase/rank0/steps.jsonl
cp nophase/rank0/steps.jsonl nophase/rank1/steps.jsonl
cp nophase/rank0/steps.jsonl halfph/rank1/steps.jsonl
cp nophase/rank0/steps.jsonl halfcb/rank1/steps.jsonl
for s in $(seq 0 29); do echo "{\"step\":$s,$P}"; done >halfph/rank0/steps.jsonl
for s in $(seq 0 29); do echo "{\"step\":$s,\"phases\":{\"forward\":0.02,\"backward\":0.04,\"comm\":0.05}}"
done >halfcb/rank0/steps.jsonl
rep nophase >nophase.out
rep halfph >halfph.out
rep halfcb >halfcb.out
tap_check "no phase on any rank: run wall n/a, not 0 s" \
	'grep -q "^  run wall  *n/a: no phase recorded$" nophase.out && ! grep -q "^  run wall  *0 s" nophase.out'
tap_check "a rank without phases: run wall and comm share n/a naming it, not rank 0's alone" \
	'grep -q "^  run wall  *n/a: rank 1 records no compute phase$" halfph.out &&
	 grep -q "; comm n/a (rank 1 records no comm phase)$" halfph.out && ! grep -q "of step wall" halfph.out'
tap_check "... the communication share listed not judged, with why" \
	'grep -qx "  - communication share (rank 1 records no comm phase)" halfph.out'
tap_check "... DIST.COMM_BOUND not raised on rank 0's comm, 45% of its step" '! grep -q "COMM_BOUND" halfcb.out'
# rank 1 records phases on steps 0-9 only, the loss alone after: not 20 steps of 0 s
mkdir -p partph/rank0 partph/rank1
for s in $(seq 0 29); do
	echo "{\"step\":$s,$P}" >>partph/rank0/steps.jsonl
	if [ "$s" -lt 10 ]; then echo "{\"step\":$s,$P}"; else echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; fi \
		>>partph/rank1/steps.jsonl
done
rep partph >partph.out
"$TSCOPE_BIN" --export ranks --no-index partph >partph.csv 2>/dev/null
"$TSCOPE_BIN" --export heatmap_cells --no-index partph 2>/dev/null | awk -F, '$1 == 1 && $3 >= 10' >partph.cells
"$TSCOPE_BIN" --print --no-index --compat pytscope --color never partph >partph_compat.out 2>/dev/null
why="rank 1 records no compute phase at 20 of the 30 aligned steps"
tap_check "a rank with phases on 10 of 30 steps: no straggler made of 0 s, not judged with why" \
	'grep -q "^  stragglers  *not judged: $why$" partph.out && grep -q "^  run wall  *n/a: $why$" partph.out &&
	 grep -qx "  - stragglers and imbalance ($why)" partph.out && ! grep -qi "fail-slow" partph.out'
tap_check "... ranks view: its compute over its steps with one (75 ms, not a mean of 25), no stall, no verdict" \
	'grep -qx "1,30,75,75,,,,,,0,1,,n/a,,," partph.csv'
tap_check "... its heatmap cells from step 10 on missing, not compute 0" \
	'[ "$(wc -l <partph.cells)" -eq 20 ] && [ "$(cut -d, -f5-7 partph.cells | sort -u)" = "compute,," ]'
tap_check "... --compat pytscope: pytscope's figures (0 s there: rank 1 at 25 ms, rank 0 its straggler)" \
	'grep -q "^    rank 1:   25.00 ms" partph_compat.out && grep -q "Rank 0 is a persistent straggler" partph_compat.out'
# rank dirs of two runs named "run": ranks 2-3 started 6.9 days after ranks 0-1
# started DIR RANK T: a rank dir with 20 steps whose run.json says started T
started() {
	mkdir -p "$1/rank$2"
	for s in $(seq 0 19); do echo "{\"step\":$s,$P}"; done >"$1/rank$2/steps.jsonl"
	echo "{\"name\":\"run\",\"rank\":$2,\"world_size\":4,\"started\":$3}" >"$1/rank$2/run.json"
}
for r in 0 1; do started two $r 1795344000.5; started one $r 1795344000.5; done
for r in 2 3; do started two $r 1795944000.25; started one $r 1795344060; done
rep two >two.out
rep one >one.out
tap_check "run.json started 6.9 days apart: a mixed runs line names the ranks" \
	'grep -q "^  mixed runs  *rank 2.s run.json started 6.9 days after rank 0.s: ranks of one job start" two.out'
tap_check "... a minute apart: no such line" '! grep -q "mixed runs" one.out'
"$TSCOPE_BIN" index two >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never two >two_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s two.out two_idx.out'
for r in 0 1 2 3; do started nolow $r 1795344000.5; done
rm nolow/rank0/run.json
started nolow 3 1795944000.25
rep nolow >nolow.out
tap_check "... the lowest rank without run.json: the others' started times still checked" \
	'grep -q "^  mixed runs  *rank 3.s run.json started 6.9 days after rank 1.s" nolow.out'
# Figures judged against a bar keep their side of it (man page Numbers): comm 24.996% of the
# step wall (DIST.COMM_BOUND from 25%) is not "25.0%", nor a top recoverable line of 19.996%
# (EFFICIENCY.RECOVERABLE from 20%) "20.0%", in the headline, TIMING, DISTRIBUTED, the
# budget and the findings; --compat pytscope keeps pytscope's digits.
# edge DIR RANKS DATA FWD BWD COMM: RANKS rank dirs (0: a single rank) of 40 steps of these phases
edge() {
	for r in $(seq 0 $(($2 > 0 ? $2 - 1 : 0))); do
		d=$1; [ "$2" -gt 0 ] && d=$1/rank$r
		mkdir -p "$d"
		awk -v da="$3" -v f="$4" -v b="$5" -v c="$6" 'BEGIN { for (s = 0; s < 40; s++)
			printf "{\"step\":%d,\"phases\":{\"data\":%s,\"forward\":%s,\"backward\":%s,\"comm\":%s}}\n",
				s, da, f, b, c }' >"$d/steps.jsonl"
	done
}
edge comm4 4 0 0.0048 0.0072 0.00399914671217535
edge rec1 0 0 0.0048 0.0072 0.0029992500374981254
edge data1 0 0.00799866675554963 0.0048 0.0072 0
rep comm4 >comm4.out
rep --compat pytscope comm4 >comm4c.out
rep rec1 >rec1.out
rep data1 >data1.out
tap_check "comm 24.996% of the step wall: not 25.0% anywhere, no DIST.COMM_BOUND" \
	'grep -q "; comm 24.996% of step wall$" comm4.out &&
	 grep -q "^  top recoverable  *n/a: .*; largest measured communication 160 ms (24.996%)$" comm4.out &&
	 grep -q "^  comm .* 24.996%     4.00 ms$" comm4.out &&
	 grep -q "^  mean step wall 16.0 ms · comm 24.996% ·" comm4.out &&
	 grep -q "^  communication .* 24.996%    160 ms (recoverable)$" comm4.out &&
	 ! grep -q "COMM_BOUND\|25\.0%" comm4.out'
tap_check "... --compat pytscope: pytscope's 25.0% and 25%" \
	'grep -q "^  comm .*  25.0%     4.00 ms$" comm4c.out && grep -q "^  mean step wall 16.0 ms · comm 25% ·" comm4c.out'
tap_check "top recoverable line 19.996%: not 20.0%, no EFFICIENCY.RECOVERABLE" \
	'grep -q "^  top recoverable  *n/a: .*; largest measured communication 120 ms (19.996%)$" rec1.out &&
	 grep -q "^  communication .* 19.996%    120 ms (recoverable)$" rec1.out && ! grep -q "RECOVERABLE" rec1.out'
tap_check "data 39.996% of step time: a medium DATALOADER_BOUND that says 39.996%, not 40%" \
	'grep -q "^  \[MED \] Input pipeline is a bottleneck" data1.out &&
	 grep -q "^        39.996% of step time is spent fetching data" data1.out && grep -q "^  data .* 39.996% " data1.out'
mkdir jit
for s in $(seq 0 39); do
	f=0.50004; [ $((s % 2)) = 0 ] && f=1.49996
	echo "{\"step\":$s,\"phases\":{\"forward\":$f}}"
done >jit/steps.jsonl
rep jit >jit.out
tap_check "step-time CV 0.49996 (TIMING.JITTER from 0.50): TIMING says so, no jitter finding" \
	'grep -q "· CV 0.49996)$" jit.out && ! grep -q "TIMING.JITTER" jit.out'
# Phases recorded as zeros are no phase time: rank 0's TIMING is n/a with why (not 0.0
# ms/step and CV 0.00) and its share and jitter rules are named not judged, as its budget
# is n/a; a rank whose compute is 0 throughout is not weighed (imbalance, stragglers, walls,
# the ranks view: not a rank 100% faster), named; --compat pytscope keeps pytscope's zeros.
mkdir -p zero1 zero4/rank0 zero4/rank1 zero4/rank2 zero4/rank3
Z='"phases":{"data":0.0,"forward":0.0,"backward":0.0,"optimizer":0.0,"comm":0.0}'
for s in $(seq 0 39); do echo "{\"step\":$s,$Z,\"scalars\":{\"loss\":1.0}}"; done >zero1/steps.jsonl
for r in 0 1 2 3; do for s in $(seq 0 39); do
	if [ $r = 2 ]; then echo "{\"step\":$s,$Z}"; else echo "{\"step\":$s,$P}"; fi
done >zero4/rank$r/steps.jsonl; done
rep zero1 >zero1.out
rep --compat pytscope zero1 >zero1c.out
rep zero4 >zero4.out
rep --compat pytscope zero4 >zero4c.out
"$TSCOPE_BIN" --export ranks --no-index zero4 >zero4.csv 2>/dev/null
why="the 40 records of rank 0 have no phase time, every phase 0"
tap_check "every phase 0: TIMING n/a with why, its rules named not judged, no 0.0 ms/step" \
	'grep -qx "● TIMING — n/a: $why" zero1.out && grep -qx "  - phase shares and step-time jitter ($why)" zero1.out &&
	 grep -q "^  budget  *n/a: the 40 records of rank 0 have no phase time" zero1.out &&
	 ! grep -q "0\.0 ms/step" zero1.out'
tap_check "... --compat pytscope: pytscope's zeros" \
	'grep -q "^● TIMING — 40 steps · 0.0 ms/step · 0.0 steps/s   (median 0.0 · p95 0.0 ms · CV 0.00)$" zero1c.out'
why="rank 2's compute is 0 at every aligned step"
tap_check "a rank whose compute is 0 throughout: not weighed, named; no imbalance finding" \
	'grep -q "^  imbalance  *n/a: $why; comm n/a ($why)$" zero4.out && grep -q "^  run wall  *n/a: $why$" zero4.out &&
	 grep -qx "  - stragglers and imbalance ($why)" zero4.out && ! grep -q "LOAD_IMBALANCE" zero4.out'
tap_check "... the ranks view: no share, z or slowdown of it (not -1), nor of the others" \
	'grep -qx "2,40,0,0,,,,,,0,1,,n/a,,," zero4.csv && ! grep -q ",-1," zero4.csv'
tap_check "... --compat pytscope: pytscope's imbalance finding" 'grep -q "(DIST.LOAD_IMBALANCE)" zero4c.out'
# Phase sums that overflow (rank 0's step 3: forward and backward 1e308 s): the budget, the
# walls and the comm share are n/a with why (as TIMING's shares), never nan, inf or -nan%,
# in the report and the CSV; a step of 1e9 s: 3 significant digits, not 1000000001 s.
mkdir -p ovf/rank0 ovf/rank1 ovf/rank2
for r in 0 1 2; do for s in $(seq 0 39); do
	if [ $r$s = 03 ]; then echo "{\"step\":$s,\"phases\":{\"data\":0.01,\"forward\":1e308,\"backward\":1e308}}"
	else echo "{\"step\":$s,$P}"; fi
done >ovf/rank$r/steps.jsonl; done
rep ovf >ovf.out
"$TSCOPE_BIN" --export budget --no-index ovf >ovfb.csv 2>/dev/null
"$TSCOPE_BIN" --export ranks --no-index ovf >ovfr.csv 2>/dev/null
tap_check "phase sums that overflow: budget, run wall and comm share n/a with why" \
	'grep -q "^  budget  *n/a: the phase totals overflow on rank 0$" ovf.out &&
	 grep -q "^  run wall  *n/a: the compute sums of rank 0 overflow$" ovf.out &&
	 grep -q "; comm n/a (the compute sums of rank 0 overflow)$" ovf.out &&
	 grep -qx "● EFFICIENCY BUDGET — n/a: the phase totals overflow on rank 0" ovf.out &&
	 grep -q "^  mean step wall n/a · comm n/a ·" ovf.out && ! grep -q "of step wall" ovf.out'
tap_check "... no nan or inf in the report, the budget or the ranks view" \
	'! grep -qiE "(^|[ (,])-?(nan|inf)([ %s,)]|$)" ovf.out ovfb.csv ovfr.csv && grep -q "^rank,0,,,,,,,,,,$" ovfb.csv'
mkdir -p big/rank0 big/rank1
for r in 0 1; do for s in $(seq 0 39); do
	if [ $r$s = 120 ]; then echo "{\"step\":$s,\"phases\":{\"forward\":1e9,\"comm\":0.003}}"
	else echo "{\"step\":$s,\"phases\":{\"forward\":0.02,\"comm\":0.003}}"; fi
done >big/rank$r/steps.jsonl; done
tap_check "a step of 1e9 s: the run wall in 3 significant digits" \
	'rep big | grep -q "^  run wall  *1e+09 s (sum of step walls: mean 2.5e+07 s x 40 aligned steps)$"'
# Phases compute leaves out (fwd, bwd, opt: not pytscope's names) carry most of the step: the
# ranks' compute is the data phase alone and the step walls miss that time, so stragglers,
# imbalance, the walls, the comm share and efficiency are not judged, naming the phases (it
# read "[HIGH] Communication dominates step time ... 63% of step wall", "63% of wall time is
# recoverable" and "stragglers none" with rank 2 30% slower from step 30), from the index
# too; --compat pytscope keeps pytscope's findings; the same run under pytscope's names, or
# with an outside phase of zeros beside them, finds rank 2.
mkdir -p fwd
for r in 0 1 2 3; do
	mkdir -p fwd/rank$r
	for s in $(seq 0 59); do
		j=$(((s * 7 + r * 3) % 5)); f=0.03$j; b=0.06$j
		[ $r = 2 ] && [ $s -ge 30 ] && f=0.039$j && b=0.078$j
		echo "{\"step\":$s,\"phases\":{\"data\":0.008,\"fwd\":$f,\"bwd\":$b,\"opt\":0.006,\"comm\":0.014}}"
	done >fwd/rank$r/steps.jsonl
done
rep fwd >fwd.out
rep --compat pytscope fwd >fwdc.out
why="compute leaves out phases fwd, bwd, opt: 82% of rank 0's phase time"
eff="82.0% of the phase time recorded by rank 0"
tap_check "phases compute leaves out: stragglers, imbalance, walls, comm share not judged, naming them, the share" \
	'grep -q "^  stragglers  *not judged: $why$" fwd.out && grep -q "^  run wall  *n/a: $why$" fwd.out &&
	 grep -q "^  imbalance  *n/a: $why; comm n/a ($why)$" fwd.out &&
	 grep -qx "  per-rank compute: n/a ($why)" fwd.out &&
	 grep -qx "  - stragglers and imbalance ($why)" fwd.out && grep -qx "  - communication share ($why)" fwd.out'
tap_check "... no COMM_BOUND or RECOVERABLE on the data phase alone: efficiency not judged, saying why" \
	'! grep -q "COMM_BOUND\|RECOVERABLE\|LOW_MFU\|of step wall\|stragglers  *none" fwd.out &&
	 grep -qx "  - efficiency (the budget leaves out phases fwd, bwd, opt: $eff)" fwd.out'
"$TSCOPE_BIN" index fwd >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never fwd >fwd_idx.out 2>/dev/null
tap_check "... the same from the index; --compat pytscope keeps pytscope's findings" \
	'cmp -s fwd.out fwd_idx.out &&
	 grep -q "^  \[HIGH\] Communication dominates step time  (DIST.COMM_BOUND)$" fwdc.out &&
	 grep -q "(EFFICIENCY.RECOVERABLE)$" fwdc.out'
mkdir canon idle
for r in 0 1 2 3; do
	mkdir -p canon/rank$r idle/rank$r
	sed 's/"fwd"/"forward"/; s/"bwd"/"backward"/; s/"opt"/"optimizer"/' fwd/rank$r/steps.jsonl \
		>canon/rank$r/steps.jsonl
	sed 's/}}$/,"idle":0.0}}/' canon/rank$r/steps.jsonl >idle/rank$r/steps.jsonl
done
tap_check "... under pytscope's names, and with an outside phase of zeros beside them, rank 2 is found" \
	'rep canon | grep -q "^  stragglers  *1 (rank 2: fail-slow, 21% slower from step 30" &&
	 rep idle | grep -q "^  stragglers  *1 (rank 2: fail-slow, 21% slower from step 30"'
# A checkpoint phase of 0.4% of the phase time on every step and a logging phase on two
# steps (1.7% in all): compute still weighs nearly all of the step, so rank 2 is found,
# the walls and efficiency judged, and the budget names them as not in it (it read
# "stragglers not judged: compute leaves out phases ckpt, logging"), with or without the
# index's kept sums; a checkpoint of 11% of rank 3's phase time (0.4% on the others) is
# not judged, naming rank 3.
mkdir small heavy
for r in 0 1 2 3; do
	mkdir -p small/rank$r heavy/rank$r
	sed 's/}}$/,"ckpt":0.0005}}/; /"step":[12]0,/s/}}$/,"logging":0.05}}/' canon/rank$r/steps.jsonl \
		>small/rank$r/steps.jsonl
	c=0.0005; [ $r = 3 ] && c=0.015
	sed "s/}}\$/,\"ckpt\":$c}}/" canon/rank$r/steps.jsonl >heavy/rank$r/steps.jsonl
done
rep small >small.out
tap_check "an outside phase below 5% of the phase time: rank 2 found, walls and efficiency judged, budget names it" \
	'grep -q "^  stragglers  *1 (rank 2: fail-slow, 21% slower from step 30" small.out &&
	 grep -q "^  run wall  *[0-9.]* s (sum of step walls" small.out && ! grep -q "leaves out" small.out &&
	 grep -q "^  not in budget .*(logging and others; 1\.7% of the phase time)$" small.out'
"$TSCOPE_BIN" index small >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never small 2>/dev/null >small_idx.out
tap_check "... the same from the index (its kept phase sums)" 'cmp -s small.out small_idx.out'
tap_check "... 11% of rank 3's phase time: not judged, naming rank 3 and its share" \
	'rep heavy | grep -qx "  stragglers  *not judged: compute leaves out phase ckpt: 11% of rank 3.s phase time"'
tap_plan
