#!/bin/sh
# mode_options.sh: an option of one mode given with another is never dropped in silence.
# With the mode named on the line it is a usage error naming the option and what it goes
# with (--force, -o, --sort, --filter: --export; --csv-raw: --export or the explorer;
# --max-frames, --no-mouse: the explorer; --interval, --stall: --follow or the explorer);
# with no mode named and no terminal for the explorer, the explorer's options are named
# on stderr as ignored. -h and -V still report an error before them (two modes, an option
# the mode given does not take). --jobs: out of range is said as such, above 64 it is
# said and capped. --print --follow polls at most every 25 x a poll's CPU time, as the
# explorer does, so a tiny --interval does not spin a core (4% of one at most, plus the
# sleeps' own cost; without the floor 30-98%, by the system's timer slack).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
T="$BIN --no-index"

# usage_err TEXT ARGS...: exit 2, stderr exactly "tscope-tui: TEXT", nothing on stdout
usage_err() {
	want=$1
	shift
	$T "$@" >out 2>err </dev/null
	[ $? -eq 2 ] && [ "$(cat err)" = "tscope-tui: $want" ] && [ ! -s out ]
}
tap_check "--print --force: a usage error naming --export" \
	'usage_err "--force goes with --export VIEW, not --print" --print --force "$demo"'
tap_check "--print --csv-raw: goes with --export or the explorer" \
	'usage_err "--csv-raw goes with --export VIEW or the explorer, not --print" --print --csv-raw "$demo"'
tap_check "--print --max-frames 3 --no-mouse: both named, the explorer's" \
	'usage_err "--max-frames and --no-mouse go with the explorer, not --print" \
		--print --max-frames 3 --no-mouse "$demo"'
tap_check "--print --interval 5: goes with --follow or the explorer" \
	'usage_err "--interval goes with --follow or the explorer, not --print without --follow" --print --interval 5 "$demo"'
tap_check "--print --stall 3: the same" \
	'usage_err "--stall goes with --follow or the explorer, not --print without --follow" --print --stall 3 "$demo"'
tap_check "--export ranks --no-mouse --interval 2: one line per kind" \
	'usage_err "--no-mouse goes with the explorer, not --export
tscope-tui: --interval goes with --follow or the explorer, not --export" --export ranks --no-mouse --interval 2 "$demo"'
tap_check "--tui --force -o x.csv: the export's options, not --tui" \
	'usage_err "-o and --force go with --export VIEW, not --tui" --tui --force -o x.csv "$demo"'
tap_check "--force, no mode: a usage error as -o is" \
	'usage_err "--force goes with --export VIEW" --force "$demo"'
tap_check "-o, --sort, --filter and --force, no mode: all named" \
	'usage_err "-o, --sort, --filter and --force go with --export VIEW" \
		-o x --sort rank --filter rank=1 --force "$demo"'

# where they go, they are taken without a word
$T --export ranks --force --csv-raw -o r.csv "$demo" >out 2>err
tap_check "--export ranks --force --csv-raw: exit 0, nothing said" '[ $? -eq 0 ] && [ ! -s err ] && [ -s r.csv ]'
$T --export ranks --force --csv-raw -o r.csv "$demo" >out 2>err
tap_check "--force replaces the file it made" '[ $? -eq 0 ] && [ ! -s err ]'
echo q >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 $T --tui --no-mouse --max-frames 5 --csv-raw --interval 2 --stall 3 \
	"$demo" >out 2>err
tap_check "--tui with the explorer's, --csv-raw, --interval and --stall: exit 0, nothing said" \
	'[ $? -eq 0 ] && ! grep -q "goes with\|go with\|ignored" err'
cp -r "$demo" fin
$T --print --follow --interval 0.2 --stall 3 fin >out 2>err </dev/null
tap_check "--print --follow --interval --stall: taken (a finished run: exit 0)" \
	'[ $? -eq 0 ] && ! grep -q "goes with\|ignored" err && grep -q "^tscope-tui: following every 0.2 s" err'
cp -r "$demo" ix
"$BIN" index --force ix >out 2>err
tap_check "index --force: the index command's own, untouched" '[ $? -eq 0 ] && ! grep -q "goes with" err'

# no mode given, no terminal: the report, and the explorer's options named as ignored
tty="(standard input or output is not a terminal)"
no_tty="the explorer does not open $tty"
no_follow="there is no --follow and no explorer $tty"
$T --no-mouse --max-frames 2 "$demo" >out 2>err </dev/null
tap_check "no mode, no terminal: --max-frames and --no-mouse named as ignored, the report printed" \
	'[ $? -eq 0 ] && grep -q "TIMING" out && [ "$(grep -c ignored err)" -eq 1 ] &&
	 grep -qx "tscope-tui: --max-frames and --no-mouse ignored: for the explorer only, and $no_tty" err'
