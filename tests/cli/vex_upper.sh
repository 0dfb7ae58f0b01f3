#!/bin/sh
# vex_upper.sh: every function of the binary that runs 256- or 512-bit VEX/EVEX code
# on the registers legacy SSE shares (ymm0-15, zmm0-15) ends it with vzeroupper. GCC
# inserts one only where a function writes a ymm/zmm register; a function that only
# reads a 256-bit operand from memory (vcvtpd2psy) is left with the upper halves dirty,
# and on Intel cores every SSE instruction after it (the rest of the program is SSE2)
# then pays a merge until the next vzeroupper: a 10-step heatmap row's cells took 50
# times their time (model/steps/heat_kernels.c, BENCHMARKS.md).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
if [ "$(uname -m)" != x86_64 ] || ! command -v objdump >/dev/null 2>&1; then
	tap_skip "not an x86-64 machine with objdump (binutils)"
	tap_plan
	exit 0
fi
case ${TSCOPE_BUILD:-build} in
*asan*)
	tap_skip "sanitizer build: at -O1 GCC inserts no vzeroupper at all (its pass needs -O2)"
	tap_plan
	exit 0 ;;
esac
objdump -d --no-show-raw-insn "$TSCOPE_BIN" >dis.txt
dirty=$(awk '
	/^[0-9a-f]+ <.*>:$/ { if (name != "" && wide && !vz) print name; name = $2; wide = 0; vz = 0; next }
	/%[yz]mm([0-9]|1[0-5])[^0-9]/ || /\tvcvt[a-z0-9]*y / { wide = 1 }
	/vzeroupper/ { vz = 1 }
	END { if (wide && !vz) print name }' dis.txt)
count=$(grep -c vzeroupper dis.txt)
tap_check "the binary has 256/512-bit paths (the check sees them: $count vzeroupper)" '[ "$count" -gt 0 ]'
tap_eq "no function leaves the upper ymm/zmm halves dirty" "" "$dirty"
tap_plan
