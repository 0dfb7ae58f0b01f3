#!/bin/sh
# index.sh: the persistent index (model/index/, `tscope-tui index`): a run opened from its
# index reports exactly what the JSONL gives (--print and --export ranks, whole and
# merged from shards); the index is really used; a stale (source changed or removed: said
# so), newer-version (both versions named), damaged (checksum) or truncated index is
# reported, not trusted, and rebuilt; a missing shard is named and its ranks come from
# the JSONL, a shard of no rank or trace (more shards than either) is complete, with or
# without traces, and a dir of traces alone is current; --ranks loads a subset; --slurm
# --dry-run writes the job-array script (odd paths quoted, its '%' doubled; a backslash
# refused; N from the JSONL and the traces; a --shards N beyond the rank dirs, or the
# traces in none when more, lowered to them and said; each task given --jobs and --force;
# the sbatch options on the printed submit and merge lines; a run dir's control bytes
# kept in the piped script, never sent to a terminal; a dir with nothing to index
# refused); --shards goes with --slurm and --shard without it, --status with no build
# option; index files are no more readable than the run dir (0700: 0600;
# 0750: 0640; the umask applies) or than its least readable rank dir, run.json,
# steps.jsonl or trace (0600: 0600); `index` of a current index
# leaves it (--force rebuilds), bringing its summary up to date when that is all it
# needs, and so do `index --shard K/N` of a current part and --slurm (no job submitted);
# a merge step not submitted exits 1; every shard of a dir with nothing to index exits 1;
# --status says a summary made from a part not usable is not usable either;
# --status --verify reads every body and summary row back; --status names a shard's ranks as a
# list when ids are missing between them; an index part that is a FIFO
# is refused, never waited for; a comparison of two indexed runs (whole, sharded, --ranks)
# is their JSONL's, run.json's environment and config diffs included; the command line
# follows the main command's conventions (options anywhere, --opt=VALUE, '--', --help and
# --version anywhere; usage errors name what was wrong) and --slurm passes what it does
# not know to sbatch in order.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/index.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
"$gen" run 8 300 >/dev/null || exit 1
idx=run/.tscope-index

"$T" --print --no-index run >want.txt 2>/dev/null
"$T" --export ranks --no-index run >want.csv 2>/dev/null
"$T" --print run >/dev/null 2>&1
tap_check "a small run is not indexed automatically" '[ ! -e $idx ]'

"$T" index run >out.txt 2>&1
tap_check "index writes one part" 'grep -q "index written: run/.tscope-index/steps-0-of-1.tsx (8 ranks" out.txt'
rm -rf $idx
if ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
	strace -f -qq -e trace=getdents64 -o dents.txt "$T" index --jobs 1 run >/dev/null 2>&1; then
	tap_check "a first build lists the run once: no current check without an index (30 getdents64; 50 with it)" \
		'[ "$(grep -c "getdents64" dents.txt)" -le 32 ]'
else
	tap_skip "a first build's listings: strace cannot trace here"
fi
"$T" --print run >got.txt 2>err.txt
"$T" --export ranks run >got.csv 2>/dev/null
tap_check "--print from the index = from the JSONL" 'cmp -s want.txt got.txt'
tap_check "--export ranks from the index = from the JSONL" 'cmp -s want.csv got.csv'
tap_check "a current index adds no diagnostic" '[ ! -s err.txt ]'
# index again: a current index is left as it is; --force rebuilds it; a summary that is
# missing is brought up to date (no part rewritten); a grown source rebuilds
ino() { stat -c %i $idx/steps-0-of-1.tsx; }
# pin: the part's inode number, the part kept linked so that a rewrite cannot reuse it
pin() { ln -f $idx/steps-0-of-1.tsx "pin.$1" && ino; }
i0=$(pin 1)
"$T" index run >cur.txt 2>&1
rc=$?
tap_check "index of a current index: exit 0, says so, the part left as it was" \
	'[ "$rc" -eq 0 ] && [ "$(ino)" = "$i0" ] &&
	 grep -q "^index current: run/.tscope-index (8 ranks); nothing to rebuild (--force rebuilds it)$" cur.txt'
"$T" index --force run >force.txt 2>&1
tap_check "--force rebuilds it" 'grep -q "^index written: run/.tscope-index/steps-0-of-1.tsx (8 ranks" force.txt && [ "$(ino)" != "$i0" ]'
i0=$(pin 2)
"$T" index --status run >sum1.txt
rm $idx/summary.tsx
"$T" index --status run >sum2.txt
tap_check "index --status: the summary's line, current or why not" \
	'grep -q "^summary  ok  run/.tscope-index/summary.tsx$" sum1.txt &&
	 grep -q "^summary  not current (none yet): an open computes the analyses from the parts and writes it" sum2.txt'
"$T" index run >cur2.txt 2>&1
tap_check "a missing summary: written, the part left as it was" \
	'grep -q "^index current: .* its summary brought up to date; nothing to rebuild" cur2.txt && [ -s $idx/summary.tsx ] && [ "$(ino)" = "$i0" ]'
cp run/rank5/steps.jsonl keep5.jsonl
printf '%s\n' "$(tail -n 1 run/rank5/steps.jsonl | sed 's/"step": *[0-9]*/"step":300/')" >>run/rank5/steps.jsonl
"$T" index run >grew.txt 2>&1
tap_check "a grown source: rebuilt" 'grep -q "^index written" grew.txt && [ "$(ino)" != "$i0" ]'
cp keep5.jsonl run/rank5/steps.jsonl
"$T" index run >/dev/null 2>&1
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
# traces of the run's world_size (a trace of another in a rank dir is another job's)
"$gen" mixed 3 20 >/dev/null && for r in 0 1 2; do
	"$tgen" t.json 2 $r >/dev/null && sed 's/"world_size": 8/"world_size": 3/' t.json >mixed/rank$r/trace.json
