# SPDX-License-Identifier: MIT
# tap.sh: the TAP helpers every tests/cli/*.sh and tests/ui/*.sh script sources
# (. "$TSCOPE_ROOT/tests/tap.sh"). One counter, tap_n, numbers every line a script
# prints through these functions, so checks, skips and the plan stay in step.
#   tap_ok DESC            "ok N - DESC"
#   tap_notok DESC         "not ok N - DESC"
#   tap_check DESC EXPR    eval EXPR (in the caller's variables): ok if it succeeds
#   tap_rc RC DESC         ok if RC (an exit status, usually $?) is 0
#   tap_eq DESC WANT GOT   ok if the strings are equal, else also prints want/got as comments
#   tap_skip WHY           "ok N # SKIP WHY"
#   tap_plan               "1..N" for the lines printed so far
#   tap_flip FILE OFFSET   complement the byte at OFFSET: a damage that always changes it
#                          (setting a byte to a value can leave it as it was)
tap_n=0
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"; }
tap_check() { if eval "$2"; then tap_ok "$1"; else tap_notok "$1"; fi; }
tap_rc() { if [ "$1" -eq 0 ]; then tap_ok "$2"; else tap_notok "$2"; fi; }
tap_eq() {
	if [ "$2" = "$3" ]; then tap_ok "$1"; else
		tap_notok "$1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3"; fi
}
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
tap_plan() { echo "1..$tap_n"; }
tap_flip() {
	_tap_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf %03o $((255 - _tap_b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
