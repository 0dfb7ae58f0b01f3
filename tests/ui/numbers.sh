#!/bin/sh
# numbers.sh: every figure on every screen follows the display rule (issue 14; README
# "Numbers"). Headless sessions at 80x24 and 200x50 on each input family (steps, traces,
# DASF, GenAI-Perf, Cerebras, a comparison, and ../shared/real when present) visit every
# tab and every view; each screen dump must have
#   - no ellipsis inside a number ("-0.0…", "max 0.171…"),
#   - no float noise (a number with more than 6 decimals, "0.01846026019999998"),
#   - no unitless time or size: a cell under a column named *_s, *_ms, *_us, *_mb,
#     *_bytes, *_pct, pct or "(s)" / "(MB)" / "(GB)" / "(%)" carries its unit (or is "-"),
#     and a figure after "wall", "cost", "memory", "time", "worst", "mean", "median",
#     "max", "latency", "span" or NAME_s=, NAME_ms= ... in a status or summary line is
#     followed by a unit word ("18.5 ms", "3 tasks") or is a percentage.
# The checker is first run on known-bad screens, so it can fail.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
work="$TSCOPE_TMP/numbers"
mkdir -p "$work" && cd "$work" || exit 1

UNIT='(us|ms|s|B|KiB|MiB|GiB|TiB)'
NUM='[-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?'

