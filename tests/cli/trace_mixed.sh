#!/bin/sh
# trace_mixed.sh: a trace in a pytscope run's rank{k}/ dir whose distributedInfo names
# another rank, or another world_size than the run.json's, is of another job (or
# misplaced): it is left out of the analysis, its source refused with the reason, and the
# headline says so (the same from the index); a trace of that rank and world_size, and
# one without distributedInfo, are the run's own. A run dir's own trace.json that names
# another world_size than its run.json is read (pytscope's rule) but named the same way.
# Traces whose first ProfilerSteps lie more than an hour apart (on wall clocks) are of two
# runs: the headline's mixed runs line names the ranks and files, and no rank is weighed
# against another (run wall, imbalance, sync skew, stragglers, critical path, HTA's
# potential stragglers, the heatmap's slowdown vs the step median: n/a, not judged, empty
# or not offered, with why), the same from the index; ten
# minutes apart, or a trace on no wall clock (ts from 0), is judged as before.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"

# a pytscope run of 4 ranks (world_size 4), 10 steps each
mkrun() {
	for k in 0 1 2 3; do
		mkdir -p "$1/rank$k" || exit 1
		printf '{"name":"r4","rank":%d,"world_size":4}\n' $k >"$1/rank$k/run.json"
		s=0
		while [ $s -lt 10 ]; do
			printf '{"step":%d,"phases":{"forward":0.01,"backward":0.02}}\n' $s
			s=$((s + 1))
		done >"$1/rank$k/steps.jsonl"
	done
}

# rank 3 of a world_size 8 job, in rank2/
mkrun run
"$tgen" run/rank2/worker3.pt.trace.json 1 3 >/dev/null || exit 1
"$T" --no-index --print --color never run >p.out 2>p.err
rc=$?
tap_check "another job's trace in rank2/: the headline names it, left out" \
	'[ "$rc" -eq 0 ] && grep "^  mixed runs  *run/rank2/worker3.pt.trace.json: its distributedInfo says " p.out |
	 grep -q "rank 3 of world_size 8, but it lies in rank 2.s dir (run.json: world_size 4): a trace of another job" &&
	 grep -q "(or misplaced); left out of the analysis" p.out'
tap_check "... no GPU time from it, no trace finding" \
	'! grep -q "GPU time" p.out && ! grep -q "TRACE.GPU_IDLE" p.out && ! grep -q "COMMUNICATION OVERLAP" p.out'
"$T" --no-index --export sources run >s.csv 2>/dev/null
tap_check "... its source is refused with the reason, the step logs ok" \
	'grep "^refused,run/rank2/worker3.pt.trace.json,kineto,3,,,,,\"refused: its distributedInfo says " s.csv |
	 grep -q "rank 3 of world_size 8, but it lies in rank 2.s dir" &&
	 grep -q "^file,run/rank2/steps.jsonl,pytscope,2,,,10,0,ok$" s.csv'
"$T" index run >/dev/null 2>&1 && "$T" --print --color never run >pi.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s p.out pi.out'

# rank 2 as its dir, but of world_size 8
mkrun w8
"$tgen" w8/rank2/rank2.pt.trace.json 1 2 >/dev/null || exit 1
"$T" --no-index --export sources w8 >w8.csv 2>/dev/null
tap_check "the dir's rank but another world_size: refused" \
	'grep "^refused,w8/rank2/rank2.pt.trace.json,kineto,2," w8.csv |
	 grep -q "says rank 2 of world_size 8, but it lies in rank 2.s dir (run.json: world_size 4)"'

# the run's own: rank 2 of world_size 4, and a trace without distributedInfo
mkrun own
"$tgen" t.json 1 2 >/dev/null &&
	sed 's/"world_size": 8/"world_size": 4/' t.json >own/rank2/rank2.pt.trace.json &&
	grep -v '"distributedInfo"' t.json >own/rank1/rank1.pt.trace.json || exit 1
"$T" --no-index --export sources own >own.csv 2>/dev/null
"$T" --no-index --print --color never own >own.out 2>/dev/null
tap_check "rank 2 of world_size 4 in rank2/, no distributedInfo in rank1/: both loaded" \
	'grep -q "^file,own/rank2/rank2.pt.trace.json,kineto,2,.*,ok$" own.csv &&
	 grep -q "^file,own/rank1/rank1.pt.trace.json,kineto,1,.*,ok$" own.csv &&
	 ! grep -q "mixed runs" own.out && grep -q "summed over 2 ranks" own.out'

# the run dir's own trace.json (pytscope's) of world_size 8 beside a run.json of 1: read
# (pytscope's rule), but named in the sources and the headline's mixed runs line
mkdir one
printf '{"name":"one","rank":0,"world_size":1}\n' >one/run.json
"$tgen" one/trace.json 1 0 >/dev/null || exit 1
"$T" --no-index --export sources one >one.csv 2>/dev/null
"$T" --no-index --print --color never one >one.out 2>/dev/null
tap_check "a run dir's trace.json of world_size 8, run.json 1: read, named in the sources and the headline" \
	'grep -q "^file,one/trace.json,kineto,0,.*,ok$" one.csv &&
	 grep -q "^warning,one/trace.json,,0,,,,,\"trace.json records world_size 8, run.json world_size 1: another \
run.s trace? It is read as this run.s" one.csv &&
	 grep -q "^  mixed runs  *one/trace.json records world_size 8, run.json world_size 1: another run.s trace?" one.out'
