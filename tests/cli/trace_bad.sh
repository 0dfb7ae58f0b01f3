#!/bin/sh
# trace_bad.sh: Kineto traces with bad input. An event that lacks its closing '}' is
# skipped and counted with its byte offset, the events after it kept, and the file not
# called truncated when its end is well formed (mid-array, its args' '}', the last
# event, before more top-level keys too); a file cut inside an event still is, and so is
# one with bytes after its JSON document (a .gz padded after its member is not: the
# padding is named, ignored as gzip -d does). A corrupt .gz names zlib's message and its
# byte in the file; a whole one whose trailer (CRC, length) does not match keeps every
# event, not partial, the mismatch named, and so does one cut in or before its trailer
# after the whole JSON document; one whose data inflates to garbage (zlib finds
# it at the trailer) is read up to its first invalid JSON, one warning there; an offset
# in a .gz is a byte of the decompressed trace, said so. A GPU event lasting past the
# rank's profiled window by more than 100 times the window (or an hour) is named, skipped
# and counted (trace_edges.sh: a late peer's collective is kept). An object
# without its '}' inside an event's array is closed at the next element: the events
# after it are kept (and when that object never closes, the scan resumes at that
# element). A span whose ts or
# dur is NaN, Infinity, out of range (1e400 too) or missing says which field and what is
# wrong, on the file's rank. An entry with a trace's name that cannot be read (a
# directory, a looping symlink) is named in the sources with the reason, as an
# unreadable file is, and so is a worker dir that cannot be listed.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# events R N: N steps of a ProfilerStep span, a cudaLaunchKernel and its kernel, one
# event a line (joined by ",\n"), for rank R of 2
events() {
	printf '{"distributedInfo":{"rank":%d,"world_size":2},"traceEvents":[\n' "$1"
	s=0
	while [ $s -lt "$2" ]; do
		t=$((s * 1000))
		[ $s -gt 0 ] && printf ',\n'
		printf '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,' $s
		printf '"ts":%d,"dur":1000},\n' $t
		printf '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,'
		printf '"ts":%d,"dur":5,' $((t + 100))
		printf '"args":{"correlation":%d}},\n' $((s + 1))
		printf '{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%d,"dur":100,' $((t + 110))
		printf '"args":{"stream":7,"device":0,"correlation":%d,"l":[{"a":1},\n{"b":2}]}}' $((s + 1))
		s=$((s + 1))
	done
	printf '\n]}\n'
}
# cut DIR SED: rank 0 whole, rank 1 edited by the sed script
cut_trace() {
	mkdir "$1"
	events 0 20 >"$1/rank0.pt.trace.json"
	events 1 20 | sed "$2" >"$1/rank1.pt.trace.json"
	"$TSCOPE_BIN" --no-index --export sources "$1" >"$1.csv" 2>/dev/null
}
cut_trace mid '3s/}},$/},/'      # the 2nd event (line 3) lacks its last '}'
cut_trace args '3s/}},$/,/'      # ... its args' '}' and its own
cut_trace last 's/^{"b":2}]}}$/{"b":2}]}/' # the last event (the only line without a ',')
off=$(head -2 mid/rank1.pt.trace.json | wc -c | tr -d ' ')
tap_check "an event without its '}' mid-array: skipped with its offset, the others kept, not truncated" \
	'grep -q "^file,mid/rank1.pt.trace.json,kineto,1,,,59,1,ok$" mid.csv &&
	 grep -q "^warning,mid/rank1.pt.trace.json,,1,,$off,,,invalid JSON in a trace event (truncated JSON)" mid.csv &&
	 ! grep -q truncated.trace mid.csv'
tap_check "... without its args' '}' and its own: the same" \
	'grep -q "^file,args/rank1.pt.trace.json,kineto,1,,,59,1,ok$" args.csv &&
	 grep -q "^warning,args/rank1.pt.trace.json,,1,,$off,,,invalid JSON in a trace event" args.csv'
tap_check "... the last event: skipped, the file's end well formed (not truncated)" \
	'grep -q "^file,last/rank1.pt.trace.json,kineto,1,,,59,1,ok$" last.csv && ! grep -q truncated.trace last.csv'
