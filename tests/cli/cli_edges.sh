#!/bin/sh
# cli_edges.sh: command-line edges an audit found. --filter quotes a column name or a
# value with spaces, names a term it cannot read (an operator first, but for '<' and a
# letter: '<float' is a text to search for), says when it keeps no row, matches
# '~' on a number's full-precision text and '-' as missing; repeated --filter terms add
# up, any other option given twice takes the last value (as getopt tools do: an alias's
# --color=always then --color never on the line); --flops-per-step
# and --peak-tflops must be > 0; --export reports data quality as --print does; a
# --trace or --kernel-classes file that cannot be opened is named with why (exit 1),
# each bad rule line is its own diagnostic; -o '' is a usage error; --tui without a
# terminal says why; --color auto gives no colour on a terminal with TERM dumb or unset;
# a --ranks reason quoting the argument is sanitized; a PATH ending in '/' names configs
# and sources as without it (a filter on a config name keeps its row); a --trace
# directory holding no trace is an error naming it, and a trace named twice (another
# spelling, or in a --trace directory too) is read once.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
T="$BIN --no-index"

# --filter: quoting (a node name with a space)
$T --export ranks --filter "node='node 1'" "$demo" >q1 2>err
tap_check "node='node 1': the ranks of node 1" '[ $? -eq 0 ] && [ "$(tail -n +2 q1 | wc -l)" -eq 8 ] &&
	! tail -n +2 q1 | grep -qv ",node 1$"'
$T --export ranks --filter 'node="node 1"' "$demo" | cmp -s - q1
tap_rc $? 'node="node 1": the same'
$T --export ranks --filter 'node=node 1' "$demo" >out 2>err
tap_check "node=node 1 (unquoted): no row, said on stderr, exit 0" \
	'[ $? -eq 0 ] && [ "$(wc -l <out)" -eq 1 ] && grep -q "^tscope-tui: --filter .* keeps no row of .ranks.*quote" err'
$T --export ranks --filter "''=3" "$demo" >out 2>err
tap_check "a term with an empty column name: exit 2, named" '[ $? -eq 2 ] && grep -q "names no column" err'
$T --export ranks --filter '<float' "$demo" >out 2>err
tap_check "a bare text that starts with '<' and a letter ('<float'): searched, not an error" \
	'[ $? -eq 0 ] && grep -q "keeps no row" err'
for f in '>1' '<5' '=x' '!=3' '~1' 'rank >1'; do
	$T --export ranks --filter "$f" "$demo" >out 2>err
	tap_check "an operator without a column ($f): exit 2, the term named, no CSV" \
		'[ $? -eq 2 ] && grep -q "^tscope-tui: --filter: .${f#rank }. names no column: write COL" err && [ ! -s out ]'
done
$T --export ranks --filter "'=x'" "$demo" >out 2>err
tap_check "a quoted term ('=x'): a text to search for" '[ $? -eq 0 ] && grep -q "keeps no row" err'
$T --export ranks --filter "node='node 1" "$demo" >out 2>err
tap_check "an unclosed quote: exit 2" '[ $? -eq 2 ] && grep -q "a quote is not closed" err'
$T --export ranks --filter 'nosuch=1' "$demo" >out 2>err
tap_check "unknown column: the columns listed comma-separated" \
	'[ $? -eq 2 ] && grep -q "^tscope-tui: columns of .ranks.: rank, records, mean_compute_ms, " err &&
	 ! grep -q "data quality" err'

# '~' on a number: the CSV's full-precision text; '-' selects missing values
$T --export ranks --filter 'mean_compute_ms~108.9657' "$demo" >out 2>err
tap_check "mean_compute_ms~108.9657: the rank whose CSV cell is 108.965797985" \
	'[ "$(tail -n +2 out | cut -d, -f3)" = 108.965797985 ]'
$T --export ranks --filter 'onset_step=-' "$demo" >miss 2>err
m=$?
$T --export ranks --filter 'onset_step!=-' "$demo" >pres 2>>err
tap_check "onset_step=- / !=-: missing and present, 16 rows between them" \
	'[ $m -eq 0 ] && ! tail -n +2 miss | cut -d, -f9 | grep -q . && ! tail -n +2 pres | cut -d, -f9 | grep -qx "" &&
	 [ $(( $(wc -l <miss) + $(wc -l <pres) - 2 )) -eq 16 ]'

