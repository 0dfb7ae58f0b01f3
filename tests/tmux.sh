# SPDX-License-Identifier: MIT
# tmux.sh: what the tmux end-to-end scripts share (sourced after tap.sh). Skips the
# script when tmux is missing. Then:
#   tmux_session NAME WORKDIR   a private server (-L NAME-PID) killed on exit, session NAME
#                               running a clean sh in WORKDIR; skips if it cannot start
#   T ARGS...                   tmux on that server
#   wait_for TEXT               until the pane shows TEXT (up to ~10 s); the capture is
#                               left in $tmux_work/screen
if ! command -v tmux >/dev/null 2>&1; then
	tap_skip "tmux is not installed"
	exit 0
fi
T() { tmux -L "$tmux_sock" "$@"; }
tmux_cleanup() { [ -n "${KEEP:-}" ] || T kill-server 2>/dev/null; }
tmux_session() {
	tmux_name=$1 tmux_work=$2 tmux_sock="tscope-$1-$$"
	trap tmux_cleanup EXIT
	T -f /dev/null new-session -d -s "$tmux_name" -x 120 -y 40 \
		"env -i PATH=$PATH HOME=$tmux_work TERM=xterm-256color LC_ALL=C.UTF-8 sh" || {
		tap_skip "tmux cannot start a server here"
		exit 0
	}
}
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		T capture-pane -p -t "$tmux_name" >"$tmux_work/screen" 2>/dev/null
		grep -qF -- "$1" "$tmux_work/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
