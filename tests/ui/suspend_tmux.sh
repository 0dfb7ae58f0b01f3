#!/bin/sh
# suspend_tmux.sh: Ctrl-Z and fg in a real terminal (tmux). After fg the keypad is in
# application mode again before any key is read, so the first arrow moves the cursor
# (it came as Esc [ B: Esc went back and "key B is not bound"); a window resized while
# the explorer was stopped is read again on fg and the screen drawn at the new size at
# once (the status and hint rows stayed where they were until a key). Skips without
# tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
demo="$TSCOPE_ROOT/testdata/demo"
work="$TSCOPE_TMP/suspend.$$"
mkdir -p "$work" && cd "$work" || exit 1
tmux_start susp 120 40 "$work"
flag() { T display -p -t susp "#{$1}"; }
row() { sed -n "$1p" "$tmux_screen"; }   # row N of the last capture
# suspend: Ctrl-Z, until the shell is back on the main screen
suspend() {
	T send-keys -t susp C-z
	wait_until 'grep -q Stopped "$tmux_screen" && [ "$(flag alternate_on)" = 0 ]' >/dev/null
}

T send-keys -t susp "'$TSCOPE_BIN' --no-index '$demo'" Enter
wait_for "Heatmap" >/dev/null
T send-keys -t susp 3
wait_for "ranks  row 1/16" >/dev/null
suspend
T send-keys -t susp "clear; fg" Enter
tap_check "fg: the explorer is back on the alternate screen" \
	'wait_until "grep -q \"ranks  row 1/16\" \"\$tmux_screen\" && [ \"\$(flag alternate_on)\" = 1 ]"'
tap_check "fg: keypad application mode is on before a key is read" 'wait_until "[ \"\$(flag keypad_flag)\" = 1 ]"'
T send-keys -t susp Down
wait_until 'grep -q "ranks  row 2/16" "$tmux_screen" || grep -q "not bound" "$tmux_screen"' >/dev/null
tap_check "fg then Down: the cursor moves down (not Esc and 'key B is not bound')" \
	'grep -q "ranks  row 2/16" "$tmux_screen" && ! grep -q "not bound" "$tmux_screen"'

suspend
T resize-window -t susp -x 160 -y 50
T send-keys -t susp "clear; fg; echo EXIT=\$?" Enter
tap_check "resized while stopped: on fg the status and hint rows are rows 49 and 50, no key pressed" \
	'wait_until "row 49 | grep -q \"ranks  row 2/16\" && row 50 | grep -q \"?:help\""'
T send-keys -t susp Down
tap_check "then Down moves the cursor again" 'wait_for "ranks  row 3/16"'
T send-keys -t susp Q
tap_check "Q quits with status 0" 'wait_for "EXIT=0"'
tap_plan
