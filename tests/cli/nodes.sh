#!/bin/sh
# nodes.sh: the node roll-up (model/steps/nodes.c): ranks grouped by run.json hostname
# (else the trace's), else --ranks-per-node N, else gpu_count, else the GPUs each trace
# lists; the `nodes` view (worst rank per node, how slow its ranks are together) and the
# NODE.SLOW_TOGETHER finding when every rank of a node is slow (a bad host), but not when
# the slowness is everywhere or on one rank only; its slow_together cell "yes", "no" for a
# node judged not slow, n/a when not judged (too few steps, a run of one host: a not-judged row, none under
# --compat pytscope, which does not run the rule). The gpu_count is the one more than
# half of the ranks record (rank 0's alone does not decide), and the finding names it when they disagree; with no
# majority (a tie) none is used, a warning says so; a gpu_count is a JSON number ("1e1" is 10), one that is not a
# whole number of GPUs ("8.5", "2.9") is not used, a warning names its run.json and value.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/nodes.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
"$gen" run 16 300 >/dev/null || exit 1
cp -r run plain
# Ranks 8-15 (the second node at gpu_count 8) 20% slower in forward and backward.
python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" run 8 15 1.2 || exit 1
"$T" --export nodes --no-index run >n.csv 2>/dev/null
tap_eq "gpu_count 8: two nodes" 2 "$(tail -n +2 n.csv | wc -l)"
tap_check "node 1 holds ranks 8-15 and is slow together" 'grep -q "^node 1,8,8,15,.*,yes,gpu_count 8,,,,,$" n.csv'
tap_check "node 0 is judged not slow together: no, never an empty cell" \
	'grep -q "^node 0,8,0,7,.*,no,gpu_count 8,,,,,$" n.csv'
"$T" --export nodes --no-index --filter 'slow_together=no' run >nf.csv 2>/dev/null
tap_eq "--filter slow_together=no: the node judged not slow" "node 0" "$(tail -n +2 nf.csv | cut -d, -f1)"
"$T" --export nodes --no-index --ranks 0-7 run >n1.csv 2>/dev/null
tap_eq "one host (--ranks 0-7): slow_together n/a, nothing to weigh it against" "node 0,n/a" \
	"$(tail -n +2 n1.csv | cut -d, -f1,11)"
"$T" --print --no-index run >p.txt 2>/dev/null
tap_check "finding: all 8 ranks of node 1 slow together" 'grep -q "All 8 ranks of node 1 slow together.*(NODE.SLOW_TOGETHER)" p.txt'
tap_check "which says the nodes are an assumption (no hostname)" \
	'grep -q "No hostname is recorded: nodes here are rank ids in blocks of 8 (run.json.s gpu_count), which assumes" p.txt'
"$T" --export nodes --ranks-per-node 4 --no-index run >n4.csv 2>/dev/null
tap_eq "--ranks-per-node 4: four nodes" 4 "$(tail -n +2 n4.csv | wc -l)"
tap_eq "--ranks-per-node 4: the two slow ones" "node 2 node 3" \
	"$(grep ',yes,ranks-per-node 4,' n4.csv | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//')"
"$T" --print --no-index plain >q.txt 2>/dev/null
tap_check "one straggler rank (11) is not a slow node" '! grep -q NODE.SLOW_TOGETHER q.txt'
# Hostnames from run.json: four hosts of four ranks; host "b" holds the slow ranks 8-11.
for r in $(seq 0 15); do
	h=$(echo "a x b d" | cut -d' ' -f$((r / 4 + 1)))
	sed "s/\"machine\"/\"hostname\": \"gpu-$h\", \"machine\"/" run/rank$r/run.json >t && mv t run/rank$r/run.json
done
"$T" --export nodes --no-index run >nh.csv 2>/dev/null
tap_eq "hostnames: four hosts in rank order" "gpu-a gpu-x gpu-b gpu-d" "$(tail -n +2 nh.csv | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//')"
"$T" --print --no-index run >ph.txt 2>/dev/null
tap_check "hostnames: the slow host is named" 'grep -q "All 4 ranks of host gpu-b slow together" ph.txt'
tap_check "hostnames: the nodes view says so, the finding assumes nothing" \
	'grep -q "^gpu-b,4,8,11,.*,yes,hostname,,,,,$" nh.csv && ! grep -q "No hostname is recorded" ph.txt'
"$T" --print --no-index --compat pytscope run >pc.txt 2>/dev/null
tap_check "--compat pytscope: no native node finding" '! grep -q NODE.SLOW_TOGETHER pc.txt'
# One node (--ranks 0-7): natively a not-judged row for it; --compat pytscope does not run the rule: none.
"$T" --export findings --no-index --ranks 0-7 plain >f1.csv 2>/dev/null
"$T" --export findings --no-index --ranks 0-7 --compat pytscope plain >fc1.csv 2>/dev/null
tap_check "one node: not judged natively, no row for the rule --compat pytscope does not run" \
	'grep -q "^not judged,NODE.SLOW_TOGETHER,.*on one node" f1.csv && ! grep -q NODE.SLOW_TOGETHER fc1.csv'
