#!/bin/sh
# index_delta_shard.sh: follow mode appends delta segments to a SHARDED index
# (`index --shard K/N`, model/index/index.h DELTAS, delta.h): with N = 2 and 4 shards a
# follower of ranks in every shard writes deltas per part and never rewrites the index
# whole; the reopen maps the parts + their deltas, parses nothing and equals a plain
# load (--print, --export ranks); a follower killed with SIGKILL leaves a valid index;
# a torn delta is reported ("truncated or damaged", both lengths named), dropped and its
# records parsed again; compaction rewrites a
# part alone (the parts stay); a shard built again after its deltas never takes the old
# deltas (stale: reported and dropped); a missing or failed shard is still named at the open;
# index --status counts each part's deltas; a part of another shard count removes the
# old count's parts and deltas.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
. "$TSCOPE_ROOT/tests/tools/follow_index_lib.sh"
fi_begin index_delta_shard

same() { fi_same "$1" ranks; }
# deltas DIR K N: how many deltas part K of N has; parts DIR: the part files
deltas() { ls "$1"/.tscope-index/ | grep -c "^steps-$2-of-$3\.delta-[0-9]*\.tsx$"; }
parts() { ls "$1"/.tscope-index/ | grep '^steps-[0-9]*-of-[0-9]*\.tsx$' | tr '\n' ' '; }
# every_part DIR N MIN: every part of N has at least MIN deltas
every_part() {
	p=0
	while [ $p -lt "$2" ]; do
		[ "$(deltas "$1" $p "$2")" -ge "$3" ] || return 1
		p=$((p + 1))
	done
}
# shards DIR N: index DIR in N shards
shards() {
	p=0
	while [ $p -lt "$2" ]; do "$T" index --shard $p/"$2" "$1" >/dev/null 2>&1; p=$((p + 1)); done
}
# follow_job DIR N LAST: an 8-rank run (steps 0-4, run.json n_steps LAST+1) indexed in N
# shards; the writer appends steps 5..LAST to every rank while --follow (a save every
# 0.1 s) follows it to its end
follow_job() {
	sh "$writer" "$1" 8 0 4 0 >/dev/null
	fi_plan "$1" 8 "$3"
	shards "$1" "$2"
	fi_follow "$1" 8 "$3"
}

for N in 2 4; do
	a=a$N
	follow_job $a $N 40
	tap_eq "N=$N follow: finished, exit 0" 0 "$?"
	want_parts=$(p=0; while [ $p -lt $N ]; do printf 'steps-%d-of-%d.tsx ' $p $N; p=$((p + 1)); done)
	tap_check "N=$N follow: deltas on every part, the $N parts stayed (no whole rewrite)" \
		"every_part $a $N 1 && [ \"\$(parts $a)\" = '$want_parts' ]"
	"$T" --export sources $a >src1.csv 2>/dev/null
	tap_check "N=$N reopen: parts + deltas used, nothing parsed" '! grep -q "grew\|not used" src1.csv'
	tap_check "N=$N reopen: = a plain load (--print, --export ranks)" "same $a"
	tap_check "N=$N reopen: all 41 records of each rank" '[ "$(grep -c "^[0-7],41," got.csv)" -eq 8 ]'
	"$T" index --status $a >st.txt
	tap_eq "N=$N index --status: every shard ok, with its deltas" $N "$(grep -c '  ok  .*  + [0-9]* deltas*$' st.txt)"

	# killed with SIGKILL mid-follow: the reopen parses only what came after the last
	# deltas, appends it as deltas again, and the parts stay
	k=k$N
	sh "$writer" $k 8 0 4 0 >/dev/null
	shards $k $N
	fi_kill9 $k 8 60 every_part $k $N 2
	tap_check "N=$N killed follower: it had written deltas on every part" "every_part $k $N 2"
	"$T" --export sources $k >src2.csv 2>/dev/null
	tap_check "N=$N killed follower: the parts are used, only the bytes after the last deltas parsed" \
		'grep -q "index: 8 ranks. steps.jsonl grew since the index was written: only their" src2.csv && ! grep -q "not used" src2.csv'
	tap_check "N=$N killed follower: = a plain load" "same $k"
	tap_check "N=$N killed follower: all 61 records of each rank" '[ "$(grep -c "^[0-7],61," got.csv)" -eq 8 ]'
	"$T" --export sources $k >src3.csv 2>/dev/null
	tap_check "N=$N killed follower: the open appended the tails as deltas, the parts stayed" \
		"! grep -q 'grew\|not used' src3.csv && [ \"\$(parts $k)\" = '$want_parts' ]"
