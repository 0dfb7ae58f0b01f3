#!/bin/sh
# index_delta.sh: follow mode appends to the index as delta segments (model/index/index.h
# DELTAS): a follower writes a delta every TSCOPE_INDEX_EVERY; the reopen restores the
# base part with its deltas and parses nothing (or only the bytes after the last delta)
# and equals a plain load (--print, --export ranks/findings/heatmap_cells/steps); a
# follower killed with SIGKILL leaves a valid index; a torn or damaged delta is
# reported ("truncated or damaged", with the length its header gives and the file's: the
# header is under no checksum) and dropped, its records read from the JSONL, and so are the deltas after a
# missing one (--status names them first); TSCOPE_INDEX_DELTAS deltas
# are compacted into the base. With each delta the follower writes a summary delta
# (model/steps/analysis_index.h FOLLOW MODE): the reopen keeps the summary (nothing
# recomputed); one that does not match its deltas (a follower stopped between the two,
# damaged, missing) is reported and the analyses recomputed, equal to a plain load.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
. "$TSCOPE_ROOT/tests/tools/follow_index_lib.sh"
fi_begin index_delta

same() { fi_same "$1" ranks findings heatmap_cells steps; }
ndeltas() { ls "$1"/.tscope-index/steps-0-of-1.delta-*.tsx 2>/dev/null | grep -c 'tsx$'; }
has_deltas() { [ "$(ndeltas "$1")" -ge "$2" ]; }
# ino FILE: its inode (a rewrite renames a new file over it)
ino() { ls -i "$1" 2>/dev/null | cut -d' ' -f1; }

# follow_job DIR N LAST: an indexed run of N ranks (steps 0-4, run.json n_steps LAST+1);
# the writer appends steps 5..LAST while --print --follow (a delta every 0.1 s) follows
# it to its end
follow_job() {
	sh "$writer" "$1" "$2" 0 4 0 >/dev/null
	fi_plan "$1" "$2" "$3"
	"$T" index "$1" >/dev/null 2>&1
	fi_follow "$@"
}

# a clean follow: deltas, then a reopen that parses nothing
follow_job a 6 40
rc=$?
sum_ino=$(ino a/.tscope-index/summary.tsx)
tap_eq "follow: finished, exit 0" 0 "$rc"
tap_check "follow: wrote delta segments, the base part stayed" \
	'[ "$(ndeltas a)" -ge 2 ] && [ -s a/.tscope-index/steps-0-of-1.tsx ]'
"$T" --export sources a >src1.csv 2>/dev/null
tap_check "reopen: base + deltas used, nothing parsed" '! grep -q "grew\|not used" src1.csv'
tap_check "follow: a summary delta beside the deltas" '[ -s a/.tscope-index/summary-delta.tsx ]'
tap_check "reopen: the summary and its delta used, nothing recomputed (the summary not rewritten)" \
	'[ "$(ino a/.tscope-index/summary.tsx)" = "$sum_ino" ] && ! grep -q "summary" src1.csv'
tap_check "reopen: = a plain load (--print, ranks, findings, heatmap_cells, steps)" 'same a'
"$T" --export ranks a >a.csv 2>/dev/null
tap_check "reopen: all 41 records of each rank" '[ "$(grep -c "^[0-5],41," a.csv)" -eq 6 ]'
"$T" index --status a >st.txt
tap_check "index --status: ok with its deltas" 'grep -q "^shard 0/1  ranks 0-5  ok" st.txt'
tap_check "index --status: the summary is current with the follower's summary delta" \
	'grep -q "^summary  ok  a/.tscope-index/summary.tsx + summary-delta.tsx (a follower.s: an open uses both)$" st.txt'

