#!/bin/sh
# dasf.sh: DASF databases through the CLI: --export CSVs carry DASF's column names and
# the hand-checked values of the fixture (tests/unit/test_dasf.c derives them), --dasf
# with files in the order given, directory auto-detection, --print, hostile files; two
# DASF directories are two runs, compared. task_graph's Critical is yes or no (a task off
# the critical path was an empty cell: missing).
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"

FX="$TMP/fx"
"$BUILD/tests/gen_dasf" fixture "$FX" >/dev/null
tap_rc $? "gen_dasf writes the fixture"

"$BIN" --export function_bottleneck "$FX" >"$TMP/fb.csv" 2>/dev/null
tap_rc $? "--export function_bottleneck exits 0 on a directory of *.msgpack"
tap_eq "function_bottleneck.csv: DASF's columns, in DASF's order" \
	"Host,GPU,Function,Duration (s),Percentage of total time (%),Mean GPU Utilization (%),Mean GPU Memory Used (GB),Mean Data Size (MB),Mean Throughput (MB/s),Num Tasks (chunks),Mean Task time (s)" \
	"$(head -1 "$TMP/fb.csv")"
tap_eq "function_bottleneck.csv: top row (proc on hA/1: 4 s, 100 %, GPU 2.5 %, 2 GB, 1 MB, 0.5 MB/s)" \
	"hA,1,proc,4,100,2.5,2,1,0.5,1,4" "$(sed -n 2p "$TMP/fb.csv")"
tap_eq "function_bottleneck.csv: tie at 3 s keeps DASF's dict order (hA load before hB sum)" \
	"hA,0,load,3,85.71428571428571,50,2.3333333333333335,0,0,2,1.5" "$(sed -n 3p "$TMP/fb.csv")"

"$BIN" --dasf --export task_bottleneck "$FX"/1-TracePlugin-hA.msgpack "$FX"/2-TracePlugin-hB.msgpack \
	"$FX"/3-ResourceMonitor-hA.msgpack >"$TMP/tb.csv" 2>/dev/null
tap_rc $? "--dasf FILE... --export task_bottleneck exits 0"
tap_eq "task_bottleneck.csv: DASF's columns" \
	"Host,GPU,Task Key,Duration (s),Percentage of total time (%),Memory usage (Mb)" "$(head -1 "$TMP/tb.csv")"
tap_eq "task_bottleneck.csv: rows (sorted by duration; memory = last size of the key)" \
	"hA,1,proc-1,4,100,0.6|hB,0,sum-0,3,50,8e-06|hA,0,load-1,2,57.14285714285714,1|hB,0,proc-1,2,33.33333333333333,0.6|hA,0,load-2,1,28.57142857142857,3|hB,0,load-3,1,16.666666666666664,2|hA,0,proc-2,0.5,14.285714285714285,0.7" \
	"$(sed 1d "$TMP/tb.csv" | paste -sd'|' -)"

"$BIN" --dasf --export task_bottleneck "$FX"/2-TracePlugin-hB.msgpack "$FX"/1-TracePlugin-hA.msgpack \
	>"$TMP/tb2.csv" 2>/dev/null
tap_eq "file order matters as in DASF: hB first makes hA's proc-1 size the last seen" \
	"hA,1,proc-1,4,100,0.5" "$(sed -n 2p "$TMP/tb2.csv")"

"$BIN" --export task_balance "$FX" >"$TMP/bal.csv" 2>/dev/null
tap_eq "task_balance.csv: sparse seconds, workers sorted, 0 where a worker had no event" \
	"Time Interval (seconds from begin),worker-hA-0,worker-hA-1,worker-hB-0|0,2,0,4|1,0,1,0|3,0,0,5|4,3,0,0" \
	"$(paste -sd'|' "$TMP/bal.csv")"

"$BIN" --export critical_path "$FX" >"$TMP/cp.csv" 2>/dev/null
tap_eq "critical_path.csv: load-1 -> proc-1 -> sum-0, 7 s" "load-1 proc-1 sum-0 7" \
	"$(sed 1d "$TMP/cp.csv" | cut -d, -f2 | paste -sd' ' -) $(tail -1 "$TMP/cp.csv" | awk -F, '{print $NF}')"

"$BIN" --export task_graph --filter 'Critical=yes' --sort '-Duration (s)' "$FX" >"$TMP/tg.csv" 2>/dev/null
tap_rc $? "task_graph works with --filter and --sort"
tap_eq "task_graph: 3 critical nodes" "3" "$(sed 1d "$TMP/tg.csv" | wc -l | tr -d ' ')"
"$BIN" --export task_graph "$FX" >"$TMP/tgall.csv" 2>/dev/null
tap_eq "task_graph: a task off the critical path reads no (it was an empty cell: missing)" \
	"load-1 yes|proc-1 yes|load-2 no|proc-2 no|sum-0 yes|load-3 no|ext-0 no" \
	"$(sed 1d "$TMP/tgall.csv" | awk -F, '{ print $1 " " $NF }' | paste -sd'|' -)"

