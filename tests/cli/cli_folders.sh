#!/bin/sh
# cli_folders.sh: a folder of runs off the explorer (src/main.c folder_children,
# folder_of_runs). A folder holding training runs and a GenAI-Perf sweep in its
# subdirectories is a folder of runs: every run is named, the sweep one of them (the
# sweep loaders look several levels down, so they claim the folder, but the training runs
# are never dropped); a sweep dir itself, two sweeps side by side and --format genai-perf
# still open one sweep; a sweep with files of the folder's own opens with a warning naming
# each run of another kind below it. --ranks does not change what a folder is: its runs
# are listed as without it (a run dir whose every rank --ranks leaves out is still that
# run, not a folder of its rank dirs). The command lines suggested (a folder's runs, a
# mixed PATH's refusal on stderr and in --export sources) quote their paths for a POSIX
# shell when they need it (a space, a quote), and paste as they are: a path the sanitizer
# would rewrite (a tab, ESC, a newline, U+202E, U+200B) is in $'...' quotes, ASCII with
# byte escapes, so it is safe to show and bash reads the path itself; so are a nested
# PATH's refusal's. A newline in a PATH is ^J in every message, never a line of its own.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$gen/gen_demo" small 2 20 >/dev/null && mkdir proj && cp -r small proj/runA && cp -r small proj/runB &&
	"$gen/gen_sweep" proj/sweep1 30 2 3 >/dev/null || { tap_notok "fixtures generated"; exit 1; }

# --- training runs and a sweep below one folder ----------------------------------
"$BIN" --print proj >out 2>err
rc=$?
tap_check "runs and a sweep below a folder: exit 1, nothing on stdout" '[ "$rc" -eq 1 ] && [ ! -s out ]'
tap_check "... the three runs named, the sweep one of them" \
	'[ "$(wc -l <err)" -eq 4 ] &&
	 head -1 err | grep -q "^tscope-tui: '"'"'proj'"'"' holds 3 runs below it; open one:$" &&
	 grep -q "^  tscope-tui proj/runA  *(pytscope)$" err && grep -q "^  tscope-tui proj/runB  *(pytscope)$" err &&
	 grep -q "^  tscope-tui proj/sweep1  (genai-perf)$" err'
"$BIN" --print proj/ >out2 2>err2
tap_check "... the same with a trailing '/'" '[ $? -eq 1 ] && cmp -s err err2'
"$BIN" --export sources proj >out 2>err2
tap_check "... --export sources: the same list, no sweep file exported" \
	'[ $? -eq 1 ] && [ ! -s out ] && cmp -s err err2'
# --ranks applies inside the run opened: the folder is listed as without it; a run dir
# whose every rank dir --ranks leaves out is that run (its loader says so), not a folder
"$BIN" --print --ranks 0 proj >out 2>err2
tap_check "--ranks on a folder of runs: the same list, exit 1" '[ $? -eq 1 ] && [ ! -s out ] && cmp -s err err2'
"$BIN" --export ranks --ranks 0-1 proj >out 2>err2
tap_check "... --export ranks --ranks 0-1: the same list" '[ $? -eq 1 ] && [ ! -s out ] && cmp -s err err2'
"$BIN" --print --ranks 9 small >out 2>err2
tap_check "--ranks 9 on a run of ranks 0-1: that run, not a folder of its rank dirs" \
	'[ $? -eq 1 ] && ! grep -q "below it" err2 && grep -q "^tscope-tui: small: --ranks 9 left 2 rank dirs out" err2'
"$BIN" --print proj/sweep1 >out 2>err
tap_check "the sweep dir itself: one sweep, exit 0" '[ $? -eq 0 ] && grep -q "inference sweep  3 configs" out'
"$BIN" --print --format genai-perf proj >out 2>err
tap_check "--format genai-perf on the folder: the sweep" '[ $? -eq 0 ] && grep -q "inference sweep  3 configs" out'
mkdir two && cp -r proj/sweep1 two/sweepA && cp -r proj/sweep1 two/sweepB
"$BIN" --print two >out 2>err
tap_check "two sweeps side by side, nothing else: one sweep of two series, as before" \
	'[ $? -eq 0 ] && grep -q "inference sweep  6 configs in 2 series" out'
