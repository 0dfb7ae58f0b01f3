#!/bin/sh
# legend.sh: `i` gives every pane a legend of its own (headless, TSCOPE_SCRIPT): the
# Heatmap's ramp, a table's columns (Ranks, its onset as the man page defines it, a
# pair's onset_b, Findings, Sources, a trace view), Steps' phase fills and sparklines,
# the traces' compute (the Heatmap's: the step less its exposed communication) and HTA's
# potential_straggler (the GPU time tab), Budget's lines, the Overview's tones, the Sweep
# plot's glyphs and compare mode's rank lines; the overlay scrolls (j) when it is taller than
# the screen, and a resize clamps its scroll position (as the help's: no blank rows
# below its end); and the glossary entries the legends show are the man page's
# Glossary word for word (model/glossary.c holds every term of it).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
mkdir -p traces
"$B/gen_trace" traces/rank0.pt.trace.json 1 0 >/dev/null && "$B/gen_trace" traces/rank1.pt.trace.json 1 1 >/dev/null &&
	"$B/gen_pair" a 8 200 1 && "$B/gen_pair" reg 8 200 2 5 100 && "$B/gen_sweep" sweep 50 4 3 >/dev/null ||
	{ tap_notok "fixtures generated"; exit 0; }
tui() {   # tui LINES COLUMNS ARGS...: the explorer on ./keys, headless
	l=$1 c=$2
	shift 2
	TSCOPE_SCRIPT=keys TERM=dumb LINES=$l COLUMNS=$c LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui "$@" >/dev/null 2>err
}

# one pane after the other, each with its legend, on a screen tall enough for all and
# as wide as the legend box (so a dump row holds legend text only)
cat >keys <<KEYS
i
:dump $PWD/heatmap
<Esc>1i
:dump $PWD/overview
<Esc>3i
:dump $PWD/ranks
<Esc>4i
:dump $PWD/steps
<Esc>5i
:dump $PWD/budget
<Esc>6i
:dump $PWD/findings
<Esc>7i
:dump $PWD/sources
KEYS
tui 200 100 "$demo"
tap_rc $? "demo: a legend on every pane, exit 0"
tap_check "Heatmap: the ramp with the values of each level" 'grep -q "Heatmap: compute (rank x step)" heatmap && grep -q "(up to the worst)" heatmap'
tap_check "Overview: the summary lines' tones" 'grep -q "Overview: the run at a glance" overview && grep -q "a problem line" overview'
tap_check "Ranks: every column explained (time_lost_s in seconds, critical_share)" 'grep -q "Table: ranks" ranks && grep -qE "time_lost_s +the rank.s time lost; seconds" ranks && grep -q "critical_share .*critical (slowest)" ranks'
tap_check "Ranks: onset_step as the man page says (first step of the longest critical-path stretch)" \
	'grep -qE "onset_step +first step of its longest critical-path stretch" ranks'
tap_check "Steps: one fill per phase, the sparkline ramp" 'grep -q "Steps: one rank" steps && grep -q "phase forward" steps && grep -q "its highest" steps'
tap_check "Budget: the five budget lines" 'grep -q "Budget: where" budget && grep -q "data stall: time in the data phase" budget'
tap_check "Findings: its columns, the severity colours, a not-judged row dim" \
	'grep -q "Table: findings" findings && grep -qE "severity +severity: high, med or low" findings &&
	 grep -q "not judged (dim)" findings'
tap_check "Sources: its columns" 'grep -q "Table: sources" sources && grep -qE " path +text" sources && grep -qE " message +text" sources'
tap_check "the frame's conventions follow each legend" 'grep -q "missing value (never shown as 0)" ranks && grep -q "search match" steps'

# a trace view (idle) and the Sweep pane; compare mode's Overview
printf ':view idle\ni\n:dump %s/idle\n' "$PWD" >keys
tui 200 100 traces
tap_check "a trace view: its columns and the glossary's idle" 'grep -q "Table: idle" idle && grep -qE " idle +Time on the GPU" idle'
# traces' words: the heatmap's compute is the step less its exposed communication (the
# GPU time tab's compute_us the kernels'), potential_straggler HTA's method (formats.md 2.4)
printf '2i\n:dump %s/tr_heat\n<Esc>\n:view temporal\ni\n:dump %s/temporal\n' "$PWD" "$PWD" >keys
tui 200 100 traces
tr -s ' \n' '  ' <tr_heat >tr_heat.flat
tr -s ' \n' '  ' <temporal >temporal.flat
tap_check "traces: the heatmap legend's compute is the step less its exposed communication" \
	'grep -q "Heatmap: compute" tr_heat &&
	 grep -q "for a trace.s ProfilerStep, the step less its exposed communication" tr_heat.flat &&
	 grep -q "the temporal view.s compute_us" tr_heat.flat'
