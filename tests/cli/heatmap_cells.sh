#!/bin/sh
# heatmap_cells.sh: the heatmap's cells are a model view (grid_cells_table): `--export
# heatmap_cells` (every rank, 100 cells across) and `e` on the heatmap pane (the cells
# on screen) write the same columns from the same code. Rank ids and steps are numbers
# (sorted and filtered as numbers), names stay text; worst/mean name the grid's unit. A
# step without a phase has no step time: its cells are empty (missing), not 0 s, and a
# grid with no value at all shows no scale rather than "median 0 s..max 0 s". Likewise a
# record without a compute phase has no compute (its cell missing, in the pane too), and
# ranks whose compute cannot be weighed against each other (a rank without a compute
# phase beside ranks with one, a step some rank records none at, traces of two runs:
# analysis_compute_unweighable) have no slowdown: empty, not 0 and not the median of
# the others, and not offered by the pane's m, as the ranks view's rel_slowdown.
# Row labels are whole however long (a DASF worker's host and address), never cut to a
# buffer (nor inside a multi-byte character). An eval record (scalars alone) after a
# training record of its step leaves the cell to the training record natively, as the
# distributed analysis aligns it (the slowdown against the median of every rank's compute
# there, the pane's cell and its phases too, from the index too); --compat pytscope keeps
# pytscope's alignment (the last record: the cell missing). One rank has nothing to be
# compared against: no slowdown (empty cells, not 0; the pane's m does not offer it). A
# rank that ends early cuts no other rank's steps: the axis goes on to the last step some
# rank has, the early rank's cells missing there (as --follow shows the same run), from
# the index too, steps logged every 10 or every 1. A phase named compute is not the compute
# series (the sum of the compute phases): it is "compute (phase)" in m, the status row, e
# and the export, and not listed at all when it is the only compute phase (the series is
# then that phase, as comm is). Steps some rank lacks mid-run or before its late start
# are no column: the pane says how many, where and on which ranks (from the index too),
# and --export heatmap_cells says the same on stderr. Ranks recording data and comm alone
# beside ranks with forward, backward and optimizer have no compute of their own: their
# compute cells missing, the scale over the cells shown (from the index too).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
DEMO="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
"$TSCOPE_BIN" --export heatmap_cells "$DEMO" >cells.csv
tap_rc $? "--export heatmap_cells exits 0"
tap_check "header: row/col labels, metric, worst and mean in the grid's unit (seconds)" \
	'[ "$(head -1 cells.csv)" = "row_first,row_last,col_first,col_last,metric,worst_s,mean_s" ]'
tap_check "16 ranks x 100 cells" '[ "$(tail -n +2 cells.csv | wc -l)" -eq 1600 ]'
# rank ids and steps are numbers: --filter and --sort compare them as numbers
"$TSCOPE_BIN" --export heatmap_cells --filter 'col_first>=396' "$DEMO" | tail -n +2 | cut -d, -f3 | sort -u >ge
tap_check "col_first>=396 is numeric (only the cell from step 396)" '[ "$(cat ge)" = 396 ]'
"$TSCOPE_BIN" --export heatmap_cells --sort -row_first "$DEMO" | sed -n 2p | cut -d, -f1 >top
tap_check "--sort -row_first: rank 15 first (not 9)" '[ "$(cat top)" = 15 ]'
# negative steps: numbers, not text behind a formula guard
mkdir -p neg/rank0
i=-3
while [ "$i" -lt 3 ]; do
	printf '{"step": %d, "phases": {"forward": 0.1, "backward": 0.2}}\n' "$i"
	i=$((i + 1))
done >neg/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap_cells neg 2>/dev/null | sed -n 2p | cut -d, -f3 >negc
tap_check "a negative step is written as a number (-3, not '-3)" '[ "$(cat negc)" = -3 ]'
# DASF workers are names: the row labels stay text there
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dasf >/dev/null
"$TSCOPE_BIN" --export heatmap_cells dasf >dcells.csv 2>/dev/null
tap_check "DASF: worker names as text, seconds as numbers, worst/mean in tasks" \
	'sed -n 2p dcells.csv | grep -q "^worker-[^,]*,worker-[^,]*,0,0," &&
	 head -1 dcells.csv | grep -q ",worst_tasks,mean_tasks$" &&
	 "$TSCOPE_BIN" --export heatmap_cells --filter "col_first>=1 col_first<2" dasf | tail -n +2 | cut -d, -f3 |
		sort -u | grep -qx 1'
