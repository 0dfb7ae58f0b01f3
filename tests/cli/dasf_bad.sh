#!/bin/sh
# dasf_bad.sh: bad numbers in a DASF database (gen_dasf fixture, one float patched): a huge
# finite duration (1e308) is printed in a bounded form with its unit in the headline, the
# report and the findings, never as hundreds of digits; a NaN or -inf Compute timestamp is
# warned about with its file and offset and is an empty cell in the CSV views (and does not
# shift the other tasks' offsets on the host).
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
	 grep -q "^  task time 1.00e+308 s · critical path 1.00e+308 s over 1 task$" huge.txt'
tap_check "1e308 s: the findings bounded (dominant function, worker imbalance)" \
	'grep -q "load ran 3 tasks for 1.00e+308 s of 1.00e+308 s of task time .*mean task time \
3.33e+307 s\.$" huge.txt &&
	 grep -q "busiest worker-hA-0 1.00e+308 s of tasks, least busy worker-hA-1 4.000 s, mean 3.33e+307 s\." \
	 huge.txt'
tap_check "1e308 s: no number of 20 digits anywhere" '! grep -qE "[0-9]{20}" huge.txt'

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
	'grep -qx "load-1,load,hA,0,2,,0,0,1" nan_tasks.csv &&
	 grep -q "^load-1,load,hA,0,2,0,0,1,,,0,1,yes$" ninf_graph.csv &&
	 ! grep -qi "nan\|inf" nan_tasks.csv ninf_graph.csv'
tap_eq "a -inf timestamp does not shift the host's other offsets to inf" \
	"load-2,load,hA,0,1,0,0,3,12.5,1.5,0,1," "$(grep "^load-2," ninf_graph.csv)"
tap_plan
