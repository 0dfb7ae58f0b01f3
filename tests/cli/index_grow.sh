#!/bin/sh
# index_grow.sh: the index and a growing run (model/index/extent.h, index_append): a
# steps.jsonl that only grew since the index was written is resumed, only its new bytes
# are parsed (the data-quality note counts them), the result is exactly a plain load's
# (--print, --export ranks/findings/heatmap_cells) and the new records are appended to
# the index (the next open parses nothing), also beside a rank dir with run.json alone;
# a half-written last line at index time is finished later; a truncated or rewritten
# source is stale and rebuilt; --print --follow appends what it read, and the reopen
# uses it (also when a rank's steps.jsonl appears while following).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
work="$TSCOPE_TMP/index_grow.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# grow DIR N: append N records to every rank (the last record again, steps after it)
grow() {
	for g in "$1"/rank*/steps.jsonl; do
		last=$(tail -n 1 "$g")
		s=$(printf '%s\n' "$last" | sed 's/.*"step": *\([0-9]*\).*/\1/')
		i=1
		while [ "$i" -le "$2" ]; do
			printf '%s\n' "$last" | sed "s/\"step\": *[0-9]*/\"step\":$((s + i))/" >>"$g"
			i=$((i + 1))
		done
	done
}
bytes() { cat "$1"/rank*/steps.jsonl | wc -c; }
# same DIR TAG: --print and the views from the index equal a plain load's
same() {
	"$T" --print --no-index "$1" >want.txt 2>/dev/null
	"$T" --print "$1" >got.txt 2>/dev/null
	ok=0
	cmp -s want.txt got.txt || ok=1
	for v in ranks findings heatmap_cells; do
		"$T" --export $v --no-index "$1" >want.csv 2>/dev/null
		"$T" --export $v "$1" >got.csv 2>/dev/null
		cmp -s want.csv got.csv || ok=1
	done
	return $ok
}

"$gen" demo >/dev/null || exit 1
"$T" index demo >/dev/null 2>&1
b0=$(bytes demo)
grow demo 40
b1=$(bytes demo)
"$T" index --status demo >st0.txt
tap_check "grown: index --status names the ranks whose JSONL grew (read at the next open)" \
	'grep -q "^shard 0/1  ranks 0-15  ok  .*(16 ranks. steps.jsonl grew since: the new records are read at the next open)" st0.txt'
"$T" --export sources demo >src.csv 2>/dev/null
tap_check "grown: only the $((b1 - b0)) new bytes are parsed" \
	'grep -q "index: 16 ranks. steps.jsonl grew since the index was written: only their $((b1 - b0)) new bytes were parsed" src.csv'
tap_check "grown: the index was used, not rebuilt" '! grep -q "not used" src.csv'
"$T" --export sources demo >src2.csv 2>/dev/null
tap_check "grown: the new records were appended (the next open parses nothing)" '! grep -q "grew\|not used" src2.csv'
tap_check "grown: --print and --export ranks/findings/heatmap_cells = a plain load" 'same demo'
"$T" index --status demo >st.txt
tap_check "grown: index --status says ok, nothing grown since the open appended" \
	'grep -q "^shard 0/1  ranks 0-15  ok" st.txt && ! grep -q "grew" st.txt'

# only some ranks grow, and a sharded index: the shards' ranks are resumed
"$T" index --shard 0/2 demo >/dev/null 2>&1
"$T" index --shard 1/2 demo >/dev/null 2>&1
printf '%s\n' "$(tail -n 1 demo/rank3/steps.jsonl | sed 's/"step": *\([0-9]*\)/"step":9000/')" >>demo/rank3/steps.jsonl
"$T" --export sources demo >src3.csv 2>/dev/null
tap_check "one rank grew (2 shards): only it is parsed" 'grep -q "index: 1 rank.s steps.jsonl grew" src3.csv && ! grep -q "not used" src3.csv'
tap_check "one rank grew: = a plain load" 'same demo'

# a rank dir with run.json alone (its rank died before its first step) while the others
# grow: the open appends their new records all the same, whole index and sharded
"$gen" dead 5 40 >/dev/null || exit 1
rm dead/rank4/steps.jsonl
"$T" index dead >/dev/null 2>&1
grow dead 10
"$T" --export sources dead >src8.csv 2>/dev/null
tap_check "no steps.jsonl in a rank dir: the grown ranks resumed, and appended" \
	'grep -q "index: 4 ranks. steps.jsonl grew" src8.csv && ! grep -q "not appended\|not used" src8.csv'
"$T" --export sources dead >src9.csv 2>/dev/null
tap_check "no steps.jsonl in a rank dir: the next open parses nothing" \
	'! grep -q "grew\|not used\|not appended" src9.csv'
tap_check "no steps.jsonl in a rank dir: = a plain load" 'same dead'
"$T" index --status dead >st9.txt
tap_check "no steps.jsonl in a rank dir: index --status says ok, a delta" \
	'grep -q "^shard 0/1  ranks 0-4  ok  .* + 1 delta$" st9.txt'
"$T" index --shard 0/2 dead >/dev/null 2>&1
"$T" index --shard 1/2 dead >/dev/null 2>&1
grow dead 3
"$T" --export sources dead >src10.csv 2>/dev/null
"$T" --export sources dead >src11.csv 2>/dev/null
tap_check "no steps.jsonl in a rank dir, 2 shards: appended, the next open parses nothing" \
	'grep -q "index: 4 ranks. steps.jsonl grew" src10.csv && ! grep -q "not appended" src10.csv &&
	 ! grep -q "grew\|not used\|not appended" src11.csv && same dead'

