# SPDX-License-Identifier: MIT
# tmux.sh: the tmux harness of the end-to-end tests, sourced after tap.sh.
#   tmux_start SESSION COLS ROWS DIR  a tmux server on this script's own socket with one
#                                     session running sh in a clean environment
#                                     (HOME=DIR, TERM=xterm-256color, C.UTF-8); skips
#                                     the whole script (exit 0) without tmux or a server
#   T ARGS...                         tmux on that socket
#   wait_for TEXT                     until the session shows TEXT (about 10 s); the last
#                                     capture is in DIR/screen
#   wait_re REGEX                     until the session matches the extended regex
#                                     (about 60 s: follow mode's polls at a writer's pace)
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
# until `grep OPT -- PATTERN` matches a capture of the session, at most TRIES x 0.1 s
tmux_wait() {
	i=0
	while [ $i -lt "$3" ]; do
		T capture-pane -p -t "$tmux_session" >"$tmux_screen" 2>/dev/null
		grep "$1" -- "$2" "$tmux_screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for() { tmux_wait -qF "$1" 100; }
wait_re() { tmux_wait -qE "$1" 600; }
