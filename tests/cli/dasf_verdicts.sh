#!/bin/sh
# dasf_verdicts.sh: DASF verdicts stay true on edge cases (gen_dasf verdicts): a dependency
# cycle makes the critical path n/a and is named in the sources (task_graph's Critical
# cells are then missing, as with a task without a usable duration, never "no": they read
# no for a task off a known critical path, yes on it or on a chain as long); tasks of 0 s
# leave the function and worker rules not judged; negative and NaN/inf durations are flagged and
# counted as missing alike in the headline, the report and the views, and leave the
# function and worker rules not judged (naming whose tasks) and the critical path n/a
# (naming a task; never its time as 0 s), in the headline, the report and the exports; a
# database with no loadable record is "nothing found" (exit 1, its diagnostics said); a
# Compute event without a numeric duration (absent, null, a string) is a task whose time is
# missing, as a NaN one, never a skipped record; a tie
# at the top is no dominant function; databases of two runs (one host's, or differing
# <name>-<unixtime> prefixes) and a copy of a database are warned of, naming the files;
# an empty task_balance says why; an event without an args map is named; a database of
# Managed Memory events alone prints its task_balance, the task heads said n/a; a nonzero
# size the report's decimals would show as 0.000 MB has 3 significant digits; a function
# with 79.996% of the task time (medium, high from 80%) is never said to take 80%. A task
# without a usable duration leaves the task time n/a (the headline counts such tasks), its
# function's Duration and its worker's shares missing, never 100%, as a comparison has them;
# task times whose sums overflow make both rules not judged, naming whose, the headline say
# why, and shares still right (50%, not 0%); Managed Memory events too far from 0 for
# task_balance are skipped, counted, with file and offset; a key with no Compute event between
# two tasks that ran makes the critical path n/a, naming it, and keys with none at a chain's
# start or end are left out of it, as the headline says. A Compute event the loader skips
# (no args.name) leaves the task time, both rules and the critical path unknown, said; an
# infinite duration holds no GPU sample, as a NaN one; chains tying for the critical path are
# all Critical, the tie said; workers tying for busiest or least busy are all named; a thread
# id on two hosts is named with its host.
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
	 [ -z "$(crit_cells v/nan.msgpack)" ] && [ "$(crit_cells v/tie.msgpack)" = "yes" ]'
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
tap_check "negative duration: the task time n/a in the headline (with the count) and the report, never 6 s or -4 s" \
	'grep -q "^  DASF tasks .*; task time n/a (1 of 3 tasks has no usable duration)$" neg.txt &&
	 grep -q "^  task time n/a ·" neg.txt && ! grep -q -- "-4\|6 s of task\|6\.000 s" neg.txt'
"$BIN" --export task_bottleneck v/neg.msgpack >neg_tb.csv 2>/dev/null
tap_check "negative duration: task_bottleneck leaves it and its worker's shares missing (empty), never 100" \
	'grep -q "^h,1,b-1,,,0.001$" neg_tb.csv && grep -q "^h,1,c-1,1,,0.001$" neg_tb.csv &&
	 grep -q "^h,0,a-1,5,100,0.001$" neg_tb.csv'
report v/nan.msgpack >nan.txt
tap_check "NaN and inf durations: flagged, and the task time n/a in the headline (2 of 4 tasks) and the report" \
	'[ "$(sources v/nan.msgpack | grep -c "unusable duration")" = 2 ] &&
	 grep -q "^  DASF tasks .*; task time n/a (2 of 4 tasks have no usable duration)$" nan.txt &&
	 grep -q "^  task time n/a ·" nan.txt && ! grep -qi "nan s\|inf s\|3 s of task" nan.txt'

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
	 chain.out && grep -q "^  task time n/a · critical path n/a$" chain.out &&
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
# no loadable record: every Compute event without a key; a file cut inside its first record
for k in 1 2 3; do
	printf 'trace: {"name": "Compute", "timestamp": 1000, "process_id": "h", "thread_id": "worker-h-0", '
	printf '"data": {"name": "a-%s"}, "duration": 1000}\n' "$k"
done >allbad.txt
printf '\000\000\000' >cut3.msgpack
"$BIN" --print --no-index --color never --dasf allbad.txt >allbad.out 2>allbad.err
allbad_rc=$?
"$BIN" --print --no-index --color never --dasf cut3.msgpack >cut3.out 2>cut3.err
cut3_rc=$?
tap_check "no loadable record: exit 1, nothing found (no 'No findings' report), the diagnostics still said" \
	'[ "$allbad_rc" = 1 ] && [ "$cut3_rc" = 1 ] && ! grep -q "No findings" allbad.out cut3.out &&
	 grep -q "^No steps or trace found in .allbad.txt.\.$" allbad.err && grep -q "args .key." allbad.err &&
	 grep -q "^No steps or trace found in .cut3.msgpack.\.$" cut3.err && grep -q "truncated" cut3.err'
