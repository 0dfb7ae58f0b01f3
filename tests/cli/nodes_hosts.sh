#!/bin/sh
# nodes_hosts.sh: where the node roll-up's hostnames come from besides run.json
# (model/steps/nodes.h): Kineto's top-level "host_name" metadata names a trace's host when
# distributedInfo has none; and run.json and the trace are never merged silently: a rank
# whose two hosts differ is a warning in the data-quality list (a short name and its
# qualified form are the same host, as are two spellings that differ in case only), and
# the roll-up keeps run.json's. A run.json hostname null, true or false is no hostname (the
# "(no hostname)" node, or nodes by gpu_count when no rank has one), a warning names the
# file and value: never a host named "null". An escaped NUL in a hostname is kept as "^@",
# the name whole (it was cut there: "x\u0000y" read "x").
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
work="$TSCOPE_TMP/nodes_hosts.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# traces named by rank (no host in the name), hosts only in top-level host_name
mkdir hn
for r in 0 1 2 3; do
	"$tgen" hn/rank$r.json 1 $r >/dev/null || exit 1
	h=hn-1; [ $r -ge 2 ] && h=hn-2
	sed "s/\"schemaVersion\": 1,/\"schemaVersion\": 1, \"host_name\": \"$h\",/" hn/rank$r.json >t && mv t hn/rank$r.json
done
"$T" --export nodes --no-index hn >hn.csv 2>/dev/null
tap_eq "host_name: two hosts of two ranks" "hn-1,2,0,1 hn-2,2,2,3" "$(tail -n +2 hn.csv | cut -d, -f1-4 | tr '\n' ' ' | sed 's/ $//')"
sed 's/"distributedInfo": {/"distributedInfo": {"hostname": "di-9", /' hn/rank3.json >t && mv t hn/rank3.json
"$T" --export nodes --no-index hn >hd.csv 2>/dev/null
tap_eq "host_name: distributedInfo's hostname comes first" "hn-1 hn-2 di-9" "$(tail -n +2 hd.csv | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//')"

# a step run with run.json hostnames and a trace per rank
"$gen" run 4 300 >/dev/null || exit 1
for r in 0 1 2 3; do
	h=node-a; [ $r -ge 2 ] && h=node-b
	sed "s/\"machine\"/\"hostname\": \"$h\", \"machine\"/" run/rank$r/run.json >t && mv t run/rank$r/run.json
	# of the run's world_size (a trace of another in a rank dir is another job's)
	"$tgen" t.json 1 $r >/dev/null && sed 's/"world_size": 8/"world_size": 4/' t.json >run/rank$r/trace.json || exit 1
done
"$T" --export sources --no-index run >same.csv 2>/dev/null
tap_check "the traces are loaded with the steps" '[ "$(grep -c ",kineto," same.csv)" -eq 4 ]'
tap_check "no trace host: nothing to compare, no warning" '! grep -q "names host" same.csv'
sed 's/"distributedInfo": {/"distributedInfo": {"hostname": "node-a.cluster.example", /' run/rank0/trace.json >t && mv t run/rank0/trace.json
sed 's/"distributedInfo": {/"distributedInfo": {"hostname": "node-c", /' run/rank3/trace.json >t && mv t run/rank3/trace.json
sed 's/"distributedInfo": {/"distributedInfo": {"hostname": "NODE-A", /' run/rank1/trace.json >t &&
	mv t run/rank1/trace.json
"$T" --export sources --no-index run >src.csv 2>/dev/null
tap_check "disagreeing hosts: a warning names both" \
	'grep -q "^warning,.*,3,.*rank 3: run.json environment names host \"\"node-b\"\" but its trace names \"\"node-c\"\"; the node roll-up uses run.json.s" src.csv'
tap_check "a short name and its qualified form agree" '! grep -q "rank 0: run.json" src.csv'
tap_check "a hostname in another case agrees (DNS names ignore case)" '! grep -q "rank 1: run.json" src.csv'
"$T" --export nodes --no-index run >n.csv 2>/dev/null
tap_eq "the roll-up keeps run.json's hosts" "node-a,2,0,1 node-b,2,2,3" "$(tail -n +2 n.csv | cut -d, -f1-4 | tr '\n' ' ' | sed 's/ $//')"
"$T" --print --no-index run >/dev/null 2>err.txt
tap_check "the warning is counted on stderr" 'grep -q "data quality: 0 errors, 1 warning, " err.txt'

# hostname null on ranks 0-3 (slow), h1-h3 on the others: no host "null" slow together
"$gen" hnull 16 100 >/dev/null || exit 1
python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" hnull 0 3 1.2 || exit 1
for r in $(seq 0 15); do
	h='null'; [ $r -ge 4 ] && h="\"h$((r / 4))\""
	sed "s/\"machine\"/\"hostname\": $h, \"machine\"/" hnull/rank$r/run.json >t && mv t hnull/rank$r/run.json
done
"$T" --export nodes --no-index hnull >hnull.csv 2>/dev/null
"$T" --print --no-index hnull >hnull.txt 2>/dev/null
"$T" --export sources --no-index hnull >hnull_src.csv 2>/dev/null
tap_eq "hostname null: the ranks record none, their node is not a host" "(no hostname),4,n/a h1,4,no h2,4,no h3,4,no" \
	"$(tail -n +2 hnull.csv | cut -d, -f1,2,11 | tr '\n' ' ' | sed 's/ $//')"
tap_check "... never a host null slow together, and a warning names the file and value" \
	'! grep -q "host null" hnull.txt &&
	 grep "^warning,hnull/rank0/run.json,,0,.*rank 0: run.json environment" hnull_src.csv |
	 grep -q "\"\"hostname\"\" is null, not a host name: the node roll-up does not use it"'
# every rank's hostname null or false: none has one, nodes by gpu_count 8 (not hosts "null" and "false")
for r in $(seq 0 15); do
	h=null; [ $r -ge 8 ] && h=false
	sed "s/\"hostname\": [a-z0-9\"]*,/\"hostname\": $h,/" hnull/rank$r/run.json >t && mv t hnull/rank$r/run.json
done
"$T" --export nodes --no-index hnull >hall.csv 2>/dev/null
tap_eq "every hostname null or false: two nodes of gpu_count 8" "node 0,8,gpu_count 8 node 1,8,gpu_count 8" \
	"$(tail -n +2 hall.csv | cut -d, -f1,2,12 | tr '\n' ' ' | sed 's/ $//')"
for r in $(seq 0 15); do
	h='"x\\u0000y"'; [ $r -ge 8 ] && h='"x\\u0000z"'
	sed "s/\"hostname\": [a-z]*,/\"hostname\": $h,/" hnull/rank$r/run.json >t && mv t hnull/rank$r/run.json
done
"$T" --export nodes --no-index hnull >hnul.csv 2>/dev/null
tap_eq "an escaped NUL in hostnames: kept as ^@, two hosts (not one host x)" "x^@y,8 x^@z,8" \
	"$(tail -n +2 hnul.csv | cut -d, -f1,2 | tr '\n' ' ' | sed 's/ $//')"
tap_plan
