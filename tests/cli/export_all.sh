#!/bin/sh
# export_all.sh: `--export all -o DIR` on a DASF, a trace, a sweep and a step fixture,
# and on a pair of runs (the diff_* views), writes every view that has rows as
# DIR/<view>.csv, each byte-identical to `--export VIEW`; views without data are not
# written; an existing file is not replaced without --force (and then nothing is
# written); CSVs of known views this input has no rows for (another input's export) are
# refused without --force and removed, each named, with it; no temp file is left; usage
# errors exit 2; a missing DIR is created with its parents. A run with no finding where
# some rules could not judge it: findings (alone and in --export all) has a "not judged"
# row per rule --print lists as such, not the header alone.
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"

# all_views NAME PATH VIEW...: export all of PATH into $TMP/NAME; the views named must be
# there and equal their single export (sources up to row order); nothing else but other
# views' CSVs
all_views() {
	name=$1 path=$2
	shift 2
	out="$TMP/$name"
	"$BIN" --export all -o "$out" "$path" >"$TMP/$name.list" 2>"$TMP/$name.err"
	tap_rc $? "$name: --export all -o DIR exits 0"
	ok=0
	for v in "$@"; do
		[ -s "$out/$v.csv" ] || { echo "# $name: $v.csv missing"; ok=1; continue; }
		# sources: ranks load in parallel, so its rows come in load order; compare sorted
		if [ "$v" = sources ]; then
			"$BIN" --export "$v" "$path" 2>/dev/null | sort | cmp -s - "$(sort "$out/$v.csv" >"$out.sorted"; echo "$out.sorted")"
		else
			"$BIN" --export "$v" "$path" 2>/dev/null | cmp -s - "$out/$v.csv"
		fi || { echo "# $name: $v.csv differs"; ok=1; }
		grep -q "^$out/$v.csv	[0-9]* rows*$" "$TMP/$name.list" || { echo "# $name: $v not listed"; ok=1; }
	done
	tap_rc $ok "$name: $* written, each identical to --export VIEW"
	[ "$(ls "$out" | wc -l)" -eq "$(wc -l <"$TMP/$name.list")" ] && ! ls "$out" | grep -qv '\.csv$'
	tap_rc $? "$name: one listed CSV per view with data, no temp files"
}

DX="$TMP/dasf_fx"
"$BUILD/tests/gen_dasf" fixture "$DX" >/dev/null
all_views dasf "$DX" function_bottleneck task_bottleneck task_balance task_graph critical_path tasks sources
[ ! -e "$TMP/dasf/kernels.csv" ] && [ ! -e "$TMP/dasf/sweep.csv" ] && [ ! -e "$TMP/dasf/ranks.csv" ]
tap_rc $? "dasf: views of other families (no data) are not written"

TX="$TMP/trace_fx"
mkdir -p "$TX"
"$BUILD/tests/gen_trace" "$TX/rank0.pt.trace.json" 1 0 && "$BUILD/tests/gen_trace" "$TX/rank1.pt.trace.json" 1 1
all_views trace "$TX" kernels kernel_breakdown comm_overlap idle temporal step_kernels ranks steps

SX="$TMP/sweep_fx"
for n in 1 2 4; do
	d="$SX/m-openai-chat-concurrency$n"
	mkdir -p "$d"
	printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\nRequest Latency (ms),%s00.00,1,2,3,3,3,3,3,3,3,3,3\n\nMetric,Value\nRequest Throughput (per sec),%s.00\nRequest Count (count),50.00\n' "$n" "$n" >"$d/p_genai_perf.csv"
done
all_views sweep "$SX" sweep sizing sources

all_views steps "$TSCOPE_ROOT/testdata/demo" ranks steps heatmap budget findings sources