mkdir cut
events 1 20 | head -c 700 >cut/rank1.pt.trace.json
"$TSCOPE_BIN" --no-index --export sources cut >cut.csv 2>/dev/null
tap_check "a file cut inside an event is still truncated" \
	'grep -q "^file,cut/rank1.pt.trace.json,kineto,1,,,[0-9]*,0,partial" cut.csv &&
	 grep -q ",unexpected end of file (truncated trace)$" cut.csv'
tap_check "arrays of objects inside an event are not taken for a missing '}'" \
	'grep -q "^file,mid/rank0.pt.trace.json,kineto,0,,,60,0,ok$" mid.csv &&
	 [ "$(grep -c "invalid JSON" mid.csv)" = 1 ]'
# a broken object inside an event's array: the event still ends at its own '}'
cut_trace inner '4s/{"a":1},$/{"a":1,/'   # the 1st kernel's l[0] lacks its '}'
tap_check "an object without its '}' inside an event's array: no event lost, the file ok" \
	'grep -q "^file,inner/rank1.pt.trace.json,kineto,1,,,60,0,ok$" inner.csv'
# an event cut inside an object of its array, the next event after a ',': taken for an
# element until the input ends, then the scan resumes there (nothing after it lost)
cut_trace deep '4s/{"a":1},$/{"a":1,/; 5d'
tap_check "an event cut inside an object of its array: skipped with its offset, the others kept" \
	'grep -q "^file,deep/rank1.pt.trace.json,kineto,1,,,59,1,ok$" deep.csv &&
	 grep -q "^warning,deep/rank1.pt.trace.json,,1,,[0-9]*,,,invalid JSON in a trace event" deep.csv &&
	 ! grep -q truncated.trace deep.csv'
# the last event lacks its '}' and more top-level keys follow the array (as in Kineto's)
mkdir tail
events 1 20 | sed 's/^{"b":2}]}}$/{"b":2}]}/; s/^]}$/],"traceName":"x","displayTimeUnit":"ms"}/' \
	>tail/rank1.pt.trace.json
"$TSCOPE_BIN" --no-index --export sources tail >tail.csv 2>/dev/null
tap_check "... the last event, more top-level keys after the array: skipped, not truncated" \
	'grep -q "^file,tail/rank1.pt.trace.json,kineto,1,,,59,1,ok$" tail.csv && ! grep -q truncated.trace tail.csv'
# a .gz with zero padding after its member: read whole, the padding named, not truncated;
# two members (concatenated) still read as one stream, no such note
mkdir zpad zcat
events 0 20 | gzip -c >zpad/rank0.pt.trace.json.gz
head -c 512 /dev/zero >>zpad/rank0.pt.trace.json.gz
{ events 0 20 | gzip -c; printf '' | gzip -c; } >zcat/rank0.pt.trace.json.gz
"$TSCOPE_BIN" --no-index --export sources zpad >zpad.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources zcat >zcat.csv 2>/dev/null
tap_check "a .gz with padding after its member: every event, ok, the bytes named (as gzip -d)" \
	'grep -q "^file,zpad/rank0.pt.trace.json.gz,kineto,0,,,60,0,ok$" zpad.csv &&
	 grep -q ",,,bytes after the gzip stream that start no gzip member; ignored (as gzip -d does) (at byte \
[0-9]* of the decompressed trace)$" zpad.csv'
tap_check "... concatenated members: one stream, no such note" \
	'grep -q "^file,zcat/rank0.pt.trace.json.gz,kineto,0,,,60,0,ok$" zcat.csv && ! grep -q "gzip member" zcat.csv'