# values a fresh load rounds or widens (float32 scalars but on the lowest rank, phases
# that stop being nanosecond codes, run-length columns that stop being constant), in
# deltas: stored exactly as a plain load stores them
vals() { sh "$TSCOPE_ROOT/tests/tools/gen_vals.sh" "$@"; }
for r in 0 1 2 3; do mkdir -p v/rank$r && vals $r 0 300 >v/rank$r/steps.jsonl; done
fi_plan v 4 399
"$T" index v >/dev/null 2>&1
(s=300; while [ $s -lt 400 ]; do
	for r in 0 1 2 3; do vals $r $s $((s + 10)) >>v/rank$r/steps.jsonl; done
	s=$((s + 10)); sleep 0.05
done) &
wpid=$!
TSCOPE_INDEX_EVERY=0.1 "$T" --follow --interval 0.1 --stall 2 v >v.out 2>v.err
wait "$wpid"
wpid=
"$T" --export sources v >srcv.csv 2>/dev/null
tap_check "rounding: deltas written, the reopen parses nothing" '[ "$(ndeltas v)" -ge 2 ] && ! grep -q "grew\|not used" srcv.csv'
tap_check "rounding: = a plain load, every value (--export steps)" 'same v && [ "$(wc -l <want.csv)" -eq 1601 ]'

# a follower killed with SIGKILL mid-run: the index it leaves is valid; the reopen
# parses only what came after its last delta
sh "$writer" k 6 0 4 0 >/dev/null
"$T" index k >/dev/null 2>&1
fi_kill9 k 6 60 has_deltas k 2
tap_check "killed follower: it had written deltas" '[ "$(ndeltas k)" -ge 2 ]'
"$T" --export sources k >src2.csv 2>/dev/null
tap_check "killed follower: the index is used, only the bytes after its last delta parsed" \
	'grep -q "index: 6 ranks. steps.jsonl grew since the index was written: only their" src2.csv && ! grep -q "not used" src2.csv'
tap_check "killed follower: = a plain load" 'same k'
"$T" --export ranks k >k.csv 2>/dev/null
tap_check "killed follower: all 61 records of each rank" '[ "$(grep -c "^[0-5],61," k.csv)" -eq 6 ]'

# a torn delta (the follower's last file cut short): reported, dropped, re-parsed
follow_job t 4 30
n=$(ndeltas t)
last=t/.tscope-index/steps-0-of-1.delta-$(printf '%06d' "$n").tsx
head -c $(($(wc -c <"$last") / 2)) "$last" >cut.tsx && cat cut.tsx >"$last"
"$T" --export sources t >src3.csv 2>/dev/null
torn="truncated or damaged (its header gives a payload of [0-9]* bytes, the file holds [0-9]*)"
tap_check "torn delta: reported and dropped" \
	"grep -q \"index delta $n of $n not used: $torn; it and the 0 after it are dropped\" src3.csv"
tap_check "torn delta: its ranks' new bytes are parsed again" 'grep -q "steps.jsonl grew since the index was written" src3.csv'
tap_check "torn delta: = a plain load" 'same t'
"$T" --export sources t >src4.csv 2>/dev/null
tap_check "torn delta: that open appended the records to the index again" '! grep -q "grew\|not used" src4.csv'

# a gap in the chain (delta 2 removed): --status names the delta files after it; the
# open reports and removes them, parses their records again and appends them (a chain
# without a gap); the next open uses the index whole
follow_job g 4 40
n=$(ndeltas g)
m=$((n - 2))
rm g/.tscope-index/steps-0-of-1.delta-000002.tsx
"$T" index --status g >stg.txt
[ "$m" -eq 1 ] && files="1 delta file" || files="$m delta files"
tap_check "gap: --status says the files after it are not used (at least 3 deltas written)" \
	'[ "$n" -ge 3 ] &&
	 grep -q "+ 1 delta  ($files not used: damaged, out of sequence or after a missing one; the next" stg.txt'
[ "$m" -eq 1 ] && after="the 1 delta after it is" || after="the $m deltas after it are"
"$T" --export sources g >srcg.csv 2>/dev/null
tap_check "gap: the open reports them dropped" \
	"grep -q 'index delta 2 missing: $after out of sequence and dropped' srcg.csv"
tap_check "gap: ... removes them and appends their records: deltas 1 and 2, none after" \
	'[ "$(ndeltas g)" -eq 2 ] && [ ! -e g/.tscope-index/steps-0-of-1.delta-000003.tsx ]'
tap_check "gap: = a plain load" 'same g'
"$T" --export sources g >srcg2.csv 2>/dev/null
tap_check "gap: the next open uses the index, nothing dropped nor parsed" \
	'! grep -q "grew\|not used\|index delta" srcg2.csv'

