#!/bin/sh
# stdin_tui_tmux.sh: --tui with standard input not a terminal (`tscope-tui --tui RUN
# </dev/null`, as xargs runs it), end to end in tmux: the explorer opens all the same,
# reading its keys from /dev/tty (the line auto mode writes instead names this way,
# tests/cli/auto_mode.sh); Q quits with exit 0 and nothing on stderr. Waits are bounded;
# skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/stdin_tui.$$"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
tmux_start st 120 30 "$work"
demo="$TSCOPE_ROOT/testdata/demo"
T send-keys -t st "'$TSCOPE_BIN' --no-index --tui '$demo' </dev/null 2>err; echo EXIT=\$? >exit.txt" Enter
tap_check "--tui, stdin /dev/null: the explorer opens on the terminal" 'wait_for "1 Overview"'
T send-keys -t st Q
i=0
while [ ! -s exit.txt ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tap_eq "Q (read from /dev/tty) quits with exit 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
tap_check "nothing on stderr" '[ ! -s err ]'
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
