#!/bin/sh
# steps_bad.sh: bad or unusual pytscope step records. Escaped top-level keys (the
# general JSON path) give what their plain spelling gives, as Python's json reads them.
# A memory value that is not finite (NaN, an overflowing 1e400, -Infinity) is warned
# about with file, line and key, and is missing to the native memory analysis and its
# rules; --compat pytscope keeps it as pytscope does (and, as pytscope, fires no
# fragmentation finding on a NaN, and prints a NaN as Python does: "nan"); a rank's
# memory peak is of its finite values, and a single rank's is in the ranks view. Records
# with no reserved memory at all: --print says peak reserved and fragmentation n/a and
# why (pytscope's 0 MB and 0% under --compat pytscope). A file
# of which nothing was read (a truncated run.json) is not "ok" in the sources view; a
# run.json that does not parse is warned about with the byte offset where it ended
# (truncated: its length) or where parsing stopped. A steps.jsonl FIFO is read when a
# writer opens it within the FIFO wait (10 s, TSCOPE_FIFO_WAIT), also seconds after the
# load began; one with no writer by then is named with the wait. A timestamp that is not
# a number (a string, null) or not finite (NaN, Infinity) is warned about with file, line
# and key; the record is kept without a timestamp, and the rank's other timestamps are
# read as recorded (a NaN first one made them all NaN). A UTF-8 byte-order mark at the
# start of run.json or steps.jsonl is skipped with a note naming the file and the data
# read (run.json's FLOPs and peak give the MFU); under --compat pytscope both stay unread,
# as pytscope leaves them (its report that of a stray byte there), the warnings saying
# why; such a run gets no index (the two modes read it otherwise). A run.json found but
# not read (truncated) is named with why in the headline where run.json would speak (MFU
# n/a, coverage, environment, config), not "no FLOPs/peak" nor silence; so from the index;
# and so is a world_size that is there but no rank count ("4", -4, 4.5, 0, 1e30: warned
# about with its value). A run.json key given twice: the last is used, as pytscope's
# Python json reads it, with a warning naming both offsets.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/steps_bad.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
"$gen" demo 4 50 >/dev/null || exit 1

# escaped keys: "ph\u0061ses" on line 10, "st\u0065p" on line 12
mkdir plain esc
head -50 demo/rank0/steps.jsonl >plain/steps.jsonl
sed '10s/"phases"/"ph\\u0061ses"/; 12s/"step"/"st\\u0065p"/' plain/steps.jsonl >esc/steps.jsonl
tap_check "the escaped lines differ from the plain ones" \
	'grep -q "ph\\\\u0061ses" esc/steps.jsonl && grep -q "st\\\\u0065p" esc/steps.jsonl'
"$T" --no-index --export steps plain >plain.csv 2>/dev/null
"$T" --no-index --export steps esc >esc.csv 2>/dev/null
tap_check "escaped top-level keys: the steps export = the plain file's" 'cmp -s plain.csv esc.csv'
"$T" --no-index --export sources esc >esrc.csv 2>/dev/null
tap_check "... and no line is skipped" \
	'! grep -q "line skipped" esrc.csv && grep -q "^file,esc/steps.jsonl,pytscope,0,,,50,0,ok$" esrc.csv'

# non-finite memory values
mkdir mem
sed '20s/"alloc":[0-9.e+]*/"alloc":NaN/; 25s/"alloc":[0-9.e+]*/"alloc":1e400/;
     30s/"peak_alloc":[0-9.e+]*/"peak_alloc":1e400/; 31s/"reserved":[0-9.e+]*/"reserved":-Infinity/' \
	plain/steps.jsonl >mem/steps.jsonl
"$T" --no-index --export sources mem >msrc.csv 2>/dev/null
tap_check "NaN alloc: a warning naming the file, line and key" \
	'grep -q "^warning,mem/steps.jsonl,,0,20,,,,\"memory \"\"alloc\"\" is NaN, not a number of bytes; the" msrc.csv'
"$T" --no-index --print mem >mp.txt 2>/dev/null
tap_check "--print: the memory figures are finite (the bad values are missing)" \
	'grep -q "^  peak alloc [0-9]* MB · peak reserved [0-9]* MB · fragmentation [0-9]*%$" mp.txt &&
	 ! grep -qi "nan\|inf MB\|inf%" mp.txt'
