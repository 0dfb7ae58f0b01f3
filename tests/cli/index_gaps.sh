#!/bin/sh
# index_gaps.sh: a sharded index of a run whose ranks' steps are not one run of step
# numbers (model/steps/analysis_index_inputs.c): gaps, restarts, missing values, a rank
# without records, a rank with only bad lines, shards without the optimizer phase, a run
# of one rank. For
# N = 1, 2 and 4 shards, the first open (which merges the shards' parts of the summary,
# reading no rank's steps: test_index_summary pins that) and the next one give exactly
# the --print, --export ranks and --export findings of a plain --no-index load. Records
# without a compute phase (a rank without any, a rank with phases on 10 of 30 steps, the
# lowest rank without any): missing, not 0 s, from a whole index, a summary rebuilt from
# its part and 2 shards as in a plain load (--print, --export heatmap, heatmap_cells,
# ranks, nodes).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
work="$TSCOPE_TMP/index_gaps.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# gen DIR KIND...: rank k of kind k: plain, gap (steps 20-24 missing), gaps (every 7th
# missing), restart (0-39 then 25-44), twice (restarted twice), missing (forward and
# backward absent on every 5th record), late (from step 3), empty (no line), bad (only
# lines that are not records); a kind ending in - has no optimizer phase.
gen() {
	dir=$1
	shift
	r=0
	for kind in "$@"; do
		mkdir -p "$dir/rank$r"
		awk -v r=$r -v kind="$kind" 'BEGIN {
			opt = kind !~ /-$/
			sub(/-$/, "", kind)
			if (kind == "empty")
				exit
			if (kind == "bad") {
				print "{not json"; print "{\"step\": }"; print "[1,2]"
				exit
			}
			n = kind == "twice" ? 80 : 60
			for (k = 0; k < n; k++) {
				s = kind == "late" ? k + 3 : kind == "restart" && k >= 40 ? k - 15 : k
				if (kind == "twice")
					s = k < 30 ? k : k < 55 ? k - 20 : k - 40
				if ((kind == "gap" && k >= 20 && k < 25) || (kind == "gaps" && k % 7 == 3))
					continue
				f = 0.020 + 0.0001 * ((r * 5 + k * 11) % 13) + (r == 3 && k >= 30 ? 0.006 : 0)
				printf "{\"step\":%d,\"phases\":{\"data\":0.002,", s
				if (kind != "missing" || k % 5 != 2)
					printf "\"forward\":%.6f,\"backward\":%.6f,", f, 2 * f
				if (opt)
					printf "\"optimizer\":0.00%d,", 1 + (k + r) % 5
				printf "\"comm\":0.0%02d},\"memory\":{\"peak_alloc\":%d}}\n", 10 + (k * 3 + r) % 17, 1000 + (k * 7 + r * 13) % 301
			}
		}' >"$dir/rank$r/steps.jsonl"
		r=$((r + 1))
	done
}

# check RUN WHAT: N = 1, 2, 4 shards against the plain load.
check() {
	run=$1 what=$2 idx=$1/.tscope-index
	"$T" --print --no-index $run >want.txt 2>/dev/null
	"$T" --export ranks --no-index $run >want.csv 2>want.err   # its data-quality line
	"$T" --export findings --no-index $run >want.f.csv 2>/dev/null
	for n in 1 2 4; do
		rm -rf $idx
		k=0
		while [ $k -lt $n ]; do "$T" index --shard $k/$n $run >/dev/null 2>&1; k=$((k + 1)); done
		"$T" --print $run >got.txt 2>/dev/null
		"$T" --export ranks $run >got.csv 2>/dev/null
		"$T" --export findings $run >got.f.csv 2>/dev/null
		tap_check "$what, $n shard(s): the first open = the plain load (--print, --export ranks, --export findings)" \
			'cmp -s want.txt got.txt && cmp -s want.csv got.csv && cmp -s want.f.csv got.f.csv'
		tap_check "$what, $n shard(s): the summary written, the shards' parts of it removed" \
			'[ -s $idx/summary.tsx ] && ! ls $idx | grep -q "^inputs-"'
		"$T" --print $run >got.txt 2>/dev/null
		"$T" --export ranks $run >got.csv 2>err.txt
		tap_check "$what, $n shard(s): the next open from the summary = the plain load, no diagnostic of its own" \
			'cmp -s want.txt got.txt && cmp -s want.csv got.csv && cmp -s want.err err.txt'
	done
}

