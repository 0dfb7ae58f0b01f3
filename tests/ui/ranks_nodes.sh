#!/bin/sh
# ranks_nodes.sh: the Ranks pane's node column, headless (TSCOPE_SCRIPT). 64 ranks, 8 a
# node, with hostnames longer than the column (ASCII and CJK): each node row reads
# "+name (8)", its name clipped at a character boundary with an ellipsis keeping where it
# differs from the other rows shown (the node's number), the rank count whole; so no two
# node rows read the same, nor do two rank rows (o) on different nodes. 160 ranks on
# gpu-node-0000..0019: at 80x24 the node column gets the width the important columns
# leave (gpu-node-0000 and gpu-node-0010 whole, not both "…0"), and the nodes view's key
# column shows a 13-character name whole at every width (119 and 120 columns too). The v
# list offers the nodes view only when the run has node information.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
gen="$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo"
ell=$(printf '\342\200\246')
fffd=$(printf '\357\277\275')
. "$TSCOPE_ROOT/tests/tools/long_hosts.sh"
long_host_runs "$gen" 64 20 || { tap_notok "gen_demo failed"; exit 0; }

# session_at COLS ROWS NAME RUN KEYS [ARGS]: the keys (one a line, :dump @/N dumps to
# NAME.N) against RUN at COLSxROWS; session NAME RUN KEYS [ARGS]: at 120x40
session_at() {
	printf '%s\nq\n' "$5" | sed "s|@/|$PWD/$3.|g" >"$3.keys"
	LINES=$2 COLUMNS=$1 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/$3.keys" "$TSCOPE_BIN" --tui --no-index \
		${6:-} "$4" >/dev/null 2>"$3.err"
	tap_rc $? "$3: the explorer ran the script"
}
session() { session_at 120 40 "$@"; }
# the node cells (the last column) of a dump's table rows 3..LAST
cells() { sed -n "3,${2}p" "$1" | sed 's/ *$//; s/.*  //'; }
# check DUMP LAST MARK COUNT DESC: rows 3..LAST's node cells all differ, each has MARK
# (the ellipsis), none U+FFFD, each ends in " (COUNT)"
check() {
	cells "$1" "$2" >"$1.cells"
	f=$1.cells mark=$3 cnt=$4
	n=$(wc -l <"$f") u=$(sort -u "$f" | wc -l)
	tap_check "$5: $n node cells, all different" '[ "$n" -gt 1 ] && [ "$u" = "$n" ]'
	tap_check "$5: each clipped with '$mark', at a character boundary" \
		'[ "$(grep -cF -- "$mark" "$f")" = "$n" ] && ! grep -q "$fffd" "$f"'
	tap_check "$5: each keeps its rank count ($cnt) whole" '[ "$(grep -c -- " ($cnt)\$" "$f")" = "$n" ]'
	sed 's/^/# /' "$f"
}

session ascii ascii "$(printf '3\n:dump @/1\no\n:dump @/2')"
check ascii.1 10 "$ell" 8 "ASCII hostnames, node rows"
tap_check "... the kept part is where the names differ" '[ "$(grep -c "node000[0-7]" ascii.1.cells)" = 8 ]'
session cjk cjk "$(printf '3\n:dump @/1')"
check cjk.1 10 "$ell" 8 "CJK hostnames, node rows"
session ascii_mode ascii "$(printf '3\n:dump @/1')" --ascii
check ascii_mode.1 10 "~" 8 "--ascii, node rows"
# rank rows: the rows shown hold ranks of several nodes; rows of different nodes differ
grep '^[^ ]* *[0-9]' ascii.2 | sed 's/ *$//; s/.*  //' | sort -u >rank_rows
k=$(grep -o "node000[0-7]" rank_rows | sort -u | wc -l)
tap_check "rank rows (o): as many different node cells as nodes shown ($k)" \
	'[ "$k" -gt 1 ] && [ "$(wc -l <rank_rows)" = "$k" ]'
# 160 ranks on twenty nodes named gpu-node-0000..0019
"$gen" gpu 160 10 >/dev/null || tap_notok "gen_demo failed"
r=0
while [ $r -lt 160 ]; do
	h=$(printf 'gpu-node-%04d' $((r / 8)))
	sed "s/\"python\":/\"hostname\": \"$h\", \"python\":/" gpu/rank$r/run.json >gpu/run.json &&
		mv gpu/run.json gpu/rank$r/run.json
	r=$((r + 1))
done
session_at 80 24 gpu80 gpu "$(printf '3\n:dump @/1')"
cells gpu80.1 22 >gpu80.cells
tap_check "80x24: every node row's name whole, gpu-node-0010 apart from gpu-node-0000" \
	'[ "$(grep -c "^.gpu-node-00[01][0-9] (8)\$" gpu80.cells)" = 20 ] && [ "$(sort -u gpu80.cells | wc -l)" = 20 ]'
sed 's/^/# /' gpu80.cells
for w in 119 120 80; do
	session_at $w 40 "gpu_nodes$w" gpu "$(printf ':view nodes\n:dump @/1')"
	tap_check "nodes view at $w columns: the key column's 13-character names whole" \
		'[ "$(sed -n "3,22p" gpu_nodes$w.1 | grep -c "^.gpu-node-00[01][0-9]  ")" = 20 ]'
done
sed -n 2,3p gpu_nodes120.1 | sed 's/^/# /'
# the v list offers the nodes view only with node information, as --export all writes
# it: these hostnames, not two traces without a host or a GPU count
mkdir tr && "$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_trace" tr/r0.json 1 0 >/dev/null &&
	"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_trace" tr/r1.json 1 1 >/dev/null || tap_notok "gen_trace failed"
session vhost ascii "$(printf 'v\n:dump @/1')"
session vtr tr "$(printf 'v\n:dump @/1')"
"$TSCOPE_BIN" --no-index --export all -o all tr >/dev/null 2>&1
tap_check "v: nodes with hostnames; not for traces without node information (nor --export all)" \
	'grep -qE " nodes  +per node" vhost.1 && grep -qE " ranks  +per rank" vtr.1 &&
	 ! grep -qE " nodes  +per node" vtr.1 && [ -f all/ranks.csv ] && [ ! -f all/nodes.csv ]'
tap_plan
