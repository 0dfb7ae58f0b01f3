#!/bin/sh
# dasf_compare.sh: two DASF directories form a pair (model/identity.c) and compare
# function by function (model/compare/dasf.c: diff_functions, the verdict, --print's
# DASF TASKS section): generated runs (gen_dasf run) where predict is 50% slower in B,
# the same run with other per-call tokens (no difference), a 0.5% change (under the 1%
# floor: same), B faster, too few tasks to judge, and a side without task events; one
# run's report counts the functions so grouped. A task without a duration counts as a
# task but leaves its side's total and the delta empty (never 0: "B saved 4 s"), as does
# a function of one side only (the time added: missing, not its total), and the pair's
# total task time n/a with why; such a side's function and worker findings are not
# judged (never "new in B") and its critical path is n/a with why. A side that lost data
# in the load (a truncated file) has a note under the verdict. Two copies of a database
# whose functions a and b have no duration at all: the same task times only for the two
# timed functions, a and b named as not compared (it said "the same ... for all 4"). A
# 1e16 s task in B: the DASF TASKS table widens its number columns and writes 1e15 or
# more in exponent form, never a cut number ("33333333..."). Task times whose sum
# overflows (two tasks of 1e308 s, as dasf_verdicts.sh writes them) or a task without a
# usable duration on a side: no inf, nan or -inf anywhere; that function's total, deltas
# and noise empty and its change n/a (never slower on 20 timed tasks of 21), named with why
# in the view's note; the task time line and the verdict say why it is n/a ("the task times
# of A overflow"; "Compute events skipped: 0 of A, 1 of B" when a loader skipped one, never
# "overflow"). A function of 0 s tasks in A slower in B: its change in seconds, never
# "+inf%". A critical path other chains are as long as reads "(tied)".
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_dasf" run a 0 aaaa transpose && "$B/gen_dasf" run b 50 bbbb reshape && "$B/gen_dasf" run a2 0 cccc transpose &&
	"$B/gen_dasf" run c 0.5 dddd transpose && "$B/gen_dasf" fixture fx >/dev/null ||
	{ tap_notok "DASF runs generated"; exit 1; }
mkdir res && cp fx/3-*.msgpack res/

"$TSCOPE_BIN" --export diff_functions a b >ab.csv 2>ab.err
tap_rc $? "two DASF dirs: --export diff_functions exits 0"
hdr="function,change,a_tasks,b_tasks,a_total_s,b_total_s,delta_total_s,a_mean_task_s,b_mean_task_s"
tap_eq "diff_functions header" "$hdr,delta_mean_pct,noise_s" "$(head -1 ab.csv)"
tap_eq "rows: the slower function first, then by time added or saved; per-call tokens grouped (unc_fit-*)" \
	"predict,slower,40,40 reshape,only_in_B,,20 transpose,only_in_A,20, load,same,40,40 sum,n/a,8,8 unc_fit-*,same,40,40" \
	"$(tail -n +2 ab.csv | cut -d, -f1-4 | tr '\n' ' ' | sed 's/ $//')"
tap_check "predict: mean task 1.097 s -> 1.6455 s, +50%, 21.94 s added" \
	'awk -F, "\$1 == \"predict\" && \$8 > 1.0969 && \$8 < 1.0971 && \$9 > 1.6454 && \$9 < 1.6456 &&
	  \$10 > 49.99 && \$10 < 50.01 && \$7 > 21.93 && \$7 < 21.95 { ok = 1 } END { exit !ok }" ab.csv'
tap_check "a side without a function: its cells and delta_total_s empty (missing, not 0), no noise where not judged" \
	'grep -q "^reshape,only_in_B,,20,,2.2[0-9]*,,,0.11[0-9]*,,$" ab.csv &&
	 grep -q "^transpose,only_in_A,20,,2.2[0-9]*,,,0.11[0-9]*,,,$" ab.csv &&
	 grep -q "^sum,n/a,8,8,.*,$" ab.csv'

"$TSCOPE_BIN" --print --color never a b >ab.txt 2>/dev/null
tap_rc $? "--print of two DASF dirs exits 0"
tap_check "--print: the verdict names the slower function and the total task time" \
	'grep -q "^  function predict slower in B: mean task 1.1 s -> 1.65 s (+50.0%, 40 tasks in B); total task \
time +28.4% in B$" ab.txt'
tap_check "--print: tasks, task time, critical path and span A -> B" \
	'grep -q "^  tasks: 148 -> 148 (functions 5 -> 5, workers 4 -> 4, hosts 2 -> 2)$" ab.txt &&
	 grep -q "^  task time: 77.2 s -> 99.2 s (+21.9 s, +28.4%)$" ab.txt &&
	 grep -q "^  critical path: 1.8 s over 2 tasks (tied) -> 2.4 s over 2 tasks (tied)$" ab.txt &&
	 grep -q "^  span: 19.5 s -> 25 s " ab.txt'
