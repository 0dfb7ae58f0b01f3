#!/bin/sh
# search.sh: `/` searches every pane (headless, TSCOPE_SCRIPT), one implementation
# (ui/search.c) over each pane's items: the heatmap's row labels (the README's
# `/rank 12`), Steps' steps (`/step 150`) and ranks, the Overview's findings and summary
# lines, Budget's ranks, a table's rows (Sources) with n/N, the Sweep's points, compare mode's
# rank lines; a miss says so; Esc ends the search and n/N hop between stragglers again.
# At 80x24 a match in an Overview line that gave way to the findings brings it into view
# (it was highlighted out of sight) until the search ends or misses; n/N go from it.
# As in less and vim, each edit searches from where `/` opened, and Esc at the prompt or
# a miss put the cursor back there (the heatmap's row, Steps' rank and step, a Sweep
# point), never on a partial match. On node rows (400 ranks, 8 a node) each edit also puts
# back the nodes open when `/` opened, so only the current match's node is open, and Esc
# leaves the screen as `/` found it; a heatmap row holding a node and ranks names both
# ends' kind ("node 48-rank 392") and the note counts "nodes or ranks"; Ranks finds a rank
# inside a closed node and opens it. A line longer than the prompt row scrolls by whole
# characters.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
"$B/gen_pair" a 8 200 1 && "$B/gen_pair" reg 8 200 2 5 100 && "$B/gen_sweep" sweep 50 4 3 >/dev/null ||
	{ tap_notok "fixtures generated"; exit 0; }
tui() {   # tui ARGS...: the explorer on ./keys, headless, 30x120
	TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui "$@" >/dev/null 2>err
}
status() { tail -2 "$1" | head -1; }   # the status row of a dump
hint() { tail -1 "$1"; }                # the hint / message row

cat >keys <<KEYS
/rank 12<Enter>
:dump $PWD/heat
<Esc>n
:dump $PWD/strag
4/step 150<Enter>
:dump $PWD/steps
<Esc>/rank 3<Enter>
:dump $PWD/steps_rank
<Esc>1/straggler<Enter>
:dump $PWD/ov
<Esc>/data quality
:dump $PWD/ov_line
<Esc>5/rank 7<Enter>
:dump $PWD/budget
<Esc>7/steps.jsonl<Enter>
:dump $PWD/r1
n
:dump $PWD/r2
N
:dump $PWD/r3
<Esc>/zzzz<Enter>
:dump $PWD/miss
KEYS
tui "$demo"
tap_rc $? "demo: searches in every pane, exit 0"
tap_check "heatmap: /rank 12 moves the cursor to rank 12's row" 'status heat | grep -q "^ rank 12  step "'
tap_check "Esc ends it: n hops to the first straggler again" 'hint strag | grep -q "straggler 1/"'
tap_check "Steps: /step 150 moves the step cursor to step 150" 'status steps | grep -q "^ rank 11 step 150 "'
tap_check "Steps: /rank 3 switches to rank 3" 'status steps_rank | grep -q "^ rank 3 step "'
tap_check "Overview: /straggler selects the straggler finding" 'status ov | grep -q "DIST.STRAGGLER"'
tap_check "Overview: a summary line matches (no miss), the findings cursor stays" '! hint ov_line | grep -q "no match" && status ov_line | grep -q "finding 3/5"'
tap_check "Budget: /rank 7 selects rank 7" 'status budget | grep -q "^ rank 7  "'
tap_check "Sources: /steps.jsonl selects the first steps file (row 2)" 'status r1 | grep -q "sources  row 2/32"'
tap_check "n: the next match (row 4)" 'status r2 | grep -q "sources  row 4/32"'
tap_check "N: back to the previous match" 'status r3 | grep -q "sources  row 2/32"'
tap_check "a miss says so" 'hint miss | grep -q "no match for '"'"'zzzz'"'"'"'