# repeated options
$T --export ranks --filter 'rank>=2' --filter 'rank<4' "$demo" >out 2>err
tap_check "--filter twice: both apply (ranks 2 and 3)" '[ "$(tail -n +2 out | cut -d, -f1 | tr "\n" " ")" = "2 3 " ]'
$T --export ranks --ranks 0 --ranks 1 "$demo" >out 2>err
tap_check "--ranks twice: the last counts (rank 1)" '[ $? -eq 0 ] && [ "$(tail -n +2 out | cut -d, -f1)" = 1 ]'
$T --export ranks --sort rank --sort -rank "$demo" >out 2>err
tap_check "--sort twice: the last counts (descending)" '[ "$(sed -n 2p out | cut -d, -f1)" = 15 ]'

# --flops-per-step, --peak-tflops: > 0
for args in "--flops-per-step -5" "--flops-per-step 0" "--peak-tflops -1" "--peak-tflops 0"; do
	$T --print $args "$demo" >out 2>err
	tap_check "$args: exit 2" '[ $? -eq 2 ] && grep -q "must be > 0" err && [ ! -s out ]'
done

# --export reports data quality on stderr, as --print does
cp -r "$demo" bad
sed '5s/.*/{garbage/' bad/rank3/steps.jsonl >s && mv s bad/rank3/steps.jsonl
$T --export ranks bad >out 2>err
rc=$?
$T --print bad >/dev/null 2>perr
prc=$?
tap_check "--export: the data-quality line of --print, same exit status" \
	'[ $rc -eq $prc ] && grep -q "^tscope-tui: data quality: 0 errors, 1 warning, 0 notes (1 record skipped)" err &&
	 [ "$(grep "data quality" err)" = "$(grep "data quality" perr)" ]'

# A file named on an option that cannot be opened: named with why, exit 1 (as a missing
# PATH), in every mode, before anything is loaded.
for opt in "--trace nonexist.json" "--kernel-classes nonexist.txt"; do
	for mode in --print "--export sources" --tui; do
		# shellcheck disable=SC2086
		$T $mode $opt "$demo" >out 2>err </dev/null
		tap_check "$mode $opt: exit 1, the file named with why" '[ $? -eq 1 ] && [ ! -s out ] &&
			grep -qx "tscope-tui: ${opt% *} ${opt#* }: cannot open: No such file or directory" err'
	done
done
mkdir -p kcdir
$T --print --kernel-classes kcdir "$demo" >out 2>err
tap_check "--kernel-classes naming a directory: exit 1, why" \
	'[ $? -eq 1 ] && grep -qx "tscope-tui: --kernel-classes kcdir: cannot open: Is a directory" err'
gen_trace="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
[ -x "$gen_trace" ] || gen_trace="$TSCOPE_BUILD/tests/gen_trace"
mkdir -p tr && "$gen_trace" tr/rank0.pt.trace.json 1 0
$T --print --trace tr/rank0.pt.trace.json "$demo" >out 2>err
tap_check "--trace naming a trace file: read" '[ $? -eq 0 ] && ! grep -q "cannot open" err'
$T --print --trace tr "$demo" >out 2>err
tap_check "--trace naming a directory: read" '[ $? -eq 0 ] && ! grep -q "cannot open" err'
# a --trace directory without a trace: an error naming it (the run's own trace is not
# read), not the run's trace dropped in silence; the same trace named twice is read once
mkdir -p notr own/rank0 && cp "$demo/rank0/run.json" "$demo/rank0/steps.jsonl" own/rank0/ &&
	cp tr/rank0.pt.trace.json own/trace.json
$T --export sources --trace notr own >out 2>err
tap_check "--trace DIR holding no trace: an error naming it, counted in the data-quality line" \
	'[ $? -eq 0 ] && grep -q "^error,notr,,,,,,,\"no trace file here for --trace (" out &&
	 grep -q "the run.s own traces are not read\"$" out && grep -q "data quality: 1 error," err'
$T --export sources --trace tr/rank0.pt.trace.json --trace ./tr/rank0.pt.trace.json --trace tr own >out 2>err
tap_check "--trace naming one trace three times: read once, no rank claimed twice" \
	'[ $? -eq 0 ] && [ "$(grep -c "^file,.*rank0.pt.trace.json,kineto,0,.*,ok$" out)" -eq 1 ] &&
	 ! grep -q "claimed" out && [ ! -s err ]'
