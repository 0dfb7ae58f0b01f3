#!/bin/sh
# hostile_inputs.sh: the inputs coverage-guided fuzzing found (issue 16), regenerated
# here: each must cost memory, output and time in proportion to the input (a 10 KB run
# name is clipped in the report's title), give one diagnostic per bad line, never die
# on a signal and never invent a record. --compat pytscope draws a share outside [0, 1] as
# pytscope's bar does (more than 30 cells), at most 3000 cells past the 30.
# Limits (ulimit -v / -t) are generous safety bounds that turn a regression into a
# failure instead of a hung suite; they are not timings.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# bounded CMD...: run under 1 GB of address space and 30 CPU seconds; sets rc. Under
# AddressSanitizer (which reserves terabytes of address space) only the CPU bound.
vlimit=1000000
case $TSCOPE_BUILD in *asan*) vlimit=unlimited ;; esac
bounded() {
	(ulimit -v $vlimit; ulimit -t 30; ulimit -c 0; exec "$@")
	rc=$?
}
steps_run() { # steps_run DIR LINE...: a run dir whose steps.jsonl holds the lines
	d=$1; shift
	mkdir -p "$d"
	printf '%s\n' "$@" >"$d/steps.jsonl"
}

# 1. Huge and negative phase values on a few steps (670 bytes cost gigabytes).
steps_run huge '{"step":0,"phases":{"forward":100000000.0,"backward":-99999999.9}}' \
	'{"step":1,"phases":{"forward":100000000.0,"backward":-99999999.9}}' \
	'{"step":2,"phases":{"forward":1e300,"backward":-1e300}}' \
	'{"step":3,"phases":{"forward":1e-300,"backward":1e300}}'
bounded "$TSCOPE_BIN" --print --color always huge >out 2>err
tap_check "huge/negative phases: --print exits 0, no signal" '[ "$rc" -eq 0 ]'
tap_check "huge/negative phases: report bounded by the layout (< 8 KB)" '[ "$(wc -c <out)" -lt 8192 ]'
"$TSCOPE_BIN" --export sources --no-index huge >src 2>/dev/null
want='warning,huge/steps.jsonl,,0,1,,,,"phase ""backward"" is -99999999.9, not a duration (a finite number of'
want="$want seconds >= 0); kept as recorded, as pytscope keeps it (sums and shares that take it are not durations"
want="$want either; later ones in this file are not listed)\""
tap_eq "a negative phase: one warning for the file, at its first (line 1)" "$want" "$(grep "not a duration" src)"
tap_eq "huge/negative phases: every bar is 30 cells" "{30}" "$(python3 -c '
import re
bars = [re.sub("\x1b\\[[0-9;]*m", "", l) for l in open("out", encoding="utf-8") if re.match("  (forward|backward) ", l)]
print({len(re.search("[█░]+", b).group()) for b in bars})')"

# ... --compat pytscope draws a share outside [0, 1] as pytscope does (spec §11 Bar: a
# count below 0 draws nothing): 138.5% is 42 full cells and no light shade, -61.5% no full
# cell and 48 light shade (bounded still: section 3)
steps_run neg '{"step":0,"phases":{"data":0.01,"forward":0.02,"backward":0.04,"comm":0.01}}' \
	'{"step":1,"phases":{"data":-0.1,"forward":0.02,"backward":0.04,"comm":0.01}}' \
	'{"step":2,"phases":{"data":0.01,"forward":0.02,"backward":0.04,"comm":0.01}}'
"$TSCOPE_BIN" --print --compat pytscope --no-index neg >out 2>/dev/null
cells() { python3 -c 'import sys; print(sys.argv[1] * int(sys.argv[2]), end="")' "$1" "$2"; }
tap_eq "--compat pytscope: a budget share above 1 draws pytscope's 42 full cells and no light shade" \
	"  useful_compute    $(cells █ 42) 138.5%     0.18s" "$(grep '^  useful_compute ' out)"
tap_eq "--compat pytscope: a negative phase share draws pytscope's 48 light shade cells" \
	"  data       $(cells ░ 48) -61.5%   -26.67 ms" "$(grep '^  data ' out)"