# Compute events without a numeric duration (absent, null, a string): tasks whose time is
# unknown, as with a NaN one, never skipped records (a's 60% of the rest is no verdict)
cdur() { printf 'trace: {"name": "Compute", "timestamp": 1000, "process_id": "h", "thread_id": "worker-h-%s", ' "$1"
	printf '"data": {"key": "%s", "name": "%s"}%s}\n' "$2" "${2%%-*}" "$3"; }
{ for k in 0 1 2; do cdur 0 "a-$k" ', "duration": 1000'; done
	cdur 1 b-0 ', "duration": 2000'; cdur 1 c-0 ''; cdur 1 c-1 ', "duration": null'; cdur 1 c-2 ', "duration": "x"'
} >nodur.txt
"$BIN" --print --no-index --color never --dasf nodur.txt >nodur.out 2>nodur.err
sources --dasf nodur.txt >nodur.csv
tap_check "no duration, null, a string: 7 tasks, task time n/a, no dominant function, the three said" \
	'grep -q "^  DASF tasks  *7 tasks, 3 functions, 2 workers on 1 host; task time n/a (3 of 7 tasks" nodur.out &&
	 grep -q "^  - dominant task function (3 of 3 tasks of function c have no usable duration)$" nodur.out &&
	 ! grep -q "DASF.FUNCTION_DOMINATES" nodur.out &&
	 grep -q "0 errors, 3 warnings.*(0 records skipped)" nodur.err &&
	 [ "$(grep -c "without a numeric .duration. (absent\|nil\|a string)" nodur.csv)" = 3 ]'
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

# 8. a task without a usable duration is missing everywhere, in one run as in a comparison:
# negd's worker-h-0 has a task of 1 s and one of -3 s (negd2: 2 s), worker-h-1 two of 1 s
mkdir negd negd2
for d in negd:-3000 negd2:2000; do
	{ ctask a-1 a 100000 1000 0 "" ""; ctask a-2 a 101000 "${d#*:}" 0 "" ""
	  ctask b-1 b 100000 1000 1 "" ""; ctask b-2 b 102000 1000 1 "" ""; } >"${d%%:*}/n-TracePlugin-h.msgpack"
done
report negd >negd.txt
"$BIN" --export function_bottleneck negd >negd_fb.csv 2>/dev/null
"$BIN" --export task_bottleneck negd >negd_tb.csv 2>/dev/null
"$BIN" --export diff_functions negd negd2 >negd_diff.csv 2>/dev/null
report negd negd2 >negd_cmp.txt
tap_check "an untimed task: task time n/a with the count (headline, report), never 3 s" \
	'grep -q "^  DASF tasks .*; task time n/a (1 of 4 tasks has no usable duration)$" negd.txt &&
	 grep -q "^  task time n/a ·" negd.txt && ! grep -q "3 s of task\|3\.000 s" negd.txt'
tap_check "... its function's Duration and its worker's shares missing, never 100%; the others' shown" \
	'grep -q "^h,0,a,,,,,0,0,2,1$" negd_fb.csv && grep -q "^h,1,b,2,100,,,0,0,2,1$" negd_fb.csv &&
	 grep -q "^h,0,a-1,1,,$" negd_tb.csv && grep -q "^h,1,b-1,1,50,$" negd_tb.csv'
tap_check "... as in a comparison: task time n/a, function a's total missing and its mean 1 s in both" \
	'grep -q "; task time n/a (1 of 4" negd.txt && grep -q "^  task time: n/a -> 5 s" negd_cmp.txt &&
	 grep -q "^h,0,a,,.*,1$" negd_fb.csv && grep -q "^a,n/a,2,2,,3,,1,1.5," negd_diff.csv'

# 9. summed durations that overflow (two tasks of 1e308 s on one worker, a-1 -> a-2): the
# rules and the critical path say so, and the shares are computed all the same (msgpack:
# 1e308 s has no legacy ms form)
python3 "$TSCOPE_ROOT/tests/tools/dasf_overflow.py" huge.msgpack
report huge.msgpack >huge.txt
"$BIN" --export task_bottleneck huge.msgpack >huge_tb.csv 2>/dev/null
"$BIN" --export function_bottleneck huge.msgpack >huge_fb.csv 2>/dev/null
tap_check "task times that overflow: the headline says why they are n/a; both rules not judged, naming whose" \
	'grep -q "^  DASF tasks .*; task time n/a (the task times overflow)$" huge.txt &&
	 grep -q "^  critical path  *n/a: the task times along it overflow" huge.txt &&
	 grep -q "^  - dominant task function (the task times of function a overflow)$" huge.txt &&
	 grep -q "^  - worker imbalance (the task times of worker worker-h-0 overflow)$" huge.txt &&
	 ! grep -q "FUNCTION_DOMINATES\|WORKER_IMBALANCE" huge.txt'
