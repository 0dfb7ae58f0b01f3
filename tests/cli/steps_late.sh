#!/bin/sh
# steps_late.sh: ranks whose steps start or end at other steps than the others' (a rank
# that joined late, one that died). The rules across ranks read the steps on every rank,
# so the headline says where the ranks start ("ranks start", as "ranks end" says where
# they end) and the not-judged list names the steps no rank was compared on, with the
# ranks that leave them out: in the "No findings" list, beside findings too, in the
# findings export with the ids it stands for; a list of ranks that would not fit is a
# count (10,000 ranks); ranks with no step in common get no "cross-rank analyses" step;
# a live run's ranks behind are not said to leave steps out; --compat pytscope prints
# none of it.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# mk RUN NRANKS NSTEPS [SLOW]: rank dirs of steps 0..NSTEPS-1 (run.json n_steps NSTEPS,
# world_size NRANKS), every phase within 1% of the others', rank SLOW 40% slower.
mk() {
	i=0
	while [ $i -lt "$2" ]; do
		echo "$1/rank$i"
		i=$((i + 1))
	done | xargs mkdir -p
	awk -v run="$1" -v n="$2" -v ns="$3" -v slow="${4:--1}" 'BEGIN {
		for (r = 0; r < n; r++) {
			f = run "/rank" r "/steps.jsonl"
			k = r == slow ? 1.4 : 1
			for (s = 0; s < ns; s++)
				printf "{\"step\":%d,\"phases\":{\"forward\":%.6f,\"backward\":%.6f,\"comm\":0.003}}\n", s,
				       k * (0.03 + ((r * 7 + s * 13) % 10) / 10000), k * 0.06 >f
			close(f)
			j = run "/rank" r "/run.json"
			printf "{\"rank\":%d,\"world_size\":%d,\"n_steps\":%d}\n", r, n, ns >j
			close(j)
		}
	}'
}
# from FILE N: keep steps N on (the rank starts late); upto FILE N: keep steps 0..N-1
from() { tail -n +$(($2 + 1)) "$1" >cut && mv cut "$1"; }
upto() { head -n "$2" "$1" >cut && mv cut "$1"; }

# rank 2 joins at step 30, rank 3 is slow before it: nothing across ranks judged 0-29
mk late 4 60
from late/rank2/steps.jsonl 30
"$TSCOPE_BIN" --print --color never late >late.out 2>&1
tap_check "a rank that starts late: where the ranks start, and from which step they are compared" \
	'grep -q "^  ranks start  *rank 2 at step 30, rank 0 at 0 (1 of 4 start late); cross-rank analyses start at 30$" \
	 late.out && ! grep -q "ranks end" late.out'
tap_check "... and the not-judged list names the steps not compared and the rank that leaves them out" \
	'grep -q "^● No findings: no rule fired on this run; these rules could not judge it:$" late.out &&
	 grep -q "^  - stragglers and imbalance on steps 0-29 (rank 2 starts at step 30)$" late.out'

# the mirror: rank 2 ends at step 29
mk early 4 60
upto early/rank2/steps.jsonl 30
"$TSCOPE_BIN" --print --color never early >early.out 2>&1
tap_check "a rank that ends early: the not-judged list names the steps after its end" \
	'grep -q "^  ranks end  *rank 2 at step 29, rank 0 at 59 (1 of 4 end early); cross-rank analyses stop at 29$" \
	 early.out && grep -q "^  - stragglers and imbalance on steps 30-59 (rank 2 ends at step 29)$" early.out &&
	 ! grep -q "ranks start" early.out'