# Under 16 aligned steps a slow node is not judged, as the native straggler tests are not.
"$gen" short 16 3 >/dev/null && python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" short 8 15 1.2 || exit 1
"$T" --export nodes --no-index short >ns.csv 2>/dev/null
"$T" --print --no-index short >ps.txt 2>/dev/null
tap_check "3 aligned steps: slow_together n/a on every node, no NODE.SLOW_TOGETHER" \
	'[ "$(tail -n +2 ns.csv | cut -d, -f11 | sort -u)" = "n/a" ] && ! grep -q NODE.SLOW_TOGETHER ps.txt'
# More node lines than screen rows: a row's label names its first and last node, the
# node glyph once ("▸node 0-node 2"); the status row names them without it.
"$gen" wide 40 20 >/dev/null || exit 1
printf '2\n:dump %s\nq\n' "$work/w.txt" >kw
TSCOPE_SCRIPT=kw TERM=dumb LINES=24 COLUMNS=80 LC_ALL=C.UTF-8 "$T" --tui --no-index --ranks-per-node 1 wide >/dev/null 2>&1
tap_check "node lines packed in a row: one glyph, then the range" \
	'grep -q "^    ▸node 0-node 2 " w.txt && ! grep -q "node [0-9]*-▸" w.txt &&
	 grep -q "^ node 0-node 2  step 0  compute worst" w.txt'
# Kineto traces: tensorboard_trace_handler's default file name <host>_<pid>.<ms>.pt.trace.json
# names the host; distributedInfo's hostname wins over it; a name with a rank names none.
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
mkdir tr
for r in 0 1 2 3; do
	h=nodeA; [ $r -ge 2 ] && h=nodeB
	"$tgen" tr/${h}_$((100 + r)).1694128201545.pt.trace.json 1 $r >/dev/null || exit 1
done
"$T" --export nodes --no-index tr >tn.csv 2>/dev/null
tap_eq "traces: hosts from the default trace file names" "nodeA,2,0,1 nodeB,2,2,3" \
	"$(tail -n +2 tn.csv | cut -d, -f1-4 | tr '\n' ' ' | sed 's/ $//')"
sed 's/"distributedInfo": {/"distributedInfo": {"hostname": "gpu-z", /' tr/nodeB_103.1694128201545.pt.trace.json >t &&
	mv t tr/nodeB_103.1694128201545.pt.trace.json
"$T" --export nodes --no-index tr >tz.csv 2>/dev/null
tap_eq "traces: distributedInfo.hostname wins over the file name" "nodeA nodeB gpu-z" \
	"$(tail -n +2 tz.csv | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//')"
mkdir tw
for r in 0 1; do
	"$tgen" tw/rank${r}_55.1694128201545.pt.trace.json 1 $r >/dev/null || exit 1
done
tap_check "traces: a file name with a rank number names no host" \
	'! "$T" --export nodes --no-index tw >/dev/null 2>&1'
# No host anywhere: nodes of the GPUs each trace's deviceProperties lists, when every
# trace lists as many and each rank's kernels ran on GPU (rank id mod that count).
# gtrace DIR RANK NGPUS DEVICE [DUR]: rank RANK of 4 seeing NGPUS GPUs, 16 ProfilerSteps
# of 400 + DUR us, each with a kernel of DUR us (default 500) on DEVICE launched in it
gtrace() {
	{
		printf '{"deviceProperties":['
		g=0
		while [ $g -lt "$3" ]; do
			[ $g -gt 0 ] && printf ','
			printf '{"id":%d,"name":"H100"}' $g
			g=$((g + 1))
		done
		printf '],"distributedInfo":{"rank":%d,"world_size":4},"traceEvents":[' "$2"
		s=1
		while [ $s -le 16 ]; do
			printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":%d},' \
				$s $((s * 1000)) $((400 + ${5:-500}))
			printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":5,' \
				$((s * 1000 + 10))
			printf '"args":{"correlation":%d}},' $s
			printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%d,"dur":%d,' $((s * 1000 + 100)) \
				"${5:-500}"
			printf '"args":{"device":%d,"stream":7,"correlation":%d}}%s' "$4" $s "$([ $s -lt 16 ] && echo ,)"
			s=$((s + 1))
		done
		printf ']}\n'
	} >"$1/rank$2.json"
}
mkdir tg tbad tmix
for r in 0 1 2 3; do
	gtrace tg $r 2 $((r % 2))
	gtrace tbad $r 2 0
	gtrace tmix $r $((2 + 2 * (r / 3))) $((r % 2))
