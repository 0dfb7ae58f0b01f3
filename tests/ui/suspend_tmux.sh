#!/bin/sh
# suspend_tmux.sh: Ctrl-Z and fg in a real terminal (tmux). After fg the keypad is in
# application mode again before any key is read, so the first arrow moves the cursor
# (it came as Esc [ B: Esc went back and "key B is not bound"); a window resized while
# the explorer was stopped is read again on fg and the screen drawn at the new size at
# once (the status and hint rows stayed where they were until a key); mouse reporting is
# off while stopped and on again after fg. Ctrl-Z while the explorer is busy (it waits
# for a heatmap build it stopped: TSCOPE_TEST_HEAT_JOB_MS pauses the build 10 minutes
# after a rank, so the wait outlasts the test; /proc/PID/wchan says when it waits) stops
# it at once, not when the work ends: the shell's screen, modes and mouse back; after fg
# the explorer's modes, alternate screen and keypad, with a line saying it is busy
# (the process is then killed). The run picker (a folder of runs) the same: Ctrl-Z then
# fg draws it again and it waits for a key (it exited, status 0, on fg); Esc and
# Backspace in it do nothing, as at the top of a run (they quit it); q quits, status 0.
# Skips without tmux.
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
tap_check "stopped: mouse reporting is off" '[ "$(flag mouse_standard_flag)$(flag mouse_sgr_flag)" = 00 ]'
T send-keys -t susp "clear; fg" Enter
tap_check "fg: the explorer is back on the alternate screen" \
	'wait_until "grep -q \"ranks  row 1/16\" \"\$tmux_screen\" && [ \"\$(flag alternate_on)\" = 1 ]"'
tap_check "fg: keypad application mode is on before a key is read" 'wait_until "[ \"\$(flag keypad_flag)\" = 1 ]"'
tap_check "fg: mouse reporting is on again" '[ "$(flag mouse_standard_flag)$(flag mouse_sgr_flag)" = 11 ]'
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

# the run picker: Ctrl-Z and fg, then Esc and Backspace, then q
mkdir -p runs && ln -sfn "$demo" runs/a && ln -sfn "$demo" runs/b
T send-keys -t susp "clear; '$TSCOPE_BIN' --no-index runs" Enter
wait_for "runs holds 2 runs below it" >/dev/null
suspend
T send-keys -t susp "clear; fg; echo PICKER=\$?" Enter
tap_check "picker, Ctrl-Z then fg: the picker is drawn again, on the alternate screen" \
	'wait_until "grep -q \"runs holds 2 runs below it\" \"\$tmux_screen\" && [ \"\$(flag alternate_on)\" = 1 ]"'
T send-keys -t susp Escape BSpace Enter
tap_check "... it still reads keys; Esc and Backspace do nothing: Enter after them opens a run" \
	'wait_until "grep -q \"demo-ddp  1 Overview\" \"\$tmux_screen\" || grep -q PICKER= \"\$tmux_screen\"" &&
	 ! grep -q PICKER= "$tmux_screen"'
T send-keys -t susp q
wait_for "runs holds 2 runs below it" >/dev/null
T send-keys -t susp q
tap_check "q quits the picker, status 0" 'wait_for "PICKER=0"'

# Ctrl-Z while busy: 3 leaves the heatmap, which stops its build and waits for it.
cp -R "$demo" run && "$TSCOPE_BIN" index run >/dev/null 2>&1 || tap_notok "tscope-tui index failed"
trap 'T kill-server 2>/dev/null; [ -s pid.txt ] && kill -KILL "$(cat pid.txt)" 2>/dev/null' EXIT
T send-keys -t susp "clear; stty -a > stty.before" Enter
wait_until '[ -s stty.before ]' >/dev/null
T send-keys -t susp "clear; TSCOPE_TEST_HEAT_JOB_MS=600000 sh -c 'echo \$\$ > pid.txt; exec \"\$0\" --tui run' '$TSCOPE_BIN'" Enter
wait_for "compute: " >/dev/null
pid=$(cat pid.txt)
T send-keys -t susp m
wait_for "slowdown vs step median: " >/dev/null
T send-keys -t susp m
wait_re "computing step time: [0-9]+ of 16 ranks" >/dev/null
T send-keys -t susp 3
wait_until 'grep -q futex "/proc/$pid/wchan"' >/dev/null   # waiting for the build to stop
T send-keys -t susp C-z
tap_check "Ctrl-Z while busy: stopped at once, the shell's screen back" \
	'wait_until "grep -q Stopped \"\$tmux_screen\" && [ \"\$(flag alternate_on)\" = 0 ]"'
stty -F "$(flag pane_tty)" -a >stty.stopped
tap_check "... the shell's terminal modes, mouse reporting off" \
	'cmp -s stty.before stty.stopped && [ "$(flag mouse_standard_flag)$(flag mouse_sgr_flag)" = 00 ]'
T send-keys -t susp "clear; fg" Enter
tap_check "fg while still busy: the alternate screen, saying it is busy" \
	'wait_until "[ \"\$(flag alternate_on)\" = 1 ] && grep -q \"is busy: the screen comes back when it is done\" \"\$tmux_screen\""'
stty -F "$(flag pane_tty)" -a >stty.fg
tap_check "... the explorer's modes (no echo, no line editing), keypad and mouse on" \
	'grep -q -- "-icanon" stty.fg && grep -q -- "-echo " stty.fg && [ "$(flag keypad_flag)" = 1 ] &&
	 [ "$(flag mouse_standard_flag)$(flag mouse_sgr_flag)" = 11 ]'
tap_plan
