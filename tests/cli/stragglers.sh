#!/bin/sh
# stragglers.sh: the native straggler rules end to end on generated pytscope runs
# (gen_fixtures failslow / balanced): one late fail-slow rank among 48 is the only
# straggler in the report, the ranks view, the explorer's n/N and the findings; a
# 20-step stall on another rank is a transient finding; pytscope's rule (--compat
# pytscope) misses the late rank; a balanced run flags nothing. A rank that gets faster
# is no stall nor fail-slow on anyone: rank 0 of 4 or 8 at 0.6x from step 30 stalls
# nowhere (a stall on a rank usually faster is still found), 2 of 4 speeding up leave the
# other two not fail-slow (the line says why they are slower), and with 2 ranks (the step
# median is their mean) a rank turned slow only when its own compute rose: rank 0
# speeding up is said as such (pytscope's straggler from the step it happened), a 40%
# slowdown of rank 1 is still fail-slow, and a gap neither rank's own compute explains is
# not judged (the line and the not-judged list say so), the same from the index. A slow
# stretch that ends (steps 20-39, 20-55 or 0-39 of 60) is a stall, never fail-slow to the
# end nor slow throughout; a fail-slow that eases off to a lower level is quoted at the
# level it holds to the end. A 10 s hang of one rank at one step is a DIST.LOAD_IMBALANCE
# naming the step and the rank (not under --compat pytscope); a single 3x step is nothing;
# a hang over 3 steps is one finding over the three, with their cost. The fail-slow fix
# names the input pipeline as well as the device (which phases rose tells them apart).
# A rise over the last 4 steps is named not judged (no fail-slow 8 steps before the end at
# a blend of levels); a fail-slow is quoted at the level it holds, not its rise; ranks slow
# before their rise are slow throughout, then slower; pytscope's straggler that recovered
# is slow over its stall, then recovered; each the same from the index.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" failslow fs && "$gen" balanced bal || { tap_notok "fixtures generated"; exit 1; }

"$TSCOPE_BIN" --print --color never fs >fs.out 2>fs.err
rc=$?
tap_check "fail-slow run: exit 0" '[ "$rc" -eq 0 ]'
onset=$(sed -n 's/.*Rank 17 turned slow at step \([0-9]*\) (fail-slow)  (DIST.FAIL_SLOW)$/\1/p' fs.out)
tap_check "fail-slow: DIST.FAIL_SLOW on rank 17, onset within 5 steps of 1000 (got $onset)" \
	'[ -n "$onset" ] && [ "$onset" -ge 995 ] && [ "$onset" -le 1005 ]'
tap_check "fail-slow: its cost is reported" 'grep -q "The other ranks waited [0-9.]* s for it since then" fs.out'
tap_check "fail-slow: the fix says how to tell an input pipeline from a device (which phases rose)" \
	'grep -q "^        -> See which of rank 17.s phases .*: data points at its input pipeline" fs.out'
tap_check "fail-slow: the only straggler finding" '[ "$(grep -c "(DIST\.\(FAIL_SLOW\|SLOW_RANK\|STRAGGLER\))$" fs.out)" -eq 1 ]'
tap_check "stall: DIST.TRANSIENT_STALL on rank 30 over steps 400-419" 'grep -q "Rank 30 stalled over steps 400-419  (DIST.TRANSIENT_STALL)" fs.out'
tap_check "report headline names the one straggler" 'grep -q "^  stragglers  *1 (rank 17: fail-slow, 35% slower from step 10" fs.out'
tap_check "never 'No issues found' while a native rule fires" '! grep -q "No issues found" fs.out'

"$TSCOPE_BIN" --print --compat pytscope --color never fs >fc.out 2>&1
tap_check "--compat pytscope: pytscope's whole-run rule misses it (as 0.2.1)" 'grep -q "No issues found. Training looks balanced." fc.out'

"$TSCOPE_BIN" --export ranks fs >r.csv 2>/dev/null
col=$(head -1 r.csv | tr ',' '\n' | grep -n '^straggler$' | cut -d: -f1)
yes=$(awk -F, -v c="$col" 'NR>1 && $c=="yes" {print $1}' r.csv | tr '\n' ' ')
tap_eq "ranks view: the straggler column holds rank 17 only" "17 " "$yes"

