#!/bin/sh
# Run the whole suite: every unit test binary, then every tests/cli/*.sh and
# tests/ui/*.sh script. Each prints TAP lines ("ok N - ...", "not ok N - ...",
# "ok N # SKIP why"). Prints failures in full and ends with "N passed, N failed".
# Environment: TSCOPE_BUILD (build dir, default build), UPDATE=1 rewrites goldens.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
export TSCOPE_BUILD="$BUILD" TSCOPE_BIN="$PWD/$BUILD/tscope-tui" TSCOPE_ROOT="$PWD"
export TZ=UTC LC_ALL=C.UTF-8
unset NO_COLOR FORCE_COLOR
out=$(mktemp -d "${TMPDIR:-/tmp}/tscope-test.XXXXXX")
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 skip=0

run_one() {
	name=$1; shift
	log="$out/$(echo "$name" | tr '/' '_').log"
	TSCOPE_TMP="$out/tmp.$$" && mkdir -p "$TSCOPE_TMP" && export TSCOPE_TMP
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	s=$(grep -c '^ok .*# SKIP' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name"
		sed 's/^/    /' "$log"
	else
		if [ "$s" -gt 0 ]; then echo "ok   $name ($((p - s)) passed, $s skipped)"; else echo "ok   $name ($((p - s)) passed)"; fi
	fi
	grep '# SKIP' "$log" | sed 's/^/    /'
	rm -rf "$TSCOPE_TMP"
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/cli/*.sh tests/ui/*.sh; do
	[ -f "$t" ] || continue
	run_one "$t" sh "$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