# 2. NaN and infinite phases reach the bars (UB: NaN converted to long).
steps_run nan '{"step":0,"phases":{"forward":Infinity,"backward":-Infinity,"data":NaN}}' \
	'{"step":1,"phases":{"forward":NaN,"backward":1}}' '{"step":2,"phases":{"forward":-Infinity}}'
bounded "$TSCOPE_BIN" --print nan >out 2>err
tap_check "NaN/inf phases: --print exits 0, no signal" '[ "$rc" -eq 0 ]'
tap_check "NaN/inf phases: no sanitizer report" '! grep -q "runtime error" err'
"$TSCOPE_BIN" --export sources --no-index nan >src 2>/dev/null
tap_check "NaN/inf phases: one warning, the first of line 1 (forward = Infinity)" \
	'[ "$(grep -c "not a duration" src)" = 1 ] &&
	 grep -q "^warning,nan/steps.jsonl,,0,1,.*phase \"\"forward\"\" is Infinity, not" src'
steps_run nanj '{"step":0,"x":"a string, which the scanner leaves to jsmn","phases":{"forward":0.1,"data":NaN}}'
"$TSCOPE_BIN" --export sources --no-index nanj >src 2>/dev/null
tap_check "... the same through the general JSON path (data = NaN)" \
	'grep -q "^warning,nanj/steps.jsonl,,0,1,.*phase \"\"data\"\" is NaN, not" src'

# 3. The 189-byte amplifier: one phase fraction of 1e9 once wrote a 1.8 GB report.
steps_run amp '{"step":0,"phases":{"forward":1e9,"backward":-999999999.9}}' \
	'{"step":1,"phases":{"forward":1e9,"backward":-999999999.9}}'
bounded "$TSCOPE_BIN" --print amp >out 2>err
tap_check "189-byte amplifier: exit 0 and a report under 4 KB" '[ "$rc" -eq 0 ] && [ "$(wc -c <out)" -lt 4096 ]'
bounded "$TSCOPE_BIN" --print --compat pytscope --color always amp >out 2>err
tap_check "189-byte amplifier, --compat pytscope: exit 0, a bar at most 3000 cells past its 30 (report < 64 KB)" \
	'[ "$rc" -eq 0 ] && [ "$(wc -c <out)" -lt 65536 ] && grep -q "█\{3030\}" out'

# 4. One line nested 1,000,000 deep: linear time, one diagnostic.
mkdir -p deep
python3 -c 'import sys; sys.stdout.write("[" * 1000000 + "]" * 1000000 + "\n" + "{\"step\":1,\"phases\":{\"forward\":0.1}}\n")' >deep/steps.jsonl
bounded "$TSCOPE_BIN" --export sources deep >out 2>err
tap_check "1,000,000-deep line: exits 0 within the CPU bound" '[ "$rc" -eq 0 ]'
tap_eq "1,000,000-deep line: one diagnostic, on line 1" "warning,deep/steps.jsonl,,0,1,,,,line skipped: JSON nested too deeply" \
	"$(grep "nested too deeply" out)"
tap_check "1,000,000-deep line: the next line loads" 'grep -q "^file,deep/steps.jsonl,pytscope,0,,,1,1," out'

# 5. A 128 MiB garbage line before a valid one: one diagnostic, no phantom record.
mkdir -p long
{
	echo '{"step":1,"phases":{"forward":0.1}}'
	head -c 134217728 /dev/zero | tr '\0' 'x'
	echo '{"step":999,"phases":{"forward":0.1}}'
	echo '{"step":2,"phases":{"forward":0.1}}'
} >long/steps.jsonl
bounded "$TSCOPE_BIN" --export steps long >out 2>err
tap_check "128 MiB line: exit 0" '[ "$rc" -eq 0 ]'
tap_eq "128 MiB line: steps 1 and 2 only (no phantom 999)" "1 2" "$(tail -n +2 out | cut -d, -f2 | tr '\n' ' ' | sed 's/ $//')"
"$TSCOPE_BIN" --export sources long >out 2>err
tap_eq "128 MiB line: one diagnostic, on line 2" "warning,long/steps.jsonl,,0,2,,,,line skipped: line longer than 64 MiB" \
	"$(grep 'longer than' out)"