# The explorer's n walks the same set.
cat >keys <<KEYS
n
:dump $TSCOPE_TMP/n1
KEYS
LINES=24 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui fs >/dev/null 2>tui.err
tap_check "n/N: straggler 1/1 is rank 17" 'grep -q "straggler 1/1: rank 17, slow from step" n1'

"$TSCOPE_BIN" --print --color never bal >b.out 2>&1
tap_check "balanced 64 ranks (+-5% noise): no straggler" 'grep -q "^  stragglers  *none" b.out'
tap_check "balanced: no finding, and no training-is-fine claim" 'grep -q "No findings: no rule fired" b.out && ! grep -q "balanced" b.out'

# mkrun DIR RANKS STEPS CHANGED FACTOR FROM [TO [SHARED]]: per rank a steps.jsonl of a
# 10 ms compute (forward 40%, backward 60%) +-4% (a fixed pattern per rank and step) and
# $extra phases; ranks in CHANGED (comma list) times FACTOR over steps FROM-TO (to the end
# when TO is empty); SHARED: every rank's compute times 1 +- SHARED at each step alike.
extra=',"data":0.002,"comm":0.003'
mkrun() {
	for r in $(seq 0 $(($2 - 1))); do
		mkdir -p "$1/rank$r"
		awk -v r="$r" -v n="$3" -v ch=",$4," -v fac="$5" -v lo="$6" -v hi="${7:-$3}" -v sh="${8:-0}" \
			-v extra="$extra" 'BEGIN {
			for (s = 0; s < n; s++) {
				j = 1 + 0.02 * ((7 * s + 3 * r) % 5 - 2)
				u = sin(s * 12.9898) * 43758.5453
				u -= int(u)
				if (u < 0)
					u += 1
				f = index(ch, "," r ",") && s >= lo && s <= hi ? fac : 1
				c = 0.01 * j * (1 + sh * (2 * u - 1)) * f
				printf "{\"step\":%d,\"phases\":{\"forward\":%.9f,\"backward\":%.9f%s}}\n", s, 0.4 * c,
					0.6 * c, extra
			}
		}' >"$1/rank$r/steps.jsonl"
	done
}
stall_steps() { # the ranks view's stall_steps column, one rank a line
	"$TSCOPE_BIN" --export ranks --no-index "$1" 2>/dev/null >"$1.csv"
	c=$(head -1 "$1.csv" | tr ',' '\n' | grep -n '^stall_steps$' | cut -d: -f1)
	awk -F, -v c="$c" 'NR > 1 { print $1 ":" $c }' "$1.csv" | tr '\n' ' '
}
rep() { "$TSCOPE_BIN" --print --no-index --color never "$1" >"$1.out" 2>/dev/null; }
not_slow='! grep -q "TRANSIENT_STALL\|FAIL_SLOW\|stalled over\|fail-slow\|turned slow at" "$run.out"'

for n in 4 8; do
	run=spd$n
	mkrun $run $n 80 0 0.6 30 && rep $run
	tap_check "rank 0 of $n faster (0.6x) from step 30: no stall over its steps before, no fail-slow" "$not_slow"
	tap_check "... stragglers none" 'grep -q "^  stragglers  *none (no rank significantly slower" $run.out'
	want=$(seq 0 $((n - 1)) | sed 's/$/:/' | tr '\n' ' ')
	tap_eq "... the ranks view: no stall_steps on any rank" "$want" "$(stall_steps $run)"
done
# rank 0 1.5x over steps 10-19, then 0.6x from step 30 (steps 0-29 of one run, the rest of
# another: the same pattern otherwise)
mkrun sfa 4 80 0 1.5 10 19 && mkrun sf 4 80 0 0.6 30 && head -30 sfa/rank0/steps.jsonl >sf0 &&
	tail -n +31 sf/rank0/steps.jsonl >>sf0 && mv sf0 sf/rank0/steps.jsonl && rep sf
tap_check "a stall on a rank usually faster is still found (steps 10-19)" \
	'grep -q "Rank 0 stalled over steps 10-19  (DIST.TRANSIENT_STALL)" sf.out &&
	 [ "$(grep -c "stalled over" sf.out)" -eq 1 ]'

