#!/bin/sh
# print_empty.sh: a PATH that yields nothing says why on stderr (the first diagnostics,
# then pytscope's message) and exits 1; non-pytscope formats get tscope-tui's header.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

"$TSCOPE_BIN" --print ./no-such-dir >out 2>err
rc=$?
tap_check "missing path: exit 1" '[ "$rc" -eq 1 ]'
tap_check "missing path: stdout empty" '[ ! -s out ]'
tap_check "missing path: the reason comes first" 'head -1 err | grep -q "no-such-dir: cannot open: No such file or directory"'
tap_check "missing path: pytscope message" 'grep -qx "No steps or trace found in '"'"'./no-such-dir'"'"'." err'

mkdir -p empty
"$TSCOPE_BIN" --print empty >out 2>err
rc=$?
tap_check "empty dir: exit 1" '[ "$rc" -eq 1 ]'
tap_check "empty dir: says nothing supported was found" 'grep -q "empty: no supported data found here" err'

real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ -d "$real" ]; then
	"$TSCOPE_BIN" --print "$real" >out 2>err
	tap_check "GenAI-Perf run: tscope-tui header, not pytscope's" 'head -1 out | grep -q "^tscope-tui — genai-perf-medium  ("'
else
	tap_skip "../shared/real/genai-perf-medium is absent"
fi