done
"$T" index mixed >/dev/null 2>&1
rm mixed/.tscope-index/steps-0-of-1.tsx mixed/.tscope-index/summary.tsx
"$T" index mixed >nosteps.txt 2>&1
tap_check "rank dirs, and a trace part but no steps part: built" 'grep -q "^index written: mixed/.tscope-index/steps-0-of-1.tsx" nosteps.txt'
jsonl=$(cat run/rank*/steps.jsonl | wc -c)
part=$(wc -c <$idx/steps-0-of-1.tsx)
tap_check "index is at most 40% of the JSONL ($part of $jsonl bytes)" '[ $((part * 100)) -le $((jsonl * 40)) ]'

# The summary (distributed analysis, straggler set, heatmap pyramids): a 16-rank run
# with a straggler; every view the first frames read is the same from the index.
"$gen" demo >/dev/null || exit 1
"$T" index demo >/dev/null 2>&1
tap_check "index writes the summary next to the part" '[ -s demo/.tscope-index/summary.tsx ]'
for v in ranks findings heatmap_cells heatmap nodes budget; do
	"$T" --export $v --no-index demo >want.$v.csv 2>/dev/null
	"$T" --export $v demo >got.$v.csv 2>/dev/null
	tap_check "summary: --export $v from the index = from the JSONL" 'cmp -s want.$v.csv got.$v.csv && [ -s want.$v.csv ]'
done
tap_check "summary: the straggler is there" 'grep -q "^11,.*,yes," got.ranks.csv'
"$T" --print --no-index demo >want.demo.txt 2>&1
"$T" --print demo >got.demo.txt 2>&1
tap_check "summary: --print from the index = from the JSONL" 'cmp -s want.demo.txt got.demo.txt'
# a damaged summary head: reported, the analyses computed again, the summary rewritten
tap_flip demo/.tscope-index/summary.tsx $(($(wc -c <demo/.tscope-index/summary.tsx) - 3))
"$T" --export sources demo >dmg.src 2>/dev/null
"$T" --export ranks demo >dmg.csv 2>/dev/null
"$T" --export sources demo >dmg2.src 2>/dev/null
tap_check "damaged summary: reported" 'grep -q "index summary not used: checksum mismatch" dmg.src'
tap_check "damaged summary: same ranks, rewritten" 'cmp -s want.ranks.csv dmg.csv && ! grep -q "summary" dmg2.src'

# Proof of use: same size and mtime, other content -> the index still answers.
f=run/rank3/steps.jsonl
cp -p $f keep.jsonl
sed 's/"forward":0\.0/"forward":0.9/' keep.jsonl >$f
touch -r keep.jsonl $f
"$T" --export ranks run >used.csv 2>/dev/null
tap_check "the index is what answers (the JSONL is not read)" 'cmp -s want.csv used.csv'

# Stale: the source changed (mtime) -> reported, the JSONL is read, the index rebuilt.
touch $f
"$T" --export sources run >src.csv 2>/dev/null
tap_check "stale index: reported" 'grep -q "index shard 0/1 not used: stale: run/rank3/steps.jsonl changed" src.csv'
"$T" index run >/dev/null 2>&1 && touch $f
"$T" --export ranks run >stale.csv 2>/dev/null
"$T" --export ranks --no-index run >fresh.csv 2>/dev/null
tap_check "stale index: the changed JSONL is what is shown" 'cmp -s fresh.csv stale.csv && ! cmp -s want.csv stale.csv'
"$T" index --status run >st.txt
tap_check "stale index: rebuilt by that open" 'grep -q "^shard 0/1  ranks 0-7  ok" st.txt'
cp -p keep.jsonl $f
"$T" index run >/dev/null 2>&1
mv $f gone.jsonl
"$T" index --status run >gone.txt
mv gone.jsonl $f
tap_check "a steps.jsonl removed: --status says removed, not changed" \
	'grep -q "^shard 0/1  ranks 0-7  NOT USABLE: stale: run/rank3/steps.jsonl was removed$" gone.txt'

# damage DESC OFFSET BYTES: overwrite the part at OFFSET, open, expect REASON and a rebuild.
damage() {
	"$T" index run >/dev/null 2>&1
	printf "$3" | dd of=$idx/steps-0-of-1.tsx bs=1 seek="$2" conv=notrunc 2>/dev/null
	"$T" --export sources run >src.csv 2>/dev/null
	"$T" --print run >got.txt 2>/dev/null
	reason=$4
	tap_check "$1: reported ($4)" 'grep -q "$reason" src.csv'
	tap_check "$1: not trusted (output = JSONL)" 'cmp -s want.txt got.txt'
	"$T" index --status run >st.txt
	tap_check "$1: rebuilt" 'grep -q "ok" st.txt'
}
version=$(sed -n 's/^#define INDEX_VERSION \([0-9]*\)u$/\1/p' "$TSCOPE_ROOT/model/index/index.h")
newer=$((version + 1)) # a newer build's (a version far above this build's is a damaged header: index_damage.sh)
damage "version bump" 8 "\\$(printf %03o $newer)" "another index format version ($newer; this build reads $version)"
damage "checksum damage" 200 '\377\377\377\377' "checksum mismatch"
"$T" index run >/dev/null 2>&1
size=$(wc -c <$idx/steps-0-of-1.tsx)
head -c $((size / 2)) $idx/steps-0-of-1.tsx >cut && cat cut >$idx/steps-0-of-1.tsx
"$T" --export sources run >src.csv 2>/dev/null
"$T" --print run >got.txt 2>/dev/null
tap_check "truncated index: reported" 'grep -q "truncated" src.csv'
tap_check "truncated index: not trusted" 'cmp -s want.txt got.txt'
# --status --verify reads every rank body and summary row back: a damaged body (which
# --status, reading headers and heads, passes) named once, the part invalidated, rebuilt
"$T" index run >/dev/null 2>&1
"$T" index --status --verify run >v1.txt
rc=$?
tap_check "--status --verify of a sound index: exit 0, every body and row read back" \
	'[ "$rc" -eq 0 ] && grep -q "^verify: 8 ranks. bodies and [1-9][0-9]* heatmap rows read back: checksums ok$" v1.txt'