done
"$T" --export nodes --no-index tg >tg.csv 2>/dev/null
tap_eq "traces without hosts: nodes of the 2 GPUs each lists" "node 0,2,0,1,trace GPUs 2 node 1,2,2,3,trace GPUs 2" \
	"$(tail -n +2 tg.csv | cut -d, -f1-4,12 | tr '\n' ' ' | sed 's/ $//')"
"$T" index tg >/dev/null 2>&1 && "$T" --export nodes tg >tgi.csv 2>/dev/null
tap_check "... the same from the index" 'cmp -s tg.csv tgi.csv'
mkdir tslow
for r in 0 1 2 3; do gtrace tslow $r 2 $((r % 2)) $((500 + 100 * (r / 2))); done
"$T" --print --no-index tslow >tslow.txt 2>/dev/null
tap_check "... whose slow node the finding names, saying how the nodes were made" \
	'grep -q "All 2 ranks of node 1 slow together .*(NODE.SLOW_TOGETHER)" tslow.txt &&
	 grep -q "in blocks of 2 (the GPUs each trace lists, each rank on GPU id mod that), which assumes" tslow.txt'
tap_check "... not when the kernels' GPUs contradict id order (rank 1 on GPU 0), nor when the counts differ" \
	'! "$T" --export nodes --no-index tbad >/dev/null 2>tbad.err &&
	 ! "$T" --export nodes --no-index tmix >/dev/null 2>&1 &&
	 grep -q "no hostname in run.json or the traces, .* no GPU count the traces agree on" tbad.err'
# rank 0's run.json says gpu_count 4, the 15 others 8: blocks of 8, said whose
cp -r plain odd0 && python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" odd0 8 15 1.2 &&
	sed -i 's/"gpu_count": *8/"gpu_count": 4/' odd0/rank0/run.json
"$T" --export nodes --no-index odd0 >o.csv 2>/dev/null
"$T" --print --no-index odd0 >o.txt 2>/dev/null
tap_check "rank 0's gpu_count against the 15 others': the others' blocks of 8, node 1 slow together" \
	'grep -q "^node 1,8,8,15,.*,yes,gpu_count 8," o.csv &&
	 grep -q "in blocks of 8 (gpu_count 8 in 15 of the 16 run.json that record one), which assumes" o.txt'
# ranks 0-7 say gpu_count 4, ranks 8-15 8: a tie, no majority, no grouping by it (it said "blocks of 4 (the
# gpu_count 8 of the 16 ranks' run.json record)")
cp -r plain tie && python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" tie 12 15 1.2 || exit 1
for r in 0 1 2 3 4 5 6 7; do sed -i 's/"gpu_count": *8/"gpu_count": 4/' tie/rank$r/run.json; done
"$T" --print --no-index tie >tie.txt 2>/dev/null
"$T" --export sources --no-index tie >tie_src.csv 2>/dev/null
tap_check "gpu_count 4 on 8 ranks, 8 on 8: no majority, no nodes by it, a warning names the disagreement" \
	'! "$T" --export nodes --no-index tie >/dev/null 2>&1 && ! grep -q NODE.SLOW_TOGETHER tie.txt &&
	 grep "^warning,tie,.*gpu_count differs across ranks with no majority (rank 0.s is 4, rank 8.s 8;" tie_src.csv |
	 grep -q "the most common one is in 8 of the 16 run.json that record one): the node roll-up does not group"'
# gpu_count as a JSON number: 1e1 is 10; 8.5 and 2.9 are not whole numbers of GPUs (atol made them 8 and 2)
for g in 1e1 8.5 2.9; do
	cp -r plain "g$g" && sed -i "s/\"gpu_count\": *8/\"gpu_count\": $g/" "g$g"/rank*/run.json
	"$T" --export nodes --no-index "g$g" >"g$g.csv" 2>"g$g.err"
	"$T" --export sources --no-index "g$g" >"g${g}_src.csv" 2>/dev/null
done
tap_eq "gpu_count 1e1: blocks of 10" "node 0,10,gpu_count 10 node 1,6,gpu_count 10" \
	"$(tail -n +2 g1e1.csv | cut -d, -f1,2,12 | tr '\n' ' ' | sed 's/ $//')"
tap_check "gpu_count 8.5 and 2.9: not used (no nodes), a warning names each run.json and value" \
	'[ ! -s g8.5.csv ] && [ ! -s g2.9.csv ] && grep -q "no gpu_count most ranks agree on" g8.5.err &&
	 grep "^warning,g8.5/rank0/run.json,,0,.*rank 0: run.json environment gpu_count 8.5 is not" g8.5_src.csv |
	 grep -q "not a whole number of GPUs: the node roll-up does not use it" &&
	 grep -q "^warning,g2.9/rank3/run.json,,3,.*gpu_count 2.9 is not a whole number of GPUs" g2.9_src.csv'
tap_plan
