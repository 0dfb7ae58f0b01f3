#!/bin/sh
# frame_tmux.sh: the frame around the panes on a real terminal (tmux). `:resize`, a
# headless tests' command, is refused with why: typed at 120x40 it shrank the screen to
# "terminal too small" and Ctrl-L did not bring it back. At 80x24 a click on a marker of
# the scrolled tab strip ("+1>", "<+1") opens the nearest tab hidden on that side.
# Every wait polls the screen (tests/tmux.sh). Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
demo="$TSCOPE_ROOT/testdata/demo"
work="$TSCOPE_TMP/frame"
mkdir -p "$work"
click() {   # SGR press and release at 1-based column $1, row $2
	T send-keys -t fr -l "$(printf '\033[<0;%d;%dM' "$1" "$2")"
	T send-keys -t fr -l "$(printf '\033[<0;%d;%dm' "$1" "$2")"
}
col_of() {   # the 1-based column of text $1 in the title row of the last capture
	head -1 "$tmux_screen" | awk -v t="$1" '{ print index($0, t) }'
}

tmux_start fr 120 40 "$work"
T send-keys -t fr "cd '$work' && XDG_STATE_HOME='$work/state' '$TSCOPE_BIN' --no-index '$demo'" \
	"; echo EXIT=\$? >exit.txt" Enter
tap_check "the explorer opens on the demo at 120x40" 'wait_for "2 Heatmap" && wait_for "rank 0"'
T send-keys -t fr ':resize 5 5' Enter
tap_check ":resize on a terminal is refused, saying it is for headless tests" \
	'wait_for ":resize works only in headless tests (TSCOPE_SCRIPT); resize the window instead"'
tap_check "... and the panes stay at the terminal's size (no too-small screen)" \
	'! grep -q "too small" "$tmux_screen" && grep -q "1 Overview" "$tmux_screen" &&
	 [ "$(wc -l <"$tmux_screen")" -ge 39 ]'

T resize-window -t fr -x 80 -y 24
tap_check "at 80x24 the tab strip shows a marker for the tab hidden at the right" 'wait_for "6 Findings  +1>"'
click "$(col_of "+1>")" 1
tap_check "a click on +1> opens that tab (7 Sources), the strip scrolled" \
	'wait_for "<+1  2 Heatmap" && wait_for "7 Sources"'
click "$(col_of "<+1")" 1
tap_check "a click on <+1 opens 1 Overview" 'wait_for "demo-ddp  1 Overview"'
T send-keys -t fr ':q' Enter
tap_check ":q exits 0" 'wait_until "[ -s \"$work/exit.txt\" ]" && grep -qx "EXIT=0" "$work/exit.txt"'
tap_plan