# A slow stretch that ends is no fail-slow: rank 2 of 4 at 1.4x over steps 20-39 of 60 (or
# 20-55, or 0-39) then as before is a stall over those steps; at 1.4x over 20-39 then 1.15x
# to the end it is fail-slow from step 20 by the level it holds to the end (not the median
# over both levels)
run=rec4
mkrun $run 4 60 2 1.4 20 39 && rep $run
tap_check "rank 2 of 4 1.4x over steps 20-39, then recovered: a stall over 20-39, no fail-slow" \
	'grep -q "Rank 2 stalled over steps 20-39  (DIST.TRANSIENT_STALL)" $run.out &&
	 grep -q "^  stragglers  *none (no rank significantly slower" $run.out &&
	 ! grep -q "FAIL_SLOW\|fail-slow" $run.out'
run=late4
mkrun $run 4 60 2 1.4 20 55 && rep $run
tap_check "... over steps 20-55 of 60: a stall over 20-55, no fail-slow" \
	'grep -q "Rank 2 stalled over steps 20-55  (DIST.TRANSIENT_STALL)" $run.out &&
	 ! grep -q "FAIL_SLOW\|fail-slow" $run.out'
run=early4
mkrun $run 4 60 2 1.4 0 39 && rep $run
tap_check "... over steps 0-39 of 60: a stall over 0-39, not slow throughout" \
	'grep -q "Rank 2 stalled over steps 0-39  (DIST.TRANSIENT_STALL)" $run.out && ! grep -q "SLOW_RANK" $run.out'
run=lvl4
mkrun lvla 4 60 2 1.4 20 39 && mkrun $run 4 60 2 1.15 40 && head -40 lvla/rank2/steps.jsonl >l2 &&
	tail -n +41 $run/rank2/steps.jsonl >>l2 && mv l2 $run/rank2/steps.jsonl && rep $run
pct=$(sed -n 's/^  stragglers  *1 (rank 2: fail-slow, \([0-9]*\)% slower from step 20, .*/\1/p' $run.out)
tap_check "... 1.4x over 20-39 then 1.15x: fail-slow from step 20 at the lasting level, 8-16% (got $pct)" \
	'[ -n "$pct" ] && [ "$pct" -ge 8 ] && [ "$pct" -le 16 ]'

# One step's hang: rank 1 of 4 at 1000x on step 30 of 60 (10 s against 10 ms) is named
# natively (DIST.LOAD_IMBALANCE: that step alone lost 5% or more of critical compute),
# not under --compat pytscope (its median CV is low); a single 3x step is not
run=hang4
mkrun $run 4 60 1 1000 30 30 && rep $run
want="^  \[MED \] Step 30 alone lost 70% of critical compute waiting for rank 1  (DIST.LOAD_IMBALANCE)$"
tap_check "rank 1 hangs 10 s at step 30: a finding names the step and the rank" 'grep -q "$want" $run.out'
"$TSCOPE_BIN" --print --no-index --compat pytscope --color never $run >${run}c.out 2>/dev/null
tap_check "... not under --compat pytscope (its CV bar)" '! grep -q "LOAD_IMBALANCE" ${run}c.out'
run=spike4
mkrun $run 4 60 1 3 30 30 && rep $run
tap_check "a single 3x step on rank 1: no DIST finding" '! grep -q "(DIST\." $run.out'
run=hang34
mkrun $run 4 60 1 100 30 32 && rep $run
want="^  \[MED \] Steps 30-32 lost 60% of critical compute waiting for rank 1  (DIST.LOAD_IMBALANCE)$"
tap_check "rank 1 hangs 1 s at steps 30-32: one finding names the three steps and their cost, not step 30 alone" \
	'grep -q "$want" $run.out && [ "$(grep -c "(DIST\." $run.out)" -eq 1 ] &&
	 grep -q "59.9% of the run.s critical compute was lost to imbalance over those 3 steps (60.5% over" $run.out'
"$TSCOPE_BIN" --export findings --no-index $run 2>/dev/null >$run.csv
tap_eq "... its evidence: rank 1, steps 30-32" "1,30,32" "$(grep "^med,DIST.LOAD_IMBALANCE," $run.csv | cut -d, -f4-6)"

run=half4
mkrun $run 4 100 0,1 0.6 70 && rep $run
tap_check "ranks 0 and 1 of 4 faster from step 70: no fail-slow nor stall on ranks 2 and 3" "$not_slow"
why="from step 70 rank 2 is [0-9]*% slower against the step median as other ranks sped up"
tap_check "... the line says why they are slower, not 'none (no rank significantly slower ...)'" \
	'grep -q "^  stragglers  *none turned slow: $why (own compute did not rise; 1 more rank likewise)$" $run.out'