tap_flip $idx/steps-0-of-1.tsx 100
"$T" index --status run >v2.txt
rc2=$?
"$T" index --status --verify run >v3.txt
rc3=$?
tap_check "a damaged rank body: --status passes it, --verify names it, exit 1" \
	'[ "$rc2" -eq 0 ] && [ "$rc3" -eq 1 ] && grep -q "^verify: damaged (above)$" v3.txt &&
	 grep -q "^verify: $idx/steps-0-of-1.tsx@[0-9]*: index part not usable for rank [0-9]*: checksum mismatch" v3.txt'
"$T" index --status --verify run >v3b.txt
rc=$?
tap_check "... --verify of the invalidated part: not run, and why, exit 1" \
	'[ "$rc" -eq 1 ] && grep -q "^verify: not run (a part is not usable: see above for what rebuilds it)$" v3b.txt'
tap_check "... once for the part, which is invalidated" \
	'[ "$(grep -c "not usable" v3.txt)" -eq 1 ] && grep -q "; the part is invalidated" v3.txt &&
	 [ "$(wc -c <$idx/steps-0-of-1.tsx)" -eq 48 ]'
"$T" index run >/dev/null 2>&1
"$T" index --status --verify run >v4.txt
tap_rc $? "... index rebuilds it, and it verifies"
tap_flip $idx/summary.tsx 60
"$T" index --status --verify run >v5.txt
rc=$?
tap_check "a damaged summary row: --verify names the summary once, exit 1" \
	'[ "$rc" -eq 1 ] && [ "$(grep -c "summary damaged" v5.txt)" -eq 1 ] &&
	 grep -q "^verify: $idx/summary.tsx: index summary damaged .*; the summary is invalidated" v5.txt'

# Shards: 3 parts merge to the same report; a missing one is named, the rest is used.
rm -rf $idx
for k in 0 1 2; do "$T" index --shard $k/3 run >/dev/null 2>&1; done
"$T" index --status run >st.txt
tap_eq "three shards, all ok" 3 "$(grep -c '  ok  ' st.txt)"
"$T" --print run >got.txt 2>/dev/null
"$T" --export ranks run >got.csv 2>/dev/null
tap_check "merged shards: --print = JSONL" 'cmp -s want.txt got.txt'
tap_check "merged shards: --export ranks = JSONL" 'cmp -s want.csv got.csv'
tap_check "merged shards: the first open writes the summary" '[ -s $idx/summary.tsx ]'
"$T" --export ranks run >got2.csv 2>err2.txt
tap_check "merged shards: the next open from parts and summary = JSONL, no diagnostic" 'cmp -s want.csv got2.csv && [ ! -s err2.txt ]'
"$T" index run >cur3.txt 2>&1
tap_check "index of current shards: left as they are (not rebuilt whole)" \
	'grep -q "^index current: run/.tscope-index (8 ranks); nothing to rebuild" cur3.txt && [ -e $idx/steps-2-of-3.tsx ]'
# index --shard K/N of a current part: left as it is, said (it was rewritten, and so by
# each task of a job array); --force rewrites it.
ln -f $idx/steps-1-of-3.tsx pin.s1 && s1=$(stat -c %i $idx/steps-1-of-3.tsx)
"$T" index --shard 1/3 run >sc.out 2>&1
rc=$?
cur="index shard 1/3 current: run/.tscope-index (3 ranks); nothing to rebuild (--force rebuilds it)"
tap_check "index --shard of a current part: left as it is (its inode), said, exit 0" \
	'[ "$rc" -eq 0 ] && [ "$(stat -c %i $idx/steps-1-of-3.tsx)" = "$s1" ] &&
	 [ "$(cat sc.out)" = "$cur" ]'
"$T" index --force --shard 1/3 run >sf.out 2>&1
tap_check "... --force rewrites it" \
	'[ "$(stat -c %i $idx/steps-1-of-3.tsx)" != "$s1" ] && grep -q "^index written: $idx/steps-1-of-3.tsx (3 ranks" sf.out'
rm -f pin.s1
# Each shard writes its part of the summary; the first open merges them (no rank's steps
# read: test_index_summary) into what a whole index gives, and removes them.
for n in 1 2 4; do
	rm -rf $idx
	k=0
	while [ $k -lt $n ]; do "$T" index --shard $k/$n run >/dev/null 2>&1; k=$((k + 1)); done
	tap_eq "$n shards: each wrote its part of the summary" $n "$(ls $idx | grep -c "^inputs-[0-9]*-of-$n.tsx$")"
	"$T" --print run >got.txt 2>err.txt
	"$T" --export ranks run >got.csv 2>/dev/null
	tap_check "$n shards merged: --print and --export ranks = JSONL, no diagnostic" \
		'cmp -s want.txt got.txt && cmp -s want.csv got.csv && [ ! -s err.txt ]'
	tap_check "$n shards merged: summary written, the shards' parts removed" \
		'[ -s $idx/summary.tsx ] && ! ls $idx | grep -q "^inputs-"'
done
rm -rf $idx
for k in 0 1 2; do "$T" index --shard $k/3 run >/dev/null 2>&1; done
rm $idx/steps-1-of-3.tsx
"$T" --print run >got.txt 2>/dev/null
"$T" --export sources run >src.csv 2>/dev/null
tap_check "missing shard: named" 'grep -q "index shard 1/3 not used: missing" src.csv'
tap_check "missing shard: its ranks come from the JSONL, same report" 'cmp -s want.txt got.txt'
"$T" index --status run >st.txt
tap_rc $((1 - $?)) "index --status fails while a shard is missing"
tap_check "... and says the summary is not usable, no open rebuilds the shard" \
	'grep -q "^summary  not usable: it needs every shard; each open reads the ranks of the shards not usable" st.txt'
# More shards than ranks (3 ranks with a trace each, 4 shards): the shard of none exits
# 0 and writes nothing; --status counts it complete (no "-1--1"), exit 0; opens say nothing
"$gen" few 3 20 >/dev/null && for r in 0 1 2; do
	"$tgen" t.json 1 $r >/dev/null && sed 's/"world_size": 8/"world_size": 3/' t.json >few/rank$r/trace.json