# values a fresh load rounds (float32 scalars on every rank but the lowest; run-length
# columns that stop being constant in the new lines): the new records are stored, and
# appended to the index, exactly as a plain load stores them
vals() { sh "$TSCOPE_ROOT/tests/tools/gen_vals.sh" "$@"; }
for r in 0 1 2 3; do mkdir -p vals/rank$r && vals $r 0 300 >vals/rank$r/steps.jsonl; done
"$T" index vals >/dev/null 2>&1
for r in 0 1 2 3; do vals $r 300 400 >>vals/rank$r/steps.jsonl; done
"$T" --export steps --no-index vals >want.steps 2>/dev/null
"$T" --export steps vals >got.steps 2>/dev/null
"$T" --export steps vals >got2.steps 2>/dev/null
tap_check "rounding: the new records' values = a plain load's (--export steps)" 'cmp -s want.steps got.steps && [ "$(wc -l <want.steps)" -eq 1601 ]'
tap_check "rounding: and from the appended index" 'cmp -s want.steps got2.steps && same vals'

# a half-written last line when the index was written, finished later
"$gen" run 4 200 >/dev/null || exit 1
f=run/rank2/steps.jsonl
line=$(tail -n 1 $f | sed 's/"step": *[0-9]*/"step":200/')
printf '%s' "$(printf '%s' "$line" | cut -c1-25)" >>$f
"$T" index run >/dev/null 2>&1
printf '%s\n' "$(printf '%s' "$line" | cut -c26-)" >>$f
grow run 5
"$T" --export sources run >src4.csv 2>/dev/null
tap_check "half-written line: resumed" 'grep -q "index: 4 ranks. steps.jsonl grew" src4.csv'
tap_check "half-written line: = a plain load" 'same run'
"$T" --export ranks run >hw.csv 2>/dev/null
tap_check "half-written line: its record counts (rank 2: 206 = 200 + the finished line + 5)" 'grep -q "^2,206," hw.csv && grep -q "^1,205," hw.csv'

# truncated: stale, rebuilt
head -c 3000 $f >cut.jsonl && cat cut.jsonl >$f
"$T" --export sources run >src5.csv 2>/dev/null
tap_check "truncated source: stale, reported" 'grep -q "index shard 0/1 not used: stale: run/rank2/steps.jsonl changed" src5.csv'
tap_check "truncated source: = a plain load" 'same run'
"$T" index --status run >st5.txt
tap_check "truncated source: rebuilt by that open" 'grep -q "^shard 0/1  ranks 0-3  ok" st5.txt'

# rewritten in place (same inode, same start, other records, longer): stale
f=run/rank1/steps.jsonl
sed 's/"forward": *\([0-9.]*\)/"forward":7.5/' $f >re.jsonl
printf '%s\n' "$(tail -n 1 re.jsonl)" >>re.jsonl
cat re.jsonl >$f
"$T" --export sources run >src6.csv 2>/dev/null
tap_check "rewritten source: stale, reported" 'grep -q "index shard 0/1 not used: stale: run/rank1/steps.jsonl changed" src6.csv'
tap_check "rewritten source: = a plain load" 'same run'

# --print --follow appends what it read; the reopen uses it
sh "$writer" fol 8 0 4 0 >/dev/null
for r in 0 1 2 3 4 5 6 7; do   # the finish marker before the index (one written while following makes it stale)
	printf '{"rank": %d, "world_size": 8, "n_steps": 31}' $r >fol/rank$r/run.json
done
"$T" index fol >/dev/null 2>&1
sh "$writer" fol 8 5 30 0.05 &
wpid=$!
"$T" --follow --interval 0.2 --stall 3 fol >fol.out 2>fol.err
rc=$?
wait "$wpid"
tap_eq "follow: finished, exit 0" 0 "$rc"
"$T" --export sources fol >src7.csv 2>/dev/null
tap_check "follow then reopen: the appended index is used whole" '! grep -q "grew\|not used" src7.csv'
tap_check "follow then reopen: = a plain load" 'same fol'
"$T" --export ranks fol >fol.csv 2>/dev/null
tap_check "follow then reopen: all 31 records of each rank" '[ "$(grep -c "^[0-7],31," fol.csv)" -eq 8 ]'

# a rank dir with run.json alone when the index was written, whose steps.jsonl appears
# while following: its part is rewritten (no delta can extend a source the part lacks)
"$gen" late 5 10 >/dev/null || exit 1
rm late/rank4/steps.jsonl
"$T" index late >/dev/null 2>&1
sh "$writer" late 5 10 30 0.05 &
wpid=$!
TSCOPE_INDEX_EVERY=0.3 "$T" --follow --interval 0.2 --stall 3 late >late.out 2>late.err
wait "$wpid"
"$T" --export sources late >src12.csv 2>/dev/null
tap_check "a steps.jsonl that appeared while following: the reopen uses the index whole" \
	'! grep -q "grew\|not used\|not appended\|no steps.jsonl" src12.csv'
tap_check "a steps.jsonl that appeared while following: = a plain load" \
	'"$T" --export sources --no-index late >want12.csv 2>/dev/null && cmp -s want12.csv src12.csv && same late'
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
