#!/bin/sh
# End to end in tmux, what a terminal user tries first (issue 14): NO_COLOR keeps the
# terminal's colours (no background SGR), TERM=dumb prints the report with one line
# saying why, :q exits 0, q closes a drill-down and quits only at the top, Q quits from
# an overlay, Ranks at 80x24 shows time lost uncut, / finds and highlights a kernel
# name (n next, Esc ends) and in the heatmap jumps to a rank, a click on a tab switches
# pane and a click on a heatmap cell selects it (a second click opens it), a click whose
# release is read with the next key is drawn at once, y sends OSC
# 52 (tmux's buffer receives it), T turns mouse reporting off and on (tmux's pane
# flags), the v list shows only views with data, C-l repaints over an overlay, a prompt,
# the too-small screen and the picker, the last pane, sort, filter and v tabs
# come back under $XDG_STATE_HOME, a folder of runs opens a picker (with --ranks too,
# the run opened from it then a subset) and q in a run opened from it returns to it, and
# an option ignored is named on the shell's screen after the explorer. Every wait polls
# the screen until what it expects shows
# (tests/tmux.sh), never a fixed sleep. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
demo="$TSCOPE_ROOT/testdata/demo"
work="$TSCOPE_TMP/habits"
mkdir -p "$work/traces" "$work/runs"
B="$TSCOPE_ROOT/$TSCOPE_BUILD/tests"
"$B/gen_trace" "$work/traces/rank0.pt.trace.json" 1 0 >/dev/null && "$B/gen_trace" "$work/traces/rank1.pt.trace.json" 1 1 >/dev/null ||
	{ tap_notok "gen_trace failed"; exit 0; }
ln -sfn "$demo" "$work/runs/a-demo" && ln -sfn "$work/traces" "$work/runs/b-traces"
wait_exit() {   # wait for exit.txt, then check it holds $1
	wait_until '[ -s "$work/exit.txt" ]' && grep -qx "EXIT=$1" "$work/exit.txt"
}
start() {   # start the explorer with "$@" (shell words), exit status into exit.txt;
	# no state saved by an earlier start (~/.local/state) unless XDG_STATE_HOME is given
	rm -rf "$work/exit.txt" "$work/.local/state"
	# a clear screen first, so no wait_for matches the previous run's last frame
	T send-keys -t h clear Enter
	wait_until '! grep -q "Overview\|Heatmap\|holds" "$tmux_screen"'
	T send-keys -t h "$* 2>err.txt; echo EXIT=\$? > exit.txt" Enter
}
mouse() {   # SGR press and release at 1-based column $1, row $2
	T send-keys -t h -l "$(printf '\033[<0;%d;%dM' "$1" "$2")"
	T send-keys -t h -l "$(printf '\033[<0;%d;%dm' "$1" "$2")"
}

tmux_start h 120 40 "$work"
T set -g set-clipboard on
T send-keys -t h "cd '$work'" Enter
bin="'$TSCOPE_BIN'"

# NO_COLOR: attributes only, the terminal's own background everywhere
start "NO_COLOR=1 $bin '$demo'"
wait_for "Heatmap" && wait_for "rank 0"
T capture-pane -e -p -t h >"$work/nocolor.ansi"
tap_check "NO_COLOR: no background colour in the capture" '! grep -qE "\[([0-9;]*;)?(4[0-7]|48;5;[0-9]+|10[0-7])(;[0-9;]*)?m" "$work/nocolor.ansi"'
tap_check "NO_COLOR: no foreground colour either" '! grep -qE "\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+)(;[0-9;]*)?m" "$work/nocolor.ansi"'
T send-keys -t h ':q' Enter
tap_check ":q exits 0" 'wait_exit 0'
start "$bin '$demo'"
wait_for "rank 0"
T capture-pane -e -p -t h >"$work/color.ansi"
tap_check "without NO_COLOR the same screen has background colours (the check can fail)" 'grep -qE "\[([0-9;]*;)?(4[0-7]|48;5;[0-9]+)(;[0-9;]*)?m" "$work/color.ansi"'

