# SPDX-License-Identifier: MIT
# tmux.sh: the tmux harness of the end-to-end tests, sourced after tap.sh.
#   tmux_start SESSION COLS ROWS DIR  a tmux server on this script's own socket with one
#                                     session running sh in a clean environment
#                                     (HOME=DIR, TERM=xterm-256color, C.UTF-8); skips
#                                     the whole script (exit 0) without tmux or a server
#   T ARGS...                         tmux on that socket
#   wait_for TEXT                     until the session shows TEXT; the last capture is in
#                                     DIR/screen
#   wait_re REGEX                     until the session matches the extended regex
#   wait_gone TEXT                    until the session no longer shows TEXT
#   wait_until 'SHELL CONDITION' [S]  until the condition holds (evaluated after each
#                                     capture, so it may read DIR/screen), then until
#                                     the screen settles (wait_settle)
#   snap                              capture the session into DIR/screen now
# Following a running job (tests/ui/follow*_tmux.sh):
#   follow_start DIR HISTORY STOP     DIR made afresh and entered; a session f (140x30);
#                                     8 ranks with steps 0..HISTORY written, then a writer
#                                     appending from HISTORY+1 in the background (rank 3
#                                     stops at step STOP; pid in follow_pid, killed on exit;
#                                     the writer script is $follow_writer); in the session
#                                     `tscope-tui --follow --interval 0.2 --stall 2 run`,
#                                     its exit status written to DIR/exit.txt
#   follow_quit KEY                   stop the writer, send KEY, wait (10 s at most) for
#                                     exit.txt
# Every wait polls ten times a second for up to TSCOPE_WAIT seconds (default 30; wait_re
# 60: follow mode's polls go at a writer's pace): a loaded machine is slow, and a
# passing test never waits that long. Never a fixed sleep. A wait that runs out says what
# it waited for on stderr ("# timed out waiting for: ..."), then the screen it saw last.
tmux_start() {
	if ! command -v tmux >/dev/null 2>&1; then
		tap_skip "tmux is not installed"
		exit 0
	fi
	tmux_sock="tscope-$1-$$"
	tmux_session=$1
	tmux_screen="$4/screen"
	trap 'T kill-server 2>/dev/null' EXIT
	T -f /dev/null new-session -d -s "$1" -x "$2" -y "$3" \
		"env -i PATH=$PATH HOME=$4 TERM=xterm-256color LC_ALL=C.UTF-8 sh" || {
		tap_skip "tmux cannot start a server here"
		exit 0
	}
}
T() { tmux -L "$tmux_sock" "$@"; }
wait_until() {
	i=0
	while [ $i -lt $((${2:-${TSCOPE_WAIT:-30}} * 10)) ]; do
		T capture-pane -p -t "$tmux_session" >"$tmux_screen" 2>/dev/null
		eval "$1" && { wait_settle "$1"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	case $1 in
	*wait_text*) echo "# timed out waiting for: $1 (wait_text: $wait_text)" >&2 ;;
	*) echo "# timed out waiting for: $1" >&2 ;;
	esac
	sed 's/^/# | /' "$tmux_screen" >&2   # the screen it saw last, for the log
	return 1
}
# The condition holds on DIR/screen, but tmux reads a big frame from the pty in pieces:
# the capture may be a frame half drawn (an overlay's title without its list). Capture
# again until two captures agree (five more at most), and leave in DIR/screen the last
# capture on which the condition still holds.
wait_settle() {
	cp "$tmux_screen" "$tmux_screen.ok"
	settle=0
	while [ $settle -lt 5 ]; do
		sleep 0.05
		T capture-pane -p -t "$tmux_session" >"$tmux_screen" 2>/dev/null
		cmp -s "$tmux_screen" "$tmux_screen.ok" && break
		eval "$1" && cp "$tmux_screen" "$tmux_screen.ok"
		settle=$((settle + 1))
	done
	mv "$tmux_screen.ok" "$tmux_screen"
}
wait_for() {
	wait_text=$1
	wait_until 'grep -qF -- "$wait_text" "$tmux_screen"'
}
wait_gone() {
	wait_text=$1
	wait_until '! grep -qF -- "$wait_text" "$tmux_screen"'
}
wait_re() {
	wait_text=$1
	wait_until 'grep -qE -- "$wait_text" "$tmux_screen"' "${TSCOPE_WAIT:-60}"
}
snap() { T capture-pane -p -t "$tmux_session" >"$tmux_screen" 2>/dev/null; }

follow_writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
follow_start() {
	rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
	tmux_start f 140 30 "$1"
	follow_pid=
	trap 'T kill-server 2>/dev/null; [ -n "$follow_pid" ] && kill "$follow_pid" 2>/dev/null' EXIT
	sh "$follow_writer" run 8 0 "$2" 0
	sh "$follow_writer" run 8 $(($2 + 1)) 100000 0.05 3 "$3" &
	follow_pid=$!
	T send-keys -t f "cd '$1' && '$TSCOPE_BIN' --follow --interval 0.2 --stall 2 run; echo EXIT=\$? > exit.txt" Enter
}
follow_quit() {
	if [ -n "$follow_pid" ]; then
		kill "$follow_pid" 2>/dev/null
		wait "$follow_pid" 2>/dev/null
		follow_pid=
	fi
	T send-keys -t f "$1"
	i=0
	while [ ! -s exit.txt ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
