#!/bin/sh
# demo.sh: the bundled demo run (testdata/demo) is deterministic and shows what it was
# built to show: rank 11 straggling from step ~180, the loss spike at step 300, memory
# growth; it loads without a single diagnostic; it holds exactly what gen_demo writes (no
# stray entry, such as a symlink a test left in it).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
[ -x "$gen" ] || gen="$TSCOPE_BUILD/tests/gen_demo"
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
"$gen" a 4 50 && "$gen" b 4 50
tap_check "gen_demo is deterministic" 'diff -r a b >/dev/null'
tap_check "committed demo has 16 ranks" '[ "$(ls -d "$demo"/rank* | wc -l)" -eq 16 ]'
"$gen" fresh
tap_check "committed demo: exactly gen_demo's files" 'diff -r --no-dereference fresh "$demo" >/dev/null'
"$TSCOPE_BIN" --print --color never "$demo" >d.out 2>d.err
rc=$?
tap_check "demo --print: exit 0, no data-quality notes" '[ "$rc" -eq 0 ] && [ ! -s d.err ]'
tap_check "demo: 16 ranks x 400 aligned steps" 'grep -q "^● DISTRIBUTED — 16 ranks, 400 aligned steps" d.out'
tap_check "demo: rank 11 is the straggler" 'grep -q "Rank 11 is a persistent straggler  (DIST.STRAGGLER)" d.out'
tap_check "demo: loss spike at step 300" 'grep -q "Correlated instability at step 300" d.out'
tap_check "demo: memory growth" 'grep -q "(MEMORY.GROWTH)" d.out'
"$TSCOPE_BIN" --export ranks --filter rank=11 "$demo" >r.csv
onset=$(awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="onset_step") c=i} NR==2{print $c}' r.csv)
tap_check "demo: straggler onset within 5 steps of 180 (got $onset)" '[ -n "$onset" ] && [ "$onset" -ge 175 ] && [ "$onset" -le 185 ]'
tap_plan
