#!/bin/sh
# index_sources.sh: a part of the index written again from an open run (model/index/
# append.c) records every source a plain load has, run.json's too: after a follower
# compacts a whole index (TSCOPE_INDEX_DELTAS), after an open that parsed a torn
# delta's records again and compacted the part, and after a follower compacts the parts
# of a sharded index, --export sources (files, records, diagnostics: the Overview's
# "sources N files, M records loaded") equals a plain load's, a rank without run.json
# included.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
. "$TSCOPE_ROOT/tests/tools/follow_index_lib.sh"
fi_begin index_sources

# run DIR: a 4-rank run (steps 0-4), a run.json in ranks 0-2 (rank 3 has none)
run() {
	sh "$writer" "$1" 4 0 4 0 >/dev/null
	for r in 0 1 2; do printf '{"name":"job","rank":%d,"world_size":4}\n' $r >"$1/rank$r/run.json"; done
}
# same_sources DIR: --export sources from DIR's index equals a plain load's
same_sources() {
	"$T" --export sources --no-index "$1" >"$1.want.csv" 2>/dev/null
	"$T" --export sources "$1" >"$1.got.csv" 2>/dev/null
	cmp -s "$1.want.csv" "$1.got.csv"
}
# run_json_rows DIR: the run.json files of its indexed --export sources
run_json_rows() { grep -c '^file,.*/run\.json,' "$1.got.csv"; }
ino() { ls -i "$1" 2>/dev/null | cut -d' ' -f1; }
# pin FILE: its inode number, the file kept linked (pin.DIR) so that a rewrite cannot reuse it
pin() { ln -f "$1" "pin.${1%%/*}" && ino "$1"; }

# a whole index compacted by a follower at each second delta
run c
"$T" index c >/dev/null 2>&1
base=$(pin c/.tscope-index/steps-0-of-1.tsx)
export TSCOPE_INDEX_DELTAS=2
fi_follow c 4 40
unset TSCOPE_INDEX_DELTAS
tap_check "compaction: the follower rewrote the part" '[ "$(ino c/.tscope-index/steps-0-of-1.tsx)" != "$base" ]'
tap_check "compaction: sources = a plain load's (3 run.json files)" 'same_sources c && [ "$(run_json_rows c)" -eq 3 ]'
tap_check "compaction: the reopen parses nothing" '! grep -q "grew\|not used" c.got.csv'

# an open that parses a torn delta's records again, at the delta limit: it compacts the part
run t
"$T" index t >/dev/null 2>&1
fi_follow t 4 30
n=$(ls t/.tscope-index/ | grep -c '^steps-0-of-1\.delta-[0-9]*\.tsx$')
last=t/.tscope-index/steps-0-of-1.delta-$(printf '%06d' "$n").tsx
head -c $(($(wc -c <"$last") / 2)) "$last" >cut.tsx && cat cut.tsx >"$last"
base=$(pin t/.tscope-index/steps-0-of-1.tsx)
TSCOPE_INDEX_DELTAS=1 "$T" --export sources t >t.first.csv 2>/dev/null
tap_check "torn delta: dropped, its records parsed again, the part compacted (2 deltas or more before)" \
	'[ "$n" -ge 2 ] && grep -q "steps.jsonl grew since" t.first.csv &&
	 [ "$(ino t/.tscope-index/steps-0-of-1.tsx)" != "$base" ]'
tap_check "torn delta: then sources = a plain load's (3 run.json files)" \
	'same_sources t && [ "$(run_json_rows t)" -eq 3 ] && ! grep -q "grew\|not used" t.got.csv'

# a sharded index (2 parts): the follower compacts each part alone
run s
"$T" index --shard 0/2 s >/dev/null 2>&1
"$T" index --shard 1/2 s >/dev/null 2>&1
"$T" --print s >/dev/null 2>&1 # merges the shards' summary inputs
base=$(pin s/.tscope-index/steps-0-of-2.tsx)
export TSCOPE_INDEX_DELTAS=1
fi_follow s 4 30
unset TSCOPE_INDEX_DELTAS
tap_check "sharded compaction: the parts stayed, part 0 rewritten" \
	'[ -s s/.tscope-index/steps-1-of-2.tsx ] && [ "$(ino s/.tscope-index/steps-0-of-2.tsx)" != "$base" ]'
tap_check "sharded compaction: sources = a plain load's (3 run.json files)" \
	'same_sources s && [ "$(run_json_rows s)" -eq 3 ]'
cd "$TSCOPE_TMP" && [ -z "${KEEP:-}" ] && rm -rf "$work"
tap_plan