done
"$T" index --shard 0/4 few >few0.txt 2>&1
rc=$?
tap_check "a shard of no rank: exit 0, says so" \
	'[ "$rc" -eq 0 ] &&
	 grep -q "^index shard 0/4: nothing to index (no rank or trace falls in this shard): no part written$" few0.txt'
for k in 1 2 3; do "$T" index --shard $k/4 few >/dev/null 2>&1; done
"$T" index --status few >few.txt
rc=$?
tap_check "... --status: complete, exit 0; the shard of none named so, a shard of one its rank" \
	'[ "$rc" -eq 0 ] && grep -q "^shard 0/4  no rank  ok  (4 shards for 3 rank dirs: nothing to hold)$" few.txt &&
	 grep -q "^shard 1/4  rank 0  ok  " few.txt &&
	 grep -q "^traces 0/4  no trace  ok  (more shards than traces" few.txt &&
	 ! grep -q "NOT USABLE\|ranks -1" few.txt'
"$T" --export sources few >few.csv 2>/dev/null
tap_check "... an open says nothing of it" '! grep -q "not used" few.csv'
# A shard's slices: the ranks by id, the traces in no rank dir by file (a run dir's
# traces beside its rank dirs are another run's: index_refused.sh). 6 traces alone in 6
# shards: each holds a trace (and says so: its rank, not "0 ranks"); 6 ranks with traces
# in rank dirs 1, 3 and 5: shards 0, 2 and 4 a rank and no trace. Either way --status
# finds every part, exit 0, and `index` the index current.
mkdir loose && for i in 0 1 2 3 4 5; do "$tgen" loose/t$i.pt.trace.json 1 $i >/dev/null; done
"$gen" loose2 6 20 >/dev/null && for r in 1 3 5; do
	sed 's/"world_size": *8/"world_size": 6/' loose/t$r.pt.trace.json >loose2/rank$r/trace.json
done
for d in loose loose2; do
	for k in 0 1 2 3 4 5; do "$T" index --shard $k/6 $d >$d.$k.txt 2>&1 || echo $k >>$d.fail; done
	"$T" index --status $d >$d.st 2>&1 || echo status >>$d.fail
	"$T" index $d >$d.cur 2>&1
done
tap_check "6 shards of 6 traces alone: each written, one says \"1 rank, 1 trace\"" \
	'[ ! -e loose.fail ] &&
	 grep -q "^index written: loose/.tscope-index/traces-0-of-6.tsx (1 rank, 1 trace, " loose.0.txt &&
	 grep -q "^traces 2/6  1 trace  ok  " loose.st && grep -q "^index current: loose/.tscope-index (6 traces)" loose.cur'
tap_check "6 shards of 6 ranks and 3 traces: each written, --status complete, the index current" \
	'[ ! -e loose2.fail ] &&
	 grep -q "^index written: loose2/.tscope-index/steps-0-of-6.tsx (1 rank, 0\.0[0-9]*[1-9] MB)$" \
	 loose2.0.txt && grep -q "^index written: loose2/.tscope-index/steps-1-of-6.tsx (1 rank, 1 trace, " loose2.1.txt &&
	 grep -q "^traces 0/6  no trace  ok  " loose2.st && ! grep -q "NOT USABLE" loose2.st &&
	 grep -q "^index current: loose2/.tscope-index (6 ranks, 3 traces)" loose2.cur'
# A dir of traces alone (no rank dir, no steps.jsonl: the planner's stand-in rank 0 is no
# rank dir): current after a sharded build and after a whole one (it was rebuilt at every
# `index`); a dir of nothing to index, --shard 0/1: exit 1 ("nothing falls in this shard"
# was exit 0: every task of a job array over a wrong dir succeeded).
mkdir tonly && cp loose/t0.pt.trace.json loose/t1.pt.trace.json loose/t2.pt.trace.json tonly/
for k in 0 1 2 3; do "$T" index --shard $k/4 tonly >/dev/null 2>&1; done
"$T" index tonly >tonly1.txt 2>&1
"$T" index --force tonly >/dev/null 2>&1
"$T" index tonly >tonly2.txt 2>&1
tap_check "a dir of traces alone: index current after a sharded build and after a whole one" \
	'grep -q "^index current: tonly/.tscope-index (3 traces); nothing to rebuild" tonly1.txt &&
	 grep -q "^index current: tonly/.tscope-index (3 traces); nothing to rebuild" tonly2.txt'
mkdir nothing
"$T" index --shard 0/1 nothing >nothing.txt 2>&1
rc=$?
tap_check "a dir of nothing to index, --shard 0/1: exit 1, nothing to index here" \
	'[ "$rc" -eq 1 ] && grep -q "no index written (nothing to index here" nothing.txt'
# A whole index gone stale: its summary is not usable either, and the next open rebuilds both.
rm -rf $idx && "$T" index run >/dev/null 2>&1
touch -d @1700000000 run/rank3/run.json
"$T" index --status run >st.txt
tap_check "a stale whole index: the part NOT USABLE, the summary not usable (not \"ok\")" \
	'grep -q "^shard 0/1  ranks 0-7  NOT USABLE: stale: run/rank3/run.json changed$" st.txt &&
	 grep -q "^summary  not usable: made from the part above, which is not; the next open rebuilds both$" st.txt'
"$T" --print run >/dev/null 2>&1
"$T" index --status run >st2.txt
tap_check "... the next open rebuilt both" \
	'! grep -q "NOT USABLE\|not usable" st2.txt && grep -q "^summary  ok" st2.txt'

# Comparing two indexed runs: the comparison reads the lowest rank's run.json text, which
# the index keeps (it was lost: env and config "(identical)"); whole and sharded.
mkdir cmpb && cp -r run/rank* cmpb/ || exit 1
for f in cmpb/rank*/run.json; do
	sed 's/"batch_size": 16/"batch_size": 32/; s/"torch": "[^"]*"/"torch": "2.5.0"/
	     s/"name": "demo-ddp"/"name": "demo-ddp-v2"/' $f >t.json && mv t.json $f
