#!/bin/sh
# load_cancel_tmux.sh: a load that has not ended. In the explorer the loading screen
# (src/main.c, ui/ui.c ui_load_frame) shows at once what is loaded so far (files,
# records, ranks; load_partial_tmux.sh checks the partial Overview in full), the bytes
# read with the rate, and how to quit; q quits the load: the process
# ends at once with "load cancelled", exit status 0, and the terminal is as it was (echo
# and line editing back). With --print on a terminal the load shows a progress line with
# its rate after 0.5 s instead, and q cancels it with exit status 1 (no report).
# The run's steps.jsonl is a named pipe fed a line every 50 ms: a load that never ends.
# --print and --export while no byte comes (rank 3 of 4 a FIFO with no writer yet, as a
# stalled file system): the line still shows after 0.5 s, q or Esc cancel (status 1, the
# loader blocked in its wait not waited for, and said so: it did not stop within a second;
# a loader that stops is never said to be), the terminal is as it was and no key typed
# is left for the shell. Arrow and function keys (escape sequences) are not Esc: they
# and other keys are discarded, and the load goes on.
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
# after the run: its status, then whether the tty is back in line mode with echo, then
# what was typed and left unread for the shell (0.3 s for it to come); the markers are
# split in the typed command, so only the output matches them
cat >after.sh <<'SH'
echo "rc=$1"
if stty -a | grep -q -e -icanon -e '-echo '; then tty=tty-raw; else tty=tty-ok; fi
saved=$(stty -g)
stty -icanon -echo min 0 time 3
left=$(dd bs=64 count=1 2>/dev/null | od -An -c | tr -d ' \n')
stty "$saved"
echo "$tty"
echo "left=[$left]"
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
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null
feeder=

# Rank 3 of 4 a FIFO with no writer: the other ranks' bytes come at once, then none.
"$gen" four 4 40 >/dev/null && mv four/rank3/steps.jsonl r3.jsonl && mkfifo four/rank3/steps.jsonl || exit 1
T send-keys -t cancel "clear" Enter
T send-keys -t cancel "TSCOPE_FIFO_WAIT=30 '$TSCOPE_BIN' --print --no-index four >/dev/null; sh after.sh \$?" Enter
tap_check "--print, no byte coming (a FIFO with no writer): the progress line shows all the same" \
	'wait_for "q cancels"'
T send-keys -t cancel q
wait_for "left="
tap_check "... q cancels it at once: status 1, the loader blocked in its wait not waited for" \
	'grep -q "tscope-tui: load cancelled (a loader that did not stop within a second was not waited for)" \
		"$tmux_screen" && grep -q "^rc=1" "$tmux_screen"'
tap_check "... the terminal is restored and the q is not left for the shell" \
	'grep -q "^tty-ok" "$tmux_screen" && grep -q "^left=\[\]" "$tmux_screen"'
T send-keys -t cancel "clear" Enter
T send-keys -t cancel "TSCOPE_FIFO_WAIT=30 '$TSCOPE_BIN' --export ranks -o four.csv --no-index four; sh after.sh \$?" \
	Enter
wait_for "q cancels"
T send-keys -t cancel Escape
wait_for "left="
tap_check "--export, no byte coming: Esc cancels (status 1, no CSV), nothing left for the shell" \
	'grep -q "tscope-tui: load cancelled" "$tmux_screen" && grep -q "^rc=1" "$tmux_screen" && [ ! -e four.csv ] &&
	 grep -q "^tty-ok" "$tmux_screen" && grep -q "^left=\[\]" "$tmux_screen"'

# The FIFO fed a line every 0.15 s: arrow and function keys typed during the load.
{ while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.15; done <r3.jsonl; } >four/rank3/steps.jsonl 2>/dev/null &
feeder=$!
T send-keys -t cancel "clear" Enter
T send-keys -t cancel "'$TSCOPE_BIN' --print --no-index four >/dev/null; sh after.sh \$?" Enter
wait_for "q cancels"
T send-keys -t cancel Up F1 Right x
wait_for "left="
tap_check "--print: Up, F1, Right and x typed during the load do not cancel it (status 0)" \
	'! grep -q "load cancelled" "$tmux_screen" && grep -q "^rc=0" "$tmux_screen"'
tap_check "... and are not left for the shell; the terminal is restored" \
	'grep -q "^tty-ok" "$tmux_screen" && grep -q "^left=\[\]" "$tmux_screen"'
tap_plan
