#!/bin/sh
# trace_index.sh: the trace summaries in the persistent index (model/trace/index.c).
# `tscope-tui index` writes them (traces-K-of-N.tsx); an open from the index gives exactly
# a plain load's --print and trace views (kernels, kernel_breakdown, idle, temporal,
# comm_overlap, and the step_kernels drill-down) on the real traces and on generated
# ones; the summaries are what answers (a trace changed behind its size and mtime is not
# read) and a drill-down that needs raw events parses the file; a changed trace is
# parsed again; --shard K/N takes the traces of its rank dirs and a slice of the others
# (by file), and the parts merge; the ranks of the traces restored and parsed are
# assigned as a plain load assigns them (a rank two traces claim: the same one refused,
# whatever shards held them). `index --status` lists the trace parts (traces held,
# changed or gone since, why a part is not usable with the traces its shard holds, not
# "0 traces", and the shard that rebuilds it; traces no part holds nor is to hold). A missing or
# damaged part is named at each open with the count of its traces parsed instead (a
# missing one was named by --status alone); a shard of no trace, which writes no part, is not.
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

# same DIR [LINE]: --print and every view from the index = a plain load's (LINE: a line
# of the index's --print alone, left out of the comparison)
same() {
	ok=0
	"$T" --print --no-index "$1" >want.txt 2>&1
	"$T" --print "$1" >got.txt 2>&1
	[ -z "${2:-}" ] || { grep -vxF "$2" got.txt >got.kept; mv got.kept got.txt; }
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
	 grep -q "^traces 1/2  2 traces  NOT USABLE: missing" st.txt'
tap_check "... its line gives the 2 traces its shard holds (it said 0), the next names the shard that rebuilds it" \
	'grep -q "^traces: each open parses the 2 traces of the part not usable (.tscope-tui index --shard 1/2. rebuilds it" \
	 st.txt && ! grep -q "not in the index" st.txt'
"$T" --export sources gen >miss.csv 2>/dev/null
miss="trace index part 1/2 not used: missing (not built yet, or its job failed); its 2 traces are parsed"
tap_check "--shard: a missing part is named at the open (as a missing steps shard is), its traces parsed" \
	'grep -q "^warning,gen/.tscope-index/traces-1-of-2.tsx,.*$miss" miss.csv'
tap_check "--shard: a missing part: its traces are parsed, = a plain load but that warning" \
	'same gen "tscope-tui: data quality: 0 errors, 1 warning, 0 notes (0 records skipped); see --export sources"'
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
# two traces claiming one rank: an open keeps the one a plain load keeps and refuses the
# other with its message, whatever the parts (both in the index, in two shards; the index
# built before the first was added); so are the ranks of traces without distributedInfo
# (file name, file order: each shard gave its own) and what a dropped trace's record said
# after its rank (no communication kernel: the kept trace's alone)
srcs_same() {
	"$T" --export sources --no-index "$1" >want.src 2>/dev/null
	"$T" --export sources "$1" >got.src 2>/dev/null
	cmp -s want.src got.src
}
mkdir dup nodi nocomm
for r in 0 1 2 3; do
	"$tgen" dup/w$r.pt.trace.json 2 $r >/dev/null || exit 1
	sed '/"distributedInfo"/d' dup/w$r.pt.trace.json >nodi/t$r.json
	sed 's/nccl/xxxx/g' dup/w$r.pt.trace.json >nocomm/t$r.pt.trace.json
done
sed 's/"dur": \([0-9]*\)/"dur": \13/' dup/w3.pt.trace.json >dup/a3.pt.trace.json
cp nodi/t3.json nodi/a_worker2.json
cp nocomm/t1.pt.trace.json nocomm/a1.pt.trace.json
for d in dup nodi nocomm; do
	"$T" index --shard 0/2 $d >/dev/null 2>&1 && "$T" index --shard 1/2 $d >/dev/null 2>&1 || exit 1
done
tap_check "a rank claimed by two traces in two shards: the plain load's choice, refusal and views" \
	'same dup && srcs_same dup && grep -q "refused: rank 3, which dup/a3.pt.trace.json claims too" got.src'
tap_check "traces without distributedInfo in two shards: the plain load's ranks and diagnostics" \
	'same nodi && srcs_same nodi && grep -q "rank 4 from file order" got.src'
tap_check "a rank claimed twice, no communication kernel: that warning for the kept trace alone" \
	'srcs_same nocomm && [ "$(grep -c "no communication kernel" got.src)" -eq 4 ]'
rm -rf dup/.tscope-index && mv dup/a3.pt.trace.json a3.away && "$T" index dup >/dev/null 2>&1 &&
	mv a3.away dup/a3.pt.trace.json
tap_check "a trace added since the index claims an indexed trace's rank: the plain load's choice" \
	'same dup && srcs_same dup && grep -q "refused: rank 3, which dup/a3.pt.trace.json claims too" got.src'
# a damaged part: named, not used, its traces parsed
"$T" index gen >/dev/null 2>&1
p=gen/.tscope-index/traces-0-of-1.tsx
tap_flip $p $(($(wc -c <$p) - 3))
"$T" --export sources gen >dmg.csv 2>/dev/null
tap_check "damaged part: reported" 'grep -q "trace index part 0/1 not used: checksum mismatch" dmg.csv'
"$T" index --status gen >st.txt 2>&1
rc=$?
notusable="^traces: each open parses the [1-9][0-9]* traces\{0,1\} of the part "
notusable="${notusable}not usable (.tscope-tui index. rebuilds it)$"
tap_check "index --status: a damaged trace part is not usable (exit 1)" \
	'[ "$rc" -eq 1 ] && grep -q "^traces 0/1  [1-9][0-9]* traces\{0,1\}  NOT USABLE: checksum mismatch" st.txt &&
	 grep -q "$notusable" st.txt'
"$T" --export temporal --no-index gen >want.csv 2>/dev/null
"$T" --export temporal gen >got.csv 2>/dev/null
tap_check "damaged part: the traces parsed (= a plain load)" 'cmp -s want.csv got.csv && [ -s got.csv ]'
tap_plan