tap_check "... each 1e308 s task is 50% of its worker, never 0%; the function 100%, its mean 1e308 s, its sum empty" \
	'grep -q "^h,0,a-1,1e+308,50,0.001$" huge_tb.csv && grep -q "^h,0,a-2,1e+308,50,0.001$" huge_tb.csv &&
	 grep -q "^h,0,a,,100,.*,2,1e+308$" huge_fb.csv'

# 10. Managed Memory events task_balance cannot place (1e16 s, -5e16 s): skipped, counted,
# with their file and offset
mem() { printf 'trace: {"name": "Managed Memory", "timestamp": %s, "process_id": "h", ' "$1"
	printf '"thread_id": "worker-h-%s", "data": {"key": "a-1", "state": "memory", "size": 10, ' "$2"
	printf '"tasks": %s}}\n' "$3"; }
{ ctask a-1 a 100000 1000 0 "" ""; mem 100200 0 1; mem 100300 1 2; mem 1e19 0 7; mem -5e19 1 9; } >bigts.txt
sources --dasf bigts.txt >bigts.csv
tap_check "far Managed Memory timestamps: skipped with file, offset and value, counted; task_balance without them" \
	'grep -q "^file,bigts.txt,dasf,,,,3,2," bigts.csv &&
	 grep -q "^warning,bigts.txt,,,,[0-9][0-9]*,,,Managed Memory event with a timestamp too far from 0 (1e+16 s)" \
	 bigts.csv &&
	 grep -q "^warning,bigts.txt,,,,[0-9][0-9]*,,,Managed Memory event with a timestamp too far from 0 (-5e+16 s)" \
	 bigts.csv && [ "$("$BIN" --export task_balance --dasf bigts.txt 2>/dev/null | sed 1d)" = "0,1,2" ]'

# 11. a key with no Compute event between two tasks (a-1 -> x-1 -> c-1): its event is lost,
# so the critical path is n/a, naming it, never 2 s with x-1 as 0 s; one at a chain's start or
# end (an input, or a dependent the profile never saw run) is left out and said
{ ctask a-1 a 100000 1000 0 "" '"x-1"'; ctask c-1 c 110000 1000 0 '"x-1"' ""
  ctask b-1 b 100000 1500 1 "" ""; } >miss.txt
report --dasf miss.txt >miss.out
"$BIN" --export critical_path --dasf miss.txt >miss_cp.csv 2>miss_cp.err
tap_check "a task with no Compute event between two that ran: the critical path n/a naming it, no rows" \
	'grep -q "^  critical path  *n/a: task .x-1. has no task (Compute) event, yet a task that ran depends on it, \
so the longest chain is unknown" miss.out && grep -q "^  task time 3.500 s · critical path n/a$" miss.out &&
	 ! grep -q " over " miss.out && ! grep -q "^[0-9]" miss_cp.csv &&
	 grep -q "x-1. has no task (Compute) event" miss_cp.err'
{ ctask y-1 y 100000 1000 0 '"in-0"' '"y-2"'; ctask y-2 y 101000 1500 0 '"y-1"' '"out-0"'; } >loose.txt
report --dasf loose.txt >loose.out
"$BIN" --export critical_path --dasf loose.txt >loose_cp.csv 2>/dev/null
tap_check "keys with no Compute event at a chain's start or end: left out of the path, and said" \
	'grep -q "^  critical path  *2.5 s over 2 tasks, leaving out 2 keys that have no task (Compute) event and \
start or end a chain (.in-0. among them)" loose.out &&
	 [ "$(sed 1d loose_cp.csv | cut -d, -f2 | paste -sd" " -)" = "y-1 y-2" ]'

# 12. a Compute event the loader skips (no args.name) ran 5 s on worker-h-1: the task time,
# the function and worker rules and the critical path are unknown, never f's 75% of the
# rest or worker-h-0 busiest (f 3 s on worker-h-0, g 1 s on worker-h-1)
{ ctask f-1 f 100000 3000 0 "" ""; ctask g-1 g 100000 1000 1 "" ""
  printf 'trace: {"name": "Compute", "timestamp": 102000, "process_id": "h", "thread_id": "worker-h-1", '
  printf '"data": {"key": "x-1"}, "duration": 5000}\n'; } >noname.txt