mkdir own && cp -r small own/runA && cp proj/sweep1/*concurrency1/profile_export.json own/
"$BIN" --print own >out 2>err
tap_check "a sweep with files of the folder's own: the sweep opens, a warning" \
	'[ $? -eq 0 ] && grep -q "inference sweep  1 config" out && grep -q "1 warning" err'
"$BIN" --export sources own >out 2>/dev/null
tap_check "... the warning names the training run below it and how to open it" \
	'grep -q "^warning,own/runA,.*a pytscope run below the sweep, not part of it; open it alone: \
tscope-tui own/runA" out'

# --- command lines that paste -----------------------------------------------------
mkdir fold && cp -r small "fold/run with space" && cp -r small "fold/it's" && cp -r small fold/plain &&
	cp -r small "fold/$(printf 'e\033[2Jx')"
"$BIN" --print fold >out 2>err
tap_check "a folder of runs: paths with a space or a quote in single quotes, plain ones as they are" \
	'grep -q "^  tscope-tui '"'"'fold/it'"'"'\\\\'"'"''"'"'s'"'"'  *(pytscope)$" err &&
	 grep -q "^  tscope-tui '"'"'fold/run with space'"'"'  (pytscope)$" err &&
	 grep -q "^  tscope-tui fold/plain  *(pytscope)$" err'
tap_check "... a control byte escaped in \$'...' quotes; no raw escape" \
	'grep -qF "  tscope-tui \$'"'"'fold/e\\x1b[2Jx'"'"'  " err && ! grep -q "$(printf "\033")" err'
ok=0
for want in "with space" "fold/it" plain; do
	line=$(grep -F "$want" err | grep -v "x1b" | sed 's/^  tscope-tui \(.*\)  *(pytscope)$/\1/')
	# a subshell: a line that is no shell word (an unmatched quote) fails alone
	# shellcheck disable=SC2016
	(eval "\"\$BIN\" --export ranks $line") >pasted 2>/dev/null && [ "$(wc -l <pasted)" -eq 3 ] && ok=$((ok + 1))
done
tap_eq "... each line pasted into sh opens its run" 3 "$ok"
cp -r small "mix dir" && "$gen/gen_sweep" "mix dir/sw" 30 2 3 >/dev/null
"$BIN" --print "mix dir" >out 2>err
tap_check "a mixed PATH with a space: the refusal's command lines quote it" \
	'[ $? -eq 1 ] && grep -q "^tscope-tui:   tscope-tui --format pytscope '"'"'mix dir'"'"'$" err &&
	 grep -q "^tscope-tui:   tscope-tui --format genai-perf '"'"'mix dir'"'"'$" err'
"$BIN" --export sources "mix dir" >out 2>/dev/null
tap_check "... and so does --export sources" \
	'grep -q "open it alone: tscope-tui --format genai-perf '"'"'mix dir'"'"'$" out'

# --- paths the sanitizer rewrites: $'...' words that bash reads as the path ---------
mkdir esc && for n in 'tab\there' 'e\033[31mx' 'rl\342\200\256o' 'zw\342\200\213sp' 'nl\nx'; do
	cp -r small "esc/$(printf "$n")"
done
"$BIN" --print esc >out 2>esc.err
tail -n +2 esc.err >got
cat >want <<'WANT'
  tscope-tui $'esc/e\x1b[31mx'        (pytscope)
  tscope-tui $'esc/nl\nx'             (pytscope)
  tscope-tui $'esc/rl\xe2\x80\xaeo'   (pytscope)
  tscope-tui $'esc/tab\there'         (pytscope)
  tscope-tui $'esc/zw\xe2\x80\x8bsp'  (pytscope)
WANT
tap_check "a folder of runs: a tab, ESC, newline, U+202E or U+200B in \$'...' with escapes, ASCII only" \
	'cmp -s got want && ! LC_ALL=C grep -q "$(printf "[\001-\010\016-\037\177-\377]")" esc.err'
if command -v bash >/dev/null; then
	ok=0
	while IFS= read -r line; do
		word=$(printf '%s\n' "$line" | sed 's/^  tscope-tui \(.*\)  *(pytscope)$/\1/')
		# shellcheck disable=SC2016
		BIN=$BIN bash -c '"$BIN" --export ranks '"$word" >pasted 2>/dev/null && [ "$(wc -l <pasted)" -eq 3 ] &&
			ok=$((ok + 1))
	done <got
	tap_eq "... each line pasted into bash opens its run" 5 "$ok"
	N=$(printf 'esc/nl\nx')
	"$BIN" --print "$N" "$N/rank0" >out 2>err
	word=$(sed -n 's/^tscope-tui:   tscope-tui --format pytscope \(.*\/rank0.\)$/\1/p' err)
	# shellcheck disable=SC2016
	BIN=$BIN bash -c '"$BIN" --export ranks '"$word" >pasted 2>/dev/null
	tap_check "a PATH inside another: the refusal's command line in \$'...', pasted into bash opens the inner run" \
		'[ "$word" = "\$'"'"'esc/nl\\nx/rank0'"'"'" ] && [ "$(wc -l <pasted)" -eq 2 ]'
else
	tap_skip "no bash to paste \$'...' into"
	tap_skip "no bash to paste \$'...' into"
fi

# --- a newline in a PATH is ^J in a message, never a line of its own ----------------
F=$(printf 'x\ntscope-tui: data quality: 0 errors (all clear)')
mkdir -p "$F"
"$BIN" --print small "$F" >out 2>err
tap_check "an empty PATH with a newline: one line naming it with ^J, no forged line" \
	'[ $? -eq 1 ] && [ "$(grep -c "data quality" err)" -eq 1 ] &&
	 grep -qxF "tscope-tui: x^Jtscope-tui: data quality: 0 errors (all clear): no supported data found here" err'
N=$(printf 'bad\nname\033[31mred\a')
mkdir "$N" && cp -r small/. "$N"/
"$BIN" --print "$N" "$N/rank0" >out 2>err
tap_check "a PATH inside another, the paths with a newline: each line of the refusal on one line, ^J" \
	'[ $? -eq 1 ] && [ "$(grep -vc "^tscope-tui: " err)" -eq 0 ] &&
	 grep -qF "tscope-tui: bad^Jname^[[31mred^G/rank0 is inside bad^Jname^[[31mred^G: give one" err &&
	 grep -qxF "tscope-tui:   run 1: pytscope run '"'"'demo-ddp'"'"', 2 ranks: bad^Jname^[[31mred^G" err'
tap_plan
