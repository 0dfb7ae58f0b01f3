#!/bin/sh
# export_shown.sh: `e` writes what --export of the same view writes (DESIGN.md §6), and
# where a pane shows what no --export writes as such, its prompt and message say what is
# written. Headless (TSCOPE_SCRIPT), 120x40. 64 ranks on 8 nodes open Ranks with node rows:
# e writes every rank (node rows expanded), byte for byte --export ranks, also sorted and
# filtered (it wrote the 8 node rows under the ranks header, saying nothing). The heatmap
# writes the cells on screen and says --export heatmap_cells is another window; in compare
# mode it names the metric (B - A, A) and that no --export writes a comparison's heatmap
# (it said "exported 1600 rows of 'heatmap_cells'", a view --export refuses for two runs).
# The Steps pane writes its rank's rows, as --export steps --filter rank=N does, and says so.
# A writable file in a read-only directory: the message names the temp file, as --export -o.
# A pair's view without a row (diff_env of identical run.json) is refused with the reason,
# as --export refuses it (e wrote a header-only CSV: "exported 0 rows of 'diff_env'").
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
build="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
"$build/gen_demo" run64 64 40 >/dev/null && "$build/gen_pair" a 8 60 1 >/dev/null &&
	"$build/gen_pair" reg 8 60 2 5 30 >/dev/null || { tap_notok "fixtures generated"; exit 0; }

# session NAME KEYS RUN...: the keys (one a line; :dump @/N dumps to NAME.N) at 120x40
# (${cols:-120} columns), run by ${run_as:-} (a command that runs the explorer) when set
session() {
	name=$1 keys=$2
	shift 2
	printf '%s\nq\n' "$keys" | sed "s|@/|$PWD/$name.|g" >"$name.keys"
	# shellcheck disable=SC2086
	HOME="$TSCOPE_TMP" XDG_STATE_HOME="$TSCOPE_TMP/state" LINES=40 COLUMNS=${cols:-120} TERM=dumb LC_ALL=C.UTF-8 \
		TSCOPE_SCRIPT="$PWD/$name.keys" ${run_as:-} "$TSCOPE_BIN" --tui --no-index "$@" >/dev/null 2>"$name.err"
	tap_rc $? "$name: the explorer ran the script"
}
last() { tail -n 1 "$1"; }

# Ranks on node rows: every rank, as --export ranks; the prompt says so before writing
session nodes "$(printf '3\n:dump @/rows\ne<C-u>all.csv\n:dump @/prompt\n<Enter>\n:dump @/done')" run64
tap_check "Ranks opens on node rows" 'grep -q "row 1/8 (of 64)" nodes.rows'
tap_check "the prompt says the node rows are expanded to the 64 ranks" \
	'last nodes.prompt | grep -q "^export 64 rank rows (node rows expanded) to: all.csv"'
tap_check "the message says so and names --export ranks" \
	'last nodes.done | grep -q "^exported 64 rows of .ranks. to all.csv: node rows expanded, as --export ranks\$"'
"$TSCOPE_BIN" --no-index --export ranks run64 >want_all.csv 2>/dev/null
tap_check "the CSV is --export ranks byte for byte" 'cmp -s all.csv want_all.csv'

# sorted (s on time_lost_s) and filtered: --export ranks with the same --sort and --filter
session sorted "$(printf '3\nlllllll\ns\nfrank<40<Enter>\n:dump @/rows\ne<C-u>some.csv<Enter>\n:dump @/done')" run64
grep '^ ranks  row' sorted.rows >sorted.status
sort=$(sed -n 's/.*  sort \([^ ]*\).*/\1/p' sorted.status)
tap_check "sorted by time_lost_s ($sort), filtered, on node rows" \
	'[ -n "$sort" ] && grep -q "row [0-9]*/5 (of 64)  .*filter .rank<40." sorted.status'
tap_check "the message says the options" \
	'last sorted.done | grep -q "^exported 40 rows of .ranks. to some.csv: node rows expanded, as --export ranks" &&
	 last sorted.done | grep -q "as --export ranks with this --filter and --sort\$"'
"$TSCOPE_BIN" --no-index --export ranks --sort "$sort" --filter 'rank<40' run64 >want_some.csv 2>/dev/null
tap_check "the CSV is --export ranks --sort $sort --filter 'rank<40' byte for byte" 'cmp -s some.csv want_some.csv'