# long worker names (a DASF worker is named by its host and address): every row label
# whole, however long, so two workers never share a label; a name with multi-byte
# characters is never cut inside one (no U+FFFD)
long_dasf() {   # FILE NAME_A NAME_B: the legacy text format, 10 memory events of two workers
	for i in 0 1 2 3 4 5 6 7 8 9; do
		name=$2; [ $((i % 2)) = 1 ] && name=$3
		printf 'trace: {"name": "Managed Memory", "phase": "I", "timestamp": %d.5, ' $((1000 + i))
		printf '"process_id": "h", "thread_id": "%s", "category": "memory", ' "$name"
		printf '"data": {"key": "f-%d", "size": 1000, "tasks": %d}}\n' $i $((1 + i % 2 * 5))
	done >"$1"
}
wk=worker-gpu-node-017.cluster.internal.example.org-tcp://10.12.34.56:4123
long_dasf longw.txt "${wk}5" "${wk}6"
"$TSCOPE_BIN" --no-index --export heatmap_cells longw.txt 2>/dev/null | tail -n +2 | cut -d, -f1,2 |
	sort -u >longw.csv
tap_check "long worker names: both rows' labels whole (72 bytes), first and last, never one shared" \
	'[ "$(cat longw.csv)" = "$(printf "%s,%s\n%s,%s" "${wk}5" "${wk}5" "${wk}6" "${wk}6")" ]'
a=$(printf 'a%.0s' $(seq 49))
long_dasf utf8w.txt "worker-$a-xéééé" "worker-$a-yéééé"
"$TSCOPE_BIN" --no-index --export heatmap_cells utf8w.txt 2>/dev/null | tail -n +2 | cut -d, -f1 | sort -u >utf8w.csv
tap_check "a name with multi-byte characters past 63 bytes: whole, no U+FFFD" \
	'[ "$(cat utf8w.csv)" = "$(printf "worker-%s-xéééé\nworker-%s-yéééé" "$a" "$a")" ] &&
	 ! grep -q "$(printf "\357\277\275")" utf8w.csv'
huge=$(printf 'w%.0s' $(seq 300))
long_dasf hugew.txt "${huge}-0" "${huge}-1"
tap_check "a 302-byte worker name: whole in row_first and row_last" \
	'"$TSCOPE_BIN" --no-index --export heatmap_cells hugew.txt 2>/dev/null | tail -n +2 | cut -d, -f1,2 | sort -u |
		grep -qx "${huge}-1,${huge}-1"'
printf '2\ne<C-u>%s<Enter>\nq\n' "$PWD/longshown.csv" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 "$TSCOPE_BIN" --no-index --tui longw.txt >/dev/null 2>err
tap_check "... e on the heatmap pane writes the same whole labels" \
	'tail -n +2 longshown.csv | cut -d, -f1 | sort -u | grep -qx "${wk}6"'
printf '2\ne<C-u>%s<Enter>\n:dump %s\nq\n' "$PWD/shown.csv" "$PWD/screen.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 "$TSCOPE_BIN" --tui "$DEMO" >/dev/null 2>err
tap_check "e on the heatmap writes the cells shown, same columns" \
	'[ -s shown.csv ] && [ "$(head -1 shown.csv)" = "$(head -1 cells.csv)" ]'
# no phase on any rank: the step time cells are missing, not 0; a rank without phases
# beside one with: its step time cells missing, the other's present
mkdir -p nph/rank0 nph/rank1 half/rank0 half/rank1
for s in $(seq 0 9); do echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; done >nph/rank0/steps.jsonl
cp nph/rank0/steps.jsonl nph/rank1/steps.jsonl
cp nph/rank0/steps.jsonl half/rank1/steps.jsonl
for s in $(seq 0 9); do echo "{\"step\":$s,\"phases\":{\"forward\":0.02,\"backward\":0.04}}"
done >half/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap_cells nph >nph.csv 2>/dev/null
tap_check "no phase: 20 step time cells, worst and mean empty, never 0" \
	'[ "$(tail -n +2 nph.csv | wc -l)" -eq 20 ] &&
	 [ "$(tail -n +2 nph.csv | cut -d, -f5-7 | sort -u)" = "step time,," ]'