rm -rf long

# 6. Integer cells >= 1e63 and step numbers beyond 2^53 round-trip through CSV.
steps_run bigstep '{"step":9007199254740993,"phases":{"forward":0.1}}' \
	'{"step":9223372036854775807,"phases":{"forward":0.1}}' \
	'{"step":-9223372036854775808,"phases":{"forward":0.1}}'
"$TSCOPE_BIN" --export steps bigstep >out 2>err
tap_eq "steps beyond 2^53 and at +-2^63 exported exactly" "9007199254740993 9223372036854775807 -9223372036854775808" \
	"$(tail -n +2 out | cut -d, -f2 | tr '\n' ' ' | sed 's/ $//')"
gp="$TSCOPE_ROOT/../shared/real/genai-perf-medium/simple_medium_response_c1_artifacts"
if [ -d "$gp" ]; then
	cp -r "$gp" gp && chmod -R u+w gp
	rm gp/*/simple_medium_response_c1.json # the raw export: its recomputed count (6) would be the one used
	f=$(ls gp/*/*_genai_perf.json)
	sed 's/"avg": 6.0/"avg": 1.2345678901234567e300/' "$f" >"$f.new" && mv "$f.new" "$f"
	"$TSCOPE_BIN" --export sweep gp >out 2>err
	tap_check "request_count 1.2345678901234567e300 round-trips in CSV" \
		'python3 -c "import csv,sys; r=list(csv.DictReader(open(\"out\"))); sys.exit(0 if any(float(v)==1.2345678901234567e300 for row in r for k,v in row.items() if k.startswith(\"request_count\") and v) else 1)"'
else
	tap_skip "../shared/real/genai-perf-medium is absent"
fi

# 6b. A 10 KB run name ending in U+202E (RLO): the default report's title clips it by
# display columns with an ellipsis (spec/perf-reliability.md 5.2), sanitized; under
# --compat pytscope it is whole, as pytscope prints it.
mkdir -p longname
python3 -c 'import json; print(json.dumps({"name": "N" * 10000 + "\u202e"}))' >longname/run.json
printf '%s\n' '{"step":0,"phases":{"forward":0.1}}' '{"step":1,"phases":{"forward":0.1}}' >longname/steps.jsonl
COLUMNS=80 "$TSCOPE_BIN" --print longname 2>/dev/null | head -1 >title
tap_check "10 KB run name: the title fits 80 columns, ends with an ellipsis" \
	'[ "$(python3 -c "import sys; print(len(open(sys.argv[1], encoding=\"utf-8\").read().rstrip()))" title)" -le 80 ] &&
	 grep -q "^tscope-tui — NNNN*…  (longname)$" title'
COLUMNS=80 "$TSCOPE_BIN" --print --ascii longname 2>/dev/null | head -1 >title
tap_check "10 KB run name, --ascii: clipped with '~'" \
	'[ "$(wc -c <title)" -le 81 ] && grep -q "^tscope-tui - NNNN*~  (longname)$" title'
"$TSCOPE_BIN" --print --compat pytscope longname 2>/dev/null | head -1 >title
tap_check "10 KB run name under --compat pytscope: whole (pytscope's title), RLO sanitized" \
	'grep -qx "pytscope — N\{10000\}<U+202E>  (longname)" title'

# 7. A FIFO as PATH, or named run.json inside a run dir, must not block the load
#    (timeout is a safety bound against a hung suite, not a timing).
mkdir -p fiforun
mkfifo fiforun/run.json
echo '{"step":1,"phases":{"forward":0.1}}' >fiforun/steps.jsonl
timeout 60 "$TSCOPE_BIN" --export sources fiforun >out 2>err
tap_check "FIFO named run.json: loads the steps, says why run.json is skipped" \
	'[ $? -eq 0 ] && grep -q "run.json.*not a regular file" out'
for name in f.jsonl f.json f.json.gz f.csv f.msgpack; do
	mkfifo "$name"
	timeout 60 "$TSCOPE_BIN" --print "$name" >out 2>err
	tap_check "FIFO as PATH ($name): exit 1, no hang" '[ $? -eq 1 ]'
