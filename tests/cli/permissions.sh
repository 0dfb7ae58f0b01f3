#!/bin/sh
# permissions.sh: file modes as a user on a cluster meets them. A run dir the user cannot
# write (a project's shared run): `index` writes to $XDG_CACHE_HOME/tscope-tui/<absolute
# run dir, '/' -> '%'>/ (~/.cache/tscope-tui without it or when it is relative; a path
# holding a '%' or too long for a file name: its first bytes, '%%' and its CRC-32),
# nothing in the run dir; a cache dir of another user's is neither read nor written;
# `index --status` and later opens find it there and give a plain load's results; an
# open rebuilds a stale one there; a cache that cannot be made is named with the reason
# and what to set (exit 1), and the run still opens. An index in the run dir that this
# user can only read (another's, or a Slurm job's) is used as it is; when stale it is
# rebuilt in this user's cache, and grown sources or an unmerged summary are read at each
# open with a note saying why; a damaged part stays (the note says so) until `index
# --force` builds one in the cache. With parts in both, the one that gives an open more
# of the run is read (a tie: the cache), never both, and --status names the other; its
# advice for a missing shard says what this user's command would write where. An index
# shows no more than the files do: a rank
# file this user cannot read makes another's index unusable here, and this user's own
# records it as unreadable (current, not rebuilt at each open). Sources that cannot be
# read (a steps.jsonl, a whole rank dir, a trace found by its first bytes, a DASF
# database) are named with the reason, the other ranks load, and the stragglers line
# says which ranks can be judged; with none loaded,
# --print and --export count the step logs (not run.json) that cannot be read. CI runs the suite as root: the
# commands run without the capabilities that let root ignore file modes (setpriv
# --bounding-set), so a mode means what it says.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/permissions.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT

# as_user CMD...: CMD as a user whom file modes bind
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set -dac_override,-dac_read_search "$@"
	else
		"$@"
	fi
}
mkdir probe && : >probe/f && chmod 000 probe/f
if as_user cat probe/f 2>/dev/null || ! as_user true 2>/dev/null; then
	tap_skip "file modes do not bind this user here (root, and setpriv could not drop CAP_DAC_OVERRIDE)"
	tap_plan
	exit 0
fi
chmod 644 probe/f

# same DIR: --print and --export ranks from the index = a plain load's
same() {
	as_user "$T" --print --no-index "$1" >want.txt 2>/dev/null
	as_user "$T" --print "$1" >got.txt 2>/dev/null
	as_user "$T" --export ranks --no-index "$1" >want.csv 2>/dev/null
	as_user "$T" --export ranks "$1" >got.csv 2>/dev/null
	cmp -s want.txt got.txt && cmp -s want.csv got.csv
}

"$gen" run 6 40 >/dev/null || exit 1
chmod -R a-w run
abs=$(cd run && pwd -P)
cache="$work/xdg/tscope-tui/$(printf '%s' "$abs" | tr / %)"
export XDG_CACHE_HOME="$work/xdg"
as_user "$T" index run >out.txt 2>&1
tap_rc $? "read-only run dir: index exits 0"
tap_check "... it writes to \$XDG_CACHE_HOME/tscope-tui/<run dir, / as %>/, says so" \
	'[ -s "$cache/steps-0-of-1.tsx" ] && [ -s "$cache/summary.tsx" ] && grep -q "^index written: $cache/steps-0-of-1.tsx (6 ranks" out.txt'
tap_check "... and nothing in the run dir" '[ ! -e run/.tscope-index ]'
as_user "$T" index --status run >st.txt 2>&1
tap_check "index --status finds it in the cache" 'grep -q "^shard 0/1  ranks 0-5  ok  $cache/steps-0-of-1.tsx$" st.txt'
tap_check "an open from the cache = a plain load (--print, --export ranks)" 'same run'
as_user "$T" --export sources run >src.csv 2>/dev/null
tap_check "... and it was used (no shard read from the JSONL)" '! grep -q "not used" src.csv'