printf '2\n:dump %s\ni\n:dump %s\nq\n' "$PWD/nph.txt" "$PWD/nphl.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui nph >/dev/null 2>err
tap_check "... the pane: no scale (not median 0 s..max 0 s), the cell missing, the legend says why" \
	'grep -q "step time: 1 step/col  scale n/a: no cell has a value" nph.txt &&
	 grep -q "step time missing" nph.txt &&
	 ! grep -q "0 s" nph.txt && grep -q "Scale: none: no cell of this grid has a value" nphl.txt'
printf '2\nm\n:dump %s\nj\n:dump %s\nq\n' "$PWD/h0.txt" "$PWD/h1.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui half >/dev/null 2>err
tap_check "a rank without phases: its step time missing, the other's 60 ms (m: no slowdown between)" \
	'grep -q "rank 0  step 0  step time 60 ms" h0.txt && grep -q "rank 1  step 0  step time missing" h1.txt'
"$TSCOPE_BIN" --no-index --export heatmap half 2>/dev/null | tail -n +2 >half.csv
tap_check "... no slowdown: rank 0's not 0 against the median of its own compute alone, rank 1 none" \
	'[ "$(awk -F, '\''$1 == 0 {printf "%.0f,%s,%s\n", $4, $6, $7}'\'' half.csv | sort -u)" = "60,," ] &&
	 [ "$(awk -F, '\''$1 == 1 {print $4 $5 $6 $7}'\'' half.csv | sort -u)" = "" ]'
# ranks of 75 ms and 60 ms and one without phases: no slowdown, not one against the median of 75 and 60
mkdir -p three/rank0 three/rank1 three/rank2
cp half/rank0/steps.jsonl three/rank1/steps.jsonl
cp half/rank1/steps.jsonl three/rank2/steps.jsonl
for s in $(seq 0 9); do echo "{\"step\":$s,\"phases\":{\"forward\":0.025,\"backward\":0.05}}"
done >three/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap three 2>/dev/null | tail -n +2 >three.csv
c3=$(awk -F, '{print $1 "," ($4 == "" ? "" : sprintf("%.0f", $4))}' three.csv | sort -u | tr '\n' ' ')
tap_check "... three ranks, one without phases: no slowdown (as the ranks view), compute 75 and 60 ms" \
	'[ "$(cut -d, -f6,7 three.csv | sort -u)" = "," ] && [ "$c3" = "0,75 1,60 2, " ]'
# rank 1 records phases on steps 0-9 only, the loss alone after
mkdir -p part/rank0 part/rank1
for s in $(seq 0 29); do
	echo "{\"step\":$s,\"phases\":{\"forward\":0.02,\"backward\":0.04}}" >>part/rank0/steps.jsonl
	if [ "$s" -lt 10 ]; then tail -1 part/rank0/steps.jsonl; else echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; fi \
		>>part/rank1/steps.jsonl
done
"$TSCOPE_BIN" --no-index --export heatmap_cells part 2>/dev/null | awk -F, '$1 == 1 && $3 >= 10' >part.csv
tap_check "records without a compute phase: 20 compute cells missing, not 0 s" \
	'[ "$(wc -l <part.csv)" -eq 20 ] && [ "$(cut -d, -f5-7 part.csv | sort -u)" = "compute,," ]'
printf '2\nj\n' >keys
for s in $(seq 1 12); do echo l; done >>keys
printf ':dump %s\nq\n' "$PWD/part.txt" >>keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui part >/dev/null 2>err
tap_check "... the pane: its cell's compute missing, not \"compute 0 s\"" \
	'grep -q "rank 1  step 12  compute missing" part.txt && ! grep -q "compute 0 s" part.txt'