tap_check "--print: the functions table, then the findings" \
	'grep -q "^  predict  *slower  *40  *40  *1.0970  *1.6455  *50.0  *21.940$" ab.txt && grep -q "^● FINDINGS" ab.txt'

"$TSCOPE_BIN" --print --color never a >one.txt 2>/dev/null
tap_check "one run's report counts functions as grouped, and the names" \
	'grep -q "^  2 files · 148 tasks · 5 functions (44 names) · 4 workers on 2 hosts" one.txt'
tb=$("$TSCOPE_BIN" --export task_bottleneck a 2>/dev/null | wc -l)
tb=$((tb - 1 - 5))
tap_check "the report's head of task_bottleneck counts the rows it leaves out ($tb)" \
	'grep -q "^    … $tb more rows (--export task_bottleneck)$" one.txt'

"$TSCOPE_BIN" --print --color never a a2 >same.txt 2>/dev/null
tap_check "the same run with other per-call tokens: no difference" \
	'grep -q "^  no difference: the same task times for all 5 functions$" same.txt'
"$TSCOPE_BIN" --print --color never a c >small.txt 2>/dev/null
tap_check "0.5% slower, under the 1% floor: no function called slower" \
	'grep -q "^  no function slower in B beyond its noise (4 of 5 functions judged); total task time +0.3% \
in B$" small.txt'
"$TSCOPE_BIN" --print --color never b a >fast.txt 2>/dev/null
tap_check "B faster: said, not called a regression" \
	'grep -q "^  no function slower in B beyond its noise (3 of 6 functions judged, some faster); total task \
time -22.1% in B$" fast.txt'
"$TSCOPE_BIN" --print --color never fx a >few.txt 2>/dev/null
tap_check "no function with 16 tasks on both sides: not judged, the raw change given" \
	'grep -q "^  not judged: no function has 16 tasks on both sides (the noise test needs them); total task \
time +472.1% in B$" few.txt'
"$TSCOPE_BIN" --print --color never a res >res.txt 2>/dev/null
tap_check "a side with GPU samples only: not compared, said once" \
	'grep -q "^  task profiles not compared: B has no DASF task event$" res.txt && ! grep -q "^  tasks:" res.txt &&
	 ! grep -q "not compared: needs" res.txt'
"$TSCOPE_BIN" --export diff_functions a res >/dev/null 2>res.err
rc=$?
tap_check "--export diff_functions without tasks on a side: exit 1, why" \
	'[ "$rc" -eq 1 ] && grep -q "needs DASF task events on both sides" res.err'

"$TSCOPE_BIN" --export all -o all a b >/dev/null 2>&1
tap_check "--export all of a DASF pair: diff_functions and diff_findings" \
	'[ -s all/diff_functions.csv ] && [ -s all/diff_findings.csv ] && [ ! -e all/diff_ranks.csv ]'
# B's task graph has a dependency cycle: its critical path is n/a, not "0 s over 0 tasks"
mkdir -p cyc && "$B/gen_dasf" verdicts gv >/dev/null && cp gv/cycle.msgpack cyc/
"$TSCOPE_BIN" --print --no-index --dasf a cyc >cyc.txt 2>/dev/null
tap_check "a side with a dependency cycle: its critical path reads n/a" \
	'grep -q "^  critical path: .* -> n/a (a dependency cycle)$" cyc.txt'
# Tasks without a duration (gen_dasf verdicts: neg's b-1, nan's a-1 and b-1).
for v in tie neg nan zero; do mkdir -p "dvd_$v" && cp "gv/$v.msgpack" "dvd_$v/"; done
"$TSCOPE_BIN" --export diff_functions --no-index dvd_tie dvd_neg >tn.csv 2>/dev/null
tap_check "a task of B without a duration: 1 task, B's total and the delta empty, not 0" \
	'grep -qx "b,n/a,1,1,4,,,4,,," tn.csv'
"$TSCOPE_BIN" --export diff_functions --no-index dvd_nan dvd_zero >nz.csv 2>/dev/null
tap_check "... of A (NaN): a_tasks 1, A's total and the delta empty; B's 0 s kept" \
	'grep -qx "a,n/a,1,1,,0,,,0,," nz.csv && grep -qx "b,n/a,1,1,,0,,,0,," nz.csv'
