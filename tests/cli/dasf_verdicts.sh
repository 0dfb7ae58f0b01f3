#!/bin/sh
# dasf_verdicts.sh: DASF verdicts stay true on edge cases (gen_dasf verdicts): a dependency
# cycle makes the critical path n/a and is named in the sources (task_graph's Critical
# cells are then missing, as with a task without a usable duration, never "no": they read
# no for a task off a known critical path, yes on it); tasks of 0 s leave the
# function and worker rules not judged; negative and NaN/inf durations are flagged and
# counted as missing alike in the headline, the report and the views, and leave the
# function and worker rules not judged (naming whose tasks) and the critical path n/a
# (naming a task; never its time as 0 s), in the headline, the report and the exports; a
# database with no loadable record is "nothing found" (exit 1, its diagnostics said); a tie
# at the top is no dominant function; databases of two runs (one host's, or differing
# <name>-<unixtime> prefixes) and a copy of a database are warned of, naming the files;
# an empty task_balance says why; an event without an args map is named; a database of
# Managed Memory events alone prints its task_balance, the task heads said n/a; a nonzero
# size the report's decimals would show as 0.000 MB has 3 significant digits; a function
# with 79.996% of the task time (medium, high from 80%) is never said to take 80%.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=${TSCOPE_BIN:?}
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_dasf" verdicts v && "$B/gen_dasf" run r1 20 tokA extrafn && "$B/gen_dasf" run r2 50 tokB fb &&
	"$B/gen_dasf" variants var.msgpack ||
	{ tap_notok "verdict databases generated"; exit 1; }

report() { "$BIN" --print --no-index --color never "$@" 2>/dev/null; }
sources() { "$BIN" --export sources "$@" 2>/dev/null; }

# 1. a cycle a -> b -> c -> a (6 s) and d -> e (1 s): no critical path, said why
report v/cycle.msgpack >cycle.txt
tap_check "cycle: the critical path is n/a, naming a task of the cycle (headline and report)" \
	'grep -q "^  critical path  *n/a: the task graph has a dependency cycle through task .[abc]-1. (3 tasks" \
	 cycle.txt &&
	 grep -q "^  task time 7.000 s · critical path n/a$" cycle.txt &&
	 grep -q "^    n/a: no critical path: the task graph has a dependency cycle" cycle.txt &&
	 ! grep -q "critical path .* over" cycle.txt'
crit_cells() { # the distinct Critical cells of task_graph
	"$BIN" --export task_graph "$@" 2>/dev/null | sed 1d | awk -F, '{ print $NF }' | sort -u | paste -sd' ' -
}
tap_check "no critical path (a cycle, a negative or NaN duration): task_graph's Critical empty, never no" \
	'[ -z "$(crit_cells v/cycle.msgpack)" ] && [ -z "$(crit_cells v/neg.msgpack)" ] &&
	 [ -z "$(crit_cells v/nan.msgpack)" ] && [ "$(crit_cells v/tie.msgpack)" = "no yes" ]'
tap_check "cycle: a warning in the sources names the cycle" \
	'sources v/cycle.msgpack | grep -q "^warning,.*cycle.msgpack,.*dependency cycle through task .[abc]-1."'
report v/allcycle.msgpack >allcycle.txt
tap_check "every task in a cycle: n/a, never 0 s over 0 tasks" \
	'grep -q "critical path n/a$" allcycle.txt && ! grep -q "over 0 tasks" allcycle.txt'

# 2. every task 0 s: the function and worker rules could not judge
report v/zero.msgpack >zero.txt
tap_check "0 s of task time: dominant function and worker imbalance listed as not judged" \
	'grep -q "^  - dominant task function (0 s of task time)$" zero.txt &&
	 grep -q "^  - worker imbalance (0 s of task time)$" zero.txt'

# 3. negative, NaN and inf durations: flagged, and missing everywhere alike
sources v/neg.msgpack >neg.csv
tap_check "negative duration: a warning with its file and offset" \
	'grep -q "^warning,.*neg.msgpack,,,,[0-9][0-9]*,,,Compute event with an unusable duration (-4 s: negative)" \
	 neg.csv'
report v/neg.msgpack >neg.txt
tap_check "negative duration: headline, report and rules count 6 s (5 + 1), -4 s nowhere" \
	'grep -q "^  DASF tasks .*; 6 s of task time$" neg.txt && grep -q "^  task time 6.000 s ·" neg.txt &&
	 ! grep -q -- "-4" neg.txt'
"$BIN" --export task_bottleneck v/neg.msgpack >neg_tb.csv 2>/dev/null
tap_check "negative duration: task_bottleneck leaves it missing (empty), shares of the rest" \
	'grep -q "^h,1,b-1,,,0.001$" neg_tb.csv && grep -q "^h,1,c-1,1,100,0.001$" neg_tb.csv'
