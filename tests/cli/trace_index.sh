#!/bin/sh
# trace_index.sh: the trace summaries in the persistent index (model/trace/index.c).
# `tscope-tui index` writes them (traces-K-of-N.tsx); an open from the index gives exactly
# a plain load's --print and trace views (kernels, kernel_breakdown, idle, temporal,
# comm_overlap, and the step_kernels drill-down) on the real traces and on generated
# ones; the summaries are what answers (a trace changed behind its size and mtime is not
# read) and a drill-down that needs raw events parses the file; a changed trace is
# parsed again; --shard K/N takes the traces of its rank dirs and a slice of the others
# (by file), and the parts merge. `index --status` lists the trace parts (traces held,
# changed or gone since, why a part is not usable, traces no part holds).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
real="$TSCOPE_ROOT/../shared/real"
work="$TSCOPE_TMP/trace_index.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
views="kernels kernel_breakdown idle temporal comm_overlap ranks findings heatmap_cells step_kernels"

# same DIR: --print and every view from the index = a plain load's
same() {
	ok=0
	"$T" --print --no-index "$1" >want.txt 2>&1
	"$T" --print "$1" >got.txt 2>&1
	cmp -s want.txt got.txt || { echo "# --print differs"; ok=1; }
	for v in $views; do
		"$T" --export $v --no-index "$1" >want.csv 2>/dev/null
		"$T" --export $v "$1" >got.csv 2>/dev/null
		cmp -s want.csv got.csv || { echo "# $v differs"; ok=1; }
	done
	return $ok
}

for set in kineto-dlrm-8rank kineto-hta-2rank; do
	if [ ! -d "$real/$set" ]; then
		tap_skip "real $set: ../shared/real is absent"
		tap_skip "real $set: from the index = a plain load"
		continue
	fi
	cp -r "$real/$set" $set && chmod -R u+w $set
	"$T" index $set >out.txt 2>&1
	tap_check "real $set: index writes the trace summaries" '[ -s $set/.tscope-index/traces-0-of-1.tsx ]'
	tap_check "real $set: from the index = a plain load (--print, $views)" 'same $set'
done

mkdir gen
for r in 0 1 2 3; do "$tgen" gen/rank$r.json 2 $r >/dev/null || exit 1; done
"$T" --export kernels --no-index gen >orig.kernels 2>/dev/null
"$T" --export step_kernels --no-index gen >orig.steps 2>/dev/null
"$T" index gen >out.txt 2>&1
tap_check "generated: index writes one trace part" 'grep -q "index written: gen/.tscope-index/traces-0-of-1.tsx (4 ranks" out.txt'
tap_check "generated: from the index = a plain load" 'same gen'
"$T" index --status gen >st.txt 2>&1
tap_rc $? "index --status: a trace-only index is an index (exit 0)"
tap_check "... its part, the traces it holds" \
	'[ "$(cat st.txt)" = "traces 0/1  4 traces  ok  gen/.tscope-index/traces-0-of-1.tsx" ]'
"$T" index --status --verify gen >st.txt 2>&1
tap_check "index --status --verify: a trace part is read whole by --status, and it says so" \
	'grep -q "^verify: the trace parts hold everything in their checksummed heads: read back above$" st.txt'
# a kernel renamed behind the same size and mtime: the summaries answer, the
# drill-down (raw events) parses the file as it is
f=gen/rank2.json
cp -p $f keep.json
sed 's/volta_sgemm_128x64_nn/volta_sgemm_128x64_XX/g' keep.json >$f
touch -r keep.json $f
"$T" --export kernels gen >used.kernels 2>/dev/null
tap_check "the summaries answer (the trace is not parsed)" 'cmp -s orig.kernels used.kernels && ! grep -q XX used.kernels'
"$T" --export step_kernels gen >used.steps 2>/dev/null
tap_check "a drill-down parses the trace" 'grep -q "volta_sgemm_128x64_XX" used.steps && ! cmp -s orig.steps used.steps'
# changed (mtime): parsed again, the same as a plain load
touch $f
tap_check "a changed trace is parsed again: = a plain load" 'same gen && grep -q XX got.csv'
"$T" index --status gen >st.txt 2>&1
rc=$?
tap_check "index --status: the changed trace counted (exit 0: the part is used)" \
	'[ "$rc" -eq 0 ] && grep -q "4 traces  ok  .*  (1 changed since: parsed again at the next open)$" st.txt'