printf '8/63.0<Enter>\n:dump %s/sweep.txt\n<Esc>g/63.04<Enter>\n:dump %s/sweep_miss\n' "$PWD" "$PWD" >keys
tui sweep
tap_check "Sweep: /63.0 selects that point (concurrency 4)" 'status sweep.txt | grep -q "concurrency=4 "'
tap_check "Sweep: /63.04 (its value is shown 63.0) misses: the cursor stays on the first point, not on /63's" \
	'hint sweep_miss | grep -q "no match for" && status sweep_miss | grep -q "concurrency=1 "'
# From the straggler (rank 11, step 180): /rank 3 then Esc, and /rank 99 (a miss after
# /rank 9 matched), return to it; in Steps at step 399 of rank 11, /rank 3 then Esc and
# /step 9999 (a miss after /step 99) return to rank 11 step 399.
cat >keys <<KEYS
2n
/rank 3
:dump $PWD/c_typing
<Esc>
:dump $PWD/c_esc
/rank 99<Enter>
:dump $PWD/c_miss
<Esc>4G/rank 3
:dump $PWD/c_steps_typing
<Esc>
:dump $PWD/c_steps_esc
/step 9999<Enter>
:dump $PWD/c_steps_miss
KEYS
tui "$demo"
tap_check "heatmap: while /rank 3 is typed the cursor is on rank 3" 'status c_typing | grep -q "^ rank 3  step 180-"'
tap_check "heatmap: Esc at the prompt returns to rank 11 step 180" 'status c_esc | grep -q "^ rank 11  step 180-"'
tap_check "heatmap: /rank 99 misses and returns to rank 11 step 180" \
	'hint c_miss | grep -q "no match for '"'"'rank 99'"'"'" && status c_miss | grep -q "^ rank 11  step 180-"'
tap_check "Steps: while /rank 3 is typed the pane shows rank 3" 'status c_steps_typing | grep -q "^ rank 3 step 399 "'
tap_check "Steps: Esc at the prompt returns to rank 11 step 399" 'status c_steps_esc | grep -q "^ rank 11 step 399 "'
tap_check "Steps: /step 9999 misses and returns to rank 11 step 399" \
	'hint c_steps_miss | grep -q "no match for" && status c_steps_miss | grep -q "^ rank 11 step 399 "'
# Node rows: /rank 3 and /rank 39 match ranks of nodes 3 and 4 before /rank 399 (node 49);
# Ranks: /30 (rank 30, in closed node 3) then /300 (node 37).
"$B/gen_demo" d400 400 5 >/dev/null || tap_notok "gen_demo d400"
cat >keys <<KEYS
:dump $PWD/n_open
/rank 3
:dump $PWD/n_typed3
99
:dump $PWD/n_typed
<Esc>
:dump $PWD/n_esc
/rank 399<Enter>kkk
:dump $PWD/n_mixed
<Esc>3
:dump $PWD/n_ranks
/30
:dump $PWD/n_ranks30
0
:dump $PWD/n_ranks300
<Esc>
:dump $PWD/n_ranks_esc
/399<Enter>
:dump $PWD/n_ranks_enter
KEYS
tui d400
nodes_open() { grep -o "▾node [0-9]*" "$1" | sort -u | tr '\n' ' '; }
tap_check "heatmap node rows: while /rank 399 is typed only node 49 is open (nodes 3, 4 closed again)" \
	'! sed -n 3,18p n_typed | grep -qv "^ *▸node [0-9]*-node [0-9]* " && grep -q "▸node 48-rank 392 " n_typed'
tap_check "heatmap node rows: Esc at the prompt leaves the screen as / found it (every node closed)" \
	'cmp -s n_open n_esc'
tap_check "heatmap node rows: no node open, the note counts nodes a row" 'grep -q ": 2 nodes/row, " n_open'
tap_check "heatmap: a row of a node and ranks names both ends' kind, the note says nodes or ranks" \
	'grep -q "▸node 48-rank 392 " n_mixed && grep -q ": 3 nodes or ranks/row, " n_mixed'
tap_check "heatmap: the status row names that row's ends whole (no axis before a node)" \
	'status n_mixed | grep -q "^ node 48-rank 392  step 0 "'