# a corrupt .gz says what zlib said and where: a header of zeros, nothing read; a whole
# member whose trailer (CRC, length) is zeroed keeps every event, not partial, named
mkdir zhdr zcrc
events 0 3 >zhdr/rank0.pt.trace.json
{ printf '\037\213\010\000'; head -c 20 /dev/zero; } >zhdr/rank1.pt.trace.json.gz
events 1 20 | gzip -c >zcrc.gz
zlen=$(wc -c <zcrc.gz | tr -d ' ')
{ head -c $((zlen - 8)) zcrc.gz; head -c 8 /dev/zero; } >zcrc/rank1.pt.trace.json.gz
"$TSCOPE_BIN" --no-index --export sources zhdr >zhdr.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export sources zcrc >zcrc.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps zcrc 2>/dev/null | tail -n +2 | wc -l | tr -d ' ' >zcrc.steps
tap_check "a .gz header of zeros: zlib's message with its byte, refused as corrupt (not an empty file)" \
	'grep -q "^refused,zhdr/rank1.pt.trace.json.gz,kineto,,,,0,0,\"skipped: corrupt gzip data, nothing read\"$" zhdr.csv &&
	 grep -q ",\"corrupt gzip data (zlib: invalid stored block lengths, at byte 15 of the file); nothing" zhdr.csv &&
	 ! grep -q "empty file" zhdr.csv'
tap_check "a .gz whose trailer does not match: every event, ok, every step, the mismatch named" \
	'grep -q "^file,zcrc/rank1.pt.trace.json.gz,kineto,1,,,60,0,ok$" zcrc.csv &&
	 grep -q ",\"gzip trailer does not match the data (zlib: incorrect data check, at byte $((zlen - 4)) of" zcrc.csv &&
	 ! grep -q "not measured" zcrc.csv && [ "$(cat zcrc.steps)" = 20 ]'
# a whole member without its trailer (cut 8 bytes or 1 byte short), the JSON document whole:
# every event and step, ok, the missing trailer named (not "truncated", no step left out)
mkdir znotr
{ head -c $((zlen - 8)) zcrc.gz; } >znotr/rank1.pt.trace.json.gz
"$TSCOPE_BIN" --no-index --export sources znotr >znotr.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export steps znotr 2>/dev/null | tail -n +2 | wc -l | tr -d ' ' >znotr.steps
head -c $((zlen - 1)) zcrc.gz >znotr/rank1.pt.trace.json.gz
"$TSCOPE_BIN" --no-index --export sources znotr >znotr1.csv 2>/dev/null
tap_check "a .gz cut in or before its trailer after the whole document: every event, ok, every step, named" \
	'grep -q "^file,znotr/rank1.pt.trace.json.gz,kineto,1,,,60,0,ok$" znotr.csv &&
	 grep -q ",\"the gzip stream ends at byte $((zlen - 8)) of the file, before its trailer (CRC, length), after the \
whole JSON document: every event is read, none checked against the CRC (at byte [0-9]* of the decompressed trace)\"$" \
	 znotr.csv && ! grep -q "truncated\|not measured" znotr.csv && [ "$(cat znotr.steps)" = 20 ] &&
	 grep -q "^file,znotr/rank1.pt.trace.json.gz,kineto,1,,,60,0,ok$" znotr1.csv &&
	 grep -q ",\"the gzip stream ends at byte $((zlen - 1)) of the file, before its trailer" znotr1.csv'
