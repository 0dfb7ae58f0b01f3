#!/bin/sh
# compare_tmux.sh: compare mode end to end in tmux, as a person would: `tscope-tui A B`
# on a terminal opens compare mode on the B - A heatmap (no --tui needed); n lands on the
# regressed rank; 1 shows the verdict; q quits with status 0; a noise-only pair shows
# both sides of the diverging scale. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
work="$TSCOPE_TMP/cmp-e2e"
mkdir -p "$work"
"$gen" "$work/a" 8 200 1 && "$gen" "$work/b" 8 200 2 5 100 && "$gen" "$work/noise" 8 200 3 ||
	{ tap_notok "pairs generated"; exit 1; }

tmux_start cmp 120 40 "$work"
T send-keys -t cmp "cd '$work' && '$TSCOPE_BIN' a b; echo EXIT=\$? > exit.txt" Enter
tap_check "a tty opens compare mode on the B - A heatmap" 'wait_for "compute B - A" && grep -q "A pair vs B pair" "$work/screen"'
T send-keys -t cmp n
tap_check "n lands on the regressed rank" 'wait_for "regression 1/1: rank 5, onset at step 100 in B"'
T send-keys -t cmp 1
tap_check "1 shows the verdict" 'wait_for "rank 5 regressed from step 100"'
T send-keys -t cmp q
tap_check "q quits with status 0" 'i=0; while [ ! -s "$work/exit.txt" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done; grep -q "EXIT=0" "$work/exit.txt"'

# The diverging scale: noise makes some cells slower (warm: the heat bands' basic yellow,
# red, magenta) and some faster (blue, 39).
T send-keys -t cmp "'$TSCOPE_BIN' a noise" Enter
wait_for "compute B - A" >/dev/null
T capture-pane -e -p -t cmp >"$work/color"
tap_check "B - A: faster cells blue, slower cells warm" \
	'grep -q "$(printf "\033")\[38;5;39m" "$work/color" && grep -Eq "$(printf "\033")\[(33|31|95|1;95)m" "$work/color"'
T send-keys -t cmp q
tap_plan
