#!/bin/sh
# trace_mixed.sh: a trace in a pytscope run's rank{k}/ dir whose distributedInfo names
# another rank, or another world_size than the run.json's, is of another job (or
# misplaced): it is left out of the analysis, its source refused with the reason, and the
# headline says so (the same from the index); a trace of that rank and world_size, and
# one without distributedInfo, are the run's own. A run dir's own trace.json that names
# another world_size than its run.json is read (pytscope's rule) but named the same way.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"

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
tap_plan
