#!/bin/sh
# heatmap_labels.sh: the heatmap's row labels and step axis, headless (TSCOPE_SCRIPT).
# Row labels are never cut to a fixed number of bytes: a label column too narrow for a
# name clips it at a character boundary with an ellipsis, keeping where it differs from
# the other rows shown, so two workers (one port apart) or two nodes (long hostnames,
# CJK ones) never read the same; a label that fits is whole; the status row names the
# worker or node in full when it has room, else clips the name (apart from its
# neighbours') and never leaves out the value; a 95-character phase name is clipped in
# the status row and the note, which keep the value and the scale. On a drill-down the
# critical-step marks and the step labels never mix: a label is drawn whole with a
# blank on each side, or not at all, so no stray digits of a label stand between the
# marks. A zoomed cell that jumps steps left out of the columns names the steps it holds
# ("steps 98-99,150"), never one range across the gap. On node rows with a node open a
# row holds each rank once and its label names them (not a rank it leaves to the next
# row, nor a node whose ranks the next rows hold). The dumps, joined, must equal
# tests/ui/heatmap_labels.screen (UPDATE=1 rewrites it; review the diff).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
gen="$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo"
ell=$(printf '\342\200\246')
fffd=$(printf '\357\277\275')

# DASF (the legacy text format): two workers whose names differ in the port alone
w=worker-sdumont8013-tcp://172.20.7.13:4432
for i in 0 1 2 3 4 5 6 7 8 9; do
	name="${w}1"; [ $((i % 2)) = 1 ] && name="${w}2"
	printf 'trace: {"name": "Managed Memory", "phase": "I", "timestamp": %d.5, ' $((1000 + i))
	printf '"process_id": "h", "thread_id": "%s", "category": "memory", ' "$name"
	printf '"data": {"key": "f-%d", "size": 1000, "tasks": %d}}\n' $i $((1 + i % 2 * 5))
done >ports.txt
# steps runs of 16 ranks, 8 a node, on two nodes with long hostnames, ASCII and CJK
. "$TSCOPE_ROOT/tests/tools/long_hosts.sh"
long_host_runs "$gen" 16 40 || { tap_notok "gen_demo failed"; exit 0; }

# session NAME COLUMNS LINES RUN KEYS [ARGS]: the keys (one a line, :dump @/N dumps to
# NAME.N) against RUN; the dumps are appended to got
: >got
session() {
	printf '%s\nq\n' "$5" | sed "s|@/|$PWD/$1.|g" >"$1.keys"
	LINES=$3 COLUMNS=$2 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/$1.keys" "$TSCOPE_BIN" --tui --no-index \
		${6:-} "$4" >/dev/null 2>"$1.err"
	tap_rc $? "$1: the explorer ran the script"
	for d in $(ls | grep "^$1\.[0-9]*\$" | sort -t. -k2 -n); do
		echo "--- $d" >>got
		cat "$d" >>got
	done
}
# row N (1-based) of a dump
row() { sed -n "$2p" "$1"; }

session ports80 80 24 ports.txt "$(printf '2\n:dump @/1\nj\n:dump @/2')"
a=$(row ports80.1 3 | sed 's/ *$//') b=$(row ports80.1 4 | sed 's/ *$//')
tap_check "80 columns: the two workers' labels differ, each clipped with an ellipsis" \
	'[ "$a" != "$b" ] && echo "$a" | grep -q "$ell.*44321" && echo "$b" | grep -q "$ell.*44322 "'
tap_check "... and the status row keeps the cell's value, the worker clipped apart" \
	'grep -q "^ worker worker-sdumont${ell}13:44322  second 0  .* 6 tasks\$" ports80.2 &&
	 grep -q "^ tasks in memory .*  scale median 1 tasks\.\.max 6 tasks " ports80.2'
session ports200 200 24 ports.txt "$(printf '2\n:dump @/1')"
tap_check "200 columns: the status row names the worker in full, with the value" \
	'grep -q "^ worker ${w}1  second 0  tasks in memory (task balance; .*) 1 tasks\$" ports200.1'
tap_check "200 columns: both labels whole, no ellipsis" \
	'row ports200.1 3 | grep -q " ${w}1 " && row ports200.1 4 | grep -q " ${w}2 " &&
	 ! row ports200.1 3 | grep -q "$ell"'