tap_check "... and no memory finding quotes them" '! grep -A1 "(MEMORY\." mp.txt | grep -qi "nan%\|inf MB"'
mkdir allbad
sed 's/"alloc":[0-9.e+]*/"alloc":NaN/' plain/steps.jsonl >allbad/steps.jsonl
"$T" --no-index --print allbad >ap.txt 2>/dev/null
tap_check "every alloc NaN: no MEMORY section, no memory finding judged on them" \
	'! grep -q "MEMORY" ap.txt && grep -q "memory (no memory recorded)" ap.txt'
mkdir nores
sed 's/,"reserved":[0-9.e+]*//; s/,"peak_reserved":[0-9.e+]*//' plain/steps.jsonl >nores/steps.jsonl
"$T" --no-index --print nores >np.txt 2>/dev/null
tap_check "no record has reserved memory: peak reserved and fragmentation n/a with why, not 0" \
	'grep -q "^  peak alloc [0-9]* MB · peak reserved n/a · fragmentation n/a (no record has reserved or \
peak_reserved memory)$" np.txt'
"$T" --no-index --compat pytscope --print nores >ncp.txt 2>/dev/null
tap_check "... --compat pytscope: its 0 MB and 0%" \
	'grep -q "^  peak alloc [0-9]* MB · peak reserved 0 MB · fragmentation 0%$" ncp.txt'
"$T" --no-index --compat pytscope --print mem >cp.txt 2>/dev/null
tap_check "--compat pytscope takes them as pytscope does" 'grep -q "peak alloc inf MB" cp.txt'
tap_check "... and, as pytscope's >= tests, fires no fragmentation finding on a NaN" \
	'! grep -q "MEMORY.FRAGMENTATION" cp.txt'
# alloc and reserved Infinity on one record: fragmentation (inf-inf)/inf, a NaN that
# Python prints "nan" (glibc's printf "-nan")
mkdir infm
sed '20s/"alloc":[0-9.e+]*/"alloc":Infinity/; 20s/"reserved":[0-9.e+]*/"reserved":Infinity/' \
	plain/steps.jsonl >infm/steps.jsonl
"$T" --no-index --compat pytscope --print infm >ci.txt 2>/dev/null
tap_check "--compat pytscope: a NaN fragmentation prints as Python's nan%, never -nan%" \
	'grep -q " · fragmentation nan%$" ci.txt && ! grep -q -- "-nan" ci.txt'
# col CSV NAME: column NAME of the CSV's first data row
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$1"; }
"$T" --no-index --export ranks plain >pr.csv 2>/dev/null
"$T" --no-index --export ranks mem >mr.csv 2>/dev/null
tap_check "one rank: the ranks view gives its memory peak (not a distributed figure)" \
	'[ -n "$(col pr.csv mem_peak_mb)" ] && [ "$(col pr.csv mem_peak_mb)" != "inf" ]'
tap_check "... a finite one when a peak_alloc is 1e400" \
	'v=$(col mr.csv mem_peak_mb); [ -n "$v" ] && ! echo "$v" | grep -qi "inf\|nan"'

# a run.json cut short: its file row says nothing was read (it said "ok" beside 1 skipped)
cp -r demo cut
head -c 40 demo/rank1/run.json >cut/rank1/run.json
"$T" --no-index --export sources cut >cut.csv 2>/dev/null
tap_check "a truncated run.json: its file row says nothing was read, not ok" \
	'grep -q "^file,cut/rank1/run.json,pytscope,1,,,0,1,nothing read: see its messages$" cut.csv &&
	 grep -q "^file,cut/rank0/run.json,pytscope,0,,,1,0,ok$" cut.csv'
tap_check "... its warning gives the offset where it ended: the file's length, 40" \
	'grep -q "^warning,cut/rank1/run.json,,1,,40,,,run.json is not a JSON object (truncated JSON)" cut.csv'
# run.json that does not parse: where parsing stopped (a stray byte at 0, a stray ] at 12); empty: no offset
printf '}{"name": "x"}' >cut/rank2/run.json
printf '{"name": "x"]' >cut/rank3/run.json
: >cut/rank0/run.json
"$T" --no-index --export sources cut >cut2.csv 2>/dev/null
tap_check "invalid run.json: the offset where parsing stopped; an empty one says so" \
	'grep -q "^warning,cut/rank2/run.json,,2,,0,,,run.json is not a JSON object (invalid JSON)" cut2.csv &&
	 grep -q "^warning,cut/rank3/run.json,,3,,12,,,run.json is not a JSON object (invalid JSON)" cut2.csv &&
	 grep -q "^warning,cut/rank0/run.json,,0,,,,,run.json is not a JSON object (empty file)" cut2.csv'