# a rules file with several bad lines: one diagnostic each, with its file:line
printf 'communication ([\nbogusclass foo\nmemory\n# c\n\ncomputation ^x\n' >badkc.txt
$T --export sources --kernel-classes badkc.txt tr >out 2>err
tap_check "--kernel-classes: each bad line its own diagnostic, with its line" \
	'[ "$(grep -c "^error,badkc.txt,,,[123],.*--kernel-classes: " out)" -eq 3 ] && ! grep -q "\^J" out &&
	 grep -q "^error,badkc.txt,,,1,.*invalid regular expression .(\[. (regcomp: " out'

# -o with an empty name: a usage error
$T --export ranks -o '' "$demo" >out 2>err
tap_check "-o '': usage error (exit 2)" '[ $? -eq 2 ] && grep -q "^tscope-tui: --output .*an empty name" err'
$T --export all -o '' "$demo" >out 2>err
tap_check "--export all -o '': usage error (exit 2)" '[ $? -eq 2 ]'

# --tui without a terminal: the report, and one line saying why
if command -v setsid >/dev/null 2>&1; then
	setsid $T --tui "$demo" </dev/null >out 2>err
	tap_check "--tui without a terminal: why on stderr, the report on stdout" \
		'[ $? -eq 0 ] && [ -s out ] && grep -q "^tscope-tui: no terminal to draw on .*; printing the report instead$" err'
else
	tap_skip "--tui without a terminal (no setsid)"
fi

# --ranks quotes the bad item in its reason too: sanitized there as in the first quote
$T --print --ranks "$(printf '1\033[2J')" "$demo" >out 2>err
tap_check "--ranks with an escape: exit 2, no raw escape in the message" \
	'[ $? -eq 2 ] && ! grep -q "$(printf "\033")" err && [ "$(grep -o "1^\[\[2J" err | wc -l)" -eq 2 ]'

# --color auto on a terminal that shows no colour (TERM dumb or unset, as git and ls
# decide): none, the explorer's fallback report included; --color always and --compat
# pytscope (whose rule is the terminal alone) keep it. The terminal is a pty from script.
if command -v script >/dev/null 2>&1; then
	esc=$(printf '\033') sgr=$(printf '\033\\[[0-9;]*m')
	on_pty() { script -q -e -c "$T $*" /dev/null </dev/null >pty.out 2>&1; }
	TERM=xterm on_pty --print "$demo"
	tap_check "TERM=xterm, a terminal: the report in colour" 'grep -q "$sgr" pty.out'
	TERM=dumb on_pty --print "$demo"
	tap_check "TERM=dumb, a terminal: no colour" 'grep -q "TIMING" pty.out && ! grep -q "$esc" pty.out'
	env -u TERM script -q -e -c "$T --print $demo" /dev/null </dev/null >pty.out 2>&1
	tap_check "TERM unset, a terminal: no colour" 'grep -q "TIMING" pty.out && ! grep -q "$esc" pty.out'
	TERM=dumb on_pty "$demo"
	tap_check "TERM=dumb: the explorer's fallback report has no colour" \
		'grep -q "^tscope-tui: TERM=dumb cannot address the cursor; printing the report instead" pty.out &&
		 grep -q "TIMING" pty.out && ! grep -q "$esc" pty.out'
	TERM=dumb on_pty --print --color always "$demo"
	tap_check "TERM=dumb --color always: colour" 'grep -q "$sgr" pty.out'
	TERM=dumb on_pty --print --compat pytscope "$demo"
	tap_check "TERM=dumb --compat pytscope: colour, as pytscope (a terminal is enough)" 'grep -q "$sgr" pty.out'
else
	for t in xterm dumb unset fallback always compat; do tap_skip "colour with TERM on a terminal ($t): no script"; done
fi
# A PATH ending in '/': the same config names and source paths as without it.
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep" art 50 4 3 >/dev/null || exit 1
$T --export sweep art >sw_plain.csv 2>/dev/null
$T --export sweep art/ >sw_slash.csv 2>/dev/null
tap_check "PATH art/: the sweep's configs as art's (m-..., not /m-...)" \
	'cmp -s sw_plain.csv sw_slash.csv && grep -q ",m-openai-chat-concurrency1," sw_slash.csv'
$T --export sweep --filter 'config=m-openai-chat-concurrency1' art/ >sw_f.csv 2>/dev/null
tap_eq "... a filter on the config name keeps its row" 2 "$(wc -l <sw_f.csv | tr -d ' ')"
$T --export sources "$demo/" >src_slash.csv 2>/dev/null
tap_check "... a run dir's source paths without '//'" \
	'! grep -q "//" src_slash.csv && grep -q "/rank0/steps.jsonl" src_slash.csv'
tap_plan