# stale (a rank's run.json touched): the open says so and rebuilds it in the cache
chmod u+w run/rank3/run.json && touch -d '2001-01-01' run/rank3/run.json && chmod a-w run/rank3/run.json
as_user "$T" --export sources run >src2.csv 2>/dev/null
tap_check "stale: named, its ranks read from the JSONL" 'grep -q "index shard 0/1 not used: stale: run/rank3/run.json changed" src2.csv'
as_user "$T" index --status run >st2.txt 2>&1
tap_check "stale: rebuilt in the cache by that open" 'grep -q "^shard 0/1  ranks 0-5  ok  $cache/" st2.txt && [ ! -e run/.tscope-index ]'

# no XDG_CACHE_HOME: ~/.cache
HOME="$work/home" XDG_CACHE_HOME= as_user "$T" index run >out2.txt 2>&1
tap_check "without XDG_CACHE_HOME: ~/.cache/tscope-tui/..." \
	'[ -s "$work/home/.cache/tscope-tui/$(printf "%s" "$abs" | tr / %)/steps-0-of-1.tsx" ]'

# the cache base: a relative XDG_CACHE_HOME is ignored (the XDG spec), ~/.cache is used
HOME="$work/home2" XDG_CACHE_HOME=rel as_user "$T" index run >out4.txt 2>&1
tap_check "a relative XDG_CACHE_HOME: ignored, ~/.cache/tscope-tui/..." \
	'[ -s "$work/home2/.cache/tscope-tui/$(printf "%s" "$abs" | tr / %)/steps-0-of-1.tsx" ] && [ ! -e rel ]'

# a cache directory another user made (a shared base, an index planted to mislead): its
# parts are never read, and nothing is written there (root alone can give a dir away)
if [ "$(id -u)" = 0 ]; then
	"$gen" planted 6 40 >/dev/null && cp -a planted forged && chmod -R a-w planted
	sed 's/"forward": *0\.0/"forward":0.9/' forged/rank3/steps.jsonl >f.tmp
	cat f.tmp >forged/rank3/steps.jsonl && touch -r planted/rank3/steps.jsonl forged/rank3/steps.jsonl
	"$T" index forged >/dev/null 2>&1
	pabs=$(cd planted && pwd -P)
	pcache="$work/xdg3/tscope-tui/$(printf '%s' "$pabs" | tr / %)"
	mkdir -p "$pcache" && cp forged/.tscope-index/*.tsx "$pcache"/ && chown -R 65534:65534 "$work/xdg3"
	XDG_CACHE_HOME="$work/xdg3" as_user "$T" --print planted >pl.txt 2>/dev/null
	tap_check "another user's cache dir: never read (the open = a plain load)" \
		'as_user "$T" --print --no-index planted 2>/dev/null | cmp -s - pl.txt'
	XDG_CACHE_HOME="$work/xdg3" as_user "$T" index planted >pl.out 2>&1
	rc=$?
	tap_check "... nor written by index (exit 1); it says why and what to set" \
		'[ "$rc" -eq 1 ] && [ -z "$(find "$pcache" -newer pl.txt)" ] &&
		grep -q "the cache directory is not this user.s own: set XDG_CACHE_HOME" pl.out'
else
	tap_skip "another user's cache dir: needs root to make one"
	tap_skip "... nor written"
fi

# a cache that cannot be made
mkdir roxdg && chmod 555 roxdg
XDG_CACHE_HOME="$work/roxdg" as_user "$T" index run >out3.txt 2>&1
rc=$?
tap_check "unwritable cache: exit 1, the directory, the reason and what to set are named" \
	'[ "$rc" -eq 1 ] && grep -q "index not written: $work/roxdg/tscope-tui/[^ ]*: Permission denied (the run dir is not writable: .*set XDG_CACHE_HOME to a writable directory)" out3.txt'
XDG_CACHE_HOME="$work/roxdg" as_user "$T" --print run >p.txt 2>/dev/null
tap_rc $? "... and the run still opens (--print exits 0)"
tap_check "... with the plain load's report" 'as_user "$T" --print --no-index run 2>/dev/null | cmp -s - p.txt'

# an index in the run dir that this user can only read (built by the run's owner, or
# by a Slurm job): used as it is; stale, rebuilt in this user's cache, then used there
"$gen" shared 6 40 >/dev/null || exit 1
"$T" index shared >/dev/null 2>&1
chmod -R a-w shared
sabs=$(cd shared && pwd -P)
scache="$work/xdg/tscope-tui/$(printf '%s' "$sabs" | tr / %)"
as_user "$T" --export sources shared >sh.csv 2>/dev/null
tap_check "another's index, read-only here: used (nothing parsed again, no cache made)" \
	'! grep -q "not used\|not written" sh.csv && [ ! -e "$scache" ]'
tap_check "... = a plain load" 'same shared'
as_user "$T" index --status shared >sst.txt 2>&1
tap_check "... index --status lists it" 'grep -q "^shard 0/1  ranks 0-5  ok  shared/.tscope-index/steps-0-of-1.tsx$" sst.txt'
f=shared/rank1/steps.jsonl
chmod u+w $f && printf '%s\n' "$(tail -n 1 $f | sed 's/"step": *[0-9]*/"step":40/')" >>$f && chmod a-w $f
as_user "$T" --export sources shared >sh2.csv 2>/dev/null
tap_check "grown: the new bytes parsed; not appended, and why" \
	'grep -q "index: 1 rank.s steps.jsonl grew" sh2.csv && grep -q "index not appended to: Permission denied (this user can only read the run.s index" sh2.csv'
