#!/bin/sh
# print_ascii.sh: the report in ASCII under a locale that is not UTF-8 (LANG=C on a login
# node) or --ascii: every byte under 0x80, and otherwise the UTF-8 report itself, each
# character by the explorer's ASCII stand-in (sparklines, bars, dashes, dots, arrows);
# SGR colour codes untouched; --compat pytscope keeps pytscope's UTF-8 bytes whatever
# the locale; the comparison report and --follow's lines likewise. A table cell clipped
# in the DASF or comparison report ends in "~" (one column, as "…"), so its columns stay
# where the UTF-8 report has them; a wide character's cell is padded by display columns.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1

high=$(printf '[\200-\377]')
# ascii_only FILE: no byte of FILE is 0x80 or above
ascii_only() { ! LC_ALL=C grep -q "$high" "$1"; }
# translit: the UTF-8 report's characters as the ASCII report writes them
translit() {
	sed 's/—/-/g; s/·/-/g; s/●/*/g; s/→/->/g; s/←/<-/g; s/…/.../g; s/≥/>=/g; s/≤/<=/g' |
		sed 's/×/x/g; s/²/^2/g; s/Δ/d/g; s/•/*/g' |
		sed 's/▁/_/g; s/▂/./g; s/▃/-/g; s/▄/-/g; s/▅/=/g; s/▆/+/g; s/▇/*/g; s/█/#/g; s/░/./g; s/▒/=/g'
}

LC_ALL=C "$BIN" --print --color never "$demo" >c.out 2>c.err
tap_eq "LC_ALL=C --print: exit 0" 0 "$?"
LC_ALL=C.UTF-8 "$BIN" --print --color never "$demo" >u.out 2>u.err
tap_check "the UTF-8 report has non-ASCII glyphs (sparklines, bars, dots)" '! ascii_only u.out && grep -q "▁" u.out'
tap_check "LC_ALL=C: every byte of the report is ASCII" 'ascii_only c.out'
translit <u.out >u.ascii
tap_check "LC_ALL=C: the UTF-8 report, each glyph by its ASCII stand-in, nothing else changed" 'cmp -s c.out u.ascii'
tap_check "LC_ALL=C: headings and sparklines read as ASCII" \
	'grep -q "^\* TIMING (rank 0) - 400 steps - 123.0 ms/step" c.out && grep -q "^  step time  __*#" c.out &&
	 grep -q "^  data       ##\.\.\.*   8\.1%" c.out'
LC_ALL=C.UTF-8 "$BIN" --print --ascii --color never "$demo" >a.out
tap_check "--ascii under a UTF-8 locale: the same report" 'cmp -s c.out a.out'

LC_ALL=C "$BIN" --print --color always "$demo" >color.out
tap_check "LC_ALL=C --color always: SGR codes kept, the text ASCII" \
	'ascii_only color.out && grep -q "$(printf "\033")\[1mTIMING" color.out'

LC_ALL=C "$BIN" --print --compat pytscope --color never "$demo" >cc.out
LC_ALL=C.UTF-8 "$BIN" --print --compat pytscope --color never "$demo" >cu.out
LC_ALL=C.UTF-8 "$BIN" --print --compat pytscope --ascii --color never "$demo" >ca.out
tap_check "--compat pytscope: pytscope's UTF-8 bytes whatever the locale or --ascii" \
	'cmp -s cc.out cu.out && cmp -s cc.out ca.out && ! ascii_only cc.out'

# the comparison report (two runs of one family)
cp -r "$demo" a && cp -r "$demo" b
LC_ALL=C "$BIN" --print --color never a b >cmp_c.out 2>/dev/null
LC_ALL=C.UTF-8 "$BIN" --print --color never a b >cmp_u.out 2>/dev/null
translit <cmp_u.out >cmp_u.ascii
tap_check "comparison report under LC_ALL=C: ASCII, otherwise the UTF-8 one" \
	'! ascii_only cmp_u.out && ascii_only cmp_c.out && cmp -s cmp_c.out cmp_u.ascii'

# --follow's lines (no tty): a finished job, MFU known, so a finding title holds a dash
FOLLOW_WRITER_FINISH=1 sh "$TSCOPE_ROOT/tests/tools/follow_writer.sh" fin 4 0 30 0 >/dev/null
for loc in C C.UTF-8; do
	LC_ALL=$loc "$BIN" --follow --interval 0.2 --stall 1 --flops-per-step 1e12 --peak-tflops 100 fin \
		>"follow_$loc.out" 2>/dev/null
done
tap_check "--follow under a UTF-8 locale: the MFU finding's dash" \
	'grep -q "EFFICIENCY.LOW_MFU MFU is 33% — 67%" follow_C.UTF-8.out'
tap_check "--follow under LC_ALL=C: the same line in ASCII" \
	'ascii_only follow_C.out && grep -q "EFFICIENCY.LOW_MFU MFU is 33% - 67% of wall is recoverable" follow_C.out'

# Clipped cells of the DASF report's tables and of a comparison's table end in "~" under
# LC_ALL=C, one column as the UTF-8 "…", never the 3-column "..." that pushed the later
# columns right: the ASCII report is the UTF-8 one with that ellipsis as "~".
clipped() { sed 's/\([^ ]\)…/\1~/g' "$1" | translit; } # a cut cell's … (after its text) as ~
gen_dasf="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf"
"$gen_dasf" run da 0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa load_parquet_partition_function_x &&
	"$gen_dasf" run db 50 bbbb 函数名称很长的函数名称很长的 || tap_notok "DASF runs generated"
for loc in C C.UTF-8; do
	LC_ALL=$loc "$BIN" --print --color never da >"dasf_$loc.out" 2>/dev/null
	LC_ALL=$loc "$BIN" --print --color never da db >"dcmp_$loc.out" 2>/dev/null
done
tap_check "DASF report under LC_ALL=C: a clipped task key ends in ~, the next columns where the UTF-8 report has them" \
	'grep -q "^      1 (.load-a*~ load  *h0  " dasf_C.out && clipped dasf_C.UTF-8.out | cmp -s - dasf_C.out'
tap_check "DASF comparison under LC_ALL=C: a clipped function ends in ~, its row aligned as in UTF-8" \
	'grep -q "^  load_parquet_partition_~ only_in_A  " dcmp_C.out &&
	 [ "$(clipped dcmp_C.UTF-8.out | grep -v "^  函数")" = "$(grep -v "^  ??*  *only_in_B" dcmp_C.out)" ]'
tap_check "DASF comparison: a clipped wide-character name is padded by display columns" \
	'grep -q "^  函数名称很长的函数名称…  only_in_B  " dcmp_C.UTF-8.out &&
	 grep -q "^  ??????????????           only_in_B  " dcmp_C.out'
tap_plan