session portsascii 80 24 ports.txt "$(printf '2\n:dump @/1')" --ascii
tap_check "--ascii: the clipped labels differ, with ~ for the ellipsis" \
	'row portsascii.1 3 | grep -q "~.*44321" && row portsascii.1 4 | grep -q "~.*44322"'

session nodes 80 24 ascii "$(printf '2\no\n:dump @/1\nj\n:dump @/2')"
tap_check "node rows: two long hostnames clipped apart (node0000, node0001), with an ellipsis" \
	'row nodes.1 3 | grep -q "${ell}node0000\.hpc" && row nodes.1 4 | grep -q "${ell}node0001\.hpc"'
tap_check "... the status row keeps the value, the node clipped apart (node0001)" \
	'grep -q "^ superlon${ell}node0001\.hpc\.example\.org  step 0  compute worst [0-9.]* ms mean " nodes.2'
host=superlongclusterprefix-rack07-chassis03-node
session nodes100 100 30 ascii "$(printf '2\no\n:dump @/1')"
tap_check "100 columns: the node clipped at its end, the value shown" \
	'grep -q "^ ${host}0000\.hpc${ell}  step 0  compute worst [0-9.]* ms" nodes100.1'
session nodes200 200 24 ascii "$(printf '2\no\n:dump @/1')"
tap_check "200 columns: the status row names the node in full, with the value and the worst rank" \
	'grep -q "^ ${host}0000\.hpc\.example\.org  step 0  compute worst " nodes200.1 &&
	 grep -q " ms mean [0-9.]* ms  worst on rank [0-9]*\$" nodes200.1'
session cjk 80 24 cjk "$(printf '2\no\n:dump @/1\nj\n:dump @/2')"
# (a dump writes a wide character in each of its two cells)
tap_check "CJK hostnames: clipped at a character boundary (no U+FFFD), the two nodes apart" \
	'! grep -q "$fffd" cjk.1 cjk.2 &&
	 row cjk.1 3 | grep -q "$ell.*器器00 " && row cjk.1 4 | grep -q "$ell.*器器01 "'
tap_check "... the status row names the node in full" \
	'grep -q "^ 计计算算节节点点-机机房房七七-机机架架三三-x服服务务器器01  step 0" cjk.2'

# a phase named with 95 characters, selected with m (the fourth metric: with forward
# renamed the compute leaves out most of the step, so no slowdown is offered)
"$gen" longphase 4 40 >/dev/null || { tap_notok "gen_demo failed"; exit 0; }
long=a_very_long_phase_name_for_the_gradient_bucket_allreduce_overlap_region_stage_three_of_pipeline
for r in 0 1 2 3; do
	f="longphase/rank$r/steps.jsonl"
	sed "s/\"forward\"/\"$long\"/" "$f" >longphase/s && mv longphase/s "$f"
done
session longphase 100 30 longphase "$(printf '2\nm\nm\nm\nm\n:dump @/1')"
tap_check "a 95-character phase: the status row clips its name and keeps the value" \
	'grep -q "^ rank 0  step 0  a_very_long_phase_name_for_the_[a-z_]*$ell [0-9.]* ms " longphase.1'
tap_check "... the note clips it and keeps the scale" \
	'grep -q "^ a_very_long_phase_name_[a-z_]*$ell: 1 step/col  scale median [0-9.]* ms\.\.max " longphase.1'

demo="$TSCOPE_ROOT/testdata/demo"
session drill 160 50 "$demo" "$(printf '6\ng\nj\nj\n<Enter>\n:dump @/1\n+\n:dump @/2')"
axis=$(row drill.1 2) zoomed=$(row drill.2 2)
tap_check "drill-down: the step axis has marks" 'echo "$axis" | grep -q "▲"'
tap_check "... and no label digits touching a mark (no fragments of labels among them)" \
	'! echo "$axis" | grep -q "▲[0-9]\|[0-9]▲"'
tap_check "zoomed in: whole labels between the marks (76, 136), none touching one" \
	'echo "$zoomed" | grep -q "▲  *76  *▲.* 136  *▲" && ! echo "$zoomed" | grep -q "▲[0-9]\|[0-9]▲"'
session axis 160 50 "$demo" "$(printf '2\n:dump @/1')"
tap_check "without marks the labels stay every 12 columns" 'row axis.1 2 | grep -q "^ *0  *36  *72  *108 "'