tap_check "grown: = a plain load" 'same shared'
chmod u+w shared/rank4/run.json && touch -d '2001-01-01' shared/rank4/run.json && chmod a-w shared/rank4/run.json
as_user "$T" --export sources shared >sh3.csv 2>/dev/null
tap_check "stale: named, rebuilt in this user's cache" \
	'grep -q "not used: stale: shared/rank4/run.json changed" sh3.csv && [ -s "$scache/steps-0-of-1.tsx" ]'
as_user "$T" index --status shared >sst2.txt 2>&1
tap_check "... which is read from then on" 'grep -q "^shard 0/1  ranks 0-5  ok  $scache/steps-0-of-1.tsx$" sst2.txt && same shared'
"$gen" shards 6 40 >/dev/null || exit 1
"$T" index --shard 0/2 shards >/dev/null 2>&1
"$T" index --shard 1/2 shards >/dev/null 2>&1
chmod -R a-w shards
as_user "$T" --export sources shards >sh4.csv 2>/dev/null
tap_check "shards whose summary is not merged yet, read-only here: used, the summary not written, and why" \
	'! grep -q "not used" sh4.csv && grep -q "index summary not written: Permission denied (this user can only read" sh4.csv'
tap_check "... = a plain load" 'same shards'
as_user "$T" index --status shards >sst4.txt 2>&1
tap_check "... index --status: the summary not current, computed at each open, and what builds one" \
	'grep -q "^summary  not current (none yet): each open computes the analyses from the parts (this user cannot write the index; .tscope-tui index. builds one in the cache)$" sst4.txt'
as_user "$T" index shards >/dev/null 2>&1
as_user "$T" index --status shards >sst5.txt 2>&1
shcache="$work/xdg/tscope-tui/$(cd shards && pwd -P | tr / %)"
tap_check "... index builds one in the cache, its summary current" \
	'grep -q "^summary  ok  $shcache/summary.tsx$" sst5.txt && same shards'
# A shard built in this user's cache is never combined with the run dir's parts, nor does
# it hide them when they give an open more: the run dir's shard 0/2 alone, --status says
# what rebuilds shard 1/2 where (it said `index --shard K/N`, which writes to the cache);
# this user's shard 1/2 in the cache: one of the two read, the other named; the owner
# completes the run dir's: read from then on (the cache's half hid it, "shard 0/2
# missing", every open reading its ranks from the JSONL).
"$gen" half 8 20 >/dev/null && "$T" index --shard 0/2 half >/dev/null 2>&1 || exit 1
chmod -R a-w half
habs=$(cd half && pwd -P)
hcache="$work/xdg/tscope-tui/$(printf '%s' "$habs" | tr / %)"
as_user "$T" index --status half >hst1.txt 2>&1
cant="(this user cannot write this index: .tscope-tui index --shard 1/2. rebuilds it there when run by one who can; "
cant="$cant.tscope-tui index. builds a whole one in this user.s cache, read from then on)$"
tap_check \
	"the run dir's shard 0/2 alone, read-only here: --status says who rebuilds shard 1/2 there, and what this user can" \
	'grep -q "^shard 1/2  ranks 4-7  NOT USABLE: missing" hst1.txt &&
	 grep -q "$cant" hst1.txt'
