#!/bin/sh
# real_pytscope.sh: the three real pytscope run.json files (../shared/real/pytscope-t4,
# Kaggle 2xT4) load: metadata is read, sources are clean (the ranks view, without a step
# record, is refused), and run.json's FLOPs and peak drive the MFU when steps are added
# next to a copy. Skips when ../shared is absent.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

real="$TSCOPE_ROOT/../shared/real/pytscope-t4"
if [ ! -f "$real/exp3_mfu/run.json" ]; then
	tap_skip "../shared/real/pytscope-t4 not present"
	tap_plan
	exit 0
fi
cd "$TSCOPE_TMP" || exit 1

"$TSCOPE_BIN" --export sources "$real/exp3_mfu" >s1.csv 2>s1.err
tap_check "exp3_mfu: run.json loads cleanly" 'grep -q "exp3_mfu/run.json,pytscope,0,,,1,0,ok" s1.csv'
"$TSCOPE_BIN" --print "$real/exp3_mfu" >p1.out 2>p1.err
rc=$?
tap_check "exp3_mfu: metadata only -> pytscope's nothing-found exit 1" '[ "$rc" -eq 1 ] && grep -q "^No steps or trace found in" p1.err'

"$TSCOPE_BIN" --export sources "$real/gpu_straggler" >s2.csv 2>s2.err
tap_check "gpu_straggler: both ranks' run.json load" '[ "$(grep -c "run.json,pytscope,[01],,,1,0,ok" s2.csv)" -eq 2 ]'
"$TSCOPE_BIN" --export ranks "$real/gpu_straggler" >r2.csv 2>r2.err
tap_check "gpu_straggler: no step record, so no ranks view (not two rows of 0 records, 0 missing)" \
	'[ $? -eq 1 ] && [ ! -s r2.csv ] && grep -q "not available for this run: no step records" r2.err'

# run.json's flops_per_step (3221225472) and peak_flops (312e12) reach the budget.
mkdir -p mfu
cp "$real/exp3_mfu/run.json" mfu/run.json
i=0
while [ $i -lt 20 ]; do
	printf '{"step":%d,"phases":{"forward":0.004,"backward":0.006,"optimizer":0.001}}\n' $i
	i=$((i + 1))
done >mfu/steps.jsonl
"$TSCOPE_BIN" --print --compat pytscope --color never mfu >m.out 2>m.err
tap_check "exp3_mfu metadata: MFU from run.json (0.1%)" 'grep -q "^  MFU 0.1%  ·  useful compute 0.1% of 0.22s wall" m.out'
tap_check "exp3_mfu metadata: run name 'run'" 'head -1 m.out | grep -q "^pytscope — run  (mfu)"'
tap_plan
