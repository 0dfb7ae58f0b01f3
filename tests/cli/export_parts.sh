#!/bin/sh
# export_parts.sh: `--export steps` without --sort is written part by part (whole ranks,
# about 65,536 rows each: memory is one part's, BENCHMARKS.md "The steps export in
# parts"): the same bytes as the whole table sorted by rank (stable: the records keep
# their order; the merge below), to stdout or -o FILE, with --filter, from the index, in
# --export all.
# With --sort the parts are sorted and merged through a temporary file
# (model/table_merge.h): the rows of a stable sort of the whole table (sort -s as the
# reference), with --filter, -o, from the index; a bad column still exits 2 first; a
# temporary directory that cannot be used is named; without O_TMPFILE (strace says so) a
# named temporary file is used and removed. A slow export shows a progress line on a
# terminal's stderr (ASCII under LC_ALL=C). A termination signal while the -o
# temporary file exists (signals are held then) stops the write at the next part: no
# file, no temporary file, exit 128 + N; strace injects it at the second write (exact,
# no timing) and the check skips without it.
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

"$T" --export steps --sort -step_time_ms --no-index run >sorted.csv 2>/dev/null
{ head -1 whole.csv; tail -n +2 whole.csv | sort -s -t, -k4,4gr; } >ref.csv
tap_check "--sort -step_time_ms over two parts: the whole table's stable sort (sort -s)" \
	'[ "$(wc -l <sorted.csv)" -eq 70001 ] && cmp -s ref.csv sorted.csv'
"$T" --export steps --sort step --filter "rank>=60" --no-index -o sf.csv run 2>/dev/null
{ head -1 whole.csv; tail -n +2 whole.csv | awk -F, '$1 >= 60' | sort -s -t, -k2,2g; } >sfref.csv
tap_check "--sort step --filter rank>=60 -o FILE: the same rows in the same order; no temporary file left" \
	'cmp -s sfref.csv sf.csv && ! ls -a | grep -q "^\.tscope-"'
"$T" --export steps --sort nosuch --no-index run >/dev/null 2>err.txt
rc=$?
tap_check "--sort naming no column: exit 2, the columns listed" \
	'[ "$rc" -eq 2 ] && grep -q "^tscope-tui: --sort: unknown column" err.txt && grep -q "step_time_ms" err.txt'
TMPDIR=$PWD/nosuchdir "$T" --export steps --sort step --no-index run >/dev/null 2>err.txt
rc=$?
tap_check "a TMPDIR that cannot hold the sort's temporary file: exit 1, the directory named" \
	'[ "$rc" -eq 1 ] && grep -q "cannot sort through a temporary file in .*nosuchdir: No such file" err.txt'
"$T" index run >/dev/null 2>&1
"$T" --export steps --sort -step_time_ms run >isorted.csv 2>/dev/null
tap_check "--sort from the index: the same" 'cmp -s sorted.csv isorted.csv'
"$T" --export steps run >idx.csv 2>/dev/null
tap_check "from the index (bodies read part by part): the same" 'cmp -s whole.csv idx.csv'
"$T" --export all -o all run >all.txt 2>/dev/null
tap_check "--export all: steps.csv the same, its row count said" \
	'cmp -s whole.csv all/steps.csv && grep -q "steps.csv	70000 rows$" all.txt'

# The progress line on a terminal's stderr (a pty from util-linux script) while the
# rows go to a FIFO read slowly (64 KB, a 1 s pause, the rest): "export steps: N rows",
# with --sort "merging steps: N / 70000 rows (P%)", erased at the end; the CSV whole. The
# pty has no size: the line fits $COLUMNS (120 here, where the whole of it fits; at 80 the
# rate would be left out: tests/ui/progress_width_tmux.sh).
slow_export() { # CSV-OUT TTY-OUT OPTS...
	out=$1 tty=$2
	shift 2
	rm -f fifo && mkfifo fifo || return 1
	{ dd bs=65536 count=1 2>/dev/null; sleep 1; cat; } <fifo >"$out" &
	LC_ALL=${LC:-$LC_ALL} COLUMNS=120 TERM=xterm \
		script -q -e -c "\"$T\" --export steps --no-index -o fifo $* run" /dev/null </dev/null >"$tty" 2>&1
	rc=$?
	wait
	return $rc
}
if ! command -v script >/dev/null 2>&1; then
	tap_skip "the export's progress line: util-linux script not installed"
else
	slow_export slow.csv slow.tty
	rc=$?
	tap_check "a slow export, stderr a terminal: \"export steps: N rows\", erased; the CSV whole" \
		'[ "$rc" -eq 0 ] && grep -q "tscope-tui: export steps: [0-9]* rows · [0-9]* rows/s" slow.tty &&
		 grep -q "$(printf "\r\033\\[K")" slow.tty && cmp -s whole.csv slow.csv'
	slow_export slows.csv slows.tty --sort -step_time_ms
	rc=$?
	tap_check "... sorted: \"merging steps: N / 70000 rows (P%)\" with an ETA; the CSV sorted" \
		'[ "$rc" -eq 0 ] && grep -q "tscope-tui: merging steps: [0-9]* / 70000 rows ([0-9]*%) · .* · ETA" slows.tty &&
		 cmp -s sorted.csv slows.csv'
	LC=C slow_export slowc.csv slowc.tty
	rc=$?
	tap_check "... under LC_ALL=C the line is ASCII (\" - \" for the middle dots)" \
		'[ "$rc" -eq 0 ] && grep -q "tscope-tui: export steps: [0-9]* rows - [0-9]* rows/s" slowc.tty &&
		 ! LC_ALL=C grep -q "$(printf "\302\267")" slowc.tty'
fi

if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	tap_skip "SIGINT while writing -o FILE: strace cannot trace here (not installed, or ptrace is not allowed)"
else
	strace -f -qq -o /dev/null -e trace=write -e inject=write:signal=INT:when=2 \
		"$T" --export steps --no-index -o sig.csv run >/dev/null 2>&1
	rc=$?
	tap_check "SIGINT while writing -o FILE: exit 130 at the next part, no file, no temporary file" \
		'[ "$rc" -eq 130 ] && [ ! -e sig.csv ] && ! ls -a | grep -q "^\.tscope-"'
	strace -f -qq -o /dev/null -e trace=write -e inject=write:signal=INT:when=2 \
		"$T" --export steps --sort step --no-index -o sigs.csv run >/dev/null 2>&1
	rc=$?
	tap_check "SIGINT while sorting into -o FILE: exit 130, no file, no temporary file" \
		'[ "$rc" -eq 130 ] && [ ! -e sigs.csv ] && ! ls -a | grep -q "^\.tscope-"'
	mkdir nt # (LeakSanitizer cannot run under ptrace: off for this traced process)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -o nt.log -P "$PWD/nt" -e trace=openat -e inject=openat:error=EOPNOTSUPP:when=1 \
		"$T" --export steps --sort -step_time_ms --no-index -o "$PWD/nt/s.csv" run >/dev/null 2>&1
	rc=$?
	tap_check "a file system without O_TMPFILE: a named temporary file, removed at once; the same CSV" \
		'[ "$rc" -eq 0 ] && grep -q "O_TMPFILE.*INJECTED" nt.log && cmp -s sorted.csv nt/s.csv &&
		 [ "$(ls -a nt | grep -vc "^\.\.*$")" -eq 1 ]'
fi
tap_plan