# / in the heatmap: the rank's row as it is typed, its label highlighted; Esc ends it
T send-keys -t h '/rank 5'
tap_check "/ in the heatmap jumps to the rank as it is typed" 'wait_for "/rank 5_" && wait_for " rank 5  step "'
T capture-pane -e -p -t h >"$work/hsearch.ansi"
tap_check "the matching rank label is highlighted (black on yellow)" 'grep -q "48;5;226m5" "$work/hsearch.ansi"'
T send-keys -t h Enter
wait_for "search 'rank 5'"
T send-keys -t h Escape
tap_check "Esc ends the search: no highlight left" 'wait_gone "search '"'"'rank 5'"'"'" && ! T capture-pane -e -p -t h | grep -q "48;5;226"'
# a click on a heatmap cell selects its rank and steps; a second click opens it
y9=$(awk 'substr($0, 1, 6) ~ /^ +9 $/ { print NR; exit }' "$work/screen")
mouse 40 "$y9"
tap_check "a click on a heatmap cell selects that rank and step bucket" 'wait_for " rank 9  step "'
mouse 40 "$y9"
tap_check "a second click on it opens the cell (rank 9's steps)" 'wait_for "rank 9 (10 of 16)"'
T send-keys -t h q
wait_for "steps/col (worst)  scale median"
# a double click (both presses in one read when the explorer is busy) opens at once
y3=$(awk 'substr($0, 1, 6) ~ /^ +3 $/ { print NR; exit }' "$work/screen")
mouse 60 "$y3"
mouse 60 "$y3"
tap_check "a double click on a heatmap cell opens it (rank 3's steps)" 'wait_for "rank 3 (4 of 16)"'
T send-keys -t h q
wait_for "steps/col (worst)  scale median"

# q: a drill-down closes, then q quits at the top; Q from an overlay
T send-keys -t h n
wait_for "straggler 1/"
T send-keys -t h Enter
tap_check "Enter drills into Steps for the straggler" 'wait_for "rank 11 (12 of 16)"'
T send-keys -t h q
tap_check "q closes the drill-down (back on the heatmap)" 'wait_for "steps/col (worst)  scale median"'
T send-keys -t h '?'
wait_for "Keys (Esc closes"
T send-keys -t h q
tap_check "q closes the ? overlay" 'wait_for "steps/col (worst)  scale median" && ! grep -q "Keys (Esc closes" "$work/screen"'
# a click on the "3 Ranks" tab
x=$(awk 'NR == 1 { print index($0, "3 Ranks") }' "$work/screen")
mouse "$x" 1
tap_check "a click on the Ranks tab switches to Ranks" 'wait_for "ranks  row 1/16"'
# wheel down moves the selection
T send-keys -t h -l "$(printf '\033[<65;10;10M')"
tap_check "the wheel moves three rows down" 'wait_for "ranks  row 4/16"'
# a click on a row selects it
mouse 5 8
tap_check "a click on a row selects it" 'wait_for "ranks  row 6/16"'
# y: OSC 52 reaches tmux's buffer
T send-keys -t h y
wait_for "copied"
tap_check "y sends the selected cell with OSC 52 (tmux buffer holds it)" 'wait_until "[ \"\$(T show-buffer 2>/dev/null)\" = 5 ]"'
T send-keys -t h Y
tap_check "Y sends the row, tab-separated" 'wait_until "T show-buffer 2>/dev/null | grep -q \"^5	400	\""'
# a press, a key and the release read together (as when the explorer is busy while a
# click is made): the frame comes at once, not when the next key arrives
T send-keys -t h -l "$(printf '\033[<0;5;9Mj\033[<0;5;9m')"
tap_check "a click, j and the release in one read: drawn without another key" 'wait_for "ranks  row 8/16"'
# other buttons do nothing
T send-keys -t h -l "$(printf '\033[<2;5;12M\033[<2;5;12m')" j
tap_check "a right click does nothing (j after it moves on from row 8)" 'wait_for "ranks  row 9/16"'
# C-d / C-u: half a page (the Sources pane has 32 rows)
T send-keys -t h 7
wait_for "sources  row 1/32"
T send-keys -t h C-d
tap_check "C-d moves half a page down" 'wait_for "sources  row 17/32"'
T send-keys -t h C-u
tap_check "C-u moves half a page up" 'wait_for "sources  row 1/32"'
# T gives the terminal's text selection back (reporting is on at start), T again takes it
mouse_flags() { T display -p -t h '#{mouse_standard_flag}#{mouse_sgr_flag}'; }
tap_check "mouse reporting is on at start (tmux's pane flags)" '[ "$(mouse_flags)" = 11 ]'
T send-keys -t h T
tap_check "the first T turns mouse reporting off" 'wait_for "mouse off: the terminal selects" && [ "$(mouse_flags)" = 00 ]'
T send-keys -t h T
tap_check "T again turns it back on" 'wait_for "mouse on: click tabs" && [ "$(mouse_flags)" = 11 ]'
# v lists only views with data: no trace views on a step run
T send-keys -t h v
wait_for "Views with data"
tap_check "v lists the step views, not the trace ones" 'grep -q "budget" "$work/screen" && ! grep -q "kernels" "$work/screen"'
T send-keys -t h Q
tap_check "Q quits from the v overlay with status 0" 'wait_exit 0'

