#!/bin/sh
# vocabulary.sh: one vocabulary (issue 10). Every "wall", "span" and "straggler" a pane,
# a view's column header, --export or the default --print report shows must be a term
# of the man page glossary (man/tscope-tui.1, .Ss Glossary): "step wall", "run wall",
# "rank wall", "trace span", "straggler", never a bare "wall" whose meaning the reader
# has to guess. The only exception is the one the glossary names: the texts of the
# pytscope findings it lists keep pytscope's bare "wall" (they are that contract).
# "compute", "comm" and "idle" are terms themselves; a word joined to one of them by a
# space, "_" or "-", before it ("critical compute", "useful_compute_s", "non-compute")
# or after it ("compute_overhead", "comm overlap"), must make a glossary term with it
# unless it only counts, measures or places it ("mean compute", "n_comm", "compute_ms",
# "GPU idle", "per-rank compute", "idle_time_us", "compute per step", "compute lost to").
# Finding ids (DIST.COMM_BOUND) are names, not labels: they are not judged.
# Scanned: the demo's seven panes and Budget status, its report and every exported
# view's header; the same for a DASF database and, with ../shared/real, a Kineto trace
# set and a GenAI-Perf sweep; and compare mode on a generated pair (tests/tools/gen_pair).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
man="$TSCOPE_ROOT/man/tscope-tui.1"

# The glossary's terms, one a line, lowercase, "_" as " ".
awk '/^\.Ss Glossary/ { g = 1; next } g && /^\.Ss / { exit }
	g && /^\.It Em / { sub(/^\.It Em /, ""); gsub(/"/, ""); gsub(/[_-]/, " "); print tolower($0) }' "$man" >terms
# The pytscope findings whose texts keep a bare "wall": the ids in the glossary's wall entry.
awk '/^\.Ss Glossary/ { g = 1; next } g && /^\.It Em / { w = ($3 == "wall") ; next }
	g && w { while (match($0, /[A-Z]+\.[A-Z_]+/)) { print substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }' \
	"$man" | sort -u >exempt_ids
for t in "step time" "step wall" "run wall" "rank wall" "trace span" compute "critical compute" \
	"useful compute" "non compute" comm idle straggler "time lost"; do
	tap_check "glossary defines '$t'" 'grep -qx "$t" terms'
done
tap_check "glossary names the pytscope findings that keep a bare wall" \
	'grep -qx EFFICIENCY.LOW_MFU exempt_ids && grep -qx DIST.EXPOSED_COMM exempt_ids'

# check FILE...: prints "FILE: phrase" for every wall/span/straggler phrase that is not a
# glossary term (the word before "wall(s)"/"span(s)" is part of the term).
check() {
	awk -v terms="$TSCOPE_TMP/terms" '
	BEGIN {
		while ((getline t < terms) > 0) ok[t] = 1
		# words that count, measure or place a quantity without naming another one
		split("a b n delta mean median worst max min total sum ms us s pct the is are and or of " \
		      "in on gpu least most behind", v, / /)
		for (i in v) neutral[v[i]] = 1
		# after the word: a unit, a measure or a preposition/verb of the sentence
		split("a b ms us s pct per mean median worst max min total sum time ratio share split " \
		      "lost by while view category and or of in on is are to for from", v, / /)
		for (i in v) neutral_after[v[i]] = 1
	}
	{
		gsub(/[A-Z]+\.[A-Z][A-Z_]*/, "")   # finding ids
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
		s = tolower($0); gsub(/[_-]/, " ", s)
		while (match(s, /(^|[^a-z])([a-z]+ )?([a-z]+ )?(compute|comm|idle)([^a-z]|$)/)) {
			p = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH - 1)
			gsub(/^[^a-z]+|[^a-z]+$/, "", p)
			n = split(p, w, / /)
			if (n >= 2 && w[n - 1] in neutral)
				continue
			if (n == 3 && w[1] == "per")   # per-step compute: compute per step
				continue
			phrase = n >= 2 ? w[n - 1] " " w[n] : w[n]
			if (!(phrase in ok)) print FILENAME ": " phrase "  <" $0 ">"
		}
		s = tolower($0); gsub(/[_-]/, " ", s)
		while (match(s, /(^|[^a-z])(compute|comm|idle) [a-z]+/)) {
			p = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/^[^a-z]+/, "", p)
			split(p, w, / /)
			if (w[2] in neutral_after || p in ok)
				continue
			print FILENAME ": " p "  <" $0 ">"
		}
	}' "$@"
}

# The checker can fail: a bare wall, an unknown "X wall" and an unknown span are caught.
printf '  wall time        54.54 s\n  budget  31%% of 49.18 s wall (rank 0)\n  gpu_wall_ms 3\n  traced span 4\n' >bad.txt
tap_eq "checker flags a bare wall, an undefined 'gpu wall' and 'traced span'" 4 "$(check bad.txt | wc -l | tr -d ' ')"
printf '  run wall  54.54 s (sum of step walls)\n  rank_wall_s trace_span_ms  potential_straggler stragglers\n' >good.txt
printf '  critical compute 3 s, useful_compute_s, non-compute 2, mean_compute_ms, n_comm, GPU idle 5%%\n' >>good.txt
printf '  per-rank compute (ms/step), compute/comm/idle split, idle_time_us\n' >>good.txt
printf '  compute_overhead 2 s, comm_overlap_pct, compute per step, compute lost to imbalance, DIST.COMM_BOUND\n' >>good.txt
tap_eq "checker passes glossary terms" "" "$(check good.txt)"
printf '  step compute 3 ms\n  exposed comm 4 ms\n  host-idle 2\n  total traced_compute_ms\n' >bad2.txt
printf '  compute_phase 3 ms\n  comm wait 2\n  idle-gap_us 5\n' >>bad2.txt
tap_eq "checker flags 'step compute', 'exposed comm', 'host idle', 'traced compute', 'compute phase', 'comm wait', 'idle gap'" \
	7 "$(check bad2.txt | wc -l | tr -d ' ')"

# judge NAME: one check over NAME's pane dumps, report, headers and findings.
judge() {
	check "$1".[0-9] "$1.report" "$1.headers" "$1.findings" >"$1.bad"
	if [ -s "$1.bad" ]; then
		tap_notok "$1: every wall/span/straggler/compute/comm/idle label is a glossary term"
		sed 's/^/# /' "$1.bad" | head -20
	else
		tap_ok "$1: every wall/span/straggler/compute/comm/idle label is a glossary term"
	fi
}

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
	judge "$name"
}

