#!/bin/sh
# dasf_bad.sh: bad numbers in a DASF database (gen_dasf fixture, one float patched): a huge
# finite duration (1e308) is printed in a bounded form with its unit in the headline, the
# report and the findings, never as hundreds of digits (its critical path is the whole chain
# load-1 -> proc-1 -> sum-0, whose 2 s and 3 s its sum absorbs, never load-1 alone); a NaN or -inf Compute timestamp is
# warned about with its file and offset and is an empty cell in the CSV views (and does not
# shift the other tasks' offsets on the host); in the report's tables a number is never cut:
# a 12050.25 s task widens its columns (headers aligned), 1e16 s is in exponent form, a
# count of 16 digits in task_balance is whole.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=${TSCOPE_BIN:?}
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_dasf" fixture fx >/dev/null || { tap_notok "fixture generated"; exit 1; }

patch() { # patch DIR KEY VALUE: the first float64 of KEY in DIR's host-A database
	cp -r fx "$1" && python3 -c 'import struct, sys
f, key, value = sys.argv[1], sys.argv[2], float(sys.argv[3])
d = bytearray(open(f, "rb").read())
k = bytes([0xa0 + len(key)]) + key.encode()
j = d.index(k) + len(k)
assert d[j] == 0xcb
d[j + 1:j + 9] = struct.pack(">d", value)
open(f, "wb").write(d)' "$1/1-TracePlugin-hA.msgpack" "$2" "$3"
}

# --- a huge finite duration --------------------------------------------------------
patch huge duration 1e308
"$BIN" --print --no-index --color never huge >huge.txt 2>/dev/null
tap_check "1e308 s: headline and report in exponent form with the unit" \
	'grep -q "^  DASF tasks .*; 1e+308 s of task time$" huge.txt &&
	 grep -q "^  task time 1.00e+308 s · critical path 1.00e+308 s over 3 tasks$" huge.txt'
tap_check "1e308 s: the findings bounded (dominant function, worker imbalance)" \
	'grep -q "load ran 3 tasks for 1.00e+308 s of 1.00e+308 s of task time .*mean task time \
3.33e+307 s\.$" huge.txt &&
	 grep -q "busiest worker-hA-0 1.00e+308 s of tasks, least busy worker-hA-1 4.000 s, mean 3.33e+307 s\." \
	 huge.txt'
tap_check "1e308 s: no number of 20 digits anywhere" '! grep -qE "[0-9]{20}" huge.txt'

# --- numbers the report's tables must not cut ---------------------------------------
patch long duration 12050.25
"$BIN" --print --no-index --color never long >long.txt 2>/dev/null
tap_check "12050.25 s: whole in the top functions, top tasks and critical path, never cut" \
	'grep -q "^    hA  *0  *load  *12051.250000  *100.00 " long.txt &&
	 grep -q "^    hA  *0  *load-1  *12050.250000  *99.99  *1.000$" long.txt &&
	 grep -q "^      1 load-1  *load  *hA  *12050.250000 12050.250000$" long.txt && ! grep -q "[0-9]…" long.txt'
tap_check "12050.25 s: the widened column keeps its header right-aligned over the values" \
	'grep -A1 "^  Top functions" long.txt | tail -1 | grep -q " Duration s % worker" &&
	 test "$(grep -A1 "^  Top functions" long.txt | tail -1 | awk "{print index(\$0, \"Duration s\") + 10}")" = \
	 "$(grep -A2 "^  Top functions" long.txt | tail -1 | awk "{print index(\$0, \"12051.250000\") + 12}")"'
patch e16 duration 1e16
"$BIN" --print --no-index --color never e16 >e16.txt 2>/dev/null
tap_check "1e16 s: exponent form in the report's tables, as in its totals, never cut" \
	'grep -q "^    hA  *0  *load  *1.00e+16  *100.00 " e16.txt &&
	 grep -q "^    hA  *0  *load-1  *1.00e+16  *100.00  *1.000$" e16.txt &&
	 grep -q "^      2 proc-1  *proc  *hB  *2.000000  *1.00e+16$" e16.txt &&
	 ! grep -q "[0-9]…" e16.txt && ! grep -qE "[0-9]{16}" e16.txt'

mm() { printf 'trace: {"name": "Managed Memory", "phase": "I", "timestamp": %s, "process_id": "h", ' "$1"
	printf '"thread_id": "worker-h-%s", "category": "memory", "data": {"key": "a-1", "state": "memory", ' "$2"
	printf '"size": 10, "tasks": %s}}\n' "$3"; }
{ mm 1000.0 0 1234567890123456; mm 2000.0 1 3; } >bal.txt
"$BIN" --print --no-index --color never --dasf bal.txt >bal.out 2>/dev/null
tap_check "task_balance: a count of 16 digits is whole, its column widened" \
	'grep -q "^                 0 1234567890123456              0$" bal.out && ! grep -q "[0-9]…" bal.out'

# --- non-finite timestamps ---------------------------------------------------------
patch nan timestamp nan
patch ninf timestamp -inf
"$BIN" --export sources --no-index nan >nan_src.csv 2>/dev/null
"$BIN" --export sources --no-index ninf >ninf_src.csv 2>/dev/null
tap_check "NaN and -inf timestamps: a warning with the file and the offset" \
	'grep -qx "warning,nan/1-TracePlugin-hA.msgpack,,,,0,,,Compute event with an unusable timestamp \
(nan: not a number): its time is shown as missing" nan_src.csv &&
	 grep -qx "warning,ninf/1-TracePlugin-hA.msgpack,,,,0,,,Compute event with an unusable timestamp \
(-inf: infinite): its time is shown as missing" ninf_src.csv'
"$BIN" --export tasks --no-index nan >nan_tasks.csv 2>/dev/null
"$BIN" --export task_graph --no-index ninf >ninf_graph.csv 2>/dev/null
"$BIN" --export task_graph --no-index fx >fx_graph.csv 2>/dev/null
tap_check "non-finite timestamps are empty cells in the CSV, never nan/inf" \
	'grep -qx "load-1,load,hA,worker-hA-0,0,2,,0,0,1,load" nan_tasks.csv &&
	 grep -q "^load-1,load,hA,0,2,0,0,1,,,0,1,yes$" ninf_graph.csv &&
	 ! grep -qi "nan\|inf" nan_tasks.csv ninf_graph.csv'
tap_eq "a -inf timestamp does not shift the host's other offsets to inf" \
	"load-2,load,hA,0,1,0,0,3,12.5,1.5,0,1,no" "$(grep "^load-2," ninf_graph.csv)"
tap_plan