# evalrun DIR: 4 ranks x 20 steps of 8, 14, 10 and 12 ms compute; rank 0 logs an eval record
# (scalars alone) after its training record of step 5
evalrun() {
	for r in 0 1 2 3; do
		mkdir -p "$1/rank$r"
		awk -v r=$r 'BEGIN {
			f = r == 1 ? 3 : r == 3 ? 2 : r == 2 ? 1 : 0
			for (s = 0; s < 20; s++) {
				printf "{\"step\":%d,\"phases\":{\"forward\":%.3f,", s, 0.004 + 0.002 * f
				printf "\"backward\":0.004,\"comm\":0.001}}\n"
				if (r == 0 && s == 5) printf "{\"step\":5,\"scalars\":{\"val_loss\":0.5}}\n"
			}
		}' >"$1/rank$r/steps.jsonl"
	done
}
evalrun ev
# cols STEP_A STEP_B: each rank's compute mean and slowdown mean at two steps, one line a rank
cols() { awk -F, -v a="$1" -v b="$2" '$2 == a {x[$1] = $4 "," $6} $2 == b {y[$1] = $4 "," $6}
	END {for (r = 0; r < 4; r++) print r ":" x[r] ";" y[r]}'; }
"$TSCOPE_BIN" --no-index --export heatmap ev 2>/dev/null | cols 4 5 >ev.cols
tap_check "an eval record after rank 0's training record of step 5: its cell is that record's, not missing" \
	'[ "$(grep -c "^\([0-9]\):\([^;]*\);\2$" ev.cols)" = 4 ] && ! grep -q ":,;\|;,$" ev.cols'
"$TSCOPE_BIN" --no-index --export heatmap_cells ev 2>/dev/null | awk -F, '$1 == 0 && $3 == 5 {print $6}' >ev5
tap_check "... --export heatmap_cells too (8 ms)" '[ "$(cut -c1-5 ev5)" = 0.008 ]'
"$TSCOPE_BIN" --no-index --compat pytscope --export heatmap ev 2>/dev/null | cols 4 5 >evc.cols
tap_check "... --compat pytscope: pytscope's alignment, the cell missing, no slowdown (a step without compute)" \
	'grep -q "^0:[^;]*;,$" evc.cols && grep -q "^2:9.99[0-9]*,;9.99[0-9]*,$" evc.cols &&
	 [ "$(tr ";" "\n" <evc.cols | cut -d, -f2 | sort -u)" = "" ]'
printf '2\nl\nl\nl\nl\nl\n:dump %s\nq\n' "$PWD/ev.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui ev >/dev/null 2>err
tap_check "... the pane: the cell's compute and phases are the training record's" \
	'grep -q "rank 0  step 5  compute 8 ms  forward 4 ms  backward 4 ms  comm 1 ms" ev.txt'
"$TSCOPE_BIN" index ev >/dev/null 2>&1
"$TSCOPE_BIN" --export heatmap ev 2>/dev/null | cols 4 5 >evi.cols
"$TSCOPE_BIN" --compat pytscope --export heatmap ev 2>/dev/null | cols 4 5 >evci.cols
tap_check "... the same from the index, native and --compat" 'cmp -s ev.cols evi.cols && cmp -s evc.cols evci.cols'
# one rank: its slowdown against the median of its own compute would read 0 everywhere
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" one 1 50 >/dev/null 2>&1
"$TSCOPE_BIN" --no-index --export heatmap one 2>/dev/null | tail -n +2 >one.csv
tap_check "one rank: 50 blocks with a compute, the slowdown mean and worst empty, not 0" \
	'[ "$(wc -l <one.csv)" -eq 50 ] && [ "$(cut -d, -f6,7 one.csv | sort -u)" = "," ] &&
	 ! cut -d, -f4 one.csv | grep -qx ""'
"$TSCOPE_BIN" --no-index --ranks 3 --export heatmap "$DEMO" 2>/dev/null | tail -n +2 | cut -d, -f6,7 | sort -u >sub1
tap_check "... a subset of one rank (--ranks 3) too" '[ "$(cat sub1)" = "," ]'
printf '2\n' >keys
for i in 1 2 3 4 5 6 7; do printf 'm\n:dump %s/one%d.txt\n' "$PWD" "$i" >>keys; done
printf 'q\n' >>keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui one >/dev/null 2>err
tap_check "... the pane: m goes from compute to step time, around its 7 metrics, never the slowdown" \
	'grep -q "^ step time: 1 step/col" one1.txt && grep -q "^ compute: 1 step/col" one7.txt &&
	 ! grep -q "slowdown" one1.txt one2.txt one3.txt one4.txt one5.txt one6.txt one7.txt'
# rank 3 ends at step 199 of the demo's 0-399
mkdir trunc
cp -R "$DEMO"/rank* trunc/
head -200 "$DEMO/rank3/steps.jsonl" >trunc/rank3/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap_cells trunc 2>/dev/null | tail -n +2 >tr.csv
tap_check "rank 3 ends at 199: the cells go on to step 399, rank 3's empty from 200, rank 4's not" \
	'[ "$(cut -d, -f4 tr.csv | sort -n | tail -1)" = 399 ] &&
	 [ "$(awk -F, '\''$1 == 3 && $3 >= 200 {print $6 $7}'\'' tr.csv | sort -u)" = "" ] &&
	 [ "$(awk -F, '\''$1 == 4 && $3 >= 200 && $6 != ""'\'' tr.csv | wc -l)" -eq 50 ]'
"$TSCOPE_BIN" --no-index --export heatmap trunc 2>/dev/null | tail -n +2 >trh.csv
tap_check "... --export heatmap too: rank 4's compute to step 399, no slowdown after 199 (no median over every rank)" \
	'[ "$(awk -F, '\''$1 == 4 {print $3}'\'' trh.csv | sort -n | tail -1)" = 399 ] &&
	 [ "$(awk -F, '\''$1 == 4 && $2 >= 200 && $4 != ""'\'' trh.csv | wc -l)" -eq 50 ] &&
	 [ "$(awk -F, '\''$1 == 3 && $2 >= 200 {print $4 $5}'\'' trh.csv | sort -u)" = "" ] &&
	 [ "$(awk -F, '\''$2 >= 200 {print $6 $7}'\'' trh.csv | sort -u)" = "" ]'