as_user "$T" index --shard 1/2 half >/dev/null 2>&1
as_user "$T" index --status half >hst2.txt 2>&1
also="^also: the run dir.s index half/.tscope-index is not read here: "
also="$also.*(4 ranks, against 4 ranks there; the parts of the two are never combined)$"
tap_check "this user's shard 1/2 in the cache: one index read, the other named, never combined" \
	'grep -q "^shard 1/2  ranks 4-7  ok  $hcache/steps-1-of-2.tsx$" hst2.txt &&
	 grep -q "$also" hst2.txt'
"$T" index --shard 1/2 half >/dev/null 2>&1
as_user "$T" index --status half >hst3.txt 2>&1
rc=$?
as_user "$T" --export sources half >hsrc.csv 2>/dev/null
above="^also: this user.s cache $hcache is not read here: "
above="${above}the run dir.s index above gives an open more of the run (8 ranks, against 4 ranks there"
tap_check "the owner completes the run dir's index: read from then on, the cache's half named, exit 0" \
	'[ "$rc" -eq 0 ] && grep -q "^shard 0/2  ranks 0-3  ok  half/.tscope-index/steps-0-of-2.tsx$" hst3.txt &&
	 grep -q "^shard 1/2  ranks 4-7  ok  half/.tscope-index/steps-1-of-2.tsx$" hst3.txt &&
	 grep -q "$above" hst3.txt &&
	 ! grep -q "not used" hsrc.csv'
tap_check "... = a plain load" 'same half'
"$gen" dmg 6 40 >/dev/null || exit 1
"$T" index dmg >/dev/null 2>&1
tap_flip dmg/.tscope-index/steps-0-of-1.tsx 100
chmod -R a-w dmg
dabs=$(cd dmg && pwd -P)
dcache="$work/xdg/tscope-tui/$(printf '%s' "$dabs" | tr / %)"
as_user "$T" index --status --verify dmg >dv.txt 2>&1
rc=$?
tap_check "a damaged part this user can only read: --verify names it, says it stays and why, exit 1" \
	'[ "$rc" -eq 1 ] && grep -q "index part not usable for rank [0-9]*: checksum mismatch" dv.txt &&
	 grep -q "the part stays as it is (this user cannot write it: .*index --force" dv.txt &&
	 [ -s dmg/.tscope-index/steps-0-of-1.tsx ]'
tap_check "... = a plain load" 'same dmg'
as_user "$T" index --force dmg >/dev/null 2>&1
as_user "$T" index --status --verify dmg >dv2.txt 2>&1
tap_check "... index --force builds one in this user's cache, which verifies" \
	'grep -q "^shard 0/1  ranks 0-5  ok  $dcache/steps-0-of-1.tsx$" dv2.txt && grep -q "checksums ok$" dv2.txt'

# Cache names: run dirs 'p%q/run' and 'p/q/run' (one name with '/' as '%' alone) get a
# cache each; a run dir whose path is longer than a file name can be gets one too.
mkdir -p 'p%q' p/q
"$gen" 'p%q/run' 3 20 >/dev/null && "$gen" p/q/run 5 20 >/dev/null || exit 1
long=$(printf 'd%.0s' $(seq 1 120))
mkdir -p "$long/$long" && "$gen" "$long/$long/run" 2 20 >/dev/null || exit 1
chmod -R a-w 'p%q' p "$long"
as_user "$T" index 'p%q/run' >pq1.txt 2>&1 && as_user "$T" index p/q/run >pq2.txt 2>&1
tap_check "'p%q/run' and 'p/q/run': two caches, each open its own run" \
	'[ "$(sed -n "s/^index written: \(.*\)\/steps-0-of-1.tsx .*/\1/p" pq1.txt)" != \
	   "$(sed -n "s/^index written: \(.*\)\/steps-0-of-1.tsx .*/\1/p" pq2.txt)" ] &&
	 grep -q "(3 ranks" pq1.txt && grep -q "(5 ranks" pq2.txt && same "p%q/run" && same p/q/run'
as_user "$T" index "$long/$long/run" >long.txt 2>&1
tap_check "a run dir path longer than a file name: indexed in the cache" \
	'grep -q "^index written: .*%%[0-9a-f]\{8\}/steps-0-of-1.tsx (2 ranks" long.txt && same "$long/$long/run"'

