#!/bin/sh
# trace_real.sh: Kineto parity on the real samples in ../shared/real (skipped when
# absent): HTA reference numbers (formats.md §2.5) for the param DLRM 8-rank set and the
# HTA trace_filter 2-rank set (the temporal CSV's percentages, the kernel_breakdown
# percentages and the idle ratios are in full, rounded here to HTA's 2 and 1 decimals: a
# share HTA rounds to 0, 18 us of 550 ms, is written as it is, not 0), and pytscope's
# exp2_bad golden lines, TraceSummary (to the last bit: pytscope's float seconds) and its
# --compat pytscope report (pytscope.md §12).
set -u
BIN=${TSCOPE_BIN:?}
REAL=${TSCOPE_ROOT:?}/../shared/real
. "$TSCOPE_ROOT/tests/tap.sh"
if [ ! -d "$REAL/kineto-dlrm-8rank" ] || [ ! -d "$REAL/kineto-hta-2rank" ] || [ ! -f "$REAL/pytscope-t4/exp2_bad/trace.json" ]; then
	tap_skip "../shared/real is absent"; tap_plan
	exit 0
fi
D8=$REAL/kineto-dlrm-8rank
D2=$REAL/kineto-hta-2rank
# the temporal CSV's percentage columns (6-9) rounded to HTA's 2 decimals, as pandas writes them
hta2() { awk -F, -v OFS=, 'NR > 1 { for (i = 6; i <= 9; i++) if ($i != "") $i = sprintf("%.2f", $i) + 0 } 1'; }

# temporal breakdown + overlap + stragglers, one line per rank
t8=$("$BIN" --export temporal "$D8" | cut -d, -f1-10 | hta2 | tr '\n' ' ')
tap_eq "dlrm 8 ranks: temporal breakdown, overlap %, stragglers [2, 7]" \
"rank,idle_us,compute_us,non_compute_us,kernel_us,idle_pct,compute_pct,non_compute_pct,comm_overlap_pct,potential_straggler \
0,6419,1034,5556,13009,49.34,7.95,42.71,4.5,no \
1,6428,1246,11075,18749,34.28,6.65,59.07,2.47,no \
2,7046,1068,3236,11350,62.08,9.41,28.51,7.88,yes \
3,8145,1240,9468,18853,43.2,6.58,50.22,3.31,no \
4,8887,1126,6576,16589,53.57,6.79,39.64,0.56,no \
5,9121,1041,6230,16392,55.64,6.35,38.01,0.64,no \
6,7051,1051,3308,11410,61.8,9.21,28.99,7.56,no \
7,8308,1059,1600,10967,75.75,9.66,14.59,9.51,yes " "$t8"

kb=$("$BIN" --export kernel_breakdown "$D8" | awk -F, '$1=="" {print $2"="$3"/"sprintf("%.1f", $4) + 0}' | tr '\n' ' ')
tap_eq "dlrm kernel types across ranks incl. overlap labels" \
"COMMUNICATION=46880/83.8 COMPUTATION=7213/12.9 COMPUTATION overlapping COMMUNICATION=1652/3 MEMORY=159/0.3 COMMUNICATION overlapping MEMORY=10/0 " "$kb"

nccl=$("$BIN" --export kernels --filter 'rank=0 type=COMMUNICATION' "$D8" | awk -F, 'NR>1 {print "sum="$(NF-5)",n="$(NF-6)",min="$(NF-3)",max="$(NF-2)}' | tr '\n' ' ')
tap_eq "dlrm rank 0 NCCL kernels: sum, count, min, max" "sum=3999,n=5,min=131,max=2146 sum=1799,n=3,min=246,max=952 " "$nccl"

idle=$("$BIN" --export idle --filter 'rank=0 idle_time_us>0' "$D8" | awk -F, 'NR>1 {print $2":"$3"="$4}' | tr '\n' ' ')
tap_eq "dlrm rank 0 idle by stream" \
"22:host_wait=145 7:host_wait=11448 7:kernel_wait=123 24:host_wait=5906 24:kernel_wait=18 84:host_wait=4740 84:kernel_wait=3 " "$idle"

# shares HTA rounds to 0 are written in full: 18 us of 550 ms is 0.0033%, 70 us of 596 ms idle 0.00012
kb2=$("$BIN" --export kernel_breakdown "$D2" | awk -F, '$1=="" && $3 < 100 {print $2"="$3"/"sprintf("%.4f", $4)}')
idle2=$("$BIN" --export idle --filter 'rank=0 stream=23' "$D2" | awk -F, 'NR>1 {print $3"="$4"/"sprintf("%.5f", $5)}')
tap_eq "HTA 2 ranks: kernel_breakdown percentages and idle ratios in full, not HTA's 0" \
"COMPUTATION overlapping MEMORY=18/0.0033 COMPUTATION overlapping COMMUNICATION overlapping MEMORY=12/0.0022 \
host_wait=596037/0.99983 kernel_wait=70/0.00012 other=34/0.00006" "$(echo $kb2 $idle2)"