report --dasf noname.txt >noname.out
tap_check "a skipped Compute event (no name): task time n/a, both rules not judged, no critical path, said why" \
	'grep -q "^  DASF tasks .*; task time n/a (1 Compute event without string args .name. was skipped)$" noname.out &&
	 grep -q "^  - dominant task function (1 Compute event without string args .name. was skipped: the task \
time is unknown)$" noname.out &&
	 grep -q "^  - worker imbalance (1 Compute event without string args .name. was skipped: the task time is \
unknown)$" noname.out &&
	 grep -q "^  critical path  *n/a: 1 Compute event without string args .name. was skipped, so the longest \
chain is unknown" noname.out && ! grep -q "FUNCTION_DOMINATES\|WORKER_IMBALANCE\| over " noname.out'
# an infinite duration is as unusable as a NaN one: no span, so no GPU sample is its (alpha
# would take all 8 idle samples, taken while beta ran)
for d in Infinity NaN; do
	{ ctask a-1 alpha 100000 "$d" 0 "" ""; ctask b-1 beta 100000 10000 1 "" ""
	  for i in 0 1 2 3 4 5 6 7; do
		printf 'trace: {"name": "Resource Usage", "timestamp": %s, "process_id": "g", ' $((100500 + i * 1000))
		printf '"data": {"gpu_utilization": 0, "gpu_memory_used": 1000000000}}\n'
	  done; } >"idle_$d.txt"
	report --dasf "idle_$d.txt" >"idle_$d.out"
	"$BIN" --export function_bottleneck --dasf "idle_$d.txt" >"idle_$d.csv" 2>/dev/null
done
idle_ok() { # DURATION: beta has the idle samples, alpha (no span) none, and the report says so
	grep -q "most of them during beta (8)\. 1 task without a usable duration or timestamp is left out of the \
matching: its span is unknown\.$" "idle_$1.out" && grep -q "^h,0,alpha,,,,,0,,1,$" "idle_$1.csv"; }
tap_check "an infinite duration holds no GPU sample, as a NaN one: beta named, alpha's GPU cells empty, the gap said" \
	'idle_ok Infinity && idle_ok NaN'
# chains that tie for the longest (a 1 s -> b 2 s beside c 2 s -> d 1 s): every task on one is
# Critical, and the headline and the report say the path is one of several
{ ctask a-1 fa 100000 1000 0 "" '"b-1"'; ctask b-1 fb 101000 2000 0 '"a-1"' ""
  ctask c-1 fc 100000 2000 1 "" '"d-1"'; ctask d-1 fd 102000 1000 1 '"c-1"' ""; } >chains.txt
report --dasf chains.txt >chains.out
tap_check "chains tying for the critical path: Critical yes on both, the tie said in the headline and the report" \
	'[ "$(crit_cells --dasf chains.txt)" = "yes" ] &&
	 grep -q "^  critical path  *3 s over 2 tasks, one of several chains as long (4 tasks lie on them" chains.out &&
	 grep -q "^  task time 6.000 s · critical path 3.000 s over 2 tasks, one of several chains as long (4 tasks \
lie on them)$" chains.out'
# workers tying for busiest (4 s, 4 s) and least busy (0.5 s, 0.5 s): all named, none singled out
{ ctask p-1 p 100000 4000 0 "" ""; ctask q-1 q 100000 4000 1 "" ""; ctask r-1 r 100000 500 2 "" ""
  ctask s-1 s 100000 500 3 "" ""; } >wtie.txt
report --dasf wtie.txt >wtie.out
tap_check "workers tying for busiest and least busy: every tied one named, none called the busiest alone" \
	'grep -q "Worker imbalance: worker-h-0 and worker-h-1 are busy 1.8x the mean worker" wtie.out &&
	 grep -q "4 workers; busiest worker-h-0 and worker-h-1 tie at 4.000 s of tasks each, least busy worker-h-2 \
and worker-h-3 tie at 0.500 s each, mean 2.250 s\." wtie.out'
# one thread id on two hosts (worker-0 of hA ran 3 s, worker-0 of hB 1 s): named with the host
htask() { printf 'trace: {"name": "Compute", "timestamp": 100000, "process_id": "%s", "thread_id": "worker-0", ' "$1"
	printf '"data": {"key": "%s-1", "name": "%s"}, "duration": %s}\n' "$2" "$2" "$3"; }
{ htask hA f 3000; htask hB g 1000; } >samethr.txt
report --dasf samethr.txt >samethr.out
tap_check "a thread id on two hosts: the workers named with their host, never one busiest and least busy" \
	'grep -q "Worker imbalance: worker-0 on hA is busy 1.5x the mean worker" samethr.out &&
	 grep -q "busiest worker-0 on hA 3.000 s of tasks, least busy worker-0 on hB 1.000 s" samethr.out'
tap_plan