"$TSCOPE_BIN" --print --no-index --color never dvd_nan dvd_zero >nz.txt 2>/dev/null
tap_check "--print: a side with tasks without a duration: its total and the change n/a, said why" \
	'grep -q "^  task time: n/a -> 0 s (change n/a: tasks without a duration: 2 of A, 0 of B)$" nz.txt &&
	 grep -q "; total task time n/a (tasks without a duration: 2 of A, 0 of B)$" nz.txt'
"$TSCOPE_BIN" --print --no-index --color never dvd_tie dvd_neg >tn.txt 2>/dev/null
tap_check "... of B: no saving read off the tasks left (not '-25.0%')" \
	'grep -q "^  task time: 8 s -> n/a (change n/a: tasks without a duration: 0 of A, 1 of B)$" tn.txt &&
	 grep -q "; total task time n/a (tasks without a duration: 0 of A, 1 of B)$" tn.txt && ! grep -q "25.0%" tn.txt'
tap_check "... its function and worker findings not judged, never new in B; its critical path n/a, said why" \
	'grep -q "^● FINDINGS — 0 new in B" tn.txt && ! grep -q "^  new " tn.txt &&
	 grep -q "^  critical path: 4 s over 1 task (tied) -> n/a (tasks without a usable duration)$" tn.txt'
# B's loader skipped a Compute event (no args.name): its task time is unknown, never a total
# of the rest, and never said to overflow
mkdir dvd_lost && for t in 'a-1", "name": "a' 'b-1", "name": "b' 'x-1'; do
	printf 'trace: {"name": "Compute", "timestamp": 1000, "process_id": "h", "thread_id": "worker-h-0", '
	printf '"data": {"key": "%s"}, "duration": 4000}\n' "$t"
done >dvd_lost/lost.msgpack
"$TSCOPE_BIN" --print --no-index --color never dvd_tie dvd_lost >tl.txt 2>/dev/null
tap_check "a side whose loader skipped a Compute event: task time, change and critical path n/a, said why" \
	'grep -q "^  task time: 8 s -> n/a (change n/a: Compute events skipped: 0 of A, 1 of B)$" tl.txt &&
	 grep -q "^  critical path: 4 s over 1 task (tied) -> n/a (Compute events that were skipped)$" tl.txt &&
	 ! grep -q "overflow" tl.txt'