# An index shows no more than the files do: a rank file this user cannot read, in an
# index built by one who could (root with its capabilities here), makes the part unused
# for this user (named), and the open equals a plain load (that rank: cannot open); the
# index this user builds then records the file as unreadable: current, its other ranks
# used, not rebuilt at each open
"$gen" priv 4 30 >/dev/null || exit 1
"$T" index priv >/dev/null 2>&1
chmod 000 priv/rank1/steps.jsonl
chmod -R a-w priv
pabs=$(cd priv && pwd -P)
pcache="$work/xdg/tscope-tui/$(printf '%s' "$pabs" | tr / %)"
as_user "$T" index --status priv >pst.txt 2>&1
tap_check "a rank file this user cannot read: the index built by another is not usable here, and why" \
	'grep -q "^shard 0/1  ranks 0-3  NOT USABLE: priv/rank1/steps.jsonl is not readable by this user (the index" \
		pst.txt && grep -q "shows no more than the files do)$" pst.txt'
tap_check "... an open = a plain load (the rank's records not shown from the index)" 'same priv'
as_user "$T" --export steps --filter rank=1 priv >prow.csv 2>/dev/null
tap_check "... no row of that rank" '[ "$(wc -l <prow.csv)" -le 1 ]'
as_user "$T" index priv >pi1.txt 2>&1
as_user "$T" index --status priv >pst2.txt 2>&1
tap_check "this user's index (in its cache): current, not rebuilt, the file recorded as unreadable" \
	'grep -q "^index current: $pcache (4 ranks)" pi1.txt &&
	 grep -q "^shard 0/1  ranks 0-3  ok  $pcache/steps-0-of-1.tsx$" pst2.txt'
pino=$(stat -c %i "$pcache/steps-0-of-1.tsx")
as_user "$T" --export sources priv >psrc.csv 2>/dev/null
tap_check "... an open uses it (not rewritten), says what a plain load says of the rank" \
	'[ "$(stat -c %i "$pcache/steps-0-of-1.tsx")" = "$pino" ] && ! grep -q "not used\|not written" psrc.csv &&
	 grep -q "^error,priv/rank1/steps.jsonl,,1,,,,,cannot open: Permission denied$" psrc.csv && same priv'

# unreadable sources: a steps.jsonl, a rank dir
"$gen" bad 4 30 >/dev/null || exit 1
chmod 000 bad/rank2/steps.jsonl bad/rank3
as_user "$T" --export sources --no-index bad >bsrc.csv 2>/dev/null
tap_check "unreadable steps.jsonl: named with the reason" \
	'grep -q "^error,bad/rank2/steps.jsonl,,2,,,,,cannot open: Permission denied$" bsrc.csv'
tap_check "unreadable rank dir: its files named with the reason" \
	'grep -q "^error,bad/rank3/steps.jsonl,,3,,,,,cannot open: Permission denied$" bsrc.csv && grep -q "^warning,bad/rank3/run.json,.*Permission denied" bsrc.csv'
as_user "$T" --export ranks --no-index bad >branks.csv 2>/dev/null
tap_check "the readable ranks load (0 and 1: 30 records each)" 'grep -q "^0,30," branks.csv && grep -q "^1,30," branks.csv'
as_user "$T" --print --no-index bad >bp.txt 2>be.txt
tap_rc $? "--print exits 0"
tap_check "... its stderr counts the data-quality list (2 errors, 1 warning)" \
	'grep -q "data quality: 2 errors, 1 warning, 0 notes (0 records skipped)" be.txt'
tap_check "... stragglers: not judged, with the --ranks list that judges the others" \
	'grep -q "stragglers *not judged: ranks 2, 3 have no step record, so no step is on every rank (--ranks 0-1 judges the others)" bp.txt'
as_user "$T" --print --no-index --ranks 0-1 bad >bp2.txt 2>/dev/null
tap_check "... and that list does judge them" 'grep -q "^  stragglers  *none" bp2.txt'

