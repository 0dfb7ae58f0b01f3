#!/bin/sh
# The README's screen capture (the demo at 100x26 after `n`) is what the explorer draws:
# the headless explorer (TSCOPE_SCRIPT) presses n and dumps its screen; the dump, trailing
# blanks dropped, must equal the README's block that follows "a 100x26 capture".
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
work="$TSCOPE_TMP/readme_capture"
mkdir -p "$work"
printf 'n\n:dump %s/screen\n' "$work" >"$work/script"
(cd "$work" && env -i PATH="$PATH" HOME="$work" LINES=26 COLUMNS=100 TERM=dumb LC_ALL=C.UTF-8 \
	TSCOPE_SCRIPT="$work/script" "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >"$work/out" 2>&1)
tap_rc $? "the explorer ran the script on the demo"
awk '/a 100x26 capture/ { f = 1; next } f && /^```/ { if (in_block) exit; in_block = 1; next } in_block' \
	"$TSCOPE_ROOT/README.md" | sed 's/ *$//' >"$work/readme"
sed 's/ *$//' "$work/screen" 2>/dev/null >"$work/got"
if cmp -s "$work/readme" "$work/got"; then
	tap_ok "the README's capture is the screen the explorer draws"
else
	tap_notok "the README's capture is the screen the explorer draws"
	diff "$work/readme" "$work/got" | sed 's/^/# /'
fi
tap_check "the README holds a 26-line capture" '[ "$(wc -l <"$work/readme")" -eq 26 ]'
tap_plan