# No finding, and rules that could not judge the run (10 aligned steps, no loss, no
# memory): findings carries a "not judged" row per item of --print's list, never the
# header alone (which reads as "no issues"), and --export all writes it too.
NJ="$TMP/nj_run"
. "$TSCOPE_ROOT/tests/tools/nj_run.sh"
nj_run "$NJ"
"$BIN" --print --color never "$NJ" 2>/dev/null | sed -n 's/^  - //p' >"$TMP/nj.items"
"$BIN" --export findings "$NJ" >"$TMP/nj.csv" 2>/dev/null
rc=$?
ok=0
while IFS= read -r item; do
	grep '^not judged,' "$TMP/nj.csv" | grep -F -e ",$item,,,," -e ",\"$item\",,,," | grep -qF 'No rule fired' ||
		{ echo "# no not-judged row for: $item"; ok=1; }
done <"$TMP/nj.items"
[ "$rc" -eq 0 ] && [ $ok -eq 0 ] && grep -q '^stragglers (10 aligned steps' "$TMP/nj.items" &&
	[ "$(grep -c '^not judged,' "$TMP/nj.csv")" -eq "$(wc -l <"$TMP/nj.items")" ] &&
	[ "$(wc -l <"$TMP/nj.csv")" -eq $(($(wc -l <"$TMP/nj.items") + 1)) ]
tap_rc $? "no finding, rules not judged: --export findings has a 'not judged' row per item --print lists, exit 0"
all_views not_judged "$NJ" findings

# Two runs (compare mode): every diff_* view with rows, each as --export VIEW A B writes it.
"$BUILD/tests/gen_pair" "$TMP/pa" 4 40 1 >/dev/null && "$BUILD/tests/gen_pair" "$TMP/pb" 4 40 2 1 20 >/dev/null
(cd "$TMP" && "$BIN" --export all -o pair pa pb >pair.list 2>pair.err)
tap_rc $? "pair: --export all -o DIR exits 0"
ok=0
for v in diff_ranks diff_budget diff_findings; do
	(cd "$TMP" && "$BIN" --export "$v" pa pb 2>/dev/null) | cmp -s - "$TMP/pair/$v.csv" || { echo "# $v differs"; ok=1; }
	grep -q "^pair/$v.csv	[0-9]* rows*$" "$TMP/pair.list" || { echo "# $v not listed"; ok=1; }
done
[ ! -e "$TMP/pair/diff_kernels.csv" ] && [ ! -e "$TMP/pair/diff_sweep.csv" ] && [ ! -e "$TMP/pair/ranks.csv" ] || ok=1
tap_rc $ok "pair: the diff views with rows written, each identical to --export VIEW A B; none without data"
# -o DIR/ listed each file as DIR//<view>.csv
(cd "$TMP" && "$BIN" --export all --force -o pair/ pa pb >slash.list 2>/dev/null)
tap_check "-o DIR/: the files listed as DIR/<view>.csv" \
	'grep -q "^pair/diff_ranks.csv	" "$TMP/slash.list" && ! grep -q "//" "$TMP/slash.list"'

# no overwrite without --force; with it, every file replaced
before=$(cat "$TMP/steps/ranks.csv")
echo stale >"$TMP/steps/budget.csv"
"$BIN" --export all -o "$TMP/steps" "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>"$TMP/exists.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "steps/budget.csv exists; use --force" "$TMP/exists.err" &&
	[ "$(cat "$TMP/steps/budget.csv")" = stale ] && [ "$(cat "$TMP/steps/ranks.csv")" = "$before" ]
tap_rc $? "existing files: exit 1, named on stderr, nothing written"
"$BIN" --export all --force -o "$TMP/steps" "$TSCOPE_ROOT/testdata/demo" >/dev/null &&
	"$BIN" --export budget "$TSCOPE_ROOT/testdata/demo" | cmp -s - "$TMP/steps/budget.csv"
tap_rc $? "--force replaces them"