mkdir dvd_nan2 && cp dvd_nan/* dvd_nan2/
"$TSCOPE_BIN" --print --no-index --color never dvd_nan dvd_nan2 >nn.txt 2>/dev/null
tap_check "two copies with functions without a duration: those named, not compared" \
	'grep -A1 "^● DASF TASKS" nn.txt | tail -1 |
	 grep -qx "  no difference: the same task times for 2 of 4 functions; not compared: a, b (no task with a duration)"'
# B's second file truncated (a partial file): under the verdict, that B may have lost tasks
mkdir -p tr && cp b/* tr/ && f=$(ls tr/*.msgpack | tail -1) && truncate -s $(($(wc -c <"$f") / 3)) "$f"
"$TSCOPE_BIN" --print --no-index --color never a tr >tr.txt 2>/dev/null
tap_check "a truncated file in B: B's data quality under the verdict" \
	'grep -A1 "^● DASF TASKS" tr.txt | tail -1 | grep -q "total task time" &&
	 grep -q "^  data quality of B: 0 records skipped, 0 files unreadable, 1 partial (--export sources A B); \
fewer tasks or less task time in B may be B.s lost data$" tr.txt'
# A task of 1e16 s in B: the function table's numbers whole, in exponent form
mkdir big && cp b/* big/ && python3 -c 'import struct, sys
f = sys.argv[1]
d = bytearray(open(f, "rb").read())
k = bytes([0xa8]) + b"duration"
j = d.index(k) + len(k)
assert d[j] == 0xcb
d[j + 1:j + 9] = struct.pack(">d", 1e16)
open(f, "wb").write(d)' "$(ls big/*TracePlugin*.msgpack | head -1)"
"$TSCOPE_BIN" --print --no-index --color never a big >big.txt 2>/dev/null
tap_check "a 1e16 s task in B: the DASF TASKS table in exponent form, no number cut" \
	'sed -n "/^  function  *change/,/^●/p" big.txt >bigt.txt && grep -q "^  load  .* 4.56e+16  *1.00e+16$" bigt.txt &&
	 ! grep -q "[0-9]…" bigt.txt && ! grep -qE "[0-9]{16}" bigt.txt'
# Task times that overflow (dasf_verdicts.sh's writer: a-1, a-2 of 1e308 s, b-1, b-2 of 1 s)
# against a run of the same functions (a: 1 s and 2 s, b: 1 s and 1 s; legacy text, ms)
ctask() { # KEY FUNCTION TIMESTAMP DURATION WORKER
	printf 'trace: {"name": "Compute", "timestamp": %s, "process_id": "h", "thread_id": "worker-h-%s", ' "$3" "$5"
	printf '"data": {"key": "%s", "name": "%s", "dependencies": [], "dependents": []}, "duration": %s}\n' \
		"$1" "$2" "$4"; }
mkdir hov fin && { ctask a-1 a 100000 1000 0; ctask a-2 a 101000 2000 0; ctask b-1 b 100000 1000 1
	ctask b-2 b 102000 1000 1; } >fin/n-TracePlugin-h.msgpack
python3 "$TSCOPE_ROOT/tests/tools/dasf_overflow.py" hov/n-TracePlugin-h.msgpack
noinf() { ! grep -Eqi '(^|[^[:alpha:]])(inf|nan)([^[:alpha:]]|$)' "$@"; }
"$TSCOPE_BIN" --export diff_functions --no-index hov fin >ov.csv 2>ov.err
"$TSCOPE_BIN" --export diff_functions --no-index fin hov >vo.csv 2>/dev/null
tap_check "task times that overflow in A: a's total, deltas and noise empty (never inf, -inf, nan), its mean 1e308" \
	'grep -qx "a,n/a,2,2,,3,,1e+308,1.5,," ov.csv && grep -qx "b,n/a,2,2,2,2,0,1,1,0," ov.csv &&
	 grep -qx "a,n/a,2,2,3,,,1.5,1e+308,," vo.csv && noinf ov.csv vo.csv'
tap_check "... the view's note names the function and why" \
	'grep -qx "tscope-tui: note on .diff_functions.: change n/a and deltas empty where a total is not known: \
a (the task times of A overflow)" ov.err'
"$TSCOPE_BIN" --print --no-index --color never hov fin >ov.txt 2>/dev/null
"$TSCOPE_BIN" --print --no-index --color never fin hov >vo.txt 2>/dev/null
tap_check "... --print: the task time n/a, said why, on either side; no inf or nan anywhere" \
	'grep -q "^  task time: n/a -> 5 s (change n/a: the task times of A overflow)$" ov.txt &&
	 grep -q "; total task time n/a (the task times of A overflow)$" ov.txt &&
	 grep -q "^  task time: 5 s -> n/a (change n/a: the task times of B overflow)$" vo.txt &&
	 grep -q "; total task time n/a (the task times of B overflow)$" vo.txt &&
	 grep -q "^  change n/a and deltas empty where a total is not known: a (the task times of B overflow)$" vo.txt &&
	 noinf ov.txt vo.txt'
# 21 tasks of f in A, one of them -3 s, against 21 of 2 s: not judged slower on the 20 timed
many() { # DIR FUNCTION DURATION_MS [EXTRA_MS]: 20 tasks, and one of EXTRA_MS
	mkdir "$1" && i=0 && while [ $i -lt 20 ]; do
		ctask "$2-$i" "$2" $((100000 + i * 3000)) "$3" 0; i=$((i + 1)); done >"$1/m-TracePlugin-h.msgpack"
	[ -z "${4:-}" ] || ctask "$2-x" "$2" 200000 "$4" 0 >>"$1/m-TracePlugin-h.msgpack"; }
many mu f 1000 -3000 && many mt f 2000 2000 && many z0 z 0 && many z1 z 1000
"$TSCOPE_BIN" --export diff_functions --no-index mu mt >mu.csv 2>/dev/null
"$TSCOPE_BIN" --print --no-index --color never mu mt >mu.txt 2>/dev/null
tap_check "a task without a usable duration among 21: f not judged (n/a, deltas and noise empty), said why" \
	'grep -qx "f,n/a,21,21,,42,,1,2,," mu.csv && grep -qx "  not judged: no function has 16 tasks on both sides \
(the noise test needs them) and its totals known: 1 function with them has a task without a usable duration or task \
times that overflow (diff_functions); total task time n/a (tasks without a duration: 1 of A, 0 of B)" mu.txt &&
	 grep -q "^  change n/a and deltas empty where a total is not known: f (1 of 21 tasks in A has no usable \
duration)$" mu.txt'
"$TSCOPE_BIN" --print --no-index --color never z0 z1 >z.txt 2>/dev/null
tap_check "a function of 0 s tasks in A slower in B: its change in seconds, never +inf%" \
	'grep -q "^  function z slower in B: mean task 0 s -> 1 s (+1 s, 20 tasks in B)$" z.txt && noinf z.txt'
tap_plan