# a damaged segment body (a flipped byte the head's checksum does not cover): found
# when the rank is read, that rank read from its JSONL
follow_job d 4 20
"$T" index --status --verify d >v1.txt 2>&1
tap_check "index --status --verify with deltas: the bodies and segments check" \
	'grep -q "^verify: 4 ranks. bodies and [0-9]* heatmap rows read back: checksums ok$" v1.txt'
f=d/.tscope-index/steps-0-of-1.delta-000001.tsx
tap_flip "$f" 60
cp -p "$f" dmg.tsx
"$T" index --status --verify d >v2.txt 2>&1
rc=$?
tap_check "damaged segment: --verify names it, exit 1" \
	'[ "$rc" -eq 1 ] && grep -q "^verify: .*delta-000001.tsx@[0-9]*: index part not usable for rank 0: checksum mismatch" v2.txt'
cat dmg.tsx >"$f" && touch -r dmg.tsx "$f" # as it was before --verify invalidated it
"$T" --export sources d >src5.csv 2>/dev/null
tap_check "damaged segment: reported for the rank it holds" 'grep -q "index part not usable for rank 0: checksum mismatch" src5.csv'
tap_check "damaged segment: = a plain load" 'same d'

# a summary delta that does not match: of fewer deltas (a follower stopped between a
# delta and its summary delta), damaged, missing: reported, recomputed, = a plain load
follow_job s 4 20
cp s/.tscope-index/summary-delta.tsx old-sd.tsx
n0=$(ndeltas s)
# a second follower (started before the writer, so its open parses nothing) adds deltas
TSCOPE_INDEX_EVERY=0.1 "$T" --follow --interval 0.1 --stall 30 s >s2.out 2>s2.err &
fpid=$!
fi_wait grep -qs following s2.err
sh "$writer" s 4 21 40 0.05
fi_wait has_deltas s $((n0 + 1))
sleep 3 # 30 polls: it has read every record (not a timing check: the open below says)
kill -TERM "$fpid" # it stops: its last save holds every record
wait "$fpid"
fpid=
cp old-sd.tsx s/.tscope-index/summary-delta.tsx
"$T" --export sources s >src7.csv 2>/dev/null
tap_check "stale summary delta: set up (a copy of an earlier one, more deltas since, nothing to parse)" \
	'[ -s old-sd.tsx ] && [ "$(ndeltas s)" -gt "$n0" ] && ! grep -q "grew" src7.csv'
tap_check "stale summary delta: reported" 'grep -q "index summary delta not used: it is not of these index deltas" src7.csv'
tap_check "stale summary delta: = a plain load" 'same s'
follow_job sd 4 20
tap_flip sd/.tscope-index/summary-delta.tsx 60
"$T" --export sources sd >src8.csv 2>/dev/null
tap_check "damaged summary delta: reported" 'grep -q "index summary delta not used: damaged" src8.csv'
tap_check "damaged summary delta: = a plain load" 'same sd'
follow_job sm 4 20
rm sm/.tscope-index/summary-delta.tsx
"$T" --export sources sm >src9.csv 2>/dev/null
tap_check "missing summary delta: reported" 'grep -q "index summary delta not used: missing" src9.csv'
tap_check "missing summary delta: = a plain load" 'same sm'

# SIGKILL at other points of a follow (after 1 and after 3 deltas): = a plain load
for n in 1 3; do
	sh "$writer" k$n 4 0 4 0 >/dev/null
	"$T" index k$n >/dev/null 2>&1
	fi_kill9 k$n 4 60 has_deltas k$n $n
	tap_check "killed after $n delta(s): = a plain load (--print, ranks, findings, heatmap_cells, steps)" "same k$n"
done

# compaction: at TSCOPE_INDEX_DELTAS deltas the next append rewrites the base whole
export TSCOPE_INDEX_DELTAS=2
follow_job c 4 60
unset TSCOPE_INDEX_DELTAS
tap_check "compaction: never more than 2 deltas" '[ "$(ndeltas c)" -le 2 ]'
"$T" --export sources c >src6.csv 2>/dev/null
tap_check "compaction: reopen parses nothing" '! grep -q "grew\|not used" src6.csv'
tap_check "compaction: = a plain load" 'same c'
cd "$TSCOPE_TMP" && [ -z "${KEEP:-}" ] && rm -rf "$work"
tap_plan