"$T" index one >/dev/null 2>&1 && "$T" --print --color never one >one_i.out 2>/dev/null
"$T" --export sources one >one_i.csv 2>/dev/null
tap_check "... the same from the index, named once" \
	'[ -d one/.tscope-index ] && cmp -s one.out one_i.out && [ "$(grep -c "another run.s trace" one_i.csv)" = 1 ]'

# Two ranks' traces of 3 ProfilerSteps (baseTimeNanoseconds: wall clocks), rank 1's a day
# after rank 0's (days), ten minutes after (mins), or on no wall clock (ts from 0: nowall)
mkdir days mins nowall
e9=000000000
strag_rank 0 2 "" 3 4000 1700000000$e9 >days/rank0.json && strag_rank 1 2 "2" 3 6000 1700086400$e9 >days/rank1.json &&
	cp days/rank0.json mins/ && strag_rank 1 2 "2" 3 6000 1700000600$e9 >mins/rank1.json &&
	cp days/rank0.json nowall/ && strag_rank 1 2 "2" 3 6000 >nowall/rank1.json || exit 1
"$T" --no-index --print --color never days >days.out 2>/dev/null
"$T" --no-index --export temporal days >days_t.csv 2>/dev/null
why="rank 1.s trace starts 1.0 days after rank 0.s: traces of two runs"
tap_check "traces a day apart: a mixed runs line names the ranks and their files" \
	'grep -q "^  mixed runs  *rank 1.s trace (days/rank1.json) starts 1.0 days after rank 0.s (days/rank0.json), by \
their first ProfilerStep (1 of 2 traces start over an hour after it): ranks of one job start within minutes; traces \
of two runs?" days.out'
tap_check "... no rank weighed against another: run wall, imbalance, stragglers, sync skew n/a with why" \
	'grep -q "^  run wall  *n/a: $why$" days.out && grep -q "^  imbalance  *n/a: $why; " days.out &&
	 grep -q "^  stragglers  *not judged: $why$" days.out &&
	 grep -q "^  critical compute lost to imbalance n/a · median sync skew n/a$" days.out &&
	 grep -q "^  per-rank compute: n/a ($why)$" days.out && ! grep -q "critical path" days.out'
tap_check "... HTA's potential stragglers not judged (empty), with why" \
	'grep -q "^  - potential stragglers ($why)$" days.out &&
	 [ "$(cut -d, -f1,10 days_t.csv | tr "\n" " ")" = "rank,potential_straggler 0, 1, " ]'
# ... nor by the heatmap: its slowdown vs the step median empty (export) or not offered
# (pane: m goes from compute to step time), as the ranks view's rel_slowdown; offered and
# filled ten minutes apart
"$T" --no-index --export heatmap days >days_h.csv 2>/dev/null
"$T" --no-index --export ranks days >days_r.csv 2>/dev/null
"$T" --no-index --export heatmap mins >mins_h.csv 2>/dev/null
tap_check "... the heatmap view's rel_slowdown empty, as the ranks view's; filled ten minutes apart" \
	'[ "$(cut -d, -f6,7 days_h.csv | sort -u | tr "\n" " ")" = ", rel_slowdown_mean,rel_slowdown_worst " ] &&
	 [ "$(cut -d, -f7 days_r.csv | sort -u | tr "\n" " ")" = " rel_slowdown " ] &&
	 [ "$(cut -d, -f6 mins_h.csv | grep -c "^-*[0-9]")" = 6 ]'
for d in days mins; do
	printf '2\nm\n:dump %s/%s.m\n' "$PWD" $d >keys
	TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$T" --no-index --tui $d >/dev/null 2>&1
done
tap_check "... the Heatmap pane does not offer it (m: step time); ten minutes apart it does" \
	'grep -q "^ step time: " days.m && grep -q "^ slowdown vs step median: " mins.m'
"$T" index days >/dev/null 2>&1 && "$T" --print --color never days >days_i.out 2>/dev/null
tap_check "... the same from the index" '[ -d days/.tscope-index ] && cmp -s days.out days_i.out'
"$T" --no-index --print --color never mins >mins.out 2>/dev/null
"$T" --no-index --print --color never nowall >nowall.out 2>/dev/null
tap_check "ten minutes apart, or a trace on no wall clock: no mixed runs line, the ranks weighed" \
	'! grep -q "mixed runs" mins.out nowall.out && grep -q "^  imbalance  *4.5% of critical compute" mins.out &&
	 grep -q "^  imbalance  *4.5% of critical compute" nowall.out'
tap_plan