# 80x24: Ranks keeps time lost, onset and the verdict, numbers uncut
T resize-window -t h -x 80 -y 24
start "$bin '$demo'"
wait_for "rank 0"
T send-keys -t h 3
wait_for "ranks  row"
tap_check "80x24 Ranks shows time_lost_s, onset_step and straggler" 'grep -q "time_lost_s" "$work/screen" && grep -q "onset_step" "$work/screen" && grep -q "straggler" "$work/screen"'
tap_check "80x24 Ranks: rank 11's time lost 4.22 s and onset 179, uncut" 'grep -E "^ +11 " "$work/screen" | grep -q "4\.22 s .* 179 yes"'
tap_check "80x24 Ranks: no ellipsis inside a number" '! grep -qE "[0-9]…" "$work/screen"'
T send-keys -t h Q
wait_exit 0
T resize-window -t h -x 120 -y 40

# C-l repaints the whole screen whatever shows: text another program wrote to the
# terminal (wall(1), a background job) goes, over an overlay, a prompt, the too-small
# screen and the run picker too (it was repainted over the panes alone)
tty=$(T display -p -t h '#{pane_tty}')
repaints() {   # $1: what shows; a scribble written straight to the terminal, then C-l
	printf '\033[5;5HSCRIBBLE' >"$tty"
	wait_for SCRIBBLE >/dev/null
	T send-keys -t h C-l
	tap_check "C-l repaints over $1" 'wait_gone SCRIBBLE'
}
shows() {   # $1 a key, $2 the text it brings up, $3 what that is: C-l repaints it, Esc closes it
	T send-keys -t h "$1"
	wait_for "$2" >/dev/null
	repaints "$3"
	T send-keys -t h Escape
	wait_gone "$2" >/dev/null
}
start "$bin '$demo'"
wait_for "rank 0"
shows '?' "Keys (Esc closes" "the ? help"
shows v "Views with data" "the v list"
shows / "/_" "the / prompt"
shows : ":_" "the : prompt"
T resize-window -t h -x 60 -y 15
wait_for "terminal too small" >/dev/null
repaints "the too-small screen"
T resize-window -t h -x 120 -y 40
T send-keys -t h Q
wait_exit 0
start "$bin '$work/runs'"
wait_for "holds 2 runs" >/dev/null
repaints "the run picker"
T send-keys -t h q
wait_exit 0

# search: a kernel name in the kernels view, highlighted, n for the next match
start "$bin '$work/traces'"
wait_for "Overview"
T send-keys -t h ':view kernels' Enter
wait_for "kernels  row 1/"
T send-keys -t h '/volta_sgemm'
# each check polls one capture for everything it expects together (a loaded machine may
# show a frame half drawn, or the frame before the last key was read), never a one-shot
# look after a wait for part of it
both() {
	both_a=$1 both_b=$2
	wait_until 'grep -qF -- "$both_a" "$tmux_screen" && grep -qF -- "$both_b" "$tmux_screen"'
}
tap_check "/ selects the row with the kernel name as it is typed" 'both "/volta_sgemm_" "kernels  row 3/8"'
highlighted() {   # the session, with attributes, shows volta_sgemm in black on yellow
	T capture-pane -e -p -t h >"$work/search.ansi"
	grep -q "38;5;16;48;5;226m\(\[[0-9;]*m\)*volta_sgemm\|48;5;226;38;5;16m\(\[[0-9;]*m\)*volta_sgemm" "$work/search.ansi" ||
		grep "volta_sgemm" "$work/search.ansi" | grep -q "226"
}
tap_check "the match is highlighted (black on yellow)" 'wait_until highlighted'
T send-keys -t h Enter n
tap_check "n goes to the next match (rank 1's row)" 'both "kernels  row 7/8  rank=1" "search '"'"'volta_sgemm'"'"'"'
T send-keys -t h Escape
tap_check "Esc ends the search" 'wait_for "?:help" && ! grep -q "search '"'"'volta_sgemm" "$work/screen"'
T send-keys -t h q q
tap_check "q closes the extra tab, then quits" 'wait_exit 0'