gen mixed gap restart missing plain gaps- twice- late- missing-
check mixed "gaps, restarts, missing values, shards without the optimizer phase"
tap_check "mixed: the ranks' steps are not aligned as a range" 'grep -q "aligned across ranks" want.txt && grep -q "^0,55," want.csv'
"$T" --export sources --no-index mixed 2>/dev/null | grep "follows step" | cut -d, -f1-5,9 | cut -c1-80 >back.txt
tap_eq "mixed: each restarted rank's first step back is a note (file, line, the steps)" \
	"info,mixed/rank1/steps.jsonl,,1,41,\"step 25 follows step 39: the log repeats ste
info,mixed/rank5/steps.jsonl,,5,31,\"step 10 follows step 29: the log repeats ste" "$(cat back.txt)"
"$T" --export sources mixed 2>/dev/null | grep "follows step" | cut -d, -f1-5,9 | cut -c1-80 >back2.txt
tap_check "mixed: the same notes from the index" 'cmp -s back.txt back2.txt'
gen empty gap plain empty restart
check empty "a rank without records"
tap_check "empty: nothing aligned, said so" 'grep -q "0 aligned across ranks" want.txt'
gen bad plain gap bad plain
check bad "a rank with only bad lines"
gen one twice
check one "one rank, restarted twice"

P='"phases":{"data":0.01,"forward":0.02,"backward":0.04,"optimizer":0.005,"comm":0.003}'
# nocomp DIR N NONE PART: N ranks of 30 steps; rank NONE records no phase, rank PART
# phases on steps 0-9 only (the loss alone where they have none)
nocomp() {
	r=0
	while [ $r -lt $2 ]; do
		mkdir -p "$1/rank$r"
		for s in $(seq 0 29); do
			if [ $r -eq $3 ] || { [ $r -eq $4 ] && [ $s -ge 10 ]; }; then
				echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"
			else
				echo "{\"step\":$s,$P}"
			fi
		done >"$1/rank$r/steps.jsonl"
		r=$((r + 1))
	done
}
# views [--no-index] DIR: the report and the views that show compute
views() {
	"$T" --print --color never "$@"
	for v in heatmap heatmap_cells ranks; do "$T" --export $v "$@"; done
	"$T" --export nodes --ranks-per-node 2 "$@"
}
# same_nocomp DIR: from a whole index, a summary rebuilt from its part, 2 shards = plain
same_nocomp() {
	views --no-index "$1" >want.v 2>/dev/null
	rm -rf "$1/.tscope-index"
	"$T" index "$1" >/dev/null 2>&1
	views "$1" >got1.v 2>/dev/null
	rm -f "$1/.tscope-index/summary.tsx"
	views "$1" >got2.v 2>/dev/null
	rm -rf "$1/.tscope-index"
	"$T" index --shard 0/2 "$1" >/dev/null 2>&1 && "$T" index --shard 1/2 "$1" >/dev/null 2>&1
	views "$1" >got3.v 2>/dev/null
	cmp -s want.v got1.v && cmp -s want.v got2.v && cmp -s want.v got3.v
}
nocomp noph 2 1 -1
tap_check "a rank without phases: from the index as in a plain load, its compute cells missing" \
	'same_nocomp noph && [ "$(grep -c "^1,1,[0-9]*,[0-9]*,compute,,$" want.v)" -eq 30 ] &&
	 grep -q "^  stragglers  *not judged: rank 1 records no compute phase$" want.v'
nocomp partph 2 -1 1
tap_check "a rank with phases on 10 of 30 steps: the same, its 20 cells without compute missing" \
	'same_nocomp partph && [ "$(grep -c "^1,1,[0-9]*,[0-9]*,compute,,$" want.v)" -eq 20 ] &&
	 grep -q "^  stragglers  *not judged: rank 1 records no compute phase at 20 of the 30 aligned steps$" want.v'
nocomp lowph 3 0 -1
tap_check "the lowest of 3 ranks without phases: the same" \
	'same_nocomp lowph && [ "$(grep -c "^0,0,[0-9]*,[0-9]*,compute,,$" want.v)" -eq 30 ]'
# The lowest rank restarted: the first open after a sharded build read the step index
# of the lowest rank without its steps (a crash before).
gen low restart plain
"$T" index --shard 0/2 low >/dev/null 2>&1
"$T" index --shard 1/2 low >/dev/null 2>&1
rm -f low/.tscope-index/inputs-*
"$T" --print low >got.txt 2>/dev/null
tap_rc $? "lowest rank restarted, the shards' parts of the summary gone: the open reads the steps"
"$T" --print --no-index low >want.txt 2>/dev/null
tap_check "... and gives the plain load's report" 'cmp -s want.txt got.txt'
tap_plan