# a trace found by its first bytes (HTA's sampled_rank-N.json.gz names) that this user
# cannot read: named with the reason, not a missing rank; so is a DASF database, and a
# directory holding nothing else says so, not "no supported data"
mkdir -p ktr kone dsf
tr='{"distributedInfo":{"rank":0,"world_size":2},"traceEvents":[{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,'
tr="$tr"'"ts":1,"dur":2,"args":{"device":0,"stream":7}}]}'
printf '%s\n' "$tr" >ktr/sampled_rank-0.json
printf '%s\n' "$tr" | sed 's/"rank":0/"rank":1/' >ktr/sampled_rank-1.json
cp ktr/sampled_rank-1.json kone/ && chmod 000 ktr/sampled_rank-1.json kone/sampled_rank-1.json
as_user "$T" --export sources --no-index ktr >ksrc.csv 2>/dev/null
tap_check "a sniffed trace this user cannot read: named with the reason beside the one read" \
	'grep -q "^file,ktr/sampled_rank-1.json,kineto,,,,0,0,unreadable$" ksrc.csv &&
	 grep -q "^error,ktr/sampled_rank-1.json,,,,,,,cannot read: Permission denied$" ksrc.csv &&
	 grep -q "^file,ktr/sampled_rank-0.json,kineto,0,,,1,0,ok$" ksrc.csv'
as_user "$T" --print --no-index kone >tp.txt 2>te.txt
rc=$?
tap_check "... the only one of its dir: exit 1, named with the reason, not as holding no data" \
	'[ "$rc" -eq 1 ] &&
	 grep -qx "tscope-tui: kone: cannot read sampled_rank-1.json: Permission denied; no supported data in the rest" te.txt'
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dfx >/dev/null || exit 1
cp "$(ls dfx/*TracePlugin*.msgpack | head -1)" dsf/1-TracePlugin-hA.msgpack && chmod 000 dsf/1-TracePlugin-hA.msgpack
as_user "$T" --print --no-index dsf >tp.txt 2>te.txt
tap_check "a DASF dir whose one database this user cannot read: named with the reason" \
	'grep -q "dsf/1-TracePlugin-hA.msgpack: cannot read: Permission denied" te.txt && ! grep -q "no supported" te.txt'

# an unreadable PATH: the run dir itself (not listable: 000, or 311), its only steps.jsonl
"$gen" top 2 20 >/dev/null || exit 1
for mode in 000 311; do
	chmod $mode top
	as_user "$T" --print --no-index top >tp.txt 2>te.txt
	rc=$?
	chmod 755 top
	tap_check "run dir PATH of mode $mode: exit 1, named with the reason, not as holding no data" \
		'[ "$rc" -eq 1 ] && grep -qx "tscope-tui: top: cannot read: Permission denied" te.txt &&
		 ! grep -q "no supported data" te.txt'
done
chmod 000 top
as_user "$T" --print --no-index bad top >tp.txt 2>te.txt
rc=$?
chmod 755 top
tap_check "... and so when it is one of two PATHs" \
	'[ "$rc" -eq 1 ] && grep -qx "tscope-tui: top: cannot read: Permission denied" te.txt'
chmod 000 top/rank0/steps.jsonl
as_user "$T" --print --no-index top/rank0/steps.jsonl >tp.txt 2>te.txt
rc=$?
tap_check "steps.jsonl PATH that cannot be read: the reason, not a missing or empty log" \
	'[ "$rc" -eq 1 ] && grep -q "here: the step log cannot be read: Permission denied (see" te.txt &&
	 ! grep -q "missing or empty" te.txt'
chmod 000 top/rank1/steps.jsonl
as_user "$T" --print --no-index top >tp.txt 2>te.txt
tap_check "... two of them: counted, with the reason" \
	'grep -q "no step record is here: 2 step logs cannot be read: Permission denied (see" te.txt'
# a rank dir that cannot be entered: its run.json is not counted as a step log, and
# --export gives the reason, not an empty log
"$gen" one 1 20 >/dev/null || exit 1
chmod 000 one/rank0
as_user "$T" --print --no-index one >tp.txt 2>te.txt
as_user "$T" --export ranks --no-index one >tp.csv 2>te2.txt
chmod 755 one/rank0
tap_check "rank dir that cannot be entered: one step log that cannot be read, in --print and --export" \
	'grep -q "^No step record: the step log cannot be read: Permission denied (see --export sources)\.$" te.txt &&
	 grep -q "no step records in this run: the step log cannot be read: Permission denied$" te2.txt'
tap_plan
