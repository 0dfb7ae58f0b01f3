#!/bin/sh
# mono.sh: the mono tier (bold, reverse and underline only; headless TERM=dumb has no
# colour) reads as the colour tiers do. The Overview's ok / warn / bad lines each have an
# attribute of their own (warn and bad were both bold) and the `i` legend's samples show
# the same ones; the Sweep legend names the outlier lines' attribute, not a colour
# ("yellow") that is not on screen; in the heatmap only the cursor is reversed (level 7
# was bold and reversed too, so a cursor on it showed by the bold bit alone), and on a
# compare cell faster in B the cursor keeps that cell's underline (the sign). Attributes
# are read from :dumpattr (ui/cmd.h: 'u' underline, 'b' bold, 'r' reverse, 'U' reverse
# and underline, 'R' reverse and bold).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_fixtures" failslow fs >/dev/null && "$B/gen_sweep" sweep 12 8 6 >/dev/null &&
	"$B/gen_pair" a 8 40 1 && "$B/gen_pair" b 8 40 2 3 10 || { tap_notok "fixtures generated"; tap_plan; exit 0; }
echo '{"step": garbage' >>fs/rank5/steps.jsonl   # a skipped line: data quality warns
tui() {   # tui TERM LINES COLUMNS ARGS...: the explorer on ./keys, headless
	t=$1 l=$2 c=$3
	shift 3
	TSCOPE_SCRIPT=keys TERM=$t LINES=$l COLUMNS=$c LC_ALL=C XDG_STATE_HOME="$PWD/state" \
		"$TSCOPE_BIN" --no-index --tui "$@" >/dev/null 2>err
}
# flag DUMP ATTR PATTERN TEXT: the attribute flag of the first cell of TEXT on the first
# row of DUMP matching PATTERN
flag() {
	awk -v pat="$3" -v t="$4" '
		NR == FNR { if (!row && $0 ~ pat && index($0, t)) { row = FNR; col = index($0, t) }; next }
		FNR == row { print substr($0, 2 * col, 1) "." }' "$1" "$2"
}

cat >keys <<KEYS
1
:dump $PWD/ov
:dumpattr $PWD/ov.attr
i
:dump $PWD/ovl
:dumpattr $PWD/ovl.attr
KEYS
tui dumb 40 120 fs
tap_rc $? "failslow run, mono: exit 0"
warn=$(flag ov ov.attr "^  data quality" "1 skipped") bad=$(flag ov ov.attr "^  stragglers" "1 (rank 17")
good=$(flag ov ov.attr "^  coverage" "all 48 ranks")
tap_eq "Overview: warn underlined, bad bold, ok plain (got warn '$warn' bad '$bad' ok '$good')" "u. b.  ." \
	"$warn $bad $good"
samples="$(flag ovl ovl.attr "a line to look at" warn) $(flag ovl ovl.attr "a problem line" bad)"
samples="$samples $(flag ovl ovl.attr "a good line" ok)"
tap_eq "the legend's samples show the same attributes" "$warn $bad $good" "$samples"
tap_check "... and say so in words" 'tr -s " \n" " " <ovl | grep -q "a warn line is underlined and a bad line bold"'

printf '8\n:dump %s/sw\n:dumpattr %s/sw.attr\ni\n:dump %s/swl\n' "$PWD" "$PWD" "$PWD" >keys
tui dumb 30 100 sweep
tap_rc $? "sweep, mono: exit 0"
tap_eq "Sweep: an outlier's line is underlined" "u." "$(flag sw sw.attr " outlier " " 4 ")"
tap_check "... as the legend says, naming no colour" \
	'grep -q "an outlier, removed from the fit (its line is underlined)" swl && ! grep -q yellow swl'
printf '8\ni\n:dump %s/swc\n' "$PWD" >keys
tui xterm-256color 30 100 sweep
tap_check "in colour the legend says yellow" 'grep -q "(its line is yellow)" swc'

# B - A heatmap: rank 3 slower in B from step 10; the cursor on rank 3, step 7, a cell
# faster in B (underlined, not quiet), then one step right, off it
cat >keys <<KEYS
2
jjjlllllll
:dump $PWD/hm
:dumpattr $PWD/hm.attr
l
:dump $PWD/hm2
:dumpattr $PWD/hm2.attr
KEYS
tui dumb 24 80 a b
tap_rc $? "compare pair, mono: exit 0"
tap_check "the cursor is on rank 3, step 7, faster in B" 'grep -q "rank 3  step 7  compute B - A -" hm'
# the grid's cells: rows 3-10 (ranks 0-7) from the column of the first step label
x0=$(sed -n 2p hm | awk '{ match($0, /[^ ]/); print RSTART }')
cells() { sed -n 3,10p "$1" | cut -c$((2 * x0 - 1))-; }   # of an attribute dump
flags() { sed 's/.\(.\)/\1/g'; }   # an attribute dump's rows without the colour pairs
tap_eq "the cursor is the one reversed cell of the grid" 1 "$(cells hm.attr | flags | tr -cd 'rRU' | wc -c)"
tap_check "level 7 cells (#) are bold, not reversed" \
	'[ "$(sed -n 3,10p hm2 | cut -c$x0- | grep -o "#" | wc -l)" -gt 5 ] && ! cells hm2.attr | flags | grep -q R'
cur=$(sed -n 6p hm.attr | cut -c$((2 * x0 - 1))- | flags | awk '{ print index($0, "U") + index($0, "r") }')
tap_eq "under the cursor, the faster cell keeps its underline (reverse and underline)" "U u" \
	"$(sed -n 6p hm.attr | cut -c$((2 * (x0 + cur - 1)))) $(sed -n 6p hm2.attr | cut -c$((2 * (x0 + cur - 1))))"
# the heatmap legend of one run named colour bands in mono, where levels 6-7 are bold
printf '2\ni\n:dump %s/hml\n' "$PWD" >keys
tui dumb 40 120 fs
tap_check "mono heatmap legend: levels by attribute, no colour bands" \
	'tr -s " \n" " " <hml | grep -q "Levels 1-5 are plain and 6-7 bold" && ! grep -q "Colours come" hml'
printf '2\ni\n:dump %s/hmc\n' "$PWD" >keys
tui xterm-256color 40 120 fs
tap_check "... in colour it names the bands" 'tr -s " \n" " " <hmc | grep -q "Colours come in three bands"'
tap_plan
