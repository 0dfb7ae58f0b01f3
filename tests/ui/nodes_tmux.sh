#!/bin/sh
# nodes_tmux.sh: node rows in a real terminal. 64 ranks whose run.json names their host
# (eight hosts, gpu-a..gpu-h) do not fit 30 rows, so the heatmap opens with one row per
# host; n lands on the straggler (rank 42 on gpu-f), expanding its host; Space collapses
# it; the Ranks pane shows one row per host, its worst rank (42 for gpu-f); Enter on a
# host expands it; o shows every rank; back on host rows, a click on a closed host selects it
# and a second click expands it, as Enter does (not its worst rank's steps); q quits with
# status 0. Then 64 ranks on hosts node0..node7 by rank mod 8 (node3's ranks slow), at
# 120x40, filtered to rank>11: each host row shows the worst of the ranks the filter
# keeps (as --export ranks --filter 'rank>11' --sort -mean_compute_ms has it), counted
# "(6/8)" or "(7/8)", and the status row says "worst of 6 shown, 8 in the node"; sorted by
# rank, the host rows' ranks read in order; Space opens only the kept ranks and says so.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/nodes_tmux.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" run 64 40 >/dev/null || exit 1
for r in $(seq 0 63); do
	h=$(echo "a b c d e f g h" | cut -d' ' -f$((r / 8 + 1)))
	sed "s/\"machine\"/\"hostname\": \"gpu-$h\", \"machine\"/" run/rank$r/run.json >t && mv t run/rank$r/run.json
done
sed 's/"forward":[0-9.]*/"forward":0.09/' run/rank42/steps.jsonl >t && mv t run/rank42/steps.jsonl
tmux_start nodes 100 30 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
T send-keys -t nodes "'$TSCOPE_BIN' --tui --no-index run; echo rc=\$?" Enter
wait_for "Overview"
T send-keys -t nodes 2
wait_for "8 nodes (worst rank)"
tap_check "heatmap: one row per host" 'grep -q "gpu-a" "$tmux_screen" && grep -q "gpu-h" "$tmux_screen" && ! grep -qE "^ +42 " "$tmux_screen"'
T send-keys -t nodes n
wait_for "straggler 1/1"
tap_check "n: the straggler's host expands to its ranks, cursor on rank 42" \
	'grep -qE "^ +42 " "$tmux_screen" && grep -q "^ rank 42 " "$tmux_screen"'
T send-keys -t nodes Space
wait_for "gpu-f: 8 ranks"
tap_check "Space: the host collapses again" '! grep -qE "^ +42 " "$tmux_screen"'
T send-keys -t nodes 3
wait_for "worst of 8"
tap_check "Ranks: the host row is its worst rank (42 on gpu-f)" 'grep -qE "^.? +42 .*gpu-f \(8\)" "$tmux_screen"'
tap_eq "Ranks: eight rows, one per host" 8 "$(grep -cE "gpu-[a-h] \(8\)" "$tmux_screen")"
T send-keys -t nodes Enter
wait_for "rows (Space collapses)"
tap_eq "Enter on a host expands it: eight rows of gpu-a" 8 "$(grep -c "▾gpu-a" "$tmux_screen")"
T send-keys -t nodes o
wait_for "one row per rank"
tap_check "o: one row per rank" '! grep -q "(8)" "$tmux_screen" && grep -qE "^.? +9 .*gpu-b" "$tmux_screen"'
T send-keys -t nodes o
wait_for "one row per node"
# a click selects a closed host row, a second click expands it (as Enter), not the rank's steps
y=$(grep -n "gpu-c (8)" "$tmux_screen" | cut -d: -f1)
T send-keys -t nodes -l "$(printf '\033[<0;5;%dM\033[<0;5;%dm' "$y" "$y")"
wait_for "gpu-c: worst of 8"
T send-keys -t nodes -l "$(printf '\033[<0;5;%dM\033[<0;5;%dm' "$y" "$y")"
tap_check "a second click on a closed host expands it (as Enter), not the rank's steps" \
	'wait_for "gpu-c: 8 rows (Space collapses)" && [ "$(grep -c "▾gpu-c" "$tmux_screen")" -eq 8 ]'
T send-keys -t nodes q
wait_for "rc=0" # not "rc=": the typed command line shows "rc=$?" as soon as the TUI exits
tap_check "q quits with status 0" 'grep -q "^rc=0" "$tmux_screen"'

# with a filter: the worst of the ranks kept, at its place, counted as kept
T kill-server 2>/dev/null
"$gen" run2 64 40 >/dev/null || exit 1
for r in $(seq 0 63); do
	sed "s/\"machine\"/\"hostname\": \"node$((r % 8)).cluster\", \"machine\"/" run2/rank$r/run.json >t &&
		mv t run2/rank$r/run.json
	[ $((r % 8)) -eq 3 ] && sed 's/"forward":[0-9.]*/"forward":0.09/' run2/rank$r/steps.jsonl >t &&
		mv t run2/rank$r/steps.jsonl
done
want=$("$TSCOPE_BIN" --no-index --export ranks --filter 'rank>11' --sort -mean_compute_ms run2 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "node") c = i; next }
		 !n[$c]++ { w[$c] = $1 } END { for (h in w) print h, w[h], n[h] "/8" }' | sort)
[ "$(echo "$want" | grep -c '/8$')" -eq 8 ] || want="(the export has no eight hosts)"
# "node2.cluster 42 6/8" per host row on the screen, in screen order
host_rows() { sed -n 's/^[^0-9]*\([0-9][0-9]*\) .*▸\(node[0-9].cluster\) (\([0-9/]*\))$/\2 \1 \3/p' "$tmux_screen"; }
tmux_start nodes2 120 40 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
T send-keys -t nodes2 "'$TSCOPE_BIN' --tui --no-index run2" Enter
wait_for "Overview"
T send-keys -t nodes2 3
wait_for "node0.cluster (8)"
T send-keys -t nodes2 f
T send-keys -t nodes2 -l 'rank>11'
T send-keys -t nodes2 Enter
wait_for "filter 'rank>11'"
tap_eq "filter rank>11: each host row is the worst of its kept ranks, counted as kept" "$want" "$(host_rows | sort)"
tap_check "the status row says the worst of how many shown, of how many in the host" \
	'grep -qE "node[0-9].cluster: worst of [67] shown, 8 in the node \(Space: expand\)" "$tmux_screen"'
T send-keys -t nodes2 s s
wait_for "sort rank  filter"
ranks=$(host_rows | cut -d' ' -f2)
tap_check "sorted by rank: the host rows' ranks read in order" \
	'[ "$(echo "$ranks" | wc -l)" -eq 8 ] && [ "$ranks" = "$(echo "$ranks" | sort -n)" ]'
T send-keys -t nodes2 Space
wait_re "rows shown, 8 in the node \(Space collapses\)"
kept=$(sed -n 's/.*: \([67]\) rows shown, 8 in the node (Space collapses).*/\1/p' "$tmux_screen")
tap_eq "Space opens only the kept ranks and says how many" "${kept:-?}" "$(grep -c "▾node" "$tmux_screen")"
T send-keys -t nodes2 q
tap_plan