printf '2\n:dump %s\nq\n' "$PWD/tr.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --tui trunc >/dev/null 2>err
printf '2\n:dump %s\nq\n' "$PWD/trf.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 "$TSCOPE_BIN" --no-index --follow --tui trunc >/dev/null 2>err
tap_check "... the pane: the axis to 360, the same grid and note as --follow shows" \
	'sed -n 2p tr.txt | grep -q " 360 *$" && [ "$(head -21 tr.txt)" = "$(head -21 trf.txt)" ]'
"$TSCOPE_BIN" index trunc >/dev/null 2>&1
"$TSCOPE_BIN" --export heatmap_cells trunc 2>/dev/null | tail -n +2 >tri.csv
"$TSCOPE_BIN" --export heatmap trunc 2>/dev/null | tail -n +2 >trih.csv
"$TSCOPE_BIN" index --status --verify trunc >trv.txt 2>&1
tap_check "... from the index: the same cells (the summary's pyramids end at 199, and read back whole)" \
	'cmp -s tr.csv tri.csv && cmp -s trh.csv trih.csv && grep -q " 32 heatmap rows read back: checksums ok" trv.txt'
# steps logged every 10: rank 1 ends at 90, ranks 0 and 2 go on to 290 (from the index:
# rank 1's steps read, not held)
for r in 0 1 2; do
	mkdir -p tens/rank$r
	n=30; [ $r = 1 ] && n=10
	awk -v n=$n -v r=$r 'BEGIN { for (s = 0; s < n; s++)
		printf "{\"step\":%d,\"phases\":{\"forward\":0.0%d,\"backward\":0.02}}\n", s * 10, r + 1 }' \
		>tens/rank$r/steps.jsonl
done
"$TSCOPE_BIN" --no-index --export heatmap_cells tens 2>/dev/null | tail -n +2 >tens.csv
"$TSCOPE_BIN" index tens >/dev/null 2>&1
"$TSCOPE_BIN" --export heatmap_cells tens 2>/dev/null | tail -n +2 >tensi.csv
tap_check "every 10 steps, rank 1 ends at 90: 30 cells a rank to step 290, rank 1's 20 after 90 empty; index too" \
	'[ "$(wc -l <tens.csv)" -eq 90 ] && [ "$(cut -d, -f4 tens.csv | sort -n | tail -1)" = 290 ] &&
	 [ "$(awk -F, '\''$1 == 1 && $3 > 90 && $6 == ""'\'' tens.csv | wc -l)" -eq 20 ] && cmp -s tens.csv tensi.csv'