# le16 N: N as two bytes, little-endian
le16() { printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $(($1 >> 8 & 255)))"; }
# stored FILE: stdin (under 64 KiB) as a gzip member of one stored block, its CRC zeroed
stored() {
	cat >stored.raw
	n=$(wc -c <stored.raw | tr -d ' ')
	{ printf '\037\213\010\000\000\000\000\000\000\377\001'; le16 "$n"; le16 $((65535 - n))
	  cat stored.raw; printf '\000\000\000\000'; le16 "$n"; printf '\000\000'; } >"$1"
}
# A member whose data inflates to garbage (zlib finds it only at the trailer: here a stored
# block whose bytes were overwritten): one warning at the byte of the file, the events
# before it kept, the file partial; not a warning for each piece of garbage. An intact
# member holding the same invalid JSON: the JSON's warnings, as in a plain file. A .gz cut
# short: the byte where the file ends. Each at a byte of the decompressed trace, said in
# the message (the offset column, a byte of the file, empty).
mkdir zbad zjson zcut
events 0 3 >zbad/rank0.pt.trace.json
events 0 3 >zjson/rank0.pt.trace.json
events 1 20 | sed '30,40s/^{"ph"/}}}}}/' | stored zbad/rank1.pt.trace.json.gz
events 1 20 | sed '30,40s/^{"ph"/}}}}}/' | gzip -c >zjson/rank1.pt.trace.json.gz
events 1 20 | gzip -c | head -c 300 >zcut/rank1.pt.trace.json.gz
for d in zbad zjson zcut; do "$TSCOPE_BIN" --no-index --export sources $d >$d.csv 2>/dev/null; done
tap_check "a gzip member that inflates to garbage: one warning at its byte of the file, the events before kept" \
	'grep -q "^file,zbad/rank1.pt.trace.json.gz,kineto,1,,,2[0-9],0,partial" zbad.csv &&
	 grep -q "^warning,zbad/rank1.pt.trace.json.gz,,1,,,,,corrupt gzip data near byte [0-9]* of the file (zlib: \
incorrect data check): what it inflates to is not valid JSON from here; nothing after it is read (at byte [0-9]* of \
the decompressed trace)$" zbad.csv && ! grep -q "unexpected" zbad.csv && ! grep -q "trailer" zbad.csv'
tap_check "... an intact member with that invalid JSON: its warnings, at bytes of the decompressed trace" \
	'[ "$(grep -c "^warning,zjson/rank1.pt.trace.json.gz,,1,,,,,unexpected .}. in traceEvents; skipped to the next \
event (at byte [0-9]* of the decompressed trace)$" zjson.csv)" -gt 1 ] && ! grep -q "corrupt gzip" zjson.csv'
tap_check "... a .gz cut short: where the file ends, and where the decompressed trace does" \
	'grep -q "^warning,zcut/rank1.pt.trace.json.gz,,1,,,,,\"unexpected end of file at byte 300, inside its gzip \
stream: a truncated trace (at byte [0-9]* of the decompressed trace)\"$" zcut.csv'

# A GPU event lasting far past the rank's profiled window (10^11 us in 20 ms: more than
# 100 windows past its end) is named with its offset, skipped and counted; one that ends
# past the window by less than its length (15 ms) is kept
mkdir huge
events 0 3 >huge/rank0.pt.trace.json
events 1 20 | sed '/"ts":4110,"dur":100,/s/"dur":100,/"dur":100000000000,/;
	/"ts":19110,"dur":100,/s/"dur":100,/"dur":15000,/' >huge/rank1.pt.trace.json
off=$(grep -b '"ts":4110,' huge/rank1.pt.trace.json | cut -d: -f1)
"$TSCOPE_BIN" --no-index --export sources huge >huge.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export step_kernels huge >huge_k.csv 2>/dev/null
tap_check "a GPU event far past the profiled window: named with its offset, skipped and counted" \
	'grep -q "^file,huge/rank1.pt.trace.json,kineto,1,,,59,1,ok$" huge.csv &&
	 grep -q "^warning,huge/rank1.pt.trace.json,,1,,$off,,,\"GPU event \"\"gemm\"\" lasts 100000 s, past the end \
of the rank.s profiled window (20 ms: its ProfilerSteps, CPU events and GPU event starts) by more than 100 times \
the window; event skipped\"$" huge.csv'
tap_check "... one past it by less than the window: kept" 'grep -q "^19,1,gemm,COMPUTATION,1,15000," huge_k.csv'

# two documents in one file: the second is named, not dropped in silence
mkdir cat2
{ events 1 3; events 1 3; } >cat2/rank1.pt.trace.json
off=$(events 1 3 | wc -c | tr -d ' ')
"$TSCOPE_BIN" --no-index --export sources cat2 >cat2.csv 2>/dev/null
tap_check "bytes after the JSON document: named with their offset, the file partial" \
	'grep -q "^file,cat2/rank1.pt.trace.json,kineto,1,,,9,0,partial" cat2.csv &&
	 grep -q "^warning,cat2/rank1.pt.trace.json,,1,,$off,,,bytes after the end of the JSON document; not read$" cat2.csv'

