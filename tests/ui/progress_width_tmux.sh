#!/bin/sh
# progress_width_tmux.sh: the load's progress line (src/meter.c) fits the terminal. Each
# frame is at most the width less one column: a line as wide as the terminal or wider
# wraps, "\r" then goes back to its last row only, and the rows above stay on screen (at
# 40 columns eight stale "tscope-tui: loading 2 MB · 0.6 MB/s · q" lines were left, at 30
# one cut-off line per redraw). Too wide, the rate goes first (whole), then the ETA, then
# the line is cut with an ellipsis. The 16-rank demo under --print with a slow listing
# (TSCOPE_LIST_DELAY_MS: 250 ms a rank dir) loads for about 4 s in a tmux terminal 40, 30
# and 80 columns wide; pipe-pane keeps every byte the terminal got, so every frame is
# measured, and the screen after the run must hold nothing of the line.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/pwidth.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
cp -R "$TSCOPE_ROOT/testdata/demo" demo || exit 1
tmux_start pw 40 10 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
esc=$(printf '\033')

# load COLS: the load at COLS columns; the bytes drawn in COLS.raw, its frames of the line
# (erase codes dropped) in COLS.frames, the screen after the run in COLS.screen.
load() {
	T resize-window -t pw -x "$1" -y 10
	T send-keys -t pw "clear" Enter
	wait_until '! grep -q "^rc=" "$tmux_screen"'
	T pipe-pane -t pw "cat >'$work/$1.raw'"
	T send-keys -t pw "TSCOPE_LIST_DELAY_MS=250 '$TSCOPE_BIN' --print --no-index demo >/dev/null; echo rc=\$?" Enter
	wait_re "^rc=[0-9]"
	T pipe-pane -t pw
	cp "$tmux_screen" "$1.screen"
	tr '\r' '\n' <"$1.raw" | grep "tscope-tui: load" | sed "s/$esc\\[K//g" >"$1.frames"
}
# widest COLS: the widest frame in columns (the line's non-ASCII glyphs are one column each)
widest() {
	sed 's/·/./g; s/…/./g' "$1.frames" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'
}

load 40
tap_check "40 columns: the line was drawn ($(wc -l <40.frames) frames)" '[ -s 40.frames ]'
tap_check "40 columns: every frame fits in 39 columns (widest $(widest 40))" '[ "$(widest 40)" -le 39 ]'
tap_check "40 columns: the rate is left out whole, not cut" '! grep -q "MB/" 40.frames'
tap_check "40 columns: no stale line on screen after the run" \
	'grep -q "^rc=0" 40.screen && ! grep -q "tscope-tui: load" 40.screen'
sed 's/^/# /' 40.frames | tail -2

load 30
tap_check "30 columns: every frame fits in 29 columns (widest $(widest 30)), cut with an ellipsis" \
	'[ -s 30.frames ] && [ "$(widest 30)" -le 29 ] && grep -q "…$" 30.frames'
tap_check "30 columns: no stale line on screen after the run" \
	'grep -q "^rc=0" 30.screen && ! grep -q "tscope-tui: load" 30.screen'

load 80
tap_check "80 columns: every frame fits in 79 columns (widest $(widest 80)), the rate shown" \
	'[ -s 80.frames ] && [ "$(widest 80)" -le 79 ] && grep -q "MB/s" 80.frames'
tap_check "80 columns: no stale line on screen after the run" \
	'grep -q "^rc=0" 80.screen && ! grep -q "tscope-tui: load" 80.screen'
tap_plan