done
"$T" index cmpb >/dev/null 2>&1
"$T" --print --no-index run cmpb >cmp_want.txt 2>&1
"$T" --print run cmpb >cmp_got.txt 2>&1
"$T" --export diff_env run cmpb >env_got.csv 2>/dev/null
tap_check "compare of two indexed runs = of their JSONL: the names, env and config diffs" \
	'cmp -s cmp_want.txt cmp_got.txt && grep -q "A=.demo-ddp.  vs  B=.demo-ddp-v2." cmp_got.txt &&
	 grep -q "batch_size: 16  ->  32" cmp_got.txt'
tap_check "... --export diff_env from the index: torch and batch_size" \
	'grep -q "^environment,torch,2.4.0+cu121,2.5.0$" env_got.csv && grep -q "^config,batch_size,16,32$" env_got.csv'
rm -rf cmpb/.tscope-index && "$T" index --shard 1/2 cmpb >/dev/null 2>&1 && "$T" index --shard 0/2 cmpb >/dev/null 2>&1
"$T" --print run cmpb >cmp_sh.txt 2>&1
"$T" --print --ranks 0-2 run cmpb >cmp_sub.txt 2>&1
"$T" --print --no-index --ranks 0-2 run cmpb >cmp_subw.txt 2>&1
tap_check "... from shards, and with --ranks, = from the JSONL" \
	'cmp -s cmp_want.txt cmp_sh.txt && cmp -s cmp_subw.txt cmp_sub.txt'

# --ranks: a subset (from the index: subset_index.sh).
"$T" --export ranks --ranks 0-2,5 run >sub.csv 2>/dev/null
tap_eq "--ranks 0-2,5 loads those ranks" "0 1 2 5" "$(tail -n +2 sub.csv | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//')"
"$T" --print --ranks 1-x run >/dev/null 2>err.txt
tap_eq "--ranks rejects a bad list" 2 $?

# --slurm --dry-run: the job-array script.
"$T" index --slurm --shards 4 --dry-run --time=5 run >script.sh
tap_check "--slurm --dry-run: one array task per shard" 'grep -q "^#SBATCH --array=0-3$" script.sh'
tap_check "--slurm --dry-run: each task indexes its shard" 'grep -q "index --shard \"\$SLURM_ARRAY_TASK_ID/4\"" script.sh'
# --shards beyond what the shards can hold (the rank dirs, or the trace files in no rank
# dir when those are more): lowered to that, said on stderr; within it, nothing said
"$T" index --slurm --shards 100 --dry-run run >many.sh 2>many.err
"$T" index --slurm --shards 10 --dry-run loose >lmany.sh 2>lmany.err
"$T" index --slurm --shards 8 --dry-run run >eight.sh 2>eight.err
tap_check "--slurm --shards 100 of 8 rank dirs: 8 tasks, and stderr says so" \
	'grep -qx "#SBATCH --array=0-7" many.sh && grep -q "index --shard \"\$SLURM_ARRAY_TASK_ID/8\"" many.sh &&
	 [ "$(cat many.err)" = "tscope-tui index: --shards 100: the run has 8 rank dirs; submitting 8 shards" ]'
tap_check "... of 6 trace files alone: 6 tasks; --shards 8 of 8 rank dirs: kept, nothing said" \
	'grep -qx "#SBATCH --array=0-5" lmany.sh &&
	 [ "$(cat lmany.err)" = \
	   "tscope-tui index: --shards 10: the run has 6 trace files in no rank dir; submitting 6 shards" ] &&
	 grep -qx "#SBATCH --array=0-7" eight.sh && [ ! -s eight.err ]'
"$T" index --slurm --shards 4 --dry-run --merge-step run >script2.sh
tap_check "--merge-step --dry-run: the merge step's sbatch line, its command as sh reads it" \
	'cmd=$(sed -n "s/^# then (--merge-step): sbatch --dependency=afterany:JOBID --job-name=tscope-index-merge \
--output=.* --wrap //p" script2.sh) &&
	 exe=$(readlink -f "$T") && abs=$(cd run && pwd -P) &&
	 [ "$(eval "printf %s $cmd")" = "'"'"'$exe'"'"' index --status '"'"'$abs'"'"' && '"'"'$exe'"'"' --print '"'"'$abs'"'"'" ]'
# A run dir whose path has a space, a quote, a '#' and a '%': the script's log directive
# in double quotes as sbatch reads it, each '%' doubled (a Slurm filename pattern), the
# task's command as sh reads it; the merge step's log the same; a backslash refused.
odd="q dir/r#1 'x' %t"
mkdir "q dir" && "$gen" "$odd" 2 20 >/dev/null
"$T" index --slurm --shards 2 --dry-run --merge-step "$odd" >odd.sh
oabs=$(cd "$odd" && pwd -P)
opat=$(printf %s "$oabs" | sed 's/%/%%/g')
task_is() { # the task's command of odd.sh as sh reads it (task 1)
	SLURM_ARRAY_TASK_ID=1 eval "set -- $(sed -n "s/^exec //p" odd.sh)"
	[ "$1" = "$(readlink -f "$T")" ] && [ "$2 $3 $4" = "index --shard 1/2" ] && [ "$5" = "$oabs" ]
}
merge_log_is() { # the merge step's --output of odd.sh as sh reads it
	eval "set -- $(sed -n "s/^# then (--merge-step): .* --output=\(.*\) --wrap .*/\1/p" odd.sh)"
	[ "$1" = "$opat/.tscope-index/slurm-JOBID-status.out" ]
}
tap_check "--slurm --dry-run of an odd path: --output quoted, its '%' doubled; the command as sh reads it" \
	'grep -qxF "#SBATCH --output=\"$opat/.tscope-index/slurm-%A_%a.out\"" odd.sh && task_is && merge_log_is'