run=sp2
mkrun $run 2 80 0 0.6 30 && rep $run
tap_check "2 ranks, rank 0 faster from step 30: no fail-slow on rank 1" "$not_slow"
why="from step 30 rank 1 is [0-9]*% slower against the 2 ranks' mean as rank 0 sped up (own compute did not rise)"
tap_check "... pytscope's straggler rank 1 slower from step 30 (not 0), as rank 0 sped up" \
	'grep -q "^  stragglers  *1 (rank 1: [0-9]*% slower from step 30, cost [^)]*); $why$" $run.out'
run=sp2late
mkrun $run 2 100 0 0.6 70 && rep $run
why="from step 70 rank 1 is [0-9]*% slower against the 2 ranks' mean as rank 0 sped up"
tap_check "2 ranks, rank 0 faster from step 70 (no pytscope straggler): none turned slow, said why" \
	'grep -q "^  stragglers  *none turned slow: $why" $run.out && '"$not_slow"
run=slow2
mkrun $run 2 80 1 1.4 30 && rep $run
tap_check "2 ranks, rank 1 1.4x from step 30: still fail-slow" \
	'grep -q "^  stragglers  *1 (rank 1: fail-slow, [0-9]*% slower from step 30, cost [^)]*)$" $run.out'

# 2 ranks, every step's compute +-30% alike on both, rank 1 1.2x from step 60: the gap is
# significant, neither rank's own compute change is (fail-slow of rank 1 or rank 0 faster)
extra=
run=gap2
mkrun $run 2 80 1 1.2 60 "" 0.3 && rep $run
why="from step 60 rank 1 is [0-9]*% slower against the 2 ranks' mean, but neither rank's own compute clearly changed"
tap_check "2 ranks, a gap neither rank's own compute explains: not judged, no fail-slow" \
	'grep -q "^  stragglers  *not judged: $why$" $run.out && grep -q "^  - a fail-slow rank ($why)$" $run.out &&
	 ! grep -q "FAIL_SLOW\|turned slow at\|fail-slow," $run.out'
"$TSCOPE_BIN" index $run >/dev/null 2>&1
"$TSCOPE_BIN" --print --color never $run >${run}_idx.out 2>/dev/null
tap_check "... the same from the index" '[ -f $run/.tscope-index/summary.tsx ] && cmp -s $run.out ${run}_idx.out'