t2=$("$BIN" --export temporal "$D2" | cut -d, -f1-10 | hta2 | tr '\n' ' ')
tap_eq "HTA 2 ranks (step 552 dropped): temporal, overlap, stragglers [0, 1]" \
"rank,idle_us,compute_us,non_compute_us,kernel_us,idle_pct,compute_pct,non_compute_pct,comm_overlap_pct,potential_straggler \
0,321378,106252,172428,600058,53.56,17.71,28.74,11.81,yes \
1,328671,135548,136455,600674,54.72,22.57,22.72,20.05,yes " "$t2"

# pytscope exp2_bad golden (section text and the finding)
out=$("$BIN" --print --color never "$REAL/pytscope-t4/exp2_bad")
line=$(printf '%s\n' "$out" | grep '^  comm ')
tap_eq "exp2_bad COMMUNICATION OVERLAP line" "  comm 170.7 ms · overlapped 8% · exposed 156.2 ms (72% of trace span)" "$line"
coll=$(printf '%s\n' "$out" | grep '^  by collective')
tap_eq "exp2_bad by collective" "  by collective: all_reduce 170.7ms" "$coll"
# --compat pytscope: pytscope reads no steps from the trace: "No steps recorded.", the
# overlap section and one finding (pytscope.md §12), no TIMING or budget built from it
c=$("$BIN" --print --color never --compat pytscope "$REAL/pytscope-t4/exp2_bad")
tap_check "exp2_bad --compat pytscope: No steps recorded., COMMUNICATION OVERLAP, FINDINGS (1)" \
	'[ "$(printf "%s\n" "$c" | sed -n 3p)" = "No steps recorded." ] &&
	 printf "%s\n" "$c" | grep -qx "● FINDINGS (1)" && printf "%s\n" "$c" | grep -q "(DIST.EXPOSED_COMM)$" &&
	 ! printf "%s\n" "$c" | grep -q "TIMING\|EFFICIENCY"'
# golden TraceSummary of pytscope 0.2.1 (seconds 0.21564336773008108 0.17067035660147667
# 0.03687658067792654 0.1562320189550519 0.01443833764642477), to the last bit: ours are
# computed in pytscope's float seconds of the ts without baseTimeNanoseconds; the CSV has
# them in ms (each times 1e3, as Python prints it)
sum=$("$BIN" --export comm_overlap "$REAL/pytscope-t4/exp2_bad" | awk -F, 'NR==2 {
	print $2, $3, $4, $5, $6, "n_comm=" $9, "n_compute=" $10, "all_reduce_ms=" sprintf("%.6f", $12) }')
tap_eq "exp2_bad TraceSummary (wall, comm, compute, exposed, overlapped, counts)" \
	"215.64336773008108 170.67035660147667 36.87658067792654 156.2320189550519 14.43833764642477 n_comm=40 \
n_compute=500 all_reduce_ms=170.670354" "$sum"
# --ranks on the 8 worker traces (loose files: each read, those of other ranks left out):
# the listed ranks' per-rank trace views are the whole set's rows for them
for v in kernels idle; do
	"$BIN" --export $v "$D8" | awk -F, 'NR == 1 || $1 == 2 || $1 == 7' >"$TSCOPE_TMP/want.csv"
	"$BIN" --export $v --ranks 2,7 "$D8" >"$TSCOPE_TMP/got.csv" 2>/dev/null
	tap_check "dlrm --ranks 2,7: the $v rows of ranks 2 and 7" 'cmp -s "$TSCOPE_TMP/want.csv" "$TSCOPE_TMP/got.csv"'
done
rm -f "$TSCOPE_TMP/want.csv" "$TSCOPE_TMP/got.csv"
cov=$("$BIN" --print --color never --ranks 2,7 "$D8" 2>/dev/null | grep '^  coverage')
tap_eq "dlrm --ranks 2,7: coverage names the subset" \
	"  coverage         2 of 8 ranks (the traces' world_size), a subset: --ranks 2,7 left 6 ranks out" "$cov"
f=$("$BIN" --export findings "$REAL/pytscope-t4/exp2_bad" | awk -F, '$2=="DIST.EXPOSED_COMM" {print $1}')
tap_eq "exp2_bad DIST.EXPOSED_COMM is high" "high" "$f"
tap_plan