mkdir 'back\slash'
"$T" index --slurm --dry-run 'back\slash' >bs.out 2>bs.err
rc=$?
tap_check "--slurm with a backslash in the index dir: refused, exit 1, says why" \
	'[ "$rc" -eq 1 ] && [ ! -s bs.out ] &&
	 grep -q "Slurm cannot name a log file in .*: its path has a backslash" bs.err'
# --slurm's shard count: one per GiB of JSONL and traces (sparse 2 GiB traces in 2 rank
# dirs: 2 shards, not 1), at most one per rank dir or trace in none (3 traces of 1.5 GiB
# alone: 3, not 5)
"$gen" bigt 2 20 >/dev/null && for r in 0 1; do
	cp loose/t$r.pt.trace.json bigt/rank$r/trace.json && truncate -s 2G bigt/rank$r/trace.json
done
mkdir bigl && for i in 0 1 2; do
	cp loose/t$i.pt.trace.json bigl/t$i.pt.trace.json && truncate -s 1536M bigl/t$i.pt.trace.json
done
tap_check "--slurm's default shard count counts the traces: 2 for 2 ranks of 2 GiB, 3 for 3 traces of 1.5 GiB" \
	'"$T" index --slurm --dry-run bigt | grep -qx "#SBATCH --array=0-1" &&
	 "$T" index --slurm --dry-run bigl | grep -qx "#SBATCH --array=0-2"'
# --slurm gives each task index's --jobs and --force (not sbatch's: they were dropped);
# the dry run shows the sbatch options as they are given, on the array's submit line and
# the merge step's (they were on neither), each a word for sh; a dir with nothing to
# index submits nothing (it was a job of one task).
"$T" index --slurm --dry-run --merge-step --jobs 2 --force -p debug --time=5 --account=x "--comment=a b" run \
	>opts.sh
opts_are() { # the line "# $1: sbatch ..." as sh reads it: the sbatch options, then $2
	want=$2
	eval "set -- $(sed -n "s/^# $1: sbatch //p" opts.sh)"
	[ "${1-} ${2-} ${3-} ${4-}" = "-p debug --time=5 --account=x" ] && [ "${5-}" = "--comment=a b" ] &&
		[ "${6-}" = "$want" ]
}
task_opts_are() { # the task's command of opts.sh as sh reads it (task 0)
	SLURM_ARRAY_TASK_ID=0 eval "set -- $(sed -n "s/^exec //p" opts.sh)"
	[ "${2-} ${3-} ${4-} ${5-} ${6-} ${7-}" = "index --jobs 2 --force --shard 0/1" ]
}
tap_check "--slurm --jobs 2 --force: each task indexes its shard with them" task_opts_are
# index --jobs above the pool's 64 threads used 64 in silence (the main command says so)
"$T" index --slurm --dry-run --jobs 100 run >jobs.sh 2>jobs.err
tap_check "index --jobs 100: said on stderr as the main command says it; each task gets 64" \
	'grep -qx "tscope-tui index: --jobs 100: 64 loader threads at most; using 64" jobs.err &&
	 grep -q "^exec .* index --jobs 64 " jobs.sh'
tap_check "--slurm --dry-run: the sbatch options on the submit line and the merge step's, as sh reads them" \
	'opts_are "submitted with" "$(cd run && pwd -P)/.tscope-index/index-slurm.sh" &&
	 opts_are "then (--merge-step)" --dependency=afterany:JOBID'
"$T" index --slurm --dry-run nothing >nothing.sh 2>nothing.err
tap_check "--slurm of a dir with nothing to index: no job, exit 1, says why" \
	'[ $? -eq 1 ] && [ ! -s nothing.sh ] &&
	 grep -qx "tscope-tui index: no job submitted (nothing to index here: the index holds pytscope ranks and traces)" \
	 nothing.err'
# A run dir with ESC and BEL in its name: piped, the script keeps them in the task's
# command (sh reads the path back) and the comment lines carry none; on a terminal (a
# pty) no control byte is sent, the name shown as the sanitizer writes it.
esc=$(printf 'c\033[31md\a')
"$gen" "$esc" 2 20 >/dev/null && "$T" index --slurm --dry-run --merge-step "$esc" >esc.sh
ctl=$(printf '[\033\a]')
esc_task_is() { # the task's path in esc.sh as sh reads it (task 0)
	SLURM_ARRAY_TASK_ID=0 eval "set -- $(sed -n "s/^exec //p" esc.sh)"
	[ "${5-}" = "$(cd "$esc" && pwd -P)" ]
}
tap_check "--slurm --dry-run of a run dir with ESC and BEL, piped: the task's path kept, no comment line has them" \
	'esc_task_is && grep -q "^# then (--merge-step): " esc.sh && ! grep "^# " esc.sh | LC_ALL=C grep -q "$ctl"'
if command -v script >/dev/null 2>&1; then
	TERM=xterm script -q -e -c "\"$T\" index --slurm --dry-run --merge-step '$esc'" /dev/null </dev/null >esc.tty
	tap_check "... on a terminal: no control byte, the name shown as c^[[31md^G" \
		'! LC_ALL=C grep -q "$ctl" esc.tty && grep -qF "c^[[31md^G/.tscope-index/slurm-%A_%a.out" esc.tty'
else
	tap_skip "--slurm --dry-run on a terminal: util-linux script not installed"
fi
# Usage errors: exit 2, what was wrong, the pointer to --help.
usage_err() { # TEXT ARGS...: exit 2 and "tscope-tui index: TEXT" on stderr
	want=$1
	shift
	"$T" index "$@" >/dev/null 2>ue.txt
	[ $? -eq 2 ] && grep -q "^tscope-tui index: $want" ue.txt && grep -q "^Try 'tscope-tui index --help'.$" ue.txt
}
tap_check "index usage errors: no RUN_DIR, two, an unknown option, bad --shard and --jobs, --verify alone" \
	'usage_err "missing RUN_DIR" && usage_err "more than one RUN_DIR: run" run run &&
	 usage_err "unknown option: --bogus" --bogus run && usage_err "--shard expects K/N" --shard 2/2 run &&
	 usage_err "--jobs expects an integer >= 1: 0" --jobs 0 run && usage_err "--verify goes with --status" --verify run'