# same_from_index RUN: the report from the index (its summary) is the one without it
same_from_index() {
	"$TSCOPE_BIN" index "$1" >/dev/null 2>&1
	"$TSCOPE_BIN" --print --color never "$1" >"$1_idx.out" 2>/dev/null
	[ -f "$1/.tscope-index/summary.tsx" ] && cmp -s "$1.out" "$1_idx.out"
}
# splice RUN A B RANKS N: RUN is A with RANKS (comma list) taken from B from step N on
splice() {
	mkdir -p "$1" && cp -r "$2"/* "$1"/
	for r in $(echo "$4" | tr , ' '); do
		head -"$5" "$2/rank$r/steps.jsonl" >"$1/rank$r/steps.jsonl"
		tail -n +$(($5 + 1)) "$3/rank$r/steps.jsonl" >>"$1/rank$r/steps.jsonl"
	done
}

# A rise in the last steps: rank 1 of 8 2x over the last 4 of 200 steps is no fail-slow
# placed 8 steps before the end at a blend of both levels; it is named, not judged. 8
# steps before the end it is a fail-slow from its step, at its level.
run=end4
mkrun $run 8 200 1 2 196 && rep $run
late="from step 196 rank 1 is 9[0-9]% slower than the step median, over the last 4 steps:"
late="$late a fail-slow needs 8 after its onset"
none="none before step 196 (no rank significantly slower than the step median)"
tap_check "rank 1 2x over the last 4 steps: no fail-slow at step 192; the line names the rise, not judged" \
	'grep -q "^  stragglers  *$none; not judged: $late$" $run.out && ! grep -q "FAIL_SLOW\|fail-slow, " $run.out'
tap_check "... the not-judged list too" 'grep -q "^  - a fail-slow rank in the last steps ($late)$" $run.out'
tap_check "... the same from the index" 'same_from_index $run'
run=end8
mkrun $run 8 200 1 2 192 && rep $run
tap_check "... over the last 8 steps: fail-slow from step 192, at its level" \
	'grep -q "^  stragglers  *1 (rank 1: fail-slow, 9[0-9]% slower from step 192, cost" $run.out &&
	 grep -q "Rank 1 turned slow at step 192 (fail-slow)  (DIST.FAIL_SLOW)$" $run.out'

# The figure quoted is the level held, not the rise: ranks 1 and 5 of 8 (two, so pytscope's
# rule says nothing) 4% faster, then 1.3x from step 100: about 30% above the step median, a
# rise of 34%
mkrun lva 8 200 1,5 0.96 0 && mkrun lvb 8 200 1,5 1.3 0 && splice lvl8 lva lvb 1,5 100 && run=lvl8 && rep $run
pct=$(sed -n 's/^  stragglers  *2 (rank [15]: fail-slow, \([0-9]*\)% slower from step 100, cost .*/\1/p' $run.out)
tap_check "ranks 1 and 5 4% faster, then 1.3x from step 100: fail-slow at the level it holds, 26-32% (got $pct)" \
	'[ -n "$pct" ] && [ "$pct" -ge 26 ] && [ "$pct" -le 32 ]'
pct=$(grep "^        From step 100 to the end rank 1.s compute is [0-9]*% above the step median (its" $run.out |
	sed -n 's/.* \([0-9]*\)% above the step median (its median since then, up from -[1-9][0-9]*% before; z=.*/\1/p')
tap_check "... the finding quotes that level (26-32%, got $pct), up from a negative one before (not the rise)" \
	'[ -n "$pct" ] && [ "$pct" -ge 26 ] && [ "$pct" -le 32 ]'

# Slow before the rise too: ranks 3 and 6 of 8 1.12x over steps 0-99, 1.45x from 100 are
# slow throughout, then slower, with their cost over the whole run; not turned slow at 100
mkrun twa 8 200 3,6 1.12 0 && mkrun twb 8 200 3,6 1.45 0 && splice twolvl twa twb 3,6 100 && run=twolvl && rep $run
tap_check "ranks 3 and 6 12% slower, then 45% from step 100: slow throughout, then slower" \
	'grep -q "^  stragglers  *2 (rank [36]: [0-9]*% slower from step 0, 4[0-9]% from step 100, cost [^;]*; 1 more)$" \
	 $run.out &&
	 [ "$(grep -c "is slower than the others throughout, more so from step 100  (DIST.SLOW_RANK)$" $run.out)" -eq 2 ] &&
	 ! grep -q "FAIL_SLOW\|fail-slow\|turned slow at" $run.out'
lvl="^        Rank 3.s compute is [0-9]*% above the step median before step 100"
lvl="$lvl (z=[0-9]* against its step-to-step noise of [0-9.]*%) and 4[0-9]% from there to the end"
tap_check "... at the level before and the level from there" 'grep -q "$lvl" $run.out'
tap_check "... the same from the index" 'same_from_index $run'

# pytscope's straggler that recovered: rank 3 of 8 1.3x over steps 0-119 of 200 is slow
# over those steps, then recovered, not slower from step 0 on
run=rec8
mkrun $run 8 200 3 1.3 0 119 && rep $run
tap_check "rank 3 1.3x over steps 0-119, then as the others: pytscope's straggler over 0-119, then recovered" \
	'grep -q "^  stragglers  *1 (rank 3: pytscope.s straggler, [0-9]*% slower over steps 0-119, then recovered, cost" \
	 $run.out &&
	 grep -q "(DIST.STRAGGLER)$" $run.out && grep -q "Rank 3 stalled over steps 0-119  (DIST.TRANSIENT_STALL)$" $run.out'
tap_check "... the same from the index" 'same_from_index $run'
printf 'n\n:dump %s/nrec\n' "$TSCOPE_TMP" >"$TSCOPE_TMP/keys"
LINES=24 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui $run >/dev/null 2>&1
tap_check "... and n says so (it said 'slow from step 0')" \
	'grep -q "straggler 1/1: rank 3, slow over steps 0-119, then recovered (ordered by cost)" "$TSCOPE_TMP/nrec"'
tap_plan