cp -p keep.json $f
# a trace added since: no part holds it
"$tgen" gen/rank4.json 2 4 >/dev/null || exit 1
"$T" index --status gen >st.txt 2>&1
tap_check "index --status: a trace added since is named (not in the index, parsed at each open)" \
	'grep -q "^traces: 1 not in the index (parsed at each open; .tscope-tui index. adds them)$" st.txt'
rm gen/rank4.json
mv gen/rank3.json rank3.away
"$T" index --status gen >st.txt 2>&1
tap_check "index --status: a trace gone since is counted" 'grep -q "4 traces  ok  .*  (1 gone since)$" st.txt'
mv rank3.away gen/rank3.json

# shards: traces split by file, the parts merge
"$T" index --shard 0/2 gen >/dev/null 2>&1
"$T" index --shard 1/2 gen >/dev/null 2>&1
tap_check "--shard: two parts" \
	'[ -s gen/.tscope-index/traces-0-of-2.tsx ] && [ -s gen/.tscope-index/traces-1-of-2.tsx ]'
tap_check "--shard: the merged parts = a plain load" 'same gen'
sed 's/volta_sgemm_128x64_nn/volta_sgemm_128x64_XX/g' keep.json >$f
touch -r keep.json $f
"$T" --export kernels gen >sh.kernels 2>/dev/null
tap_check "--shard: the parts' summaries answer" 'cmp -s orig.kernels sh.kernels'
cp -p keep.json $f
rm gen/.tscope-index/traces-1-of-2.tsx
"$T" index --status gen >st.txt 2>&1
rc=$?
tap_check "index --status: a missing trace shard is not usable (exit 1), the other is" \
	'[ "$rc" -eq 1 ] && grep -q "^traces 0/2  [0-9]* traces\{0,1\}  ok  " st.txt &&
	 grep -q "^traces 1/2  0 traces  NOT USABLE: missing" st.txt'
tap_check "--shard: a missing part: its traces are parsed, = a plain load" 'same gen'
# traces in rank dirs: each shard takes the traces of its own rank dirs (ranks 0-1 have
# none: shard 0/2 writes no trace part; split by file, rank2's would be in it)
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" mix 4 40 >/dev/null || exit 1
for r in 2 3; do   # of the run's world_size (a trace of another in a rank dir is another job's)
	"$tgen" t.json 2 $r >/dev/null && sed 's/"world_size": 8/"world_size": 4/' t.json >mix/rank$r/trace.pt.trace.json ||
		exit 1
done
"$T" index --shard 0/2 mix >/dev/null 2>&1
"$T" index --shard 1/2 mix >/dev/null 2>&1
p1=mix/.tscope-index/traces-1-of-2.tsx
tap_check "--shard, traces in rank dirs: shard 1/2 holds rank2 and rank3's traces, 0/2 none" \
	'grep -q rank2/trace $p1 && grep -q rank3/trace $p1 && [ ! -e mix/.tscope-index/traces-0-of-2.tsx ]'
tap_check "--shard, traces in rank dirs: the merged parts = a plain load" 'same mix'
# a damaged part: named, not used, its traces parsed
"$T" index gen >/dev/null 2>&1
p=gen/.tscope-index/traces-0-of-1.tsx
tap_flip $p $(($(wc -c <$p) - 3))
"$T" --export sources gen >dmg.csv 2>/dev/null
tap_check "damaged part: reported" 'grep -q "trace index part 0/1 not used: checksum mismatch" dmg.csv'
"$T" index --status gen >st.txt 2>&1
rc=$?
tap_check "index --status: a damaged trace part is not usable (exit 1)" \
	'[ "$rc" -eq 1 ] && grep -q "^traces 0/1  0 traces  NOT USABLE: checksum mismatch" st.txt'
"$T" --export temporal --no-index gen >want.csv 2>/dev/null
"$T" --export temporal gen >got.csv 2>/dev/null
tap_check "damaged part: the traces parsed (= a plain load)" 'cmp -s want.csv got.csv && [ -s got.csv ]'
tap_plan