done

# 7b. A file where a loader looks for its data that cannot be read (a FIFO here; file
#     modes: permissions.sh) is named with why, never dropped in silence: a trace
#     sniffed by its first bytes (*.json[.gz], HTA's sampled_rank-N names), a DASF
#     *.msgpack, a Cerebras performance/performance.json, a GenAI-Perf export; a PATH
#     holding nothing else says so, not "no supported data". A readable *.json that is
#     no trace (a config) is not named.
nreg='not a regular file (FIFO, device or socket)'
mkdir -p ktr konly ddb cbf/performance gaf/m-openai-chat-concurrency1
printf '%s\n' '{"distributedInfo":{"rank":0,"world_size":2},"traceEvents":[{"ph":"X","cat":"kernel","name":"k",
"pid":0,"tid":7,"ts":1,"dur":2,"args":{"device":0,"stream":7}}]}' >ktr/sampled_rank-0.json
echo '{"lr": 0.1}' >ktr/config.json
mkfifo ktr/sampled_rank-1.json.gz konly/rank0.json
timeout 60 "$TSCOPE_BIN" --export sources --no-index ktr >out 2>err
tap_check "a FIFO sampled_rank-1.json.gz beside a trace: named with why, the trace read, config.json not named" \
	'grep -q "^file,ktr/sampled_rank-1.json.gz,kineto,,,,0,0,unreadable$" out &&
	 grep -q "^error,ktr/sampled_rank-1.json.gz,,,,,,,\"cannot read: $nreg\"$" out &&
	 grep -q "^file,ktr/sampled_rank-0.json,kineto,0,,,1,0,ok$" out && ! grep -q config.json out'
timeout 60 "$TSCOPE_BIN" --print --no-index konly >out 2>err
tap_check "a dir holding only a FIFO rank0.json: exit 1, the file and why, not \"no supported data found here\"" \
	'[ $? -eq 1 ] && grep -q "^tscope-tui: konly: cannot read rank0.json: $nreg; no supported data in the rest$" err'
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_dasf" fixture dfifo >/dev/null
cp "$(ls dfifo/*TracePlugin*.msgpack | head -1)" ddb/1-TracePlugin-hA.msgpack && mkfifo ddb/2-TracePlugin-hB.msgpack
timeout 60 "$TSCOPE_BIN" --export sources --no-index ddb >out 2>err
tap_check "a FIFO *.msgpack beside a DASF database: named with why" \
	'grep -q "^file,ddb/2-TracePlugin-hB.msgpack,dasf,,,,0,0,unreadable$" out &&
	 grep -q "^error,ddb/2-TracePlugin-hB.msgpack,,,,,,,cannot read: not a regular file$" out'
mkfifo cbf/performance/performance.json gaf/m-openai-chat-concurrency1/profile_export_genai_perf.json
timeout 60 "$TSCOPE_BIN" --print --no-index cbf >out 2>err
tap_check "a FIFO performance/performance.json: named with why, not \"no supported data\"" \
	'grep -q "^tscope-tui: cbf/performance/performance.json: cannot read: $nreg$" err && ! grep -q "no supported" err'
timeout 60 "$TSCOPE_BIN" --export sources --no-index gaf >out 2>err
tap_check "a FIFO GenAI-Perf export: named with why" \
	'grep -q "^error,gaf/m-openai-chat-concurrency1/profile_export_genai_perf.json,,,,,,,\"cannot read: $nreg\"$" out'

# 8. :resize is bounded (100000 x 100000 crashed inside ncurses, 30000 x 30000 grew to 16 GB).
printf ':resize 100000 100000\n:dump %s/rs1\n:resize 30000 30000\n:resize 1000 2000\n:dump %s/rs2\n' \
	"$PWD" "$PWD" >rs.keys