# The message of a dump whole: its rows below the status row (one wider than the row is
# wrapped onto the rows above the last, the status row above them), joined by blanks.
msg_rows() {
	awk '/^ / { n = 0; next } { m[++n] = $0 }
	     END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), m[i]; print "" }' "$1"
}
# the heatmap: the cells on screen, and --export heatmap_cells is another window
session heat "$(printf '2\ne<C-u>heat.csv\n:dump @/prompt\n<Enter>\n:dump @/done')" run64
n=$(($(wc -l <heat.csv) - 1))
tap_check "heatmap: the prompt says the $n cells on screen" \
	'last heat.prompt | grep -q "^export the $n cells on screen to: heat.csv"'
tap_check "heatmap: the message says --export heatmap_cells writes another window" \
	'last heat.done | grep -q "^exported the $n cells on screen to heat.csv; --export heatmap_cells writes every row"'

# compare mode: the metric written (B - A, then A after m) and that no --export writes it
session pair "$(printf 'e<C-u>d.csv\n:dump @/prompt\n<Enter>\n:dump @/done\nm\ne<C-u>a.csv<Enter>\n:dump @/a')" a reg
n=$(($(wc -l <d.csv) - 1))
tap_check "compare heatmap: the prompt names the metric (compute B - A)" \
	'last pair.prompt | grep -q "^export the $n cells on screen (compute B - A) to: d.csv"'
tap_check "compare heatmap: the message says no --export writes a comparison's heatmap" \
	'last pair.done | grep -q "^exported the $n cells on screen (compute B - A) to d.csv; no --export writes" &&
	 last pair.done | grep -q "; no --export writes a comparison.s heatmap\$"'
tap_check "compare heatmap: after m, A's cells, said so" \
	'last pair.a | grep -q "(compute A) to a.csv" && sed -n 2p a.csv | grep -q ",compute A,"'

# a pair's empty Env tab (identical run.json): no prompt, the reason, no file
session env "$(printf '6\ne\n:dump @/done')" a reg
tap_check "a pair's diff_env without a row: e says why, as --export, and writes nothing" \
	'msg_rows env.done |
	 grep -q "^nothing to export: view .diff_env. has no rows for this pair of runs: no difference: " &&
	 [ -z "$(find . -name "*diff_env*")" ]'

# Steps: the shown rank's rows, as --export steps --filter rank=N
session steps "$(printf '4\nj\ne<C-u>steps.csv\n:dump @/prompt\n<Enter>\n:dump @/done')" run64
rank=$(last steps.done | sed -n "s/^exported rank \([0-9]*\)'s .*/\1/p")
tap_check "Steps: the prompt names the rank" 'last steps.prompt | grep -q "^export rank $rank.s 40 rows to: steps.csv"'
tap_check "Steps: the message names --export steps --filter rank=$rank" \
	'last steps.done | grep -q "^exported rank $rank.s 40 rows of .steps. to steps.csv, as --export steps" &&
	 last steps.done | grep -q "as --export steps --filter rank=$rank writes them\$"'
"$TSCOPE_BIN" --no-index --export steps --filter "rank=$rank" run64 >want_steps.csv 2>/dev/null
tap_check "the CSV is --export steps --filter rank=$rank byte for byte" \
	'[ -n "$rank" ] && cmp -s steps.csv want_steps.csv'

# A writable file in a directory where this user may not create one (as root: without
# CAP_DAC_OVERRIDE, setpriv --bounding-set): the temp file cannot be made, said as
# --export -o says it (it said "cannot write ro/w.csv: Permission denied").
[ "$(id -u)" = 0 ] && run_as="setpriv --bounding-set -dac_override,-dac_read_search" || run_as=
mkdir ro && echo old >ro/w.csv && chmod 666 ro/w.csv && chmod 555 ro
# shellcheck disable=SC2086
if { [ -n "$run_as" ] && ! command -v setpriv >/dev/null 2>&1; } || $run_as sh -c ': >ro/probe' 2>/dev/null; then
	tap_skip "e into a read-only directory: file modes do not bind here (root without setpriv, or it failed)"
else
	cols=200
	session rodir "$(printf '3\ne<C-u>ro/w.csv<Enter>y\n:dump @/done')" run64
	tap_check "e into a read-only directory: the temp file named, and how to write the file in place" \
		'last rodir.done | grep -q "^cannot create a temporary file in ro/ (Permission denied): the CSV \
is written there and renamed over ro/w.csv; export to another directory, or from the shell: -o - > ro/w.csv *\$" &&
		 [ "$(cat ro/w.csv)" = old ]'
fi
chmod 755 ro
run_as= cols=
tap_plan
