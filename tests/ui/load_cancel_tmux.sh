#!/bin/sh
# load_cancel_tmux.sh: a load that has not ended. In the explorer the loading screen
# (src/main.c, ui/ui.c ui_load_frame) shows at once what is loaded so far (files,
# records, ranks; load_partial_tmux.sh checks the partial Overview in full), the bytes
# read with the rate, and how to quit; q quits the load: the process
# ends at once with "load cancelled", exit status 0, and the terminal is as it was (echo
# and line editing back). With --print on a terminal the load shows a progress line with
# its rate after 0.5 s instead, and q cancels it with exit status 1 (no report).
# The run's steps.jsonl is a named pipe fed a line every 50 ms: a load that never ends.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
command -v mkfifo >/dev/null 2>&1 || { tap_skip "mkfifo not installed"; tap_plan; exit 0; }
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/cancel.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" gen 1 3000 >/dev/null && mv gen/rank0 src && mkdir slow && cp src/run.json slow/ &&
	mkfifo slow/steps.jsonl || exit 1
feed() {
	{ while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.05; done <src/steps.jsonl; } >slow/steps.jsonl 2>/dev/null &
	feeder=$!
}
feeder=
tmux_start cancel 120 20 "$work"
trap 'T kill-server 2>/dev/null; [ -n "$feeder" ] && kill $feeder 2>/dev/null; rm -rf "$work"' EXIT
# after the run: its status, then whether the tty is back in line mode with echo; the
# markers are split in the typed command, so only the output matches them
cat >after.sh <<'SH'
echo "rc=$1"
if stty -a | grep -q -e -icanon -e '-echo '; then echo tty-raw; else echo tty-ok; fi
SH
feed
T send-keys -t cancel "'$TSCOPE_BIN' --tui --no-index slow; sh after.sh \$?" Enter
wait_for "quits the load"
tap_check "explorer: the loading screen names the run and how to quit" \
	'grep -q "1 Overview (loading slow)" "$tmux_screen" && grep -q "q or Esc quits the load" "$tmux_screen"'
tap_check "explorer: the records of the file being read are counted as they come" \
	'wait_until "grep -qE \"sources +1 file, [1-9][0-9]* records loaded so far\" \"\$tmux_screen\" &&
		    ! grep -q listing \"\$tmux_screen\""'
tap_check "explorer: bytes read with the rate, the files and records so far, no rank whole yet" \
	'grep -qE "Loading +[0-9.]+ MB · [0-9.]+ MB/s" "$tmux_screen" &&
	 grep -qE "ranks +0 of 1 ranks loaded" "$tmux_screen" && grep -qE "data quality +so far 0 skipped" "$tmux_screen"'
T send-keys -t cancel q
wait_for "tty-"
tap_check "q: the load is cancelled" 'grep -q "tscope-tui: load cancelled" "$tmux_screen"'
tap_check "q quits with status 0" 'grep -q "^rc=0" "$tmux_screen"'
tap_check "the terminal is restored (echo, line editing)" 'grep -q "^tty-ok" "$tmux_screen"'
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null
T send-keys -t cancel "clear" Enter
feed
T send-keys -t cancel "'$TSCOPE_BIN' --print --no-index slow; sh after.sh \$?" Enter
wait_for "q cancels"
tap_check "--print: progress line after 0.5 s: MB, rate, and how to cancel" \
	'grep -q "tscope-tui: loading [0-9.]* MB · [0-9.]* MB/s · q cancels" "$tmux_screen"'
T send-keys -t cancel q
wait_for "tty-"
tap_check "--print: q cancels with status 1" 'grep -q "tscope-tui: load cancelled" "$tmux_screen" && grep -q "^rc=1" "$tmux_screen"'
tap_check "--print: the terminal is restored" 'grep -q "^tty-ok" "$tmux_screen"'
tap_plan