# ranks 1 and 2 start late, rank 3 (slow throughout) ends early: a straggler finding,
# and beside it the steps it says nothing of; the findings export names the ids
mk both 4 60 3
from both/rank1/steps.jsonl 10
from both/rank2/steps.jsonl 30
upto both/rank3/steps.jsonl 51
"$TSCOPE_BIN" --print --color never both >both.out 2>&1
tap_check "several ranks start late: listed, the last one named; beside a finding" \
	'grep -q "^  ranks start  *rank 2 at step 30, rank 0 at 0 (2 of 4 start late); cross-rank analyses start at 30$" \
	 both.out && grep -q "(DIST.STRAGGLER)$" both.out &&
	 grep -A2 "^  not judged (no finding there is no verdict):$" both.out >both.nj &&
	 grep -q "^  - stragglers and imbalance on steps 0-29 (ranks 1-2 start after step 0, rank 2 at step 30)$" \
	 both.nj && grep -q "^  - stragglers and imbalance on steps 51-59 (rank 3 ends at step 50)$" both.nj'
"$TSCOPE_BIN" --export findings both >both.csv 2>/dev/null
tap_check "... the findings export: a not-judged row standing for the rules across ranks" \
	'grep -q "^not judged,DIST.STRAGGLER .*DIST.LOAD_IMBALANCE.*,\"stragglers and imbalance on steps 0-29 (ranks 1-2" \
	 both.csv'

# no step on every rank: the headline does not say where the analyses start or stop
mk disj 2 60
upto disj/rank0/steps.jsonl 30
from disj/rank1/steps.jsonl 30
"$TSCOPE_BIN" --print --color never disj >disj.out 2>&1
tap_check "ranks with no step in common: no \"cross-rank analyses\" step, no step range unjudged" \
	'grep -q "^  ranks start  *rank 1 at step 30, rank 0 at 0 (1 of 2 start late); no step is on every rank$" disj.out &&
	 grep -q "^  ranks end  *rank 0 at step 29, rank 1 at 59 (1 of 2 end early); no step is on every rank$" disj.out &&
	 grep -q "^  - stragglers and imbalance (no step number is on every rank)$" disj.out &&
	 ! grep -q "cross-rank analyses\|imbalance on step" disj.out'

# 10,000 ranks: one late is named; half of them late is a count, not a flood of ids
mk big 10000 20
from big/rank7/steps.jsonl 5
"$TSCOPE_BIN" --print --color never --no-index big >big.out 2>&1
tap_check "10,000 ranks, one late: that rank" \
	'grep -q "^  ranks start  *rank 7 at step 5, rank 0 at 0 (1 of 10000 start late); cross-rank analyses start at 5$" \
	 big.out && grep -q "^  - stragglers and imbalance on steps 0-4 (rank 7 starts at step 5)$" big.out'
i=1
while [ $i -lt 10000 ]; do
	[ $i -eq 7 ] || echo big/rank$i/steps.jsonl
	i=$((i + 2))
done | xargs sed -i 1,3d
"$TSCOPE_BIN" --print --color never --no-index big >big.out 2>&1
tap_check "10,000 ranks, half of them late: counted" \
	'grep -q "^  - stragglers and imbalance on steps 0-4 (5000 ranks start after step 0, rank 7 at step 5)$" big.out'

# live (run.json without n_steps): the ranks behind have not ended; a late start stays one
mk live 4 60
from live/rank2/steps.jsonl 30
upto live/rank3/steps.jsonl 50
for r in 0 1 2 3; do printf '{"rank":%d,"world_size":4}\n' $r >live/rank$r/run.json; done
printf '6\n:dump %s\nq\n' "$TSCOPE_TMP/live.txt" >keys_live
TSCOPE_SCRIPT=keys_live TERM=dumb LINES=30 COLUMNS=200 "$TSCOPE_BIN" --tui --follow live >/dev/null 2>&1
tap_check "a live run: the steps before a late start are not judged, those the ranks behind have not reached are" \
	'grep -q "stragglers and imbalance on steps 0-29 (rank 2 starts at step 30)" live.txt &&
	 ! grep -q "imbalance on steps 50-59" live.txt'

# --compat pytscope: pytscope's report, none of the above
"$TSCOPE_BIN" --print --color never --compat pytscope late >compat.out 2>&1
tap_check "--compat pytscope: no ranks start line, no not-judged item" \
	'grep -q "^No issues found. Training looks balanced.$\|^● No issues found" compat.out &&
	 ! grep -q "ranks start\|steps 0-29" compat.out'
tap_plan
