#!/bin/sh
# The real explorer on a pseudo-terminal (util-linux `script`), bounded by --max-frames:
# it draws, quits by itself with status 0 and leaves the terminal as it found it. Run by
# `make check-asan` too, so the tty path (not only the headless one) runs under ASan.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
if ! command -v script >/dev/null 2>&1; then
	tap_skip "script(1) is not installed"; tap_plan
	exit 0
fi
cd "$TSCOPE_TMP" || exit 1
TERM=xterm-256color timeout 60 script -q -e -c "'$TSCOPE_BIN' --max-frames 3 '$TSCOPE_ROOT/testdata/demo'" out.log </dev/null >/dev/null 2>&1
rc=$?
if [ $rc -eq 0 ]; then tap_ok "--max-frames 3 exits 0 on a pty"; else tap_notok "--max-frames 3 exit status $rc"; fi
if grep -q "Heatmap" out.log; then tap_ok "the heatmap frame was drawn"; else tap_notok "no frame in the pty output"; fi
# the alternate screen is entered and left again (smcup ... rmcup)
if grep -q "$(printf '\033\\[?1049l')" out.log; then tap_ok "the terminal is restored on exit (rmcup)"; else tap_notok "no rmcup on exit"; fi
tap_plan