tap_check "index usage errors: --status with an option of a build (it ran a plain status)" \
	'usage_err "--slurm and --status do not go together (--status builds nothing; --verify is its one option)" \
	 --status --slurm --dry-run --force --jobs 3 run &&
	 usage_err "--shard and --status do not go together" --status --shard 1/2 run &&
	 usage_err "--force and --status do not go together" --force --status run &&
	 usage_err "--jobs and --status do not go together" --status --verify --jobs 2 run'
tap_check "index usage errors: --shards without --slurm (it indexed shard 0 of N), --shard with it" \
	'usage_err "--shards goes with --slurm" --shards 4 run && [ ! -e run/.tscope-index/steps-0-of-4.tsx ] &&
	 usage_err "--shard and --slurm do not go together" --slurm --shard 1/4 --dry-run run'
# The main command's conventions: options anywhere, --opt=VALUE, '--' before a RUN_DIR that
# begins with '-', --help and --version anywhere (exit 0); messages name what was wrong (a
# missing value, a value given to an option that takes none, an ambiguous abbreviation, a
# short option's letter and how to give such a path).
"$T" index run --force >/dev/null 2>&1 && "$T" index --status run --verify >/dev/null 2>&1 &&
	"$T" index --jobs=2 run >/dev/null 2>&1
tap_rc $? "index: options after RUN_DIR (--force, --status ... --verify) and --jobs=2"
tap_check "index usage errors: --jobs without a value, --jobs taking RUN_DIR, --force=yes, --s, -dashrun" \
	'usage_err "missing value for option: --jobs$" run --jobs &&
	 usage_err "--jobs expects an integer >= 1: run" --jobs run &&
	 usage_err "--force takes no value: --force=yes" --force=yes run &&
	 usage_err "ambiguous option: --s (--shard, --shards, --slurm, --status)" --s run &&
	 mkdir -p ./-dashrun && usage_err "unknown option: -d$" -dashrun && grep -q "give it after .--." ue.txt'
rm -rf ./-dashrun && cp -r few ./-dashrun && rm -rf ./-dashrun/.tscope-index
"$T" index -- -dashrun >dash.out 2>&1
tap_check "index -- -dashrun: indexes the dir -dashrun" '[ $? -eq 0 ] && grep -q "^index written: -dashrun/" dash.out'
"$T" index --help run >help.out 2>&1 && "$T" index run -h >h.out 2>&1
tap_check "index --help RUN_DIR, index RUN_DIR -h: the index usage, exit 0" \
	'[ $? -eq 0 ] && head -1 help.out | grep -q "^usage: tscope-tui index " && cmp -s help.out h.out'
tap_check "index --version: the main command's" '[ "$("$T" index --version)" = "$("$T" --version)" ]'
# --slurm: what index does not know goes to sbatch in order, before or after --slurm
# (-p gpu: its value a word of its own; a cluster -pgpu whole); RUN_DIR is the last word.
mkdir -p fakebin && printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"$SBATCH_LOG"; echo 4242\n' >fakebin/sbatch &&
	chmod +x fakebin/sbatch
SBATCH_LOG=$PWD/sb.log PATH=$PWD/fakebin:$PATH "$T" index --time=5 --slurm -p gpu -pgpu --shards 2 --force run \
	>/dev/null 2>&1
tap_check "index --slurm: the other arguments to sbatch, in order" \
	'[ "$(head -5 sb.log | tr "\n" " ")" = "--parsable --time=5 -p gpu -pgpu " ] && grep -q "index-slurm.sh$" sb.log'
# --slurm of a current index: said, no job submitted, exit 0 (it submitted a job array
# whose tasks rewrote every part); --force submits it (above).
rm -f sb.log
SBATCH_LOG=$PWD/sb.log PATH=$PWD/fakebin:$PATH "$T" index --slurm run >slcur.out 2>&1
rc=$?
tap_check "index --slurm of a current index: said, sbatch not run, exit 0" \
	'[ "$rc" -eq 0 ] && [ ! -e sb.log ] &&
	 [ "$(cat slcur.out)" = "index current: run/.tscope-index (8 ranks); no job submitted (--force submits it)" ]'
# --merge-step that sbatch refuses, or takes without giving a job id: exit 1 (it was 0),
# why, and what merges by hand; the array's job id and watch lines all the same.
mkdir -p fbdep fbnoid
printf '#!/bin/sh\ncase "$*" in *--dependency*) echo "sbatch: error: Job dependency problem" >&2; exit 1;; esac
echo 555\n' >fbdep/sbatch
printf '#!/bin/sh\ncase "$*" in *--dependency*) exit 0;; esac\necho 556\n' >fbnoid/sbatch
chmod +x fbdep/sbatch fbnoid/sbatch
PATH=$PWD/fbdep:$PATH "$T" index --slurm --merge-step --force run >ms1.out 2>ms1.err
rc1=$?
PATH=$PWD/fbnoid:$PATH "$T" index --slurm --merge-step --force run >ms2.out 2>ms2.err
rc2=$?
hand="the job array runs without it (exit status 1): once it is done, "
hand="$hand.tscope-tui index --status .*run. && tscope-tui --print"
tap_check "--merge-step not submitted: exit 1, why, what merges by hand; the array's job id and watch lines" \
	'[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] &&
	 grep -q "^tscope-tui index: the merge step was not submitted: sbatch failed (exit status 1); $hand" ms1.err &&
	 grep -q "^tscope-tui index: the merge step was not submitted: sbatch printed no job id; $hand" ms2.err &&
	 grep -q "^submitted job array 555: " ms1.out && grep -q "^watch: squeue -j 555 " ms1.out &&
	 grep -q "^submitted job array 556: " ms2.out'