done

# a torn delta of shard 1 of 2: reported, dropped (with any after it), re-parsed
follow_job t 2 30
n=$(deltas t 1 2)
last=t/.tscope-index/steps-1-of-2.delta-$(printf '%06d' "$n").tsx
head -c $(($(wc -c <"$last") / 2)) "$last" >cut.tsx && cat cut.tsx >"$last"
"$T" --export sources t >src4.csv 2>/dev/null
torn="truncated or damaged (its header gives a payload of [0-9]* bytes, the file holds [0-9]*)"
tap_check "torn delta: reported and dropped" \
	"grep -q \"steps-1-of-2.delta-.*index delta $n of $n not used: $torn; it and the 0 after it are dropped\" \
	src4.csv"
tap_check "torn delta: only that shard's ranks parse their new bytes" \
	'grep -q "index: 4 ranks. steps.jsonl grew since" src4.csv && [ "$(grep -c "not used" src4.csv)" -eq 1 ]'
tap_check "torn delta: = a plain load" 'same t'
# a damaged segment body in shard 0's first delta (the head's checksum does not cover
# it): found when the rank is read, that rank read from its JSONL
tap_flip t/.tscope-index/steps-0-of-2.delta-000001.tsx 60
"$T" --export sources t >src4b.csv 2>/dev/null
tap_check "damaged segment: reported for the rank it holds" 'grep -q "index part not usable for rank 0: checksum mismatch" src4b.csv'
tap_check "damaged segment: = a plain load" 'same t'

# a shard built again after it had deltas: its deltas go with the old part; old deltas
# put back are stale (they extend the previous part): reported, never applied
follow_job r 4 30
mkdir -p old && cp r/.tscope-index/steps-1-of-4.delta-*.tsx old/
nold=$(ls old | grep -c tsx)
"$T" index --shard 1/4 r >/dev/null 2>&1
tap_check "rebuilt shard: its deltas removed, the other parts' kept" \
	'[ "$(deltas r 1 4)" -eq 0 ] && every_part_but1() { [ "$(deltas r 0 4)" -ge 1 ] && [ "$(deltas r 2 4)" -ge 1 ]; } && every_part_but1'
