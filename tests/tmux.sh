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
#                                     capture, so it may read DIR/screen)
# Every wait polls ten times a second for up to TSCOPE_WAIT seconds (default 30; wait_re
# 60: follow mode's polls go at a writer's pace): a loaded machine is slow, and a
# passing test never waits that long. Never a fixed sleep.
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
		eval "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
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
