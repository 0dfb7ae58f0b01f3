#!/bin/sh
# index_damage.sh: what an open says and does about an index part it finds damaged or
# stale, and what --ranks takes from the index (model/index/damage.c, index.c,
# subset.c). A shard whose rank body fails its checksum is invalidated with a note that
# no open rebuilds a shard and names the command that does (`tscope-tui index --shard
# K/N RUN`, which does); later opens and `index --status` say it was invalidated (not
# "truncated"); a whole index keeps "the next open rebuilds it", which the next open
# does. A part not used under --ranks counts the listed ranks read from the JSONL, not
# all of its ranks. --ranks from an index (whole, sharded, with a delta appended) lists
# the metrics of the listed ranks alone, as the same subset from the JSONL does: a
# scalar only a rank left out has is no column. One flipped bit in a part's header: a
# version no build wrote (0, or more than 16 above this build's) or a byte-order mark
# that is neither the host's nor its byte swap is "damaged header (... reads N)", a
# payload length that does not match "truncated or damaged" (or trailing bytes) with both
# lengths, at --status and at the open.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/index_damage.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
"$gen" base 8 300 >/dev/null || exit 1
size() { wc -c <"$1" | tr -d ' '; }

# A damaged body in shard 1 of 4 (ranks 2-3; the first rank read, either, names it): the first
# open says what rebuilds it.
cp -r base sh
for k in 0 1 2 3; do "$T" index --shard $k/4 sh >/dev/null 2>&1; done
"$T" --print sh >/dev/null 2>&1 # merges the summary
idx=sh/.tscope-index
tap_flip $idx/steps-1-of-4.tsx 100
"$T" --export sources sh >src1.csv 2>/dev/null
note="the part is invalidated: no open rebuilds a shard, .tscope-tui index --shard 1/4 sh. does"
note="$note (.tscope-tui index sh. the whole index); until then each open reads its ranks from the JSONL"
tap_check "damaged shard: the note names the command that rebuilds it, not the next open" \
	'grep -q "index part not usable for rank [23]: checksum mismatch (damaged);.* $note" src1.csv &&
	 ! grep -q "next open rebuilds" src1.csv'
tap_eq "damaged shard: left as its header alone, marked invalidated" 48 "$(size $idx/steps-1-of-4.tsx)"
"$T" --export sources sh >src2.csv 2>/dev/null
inval="invalidated: an earlier open found it damaged"
tap_check "next open: the shard was invalidated (not truncated), its 2 ranks read from the JSONL" \
	'grep -q "index shard 1/4 not used: $inval; its 2 ranks are read from the JSONL" src2.csv &&
	 ! grep -q "truncated" src2.csv'
"$T" index --status sh >st.txt
rc=$?
tap_check "index --status: NOT USABLE: invalidated, exit 1" \
	'[ $rc -eq 1 ] && grep -q "^shard 1/4  ranks 2-3  NOT USABLE: $inval$" st.txt'
"$T" --print sh >/dev/null 2>&1
tap_eq "an open rebuilds no shard" 48 "$(size $idx/steps-1-of-4.tsx)"
"$T" index --shard 1/4 sh >/dev/null 2>&1
"$T" index --status sh >st2.txt
tap_eq "the command named rebuilds it: every shard ok" 4 "$(grep -c '  ok  ' st2.txt)"
"$T" --print --no-index sh >want.txt 2>/dev/null
"$T" --print sh >got.txt 2>got.err
tap_check "... and the open uses it: the JSONL's report, no note" \
	'cmp -s want.txt got.txt && ! grep -q "not used" got.err'

# A whole index: the next open does rebuild it.
cp -r base wh
"$T" index wh >/dev/null 2>&1
tap_flip wh/.tscope-index/steps-0-of-1.tsx 100
"$T" --export sources wh >w1.csv 2>/dev/null
tap_check "damaged whole index: the part is invalidated (the next open rebuilds it)" \
	'grep -q "; the part is invalidated (the next open rebuilds it)$" w1.csv'
"$T" --export sources wh >w2.csv 2>/dev/null
tap_check "next open: invalidated, read from the JSONL" \
	'grep -q "index shard 0/1 not used: $inval; its 8 ranks are read from the JSONL" w2.csv'
"$T" --export sources wh >w3.csv 2>/dev/null
tap_check "... and rebuilt by it: the open after uses the index" \
	'! grep -q "tscope-index" w3.csv && [ "$(size wh/.tscope-index/steps-0-of-1.tsx)" -gt 48 ]'

# A part not used under --ranks: the listed ranks it has are read from the JSONL.
cp -r base st
"$T" index st >/dev/null 2>&1
touch st/rank2/steps.jsonl
"$T" --export sources --ranks 5-6 st >s1.csv 2>/dev/null
tap_check "stale index, --ranks 5-6: 2 of its 8 ranks read from the JSONL, not 8" \
	'grep -q "not used: stale: st/rank2/steps.jsonl changed; 2 of its 8 ranks are listed (--ranks) and read" s1.csv'
cp -r base st4
for k in 0 1 2 3; do "$T" index --shard $k/4 st4 >/dev/null 2>&1; done
touch st4/rank0/steps.jsonl
"$T" --export sources --ranks 5-6 st4 >s2.csv 2>/dev/null
tap_check "a stale shard none of whose ranks is listed: said so, none read" \
	'grep -q "0/4 not used: stale: st4/rank0/steps.jsonl changed; none of its 2 ranks is listed (--ranks)" s2.csv'