# a phase named compute beside data and optimizer: the compute series (their sum, 65 ms
# on rank 0) and the phase (50 ms) are two metrics with two names, in the pane's m, its
# status row, e and --export heatmap_cells alike
for r in 0 1; do
	mkdir -p cph/rank$r
	for s in $(seq 0 9); do
		echo "{\"step\":$s,\"phases\":{\"data\":0.01,\"compute\":0.0$((5 + r)),\"optimizer\":0.005,\"comm\":0.02}}"
	done >cph/rank$r/steps.jsonl
done
printf '2\n' >keys
for i in 1 2 3 4 5 6 7; do printf ':dump %s/cph%d.txt\nm\n' "$PWD" "$i" >>keys; done
printf 'm\nm\nm\nm\nm\ne<C-u>%s<Enter>\nq\n' "$PWD/cphe.csv" >>keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --no-index --tui cph >/dev/null 2>err
for i in 1 2 3 4 5 6 7; do sed -n 's/^ \([^:]*\): 1 step\/col.*/\1/p' "cph$i.txt"; done >cph.names
tap_eq "a phase named compute: m lists the compute series and 'compute (phase)', each once" \
	"compute,slowdown vs step median,step time,comm,data,compute (phase),optimizer" "$(paste -sd, cph.names)"
tap_check "... the status row: compute 65 ms on its grid, 'compute (phase) 50 ms' on the phase's, phases said so" \
	'grep -q "step 0  compute 65 ms  phases: data 10 ms  compute 50 ms" cph1.txt &&
	 grep -q "step 0  compute (phase) 50 ms  phases: data 10 ms  compute 50 ms" cph6.txt &&
	 grep -q "step 0  step time 85 ms  phases: data 10 ms  compute 50 ms" cph3.txt'
"$TSCOPE_BIN" --no-index --export heatmap_cells cph 2>/dev/null | sed -n 2p | cut -d, -f5,6 >cphx
tap_check "... --export heatmap_cells: the compute series as 'compute' (65 ms); e on the phase's: 'compute (phase)'" \
	'[ "$(awk -F, '\''$1 == "compute" && $2 > 0.0649 && $2 < 0.0651'\'' cphx | wc -l)" -eq 1 ] &&
	 [ "$(tail -n +2 cphe.csv | cut -d, -f5 | sort -u)" = "compute (phase)" ] &&
	 tail -n +2 cphe.csv | grep -q "^0,0,0,0,compute (phase),0\.05[0-9]*,"'
# the phase compute as the only compute phase (and comm): the compute series is that phase, listed once
for r in 0 1; do
	mkdir -p conly/rank$r
	for s in $(seq 0 9); do echo "{\"step\":$s,\"phases\":{\"compute\":0.0$((5 + r)),\"comm\":0.02}}"; done \
		>conly/rank$r/steps.jsonl
done
printf '2\n' >keys
for i in 1 2 3 4 5 6; do printf ':dump %s/conly%d.txt\nm\n' "$PWD" "$i" >>keys; done
printf 'q\n' >>keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --no-index --tui conly >/dev/null 2>err
for i in 1 2 3 4 5 6; do sed -n 's/^ \([^:]*\): 1 step\/col.*/\1/p' "conly$i.txt"; done >conly.names
tap_eq "... the only compute phase: the compute series is that phase, not listed twice (as comm): 4 metrics" \
	"compute,slowdown vs step median,step time,comm,compute,slowdown vs step median" "$(paste -sd, conly.names)"
# steps missing on some rank mid-run or before its late start are no column (the columns
# are the steps every rank has, then the later ones): the pane says which and where
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" gap 8 60 >/dev/null 2>&1
awk '$0 !~ /"step":2[0-9],/' gap/rank3/steps.jsonl >gap3 && mv gap3 gap/rank3/steps.jsonl
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" late 6 40 >/dev/null 2>&1
for r in 3 4; do tail -n +11 late/rank$r/steps.jsonl >late3 && mv late3 late/rank$r/steps.jsonl; done
printf '2\n:dump %s/note.txt\nq\n' "$PWD" >keys
for d in gap late "$DEMO"; do
	TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --no-index --tui "$d" >/dev/null 2>err
	grep "left out" note.txt || echo none