tap_check "Ranks node rows: /30 finds rank 30 inside closed node 3 and opens it" \
	'status n_ranks30 | grep -qw "rank=30" && test "$(nodes_open n_ranks30)" = "▾node 3 "'
tap_check "Ranks node rows: /300 typed on finds rank 300 in node 37, node 3 closed again" \
	'status n_ranks300 | grep -qw "rank=300" && test "$(nodes_open n_ranks300)" = "▾node 37 "'
tap_check "Ranks node rows: Esc at the prompt closes the node again, the selection back" \
	'test "$(head -n -1 n_ranks_esc)" = "$(head -n -1 n_ranks)" && test -z "$(nodes_open n_ranks_esc)"'
tap_check "Ranks node rows: /399 Enter keeps the match (no miss)" \
	'status n_ranks_enter | grep -qw "rank=399" && hint n_ranks_enter | grep -q "^search .399."'
# A line longer than the prompt row scrolls by whole characters: 60 CJK characters (3
# bytes, two columns each) or "x" and 70 emoji (4 bytes) at 120 columns once began with
# part of a character (U+FFFD).
cjk=$(i=0; while [ $i -lt 30 ]; do printf '节点'; i=$((i + 1)); done)
emoji=$(i=0; while [ $i -lt 70 ]; do printf '😀'; i=$((i + 1)); done)
printf '3/%s\n:dump %s/long_cjk\n<Esc>/x%s\n:dump %s/long_emoji\n' "$cjk" "$PWD" "$emoji" "$PWD" >keys
tui "$demo"
tap_check "a long prompt of CJK characters scrolls by whole characters (no U+FFFD), its end shown" \
	'hint long_cjk | grep -q "^/节" && ! hint long_cjk | grep -q "�" && hint long_cjk | grep -q "点_"'
tap_check "a long prompt of emoji scrolls by whole characters" \
	'hint long_emoji | grep -q "^/😀" && ! hint long_emoji | grep -q "�" && hint long_emoji | grep -q "😀_"'
# 80x24: the Overview's first lines give way to the findings ("6 more lines above": each line whole); a
# match in one of them shows the lines from it on ("more lines below"), n/N go between
# that match and one in view, Esc ends the search and the first lines give way again.
cat >keys <<KEYS
1/unreadable<Enter>
:dump $PWD/ov_hidden
<Esc>
:dump $PWD/ov_ended
/unreadablez
:dump $PWD/ov_miss
<Esc>
/run<Enter>
:dump $PWD/ov_run
n
:dump $PWD/ov_next
N
:dump $PWD/ov_prev
KEYS
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui "$demo" >/dev/null 2>err
tap_check "Overview 80x24: /unreadable shows the data quality line it matches, the lines after it marked" \
	'grep -q "^  data quality .* 0 unreadable" ov_hidden && grep -q "more lines below" ov_hidden &&
	 grep -q "^  Findings (5;" ov_hidden'
tap_check "Overview 80x24: Esc ends the search, the first lines give way again" \
	'grep -q "6 more lines above" ov_ended && ! grep -q "data quality\|more lines below" ov_ended'
tap_check "Overview 80x24: /unreadable then z (a miss) gives the first lines way again" \
	'grep -q "6 more lines above" ov_miss && ! grep -q "data quality\|more lines below" ov_miss'
tap_check "Overview 80x24: /run shows the hidden run line, n the next match (steps found, of run.json), N back" \
	'grep -q "^  run  *demo-ddp" ov_run && ! grep -q "^  run  *demo-ddp" ov_next &&
	 grep -q "^  steps found .*run.json" ov_next && grep -q "^  run  *demo-ddp" ov_prev'
printf '1/regressed<Enter><Esc><Enter>\n:dump %s/cmp\n' "$PWD" >keys
tui a reg
tap_check "compare: /regressed selects rank 5's line (Enter opens its heatmap row)" 'status cmp | grep -q "^ rank 5 "'
tap_plan