"$BIN" --print "$FX" >"$TMP/print.txt" 2>"$TMP/print.err"
tap_rc $? "--print exits 0"
grep -q '^● DASF task profile' "$TMP/print.txt"; tap_rc $? "--print has the DASF section"
grep -q '3 files · 7 tasks · 3 functions · 3 workers on 2 hosts' "$TMP/print.txt"
tap_rc $? "--print: what was loaded"
grep -q 'critical path 7.000 s over 3 tasks' "$TMP/print.txt"; tap_rc $? "--print: critical path"
grep -q 'not comparable across hosts' "$TMP/print.txt"; tap_rc $? "--print: says clocks are per host"
grep -A2 '^  Top tasks (task_bottleneck)' "$TMP/print.txt" | grep -q '^    hA  *1  *proc-1  *4.000000  *100.00  *0.600$'
tap_rc $? "--print: head of task_bottleneck (top task proc-1 on hA/1, 4 s)"
grep -A3 '^  Tasks in memory per worker (task_balance' "$TMP/print.txt" | tr -s ' ' >"$TMP/bal.txt"
grep -q '^ second worker-hA-0 worker-hA-1 worker-hB-0$' "$TMP/bal.txt" && grep -q '^ 0 2 0 4$' "$TMP/bal.txt" &&
	grep -q '^ 1 0 1 0$' "$TMP/bal.txt"
tap_rc $? "--print: head of task_balance (one column per worker, as the view)"

"$BIN" --export findings "$FX" 2>/dev/null | grep -q '^med,DASF.GPU_IDLE,'
tap_rc $? "findings: DASF.GPU_IDLE on the fixture"

# No finding because a rule could not apply is said, not "no rule fired" alone: one
# worker and no GPU samples (gen_dasf names), GPU samples without a task
"$BUILD/tests/gen_dasf" names "$TMP/names.msgpack" >/dev/null 2>&1
"$BIN" --print --color never "$TMP/names.msgpack" >"$TMP/names.txt" 2>/dev/null
grep -q "^  - worker imbalance (1 worker: the test needs 2)$" "$TMP/names.txt" &&
	grep -q "^  - GPU idle while tasks run (no GPU utilisation sample)$" "$TMP/names.txt" &&
	! grep -q "dominant task function" "$TMP/names.txt"
tap_rc $? "one worker, no GPU sample: the rules that could not judge are listed, and why"
"$BIN" --print --color never "$FX"/3-*.msgpack >"$TMP/res.txt" 2>/dev/null
grep -q "^  - task functions, workers and GPU idle (no task event, only GPU utilisation samples)$" "$TMP/res.txt"
tap_rc $? "GPU samples alone: no task rule judged, said why"

"$BIN" --export sources "$FX" >"$TMP/src.csv" 2>/dev/null
grep -q 'truncated tail' "$TMP/src.csv"; tap_rc $? "sources: truncated tail reported with its offset"

"$BIN" --list-views | grep -c -E '^(function_bottleneck|task_bottleneck|task_balance|task_graph|critical_path) ' \
	>"$TMP/views"
tap_eq "--list-views lists the 5 DASF views" "5" "$(cat "$TMP/views")"

printf 'garbage that is not msgpack at all\n' >"$TMP/junk.bin"
"$BIN" --dasf --export function_bottleneck "$TMP/junk.bin" >/dev/null 2>&1
tap_eq "--dasf on garbage: exit 1 (nothing to show), no crash" "1" "$?"

: >"$TMP/empty.msgpack"
"$BIN" --export sources "$TMP/empty.msgpack" 2>&1 | grep -q 'empty file: no DASF records'
tap_rc $? "empty .msgpack: 'empty file' diagnostic"

mkdir -p "$TMP/fifo"
cp "$FX/1-TracePlugin-hA.msgpack" "$TMP/fifo/"
if mkfifo "$TMP/fifo/x.msgpack" 2>/dev/null && command -v timeout >/dev/null; then
	timeout 20 "$BIN" --export function_bottleneck "$TMP/fifo" >/dev/null 2>&1
	tap_eq "a FIFO named *.msgpack in the directory is named, not read (no hang)" "0" "$?"
else
	tap_skip "mkfifo or timeout unavailable"
fi

# Two DASF directories are two runs: never merged (the same run given twice read 14
# tasks), compared (tests/cli/dasf_compare.sh). One run's databases given as files are
# read as one run.
cp -r "$FX" "$TMP/fx2"
"$BIN" --print --no-index --color never "$FX" "$TMP/fx2" >"$TMP/two.out" 2>"$TMP/two.err"
rc=$?
tap_check "two DASF directories: a pair, not one run of 14 tasks" \
	'[ "$rc" -eq 0 ] && grep -q "^  no difference: the same task times for all 3 functions$" "$TMP/two.out" &&
	 grep -q "^  tasks: 7 -> 7 " "$TMP/two.out"'
"$BIN" --print --no-index --color never "$FX"/*.msgpack >"$TMP/files.out" 2>/dev/null
tap_check "one run's databases given as files: one run" \
	'grep -q "^  DASF tasks  *7 tasks, 3 functions" "$TMP/files.out"'
tap_plan
