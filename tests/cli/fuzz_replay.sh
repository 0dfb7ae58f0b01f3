#!/bin/sh
# fuzz_replay.sh: every fuzz harness (tests/fuzz/fuzz_NAME.c), built with a plain main()
# as build/tests/replay_NAME, runs over its seed corpus (tests/fuzz/corpus/NAME) and its
# regression inputs (tests/fuzz/regress/NAME: each crash `make fuzz` ever found, kept
# after the fix). Under `make check-asan` this is the ASan+UBSan replay.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
for src in "$TSCOPE_ROOT"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c | sed 's/^fuzz_//')
	bin="$TSCOPE_ROOT/$TSCOPE_BUILD/tests/replay_$name"
	seeds="$TSCOPE_ROOT/tests/fuzz/corpus/$name"
	regress="$TSCOPE_ROOT/tests/fuzz/regress/$name"
	[ -d "$regress" ] || regress=""
	TMPDIR="$TSCOPE_TMP" "$bin" "$seeds" $regress >out 2>err
	rc=$?
	n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' out)
	tap_check "fuzz_$name: ${n:-0} seed and regression inputs replay cleanly" '[ "$rc" -eq 0 ] && [ "${n:-0}" -gt 0 ]'
	[ "$rc" -eq 0 ] || sed 's/^/#   /' err | head -20
done
tap_plan