cp old/*.tsx r/.tscope-index/
"$T" --export sources r >src5.csv 2>/dev/null
tap_check "rebuilt shard: the old deltas are stale, reported and dropped" \
	"grep -q \"steps-1-of-4.delta-000001.tsx.*index delta 1 of $nold not used: it extends another version of the index\" src5.csv"
tap_check "rebuilt shard: nothing else is dropped or parsed" '[ "$(grep -c "not used\|grew" src5.csv)" -eq 1 ]'
tap_check "rebuilt shard: = a plain load" 'same r'
tap_eq "rebuilt shard: the stale deltas were removed" 0 "$(deltas r 1 4)"

# a missing shard and a failed one (its part cut short): the follower appends to the
# other parts, leaves those two to their jobs, and the open still names them
sh "$writer" m 8 0 4 0 >/dev/null
shards m 4
rm m/.tscope-index/steps-2-of-4.tsx
head -c 100 m/.tscope-index/steps-1-of-4.tsx >cut.tsx && cat cut.tsx >m/.tscope-index/steps-1-of-4.tsx
fi_follow m 8 30
tap_check "missing/failed shard: deltas on the other parts, none for them, they are not written" \
	'[ "$(deltas m 0 4)" -ge 1 ] && [ "$(deltas m 3 4)" -ge 1 ] && [ "$(deltas m 1 4)" -eq 0 ] && [ "$(deltas m 2 4)" -eq 0 ] && [ ! -e m/.tscope-index/steps-2-of-4.tsx ] && [ "$(wc -c <m/.tscope-index/steps-1-of-4.tsx)" -eq 100 ]'
"$T" --export sources m >src6.csv 2>/dev/null
tap_check "missing/failed shard: both still named at the open" \
	'grep -q "index shard 2/4 not used: missing" src6.csv && grep -q "index shard 1/4 not used: truncated" src6.csv'
tap_check "missing/failed shard: = a plain load" 'same m'

# compaction: at TSCOPE_INDEX_DELTAS deltas a part is rewritten alone; the parts stay
export TSCOPE_INDEX_DELTAS=2
follow_job c 4 60
unset TSCOPE_INDEX_DELTAS
tap_check "compaction: never more than 2 deltas a part, the 4 parts stayed" \
	"[ \"\$(ls c/.tscope-index | grep -c 'delta-00000[3-9]')\" -eq 0 ] && [ \"\$(parts c)\" = 'steps-0-of-4.tsx steps-1-of-4.tsx steps-2-of-4.tsx steps-3-of-4.tsx ' ]"
"$T" --export sources c >src7.csv 2>/dev/null
tap_check "compaction: reopen parses nothing" '! grep -q "grew\|not used" src7.csv'
tap_check "compaction: = a plain load" 'same c'
tap_check "compaction: all 61 records of each rank" '[ "$(grep -c "^[0-7],61," got.csv)" -eq 8 ]'
# an open that finds steps.jsonl grew appends the tails as deltas per part; at the
# delta limit it compacts the part whose ranks grew, alone: a part at its limit with
# nothing new is left as it is
stamp() { stat -c '%i %Y' "u/.tscope-index/steps-$1-of-2.tsx"; }
sh "$writer" u 8 0 4 0 >/dev/null
shards u 2
sh "$writer" u 8 5 6 0 >/dev/null
"$T" --export sources u >src8.csv 2>/dev/null
tap_check "grown open: the tails of every rank appended as one delta per part" \
	'grep -q "index: 8 ranks. steps.jsonl grew" src8.csv && [ "$(deltas u 0 2)" -eq 1 ] && [ "$(deltas u 1 2)" -eq 1 ]'
p1=$(stamp 1)
p0=$(stamp 0)
sh "$writer" u 4 7 8 0 >/dev/null
TSCOPE_INDEX_DELTAS=1 "$T" --export sources u >src9.csv 2>/dev/null
tap_check "grown open at the limit: the grown shard's part compacted alone" \
	'grep -q "index: 4 ranks. steps.jsonl grew" src9.csv && [ "$(deltas u 0 2)" -eq 0 ] && [ "$(stamp 0)" != "$p0" ]'
tap_check "grown open at the limit: the other part, with nothing new, left as it was" \
	'[ "$(deltas u 1 2)" -eq 1 ] && [ "$(stamp 1)" = "$p1" ]'
"$T" --export sources u >src10.csv 2>/dev/null
tap_check "grown open: the next open parses nothing" '! grep -q "grew\|not used" src10.csv'
tap_check "grown open: = a plain load" 'same u'
# another shard count: the open reads the newest count's parts only, so writing a
# part removes every other count's parts, deltas and parts of the summary
ls a4/.tscope-index >before.txt
"$T" index --shard 0/2 a4 >/dev/null 2>&1
tap_check "other shard count: 0/2 removes the 4 parts and their deltas ($(grep -c -- '-of-4\.' before.txt) files)" \
	'grep -q "delta" before.txt && [ "$(parts a4)" = "steps-0-of-2.tsx " ] && [ "$(ls a4/.tscope-index | grep -c -- "-of-4\.")" -eq 0 ]'
"$T" --export sources a4 >src11.csv 2>/dev/null
tap_check "other shard count: the shard not written yet is named" 'grep -q "index shard 1/2 not used: missing" src11.csv'
"$T" index --shard 1/2 a4 >/dev/null 2>&1
tap_check "other shard count: both parts = a plain load" \
	'[ "$(parts a4)" = "steps-0-of-2.tsx steps-1-of-2.tsx " ] && same a4'
cd "$TSCOPE_TMP" && [ -z "${KEEP:-}" ] && rm -rf "$work"
tap_plan