report v/nan.msgpack >nan.txt
tap_check "NaN and inf durations: flagged, and the task time is 3 s in the headline and the report" \
	'[ "$(sources v/nan.msgpack | grep -c "unusable duration")" = 2 ] &&
	 grep -q "^  DASF tasks .*; 3 s of task time$" nan.txt && grep -q "^  task time 3.000 s ·" nan.txt &&
	 ! grep -qi "nan s\|inf s" nan.txt'

tap_check "a task without a usable duration: no dominant function or worker imbalance; not judged, naming whose" \
	'! grep -q "FUNCTION_DOMINATES\|WORKER_IMBALANCE" neg.txt nan.txt &&
	 grep -q "^  - dominant task function (1 of 1 task of function b has no usable duration)$" neg.txt &&
	 grep -q "^  - worker imbalance (1 of 2 tasks of worker worker-h-1 has no usable duration)$" neg.txt &&
	 grep -q "^  - worker imbalance (1 of 2 tasks of worker worker-h-0 has no usable duration; 1 more in 1 other \
worker)$" nan.txt'
# a chain x-1 -> x-2 -> x-3 of 1 s, NaN, 1 s beside y-1 -> y-2 of 1.5 s each (legacy text, ms)
ctask() { # KEY FUNCTION TIMESTAMP DURATION WORKER DEPENDENCIES DEPENDENTS
	printf 'trace: {"name": "Compute", "timestamp": %s, "process_id": "h", "thread_id": "worker-h-%s", ' "$3" "$5"
	printf '"data": {"key": "%s", "name": "%s", "dependencies": [%s], "dependents": [%s]}, ' "$1" "$2" "$6" "$7"
	printf '"duration": %s}\n' "$4"; }
{ ctask x-1 x 10000 1000 0 "" '"x-2"'; ctask x-2 x 11000 NaN 0 '"x-1"' '"x-3"'; ctask x-3 x 12000 1000 0 '"x-2"' ""
  ctask y-1 y 10000 1500 1 "" '"y-2"'; ctask y-2 y 11500 1500 1 '"y-1"' ""; } >chain.txt
report --dasf chain.txt >chain.out
"$BIN" --export critical_path --dasf chain.txt >chain_cp.csv 2>chain_cp.err
"$BIN" --export task_graph --dasf chain.txt >chain_tg.csv 2>/dev/null
tap_check "a NaN task on a chain: the critical path n/a naming it (headline, report), never 3 s over 2 tasks" \
	'grep -q "^  critical path  *n/a: task .x-2. has no usable duration, so the longest chain is unknown" \
	 chain.out && grep -q "^  task time 5.000 s · critical path n/a$" chain.out &&
	 grep -q "^    n/a: no critical path: task .x-2. has no usable duration" chain.out &&
	 ! grep -q " over " chain.out'
tap_check "... the critical_path export says why instead of rows; task_graph marks no task critical" \
	'! grep -q "^[0-9]" chain_cp.csv && grep -q "x-2. has no usable duration" chain_cp.err &&
	 grep -q "^x-2,x,h,0,," chain_tg.csv && ! grep -q ",yes$" chain_tg.csv'

# 5. two functions of 4 s each: neither dominates
report v/tie.msgpack >tie.txt
tap_check "a tie at the top (4 s and 4 s): no DASF.FUNCTION_DOMINATES" \
	'grep -q "DASF task profile" tie.txt && ! grep -q "FUNCTION_DOMINATES\|takes 50%" tie.txt'

# 4. one host's databases of two runs; a database and its copy
tap_check "two runs in one directory: a warning naming both files" \
	'sources v/two | grep -q "two runs for one host: .*/Prof-1700000000-[^ ]* and .*/Prof-1700003600-[^ ]* differ"'
# two runs on different hosts (their <name>-<unixtime> prefixes differ): one warning per
# new prefix, also in the data-quality line; one run's prefix, or names without a
# -<unixtime> part, none
mkdir mix one bare
cp r1/p-TracePlugin-h0.msgpack mix/pipe-1700000000-TracePlugin-h0.msgpack
cp r1/p-TracePlugin-h1.msgpack mix/pipe-1700000000-TracePlugin-h1.msgpack
cp r2/p-TracePlugin-h0.msgpack mix/other-1700500000-TracePlugin-h2.msgpack
cp r2/p-TracePlugin-h1.msgpack mix/other-1700500000-TracePlugin-h3.msgpack
cp mix/pipe-* one/ && cp r2/p-TracePlugin-h0.msgpack one/pipe-1700000000-ResourceMonitor-h9.msgpack
cp r1/p-TracePlugin-h0.msgpack bare/rank-0-TracePlugin-h0.msgpack
cp r2/p-TracePlugin-h1.msgpack bare/rank-1-TracePlugin-h1.msgpack
cp r2/p-TracePlugin-h0.msgpack bare/pipe-1700000000-TracePlugin-h2.msgpack
sources mix >mix.csv
"$BIN" --print --no-index --color never mix 2>mix.err >/dev/null
tap_check "two runs on different hosts: one warning naming a file of each run, counted in data quality" \
	'[ "$(grep -c "two runs" mix.csv)" = 1 ] &&
	 grep -q "^warning,mix/pipe-1700000000-TracePlugin-h0.msgpack,.*databases of two runs: mix/other-1700500000-\
TracePlugin-h2.msgpack and mix/pipe-1700000000-TracePlugin-h0.msgpack differ in their <name>-<unixtime> part" mix.csv &&
	 grep -q "data quality: 0 errors, 1 warning" mix.err'