done >notes
tap_eq "rank 3 lacks steps 20-29, ranks 3-4 start at 10: the pane names the steps left out and the ranks; none else" \
	" 10 steps left out (20-29): missing on rank 3; the columns are the steps every rank has, then the later ones
 10 steps left out (0-9): missing on ranks 3-4; the columns are the steps every rank has, then the later ones
none" "$(cat notes)"
"$TSCOPE_BIN" index gap >/dev/null 2>&1
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --tui gap >/dev/null 2>err
tap_check "... from the index too" 'grep -q "^ 10 steps left out (20-29): missing on rank 3;" note.txt'
# --export heatmap_cells says the steps its columns leave out on stderr (a CSV has no note row)
"$TSCOPE_BIN" --export heatmap_cells --no-index gap >gap.csv 2>gap.err
"$TSCOPE_BIN" --export heatmap_cells --no-index "$DEMO" >demo.csv 2>demo.err
tap_eq "--export heatmap_cells: the steps left out said on stderr; nothing for a run without gaps" \
	"tscope-tui: note on 'heatmap_cells': 10 steps left out (20-29): missing on rank 3; the columns are the steps \
every rank has, then the later ones|" "$(cat gap.err)|$(cat demo.err)"
# Ranks 3-7 record data and comm alone while ranks 0-2 record forward, backward and optimizer
# too: their data time is no compute of theirs. Their compute cells are missing (cells, the
# heatmap view, the pane's status row, on the node row of gpu-b, none of whose ranks has
# one), and the scale is the cells' shown (median 101 ms, not the data phase's 5 ms), from
# the index too (its kept scale counts those cells).
python3 - <<'PY' || exit 1
import json, os
for r in range(8):
    d = "dataonly/rank%d" % r
    os.makedirs(d)
    json.dump({"rank": r, "world_size": 8, "environment": {"hostname": "gpu-" + "ab"[r // 4]}},
              open(d + "/run.json", "w"))
    with open(d + "/steps.jsonl", "w") as f:
        for s in range(20):
            ph = {"data": 0.005, "comm": 0.01}
            if r < 3:
                ph.update(forward=0.03 + 0.001 * ((s + r) % 3), backward=0.06, optimizer=0.005)
            f.write(json.dumps({"step": s, "phases": ph}) + "\n")
PY
"$TSCOPE_BIN" --export heatmap_cells --no-index dataonly 2>/dev/null | tail -n +2 >do.csv
tap_check "data and comm alone: those ranks' compute cells missing, not the data phase's 5 ms" \
	'[ "$(awk -F, '\''$1 >= 3 {print $5 "," $6 "," $7}'\'' do.csv | sort -u)" = "compute,," ] &&
	 [ "$(awk -F, '\''$1 < 3 && $6 != ""'\'' do.csv | wc -l)" -eq 60 ]'
"$TSCOPE_BIN" --export heatmap --no-index dataonly 2>/dev/null | tail -n +2 >do_view.csv
tap_check "... the heatmap view's compute too" \
	'[ "$(awk -F, '\''$1 >= 3 {print $4 "," $5}'\'' do_view.csv | sort -u)" = "," ] &&
	 [ "$(awk -F, '\''$1 < 3 && $4 != ""'\'' do_view.csv | wc -l)" -eq 60 ]'
printf '2\nj\nj\nj\n:dump %s/do1.txt\no\nj\n:dump %s/do2.txt\nq\n' "$PWD" "$PWD" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --no-index --tui dataonly >/dev/null 2>err
tap_check "... the pane: rank 3's cell and gpu-b's node row compute missing, the scale the shown cells'" \
	'grep -q "^ rank 3  step 0  compute missing" do1.txt && grep -q "^ gpu-b  step 0  compute missing" do2.txt &&
	 grep -q " scale median 101 ms\.\.max 102 ms " do1.txt'
"$TSCOPE_BIN" index dataonly >/dev/null 2>&1
"$TSCOPE_BIN" --export heatmap_cells dataonly 2>/dev/null | tail -n +2 >do_ix.csv
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --tui dataonly >/dev/null 2>err
tap_check "... the same from the index" \
	'cmp -s do.csv do_ix.csv && grep -q "^ rank 3  step 0  compute missing" do1.txt &&
	 grep -q " scale median 101 ms\.\.max 102 ms " do1.txt && [ -s dataonly/.tscope-index/summary.tsx ]'
tap_plan
