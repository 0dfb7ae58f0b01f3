#!/bin/sh
# vocabulary.sh: one vocabulary (issue 10). Every "wall", "span" and "straggler" a pane,
# a view's column header, --export or the default --print report shows must be a term
# of the man page glossary (man/tscope-tui.1, .Ss Glossary): "step wall", "run wall",
# "rank wall", "trace span", "straggler", never a bare "wall" whose meaning the reader
# has to guess. The only exception is the one the glossary names: the texts of the
# pytscope findings it lists keep pytscope's bare "wall" (they are that contract).
# Scanned: the demo's seven panes and Budget status, its report and every exported
# view's header; the same for a DASF database and, with ../shared/real, a Kineto trace
# set and a GenAI-Perf sweep.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
man="$TSCOPE_ROOT/man/tscope-tui.1"

# The glossary's terms, one a line, lowercase, "_" as " ".
awk '/^\.Ss Glossary/ { g = 1; next } g && /^\.Ss / { exit }
	g && /^\.It Em / { sub(/^\.It Em /, ""); gsub(/"/, ""); gsub(/_/, " "); print tolower($0) }' "$man" >terms
# The pytscope findings whose texts keep a bare "wall": the ids in the glossary's wall entry.
awk '/^\.Ss Glossary/ { g = 1; next } g && /^\.It Em / { w = ($3 == "wall") ; next }
	g && w { while (match($0, /[A-Z]+\.[A-Z_]+/)) { print substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }' \
	"$man" | sort -u >exempt_ids
for t in "step time" "step wall" "run wall" "rank wall" "trace span" compute comm idle straggler "time lost"; do
	tap_check "glossary defines '$t'" 'grep -qx "$t" terms'
done
tap_check "glossary names the pytscope findings that keep a bare wall" \
	'grep -qx EFFICIENCY.LOW_MFU exempt_ids && grep -qx DIST.EXPOSED_COMM exempt_ids'

# check FILE...: prints "FILE: phrase" for every wall/span/straggler phrase that is not a
# glossary term (the word before "wall(s)"/"span(s)" is part of the term).
check() {
	awk -v terms="$TSCOPE_TMP/terms" '
	BEGIN { while ((getline t < terms) > 0) ok[t] = 1 }
	{
		s = tolower($0); gsub(/[_-]/, " ", s)
		while (match(s, /[a-z]*[^a-z]*(walls?|spans?)([^a-z]|$)/)) {
			p = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/[^a-z]$/, "", p); sub(/s$/, "", p)
			n = split(p, w, /[^a-z]+/)
			phrase = (n >= 2 && w[1] != "") ? w[1] " " w[n] : w[n]
			if (!(phrase in ok) || phrase == "wall") print FILENAME ": " phrase "  <" $0 ">"
		}
		s = tolower($0); gsub(/[-]/, " ", s)
		while (match(s, /[a-z_]*straggler[a-z_]*/)) {
			p = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			gsub(/_/, " ", p); sub(/ m?s$/, "", p); sub(/s$/, "", p)
			q = p; sub(/^straggler /, "", q)   # straggler_cost_s: the cost of a straggler
			if (!(p in ok) && !(q in ok)) print FILENAME ": " p "  <" $0 ">"
		}
	}' "$@"
}

# The checker can fail: a bare wall, an unknown "X wall" and an unknown span are caught.
printf '  wall time        54.54 s\n  budget  31%% of 49.18 s wall (rank 0)\n  gpu_wall_ms 3\n  traced span 4\n' >bad.txt
tap_eq "checker flags a bare wall, an undefined 'gpu wall' and 'traced span'" 4 "$(check bad.txt | wc -l | tr -d ' ')"
printf '  run wall  54.54 s (sum of step walls)\n  rank_wall_s trace_span_ms  potential_straggler stragglers\n' >good.txt
tap_eq "checker passes glossary terms" "" "$(check good.txt)"

# scan NAME DIR: panes 1-7 (the Overview down to its findings list), the Budget status
# row, the report (down to FINDINGS), every view's header, the non-exempt findings.
scan() {
	name=$1 dir=$2
	: >"$name.keys"
	for k in 1 2 3 4 5 7; do printf '%s\n:dump %s/%s.%s\n' "$k" "$TSCOPE_TMP" "$name" "$k" >>"$name.keys"; done
	LINES=40 COLUMNS=160 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/$name.keys" \
		"$TSCOPE_BIN" --tui "$dir" >/dev/null 2>"$name.tui.err"
	sed -i '/^  Findings (/,$d' "$name.1"
	"$TSCOPE_BIN" --print --color never "$dir" 2>/dev/null | sed '/^● FINDINGS/,$d' >"$name.report"
	rm -rf "$name.csv" && mkdir "$name.csv"
	"$TSCOPE_BIN" --export all -o "$name.csv" "$dir" >/dev/null 2>&1
	for f in "$name.csv"/*.csv; do head -1 "$f"; done >"$name.headers"
	# findings (id, title, detail) other than the exempt pytscope ones
	"$TSCOPE_BIN" --export findings -o - "$dir" 2>/dev/null | grep -v -F -f exempt_ids >"$name.findings"
	ls "$name".[0-9] >/dev/null 2>&1 || { tap_notok "$name: pane dumps written"; return; }
	tap_check "$name: report, panes, headers and findings have report text" \
		'[ -s "$name.report" ] && [ -s "$name.headers" ] && [ -s "$name.findings" ] && [ -s "$name.3" ]'
	check "$name".[0-9] "$name.report" "$name.headers" "$name.findings" >"$name.bad"
	if [ -s "$name.bad" ]; then
		tap_notok "$name: every wall/span/straggler label is a glossary term"
		sed 's/^/# /' "$name.bad" | head -20
	else
		tap_ok "$name: every wall/span/straggler label is a glossary term"
	fi
}

scan demo "$TSCOPE_ROOT/testdata/demo"
tap_check "demo: the Overview names its walls (run wall, rank wall of rank 0)" \
	'grep -q "^  run wall  *54.5 s (sum of step walls" demo.1 && grep -q "of rank wall 49.2 s (rank 0)" demo.1'
tap_check "demo: the Budget pane names its rank wall" 'grep -q "Budget of rank [0-9]*: rank wall " demo.5'

"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dasf >/dev/null 2>&1 && scan dasf dasf
real="$TSCOPE_ROOT/../shared/real"
if [ -d "$real/kineto-dlrm-8rank" ]; then
	scan dlrm "$real/kineto-dlrm-8rank"
	scan sweep "$real/genai-perf-medium"
else
	tap_skip "../shared/real not present: no trace set or sweep scanned"
fi
tap_plan