# One flipped bit in a part's header (its fields are under no checksum): a version no
# build wrote or a byte-order mark that is neither the host's nor its byte swap is a
# damaged header (not another version, not another byte order); a payload length that
# does not match names both lengths, "truncated or damaged" (not "truncated").
# flip_bit FILE OFFSET: bit 0 of the byte at OFFSET complemented
flip_bit() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf %03o $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
cp -r base hd
"$T" index hd >/dev/null 2>&1
cp hd/.tscope-index/steps-0-of-1.tsx good.tsx
plen=$(($(size good.tsx) - 48))
version=$(sed -n 's/^#define INDEX_VERSION \([0-9]*\)u$/\1/p' "$TSCOPE_ROOT/model/index/index.h")
# header DESC OFFSET REASON: bit 0 of byte OFFSET flipped: --status and the open both say REASON (a grep pattern)
header() {
	cp good.tsx hd/.tscope-index/steps-0-of-1.tsx
	flip_bit hd/.tscope-index/steps-0-of-1.tsx "$2"
	"$T" index --status hd >hs.txt 2>&1
	"$T" --export sources hd >hs.csv 2>/dev/null
	reason=$3
	tap_check "$1" 'grep -q "NOT USABLE: $reason$" hs.txt && grep -q "index shard 0/1 not used: $reason;" hs.csv'
}
header "header bit flip, version's high byte: a damaged header, not another version" 11 \
	"damaged header (version field reads $((version + 16777216)))"
header "header bit flip, byte-order mark: a damaged header, not another byte order" 13 \
	"damaged header (byte-order mark reads 0x[0-9a-f]\{8\})"
long=$((plen + 4294967296))
header "header bit flip, payload length's 5th byte: truncated or damaged, both lengths" 20 \
	"truncated or damaged (its header gives a payload of $long bytes, the file holds $plen)"
if [ $((plen & 1)) = 1 ]; then
	want="trailing bytes after the payload, or a damaged header (its header gives a payload of $((plen - 1)) bytes"
else
	want="truncated or damaged (its header gives a payload of $((plen + 1)) bytes"
fi
header "header bit flip, payload length's 1st byte: both lengths, never certain" 16 "$want, the file holds $plen)"
cp good.tsx hd/.tscope-index/steps-0-of-1.tsx
swapped=$(od -An -to1 -j 12 -N4 good.tsx | awk '{ printf "\\%s\\%s\\%s\\%s", $4, $3, $2, $1 }')
printf "$swapped" | dd of=hd/.tscope-index/steps-0-of-1.tsx bs=1 seek=12 conv=notrunc 2>/dev/null
"$T" index --status hd >hs.txt 2>&1
tap_check "a byte-swapped mark is still another host's byte order" \
	'grep -q "NOT USABLE: written on a host of another byte order$" hs.txt'

# --ranks from the index lists the listed ranks' metrics: rank 4 alone has x_loss.
# same DIR LIST: --export steps --ranks LIST from DIR's index = from its JSONL
same() {
	"$T" --export steps --ranks "$2" --no-index "$1" >want.csv 2>/dev/null
	"$T" --export steps --ranks "$2" "$1" >got.csv 2>/dev/null
	cmp -s want.csv got.csv
}
cp -r base xm
sed 's/"scalars":{"loss"/"scalars":{"x_loss":1.5,"loss"/' base/rank4/steps.jsonl >xm/rank4/steps.jsonl
"$T" index xm >/dev/null 2>&1
tap_check "whole index, --ranks 1-3: no x_loss column, = the JSONL's" \
	'same xm 1-3 && ! head -1 got.csv | grep -q x_loss'
tap_check "... --ranks 3-5 (rank 4 listed): its x_loss column, = the JSONL's" \
	'same xm 3-5 && head -1 got.csv | grep -q x_loss'
tap_check "... --ranks 2,5-7: = the JSONL's" 'same xm 2,5-7'
rm -rf xm/.tscope-index
for k in 0 1 2 3; do "$T" index --shard $k/4 xm >/dev/null 2>&1; done
tap_check "4 shards, --ranks 3,5 (rank 5 from x_loss's shard): no x_loss, = the JSONL's" \
	'same xm 3,5 && ! head -1 got.csv | grep -q x_loss'
# a delta appended by an open (rank 2 and 4 grew; rank 4 with a new scalar y_new)
cp -r base dl
"$T" index dl >/dev/null 2>&1
for r in 2 4; do
	tail -1 dl/rank$r/steps.jsonl | sed 's/"step":299/"step":300/; s/"scalars":{/"scalars":{"y_new":0.5,/' |
		{ [ $r = 4 ] && cat || sed 's/"y_new":0.5,//'; } >>dl/rank$r/steps.jsonl
done
"$T" --print dl >/dev/null 2>&1
tap_check "a grown open appended a delta" '[ -e dl/.tscope-index/steps-0-of-1.delta-000001.tsx ]'
tap_check "with the delta, --ranks 1-3 (rank 2's segment read): no y_new column, = the JSONL's" \
	'same dl 1-3 && ! head -1 got.csv | grep -q y_new'
tap_check "... --ranks 3-5: y_new, = the JSONL's" 'same dl 3-5 && head -1 got.csv | grep -q y_new'
tap_plan
