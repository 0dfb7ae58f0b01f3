#!/bin/sh
# title_tabs.sh: the title row and the hint row at 80x24, the documented minimum
# (headless, TSCOPE_SCRIPT). Tabs wider than the row scroll so the current tab always
# shows, drawn as the active one, with a marker for the tabs hidden on each side ("<+2",
# "+1>"): 7 on the demo showed "7 Sou…" unhighlighted, a `:view` tab and a traces run's
# 9 GPU time not at all. The hint row leaves out whole words, the least needed first,
# never cutting one ("1-7,9:pan…"): the tab keys and v:views stay.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
B="$TSCOPE_ROOT/$TSCOPE_BUILD/tests"
tui() {   # the explorer on ./keys, headless, 24x80, no saved state
	rm -rf state
	TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 LC_ALL=C.UTF-8 XDG_STATE_HOME="$PWD/state" \
		"$TSCOPE_BIN" --no-index --tui "$@" >/dev/null 2>err
}
title() { head -1 "$1"; }
# the attribute flags (cmd.c cmd_dump) of the cells of text $3 in the title of dump $1,
# whose :dumpattr is $2: "b" repeated when the whole text is bold (the active tab)
title_attr() {
	col=$(head -1 "$1" | awk -v t="$3" '{ print index($0, t) }')
	[ "$col" -gt 0 ] || return 1
	head -1 "$2" | cut -c$((2 * col - 1))-$((2 * (col + ${#3} - 1))) | sed 's/.\(.\)/\1/g'
}

cat >keys <<KEYS
:dump $PWD/start
7
:dump $PWD/seven
:dumpattr $PWD/seven.attr
:view nodes
:dump $PWD/nodes
1
:dump $PWD/one
KEYS
tui "$demo"
tap_eq "the script ran" 0 $?
tap_check "the first tabs from the left, a marker for the one hidden at the right" \
	'title start | grep -q "^ demo-ddp  1 Overview  2 Heatmap .* 6 Findings  +1>$"'
tap_check "7: Sources shows whole, a marker for the one hidden at the left" \
	'title seven | grep -q "^ demo-ddp  <+1  2 Heatmap .* 6 Findings  7 Sources$"'
tap_eq "... drawn as the active tab (bold), the others not" "bbbbbbbbbb/rrrrrrrrrrr" \
	"$(title_attr seven seven.attr " 7 Sources")/$(title_attr seven seven.attr " 6 Findings")"
tap_check ":view nodes: its tab shows at the right, two hidden at the left" \
	'title nodes | grep -q "^ demo-ddp  <+2  3 Ranks .* 7 Sources  nodes$"'
tap_check "1 after it: the strip back at the first tab, two hidden at the right" \
	'title one | grep -q "^ demo-ddp  1 Overview .* 6 Findings  +2>$"'
tap_eq "the hint row: whole words, the tab keys and v:views kept" \
	" ?:help  q:close/quit  n/N:straggler  Enter:open  Esc:back  1-7:panes  v:views" "$(tail -1 one)"

# a traces run has a 9 GPU time tab beyond Sources
mkdir -p traces
"$B/gen_trace" traces/rank0.pt.trace.json 1 0 >/dev/null && "$B/gen_trace" traces/rank1.pt.trace.json 1 1 >/dev/null ||
	{ tap_notok "gen_trace failed"; tap_plan; exit 0; }
printf '9\n:dump %s/gpu\n' "$PWD" >keys
tui traces
tap_check "9 on a traces run: the GPU time tab shows in the title" 'title gpu | grep -q " <+[0-9]*  .* 9 GPU time *$"'
tap_check "... and the hint row keeps its key ranges whole" 'tail -1 gpu | grep -q " 1-7,9:panes  v:views$"'
tap_plan
