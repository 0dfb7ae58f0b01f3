#!/bin/sh
# prompt_utf8_tmux.sh: characters beyond ASCII typed at the prompts in a real terminal
# (UTF-8, several bytes a character) reach the line whole, not byte by byte: `/nœud-节`
# in the Ranks table finds the ranks on host "nœud-节点" and the prompt echoes it as
# typed; `f node~节点` keeps them; `e` writes café.csv under that name. Headless
# scripts cannot show this (their keys are parsed as UTF-8 before the loop sees them).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
work="$TSCOPE_TMP/prompt_utf8.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" run 4 40 1 || { tap_notok "run generated"; exit 1; }
for r in 0 1 2 3; do
	h=$([ $r -lt 2 ] && echo "nœud-节点" || echo "plain")
	sed "s/\"environment\": {/\"environment\": {\"hostname\": \"$h\", /" run/rank$r/run.json >t &&
		mv t run/rank$r/run.json
done
tmux_start utf8 120 30 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
T send-keys -t utf8 "'$TSCOPE_BIN' --tui --no-index run; echo rc=\$?" Enter
wait_for "Overview" >/dev/null
T send-keys -t utf8 3 /
T send-keys -t utf8 -l "nœud-节"
tap_check "/: the prompt echoes the characters as typed" 'wait_for "/nœud-节_"'
T send-keys -t utf8 Enter
tap_check "/: Enter finds the host's ranks" "wait_for \"search 'nœud-节': n/N\""
T send-keys -t utf8 Escape f C-u
T send-keys -t utf8 -l "node~节点"
T send-keys -t utf8 Enter
tap_check "f: a filter on the host's name keeps its 2 ranks" 'wait_for "row 1/2 (of 4)"'
T send-keys -t utf8 e C-u
T send-keys -t utf8 -l "$work/café.csv"
T send-keys -t utf8 Enter
tap_check "e: the export is written under the name typed" \
	'wait_for "exported 2 rows" && [ -s "$work/café.csv" ] && grep -q "nœud-节点" "$work/café.csv"'
T send-keys -t utf8 Q
tap_check "Q quits with status 0" 'wait_for "rc=0"'
tap_plan