# TERM=dumb: the report, and one line saying why
start "TERM=dumb $bin '$demo'"
tap_check "TERM=dumb exits 0" 'wait_exit 0'
last=$("$TSCOPE_BIN" --print "$demo" 2>/dev/null | tail -1 | cut -c1-40)
tap_check "TERM=dumb prints the report (its last line is on the screen)" 'wait_for "$last"'
tap_check "TERM=dumb says why in one line" '[ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -q "^tscope-tui: TERM=dumb cannot address the cursor; printing the report instead" "$work/err.txt"'

# state: the last pane, sort and filter come back when the run is reopened
start "XDG_STATE_HOME='$work/state' $bin '$demo'"
wait_for "rank 0"
T send-keys -t h 3 ':filter rank>=8' Enter s
wait_for "sort -rank"
T send-keys -t h Q
wait_exit 0
tap_check "the state file is under \$XDG_STATE_HOME/tscope-tui" 'ls "$work/state/tscope-tui/"run-* >/dev/null 2>&1'
start "XDG_STATE_HOME='$work/state' $bin '$demo'"
reopen() {   # Q (exit 0), then the demo again with the same state directory
	T send-keys -t h Q
	wait_exit 0
	start "XDG_STATE_HOME='$work/state' $bin '$demo'"
}
tap_check "reopening restores the Ranks pane, its filter and its sort" "wait_for \"filter 'rank>=8'\" && grep -q 'ranks  row 1/8 (of 16)' \"\$work/screen\" && grep -q 'sort -rank' \"\$work/screen\""
tap_check "the first row is rank 15 (descending)" 'grep -qE "^.? +15 " "$work/screen"'
T send-keys -t h ':view nodes' Enter
wait_for "nodes  row 1/"
reopen
tap_check "reopening restores the tab opened with :view/v, current again" 'wait_for "nodes  row 1/" && head -1 "$work/screen" | grep -qw nodes'
T send-keys -t h q
tap_check "q closes that tab" 'wait_gone "nodes  row 1/" && ! head -1 "$work/screen" | grep -qw nodes'
reopen
tap_check "a closed tab does not come back" 'wait_for "demo-ddp" && ! head -1 "$work/screen" | grep -qw nodes'
T send-keys -t h Q
wait_exit 0

# a folder of runs: the picker, Enter opens the selected run
start "$bin '$work/runs'"
tap_check "a folder of runs opens a picker listing them" 'wait_for "holds 2 runs" && grep -q "a-demo" "$work/screen" && grep -q "b-traces" "$work/screen"'
T send-keys -t h Enter
tap_check "Enter in the picker opens the run" 'wait_for "demo-ddp"'
T send-keys -t h q
tap_check "q at the top of that run returns to the picker" 'wait_for "holds 2 runs" && ! grep -q "demo-ddp" "$work/screen" && [ ! -s "$work/exit.txt" ]'
T send-keys -t h j Enter
tap_check "the picker opens the next run" 'wait_for "GPU time"'
T send-keys -t h Q
tap_check "Q quits from a run opened from the picker (exit 0)" 'wait_exit 0'
start "$bin '$work/runs'"
wait_for "holds 2 runs"
T send-keys -t h q
tap_check "q in the picker quits (exit 0)" 'wait_exit 0'
# --ranks: the same picker; the subset applies to the run opened from it
start "$bin --ranks 0-1 '$work/runs'"
tap_check "--ranks on a folder of runs: the picker lists them" \
	'wait_for "holds 2 runs" && grep -q "b-traces" "$work/screen"'
T send-keys -t h Enter
wait_for "demo-ddp" >/dev/null
T send-keys -t h 1
tap_check "... the run opened from it loads the ranks --ranks names" 'wait_for "--ranks 0-1 left 14 rank dirs out"'
T send-keys -t h Q
tap_check "... Q quits (exit 0)" 'wait_exit 0'

# an option the run has no family for: named on the shell's screen once the explorer is
# gone (written to the terminal under the explorer's screen, the line was lost)
rm -f "$work/exit.txt"
T send-keys -t h clear Enter
wait_until '! grep -q "Overview\|Heatmap\|holds" "$tmux_screen"'
T send-keys -t h "$bin --target-runtime 5 '$demo'; echo EXIT=\$? > exit.txt" Enter
wait_for "Heatmap" >/dev/null
T send-keys -t h Q
tap_check "an option ignored: named on the terminal after the explorer, not lost under it" \
	'wait_exit 0 && wait_for "tscope-tui: --target-runtime ignored: for NAT sizing"'
tap_plan
