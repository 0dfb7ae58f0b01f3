#!/bin/sh
# export_parts.sh: `--export steps` without --sort is written part by part (whole ranks,
# about 65,536 rows each: memory is one part's, BENCHMARKS.md "The steps export in
# parts"): the same bytes as the whole table (--sort rank is stable: the records keep
# their order), to stdout or -o FILE, with --filter, from the index, in --export all.
# A termination signal while the -o temporary file exists (signals are held then)
# stops the write at the next part: no file, no temporary file, exit 128 + N; strace
# injects it at the second write (exact, no timing) and the check skips without it.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$gen" run 70 1000 >/dev/null || exit 1 # 70,000 records: two parts

"$T" --export steps --sort rank --no-index run >whole.csv 2>/dev/null
"$T" --export steps --no-index run >parts.csv 2>/dev/null
tap_check "70 x 1,000 steps in parts = the whole table, byte for byte" \
	'[ "$(wc -l <whole.csv)" -eq 70001 ] && cmp -s whole.csv parts.csv'
"$T" --export steps --no-index -o out.csv run 2>/dev/null
tap_check "-o FILE: the same" 'cmp -s whole.csv out.csv'
"$T" --export steps --sort rank --filter "step>=990 rank!=3" --no-index run >wf.csv 2>/dev/null
"$T" --export steps --filter "step>=990 rank!=3" --no-index run >pf.csv 2>/dev/null
tap_check "--filter holds in every part" '[ "$(wc -l <wf.csv)" -eq 691 ] && cmp -s wf.csv pf.csv'
"$T" --export steps --filter "nosuch>1" --no-index run >/dev/null 2>err.txt
rc=$?
tap_check "--filter naming no column: exit 2 before anything is written, the columns listed" \
	'[ "$rc" -eq 2 ] && grep -q "^tscope-tui: --filter: " err.txt && grep -q "step_time_ms" err.txt'
"$T" index run >/dev/null 2>&1
"$T" --export steps run >idx.csv 2>/dev/null
tap_check "from the index (bodies read part by part): the same" 'cmp -s whole.csv idx.csv'
"$T" --export all -o all run >all.txt 2>/dev/null
tap_check "--export all: steps.csv the same, its row count said" \
	'cmp -s whole.csv all/steps.csv && grep -q "steps.csv	70000 rows$" all.txt'

if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	tap_skip "SIGINT while writing -o FILE: strace cannot trace here (not installed, or ptrace is not allowed)"
else
	strace -f -qq -o /dev/null -e trace=write -e inject=write:signal=INT:when=2 \
		"$T" --export steps --no-index -o sig.csv run >/dev/null 2>&1
	rc=$?
	tap_check "SIGINT while writing -o FILE: exit 130 at the next part, no file, no temporary file" \
		'[ "$rc" -eq 130 ] && [ ! -e sig.csv ] && ! ls -a | grep -q "^\.tscope-"'
fi
tap_plan
