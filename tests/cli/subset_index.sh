#!/bin/sh
# subset_index.sh: --ranks LIST over an indexed run maps the listed ranks from the index
# (their steps.jsonl not read; the lowest listed rank is parsed from its JSONL when it
# is not the run's lowest: the lowest rank loaded keeps its scalars exact) and reports
# exactly what the same subset gives from the JSONL (--no-index): every view, stderr and
# exit status; with a stale index, a missing shard, a steps.jsonl that grew since. A
# subset never writes the index (no rebuild, no delta appended).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$gen" run 8 300 >/dev/null || exit 1
idx=run/.tscope-index
"$T" index run >/dev/null 2>&1

# same LIST [notes]: the subset's views from the index = from the JSONL (stdout, stderr,
# status); with `notes`, but for what the index adds about itself (a line naming
# .tscope-index: a stale part, records parsed since) and the report's count of notes
keep() { if [ "$1" = notes ]; then grep -v -e '\.tscope-index' -e 'data quality: '; else cat; fi; }
same()
{
	for v in --print "--export ranks" "--export steps" "--export budget" "--export findings" \
		"--export sources" "--export diagnostics" "--export heatmap_cells" "--export nodes"; do
		# shellcheck disable=SC2086
		"$T" $v --color never --ranks "$1" --no-index run >want.out 2>want.err
		a=$?
		# shellcheck disable=SC2086
		"$T" $v --color never --ranks "$1" run >got.out 2>got.err
		b=$?
		cat want.out want.err | keep "${2:-}" >want.txt
		cat got.out got.err | keep "${2:-}" >got.txt
		if [ $a != $b ] || ! cmp -s want.txt got.txt; then
			echo "# --ranks $1 $v differs (status $a/$b)"
			diff want.txt got.txt | head -4 | sed 's/^/# /'
			return 1
		fi
	done
}
stamp() { stat -c '%i %Y %s' "$idx"/* | tr '\n' ' '; }

before=$(stamp)
tap_check "--ranks 0-2,5 (with the run's lowest) from the index = from the JSONL" 'same 0-2,5'
tap_check "--ranks 3-6 (its lowest parsed for exact scalars) from the index = from the JSONL" 'same 3-6'
tap_check "--ranks 6,99 (a rank no dir has) from the index = from the JSONL" 'same 6,99'
tap_check "--ranks 20-30 (no rank loaded) from the index = from the JSONL" 'same 20-30'
tap_eq "a subset leaves the index as it was" "$before" "$(stamp)"

if strace -f -qq -o /dev/null true 2>/dev/null; then
	opened() { strace -f -qq -e trace=openat -o trace.txt "$T" --print --ranks "$1" run >/dev/null 2>&1
		grep -o 'rank[0-9]*/steps.jsonl' trace.txt | sort -u | tr '\n' ' '; }
	tap_eq "--ranks 0-2,5 reads no steps.jsonl (all from the index)" "" "$(opened 0-2,5)"
	tap_eq "--ranks 3-6 reads rank 3's steps.jsonl only" "rank3/steps.jsonl " "$(opened 3-6)"
	strace -f -qq -e trace=openat -o trace.txt "$T" --print run >/dev/null 2>&1
	tap_eq "an indexed open opens one run.json (the run's name, for its identity), no other rank file" \
		"rank0/run.json " "$(grep -o 'rank[0-9]*/[a-z.]*json[l]*' trace.txt | sort -u | tr '\n' ' ')"
else
	tap_skip "steps.jsonl read by a subset: strace cannot trace here (not installed, or ptrace is not allowed)"
	tap_skip "the lowest listed rank's steps.jsonl: strace cannot trace here"
	tap_skip "rank files an indexed open opens: strace cannot trace here"
fi

# the listed ranks' steps come from the index: a byte changed in the middle of rank 5's
# steps.jsonl with its size, inode and mtime kept (what the index does not look at) shows
# in the JSONL's subset, not in the index's
f=run/rank5/steps.jsonl
off=$(head -n 149 $f | wc -c)
line=$(sed -n 150p $f)
pre=${line%%\"forward\":*}
at=$((off + ${#pre} + 12))
old=$(dd if=$f bs=1 skip=$at count=1 2>/dev/null)
touch -r $f ref
printf 9 | dd of=$f bs=1 seek=$at conv=notrunc 2>/dev/null
touch -r ref $f
"$T" --export steps --ranks 0,5 run 2>/dev/null | grep "^5,149," | cut -d, -f6 >idx.txt
"$T" --export steps --ranks 0,5 --no-index run 2>/dev/null | grep "^5,149," | cut -d, -f6 >raw.txt
tap_eq "--ranks 0,5: rank 5's steps mapped from the index" "31.535948 931.535948" "$(cat idx.txt raw.txt | tr '\n' ' ' | sed 's/ $//')"
printf %s "$old" | dd of=$f bs=1 seek=$at conv=notrunc 2>/dev/null
touch -r ref $f

# a steps.jsonl that grew since: its new records are parsed, nothing is appended
tail -n 1 run/rank4/steps.jsonl | sed 's/"step":299,/"step":300,/' >>run/rank4/steps.jsonl
tap_check "--ranks 3-6 with rank 4's steps.jsonl grown since = from the JSONL" 'same 3-6 notes'
"$T" --export steps --ranks 4 run 2>/dev/null | tail -n 1 | cut -d, -f1,2 >last.txt
tap_eq "the grown rank's new step is there" "4,300" "$(cat last.txt)"
tap_eq "a subset appends nothing to the index" "$before" "$(stamp)"

# a stale index (a source rewritten): named, not used, not rebuilt by a subset
sed -i 's/"step":0,/"step":0 ,/' run/rank1/steps.jsonl
"$T" --export sources --ranks 1-2 run >src.csv 2>/dev/null
tap_check "a stale index: named in the subset's sources" 'grep -q "index shard 0/1 not used: " src.csv'
tap_check "a stale index: the subset from the JSONL" 'same 1-2 notes'
tap_eq "a stale index is not rebuilt by a subset" "$before" "$(stamp)"

# shards: a missing one's listed ranks come from the JSONL, the others from their part
rm -rf "$idx"
"$T" index --shard 0/2 run >/dev/null 2>&1
"$T" index --shard 1/2 run >/dev/null 2>&1
rm "$idx/steps-1-of-2.tsx"
"$T" --export sources --ranks 2-5 run >src.csv 2>/dev/null
tap_check "a missing shard: named in the subset's sources" 'grep -q "index shard 1/2 not used: missing" src.csv'
tap_check "--ranks 2-5 across a used and a missing shard = from the JSONL" 'same 2-5 notes'
tap_plan