# A steps.jsonl that is a FIFO no writer opens is not waited for longer than the FIFO
# wait (it hung in its open): named with the wait, the other ranks loaded; `index` names
# it and exits 1, and the explorer loads the rest (timeout: a safety bound against a hung
# suite). TSCOPE_FIFO_WAIT=0.2 keeps these short.
cp -r demo fifo && rm fifo/rank3/steps.jsonl && mkfifo fifo/rank3/steps.jsonl || exit 1
export TSCOPE_FIFO_WAIT=0.2
nowriter="cannot open: a FIFO with no writer within 0.2 s (TSCOPE_FIFO_WAIT sets the wait)"
timeout 20 "$T" --print --no-index --color never fifo >fifo.txt 2>fifo.err
tap_check "FIFO steps.jsonl with no writer: --print ends (exit 0), one error, 4 ranks" \
	'[ $? -eq 0 ] && grep -q "^  ranks  *4$" fifo.txt && grep -q "data quality: 1 error," fifo.err'
timeout 20 "$T" --export sources --no-index fifo >fifo.csv 2>/dev/null
tap_check "... the sources name it with the wait: a FIFO with no writer within 0.2 s" \
	'grep -qxF "error,fifo/rank3/steps.jsonl,,3,,,,,$nowriter" fifo.csv &&
	 [ "$(grep -c "^file,fifo/rank[012]/steps.jsonl,.*,ok$" fifo.csv)" -eq 3 ]'
timeout 20 "$T" index fifo >fifo.out 2>fifo.err
tap_check "... index: exit 1, no index written, the file named with why" \
	'[ $? -eq 1 ] && grep -q "^tscope-tui index: no index written$" fifo.err &&
	 grep -qF "fifo/rank3/steps.jsonl: $nowriter" fifo.err &&
	 [ -z "$(ls fifo/.tscope-index 2>/dev/null)" ]'
printf ':dump %s/fifo.dump\n' "$PWD" >fifo.keys
LINES=24 COLUMNS=100 TERM=dumb TSCOPE_SCRIPT=fifo.keys timeout 20 "$T" --tui --no-index fifo >/dev/null 2>&1
tap_check "... the explorer loads the other ranks" \
	'[ $? -eq 0 ] && grep -q "^  ranks  *4$" fifo.dump && grep -q "1 unreadable" fifo.dump'
unset TSCOPE_FIFO_WAIT
# A writer that opens the FIFO 2 s after the load began (a command typed in another
# terminal; it was refused after 1 s): within the default wait, every step read.
timeout 30 sh -c 'sleep 2; cat demo/rank3/steps.jsonl >fifo/rank3/steps.jsonl' 2>/dev/null &
writer=$!
timeout 30 "$T" --export sources --no-index fifo >late.csv 2>/dev/null
kill "$writer" 2>/dev/null   # refused, it would wait in its open for a reader
wait "$writer" 2>/dev/null
tap_check "a FIFO whose writer comes 2 s after the open: read whole (50 records), no error" \
	'grep -q "^file,fifo/rank3/steps.jsonl,pytscope,3,,,50,0,ok$" late.csv && ! grep -q "^error," late.csv'

# Timestamps that are not numbers: NaN on the first line, a string, null, Infinity
mkdir ts
sed '1s/"timestamp":[0-9.]*/"timestamp":NaN/; 5s/"timestamp":[0-9.]*/"timestamp":"yesterday"/;
     7s/"timestamp":[0-9.]*/"timestamp":null/; 9s/"timestamp":[0-9.]*/"timestamp":Infinity/' \
	plain/steps.jsonl >ts/steps.jsonl
"$T" --no-index --export sources ts >tsrc.csv 2>/dev/null
kept="the record is kept without a timestamp\""
w="warning,ts/steps.jsonl,,0" v='value of ""timestamp""'
tap_check "timestamps not numbers: a warning naming the file, line and key, each" \
	'grep -qxF "$w,1,,,,\"$v is NaN, not a number of seconds; $kept" tsrc.csv &&
	 grep -qxF "$w,5,,,,\"$v is not a number; $kept" tsrc.csv &&
	 grep -qxF "$w,7,,,,\"$v is not a number; $kept" tsrc.csv &&
	 grep -qxF "$w,9,,,,\"$v is Infinity, not a number of seconds; $kept" tsrc.csv'