# check_dump FILE LINES: print every offending line as "FILE:N: why: text".
check_dump() {
	f=$1
	# line 1 is the tab bar (its labels are cut with an ellipsis, "7 Sou…")
	sed 1d "$f" | grep -nE "(^|[^,] |[=(])$NUM…" | sed "s|^|$f: number cut: |"
	grep -nE "(^|[ =(])[-+]?[0-9]+\.[0-9]{7,}([^0-9]|\$)" "$f" | sed "s|^|$f: float noise: |"
	grep -noE "(wall|cost|memory|time|worst|mean|median|max|latency|span|[a-z]+_(s|ms|us|mb))[ =]$NUM%?( [A-Za-z]+)?" "$f" |
		grep -vE "%( |\$)|%\$| [A-Za-z]+\$" | sed "s|^|$f: no unit: |"
	# table columns: a header ending in a unit suffix (a clipped header, "slow_from_s…",
	# names no unit); cells right-aligned under it; ^ is a sort arrow after ASCII-fying
	LC_ALL=C.UTF-8 sed 's/…/~/g; s/[▲▼]/^/g; s/[^ -~]/?/g' "$f" | awk -v f="$f" -v last="$2" -v unit="^$UNIT\$" '
	NR == 2 {
		n = 0
		line = $0
		off = 0
		while (match(line, /(_s|_ms|_us|_mb|_bytes|_pct|[ _]pct|\((s|MB|Mb|GB|%)\))\^?( |$)/)) {
			e = off + RSTART + RLENGTH - 1
			if (substr($0, e, 1) == " ")
				e--
			end[++n] = e
			off += RSTART + RLENGTH - 1
			line = substr(line, RSTART + RLENGTH)
		}
		next
	}
	NR > 2 && NR < last - 1 && n > 0 {
		if ($0 ~ /^ *$/ || $0 ~ /^\?\?\?/)
			exit
		for (i = 1; i <= n; i++) {
			cell = substr($0, 1, end[i])
			k = split(cell, w, " ")
			if (k == 0 || substr($0, end[i], 1) == " ")
				continue
			if (w[k] ~ /^[-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?$/)
				printf "%s:%d: no unit in a unit column: %s\n", f, NR, $0
		}
	}'
}

# the checker itself: each known-bad screen must be flagged
printf 'tabs\n  rank  critical_share  time_lost_s\n     0           0.000        0.022\n\n\nstatus\nhints\n' >bad_col
printf 'tabs\n x\n  compute scale 0.1085..max 0.171…\n  rank 3 rel_slowdown -0.0…\n' >bad_cut
printf 'tabs\n\n ranks  row 1/16  time_lost_s=0.01846026019999998\n' >bad_noise
printf 'tabs\n\n rank 11 step 0  memory 4.57601e+09  step_time 0.124\n' >bad_unit
printf 'tabs\n  rank  critical_share  time_lost_s\n     0           0.000      22.0 ms\n  memory 4.26 GiB  wall 54.5 s  comm 10.8%%\n\nstatus\nhints\n' >good
tap_check "checker flags a bare number under time_lost_s" '[ -n "$(check_dump bad_col 7)" ]'
tap_check "checker flags an ellipsis inside a number" '[ "$(check_dump bad_cut 4 | grep -c "number cut")" = 2 ]'
tap_check "checker flags float noise" 'check_dump bad_noise 3 | grep -q "float noise"'
tap_check "checker flags a unitless memory and time figure" '[ "$(check_dump bad_unit 3 | grep -c "no unit")" = 2 ]'
tap_check "checker passes good figures" '[ -z "$(check_dump good 7)" ]'

# fixtures
"$B/gen_fixtures" f2 f2 >/dev/null &&
	mkdir -p traces && "$B/gen_trace" traces/rank0.pt.trace.json 1 0 >/dev/null &&
	"$B/gen_trace" traces/rank1.pt.trace.json 1 1 >/dev/null &&
	mkdir -p dasf && "$B/gen_dasf" fixture dasf >/dev/null &&
	"$B/gen_pair" pa 8 60 1 >/dev/null && "$B/gen_pair" pb 8 60 2 5 30 >/dev/null &&
	mkdir -p cerebras && cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/cerebras_ordinals.json" cerebras/performance.json ||
	{ tap_notok "fixtures generated"; tap_plan; exit 0; }
sweep="$TSCOPE_ROOT/tests/unit/fixtures/sweep"
sets="demo=$TSCOPE_ROOT/testdata/demo f2=f2 traces=traces dasf=dasf
analyze=$sweep/analyze_export_genai_perf.csv cerebras=cerebras"
real="$TSCOPE_ROOT/../shared/real"
if [ -d "$real" ]; then
	sets="$sets dlrm=$real/kineto-dlrm-8rank hta=$real/kineto-hta-2rank genai=$real/genai-perf-medium
t4=$real/pytscope-t4/exp2_bad"
else
	tap_skip "../shared/real is absent: only the generated fixtures"
fi

views=$("$TSCOPE_BIN" --list-views | awk '$1 != "all" { print $1 }')
# walk NAME LINES COLS PATH...: dump every tab and every view into NAME.LINESxCOLS/
walk() {
	name=$1 lines=$2 cols=$3
	shift 3
	d="$work/$name.${lines}x$cols"
	mkdir -p "$d"
	: >"$d/keys"
	for t in 1 2 3 4 5 6 7 8 9; do printf '%s\n:dump %s/tab%s\n' "$t" "$d" "$t" >>"$d/keys"; done
	for v in $views; do printf ':view %s\n:dump %s/view_%s\n' "$v" "$d" "$v" >>"$d/keys"; done
	echo ':quit' >>"$d/keys"
	TSCOPE_SCRIPT="$d/keys" LINES=$lines COLUMNS=$cols TERM=xterm-256color HOME="$work" \
		"$TSCOPE_BIN" --tui --no-index "$@" >/dev/null 2>"$d/err"
	rc=$?
	bad=""
	for s in "$d"/tab* "$d"/view_*; do
		bad="$bad$(check_dump "$s" "$lines")"
	done
	tap_check "$name at ${cols}x$lines: exit 0, every figure with its unit, uncut, no float noise" \
		'[ "$rc" -eq 0 ] && [ -z "$bad" ]'
	[ -n "$bad" ] && printf '%s\n' "$bad" | head -10 | sed 's/^/# /'
}

for size in "24 80" "50 200"; do
	for s in $sets; do
		walk "${s%%=*}" $size "${s#*=}"
	done
	walk compare $size pa pb
done
tap_plan