# An earlier export of another input in DIR: its CSVs of views this run has no rows for
# (the DASF views beside the demo's) would read as this run's. Without --force nothing is
# written and each is named; with it they are removed, each said on stderr; files not
# named like a view stay.
cp -r "$TMP/dasf" "$TMP/mix"
echo keep >"$TMP/mix/notes.txt" && echo keep >"$TMP/mix/tasks.csv.bak"
"$BIN" --export all -o "$TMP/mix" "$TSCOPE_ROOT/testdata/demo" >"$TMP/mix.list" 2>"$TMP/mix.err"
[ $? -eq 1 ] && grep -q "mix/tasks.csv exists, left by an earlier export, and this run has no rows.*--force to remove" \
	"$TMP/mix.err" && [ ! -e "$TMP/mix/ranks.csv" ] && [ ! -s "$TMP/mix.list" ]
tap_rc $? "stale CSVs of another input's views, no --force: exit 1, named, nothing written"
"$BIN" --export all --force -o "$TMP/mix" "$TSCOPE_ROOT/testdata/demo" >"$TMP/mix.list" 2>"$TMP/mix.err"
rc=$?
ok=0
for v in function_bottleneck task_bottleneck task_balance task_graph critical_path tasks; do
	[ ! -e "$TMP/mix/$v.csv" ] &&
		grep -q "^tscope-tui: removed $TMP/mix/$v.csv, left by an earlier export: this run has no rows" "$TMP/mix.err" ||
		{ echo "# $v.csv not removed or not said"; ok=1; }
done
[ "$rc" -eq 0 ] && [ $ok -eq 0 ] && [ "$(ls "$TMP/mix" | grep -c '\.csv$')" -eq "$(wc -l <"$TMP/mix.list")" ] &&
	[ -e "$TMP/mix/notes.txt" ] && [ -e "$TMP/mix/tasks.csv.bak" ] && grep -q "^$TMP/mix/sources.csv	" "$TMP/mix.list"
tap_rc $? "--force: the stale views' CSVs removed and named, this run's alone left, other files kept"
# and the other way: a pair's export over a run's keeps none of the run's views
"$BIN" --export all --force -o "$TMP/mix" "$TMP/pa" "$TMP/pb" >"$TMP/mix.list" 2>"$TMP/mix.err"
[ $? -eq 0 ] && [ ! -e "$TMP/mix/ranks.csv" ] && [ ! -e "$TMP/mix/steps.csv" ] && [ -s "$TMP/mix/diff_ranks.csv" ] &&
	grep -q "removed $TMP/mix/ranks.csv, left by an earlier export: this pair of runs has no rows" "$TMP/mix.err"
tap_rc $? "--force, two runs: the run's CSVs removed, the diff views alone left"

"$BIN" --export all "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>"$TMP/u.err"
[ $? -eq 2 ] && grep -q 'give -o DIR' "$TMP/u.err"
tap_rc $? "--export all without -o DIR: usage error"
"$BIN" --export all --sort rank -o "$TMP/s2" "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$TMP/s2" ]
tap_rc $? "--export all with --sort: usage error"
: >"$TMP/afile"
"$BIN" --export all -o "$TMP/afile" "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>"$TMP/nd.err"
[ $? -eq 1 ] && grep -q 'cannot use .*afile as the output directory' "$TMP/nd.err"
tap_rc $? "-o naming a file: exit 1"
"$BIN" --export all -o "$TMP/new/parents/demo" "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>&1 &&
	[ -s "$TMP/new/parents/demo/ranks.csv" ]
tap_rc $? "-o DIR with missing parents: created (mkdir -p)"
"$BIN" --export all -o "$TMP/afile/sub" "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>"$TMP/nd2.err"
[ $? -eq 1 ] && grep -q 'cannot use .*afile/sub as the output directory: Not a directory' "$TMP/nd2.err"
tap_rc $? "-o DIR below a file: exit 1, named"
tap_check "--list-views lists all" '"$BIN" --list-views | grep -q "^all  *every view that has rows"'
tap_plan