tap_check "traces: potential_straggler is HTA's late start of a communication kernel, not idle time" \
	'grep -q "potential_straggler HTA.s per-rank flag in the temporal view: yes for the 2 ranks most often \
among the 2 latest, step by step, to start the communication kernel" temporal.flat &&
	 ! grep -q "idle time stands out" temporal.flat'
printf '8i\n:dump %s/sweep.txt\n' "$PWD" >keys
tui 200 100 sweep
tap_check "Sweep: the plot's glyphs" 'grep -q "Sweep: one source" sweep.txt && grep -q "removed from the fit" sweep.txt'
printf '3i\n:dump %s/cmp_ranks\n' "$PWD" >keys
tui 200 100 a reg
tap_check "a pair's Ranks: onset_b is the first step of the regression in B" \
	'grep -qE "onset_b +first step of the regression in B" cmp_ranks'
printf '1i\n:dump %s/compare\n' "$PWD" >keys
tui 200 100 a reg
tap_check "compare mode: the rank lines explained" 'grep -q "Compare: run B against run A" compare && grep -q "regressed, or B slower" compare'

# scrolling: at 80x24 the Ranks legend is taller than the screen; j scrolls it
printf '3i\n:dump %s/s0\njjjjj\n:dump %s/s1\nG\n:dump %s/s2\n' "$PWD" "$PWD" "$PWD" >keys
tui 24 80 "$demo"
tap_check "80x24: the legend says it scrolls" 'grep -q "j/k scroll" s0'
tap_check "j scrolls the legend by rows" '[ "$(sed -n 4p s0)" != "$(sed -n 4p s1)" ] && grep -qF "$(sed -n 9p s0)" s1'
tap_check "G shows its end (the frame's conventions)" 'grep -q "The status row shows the exact value" s2'
# a resize after scrolling to the end: the scroll position is clamped to the new height,
# so the end sits on the box's last row (38 of 40), no blank rows below it; the same
# for the help (?: its last two commands on rows 57-58 of 60)
printf 'i\nG\n:resize 40 120\n:dump %s/r1\n<Esc>?\nG\n:resize 60 160\n:dump %s/r2\n' "$PWD" "$PWD" >keys
tui 24 80 "$demo"
tap_check "a taller window after G: the legend's end on its last row" \
	'grep -q "j/k scroll" r1 && sed -n 38p r1 | grep -q "The status row shows the exact value"'
tap_check "... and the help's end on its last row (58 of 60)" \
	'grep -q "j/k scroll" r2 && sed -n 57,58p r2 | grep -c "^ :[a-z]" | grep -qx 2'

# the glossary: the man page's words (as mandoc renders them, `x' quotes read 'x'), every
# term in model/glossary.c, each shown entry word for word
man="$TSCOPE_ROOT/man/tscope-tui.1"
if ! command -v mandoc >/dev/null 2>&1; then
	tap_skip "mandoc is not installed: the glossary is not compared"
	tap_plan
	exit 0
fi
mandoc -Tascii -Owidth=1000 "$man" | sed 's/.\x08//g' |
	awk '/^   Glossary$/ { on = 1; next } on && /^   [A-Z]/ { exit } on' | tail -n +2 >gloss.txt
# one "TERM<TAB>DEFINITION" line per entry (a long term has its definition on the next line)
awk 'BEGIN { RS = "" } {
	sub(/^ +/, ""); n = index($0, "  "); nl = index($0, "\n")
	if (n == 0 || (nl && nl < n)) { term = substr($0, 1, nl - 1); def = substr($0, nl + 1) }
	else { term = substr($0, 1, n - 1); def = substr($0, n) }
	gsub(/[ \n]+/, " ", def); sub(/^ /, "", def); gsub(/`/, "\047", def)
	print term "\t" def }' gloss.txt >gloss.tsv
cat heatmap overview ranks steps budget findings sources idle tr_heat temporal sweep.txt compare |
	tr -s ' \n' '  ' >all.flat
n=0 shown=0 bad= absent=
while IFS='	' read -r term def; do
	n=$((n + 1))
	grep -qF "{ \"$term\"," "$TSCOPE_ROOT/model/glossary.c" || absent="$absent '$term'"
	start=$(echo "$def" | cut -d' ' -f1-4)
	grep -qF -- "$term $start" all.flat || continue
	shown=$((shown + 1))
	grep -qF -- "$term $def" all.flat || bad="$bad '$term'"
done <gloss.tsv
tap_check "model/glossary.c holds the man page's $n glossary terms (missing:${absent:- none})" '[ -z "$absent" ] && [ "$n" -ge 16 ]'
tap_check "the $shown glossary entries the legends show are the man page's words (differ:${bad:- none})" '[ -z "$bad" ] && [ "$shown" -ge 10 ]'
tap_plan
