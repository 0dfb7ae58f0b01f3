#!/bin/sh
# prompt_long.sh: a prompt line longer than the prompt holds (511 bytes) is refused whole
# with a message saying so, never run cut short (headless, TSCOPE_SCRIPT, 120x40). A
# 520-byte export path is refused, nothing written (it wrote "..._v2.cs", the message
# clipped before the name); one of 511 bytes is written under its whole name (the line
# kept 510); 9 characters past the end, then 9 Backspaces: the line is whole again and
# written. A 640-byte filter is refused, the filter set before kept (it reported
# "'rank' needs a number, got ''", blaming the expression); so is a 600-byte command.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
# session NAME KEYS: the keys (one a line), then the screen dumped to NAME
session() {
	printf '%s\n:dump %s/%s\nq\n' "$2" "$PWD" "$1" >"$1.keys"
	HOME="$TSCOPE_TMP" XDG_STATE_HOME="$TSCOPE_TMP/state" LINES=40 COLUMNS=120 TERM=dumb LC_ALL=C.UTF-8 \
		TSCOPE_SCRIPT="$PWD/$1.keys" "$TSCOPE_BIN" --tui --no-index "$demo" >/dev/null 2>"$1.err"
	tap_rc $? "$1: the explorer ran the script"
}
last() { tail -n 1 "$1"; }
# The message of a dump whole: its rows below the status row (one wider than the row is
# wrapped onto the rows above the last, the status row above them), joined by blanks.
msg_rows() {
	awk '/^ / { n = 0; next } { m[++n] = $0 }
	     END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), m[i]; print "" }' "$1"
}
# longpath DIR LEN: a path of LEN bytes under $PWD/DIR (made) ending in /ranks_export_final_v2.csv,
# in directories of at most 100 bytes
longpath() {
	p="$PWD/$1" && mkdir -p "$p" || return 1
	while [ $((${#p} + 26 + 101)) -le "$2" ]; do
		p="$p/$(printf 'd%.0s' $(seq 1 100))"
	done
	[ $((${#p} + 27)) -le "$2" ] && p="$p/$(printf 'e%.0s' $(seq 1 $(($2 - ${#p} - 27))))"
	mkdir -p "$p" && echo "$p/ranks_export_final_v2.csv"
}
p520=$(longpath l520 520) && p511=$(longpath l511 511) && pbs=$(longpath lbs 511) &&
	[ ${#p520} -eq 520 ] && [ ${#p511} -eq 511 ] || { tap_notok "long paths made (${#p520}, ${#p511})"; exit 0; }

session exp520 "$(printf '3\ne<C-u>%s<Enter>' "$p520")"
tap_check "a 520-byte export path is refused, saying why" \
	'last exp520 | grep -q "^input too long (max 511 bytes): nothing written"'
tap_check "... and nothing is written under it (no cut name)" '[ -z "$(ls "${p520%/*}")" ]'

session exp511 "$(printf '3\ne<C-u>%s<Enter>' "$p511")"
tap_check "a 511-byte export path is written under its whole name" \
	'[ -s "$p511" ] && msg_rows exp511 | grep -q "^exported 16 rows of .ranks. to "'

bs9=$(printf '<Backspace>%.0s' 1 2 3 4 5 6 7 8 9)
session expbs "$(printf '3\ne<C-u>%sxyzéxyz中x%s<Enter>' "$pbs" "$bs9")"
tap_check "9 characters past the end then 9 Backspaces: the line is whole, written" \
	'[ -s "$pbs" ] && [ "$(ls "${pbs%/*}")" = ranks_export_final_v2.csv ]'

long=$(printf 'rank>=1 %.0s' $(seq 1 80))
session filter "$(printf '3\nfrank<8<Enter>\nf<C-u>%s<Enter>' "$long")"
tap_check "a 640-byte filter is refused, saying why (not blaming the expression)" \
	'last filter | grep -q "^input too long (max 511 bytes): the filter is unchanged"'
tap_check "... the filter set before is kept" 'grep -q "filter .rank<8." filter'

session command "$(printf '3:rank %0600d<Enter>' 5)"
tap_check "a 600-byte command is refused, not run" \
	'last command | grep -q "^input too long (max 511 bytes): the command is not run"'
tap_plan
