#!/bin/sh
# filter_sort.sh: --filter's order terms and glob values, --sort's quoting. < <= > >= on
# a severity column follow its order, high > med > low (they compared the words A to Z:
# 'severity>=med' dropped the high findings), and on any other text column are a usage
# error naming the column, in --export and in the explorer's f prompt (they kept every
# row). A quoted '=' value is still a glob: a backslash matches [ * ? as written, and a
# filter that keeps no row because a value is a pattern some cell holds as written says
# so. --sort takes a column name quoted as --filter does (it refused 'Duration (s)',
# the way the column list quotes it).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
BUILD=$(cd "${TSCOPE_BUILD:-build}" && pwd)
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
T="$BIN --no-index"

# severity: high > med > low, whatever the words' alphabetical order
$T --export findings --filter 'severity>=med' "$demo" 2>err | cut -d, -f1 | tail -n +2 | tr '\n' ' ' >got
tap_eq "severity>=med keeps the high and med findings" "high high med med " "$(cat got)"
$T --export findings --filter 'severity<high' "$demo" 2>err | cut -d, -f1 | tail -n +2 | tr '\n' ' ' >got
tap_eq "severity<high keeps med and low" "med med low " "$(cat got)"
$T --export findings --filter 'severity>LOW' --sort severity "$demo" 2>/dev/null | cut -d, -f1 | tail -n +2 |
	tr '\n' ' ' >got
tap_eq "severity>LOW (any case), sorted low first" "med med high high " "$(cat got)"
$T --export findings --filter 'severity>x' "$demo" >out 2>err
tap_check "severity>x: usage error naming the order" \
	'[ $? -eq 2 ] && grep -q "^tscope-tui: --filter: .severity. is ordered low < med < high: got .x.$" err'

# < and > on a plain text column: refused, as a non-number on a number column is
$T --export ranks --filter 'straggler>1' "$demo" >out 2>err
tap_check "straggler>1 on a text column: usage error naming it (it kept every row)" \
	'[ $? -eq 2 ] && [ ! -s out ] &&
	 grep -q "^tscope-tui: --filter: .straggler. is text: < and > need a number column$" err'
$T --export ranks --filter 'node<=b' "$demo" >out 2>err
tap_check "node<=b: refused too" '[ $? -eq 2 ] && grep -q "node. is text" err'

# the explorer's f prompt goes through the same parser: the message on its message row
cat >keys <<KEYS
3
fstraggler>1<Enter>
:dump $PWD/tui_text
KEYS
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 LC_ALL=C.UTF-8 $T --tui "$demo" >/dev/null 2>&1
tap_check "explorer: f straggler>1 says the column is text" \
	'tail -1 tui_text | grep -q "filter: .straggler. is text: < and > need a number column"'

# a glob value: [ ] * ? match unless escaped; a pattern some cell holds as written is named
"$BUILD/tests/gen_dasf" names names.msgpack >/dev/null 2>&1
$T --dasf --export tasks --filter "Function='a b[1]*'" names.msgpack >out 2>err
said="keeps no row of 'tasks': 'a b[1]*' is a pattern: [ ] * ? match; escape them with \\ to match"
said="$said them as written ('a b\\[1]\\*')"
tap_check "Function='a b[1]*' keeps no row and says the value is a pattern, and how to escape it" \
	'[ "$(wc -l <out)" -eq 1 ] && grep -qF -- "$said" err'
$T --dasf --export tasks --filter "Function='a b\\[1]\\*'" names.msgpack 2>/dev/null | cut -d, -f1 | tail -n +2 |
	tr '\n' ' ' >got
tap_eq "Function='a b\\[1]\\*' keeps k1 and k2, whose function is exactly that" "k1 k2 " "$(cat got)"
$T --dasf --export tasks --filter "Function='z[1]*'" names.msgpack >out 2>err
tap_check "a pattern no cell holds as written: the plain hint" \
	'grep -q "keeps no row.*(terms are split" err && ! grep -q "is a pattern" err'
# the explorer's f said only "no rows match the filter"
cat >keys <<KEYS
:view tasks
fFunction='a b[1]*'<Enter>
:dump $PWD/tui_glob
KEYS
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=200 LC_ALL=C.UTF-8 $T --tui --dasf names.msgpack >/dev/null 2>&1
tap_check "explorer: the same filter says the value is a pattern, and how to escape it" \
	'tr -s " \n" " " <tui_glob | grep -qF "no rows match the filter: '"'"'a b[1]*'"'"' is a pattern: [ ] * ? match"'

# --sort: a column name quoted as --filter takes it, with or without the '-'
"$BUILD/tests/gen_dasf" fixture fx >/dev/null 2>&1
$T --export tasks --sort 'Duration (s)' fx >want 2>/dev/null
$T --export tasks --sort "'Duration (s)'" fx >got 2>err
tap_check "--sort \"'Duration (s)'\": as --sort 'Duration (s)'" '[ $? -eq 0 ] && [ -s got ] && cmp -s want got'
$T --export tasks --sort '-Duration (s)' fx >desc 2>/dev/null
$T --export tasks --sort "-\"Duration (s)\"" fx >got 2>err
tap_check "--sort -\"Duration (s)\": descending" '[ $? -eq 0 ] && cmp -s desc got && ! cmp -s want got'
$T --export tasks --sort "'Duration (s)" fx >out 2>err
tap_check "--sort with an unclosed quote: usage error saying so" \
	'[ $? -eq 2 ] && grep -q "^tscope-tui: --sort: .*a quote is not closed" err'
$T --export tasks --sort "'nosuch'" fx >out 2>err
tap_check "--sort 'nosuch': unknown column named without its quotes" \
	'[ $? -eq 2 ] && grep -q "^tscope-tui: --sort: unknown column .nosuch.$" err'

# A locale writing decimals with a comma (de_DE) read '115.5' as no number and split
# 'x>0,1' into x>0 and a search for 1: numbers are read and shown with a '.' whatever
# LC_NUMERIC ('locales' gives localedef its de_DE source; .ci/deps.sh --test installs it)
if mkdir -p "$TSCOPE_TMP/loc" && localedef -i de_DE -f UTF-8 "$TSCOPE_TMP/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	de() { LOCPATH="$TSCOPE_TMP/loc" LC_ALL=de_DE.UTF-8 "$@"; }
	$T --export ranks -o - "$demo" >c.csv 2>/dev/null
	de $T --export ranks --filter 'rel_slowdown>0.1' -o - "$demo" >de.csv 2>err
	$T --export ranks --filter 'rel_slowdown>0.1' -o - "$demo" >c_f.csv 2>/dev/null
	tap_check "de_DE: --filter 'rel_slowdown>0.1' as in C, a dot read as the decimal point" \
		'[ -s de.csv ] && cmp -s de.csv c_f.csv'
	de $T --export ranks -o - "$demo" >de_all.csv 2>/dev/null
	tap_check "de_DE: the CSV's numbers as in C (no decimal comma)" 'cmp -s de_all.csv c.csv'
	de $T --print "$demo" >de.out 2>/dev/null
	$T --print "$demo" >c.out 2>/dev/null
	tap_check "de_DE: the report's numbers as in C" 'cmp -s de.out c.out'
else
	tap_notok "localedef builds de_DE.UTF-8 (package locales)"
fi
tap_plan