tap_check "... every record kept (50, none skipped)" 'grep -q "^file,ts/steps.jsonl,pytscope,0,,,50,0," tsrc.csv'
# (the others to the ms: they are kept as float32 offsets from the rank's first one)
"$T" --no-index --export steps ts 2>/dev/null | cut -d, -f2,3 | sed 's/\(\.[0-9][0-9][0-9]\)[0-9]*$/\1/' >ts.csv
"$T" --no-index --export steps plain 2>/dev/null | cut -d, -f2,3 | sed 's/\(\.[0-9][0-9][0-9]\)[0-9]*$/\1/' >tsplain.csv
tap_check "... their timestamps missing (empty cells), the others' as recorded" \
	'[ "$(grep -c "^[0-9]*,$" ts.csv)" -eq 4 ] && grep -qx "0," ts.csv && grep -qx "8," ts.csv &&
	 [ "$(grep -v "^[0-9]*,$" ts.csv)" = "$(grep -v "^[0-9]*,$" tsplain.csv | grep -v "^[0486],")" ]'

# A UTF-8 byte-order mark at the start of run.json and steps.jsonl (an editor's, a converter's)
mkdir bom stray
head -20 plain/steps.jsonl >s.jsonl
printf '{"name": "bom", "flops_per_step": 1e9, "peak_flops": 1e12}' >m.json
{ printf '\357\273\277'; cat m.json; } >bom/run.json
{ printf '\357\273\277'; cat s.jsonl; } >bom/steps.jsonl
{ printf 'xyz'; cat m.json; } >stray/run.json
{ printf 'xyz'; cat s.jsonl; } >stray/steps.jsonl
"$T" --no-index --print --color never bom >bom.txt 2>/dev/null
"$T" --no-index --export sources bom >bom.csv 2>/dev/null
tap_check "BOM: run.json read natively (MFU from its FLOPs and peak), all 20 records, no warning" \
	'grep -q "^  budget .*; MFU [0-9.]*%$" bom.txt && ! grep -q "^warning," bom.csv &&
	 grep -q "^file,bom/run.json,pytscope,0,,,1,0,ok$" bom.csv &&
	 grep -q "^file,bom/steps.jsonl,pytscope,0,,,20,0,ok$" bom.csv'
note='"starts with a UTF-8 byte-order mark, skipped"'
tap_check "... a note naming each file: starts with a UTF-8 byte-order mark, skipped" \
	'grep -qxF "info,bom/run.json,,0,,,,,$note" bom.csv && grep -qxF "info,bom/steps.jsonl,,0,1,,,,$note" bom.csv'
"$T" --no-index --compat pytscope --print --color never bom >cbom.txt 2>/dev/null
"$T" --no-index --compat pytscope --print --color never stray 2>/dev/null | sed 's/(stray)$/(bom)/' >cstray.txt
"$T" --no-index --compat pytscope --export sources bom >cbom.csv 2>/dev/null
tap_check "--compat pytscope: both left unread as pytscope leaves them (the report of a stray byte's)" \
	'cmp -s cbom.txt cstray.txt && grep -q "^file,bom/steps.jsonl,pytscope,0,,,19,1,ok$" cbom.csv &&
	 grep -q "^file,bom/run.json,pytscope,0,,,0,1," cbom.csv'
why="starts with a UTF-8 byte-order mark (pytscope cannot read it)"
tap_check "... the warnings say why" \
	'grep -qxF "warning,bom/run.json,,0,,0,,,run.json $why: no run metadata" cbom.csv &&
	 grep -qxF "warning,bom/steps.jsonl,,0,1,,,,line skipped: $why" cbom.csv'
"$T" index bom >bidx.out 2>bidx.err
tap_check "index of a run with a BOM: exit 1, none written (the modes read it otherwise), saying why" \
	'[ $? -eq 1 ] && [ -z "$(ls bom/.tscope-index 2>/dev/null)" ] &&
	 grep -q "bom: index not written: .*UTF-8 byte-order mark.*--compat pytscope" bidx.err'