tap_check "one run's hosts under one prefix, or names without -<unixtime>: no two-runs warning" \
	'sources one >one.csv && sources bare >bare.csv && ! grep -q "two runs" one.csv bare.csv'
tap_check "a copy of a database: a warning naming both files" \
	'sources v/copy | grep -q "2 tasks of .*/1-TracePlugin-hA.msgpack repeat tasks of .*/1-TracePlugin-hA.bak"'

# 6. no Managed Memory events: task_balance says why instead of an empty heading
report r1 >r1.txt
tap_check "task_balance without Managed Memory events: the reason, not an empty heading" \
	'grep -A1 "^  Tasks in memory per worker" r1.txt | grep -q "^    n/a: no DASF Managed Memory events loaded$"'

# 7. an event without an args map is named
sources var.msgpack >var.csv
tap_check "an event without an args map: the diagnostic names the event" \
	'grep -q "event without an args map: name .Compute." var.csv && ! grep -q "args map:\"*$" var.csv'
# Managed Memory events alone: the section prints task_balance; no task, no critical path
report v/memonly.msgpack >memonly.txt
tap_check "memory events alone: the report's DASF section has task_balance, the task heads n/a" \
	'grep -q "^  task time n/a · critical path n/a$" memonly.txt &&
	 grep -q "^  no task (Compute) event: top functions, top tasks and the critical path n/a$" memonly.txt &&
	 grep -q "^  Tasks in memory per worker" memonly.txt && grep -q "^  *2  *3  *4$" memonly.txt'
tap_check "memory events alone are data: exit 0" 'report v/memonly.msgpack >/dev/null'
# no loadable record: every Compute event's duration a string; a file cut inside its first record
for k in 1 2 3; do
	printf 'trace: {"name": "Compute", "timestamp": 1000, "process_id": "h", "thread_id": "worker-h-0", '
	printf '"data": {"key": "a-%s", "name": "a"}, "duration": "x"}\n' "$k"
done >allbad.txt
printf '\000\000\000' >cut3.msgpack
"$BIN" --print --no-index --color never --dasf allbad.txt >allbad.out 2>allbad.err
allbad_rc=$?
"$BIN" --print --no-index --color never --dasf cut3.msgpack >cut3.out 2>cut3.err
cut3_rc=$?
tap_check "no loadable record: exit 1, nothing found (no 'No findings' report), the diagnostics still said" \
	'[ "$allbad_rc" = 1 ] && [ "$cut3_rc" = 1 ] && ! grep -q "No findings" allbad.out cut3.out &&
	 grep -q "^No steps or trace found in .allbad.txt.\.$" allbad.err && grep -q "duration" allbad.err &&
	 grep -q "^No steps or trace found in .cut3.msgpack.\.$" cut3.err && grep -q "truncated" cut3.err'
# a 10-byte task input (gen_dasf legacy's b-1): 1e-05 MB, not 0.000
"$B/gen_dasf" legacy leg.txt && report leg.txt >leg.out
tap_check "the report's Memory MB of a 10-byte size: 1e-05, not 0.000" \
	'grep -q "^    lh  *0  *b-1  .*  1e-05$" leg.out && ! grep -q " 0\.000$" leg.out'
# one function 79.996% of the task time (legacy text: a task of 7999.6 ms, two of 1000.2)
task() { printf 'trace: {"name": "Compute", "phase": "X", "timestamp": %s, "process_id": "h", ' "$1"
	printf '"thread_id": "%s", "category": "compute", "data": {"key": "%s-%s", "name": "%s", ' "$2" "$3" "$4" "$3"
	printf '"state": "memory", "size": 1000}, "duration": %s}\n' "$5"; }
{ task 0 worker-h-0 big 1 7999.6; task 0 worker-h-1 small 1 1000.2; task 1500 worker-h-1 small 2 1000.2; } >share.txt
report --dasf share.txt >share.out
tap_check "a function with 79.996% of the task time (high from 80%): medium, never 80%" \
	'grep -q "^  \[MED \] Function big takes 79.996% of all task time  (DASF.FUNCTION_DOMINATES)$" share.out'
tap_plan