# scan_pair NAME A B: compare mode the same way: panes 1-4, 6, 7 (the Findings pane, 5,
# shows pytscope's finding texts: those are checked through diff_findings), the report
# from its own COMPARISON section (pytscope's diff before it is pytscope's contract) down
# to FINDINGS, the diff views' headers (not diff_env's: the pair's run.json agree, so it
# has no rows and is refused) and the non-exempt diff_findings.
scan_pair() {
	name=$1 a=$2 b=$3
	: >"$name.keys"
	for k in 1 2 3 4 6 7; do printf '%s\n:dump %s/%s.%s\n' "$k" "$TSCOPE_TMP" "$name" "$k" >>"$name.keys"; done
	LINES=40 COLUMNS=160 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/$name.keys" \
		"$TSCOPE_BIN" --tui "$a" "$b" >/dev/null 2>"$name.tui.err"
	"$TSCOPE_BIN" --print --color never "$a" "$b" 2>/dev/null | sed -n '/^● COMPARISON/,/^● FINDINGS/p' >"$name.report"
	for v in diff_ranks diff_budget diff_findings; do
		"$TSCOPE_BIN" --export "$v" -o - "$a" "$b" 2>/dev/null | head -1
	done >"$name.headers"
	"$TSCOPE_BIN" --export diff_findings -o - "$a" "$b" 2>/dev/null | grep -v -F -f exempt_ids >"$name.findings"
	tap_check "$name: report, panes and headers have report text" \
		'[ -s "$name.report" ] && [ -s "$name.3" ] && [ "$(wc -l <"$name.headers")" -eq 3 ]'
	judge "$name"
}

scan demo "$TSCOPE_ROOT/testdata/demo"
tap_check "demo: the Overview names its walls (run wall, rank wall of rank 0)" \
	'grep -q "^  run wall  *54.5 s (sum of step walls" demo.1 && grep -q "of rank wall 49.2 s (rank 0)" demo.1'
tap_check "demo: the Budget pane names its rank wall" 'grep -q "Budget of rank [0-9]*: rank wall " demo.5'

"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dasf >/dev/null 2>&1 && scan dasf dasf
gen_pair="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
if "$gen_pair" pa 8 200 1 >/dev/null && "$gen_pair" pb 8 200 2 5 100 >/dev/null; then
	scan_pair pair pa pb
	tap_check "pair: diff_ranks names its mean compute" \
		'grep -q "^rank,change,a_mean_compute_ms,b_mean_compute_ms,delta_mean_compute_ms," pair.headers'
	tap_check "pair: the Overview's rank line says compute per step" 'grep -q "rank 5 .* compute per step" pair.1'
else
	tap_notok "pair generated"
fi
real="$TSCOPE_ROOT/../shared/real"
if [ -d "$real/kineto-dlrm-8rank" ]; then
	scan dlrm "$real/kineto-dlrm-8rank"
	scan sweep "$real/genai-perf-medium"
else
	tap_skip "../shared/real not present: no trace set or sweep scanned"
fi
tap_plan