$T --interval 5 --csv-raw "$demo" >out 2>err </dev/null
tap_check "no mode, no terminal: --interval without --follow and --csv-raw named as ignored" \
	'[ $? -eq 0 ] &&
	 grep -qx "tscope-tui: --csv-raw ignored: for --export VIEW or the explorer only, and $no_tty" err &&
	 grep -qx "tscope-tui: --interval ignored: for --follow or the explorer only, and $no_follow" err'
$T --follow --interval 0.2 --stall 3 --no-mouse fin >out 2>err </dev/null
tap_check "no mode, --follow, no terminal: --interval and --stall taken, --no-mouse named" \
	'[ $? -eq 0 ] && [ "$(grep -c ignored err)" -eq 1 ] &&
	 grep -q "^tscope-tui: --no-mouse ignored: for the explorer only" err'

# -h and -V: an error before them is still reported
usage_err_any() { # TEXT ARGS...: exit 2, TEXT on stderr, nothing on stdout
	want=$1
	shift
	$T "$@" >out 2>err </dev/null
	[ $? -eq 2 ] && grep -qx "tscope-tui: $want" err && [ ! -s out ]
}
clash="--print, --tui, --export, --list-views and --list-keys are exclusive"
tap_check "--print --export ranks -h: the clash, exit 2, no help" \
	'usage_err_any "$clash" --print --export ranks -h "$demo"'
tap_check "--tui --print -V: the clash, exit 2, no version" 'usage_err_any "$clash" --tui --print -V "$demo"'
tap_check "--print --force --help: the usage error, no help" \
	'usage_err_any "--force goes with --export VIEW, not --print" --print --force --help "$demo"'
$T --print --interval 5 -h >out 2>err
tap_check "--print --interval 5 -h: the help (a --follow may come after)" \
	'[ $? -eq 0 ] && grep -q "^usage:" out && [ ! -s err ]'
$T --force -V >out 2>err
tap_check "--force -V, no mode: the version (an --export may come after)" \
	'[ $? -eq 0 ] && grep -q "^tscope-tui " out && [ ! -s err ]'
$T --print -h --export ranks >out 2>err
tap_check "--print -h --export ranks: the help (after -h nothing is read)" '[ $? -eq 0 ] && grep -q "^usage:" out'

# --jobs
tap_check "--jobs 99999999999999999999: out of range, not 'not an integer'" \
	"usage_err \"--jobs '99999999999999999999': out of range (too large)
Try 'tscope-tui --help'.\" --print --jobs 99999999999999999999 \"\$demo\""
tap_check "--jobs -99999999999999999999: must be >= 1" \
	'usage_err "--jobs '"'"'-99999999999999999999'"'"': must be >= 1
Try '"'"'tscope-tui --help'"'"'." --print --jobs -99999999999999999999 "$demo"'
$T --print --jobs 100000 "$demo" >out 2>err
tap_check "--jobs 100000: said and capped at 64, the report printed" \
	'[ $? -eq 0 ] && grep -q "TIMING" out && grep -qx "tscope-tui: --jobs 100000: 64 loader threads at most; using 64" err'
$T --print --jobs 64 "$demo" >out 2>err
tap_check "--jobs 64: nothing said" '[ $? -eq 0 ] && [ ! -s err ]'
tap_check "--help says the cap of 64" '$T --help | grep -q -- "--jobs N .*at most 64"'

# --print --follow --interval 1e-6: polls bounded by their CPU time, not a spinning core
cp -r "$demo" live
sed -i 's/"n_steps": *[0-9]*/"n_steps": 100000/' live/rank*/run.json
$T --print --follow --interval 0.000001 --stall 100 live >live.out 2>live.err </dev/null &
pid=$!
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
sleep 1
c1=$(cpu)
sleep 2
c2=$(cpu)
hz=$(getconf CLK_TCK)
kill "$pid" 2>/dev/null
wait "$pid"
used=$(( (c2 - c1) * 100 / (2 * hz) ))
tap_check "--print --follow --interval 0.000001: under 15% of a core over 2 s (it used $used%)" \
	'[ $(( (c2 - c1) * 100 )) -lt $(( 15 * 2 * hz )) ] && grep -q "following every 1e-06 s" live.err'
tap_plan
