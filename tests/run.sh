#!/bin/sh
# Run the whole suite: every unit test binary, then every tests/cli/*.sh and
# tests/ui/*.sh script. Each prints TAP lines ("ok N - ...", "not ok N - ...",
# "ok N # SKIP why") and one plan line "1..N", which must count them. Prints failures
# in full and ends with "N passed, N failed".
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

# plan_check LOG N: the log's one plan line ("1..N") says N checks ran; a script without
# one, or whose plan differs, stopped early or lost checks (said in the log)
plan_check() {
	plan=$(grep -E '^1\.\.[0-9]+' "$1" | sed 's/^1\.\.\([0-9]*\).*/\1/')
	[ "$plan" = "$2" ] && return 0
	echo "not ok - plan ${plan:-missing}, $2 checks ran" >>"$1"
	return 1
}

run_one() {
	name=$1; shift
	log="$out/$(echo "$name" | tr '/' '_').log"
	TSCOPE_TMP="$out/tmp.$$" && mkdir -p "$TSCOPE_TMP" && export TSCOPE_TMP
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	s=$(grep -c '^ok .*# SKIP' "$log")
	f=$(grep -c '^not ok ' "$log")
	ran=$((p + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	plan_check "$log" "$ran" || f=$((f + 1))
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