# rank 1 lacks steps 100-149, rank 3 starts at step 20: the columns are 20-99, 150-399,
# 3 a cell at 120 columns; the 27th cell holds steps 98, 99 and 150
"$gen" gap 4 400 >/dev/null && sed -i 101,150d gap/rank1/steps.jsonl && sed -i 1,20d gap/rank3/steps.jsonl
{ echo 2; for i in $(seq 26); do echo l; done; echo ":dump $PWD/gap.txt"; echo q; } >gap.keys
LINES=40 COLUMNS=120 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/gap.keys" "$TSCOPE_BIN" --tui --no-index gap \
	>/dev/null 2>gap.err
tap_check "a cell across a gap: the status row names its steps, not one range" \
	'grep -q "^ rank 0  steps 98-99,150  compute worst " gap.txt && ! grep -q "step 98-150" gap.txt'

# Node rows with a node open (400 ranks, 8 a node; 3 lines a row at 120x30): a row holds
# each rank once and its label names the ranks it holds, on screen, in the status row and
# in `e`'s cells. With node 49 open "node 48-rank 392" (node 48, node 49's line, rank 392)
# holds ranks 384-392, not node 49's others, which the next rows hold; with node 47 open
# "node 45-node 46" (node 47's line ending the row) holds nodes 45 and 46, never "node 47".
# The values are checked against one row per rank (o, z).
"$gen" d400 400 5 >/dev/null || { tap_notok "gen_demo d400 failed"; exit 0; }
nodes_run() {   # nodes_run NAME KEYS: KEYS on d400 at 120x30, then a dump to NAME
	printf '%s\n:dump %s/%s\nq\n' "$2" "$PWD" "$1" >"$1.keys"
	LINES=30 COLUMNS=120 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/$1.keys" "$TSCOPE_BIN" --tui --no-index \
		d400 >/dev/null 2>"$1.err"
	tap_rc $? "$1: the explorer ran the script"
}
nodes_run ranks "$(printf '2\no\nz\ne<C-u>%s/ranks.csv<Enter>' "$PWD")"
nodes_run open49 "$(printf '2\n/rank 399<Enter>\n<Esc>\ne<C-u>%s/open49.csv<Enter>' "$PWD")"
nodes_run open47 "$(printf '2\n/rank 380<Enter>\n<Esc>\nk\nk\ne<C-u>%s/open47.csv<Enter>' "$PWD")"
cell() { awk -F, -v f="$2" '$1 == f && $3 == 0 { print $2 "|" $6 "|" $7 }' "$1"; }   # CSV FIRST: last|worst|mean
agg() {   # "worst mean" of ranks $1..$2 at step 0, one row a rank
	awk -F, -v a="$1" -v b="$2" '$3 == 0 && $1 >= a && $1 <= b { n++; s += $7; if ($6 > w) w = $6 }
		END { printf "%.15g %.15g\n", w, s / n }' ranks.csv
}
near() { echo "$1" | awk -F'|' '{ printf "%.15g %.15g\n", $2, $3 }'; }   # last|worst|mean: "worst mean"
tap_eq "node 49 open: row node 48-rank 392 holds ranks 384-392 (worst, mean)" "$(agg 384 392)" \
	"$(near "$(cell open49.csv "node 48")")"
tap_check "... its cell ends at rank 392, the next row starts at rank 393" \
	'[ "$(cell open49.csv "node 48" | cut -d"|" -f1)" = 392 ] && grep -q "^393,395,0,0," open49.csv'
tap_eq "node 47 open: row node 45-node 46 holds ranks 360-375 (worst, mean)" "$(agg 360 375)" \
	"$(near "$(cell open47.csv "node 45")")"
tap_check "... and says so: label column, status row (its worst on one of them), cells" \
	'grep -q "^ *▸node 45-node 46 " open47 && grep -q "^376,378,0,0," open47.csv &&
	 [ "$(cell open47.csv "node 45" | cut -d"|" -f1)" = "node 46" ] &&
	 status=$(grep "^ node 45-node 46  step 0  compute worst .* worst on rank 3[67][0-9]\$" open47) &&
	 r=${status##* } && [ "$r" -ge 360 ] && [ "$r" -le 375 ]'

want="$TSCOPE_ROOT/tests/ui/heatmap_labels.screen"
[ "${UPDATE:-}" = 1 ] && cp got "$want"
if cmp -s got "$want"; then
	tap_ok "screens equal heatmap_labels.screen"
else
	tap_notok "screens differ from heatmap_labels.screen (UPDATE=1 rewrites)"
	diff -u "$want" got | head -60 | sed 's/^/# /'
fi
tap_plan
