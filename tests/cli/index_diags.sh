#!/bin/sh
# index_diags.sh: the notes a steps.jsonl gets once (a phase that is not a duration, a
# memory value that is not finite, a step number that goes back, one logged again right
# after itself, one a record without phases repeats) stay once a file when the file is
# read in two parts: the index's records, then the bytes appended since (the indexed open
# that parses them, and --follow from the index). The sources and the data-quality counts
# are a plain load's, and so are those of the index the open appended to. Whether the
# last record of the index had a phase is known: a phased record of the same step first
# in the appended bytes is a step logged again right after itself, as in a plain load.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/index_diags.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# rec STEP [DATA [ALLOC]]: a record with phases (data DATA) and memory (alloc ALLOC)
rec() {
	printf '{"step":%s,"timestamp":%s.5,"phases":{"data":%s,"forward":0.03},"memory":{"alloc":%s}}\n' \
		"$1" "$((1795344100 + $1))" "${2:-0.01}" "${3:-4096.0}"
}
# bare STEP: a record without phases (an evaluation's scalars)
bare() { printf '{"step":%s,"scalars":{"eval_loss":2.5}}\n' "$1"; }
# sources DIR [OPTION]: the sources export but the index's own notes
sources() { "$T" --export sources ${2:-} "$1" 2>/dev/null | grep -v '^note,[^,]*/.tscope-index\|,index: '; }
# quality DIR [OPTION]: the data-quality line on stderr
quality() { "$T" --print ${2:-} "$1" 2>&1 >/dev/null | grep "data quality"; }

"$gen" demo 4 50 >/dev/null || exit 1
# rank 1: a negative phase and a NaN alloc in the indexed part; rank 2: a step number that
# goes back, a phased record logged again right after itself, a bare record repeating a
# step; rank 3 ends on a phased step 49
sed -i '10s/"data":[0-9.e-]*/"data":-0.5/; 12s/"alloc":[0-9.e+]*/"alloc":NaN/' demo/rank1/steps.jsonl
{ rec 10; rec 50; rec 50; bare 50; rec 51; } >>demo/rank2/steps.jsonl
"$T" index demo >/dev/null 2>&1 || exit 1
# the same again after the index
{ rec 50 -0.25; rec 51 0.01 Infinity; } >>demo/rank1/steps.jsonl
{ rec 20; rec 52; rec 52; bare 52; } >>demo/rank2/steps.jsonl
rec 49 >>demo/rank3/steps.jsonl
sources demo --no-index >want.csv
quality demo --no-index >want.q
tap_check "the plain load: each note once a file (6 notes and warnings about ranks 1-3)" \
	'[ "$(grep -c "demo/rank[123]/steps.jsonl,,[123],[0-9]*,,,,\"\(phase\|memory\|step\|a record\)" want.csv)" -eq 6 ]'
tap_check "... a phased step 49 after the last record of the index: logged again right after itself" \
	'grep -q "demo/rank3/steps.jsonl,,3,51,,,,\"step 49 is logged again right after itself" want.csv'
sources demo >got.csv
tap_check "the indexed open parsing the appended bytes: the sources = a plain load's" 'cmp -s want.csv got.csv'
"$T" --export sources demo >again.csv 2>/dev/null
tap_check "... it appended to the index (the next open parses nothing)" '! grep -q "grew\|not used" again.csv'
sources demo >got2.csv
quality demo >got2.q
tap_check "the index appended to: the sources = a plain load's" 'cmp -s want.csv got2.csv'
tap_check "... and the data-quality counts" 'cmp -s want.q got2.q && [ -s want.q ]'

# --follow from the index: the notes of the records it reads are once a file too
"$gen" fol 4 20 >/dev/null || exit 1
sed -i '5s/"data":[0-9.e-]*/"data":-0.5/' fol/rank1/steps.jsonl
"$T" index fol >/dev/null 2>&1 || exit 1
(
	for s in 20 21 22 23 24; do
		for r in 0 1 2 3; do
			if [ "$r" -eq 1 ]; then rec $s -0.25; else rec $s; fi >>fol/rank$r/steps.jsonl
		done
		sleep 0.1
	done
) &
wpid=$!
"$T" --follow --interval 0.2 --stall 2 fol >fol.out 2>fol.err
rc=$?
wait "$wpid"
tap_eq "follow: finished, exit 0" 0 "$rc"
sources fol --no-index >fwant.csv
sources fol >fgot.csv
tap_check "follow then reopen: one negative phase note for rank 1, as a plain load" \
	'cmp -s fwant.csv fgot.csv && [ "$(grep -c "phase \"\"data\"\" is -" fgot.csv)" -eq 1 ]'
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
