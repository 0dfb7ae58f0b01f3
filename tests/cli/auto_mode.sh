#!/bin/sh
# auto_mode.sh: the mode picked without --print, --tui or --export (src/main.c
# pick_mode). The explorer reads its keys from standard input: when standard output is a
# terminal (a pty from script) but standard input is not (`tscope-tui RUN </dev/null`,
# `echo RUN | xargs tscope-tui`), the plain report is printed after one line on stderr
# saying why (and that --tui opens the explorer on /dev/tty), once; off a terminal
# (stdout a file) the report is printed with nothing on stderr, as before.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
why="tscope-tui: standard input is not a terminal, so the explorer does not open (--tui opens it on /dev/tty)"

"$BIN" --no-index "$demo" </dev/null >out 2>err
tap_check "stdout a file: the report, nothing on stderr" '[ $? -eq 0 ] && grep -q "TIMING" out && [ ! -s err ]'
if command -v script >/dev/null 2>&1; then
	script -q -e -c "'$BIN' --no-index '$demo' </dev/null 2>err" /dev/null </dev/null >pty.out
	rc=$?
	tap_check "stdout a terminal, stdin not: the report, exit 0" '[ "$rc" -eq 0 ] && grep -q "TIMING" pty.out'
	tap_eq "... after one line on stderr saying why" "$why" "$(cat err)"
	printf '%s\n' "$demo" >arg
	script -q -e -c "xargs '$BIN' --no-index <arg 2>err" /dev/null </dev/null >pty.out
	tap_check "echo RUN | xargs tscope-tui on a terminal: the report, the same one line" \
		'[ $? -eq 0 ] && grep -q "TIMING" pty.out && [ "$(cat err)" = "$why" ]'
else
	for t in report why xargs; do tap_skip "stdin not a terminal ($t): no script"; done
fi
tap_plan