(ulimit -v $vlimit; ulimit -c 0; LINES=24 COLUMNS=80 TERM=dumb TSCOPE_SCRIPT=rs.keys \
	exec "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>&1)
tap_check ":resize beyond the bounds: refused with the bounds, no signal" \
	'[ $? -eq 0 ] && grep -q "usage: :resize ROWS COLS (2..1000 rows, 2..2000 columns)" rs1'
tap_eq ":resize 1000 2000 (the bound) works" 1000 "$(grep -c "" rs2)"

# 9. Compressed traces: memory per thread is capped (a 3 MB .gz once cost 1 GiB per
#    file per thread): one 100 MiB event in each of four small .gz files, --jobs 4. The
#    oversized event is skipped and counted in its file's row, as any skipped record is
#    (a trace holding only that event: 0 records, 1 skipped).
mkdir -p gz
python3 -c '
import gzip
with gzip.open("gz/rank0.json.gz", "wb", compresslevel=6) as f:
    f.write(b"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"big\",\"ts\":1,\"dur\":2,\"args\":{\"x\":\"")
    for i in range(100): f.write(b"A" * (1 << 20))
    f.write(b"\"}},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":5,\"dur\":2,\"pid\":0,\"tid\":7}]}")'
for r in 1 2 3; do cp gz/rank0.json.gz gz/rank$r.json.gz; done
bounded "$TSCOPE_BIN" --jobs 4 --export sources gz >out 2>err
tap_check "four .gz with a 100 MiB event, --jobs 4: loads under 1 GB of address space" '[ "$rc" -eq 0 ]'
tap_eq "the oversized event: one diagnostic per file, counted skipped, the next event kept" "4 4" \
	"$(grep -c "trace event larger than 64 MiB; skipped" out) \
$(grep -c "^file,gz/rank[0-3].json.gz,kineto,[0-3],,,1,1,ok" out)"
mkdir -p gz1
python3 -c '
import gzip
with gzip.open("gz1/rank0.json.gz", "wb", compresslevel=6) as f:
    f.write(b"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"big\",\"ts\":1,\"dur\":2,\"args\":{\"x\":\"")
    for i in range(65): f.write(b"A" * (1 << 20))
    f.write(b"\"}}]}")'
bounded "$TSCOPE_BIN" --export sources gz1 >out 2>err
tap_check "a trace whose only event is oversized: 0 records, 1 skipped (stderr counts it)" \
	'grep -q "^file,gz1/rank0.json.gz,kineto,0,,,0,1," out && grep -q "(1 record skipped)" err'

# 10. A DASF database that shrinks while it loads (rotated or rewritten): pread, not
#     mmap, so the file ends early with a diagnostic instead of SIGBUS. 64 MB of
#     repeated fixture records; the loader is stopped once it has the file open, the
#     file is truncated to 20 MB, the loader continues. Up to 5 tries to catch it
#     mid-file; every try must end without a signal.
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_dasf" fixture dfx >/dev/null
python3 -c '
import glob, struct
b = open(sorted(glob.glob("dfx/*TracePlugin*.msgpack"))[0], "rb").read()
rec = b[:8 + struct.unpack(">Q", b[:8])[0]]
open("big.msgpack", "wb").write(rec * (64 * 1024 * 1024 // len(rec)))'
signalled=0 seen=0 try=0
while [ $try -lt 5 ] && [ $seen -eq 0 ]; do
	cp big.msgpack shrink.msgpack
	"$TSCOPE_BIN" --export sources shrink.msgpack >out 2>err &
	pid=$!
	i=0
	while [ $i -lt 2000 ] && ! ls -l /proc/$pid/fd 2>/dev/null | grep -q shrink.msgpack; do i=$((i + 1)); done
	kill -STOP $pid 2>/dev/null
	truncate -s 20000000 shrink.msgpack
	kill -CONT $pid 2>/dev/null
	wait $pid
	[ $? -ge 128 ] && signalled=1
	grep -q "the file shrank while it was read" out && seen=1
	try=$((try + 1))
done
tap_check "DASF database truncated during the load: no signal ($try tries)" '[ $signalled -eq 0 ]'
tap_check "DASF database truncated during the load: one diagnostic, records up to the cut" \
	'[ $seen -eq 1 ] && [ "$(grep -c "shrank" out)" -eq 1 ] && grep -q "^file,shrink.msgpack,dasf,,,,[1-9]" out'
rm -f big.msgpack shrink.msgpack

tap_plan