# A run.json found but not read (cut short at byte 40)
mkdir trunc
cp s.jsonl trunc/steps.jsonl
head -c 40 m.json >trunc/run.json
"$T" --no-index --print --color never trunc >tr.txt 2>/dev/null
why="run.json cannot be read: truncated at byte 40"
tap_check "truncated run.json: MFU n/a because it cannot be read, not for want of FLOPs/peak" \
	'grep -q "; MFU n/a: rank 0.s run.json cannot be read (truncated at byte 40)$" tr.txt'
tap_check "... coverage, environment and config n/a saying why (they were left out)" \
	'grep -qx "  coverage  *1 ranks; world_size n/a ($why)" tr.txt &&
	 grep -qx "  environment  *n/a ($why)" tr.txt && grep -qx "  config  *n/a ($why)" tr.txt'
"$T" index trunc >/dev/null 2>&1
"$T" --print --color never trunc >tri.txt 2>/dev/null
tap_check "... the same from the index" '[ -n "$(ls trunc/.tscope-index 2>/dev/null)" ] && cmp -s tr.txt tri.txt'

# A world_size that is there but no rank count: warned about with its value, and the
# coverage line says so (not "not in run.json"); so from the index
for dv in 'str "4"' 'neg -4' 'frac 4.5' 'zero 0' 'big 1e30'; do
	d=ws${dv%% *} v=${dv#* }
	mkdir "$d" && cp s.jsonl "$d/steps.jsonl"
	printf '{"name": "ws", "world_size": %s}' "$v" >"$d/run.json"
	"$T" --no-index --print --color never "$d" 2>/dev/null | grep "^  coverage" >"$d.txt"
	"$T" --no-index --export sources "$d" 2>/dev/null | grep "world_size" >"$d.csv"
done
cover() { printf '  coverage         1 ranks; world_size n/a (in run.json, %s)' "$1"; }
unused() { printf 'warning,ws%s/run.json,,0,,,,,%s: not used for the rank coverage' "$1" "$2"; }
tap_check "world_size \"4\", -4, 4.5, 0, 1e30: present but no rank count, said in the coverage line" \
	'[ "$(cat wsstr.txt wsneg.txt wsfrac.txt wszero.txt wsbig.txt | tr "\n" "|")" = "$(cover "\"4\" is not a \
number")|$(cover "-4 is not positive")|$(cover "4.5 is not an integer")|$(cover "0 is not positive")|$(cover \
"1e30 is too large")|" ]'
tap_check "... and warned about once, naming run.json and the value" \
	'grep -qxF "$(unused str "\"world_size \"\"4\"\" is not a number")\"" wsstr.csv &&
	 grep -qxF "$(unused frac "world_size 4.5 is not an integer")" wsfrac.csv && [ "$(wc -l <wsfrac.csv)" -eq 1 ] &&
	 grep -qxF "$(unused neg "world_size -4 is not positive")" wsneg.csv'
"$T" index wsfrac >/dev/null 2>&1
"$T" --print --color never wsfrac 2>/dev/null | grep "^  coverage" >wsfraci.txt
tap_check "... the same from the index" \
	'[ -n "$(ls wsfrac/.tscope-index 2>/dev/null)" ] && cmp -s wsfrac.txt wsfraci.txt'

# A run.json key given twice: the last is used, as pytscope's Python json reads it, with a warning
mkdir dup
cp s.jsonl dup/steps.jsonl
printf '{"name": "dup", "flops_per_step": 1e9, "peak_flops": 1e12, "flops_per_step": 4e9}' >dup/run.json
"$T" --no-index --compat pytscope --print --color never dup 2>/dev/null | grep "MFU" >dupc.txt
"$T" --no-index --compat pytscope --flops-per-step 4e9 --print --color never dup 2>/dev/null | grep "MFU" >dupf.txt
"$T" --no-index --export sources dup >dup.csv 2>/dev/null
tap_check "run.json key given twice: the last used (--compat pytscope's MFU is pytscope's), warned about" \
	'[ -s dupc.txt ] && cmp -s dupc.txt dupf.txt &&
	 grep -qxF "warning,dup/run.json,,0,,60,,,\"key \"\"flops_per_step\"\" given twice (first at byte 17): the last \
is used, as pytscope'"'"'s JSON reader keeps the last\"" dup.csv'
tap_plan