# ts/dur that are not usable: each says which field and why, on the file's rank; a number
# too large is out of range, 1e400 (number or string) too; NaN or Infinity is non-finite
mkdir nf
{ printf '{"distributedInfo":{"rank":3,"world_size":4},"traceEvents":[\n'
  for v in '"ts":1,"dur":NaN' '"ts":Infinity,"dur":2' '"ts":1,"dur":1e400' '"ts":-1e18,"dur":2' '"ts":1' \
	   '"ts":"x","dur":2' '"ts":"1e400","dur":2' '"ts":"-Infinity","dur":2'; do
	printf '{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,%s,"args":{"stream":7}},\n' "$v"
  done
  printf '{"ph":"X","cat":"kernel","pid":0,"tid":7,"ts":1,"dur":2,"args":{"stream":7}},\n'
  printf '{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"stream":7}}\n]}\n'
} >nf/rank3.pt.trace.json
"$TSCOPE_BIN" --no-index --export sources nf 2>/dev/null | grep "event skipped$" | cut -d, -f4,9 >nf.csv
tap_eq "bad ts/dur: which field and what is wrong, on the file's rank" \
	"3,span event with a non-finite dur; event skipped 3,span event with a non-finite ts; event skipped \
3,span event with a dur out of range; event skipped 3,span event with a ts out of range; event skipped \
3,span event without a dur; event skipped 3,span event with a ts that is not a number; event skipped \
3,span event with a ts out of range; event skipped 3,span event with a non-finite ts; event skipped \
3,span event without a name; event skipped " "$(tr '\n' ' ' <nf.csv)"

# entries named like traces that cannot be read
mkdir odd
events 0 2 >odd/rank0.pt.trace.json
mkdir odd/rank5.pt.trace.json
ln -s loopb odd/rank6.pt.trace.json
ln -s rank6.pt.trace.json odd/loopb
"$TSCOPE_BIN" --no-index --export sources odd >odd.csv 2>/dev/null
tap_check "a directory named like a trace: named with the reason" \
	'grep -q "^file,odd/rank5.pt.trace.json,kineto,.*,unreadable$" odd.csv &&
	 grep -q "^error,odd/rank5.pt.trace.json,.*,cannot read: Is a directory$" odd.csv'
tap_check "a looping symlink named like a trace: named with the reason" \
	'grep -q "^file,odd/rank6.pt.trace.json,kineto,.*,unreadable$" odd.csv &&
	 grep -q "^error,odd/rank6.pt.trace.json,.*,cannot read: Too many levels of symbolic links$" odd.csv &&
	 grep -q "^file,odd/rank0.pt.trace.json,kineto,0,,,6,0,ok$" odd.csv'

# a worker dir this user cannot list: an error naming it and why, counted, the other
# worker's trace read (root runs without the capabilities that ignore file modes)
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set -dac_override,-dac_read_search "$@"
	else
		"$@"
	fi
}
mkdir -p wd/worker0 wd/worker1
events 0 3 >wd/worker0/rank0.pt.trace.json
events 1 3 >wd/worker1/rank1.pt.trace.json
chmod 000 wd/worker1
if as_user ls wd/worker1 >/dev/null 2>&1 || ! as_user true 2>/dev/null; then
	tap_skip "file modes do not bind this user here (root, and setpriv could not drop CAP_DAC_OVERRIDE)"
else
	as_user "$TSCOPE_BIN" --no-index --export sources wd >wd.csv 2>wd.err
	tap_check "a worker dir that cannot be listed: named with the reason, counted, the other read" \
		'grep -q "^file,wd/worker1,kineto,,,,0,0,unreadable$" wd.csv &&
		 grep -q "^error,wd/worker1,,,,,,,cannot open: Permission denied; its traces are not read$" wd.csv &&
		 grep -q "data quality: 1 error," wd.err && grep -q "^file,wd/worker0/rank0.pt.trace.json,.*,ok$" wd.csv'
fi
chmod 755 wd/worker1
tap_plan