tap_check "index --slurm RUN_DIR -p gpu: RUN_DIR is the last word, said" \
	'usage_err "not a directory (with --slurm, RUN_DIR is the last argument that is not an" --slurm run -p gpu'

# Nothing the index holds (a GenAI-Perf export): no index, exit 1, and what it holds said.
mkdir gp && printf '{"service_kind":"openai","endpoint":"v1/chat/completions","request_throughput":{"unit":"requests/sec","avg":1.0}}\n' >gp/profile_export_genai_perf.json
"$T" index gp >gp.out 2>&1
rc=$?
tap_check "index of a dir without ranks or traces: exit 1, \"nothing to index here\", no index dir" \
	'[ "$rc" -eq 1 ] && grep -q "no index written (nothing to index here: the index holds pytscope ranks and traces)" gp.out &&
	 [ ! -e gp/.tscope-index ]'
# ... and so for every shard of a job array over it (shards 0-2 of 4 exited 0, "nothing
# falls in this shard", as if the others held ranks)
for k in 0 1 2 3; do "$T" index --shard $k/4 gp >gp$k.out 2>&1; echo $? >>gp.rc; done
nothing="tscope-tui index: no index written (nothing to index here: the index holds pytscope ranks and traces)"
tap_check "index --shard K/4 of a dir without ranks or traces: every shard exit 1, \"nothing to index here\"" \
	'[ "$(tr "\n" " " <gp.rc)" = "1 1 1 1 " ] && [ ! -e gp/.tscope-index ] &&
	 [ "$(grep -lx "$nothing" gp0.out gp1.out gp2.out gp3.out | wc -l)" -eq 4 ]'

# Index files show no more than the run dir does: a run dir of its owner's alone (0700,
# its files 0600) gets shards' parts, trace parts, their summary parts, the merged
# summary and a whole index that no one else can read (they were 0644); a 0750 run dir,
# 0640; a 0755 one, 0644, and the umask applies (077: 0600), its sources readable by all.
modes() { stat -c %a "$1"/.tscope-index/* | sort -u | tr '\n' ' ' | sed 's/ $//'; }
umask 022
rm -rf priv && cp -r few priv && rm -rf priv/.tscope-index && chmod -R go-rwx priv
"$T" index --shard 0/2 priv >/dev/null 2>&1 && "$T" index --shard 1/2 priv >/dev/null 2>&1
m_shards=$(modes priv)
"$T" --print priv >/dev/null 2>&1
m_merged=$(modes priv)
"$T" index --force priv >/dev/null 2>&1
m_whole=$(modes priv)
tap_check "a 0700 run dir: its index files 0600 (shards, traces, their summary parts, the summary, whole)" \
	'[ "$m_shards" = 600 ] && [ "$m_merged" = 600 ] && [ "$m_whole" = 600 ] &&
	 ls priv/.tscope-index | grep -q "^traces-0-of-1.tsx$" && [ -e priv/.tscope-index/summary.tsx ]'
chmod -R go+rX priv && chmod 750 priv && "$T" index --force priv >/dev/null 2>&1
m_750=$(modes priv)
chmod 755 priv && "$T" index --force priv >/dev/null 2>&1
m_755=$(modes priv)
(umask 077 && "$T" index --force priv >/dev/null 2>&1)
m_077=$(modes priv)
tap_check "a 0750 run dir: 0640; 0755: 0644; 0755 under umask 077: 0600" \
	'[ "$m_750" = 640 ] && [ "$m_755" = 644 ] && [ "$m_077" = 600 ]'
# Nor more than its least readable source: a 0755 run dir whose rank dirs are 0700 and
# files 0600 (they were 0644), or one of whose traces alone is 0600 (its part); a summary
# a later open merges from shards is no more readable than any shard's sources.
chmod -R go-rwx priv && chmod 755 priv && "$T" index --force priv >/dev/null 2>&1
m_src=$(modes priv)
chmod -R go+rX priv && chmod 600 priv/rank1/trace.json && "$T" index --force priv >/dev/null 2>&1
m_trace=$(stat -c %a priv/.tscope-index/traces-0-of-1.tsx 2>&1)
chmod 644 priv/rank1/trace.json && chmod 600 priv/rank0/run.json && rm -rf priv/.tscope-index &&
	"$T" index --shard 0/2 priv >/dev/null 2>&1 && "$T" index --shard 1/2 priv >/dev/null 2>&1 &&
	rm -f priv/.tscope-index/summary.tsx && "$T" --print priv >/dev/null 2>&1
m_merge=$(stat -c %a priv/.tscope-index/summary.tsx 2>&1)
m_shard1=$(stat -c %a priv/.tscope-index/steps-1-of-2.tsx 2>&1)
tap_eq "0755 run dir, 0700 rank dirs, 0600 files: 0600; a 0600 trace: 0600; merged summary of a 0600 run.json: 0600" \
	"600 600 600 644" "$m_src $m_trace $m_merge $m_shard1"

# An index part that is a FIFO (a hostile copy of a run) is refused, not waited for.
rm -rf ff && mkdir ff && cp -r run/rank0 run/rank1 ff/ && "$T" index ff >/dev/null 2>&1 &&
	rm ff/.tscope-index/steps-0-of-1.tsx && mkfifo ff/.tscope-index/steps-0-of-1.tsx || exit 1
timeout 20 "$T" index --status ff >ff.out 2>&1
tap_check "index --status of a FIFO part: exit 1, not usable, says why" \
	'[ $? -eq 1 ] && grep -q "NOT USABLE: cannot open: not a regular file (FIFO, device or socket)" ff.out'

# A shard whose rank ids have a gap between them names them as a list, not as one range.
rm -rf gap && mkdir gap && cp -r run/rank0 run/rank1 run/rank2 run/rank4 gap/ && "$T" index gap >/dev/null 2>&1 &&
	"$T" index --status gap >gap.out 2>&1
tap_check "index --status: ranks 0,1,2,4 are 'ranks 0-2,4'" 'grep -q "^shard 0/1  ranks 0-2,4  ok" gap.out'
tap_plan
